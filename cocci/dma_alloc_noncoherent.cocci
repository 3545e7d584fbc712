// dma_alloc_noncoherent() and dma_free_noncoherent() were removed in Linux
// 4.14.  dma_alloc_attrs() with DMA_ATTR_NON_CONSISTENT asks for the same
// memory (cacheable, the driver owns every sync), and the free must repeat
// the attribute.
//
// Usage: spatch --sp-file cocci/dma_alloc_noncoherent.cocci --in-place --dir DIR
//
// Confidence: High (the replacements take the same arguments plus attrs)

virtual patch

@depends on patch@
expression dev, size, handle, gfp;
@@
- dma_alloc_noncoherent(dev, size, handle, gfp)
+ dma_alloc_attrs(dev, size, handle, gfp, DMA_ATTR_NON_CONSISTENT)

@depends on patch@
expression dev, size, vaddr, handle;
@@
- dma_free_noncoherent(dev, size, vaddr, handle)
+ dma_free_attrs(dev, size, vaddr, handle, DMA_ATTR_NON_CONSISTENT)
