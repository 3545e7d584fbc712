// SPDX-License-Identifier: MIT
/*
 * slab.c - kmalloc() over the page allocator.
 *
 * How it works:
 *
 * 1. Size classes as the kernel's kmalloc caches: 8, 16, 32, 64, 96, 128,
 *    192, 256 ... 8192.  A class exists on a machine only if it is a
 *    multiple of the DMA minimum alignment (option dma_minalign, default
 *    the profile's ARCH_DMA_MINALIGN), as the kernel drops the caches
 *    smaller than ARCH_KMALLOC_MINALIGN: with 64 the classes are 64, 128,
 *    192, 256, ...; with arm64's 128 they are 128, 256, 512, ...  Each object of a class starts at a multiple of the class
 *    size inside a page-aligned slab, so every object is aligned to the
 *    minimum alignment and never shares a cache line with another object.
 *
 * 2. A slab is one block of 2^order pages from the page allocator (owner
 *    "slab"), with the smallest order up to 3 that holds 8 objects.  Its
 *    bookkeeping is a host structure, never emulated memory:
 *
 *        struct slab (host)            slab pages (emulated DRAM)
 *        +-------------------+         +------+------+------+-----
 *        | cache, base, phys |-------->| obj0 | obj1 | obj2 | ...
 *        | inuse, map 0b101  |         +------+------+------+-----
 *        +-------------------+            ^ every page's page->priv
 *                                           points back at the slab
 *
 *    A slab with a free object is on its cache's partial list, a full one
 *    on the full list; a slab whose last object is freed goes back to the
 *    page allocator at once, so free memory shows up in buddyinfo.
 *
 * 3. Requests above 8192 bytes take a block of pages of their own (owner
 *    "kmalloc"), described by a host record in page->priv; ksize() is the
 *    whole block, as in the kernel.
 *
 * 4. kfree() finds the page from the address, the slab from page->priv,
 *    and the object from the offset; an address that is not the start of
 *    a live object is a bad-free report and nothing is freed.
 *
 * sl->lock protects every slab, cache and page->priv (lock order 2, taken
 * before the page allocator's lock).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include "mm/mm.h"

#define NCLASSES 13
#define SLAB_MIN_OBJECTS 8
#define SLAB_MAX_ORDER 3

static const unsigned int class_sizes[NCLASSES] = {
	8, 16, 32, 64, 96, 128, 192, 256, 512, 1024, 2048, 4096, 8192,
};

enum kind {
	KIND_SLAB = 1,
	KIND_LARGE,
};

/* What page->priv points at: the first member of both records below. */
struct owner {
	enum kind kind;
};

struct kmcache;

struct slab {
	struct owner o;
	struct kmcache *cache;
	struct page *page; /* head page of the block */
	uint8_t *base;	   /* linear-map address of object 0 */
	unsigned int inuse;
	bool full;		  /* on the full list, not partial */
	struct slab *next, *prev; /* in the cache's list */
	uint64_t map[];		  /* bit i set: object i allocated */
};

struct large {
	struct owner o;
	struct page *page;
	uint8_t *base;
	unsigned int order;
	struct large *next, *prev;
};

struct kmcache {
	unsigned int size;  /* object size = class size */
	unsigned int order; /* slab order */
	unsigned int objs;  /* objects per slab */
	bool dma;	    /* slabs from ZONE_DMA */
	struct slab *partial;
	struct slab *full;
};

struct dmaemu__slab {
	pthread_mutex_t lock; /* everything here, and page->priv */
	unsigned int minalign;
	unsigned int nclasses;		   /* classes in use, ascending */
	struct kmcache cache[2][NCLASSES]; /* [0] normal, [1] __GFP_DMA */
	struct large *large;
	unsigned long objects; /* live objects, large ones included */
	uint64_t bytes;	       /* their usable sizes */
	unsigned long slabs;
};

static unsigned int slab_order(unsigned int size)
{
	unsigned int order = 0;

	while (order < SLAB_MAX_ORDER &&
	       (PAGE_SIZE << order) / size < SLAB_MIN_OBJECTS)
		order++;
	return order;
}

/*
 * The checkers' question (mem.h, dmaemu__owner_object()): the live kmalloc
 * object holding physical byte @phys, as physical bytes [*@lo, *@hi).
 */
static bool object_of_phys(struct dmaemu_machine *m, uint64_t phys,
			   uint64_t *lo, uint64_t *hi)
{
	struct dmaemu__bank *b = dmaemu__bank_of_phys(m, phys, 1);
	struct dmaemu__slab *sl = m->slab;
	const uint8_t *base = NULL, *host;
	struct owner *o;
	size_t size = 0;

	if (!b || !b->pages || !sl)
		return false;
	host = b->cpu + (phys - b->phys);
	dmaemu__lock(&sl->lock);
	o = b->pages[(phys - b->phys) >> PAGE_SHIFT].priv;
	if (o && o->kind == KIND_LARGE) {
		const struct large *l = (const struct large *)o;

		base = l->base;
		size = PAGE_SIZE << l->order;
	} else if (o) {
		const struct slab *s = (const struct slab *)o;
		size_t i = (size_t)(host - s->base) / s->cache->size;

		if (host >= s->base && i < s->cache->objs &&
		    (s->map[i / 64] >> (i % 64)) & 1) {
			size = s->cache->size;
			base = s->base + i * size;
		}
	}
	dmaemu__unlock(&sl->lock);
	if (!base)
		return false;
	*lo = b->phys + (uint64_t)(base - b->cpu);
	*hi = *lo + size;
	return true;
}

int dmaemu__slab_init(struct dmaemu_machine *m)
{
	struct dmaemu__slab *sl;
	unsigned int align = m->opt.kmalloc_minalign ? m->opt.kmalloc_minalign
			     : m->opt.dma_minalign   ? m->opt.dma_minalign
						     : m->opt.cache_line;
	unsigned int i, n = 0;
	int d, ret;

	if (align < 8)
		align = 8;
	if (align & (align - 1))
		return -EINVAL;
	sl = dmaemu__calloc(1, sizeof(*sl));
	if (!sl)
		return -ENOMEM;
	ret = dmaemu__mutex_init(&sl->lock);
	if (ret) {
		dmaemu__free(sl);
		return -ret;
	}
	sl->minalign = align;
	for (i = 0; i < NCLASSES; i++) {
		unsigned int size = class_sizes[i];

		if (size < align || size % align)
			continue;
		for (d = 0; d < 2; d++) {
			struct kmcache *c = &sl->cache[d][n];

			c->size = size;
			c->order = slab_order(size);
			c->objs =
				(unsigned int)((PAGE_SIZE << c->order) / size);
			c->dma = d;
		}
		n++;
	}
	sl->nclasses = n;
	m->slab = sl;
	dmaemu__owner_set_object_finder(object_of_phys);
	return 0;
}

static void free_slab_list(struct slab *s)
{
	while (s) {
		struct slab *next = s->next;

		dmaemu__free(s);
		s = next;
	}
}

void dmaemu__slab_fini(struct dmaemu_machine *m)
{
	struct dmaemu__slab *sl = m->slab;
	struct large *l;
	unsigned int i;
	int d;

	if (!sl)
		return;
	/* The emulated memory goes with the machine; free the records. */
	for (d = 0; d < 2; d++) {
		for (i = 0; i < sl->nclasses; i++) {
			free_slab_list(sl->cache[d][i].partial);
			free_slab_list(sl->cache[d][i].full);
		}
	}
	for (l = sl->large; l;) {
		struct large *next = l->next;

		dmaemu__free(l);
		l = next;
	}
	pthread_mutex_destroy(&sl->lock);
	dmaemu__free(sl);
	m->slab = NULL;
}

void dmaemu__slab_stats(struct dmaemu_machine *m, unsigned long *objects,
			uint64_t *bytes, unsigned long *slabs)
{
	struct dmaemu__slab *sl = m->slab;

	dmaemu__lock(&sl->lock);
	*objects = sl->objects;
	*bytes = sl->bytes;
	*slabs = sl->slabs;
	dmaemu__unlock(&sl->lock);
}

/* ---------------------------------------------------------------------- */
/* Slab lists                                                             */
/* ---------------------------------------------------------------------- */

static void slab_link(struct slab **head, struct slab *s)
{
	s->prev = NULL;
	s->next = *head;
	if (*head)
		(*head)->prev = s;
	*head = s;
}

static void slab_unlink(struct slab **head, struct slab *s)
{
	if (s->prev)
		s->prev->next = s->next;
	else
		*head = s->next;
	if (s->next)
		s->next->prev = s->prev;
	s->next = s->prev = NULL;
}

static void set_priv(struct page *p, unsigned int order, void *priv)
{
	unsigned long i;

	for (i = 0; i < (1UL << order); i++)
		p[i].priv = priv;
}

/*
 * A new slab for @c, not yet linked: the pages are allocated without
 * sl->lock held, so that a failure report is made without it.
 */
static struct slab *new_slab(struct dmaemu_machine *m, struct kmcache *c,
			     gfp_t gfp, const char *caller)
{
	size_t words = (c->objs + 63) / 64;
	struct slab *s;
	struct page *p;

	s = dmaemu__calloc(1, sizeof(*s) + words * sizeof(uint64_t));
	if (!s)
		return NULL;
	p = dmaemu__alloc_pages(m, gfp, c->order, UINT64_MAX,
				DMAEMU__OWNER_SLAB, caller);
	if (!p) {
		dmaemu__free(s);
		return NULL;
	}
	s->o.kind = KIND_SLAB;
	s->cache = c;
	s->page = p;
	s->base = dmaemu__page_address(p);
	return s;
}

static void *slab_alloc(struct dmaemu_machine *m, unsigned int ci, gfp_t gfp,
			const char *caller)
{
	struct dmaemu__slab *sl = m->slab;
	struct kmcache *c = &sl->cache[(gfp & __GFP_DMA) ? 1 : 0][ci];
	/* Slab pages are never movable; zeroing is per object. */
	gfp_t page_gfp = gfp & ~(__GFP_ZERO | __GFP_MOVABLE | __GFP_COMP);
	struct slab *s;
	unsigned int w, i;

	dmaemu__lock(&sl->lock);
	s = c->partial;
	if (!s) {
		dmaemu__unlock(&sl->lock);
		s = new_slab(m, c, page_gfp, caller);
		if (!s)
			return NULL;
		dmaemu__lock(&sl->lock);
		set_priv(s->page, c->order, s);
		slab_link(&c->partial, s);
		sl->slabs++;
	}
	for (w = 0;; w++) {
		if (~s->map[w])
			break;
	}
	i = w * 64 + (unsigned int)__builtin_ctzll(~s->map[w]);
	s->map[w] |= 1ULL << (i % 64);
	if (++s->inuse == c->objs) {
		slab_unlink(&c->partial, s);
		slab_link(&c->full, s);
		s->full = true;
	}
	sl->objects++;
	sl->bytes += c->size;
	dmaemu__unlock(&sl->lock);
	return s->base + (size_t)i * c->size;
}

static void *large_alloc(struct dmaemu_machine *m, size_t size, gfp_t gfp,
			 const char *caller)
{
	struct dmaemu__slab *sl = m->slab;
	unsigned int order = (unsigned int)get_order(size);
	struct large *l;
	struct page *p;

	l = dmaemu__calloc(1, sizeof(*l));
	if (!l)
		return NULL;
	p = dmaemu__alloc_pages(m, gfp | __GFP_COMP, order, UINT64_MAX,
				DMAEMU__OWNER_KMALLOC, caller);
	if (!p) {
		dmaemu__free(l);
		return NULL;
	}
	dmaemu__lock(&sl->lock);
	l->o.kind = KIND_LARGE;
	l->page = p;
	l->base = dmaemu__page_address(p);
	l->order = order;
	l->prev = NULL;
	l->next = sl->large;
	if (sl->large)
		sl->large->prev = l;
	sl->large = l;
	set_priv(p, order, l);
	sl->objects++;
	sl->bytes += PAGE_SIZE << order;
	dmaemu__unlock(&sl->lock);
	return l->base;
}

/* ---------------------------------------------------------------------- */
/* Finding an object                                                      */
/* ---------------------------------------------------------------------- */

/*
 * What a pointer is, found under sl->lock: a live object (@obj_base and
 * @obj_size set) or the reason why not (@why).
 */
struct lookup {
	struct dmaemu_machine *m; /* NULL: belongs to no machine */
	struct page *page;
	struct owner *owner;
	uint8_t *obj_base;
	size_t obj_size;
	char why[256];
};

static void describe_addr(const void *p, const struct dmaemu__where *w,
			  char *buf, size_t len)
{
	static const char *const regions[] = {
		[DMAEMU__REGION_NONE] = "not emulated memory (stack, heap or "
					"global?)",
		[DMAEMU__REGION_LINEAR] = "linear map",
		[DMAEMU__REGION_UNCACHED] =
			"the uncached alias, not the linear "
			"map",
		[DMAEMU__REGION_WC] = "the write-combining alias, not the "
				      "linear map",
		[DMAEMU__REGION_NOMAP] = "a NO_KERNEL_MAPPING cookie",
		[DMAEMU__REGION_MMIO] = "an MMIO (ioremap) cookie",
		[DMAEMU__REGION_TWIN] = "internal memory of the emulator",
		[DMAEMU__REGION_VMALLOC] = "vmalloc() memory (free it with "
					   "vfree())",
	};
	unsigned int r = (unsigned int)w->region;

	(void)p;
	snprintf(buf, len, "%s",
		 r < sizeof(regions) / sizeof(regions[0]) && regions[r]
			 ? regions[r]
			 : "unknown memory");
}

/* Fill @lk for @p; true for a live object.  The caller holds sl->lock. */
static bool lookup_locked(const void *p, struct lookup *lk)
{
	struct dmaemu__where w;
	struct owner *o;
	size_t off;

	memset(lk, 0, sizeof(*lk));
	if (!dmaemu__classify(p, &w) || w.region != DMAEMU__REGION_LINEAR ||
	    !w.bank || !w.bank->pages) {
		lk->m = w.m;
		describe_addr(p, &w, lk->why, sizeof(lk->why));
		return false;
	}
	lk->m = w.m;
	lk->page = &w.bank->pages[(w.phys - w.bank->phys) >> PAGE_SHIFT];
	o = lk->page->priv;
	lk->owner = o;
	if (!o) {
		char what[160];

		/* Not kmalloc memory: say what the page allocator has there
		 * (its lock nests inside ours). */
		dmaemu__page_describe(w.m, lk->page, what, sizeof(what));
		snprintf(lk->why, sizeof(lk->why),
			 "phys %#" PRIx64 " is not kmalloc memory: it is %s%s",
			 w.phys, what,
			 strstr(what, "free block") ? " (double free?)" : "");
		return false;
	}
	if (o->kind == KIND_LARGE) {
		struct large *l = (struct large *)o;

		off = (size_t)((const uint8_t *)p - l->base);
		if (off) {
			snprintf(lk->why, sizeof(lk->why),
				 "%p is %zu bytes into the %lu-byte kmalloc "
				 "object at %p",
				 p, off, PAGE_SIZE << l->order,
				 (void *)l->base);
			return false;
		}
		lk->obj_base = l->base;
		lk->obj_size = PAGE_SIZE << l->order;
		return true;
	} else {
		struct slab *s = (struct slab *)o;
		unsigned int size = s->cache->size;
		unsigned int i;

		off = (size_t)((const uint8_t *)p - s->base);
		i = (unsigned int)(off / size);
		if (off % size) {
			snprintf(lk->why, sizeof(lk->why),
				 "%p is %zu bytes into the %u-byte kmalloc "
				 "object at %p",
				 p, off % size, size,
				 (void *)(s->base + (size_t)i * size));
			return false;
		}
		if (i >= s->cache->objs) {
			snprintf(lk->why, sizeof(lk->why),
				 "%p is in the unused tail of a kmalloc-%u "
				 "slab",
				 p, size);
			return false;
		}
		if (!(s->map[i / 64] & (1ULL << (i % 64)))) {
			snprintf(lk->why, sizeof(lk->why),
				 "the %u-byte kmalloc object at %p is already "
				 "free (double free?)",
				 size, p);
			return false;
		}
		lk->obj_base = s->base + (size_t)i * size;
		lk->obj_size = size;
		return true;
	}
}

/* The machine @p belongs to and its slab state, or NULL. */
static struct dmaemu__slab *slab_of(const void *p, struct dmaemu_machine **mp)
{
	struct dmaemu__where w;

	*mp = NULL;
	if (dmaemu__classify(p, &w) && w.m && w.m->slab) {
		*mp = w.m;
		return w.m->slab;
	}
	return NULL;
}

static void report_not_object(struct dmaemu_machine *m,
			      enum dmaemu_report_kind kind, const char *caller,
			      const void *p, const struct lookup *lk)
{
	dmaemu__reportf(m, kind, lk->page ? lk->page->phys : 0, 0,
			"%s(%p): not a live kmalloc object: %s", caller, p,
			lk->why);
}

/* ---------------------------------------------------------------------- */
/* Freeing                                                                */
/* ---------------------------------------------------------------------- */

/* Free the live object @lk found; the caller holds sl->lock. */
static void free_object(struct dmaemu_machine *m, const struct lookup *lk,
			const char *caller)
{
	struct dmaemu__slab *sl = m->slab;

	sl->objects--;
	sl->bytes -= lk->obj_size;
	if (lk->owner->kind == KIND_LARGE) {
		struct large *l = (struct large *)lk->owner;

		if (l->prev)
			l->prev->next = l->next;
		else
			sl->large = l->next;
		if (l->next)
			l->next->prev = l->prev;
		set_priv(l->page, l->order, NULL);
		dmaemu__free_pages(m, l->page, l->order, DMAEMU__OWNER_KMALLOC,
				   caller);
		dmaemu__free(l);
	} else {
		struct slab *s = (struct slab *)lk->owner;
		struct kmcache *c = s->cache;
		unsigned int i =
			(unsigned int)((lk->obj_base - s->base) / c->size);

		s->map[i / 64] &= ~(1ULL << (i % 64));
		s->inuse--;
		if (s->full) {
			slab_unlink(&c->full, s);
			slab_link(&c->partial, s);
			s->full = false;
		}
		if (!s->inuse) {
			slab_unlink(&c->partial, s);
			set_priv(s->page, c->order, NULL);
			dmaemu__free_pages(m, s->page, c->order,
					   DMAEMU__OWNER_SLAB, caller);
			sl->slabs--;
			dmaemu__free(s);
		}
	}
}

void dmaemu__kfree(const void *p, const char *caller)
{
	struct dmaemu_machine *m;
	struct dmaemu__slab *sl;
	struct lookup lk;
	uint64_t phys;

	if (ZERO_OR_NULL_PTR(p))
		return;
	sl = slab_of(p, &m);
	if (!sl) {
		struct dmaemu__where w;

		memset(&lk, 0, sizeof(lk));
		dmaemu__classify(p, &w);
		describe_addr(p, &w, lk.why, sizeof(lk.why));
		report_not_object(m, DMAEMU_REPORT_BAD_FREE, caller, p, &lk);
		return;
	}
	dmaemu__lock(&sl->lock);
	if (!lookup_locked(p, &lk))
		goto bad;
	phys = lk.page->phys +
	       (uint64_t)(lk.obj_base -
			  (uint8_t *)dmaemu__page_address(lk.page));
	/* Memory under a live mapping: reported with no lock held, then
	 * looked up again (another thread may have freed it meanwhile). */
	if (dmaemu__owner_held(m, phys, lk.obj_size)) {
		dmaemu__unlock(&sl->lock);
		dmaemu__owner_check_free(m, phys, lk.obj_size, caller);
		dmaemu__lock(&sl->lock);
		if (!lookup_locked(p, &lk))
			goto bad;
	}
	free_object(m, &lk, caller);
	dmaemu__unlock(&sl->lock);
	return;
bad:
	dmaemu__unlock(&sl->lock);
	report_not_object(m, DMAEMU_REPORT_BAD_FREE, caller, p, &lk);
}

/* ---------------------------------------------------------------------- */
/* Allocation                                                             */
/* ---------------------------------------------------------------------- */

/* Should this kmalloc() fail by fault injection (failslab, or
 * fail_page_alloc for a large one, as in Linux)? */
static bool fault_point(struct dmaemu_machine *m, enum dmaemu_fault_point pt,
			size_t size, unsigned int gfp, const char *caller)
{
	char what[320], names[256];

	if (!dmaemu__fault_armed(m))
		return false;
	dmaemu_gfp_format(gfp, names, sizeof(names));
	snprintf(what, sizeof(what), "%s(%zu, %s)", caller, size, names);
	return dmaemu__should_fail(m, pt, size, what);
}

void *dmaemu__kmalloc(struct dmaemu_machine *m, size_t size, unsigned int gfp,
		      const char *caller)
{
	struct dmaemu__slab *sl = m->slab;
	unsigned int ci;
	void *p;

	if (gfp & (__GFP_DMA32 | __GFP_HIGHMEM)) {
		char names[256];

		dmaemu_gfp_format(gfp, names, sizeof(names));
		dmaemu__reportf(
			m, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
			"%s(%zu, %s): __GFP_DMA32 and __GFP_HIGHMEM are "
			"invalid for kmalloc (the kernel BUG()s); use "
			"alloc_pages() or the DMA API",
			caller, size, names);
		return NULL;
	}
	if (!size)
		return ZERO_SIZE_PTR;
	if (size > KMALLOC_MAX_SIZE) {
		if (!(gfp & __GFP_NOWARN)) {
			char names[256];

			dmaemu_gfp_format(gfp, names, sizeof(names));
			dmaemu__reportf(m, DMAEMU_REPORT_ALLOC_FAILURE, 0, size,
					"%s(%zu, %s): larger than "
					"KMALLOC_MAX_SIZE (%lu)",
					caller, size, names, KMALLOC_MAX_SIZE);
		}
		return NULL;
	}
	for (ci = 0; ci < sl->nclasses; ci++)
		if (sl->cache[0][ci].size >= size)
			break;
	if (!(gfp & __GFP_NOFAIL) &&
	    fault_point(m,
			ci < sl->nclasses ? DMAEMU_FAULT_SLAB
					  : DMAEMU_FAULT_PAGE_ALLOC,
			size, gfp, caller))
		return NULL;
	if (ci < sl->nclasses) {
		p = slab_alloc(m, ci, gfp, caller);
		if (p && (gfp & __GFP_ZERO))
			dmaemu__mm_zero(m, p, sl->cache[0][ci].size);
	} else {
		/* __GFP_ZERO passes through: the page allocator zeroes. */
		p = large_alloc(m, size, gfp, caller);
	}
	if (p && dmaemu__tracing(m, DMAEMU__TRACE_ALLOC)) {
		struct dmaemu__where w;
		char names[256];

		/* The physical address, not the host's: traces of two runs
		 * compare. */
		dmaemu_gfp_format(gfp, names, sizeof(names));
		dmaemu__classify(p, &w);
		dmaemu__trace(m, DMAEMU__TRACE_ALLOC, "kmalloc",
			      "call=%s phys=0x%" PRIx64 " bytes_req=%zu gfp=%s",
			      caller, w.phys, size, names);
	}
	return p;
}

/*
 * Copy into a new object as the CPU does: loads of @src and stores to
 * @dst go through the CPU access path (either may be emulated memory).
 */
static void cpu_copy(void *dst, const void *src, size_t len)
{
	dmaemu__cpu_range(src, len, false);
	dmaemu__cpu_range(dst, len, true);
	memcpy(dst, src, len);
}

static struct dmaemu_machine *alloc_machine(gfp_t gfp, const char *caller)
{
	struct dmaemu_machine *m = dmaemu_machine_current();

	if (!m || !m->slab)
		return NULL;
	dmaemu__check_sleep(m, gfp, caller);
	return m;
}

/*
 * kmalloc() and the variants that differ from it only in name and in
 * @extra flags (__GFP_ZERO), added after the sleep check so that its
 * report shows the caller's own flags.
 */
static void *alloc_named(size_t size, gfp_t flags, gfp_t extra,
			 const char *caller)
{
	struct dmaemu_machine *m = alloc_machine(flags, caller);

	return m ? dmaemu__kmalloc(m, size, flags | extra, caller) : NULL;
}

void *kmalloc(size_t size, gfp_t flags)
{
	DMAEMU__API_CALL(call, "kmalloc");

	return alloc_named(size, flags, 0, "kmalloc");
}

void *kzalloc(size_t size, gfp_t flags)
{
	DMAEMU__API_CALL(call, "kzalloc");

	return alloc_named(size, flags, __GFP_ZERO, "kzalloc");
}

void *kmalloc_node(size_t size, gfp_t flags, int node)
{
	DMAEMU__API_CALL(call, "kmalloc_node");

	(void)node;
	return alloc_named(size, flags, 0, "kmalloc_node");
}

static void *array_alloc(size_t n, size_t size, gfp_t flags, const char *caller)
{
	struct dmaemu_machine *m = alloc_machine(flags, caller);
	size_t bytes;

	if (!m)
		return NULL;
	if (__builtin_mul_overflow(n, size, &bytes)) {
		if (!(flags & __GFP_NOWARN))
			dmaemu__reportf(m, DMAEMU_REPORT_ALLOC_FAILURE, 0, 0,
					"%s(%zu, %zu): %zu * %zu overflows "
					"size_t",
					caller, n, size, n, size);
		return NULL;
	}
	return dmaemu__kmalloc(m, bytes, flags, caller);
}

void *kmalloc_array(size_t n, size_t size, gfp_t flags)
{
	DMAEMU__API_CALL(call, "kmalloc_array");

	return array_alloc(n, size, flags, "kmalloc_array");
}

void *kcalloc(size_t n, size_t size, gfp_t flags)
{
	DMAEMU__API_CALL(call, "kcalloc");

	return array_alloc(n, size, flags | __GFP_ZERO, "kcalloc");
}

void kfree(const void *objp)
{
	/* Its reports (bad-free, free-of-mapped-memory) name the driver's
	 * line. */
	DMAEMU__API_CALL(call, "kfree");
	dmaemu__kfree(objp, "kfree");
}

/*
 * Usable size of @p, read under its slab lock; 0 after a report of @kind
 * naming @caller when @p is not a live object.
 */
static size_t object_size(const void *p, enum dmaemu_report_kind kind,
			  const char *caller, struct dmaemu_machine **mp)
{
	struct dmaemu__slab *sl = slab_of(p, mp);
	struct lookup lk;
	size_t size = 0;

	memset(&lk, 0, sizeof(lk));
	if (!sl) {
		struct dmaemu__where w;

		dmaemu__classify(p, &w);
		describe_addr(p, &w, lk.why, sizeof(lk.why));
	} else {
		dmaemu__lock(&sl->lock);
		if (lookup_locked(p, &lk))
			size = lk.obj_size;
		dmaemu__unlock(&sl->lock);
	}
	if (!size)
		report_not_object(*mp, kind, caller, p, &lk);
	return size;
}

size_t ksize(const void *objp)
{
	struct dmaemu_machine *m;

	if (ZERO_OR_NULL_PTR(objp))
		return 0;
	return object_size(objp, DMAEMU_REPORT_BAD_ARGUMENT, "ksize", &m);
}

void kzfree(const void *objp)
{
	struct dmaemu_machine *m;
	size_t size;

	if (ZERO_OR_NULL_PTR(objp))
		return;
	size = object_size(objp, DMAEMU_REPORT_BAD_FREE, "kzfree", &m);
	if (!size)
		return;
	dmaemu__mm_zero(m, (void *)(uintptr_t)objp, size);
	dmaemu__kfree(objp, "kzfree");
}

void *krealloc(const void *p, size_t new_size, gfp_t flags)
{
	DMAEMU__API_CALL(call, "krealloc");
	struct dmaemu_machine *m;
	size_t old;
	void *n;

	if (ZERO_OR_NULL_PTR(p)) {
		m = alloc_machine(flags, "krealloc");
		return m ? dmaemu__kmalloc(m, new_size, flags, "krealloc")
			 : NULL;
	}
	if (!new_size) {
		dmaemu__kfree(p, "krealloc");
		return ZERO_SIZE_PTR;
	}
	old = object_size(p, DMAEMU_REPORT_BAD_ARGUMENT, "krealloc", &m);
	if (!old)
		return NULL;
	if (old >= new_size)
		return (void *)(uintptr_t)p;
	m = alloc_machine(flags, "krealloc");
	if (!m)
		return NULL;
	n = dmaemu__kmalloc(m, new_size, flags, "krealloc");
	if (!n)
		return NULL;
	cpu_copy(n, p, old);
	dmaemu__kfree(p, "krealloc");
	return n;
}

void *kmemdup(const void *src, size_t len, gfp_t gfp)
{
	DMAEMU__API_CALL(call, "kmemdup");
	struct dmaemu_machine *m = alloc_machine(gfp, "kmemdup");
	void *p;

	if (!m)
		return NULL;
	if (!src && len) {
		dmaemu__reportf(m, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"kmemdup(NULL, %zu)", len);
		return NULL;
	}
	p = dmaemu__kmalloc(m, len, gfp, "kmemdup");
	if (p && len)
		cpu_copy(p, src, len);
	return p;
}

char *kstrndup(const char *s, size_t max, gfp_t gfp)
{
	DMAEMU__API_CALL(call, "kstrndup");
	struct dmaemu_machine *m;
	size_t len;
	char *p;

	if (!s)
		return NULL;
	m = alloc_machine(gfp, "kstrndup");
	if (!m)
		return NULL;
	len = strnlen(s, max);
	p = dmaemu__kmalloc(m, len + 1, gfp, "kstrndup");
	if (p) {
		cpu_copy(p, s, len);
		dmaemu__cpu_range(p + len, 1, true);
		p[len] = '\0';
	}
	return p;
}

char *kstrdup(const char *s, gfp_t gfp)
{
	DMAEMU__API_CALL(call, "kstrdup");
	struct dmaemu_machine *m;
	size_t len;
	char *p;

	if (!s)
		return NULL;
	m = alloc_machine(gfp, "kstrdup");
	if (!m)
		return NULL;
	len = strlen(s) + 1;
	p = dmaemu__kmalloc(m, len, gfp, "kstrdup");
	if (p)
		cpu_copy(p, s, len);
	return p;
}

char *kvasprintf(gfp_t gfp, const char *fmt, va_list args)
{
	struct dmaemu_machine *m = alloc_machine(gfp, "kvasprintf");
	va_list aq;
	char *p;
	int n;

	if (!m)
		return NULL;
	if (!fmt) {
		dmaemu__reportf(m, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"kvasprintf(NULL format)");
		return NULL;
	}
	va_copy(aq, args);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0)
		return NULL;
	p = dmaemu__kmalloc(m, (size_t)n + 1, gfp, "kvasprintf");
	if (p) {
		dmaemu__cpu_range(p, (size_t)n + 1, true);
		vsnprintf(p, (size_t)n + 1, fmt, args);
	}
	return p;
}

char *kasprintf(gfp_t gfp, const char *fmt, ...)
{
	DMAEMU__API_CALL(call, "kasprintf");
	va_list ap;
	char *p;

	va_start(ap, fmt);
	p = kvasprintf(gfp, fmt, ap);
	va_end(ap);
	return p;
}

void *kvmalloc(size_t size, gfp_t flags)
{
	DMAEMU__API_CALL(call, "kvmalloc");
	return alloc_named(size, flags, 0, "kvmalloc");
}

void *kvzalloc(size_t size, gfp_t flags)
{
	DMAEMU__API_CALL(call, "kvzalloc");
	return alloc_named(size, flags, __GFP_ZERO, "kvzalloc");
}

void *kvmalloc_array(size_t n, size_t size, gfp_t flags)
{
	DMAEMU__API_CALL(call, "kvmalloc_array");
	return array_alloc(n, size, flags, "kvmalloc_array");
}

void kvfree(const void *addr)
{
	dmaemu__kfree(addr, "kvfree");
}
