// SPDX-License-Identifier: MIT
/*
 * cs-driver.c - a Linux-style platform driver for the checksum engine,
 * written from its data sheet (docs/devices/checksum.md): probe maps the
 * registers and allocates a coherent word the engine writes each result
 * to; a job is a buffer mapped for the device (by the caller, or by
 * csdrv_crc32() with the caller's DMA attributes), its address and length
 * in registers, the START doorbell, and a completion that the interrupt
 * handler completes; remove quiesces the engine before freeing the word.
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

#include "cs-driver.h"

/* Registers (data sheet, section 3). */
#define CS_ID 0x00
#define CS_CMD 0x04
#define CS_INT_STATUS 0x0c
#define CS_INT_ENABLE 0x10
#define CS_SRC_LO 0x14
#define CS_SRC_HI 0x18
#define CS_LEN 0x1c
#define CS_DST_LO 0x20
#define CS_DST_HI 0x24
#define CS_ERR_CODE 0x2c

#define CS_ID_VALUE 0xc5c50001
#define CS_CMD_START 0x1
#define CS_CMD_WRITE 0x2
#define CS_CMD_RESET 0x80000000
#define CS_INT_DONE 0x1
#define CS_INT_ERROR 0x2
#define CS_MAX_LEN (16u << 20)

#define CS_TIMEOUT (10 * HZ)

struct csdrv {
	struct device *dev;
	void __iomem *regs;
	int irq;
	__le32 *result; /* coherent: the engine writes each CRC here */
	dma_addr_t result_dma;
	struct mutex job_lock; /* from csdrv_start() to csdrv_wait() */
	spinlock_t lock;       /* protects status */
	u32 status;	       /* INT_STATUS bits of the job's interrupt */
	struct completion done;
};

static struct csdrv *first; /* the first engine bound (demo lookup) */

struct csdrv *csdrv_first(void)
{
	return first;
}

struct device *csdrv_dev(struct csdrv *cs)
{
	return cs ? cs->dev : NULL;
}

static irqreturn_t cs_irq(int irq, void *data)
{
	struct csdrv *cs = data;
	u32 pending = readl(cs->regs + CS_INT_STATUS);

	if (!pending)
		return IRQ_NONE;
	writel(pending, cs->regs + CS_INT_STATUS); /* acknowledge */
	spin_lock(&cs->lock);
	cs->status |= pending;
	spin_unlock(&cs->lock);
	complete(&cs->done);
	return IRQ_HANDLED;
}

int csdrv_start(struct csdrv *cs, dma_addr_t src, size_t len)
{
	unsigned long flags;

	if (!cs || !len || len > CS_MAX_LEN)
		return -EINVAL;
	mutex_lock(&cs->job_lock);
	spin_lock_irqsave(&cs->lock, flags);
	cs->status = 0;
	spin_unlock_irqrestore(&cs->lock, flags);
	reinit_completion(&cs->done);
	WRITE_ONCE(*cs->result, 0);
	writel(lower_32_bits(src), cs->regs + CS_SRC_LO);
	writel(upper_32_bits(src), cs->regs + CS_SRC_HI);
	writel((u32)len, cs->regs + CS_LEN);
	writel(lower_32_bits(cs->result_dma), cs->regs + CS_DST_LO);
	writel(upper_32_bits(cs->result_dma), cs->regs + CS_DST_HI);
	writel(CS_CMD_START | CS_CMD_WRITE, cs->regs + CS_CMD);
	return 0;
}

int csdrv_wait(struct csdrv *cs, u32 *crc)
{
	unsigned long flags;
	u32 status;
	int ret = 0;

	if (!wait_for_completion_timeout(&cs->done, CS_TIMEOUT)) {
		/* Stop the job, so that nothing writes the result late. */
		writel(CS_CMD_RESET, cs->regs + CS_CMD);
		writel(CS_INT_DONE | CS_INT_ERROR, cs->regs + CS_INT_ENABLE);
		ret = -ETIMEDOUT;
		goto out;
	}
	spin_lock_irqsave(&cs->lock, flags);
	status = cs->status;
	spin_unlock_irqrestore(&cs->lock, flags);
	if (status & CS_INT_ERROR) {
		dev_err(cs->dev, "checksum error %u\n",
			readl(cs->regs + CS_ERR_CODE));
		ret = -EIO;
		goto out;
	}
	dma_rmb(); /* the result was written before the interrupt */
	*crc = le32_to_cpu(READ_ONCE(*cs->result));
out:
	mutex_unlock(&cs->job_lock);
	return ret;
}

int csdrv_crc32(struct csdrv *cs, const void *buf, size_t len,
		unsigned long attrs, u32 *crc)
{
	dma_addr_t dma;
	int ret;

	if (!cs || !len || len > CS_MAX_LEN)
		return -EINVAL;
	dma = dma_map_single_attrs(cs->dev, (void *)buf, len, DMA_TO_DEVICE,
				   attrs);
	if (dma_mapping_error(cs->dev, dma))
		return -ENOMEM;
	ret = csdrv_start(cs, dma, len);
	if (!ret)
		ret = csdrv_wait(cs, crc);
	dma_unmap_single_attrs(cs->dev, dma, len, DMA_TO_DEVICE, attrs);
	return ret;
}

static int cs_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct resource *res;
	struct csdrv *cs;
	int ret;

	cs = devm_kzalloc(dev, sizeof(*cs), GFP_KERNEL);
	if (!cs)
		return -ENOMEM;
	cs->dev = dev;
	res = platform_get_resource(pdev, IORESOURCE_MEM, 0);
	cs->regs = devm_ioremap_resource(dev, res);
	if (IS_ERR(cs->regs))
		return (int)PTR_ERR(cs->regs);
	if (readl(cs->regs + CS_ID) != CS_ID_VALUE) {
		dev_err(dev, "not a checksum engine\n");
		return -ENODEV;
	}
	cs->irq = platform_get_irq(pdev, 0);
	if (cs->irq < 0)
		return cs->irq;
	ret = dma_set_mask_and_coherent(dev, DMA_BIT_MASK(64));
	if (ret)
		return ret;

	mutex_init(&cs->job_lock);
	spin_lock_init(&cs->lock);
	init_completion(&cs->done);
	writel(CS_CMD_RESET, cs->regs + CS_CMD);

	cs->result = dma_alloc_coherent(dev, sizeof(*cs->result),
					&cs->result_dma, GFP_KERNEL);
	if (!cs->result)
		return -ENOMEM;
	ret = request_irq((unsigned int)cs->irq, cs_irq, 0, dev_name(dev), cs);
	if (ret) {
		dma_free_coherent(dev, sizeof(*cs->result), cs->result,
				  cs->result_dma);
		return ret;
	}
	writel(CS_INT_DONE | CS_INT_ERROR, cs->regs + CS_INT_ENABLE);
	platform_set_drvdata(pdev, cs);
	if (!first)
		first = cs;
	return 0;
}

static int cs_remove(struct platform_device *pdev)
{
	struct csdrv *cs = platform_get_drvdata(pdev);

	/* Quiesce the engine before freeing what it writes to. */
	writel(0, cs->regs + CS_INT_ENABLE);
	writel(CS_CMD_RESET, cs->regs + CS_CMD);
	free_irq((unsigned int)cs->irq, cs);
	dma_free_coherent(cs->dev, sizeof(*cs->result), cs->result,
			  cs->result_dma);
	mutex_destroy(&cs->job_lock);
	if (first == cs)
		first = NULL;
	return 0;
}

struct platform_driver csdrv_driver = {
	.probe = cs_probe,
	.remove = cs_remove,
	.driver = {.name = "dmaemu-checksum"},
};
