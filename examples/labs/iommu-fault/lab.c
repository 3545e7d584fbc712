// SPDX-License-Identifier: MIT
/*
 * iommu-fault - behind an IOMMU, a copy-engine driver maps the destination
 * of a copy DMA_TO_DEVICE (the direction of the source, pasted).  The
 * IOMMU maps that page read-only for the device, so the engine's write
 * faults; the engine reports the error in its registers and raises its
 * interrupt, and the driver's error path recovers the engine instead of
 * hanging.
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
#define CE_STATUS 0x08
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
#define LEN 4096

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

/* Reset the engine and program it: at probe, and to recover from errors. */
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

/* Copy @len bytes from bus address @src to @dst and wait for it. */
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
		lab_say("timeout: resetting the engine");
		ce_setup(ce);
		return -ETIMEDOUT;
	}
	dma_rmb();
	status = READ_ONCE(d->status);
	if (!(READ_ONCE(ce->irq_status) & CE_INT_ERROR) &&
	    !(status & CE_DESC_ERROR))
		return 0;
	/* The error path: say what the engine said, and bring it back to a
	 * known state (ring empty, interrupts on) for the next job. */
	lab_say("interrupt: INT_STATUS 0x%x, descriptor status 0x%x, "
		"ERR_CODE %u (7: destination), ERR_ADDR 0x%x",
		READ_ONCE(ce->irq_status), status,
		readl(ce->regs + CE_ERR_CODE),
		readl(ce->regs + CE_ERR_ADDR_LO));
	ce_setup(ce);
	lab_say("engine reset and reprogrammed: STATUS 0x%x, ready",
		readl(ce->regs + CE_STATUS));
	return -EIO;
}

int main(int argc, char **argv)
{
	struct lab *lab = lab_start("iommu-fault", argc, argv, "iommu=1");
	struct dmaemu_device *engine;
	struct cedrv ce = {0};
	dma_addr_t s, t;
	u8 *src, *dst;
	int i, irq, ret;
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

	src = kmalloc(LEN, GFP_KERNEL);
	dst = kzalloc(LEN, GFP_KERNEL);
	if (!src || !dst)
		return lab_fail(lab, "kmalloc()", -ENOMEM);
	for (i = 0; i < LEN; i++)
		src[i] = (u8)(i ^ 0x5a);
	s = dma_map_single(ce.dev, src, LEN, DMA_TO_DEVICE);
#ifdef LAB_FIXED
	/* FIX: the engine writes the destination: DMA_FROM_DEVICE. */
	t = dma_map_single(ce.dev, dst, LEN, DMA_FROM_DEVICE);
#else
	t = dma_map_single(ce.dev, dst, LEN, DMA_TO_DEVICE);
#endif
	if (dma_mapping_error(ce.dev, s) || dma_mapping_error(ce.dev, t))
		return lab_fail(lab, "dma_map_single()", -ENOMEM);
	lab_say("source at IOVA 0x%llx, destination at IOVA 0x%llx",
		(unsigned long long)s, (unsigned long long)t);
	lab_show(lab, dst, 128, "destination (first two lines) before");

	ret = ce_copy(&ce, s, t, LEN);
	lab_say("ce_copy() = %d", ret);
	lab_show(lab, dst, 128, "destination (first two lines) after");

#ifdef LAB_FIXED
	dma_unmap_single(ce.dev, t, LEN, DMA_FROM_DEVICE);
#else
	dma_unmap_single(ce.dev, t, LEN, DMA_TO_DEVICE);
#endif
	dma_unmap_single(ce.dev, s, LEN, DMA_TO_DEVICE);
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
