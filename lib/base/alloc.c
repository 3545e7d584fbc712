// SPDX-License-Identifier: MIT
/*
 * alloc.c - the one host allocator of lib/.
 *
 * Every malloc-family call of the library comes here, and so does every
 * mmap() that creates a mapping, memfd_create() and pthread_create(), so
 * that a test can make the n-th host allocation from now fail (and every
 * later one, until it says stop) and check that the failure is reported
 * and nothing leaks.  The countdown is one atomic: free when no failure
 * is asked for.
 *
 * DMAEMU_ALLOC_FAIL=N in the environment of a program arms it at load for
 * the N-th host allocation of the process (tests/scripts/alloc-fail.sh,
 * docs/reliability.md); the first failure it makes prints one line on
 * stderr naming the call, so that a caller can tell whether N was reached.
 * DMAEMU_ALLOC_FAIL_NTH=N fails the N-th host allocation only, as Linux's
 * fail-nth does, so that what a program does after recovering from one
 * failure runs too.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "base/base.h"

static uint64_t calls;	 /* allocations made (atomic) */
static uint64_t fail_at; /* calls value from which to fail; 0 = never */
static uint64_t failed[DMAEMU__ALLOC_KINDS]; /* failures made (atomic) */
static int announce;	  /* DMAEMU_ALLOC_FAIL: print the first failure */
static int hit_kind = -1; /* the kind of call number fail_at (atomic) */
static int
	only_nth; /* DMAEMU_ALLOC_FAIL_NTH: fail call fail_at only (atomic) */

static const char *const kind_names[DMAEMU__ALLOC_KINDS] = {
	[DMAEMU__ALLOC_MALLOC] = "malloc",
	[DMAEMU__ALLOC_MMAP] = "mmap",
	[DMAEMU__ALLOC_MEMFD] = "memfd_create",
	[DMAEMU__ALLOC_THREAD] = "pthread_create",
};

/* The value of the variable @name: 0 when unset; 0 and a message when
 * it is not a positive number. */
static uint64_t env_count(const char *name)
{
	const char *v = getenv(name);
	char *end;
	unsigned long long n;

	if (!v || !*v)
		return 0;
	errno = 0;
	n = strtoull(v, &end, 10);
	if (errno || *end || !n) {
		fprintf(stderr,
			"dmaemu: %s=%s: not a positive number, ignored\n", name,
			v);
		return 0;
	}
	return n;
}

__attribute__((constructor)) static void alloc_fail_from_env(void)
{
	uint64_t from = env_count("DMAEMU_ALLOC_FAIL");
	uint64_t nth = env_count("DMAEMU_ALLOC_FAIL_NTH");

	if (from && nth) {
		fprintf(stderr,
			"dmaemu: DMAEMU_ALLOC_FAIL and "
			"DMAEMU_ALLOC_FAIL_NTH both set: both ignored\n");
		return;
	}
	if (!from && !nth)
		return;
	announce = 1;
	__atomic_store_n(&only_nth, nth != 0, __ATOMIC_RELAXED);
	__atomic_store_n(&fail_at, from ? from : nth, __ATOMIC_RELAXED);
}

void dmaemu__alloc_fail_after(uint64_t n)
{
	uint64_t at = n ? __atomic_load_n(&calls, __ATOMIC_RELAXED) + n : 0;

	__atomic_store_n(&hit_kind, -1, __ATOMIC_RELAXED);
	__atomic_store_n(&only_nth, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&fail_at, at, __ATOMIC_RELAXED);
}

uint64_t dmaemu__alloc_calls(void)
{
	return __atomic_load_n(&calls, __ATOMIC_RELAXED);
}

int dmaemu__alloc_hit_kind(void)
{
	return __atomic_load_n(&hit_kind, __ATOMIC_RELAXED);
}

uint64_t dmaemu__alloc_failed(enum dmaemu__alloc_kind kind)
{
	return __atomic_load_n(&failed[kind], __ATOMIC_RELAXED);
}

/* Count one call of @kind; true (errno ENOMEM) when it must fail. */
static bool must_fail(enum dmaemu__alloc_kind kind)
{
	uint64_t n = __atomic_add_fetch(&calls, 1, __ATOMIC_RELAXED);
	uint64_t at = __atomic_load_n(&fail_at, __ATOMIC_RELAXED);
	int once = __atomic_load_n(&only_nth, __ATOMIC_RELAXED);

	if (!at || n < at || (once && n != at))
		return false;
	if (n == at)
		__atomic_store_n(&hit_kind, (int)kind, __ATOMIC_RELAXED);
	if (!__atomic_fetch_add(&failed[kind], 1, __ATOMIC_RELAXED) &&
	    __atomic_exchange_n(&announce, 0, __ATOMIC_RELAXED))
		fprintf(stderr,
			"dmaemu: %s: host allocation %llu (%s) fails%s\n",
			once ? "DMAEMU_ALLOC_FAIL_NTH" : "DMAEMU_ALLOC_FAIL",
			(unsigned long long)n, kind_names[kind],
			once ? ", only this one" : ", and every later one");
	errno = ENOMEM;
	return true;
}

void *dmaemu__malloc(size_t size)
{
	return must_fail(DMAEMU__ALLOC_MALLOC) ? NULL : malloc(size);
}

void *dmaemu__calloc(size_t n, size_t size)
{
	return must_fail(DMAEMU__ALLOC_MALLOC) ? NULL : calloc(n, size);
}

void *dmaemu__realloc(void *p, size_t size)
{
	return must_fail(DMAEMU__ALLOC_MALLOC) ? NULL : realloc(p, size);
}

char *dmaemu__strdup(const char *s)
{
	return must_fail(DMAEMU__ALLOC_MALLOC) ? NULL : strdup(s);
}

void *dmaemu__mmap(void *addr, size_t len, int prot, int flags, int fd,
		   off_t off)
{
	if (must_fail(DMAEMU__ALLOC_MMAP))
		return MAP_FAILED;
	return mmap(addr, len, prot, flags, fd, off);
}

int dmaemu__memfd_create(const char *name, unsigned int flags)
{
	return must_fail(DMAEMU__ALLOC_MEMFD) ? -1 : memfd_create(name, flags);
}

/* As pthread_create() fails for want of resources: EAGAIN, errno kept. */
int dmaemu__pthread_create(pthread_t *t, const pthread_attr_t *attr,
			   void *(*fn)(void *), void *arg)
{
	int saved = errno;

	if (must_fail(DMAEMU__ALLOC_THREAD)) {
		errno = saved;
		return EAGAIN;
	}
	return pthread_create(t, attr, fn, arg);
}

void dmaemu__free(void *p)
{
	free(p);
}
