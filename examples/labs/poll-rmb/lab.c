// SPDX-License-Identifier: MIT
/*
 * poll-rmb - a copy-engine driver has the engine copy messages into a
 * mailbox in coherent memory, waits by polling the descriptor's status
 * word, then reads the message with no dma_rmb() between: on arm64 the
 * loads of the message may be satisfied before the load that saw the
 * status, and return what the mailbox held before the engine wrote it.
 */
#include <errno.h> /* the kernel's <linux/errno.h> is the system's */
#include <string.h>

#include <asm/barrier.h>
#include <dmaemu/devices/copy-engine.h>
#include <dmaemu/device.h>
#include <linux/delay.h>
#include <linux/dma-mapping.h>
#include <linux/io.h>
#include <linux/slab.h>

#include "lab.h"

/* The copy engine's registers and descriptor (docs/devices/copy-engine.md). */
#define CE_CTRL 0x04
#define CE_RING_LO 0x14
#define CE_RING_HI 0x18
#define CE_RING_SIZE 0x1c
#define CE_TAIL 0x24
#define CE_CTRL_ENABLE 0x1
#define CE_CTRL_RESET 0x80000000
#define CE_OP_COPY 1
#define CE_DESC_DONE 0x1
#define CE_DESC_ERROR 0x2

struct ce_desc {
	u32 ctrl;   /* +0  opcode */
	u32 len;    /* +4 */
	u64 src;    /* +8  bus address */
	u64 dst;    /* +16 bus address */
	u32 status; /* +24 written back by the engine, after the data */
	u32 cookie; /* +28 */
};

#define RING_N 4
#define POLL_US 100000 /* give up after this long */

/* A message in the mailbox: its length, then that many bytes. */
struct msg {
	u32 len;
	char text[60];
};

static const char *const msgs[] = {
	"first message from the engine",
	"second message, a longer one than the first",
};

/*
 * Have the engine copy @src_dma (a struct msg) into the mailbox with
 * descriptor @d, wait for it by polling the descriptor's status, as
 * dma_sync_wait() does in atomic context, and read the message out.
 * Return: its length, or -1.
 */
static int copy_msg(void __iomem *regs, struct ce_desc *d, u32 tail,
		    dma_addr_t src_dma, dma_addr_t mb_dma, const struct msg *mb,
		    char *out)
{
	u32 status = 0, len;
	int i;

	d->ctrl = CE_OP_COPY;
	d->len = sizeof(struct msg);
	d->src = src_dma;
	d->dst = mb_dma;
	d->status = 0;
	d->cookie = tail;
	writel(tail + 1, regs + CE_TAIL); /* writel(): the descriptor first */

	for (i = 0; i < POLL_US; i++) {
		status = READ_ONCE(d->status);
		if (status & CE_DESC_DONE)
			break;
		udelay(1);
	}
	lab_say("descriptor %u: status 0x%x after %d polls (bit 0: done)", tail,
		status, i);
	if (!(status & CE_DESC_DONE) || (status & CE_DESC_ERROR))
		return -1;
#ifdef LAB_FIXED
	/* FIX: dma_rmb() orders the loads of the message after the load
	 * that saw DONE: they see what the engine wrote before the status. */
	dma_rmb();
#endif
	len = READ_ONCE(mb->len);
	if (len > sizeof(mb->text)) {
		lab_say("message length %u: more than the mailbox holds", len);
		return -1;
	}
	memcpy(out, mb->text, len);
	out[len] = '\0';
	return (int)len;
}

int main(int argc, char **argv)
{
	/*
	 * sched=lockstep: the driver busy-polls memory the engine's thread
	 * writes, which on free-running threads is a data race of the host
	 * program itself (Helgrind and DRD would rightly say so); lockstep
	 * runs one context at a time and switches at the udelay().
	 */
	struct lab *lab = lab_start("poll-rmb", argc, argv, "sched=lockstep");
	struct dmaemu_device *ce;
	struct device *dev;
	void __iomem *regs;
	struct ce_desc *ring;
	struct msg *src, *mb;
	dma_addr_t ring_dma, src_dma, mb_dma;
	char out[sizeof(src->text) + 1];
	bool ok = true;
	u32 k;

	if (!lab)
		return 2;
	ce = dmaemu_copy_engine_create(lab->m, "ce0");
	if (!ce)
		return lab_fail(lab, "dmaemu_copy_engine_create()", errno);
	dev = dmaemu_device_to_dev(ce);
	regs = dmaemu_device_regs(ce);
	ring = dma_alloc_coherent(dev, RING_N * sizeof(*ring), &ring_dma,
				  GFP_KERNEL);
	/* The mailbox the engine copies messages into: coherent memory. */
	mb = dma_alloc_coherent(dev, sizeof(*mb), &mb_dma, GFP_KERNEL);
	if (!ring || !mb)
		return lab_fail(lab, "dma_alloc_coherent()", -ENOMEM);
	src = kzalloc(sizeof(*src), GFP_KERNEL);
	if (!src)
		return lab_fail(lab, "kzalloc()", -ENOMEM);
	writel(CE_CTRL_RESET, regs + CE_CTRL);
	writel(lower_32_bits(ring_dma), regs + CE_RING_LO);
	writel(upper_32_bits(ring_dma), regs + CE_RING_HI);
	writel(RING_N, regs + CE_RING_SIZE);
	writel(CE_CTRL_ENABLE, regs + CE_CTRL);

	for (k = 0; k < 2; k++) {
		int n;

		src->len = (u32)strlen(msgs[k]);
		memcpy(src->text, msgs[k], src->len);
		src_dma = dma_map_single(dev, src, sizeof(*src), DMA_TO_DEVICE);
		if (dma_mapping_error(dev, src_dma))
			return lab_fail(lab, "dma_map_single()", -ENOMEM);
		n = copy_msg(regs, &ring[k], k, src_dma, mb_dma, mb, out);
		dma_unmap_single(dev, src_dma, sizeof(*src), DMA_TO_DEVICE);
		if (n < 0) {
			ok = false;
			continue;
		}
		lab_say("read: \"%s\" (%d bytes)", out, n);
		if (strcmp(out, msgs[k])) {
			lab_say("    sent: \"%s\"", msgs[k]);
			ok = false;
		}
	}

	writel(CE_CTRL_RESET, regs + CE_CTRL);
	dma_free_coherent(dev, sizeof(*mb), mb, mb_dma);
	dma_free_coherent(dev, RING_N * sizeof(*ring), ring, ring_dma);
	kfree(src);
	dmaemu_device_destroy(ce);
	return lab_finish(lab, ok);
}
