/* SPDX-License-Identifier: MIT */
/* <linux/bits.h> - single bits and masks of bits. */
#ifndef DMAEMU_KERNEL_LINUX_BITS_H
#define DMAEMU_KERNEL_LINUX_BITS_H

#define BITS_PER_LONG (8 * (int)sizeof(long))
#define BITS_PER_LONG_LONG 64
#define BITS_PER_BYTE 8

#define BIT(nr) (1UL << (nr))
#define BIT_ULL(nr) (1ULL << (nr))
#define BIT_MASK(nr) (1UL << ((nr) % BITS_PER_LONG))
#define BIT_WORD(nr) ((nr) / BITS_PER_LONG)
#define BIT_ULL_MASK(nr) (1ULL << ((nr) % BITS_PER_LONG_LONG))
#define BIT_ULL_WORD(nr) ((nr) / BITS_PER_LONG_LONG)

/* Bits @l to @h, both included (h >= l). */
#define GENMASK(h, l) \
	(((~0UL) - (1UL << (l)) + 1) & (~0UL >> (BITS_PER_LONG - 1 - (h))))
#define GENMASK_ULL(h, l)                \
	(((~0ULL) - (1ULL << (l)) + 1) & \
	 (~0ULL >> (BITS_PER_LONG_LONG - 1 - (h))))

#endif
