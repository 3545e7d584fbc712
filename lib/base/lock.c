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
 *
 * Hand-offs.  The same holds for the waits of one thread for another's
 * wake-up when they come in quick succession, as a driver's doorbell wakes
 * the device thread, whose interrupt wakes the interrupt thread, whose
 * handler's complete() wakes the driver: a futex sleep and wake-up is a
 * few microseconds on each side, and an idle CPU woken by it more (tens
 * of microseconds on a virtual machine).  dmaemu__cond_wait_spin() first
 * watches a sequence number that every waker bumps, for WAIT_SPIN_NS at
 * most, with the mutex released, and only then sleeps on the condition
 * variable: a thread woken within that time never slept, and an idle one
 * sleeps after WAIT_SPIN_NS (it never burns a CPU for longer).  The spin
 * yields the CPU between looks, since on a busy host the waker may wait
 * for this very CPU.  A wait whose wake-ups come late (a device thread
 * idle between bursts, a driver waiting for a frame) would spin in vain
 * each time, taking CPU from the threads that work: after WAIT_SPIN_MISSES
 * spins in a row that ended without a wake-up, the waiters of that
 * condition variable sleep at once, and spin again only every
 * WAIT_SPIN_PROBE waits to see whether their wake-ups came back within
 * reach.  Not under Valgrind (one thread at a time: the waker cannot run
 * while the waiter spins) nor on a host with one CPU.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <time.h>
#include <unistd.h>

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

/* Longest spin of a waiter before it sleeps: a device's run, an interrupt
 * handler and a wake-up take a few microseconds each. */
#define WAIT_SPIN_NS 20000
/* CPU relax hints between two looks at the clock. */
#define WAIT_SPIN_CHUNK 32
/* Spins in vain in a row after which the waiters sleep at once... */
#define WAIT_SPIN_MISSES 4
/* ...but for one wait in this many, which spins again. */
#define WAIT_SPIN_PROBE 16

static int host_cpus;

/* Whether a waiter spins at all: not on one CPU, and never under Valgrind
 * (which runs one thread at a time, and whose Helgrind and DRD would see
 * host_cpus's relaxed atomics as a race: it is not even read there). */
static bool spin_useful(void)
{
	int n;

	if (dmaemu__on_valgrind)
		return false;
	n = __atomic_load_n(&host_cpus, __ATOMIC_RELAXED);
	if (!n) {
		long c = sysconf(_SC_NPROCESSORS_ONLN);

		n = c > 1 ? 2 : 1;
		__atomic_store_n(&host_cpus, n, __ATOMIC_RELAXED);
	}
	return n > 1;
}

static uint64_t ts_ns(const struct timespec *ts)
{
	return (uint64_t)ts->tv_sec * 1000000000ull + (uint64_t)ts->tv_nsec;
}

/*
 * Watch @seq for a change from @was, WAIT_SPIN_NS at most and not past
 * @abstime (CLOCK_MONOTONIC, or NULL).  Return: whether it changed.
 */
static bool spin_for(const unsigned int *seq, unsigned int was,
		     const struct timespec *abstime)
{
	struct timespec now;
	uint64_t end;
	unsigned int i;

	clock_gettime(CLOCK_MONOTONIC, &now);
	end = ts_ns(&now) + WAIT_SPIN_NS;
	if (abstime && ts_ns(abstime) < end)
		end = ts_ns(abstime);
	for (;;) {
		for (i = 0; i < WAIT_SPIN_CHUNK; i++) {
			if (__atomic_load_n(seq, __ATOMIC_ACQUIRE) != was)
				return true;
			cpu_relax();
		}
		/* The waker may be waiting for this very CPU. */
		sched_yield();
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (ts_ns(&now) >= end)
			return false;
	}
}

/**
 * dmaemu__cond_wait_spin() - pthread_cond_wait() on @cond with @mu held,
 * or pthread_cond_timedwait() until @abstime when not NULL (@cond on
 * CLOCK_MONOTONIC), after a bounded spin (see Hand-offs above).
 * @cond:    the condition variable.
 * @mu:      its mutex, held; held again on return.
 * @w:       its waiters' shared state: every waker of @cond bumps its
 *           sequence number with dmaemu__wake_seq(), @mu held, before it
 *           broadcasts.
 * @abstime: the deadline, or NULL.
 *
 * Like pthread_cond_wait(), it may return without a wake-up: the caller
 * looks at what it waits for again, with @mu held, as it must anyway.
 *
 * Return: 0, or ETIMEDOUT (only with @abstime) as pthread_cond_timedwait().
 */
int dmaemu__cond_wait_spin(pthread_cond_t *cond, pthread_mutex_t *mu,
			   struct dmaemu__wake *w,
			   const struct timespec *abstime)
{
	unsigned int was = __atomic_load_n(&w->seq, __ATOMIC_RELAXED);
	bool woken;
	int ret;

	if (spin_useful() &&
	    (w->miss < WAIT_SPIN_MISSES ||
	     (w->miss - WAIT_SPIN_MISSES) % WAIT_SPIN_PROBE == 0)) {
		dmaemu__unlock(mu);
		woken = spin_for(&w->seq, was, abstime);
		dmaemu__lock(mu);
		if (woken ||
		    __atomic_load_n(&w->seq, __ATOMIC_RELAXED) != was) {
			w->miss = 0;
			return 0;
		}
	}
	if (w->miss < UINT_MAX)
		w->miss++;
	ret = abstime ? pthread_cond_timedwait(cond, mu, abstime)
		      : pthread_cond_wait(cond, mu);
	if (ret && ret != ETIMEDOUT)
		abort();
	return ret;
}
