// SPDX-License-Identifier: MIT
/*
 * iommu.c - the IOMMU backend: an IOVA space per device, the DMA ops that
 * map into the IOMMU's page tables, scatterlists; as Linux 4.14's
 * drivers/iommu/dma-iommu.c and iova.c with the arm/arm64 IOMMU DMA ops
 * (profiles arm, arm64), and as the DMA ops of intel-iommu.c (profile x86,
 * Intel VT-d).  The IOMMU itself - domains, page tables, permissions,
 * privilege, the page-table walk and faults - is the bus's (bus/iommu.c),
 * called downwards as dma-iommu.c calls iommu_map() and iommu_unmap().
 *
 * How it works.  Each device that uses the IOMMU has a domain
 * (bus/iommu.c), and the domain's cookie is this file's state of it, its
 * IOVA space:
 *
 *   IOVA space   bus addresses [0x1000, 2^48) in 4 KiB pages; page 0 is
 *                never handed out, so no mapping has bus address 0.
 *   free ranges  the free parts of the space, in two red-black trees
 *                (BSD <sys/tree.h>): by address, to coalesce on free, and
 *                by (size, address high to low), to find the smallest
 *                range that fits in O(log n).
 *   allocations  the IOVA ranges in use, by address (unmap finds its
 *                range from any address inside, as find_iova() does).
 *
 * Allocation follows alloc_iova(): a range of n pages is aligned to n
 * rounded up to a power of two, and taken from the top of the free range
 * chosen, below the device's DMA mask at the time of the call.  The chosen
 * range is the smallest one that fits (a few candidates are tried in size
 * order; then ranges big enough for any alignment), so a map or unmap
 * costs O(log n) in the number of live mappings.
 *
 * A map takes an IOVA range, then maps its pages in the domain
 * (dmaemu__iommu_domain_map()) with the permissions dma_info_to_prot()
 * asks for by direction (prot_bits(): DMA_TO_DEVICE IOMMU_READ,
 * DMA_FROM_DEVICE IOMMU_WRITE, DMA_BIDIRECTIONAL both, DMA_ATTR_PRIVILEGED
 * adds IOMMU_PRIV; what each page-table format keeps of them is the
 * bus's), then records the range; an unmap takes the range off the
 * record, unmaps its pages and only then gives the range back, so no other
 * mapping gets it while its pages are still mapped.  Each page carries a
 * tag (what made it: direction and kind), and owner_name() tells the bus's
 * fault reports what a tag means.
 *
 * dma_map_sg() lays the entries out in one IOVA allocation.  On arm and
 * arm64 (and on x86 with iommu_strict=1) as iommu_dma_map_sg() does: each
 * entry takes whole pages (its offset in its first page is kept), an entry
 * that would cross the device's segment boundary starts at the boundary,
 * and consecutive entries become one DMA segment when the first ends at a
 * page end, the next starts at a page start, the join is not on a segment
 * boundary and the segment stays within max_segment_size; so dma_map_sg()
 * may return fewer segments than entries.  On x86 as intel_map_sg() and
 * __domain_mapping() do: the entries' whole pages back to back (no
 * boundary padding), and each entry is its own DMA segment
 * (sg_dma_address = its IOVA, sg_dma_len = its length): the result is
 * nents.  The IOMMU does not change the cache maintenance: it runs per
 * profile on the physical pages.  dma_offset does not apply: the IOVA is
 * the bus address.
 *
 * For tests, the IOVA space counts the comparisons its trees make
 * (@steps): the cost of a map or unmap, in a measure that does not depend
 * on the machine's load.
 *
 * Locking.  iv->lock protects an IOVA space; it is a leaf, and the IOMMU's
 * locks (bus/iommu.c) are never taken under it: a map or unmap takes it,
 * drops it, calls the bus, and takes it again.  Cache maintenance runs
 * with no lock held.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bsd/sys/tree.h>

#include "dma/backend.h"

#include <linux/dma-mapping.h>
#include <linux/scatterlist.h>

#define IOVA_SHIFT DMAEMU__PAGE_SHIFT
#define IOVA_PAGE (1ULL << IOVA_SHIFT)
#define IOVA_MASK (~(IOVA_PAGE - 1))
#define PFN_FIRST 1ULL
#define PFN_END (1ULL << (DMAEMU__IOMMU_IOVA_BITS - IOVA_SHIFT))

/* What made an IOVA range; with the direction, the tag of its pages. */
enum iova_kind {
	KIND_SINGLE,   /* dma_map_single/page */
	KIND_SG,       /* dma_map_sg */
	KIND_PAGES,    /* a coherent allocation (dmaemu__iommu_map_pages) */
	KIND_RESOURCE, /* dma_map_resource */
};

static const char *const kind_names[] = {
	[KIND_SINGLE] = "streaming mapping",
	[KIND_SG] = "scatterlist mapping",
	[KIND_PAGES] = "coherent allocation",
	[KIND_RESOURCE] = "resource mapping",
};

/*
 * A range of IOVA pages [lo, hi): free (in both free trees) or allocated
 * (in the allocation tree, through @addr).
 */
struct iova_node {
	uint64_t lo, hi;
	RB_ENTRY(iova_node) addr; /* free by address, or allocations */
	RB_ENTRY(iova_node) size; /* free only: by size */
	/* Allocations only. */
	size_t bytes; /* what the caller mapped */
	uint8_t kind, dir;
};

/*
 * Comparisons made by this thread's tree operations; an IOVA space adds
 * what was made while its lock was held (iova_lock(), iova_unlock()).
 */
static _Thread_local uint64_t tree_steps;

static int cmp_addr(const struct iova_node *a, const struct iova_node *b)
{
	tree_steps++;
	return a->lo < b->lo ? -1 : a->lo > b->lo;
}

/* Smallest first; of equal sizes the highest first (top-down). */
static int cmp_size(const struct iova_node *a, const struct iova_node *b)
{
	uint64_t sa = a->hi - a->lo, sb = b->hi - b->lo;

	tree_steps++;
	if (sa != sb)
		return sa < sb ? -1 : 1;
	return a->lo > b->lo ? -1 : a->lo < b->lo;
}

RB_HEAD(free_addr, iova_node);
RB_HEAD(free_size, iova_node);
RB_HEAD(alloc_tree, iova_node);
/*
 * RB_GENERATE_STATIC() marks the functions with __unused, which libbsd
 * leaves undefined (glibc has struct members of that name): spell it out.
 */
#define TREE_FN __attribute__((__unused__)) static
RB_GENERATE_INTERNAL(free_addr, iova_node, addr, cmp_addr, TREE_FN)
RB_GENERATE_INTERNAL(free_size, iova_node, size, cmp_size, TREE_FN)
RB_GENERATE_INTERNAL(alloc_tree, iova_node, addr, cmp_addr, TREE_FN)

/**
 * struct iova_domain - the IOVA space of one device: the cookie of its
 * IOMMU domain (bus/iommu.c).
 * @lock:      protects everything below.
 * @free_addr: free ranges by address.
 * @free_size: the same nodes by size.
 * @allocs:    ranges in use.
 * @allocs_n:  ranges in use (statistics).
 * @steps:     tree comparisons made under @lock (statistics).
 * @steps_at:  tree_steps of the lock holder when it took @lock.
 */
struct iova_domain {
	pthread_mutex_t lock;
	struct free_addr free_addr;
	struct free_size free_size;
	struct alloc_tree allocs;
	uint64_t allocs_n, steps, steps_at;
};

static const char *dev_label(const struct device *dev)
{
	return dev->init_name ? dev->init_name : "?";
}

static void iova_lock(struct iova_domain *iv)
{
	dmaemu__lock(&iv->lock);
	iv->steps_at = tree_steps;
}

static void iova_unlock(struct iova_domain *iv)
{
	iv->steps += tree_steps - iv->steps_at;
	dmaemu__unlock(&iv->lock);
}

static uint64_t pow2_ceil(uint64_t n)
{
	return n <= 1 ? 1 : 1ULL << (64 - __builtin_clzll(n - 1));
}

/* ---------------------------------------------------------------------- */
/* IOVA allocator                                                         */
/* ---------------------------------------------------------------------- */

static void free_insert(struct iova_domain *iv, struct iova_node *f)
{
	RB_INSERT(free_addr, &iv->free_addr, f);
	RB_INSERT(free_size, &iv->free_size, f);
}

static void free_remove(struct iova_domain *iv, struct iova_node *f)
{
	RB_REMOVE(free_addr, &iv->free_addr, f);
	RB_REMOVE(free_size, &iv->free_size, f);
}

/* Where an aligned block of @n pages fits in @f below @end, or 0. */
static uint64_t fit(const struct iova_node *f, uint64_t n, uint64_t align,
		    uint64_t end)
{
	uint64_t hi = f->hi < end ? f->hi : end, start;

	if (hi <= f->lo || hi - f->lo < n)
		return 0;
	start = (hi - n) & ~(align - 1);
	return start >= f->lo ? start : 0;
}

/*
 * Take @n pages, aligned to @n rounded up to a power of two, ending at or
 * below page @end.  iv->lock held.  Return: the allocation node (not yet in
 * the allocation tree), or NULL (*@err: -ENOSPC, -ENOMEM).
 */
static struct iova_node *iova_take(struct iova_domain *iv, uint64_t n,
				   uint64_t end, int *err)
{
	uint64_t align = pow2_ceil(n), start = 0;
	struct iova_node key, *f, *spare, *a;
	int tries;

	/* Both possible leftovers need a node, the allocation one more. */
	a = dmaemu__malloc(sizeof(*a));
	spare = dmaemu__malloc(sizeof(*spare));
	if (!a || !spare) {
		dmaemu__free(a);
		dmaemu__free(spare);
		*err = -ENOMEM;
		return NULL;
	}
	/* 1. The smallest ranges that can hold @n pages. */
	key.lo = PFN_END;
	key.hi = PFN_END + n;
	f = RB_NFIND(free_size, &iv->free_size, &key);
	for (tries = 0; f && tries < 8; tries++) {
		start = fit(f, n, align, end);
		if (start)
			goto take;
		f = RB_NEXT(free_size, &iv->free_size, f);
	}
	/* 2. Ranges that hold it at any alignment; only the limit can
	 * refuse them. */
	if (align > 1) {
		key.hi = PFN_END + n + align - 1;
		f = RB_NFIND(free_size, &iv->free_size, &key);
	}
	for (; f; f = RB_NEXT(free_size, &iv->free_size, f)) {
		start = fit(f, n, align, end);
		if (start)
			goto take;
	}
	dmaemu__free(a);
	dmaemu__free(spare);
	*err = -ENOSPC;
	return NULL;

take:
	free_remove(iv, f);
	if (start + n < f->hi) {
		spare->lo = start + n;
		spare->hi = f->hi;
		free_insert(iv, spare);
		spare = NULL;
	}
	if (start > f->lo) {
		f->hi = start;
		free_insert(iv, f);
	} else {
		dmaemu__free(f);
	}
	dmaemu__free(spare);
	a->lo = start;
	a->hi = start + n;
	return a;
}

/* Give back the range of node @a (which becomes a free node).  iv->lock. */
static void iova_put(struct iova_domain *iv, struct iova_node *a)
{
	struct iova_node *right, *left;

	right = RB_NFIND(free_addr, &iv->free_addr, a);
	left = right ? RB_PREV(free_addr, &iv->free_addr, right)
		     : RB_MAX(free_addr, &iv->free_addr);
	if (right && right->lo == a->hi) {
		free_remove(iv, right);
		a->hi = right->hi;
		dmaemu__free(right);
	}
	if (left && left->hi == a->lo) {
		RB_REMOVE(free_size, &iv->free_size, left);
		left->hi = a->hi;
		RB_INSERT(free_size, &iv->free_size, left);
		dmaemu__free(a);
		return;
	}
	free_insert(iv, a);
}

/* The allocation holding page @pfn, or NULL.  iv->lock held. */
static struct iova_node *alloc_find(struct iova_domain *iv, uint64_t pfn)
{
	struct iova_node key, *a;

	key.lo = pfn;
	a = RB_NFIND(alloc_tree, &iv->allocs, &key);
	if (a && a->lo == pfn)
		return a;
	a = a ? RB_PREV(alloc_tree, &iv->allocs, a)
	      : RB_MAX(alloc_tree, &iv->allocs);
	return a && pfn < a->hi ? a : NULL;
}

/* ---------------------------------------------------------------------- */
/* IOVA spaces                                                            */
/* ---------------------------------------------------------------------- */

/* A new IOVA space, all free.  Return: NULL when out of host memory. */
static struct iova_domain *iova_domain_new(void)
{
	struct iova_domain *iv = dmaemu__calloc(1, sizeof(*iv));
	struct iova_node *all = dmaemu__malloc(sizeof(*all));

	if (!iv || !all || dmaemu__mutex_init(&iv->lock)) {
		dmaemu__free(iv);
		dmaemu__free(all);
		return NULL;
	}
	RB_INIT(&iv->free_addr);
	RB_INIT(&iv->free_size);
	RB_INIT(&iv->allocs);
	all->lo = PFN_FIRST;
	all->hi = PFN_END;
	free_insert(iv, all);
	return iv;
}

static void iova_domain_free(struct iova_domain *iv)
{
	struct iova_node *n, *next;

	for (n = RB_MIN(free_addr, &iv->free_addr); n; n = next) {
		next = RB_NEXT(free_addr, &iv->free_addr, n);
		dmaemu__free(n);
	}
	for (n = RB_MIN(alloc_tree, &iv->allocs); n; n = next) {
		next = RB_NEXT(alloc_tree, &iv->allocs, n);
		dmaemu__free(n);
	}
	pthread_mutex_destroy(&iv->lock);
	dmaemu__free(iv);
}

/*
 * The IOMMU domain of @dev and, in *@iv, its IOVA space; with @make, both
 * are made when missing (iommu_get_dma_cookie()).  Return: the domain, or
 * NULL when there is none; *@iv is NULL when the domain has no IOVA space
 * (yet, or out of host memory).
 */
static struct dmaemu__iommu_domain *domain_of(struct dmaemu_machine *m,
					      struct device *dev, bool make,
					      struct iova_domain **iv)
{
	struct dmaemu__iommu_domain *hw =
		dmaemu__iommu_get_domain(m, dev, make);
	struct iova_domain *v, *set;

	*iv = NULL;
	if (!hw)
		return NULL;
	v = dmaemu__iommu_cookie(hw);
	if (!v && make) {
		v = iova_domain_new();
		if (v) {
			/* The domain's lock orders users that find @v
			 * through it after the set-up above. */
			set = dmaemu__iommu_set_cookie(hw, v);
			if (set != v)
				iova_domain_free(v);
			v = set;
		}
	}
	*iv = v;
	return hw;
}

/* ---------------------------------------------------------------------- */
/* Reports                                                                */
/* ---------------------------------------------------------------------- */

static void report_nospace(struct dmaemu_machine *m, struct device *dev,
			   size_t size, uint64_t mask, int err)
{
	dmaemu__reportf(m, DMAEMU_REPORT_ALLOC_FAILURE, 0, size,
			"iommu: device %s: no IOVA space for %zu bytes below "
			"the DMA mask 0x%llx (%s); the map returns "
			"DMA_MAPPING_ERROR",
			dev_label(dev), size, (unsigned long long)mask,
			err == -ENOMEM ? "out of host memory"
				       : "the address space is full");
}

static void report_bad(struct dmaemu_machine *m, struct device *dev,
		       dma_addr_t addr, size_t size, const char *what)
{
	dmaemu__reportf(m, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
			"iommu: device %s: %s (IOVA 0x%llx, %zu bytes)",
			dev_label(dev), what, (unsigned long long)addr, size);
}

/* ---------------------------------------------------------------------- */
/* Mapping                                                                */
/* ---------------------------------------------------------------------- */

/* dma_info_to_prot() (arm: __dma_info_to_prot()): what the DMA layer asks
 * of the IOMMU for a direction and attributes. */
static int prot_bits(int dir, unsigned long attrs)
{
	int b = (attrs & DMA_ATTR_PRIVILEGED) ? DMAEMU__IOMMU_PRIV : 0;

	switch (dir) {
	case DMAEMU__DIR_BIDI:
		return b | DMAEMU__IOMMU_READ | DMAEMU__IOMMU_WRITE;
	case DMAEMU__DIR_TO_DEVICE:
		return b | DMAEMU__IOMMU_READ;
	case DMAEMU__DIR_FROM_DEVICE:
		return b | DMAEMU__IOMMU_WRITE;
	default:
		return 0;
	}
}

/* The tag of the pages of a range: its direction and kind. */
static unsigned int tag_of(enum iova_kind kind, int dir)
{
	return (unsigned int)(dir & 3) | (unsigned int)kind << 2;
}

/* The bus's owner hook: what the page with @tag belongs to, for a fault
 * report. */
static void owner_name(unsigned int tag, char *buf, size_t len)
{
	unsigned int dir = tag & 3, kind = (tag >> 2) & 3;

	if (kind == KIND_PAGES)
		snprintf(buf, len, "a coherent allocation");
	else
		snprintf(buf, len, "a %s %s", dmaemu__dir_name((int)dir, "?"),
			 kind_names[kind]);
}

/*
 * The page limit of one of @dev's masks (one past the last usable page):
 * the streaming mask for mappings, the coherent mask for the pages of a
 * coherent allocation (as the kernel's iommu_dma_alloc() does).
 */
static uint64_t mask_end(const struct device *dev, bool coherent,
			 uint64_t *mask)
{
	uint64_t mk = coherent	      ? dev->coherent_dma_mask
		      : dev->dma_mask ? *dev->dma_mask
				      : 0;
	uint64_t end = (mk >> IOVA_SHIFT) + 1;

	*mask = mk;
	if (mk == UINT64_MAX || end > PFN_END)
		end = PFN_END;
	return end;
}

/* Where the pages of a mapping come from. */
struct page_src {
	const uint64_t *pages; /* page addresses, or NULL: contiguous */
	uint64_t first;	       /* the first page when contiguous */
};

/* Record @a as a live allocation.  iv->lock held. */
static void alloc_add(struct iova_domain *iv, struct iova_node *a, size_t bytes,
		      enum iova_kind kind, int dir)
{
	a->bytes = bytes;
	a->kind = (uint8_t)kind;
	a->dir = (uint8_t)dir;
	RB_INSERT(alloc_tree, &iv->allocs, a);
	iv->allocs_n++;
}

/* Undo a partly made allocation @a, which is not recorded: unmap its
 * pages, then give its range back. */
static void alloc_undo(struct dmaemu__iommu_domain *hw, struct iova_domain *iv,
		       struct iova_node *a)
{
	dmaemu__iommu_domain_unmap(hw, a->lo << IOVA_SHIFT,
				   (a->hi - a->lo) << IOVA_SHIFT);
	iova_lock(iv);
	iova_put(iv, a);
	iova_unlock(iv);
}

/*
 * Map @n pages, the i-th at page i of @src, into a new IOVA range of
 * @dev.  Return: the range's first page number, or 0 after a report
 * (none with @nowarn when the space is merely full).
 */
static uint64_t map_range(struct dmaemu_machine *m, struct device *dev,
			  struct dmaemu__iommu_domain *hw,
			  struct iova_domain *iv, const struct page_src *src,
			  uint64_t n, int prot, enum iova_kind kind, int dir,
			  size_t bytes, bool nowarn)
{
	uint64_t mask, end = mask_end(dev, kind == KIND_PAGES, &mask), i, lo;
	unsigned int tag = tag_of(kind, dir);
	struct iova_node *a;
	int err = 0;

	iova_lock(iv);
	a = iova_take(iv, n, end, &err);
	iova_unlock(iv);
	if (!a)
		goto fail;
	if (!src->pages)
		err = dmaemu__iommu_domain_map(hw, a->lo << IOVA_SHIFT,
					       src->first, n << IOVA_SHIFT,
					       prot, tag);
	for (i = 0; src->pages && i < n && !err; i++)
		err = dmaemu__iommu_domain_map(hw, (a->lo + i) << IOVA_SHIFT,
					       src->pages[i] & IOVA_MASK,
					       IOVA_PAGE, prot, tag);
	if (err) {
		alloc_undo(hw, iv, a);
		goto fail;
	}
	lo = a->lo;
	iova_lock(iv);
	alloc_add(iv, a, bytes, kind, dir);
	iova_unlock(iv);
	return lo;

fail:
	if (err != -ENOSPC || !nowarn)
		report_nospace(m, dev, bytes, mask, err);
	return 0;
}

/*
 * Release the allocation holding @addr, which should start at page
 * @addr's and be of @kind.  Return: 0, or -ENOENT after a report.
 */
static int unmap_range(struct dmaemu_machine *m, struct device *dev,
		       struct dmaemu__iommu_domain *hw, struct iova_domain *iv,
		       dma_addr_t addr, size_t size, enum iova_kind kind)
{
	const char *bad = NULL;
	struct iova_node *a = NULL;
	uint64_t pfn = addr >> IOVA_SHIFT;

	if (!hw) {
		report_bad(m, dev, addr, size, "unmap of an IOVA never mapped");
		return -ENOENT;
	}
	if (iv) {
		iova_lock(iv);
		a = alloc_find(iv, pfn);
		if (!a)
			iova_unlock(iv);
	}
	if (!a) {
		report_bad(m, dev, addr, size,
			   "unmap of an IOVA that is not mapped");
		return -ENOENT;
	}
	if (a->lo != pfn)
		bad = "unmap of an address inside an IOVA range, not its "
		      "first page; the whole range is unmapped";
	else if (a->kind != kind)
		bad = "unmap by a function that did not map it";
	else if (kind != KIND_SG && size != a->bytes)
		bad = "unmap with a size that is not the mapping's; the whole "
		      "range is unmapped";
	RB_REMOVE(alloc_tree, &iv->allocs, a);
	iv->allocs_n--;
	iova_unlock(iv);
	/* __iommu_dma_unmap(): the pages go before the range is free. */
	alloc_undo(hw, iv, a);
	if (bad)
		report_bad(m, dev, addr, size, bad);
	return 0;
}

/*
 * Call @fn on each physically contiguous run of DRAM behind [@addr,
 * +@size).  Unmapped pages end the walk with a report.
 */
static void for_each_run(struct dmaemu_machine *m, struct device *dev,
			 struct dmaemu__iommu_domain *hw, dma_addr_t addr,
			 size_t size, int dir,
			 void (*fn)(struct dmaemu_machine *, struct device *,
				    uint64_t, size_t, int))
{
	while (size) {
		uint64_t phys;
		size_t run =
			hw ? dmaemu__iommu_domain_run(hw, addr, size, &phys)
			   : 0;

		if (!run)
			goto bad;
		if (dmaemu__bank_of_phys(m, phys, run))
			fn(m, dev, phys, run, dir);
		addr += run;
		size -= run;
	}
	return;
bad:
	report_bad(m, dev, addr, size,
		   "cache maintenance of an IOVA that is not mapped");
}

/*
 * Map the physically contiguous [@phys, +@size) as one run of IOVA pages
 * of @kind.  Return: the IOVA of @phys, or DMA_MAPPING_ERROR after a
 * report.
 */
static dma_addr_t map_contig(struct dmaemu_machine *m, struct device *dev,
			     uint64_t phys, size_t size, int dir,
			     unsigned long attrs, enum iova_kind kind)
{
	struct page_src src = {.first = phys & IOVA_MASK};
	uint64_t off = phys & (IOVA_PAGE - 1), pfn;
	struct dmaemu__iommu_domain *hw;
	struct iova_domain *iv;

	if (!size) {
		report_bad(m, dev, 0, size, "map of 0 bytes");
		return DMA_MAPPING_ERROR;
	}
	hw = domain_of(m, dev, true, &iv);
	if (!iv) {
		report_nospace(m, dev, size, 0, -ENOMEM);
		return DMA_MAPPING_ERROR;
	}
	pfn = map_range(m, dev, hw, iv, &src,
			(off + size + IOVA_PAGE - 1) >> IOVA_SHIFT,
			prot_bits(dir, attrs), kind, dir, size,
			attrs & DMA_ATTR_NO_WARN);
	return pfn ? (pfn << IOVA_SHIFT) + off : DMA_MAPPING_ERROR;
}

static dma_addr_t iommu_map(struct dmaemu_machine *m, struct device *dev,
			    uint64_t phys, size_t size, int dir,
			    unsigned long attrs)
{
	dma_addr_t dma;

	dma = map_contig(m, dev, phys, size, dir, attrs, KIND_SINGLE);
	if (dma != DMA_MAPPING_ERROR && !(attrs & DMA_ATTR_SKIP_CPU_SYNC))
		dmaemu__arch_sync_for_device(m, dev, phys, size, dir);
	return dma;
}

static void iommu_unmap(struct dmaemu_machine *m, struct device *dev,
			dma_addr_t addr, uint64_t phys, size_t size, int dir,
			unsigned long attrs)
{
	struct iova_domain *iv;
	struct dmaemu__iommu_domain *hw = domain_of(m, dev, false, &iv);

	/* As __iommu_unmap_page(): maintenance while the pages are still
	 * mapped, then the unmap. */
	if (!(attrs & DMA_ATTR_SKIP_CPU_SYNC))
		for_each_run(m, dev, hw, addr, size, dir,
			     dmaemu__arch_sync_for_cpu);
	unmap_range(m, dev, hw, iv, addr, size, KIND_SINGLE);
}

static void iommu_sync_for_cpu(struct dmaemu_machine *m, struct device *dev,
			       dma_addr_t map_addr, uint64_t map_phys,
			       dma_addr_t addr, size_t size, int dir)
{
	struct iova_domain *iv;

	for_each_run(m, dev, domain_of(m, dev, false, &iv), addr, size, dir,
		     dmaemu__arch_sync_for_cpu);
}

static void iommu_sync_for_device(struct dmaemu_machine *m, struct device *dev,
				  dma_addr_t map_addr, uint64_t map_phys,
				  dma_addr_t addr, size_t size, int dir)
{
	struct iova_domain *iv;

	for_each_run(m, dev, domain_of(m, dev, false, &iv), addr, size, dir,
		     dmaemu__arch_sync_for_device);
}

/*
 * Scatterlists.  The layout of iommu_dma_map_sg(): entry i covers whole
 * IOVA pages from @at; an entry that would cross a segment boundary
 * starts at the next one.  The allocation is aligned to its size rounded
 * up to a power of two, so when the boundary is smaller than the
 * allocation, the allocation starts on a boundary, and offsets from its
 * start tell where boundaries are.
 */
struct sg_layout {
	uint64_t len;	/* bytes laid out so far */
	uint64_t bmask; /* segment boundary mask */
};

static uint64_t layout_place(struct sg_layout *l, uint64_t iova_len)
{
	uint64_t rem = (l->bmask - l->len + 1) & l->bmask, at;

	if (rem && iova_len > rem)
		l->len += rem;
	at = l->len;
	l->len += iova_len;
	return at;
}

static uint64_t entry_iova_len(struct scatterlist *s)
{
	uint64_t off = sg_phys(s) & (IOVA_PAGE - 1);

	return (off + s->length + IOVA_PAGE - 1) & IOVA_MASK;
}

static void iommu_unmap_sg(struct dmaemu_machine *m, struct device *dev,
			   struct scatterlist *sgl, int nents, int dir,
			   unsigned long attrs)
{
	struct dmaemu__iommu_domain *hw;
	struct iova_domain *iv;
	struct scatterlist *s;
	int i;

	if (nents <= 0)
		return;
	/* As __iommu_unmap_sg_attrs(): maintenance of every entry's
	 * memory, then the one IOVA range goes. */
	if (!(attrs & DMA_ATTR_SKIP_CPU_SYNC))
		for_each_sg (sgl, s, nents, i)
			if (s->length &&
			    dmaemu__bank_of_phys(m, sg_phys(s), s->length))
				dmaemu__arch_sync_for_cpu(m, dev, sg_phys(s),
							  s->length, dir);
	hw = domain_of(m, dev, false, &iv);
	unmap_range(m, dev, hw, iv, sg_dma_address(sgl), 0, KIND_SG);
}

static int iommu_map_sg(struct dmaemu_machine *m, struct device *dev,
			struct scatterlist *sgl, int nents, int dir,
			unsigned long attrs)
{
	struct sg_layout l = {.len = 0};
	struct scatterlist *s, *cur = sgl;
	unsigned int max_len, tag = tag_of(KIND_SG, dir);
	uint64_t base, mask, end;
	int prot = prot_bits(dir, attrs);
	bool vtd = dmaemu__iommu_is_vtd(m);
	uint64_t cur_len = 0, iova_len;
	struct dmaemu__iommu_domain *hw;
	struct iova_domain *iv;
	struct iova_node *a;
	int i, count = 0, err = 0;

	if (nents <= 0)
		return 0;
	/* intel_map_sg() does not look at the segment boundary. */
	l.bmask = vtd		   ? 0
		  : dev->dma_parms ? dev->dma_parms->segment_boundary_mask
				   : 0xffffffffUL;
	max_len = dev->dma_parms ? dev->dma_parms->max_segment_size : 65536;
	for_each_sg (sgl, s, nents, i)
		layout_place(&l, entry_iova_len(s));
	iova_len = l.len;
	if (!iova_len) {
		report_bad(m, dev, 0, 0, "map of a scatterlist of 0 bytes");
		return 0;
	}
	hw = domain_of(m, dev, true, &iv);
	if (!iv) {
		report_nospace(m, dev, iova_len, 0, -ENOMEM);
		return 0;
	}
	end = mask_end(dev, false, &mask);

	if (!(attrs & DMA_ATTR_SKIP_CPU_SYNC))
		for_each_sg (sgl, s, nents, i)
			if (s->length &&
			    dmaemu__bank_of_phys(m, sg_phys(s), s->length))
				dmaemu__arch_sync_for_device(m, dev, sg_phys(s),
							     s->length, dir);

	/* One IOVA range for the whole list, each entry's pages at its
	 * place in it; padding pages stay unmapped. */
	iova_lock(iv);
	a = iova_take(iv, iova_len >> IOVA_SHIFT, end, &err);
	iova_unlock(iv);
	if (!a)
		goto fail;
	base = a->lo << IOVA_SHIFT;
	l.len = 0;
	for_each_sg (sgl, s, nents, i) {
		uint64_t at = layout_place(&l, entry_iova_len(s));

		err = dmaemu__iommu_domain_map(hw, base + at,
					       sg_phys(s) & IOVA_MASK,
					       entry_iova_len(s), prot, tag);
		if (err) {
			alloc_undo(hw, iv, a);
			goto fail;
		}
	}
	iova_lock(iv);
	alloc_add(iv, a, iova_len, KIND_SG, dir);
	iova_unlock(iv);

	l.len = 0;
	if (vtd) {
		/* __domain_mapping(): each entry its own segment. */
		for_each_sg (sgl, s, nents, i) {
			uint64_t at = layout_place(&l, entry_iova_len(s));

			s->dma_address =
				base + at + (sg_phys(s) & (IOVA_PAGE - 1));
			s->dma_length = s->length;
		}
		return nents;
	}
	/* __finalise_sg(): merge into DMA segments. */
	for_each_sg (sgl, s, nents, i) {
		s->dma_address = DMA_MAPPING_ERROR;
		s->dma_length = 0;
	}
	for_each_sg (sgl, s, nents, i) {
		uint64_t s_off = sg_phys(s) & (IOVA_PAGE - 1);
		uint64_t s_iova_len = entry_iova_len(s);
		uint64_t iova = base + layout_place(&l, s_iova_len);

		if (cur_len && !s_off && (iova & l.bmask) &&
		    cur_len + s->length <= max_len) {
			cur_len += s->length;
		} else {
			if (i > 0)
				cur = sg_next(cur);
			cur_len = s->length;
			count++;
			cur->dma_address = iova + s_off;
		}
		cur->dma_length = (unsigned int)cur_len;
		if (s_off + s->length < s_iova_len)
			cur_len = 0;
	}
	return count;

fail:
	if (err != -ENOSPC || !(attrs & DMA_ATTR_NO_WARN))
		report_nospace(m, dev, iova_len, mask, err);
	return 0;
}

static dma_addr_t iommu_map_resource(struct dmaemu_machine *m,
				     struct device *dev, uint64_t phys,
				     size_t size, int dir, unsigned long attrs)
{
	return map_contig(m, dev, phys, size, dir, attrs, KIND_RESOURCE);
}

static void iommu_unmap_resource(struct dmaemu_machine *m, struct device *dev,
				 dma_addr_t addr, size_t size, int dir,
				 unsigned long attrs)
{
	struct iova_domain *iv;
	struct dmaemu__iommu_domain *hw = domain_of(m, dev, false, &iv);

	unmap_range(m, dev, hw, iv, addr, size, KIND_RESOURCE);
}

/* What @iova of @dev maps to, or UINT64_MAX (iommu_iova_to_phys()). */
static uint64_t iova_to_phys(struct dmaemu_machine *m, struct device *dev,
			     dma_addr_t iova)
{
	struct iova_domain *iv;
	struct dmaemu__iommu_domain *hw = domain_of(m, dev, false, &iv);
	uint64_t phys;

	if (!hw || !dmaemu__iommu_domain_run(hw, iova, 1, &phys))
		return UINT64_MAX;
	return phys;
}

const struct dmaemu__dma_ops dmaemu__iommu_ops = {
	.id = {.name = "iommu"},
	.map = iommu_map,
	.unmap = iommu_unmap,
	.sync_for_cpu = iommu_sync_for_cpu,
	.sync_for_device = iommu_sync_for_device,
	.map_sg = iommu_map_sg,
	.unmap_sg = iommu_unmap_sg,
	.map_resource = iommu_map_resource,
	.unmap_resource = iommu_unmap_resource,
	.iova_to_phys = iova_to_phys,
};

/* ---------------------------------------------------------------------- */
/* Coherent allocations (alloc.c)                                         */
/* ---------------------------------------------------------------------- */

/**
 * dmaemu__iommu_map_pages() - map pages of a coherent allocation.
 * @dev:        the device.
 * @phys_pages: physical address of each page (page-aligned).
 * @npages:     number of pages.
 * @prot:       DMAEMU__IOMMU_READ | DMAEMU__IOMMU_WRITE, and
 *              DMAEMU__IOMMU_NOWARN for no report when the space is full.
 * @privileged: DMA_ATTR_PRIVILEGED: unprivileged device accesses fault.
 *
 * The pages get consecutive IOVAs whether or not they are physically
 * contiguous.  No cache maintenance.
 *
 * Return: the IOVA of the first page, or DMA_MAPPING_ERROR (reported).
 */
dma_addr_t dmaemu__iommu_map_pages(struct device *dev,
				   const uint64_t *phys_pages, size_t npages,
				   int prot, bool privileged)
{
	struct dmaemu_machine *m = dev ? dmaemu__dev_machine(dev) : NULL;
	struct page_src src = {.pages = phys_pages};
	struct dmaemu__iommu_domain *hw;
	struct iova_domain *iv;
	uint64_t pfn;

	if (!m)
		return DMA_MAPPING_ERROR;
	if (!phys_pages || !npages) {
		report_bad(m, dev, 0, 0, "map of no pages");
		return DMA_MAPPING_ERROR;
	}
	hw = domain_of(m, dev, true, &iv);
	if (!iv) {
		report_nospace(m, dev, npages << IOVA_SHIFT, 0, -ENOMEM);
		return DMA_MAPPING_ERROR;
	}
	pfn = map_range(m, dev, hw, iv, &src, npages,
			(prot & (DMAEMU__IOMMU_READ | DMAEMU__IOMMU_WRITE)) |
				(privileged ? DMAEMU__IOMMU_PRIV : 0),
			KIND_PAGES, DMAEMU__DIR_BIDI, npages << IOVA_SHIFT,
			prot & DMAEMU__IOMMU_NOWARN);
	return pfn ? pfn << IOVA_SHIFT : DMA_MAPPING_ERROR;
}

/**
 * dmaemu__iommu_unmap() - undo dmaemu__iommu_map_pages().
 * @dev:  the device.
 * @addr: the IOVA it returned.
 * @size: bytes of the allocation (npages pages).
 *
 * An address that is not such a mapping is a bad-argument report.
 */
void dmaemu__iommu_unmap(struct device *dev, dma_addr_t addr, size_t size)
{
	struct dmaemu_machine *m = dev ? dmaemu__dev_machine(dev) : NULL;
	struct dmaemu__iommu_domain *hw;
	struct iova_domain *iv;

	if (!m)
		return;
	hw = domain_of(m, dev, false, &iv);
	unmap_range(m, dev, hw, iv, addr, (size + IOVA_PAGE - 1) & IOVA_MASK,
		    KIND_PAGES);
}

/* ---------------------------------------------------------------------- */
/* Machines, devices, introspection                                       */
/* ---------------------------------------------------------------------- */

/**
 * dmaemu__iommu_dma_init() - machine create: with iommu=1, tell the bus's
 * fault reports what the tags of this file's pages mean.
 */
void dmaemu__iommu_dma_init(struct dmaemu_machine *m)
{
	if (m->opt.iommu)
		dmaemu__iommu_set_owner_fn(m, owner_name);
}

/**
 * dmaemu__iommu_info() - statistics of @dev's IOMMU domain (all zero when
 * it has none).  A domain without an IOVA space yet (made by
 * dmaemu_device_set_privileged()) has its whole space free: one range.
 */
void dmaemu__iommu_info(struct device *dev, struct dmaemu__iommu_stats *st)
{
	struct dmaemu_machine *m = dev ? dmaemu__dev_machine(dev) : NULL;
	struct dmaemu__iommu_domain *hw;
	struct dmaemu__iommu_pt_stats pt;
	struct iova_domain *iv;
	struct iova_node *n;

	memset(st, 0, sizeof(*st));
	hw = m ? domain_of(m, dev, false, &iv) : NULL;
	if (!hw)
		return;
	dmaemu__iommu_domain_info(hw, &pt);
	st->pages = pt.pages;
	st->faults = pt.faults;
	st->tables = pt.tables;
	st->privileged = pt.privileged;
	if (!iv) {
		st->free_ranges = 1;
		return;
	}
	iova_lock(iv);
	st->allocs = iv->allocs_n;
	st->steps = iv->steps;
	for (n = RB_MIN(free_addr, &iv->free_addr); n;
	     n = RB_NEXT(free_addr, &iv->free_addr, n))
		st->free_ranges++;
	iova_unlock(iv);
}

/**
 * dmaemu__iommu_dma_release() - device release (the DMA layer's bus
 * client), after the device's mappings and allocations were released:
 * take @dev's IOVA space off its IOMMU domain and free it.  The domain
 * itself is the bus's to free.
 */
void dmaemu__iommu_dma_release(struct device *dev)
{
	struct dmaemu_machine *m = dev ? dmaemu__dev_machine(dev) : NULL;
	struct dmaemu__iommu_domain *hw =
		m ? dmaemu__iommu_get_domain(m, dev, false) : NULL;
	struct iova_domain *iv = hw ? dmaemu__iommu_take_cookie(hw) : NULL;

	if (!iv)
		return;
	/* Taken once so the free follows every user's unlock. */
	iova_lock(iv);
	iova_unlock(iv);
	iova_domain_free(iv);
}
