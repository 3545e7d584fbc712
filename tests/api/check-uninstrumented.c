// SPDX-License-Identifier: MIT
/*
 * check-uninstrumented.c - code built without instrumentation still works
 * (docs/model.md, way 3): its writes are the CPU copy, dirtiness comes
 * from CPU != TWIN, so clean and invalidate stay exact; a stale read gives
 * the old data, with no report at the time.  This file is compiled
 * WITHOUT the instrumentation flags: its loads and stores never call the
 * hooks, only the explicit accessors do.
 */
#include "config.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_VALGRIND_MEMCHECK_H
#include <valgrind/memcheck.h>
#endif

#include <linux/compiler.h>

#include <dmaemu/cpu.h>
#include <dmaemu/machine.h>
#include <dmaemu/report.h>
#include <dmaemu/testing.h>

#include "check-run.h"
#include "fixture.h"

#define BASE 0x80300000ULL
#define LINE 64

static struct dmaemu_machine *m;

static void setup(void)
{
	unsetenv("DMAEMU_OPTIONS");
	m = dmaemu_machine_create("mem=16M:log_path=/dev/null");
	ck_assert_ptr_nonnull(m);
}

static void teardown(void)
{
	dmaemu_machine_destroy(m);
	m = NULL;
}

static uint8_t *lin(uint64_t phys)
{
	return dmaemu_phys_view(m, phys, DMAEMU_REGION_LINEAR);
}

static uint8_t *mem(uint64_t phys)
{
	return dmaemu_phys_view(m, phys, DMAEMU_REGION_UNCACHED);
}

/* The line holding @phys is in L1 (dirty: and dirty there). */
static bool l1_resident(uint64_t phys)
{
	struct dmaemu_line_state st;

	ck_assert_int_eq(dmaemu_line_state(m, phys, &st), 0);
	return st.resident_levels & 1;
}

static bool l1_dirty(uint64_t phys)
{
	struct dmaemu_line_state st;

	ck_assert_int_eq(dmaemu_line_state(m, phys, &st), 0);
	return st.dirty_levels & 1;
}

static struct dmaemu_cache_level_info l1(void)
{
	struct dmaemu_cache_level_info info;

	ck_assert_int_eq(dmaemu_cache_level_info(m, 0, &info), 0);
	return info;
}

static struct dmaemu_cpu_stats stats(void)
{
	struct dmaemu_cpu_stats st;

	ck_assert_int_eq(dmaemu_cpu_stats(m, 0, &st), 0);
	return st;
}

START_TEST(test_write_then_clean)
{
	static const uint8_t data[6] = {1, 2, 3, 4, 5, 6};

	memcpy(lin(BASE + 10), data, sizeof(data));
	/* Not written back yet: memory still has zeros. */
	ck_assert_uint_eq(mem(BASE + 10)[0], 0);
	ck_assert_int_eq(dmaemu_cache_clean(m, BASE, LINE), 0);
	ck_assert_int_eq(memcmp(mem(BASE + 10), data, sizeof(data)), 0);
	ck_assert_int_eq(memcmp(mem(BASE), lin(BASE), LINE), 0);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 0);
	/* The model never saw these accesses. */
	ck_assert_uint_eq(stats().accesses, 0);
}
END_TEST

START_TEST(test_write_then_invalidate)
{
	lin(BASE)[0] = 0xaa;  /* inside the maintained range */
	lin(BASE)[40] = 0xbb; /* outside it, same line */
	ck_assert_int_eq(dmaemu_cache_invalidate(m, BASE, 16), 0);
	/* Both discarded; the one outside the range is a lost CPU write. */
	ck_assert_uint_eq(lin(BASE)[0], 0);
	ck_assert_uint_eq(lin(BASE)[40], 0);
	ck_assert_uint_eq(mem(BASE)[40], 0);
	ck_assert_uint_eq(dmaemu_report_count(m, "lost-cpu-write"), 1);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 1);
}
END_TEST

START_TEST(test_stale_read_is_wrong_data)
{
	static const uint8_t data[4] = {9, 9, 9, 9};
	uint8_t seen;

	seen = lin(BASE + LINE)[1];
	ck_assert_uint_eq(seen, 0);
	ck_assert_int_eq(dmaemu_dram_write(m, BASE + LINE, data, 4), 0);
	/* No sync: the CPU copy is old, and nothing is reported now (under
	 * Memcheck the stale byte is undefined: the test peeks at it). */
	fixture_peek(&seen, lin(BASE + LINE) + 1, 1);
	ck_assert_uint_eq(seen, 0);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 0);
	/* With the invalidate a sync makes, the data is right. */
	ck_assert_int_eq(dmaemu_cache_invalidate(m, BASE + LINE, 4), 0);
	seen = lin(BASE + LINE)[1];
	ck_assert_uint_eq(seen, 9);
}
END_TEST

#ifdef HAVE_VALGRIND_MEMCHECK_H
/* Is the byte at @p undefined for Memcheck?  false when not under it. */
static bool undefined(const void *p)
{
	uint8_t vbits = 0;

	return VALGRIND_GET_VBITS(p, &vbits, 1) == 1 && vbits != 0;
}

/*
 * Under Memcheck, the bytes of the CPU's copy that a device changed and
 * the CPU has not re-read are undefined (docs/valgrind.md), so that this
 * code's use of them is an error at its own line.  Elsewhere the test has
 * nothing to look at.
 */
START_TEST(test_memcheck_marks_stale)
{
	static const uint8_t data[4] = {9, 9, 9, 9}, zero;
	uint8_t *a = lin(BASE + 3 * LINE), *b = lin(BASE + 4 * LINE), v[5];
	unsigned int i;

	if (!RUNNING_ON_VALGRIND || VALGRIND_GET_VBITS(a, v, 1) != 1)
		return;
	ck_assert_int_eq(dmaemu_dram_write(m, BASE + 3 * LINE, data, 4), 0);
	for (i = 0; i < 4; i++)
		ck_assert_msg(undefined(a + i), "byte %u", i);
	ck_assert(!undefined(a + 4)); /* the device did not write it */
	/* A clean leaves the CPU's copy as it was: still stale. */
	ck_assert_int_eq(dmaemu_cache_clean(m, BASE + 3 * LINE, LINE), 0);
	ck_assert(undefined(a + 0));
	/* Memory back to what the CPU holds: byte 3 is not stale. */
	ck_assert_int_eq(dmaemu_dram_write(m, BASE + 3 * LINE + 3, &zero, 1),
			 0);
	ck_assert(undefined(a + 2) && !undefined(a + 3));
	/* The invalidate of a sync: a fresh, defined copy. */
	ck_assert_int_eq(dmaemu_cache_invalidate(m, BASE + 3 * LINE, 4), 0);
	for (i = 0; i < 4; i++)
		ck_assert(!undefined(a + i));
	ck_assert_uint_eq(a[0], 9);

	/* A byte the CPU wrote is its own, not stale. */
	b[2] = 5;
	ck_assert_int_eq(dmaemu_dram_write(m, BASE + 4 * LINE, data, 4), 0);
	ck_assert(undefined(b + 0) && undefined(b + 1) && undefined(b + 3));
	ck_assert(!undefined(b + 2));
	ck_assert_uint_eq(b[2], 5);
	fixture_peek(v, b, 5);
	ck_assert(!undefined(v) && undefined(b + 0)); /* a peek keeps them */
	ck_assert_int_eq(dmaemu_cache_invalidate(m, BASE + 4 * LINE, LINE), 0);
	for (i = 0; i < 4; i++)
		ck_assert(!undefined(b + i));
	ck_assert_uint_eq(b[2], 9);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 0);
}
END_TEST
#endif

START_TEST(test_dirty_line_not_refilled)
{
	uint8_t one = 1;

	/* An uninstrumented write, then a device write to another byte of
	 * the line, then an explicit load: the line counts as resident (it
	 * holds the CPU's data), so it is not refilled, and reading the
	 * device's byte is stale. */
	lin(BASE + 2 * LINE)[0] = 0x42;
	ck_assert_int_eq(dmaemu_dram_write(m, BASE + 2 * LINE + 8, &one, 1), 0);
	dmaemu_cpu_access(lin(BASE + 2 * LINE), 1, 0);
	ck_assert_uint_eq(lin(BASE + 2 * LINE)[0], 0x42);
	ck_assert_uint_eq(dmaemu_report_count(m, "stale-cpu-read"), 0);
	dmaemu_cpu_access(lin(BASE + 2 * LINE + 8), 1, 0);
	ck_assert_uint_eq(dmaemu_report_count(m, "stale-cpu-read"), 1);
	ck_assert_uint_eq(lin(BASE + 2 * LINE)[8], 0);
}
END_TEST

START_TEST(test_eviction_writes_back_unseen_store)
{
	unsigned int ways = l1().ways;
	uint64_t stride = (uint64_t)l1().sets * LINE;
	uint64_t victim = BASE + 4 * LINE;
	unsigned int i;

	/* The model holds the line clean; then a store it never sees (as
	 * gcc's read-modify-write, or uninstrumented code) dirties it. */
	dmaemu_cpu_access(lin(victim), 1, 0);
	ck_assert(l1_resident(victim));
	ck_assert(!l1_dirty(victim));
	lin(victim)[5] = 0x5a;
	/* Fill the set with other lines until the victim is evicted: the
	 * eviction must write back what the line holds. */
	for (i = 1; i <= ways; i++)
		dmaemu_cpu_access(lin(victim + i * stride), 1, 0);
	ck_assert(!l1_resident(victim));
	ck_assert_uint_eq(mem(victim)[5], 0x5a);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 0);
}
END_TEST

START_TEST(test_read_once_explicit)
{
	volatile uint32_t *p = (volatile uint32_t *)lin(BASE + 3 * LINE);

	/* Uninstrumented code: READ_ONCE/WRITE_ONCE tell the model. */
	WRITE_ONCE(*p, 5);
	ck_assert_uint_eq(READ_ONCE(*p), 5);
	ck_assert_uint_eq(stats().accesses, 2);
	ck_assert_uint_eq(stats().writes, 1);
	ck_assert(l1_dirty(BASE + 3 * LINE));
}
END_TEST

/*
 * Two threads whose lines share a set (2 ways) store with WRITE_ONCE(), so
 * each one's misses evict the other's dirty lines while the other may be
 * storing to them: the model's eviction reads the whole CPU copy of a line
 * another thread writes, the race the model declares by design (the
 * racy-line annotations of lib/base).  Every line's last value reaches
 * memory, and in a TSan build the emulator's side of the race is not
 * reported.
 */
#define EVICT_ROUNDS 300
#define EVICT_STRIDE 512 /* 8 sets of 64 bytes: same set every 512 bytes */

static void *evicting_thread(void *arg)
{
	uintptr_t id = (uintptr_t)arg;
	unsigned int i, k;

	for (i = 1; i <= EVICT_ROUNDS; i++)
		for (k = 0; k < 3; k++)
			WRITE_ONCE(*(uint32_t *)lin(
					   BASE + (2 * k + id) * EVICT_STRIDE),
				   i);
	return NULL;
}

START_TEST(test_threads_evict_each_other)
{
	pthread_t t[2];
	unsigned int i, k;

	dmaemu_machine_destroy(m);
	m = dmaemu_machine_create("mem=16M:cache_size=1024:cache_ways=2:"
				  "cache_line=64:log_path=/dev/null");
	ck_assert_ptr_nonnull(m);
	for (i = 0; i < 2; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, evicting_thread,
						(void *)(uintptr_t)i),
				 0);
	for (i = 0; i < 2; i++)
		ck_assert_int_eq(pthread_join(t[i], NULL), 0);
	ck_assert_uint_gt(stats().misses, 6);
	ck_assert_int_eq(dmaemu_cache_clean(m, BASE, 6 * EVICT_STRIDE), 0);
	for (k = 0; k < 6; k++) {
		uint32_t v;

		memcpy(&v, mem(BASE + k * EVICT_STRIDE), 4);
		ck_assert_uint_eq(v, EVICT_ROUNDS);
	}
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 0);
}
END_TEST

static Suite *uninstrumented_suite(void)
{
	Suite *s = suite_create("uninstrumented");
	TCase *tc = tcase_create("uninstrumented");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_write_then_clean);
	tcase_add_test(tc, test_write_then_invalidate);
	tcase_add_test(tc, test_stale_read_is_wrong_data);
#ifdef HAVE_VALGRIND_MEMCHECK_H
	tcase_add_test(tc, test_memcheck_marks_stale);
#endif
	tcase_add_test(tc, test_dirty_line_not_refilled);
	tcase_add_test(tc, test_eviction_writes_back_unseen_store);
	tcase_add_test(tc, test_read_once_explicit);
	tcase_add_test(tc, test_threads_evict_each_other);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(uninstrumented_suite());
}
