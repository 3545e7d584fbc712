// SPDX-License-Identifier: MIT
/*
 * iommu.c - the IOMMU backend: an IOVA space and a page table per device,
 * permissions by direction, faults, scatterlist merging; as Linux 4.14's
 * drivers/iommu/dma-iommu.c and iova.c with arm64's IOMMU DMA ops.
 *
 * How it works.  Each device that uses the IOMMU has a domain:
 *
 *   IOVA space   bus addresses [0x1000, 2^48) in 4 KiB pages; page 0 is
 *                never handed out, so no mapping has bus address 0.
 *   free ranges  the free parts of the space, in two red-black trees
 *                (BSD <sys/tree.h>): by address, to coalesce on free, and
 *                by (size, address high to low), to find the smallest
 *                range that fits in O(log n).
 *   allocations  the IOVA ranges in use, by address (unmap finds its
 *                range from any address inside, as find_iova() does).
 *   page table   four levels of 512 entries over the 36-bit IOVA page
 *                number, like an ARM LPAE or VT-d table; a leaf entry
 *                holds the physical page and the permission bits:
 *
 *     63                              12  7  6 5  4  3    2     1     0
 *     [ physical page                  ][kind][dir][PRIV][WRITE][READ][V]
 *
 * Allocation follows alloc_iova(): a range of n pages is aligned to n
 * rounded up to a power of two, and taken from the top of the free range
 * chosen, below the device's DMA mask at the time of the call.  The chosen
 * range is the smallest one that fits (a few candidates are tried in size
 * order; then ranges big enough for any alignment), so a map or unmap
 * costs O(log n) in the number of live mappings.
 *
 * Permissions follow dma_info_to_prot(): DMA_TO_DEVICE maps the pages
 * IOMMU_READ (the device may read only), DMA_FROM_DEVICE IOMMU_WRITE (write
 * only: a device read faults, as in a VT-d or SMMU stage-2 table, which
 * keep the two bits apart), DMA_BIDIRECTIONAL both; DMA_ATTR_PRIVILEGED
 * adds IOMMU_PRIV, and an unprivileged device access to such a page
 * faults.  Devices are unprivileged unless dmaemu_device_set_privileged()
 * says otherwise.  A device access (the bus translator, called by
 * dmaemu_dma_read/write) to an unmapped page or without the permission is
 * an iommu-fault report and -EFAULT / -EPERM.
 *
 * dma_map_sg() lays the entries out in one IOVA allocation as
 * iommu_dma_map_sg() does: each entry takes whole pages (its offset in its
 * first page is kept), an entry that would cross the device's segment
 * boundary starts at the boundary, and consecutive entries become one DMA
 * segment when the first ends at a page end, the next starts at a page
 * start, the join is not on a segment boundary and the segment stays
 * within max_segment_size.  So dma_map_sg() may return fewer segments than
 * entries.  The IOMMU does not change the cache maintenance: it runs per
 * profile on the physical pages, as on arm64.  dma_offset does not apply:
 * the IOVA is the bus address.
 *
 * Locking.  iommu->lock protects the list of domains; d->lock everything
 * in a domain.  Both are leaves: nothing else is taken while one is held,
 * so the bus translator may be called with any lock of the machine held.
 * Cache maintenance runs after d->lock is dropped.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <bsd/sys/tree.h>

#include "dma/backend.h"

#include <linux/dma-mapping.h>
#include <linux/scatterlist.h>

#define IOVA_SHIFT DMAEMU__PAGE_SHIFT
#define IOVA_PAGE (1ULL << IOVA_SHIFT)
#define IOVA_BITS 48
#define PFN_FIRST 1ULL
#define PFN_END (1ULL << (IOVA_BITS - IOVA_SHIFT))

#define PT_BITS 9
#define PT_SIZE (1U << PT_BITS)
#define PT_LEVELS 4

#define PTE_VALID 0x1ULL
#define PTE_READ 0x2ULL
#define PTE_WRITE 0x4ULL
#define PTE_PRIV 0x8ULL
#define PTE_DIR_SHIFT 4
#define PTE_KIND_SHIFT 6
#define PTE_PHYS (~(IOVA_PAGE - 1))

/* What made an IOVA range. */
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

static int cmp_addr(const struct iova_node *a, const struct iova_node *b)
{
	return a->lo < b->lo ? -1 : a->lo > b->lo;
}

/* Smallest first; of equal sizes the highest first (top-down). */
static int cmp_size(const struct iova_node *a, const struct iova_node *b)
{
	uint64_t sa = a->hi - a->lo, sb = b->hi - b->lo;

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
 * struct iommu_domain - the IOMMU context of one device.
 * @dev:        the device.
 * @lock:       protects everything below.
 * @privileged: the device's accesses are privileged.
 * @free_addr:  free ranges by address.
 * @free_size:  the same nodes by size.
 * @allocs:     ranges in use.
 * @root:       the page table's top level (NULL until the first mapping).
 * @pages:      pages mapped.  @allocs_n: ranges in use.  @faults: faults.
 * @tables:     page-table pages (statistics).
 * @next:       the machine's list of domains.
 */
struct iommu_domain {
	struct device *dev;
	pthread_mutex_t lock;
	bool privileged;
	struct free_addr free_addr;
	struct free_size free_size;
	struct alloc_tree allocs;
	void **root;
	uint64_t pages, allocs_n, faults, tables;
	struct iommu_domain *next;
};

/* The IOMMU of a machine: its domains, under @lock. */
struct dmaemu__iommu {
	pthread_mutex_t lock;
	struct iommu_domain *domains;
};

static const char *dev_label(const struct device *dev)
{
	return dev->init_name ? dev->init_name : "?";
}

static uint64_t pow2_ceil(uint64_t n)
{
	return n <= 1 ? 1 : 1ULL << (64 - __builtin_clzll(n - 1));
}

/* ---------------------------------------------------------------------- */
/* Page table                                                             */
/* ---------------------------------------------------------------------- */

static unsigned int pt_index(uint64_t pfn, unsigned int level)
{
	return (unsigned int)(pfn >> (PT_BITS * (PT_LEVELS - 1 - level))) &
	       (PT_SIZE - 1);
}

/*
 * The leaf entry of @pfn; with @make, missing tables are made.  Return:
 * NULL when absent (or out of host memory with @make).  d->lock held.
 */
static uint64_t *pte_of(struct iommu_domain *d, uint64_t pfn, bool make)
{
	void **t;
	unsigned int level;

	if (!d->root) {
		if (!make)
			return NULL;
		d->root = dmaemu__calloc(PT_SIZE, sizeof(void *));
		if (!d->root)
			return NULL;
		d->tables++;
	}
	t = d->root;
	for (level = 0; level < PT_LEVELS - 1; level++) {
		void **next = t[pt_index(pfn, level)];

		if (!next) {
			if (!make)
				return NULL;
			/* Leaves are uint64_t entries, tables pointers:
			 * both 8 bytes. */
			next = dmaemu__calloc(PT_SIZE, sizeof(void *));
			if (!next)
				return NULL;
			t[pt_index(pfn, level)] = next;
			d->tables++;
		}
		t = next;
	}
	return (uint64_t *)t + pt_index(pfn, PT_LEVELS - 1);
}

static uint64_t pte_get(struct iommu_domain *d, uint64_t pfn)
{
	uint64_t *p = pfn < PFN_END ? pte_of(d, pfn, false) : NULL;

	return p ? *p : 0;
}

static void pt_free(void **t, unsigned int level)
{
	unsigned int i;

	if (!t)
		return;
	if (level < PT_LEVELS - 1)
		for (i = 0; i < PT_SIZE; i++)
			pt_free(t[i], level + 1);
	dmaemu__free(t);
}

/* Clear the entries of [@lo, @lo + @n).  d->lock held. */
static void pt_clear(struct iommu_domain *d, uint64_t lo, uint64_t n)
{
	uint64_t i;

	for (i = 0; i < n; i++) {
		uint64_t *p = pte_of(d, lo + i, false);

		if (p && (*p & PTE_VALID)) {
			*p = 0;
			d->pages--;
		}
	}
}

/* Set the entry of @pfn to @val (a valid entry).  d->lock held.  Return:
 * false when out of host memory for a table. */
static bool pte_set(struct iommu_domain *d, uint64_t pfn, uint64_t val)
{
	uint64_t *p = pte_of(d, pfn, true);

	if (!p)
		return false;
	if (!(*p & PTE_VALID))
		d->pages++;
	*p = val;
	return true;
}

/* ---------------------------------------------------------------------- */
/* IOVA allocator                                                         */
/* ---------------------------------------------------------------------- */

static void free_insert(struct iommu_domain *d, struct iova_node *f)
{
	RB_INSERT(free_addr, &d->free_addr, f);
	RB_INSERT(free_size, &d->free_size, f);
}

static void free_remove(struct iommu_domain *d, struct iova_node *f)
{
	RB_REMOVE(free_addr, &d->free_addr, f);
	RB_REMOVE(free_size, &d->free_size, f);
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
 * below page @end.  d->lock held.  Return: the allocation node (not yet in
 * the allocation tree), or NULL (*@err: -ENOSPC, -ENOMEM).
 */
static struct iova_node *iova_take(struct iommu_domain *d, uint64_t n,
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
	f = RB_NFIND(free_size, &d->free_size, &key);
	for (tries = 0; f && tries < 8; tries++) {
		start = fit(f, n, align, end);
		if (start)
			goto take;
		f = RB_NEXT(free_size, &d->free_size, f);
	}
	/* 2. Ranges that hold it at any alignment; only the limit can
	 * refuse them. */
	if (align > 1) {
		key.hi = PFN_END + n + align - 1;
		f = RB_NFIND(free_size, &d->free_size, &key);
	}
	for (; f; f = RB_NEXT(free_size, &d->free_size, f)) {
		start = fit(f, n, align, end);
		if (start)
			goto take;
	}
	dmaemu__free(a);
	dmaemu__free(spare);
	*err = -ENOSPC;
	return NULL;

take:
	free_remove(d, f);
	if (start + n < f->hi) {
		spare->lo = start + n;
		spare->hi = f->hi;
		free_insert(d, spare);
		spare = NULL;
	}
	if (start > f->lo) {
		f->hi = start;
		free_insert(d, f);
	} else {
		dmaemu__free(f);
	}
	dmaemu__free(spare);
	a->lo = start;
	a->hi = start + n;
	return a;
}

/* Give back the range of node @a (which becomes a free node).  d->lock. */
static void iova_put(struct iommu_domain *d, struct iova_node *a)
{
	struct iova_node *right, *left;

	right = RB_NFIND(free_addr, &d->free_addr, a);
	left = right ? RB_PREV(free_addr, &d->free_addr, right)
		     : RB_MAX(free_addr, &d->free_addr);
	if (right && right->lo == a->hi) {
		free_remove(d, right);
		a->hi = right->hi;
		dmaemu__free(right);
	}
	if (left && left->hi == a->lo) {
		RB_REMOVE(free_size, &d->free_size, left);
		left->hi = a->hi;
		RB_INSERT(free_size, &d->free_size, left);
		dmaemu__free(a);
		return;
	}
	free_insert(d, a);
}

/* The allocation holding page @pfn, or NULL.  d->lock held. */
static struct iova_node *alloc_find(struct iommu_domain *d, uint64_t pfn)
{
	struct iova_node key, *a;

	key.lo = pfn;
	a = RB_NFIND(alloc_tree, &d->allocs, &key);
	if (a && a->lo == pfn)
		return a;
	a = a ? RB_PREV(alloc_tree, &d->allocs, a)
	      : RB_MAX(alloc_tree, &d->allocs);
	return a && pfn < a->hi ? a : NULL;
}

/* ---------------------------------------------------------------------- */
/* Domains                                                                */
/* ---------------------------------------------------------------------- */

static struct dmaemu__iommu *iommu_state(struct dmaemu_machine *m)
{
	struct dmaemu__iommu *io = __atomic_load_n(&m->iommu, __ATOMIC_ACQUIRE);

	if (io)
		return io;
	dmaemu__lock(&m->lock);
	io = m->iommu;
	if (!io) {
		io = dmaemu__calloc(1, sizeof(*io));
		if (io && dmaemu__mutex_init(&io->lock)) {
			dmaemu__free(io);
			io = NULL;
		}
		if (io) {
			/* Readers that found @io without m->lock take
			 * io->lock first: this pair orders them after the
			 * set-up. */
			dmaemu__lock(&io->lock);
			dmaemu__unlock(&io->lock);
			dmaemu__vg_atomic(&m->iommu, sizeof(m->iommu));
			__atomic_store_n(&m->iommu, io, __ATOMIC_RELEASE);
		}
	}
	dmaemu__unlock(&m->lock);
	return io;
}

static void domain_free(struct iommu_domain *d)
{
	struct iova_node *n, *next;

	for (n = RB_MIN(free_addr, &d->free_addr); n; n = next) {
		next = RB_NEXT(free_addr, &d->free_addr, n);
		dmaemu__free(n);
	}
	for (n = RB_MIN(alloc_tree, &d->allocs); n; n = next) {
		next = RB_NEXT(alloc_tree, &d->allocs, n);
		dmaemu__free(n);
	}
	pt_free(d->root, 0);
	pthread_mutex_destroy(&d->lock);
	dmaemu__free(d);
}

/*
 * The domain of @dev; with @make, made when missing.  Return: NULL when
 * there is none (or out of host memory).
 */
static struct iommu_domain *domain_of(struct dmaemu_machine *m,
				      struct device *dev, bool make)
{
	struct dmaemu__iommu *io =
		make ? iommu_state(m)
		     : __atomic_load_n(&m->iommu, __ATOMIC_ACQUIRE);
	struct iommu_domain *d;
	struct iova_node *all;

	if (!io)
		return NULL;
	dmaemu__lock(&io->lock);
	for (d = io->domains; d; d = d->next)
		if (d->dev == dev)
			break;
	if (d || !make)
		goto out;
	d = dmaemu__calloc(1, sizeof(*d));
	all = dmaemu__malloc(sizeof(*all));
	if (!d || !all || dmaemu__mutex_init(&d->lock)) {
		dmaemu__free(d);
		dmaemu__free(all);
		d = NULL;
		goto out;
	}
	d->dev = dev;
	RB_INIT(&d->free_addr);
	RB_INIT(&d->free_size);
	RB_INIT(&d->allocs);
	all->lo = PFN_FIRST;
	all->hi = PFN_END;
	free_insert(d, all);
	/* Order users that find @d under io->lock and then take d->lock
	 * after the set-up above. */
	dmaemu__lock(&d->lock);
	dmaemu__unlock(&d->lock);
	d->next = io->domains;
	io->domains = d;
out:
	dmaemu__unlock(&io->lock);
	return d;
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

/* dma_info_to_prot() as PTE bits. */
static uint64_t prot_bits(int dir, unsigned long attrs)
{
	uint64_t b = (attrs & DMA_ATTR_PRIVILEGED) ? PTE_PRIV : 0;

	switch (dir) {
	case DMAEMU__DIR_BIDI:
		return b | PTE_READ | PTE_WRITE;
	case DMAEMU__DIR_TO_DEVICE:
		return b | PTE_READ;
	case DMAEMU__DIR_FROM_DEVICE:
		return b | PTE_WRITE;
	default:
		return 0;
	}
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

static uint64_t src_page(const struct page_src *src, uint64_t i)
{
	return src->pages ? src->pages[i] & PTE_PHYS
			  : src->first + (i << IOVA_SHIFT);
}

static uint64_t pte_val(uint64_t page, uint64_t bits, enum iova_kind kind,
			int dir)
{
	return page | bits | PTE_VALID |
	       ((uint64_t)(dir & 3) << PTE_DIR_SHIFT) |
	       ((uint64_t)kind << PTE_KIND_SHIFT);
}

/* Record @a as a live allocation.  d->lock held. */
static void alloc_add(struct iommu_domain *d, struct iova_node *a, size_t bytes,
		      enum iova_kind kind, int dir)
{
	a->bytes = bytes;
	a->kind = (uint8_t)kind;
	a->dir = (uint8_t)dir;
	RB_INSERT(alloc_tree, &d->allocs, a);
	d->allocs_n++;
}

/* Undo a partly made allocation @a.  d->lock held. */
static void alloc_undo(struct iommu_domain *d, struct iova_node *a)
{
	pt_clear(d, a->lo, a->hi - a->lo);
	iova_put(d, a);
}

/*
 * Map @n pages, the i-th at src_page(@src, i), into a new IOVA range of
 * @dev.  Return: the range's first page number, or 0 after a report
 * (none with @nowarn when the space is merely full).
 */
static uint64_t map_range(struct dmaemu_machine *m, struct device *dev,
			  struct iommu_domain *d, const struct page_src *src,
			  uint64_t n, uint64_t bits, enum iova_kind kind,
			  int dir, size_t bytes, bool nowarn)
{
	uint64_t mask, end = mask_end(dev, kind == KIND_PAGES, &mask), i, lo;
	struct iova_node *a;
	int err = 0;

	dmaemu__lock(&d->lock);
	a = iova_take(d, n, end, &err);
	if (!a)
		goto fail;
	for (i = 0; i < n; i++) {
		if (!pte_set(d, a->lo + i,
			     pte_val(src_page(src, i), bits, kind, dir))) {
			alloc_undo(d, a);
			err = -ENOMEM;
			goto fail;
		}
	}
	alloc_add(d, a, bytes, kind, dir);
	lo = a->lo;
	dmaemu__unlock(&d->lock);
	return lo;

fail:
	dmaemu__unlock(&d->lock);
	if (err != -ENOSPC || !nowarn)
		report_nospace(m, dev, bytes, mask, err);
	return 0;
}

/*
 * Release the allocation holding @addr, which should start at page
 * @addr's and be of @kind.  Return: 0, or -ENOENT after a report.
 */
static int unmap_range(struct dmaemu_machine *m, struct device *dev,
		       struct iommu_domain *d, dma_addr_t addr, size_t size,
		       enum iova_kind kind)
{
	const char *bad = NULL;
	struct iova_node *a;
	uint64_t pfn = addr >> IOVA_SHIFT;

	if (!d) {
		report_bad(m, dev, addr, size, "unmap of an IOVA never mapped");
		return -ENOENT;
	}
	dmaemu__lock(&d->lock);
	a = alloc_find(d, pfn);
	if (!a) {
		dmaemu__unlock(&d->lock);
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
	RB_REMOVE(alloc_tree, &d->allocs, a);
	d->allocs_n--;
	alloc_undo(d, a);
	dmaemu__unlock(&d->lock);
	if (bad)
		report_bad(m, dev, addr, size, bad);
	return 0;
}

/*
 * Call @fn on each physically contiguous run of DRAM behind [@addr,
 * +@size).  Unmapped pages end the walk with a report.
 */
static void for_each_run(struct dmaemu_machine *m, struct device *dev,
			 struct iommu_domain *d, dma_addr_t addr, size_t size,
			 int dir,
			 void (*fn)(struct dmaemu_machine *, uint64_t, size_t,
				    int))
{
	while (size) {
		uint64_t pte, phys, off = addr & (IOVA_PAGE - 1);
		size_t run = IOVA_PAGE - off;

		if (!d)
			goto bad;
		dmaemu__lock(&d->lock);
		pte = pte_get(d, addr >> IOVA_SHIFT);
		if (!(pte & PTE_VALID)) {
			dmaemu__unlock(&d->lock);
			goto bad;
		}
		phys = (pte & PTE_PHYS) + off;
		if (run > size)
			run = size;
		while (run < size) {
			uint64_t next = pte_get(d, (addr + run) >> IOVA_SHIFT);

			if (!(next & PTE_VALID) ||
			    (next & PTE_PHYS) != phys + run)
				break;
			run += size - run < IOVA_PAGE ? size - run : IOVA_PAGE;
		}
		dmaemu__unlock(&d->lock);
		if (dmaemu__bank_of_phys(m, phys, run))
			fn(m, phys, run, dir);
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
	struct page_src src = {.first = phys & PTE_PHYS};
	uint64_t off = phys & (IOVA_PAGE - 1), pfn;
	struct iommu_domain *d;

	if (!size) {
		report_bad(m, dev, 0, size, "map of 0 bytes");
		return DMA_MAPPING_ERROR;
	}
	d = domain_of(m, dev, true);
	if (!d) {
		report_nospace(m, dev, size, 0, -ENOMEM);
		return DMA_MAPPING_ERROR;
	}
	pfn = map_range(m, dev, d, &src,
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
		dmaemu__arch_sync_for_device(m, phys, size, dir);
	return dma;
}

static void iommu_unmap(struct dmaemu_machine *m, struct device *dev,
			dma_addr_t addr, uint64_t phys, size_t size, int dir,
			unsigned long attrs)
{
	struct iommu_domain *d = domain_of(m, dev, false);

	/* As __iommu_unmap_page(): maintenance while the pages are still
	 * mapped, then the unmap. */
	if (!(attrs & DMA_ATTR_SKIP_CPU_SYNC))
		for_each_run(m, dev, d, addr, size, dir,
			     dmaemu__arch_sync_for_cpu);
	unmap_range(m, dev, d, addr, size, KIND_SINGLE);
}

static void iommu_sync_for_cpu(struct dmaemu_machine *m, struct device *dev,
			       dma_addr_t map_addr, uint64_t map_phys,
			       dma_addr_t addr, size_t size, int dir)
{
	for_each_run(m, dev, domain_of(m, dev, false), addr, size, dir,
		     dmaemu__arch_sync_for_cpu);
}

static void iommu_sync_for_device(struct dmaemu_machine *m, struct device *dev,
				  dma_addr_t map_addr, uint64_t map_phys,
				  dma_addr_t addr, size_t size, int dir)
{
	for_each_run(m, dev, domain_of(m, dev, false), addr, size, dir,
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

	return (off + s->length + IOVA_PAGE - 1) & PTE_PHYS;
}

static void iommu_unmap_sg(struct dmaemu_machine *m, struct device *dev,
			   struct scatterlist *sgl, int nents, int dir,
			   unsigned long attrs)
{
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
				dmaemu__arch_sync_for_cpu(m, sg_phys(s),
							  s->length, dir);
	unmap_range(m, dev, domain_of(m, dev, false), sg_dma_address(sgl), 0,
		    KIND_SG);
}

static int iommu_map_sg(struct dmaemu_machine *m, struct device *dev,
			struct scatterlist *sgl, int nents, int dir,
			unsigned long attrs)
{
	struct sg_layout l = {.len = 0};
	struct scatterlist *s, *cur = sgl;
	unsigned int max_len;
	uint64_t base, bits = prot_bits(dir, attrs), mask, end;
	uint64_t cur_len = 0, iova_len;
	struct iommu_domain *d;
	struct iova_node *a;
	int i, count = 0, err = 0;

	if (nents <= 0)
		return 0;
	l.bmask = dev->dma_parms ? dev->dma_parms->segment_boundary_mask
				 : 0xffffffffUL;
	max_len = dev->dma_parms ? dev->dma_parms->max_segment_size : 65536;
	for_each_sg (sgl, s, nents, i)
		layout_place(&l, entry_iova_len(s));
	iova_len = l.len;
	if (!iova_len) {
		report_bad(m, dev, 0, 0, "map of a scatterlist of 0 bytes");
		return 0;
	}
	d = domain_of(m, dev, true);
	if (!d) {
		report_nospace(m, dev, iova_len, 0, -ENOMEM);
		return 0;
	}
	end = mask_end(dev, false, &mask);

	if (!(attrs & DMA_ATTR_SKIP_CPU_SYNC))
		for_each_sg (sgl, s, nents, i)
			if (s->length &&
			    dmaemu__bank_of_phys(m, sg_phys(s), s->length))
				dmaemu__arch_sync_for_device(m, sg_phys(s),
							     s->length, dir);

	/* One IOVA range for the whole list, each entry's pages at its
	 * place in it; padding pages stay unmapped. */
	dmaemu__lock(&d->lock);
	a = iova_take(d, iova_len >> IOVA_SHIFT, end, &err);
	if (!a)
		goto fail;
	base = a->lo << IOVA_SHIFT;
	l.len = 0;
	for_each_sg (sgl, s, nents, i) {
		uint64_t pages = entry_iova_len(s) >> IOVA_SHIFT, k;
		uint64_t at = layout_place(&l, entry_iova_len(s));
		uint64_t first = sg_phys(s) & PTE_PHYS;

		for (k = 0; k < pages; k++) {
			if (!pte_set(d, ((base + at) >> IOVA_SHIFT) + k,
				     pte_val(first + (k << IOVA_SHIFT), bits,
					     KIND_SG, dir))) {
				alloc_undo(d, a);
				err = -ENOMEM;
				goto fail;
			}
		}
	}
	alloc_add(d, a, iova_len, KIND_SG, dir);
	dmaemu__unlock(&d->lock);

	/* __finalise_sg(): merge into DMA segments. */
	for_each_sg (sgl, s, nents, i) {
		s->dma_address = DMA_MAPPING_ERROR;
		s->dma_length = 0;
	}
	l.len = 0;
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
	dmaemu__unlock(&d->lock);
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
	unmap_range(m, dev, domain_of(m, dev, false), addr, size,
		    KIND_RESOURCE);
}

/* ---------------------------------------------------------------------- */
/* Device side                                                            */
/* ---------------------------------------------------------------------- */

static int fault(struct dmaemu_machine *m, struct device *dev,
		 struct iommu_domain *d, dma_addr_t addr, size_t len,
		 bool write, uint64_t pte, int err)
{
	struct dmaemu__report_info r = {.kind = DMAEMU_REPORT_IOMMU_FAULT};
	const char *acc = write ? "write" : "read";
	uint64_t phys = (pte & PTE_PHYS) + (addr & (IOVA_PAGE - 1));
	unsigned int dir = (pte >> PTE_DIR_SHIFT) & 3;
	unsigned int kind = (pte >> PTE_KIND_SHIFT) & 3;
	char what[160];

	if (d) {
		dmaemu__lock(&d->lock);
		d->faults++;
		dmaemu__unlock(&d->lock);
	}
	if (!(pte & PTE_VALID)) {
		dmaemu__report(m, &r,
			       "device %s %s of %zu bytes at IOVA 0x%llx: the "
			       "page is not mapped (never mapped, or unmapped "
			       "already); the access is blocked",
			       dev_label(dev), acc, len,
			       (unsigned long long)addr);
		return err;
	}
	if (kind == KIND_PAGES)
		snprintf(what, sizeof(what), "a coherent allocation");
	else
		snprintf(what, sizeof(what), "a %s %s",
			 dmaemu__dir_name((int)dir, "?"), kind_names[kind]);
	r.phys = phys;
	r.size = len;
	if (!(pte & (write ? PTE_WRITE : PTE_READ)))
		dmaemu__report(
			m, &r,
			"device %s %s of %zu bytes at IOVA 0x%llx "
			"(phys 0x%llx): the page belongs to %s, mapped "
			"%s only; the access is blocked",
			dev_label(dev), acc, len, (unsigned long long)addr,
			(unsigned long long)phys, what,
			(pte & PTE_READ)
				? "IOMMU_READ: the device may read it"
				: "IOMMU_WRITE: the device may write it");
	else
		dmaemu__report(m, &r,
			       "device %s %s of %zu bytes at IOVA 0x%llx "
			       "(phys 0x%llx): the page belongs to %s made "
			       "with DMA_ATTR_PRIVILEGED and the device's "
			       "accesses are unprivileged; the access is "
			       "blocked",
			       dev_label(dev), acc, len,
			       (unsigned long long)addr,
			       (unsigned long long)phys, what);
	return err;
}

/* Is @pte usable for the access?  0, or the error of the fault. */
static int pte_check(uint64_t pte, bool write, bool privileged)
{
	if (!(pte & PTE_VALID))
		return -EFAULT;
	if (!(pte & (write ? PTE_WRITE : PTE_READ)))
		return -EPERM;
	if ((pte & PTE_PRIV) && !privileged)
		return -EPERM;
	return 0;
}

int dmaemu__iommu_translate(struct device *dev, dma_addr_t addr, size_t len,
			    bool write, uint64_t *phys, size_t *contig)
{
	struct dmaemu_machine *m = dmaemu__dev_machine(dev);
	struct iommu_domain *d;
	uint64_t pte = 0, p;
	size_t run;
	int err;

	if (!m)
		return -EFAULT;
	d = domain_of(m, dev, false);
	if (!d || !len || addr + len - 1 < addr)
		return fault(m, dev, d, addr, len, write, 0, -EFAULT);
	dmaemu__lock(&d->lock);
	pte = pte_get(d, addr >> IOVA_SHIFT);
	err = pte_check(pte, write, d->privileged);
	if (err) {
		dmaemu__unlock(&d->lock);
		return fault(m, dev, d, addr, len, write, pte, err);
	}
	p = (pte & PTE_PHYS) + (addr & (IOVA_PAGE - 1));
	run = IOVA_PAGE - (addr & (IOVA_PAGE - 1));
	if (run > len)
		run = len;
	/* Further pages join while usable and physically contiguous; a
	 * page that is not usable is the next call's fault. */
	while (run < len) {
		uint64_t next = pte_get(d, (addr + run) >> IOVA_SHIFT);

		if (pte_check(next, write, d->privileged) ||
		    (next & PTE_PHYS) != p + run)
			break;
		run += len - run < IOVA_PAGE ? len - run : IOVA_PAGE;
	}
	dmaemu__unlock(&d->lock);
	*phys = p;
	*contig = run;
	return 0;
}

/* What @iova of @dev maps to, or UINT64_MAX (iommu_iova_to_phys()). */
static uint64_t iova_to_phys(struct dmaemu_machine *m, struct device *dev,
			     dma_addr_t iova)
{
	struct iommu_domain *d = domain_of(m, dev, false);
	uint64_t pte;

	if (!d)
		return UINT64_MAX;
	dmaemu__lock(&d->lock);
	pte = pte_get(d, iova >> IOVA_SHIFT);
	dmaemu__unlock(&d->lock);
	if (!(pte & PTE_VALID))
		return UINT64_MAX;
	return (pte & PTE_PHYS) + (iova & (IOVA_PAGE - 1));
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
/* Coherent allocations (dma_alloc.c)                                     */
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
	struct iommu_domain *d;
	uint64_t bits = 0, pfn;

	if (!m)
		return DMA_MAPPING_ERROR;
	if (!phys_pages || !npages) {
		report_bad(m, dev, 0, 0, "map of no pages");
		return DMA_MAPPING_ERROR;
	}
	if (prot & DMAEMU__IOMMU_READ)
		bits |= PTE_READ;
	if (prot & DMAEMU__IOMMU_WRITE)
		bits |= PTE_WRITE;
	if (privileged)
		bits |= PTE_PRIV;
	d = domain_of(m, dev, true);
	if (!d) {
		report_nospace(m, dev, npages << IOVA_SHIFT, 0, -ENOMEM);
		return DMA_MAPPING_ERROR;
	}
	pfn = map_range(m, dev, d, &src, npages, bits, KIND_PAGES,
			DMAEMU__DIR_BIDI, npages << IOVA_SHIFT,
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

	if (m)
		unmap_range(m, dev, domain_of(m, dev, false), addr,
			    (size + IOVA_PAGE - 1) & PTE_PHYS, KIND_PAGES);
}

/* ---------------------------------------------------------------------- */
/* Devices, introspection, teardown                                       */
/* ---------------------------------------------------------------------- */

/**
 * dmaemu_device_set_privileged() - make @dev's DMA accesses privileged (or
 * not): with the IOMMU on, only privileged accesses reach mappings made
 * with DMA_ATTR_PRIVILEGED.
 *
 * Return: 0; -EINVAL for a NULL device; -ENOMEM.
 */
int dmaemu_device_set_privileged(struct dmaemu_device *ddev, bool privileged)
{
	struct iommu_domain *d;

	if (!ddev)
		return -EINVAL;
	d = domain_of(dmaemu_device_machine(ddev), dmaemu_device_to_dev(ddev),
		      true);
	if (!d)
		return -ENOMEM;
	dmaemu__lock(&d->lock);
	d->privileged = privileged;
	dmaemu__unlock(&d->lock);
	return 0;
}

/**
 * dmaemu__iommu_iova_to_phys() - what the IOMMU maps @iova of @dev to, as
 * iommu_iova_to_phys().  Return: the physical address, or UINT64_MAX.
 */
uint64_t dmaemu__iommu_iova_to_phys(struct device *dev, dma_addr_t iova)
{
	struct dmaemu_machine *m = dev ? dmaemu__dev_machine(dev) : NULL;

	return m ? iova_to_phys(m, dev, iova) : UINT64_MAX;
}

/**
 * dmaemu__iommu_info() - statistics of @dev's IOMMU domain (all zero when
 * it has none).
 */
void dmaemu__iommu_info(struct device *dev, struct dmaemu__iommu_stats *st)
{
	struct dmaemu_machine *m = dev ? dmaemu__dev_machine(dev) : NULL;
	struct iommu_domain *d = m ? domain_of(m, dev, false) : NULL;
	struct iova_node *n;

	memset(st, 0, sizeof(*st));
	if (!d)
		return;
	dmaemu__lock(&d->lock);
	st->allocs = d->allocs_n;
	st->pages = d->pages;
	st->faults = d->faults;
	st->tables = d->tables;
	st->privileged = d->privileged;
	for (n = RB_MIN(free_addr, &d->free_addr); n;
	     n = RB_NEXT(free_addr, &d->free_addr, n))
		st->free_ranges++;
	dmaemu__unlock(&d->lock);
}

/**
 * dmaemu__iommu_device_release() - forget @dev's domain (device destroy,
 * after its mappings were released).
 */
void dmaemu__iommu_device_release(struct device *dev)
{
	struct dmaemu_machine *m = dev ? dmaemu__dev_machine(dev) : NULL;
	struct dmaemu__iommu *io =
		m ? __atomic_load_n(&m->iommu, __ATOMIC_ACQUIRE) : NULL;
	struct iommu_domain **pp, *d = NULL;

	if (!io)
		return;
	dmaemu__lock(&io->lock);
	for (pp = &io->domains; *pp; pp = &(*pp)->next) {
		if ((*pp)->dev == dev) {
			d = *pp;
			*pp = d->next;
			break;
		}
	}
	dmaemu__unlock(&io->lock);
	if (d) {
		/* Taken once so the free follows every user's unlock. */
		dmaemu__lock(&d->lock);
		dmaemu__unlock(&d->lock);
		domain_free(d);
	}
}

/** dmaemu__iommu_fini() - free @m's IOMMU state (machine destroy). */
void dmaemu__iommu_fini(struct dmaemu_machine *m)
{
	struct dmaemu__iommu *io = m->iommu;
	struct iommu_domain *d, *next;

	if (!io)
		return;
	for (d = io->domains; d; d = next) {
		next = d->next;
		domain_free(d);
	}
	pthread_mutex_destroy(&io->lock);
	dmaemu__free(io);
	m->iommu = NULL;
}
