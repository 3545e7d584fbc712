/* SPDX-License-Identifier: MIT */
/*
 * <linux/of_platform.h> - platform devices made from the device tree, on
 * a machine that has none (Linux 4.14, include/linux/of_platform.h
 * without CONFIG_OF): of_platform_populate() and
 * devm_of_platform_populate() are -ENODEV, of_find_device_by_node() NULL,
 * of_platform_depopulate() does nothing.
 */
#ifndef DMAEMU_KERNEL_LINUX_OF_PLATFORM_H
#define DMAEMU_KERNEL_LINUX_OF_PLATFORM_H

#include <linux/device.h>
#include <linux/mod_devicetable.h>
#include <linux/of_device.h>
#include <linux/platform_device.h>

#ifdef __cplusplus
extern "C" {
#endif

struct of_dev_auxdata;

static inline int of_platform_populate(struct device_node *root,
				       const struct of_device_id *matches,
				       const struct of_dev_auxdata *lookup,
				       struct device *parent)
{
	(void)root;
	(void)matches;
	(void)lookup;
	(void)parent;
	return -ENODEV;
}

static inline int devm_of_platform_populate(struct device *dev)
{
	(void)dev;
	return -ENODEV;
}

static inline void of_platform_depopulate(struct device *parent)
{
	(void)parent;
}

static inline struct platform_device *of_find_device_by_node(
	struct device_node *np)
{
	(void)np;
	return NULL;
}

#ifdef __cplusplus
}
#endif

#endif /* DMAEMU_KERNEL_LINUX_OF_PLATFORM_H */
