/* SPDX-License-Identifier: MIT */
/*
 * <linux/of_device.h> - matching a device against the device tree, on a
 * machine that has none (Linux 4.14, include/linux/of_device.h without
 * CONFIG_OF): no device has a node, so nothing matches:
 * of_match_device() and of_device_get_match_data() give NULL,
 * of_driver_match_device() 0, of_dma_configure() does nothing and
 * succeeds.  As 4.14's, it includes <linux/platform_device.h> and
 * <linux/of.h> (docs/kernel-headers.md, "The device tree").
 */
#ifndef DMAEMU_KERNEL_LINUX_OF_DEVICE_H
#define DMAEMU_KERNEL_LINUX_OF_DEVICE_H

#include <linux/device.h>
#include <linux/mod_devicetable.h>
#include <linux/of.h>
#include <linux/platform_device.h>

#ifdef __cplusplus
extern "C" {
#endif

static inline const struct of_device_id *of_match_device(
	const struct of_device_id *matches, const struct device *dev)
{
	(void)matches;
	(void)dev;
	return NULL;
}

static inline const void *of_device_get_match_data(const struct device *dev)
{
	(void)dev;
	return NULL;
}

static inline int of_driver_match_device(struct device *dev,
					 const struct device_driver *drv)
{
	(void)dev;
	(void)drv;
	return 0;
}

static inline int of_dma_configure(struct device *dev, struct device_node *np)
{
	(void)dev;
	(void)np;
	return 0;
}

#ifdef __cplusplus
}
#endif

#endif /* DMAEMU_KERNEL_LINUX_OF_DEVICE_H */
