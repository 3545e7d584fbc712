// SPDX-License-Identifier: MIT
/*
 * memintrin.c - memcpy, memset, memmove, memcmp of instrumented code,
 * through the model.
 *
 * How it works.  Neither compiler checks the bytes a call to memcpy and
 * friends touches: a kernel's KASAN build provides checked versions of
 * the functions themselves.  Clang even turns struct copies and
 * zeroing loops into memcpy/memset calls.  So the calls are redirected at
 * link time: dmaemu-cc (and `pkg-config --libs dmaemu-instrument`) link
 * with -Wl,--wrap=memcpy and the like, which makes every reference to
 * memcpy *in the program's own objects* call __wrap_memcpy() below, while
 * the C library, libdmaemu itself and other shared libraries keep the real
 * functions.  Each wrapper runs the model over the source range (loads)
 * and the destination range (stores), one access per line, and then calls
 * the real function.  (libdmaemu must be linked as a shared library for
 * this: the model's own copies must not be routed back into it.)
 *
 * The _chk variants are what _FORTIFY_SOURCE turns the calls into; bcmp is
 * what Clang turns memcmp(...) == 0 into.  __asan_memcpy and friends are
 * the names newer Clang versions emit with
 * -mllvm -asan-kernel-mem-intrinsic-prefix; Clang 14 and GCC 12 do not.
 *
 * memcmp and bcmp count as reading both ranges whole, even though they
 * stop at the first difference.
 */
#include "config.h"

#include <string.h>
#include <strings.h>

#include "cpu/cpu.h"

/* glibc's checking versions (no header declares them). */
void *__memcpy_chk(void *dst, const void *src, size_t len, size_t dstlen);
void *__memmove_chk(void *dst, const void *src, size_t len, size_t dstlen);
void *__memset_chk(void *dst, int c, size_t len, size_t dstlen);

void *__wrap_memcpy(void *dst, const void *src, size_t len);
void *__wrap_memmove(void *dst, const void *src, size_t len);
void *__wrap_memset(void *dst, int c, size_t len);
int __wrap_memcmp(const void *a, const void *b, size_t len);
int __wrap_bcmp(const void *a, const void *b, size_t len);
void *__wrap_mempcpy(void *dst, const void *src, size_t len);
void *__wrap___memcpy_chk(void *dst, const void *src, size_t len,
			  size_t dstlen);
void *__wrap___memmove_chk(void *dst, const void *src, size_t len,
			   size_t dstlen);
void *__wrap___memset_chk(void *dst, int c, size_t len, size_t dstlen);
void *__asan_memcpy(void *dst, const void *src, size_t len);
void *__asan_memmove(void *dst, const void *src, size_t len);
void *__asan_memset(void *dst, int c, size_t len);

/* The access site: the line of driver code that called the function. */
#define SITE __builtin_return_address(0)

static void copy_hook(void *dst, const void *src, size_t len, const void *site)
{
	dmaemu__order_stale.n = 0;
	dmaemu__cpu_range_at(src, len, false, site);
	dmaemu__cpu_range_at(dst, len, true, site);
}

void *__wrap_memcpy(void *dst, const void *src, size_t len)
{
	copy_hook(dst, src, len, SITE);
	memcpy(dst, src, len);
	/* Words of coherent memory loaded early (order.c). */
	dmaemu__cpu_stale_fix(src, dst, len);
	return dst;
}

void *__wrap_memmove(void *dst, const void *src, size_t len)
{
	copy_hook(dst, src, len, SITE);
	memmove(dst, src, len);
	/* Words of coherent memory loaded early (order.c). */
	dmaemu__cpu_stale_fix(src, dst, len);
	return dst;
}

void *__wrap_memset(void *dst, int c, size_t len)
{
	dmaemu__cpu_range_at(dst, len, true, SITE);
	return memset(dst, c, len);
}

int __wrap_memcmp(const void *a, const void *b, size_t len)
{
	dmaemu__cpu_range_at(a, len, false, SITE);
	dmaemu__cpu_range_at(b, len, false, SITE);
	if (!len) /* memcmp() may not be given NULL, even for 0 bytes */
		return 0;
	return memcmp(a, b, len);
}

int __wrap_bcmp(const void *a, const void *b, size_t len)
{
	dmaemu__cpu_range_at(a, len, false, SITE);
	dmaemu__cpu_range_at(b, len, false, SITE);
	if (!len)
		return 0;
	return bcmp(a, b, len);
}

void *__wrap_mempcpy(void *dst, const void *src, size_t len)
{
	copy_hook(dst, src, len, SITE);
	return mempcpy(dst, src, len);
}

void *__wrap___memcpy_chk(void *dst, const void *src, size_t len, size_t dstlen)
{
	/* An overflow is the C library's to report, before any access. */
	if (len <= dstlen)
		copy_hook(dst, src, len, SITE);
	__memcpy_chk(dst, src, len, dstlen);
	dmaemu__cpu_stale_fix(src, dst, len);
	return dst;
}

void *__wrap___memmove_chk(void *dst, const void *src, size_t len,
			   size_t dstlen)
{
	if (len <= dstlen)
		copy_hook(dst, src, len, SITE);
	return __memmove_chk(dst, src, len, dstlen);
}

void *__wrap___memset_chk(void *dst, int c, size_t len, size_t dstlen)
{
	if (len <= dstlen)
		dmaemu__cpu_range_at(dst, len, true, SITE);
	return __memset_chk(dst, c, len, dstlen);
}

void *__asan_memcpy(void *dst, const void *src, size_t len)
{
	copy_hook(dst, src, len, SITE);
	memcpy(dst, src, len);
	dmaemu__cpu_stale_fix(src, dst, len);
	return dst;
}

void *__asan_memmove(void *dst, const void *src, size_t len)
{
	copy_hook(dst, src, len, SITE);
	return memmove(dst, src, len);
}

void *__asan_memset(void *dst, int c, size_t len)
{
	dmaemu__cpu_range_at(dst, len, true, SITE);
	return memset(dst, c, len);
}
