// SPDX-License-Identifier: MIT
/*
 * rx-recycle - a receive buffer recycled with a CPU store in it
 * (README.md).
 *
 * The driver keeps one receive buffer mapped DMA_FROM_DEVICE for its
 * whole life, as ring drivers do, and has the copy engine deliver
 * "messages" into it: a header word (a sequence number; 0 means empty)
 * and a body.  After reading a message it clears the header, so that an
 * empty slot reads 0, and gives the buffer back to the device with
 * dma_sync_single_for_device().  On arm and arm64 that sync of a
 * DMA_FROM_DEVICE buffer invalidates the CPU's cache without writing it
 * back: the cleared header is thrown away, memory still holds the old
 * sequence number, and the next poll takes the old message for a new one.
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
#define MSG 256 /* a message: the header word, then the body */

#ifdef LAB_FIXED
/* FIX: the CPU writes the buffer too: DMA_BIDIRECTIONAL, whose
 * dma_sync_single_for_device() writes the CPU's data back. */
#define RX_DIR DMA_BIDIRECTIONAL
#else
#define RX_DIR DMA_FROM_DEVICE
#endif

struct drv {
	struct device *dev;
	void __iomem *regs;
	struct ce_desc *ring; /* coherent */
	dma_addr_t ring_dma;
	unsigned int tail;
	struct completion done;
	u8 *rx; /* the receive buffer, mapped RX_DIR for good */
	dma_addr_t rx_dma;
	u8 *tx; /* what the "wire" sends: coherent */
	dma_addr_t tx_dma;
};

static irqreturn_t ce_irq(int irq, void *data)
{
	struct drv *drv = data;
	u32 pending = readl(drv->regs + CE_INT_STATUS);

	(void)irq;
	if (!pending)
		return IRQ_NONE;
	writel(pending, drv->regs + CE_INT_STATUS); /* acknowledge */
	complete(&drv->done);
	return IRQ_HANDLED;
}

static void ce_setup(struct drv *drv)
{
	writel(CE_CTRL_RESET, drv->regs + CE_CTRL);
	memset(drv->ring, 0, RING_N * sizeof(*drv->ring));
	drv->tail = 0;
	writel(lower_32_bits(drv->ring_dma), drv->regs + CE_RING_LO);
	writel(upper_32_bits(drv->ring_dma), drv->regs + CE_RING_HI);
	writel(RING_N, drv->regs + CE_RING_SIZE);
	writel(CE_INT_DONE | CE_INT_ERROR, drv->regs + CE_INT_ENABLE);
	writel(CE_CTRL_ENABLE, drv->regs + CE_CTRL);
}

/* The other end sends message @seq: the engine copies it into the
 * receive buffer.  Return: 0, or -EIO / -ETIMEDOUT. */
static int deliver(struct drv *drv, u32 seq)
{
	struct ce_desc *d = &drv->ring[drv->tail];

	memcpy(drv->tx, &seq, sizeof(seq));
	memset(drv->tx + sizeof(seq), 'A' + (int)seq - 1, MSG - sizeof(seq));
	*d = (struct ce_desc){.ctrl = CE_OP_COPY,
			      .len = MSG,
			      .src = drv->tx_dma,
			      .dst = drv->rx_dma};
	drv->tail = (drv->tail + 1) % RING_N;
	reinit_completion(&drv->done);
	writel(drv->tail,
	       drv->regs + CE_TAIL); /* orders the descriptor first */
	if (!wait_for_completion_timeout(&drv->done, msecs_to_jiffies(2000)))
		return -ETIMEDOUT;
	dma_rmb();
	return READ_ONCE(d->status) & CE_DESC_ERROR ? -EIO : 0;
}

/*
 * Poll the receive buffer: the sequence number of the message it holds
 * (0: empty).  A message found is consumed: its header is cleared and the
 * buffer goes back to the device.  With @lab, the buffer's first line is
 * drawn before and after that handover.
 */
static u32 poll_rx(struct drv *drv, struct lab *lab)
{
	u32 seq;

	dma_sync_single_for_cpu(drv->dev, drv->rx_dma, MSG, RX_DIR);
	memcpy(&seq, drv->rx, sizeof(seq));
	if (seq) {
		lab_say("received message %u: \"%c%c%c...\"", seq, drv->rx[4],
			drv->rx[5], drv->rx[6]);
		memset(drv->rx, 0, sizeof(seq)); /* the slot is empty again */
	}
	if (lab)
		lab_show(lab, drv->rx, 64, "the first line, header cleared");
	dma_sync_single_for_device(drv->dev, drv->rx_dma, MSG, RX_DIR);
	if (lab)
		lab_show(lab, drv->rx, 64,
			 "the same line after dma_sync_single_for_device()");
	return seq;
}

int main(int argc, char **argv)
{
	struct lab *lab = lab_start("rx-recycle", argc, argv, NULL);
	struct dmaemu_device *engine;
	struct drv drv = {0};
	u32 got[3];
	int irq, ret;
	bool ok;

	if (!lab)
		return 2;
	engine = dmaemu_copy_engine_create(lab->m, "ce0");
	if (!engine)
		return lab_fail(lab, "dmaemu_copy_engine_create()", errno);
	drv.dev = dmaemu_device_to_dev(engine);
	drv.regs = dmaemu_device_regs(engine);
	init_completion(&drv.done);
	drv.ring = dma_alloc_coherent(drv.dev, RING_N * sizeof(*drv.ring),
				      &drv.ring_dma, GFP_KERNEL);
	drv.tx = dma_alloc_coherent(drv.dev, MSG, &drv.tx_dma, GFP_KERNEL);
	if (!drv.ring || !drv.tx)
		return lab_fail(lab, "dma_alloc_coherent()", -ENOMEM);
	irq = dmaemu_device_irq(engine, 0);
	if (irq < 0)
		return lab_fail(lab, "dmaemu_device_irq()", irq);
	ret = request_irq((unsigned int)irq, ce_irq, 0, "ce0", &drv);
	if (ret)
		return lab_fail(lab, "request_irq()", ret);
	ce_setup(&drv);

	drv.rx = kzalloc(MSG, GFP_KERNEL);
	if (!drv.rx)
		return lab_fail(lab, "kzalloc()", -ENOMEM);
	drv.rx_dma = dma_map_single(drv.dev, drv.rx, MSG, RX_DIR);
	if (dma_mapping_error(drv.dev, drv.rx_dma))
		return lab_fail(lab, "dma_map_single()", -ENOMEM);

	/* Message 1 arrives and is consumed; then nothing arrives, and the
	 * driver polls twice; then message 2 arrives. */
	ret = deliver(&drv, 1);
	if (ret)
		return lab_fail(lab, "deliver(message 1)", ret);
	got[0] = poll_rx(&drv, lab);
	got[1] = poll_rx(&drv, NULL);
	ret = deliver(&drv, 2);
	if (ret)
		return lab_fail(lab, "deliver(message 2)", ret);
	got[2] = poll_rx(&drv, NULL);
	lab_say("polls gave %u, %u, %u (want 1, 0, 2)", got[0], got[1], got[2]);
	ok = got[0] == 1 && got[1] == 0 && got[2] == 2;

	dma_unmap_single(drv.dev, drv.rx_dma, MSG, RX_DIR);
	kfree(drv.rx);
	writel(0, drv.regs + CE_INT_ENABLE);
	writel(CE_CTRL_RESET, drv.regs + CE_CTRL);
	free_irq((unsigned int)irq, &drv);
	dma_free_coherent(drv.dev, MSG, drv.tx, drv.tx_dma);
	dma_free_coherent(drv.dev, RING_N * sizeof(*drv.ring), drv.ring,
			  drv.ring_dma);
	dmaemu_device_destroy(engine);
	return lab_finish(lab, ok);
}
