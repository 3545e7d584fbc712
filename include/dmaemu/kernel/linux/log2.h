/* SPDX-License-Identifier: MIT */
/*
 * <linux/log2.h> - powers of two: ilog2(), is_power_of_2(),
 * roundup_pow_of_two(), rounddown_pow_of_two(), order_base_2().
 * ilog2() of a constant is a constant; of 0 it is -1 here (the kernel
 * leaves it undefined).
 */
#ifndef DMAEMU_KERNEL_LINUX_LOG2_H
#define DMAEMU_KERNEL_LINUX_LOG2_H

#include <stdbool.h>

#include <linux/bitops.h>

static inline bool is_power_of_2(unsigned long n)
{
	return n != 0 && (n & (n - 1)) == 0;
}

#define ilog2(n) ((n) == 0 ? -1 : 63 - __builtin_clzll((unsigned long long)(n)))

static inline unsigned long __roundup_pow_of_two(unsigned long n)
{
	return n <= 1 ? 1UL : 1UL << fls_long(n - 1);
}

static inline unsigned long __rounddown_pow_of_two(unsigned long n)
{
	return n ? 1UL << (fls_long(n) - 1) : 0;
}

#define roundup_pow_of_two(n) __roundup_pow_of_two(n)
#define rounddown_pow_of_two(n) __rounddown_pow_of_two(n)
#define order_base_2(n) ((n) > 1 ? ilog2((n)-1) + 1 : 0)

#endif
