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
 *   host-busy     a figure of several threads on a host that did not give
 *                 the bench two threads' worth of CPU when it measured
 *                 (bench_host_scaling() below 1.8): the value says
 *                 nothing about the code and is not judged; it counts as
 *                 a failure, as bad-baseline does
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

#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
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

static inline void bench_vjudge(const char *name, double value,
				enum bench_cmp cmp, double target,
				const char *verdict, const char *fmt,
				va_list ap)
	__attribute__((format(printf, 6, 0)));

static inline void bench_vjudge(const char *name, double value,
				enum bench_cmp cmp, double target,
				const char *verdict, const char *fmt,
				va_list ap)
{
	printf("%s %.2f %s%g %s", name, value, bench_cmp_names[cmp], target,
	       verdict);
	bench_vcomment(fmt, ap);
	putchar('\n');
	fflush(stdout);
	if (strcmp(verdict, "ok") != 0)
		bench_failed = true;
}

static inline bool bench_meets(double value, enum bench_cmp cmp, double target)
{
	switch (cmp) {
	case BENCH_LE:
		return value <= target;
	case BENCH_LT:
		return value < target;
	default:
		return value >= target;
	}
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
	bool ok = bench_meets(value, cmp, target);
	va_list ap;

	va_start(ap, fmt);
	bench_vjudge(name, value, cmp, target,
		     !baseline_ok ? "bad-baseline"
		     : ok	  ? "ok"
				  : "MISS",
		     fmt, ap);
	va_end(ap);
	return ok && baseline_ok;
}

/* Two-thread scaling below which a host is too busy to judge figures of
 * several threads (bench_host_scaling()). */
#define BENCH_HOST_SCALING_MIN 1.8

/*
 * bench_judge_mt() - bench_judge() for a figure of several threads: the
 * verdict is host-busy, whatever the value, when @host_scaling (the
 * bench_host_scaling() of the same run) is below BENCH_HOST_SCALING_MIN.
 */
static inline __attribute__((format(printf, 7, 8))) bool bench_judge_mt(
	const char *name, double value, enum bench_cmp cmp, double target,
	bool baseline_ok, double host_scaling, const char *fmt, ...)
{
	bool ok = bench_meets(value, cmp, target);
	bool busy = !(host_scaling >= BENCH_HOST_SCALING_MIN);
	va_list ap;

	va_start(ap, fmt);
	bench_vjudge(name, value, cmp, target,
		     busy	    ? "host-busy"
		     : !baseline_ok ? "bad-baseline"
		     : ok	    ? "ok"
				    : "MISS",
		     fmt, ap);
	va_end(ap);
	return ok && baseline_ok && !busy;
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

/* One thread's share of bench_host_scaling(): a dependent chain of
 * multiply-adds that stays in registers. */
static inline void *bench_spin_arith(void *arg)
{
	volatile uint64_t *out = arg;
	uint64_t x = *out;
	unsigned long i;

	for (i = 0; i < 20000000ul; i++)
		x = x * 6364136223846793005ull + 1442695040888963407ull;
	*out = x;
	return NULL;
}

/*
 * bench_host_scaling() - what the host gives two threads right now: the
 * same pure arithmetic loop (no memory traffic, no lock) run by one
 * thread, then by two at once, as a throughput ratio (2 * one / both),
 * best of 3 of each: about 2 on an idle host with two CPUs, 1 when only
 * one CPU is free.  -1 when a thread cannot start.
 */
static inline double bench_host_scaling(void)
{
	volatile uint64_t a = 1, b = 2;
	double one = -1, two = -1, t;
	pthread_t th;
	unsigned int r;

	for (r = 0; r < 3; r++) {
		t = bench_now_ns();
		bench_spin_arith((void *)&a);
		t = bench_now_ns() - t;
		if (one < 0 || t < one)
			one = t;
		t = bench_now_ns();
		if (pthread_create(&th, NULL, bench_spin_arith, (void *)&b))
			return -1;
		bench_spin_arith((void *)&a);
		pthread_join(th, NULL);
		t = bench_now_ns() - t;
		if (two < 0 || t < two)
			two = t;
	}
	return two > 0 ? 2 * one / two : -1;
}

/* The exit status of a bench that ran: 0, or 2 after a failed verdict. */
static inline int bench_status(void)
{
	return bench_failed ? 2 : 0;
}

#endif /* DMAEMU_BENCH_H */
