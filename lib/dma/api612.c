// SPDX-License-Identifier: MIT
/*
 * api612.c - the calls of the Linux 6.12 API level that Linux 4.14 does
 * not have (<linux/dma-mapping.h> with DMAEMU_KERNEL=612).
 *
 * How it works.  Each call is the one 6.12's kernel/dma/mapping.c makes,
 * over the machinery the 4.14 calls use:
 *
 *   dma_alloc_pages()          alloc.c, a cacheable allocation zeroed
 *   dma_alloc_noncoherent()    through the cache with no maintenance,
 *                              the CPU's (dma_direct_alloc_pages(),
 *                              dma_common_alloc_pages() with iommu=1);
 *                              its handle is synced with the single
 *                              syncs, as a NON_CONSISTENT buffer's
 *   dma_alloc_noncontiguous()  one such allocation in a one-entry table
 *                              (alloc_single_sgt())
 *   dma_map_sgtable() ...      the scatterlist calls on sgt->sgl and
 *                              sgt->orig_nents
 *   dma_need_sync(), dma_max_mapping_size(), dma_opt_mapping_size()
 *                              the answers of 6.12's direct and
 *                              dma-iommu paths, from the machine
 *
 * On a kernel=4.14 machine every call here is a bad-argument report and
 * fails (dmaemu__api612_enter()): only a program that declares the calls
 * itself gets that far, the headers stop the others.
 */
#define DMAEMU_KERNEL 612

#include "config.h"

#include <errno.h>
#include <stdint.h>

#include <linux/dma-mapping.h>
#include <linux/scatterlist.h>

#include "dma/backend.h"
#include "dma/dma.h"

/* swiotlb_max_mapping_size(): IO_TLB_SIZE * IO_TLB_SEGSIZE (swiotlb.c). */
#define SWIOTLB_MAX_MAPPING (2048UL * 128)
/* iova_rcache_range(): PAGE_SIZE << (IOVA_RANGE_CACHE_MAX_SIZE - 1). */
#define IOVA_RCACHE_RANGE (4096UL << 5)

/* 6.12's __dma_alloc_pages() refuses zone modifiers: the mask decides. */
static bool bad_gfp(struct dmaemu_machine *m, struct device *dev,
		    const char *fn, gfp_t gfp)
{
	if (!(gfp & (__GFP_DMA | __GFP_DMA32 | __GFP_HIGHMEM)))
		return false;
	dmaemu__reportf(m, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
			"%s(%s): GFP_DMA, GFP_DMA32 and __GFP_HIGHMEM are "
			"refused (the coherent DMA mask picks the zone)",
			fn, dev_name(dev));
	return true;
}

static void *alloc_pages_va(struct device *dev, size_t size, dma_addr_t *handle,
			    enum dma_data_direction dir, gfp_t gfp,
			    const char *fn)
{
	struct dmaemu_machine *m = dmaemu__api612_enter(dev, fn, (int)dir, 0);

	if (!m || bad_gfp(m, dev, fn, gfp))
		return NULL;
	return dmaemu__dma_alloc_pages(dev, size, handle, (int)dir, gfp);
}

/**
 * dma_alloc_pages() - cacheable pages for non-coherent DMA, the CPU's.
 * Return: the first page, or NULL.  See <linux/dma-mapping.h>.
 */
struct page *dma_alloc_pages(struct device *dev, size_t size,
			     dma_addr_t *dma_handle,
			     enum dma_data_direction dir, gfp_t gfp)
{
	DMAEMU__API_CALL(call, "dma_alloc_pages");
	void *v = alloc_pages_va(dev, size, dma_handle, dir, gfp, call.fn);

	return v ? virt_to_page(v) : NULL;
}

/** dma_free_pages() - free what dma_alloc_pages() returned. */
void dma_free_pages(struct device *dev, size_t size, struct page *page,
		    dma_addr_t dma_handle, enum dma_data_direction dir)
{
	DMAEMU__API_CALL(call, "dma_free_pages");
	struct dmaemu_machine *m =
		dmaemu__api612_enter(dev, call.fn, (int)dir, 0);

	if (!m)
		return;
	if (!page) {
		dmaemu__reportf(m, DMAEMU_REPORT_BAD_ARGUMENT, 0, size,
				"%s(%s): NULL page", call.fn, dev_name(dev));
		return;
	}
	dmaemu__dma_free_pages(dev, size, page_address(page), dma_handle,
			       (int)dir);
}

/** dma_mmap_pages() - a cacheable user view of dma_alloc_pages() pages. */
int dma_mmap_pages(struct device *dev, struct vm_area_struct *vma, size_t size,
		   struct page *page)
{
	DMAEMU__API_CALL(call, "dma_mmap_pages");

	if (!dmaemu__api612_enter(dev, call.fn, -1, 0))
		return -EINVAL;
	return dmaemu__dma_mmap_pages(dev, vma, size,
				      page ? page_address(page) : NULL);
}

#undef dma_alloc_noncoherent
#undef dma_free_noncoherent

/** dma_alloc_noncoherent() - dma_alloc_pages() as a kernel address. */
void *dma_alloc_noncoherent(struct device *dev, size_t size,
			    dma_addr_t *dma_handle, enum dma_data_direction dir,
			    gfp_t gfp)
{
	DMAEMU__API_CALL(call, "dma_alloc_noncoherent");
	return alloc_pages_va(dev, size, dma_handle, dir, gfp, call.fn);
}

/** dma_free_noncoherent() - free what dma_alloc_noncoherent() returned. */
void dma_free_noncoherent(struct device *dev, size_t size, void *vaddr,
			  dma_addr_t dma_handle, enum dma_data_direction dir)
{
	DMAEMU__API_CALL(call, "dma_free_noncoherent");

	if (dmaemu__api612_enter(dev, call.fn, (int)dir, 0))
		dmaemu__dma_free_pages(dev, size, vaddr, dma_handle, (int)dir);
}

/* ---------------------------------------------------------------------- */
/* Non-contiguous allocations                                             */
/* ---------------------------------------------------------------------- */

/**
 * dma_alloc_noncontiguous() - non-coherent memory in a scatter table: one
 * dma_alloc_pages() chunk of PAGE_ALIGN(@size) bytes in a one-entry table,
 * mapped (sgt->nents is 1), as 6.12's alloc_single_sgt() makes it.
 * @attrs: 0 or DMA_ATTR_ALLOC_SINGLE_PAGES (6.12 refuses the others).
 * Return: the table, or NULL.
 */
struct sg_table *dma_alloc_noncontiguous(struct device *dev, size_t size,
					 enum dma_data_direction dir, gfp_t gfp,
					 unsigned long attrs)
{
	DMAEMU__API_CALL(call, "dma_alloc_noncontiguous");
	struct dmaemu_machine *m =
		dmaemu__api612_enter(dev, call.fn, (int)dir, attrs);
	struct sg_table *sgt;
	dma_addr_t handle;
	void *v;

	if (!m || bad_gfp(m, dev, call.fn, gfp))
		return NULL;
	if (attrs & ~DMA_ATTR_ALLOC_SINGLE_PAGES) {
		dmaemu__reportf(m, DMAEMU_REPORT_BAD_ARGUMENT, 0, size,
				"%s(%s): attrs %#lx: only "
				"DMA_ATTR_ALLOC_SINGLE_PAGES is allowed",
				call.fn, dev_name(dev), attrs);
		return NULL;
	}
	sgt = dmaemu__calloc(1, sizeof(*sgt));
	if (!sgt)
		return NULL;
	if (sg_alloc_table(sgt, 1, gfp))
		goto out_free;
	v = dmaemu__dma_alloc_pages(dev, size, &handle, (int)dir, gfp);
	if (!v)
		goto out_table;
	sg_set_page(sgt->sgl, virt_to_page(v), (unsigned int)PAGE_ALIGN(size),
		    0);
	sg_dma_address(sgt->sgl) = handle;
	sg_dma_len(sgt->sgl) = sgt->sgl->length;
	sgt->nents = 1;
	return sgt;

out_table:
	sg_free_table(sgt);
out_free:
	dmaemu__free(sgt);
	return NULL;
}

/** dma_free_noncontiguous() - free what dma_alloc_noncontiguous() made. */
void dma_free_noncontiguous(struct device *dev, size_t size,
			    struct sg_table *sgt, enum dma_data_direction dir)
{
	DMAEMU__API_CALL(call, "dma_free_noncontiguous");
	struct dmaemu_machine *m =
		dmaemu__api612_enter(dev, call.fn, (int)dir, 0);

	if (!m)
		return;
	if (!sgt || !sgt->sgl) {
		dmaemu__reportf(m, DMAEMU_REPORT_BAD_ARGUMENT, 0, size,
				"%s(%s): NULL table", call.fn, dev_name(dev));
		return;
	}
	dmaemu__dma_free_pages(dev, size, page_address(sg_page(sgt->sgl)),
			       sg_dma_address(sgt->sgl), (int)dir);
	sg_free_table(sgt);
	dmaemu__free(sgt);
}

/** dma_vmap_noncontiguous() - the kernel address of the one chunk. */
void *dma_vmap_noncontiguous(struct device *dev, size_t size,
			     struct sg_table *sgt)
{
	DMAEMU__API_CALL(call, "dma_vmap_noncontiguous");

	(void)size;
	if (!dmaemu__api612_enter(dev, call.fn, -1, 0) || !sgt || !sgt->sgl)
		return NULL;
	return page_address(sg_page(sgt->sgl));
}

/** dma_vunmap_noncontiguous() - nothing to undo for one chunk. */
void dma_vunmap_noncontiguous(struct device *dev, void *vaddr)
{
	DMAEMU__API_CALL(call, "dma_vunmap_noncontiguous");

	(void)vaddr;
	dmaemu__api612_enter(dev, call.fn, -1, 0);
}

/** dma_mmap_noncontiguous() - dma_mmap_pages() of the one chunk. */
int dma_mmap_noncontiguous(struct device *dev, struct vm_area_struct *vma,
			   size_t size, struct sg_table *sgt)
{
	DMAEMU__API_CALL(call, "dma_mmap_noncontiguous");

	if (!dmaemu__api612_enter(dev, call.fn, -1, 0))
		return -EINVAL;
	return dmaemu__dma_mmap_pages(
		dev, vma, size,
		sgt && sgt->sgl ? page_address(sg_page(sgt->sgl)) : NULL);
}

/* ---------------------------------------------------------------------- */
/* Scatter tables                                                         */
/* ---------------------------------------------------------------------- */

/* NULL after a report when @sgt is not a table. */
static struct sg_table *table(struct dmaemu_machine *m, struct device *dev,
			      const char *fn, struct sg_table *sgt)
{
	if (sgt && sgt->sgl && sgt->orig_nents)
		return sgt;
	dmaemu__reportf(m, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0, "%s(%s): %s", fn,
			dev_name(dev), !sgt ? "NULL table" : "an empty table");
	return NULL;
}

/**
 * dma_map_sgtable() - dma_map_sg_attrs() of the table; see
 * <linux/dma-mapping.h>.  Return: 0, -EINVAL (bad argument), -EIO (a
 * direct or bounced map failed), -ENOMEM (no IOVA space).
 */
int dma_map_sgtable(struct device *dev, struct sg_table *sgt,
		    enum dma_data_direction dir, unsigned long attrs)
{
	DMAEMU__API_CALL(call, "dma_map_sgtable");
	struct dmaemu_machine *m =
		dmaemu__api612_enter(dev, call.fn, (int)dir, attrs);
	int n;

	if (!m || !table(m, dev, call.fn, sgt))
		return -EINVAL;
	n = dma_map_sg_attrs(dev, sgt->sgl, (int)sgt->orig_nents, dir, attrs);
	if (n <= 0)
		return m->opt.iommu ? -ENOMEM : -EIO;
	sgt->nents = (unsigned int)n;
	return 0;
}

/** dma_unmap_sgtable() - dma_unmap_sg_attrs() of sgt->orig_nents. */
void dma_unmap_sgtable(struct device *dev, struct sg_table *sgt,
		       enum dma_data_direction dir, unsigned long attrs)
{
	DMAEMU__API_CALL(call, "dma_unmap_sgtable");
	struct dmaemu_machine *m =
		dmaemu__api612_enter(dev, call.fn, (int)dir, attrs);

	if (m && table(m, dev, call.fn, sgt))
		dma_unmap_sg_attrs(dev, sgt->sgl, (int)sgt->orig_nents, dir,
				   attrs);
}

/*
 * The sync of a table: a dma_alloc_noncontiguous() table is one
 * allocation, synced by its handle; any other is a mapped scatterlist.
 */
static void sync_table(struct device *dev, struct sg_table *sgt,
		       enum dma_data_direction dir, bool for_device,
		       const char *fn)
{
	struct dmaemu_machine *m = dmaemu__api612_enter(dev, fn, (int)dir, 0);
	struct dmaemu__alloc_info info;
	dma_addr_t h;

	if (!m || !table(m, dev, fn, sgt))
		return;
	h = sg_dma_address(sgt->sgl);
	if (!dmaemu__alloc_find(dev, NULL, h, 1, &info) && info.pages &&
	    info.handle == h) {
		if (for_device)
			dma_sync_single_for_device(dev, h, sg_dma_len(sgt->sgl),
						   dir);
		else
			dma_sync_single_for_cpu(dev, h, sg_dma_len(sgt->sgl),
						dir);
		return;
	}
	if (for_device)
		dma_sync_sg_for_device(dev, sgt->sgl, (int)sgt->orig_nents,
				       dir);
	else
		dma_sync_sg_for_cpu(dev, sgt->sgl, (int)sgt->orig_nents, dir);
}

/** dma_sync_sgtable_for_cpu() - dma_sync_sg_for_cpu() of the table. */
void dma_sync_sgtable_for_cpu(struct device *dev, struct sg_table *sgt,
			      enum dma_data_direction dir)
{
	DMAEMU__API_CALL(call, "dma_sync_sgtable_for_cpu");
	sync_table(dev, sgt, dir, false, call.fn);
}

/** dma_sync_sgtable_for_device() - dma_sync_sg_for_device() of it. */
void dma_sync_sgtable_for_device(struct device *dev, struct sg_table *sgt,
				 enum dma_data_direction dir)
{
	DMAEMU__API_CALL(call, "dma_sync_sgtable_for_device");
	sync_table(dev, sgt, dir, true, call.fn);
}

/* ---------------------------------------------------------------------- */
/* What a driver may ask                                                  */
/* ---------------------------------------------------------------------- */

/**
 * dma_need_sync() - 6.12's answer, CONFIG_DMA_API_DEBUG being on (as the
 * checkers are): behind the IOMMU true (__dma_need_sync() of non-direct
 * ops); direct, dma_direct_need_sync(): true for a non-coherent device
 * (arm, arm64), and on x86 only for a mapping bounced through swiotlb.
 */
bool dma_need_sync(struct device *dev, dma_addr_t dma_addr)
{
	DMAEMU__API_CALL(call, "dma_need_sync");
	struct dmaemu_machine *m = dmaemu__api612_enter(dev, call.fn, -1, 0);
	struct dmaemu__mapping map;

	if (!m)
		return true;
	if (m->opt.iommu || m->opt.profile != DMAEMU__PROFILE_X86)
		return true;
	return !dmaemu__mapping_find(dev, dma_addr, 1, &map, NULL) &&
	       map.ops == &dmaemu__swiotlb_ops.id;
}

/**
 * dma_max_mapping_size() - 6.12's dma_direct_max_mapping_size(): the
 * largest swiotlb mapping (256 KiB) when mappings of @dev may bounce
 * (swiotlb=force, or a DMA mask below dma_get_required_mask()), else
 * SIZE_MAX; SIZE_MAX behind the IOMMU (iommu_dma_max_mapping_size(), a
 * trusted device).
 */
size_t dma_max_mapping_size(struct device *dev)
{
	DMAEMU__API_CALL(call, "dma_max_mapping_size");
	struct dmaemu_machine *m = dmaemu__api612_enter(dev, call.fn, -1, 0);

	if (!m || m->opt.iommu)
		return SIZE_MAX;
	if (m->opt.swiotlb_force ||
	    (dev->dma_mask && *dev->dma_mask < dma_get_required_mask(dev)))
		return SWIOTLB_MAX_MAPPING;
	return SIZE_MAX;
}

/**
 * dma_opt_mapping_size() - the smaller of dma_max_mapping_size() and,
 * behind the IOMMU, iommu_dma_opt_mapping_size() (128 KiB: the largest
 * IOVA the range caches keep).
 */
size_t dma_opt_mapping_size(struct device *dev)
{
	DMAEMU__API_CALL(call, "dma_opt_mapping_size");
	size_t max = dma_max_mapping_size(dev);
	struct dmaemu_machine *m = dmaemu__dev_machine(dev);

	if (m && m->opt.iommu && max > IOVA_RCACHE_RANGE)
		return IOVA_RCACHE_RANGE;
	return max;
}
