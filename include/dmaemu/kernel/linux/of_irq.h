/* SPDX-License-Identifier: MIT */
/*
 * <linux/of_irq.h> - a node's interrupts, on a machine without a device
 * tree (Linux 4.14, include/linux/of_irq.h without CONFIG_OF_IRQ):
 * irq_of_parse_and_map(), of_irq_get() and of_irq_to_resource() give 0,
 * "no interrupt", as 4.14's stubs do.  A driver takes its interrupt from
 * its platform device (platform_get_irq()) instead.
 */
#ifndef DMAEMU_KERNEL_LINUX_OF_IRQ_H
#define DMAEMU_KERNEL_LINUX_OF_IRQ_H

#include <linux/errno.h>
#include <linux/ioport.h>
#include <linux/irq.h>
#include <linux/of.h>
#include <linux/types.h>

#ifdef __cplusplus
extern "C" {
#endif

static inline unsigned int irq_of_parse_and_map(struct device_node *node,
						int index)
{
	(void)node;
	(void)index;
	return 0;
}

static inline int of_irq_get(struct device_node *dev, int index)
{
	(void)dev;
	(void)index;
	return 0;
}

static inline int of_irq_get_byname(struct device_node *dev, const char *name)
{
	(void)dev;
	(void)name;
	return 0;
}

static inline int of_irq_to_resource(struct device_node *dev, int index,
				     struct resource *r)
{
	(void)dev;
	(void)index;
	(void)r;
	return 0;
}

#ifdef __cplusplus
}
#endif

#endif /* DMAEMU_KERNEL_LINUX_OF_IRQ_H */
