/* SPDX-License-Identifier: MIT */
/*
 * <linux/prefetch.h> - prefetch(), prefetchw() and prefetch_range(): hints
 * to the host CPU only.  They read nothing through the emulated cache, so
 * they change no line's state and are never a stale read (the emulated
 * CPU's own speculative prefetch is the prefetch= option).
 */
#ifndef DMAEMU_KERNEL_LINUX_PREFETCH_H
#define DMAEMU_KERNEL_LINUX_PREFETCH_H

#include <stddef.h>

#define prefetch(x) __builtin_prefetch(x)
#define prefetchw(x) __builtin_prefetch(x, 1)
#define PREFETCH_STRIDE 128

static inline void prefetch_range(void *addr, size_t len)
{
	(void)addr;
	(void)len;
}

/* What Linux 4.14's include chain brings with this header (docs/kernel-headers.md). */
#include <asm/cache.h>
#include <linux/types.h>

#endif
