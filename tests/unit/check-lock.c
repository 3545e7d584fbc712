// SPDX-License-Identifier: MIT
/*
 * check-lock.c - the library's mutexes (lib/base/lock.c): a lock found
 * held spins a little, then sleeps, and either way the waiter gets the
 * lock only once the holder released it; in debug builds relocking a
 * mutex one holds still aborts after the spin; a waiter on a condition
 * variable (dmaemu__cond_wait_spin()) spins a little before it sleeps,
 * never misses a wake-up, and sleeps when nobody wakes it.  Meant to run
 * under Helgrind and DRD (make check-valgrind) as well as natively.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check-run.h"
#include "base/base.h"

#define THREADS 3
#define ROUNDS 20000

struct shared {
	pthread_mutex_t lock;
	unsigned long counter; /* under lock */
	int released;	       /* under lock: the holder is about to let go */
	int saw_release;       /* under lock: what the waiter found */
};

/* A read-modify-write the compiler cannot merge: lost updates show. */
static void *incr(void *arg)
{
	struct shared *s = arg;
	unsigned int i;

	for (i = 0; i < ROUNDS; i++) {
		dmaemu__lock(&s->lock);
		*(volatile unsigned long *)&s->counter = s->counter + 1;
		dmaemu__unlock(&s->lock);
	}
	return NULL;
}

/* Threads hammering one lock: every increment counted (the contended
 * path hands out the lock to one thread at a time). */
START_TEST(test_lock_excludes)
{
	struct shared s = {.counter = 0};
	pthread_t t[THREADS];
	unsigned int i;

	ck_assert_int_eq(dmaemu__mutex_init(&s.lock), 0);
	for (i = 0; i < THREADS; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, incr, &s), 0);
	for (i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	ck_assert_uint_eq(s.counter, (unsigned long)THREADS * ROUNDS);
	pthread_mutex_destroy(&s.lock);
}
END_TEST

static void *waiter(void *arg)
{
	struct shared *s = arg;

	dmaemu__lock(&s->lock);
	s->saw_release = s->released;
	dmaemu__unlock(&s->lock);
	return NULL;
}

/* A hold far longer than the spin: the waiter spins, sleeps, and gets the
 * lock only after the holder let it go. */
START_TEST(test_lock_long_hold)
{
	struct timespec ts = {.tv_sec = 0, .tv_nsec = 50 * 1000 * 1000};
	struct shared s = {.released = 0};
	pthread_t t;

	ck_assert_int_eq(dmaemu__mutex_init(&s.lock), 0);
	dmaemu__lock(&s.lock);
	ck_assert_int_eq(pthread_create(&t, NULL, waiter, &s), 0);
	nanosleep(&ts, NULL);
	s.released = 1;
	dmaemu__unlock(&s.lock);
	pthread_join(t, NULL);
	ck_assert_int_eq(s.saw_release, 1);
	pthread_mutex_destroy(&s.lock);
}
END_TEST

/* ---- dmaemu__cond_wait_spin() ------------------------------------- */

#define HANDOFFS 3000

struct handoff {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct dmaemu__wake wake;
	unsigned long ping, pong; /* under lock */
};

static void *ponger(void *arg)
{
	struct handoff *h = arg;
	unsigned long seen = 0;

	dmaemu__lock(&h->lock);
	while (seen < HANDOFFS) {
		while (h->ping == seen)
			(void)dmaemu__cond_wait_spin(&h->cond, &h->lock,
						     &h->wake, NULL);
		seen = h->ping;
		h->pong = seen;
		dmaemu__wake_seq(&h->wake);
		pthread_cond_broadcast(&h->cond);
	}
	dmaemu__unlock(&h->lock);
	return NULL;
}

/* Two threads handing a token back and forth, each waiting with the spin:
 * every hand-off arrives (a lost one would hang the test), in order. */
START_TEST(test_wait_spin_handoffs)
{
	struct handoff h = {.ping = 0};
	unsigned long i;
	pthread_t t;

	ck_assert_int_eq(dmaemu__mutex_init(&h.lock), 0);
	ck_assert_int_eq(pthread_cond_init(&h.cond, NULL), 0);
	ck_assert_int_eq(pthread_create(&t, NULL, ponger, &h), 0);
	dmaemu__lock(&h.lock);
	for (i = 1; i <= HANDOFFS; i++) {
		h.ping = i;
		dmaemu__wake_seq(&h.wake);
		pthread_cond_broadcast(&h.cond);
		while (h.pong != i)
			(void)dmaemu__cond_wait_spin(&h.cond, &h.lock, &h.wake,
						     NULL);
	}
	dmaemu__unlock(&h.lock);
	pthread_join(t, NULL);
	ck_assert_uint_eq(h.pong, HANDOFFS);
	pthread_cond_destroy(&h.cond);
	pthread_mutex_destroy(&h.lock);
}
END_TEST

struct idle {
	struct handoff h;
	double cpu_ms; /* the waiter's CPU time over its wait */
	int ret;
};

static double thread_cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void *idle_waiter(void *arg)
{
	struct idle *w = arg;
	double t0 = thread_cpu_ms();

	dmaemu__lock(&w->h.lock);
	while (!w->h.ping)
		(void)dmaemu__cond_wait_spin(&w->h.cond, &w->h.lock, &w->h.wake,
					     NULL);
	dmaemu__unlock(&w->h.lock);
	w->cpu_ms = thread_cpu_ms() - t0;
	return NULL;
}

/* A waiter nobody wakes for half a second spins a few microseconds, then
 * sleeps: it must not burn its CPU for the whole wait. */
START_TEST(test_wait_spin_idle_sleeps)
{
	struct timespec ts = {.tv_sec = 0, .tv_nsec = 500 * 1000 * 1000};
	struct idle w = {.h = {.ping = 0}};
	pthread_t t;

	ck_assert_int_eq(dmaemu__mutex_init(&w.h.lock), 0);
	ck_assert_int_eq(pthread_cond_init(&w.h.cond, NULL), 0);
	ck_assert_int_eq(pthread_create(&t, NULL, idle_waiter, &w), 0);
	nanosleep(&ts, NULL);
	dmaemu__lock(&w.h.lock);
	w.h.ping = 1;
	dmaemu__wake_seq(&w.h.wake);
	pthread_cond_broadcast(&w.h.cond);
	dmaemu__unlock(&w.h.lock);
	pthread_join(t, NULL);
	ck_assert_msg(w.cpu_ms < 50, "the idle waiter used %.1f ms of CPU",
		      w.cpu_ms);
	pthread_cond_destroy(&w.h.cond);
	pthread_mutex_destroy(&w.h.lock);
}
END_TEST

/* A timed wait nobody ends returns ETIMEDOUT at its deadline, not before,
 * and the caller unlocks the mutex it holds again. */
START_TEST(test_wait_spin_timeout)
{
	struct handoff h = {.ping = 0};
	pthread_condattr_t a;
	struct timespec start, dl, now;
	int ret;

	ck_assert_int_eq(dmaemu__mutex_init(&h.lock), 0);
	ck_assert_int_eq(pthread_condattr_init(&a), 0);
	ck_assert_int_eq(pthread_condattr_setclock(&a, CLOCK_MONOTONIC), 0);
	ck_assert_int_eq(pthread_cond_init(&h.cond, &a), 0);
	pthread_condattr_destroy(&a);
	clock_gettime(CLOCK_MONOTONIC, &start);
	dl = start;
	dl.tv_nsec += 30 * 1000 * 1000;
	if (dl.tv_nsec >= 1000000000) {
		dl.tv_sec++;
		dl.tv_nsec -= 1000000000;
	}
	dmaemu__lock(&h.lock);
	do
		ret = dmaemu__cond_wait_spin(&h.cond, &h.lock, &h.wake, &dl);
	while (ret == 0);
	dmaemu__unlock(&h.lock);
	clock_gettime(CLOCK_MONOTONIC, &now);
	ck_assert_int_eq(ret, ETIMEDOUT);
	ck_assert(now.tv_sec > dl.tv_sec ||
		  (now.tv_sec == dl.tv_sec && now.tv_nsec >= dl.tv_nsec));
	pthread_cond_destroy(&h.cond);
	pthread_mutex_destroy(&h.lock);
}
END_TEST

#ifndef NDEBUG
/* Relocking a mutex the thread holds is a broken invariant: abort(), after
 * the spin found it held (in a child: the abort is the point). */
START_TEST(test_relock_aborts)
{
	int status;
	pid_t pid;

	/* Helgrind and DRD report the relock themselves (in the child). */
	dmaemu__annotate_init();
	if (dmaemu__on_valgrind)
		return;
	fflush(NULL);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		pthread_mutex_t mu;

		if (dmaemu__mutex_init(&mu))
			_exit(99);
		dmaemu__lock(&mu);
		dmaemu__lock(&mu);
		_exit(0);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT,
		      "status %#x: the relock did not abort", status);
}
END_TEST
#endif

static Suite *lock_suite(void)
{
	Suite *s = suite_create("lock");
	TCase *tc = tcase_create("lock");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_lock_excludes);
	tcase_add_test(tc, test_lock_long_hold);
	tcase_add_test(tc, test_wait_spin_handoffs);
	tcase_add_test(tc, test_wait_spin_idle_sleeps);
	tcase_add_test(tc, test_wait_spin_timeout);
#ifndef NDEBUG
	tcase_add_test(tc, test_relock_aborts);
#endif
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(lock_suite());
}
