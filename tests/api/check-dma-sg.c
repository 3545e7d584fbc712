// SPDX-License-Identifier: MIT
/*
 * check-dma-sg.c - scatterlists: sg_alloc_table() chaining across
 * SG_MAX_SINGLE_ALLOC, sg_nents(), sg_last(), sg_free_table(),
 * sg_alloc_table_from_pages() merging, and the copies to and from a linear
 * buffer, which go through the CPU model (a copy out of a line the device
 * changed behind a resident cache line is a stale read on arm and arm64).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>

#include <dmaemu/cpu.h>
#include <dmaemu/machine.h>
#include <dmaemu/report.h>
#include <dmaemu/testing.h>

#include "check-run.h"
#include "fixture.h"

static struct dmaemu_machine *m;

static const char *const profiles[] = {"arm", "arm64", "x86"};

static void mk(const char *opts)
{
	m = fixture_machine("mem=8M:%s", opts);
}

static void setup(void)
{
	mk("profile=arm64");
}

static void teardown(void)
{
	dmaemu_machine_destroy(m);
	m = NULL;
	fixture_teardown();
}

/* Walk a table: every entry is a data slot, never a chain link. */
static unsigned int walk(struct sg_table *t)
{
	struct scatterlist *sg;
	unsigned int n = 0;

	for (sg = t->sgl; sg; sg = sg_next(sg)) {
		ck_assert(!sg_is_chain(sg));
		ck_assert_ptr_null(sg_page(sg));
		ck_assert_uint_eq(sg->length, 0);
		n++;
	}
	return n;
}

/* Chunk sizes around SG_MAX_SINGLE_ALLOC, one test each (loop test). */
static const unsigned int table_sizes[] = {
	1,
	2,
	SG_MAX_SINGLE_ALLOC - 1,
	SG_MAX_SINGLE_ALLOC,
	SG_MAX_SINGLE_ALLOC + 1,
	2 * SG_MAX_SINGLE_ALLOC - 1,
	2 * SG_MAX_SINGLE_ALLOC,
	5 * SG_MAX_SINGLE_ALLOC + 7,
};

START_TEST(test_alloc_table_sizes)
{
	unsigned int nents = table_sizes[_i], chunks, left, i;
	struct sg_table t;
	struct scatterlist *sg, *last = NULL;

	ck_assert_int_eq(sg_alloc_table(&t, nents, GFP_KERNEL), 0);
	ck_assert_uint_eq(t.nents, nents);
	ck_assert_uint_eq(t.orig_nents, nents);
	ck_assert_int_eq(sg_nents(t.sgl), (int)nents);
	ck_assert_uint_eq(walk(&t), nents);

	/* Each full chunk holds SG_MAX_SINGLE_ALLOC - 1 entries and a link
	 * in its last slot; the last chunk holds the rest, unchained. */
	chunks = 1;
	left = nents;
	sg = t.sgl;
	while (left > SG_MAX_SINGLE_ALLOC) {
		ck_assert(sg_is_chain(&sg[SG_MAX_SINGLE_ALLOC - 1]));
		sg = sg_chain_ptr(&sg[SG_MAX_SINGLE_ALLOC - 1]);
		left -= SG_MAX_SINGLE_ALLOC - 1;
		chunks++;
	}
	for (i = 0; i < left; i++)
		ck_assert(!sg_is_chain(&sg[i]));
	ck_assert(sg_is_last(&sg[left - 1]));
	ck_assert_uint_eq(
		chunks, nents <= SG_MAX_SINGLE_ALLOC
				? 1
				: (nents - 2) / (SG_MAX_SINGLE_ALLOC - 1) + 1);

	/* for_each_sg visits the same entries; the last is marked. */
	for_each_sg (t.sgl, sg, nents, i)
		last = sg;
	ck_assert(sg_is_last(last));
	ck_assert_ptr_eq(sg_last(t.sgl, nents), last);
	sg_free_table(&t);
	ck_assert_ptr_null(t.sgl);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 0);
}
END_TEST

START_TEST(test_alloc_table_errors)
{
	struct sg_table t;

	ck_assert_int_eq(sg_alloc_table(&t, 0, GFP_KERNEL), -EINVAL);
	ck_assert_ptr_null(t.sgl);
	sg_free_table(&t); /* an empty table frees nothing */
	ck_assert_int_eq(sg_alloc_table(NULL, 4, GFP_KERNEL), -EINVAL);
	ck_assert_uint_eq(dmaemu_report_count(m, "bad-argument"), 1);
}
END_TEST

/* A list chained by hand: sg_nents() follows the link. */
START_TEST(test_nents_chain)
{
	struct scatterlist a[4], b[3];
	struct scatterlist *sg;
	int n = 0;

	sg_init_table(a, 4);
	sg_init_table(b, 3);
	sg_chain(a, 4, b);
	ck_assert_int_eq(sg_nents(a), 3 + 3);
	ck_assert_int_eq(sg_nents(b), 3);
	ck_assert_int_eq(sg_nents(NULL), 0);
	for (sg = a; sg; sg = sg_next(sg))
		n++;
	ck_assert_int_eq(n, 6);
	ck_assert_ptr_eq(sg_last(a, 6), &b[2]);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 0);
}
END_TEST

/* sg_last() asked for more or fewer entries than the list has. */
START_TEST(test_last_misuse)
{
	struct scatterlist a[4];

	sg_init_table(a, 4);
	ck_assert_ptr_eq(sg_last(a, 6), &a[3]);
	ck_assert_uint_eq(dmaemu_report_count(m, "bad-argument"), 1);
	ck_assert_ptr_eq(sg_last(a, 2), &a[1]);
	ck_assert_uint_eq(dmaemu_report_count(m, "bad-argument"), 2);
	ck_assert_ptr_eq(sg_last(a, 4), &a[3]);
	ck_assert_uint_eq(dmaemu_report_count(m, "bad-argument"), 2);
}
END_TEST

/*
 * Pages 0, 1, 2 of an order-2 block are adjacent; page 3 is skipped, so
 * a separate page follows.  [p0 p1 p2 q] at offset 100 gives two entries.
 */
START_TEST(test_from_pages_merges)
{
	struct page *blk = alloc_pages(GFP_KERNEL, 2);
	struct page *q = alloc_pages(GFP_KERNEL, 0);
	struct page *pages[5];
	struct sg_table t;
	struct scatterlist *sg;
	unsigned long size;

	ck_assert_ptr_nonnull(blk);
	ck_assert_ptr_nonnull(q);
	ck_assert(page_to_phys(q) != page_to_phys(blk) + 3 * PAGE_SIZE);
	pages[0] = blk;
	pages[1] = nth_page(blk, 1);
	pages[2] = nth_page(blk, 2);
	pages[3] = q;
	size = 3 * PAGE_SIZE - 100 + 50;
	ck_assert_int_eq(
		sg_alloc_table_from_pages(&t, pages, 4, 100, size, GFP_KERNEL),
		0);
	ck_assert_uint_eq(t.orig_nents, 2);
	sg = t.sgl;
	ck_assert_ptr_eq(sg_page(sg), blk);
	ck_assert_uint_eq(sg->offset, 100);
	ck_assert_uint_eq(sg->length, 3 * PAGE_SIZE - 100);
	ck_assert_uint_eq(sg_phys(sg), page_to_phys(blk) + 100);
	sg = sg_next(sg);
	ck_assert_ptr_eq(sg_page(sg), q);
	ck_assert_uint_eq(sg->offset, 0);
	ck_assert_uint_eq(sg->length, 50);
	ck_assert(sg_is_last(sg));
	sg_free_table(&t);

	/* Reversed order: no page follows its predecessor. */
	pages[0] = nth_page(blk, 2);
	pages[1] = nth_page(blk, 1);
	pages[2] = blk;
	ck_assert_int_eq(sg_alloc_table_from_pages(&t, pages, 3, 0,
						   3 * PAGE_SIZE, GFP_KERNEL),
			 0);
	ck_assert_uint_eq(t.orig_nents, 3);
	ck_assert_int_eq(sg_nents(t.sgl), 3);
	sg_free_table(&t);

	/* Errors: size beyond the pages, offset beyond a page, a NULL. */
	ck_assert_int_eq(sg_alloc_table_from_pages(&t, pages, 3, 0,
						   3 * PAGE_SIZE + 1,
						   GFP_KERNEL),
			 -EINVAL);
	ck_assert_int_eq(sg_alloc_table_from_pages(&t, pages, 3, PAGE_SIZE, 1,
						   GFP_KERNEL),
			 -EINVAL);
	pages[4] = NULL;
	ck_assert_int_eq(
		sg_alloc_table_from_pages(&t, pages + 3, 2, 0, 10, GFP_KERNEL),
		-EINVAL);
	ck_assert_uint_eq(dmaemu_report_count(m, "bad-argument"), 3);
	__free_pages(blk, 2);
	__free_pages(q, 0);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 3);
}
END_TEST

/* Three kmalloc buffers of 100, 60 and 200 bytes, copied in and out. */
START_TEST(test_copy_roundtrip)
{
	uint8_t *buf[3], src[400], dst[400];
	const unsigned int len[3] = {100, 60, 200};
	struct scatterlist sgl[3];
	unsigned int i;
	size_t n;

	for (i = 0; i < sizeof(src); i++)
		src[i] = (uint8_t)(i * 7 + 3);
	sg_init_table(sgl, 3);
	for (i = 0; i < 3; i++) {
		buf[i] = kmalloc(len[i], GFP_KERNEL);
		ck_assert_ptr_nonnull(buf[i]);
		sg_set_buf(&sgl[i], buf[i], len[i]);
	}
	/* Longer than the list: only 360 bytes fit. */
	n = sg_copy_from_buffer(sgl, 3, src, sizeof(src));
	ck_assert_uint_eq(n, 360);
	ck_assert_mem_eq(buf[0], src, 100);
	ck_assert_mem_eq(buf[1], src + 100, 60);
	ck_assert_mem_eq(buf[2], src + 160, 200);

	/* At most two entries, and a shorter buffer. */
	memset(dst, 0, sizeof(dst));
	n = sg_copy_to_buffer(sgl, 2, dst, sizeof(dst));
	ck_assert_uint_eq(n, 160);
	ck_assert_mem_eq(dst, src, 160);
	memset(dst, 0, sizeof(dst));
	n = sg_copy_to_buffer(sgl, 3, dst, 130);
	ck_assert_uint_eq(n, 130);
	ck_assert_mem_eq(dst, src, 130);
	ck_assert_uint_eq(dst[130], 0);

	for (i = 0; i < 3; i++)
		kfree(buf[i]);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 0);
}
END_TEST

/*
 * The copy is a CPU access: the stores of sg_copy_from_buffer() leave the
 * lines resident and dirty in the model, and sg_copy_to_buffer() after a
 * device write to memory reads the CPU's stale copy with a report on the
 * non-coherent profiles.  (A device write on x86 snoops; there is nothing
 * stale to read, so this is an arm/arm64 behaviour.)
 */
START_TEST(test_copy_through_model)
{
	const char *profile = profiles[_i];
	uint8_t *buf, src[64], dst[64], dev[64];
	struct scatterlist sg;
	struct dmaemu_line_state st;
	uint64_t phys;

	teardown();
	{
		char opts[64];

		snprintf(opts, sizeof(opts), "profile=%s", profile);
		mk(opts);
	}
	buf = kmalloc(64, GFP_KERNEL);
	ck_assert_ptr_nonnull(buf);
	phys = virt_to_phys(buf);
	ck_assert_uint_eq(phys % 64, 0);
	memset(src, 0x5a, sizeof(src));
	memset(dev, 0xd0, sizeof(dev));
	sg_init_one(&sg, buf, 64);

	ck_assert_uint_eq(sg_copy_from_buffer(&sg, 1, src, 64), 64);
	ck_assert_int_eq(dmaemu_line_state(m, phys, &st), 0);
	ck_assert(st.resident);
	ck_assert_uint_eq(st.cpu_dirty[0], UINT64_MAX);

	/* Write back, then a non-coherent device write to DRAM only. */
	ck_assert_int_eq(dmaemu_cache_clean(m, phys, 64), 0);
	ck_assert_int_eq(dmaemu_dram_write(m, phys, dev, 64), 0);
	ck_assert_uint_eq(sg_copy_to_buffer(&sg, 1, dst, 64), 64);
	ck_assert_mem_eq(dst, src, 64); /* the CPU's stale copy */
	ck_assert_uint_eq(dmaemu_report_count(m, "stale-cpu-read"), 1);

	/* After an invalidate the copy sees the device's data. */
	ck_assert_int_eq(dmaemu_cache_invalidate(m, phys, 64), 0);
	ck_assert_uint_eq(sg_copy_to_buffer(&sg, 1, dst, 64), 64);
	ck_assert_mem_eq(dst, dev, 64);
	ck_assert_uint_eq(dmaemu_report_count(m, "stale-cpu-read"), 1);
	kfree(buf);
}
END_TEST

static Suite *sg_suite(void)
{
	Suite *s = suite_create("dma-sg");
	TCase *tc = tcase_create("scatterlist");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, test_alloc_table_sizes, 0,
			    sizeof(table_sizes) / sizeof(table_sizes[0]));
	tcase_add_test(tc, test_alloc_table_errors);
	tcase_add_test(tc, test_nents_chain);
	tcase_add_test(tc, test_last_misuse);
	tcase_add_test(tc, test_from_pages_merges);
	tcase_add_test(tc, test_copy_roundtrip);
	tcase_add_loop_test(tc, test_copy_through_model, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(sg_suite());
}
