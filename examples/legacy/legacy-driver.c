// SPDX-License-Identifier: MIT
/*
 * legacy-driver.c - a Linux-style platform driver for the legacy block
 * device, written from its data sheet (docs/devices/legacy.md).  The
 * device's address register has 32 bits (24 on an ISA-style part), so
 * probe() keeps the DMA masks that narrow; every buffer is mapped with
 * dma_map_single() and its handle checked, and the DMA API hands the
 * device a swiotlb bounce buffer for memory beyond the mask: the copies
 * happen at map (TO_DEVICE), at dma_sync_single_for_cpu() and at unmap
 * (FROM_DEVICE), so the driver must make those calls even on x86.
 */
#include <linux/errno.h>

#include <linux/completion.h>
#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/err.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/jiffies.h>
#include <linux/mutex.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include "legacy-driver.h"

/* Registers (data sheet, section 2). */
#define LEG_ID 0x00
#define LEG_CMD 0x04
#define LEG_INT_STATUS 0x0c
#define LEG_INT_ENABLE 0x10
#define LEG_ADDR 0x14
#define LEG_LEN 0x18
#define LEG_OFFSET 0x1c
#define LEG_PATTERN 0x20
#define LEG_ERR_CODE 0x24

#define LEG_ID_VALUE 0x1e9a0001
#define LEG_CMD_RESET 0x80000000
#define LEG_INT_DONE 0x1
#define LEG_INT_ERROR 0x2

#define LEG_TIMEOUT (10 * HZ)

int legdrv_dma_bits = 32;

struct legdrv {
	struct device *dev;
	void __iomem *regs;
	int irq;
	struct mutex cmd_lock; /* one command at a time */
	spinlock_t lock;       /* protects status */
	u32 status;	       /* INT_STATUS bits of the command's interrupt */
	struct completion done;
};

static struct legdrv *first; /* the first device bound (demo lookup) */

struct legdrv *legdrv_first(void)
{
	return first;
}

struct device *legdrv_dev(struct legdrv *lg)
{
	return lg ? lg->dev : NULL;
}

static irqreturn_t leg_irq(int irq, void *data)
{
	struct legdrv *lg = data;
	u32 pending = readl(lg->regs + LEG_INT_STATUS);

	if (!pending)
		return IRQ_NONE;
	writel(pending, lg->regs + LEG_INT_STATUS); /* acknowledge */
	spin_lock(&lg->lock);
	lg->status |= pending;
	spin_unlock(&lg->lock);
	complete(&lg->done);
	return IRQ_HANDLED;
}

int legdrv_cmd(struct legdrv *lg, u32 op, dma_addr_t addr, u32 offset, u32 len,
	       u32 pattern)
{
	unsigned long flags;
	int ret = 0;
	u32 status;

	if (!lg || addr + len - 1 > *lg->dev->dma_mask)
		return -EINVAL;
	mutex_lock(&lg->cmd_lock);
	spin_lock_irqsave(&lg->lock, flags);
	lg->status = 0;
	spin_unlock_irqrestore(&lg->lock, flags);
	reinit_completion(&lg->done);
	writel((u32)addr, lg->regs + LEG_ADDR);
	writel(len, lg->regs + LEG_LEN);
	writel(offset, lg->regs + LEG_OFFSET);
	writel(pattern, lg->regs + LEG_PATTERN);
	writel(op, lg->regs + LEG_CMD);

	if (!wait_for_completion_timeout(&lg->done, LEG_TIMEOUT)) {
		writel(LEG_CMD_RESET, lg->regs + LEG_CMD);
		writel(LEG_INT_DONE | LEG_INT_ERROR, lg->regs + LEG_INT_ENABLE);
		ret = -ETIMEDOUT;
		goto out;
	}
	spin_lock_irqsave(&lg->lock, flags);
	status = lg->status;
	spin_unlock_irqrestore(&lg->lock, flags);
	if (status & LEG_INT_ERROR) {
		dev_err(lg->dev, "command %u failed: error %u\n", op,
			readl(lg->regs + LEG_ERR_CODE));
		ret = -EIO;
	}
out:
	mutex_unlock(&lg->cmd_lock);
	return ret;
}

int legdrv_read(struct legdrv *lg, void *buf, u32 offset, size_t len)
{
	dma_addr_t dma;
	size_t off, n;
	int ret = 0;

	if (!lg)
		return -EINVAL;
	/* One mapping per command: a bounce buffer is at most 256 KiB. */
	for (off = 0; off < len && !ret; off += n) {
		n = len - off < LEG_MAX_LEN ? len - off : LEG_MAX_LEN;
		dma = dma_map_single(lg->dev, (u8 *)buf + off, n,
				     DMA_FROM_DEVICE);
		if (dma_mapping_error(lg->dev, dma))
			return -ENOMEM;
		ret = legdrv_cmd(lg, LEG_CMD_READ, dma, offset + (u32)off,
				 (u32)n, 0);
		/* With a bounce buffer, this is the copy into @buf. */
		dma_unmap_single(lg->dev, dma, n, DMA_FROM_DEVICE);
	}
	return ret;
}

int legdrv_write(struct legdrv *lg, const void *buf, u32 offset, size_t len)
{
	dma_addr_t dma;
	size_t off, n;
	int ret = 0;

	if (!lg)
		return -EINVAL;
	for (off = 0; off < len && !ret; off += n) {
		n = len - off < LEG_MAX_LEN ? len - off : LEG_MAX_LEN;
		/* With a bounce buffer, the map copies @buf into it. */
		dma = dma_map_single(lg->dev, (u8 *)buf + off, n,
				     DMA_TO_DEVICE);
		if (dma_mapping_error(lg->dev, dma))
			return -ENOMEM;
		ret = legdrv_cmd(lg, LEG_CMD_WRITE, dma, offset + (u32)off,
				 (u32)n, 0);
		dma_unmap_single(lg->dev, dma, n, DMA_TO_DEVICE);
	}
	return ret;
}

static int leg_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct resource *res;
	struct legdrv *lg;
	int ret;

	if (legdrv_dma_bits != 32 && legdrv_dma_bits != 24)
		return -EINVAL;
	lg = devm_kzalloc(dev, sizeof(*lg), GFP_KERNEL);
	if (!lg)
		return -ENOMEM;
	lg->dev = dev;
	res = platform_get_resource(pdev, IORESOURCE_MEM, 0);
	lg->regs = devm_ioremap_resource(dev, res);
	if (IS_ERR(lg->regs))
		return (int)PTR_ERR(lg->regs);
	if (readl(lg->regs + LEG_ID) != LEG_ID_VALUE) {
		dev_err(dev, "not a legacy block device\n");
		return -ENODEV;
	}
	lg->irq = platform_get_irq(pdev, 0);
	if (lg->irq < 0)
		return lg->irq;
	/* The address register is this wide: never more. */
	ret = dma_set_mask_and_coherent(dev, DMA_BIT_MASK(legdrv_dma_bits));
	if (ret)
		return ret;

	mutex_init(&lg->cmd_lock);
	spin_lock_init(&lg->lock);
	init_completion(&lg->done);
	writel(LEG_CMD_RESET, lg->regs + LEG_CMD);
	ret = request_irq((unsigned int)lg->irq, leg_irq, 0, dev_name(dev), lg);
	if (ret)
		return ret;
	writel(LEG_INT_DONE | LEG_INT_ERROR, lg->regs + LEG_INT_ENABLE);
	platform_set_drvdata(pdev, lg);
	if (!first)
		first = lg;
	return 0;
}

static int leg_remove(struct platform_device *pdev)
{
	struct legdrv *lg = platform_get_drvdata(pdev);

	writel(0, lg->regs + LEG_INT_ENABLE);
	writel(LEG_CMD_RESET, lg->regs + LEG_CMD);
	free_irq((unsigned int)lg->irq, lg);
	mutex_destroy(&lg->cmd_lock);
	if (first == lg)
		first = NULL;
	return 0;
}

struct platform_driver legdrv_driver = {
	.probe = leg_probe,
	.remove = leg_remove,
	.driver = {.name = "dmaemu-legacy"},
};
