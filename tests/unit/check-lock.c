// SPDX-License-Identifier: MIT
/*
 * check-lock.c - the library's mutexes (lib/base/lock.c): a lock found
 * held spins a little, then sleeps, and either way the waiter gets the
 * lock only once the holder released it; in debug builds relocking a
 * mutex one holds still aborts after the spin.  Meant to run under
 * Helgrind and DRD (make check-valgrind) as well as natively.
 */
#include "config.h"

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
