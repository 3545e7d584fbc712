/* SPDX-License-Identifier: MIT */
/*
 * <asm/io.h> - the architecture's register accessors, and <linux/io.h>.
 *
 * __raw_readl(), __raw_writel() and the other widths access a register
 * (or memory) with neither barriers nor byte swapping: they are the
 * _relaxed accessors of <linux/io.h> on the host's (little-endian) order.
 * ioread32be()/iowrite32be() and friends swap.  The _rep forms move
 * @count values between one register and a buffer.
 */
#ifndef DMAEMU_KERNEL_ASM_IO_H
#define DMAEMU_KERNEL_ASM_IO_H

#include <linux/io.h>

#include <asm/byteorder.h>

#define __raw_readb(a) readb_relaxed(a)
#define __raw_readw(a) readw_relaxed(a)
#define __raw_readl(a) readl_relaxed(a)
#define __raw_readq(a) readq_relaxed(a)
#define __raw_writeb(v, a) writeb_relaxed(v, a)
#define __raw_writew(v, a) writew_relaxed(v, a)
#define __raw_writel(v, a) writel_relaxed(v, a)
#define __raw_writeq(v, a) writeq_relaxed(v, a)

static inline __attribute__((always_inline)) unsigned int ioread16be(
	const volatile void __iomem *addr)
{
	return be16_to_cpu(readw(addr));
}

static inline __attribute__((always_inline)) unsigned int ioread32be(
	const volatile void __iomem *addr)
{
	return be32_to_cpu(readl(addr));
}

static inline __attribute__((always_inline)) void iowrite16be(
	u16 value, volatile void __iomem *addr)
{
	writew(cpu_to_be16(value), addr);
}

static inline __attribute__((always_inline)) void iowrite32be(
	u32 value, volatile void __iomem *addr)
{
	writel(cpu_to_be32(value), addr);
}

static inline __attribute__((always_inline)) void ioread32_rep(
	const volatile void __iomem *addr, void *buf, unsigned long count)
{
	u32 *p = (u32 *)buf;

	while (count--)
		*p++ = readl(addr);
}

static inline __attribute__((always_inline)) void iowrite32_rep(
	volatile void __iomem *addr, const void *buf, unsigned long count)
{
	const u32 *p = (const u32 *)buf;

	while (count--)
		writel(*p++, addr);
}

#define readsl(addr, buf, count) ioread32_rep(addr, buf, count)
#define writesl(addr, buf, count) iowrite32_rep(addr, buf, count)

/* What Linux 4.14's include chain brings with this header (docs/kernel-headers.md). */
#include <linux/types.h>

#endif
