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
#define IORESOURCE_BUSY 0x80000000 /* claimed by a driver */

static inline resource_size_t resource_size(const struct resource *res)
{
	return res->end - res->start + 1;
}

static inline unsigned long resource_type(const struct resource *res)
{
	return res->flags & IORESOURCE_TYPE_BITS;
}

struct device;

/*
 * The busy ranges of a machine's physical address space (4.14's
 * iomem_resource with __request_region() and __release_region()): a
 * driver claims its register window before mapping it.
 * request_mem_region() gives a struct resource (IORESOURCE_MEM |
 * IORESOURCE_BUSY, @name) for the range of @n bytes from @start, or NULL
 * when the range overlaps one already claimed on the current machine (as
 * 4.14's, whose conflict with a busy resource fails the request).
 * release_mem_region() frees the claim of exactly that range; a range that
 * was not claimed is reported (4.14 warns "Trying to free nonexistent
 * resource").  devm_request_mem_region() claims on @dev's machine and
 * releases at unbind.  An empty range is reported and fails.  A claim
 * left at machine destroy is freed silently, as 4.14 keeps it.
 */
struct resource *request_mem_region(resource_size_t start, resource_size_t n,
				    const char *name);
void release_mem_region(resource_size_t start, resource_size_t n);
struct resource *devm_request_mem_region(struct device *dev,
					 resource_size_t start,
					 resource_size_t n, const char *name);

/* What Linux 4.14's include chain brings with this header (docs/kernel-headers.md). */
#include <linux/compiler.h>
#include <linux/types.h>

#endif
