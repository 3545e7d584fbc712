/* SPDX-License-Identifier: MIT */
/*
 * <linux/device.h> - the struct device that drivers pass to the DMA API.
 *
 * Every struct device belongs to an emulated device made with
 * dmaemu_device_create() (<dmaemu/device.h>), and through it to a machine.
 * Drivers read and set the DMA fields as in the kernel; the fields named
 * dmaemu_* belong to the emulator.
 */
#ifndef DMAEMU_KERNEL_LINUX_DEVICE_H
#define DMAEMU_KERNEL_LINUX_DEVICE_H

#include <dmaemu/ktypes.h>

#ifdef __cplusplus
extern "C" {
#endif

struct dmaemu_device;

/**
 * struct device_dma_parameters - limits of the device's DMA engine.
 * @max_segment_size:      longest scatterlist segment it takes (64 KiB by
 *                         default, as in Linux).
 * @segment_boundary_mask: a segment may not cross an address boundary of
 *                         (mask + 1) bytes (default 0xffffffff).
 */
struct device_dma_parameters {
	unsigned int max_segment_size;
	unsigned long segment_boundary_mask;
};

/**
 * struct device - a device as the DMA API sees it.
 * @init_name:         name given at creation (also dev_name()).
 * @dma_mask:          streaming DMA mask; points at @dmaemu_dma_mask until a
 *                     driver points it elsewhere.
 * @coherent_dma_mask: mask for coherent allocations.
 * @dma_parms:         segment limits; points at @dmaemu_dma_parms.
 * @driver_data:       for dev_get_drvdata()/dev_set_drvdata().
 * @dmaemu:            the emulated device this struct belongs to.
 * @dmaemu_dma_mask:   storage for the default @dma_mask.
 * @dmaemu_dma_parms:  storage for the default @dma_parms.
 */
struct device {
	const char *init_name;
	u64 *dma_mask;
	u64 coherent_dma_mask;
	struct device_dma_parameters *dma_parms;
	void *driver_data;
	struct dmaemu_device *dmaemu;
	u64 dmaemu_dma_mask;
	struct device_dma_parameters dmaemu_dma_parms;
};

/**
 * struct device_driver - what a bus matches devices against.
 * @name: the driver's name (the platform bus matches it with the model's).
 */
struct device_driver {
	const char *name;
};

struct resource;

/**
 * devm_kmalloc() - kmalloc() that is freed when the driver is unbound from
 * @dev (or @dev is destroyed).
 * Return: the memory, or NULL (an alloc-failure report; a bad-argument
 * report when @dev is not an emulated device).
 */
void *devm_kmalloc(struct device *dev, size_t size, unsigned int gfp);
/** devm_kzalloc() - devm_kmalloc(), zeroed. */
void *devm_kzalloc(struct device *dev, size_t size, unsigned int gfp);
/** devm_kfree() - free what devm_kmalloc() gave now. */
void devm_kfree(struct device *dev, const void *p);
/**
 * devm_ioremap_resource() - ioremap() a IORESOURCE_MEM resource of @dev.
 * Return: the __iomem cookie, or ERR_PTR(-EINVAL) (no resource, not
 * memory) or ERR_PTR(-ENOMEM) (no register window there: a report), with a
 * dev_err() message as in Linux.  Check it with IS_ERR() (<linux/err.h>).
 */
void *devm_ioremap_resource(struct device *dev, struct resource *res);

/** dev_name() - the device's name. */
static inline const char *dev_name(const struct device *dev)
{
	return dev->init_name;
}

static inline void *dev_get_drvdata(const struct device *dev)
{
	return dev->driver_data;
}

static inline void dev_set_drvdata(struct device *dev, void *data)
{
	dev->driver_data = data;
}

/**
 * dev_printk() - print a kernel log line for @dev, as "<level>name: text",
 * on the machine's log (stderr or the log_path option).
 * @level: KERN_ERR and friends.
 */
void dev_printk(const char *level, const struct device *dev, const char *fmt,
		...) __attribute__((format(printf, 3, 4)));

#define KERN_EMERG "<0>"
#define KERN_ALERT "<1>"
#define KERN_CRIT "<2>"
#define KERN_ERR "<3>"
#define KERN_WARNING "<4>"
#define KERN_NOTICE "<5>"
#define KERN_INFO "<6>"
#define KERN_DEBUG "<7>"

#define dev_emerg(dev, ...) dev_printk(KERN_EMERG, dev, __VA_ARGS__)
#define dev_alert(dev, ...) dev_printk(KERN_ALERT, dev, __VA_ARGS__)
#define dev_crit(dev, ...) dev_printk(KERN_CRIT, dev, __VA_ARGS__)
#define dev_err(dev, ...) dev_printk(KERN_ERR, dev, __VA_ARGS__)
#define dev_warn(dev, ...) dev_printk(KERN_WARNING, dev, __VA_ARGS__)
#define dev_notice(dev, ...) dev_printk(KERN_NOTICE, dev, __VA_ARGS__)
#define dev_info(dev, ...) dev_printk(KERN_INFO, dev, __VA_ARGS__)
#define dev_dbg(dev, ...) dev_printk(KERN_DEBUG, dev, __VA_ARGS__)

#ifdef __cplusplus
}
#endif

#endif
