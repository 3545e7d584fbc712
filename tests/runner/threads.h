/* SPDX-License-Identifier: MIT */
/*
 * threads.h - for suites whose devices, interrupt handlers and test
 * thread share state: waiting for a condition, and counters.
 *
 * The counters sit under a spinlock_t rather than in an atomic_t:
 * Helgrind and DRD do not model atomics, so polling an atomic_t from a
 * test would be a (false) race for them.  One lock serves every counter
 * of a test program (one file).
 */
#ifndef DMAEMU_TESTS_THREADS_H
#define DMAEMU_TESTS_THREADS_H

#include <check.h>
#include <linux/delay.h>
#include <linux/spinlock.h>

/* Poll @cond every millisecond, at most @ms times; fail the test if it
 * never holds. */
#define WAIT_UNTIL(cond, ms)                                   \
	do {                                                   \
		int _n;                                        \
		for (_n = 0; !(cond) && _n < (ms); _n++)       \
			msleep(1);                             \
		ck_assert_msg((cond), "timed out: %s", #cond); \
	} while (0)

typedef struct {
	int v;
} counter_t;

static __attribute__((unused)) DEFINE_SPINLOCK(threads_counter_lock);

static inline int cget(counter_t *c)
{
	int v;

	spin_lock(&threads_counter_lock);
	v = c->v;
	spin_unlock(&threads_counter_lock);
	return v;
}

static inline void cset(counter_t *c, int v)
{
	spin_lock(&threads_counter_lock);
	c->v = v;
	spin_unlock(&threads_counter_lock);
}

static inline void cinc(counter_t *c)
{
	spin_lock(&threads_counter_lock);
	c->v++;
	spin_unlock(&threads_counter_lock);
}

#endif
