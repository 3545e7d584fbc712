// SPDX-License-Identifier: MIT
/*
 * dma_alloc.c - dma_alloc_attrs() and dma_free_attrs() with every
 * attribute, the managed dmam_* variants, dma_mmap_attrs() and
 * dma_get_sgtable_attrs().
 *
 * How it works.  An allocation is one or more physically contiguous
 * chunks from the page allocator (owner "dma_alloc_attrs()"), in the zone
 * the device's coherent mask allows, below the mask.  What the CPU gets
 * back depends on the attributes and the profile; each is a host view of
 * the same DRAM (docs/model.md):
 *
 *   attrs                 arm, arm64                x86
 *   (none)                uncached alias  (MEM)     linear map (cached,
 *   NON_CONSISTENT        linear map: the driver    devices snoop)
 *                         owns every sync
 *   WRITE_COMBINE         write-combining alias:
 *                         stores wait for wmb()
 *   NO_KERNEL_MAPPING     a cookie in the bank's PROT_NONE window
 *
 * with NO_KERNEL_MAPPING winning over WRITE_COMBINE, and WRITE_COMBINE
 * over NON_CONSISTENT (which lets the platform choose).  x86 in Linux 4.14
 * (dma_generic_alloc_coherent(), arch/x86/kernel/pci-dma.c) ignores the
 * attributes: write-combining and non-consistent requests get ordinary
 * write-back memory, coherent with devices, so a WRITE_COMBINE buffer
 * holds no store back there.  NO_KERNEL_MAPPING still gives a cookie on
 * every profile: touching the buffer through it is the driver's bug.
 *
 * Preparing the memory.  A page fresh from the allocator may still have
 * lines in the CPU's cache through the linear map (it was kmalloc memory
 * a moment ago), some of them dirty.  Before handing it out through a view
 * that bypasses the cache (uncached, write-combining, no mapping), those
 * lines are invalidated: a dirty line left behind would be written back
 * whenever the cache evicts it, over what the device or the uncached view
 * wrote since - silent corruption long after the allocation.  Invalidate
 * rather than clean: the old contents are dead, and writing them back
 * could only raise a false lost-device-write.  The memory is then zeroed
 * in DRAM (MEM) directly.  Memory handed out cacheable is invalidated the
 * same way, zeroed by the CPU through the cache model (a modelled store,
 * as the kernel's memset), and cleaned, so that the device too sees zeros.
 *
 * IOMMU.  With iommu=1 the bus address is an IOVA from the IOMMU backend,
 * which also lets the buffer be physically scattered:
 * DMA_ATTR_ALLOC_SINGLE_PAGES builds it from order-0 pages, contiguous
 * only in IOVA space, DMA_ATTR_FORCE_CONTIGUOUS (and the default) take one
 * block.  Scattered pages have no linear run in the bank's views, so they
 * are only used where the kernel view is uncached (arm, arm64) or absent
 * (NO_KERNEL_MAPPING): the kernel view is then a fresh host mapping that
 * stitches the pages' DRAM together, as the kernel's vmap() does.  For a
 * cacheable or write-combining view, and on x86 (whose DMA API has no such
 * allocator), the buffer is one block.  Without an IOMMU every buffer is
 * one block and the bus address is the physical address plus dma_offset.
 *
 * Records.  Each live allocation has a host record (struct coherent) in a
 * registry hashed by CPU address, used to check frees, mmaps and sg tables
 * against what was allocated (size, handle, attributes), and by the rest of
 * the DMA layer to find NON_CONSISTENT buffers (dmaemu__alloc_find()) and
 * leaked allocations (dmaemu__alloc_release_device()).  WRITE_BARRIER and
 * WEAK_ORDERING are also kept with the bus range of the allocation
 * (registry.c), where the device's posted-write queue asks for them
 * (bus/device.c, docs/ordering.md).
 *
 * Locking.  registry.lock protects the hash table and the records' links.
 * It is a leaf: nothing else is taken while it is held (page allocation,
 * cache maintenance and reports happen with it dropped).  A record leaves
 * the table before its memory is released, so two racing frees of one
 * buffer find it once.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <linux/dma-mapping.h>
#include <linux/mm.h>
#include <linux/scatterlist.h>

#include "dma/dma.h"
#include "dmaemu/vma.h"

/* The attributes that decide what the CPU address is (repeat_attrs():
 * which calls must repeat which). */
#define SHAPE_ATTRS                                         \
	(DMA_ATTR_WRITE_COMBINE | DMA_ATTR_NON_CONSISTENT | \
	 DMA_ATTR_NO_KERNEL_MAPPING)

/* What the CPU address of an allocation is. */
enum view {
	VIEW_UNCACHED, /* the bank's uncached alias (MEM) */
	VIEW_LINEAR,   /* the cacheable linear map (CPU copy) */
	VIEW_WC,       /* the bank's write-combining alias */
	VIEW_NOMAP,    /* a cookie in the PROT_NONE window */
	VIEW_STITCHED, /* a host mapping of scattered pages' DRAM */
};

static const char *const view_names[] = {
	[VIEW_UNCACHED] = "uncached",
	[VIEW_LINEAR] = "cacheable",
	[VIEW_WC] = "write-combining",
	[VIEW_NOMAP] = "no kernel mapping",
	[VIEW_STITCHED] = "uncached (remapped pages)",
};

/* One physically contiguous piece of an allocation. */
struct chunk {
	struct page *page; /* head page */
	unsigned int order;
	uint64_t phys;
	size_t len; /* bytes used: PAGE_SIZE << order, or less for the last */
};

/* A live allocation. */
struct coherent {
	struct coherent *next; /* hash chain; registry.lock */
	struct device *dev;
	struct dmaemu_machine *m;
	void *cpu_addr;	   /* what dma_alloc_attrs() returned */
	dma_addr_t handle; /* bus address */
	size_t size;	   /* bytes asked for */
	size_t len;	   /* size rounded up to pages */
	unsigned long attrs;
	enum view view;
	const char *fn;	    /* "dma_alloc_attrs", as the driver called it */
	const void *caller; /* the driver's return address */
	bool iommu;	    /* @handle is an IOVA of the IOMMU backend */
	bool managed;	    /* dmam_alloc_attrs(): released with the device */
	unsigned int nchunks;
	struct chunk *chunk;
	size_t stitched_len; /* VIEW_STITCHED: bytes mapped at cpu_addr */
	bool pages; /* dma_alloc_pages() (kernel=6.12): CPU-owned, cacheable */
	int dir;    /* its direction (pages only) */
};

#define REG_BUCKETS 256

static struct {
	pthread_once_t once;
	pthread_mutex_t lock; /* a leaf; error-checking unless NDEBUG */
	struct coherent *bucket[REG_BUCKETS];
	unsigned long live;
} registry = {.once = PTHREAD_ONCE_INIT};

static void registry_init(void)
{
	if (dmaemu__mutex_init(&registry.lock))
		abort();
}

static void reg_lock(void)
{
	pthread_once(&registry.once, registry_init);
	dmaemu__lock(&registry.lock);
}

/* One page of zeros, the source of the DRAM writes that clear buffers. */
static const uint8_t zero_page[DMAEMU__PAGE_SIZE];

/* "NON_CONSISTENT|WRITE_COMBINE" for reports ("0" for none). */
static const char *attr_names(unsigned long attrs, char *buf, size_t len)
{
	static const char *const names[] = {
		"WRITE_BARRIER",    "WEAK_ORDERING",	  "WRITE_COMBINE",
		"NON_CONSISTENT",   "NO_KERNEL_MAPPING",  "SKIP_CPU_SYNC",
		"FORCE_CONTIGUOUS", "ALLOC_SINGLE_PAGES", "NO_WARN",
		"PRIVILEGED",
	};
	struct dmaemu__sbuf b;
	unsigned int i;
	bool any = false;

	dmaemu__sbuf_init(&b, buf, len);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!(attrs & (1UL << i)))
			continue;
		dmaemu__sbuf_printf(&b, "%sDMA_ATTR_%s", any ? "|" : "",
				    names[i]);
		any = true;
	}
	if (attrs & ~DMAEMU__ALL_ATTRS)
		dmaemu__sbuf_printf(&b, "%s%#lx", any ? "|" : "",
				    attrs & ~DMAEMU__ALL_ATTRS);
	else if (!any)
		dmaemu__sbuf_printf(&b, "0");
	return buf;
}

/* ---------------------------------------------------------------------- */
/* Registry                                                               */
/* ---------------------------------------------------------------------- */

static unsigned int bucket_of(const void *cpu_addr)
{
	uint64_t h = (uintptr_t)cpu_addr >> DMAEMU__PAGE_SHIFT;

	h *= 0x9e3779b97f4a7c15ULL;
	return (unsigned int)(h >> 56) % REG_BUCKETS;
}

static void reg_add(struct coherent *c)
{
	unsigned int b = bucket_of(c->cpu_addr);

	reg_lock();
	c->next = registry.bucket[b];
	registry.bucket[b] = c;
	registry.live++;
	dmaemu__unlock(&registry.lock);
}

/* The record of @cpu_addr; registry.lock held. */
static struct coherent **reg_slot(const void *cpu_addr)
{
	struct coherent **pp = &registry.bucket[bucket_of(cpu_addr)];

	while (*pp && (*pp)->cpu_addr != cpu_addr)
		pp = &(*pp)->next;
	return pp;
}

/* The record of @dev whose bus address is @handle, or NULL; lock held. */
static struct coherent *reg_by_handle(struct device *dev, dma_addr_t handle)
{
	struct coherent *c;
	unsigned int b;

	for (b = 0; b < REG_BUCKETS; b++)
		for (c = registry.bucket[b]; c; c = c->next)
			if (c->dev == dev && c->handle == handle)
				return c;
	return NULL;
}

static void reg_unlink(struct coherent **pp)
{
	*pp = (*pp)->next;
	registry.live--;
}

/* ---------------------------------------------------------------------- */
/* Memory                                                                 */
/* ---------------------------------------------------------------------- */

/* Bus address of physical address @phys when there is no IOMMU. */
static dma_addr_t direct_handle(struct dmaemu_machine *m, uint64_t phys)
{
	return phys + m->opt.dma_offset;
}

/*
 * The GFP flags of an allocation for a device with coherent mask @mask:
 * the caller's zone modifiers are dropped (the mask decides, as Linux's
 * dma_alloc_attrs() does), ZONE_DMA for 24-bit masks, ZONE_DMA32 for
 * 32-bit ones, __GFP_ZERO dropped (zeroing is done here, per view).
 */
static unsigned int alloc_gfp(gfp_t gfp, uint64_t mask, unsigned long attrs)
{
	unsigned int g =
		gfp & ~(__GFP_DMA | __GFP_DMA32 | __GFP_HIGHMEM | __GFP_ZERO);

	if (mask <= DMA_BIT_MASK(24))
		g |= __GFP_DMA;
	else if (mask <= DMA_BIT_MASK(32))
		g |= __GFP_DMA32;
	if (attrs & DMA_ATTR_NO_WARN)
		g |= __GFP_NOWARN;
	return g;
}

static void free_chunks(struct dmaemu_machine *m, struct coherent *c)
{
	unsigned int i;

	for (i = 0; i < c->nchunks; i++)
		dmaemu__free_pages(m, c->chunk[i].page, c->chunk[i].order,
				   DMAEMU__OWNER_DMA, "dma_free_attrs");
	c->nchunks = 0;
}

/*
 * Take the memory: one block, or @single order-0 pages.  Return: 0 or
 * -ENOMEM (nothing kept; the page allocator reported unless NOWARN).
 */
static int alloc_chunks(struct dmaemu_machine *m, struct coherent *c,
			unsigned int gfp, uint64_t limit, bool single)
{
	unsigned int i, n = single ? (unsigned int)(c->len >> PAGE_SHIFT) : 1;

	c->chunk = dmaemu__calloc(n, sizeof(*c->chunk));
	if (!c->chunk)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		struct chunk *ch = &c->chunk[i];

		ch->order = single ? 0 : (unsigned int)get_order(c->len);
		ch->page = dmaemu__alloc_pages(m, gfp, ch->order, limit,
					       DMAEMU__OWNER_DMA,
					       "dma_alloc_attrs");
		if (!ch->page) {
			free_chunks(m, c);
			return -ENOMEM;
		}
		ch->phys = page_to_phys(ch->page);
		ch->len = single ? PAGE_SIZE : c->len;
		c->nchunks++;
	}
	return 0;
}

/* Write zeros to DRAM (MEM) at [@phys, +@len), under the stripe locks. */
static void zero_mem(struct dmaemu_machine *m, uint64_t phys, size_t len)
{
	while (len) {
		size_t n = len < sizeof(zero_page) ? len : sizeof(zero_page);

		dmaemu__mem_write(m, phys, zero_page, n);
		phys += n;
		len -= n;
	}
}

/* Prepare every chunk for its view (see "Preparing the memory"). */
static void prepare(struct dmaemu_machine *m, struct coherent *c)
{
	unsigned int i;

	for (i = 0; i < c->nchunks; i++) {
		const struct chunk *ch = &c->chunk[i];

		dmaemu__range_invalidate(m, ch->phys, ch->len);
		if (c->pages) {
			/* 6.12's dma_direct_alloc_pages(): memset() through
			 * the cache, no maintenance: the zeroes are CPU-dirty
			 * lines until the driver's sync for the device. */
			dmaemu__mm_zero(m, dmaemu__page_address(ch->page),
					ch->len);
		} else if (c->view == VIEW_LINEAR) {
			dmaemu__mm_zero(m, dmaemu__page_address(ch->page),
					ch->len);
			dmaemu__range_clean(m, ch->phys, ch->len);
		} else {
			zero_mem(m, ch->phys, ch->len);
		}
	}
}

/*
 * Map the DRAM of @c's chunks covering [@off, @off + @len) of the buffer
 * as one run of host memory (shared, read-write): the stitched kernel view
 * and the user views of dma_mmap_attrs().  Return: the address, or NULL
 * with errno set.
 */
static void *map_dram(struct dmaemu_machine *m, const struct coherent *c,
		      size_t off, size_t len)
{
	uint8_t *base, *p;
	unsigned int i;
	size_t pos = 0;

	base = dmaemu__mmap(NULL, len, PROT_NONE,
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (base == MAP_FAILED)
		return NULL;
	p = base;
	for (i = 0; i < c->nchunks && p < base + len; i++) {
		const struct chunk *ch = &c->chunk[i];
		struct dmaemu__bank *b;
		size_t skip, n;

		if (off >= pos + ch->len) {
			pos += ch->len;
			continue;
		}
		skip = off > pos ? off - pos : 0;
		n = ch->len - skip;
		if (n > (size_t)(base + len - p))
			n = (size_t)(base + len - p);
		b = dmaemu__bank_of_phys(m, ch->phys, ch->len);
		if (!b || dmaemu__mmap(p, n, PROT_READ | PROT_WRITE,
				       MAP_SHARED | MAP_FIXED, b->memfd,
				       (off_t)(ch->phys + skip - b->phys)) ==
				  MAP_FAILED) {
			munmap(base, len);
			return NULL;
		}
		p += n;
		pos += ch->len;
	}
	return base;
}

/* The CPU address of a buffer with one chunk, for views other than
 * VIEW_STITCHED. */
static void *view_addr(struct dmaemu_machine *m, const struct coherent *c)
{
	static const enum dmaemu__region region[] = {
		[VIEW_UNCACHED] = DMAEMU__REGION_UNCACHED,
		[VIEW_LINEAR] = DMAEMU__REGION_LINEAR,
		[VIEW_WC] = DMAEMU__REGION_WC,
		[VIEW_NOMAP] = DMAEMU__REGION_NOMAP,
	};

	return dmaemu__phys_view(m, c->chunk[0].phys, region[c->view]);
}

/*
 * Map the pages of @c at one IOVA range, readable and writable by the
 * device; DMA_ATTR_PRIVILEGED makes unprivileged device accesses fault,
 * DMA_ATTR_NO_WARN makes a full IOVA space a silent failure.  Return: the
 * IOVA, or DMA_MAPPING_ERROR.
 */
static dma_addr_t iommu_map(struct device *dev, const struct coherent *c,
			    unsigned long attrs)
{
	size_t i, j, k = 0, n = c->len >> PAGE_SHIFT;
	uint64_t *phys = dmaemu__malloc(n * sizeof(*phys));
	dma_addr_t iova;
	int prot = DMAEMU__IOMMU_READ | DMAEMU__IOMMU_WRITE;

	if (!phys)
		return DMA_MAPPING_ERROR;
	if (attrs & DMA_ATTR_NO_WARN)
		prot |= DMAEMU__IOMMU_NOWARN;
	for (i = 0; i < c->nchunks; i++)
		for (j = 0; j < (c->chunk[i].len >> PAGE_SHIFT); j++)
			phys[k++] = c->chunk[i].phys + (j << PAGE_SHIFT);
	iova = dmaemu__iommu_map_pages(dev, phys, n, prot,
				       (attrs & DMA_ATTR_PRIVILEGED) != 0);
	dmaemu__free(phys);
	return iova;
}

/*
 * The ordering checks follow the CPU's accesses of coherent memory
 * (cpu/order.c): what arm and arm64 map bufferable (uncached and
 * write-combining views), and on x86 every allocation with a kernel
 * mapping (all cacheable there).
 */
static void track(struct coherent *c, bool on)
{
	unsigned int i;
	bool x86 = c->m->opt.profile == DMAEMU__PROFILE_X86;

	if (c->view == VIEW_NOMAP || (c->view == VIEW_LINEAR && !x86))
		return;
	for (i = 0; i < c->nchunks; i++)
		dmaemu__order_track(c->m, c->chunk[i].phys, c->chunk[i].len,
				    on);
}

/*
 * The pages go back to the allocator.  With a view that bypasses the
 * cache, their cacheable alias held no line since prepare() (nothing
 * reads through it), but the CPU's copy of those lines still holds what
 * they held before the allocation, while the device and the view wrote
 * DRAM.  The page's next user (a kmalloc() of the linear map) must find
 * in a line the cache never fetched what DRAM holds, also in the bytes of
 * a line it writes in part where the cache model cannot see the store
 * (uninstrumented code): so the copies are made equal to DRAM again, an
 * invalidate of lines the model does not hold.
 */
static void forget_cpu_copy(struct dmaemu_machine *m, const struct coherent *c)
{
	unsigned int i;

	if (c->view == VIEW_LINEAR)
		return;
	for (i = 0; i < c->nchunks; i++)
		dmaemu__range_invalidate(m, c->chunk[i].phys, c->chunk[i].len);
}

/* Release everything @c holds (it is out of the registry). */
static void release(struct coherent *c)
{
	struct dmaemu_machine *m = c->m;

	/* The device may no longer reach it (device-access-unmapped). */
	dmaemu__mapping_coherent_del(c->dev, c->handle);
	if (c->view == VIEW_WC)
		dmaemu__wc_flush(m); /* no pending bytes land in freed pages */
	if (c->view == VIEW_STITCHED)
		munmap(c->cpu_addr, c->stitched_len);
	if (c->iommu)
		dmaemu__iommu_unmap(c->dev, c->handle, c->len);
	track(c, false);
	forget_cpu_copy(m, c);
	free_chunks(m, c);
	dmaemu__free(c->chunk);
	dmaemu__free(c);
}

/* ---------------------------------------------------------------------- */
/* dma_alloc_attrs / dma_free_attrs                                       */
/* ---------------------------------------------------------------------- */

static void dmam_release_hook(struct device *dev, void *data);

/* The view for @attrs on @m (see the table at the top). */
static enum view choose_view(struct dmaemu_machine *m, unsigned long attrs)
{
	if (attrs & DMA_ATTR_NO_KERNEL_MAPPING)
		return VIEW_NOMAP;
	if (m->opt.profile == DMAEMU__PROFILE_X86)
		return VIEW_LINEAR;
	if (attrs & DMA_ATTR_WRITE_COMBINE)
		return VIEW_WC;
	if (attrs & DMA_ATTR_NON_CONSISTENT)
		return VIEW_LINEAR;
	return VIEW_UNCACHED;
}

static void *alloc_attrs(struct device *dev, size_t size, dma_addr_t *handle,
			 gfp_t gfp, unsigned long attrs, bool managed,
			 int pages_dir)
{
	struct dmaemu_machine *m =
		dmaemu__dev_machine_or_report(dev, "dma_alloc_attrs");
	const struct dmaemu__call *call = dmaemu__call_current();
	struct dmaemu__coh_range range = {.type = DMAEMU__MAP_COHERENT};
	uint64_t mask, limit, off;
	struct coherent *c;
	bool iommu, single;
	char names[160];

	if (!m)
		return NULL;
	if (!handle || !size || size > (1UL << 40) ||
	    (attrs & ~DMAEMU__LEVEL_ATTRS(m))) {
		dmaemu__reportf(m, DMAEMU_REPORT_BAD_ARGUMENT, 0, size,
				"dma_alloc_attrs(%s, %zu bytes, attrs %s): %s",
				dev_name(dev), size,
				attr_names(attrs, names, sizeof(names)),
				!handle ? "NULL dma_handle"
				: !size ? "size 0"
				: (attrs & ~DMAEMU__LEVEL_ATTRS(m))
					? "unknown attribute bits"
					: "size too large");
		return NULL;
	}
	*handle = DMA_MAPPING_ERROR;
	mask = dev->coherent_dma_mask;
	off = m->opt.dma_offset;
	if (!dmaemu__dma_mask_supported(m, mask)) {
		dmaemu__reportf(
			m, DMAEMU_REPORT_BAD_ARGUMENT, 0, size,
			"dma_alloc_attrs(%s, %zu bytes): coherent DMA mask "
			"%#" PRIx64 " reaches no memory",
			dev_name(dev), size, mask);
		return NULL;
	}
	dmaemu__check_sleep(m, gfp, "dma_alloc_attrs");
	if (!(gfp & __GFP_NOFAIL) && dmaemu__fault_armed(m)) {
		char what[480], gfpn[256];

		dmaemu_gfp_format(gfp, gfpn, sizeof(gfpn));
		snprintf(what, sizeof(what),
			 "dma_alloc_attrs(%s, %zu bytes, %s, attrs %s)",
			 dev_name(dev), size, gfpn,
			 attr_names(attrs, names, sizeof(names)));
		if (dmaemu__should_fail(m, DMAEMU_FAULT_DMA_ALLOC, size, what))
			return NULL;
	}

	c = dmaemu__calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->dev = dev;
	c->m = m;
	c->size = size;
	c->len = PAGE_ALIGN(size);
	c->attrs = attrs;
	c->managed = managed;
	c->view = pages_dir >= 0 ? VIEW_LINEAR : choose_view(m, attrs);
	c->pages = pages_dir >= 0;
	c->dir = pages_dir;
	iommu = m->opt.iommu;
	/* Scattered pages only where the kernel view can be stitched. */
	single = iommu && (attrs & DMA_ATTR_ALLOC_SINGLE_PAGES) &&
		 !(attrs & DMA_ATTR_FORCE_CONTIGUOUS) &&
		 (c->view == VIEW_UNCACHED || c->view == VIEW_NOMAP) &&
		 c->len > PAGE_SIZE;
	/* With an IOMMU the device sees IOVAs: any page will do. */
	limit = iommu ? UINT64_MAX : mask - off;
	if (alloc_chunks(m, c, alloc_gfp(gfp, iommu ? UINT64_MAX : mask, attrs),
			 limit, single))
		goto out_free;
	prepare(m, c);

	if (c->nchunks > 1 && c->view == VIEW_UNCACHED) {
		c->view = VIEW_STITCHED;
		c->stitched_len = c->len;
		c->cpu_addr = map_dram(m, c, 0, c->len);
		if (!c->cpu_addr)
			goto out_pages;
	} else {
		c->cpu_addr = view_addr(m, c);
	}

	if (iommu) {
		c->handle = iommu_map(dev, c, attrs);
		if (c->handle == DMA_MAPPING_ERROR)
			goto out_unmap;
		c->iommu = true;
	} else {
		c->handle = direct_handle(m, c->chunk[0].phys);
	}
	/* The device may reach the whole pages, as the kernel gives them
	 * (dma_mmap_attrs() maps them all). */
	range.dma = c->handle;
	range.size = c->len;
	range.attrs = attrs;
	range.fn = call ? call->fn : "dma_alloc_attrs";
	range.caller = call ? call->caller : NULL;
	c->fn = range.fn;
	c->caller = range.caller;
	if (dmaemu__mapping_coherent_add(dev, &range))
		goto out_iommu;
	track(c, true);
	reg_add(c);
	*handle = c->handle;
	if (dmaemu__tracing(m, DMAEMU__TRACE_ALLOC)) {
		char gfpn[256];

		dmaemu_gfp_format(gfp, gfpn, sizeof(gfpn));
		dmaemu__trace(m, DMAEMU__TRACE_ALLOC, "dma_alloc",
			      "dev=%s len=%zu dma=0x%" PRIx64 " phys=0x%" PRIx64
			      " gfp=%s attrs=%s%s",
			      dev_name(dev), size, (uint64_t)c->handle,
			      c->chunk[0].phys, gfpn,
			      attr_names(attrs, names, sizeof(names)),
			      iommu ? " iommu" : "");
	}
	return c->cpu_addr;

out_iommu:
	if (c->iommu)
		dmaemu__iommu_unmap(dev, c->handle, c->len);
out_unmap:
	if (c->view == VIEW_STITCHED)
		munmap(c->cpu_addr, c->stitched_len);
out_pages:
	free_chunks(m, c);
out_free:
	dmaemu__free(c->chunk);
	dmaemu__free(c);
	return NULL;
}

/**
 * dma_alloc_attrs() - allocate a buffer both the CPU and @dev can reach.
 * @dev:        the device.
 * @size:       bytes (rounded up to whole pages).
 * @dma_handle: receives the bus address.
 * @flag:       GFP flags; the zone comes from the coherent mask (24 bits
 *              or less: ZONE_DMA, 32 bits or less: ZONE_DMA32), and the
 *              memory is always zeroed.
 * @attrs:      DMA_ATTR_* bits (see the table at the top of dma_alloc.c
 *              and docs/dma-alloc.md).
 *
 * Return: the CPU address: the uncached alias on arm/arm64, the cacheable
 * linear map on x86, the linear map for NON_CONSISTENT, the write-combining
 * alias for WRITE_COMBINE, an inaccessible cookie for NO_KERNEL_MAPPING.
 * NULL when out of memory below the mask (an alloc-failure report unless
 * DMA_ATTR_NO_WARN or __GFP_NOWARN; a retry after freeing memory can
 * succeed), when the IOMMU has no IOVA space left, or on a bad argument
 * (bad-argument report: NULL device or handle, size 0, unknown attribute
 * bits, a coherent mask that reaches no memory).
 */
void *dma_alloc_attrs(struct device *dev, size_t size, dma_addr_t *dma_handle,
		      gfp_t flag, unsigned long attrs)
{
	DMAEMU__API_CALL(call, "dma_alloc_attrs");
	return alloc_attrs(dev, size, dma_handle, flag, attrs, false, -1);
}

/*
 * The attributes @fn must repeat, as Linux 4.14 depends on them: only
 * NO_KERNEL_MAPPING for a free and for dma_get_sgtable_attrs() (arm's
 * __arm_dma_free() and the IOMMU's __iommu_get_pages() take the cookie
 * for a page list only with it; WRITE_COMBINE and NON_CONSISTENT change
 * nothing there).  dma_mmap_attrs() must repeat all three: they choose
 * the user view's protection (__get_dma_pgprot()).
 */
static unsigned long repeat_attrs(const char *fn)
{
	return strcmp(fn, "dma_mmap_attrs") ? DMA_ATTR_NO_KERNEL_MAPPING
					    : SHAPE_ATTRS;
}

/*
 * Find and check the record of (@cpu_addr, @handle, @size, @attrs) for
 * @fn.  With @copy NULL the record is unlinked from the registry and
 * returned (the caller releases it); otherwise it stays live and @copy
 * receives a snapshot with its own chunk array (free(copy->chunk)), so
 * that a concurrent free cannot pull it away.  Reports and returns NULL
 * when the arguments do not match a live allocation (or out of memory for
 * the snapshot).  A free (@copy NULL) is checked as Linux 4.14's
 * check_unmap() checks dma_free_attrs(): no allocation of @dev at
 * @handle (unmap-not-mapped), a streaming mapping there
 * (unmap-type-mismatch), an allocation there with another CPU address
 * (free-cpu-address-mismatch), another size (unmap-size-mismatch); the
 * lookups of mmap and get_sgtable report bad-free.
 */
static struct coherent *lookup(struct dmaemu_machine *m, struct device *dev,
			       const char *fn, void *cpu_addr,
			       dma_addr_t handle, size_t size,
			       unsigned long attrs, struct coherent *copy)
{
	enum dmaemu_report_kind kind = DMAEMU_REPORT_BAD_FREE;
	bool freeing = !copy;
	struct coherent **pp, *c, *other;
	struct dmaemu__mapping map;
	char why[200], a1[160], a2[160];
	unsigned long missing, extra, must = repeat_attrs(fn);
	uint64_t phys = 0;

	reg_lock();
	pp = reg_slot(cpu_addr);
	c = *pp;
	if (c)
		phys = c->chunk[0].phys;
	if (!c) {
		other = freeing ? reg_by_handle(dev, handle) : NULL;
		if (other)
			phys = other->chunk[0].phys;
		if (other) {
			kind = DMAEMU_REPORT_FREE_CPU_ADDRESS_MISMATCH;
			snprintf(why, sizeof(why),
				 "the allocation at this bus address has CPU "
				 "address %p (%zu bytes)",
				 other->cpu_addr, other->size);
		} else {
			if (freeing)
				kind = DMAEMU_REPORT_UNMAP_NOT_MAPPED;
			snprintf(why, sizeof(why),
				 "not a live allocation (never "
				 "allocated, or already freed)");
		}
	} else if (c->dev != dev) {
		if (freeing)
			kind = DMAEMU_REPORT_UNMAP_NOT_MAPPED;
		snprintf(why, sizeof(why), "allocated for device %s",
			 dev_name(c->dev));
	} else if (c->handle != handle) {
		if (freeing)
			kind = DMAEMU_REPORT_UNMAP_NOT_MAPPED;
		snprintf(why, sizeof(why),
			 "bus address 0x%" PRIx64 ", allocated at 0x%" PRIx64,
			 (uint64_t)handle, (uint64_t)c->handle);
	} else if (freeing && c->pages != !strcmp(fn, "dma_free_pages")) {
		/* 6.12's debug_dma_unmap_page() of a coherent buffer, or
		 * debug_dma_free_coherent() of dma_alloc_pages() memory. */
		kind = DMAEMU_REPORT_UNMAP_TYPE_MISMATCH;
		snprintf(why, sizeof(why),
			 "allocated by %s(): free it with %s()", c->fn,
			 c->pages ? (strcmp(c->fn, "dma_alloc_noncoherent")
					     ? "dma_free_pages"
					     : "dma_free_noncoherent")
				  : "dma_free_attrs");
	} else if (c->pages ? PAGE_ALIGN(c->size) != PAGE_ALIGN(size)
			    : c->size != size) {
		if (freeing)
			kind = DMAEMU_REPORT_UNMAP_SIZE_MISMATCH;
		snprintf(why, sizeof(why), "size %zu, allocated with %zu", size,
			 c->size);
	} else if ((c->attrs ^ attrs) & must) {
		missing = c->attrs & ~attrs & must;
		extra = attrs & ~c->attrs & must;
		if (missing)
			kind = DMAEMU_REPORT_MISSING_ATTRIBUTE;
		snprintf(why, sizeof(why),
			 "allocated with attrs %s; %s %s must be repeated",
			 attr_names(c->attrs, a1, sizeof(a1)),
			 missing ? "missing" : "extra",
			 attr_names(missing ? missing : extra, a2, sizeof(a2)));
	} else if (!copy) {
		reg_unlink(pp);
		dmaemu__unlock(&registry.lock);
		return c;
	} else {
		*copy = *c;
		copy->next = NULL;
		copy->chunk = dmaemu__malloc(c->nchunks * sizeof(*c->chunk));
		if (copy->chunk)
			memcpy(copy->chunk, c->chunk,
			       c->nchunks * sizeof(*c->chunk));
		dmaemu__unlock(&registry.lock);
		return copy->chunk ? copy : NULL;
	}
	dmaemu__unlock(&registry.lock);
	/* Registry locks are leaves: the streaming one is asked unlocked. */
	if (kind == DMAEMU_REPORT_UNMAP_NOT_MAPPED && !c &&
	    !dmaemu__mapping_find_start(dev, handle, &map)) {
		kind = DMAEMU_REPORT_UNMAP_TYPE_MISMATCH;
		snprintf(why, sizeof(why),
			 "the bus address is a live streaming mapping (made "
			 "by %s()): unmap it with the function that made it",
			 map.fn ? map.fn : "?");
	}
	dmaemu__reportf(m, kind, phys, size,
			"%s(%s, %zu bytes, cpu_addr %p, dma 0x%" PRIx64
			", attrs %s): %s",
			fn, dev_name(dev), size, cpu_addr, (uint64_t)handle,
			attr_names(attrs, a1, sizeof(a1)), why);
	return NULL;
}

/**
 * dma_free_attrs() - free what dma_alloc_attrs() returned.
 * @dev:        the device it was allocated for.
 * @size:       the size asked for at allocation.
 * @cpu_addr:   the CPU address (or cookie) returned.
 * @dma_handle: the bus address returned.
 * @attrs:      the allocation's attributes: NO_KERNEL_MAPPING must be
 *              repeated (the others may be, as in Linux 4.14).
 *
 * A buffer never allocated or already freed, or freed with another device,
 * size or bus address, is reported (bad-free); a missing attribute is
 * reported (missing-attribute).  In every such case nothing is freed.
 */
void dma_free_attrs(struct device *dev, size_t size, void *cpu_addr,
		    dma_addr_t dma_handle, unsigned long attrs)
{
	DMAEMU__API_CALL(call, "dma_free_attrs");
	struct dmaemu_machine *m =
		dmaemu__dev_machine_or_report(dev, "dma_free_attrs");
	struct coherent *c;

	if (!m || !cpu_addr)
		return; /* dma_free_attrs(dev, size, NULL, ...) is a no-op */
	c = lookup(m, dev, "dma_free_attrs", cpu_addr, dma_handle, size, attrs,
		   NULL);
	if (!c)
		return;
	dmaemu__trace(m, DMAEMU__TRACE_ALLOC, "dma_free",
		      "dev=%s len=%zu dma=0x%" PRIx64, dev_name(dev), size,
		      (uint64_t)dma_handle);
	if (c->managed)
		dmaemu__devres_remove(dev, dmam_release_hook, c);
	release(c);
}

/* ---------------------------------------------------------------------- */
/* Managed allocations                                                    */
/* ---------------------------------------------------------------------- */

/*
 * The devres release of a dmam_* allocation: freed silently with the
 * device, as the kernel's devres does (not a leak).
 */
static void dmam_release_hook(struct device *dev, void *data)
{
	struct coherent *c = data, **pp;

	(void)dev;
	reg_lock();
	pp = reg_slot(c->cpu_addr);
	if (*pp != c) { /* already freed by dmam_free_coherent() */
		dmaemu__unlock(&registry.lock);
		return;
	}
	reg_unlink(pp);
	dmaemu__unlock(&registry.lock);
	release(c);
}

/**
 * dmam_alloc_attrs() - dma_alloc_attrs() released with the device.
 * @dev, @size, @dma_handle, @gfp, @attrs: as dma_alloc_attrs().
 *
 * dmaemu_device_destroy() frees the buffer without a leaked-mapping
 * report.  Return: as dma_alloc_attrs().
 */
void *dmam_alloc_attrs(struct device *dev, size_t size, dma_addr_t *dma_handle,
		       gfp_t gfp, unsigned long attrs)
{
	DMAEMU__API_CALL(call, "dmam_alloc_attrs");
	void *cpu_addr =
		alloc_attrs(dev, size, dma_handle, gfp, attrs, true, -1);
	struct coherent **pp, *c;

	if (!cpu_addr)
		return NULL;
	reg_lock();
	pp = reg_slot(cpu_addr);
	c = *pp;
	dmaemu__unlock(&registry.lock);
	if (dmaemu__devres_add(dev, dmam_release_hook, c)) {
		dma_free_attrs(dev, size, cpu_addr, *dma_handle, attrs);
		*dma_handle = DMA_MAPPING_ERROR;
		return NULL;
	}
	return cpu_addr;
}

/** dmam_alloc_coherent() - dmam_alloc_attrs() without attributes. */
void *dmam_alloc_coherent(struct device *dev, size_t size,
			  dma_addr_t *dma_handle, gfp_t gfp)
{
	DMAEMU__API_CALL(call, "dmam_alloc_coherent");
	return dmam_alloc_attrs(dev, size, dma_handle, gfp, 0);
}

/**
 * dmam_free_coherent() - free a managed allocation before the device goes.
 * @dev, @size, @vaddr, @dma_handle: as dma_free_coherent().
 *
 * Checked as dma_free_attrs() (a buffer that is not managed is freed too,
 * with a bad-free report, as the kernel warns).
 */
void dmam_free_coherent(struct device *dev, size_t size, void *vaddr,
			dma_addr_t dma_handle)
{
	DMAEMU__API_CALL(call, "dmam_free_coherent");
	struct dmaemu_machine *m =
		dmaemu__dev_machine_or_report(dev, "dmam_free_coherent");
	struct coherent *c;

	if (!m || !vaddr)
		return;
	c = lookup(m, dev, "dmam_free_coherent", vaddr, dma_handle, size, 0,
		   NULL);
	if (!c)
		return;
	if (!c->managed)
		dmaemu__reportf(
			m, DMAEMU_REPORT_BAD_FREE, 0, size,
			"dmam_free_coherent(%s, %zu bytes, %p): not a managed "
			"allocation (use dma_free_coherent())",
			dev_name(dev), size, vaddr);
	else
		dmaemu__devres_remove(dev, dmam_release_hook, c);
	release(c);
}

/* ---------------------------------------------------------------------- */
/* dma_mmap_attrs                                                         */
/* ---------------------------------------------------------------------- */

/* The host mapping behind a mapped vm_area_struct. */

/**
 * dma_mmap_attrs() - map an allocation for a "user" thread.
 * @dev:      the device.
 * @vma:      the area: @vma->vm_end - @vma->vm_start bytes (whole pages)
 *            starting @vma->vm_pgoff pages into the buffer.
 * @cpu_addr: the CPU address or cookie dma_alloc_attrs() returned.
 * @dma_addr: its bus address.
 * @size:     its size.
 * @attrs:    its attributes (NO_KERNEL_MAPPING, WRITE_COMBINE and
 *            NON_CONSISTENT must be repeated).
 *
 * On arm and arm64 the user view is a new host mapping of the buffer's
 * DRAM: reads and writes through it reach memory directly, as an uncached
 * user mapping does, so it shows device writes at once.  (A
 * write-combining buffer's user view is uncached too: stores are not held
 * back.)  For a cacheable NON_CONSISTENT buffer the kernel's cached lines
 * are cleaned first; later CPU writes through the kernel view reach the
 * user view only once written back.  On x86 both views are cacheable
 * mappings of the same physical pages, coherent with each other and with
 * devices (physically tagged caches): the user view is the kernel view's
 * own memory, so each sees the other's writes at once.  On success @vma->vm_start/vm_end are moved to
 * the host mapping (see struct vm_area_struct); release it with
 * dmaemu_vma_unmap().
 *
 * Return: 0; -ENXIO when the area does not fit in the buffer; -EINVAL for
 * an area already mapped, empty or not page-aligned, a buffer that does
 * not match a live allocation (bad-free report) or attributes not
 * repeated (missing-attribute report); -ENOMEM when the host mapping
 * failed.
 */
int dma_mmap_attrs(struct device *dev, struct vm_area_struct *vma,
		   void *cpu_addr, dma_addr_t dma_addr, size_t size,
		   unsigned long attrs)
{
	DMAEMU__API_CALL(call, "dma_mmap_attrs");
	struct dmaemu_machine *m =
		dmaemu__dev_machine_or_report(dev, "dma_mmap_attrs");
	unsigned long count, user_count;
	struct coherent snap, *c;
	struct dmaemu_vma *map;
	size_t len, off;
	void *addr;
	bool alias;
	int ret = 0;

	if (!m)
		return -EINVAL;
	if (!vma || vma->dmaemu || vma->vm_end <= vma->vm_start ||
	    ((vma->vm_end - vma->vm_start) & ~PAGE_MASK)) {
		dmaemu__reportf(
			m, DMAEMU_REPORT_BAD_ARGUMENT, 0, size,
			"dma_mmap_attrs(%s): %s", dev_name(dev),
			!vma	      ? "NULL vma"
			: vma->dmaemu ? "the vma is already mapped"
				      : "the vma is empty or not whole pages");
		return -EINVAL;
	}
	c = lookup(m, dev, "dma_mmap_attrs", cpu_addr, dma_addr, size, attrs,
		   &snap);
	if (!c)
		return -EINVAL;
	count = c->len >> PAGE_SHIFT;
	user_count = vma_pages(vma);
	if (vma->vm_pgoff >= count || user_count > count - vma->vm_pgoff) {
		ret = -ENXIO;
		goto out_free_snap;
	}
	off = vma->vm_pgoff << PAGE_SHIFT;
	len = user_count << PAGE_SHIFT;
	alias = c->view == VIEW_LINEAR && m->opt.profile == DMAEMU__PROFILE_X86;
	if (c->view == VIEW_LINEAR && !alias)
		dmaemu__range_clean(m, c->chunk[0].phys + off, len);

	map = dmaemu__calloc(1, sizeof(*map));
	if (map && alias)
		addr = (uint8_t *)c->cpu_addr + off;
	else
		addr = map ? map_dram(m, c, off, len) : NULL;
	if (!addr) {
		dmaemu__free(map);
		ret = -ENOMEM;
		goto out_free_snap;
	}
	map->addr = addr;
	map->len = len;
	map->alias = alias;
	map->orig_start = vma->vm_start;
	vma->dmaemu = map;
	vma->vm_start = (unsigned long)addr;
	vma->vm_end = vma->vm_start + len;
	vma->vm_flags |= VM_IO | VM_PFNMAP | VM_DONTEXPAND | VM_DONTDUMP;
out_free_snap:
	dmaemu__free(snap.chunk);
	return ret;
}

/**
 * dmaemu_vma_unmap() - remove the host mapping dma_mmap_attrs() made.
 * @vma: the area (NULL, or one never mapped, is ignored).
 */
void dmaemu_vma_unmap(struct vm_area_struct *vma)
{
	struct dmaemu_vma *map;

	if (!vma || !vma->dmaemu)
		return;
	/* As munmap() of the user mapping would. */
	if (vma->vm_ops && vma->vm_ops->close)
		vma->vm_ops->close(vma);
	map = vma->dmaemu;
	if (!map->alias)
		munmap(map->addr, map->len);
	vma->vm_start = map->orig_start;
	vma->vm_end = map->orig_start + map->len;
	vma->dmaemu = NULL;
	dmaemu__free(map);
}

/* ---------------------------------------------------------------------- */
/* dma_get_sgtable_attrs                                                  */
/* ---------------------------------------------------------------------- */

/**
 * dma_get_sgtable_attrs() - describe an allocation's pages as a table.
 * @dev:      the device.
 * @sgt:      filled with one entry per physically contiguous run.
 * @cpu_addr: the CPU address or cookie dma_alloc_attrs() returned.
 * @dma_addr: its bus address.
 * @size:     its size.
 * @attrs:    its attributes (NO_KERNEL_MAPPING must be repeated; the
 *            others may be, as in Linux 4.14).
 *
 * For sharing the buffer with another device (map the table for it).
 * Free the table with sg_free_table().
 *
 * Return: 0; -EINVAL when the buffer does not match a live allocation
 * (reported); -ENOMEM.
 */
int dma_get_sgtable_attrs(struct device *dev, struct sg_table *sgt,
			  void *cpu_addr, dma_addr_t dma_addr, size_t size,
			  unsigned long attrs)
{
	DMAEMU__API_CALL(call, "dma_get_sgtable_attrs");
	struct dmaemu_machine *m =
		dmaemu__dev_machine_or_report(dev, "dma_get_sgtable_attrs");
	struct coherent snap, *c;
	struct scatterlist *sg;
	unsigned int i, runs = 1;
	int ret;

	if (!m)
		return -EINVAL;
	if (!sgt) {
		dmaemu__reportf(m, DMAEMU_REPORT_BAD_ARGUMENT, 0, size,
				"dma_get_sgtable_attrs(%s): NULL table",
				dev_name(dev));
		return -EINVAL;
	}
	c = lookup(m, dev, "dma_get_sgtable_attrs", cpu_addr, dma_addr, size,
		   attrs, &snap);
	if (!c)
		return -EINVAL;
	for (i = 1; i < c->nchunks; i++)
		if (c->chunk[i].phys !=
		    c->chunk[i - 1].phys + c->chunk[i - 1].len)
			runs++;
	ret = sg_alloc_table(sgt, runs, GFP_KERNEL);
	if (ret)
		goto out_free_snap;
	sg = sgt->sgl;
	for (i = 0; i < c->nchunks; i++) {
		const struct chunk *ch = &c->chunk[i];

		if (i &&
		    ch->phys == c->chunk[i - 1].phys + c->chunk[i - 1].len) {
			sg->length += (unsigned int)ch->len;
			continue;
		}
		if (i)
			sg = sg_next(sg);
		sg_set_page(sg, ch->page, (unsigned int)ch->len, 0);
	}
out_free_snap:
	dmaemu__free(snap.chunk);
	return ret;
}

/* ---------------------------------------------------------------------- */
/* For the rest of the DMA layer                                          */
/* ---------------------------------------------------------------------- */

/**
 * dmaemu__alloc_find() - the live allocation of @dev holding a range.
 * @dev:   the device.
 * @vaddr: a CPU address inside the buffer, or NULL to search by @addr.
 * @addr:  a bus address inside the buffer (when @vaddr is NULL).
 * @size:  bytes from there that must lie inside it.
 * @out:   filled in when found.
 *
 * Cost: O(live allocations) - for syncs of NON_CONSISTENT buffers, not a
 * hot path of the streaming API.
 *
 * Return: 0, or -ENOENT.
 */
int dmaemu__alloc_find(struct device *dev, const void *vaddr, dma_addr_t addr,
		       size_t size, struct dmaemu__alloc_info *out)
{
	unsigned int b;
	int ret = -ENOENT;

	reg_lock();
	for (b = 0; b < REG_BUCKETS && ret; b++) {
		struct coherent *c;

		for (c = registry.bucket[b]; c; c = c->next) {
			uint64_t o;

			if (c->dev != dev)
				continue;
			o = vaddr ? (uint64_t)((uintptr_t)vaddr -
					       (uintptr_t)c->cpu_addr)
				  : addr - c->handle;
			if (o >= c->len || size > c->len - o)
				continue;
			out->cpu_addr = c->cpu_addr;
			out->handle = c->handle;
			out->size = c->size;
			out->attrs = c->attrs;
			out->phys = c->chunk[0].phys;
			out->contiguous = c->nchunks == 1;
			out->view = view_names[c->view];
			out->pages = c->pages;
			ret = 0;
			break;
		}
	}
	dmaemu__unlock(&registry.lock);
	return ret;
}

/**
 * dmaemu__alloc_device_busy() - does @dev hold a live allocation?
 */
bool dmaemu__alloc_device_busy(struct device *dev)
{
	struct coherent *c = NULL;
	unsigned int b;

	reg_lock();
	for (b = 0; b < REG_BUCKETS && !c; b++)
		for (c = registry.bucket[b]; c && c->dev != dev; c = c->next)
			;
	dmaemu__unlock(&registry.lock);
	return c != NULL;
}

/**
 * dmaemu__alloc_list() - the live allocations of @dev (the machine dump).
 * @dev: the device.
 * @out: room for @max entries, filled in no particular order.
 * @max: entries @out can take.
 *
 * Cost: O(live allocations of every device), under the registry lock.
 *
 * Return: how many are live (which may exceed @max).
 */
size_t dmaemu__alloc_list(struct device *dev, struct dmaemu__alloc_info *out,
			  size_t max)
{
	unsigned int b;
	size_t n = 0;

	reg_lock();
	for (b = 0; b < REG_BUCKETS; b++) {
		struct coherent *c;

		for (c = registry.bucket[b]; c; c = c->next) {
			if (c->dev != dev)
				continue;
			if (n < max) {
				out[n].cpu_addr = c->cpu_addr;
				out[n].handle = c->handle;
				out[n].size = c->size;
				out[n].attrs = c->attrs;
				out[n].phys = c->chunk[0].phys;
				out[n].contiguous = c->nchunks == 1;
				out[n].view = view_names[c->view];
			}
			n++;
		}
	}
	dmaemu__unlock(&registry.lock);
	return n;
}

/**
 * dmaemu__alloc_release_device() - at device destroy: free what the
 * driver left allocated.
 * @dev: the device going away (its devres, hence its managed buffers,
 *       already released).
 *
 * Each buffer is reported (leaked-mapping) and freed.
 *
 * Return: the number of buffers freed.
 */
unsigned long dmaemu__alloc_release_device(struct device *dev)
{
	struct dmaemu_machine *m = dmaemu__dev_machine(dev);
	struct dmaemu__report_info leak = {.kind = DMAEMU_REPORT_LEAKED_MAPPING,
					   .device = dev_name(dev)};
	struct dmaemu__call call;
	unsigned long n = 0;
	unsigned int b;

	for (b = 0; b < REG_BUCKETS; b++) {
		for (;;) {
			struct coherent **pp, *c;
			char names[160];

			reg_lock();
			pp = &registry.bucket[b];
			while (*pp && (*pp)->dev != dev)
				pp = &(*pp)->next;
			c = *pp;
			if (c)
				reg_unlink(pp);
			dmaemu__unlock(&registry.lock);
			if (!c)
				break;
			leak.phys = c->chunk[0].phys;
			leak.size = c->size;
			/* The SUMMARY line points at the allocation, as a
			 * leaked mapping's points at its map. */
			dmaemu__call_enter(&call, NULL, c->caller);
			dmaemu__report(
				m, &leak,
				"device %s released with a live allocation: "
				"%s(%zu bytes, attrs %s) at %p, "
				"dma 0x%" PRIx64 " (%s); missing "
				"dma_free_attrs()",
				dev_name(dev),
				c->fn ? c->fn : "dma_alloc_attrs", c->size,
				attr_names(c->attrs, names, sizeof(names)),
				c->cpu_addr, (uint64_t)c->handle,
				view_names[c->view]);
			dmaemu__call_leave(&call);
			release(c);
			n++;
		}
	}
	return n;
}

/* ---------------------------------------------------------------------- */
/* Linux 6.12: dma_alloc_pages() and dma_alloc_noncoherent()             */
/* ---------------------------------------------------------------------- */

/**
 * dmaemu__dma_alloc_pages() - 6.12's __dma_alloc_pages() (api612.c is the
 * public side): pages in the device's coherent-mask zone, zeroed through
 * the cache with no maintenance (dma_direct_alloc_pages()), the CPU's;
 * with iommu=1 mapped at an IOVA (dma_common_alloc_pages()).  Never
 * bounced.  The enclosing public call names the allocation.
 * Return: the linear-map address, or NULL (reported as dma_alloc_attrs()
 * failures are).
 */
void *dmaemu__dma_alloc_pages(struct device *dev, size_t size,
			      dma_addr_t *handle, int dir, gfp_t gfp)
{
	return alloc_attrs(dev, size, handle, gfp, 0, false, dir);
}

/**
 * dmaemu__dma_free_pages() - 6.12's dma_free_pages(): the allocation at
 * linear-map address @cpu_addr, with its size (page-aligned, as 6.12
 * compares it), handle and direction; anything else is reported and
 * nothing is freed, but another direction, which is reported
 * (unmap-direction-mismatch) and freed, as debug_dma_unmap_page() does.
 */
void dmaemu__dma_free_pages(struct device *dev, size_t size, void *cpu_addr,
			    dma_addr_t handle, int dir)
{
	const struct dmaemu__call *call = dmaemu__call_current();
	const char *fn = call && call->fn ? call->fn : "dma_free_pages";
	struct dmaemu_machine *m = dmaemu__dev_machine_or_report(dev, fn);
	struct coherent *c;

	if (!m || !cpu_addr)
		return;
	c = lookup(m, dev, "dma_free_pages", cpu_addr, handle, size, 0, NULL);
	if (!c)
		return;
	if (c->dir != dir)
		dmaemu__reportf(m, DMAEMU_REPORT_UNMAP_DIRECTION_MISMATCH,
				c->chunk[0].phys, size,
				"%s(%s, %zu bytes, dma 0x%" PRIx64
				"): direction %d, allocated by %s() with %d",
				fn, dev_name(dev), size, (uint64_t)handle, dir,
				c->fn, c->dir);
	dmaemu__trace(m, DMAEMU__TRACE_ALLOC, "dma_free",
		      "dev=%s len=%zu dma=0x%" PRIx64, dev_name(dev), size,
		      (uint64_t)handle);
	release(c);
}

/**
 * dmaemu__dma_mmap_pages() - 6.12's dma_mmap_pages(): @vma becomes a
 * cacheable user view of the dma_alloc_pages() memory at @cpu_addr
 * (remap_pfn_range() with the vma's own, cacheable, protection): the
 * kernel's view itself, as both go through one physically tagged cache.
 * Return: 0, -ENXIO when @vma does not fit, -EINVAL.
 */
int dmaemu__dma_mmap_pages(struct device *dev, struct vm_area_struct *vma,
			   size_t size, void *cpu_addr)
{
	struct dmaemu_machine *m =
		dmaemu__dev_machine_or_report(dev, "dma_mmap_pages");
	struct dmaemu__alloc_info info;
	struct dmaemu_vma *map;
	unsigned long count;

	if (!m)
		return -EINVAL;
	if (!vma || vma->dmaemu || vma->vm_end <= vma->vm_start ||
	    ((vma->vm_end - vma->vm_start) & ~PAGE_MASK) ||
	    dmaemu__alloc_find(dev, cpu_addr, 0, 1, &info) ||
	    info.cpu_addr != cpu_addr || !info.pages) {
		dmaemu__reportf(m, DMAEMU_REPORT_BAD_ARGUMENT, 0, size,
				"dma_mmap_pages(%s, %zu bytes, %p): %s",
				dev_name(dev), size, cpu_addr,
				!vma	      ? "NULL vma"
				: vma->dmaemu ? "the vma is already mapped"
				: vma->vm_end <= vma->vm_start ||
						((vma->vm_end - vma->vm_start) &
						 ~PAGE_MASK)
					? "the vma is empty or not whole pages"
					: "not the first page of a live "
					  "dma_alloc_pages() allocation of "
					  "this device");
		return -EINVAL;
	}
	count = PAGE_ALIGN(size) >> PAGE_SHIFT;
	if (vma->vm_pgoff >= count || vma_pages(vma) > count - vma->vm_pgoff)
		return -ENXIO;
	map = dmaemu__calloc(1, sizeof(*map));
	if (!map)
		return -ENOMEM;
	map->addr = (uint8_t *)cpu_addr + (vma->vm_pgoff << PAGE_SHIFT);
	map->len = vma_pages(vma) << PAGE_SHIFT;
	map->alias = true;
	map->orig_start = vma->vm_start;
	vma->dmaemu = map;
	vma->vm_start = (unsigned long)map->addr;
	vma->vm_end = vma->vm_start + map->len;
	vma->vm_flags |= VM_IO | VM_PFNMAP | VM_DONTEXPAND | VM_DONTDUMP;
	return 0;
}
