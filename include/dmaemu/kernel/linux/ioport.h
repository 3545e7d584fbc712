/* SPDX-License-Identifier: MIT */
/*
 * <linux/ioport.h> - resources: address ranges and interrupt numbers a
 * platform device has (see <linux/platform_device.h>).
 */
#ifndef DMAEMU_KERNEL_LINUX_IOPORT_H
#define DMAEMU_KERNEL_LINUX_IOPORT_H

#include <dmaemu/ktypes.h>

/**
 * struct resource - one resource of a device.
 * @start: first address (IORESOURCE_MEM: the physical address of the
 *         register window, for ioremap()) or the irq number.
 * @end:   last address (inclusive), or the irq number again.
 * @name:  the device's name.
 * @flags: IORESOURCE_MEM or IORESOURCE_IRQ.
 */
struct resource {
	resource_size_t start;
	resource_size_t end;
	const char *name;
	unsigned long flags;
};

#define IORESOURCE_TYPE_BITS 0x00001f00
#define IORESOURCE_IO 0x00000100
#define IORESOURCE_MEM 0x00000200
#define IORESOURCE_REG 0x00000300
#define IORESOURCE_IRQ 0x00000400
#define IORESOURCE_DMA 0x00000800

static inline resource_size_t resource_size(const struct resource *res)
{
	return res->end - res->start + 1;
}

static inline unsigned long resource_type(const struct resource *res)
{
	return res->flags & IORESOURCE_TYPE_BITS;
}

/* What Linux 4.14's include chain brings with this header (docs/kernel-headers.md). */
#include <linux/compiler.h>
#include <linux/types.h>

#endif
