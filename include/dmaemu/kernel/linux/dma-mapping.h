/* SPDX-License-Identifier: MIT */
/*
 * <linux/dma-mapping.h> - the DMA-mapping API at the level of Linux 4.14.
 *
 * On the emulated machine these calls behave as on a non-coherent board
 * (profiles arm and arm64) or a coherent one (x86): a missing or wrong
 * cache-maintenance call gives the device or the CPU stale data.  Which
 * backend serves a mapping (direct, swiotlb bounce buffers, IOMMU) is
 * chosen by the machine's options and the device's masks.
 *
 * Bad arguments (NULL device, invalid direction, unknown attribute bits)
 * are reported as bad-argument and fail the call: where Linux would BUG(),
 * dmaemu returns an error and keeps running.
 */
#ifndef DMAEMU_KERNEL_LINUX_DMA_MAPPING_H
#define DMAEMU_KERNEL_LINUX_DMA_MAPPING_H

#include <dmaemu/ktypes.h>
#include <linux/device.h>
#include <linux/dma-direction.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/scatterlist.h>

#ifdef __cplusplus
extern "C" {
#endif

struct vm_area_struct;

/*
 * DMA attributes (see the seed document DMA-attributes.txt and
 * docs/dma-api.md for what each does here).  Bit values are Linux 4.14's.
 */
#define DMA_ATTR_WRITE_BARRIER (1UL << 0)
#define DMA_ATTR_WEAK_ORDERING (1UL << 1)
#define DMA_ATTR_WRITE_COMBINE (1UL << 2)
#define DMA_ATTR_NON_CONSISTENT (1UL << 3)
#define DMA_ATTR_NO_KERNEL_MAPPING (1UL << 4)
#define DMA_ATTR_SKIP_CPU_SYNC (1UL << 5)
#define DMA_ATTR_FORCE_CONTIGUOUS (1UL << 6)
#define DMA_ATTR_ALLOC_SINGLE_PAGES (1UL << 7)
#define DMA_ATTR_NO_WARN (1UL << 8)
#define DMA_ATTR_PRIVILEGED (1UL << 9)

/* The handle a failed mapping returns; test it with dma_mapping_error(). */
#define DMA_MAPPING_ERROR (~(dma_addr_t)0)

#define DMA_BIT_MASK(n) (((n) == 64) ? ~0ULL : ((1ULL << (n)) - 1))

/* ---- coherent and attribute allocations ------------------------------ */

/**
 * dma_alloc_attrs() - allocate a buffer both the CPU and @dev can reach.
 * @dev:        the device.
 * @size:       bytes (rounded up to whole pages).
 * @dma_handle: where the bus address goes.
 * @flag:       GFP flags (zone from the coherent mask; __GFP_ZERO implied).
 * @attrs:      DMA_ATTR_* bits.
 *
 * Return: the CPU address (uncached alias on arm/arm64, cacheable on x86;
 * cacheable for NON_CONSISTENT; write-combining for WRITE_COMBINE; an
 * inaccessible cookie for NO_KERNEL_MAPPING), or NULL when out of memory
 * (reported unless NO_WARN or __GFP_NOWARN) or on a bad argument.
 */
void *dma_alloc_attrs(struct device *dev, size_t size, dma_addr_t *dma_handle,
		      gfp_t flag, unsigned long attrs);

/**
 * dma_free_attrs() - free what dma_alloc_attrs() returned.  @attrs must
 * repeat NO_KERNEL_MAPPING (missing: a missing-attribute report, nothing
 * freed; added to a buffer without it: bad-free), as Linux 4.14 depends
 * on it; the other attributes need not be repeated.  A buffer never
 * allocated, or freed with another size or handle, is reported; reports
 * name the buffer's physical address.
 */
void dma_free_attrs(struct device *dev, size_t size, void *cpu_addr,
		    dma_addr_t dma_handle, unsigned long attrs);

/*
 * The shorthands are macros over the out-of-line calls (the kernel's are
 * static inlines), so that a report names the driver's line as its "at"
 * line whatever the optimisation level, not a line of this header.
 */
#define dma_alloc_coherent(dev, size, dma_handle, flag) \
	dma_alloc_attrs((dev), (size), (dma_handle), (flag), 0)

#define dma_zalloc_coherent(dev, size, dma_handle, flag) \
	dma_alloc_attrs((dev), (size), (dma_handle), (flag) | __GFP_ZERO, 0)

#define dma_free_coherent(dev, size, cpu_addr, dma_handle) \
	dma_free_attrs((dev), (size), (cpu_addr), (dma_handle), 0)

#define dma_alloc_wc(dev, size, dma_addr, gfp)            \
	dma_alloc_attrs((dev), (size), (dma_addr), (gfp), \
			DMA_ATTR_WRITE_COMBINE)

#define dma_free_wc(dev, size, cpu_addr, dma_addr)            \
	dma_free_attrs((dev), (size), (cpu_addr), (dma_addr), \
		       DMA_ATTR_WRITE_COMBINE)

/* Managed allocations: released when the device is destroyed. */
void *dmam_alloc_attrs(struct device *dev, size_t size, dma_addr_t *dma_handle,
		       gfp_t gfp, unsigned long attrs);
void *dmam_alloc_coherent(struct device *dev, size_t size,
			  dma_addr_t *dma_handle, gfp_t gfp);
void dmam_free_coherent(struct device *dev, size_t size, void *vaddr,
			dma_addr_t dma_handle);

/**
 * dma_mmap_attrs() - map an allocation into a "user" view (@vma).
 * Return: 0, -ENXIO when the range does not fit the buffer, -EINVAL on a
 * bad argument (reported).
 */
int dma_mmap_attrs(struct device *dev, struct vm_area_struct *vma,
		   void *cpu_addr, dma_addr_t dma_addr, size_t size,
		   unsigned long attrs);

#define dma_mmap_coherent(dev, vma, cpu_addr, dma_addr, size) \
	dma_mmap_attrs((dev), (vma), (cpu_addr), (dma_addr), (size), 0)

#define dma_mmap_wc(dev, vma, cpu_addr, dma_addr, size)              \
	dma_mmap_attrs((dev), (vma), (cpu_addr), (dma_addr), (size), \
		       DMA_ATTR_WRITE_COMBINE)

/**
 * dma_get_sgtable_attrs() - describe an allocation as a scatter table.
 * @attrs must repeat NO_KERNEL_MAPPING, as for dma_free_attrs(); a
 * dma_alloc_wc() buffer may be described with @attrs 0 (DRM's CMA
 * helpers do).
 * Return: 0, or a negative errno.
 */
int dma_get_sgtable_attrs(struct device *dev, struct sg_table *sgt,
			  void *cpu_addr, dma_addr_t dma_addr, size_t size,
			  unsigned long attrs);
#define dma_get_sgtable(d, t, v, h, s) dma_get_sgtable_attrs(d, t, v, h, s, 0)

/* ---- streaming mappings ---------------------------------------------- */

/**
 * dma_map_single_attrs() - hand a linear-map buffer to @dev.
 * Return: the bus address, or DMA_MAPPING_ERROR (test with
 * dma_mapping_error()): buffer not in the linear map (stack, heap),
 * bounce pool or IOVA space exhausted, bad argument.
 */
dma_addr_t dma_map_single_attrs(struct device *dev, void *ptr, size_t size,
				enum dma_data_direction dir,
				unsigned long attrs);
void dma_unmap_single_attrs(struct device *dev, dma_addr_t addr, size_t size,
			    enum dma_data_direction dir, unsigned long attrs);
dma_addr_t dma_map_page_attrs(struct device *dev, struct page *page,
			      size_t offset, size_t size,
			      enum dma_data_direction dir, unsigned long attrs);
void dma_unmap_page_attrs(struct device *dev, dma_addr_t addr, size_t size,
			  enum dma_data_direction dir, unsigned long attrs);

/**
 * dma_map_sg_attrs() - map a scatterlist.
 * Return: the number of DMA segments (fewer than @nents when an IOMMU
 * merged entries), or 0 on failure.
 */
int dma_map_sg_attrs(struct device *dev, struct scatterlist *sg, int nents,
		     enum dma_data_direction dir, unsigned long attrs);
/* @nents is the count passed to dma_map_sg_attrs(), not its result. */
void dma_unmap_sg_attrs(struct device *dev, struct scatterlist *sg, int nents,
			enum dma_data_direction dir, unsigned long attrs);

/** dma_map_resource() - map an MMIO (non-RAM) physical range for @dev. */
dma_addr_t dma_map_resource(struct device *dev, phys_addr_t phys_addr,
			    size_t size, enum dma_data_direction dir,
			    unsigned long attrs);
void dma_unmap_resource(struct device *dev, dma_addr_t addr, size_t size,
			enum dma_data_direction dir, unsigned long attrs);

/**
 * dma_mapping_error() - did a map call fail?
 * Return: nonzero for DMA_MAPPING_ERROR (or a backend's error cookie).
 */
int dma_mapping_error(struct device *dev, dma_addr_t dma_addr);

#define dma_map_single(d, a, s, r) dma_map_single_attrs(d, a, s, r, 0)
#define dma_unmap_single(d, a, s, r) dma_unmap_single_attrs(d, a, s, r, 0)
#define dma_map_page(d, p, o, s, r) dma_map_page_attrs(d, p, o, s, r, 0)
#define dma_unmap_page(d, a, s, r) dma_unmap_page_attrs(d, a, s, r, 0)
#define dma_map_sg(d, s, n, r) dma_map_sg_attrs(d, s, n, r, 0)
#define dma_unmap_sg(d, s, n, r) dma_unmap_sg_attrs(d, s, n, r, 0)

/* ---- ownership: syncs --------------------------------------------------- */

void dma_sync_single_for_cpu(struct device *dev, dma_addr_t addr, size_t size,
			     enum dma_data_direction dir);
void dma_sync_single_for_device(struct device *dev, dma_addr_t addr,
				size_t size, enum dma_data_direction dir);
void dma_sync_single_range_for_cpu(struct device *dev, dma_addr_t addr,
				   unsigned long offset, size_t size,
				   enum dma_data_direction dir);
void dma_sync_single_range_for_device(struct device *dev, dma_addr_t addr,
				      unsigned long offset, size_t size,
				      enum dma_data_direction dir);
void dma_sync_sg_for_cpu(struct device *dev, struct scatterlist *sg, int nelems,
			 enum dma_data_direction dir);
void dma_sync_sg_for_device(struct device *dev, struct scatterlist *sg,
			    int nelems, enum dma_data_direction dir);

/**
 * dma_cache_sync() - cache maintenance for a NON_CONSISTENT allocation:
 * clean for DMA_TO_DEVICE, invalidate for DMA_FROM_DEVICE, both for
 * DMA_BIDIRECTIONAL.
 */
void dma_cache_sync(struct device *dev, void *vaddr, size_t size,
		    enum dma_data_direction dir);

/* ---- masks and limits ---------------------------------------------------- */

int dma_supported(struct device *dev, u64 mask);
int dma_set_mask(struct device *dev, u64 mask);
int dma_set_coherent_mask(struct device *dev, u64 mask);
int dma_set_mask_and_coherent(struct device *dev, u64 mask);
int dma_coerce_mask_and_coherent(struct device *dev, u64 mask);
u64 dma_get_mask(struct device *dev);
u64 dma_get_required_mask(struct device *dev);
/* The machine's cache line size (the current machine's). */
int dma_get_cache_alignment(void);
unsigned int dma_get_max_seg_size(struct device *dev);
int dma_set_max_seg_size(struct device *dev, unsigned int size);
unsigned long dma_get_seg_boundary(struct device *dev);
int dma_set_seg_boundary(struct device *dev, unsigned long mask);

/* Storing unmap state in driver structures. */
#define DEFINE_DMA_UNMAP_ADDR(ADDR_NAME) dma_addr_t ADDR_NAME
#define DEFINE_DMA_UNMAP_LEN(LEN_NAME) u32 LEN_NAME
#define dma_unmap_addr(PTR, ADDR_NAME) ((PTR)->ADDR_NAME)
#define dma_unmap_addr_set(PTR, ADDR_NAME, VAL) (((PTR)->ADDR_NAME) = (VAL))
#define dma_unmap_len(PTR, LEN_NAME) ((PTR)->LEN_NAME)
#define dma_unmap_len_set(PTR, LEN_NAME, VAL) (((PTR)->LEN_NAME) = (VAL))

/*
 * dma_alloc_noncoherent() and dma_free_noncoherent() were removed in Linux
 * 4.14: dma_alloc_attrs() with DMA_ATTR_NON_CONSISTENT does the same, and
 * cocci/dma_alloc_noncoherent.cocci converts callers.  A use is a compile
 * error naming the replacement (the pragma fires while preprocessing, with
 * GCC and Clang, at any optimisation level).  Linux 5.10 brought the names
 * back with another signature (a direction before the GFP flags, and the
 * driver syncing with dma_sync_single_for_*()): a call with five
 * arguments is that API, which 4.14 does not have, and its error says so.
 * The argument count picks the message.
 */
/* clang-format off */
#define DMAEMU__NC_CAT_(a, b) a##b
#define DMAEMU__NC_CAT(a, b) DMAEMU__NC_CAT_(a, b)
#define DMAEMU__NC_PICK_(a1, a2, a3, a4, a5, a6, a7, a8, a9, n, ...) n
#define DMAEMU__NC_FORM(...) \
	DMAEMU__NC_PICK_(__VA_ARGS__, 413, 413, 413, 413, 510, 413, 413, 413, 413, 413)
#define dma_alloc_noncoherent(...) \
	DMAEMU__NC_CAT(DMAEMU__ALLOC_NC_, DMAEMU__NC_FORM(__VA_ARGS__))(__VA_ARGS__)
#define dma_free_noncoherent(...) \
	DMAEMU__NC_CAT(DMAEMU__FREE_NC_, DMAEMU__NC_FORM(__VA_ARGS__))(__VA_ARGS__)
#define DMAEMU__ALLOC_NC_413(...) \
	(_Pragma("GCC error \"dma_alloc_noncoherent() was removed in Linux 4.14: use dma_alloc_attrs(..., DMA_ATTR_NON_CONSISTENT)\"") \
	 (void *)0)
#define DMAEMU__FREE_NC_413(...) \
	(_Pragma("GCC error \"dma_free_noncoherent() was removed in Linux 4.14: use dma_free_attrs(..., DMA_ATTR_NON_CONSISTENT)\"") \
	 (void)0)
#define DMAEMU__ALLOC_NC_510(...) \
	(_Pragma("GCC error \"dma_alloc_noncoherent(dev, size, handle, dir, gfp) is the Linux 5.10 API, not in 4.14: use dma_alloc_attrs(dev, size, handle, gfp, DMA_ATTR_NON_CONSISTENT) and dma_cache_sync(dev, vaddr, size, dir) around device accesses\"") \
	 (void *)0)
#define DMAEMU__FREE_NC_510(...) \
	(_Pragma("GCC error \"dma_free_noncoherent(dev, size, vaddr, handle, dir) is the Linux 5.10 API, not in 4.14: use dma_free_attrs(dev, size, vaddr, handle, DMA_ATTR_NON_CONSISTENT)\"") \
	 (void)0)
/* clang-format on */

#ifdef __cplusplus
}
#endif

/* What Linux 4.14's include chain brings with this header (docs/kernel-headers.md). */
#include <linux/bug.h>
#include <linux/err.h>
#include <linux/sizes.h>
#include <linux/string.h>

#endif
