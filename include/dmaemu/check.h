/* SPDX-License-Identifier: MIT */
/*
 * <dmaemu/check.h> - Check (https://libcheck.github.io/check/) fixtures
 * and assertions for unit tests of driver code on dmaemu.
 *
 * Header-only: everything here is static inline code built on Check's and
 * dmaemu's public calls, compiled into the test program, so a suite needs
 * nothing but `pkg-config --cflags --libs dmaemu check` and no library of
 * dmaemu is tied to the build of Check the program uses.  Its state is
 * per source file: keep the tests that use one fixture in one file.
 *
 *   static void setup(void) { dmaemu_ck_setup("profile=arm64:mem=16M"); }
 *   ...
 *   tcase_add_checked_fixture(tc, setup, dmaemu_ck_teardown);
 *
 * dmaemu_ck_setup() makes a machine (dmaemu_ck_machine()) and collects
 * every report it makes, from any thread, through the report callback of
 * <dmaemu/report.h>.  The assertions below consume the reports they
 * match.  dmaemu_ck_teardown() destroys the machine, which destroys the
 * devices left and reports the mappings, allocations and interrupt
 * handlers they leaked, and fails the test if any report was not consumed,
 * quoting the first one.
 *
 * Threads.  A report is often made on a device's thread or the interrupt
 * thread, and a report found inside the memory model is made while the
 * model's locks are held: failing the test from the callback would leave
 * those locks held (CK_FORK=no) or kill a thread Check does not know.  So
 * the callback only records; failures happen on the test's thread, at the
 * check points: every assertion of this header, dmaemu_ck_checkpoint(),
 * and dmaemu_ck_teardown().
 *
 * With dmaemu_ck_fail_on_report(true), a test fails at its first check
 * point after any report at all, with the report's text as the message.
 */
#ifndef DMAEMU_CHECK_H
#define DMAEMU_CHECK_H

#include <check.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dmaemu/machine.h>
#include <dmaemu/report.h>
#include <dmaemu/sweep.h>
#include <dmaemu/testing.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Reports a test can hold unconsumed; more fail the test at its next
 * check point. */
#define DMAEMU_CK_MAX_REPORTS 256

/* A report as the fixture keeps it. */
struct dmaemu_ck_report {
	uint64_t seq;
	enum dmaemu_report_kind kind;
	uint64_t phys;
	uint64_t size;
	char *text; /* the printed report (malloc()ed; NULL if out of memory) */
};

/* The fixture of this source file.  ->lock protects the reports: the
 * callback adds to them on any thread. */
static struct {
	struct dmaemu_machine *m;
	pthread_mutex_t lock;
	struct dmaemu_ck_report rep[DMAEMU_CK_MAX_REPORTS];
	unsigned int n; /* reports held, unconsumed */
	uint64_t lost;	/* reports beyond DMAEMU_CK_MAX_REPORTS */
	bool fail_on_report;
	char msg[DMAEMU_REPORT_TEXT_MAX + 256]; /* a failure's message */
} dmaemu_ck_ __attribute__((unused)) = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* The report callback: copy and keep (no call of the library, no Check
 * call: see dmaemu_report_set_callback()). */
static inline void dmaemu_ck_collect_(struct dmaemu_machine *m,
				      const struct dmaemu_report *r, void *arg)
{
	struct dmaemu_ck_report *k;
	char *text = strdup(r->text);

	(void)m;
	(void)arg;
	pthread_mutex_lock(&dmaemu_ck_.lock);
	if (dmaemu_ck_.n == DMAEMU_CK_MAX_REPORTS) {
		dmaemu_ck_.lost++;
		free(text);
	} else {
		k = &dmaemu_ck_.rep[dmaemu_ck_.n++];
		k->seq = r->seq;
		k->kind = r->kind;
		k->phys = r->phys;
		k->size = r->size;
		k->text = text;
	}
	pthread_mutex_unlock(&dmaemu_ck_.lock);
}

/* Forget report @i.  Lock held. */
static inline void dmaemu_ck_consume_(unsigned int i)
{
	free(dmaemu_ck_.rep[i].text);
	memmove(&dmaemu_ck_.rep[i], &dmaemu_ck_.rep[i + 1],
		(dmaemu_ck_.n - i - 1) * sizeof(dmaemu_ck_.rep[0]));
	dmaemu_ck_.n--;
}

/* Forget every report.  Lock held. */
static inline void dmaemu_ck_consume_all_(void)
{
	while (dmaemu_ck_.n)
		dmaemu_ck_consume_(dmaemu_ck_.n - 1);
	dmaemu_ck_.lost = 0;
}

/* Describe report @i (or the loss of reports) in the message buffer.  Lock
 * held. */
static inline const char *dmaemu_ck_describe_(const char *why, unsigned int i)
{
	const struct dmaemu_ck_report *k = &dmaemu_ck_.rep[i];

	if (i >= dmaemu_ck_.n)
		snprintf(dmaemu_ck_.msg, sizeof(dmaemu_ck_.msg),
			 "%s: more than %u reports", why,
			 DMAEMU_CK_MAX_REPORTS);
	else
		snprintf(dmaemu_ck_.msg, sizeof(dmaemu_ck_.msg),
			 "%s (%u report%s not consumed; the first:)\n%s", why,
			 dmaemu_ck_.n + (unsigned int)dmaemu_ck_.lost,
			 dmaemu_ck_.n + dmaemu_ck_.lost == 1 ? "" : "s",
			 k->text ? k->text : dmaemu_report_kind_name(k->kind));
	return dmaemu_ck_.msg;
}

/**
 * dmaemu_ck_setup() - a Check fixture's setup: make the test's machine.
 * @options: its options (docs/options.md), or NULL for the defaults;
 *           DMAEMU_OPTIONS applies after them and wins, as for every
 *           machine.
 *
 * Fails the test when the machine cannot be made.
 */
static inline void dmaemu_ck_setup(const char *options)
{
	int ret;

	pthread_mutex_lock(&dmaemu_ck_.lock);
	dmaemu_ck_consume_all_();
	dmaemu_ck_.fail_on_report = false;
	pthread_mutex_unlock(&dmaemu_ck_.lock);
	dmaemu_ck_.m = dmaemu_machine_create(options);
	ck_assert_msg(dmaemu_ck_.m != NULL,
		      "dmaemu_machine_create(\"%s\") failed",
		      options ? options : "");
	ret = dmaemu_report_set_callback(dmaemu_ck_.m, dmaemu_ck_collect_,
					 NULL);
	ck_assert_msg(ret == 0, "dmaemu_report_set_callback() failed: %d", ret);
}

/** dmaemu_ck_machine() - the machine of the running test. */
static inline struct dmaemu_machine *dmaemu_ck_machine(void)
{
	return dmaemu_ck_.m;
}

/**
 * dmaemu_ck_fail_on_report() - with @on, any report fails the test at its
 * next check point, quoting the report.  Off again at each setup.
 */
static inline void dmaemu_ck_fail_on_report(bool on)
{
	pthread_mutex_lock(&dmaemu_ck_.lock);
	dmaemu_ck_.fail_on_report = on;
	pthread_mutex_unlock(&dmaemu_ck_.lock);
}

/* The check point: NULL, or the failure message when fail_on_report is on
 * and a report is held.  Consumes what it quotes. */
static inline const char *dmaemu_ck_point_(void)
{
	const char *msg = NULL;

	pthread_mutex_lock(&dmaemu_ck_.lock);
	if (dmaemu_ck_.fail_on_report && (dmaemu_ck_.n || dmaemu_ck_.lost)) {
		msg = dmaemu_ck_describe_("dmaemu reported an error", 0);
		dmaemu_ck_consume_all_();
	}
	pthread_mutex_unlock(&dmaemu_ck_.lock);
	return msg;
}

/**
 * dmaemu_ck_checkpoint() - fail the test here if dmaemu_ck_fail_on_report()
 * is on and a report was made since the last check point (on any thread).
 */
#define dmaemu_ck_checkpoint()                                   \
	do {                                                     \
		const char *dmaemu_ck_m_ = dmaemu_ck_point_();   \
		ck_assert_msg(dmaemu_ck_m_ == NULL, "%s",        \
			      dmaemu_ck_m_ ? dmaemu_ck_m_ : ""); \
	} while (0)

/* Does report @k cover physical range [@lo, @hi)?  A report with no size
 * covers its first byte. */
static inline bool dmaemu_ck_covers_(const struct dmaemu_ck_report *k,
				     uint64_t lo, uint64_t hi)
{
	uint64_t end = k->phys + (k->size ? k->size : 1);

	return k->phys < hi && lo < end;
}

/*
 * Consume the reports of @kind (all kinds if @kind < 0) that cover
 * [@lo, @hi) (any range if @lo == @hi), at most @max of them; their count
 * in *@n.  NULL, or a failure message: the check point's, or "more than
 * DMAEMU_CK_MAX_REPORTS reports".
 */
static inline const char *dmaemu_ck_take_(int kind, uint64_t lo, uint64_t hi,
					  unsigned int max, unsigned int *n)
{
	const char *msg = dmaemu_ck_point_();
	unsigned int i;

	*n = 0;
	if (msg)
		return msg;
	pthread_mutex_lock(&dmaemu_ck_.lock);
	if (dmaemu_ck_.lost) {
		msg = dmaemu_ck_describe_("too many reports", dmaemu_ck_.n);
	} else {
		for (i = 0; i < dmaemu_ck_.n && *n < max;) {
			const struct dmaemu_ck_report *k = &dmaemu_ck_.rep[i];

			if ((kind < 0 ||
			     k->kind == (enum dmaemu_report_kind)kind) &&
			    (lo == hi || dmaemu_ck_covers_(k, lo, hi))) {
				dmaemu_ck_consume_(i);
				++*n;
			} else {
				i++;
			}
		}
	}
	pthread_mutex_unlock(&dmaemu_ck_.lock);
	return msg;
}

/* What is left after an assertion on reports failed, for its message. */
static inline const char *dmaemu_ck_left_(void)
{
	pthread_mutex_lock(&dmaemu_ck_.lock);
	if (dmaemu_ck_.n)
		dmaemu_ck_describe_("reports held", 0);
	else
		snprintf(dmaemu_ck_.msg, sizeof(dmaemu_ck_.msg),
			 "no report held");
	pthread_mutex_unlock(&dmaemu_ck_.lock);
	return dmaemu_ck_.msg;
}

/* The physical address of host address @p of the machine, or fail. */
static inline uint64_t dmaemu_ck_phys_(const void *p)
{
	struct dmaemu_addr_info ai;

	ck_assert_msg(dmaemu_addr_info(p, &ai) == 0 &&
			      ai.region != DMAEMU_REGION_NONE,
		      "%p is not emulated memory", p);
	return ai.phys;
}

/**
 * dmaemu_ck_assert_no_reports() - no report is held: every report since
 * the setup was consumed by an assertion.
 */
#define dmaemu_ck_assert_no_reports()                                \
	do {                                                         \
		unsigned int dmaemu_ck_n_;                           \
		const char *dmaemu_ck_m_ =                           \
			dmaemu_ck_take_(-1, 0, 0, 0, &dmaemu_ck_n_); \
		if (!dmaemu_ck_m_) {                                 \
			pthread_mutex_lock(&dmaemu_ck_.lock);        \
			if (dmaemu_ck_.n)                            \
				dmaemu_ck_m_ = dmaemu_ck_describe_(  \
					"expected no report", 0);    \
			pthread_mutex_unlock(&dmaemu_ck_.lock);      \
		}                                                    \
		ck_assert_msg(dmaemu_ck_m_ == NULL, "%s",            \
			      dmaemu_ck_m_ ? dmaemu_ck_m_ : "");     \
	} while (0)

/**
 * dmaemu_ck_assert_reports() - exactly @n reports of @kind (enum
 * dmaemu_report_kind) are held; they are consumed.  Reports of other kinds
 * stay.
 */
#define dmaemu_ck_assert_reports(kind, n)                             \
	do {                                                          \
		unsigned int dmaemu_ck_n_;                            \
		enum dmaemu_report_kind dmaemu_ck_k_ = (kind);        \
		const char *dmaemu_ck_m_ = dmaemu_ck_take_(           \
			(int)dmaemu_ck_k_, 0, 0, ~0u, &dmaemu_ck_n_); \
		ck_assert_msg(dmaemu_ck_m_ == NULL, "%s",             \
			      dmaemu_ck_m_ ? dmaemu_ck_m_ : "");      \
		ck_assert_msg(dmaemu_ck_n_ == (unsigned int)(n),      \
			      "expected %u %s report%s, got %u; %s",  \
			      (unsigned int)(n),                      \
			      dmaemu_report_kind_name(dmaemu_ck_k_),  \
			      (n) == 1 ? "" : "s", dmaemu_ck_n_,      \
			      dmaemu_ck_left_());                     \
	} while (0)

/**
 * dmaemu_ck_assert_report_at() - a report of @kind covers physical
 * address @phys (its range [phys, +size), or its address if it has no
 * size); the first such report is consumed.
 */
#define dmaemu_ck_assert_report_at(kind, phys)                               \
	do {                                                                 \
		unsigned int dmaemu_ck_n_;                                   \
		enum dmaemu_report_kind dmaemu_ck_k_ = (kind);               \
		uint64_t dmaemu_ck_p_ = (phys);                              \
		const char *dmaemu_ck_m_ =                                   \
			dmaemu_ck_take_((int)dmaemu_ck_k_, dmaemu_ck_p_,     \
					dmaemu_ck_p_ + 1, 1, &dmaemu_ck_n_); \
		ck_assert_msg(dmaemu_ck_m_ == NULL, "%s",                    \
			      dmaemu_ck_m_ ? dmaemu_ck_m_ : "");             \
		ck_assert_msg(dmaemu_ck_n_ == 1,                             \
			      "expected a %s report at phys 0x%" PRIx64      \
			      "; %s",                                        \
			      dmaemu_report_kind_name(dmaemu_ck_k_),         \
			      dmaemu_ck_p_, dmaemu_ck_left_());              \
	} while (0)

/**
 * dmaemu_ck_assert_report_in() - a report of @kind concerns a byte of the
 * @len bytes at @ptr (a pointer into the machine's memory: kmalloc(),
 * dma_alloc_coherent(), ...); the first such report is consumed.
 */
#define dmaemu_ck_assert_report_in(kind, ptr, len)                            \
	do {                                                                  \
		unsigned int dmaemu_ck_n_;                                    \
		enum dmaemu_report_kind dmaemu_ck_k_ = (kind);                \
		uint64_t dmaemu_ck_p_ = dmaemu_ck_phys_(ptr);                 \
		uint64_t dmaemu_ck_l_ = (len) ? (len) : 1;                    \
		const char *dmaemu_ck_m_ = dmaemu_ck_take_(                   \
			(int)dmaemu_ck_k_, dmaemu_ck_p_,                      \
			dmaemu_ck_p_ + dmaemu_ck_l_, 1, &dmaemu_ck_n_);       \
		ck_assert_msg(dmaemu_ck_m_ == NULL, "%s",                     \
			      dmaemu_ck_m_ ? dmaemu_ck_m_ : "");              \
		ck_assert_msg(dmaemu_ck_n_ == 1,                              \
			      "expected a %s report in %s (phys 0x%" PRIx64   \
			      "+%" PRIu64 "); %s",                            \
			      dmaemu_report_kind_name(dmaemu_ck_k_), #ptr,    \
			      dmaemu_ck_p_, dmaemu_ck_l_, dmaemu_ck_left_()); \
	} while (0)

/**
 * dmaemu_ck_teardown() - a Check fixture's teardown: destroy the test's
 * machine (and the devices left on it, whose leaks are reported), then
 * fail the test if a report was not consumed, quoting the first one.
 *
 * Use it as a checked fixture (tcase_add_checked_fixture()), so that its
 * failure is the test's.
 */
static inline void dmaemu_ck_teardown(void)
{
	struct dmaemu_machine *m = dmaemu_ck_.m;
	const char *msg = NULL;

	dmaemu_ck_.m = NULL;
	/* The machine's threads are stopped before it is freed: no callback
	 * runs after this. */
	dmaemu_machine_destroy(m);
	pthread_mutex_lock(&dmaemu_ck_.lock);
	if (dmaemu_ck_.n || dmaemu_ck_.lost)
		msg = dmaemu_ck_describe_(
			dmaemu_ck_.fail_on_report
				? "dmaemu reported an error"
				: "unexpected report (leaked at teardown or "
				  "not asserted)",
			0);
	dmaemu_ck_consume_all_();
	pthread_mutex_unlock(&dmaemu_ck_.lock);
	ck_assert_msg(msg == NULL, "%s", msg ? msg : "");
}

#ifdef __cplusplus
}
#endif

#endif
