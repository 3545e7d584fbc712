/* SPDX-License-Identifier: MIT */
/*
 * <linux/slab.h> - kmalloc() and friends.
 *
 * Objects come from size classes like the kernel's kmalloc caches (8 ...
 * 8192 bytes in powers of two, plus 96 and 192), carved out of pages of
 * the emulated page allocator; larger requests take whole pages.  Every
 * object is aligned to the machine's DMA minimum alignment (option
 * dma_minalign, by default the cache line size), so kmalloc memory is safe
 * to map for DMA unless a lab lowers it.  The allocator's bookkeeping lives
 * in host memory, never in emulated DRAM.  See docs/memory.md.
 */
#ifndef DMAEMU_KERNEL_LINUX_SLAB_H
#define DMAEMU_KERNEL_LINUX_SLAB_H

#include <stdarg.h>
#include <stddef.h>

#include <linux/gfp.h>
#include <linux/mm.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What kmalloc(0) returns: not NULL, but any access to it is a bug. */
#define ZERO_SIZE_PTR ((void *)16)
#define ZERO_OR_NULL_PTR(x) ((unsigned long)(x) <= (unsigned long)ZERO_SIZE_PTR)

/* The largest size class; larger requests get whole pages. */
#define KMALLOC_SHIFT_HIGH (PAGE_SHIFT + 1)
#define KMALLOC_MAX_CACHE_SIZE (1UL << KMALLOC_SHIFT_HIGH)
/* The largest request: one block of the largest buddy order. */
#define KMALLOC_SHIFT_MAX (MAX_ORDER + PAGE_SHIFT - 1)
#define KMALLOC_MAX_SIZE (1UL << KMALLOC_SHIFT_MAX)

/**
 * kmalloc() - @size bytes from the current machine.
 * @flags: GFP flags; __GFP_ZERO zeroes, __GFP_DMA takes the pages from
 *         ZONE_DMA, __GFP_DMA32 and __GFP_HIGHMEM are invalid here (a
 *         bad-argument report, as the kernel BUG()s).
 * Return: the object; ZERO_SIZE_PTR for @size 0; NULL when memory is
 * exhausted or @size exceeds KMALLOC_MAX_SIZE (an alloc-failure report
 * unless __GFP_NOWARN).
 */
void *kmalloc(size_t size, gfp_t flags)
	__attribute__((alloc_size(1), warn_unused_result));
/** kzalloc() - kmalloc() zeroed. */
void *kzalloc(size_t size, gfp_t flags)
	__attribute__((alloc_size(1), warn_unused_result));
/** kmalloc_node() - kmalloc(); there is one node. */
void *kmalloc_node(size_t size, gfp_t flags, int node)
	__attribute__((alloc_size(1), warn_unused_result));
/**
 * kmalloc_array() - an array of @n elements of @size bytes.
 * Return: as kmalloc(); NULL with an alloc-failure report (unless
 * __GFP_NOWARN) when @n * @size overflows.
 */
void *kmalloc_array(size_t n, size_t size, gfp_t flags)
	__attribute__((alloc_size(1, 2), warn_unused_result));
/** kcalloc() - kmalloc_array() zeroed. */
void *kcalloc(size_t n, size_t size, gfp_t flags)
	__attribute__((alloc_size(1, 2), warn_unused_result));
/**
 * krealloc() - resize @p to @new_size bytes, keeping its contents.
 * Return: @p itself while it is large enough (ksize()), else a new object
 * (and @p is freed); ZERO_SIZE_PTR for @new_size 0 (and @p is freed);
 * NULL on failure, leaving @p alone.
 */
void *krealloc(const void *p, size_t new_size, gfp_t flags)
	__attribute__((alloc_size(2), warn_unused_result));
/**
 * kfree() - free what kmalloc() returned; NULL and ZERO_SIZE_PTR are
 * ignored.  Anything else that is not a live kmalloc object (a double free,
 * a pointer into an object, memory from elsewhere) is a bad-free report
 * and is left alone.
 */
void kfree(const void *objp);
/** kzfree() - zero the whole object, then kfree() it. */
void kzfree(const void *objp);
/**
 * ksize() - the usable size of a kmalloc object (its size class, which
 * may be more than was asked for).
 * Return: the size; 0 for NULL and ZERO_SIZE_PTR, and 0 with a
 * bad-argument report for anything else that is not a live object.
 */
size_t ksize(const void *objp);

/** kstrdup() - a kmalloc copy of @s; NULL for NULL. */
char *kstrdup(const char *s, gfp_t gfp);
/** kstrndup() - a kmalloc copy of at most @max bytes of @s, terminated. */
char *kstrndup(const char *s, size_t max, gfp_t gfp);
/** kmemdup() - a kmalloc copy of @len bytes at @src. */
void *kmemdup(const void *src, size_t len, gfp_t gfp)
	__attribute__((alloc_size(2)));
/** kasprintf() - a kmalloc string formatted as by printf. */
char *kasprintf(gfp_t gfp, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/** kvasprintf() - kasprintf() with a va_list. */
char *kvasprintf(gfp_t gfp, const char *fmt, va_list args)
	__attribute__((format(printf, 2, 0)));

/*
 * kvmalloc() falls back to vmalloc() in the kernel; there is no vmalloc
 * here, so these are kmalloc() (whose memory is also DMA-safe).
 */
void *kvmalloc(size_t size, gfp_t flags)
	__attribute__((alloc_size(1), warn_unused_result));
void *kvzalloc(size_t size, gfp_t flags)
	__attribute__((alloc_size(1), warn_unused_result));
void *kvmalloc_array(size_t n, size_t size, gfp_t flags)
	__attribute__((alloc_size(1, 2), warn_unused_result));
void kvfree(const void *addr);

#ifdef __cplusplus
}
#endif

/* What Linux 4.14's include chain brings with this header (docs/kernel-headers.md). */
#include <linux/kernel.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#endif
