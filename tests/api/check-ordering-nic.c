// SPDX-License-Identifier: MIT
/*
 * check-ordering-nic.c - the ordering checks (docs/ordering.md) on the
 * network card's reference driver, sending frames over the loopback wire
 * with several seeds on each profile.  Built twice: with the driver's
 * writel_relaxed() TX doorbell after a wmb() (check-ordering-nic: no
 * report, every frame right), and with that wmb() left out
 * (check-ordering-nic-nowmb, NIC_NO_DOORBELL_WMB: missing-write-barrier in
 * every run, naming the OWN bit's store and the doorbell; an error on
 * arm64 and arm, a portability note on x86).  The card may then see a
 * descriptor without its OWN bit, or with an old address or length, and
 * lose or garble the frame: some seed of the sweep must show it on arm64
 * and arm (where the buggy runs wait for each frame only briefly), and no
 * seed on x86, whose TSO order keeps every frame right.
 *
 * The sweep runs under sched=lockstep, so that its verdict depends on the
 * seeds alone: a store the card reads old is one its context has not yet
 * ordered by a barrier, and under sched=threads whether the driver has
 * reached its next barrier (the lock of nicdrv_recv()) by the time the
 * card's thread reads the descriptor is the host's doing: on a loaded
 * host the card's thread comes late, after the barrier, in every seed.
 * One run under sched=threads follows, judged on what does not depend on
 * the host: the report, and the data of the correct driver and of x86.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/jiffies.h>
#include <linux/platform_device.h>

#include <dmaemu/device.h>
#include <dmaemu/devices/nic.h>
#include <dmaemu/machine.h>
#include <dmaemu/report.h>

#include "check-run.h"
#include "nic-driver.h"

#ifdef HAVE_VALGRIND_VALGRIND_H
#include <valgrind/valgrind.h>
#else
#define RUNNING_ON_VALGRIND 0
#endif

#define FRAMES 40
/* Under Valgrind a few seeds, and only the reports are judged there for
 * the buggy driver on arm64 and arm: the data needs the whole sweep. */
#define SEEDS (RUNNING_ON_VALGRIND ? 5 : 100)

#ifdef NIC_NO_DOORBELL_WMB
#define BUGGY 1
#else
#define BUGGY 0
#endif

static size_t make_frame(unsigned int n, uint8_t *f)
{
	size_t len = 60 + (n * 37) % 1400, i;

	for (i = 0; i < len; i++)
		f[i] = (uint8_t)(n * 7 + i);
	return len;
}

/* One run of FRAMES frames, under sched=lockstep or sched=threads; returns
 * how many arrived wrong or not at all. */
static unsigned int nic_run(const char *profile, uint64_t seed, bool lockstep)
{
	/* x86 never loses a frame to the missing wmb(): wait as long as the
	 * correct driver does, so that a slow host is not taken for one. */
	bool brief = BUGGY && strcmp(profile, "x86");
	static uint8_t want[DMAEMU_NIC_MAX_FRAME], got[DMAEMU_NIC_MAX_FRAME];
	char opts[160];
	struct dmaemu_machine *m;
	struct dmaemu_device *d;
	struct dmaemu_report r;
	struct nicdrv *nd;
	unsigned int n, wrong = 0;
	uint64_t k;

	unsetenv("DMAEMU_OPTIONS");
	snprintf(opts, sizeof(opts),
		 "profile=%s:seed=%llu:sched=%s:log_path=/dev/null", profile,
		 (unsigned long long)seed, lockstep ? "lockstep" : "threads");
	m = dmaemu_machine_create(opts);
	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq(platform_driver_register(&nicdrv_driver), 0);
	d = dmaemu_nic_create(m, "eth0");
	ck_assert_ptr_nonnull(d);
	nd = nicdrv_first();
	ck_assert_ptr_nonnull(nd);
	nicdrv_set_loopback(nd, true);
	for (n = 0; n < FRAMES; n++) {
		size_t len = make_frame(n, want);
		int got_len;

		ck_assert_int_eq(nicdrv_xmit(nd, want, len), 0);
		got_len = nicdrv_recv(nd, got, sizeof(got),
				      brief ? HZ / 20 : 10 * HZ);
		wrong += got_len != (int)len || memcmp(got, want, len);
	}
	dmaemu_device_destroy(d);
	platform_driver_unregister(&nicdrv_driver);
	k = dmaemu_report_count(m, "missing-write-barrier");
	ck_assert_msg(k == BUGGY, "%s seed %llu: %llu missing-write-barrier",
		      profile, (unsigned long long)seed, (unsigned long long)k);
	if (!BUGGY && dmaemu_report_count(m, NULL)) {
		ck_assert_int_eq(dmaemu_report_get(m, 0, &r), 0);
		ck_abort_msg("%s seed %llu: %llu reports, the first: %s",
			     profile, (unsigned long long)seed,
			     (unsigned long long)dmaemu_report_count(m, NULL),
			     r.text);
	}
	if (BUGGY) {
		ck_assert_int_eq(dmaemu_report_get(m, 0, &r), 0);
		ck_assert_str_eq(r.kind_name, "missing-write-barrier");
		ck_assert_int_eq(r.severity, strcmp(profile, "x86")
						     ? DMAEMU_SEVERITY_ERROR
						     : DMAEMU_SEVERITY_NOTE);
		ck_assert_ptr_nonnull(strstr(r.text, "relaxed doorbell"));
		ck_assert_ptr_nonnull(strstr(r.text, "nicdrv_xmit"));
	}
	dmaemu_machine_destroy(m);
	return wrong;
}

static const char *const profiles[] = {"arm64", "arm", "x86"};

/*
 * Every seed reports the buggy driver, and none the correct one.  The
 * data: every frame right with the wmb(), and on x86 (TSO); without it, on
 * arm64 and arm, some lockstep seed loses or garbles a frame.  The run
 * under sched=threads is judged on its reports (nic_run()), and on its
 * data where no timing can make it wrong.
 */
START_TEST(test_sweep)
{
	const char *p = profiles[_i];
	bool data_may_be_wrong = BUGGY && strcmp(p, "x86");
	unsigned int wrong = 0, seeds = 0, w;
	uint64_t seed;

	for (seed = 1; seed <= SEEDS; seed++) {
		w = nic_run(p, seed, true);
		wrong += w;
		seeds += w > 0;
	}
	printf("# %s: %u of %u seeds lost or garbled frames (%u of %u)\n", p,
	       seeds, SEEDS, wrong, SEEDS * FRAMES);
	if (!data_may_be_wrong)
		ck_assert_msg(wrong == 0, "%s: %u frames wrong", p, wrong);
	else if (!RUNNING_ON_VALGRIND)
		ck_assert_msg(wrong > 0, "%s: no seed showed wrong data", p);
	w = nic_run(p, 1, false);
	if (!data_may_be_wrong)
		ck_assert_msg(w == 0, "%s, sched=threads: %u frames wrong", p,
			      w);
}
END_TEST

/* The same seed replays: the same frames go wrong, in a run of another
 * process history (the sweep before it) as in the first. */
START_TEST(test_replay)
{
	const char *p = profiles[_i];
	uint64_t seed;

	for (seed = 1; seed <= 4; seed++)
		ck_assert_uint_eq(nic_run(p, seed, true),
				  nic_run(p, seed, true));
}
END_TEST

int main(void)
{
	Suite *s = suite_create(BUGGY ? "ordering-nic-nowmb" : "ordering-nic");
	TCase *tc = tcase_create("sweep");

	tcase_set_timeout(tc, 300);
	tcase_add_loop_test(tc, test_sweep, 0, 3);
	tcase_add_loop_test(tc, test_replay, 0, 2);
	suite_add_tcase(s, tc);
	return check_run(s);
}
