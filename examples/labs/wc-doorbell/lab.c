// SPDX-License-Identifier: MIT
/*
 * wc-doorbell - a copy-engine driver keeps its descriptor ring in
 * write-combining memory (dma_alloc_wc()) and rings the doorbell with
 * writel_relaxed(), without wmb(): part of the descriptor is still in the
 * CPU's write-combining buffer when the engine fetches it.
 */
#include <errno.h> /* the kernel's <linux/errno.h> is the system's */
#include <string.h>

#include <asm/barrier.h>
#include <dmaemu/devices/copy-engine.h>
#include <dmaemu/device.h>
#include <dmaemu/testing.h>
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
#define CE_ERR_CODE 0x2c
#define CE_ERR_ADDR_LO 0x30
#define CE_COMPLETED 0x38
#define CE_CTRL_ENABLE 0x1
#define CE_CTRL_RESET 0x80000000
#define CE_OP_COPY 1

struct ce_desc {
	u32 ctrl;   /* +0  opcode */
	u32 len;    /* +4 */
	u64 src;    /* +8  bus address */
	u64 dst;    /* +16 bus address */
	u32 status; /* +24 written back by the engine */
	u32 cookie; /* +28 */
};

#define RING_N 4
#define LEN 256

/* What the CPU still holds back of the @len bytes at @p. */
static long pending(struct lab *lab, const void *p, size_t len)
{
	struct dmaemu_addr_info ai;

	if (dmaemu_addr_info(p, &ai))
		return -1;
	return dmaemu_wc_pending(lab->m, ai.phys, len);
}

int main(int argc, char **argv)
{
	/* One 16-byte write-combining buffer: the first half of a 32-byte
	 * descriptor drains when the CPU starts on the second half. */
	struct lab *lab =
		lab_start("wc-doorbell", argc, argv, "wc_buffers=1:wc_size=16");
	struct dmaemu_device *ce;
	struct device *dev;
	void __iomem *regs;
	struct ce_desc *ring, *d;
	dma_addr_t ring_dma, s, t;
	u8 *src, *dst;
	int i;
	bool ok;

	if (!lab)
		return 2;
	ce = dmaemu_copy_engine_create(lab->m, "ce0");
	if (!ce)
		return lab_fail(lab, "dmaemu_copy_engine_create()", errno);
	dev = dmaemu_device_to_dev(ce);
	regs = dmaemu_device_regs(ce);
	ring = dma_alloc_wc(dev, RING_N * sizeof(*ring), &ring_dma, GFP_KERNEL);
	if (!ring)
		return lab_fail(lab, "dma_alloc_wc()", -ENOMEM);
	src = kmalloc(LEN, GFP_KERNEL);
	dst = kzalloc(LEN, GFP_KERNEL);
	if (!src || !dst)
		return lab_fail(lab, "kmalloc()", -ENOMEM);
	writel(CE_CTRL_RESET, regs + CE_CTRL);
	writel(lower_32_bits(ring_dma), regs + CE_RING_LO);
	writel(upper_32_bits(ring_dma), regs + CE_RING_HI);
	writel(RING_N, regs + CE_RING_SIZE);
	writel(CE_CTRL_ENABLE, regs + CE_CTRL);

	for (i = 0; i < LEN; i++)
		src[i] = (u8)(i * 3 + 1);
	s = dma_map_single(dev, src, LEN, DMA_TO_DEVICE);
	t = dma_map_single(dev, dst, LEN, DMA_FROM_DEVICE);
	if (dma_mapping_error(dev, s) || dma_mapping_error(dev, t))
		return lab_fail(lab, "dma_map_single()", -ENOMEM);

	/* Fill descriptor 0 field by field, as drivers do. */
	d = &ring[0];
	d->ctrl = CE_OP_COPY;
	d->len = LEN;
	d->src = s;
	d->dst = t;
	d->status = 0;
	d->cookie = 0;
	lab_say("descriptor written: COPY %u bytes 0x%llx -> 0x%llx", LEN,
		(unsigned long long)s, (unsigned long long)t);
	lab_say("bytes still in the write-combining buffer: %ld of ctrl..src,"
		" %ld of dst..cookie",
		pending(lab, d, 16), pending(lab, &d->dst, 16));
	lab_show(lab, dst, LEN, "destination before the doorbell");

#ifdef LAB_FIXED
	/* FIX: wmb() drains the write-combining buffer, so the whole
	 * descriptor is in memory before the engine is told to fetch it.
	 * (writel() would do the same on arm and arm64.) */
	wmb();
	lab_say("wmb(): %ld bytes pending now", pending(lab, d, sizeof(*d)));
#endif
	writel_relaxed(1, regs + CE_TAIL); /* doorbell: one descriptor */

	for (i = 0; i < 1000 && !readl(regs + CE_COMPLETED); i++)
		msleep(1);
	lab_say("engine done: descriptor status 0x%x (bit 1: error), "
		"ERR_CODE %u (4: opcode, 7: destination), ERR_ADDR 0x%x",
		READ_ONCE(d->status), readl(regs + CE_ERR_CODE),
		readl(regs + CE_ERR_ADDR_LO));
	lab_show(lab, dst, LEN, "destination after the engine ran");
	dma_unmap_single(dev, t, LEN, DMA_FROM_DEVICE);
	dma_unmap_single(dev, s, LEN, DMA_TO_DEVICE);
	ok = !memcmp(dst, src, LEN);
	lab_say("destination %s the source", ok ? "matches" : "does not match");

	writel(CE_CTRL_RESET, regs + CE_CTRL);
	dma_free_wc(dev, RING_N * sizeof(*ring), ring, ring_dma);
	kfree(dst);
	kfree(src);
	dmaemu_device_destroy(ce);
	return lab_finish(lab, ok);
}
