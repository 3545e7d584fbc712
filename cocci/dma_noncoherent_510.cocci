// DMA_ATTR_NON_CONSISTENT and dma_cache_sync() were removed in Linux 5.10:
// dma_alloc_noncoherent(), with a direction, gives the same cacheable
// memory, and the driver hands it over with dma_sync_single_for_device()
// and dma_sync_single_for_cpu() on its handle instead of dma_cache_sync()
// on its CPU address.  The buffer and its handle are found where the
// driver keeps them, two fields of one struct (E->buf, E->buf_dma), as
// most drivers do.
//
// A CPU address past the start (E->buf + i) is the handle plus i elements
// in bytes (E->buf_dma + i * sizeof(*E->buf)).
//
// dma_cache_sync(DMA_TO_DEVICE) cleaned before the device read: it
// becomes dma_sync_single_for_device(); dma_cache_sync(DMA_FROM_DEVICE)
// invalidated before the CPU read what the device wrote: it becomes
// dma_sync_single_for_cpu().  The allocation gets DMA_BIDIRECTIONAL, as
// NON_CONSISTENT had no direction: narrow it by hand where the buffer
// goes one way only.
//
// Usage: spatch --sp-file cocci/dma_noncoherent_510.cocci --in-place --dir DIR
//
// Confidence: Medium (a dma_cache_sync() of DMA_BIDIRECTIONAL, or on a
// pointer that is not the allocation's field, is left for a human)

virtual patch

@alloc depends on patch@
expression dev, size, gfp, E;
identifier vf, hf;
@@
- E->vf = dma_alloc_attrs(dev, size, &E->hf, gfp, DMA_ATTR_NON_CONSISTENT)
+ E->vf = dma_alloc_noncoherent(dev, size, &E->hf, DMA_BIDIRECTIONAL, gfp)

@depends on alloc@
expression dev, size, E;
identifier alloc.vf, alloc.hf;
@@
- dma_free_attrs(dev, size, E->vf, E->hf, DMA_ATTR_NON_CONSISTENT)
+ dma_free_noncoherent(dev, size, E->vf, E->hf, DMA_BIDIRECTIONAL)

@depends on alloc@
expression dev, E, n, off;
identifier alloc.vf, alloc.hf;
@@
(
- dma_cache_sync(dev, E->vf + off, n, DMA_TO_DEVICE)
+ dma_sync_single_for_device(dev, E->hf + off * sizeof(*E->vf), n,
+			    DMA_TO_DEVICE)
|
- dma_cache_sync(dev, E->vf, n, DMA_TO_DEVICE)
+ dma_sync_single_for_device(dev, E->hf, n, DMA_TO_DEVICE)
|
- dma_cache_sync(dev, E->vf + off, n, DMA_FROM_DEVICE)
+ dma_sync_single_for_cpu(dev, E->hf + off * sizeof(*E->vf), n,
+			 DMA_FROM_DEVICE)
|
- dma_cache_sync(dev, E->vf, n, DMA_FROM_DEVICE)
+ dma_sync_single_for_cpu(dev, E->hf, n, DMA_FROM_DEVICE)
)
