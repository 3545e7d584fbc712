// SPDX-License-Identifier: MIT
/*
 * driver.c - a platform driver for the inverter, as a Linux driver is
 * written: probe() finds the registers and the interrupt, inv_invert()
 * maps the buffers, starts the device and sleeps until the interrupt
 * handler completes the job.
 */
#include <linux/completion.h>
#include <linux/dma-mapping.h>
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/jiffies.h>
#include <linux/platform_device.h>
#include <linux/slab.h>

#include "driver.h"
#include "inverter.h"

struct inv {
	struct device *dev;
	void __iomem *regs;
	int irq;
	u32 status; /* STATUS bits the handler saw */
	struct completion done;
};

static struct inv *the_inv;

static irqreturn_t inv_irq(int irq, void *data)
{
	struct inv *inv = data;
	u32 st = readl(inv->regs + INV_STATUS);

	if (!st)
		return IRQ_NONE;
	writel(st, inv->regs + INV_STATUS); /* lowers the line */
	inv->status = st;
	complete(&inv->done);
	return IRQ_HANDLED;
}

int inv_invert(const void *src, void *dst, size_t len)
{
	struct inv *inv = the_inv;
	dma_addr_t s, d;
	int ret = 0;

	if (!inv)
		return -ENODEV; /* no device, or its probe failed */
	s = dma_map_single(inv->dev, (void *)src, len, DMA_TO_DEVICE);
	if (dma_mapping_error(inv->dev, s))
		return -ENOMEM;
	d = dma_map_single(inv->dev, dst, len, DMA_FROM_DEVICE);
	if (dma_mapping_error(inv->dev, d)) {
		dma_unmap_single(inv->dev, s, len, DMA_TO_DEVICE);
		return -ENOMEM;
	}
	reinit_completion(&inv->done);
	writel(lower_32_bits(s), inv->regs + INV_SRC);
	writel(upper_32_bits(s), inv->regs + INV_SRC + 4);
	writel(lower_32_bits(d), inv->regs + INV_DST);
	writel(upper_32_bits(d), inv->regs + INV_DST + 4);
	writel((u32)len, inv->regs + INV_LEN);
	writel(1, inv->regs + INV_START);
	if (!wait_for_completion_timeout(&inv->done, HZ))
		ret = -ETIMEDOUT;
	else if (inv->status & INV_ERROR)
		ret = -EIO;
	/* The device is done: the buffers are the CPU's again. */
	dma_unmap_single(inv->dev, d, len, DMA_FROM_DEVICE);
	dma_unmap_single(inv->dev, s, len, DMA_TO_DEVICE);
	return ret;
}

static int inv_probe(struct platform_device *pdev)
{
	struct inv *inv;
	int ret;

	inv = devm_kzalloc(&pdev->dev, sizeof(*inv), GFP_KERNEL);
	if (!inv)
		return -ENOMEM;
	inv->dev = &pdev->dev;
	inv->regs = devm_ioremap_resource(
		&pdev->dev, platform_get_resource(pdev, IORESOURCE_MEM, 0));
	if (IS_ERR(inv->regs))
		return (int)PTR_ERR(inv->regs);
	inv->irq = platform_get_irq(pdev, 0);
	if (inv->irq < 0)
		return inv->irq;
	ret = dma_set_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(64));
	if (ret)
		return ret;
	init_completion(&inv->done);
	ret = request_irq((unsigned int)inv->irq, inv_irq, 0, "inverter", inv);
	if (ret)
		return ret;
	platform_set_drvdata(pdev, inv);
	the_inv = inv;
	return 0;
}

static int inv_remove(struct platform_device *pdev)
{
	struct inv *inv = platform_get_drvdata(pdev);

	free_irq((unsigned int)inv->irq, inv);
	the_inv = NULL;
	return 0;
}

struct platform_driver inv_driver = {
	.probe = inv_probe,
	.remove = inv_remove,
	.driver = {.name = "inverter"},
};
