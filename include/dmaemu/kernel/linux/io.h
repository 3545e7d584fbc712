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

/*
 * ioremap() - map registers at physical address @offset (a device's
 * IORESOURCE_MEM, <linux/platform_device.h>) of the current machine: the
 * range must lie inside one device's register window, else NULL and an
 * mmio-access report.  The _nocache and _wc variants are the same (a
 * register window has no cache).  iounmap() of a cookie does nothing
 * (windows live as long as their device); of anything else it is a
 * bad-argument report.  devm_ioremap_resource() maps on the device's own
 * machine.
 */
void __iomem *ioremap(phys_addr_t offset, size_t size);
void __iomem *ioremap_nocache(phys_addr_t offset, size_t size);
void __iomem *ioremap_wc(phys_addr_t offset, size_t size);
void iounmap(volatile void __iomem *addr);

/*
 * devm_ioremap(), devm_ioremap_nocache(), devm_ioremap_wc() - ioremap()
 * on @dev's machine (4.14's lib/devres.c; NULL on failure, with the
 * mmio-access report).  The cookie lives as long as the device's window:
 * nothing is unmapped at unbind, and devm_iounmap() is iounmap().
 */
struct device;
void __iomem *devm_ioremap(struct device *dev, resource_size_t offset,
			   resource_size_t size);
void __iomem *devm_ioremap_nocache(struct device *dev, resource_size_t offset,
				   resource_size_t size);
void __iomem *devm_ioremap_wc(struct device *dev, resource_size_t offset,
			      resource_size_t size);
void devm_iounmap(struct device *dev, void __iomem *addr);

/*
 * readX() and writeX() for one width and ordering (@relaxed: the
 * _relaxed variants); the macros are the x86 kernel's names for the same
 * job, and are undefined again below.  These accessors are always
 * inlined, at -O0 too: the code address of a register write is then the
 * driver's line, which the reports of a device's fault name.
 */
#define build_mmio_read(name, type, bytes, relaxed)                  \
	static inline __attribute__((always_inline)) type name(      \
		const volatile void __iomem *addr)                   \
	{                                                            \
		return (type)dmaemu_mmio_read(addr, bytes, relaxed); \
	}
#define build_mmio_write(name, type, bytes, relaxed)            \
	static inline __attribute__((always_inline)) void name( \
		type value, volatile void __iomem *addr)        \
	{                                                       \
		dmaemu_mmio_write(addr, value, bytes, relaxed); \
	}

/*
 * clang-format cannot parse these lines, which end without a semicolon:
 * it is off from here to the end of the functions that follow them.
 */
/* clang-format off */
build_mmio_read(readb, u8, 1, 0)
build_mmio_read(readw, u16, 2, 0)
build_mmio_read(readl, u32, 4, 0)
build_mmio_read(readq, u64, 8, 0)
build_mmio_write(writeb, u8, 1, 0)
build_mmio_write(writew, u16, 2, 0)
build_mmio_write(writel, u32, 4, 0)
build_mmio_write(writeq, u64, 8, 0)
build_mmio_read(readb_relaxed, u8, 1, 1)
build_mmio_read(readw_relaxed, u16, 2, 1)
build_mmio_read(readl_relaxed, u32, 4, 1)
build_mmio_read(readq_relaxed, u64, 8, 1)
build_mmio_write(writeb_relaxed, u8, 1, 1)
build_mmio_write(writew_relaxed, u16, 2, 1)
build_mmio_write(writel_relaxed, u32, 4, 1)
build_mmio_write(writeq_relaxed, u64, 8, 1)

#undef build_mmio_read
#undef build_mmio_write

static inline __attribute__((always_inline)) unsigned int ioread8(const volatile void __iomem *addr)
{
	return readb(addr);
}

static inline __attribute__((always_inline)) unsigned int ioread16(const volatile void __iomem *addr)
{
	return readw(addr);
}

static inline __attribute__((always_inline)) unsigned int ioread32(const volatile void __iomem *addr)
{
	return readl(addr);
}

static inline __attribute__((always_inline)) void iowrite8(u8 value, volatile void __iomem *addr)
{
	writeb(value, addr);
}

static inline __attribute__((always_inline)) void iowrite16(u16 value, volatile void __iomem *addr)
{
	writew(value, addr);
}

static inline __attribute__((always_inline)) void iowrite32(u32 value, volatile void __iomem *addr)
{
	writel(value, addr);
}

/*
 * memcpy_fromio(), memcpy_toio(), memset_io() - copy between memory and
 * registers, a byte at a time with readb_relaxed()/writeb_relaxed() (4.14's
 * generic <asm-generic/io.h>): each byte is a register access the
 * device's model sees.
 */
static inline void memcpy_fromio(void *to, const volatile void __iomem *from,
				 size_t count)
{
	u8 *t = (u8 *)to;
	const volatile u8 __iomem *f = (const volatile u8 __iomem *)from;

	while (count--)
		*t++ = readb_relaxed(f++);
}

static inline void memcpy_toio(volatile void __iomem *to, const void *from,
			       size_t count)
{
	const u8 *f = (const u8 *)from;
	volatile u8 __iomem *t = (volatile u8 __iomem *)to;

	while (count--)
		writeb_relaxed(*f++, t++);
}

static inline void memset_io(volatile void __iomem *addr, int value,
			     size_t count)
{
	volatile u8 __iomem *a = (volatile u8 __iomem *)addr;

	while (count--)
		writeb_relaxed((u8)value, a++);
}

/* clang-format on */

#ifdef __cplusplus
}
#endif

/* As in the kernel, the architecture's half: __raw_readl() and friends. */
#include <asm/io.h>

/* What Linux 4.14's include chain brings with this header (docs/kernel-headers.md). */
#include <linux/bug.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/types.h>

#endif
