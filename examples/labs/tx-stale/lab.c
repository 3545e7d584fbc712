// SPDX-License-Identifier: MIT
/*
 * tx-stale - send without dma_sync_single_for_device() (README.md).
 *
 * A small polled driver for the network card (docs/devices/nic.md) with
 * the loopback wire on: what it sends comes back on RX, so the lab can
 * compare what went over the wire with what the driver meant to send.
 * The TX side has one buffer, mapped once, DMA_TO_DEVICE, at probe and
 * refilled for every frame: the subject of the lab.  The RX side receives
 * into coherent memory, which needs no sync, to keep it short.
 *
 * The buggy driver copies each frame into the mapped buffer and rings the
 * doorbell without dma_sync_single_for_device(): on arm and arm64 the
 * frame is still in the CPU cache, dirty, and the card reads memory,
 * which holds the buffer as it was when it was mapped.
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

#define RING 2	      /* descriptors, TX and RX alike */
#define BUF_SIZE 2048 /* the largest frame */
#define FRAME_LEN 64  /* the lab's frames: one cache line of text */
#define FRAMES 3

struct nicdrv {
	struct device *dev;
	void __iomem *regs;
	struct nic_desc *tx_ring, *rx_ring; /* coherent */
	dma_addr_t tx_ring_dma, rx_ring_dma;
	u8 *tx_buf; /* mapped DMA_TO_DEVICE from probe to remove */
	dma_addr_t tx_dma;
	unsigned int tx_tail; /* the next TX descriptor to fill */
	u8 *rx_bufs;	      /* coherent: one BUF_SIZE buffer a descriptor */
	dma_addr_t rx_bufs_dma;
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

/*
 * Put the @len bytes of @frame in the TX buffer.  The card is done with
 * the buffer: nic_xmit() waited until it had sent the last frame.
 */
static void nic_fill(struct nicdrv *nd, const void *frame, size_t len)
{
#ifdef LAB_FIXED
	/* FIX: the buffer is the CPU's again before it writes it (on arm
	 * and arm64 a DMA_TO_DEVICE buffer needs no cache work here, but
	 * the ownership moves). */
	dma_sync_single_for_cpu(nd->dev, nd->tx_dma, len, DMA_TO_DEVICE);
#endif
	memcpy(nd->tx_buf, frame, len);
#ifdef LAB_FIXED
	/* FIX: hand the buffer to the card: on arm and arm64 this cleans
	 * its lines, writing the frame from the CPU cache to memory, where
	 * the card reads it. */
	dma_sync_single_for_device(nd->dev, nd->tx_dma, len, DMA_TO_DEVICE);
#endif
}

/* Send the @len bytes nic_fill() put in the TX buffer; wait until the
 * card has sent them. */
static int nic_xmit(struct nicdrv *nd, size_t len)
{
	struct nic_desc *d = &nd->tx_ring[nd->tx_tail];

	d->addr = nd->tx_dma;
	d->len = (u32)len;
	dma_wmb(); /* the descriptor before its OWN bit */
	WRITE_ONCE(d->status, NIC_OWN);
	nd->tx_tail = (nd->tx_tail + 1) % RING;
	writel(nd->tx_tail, nd->regs + NIC_TX_TAIL); /* the doorbell */
	return poll_reg(nd, NIC_TX_HEAD, nd->tx_tail, true);
}

/* Give RX descriptor @i and its buffer to the card. */
static void rx_post(struct nicdrv *nd, unsigned int i)
{
	struct nic_desc *d = &nd->rx_ring[i];

	d->addr = nd->rx_bufs_dma + i * BUF_SIZE;
	d->len = BUF_SIZE;
	dma_wmb(); /* the descriptor before its OWN bit */
	WRITE_ONCE(d->status, NIC_OWN);
}

/* Receive the next frame into @out (at least BUF_SIZE bytes).  Return:
 * its length, -EIO for a failed descriptor, -ETIMEDOUT. */
static int nic_recv(struct nicdrv *nd, void *out)
{
	unsigned int i = nd->rx_next;
	int len = -EIO;
	u32 status;

	if (poll_reg(nd, NIC_RX_HEAD, i, false))
		return -ETIMEDOUT;
	status = READ_ONCE(nd->rx_ring[i].status);
	dma_rmb(); /* nothing of the frame before its status */
	if (!(status & (NIC_ERR | NIC_OWN))) {
		len = (int)(status & NIC_LEN_MASK);
		memcpy(out, nd->rx_bufs + i * BUF_SIZE, (size_t)len);
	}
	rx_post(nd, i);
	nd->rx_next = (i + 1) % RING;
	writel(i, nd->regs + NIC_RX_TAIL); /* one slot stays free */
	return len;
}

static void free_all(struct nicdrv *nd)
{
	struct device *dev = nd->dev;
	size_t ring = RING * sizeof(struct nic_desc);

	if (nd->tx_buf) {
		dma_unmap_single(dev, nd->tx_dma, BUF_SIZE, DMA_TO_DEVICE);
		kfree(nd->tx_buf);
	}
	if (nd->rx_bufs)
		dma_free_coherent(dev, RING * BUF_SIZE, nd->rx_bufs,
				  nd->rx_bufs_dma);
	if (nd->rx_ring)
		dma_free_coherent(dev, ring, nd->rx_ring, nd->rx_ring_dma);
	if (nd->tx_ring)
		dma_free_coherent(dev, ring, nd->tx_ring, nd->tx_ring_dma);
}

/* The TX buffer, zeroed and mapped once for all the frames. */
static int tx_alloc(struct nicdrv *nd)
{
	u8 *buf = kzalloc(BUF_SIZE, GFP_KERNEL);

	if (!buf)
		return -ENOMEM;
	nd->tx_dma = dma_map_single(nd->dev, buf, BUF_SIZE, DMA_TO_DEVICE);
	if (dma_mapping_error(nd->dev, nd->tx_dma)) {
		kfree(buf);
		return -ENOMEM;
	}
	nd->tx_buf = buf;
	return 0;
}

static void set_ring(struct nicdrv *nd, unsigned int lo, dma_addr_t dma)
{
	writel(lower_32_bits(dma), nd->regs + lo);
	writel(upper_32_bits(dma), nd->regs + lo + 4); /* _HI */
	writel(RING, nd->regs + lo + 8);	       /* _SIZE */
}

static int nic_probe_card(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	size_t ring = RING * sizeof(struct nic_desc);
	struct nicdrv *nd;
	unsigned int i;
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

	nd->tx_ring =
		dma_alloc_coherent(dev, ring, &nd->tx_ring_dma, GFP_KERNEL);
	nd->rx_ring =
		dma_alloc_coherent(dev, ring, &nd->rx_ring_dma, GFP_KERNEL);
	nd->rx_bufs = dma_alloc_coherent(dev, RING * BUF_SIZE, &nd->rx_bufs_dma,
					 GFP_KERNEL);
	if (!nd->tx_ring || !nd->rx_ring || !nd->rx_bufs || tx_alloc(nd)) {
		free_all(nd);
		return -ENOMEM;
	}
	for (i = 0; i < RING; i++)
		rx_post(nd, i);
	set_ring(nd, NIC_TX_RING_LO, nd->tx_ring_dma);
	set_ring(nd, NIC_RX_RING_LO, nd->rx_ring_dma);
	writel(RING - 1, nd->regs + NIC_RX_TAIL); /* all but one slot */
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
	free_all(nd);
	card_drv = NULL;
	return 0;
}

static struct platform_driver nic_driver = {
	.probe = nic_probe,
	.remove = nic_remove,
	.driver = {.name = "dmaemu-nic"},
};

/* ------------------------------------------------------------------ */
/* The lab: frames through the loopback wire, each compared with what the
 * driver meant to send. */

/* @f as the lab prints it: its text, or what it is when it has none. */
static const char *describe(const char *f, int len, char *out, size_t size)
{
	int i;

	for (i = 0; i < len && !f[i]; i++)
		;
	if (len > 0 && i == len)
		snprintf(out, size, "%d zero bytes", len);
	else
		snprintf(out, size, "\"%.*s\"", len > 0 ? len : 0, f);
	return out;
}

/* Send frame @k; say whether the wire carried it as the driver wrote it. */
static bool send(struct lab *lab, struct nicdrv *nd, unsigned int k)
{
	char want[FRAME_LEN] = {0}, got[BUF_SIZE] = {0}, text[96];
	bool show = k == 0;
	int len;

	snprintf(want, sizeof(want), "frame %u: hello from the driver", k);
	nic_fill(nd, want, sizeof(want));
	if (show)
		lab_show(lab, nd->tx_buf, FRAME_LEN,
			 "frame 0 is in the TX buffer; its line before the "
			 "doorbell:");
	if (nic_xmit(nd, sizeof(want)) || (len = nic_recv(nd, got)) < 0) {
		lab_say("frame %u: not sent or never came back", k);
		return false;
	}
	if (show)
		lab_show(lab, nd->tx_buf, FRAME_LEN,
			 "after the card has sent it:");
	if (len == (int)sizeof(want) && !memcmp(got, want, sizeof(want))) {
		lab_say("the wire carried \"%s\": right", want);
		return true;
	}
	lab_say("the wire carried %s: WRONG, the driver wrote \"%s\"",
		describe(got, len, text, sizeof(text)), want);
	return false;
}

int main(int argc, char **argv)
{
	struct lab *lab = lab_start("tx-stale", argc, argv, NULL);
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
	lab_say("%d frames through one TX buffer, mapped once at probe, and "
		"back through the loopback wire",
		FRAMES);
	for (k = 0; k < FRAMES; k++)
		ok &= send(lab, card_drv, k);
	dmaemu_device_destroy(card); /* remove() runs */
	platform_driver_unregister(&nic_driver);
	return lab_finish(lab, ok);
}
