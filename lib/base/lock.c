// SPDX-License-Identifier: MIT
/*
 * lock.c - the mutexes of the library.  In debug builds they check their
 * use (relocking, unlocking a mutex one does not hold), and dmaemu__lock()
 * turns any failure into an abort: a broken lock discipline is a broken
 * internal invariant, never a caller's error to report.
 *
 * Contention.  The library's locks are held for a few hundred nanoseconds
 * (a cache-model step, a registry lookup, an ordering record), while the
 * threads that take them (a driver, the interrupt thread, device threads)
 * run at once on other host CPUs.  Sleeping in the kernel on a lock that
 * is about to be released costs a futex wait, a context switch and a
 * wake-up on the holder's side, many times the hold.  So a lock found
 * held is retried LOCK_SPINS times with a CPU relax hint between tries
 * before the thread sleeps in pthread_mutex_lock(), as an adaptive mutex
 * does (glibc's PTHREAD_MUTEX_ADAPTIVE_NP, which an error-checking mutex
 * cannot be).  Under Valgrind, which runs one thread at a time, the holder
 * cannot release the lock while the waiter spins: there it sleeps at once.
 */
#include "config.h"

#include "base/base.h"

/**
 * dmaemu__mutex_init() - initialise a mutex of the library.
 * @mu: the mutex.
 *
 * Error-checking (relocking or unlocking a mutex one does not hold fails,
 * and dmaemu__lock() aborts) unless NDEBUG is defined.
 *
 * Return: 0, or a positive error number from pthreads.
 */
int dmaemu__mutex_init(pthread_mutex_t *mu)
{
#ifdef NDEBUG
	return pthread_mutex_init(mu, NULL);
#else
	pthread_mutexattr_t a;
	int ret;

	ret = pthread_mutexattr_init(&a);
	if (ret)
		return ret;
	ret = pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK);
	if (!ret)
		ret = pthread_mutex_init(mu, &a);
	pthread_mutexattr_destroy(&a);
	return ret;
#endif
}

/* Tries of a lock found held before its waiter sleeps: a few
 * microseconds, about the longest hold of a library lock. */
#define LOCK_SPINS 200

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
	__asm__ __volatile__("yield" ::: "memory");
#else
	__asm__ __volatile__("" ::: "memory");
#endif
}

/**
 * dmaemu__lock_contended() - take @mu, which dmaemu__lock() found held
 * (or, in debug builds, held by the calling thread).
 * @mu: the mutex.
 *
 * Spins LOCK_SPINS tries before it sleeps (see Contention above); aborts
 * on a failing lock, as dmaemu__lock() does.
 */
void dmaemu__lock_contended(pthread_mutex_t *mu)
{
	unsigned int i;

	for (i = 0; i < LOCK_SPINS && !dmaemu__on_valgrind; i++) {
		cpu_relax();
		if (!pthread_mutex_trylock(mu))
			return;
	}
	if (pthread_mutex_lock(mu))
		abort();
}

/**
 * dmaemu__unlock_wake() - unlock @mu, then wake every thread waiting on
 * @cond (whose waiters wait with @mu).
 * @mu:   the mutex, held.
 * @cond: the condition variable.
 *
 * Woken after the unlock, a waiter does not find @mu still held and sleep
 * a second time for it (a futex wait and one more wake-up).  It cannot
 * miss the wake-up: a waiter looks at what it waits for with @mu held
 * before each wait, and the caller changed that with @mu held.  The
 * caller keeps @cond alive across the call.  Under Valgrind the broadcast
 * comes before the unlock: Helgrind and DRD report a signal whose mutex
 * no thread holds.
 */
void dmaemu__unlock_wake(pthread_mutex_t *mu, pthread_cond_t *cond)
{
	if (dmaemu__on_valgrind) {
		pthread_cond_broadcast(cond);
		dmaemu__unlock(mu);
		return;
	}
	dmaemu__unlock(mu);
	pthread_cond_broadcast(cond);
}
