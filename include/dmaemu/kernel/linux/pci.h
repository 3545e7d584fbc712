/* SPDX-License-Identifier: MIT */
/*
 * <linux/pci.h> - a minimal struct pci_dev, for the DMA and probe paths of
 * PCI drivers.
 *
 * There is no PCI bus to enumerate: a test (acting as the PCI core) embeds
 * a struct pci_dev in its own memory, zeroes it, fills the identity it
 * wants (@vendor, @device, ...) and ties it to an emulated device with
 * dmaemu_pci_dev_bind() (<dmaemu/device.h>), which sets up what
 * pci_setup_device() would: @dev (bound, so &pdev->dev works with the
 * whole DMA API), the 32-bit @dma_mask that @dev.dma_mask points at, BAR 0
 * on the emulated device's register window (when it has one) and @irq on
 * its interrupt line 0.  Then it calls the driver's probe(pdev, id).
 * dmaemu_device_unbind(&pdev->dev) (or the last pci_dev_put()) ends it.
 *
 * pci_enable_device(), pci_set_master(), pci_request_regions() and their
 * undo calls succeed and only record the state; config space is not
 * emulated.  The DMA wrappers of 4.14 (pci_alloc_consistent(),
 * pci_map_single(), ...) come from <linux/pci-dma-compat.h>, included
 * here as in the kernel (with DMAEMU_KERNEL=612, where Linux 5.18 removed
 * them, each is a compile error naming its dma_* replacement).
 */
#ifndef DMAEMU_KERNEL_LINUX_PCI_H
#define DMAEMU_KERNEL_LINUX_PCI_H

#include <stdbool.h>

#include <dmaemu/ktypes.h>
#include <linux/compiler.h>
#include <linux/device.h>
#include <linux/dmapool.h>
#include <linux/io.h>
#include <linux/mod_devicetable.h>
#include <linux/ioport.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PCI_DEVFN(slot, func) ((((slot)&0x1f) << 3) | ((func)&0x07))
#define PCI_SLOT(devfn) (((devfn) >> 3) & 0x1f)
#define PCI_FUNC(devfn) ((devfn)&0x07)

/* BARs 0-5, the ROM, and bridge windows: Linux 4.14's count. */
#define PCI_STD_RESOURCES 0
#define PCI_STD_RESOURCE_END 5
#define PCI_ROM_RESOURCE 6
#define DEVICE_COUNT_RESOURCE 11

/** struct pci_bus - the bus a device sits on (its number only). */
struct pci_bus {
	unsigned char number;
};

#define PCI_DEVICE(vend, dev)                                       \
	.vendor = (vend), .device = (dev), .subvendor = PCI_ANY_ID, \
	.subdevice = PCI_ANY_ID

/**
 * struct pci_dev - a PCI function.
 * @bus:              its bus (points at @dmaemu_bus after the bind).
 * @devfn:            slot and function (PCI_SLOT(), PCI_FUNC()).
 * @vendor:           vendor id.
 * @device:           device id.
 * @subsystem_vendor: subsystem vendor id.
 * @subsystem_device: subsystem id.
 * @class:            class code (3 bytes).
 * @revision:         revision id.
 * @dma_mask:         the streaming mask @dev.dma_mask points at, as
 *                    pci_setup_device() sets it (32 bits).
 * @dev:              the struct device of the DMA API (&pdev->dev).
 * @irq:              the interrupt (request_irq(pdev->irq, ...)).
 * @resource:         BARs: resource[0] is the register window.
 * @dmaemu_bus:       storage for @bus.
 * @dmaemu_enabled:   pci_enable_device() count.
 * @dmaemu_master:    pci_set_master() was called (and no clear since).
 */
struct pci_dev {
	struct pci_bus *bus;
	unsigned int devfn;
	unsigned short vendor;
	unsigned short device;
	unsigned short subsystem_vendor;
	unsigned short subsystem_device;
	unsigned int class;
	u8 revision;
	u64 dma_mask;
	struct device dev;
	unsigned int irq;
	struct resource resource[DEVICE_COUNT_RESOURCE];
	struct pci_bus dmaemu_bus;
	int dmaemu_enabled;
	bool dmaemu_master;
};

#define to_pci_dev(n) container_of((n), struct pci_dev, dev)

/* For <linux/pci-dma-compat.h>: &@hwdev->dev, NULL for NULL (checks that
 * @hwdev is a struct pci_dev *). */
static inline struct device *dmaemu__pci_dma_dev(struct pci_dev *hwdev)
{
	return hwdev ? &hwdev->dev : NULL;
}

#define pci_resource_start(dev, bar) ((dev)->resource[(bar)].start)
#define pci_resource_end(dev, bar) ((dev)->resource[(bar)].end)
#define pci_resource_flags(dev, bar) ((dev)->resource[(bar)].flags)
#define pci_resource_len(dev, bar)                                            \
	((pci_resource_start((dev), (bar)) == 0 &&                            \
	  pci_resource_end((dev), (bar)) == pci_resource_start((dev), (bar))) \
		 ? 0                                                          \
		 : (pci_resource_end((dev), (bar)) -                          \
		    pci_resource_start((dev), (bar)) + 1))

/** pci_name() - the device's name ("0000:00:03.0" in Linux; here the
 * emulated device's name unless the test set @dev.init_name). */
static inline const char *pci_name(const struct pci_dev *pdev)
{
	return dev_name(&pdev->dev);
}

static inline void *pci_get_drvdata(struct pci_dev *pdev)
{
	return dev_get_drvdata(&pdev->dev);
}

static inline void pci_set_drvdata(struct pci_dev *pdev, void *data)
{
	dev_set_drvdata(&pdev->dev, data);
}

/** pci_enable_device() - nothing to power up: counts, returns 0. */
static inline int pci_enable_device(struct pci_dev *pdev)
{
	pdev->dmaemu_enabled++;
	return 0;
}

static inline int pci_enable_device_mem(struct pci_dev *pdev)
{
	return pci_enable_device(pdev);
}

static inline void pci_disable_device(struct pci_dev *pdev)
{
	if (pdev->dmaemu_enabled > 0)
		pdev->dmaemu_enabled--;
}

static inline bool pci_is_enabled(struct pci_dev *pdev)
{
	return pdev->dmaemu_enabled > 0;
}

/** pci_set_master() - bus mastering is always on here; recorded. */
static inline void pci_set_master(struct pci_dev *pdev)
{
	pdev->dmaemu_master = true;
}

static inline void pci_clear_master(struct pci_dev *pdev)
{
	pdev->dmaemu_master = false;
}

/** pci_request_regions() - no other driver competes for them: 0. */
static inline int pci_request_regions(struct pci_dev *pdev, const char *name)
{
	(void)pdev;
	(void)name;
	return 0;
}

static inline void pci_release_regions(struct pci_dev *pdev)
{
	(void)pdev;
}

/**
 * pci_iomap() - ioremap() BAR @bar, at most @maxlen bytes (0: all).
 * Return: the __iomem cookie, or NULL for an empty BAR (or a report of
 * ioremap()).
 */
static inline void __iomem *pci_iomap(struct pci_dev *pdev, int bar,
				      unsigned long maxlen)
{
	resource_size_t len = pci_resource_len(pdev, bar);

	if (!len)
		return NULL;
	if (maxlen && maxlen < len)
		len = maxlen;
	return ioremap(pci_resource_start(pdev, bar), (size_t)len);
}

static inline void pci_iounmap(struct pci_dev *pdev, void __iomem *addr)
{
	(void)pdev;
	iounmap(addr);
}

/** pci_ioremap_bar() - ioremap() all of BAR @bar. */
static inline void __iomem *pci_ioremap_bar(struct pci_dev *pdev, int bar)
{
	return pci_iomap(pdev, bar, 0);
}

/* The PCI names of the DMA pools (Linux 4.14 still has them). */
#define pci_pool dma_pool
#define pci_pool_create(name, pdev, size, align, allocation)                \
	dma_pool_create((name), dmaemu__pci_dma_dev(pdev), (size), (align), \
			(allocation))
#define pci_pool_destroy(pool) dma_pool_destroy(pool)
#define pci_pool_alloc(pool, flags, handle) \
	dma_pool_alloc((pool), (flags), (handle))
#define pci_pool_zalloc(pool, flags, handle) \
	dma_pool_zalloc((pool), (flags), (handle))
#define pci_pool_free(pool, vaddr, addr) dma_pool_free((pool), (vaddr), (addr))

static inline struct pci_dev *pci_dev_get(struct pci_dev *pdev)
{
	if (pdev)
		get_device(&pdev->dev);
	return pdev;
}

static inline void pci_dev_put(struct pci_dev *pdev)
{
	if (pdev)
		put_device(&pdev->dev);
}

#ifdef __cplusplus
}
#endif

#define DMAEMU__PCI_H_INCLUDES_COMPAT
#include <linux/pci-dma-compat.h>
#undef DMAEMU__PCI_H_INCLUDES_COMPAT

/* What Linux 4.14's include chain brings with this header (docs/kernel-headers.md). */
#include <linux/errno.h>
#include <linux/io.h>
#include <linux/kernel.h>

#endif
