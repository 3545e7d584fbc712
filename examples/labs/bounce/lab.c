// SPDX-License-Identifier: MIT
/*
 * bounce - a legacy block device that can only address 32 bits, and a
 * receive buffer in memory above 4 GiB: the DMA API bounces it through
 * swiotlb.  The device's data lands in the bounce buffer; only
 * dma_sync_single_for_cpu() (or the unmap) copies it to the driver's
 * buffer.  The bug: the driver reads its buffer without the sync.
 * README.md tells the story.
 */
#include <errno.h> /* the kernel's <linux/errno.h> is the system's */
#include <stdint.h>
#include <string.h>

#include <dmaemu/device.h>
#include <dmaemu/devices/legacy.h>
#include <dmaemu/testing.h>
#include <linux/completion.h>
#include <linux/dma-mapping.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/slab.h>

#include "lab.h"

#define BLK 256 /* bytes of a block: four 64-byte lines */

struct blk {
	struct dmaemu_device *d;
	struct device *dev;
	void __iomem *regs;
	unsigned int irq;
	struct completion done;
};

static irqreturn_t blk_irq(int irq, void *data)
{
	struct blk *b = data;
	u32 st = readl(b->regs + DMAEMU_LEGACY_REG_INT_STATUS);

	(void)irq;
	if (!st)
		return IRQ_NONE;
	writel(st, b->regs + DMAEMU_LEGACY_REG_INT_STATUS);
	complete(&b->done);
	return IRQ_HANDLED;
}

/* One command of @len bytes between bus address @dma and the device's
 * store at @offset; waits for the interrupt.  Return: 0 or -1. */
static int blk_cmd(struct blk *b, u32 op, dma_addr_t dma, u32 offset, u32 len)
{
	reinit_completion(&b->done);
	writel((u32)dma, b->regs + DMAEMU_LEGACY_REG_ADDR);
	writel(len, b->regs + DMAEMU_LEGACY_REG_LEN);
	writel(offset, b->regs + DMAEMU_LEGACY_REG_OFFSET);
	writel(op, b->regs + DMAEMU_LEGACY_REG_CMD);
	if (!wait_for_completion_timeout(&b->done, msecs_to_jiffies(5000)))
		return -1;
	return readl(b->regs + DMAEMU_LEGACY_REG_ERR_CODE) ? -1 : 0;
}

static void say_bounces(struct lab *lab, const char *when)
{
	struct dmaemu_swiotlb_info si;

	dmaemu_swiotlb_info(lab->m, &si);
	lab_say("swiotlb %s: %llu bounce buffers handed out, %llu bytes "
		"copied",
		when, (unsigned long long)si.maps,
		(unsigned long long)si.bounced);
}

int main(int argc, char **argv)
{
	struct lab *lab = lab_start("bounce", argc, argv, "highmem=64M");
	struct blk b = {0};
	uint8_t want[BLK], *out = NULL, *in = NULL;
	dma_addr_t out_dma, in_dma;
	uint64_t in_phys;
	bool ok = false, mapped = false;
	size_t i;
	int status = 0, ret;

	if (!lab)
		return 1;
	b.d = dmaemu_legacy_create(lab->m, "blk0");
	if (!b.d) {
		status = lab_fail(lab, "dmaemu_legacy_create()", errno);
		goto out;
	}
	b.dev = dmaemu_device_to_dev(b.d);
	b.regs = dmaemu_device_regs(b.d);
	init_completion(&b.done);
	b.irq = (unsigned int)dmaemu_device_irq(b.d, 0);
	ret = request_irq(b.irq, blk_irq, 0, "blk0", &b);
	if (ret) {
		status = lab_fail(lab, "request_irq()", ret);
		b.irq = 0;
		goto out;
	}
	writel(DMAEMU_LEGACY_INT_DONE | DMAEMU_LEGACY_INT_ERROR,
	       b.regs + DMAEMU_LEGACY_REG_INT_ENABLE);

	/* GFP_KERNEL prefers ZONE_NORMAL: the bank above 4 GiB. */
	out = kmalloc(BLK, GFP_KERNEL);
	in = kmalloc(BLK, GFP_KERNEL);
	if (!out || !in) {
		status = lab_fail(lab, "kmalloc()", -ENOMEM);
		goto out;
	}
	lab_say("blk0 addresses 32 bits; the buffers are at 0x%llx and "
		"0x%llx",
		(unsigned long long)virt_to_phys(out),
		(unsigned long long)virt_to_phys(in));

	/* 1. Write a block to the device: the map copies it down. */
	for (i = 0; i < BLK; i++)
		want[i] = (uint8_t)(0x30 + i % 64);
	memcpy(out, want, BLK);
	out_dma = dma_map_single(b.dev, out, BLK, DMA_TO_DEVICE);
	if (dma_mapping_error(b.dev, out_dma)) {
		status =
			lab_fail(lab, "dma_map_single(DMA_TO_DEVICE)", -ENOMEM);
		goto out;
	}
	lab_say("write: the block is mapped at bus address 0x%llx, a bounce "
		"buffer below 4 GiB",
		(unsigned long long)out_dma);
	if (blk_cmd(&b, DMAEMU_LEGACY_CMD_WRITE, out_dma, 0, BLK)) {
		status = lab_fail(lab, "blk_cmd(WRITE)", -EIO);
		goto out;
	}
	dma_unmap_single(b.dev, out_dma, BLK, DMA_TO_DEVICE);
	say_bounces(lab, "after the write");

	/* 2. Read it back into a receive buffer that stays mapped. */
	memset(in, 0xee, BLK);
	in_dma = dma_map_single(b.dev, in, BLK, DMA_FROM_DEVICE);
	if (dma_mapping_error(b.dev, in_dma)) {
		status = lab_fail(lab, "dma_map_single(DMA_FROM_DEVICE)",
				  -ENOMEM);
		goto out;
	}
	mapped = true;
	if (blk_cmd(&b, DMAEMU_LEGACY_CMD_READ, in_dma, 0, BLK)) {
		status = lab_fail(lab, "blk_cmd(READ)", -EIO);
		goto out;
	}
	/* The memory behind the bus address: the bounce buffer, or with
	 * iommu=1 (no bouncing) the buffer itself, behind its IOVA. */
	if (dmaemu_iommu_iova_to_phys(b.d, in_dma, &in_phys))
		in_phys = in_dma;
	lab_show(lab, dmaemu_phys_view(lab->m, in_phys, DMAEMU_REGION_LINEAR),
		 BLK,
		 in_phys == in_dma
			 ? "the bounce buffer, after the device wrote the block"
			 : "the buffer behind the IOVA, after the device wrote "
			   "the block");
#ifdef LAB_FIXED
	/* FIX: dma_sync_single_for_cpu() copies the bounce buffer to the
	 * driver's buffer (and does the cache work on arm) before the CPU
	 * reads it. */
	dma_sync_single_for_cpu(b.dev, in_dma, BLK, DMA_FROM_DEVICE);
#endif
	say_bounces(lab, "before the CPU reads");
	lab_show(lab, in, BLK, "the driver's buffer, as the CPU reads it");
	ok = !memcmp(in, want, BLK);
	lab_say("the block read back %s what was written",
		ok ? "is" : "is NOT");
#ifdef LAB_FIXED
	dma_sync_single_for_device(b.dev, in_dma, BLK, DMA_FROM_DEVICE);
#endif
out:
	if (mapped)
		dma_unmap_single(b.dev, in_dma, BLK, DMA_FROM_DEVICE);
	if (b.irq) {
		writel(DMAEMU_LEGACY_CMD_RESET, b.regs + DMAEMU_LEGACY_REG_CMD);
		free_irq(b.irq, &b);
	}
	kfree(in);
	kfree(out);
	dmaemu_device_destroy(b.d);
	ret = lab_finish(lab, ok);
	return status ? status : ret;
}
