/* SPDX-License-Identifier: MIT */
/*
 * <linux/pci-dma-compat.h> - the PCI names of the DMA API that Linux 4.14
 * still provides (most PCI drivers of that time use them); gone in 6.12.
 *
 * Each is its dma_* call on &hwdev->dev (NULL for a NULL @hwdev, which is
 * a bad-argument report here: there is no fallback device), with the
 * direction cast to enum dma_data_direction, as 4.14's static inlines do:
 * pci_alloc_consistent() and pci_zalloc_consistent() allocate with
 * GFP_ATOMIC.  They are macros expanding to the out-of-line DMA calls, so
 * a report names the driver's own line (the "at" line), as for a direct
 * dma_map_single(); the function in ", in ...()" is the dma_* one.
 */
#ifndef DMAEMU_KERNEL_LINUX_PCI_DMA_COMPAT_H
#define DMAEMU_KERNEL_LINUX_PCI_DMA_COMPAT_H

#include <dmaemu/level.h>
#include <linux/dma-mapping.h>
#include <linux/pci.h>

#ifdef __cplusplus
extern "C" {
#endif

#if DMAEMU_KERNEL == 612
/*
 * Linux 5.18 removed this header and every name in it: drivers call the
 * dma_* functions on &pdev->dev.  Included on its own it is an error; the
 * names <linux/pci.h> used to bring are errors naming the replacement.
 */
#ifndef DMAEMU__PCI_H_INCLUDES_COMPAT
#error "<linux/pci-dma-compat.h> was removed in Linux 5.18: use the dma_* calls of <linux/dma-mapping.h> on &pdev->dev"
#endif
/* clang-format off */
#define PCI_DMA_BIDIRECTIONAL \
	(_Pragma("GCC error \"PCI_DMA_BIDIRECTIONAL was removed in Linux 5.18: use DMA_BIDIRECTIONAL\"") 0)
#define PCI_DMA_TODEVICE \
	(_Pragma("GCC error \"PCI_DMA_TODEVICE was removed in Linux 5.18: use DMA_TO_DEVICE\"") 0)
#define PCI_DMA_FROMDEVICE \
	(_Pragma("GCC error \"PCI_DMA_FROMDEVICE was removed in Linux 5.18: use DMA_FROM_DEVICE\"") 0)
#define PCI_DMA_NONE \
	(_Pragma("GCC error \"PCI_DMA_NONE was removed in Linux 5.18: use DMA_NONE\"") 0)
#define pci_dma_supported(...) \
	(_Pragma("GCC error \"pci_dma_supported() was removed in Linux 5.18: use dma_supported(&pdev->dev, mask)\"") 0)
#define pci_alloc_consistent(...) \
	(_Pragma("GCC error \"pci_alloc_consistent() was removed in Linux 5.18: use dma_alloc_coherent(&pdev->dev, size, handle, GFP_ATOMIC)\"") 0)
#define pci_zalloc_consistent(...) \
	(_Pragma("GCC error \"pci_zalloc_consistent() was removed in Linux 5.18: use dma_alloc_coherent(&pdev->dev, size, handle, GFP_ATOMIC)\"") 0)
#define pci_free_consistent(...) \
	(_Pragma("GCC error \"pci_free_consistent() was removed in Linux 5.18: use dma_free_coherent(&pdev->dev, size, vaddr, handle)\"") 0)
#define pci_map_single(...) \
	(_Pragma("GCC error \"pci_map_single() was removed in Linux 5.18: use dma_map_single(&pdev->dev, ptr, size, dir)\"") 0)
#define pci_unmap_single(...) \
	(_Pragma("GCC error \"pci_unmap_single() was removed in Linux 5.18: use dma_unmap_single(&pdev->dev, addr, size, dir)\"") 0)
#define pci_map_page(...) \
	(_Pragma("GCC error \"pci_map_page() was removed in Linux 5.18: use dma_map_page(&pdev->dev, page, offset, size, dir)\"") 0)
#define pci_unmap_page(...) \
	(_Pragma("GCC error \"pci_unmap_page() was removed in Linux 5.18: use dma_unmap_page(&pdev->dev, addr, size, dir)\"") 0)
#define pci_map_sg(...) \
	(_Pragma("GCC error \"pci_map_sg() was removed in Linux 5.18: use dma_map_sg(&pdev->dev, sg, nents, dir)\"") 0)
#define pci_unmap_sg(...) \
	(_Pragma("GCC error \"pci_unmap_sg() was removed in Linux 5.18: use dma_unmap_sg(&pdev->dev, sg, nents, dir)\"") 0)
#define pci_dma_sync_single_for_cpu(...) \
	(_Pragma("GCC error \"pci_dma_sync_single_for_cpu() was removed in Linux 5.18: use dma_sync_single_for_cpu(&pdev->dev, handle, size, dir)\"") 0)
#define pci_dma_sync_single_for_device(...) \
	(_Pragma("GCC error \"pci_dma_sync_single_for_device() was removed in Linux 5.18: use dma_sync_single_for_device(&pdev->dev, handle, size, dir)\"") 0)
#define pci_dma_sync_sg_for_cpu(...) \
	(_Pragma("GCC error \"pci_dma_sync_sg_for_cpu() was removed in Linux 5.18: use dma_sync_sg_for_cpu(&pdev->dev, sg, nents, dir)\"") 0)
#define pci_dma_sync_sg_for_device(...) \
	(_Pragma("GCC error \"pci_dma_sync_sg_for_device() was removed in Linux 5.18: use dma_sync_sg_for_device(&pdev->dev, sg, nents, dir)\"") 0)
#define pci_dma_mapping_error(...) \
	(_Pragma("GCC error \"pci_dma_mapping_error() was removed in Linux 5.18: use dma_mapping_error(&pdev->dev, addr)\"") 0)
#define pci_set_dma_mask(...) \
	(_Pragma("GCC error \"pci_set_dma_mask() was removed in Linux 5.18: use dma_set_mask(&pdev->dev, mask)\"") 0)
#define pci_set_consistent_dma_mask(...) \
	(_Pragma("GCC error \"pci_set_consistent_dma_mask() was removed in Linux 5.18: use dma_set_coherent_mask(&pdev->dev, mask)\"") 0)
#define pci_set_dma_max_seg_size(...) \
	(_Pragma("GCC error \"pci_set_dma_max_seg_size() was removed in Linux 5.18: use dma_set_max_seg_size(&pdev->dev, size)\"") 0)
#define pci_set_dma_seg_boundary(...) \
	(_Pragma("GCC error \"pci_set_dma_seg_boundary() was removed in Linux 5.18: use dma_set_seg_boundary(&pdev->dev, mask)\"") 0)
/* clang-format on */
#else
/* Directions, equal to enum dma_data_direction's. */
#define PCI_DMA_BIDIRECTIONAL 0
#define PCI_DMA_TODEVICE 1
#define PCI_DMA_FROMDEVICE 2
#define PCI_DMA_NONE 3

#define pci_dma_supported(hwdev, mask) \
	dma_supported(dmaemu__pci_dma_dev(hwdev), (mask))

#define pci_alloc_consistent(hwdev, size, dma_handle)                     \
	dma_alloc_attrs(dmaemu__pci_dma_dev(hwdev), (size), (dma_handle), \
			GFP_ATOMIC, 0)

#define pci_zalloc_consistent(hwdev, size, dma_handle)                    \
	dma_alloc_attrs(dmaemu__pci_dma_dev(hwdev), (size), (dma_handle), \
			GFP_ATOMIC | __GFP_ZERO, 0)

#define pci_free_consistent(hwdev, size, vaddr, dma_handle)         \
	dma_free_attrs(dmaemu__pci_dma_dev(hwdev), (size), (vaddr), \
		       (dma_handle), 0)

#define pci_map_single(hwdev, ptr, size, direction)                     \
	dma_map_single_attrs(dmaemu__pci_dma_dev(hwdev), (ptr), (size), \
			     (enum dma_data_direction)(direction), 0)

#define pci_unmap_single(hwdev, dma_addr, size, direction)                     \
	dma_unmap_single_attrs(dmaemu__pci_dma_dev(hwdev), (dma_addr), (size), \
			       (enum dma_data_direction)(direction), 0)

#define pci_map_page(hwdev, page, offset, size, direction)               \
	dma_map_page_attrs(dmaemu__pci_dma_dev(hwdev), (page), (offset), \
			   (size), (enum dma_data_direction)(direction), 0)

#define pci_unmap_page(hwdev, dma_address, size, direction)             \
	dma_unmap_page_attrs(dmaemu__pci_dma_dev(hwdev), (dma_address), \
			     (size), (enum dma_data_direction)(direction), 0)

#define pci_map_sg(hwdev, sg, nents, direction)                     \
	dma_map_sg_attrs(dmaemu__pci_dma_dev(hwdev), (sg), (nents), \
			 (enum dma_data_direction)(direction), 0)

#define pci_unmap_sg(hwdev, sg, nents, direction)                     \
	dma_unmap_sg_attrs(dmaemu__pci_dma_dev(hwdev), (sg), (nents), \
			   (enum dma_data_direction)(direction), 0)

#define pci_dma_sync_single_for_cpu(hwdev, dma_handle, size, direction)   \
	dma_sync_single_for_cpu(dmaemu__pci_dma_dev(hwdev), (dma_handle), \
				(size), (enum dma_data_direction)(direction))

#define pci_dma_sync_single_for_device(hwdev, dma_handle, size, direction)   \
	dma_sync_single_for_device(dmaemu__pci_dma_dev(hwdev), (dma_handle), \
				   (size),                                   \
				   (enum dma_data_direction)(direction))

#define pci_dma_sync_sg_for_cpu(hwdev, sg, nelems, direction)           \
	dma_sync_sg_for_cpu(dmaemu__pci_dma_dev(hwdev), (sg), (nelems), \
			    (enum dma_data_direction)(direction))

#define pci_dma_sync_sg_for_device(hwdev, sg, nelems, direction)           \
	dma_sync_sg_for_device(dmaemu__pci_dma_dev(hwdev), (sg), (nelems), \
			       (enum dma_data_direction)(direction))

#define pci_dma_mapping_error(pdev, dma_addr) \
	dma_mapping_error(dmaemu__pci_dma_dev(pdev), (dma_addr))

#define pci_set_dma_mask(dev, mask) \
	dma_set_mask(dmaemu__pci_dma_dev(dev), (mask))

#define pci_set_consistent_dma_mask(dev, mask) \
	dma_set_coherent_mask(dmaemu__pci_dma_dev(dev), (mask))

#define pci_set_dma_max_seg_size(dev, size) \
	dma_set_max_seg_size(dmaemu__pci_dma_dev(dev), (size))

#define pci_set_dma_seg_boundary(dev, mask) \
	dma_set_seg_boundary(dmaemu__pci_dma_dev(dev), (mask))

#endif

#ifdef __cplusplus
}
#endif

#endif
