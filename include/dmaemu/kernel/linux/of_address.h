/* SPDX-License-Identifier: MIT */
/*
 * <linux/of_address.h> - a node's register addresses, on a machine
 * without a device tree (Linux 4.14, include/linux/of_address.h without
 * CONFIG_OF_ADDRESS): of_address_to_resource() is -EINVAL, of_iomap()
 * NULL, of_get_address() NULL.  A driver maps its registers from its
 * platform device's resources (platform_get_resource(),
 * devm_ioremap_resource()) instead.
 */
#ifndef DMAEMU_KERNEL_LINUX_OF_ADDRESS_H
#define DMAEMU_KERNEL_LINUX_OF_ADDRESS_H

#include <linux/errno.h>
#include <linux/io.h>
#include <linux/ioport.h>
#include <linux/of.h>

#ifdef __cplusplus
extern "C" {
#endif

#define OF_BAD_ADDR ((u64)-1)

static inline int of_address_to_resource(struct device_node *dev, int index,
					 struct resource *r)
{
	(void)dev;
	(void)index;
	(void)r;
	return -EINVAL;
}

static inline void __iomem *of_iomap(struct device_node *device, int index)
{
	(void)device;
	(void)index;
	return NULL;
}

static inline const __be32 *of_get_address(struct device_node *dev, int index,
					   u64 *size, unsigned int *flags)
{
	(void)dev;
	(void)index;
	(void)size;
	(void)flags;
	return NULL;
}

static inline u64 of_translate_address(struct device_node *np,
				       const __be32 *addr)
{
	(void)np;
	(void)addr;
	return OF_BAD_ADDR;
}

#ifdef __cplusplus
}
#endif

#endif /* DMAEMU_KERNEL_LINUX_OF_ADDRESS_H */
