// SPDX-License-Identifier: MIT
/*
 * check-ordering-drivers.c - the ordering checks (docs/ordering.md) on the
 * copy engine's reference driver, in a sweep of lockstep seeds on each
 * profile.  Built twice: with the driver's writel_relaxed() doorbell after
 * a wmb() (check-ordering-ce: no report in any seed, right data), and
 * with that wmb() left out (check-ordering-ce-nowmb, CE_NO_DOORBELL_WMB:
 * missing-write-barrier in every seed, an error on arm64 and arm and a
 * portability note on x86; on arm64 and arm some seed lets the engine
 * read a descriptor whose stores have not all drained, and the copy
 * fails, while x86 (TSO) always gets the data right).  The unmodified driver (writel()) is
 * tests/api/check-lockstep.c's and check-copy-engine's, where any report
 * fails the test.
 */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_VALGRIND_VALGRIND_H
#include <valgrind/valgrind.h>
#else
#define RUNNING_ON_VALGRIND 0
#endif

#include <linux/platform_device.h>
#include <linux/slab.h>

#include <dmaemu/devices/copy-engine.h>
#include <dmaemu/device.h>
#include <dmaemu/machine.h>
#include <dmaemu/report.h>

#include "ce-driver.h"
#include "check-run.h"

#define LEN 10000
#define SEEDS (RUNNING_ON_VALGRIND ? 20 : 100)

#ifdef CE_NO_DOORBELL_WMB
#define BUGGY 1
#else
#define BUGGY 0
#endif

/*
 * One run: bind, copy, check the reports.  Return: whether the data was
 * right (the copy succeeded and the bytes arrived).
 */
static bool ce_run(const char *profile, uint64_t seed, bool lockstep)
{
	char opts[160];
	struct dmaemu_machine *m;
	struct dmaemu_device *d;
	struct dmaemu_report r;
	struct cedrv *ce;
	uint8_t *src, *dst;
	uint64_t n;
	bool right;
	size_t i;

	unsetenv("DMAEMU_OPTIONS");
	snprintf(opts, sizeof(opts),
		 "profile=%s:seed=%llu:sched=%s:log_path=/dev/null", profile,
		 (unsigned long long)seed, lockstep ? "lockstep" : "threads");
	m = dmaemu_machine_create(opts);
	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq(platform_driver_register(&cedrv_driver), 0);
	d = dmaemu_copy_engine_create(m, "ce0");
	ck_assert_ptr_nonnull(d);
	ce = cedrv_first();
	ck_assert_ptr_nonnull(ce);
	src = kmalloc(LEN, GFP_KERNEL);
	dst = kmalloc(LEN, GFP_KERNEL);
	ck_assert_ptr_nonnull(src);
	ck_assert_ptr_nonnull(dst);
	for (i = 0; i < LEN; i++) {
		src[i] = (uint8_t)(i * 13 + (i >> 9));
		dst[i] = 0x5a;
	}
	right = !cedrv_memcpy(ce, dst, src, LEN) && !memcmp(dst, src, LEN);
	kfree(dst);
	kfree(src);
	dmaemu_device_destroy(d);
	platform_driver_unregister(&cedrv_driver);
	n = dmaemu_report_count(m, "missing-write-barrier");
	ck_assert_msg(n == BUGGY, "%s seed %llu: %llu missing-write-barrier",
		      profile, (unsigned long long)seed, (unsigned long long)n);
	/* A descriptor read half old may fault: only then more reports. */
	if (right)
		ck_assert_uint_eq(dmaemu_report_count(m, NULL), BUGGY);
	if (BUGGY) {
		ck_assert_int_eq(dmaemu_report_get(m, 0, &r), 0);
		ck_assert_str_eq(r.kind_name, "missing-write-barrier");
		ck_assert_int_eq(r.severity, strcmp(profile, "x86")
						     ? DMAEMU_SEVERITY_ERROR
						     : DMAEMU_SEVERITY_NOTE);
		ck_assert_ptr_nonnull(strstr(r.text, "relaxed doorbell"));
		ck_assert_ptr_nonnull(strstr(r.text, "cedrv_run"));
	}
	dmaemu_machine_destroy(m);
	return right;
}

static const char *const profiles[] = {"arm64", "arm", "x86"};

/*
 * Every seed reports the buggy driver and none the correct one.  The data:
 * always right with the wmb(), and on x86 (TSO); without it, on arm64 and
 * arm, some seed lets the engine read the descriptor before all of its
 * stores drained (the run fails or copies the wrong bytes).
 */
START_TEST(test_sweep)
{
	const char *p = profiles[_i];
	unsigned int wrong = 0;
	uint64_t seed;

	for (seed = 1; seed <= SEEDS; seed++)
		wrong += !ce_run(p, seed, true);
	printf("# %s: %u of %u seeds copied wrong\n", p, wrong, SEEDS);
	if (BUGGY && strcmp(p, "x86"))
		ck_assert_msg(wrong > 0, "%s: no seed showed wrong data", p);
	else
		ck_assert_msg(wrong == 0, "%s: %u seeds with wrong data", p,
			      wrong);
	/* Under sched=threads whether the engine reads a store before it
	 * drained is the host's timing: that run is judged on its reports
	 * (ce_run()), and on its data only where no timing makes it wrong. */
	if (!BUGGY || !strcmp(p, "x86"))
		ck_assert_msg(ce_run(p, 1, false),
			      "%s, sched=threads: wrong "
			      "data",
			      p);
	else
		(void)ce_run(p, 1, false);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create(BUGGY ? "ordering-ce-nowmb" : "ordering-ce");
	TCase *tc = tcase_create("sweep");

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_sweep, 0, 3);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(suite());
}
