/* SPDX-License-Identifier: MIT */
/*
 * <dmaemu/vma.h> - the "user" mappings made by dma_mmap_attrs().
 *
 * dma_mmap_attrs() (<linux/dma-mapping.h>), remap_pfn_range()
 * (<linux/mm.h>) and remap_vmalloc_range() (<linux/vmalloc.h>) map
 * memory for a "user" thread: they create a host mapping and point the
 * vm_area_struct at it.  That mapping outlives the call, as a user
 * mapping outlives the driver's mmap handler; release it here.
 */
#ifndef DMAEMU_VMA_H
#define DMAEMU_VMA_H

#ifdef __cplusplus
extern "C" {
#endif

struct vm_area_struct;

/**
 * dmaemu_vma_unmap() - remove the host mapping, as the user's munmap()
 * would: @vma->vm_ops->close(@vma) runs first when the driver set it.
 * @vma: the area (NULL, or one never mapped, is ignored).
 *
 * After the call @vma->vm_start is 0, @vm_end the size, and the area can
 * be passed to dma_mmap_attrs() again.  Unmapping the user view does not
 * free the buffer, and freeing the buffer does not unmap the view (as in
 * the kernel, the user mapping keeps DRAM pages; here it would then show
 * whatever reuses them).
 */
void dmaemu_vma_unmap(struct vm_area_struct *vma);

#ifdef __cplusplus
}
#endif

#endif
