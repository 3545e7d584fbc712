// SPDX-License-Identifier: MIT
/*
 * alloc.c - the one host allocator of lib/.
 *
 * Every malloc-family call of the library comes here, so that a test can
 * make the n-th allocation from now fail (and every later one, until it
 * says stop) and check that the failure is reported and nothing leaks.
 * The countdown is one atomic: free when no failure is asked for.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "base/base.h"

static uint64_t calls;	 /* allocations made (atomic) */
static uint64_t fail_at; /* calls value from which to fail; 0 = never */

void dmaemu__alloc_fail_after(uint64_t n)
{
	uint64_t at = n ? __atomic_load_n(&calls, __ATOMIC_RELAXED) + n : 0;

	__atomic_store_n(&fail_at, at, __ATOMIC_RELAXED);
}

uint64_t dmaemu__alloc_calls(void)
{
	return __atomic_load_n(&calls, __ATOMIC_RELAXED);
}

/* Count one call; true when it must fail. */
static bool must_fail(void)
{
	uint64_t n = __atomic_add_fetch(&calls, 1, __ATOMIC_RELAXED);
	uint64_t at = __atomic_load_n(&fail_at, __ATOMIC_RELAXED);

	if (at && n >= at) {
		errno = ENOMEM;
		return true;
	}
	return false;
}

void *dmaemu__malloc(size_t size)
{
	return must_fail() ? NULL : malloc(size);
}

void *dmaemu__calloc(size_t n, size_t size)
{
	return must_fail() ? NULL : calloc(n, size);
}

void *dmaemu__realloc(void *p, size_t size)
{
	return must_fail() ? NULL : realloc(p, size);
}

char *dmaemu__strdup(const char *s)
{
	return must_fail() ? NULL : strdup(s);
}

void dmaemu__free(void *p)
{
	free(p);
}
