// SPDX-License-Identifier: MIT
/*
 * cpu.c - how CPU accesses reach the model.
 *
 * How it works.  Every load and store of instrumented driver code calls a
 * hook (kasan.c for Clang's code, tsan.c for GCC's) *before* it happens,
 * and memcpy & co. of instrumented code are routed here too
 * (memintrin.c).  An access goes through three
 * stages, each cheaper than the next and taken far more often:
 *
 *   1. span check    outside every machine's reservation (stack, globals,
 *                    malloc): two compares against dmaemu__span_lo/hi.
 *   2. fast path     lock-free: the access falls inside one of the lines
 *                    this thread touched lately (a direct-mapped table
 *                    of them) or the uncached view of the bank, and
 *                    nothing changed since: count it, done.
 *   3. slow path     classify the address, take the cache lock, drive
 *                    the cache model and the data model:
 *
 *      region     load                         store
 *      LINEAR     miss: fill the line first;   miss: fill first (write-
 *                 hit: device-changed bytes    allocate); mark the line
 *                 read = stale-cpu-read        dirty in the model
 *      UNCACHED   nothing (MEM is the data)    nothing
 *      WC         nothing (reads MEM; the      the buffer saves what the
 *                 CPU sees its own pending     device still sees (wc.c)
 *                 bytes: store forwarding)
 *      NOMAP      no-kernel-mapping-access report, then the access faults
 *      MMIO       mmio-access report (plain access), then it faults
 *      VMALLOC    as LINEAR, for the page vmalloc() mapped there (the
 *                 same CPU copy through a second host mapping)
 *
 * A line the model does not hold but whose CPU copy has dirty bytes was
 * written by uninstrumented code (or by a store the compiler folded into a
 * preceding load's check): such lines behave as always resident
 * (docs/model.md, way 3), so they are not refilled and a load of their device-changed bytes
 * is a stale read.
 *
 * The fast path.  Taking the cache lock on every access would cost far
 * more than the access, so each thread keeps a table of the lines it
 * touched through the model (struct dmaemu__tstats, cpu.h), each marked
 * with the value of the global generation counter dmaemu__mem_gen when
 * its entry was made.  The slow path only makes an entry for a line that
 * is resident and has no device-changed byte.  Every event that could
 * make many entries wrong bumps the generation: a line operation
 * (lineops.c), a device write, a prefetch, a map, a machine being
 * destroyed.  A cache miss does not: the lines its fill evicts leave
 * every thread's table through the model's eviction hook.  An entry whose
 * generation still matches therefore describes a resident line whose
 * loads read what memory holds, and the hit only needs counting.  Stores
 * take the fast path only once the model holds the line dirty.
 *
 * The generation is read before the line's masks are examined, and writers
 * bump it after changing the data, so a device write racing with the slow
 * path either shows up in the masks or invalidates the entry.
 *
 * Replacement order stays exact: a fast hit on a line other than the one
 * touched last is stamped and queued, and the thread's next slow-path
 * visit replays the queued lines into the model in the order of their
 * last hit before the model does anything else for it (cpu.h), which is
 * all LRU and PLRU depend on.  Fast hits are counted per thread and
 * folded into the statistics when they are queried: they are L1 hits of
 * reads or writes.
 *
 * Under Helgrind and DRD, the words only ever accessed with atomics (the
 * generation, the span, counters) are marked as such, since those tools do
 * not model atomics.  Happens-before annotations would be wrong here: they
 * would create synchronisation between device threads and the driver that
 * the driver does not have, hiding the driver's own races.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu.h"
#include "dmaemu/cpu.h"

__thread struct dmaemu__cpu_tls dmaemu__tls;

static uint64_t machine_ids; /* atomic */

/*
 * An MMIO window: [off, off + size) of the machine's MMIO cookie window,
 * sorted by offset.
 */
struct dmaemu__mmio_map {
	uint64_t off, size;
	const struct dmaemu__mmio_ops *ops;
	void *priv;
	struct dmaemu__mmio_map *next;
};

int dmaemu__cpu_init(struct dmaemu_machine *m)
{
	struct dmaemu__cpu *c;

	c = dmaemu__calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->id = __atomic_add_fetch(&machine_ids, 1, __ATOMIC_RELAXED);
	/* xorshift needs a nonzero state; any seed, 0 included, is valid. */
	c->pf_rng = m->opt.seed ^ 0x9e3779b97f4a7c15ULL;
	if (!c->pf_rng)
		c->pf_rng = 1;
	dmaemu__vg_atomic(&c->fills,
			  offsetof(struct dmaemu__cpu, tstats) -
				  offsetof(struct dmaemu__cpu, fills));
	m->cpu = c;
	if (dmaemu__owncheck_init(m)) {
		dmaemu__free(c);
		m->cpu = NULL;
		return -ENOMEM;
	}
	if (dmaemu__order_init(m)) {
		dmaemu__owncheck_fini(m);
		dmaemu__free(c);
		m->cpu = NULL;
		return -ENOMEM;
	}
	return 0;
}

void dmaemu__cpu_fini(struct dmaemu_machine *m)
{
	struct dmaemu__cpu *c = m->cpu;
	struct dmaemu__tstats *ts, *tn;
	struct dmaemu__mmio_map *mm, *mn;

	if (!c)
		return;
	/* Entries of any thread may point into this machine: drop them. */
	dmaemu__mem_changed();
	dmaemu__owncheck_fini(m);
	dmaemu__order_fini(m);
	for (ts = c->tstats; ts; ts = tn) {
		tn = ts->next;
		dmaemu__free(ts);
	}
	for (mm = c->mmio; mm; mm = mn) {
		mn = mm->next;
		dmaemu__free(mm);
	}
	dmaemu__prefetch_fini(m);
	dmaemu__free(c);
	m->cpu = NULL;
}

/* ---------------------------------------------------------------------- */
/* The slow path                                                          */
/* ---------------------------------------------------------------------- */

/*
 * Make this thread's entries belong to @m (cache lock held): its counter
 * block, its prefetch countdown.  Without a counter block (no memory) the
 * thread simply never takes the fast path for @m.
 */
static void tls_bind(struct dmaemu_machine *m)
{
	struct dmaemu__cpu_tls *t = &dmaemu__tls;
	struct dmaemu__cpu *c = m->cpu;
	struct dmaemu__tstats *ts;
	pthread_t self = pthread_self();

	if (t->ts_id == c->id && t->ts)
		return;
	/* dmaemu__mem_gen starts at 1: no entry is valid until one is made
	 * for this machine. */
	t->gen = 0;
	t->mru = DMAEMU__FAST_LINES;
	t->shift = m->line_shift;
	t->unc_len = 0;
	for (ts = c->tstats; ts; ts = ts->next)
		if (pthread_equal(ts->owner, self))
			break;
	if (!ts) {
		ts = dmaemu__calloc(1, sizeof(*ts));
		if (ts) {
			ts->owner = self;
			ts->next = c->tstats;
			c->tstats = ts;
			dmaemu__vg_atomic(
				ts, offsetof(struct dmaemu__tstats, owner));
		}
	}
	t->ts = ts;
	t->ts_id = c->id;
	t->pf_left =
		m->opt.prefetch ? dmaemu__prefetch_interval(m) : UINT64_MAX;
}

/*
 * Tell the model of this thread's fast hits on lines other than the one
 * it touched last, in the order of their last hit (cpu.h: the victims stay
 * those of a model told of every access).  Cache lock held, bound.
 */
static __attribute__((noinline)) void fast_replay(struct dmaemu_machine *m,
						  struct dmaemu__tstats *ts)
{
	unsigned int i, j, n = ts->npend;

	/* Insertion sort by stamp: a handful of entries, nearly sorted. */
	for (i = 1; i < n; i++) {
		uint16_t e = ts->pend[i];

		for (j = i; j > 0 && ts->stamp[ts->pend[j - 1]] > ts->stamp[e];
		     j--)
			ts->pend[j] = ts->pend[j - 1];
		ts->pend[j] = e;
	}
	for (i = 0; i < n; i++)
		cachesim_touch(m->cache, ts->lp[ts->pend[i]]);
	ts->npend = 0;
	ts->replayed = ts->clock;
	/* The model now knows the last line touched as its last one. */
}

/*
 * A fast-path entry for the line at host address @line (physical @lp),
 * made in generation @gen: its loads need no slow path, nor its stores
 * when @dirty.  Cache lock held, bound.
 */
static void fast_enter(struct dmaemu_machine *m, uintptr_t line, uint64_t lp,
		       bool dirty, bool alias, uint64_t gen)
{
	struct dmaemu__cpu_tls *t = &dmaemu__tls;
	struct dmaemu__tstats *ts = t->ts;
	unsigned int i;

	if (!ts)
		return;
	i = (unsigned int)(line >> m->line_shift) & (DMAEMU__FAST_LINES - 1);
	/* The generation first: the tag is compared before it. */
	__atomic_store_n(&ts->ent[i].gen, gen, __ATOMIC_RELAXED);
	__atomic_store_n(&ts->ent[i].tag,
			 line | (dirty ? DMAEMU__FAST_DIRTY : 0),
			 __ATOMIC_RELAXED);
	ts->lp[i] = lp;
	ts->stamp[i] = 0;
	if (alias)
		ts->alias_gen = gen;
	/* The access that made it was the model's last one. */
	t->mru = i;
	t->gen = gen;
}

/* No entry for the line at host address @line: the access that came here
 * must come back (cache lock held, bound). */
static void fast_drop(struct dmaemu_machine *m, uintptr_t line)
{
	struct dmaemu__cpu_tls *t = &dmaemu__tls;
	struct dmaemu__tstats *ts = t->ts;
	unsigned int i = (unsigned int)(line >> m->line_shift) &
			 (DMAEMU__FAST_LINES - 1);

	t->mru = DMAEMU__FAST_LINES;
	if (ts && (__atomic_load_n(&ts->ent[i].tag, __ATOMIC_RELAXED) &
		   ~(uintptr_t)DMAEMU__FAST_DIRTY) == line)
		__atomic_store_n(&ts->ent[i].tag, 0, __ATOMIC_RELAXED);
}

void dmaemu__cpu_evicted(struct dmaemu_machine *m, uint64_t lp)
{
	uintptr_t line = (uintptr_t)dmaemu__phys_cpu(m, lp);
	unsigned int i = (unsigned int)(line >> m->line_shift) &
			 (DMAEMU__FAST_LINES - 1);
	uint64_t gen = __atomic_load_n(&dmaemu__mem_gen, __ATOMIC_ACQUIRE);
	struct dmaemu__tstats *ts;
	unsigned int k;

	if (!line || !m->cpu)
		return;
	for (ts = m->cpu->tstats; ts; ts = ts->next) {
		if ((__atomic_load_n(&ts->ent[i].tag, __ATOMIC_RELAXED) &
		     ~(uintptr_t)DMAEMU__FAST_DIRTY) == line)
			__atomic_store_n(&ts->ent[i].tag, 0, __ATOMIC_RELAXED);
		if (ts->alias_gen != gen)
			continue;
		/* A vmalloc view of the line sits at another index. */
		for (k = 0; k < DMAEMU__FAST_LINES; k++)
			if (ts->lp[k] == lp)
				__atomic_store_n(&ts->ent[k].tag, 0,
						 __ATOMIC_RELAXED);
	}
}

/*
 * cachesim's eviction hook: the fast paths forget the line, then the data
 * model writes it back (lineops.c).  Line operations (in_maint) bump the
 * generation instead, once for the whole range.
 */
static void evict_hook(void *ctx, unsigned int level, uint64_t addr, bool dirty,
		       bool last)
{
	struct dmaemu_machine *m = ctx;

	if (!m->in_maint)
		dmaemu__cpu_evicted(m, addr & ~((uint64_t)m->line - 1));
	dmaemu__evict_hook(ctx, level, addr, dirty, last);
}

void dmaemu__cpu_set_evict_hook(struct dmaemu_machine *m)
{
	cachesim_set_evict_hook(m->cache, evict_hook, m);
}

/* One more access of this thread to @m (cache lock held, bound): the
 * replay of its fast hits, then the prefetcher's turn. */
static inline void tick(struct dmaemu_machine *m)
{
	struct dmaemu__cpu_tls *t = &dmaemu__tls;

	if (t->ts && t->ts->npend)
		fast_replay(m, t->ts);
	if (--t->pf_left == 0) {
		dmaemu__prefetch_fire(m);
		t->pf_left = dmaemu__prefetch_interval(m);
	}
}

static bool resident(struct dmaemu_machine *m, uint64_t lp)
{
	unsigned int l, n = cachesim_levels(m->cache);

	for (l = 0; l < n; l++)
		if (cachesim_resident(m->cache, l, lp))
			return true;
	return false;
}

bool dmaemu__cpu_resident(struct dmaemu_machine *m, uint64_t phys)
{
	bool r;

	dmaemu__lock(&m->cache_lock);
	r = resident(m, phys & ~((uint64_t)m->line - 1));
	dmaemu__unlock(&m->cache_lock);
	return r;
}

bool dmaemu__cpu_model_dirty(struct dmaemu_machine *m, uint64_t phys)
{
	uint64_t lp = phys & ~((uint64_t)m->line - 1);
	unsigned int l, n;
	bool d = false;

	dmaemu__lock(&m->cache_lock);
	n = cachesim_levels(m->cache);
	for (l = 0; l < n && !d; l++)
		d = cachesim_dirty(m->cache, l, lp);
	dmaemu__unlock(&m->cache_lock);
	return d;
}

/* Keep bits [lo, hi) of @mask, clear the others; return whether any is
 * left. */
static bool mask_clip(uint64_t *mask, unsigned int lo, unsigned int hi)
{
	unsigned int i;
	bool any = false;

	for (i = 0; i < DMAEMU__MASK_WORDS; i++) {
		unsigned int wlo = i * 64, whi = wlo + 64, a, b;
		uint64_t keep;

		a = lo > wlo ? lo : wlo;
		b = hi < whi ? hi : whi;
		if (a >= b)
			keep = 0;
		else if (b - a == 64)
			keep = ~0ULL;
		else
			keep = ((1ULL << (b - a)) - 1) << (a - wlo);
		mask[i] &= keep;
		any |= mask[i] != 0;
	}
	return any;
}

/* Note a stale read of the bytes @stale of line @lp (under the model's
 * locks); report_stale() reports it once they are released. */
static void note_stale(struct dmaemu_machine *m, uint64_t lp, uint64_t phys,
		       size_t len, const uint64_t *stale,
		       struct dmaemu__own_acc *acc)
{
	const uint8_t *cpu, *mem;
	unsigned int i;

	/* The access reads stale data: that report says the buffer was not
	 * given back, the ownership one would say it again. */
	acc->stale = true;
	acc->stale_due = true;
	acc->stale_lp = lp;
	acc->stale_phys = phys;
	acc->stale_len = len;
	memcpy(acc->stale_mask, stale, sizeof(acc->stale_mask));
	/* The values, while the stripe lock keeps them still. */
	for (i = 0; i < m->line && !((stale[i / 64] >> (i % 64)) & 1); i++)
		;
	cpu = dmaemu__phys_view(m, lp, DMAEMU__REGION_LINEAR);
	mem = dmaemu__phys_view(m, lp, DMAEMU__REGION_UNCACHED);
	memset(acc->stale_val, 0, sizeof(acc->stale_val));
	if (cpu && mem && i < m->line) {
		unsigned int n = m->line - i < DMAEMU__REPORT_VALS
					 ? m->line - i
					 : DMAEMU__REPORT_VALS;

		memcpy(acc->stale_val[0], cpu + i, n);
		memcpy(acc->stale_val[1], mem + i, n);
	}
}

/*
 * The stale read noted in @acc, with no lock of the machine held: the
 * report names the live mapping holding the bytes, where it was made and
 * the device's last access to it.
 */
static void report_stale(struct dmaemu_machine *m, uintptr_t host,
			 struct dmaemu__own_acc *acc)
{
	const uint64_t *stale = acc->stale_mask;
	struct dmaemu__report_info r;
	struct dmaemu__owner_info o;
	unsigned int i, first = m->line, n = 0;
	uint64_t lp = acc->stale_lp;
	size_t len = acc->stale_len;
	char mapping[600] = "";

	acc->stale_due = false;
	for (i = 0; i < m->line; i++) {
		if ((stale[i / 64] >> (i % 64)) & 1) {
			if (first == m->line)
				first = i;
			n++;
		}
	}
	memset(&r, 0, sizeof(r));
	r.kind = DMAEMU_REPORT_STALE_CPU_READ;
	r.phys = lp + first;
	r.size = n;
	r.mask = stale;
	r.mask_bits = m->line;
	r.nval = m->line - first < DMAEMU__REPORT_VALS ? m->line - first
						       : DMAEMU__REPORT_VALS;
	memcpy(r.val, acc->stale_val, sizeof(r.val));
	r.val_name[0] = "the CPU read";
	r.val_name[1] = "memory holds";
	if (dmaemu__owner_find(m, lp + first, lp + m->line, &o)) {
		char last[160] = "";

		dmaemu__owner_report_fields(&o, &r);
		if (o.last_valid)
			snprintf(last, sizeof(last),
				 "; the device's last access to it: %s of "
				 "%zu bytes at dma 0x%llx",
				 o.last_write ? "write" : "read", o.last_len,
				 (unsigned long long)o.last_dma);
		snprintf(mapping, sizeof(mapping),
			 "\n    %s's %s %s mapping dma 0x%llx, %zu bytes, made "
			 "by %s%s",
			 o.device, o.dir_name,
			 o.sg ? "scatterlist" : "streaming",
			 (unsigned long long)o.dma, o.size,
			 dmaemu__owner_made_at(&o), last);
	}
	dmaemu__report(m, &r,
		       "read of %zu byte%s at %p (phys 0x%llx): %u byte%s of "
		       "the CPU's cached copy of line 0x%llx differ from "
		       "memory, changed since the copy was taken; the CPU "
		       "reads its stale copy (invalidate the line first: "
		       "dma_sync_*_for_cpu() or unmap)%s",
		       len, len == 1 ? "" : "s", (void *)host,
		       (unsigned long long)acc->stale_phys, n,
		       n == 1 ? "" : "s", (unsigned long long)lp, mapping);
}

/*
 * The trace event of a line the model filled (group cache): @lvl is the
 * level that had it (cachesim_access()), the number of levels for memory.
 */
void dmaemu__trace_fill(struct dmaemu_machine *m, uint64_t lp, unsigned int lvl,
			bool prefetch)
{
	dmaemu__trace(m, DMAEMU__TRACE_CACHE, "cache_fill",
		      "line=0x%" PRIx64 " from=%s%s", lp,
		      lvl < cachesim_levels(m->cache)
			      ? cachesim_level_config(m->cache, lvl)->name
			      : "mem",
		      prefetch ? " prefetch=1" : "");
}

/* What linear_access() found about a fast-path entry for its line. */
struct fast_cand {
	uintptr_t line; /* host address of the line */
	uint64_t lp;	/* its physical address */
	uint64_t gen;	/* the generation read before the data */
	bool ok, dirty; /* an entry may be made; for stores too */
};

/*
 * A cacheable access of @len bytes at @phys (one line), linear-map address
 * @host.  Cache lock held, thread bound to @m.  Return: the line's
 * ownership byte (mem.h), read after the generation so that a fast-path
 * entry made here cannot outlive a map that moved the line.
 */
static uint8_t linear_access(struct dmaemu_machine *m, uint64_t phys,
			     uintptr_t host, size_t len, bool store,
			     struct dmaemu__own_acc *acc, struct fast_cand *fc)
{
	struct dmaemu__cpu *c = m->cpu;
	uint64_t lp = phys & ~((uint64_t)m->line - 1);
	uint64_t dirty[DMAEMU__MASK_WORDS], changed[DMAEMU__MASK_WORDS];
	unsigned int off = (unsigned int)(phys - lp), lvl;
	unsigned int v =
		(unsigned int)(lp >> m->line_shift) % DMAEMU__NVERIFIED;
	bool was, any_changed = false;
	bool coherence = dmaemu__checks_on(m, DMAEMU__CHECK_COHERENCE);
	uint64_t gen, dgen;
	pthread_mutex_t *stripe;
	uint8_t own;

	/* 1. The cache model: lookup, replacement, statistics. */
	lvl = cachesim_access(m->cache, phys, (unsigned int)len,
			      store ? CACHESIM_WRITE : CACHESIM_READ);
	was = lvl < cachesim_levels(m->cache);
	/* A miss needs no new generation: the lines it evicts leave every
	 * fast path through the eviction hook. */
	if (lvl != 0 &&
	    __builtin_expect(dmaemu__tracing(m, DMAEMU__TRACE_CACHE), 0))
		dmaemu__trace_fill(m, lp, lvl, false);
	if (store) {
		/* What a lost-write report of the line will name. */
		const struct dmaemu__call *call = dmaemu__call_current();

		dmaemu__store_site_note(m, lp, call ? call->caller : NULL);
	}
	/* 2. Before looking at the data (see "The fast path" above). */
	gen = __atomic_load_n(&dmaemu__mem_gen, __ATOMIC_ACQUIRE);
	dgen = __atomic_load_n(&dmaemu__mem_dgen, __ATOMIC_ACQUIRE);
	/* checks=-coherence: no ownership check, so no byte to read (and
	 * any line may have a fast-path entry). */
	own = coherence ? dmaemu__owner_byte(m, phys) : 0;
	/* A store into a line a mapping holds, while the CPU owns it: the
	 * bytes a later invalidating handover would throw away. */
	if (store && (own >> DMAEMU__OWN_HOLD_SHIFT) &&
	    !(own & DMAEMU__OWN_DEVICE)) {
		const struct dmaemu__call *call = dmaemu__call_current();

		dmaemu__owner_store_note(m, phys, len,
					 call ? call->caller : NULL);
	}

	/* 3. The data model, unless this resident line was found clean
	 *    and no data changed anywhere since. */
	if (!was || c->verified[v].line != lp + 1 ||
	    c->verified[v].dgen != dgen) {
		stripe = dmaemu__stripe_of(m, lp);
		dmaemu__lock(stripe);
		dmaemu__racy_line_begin((const void *)(host - off), m->line);
		dmaemu__line_masks(m, lp, dirty, changed);
		any_changed = dmaemu__mask_any(changed);
		if (!was && !dmaemu__mask_any(dirty)) {
			if (any_changed)
				dmaemu__line_fill(m, lp);
			any_changed = false;
			__atomic_fetch_add(&c->fills, 1, __ATOMIC_RELAXED);
		} else if (!store && any_changed &&
			   mask_clip(changed, off, off + (unsigned int)len)) {
			if (coherence) {
				__atomic_fetch_add(&c->stale_reads, 1,
						   __ATOMIC_RELAXED);
				note_stale(m, lp, phys, len, changed, acc);
			}
			dmaemu__mem_vg_seen(m, lp, changed);
		}
		dmaemu__racy_line_end((const void *)(host - off), m->line);
		dmaemu__unlock(stripe);
		if (!any_changed) {
			c->verified[v].line = lp + 1;
			c->verified[v].dgen = dgen;
		}
	}

	/* 4. The fast-path entry, for a line whose loads read memory and
	 *    that the CPU owns; a line only DMA_TO_DEVICE mappings hold gets
	 *    one for loads (stores come back here to be checked).  A map
	 *    bumps the generation: no entry outlives the CPU's ownership.
	 *    The caller makes it (or not, for an ordered access). */
	fc->line = host - off;
	fc->lp = lp;
	fc->gen = gen;
	fc->ok = !any_changed &&
		 (!(own & DMAEMU__OWN_DEVICE) || (own & DMAEMU__OWN_READ_OK));
	/* Stores into a held line come back here to be noted. */
	fc->dirty = fc->ok && !(own & DMAEMU__OWN_DEVICE) &&
		    !(own >> DMAEMU__OWN_HOLD_SHIFT) &&
		    (store || cachesim_dirty(m->cache, 0, lp));
	return own;
}

/* Bytes from @phys to the end of its line, at most @len. */
static size_t line_part(const struct dmaemu_machine *m, uint64_t phys,
			size_t len)
{
	size_t n = m->line - (size_t)(phys & (m->line - 1));

	return n < len ? n : len;
}

static void report_bad(struct dmaemu_machine *m, enum dmaemu_report_kind kind,
		       uintptr_t addr, size_t len, bool store, uint64_t phys)
{
	__atomic_fetch_add(&m->cpu->bad_accesses, 1, __ATOMIC_RELAXED);
	if (kind == DMAEMU_REPORT_NO_KERNEL_MAPPING_ACCESS) {
		dmaemu__reportf(m, kind, phys, len,
				"%s of %zu byte%s at %p: a DMA_ATTR_NO_KERNEL_"
				"MAPPING buffer (phys 0x%llx) has no kernel "
				"mapping; the cookie is only for "
				"dma_mmap_attrs() and dma_free_attrs()",
				store ? "write" : "read", len,
				len == 1 ? "" : "s", (void *)addr,
				(unsigned long long)phys);
	} else {
		dmaemu__reportf(m, kind, 0, len,
				"plain %s of %zu byte%s at %p, offset 0x%llx "
				"of the MMIO window: registers are accessed "
				"with readl()/writel() and friends",
				store ? "write" : "read", len,
				len == 1 ? "" : "s", (void *)addr,
				(unsigned long long)phys);
	}
}

/* The driver's line of the access being handled, or NULL. */
static const void *site_now(void)
{
	const struct dmaemu__call *c = dmaemu__call_current();

	return c ? c->caller : NULL;
}

/*
 * Handle the part of the access at @addr that lies in one line or one
 * region; device-owned bytes it touches are noted in @acc.  Return: the
 * bytes handled (at least 1).
 */
static size_t slow_part(uintptr_t addr, size_t len, bool store,
			struct dmaemu__own_acc *acc)
{
	struct dmaemu__cpu_tls *t = &dmaemu__tls;
	struct dmaemu__where w;
	struct dmaemu_machine *m;
	struct fast_cand fc;
	size_t n, done, page;
	bool ordered;
	uint8_t own;

	if (!dmaemu__classify((const void *)addr, &w)) {
		/* Views and guards are page-aligned. */
		n = DMAEMU__PAGE_SIZE - (addr & (DMAEMU__PAGE_SIZE - 1));
		return n < len ? n : len;
	}
	m = w.m;
	switch (w.region) {
	case DMAEMU__REGION_LINEAR:
	case DMAEMU__REGION_VMALLOC:
		/* A vmalloc address is a second view of the CPU copy, page
		 * by page; lines never cross pages, so the line behind it is
		 * modelled as through the linear map. */
		dmaemu__lock(&m->cache_lock);
		tls_bind(m);
		/* x86 coherent memory is cacheable: every access of it must
		 * come back here to be ordered.  Tracking is by page. */
		ordered = dmaemu__order_tracked(m, w.phys);
		/*
		 * The lines of the range in this page, under one hold of the
		 * lock, each as if it came alone: lines the fast path holds
		 * are its hits, the others go through the model.  The batch
		 * ends at the first line with something to do once the lock
		 * is released (a stale read to report, a device-owned line to
		 * check, an ordered access), which is then the last one.
		 */
		page = DMAEMU__PAGE_SIZE - (w.phys & (DMAEMU__PAGE_SIZE - 1));
		page = page < len ? page : len;
		done = 0;
		for (;;) {
			n = line_part(m, w.phys + done, page - done);
			tick(m);
			own = linear_access(m, w.phys + done, addr + done, n,
					    store, acc, &fc);
			if (fc.ok && !ordered)
				fast_enter(m, fc.line, fc.lp, fc.dirty,
					   w.region == DMAEMU__REGION_VMALLOC,
					   fc.gen);
			else
				fast_drop(m, fc.line);
			if (ordered || acc->stale_due ||
			    (own & DMAEMU__OWN_DEVICE))
				break;
			done += n;
			while (done < page) {
				size_t k = line_part(m, w.phys + done,
						     page - done);

				if (!dmaemu__cpu_fast(addr + done, k, store))
					break;
				done += k;
			}
			if (done == page) {
				dmaemu__unlock(&m->cache_lock);
				return done;
			}
		}
		dmaemu__unlock(&m->cache_lock);
		if (acc->stale_due)
			report_stale(m, addr + done, acc);
		if (ordered)
			dmaemu__order_cpu(m, w.phys + done, n, store, false,
					  site_now(), &acc->oseq);
		if (!acc->kernel)
			dmaemu__own_check(acc, m, w.phys + done, n, store, own);
		return done + n;
	case DMAEMU__REGION_UNCACHED:
		n = w.bank->size - (w.phys - w.bank->phys);
		n = n < len ? n : len;
		dmaemu__lock(&m->cache_lock);
		tls_bind(m);
		tick(m);
		__atomic_fetch_add(&m->cpu->uncached, 1, __ATOMIC_RELAXED);
		/* ordering=weak: every access of coherent memory is ordered
		 * here, none takes the fast path. */
		ordered = dmaemu__order_weak(m);
		if (t->ts && !ordered) {
			t->unc = (uintptr_t)w.bank->mem;
			t->unc_len = w.bank->size;
			t->unc_gen = __atomic_load_n(&dmaemu__mem_gen,
						     __ATOMIC_ACQUIRE);
		}
		dmaemu__unlock(&m->cache_lock);
		if (ordered)
			dmaemu__order_cpu(m, w.phys, n, store,
					  m->opt.profile != DMAEMU__PROFILE_X86,
					  site_now(), &acc->oseq);
		return n;
	case DMAEMU__REGION_WC:
		n = line_part(m, w.phys, len);
		dmaemu__lock(&m->cache_lock);
		tls_bind(m);
		tick(m);
		dmaemu__unlock(&m->cache_lock);
		if (store) {
			__atomic_fetch_add(&m->cpu->wc_stores, 1,
					   __ATOMIC_RELAXED);
			dmaemu__wc_store(m, w.phys, n);
		} else {
			__atomic_fetch_add(&m->cpu->wc_loads, 1,
					   __ATOMIC_RELAXED);
		}
		dmaemu__order_cpu(m, w.phys, n, store, false, site_now(),
				  &acc->oseq);
		return n;
	case DMAEMU__REGION_NOMAP:
		report_bad(m, DMAEMU_REPORT_NO_KERNEL_MAPPING_ACCESS, addr, len,
			   store, w.phys);
		return len;
	case DMAEMU__REGION_MMIO:
		report_bad(m, DMAEMU_REPORT_MMIO_ACCESS, addr, len, store,
			   w.phys);
		return len;
	default:
		/* TWIN is never handed out; nothing to model. */
		n = w.bank ? w.bank->size - (w.phys - w.bank->phys) : len;
		return n < len ? n : len;
	}
}

void dmaemu__cpu_slow(uintptr_t addr, size_t size, bool store, const void *site)
{
	struct dmaemu__own_acc acc;
	struct dmaemu__call call;

	acc.n = 0;
	acc.oseq = 0;
	acc.stale = false;
	acc.kernel = false;
	acc.stale_due = false;
	acc.host = addr;
	acc.len = size;
	if (site)
		dmaemu__call_enter(&call, NULL, site);
	while (size) {
		size_t n = slow_part(addr, size, store, &acc);

		addr += n;
		size -= n;
	}
	if (acc.n)
		dmaemu__own_flush(&acc);
	if (site)
		dmaemu__call_leave(&call);
}

/* The part of [@a, @a + @n) a fast-path entry could cover: up to the end
 * of @a's line (of the uncached view's bank when @a lies in it). */
static size_t entry_part(uintptr_t a, size_t n)
{
	struct dmaemu__cpu_tls *t = &dmaemu__tls;
	uintptr_t len = (uintptr_t)1 << t->shift, off = a - t->unc;

	if (off < t->unc_len)
		len = t->unc_len - off;
	else
		len -= a & (len - 1);
	return len < n ? len : n;
}

/* dmaemu__cpu_range_at(); @kernel: the kernel's own copy (no ownership
 * check). */
static void range_access(const void *addr, size_t len, bool store,
			 const void *site, bool kernel)
{
	uintptr_t a = (uintptr_t)addr, end = a + len;
	uintptr_t lo = __atomic_load_n(&dmaemu__span_lo, __ATOMIC_RELAXED);
	uintptr_t hi = __atomic_load_n(&dmaemu__span_hi, __ATOMIC_RELAXED);
	struct dmaemu__own_acc acc;
	struct dmaemu__call call;

	if (!len)
		return;
	if (end < a)
		end = UINTPTR_MAX;
	if (end <= lo || a >= hi)
		return;
	if (a < lo)
		a = lo;
	if (end > hi)
		end = hi;
	acc.n = 0;
	acc.oseq = 0;
	acc.stale = false;
	acc.kernel = kernel;
	acc.stale_due = false;
	acc.host = (uintptr_t)addr;
	acc.len = len;
	if (site)
		dmaemu__call_enter(&call, NULL, site);
	while (a < end) {
		size_t n = end - a, k;

		k = dmaemu__tls.shift ? entry_part(a, n) : 0;
		if (k && dmaemu__cpu_fast(a, k, store)) {
			a += k;
			continue;
		}
		a += slow_part(a, n, store, &acc);
	}
	/* One report for the whole range (an 8 KiB memcpy is one access). */
	if (acc.n)
		dmaemu__own_flush(&acc);
	if (site)
		dmaemu__call_leave(&call);
}

void dmaemu__cpu_range_at(const void *addr, size_t len, bool store,
			  const void *site)
{
	range_access(addr, len, store, site, false);
}

void dmaemu__cpu_kernel_copy(void *dst, const void *src, size_t len)
{
	range_access(src, len, false, NULL, true);
	range_access(dst, len, true, NULL, true);
	memcpy(dst, src, len);
}

/* ---------------------------------------------------------------------- */
/* Statistics                                                             */
/* ---------------------------------------------------------------------- */

int dmaemu_cpu_stats(struct dmaemu_machine *m, unsigned int level,
		     struct dmaemu_cpu_stats *st)
{
	struct cachesim_stats cs;
	struct dmaemu__cpu *c;
	struct dmaemu__tstats *ts;
	uint64_t lh = 0, sh = 0, unc = 0;

	if (dmaemu__machine_bad(m, "dmaemu_cpu_stats"))
		return -EINVAL;
	if (!m || !st)
		return -EINVAL;
	c = m->cpu;
	memset(st, 0, sizeof(*st));
	dmaemu__lock(&m->cache_lock);
	if (level >= cachesim_levels(m->cache)) {
		dmaemu__unlock(&m->cache_lock);
		return -EINVAL;
	}
	cachesim_stats(m->cache, level, &cs);
	for (ts = c->tstats; ts; ts = ts->next) {
		lh += __atomic_load_n(&ts->load_hits, __ATOMIC_RELAXED);
		sh += __atomic_load_n(&ts->store_hits, __ATOMIC_RELAXED);
		unc += __atomic_load_n(&ts->uncached, __ATOMIC_RELAXED);
	}
	if (level == 0) {
		/* Fast-path hits are L1 hits the simulator never saw. */
		cs.accesses += lh + sh;
		cs.reads += lh;
		cs.writes += sh;
		cs.hits += lh + sh;
		cs.cycles += (lh + sh) *
			     cachesim_level_config(m->cache, 0)->hit_latency;
	}
	st->accesses = cs.accesses;
	st->reads = cs.reads;
	st->writes = cs.writes;
	st->hits = cs.hits;
	st->misses = cs.misses;
	st->read_misses = cs.read_misses;
	st->write_misses = cs.write_misses;
	st->evictions = cs.evictions;
	st->writebacks = cs.writebacks;
	st->cycles = cs.cycles;
	st->maint_ops = cs.maint_ops;
	st->maint_lines = cs.maint_lines;
	st->maint_writebacks = cs.maint_writebacks;
	st->fast_hits = lh + sh;
	st->fills = __atomic_load_n(&c->fills, __ATOMIC_RELAXED);
	st->stale_reads = __atomic_load_n(&c->stale_reads, __ATOMIC_RELAXED);
	st->uncached = unc + __atomic_load_n(&c->uncached, __ATOMIC_RELAXED);
	st->wc_loads = __atomic_load_n(&c->wc_loads, __ATOMIC_RELAXED);
	st->wc_stores = __atomic_load_n(&c->wc_stores, __ATOMIC_RELAXED);
	st->bad_accesses = __atomic_load_n(&c->bad_accesses, __ATOMIC_RELAXED);
	st->prefetches = c->prefetches;
	dmaemu__unlock(&m->cache_lock);
	dmaemu__wc_stats(m, &st->wc_flushes, &st->wc_evictions);
	return 0;
}

/* ---------------------------------------------------------------------- */
/* Explicit accessors                                                     */
/* ---------------------------------------------------------------------- */

void dmaemu_cpu_access(const volatile void *addr, size_t size, int write)
{
	if (size <= 16)
		dmaemu__cpu_hook((uintptr_t)addr, size, write != 0);
	else
		dmaemu__cpu_range_at((const void *)addr, size, write != 0,
				     __builtin_return_address(0));
}

void dmaemu__cpu_stale_fix_slow(const void *src, void *buf, size_t len)
{
	struct dmaemu__where w;

	if (dmaemu__classify(src, &w) && w.bank)
		dmaemu__order_stale_fix(w.phys, buf, len);
	dmaemu__order_stale.n = 0;
}

/*
 * An explicit accessor can refuse what a plain access would fault on:
 * report it (as the plain access would) and fail.
 */
static int refuse_bad(const void *addr, size_t len, bool store,
		      const void *site)
{
	struct dmaemu__where w;
	uintptr_t a = (uintptr_t)addr;
	int i;

	for (i = 0; i < 2; i++) {
		uintptr_t p = i ? a + len - 1 : a;

		if (!dmaemu__classify((const void *)p, &w))
			continue;
		if (w.region == DMAEMU__REGION_NOMAP ||
		    w.region == DMAEMU__REGION_MMIO) {
			dmaemu__cpu_slow(p, 1, store, site);
			return -EFAULT;
		}
	}
	return 0;
}

/*
 * The copy of both accessors.  When both sides would fault, the one the
 * accessor is named for is reported: @dst for a write, @src for a read.
 */
static int cpu_copy(void *dst, const void *src, size_t len, bool write,
		    const void *site)
{
	int ret;

	if (!len)
		return 0;
	if (!dst || !src)
		return -EINVAL;
	ret = write ? refuse_bad(dst, len, true, site)
		    : refuse_bad(src, len, false, site);
	if (!ret)
		ret = write ? refuse_bad(src, len, false, site)
			    : refuse_bad(dst, len, true, site);
	if (ret)
		return ret;
	dmaemu__cpu_range_at(src, len, false, site);
	dmaemu__cpu_range_at(dst, len, true, site);
	memcpy(dst, src, len);
	return 0;
}

/*
 * dmaemu_cpu_read()/dmaemu_cpu_write() with NULL or a range that wraps
 * around the address space: a bad-argument report naming @fn.
 */
static bool copy_bad(const void *dst, const void *src, size_t len,
		     const char *fn)
{
	const char *why = NULL;

	if (!len)
		return false;
	if (!dst || !src)
		why = "NULL buffer";
	else if ((uintptr_t)dst + len < (uintptr_t)dst ||
		 (uintptr_t)src + len < (uintptr_t)src)
		why = "the range wraps around the address space";
	if (!why)
		return false;
	dmaemu__reportf(NULL, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
			"%s(%p, %p, %zu): %s", fn, dst, src, len, why);
	return true;
}

void dmaemu_cpu_read_once(const volatile void *addr, void *res, size_t size)
{
	if (copy_bad(res, (const void *)addr, size, "dmaemu_cpu_read_once")) {
		if (res)
			memset(res, 0, size);
		return;
	}
	dmaemu__order_stale.n = 0;
	if (size <= 16)
		dmaemu__cpu_hook((uintptr_t)addr, size, false);
	else
		dmaemu__cpu_range_at((const void *)addr, size, false,
				     __builtin_return_address(0));
	switch (size) {
	case 1:
		*(uint8_t *)res = __atomic_load_n(
			(const volatile uint8_t *)addr, __ATOMIC_RELAXED);
		break;
	case 2:
		*(uint16_t *)res = __atomic_load_n(
			(const volatile uint16_t *)addr, __ATOMIC_RELAXED);
		break;
	case 4:
		*(uint32_t *)res = __atomic_load_n(
			(const volatile uint32_t *)addr, __ATOMIC_RELAXED);
		break;
	case 8:
		*(uint64_t *)res = __atomic_load_n(
			(const volatile uint64_t *)addr, __ATOMIC_RELAXED);
		break;
	default:
		memcpy(res, (const void *)addr, size);
	}
	dmaemu__cpu_stale_fix((const void *)addr, res, size);
}

int dmaemu__cpu_copy_at(void *dst, const void *src, size_t len, bool write,
			const void *site)
{
	return cpu_copy(dst, src, len, write, site);
}

int dmaemu_cpu_read(void *dst, const void *src, size_t len)
{
	if (copy_bad(dst, src, len, "dmaemu_cpu_read"))
		return -EINVAL;
	return cpu_copy(dst, src, len, false, __builtin_return_address(0));
}

int dmaemu__cpu_copy(void *dst, const void *src, size_t len, bool write,
		     const void *site)
{
	if (copy_bad(dst, src, len,
		     write ? "dmaemu_cpu_write" : "dmaemu_cpu_read"))
		return -EINVAL;
	return cpu_copy(dst, src, len, write, site);
}

int dmaemu_cpu_write(void *dst, const void *src, size_t len)
{
	if (copy_bad(dst, src, len, "dmaemu_cpu_write"))
		return -EINVAL;
	return cpu_copy(dst, src, len, true, __builtin_return_address(0));
}

void dmaemu_cpu_flush_wc(void)
{
	struct dmaemu_machine *m = dmaemu_machine_current();

	if (m)
		dmaemu__wc_flush(m);
}

/* ---------------------------------------------------------------------- */
/* MMIO                                                                   */
/* ---------------------------------------------------------------------- */

void *dmaemu__mmio_map(struct dmaemu_machine *m, size_t size,
		       const struct dmaemu__mmio_ops *ops, void *priv)
{
	struct dmaemu__mmio_map **pp, *mm;
	uint64_t off = 0, len;

	if (!m || !size || !ops || (!ops->read && !ops->write)) {
		errno = EINVAL;
		return NULL;
	}
	len = ((uint64_t)size + DMAEMU__PAGE_SIZE - 1) &
	      ~(uint64_t)(DMAEMU__PAGE_SIZE - 1);
	mm = dmaemu__calloc(1, sizeof(*mm));
	if (!mm) {
		errno = ENOMEM;
		return NULL;
	}
	dmaemu__lock(&m->lock);
	/* First fit between the sorted windows. */
	for (pp = &m->cpu->mmio; *pp; pp = &(*pp)->next) {
		if ((*pp)->off - off >= len)
			break;
		off = (*pp)->off + (*pp)->size;
	}
	if (off > m->mmio_size || m->mmio_size - off < len) {
		dmaemu__unlock(&m->lock);
		dmaemu__free(mm);
		errno = ENOMEM;
		return NULL;
	}
	mm->off = off;
	mm->size = size;
	mm->ops = ops;
	mm->priv = priv;
	mm->next = *pp;
	*pp = mm;
	dmaemu__unlock(&m->lock);
	return m->mmio + off;
}

int dmaemu__mmio_unmap(struct dmaemu_machine *m, void *cookie)
{
	struct dmaemu__mmio_map **pp, *mm;
	uint64_t off = (uint64_t)((uint8_t *)cookie - m->mmio);

	dmaemu__lock(&m->lock);
	for (pp = &m->cpu->mmio; *pp; pp = &(*pp)->next) {
		if ((*pp)->off == off) {
			mm = *pp;
			*pp = mm->next;
			dmaemu__unlock(&m->lock);
			dmaemu__free(mm);
			return 0;
		}
	}
	dmaemu__unlock(&m->lock);
	return -EINVAL;
}

/*
 * The window holding the register at @off.. @off + @size (m->lock is
 * taken and released): copies of its handlers, so that they run unlocked.
 */
static bool mmio_find(struct dmaemu_machine *m, uint64_t off, unsigned int size,
		      struct dmaemu__mmio_map *out)
{
	struct dmaemu__mmio_map *mm;
	bool found = false;

	dmaemu__lock(&m->lock);
	for (mm = m->cpu->mmio; mm; mm = mm->next) {
		if (off >= mm->off && off - mm->off < mm->size &&
		    size <= mm->size - (off - mm->off)) {
			*out = *mm;
			found = true;
			break;
		}
	}
	dmaemu__unlock(&m->lock);
	return found;
}

static bool io_size_ok(unsigned int size)
{
	return size == 1 || size == 2 || size == 4 || size == 8;
}

/*
 * An accessor on the first page of the address space (a NULL register
 * base plus an offset: an ioremap() that failed, unchecked): a
 * bad-argument report, and a read gives all ones, as a bus error does.
 */
static bool io_null(const volatile void *addr, unsigned int size,
		    const char *what)
{
	if ((uintptr_t)addr >= 4096)
		return false;
	dmaemu__reportf(NULL, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
			"MMIO %s of %u bytes at %p: a NULL register base", what,
			size, (const void *)addr);
	return true;
}

/*
 * The device registers a @write (else a read) of @size bytes at @w, in the
 * MMIO window, reaches: true with *@mm set, or false after a report that
 * names @site, the driver's line.
 */
static bool mmio_regs(const struct dmaemu__where *w, unsigned int size,
		      bool write, struct dmaemu__mmio_map *mm, const void *site)
{
	const char *why = NULL;
	struct dmaemu__call acc;

	if (!mmio_find(w->m, w->phys, size, mm))
		why = "no device registers there";
	else if (write ? !mm->ops->write : !mm->ops->read)
		why = write ? "the registers are read-only"
			    : "the registers are write-only";
	if (!why)
		return true;
	dmaemu__call_enter(&acc, NULL, site);
	dmaemu__reportf(w->m, DMAEMU_REPORT_MMIO_ACCESS, 0, size,
			"%s of %u byte%s at offset 0x%llx of the MMIO "
			"window: %s",
			write ? "write" : "read", size, size == 1 ? "" : "s",
			(unsigned long long)w->phys, why);
	dmaemu__call_leave(&acc);
	return false;
}

uint64_t dmaemu_mmio_read(const volatile void *addr, unsigned int size,
			  int relaxed)
{
	struct dmaemu__where w;
	struct dmaemu__mmio_map mm;
	uint64_t v = ~0ULL;

	if (!io_size_ok(size) || io_null(addr, size, "read"))
		return v;
	if (dmaemu__classify((const void *)addr, &w) &&
	    w.region == DMAEMU__REGION_MMIO) {
		if (mmio_regs(&w, size, false, &mm,
			      __builtin_return_address(0)))
			v = mm.ops->read(mm.priv, w.phys - mm.off, size);
	} else {
		/* readl() of memory is a volatile load, through the model. */
		dmaemu__cpu_hook((uintptr_t)addr, size, false);
		switch (size) {
		case 1:
			v = *(const volatile uint8_t *)addr;
			break;
		case 2:
			v = *(const volatile uint16_t *)addr;
			break;
		case 4:
			v = *(const volatile uint32_t *)addr;
			break;
		default:
			v = *(const volatile uint64_t *)addr;
			break;
		}
	}
	if (size < 8)
		v &= (1ULL << (8 * size)) - 1;
	/* readl(): later reads (of DMA memory) wait for this one. */
	if (!relaxed) {
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		dmaemu__order_barrier(DMAEMU_BARRIER_READ);
	}
	return v;
}

/* The register write being handled on this thread (its driver's code). */
static __thread const void *mmio_site
	__attribute__((tls_model("initial-exec")));

const void *dmaemu__mmio_write_site(void)
{
	return mmio_site;
}

void dmaemu_mmio_write(volatile void *addr, uint64_t val, unsigned int size,
		       int relaxed)
{
	struct dmaemu__where w;
	struct dmaemu__mmio_map mm;
	struct dmaemu_machine *m;
	bool mmio;

	if (!io_size_ok(size) || io_null(addr, size, "write"))
		return;
	mmio = dmaemu__classify((const void *)addr, &w) &&
	       w.region == DMAEMU__REGION_MMIO;
	m = w.m ? w.m : dmaemu_machine_current();
	if (!relaxed) {
		/*
		 * writel(): earlier writes to DMA memory reach the device
		 * first.  On arm and arm64 that barrier (wmb) also drains the
		 * write-combining buffers; an x86 uncached write does not.
		 */
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		if (m && m->opt.profile != DMAEMU__PROFILE_X86)
			dmaemu__wc_flush(m);
		dmaemu__order_barrier(DMAEMU_BARRIER_WRITE);
	}
	if (mmio) {
		if (mmio_regs(&w, size, true, &mm,
			      __builtin_return_address(0))) {
			/* The device sees this write: what came before it
			 * in the same generation is not ordered against it. */
			const void *outer = mmio_site;

			dmaemu__order_doorbell(m, mm.priv,
					       __builtin_return_address(0));
			/* A handler may write registers itself (a model's
			 * reset): the outer write is restored after. */
			mmio_site = __builtin_return_address(0);
			mm.ops->write(mm.priv, w.phys - mm.off, val, size);
			mmio_site = outer;
		}
		return;
	}
	dmaemu__cpu_hook((uintptr_t)addr, size, true);
	switch (size) {
	case 1:
		*(volatile uint8_t *)addr = (uint8_t)val;
		break;
	case 2:
		*(volatile uint16_t *)addr = (uint16_t)val;
		break;
	case 4:
		*(volatile uint32_t *)addr = (uint32_t)val;
		break;
	default:
		*(volatile uint64_t *)addr = val;
		break;
	}
}
