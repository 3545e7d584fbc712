// SPDX-License-Identifier: MIT
/*
 * check-report-query.c - the report query API of <dmaemu/report.h>: the
 * callback and its fields, the recorded reports in order, clearing, the
 * bounded record (report_keep) with its count of dropped reports, and
 * reports made on a device's thread.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <check.h>
#include <dmaemu/cpu.h>
#include <dmaemu/device.h>
#include <dmaemu/machine.h>
#include <dmaemu/report.h>
#include <dmaemu/testing.h>
#include <linux/delay.h>
#include <linux/dma-mapping.h>
#include <linux/slab.h>

#include "check-run.h"
#include "fixture.h"

/* What the callback saw.  A plain pthread mutex: the callback may not call
 * the library (the kernel's spinlock_t is the library). */
static pthread_mutex_t seen_lock = PTHREAD_MUTEX_INITIALIZER;
static struct dmaemu_report seen[8];
static unsigned int nseen;
static pthread_t seen_thread[8];
static struct dmaemu_machine *seen_m;
static void *seen_arg;

static void record(struct dmaemu_machine *m, const struct dmaemu_report *r,
		   void *arg)
{
	pthread_mutex_lock(&seen_lock);
	if (nseen < 8) {
		seen[nseen] = *r;
		seen_thread[nseen] = pthread_self();
	}
	nseen++;
	seen_m = m;
	seen_arg = arg;
	pthread_mutex_unlock(&seen_lock);
}

static unsigned int seen_count(void)
{
	unsigned int n;

	pthread_mutex_lock(&seen_lock);
	n = nseen;
	pthread_mutex_unlock(&seen_lock);
	return n;
}

static void seen_reset(void)
{
	pthread_mutex_lock(&seen_lock);
	nseen = 0;
	seen_m = NULL;
	seen_arg = NULL;
	pthread_mutex_unlock(&seen_lock);
}

/* One bad-argument report (phys 0, no size, no mask). */
static void bad_argument(struct dmaemu_machine *m)
{
	ck_assert_int_eq(dmaemu_machine_info(m, NULL), -EINVAL);
}

/* A stale read of bytes 4-7 of the line of a kmalloc() buffer: the CPU
 * caches the line, DRAM changes behind it, the CPU reads it again.  The
 * buffer's physical address in *@phys. */
static void *stale_read(struct dmaemu_machine *m, uint64_t *phys)
{
	uint8_t *buf = kmalloc(64, GFP_KERNEL), back[8];
	static const uint8_t fresh[4] = {1, 2, 3, 4};

	ck_assert_ptr_nonnull(buf);
	ck_assert_int_eq(fixture_region(buf, phys), DMAEMU_REGION_LINEAR);
	ck_assert_int_eq(dmaemu_cpu_read(back, buf, 8), 0);
	ck_assert_int_eq(dmaemu_dram_write(m, *phys + 4, fresh, 4), 0);
	ck_assert_int_eq(dmaemu_cpu_read(back, buf, 8), 0);
	return buf;
}

/* The callback gets each report once, with its fields and its text as
 * printed; the record holds the same. */
START_TEST(test_callback_fields)
{
	struct dmaemu_machine *m = fixture_machine("profile=arm64:mem=16M");
	struct dmaemu_report r;
	uint64_t phys;
	void *buf;
	int arg;

	seen_reset();
	ck_assert_int_eq(dmaemu_report_set_callback(m, record, &arg), 0);
	buf = stale_read(m, &phys);
	bad_argument(m);
	ck_assert_uint_eq(seen_count(), 2);
	ck_assert_ptr_eq(seen_m, m);
	ck_assert_ptr_eq(seen_arg, &arg);

	/* The stale read. */
	ck_assert_uint_eq(seen[0].seq, 1);
	ck_assert_int_eq(seen[0].kind, DMAEMU_REPORT_STALE_CPU_READ);
	ck_assert_str_eq(seen[0].kind_name, "stale-cpu-read");
	ck_assert_uint_eq(seen[0].phys, phys + 4);
	ck_assert_uint_eq(seen[0].size, 4);
	ck_assert_uint_eq(seen[0].mask_bits, 64);
	ck_assert_uint_eq(seen[0].mask[0], 0xf0);
	ck_assert_str_eq(seen[0].device, "");
	ck_assert_int_eq(strncmp(seen[0].text, "==", 2), 0);
	ck_assert_ptr_nonnull(
		strstr(seen[0].text, "==ERROR: dmaemu: stale-cpu-read: "));
	ck_assert_ptr_nonnull(
		strstr(seen[0].text, "SUMMARY: dmaemu: stale-cpu-read"));
	/* The bad argument, made inside an API call: its where names this
	 * file's caller, as the "at" line does. */
	ck_assert_uint_eq(seen[1].seq, 2);
	ck_assert_int_eq(seen[1].kind, DMAEMU_REPORT_BAD_ARGUMENT);
	ck_assert_uint_eq(seen[1].mask_bits, 0);
	ck_assert_uint_eq(seen[1].phys, 0);
	ck_assert_uint_eq(seen[1].size, 0);

	/* Both texts, one after the other, are exactly what was printed. */
	{
		char both[2 * DMAEMU_REPORT_TEXT_MAX];

		snprintf(both, sizeof(both), "%s%s", seen[0].text,
			 seen[1].text);
		ck_assert_str_eq(fixture_log(), both);
	}
	/* The record holds the same reports. */
	ck_assert_uint_eq(dmaemu_report_kept(m), 2);
	ck_assert_int_eq(dmaemu_report_get(m, 0, &r), 0);
	ck_assert_int_eq(memcmp(&r, &seen[0], sizeof(r)), 0);
	ck_assert_int_eq(dmaemu_report_get(m, 1, &r), 0);
	ck_assert_int_eq(memcmp(&r, &seen[1], sizeof(r)), 0);

	/* No callback: reports are still recorded, not handed out. */
	ck_assert_int_eq(dmaemu_report_set_callback(m, NULL, NULL), 0);
	bad_argument(m);
	ck_assert_uint_eq(seen_count(), 2);
	ck_assert_uint_eq(dmaemu_report_kept(m), 3);
	kfree(buf);
	fixture_finish(&m, NULL, 3);
}
END_TEST

/* A report made inside an API call names the driver's line in ->where, as
 * the printed "at" line does. */
START_TEST(test_where)
{
	struct dmaemu_machine *m = fixture_machine("mem=16M");
	struct dmaemu_device *d = dmaemu_device_create(m, "bare0", NULL, NULL);
	struct dmaemu_report r;
	char line[DMAEMU_REPORT_WHERE_MAX + 8];

	ck_assert_ptr_nonnull(d);
	/* Never mapped: unmap-not-mapped, made inside dma_unmap_single_attrs(). */
	dma_unmap_single(dmaemu_device_to_dev(d), 0x80001000, 64,
			 DMA_TO_DEVICE);
	ck_assert_int_eq(dmaemu_report_get(m, 0, &r), 0);
	ck_assert_int_eq(r.kind, DMAEMU_REPORT_UNMAP_NOT_MAPPED);
	ck_assert_str_ne(r.where, "");
	snprintf(line, sizeof(line), "    at %s", r.where);
	ck_assert_ptr_nonnull(strstr(r.text, line));
	/* A report with no call in progress has none. */
	bad_argument(m);
	ck_assert_int_eq(dmaemu_report_get(m, 1, &r), 0);
	ck_assert_str_eq(r.where, "");
	fixture_finish(&m, &d, 2);
}
END_TEST

/* Leaks found when a device is released name the device, with the
 * buffer's physical range. */
START_TEST(test_device_field)
{
	struct dmaemu_machine *m = fixture_machine("mem=16M");
	struct dmaemu_device *d = dmaemu_device_create(m, "leaky0", NULL, NULL);
	void *buf = kmalloc(64, GFP_KERNEL), *coh;
	struct dmaemu_report r;
	dma_addr_t h, ch;
	uint64_t phys, cphys;

	ck_assert_ptr_nonnull(d);
	ck_assert_int_eq(fixture_region(buf, &phys), DMAEMU_REGION_LINEAR);
	h = dma_map_single(dmaemu_device_to_dev(d), buf, 64, DMA_TO_DEVICE);
	ck_assert(!dma_mapping_error(dmaemu_device_to_dev(d), h));
	coh = dma_alloc_coherent(dmaemu_device_to_dev(d), 4096, &ch,
				 GFP_KERNEL);
	ck_assert_ptr_nonnull(coh);
	fixture_region(coh, &cphys);
	dmaemu_device_destroy(d);
	ck_assert_uint_eq(dmaemu_report_kept(m), 2);
	for (unsigned int i = 0; i < 2; i++) {
		ck_assert_int_eq(dmaemu_report_get(m, i, &r), 0);
		ck_assert_int_eq(r.kind, DMAEMU_REPORT_LEAKED_MAPPING);
		ck_assert_str_eq(r.device, "leaky0");
		if (r.size == 64)
			ck_assert_uint_eq(r.phys, phys);
		else
			ck_assert_uint_eq(r.phys + r.size, cphys + 4096);
	}
	kfree(buf);
	fixture_finish(&m, NULL, 2);
}
END_TEST

/* So do the IOMMU's faults. */
START_TEST(test_device_iommu)
{
	struct dmaemu_machine *m = fixture_machine("mem=16M:iommu=1");
	struct dmaemu_device *d = dmaemu_device_create(m, "dev7", NULL, NULL);
	struct dmaemu_report r;
	uint8_t b[4];

	ck_assert_ptr_nonnull(d);
	ck_assert_int_eq(dmaemu_dma_read(d, 0x10000, b, sizeof(b)), -EFAULT);
	ck_assert_int_eq(dmaemu_report_get(m, 0, &r), 0);
	ck_assert_int_eq(r.kind, DMAEMU_REPORT_IOMMU_FAULT);
	ck_assert_str_eq(r.device, "dev7");
	fixture_finish(&m, &d, 1);
}
END_TEST

/* Index 0 is the oldest; dmaemu_report_next() walks in order; past the end
 * is -ENOENT. */
START_TEST(test_order)
{
	struct dmaemu_machine *m = fixture_machine("mem=16M");
	struct dmaemu_report r;
	uint64_t seq, expect;
	unsigned int i;

	for (i = 0; i < 5; i++)
		bad_argument(m);
	ck_assert_uint_eq(dmaemu_report_kept(m), 5);
	for (i = 0; i < 5; i++) {
		ck_assert_int_eq(dmaemu_report_get(m, i, &r), 0);
		ck_assert_uint_eq(r.seq, i + 1);
	}
	ck_assert_int_eq(dmaemu_report_get(m, 5, &r), -ENOENT);
	expect = 1;
	for (seq = 0; !dmaemu_report_next(m, seq, &r); seq = r.seq)
		ck_assert_uint_eq(r.seq, expect++);
	ck_assert_uint_eq(expect, 6);
	ck_assert_int_eq(dmaemu_report_next(m, 3, &r), 0);
	ck_assert_uint_eq(r.seq, 4);
	ck_assert_int_eq(dmaemu_report_next(m, 5, &r), -ENOENT);
	fixture_finish(&m, NULL, 5);
}
END_TEST

/* Clear forgets the record, the dropped count and the counters; sequence
 * numbers go on.  Reset zeroes the counters only. */
START_TEST(test_clear)
{
	struct dmaemu_machine *m = fixture_machine("mem=16M:report_keep=2");
	struct dmaemu_report r;

	bad_argument(m);
	bad_argument(m);
	bad_argument(m);
	ck_assert_uint_eq(dmaemu_report_dropped(m), 1);
	dmaemu_report_reset(m);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 0);
	ck_assert_uint_eq(dmaemu_report_kept(m), 2);
	ck_assert_uint_eq(dmaemu_report_dropped(m), 1);

	dmaemu_report_clear(m);
	ck_assert_uint_eq(dmaemu_report_kept(m), 0);
	ck_assert_uint_eq(dmaemu_report_dropped(m), 0);
	ck_assert_uint_eq(dmaemu_report_count(m, "bad-argument"), 0);
	ck_assert_int_eq(dmaemu_report_get(m, 0, &r), -ENOENT);
	ck_assert_int_eq(dmaemu_report_next(m, 0, &r), -ENOENT);

	bad_argument(m);
	ck_assert_uint_eq(dmaemu_report_kept(m), 1);
	ck_assert_int_eq(dmaemu_report_get(m, 0, &r), 0);
	ck_assert_uint_eq(r.seq, 4);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 1);
	fixture_finish(&m, NULL, 1);
}
END_TEST

/* report_keep=N holds the last N and counts the rest as dropped. */
START_TEST(test_keep_bounded)
{
	struct dmaemu_machine *m = fixture_machine("mem=16M:report_keep=3");
	struct dmaemu_report r;
	char val[16];
	unsigned int i;

	ck_assert_int_eq(
		dmaemu_machine_option(m, "report_keep", val, sizeof(val)), 0);
	ck_assert_str_eq(val, "3");
	for (i = 0; i < 10; i++)
		bad_argument(m);
	ck_assert_uint_eq(dmaemu_report_kept(m), 3);
	ck_assert_uint_eq(dmaemu_report_dropped(m), 7);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 10);
	for (i = 0; i < 3; i++) {
		ck_assert_int_eq(dmaemu_report_get(m, i, &r), 0);
		ck_assert_uint_eq(r.seq, 8 + i);
	}
	fixture_finish(&m, NULL, 10);
}
END_TEST

/* report_keep=0 holds nothing; the callback still sees every report. */
START_TEST(test_keep_none)
{
	struct dmaemu_machine *m = fixture_machine("mem=16M:report_keep=0");
	struct dmaemu_report r;

	seen_reset();
	ck_assert_int_eq(dmaemu_report_set_callback(m, record, NULL), 0);
	bad_argument(m);
	bad_argument(m);
	ck_assert_uint_eq(seen_count(), 2);
	ck_assert_uint_eq(seen[1].seq, 2);
	ck_assert_uint_eq(dmaemu_report_kept(m), 0);
	ck_assert_uint_eq(dmaemu_report_dropped(m), 2);
	ck_assert_int_eq(dmaemu_report_get(m, 0, &r), -ENOENT);
	fixture_finish(&m, NULL, 2);
}
END_TEST

/* The default is 256; the key is checked like every other. */
START_TEST(test_keep_option)
{
	struct dmaemu_machine *m = fixture_machine("mem=16M");
	char val[16];

	ck_assert_int_eq(
		dmaemu_machine_option(m, "report_keep", val, sizeof(val)), 0);
	ck_assert_str_eq(val, "256");
	fixture_finish(&m, NULL, 0);
	unsetenv("DMAEMU_OPTIONS");
	ck_assert_ptr_null(dmaemu_machine_create("report_keep=65537"));
	ck_assert_ptr_null(dmaemu_machine_create("report_keep=-1"));
}
END_TEST

/* A device whose thread reads a bus address that is not DRAM on each
 * doorbell: a dma-fault report made on the device's thread.  With
 * slow_callback, the callback takes a while (see test_set_waits). */
static struct dmaemu_device_ops faulty_ops;

static void faulty_run(struct dmaemu_device *dev, unsigned int events)
{
	uint8_t b[4];

	(void)events;
	dmaemu_dma_read(dev, 0x1000, b, sizeof(b));
}

static pthread_mutex_t slow_lock = PTHREAD_MUTEX_INITIALIZER;
static int slow_started, slow_done;

static void slow_record(struct dmaemu_machine *m, const struct dmaemu_report *r,
			void *arg)
{
	struct timespec ts = {0, 50 * 1000 * 1000};

	pthread_mutex_lock(&slow_lock);
	slow_started = 1;
	pthread_mutex_unlock(&slow_lock);
	nanosleep(&ts, NULL);
	record(m, r, arg);
	pthread_mutex_lock(&slow_lock);
	slow_done = 1;
	pthread_mutex_unlock(&slow_lock);
}

static int slow_get(int *v)
{
	int x;

	pthread_mutex_lock(&slow_lock);
	x = *v;
	pthread_mutex_unlock(&slow_lock);
	return x;
}

#define WAIT_FOR(cond)                                         \
	do {                                                   \
		int _n;                                        \
		for (_n = 0; !(cond) && _n < 5000; _n++)       \
			msleep(1);                             \
		ck_assert_msg((cond), "timed out: %s", #cond); \
	} while (0)

/* The callback runs on the device's thread; the record has the report. */
START_TEST(test_device_thread)
{
	struct dmaemu_machine *m = fixture_machine("mem=16M");
	struct dmaemu_device *d;
	struct dmaemu_report r;

	seen_reset();
	faulty_ops.run = faulty_run;
	ck_assert_int_eq(dmaemu_report_set_callback(m, record, NULL), 0);
	d = dmaemu_device_create(m, "faulty0", &faulty_ops, NULL);
	ck_assert_ptr_nonnull(d);
	ck_assert_int_eq(dmaemu_device_doorbell(d), 0);
	WAIT_FOR(seen_count() == 1);
	ck_assert_int_eq(seen[0].kind, DMAEMU_REPORT_DMA_FAULT);
	ck_assert_int_eq(pthread_equal(seen_thread[0], pthread_self()), 0);
	ck_assert_ptr_nonnull(strstr(seen[0].text, "faulty0"));
	ck_assert_str_eq(seen[0].device, "faulty0");
	ck_assert_int_eq(dmaemu_report_next(m, 0, &r), 0);
	ck_assert_uint_eq(r.seq, seen[0].seq);
	ck_assert_int_eq(r.kind, DMAEMU_REPORT_DMA_FAULT);
	fixture_finish(&m, &d, 1);
}
END_TEST

/* Setting the callback waits for a call of the old one running on another
 * thread, so what its argument points to may be freed afterwards. */
START_TEST(test_set_waits)
{
	struct dmaemu_machine *m = fixture_machine("mem=16M");
	struct dmaemu_device *d;

	seen_reset();
	slow_started = slow_done = 0;
	faulty_ops.run = faulty_run;
	ck_assert_int_eq(dmaemu_report_set_callback(m, slow_record, NULL), 0);
	d = dmaemu_device_create(m, "faulty0", &faulty_ops, NULL);
	ck_assert_ptr_nonnull(d);
	ck_assert_int_eq(dmaemu_device_doorbell(d), 0);
	WAIT_FOR(slow_get(&slow_started));
	ck_assert_int_eq(dmaemu_report_set_callback(m, NULL, NULL), 0);
	ck_assert_int_eq(slow_get(&slow_done), 1);
	ck_assert_uint_eq(seen_count(), 1);
	fixture_finish(&m, &d, 1);
}
END_TEST

/* A report the callback itself makes is recorded, not handed back to it;
 * the callback may query the record. */
static void reentrant(struct dmaemu_machine *m, const struct dmaemu_report *r,
		      void *arg)
{
	unsigned int *kept = arg;

	*kept = dmaemu_report_kept(m);
	dmaemu_report_get(m, 0, NULL); /* a bad-argument report */
	record(m, r, NULL);
}

START_TEST(test_reentrant)
{
	struct dmaemu_machine *m = fixture_machine("mem=16M");
	unsigned int kept = 0;

	seen_reset();
	ck_assert_int_eq(dmaemu_report_set_callback(m, reentrant, &kept), 0);
	bad_argument(m);
	ck_assert_uint_eq(seen_count(), 1);
	ck_assert_uint_eq(kept, 1);
	ck_assert_uint_eq(dmaemu_report_kept(m), 2);
	ck_assert_uint_eq(dmaemu_report_count(m, "bad-argument"), 2);
	fixture_finish(&m, NULL, 2);
}
END_TEST

/* Bad arguments: a report and -EINVAL, never a crash. */
START_TEST(test_bad_arguments)
{
	struct dmaemu_machine *m = fixture_machine("mem=16M");
	struct dmaemu_report r;

	ck_assert_int_eq(dmaemu_report_get(NULL, 0, &r), -EINVAL);
	ck_assert_int_eq(dmaemu_report_next(NULL, 0, &r), -EINVAL);
	ck_assert_int_eq(dmaemu_report_set_callback(NULL, record, NULL),
			 -EINVAL);
	ck_assert_int_eq(dmaemu_report_get(m, 0, NULL), -EINVAL);
	ck_assert_int_eq(dmaemu_report_next(m, 0, NULL), -EINVAL);
	ck_assert_uint_eq(dmaemu_report_kept(NULL), 0);
	ck_assert_uint_eq(dmaemu_report_dropped(NULL), 0);
	dmaemu_report_clear(NULL);
	/* The NULL-machine ones went to the current machine, m. */
	ck_assert_uint_eq(dmaemu_report_count(m, "bad-argument"), 5);
	fixture_finish(&m, NULL, 5);
}
END_TEST

static Suite *report_query_suite(void)
{
	Suite *s = suite_create("report-query");
	TCase *tc = tcase_create("query");

	tcase_add_checked_fixture(tc, NULL, fixture_teardown);
	tcase_add_test(tc, test_callback_fields);
	tcase_add_test(tc, test_where);
	tcase_add_test(tc, test_device_field);
	tcase_add_test(tc, test_device_iommu);
	tcase_add_test(tc, test_order);
	tcase_add_test(tc, test_clear);
	tcase_add_test(tc, test_keep_bounded);
	tcase_add_test(tc, test_keep_none);
	tcase_add_test(tc, test_keep_option);
	tcase_add_test(tc, test_device_thread);
	tcase_add_test(tc, test_set_waits);
	tcase_add_test(tc, test_reentrant);
	tcase_add_test(tc, test_bad_arguments);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(report_query_suite());
}
