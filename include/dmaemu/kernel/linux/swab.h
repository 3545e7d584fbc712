/* SPDX-License-Identifier: MIT */
/* <linux/swab.h> - byte swaps: swab16(), swab32(), swab64() and friends. */
#ifndef DMAEMU_KERNEL_LINUX_SWAB_H
#define DMAEMU_KERNEL_LINUX_SWAB_H

#include <linux/types.h>

#define swab16(x) ((__u16)__builtin_bswap16((__u16)(x)))
#define swab32(x) ((__u32)__builtin_bswap32((__u32)(x)))
#define swab64(x) ((__u64)__builtin_bswap64((__u64)(x)))
/* The constant forms (4.14's UAPI <linux/swab.h>): the builtins fold to
 * integer constant expressions. */
#define ___constant_swab16(x) swab16(x)
#define ___constant_swab32(x) swab32(x)
#define ___constant_swab64(x) swab64(x)
#define swahw32(x) ((__u32)(((__u32)(x) << 16) | ((__u32)(x) >> 16)))
#define swahb32(x)                                  \
	((__u32)((((__u32)(x)&0x00ff00ffUL) << 8) | \
		 (((__u32)(x)&0xff00ff00UL) >> 8)))

static inline __u16 swab16p(const __u16 *p)
{
	return swab16(*p);
}

static inline __u32 swab32p(const __u32 *p)
{
	return swab32(*p);
}

static inline __u64 swab64p(const __u64 *p)
{
	return swab64(*p);
}

static inline void swab16s(__u16 *p)
{
	*p = swab16(*p);
}

static inline void swab32s(__u32 *p)
{
	*p = swab32(*p);
}

static inline void swab64s(__u64 *p)
{
	*p = swab64(*p);
}

#endif
