/* SPDX-License-Identifier: MIT */
/*
 * <linux/string.h> - the kernel's string and memory functions.
 *
 * memcpy(), memset(), memmove(), memcmp(), strlen() and the rest are the
 * C library's (<string.h>); in instrumented code (dmaemu-cc) the calls of
 * memcpy(), memset(), memmove() and memcmp() reach the cache model.  The
 * kernel's own additions: strlcpy() and strscpy() (bounded copies that
 * always terminate), memchr_inv(), memzero_explicit(), and the kmalloc
 * copies kstrdup(), kstrndup() and kmemdup() (see <linux/slab.h>).
 */
#ifndef DMAEMU_KERNEL_LINUX_STRING_H
#define DMAEMU_KERNEL_LINUX_STRING_H

#include <stddef.h>
#include <string.h>
#include <sys/types.h>

#include <linux/errno.h>
#include <linux/types.h>

#ifdef __cplusplus
extern "C" {
#endif

char *kstrdup(const char *s, gfp_t gfp);
char *kstrndup(const char *s, size_t max, gfp_t gfp);
void *kmemdup(const void *src, size_t len, gfp_t gfp);

/*
 * Copy @src into @dest (@size bytes), terminated if @size > 0.
 * Return: strlen(@src): a value >= @size means it was cut.
 */
static inline size_t __dmaemu_strlcpy(char *dest, const char *src, size_t size)
{
	size_t len = strlen(src);

	if (size) {
		size_t n = len >= size ? size - 1 : len;

		memcpy(dest, src, n);
		dest[n] = '\0';
	}
	return len;
}
/* A C library may declare its own strlcpy(): the kernel's is a macro. */
#define strlcpy __dmaemu_strlcpy

/*
 * Copy @src into @dest (@count bytes), always terminated when @count > 0.
 * Return: the characters copied, or -E2BIG when @src was cut (or @count
 * is 0).
 */
static inline ssize_t strscpy(char *dest, const char *src, size_t count)
{
	size_t len;

	if (!count)
		return -E2BIG;
	len = strnlen(src, count);
	if (len == count) {
		memcpy(dest, src, count - 1);
		dest[count - 1] = '\0';
		return -E2BIG;
	}
	memcpy(dest, src, len + 1);
	return (ssize_t)len;
}

/* The first byte of @start..+@bytes that is not @c, or NULL. */
static inline void *memchr_inv(const void *start, int c, size_t bytes)
{
	const unsigned char *p = (const unsigned char *)start;
	size_t i;

	for (i = 0; i < bytes; i++)
		if (p[i] != (unsigned char)c)
			return (void *)(p + i);
	return NULL;
}

/* memset() to 0 that the compiler may not drop. */
static inline void memzero_explicit(void *s, size_t count)
{
	memset(s, 0, count);
	__asm__ __volatile__("" : : "r"(s) : "memory");
}

/* @str without leading and trailing white space (in place). */
static inline char *strim(char *s)
{
	size_t size = strlen(s);
	char *end;

	if (!size)
		return s;
	end = s + size - 1;
	while (end >= s && (*end == ' ' || *end == '\t' || *end == '\n'))
		end--;
	end[1] = '\0';
	while (*s == ' ' || *s == '\t' || *s == '\n')
		s++;
	return s;
}

#ifdef __cplusplus
}
#endif

#endif
