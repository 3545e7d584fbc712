/* SPDX-License-Identifier: MIT */
/*
 * <linux/io-64-nonatomic-lo-hi.h> - 64-bit registers as two 32-bit
 * accesses, low half first: lo_hi_readq(), lo_hi_writeq().  readq() and
 * writeq() stay the 64-bit accessors of <linux/io.h>.
 */
#ifndef DMAEMU_KERNEL_LINUX_IO_64_NONATOMIC_LO_HI_H
#define DMAEMU_KERNEL_LINUX_IO_64_NONATOMIC_LO_HI_H

#include <linux/io.h>

static inline __attribute__((always_inline)) u64 lo_hi_readq(
	const volatile void __iomem *addr)
{
	const volatile u32 __iomem *p = (const volatile u32 __iomem *)addr;
	u32 low = readl(p), high = readl(p + 1);

	return low + ((u64)high << 32);
}

static inline __attribute__((always_inline)) void lo_hi_writeq(
	u64 val, volatile void __iomem *addr)
{
	volatile u32 __iomem *p = (volatile u32 __iomem *)addr;

	writel((u32)val, p);
	writel((u32)(val >> 32), p + 1);
}

#endif
