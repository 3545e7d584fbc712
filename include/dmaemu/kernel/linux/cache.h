/* SPDX-License-Identifier: MIT */
/*
 * <linux/cache.h> - cache-line alignment of data.
 *
 * L1_CACHE_BYTES is a compile-time constant in the kernel (array sizes,
 * aligned attributes), but dmaemu's line size is a property of the
 * machine, chosen at run time (cache_line, 16 to 256 bytes; 64 on every
 * profile by default).  It is 128 here: the ARCH_DMA_MINALIGN of arm64,
 * which the kernel chose as the largest line of any arm64 part, and the
 * alignment kmalloc() gives by default there.  So ____cacheline_aligned
 * data is line-aligned on every profile's default geometry and on any
 * cache_line up to 128, and never asks for more alignment than kmalloc()
 * gives on arm64.  With cache_line=256, data aligned to 128 can share a
 * line, and dmaemu reports what that sharing causes, as hardware with
 * such lines would.  cache_line_size() is the current machine's line.
 */
#ifndef DMAEMU_KERNEL_LINUX_CACHE_H
#define DMAEMU_KERNEL_LINUX_CACHE_H

#include <linux/kernel.h>

#include <asm/cache.h>

#ifndef SMP_CACHE_BYTES
#define SMP_CACHE_BYTES L1_CACHE_BYTES
#endif
#define L1_CACHE_ALIGN(x) ALIGN(x, L1_CACHE_BYTES)
#define ____cacheline_aligned __attribute__((__aligned__(SMP_CACHE_BYTES)))
#define ____cacheline_aligned_in_smp ____cacheline_aligned
#define __cacheline_aligned ____cacheline_aligned
#define __cacheline_aligned_in_smp ____cacheline_aligned
#define ____cacheline_internodealigned_in_smp ____cacheline_aligned
#define __read_mostly
#define __ro_after_init
#define INTERNODE_CACHE_SHIFT L1_CACHE_SHIFT

#ifdef __cplusplus
extern "C" {
#endif

/**
 * cache_line_size() - the cache line size of the current machine
 * (the cache_line option), or L1_CACHE_BYTES without a machine.
 */
int cache_line_size(void);

#ifdef __cplusplus
}
#endif

#endif
