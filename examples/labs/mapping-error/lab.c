// SPDX-License-Identifier: MIT
/*
 * mapping-error - a copy-engine driver never calls dma_mapping_error().
 * The machine fails the second streaming map on purpose (fault injection,
 * fail_dma_map: as a full swiotlb pool or an exhausted IOMMU space would),
 * so the destination's "bus address" is the mapping-error cookie; the
 * driver writes it into a descriptor, and the engine's write goes nowhere.
 * It also unmaps the source with the length of the copy rather than the
 * length it mapped.  The fixed driver checks every map, backs out and
 * retries, and unmaps what it mapped.
 */
#include <errno.h> /* the kernel's <linux/errno.h> is the system's */
#include <string.h>

#include <dmaemu/devices/copy-engine.h>
#include <dmaemu/device.h>
#include <linux/completion.h>
#include <linux/dma-mapping.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/jiffies.h>
#include <linux/slab.h>

#include "lab.h"

/* The copy engine's registers and descriptor (docs/devices/copy-engine.md). */
#define CE_CTRL 0x04
#define CE_INT_STATUS 0x0c
#define CE_INT_ENABLE 0x10
#define CE_RING_LO 0x14
#define CE_RING_HI 0x18
#define CE_RING_SIZE 0x1c
#define CE_TAIL 0x24
#define CE_ERR_CODE 0x2c
#define CE_ERR_ADDR_LO 0x30
#define CE_CTRL_ENABLE 0x1
#define CE_CTRL_RESET 0x80000000
#define CE_INT_DONE 0x1
#define CE_INT_ERROR 0x2
#define CE_OP_COPY 1
#define CE_DESC_ERROR 0x2

struct ce_desc {
	u32 ctrl, len;
	u64 src, dst;
	u32 status, cookie;
};

#define RING_N 4
#define BUF 4096 /* what is mapped */
#define LEN 1024 /* what is copied */

struct cedrv {
	struct device *dev;
	void __iomem *regs;
	struct ce_desc *ring; /* coherent */
	dma_addr_t ring_dma;
	unsigned int tail;
	u32 irq_status; /* INT_STATUS bits the handler saw */
	struct completion done;
};

static irqreturn_t ce_irq(int irq, void *data)
{
	struct cedrv *ce = data;
	u32 pending = readl(ce->regs + CE_INT_STATUS);
	u32 seen = READ_ONCE(ce->irq_status);

	(void)irq;
	if (!pending)
		return IRQ_NONE;
	writel(pending, ce->regs + CE_INT_STATUS); /* acknowledge */
	WRITE_ONCE(ce->irq_status, seen | pending);
	complete(&ce->done);
	return IRQ_HANDLED;
}

static void ce_setup(struct cedrv *ce)
{
	writel(CE_CTRL_RESET, ce->regs + CE_CTRL);
	memset(ce->ring, 0, RING_N * sizeof(*ce->ring));
	ce->tail = 0;
	writel(lower_32_bits(ce->ring_dma), ce->regs + CE_RING_LO);
	writel(upper_32_bits(ce->ring_dma), ce->regs + CE_RING_HI);
	writel(RING_N, ce->regs + CE_RING_SIZE);
	writel(CE_INT_DONE | CE_INT_ERROR, ce->regs + CE_INT_ENABLE);
	writel(CE_CTRL_ENABLE, ce->regs + CE_CTRL);
}

/* Copy @len bytes from bus address @src to @dst and wait for it.
 * Return: 0, -EIO when the engine reported an error, -ETIMEDOUT. */
static int ce_copy(struct cedrv *ce, dma_addr_t src, dma_addr_t dst, u32 len)
{
	struct ce_desc *d = &ce->ring[ce->tail];
	u32 status;

	*d = (struct ce_desc){
		.ctrl = CE_OP_COPY, .len = len, .src = src, .dst = dst};
	ce->tail = (ce->tail + 1) % RING_N;
	WRITE_ONCE(ce->irq_status, 0);
	reinit_completion(&ce->done);
	writel(ce->tail, ce->regs + CE_TAIL); /* orders the descriptor first */
	if (!wait_for_completion_timeout(&ce->done, msecs_to_jiffies(2000))) {
		ce_setup(ce);
		return -ETIMEDOUT;
	}
	dma_rmb();
	status = READ_ONCE(d->status);
	if (!(READ_ONCE(ce->irq_status) & CE_INT_ERROR) &&
	    !(status & CE_DESC_ERROR))
		return 0;
	lab_say("the engine failed the copy: ERR_CODE %u, ERR_ADDR 0x%x; "
		"resetting it",
		readl(ce->regs + CE_ERR_CODE),
		readl(ce->regs + CE_ERR_ADDR_LO));
	ce_setup(ce);
	return -EIO;
}

/*
 * Copy the first LEN bytes of @src to @dst with the engine, each buffer
 * (BUF bytes) mapped for the job.
 */
#ifdef LAB_FIXED
static int copy_buffers(struct cedrv *ce, u8 *dst, u8 *src)
{
	dma_addr_t s, t;
	int ret;

	s = dma_map_single(ce->dev, src, BUF, DMA_TO_DEVICE);
	if (dma_mapping_error(ce->dev, s)) /* FIX: every map is checked */
		return -ENOMEM;
	t = dma_map_single(ce->dev, dst, BUF, DMA_FROM_DEVICE);
	if (dma_mapping_error(ce->dev, t)) {
		lab_say("dma_map_single(dst) failed: back out, try again");
		dma_unmap_single(ce->dev, s, BUF, DMA_TO_DEVICE);
		return -EAGAIN;
	}
	ret = ce_copy(ce, s, t, LEN);
	dma_unmap_single(ce->dev, t, BUF, DMA_FROM_DEVICE);
	/* FIX: unmap with the size that was mapped. */
	dma_unmap_single(ce->dev, s, BUF, DMA_TO_DEVICE);
	return ret;
}
#else
static int copy_buffers(struct cedrv *ce, u8 *dst, u8 *src)
{
	dma_addr_t s, t;
	int ret;

	/* BUG: neither map is checked with dma_mapping_error(). */
	s = dma_map_single(ce->dev, src, BUF, DMA_TO_DEVICE);
	t = dma_map_single(ce->dev, dst, BUF, DMA_FROM_DEVICE);
	lab_say("src at dma 0x%llx, dst at dma 0x%llx", (unsigned long long)s,
		(unsigned long long)t);
	ret = ce_copy(ce, s, t, LEN);
	dma_unmap_single(ce->dev, t, BUF, DMA_FROM_DEVICE);
	/* BUG: the length of the copy, not of the mapping. */
	dma_unmap_single(ce->dev, s, LEN, DMA_TO_DEVICE);
	return ret;
}
#endif

int main(int argc, char **argv)
{
	/* The second dma_map_*() call of the run fails, once. */
	struct lab *lab = lab_start("mapping-error", argc, argv,
				    "fail_dma_map=2,100,0,1");
	struct dmaemu_device *engine;
	struct cedrv ce = {0};
	int i, irq, ret, tries = 0;
	u8 *src, *dst;
	bool ok;

	if (!lab)
		return 2;
	engine = dmaemu_copy_engine_create(lab->m, "ce0");
	if (!engine)
		return lab_fail(lab, "dmaemu_copy_engine_create()", errno);
	ce.dev = dmaemu_device_to_dev(engine);
	ce.regs = dmaemu_device_regs(engine);
	init_completion(&ce.done);
	ce.ring = dma_alloc_coherent(ce.dev, RING_N * sizeof(*ce.ring),
				     &ce.ring_dma, GFP_KERNEL);
	if (!ce.ring)
		return lab_fail(lab, "dma_alloc_coherent()", -ENOMEM);
	irq = dmaemu_device_irq(engine, 0);
	if (irq < 0)
		return lab_fail(lab, "dmaemu_device_irq()", irq);
	ret = request_irq((unsigned int)irq, ce_irq, 0, "ce0", &ce);
	if (ret)
		return lab_fail(lab, "request_irq()", ret);
	ce_setup(&ce);

	src = kmalloc(BUF, GFP_KERNEL);
	dst = kzalloc(BUF, GFP_KERNEL);
	if (!src || !dst)
		return lab_fail(lab, "kmalloc()", -ENOMEM);
	for (i = 0; i < BUF; i++)
		src[i] = (u8)(i * 7 + 1);

	do
		ret = copy_buffers(&ce, dst, src);
	while (ret == -EAGAIN && ++tries < 3);
	lab_say("copy_buffers() = %d after %d tr%s", ret, tries + 1,
		tries ? "ies" : "y");
	lab_show(lab, dst, 128, "destination (first two lines) after the copy");
	ok = !ret && !memcmp(dst, src, LEN);

	writel(0, ce.regs + CE_INT_ENABLE);
	writel(CE_CTRL_RESET, ce.regs + CE_CTRL);
	free_irq((unsigned int)irq, &ce);
	dma_free_coherent(ce.dev, RING_N * sizeof(*ce.ring), ce.ring,
			  ce.ring_dma);
	kfree(dst);
	kfree(src);
	dmaemu_device_destroy(engine);
	return lab_finish(lab, ok);
}
