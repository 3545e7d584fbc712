// SPDX-License-Identifier: MIT
/*
 * check-check-helpers.c - <dmaemu/check.h>, the Check fixture and
 * assertions for users' driver tests: do they pass and fail when they
 * should, with the report's text, in Check's fork and no-fork modes?
 *
 * An inner suite of small tests written as a user would write them is run
 * first, once forking and once not, by its own runner (a runner cannot run
 * inside a test); the outer suite then checks each inner result: passed or
 * failed, in the test body or in the teardown, and with which message.
 */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <check.h>
#include <dmaemu/check.h>
#include <dmaemu/cpu.h>
#include <dmaemu/device.h>
#include <linux/dma-mapping.h>
#include <linux/slab.h>

#include "check-run.h"

#define OPTIONS "profile=arm64:mem=16M:log_path=/dev/null"

/* ---------------------------------------------------------------------- */
/* The inner suite                                                        */
/* ---------------------------------------------------------------------- */

static void setup(void)
{
	dmaemu_ck_setup(OPTIONS);
}

static void bad_argument(void)
{
	dmaemu_machine_info(dmaemu_ck_machine(), NULL);
}

/* A stale read of bytes 4-7 of a kmalloc() buffer's first line. */
static uint8_t *stale_read(uint64_t *phys)
{
	uint8_t *buf = kmalloc(64, GFP_KERNEL), back[8];
	static const uint8_t fresh[4] = {1, 2, 3, 4};
	struct dmaemu_addr_info ai;

	ck_assert_ptr_nonnull(buf);
	ck_assert_int_eq(dmaemu_addr_info(buf, &ai), 0);
	*phys = ai.phys;
	ck_assert_int_eq(dmaemu_cpu_read(back, buf, 8), 0);
	ck_assert_int_eq(
		dmaemu_dram_write(dmaemu_ck_machine(), ai.phys + 4, fresh, 4),
		0);
	ck_assert_int_eq(dmaemu_cpu_read(back, buf, 8), 0);
	return buf;
}

START_TEST(t_clean)
{
	kfree(kmalloc(32, GFP_KERNEL));
	dmaemu_ck_assert_no_reports();
}
END_TEST

START_TEST(t_unexpected)
{
	bad_argument();
}
END_TEST

START_TEST(t_no_reports_fails)
{
	bad_argument();
	dmaemu_ck_assert_no_reports();
}
END_TEST

START_TEST(t_count_ok)
{
	uint64_t phys;

	bad_argument();
	kfree(stale_read(&phys));
	bad_argument();
	dmaemu_ck_assert_reports(DMAEMU_REPORT_BAD_ARGUMENT, 2);
	dmaemu_ck_assert_reports(DMAEMU_REPORT_STALE_CPU_READ, 1);
	dmaemu_ck_assert_reports(DMAEMU_REPORT_BAD_FREE, 0);
	dmaemu_ck_assert_no_reports();
}
END_TEST

START_TEST(t_count_wrong)
{
	bad_argument();
	bad_argument();
	dmaemu_ck_assert_reports(DMAEMU_REPORT_BAD_ARGUMENT, 1);
}
END_TEST

START_TEST(t_at_ok)
{
	uint64_t phys;
	uint8_t *buf = stale_read(&phys);

	dmaemu_ck_assert_report_at(DMAEMU_REPORT_STALE_CPU_READ, phys + 7);
	kfree(buf);
}
END_TEST

START_TEST(t_at_wrong)
{
	uint64_t phys;
	uint8_t *buf = stale_read(&phys);

	kfree(buf);
	dmaemu_ck_assert_report_at(DMAEMU_REPORT_STALE_CPU_READ, phys + 8);
}
END_TEST

START_TEST(t_in_ok)
{
	uint64_t phys;
	uint8_t *buf = stale_read(&phys);

	dmaemu_ck_assert_report_in(DMAEMU_REPORT_STALE_CPU_READ, buf + 6, 40);
	kfree(buf);
}
END_TEST

START_TEST(t_in_wrong)
{
	uint64_t phys;
	uint8_t *buf = stale_read(&phys);

	kfree(buf);
	dmaemu_ck_assert_report_in(DMAEMU_REPORT_STALE_CPU_READ, buf + 8, 8);
}
END_TEST

/* A device whose thread makes a dma-fault report on each doorbell, then
 * says it is done. */
static pthread_mutex_t done_lock = PTHREAD_MUTEX_INITIALIZER;
static int run_done;

static void faulty_run(struct dmaemu_device *dev, unsigned int events)
{
	uint8_t b[4];

	(void)events;
	dmaemu_dma_read(dev, 0x1000, b, sizeof(b));
	pthread_mutex_lock(&done_lock);
	run_done = 1;
	pthread_mutex_unlock(&done_lock);
}

static const struct dmaemu_device_ops faulty_ops = {.run = faulty_run};

static int done(void)
{
	int v;

	pthread_mutex_lock(&done_lock);
	v = run_done;
	pthread_mutex_unlock(&done_lock);
	return v;
}

/* A report on a device's thread fails the test at its check point, on
 * the test's thread. */
START_TEST(t_thread_strict)
{
	struct dmaemu_device *d;
	struct timespec ms = {0, 1000 * 1000};
	int i;

	dmaemu_ck_fail_on_report(true);
	run_done = 0;
	d = dmaemu_device_create(dmaemu_ck_machine(), "faulty0", &faulty_ops,
				 NULL);
	ck_assert_ptr_nonnull(d);
	dmaemu_ck_checkpoint();
	ck_assert_int_eq(dmaemu_device_doorbell(d), 0);
	for (i = 0; i < 5000 && !done(); i++)
		nanosleep(&ms, NULL);
	ck_assert(done());
	/* No thread left when the test fails (a forked test's process ends
	 * there, and Memcheck would count the thread's stack). */
	dmaemu_device_destroy(d);
	dmaemu_ck_checkpoint(); /* fails here */
	ck_abort_msg("not reached");
}
END_TEST

/* Without fail-on-report, the same report can be asserted. */
START_TEST(t_thread_asserted)
{
	struct dmaemu_device *d;
	struct timespec ms = {0, 1000 * 1000};
	int i;

	run_done = 0;
	d = dmaemu_device_create(dmaemu_ck_machine(), "faulty0", &faulty_ops,
				 NULL);
	ck_assert_ptr_nonnull(d);
	ck_assert_int_eq(dmaemu_device_doorbell(d), 0);
	for (i = 0; i < 5000 && !done(); i++)
		nanosleep(&ms, NULL);
	dmaemu_ck_checkpoint(); /* fail-on-report is off: passes */
	dmaemu_ck_assert_reports(DMAEMU_REPORT_DMA_FAULT, 1);
	dmaemu_device_destroy(d);
}
END_TEST

START_TEST(t_strict_clean)
{
	dmaemu_ck_fail_on_report(true);
	kfree(kmalloc(32, GFP_KERNEL));
	dmaemu_ck_checkpoint();
}
END_TEST

/* A mapping left behind: reported when the teardown destroys the
 * machine, which fails the test. */
START_TEST(t_leak)
{
	struct dmaemu_device *d;
	void *buf = kmalloc(256, GFP_KERNEL);
	dma_addr_t h;

	d = dmaemu_device_create(dmaemu_ck_machine(), "nic0", NULL, NULL);
	ck_assert_ptr_nonnull(d);
	h = dma_map_single(dmaemu_device_to_dev(d), buf, 256, DMA_TO_DEVICE);
	ck_assert(!dma_mapping_error(dmaemu_device_to_dev(d), h));
}
END_TEST

START_TEST(t_overflow)
{
	int i;

	for (i = 0; i < DMAEMU_CK_MAX_REPORTS + 10; i++)
		bad_argument();
	dmaemu_ck_assert_reports(DMAEMU_REPORT_BAD_ARGUMENT,
				 DMAEMU_CK_MAX_REPORTS + 10);
}
END_TEST

/* clang-format off */
#define INNER(X)                                                             \
	X(t_clean) X(t_unexpected) X(t_no_reports_fails) X(t_count_ok)       \
	X(t_count_wrong) X(t_at_ok) X(t_at_wrong) X(t_in_ok) X(t_in_wrong)   \
	X(t_thread_strict) X(t_thread_asserted) X(t_strict_clean) X(t_leak)  \
	X(t_overflow)
/* clang-format on */
#define NAME(t) {#t},
#define TEST(t) t,
static const struct inner {
	const char *name;
} inner[] = {INNER(NAME)};
#define NINNER (sizeof(inner) / sizeof(inner[0]))

/* One inner result, copied out of the runner. */
struct result {
	int rtype; /* CK_PASS, CK_FAILURE, CK_ERROR */
	enum ck_result_ctx ctx;
	char msg[2 * DMAEMU_REPORT_TEXT_MAX];
};

static struct result results[2][NINNER]; /* [0] fork, [1] no fork */

static void run_inner(int nofork)
{
	Suite *s = suite_create("inner");
	TestResult **tr;
	SRunner *sr;
	size_t i, j;

	/* One test case per test: the case's name tells the results apart. */
	const TTest *tests[] = {INNER(TEST)};

	for (i = 0; i < NINNER; i++) {
		TCase *tc = tcase_create(inner[i].name);

		tcase_add_checked_fixture(tc, setup, dmaemu_ck_teardown);
		tcase_add_test(tc, tests[i]);
		suite_add_tcase(s, tc);
	}
	sr = srunner_create(s);
	srunner_set_fork_status(sr, nofork ? CK_NOFORK : CK_FORK);
	srunner_run_all(sr, CK_SILENT);
	tr = srunner_results(sr);
	for (i = 0; i < (size_t)srunner_ntests_run(sr); i++)
		for (j = 0; j < NINNER; j++) {
			struct result *r = &results[nofork][j];

			if (strcmp(tr_tcname(tr[i]), inner[j].name))
				continue;
			r->rtype = tr_rtype(tr[i]);
			r->ctx = tr_ctx(tr[i]);
			snprintf(r->msg, sizeof(r->msg), "%s",
				 tr_msg(tr[i]) ? tr_msg(tr[i]) : "");
		}
	free(tr);
	srunner_free(sr);
}

/* ---------------------------------------------------------------------- */
/* The outer suite                                                        */
/* ---------------------------------------------------------------------- */

static const struct result *result_of(int nofork, const char *name)
{
	size_t j;

	for (j = 0; j < NINNER; j++)
		if (!strcmp(inner[j].name, name))
			return &results[nofork][j];
	ck_abort_msg("no inner test %s", name);
	return NULL;
}

static void expect_pass(const char *name)
{
	int nofork;

	for (nofork = 0; nofork < 2; nofork++) {
		const struct result *r = result_of(nofork, name);

		ck_assert_msg(r->rtype == CK_PASS, "%s (%s) did not pass: %s",
			      name, nofork ? "no fork" : "fork", r->msg);
	}
}

/* @name failed in @ctx, with a message holding @a and @b. */
static void expect_fail(const char *name, enum ck_result_ctx ctx, const char *a,
			const char *b)
{
	int nofork;

	for (nofork = 0; nofork < 2; nofork++) {
		const struct result *r = result_of(nofork, name);
		const char *mode = nofork ? "no fork" : "fork";

		ck_assert_msg(r->rtype == CK_FAILURE, "%s (%s) did not fail",
			      name, mode);
		ck_assert_msg(r->ctx == ctx, "%s (%s) failed in context %d",
			      name, mode, (int)r->ctx);
		ck_assert_msg(strstr(r->msg, a) && strstr(r->msg, b),
			      "%s (%s): message without '%s' and '%s': %s",
			      name, mode, a, b, r->msg);
	}
}

START_TEST(test_passes)
{
	expect_pass("t_clean");
	expect_pass("t_count_ok");
	expect_pass("t_at_ok");
	expect_pass("t_in_ok");
	expect_pass("t_thread_asserted");
	expect_pass("t_strict_clean");
}
END_TEST

/* A report nobody asserted fails the test in its teardown, quoted. */
START_TEST(test_unexpected)
{
	expect_fail("t_unexpected", CK_CTX_TEARDOWN, "unexpected report",
		    "==ERROR: dmaemu: bad-argument: dmaemu_machine_info");
	expect_fail("t_leak", CK_CTX_TEARDOWN, "unexpected report",
		    "ERROR: dmaemu: leaked-mapping: device nic0");
}
END_TEST

START_TEST(test_assertions_fail)
{
	expect_fail("t_no_reports_fails", CK_CTX_TEST, "expected no report",
		    "SUMMARY: dmaemu: bad-argument");
	expect_fail("t_count_wrong", CK_CTX_TEST,
		    "expected 1 bad-argument report, got 2", "no report held");
	expect_fail("t_at_wrong", CK_CTX_TEST,
		    "expected a stale-cpu-read report at phys",
		    "SUMMARY: dmaemu: stale-cpu-read");
	expect_fail("t_in_wrong", CK_CTX_TEST,
		    "expected a stale-cpu-read report in buf + 8",
		    "ERROR: dmaemu: stale-cpu-read");
	expect_fail("t_overflow", CK_CTX_TEST, "too many reports",
		    "more than 256 reports");
}
END_TEST

/* A report made on a device's thread fails the test at the check point
 * that follows it, on the test's thread, with its text. */
START_TEST(test_thread_strict)
{
	expect_fail("t_thread_strict", CK_CTX_TEST, "dmaemu reported an error",
		    "ERROR: dmaemu: dma-fault: device faulty0");
}
END_TEST

static Suite *helpers_suite(void)
{
	Suite *s = suite_create("check-helpers");
	TCase *tc = tcase_create("helpers");

	tcase_add_test(tc, test_passes);
	tcase_add_test(tc, test_unexpected);
	tcase_add_test(tc, test_assertions_fail);
	tcase_add_test(tc, test_thread_strict);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	char *env = getenv("CK_FORK") ? strdup(getenv("CK_FORK")) : NULL;

	/* The inner runs choose their mode; CK_FORK would override it. */
	unsetenv("CK_FORK");
	unsetenv("DMAEMU_OPTIONS");
	run_inner(0);
	run_inner(1);
	if (env) {
		setenv("CK_FORK", env, 1);
		free(env);
	}
	return check_run(helpers_suite());
}
