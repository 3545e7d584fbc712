// SPDX-License-Identifier: MIT
/*
 * ce-driver.c - a Linux-style platform driver for the copy engine, written
 * from its data sheet (docs/devices/copy-engine.md) as a kernel driver
 * author would: probe maps the registers and allocates a descriptor ring
 * in coherent memory; jobs map their buffers for streaming DMA (checking
 * dma_mapping_error()), fill descriptors, ring the doorbell and sleep on a
 * completion that the interrupt handler completes; remove quiesces the
 * engine before freeing what it uses.
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

#include "ce-driver.h"

/* Registers (data sheet, section 2). */
#define CE_ID 0x00
#define CE_CTRL 0x04
#define CE_STATUS 0x08
#define CE_INT_STATUS 0x0c
#define CE_INT_ENABLE 0x10
#define CE_RING_LO 0x14
#define CE_RING_HI 0x18
#define CE_RING_SIZE 0x1c
#define CE_TAIL 0x24
#define CE_COALESCE 0x28
#define CE_ERR_CODE 0x2c
#define CE_COMPLETED 0x38

#define CE_ID_VALUE 0xce0c0001
#define CE_CTRL_ENABLE 0x1
#define CE_CTRL_RESET 0x80000000
#define CE_STATUS_HALTED 0x4
#define CE_INT_DONE 0x1
#define CE_INT_ERROR 0x2

/* Descriptors (section 3). */
struct ce_desc {
	u32 ctrl;
	u32 len;
	u64 src;
	u64 dst;
	u32 status;
	u32 cookie;
};
#define CE_DESC_DONE 0x1
#define CE_DESC_ERROR 0x2
#define CE_MAX_LEN (16u << 20)

#define CE_RING_SIZE_N 64
#define CE_TIMEOUT (10 * HZ)

struct cedrv {
	struct device *dev;
	void __iomem *regs;
	int irq;
	struct ce_desc *ring; /* coherent */
	dma_addr_t ring_dma;
	unsigned int tail;	/* next slot to fill */
	struct mutex job_lock;	/* one job at a time */
	spinlock_t lock;	/* what the handler updates: */
	u32 submitted;		/* descriptors queued (job_lock) */
	u32 completed;		/* COMPLETED as last read (lock) */
	bool halted;		/* (lock) */
	unsigned long irqs;	/* (lock) */
	struct completion done; /* completed by each interrupt */
};

static struct cedrv *first; /* the first engine bound (demo lookup) */

struct cedrv *cedrv_first(void)
{
	return first;
}

static irqreturn_t ce_irq(int irq, void *data)
{
	struct cedrv *ce = data;
	u32 pending = readl(ce->regs + CE_INT_STATUS);

	if (!pending)
		return IRQ_NONE;
	writel(pending, ce->regs + CE_INT_STATUS); /* acknowledge */

	spin_lock(&ce->lock);
	ce->irqs++;
	ce->completed = readl(ce->regs + CE_COMPLETED);
	if ((pending & CE_INT_ERROR) &&
	    (readl(ce->regs + CE_STATUS) & CE_STATUS_HALTED))
		ce->halted = true;
	spin_unlock(&ce->lock);
	if (pending & CE_INT_ERROR)
		dev_err(ce->dev, "engine error %u\n",
			readl(ce->regs + CE_ERR_CODE));
	complete(&ce->done);
	return IRQ_HANDLED;
}

/* Has descriptor number @seq completed (or the engine halted)? */
static bool job_done(struct cedrv *ce, u32 seq)
{
	unsigned long flags;
	bool done;

	spin_lock_irqsave(&ce->lock, flags);
	done = (s32)(ce->completed - seq) >= 0 || ce->halted;
	spin_unlock_irqrestore(&ce->lock, flags);
	return done;
}

int cedrv_run(struct cedrv *ce, u32 op, u64 src, dma_addr_t dst, u32 len)
{
	struct ce_desc *d;
	u32 seq, status;
	int ret = 0;

	/* The engine checks @op and @len itself, and reports them. */
	if (!ce)
		return -EINVAL;
	mutex_lock(&ce->job_lock);
	d = &ce->ring[ce->tail];
	d->ctrl = op;
	d->len = len;
	d->src = src;
	d->dst = dst;
	d->status = 0;
	d->cookie = ce->tail;
	ce->tail = (ce->tail + 1) % CE_RING_SIZE_N;
	seq = ++ce->submitted;
#ifdef CE_RELAXED_DOORBELL
	/*
	 * The variant the data sheet allows: a wmb() orders the descriptor
	 * before a writel_relaxed() doorbell (tests/api/check-ordering-
	 * drivers.c builds it, and with CE_NO_DOORBELL_WMB without the
	 * wmb(), the bug docs/ordering.md describes).
	 */
#ifndef CE_NO_DOORBELL_WMB
	wmb();
#endif
	writel_relaxed(ce->tail, ce->regs + CE_TAIL);
#else
	/* writel() orders the descriptor's stores before the doorbell. */
	writel(ce->tail, ce->regs + CE_TAIL);
#endif

	while (!job_done(ce, seq)) {
		if (!wait_for_completion_timeout(&ce->done, CE_TIMEOUT)) {
			ret = -ETIMEDOUT;
			goto out;
		}
	}
	dma_rmb(); /* the status after COMPLETED said it is there */
	status = READ_ONCE(d->status);
	if (!(status & CE_DESC_DONE) || (status & CE_DESC_ERROR))
		ret = -EIO;
out:
	mutex_unlock(&ce->job_lock);
	return ret;
}

int cedrv_memcpy(struct cedrv *ce, void *dst, const void *src, size_t len)
{
	dma_addr_t s, t;
	size_t off, n;
	int ret = 0;

	if (!ce)
		return -EINVAL;
	s = dma_map_single(ce->dev, (void *)src, len, DMA_TO_DEVICE);
	if (dma_mapping_error(ce->dev, s))
		return -ENOMEM;
	t = dma_map_single(ce->dev, dst, len, DMA_FROM_DEVICE);
	if (dma_mapping_error(ce->dev, t)) {
		ret = -ENOMEM;
		goto out_unmap_src;
	}
	for (off = 0; off < len && !ret; off += n) {
		n = len - off < CE_MAX_LEN ? len - off : CE_MAX_LEN;
		ret = cedrv_run(ce, CE_OP_COPY, s + off, t + off, (u32)n);
	}
	dma_unmap_single(ce->dev, t, len, DMA_FROM_DEVICE);
out_unmap_src:
	dma_unmap_single(ce->dev, s, len, DMA_TO_DEVICE);
	return ret;
}

int cedrv_memset32(struct cedrv *ce, void *dst, u32 pattern, size_t len)
{
	dma_addr_t t;
	size_t off, n;
	int ret = 0;

	if (!ce)
		return -EINVAL;
	t = dma_map_single(ce->dev, dst, len, DMA_FROM_DEVICE);
	if (dma_mapping_error(ce->dev, t))
		return -ENOMEM;
	for (off = 0; off < len && !ret; off += n) {
		n = len - off < CE_MAX_LEN ? len - off : CE_MAX_LEN;
		/* The pattern restarts at each descriptor: keep them 4-byte
		 * multiples (CE_MAX_LEN is). */
		ret = cedrv_run(ce, CE_OP_FILL, pattern, t + off, (u32)n);
	}
	dma_unmap_single(ce->dev, t, len, DMA_FROM_DEVICE);
	return ret;
}

unsigned long cedrv_irqs(struct cedrv *ce)
{
	unsigned long flags, n;

	spin_lock_irqsave(&ce->lock, flags);
	n = ce->irqs;
	spin_unlock_irqrestore(&ce->lock, flags);
	return n;
}

static int ce_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct resource *res;
	struct cedrv *ce;
	int ret;

	ce = devm_kzalloc(dev, sizeof(*ce), GFP_KERNEL);
	if (!ce)
		return -ENOMEM;
	ce->dev = dev;
	res = platform_get_resource(pdev, IORESOURCE_MEM, 0);
	ce->regs = devm_ioremap_resource(dev, res);
	if (IS_ERR(ce->regs))
		return (int)PTR_ERR(ce->regs);
	if (readl(ce->regs + CE_ID) != CE_ID_VALUE) {
		dev_err(dev, "not a copy engine\n");
		return -ENODEV;
	}
	ce->irq = platform_get_irq(pdev, 0);
	if (ce->irq < 0)
		return ce->irq;
	ret = dma_set_mask_and_coherent(dev, DMA_BIT_MASK(64));
	if (ret)
		return ret;

	mutex_init(&ce->job_lock);
	spin_lock_init(&ce->lock);
	init_completion(&ce->done);
	writel(CE_CTRL_RESET, ce->regs + CE_CTRL);

	ce->ring = dma_alloc_coherent(dev, CE_RING_SIZE_N * sizeof(*ce->ring),
				      &ce->ring_dma, GFP_KERNEL);
	if (!ce->ring)
		return -ENOMEM;
	ret = request_irq((unsigned int)ce->irq, ce_irq, 0, dev_name(dev), ce);
	if (ret)
		goto out_free_ring;

	writel(lower_32_bits(ce->ring_dma), ce->regs + CE_RING_LO);
	writel(upper_32_bits(ce->ring_dma), ce->regs + CE_RING_HI);
	writel(CE_RING_SIZE_N, ce->regs + CE_RING_SIZE);
	writel(1, ce->regs + CE_COALESCE);
	writel(CE_INT_DONE | CE_INT_ERROR, ce->regs + CE_INT_ENABLE);
	writel(CE_CTRL_ENABLE, ce->regs + CE_CTRL);
	platform_set_drvdata(pdev, ce);
	if (!first)
		first = ce;
	return 0;

out_free_ring:
	dma_free_coherent(dev, CE_RING_SIZE_N * sizeof(*ce->ring), ce->ring,
			  ce->ring_dma);
	return ret;
}

static int ce_remove(struct platform_device *pdev)
{
	struct cedrv *ce = platform_get_drvdata(pdev);

	/* Quiesce the engine before freeing what it uses. */
	writel(0, ce->regs + CE_INT_ENABLE);
	writel(CE_CTRL_RESET, ce->regs + CE_CTRL);
	free_irq((unsigned int)ce->irq, ce);
	dma_free_coherent(ce->dev, CE_RING_SIZE_N * sizeof(*ce->ring), ce->ring,
			  ce->ring_dma);
	mutex_destroy(&ce->job_lock);
	if (first == ce)
		first = NULL;
	return 0;
}

struct platform_driver cedrv_driver = {
	.probe = ce_probe,
	.remove = ce_remove,
	.driver = {.name = "dmaemu-copy-engine"},
};
