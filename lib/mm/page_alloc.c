// SPDX-License-Identifier: MIT
/*
 * page_alloc.c - the buddy allocator over a machine's DRAM banks.
 *
 * How it works (the design of Linux's mm/page_alloc.c, written anew):
 *
 * 1. Zones by physical address: DMA below 16 MiB, DMA32 below 4 GiB,
 *    Normal above.  An allocation's GFP flags name the highest zone it may
 *    use; it tries that zone first and falls back to the lower ones.  A
 *    zone with no memory at all counts as not configured, so __GFP_DMA on
 *    a machine whose DRAM starts above 16 MiB is served from DMA32 (as in
 *    a kernel without CONFIG_ZONE_DMA), and so on upwards.
 *
 * 2. Each zone keeps free blocks of 2^order pages, order 0..MAX_ORDER-1,
 *    on one list per order and migrate type.  A block of order n starts at
 *    a page frame number that is a multiple of 2^n.  Allocation takes the
 *    smallest block that is large enough and splits it, giving the upper
 *    halves back; freeing merges a block with its buddy (pfn ^ 2^order)
 *    while the buddy is free and whole, within one bank:
 *
 *        order 2  [................]        alloc order 0 from it:
 *        order 1  [xxxxxxxx][........]  ->  [A][.]  [........] on lists
 *
 * 3. Memory is grouped by mobility in pageblocks of 2^pageblock_order
 *    pages, each with a migrate type (all Movable at boot).  An allocation
 *    looks first at the free lists of its own type; when they are empty it
 *    steals from another type, taking the largest free block so that the
 *    types stay apart, and converts the whole pageblock when at least half
 *    of it was free (always when the stolen block is a pageblock or more).
 *    Small movable requests do not convert pageblocks, as in Linux 4.14.
 *
 * 4. Watermarks: each zone keeps a reserve (the kernel's min watermark,
 *    from min_free_kbytes = sqrt(16 * DRAM in KiB)).  An allocation that
 *    would leave less free fails unless __GFP_HIGH (reserve halved),
 *    __GFP_ATOMIC (a further quarter off) or __GFP_MEMALLOC (no limit) let
 *    it in.  Nothing reclaims memory here, so __GFP_NORETRY and
 *    __GFP_RETRY_MAYFAIL change nothing and a __GFP_NOFAIL request that
 *    cannot be met ignores the watermark and, failing that, returns NULL
 *    with a report even under __GFP_NOWARN.
 *
 * All state (struct page arrays, lists, pageblock types) is host memory
 * outside emulated DRAM, protected by palloc->lock (lock order 2).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <linux/gfp.h>
#include <linux/mm.h>

#include "mm/mm.h"
#include "dmaemu/mm.h"

_Static_assert(MAX_ORDER == DMAEMU_MAX_ORDER, "MAX_ORDER");
_Static_assert((int)MAX_NR_ZONES == (int)DMAEMU_NR_ZONES, "zones");
_Static_assert((int)ZONE_DMA32 == (int)DMAEMU_ZONE_DMA32, "zones");
_Static_assert((int)MIGRATE_TYPES == (int)DMAEMU_MIGRATE_TYPES,
	       "migrate types");
_Static_assert((int)MIGRATE_MOVABLE == (int)DMAEMU_MIGRATE_MOVABLE,
	       "migrate types");
_Static_assert((int)MIGRATE_RECLAIMABLE == (int)DMAEMU_MIGRATE_RECLAIMABLE,
	       "migrate types");
_Static_assert(PAGE_SHIFT == DMAEMU__PAGE_SHIFT, "page size");
_Static_assert((___GFP_MOVABLE >> GFP_MOVABLE_SHIFT) == MIGRATE_MOVABLE,
	       "movable bit");
_Static_assert((___GFP_RECLAIMABLE >> GFP_MOVABLE_SHIFT) == MIGRATE_RECLAIMABLE,
	       "reclaimable bit");

#define ZONE_DMA_END (16ULL << 20)
#define ZONE_DMA32_END (4ULL << 30)
#define PAGEBLOCK_ORDER_MAX 9

struct zone {
	const char *name;
	uint64_t lo, hi;       /* the zone's address range [lo, hi) */
	uint64_t start, end;   /* DRAM inside it; start == end: empty */
	unsigned long present; /* pages of DRAM */
	unsigned long free;    /* free pages */
	unsigned long min;     /* min watermark in pages */
	struct page *free_list[MAX_ORDER][MIGRATE_TYPES];
	unsigned long nr_free[MAX_ORDER][MIGRATE_TYPES]; /* blocks */
	unsigned long pageblocks[MIGRATE_TYPES];
	unsigned long allocs, failures, fallbacks, conversions;
};

/* Migrate type of each pageblock touching one bank. */
struct pbmap {
	uint64_t first; /* index (pfn >> pageblock_order) of the first */
	unsigned long n;
	uint8_t *mt;
};

struct dmaemu__palloc {
	pthread_mutex_t lock; /* everything below and struct page state */
	unsigned int pb_order;
	struct zone zone[MAX_NR_ZONES];
	struct pbmap pb[DMAEMU__MAX_BANKS];
	unsigned long pages_total;
	unsigned long page_allocs; /* live OWNER_PAGES allocations */
};

static const char *const zone_names[MAX_NR_ZONES] = {
	[ZONE_DMA] = "DMA",
	[ZONE_DMA32] = "DMA32",
	[ZONE_NORMAL] = "Normal",
};

static const char *const migratetype_names[MIGRATE_TYPES] = {
	[MIGRATE_UNMOVABLE] = "Unmovable",
	[MIGRATE_MOVABLE] = "Movable",
	[MIGRATE_RECLAIMABLE] = "Reclaimable",
};

static const char *const owner_names[DMAEMU__OWNER_NR] = {
	[DMAEMU__OWNER_NONE] = "nobody",
	[DMAEMU__OWNER_PAGES] = "alloc_pages()",
	[DMAEMU__OWNER_SLAB] = "the kmalloc slab allocator",
	[DMAEMU__OWNER_KMALLOC] = "kmalloc()",
	[DMAEMU__OWNER_DMA] = "dma_alloc_attrs()",
	[DMAEMU__OWNER_SWIOTLB] = "swiotlb",
	[DMAEMU__OWNER_VMALLOC] = "vmalloc()",
};

/* Where to steal from when a migrate type's lists are empty. */
static const int fallbacks[MIGRATE_TYPES][MIGRATE_TYPES - 1] = {
	[MIGRATE_UNMOVABLE] = {MIGRATE_RECLAIMABLE, MIGRATE_MOVABLE},
	[MIGRATE_MOVABLE] = {MIGRATE_RECLAIMABLE, MIGRATE_UNMOVABLE},
	[MIGRATE_RECLAIMABLE] = {MIGRATE_UNMOVABLE, MIGRATE_MOVABLE},
};

const char *dmaemu_zone_name(int zone)
{
	if (zone < 0 || zone >= MAX_NR_ZONES)
		return NULL;
	return zone_names[zone];
}

const char *dmaemu_migratetype_name(int migratetype)
{
	if (migratetype < 0 || migratetype >= MIGRATE_TYPES)
		return NULL;
	return migratetype_names[migratetype];
}

const char *dmaemu__owner_name(enum dmaemu__owner owner)
{
	if ((unsigned int)owner >= DMAEMU__OWNER_NR)
		return "?";
	return owner_names[owner];
}

/* ---------------------------------------------------------------------- */
/* Pages, banks, pageblocks                                               */
/* ---------------------------------------------------------------------- */

static inline uint64_t pfn_of(const struct page *p)
{
	return p->phys >> PAGE_SHIFT;
}

static inline struct dmaemu__bank *bank_of(const struct page *p)
{
	return (struct dmaemu__bank *)p->bank;
}

static struct dmaemu__bank *bank_of_addr(struct dmaemu_machine *m,
					 uint64_t phys)
{
	unsigned int i;

	for (i = 0; i < m->nbanks; i++) {
		struct dmaemu__bank *b = &m->bank[i];

		if (phys >= b->phys && phys - b->phys < b->size)
			return b;
	}
	return NULL;
}

struct page *dmaemu__phys_to_page(struct dmaemu_machine *m, uint64_t phys)
{
	struct dmaemu__bank *b = bank_of_addr(m, phys);

	if (!b || !b->pages)
		return NULL;
	return &b->pages[(phys - b->phys) >> PAGE_SHIFT];
}

/* The page of frame @pfn if it lies in bank @b, else NULL. */
static struct page *bank_page(struct dmaemu__bank *b, uint64_t pfn)
{
	uint64_t phys = pfn << PAGE_SHIFT;

	if (phys < b->phys || phys - b->phys >= b->size)
		return NULL;
	return &b->pages[(phys - b->phys) >> PAGE_SHIFT];
}

/* Is @p a struct page of @m (an element of a bank's array)? */
static bool page_of_machine(struct dmaemu_machine *m, const struct page *p)
{
	unsigned int i;

	for (i = 0; i < m->nbanks; i++) {
		struct dmaemu__bank *b = &m->bank[i];
		uintptr_t lo = (uintptr_t)b->pages;
		uintptr_t n = b->size >> PAGE_SHIFT;

		if (b->pages && (uintptr_t)p >= lo &&
		    (uintptr_t)p < lo + n * sizeof(*p))
			return ((uintptr_t)p - lo) % sizeof(*p) == 0;
	}
	return false;
}

void *dmaemu__page_address(const struct page *page)
{
	struct dmaemu__bank *b = bank_of(page);

	return b->cpu + (page->phys - b->phys);
}

static int zone_of_phys(uint64_t phys)
{
	if (phys < ZONE_DMA_END)
		return ZONE_DMA;
	if (phys < ZONE_DMA32_END)
		return ZONE_DMA32;
	return ZONE_NORMAL;
}

static struct zone *zone_of_page(struct dmaemu__palloc *pa,
				 const struct page *p)
{
	return &pa->zone[zone_of_phys(p->phys)];
}

static uint8_t *pb_slot(struct dmaemu_machine *m, uint64_t pfn)
{
	struct dmaemu__palloc *pa = m->palloc;
	struct dmaemu__bank *b = bank_of_addr(m, pfn << PAGE_SHIFT);
	struct pbmap *map;
	uint64_t idx;

	if (!b)
		return NULL;
	map = &pa->pb[b - m->bank];
	idx = (pfn >> pa->pb_order) - map->first;
	return idx < map->n ? &map->mt[idx] : NULL;
}

static int pageblock_mt(struct dmaemu_machine *m, uint64_t pfn)
{
	uint8_t *slot = pb_slot(m, pfn);

	return slot ? *slot : MIGRATE_MOVABLE;
}

/* Give the pageblock holding @pfn type @mt; returns true if it changed. */
static bool set_pageblock_mt(struct dmaemu_machine *m, uint64_t pfn, int mt)
{
	struct dmaemu__palloc *pa = m->palloc;
	uint8_t *slot = pb_slot(m, pfn);
	struct zone *z;
	uint64_t first;

	if (!slot || *slot == mt)
		return false;
	/* A pageblock lies in one zone: zone limits are 16 MiB aligned. */
	first = (pfn >> pa->pb_order) << pa->pb_order;
	z = &pa->zone[zone_of_phys(first << PAGE_SHIFT)];
	z->pageblocks[*slot]--;
	z->pageblocks[mt]++;
	z->conversions++;
	*slot = (uint8_t)mt;
	return true;
}

/* ---------------------------------------------------------------------- */
/* Free lists                                                             */
/* ---------------------------------------------------------------------- */

static inline int page_mt(const struct page *p)
{
	return (int)((p->flags & DMAEMU__PG_MT_MASK) >> DMAEMU__PG_MT_SHIFT);
}

static void list_add_block(struct zone *z, struct page *p, unsigned int order,
			   int mt)
{
	struct page **head = &z->free_list[order][mt];

	p->flags =
		DMAEMU__PG_BUDDY | ((unsigned long)mt << DMAEMU__PG_MT_SHIFT);
	p->order = order;
	p->refcount = 0;
	p->prev = NULL;
	p->next = *head;
	if (*head)
		(*head)->prev = p;
	*head = p;
	z->nr_free[order][mt]++;
}

static void list_del_block(struct zone *z, struct page *p)
{
	unsigned int order = p->order;
	int mt = page_mt(p);

	if (p->prev)
		p->prev->next = p->next;
	else
		z->free_list[order][mt] = p->next;
	if (p->next)
		p->next->prev = p->prev;
	p->next = p->prev = NULL;
	p->flags = 0;
	z->nr_free[order][mt]--;
}

static void list_move_block(struct zone *z, struct page *p, int mt)
{
	unsigned int order = p->order;

	list_del_block(z, p);
	list_add_block(z, p, order, mt);
}

/*
 * Put a free block back, merging it with its buddies.  @p heads 2^@order
 * free pages not on any list; the caller has already counted them free.
 */
static void free_block(struct dmaemu_machine *m, struct page *p,
		       unsigned int order)
{
	struct dmaemu__palloc *pa = m->palloc;
	struct dmaemu__bank *b = bank_of(p);
	struct zone *z = zone_of_page(pa, p);
	uint64_t pfn = pfn_of(p);

	while (order < MAX_ORDER - 1) {
		uint64_t buddy_pfn = pfn ^ (1ULL << order);
		struct page *buddy = bank_page(b, buddy_pfn);

		if (!buddy || !(buddy->flags & DMAEMU__PG_BUDDY) ||
		    buddy->order != order)
			break;
		list_del_block(z, buddy);
		pfn &= ~(1ULL << order);
		order++;
	}
	p = bank_page(b, pfn);
	list_add_block(z, p, order, pageblock_mt(m, pfn));
}

/*
 * Split the free block @p of order @high (off every list) down to @low,
 * giving the upper halves to the lists of type @mt.
 */
static void expand(struct zone *z, struct page *p, unsigned int low,
		   unsigned int high, int mt)
{
	while (high > low) {
		high--;
		list_add_block(z, p + (1UL << high), high, mt);
	}
}

static bool fits(const struct page *p, unsigned int order, uint64_t limit)
{
	uint64_t last = p->phys + (PAGE_SIZE << order) - 1;

	return last <= limit;
}

/* First block on list [@o][@mt] whose first 2^@order pages fit @limit. */
static struct page *find_block(struct zone *z, unsigned int o, int mt,
			       unsigned int order, uint64_t limit)
{
	struct page *p;

	for (p = z->free_list[o][mt]; p; p = p->next)
		if (fits(p, order, limit))
			return p;
	return NULL;
}

static struct page *rmqueue_smallest(struct zone *z, unsigned int order, int mt,
				     uint64_t limit)
{
	unsigned int o;

	for (o = order; o < MAX_ORDER; o++) {
		struct page *p = find_block(z, o, mt, order, limit);

		if (p) {
			list_del_block(z, p);
			expand(z, p, order, o, mt);
			return p;
		}
	}
	return NULL;
}

/*
 * Move every free block of the pageblock holding @p to the lists of @mt.
 * Return: the free pages it held.
 */
static unsigned long move_freepages_block(struct dmaemu_machine *m,
					  struct zone *z, struct page *p,
					  int mt)
{
	struct dmaemu__palloc *pa = m->palloc;
	struct dmaemu__bank *b = bank_of(p);
	uint64_t pfn = (pfn_of(p) >> pa->pb_order) << pa->pb_order;
	uint64_t end = pfn + (1ULL << pa->pb_order);
	unsigned long moved = 0;

	while (pfn < end) {
		struct page *q = bank_page(b, pfn);

		if (q && (q->flags & DMAEMU__PG_BUDDY)) {
			unsigned int order = q->order;

			list_move_block(z, q, mt);
			moved += 1UL << order;
			pfn += 1ULL << order;
		} else {
			pfn++;
		}
	}
	return moved;
}

/*
 * Take a free block of another migrate type for an allocation of @mt:
 * steps 1-3 follow Linux 4.14's __rmqueue_fallback().
 * Return: true when a block was moved to the lists of @mt.
 */
static bool rmqueue_fallback(struct dmaemu_machine *m, struct zone *z,
			     unsigned int order, int mt, uint64_t limit)
{
	struct dmaemu__palloc *pa = m->palloc;
	unsigned int pb = pa->pb_order;
	struct page *p = NULL;
	bool can_steal = false;
	int o, i;

	/* 1. The largest block of a fallback type, to keep types apart. */
	for (o = MAX_ORDER - 1; o >= (int)order && !p; o--) {
		for (i = 0; i < MIGRATE_TYPES - 1 && !p; i++)
			p = find_block(z, o, fallbacks[mt][i], order, limit);
	}
	if (!p)
		return false;
	o = p->order;
	can_steal = o >= (int)pb / 2 || mt != MIGRATE_MOVABLE;

	/* 2. A movable request that may not take the pageblock takes the
	 * smallest block instead, so as not to break up a large one. */
	if (!can_steal && o > (int)order) {
		struct page *small = NULL;

		for (o = order; o < MAX_ORDER && !small; o++) {
			for (i = 0; i < MIGRATE_TYPES - 1 && !small; i++)
				small = find_block(z, o, fallbacks[mt][i],
						   order, limit);
		}
		p = small;
	}

	/* 3. Convert what may be converted, then hand the block over. */
	if (p->order >= pb) {
		uint64_t pfn = pfn_of(p);
		uint64_t n = 1ULL << (p->order - pb);
		uint64_t k;

		for (k = 0; k < n; k++)
			set_pageblock_mt(m, pfn + (k << pb), mt);
		list_move_block(z, p, mt);
	} else if (can_steal) {
		unsigned long moved = move_freepages_block(m, z, p, mt);

		if (moved >= 1UL << (pb ? pb - 1 : 0))
			set_pageblock_mt(m, pfn_of(p), mt);
	} else {
		list_move_block(z, p, mt);
	}
	z->fallbacks++;
	return true;
}

/* ---------------------------------------------------------------------- */
/* Allocation                                                             */
/* ---------------------------------------------------------------------- */

/* May @z give 2^@order pages to a request with @gfp?  (watermarks) */
static bool watermark_ok(const struct zone *z, unsigned int order,
			 unsigned int gfp, bool nofail_retry)
{
	unsigned long min = z->min;
	unsigned long need = 1UL << order;

	if (nofail_retry ||
	    ((gfp & __GFP_MEMALLOC) && !(gfp & __GFP_NOMEMALLOC)))
		min = 0;
	else {
		if (gfp & __GFP_HIGH)
			min -= min / 2;
		if (gfp & __GFP_ATOMIC)
			min -= min / 4;
	}
	return z->free >= need && z->free - need >= min;
}

static struct page *zone_alloc(struct dmaemu_machine *m, struct zone *z,
			       unsigned int order, int mt, uint64_t limit)
{
	struct page *p;

	if (z->start >= z->end || z->start > limit)
		return NULL;
	p = rmqueue_smallest(z, order, mt, limit);
	if (!p && rmqueue_fallback(m, z, order, mt, limit))
		p = rmqueue_smallest(z, order, mt, limit);
	return p;
}

/*
 * The first zone of a request's zonelist (the highest one with memory that
 * it may use), or -1 for invalid zone modifiers.
 */
static int preferred_zone(struct dmaemu__palloc *pa, unsigned int gfp)
{
	unsigned int zm = gfp & (__GFP_DMA | __GFP_DMA32 | __GFP_HIGHMEM);
	int zi;

	if (zm & (zm - 1))
		return -1; /* two zone modifiers: GFP_ZONE_BAD */
	zi = gfp_zone(gfp);
	/* Zones without memory do not exist: serve from the next one up. */
	while (zi < MAX_NR_ZONES - 1) {
		int lower;
		bool any = false;

		for (lower = zi; lower >= 0; lower--)
			any |= pa->zone[lower].start < pa->zone[lower].end;
		if (any)
			break;
		zi++;
	}
	/* Start the zonelist at the highest zone that has memory. */
	while (zi > 0 && pa->zone[zi].start >= pa->zone[zi].end)
		zi--;
	return zi;
}

/*
 * The bytes of a block of @order, saturated at UINT64_MAX: an order past
 * any block's (a bad argument) would shift PAGE_SIZE out of the word.
 */
static uint64_t order_bytes(unsigned int order)
{
	return order < 64 - PAGE_SHIFT ? (uint64_t)PAGE_SIZE << order
				       : UINT64_MAX;
}

static void report_failure(struct dmaemu_machine *m, unsigned int gfp,
			   unsigned int order, int zi, const char *caller,
			   const char *why)
{
	uint64_t bytes = order_bytes(order);
	char names[256];

	dmaemu_gfp_format(gfp, names, sizeof(names));
	if (zi >= 0) {
		struct dmaemu_zone_info zinfo;

		dmaemu_zone_info(m, zi, &zinfo);
		dmaemu__reportf(m, DMAEMU_REPORT_ALLOC_FAILURE, 0, bytes,
				"%s: page allocation failure: order:%u, "
				"mode:%#x(%s): %s (zone %s: %lu of %lu pages "
				"free, min %lu)",
				caller, order, gfp, names, why, zone_names[zi],
				zinfo.free, zinfo.present, zinfo.min_free);
	} else {
		dmaemu__reportf(m, DMAEMU_REPORT_ALLOC_FAILURE, 0, bytes,
				"%s: page allocation failure: order:%u, "
				"mode:%#x(%s): %s",
				caller, order, gfp, names, why);
	}
}

static void report_bad_gfp(struct dmaemu_machine *m, unsigned int gfp,
			   const char *caller, const char *why)
{
	char names[256];

	dmaemu_gfp_format(gfp, names, sizeof(names));
	dmaemu__reportf(m, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
			"%s: invalid GFP flags %#x(%s): %s", caller, gfp, names,
			why);
}

void dmaemu__mm_zero(struct dmaemu_machine *m, void *cpu, size_t len)
{
	(void)m;
	/*
	 * Zeroing is a CPU store, as clear_page() is in the kernel: the cache
	 * model sees it (lines become resident and dirty, victims are written
	 * back), then the CPU copy changes.  TWIN is left alone, so the bytes
	 * that changed are CPU-dirty until written back.
	 */
	dmaemu__cpu_range(cpu, len, true);
	memset(cpu, 0, len);
}

struct page *dmaemu__alloc_pages(struct dmaemu_machine *m, unsigned int gfp,
				 unsigned int order, uint64_t limit,
				 enum dmaemu__owner owner, const char *caller)
{
	struct dmaemu__palloc *pa = m->palloc;
	struct page *p = NULL;
	int pref, zi, mt;
	bool retry = false;

	if ((gfp & GFP_MOVABLE_MASK) == GFP_MOVABLE_MASK) {
		report_bad_gfp(m, gfp, caller,
			       "__GFP_MOVABLE and __GFP_RECLAIMABLE together");
		return NULL;
	}
	if (order >= MAX_ORDER) {
		if (!(gfp & __GFP_NOWARN))
			report_failure(m, gfp, order, -1, caller,
				       "order >= MAX_ORDER (11)");
		return NULL;
	}
	pref = preferred_zone(pa, gfp);
	if (pref < 0) {
		report_bad_gfp(m, gfp, caller,
			       "more than one of __GFP_DMA, __GFP_DMA32, "
			       "__GFP_HIGHMEM");
		return NULL;
	}
	mt = gfpflags_to_migratetype(gfp);

	dmaemu__lock(&pa->lock);
again:
	for (zi = pref; zi >= 0 && !p; zi--) {
		struct zone *z = &pa->zone[zi];

		if (!watermark_ok(z, order, gfp, retry))
			continue;
		p = zone_alloc(m, z, order, mt, limit);
		if (p) {
			z->free -= 1UL << order;
			z->allocs++;
		}
	}
	if (!p && (gfp & __GFP_NOFAIL) && !retry) {
		retry = true;
		goto again;
	}
	if (!p) {
		pa->zone[pref].failures++;
	} else {
		p->flags = DMAEMU__PG_HEAD |
			   ((unsigned long)mt << DMAEMU__PG_MT_SHIFT) |
			   ((unsigned long)owner << DMAEMU__PG_OWNER_SHIFT) |
			   ((gfp & __GFP_COMP) ? DMAEMU__PG_COMP : 0);
		p->order = order;
		p->refcount = 1;
		if (owner == DMAEMU__OWNER_PAGES)
			pa->page_allocs++;
	}
	dmaemu__unlock(&pa->lock);

	if (!p) {
		if (!(gfp & __GFP_NOWARN) || (gfp & __GFP_NOFAIL))
			report_failure(m, gfp, order, pref, caller,
				       limit == UINT64_MAX
					       ? "out of memory"
					       : "out of memory below the "
						 "address limit");
		return NULL;
	}
	if (gfp & __GFP_ZERO)
		dmaemu__mm_zero(m, dmaemu__page_address(p), PAGE_SIZE << order);
	return p;
}

/* ---------------------------------------------------------------------- */
/* Freeing                                                                */
/* ---------------------------------------------------------------------- */

/*
 * Describe the block holding @p; the caller holds the lock.  Finds the
 * free or allocated block head at or below @p whose span covers it.
 */
static void describe_locked(const struct page *p, char *buf, size_t len)
{
	struct dmaemu__bank *b = bank_of(p);
	uint64_t pfn = pfn_of(p);
	unsigned int o;

	for (o = 0; o < MAX_ORDER; o++) {
		uint64_t head_pfn = pfn & ~((1ULL << o) - 1);
		struct page *h = bank_page(b, head_pfn);

		if (!h || h->order < o)
			continue;
		if (h->flags & DMAEMU__PG_BUDDY) {
			snprintf(buf, len,
				 "page %" PRIu64 " of a free block of order %u "
				 "at %#" PRIx64,
				 pfn - head_pfn, h->order, h->phys);
			return;
		}
		if (h->flags & DMAEMU__PG_HEAD) {
			unsigned int owner =
				(unsigned int)((h->flags &
						DMAEMU__PG_OWNER_MASK) >>
					       DMAEMU__PG_OWNER_SHIFT);

			snprintf(buf, len,
				 "page %" PRIu64 " of an order-%u block at "
				 "%#" PRIx64 " allocated by %s",
				 pfn - head_pfn, h->order, h->phys,
				 dmaemu__owner_name(owner));
			return;
		}
	}
	snprintf(buf, len, "a page in no block (reserved)");
}

void dmaemu__page_describe(struct dmaemu_machine *m, const struct page *page,
			   char *buf, size_t len)
{
	struct dmaemu__palloc *pa = m->palloc;

	dmaemu__lock(&pa->lock);
	describe_locked(page, buf, len);
	dmaemu__unlock(&pa->lock);
}

int dmaemu__free_pages(struct dmaemu_machine *m, struct page *page,
		       unsigned int order, enum dmaemu__owner owner,
		       const char *caller)
{
	struct dmaemu__report_info r = {.kind = DMAEMU_REPORT_BAD_FREE};
	struct dmaemu__palloc *pa = m->palloc;
	char what[160];
	unsigned int real, have;
	int ret = 0;

	if (!page) {
		dmaemu__report(m, &r, "%s(NULL, %u): not a page", caller,
			       order);
		return -EINVAL;
	}
	if (!page_of_machine(m, page)) {
		dmaemu__report(m, &r,
			       "%s(%p, %u): not a struct page of this machine",
			       caller, (void *)page, order);
		return -EINVAL;
	}
	r.phys = page->phys;
	/* Pages a live streaming mapping still holds (free-of-mapped-memory;
	 * no lock held).  Slab and kmalloc pages were checked by kfree(). */
	if (owner == DMAEMU__OWNER_PAGES && order < MAX_ORDER)
		dmaemu__owner_check_free(m, page->phys, PAGE_SIZE << order,
					 caller);

	dmaemu__lock(&pa->lock);
	if (!(page->flags & DMAEMU__PG_HEAD)) {
		describe_locked(page, what, sizeof(what));
		dmaemu__unlock(&pa->lock);
		r.size = PAGE_SIZE << (order < MAX_ORDER ? order : 0);
		dmaemu__report(m, &r,
			       "%s(page %#" PRIx64 ", order %u): not the start "
			       "of a live allocation: it is %s%s",
			       caller, page->phys, order, what,
			       strstr(what, "free block") ? " (double free?)"
							  : "");
		return -EINVAL;
	}
	have = (unsigned int)((page->flags & DMAEMU__PG_OWNER_MASK) >>
			      DMAEMU__PG_OWNER_SHIFT);
	real = page->order;
	if (have != (unsigned int)owner) {
		dmaemu__unlock(&pa->lock);
		r.size = PAGE_SIZE << real;
		dmaemu__report(m, &r,
			       "%s(page %#" PRIx64 ", order %u): the block was "
			       "allocated by %s, not %s; not freed",
			       caller, page->phys, order,
			       dmaemu__owner_name(have),
			       dmaemu__owner_name(owner));
		return -EINVAL;
	}
	page->flags = 0;
	page->refcount = 0;
	if (owner == DMAEMU__OWNER_PAGES)
		pa->page_allocs--;
	zone_of_page(pa, page)->free += 1UL << real;
	free_block(m, page, real);
	dmaemu__unlock(&pa->lock);

	if (real != order) {
		r.size = PAGE_SIZE << real;
		dmaemu__report(m, &r,
			       "%s(page %#" PRIx64 ", order %u): the block was "
			       "allocated with order %u; freed with that order",
			       caller, page->phys, order, real);
		ret = -EINVAL;
	}
	return ret;
}

/* ---------------------------------------------------------------------- */
/* Machine create / destroy                                               */
/* ---------------------------------------------------------------------- */

/* Reverse every free list so that the lowest address comes first. */
static void reverse_lists(struct zone *z)
{
	unsigned int o;
	int mt;

	for (o = 0; o < MAX_ORDER; o++) {
		for (mt = 0; mt < MIGRATE_TYPES; mt++) {
			struct page *p = z->free_list[o][mt], *prev = NULL;

			while (p) {
				struct page *next = p->next;

				p->next = prev;
				p->prev = next;
				prev = p;
				p = next;
			}
			z->free_list[o][mt] = prev;
		}
	}
}

/* Put the pages [@pfn, @end) of bank @b (one zone) on the free lists. */
static void add_range(struct dmaemu_machine *m, struct dmaemu__bank *b,
		      uint64_t pfn, uint64_t end)
{
	struct zone *z = &m->palloc->zone[zone_of_phys(pfn << PAGE_SHIFT)];

	while (pfn < end) {
		unsigned int o = MAX_ORDER - 1;

		while ((pfn & ((1ULL << o) - 1)) || pfn + (1ULL << o) > end)
			o--;
		list_add_block(z, bank_page(b, pfn), o, MIGRATE_MOVABLE);
		z->free += 1UL << o;
		pfn += 1ULL << o;
	}
}

static unsigned long int_sqrt(uint64_t x)
{
	uint64_t r = 0, bit = 1ULL << 62;

	while (bit > x)
		bit >>= 2;
	while (bit) {
		if (x >= r + bit) {
			x -= r + bit;
			r = (r >> 1) + bit;
		} else {
			r >>= 1;
		}
		bit >>= 2;
	}
	return (unsigned long)r;
}

static unsigned int choose_pageblock_order(unsigned long pages)
{
	unsigned int pb = PAGEBLOCK_ORDER_MAX;

	/* Small machines still get several pageblocks to group by. */
	while (pb > 0 && (pages >> pb) < 8)
		pb--;
	return pb;
}

int dmaemu__palloc_init(struct dmaemu_machine *m)
{
	struct dmaemu__palloc *pa;
	unsigned long min_kb, pages = 0;
	int ret, zi;
	unsigned int i;

	pa = dmaemu__calloc(1, sizeof(*pa));
	if (!pa)
		return -ENOMEM;
	ret = dmaemu__mutex_init(&pa->lock);
	if (ret) {
		dmaemu__free(pa);
		return -ret;
	}
	m->palloc = pa;
	for (i = 0; i < m->nbanks; i++) {
		if ((m->bank[i].phys | m->bank[i].size) & (PAGE_SIZE - 1) ||
		    !m->bank[i].pages)
			goto fail_inval;
		pages += m->bank[i].size >> PAGE_SHIFT;
	}
	pa->pages_total = pages;
	pa->pb_order = choose_pageblock_order(pages);

	for (zi = 0; zi < MAX_NR_ZONES; zi++) {
		struct zone *z = &pa->zone[zi];

		z->name = zone_names[zi];
		z->lo = zi == ZONE_DMA	   ? 0
			: zi == ZONE_DMA32 ? ZONE_DMA_END
					   : ZONE_DMA32_END;
		z->hi = zi == ZONE_DMA	   ? ZONE_DMA_END
			: zi == ZONE_DMA32 ? ZONE_DMA32_END
					   : UINT64_MAX;
		z->start = UINT64_MAX;
		z->end = 0;
	}

	for (i = 0; i < m->nbanks; i++) {
		struct dmaemu__bank *b = &m->bank[i];
		struct pbmap *map = &pa->pb[i];
		uint64_t first_pfn = b->phys >> PAGE_SHIFT;
		uint64_t end_pfn = (b->phys + b->size) >> PAGE_SHIFT;
		uint64_t k;

		map->first = first_pfn >> pa->pb_order;
		map->n = ((end_pfn - 1) >> pa->pb_order) - map->first + 1;
		map->mt = dmaemu__malloc(map->n);
		if (!map->mt)
			goto fail_nomem;
		memset(map->mt, MIGRATE_MOVABLE, map->n);
		for (k = 0; k < map->n; k++) {
			uint64_t pfn = (map->first + k) << pa->pb_order;

			if (pfn < first_pfn)
				pfn = first_pfn;
			pa->zone[zone_of_phys(pfn << PAGE_SHIFT)]
				.pageblocks[MIGRATE_MOVABLE]++;
		}
		for (zi = 0; zi < MAX_NR_ZONES; zi++) {
			struct zone *z = &pa->zone[zi];
			uint64_t lo = b->phys > z->lo ? b->phys : z->lo;
			uint64_t hi = b->phys + b->size < z->hi
					      ? b->phys + b->size
					      : z->hi;

			if (lo >= hi)
				continue;
			if (lo < z->start)
				z->start = lo;
			if (hi > z->end)
				z->end = hi;
			z->present += (hi - lo) >> PAGE_SHIFT;
			add_range(m, b, lo >> PAGE_SHIFT, hi >> PAGE_SHIFT);
		}
	}

	/* min_free_kbytes as the kernel computes it, shared by zone size. */
	min_kb = int_sqrt((uint64_t)pages * (PAGE_SIZE / 1024) * 16);
	if (min_kb < 128)
		min_kb = 128;
	if (min_kb > 65536)
		min_kb = 65536;
	for (zi = 0; zi < MAX_NR_ZONES; zi++) {
		struct zone *z = &pa->zone[zi];

		if (z->start >= z->end) {
			z->start = z->end = 0;
			continue;
		}
		z->min = (unsigned long)((uint64_t)min_kb / (PAGE_SIZE / 1024) *
					 z->present / pages);
		reverse_lists(z);
	}
	return 0;

fail_inval:
	dmaemu__palloc_fini(m);
	return -EINVAL;
fail_nomem:
	dmaemu__palloc_fini(m);
	return -ENOMEM;
}

void dmaemu__palloc_fini(struct dmaemu_machine *m)
{
	struct dmaemu__palloc *pa = m->palloc;
	unsigned int i;

	if (!pa)
		return;
	for (i = 0; i < DMAEMU__MAX_BANKS; i++)
		dmaemu__free(pa->pb[i].mt);
	pthread_mutex_destroy(&pa->lock);
	dmaemu__free(pa);
	m->palloc = NULL;
}

/* ---------------------------------------------------------------------- */
/* Statistics (public)                                                    */
/* ---------------------------------------------------------------------- */

static int zone_arg(struct dmaemu_machine *m, int zone)
{
	if (!m || !m->palloc || zone < 0 || zone >= MAX_NR_ZONES)
		return -EINVAL;
	return m->palloc->zone[zone].present ? 0 : -ENOENT;
}

int dmaemu_zone_info(struct dmaemu_machine *m, int zone,
		     struct dmaemu_zone_info *info)
{
	struct dmaemu__palloc *pa;
	struct zone *z;
	int ret;

	if (dmaemu__machine_bad(m, "dmaemu_zone_info"))
		return -EINVAL;
	if (!info)
		return -EINVAL;
	memset(info, 0, sizeof(*info));
	ret = zone_arg(m, zone);
	if (ret)
		return ret;
	pa = m->palloc;
	z = &pa->zone[zone];
	dmaemu__lock(&pa->lock);
	info->start = z->start;
	info->end = z->end;
	info->present = z->present;
	info->free = z->free;
	info->min_free = z->min;
	info->pageblock_order = pa->pb_order;
	info->allocs = z->allocs;
	info->failures = z->failures;
	info->fallbacks = z->fallbacks;
	info->conversions = z->conversions;
	dmaemu__unlock(&pa->lock);
	return 0;
}

/* counts[o] for one migrate type, or all of them when @mt < 0. */
static int free_counts(struct dmaemu_machine *m, int zone, int mt,
		       unsigned long counts[DMAEMU_MAX_ORDER])
{
	struct dmaemu__palloc *pa;
	unsigned int o;
	int ret, t;

	if (!counts)
		return -EINVAL;
	memset(counts, 0, sizeof(counts[0]) * DMAEMU_MAX_ORDER);
	ret = zone_arg(m, zone);
	if (ret)
		return ret;
	pa = m->palloc;
	dmaemu__lock(&pa->lock);
	for (o = 0; o < MAX_ORDER; o++)
		for (t = 0; t < MIGRATE_TYPES; t++)
			if (mt < 0 || t == mt)
				counts[o] += pa->zone[zone].nr_free[o][t];
	dmaemu__unlock(&pa->lock);
	return 0;
}

int dmaemu_buddyinfo(struct dmaemu_machine *m, int zone,
		     unsigned long counts[DMAEMU_MAX_ORDER])
{
	if (dmaemu__machine_bad(m, "dmaemu_buddyinfo"))
		return -EINVAL;
	return free_counts(m, zone, -1, counts);
}

int dmaemu_pagetypeinfo(struct dmaemu_machine *m, int zone, int migratetype,
			unsigned long counts[DMAEMU_MAX_ORDER])
{
	if (migratetype < 0 || migratetype >= MIGRATE_TYPES) {
		if (counts)
			memset(counts, 0, sizeof(counts[0]) * DMAEMU_MAX_ORDER);
		return -EINVAL;
	}
	return free_counts(m, zone, migratetype, counts);
}

int dmaemu_pageblocks(struct dmaemu_machine *m, int zone,
		      unsigned long counts[DMAEMU_MIGRATE_TYPES])
{
	struct dmaemu__palloc *pa;
	int ret;

	if (!counts)
		return -EINVAL;
	memset(counts, 0, sizeof(counts[0]) * DMAEMU_MIGRATE_TYPES);
	ret = zone_arg(m, zone);
	if (ret)
		return ret;
	pa = m->palloc;
	dmaemu__lock(&pa->lock);
	memcpy(counts, pa->zone[zone].pageblocks,
	       sizeof(counts[0]) * DMAEMU_MIGRATE_TYPES);
	dmaemu__unlock(&pa->lock);
	return 0;
}

int dmaemu_pageblock_migratetype(struct dmaemu_machine *m, uint64_t phys)
{
	struct dmaemu__palloc *pa;
	uint8_t *slot;
	int mt = -EINVAL;

	if (!m || !m->palloc)
		return -EINVAL;
	pa = m->palloc;
	dmaemu__lock(&pa->lock);
	if (bank_of_addr(m, phys)) {
		slot = pb_slot(m, phys >> PAGE_SHIFT);
		if (slot)
			mt = *slot;
	}
	dmaemu__unlock(&pa->lock);
	return mt;
}

int dmaemu_buddyinfo_format(struct dmaemu_machine *m, char *buf, size_t len)
{
	struct dmaemu__sbuf b;
	int zi;

	if (!m || !m->palloc || (!buf && len))
		return -EINVAL;
	dmaemu__sbuf_init(&b, buf, len);
	for (zi = 0; zi < MAX_NR_ZONES; zi++) {
		unsigned long counts[MAX_ORDER];
		unsigned int o;

		if (dmaemu_buddyinfo(m, zi, counts))
			continue;
		dmaemu__sbuf_printf(&b, "Node 0, zone %8s", zone_names[zi]);
		for (o = 0; o < MAX_ORDER; o++)
			dmaemu__sbuf_printf(&b, " %6lu", counts[o]);
		dmaemu__sbuf_printf(&b, "\n");
	}
	return dmaemu__sbuf_result(&b);
}

int dmaemu_pagetypeinfo_format(struct dmaemu_machine *m, char *buf, size_t len)
{
	struct dmaemu__sbuf b;
	unsigned int o;
	int zi, mt;

	if (!m || !m->palloc || (!buf && len))
		return -EINVAL;
	dmaemu__sbuf_init(&b, buf, len);
	dmaemu__sbuf_printf(&b, "Page block order: %u\n", m->palloc->pb_order);
	dmaemu__sbuf_printf(&b, "Pages per block:  %lu\n\n",
			    1UL << m->palloc->pb_order);
	dmaemu__sbuf_printf(&b, "%-43s",
			    "Free pages count per migrate type at "
			    "order");
	for (o = 0; o < MAX_ORDER; o++)
		dmaemu__sbuf_printf(&b, " %6u", o);
	dmaemu__sbuf_printf(&b, "\n");
	for (zi = 0; zi < MAX_NR_ZONES; zi++) {
		for (mt = 0; mt < MIGRATE_TYPES; mt++) {
			unsigned long counts[MAX_ORDER];

			if (dmaemu_pagetypeinfo(m, zi, mt, counts))
				break;
			dmaemu__sbuf_printf(
				&b, "Node    0, zone %8s, type %12s",
				zone_names[zi], migratetype_names[mt]);
			for (o = 0; o < MAX_ORDER; o++)
				dmaemu__sbuf_printf(&b, " %6lu", counts[o]);
			dmaemu__sbuf_printf(&b, "\n");
		}
	}
	dmaemu__sbuf_printf(&b, "\n%-24s", "Number of blocks type");
	for (mt = 0; mt < MIGRATE_TYPES; mt++)
		dmaemu__sbuf_printf(&b, " %12s", migratetype_names[mt]);
	dmaemu__sbuf_printf(&b, "\n");
	for (zi = 0; zi < MAX_NR_ZONES; zi++) {
		unsigned long counts[MIGRATE_TYPES];

		if (dmaemu_pageblocks(m, zi, counts))
			continue;
		dmaemu__sbuf_printf(&b, "Node 0, zone %8s   ", zone_names[zi]);
		for (mt = 0; mt < MIGRATE_TYPES; mt++)
			dmaemu__sbuf_printf(&b, " %12lu", counts[mt]);
		dmaemu__sbuf_printf(&b, "\n");
	}
	return dmaemu__sbuf_result(&b);
}

int dmaemu_mm_stats(struct dmaemu_machine *m, struct dmaemu_mm_stats *st)
{
	struct dmaemu__palloc *pa;
	int zi;

	if (dmaemu__machine_bad(m, "dmaemu_mm_stats"))
		return -EINVAL;
	if (!st)
		return -EINVAL;
	memset(st, 0, sizeof(*st));
	if (!m || !m->palloc)
		return -EINVAL;
	pa = m->palloc;
	dmaemu__lock(&pa->lock);
	st->pages_total = pa->pages_total;
	for (zi = 0; zi < MAX_NR_ZONES; zi++)
		st->pages_free += pa->zone[zi].free;
	st->page_allocs = pa->page_allocs;
	dmaemu__unlock(&pa->lock);
	if (m->slab)
		dmaemu__slab_stats(m, &st->kmalloc_objects, &st->kmalloc_bytes,
				   &st->slabs);
	return 0;
}

/* ---------------------------------------------------------------------- */
/* The kernel API                                                         */
/* ---------------------------------------------------------------------- */

/* The machine of a kernel call without a device: the current one. */
static struct dmaemu_machine *current_machine(void)
{
	struct dmaemu_machine *m = dmaemu_machine_current();

	return m && m->palloc ? m : NULL;
}

static struct page *alloc_checked(gfp_t gfp, unsigned int order,
				  const char *caller)
{
	struct dmaemu_machine *m = current_machine();
	struct page *page;

	if (!m)
		return NULL;
	dmaemu__check_sleep(m, gfp, caller);
	if (!(gfp & __GFP_NOFAIL) && dmaemu__fault_armed(m)) {
		char what[320], names[256];

		dmaemu_gfp_format(gfp, names, sizeof(names));
		snprintf(what, sizeof(what), "%s(%s, order %u)", caller, names,
			 order);
		if (dmaemu__should_fail(m, DMAEMU_FAULT_PAGE_ALLOC,
					(size_t)order_bytes(order), what))
			return NULL;
	}
	page = dmaemu__alloc_pages(m, gfp, order, UINT64_MAX,
				   DMAEMU__OWNER_PAGES, caller);
	if (page && dmaemu__tracing(m, DMAEMU__TRACE_ALLOC)) {
		char names[256];

		dmaemu_gfp_format(gfp, names, sizeof(names));
		dmaemu__trace(m, DMAEMU__TRACE_ALLOC, "mm_page_alloc",
			      "call=%s phys=0x%" PRIx64 " order=%u gfp=%s",
			      caller, page->phys, order, names);
	}
	return page;
}

struct page *alloc_pages(gfp_t gfp_mask, unsigned int order)
{
	DMAEMU__API_CALL(call, "alloc_pages");
	return alloc_checked(gfp_mask, order, "alloc_pages");
}

struct page *alloc_pages_node(int nid, gfp_t gfp_mask, unsigned int order)
{
	DMAEMU__API_CALL(call, "alloc_pages_node");
	(void)nid;
	return alloc_checked(gfp_mask, order, "alloc_pages_node");
}

unsigned long __get_free_pages(gfp_t gfp_mask, unsigned int order)
{
	DMAEMU__API_CALL(call, "__get_free_pages");
	struct page *p = alloc_checked(gfp_mask, order, "__get_free_pages");

	return p ? (unsigned long)dmaemu__page_address(p) : 0;
}

unsigned long get_zeroed_page(gfp_t gfp_mask)
{
	DMAEMU__API_CALL(call, "get_zeroed_page");
	struct page *p =
		alloc_checked(gfp_mask | __GFP_ZERO, 0, "get_zeroed_page");

	return p ? (unsigned long)dmaemu__page_address(p) : 0;
}

/* The machine whose page array holds @page, or NULL. */
static struct dmaemu_machine *machine_of_page(const struct page *page)
{
	struct dmaemu__where w;
	struct dmaemu__bank *b;

	if (!page || !page->bank)
		return NULL;
	b = bank_of(page);
	if (!dmaemu__classify(b->cpu, &w) || !w.m || !w.m->palloc)
		return NULL;
	return page_of_machine(w.m, page) ? w.m : NULL;
}

void __free_pages(struct page *page, unsigned int order)
{
	DMAEMU__API_CALL(call, "__free_pages");
	struct dmaemu_machine *m = machine_of_page(page);

	if (!m) {
		m = current_machine();
		if (m)
			dmaemu__free_pages(m, page, order, DMAEMU__OWNER_PAGES,
					   "__free_pages");
		return;
	}
	dmaemu__free_pages(m, page, order, DMAEMU__OWNER_PAGES, "__free_pages");
}

/* The linear-map page at @addr, or NULL after a report naming @caller. */
static struct page *linear_page(const void *addr, const char *caller,
				enum dmaemu_report_kind kind,
				struct dmaemu_machine **mp)
{
	struct dmaemu__where w;
	struct dmaemu_machine *m;

	if (dmaemu__classify(addr, &w) && w.region == DMAEMU__REGION_LINEAR &&
	    w.bank && w.bank->pages) {
		*mp = w.m;
		return &w.bank->pages[(w.phys - w.bank->phys) >> PAGE_SHIFT];
	}
	m = w.m ? w.m : current_machine();
	*mp = m;
	if (m)
		dmaemu__reportf(m, kind, 0, 0,
				"%s(%p): not a linear-map address (%s)", caller,
				addr,
				w.region == DMAEMU__REGION_NONE
					? "not emulated memory: stack, heap "
					  "or global?"
					: "an alias of emulated memory, not "
					  "the linear map");
	return NULL;
}

void free_pages(unsigned long addr, unsigned int order)
{
	DMAEMU__API_CALL(call, "free_pages");
	struct dmaemu_machine *m;
	struct page *p;

	if (!addr)
		return;
	p = linear_page((const void *)addr, "free_pages",
			DMAEMU_REPORT_BAD_FREE, &m);
	if (!p)
		return;
	if (offset_in_page(addr)) {
		dmaemu__reportf(m, DMAEMU_REPORT_BAD_FREE, p->phys, 0,
				"free_pages(%#lx, %u): not page aligned "
				"(%lu bytes into page %#" PRIx64 ")",
				addr, order, offset_in_page(addr), p->phys);
		return;
	}
	dmaemu__free_pages(m, p, order, DMAEMU__OWNER_PAGES, "free_pages");
}

void split_page(struct page *page, unsigned int order)
{
	struct dmaemu_machine *m = machine_of_page(page);
	struct dmaemu__palloc *pa;
	unsigned long n, i;

	if (!m) {
		dmaemu__reportf(NULL, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"split_page(%p, %u): not a page", (void *)page,
				order);
		return;
	}
	pa = m->palloc;
	dmaemu__lock(&pa->lock);
	if (!(page->flags & DMAEMU__PG_HEAD) || page->order != order ||
	    order >= MAX_ORDER) {
		dmaemu__unlock(&pa->lock);
		dmaemu__reportf(m, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"split_page(page %#" PRIx64 ", %u): not the "
				"head of an order-%u allocation",
				page->phys, order, order);
		return;
	}
	n = 1UL << order;
	for (i = 0; i < n; i++) {
		page[i].flags = page->flags & ~DMAEMU__PG_COMP;
		page[i].order = 0;
		page[i].refcount = 1;
	}
	if (((page->flags & DMAEMU__PG_OWNER_MASK) >> DMAEMU__PG_OWNER_SHIFT) ==
	    DMAEMU__OWNER_PAGES)
		pa->page_allocs += n - 1;
	dmaemu__unlock(&pa->lock);
}

void *alloc_pages_exact(size_t size, gfp_t gfp_mask)
{
	DMAEMU__API_CALL(call, "alloc_pages_exact");
	unsigned int order = (unsigned int)get_order(size ? size : 1);
	unsigned long used = PAGE_ALIGN(size ? size : 1) >> PAGE_SHIFT;
	struct dmaemu_machine *m;
	struct page *p;
	unsigned long i;

	p = alloc_checked(gfp_mask & ~__GFP_COMP, order, "alloc_pages_exact");
	if (!p)
		return NULL;
	m = machine_of_page(p);
	split_page(p, order);
	for (i = used; i < (1UL << order); i++)
		dmaemu__free_pages(m, p + i, 0, DMAEMU__OWNER_PAGES,
				   "alloc_pages_exact");
	return dmaemu__page_address(p);
}

void free_pages_exact(void *virt, size_t size)
{
	unsigned long n = PAGE_ALIGN(size ? size : 1) >> PAGE_SHIFT;
	unsigned long i;

	for (i = 0; i < n; i++)
		free_pages((unsigned long)virt + i * PAGE_SIZE, 0);
}

void *page_address(const struct page *page)
{
	if (!page || !page->bank) {
		dmaemu__reportf(NULL, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"page_address(%p): not a page",
				(const void *)page);
		return NULL;
	}
	return dmaemu__page_address(page);
}

struct page *virt_to_page(const void *addr)
{
	struct dmaemu_machine *m;

	return linear_page(addr, "virt_to_page", DMAEMU_REPORT_BAD_ARGUMENT,
			   &m);
}

bool virt_addr_valid(const void *addr)
{
	struct dmaemu__where w;

	return dmaemu__classify(addr, &w) && w.region == DMAEMU__REGION_LINEAR;
}

phys_addr_t virt_to_phys(const volatile void *address)
{
	struct dmaemu_machine *m;
	const void *addr = (const void *)(uintptr_t)address;
	struct dmaemu__where w;

	if (dmaemu__classify(addr, &w) && w.region == DMAEMU__REGION_LINEAR)
		return w.phys;
	linear_page(addr, "virt_to_phys", DMAEMU_REPORT_BAD_ARGUMENT, &m);
	return (phys_addr_t)-1;
}

void *phys_to_virt(phys_addr_t address)
{
	struct dmaemu_machine *m = current_machine();
	struct dmaemu__bank *b;

	if (!m)
		return NULL;
	b = bank_of_addr(m, address);
	if (!b) {
		dmaemu__reportf(m, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"phys_to_virt(%#" PRIx64 "): not DRAM",
				(uint64_t)address);
		return NULL;
	}
	return b->cpu + (address - b->phys);
}

bool pfn_valid(unsigned long pfn)
{
	struct dmaemu_machine *m = current_machine();

	return m && bank_of_addr(m, (uint64_t)pfn << PAGE_SHIFT);
}

struct page *pfn_to_page(unsigned long pfn)
{
	struct dmaemu_machine *m = current_machine();
	struct page *p;

	if (!m)
		return NULL;
	p = dmaemu__phys_to_page(m, (uint64_t)pfn << PAGE_SHIFT);
	if (!p)
		dmaemu__reportf(m, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"pfn_to_page(%#lx): not DRAM", pfn);
	return p;
}
