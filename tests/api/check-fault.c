// SPDX-License-Identifier: MIT
/*
 * check-fault.c - fault injection (<dmaemu/fault.h>, the options failslab,
 * fail_page_alloc, fail_dma_alloc, fail_dma_map, fail_dma_pool and
 * fail_verbose): each point fails the calls it names and no other; the
 * attributes interval, probability, space and times decide as Linux's
 * should_fail() does; the seed fixes the draws; the library's own
 * allocations never fail; __GFP_NOFAIL never fails; an injected failure is
 * a log line naming the driver's line, not a report; dmaemu_fail_nth()
 * fails a thread's n-th call, and drives the error-path test of
 * docs/options.md.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <dmaemu/device.h>
#include <dmaemu/fault.h>
#include <dmaemu/machine.h>
#include <dmaemu/mm.h>
#include <dmaemu/report.h>
#include <linux/dma-mapping.h>
#include <linux/dmapool.h>
#include <linux/gfp.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>

#include "check-run.h"
#include "fixture.h"

static struct dmaemu_machine *m;
static struct dmaemu_device *dd;
static struct device *dev;

static void up(const char *opts)
{
	m = fixture_machine("%s", opts);
	dd = dmaemu_device_create(m, "fault0", NULL, NULL);
	ck_assert_ptr_nonnull(dd);
	dev = dmaemu_device_to_dev(dd);
}

static void opt_is(const char *key, const char *want)
{
	char buf[64];

	ck_assert_int_eq(dmaemu_machine_option(m, key, buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, want);
}

START_TEST(test_option_values)
{
	static const char *const bad[] = {
		"failslab=1,101,0,-1",	   "failslab=1,100,0,-2",
		"failslab=1,100,-1,1",	   "failslab=1,100,0",
		"failslab=1,100,0,1,5",	   "failslab=x",
		"fail_dma_map=-1,100,0,1", "fail_verbose=2",
	};
	unsigned int i;

	up("failslab=1,100,0,2:fail_dma_map=0,50,4096,-1");
	opt_is("failslab", "1,100,0,2");
	/* interval 0 is taken as 1, as Linux's "interval > 1" test does */
	opt_is("fail_dma_map", "1,50,4096,-1");
	opt_is("fail_page_alloc", "off");
	opt_is("fail_verbose", "1");
	fixture_finish(&m, &dd, 0);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(!dmaemu_machine_create(bad[i]), "%s accepted",
			      bad[i]);
}
END_TEST

START_TEST(test_failslab_every_call)
{
	void *p;

	up("failslab=1,100,0,-1");
	ck_assert_ptr_null(kmalloc(64, GFP_KERNEL));
	ck_assert_ptr_null(kzalloc(100, GFP_ATOMIC));
	ck_assert_ptr_null(kcalloc(4, 16, GFP_KERNEL));
	ck_assert_uint_eq(dmaemu_fault_injected(m, DMAEMU_FAULT_SLAB), 3);
	ck_assert_uint_eq(dmaemu_fault_injected(m, DMAEMU_FAULT_PAGE_ALLOC), 0);
	/* The line names the call, the driver's line and the attributes. */
	ck_assert_ptr_nonnull(strstr(fixture_log(),
				     "FAULT_INJECTION: forcing a failure: "
				     "kmalloc(64, GFP_KERNEL) at "
				     "test_failslab_every_call"));
	ck_assert_ptr_nonnull(strstr(fixture_log(), "check-fault.c:"));
	ck_assert_ptr_nonnull(
		strstr(fixture_log(),
		       "(failslab: interval 1, probability 100, space 0, "
		       "times -1 left)"));
	/* Other points are untouched. */
	p = (void *)__get_free_pages(GFP_KERNEL, 1);
	ck_assert_ptr_nonnull(p);
	free_pages((unsigned long)p, 1);
	/* An injected failure is no report. */
	fixture_finish(&m, &dd, 0);
}
END_TEST

START_TEST(test_times)
{
	void *p;

	up("failslab=1,100,0,2:fail_verbose=0");
	ck_assert_ptr_null(kmalloc(32, GFP_KERNEL));
	ck_assert_ptr_null(kmalloc(32, GFP_KERNEL));
	p = kmalloc(32, GFP_KERNEL);
	ck_assert_ptr_nonnull(p);
	kfree(p);
	ck_assert_uint_eq(dmaemu_fault_injected(m, DMAEMU_FAULT_SLAB), 2);
	ck_assert_ptr_null(strstr(fixture_log(), "FAULT_INJECTION"));
	fixture_finish(&m, &dd, 0);
}
END_TEST

START_TEST(test_interval)
{
	unsigned int i;
	char got[10];

	up("failslab=3,100,0,-1:fail_verbose=0");
	for (i = 0; i < 9; i++) {
		void *p = kmalloc(8, GFP_KERNEL);

		got[i] = p ? '.' : 'F';
		kfree(p);
	}
	got[9] = '\0';
	ck_assert_str_eq(got, "..F..F..F");
	fixture_finish(&m, &dd, 0);
}
END_TEST

START_TEST(test_space)
{
	void *a, *b;

	/* 100 bytes of space: a call passes while more is left than it
	 * asks for, taking its size off: 40 and 40 pass (20 left), the next
	 * 40 fails, an 8 passes (12 left), a 16 fails. */
	up("failslab=1,100,100,-1:fail_verbose=0");
	a = kmalloc(40, GFP_KERNEL);
	b = kmalloc(40, GFP_KERNEL);
	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	ck_assert_ptr_null(kmalloc(40, GFP_KERNEL));
	kfree(b);
	b = kmalloc(8, GFP_KERNEL);
	ck_assert_ptr_nonnull(b);
	ck_assert_ptr_null(kmalloc(16, GFP_KERNEL));
	kfree(a);
	kfree(b);
	fixture_finish(&m, &dd, 0);
}
END_TEST

/* n kmalloc()s of @size: '.' for each that succeeded, 'F' for a failure. */
static void kmalloc_pattern(size_t size, char *out, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		void *p = kmalloc(size, GFP_KERNEL);

		out[i] = p ? '.' : 'F';
		kfree(p);
	}
	out[n] = '\0';
}

/*
 * space at its boundary, as Linux's should_fail(): a call asking for
 * exactly what is left fails (space must be more than the size), one
 * byte less passes; the calls space lets through do not count for the
 * interval; fail_page_alloc charges a block's bytes, its order's pages.
 */
START_TEST(test_space_boundaries)
{
	char got[8];
	void *p, *q;

	up("failslab=1,100,64,-1:fail_verbose=0");
	ck_assert_ptr_null(kmalloc(64, GFP_KERNEL)); /* 64 left: fails */
	p = kmalloc(63, GFP_KERNEL);		     /* passes: 1 left */
	ck_assert_ptr_nonnull(p);
	ck_assert_ptr_null(kmalloc(1, GFP_KERNEL)); /* 1 left: fails */
	kfree(p);
	fixture_finish(&m, &dd, 0);

	/* 16 bytes of space, every second call: the first 8 passes by
	 * space, then the interval counts from the second call on. */
	up("failslab=2,100,16,-1:fail_verbose=0");
	kmalloc_pattern(8, got, 5);
	ck_assert_str_eq(got, "..F.F");
	fixture_finish(&m, &dd, 0);

	/* Two pages of space: an order-1 block asks for all of it and
	 * fails; an order-0 page passes, and the next one fails. */
	up("fail_page_alloc=1,100,8192,-1:fail_verbose=0");
	ck_assert_ptr_null(alloc_pages(GFP_KERNEL, 1));
	q = (void *)__get_free_pages(GFP_KERNEL, 0);
	ck_assert_ptr_nonnull(q);
	ck_assert_uint_eq(__get_free_pages(GFP_KERNEL, 0), 0);
	free_pages((unsigned long)q, 0);
	ck_assert_uint_eq(dmaemu_fault_injected(m, DMAEMU_FAULT_PAGE_ALLOC), 2);
	fixture_finish(&m, &dd, 0);
}
END_TEST

static void pattern(const char *opts, char *out, unsigned int n)
{
	unsigned int i;

	up(opts);
	for (i = 0; i < n; i++) {
		void *p = kmalloc(8, GFP_KERNEL);

		out[i] = p ? '.' : 'F';
		kfree(p);
	}
	out[n] = '\0';
	fixture_finish(&m, &dd, 0);
}

START_TEST(test_probability_seed)
{
	static char a[1001], b[1001], c[1001];
	unsigned int i, fails = 0;

	pattern("failslab=1,50,0,-1:fail_verbose=0:seed=7", a, 1000);
	pattern("failslab=1,50,0,-1:fail_verbose=0:seed=7", b, 1000);
	pattern("failslab=1,50,0,-1:fail_verbose=0:seed=8", c, 1000);
	ck_assert_str_eq(a, b);
	ck_assert_str_ne(a, c);
	for (i = 0; i < 1000; i++)
		fails += a[i] == 'F';
	ck_assert_msg(fails > 400 && fails < 600, "%u of 1000 failed", fails);
	pattern("failslab=1,0,0,-1:fail_verbose=0", a, 200);
	ck_assert_ptr_null(strchr(a, 'F'));
}
END_TEST

START_TEST(test_page_alloc)
{
	dma_addr_t h;
	void *p;

	up("fail_page_alloc=1,100,0,-1:fail_verbose=0");
	ck_assert_ptr_null(alloc_pages(GFP_KERNEL, 0));
	ck_assert_uint_eq(__get_free_pages(GFP_KERNEL, 2), 0);
	ck_assert_uint_eq(get_zeroed_page(GFP_KERNEL), 0);
	/* kmalloc() beyond the slab caches comes from the page allocator,
	 * and fails there, as in Linux; a small one does not. */
	ck_assert_ptr_null(kmalloc(KMALLOC_MAX_CACHE_SIZE + 1, GFP_KERNEL));
	p = kmalloc(128, GFP_KERNEL);
	ck_assert_ptr_nonnull(p);
	kfree(p);
	ck_assert_uint_eq(dmaemu_fault_injected(m, DMAEMU_FAULT_PAGE_ALLOC), 4);
	ck_assert_uint_eq(dmaemu_fault_injected(m, DMAEMU_FAULT_SLAB), 0);
	/* The pages of a coherent buffer are the library's, not the
	 * driver's: they never fail by injection. */
	p = dma_alloc_coherent(dev, 8192, &h, GFP_KERNEL);
	ck_assert_ptr_nonnull(p);
	dma_free_coherent(dev, 8192, p, h);
	/* __GFP_NOFAIL never fails. */
	p = (void *)__get_free_pages(GFP_KERNEL | __GFP_NOFAIL, 0);
	ck_assert_ptr_nonnull(p);
	free_pages((unsigned long)p, 0);
	fixture_finish(&m, &dd, 0);
}
END_TEST

START_TEST(test_dma_alloc_and_pool)
{
	struct dma_pool *pool;
	dma_addr_t h;
	void *p;

	up("fail_dma_alloc=1,100,0,1:fail_dma_pool=1,100,0,1:fail_verbose=0");
	ck_assert_ptr_null(dma_alloc_coherent(dev, 4096, &h, GFP_KERNEL));
	p = dma_alloc_coherent(dev, 4096, &h, GFP_KERNEL);
	ck_assert_ptr_nonnull(p);
	dma_free_coherent(dev, 4096, p, h);
	pool = dma_pool_create("fault-pool", dev, 64, 64, 0);
	ck_assert_ptr_nonnull(pool);
	ck_assert_ptr_null(dma_pool_alloc(pool, GFP_KERNEL, &h));
	p = dma_pool_alloc(pool, GFP_KERNEL, &h);
	ck_assert_ptr_nonnull(p);
	dma_pool_free(pool, p, h);
	dma_pool_destroy(pool);
	ck_assert_uint_eq(dmaemu_fault_injected(m, DMAEMU_FAULT_DMA_ALLOC), 1);
	ck_assert_uint_eq(dmaemu_fault_injected(m, DMAEMU_FAULT_DMA_POOL), 1);
	fixture_finish(&m, &dd, 0);
}
END_TEST

START_TEST(test_dma_map)
{
	static const char *const machines[] = {"profile=arm64",
					       "profile=x86:swiotlb=force",
					       "profile=arm:iommu=1"};
	char opts[160];
	struct scatterlist sg[2];
	dma_addr_t d;
	void *buf;

	snprintf(opts, sizeof(opts), "%s:fail_dma_map=2,100,0,-1",
		 machines[_i]);
	up(opts);
	buf = kmalloc(512, GFP_KERNEL);
	ck_assert_ptr_nonnull(buf);
	/* Calls 1 and 3 succeed, 2 and 4 fail (interval 2). */
	d = dma_map_single(dev, buf, 512, DMA_TO_DEVICE);
	ck_assert(!dma_mapping_error(dev, d));
	dma_unmap_single(dev, d, 512, DMA_TO_DEVICE);
	d = dma_map_single(dev, buf, 512, DMA_TO_DEVICE);
	ck_assert(dma_mapping_error(dev, d));
	sg_init_table(sg, 2);
	sg_set_buf(&sg[0], buf, 256);
	sg_set_buf(&sg[1], (char *)buf + 256, 256);
	ck_assert_int_eq(dma_map_sg(dev, sg, 2, DMA_FROM_DEVICE), 2);
	dma_unmap_sg(dev, sg, 2, DMA_FROM_DEVICE);
	ck_assert_int_eq(dma_map_sg(dev, sg, 2, DMA_FROM_DEVICE), 0);
	ck_assert_uint_eq(dmaemu_fault_injected(m, DMAEMU_FAULT_DMA_MAP), 2);
	ck_assert_ptr_nonnull(strstr(fixture_log(),
				     "dma_map_sg_attrs(fault0, 512 bytes, "
				     "DMA_FROM_DEVICE) at test_dma_map"));
	kfree(buf);
	/* A refused map that the driver checked is no bug. */
	fixture_finish(&m, &dd, 0);
}
END_TEST

START_TEST(test_set_at_run_time)
{
	void *p;

	up("profile=arm64");
	p = kmalloc(16, GFP_KERNEL);
	ck_assert_ptr_nonnull(p);
	kfree(p);
	ck_assert_int_eq(dmaemu_fault_set(m, DMAEMU_FAULT_SLAB, "1,100,0,1"),
			 0);
	ck_assert_ptr_null(kmalloc(16, GFP_KERNEL));
	ck_assert_int_eq(dmaemu_fault_set(m, DMAEMU_FAULT_SLAB, "1,100,0,-1"),
			 0);
	ck_assert_ptr_null(kmalloc(16, GFP_KERNEL));
	ck_assert_int_eq(dmaemu_fault_set(m, DMAEMU_FAULT_SLAB, "off"), 0);
	p = kmalloc(16, GFP_KERNEL);
	ck_assert_ptr_nonnull(p);
	kfree(p);
	/* Bad requests are refused with a report each. */
	ck_assert_int_eq(dmaemu_fault_set(m, DMAEMU_FAULT_SLAB, "1,200,0,1"),
			 -EINVAL);
	ck_assert_int_eq(dmaemu_fault_set(m, DMAEMU_FAULT_NPOINTS, "off"),
			 -EINVAL);
	ck_assert_int_eq(dmaemu_fault_set(m, DMAEMU_FAULT_SLAB, NULL), -EINVAL);
	ck_assert_int_eq(dmaemu_fault_set(NULL, DMAEMU_FAULT_SLAB, "off"),
			 -EINVAL);
	ck_assert_uint_eq(dmaemu_report_count(m, "bad-argument"), 3);
	ck_assert_uint_eq(dmaemu_fault_injected(m, DMAEMU_FAULT_NPOINTS), 0);
	ck_assert_uint_eq(dmaemu_fault_injected(NULL, DMAEMU_FAULT_SLAB), 0);
	ck_assert_uint_eq(dmaemu_fault_injected(m, DMAEMU_FAULT_SLAB), 2);
	fixture_finish(&m, &dd, 3);
}
END_TEST

/*
 * The example of docs/options.md: a probe that allocates a ring, its
 * descriptors and a buffer, maps the buffer, and undoes what it did when
 * any step fails; and the test that fails each step in turn.
 */
struct ring {
	void *desc;
	dma_addr_t desc_dma;
	void *buf;
	dma_addr_t buf_dma;
	struct dma_pool *pool;
	void *cmd;
	dma_addr_t cmd_dma;
};

static struct ring *ring_probe(struct device *d)
{
	struct ring *r = kzalloc(sizeof(*r), GFP_KERNEL);

	if (!r)
		return NULL;
	r->desc = dma_alloc_coherent(d, 4096, &r->desc_dma, GFP_KERNEL);
	if (!r->desc)
		goto free_ring;
	r->buf = kmalloc(2048, GFP_KERNEL);
	if (!r->buf)
		goto free_desc;
	r->buf_dma = dma_map_single(d, r->buf, 2048, DMA_FROM_DEVICE);
	if (dma_mapping_error(d, r->buf_dma))
		goto free_buf;
	r->pool = dma_pool_create("cmd", d, 64, 64, 0);
	if (!r->pool)
		goto unmap_buf;
	r->cmd = dma_pool_alloc(r->pool, GFP_KERNEL, &r->cmd_dma);
	if (!r->cmd)
		goto destroy_pool;
	return r;

destroy_pool:
	dma_pool_destroy(r->pool);
unmap_buf:
	dma_unmap_single(d, r->buf_dma, 2048, DMA_FROM_DEVICE);
free_buf:
	kfree(r->buf);
free_desc:
	dma_free_coherent(d, 4096, r->desc, r->desc_dma);
free_ring:
	kfree(r);
	return NULL;
}

static void ring_remove(struct device *d, struct ring *r)
{
	dma_pool_free(r->pool, r->cmd, r->cmd_dma);
	dma_pool_destroy(r->pool);
	dma_unmap_single(d, r->buf_dma, 2048, DMA_FROM_DEVICE);
	kfree(r->buf);
	dma_free_coherent(d, 4096, r->desc, r->desc_dma);
	kfree(r);
}

START_TEST(test_fail_nth_probe)
{
	struct dmaemu_mm_stats before, after;
	unsigned int n, failed = 0;
	struct ring *r;

	up(_i ? "profile=x86:swiotlb=force" : "profile=arm64");
	for (n = 1;; n++) {
		ck_assert_int_eq(dmaemu_mm_stats(m, &before), 0);
		dmaemu_fail_nth(n);
		r = ring_probe(dev);
		ck_assert_int_eq(dmaemu_mm_stats(m, &after), 0);
		if (dmaemu_fail_nth_left()) {
			/* Fewer than n calls: the probe ran whole. */
			dmaemu_fail_nth(0);
			ck_assert_ptr_nonnull(r);
			ring_remove(dev, r);
			break;
		}
		/* Its n-th call failed: the probe must say so, having
		 * undone everything (destroying the device at the end
		 * reports any mapping or allocation left behind). */
		ck_assert_msg(!r, "call %u failed but the probe succeeded", n);
		ck_assert_uint_eq(after.kmalloc_objects,
				  before.kmalloc_objects);
		ck_assert_uint_eq(after.page_allocs, before.page_allocs);
		failed++;
	}
	/* kzalloc, dma_alloc_coherent, kmalloc, dma_map_single,
	 * dma_pool_alloc, and the dma_alloc_coherent() of the pool's first
	 * page inside it (as Linux's pool_alloc_page() makes it);
	 * dma_pool_create() is no fault point. */
	ck_assert_uint_eq(failed, 6);
	ck_assert_uint_eq(dmaemu_fault_injected(m, DMAEMU_FAULT_DMA_ALLOC), 2);
	ck_assert_uint_eq(dmaemu_fault_injected(m, DMAEMU_FAULT_DMA_POOL), 1);
	ck_assert_uint_eq(dmaemu_fault_injected(m, DMAEMU_FAULT_SLAB), 2);
	ck_assert_uint_eq(dmaemu_fault_injected(m, DMAEMU_FAULT_DMA_MAP), 1);
	ck_assert_ptr_nonnull(strstr(fixture_log(), "by dmaemu_fail_nth()"));
	fixture_finish(&m, &dd, 0);
}
END_TEST

START_TEST(test_fail_nth_countdown)
{
	void *a, *b;

	up("profile=arm64:fail_verbose=0");
	ck_assert_uint_eq(dmaemu_fail_nth_left(), 0);
	dmaemu_fail_nth(2);
	a = kmalloc(8, GFP_KERNEL);
	ck_assert_ptr_nonnull(a);
	ck_assert_uint_eq(dmaemu_fail_nth_left(), 1);
	ck_assert_ptr_null(kmalloc(8, GFP_KERNEL));
	ck_assert_uint_eq(dmaemu_fail_nth_left(), 0);
	b = kmalloc(8, GFP_KERNEL);
	ck_assert_ptr_nonnull(b);
	kfree(a);
	kfree(b);
	/* Turned off before it fires: nothing fails. */
	dmaemu_fail_nth(1);
	dmaemu_fail_nth(0);
	a = kmalloc(8, GFP_KERNEL);
	ck_assert_ptr_nonnull(a);
	kfree(a);
	fixture_finish(&m, &dd, 0);
}
END_TEST

static Suite *fault_suite(void)
{
	Suite *s = suite_create("fault");
	TCase *tc = tcase_create("fault");

	tcase_add_checked_fixture(tc, NULL, fixture_teardown);
	tcase_add_test(tc, test_option_values);
	tcase_add_test(tc, test_failslab_every_call);
	tcase_add_test(tc, test_times);
	tcase_add_test(tc, test_interval);
	tcase_add_test(tc, test_space);
	tcase_add_test(tc, test_space_boundaries);
	tcase_add_test(tc, test_probability_seed);
	tcase_add_test(tc, test_page_alloc);
	tcase_add_test(tc, test_dma_alloc_and_pool);
	tcase_add_loop_test(tc, test_dma_map, 0, 3);
	tcase_add_test(tc, test_set_at_run_time);
	tcase_add_loop_test(tc, test_fail_nth_probe, 0, 2);
	tcase_add_test(tc, test_fail_nth_countdown);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(fault_suite());
}
