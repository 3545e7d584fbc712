// SPDX-License-Identifier: MIT
/*
 * check-page-alloc.c - the buddy allocator: zones and their fallback,
 * block alignment, split and merge (exact buddyinfo), grouping by migrate
 * type, watermarks and reserves, fragmentation, __GFP_ZERO, bad frees,
 * sleep-in-atomic, address conversions, and concurrent use.
 *
 * The numbers follow from the machine options: "mem=16m" at the default
 * base 0x80000000 is one DMA32 zone of 4096 pages, four free order-10
 * blocks, pageblock order 9 (eight pageblocks); "mem=4m" is 1024 pages,
 * one order-10 block, pageblock order 7, and a min watermark of 64 pages
 * (min_free_kbytes = sqrt(4096 * 16) = 256).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/gfp.h>
#include <linux/hardirq.h>
#include <linux/irqflags.h>
#include <linux/mm.h>
#include <linux/preempt.h>
#include <linux/slab.h>

#include "check-run.h"
#include "dma/dma.h"
#include "fixture.h"

static struct dmaemu_machine *m;

/* A machine with @opts whose reports go to the fixture's log. */
static void mk(const char *opts)
{
	m = fixture_machine("%s", opts);
	ck_assert_ptr_eq(dmaemu_machine_current(), m);
}

static void teardown(void)
{
	dmaemu_machine_destroy(m);
	m = NULL;
	fixture_teardown();
}

static uint64_t reports(const char *kind)
{
	return dmaemu_report_count(m, kind);
}

static struct dmaemu_zone_info zinfo(int zone)
{
	struct dmaemu_zone_info zi;

	ck_assert_int_eq(dmaemu_zone_info(m, zone, &zi), 0);
	return zi;
}

static unsigned long zfree(int zone)
{
	return zinfo(zone).free;
}

static void ck_counts(const unsigned long *got, const unsigned long *want,
		      int n, const char *what)
{
	int i;

	for (i = 0; i < n; i++)
		ck_assert_msg(got[i] == want[i], "%s[%d] is %lu, want %lu",
			      what, i, got[i], want[i]);
}

static void ck_buddy(int zone, const unsigned long want[MAX_ORDER])
{
	unsigned long got[MAX_ORDER];

	ck_assert_int_eq(dmaemu_buddyinfo(m, zone, got), 0);
	ck_counts(got, want, MAX_ORDER, "buddyinfo");
}

static void ck_types(int zone, int mt, const unsigned long want[MAX_ORDER])
{
	unsigned long got[MAX_ORDER];

	ck_assert_int_eq(dmaemu_pagetypeinfo(m, zone, mt, got), 0);
	ck_counts(got, want, MAX_ORDER, dmaemu_migratetype_name(mt));
}

/* ---------------------------------------------------------------------- */
/* Zones                                                                  */
/* ---------------------------------------------------------------------- */

START_TEST(test_zone_layout)
{
	struct dmaemu_zone_info z;
	struct dmaemu_mm_stats st;

	mk("mem_base=0x100000:mem=64m:highmem=16m");
	z = zinfo(ZONE_DMA);
	ck_assert_uint_eq(z.start, 0x100000);
	ck_assert_uint_eq(z.end, 0x1000000);
	ck_assert_uint_eq(z.present, 3840);
	ck_assert_uint_eq(z.free, 3840);
	ck_assert_uint_eq(z.pageblock_order, 9);
	/* min_free_kbytes = sqrt(81920 * 16) = 1144: 286 pages by size. */
	ck_assert_uint_eq(z.min_free, 286 * 3840 / 20480);
	z = zinfo(ZONE_DMA32);
	ck_assert_uint_eq(z.start, 0x1000000);
	ck_assert_uint_eq(z.end, 0x4100000);
	ck_assert_uint_eq(z.present, 12544);
	ck_assert_uint_eq(z.min_free, 286 * 12544 / 20480);
	z = zinfo(ZONE_NORMAL);
	ck_assert_uint_eq(z.start, 0x100000000ULL);
	ck_assert_uint_eq(z.end, 0x101000000ULL);
	ck_assert_uint_eq(z.present, 4096);
	ck_assert_uint_eq(z.min_free, 286 * 4096 / 20480);

	ck_assert_int_eq(dmaemu_mm_stats(m, &st), 0);
	ck_assert_uint_eq(st.pages_total, 20480);
	ck_assert_uint_eq(st.pages_free, 20480);
	ck_assert_uint_eq(st.page_allocs, 0);

	ck_assert_int_eq(dmaemu_zone_info(m, 3, &z), -EINVAL);
	ck_assert_int_eq(dmaemu_zone_info(NULL, 0, &z), -EINVAL);
	ck_assert_str_eq(dmaemu_zone_name(ZONE_DMA32), "DMA32");
	ck_assert_ptr_null(dmaemu_zone_name(-1));
}
END_TEST

START_TEST(test_zone_choice)
{
	struct page *normal, *dma32, *dma, *user;
	unsigned long addr;

	mk("mem_base=0x100000:mem=64m:highmem=16m");
	normal = alloc_pages(GFP_KERNEL, 0);
	dma32 = alloc_pages(GFP_KERNEL | GFP_DMA32, 0);
	dma = alloc_pages(GFP_KERNEL | GFP_DMA, 0);
	user = alloc_pages(GFP_HIGHUSER_MOVABLE, 0);
	ck_assert(normal && dma32 && dma && user);
	ck_assert_uint_ge(page_to_phys(normal), 0x100000000ULL);
	ck_assert_uint_ge(page_to_phys(dma32), 0x1000000);
	ck_assert_uint_lt(page_to_phys(dma32), 0x100000000ULL);
	ck_assert_uint_lt(page_to_phys(dma), 0x1000000);
	ck_assert_uint_ge(page_to_phys(dma), 0x100000);
	ck_assert_uint_ge(page_to_phys(user), 0x100000000ULL);
	ck_assert_uint_eq(zinfo(ZONE_NORMAL).allocs, 2);
	ck_assert_uint_eq(zinfo(ZONE_DMA32).allocs, 1);
	ck_assert_uint_eq(zinfo(ZONE_DMA).allocs, 1);
	__free_page(normal);
	__free_page(dma32);
	__free_page(dma);
	__free_page(user);
	normal = alloc_pages_node(0, GFP_KERNEL, 1);
	ck_assert_uint_ge(page_to_phys(normal), 0x100000000ULL);
	__free_pages(normal, 1);
	addr = __get_dma_pages(GFP_KERNEL, 2);
	ck_assert_uint_lt(virt_to_phys((void *)addr), 0x1000000);
	free_pages(addr, 2);
	ck_assert_uint_eq(zfree(ZONE_NORMAL), 4096);
	ck_assert_uint_eq(zfree(ZONE_DMA), 3840);
	ck_assert_uint_eq(reports(NULL), 0);
}
END_TEST

/* DRAM at 2 GiB: there is no ZONE_DMA, so GFP_DMA comes from DMA32. */
START_TEST(test_gfp_dma_without_zone_dma)
{
	struct dmaemu_zone_info z;
	unsigned long counts[MAX_ORDER];
	struct page *p;

	mk("mem=16m");
	ck_assert_int_eq(dmaemu_zone_info(m, ZONE_DMA, &z), -ENOENT);
	ck_assert_int_eq(dmaemu_buddyinfo(m, ZONE_DMA, counts), -ENOENT);
	ck_assert_int_eq(dmaemu_zone_info(m, ZONE_NORMAL, &z), -ENOENT);
	p = alloc_pages(GFP_KERNEL | GFP_DMA, 0);
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_ge(page_to_phys(p), 0x80000000ULL);
	ck_assert_uint_eq(zinfo(ZONE_DMA32).allocs, 1);
	__free_page(p);
	/* GFP_KERNEL prefers Normal, which has no memory either. */
	p = alloc_pages(GFP_KERNEL, 0);
	ck_assert_ptr_nonnull(p);
	__free_page(p);
	ck_assert_uint_eq(reports(NULL), 0);
}
END_TEST

/*
 * GFP_KERNEL fills Normal down to its min watermark (30 pages of 2048),
 * then falls back to DMA32; GFP_ATOMIC may still dip into Normal's
 * reserve.
 */
START_TEST(test_zone_fallback)
{
	enum { MAXP = 2100 };
	struct page **pages = calloc(MAXP, sizeof(*pages));
	unsigned long min;
	int n = 0, i;
	struct page *p;

	ck_assert_ptr_nonnull(pages);
	mk("mem_base=0x100000:mem=64m:highmem=8m");
	min = zinfo(ZONE_NORMAL).min_free;
	for (;;) {
		p = alloc_pages(GFP_KERNEL, 0);
		ck_assert_ptr_nonnull(p);
		if (page_to_phys(p) < 0x100000000ULL)
			break;
		ck_assert_int_lt(n, MAXP - 1);
		pages[n++] = p;
	}
	/* 18432 pages: min_free_kbytes 1086, 271 pages, 30 for Normal. */
	ck_assert_uint_eq(min, 30);
	ck_assert_int_eq(n, 2048 - 30);
	ck_assert_uint_eq(zfree(ZONE_NORMAL), 30);
	ck_assert_uint_ge(page_to_phys(p), 0x1000000); /* DMA32, not DMA */
	pages[n++] = p;
	p = alloc_pages(GFP_ATOMIC, 0);
	ck_assert_uint_ge(page_to_phys(p), 0x100000000ULL);
	pages[n++] = p;
	for (i = 0; i < n; i++)
		__free_page(pages[i]);
	ck_assert_uint_eq(zfree(ZONE_NORMAL), 2048);
	ck_assert_uint_eq(reports(NULL), 0);
	free(pages);
}
END_TEST

static void fallback_setup(void)
{
	/* Each test of this case makes its own machine. */
}

/* ---------------------------------------------------------------------- */
/* Buddies                                                                */
/* ---------------------------------------------------------------------- */

START_TEST(test_alignment)
{
	unsigned int order;
	struct page *p;

	mk("mem_base=0x100000:mem=64m");
	for (order = 0; order < MAX_ORDER; order++) {
		p = alloc_pages(GFP_KERNEL, order);
		ck_assert_ptr_nonnull(p);
		ck_assert_msg(page_to_phys(p) % (PAGE_SIZE << order) == 0,
			      "order %u block at %#" PRIx64, order,
			      (uint64_t)page_to_phys(p));
	}
	/* ZONE_DMA starts at 1 MiB: its first 4 MiB block is at 4 MiB. */
	p = alloc_pages(GFP_DMA, MAX_ORDER - 1);
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(page_to_phys(p), 0x400000);
	p = alloc_pages(GFP_DMA | __GFP_MOVABLE, 8);
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(page_to_phys(p), 0x100000);
}
END_TEST

START_TEST(test_split_merge)
{
	static const unsigned long boot[MAX_ORDER] = {[10] = 4};
	static const unsigned long split0[MAX_ORDER] = {1, 1, 1, 1, 1, 1,
							1, 1, 1, 1, 3};
	static const unsigned long split3[MAX_ORDER] = {0, 0, 0, 1, 1, 1,
							1, 1, 1, 1, 3};
	static const unsigned long unmov0[MAX_ORDER] = {1, 1, 1, 1, 1,
							1, 1, 1, 1, 1};
	static const unsigned long mov3[MAX_ORDER] = {[10] = 3};
	static const unsigned long unmov1[MAX_ORDER] = {[10] = 1};
	unsigned long blocks[MIGRATE_TYPES];
	struct page *a, *b, *c;

	mk("mem=16m");
	ck_buddy(ZONE_DMA32, boot);
	ck_types(ZONE_DMA32, MIGRATE_MOVABLE, boot);

	a = alloc_pages(GFP_KERNEL, 0);
	ck_assert_uint_eq(page_to_phys(a), 0x80000000ULL);
	ck_buddy(ZONE_DMA32, split0);
	ck_types(ZONE_DMA32, MIGRATE_UNMOVABLE, unmov0);
	ck_types(ZONE_DMA32, MIGRATE_MOVABLE, mov3);
	/* The order-10 block was stolen whole: two pageblocks converted. */
	ck_assert_uint_eq(zinfo(ZONE_DMA32).fallbacks, 1);
	ck_assert_uint_eq(zinfo(ZONE_DMA32).conversions, 2);
	ck_assert_int_eq(dmaemu_pageblocks(m, ZONE_DMA32, blocks), 0);
	ck_assert_uint_eq(blocks[MIGRATE_UNMOVABLE], 2);
	ck_assert_uint_eq(blocks[MIGRATE_MOVABLE], 6);
	ck_assert_uint_eq(blocks[MIGRATE_RECLAIMABLE], 0);

	__free_page(a);
	ck_buddy(ZONE_DMA32, boot);
	ck_types(ZONE_DMA32, MIGRATE_UNMOVABLE, unmov1);
	ck_types(ZONE_DMA32, MIGRATE_MOVABLE, mov3);

	a = alloc_pages(GFP_KERNEL, 3);
	ck_buddy(ZONE_DMA32, split3);
	/* Two order-0 pages from the order-3 buddy... */
	b = alloc_pages(GFP_KERNEL, 0);
	c = alloc_pages(GFP_KERNEL, 0);
	ck_assert_uint_eq(page_to_phys(b), page_to_phys(a) + 8 * PAGE_SIZE);
	ck_assert_uint_eq(page_to_phys(c), page_to_phys(b) + PAGE_SIZE);
	/* ...merge back in any order. */
	__free_pages(a, 3);
	__free_page(c);
	{
		/* a stays whole (its buddy holds b), c alone (b is its
		 * buddy): as split0 again. */
		static const unsigned long mid[MAX_ORDER] = {1, 1, 1, 1, 1, 1,
							     1, 1, 1, 1, 3};
		ck_buddy(ZONE_DMA32, mid);
	}
	__free_page(b);
	ck_buddy(ZONE_DMA32, boot);
	ck_assert_uint_eq(zfree(ZONE_DMA32), 4096);
	ck_assert_uint_eq(reports(NULL), 0);
}
END_TEST

START_TEST(test_migrate_grouping)
{
	struct page *unmov, *mov, *recl, *p;
	int i;

	mk("mem=16m");
	unmov = alloc_pages(GFP_KERNEL, 0);
	mov = alloc_pages(GFP_HIGHUSER_MOVABLE, 0);
	recl = alloc_pages(GFP_KERNEL | __GFP_RECLAIMABLE, 0);
	ck_assert(unmov && mov && recl);
	ck_assert_uint_ne(page_to_phys(unmov) >> 21, page_to_phys(mov) >> 21);
	ck_assert_uint_ne(page_to_phys(unmov) >> 21, page_to_phys(recl) >> 21);
	ck_assert_uint_ne(page_to_phys(mov) >> 21, page_to_phys(recl) >> 21);
	ck_assert_int_eq(dmaemu_pageblock_migratetype(m, page_to_phys(unmov)),
			 MIGRATE_UNMOVABLE);
	ck_assert_int_eq(dmaemu_pageblock_migratetype(m, page_to_phys(mov)),
			 MIGRATE_MOVABLE);
	ck_assert_int_eq(dmaemu_pageblock_migratetype(m, page_to_phys(recl)),
			 MIGRATE_RECLAIMABLE);
	ck_assert_int_eq(dmaemu_pageblock_migratetype(m, 0x1000), -EINVAL);

	/* More of each kind stay with their own kind. */
	for (i = 0; i < 300; i++) {
		p = alloc_pages(GFP_KERNEL, 0);
		ck_assert_int_eq(
			dmaemu_pageblock_migratetype(m, page_to_phys(p)),
			MIGRATE_UNMOVABLE);
		p = alloc_pages(GFP_HIGHUSER_MOVABLE, 0);
		ck_assert_int_eq(
			dmaemu_pageblock_migratetype(m, page_to_phys(p)),
			MIGRATE_MOVABLE);
	}
	/* One steal per kind, none for the movable one (its own lists). */
	ck_assert_uint_eq(zinfo(ZONE_DMA32).fallbacks, 2);
}
END_TEST

/*
 * Stealing less than a pageblock: the pageblock changes type only when at
 * least half of it was free (mem=4m: pageblocks of 128 pages).
 */
START_TEST(test_partial_steal)
{
	static const unsigned long boot[MAX_ORDER] = {[10] = 1};
	const uint64_t base = 0x80000000ULL;
	struct page *blk[17], *mov, *unmov, *recl;
	int n = 0, i;

	mk("mem=4m");
	/* 15 unmovable half-pageblocks fit above the watermark; the first
	 * one converted all 8 pageblocks (one order-10 block). */
	while ((blk[n] = alloc_pages(GFP_KERNEL | __GFP_NOWARN, 6)))
		n++;
	ck_assert_int_eq(n, 15);
	ck_assert_uint_eq(zinfo(ZONE_DMA32).conversions, 8);
	ck_assert_uint_eq(page_to_phys(blk[0]), base);

	/* Half of pageblock 0 free: a movable page steals it whole. */
	__free_pages(blk[0], 6);
	mov = alloc_pages(GFP_HIGHUSER_MOVABLE, 0);
	ck_assert_uint_eq(page_to_phys(mov), base);
	ck_assert_int_eq(dmaemu_pageblock_migratetype(m, base),
			 MIGRATE_MOVABLE);
	ck_assert_uint_eq(zinfo(ZONE_DMA32).conversions, 9);
	ck_assert_uint_eq(zinfo(ZONE_DMA32).fallbacks, 2);

	/* A quarter of pageblock 7 free: a reclaimable page takes a block
	 * from it but the pageblock stays unmovable. */
	unmov = alloc_pages(GFP_KERNEL, 5);
	ck_assert_uint_eq(page_to_phys(unmov), base + 960 * PAGE_SIZE);
	recl = alloc_pages(GFP_KERNEL | __GFP_RECLAIMABLE, 0);
	ck_assert_uint_eq(page_to_phys(recl), base + 992 * PAGE_SIZE);
	ck_assert_int_eq(dmaemu_pageblock_migratetype(m, page_to_phys(recl)),
			 MIGRATE_UNMOVABLE);
	ck_assert_uint_eq(zinfo(ZONE_DMA32).conversions, 9);
	ck_assert_uint_eq(zinfo(ZONE_DMA32).fallbacks, 3);

	__free_page(recl);
	__free_pages(unmov, 5);
	__free_page(mov);
	for (i = 1; i < n; i++)
		__free_pages(blk[i], 6);
	ck_buddy(ZONE_DMA32, boot);
	ck_assert_uint_eq(reports(NULL), 0);
}
END_TEST

/*
 * A small movable request may not take over a pageblock (its block is
 * below half a pageblock's order), so it takes the smallest fallback block
 * and breaks up nothing larger.
 */
START_TEST(test_small_movable_steal)
{
	static const unsigned long boot[MAX_ORDER] = {[10] = 1};
	const gfp_t all = __GFP_MEMALLOC | __GFP_NOWARN;
	struct page *blk[257], *one[3], *mov;
	unsigned long counts[MAX_ORDER];
	int n = 0, i;

	mk("mem=4m");
	while ((blk[n] = alloc_pages(GFP_KERNEL | all, 2)))
		n++;
	ck_assert_int_eq(n, 256);
	__free_pages(blk[10], 2);
	__free_pages(blk[20], 2);
	for (i = 0; i < 3; i++)
		one[i] = alloc_pages(GFP_KERNEL | all, 0);
	/* Unmovable free lists: blk[10] (order 2) and blk[20] + 3. */
	ck_assert_ptr_eq(one[2], blk[20] + 2);
	mov = alloc_pages(GFP_HIGHUSER_MOVABLE | all, 0);
	ck_assert_ptr_eq(mov, blk[20] + 3);
	ck_assert_int_eq(dmaemu_buddyinfo(m, ZONE_DMA32, counts), 0);
	ck_assert_uint_eq(counts[2], 1);
	ck_assert_uint_eq(zinfo(ZONE_DMA32).conversions, 8);
	ck_assert_uint_eq(zinfo(ZONE_DMA32).fallbacks, 2);
	ck_assert_int_eq(dmaemu_pageblock_migratetype(m, page_to_phys(mov)),
			 MIGRATE_UNMOVABLE);

	__free_page(mov);
	for (i = 0; i < 3; i++)
		__free_page(one[i]);
	for (i = 0; i < n; i++)
		if (i != 10 && i != 20)
			__free_pages(blk[i], 2);
	ck_buddy(ZONE_DMA32, boot);
	ck_assert_uint_eq(reports(NULL), 0);
}
END_TEST

/*
 * Free memory is not enough: after freeing every other page, half of the
 * zone is free but no block of order 7 exists.
 */
START_TEST(test_fragmentation)
{
	static const unsigned long frag[MAX_ORDER] = {480, 0, 0, 0, 0, 0, 1};
	static const unsigned long boot[MAX_ORDER] = {[10] = 1};
	struct page *pages[1024];
	int n = 0, i;

	mk("mem=4m");
	ck_assert_uint_eq(zinfo(ZONE_DMA32).pageblock_order, 7);
	ck_assert_uint_eq(zinfo(ZONE_DMA32).min_free, 64);
	while ((pages[n] = alloc_pages(GFP_KERNEL | __GFP_NOWARN, 0)))
		n++;
	ck_assert_int_eq(n, 1024 - 64);
	for (i = 0; i < n; i += 2)
		__free_page(pages[i]);
	ck_buddy(ZONE_DMA32, frag);
	ck_assert_uint_eq(zfree(ZONE_DMA32), 544);
	ck_assert_ptr_null(alloc_pages(GFP_KERNEL, 7));
	ck_assert_uint_eq(reports("alloc-failure"), 1);
	ck_assert_ptr_nonnull(strstr(fixture_log(),
				     "alloc_pages: page allocation failure: "
				     "order:7, mode:0x14000c0(GFP_KERNEL): out "
				     "of memory (zone DMA32: 544 of 1024 pages "
				     "free, min 64)"));
	for (i = 1; i < n; i += 2)
		__free_page(pages[i]);
	ck_buddy(ZONE_DMA32, boot);
	/* The end of the fill and the order-7 request (NOWARN counts). */
	ck_assert_uint_eq(zinfo(ZONE_DMA32).failures, 2);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Exhaustion and reserves                                                */
/* ---------------------------------------------------------------------- */

static int fill(gfp_t gfp, struct page **pages, int *n)
{
	int got = 0;
	struct page *p;

	while ((p = alloc_pages(gfp, 0))) {
		pages[(*n)++] = p;
		got++;
	}
	return got;
}

START_TEST(test_watermarks)
{
	static const unsigned long boot[MAX_ORDER] = {[10] = 1};
	struct page *pages[1024];
	int n = 0, i;

	mk("mem=4m");
	ck_assert_int_eq(fill(GFP_KERNEL, pages, &n), 960);
	ck_assert_uint_eq(reports("alloc-failure"), 1);
	ck_assert_ptr_nonnull(strstr(fixture_log(),
				     "alloc_pages: page allocation failure: "
				     "order:0, mode:0x14000c0(GFP_KERNEL)"));
	ck_assert_ptr_nonnull(strstr(fixture_log(), "SUMMARY: dmaemu: "
						    "alloc-failure"));
	/* No reserve for these, and no report either. */
	ck_assert_int_eq(fill(GFP_KERNEL | __GFP_NOWARN, pages, &n), 0);
	ck_assert_int_eq(fill(GFP_NOWAIT | __GFP_NOWARN, pages, &n), 0);
	ck_assert_uint_eq(reports("alloc-failure"), 1);
	/* __GFP_HIGH: half the reserve (64 -> 32 pages left). */
	ck_assert_int_eq(fill(__GFP_HIGH | __GFP_NOWARN, pages, &n), 32);
	/* GFP_ATOMIC: a further quarter off (32 - 8 = 24 left). */
	ck_assert_int_eq(fill(GFP_ATOMIC | __GFP_NOWARN, pages, &n), 8);
	/* __GFP_MEMALLOC: everything... unless __GFP_NOMEMALLOC. */
	ck_assert_int_eq(fill(GFP_ATOMIC | __GFP_MEMALLOC | __GFP_NOMEMALLOC |
				      __GFP_NOWARN,
			      pages, &n),
			 0);
	ck_assert_int_eq(
		fill(GFP_ATOMIC | __GFP_MEMALLOC | __GFP_NOWARN, pages, &n),
		24);
	ck_assert_uint_eq(zfree(ZONE_DMA32), 0);
	ck_assert_uint_eq(reports("alloc-failure"), 1);
	/* __GFP_NOFAIL cannot be honoured: reported despite NOWARN. */
	ck_assert_ptr_null(
		alloc_pages(GFP_KERNEL | __GFP_NOFAIL | __GFP_NOWARN, 0));
	ck_assert_uint_eq(reports("alloc-failure"), 2);
	for (i = 0; i < n; i++)
		__free_page(pages[i]);
	ck_buddy(ZONE_DMA32, boot);
	ck_assert_uint_eq(reports(NULL), 2);
}
END_TEST

START_TEST(test_nofail_uses_reserve)
{
	struct page *pages[1024];
	int n = 0, i;

	mk("mem=4m");
	ck_assert_int_eq(fill(GFP_KERNEL | __GFP_NOWARN, pages, &n), 960);
	pages[n] = alloc_pages(GFP_KERNEL | __GFP_NOFAIL, 0);
	ck_assert_ptr_nonnull(pages[n]);
	n++;
	ck_assert_uint_eq(reports(NULL), 0);
	for (i = 0; i < n; i++)
		__free_page(pages[i]);
}
END_TEST

START_TEST(test_bad_requests)
{
	mk("mem=16m");
	ck_assert_ptr_null(alloc_pages(GFP_KERNEL, MAX_ORDER));
	ck_assert_uint_eq(reports("alloc-failure"), 1);
	ck_assert_ptr_nonnull(strstr(fixture_log(), "order >= MAX_ORDER"));
	ck_assert_ptr_null(alloc_pages(GFP_KERNEL | __GFP_NOWARN, MAX_ORDER));
	ck_assert_uint_eq(reports("alloc-failure"), 1);
	ck_assert_ptr_nonnull(alloc_pages(GFP_KERNEL, MAX_ORDER - 1));

	ck_assert_ptr_null(alloc_pages(GFP_KERNEL | GFP_DMA | GFP_DMA32, 0));
	ck_assert_uint_eq(reports("bad-argument"), 1);
	ck_assert_ptr_nonnull(strstr(
		fixture_log(), "invalid GFP flags "
			       "0x14000c5(GFP_KERNEL|GFP_DMA|GFP_DMA32)"));
	ck_assert_ptr_null(alloc_pages(GFP_DMA | __GFP_HIGHMEM, 0));
	ck_assert_uint_eq(reports("bad-argument"), 2);
	ck_assert_ptr_null(
		alloc_pages(GFP_KERNEL | __GFP_MOVABLE | __GFP_RECLAIMABLE, 0));
	ck_assert_uint_eq(reports("bad-argument"), 3);
	ck_assert_uint_eq(reports(NULL), 4);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Contents                                                               */
/* ---------------------------------------------------------------------- */

static bool all_bytes(const void *p, int c, size_t n)
{
	const unsigned char *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		if (b[i] != c)
			return false;
	return true;
}

START_TEST(test_zero)
{
	struct page *p, *q;
	unsigned long v, w;

	mk("mem=16m");
	/* Zeroing is a CPU store through the cache model: the lines of a
	 * page nobody touched become resident. */
	p = alloc_pages(GFP_KERNEL, 0);
	ck_assert(!dmaemu__cpu_resident(m, page_to_phys(p)));
	__free_page(p);
	q = alloc_pages(GFP_KERNEL | __GFP_ZERO, 0);
	ck_assert_ptr_eq(q, p);
	ck_assert(dmaemu__cpu_resident(m, page_to_phys(q)));
	__free_page(q);

	p = alloc_pages(GFP_KERNEL, 1);
	memset(page_address(p), 0xa5, 2 * PAGE_SIZE);
	__free_pages(p, 1);
	/* The same block comes back, as it was without __GFP_ZERO... */
	q = alloc_pages(GFP_KERNEL, 1);
	ck_assert_ptr_eq(q, p);
	ck_assert(all_bytes(page_address(q), 0xa5, 2 * PAGE_SIZE));
	__free_pages(q, 1);
	/* ...and zeroed with it. */
	q = alloc_pages(GFP_KERNEL | __GFP_ZERO, 1);
	ck_assert_ptr_eq(q, p);
	ck_assert(all_bytes(page_address(q), 0, 2 * PAGE_SIZE));
	__free_pages(q, 1);

	v = __get_free_page(GFP_KERNEL);
	memset((void *)v, 0x5a, PAGE_SIZE);
	free_page(v);
	w = get_zeroed_page(GFP_KERNEL);
	ck_assert_uint_eq(w, v);
	ck_assert(all_bytes((void *)w, 0, PAGE_SIZE));
	free_page(w);
	ck_assert_uint_eq(reports(NULL), 0);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Bad frees                                                              */
/* ---------------------------------------------------------------------- */

START_TEST(test_bad_free)
{
	unsigned long total = 4096, addr;
	struct page fake;
	uint64_t phys;
	int local = 0;
	void *k;

	mk("mem=16m");
	addr = __get_free_pages(GFP_KERNEL, 2);
	ck_assert_uint_ne(addr, 0);
	phys = virt_to_phys((void *)addr);

	free_pages((unsigned long)&local, 0);
	ck_assert_uint_eq(reports("bad-free"), 1);
	ck_assert_ptr_nonnull(strstr(fixture_log(), "not emulated memory"));

	free_pages(addr + 100, 2);
	ck_assert_uint_eq(reports("bad-free"), 2);
	ck_assert_ptr_nonnull(strstr(fixture_log(), "not page aligned"));

	free_pages(addr + PAGE_SIZE, 0);
	ck_assert_uint_eq(reports("bad-free"), 3);
	ck_assert_ptr_nonnull(
		strstr(fixture_log(), "it is page 1 of an order-2 block"));

	__free_pages(NULL, 0);
	ck_assert_uint_eq(reports("bad-free"), 4);

	memset(&fake, 0, sizeof(fake));
	__free_pages(&fake, 0);
	ck_assert_uint_eq(reports("bad-free"), 5);
	ck_assert_uint_eq(zfree(ZONE_DMA32), total - 4);

	/* Wrong order: reported, and the block is freed whole. */
	free_pages(addr, 1);
	ck_assert_uint_eq(reports("bad-free"), 6);
	ck_assert_ptr_nonnull(strstr(fixture_log(),
				     "allocated with order 2; freed with "
				     "that order"));
	ck_assert_uint_eq(zfree(ZONE_DMA32), total);

	free_pages(addr, 2);
	ck_assert_uint_eq(reports("bad-free"), 7);
	ck_assert_ptr_nonnull(strstr(fixture_log(), "(double free?)"));
	ck_assert_uint_eq(zfree(ZONE_DMA32), total);

	/* kmalloc memory is not the page allocator's to free. */
	k = kmalloc(64, GFP_KERNEL);
	free_pages((unsigned long)k, 0);
	ck_assert_uint_eq(reports("bad-free"), 8);
	ck_assert_ptr_nonnull(strstr(fixture_log(), "allocated by the kmalloc "
						    "slab allocator, not "
						    "alloc_pages()"));
	kfree(k);

	/* An alias of a page is not the linear map. */
	addr = __get_free_page(GFP_KERNEL);
	phys = virt_to_phys((void *)addr);
	free_pages((unsigned long)dmaemu__phys_mem(m, phys), 0);
	ck_assert_uint_eq(reports("bad-free"), 9);
	ck_assert_ptr_nonnull(strstr(fixture_log(), "an alias of emulated "
						    "memory"));
	free_page(addr);

	free_pages(0, 3); /* ignored, as in the kernel */
	ck_assert_uint_eq(reports("bad-free"), 9);
	ck_assert_uint_eq(reports(NULL), 9);
	ck_assert_uint_eq(zfree(ZONE_DMA32), total);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Context                                                                */
/* ---------------------------------------------------------------------- */

static void *alloc_in_thread(void *arg)
{
	struct page *p = alloc_pages(GFP_KERNEL, 0);

	(void)arg;
	__free_page(p);
	return (void *)(uintptr_t)in_interrupt();
}

START_TEST(test_sleep_in_atomic)
{
	unsigned long flags;
	pthread_t t;
	void *ret;
	struct page *p;

	mk("mem=16m");
	ck_assert(!in_interrupt() && !in_atomic() && !irqs_disabled());
	irq_enter();
	ck_assert(in_irq() && in_interrupt() && in_atomic() && !in_task());
	p = alloc_pages(GFP_KERNEL, 0);
	ck_assert_ptr_nonnull(p); /* reported, but it proceeds */
	ck_assert_uint_eq(reports("sleep-in-atomic"), 1);
	ck_assert_ptr_nonnull(strstr(fixture_log(),
				     "BUG: sleeping function called from "
				     "invalid context: alloc_pages(GFP_KERNEL) "
				     "may sleep; use GFP_ATOMIC here in an "
				     "interrupt handler"));
	__free_page(p);
	p = alloc_pages(GFP_ATOMIC, 0);
	__free_page(p);
	ck_assert_uint_eq(reports("sleep-in-atomic"), 1);
	/* Other threads have their own context. */
	ck_assert_int_eq(pthread_create(&t, NULL, alloc_in_thread, NULL), 0);
	ck_assert_int_eq(pthread_join(t, &ret), 0);
	ck_assert_ptr_null(ret);
	ck_assert_uint_eq(reports("sleep-in-atomic"), 1);
	irq_exit();
	ck_assert(!in_interrupt());

	p = alloc_pages(GFP_KERNEL, 0);
	__free_page(p);
	ck_assert_uint_eq(reports("sleep-in-atomic"), 1);

	preempt_disable();
	p = alloc_pages(GFP_NOIO, 0);
	__free_page(p);
	preempt_enable();
	ck_assert_uint_eq(reports("sleep-in-atomic"), 2);

	local_irq_save(flags);
	ck_assert(irqs_disabled() && !in_atomic());
	p = alloc_pages(GFP_KERNEL, 0);
	__free_page(p);
	local_irq_restore(flags);
	ck_assert(!irqs_disabled());
	ck_assert_uint_eq(reports("sleep-in-atomic"), 3);

	local_bh_disable();
	ck_assert(in_softirq() && !in_irq());
	p = alloc_pages(GFP_KERNEL, 0);
	__free_page(p);
	local_bh_enable();
	ck_assert_uint_eq(reports("sleep-in-atomic"), 4);

	irq_enter();
	might_sleep();
	irq_exit();
	ck_assert_uint_eq(reports("sleep-in-atomic"), 5);

	dmaemu_enter_softirq();
	ck_assert(in_softirq() && in_interrupt() && !in_irq());
	ck_assert(!dmaemu_might_sleep("test"));
	ck_assert_int_eq(dmaemu_exit_softirq(), 0);
	dmaemu_irq_disable();
	ck_assert(irqs_disabled() && !dmaemu_might_sleep(NULL));
	dmaemu_irq_enable();
	ck_assert(dmaemu_might_sleep("test"));
	ck_assert_uint_eq(reports("sleep-in-atomic"), 7);
	ck_assert_uint_eq(preempt_count(), 0);

	/* Unbalanced exits are refused and reported. */
	ck_assert_int_eq(dmaemu_exit_irq(), -EINVAL);
	ck_assert_int_eq(dmaemu_preempt_enable(), -EINVAL);
	ck_assert_int_eq(dmaemu_bh_enable(), -EINVAL);
	ck_assert_int_eq(dmaemu_exit_softirq(), -EINVAL);
	ck_assert_uint_eq(reports("bad-argument"), 4);
	ck_assert_uint_eq(preempt_count(), 0);
	ck_assert_uint_eq(reports(NULL), 11);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Conversions                                                            */
/* ---------------------------------------------------------------------- */

START_TEST(test_conversions)
{
	struct page *p;
	uint8_t *v;
	uint64_t phys;
	int local;

	mk("mem_base=0x100000:mem=64m:highmem=16m");
	p = alloc_pages(GFP_KERNEL, 1);
	v = page_address(p);
	phys = page_to_phys(p);
	ck_assert_ptr_eq(virt_to_page(v), p);
	ck_assert_ptr_eq(virt_to_page(v + PAGE_SIZE + 5), p + 1);
	ck_assert_uint_eq(virt_to_phys(v + 100), phys + 100);
	ck_assert_uint_eq(__pa(v), phys);
	ck_assert_ptr_eq(phys_to_virt(phys + 7), v + 7);
	ck_assert_ptr_eq(__va(phys), v);
	ck_assert_uint_eq(page_to_pfn(p), phys >> PAGE_SHIFT);
	ck_assert_ptr_eq(pfn_to_page(page_to_pfn(p)), p);
	ck_assert_ptr_eq(nth_page(p, 1), pfn_to_page(page_to_pfn(p) + 1));
	ck_assert(virt_addr_valid(v));
	ck_assert(!virt_addr_valid(&local));
	ck_assert(pfn_valid(page_to_pfn(p)));
	ck_assert(!pfn_valid(0x50000));
	ck_assert_uint_eq(offset_in_page(v + 123), 123);
	ck_assert_uint_eq(reports(NULL), 0);

	ck_assert_uint_eq(virt_to_phys(&local), (phys_addr_t)-1);
	ck_assert_ptr_null(virt_to_page(&local));
	ck_assert_ptr_null(phys_to_virt(0x50000000));
	ck_assert_ptr_null(pfn_to_page(0x50000));
	ck_assert_uint_eq(reports("bad-argument"), 4);
	ck_assert_ptr_nonnull(strstr(fixture_log(), "virt_to_phys("));

	ck_assert_int_eq(get_order(1), 0);
	ck_assert_int_eq(get_order(PAGE_SIZE), 0);
	ck_assert_int_eq(get_order(PAGE_SIZE + 1), 1);
	ck_assert_int_eq(get_order(8192), 1);
	ck_assert_int_eq(get_order(1 << 20), 8);
	ck_assert_int_eq(get_order((1 << 20) + 1), 9);
	__free_pages(p, 1);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Text forms                                                             */
/* ---------------------------------------------------------------------- */

START_TEST(test_formats)
{
	char buf[4096], want[256];
	int n;

	mk("mem=16m");
	n = dmaemu_buddyinfo_format(m, buf, sizeof(buf));
	snprintf(want, sizeof(want), "Node 0, zone    DMA32%s%s\n",
		 "      0      0      0      0      0      0      0      0",
		 "      0      0      4");
	ck_assert_str_eq(buf, want);
	ck_assert_int_eq(n, (int)strlen(want));
	ck_assert_int_eq(dmaemu_buddyinfo_format(m, NULL, 0), n);
	ck_assert_int_eq(dmaemu_buddyinfo_format(m, buf, 10), n);
	ck_assert_str_eq(buf, "Node 0, z");

	n = dmaemu_pagetypeinfo_format(m, buf, sizeof(buf));
	ck_assert_int_eq(n, (int)strlen(buf));
	ck_assert_ptr_nonnull(strstr(buf, "Page block order: 9\n"
					  "Pages per block:  512\n"));
	ck_assert_ptr_nonnull(strstr(buf, "zone    DMA32, type      Movable"
					  "      0      0      0      0      0"
					  "      0      0      0      0      0"
					  "      4\n"));
	ck_assert_ptr_nonnull(strstr(buf, "Node 0, zone    DMA32   "
					  "            0            8"
					  "            0\n"));
	ck_assert_int_eq(dmaemu_pagetypeinfo_format(NULL, buf, sizeof(buf)),
			 -EINVAL);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Internal entry points used by the DMA layer                            */
/* ---------------------------------------------------------------------- */

START_TEST(test_address_limit)
{
	struct page *big, *p;

	mk("mem=16m");
	big = alloc_pages(GFP_KERNEL, MAX_ORDER - 1);
	ck_assert_uint_eq(page_to_phys(big), 0x80000000ULL);
	/* Only the first page above the taken block fits the limit. */
	p = dmaemu__alloc_pages(m, GFP_KERNEL, 0, 0x80400fffULL,
				DMAEMU__OWNER_DMA, "test");
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(page_to_phys(p), 0x80400000ULL);
	ck_assert_ptr_null(dmaemu__alloc_pages(m, GFP_KERNEL, 0, 0x80400fffULL,
					       DMAEMU__OWNER_DMA, "test"));
	ck_assert_ptr_nonnull(strstr(fixture_log(), "below the address limit"));
	/* Owners are checked: this is not alloc_pages() memory. */
	__free_page(p);
	ck_assert_uint_eq(reports("bad-free"), 1);
	ck_assert_int_eq(dmaemu__free_pages(m, p, 0, DMAEMU__OWNER_DMA, "test"),
			 0);
	__free_pages(big, MAX_ORDER - 1);
	ck_assert_uint_eq(zfree(ZONE_DMA32), 4096);
}
END_TEST

START_TEST(test_exact_and_split)
{
	static const unsigned long boot[MAX_ORDER] = {[10] = 4};
	struct dmaemu_mm_stats st;
	struct page *p;
	void *v;
	int i;

	mk("mem=16m");
	v = alloc_pages_exact(5 * PAGE_SIZE, GFP_KERNEL);
	ck_assert_ptr_nonnull(v);
	ck_assert_uint_eq(zfree(ZONE_DMA32), 4096 - 5);
	dmaemu_mm_stats(m, &st);
	ck_assert_uint_eq(st.page_allocs, 5);
	free_pages_exact(v, 5 * PAGE_SIZE);
	ck_buddy(ZONE_DMA32, boot);
	dmaemu_mm_stats(m, &st);
	ck_assert_uint_eq(st.page_allocs, 0);

	p = alloc_pages(GFP_KERNEL, 2);
	split_page(p, 2);
	dmaemu_mm_stats(m, &st);
	ck_assert_uint_eq(st.page_allocs, 4);
	for (i = 3; i >= 0; i--)
		__free_page(p + i);
	ck_buddy(ZONE_DMA32, boot);
	ck_assert_uint_eq(reports(NULL), 0);
	split_page(p, 0);
	ck_assert_uint_eq(reports("bad-argument"), 1);
}
END_TEST

START_TEST(test_no_current_machine)
{
	mk("mem=4m");
	dmaemu_machine_set_current(NULL);
	ck_assert_ptr_null(alloc_pages(GFP_KERNEL, 0));
	ck_assert_uint_eq(__get_free_page(GFP_KERNEL), 0);
	dmaemu_machine_set_current(m);
	ck_assert_uint_eq(reports(NULL), 0);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Threads                                                                */
/* ---------------------------------------------------------------------- */

static void *churn(void *arg)
{
	uint64_t x = (uintptr_t)arg * 0x9e3779b97f4a7c15ULL + 1;
	struct page *held[16] = {0};
	unsigned int order[16] = {0};
	int i, k;

	for (i = 0; i < 3000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		k = (int)(x % 16);
		if (held[k]) {
			__free_pages(held[k], order[k]);
			held[k] = NULL;
		} else {
			order[k] = (unsigned int)(x >> 8) % 4;
			held[k] =
				alloc_pages((x & 0x100 ? GFP_KERNEL
						       : GFP_HIGHUSER_MOVABLE) |
						    __GFP_NOWARN,
					    order[k]);
		}
	}
	for (k = 0; k < 16; k++)
		if (held[k])
			__free_pages(held[k], order[k]);
	return NULL;
}

START_TEST(test_threads)
{
	static const unsigned long boot[MAX_ORDER] = {[10] = 4};
	pthread_t t[4];
	int i;

	mk("mem=16m");
	for (i = 0; i < 4; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, churn,
						(void *)(uintptr_t)(i + 1)),
				 0);
	for (i = 0; i < 4; i++)
		ck_assert_int_eq(pthread_join(t[i], NULL), 0);
	ck_buddy(ZONE_DMA32, boot);
	ck_assert_uint_eq(reports(NULL), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("page_alloc");
	TCase *tc = tcase_create("page_alloc");

	tcase_add_checked_fixture(tc, fallback_setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_zone_layout);
	tcase_add_test(tc, test_zone_choice);
	tcase_add_test(tc, test_gfp_dma_without_zone_dma);
	tcase_add_test(tc, test_zone_fallback);
	tcase_add_test(tc, test_alignment);
	tcase_add_test(tc, test_split_merge);
	tcase_add_test(tc, test_migrate_grouping);
	tcase_add_test(tc, test_partial_steal);
	tcase_add_test(tc, test_small_movable_steal);
	tcase_add_test(tc, test_fragmentation);
	tcase_add_test(tc, test_watermarks);
	tcase_add_test(tc, test_nofail_uses_reserve);
	tcase_add_test(tc, test_bad_requests);
	tcase_add_test(tc, test_zero);
	tcase_add_test(tc, test_bad_free);
	tcase_add_test(tc, test_sleep_in_atomic);
	tcase_add_test(tc, test_conversions);
	tcase_add_test(tc, test_formats);
	tcase_add_test(tc, test_address_limit);
	tcase_add_test(tc, test_exact_and_split);
	tcase_add_test(tc, test_no_current_machine);
	tcase_add_test(tc, test_threads);
	suite_add_tcase(s, tc);
	return check_run(s);
}
