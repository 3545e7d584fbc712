// SPDX-License-Identifier: MIT
/*
 * check-sweep.c - <dmaemu/sweep.h>: a sweep runs every seed of its shard
 * once, in as many worker processes as asked, finds the same failing
 * seeds whatever the number of workers, names the first with the command
 * that replays it, counts a worker's crash as its seed's failure, and
 * refuses malformed settings with a line that names them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>

#include <dmaemu/machine.h>
#include <dmaemu/sweep.h>

#include "check-run.h"

/* The seeds that fail: 5, 22, 39, 56, 73, 90 of 0-99. */
static int fails_mod17(unsigned long long seed, void *arg)
{
	(void)arg;
	return seed % 17 == 5;
}

/* Appends each seed it runs to the file @arg names, then passes. */
static int record(unsigned long long seed, void *arg)
{
	char line[32];
	int fd = open(arg, O_WRONLY | O_APPEND | O_CREAT, 0600);
	int n = snprintf(line, sizeof(line), "%llu\n", seed);

	if (fd < 0 || write(fd, line, (size_t)n) != n)
		abort();
	close(fd);
	return 0;
}

/* Crashes at seed 42, fails at 61, passes elsewhere (with three
 * workers from 30, seed 61 is not the crashing worker's). */
static int crashes(unsigned long long seed, void *arg)
{
	(void)arg;
	if (seed == 42)
		abort();
	return seed == 61;
}

/* A lockstep machine per seed, as a real sweep makes. */
static int machine_per_seed(unsigned long long seed, void *arg)
{
	char opts[64];
	struct dmaemu_machine *m;

	(void)arg;
	snprintf(opts, sizeof(opts), "profile=arm64:sched=lockstep:seed=%llu",
		 seed);
	m = dmaemu_machine_create(opts);
	if (!m)
		return 1;
	dmaemu_machine_destroy(m);
	return 0;
}

static void settings(const char *seeds, const char *shard, const char *jobs)
{
	if (seeds)
		setenv("DMAEMU_SEEDS", seeds, 1);
	else
		unsetenv("DMAEMU_SEEDS");
	if (shard)
		setenv("DMAEMU_SHARD", shard, 1);
	else
		unsetenv("DMAEMU_SHARD");
	if (jobs)
		setenv("DMAEMU_JOBS", jobs, 1);
	else
		unsetenv("DMAEMU_JOBS");
}

/* Run a sweep with stderr in a file; its text in @err (size @len). */
static int sweep_quoted(const char *seeds,
			int (*one)(unsigned long long, void *), void *arg,
			struct dmaemu_sweep_result *r, char *err, size_t len)
{
	char path[] = "/tmp/check-sweep.XXXXXX";
	int fd = mkstemp(path), saved, ret;
	ssize_t n;

	ck_assert_int_ge(fd, 0);
	fflush(stderr);
	saved = dup(STDERR_FILENO);
	dup2(fd, STDERR_FILENO);
	ret = dmaemu_sweep("./prog --case x", seeds, one, arg, r);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	n = pread(fd, err, len - 1, 0);
	err[n > 0 ? n : 0] = '\0';
	close(fd);
	unlink(path);
	return ret;
}

START_TEST(test_first_failing_seed)
{
	static const char *jobs[] = {"1", "2", "3", "7"};
	struct dmaemu_sweep_result r;
	char err[1024];
	unsigned int i;

	for (i = 0; i < sizeof(jobs) / sizeof(jobs[0]); i++) {
		settings(NULL, NULL, jobs[i]);
		ck_assert_int_eq(sweep_quoted("0-99", fails_mod17, NULL, &r,
					      err, sizeof(err)),
				 0);
		ck_assert_uint_eq(r.jobs, (unsigned int)atoi(jobs[i]));
		ck_assert_uint_eq(r.ran, 100);
		ck_assert_uint_eq(r.failed, 6);
		ck_assert_uint_eq(r.first_failed, 5);
		ck_assert_msg(strstr(err, "6 of 100 seeds failed (seeds 0-99, "
					  "shard 1/1); the first is seed 5; "
					  "replay: DMAEMU_SEEDS=5 "
					  "DMAEMU_SHARD=1/1 ./prog --case x"),
			      "jobs=%s: %s", jobs[i], err);
	}
	/* DMAEMU_SEEDS overrides the test's range; one seed alone. */
	settings("23-38", NULL, "2");
	ck_assert_int_eq(
		sweep_quoted("0-99", fails_mod17, NULL, &r, err, sizeof(err)),
		0);
	ck_assert_uint_eq(r.ran, 16);
	ck_assert_uint_eq(r.failed, 0);
	ck_assert_str_eq(err, "");
	settings("39", NULL, NULL);
	ck_assert_int_eq(
		sweep_quoted("0-99", fails_mod17, NULL, &r, err, sizeof(err)),
		0);
	ck_assert_uint_eq(r.ran, 1);
	ck_assert_uint_eq(r.jobs, 1);
	ck_assert_uint_eq(r.failed, 1);
	ck_assert_uint_eq(r.first_failed, 39);
	settings(NULL, NULL, NULL);
}
END_TEST

/* The shards of a range run each seed once, whatever the jobs. */
START_TEST(test_shards_cover_once)
{
	char path[] = "/tmp/check-sweep-seeds.XXXXXX";
	static unsigned int seen[1000];
	struct dmaemu_sweep_result r;
	unsigned long long s, total = 0;
	unsigned int k;
	char shard[16], err[256];
	FILE *f;
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	close(fd);
	for (k = 1; k <= 3; k++) {
		snprintf(shard, sizeof(shard), "%u/3", k);
		settings("100-999", shard, k == 2 ? "1" : "4");
		ck_assert_int_eq(
			sweep_quoted("0-1", record, path, &r, err, sizeof(err)),
			0);
		ck_assert_uint_eq(r.shard, k);
		ck_assert_uint_eq(r.shards, 3);
		ck_assert_uint_eq(r.ran, 300);
		total += r.ran;
	}
	ck_assert_uint_eq(total, 900);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	memset(seen, 0, sizeof(seen));
	while (fscanf(f, "%llu", &s) == 1) {
		ck_assert_uint_ge(s, 100);
		ck_assert_uint_le(s, 999);
		seen[s]++;
	}
	fclose(f);
	unlink(path);
	for (s = 100; s <= 999; s++)
		ck_assert_msg(seen[s] == 1, "seed %llu ran %u times", s,
			      seen[s]);
	/* More shards than seeds: a shard may hold none. */
	settings("0-1", "3/3", NULL);
	ck_assert_int_eq(
		sweep_quoted("0-1", fails_mod17, NULL, &r, err, sizeof(err)),
		0);
	ck_assert_uint_eq(r.ran, 0);
	ck_assert_uint_eq(r.failed, 0);
	settings(NULL, NULL, NULL);
}
END_TEST

/* A worker that dies fails the seed it was running; the others go on. */
START_TEST(test_crash_is_a_failure)
{
	struct dmaemu_sweep_result r;
	char err[1024];

	settings(NULL, NULL, "3");
	ck_assert_int_eq(
		sweep_quoted("30-89", crashes, NULL, &r, err, sizeof(err)), 0);
	ck_assert_uint_eq(r.failed, 2);
	ck_assert_uint_eq(r.first_failed, 42);
	/* The dead worker's later seeds did not run. */
	ck_assert_uint_lt(r.ran, 60);
	ck_assert_msg(strstr(err, "the first is seed 42"), "%s", err);
	settings(NULL, NULL, NULL);
}
END_TEST

START_TEST(test_machines_in_workers)
{
	struct dmaemu_sweep_result r;
	char err[512];

	settings(NULL, NULL, "2");
	ck_assert_int_eq(sweep_quoted("1-6", machine_per_seed, NULL, &r, err,
				      sizeof(err)),
			 0);
	ck_assert_uint_eq(r.ran, 6);
	ck_assert_uint_eq(r.failed, 0);
	settings(NULL, NULL, NULL);
}
END_TEST

/* Each malformed setting: -EINVAL and a line naming it. */
START_TEST(test_bad_settings)
{
	static const struct {
		const char *seeds, *shard, *jobs, *test_seeds, *says;
	} bad[] = {
		{"9-3", NULL, NULL, "0-9", "bad seeds '9-3' (DMAEMU_SEEDS)"},
		{"x", NULL, NULL, "0-9", "bad seeds 'x' (DMAEMU_SEEDS)"},
		{"3-", NULL, NULL, "0-9", "bad seeds '3-' (DMAEMU_SEEDS)"},
		{"-3", NULL, NULL, "0-9", "bad seeds '-3' (DMAEMU_SEEDS)"},
		{NULL, NULL, NULL, "seven", "bad seeds 'seven' (the test's)"},
		{NULL, "0/3", NULL, "0-9", "bad DMAEMU_SHARD '0/3'"},
		{NULL, "4/3", NULL, "0-9", "bad DMAEMU_SHARD '4/3'"},
		{NULL, "1/", NULL, "0-9", "bad DMAEMU_SHARD '1/'"},
		{NULL, "2", NULL, "0-9", "bad DMAEMU_SHARD '2'"},
		{NULL, NULL, "0", "0-9", "bad DMAEMU_JOBS '0'"},
		{NULL, NULL, "257", "0-9", "bad DMAEMU_JOBS '257'"},
		{NULL, NULL, "2x", "0-9", "bad DMAEMU_JOBS '2x'"},
	};
	struct dmaemu_sweep_result r;
	char err[512];
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		settings(bad[i].seeds, bad[i].shard, bad[i].jobs);
		ck_assert_int_eq(sweep_quoted(bad[i].test_seeds, fails_mod17,
					      NULL, &r, err, sizeof(err)),
				 -EINVAL);
		ck_assert_msg(strstr(err, bad[i].says), "case %u: '%s'", i,
			      err);
	}
	settings(NULL, NULL, NULL);
	ck_assert_int_eq(dmaemu_sweep("x", "0-9", NULL, NULL, &r), -EINVAL);
	ck_assert_int_eq(dmaemu_sweep("x", "0-9", fails_mod17, NULL, NULL),
			 -EINVAL);
}
END_TEST

static Suite *sweep_suite(void)
{
	Suite *s = suite_create("sweep");
	TCase *tc = tcase_create("sweep");

	tcase_add_test(tc, test_first_failing_seed);
	tcase_add_test(tc, test_shards_cover_once);
	tcase_add_test(tc, test_crash_is_a_failure);
	tcase_add_test(tc, test_machines_in_workers);
	tcase_add_test(tc, test_bad_settings);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(sweep_suite());
}
