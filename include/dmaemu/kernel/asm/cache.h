/* SPDX-License-Identifier: MIT */
/*
 * <asm/cache.h> - L1_CACHE_SHIFT, L1_CACHE_BYTES and ARCH_DMA_MINALIGN
 * as compile-time constants: 128 bytes (see <linux/cache.h> for why).
 * The machine's ARCH_DMA_MINALIGN at run time is
 * dma_get_cache_alignment().
 */
#ifndef DMAEMU_KERNEL_ASM_CACHE_H
#define DMAEMU_KERNEL_ASM_CACHE_H

#define L1_CACHE_SHIFT 7
#define L1_CACHE_BYTES (1 << L1_CACHE_SHIFT)
#define ARCH_DMA_MINALIGN 128

#endif
