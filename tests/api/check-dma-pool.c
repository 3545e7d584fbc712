// SPDX-License-Identifier: MIT
/*
 * check-dma-pool.c - dma_pool_*: the kernel's size/align/boundary rules,
 * block placement (alignment, no block across a boundary), poisoning of
 * free blocks and the use-after-free it catches, double and wrong-pool
 * frees, destroy with blocks in use, managed pools, and threads.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/dma-mapping.h>
#include <linux/dmapool.h>

#include <dmaemu/cpu.h>
#include <dmaemu/device.h>
#include <dmaemu/machine.h>
#include <dmaemu/mm.h>
#include <dmaemu/report.h>
#include <dmaemu/testing.h>

#include "check-run.h"
#include "fixture.h"

static struct dmaemu_machine *m;
static struct dmaemu_device *ddev;
static struct device *dev;
static uint64_t expected;

static const char *const profiles[] = {"arm", "arm64", "x86"};

static void mk(const char *profile)
{
	m = fixture_machine("mem=16M:profile=%s", profile);
	ddev = dmaemu_device_create(m, "dev0", NULL, NULL);
	ck_assert_ptr_nonnull(ddev);
	dev = dmaemu_device_to_dev(ddev);
	expected = 0;
}

static void setup(void)
{
	mk("arm64");
}

static void teardown(void)
{
	fixture_finish(&m, &ddev, expected);
}

static uint64_t count(const char *kind)
{
	return dmaemu_report_count(m, kind);
}

static unsigned long pages_free(void)
{
	struct dmaemu_mm_stats st;

	ck_assert_int_eq(dmaemu_mm_stats(m, &st), 0);
	return st.pages_free;
}

/* ---------------------------------------------------------------------- */
/* Creation rules and placement                                           */
/* ---------------------------------------------------------------------- */

/* Every combination dma_pool_create() must refuse: NULL, no report. */
START_TEST(test_create_refused)
{
	static const struct {
		size_t size, align, boundary;
	} bad[] = {
		{0, 0, 0},	 /* size 0 */
		{64, 3, 0},	 /* align not a power of two */
		{64, 48, 0},	 /* again */
		{100, 0, 64},	 /* boundary smaller than size */
		{100, 0, 200},	 /* boundary not a power of two */
		{100, 64, 64},	 /* size rounds up to 128 > boundary */
		{5000, 0, 4096}, /* boundary below a page-plus block */
	};
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(!dma_pool_create("bad", dev, bad[i].size,
					       bad[i].align, bad[i].boundary),
			      "combination %u accepted", i);
	ck_assert_uint_eq(count(NULL), 0);
	/* A bad device is a report. */
	ck_assert_ptr_null(dma_pool_create("nodev", NULL, 64, 0, 0));
	ck_assert_uint_eq(count("bad-argument"), 1);
	expected = 1;
}
END_TEST

/*
 * Block size after the rules, seen as the distance between the first two
 * blocks of a fresh pool (blocks are handed out in address order).
 */
static size_t block_step(size_t size, size_t align, size_t boundary)
{
	struct dma_pool *pool =
		dma_pool_create("step", dev, size, align, boundary);
	dma_addr_t h1, h2;
	uint8_t *a, *b;
	size_t step;

	ck_assert_ptr_nonnull(pool);
	a = dma_pool_alloc(pool, GFP_KERNEL, &h1);
	b = dma_pool_alloc(pool, GFP_KERNEL, &h2);
	ck_assert(a && b);
	step = (size_t)(h2 - h1);
	ck_assert_uint_eq((uintptr_t)(b - a), step);
	dma_pool_free(pool, a, h1);
	dma_pool_free(pool, b, h2);
	dma_pool_destroy(pool);
	return step;
}

START_TEST(test_sizes)
{
	ck_assert_uint_eq(block_step(1, 0, 0), 4); /* at least 4 */
	ck_assert_uint_eq(block_step(3, 1, 0), 4);
	ck_assert_uint_eq(block_step(10, 16, 0), 16); /* rounded to align */
	ck_assert_uint_eq(block_step(100, 0, 0), 100);
	ck_assert_uint_eq(block_step(100, 64, 128), 128);
	ck_assert_uint_eq(block_step(100, 8, 128), 128); /* boundary skip */
	ck_assert_uint_eq(block_step(5000, 0, 0), 8192); /* page each */
}
END_TEST

/*
 * A loop test over (size, align, boundary): fill two pages' worth of
 * blocks; each is aligned, none crosses a boundary, none overlaps another.
 */
static const struct {
	size_t size, align, boundary;
	unsigned int per_page; /* blocks in one 4 KiB page */
} layouts[] = {
	/* Linux 4.14's pool_initialise_page() skips a block that would end
	 * exactly on a boundary: 63 blocks of 64 bytes in a 4 KiB page, 3 in
	 * each 256 bytes. */
	{96, 0, 256, 32},   {24, 64, 0, 63},	{64, 64, 0, 63},
	{1000, 8, 1024, 4}, {3000, 0, 4096, 1}, {48, 16, 128, 64},
	{200, 0, 512, 16},  {64, 0, 256, 48},
};

START_TEST(test_layout)
{
	const size_t size = layouts[_i].size, boundary = layouts[_i].boundary;
	const size_t align = layouts[_i].align ? layouts[_i].align : 1;
	const unsigned int n = 2 * layouts[_i].per_page;
	struct dma_pool *pool;
	dma_addr_t h[256];
	void *v[256];
	unsigned int i, j;
	size_t eff = (size + align - 1) & ~(align - 1);

	pool = dma_pool_create("layout", dev, size, layouts[_i].align,
			       boundary);
	ck_assert_ptr_nonnull(pool);
	for (i = 0; i < n; i++) {
		v[i] = dma_pool_alloc(pool, GFP_KERNEL, &h[i]);
		ck_assert_ptr_nonnull(v[i]);
		ck_assert_uint_eq(h[i] % align, 0);
		ck_assert_uint_eq((uintptr_t)v[i] % align, 0);
		if (boundary)
			ck_assert_uint_eq(h[i] / boundary,
					  (h[i] + eff - 1) / boundary);
		for (j = 0; j < i; j++)
			ck_assert(h[i] >= h[j] + eff || h[j] >= h[i] + eff);
	}
	/* Exactly per_page blocks share the first block's page. */
	for (i = 0, j = 0; i < n; i++)
		j += h[i] / 4096 == h[0] / 4096;
	ck_assert_uint_eq(j, layouts[_i].per_page);
	for (i = 0; i < n; i++)
		dma_pool_free(pool, v[i], h[i]);
	dma_pool_destroy(pool);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Contents: poison, zalloc, coherence                                    */
/* ---------------------------------------------------------------------- */

START_TEST(test_poison)
{
	struct dma_pool *pool;
	dma_addr_t h, h2;
	uint8_t *b, *b2, junk[8];

	mk(profiles[_i]);
	pool = dma_pool_create("poison", dev, 64, 64, 0);
	ck_assert_ptr_nonnull(pool);
	b = dma_pool_alloc(pool, GFP_KERNEL, &h);
	ck_assert_ptr_nonnull(b);
	ck_assert(fixture_cpu_sees(b, 0xa9, 64)); /* POOL_POISON_ALLOCATED */
	dma_pool_free(pool, b, h);
	ck_assert(fixture_cpu_sees(b, 0xa7, 64)); /* POOL_POISON_FREED */

	/* The block comes back intact: no report. */
	b2 = dma_pool_alloc(pool, GFP_KERNEL, &h2);
	ck_assert_ptr_eq(b2, b);
	ck_assert_uint_eq(count(NULL), 0);
	dma_pool_free(pool, b2, h2);

	/* A CPU write after free is caught at the next allocation. */
	memset(junk, 0x42, sizeof(junk));
	ck_assert_int_eq(dmaemu_cpu_write(b + 20, junk, 3), 0);
	b2 = dma_pool_alloc(pool, GFP_KERNEL, &h2);
	ck_assert_ptr_eq(b2, b);
	ck_assert_uint_eq(count("pool-corruption"), 1);
	dma_pool_free(pool, b2, h2);

	/* So is a device write into a freed block. */
	ck_assert_int_eq(dmaemu_dma_write(ddev, h + 60, junk, 4), 0);
	b2 = dma_pool_zalloc(pool, GFP_KERNEL, &h2);
	ck_assert_ptr_eq(b2, b);
	ck_assert_uint_eq(count("pool-corruption"), 2);
	ck_assert(fixture_cpu_sees(b2, 0, 64));
	dma_pool_free(pool, b2, h2);
	dma_pool_destroy(pool);
	expected = 2;
}
END_TEST

/* The newest report's text. */
static const char *last_text(void)
{
	static struct dmaemu_report r;

	ck_assert_uint_gt(dmaemu_report_kept(m), 0);
	ck_assert_int_eq(dmaemu_report_get(m, dmaemu_report_kept(m) - 1, &r),
			 0);
	return r.text;
}

/*
 * Blocks of 100 bytes start inside cache lines and end inside others: the
 * poison check covers every byte of a block, its last one too, and names
 * the first damaged byte and how many are; the bytes after a block (the
 * next block's) are not its own.
 */
START_TEST(test_poison_edges)
{
	struct dma_pool *pool;
	dma_addr_t h0, h1, h;
	uint8_t *b0, *b1, *b, junk = 0x42;

	mk(profiles[_i]);
	pool = dma_pool_create("edges", dev, 100, 4, 0);
	ck_assert_ptr_nonnull(pool);
	b0 = dma_pool_alloc(pool, GFP_KERNEL, &h0);
	b1 = dma_pool_alloc(pool, GFP_KERNEL, &h1);
	ck_assert_ptr_nonnull(b0);
	ck_assert_ptr_nonnull(b1);
	ck_assert_uint_eq(h1 - h0, 100);
	ck_assert(fixture_cpu_sees(b1, 0xa9, 100));
	dma_pool_free(pool, b1, h1);
	ck_assert(fixture_cpu_sees(b1, 0xa7, 100));

	/* Intact, to its last byte: no report. */
	b = dma_pool_alloc(pool, GFP_KERNEL, &h);
	ck_assert_ptr_eq(b, b1);
	ck_assert_uint_eq(count(NULL), 0);
	dma_pool_free(pool, b, h);

	/* The CPU writes the freed block's last byte. */
	ck_assert_int_eq(dmaemu_cpu_write(b1 + 99, &junk, 1), 0);
	b = dma_pool_alloc(pool, GFP_KERNEL, &h);
	ck_assert_ptr_eq(b, b1);
	ck_assert_uint_eq(count("pool-corruption"), 1);
	ck_assert_ptr_nonnull(strstr(last_text(), "1 of 100 bytes changed, "
						  "first at offset 99 (0x42, "
						  "poison 0xa7)"));
	dma_pool_free(pool, b, h);

	/* The device writes bytes 3 and 99 of it: the first is named. */
	ck_assert_int_eq(dmaemu_dma_write(ddev, h1 + 99, &junk, 1), 0);
	ck_assert_int_eq(dmaemu_dma_write(ddev, h1 + 3, &junk, 1), 0);
	b = dma_pool_alloc(pool, GFP_KERNEL, &h);
	ck_assert_ptr_eq(b, b1);
	ck_assert_uint_eq(count("pool-corruption"), 2);
	ck_assert_ptr_nonnull(strstr(last_text(), "2 of 100 bytes changed, "
						  "first at offset 3 (0x42"));
	dma_pool_free(pool, b, h);

	/* The byte after block 0 is block 1's, in use: no report for 0. */
	b1 = dma_pool_alloc(pool, GFP_KERNEL, &h1);
	ck_assert_uint_eq(h1, h0 + 100);
	dma_pool_free(pool, b0, h0);
	ck_assert_int_eq(dmaemu_cpu_write(b1, &junk, 1), 0);
	b0 = dma_pool_alloc(pool, GFP_KERNEL, &h0);
	ck_assert_uint_eq(h1 - h0, 100);
	ck_assert_uint_eq(count(NULL), 2);
	dma_pool_free(pool, b0, h0);
	dma_pool_free(pool, b1, h1);
	dma_pool_destroy(pool);
	expected = 2;
}
END_TEST

/*
 * A block freed while a streaming mapping holds bytes of its last line
 * only (a driver mapped a block's tail, the last 8 of its 100 bytes, for
 * the device, and freed the block without unmapping it): the free is
 * reported, naming that mapping.  Freeing the block before it, whose
 * last line the mapping shares but none of whose bytes it holds, is not.
 * x86, where pool blocks are ordinary cacheable memory a driver can map.
 */
START_TEST(test_free_mapped_tail)
{
	struct dma_pool *pool;
	struct dmaemu_report r;
	dma_addr_t h0, h1, t;
	uint8_t *b0, *b1;

	mk("x86");
	pool = dma_pool_create("tail", dev, 100, 4, 0);
	ck_assert_ptr_nonnull(pool);
	b0 = dma_pool_alloc(pool, GFP_KERNEL, &h0);
	b1 = dma_pool_alloc(pool, GFP_KERNEL, &h1);
	ck_assert_ptr_nonnull(b0);
	ck_assert_ptr_nonnull(b1);
	ck_assert_uint_eq(h1 - h0, 100);
	/* Block 1 is [100, 200) of its page: lines 1 to 3; its last 8
	 * bytes are the only ones of line 3 it has. */
	t = dma_map_single(dev, b1 + 92, 8, DMA_FROM_DEVICE);
	ck_assert(!dma_mapping_error(dev, t));
	dma_pool_free(pool, b0, h0);
	ck_assert_uint_eq(count(NULL), 0);
	dma_pool_free(pool, b1, h1);
	ck_assert_uint_eq(count("free-of-mapped-memory"), 1);
	ck_assert_int_eq(dmaemu_report_get(m, 0, &r), 0);
	ck_assert_str_eq(r.kind_name, "free-of-mapped-memory");
	ck_assert_ptr_nonnull(strstr(r.text, "dma_pool_free of 100 bytes"));
	ck_assert_ptr_nonnull(strstr(r.text, "holds [0x"));
	ck_assert_ptr_nonnull(strstr(r.where, "check-dma-pool.c"));
	dma_unmap_single(dev, t, 8, DMA_FROM_DEVICE);
	dma_pool_destroy(pool);
	/* Only the free's report is this test's: the poison the free then
	 * writes over the mapped bytes is the pool's own store. */
	expected = count(NULL);
}
END_TEST

/*
 * Blocks are coherent memory: on arm/arm64 they are uncached (the CPU's
 * writes are in DRAM at once, no line becomes resident), on x86 cached
 * and snooped; in all cases the device sees the CPU's writes and the CPU
 * the device's, with no sync.
 */
START_TEST(test_coherent_blocks)
{
	struct dma_pool *pool;
	uint8_t data[32], back[32];
	uint64_t phys = 0;
	dma_addr_t h;
	uint8_t *b;

	mk(profiles[_i]);
	pool = dma_pool_create("desc", dev, 32, 32, 4096);
	ck_assert_ptr_nonnull(pool);
	b = dma_pool_alloc(pool, GFP_KERNEL, &h);
	ck_assert_ptr_nonnull(b);
	ck_assert_int_ne(fixture_region(b, &phys), DMAEMU_REGION_NONE);
	ck_assert_int_eq(fixture_region(b, NULL),
			 fixture_profile(m) == DMAEMU_PROFILE_X86
				 ? DMAEMU_REGION_LINEAR
				 : DMAEMU_REGION_UNCACHED);
	ck_assert_uint_eq(phys, h);
	if (fixture_profile(m) != DMAEMU_PROFILE_X86)
		ck_assert(!fixture_resident(m, h));

	memset(data, 0x3c, sizeof(data));
	ck_assert_int_eq(dmaemu_cpu_write(b, data, 32), 0);
	ck_assert_int_eq(dmaemu_dma_read(ddev, h, back, 32), 0);
	ck_assert_mem_eq(back, data, 32);
	memset(data, 0x3d, sizeof(data));
	ck_assert_int_eq(dmaemu_dma_write(ddev, h, data, 32), 0);
	ck_assert(fixture_cpu_sees(b, 0x3d, 32));
	ck_assert_uint_eq(count(NULL), 0);
	dma_pool_free(pool, b, h);
	dma_pool_destroy(pool);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Misuse                                                                 */
/* ---------------------------------------------------------------------- */

START_TEST(test_bad_frees)
{
	struct dma_pool *a = dma_pool_create("a", dev, 64, 0, 0);
	struct dma_pool *b = dma_pool_create("b", dev, 64, 0, 0);
	dma_addr_t h, h2;
	uint8_t *x, *y;

	ck_assert(a && b);
	x = dma_pool_alloc(a, GFP_KERNEL, &h);
	y = dma_pool_alloc(a, GFP_KERNEL, &h2);
	ck_assert(x && y);

	dma_pool_free(b, x, h); /* wrong pool */
	ck_assert_uint_eq(count("bad-free"), 1);
	dma_pool_free(a, y, h); /* address and handle disagree */
	ck_assert_uint_eq(count("bad-free"), 2);
	dma_pool_free(a, x + 8, h + 8); /* not a block start */
	ck_assert_uint_eq(count("bad-free"), 3);
	/* None of those freed anything: x is still in use. */
	ck_assert(fixture_cpu_sees(x, 0xa9, 64));

	dma_pool_free(a, x, h);
	dma_pool_free(a, x, h); /* double free */
	ck_assert_uint_eq(count("bad-free"), 4);
	dma_pool_free(a, y, h2);
	ck_assert_uint_eq(count(NULL), 4);
	dma_pool_destroy(a);
	dma_pool_destroy(b);
	dma_pool_destroy(NULL);
	expected = 4;
}
END_TEST

/* Destroying a pool with blocks in use is one pool-busy report; its
 * memory goes back all the same. */
START_TEST(test_destroy_busy)
{
	unsigned long before = pages_free();
	struct dma_pool *pool = dma_pool_create("busy", dev, 512, 0, 0);
	dma_addr_t h;
	unsigned int i;

	ck_assert_ptr_nonnull(pool);
	for (i = 0; i < 10; i++) /* two pages */
		ck_assert_ptr_nonnull(dma_pool_alloc(pool, GFP_KERNEL, &h));
	ck_assert_uint_eq(pages_free(), before - 2);
	dma_pool_destroy(pool);
	ck_assert_uint_eq(count("pool-busy"), 1);
	ck_assert_uint_eq(pages_free(), before);
	expected = 1;
}
END_TEST

/* Managed pools go with the device, silently when their blocks were
 * freed; destroying one early (either way) is not a double destroy. */
START_TEST(test_dmam_pool)
{
	unsigned long before = pages_free();
	struct dma_pool *p1, *p2, *p3;
	dma_addr_t h;
	void *v;

	p1 = dmam_pool_create("m1", dev, 64, 0, 0);
	p2 = dmam_pool_create("m2", dev, 128, 0, 0);
	p3 = dmam_pool_create("m3", dev, 256, 0, 0);
	ck_assert(p1 && p2 && p3);
	v = dma_pool_alloc(p1, GFP_KERNEL, &h);
	ck_assert_ptr_nonnull(v);
	dma_pool_free(p1, v, h);
	ck_assert_ptr_nonnull(dma_pool_alloc(p2, GFP_KERNEL, &h));
	ck_assert_ptr_nonnull(dma_pool_alloc(p3, GFP_KERNEL, &h));
	dmam_pool_destroy(p2); /* with a block in use */
	ck_assert_uint_eq(count("pool-busy"), 1);
	dma_pool_destroy(p3); /* early, the plain way */
	ck_assert_uint_eq(count("pool-busy"), 2);
	dmaemu_device_destroy(ddev);
	ddev = NULL;
	ck_assert_uint_eq(count(NULL), 2);
	ck_assert_uint_eq(pages_free(), before);
	expected = 2;
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Threads                                                                */
/* ---------------------------------------------------------------------- */

static struct dma_pool *shared_pool;

static void *pool_loop(void *arg)
{
	unsigned int i, k, seed = (unsigned int)(uintptr_t)arg;
	uint8_t mine[48], back[48];
	dma_addr_t h[4];
	uint8_t *v[4];

	memset(mine, (int)seed, sizeof(mine));
	for (i = 0; i < 300; i++) {
		unsigned int n = 1 + rand_r(&seed) % 4;

		for (k = 0; k < n; k++) {
			v[k] = dma_pool_alloc(shared_pool, GFP_KERNEL, &h[k]);
			if (!v[k] || dmaemu_cpu_write(v[k], mine, 48))
				return (void *)1;
		}
		for (k = 0; k < n; k++) {
			/* Nobody else got the block meanwhile. */
			if (dmaemu_dma_read(ddev, h[k], back, 48) ||
			    memcmp(back, mine, 48))
				return (void *)2;
			dma_pool_free(shared_pool, v[k], h[k]);
		}
	}
	return NULL;
}

START_TEST(test_threads)
{
	pthread_t t[4];
	unsigned int i;
	void *ret;

	shared_pool = dma_pool_create("shared", dev, 48, 16, 0);
	ck_assert_ptr_nonnull(shared_pool);
	for (i = 0; i < 4; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, pool_loop,
						(void *)(uintptr_t)(i + 1)),
				 0);
	for (i = 0; i < 4; i++) {
		ck_assert_int_eq(pthread_join(t[i], &ret), 0);
		ck_assert_ptr_null(ret);
	}
	dma_pool_destroy(shared_pool);
	ck_assert_uint_eq(count(NULL), 0);
}
END_TEST

static Suite *pool_suite(void)
{
	Suite *s = suite_create("dma-pool");
	TCase *tc = tcase_create("arm64");
	TCase *tp = tcase_create("per-profile");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_create_refused);
	tcase_add_test(tc, test_sizes);
	tcase_add_loop_test(tc, test_layout, 0,
			    sizeof(layouts) / sizeof(layouts[0]));
	tcase_add_test(tc, test_bad_frees);
	tcase_add_test(tc, test_destroy_busy);
	tcase_add_test(tc, test_dmam_pool);
	tcase_add_test(tc, test_threads);
	suite_add_tcase(s, tc);

	tcase_add_checked_fixture(tp, NULL, teardown);
	tcase_add_loop_test(tp, test_poison, 0, 3);
	tcase_add_loop_test(tp, test_poison_edges, 0, 3);
	tcase_add_test(tp, test_free_mapped_tail);
	tcase_add_loop_test(tp, test_coherent_blocks, 0, 3);
	suite_add_tcase(s, tp);
	return s;
}

int main(void)
{
	return check_run(pool_suite());
}
