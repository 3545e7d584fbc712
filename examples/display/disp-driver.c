// SPDX-License-Identifier: MIT
/*
 * disp-driver.c - a Linux-style platform driver for the display
 * controller, written from its data sheet (docs/devices/display.md):
 * probe maps the registers and allocates two framebuffers with
 * dma_alloc_wc() (write-combining: the CPU only writes them); a flip
 * programs the back buffer and rings FLIP with writel(), whose barrier
 * drains the write-combining buffers before the controller starts
 * reading, and sleeps until the vblank interrupt, whose handler reads the
 * checksum of the frame scanned out; remove quiesces the
 * controller before freeing the framebuffers.
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

#include "disp-driver.h"

/* Registers (data sheet, section 3). */
#define DC_ID 0x00
#define DC_CTRL 0x04
#define DC_INT_STATUS 0x0c
#define DC_INT_ENABLE 0x10
#define DC_FB_LO 0x14
#define DC_FB_HI 0x18
#define DC_WIDTH 0x1c
#define DC_HEIGHT 0x20
#define DC_STRIDE 0x24
#define DC_FORMAT 0x28
#define DC_FLIP 0x2c
#define DC_ERR_CODE 0x30
#define DC_CRC 0x40

#define DC_ID_VALUE 0xd1590001
#define DC_CTRL_ENABLE 0x1
#define DC_CTRL_RESET 0x80000000
#define DC_INT_VBLANK 0x1
#define DC_INT_ERROR 0x2
#define DC_FMT_XRGB8888 1

#define DC_TIMEOUT (HZ)

struct dispdrv {
	struct device *dev;
	void __iomem *regs;
	int irq;
	u32 *fb[2]; /* write-combining */
	dma_addr_t fb_dma[2];
	unsigned int back; /* the buffer drawn next */
	struct mutex flip_lock;
	spinlock_t lock; /* protects status, crc and vblanks */
	u32 status;	 /* INT_STATUS bits of the flip's interrupt */
	u32 crc;	 /* CRC of the frame last scanned out */
	unsigned long vblanks;
	struct completion done;
};

static struct dispdrv *first; /* the first controller bound (demo lookup) */

struct dispdrv *dispdrv_first(void)
{
	return first;
}

u32 *dispdrv_back(struct dispdrv *dd)
{
	return dd ? dd->fb[dd->back] : NULL;
}

static irqreturn_t dc_irq(int irq, void *data)
{
	struct dispdrv *dd = data;
	u32 pending = readl(dd->regs + DC_INT_STATUS);

	if (!pending)
		return IRQ_NONE;
	writel(pending, dd->regs + DC_INT_STATUS); /* acknowledge */
	spin_lock(&dd->lock);
	dd->status |= pending;
	if (pending & DC_INT_VBLANK) {
		dd->vblanks++;
		dd->crc = readl(dd->regs + DC_CRC);
	}
	spin_unlock(&dd->lock);
	complete(&dd->done);
	return IRQ_HANDLED;
}

int dispdrv_flip(struct dispdrv *dd, u32 *crc)
{
	unsigned long flags;
	dma_addr_t fb;
	int ret = 0;
	u32 status;

	if (!dd)
		return -EINVAL;
	mutex_lock(&dd->flip_lock);
	spin_lock_irqsave(&dd->lock, flags);
	dd->status = 0;
	spin_unlock_irqrestore(&dd->lock, flags);
	reinit_completion(&dd->done);
	fb = dd->fb_dma[dd->back];
	writel(lower_32_bits(fb), dd->regs + DC_FB_LO);
	writel(upper_32_bits(fb), dd->regs + DC_FB_HI);
	/* writel(): its wmb() drains the pixels still in the write-combining
	 * buffers before the controller reads the frame. */
	writel(1, dd->regs + DC_FLIP);

	if (!wait_for_completion_timeout(&dd->done, DC_TIMEOUT)) {
		ret = -ETIMEDOUT;
		goto out;
	}
	spin_lock_irqsave(&dd->lock, flags);
	status = dd->status;
	*crc = dd->crc;
	spin_unlock_irqrestore(&dd->lock, flags);
	if (status & DC_INT_ERROR) {
		dev_err(dd->dev, "scan-out error %u\n",
			readl(dd->regs + DC_ERR_CODE));
		ret = -EIO;
		goto out;
	}
	dd->back ^= 1; /* scanned out: now the front buffer */
out:
	mutex_unlock(&dd->flip_lock);
	return ret;
}

unsigned long dispdrv_vblanks(struct dispdrv *dd)
{
	unsigned long flags, n;

	spin_lock_irqsave(&dd->lock, flags);
	n = dd->vblanks;
	spin_unlock_irqrestore(&dd->lock, flags);
	return n;
}

static void free_fbs(struct dispdrv *dd)
{
	int i;

	for (i = 0; i < 2; i++)
		if (dd->fb[i])
			dma_free_wc(dd->dev, DISP_FB_SIZE, dd->fb[i],
				    dd->fb_dma[i]);
}

static int dc_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct resource *res;
	struct dispdrv *dd;
	int ret, i;

	dd = devm_kzalloc(dev, sizeof(*dd), GFP_KERNEL);
	if (!dd)
		return -ENOMEM;
	dd->dev = dev;
	res = platform_get_resource(pdev, IORESOURCE_MEM, 0);
	dd->regs = devm_ioremap_resource(dev, res);
	if (IS_ERR(dd->regs))
		return (int)PTR_ERR(dd->regs);
	if (readl(dd->regs + DC_ID) != DC_ID_VALUE) {
		dev_err(dev, "not a display controller\n");
		return -ENODEV;
	}
	dd->irq = platform_get_irq(pdev, 0);
	if (dd->irq < 0)
		return dd->irq;
	ret = dma_set_mask_and_coherent(dev, DMA_BIT_MASK(64));
	if (ret)
		return ret;

	mutex_init(&dd->flip_lock);
	spin_lock_init(&dd->lock);
	init_completion(&dd->done);
	writel(DC_CTRL_RESET, dd->regs + DC_CTRL);

	for (i = 0; i < 2; i++) {
		dd->fb[i] = dma_alloc_wc(dev, DISP_FB_SIZE, &dd->fb_dma[i],
					 GFP_KERNEL);
		if (!dd->fb[i]) {
			ret = -ENOMEM;
			goto out_free;
		}
	}
	ret = request_irq((unsigned int)dd->irq, dc_irq, 0, dev_name(dev), dd);
	if (ret)
		goto out_free;

	writel(DISP_WIDTH, dd->regs + DC_WIDTH);
	writel(DISP_HEIGHT, dd->regs + DC_HEIGHT);
	writel(DISP_STRIDE, dd->regs + DC_STRIDE);
	writel(DC_FMT_XRGB8888, dd->regs + DC_FORMAT);
	writel(DC_INT_VBLANK | DC_INT_ERROR, dd->regs + DC_INT_ENABLE);
	writel(DC_CTRL_ENABLE, dd->regs + DC_CTRL);
	platform_set_drvdata(pdev, dd);
	if (!first)
		first = dd;
	return 0;

out_free:
	free_fbs(dd);
	return ret;
}

static int dc_remove(struct platform_device *pdev)
{
	struct dispdrv *dd = platform_get_drvdata(pdev);

	/* Quiesce the controller before freeing what it reads. */
	writel(0, dd->regs + DC_INT_ENABLE);
	writel(DC_CTRL_RESET, dd->regs + DC_CTRL);
	free_irq((unsigned int)dd->irq, dd);
	free_fbs(dd);
	mutex_destroy(&dd->flip_lock);
	if (first == dd)
		first = NULL;
	return 0;
}

struct platform_driver dispdrv_driver = {
	.probe = dc_probe,
	.remove = dc_remove,
	.driver = {.name = "dmaemu-display"},
};
