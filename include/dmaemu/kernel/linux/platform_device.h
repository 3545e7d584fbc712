/* SPDX-License-Identifier: MIT */
/*
 * <linux/platform_device.h> - the platform bus: drivers find their
 * devices, and the devices' resources, the way a Linux platform driver
 * does.
 *
 * Every emulated device whose model has a name (ops->name) is a platform
 * device with that name and these resources:
 *
 *   IORESOURCE_MEM 0   its register window: the physical address
 *                      ioremap()/devm_ioremap_resource() map (when the
 *                      model has registers)
 *   IORESOURCE_IRQ n   the irq number of interrupt line n
 *
 * A platform_driver whose driver.name equals the model's name probes each
 * such device: at platform_driver_register() for the devices that exist
 * (on any machine), and at dmaemu_device_create() for devices made while
 * the driver is registered.  remove() runs at platform_driver_unregister()
 * and at dmaemu_device_destroy().  After remove() (or a failed probe())
 * the device's managed resources (devm_*, dmam_*) are released, and a
 * handler the driver left requested is a leaked-irq report.  Register and
 * unregister a driver where the kernel's module init and exit would
 * (module_platform_driver() defines them as in 4.14, and nothing calls
 * them).  probe() and remove() run on the
 * calling thread, in process context, one at a time in the process; they
 * must not register drivers nor create or destroy devices.
 */
#ifndef DMAEMU_KERNEL_LINUX_PLATFORM_DEVICE_H
#define DMAEMU_KERNEL_LINUX_PLATFORM_DEVICE_H

#include <stdbool.h>

#include <linux/compiler.h>
#include <linux/device.h>
#include <linux/ioport.h>
#include <linux/mod_devicetable.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PLATFORM_DEVID_NONE (-1)

/**
 * struct platform_device - a device on the platform bus.
 * @dev:           the device (pass &pdev->dev to the DMA API); first.
 * @name:          the model's name.
 * @id:            PLATFORM_DEVID_NONE.
 * @num_resources: entries of @resource.
 * @resource:      the resources (see above).
 */
struct platform_device {
	struct device dev;
	const char *name;
	int id;
	u32 num_resources;
	struct resource *resource;
};

#define to_platform_device(x) container_of((x), struct platform_device, dev)

/**
 * struct platform_driver - a driver of platform devices.
 * @probe:  bind to @pdev: 0, or a negative errno (the device stays
 *          unbound).
 * @remove: unbind from @pdev (may be NULL).
 * @shutdown, @suspend, @resume, @id_table: 4.14's, kept (no system
 *          shutdown or power transitions; the bus matches by name).
 * @driver: @driver.name is matched against the devices' names.
 */
struct platform_driver {
	int (*probe)(struct platform_device *pdev);
	int (*remove)(struct platform_device *pdev);
	void (*shutdown)(struct platform_device *pdev);
	int (*suspend)(struct platform_device *pdev, pm_message_t state);
	int (*resume)(struct platform_device *pdev);
	struct device_driver driver;
	const struct platform_device_id *id_table;
	bool prevent_deferred_probe;
};

/**
 * platform_driver_register() - register @drv and probe the devices of its
 * name that exist.
 * Return: 0 (a failing probe() leaves its device unbound, as in Linux);
 * -EINVAL with a bad-argument report when @drv, its probe or its name is
 * missing; -EBUSY when @drv is registered already.
 */
int platform_driver_register(struct platform_driver *drv);

/** platform_driver_unregister() - remove() every device @drv is bound to. */
void platform_driver_unregister(struct platform_driver *drv);

/**
 * platform_driver_probe() - register @drv with @probe and bind the
 * devices of its name that exist now, and no device created later (4.14's
 * __platform_driver_probe()).  Return: 0; -ENODEV (nothing bound: the
 * driver is unregistered again); platform_driver_register()'s errors;
 * -EINVAL with a report for a NULL @drv or @probe.
 */
int platform_driver_probe(struct platform_driver *drv,
			  int (*probe)(struct platform_device *));

/* 4.14's module_platform_driver(): see module_driver() (<linux/device.h>). */
#define module_platform_driver(__platform_driver)                  \
	module_driver(__platform_driver, platform_driver_register, \
		      platform_driver_unregister)

/**
 * platform_get_resource() - the @num-th resource of type @type.
 * Return: it, or NULL.
 */
struct resource *platform_get_resource(struct platform_device *dev,
				       unsigned int type, unsigned int num);

/**
 * platform_get_irq() - the irq number of interrupt line @num.
 * Return: it (> 0), or -ENXIO with a dev_err() message.
 */
int platform_get_irq(struct platform_device *dev, unsigned int num);

static inline void *platform_get_drvdata(const struct platform_device *pdev)
{
	return dev_get_drvdata(&pdev->dev);
}

static inline void platform_set_drvdata(struct platform_device *pdev,
					void *data)
{
	dev_set_drvdata(&pdev->dev, data);
}

#ifdef __cplusplus
}
#endif

#endif
