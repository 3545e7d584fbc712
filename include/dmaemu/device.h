/* SPDX-License-Identifier: MIT */
/*
 * <dmaemu/device.h> - emulated devices as DMA masters.
 *
 * A device belongs to one machine.  Drivers see it as a struct device
 * (dmaemu_device_to_dev()) and its registers as an __iomem window
 * (dmaemu_device_regs(), accessed with readl()/writel()); device models
 * and tests act as the hardware through the register handlers of struct
 * dmaemu_device_ops and through dmaemu_dma_read() and dmaemu_dma_write(),
 * which see memory the way a bus master does: through the IOMMU when there
 * is one, from DRAM (MEM) on non-coherent profiles, snooping the CPU cache
 * on x86.
 *
 * This header is all a device model needs: a model written out of tree
 * includes it and links the installed library, nothing private.
 */
#ifndef DMAEMU_DEVICE_H
#define DMAEMU_DEVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <dmaemu/ktypes.h>

#ifdef __cplusplus
extern "C" {
#endif

struct device;
struct dmaemu_machine;
struct dmaemu_device;

/**
 * struct dmaemu_device_ops - behaviour of a device model.
 * @mmio_size:  bytes of the device's register window (0: none).  The
 *              window is placed in the machine's MMIO space when the
 *              device is created; dmaemu_device_regs() gives its base.
 * @mmio_read:  a driver's readb/w/l/q() at byte offset @off of the window,
 *              @size 1, 2, 4 or 8: return the register's value (the
 *              accessor truncates it to @size bytes).  Runs on the
 *              driver's thread, with no lock of the machine held, so it
 *              may call dmaemu_dma_read()/dmaemu_dma_write().  NULL: the
 *              window is write-only; a read is reported (mmio-access) and
 *              gives all ones.
 * @mmio_write: a driver's writeb/w/l/q() of @val at @off, as @mmio_read.
 *              NULL: the window is read-only; a write is reported.
 * @release:    called by dmaemu_device_destroy() after the emulator has
 *              released the device's mappings and allocations and removed
 *              the register window; frees the model's private data.  May
 *              be NULL.
 *
 * Every member is optional; a window needs at least one handler.
 */
struct dmaemu_device_ops {
	size_t mmio_size;
	uint64_t (*mmio_read)(struct dmaemu_device *dev, uint64_t off,
			      unsigned int size);
	void (*mmio_write)(struct dmaemu_device *dev, uint64_t off,
			   uint64_t val, unsigned int size);
	void (*release)(struct dmaemu_device *dev);
};

/**
 * dmaemu_device_create() - add a device to machine @m.
 * @m:    the machine.
 * @name: device name, copied (dev_name(), reports).
 * @ops:  the model, or NULL for a bare device that a test or program drives
 *        by hand with dmaemu_dma_read()/dmaemu_dma_write().
 * @priv: the model's private data (dmaemu_device_priv()).
 *
 * The device starts with 32-bit streaming and coherent DMA masks, 64 KiB
 * maximum segments and a 4 GiB segment boundary, as in Linux.
 *
 * Return: the device, or NULL with a bad-argument report (@m or @name
 * NULL, name in use on @m, @ops with @mmio_size but no register handler,
 * or handlers without @mmio_size) and errno EINVAL or EEXIST; NULL with
 * errno ENOMEM when out of host memory or MMIO space.
 */
struct dmaemu_device *dmaemu_device_create(struct dmaemu_machine *m,
					   const char *name,
					   const struct dmaemu_device_ops *ops,
					   void *priv);

/**
 * dmaemu_device_destroy() - release a device.
 * @dev: the device (NULL is ignored).
 *
 * Streaming mappings and allocations still live are reported
 * (leaked-mapping, one report each) and released; managed (dmam_*)
 * allocations are released silently, as devres does.
 */
void dmaemu_device_destroy(struct dmaemu_device *dev);

/** dmaemu_device_to_dev() - the struct device drivers pass to the API. */
struct device *dmaemu_device_to_dev(struct dmaemu_device *dev);

/** dmaemu_dev_to_device() - back from a struct device (NULL if foreign). */
struct dmaemu_device *dmaemu_dev_to_device(const struct device *dev);

/** dmaemu_device_priv() - the @priv given at creation. */
void *dmaemu_device_priv(const struct dmaemu_device *dev);

/** dmaemu_device_machine() - the machine @dev belongs to. */
struct dmaemu_machine *dmaemu_device_machine(const struct dmaemu_device *dev);

/** dmaemu_device_name() - the device's name. */
const char *dmaemu_device_name(const struct dmaemu_device *dev);

/**
 * dmaemu_device_regs() - the device's register window, as a driver's
 * ioremap() of it would give: pass it (plus a register's offset) to
 * readl()/writel() and friends.  A plain load or store there is an
 * mmio-access report, as on hardware it would be a bus error.
 * @dev: the device.
 *
 * Return: the window's base, or NULL when @dev is not a live device or its
 * model has no registers (@mmio_size 0).
 */
void *dmaemu_device_regs(struct dmaemu_device *dev);

/**
 * dmaemu_device_set_privileged() - make the device's DMA accesses
 * privileged, or unprivileged (the default).
 * @dev:        the device.
 * @privileged: true for privileged accesses.
 *
 * With the IOMMU on (option iommu=1), mappings made with
 * DMA_ATTR_PRIVILEGED are reachable by privileged accesses only: an
 * unprivileged access to one is an iommu-fault.  Without the IOMMU the
 * flag has no effect.
 *
 * Return: 0; -EINVAL for a NULL @dev; -ENOMEM when out of host memory.
 */
int dmaemu_device_set_privileged(struct dmaemu_device *dev, bool privileged);

/**
 * dmaemu_dma_read() - the device reads @len bytes at bus address @addr.
 * @dev:  the device.
 * @addr: bus (DMA) address, as the driver programmed it.
 * @buf:  where the bytes go.
 * @len:  number of bytes.
 *
 * Translates through the IOMMU when on (permissions by direction), reads
 * DRAM (non-coherent profiles) or snoops the cache (x86: CPU-dirty lines
 * are cleaned first), and tells the checkers.
 *
 * Return: 0; -EFAULT with a report when any byte is outside DRAM, not
 * mapped in the IOMMU, or not readable by the device (@buf is then
 * untouched); -EINVAL for a NULL argument.
 */
int dmaemu_dma_read(struct dmaemu_device *dev, dma_addr_t addr, void *buf,
		    size_t len);

/**
 * dmaemu_dma_write() - the device writes @len bytes at bus address @addr.
 *
 * As dmaemu_dma_read(), the other way: on non-coherent profiles the bytes
 * land in DRAM only (the CPU's cached copy goes stale: device-changed
 * bytes); on x86 the CPU's copy is updated too.
 *
 * Return: 0; -EFAULT with a report when any byte is outside DRAM, not
 * mapped, or not writable by the device (nothing is written); -EINVAL for
 * a NULL argument.
 */
int dmaemu_dma_write(struct dmaemu_device *dev, dma_addr_t addr,
		     const void *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif
