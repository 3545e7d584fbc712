// SPDX-License-Identifier: MIT
/*
 * cachesim.c - tags-only, deterministic multi-level cache simulator.
 *
 * How it works
 * ------------
 * Each level is a set-associative array kept as a struct of arrays, one
 * slot per (set, way), set-major so that the ways of one set are adjacent:
 *
 *      tag[]    line number (addr >> line_shift), or TAG_INVALID
 *      stamp[]  LRU: clock of the last use; FIFO: clock of the fill
 *      dirty[]  1 when written since the fill (write-back levels only)
 *      plru[]   PLRU: one byte per tree node, ways bytes per set
 *
 *      set s:  tag[s*ways + 0] ... tag[s*ways + ways-1]
 *
 * Storing the whole line number as the tag costs a few bits but makes the
 * lookup a single compare per way, and TAG_INVALID can never match a line
 * number because lines are at least 4 bytes.
 *
 * The hot path is cachesim_access() on an L1 hit of one line.  A hint
 * table, indexed by the low bits of the line number, remembers the slot
 * where each line was last found; it is only ever compared, never trusted,
 * so it needs no upkeep.  A hinted hit costs a shift, a mask, one compare,
 * a stamp store and a counter increment; otherwise the set is searched,
 * eight ways at a time without branches.  Everything that can be derived
 * is derived when the statistics are read instead of being counted per
 * access: accesses = reads + writes, hits = accesses - misses, cycles =
 * accesses * hit_latency.
 *
 * Requests and the hierarchy
 * --------------------------
 * The hierarchy is non-inclusive/non-exclusive (as Dinero IV).  A request
 * (address, size, read or write) arrives at a level; every line of the level
 * it touches is looked up, in address order.  It counts one access, and one
 * miss if any line missed.  What a level sends to the next one:
 *
 *  - a fetch (a read request) for each run of consecutive missed lines that
 *    must be filled: read misses, and write misses under write-allocate;
 *  - a write-through (a write request of the original bytes) for every write
 *    under write-through, hit or miss; under no-write-allocate a write miss
 *    sends only this write and allocates nothing;
 *  - a write-back of each dirty victim, as a write request of the whole
 *    victim line.  The next level counts it as an ordinary write access
 *    (it can miss there, allocate and evict in turn), Dinero-style.
 *
 * So the accesses of level N+1 are exactly the fetches, write-throughs and
 * write-backs of level N.  Order of a miss: the fetch goes down first (the
 * lower levels fill), then the victim is chosen and written back, then the
 * line is installed; a write-through follows the fill.  A request that
 * leaves the last level goes to memory.
 *
 * Victims: an invalid way first (lowest index), else by policy: LRU and FIFO
 * take the smallest stamp, PLRU follows the tree bits, RANDOM draws from a
 * per-level splitmix64 stream seeded from the configuration's seed.
 *
 * Cycles: every request costs the hit latency of each level it is looked up
 * in; every request that reaches memory (fetch or write) costs mem_latency.
 *
 * Compulsory misses: a miss counts as compulsory when a missed line was never
 * missed before at that level (a hit implies an earlier miss, so only misses
 * need to look).  The lines seen are kept as a sparse bitmap: an
 * open-addressing hash table from a chunk number (line / 448) to a 448-bit
 * map, key and bits in one 64-byte host line, so dense address ranges cost
 * about one bit per line.  Lookups of single-line misses are queued and
 * done in batches after a prefetch (see struct seen_set), because for a
 * trace spread over gigabytes the table outgrows the host's caches.
 *
 * Maintenance (clean, invalidate, clean+invalidate, flush) visits L1 first,
 * then each lower level, and acts on every resident line overlapping the
 * range.  It cleans to memory: a dirty line written back from level N makes
 * the same address dirty in the first lower write-back level that holds it
 * (it is written back in turn when that level is visited), or goes to memory
 * when none does.  Maintenance is not an access: it only counts maint_* and
 * the memory writes.
 *
 * Finding nothing must be cheap: a buffer handed to a device is often not
 * in the cache at all (written by code the model does not see, or long
 * evicted), and the ways of each of its lines' sets would all be compared.
 * Each level therefore keeps a residency filter, a counting one: a byte per
 * entry, indexed by the low bits of the line number like the hint table,
 * holding how many resident lines map there.  Fills and invalidations keep
 * it exact; an entry of 0 proves that no line mapping there is resident,
 * anything else is checked against the tags.  Consecutive lines use
 * consecutive entries, so a range is skipped eight lines per 64-bit load:
 *
 *      lines     first ...                                    ... last
 *      nres[]  | 0 0 0 0 0 0 0 0 | 0 0 1 0 0 0 0 0 | 0 0 0 0 0 0 0 0 |
 *                  one load:         search the set      one load:
 *                  skip 8            of the third line   skip 8
 *
 * Lines that share an entry lie in one set (the entries are a multiple of
 * the sets), so a count never exceeds the ways; levels with more ways
 * than a byte counts have no filter and always search.
 *
 * Tracked ranges (cachesim_track()): for an address range a user names
 * (a machine's memory banks), each level also keeps two bitmaps in line
 * order, one bit per line: resident, and dirty.  Fills, evictions,
 * invalidations and writes keep them; a clean of the last level with no
 * clean hook inside one range then reads and clears them a word (64
 * lines) at a time, and touches no slot:
 *
 *      res[]    | 1 1 1 1 0 1 ... |     lines += popcount(res & range)
 *      dirty[]  | 1 0 1 1 0 0 ... |     wbs += popcount(dirty & range)
 *                                       dirty &= ~range
 *
 * Such a clean leaves the slots' dirty bytes as they were, so for a
 * tracked line the bit is the truth and the byte may be stale: every
 * reader of dirtiness asks slot_dirty(), and the set walks below (which
 * read bytes) never run over tracked lines.  A level without ranges pays
 * one predictable test on a write hit.
 *
 * A clean of the last level with no clean hook (a DMA map's) needs no
 * per-line search either: eight aligned consecutive lines lie in eight
 * consecutive sets, whose slots are adjacent, so where the host has
 * AVX-512 (or AVX2) each group of eight slots is compared at once (or in
 * two halves) with the lines they would hold, and the dirty bytes of the
 * hits are counted and cleared without a branch (clean8_avx512(); with
 * AVX2, clean_run_avx2() does the same for groups of 32 slots).
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cachesim.h"

#define TAG_INVALID UINT64_MAX
/* Bound on lines per level, so a typo in a size cannot ask for terabytes. */
#define MAX_LINES (1u << 26)

/*
 * Compulsory-miss tracking: one bit per line, SEEN_LINES lines per chunk, so
 * that a chunk's key and bits fill exactly one 64-byte host cache line.
 */
#define SEEN_WORDS 7
#define SEEN_LINES (SEEN_WORDS * 64)
#define SEEN_MIN_CAP 64
#define SEEN_BATCH 32

/*
 * Residency filter: at least NRES_PER_SLOT entries per line the level holds,
 * so that a full level leaves most entries 0; never fewer than NRES_MIN.
 */
#define NRES_PER_SLOT 4
#define NRES_MIN 64

#if defined(__GNUC__)
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#else
#define likely(x) (x)
#define unlikely(x) (x)
#endif

/* One slot of the seen set: a chunk of SEEN_LINES lines. */
struct seen_chunk {
	uint64_t key; /* chunk number + 1; 0 for an empty slot */
	uint64_t bits[SEEN_WORDS];
};

/**
 * struct seen_set - lines ever missed at one level (sparse bitmap).
 * @slot:       open-addressing table (linear probing), @cap slots.
 * @cap:        number of slots, a power of two (0 before the first miss).
 * @shift:      64 - log2(@cap), for the multiplicative hash.
 * @used:       slots in use; kept at most 3/4 of @cap.
 * @compulsory: compulsory misses of the lines already looked up.
 * @npend:      lines in @pend.
 * @pend:       missed lines not yet looked up, oldest first.
 *
 * The table is larger than the host's L1 and L2 caches for a trace that
 * touches a gigabyte, and a lookup is then a host cache miss.  Single-line
 * misses are therefore queued in @pend, with a prefetch of their slot, and
 * looked up SEEN_BATCH at a time, when the slots have long arrived.
 * The queue is processed in order, so the counts are exactly those of one
 * lookup per miss; readers of @compulsory call seen_flush() first.
 */
struct seen_set {
	struct seen_chunk *slot;
	size_t cap;
	unsigned int shift;
	size_t used;
	uint64_t compulsory;
	unsigned int npend;
	uint64_t pend[SEEN_BATCH];
};

/**
 * struct track - the lines of one tracked range at one level, in address
 * order (cachesim_track(); "Tracked ranges" at the top).
 * @first:  first line number.
 * @nlines: lines.
 * @res:    bit i set: line @first + i is resident.
 * @dirty:  bit i set: line @first + i is resident and dirty.  The truth for
 *          a tracked line; its slot's dirty byte may still be 1 after a
 *          clean that cleared only this bit.
 */
struct track {
	uint64_t first, nlines;
	uint64_t *res, *dirty;
};

/**
 * struct level - one cache level.  The fields a hinted L1 hit reads come
 * first, so that they fit in one 64-byte host cache line.
 */
struct level {
	uint64_t *tag;	    /* sets * ways line numbers */
	uint64_t *stamp;    /* LRU: last use, FIFO: fill time */
	uint8_t *dirty;	    /* sets * ways flags */
	uint64_t clock;	    /* stamp source */
	uint64_t count[2];  /* [0] reads, [1] writes */
	unsigned int shift; /* log2(line) */
	enum cachesim_policy policy;
	bool wt;      /* write-through: writes always go down */
	uint8_t ntrk; /* tracked ranges in @trk (cachesim_track()) */

	uint64_t set_mask; /* sets - 1 */
	unsigned int ways;
	unsigned int sets;
	enum cachesim_write_policy wpol;
	uint64_t miss[2]; /* [0] read misses, [1] write misses */
	uint8_t *plru;	  /* sets * ways tree-node bytes (node 0 unused) */
	unsigned int plru_depth; /* log2(ways) for PLRU */
	uint64_t writebacks;
	uint64_t evictions;
	uint64_t maint_ops;
	uint64_t maint_lines;
	uint64_t maint_writebacks;
	uint64_t rng;	       /* splitmix64 state for RANDOM */
	uint8_t *nres;	       /* residency filter (NULL: none), see top */
	uint64_t nres_mask;    /* entries in @nres - 1 */
	struct seen_set *seen; /* separate so const queries can flush it */
	struct cachesim_level_config cfg; /* normalised copy */
	char *name;			  /* owned copy of cfg.name */
	struct track trk[CACHESIM_MAX_TRACK];
};

/**
 * struct cachesim - the simulator.
 * @nlevels:     levels in use.
 * @lv:          the levels, L1 first.
 * @mem_req:     requests that reached memory: [0] fetches, [1] writes
 *               (write-throughs, write-backs).
 * @cfg:         copy of the configuration (names point into @lv).
 * @hint:        L1 slot where a line was last found, indexed by the low
 *               bits of the line number: checked before the set is
 *               searched.  Never trusted, only compared, so it needs no
 *               upkeep when lines move.
 * @hint_mask:   entries in @hint - 1.
 * @evict_fn, @evict_ctx: eviction hook, NULL when none.
 * @wb_fn, @wb_ctx:       clean hook, NULL when none.
 */
/*
 * How maint_level() walks a last-level clean: per line, or eight lines at
 * a time with AVX2 or AVX-512 where the host has them.  Chosen at
 * cachesim_create() from the host's features; cachesim__walk_force (not in
 * the installed header) makes tests run each one the host can.
 */
enum walk { WALK_AUTO, WALK_SCALAR, WALK_AVX2, WALK_AVX512 };
extern int cachesim__walk_force;
int cachesim__walk_force = WALK_AUTO;

struct cachesim {
	unsigned int nlevels;
	enum walk walk;
	struct level lv[CACHESIM_MAX_LEVELS];
	uint64_t mem_req[2];
	uint32_t *hint;
	uint64_t hint_mask;
	struct cachesim_config cfg;
	cachesim_evict_fn evict_fn;
	void *evict_ctx;
	cachesim_writeback_fn wb_fn;
	void *wb_ctx;
};

static unsigned int request(struct cachesim *cs, unsigned int n, uint64_t addr,
			    uint64_t last, bool write);

/* ------------------------------------------------------------------ */
/* Small helpers                                                       */
/* ------------------------------------------------------------------ */

static bool is_pow2(uint64_t x)
{
	return x && !(x & (x - 1));
}

static unsigned int log2u(uint64_t x)
{
	unsigned int r = 0;

	while (x >>= 1)
		r++;
	return r;
}

static uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* The seed stream of a level: distinct per level, fixed by the seed. */
static uint64_t level_seed(uint64_t seed, unsigned int n)
{
	uint64_t s = seed ^ (0xd1b54a32d192ed03ull * (n + 1));

	return splitmix64(&s);
}

static void set_msg(char *msg, size_t msglen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void set_msg(char *msg, size_t msglen, const char *fmt, ...)
{
	va_list ap;

	if (!msg || !msglen)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, msglen, fmt, ap);
	va_end(ap);
}

/* ------------------------------------------------------------------ */
/* Compulsory-miss set                                                 */
/* ------------------------------------------------------------------ */

static size_t seen_hash(uint64_t key, unsigned int shift)
{
	return (size_t)((key * 0x9e3779b97f4a7c15ull) >> shift);
}

static int seen_grow(struct seen_set *s)
{
	size_t ncap = s->cap ? s->cap * 2 : SEEN_MIN_CAP;
	unsigned int nshift = 64 - log2u(ncap);
	struct seen_chunk *slot;
	size_t i, j;

	slot = aligned_alloc(sizeof(*slot), ncap * sizeof(*slot));
	if (!slot)
		return -ENOMEM;
	memset(slot, 0, ncap * sizeof(*slot));
	for (i = 0; i < s->cap; i++) {
		if (!s->slot[i].key)
			continue;
		j = seen_hash(s->slot[i].key, nshift);
		while (slot[j].key)
			j = (j + 1) & (ncap - 1);
		slot[j] = s->slot[i];
	}
	free(s->slot);
	s->slot = slot;
	s->cap = ncap;
	s->shift = nshift;
	return 0;
}

/*
 * Mark @line seen; true when it was not seen before.  Cost: O(1) expected
 * (the table stays at most 3/4 full), usually one host cache line.
 */
static bool seen_insert(struct seen_set *s, uint64_t line)
{
	uint64_t key = line / SEEN_LINES + 1;
	unsigned int bit = (unsigned int)(line % SEEN_LINES);
	uint64_t mask = 1ull << (bit % 64);
	struct seen_chunk *c;
	bool fresh;
	size_t i;

	/* Without memory to grow, the table fills up to its last free slot
	 * and compulsory counts become a lower bound: no error path in the
	 * middle of an access. */
	if (unlikely(4 * (s->used + 1) > 3 * s->cap) && seen_grow(s) < 0 &&
	    s->used + 1 >= s->cap)
		return false;
	i = seen_hash(key, s->shift);
	while (s->slot[i].key != key && s->slot[i].key)
		i = (i + 1) & (s->cap - 1);
	c = &s->slot[i];
	if (!c->key) {
		c->key = key;
		s->used++;
	}
	/* No branch on the bit: it is the one load likely to miss the host
	 * cache, and a mispredict on it would stall until it arrives. */
	fresh = !(c->bits[bit / 64] & mask);
	c->bits[bit / 64] |= mask;
	return fresh;
}

/* Look up the queued lines (their slots were prefetched when queued). */
static void seen_flush(struct seen_set *s)
{
	unsigned int i;

	for (i = 0; i < s->npend; i++)
		s->compulsory += seen_insert(s, s->pend[i]);
	s->npend = 0;
}

/* Count a single-line miss of @line (compulsory or not, decided later). */
static inline void seen_note(struct seen_set *s, uint64_t line)
{
	if (likely(s->cap))
		__builtin_prefetch(
			&s->slot[seen_hash(line / SEEN_LINES + 1, s->shift)]);
	s->pend[s->npend++] = line;
	if (unlikely(s->npend == SEEN_BATCH))
		seen_flush(s);
}

/* Forget every line but keep the table, so a reset run does not regrow. */
static void seen_reset(struct seen_set *s)
{
	if (s->slot)
		memset(s->slot, 0, s->cap * sizeof(*s->slot));
	s->used = 0;
	s->compulsory = 0;
	s->npend = 0;
}

static void seen_free(struct seen_set *s)
{
	if (s)
		free(s->slot);
	free(s);
}

/* ------------------------------------------------------------------ */
/* Lookup                                                              */
/* ------------------------------------------------------------------ */

/*
 * Way of set @t holding @line, or -1.  Ways are compared eight at a time
 * without branches: which way hits is data-dependent, and a mispredicted
 * branch per lookup would cost more than the compares.
 */
static inline int find_way(const uint64_t *t, unsigned int ways, uint64_t line)
{
	unsigned int w = 0, m;

	for (; w + 8 <= ways; w += 8) {
		m = (unsigned int)(t[w] == line) |
		    (unsigned int)(t[w + 1] == line) << 1 |
		    (unsigned int)(t[w + 2] == line) << 2 |
		    (unsigned int)(t[w + 3] == line) << 3 |
		    (unsigned int)(t[w + 4] == line) << 4 |
		    (unsigned int)(t[w + 5] == line) << 5 |
		    (unsigned int)(t[w + 6] == line) << 6 |
		    (unsigned int)(t[w + 7] == line) << 7;
		if (m)
			return (int)(w + (unsigned int)__builtin_ctz(m));
	}
	for (; w < ways; w++)
		if (t[w] == line)
			return (int)w;
	return -1;
}

/* ------------------------------------------------------------------ */
/* Replacement policies                                                */
/* ------------------------------------------------------------------ */

/*
 * PLRU tree of one set: nodes 1..ways-1 in heap order (children of node k
 * are 2k and 2k+1); a node's bit is 0 when the victim lies in its left
 * subtree, 1 when it lies in the right one.  Way w is the leaf reached by
 * the bits of w, most significant first.
 */
static void plru_touch(struct level *l, size_t set_base, unsigned int way)
{
	uint8_t *t = &l->plru[set_base];
	unsigned int node = 1, d, b;

	for (d = l->plru_depth; d-- > 0;) {
		b = (way >> d) & 1;
		t[node] = !b; /* point away from the way just used */
		node = 2 * node + b;
	}
}

static unsigned int plru_victim(const struct level *l, size_t set_base)
{
	const uint8_t *t = &l->plru[set_base];
	unsigned int node = 1;

	while (node < l->ways)
		node = 2 * node + t[node];
	return node - l->ways;
}

/* Rank key of a valid way under PLRU: 0 for the victim, ways-1 safest. */
static unsigned int plru_key(const struct level *l, size_t set_base,
			     unsigned int way)
{
	const uint8_t *t = &l->plru[set_base];
	unsigned int node = 1, d, b, key = 0;

	for (d = l->plru_depth; d-- > 0;) {
		b = (way >> d) & 1;
		key = (key << 1) | (t[node] != b);
		node = 2 * node + b;
	}
	return key;
}

static void touch_hit(struct level *l, size_t set_base, unsigned int way)
{
	if (l->policy == CACHESIM_LRU)
		l->stamp[set_base + way] = ++l->clock;
	else if (l->policy == CACHESIM_PLRU)
		plru_touch(l, set_base, way);
}

static void touch_fill(struct level *l, size_t set_base, unsigned int way)
{
	if (l->policy == CACHESIM_LRU || l->policy == CACHESIM_FIFO)
		l->stamp[set_base + way] = ++l->clock;
	else if (l->policy == CACHESIM_PLRU)
		plru_touch(l, set_base, way);
}

/*
 * Choose the way to fill in a set: an invalid way first (lowest index),
 * else the policy's victim.  LRU and FIFO get the first rule for free:
 * invalid ways have stamp 0 and valid ones a stamp >= 1.
 */
static unsigned int pick_victim(struct level *l, size_t set_base)
{
	const uint64_t *t = &l->tag[set_base];
	const uint64_t *st = &l->stamp[set_base];
	unsigned int w, best = 0;
	uint64_t min;

	if (l->policy == CACHESIM_LRU || l->policy == CACHESIM_FIFO) {
		/* The minimum stays in a register: a chain of compares and
		 * conditional moves, not of reloads. */
		min = st[0];
		for (w = 1; w < l->ways; w++) {
			if (st[w] < min) {
				min = st[w];
				best = w;
			}
		}
		return best;
	}
	for (w = 0; w < l->ways; w++)
		if (t[w] == TAG_INVALID)
			return w;
	if (l->policy == CACHESIM_PLRU)
		return plru_victim(l, set_base);
	/* Multiply-high maps 32 random bits onto [0, ways) evenly. */
	return (unsigned int)(((splitmix64(&l->rng) >> 32) * l->ways) >> 32);
}

/* ------------------------------------------------------------------ */
/* Access path                                                         */
/* ------------------------------------------------------------------ */

static size_t set_base_of(const struct level *l, uint64_t line)
{
	return (size_t)(line & l->set_mask) * l->ways;
}

/* ------------------------------------------------------------------ */
/* Tracked ranges                                                      */
/* ------------------------------------------------------------------ */

/* Words of each of @t's maps. */
static inline size_t track_words(const struct track *t)
{
	return (size_t)((t->nlines + 63) / 64);
}

/* The tracked range of @l holding @line, or NULL. */
static inline struct track *track_of(const struct level *l, uint64_t line)
{
	unsigned int i;

	for (i = 0; i < l->ntrk; i++)
		if (line - l->trk[i].first < l->trk[i].nlines)
			return (struct track *)&l->trk[i];
	return NULL;
}

static inline void bit_set(uint64_t *map, uint64_t i)
{
	map[i >> 6] |= 1ull << (i & 63);
}

static inline void bit_clear(uint64_t *map, uint64_t i)
{
	map[i >> 6] &= ~(1ull << (i & 63));
}

static inline bool bit_test(const uint64_t *map, uint64_t i)
{
	return map[i >> 6] >> (i & 63) & 1;
}

/* Is the line in @slot (valid) dirty?  Its byte, and for a tracked line
 * its dirty bit too. */
static inline bool slot_dirty(const struct level *l, size_t slot)
{
	const struct track *t;

	/* Without tracked ranges, the byte with no branch on it: a victim
	 * is dirty or not at random in a trace. */
	if (likely(!l->ntrk))
		return l->dirty[slot];
	if (!l->dirty[slot])
		return false;
	t = track_of(l, l->tag[slot]);
	return !t || bit_test(t->dirty, l->tag[slot] - t->first);
}

/* @line, resident in @slot, was written: dirty it. */
static inline void slot_set_dirty(struct level *l, size_t slot, uint64_t line)
{
	struct track *t;

	l->dirty[slot] = 1;
	if (unlikely(l->ntrk) && (t = track_of(l, line)))
		bit_set(t->dirty, line - t->first);
}

/* The line in @slot (valid) is clean now. */
static inline void slot_clear_dirty(struct level *l, size_t slot)
{
	struct track *t;

	l->dirty[slot] = 0;
	if (unlikely(l->ntrk) && (t = track_of(l, l->tag[slot])))
		bit_clear(t->dirty, l->tag[slot] - t->first);
}

/* For the maps: @line leaves @l. */
static void track_leave(struct level *l, uint64_t line)
{
	struct track *t = track_of(l, line);

	if (t) {
		bit_clear(t->res, line - t->first);
		bit_clear(t->dirty, line - t->first);
	}
}

/* For the maps: @line arrives in @l, @dirty or not. */
static void track_fill(struct level *l, uint64_t line, bool dirty)
{
	struct track *t = track_of(l, line);

	if (t) {
		bit_set(t->res, line - t->first);
		if (dirty)
			bit_set(t->dirty, line - t->first);
	}
}

/* The tracked range of @l holding all of [@first, @last], or NULL. */
static struct track *track_holding(const struct level *l, uint64_t first,
				   uint64_t last)
{
	struct track *t = track_of(l, first);

	return t && last - t->first < t->nlines ? t : NULL;
}

/* Does a tracked range of @l hold a line of [@first, @last]? */
static bool track_overlaps(const struct level *l, uint64_t first, uint64_t last)
{
	unsigned int i;

	for (i = 0; i < l->ntrk; i++)
		if (first <= l->trk[i].first + l->trk[i].nlines - 1 &&
		    last >= l->trk[i].first)
			return true;
	return false;
}

/* Bits set in @x, without a call into libgcc where the build has no
 * popcnt instruction. */
static inline unsigned int popcount64(uint64_t x)
{
	x -= (x >> 1) & 0x5555555555555555ull;
	x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
	return (unsigned int)((x * 0x0101010101010101ull) >> 56);
}

/*
 * The clean of maint_level() for lines [@first, @last] of the last level,
 * no clean hook, inside tracked range @t: per 64 lines, the resident ones
 * are counted and the dirty ones counted and made clean from the maps.
 * Their slots' dirty bytes are left as they are (struct track).
 */
static uint64_t track_clean(struct cachesim *cs, struct level *l,
			    struct track *t, uint64_t first, uint64_t last)
{
	uint64_t i = first - t->first, end = last - t->first;
	uint64_t lines = 0, wbs = 0;

	for (;;) {
		uint64_t w = i >> 6, hi = (end >> 6) == w ? end & 63 : 63;
		uint64_t mask = (~0ull >> (63 - hi)) & (~0ull << (i & 63));

		lines += popcount64(t->res[w] & mask);
		wbs += popcount64(t->dirty[w] & mask);
		t->dirty[w] &= ~mask;
		if ((end >> 6) == w)
			break;
		i = (w + 1) << 6;
	}
	l->maint_lines += lines;
	l->maint_writebacks += wbs;
	cs->mem_req[1] += wbs;
	return lines;
}

/*
 * Send a request from level @n to the level below it, or to memory.
 * Return: the level that satisfied it (cs->nlevels for memory).
 */
static inline unsigned int send_down(struct cachesim *cs, unsigned int n,
				     uint64_t addr, uint64_t last, bool write)
{
	if (n + 1 < cs->nlevels)
		return request(cs, n + 1, addr, last, write);
	cs->mem_req[write]++;
	return cs->nlevels;
}

/*
 * Put @line into level @n (it missed there): choose a victim, report it,
 * write it back to level n+1 when dirty, install the line.
 */
static inline void fill_line(struct cachesim *cs, unsigned int n, uint64_t line,
			     bool dirty)
{
	struct level *l = &cs->lv[n];
	size_t base = set_base_of(l, line);
	unsigned int way = pick_victim(l, base);
	size_t slot = base + way;
	uint64_t old = l->tag[slot];
	bool was_dirty = slot_dirty(l, slot);

	if (unlikely(l->ntrk)) {
		if (old != TAG_INVALID)
			track_leave(l, old);
		track_fill(l, line, dirty);
	}
	l->tag[slot] = line;
	l->dirty[slot] = dirty;
	touch_fill(l, base, way);
	if (n == 0)
		cs->hint[line & cs->hint_mask] = (uint32_t)slot;
	if (l->nres) {
		l->nres[line & l->nres_mask]++;
		if (old != TAG_INVALID)
			l->nres[old & l->nres_mask]--;
	}
	if (old == TAG_INVALID)
		return;

	l->evictions++;
	if (cs->evict_fn)
		cs->evict_fn(cs->evict_ctx, n, old << l->shift, was_dirty,
			     n + 1 == cs->nlevels);
	if (n + 1 == cs->nlevels) {
		/* Whether the victim is dirty is a coin toss: no branch. */
		l->writebacks += was_dirty;
		cs->mem_req[1] += was_dirty;
	} else if (was_dirty) {
		l->writebacks++;
		send_down(cs, n, old << l->shift,
			  (old << l->shift) + ((1ull << l->shift) - 1), true);
	}
}

/* Fetch lines [first, last] of level @n from below, then fill them. */
static unsigned int fetch_run(struct cachesim *cs, unsigned int n,
			      uint64_t first, uint64_t last, bool dirty)
{
	struct level *l = &cs->lv[n];
	unsigned int r;
	uint64_t line;

	r = send_down(cs, n, first << l->shift,
		      (last << l->shift) + ((1ull << l->shift) - 1), false);
	for (line = first;; line++) {
		fill_line(cs, n, line, dirty);
		if (line == last)
			break;
	}
	return r;
}

/*
 * A request for bytes [addr, last] of one line of level @n that missed
 * there.  Separate from the lookup so that cachesim_access() can enter it
 * directly from its own.
 */
static unsigned int miss_line(struct cachesim *cs, unsigned int n,
			      uint64_t addr, uint64_t last, bool write)
{
	struct level *l = &cs->lv[n];
	uint64_t line = addr >> l->shift;
	bool allocate = !write || l->wpol != CACHESIM_WT_NWA;
	unsigned int r = n, wt;

	l->count[write]++;
	l->miss[write]++;
	seen_note(l->seen, line);
	if (allocate) {
		r = send_down(cs, n, line << l->shift,
			      (line << l->shift) + ((1ull << l->shift) - 1),
			      false);
		fill_line(cs, n, line, write && !l->wt);
	}
	if (write && l->wt) {
		wt = send_down(cs, n, addr, last, true);
		/* A posted write-through does not delay a hit. */
		if (!allocate)
			r = wt;
	}
	return r;
}

/*
 * request() for bytes that lie in one line of level @n: the common case,
 * kept free of the run bookkeeping of the general loop.
 */
static unsigned int request_line(struct cachesim *cs, unsigned int n,
				 uint64_t addr, uint64_t last, bool write)
{
	struct level *l = &cs->lv[n];
	uint64_t line = addr >> l->shift;
	size_t base = set_base_of(l, line);
	int way = find_way(&l->tag[base], l->ways, line);

	if (way < 0)
		return miss_line(cs, n, addr, last, write);
	l->count[write]++;
	touch_hit(l, base, (unsigned int)way);
	if (write && l->wt) {
		send_down(cs, n, addr, last, true);
	} else {
		l->dirty[base + way] |= write;
		if (unlikely(l->ntrk) && write)
			slot_set_dirty(l, base + way, line);
	}
	return n;
}

/*
 * One request at level @n covering bytes [addr, last].
 * Return: the deepest level the request (or the fetches and no-allocate
 * writes it caused) was satisfied at; cs->nlevels for memory.
 */
static unsigned int request(struct cachesim *cs, unsigned int n, uint64_t addr,
			    uint64_t last, bool write)
{
	struct level *l = &cs->lv[n];
	uint64_t first_line, last_line, line, run = 0;
	bool in_run = false, missed = false, compulsory = false;
	bool allocate, mark_dirty;
	unsigned int r, deepest = n;
	size_t base;
	int way;

	first_line = addr >> l->shift;
	last_line = last >> l->shift;
	if (first_line == last_line)
		return request_line(cs, n, addr, last, write);

	l->count[write]++;
	allocate = !write || l->wpol != CACHESIM_WT_NWA;
	mark_dirty = write && l->wpol == CACHESIM_WB_WA;
	for (line = first_line;; line++) {
		base = set_base_of(l, line);
		way = find_way(&l->tag[base], l->ways, line);
		if (way >= 0) {
			touch_hit(l, base, (unsigned int)way);
			if (mark_dirty)
				slot_set_dirty(l, base + way, line);
			if (in_run && allocate) {
				r = fetch_run(cs, n, run, line - 1, mark_dirty);
				deepest = r > deepest ? r : deepest;
			}
			in_run = false;
		} else {
			if (!missed)
				seen_flush(l->seen); /* keep the miss order */
			missed = true;
			compulsory |= seen_insert(l->seen, line);
			if (!in_run)
				run = line;
			in_run = true;
		}
		if (line == last_line)
			break;
	}
	if (in_run && allocate) {
		r = fetch_run(cs, n, run, last_line, mark_dirty);
		deepest = r > deepest ? r : deepest;
	}
	if (missed) {
		l->miss[write]++;
		l->seen->compulsory += compulsory;
	}
	if (write && l->wpol != CACHESIM_WB_WA) {
		r = send_down(cs, n, addr, last, true);
		if (missed && !allocate)
			deepest = r > deepest ? r : deepest;
	}
	return deepest;
}

/* The L1 hit of cachesim_access(): update the policy state of @slot. */
static inline void l1_hit(struct level *l, uint64_t line, size_t slot,
			  bool write)
{
	size_t base;

	l->count[write]++;
	if (l->policy == CACHESIM_LRU) {
		l->stamp[slot] = ++l->clock;
	} else if (l->policy == CACHESIM_PLRU) {
		base = set_base_of(l, line);
		plru_touch(l, base, (unsigned int)(slot - base));
	}
	l->dirty[slot] |= write;
	if (unlikely(l->ntrk) && write)
		slot_set_dirty(l, slot, line);
}

/*
 * cachesim_access() when the hint was wrong: search the set, and miss if the
 * line is not there.  Kept out of line so that the hinted hit needs no
 * register saves.
 */
static __attribute__((noinline)) unsigned int access_search(struct cachesim *cs,
							    uint64_t addr,
							    uint64_t last,
							    bool write,
							    uint32_t *hint)
{
	struct level *l = &cs->lv[0];
	uint64_t line = addr >> l->shift;
	size_t base = set_base_of(l, line);
	int w = find_way(&l->tag[base], l->ways, line);

	if (likely(w >= 0)) {
		*hint = (uint32_t)(base + (size_t)w);
		l1_hit(l, line, base + (size_t)w, write);
		return 0;
	}
	return miss_line(cs, 0, addr, last, write);
}

static inline __attribute__((always_inline)) unsigned int access_one(
	struct cachesim *cs, uint64_t addr, unsigned int size, bool write)
{
	struct level *l = &cs->lv[0];
	uint64_t last = addr + size - (size != 0);
	uint64_t line = addr >> l->shift;
	uint32_t *hint;

	if (unlikely(last < addr))
		last = UINT64_MAX;
	if (unlikely(line != last >> l->shift))
		return request(cs, 0, addr, last, write);
	if (unlikely(write & l->wt))
		return request_line(cs, 0, addr, last, write);
	/*
	 * Fast path: an L1 hit with nothing to send down.  The hint table
	 * usually names the slot, so a hit costs one compare; whether the
	 * access is a write is folded in with arithmetic, not branched on,
	 * because reads and writes mix at random in a trace.
	 */
	hint = &cs->hint[line & cs->hint_mask];
	if (likely(l->tag[*hint] == line)) {
		l1_hit(l, line, *hint, write);
		return 0;
	}
	return access_search(cs, addr, last, write, hint);
}

unsigned int cachesim_access(struct cachesim *cs, uint64_t addr,
			     unsigned int size, enum cachesim_op op)
{
	return access_one(cs, addr, size, op == CACHESIM_WRITE);
}

void cachesim_access_many(struct cachesim *cs, const struct cachesim_req *reqs,
			  size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		access_one(cs, reqs[i].addr, reqs[i].size,
			   reqs[i].op == CACHESIM_WRITE);
}

/* ------------------------------------------------------------------ */
/* Maintenance                                                         */
/* ------------------------------------------------------------------ */

enum maint_op {
	MAINT_CLEAN = 1,
	MAINT_INVAL = 2,
	MAINT_CLEAN_INVAL = 3,
};

/*
 * A dirty line [addr, addr + len) leaves level @n towards memory: it makes
 * the overlapping lines dirty in the first lower write-back level holding
 * any of them, or it reaches memory.
 */
static void write_down(struct cachesim *cs, unsigned int n, uint64_t addr,
		       uint64_t len)
{
	unsigned int m;

	for (m = n + 1; m < cs->nlevels; m++) {
		struct level *l = &cs->lv[m];
		uint64_t line, last = (addr + len - 1) >> l->shift;
		bool held = false;

		for (line = addr >> l->shift; line <= last; line++) {
			size_t base = set_base_of(l, line);
			int way = find_way(&l->tag[base], l->ways, line);

			if (way < 0)
				continue;
			held = true;
			if (l->wpol == CACHESIM_WB_WA)
				slot_set_dirty(l, base + way, line);
		}
		if (held && l->wpol == CACHESIM_WB_WA)
			return;
	}
	cs->mem_req[1]++;
}

/* Apply @op to the resident line in @slot of level @n. */
static void maint_slot(struct cachesim *cs, unsigned int n, size_t slot,
		       enum maint_op op)
{
	struct level *l = &cs->lv[n];
	uint64_t addr = l->tag[slot] << l->shift;
	bool dirty = slot_dirty(l, slot);
	bool last = n + 1 == cs->nlevels;

	l->maint_lines++;
	if (dirty && (op & MAINT_CLEAN)) {
		l->maint_writebacks++;
		slot_clear_dirty(l, slot);
		if (op == MAINT_CLEAN && cs->wb_fn)
			cs->wb_fn(cs->wb_ctx, n, addr, last);
		write_down(cs, n, addr, 1ull << l->shift);
	}
	if (op & MAINT_INVAL) {
		/* @dirty in the hook means "written back", not "was dirty". */
		if (cs->evict_fn)
			cs->evict_fn(cs->evict_ctx, n, addr,
				     dirty && (op & MAINT_CLEAN), last);
		if (l->nres)
			l->nres[l->tag[slot] & l->nres_mask]--;
		if (unlikely(l->ntrk))
			track_leave(l, l->tag[slot]);
		l->tag[slot] = TAG_INVALID;
		l->dirty[slot] = 0;
		l->stamp[slot] = 0;
	}
}

/*
 * No line of @l among the eight from @line (a multiple of 8) is resident:
 * their filter entries, adjacent and inside the table, are all 0.
 */
static inline bool nres_none8(const struct level *l, uint64_t line)
{
	uint64_t w;

	memcpy(&w, &l->nres[line & l->nres_mask], sizeof(w));
	return !w;
}

/*
 * No line of [@first, @last] is resident in @l: every filter entry of the
 * range is 0.  Eight entries per load where aligned; stops at the first
 * entry that is not 0.  The caller bounds the range by the level's slots,
 * so this costs at most a read of nslots / 8 words: the common case of a
 * DMA map of memory the model does not hold is then one pass over 64
 * bytes per 4 KiB, with none of the per-step work of the walk.
 */
static inline bool nres_none(const struct level *l, uint64_t first,
			     uint64_t last)
{
	const uint8_t *nres = l->nres;
	uint64_t mask = l->nres_mask, line = first, w, acc;
	unsigned int k;

	for (; line & 7; line++) {
		if (nres[line & mask])
			return false;
		if (line == last)
			return true;
	}
	/* 64 lines a step (the groups of eight stay inside the table). */
	for (; last - line >= 63; line += 64) {
		acc = 0;
		for (k = 0; k < 8; k++) {
			memcpy(&w, &nres[(line + 8 * k) & mask], sizeof(w));
			acc |= w;
		}
		if (acc)
			return false;
		if (last - line == 63)
			return true;
	}
	for (; last - line >= 7; line += 8) {
		memcpy(&w, &nres[line & mask], sizeof(w));
		if (w)
			return false;
		if (last - line == 7)
			return true;
	}
	for (;; line++) {
		if (nres[line & mask])
			return false;
		if (line == last)
			return true;
	}
}

/*
 * The quick clean of maint_level() for eight lines from @line (a multiple
 * of 8), which lie in eight consecutive sets, from set_base_of(@line) on:
 * their slots are 8 * ways consecutive tags and dirty bytes.  Each group
 * of eight slots is compared with the line each slot must hold to be a
 * hit, into an 8-bit mask; the dirty bytes of the slots that hit are
 * counted and cleared without a branch (the mask spread to bytes).  @ways is 1, 2, 4 or 8.  Adds the lines found to *@lines and
 * the dirty ones to *@wbs.  With AVX-512 (chosen at run time): the cost of
 * the per-line search that it replaces is a few compares and one or two
 * mispredicted branches per line, which made a clean of lines the model
 * holds cost three times the clean of their data.
 */
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define HAVE_VECTOR_WALK 1
static __attribute__((target("avx512f,avx512bw,avx512vl"))) void clean8_avx512(
	const uint64_t *tag, uint8_t *dirty, uint64_t line, unsigned int wshift,
	uint64_t *lines, uint64_t *wbs)
{
	unsigned int g, ngroups = 1u << wshift; /* 8 lines * ways / 8 */
	const __m512i iota = _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0);
	uint64_t nl = 0, nw = 0;

	for (g = 0; g < ngroups; g++) {
		/* Slot 8g + i must hold line + ((8g + i) >> wshift). */
		__m512i want = _mm512_add_epi64(
			_mm512_set1_epi64((long long)line),
			_mm512_srli_epi64(
				_mm512_add_epi64(_mm512_set1_epi64(8LL * g),
						 iota),
				wshift));
		__mmask8 hit = _mm512_cmpeq_epu64_mask(
			_mm512_loadu_si512((const void *)(tag + 8 * g)), want);
		uint64_t d, hb = (uint64_t)_mm_cvtsi128_si64(
				    _mm_maskz_set1_epi8((__mmask16)hit, 1));

		memcpy(&d, dirty + 8 * g, sizeof(d));
		nl += (uint64_t)__builtin_popcount(hit);
		nw += (uint64_t)__builtin_popcountll(d & hb);
		d &= ~hb;
		memcpy(dirty + 8 * g, &d, sizeof(d));
	}
	*lines += nl;
	*wbs += nw;
}

/*
 * The AVX2 walk, for hosts without AVX-512 (most AMD hosts before Zen 4):
 * @ngroups groups of 32 slots from @line on, each group the 32 >> @wshift
 * aligned lines whose sets hold those slots (8 lines of a 4-way level).
 * Each group is eight compares of four tags with the lines the slots would
 * hold; three rounds of saturating packs turn the 64-bit compare results
 * into one byte per slot (in an order a qword permute and a byte shuffle
 * put right), and the 32 dirty bytes of the group are counted and cleared
 * with one load and one store.  About four instructions a line for a
 * 4-way level, a third of a per-set walk's.  Adds the lines found to
 * *@lines and the dirty ones to *@wbs.
 */
static __attribute__((target("avx2"))) void clean_run_avx2(
	const uint64_t *tag, uint8_t *dirty, uint64_t set_mask,
	unsigned int ways, unsigned int wshift, uint64_t line, uint64_t ngroups,
	uint64_t *lines, uint64_t *wbs)
{
	/* The byte shuffle of the last step (the same in both halves). */
	const __m256i fix = _mm256_setr_epi8(
		0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15, 0, 1, 8,
		9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15);
	const __m256i zero = _mm256_setzero_si256();
	const __m128i sh = _mm_cvtsi32_si128((int)wshift);
	uint64_t glines = 32u >> wshift, nl = 0, nw = 0, g;
	__m256i off[8];
	unsigned int k;

	/* Slot 4k + j of a group must hold its first line + ((4k + j) >>
	 * wshift). */
	for (k = 0; k < 8; k++)
		off[k] = _mm256_srl_epi64(_mm256_setr_epi64x(4 * k, 4 * k + 1,
							     4 * k + 2,
							     4 * k + 3),
					  sh);
	for (g = 0; g < ngroups; g++, line += glines) {
		size_t base = (size_t)(line & set_mask) * ways;
		const __m256i *t = (const __m256i *)(const void *)(tag + base);
		__m256i *pd = (__m256i *)(void *)(dirty + base);
		__m256i l = _mm256_set1_epi64x((long long)line), hit, d;

		/* 64-bit all-ones or zero lanes to bytes: each pack halves
		 * the width within 128-bit lanes, keeping the value. */
#define HIT4(k)                                         \
	_mm256_cmpeq_epi64(_mm256_loadu_si256(t + (k)), \
			   _mm256_add_epi64(l, off[k]))
		hit = _mm256_packs_epi16(
			_mm256_packs_epi16(
				_mm256_packs_epi32(HIT4(0), HIT4(1)),
				_mm256_packs_epi32(HIT4(2), HIT4(3))),
			_mm256_packs_epi16(
				_mm256_packs_epi32(HIT4(4), HIT4(5)),
				_mm256_packs_epi32(HIT4(6), HIT4(7))));
#undef HIT4
		/* Bytes are now slots 0 1 4 5 8 9 12 13 16 17 20 21 24 25 28
		 * 29 | 2 3 6 7 ... 30 31: bring the qwords of the two halves
		 * together, then interleave their byte pairs. */
		hit = _mm256_shuffle_epi8(
			_mm256_permute4x64_epi64(hit, _MM_SHUFFLE(3, 1, 2, 0)),
			fix);
		d = _mm256_loadu_si256(pd);
		nl += (uint64_t)__builtin_popcount(
			(unsigned int)_mm256_movemask_epi8(hit));
		nw += 32u -
		      (uint64_t)__builtin_popcount(
			      (unsigned int)_mm256_movemask_epi8(
				      _mm256_cmpeq_epi8(
					      _mm256_and_si256(d, hit), zero)));
		_mm256_storeu_si256(pd, _mm256_andnot_si256(hit, d));
	}
	*lines += nl;
	*wbs += nw;
}
#else
#define HAVE_VECTOR_WALK 0
#endif

static enum walk choose_walk(void)
{
	enum walk w = (enum walk)cachesim__walk_force;

#if HAVE_VECTOR_WALK
	bool avx512 = __builtin_cpu_supports("avx512bw") &&
		      __builtin_cpu_supports("avx512vl");
	bool avx2 = __builtin_cpu_supports("avx2");

	if (w == WALK_AUTO)
		return avx512 ? WALK_AVX512 : avx2 ? WALK_AVX2 : WALK_SCALAR;
	if ((w == WALK_AVX512 && !avx512) || (w == WALK_AVX2 && !avx2))
		return WALK_SCALAR;
	return w;
#else
	(void)w;
	return WALK_SCALAR;
#endif
}

/*
 * Apply @op to the lines of level @n overlapping [addr, end] (maint_level()
 * has counted the operation and found a line of them perhaps resident).
 * Cost: the smaller of the range's lines and the level's slots, with eight
 * lines per step where the residency filter shows none of them resident.
 */
static __attribute__((noinline)) uint64_t maint_walk(struct cachesim *cs,
						     unsigned int n,
						     uint64_t addr,
						     uint64_t end,
						     enum maint_op op)
{
	struct level *l = &cs->lv[n];
	uint64_t first = addr >> l->shift, last = end >> l->shift, line;
	uint64_t before, lines = 0, wbs = 0;
	size_t slot, nslots = (size_t)l->sets * l->ways;
	/*
	 * The walk below reads the level's arrays through locals and counts
	 * in locals: its stores of dirty bytes could alias the level's fields
	 * for the compiler, which would reload them at every line.
	 */
	const uint64_t *tag = l->tag;
	const uint8_t *nres = l->nres;
	uint8_t *dirty = l->dirty;
	uint64_t nres_mask = l->nres_mask, set_mask = l->set_mask;
	unsigned int ways = l->ways;
	/* Not over tracked lines: their dirty bytes may be stale (struct
	 * track), so they go through maint_slot(). */
	bool quick_clean = op == MAINT_CLEAN && !cs->wb_fn &&
			   n + 1 == cs->nlevels &&
			   !(l->ntrk && track_overlaps(l, first, last));
	/* Ways a power of two up to 8 and enough sets that an aligned group
	 * of lines never wraps: AVX-512 eight lines at a time (clean8), AVX2
	 * runs of groups of @glines lines (32 slots each). */
	void (*clean8)(const uint64_t *, uint8_t *, uint64_t, unsigned int,
		       uint64_t *, uint64_t *) = NULL;
	uint64_t glines = 0;
	unsigned int wshift;

	wshift = log2u(ways);
#if HAVE_VECTOR_WALK
	if (quick_clean && ways <= 8 && is_pow2(ways)) {
		if (cs->walk == WALK_AVX512 && set_mask >= 7)
			clean8 = clean8_avx512;
		else if (cs->walk == WALK_AVX2 &&
			 set_mask + 1 >= (32u >> wshift))
			glines = 32u >> wshift;
	}
#endif

	before = l->maint_lines;
	if (last - first >= nslots) {
		/* A range larger than the cache: visit the cache instead. */
		for (slot = 0; slot < nslots; slot++)
			if (l->tag[slot] != TAG_INVALID &&
			    l->tag[slot] >= first && l->tag[slot] <= last)
				maint_slot(cs, n, slot, op);
		return l->maint_lines - before;
	}
	for (line = first;; line++) {
		size_t base;
		int way;

#if HAVE_VECTOR_WALK
		if (glines && !(line & (glines - 1)) &&
		    last - line >= glines - 1) {
			/* Every whole group left, resident or not: the walk
			 * costs less than the filter's branches. */
			uint64_t ng = (last - line + 1) / glines;

			clean_run_avx2(tag, dirty, set_mask, ways, wshift, line,
				       ng, &lines, &wbs);
			line += ng * glines - 1;
			if (line == last)
				break;
			continue;
		}
#endif
		if (nres && !(line & 7) && last - line >= 7 &&
		    nres_none8(l, line)) {
			line += 7;
			if (line == last)
				break;
			continue;
		}
		if (clean8 && !(line & 7) && last - line >= 7) {
			clean8(&tag[(size_t)(line & set_mask) * ways],
			       &dirty[(size_t)(line & set_mask) * ways], line,
			       wshift, &lines, &wbs);
			line += 7;
			if (line == last)
				break;
			continue;
		}
		if (nres && !nres[line & nres_mask]) {
			if (line == last)
				break;
			continue;
		}
		base = (size_t)(line & set_mask) * ways;
		way = find_way(&tag[base], ways, line);
		if (way >= 0 && quick_clean) {
			/* maint_slot() for a clean of the last level with
			 * no hook, inline (write_down() has no level below
			 * to visit): a 1 MiB DMA map cleans 16,384 lines. */
			lines++;
			if (dirty[base + way]) {
				wbs++;
				dirty[base + way] = 0;
			}
		} else if (way >= 0) {
			maint_slot(cs, n, base + way, op);
		}
		if (line == last)
			break;
	}
	l->maint_lines += lines;
	l->maint_writebacks += wbs;
	cs->mem_req[1] += wbs;
	return l->maint_lines - before;
}

/*
 * maint_walk() unless none of the lines is resident: the common case of a
 * DMA map (a buffer written by code the model does not see, or long
 * evicted), settled with one pass over the residency filter and none of
 * the walk's set-up.
 */
static inline uint64_t maint_level(struct cachesim *cs, unsigned int n,
				   uint64_t addr, uint64_t end,
				   enum maint_op op)
{
	struct level *l = &cs->lv[n];
	uint64_t first = addr >> l->shift, last = end >> l->shift;
	struct track *t;

	l->maint_ops++;
	if (unlikely(l->ntrk) && op == MAINT_CLEAN && !cs->wb_fn &&
	    n + 1 == cs->nlevels && (t = track_holding(l, first, last)))
		return track_clean(cs, l, t, first, last);
	if (l->nres && last - first < (uint64_t)l->sets * l->ways &&
	    nres_none(l, first, last))
		return 0;
	return maint_walk(cs, n, addr, end, op);
}

static uint64_t maint_range(struct cachesim *cs, uint64_t addr, uint64_t len,
			    enum maint_op op)
{
	uint64_t end = addr + len - 1, touched = 0;
	unsigned int n;

	if (len && end < addr)
		end = UINT64_MAX;
	for (n = 0; n < cs->nlevels; n++) {
		if (!len) {
			cs->lv[n].maint_ops++;
			continue;
		}
		touched += maint_level(cs, n, addr, end, op);
	}
	return touched;
}

uint64_t cachesim_clean(struct cachesim *cs, uint64_t addr, uint64_t len)
{
	return maint_range(cs, addr, len, MAINT_CLEAN);
}

uint64_t cachesim_invalidate(struct cachesim *cs, uint64_t addr, uint64_t len)
{
	return maint_range(cs, addr, len, MAINT_INVAL);
}

uint64_t cachesim_clean_invalidate(struct cachesim *cs, uint64_t addr,
				   uint64_t len)
{
	return maint_range(cs, addr, len, MAINT_CLEAN_INVAL);
}

uint64_t cachesim_flush_all(struct cachesim *cs)
{
	return maint_range(cs, 0, UINT64_MAX, MAINT_CLEAN_INVAL);
}

/* ------------------------------------------------------------------ */
/* Configuration, creation                                             */
/* ------------------------------------------------------------------ */

void cachesim_config_init(struct cachesim_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->nlevels = 1;
	cfg->level[0].name = "L1";
	cfg->level[0].size = 32 * 1024;
	cfg->level[0].ways = 8;
	cfg->level[0].line = 64;
	cfg->level[0].policy = CACHESIM_LRU;
	cfg->level[0].write_policy = CACHESIM_WB_WA;
	cfg->level[0].hit_latency = 4;
	cfg->seed = 1;
	cfg->mem_latency = 100;
}

static int check_level(const struct cachesim_level_config *lc, unsigned int n,
		       char *msg, size_t msglen)
{
	char who[64];
	uint64_t way_bytes, sets;

	snprintf(who, sizeof(who), "L%u", n + 1);
	if (lc->name && strcmp(lc->name, who))
		snprintf(who, sizeof(who), "L%u (%.40s)", n + 1, lc->name);

	if (!lc->size) {
		set_msg(msg, msglen, "%s: size is 0", who);
		return -EINVAL;
	}
	if (lc->line < 4 || !is_pow2(lc->line)) {
		set_msg(msg, msglen,
			"%s: line size %u is not a power of two >= 4", who,
			lc->line);
		return -EINVAL;
	}
	if (!lc->ways) {
		set_msg(msg, msglen, "%s: ways is 0 (1 is direct-mapped)", who);
		return -EINVAL;
	}
	way_bytes = (uint64_t)lc->ways * lc->line;
	if (way_bytes > lc->size) {
		set_msg(msg, msglen,
			"%s: ways %u is more than the %llu lines of %llu bytes",
			who, lc->ways,
			(unsigned long long)(lc->size / lc->line),
			(unsigned long long)lc->size);
		return -EINVAL;
	}
	if (lc->size % way_bytes) {
		set_msg(msg, msglen,
			"%s: size %llu is not a multiple of ways * line = %llu",
			who, (unsigned long long)lc->size,
			(unsigned long long)way_bytes);
		return -EINVAL;
	}
	sets = lc->size / way_bytes;
	if (!is_pow2(sets)) {
		set_msg(msg, msglen,
			"%s: number of sets %llu (size / (ways * line)) is not "
			"a power of two",
			who, (unsigned long long)sets);
		return -EINVAL;
	}
	if (lc->size / lc->line > MAX_LINES) {
		set_msg(msg, msglen, "%s: size %llu is more than %u lines", who,
			(unsigned long long)lc->size, MAX_LINES);
		return -EINVAL;
	}
	if ((unsigned int)lc->policy > CACHESIM_RANDOM) {
		set_msg(msg, msglen, "%s: replacement policy %d is unknown",
			who, (int)lc->policy);
		return -EINVAL;
	}
	if ((unsigned int)lc->write_policy > CACHESIM_WT_NWA) {
		set_msg(msg, msglen, "%s: write policy %d is unknown", who,
			(int)lc->write_policy);
		return -EINVAL;
	}
	if (lc->policy == CACHESIM_PLRU && !is_pow2(lc->ways)) {
		set_msg(msg, msglen,
			"%s: plru needs a power-of-two number of ways, not %u",
			who, lc->ways);
		return -EINVAL;
	}
	return 0;
}

int cachesim_config_check(const struct cachesim_config *cfg, char *msg,
			  size_t msglen)
{
	unsigned int n;
	int err;

	if (!cfg) {
		set_msg(msg, msglen, "no configuration");
		return -EINVAL;
	}
	if (cfg->nlevels < 1 || cfg->nlevels > CACHESIM_MAX_LEVELS) {
		set_msg(msg, msglen,
			"nlevels is %u: a hierarchy has 1 to %d levels",
			cfg->nlevels, CACHESIM_MAX_LEVELS);
		return -EINVAL;
	}
	for (n = 0; n < cfg->nlevels; n++) {
		err = check_level(&cfg->level[n], n, msg, msglen);
		if (err)
			return err;
	}
	return 0;
}

static void level_empty(struct level *l, uint64_t seed, unsigned int n)
{
	size_t nslots = (size_t)l->sets * l->ways;
	size_t i;

	for (i = 0; i < nslots; i++)
		l->tag[i] = TAG_INVALID;
	memset(l->dirty, 0, nslots);
	memset(l->stamp, 0, nslots * sizeof(*l->stamp));
	if (l->plru)
		memset(l->plru, 0, nslots);
	if (l->nres)
		memset(l->nres, 0, l->nres_mask + 1);
	for (i = 0; i < l->ntrk; i++) {
		memset(l->trk[i].res, 0,
		       track_words(&l->trk[i]) * sizeof(uint64_t));
		memset(l->trk[i].dirty, 0,
		       track_words(&l->trk[i]) * sizeof(uint64_t));
	}
	l->clock = 0;
	l->count[0] = l->count[1] = 0;
	l->miss[0] = l->miss[1] = 0;
	l->writebacks = l->evictions = 0;
	l->maint_ops = l->maint_lines = l->maint_writebacks = 0;
	l->rng = level_seed(seed, n);
	seen_reset(l->seen);
}

static void level_free(struct level *l)
{
	unsigned int i;

	free(l->tag);
	free(l->stamp);
	free(l->dirty);
	free(l->plru);
	free(l->nres);
	free(l->name);
	seen_free(l->seen);
	for (i = 0; i < l->ntrk; i++) {
		free(l->trk[i].res);
		free(l->trk[i].dirty);
	}
}

static int level_init(struct level *l, const struct cachesim_level_config *lc,
		      unsigned int n, uint64_t seed)
{
	char buf[16];
	size_t nslots;

	memset(l, 0, sizeof(*l));
	l->cfg = *lc;
	l->ways = lc->ways;
	l->sets = (unsigned int)(lc->size / ((uint64_t)lc->ways * lc->line));
	l->set_mask = l->sets - 1;
	l->shift = log2u(lc->line);
	l->policy = lc->policy;
	l->wpol = lc->write_policy;
	l->wt = lc->write_policy != CACHESIM_WB_WA;
	l->plru_depth = log2u(lc->ways);
	nslots = (size_t)l->sets * l->ways;

	if (!lc->name)
		snprintf(buf, sizeof(buf), "L%u", n + 1);
	l->name = strdup(lc->name ? lc->name : buf);
	l->tag = malloc(nslots * sizeof(*l->tag));
	l->stamp = malloc(nslots * sizeof(*l->stamp));
	l->dirty = malloc(nslots);
	l->seen = calloc(1, sizeof(*l->seen));
	if (lc->policy == CACHESIM_PLRU)
		l->plru = malloc(nslots);
	if (l->ways <= UINT8_MAX) {
		l->nres_mask = NRES_MIN;
		while (l->nres_mask < NRES_PER_SLOT * (uint64_t)nslots)
			l->nres_mask <<= 1;
		l->nres = malloc(l->nres_mask);
		l->nres_mask--;
	}
	if (!l->name || !l->tag || !l->stamp || !l->dirty || !l->seen ||
	    (lc->policy == CACHESIM_PLRU && !l->plru) ||
	    (l->ways <= UINT8_MAX && !l->nres))
		return -ENOMEM;
	l->cfg.name = l->name;
	level_empty(l, seed, n);
	return 0;
}

struct cachesim *cachesim_create(const struct cachesim_config *cfg, char *msg,
				 size_t msglen)
{
	struct cachesim *cs;
	unsigned int n;

	if (cachesim_config_check(cfg, msg, msglen)) {
		errno = EINVAL;
		return NULL;
	}
	cs = calloc(1, sizeof(*cs));
	if (!cs)
		goto out_nomem;
	cs->cfg = *cfg;
	cs->nlevels = cfg->nlevels;
	cs->walk = choose_walk();
	for (n = 0; n < cs->nlevels; n++) {
		if (level_init(&cs->lv[n], &cfg->level[n], n, cfg->seed))
			goto out_destroy;
		cs->cfg.level[n].name = cs->lv[n].name;
	}
	/* Four times the L1 lines, so that the lines streaming through
	 * rarely overwrite the entry of a line of the working set. */
	cs->hint_mask = 1;
	while (cs->hint_mask < 4 * (uint64_t)cs->lv[0].sets * cs->lv[0].ways)
		cs->hint_mask <<= 1;
	cs->hint = calloc(cs->hint_mask, sizeof(*cs->hint));
	if (!cs->hint)
		goto out_destroy;
	cs->hint_mask--;
	return cs;

out_destroy:
	cachesim_destroy(cs);
out_nomem:
	set_msg(msg, msglen, "out of memory");
	errno = ENOMEM;
	return NULL;
}

void cachesim_destroy(struct cachesim *cs)
{
	unsigned int n;

	if (!cs)
		return;
	for (n = 0; n < CACHESIM_MAX_LEVELS; n++)
		level_free(&cs->lv[n]);
	free(cs->hint);
	free(cs);
}

void cachesim_reset(struct cachesim *cs)
{
	unsigned int n;

	for (n = 0; n < cs->nlevels; n++)
		level_empty(&cs->lv[n], cs->cfg.seed, n);
	cs->mem_req[0] = cs->mem_req[1] = 0;
}

void cachesim_set_evict_hook(struct cachesim *cs, cachesim_evict_fn fn,
			     void *ctx)
{
	cs->evict_fn = fn;
	cs->evict_ctx = fn ? ctx : NULL;
}

void cachesim_set_writeback_hook(struct cachesim *cs, cachesim_writeback_fn fn,
				 void *ctx)
{
	cs->wb_fn = fn;
	cs->wb_ctx = fn ? ctx : NULL;
}

/*
 * The maps of [@addr, @last] at level @l, filled from what @l holds, into
 * *@t.  Return: 0, -E2BIG, -ENOMEM.
 */
static int track_make(const struct level *l, uint64_t addr, uint64_t last,
		      struct track *t)
{
	size_t i, nslots = (size_t)l->sets * l->ways;

	t->first = addr >> l->shift;
	t->nlines = (last >> l->shift) - t->first + 1;
	if (!t->nlines || t->nlines > CACHESIM_TRACK_MAX_LINES)
		return -E2BIG;
	t->res = calloc(track_words(t), sizeof(uint64_t));
	t->dirty = calloc(track_words(t), sizeof(uint64_t));
	if (!t->res || !t->dirty) {
		free(t->res);
		free(t->dirty);
		return -ENOMEM;
	}
	for (i = 0; i < nslots; i++) {
		uint64_t k = l->tag[i] - t->first;

		if (l->tag[i] == TAG_INVALID || k >= t->nlines)
			continue;
		bit_set(t->res, k);
		if (l->dirty[i])
			bit_set(t->dirty, k);
	}
	return 0;
}

int cachesim_track(struct cachesim *cs, uint64_t addr, uint64_t len)
{
	struct track t[CACHESIM_MAX_LEVELS];
	uint64_t last = addr + len - 1;
	unsigned int n, i;
	int err = 0;

	if (!len || last < addr)
		return -EINVAL;
	if (cs->lv[0].ntrk == CACHESIM_MAX_TRACK)
		return -ENOSPC;
	for (n = 0; n < cs->nlevels; n++)
		if (track_overlaps(&cs->lv[n], addr >> cs->lv[n].shift,
				   last >> cs->lv[n].shift))
			return -EINVAL;
	for (n = 0; n < cs->nlevels && !err; n++)
		err = track_make(&cs->lv[n], addr, last, &t[n]);
	if (err) {
		/* track_make() freed its own maps on failure. */
		for (i = 0; i + 1 < n; i++) {
			free(t[i].res);
			free(t[i].dirty);
		}
		return err;
	}
	for (n = 0; n < cs->nlevels; n++)
		cs->lv[n].trk[cs->lv[n].ntrk++] = t[n];
	return 0;
}

/* ------------------------------------------------------------------ */
/* Queries                                                             */
/* ------------------------------------------------------------------ */

unsigned int cachesim_levels(const struct cachesim *cs)
{
	return cs->nlevels;
}

const struct cachesim_level_config *cachesim_level_config(
	const struct cachesim *cs, unsigned int level)
{
	if (level >= cs->nlevels)
		return NULL;
	return &cs->lv[level].cfg;
}

bool cachesim_locate(const struct cachesim *cs, unsigned int level,
		     uint64_t addr, unsigned int *set, unsigned int *way)
{
	const struct level *l;
	uint64_t line;
	int w;

	if (level >= cs->nlevels)
		return false;
	l = &cs->lv[level];
	line = addr >> l->shift;
	if (set)
		*set = (unsigned int)(line & l->set_mask);
	w = find_way(&l->tag[set_base_of(l, line)], l->ways, line);
	if (w < 0)
		return false;
	if (way)
		*way = (unsigned int)w;
	return true;
}

void cachesim_touch(struct cachesim *cs, uint64_t addr)
{
	struct level *l = &cs->lv[0];
	uint64_t line = addr >> l->shift;
	size_t base = set_base_of(l, line);
	int w = find_way(&l->tag[base], l->ways, line);

	if (w >= 0)
		touch_hit(l, base, (unsigned int)w);
}

bool cachesim_resident(const struct cachesim *cs, unsigned int level,
		       uint64_t addr)
{
	return cachesim_locate(cs, level, addr, NULL, NULL);
}

bool cachesim_dirty(const struct cachesim *cs, unsigned int level,
		    uint64_t addr)
{
	unsigned int set, way;

	if (!cachesim_locate(cs, level, addr, &set, &way))
		return false;
	return slot_dirty(&cs->lv[level],
			  (size_t)set * cs->lv[level].ways + way);
}

unsigned int cachesim_sets(const struct cachesim *cs, unsigned int level)
{
	return level < cs->nlevels ? cs->lv[level].sets : 0;
}

/*
 * Sort key of a way for the age rank: invalid ways first (they are taken
 * first), in way order, then the valid ones by the policy's order.
 */
static uint64_t age_key(const struct level *l, size_t base, unsigned int way)
{
	if (l->tag[base + way] == TAG_INVALID)
		return way;
	switch (l->policy) {
	case CACHESIM_PLRU:
		return l->ways + (uint64_t)plru_key(l, base, way);
	case CACHESIM_RANDOM:
		return l->ways + (uint64_t)way;
	default:
		return l->ways + l->stamp[base + way];
	}
}

int cachesim_line(const struct cachesim *cs, unsigned int level,
		  unsigned int set, unsigned int way,
		  struct cachesim_line_info *info)
{
	const struct level *l;
	uint64_t key;
	size_t base;
	unsigned int w, age = 0;

	if (level >= cs->nlevels)
		return -EINVAL;
	l = &cs->lv[level];
	if (set >= l->sets || way >= l->ways)
		return -EINVAL;
	base = (size_t)set * l->ways;
	key = age_key(l, base, way);
	for (w = 0; w < l->ways; w++) {
		uint64_t k = age_key(l, base, w);

		if (k < key || (k == key && w < way))
			age++;
	}
	info->valid = l->tag[base + way] != TAG_INVALID;
	info->dirty = info->valid && slot_dirty(l, base + way);
	info->addr = info->valid ? l->tag[base + way] << l->shift : 0;
	info->age = age;
	return 0;
}

void cachesim_stats(const struct cachesim *cs, unsigned int level,
		    struct cachesim_stats *st)
{
	const struct level *l;

	memset(st, 0, sizeof(*st));
	if (level >= cs->nlevels)
		return;
	l = &cs->lv[level];
	st->reads = l->count[0];
	st->writes = l->count[1];
	st->accesses = st->reads + st->writes;
	st->read_misses = l->miss[0];
	st->write_misses = l->miss[1];
	st->misses = st->read_misses + st->write_misses;
	st->hits = st->accesses - st->misses;
	seen_flush(l->seen);
	st->compulsory_misses = l->seen->compulsory;
	st->writebacks = l->writebacks;
	st->evictions = l->evictions;
	st->maint_ops = l->maint_ops;
	st->maint_lines = l->maint_lines;
	st->maint_writebacks = l->maint_writebacks;
	st->cycles = st->accesses * l->cfg.hit_latency;
}

bool cachesim_dirty_any(const struct cachesim *cs, unsigned int level,
			uint64_t addr, uint64_t len)
{
	const struct level *l;
	uint64_t first, last, line;
	size_t i, nslots;
	int w;

	if (level >= cs->nlevels || !len)
		return false;
	l = &cs->lv[level];
	first = addr >> l->shift;
	last = (len - 1 > UINT64_MAX - addr ? UINT64_MAX : addr + len - 1) >>
	       l->shift;
	nslots = (size_t)l->sets * l->ways;
	if (last - first < nslots) {
		/* Fewer lines than the level holds: look each one up. */
		for (line = first;; line++) {
			w = find_way(&l->tag[set_base_of(l, line)], l->ways,
				     line);
			if (w >= 0 && slot_dirty(l, set_base_of(l, line) +
							    (unsigned int)w))
				return true;
			if (line == last)
				return false;
		}
	}
	/* A range larger than the level: one walk of its slots. */
	for (i = 0; i < nslots; i++)
		if (l->tag[i] != TAG_INVALID && slot_dirty(l, i) &&
		    l->tag[i] >= first && l->tag[i] <= last)
			return true;
	return false;
}

bool cachesim_dirty_bits(const struct cachesim *cs, unsigned int level,
			 uint64_t addr, unsigned int n, uint64_t *bits)
{
	const struct level *l;
	const struct track *t;
	uint64_t first, i, v;
	size_t w;
	unsigned int s;

	if (level >= cs->nlevels || n < 1 || n > 64)
		return false;
	l = &cs->lv[level];
	first = addr >> l->shift;
	if (!l->ntrk || first + (n - 1) < first ||
	    !(t = track_holding(l, first, first + (n - 1))))
		return false;
	/* The bit is the truth for a tracked line (struct track). */
	i = first - t->first;
	w = (size_t)(i >> 6);
	s = (unsigned int)(i & 63);
	v = t->dirty[w] >> s;
	if (s && w + 1 < track_words(t))
		v |= t->dirty[w + 1] << (64 - s);
	*bits = n == 64 ? v : v & ((1ull << n) - 1);
	return true;
}

uint64_t cachesim_dirty_lines(const struct cachesim *cs, unsigned int level)
{
	const struct level *l;
	size_t i, nslots;
	uint64_t n = 0;

	if (level >= cs->nlevels)
		return 0;
	l = &cs->lv[level];
	nslots = (size_t)l->sets * l->ways;
	for (i = 0; i < nslots; i++)
		n += l->tag[i] != TAG_INVALID && slot_dirty(l, i);
	return n;
}

uint64_t cachesim_cycles(const struct cachesim *cs)
{
	uint64_t c = (cs->mem_req[0] + cs->mem_req[1]) * cs->cfg.mem_latency;
	unsigned int n;

	for (n = 0; n < cs->nlevels; n++)
		c += (cs->lv[n].count[0] + cs->lv[n].count[1]) *
		     cs->lv[n].cfg.hit_latency;
	return c;
}

/* ------------------------------------------------------------------ */
/* Names and parsing                                                   */
/* ------------------------------------------------------------------ */

static const char *const policy_names[] = {
	[CACHESIM_LRU] = "lru",
	[CACHESIM_PLRU] = "plru",
	[CACHESIM_FIFO] = "fifo",
	[CACHESIM_RANDOM] = "random",
};

static const char *const write_policy_names[] = {
	[CACHESIM_WB_WA] = "wb-wa",
	[CACHESIM_WT_WA] = "wt-wa",
	[CACHESIM_WT_NWA] = "wt-nwa",
};

const char *cachesim_policy_name(enum cachesim_policy p)
{
	if ((unsigned int)p > CACHESIM_RANDOM)
		return "?";
	return policy_names[p];
}

const char *cachesim_write_policy_name(enum cachesim_write_policy p)
{
	if ((unsigned int)p > CACHESIM_WT_NWA)
		return "?";
	return write_policy_names[p];
}

int cachesim_parse_policy(const char *s, enum cachesim_policy *p)
{
	unsigned int i;

	for (i = 0; s && i <= CACHESIM_RANDOM; i++) {
		if (!strcasecmp(s, policy_names[i])) {
			*p = (enum cachesim_policy)i;
			return 0;
		}
	}
	return -EINVAL;
}

int cachesim_parse_write_policy(const char *s, enum cachesim_write_policy *p)
{
	unsigned int i;

	for (i = 0; s && i <= CACHESIM_WT_NWA; i++) {
		if (!strcasecmp(s, write_policy_names[i])) {
			*p = (enum cachesim_write_policy)i;
			return 0;
		}
	}
	return -EINVAL;
}

int cachesim_parse_u64(const char *s, unsigned int flags, uint64_t *out)
{
	uint64_t v = 0;
	unsigned int base = 10, shift = 0, d;
	const char *p = s, *digits;

	if (!s)
		return -EINVAL;
	if ((flags & CACHESIM_PARSE_HEX) && p[0] == '0' &&
	    (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
	}
	for (digits = p; *p; p++) {
		if (*p >= '0' && *p <= '9')
			d = (unsigned int)(*p - '0');
		else if (base == 16 && *p >= 'a' && *p <= 'f')
			d = (unsigned int)(*p - 'a' + 10);
		else if (base == 16 && *p >= 'A' && *p <= 'F')
			d = (unsigned int)(*p - 'A' + 10);
		else
			break;
		if (v > (UINT64_MAX - d) / base)
			return -ERANGE;
		v = v * base + d;
	}
	if (p == digits)
		return -EINVAL;
	if (*p && (flags & CACHESIM_PARSE_SUFFIX)) {
		switch (*p) {
		case 'k':
		case 'K':
			shift = 10;
			break;
		case 'm':
		case 'M':
			shift = 20;
			break;
		case 'g':
		case 'G':
			shift = 30;
			break;
		case 't':
		case 'T':
			shift = 40;
			break;
		default:
			return -EINVAL;
		}
		p++;
		if (v > (UINT64_MAX >> shift))
			return -ERANGE;
		v <<= shift;
	}
	if (*p)
		return -EINVAL;
	*out = v;
	return 0;
}

int cachesim_parse_size(const char *s, uint64_t *out)
{
	int ret = cachesim_parse_u64(s, CACHESIM_PARSE_SUFFIX, out);

	return ret == -ERANGE ? -EINVAL : ret;
}
