// SPDX-License-Identifier: MIT
/*
 * check-cachesim.c - unit tests of the cache simulator library.
 *
 * Every expected number below is worked out by hand in the comment next to
 * it, on caches small enough to trace on paper (often one set).  Latencies
 * are 1 per level lookup unless a test sets them, memory is 10.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cachesim.h"
#include "check-run.h"

#define KiB 1024u

/* One-level simulator: hit latency 1, memory latency 10. */
static struct cachesim *make1(uint64_t size, unsigned int ways,
			      unsigned int line, enum cachesim_policy p,
			      enum cachesim_write_policy wp)
{
	struct cachesim_config cfg;
	struct cachesim *cs;
	char msg[128] = "";

	cachesim_config_init(&cfg);
	cfg.level[0].name = NULL;
	cfg.level[0].size = size;
	cfg.level[0].ways = ways;
	cfg.level[0].line = line;
	cfg.level[0].policy = p;
	cfg.level[0].write_policy = wp;
	cfg.level[0].hit_latency = 1;
	cfg.mem_latency = 10;
	cs = cachesim_create(&cfg, msg, sizeof(msg));
	ck_assert_msg(cs != NULL, "create failed: %s", msg);
	return cs;
}

/* Two-level simulator: L1 latency 1, L2 latency 10, memory 100. */
static struct cachesim *make2(uint64_t size1, unsigned int ways1,
			      uint64_t size2, unsigned int ways2,
			      enum cachesim_policy p2)
{
	struct cachesim_config cfg;
	struct cachesim *cs;
	char msg[128] = "";

	cachesim_config_init(&cfg);
	cfg.nlevels = 2;
	cfg.level[0].size = size1;
	cfg.level[0].ways = ways1;
	cfg.level[0].hit_latency = 1;
	cfg.level[1] = cfg.level[0];
	cfg.level[1].name = NULL;
	cfg.level[1].size = size2;
	cfg.level[1].ways = ways2;
	cfg.level[1].policy = p2;
	cfg.level[1].hit_latency = 10;
	cfg.mem_latency = 100;
	cs = cachesim_create(&cfg, msg, sizeof(msg));
	ck_assert_msg(cs != NULL, "create failed: %s", msg);
	return cs;
}

static struct cachesim_stats stats(const struct cachesim *cs,
				   unsigned int level)
{
	struct cachesim_stats st;

	cachesim_stats(cs, level, &st);
	return st;
}

static unsigned int rd(struct cachesim *cs, uint64_t addr)
{
	return cachesim_access(cs, addr, 4, CACHESIM_READ);
}

static unsigned int wr(struct cachesim *cs, uint64_t addr)
{
	return cachesim_access(cs, addr, 4, CACHESIM_WRITE);
}

/* Age rank of the line holding @addr in level 0 (it must be resident). */
static unsigned int age_of(const struct cachesim *cs, uint64_t addr)
{
	struct cachesim_line_info li;
	unsigned int set, way;

	ck_assert(cachesim_locate(cs, 0, addr, &set, &way));
	ck_assert_int_eq(cachesim_line(cs, 0, set, way, &li), 0);
	ck_assert(li.valid);
	ck_assert_uint_eq(li.addr, addr & ~63ull);
	return li.age;
}

/* Hook recorder. */
struct event {
	char kind; /* 'e' eviction hook, 'w' writeback hook */
	unsigned int level;
	uint64_t addr;
	bool dirty;
	bool last;
};

struct recorder {
	unsigned int n;
	struct event ev[512];
};

static void on_evict(void *ctx, unsigned int level, uint64_t addr, bool dirty,
		     bool last)
{
	struct recorder *r = ctx;

	ck_assert_uint_lt(r->n, 512);
	r->ev[r->n++] = (struct event){'e', level, addr, dirty, last};
}

static void on_writeback(void *ctx, unsigned int level, uint64_t addr,
			 bool last)
{
	struct recorder *r = ctx;

	ck_assert_uint_lt(r->n, 512);
	r->ev[r->n++] = (struct event){'w', level, addr, true, last};
}

static void check_event(const struct recorder *r, unsigned int i, char kind,
			unsigned int level, uint64_t addr, bool dirty,
			bool last)
{
	ck_assert_uint_gt(r->n, i);
	ck_assert_int_eq(r->ev[i].kind, kind);
	ck_assert_uint_eq(r->ev[i].level, level);
	ck_assert_uint_eq(r->ev[i].addr, addr);
	ck_assert_int_eq(r->ev[i].dirty, dirty);
	ck_assert_int_eq(r->ev[i].last, last);
}

/* ------------------------------------------------------------------ */
/* Geometry and capacity                                               */
/* ------------------------------------------------------------------ */

START_TEST(test_defaults)
{
	struct cachesim_config cfg;
	const struct cachesim_level_config *lc;
	struct cachesim *cs;

	cachesim_config_init(&cfg);
	ck_assert_uint_eq(cfg.nlevels, 1);
	ck_assert_uint_eq(cfg.level[0].size, 32 * KiB);
	ck_assert_uint_eq(cfg.level[0].ways, 8);
	ck_assert_uint_eq(cfg.level[0].line, 64);
	ck_assert_int_eq(cfg.level[0].policy, CACHESIM_LRU);
	ck_assert_int_eq(cfg.level[0].write_policy, CACHESIM_WB_WA);
	ck_assert_uint_eq(cfg.level[0].hit_latency, 4);
	ck_assert_uint_eq(cfg.mem_latency, 100);
	ck_assert_uint_eq(cfg.seed, 1);
	ck_assert_int_eq(cachesim_config_check(&cfg, NULL, 0), 0);

	cfg.level[0].name = NULL; /* normalised to "L1" */
	cs = cachesim_create(&cfg, NULL, 0);
	ck_assert_ptr_nonnull(cs);
	ck_assert_uint_eq(cachesim_levels(cs), 1);
	ck_assert_uint_eq(cachesim_sets(cs, 0), 64); /* 32 KiB / (8 * 64) */
	ck_assert_uint_eq(cachesim_sets(cs, 1), 0);
	lc = cachesim_level_config(cs, 0);
	ck_assert_ptr_nonnull(lc);
	ck_assert_str_eq(lc->name, "L1");
	ck_assert_ptr_null(cachesim_level_config(cs, 1));
	cachesim_destroy(cs);
	cachesim_destroy(NULL);
}
END_TEST

START_TEST(test_stream_stride)
{
	/* 1 KiB, 2-way, 64 B: 4-byte reads over 4 KiB = 1024 accesses on 64
	 * lines; the first access of each line misses, the 15 others hit. */
	struct cachesim *cs =
		make1(1 * KiB, 2, 64, CACHESIM_LRU, CACHESIM_WB_WA);
	struct cachesim_stats st;
	uint64_t a;

	for (a = 0x10000; a < 0x11000; a += 4)
		rd(cs, a);
	st = stats(cs, 0);
	ck_assert_uint_eq(st.accesses, 1024);
	ck_assert_uint_eq(st.reads, 1024);
	ck_assert_uint_eq(st.misses, 64);
	ck_assert_uint_eq(st.read_misses, 64);
	ck_assert_uint_eq(st.hits, 960);
	ck_assert_uint_eq(st.compulsory_misses, 64);
	/* 16 lines fit, the other 48 fills each replace one. */
	ck_assert_uint_eq(st.evictions, 48);
	ck_assert_uint_eq(st.writebacks, 0);
	cachesim_destroy(cs);
}
END_TEST

START_TEST(test_working_set_fits)
{
	/* 4 KiB, 4-way: 64 lines.  Two passes over 4 KiB: 64 misses, then
	 * 64 hits; nothing is evicted. */
	struct cachesim *cs =
		make1(4 * KiB, 4, 64, CACHESIM_LRU, CACHESIM_WB_WA);
	struct cachesim_stats st;
	uint64_t a;
	int pass;

	for (pass = 0; pass < 2; pass++)
		for (a = 0; a < 4 * KiB; a += 64)
			ck_assert_uint_eq(rd(cs, a), pass ? 0 : 1);
	st = stats(cs, 0);
	ck_assert_uint_eq(st.accesses, 128);
	ck_assert_uint_eq(st.misses, 64);
	ck_assert_uint_eq(st.hits, 64);
	ck_assert_uint_eq(st.compulsory_misses, 64);
	ck_assert_uint_eq(st.evictions, 0);
	cachesim_destroy(cs);
}
END_TEST

START_TEST(test_working_set_thrash)
{
	/* 5 KiB (80 lines) cycled through a 4 KiB 4-way LRU cache: each of
	 * the 16 sets sees 5 lines in turn, so LRU always evicts the line
	 * needed next.  Pass 1: 80 misses; pass 2: 80 more, 0 hits. */
	struct cachesim *cs =
		make1(4 * KiB, 4, 64, CACHESIM_LRU, CACHESIM_WB_WA);
	struct cachesim_stats st;
	uint64_t a;
	int pass;

	for (pass = 0; pass < 2; pass++)
		for (a = 0; a < 5 * KiB; a += 64)
			rd(cs, a);
	st = stats(cs, 0);
	ck_assert_uint_eq(st.misses, 160);
	ck_assert_uint_eq(st.hits, 0);
	ck_assert_uint_eq(st.compulsory_misses, 80);
	ck_assert_uint_eq(st.evictions, 160 - 64);
	cachesim_destroy(cs);
}
END_TEST

/* Two passes over @nlines lines that all map to set 0 of the default
 * 32 KiB, 8-way, 64-set cache (stride 64 sets * 64 B = 4 KiB). */
static struct cachesim_stats one_set_passes(unsigned int nlines)
{
	struct cachesim *cs =
		make1(32 * KiB, 8, 64, CACHESIM_LRU, CACHESIM_WB_WA);
	struct cachesim_stats st;
	unsigned int i, pass, set;

	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < nlines; i++) {
			rd(cs, (uint64_t)i * 4096);
			cachesim_locate(cs, 0, (uint64_t)i * 4096, &set, NULL);
			ck_assert_uint_eq(set, 0);
		}
	}
	st = stats(cs, 0);
	cachesim_destroy(cs);
	return st;
}

START_TEST(test_one_set_8_lines)
{
	struct cachesim_stats st = one_set_passes(8);

	ck_assert_uint_eq(st.misses, 8); /* first pass only */
	ck_assert_uint_eq(st.hits, 8);
}
END_TEST

START_TEST(test_one_set_9_lines)
{
	struct cachesim_stats st = one_set_passes(9);

	ck_assert_uint_eq(st.misses, 18); /* LRU thrash: every access */
	ck_assert_uint_eq(st.hits, 0);
	ck_assert_uint_eq(st.evictions, 10);
}
END_TEST

/*
 * cachesim_touch(): an L1 hit counted elsewhere moves the line in the
 * replacement order (LRU and PLRU) and in no statistic; a line L1 does
 * not hold is left alone.  One set of two ways at 0, 128, 256.
 */
START_TEST(test_touch_orders_without_counting)
{
	static const enum cachesim_policy pol[] = {CACHESIM_LRU, CACHESIM_PLRU};
	unsigned int i;

	for (i = 0; i < 2; i++) {
		struct cachesim *cs = make1(256, 2, 64, pol[i], CACHESIM_WB_WA);
		struct cachesim_stats st;

		rd(cs, 0);
		rd(cs, 128);
		cachesim_touch(cs, 0);
		cachesim_touch(cs, 512); /* not held: nothing */
		st = stats(cs, 0);
		ck_assert_uint_eq(st.accesses, 2);
		ck_assert_uint_eq(st.hits, 0);
		rd(cs, 256); /* evicts 128, the older since the touch */
		ck_assert(cachesim_resident(cs, 0, 0));
		ck_assert(!cachesim_resident(cs, 0, 128));
		ck_assert(!cachesim_resident(cs, 0, 512));
		cachesim_destroy(cs);
	}
}
END_TEST

/*
 * cachesim_access_many() is a loop of cachesim_access(): over a mix of
 * reads, writes, fetches, straddling and zero-sized accesses, hits and
 * misses, through two levels, one of them write-through, the same
 * statistics at every level and the same lines left dirty.
 */
START_TEST(test_access_many_is_access)
{
	static struct cachesim_req reqs[20000];
	static const enum cachesim_write_policy wp[] = {CACHESIM_WB_WA,
							CACHESIM_WT_NWA};
	uint64_t x = 12345;
	unsigned int i, k, lv;

	for (i = 0; i < 20000; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		reqs[i].addr = (x >> 33) % 4 ? (x >> 20) % 8192
					     : (x >> 16) % (1u << 22);
		reqs[i].size = (unsigned int)(x >> 8) % 4 ? 8 : (x >> 12) % 130;
		reqs[i].op = (uint32_t)(x >> 40) % 3;
	}
	for (k = 0; k < 2; k++) {
		struct cachesim_config cfg;
		struct cachesim *one, *many;
		char msg[128] = "";

		cachesim_config_init(&cfg);
		cfg.nlevels = 2;
		cfg.level[0].size = 4096;
		cfg.level[0].ways = 4;
		cfg.level[0].write_policy = wp[k];
		cfg.level[1] = cfg.level[0];
		cfg.level[1].name = NULL;
		cfg.level[1].size = 32768;
		cfg.level[1].ways = 8;
		cfg.level[1].write_policy = CACHESIM_WB_WA;
		one = cachesim_create(&cfg, msg, sizeof(msg));
		many = cachesim_create(&cfg, msg, sizeof(msg));
		ck_assert_msg(one && many, "create failed: %s", msg);

		for (i = 0; i < 20000; i++)
			cachesim_access(one, reqs[i].addr, reqs[i].size,
					(enum cachesim_op)reqs[i].op);
		cachesim_access_many(many, reqs, 7);
		cachesim_access_many(many, reqs + 7, 0);
		cachesim_access_many(many, reqs + 7, 20000 - 7);
		for (lv = 0; lv < 2; lv++) {
			struct cachesim_stats a = stats(one, lv),
					      b = stats(many, lv);

			ck_assert_uint_gt(a.hits, 0);
			ck_assert_uint_gt(a.misses, 0);
			ck_assert_mem_eq(&a, &b, sizeof(a));
			ck_assert_uint_eq(cachesim_dirty_lines(one, lv),
					  cachesim_dirty_lines(many, lv));
		}
		cachesim_destroy(one);
		cachesim_destroy(many);
	}
}
END_TEST

START_TEST(test_direct_mapped)
{
	/* 256 B direct-mapped, 4 sets: 0 and 256 share set 0 and evict each
	 * other; 64 lives in set 1 and stays. */
	struct cachesim *cs = make1(256, 1, 64, CACHESIM_LRU, CACHESIM_WB_WA);
	struct cachesim_stats st;
	int i;

	rd(cs, 64);
	for (i = 0; i < 4; i++) {
		ck_assert_uint_eq(rd(cs, 0), 1);
		ck_assert_uint_eq(rd(cs, 256), 1);
	}
	ck_assert_uint_eq(rd(cs, 64), 0);
	st = stats(cs, 0);
	ck_assert_uint_eq(st.misses, 9);
	ck_assert_uint_eq(st.hits, 1);
	ck_assert_uint_eq(st.compulsory_misses, 3);
	cachesim_destroy(cs);
}
END_TEST

START_TEST(test_fully_associative)
{
	/* 1 KiB, 16 ways of 64 B: one set.  16 scattered lines all fit; a
	 * 17th evicts the least recently used (the first of pass 2). */
	struct cachesim *cs =
		make1(1 * KiB, 16, 64, CACHESIM_LRU, CACHESIM_WB_WA);
	struct cachesim_stats st;
	unsigned int i, pass;

	ck_assert_uint_eq(cachesim_sets(cs, 0), 1);
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < 16; i++)
			rd(cs, (uint64_t)i * 0x10040);
	st = stats(cs, 0);
	ck_assert_uint_eq(st.misses, 16);
	ck_assert_uint_eq(st.hits, 16);
	rd(cs, 0x999900);
	ck_assert(!cachesim_resident(cs, 0, 0));
	ck_assert(cachesim_resident(cs, 0, 0x10040));
	cachesim_destroy(cs);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Replacement policies (one set of four 64-byte ways: 256 B, 4-way)   */
/* ------------------------------------------------------------------ */

#define A 0x000
#define B 0x040
#define C 0x080
#define D 0x0c0
#define E 0x100
#define F 0x140

START_TEST(test_lru_victim)
{
	/* A B C D fill ways 0-3; A hits; E replaces the LRU line, B. */
	struct cachesim *cs = make1(256, 4, 64, CACHESIM_LRU, CACHESIM_WB_WA);
	unsigned int way;

	rd(cs, A);
	rd(cs, B);
	rd(cs, C);
	rd(cs, D);
	ck_assert_uint_eq(rd(cs, A), 0);
	ck_assert_uint_eq(rd(cs, E), 1);
	ck_assert(!cachesim_resident(cs, 0, B));
	ck_assert(cachesim_resident(cs, 0, A));
	ck_assert(cachesim_resident(cs, 0, C));
	ck_assert(cachesim_locate(cs, 0, E, NULL, &way));
	ck_assert_uint_eq(way, 1); /* B's way */
	/* Recency, oldest first: C D A E. */
	ck_assert_uint_eq(age_of(cs, C), 0);
	ck_assert_uint_eq(age_of(cs, D), 1);
	ck_assert_uint_eq(age_of(cs, A), 2);
	ck_assert_uint_eq(age_of(cs, E), 3);
	rd(cs, F); /* evicts C */
	ck_assert(!cachesim_resident(cs, 0, C));
	cachesim_destroy(cs);
}
END_TEST

START_TEST(test_plru_victim)
{
	/*
	 * Tree bits: node 1 chooses ways {0,1} (0) or {2,3} (1); node 2
	 * chooses way 0 or 1, node 3 way 2 or 3.  A use points the nodes on
	 * its path away from it.
	 *   fill A..D (ways 0..3)  -> n1=0 n2=0 n3=0, victim way 0
	 *   hit A (way 0)          -> n1=1 n2=1,      victim way 2 (C)
	 *   E replaces C (way 2)   -> n1=0 n3=1,      victim way 1 (B)
	 * True LRU would have taken B for E: the policies differ here.
	 */
	struct cachesim *cs = make1(256, 4, 64, CACHESIM_PLRU, CACHESIM_WB_WA);
	unsigned int way;

	rd(cs, A);
	rd(cs, B);
	rd(cs, C);
	rd(cs, D);
	rd(cs, A);
	ck_assert_uint_eq(rd(cs, E), 1);
	ck_assert(!cachesim_resident(cs, 0, C));
	ck_assert(cachesim_resident(cs, 0, B));
	ck_assert(cachesim_locate(cs, 0, E, NULL, &way));
	ck_assert_uint_eq(way, 2);
	/* Rank = bits "points away" along the path, root first:
	 * A 01, B 00, E 11, D 10. */
	ck_assert_uint_eq(age_of(cs, B), 0);
	ck_assert_uint_eq(age_of(cs, A), 1);
	ck_assert_uint_eq(age_of(cs, D), 2);
	ck_assert_uint_eq(age_of(cs, E), 3);
	rd(cs, F);
	ck_assert(!cachesim_resident(cs, 0, B));
	ck_assert(cachesim_locate(cs, 0, F, NULL, &way));
	ck_assert_uint_eq(way, 1);
	cachesim_destroy(cs);
}
END_TEST

START_TEST(test_fifo_victim)
{
	/* A B C D; the hit on A does not reorder FIFO; E replaces A. */
	struct cachesim *cs = make1(256, 4, 64, CACHESIM_FIFO, CACHESIM_WB_WA);

	rd(cs, A);
	rd(cs, B);
	rd(cs, C);
	rd(cs, D);
	ck_assert_uint_eq(rd(cs, A), 0);
	rd(cs, E);
	ck_assert(!cachesim_resident(cs, 0, A));
	ck_assert(cachesim_resident(cs, 0, B));
	ck_assert_uint_eq(age_of(cs, B), 0);
	ck_assert_uint_eq(age_of(cs, C), 1);
	ck_assert_uint_eq(age_of(cs, D), 2);
	ck_assert_uint_eq(age_of(cs, E), 3);
	rd(cs, F); /* then B */
	ck_assert(!cachesim_resident(cs, 0, B));
	cachesim_destroy(cs);
}
END_TEST

/* 200 evictions from one 8-way set under RANDOM; victims into @victims. */
static void random_victims(uint64_t seed, uint64_t *victims,
			   unsigned int *way_count)
{
	struct cachesim_config cfg;
	struct recorder *r = calloc(1, sizeof(*r));
	struct cachesim *cs;
	unsigned int i, way;

	ck_assert_ptr_nonnull(r);
	cachesim_config_init(&cfg);
	cfg.level[0].size = 512;
	cfg.level[0].ways = 8;
	cfg.level[0].policy = CACHESIM_RANDOM;
	cfg.seed = seed;
	cs = cachesim_create(&cfg, NULL, 0);
	ck_assert_ptr_nonnull(cs);
	cachesim_set_evict_hook(cs, on_evict, r);
	for (i = 0; i < 208; i++) {
		rd(cs, (uint64_t)i * 64);
		ck_assert(cachesim_locate(cs, 0, (uint64_t)i * 64, NULL, &way));
		if (i < 8)
			ck_assert_uint_eq(way, i); /* invalid ways first */
		else
			way_count[way]++;
	}
	ck_assert_uint_eq(r->n, 200);
	for (i = 0; i < 200; i++)
		victims[i] = r->ev[i].addr;
	cachesim_destroy(cs);
	free(r);
}

START_TEST(test_random_victim)
{
	uint64_t v1[200], v2[200], v3[200];
	unsigned int c1[8] = {0}, c2[8] = {0}, c3[8] = {0};
	unsigned int i;

	random_victims(7, v1, c1);
	random_victims(7, v2, c2);
	random_victims(8, v3, c3);
	ck_assert_mem_eq(v1, v2, sizeof(v1)); /* same seed, same victims */
	ck_assert(memcmp(v1, v3, sizeof(v1)) != 0);
	for (i = 0; i < 8; i++)
		ck_assert_uint_gt(c1[i], 0); /* every way gets chosen */
}
END_TEST

START_TEST(test_invalid_way_first)
{
	/* After an invalidate, the emptied way is refilled before any valid
	 * line is evicted, whatever the policy. */
	enum cachesim_policy p;
	unsigned int way;

	for (p = CACHESIM_LRU; p <= CACHESIM_RANDOM; p++) {
		struct cachesim *cs = make1(256, 4, 64, p, CACHESIM_WB_WA);

		rd(cs, A);
		rd(cs, B);
		rd(cs, C);
		rd(cs, D);
		cachesim_invalidate(cs, C, 64);
		rd(cs, E);
		ck_assert(cachesim_locate(cs, 0, E, NULL, &way));
		ck_assert_uint_eq(way, 2);
		ck_assert(cachesim_resident(cs, 0, A));
		ck_assert(cachesim_resident(cs, 0, B));
		ck_assert(cachesim_resident(cs, 0, D));
		ck_assert_uint_eq(stats(cs, 0).evictions, 0);
		cachesim_destroy(cs);
	}
}
END_TEST

/* ------------------------------------------------------------------ */
/* Write policies                                                      */
/* ------------------------------------------------------------------ */

START_TEST(test_write_back)
{
	/* One set of 4: write A B, read C D, then read E F G H evicting, in
	 * LRU order, A (dirty) B (dirty) C D.  2 write-backs, 4 evictions. */
	struct cachesim *cs = make1(256, 4, 64, CACHESIM_LRU, CACHESIM_WB_WA);
	struct recorder r = {0};
	struct cachesim_stats st;

	cachesim_set_evict_hook(cs, on_evict, &r);
	ck_assert_uint_eq(wr(cs, A), 1); /* allocates */
	wr(cs, B);
	rd(cs, C);
	rd(cs, D);
	ck_assert(cachesim_dirty(cs, 0, A));
	ck_assert(!cachesim_dirty(cs, 0, C));
	ck_assert_uint_eq(cachesim_dirty_lines(cs, 0), 2);
	rd(cs, E);
	rd(cs, F);
	rd(cs, 0x180);
	rd(cs, 0x1c0);
	st = stats(cs, 0);
	ck_assert_uint_eq(st.writebacks, 2);
	ck_assert_uint_eq(st.evictions, 4);
	ck_assert_uint_eq(cachesim_dirty_lines(cs, 0), 0);
	ck_assert_uint_eq(r.n, 4);
	check_event(&r, 0, 'e', 0, A, true, true);
	check_event(&r, 1, 'e', 0, B, true, true);
	check_event(&r, 2, 'e', 0, C, false, true);
	check_event(&r, 3, 'e', 0, D, false, true);
	/* A write hit dirties without a write-back: dirty at end, counted
	 * apart from the write-backs of the run. */
	ck_assert_uint_eq(wr(cs, E), 0);
	st = stats(cs, 0);
	ck_assert_uint_eq(cachesim_dirty_lines(cs, 0), 1);
	ck_assert_uint_eq(st.writebacks, 2);
	ck_assert_uint_eq(st.accesses, 9);
	ck_assert_uint_eq(st.writes, 3);
	ck_assert_uint_eq(st.reads, 6);
	ck_assert_uint_eq(st.write_misses, 2);
	ck_assert_uint_eq(st.read_misses, 6);
	ck_assert_uint_eq(st.hits, 1);
	/* A cleared hook is not called. */
	cachesim_set_evict_hook(cs, NULL, NULL);
	rd(cs, 0x200);
	ck_assert_uint_eq(stats(cs, 0).evictions, 5);
	ck_assert_uint_eq(r.n, 4);
	cachesim_destroy(cs);
}
END_TEST

START_TEST(test_write_through)
{
	/* 64 B direct-mapped (1 line), WT+WA, latency 1, memory 10:
	 *   write A: miss, fetch (10), fill clean, write-through (10)  = 21
	 *   write A: hit, write-through (10)                           = 11
	 *   read A: hit                                                =  1
	 *   read B: miss, fetch (10), A is clean: no write-back        = 11
	 */
	struct cachesim *cs = make1(64, 1, 64, CACHESIM_LRU, CACHESIM_WT_WA);
	struct cachesim_stats st;

	ck_assert_uint_eq(wr(cs, A), 1);
	ck_assert(cachesim_resident(cs, 0, A));
	ck_assert(!cachesim_dirty(cs, 0, A));
	ck_assert_uint_eq(wr(cs, A), 0);
	ck_assert_uint_eq(rd(cs, A), 0);
	ck_assert_uint_eq(cachesim_cycles(cs), 33);
	ck_assert_uint_eq(rd(cs, B), 1);
	ck_assert_uint_eq(cachesim_cycles(cs), 44);
	st = stats(cs, 0);
	ck_assert_uint_eq(st.accesses, 4);
	ck_assert_uint_eq(st.writes, 2);
	ck_assert_uint_eq(st.misses, 2);
	ck_assert_uint_eq(st.write_misses, 1);
	ck_assert_uint_eq(st.evictions, 1);
	ck_assert_uint_eq(st.writebacks, 0);
	ck_assert_uint_eq(cachesim_dirty_lines(cs, 0), 0);
	cachesim_destroy(cs);
}
END_TEST

START_TEST(test_no_write_allocate)
{
	/* WT+NWA: a write miss goes to memory (1 + 10) and allocates
	 * nothing; the read that follows misses (1 + 10) but is not
	 * compulsory: the line was touched; the second write hits (1 + 10). */
	struct cachesim *cs = make1(64, 1, 64, CACHESIM_LRU, CACHESIM_WT_NWA);
	struct cachesim_stats st;

	ck_assert_uint_eq(wr(cs, A), 1);
	ck_assert(!cachesim_resident(cs, 0, A));
	ck_assert_uint_eq(rd(cs, A), 1);
	ck_assert(cachesim_resident(cs, 0, A));
	ck_assert_uint_eq(wr(cs, A), 0);
	ck_assert(!cachesim_dirty(cs, 0, A));
	st = stats(cs, 0);
	ck_assert_uint_eq(st.accesses, 3);
	ck_assert_uint_eq(st.misses, 2);
	ck_assert_uint_eq(st.write_misses, 1);
	ck_assert_uint_eq(st.read_misses, 1);
	ck_assert_uint_eq(st.compulsory_misses, 1);
	ck_assert_uint_eq(st.hits, 1);
	ck_assert_uint_eq(cachesim_cycles(cs), 33);
	cachesim_destroy(cs);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Maintenance                                                         */
/* ------------------------------------------------------------------ */

START_TEST(test_clean)
{
	/* 1 KiB 4-way (4 sets).  Write A B, read C; clean [A, A+64). */
	struct cachesim *cs =
		make1(1 * KiB, 4, 64, CACHESIM_LRU, CACHESIM_WB_WA);
	struct recorder r = {0};
	struct cachesim_stats st;

	cachesim_set_evict_hook(cs, on_evict, &r);
	cachesim_set_writeback_hook(cs, on_writeback, &r);
	wr(cs, 0x1000);
	wr(cs, 0x1040);
	rd(cs, 0x1080);
	ck_assert_uint_eq(cachesim_cycles(cs), 33); /* 3 * (1 + 10) */
	ck_assert_uint_eq(cachesim_clean(cs, 0x1000, 64), 1);
	ck_assert(cachesim_resident(cs, 0, 0x1000));
	ck_assert(!cachesim_dirty(cs, 0, 0x1000));
	ck_assert(cachesim_dirty(cs, 0, 0x1040));
	ck_assert_uint_eq(r.n, 1);
	check_event(&r, 0, 'w', 0, 0x1000, true, true);
	st = stats(cs, 0);
	ck_assert_uint_eq(st.maint_ops, 1);
	ck_assert_uint_eq(st.maint_lines, 1);
	ck_assert_uint_eq(st.maint_writebacks, 1);
	ck_assert_uint_eq(st.writebacks, 0);
	ck_assert_uint_eq(cachesim_cycles(cs), 43); /* + 1 memory write */

	/* [A+63, A+65) overlaps A and B: both resident, B written back. */
	ck_assert_uint_eq(cachesim_clean(cs, 0x103f, 2), 2);
	check_event(&r, 1, 'w', 0, 0x1040, true, true);
	/* All three: nothing dirty any more, no write-back. */
	ck_assert_uint_eq(cachesim_clean(cs, 0x1000, 0xc0), 3);
	st = stats(cs, 0);
	ck_assert_uint_eq(st.maint_ops, 3);
	ck_assert_uint_eq(st.maint_lines, 6);
	ck_assert_uint_eq(st.maint_writebacks, 2);
	ck_assert_uint_eq(cachesim_dirty_lines(cs, 0), 0);
	ck_assert_uint_eq(r.n, 2);
	ck_assert_uint_eq(cachesim_cycles(cs), 53);
	cachesim_destroy(cs);
}
END_TEST

START_TEST(test_invalidate)
{
	struct cachesim *cs =
		make1(1 * KiB, 4, 64, CACHESIM_LRU, CACHESIM_WB_WA);
	struct recorder r = {0};
	struct cachesim_stats st;

	cachesim_set_evict_hook(cs, on_evict, &r);
	cachesim_set_writeback_hook(cs, on_writeback, &r);
	wr(cs, 0x1000);
	rd(cs, 0x1040);
	ck_assert_uint_eq(cachesim_invalidate(cs, 0x1008, 1), 1);
	ck_assert(!cachesim_resident(cs, 0, 0x1000));
	ck_assert(cachesim_resident(cs, 0, 0x1040));
	/* Dirty data discarded: the hook says "not written back". */
	ck_assert_uint_eq(r.n, 1);
	check_event(&r, 0, 'e', 0, 0x1000, false, true);
	st = stats(cs, 0);
	ck_assert_uint_eq(st.maint_writebacks, 0);
	ck_assert_uint_eq(st.maint_lines, 1);
	ck_assert_uint_eq(st.writebacks, 0);
	ck_assert_uint_eq(cachesim_dirty_lines(cs, 0), 0);
	ck_assert_uint_eq(cachesim_cycles(cs), 22); /* no memory write */
	/* The line comes back by a miss that is not compulsory. */
	ck_assert_uint_eq(rd(cs, 0x1000), 1);
	ck_assert_uint_eq(stats(cs, 0).compulsory_misses, 2);
	ck_assert_uint_eq(stats(cs, 0).misses, 3);
	/* Nothing resident in the range: 0 lines, still one call. */
	ck_assert_uint_eq(cachesim_invalidate(cs, 0x8000, 4096), 0);
	ck_assert_uint_eq(stats(cs, 0).maint_ops, 2);
	cachesim_destroy(cs);
}
END_TEST

START_TEST(test_clean_invalidate)
{
	struct cachesim *cs =
		make1(1 * KiB, 4, 64, CACHESIM_LRU, CACHESIM_WB_WA);
	struct recorder r = {0};
	struct cachesim_stats st;

	cachesim_set_evict_hook(cs, on_evict, &r);
	cachesim_set_writeback_hook(cs, on_writeback, &r);
	wr(cs, 0x1000);
	rd(cs, 0x1040);
	rd(cs, 0x1080);
	ck_assert_uint_eq(cachesim_clean_invalidate(cs, 0x1000, 128), 2);
	ck_assert(!cachesim_resident(cs, 0, 0x1000));
	ck_assert(!cachesim_resident(cs, 0, 0x1040));
	ck_assert(cachesim_resident(cs, 0, 0x1080));
	ck_assert_uint_eq(r.n, 2); /* the evict hook only */
	check_event(&r, 0, 'e', 0, 0x1000, true, true);
	check_event(&r, 1, 'e', 0, 0x1040, false, true);
	st = stats(cs, 0);
	ck_assert_uint_eq(st.maint_ops, 1);
	ck_assert_uint_eq(st.maint_lines, 2);
	ck_assert_uint_eq(st.maint_writebacks, 1);
	ck_assert_uint_eq(st.evictions, 0); /* replacements only */
	ck_assert_uint_eq(cachesim_cycles(cs), 33 + 10);
	cachesim_destroy(cs);
}
END_TEST

START_TEST(test_flush_all)
{
	/* L1 256 B 4-way (one set), L2 1 KiB 4-way.  Write A B, read C:
	 * both levels hold A B C, dirty only in L1.  Flushing L1 writes A
	 * and B into L2 (dirty there), flushing L2 writes them to memory. */
	struct cachesim *cs = make2(256, 4, 1 * KiB, 4, CACHESIM_LRU);
	struct recorder r = {0};
	uint64_t cycles;

	cachesim_set_evict_hook(cs, on_evict, &r);
	cachesim_set_writeback_hook(cs, on_writeback, &r);
	wr(cs, A);
	wr(cs, B);
	rd(cs, C);
	ck_assert(cachesim_dirty(cs, 0, A));
	ck_assert(!cachesim_dirty(cs, 1, A));
	cycles = cachesim_cycles(cs);
	ck_assert_uint_eq(cachesim_flush_all(cs), 6);
	ck_assert_uint_eq(r.n, 6);
	check_event(&r, 0, 'e', 0, A, true, false);
	check_event(&r, 1, 'e', 0, B, true, false);
	check_event(&r, 2, 'e', 0, C, false, false);
	check_event(&r, 3, 'e', 1, A, true, true);
	check_event(&r, 4, 'e', 1, B, true, true);
	check_event(&r, 5, 'e', 1, C, false, true);
	ck_assert_uint_eq(stats(cs, 0).maint_writebacks, 2);
	ck_assert_uint_eq(stats(cs, 1).maint_writebacks, 2);
	ck_assert_uint_eq(stats(cs, 1).maint_lines, 3);
	ck_assert_uint_eq(stats(cs, 1).maint_ops, 1);
	ck_assert(!cachesim_resident(cs, 0, A));
	ck_assert(!cachesim_resident(cs, 1, C));
	ck_assert_uint_eq(cachesim_dirty_lines(cs, 0), 0);
	ck_assert_uint_eq(cachesim_dirty_lines(cs, 1), 0);
	ck_assert_uint_eq(cachesim_cycles(cs), cycles + 2 * 100);
	ck_assert_uint_eq(cachesim_flush_all(cs), 0);
	cachesim_destroy(cs);
}
END_TEST

START_TEST(test_clean_multilevel)
{
	/* A dirty L1 line over a clean L2 copy: cleaning passes it through
	 * L2 to memory, one memory write, a hook call per level. */
	struct cachesim *cs = make2(256, 4, 1 * KiB, 4, CACHESIM_LRU);
	struct recorder r = {0};

	cachesim_set_evict_hook(cs, on_evict, &r);
	cachesim_set_writeback_hook(cs, on_writeback, &r);
	wr(cs, A);
	ck_assert_uint_eq(cachesim_cycles(cs), 111);
	ck_assert_uint_eq(cachesim_clean(cs, A, 4), 2);
	ck_assert_uint_eq(r.n, 2);
	check_event(&r, 0, 'w', 0, A, true, false);
	check_event(&r, 1, 'w', 1, A, true, true);
	ck_assert(cachesim_resident(cs, 0, A));
	ck_assert(cachesim_resident(cs, 1, A));
	ck_assert(!cachesim_dirty(cs, 0, A));
	ck_assert(!cachesim_dirty(cs, 1, A));
	ck_assert_uint_eq(stats(cs, 0).maint_writebacks, 1);
	ck_assert_uint_eq(stats(cs, 1).maint_writebacks, 1);
	ck_assert_uint_eq(cachesim_cycles(cs), 211);
	cachesim_destroy(cs);
}
END_TEST

START_TEST(test_maint_large_range)
{
	/* A range far larger than the cache is handled by visiting the
	 * cache: 100 resident lines, all dropped. */
	struct cachesim *cs =
		make1(32 * KiB, 8, 64, CACHESIM_LRU, CACHESIM_WB_WA);
	unsigned int i;

	for (i = 0; i < 100; i++)
		(i & 1 ? wr : rd)(cs, 0x40000 + (uint64_t)i * 64);
	ck_assert_uint_eq(cachesim_dirty_lines(cs, 0), 50);
	ck_assert_uint_eq(cachesim_invalidate(cs, 0x40000 + 64, 1ull << 40),
			  99);
	ck_assert(cachesim_resident(cs, 0, 0x40000));
	ck_assert(!cachesim_resident(cs, 0, 0x40040));
	ck_assert_uint_eq(cachesim_dirty_lines(cs, 0), 0);
	ck_assert_uint_eq(stats(cs, 0).maint_writebacks, 0);
	cachesim_destroy(cs);
}
END_TEST

START_TEST(test_dirty_any)
{
	/* One dirty line among clean ones, asked of ranges smaller than the
	 * level (a lookup per line) and larger (a walk of its slots). */
	struct cachesim *cs =
		make1(4 * KiB, 4, 64, CACHESIM_LRU, CACHESIM_WB_WA);
	uint64_t base = 0x100000, d = base + 5 * 64;
	unsigned int i;

	for (i = 0; i < 8; i++)
		rd(cs, base + (uint64_t)i * 64);
	ck_assert(!cachesim_dirty_any(cs, 0, base, 8 * 64));
	wr(cs, d);
	ck_assert(cachesim_dirty_any(cs, 0, d, 1));
	ck_assert(cachesim_dirty_any(cs, 0, d + 63, 1));
	ck_assert(cachesim_dirty_any(cs, 0, base, 8 * 64));
	ck_assert(!cachesim_dirty_any(cs, 0, base, 5 * 64));
	ck_assert(!cachesim_dirty_any(cs, 0, d + 64, 2 * 64));
	ck_assert(!cachesim_dirty_any(cs, 0, d, 0));
	/* 1 MiB: more lines than the level's 64 slots. */
	ck_assert(cachesim_dirty_any(cs, 0, base, 1 << 20));
	ck_assert(cachesim_dirty_any(cs, 0, d - (1 << 19), 1 << 20));
	ck_assert(cachesim_dirty_any(cs, 0, d, 1 << 20));
	ck_assert(cachesim_dirty_any(cs, 0, d + 64 - (1 << 20), 1 << 20));
	ck_assert(cachesim_dirty_any(cs, 0, d - 2 * 64, 3 * 64));
	ck_assert(!cachesim_dirty_any(cs, 0, d + 64, 1 << 20));
	ck_assert(!cachesim_dirty_any(cs, 0, d - (1 << 20), 1 << 20));
	ck_assert(cachesim_dirty_any(cs, 0, 0, UINT64_MAX));
	ck_assert(!cachesim_dirty_any(cs, 1, base, 1 << 20));
	cachesim_clean(cs, d, 64);
	ck_assert(!cachesim_dirty_any(cs, 0, base, 1 << 20));
	ck_assert(cachesim_resident(cs, 0, d));
	cachesim_destroy(cs);
}
END_TEST

/* xorshift64: the random traffic of the tests below, fixed by its seed. */
static uint64_t next_rand(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

static int event_cmp(const void *a, const void *b)
{
	const struct event *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/*
 * Random reads and writes over @nlines lines at 0x10000, with a range
 * maintenance every 23 accesses, each checked against the per-line
 * queries made before it: the count of lines visited, the state after it,
 * and (one level) the hook calls, one per resident line (in address order
 * for a range smaller than the cache, in slot order otherwise: compared
 * sorted).
 * With far more lines than the cache holds, lines evict one another and
 * many share an entry of the residency filter.
 */
static void maint_matches_queries(struct cachesim *cs, unsigned int nlines,
				  uint64_t seed)
{
	static const uint64_t base = 0x10000;
	unsigned int levels = cachesim_levels(cs), i, lv;
	struct recorder r = {0};
	uint64_t x = seed;

	cachesim_set_evict_hook(cs, on_evict, &r);
	cachesim_set_writeback_hook(cs, on_writeback, &r);
	for (i = 0; i < 3000; i++) {
		uint64_t line = next_rand(&x) % nlines, first, count, l;
		uint64_t want = 0, ev = 0;
		bool was_res[64], was_dirty[64];
		int op;

		(next_rand(&x) & 1 ? wr : rd)(cs, base + line * 64);
		if (i % 23)
			continue;
		first = next_rand(&x) % nlines;
		count = 1 + next_rand(&x) % 40;
		op = (int)(next_rand(&x) % 3);
		for (lv = 0; lv < levels; lv++)
			for (l = first; l < first + count; l++)
				want += cachesim_resident(cs, lv,
							  base + l * 64);
		for (l = 0; l < count; l++) {
			was_res[l] = cachesim_resident(cs, 0,
						       base + (first + l) * 64);
			was_dirty[l] =
				cachesim_dirty(cs, 0, base + (first + l) * 64);
		}
		r.n = 0;
		if (op == 0)
			ck_assert_uint_eq(cachesim_clean(cs, base + first * 64,
							 count * 64),
					  want);
		else if (op == 1)
			ck_assert_uint_eq(cachesim_invalidate(cs,
							      base + first * 64,
							      count * 64),
					  want);
		else
			ck_assert_uint_eq(
				cachesim_clean_invalidate(cs, base + first * 64,
							  count * 64),
				want);
		for (lv = 0; lv < levels; lv++) {
			for (l = first; l < first + count; l++) {
				uint64_t a = base + l * 64;

				ck_assert(!cachesim_dirty(cs, lv, a) ||
					  op == 1);
				ck_assert(!cachesim_resident(cs, lv, a) ||
					  op == 0);
			}
		}
		if (levels > 1)
			continue;
		qsort(r.ev, r.n, sizeof(r.ev[0]), event_cmp);
		for (l = 0; l < count; l++) {
			uint64_t a = base + (first + l) * 64;

			if (op == 0 && was_dirty[l])
				check_event(&r, (unsigned int)ev++, 'w', 0, a,
					    true, true);
			else if (op != 0 && was_res[l])
				check_event(&r, (unsigned int)ev++, 'e', 0, a,
					    op == 2 && was_dirty[l], true);
		}
		ck_assert_uint_eq(r.n, ev);
	}
	cachesim_destroy(cs);
}

START_TEST(test_maint_filter)
{
	/* 16 lines, a filter of 64 entries, 300 lines of traffic. */
	maint_matches_queries(
		make1(1 * KiB, 4, 64, CACHESIM_LRU, CACHESIM_WB_WA), 300, 1);
	maint_matches_queries(
		make1(2 * KiB, 2, 64, CACHESIM_PLRU, CACHESIM_WB_WA), 1000, 2);
	maint_matches_queries(
		make1(1 * KiB, 16, 64, CACHESIM_FIFO, CACHESIM_WT_WA), 70, 3);
	/* Each level has its own filter. */
	maint_matches_queries(make2(512, 2, 4 * KiB, 4, CACHESIM_LRU), 300, 4);
	/* More ways than a filter byte counts: no filter, same answers. */
	maint_matches_queries(
		make1(32 * KiB, 512, 64, CACHESIM_LRU, CACHESIM_WB_WA), 2000,
		5);
}
END_TEST

/*
 * A clean of the last level with no clean hook (what a DMA map does) takes
 * a quicker walk, eight lines at a time where the host allows: random
 * traffic over three times the cache, and every 7th access a clean of up
 * to 200 lines at any alignment, checked against the per-line queries
 * made before it: lines visited, write-backs counted, dirty lines left
 * outside the range, residency unchanged, and nothing dirty inside.
 */
static void quick_clean_matches_queries(unsigned int ways, uint64_t seed)
{
	static const uint64_t base = 0x200000;
	struct cachesim *cs = make1(64ull * 64 * ways, ways, 64, CACHESIM_LRU,
				    CACHESIM_WB_WA);
	unsigned int nlines = 3 * 64 * ways, i;
	uint64_t x = seed;

	for (i = 0; i < 4000; i++) {
		uint64_t line = next_rand(&x) % nlines, first, count, l;
		uint64_t res = 0, dirty = 0, dirty_all, mwb;
		bool was_res[200];

		(next_rand(&x) & 1 ? wr : rd)(cs, base + line * 64);
		if (i % 7)
			continue;
		first = next_rand(&x) % nlines;
		count = 1 + next_rand(&x) % 200;
		for (l = 0; l < count; l++) {
			uint64_t a = base + (first + l) * 64;

			was_res[l] = cachesim_resident(cs, 0, a);
			res += was_res[l];
			dirty += cachesim_dirty(cs, 0, a);
		}
		dirty_all = cachesim_dirty_lines(cs, 0);
		mwb = stats(cs, 0).maint_writebacks;
		ck_assert_uint_eq(
			cachesim_clean(cs, base + first * 64, count * 64), res);
		ck_assert_uint_eq(stats(cs, 0).maint_writebacks - mwb, dirty);
		ck_assert_uint_eq(cachesim_dirty_lines(cs, 0),
				  dirty_all - dirty);
		for (l = 0; l < count; l++) {
			uint64_t a = base + (first + l) * 64;

			ck_assert(!cachesim_dirty(cs, 0, a));
			ck_assert(cachesim_resident(cs, 0, a) == was_res[l]);
		}
	}
	cachesim_destroy(cs);
}

/*
 * How the library walks a last-level clean (cachesim.c, not installed):
 * 0 as the host allows, 1 per line, 2 AVX2, 3 AVX-512 (per line where the
 * host lacks it).  Each run of test_quick_clean forces one of 1 to 3.
 */
extern int cachesim__walk_force;

START_TEST(test_quick_clean)
{
	static const unsigned int ways[] = {1, 2, 3, 4, 8, 16};
	unsigned int i;

	cachesim__walk_force = _i;
	for (i = 0; i < sizeof(ways) / sizeof(ways[0]); i++)
		quick_clean_matches_queries(ways[i], 11 + i);
	cachesim__walk_force = 0;
}
END_TEST

START_TEST(test_maint_filter_reset)
{
	/* A reset empties the filter with the tags: the lines filled
	 * before it are not found after it, those filled after it are. */
	struct cachesim *cs =
		make1(1 * KiB, 4, 64, CACHESIM_LRU, CACHESIM_WB_WA);
	unsigned int i;

	for (i = 0; i < 16; i++)
		wr(cs, 0x1000 + (uint64_t)i * 64);
	cachesim_reset(cs);
	ck_assert_uint_eq(cachesim_clean(cs, 0x1000, 16 * 64), 0);
	wr(cs, 0x1000 + 9 * 64);
	ck_assert_uint_eq(cachesim_clean(cs, 0x1000, 16 * 64), 1);
	ck_assert_uint_eq(stats(cs, 0).maint_writebacks, 1);
	/* An invalidated line leaves the filter: the set's other lines
	 * remain found, the line itself is not. */
	wr(cs, 0x1000 + 13 * 64);
	ck_assert_uint_eq(cachesim_invalidate(cs, 0x1000 + 9 * 64, 64), 1);
	ck_assert_uint_eq(cachesim_clean_invalidate(cs, 0x1000, 16 * 64), 1);
	ck_assert_uint_eq(cachesim_clean(cs, 0x1000, 16 * 64), 0);
	cachesim_destroy(cs);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Hierarchy                                                           */
/* ------------------------------------------------------------------ */

START_TEST(test_multilevel)
{
	/* L1 512 B 2-way (4 sets, stride 256), L2 4 KiB 4-way (16 sets),
	 * latencies 1 / 10 / memory 100. */
	struct cachesim *cs = make2(512, 2, 4 * KiB, 4, CACHESIM_LRU);
	struct cachesim_stats l1, l2;

	ck_assert_uint_eq(rd(cs, 0), 2); /* memory */
	ck_assert_uint_eq(cachesim_cycles(cs), 111);
	ck_assert_uint_eq(rd(cs, 256), 2);
	ck_assert_uint_eq(rd(cs, 512), 2); /* evicts 0 from L1 set 0 */
	ck_assert(!cachesim_resident(cs, 0, 0));
	ck_assert(cachesim_resident(cs, 1, 0));
	ck_assert_uint_eq(rd(cs, 0), 1); /* L1 miss, L2 hit */
	ck_assert_uint_eq(rd(cs, 0), 0);

	/* X is written (dirty in L1), then two more lines of L1 set 0 push
	 * it out: its write-back is a write access that hits in L2. */
	wr(cs, 0x2000);
	rd(cs, 0x3000);
	rd(cs, 0x4000);
	ck_assert(!cachesim_resident(cs, 0, 0x2000));
	ck_assert(cachesim_dirty(cs, 1, 0x2000));
	l1 = stats(cs, 0);
	l2 = stats(cs, 1);
	ck_assert_uint_eq(l1.accesses, 8);
	ck_assert_uint_eq(l1.misses, 7);
	ck_assert_uint_eq(l1.writebacks, 1);
	/* L2 sees exactly L1's misses (fetches) and write-backs. */
	ck_assert_uint_eq(l2.accesses, l1.misses + l1.writebacks);
	ck_assert_uint_eq(l2.accesses, 8);
	ck_assert_uint_eq(l2.reads, 7);
	ck_assert_uint_eq(l2.writes, 1);
	ck_assert_uint_eq(l2.misses, 6);
	ck_assert_uint_eq(l2.hits, 2);
	ck_assert_uint_eq(l2.compulsory_misses, 6);
	ck_assert_uint_eq(l1.cycles, 8);
	ck_assert_uint_eq(l2.cycles, 80);
	/* 8 L1 lookups + 8 L2 lookups + 6 fetches from memory. */
	ck_assert_uint_eq(cachesim_cycles(cs), 8 + 80 + 600);
	cachesim_destroy(cs);
}
END_TEST

START_TEST(test_multilevel_hooks)
{
	/* L1: one 64 B line; L2: one set of two ways.
	 *   write A: both miss; L2 = {A}, L1 = {A dirty}
	 *   read B:  L2 fetch B (L2 = {A, B}); L1 evicts A (dirty) and
	 *            writes it into L2: a hit, A dirty in L2
	 *   read C:  L2 fetch C evicts B (A was used later); L1 evicts B
	 *   read D:  L2 fetch D evicts A (dirty: to memory); L1 evicts C */
	struct cachesim *cs = make2(64, 1, 128, 2, CACHESIM_LRU);
	struct recorder r = {0};

	cachesim_set_evict_hook(cs, on_evict, &r);
	wr(cs, A);
	rd(cs, B);
	ck_assert(cachesim_dirty(cs, 1, A));
	rd(cs, C);
	rd(cs, D);
	ck_assert_uint_eq(r.n, 5);
	check_event(&r, 0, 'e', 0, A, true, false);
	check_event(&r, 1, 'e', 1, B, false, true);
	check_event(&r, 2, 'e', 0, B, false, false);
	check_event(&r, 3, 'e', 1, A, true, true);
	check_event(&r, 4, 'e', 0, C, false, false);
	ck_assert_uint_eq(stats(cs, 0).writebacks, 1);
	ck_assert_uint_eq(stats(cs, 1).writebacks, 1);
	ck_assert_uint_eq(stats(cs, 1).writes, 1);
	cachesim_destroy(cs);
}
END_TEST

START_TEST(test_multilevel_write_through)
{
	/* L1: one 64 B line, write-back; L2: 2 ways, write-through.
	 *   write A: L1 miss, L2 miss, memory          1 + 10 + 100 = 111
	 *   read B:  L1 miss, L2 miss, memory; L1 writes dirty A into L2
	 *            (a write hit) and L2 writes it through to memory
	 *                                   1 + 10 + 100 + 10 + 100 = 221 */
	struct cachesim_config cfg;
	struct cachesim *cs;
	struct cachesim_stats l2;

	cachesim_config_init(&cfg);
	cfg.nlevels = 2;
	cfg.level[0].size = 64;
	cfg.level[0].ways = 1;
	cfg.level[0].hit_latency = 1;
	cfg.level[1] = cfg.level[0];
	cfg.level[1].name = "L2";
	cfg.level[1].size = 128;
	cfg.level[1].ways = 2;
	cfg.level[1].write_policy = CACHESIM_WT_WA;
	cfg.level[1].hit_latency = 10;
	cfg.mem_latency = 100;
	cs = cachesim_create(&cfg, NULL, 0);
	ck_assert_ptr_nonnull(cs);
	ck_assert_uint_eq(wr(cs, A), 2);
	ck_assert_uint_eq(cachesim_cycles(cs), 111);
	ck_assert_uint_eq(rd(cs, B), 2);
	ck_assert_uint_eq(cachesim_cycles(cs), 332);
	l2 = stats(cs, 1);
	ck_assert_uint_eq(l2.accesses, 3);
	ck_assert_uint_eq(l2.writes, 1);
	ck_assert_uint_eq(l2.misses, 2);
	ck_assert(!cachesim_dirty(cs, 1, A));
	ck_assert_uint_eq(stats(cs, 0).writebacks, 1);
	ck_assert_uint_eq(cachesim_dirty_lines(cs, 1), 0);

	/* A is clean in L2 (and gone from L1): nothing to write. */
	ck_assert_uint_eq(cachesim_clean(cs, A, 64), 1);
	ck_assert_uint_eq(cachesim_cycles(cs), 332);
	/* Dirty B in L1 passes through the write-through L2 to memory. */
	ck_assert_uint_eq(wr(cs, B), 0);
	ck_assert_uint_eq(cachesim_clean(cs, B, 64), 2);
	ck_assert_uint_eq(stats(cs, 0).maint_writebacks, 1);
	ck_assert_uint_eq(stats(cs, 1).maint_writebacks, 0);
	ck_assert_uint_eq(cachesim_cycles(cs), 332 + 1 + 100);
	cachesim_destroy(cs);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Straddling accesses                                                 */
/* ------------------------------------------------------------------ */

START_TEST(test_straddle)
{
	/* 1 KiB 4-way, 64 B lines. */
	struct cachesim *cs =
		make1(1 * KiB, 4, 64, CACHESIM_LRU, CACHESIM_WB_WA);
	struct cachesim_stats st;

	/* [60, 68): lines 0 and 1 both miss: one access, one miss. */
	ck_assert_uint_eq(cachesim_access(cs, 60, 8, CACHESIM_READ), 1);
	ck_assert(cachesim_resident(cs, 0, 0));
	ck_assert(cachesim_resident(cs, 0, 64));
	st = stats(cs, 0);
	ck_assert_uint_eq(st.accesses, 1);
	ck_assert_uint_eq(st.misses, 1);
	ck_assert_uint_eq(st.compulsory_misses, 1);
	/* [124, 132): line 1 hits, line 2 misses: still one miss. */
	ck_assert_uint_eq(cachesim_access(cs, 124, 8, CACHESIM_READ), 1);
	/* [60, 64) is inside line 0; [63, 65) straddles two hits. */
	ck_assert_uint_eq(cachesim_access(cs, 60, 4, CACHESIM_READ), 0);
	ck_assert_uint_eq(cachesim_access(cs, 63, 2, CACHESIM_READ), 0);
	/* A straddling write dirties both lines: 2 hit, 3 misses. */
	ck_assert_uint_eq(cachesim_access(cs, 188, 8, CACHESIM_WRITE), 1);
	ck_assert(cachesim_dirty(cs, 0, 128));
	ck_assert(cachesim_dirty(cs, 0, 192));
	/* Size 0 counts as 1 byte: no straddle at 63. */
	ck_assert_uint_eq(cachesim_access(cs, 63, 0, CACHESIM_READ), 0);
	st = stats(cs, 0);
	ck_assert_uint_eq(st.accesses, 6);
	ck_assert_uint_eq(st.misses, 3);
	ck_assert_uint_eq(st.write_misses, 1);
	ck_assert_uint_eq(st.hits, 3);
	ck_assert_uint_eq(st.compulsory_misses, 3);
	cachesim_destroy(cs);

	/* The end of the address space does not wrap around to line 0. */
	cs = make1(1 * KiB, 4, 64, CACHESIM_LRU, CACHESIM_WB_WA);
	ck_assert_uint_eq(cachesim_access(cs, UINT64_MAX - 3, 8, CACHESIM_READ),
			  1);
	ck_assert(cachesim_resident(cs, 0, UINT64_MAX));
	ck_assert(!cachesim_resident(cs, 0, 0));
	ck_assert_uint_eq(stats(cs, 0).accesses, 1);
	cachesim_destroy(cs);
}
END_TEST

START_TEST(test_straddle_multilevel)
{
	/* L1 1 KiB 4-way, L2 4 KiB 4-way: only the lines L1 missed are
	 * fetched from L2, as one access per run of missed lines. */
	struct cachesim *cs = make2(1 * KiB, 4, 4 * KiB, 4, CACHESIM_LRU);
	struct cachesim_stats l1, l2;

	rd(cs, 0);				   /* line 0 in both */
	cachesim_access(cs, 60, 8, CACHESIM_READ); /* line 1 fetched */
	l2 = stats(cs, 1);
	ck_assert_uint_eq(l2.accesses, 2);
	ck_assert_uint_eq(l2.misses, 2);
	/* [0, 256): lines 0, 1 hit; 2 and 3 are one run: one L2 access
	 * that misses (both lines missing count one miss). */
	ck_assert_uint_eq(cachesim_access(cs, 0, 256, CACHESIM_READ), 2);
	l1 = stats(cs, 0);
	l2 = stats(cs, 1);
	ck_assert_uint_eq(l1.accesses, 3);
	ck_assert_uint_eq(l1.misses, 3);
	ck_assert_uint_eq(l2.accesses, 3);
	ck_assert_uint_eq(l2.misses, 3);
	ck_assert_uint_eq(l2.compulsory_misses, 3);
	ck_assert(cachesim_resident(cs, 1, 192));
	ck_assert(cachesim_resident(cs, 0, 192));
	cachesim_destroy(cs);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Queries, statistics, cycles                                         */
/* ------------------------------------------------------------------ */

START_TEST(test_locate_and_line)
{
	struct cachesim *cs =
		make1(32 * KiB, 8, 64, CACHESIM_LRU, CACHESIM_WB_WA);
	struct cachesim_line_info li;
	unsigned int set = 99, way = 99;

	/* 0x12345 >> 6 = 0x48d; 0x48d & 63 = 13. */
	ck_assert(!cachesim_locate(cs, 0, 0x12345, &set, &way));
	ck_assert_uint_eq(set, 13);
	ck_assert_uint_eq(way, 99);
	rd(cs, 0x12345);
	ck_assert(cachesim_locate(cs, 0, 0x12345, &set, &way));
	ck_assert_uint_eq(set, 13);
	ck_assert_uint_eq(way, 0);
	ck_assert_int_eq(cachesim_line(cs, 0, 13, 0, &li), 0);
	ck_assert(li.valid);
	ck_assert(!li.dirty);
	ck_assert_uint_eq(li.addr, 0x12340);
	ck_assert_uint_eq(li.age, 7); /* the 7 empty ways go first */
	ck_assert_int_eq(cachesim_line(cs, 0, 13, 1, &li), 0);
	ck_assert(!li.valid);
	ck_assert_uint_eq(li.age, 0);
	cachesim_access(cs, 0x12340, 1, CACHESIM_WRITE);
	ck_assert_int_eq(cachesim_line(cs, 0, 13, 0, &li), 0);
	ck_assert(li.dirty);
	ck_assert_int_eq(cachesim_line(cs, 1, 0, 0, &li), -EINVAL);
	ck_assert_int_eq(cachesim_line(cs, 0, 64, 0, &li), -EINVAL);
	ck_assert_int_eq(cachesim_line(cs, 0, 0, 8, &li), -EINVAL);
	ck_assert(!cachesim_resident(cs, 1, 0x12345));
	cachesim_destroy(cs);
}
END_TEST

START_TEST(test_cycles)
{
	/* One line (64 B, 1 way), hit 4, memory 100:
	 *   write A: miss, fetch              4 + 100       = 104
	 *   read A:  hit                      4             = 108
	 *   read B:  miss, fetch, write back  4 + 100 + 100 = 312
	 *   ifetch B: hit, counted as a read  4             = 316 */
	struct cachesim_config cfg;
	struct cachesim *cs;
	struct cachesim_stats st;

	cachesim_config_init(&cfg);
	cfg.level[0].size = 64;
	cfg.level[0].ways = 1;
	cs = cachesim_create(&cfg, NULL, 0);
	ck_assert_ptr_nonnull(cs);
	wr(cs, A);
	ck_assert_uint_eq(cachesim_cycles(cs), 104);
	rd(cs, A);
	ck_assert_uint_eq(cachesim_cycles(cs), 108);
	rd(cs, B);
	ck_assert_uint_eq(cachesim_cycles(cs), 312);
	ck_assert_uint_eq(cachesim_access(cs, B, 4, CACHESIM_IFETCH), 0);
	ck_assert_uint_eq(cachesim_cycles(cs), 316);
	st = stats(cs, 0);
	ck_assert_uint_eq(st.cycles, 4 * 4);
	ck_assert_uint_eq(st.reads, 3);
	ck_assert_uint_eq(st.writes, 1);
	cachesim_destroy(cs);
}
END_TEST

START_TEST(test_compulsory_many)
{
	/* 100000 distinct lines: all compulsory, and only once; a sparse
	 * second set 1 MiB apart adds exactly its 1000 lines. */
	struct cachesim *cs =
		make1(32 * KiB, 8, 64, CACHESIM_LRU, CACHESIM_WB_WA);
	uint64_t i;

	for (i = 0; i < 50000; i++)
		rd(cs, i * 64);
	ck_assert_uint_eq(stats(cs, 0).compulsory_misses, 50000);
	for (i = 50000; i < 100000; i++)
		rd(cs, i * 64);
	for (i = 0; i < 100000; i++)
		rd(cs, i * 64);
	ck_assert_uint_eq(stats(cs, 0).misses, 200000);
	ck_assert_uint_eq(stats(cs, 0).compulsory_misses, 100000);
	for (i = 0; i < 1000; i++)
		rd(cs, (1ull << 40) + (i << 20));
	ck_assert_uint_eq(stats(cs, 0).compulsory_misses, 101000);
	cachesim_destroy(cs);
}
END_TEST

START_TEST(test_reset)
{
	struct cachesim *cs =
		make1(1 * KiB, 4, 64, CACHESIM_LRU, CACHESIM_WB_WA);
	struct cachesim_stats st, zero;

	wr(cs, A);
	rd(cs, B);
	cachesim_clean(cs, 0, 4096);
	cachesim_reset(cs);
	memset(&zero, 0, sizeof(zero));
	st = stats(cs, 0);
	ck_assert_mem_eq(&st, &zero, sizeof(st));
	ck_assert(!cachesim_resident(cs, 0, A));
	ck_assert_uint_eq(cachesim_dirty_lines(cs, 0), 0);
	ck_assert_uint_eq(cachesim_cycles(cs), 0);
	rd(cs, A);
	ck_assert_uint_eq(stats(cs, 0).compulsory_misses, 1);
	cachesim_destroy(cs);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Tracked ranges (cachesim_track())                                   */
/* ------------------------------------------------------------------ */

/*
 * Everything the API shows of @a and @b is the same.  Plain compares, one
 * assertion at the end: Check records every assertion that passes, and
 * this runs for each of 30,000 steps.
 */
static void same_state(const struct cachesim *a, const struct cachesim *b,
		       const struct recorder *ra, const struct recorder *rb,
		       unsigned int step)
{
	const char *what = NULL;
	unsigned int lv, set, way, i;

	if (ra->n != rb->n)
		what = "hook calls";
	for (i = 0; i < ra->n && !what; i++)
		if (ra->ev[i].kind != rb->ev[i].kind ||
		    ra->ev[i].level != rb->ev[i].level ||
		    ra->ev[i].addr != rb->ev[i].addr ||
		    ra->ev[i].dirty != rb->ev[i].dirty ||
		    ra->ev[i].last != rb->ev[i].last)
			what = "hook calls";
	if (cachesim_cycles(a) != cachesim_cycles(b))
		what = "cycles";
	for (lv = 0; lv < cachesim_levels(a) && !what; lv++) {
		struct cachesim_stats sa = stats(a, lv), sb = stats(b, lv);

		if (memcmp(&sa, &sb, sizeof(sa)))
			what = "statistics";
		if (cachesim_dirty_lines(a, lv) != cachesim_dirty_lines(b, lv))
			what = "dirty lines";
		for (set = 0; set < cachesim_sets(a, lv); set++) {
			for (way = 0; way < cachesim_level_config(a, lv)->ways;
			     way++) {
				struct cachesim_line_info la, lb;

				if (cachesim_line(a, lv, set, way, &la) ||
				    cachesim_line(b, lv, set, way, &lb) ||
				    la.valid != lb.valid ||
				    la.dirty != lb.dirty ||
				    la.addr != lb.addr || la.age != lb.age)
					what = "a line's state";
			}
		}
	}
	if (what)
		ck_abort_msg("step %u: the tracked simulator's %s differ", step,
			     what);
}

/*
 * cachesim_dirty_bits() of @n lines from @addr: never an answer from @a
 * (no tracked range), and from @b (@a's twin with tracked ranges) either
 * none or, for each line, what cachesim_dirty() says of it.  Return:
 * whether @b answered.
 */
static bool dirty_bits_same(const struct cachesim *a, const struct cachesim *b,
			    uint64_t addr, unsigned int n, unsigned int step)
{
	uint64_t line = cachesim_level_config(a, 0)->line, bits = 0, want = 0;
	unsigned int k;

	if (cachesim_dirty_bits(a, 0, addr, n, &bits))
		ck_abort_msg("step %u: an answer with no tracked range", step);
	if (!cachesim_dirty_bits(b, 0, addr, n, &bits))
		return false;
	for (k = 0; k < n; k++)
		want |= (uint64_t)cachesim_dirty(a, 0, addr + k * line) << k;
	if (bits != want)
		ck_abort_msg("step %u: dirty bits of %u lines from 0x%" PRIx64
			     ": 0x%" PRIx64 ", the lines say 0x%" PRIx64,
			     step, n, addr, bits, want);
	return true;
}

/*
 * The same random traffic through two simulators made alike, @b with
 * tracked ranges that cover some of the traffic's lines (edges inside it,
 * one range added after traffic began): every result and everything the
 * API shows must be the same after every step.  Steps: reads and writes of
 * 1 to 200 bytes, cleans, invalidates and clean+invalidates of up to 12
 * or up to 300 lines with and without a clean hook, dirty_any() questions, now and then
 * a flush or a reset.  The traffic spans 24 KiB from 0x40000; the tracked
 * ranges are [0x40000 + 3 KiB + 8, +6 KiB) and [0x40000 + 12 KiB, +9 KiB
 * - 1) and, from step 2000, [0x40000 + 22 KiB, +64 KiB).
 */
static void track_same(struct cachesim *a, struct cachesim *b, uint64_t seed)
{
	static const uint64_t base = 0x40000, span = 24 * KiB;
	struct recorder ra = {0}, rb = {0};
	uint64_t x = seed;
	unsigned int i, answered = 0;

	ck_assert_int_eq(cachesim_track(b, base + 3 * KiB + 8, 6 * KiB), 0);
	ck_assert_int_eq(cachesim_track(b, base + 12 * KiB, 9 * KiB - 1), 0);
	cachesim_set_evict_hook(a, on_evict, &ra);
	cachesim_set_evict_hook(b, on_evict, &rb);
	for (i = 0; i < 6000; i++) {
		uint64_t r = next_rand(&x), addr = base + r % span, ya, yb;
		/* Short ranges half the time: shorter than the level, they
		 * are walked line by line, across a tracked range's edge. */
		uint64_t len =
			1 + (r >> 20) % ((r >> 50) & 1 ? 300 * 64 : 12 * 64);
		unsigned int what = (unsigned int)((r >> 40) % 100);

		ra.n = rb.n = 0;
		if (i == 2000)
			ck_assert_int_eq(
				cachesim_track(b, base + 22 * KiB, 64 * KiB),
				0);
		if (what < 40) {
			ya = cachesim_access(a, addr, 1 + what * 5,
					     CACHESIM_WRITE);
			yb = cachesim_access(b, addr, 1 + what * 5,
					     CACHESIM_WRITE);
		} else if (what < 70) {
			ya = cachesim_access(a, addr, 4, CACHESIM_READ);
			yb = cachesim_access(b, addr, 4, CACHESIM_READ);
		} else if (what < 82) {
			bool hook = (r >> 60) & 1;

			cachesim_set_writeback_hook(
				a, hook ? on_writeback : NULL, &ra);
			cachesim_set_writeback_hook(
				b, hook ? on_writeback : NULL, &rb);
			ya = cachesim_clean(a, addr, len);
			yb = cachesim_clean(b, addr, len);
		} else if (what < 88) {
			ya = cachesim_invalidate(a, addr, len);
			yb = cachesim_invalidate(b, addr, len);
		} else if (what < 94) {
			ya = cachesim_clean_invalidate(a, addr, len);
			yb = cachesim_clean_invalidate(b, addr, len);
		} else if (what < 99) {
			ya = cachesim_dirty_any(a, 0, addr, len);
			yb = cachesim_dirty_any(b, 0, addr, len);
		} else if ((r >> 61) & 1) {
			ya = cachesim_flush_all(a);
			yb = cachesim_flush_all(b);
		} else {
			cachesim_reset(a);
			cachesim_reset(b);
			ya = yb = 0;
		}
		if (ya != yb)
			ck_abort_msg("step %u: results %" PRIu64
				     " and %" PRIu64,
				     i, ya, yb);
		same_state(a, b, &ra, &rb, i);
		answered += dirty_bits_same(
			a, b, addr, 1 + (unsigned int)((r >> 30) % 64), i);
	}
	/* Runs of lines inside a tracked range came up, and were read
	 * from its map. */
	ck_assert_uint_gt(answered, 100);
	cachesim_destroy(a);
	cachesim_destroy(b);
}

START_TEST(test_track_same_results)
{
	/* One level as a machine has it, other policies and write
	 * policies, two levels (the last one's clean is the quick one). */
	track_same(make1(2 * KiB, 4, 64, CACHESIM_LRU, CACHESIM_WB_WA),
		   make1(2 * KiB, 4, 64, CACHESIM_LRU, CACHESIM_WB_WA), 1);
	track_same(make1(1 * KiB, 2, 32, CACHESIM_PLRU, CACHESIM_WB_WA),
		   make1(1 * KiB, 2, 32, CACHESIM_PLRU, CACHESIM_WB_WA), 2);
	track_same(make1(4 * KiB, 8, 128, CACHESIM_FIFO, CACHESIM_WB_WA),
		   make1(4 * KiB, 8, 128, CACHESIM_FIFO, CACHESIM_WB_WA), 3);
	track_same(make1(2 * KiB, 4, 64, CACHESIM_RANDOM, CACHESIM_WT_WA),
		   make1(2 * KiB, 4, 64, CACHESIM_RANDOM, CACHESIM_WT_WA), 4);
	track_same(make2(512, 2, 4 * KiB, 4, CACHESIM_LRU),
		   make2(512, 2, 4 * KiB, 4, CACHESIM_LRU), 5);
}
END_TEST

/*
 * cachesim_dirty_bits() at the edges: runs that start inside a map word
 * (the answer then takes bits of two words), a run ending on the range's
 * last line, runs that leave the range or come before it, bad counts, a
 * clean through the maps, and an untracked level.
 */
START_TEST(test_dirty_bits)
{
	/* 32 lines in 8 sets of 4: the lines below do not evict each other. */
	struct cachesim *cs =
		make1(2 * KiB, 4, 64, CACHESIM_LRU, CACHESIM_WB_WA);
	const uint64_t base = 0x10000; /* line 0 of the range */
	static const unsigned int w[] = {60, 63, 64, 127, 128, 255};
	uint64_t bits = 0;
	unsigned int i;

	ck_assert_int_eq(cachesim_track(cs, base, 256 * 64), 0);
	for (i = 0; i < 6; i++)
		cachesim_access(cs, base + w[i] * 64 + 3, 1, CACHESIM_WRITE);
	cachesim_access(cs, base + 61 * 64, 4, CACHESIM_READ);
	ck_assert(cachesim_dirty_bits(cs, 0, base + 60 * 64 + 7, 64, &bits));
	ck_assert_uint_eq(bits, 0x19);
	ck_assert(cachesim_dirty_bits(cs, 0, base + 64 * 64, 64, &bits));
	ck_assert_uint_eq(bits, 0x8000000000000001ull);
	ck_assert(cachesim_dirty_bits(cs, 0, base + 100 * 64, 29, &bits));
	ck_assert_uint_eq(bits, (1ull << 27) | (1ull << 28));
	ck_assert(cachesim_dirty_bits(cs, 0, base + 250 * 64, 6, &bits));
	ck_assert_uint_eq(bits, 1ull << 5);
	ck_assert(cachesim_dirty_bits(cs, 0, base + 61 * 64, 1, &bits));
	ck_assert_uint_eq(bits, 0);
	bits = 42;
	ck_assert(!cachesim_dirty_bits(cs, 0, base + 250 * 64, 7, &bits));
	ck_assert(!cachesim_dirty_bits(cs, 0, base - 64, 2, &bits));
	ck_assert(!cachesim_dirty_bits(cs, 0, base, 0, &bits));
	ck_assert(!cachesim_dirty_bits(cs, 0, base, 65, &bits));
	ck_assert(!cachesim_dirty_bits(cs, 1, base, 1, &bits));
	ck_assert(!cachesim_dirty_bits(cs, 0, UINT64_MAX, 2, &bits));
	ck_assert_uint_eq(bits, 42);
	/* A clean through the maps clears the bits. */
	ck_assert_uint_eq(cachesim_clean(cs, base + 63 * 64, 64), 1);
	ck_assert(cachesim_dirty_bits(cs, 0, base + 60 * 64, 64, &bits));
	ck_assert_uint_eq(bits, 0x11);
	cachesim_destroy(cs);
	/* No tracked range: no answer. */
	cs = make1(2 * KiB, 4, 64, CACHESIM_LRU, CACHESIM_WB_WA);
	cachesim_access(cs, base, 1, CACHESIM_WRITE);
	ck_assert(!cachesim_dirty_bits(cs, 0, base, 1, &bits));
	cachesim_destroy(cs);
}
END_TEST

/*
 * The case the maps exist for: a clean of a tracked line through them
 * leaves its slot's dirty byte set, and nothing may read that byte as the
 * truth: the line is clean to every query, and its eviction writes
 * nothing back.
 */
START_TEST(test_track_clean_then_evict)
{
	/* One set of two ways: A, B, C map to it. */
	struct cachesim *cs = make1(128, 2, 64, CACHESIM_LRU, CACHESIM_WB_WA);
	struct recorder r = {0};

	ck_assert_int_eq(cachesim_track(cs, 0, 4096), 0);
	cachesim_set_evict_hook(cs, on_evict, &r);
	wr(cs, 0);
	rd(cs, 64);
	ck_assert(cachesim_dirty(cs, 0, 0));
	ck_assert_uint_eq(cachesim_clean(cs, 0, 128), 2);
	ck_assert_uint_eq(stats(cs, 0).maint_writebacks, 1);
	ck_assert(!cachesim_dirty(cs, 0, 0));
	ck_assert(!cachesim_dirty_any(cs, 0, 0, 128));
	ck_assert_uint_eq(cachesim_dirty_lines(cs, 0), 0);
	rd(cs, 128); /* evicts line 0, the LRU one */
	check_event(&r, 0, 'e', 0, 0, false, true);
	ck_assert_uint_eq(stats(cs, 0).writebacks, 0);
	/* Dirty again after the clean: written back again. */
	wr(cs, 64);
	ck_assert_uint_eq(cachesim_clean(cs, 0, 4096), 2);
	ck_assert_uint_eq(stats(cs, 0).maint_writebacks, 2);
	cachesim_destroy(cs);
}
END_TEST

/*
 * A clean that runs past a tracked range's edge cannot use the maps, and
 * must not read a tracked line's stale dirty byte either: line 0x1000 was
 * cleaned through the maps, so the clean of [0xfc0, 0x1040) writes nothing
 * back.  Each of the set walks runs it (test_quick_clean's forcing).
 */
START_TEST(test_track_straddle)
{
	struct cachesim *cs =
		make1(2 * KiB, 4, 64, CACHESIM_LRU, CACHESIM_WB_WA);

	cachesim__walk_force = _i;
	ck_assert_int_eq(cachesim_track(cs, 0x1000, 0x1000), 0);
	wr(cs, 0x1000);
	rd(cs, 0xfc0);
	ck_assert_uint_eq(cachesim_clean(cs, 0x1000, 64), 1);
	ck_assert_uint_eq(stats(cs, 0).maint_writebacks, 1);
	ck_assert_uint_eq(cachesim_clean(cs, 0xfc0, 128), 2);
	ck_assert_uint_eq(stats(cs, 0).maint_writebacks, 1);
	/* Eight aligned lines across the edge: the vector walks' groups. */
	wr(cs, 0xe00);
	ck_assert_uint_eq(cachesim_clean(cs, 0xe00, 0x400), 3);
	ck_assert_uint_eq(stats(cs, 0).maint_writebacks, 2);
	cachesim__walk_force = 0;
	cachesim_destroy(cs);
}
END_TEST

START_TEST(test_track_errors)
{
	struct cachesim *cs =
		make1(1 * KiB, 4, 64, CACHESIM_LRU, CACHESIM_WB_WA);

	ck_assert_int_eq(cachesim_track(cs, 0x1000, 0), -EINVAL);
	ck_assert_int_eq(cachesim_track(cs, UINT64_MAX - 63, 128), -EINVAL);
	ck_assert_int_eq(cachesim_track(cs, 0, (1ull << 28) * 64 + 1), -E2BIG);
	ck_assert_int_eq(cachesim_track(cs, 0x1000, 0x1000), 0);
	/* Overlapping, or only sharing a line with it. */
	ck_assert_int_eq(cachesim_track(cs, 0x1800, 0x1000), -EINVAL);
	ck_assert_int_eq(cachesim_track(cs, 0x1fff, 1), -EINVAL);
	ck_assert_int_eq(cachesim_track(cs, 0xfc0, 0x41), -EINVAL);
	ck_assert_int_eq(cachesim_track(cs, 0x2000, 0x1000), 0);
	ck_assert_int_eq(cachesim_track(cs, 0x0, 0x1000), 0);
	ck_assert_int_eq(cachesim_track(cs, 0x8000, 64), 0);
	ck_assert_int_eq(cachesim_track(cs, 0x9000, 64), -ENOSPC);
	/* The ranges that failed track nothing: a clean there still goes
	 * through the sets and finds the dirty line. */
	wr(cs, 0x9000);
	ck_assert_uint_eq(cachesim_clean(cs, 0x9000, 64), 1);
	ck_assert_uint_eq(stats(cs, 0).maint_writebacks, 1);
	cachesim_destroy(cs);
}
END_TEST

/* A fixed pseudo-random trace (LCG) through @cs. */
static void replay_lcg(struct cachesim *cs, unsigned int n)
{
	uint32_t x = 12345;
	unsigned int i;

	for (i = 0; i < n; i++) {
		x = x * 1103515245u + 12345u;
		cachesim_access(cs, (x >> 8) % (64 * KiB), 1 + (x & 7),
				(x >> 28) < 5 ? CACHESIM_WRITE : CACHESIM_READ);
	}
}

START_TEST(test_determinism)
{
	/* L1 LRU, L2 RANDOM: two simulators, and one reset, give the same
	 * counters; another seed gives other L2 victims. */
	struct cachesim_config cfg;
	struct cachesim *c1, *c2, *c3;
	struct cachesim_stats a0, a1, b0, b1, c31;

	cachesim_config_init(&cfg);
	cfg.nlevels = 2;
	cfg.level[0].size = 4 * KiB;
	cfg.level[1] = cfg.level[0];
	cfg.level[1].name = "L2";
	cfg.level[1].size = 16 * KiB;
	cfg.level[1].policy = CACHESIM_RANDOM;
	cfg.seed = 99;
	c1 = cachesim_create(&cfg, NULL, 0);
	c2 = cachesim_create(&cfg, NULL, 0);
	cfg.seed = 100;
	c3 = cachesim_create(&cfg, NULL, 0);
	ck_assert_ptr_nonnull(c1);
	ck_assert_ptr_nonnull(c2);
	ck_assert_ptr_nonnull(c3);
	replay_lcg(c1, 20000);
	replay_lcg(c2, 20000);
	replay_lcg(c3, 20000);
	a0 = stats(c1, 0);
	a1 = stats(c1, 1);
	b0 = stats(c2, 0);
	b1 = stats(c2, 1);
	ck_assert_mem_eq(&a0, &b0, sizeof(a0));
	ck_assert_mem_eq(&a1, &b1, sizeof(a1));
	ck_assert_uint_eq(cachesim_cycles(c1), cachesim_cycles(c2));
	ck_assert_uint_gt(a1.evictions, 100); /* the L2 policy mattered */
	c31 = stats(c3, 1);
	ck_assert_uint_ne(c31.misses, a1.misses);

	cachesim_reset(c1);
	replay_lcg(c1, 20000);
	b0 = stats(c1, 0);
	b1 = stats(c1, 1);
	ck_assert_mem_eq(&a0, &b0, sizeof(a0));
	ck_assert_mem_eq(&a1, &b1, sizeof(a1));
	cachesim_destroy(c1);
	cachesim_destroy(c2);
	cachesim_destroy(c3);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Configuration errors and parsing                                    */
/* ------------------------------------------------------------------ */

/* @cfg must be rejected with a message containing @want. */
static void expect_bad(const struct cachesim_config *cfg, const char *want)
{
	char msg[256] = "";
	struct cachesim *cs;

	ck_assert_int_eq(cachesim_config_check(cfg, msg, sizeof(msg)), -EINVAL);
	ck_assert_msg(strstr(msg, want) != NULL, "message '%s' lacks '%s'", msg,
		      want);
	ck_assert_int_eq(cachesim_config_check(cfg, NULL, 0), -EINVAL);
	msg[0] = '\0';
	errno = 0;
	cs = cachesim_create(cfg, msg, sizeof(msg));
	ck_assert_ptr_null(cs);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert(strstr(msg, want) != NULL);
}

START_TEST(test_geometry_errors)
{
	struct cachesim_config cfg, base;

	cachesim_config_init(&base);
	base.nlevels = 3;
	base.level[1] = base.level[0];
	base.level[1].name = NULL;
	base.level[2] = base.level[0];
	base.level[2].name = "LLC";
	ck_assert_int_eq(cachesim_config_check(&base, NULL, 0), 0);

	cfg = base;
	cfg.nlevels = 0;
	expect_bad(&cfg, "nlevels is 0");
	cfg.nlevels = 5;
	expect_bad(&cfg, "nlevels is 5");

	cfg = base;
	cfg.level[0].size = 3 * KiB; /* 3 KiB / 64 B = 48 sets */
	cfg.level[0].ways = 1;
	expect_bad(&cfg, "L1: number of sets 48");

	cfg = base;
	cfg.level[1].line = 48;
	expect_bad(&cfg, "L2: line size 48 is not a power of two");
	cfg.level[1].line = 0;
	expect_bad(&cfg, "L2: line size 0");
	cfg.level[1].line = 2;
	expect_bad(&cfg, "L2: line size 2");

	cfg = base;
	cfg.level[0].size = 256;
	cfg.level[0].ways = 8; /* 4 lines */
	expect_bad(&cfg, "L1: ways 8 is more than the 4 lines");
	cfg.level[0].ways = 0;
	expect_bad(&cfg, "L1: ways is 0");

	cfg = base;
	cfg.level[2].size = 0;
	expect_bad(&cfg, "L3 (LLC): size is 0");

	cfg = base;
	cfg.level[0].size = 320;
	cfg.level[0].ways = 3;
	expect_bad(&cfg, "L1: size 320 is not a multiple of ways * line");

	cfg = base;
	cfg.level[0].size = 192;
	cfg.level[0].ways = 3;
	ck_assert_int_eq(cachesim_config_check(&cfg, NULL, 0), 0);
	cfg.level[0].policy = CACHESIM_PLRU;
	expect_bad(&cfg, "L1: plru needs a power-of-two number of ways");

	cfg = base;
	cfg.level[1].policy = (enum cachesim_policy)9;
	expect_bad(&cfg, "L2: replacement policy 9");
	cfg = base;
	cfg.level[1].write_policy = (enum cachesim_write_policy)7;
	expect_bad(&cfg, "L2: write policy 7");

	cfg = base;
	cfg.level[0].size = 1ull << 40;
	expect_bad(&cfg, "L1: size 1099511627776 is more than");
}
END_TEST

START_TEST(test_parse_size)
{
	uint64_t v = 0;

	ck_assert_int_eq(cachesim_parse_size("32768", &v), 0);
	ck_assert_uint_eq(v, 32768);
	ck_assert_int_eq(cachesim_parse_size("32k", &v), 0);
	ck_assert_uint_eq(v, 32768);
	ck_assert_int_eq(cachesim_parse_size("32K", &v), 0);
	ck_assert_uint_eq(v, 32768);
	ck_assert_int_eq(cachesim_parse_size("1m", &v), 0);
	ck_assert_uint_eq(v, 1u << 20);
	ck_assert_int_eq(cachesim_parse_size("2g", &v), 0);
	ck_assert_uint_eq(v, 2ull << 30);
	ck_assert_int_eq(cachesim_parse_size("0", &v), 0);
	ck_assert_uint_eq(v, 0);
	v = 7;
	ck_assert_int_eq(cachesim_parse_size("", &v), -EINVAL);
	ck_assert_int_eq(cachesim_parse_size("k", &v), -EINVAL);
	ck_assert_int_eq(cachesim_parse_size("12x", &v), -EINVAL);
	ck_assert_int_eq(cachesim_parse_size("12kb", &v), -EINVAL);
	ck_assert_int_eq(cachesim_parse_size("-1", &v), -EINVAL);
	ck_assert_int_eq(cachesim_parse_size(" 1", &v), -EINVAL);
	ck_assert_int_eq(cachesim_parse_size("18446744073709551616", &v),
			 -EINVAL);
	ck_assert_int_eq(cachesim_parse_size("17179869184g", &v), -EINVAL);
	ck_assert_int_eq(cachesim_parse_size(NULL, &v), -EINVAL);
	ck_assert_uint_eq(v, 7); /* untouched on error */
	ck_assert_int_eq(cachesim_parse_size("18446744073709551615", &v), 0);
	ck_assert_uint_eq(v, UINT64_MAX);
	/* Hex is cachesim_parse_u64()'s, with CACHESIM_PARSE_HEX only. */
	ck_assert_int_eq(cachesim_parse_size("0x10", &v), -EINVAL);
}
END_TEST

START_TEST(test_parse_u64)
{
	const unsigned int hex = CACHESIM_PARSE_HEX;
	const unsigned int sfx = CACHESIM_PARSE_SUFFIX;
	uint64_t v = 0;

	/* Decimal, and hex after 0x or 0X in either case, with HEX. */
	ck_assert_int_eq(cachesim_parse_u64("4096", 0, &v), 0);
	ck_assert_uint_eq(v, 4096);
	ck_assert_int_eq(cachesim_parse_u64("0x1fF0", hex, &v), 0);
	ck_assert_uint_eq(v, 0x1ff0);
	ck_assert_int_eq(cachesim_parse_u64("0XABCDEF", hex, &v), 0);
	ck_assert_uint_eq(v, 0xabcdef);
	ck_assert_int_eq(cachesim_parse_u64("0x0", hex, &v), 0);
	ck_assert_uint_eq(v, 0);
	ck_assert_int_eq(cachesim_parse_u64("0xffffffffffffffff", hex, &v), 0);
	ck_assert_uint_eq(v, UINT64_MAX);
	/* Suffixes, on hex too (no suffix letter is a hex digit). */
	ck_assert_int_eq(cachesim_parse_u64("3t", sfx, &v), 0);
	ck_assert_uint_eq(v, 3ull << 40);
	ck_assert_int_eq(cachesim_parse_u64("0x10k", hex | sfx, &v), 0);
	ck_assert_uint_eq(v, 16384);
	ck_assert_int_eq(cachesim_parse_u64("0x2M", hex | sfx, &v), 0);
	ck_assert_uint_eq(v, 2u << 20);

	v = 7;
	/* Without the flag, the prefix or suffix is a malformed number. */
	ck_assert_int_eq(cachesim_parse_u64("0x10", 0, &v), -EINVAL);
	ck_assert_int_eq(cachesim_parse_u64("0x10", sfx, &v), -EINVAL);
	ck_assert_int_eq(cachesim_parse_u64("4k", 0, &v), -EINVAL);
	ck_assert_int_eq(cachesim_parse_u64("0x4k", hex, &v), -EINVAL);
	/* Hex digits only after the prefix. */
	ck_assert_int_eq(cachesim_parse_u64("ff", hex, &v), -EINVAL);
	ck_assert_int_eq(cachesim_parse_u64("12ab", hex, &v), -EINVAL);
	/* A prefix with no digits, junk, signs, spaces, two suffixes. */
	ck_assert_int_eq(cachesim_parse_u64("0x", hex, &v), -EINVAL);
	ck_assert_int_eq(cachesim_parse_u64("0xk", hex | sfx, &v), -EINVAL);
	ck_assert_int_eq(cachesim_parse_u64("0xzz", hex, &v), -EINVAL);
	ck_assert_int_eq(cachesim_parse_u64("", hex | sfx, &v), -EINVAL);
	ck_assert_int_eq(cachesim_parse_u64("+1", hex | sfx, &v), -EINVAL);
	ck_assert_int_eq(cachesim_parse_u64("1 ", hex | sfx, &v), -EINVAL);
	ck_assert_int_eq(cachesim_parse_u64("1kk", hex | sfx, &v), -EINVAL);
	ck_assert_int_eq(cachesim_parse_u64("1x", hex | sfx, &v), -EINVAL);
	ck_assert_int_eq(cachesim_parse_u64(NULL, hex | sfx, &v), -EINVAL);
	/* Too large for 64 bits: in the digits, or by the suffix. */
	ck_assert_int_eq(cachesim_parse_u64("18446744073709551616", 0, &v),
			 -ERANGE);
	ck_assert_int_eq(cachesim_parse_u64("0x10000000000000000", hex, &v),
			 -ERANGE);
	ck_assert_int_eq(cachesim_parse_u64("16777216t", sfx, &v), -ERANGE);
	/* The digits overflow before the bad tail is seen. */
	ck_assert_int_eq(cachesim_parse_u64("99999999999999999999x", 0, &v),
			 -ERANGE);
	ck_assert_uint_eq(v, 7); /* untouched on error */
	ck_assert_int_eq(cachesim_parse_u64("16777215t", sfx, &v), 0);
	ck_assert_uint_eq(v, 16777215ull << 40);
}
END_TEST

START_TEST(test_parse_policy)
{
	static const char *const names[] = {"lru", "plru", "fifo", "random"};
	static const char *const wnames[] = {"wb-wa", "wt-wa", "wt-nwa"};
	enum cachesim_policy p = CACHESIM_LRU;
	enum cachesim_write_policy w = CACHESIM_WB_WA;
	unsigned int i;

	for (i = 0; i < 4; i++) {
		ck_assert_int_eq(cachesim_parse_policy(names[i], &p), 0);
		ck_assert_int_eq(p, (int)i);
		ck_assert_str_eq(cachesim_policy_name(p), names[i]);
	}
	for (i = 0; i < 3; i++) {
		ck_assert_int_eq(cachesim_parse_write_policy(wnames[i], &w), 0);
		ck_assert_int_eq(w, (int)i);
		ck_assert_str_eq(cachesim_write_policy_name(w), wnames[i]);
	}
	ck_assert_int_eq(cachesim_parse_policy("FIFO", &p), 0);
	ck_assert_int_eq(p, CACHESIM_FIFO);
	ck_assert_int_eq(cachesim_parse_policy("mru", &p), -EINVAL);
	ck_assert_int_eq(cachesim_parse_policy("", &p), -EINVAL);
	ck_assert_int_eq(cachesim_parse_write_policy("wb", &w), -EINVAL);
	ck_assert_int_eq(p, CACHESIM_FIFO);
	ck_assert_str_eq(cachesim_policy_name((enum cachesim_policy)9), "?");
}
END_TEST

static Suite *cachesim_suite(void)
{
	Suite *s = suite_create("cachesim");
	TCase *tc;

	tc = tcase_create("geometry");
	tcase_add_test(tc, test_defaults);
	tcase_add_test(tc, test_stream_stride);
	tcase_add_test(tc, test_working_set_fits);
	tcase_add_test(tc, test_working_set_thrash);
	tcase_add_test(tc, test_one_set_8_lines);
	tcase_add_test(tc, test_one_set_9_lines);
	tcase_add_test(tc, test_touch_orders_without_counting);
	tcase_add_test(tc, test_access_many_is_access);
	tcase_add_test(tc, test_direct_mapped);
	tcase_add_test(tc, test_fully_associative);
	suite_add_tcase(s, tc);

	tc = tcase_create("policy");
	tcase_add_test(tc, test_lru_victim);
	tcase_add_test(tc, test_plru_victim);
	tcase_add_test(tc, test_fifo_victim);
	tcase_add_test(tc, test_random_victim);
	tcase_add_test(tc, test_invalid_way_first);
	tcase_add_test(tc, test_write_back);
	tcase_add_test(tc, test_write_through);
	tcase_add_test(tc, test_no_write_allocate);
	suite_add_tcase(s, tc);

	tc = tcase_create("maintenance");
	tcase_add_test(tc, test_clean);
	tcase_add_test(tc, test_invalidate);
	tcase_add_test(tc, test_clean_invalidate);
	tcase_add_test(tc, test_flush_all);
	tcase_add_test(tc, test_clean_multilevel);
	tcase_add_test(tc, test_maint_large_range);
	tcase_add_test(tc, test_dirty_any);
	tcase_add_test(tc, test_maint_filter);
	/* Each walk forced in turn (the automatic choice is one of them);
	 * a run makes 3,400 range cleans, checked line by line. */
	tcase_add_loop_test(tc, test_quick_clean, 1, 4);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_maint_filter_reset);
	suite_add_tcase(s, tc);

	tc = tcase_create("tracking");
	tcase_add_test(tc, test_track_same_results);
	tcase_add_test(tc, test_track_clean_then_evict);
	tcase_add_test(tc, test_dirty_bits);
	tcase_add_loop_test(tc, test_track_straddle, 1, 4);
	tcase_add_test(tc, test_track_errors);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);

	tc = tcase_create("hierarchy");
	tcase_add_test(tc, test_multilevel);
	tcase_add_test(tc, test_multilevel_hooks);
	tcase_add_test(tc, test_multilevel_write_through);
	tcase_add_test(tc, test_straddle);
	tcase_add_test(tc, test_straddle_multilevel);
	suite_add_tcase(s, tc);

	tc = tcase_create("queries");
	tcase_add_test(tc, test_locate_and_line);
	tcase_add_test(tc, test_cycles);
	tcase_add_test(tc, test_compulsory_many);
	tcase_add_test(tc, test_reset);
	tcase_add_test(tc, test_determinism);
	suite_add_tcase(s, tc);

	tc = tcase_create("config");
	tcase_add_test(tc, test_geometry_errors);
	tcase_add_test(tc, test_parse_size);
	tcase_add_test(tc, test_parse_u64);
	tcase_add_test(tc, test_parse_policy);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(cachesim_suite());
}
