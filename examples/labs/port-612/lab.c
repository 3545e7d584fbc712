// SPDX-License-Identifier: MIT
/*
 * port-612 - a driver for the copy engine as it was written for Linux
 * 4.13: its descriptor ring and its results live in cacheable memory
 * from dma_alloc_attrs(DMA_ATTR_NON_CONSISTENT), kept in step with
 * dma_cache_sync(), and each job's source is a short-lived buffer from
 * kmalloc(GFP_TEMPORARY).  Linux 4.14 removed GFP_TEMPORARY, Linux 5.10
 * DMA_ATTR_NON_CONSISTENT and dma_cache_sync(): check.sh shows the
 * compiler's messages at each level, ports the file with the semantic
 * patches of cocci/ (the 4.14 port, then the 5.10 one) and runs each
 * port at its level.  README.md tells the story.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <dmaemu/device.h>
#include <dmaemu/devices/copy-engine.h>
#include <linux/completion.h>
#include <linux/dma-mapping.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/slab.h>

#include "lab.h"

/* Registers and descriptors, from docs/devices/copy-engine.md. */
#define CE_CTRL 0x04
#define CE_INT_STATUS 0x0c
#define CE_INT_ENABLE 0x10
#define CE_RING_LO 0x14
#define CE_RING_HI 0x18
#define CE_RING_SIZE 0x1c
#define CE_TAIL 0x24
#define CE_CTRL_ENABLE 0x1
#define CE_CTRL_RESET 0x80000000
#define CE_INT_DONE 0x1
#define CE_INT_ERROR 0x2
#define CE_OP_COPY 1
#define CE_DESC_DONE 0x1

struct ce_desc {
	u32 ctrl;
	u32 len;
	u64 src;
	u64 dst;
	u32 status; /* written back by the engine */
	u32 cookie;
};

#define RING 8	  /* descriptors in the ring */
#define BATCH 4	  /* jobs queued at once (at most RING - 1) */
#define BATCHES 3 /* so the ring wraps */
#define JOBS (BATCH * BATCHES)
#define LEN 256 /* bytes a job copies */

struct ring {
	struct device *dev;
	void __iomem *regs;
	unsigned int irq;
	struct completion done;
	struct ce_desc *desc; /* non-consistent: the driver owns every sync */
	dma_addr_t desc_dma;
	u8 *out; /* non-consistent: the results, one LEN slot a job */
	dma_addr_t out_dma;
	unsigned int tail;
	u32 done_jobs; /* descriptors completed, as the handler last saw */
};

static irqreturn_t ring_irq(int irq, void *data)
{
	struct ring *r = data;
	u32 st = readl(r->regs + CE_INT_STATUS);

	(void)irq;
	if (!st)
		return IRQ_NONE;
	writel(st, r->regs + CE_INT_STATUS);
	complete(&r->done);
	return IRQ_HANDLED;
}

static int ring_init(struct ring *r, struct dmaemu_device *d)
{
	r->dev = dmaemu_device_to_dev(d);
	r->regs = dmaemu_device_regs(d);
	init_completion(&r->done);
	if (dma_set_mask_and_coherent(r->dev, DMA_BIT_MASK(64)))
		return -EIO;
	writel(CE_CTRL_RESET, r->regs + CE_CTRL);
	r->desc = dma_alloc_attrs(r->dev, RING * sizeof(*r->desc), &r->desc_dma,
				  GFP_KERNEL, DMA_ATTR_NON_CONSISTENT);
	if (!r->desc)
		return -ENOMEM;
	r->out = dma_alloc_attrs(r->dev, JOBS * LEN, &r->out_dma, GFP_KERNEL,
				 DMA_ATTR_NON_CONSISTENT);
	if (!r->out)
		return -ENOMEM;
	r->irq = (unsigned int)dmaemu_device_irq(d, 0);
	if (request_irq(r->irq, ring_irq, 0, "cering", r)) {
		r->irq = 0;
		return -EBUSY;
	}
	writel((u32)r->desc_dma, r->regs + CE_RING_LO);
	writel((u32)(r->desc_dma >> 32), r->regs + CE_RING_HI);
	writel(RING, r->regs + CE_RING_SIZE);
	writel(CE_INT_DONE | CE_INT_ERROR, r->regs + CE_INT_ENABLE);
	writel(CE_CTRL_ENABLE, r->regs + CE_CTRL);
	return 0;
}

static void ring_fini(struct ring *r)
{
	if (r->irq) {
		writel(0, r->regs + CE_INT_ENABLE);
		writel(CE_CTRL_RESET, r->regs + CE_CTRL);
		free_irq(r->irq, r);
	}
	if (r->out)
		dma_free_attrs(r->dev, JOBS * LEN, r->out, r->out_dma,
			       DMA_ATTR_NON_CONSISTENT);
	if (r->desc)
		dma_free_attrs(r->dev, RING * sizeof(*r->desc), r->desc,
			       r->desc_dma, DMA_ATTR_NON_CONSISTENT);
}

static u8 pattern(unsigned int job, unsigned int i)
{
	return (u8)(job * 37 + i * 5 + 1);
}

/*
 * Jobs @first .. @first + BATCH - 1: each copies a temporary buffer of
 * its pattern into its slot of r->out.  The descriptors go to the engine
 * together, one doorbell; the driver reads them back once the engine
 * says it is done.  Return: how many results were right, or an error.
 */
static int ring_batch(struct ring *r, unsigned int first)
{
	u8 *src[BATCH] = {0};
	dma_addr_t src_dma[BATCH];
	unsigned int b, i, slot, right = 0;
	int ret = 0;

	for (b = 0; b < BATCH; b++) {
		unsigned int job = first + b;
		struct ce_desc *d;

		src[b] = kmalloc(LEN, GFP_TEMPORARY);
		if (!src[b]) {
			ret = -ENOMEM;
			goto out;
		}
		for (i = 0; i < LEN; i++)
			src[b][i] = pattern(job, i);
		src_dma[b] = dma_map_single(r->dev, src[b], LEN, DMA_TO_DEVICE);
		if (dma_mapping_error(r->dev, src_dma[b])) {
			kfree(src[b]);
			src[b] = NULL;
			ret = -ENOMEM;
			goto out;
		}
		/* The result slot: write back what the CPU holds of it, so
		 * that no dirty line lands on the engine's bytes later. */
		dma_cache_sync(r->dev, r->out + job * LEN, LEN, DMA_TO_DEVICE);
		slot = (r->tail + b) % RING;
		d = &r->desc[slot];
		d->ctrl = CE_OP_COPY;
		d->len = LEN;
		d->src = src_dma[b];
		d->dst = r->out_dma + job * LEN;
		d->status = 0;
		d->cookie = job;
		/* Non-consistent memory: write the descriptor back for the
		 * engine to fetch. */
		dma_cache_sync(r->dev, r->desc + slot, sizeof(*r->desc),
			       DMA_TO_DEVICE);
	}
	reinit_completion(&r->done);
	r->tail = (r->tail + BATCH) % RING;
	writel(r->tail, r->regs + CE_TAIL);
	while (r->done_jobs < first + BATCH) {
		if (!wait_for_completion_timeout(&r->done,
						 msecs_to_jiffies(5000))) {
			ret = -ETIMEDOUT;
			goto out;
		}
		reinit_completion(&r->done);
		r->done_jobs = readl(r->regs + DMAEMU_CE_REG_COMPLETED);
	}
	for (b = 0; b < BATCH; b++) {
		unsigned int job = first + b;

		slot = (r->tail + RING - BATCH + b) % RING;
		/* Drop the CPU's copies before reading what the engine
		 * wrote: the status, and the copied bytes. */
		dma_cache_sync(r->dev, r->desc + slot, sizeof(*r->desc),
			       DMA_FROM_DEVICE);
		dma_cache_sync(r->dev, r->out + job * LEN, LEN,
			       DMA_FROM_DEVICE);
		if (!(r->desc[slot].status & CE_DESC_DONE))
			continue;
		for (i = 0; i < LEN && r->out[job * LEN + i] == pattern(job, i);
		     i++)
			;
		right += i == LEN;
	}
out:
	for (b = 0; b < BATCH; b++) {
		if (!src[b])
			continue;
		dma_unmap_single(r->dev, src_dma[b], LEN, DMA_TO_DEVICE);
		kfree(src[b]);
	}
	return ret ? ret : (int)right;
}

int main(int argc, char **argv)
{
	struct lab *lab = lab_start("port-612", argc, argv, NULL);
	struct dmaemu_device *d;
	struct ring r = {0};
	unsigned int first, right = 0;
	int ret, status = 0;

	if (!lab)
		return 2;
	d = dmaemu_copy_engine_create(lab->m, "ce0");
	if (!d)
		status = lab_fail(lab, "dmaemu_copy_engine_create()", errno);
	else if ((ret = ring_init(&r, d)))
		status = lab_fail(lab, "ring_init()", ret);
	for (first = 0; !status && first < JOBS; first += BATCH) {
		ret = ring_batch(&r, first);
		if (ret < 0)
			status = lab_fail(lab, "ring_batch()", ret);
		else
			right += (unsigned int)ret;
	}
	if (!status) {
		lab_say("%u of %u jobs copied right, through a ring of %u",
			right, JOBS, RING);
		lab_show(lab, r.desc, BATCH * sizeof(*r.desc),
			 "the last batch's descriptors, read back");
	}
	ring_fini(&r);
	dmaemu_device_destroy(d);
	ret = lab_finish(lab, right == JOBS);
	return status ? status : ret;
}
