// SPDX-License-Identifier: MIT
/*
 * check-seed.c - the options that shape the machine's cache really reach
 * it: `seed` chooses the prefetcher's picks and the victims of random
 * replacement (the same seed replays them, another seed changes them), and
 * `cache_policy` chooses the replacement order (fifo and lru differ on a
 * one-set cache).  CPU accesses go through the model (dmaemu_cpu_read()),
 * as uninstrumented driver code's explicit accessors do.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check-run.h"
#include "dma/dma.h"
#include "dmaemu/cpu.h"
#include "dmaemu/device.h"
#include "fixture.h"

#include <linux/dma-mapping.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/slab.h>

#define NPICKS 48 /* prefetches recorded */

static void teardown(void)
{
	fixture_teardown();
}

/* One CPU load of the byte at @p, through the model. */
static void load(const void *p)
{
	uint8_t b;

	ck_assert_int_eq(dmaemu_cpu_read(&b, p, 1), 0);
}

/*
 * The lines the prefetcher fills, in order, on a machine with @seed: a
 * 16 KiB buffer is mapped for the device (256 candidate lines) and the
 * CPU loads another buffer until NPICKS prefetches have happened.
 */
static void prefetch_picks(uint64_t seed, uint64_t *picks)
{
	struct dmaemu_machine *m;
	struct dmaemu_device *dd;
	struct device *dev;
	struct page *pg;
	uint8_t *other;
	uint64_t phys, seen = 0, n;
	dma_addr_t dma;
	unsigned int k = 0;

	m = fixture_machine("profile=arm64:mem=16M:prefetch=1:prefetch_rate=3:"
			    "seed=%llu",
			    (unsigned long long)seed);
	dd = dmaemu_device_create(m, "dev0", NULL, NULL);
	ck_assert_ptr_nonnull(dd);
	dev = dmaemu_device_to_dev(dd);
	pg = alloc_pages(GFP_KERNEL, 2);
	other = kmalloc(64, GFP_KERNEL);
	ck_assert(pg && other);
	phys = page_to_phys(pg);
	dma = dma_map_page(dev, pg, 0, 4 * PAGE_SIZE, DMA_FROM_DEVICE);
	ck_assert(!dma_mapping_error(dev, dma));
	for (n = 0; k < NPICKS && n < 100000; n++) {
		load(other + n % 64);
		if (m->cpu->prefetches != seen) {
			seen = m->cpu->prefetches;
			ck_assert_uint_ge(m->cpu->pf_last, phys);
			picks[k++] = (m->cpu->pf_last - phys) / m->line;
			/* Out again, so that every pick can fill. */
			dmaemu__range_invalidate(m, m->cpu->pf_last, m->line);
		}
	}
	ck_assert_uint_eq(k, NPICKS);
	dma_unmap_page(dev, dma, 4 * PAGE_SIZE, DMA_FROM_DEVICE);
	kfree(other);
	__free_pages(pg, 2);
	fixture_finish(&m, &dd, 0);
}

START_TEST(test_seed_prefetch)
{
	uint64_t a[NPICKS], b[NPICKS], c[NPICKS];

	prefetch_picks(1, a);
	prefetch_picks(1, b);
	prefetch_picks(2, c);
	ck_assert_mem_eq(a, b, sizeof(a));
	ck_assert_msg(memcmp(a, c, sizeof(a)) != 0,
		      "seed=1 and seed=2 prefetched the same lines");
}
END_TEST

/*
 * Random replacement in one set of 8 ways: the CPU loads 8 lines, then 40
 * others; after each, which of the 48 lines are resident.  Written into
 * @sig, one character a line a step.
 */
static void random_victims(uint64_t seed, char *sig, size_t len)
{
	struct dmaemu_machine *m;
	struct page *pg;
	uint8_t *base;
	unsigned int i, j;
	size_t k = 0;

	m = fixture_machine("mem=16M:cache_size=512:cache_ways=8:"
			    "cache_policy=random:seed=%llu",
			    (unsigned long long)seed);
	pg = alloc_pages(GFP_KERNEL, 0);
	ck_assert_ptr_nonnull(pg);
	base = page_address(pg);
	for (i = 0; i < 48; i++) {
		load(base + i * m->line);
		for (j = 0; j <= i && k + 1 < len; j++)
			sig[k++] = dmaemu__cpu_resident(m, page_to_phys(pg) +
								   j * m->line)
					   ? '1'
					   : '0';
	}
	sig[k] = '\0';
	ck_assert_uint_lt(k + 1, len);
	__free_pages(pg, 0);
	fixture_finish(&m, NULL, 0);
}

START_TEST(test_seed_random_victims)
{
	static char a[2048], b[2048], c[2048];

	random_victims(1, a, sizeof(a));
	random_victims(1, b, sizeof(b));
	random_victims(2, c, sizeof(c));
	ck_assert_str_eq(a, b);
	ck_assert_msg(strcmp(a, c) != 0,
		      "seed=1 and seed=2 chose the same victims");
}
END_TEST

/*
 * One set of 4 ways: lines 0, 1, 2, 3, then 0 again (a hit), then line 4.
 * lru evicts line 1 (least recently used), fifo line 0 (first in).
 */
START_TEST(test_policy_fifo_lru)
{
	static const char *const policy[] = {"lru", "fifo"};
	struct dmaemu_machine *m;
	struct page *pg;
	uint8_t *base;
	uint64_t phys;
	unsigned int i;

	m = fixture_machine("mem=16M:cache_size=256:cache_ways=4:"
			    "cache_policy=%s",
			    policy[_i]);
	pg = alloc_pages(GFP_KERNEL, 0);
	ck_assert_ptr_nonnull(pg);
	base = page_address(pg);
	phys = page_to_phys(pg);
	for (i = 0; i < 4; i++)
		load(base + i * m->line);
	load(base);
	load(base + 4 * m->line);
	ck_assert(dmaemu__cpu_resident(m, phys + 4 * m->line));
	ck_assert_int_eq(dmaemu__cpu_resident(m, phys), _i == 0);
	ck_assert_int_eq(dmaemu__cpu_resident(m, phys + m->line), _i == 1);
	ck_assert(dmaemu__cpu_resident(m, phys + 2 * m->line));
	ck_assert(dmaemu__cpu_resident(m, phys + 3 * m->line));
	__free_pages(pg, 0);
	fixture_finish(&m, NULL, 0);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("seed");
	TCase *tc = tcase_create("seed");

	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_seed_prefetch);
	tcase_add_test(tc, test_seed_random_victims);
	tcase_add_loop_test(tc, test_policy_fifo_lru, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(suite());
}
