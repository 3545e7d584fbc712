// SPDX-License-Identifier: MIT
/*
 * pci.c - struct pci_dev set up over an emulated device: what Linux's
 * pci_setup_device() and the BAR sizing of pci_read_bases() give a driver,
 * taken from the device's register window and interrupt lines instead of
 * config space.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include <linux/dma-mapping.h>
#include <linux/pci.h>

#include "bus/bus.h"

int dmaemu_pci_dev_bind(struct dmaemu_device *d, struct pci_dev *pdev)
{
	struct resource *bar;
	int irq;

	if (!pdev) {
		dmaemu__reportf(dmaemu__device_alive(d) ? d->m : NULL,
				DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"dmaemu_pci_dev_bind(): NULL pci_dev");
		return -EINVAL;
	}
	if (!dmaemu__device_alive(d))
		return dmaemu_device_bind(d, &pdev->dev); /* reports */
	pdev->bus = &pdev->dmaemu_bus;
	if (!pdev->dev.dma_mask) {
		pdev->dma_mask = DMA_BIT_MASK(32);
		pdev->dev.dma_mask = &pdev->dma_mask;
	}
	if (!pdev->dev.coherent_dma_mask)
		pdev->dev.coherent_dma_mask = DMA_BIT_MASK(32);
	if (d->regs) {
		bar = &pdev->resource[0];
		bar->start = dmaemu__regs_phys(d);
		bar->end = bar->start + d->ops->mmio_size - 1;
		bar->name = d->name;
		bar->flags = IORESOURCE_MEM;
	}
	if (d->nr_irqs) {
		irq = dmaemu_device_irq(d, 0);
		if (irq > 0)
			pdev->irq = (unsigned int)irq;
	}
	return dmaemu_device_bind(d, &pdev->dev);
}
