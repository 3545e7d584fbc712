/* SPDX-License-Identifier: MIT */
/*
 * <linux/dma-mapping.h> - the DMA-mapping API at the level of Linux 4.14,
 * or of Linux 6.12 with DMAEMU_KERNEL=612 (<dmaemu/level.h>).
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
#include <dmaemu/level.h>
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
 * docs/dma-api.md for what each does here).  Bit values are Linux 4.14's,
 * and 6.12 kept them; 6.12 has no WRITE_BARRIER (removed in 5.5) and no
 * NON_CONSISTENT (removed in 5.10): at that level each is a compile error
 * naming what replaced it.
 */
#if DMAEMU_KERNEL == 612
/* clang-format off */
#define DMA_ATTR_WRITE_BARRIER \
	(_Pragma("GCC error \"DMA_ATTR_WRITE_BARRIER was removed in Linux 5.5: order the device's writes with the hardware's own means (nothing replaces it in the DMA API)\"") \
	 0UL)
#define DMA_ATTR_NON_CONSISTENT \
	(_Pragma("GCC error \"DMA_ATTR_NON_CONSISTENT was removed in Linux 5.10: use dma_alloc_noncoherent(dev, size, handle, dir, gfp) and dma_sync_single_for_device()/dma_sync_single_for_cpu() on its handle\"") \
	 0UL)
/* clang-format on */
#else
#define DMA_ATTR_WRITE_BARRIER (1UL << 0)
#define DMA_ATTR_NON_CONSISTENT (1UL << 3)
#endif
#define DMA_ATTR_WEAK_ORDERING (1UL << 1)
#define DMA_ATTR_WRITE_COMBINE (1UL << 2)
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

#if DMAEMU_KERNEL == 612
/* clang-format off */
#define dma_zalloc_coherent(...) \
	(_Pragma("GCC error \"dma_zalloc_coherent() was removed in Linux 5.0: use dma_alloc_coherent(), which zeroes\"") \
	 (void *)0)
/* clang-format on */
#else
#define dma_zalloc_coherent(dev, size, dma_handle, flag) \
	dma_alloc_attrs((dev), (size), (dma_handle), (flag) | __GFP_ZERO, 0)
#endif

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

#if DMAEMU_KERNEL == 612
/* clang-format off */
#define dma_cache_sync(...) \
	(_Pragma("GCC error \"dma_cache_sync() was removed in Linux 5.10: allocate with dma_alloc_noncoherent() and use dma_sync_single_for_device()/dma_sync_single_for_cpu() on its handle\"") \
	 (void)0)
/* clang-format on */
#else
/**
 * dma_cache_sync() - cache maintenance for a NON_CONSISTENT allocation:
 * clean for DMA_TO_DEVICE, invalidate for DMA_FROM_DEVICE, both for
 * DMA_BIDIRECTIONAL.
 */
void dma_cache_sync(struct device *dev, void *vaddr, size_t size,
		    enum dma_data_direction dir);
#endif

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

#if DMAEMU_KERNEL == 612
/* ---- Linux 6.12: the calls 4.14 does not have --------------------------- */

/**
 * dma_alloc_pages() - allocate pages the CPU reaches through the cache
 * (Linux 5.10's contract, 6.12's __dma_alloc_pages() and
 * dma_direct_alloc_pages()): zeroed through the cache with no cache
 * maintenance, owned by the CPU; hand them to @dev with
 * dma_sync_single_for_device(dev, *dma_handle, size, @dir) and back with
 * dma_sync_single_for_cpu().  The DMA debugging layer records them as a
 * page mapping in @dir, as 6.12's debug_dma_map_page() call there does.
 * Return: the first page, or NULL (out of memory, a bad argument).
 */
struct page *dma_alloc_pages(struct device *dev, size_t size,
			     dma_addr_t *dma_handle,
			     enum dma_data_direction dir, gfp_t gfp);
void dma_free_pages(struct device *dev, size_t size, struct page *page,
		    dma_addr_t dma_handle, enum dma_data_direction dir);
/**
 * dma_mmap_pages() - a cacheable user view of dma_alloc_pages() memory.
 * Return: 0, -ENXIO when @vma does not fit the buffer, -EINVAL.
 */
int dma_mmap_pages(struct device *dev, struct vm_area_struct *vma, size_t size,
		   struct page *page);

/**
 * dma_alloc_noncoherent() - dma_alloc_pages(), as a kernel address (6.12's
 * static inline over it).
 */
void *dma_alloc_noncoherent(struct device *dev, size_t size,
			    dma_addr_t *dma_handle, enum dma_data_direction dir,
			    gfp_t gfp);
void dma_free_noncoherent(struct device *dev, size_t size, void *vaddr,
			  dma_addr_t dma_handle, enum dma_data_direction dir);

/**
 * dma_alloc_noncontiguous() - non-coherent memory described by a scatter
 * table; without an IOMMU that provides it, one contiguous dma_alloc_pages()
 * chunk in a one-entry table (6.12's alloc_single_sgt()).  The table is
 * mapped (sgt->nents set); sync it with dma_sync_sgtable_for_*().
 * Return: the table, or NULL.
 */
struct sg_table *dma_alloc_noncontiguous(struct device *dev, size_t size,
					 enum dma_data_direction dir, gfp_t gfp,
					 unsigned long attrs);
void dma_free_noncontiguous(struct device *dev, size_t size,
			    struct sg_table *sgt, enum dma_data_direction dir);
void *dma_vmap_noncontiguous(struct device *dev, size_t size,
			     struct sg_table *sgt);
void dma_vunmap_noncontiguous(struct device *dev, void *vaddr);
int dma_mmap_noncontiguous(struct device *dev, struct vm_area_struct *vma,
			   size_t size, struct sg_table *sgt);

/**
 * dma_map_sgtable() - dma_map_sg_attrs() of @sgt's orig_nents entries,
 * the count of DMA segments stored in sgt->nents.
 * Return: 0, or -EINVAL (bad argument), -ENOMEM (no bounce or IOVA space),
 * -EIO (anything else), as 6.12's __dma_map_sg_attrs() does.
 */
int dma_map_sgtable(struct device *dev, struct sg_table *sgt,
		    enum dma_data_direction dir, unsigned long attrs);
void dma_unmap_sgtable(struct device *dev, struct sg_table *sgt,
		       enum dma_data_direction dir, unsigned long attrs);
void dma_sync_sgtable_for_cpu(struct device *dev, struct sg_table *sgt,
			      enum dma_data_direction dir);
void dma_sync_sgtable_for_device(struct device *dev, struct sg_table *sgt,
				 enum dma_data_direction dir);

/**
 * dma_need_sync() - must the driver call the dma_sync_*() functions for
 * the streaming mapping @dma_addr?  (6.12's dma_direct_need_sync(): not on
 * a coherent device unless the mapping was bounced.)
 */
bool dma_need_sync(struct device *dev, dma_addr_t dma_addr);
/** dma_max_mapping_size() - the largest streaming mapping @dev can get. */
size_t dma_max_mapping_size(struct device *dev);
/** dma_opt_mapping_size() - the largest mapping that stays fast. */
size_t dma_opt_mapping_size(struct device *dev);

/*
 * dma_alloc_noncoherent() before 5.10 was another API (gone in 4.14): the
 * four-argument form is an error naming both.
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
#define DMAEMU__ALLOC_NC_510(d, s, h, r, g) (dma_alloc_noncoherent)(d, s, h, r, g)
#define DMAEMU__FREE_NC_510(d, s, v, h, r) (dma_free_noncoherent)(d, s, v, h, r)
#define DMAEMU__ALLOC_NC_413(...) \
	(_Pragma("GCC error \"dma_alloc_noncoherent(dev, size, handle, gfp) is the API Linux 4.14 removed: in 6.12 it is dma_alloc_noncoherent(dev, size, handle, dir, gfp)\"") \
	 (void *)0)
#define DMAEMU__FREE_NC_413(...) \
	(_Pragma("GCC error \"dma_free_noncoherent(dev, size, vaddr, handle) is the API Linux 4.14 removed: in 6.12 it is dma_free_noncoherent(dev, size, vaddr, handle, dir)\"") \
	 (void)0)
/* clang-format on */
#else
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

/*
 * The calls Linux brought after 4.14 (they exist with DMAEMU_KERNEL=612):
 * each is a compile error naming the release that brought it and what
 * 4.14 offers instead.
 */
/* clang-format off */
#define dma_map_sgtable(...) \
	(_Pragma("GCC error \"dma_map_sgtable() is the Linux 5.8 API, not in 4.14: use dma_map_sg(dev, sgt->sgl, sgt->orig_nents, dir) and keep its result in sgt->nents\"") \
	 0)
#define dma_unmap_sgtable(...) \
	(_Pragma("GCC error \"dma_unmap_sgtable() is the Linux 5.8 API, not in 4.14: use dma_unmap_sg(dev, sgt->sgl, sgt->orig_nents, dir)\"") \
	 (void)0)
#define dma_sync_sgtable_for_cpu(...) \
	(_Pragma("GCC error \"dma_sync_sgtable_for_cpu() is the Linux 5.8 API, not in 4.14: use dma_sync_sg_for_cpu(dev, sgt->sgl, sgt->orig_nents, dir)\"") \
	 (void)0)
#define dma_sync_sgtable_for_device(...) \
	(_Pragma("GCC error \"dma_sync_sgtable_for_device() is the Linux 5.8 API, not in 4.14: use dma_sync_sg_for_device(dev, sgt->sgl, sgt->orig_nents, dir)\"") \
	 (void)0)
#define dma_need_sync(...) \
	(_Pragma("GCC error \"dma_need_sync() is the Linux 5.8 API, not in 4.14: call the dma_sync_*() functions unconditionally\"") \
	 0)
#define dma_max_mapping_size(...) \
	(_Pragma("GCC error \"dma_max_mapping_size() is the Linux 5.1 API, not in 4.14\"") \
	 (size_t)0)
#define dma_opt_mapping_size(...) \
	(_Pragma("GCC error \"dma_opt_mapping_size() is the Linux 6.0 API, not in 4.14\"") \
	 (size_t)0)
#define dma_alloc_pages(...) \
	(_Pragma("GCC error \"dma_alloc_pages() is the Linux 5.10 API, not in 4.14: use dma_alloc_attrs(..., DMA_ATTR_NON_CONSISTENT)\"") \
	 (struct page *)0)
#define dma_free_pages(...) \
	(_Pragma("GCC error \"dma_free_pages() is the Linux 5.10 API, not in 4.14: use dma_free_attrs(..., DMA_ATTR_NON_CONSISTENT)\"") \
	 (void)0)
#define dma_mmap_pages(...) \
	(_Pragma("GCC error \"dma_mmap_pages() is the Linux 5.10 API, not in 4.14: use dma_mmap_attrs()\"") \
	 0)
#define dma_alloc_noncontiguous(...) \
	(_Pragma("GCC error \"dma_alloc_noncontiguous() is the Linux 5.13 API, not in 4.14: use dma_alloc_attrs() and dma_get_sgtable_attrs()\"") \
	 (struct sg_table *)0)
#define dma_free_noncontiguous(...) \
	(_Pragma("GCC error \"dma_free_noncontiguous() is the Linux 5.13 API, not in 4.14\"") \
	 (void)0)
#define dma_vmap_noncontiguous(...) \
	(_Pragma("GCC error \"dma_vmap_noncontiguous() is the Linux 5.13 API, not in 4.14\"") \
	 (void *)0)
#define dma_vunmap_noncontiguous(...) \
	(_Pragma("GCC error \"dma_vunmap_noncontiguous() is the Linux 5.13 API, not in 4.14\"") \
	 (void)0)
#define dma_mmap_noncontiguous(...) \
	(_Pragma("GCC error \"dma_mmap_noncontiguous() is the Linux 5.13 API, not in 4.14\"") \
	 0)
/* clang-format on */
#endif

#ifdef __cplusplus
}
#endif

/* What Linux 4.14's include chain brings with this header (docs/kernel-headers.md). */
#include <linux/bug.h>
#include <linux/err.h>
#include <linux/sizes.h>
#include <linux/string.h>

#endif
