// SPDX-License-Identifier: MIT
/*
 * removed-apis - a driver for the checksum engine as it was written for
 * Linux 4.13: a temporary record from kmalloc(GFP_TEMPORARY), a
 * descriptor-and-result buffer from dma_alloc_noncoherent() kept in step
 * with dma_cache_sync().  Both APIs were removed in 4.14, so this file
 * does not compile against dmaemu: check.sh shows the compiler's
 * messages, converts the file with the semantic patches of cocci/ and
 * runs the result.  README.md tells the story.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <dmaemu/device.h>
#include <dmaemu/devices/checksum.h>
#include <linux/completion.h>
#include <linux/dma-mapping.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/slab.h>

#include "lab.h"

#define REC 512	       /* bytes of a record */
#define RESULT_OFF 512 /* where the engine writes the CRC: its own line */
#define BUF_SIZE 1024  /* the non-consistent buffer */

struct crcdrv {
	struct device *dev;
	void __iomem *regs;
	unsigned int irq;
	struct completion done;
	u8 *buf; /* cacheable: the driver owns every sync */
	dma_addr_t buf_dma;
};

static irqreturn_t crcdrv_irq(int irq, void *data)
{
	struct crcdrv *c = data;
	u32 st = readl(c->regs + DMAEMU_CSUM_REG_INT_STATUS);

	(void)irq;
	if (!st)
		return IRQ_NONE;
	writel(st, c->regs + DMAEMU_CSUM_REG_INT_STATUS);
	complete(&c->done);
	return IRQ_HANDLED;
}

static int crcdrv_init(struct crcdrv *c, struct dmaemu_device *d)
{
	c->dev = dmaemu_device_to_dev(d);
	c->regs = dmaemu_device_regs(d);
	init_completion(&c->done);
	if (dma_set_mask_and_coherent(c->dev, DMA_BIT_MASK(64)))
		return -EIO;
	c->buf = dma_alloc_noncoherent(c->dev, BUF_SIZE, &c->buf_dma,
				       GFP_KERNEL);
	if (!c->buf)
		return -ENOMEM;
	c->irq = (unsigned int)dmaemu_device_irq(d, 0);
	if (request_irq(c->irq, crcdrv_irq, 0, "crcdrv", c)) {
		c->irq = 0;
		return -EBUSY;
	}
	writel(DMAEMU_CSUM_INT_DONE | DMAEMU_CSUM_INT_ERROR,
	       c->regs + DMAEMU_CSUM_REG_INT_ENABLE);
	return 0;
}

static void crcdrv_fini(struct crcdrv *c)
{
	if (c->irq) {
		writel(DMAEMU_CSUM_CMD_RESET, c->regs + DMAEMU_CSUM_REG_CMD);
		free_irq(c->irq, c);
	}
	if (c->buf)
		dma_free_noncoherent(c->dev, BUF_SIZE, c->buf, c->buf_dma);
}

/* The CRC-32 of record number @seq, computed by the engine into *@crc. */
static int crcdrv_record(struct crcdrv *c, unsigned int seq, u32 *crc)
{
	u8 *rec = kmalloc(REC, GFP_TEMPORARY);
	unsigned int i;

	if (!rec)
		return -ENOMEM;
	for (i = 0; i < REC; i++)
		rec[i] = (u8)(seq * 31 + i);
	memcpy(c->buf, rec, REC);
	kfree(rec);
	/* Non-consistent memory: write the record back for the engine. */
	dma_cache_sync(c->dev, c->buf, REC, DMA_TO_DEVICE);

	reinit_completion(&c->done);
	writel((u32)c->buf_dma, c->regs + DMAEMU_CSUM_REG_SRC_LO);
	writel((u32)(c->buf_dma >> 32), c->regs + DMAEMU_CSUM_REG_SRC_HI);
	writel(REC, c->regs + DMAEMU_CSUM_REG_LEN);
	writel((u32)(c->buf_dma + RESULT_OFF),
	       c->regs + DMAEMU_CSUM_REG_DST_LO);
	writel((u32)((c->buf_dma + RESULT_OFF) >> 32),
	       c->regs + DMAEMU_CSUM_REG_DST_HI);
	writel(DMAEMU_CSUM_CMD_START | DMAEMU_CSUM_CMD_WRITE,
	       c->regs + DMAEMU_CSUM_REG_CMD);
	if (!wait_for_completion_timeout(&c->done, msecs_to_jiffies(5000)))
		return -ETIMEDOUT;
	if (readl(c->regs + DMAEMU_CSUM_REG_ERR_CODE))
		return -EIO;
	/* And drop the CPU's copy of the result's line before reading. */
	dma_cache_sync(c->dev, c->buf + RESULT_OFF, 4, DMA_FROM_DEVICE);
	memcpy(crc, c->buf + RESULT_OFF, 4);
	return 0;
}

static u32 crc32_of(unsigned int seq)
{
	u32 crc = 0xffffffffu;
	unsigned int i, k;

	for (i = 0; i < REC; i++) {
		crc ^= (u8)(seq * 31 + i);
		for (k = 0; k < 8; k++)
			crc = (crc & 1) ? 0xedb88320u ^ (crc >> 1) : crc >> 1;
	}
	return ~crc;
}

int main(int argc, char **argv)
{
	struct lab *lab = lab_start("removed-apis", argc, argv, NULL);
	struct dmaemu_device *d;
	struct crcdrv c = {0};
	unsigned int seq, right = 0;
	u32 crc;
	int ret, status = 0;

	if (!lab)
		return 1;
	d = dmaemu_checksum_create(lab->m, "csum0");
	if (!d)
		status = lab_fail(lab, "dmaemu_checksum_create()", errno);
	else if ((ret = crcdrv_init(&c, d)))
		status = lab_fail(lab, "crcdrv_init()", ret);
	for (seq = 0; !status && seq < 4; seq++) {
		ret = crcdrv_record(&c, seq, &crc);
		if (ret)
			status = lab_fail(lab, "crcdrv_record()", ret);
		else if (crc == crc32_of(seq))
			right++;
	}
	if (!status)
		lab_say("%u of 4 records checksummed right", right);
	crcdrv_fini(&c);
	dmaemu_device_destroy(d);
	ret = lab_finish(lab, right == 4);
	return status ? status : ret;
}
