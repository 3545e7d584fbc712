// SPDX-License-Identifier: MIT
/*
 * order.c - ordering between CPU contexts and devices on coherent memory:
 * the missing-write-barrier and missing-read-barrier checks.
 *
 * How it works.  On arm and arm64, Linux 4.14 maps coherent allocations
 * bufferable (arm64: pgprot_writecombine, Normal non-cacheable; ARMv7:
 * pgprot_dmacoherent): stores may reach a device out of program order and
 * loads may be satisfied out of order, unless a barrier sits between them.
 * The checks find the missing barrier from the order of events alone, so
 * they fire in every run of a buggy driver whatever the seed and the
 * thread timing.
 *
 * Every host thread is a CPU context with two generations that barriers
 * advance: wgen (wmb, dma_wmb, mb, a non-relaxed writel(), store-release,
 * locks) and rgen (rmb, dma_rmb, mb, a non-relaxed readl(), load-acquire,
 * locks).  One process-wide clock orders everything else.  Coherent and
 * write-combining allocations register their pages; for them only, each
 * 4-byte word has a record in a side table, allocated per page on first
 * touch (cacheable streaming memory has none and costs nothing):
 *
 *   word record   ctx, gen, seq, site   the CPU's last store: its context,
 *                                       that context's wgen then, the clock
 *                                       and the driver's line
 *                 dseq                  the clock of the device's last
 *                                       write (0: the CPU's store is newer)
 *
 *   device side   seen[dev, ctx] = (gen, seq, site): the newest store of
 *                 ctx the device has observed while it was not yet ordered
 *                 by a barrier, or ctx's last doorbell (an MMIO write to
 *                 the device's registers) at (wgen, clock)
 *
 * missing-write-barrier: a device read of a word whose store is in the
 * generation of seen[dev, ctx] but older than what the device saw: the
 * device saw B (a later store, or a relaxed doorbell) and then read A,
 * stored before B with no write barrier between.  A store of a generation
 * below seen's was ordered by a barrier before B: fine.  A non-relaxed
 * writel() advances wgen before its doorbell is seen, so every earlier
 * store is ordered against it.  A store becomes "seen" only while it is
 * still in its context's current generation; one that a barrier has
 * ordered since (a lock released before another thread rings the doorbell)
 * tells the device nothing about order.
 *
 *   CPU  A=addr  B=OWN  |wmb|  doorbell     device: read B ... read A
 *        (g,1)   (g,2)         (g+1,3)              A: g < g+1: ordered
 *   CPU  A=addr  B=OWN  writel_relaxed      device: read A
 *        (g,1)   (g,2)  seen (g,3)                  A: g == g, 1 < 3: report
 *
 * missing-read-barrier: per context, the load with the newest device write
 * (B) since the context's last read barrier (at clock rbar).  A later load
 * of a word the device wrote before B (dseq < B's) but after rbar may have
 * been satisfied before the load of B, so it may return what the word held
 * before the device's write.  A word the device wrote before rbar cannot
 * be older than that write: fine.
 *
 * On x86 (TSO) the same findings are portability notes: correct there,
 * broken on arm64.  ordering=strong turns all of this off.
 *
 * Locking.  The side table, the seen table and the registered pages are
 * under o->lock, a leaf taken with no other lock of the machine held.  The
 * contexts are process-wide: each thread's block is written by its thread
 * (wgen with atomics, read by device threads under ctx_lock), registered
 * in a table by id under ctx_lock (a leaf), and freed when the thread
 * exits (its records then count as ordered).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu.h"
#include "dmaemu/cpu.h"

#define WORD_SHIFT 2
#define WORDS_PER_PAGE (DMAEMU__PAGE_SIZE >> WORD_SHIFT)
#define OLD_MAX 256 /* bytes of one store whose old value is kept */

/* ---------------------------------------------------------------------- */
/* Contexts                                                               */
/* ---------------------------------------------------------------------- */

struct octx {
	uint32_t id;
	uint64_t wgen; /* written by the thread, read by others: atomics */
	/* The thread's own: */
	uint64_t rgen;	    /* read barriers so far */
	uint64_t rbar;	    /* clock at the last read barrier */
	uint64_t b_dseq;    /* the load B: device write clock (0: none) */
	uint64_t b_rgen;    /* rgen when B was loaded */
	uint64_t b_phys;    /* its address */
	const void *b_site; /* its driver line */
	struct dmaemu_machine *b_m; /* the machine of B */
	uint64_t b_access;	    /* the access that loaded B */
};

static pthread_mutex_t ctx_lock = PTHREAD_MUTEX_INITIALIZER;
static struct octx **ctxs; /* by id; NULL once the thread exited */
static uint32_t nctx, ctx_cap;
static pthread_key_t ctx_key;
static pthread_once_t ctx_once = PTHREAD_ONCE_INIT;
static bool ctx_key_ok;
static __thread struct octx *self __attribute__((tls_model("initial-exec")));
static uint64_t order_clock; /* atomics */

static void ctx_exit(void *p)
{
	struct octx *c = p;

	pthread_mutex_lock(&ctx_lock);
	ctxs[c->id] = NULL;
	pthread_mutex_unlock(&ctx_lock);
	if (self == c)
		self = NULL;
	dmaemu__free(c);
}

static void ctx_setup(void)
{
	ctx_key_ok = !pthread_key_create(&ctx_key, ctx_exit);
	dmaemu__vg_atomic(&order_clock, sizeof(order_clock));
}

/* Blocks of threads still running at exit (main's, at least). */
static void __attribute__((destructor)) ctx_cleanup(void)
{
	uint32_t i;

	pthread_mutex_lock(&ctx_lock);
	for (i = 0; i < nctx; i++) {
		if (ctxs[i] == self)
			self = NULL;
		dmaemu__free(ctxs[i]);
	}
	dmaemu__free(ctxs);
	ctxs = NULL;
	nctx = ctx_cap = 0;
	pthread_mutex_unlock(&ctx_lock);
}

static uint64_t tick(void)
{
	return __atomic_add_fetch(&order_clock, 1, __ATOMIC_SEQ_CST);
}

/* The calling thread's context, made on first use (NULL: no memory). */
static struct octx *ctx_self(void)
{
	struct octx *c = self, **bigger;

	if (__builtin_expect(c != NULL, 1))
		return c;
	pthread_once(&ctx_once, ctx_setup);
	c = dmaemu__calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	dmaemu__vg_atomic(&c->wgen, sizeof(c->wgen));
	pthread_mutex_lock(&ctx_lock);
	if (nctx == ctx_cap) {
		uint32_t cap = ctx_cap ? 2 * ctx_cap : 64;

		bigger = dmaemu__calloc(cap, sizeof(*bigger));
		if (!bigger) {
			pthread_mutex_unlock(&ctx_lock);
			dmaemu__free(c);
			return NULL;
		}
		if (ctxs)
			memcpy(bigger, ctxs, nctx * sizeof(*bigger));
		dmaemu__free(ctxs);
		ctxs = bigger;
		ctx_cap = cap;
	}
	/* Id 0 is never used: a record with ctx 0 holds no store. */
	if (!nctx)
		nctx = 1;
	c->id = nctx++;
	ctxs[c->id] = c;
	pthread_mutex_unlock(&ctx_lock);
	c->wgen = 1;
	if (ctx_key_ok)
		pthread_setspecific(ctx_key, c);
	self = c;
	return c;
}

/* The current wgen of context @id, or UINT64_MAX once it exited. */
static uint64_t ctx_wgen(uint32_t id)
{
	uint64_t g = UINT64_MAX;

	pthread_mutex_lock(&ctx_lock);
	if (id < nctx && ctxs[id])
		g = __atomic_load_n(&ctxs[id]->wgen, __ATOMIC_ACQUIRE);
	pthread_mutex_unlock(&ctx_lock);
	return g;
}

void dmaemu__order_barrier(unsigned int kind)
{
	struct octx *c = ctx_self();

	if (!c)
		return;
	if (kind & DMAEMU_BARRIER_WRITE)
		__atomic_store_n(&c->wgen, c->wgen + 1, __ATOMIC_RELEASE);
	if (kind & DMAEMU_BARRIER_READ) {
		c->rgen++;
		/*
		 * rbar is only compared with device writes' clocks.  When the
		 * clock has not moved since this context's last read barrier,
		 * no event came between the two: the old value orders every
		 * write, past and future, as a new tick would, and saves
		 * the maps and unmaps of a streaming driver an atomic add on
		 * the process-wide clock each.
		 */
		if (__atomic_load_n(&order_clock, __ATOMIC_SEQ_CST) != c->rbar)
			c->rbar = tick();
	}
}

void dmaemu_cpu_barrier(unsigned int kind)
{
	dmaemu__order_barrier(kind);
}

/* ---------------------------------------------------------------------- */
/* The machine's side table                                               */
/* ---------------------------------------------------------------------- */

struct orec {
	uint32_t ctx;	  /* the CPU store's context (0: none) */
	uint64_t gen;	  /* its wgen then */
	uint64_t seq;	  /* clock */
	const void *site; /* the driver's line */
	uint64_t dseq;	  /* clock of the device's last write (0: none) */
	uint32_t old;	  /* what devices saw before the pending stores */
	bool has_old;	  /* @old was captured (arm, arm64 uncached) */
	bool has_dold;	  /* @dold was captured */
	uint32_t dold;	  /* the word before the device's last write */
	uint32_t dwrites; /* device writes to the word (the seed's choice) */
	uint32_t cstores; /* CPU stores to the word (the seed's choice) */
};

struct seen {
	const void *dev;
	uint32_t ctx;
	bool doorbell; /* B was a doorbell (else a store the device read) */
	uint64_t gen, seq;
	const void *site;
	uint64_t phys;
};

struct obank {
	uint64_t phys, pages;
	uint8_t *tracked;  /* per page: registered (atomics) */
	struct orec **rec; /* per page: the words' records, on first use */
};

/*
 * A word of uncached memory that holds, for a plain load satisfied early,
 * what it held before the device's last write (see "The load side's
 * data" below), until the next event of the ordering model puts back
 * what the device wrote.
 */
struct oswap {
	uint64_t phys;
	uint64_t aseq; /* the load that made it */
	uint32_t put;  /* the old value, in memory now */
	uint32_t dev;  /* the device's value, to put back */
};

#define SWAP_MAX DMAEMU__ORDER_STALE_MAX

struct dmaemu__order {
	pthread_mutex_t lock;
	unsigned int nbanks;
	struct obank bank[DMAEMU__MAX_BANKS];
	struct seen *seen;
	size_t nseen, seen_cap;
	struct oswap swap[SWAP_MAX];
	unsigned int nswap; /* written under @lock, read without (atomics) */
};

bool dmaemu__order_weak(const struct dmaemu_machine *m)
{
	return m->cpu && m->cpu->order;
}

int dmaemu__order_init(struct dmaemu_machine *m)
{
	struct dmaemu__order *o;
	unsigned int i;

	if (m->opt.ordering_strong)
		return 0;
	pthread_once(&ctx_once, ctx_setup);
	o = dmaemu__calloc(1, sizeof(*o));
	if (!o)
		return -ENOMEM;
	if (dmaemu__mutex_init(&o->lock)) {
		dmaemu__free(o);
		return -ENOMEM;
	}
	o->nbanks = m->nbanks;
	for (i = 0; i < m->nbanks; i++) {
		struct obank *b = &o->bank[i];

		b->phys = m->bank[i].phys;
		b->pages = m->bank[i].size / DMAEMU__PAGE_SIZE;
		b->tracked = dmaemu__calloc(b->pages, 1);
		b->rec = dmaemu__calloc(b->pages, sizeof(*b->rec));
		if (!b->tracked || !b->rec) {
			o->nbanks = i + 1;
			m->cpu->order = o;
			dmaemu__order_fini(m);
			return -ENOMEM;
		}
		dmaemu__vg_atomic(b->tracked, b->pages);
	}
	dmaemu__vg_atomic(&o->nswap, sizeof(o->nswap));
	m->cpu->order = o;
	return 0;
}

/*
 * Put back what the device wrote into the words that hold an old value for
 * a load satisfied early, but those of the load @aseq (still under way:
 * its next part must not undo the first); a word written since keeps what
 * was written.  @o->lock held.
 */
static void swaps_restore(struct dmaemu_machine *m, struct dmaemu__order *o,
			  uint64_t aseq)
{
	unsigned int i, k = 0;
	uint32_t now;

	for (i = 0; i < o->nswap; i++) {
		struct oswap *w = &o->swap[i];

		if (aseq && w->aseq == aseq) {
			o->swap[k++] = *w;
			continue;
		}
		if (!dmaemu__mem_read(m, w->phys, &now, sizeof(now)) &&
		    now == w->put)
			(void)dmaemu__mem_write(m, w->phys, &w->dev,
						sizeof(w->dev));
	}
	__atomic_store_n(&o->nswap, k, __ATOMIC_RELEASE);
}

/* Every event of the model starts here: the old values go (@aseq: the
 * load under way, whose own stay). */
static void swaps_settle(struct dmaemu_machine *m, struct dmaemu__order *o,
			 uint64_t aseq)
{
	if (!__atomic_load_n(&o->nswap, __ATOMIC_ACQUIRE))
		return;
	dmaemu__lock(&o->lock);
	swaps_restore(m, o, aseq);
	dmaemu__unlock(&o->lock);
}

void dmaemu__order_fini(struct dmaemu_machine *m)
{
	struct dmaemu__order *o = m->cpu ? m->cpu->order : NULL;
	unsigned int i;
	uint64_t p;

	if (!o)
		return;
	swaps_settle(m, o, 0);
	for (i = 0; i < o->nbanks; i++) {
		struct obank *b = &o->bank[i];

		if (b->rec)
			for (p = 0; p < b->pages; p++)
				dmaemu__free(b->rec[p]);
		dmaemu__free(b->rec);
		dmaemu__free(b->tracked);
	}
	dmaemu__free(o->seen);
	pthread_mutex_destroy(&o->lock);
	dmaemu__free(o);
	m->cpu->order = NULL;
}

static struct obank *bank_of(struct dmaemu__order *o, uint64_t phys,
			     uint64_t *page)
{
	unsigned int i;

	for (i = 0; i < o->nbanks; i++) {
		struct obank *b = &o->bank[i];

		if (phys >= b->phys &&
		    phys - b->phys < b->pages * DMAEMU__PAGE_SIZE) {
			*page = (phys - b->phys) / DMAEMU__PAGE_SIZE;
			return b;
		}
	}
	return NULL;
}

void dmaemu__order_track(struct dmaemu_machine *m, uint64_t phys, uint64_t len,
			 bool on)
{
	struct dmaemu__order *o = m->cpu ? m->cpu->order : NULL;
	uint64_t end = phys + len, page;
	struct obank *b;
	unsigned int i;

	if (!o || !len)
		return;
	dmaemu__lock(&o->lock);
	swaps_restore(m, o, 0);
	for (phys &= ~(uint64_t)(DMAEMU__PAGE_SIZE - 1); phys < end;
	     phys += DMAEMU__PAGE_SIZE) {
		b = bank_of(o, phys, &page);
		if (!b)
			continue;
		__atomic_store_n(&b->tracked[page], on, __ATOMIC_RELAXED);
		/* A page freed or handed out again starts with no history. */
		dmaemu__free(b->rec[page]);
		b->rec[page] = NULL;
	}
	/* What devices saw of the old contents means nothing now. */
	if (!on)
		for (i = 0; i < o->nseen; i++)
			if (o->seen[i].phys >= end - len &&
			    o->seen[i].phys < end)
				o->seen[i].gen = o->seen[i].seq = 0;
	dmaemu__unlock(&o->lock);
}

bool dmaemu__order_tracked(struct dmaemu_machine *m, uint64_t phys)
{
	struct dmaemu__order *o = m->cpu ? m->cpu->order : NULL;
	struct obank *b;
	uint64_t page;

	if (!o)
		return false;
	b = bank_of(o, phys, &page);
	return b && __atomic_load_n(&b->tracked[page], __ATOMIC_RELAXED);
}

/* The record of the word at @phys, made if @make (o->lock held); NULL for
 * an untracked page or no memory. */
static struct orec *rec_of(struct dmaemu__order *o, uint64_t phys, bool make)
{
	struct obank *b;
	uint64_t page;

	b = bank_of(o, phys, &page);
	if (!b || !b->tracked[page])
		return NULL;
	if (!b->rec[page]) {
		if (!make)
			return NULL;
		b->rec[page] =
			dmaemu__calloc(WORDS_PER_PAGE, sizeof(struct orec));
		if (!b->rec[page])
			return NULL;
	}
	return &b->rec[page][(phys & (DMAEMU__PAGE_SIZE - 1)) >> WORD_SHIFT];
}

static struct seen *seen_of(struct dmaemu__order *o, const void *dev,
			    uint32_t ctx)
{
	struct seen *s;
	size_t i;

	for (i = 0; i < o->nseen; i++)
		if (o->seen[i].dev == dev && o->seen[i].ctx == ctx)
			return &o->seen[i];
	if (o->nseen == o->seen_cap) {
		size_t cap = o->seen_cap ? 2 * o->seen_cap : 16;

		s = dmaemu__calloc(cap, sizeof(*s));
		if (!s)
			return NULL;
		if (o->seen)
			memcpy(s, o->seen, o->nseen * sizeof(*s));
		dmaemu__free(o->seen);
		o->seen = s;
		o->seen_cap = cap;
	}
	s = &o->seen[o->nseen++];
	memset(s, 0, sizeof(*s));
	s->dev = dev;
	s->ctx = ctx;
	return s;
}

void dmaemu__order_forget_device(struct dmaemu_machine *m, const void *dev)
{
	struct dmaemu__order *o = m->cpu ? m->cpu->order : NULL;
	size_t i = 0;

	if (!o)
		return;
	dmaemu__lock(&o->lock);
	while (i < o->nseen) {
		if (o->seen[i].dev == dev)
			o->seen[i] = o->seen[--o->nseen];
		else
			i++;
	}
	dmaemu__unlock(&o->lock);
}

/* ---------------------------------------------------------------------- */
/* Reports                                                                */
/* ---------------------------------------------------------------------- */

static bool is_x86(const struct dmaemu_machine *m)
{
	return m->opt.profile == DMAEMU__PROFILE_X86;
}

static const char *tso_note(const struct dmaemu_machine *m)
{
	return is_x86(m) ? "; correct on x86 (TSO), broken on arm64" : "";
}

/*
 * The driver's line of @site as "fn file:line" (dmaemu__code_where() skips
 * the kernel personality's headers, where WRITE_ONCE() and
 * writel_relaxed() are inlined), or "(unknown)".
 */
static void where_of(const void *site, char *buf, size_t len)
{
	if (site)
		dmaemu__code_where(site, buf, len);
	else
		snprintf(buf, len, "(unknown)");
}

/* A finding of the write side, no lock held. */
static void report_write(struct dmaemu_machine *m, const char *dev,
			 uint64_t dma, size_t len, uint64_t phys_a,
			 const struct orec *a, const struct seen *b)
{
	struct dmaemu__report_info r;
	char wa[256], wb[256];

	if (is_x86(m) && !m->opt.portability_notes)
		return;
	if (!dmaemu__report_first(m, DMAEMU_REPORT_MISSING_WRITE_BARRIER,
				  b->site, dev, 0))
		return;
	where_of(a->site, wa, sizeof(wa));
	where_of(b->site, wb, sizeof(wb));
	memset(&r, 0, sizeof(r));
	r.kind = DMAEMU_REPORT_MISSING_WRITE_BARRIER;
	r.phys = phys_a;
	r.size = 4;
	r.note = is_x86(m);
	r.where = b->site ? wb : NULL;
	if (b->doorbell)
		dmaemu__report(
			m, &r,
			"device %s read of %zu bytes at dma 0x%llx after a "
			"relaxed doorbell: the word at phys 0x%llx was stored "
			"by the CPU before the doorbell with no write barrier "
			"between them, so the device can see the doorbell "
			"before the store%s\n"
			"    store at %s\n"
			"    doorbell (writel_relaxed) at %s\n"
			"    fix: wmb() between the store and the doorbell, "
			"or writel(), which has one",
			dev, len, (unsigned long long)dma,
			(unsigned long long)phys_a, tso_note(m), wa, wb);
	else
		dmaemu__report(
			m, &r,
			"device %s read of %zu bytes at dma 0x%llx: it saw "
			"the CPU's store to phys 0x%llx and read phys 0x%llx, "
			"stored earlier with no write barrier between the two "
			"stores, so the device can see the second without "
			"the first%s\n"
			"    first store at %s\n"
			"    second store at %s\n"
			"    fix: dma_wmb() between the two stores",
			dev, len, (unsigned long long)dma,
			(unsigned long long)b->phys, (unsigned long long)phys_a,
			tso_note(m), wa, wb);
}

/* A finding of the read side: the load at @site of the word at @phys_a
 * (@len bytes), after the load of B that context @c made.  No lock held. */
static void report_read(struct dmaemu_machine *m, uint64_t phys_a, size_t len,
			const void *site, const struct octx *c)
{
	struct dmaemu__report_info r;
	char wa[256], wb[256];

	if (is_x86(m) && !m->opt.portability_notes)
		return;
	if (!dmaemu__report_first(m, DMAEMU_REPORT_MISSING_READ_BARRIER, site,
				  "", 0))
		return;
	where_of(site, wa, sizeof(wa));
	where_of(c->b_site, wb, sizeof(wb));
	memset(&r, 0, sizeof(r));
	r.kind = DMAEMU_REPORT_MISSING_READ_BARRIER;
	r.phys = phys_a;
	r.size = len;
	r.note = is_x86(m);
	r.where = site ? wa : NULL;
	dmaemu__report(
		m, &r,
		"read of %zu byte%s at phys 0x%llx after a read of phys "
		"0x%llx with no read barrier between the two loads: the "
		"device wrote 0x%llx before 0x%llx, and this load may be "
		"satisfied first, returning what the word held before the "
		"device's write%s\n"
		"    first load at %s\n"
		"    second load at %s\n"
		"    fix: dma_rmb() between the two loads",
		len, len == 1 ? "" : "s", (unsigned long long)phys_a,
		(unsigned long long)c->b_phys, (unsigned long long)phys_a,
		(unsigned long long)c->b_phys, tso_note(m), wb, wa);
}

/* ---------------------------------------------------------------------- */
/* CPU accesses                                                           */
/* ---------------------------------------------------------------------- */

/*
 * The load side's data.  On arm and arm64 a load that is a finding of
 * missing-read-barrier may have been satisfied before the load of B: the
 * seed decides, per word and per device write to it, and the load then
 * returns the word as it was before the device's last write.  The hook
 * runs before the load, and a plain load reads memory itself; so the old
 * words of the access are kept here, and the accessors that copy the data
 * in the library (READ_ONCE(), memcpy() of instrumented code) put them in
 * what they return (dmaemu__order_stale_fix()).
 */
__thread struct dmaemu__order_stale dmaemu__order_stale
	__attribute__((tls_model("initial-exec")));

/* Has the load of word @p, last written by the device, been satisfied
 * before B's?  The seed's choice for that word and that device write. */
static bool load_early(uint64_t seed, const struct orec *r, uint64_t p)
{
	uint64_t z = seed ^ ((uint64_t)r->dwrites * 0xd1b54a32d192ed03ULL) ^
		     (p * 0x9e3779b97f4a7c15ULL) ^ 0x5851f42d4c957f2dULL;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (z ^ (z >> 31)) & 1;
}

void dmaemu__order_stale_fix(uint64_t phys, void *buf, size_t len)
{
	struct dmaemu__order_stale *st = &dmaemu__order_stale;
	uint8_t *b = buf;
	unsigned int i, k;

	for (i = 0; i < st->n; i++) {
		const uint8_t *old = (const uint8_t *)&st->old[i];
		uint64_t p = st->phys[i];

		for (k = 0; k < 4; k++)
			if (p + k >= phys && p + k - phys < len)
				b[p + k - phys] = old[k];
	}
	st->n = 0;
}

/*
 * A plain load of uncached memory reads the word itself, after its hook:
 * so that it returns @old too, the word holds @old until the model's next
 * event (swaps_settle()).  @o->lock held.
 */
static void swap_in(struct dmaemu_machine *m, struct dmaemu__order *o,
		    uint64_t p, uint32_t old, uint64_t aseq)
{
	struct oswap *w = &o->swap[o->nswap];
	uint32_t now;

	if (o->nswap == SWAP_MAX || dmaemu__mem_read(m, p, &now, sizeof(now)) ||
	    now == old || dmaemu__mem_write(m, p, &old, sizeof(old)))
		return;
	w->phys = p;
	w->aseq = aseq;
	w->put = old;
	w->dev = now;
	__atomic_store_n(&o->nswap, o->nswap + 1, __ATOMIC_RELEASE);
}

void dmaemu__order_cpu(struct dmaemu_machine *m, uint64_t phys, size_t len,
		       bool store, bool buffered, const void *site,
		       uint64_t *aseq)
{
	struct dmaemu__order *o = m->cpu->order;
	uint64_t p, end = phys + len, seq, max_dseq = 0, max_phys = 0;
	uint64_t a_phys = 0, a_dseq = 0, phys_aligned;
	struct octx *c;
	struct orec *r;
	bool early;

	if (!o || !len)
		return;
	c = ctx_self();
	if (!c)
		return;
	swaps_settle(m, o, *aseq);
	p = phys & ~(uint64_t)((1u << WORD_SHIFT) - 1);
	phys_aligned = p;
	end = (end + (1u << WORD_SHIFT) - 1) &
	      ~(uint64_t)((1u << WORD_SHIFT) - 1);
	if (store) {
		uint8_t prev[OLD_MAX];
		bool have = buffered && end - p <= OLD_MAX &&
			    !dmaemu__mem_read(m, p, prev, (size_t)(end - p));

		if (!*aseq)
			*aseq = tick();
		seq = *aseq;
		dmaemu__lock(&o->lock);
		for (; p < end; p += 1u << WORD_SHIFT) {
			r = rec_of(o, p, true);
			if (!r)
				continue;
			/* The first store of a generation: what the device
			 * sees until it drains. */
			if (r->ctx != c->id || r->gen != c->wgen) {
				r->has_old = have;
				if (have)
					memcpy(&r->old,
					       prev + (p - phys_aligned),
					       sizeof(r->old));
			}
			r->ctx = c->id;
			r->gen = c->wgen;
			r->seq = seq;
			r->site = site;
			r->dseq = 0;
			r->cstores++;
		}
		dmaemu__unlock(&o->lock);
		return;
	}
	/* The parts of one access (a memcpy()) are one load. */
	if (!*aseq) {
		*aseq = tick();
		dmaemu__order_stale.n = 0;
	}
	early = !is_x86(m);
	dmaemu__lock(&o->lock);
	for (; p < end; p += 1u << WORD_SHIFT) {
		r = rec_of(o, p, false);
		if (!r || !r->dseq)
			continue;
		if (r->dseq > max_dseq) {
			max_dseq = r->dseq;
			max_phys = p;
		}
		/* Written by the device before B and after the last read
		 * barrier, loaded after B: it may be older than that. */
		if (c->b_dseq && c->b_m == m && c->b_rgen == c->rgen &&
		    c->b_access != *aseq && r->dseq < c->b_dseq &&
		    r->dseq > c->rbar) {
			if (!a_dseq) {
				a_dseq = r->dseq;
				a_phys = p;
			}
			if (early && r->has_dold &&
			    dmaemu__order_stale.n < DMAEMU__ORDER_STALE_MAX &&
			    load_early(m->opt.seed, r, p)) {
				dmaemu__order_stale
					.phys[dmaemu__order_stale.n] = p;
				dmaemu__order_stale
					.old[dmaemu__order_stale.n++] = r->dold;
				if (buffered)
					swap_in(m, o, p, r->dold, *aseq);
			}
		}
	}
	dmaemu__unlock(&o->lock);
	if (a_dseq)
		report_read(m, a_phys, len, site, c);
	if (max_dseq &&
	    (c->b_rgen != c->rgen || c->b_m != m || max_dseq > c->b_dseq)) {
		c->b_dseq = max_dseq;
		c->b_rgen = c->rgen;
		c->b_phys = max_phys;
		c->b_site = site;
		c->b_m = m;
		c->b_access = *aseq;
	}
}

void dmaemu__order_doorbell(struct dmaemu_machine *m, const void *dev,
			    const void *site)
{
	struct dmaemu__order *o = m->cpu ? m->cpu->order : NULL;
	struct octx *c;
	struct seen *s;
	uint64_t seq;

	if (!o)
		return;
	c = ctx_self();
	if (!c)
		return;
	seq = tick();
	dmaemu__lock(&o->lock);
	s = seen_of(o, dev, c->id);
	if (s && (c->wgen > s->gen || (c->wgen == s->gen && seq > s->seq))) {
		s->gen = c->wgen;
		s->seq = seq;
		s->site = site;
		s->doorbell = true;
		s->phys = 0;
	}
	dmaemu__unlock(&o->lock);
}

/* ---------------------------------------------------------------------- */
/* Device accesses                                                        */
/* ---------------------------------------------------------------------- */

#define READ_CTXS 4 /* contexts whose stores one device read follows */

struct finding {
	bool found;
	uint64_t phys;
	struct orec a;
	struct seen b;
};

/*
 * Whether the pending store @r (unordered, its context's current
 * generation) has not drained yet when a device reads it: the seed's
 * choice, fixed per address and number of CPU stores to it, so a run
 * replays.  Not the store's clock: that clock is the process's, and its
 * value depends on every event before, of this machine or another, and
 * under sched=threads on when the host ran each thread.
 */
static bool still_pending(uint64_t seed, const struct orec *r, uint64_t p)
{
	uint64_t z = seed ^ ((uint64_t)r->cstores * 0x9e3779b97f4a7c15ULL) ^
		     (p << 17);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (z ^ (z >> 31)) & 1;
}

/* What the device gets of word @p: its old value, in @buf (the read of
 * [@phys, +@len)). */
static void show_old(const struct orec *r, uint64_t p, uint64_t phys,
		     size_t len, uint8_t *buf)
{
	const uint8_t *old = (const uint8_t *)&r->old;
	unsigned int k;

	for (k = 0; k < 4; k++)
		if (p + k >= phys && p + k < phys + len)
			buf[p + k - phys] = old[k];
}

/*
 * The device's read of [@phys, +@len) into @buf: first what it already
 * saw, then the stores of this read that it sees now (o->lock held).  A
 * store found older than what the device saw, and still pending (its
 * context's current generation), may not have drained: with @buffered
 * (arm, arm64), the seed decides, and the device then gets the word's
 * old value.  Only such stores: a correct driver never sees one.
 */
static void device_read(struct dmaemu__order *o, const void *dev, uint64_t phys,
			size_t len, uint8_t *buf, bool buffered, uint64_t seed,
			struct finding *f)
{
	struct {
		uint32_t ctx;
		uint64_t wgen; /* the context's current generation */
		struct seen *s;
		uint64_t gen, seq, phys; /* the newest current store */
		const void *site;
	} cs[READ_CTXS];
	unsigned int n = 0, i;
	uint64_t p, start, end = phys + len;
	struct orec *r;

	start = phys & ~(uint64_t)((1u << WORD_SHIFT) - 1);
	for (p = start; p < end; p += 1u << WORD_SHIFT) {
		r = rec_of(o, p, false);
		if (!r || !r->ctx)
			continue;
		for (i = 0; i < n && cs[i].ctx != r->ctx; i++)
			;
		if (i == n) {
			if (n == READ_CTXS)
				continue;
			cs[n].ctx = r->ctx;
			cs[n].wgen = ctx_wgen(r->ctx);
			cs[n].s = seen_of(o, dev, r->ctx);
			cs[n].gen = cs[n].seq = 0;
			n++;
		}
		if (!cs[i].s)
			continue;
		/* 1. Older than what the device saw, same generation. */
		if (r->gen == cs[i].s->gen && r->seq < cs[i].s->seq) {
			if (!f->found) {
				f->found = true;
				f->phys = p;
				f->a = *r;
				f->b = *cs[i].s;
			}
			if (buffered && r->has_old && r->gen == cs[i].wgen &&
			    still_pending(seed, r, p))
				show_old(r, p, phys, len, buf);
			continue;
		}
		/* 2. Not yet ordered by a barrier: the device sees it now. */
		if (r->gen == cs[i].wgen && r->gen >= cs[i].s->gen &&
		    (r->gen > cs[i].gen ||
		     (r->gen == cs[i].gen && r->seq > cs[i].seq))) {
			cs[i].gen = r->gen;
			cs[i].seq = r->seq;
			cs[i].phys = p;
			cs[i].site = r->site;
		}
	}
	/* 3. One read sees its words together: any of them stored before
	 * the newest unordered one, in its generation, may be older. */
	for (i = 0; i < n; i++) {
		if (!cs[i].gen)
			continue;
		for (p = start; p < end; p += 1u << WORD_SHIFT) {
			r = rec_of(o, p, false);
			if (!r || r->ctx != cs[i].ctx || r->gen != cs[i].gen ||
			    r->seq >= cs[i].seq)
				continue;
			if (!f->found) {
				f->found = true;
				f->phys = p;
				f->a = *r;
				memset(&f->b, 0, sizeof(f->b));
				f->b.gen = cs[i].gen;
				f->b.seq = cs[i].seq;
				f->b.phys = cs[i].phys;
				f->b.site = cs[i].site;
			}
			if (buffered && r->has_old && still_pending(seed, r, p))
				show_old(r, p, phys, len, buf);
		}
	}
	for (i = 0; i < n; i++) {
		struct seen *s = cs[i].s;

		if (!s || !cs[i].gen)
			continue;
		if (cs[i].gen > s->gen ||
		    (cs[i].gen == s->gen && cs[i].seq > s->seq)) {
			s->gen = cs[i].gen;
			s->seq = cs[i].seq;
			s->phys = cs[i].phys;
			s->site = cs[i].site;
			s->doorbell = false;
		}
	}
}

void dmaemu__order_device_before(struct dmaemu_machine *m, uint64_t phys,
				 size_t len, bool write)
{
	struct dmaemu__order *o = m->cpu ? m->cpu->order : NULL;
	uint64_t p, end = phys + len;
	uint8_t w[4];
	struct orec *r;

	if (!o || !len || !dmaemu__order_tracked(m, phys))
		return;
	swaps_settle(m, o, 0);
	if (!write)
		return;
	dmaemu__lock(&o->lock);
	p = phys & ~(uint64_t)((1u << WORD_SHIFT) - 1);
	for (; p < end; p += 1u << WORD_SHIFT) {
		r = rec_of(o, p, true);
		if (!r)
			continue;
		r->has_dold = !dmaemu__mem_read(m, p, w, sizeof(w));
		if (r->has_dold)
			memcpy(&r->dold, w, sizeof(w));
	}
	dmaemu__unlock(&o->lock);
}

void dmaemu__order_device(struct dmaemu_machine *m, const void *dev,
			  const char *name, uint64_t dma, uint64_t phys,
			  void *buf, size_t len, bool write)
{
	struct dmaemu__order *o = m->cpu ? m->cpu->order : NULL;
	struct finding f;
	uint64_t p, end = phys + len, seq;
	struct orec *r;

	if (!o || !len || !dmaemu__order_tracked(m, phys))
		return;
	f.found = false;
	if (write) {
		seq = tick();
		dmaemu__lock(&o->lock);
		p = phys & ~(uint64_t)((1u << WORD_SHIFT) - 1);
		for (; p < end; p += 1u << WORD_SHIFT) {
			r = rec_of(o, p, true);
			if (!r)
				continue;
			r->ctx = 0;
			r->dseq = seq;
			r->dwrites++;
		}
		dmaemu__unlock(&o->lock);
		return;
	}
	dmaemu__lock(&o->lock);
	device_read(o, dev, phys, len, buf,
		    m->opt.profile != DMAEMU__PROFILE_X86, m->opt.seed, &f);
	dmaemu__unlock(&o->lock);
	if (f.found)
		report_write(m, name, dma, len, f.phys, &f.a, &f.b);
}
