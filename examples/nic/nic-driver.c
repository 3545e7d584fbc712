// SPDX-License-Identifier: MIT
/*
 * nic-driver.c - a Linux-style platform driver for the network card,
 * written from its data sheet (docs/devices/nic.md) as a kernel driver
 * author would, without NAPI: probe maps the registers, allocates the two
 * descriptor rings in coherent memory and posts RX buffers mapped once
 * DMA_FROM_DEVICE; xmit copies the frame into a buffer, maps it
 * DMA_TO_DEVICE and rings the doorbell (once a batch, as with
 * skb->xmit_more: nicdrv_xmit_more()); the interrupt handler reads how far
 * the card got (TX_HEAD, RX_HEAD), cleans the TX ring (unmap, free) and
 * wakes the readers; recv syncs a received buffer for the CPU, copies the
 * frame out and gives the buffer back; remove quiesces the card before
 * freeing what it uses.
 */
#include <linux/errno.h>
#include <linux/string.h>

#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/err.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/jiffies.h>
#include <linux/mutex.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/wait_bit.h>

#include "nic-driver.h"

/* Registers (data sheet, section 2). */
#define NIC_ID 0x00
#define NIC_CTRL 0x04
#define NIC_INT_STATUS 0x0c
#define NIC_INT_ENABLE 0x10
#define NIC_COALESCE 0x14
#define NIC_ERR_CODE 0x18
#define NIC_ERR_ADDR_LO 0x1c
#define NIC_TX_RING_LO 0x28
#define NIC_TX_RING_HI 0x2c
#define NIC_TX_SIZE 0x30
#define NIC_TX_HEAD 0x34
#define NIC_TX_TAIL 0x38
#define NIC_RX_RING_LO 0x40
#define NIC_RX_RING_HI 0x44
#define NIC_RX_SIZE 0x48
#define NIC_RX_HEAD 0x4c
#define NIC_RX_TAIL 0x50

#define NIC_ID_VALUE 0x4e1c0001
#define NIC_CTRL_TX_EN 0x1
#define NIC_CTRL_RX_EN 0x2
#define NIC_CTRL_LOOPBACK 0x4
#define NIC_CTRL_RESET 0x80000000
#define NIC_INT_TX_DONE 0x1
#define NIC_INT_RX_DONE 0x2
#define NIC_INT_TX_ERR 0x4
#define NIC_INT_RX_ERR 0x8
#define NIC_INT_RX_NOBUF 0x10

/* Descriptors (section 3). */
struct nic_desc {
	u64 addr;
	u32 len;
	u32 status;
	u32 reserved[12]; /* one descriptor per 64-byte line */
};
#define NIC_OWN 0x80000000
#define NIC_ERR 0x40000000
#define NIC_LEN_MASK 0xffff

#define NIC_RING 64
#define NIC_RX_BUF 2048
#define NIC_MAX_FRAME 2048
#define NIC_TX_COALESCE 16 /* TX cleaning is not urgent */
#define NIC_RX_COALESCE 1
#define NIC_TIMEOUT (10 * HZ)
#define RING_BYTES (NIC_RING * sizeof(struct nic_desc))

struct nicdrv {
	struct device *dev;
	void __iomem *regs;
	int irq;
	struct nic_desc *tx_ring, *rx_ring; /* coherent */
	dma_addr_t tx_ring_dma, rx_ring_dma;

	spinlock_t lock;		/* the handler's; protects: */
	unsigned int tx_tail, tx_clean; /* next to fill, next to clean */
	unsigned int tx_head, rx_head;	/* HEADs as the handler last read */
	void *tx_buf[NIC_RING];		/* in flight, mapped TO_DEVICE */
	dma_addr_t tx_dma[NIC_RING];
	size_t tx_len[NIC_RING];
	u32 ctrl;
	struct nicdrv_stats stats;

	struct mutex tx_mutex;	/* one sender at a time */
	struct mutex rx_mutex;	/* one reader at a time; protects: */
	unsigned int rx_next;	/* next descriptor the card fills */
	void *rx_buf[NIC_RING]; /* mapped FROM_DEVICE while posted */
	dma_addr_t rx_dma[NIC_RING];
	wait_queue_head_t tx_wait, rx_wait;
};

static struct nicdrv *first; /* the first card bound (demo lookup) */

struct nicdrv *nicdrv_first(void)
{
	return first;
}

/* Unmap and free the frames the card has sent (it is past them: HEAD).
 * nd->lock held. */
static void tx_clean(struct nicdrv *nd)
{
	while (nd->tx_clean != nd->tx_head) {
		unsigned int i = nd->tx_clean;
		u32 status = READ_ONCE(nd->tx_ring[i].status);

		if (status & NIC_ERR)
			nd->stats.tx_errors++;
		dma_unmap_single(nd->dev, nd->tx_dma[i], nd->tx_len[i],
				 DMA_TO_DEVICE);
		kfree(nd->tx_buf[i]);
		nd->tx_buf[i] = NULL;
		nd->tx_clean = (i + 1) % NIC_RING;
		nd->stats.tx_done++;
	}
}

static irqreturn_t nic_irq(int irq, void *data)
{
	struct nicdrv *nd = data;
	u32 pending = readl(nd->regs + NIC_INT_STATUS);

	if (!pending)
		return IRQ_NONE;
	writel(pending, nd->regs + NIC_INT_STATUS); /* acknowledge */

	/*
	 * Where the card is, read after the acknowledge: a descriptor it
	 * completes later raises the interrupt again.  Descriptors before
	 * HEAD are written back (OWN clear) and the card no longer touches
	 * them; the ones after, the driver leaves alone.
	 */
	spin_lock(&nd->lock);
	nd->stats.irqs++;
	nd->tx_head = readl(nd->regs + NIC_TX_HEAD);
	nd->rx_head = readl(nd->regs + NIC_RX_HEAD);
	tx_clean(nd);
	spin_unlock(&nd->lock);
	if (pending & (NIC_INT_TX_ERR | NIC_INT_RX_ERR))
		dev_err(nd->dev, "error %u at %#x\n",
			readl(nd->regs + NIC_ERR_CODE),
			readl(nd->regs + NIC_ERR_ADDR_LO));
	if (pending & (NIC_INT_TX_DONE | NIC_INT_TX_ERR))
		wake_up(&nd->tx_wait);
	if (pending & (NIC_INT_RX_DONE | NIC_INT_RX_ERR | NIC_INT_RX_NOBUF))
		wake_up(&nd->rx_wait);
	return IRQ_HANDLED;
}

static bool tx_room(struct nicdrv *nd)
{
	unsigned long flags;
	bool room;

	spin_lock_irqsave(&nd->lock, flags);
	room = (nd->tx_tail + 1) % NIC_RING != nd->tx_clean;
	spin_unlock_irqrestore(&nd->lock, flags);
	return room;
}

/* Ring the doorbell: the card takes the descriptors up to tx_tail.
 * nd->lock held. */
static void tx_kick(struct nicdrv *nd)
{
#ifdef NIC_RELAXED_DOORBELL
	/*
	 * The variant the data sheet allows: a wmb() orders the descriptor
	 * before a writel_relaxed() doorbell (tests/api/check-ordering-
	 * nic.c builds it, and with NIC_NO_DOORBELL_WMB without the wmb()).
	 */
#ifndef NIC_NO_DOORBELL_WMB
	wmb();
#endif
	writel_relaxed(nd->tx_tail, nd->regs + NIC_TX_TAIL);
#else
	/* writel() orders the descriptors' stores before the doorbell. */
	writel(nd->tx_tail, nd->regs + NIC_TX_TAIL);
#endif
}

int nicdrv_xmit_more(struct nicdrv *nd, const void *data, size_t len, bool more)
{
	struct nic_desc *d;
	unsigned long flags;
	unsigned int i;
	dma_addr_t dma;
	void *buf;
	int ret;

	if (!len || len > NIC_MAX_FRAME)
		return -EINVAL;
	buf = kmalloc(NIC_MAX_FRAME, GFP_KERNEL); /* full size, as an skb */
	if (!buf)
		return -ENOMEM;
	memcpy(buf, data, len);
	/* Mapped after it was filled: the mapping hands it to the card. */
	dma = dma_map_single(nd->dev, buf, len, DMA_TO_DEVICE);
	if (dma_mapping_error(nd->dev, dma)) {
		ret = -ENOMEM;
		goto out_free;
	}

	mutex_lock(&nd->tx_mutex);
	if (!wait_event_timeout(nd->tx_wait, tx_room(nd), NIC_TIMEOUT)) {
		ret = -ETIMEDOUT;
		goto out_unmap;
	}
	spin_lock_irqsave(&nd->lock, flags);
	i = nd->tx_tail;
	nd->tx_buf[i] = buf;
	nd->tx_dma[i] = dma;
	nd->tx_len[i] = len;
	d = &nd->tx_ring[i];
	d->addr = dma;
	d->len = (u32)len;
	dma_wmb(); /* the descriptor before its OWN bit */
	WRITE_ONCE(d->status, NIC_OWN);
	nd->tx_tail = (i + 1) % NIC_RING;
	/* As with skb->xmit_more: one doorbell for a batch, and at once
	 * when the ring is full (the card must make room). */
	if (!more || (nd->tx_tail + 1) % NIC_RING == nd->tx_clean)
		tx_kick(nd);
	spin_unlock_irqrestore(&nd->lock, flags);
	mutex_unlock(&nd->tx_mutex);
	return 0;

out_unmap:
	mutex_unlock(&nd->tx_mutex);
	dma_unmap_single(nd->dev, dma, len, DMA_TO_DEVICE);
out_free:
	kfree(buf);
	return ret;
}

int nicdrv_xmit(struct nicdrv *nd, const void *data, size_t len)
{
	return nicdrv_xmit_more(nd, data, len, false);
}

/* Has the card written back RX descriptor @i?  rx_mutex held. */
static bool rx_ready(struct nicdrv *nd, unsigned int i)
{
	unsigned long flags;
	bool ready;

	spin_lock_irqsave(&nd->lock, flags);
	ready = i != nd->rx_head;
	spin_unlock_irqrestore(&nd->lock, flags);
	return ready;
}

/* Give RX descriptor @i (and its buffer) to the card.  rx_mutex held, or
 * probe. */
static void rx_post(struct nicdrv *nd, unsigned int i)
{
	struct nic_desc *d = &nd->rx_ring[i];

	d->addr = nd->rx_dma[i];
	d->len = NIC_RX_BUF;
	dma_wmb(); /* the descriptor before its OWN bit */
	WRITE_ONCE(d->status, NIC_OWN);
}

int nicdrv_recv(struct nicdrv *nd, void *buf, size_t size,
		unsigned long timeout)
{
	unsigned long flags;
	unsigned int i;
	u32 status, len;
	int ret;

	mutex_lock(&nd->rx_mutex);
	i = nd->rx_next;
	if (!wait_event_timeout(nd->rx_wait, rx_ready(nd, i), timeout)) {
		ret = -ETIMEDOUT;
		goto out;
	}
	status = READ_ONCE(nd->rx_ring[i].status);
	dma_rmb(); /* nothing of the frame before its status said done */
	if ((status & NIC_ERR) || (status & NIC_OWN)) {
		spin_lock_irqsave(&nd->lock, flags);
		nd->stats.rx_errors++;
		spin_unlock_irqrestore(&nd->lock, flags);
		ret = -EIO;
	} else {
		len = status & NIC_LEN_MASK;
		dma_sync_single_for_cpu(nd->dev, nd->rx_dma[i], len,
					DMA_FROM_DEVICE);
		memcpy(buf, nd->rx_buf[i], len < size ? len : size);
		dma_sync_single_for_device(nd->dev, nd->rx_dma[i], len,
					   DMA_FROM_DEVICE);
		ret = (int)len;
	}
	/*
	 * One slot stays empty (HEAD == TAIL means no buffer): descriptor i
	 * becomes that slot, and moving TAIL to it gives the card back the
	 * slot before it, posted when it was consumed.
	 */
	rx_post(nd, i);
	nd->rx_next = (i + 1) % NIC_RING;
	writel(i, nd->regs + NIC_RX_TAIL);
out:
	mutex_unlock(&nd->rx_mutex);
	return ret;
}

void nicdrv_set_loopback(struct nicdrv *nd, bool on)
{
	unsigned long flags;

	spin_lock_irqsave(&nd->lock, flags);
	if (on)
		nd->ctrl |= NIC_CTRL_LOOPBACK;
	else
		nd->ctrl &= ~NIC_CTRL_LOOPBACK;
	writel(nd->ctrl, nd->regs + NIC_CTRL);
	spin_unlock_irqrestore(&nd->lock, flags);
}

void nicdrv_set_coalesce(struct nicdrv *nd, unsigned int tx, unsigned int rx)
{
	writel((rx & 0xffff) << 16 | (tx & 0xffff), nd->regs + NIC_COALESCE);
}

void nicdrv_get_stats(struct nicdrv *nd, struct nicdrv_stats *st)
{
	unsigned long flags;

	spin_lock_irqsave(&nd->lock, flags);
	*st = nd->stats;
	spin_unlock_irqrestore(&nd->lock, flags);
}

/* Unmap and free the RX buffers from @n down. */
static void rx_free(struct nicdrv *nd, unsigned int n)
{
	while (n--) {
		dma_unmap_single(nd->dev, nd->rx_dma[n], NIC_RX_BUF,
				 DMA_FROM_DEVICE);
		kfree(nd->rx_buf[n]);
	}
}

static int rx_alloc(struct nicdrv *nd)
{
	unsigned int i;

	for (i = 0; i < NIC_RING; i++) {
		nd->rx_buf[i] = kmalloc(NIC_RX_BUF, GFP_KERNEL);
		if (!nd->rx_buf[i])
			goto out_free;
		nd->rx_dma[i] = dma_map_single(nd->dev, nd->rx_buf[i],
					       NIC_RX_BUF, DMA_FROM_DEVICE);
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

static void *ring_alloc(struct nicdrv *nd, dma_addr_t *dma)
{
	return dma_alloc_coherent(nd->dev, RING_BYTES, dma, GFP_KERNEL);
}

static int nic_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct resource *res;
	struct nicdrv *nd;
	int ret;

	nd = devm_kzalloc(dev, sizeof(*nd), GFP_KERNEL);
	if (!nd)
		return -ENOMEM;
	nd->dev = dev;
	res = platform_get_resource(pdev, IORESOURCE_MEM, 0);
	nd->regs = devm_ioremap_resource(dev, res);
	if (IS_ERR(nd->regs))
		return (int)PTR_ERR(nd->regs);
	if (readl(nd->regs + NIC_ID) != NIC_ID_VALUE) {
		dev_err(dev, "not a dmaemu network card\n");
		return -ENODEV;
	}
	nd->irq = platform_get_irq(pdev, 0);
	if (nd->irq < 0)
		return nd->irq;
	ret = dma_set_mask_and_coherent(dev, DMA_BIT_MASK(64));
	if (ret)
		return ret;

	spin_lock_init(&nd->lock);
	mutex_init(&nd->tx_mutex);
	mutex_init(&nd->rx_mutex);
	init_waitqueue_head(&nd->tx_wait);
	init_waitqueue_head(&nd->rx_wait);
	writel(NIC_CTRL_RESET, nd->regs + NIC_CTRL);

	ret = -ENOMEM;
	nd->tx_ring = ring_alloc(nd, &nd->tx_ring_dma);
	if (!nd->tx_ring)
		goto out_destroy;
	nd->rx_ring = ring_alloc(nd, &nd->rx_ring_dma);
	if (!nd->rx_ring)
		goto out_free_tx_ring;
	memset(nd->tx_ring, 0, RING_BYTES);
	ret = rx_alloc(nd);
	if (ret)
		goto out_free_rx_ring;
	ret = request_irq((unsigned int)nd->irq, nic_irq, 0, dev_name(dev), nd);
	if (ret)
		goto out_free_rx_bufs;

	writel(lower_32_bits(nd->tx_ring_dma), nd->regs + NIC_TX_RING_LO);
	writel(upper_32_bits(nd->tx_ring_dma), nd->regs + NIC_TX_RING_HI);
	writel(NIC_RING, nd->regs + NIC_TX_SIZE);
	writel(lower_32_bits(nd->rx_ring_dma), nd->regs + NIC_RX_RING_LO);
	writel(upper_32_bits(nd->rx_ring_dma), nd->regs + NIC_RX_RING_HI);
	writel(NIC_RING, nd->regs + NIC_RX_SIZE);
	writel(NIC_RING - 1, nd->regs + NIC_RX_TAIL); /* all but one slot */
	writel(NIC_RX_COALESCE << 16 | NIC_TX_COALESCE,
	       nd->regs + NIC_COALESCE);
	writel(NIC_INT_TX_DONE | NIC_INT_RX_DONE | NIC_INT_TX_ERR |
		       NIC_INT_RX_ERR | NIC_INT_RX_NOBUF,
	       nd->regs + NIC_INT_ENABLE);
	nd->ctrl = NIC_CTRL_TX_EN | NIC_CTRL_RX_EN;
	writel(nd->ctrl, nd->regs + NIC_CTRL);
	platform_set_drvdata(pdev, nd);
	if (!first)
		first = nd;
	return 0;

out_free_rx_bufs:
	rx_free(nd, NIC_RING);
out_free_rx_ring:
	dma_free_coherent(dev, RING_BYTES, nd->rx_ring, nd->rx_ring_dma);
out_free_tx_ring:
	dma_free_coherent(dev, RING_BYTES, nd->tx_ring, nd->tx_ring_dma);
out_destroy:
	mutex_destroy(&nd->rx_mutex);
	mutex_destroy(&nd->tx_mutex);
	return ret;
}

static int nic_remove(struct platform_device *pdev)
{
	struct nicdrv *nd = platform_get_drvdata(pdev);

	/*
	 * Quiesce the card before freeing what it uses.  free_irq() before
	 * the reset: it waits for a handler still running (one raised before
	 * INT_ENABLE went to 0), which would read the reset TX_HEAD of 0 and
	 * clean the whole ring.
	 */
	writel(0, nd->regs + NIC_INT_ENABLE);
	free_irq((unsigned int)nd->irq, nd);
	writel(NIC_CTRL_RESET, nd->regs + NIC_CTRL);
	/* Frames the card never sent are unmapped and dropped. */
	while (nd->tx_clean != nd->tx_tail) {
		unsigned int i = nd->tx_clean;

		dma_unmap_single(nd->dev, nd->tx_dma[i], nd->tx_len[i],
				 DMA_TO_DEVICE);
		kfree(nd->tx_buf[i]);
		nd->tx_clean = (i + 1) % NIC_RING;
	}
	rx_free(nd, NIC_RING);
	dma_free_coherent(nd->dev, RING_BYTES, nd->rx_ring, nd->rx_ring_dma);
	dma_free_coherent(nd->dev, RING_BYTES, nd->tx_ring, nd->tx_ring_dma);
	mutex_destroy(&nd->rx_mutex);
	mutex_destroy(&nd->tx_mutex);
	if (first == nd)
		first = NULL;
	return 0;
}

struct platform_driver nicdrv_driver = {
	.probe = nic_probe,
	.remove = nic_remove,
	.driver = {.name = "dmaemu-nic"},
};
