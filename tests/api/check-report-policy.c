// SPDX-License-Identifier: MIT
/*
 * check-report-policy.c - the report policy options (docs/options.md,
 * "Report policy"): checks= turning check families off (no report, and
 * the check itself not made), suppressions= by kind, function and source
 * file with the count of suppressed reports and the summary at destroy,
 * report_limit= with its final line, verbosity= 0, 1 and 2, the bad
 * values and bad suppression files that make machine create fail,
 * report_fold= with the exit summary, and the values a stale read shows.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>
#include <dmaemu/context.h>
#include <dmaemu/cpu.h>
#include <dmaemu/device.h>
#include <dmaemu/machine.h>
#include <dmaemu/report.h>
#include <dmaemu/testing.h>
#include <linux/dma-mapping.h>
#include <linux/slab.h>

#include "check-run.h"
#include "fixture.h"

#ifdef HAVE_VALGRIND_VALGRIND_H
#include <valgrind/valgrind.h>
#else
#define RUNNING_ON_VALGRIND 0
#endif

/* How many times @needle occurs in @hay. */
static unsigned int occurrences(const char *hay, const char *needle)
{
	unsigned int n = 0;

	while ((hay = strstr(hay, needle))) {
		n++;
		hay += strlen(needle);
	}
	return n;
}

/* The lines of the log that start with @prefix. */
static unsigned int log_lines(const char *prefix)
{
	const char *p = fixture_log();
	unsigned int n = 0;

	while (*p) {
		if (!strncmp(p, prefix, strlen(prefix)))
			n++;
		p = strchr(p, '\n');
		if (!p)
			break;
		p++;
	}
	return n;
}

/* One bad-argument report (an error: always on), made inside an API call
 * from this function's line. */
static __attribute__((noinline)) void policy_bad_argument(
	struct dmaemu_machine *m)
{
	ck_assert_int_eq(dmaemu_machine_info(m, NULL), -EINVAL);
	__asm__ volatile("" ::: "memory"); /* keep the call not a tail call */
}

/* A stale-cpu-read of 4 bytes of a kmalloc() buffer's line: the CPU
 * caches the line, DRAM changes behind it, the CPU reads it again. */
static void stale_read(struct dmaemu_machine *m)
{
	uint8_t *buf = kmalloc(64, GFP_KERNEL), back[8], fresh[4];
	static uint8_t value;
	uint64_t phys;

	/* New bytes each time, whatever DRAM held. */
	if (!++value)
		++value;
	memset(fresh, value, sizeof(fresh));

	ck_assert_ptr_nonnull(buf);
	ck_assert_int_eq(fixture_region(buf, &phys), DMAEMU_REGION_LINEAR);
	ck_assert_int_eq(dmaemu_cpu_read(back, buf, 8), 0);
	ck_assert_int_eq(dmaemu_dram_write(m, phys + 4, fresh, 4), 0);
	ck_assert_int_eq(dmaemu_cpu_read(back, buf, 8), 0);
	/* The next buffer may be this one: take the stale line out. */
	ck_assert_int_eq(dmaemu_cache_invalidate(m, phys & ~63ULL, 64), 0);
	kfree(buf);
}

static uint64_t stale_reads(struct dmaemu_machine *m)
{
	struct dmaemu_cpu_stats st;

	ck_assert_int_eq(dmaemu_cpu_stats(m, 0, &st), 0);
	return st.stale_reads;
}

static uint64_t fast_hits(struct dmaemu_machine *m)
{
	struct dmaemu_cpu_stats st;

	ck_assert_int_eq(dmaemu_cpu_stats(m, 0, &st), 0);
	return st.fast_hits;
}

/*
 * The CPU reads a DMA_FROM_DEVICE buffer the device owns, 8 bytes, then
 * 8 more bytes of the same line: two cpu-access-device-owned reports (two
 * access sites) when the ownership check is made.  Return: the
 * fast-path hits of the second read (the check keeps a device-owned line
 * off the fast path).
 */
static uint64_t read_device_owned(struct dmaemu_machine *m, struct device *dev)
{
	uint8_t *buf = kmalloc(256, GFP_KERNEL), back[8];
	dma_addr_t h;
	uint64_t before;

	ck_assert_ptr_nonnull(buf);
	h = dma_map_single(dev, buf, 256, DMA_FROM_DEVICE);
	ck_assert(!dma_mapping_error(dev, h));
	ck_assert_int_eq(dmaemu_cpu_read(back, buf, 8), 0);
	before = fast_hits(m);
	ck_assert_int_eq(dmaemu_cpu_read(back, buf + 8, 8), 0);
	before = fast_hits(m) - before;
	dma_unmap_single(dev, h, 256, DMA_FROM_DEVICE);
	kfree(buf);
	return before;
}

/* The device writes a mapped buffer the CPU owns (synced for the CPU,
 * written, and not given back): device-access-cpu-owned. */
static void device_writes_cpu_owned(struct dmaemu_device *dd)
{
	struct device *dev = dmaemu_device_to_dev(dd);
	uint8_t *buf = kmalloc(256, GFP_KERNEL), data[8] = {7};
	dma_addr_t h;

	ck_assert_ptr_nonnull(buf);
	h = dma_map_single(dev, buf, 256, DMA_FROM_DEVICE);
	ck_assert(!dma_mapping_error(dev, h));
	dma_sync_single_for_cpu(dev, h, 256, DMA_FROM_DEVICE);
	buf[0] = 9; /* the CPU writes it: the line is not given back */
	ck_assert_int_eq(dmaemu_dma_write(dd, h, data, 8), 0);
	dma_sync_single_for_device(dev, h, 256, DMA_FROM_DEVICE);
	dma_unmap_single(dev, h, 256, DMA_FROM_DEVICE);
	kfree(buf);
}

/* The CPU dirties DMA_ATTR_NON_CONSISTENT memory and the device reads it
 * with no dma_cache_sync() (arm64): stale-device-read. */
static void device_reads_dirty(struct dmaemu_device *dd)
{
	const unsigned long nc = DMA_ATTR_NON_CONSISTENT;
	struct device *dev = dmaemu_device_to_dev(dd);
	dma_addr_t h;
	uint8_t *buf = dma_alloc_attrs(dev, 4096, &h, GFP_KERNEL, nc);
	uint8_t data[64];

	ck_assert_ptr_nonnull(buf);
	memset(data, 0x5a, sizeof(data));
	ck_assert_int_eq(dmaemu_cpu_write(buf, data, 64), 0);
	ck_assert_int_eq(dmaemu_dma_read(dd, h, data, 64), 0);
	dma_free_attrs(dev, 4096, buf, h, nc);
}

/* A device destroyed with a live mapping: leaked-mapping (api). */
static void leak_mapping(struct dmaemu_machine *m)
{
	struct dmaemu_device *dd = dmaemu_device_create(m, "leaky", NULL, NULL);
	struct device *dev;
	void *buf = kmalloc(64, GFP_KERNEL);
	dma_addr_t h;

	ck_assert_ptr_nonnull(dd);
	ck_assert_ptr_nonnull(buf);
	dev = dmaemu_device_to_dev(dd);
	h = dma_map_single(dev, buf, 64, DMA_TO_DEVICE);
	ck_assert(!dma_mapping_error(dev, h));
	dmaemu_device_destroy(dd);
	kfree(buf);
}

/* Might sleep with interrupts off: sleep-in-atomic (platform). */
static void sleep_in_atomic(void)
{
	unsigned long flags = dmaemu_irq_save();

	ck_assert(!dmaemu_might_sleep("policy_test"));
	dmaemu_irq_restore(flags);
}

static void option_is(struct dmaemu_machine *m, const char *key,
		      const char *want)
{
	char buf[256];

	ck_assert_int_eq(dmaemu_machine_option(m, key, buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, want);
}

/* ---------------------------------------------------------------------- */
/* Option values                                                          */
/* ---------------------------------------------------------------------- */

START_TEST(test_option_values)
{
	static const struct {
		const char *set, *shown;
	} cases[] = {
		{"checks=all", "all"},
		{"checks=none", "none"},
		{"checks=-coherence", "api,platform"},
		{"checks=-api", "coherence,platform"},
		{"checks=-platform,-api", "coherence"},
		{"checks=coherence", "coherence"},
		{"checks=platform,api", "api,platform"},
		{"checks=none,+api", "api"},
		{"checks=-all", "none"},
		{"checks=all,-coherence,+coherence", "all"},
	};
	struct dmaemu_machine *m = fixture_machine("mem=16M");
	unsigned int i;

	option_is(m, "checks", "all");
	option_is(m, "verbosity", "1");
	option_is(m, "report_limit", "0");
	option_is(m, "suppressions", "");
	dmaemu_machine_destroy(m);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char again[64];

		m = fixture_machine("mem=16M:%s", cases[i].set);
		option_is(m, "checks", cases[i].shown);
		dmaemu_machine_destroy(m);
		/* What is shown parses back to the same set. */
		snprintf(again, sizeof(again), "checks=%s", cases[i].shown);
		m = fixture_machine("mem=16M:%s", again);
		option_is(m, "checks", cases[i].shown);
		dmaemu_machine_destroy(m);
	}
	m = fixture_machine("mem=16M:verbosity=0:report_limit=7");
	option_is(m, "verbosity", "0");
	option_is(m, "report_limit", "7");
	dmaemu_machine_destroy(m);
}
END_TEST

/*
 * Make a machine with @options, expecting it to fail: the one line it
 * printed on stderr, in @msg.
 */
static void create_fails(const char *options, char *msg, size_t len)
{
	FILE *err = tmpfile();
	int saved = dup(2);
	struct dmaemu_machine *m;
	size_t n;

	ck_assert_ptr_nonnull(err);
	ck_assert_int_ge(saved, 0);
	fflush(stderr);
	ck_assert_int_eq(dup2(fileno(err), 2), 2);
	unsetenv("DMAEMU_OPTIONS");
	m = dmaemu_machine_create(options);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	if (m)
		dmaemu_machine_destroy(m);
	ck_assert_msg(!m, "'%s' made a machine", options);
	rewind(err);
	n = fread(msg, 1, len - 1, err);
	msg[n] = '\0';
	fclose(err);
	ck_assert_msg(occurrences(msg, "\n") == 1, "not one line: %s", msg);
}

START_TEST(test_bad_values)
{
	static const char *const bad[] = {
		"checks=",	     "checks=bogus",
		"checks=-",	     "checks=api,,platform",
		"checks=coherence,", "checks=+Api",
		"verbosity=3",	     "verbosity=x",
		"report_limit=-1",   "report_limit=x",
	};
	char msg[1024], want[256];
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *eq = strchr(bad[i], '=');

		create_fails(bad[i], msg, sizeof(msg));
		snprintf(want, sizeof(want),
			 "dmaemu: options: bad value '%s' for '%.*s' (", eq + 1,
			 (int)(eq - bad[i]), bad[i]);
		ck_assert_msg(!strncmp(msg, want, strlen(want)), "%s: %s",
			      bad[i], msg);
	}
	create_fails("checks=bogus", msg, sizeof(msg));
	ck_assert_ptr_nonnull(strstr(msg, "api, coherence, platform"));
	create_fails("verbosity=3", msg, sizeof(msg));
	ck_assert_ptr_nonnull(strstr(msg, "(out of range)"));
}
END_TEST

/* A suppressions file with @text, its path in @path (PATH_MAX). */
static void supp_file(char *path, size_t len, const char *text)
{
	int fd;
	FILE *f;

	snprintf(path, len, "%s/policy-XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

START_TEST(test_bad_suppressions)
{
	static const struct {
		const char *text;
		unsigned int line;
		const char *why;
	} bad[] = {
		{"# ok\n\nfoo:bar\n", 3,
		 "unknown rule type 'foo' in 'foo:bar' (expected kind:, fun: "
		 "or src:)"},
		{"kind:stale-cpu-read\nstale-cpu-read\n", 2,
		 "'stale-cpu-read' is not TYPE:GLOB (kind:, fun: or src:)"},
		{"fun:\n", 1, "empty pattern in 'fun:'"},
		{"  kind:stale-cpu-raed  # typo\n", 1,
		 "'kind:stale-cpu-raed' matches no report kind"},
		{"kind:* fun:a src:b fun:c src:d\n", 1,
		 "more than 4 terms in a rule"},
	};
	char path[512], opts[600], msg[1024], want[1024];
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		supp_file(path, sizeof(path), bad[i].text);
		snprintf(opts, sizeof(opts), "mem=16M:suppressions=%s", path);
		create_fails(opts, msg, sizeof(msg));
		snprintf(want, sizeof(want),
			 "dmaemu: options: suppressions file %s:%u: %s\n", path,
			 bad[i].line, bad[i].why);
		ck_assert_str_eq(msg, want);
		unlink(path);
	}
	/* A file that cannot be read. */
	snprintf(opts, sizeof(opts), "suppressions=%s", path);
	create_fails(opts, msg, sizeof(msg));
	snprintf(want, sizeof(want),
		 "dmaemu: options: cannot open suppressions file '%s': %s\n",
		 path, strerror(ENOENT));
	ck_assert_str_eq(msg, want);
	/* From the environment, the message names it. */
	supp_file(path, sizeof(path), "kind:nothing-like-this\n");
	setenv("DMAEMU_OPTIONS", "", 1);
	{
		FILE *err = tmpfile();
		int saved = dup(2);
		struct dmaemu_machine *m;
		size_t n;

		snprintf(opts, sizeof(opts), "suppressions=%s", path);
		setenv("DMAEMU_OPTIONS", opts, 1);
		fflush(stderr);
		dup2(fileno(err), 2);
		m = dmaemu_machine_create("mem=16M");
		fflush(stderr);
		dup2(saved, 2);
		close(saved);
		unsetenv("DMAEMU_OPTIONS");
		ck_assert_ptr_null(m);
		rewind(err);
		n = fread(msg, 1, sizeof(msg) - 1, err);
		msg[n] = '\0';
		fclose(err);
		snprintf(want, sizeof(want),
			 "dmaemu: DMAEMU_OPTIONS: suppressions file %s:1: "
			 "'kind:nothing-like-this' matches no report kind\n",
			 path);
		ck_assert_str_eq(msg, want);
	}
	unlink(path);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Suppressions                                                           */
/* ---------------------------------------------------------------------- */

START_TEST(test_suppress_kind)
{
	char path[512], want[1200];
	struct dmaemu_machine *m;
	struct dmaemu_report r;

	supp_file(path, sizeof(path),
		  "# stale reads are made on purpose here\n"
		  "\n"
		  "   kind:stale-*-read   # both sides\n");
	m = fixture_machine("mem=16M:suppressions=%s", path);
	stale_read(m);
	stale_read(m);
	policy_bad_argument(m);
	/* Suppressed: not counted as reports, not printed, not recorded. */
	ck_assert_uint_eq(dmaemu_report_suppressed(m, "stale-cpu-read"), 2);
	ck_assert_uint_eq(dmaemu_report_suppressed(m, NULL), 2);
	ck_assert_uint_eq(dmaemu_report_suppressed(m, "bad-argument"), 0);
	ck_assert_uint_eq(dmaemu_report_suppressed(m, "no-such-kind"), 0);
	ck_assert_uint_eq(dmaemu_report_count(m, "stale-cpu-read"), 0);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 1);
	ck_assert_uint_eq(dmaemu_report_kept(m), 1);
	ck_assert_int_eq(dmaemu_report_get(m, 0, &r), 0);
	ck_assert_int_eq(r.kind, DMAEMU_REPORT_BAD_ARGUMENT);
	ck_assert_ptr_null(strstr(fixture_log(), "stale-cpu-read"));
	ck_assert_uint_eq(log_lines("SUMMARY: dmaemu: bad-argument"), 1);
	/* The check was made: the model counted the stale reads. */
	ck_assert_uint_eq(stale_reads(m), 2);
	/* Reset zeroes the suppressed counts too. */
	dmaemu_report_reset(m);
	ck_assert_uint_eq(dmaemu_report_suppressed(m, NULL), 0);
	stale_read(m);
	ck_assert_uint_eq(dmaemu_report_suppressed(m, NULL), 1);
	dmaemu_machine_destroy(m);
	/* Destroy sums up what each rule matched over the machine's life. */
	snprintf(want, sizeof(want),
		 "==%d==dmaemu: suppressions=%s: 3 reports suppressed\n"
		 "==%d==dmaemu:   3 by %s:3: kind:stale-*-read\n",
		 (int)getpid(), path, (int)getpid(), path);
	ck_assert_ptr_nonnull(strstr(fixture_log(), want));
	unlink(path);
}
END_TEST

/* fun: and src: match the frames a report names: here the "at" line of a
 * bad-argument report made inside an API call (this file is built with
 * -g; without line information only fun: can match). */
START_TEST(test_suppress_fun_src)
{
	static const struct {
		const char *rule;
		bool suppressed;
	} cases[] = {
		{"fun:policy_bad_argument\n", true},
		{"fun:policy_*\n", true},
		{"fun:other_function\n", false},
		{"src:*check-report-policy.c\n", true},
		{"src:*other-file.c\n", false},
		{"kind:bad-argument fun:policy_bad_argument\n", true},
		{"kind:stale-cpu-read fun:policy_bad_argument\n", false},
		{"fun:nothing\nkind:bad-*\n", true},
	};
	char path[512];
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct dmaemu_machine *m;

#ifdef DMAEMU_SANITIZER
		/* An ASan or TSan build finds no frame of this test on the
		 * reporting thread's stack (the report names no site), so a
		 * fun: or src: rule cannot match there: only the rules that
		 * must not suppress are checked. */
		if (cases[i].suppressed &&
		    (strstr(cases[i].rule, "fun:") ||
		     strstr(cases[i].rule, "src:")) &&
		    !strstr(cases[i].rule, "kind:bad-*"))
			continue;
#endif
		supp_file(path, sizeof(path), cases[i].rule);
		m = fixture_machine("mem=16M:suppressions=%s", path);
		fixture_log_clear();
		policy_bad_argument(m);
		ck_assert_msg(dmaemu_report_suppressed(m, "bad-argument") ==
				      (cases[i].suppressed ? 1 : 0),
			      "rule %s", cases[i].rule);
		ck_assert_uint_eq(dmaemu_report_count(m, NULL),
				  cases[i].suppressed ? 0 : 1);
		ck_assert_uint_eq(log_lines("SUMMARY: dmaemu: bad-argument"),
				  cases[i].suppressed ? 0 : 1);
		dmaemu_machine_destroy(m);
		unlink(path);
	}
}
END_TEST

/*
 * A suppressions file written on Windows: CRLF line ends, a blank line
 * that is only "\r", terms separated by a tab, and a last line with no
 * line end at all.  Every rule reads as its LF twin would: none is
 * refused, each matches what it says, and the summary names each rule
 * without the "\r".
 */
START_TEST(test_suppress_crlf)
{
	char path[512], want[1200];
	struct dmaemu_machine *m;

	supp_file(path, sizeof(path),
		  "# written with CRLF line ends\r\n"
		  "\r\n"
		  "kind:stale-*-read\r\n"
		  "kind:bad-argument\tfun:policy_bad_argument\r\n"
		  "kind:lost-cpu-write");
	m = fixture_machine("mem=16M:suppressions=%s", path);
	fixture_log_clear();
	stale_read(m);
	stale_read(m);
	ck_assert_uint_eq(dmaemu_report_suppressed(m, "stale-cpu-read"), 2);
#ifndef DMAEMU_SANITIZER
	/* (A sanitizer build finds no frame of this test: see above.) */
	policy_bad_argument(m);
	ck_assert_uint_eq(dmaemu_report_suppressed(m, "bad-argument"), 1);
#endif
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 0);
	dmaemu_machine_destroy(m);
	snprintf(want, sizeof(want),
		 "==%d==dmaemu:   2 by %s:3: "
		 "kind:stale-*-read\n",
		 (int)getpid(), path);
	ck_assert_ptr_nonnull(strstr(fixture_log(), want));
#ifndef DMAEMU_SANITIZER
	snprintf(want, sizeof(want),
		 "==%d==dmaemu:   1 by %s:4: "
		 "kind:bad-argument fun:policy_bad_argument\n",
		 (int)getpid(), path);
	ck_assert_ptr_nonnull(strstr(fixture_log(), want));
#endif
	ck_assert_ptr_null(strchr(fixture_log(), '\r'));
	unlink(path);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* report_limit and verbosity                                             */
/* ---------------------------------------------------------------------- */

START_TEST(test_report_limit)
{
	struct dmaemu_machine *m = fixture_machine("mem=16M:report_limit=2");
	char want[200];
	unsigned int i;

	for (i = 0; i < 5; i++)
		policy_bad_argument(m);
	/* All counted and recorded, two printed. */
	ck_assert_uint_eq(dmaemu_report_count(m, "bad-argument"), 5);
	ck_assert_uint_eq(dmaemu_report_kept(m), 5);
	ck_assert_uint_eq(log_lines("SUMMARY: dmaemu: bad-argument"), 2);
	ck_assert_uint_eq(occurrences(fixture_log(), "==ERROR: dmaemu:"), 2);
	ck_assert_ptr_null(strstr(fixture_log(), "report_limit"));
	dmaemu_machine_destroy(m);
	snprintf(want, sizeof(want),
		 "==%d==dmaemu: report_limit=2: 3 more reports counted and not "
		 "printed\n",
		 (int)getpid());
	ck_assert_ptr_nonnull(strstr(fixture_log(), want));

	/* Under the limit: no final line. */
	fixture_log_clear();
	m = fixture_machine("mem=16M:report_limit=2");
	policy_bad_argument(m);
	dmaemu_machine_destroy(m);
	ck_assert_ptr_null(strstr(fixture_log(), "report_limit"));
	/* One more than the limit: "1 more report". */
	fixture_log_clear();
	m = fixture_machine("mem=16M:report_limit=1");
	policy_bad_argument(m);
	policy_bad_argument(m);
	dmaemu_machine_destroy(m);
	ck_assert_ptr_nonnull(strstr(
		fixture_log(),
		"report_limit=1: 1 more report counted and not printed"));
}
END_TEST

START_TEST(test_verbosity)
{
	struct dmaemu_machine *m;
	struct dmaemu_device *dd;
	struct dmaemu_report r;
	uint8_t tmp[4];

	/* 0: the headline and the SUMMARY line, also in the record. */
	m = fixture_machine("mem=16M:verbosity=0");
	stale_read(m);
	ck_assert_int_eq(dmaemu_report_get(m, 0, &r), 0);
	ck_assert_uint_eq(occurrences(r.text, "\n"), 2);
	ck_assert(!strncmp(strchr(r.text, '\n') + 1,
			   "SUMMARY: dmaemu: stale-cpu-read", 31));
	ck_assert_str_eq(fixture_log(), r.text);
	dmaemu_machine_destroy(m);

	/* 1: the byte mask and the "at" line too. */
	fixture_log_clear();
	m = fixture_machine("mem=16M");
	stale_read(m);
	ck_assert_int_eq(dmaemu_report_get(m, 0, &r), 0);
	ck_assert_ptr_nonnull(strstr(r.text, "\n    bytes 4-7 of line "));
	ck_assert_ptr_nonnull(strstr(r.text, "\n    at "));
	ck_assert_uint_ge(occurrences(r.text, "\n"), 4);
	/* A report that names no call (a device access's bad argument on
	 * this thread) has no stack at verbosity=1... */
	dd = dmaemu_device_create(m, "dev", NULL, NULL);
	ck_assert_ptr_nonnull(dd);
	ck_assert_int_eq(dmaemu_dma_read(dd, 0, NULL, 4), -EINVAL);
	ck_assert_int_eq(dmaemu_report_get(m, 1, &r), 0);
	ck_assert_int_eq(r.kind, DMAEMU_REPORT_BAD_ARGUMENT);
	ck_assert_ptr_null(strstr(r.text, "\n    stack:\n"));
	ck_assert_uint_eq(occurrences(r.text, "\n"), 2);
	dmaemu_device_destroy(dd);
	dmaemu_machine_destroy(m);

	/* ...and has the thread's stack at 2, from this test's frame (under
	 * Valgrind, Valgrind prints it on its own log). */
	fixture_log_clear();
	m = fixture_machine("mem=16M:verbosity=2");
	dd = dmaemu_device_create(m, "dev", NULL, NULL);
	ck_assert_ptr_nonnull(dd);
	ck_assert_int_eq(dmaemu_dma_read(dd, 0, NULL, 4), -EINVAL);
	ck_assert_int_eq(dmaemu_report_get(m, 0, &r), 0);
	if (!RUNNING_ON_VALGRIND) {
		ck_assert_msg(strstr(r.text, "\n    stack:\n    by "), "%s",
			      r.text);
		ck_assert_msg(strstr(r.text, "    by test_verbosity_fn "), "%s",
			      r.text);
	} else {
		ck_assert_uint_eq(occurrences(r.text, "\n"), 2);
	}
	dmaemu_device_destroy(dd);
	dmaemu_machine_destroy(m);
	(void)tmp;
}
END_TEST

/* ---------------------------------------------------------------------- */
/* checks=                                                                */
/* ---------------------------------------------------------------------- */

/* Every family's reports made once on @m; the counts in @n. */
struct made {
	uint64_t stale, own, dev_own, stale_dev, leak, sleep, bad, fast;
};

static void make_all(struct dmaemu_machine *m, struct made *n)
{
	struct dmaemu_device *dd = dmaemu_device_create(m, "nic0", NULL, NULL);

	ck_assert_ptr_nonnull(dd);
	stale_read(m);
	n->fast = read_device_owned(m, dmaemu_device_to_dev(dd));
	device_writes_cpu_owned(dd);
	device_reads_dirty(dd);
	leak_mapping(m);
	sleep_in_atomic();
	policy_bad_argument(m);
	dmaemu_device_destroy(dd);
	n->stale = dmaemu_report_count(m, "stale-cpu-read");
	n->own = dmaemu_report_count(m, "cpu-access-device-owned");
	n->dev_own = dmaemu_report_count(m, "device-access-cpu-owned");
	n->stale_dev = dmaemu_report_count(m, "stale-device-read");
	n->leak = dmaemu_report_count(m, "leaked-mapping");
	n->sleep = dmaemu_report_count(m, "sleep-in-atomic");
	n->bad = dmaemu_report_count(m, "bad-argument");
}

START_TEST(test_checks_all)
{
	struct dmaemu_machine *m = fixture_machine("profile=arm64:mem=16M");
	struct made n;

	make_all(m, &n);
	ck_assert_uint_eq(n.stale, 1);
	ck_assert_uint_eq(n.own, 2);
	ck_assert_uint_eq(n.dev_own, 1);
	ck_assert_uint_eq(n.stale_dev, 1);
	ck_assert_uint_eq(n.leak, 1);
	ck_assert_uint_eq(n.sleep, 1);
	ck_assert_uint_eq(n.bad, 1);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 8);
	/* The ownership check keeps the device-owned line off the fast
	 * path; the model counted the stale read. */
	ck_assert_uint_eq(n.fast, 0);
	ck_assert_uint_eq(stale_reads(m), 1);
	dmaemu_machine_destroy(m);
}
END_TEST

START_TEST(test_checks_no_coherence)
{
	struct dmaemu_machine *m =
		fixture_machine("profile=arm64:mem=16M:checks=-coherence");
	struct made n;

	make_all(m, &n);
	ck_assert_uint_eq(n.stale, 0);
	ck_assert_uint_eq(n.own, 0);
	ck_assert_uint_eq(n.dev_own, 0);
	ck_assert_uint_eq(n.stale_dev, 0);
	ck_assert_uint_eq(n.leak, 1);
	ck_assert_uint_eq(n.sleep, 1);
	ck_assert_uint_eq(n.bad, 1);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 3);
	ck_assert_uint_eq(dmaemu_report_suppressed(m, NULL), 0);
	/* Not done, not just not printed: no stale read was looked for, and
	 * the device-owned line took the fast path. */
	ck_assert_uint_eq(stale_reads(m), 0);
	ck_assert_uint_ge(n.fast, 1);
	ck_assert_ptr_null(strstr(fixture_log(), "stale-"));
	ck_assert_ptr_null(strstr(fixture_log(), "-owned"));
	dmaemu_machine_destroy(m);
}
END_TEST

START_TEST(test_checks_no_api)
{
	struct dmaemu_machine *m =
		fixture_machine("profile=arm64:mem=16M:checks=-api");
	struct made n;

	make_all(m, &n);
	ck_assert_uint_eq(n.leak, 0);
	ck_assert_uint_eq(n.stale + n.own + n.dev_own + n.stale_dev, 5);
	ck_assert_uint_eq(n.sleep, 1);
	ck_assert_uint_eq(n.bad, 1);
	ck_assert_ptr_null(strstr(fixture_log(), "leaked-mapping"));
	dmaemu_machine_destroy(m);
}
END_TEST

START_TEST(test_checks_no_platform)
{
	struct dmaemu_machine *m =
		fixture_machine("profile=arm64:mem=16M:checks=-platform");
	struct made n;

	make_all(m, &n);
	ck_assert_uint_eq(n.sleep, 0);
	ck_assert_uint_eq(n.leak, 1);
	ck_assert_uint_eq(n.stale + n.own + n.dev_own + n.stale_dev, 5);
	ck_assert_uint_eq(n.bad, 1);
	dmaemu_machine_destroy(m);
}
END_TEST

/* checks=none: no checker reports; errors still are. */
START_TEST(test_checks_none)
{
	struct dmaemu_machine *m =
		fixture_machine("profile=arm64:mem=16M:checks=none");
	struct made n;

	make_all(m, &n);
	ck_assert_uint_eq(n.bad, 1);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 1);
	ck_assert_uint_eq(stale_reads(m), 0);
	ck_assert_uint_eq(log_lines("SUMMARY: dmaemu: "), 1);
	dmaemu_machine_destroy(m);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* report_fold and the exit summary                                       */
/* ---------------------------------------------------------------------- */

#define RING 16

/* The ring's buffers are all mapped here. */
static __attribute__((noinline)) dma_addr_t ring_map(struct device *dev,
						     void *buf)
{
	dma_addr_t h = dma_map_single(dev, buf, 256, DMA_FROM_DEVICE);

	__asm__ volatile("" ::: "memory");
	return h;
}

/* The ring driver's one bug: the CPU reads a buffer the device owns (no
 * dma_sync_single_for_cpu()), at this one line, for every buffer. */
static __attribute__((noinline)) void ring_peek(const uint8_t *buf)
{
	uint8_t b[8];

	ck_assert_int_eq(dmaemu_cpu_read(b, buf, 8), 0);
	__asm__ volatile("" ::: "memory");
}

/* Another line with the same bug. */
static __attribute__((noinline)) void ring_peek_other(const uint8_t *buf)
{
	uint8_t b[8];

	ck_assert_int_eq(dmaemu_cpu_read(b, buf + 16, 8), 0);
	__asm__ volatile("" ::: "memory");
}

/* RING buffers mapped, each read once by ring_peek() (and, when @other,
 * once by ring_peek_other()), unmapped. */
static void ring_bug(struct dmaemu_machine *m, bool other)
{
	struct dmaemu_device *dd = dmaemu_device_create(m, "ring0", NULL, NULL);
	uint8_t *buf[RING];
	dma_addr_t h[RING];
	struct device *dev;
	unsigned int i;

	ck_assert_ptr_nonnull(dd);
	dev = dmaemu_device_to_dev(dd);
	for (i = 0; i < RING; i++) {
		buf[i] = kmalloc(256, GFP_KERNEL);
		ck_assert_ptr_nonnull(buf[i]);
		h[i] = ring_map(dev, buf[i]);
		ck_assert(!dma_mapping_error(dev, h[i]));
	}
	for (i = 0; i < RING; i++) {
		ring_peek(buf[i]);
		if (other)
			ring_peek_other(buf[i]);
	}
	for (i = 0; i < RING; i++) {
		dma_unmap_single(dev, h[i], 256, DMA_FROM_DEVICE);
		kfree(buf[i]);
	}
	dmaemu_device_destroy(dd);
}

/* The place the first printed SUMMARY line of @kind names, in @buf. */
static void summary_place(const char *kind, char *buf, size_t len)
{
	char want[128];
	const char *p, *eol;

	snprintf(want, sizeof(want), "SUMMARY: dmaemu: %s ", kind);
	p = strstr(fixture_log(), want);
	ck_assert_ptr_nonnull(p);
	p += strlen(want);
	eol = strchr(p, '\n');
	ck_assert_ptr_nonnull(eol);
	ck_assert_uint_lt((size_t)(eol - p), len);
	snprintf(buf, len, "%.*s", (int)(eol - p), p);
}

static unsigned int callback_calls;

static void count_callback(struct dmaemu_machine *m,
			   const struct dmaemu_report *r, void *arg)
{
	(void)m;
	(void)r;
	(void)arg;
	__atomic_fetch_add(&callback_calls, 1, __ATOMIC_RELAXED);
}

/*
 * One bug of a ring driver: one report printed, the other RING - 1
 * folded into it (counted, recorded, handed to the callback); the exit
 * summary says how many and over how many mappings.  report_fold=0 prints
 * every one, as before folding.
 */
START_TEST(test_fold_ring)
{
	struct dmaemu_machine *m = fixture_machine("profile=arm64:mem=16M");
	char place[512], want[1024];

	option_is(m, "report_fold", "1");
	callback_calls = 0;
	ck_assert_int_eq(dmaemu_report_set_callback(m, count_callback, NULL),
			 0);
	ring_bug(m, false);
	ck_assert_uint_eq(dmaemu_report_count(m, "cpu-access-device-owned"),
			  RING);
	ck_assert_uint_eq(dmaemu_report_kept(m), RING);
	ck_assert_uint_eq(callback_calls, RING);
	ck_assert_uint_eq(log_lines("SUMMARY: dmaemu: "), 1);
	ck_assert_uint_eq(occurrences(fixture_log(), "==ERROR: dmaemu:"), 1);
	summary_place("cpu-access-device-owned", place, sizeof(place));
	ck_assert_ptr_nonnull(strstr(place, " in ring_peek"));
	ck_assert_ptr_null(strstr(fixture_log(), "ERROR SUMMARY"));
	dmaemu_machine_destroy(m);
	ck_assert_ptr_nonnull(strstr(
		fixture_log(),
		"dmaemu: ERROR SUMMARY: 16 reports of 1 kind: 1 printed, "
		"15 folded (report_fold=0 prints each)\n"));
	snprintf(want, sizeof(want),
		 "dmaemu:   16 cpu-access-device-owned at 1 driver line, first "
		 "at %s: 1 printed, 15 folded, over 16 mappings\n",
		 place);
	ck_assert_ptr_nonnull(strstr(fixture_log(), want));
	ck_assert_uint_eq(log_lines("SUMMARY: dmaemu: "), 1);

	/* Two lines with the bug: two printed, each with its repeats. */
	fixture_log_clear();
	m = fixture_machine("profile=arm64:mem=16M");
	ring_bug(m, true);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 2 * RING);
	ck_assert_uint_eq(log_lines("SUMMARY: dmaemu: "), 2);
	dmaemu_machine_destroy(m);
	ck_assert_ptr_nonnull(strstr(
		fixture_log(),
		"dmaemu: ERROR SUMMARY: 32 reports of 1 kind: 2 printed, "
		"30 folded (report_fold=0 prints each)\n"));
	snprintf(
		want, sizeof(want),
		"dmaemu:   32 cpu-access-device-owned at 2 driver lines, first "
		"at %s: 2 printed, 30 folded, over 16 mappings\n",
		place);
	ck_assert_ptr_nonnull(strstr(fixture_log(), want));

	/* report_fold=0: every report printed, as before. */
	fixture_log_clear();
	m = fixture_machine("profile=arm64:mem=16M:report_fold=0");
	option_is(m, "report_fold", "0");
	ring_bug(m, false);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), RING);
	ck_assert_uint_eq(log_lines("SUMMARY: dmaemu: "), RING);
	ck_assert_uint_eq(occurrences(fixture_log(), "==ERROR: dmaemu:"), RING);
	dmaemu_machine_destroy(m);
	ck_assert_ptr_nonnull(strstr(fixture_log(),
				     "dmaemu: ERROR SUMMARY: 16 reports of 1 "
				     "kind: 16 printed, 0 folded\n"));
	ck_assert_ptr_null(strstr(fixture_log(), "report_fold=0 prints"));
}
END_TEST

/*
 * Folding comes before report_limit: a folded report is not one of the
 * limit's; a report with no driver line (a bare SUMMARY) is never folded.
 */
START_TEST(test_fold_limit)
{
	struct dmaemu_machine *m =
		fixture_machine("profile=arm64:mem=16M:report_limit=2");

	ring_bug(m, false); /* 1 printed, 15 folded */
	policy_bad_argument(m);
	policy_bad_argument(m); /* past the limit */
	ck_assert_uint_eq(log_lines("SUMMARY: dmaemu: "), 2);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), RING + 2);
	dmaemu_machine_destroy(m);
	ck_assert_ptr_nonnull(strstr(
		fixture_log(),
		"report_limit=2: 1 more report counted and not printed\n"));
	ck_assert_ptr_nonnull(strstr(
		fixture_log(),
		"dmaemu: ERROR SUMMARY: 18 reports of 2 kinds: 2 printed, "
		"15 folded (report_fold=0 prints each), 1 past "
		"report_limit\n"));
	ck_assert_ptr_nonnull(strstr(fixture_log(),
				     "dmaemu:   2 bad-argument, no driver "
				     "line: 1 printed, 0 folded\n"));
}
END_TEST

/* No report, no summary. */
START_TEST(test_summary_none)
{
	struct dmaemu_machine *m = fixture_machine("profile=arm64:mem=16M");

	dmaemu_machine_destroy(m);
	ck_assert_str_eq(fixture_log(), "");
}
END_TEST

/*
 * The values of a stale read: the byte the CPU read from its stale copy,
 * and the byte memory holds.
 */
START_TEST(test_stale_values)
{
	struct dmaemu_machine *m = fixture_machine("profile=arm64:mem=16M");
	struct dmaemu_report r;
	char want[160];
	const char *v;
	unsigned int i;

	stale_read(m);
	ck_assert_int_eq(dmaemu_report_get(m, 0, &r), 0);
	snprintf(want, sizeof(want),
		 "    values of 4 bytes from phys 0x%llx:\n",
		 (unsigned long long)r.phys);
	v = strstr(fixture_log(), want);
	ck_assert_ptr_nonnull(v);
	v += strlen(want);
	ck_assert(!strncmp(v, "      the CPU read  ", 20));
	/* What memory holds: the 4 bytes written behind the CPU, alike;
	 * what the CPU read: its copy, something else. */
	v = strchr(v, '\n') + 1;
	ck_assert(!strncmp(v, "      memory holds  ", 20));
	v += 20;
	for (i = 1; i < 4; i++)
		ck_assert(!strncmp(v, v + 3 * i, 2));
	ck_assert(strncmp(strstr(fixture_log(), "the CPU read  ") + 14, v, 11));
	ck_assert_ptr_nonnull(strstr(r.text, want));
	dmaemu_machine_destroy(m);
}
END_TEST

/*
 * log_stable=1: no PID, and the host address of the CPU's buffer printed
 * as the emulated address it stands for, in the log and the record.
 */
START_TEST(test_log_stable)
{
	struct dmaemu_machine *m =
		fixture_machine("profile=arm64:mem=16M:log_stable=1");
	struct dmaemu_report r;
	char want[128], pid[32];

	option_is(m, "log_stable", "1");
	stale_read(m);
	ck_assert_int_eq(dmaemu_report_get(m, 0, &r), 0);
	ck_assert_msg(!strncmp(fixture_log(),
			       "==dmaemu==ERROR: dmaemu: stale-cpu-read: read "
			       "of 8 bytes at [phys 0x",
			       68),
		      "%s", fixture_log());
	snprintf(want, sizeof(want), "at [phys 0x%llx] (phys 0x%llx)",
		 (unsigned long long)(r.phys & ~63ULL),
		 (unsigned long long)(r.phys & ~63ULL));
	ck_assert_ptr_nonnull(strstr(fixture_log(), want));
	ck_assert_ptr_nonnull(strstr(r.text, want));
	dmaemu_machine_destroy(m);
	snprintf(pid, sizeof(pid), "==%d==", (int)getpid());
	ck_assert_ptr_null(strstr(fixture_log(), pid));
	ck_assert_ptr_nonnull(
		strstr(fixture_log(), "\n==dmaemu==dmaemu: ERROR SUMMARY: 1 "));

	/* A view of memory other than the linear map: arm64's coherent
	 * memory, freed with a wrong CPU address. */
	fixture_log_clear();
	m = fixture_machine("profile=arm64:mem=16M:log_stable=1");
	{
		struct dmaemu_device *dd =
			dmaemu_device_create(m, "dev0", NULL, NULL);
		struct device *dev;
		dma_addr_t h;
		uint64_t phys;
		uint8_t *c;

		ck_assert_ptr_nonnull(dd);
		dev = dmaemu_device_to_dev(dd);
		c = dma_alloc_coherent(dev, 4096, &h, GFP_KERNEL);
		ck_assert_ptr_nonnull(c);
		ck_assert_int_eq(fixture_region(c, &phys),
				 DMAEMU_REGION_UNCACHED);
		dma_free_coherent(dev, 4096, c + 64, h);
		ck_assert_uint_eq(
			dmaemu_report_count(m, "free-cpu-address-mismatch"), 1);
		snprintf(want, sizeof(want), "[uncached phys 0x%llx]",
			 (unsigned long long)phys);
		ck_assert_msg(strstr(fixture_log(), want), "%s", fixture_log());
		snprintf(want, sizeof(want), "[uncached phys 0x%llx]",
			 (unsigned long long)phys + 64);
		ck_assert_msg(strstr(fixture_log(), want), "%s", fixture_log());
		dma_free_coherent(dev, 4096, c, h);
		dmaemu_device_destroy(dd);
	}
	dmaemu_machine_destroy(m);

	/* Without it: the PID and the host address. */
	fixture_log_clear();
	m = fixture_machine("profile=arm64:mem=16M");
	option_is(m, "log_stable", "0");
	stale_read(m);
	ck_assert(!strncmp(fixture_log(), pid, strlen(pid)));
	ck_assert_ptr_null(strstr(fixture_log(), "[phys"));
	dmaemu_machine_destroy(m);
}
END_TEST

/*
 * The values of a stale-device-read: the bytes the CPU wrote and never
 * cleaned, and the bytes the device read from memory instead.
 */
START_TEST(test_device_read_values)
{
	struct dmaemu_machine *m = fixture_machine("profile=arm64:mem=16M");
	struct dmaemu_device *dd = dmaemu_device_create(m, "dev0", NULL, NULL);

	ck_assert_ptr_nonnull(dd);
	device_reads_dirty(dd);
	ck_assert_uint_eq(dmaemu_report_count(m, "stale-device-read"), 1);
	ck_assert_ptr_nonnull(strstr(
		fixture_log(),
		"      the CPU's copy   5a 5a 5a 5a 5a 5a 5a 5a 5a 5a 5a "
		"5a 5a 5a 5a 5a\n"
		"      the device read  00 00 00 00 00 00 00 00 00 00 00 "
		"00 00 00 00 00\n"));
	dmaemu_device_destroy(dd);
	dmaemu_machine_destroy(m);
}
END_TEST

static Suite *report_policy_suite(void)
{
	Suite *s = suite_create("report-policy");
	TCase *tc = tcase_create("policy");

	tcase_add_checked_fixture(tc, NULL, fixture_teardown);
	tcase_add_test(tc, test_option_values);
	tcase_add_test(tc, test_bad_values);
	tcase_add_test(tc, test_bad_suppressions);
	tcase_add_test(tc, test_suppress_kind);
	tcase_add_test(tc, test_suppress_fun_src);
	tcase_add_test(tc, test_suppress_crlf);
	tcase_add_test(tc, test_report_limit);
	tcase_add_test(tc, test_verbosity);
	tcase_add_test(tc, test_checks_all);
	tcase_add_test(tc, test_checks_no_coherence);
	tcase_add_test(tc, test_checks_no_api);
	tcase_add_test(tc, test_checks_no_platform);
	tcase_add_test(tc, test_checks_none);
	tcase_add_test(tc, test_fold_ring);
	tcase_add_test(tc, test_fold_limit);
	tcase_add_test(tc, test_summary_none);
	tcase_add_test(tc, test_stale_values);
	tcase_add_test(tc, test_log_stable);
	tcase_add_test(tc, test_device_read_values);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(report_policy_suite());
}
