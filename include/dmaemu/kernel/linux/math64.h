/* SPDX-License-Identifier: MIT */
/* <linux/math64.h> - 64-bit division helpers (plain C division here). */
#ifndef DMAEMU_KERNEL_LINUX_MATH64_H
#define DMAEMU_KERNEL_LINUX_MATH64_H

#include <dmaemu/klevel.h>

#include <linux/types.h>

static inline u64 div_u64_rem(u64 dividend, u32 divisor, u32 *remainder)
{
	*remainder = (u32)(dividend % divisor);
	return dividend / divisor;
}

static inline s64 div_s64_rem(s64 dividend, s32 divisor, s32 *remainder)
{
	*remainder = (s32)(dividend % divisor);
	return dividend / divisor;
}

static inline u64 div64_u64(u64 dividend, u64 divisor)
{
	return dividend / divisor;
}

static inline s64 div64_s64(s64 dividend, s64 divisor)
{
	return dividend / divisor;
}

static inline u64 div_u64(u64 dividend, u32 divisor)
{
	return dividend / divisor;
}

static inline s64 div_s64(s64 dividend, s32 divisor)
{
	return dividend / divisor;
}

#define div64_ul(x, y) div64_u64((x), (y))
#if DMAEMU_KERNEL_LEVEL > 414 /* Linux 4.19's (<dmaemu/klevel.h>) */
#define DIV64_U64_ROUND_UP(ll, d) (((ll) + (d)-1) / (d))
#endif

/* do_div(n, base): n becomes n / base; the value is the remainder. */
#define do_div(n, base)                               \
	__extension__({                               \
		u32 __base = (base);                  \
		u32 __rem = (u32)((u64)(n) % __base); \
		(n) = (u64)(n) / __base;              \
		__rem;                                \
	})

#endif
