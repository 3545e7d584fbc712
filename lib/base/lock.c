// SPDX-License-Identifier: MIT
/*
 * lock.c - the mutexes of the library.  In debug builds they check their
 * use (relocking, unlocking a mutex one does not hold), and dmaemu__lock()
 * turns any failure into an abort: a broken lock discipline is a broken
 * internal invariant, never a caller's error to report.
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
