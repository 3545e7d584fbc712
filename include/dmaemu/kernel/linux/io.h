/* SPDX-License-Identifier: MIT */
/*
 * <linux/io.h> - device registers: readl(), writel() and friends.
 *
 * An ioremap() cookie lies in the machine's MMIO window, which is not
 * memory: a plain load or store there is reported (mmio-access) and
 * faults.  These accessors call the device's register handlers instead
 * (a cookie with no device behind it is reported and reads all ones).
 * Given ordinary memory, they are volatile accesses through the model.
 *
 * Ordering follows Linux: readl() is followed by a read barrier, writel()
 * is preceded by a write barrier, which on the arm and arm64 profiles
 * also drains the write-combining buffers; the _relaxed variants do
 * neither.  ioread32()/iowrite32() are readl()/writel().
 */
#ifndef DMAEMU_KERNEL_LINUX_IO_H
#define DMAEMU_KERNEL_LINUX_IO_H

#include <stddef.h>

#include <asm/barrier.h>
#include <dmaemu/cpu.h>
#include <dmaemu/ktypes.h>

#ifndef __iomem
#define __iomem
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Map and unmap a device's register window (provided with the devices). */
void __iomem *ioremap(phys_addr_t offset, size_t size);
void __iomem *ioremap_nocache(phys_addr_t offset, size_t size);
void __iomem *ioremap_wc(phys_addr_t offset, size_t size);
void iounmap(volatile void __iomem *addr);

static inline u8 readb(const volatile void __iomem *addr)
{
	return (u8)dmaemu_mmio_read(addr, 1, 0);
}

static inline u16 readw(const volatile void __iomem *addr)
{
	return (u16)dmaemu_mmio_read(addr, 2, 0);
}

static inline u32 readl(const volatile void __iomem *addr)
{
	return (u32)dmaemu_mmio_read(addr, 4, 0);
}

static inline u64 readq(const volatile void __iomem *addr)
{
	return dmaemu_mmio_read(addr, 8, 0);
}

static inline void writeb(u8 value, volatile void __iomem *addr)
{
	dmaemu_mmio_write(addr, value, 1, 0);
}

static inline void writew(u16 value, volatile void __iomem *addr)
{
	dmaemu_mmio_write(addr, value, 2, 0);
}

static inline void writel(u32 value, volatile void __iomem *addr)
{
	dmaemu_mmio_write(addr, value, 4, 0);
}

static inline void writeq(u64 value, volatile void __iomem *addr)
{
	dmaemu_mmio_write(addr, value, 8, 0);
}

static inline u8 readb_relaxed(const volatile void __iomem *addr)
{
	return (u8)dmaemu_mmio_read(addr, 1, 1);
}

static inline u16 readw_relaxed(const volatile void __iomem *addr)
{
	return (u16)dmaemu_mmio_read(addr, 2, 1);
}

static inline u32 readl_relaxed(const volatile void __iomem *addr)
{
	return (u32)dmaemu_mmio_read(addr, 4, 1);
}

static inline u64 readq_relaxed(const volatile void __iomem *addr)
{
	return dmaemu_mmio_read(addr, 8, 1);
}

static inline void writeb_relaxed(u8 value, volatile void __iomem *addr)
{
	dmaemu_mmio_write(addr, value, 1, 1);
}

static inline void writew_relaxed(u16 value, volatile void __iomem *addr)
{
	dmaemu_mmio_write(addr, value, 2, 1);
}

static inline void writel_relaxed(u32 value, volatile void __iomem *addr)
{
	dmaemu_mmio_write(addr, value, 4, 1);
}

static inline void writeq_relaxed(u64 value, volatile void __iomem *addr)
{
	dmaemu_mmio_write(addr, value, 8, 1);
}

static inline unsigned int ioread8(const volatile void __iomem *addr)
{
	return readb(addr);
}

static inline unsigned int ioread16(const volatile void __iomem *addr)
{
	return readw(addr);
}

static inline unsigned int ioread32(const volatile void __iomem *addr)
{
	return readl(addr);
}

static inline void iowrite8(u8 value, volatile void __iomem *addr)
{
	writeb(value, addr);
}

static inline void iowrite16(u16 value, volatile void __iomem *addr)
{
	writew(value, addr);
}

static inline void iowrite32(u32 value, volatile void __iomem *addr)
{
	writel(value, addr);
}

#ifdef __cplusplus
}
#endif

#endif
