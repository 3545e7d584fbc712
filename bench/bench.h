/* SPDX-License-Identifier: MIT */
/*
 * bench.h - the one output format of every bench (bench/run.sh collects
 * it into `make bench`'s summary table).
 *
 * A judged figure is one line of four fields, then an optional comment:
 *
 *   name value target verdict  # what the baseline was
 *
 * where target is an operator and a number (<=6, <2, >=75) and verdict is
 *
 *   ok            the value meets the target
 *   MISS          it does not
 *   bad-baseline  the baseline the value is measured against was not
 *                 plausible (a disturbed run, a broken measurement): the
 *                 value is not judged, and counts as a failure
 *
 * An informational figure, which no target judges, has "-" as its target
 * and "info" as its verdict, so that nobody mistakes it for a judged one:
 *
 *   name value - info  # what it is
 *
 * Each bench exits 0 when every verdict is ok, 2 when one is not, and 1
 * when it could not run.
 */
#ifndef DMAEMU_BENCH_H
#define DMAEMU_BENCH_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <time.h>

enum bench_cmp {
	BENCH_LE, /* value <= target */
	BENCH_LT, /* value < target */
	BENCH_GE, /* value >= target */
};

static const char *const bench_cmp_names[] = {
	[BENCH_LE] = "<=",
	[BENCH_LT] = "<",
	[BENCH_GE] = ">=",
};

/* Whether any verdict so far was not ok (the bench's exit status). */
static bool bench_failed;

static inline void bench_vcomment(const char *fmt, va_list ap)
	__attribute__((format(printf, 1, 0)));

static inline void bench_vcomment(const char *fmt, va_list ap)
{
	if (!fmt)
		return;
	fputs("  # ", stdout);
	vprintf(fmt, ap);
}

/*
 * bench_judge() - print a judged figure.
 * @name:        the figure's name (no spaces).
 * @value:       the measured value.
 * @cmp:         how it must compare with @target.
 * @target:      the target.
 * @baseline_ok: false when the baseline was implausible: the verdict is
 *               then bad-baseline whatever the value.
 * @fmt:         printf format of the comment (the baseline), or NULL.
 *
 * Return: whether the verdict is ok.
 */
static inline __attribute__((format(printf, 6, 7))) bool bench_judge(
	const char *name, double value, enum bench_cmp cmp, double target,
	bool baseline_ok, const char *fmt, ...)
{
	const char *verdict;
	va_list ap;
	bool ok;

	switch (cmp) {
	case BENCH_LE:
		ok = value <= target;
		break;
	case BENCH_LT:
		ok = value < target;
		break;
	default:
		ok = value >= target;
		break;
	}
	if (!baseline_ok)
		verdict = "bad-baseline";
	else
		verdict = ok ? "ok" : "MISS";
	ok = ok && baseline_ok;
	printf("%s %.2f %s%g %s", name, value, bench_cmp_names[cmp], target,
	       verdict);
	va_start(ap, fmt);
	bench_vcomment(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	if (!ok)
		bench_failed = true;
	return ok;
}

/* bench_info() - print an informational figure (never judged). */
static inline __attribute__((format(printf, 3, 4))) void bench_info(
	const char *name, double value, const char *fmt, ...)
{
	va_list ap;

	printf("%s %.2f - info", name, value);
	va_start(ap, fmt);
	bench_vcomment(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

/* The monotonic clock in nanoseconds. */
static inline double bench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* The least of the @n timings at @t (@n >= 1): the run least disturbed. */
static inline double bench_min(const double *t, unsigned int n)
{
	double b = t[0];
	unsigned int i;

	for (i = 1; i < n; i++)
		if (t[i] < b)
			b = t[i];
	return b;
}

/* The greatest of the @n rates at @r (@n >= 1): the run least disturbed. */
static inline double bench_max(const double *r, unsigned int n)
{
	double b = r[0];
	unsigned int i;

	for (i = 1; i < n; i++)
		if (r[i] > b)
			b = r[i];
	return b;
}

/* The exit status of a bench that ran: 0, or 2 after a failed verdict. */
static inline int bench_status(void)
{
	return bench_failed ? 2 : 0;
}

#endif /* DMAEMU_BENCH_H */
