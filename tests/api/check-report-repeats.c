// SPDX-License-Identifier: MIT
/*
 * check-report-repeats.c - what a repeat of an ownership report is counted
 * against (docs/checkers.md, option report_repeats): the driver's source
 * line and the mapping, not the instruction nor the bytes accessed.  One
 * line of the driver that touches a device-owned buffer at several places
 * is one report; a loop over the buffer at that line is one report; two
 * lines are two; the report printed names the first access's line;
 * report_repeats=N prints N, report_repeats=0 every one.  The same for a
 * device's writes into a buffer the CPU owns.  Two driver threads making
 * the same report at once print it exactly as often as one thread would
 * (and, under Helgrind, race on nothing: tests/scripts/report-threads.sh).
 *
 * Compiled like driver code (instrumented): the CPU's loads below are the
 * accesses the checks see.  Only the public API is used, so that the
 * tests hold whatever the repeat table looks like inside.
 */
#include "config.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/dma-mapping.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include <dmaemu/device.h>
#include <dmaemu/machine.h>
#include <dmaemu/report.h>

#include "check-run.h"
#include "fixture.h"

#define LEN 1024

static struct dmaemu_machine *m;
static struct dmaemu_device *dd;
static struct device *dev;
static uint8_t *buf;
static dma_addr_t h;

/* A machine with @repeats (a report_repeats= value, or NULL for the
 * default) and a 1 KiB kmalloc() buffer mapped DMA_FROM_DEVICE. */
static void make(const char *repeats)
{
	m = fixture_machine("mem=16M%s%s", repeats ? ":report_repeats=" : "",
			    repeats ? repeats : "");
	dd = dmaemu_device_create(m, "dev0", NULL, NULL);
	ck_assert_ptr_nonnull(dd);
	dev = dmaemu_device_to_dev(dd);
	buf = kmalloc(LEN, GFP_KERNEL);
	ck_assert_ptr_nonnull(buf);
	h = dma_map_single(dev, buf, LEN, DMA_FROM_DEVICE);
	ck_assert(!dma_mapping_error(dev, h));
}

static void finish(uint64_t expected)
{
	dma_unmap_single(dev, h, LEN, DMA_FROM_DEVICE);
	kfree(buf);
	fixture_finish(&m, &dd, expected);
}

static uint64_t cpu_reports(void)
{
	return dmaemu_report_count(m, "cpu-access-device-owned");
}

/* The report @i made (0: the first). */
static void report(unsigned int i, struct dmaemu_report *r)
{
	ck_assert_int_eq(dmaemu_report_get(m, i, r), 0);
}

/*
 * The driver's bug, each at one source line: loads of the buffer while
 * the device owns it.  noinline: each is its own function and line.
 */
static __attribute__((noinline)) unsigned int two_loads_one_line(void)
{
	const volatile uint8_t *p = buf;

	return p[0] + p[300]; /* THE LINE */
}

static __attribute__((noinline)) unsigned int loop_one_line(unsigned int n)
{
	const volatile uint8_t *p = buf;
	unsigned int i, sum = 0;

	for (i = 0; i < n; i++)
		sum += p[i * 64 % LEN];
	return sum;
}

static __attribute__((noinline)) unsigned int other_line(void)
{
	const volatile uint8_t *p = buf;

	return p[512];
}

/* Two accesses at one line are one report; a loop at another line over
 * the whole buffer is one more; a third line one more. */
START_TEST(test_cpu_line_and_mapping)
{
	struct dmaemu_report r;

	make(NULL);
	(void)two_loads_one_line();
	ck_assert_uint_eq(cpu_reports(), 1);
	report(0, &r);
	ck_assert_ptr_nonnull(strstr(r.where, "two_loads_one_line"));
	ck_assert_uint_eq(r.phys & 0xfff, virt_to_phys(buf) & 0xfff);
	(void)two_loads_one_line();
	ck_assert_uint_eq(cpu_reports(), 1);
	(void)loop_one_line(LEN / 64);
	ck_assert_uint_eq(cpu_reports(), 2);
	report(1, &r);
	ck_assert_ptr_nonnull(strstr(r.where, "loop_one_line"));
	(void)other_line();
	ck_assert_uint_eq(cpu_reports(), 3);
	report(2, &r);
	ck_assert_ptr_nonnull(strstr(r.where, "other_line"));
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 3);
	finish(3);
}
END_TEST

/* report_repeats=N prints N of a line's reports; 0 prints every one. */
START_TEST(test_cpu_repeats_option)
{
	make("3");
	(void)loop_one_line(LEN / 64);
	ck_assert_uint_eq(cpu_reports(), 3);
	(void)loop_one_line(LEN / 64);
	ck_assert_uint_eq(cpu_reports(), 3);
	finish(3);

	make("0");
	(void)loop_one_line(LEN / 64);
	ck_assert_uint_eq(cpu_reports(), LEN / 64);
	finish(LEN / 64);
}
END_TEST

/*
 * The device writes, from one line, into a buffer the CPU took back and
 * wrote: every 64th byte of it, one line after the other.  One report,
 * naming the first write; with report_repeats=0, one per write.
 */
static __attribute__((noinline)) void device_writes(void)
{
	uint8_t v = 0x5a;
	unsigned int i;

	for (i = 0; i < LEN / 64; i++)
		ck_assert_int_eq(dmaemu_dma_write(dd, h + 64 * i + 8, &v, 1),
				 0);
}

static void device_case(const char *repeats, uint64_t want)
{
	struct dmaemu_report r;

	make(repeats);
	dma_sync_single_for_cpu(dev, h, LEN, DMA_FROM_DEVICE);
	fixture_cpu_fill(buf, 0, LEN);
	device_writes();
	ck_assert_uint_eq(dmaemu_report_count(m, "device-access-cpu-owned"),
			  want);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), want);
	report(0, &r);
	ck_assert_uint_eq(r.phys, virt_to_phys(buf) + 8);
	ck_assert_ptr_nonnull(strstr(r.where, "device_writes"));
	dma_sync_single_for_device(dev, h, LEN, DMA_FROM_DEVICE);
	finish(want);
}

START_TEST(test_device_repeats)
{
	device_case(NULL, 1);
	device_case("0", LEN / 64);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Two threads at once                                                    */
/* ---------------------------------------------------------------------- */

#define THREAD_LOADS 24

static pthread_barrier_t start_line;

static void *loader(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&start_line);
	(void)loop_one_line(THREAD_LOADS);
	return NULL;
}

/* Two threads run loop_one_line() at once: the line is printed as often
 * as @repeats says, and with report_repeats=0 every load is. */
static void threads_case(const char *repeats, uint64_t want)
{
	pthread_t t[2];
	int i;

	make(repeats);
	ck_assert_int_eq(pthread_barrier_init(&start_line, NULL, 2), 0);
	for (i = 0; i < 2; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, loader, NULL), 0);
	for (i = 0; i < 2; i++)
		ck_assert_int_eq(pthread_join(t[i], NULL), 0);
	pthread_barrier_destroy(&start_line);
	ck_assert_uint_eq(cpu_reports(), want);
	finish(want);
}

START_TEST(test_two_threads)
{
	threads_case(NULL, 1);
	threads_case("5", 5);
	threads_case("0", 2 * THREAD_LOADS);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("report-repeats");
	TCase *tc = tcase_create("repeats");
	TCase *tt = tcase_create("threads");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_cpu_line_and_mapping);
	tcase_add_test(tc, test_cpu_repeats_option);
	tcase_add_test(tc, test_device_repeats);
	suite_add_tcase(s, tc);
	tcase_set_timeout(tt, 120);
	tcase_add_test(tt, test_two_threads);
	suite_add_tcase(s, tt);
	return s;
}

int main(void)
{
	return check_run(suite());
}
