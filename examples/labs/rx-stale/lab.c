// SPDX-License-Identifier: MIT
/*
 * rx-stale - receive without dma_sync_single_for_cpu() (README.md).
 *
 * A small polled driver for the network card (docs/devices/nic.md) with
 * the loopback wire on: what it sends comes back on RX.  The RX ring has
 * four descriptors, each with a buffer mapped once, DMA_FROM_DEVICE, at
 * probe and used again and again: the subject of the lab.  The TX side
 * sends from one coherent buffer, which needs no sync, to keep it short.
 *
 * The buggy driver copies each frame out without
 * dma_sync_single_for_cpu() and gives the buffer back without
 * dma_sync_single_for_device(): the first frame in a buffer comes out
 * right (the map invalidated the buffer's lines), but reading it leaves
 * the lines in the CPU cache, and the next frame the card puts in that
 * buffer is read from there.
 */
#include <errno.h> /* the kernel's <linux/errno.h> is the system's */
#include <stdio.h>
#include <string.h>

#include <dmaemu/device.h>
#include <dmaemu/devices/nic.h> /* dmaemu_nic_create() */
#include <linux/delay.h>
#include <linux/dma-mapping.h>
#include <linux/err.h>
#include <linux/io.h>
#include <linux/platform_device.h>
#include <linux/slab.h>

#include "lab.h"

/* Registers (data sheet, section 2). */
#define NIC_ID 0x00
#define NIC_CTRL 0x04
#define NIC_TX_RING_LO 0x28
#define NIC_TX_HEAD 0x34
#define NIC_TX_TAIL 0x38
#define NIC_RX_RING_LO 0x40
#define NIC_RX_HEAD 0x4c
#define NIC_RX_TAIL 0x50
#define NIC_ID_VALUE 0x4e1c0001
#define NIC_CTRL_TX_EN 0x1
#define NIC_CTRL_RX_EN 0x2
#define NIC_CTRL_LOOPBACK 0x4
#define NIC_CTRL_RESET 0x80000000

/* Descriptors (section 3): one per 64-byte line. */
struct nic_desc {
	u64 addr;
	u32 len;
	u32 status;
	u32 reserved[12];
};
#define NIC_OWN 0x80000000
#define NIC_ERR 0x40000000
#define NIC_LEN_MASK 0xffff

#define TX_RING 2
#define RX_RING 4     /* descriptors, and buffers: one each */
#define BUF_SIZE 2048 /* the largest frame */
#define FRAME_LEN 64  /* the lab's frames: one cache line of text */
#define FRAMES 6      /* frames 4 and 5 reuse buffers 0 and 1 */

struct nicdrv {
	struct device *dev;
	void __iomem *regs;
	struct nic_desc *tx_ring, *rx_ring; /* coherent */
	dma_addr_t tx_ring_dma, rx_ring_dma;
	u8 *tx_buf; /* coherent: what is sent */
	dma_addr_t tx_buf_dma;
	unsigned int tx_tail;  /* the next TX descriptor to fill */
	void *rx_buf[RX_RING]; /* mapped DMA_FROM_DEVICE, probe to remove */
	dma_addr_t rx_dma[RX_RING];
	unsigned int rx_next; /* the next RX descriptor the card fills */
};

static struct nicdrv *card_drv; /* the card probed */

/* Poll register @reg until it reads @want (@equal) or anything else
 * (!@equal); about five seconds at most. */
static int poll_reg(struct nicdrv *nd, unsigned int reg, u32 want, bool equal)
{
	int tries;

	for (tries = 0; tries < 5000; tries++) {
		if ((readl(nd->regs + reg) == want) == equal)
			return 0;
		msleep(1);
	}
	return -ETIMEDOUT;
}

/* Send @len bytes of @frame and wait until the card has sent them. */
static int nic_send(struct nicdrv *nd, const void *frame, size_t len)
{
	struct nic_desc *d = &nd->tx_ring[nd->tx_tail];

	memcpy(nd->tx_buf, frame, len);
	d->addr = nd->tx_buf_dma;
	d->len = (u32)len;
	dma_wmb(); /* the descriptor before its OWN bit */
	WRITE_ONCE(d->status, NIC_OWN);
	nd->tx_tail = (nd->tx_tail + 1) % TX_RING;
	writel(nd->tx_tail, nd->regs + NIC_TX_TAIL); /* the doorbell */
	return poll_reg(nd, NIC_TX_HEAD, nd->tx_tail, true);
}

/* Give RX descriptor @i and its buffer to the card. */
static void rx_post(struct nicdrv *nd, unsigned int i)
{
	struct nic_desc *d = &nd->rx_ring[i];

	d->addr = nd->rx_dma[i];
	d->len = BUF_SIZE;
	dma_wmb(); /* the descriptor before its OWN bit */
	WRITE_ONCE(d->status, NIC_OWN);
}

/* Wait until the card has filled the next RX descriptor (RX_HEAD moved
 * past it).  Return: its index, or -ETIMEDOUT. */
static int nic_rx_wait(struct nicdrv *nd)
{
	int ret = poll_reg(nd, NIC_RX_HEAD, nd->rx_next, false);

	return ret ? ret : (int)nd->rx_next;
}

/*
 * Copy the frame of RX descriptor @i (nic_rx_wait()) to @out, give the
 * buffer back to the card.  Return: the frame's length, or -EIO when the
 * card marked the descriptor failed.
 */
static int nic_rx_read(struct nicdrv *nd, unsigned int i, void *out)
{
	u32 status = READ_ONCE(nd->rx_ring[i].status);
	int len = -EIO;

	dma_rmb(); /* nothing of the frame before its status */
	if (!(status & (NIC_ERR | NIC_OWN))) {
		len = (int)(status & NIC_LEN_MASK);
#ifdef LAB_FIXED
		/* FIX: give the buffer back to the CPU before reading it:
		 * on arm and arm64 this invalidates its lines, so the copy
		 * below fetches what the card wrote. */
		dma_sync_single_for_cpu(nd->dev, nd->rx_dma[i], (size_t)len,
					DMA_FROM_DEVICE);
#endif
		memcpy(out, nd->rx_buf[i], (size_t)len);
#ifdef LAB_FIXED
		/* FIX: and hand it to the card again before posting it. */
		dma_sync_single_for_device(nd->dev, nd->rx_dma[i], (size_t)len,
					   DMA_FROM_DEVICE);
#endif
	}
	rx_post(nd, i);
	nd->rx_next = (i + 1) % RX_RING;
	/* Descriptor i is now the empty slot; the one before it is the
	 * card's again (one slot stays free: HEAD == TAIL is empty). */
	writel(i, nd->regs + NIC_RX_TAIL);
	return len;
}

static void rx_free(struct nicdrv *nd, unsigned int n)
{
	while (n--) {
		dma_unmap_single(nd->dev, nd->rx_dma[n], BUF_SIZE,
				 DMA_FROM_DEVICE);
		kfree(nd->rx_buf[n]);
	}
}

static int rx_alloc(struct nicdrv *nd)
{
	unsigned int i;

	for (i = 0; i < RX_RING; i++) {
		nd->rx_buf[i] = kzalloc(BUF_SIZE, GFP_KERNEL);
		if (!nd->rx_buf[i])
			goto out_free;
		nd->rx_dma[i] = dma_map_single(nd->dev, nd->rx_buf[i], BUF_SIZE,
					       DMA_FROM_DEVICE);
		if (dma_mapping_error(nd->dev, nd->rx_dma[i])) {
			kfree(nd->rx_buf[i]);
			goto out_free;
		}
		rx_post(nd, i);
	}
	return 0;

out_free:
	rx_free(nd, i);
	return -ENOMEM;
}

static void free_coherent(struct nicdrv *nd)
{
	struct device *dev = nd->dev;

	if (nd->tx_buf)
		dma_free_coherent(dev, BUF_SIZE, nd->tx_buf, nd->tx_buf_dma);
	if (nd->rx_ring)
		dma_free_coherent(dev, RX_RING * sizeof(struct nic_desc),
				  nd->rx_ring, nd->rx_ring_dma);
	if (nd->tx_ring)
		dma_free_coherent(dev, TX_RING * sizeof(struct nic_desc),
				  nd->tx_ring, nd->tx_ring_dma);
}

static void set_ring(struct nicdrv *nd, unsigned int lo, dma_addr_t dma,
		     unsigned int n)
{
	writel(lower_32_bits(dma), nd->regs + lo);
	writel(upper_32_bits(dma), nd->regs + lo + 4); /* _HI */
	writel(n, nd->regs + lo + 8);		       /* _SIZE */
}

static int nic_probe_card(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct nicdrv *nd;
	int ret;

	nd = devm_kzalloc(dev, sizeof(*nd), GFP_KERNEL);
	if (!nd)
		return -ENOMEM;
	nd->dev = dev;
	nd->regs = devm_ioremap_resource(
		dev, platform_get_resource(pdev, IORESOURCE_MEM, 0));
	if (IS_ERR(nd->regs))
		return (int)PTR_ERR(nd->regs);
	if (readl(nd->regs + NIC_ID) != NIC_ID_VALUE)
		return -ENODEV;
	ret = dma_set_mask_and_coherent(dev, DMA_BIT_MASK(64));
	if (ret)
		return ret;
	writel(NIC_CTRL_RESET, nd->regs + NIC_CTRL);

	nd->tx_ring = dma_alloc_coherent(dev, TX_RING * sizeof(struct nic_desc),
					 &nd->tx_ring_dma, GFP_KERNEL);
	nd->rx_ring = dma_alloc_coherent(dev, RX_RING * sizeof(struct nic_desc),
					 &nd->rx_ring_dma, GFP_KERNEL);
	nd->tx_buf =
		dma_alloc_coherent(dev, BUF_SIZE, &nd->tx_buf_dma, GFP_KERNEL);
	if (!nd->tx_ring || !nd->rx_ring || !nd->tx_buf || rx_alloc(nd)) {
		free_coherent(nd);
		return -ENOMEM;
	}
	set_ring(nd, NIC_TX_RING_LO, nd->tx_ring_dma, TX_RING);
	set_ring(nd, NIC_RX_RING_LO, nd->rx_ring_dma, RX_RING);
	writel(RX_RING - 1, nd->regs + NIC_RX_TAIL); /* all but one slot */
	writel(NIC_CTRL_TX_EN | NIC_CTRL_RX_EN | NIC_CTRL_LOOPBACK,
	       nd->regs + NIC_CTRL);
	platform_set_drvdata(pdev, nd);
	card_drv = nd;
	return 0;
}

static int probe_err; /* what the last probe returned, for main() */

static int nic_probe(struct platform_device *pdev)
{
	probe_err = nic_probe_card(pdev);
	return probe_err;
}

static int nic_remove(struct platform_device *pdev)
{
	struct nicdrv *nd = platform_get_drvdata(pdev);

	writel(NIC_CTRL_RESET, nd->regs + NIC_CTRL); /* stops touching memory */
	rx_free(nd, RX_RING);
	free_coherent(nd);
	card_drv = NULL;
	return 0;
}

static struct platform_driver nic_driver = {
	.probe = nic_probe,
	.remove = nic_remove,
	.driver = {.name = "dmaemu-nic"},
};

/* ------------------------------------------------------------------ */
/* The lab: frames through the loopback wire, each checked as it comes
 * back. */

/* Send frame @k and receive it; say whether it came back as sent. */
static bool ping(struct lab *lab, struct nicdrv *nd, unsigned int k)
{
	char want[FRAME_LEN] = {0}, got[BUF_SIZE] = {0}, title[128];
	bool show = k == 0 || k == RX_RING;
	int i, len;

	snprintf(want, sizeof(want), "frame %u: hello from the wire", k);
	if (nic_send(nd, want, sizeof(want)) || (i = nic_rx_wait(nd)) < 0) {
		lab_say("frame %u: not sent or never came back", k);
		return false;
	}
	if (show) {
		snprintf(title, sizeof(title),
			 "frame %u has arrived in RX buffer %d; the buffer's "
			 "line before the driver reads it:",
			 k, i);
		lab_show(lab, nd->rx_buf[i], FRAME_LEN, title);
	}
	len = nic_rx_read(nd, i, got);
	if (show)
		lab_show(lab, nd->rx_buf[i], FRAME_LEN,
			 "after the driver has read it:");
	if (len == (int)sizeof(want) && !memcmp(got, want, sizeof(want))) {
		lab_say("buffer %d: \"%s\": right", i, got);
		return true;
	}
	lab_say("buffer %d: \"%.*s\": WRONG, the card wrote \"%s\"", i,
		len > 0 ? len : 0, got, want);
	return false;
}

int main(int argc, char **argv)
{
	struct lab *lab = lab_start("rx-stale", argc, argv, NULL);
	struct dmaemu_device *card;
	bool ok = true;
	unsigned int k;
	int ret;

	if (!lab)
		return 2;
	ret = platform_driver_register(&nic_driver);
	if (ret)
		return lab_fail(lab, "platform_driver_register()", ret);
	card = dmaemu_nic_create(lab->m, "eth0"); /* probed here */
	if (!card)
		return lab_fail(lab, "dmaemu_nic_create()", errno);
	if (!card_drv)
		return lab_fail(lab, "nic_probe()",
				probe_err ? probe_err : -ENODEV);
	lab_say("%d frames through the loopback wire into a ring of %d RX "
		"buffers: frames %d and %d land in the buffers that held "
		"frames 0 and 1",
		FRAMES, RX_RING, RX_RING, RX_RING + 1);
	for (k = 0; k < FRAMES; k++)
		ok &= ping(lab, card_drv, k);
	dmaemu_device_destroy(card); /* remove() runs */
	platform_driver_unregister(&nic_driver);
	return lab_finish(lab, ok);
}
