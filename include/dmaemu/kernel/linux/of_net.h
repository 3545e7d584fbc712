/* SPDX-License-Identifier: MIT */
/*
 * <linux/of_net.h> - a network node's settings, on a machine without a
 * device tree (Linux 4.14, include/linux/of_net.h without CONFIG_OF_NET):
 * of_get_mac_address() is NULL (the driver falls back to its registers
 * or a random address), of_get_phy_mode() -ENODEV.
 */
#ifndef DMAEMU_KERNEL_LINUX_OF_NET_H
#define DMAEMU_KERNEL_LINUX_OF_NET_H

#include <linux/errno.h>
#include <linux/of.h>

#ifdef __cplusplus
extern "C" {
#endif

struct net_device;

static inline int of_get_phy_mode(struct device_node *np)
{
	(void)np;
	return -ENODEV;
}

static inline const void *of_get_mac_address(struct device_node *np)
{
	(void)np;
	return NULL;
}

static inline struct net_device *of_find_net_device_by_node(
	struct device_node *np)
{
	(void)np;
	return NULL;
}

#ifdef __cplusplus
}
#endif

#endif /* DMAEMU_KERNEL_LINUX_OF_NET_H */
