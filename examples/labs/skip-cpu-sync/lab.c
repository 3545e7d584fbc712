// SPDX-License-Identifier: MIT
/*
 * skip-cpu-sync - one packet buffer, two devices: the checksum engine
 * computes its CRC-32 while the copy engine copies it out.  The first
 * mapping makes memory hold what the CPU wrote; the second one passes
 * DMA_ATTR_SKIP_CPU_SYNC because there is nothing left to do.  The bug:
 * the first mapping skips too, so neither device sees the packet.
 * README.md tells the story.
 */
#include <errno.h> /* the kernel's <linux/errno.h> is the system's */
#include <stdint.h>
#include <string.h>

#include <dmaemu/cpu.h>
#include <dmaemu/device.h>
#include <dmaemu/devices/checksum.h>
#include <dmaemu/devices/copy-engine.h>
#include <dmaemu/testing.h>
#include <linux/completion.h>
#include <linux/dma-mapping.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/slab.h>

#include "lab.h"

#define PKT 256 /* bytes of the packet: four 64-byte lines */

/* One device as the driver sees it: registers, irq, a completion. */
struct engine {
	struct dmaemu_device *d;
	struct device *dev;
	void __iomem *regs;
	unsigned int irq;
	unsigned int int_status; /* the register at the interrupt's offset */
	struct completion done;
};

static irqreturn_t engine_irq(int irq, void *data)
{
	struct engine *e = data;
	u32 st = readl(e->regs + e->int_status);

	(void)irq;
	if (!st)
		return IRQ_NONE;
	writel(st, e->regs + e->int_status);
	complete(&e->done);
	return IRQ_HANDLED;
}

static int engine_open(struct engine *e, struct dmaemu_device *d,
		       unsigned int int_status, const char *name)
{
	unsigned int irq;
	int ret;

	if (!d)
		return -errno; /* the model's create failed */
	e->d = d;
	e->dev = dmaemu_device_to_dev(d);
	e->regs = dmaemu_device_regs(d);
	e->int_status = int_status;
	init_completion(&e->done);
	ret = dma_set_mask_and_coherent(e->dev, DMA_BIT_MASK(64));
	if (ret)
		return ret;
	irq = (unsigned int)dmaemu_device_irq(d, 0);
	ret = request_irq(irq, engine_irq, 0, name, e);
	if (!ret)
		e->irq = irq;
	return ret;
}

/* Lines the last range maintenance found in the cache, so far. */
static uint64_t lines_maintained(struct dmaemu_machine *m)
{
	struct dmaemu_cpu_stats st;

	dmaemu_cpu_stats(m, 0, &st);
	return st.maint_lines;
}

/* Lines of the buffer the CPU cache holds (a clean would visit them). */
static unsigned int lines_cached(struct dmaemu_machine *m, const void *buf,
				 size_t len)
{
	struct dmaemu_line_state st;
	uint64_t p = virt_to_phys(buf), end = p + len;
	unsigned int n = 0;

	for (; p < end; p = st.phys + st.line_size)
		if (dmaemu_line_state(m, p, &st) == 0 && st.resident)
			n++;
		else if (st.line_size == 0)
			break;
	return n;
}

static uint32_t crc32_of(const uint8_t *p, size_t n)
{
	uint32_t crc = 0xffffffffu;
	int k;

	while (n--) {
		crc ^= *p++;
		for (k = 0; k < 8; k++)
			crc = (crc & 1) ? 0xedb88320u ^ (crc >> 1) : crc >> 1;
	}
	return ~crc;
}

int main(int argc, char **argv)
{
	struct lab *lab = lab_start("skip-cpu-sync", argc, argv, NULL);
	struct engine cs = {0}, ce = {0};
	uint8_t want[PKT], *pkt = NULL, *out = NULL, *ring = NULL;
	dma_addr_t ring_dma = 0, cs_dma, ce_dma, out_dma;
	unsigned long first_attrs = 0;
	uint64_t before, first, second;
	uint32_t crc = 0;
	bool ok = false;
	size_t i;
	int ret, status = 0;

	if (!lab)
		return 1;
	ret = engine_open(&cs, dmaemu_checksum_create(lab->m, "csum0"),
			  DMAEMU_CSUM_REG_INT_STATUS, "csum0");
	if (ret) {
		status = lab_fail(lab, "engine_open(csum0)", ret);
		goto out;
	}
	ret = engine_open(&ce, dmaemu_copy_engine_create(lab->m, "ce0"),
			  DMAEMU_CE_REG_INT_STATUS, "ce0");
	if (ret) {
		status = lab_fail(lab, "engine_open(ce0)", ret);
		goto out;
	}

	/* The copy engine's ring: one COPY descriptor, in coherent memory. */
	ring = dma_alloc_coherent(ce.dev, 2 * DMAEMU_CE_DESC_SIZE, &ring_dma,
				  GFP_KERNEL);
	pkt = kmalloc(PKT, GFP_KERNEL);
	out = kzalloc(PKT, GFP_KERNEL);
	if (!ring) {
		status = lab_fail(lab, "dma_alloc_coherent()", -ENOMEM);
		goto out;
	}
	if (!pkt || !out) {
		status = lab_fail(lab, "kmalloc()", -ENOMEM);
		goto out;
	}
	writel(DMAEMU_CE_CTRL_RESET, ce.regs + DMAEMU_CE_REG_CTRL);
	writel((u32)ring_dma, ce.regs + DMAEMU_CE_REG_RING_LO);
	writel((u32)(ring_dma >> 32), ce.regs + DMAEMU_CE_REG_RING_HI);
	writel(2, ce.regs + DMAEMU_CE_REG_RING_SIZE);
	writel(DMAEMU_CE_INT_DONE | DMAEMU_CE_INT_ERROR,
	       ce.regs + DMAEMU_CE_REG_INT_ENABLE);
	writel(DMAEMU_CE_CTRL_ENABLE, ce.regs + DMAEMU_CE_REG_CTRL);
	writel(DMAEMU_CSUM_INT_DONE | DMAEMU_CSUM_INT_ERROR,
	       cs.regs + DMAEMU_CSUM_REG_INT_ENABLE);

	/* The CPU builds the packet: its lines are dirty in the cache. */
	for (i = 0; i < PKT; i++)
		want[i] = (uint8_t)(0x41 + i % 26);
	memcpy(pkt, want, PKT);
	lab_show(lab, pkt, PKT, "the packet, written by the CPU");

	/* 1. The first mapping: the checksum engine reads the packet. */
#ifndef LAB_FIXED
	first_attrs = DMA_ATTR_SKIP_CPU_SYNC;
#endif
	/* FIX: the first mapping of a shared buffer does the cache work
	 * (no DMA_ATTR_SKIP_CPU_SYNC): it writes the CPU's lines back. */
	before = lines_maintained(lab->m);
	cs_dma = dma_map_single_attrs(cs.dev, pkt, PKT, DMA_TO_DEVICE,
				      first_attrs);
	first = lines_maintained(lab->m) - before;
	if (dma_mapping_error(cs.dev, cs_dma)) {
		status = lab_fail(lab, "dma_map_single(csum0)", -ENOMEM);
		goto out;
	}
	lab_say("map for csum0%s: %llu cache lines maintained",
		first_attrs ? " with DMA_ATTR_SKIP_CPU_SYNC" : "",
		(unsigned long long)first);

	/* 2. The second mapping: memory already holds the packet. */
	if (strcmp(lab->profile, "x86"))
		lab_say("%u lines of the packet are in the cache: a clean "
			"would visit each of them again",
			lines_cached(lab->m, pkt, PKT));
	else
		lab_say("x86: devices snoop, no map cleans anything");
	before = lines_maintained(lab->m);
	ce_dma = dma_map_single_attrs(ce.dev, pkt, PKT, DMA_TO_DEVICE,
				      DMA_ATTR_SKIP_CPU_SYNC);
	second = lines_maintained(lab->m) - before;
	out_dma = dma_map_single(ce.dev, out, PKT, DMA_FROM_DEVICE);
	if (dma_mapping_error(ce.dev, ce_dma) ||
	    dma_mapping_error(ce.dev, out_dma)) {
		status = lab_fail(lab, "dma_map_single(ce0)", -ENOMEM);
		goto out;
	}
	lab_say("map for ce0 with DMA_ATTR_SKIP_CPU_SYNC: %llu cache lines "
		"maintained",
		(unsigned long long)second);
#ifdef LAB_FIXED
	/* FIX: behind swiotlb the second mapping is a bounce buffer of its
	 * own, which the attribute left unfilled (4.14's
	 * swiotlb_tbl_map_single() copies nothing then): the sync copies the
	 * packet into it.  On a direct mapping it cleans the lines again. */
	dma_sync_single_for_device(ce.dev, ce_dma, PKT, DMA_TO_DEVICE);
#endif
	lab_show(lab, pkt, PKT, "the packet, mapped for both devices");

	/* Both devices read the packet at the same time. */
	writel((u32)cs_dma, cs.regs + DMAEMU_CSUM_REG_SRC_LO);
	writel((u32)(cs_dma >> 32), cs.regs + DMAEMU_CSUM_REG_SRC_HI);
	writel(PKT, cs.regs + DMAEMU_CSUM_REG_LEN);
	memset(ring, 0, DMAEMU_CE_DESC_SIZE);
	*(u32 *)(void *)(ring + DMAEMU_CE_DESC_CTRL) = DMAEMU_CE_OP_COPY;
	*(u32 *)(void *)(ring + DMAEMU_CE_DESC_LEN) = PKT;
	memcpy(ring + DMAEMU_CE_DESC_SRC, &ce_dma, sizeof(u64));
	memcpy(ring + DMAEMU_CE_DESC_DST, &out_dma, sizeof(u64));
	writel(DMAEMU_CSUM_CMD_START, cs.regs + DMAEMU_CSUM_REG_CMD);
	writel(1, ce.regs + DMAEMU_CE_REG_TAIL);
	if (!wait_for_completion_timeout(&cs.done, msecs_to_jiffies(5000)) ||
	    !wait_for_completion_timeout(&ce.done, msecs_to_jiffies(5000))) {
		status = lab_fail(lab, "wait_for_completion_timeout()",
				  -ETIMEDOUT);
		goto out;
	}
	crc = readl(cs.regs + DMAEMU_CSUM_REG_RESULT);

	dma_unmap_single(ce.dev, out_dma, PKT, DMA_FROM_DEVICE);
	dma_unmap_single_attrs(ce.dev, ce_dma, PKT, DMA_TO_DEVICE,
			       DMA_ATTR_SKIP_CPU_SYNC);
	dma_unmap_single_attrs(cs.dev, cs_dma, PKT, DMA_TO_DEVICE, first_attrs);
	lab_show(lab, out, PKT, "what the copy engine wrote");
	lab_say("CRC-32 from csum0: 0x%08x, of the packet: 0x%08x", crc,
		crc32_of(want, PKT));
	ok = crc == crc32_of(want, PKT) && !memcmp(out, want, PKT);
	lab_say("the copy %s the packet",
		memcmp(out, want, PKT) ? "differs from" : "matches");
out:
	if (ce.regs)
		writel(DMAEMU_CE_CTRL_RESET, ce.regs + DMAEMU_CE_REG_CTRL);
	if (cs.irq)
		free_irq(cs.irq, &cs);
	if (ce.irq)
		free_irq(ce.irq, &ce);
	if (ring && ce.dev)
		dma_free_coherent(ce.dev, 2 * DMAEMU_CE_DESC_SIZE, ring,
				  ring_dma);
	kfree(out);
	kfree(pkt);
	dmaemu_device_destroy(ce.d);
	dmaemu_device_destroy(cs.d);
	ret = lab_finish(lab, ok);
	return status ? status : ret;
}
