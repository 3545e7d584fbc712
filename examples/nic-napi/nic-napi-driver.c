// SPDX-License-Identifier: MIT
/*
 * nic-napi-driver.c - the network card's driver written as a Linux 4.14
 * NAPI network driver (docs/devices/nic.md), with nothing of dmaemu's
 * own: a platform driver whose probe registers a net_device, and the
 * net_device_ops the stack calls.
 *
 *   probe      map the registers, check the ID, reset the card, a
 *              net_device with a random address and a NAPI context
 *   ndo_open   both rings in coherent memory, an sk_buff mapped
 *              DMA_FROM_DEVICE in every RX descriptor, the irq, NAPI on,
 *              the card's interrupts on, the queue started
 *   xmit       dma_map_single(skb->data) DMA_TO_DEVICE into the next TX
 *              descriptor, one doorbell per batch (skb->xmit_more), the
 *              queue stopped when the ring is full
 *   irq        acknowledge, mask the card's interrupts, napi_schedule()
 *   poll       TX completions (unmap, free, wake the queue), then up to
 *              budget received frames: small ones copied out between
 *              dma_sync_single_for_cpu() and _for_device() and the buffer
 *              given back, large ones unmapped and passed up with a new
 *              buffer in their place (refill); napi_complete_done() and
 *              the card's interrupts back on when the work is done
 *   ndo_stop   NAPI off, interrupts off, the irq freed, the card reset,
 *              every buffer unmapped and freed, the rings freed
 */
#include <linux/dma-mapping.h>
#include <linux/etherdevice.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/platform_device.h>
#include <linux/skbuff.h>
#include <linux/spinlock.h>

#include "nic-napi-driver.h"

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
#define NIC_INT_ALL 0x1f

/* Descriptors (section 3): one per 64-byte line. */
struct nic_desc {
	__le64 addr;
	__le32 len;
	__le32 status;
	u32 reserved[12];
};
#define NIC_OWN 0x80000000
#define NIC_ERR 0x40000000
#define NIC_LEN_MASK 0xffff

#define TX_RING 128
#define RX_RING 128
#define RX_BUF 1536	 /* a full Ethernet frame and then some */
#define RX_COPYBREAK 256 /* frames up to this are copied out */
#define NIC_TX_COALESCE 8
#define NIC_RX_COALESCE 4

struct nn_priv {
	struct net_device *ndev;
	struct device *dev;
	void __iomem *regs;
	int irq;
	struct napi_struct napi;

	struct nic_desc *tx_ring, *rx_ring; /* coherent */
	dma_addr_t tx_ring_dma, rx_ring_dma;

	spinlock_t tx_lock; /* xmit against the poll's TX cleaning: */
	unsigned int tx_next, tx_clean;
	struct sk_buff *tx_skb[TX_RING];
	dma_addr_t tx_dma[TX_RING];

	unsigned int rx_next; /* the poll's: next descriptor to look at */
	struct sk_buff *rx_skb[RX_RING];
	dma_addr_t rx_dma[RX_RING];

	u32 ctrl;
};

static unsigned int tx_free(const struct nn_priv *p)
{
	return (p->tx_clean + TX_RING - p->tx_next - 1) % TX_RING;
}

/* Give RX descriptor @i, with its buffer, to the card. */
static void rx_post(struct nn_priv *p, unsigned int i)
{
	struct nic_desc *d = &p->rx_ring[i];

	d->addr = cpu_to_le64(p->rx_dma[i]);
	d->len = cpu_to_le32(RX_BUF);
	dma_wmb(); /* the descriptor before its OWN bit */
	WRITE_ONCE(d->status, cpu_to_le32(NIC_OWN));
}

/* A new RX buffer for slot @i: an sk_buff mapped DMA_FROM_DEVICE. */
static int rx_alloc(struct nn_priv *p, unsigned int i)
{
	struct sk_buff *skb = netdev_alloc_skb_ip_align(p->ndev, RX_BUF);
	dma_addr_t dma;

	if (!skb)
		return -ENOMEM;
	dma = dma_map_single(p->dev, skb->data, RX_BUF, DMA_FROM_DEVICE);
	if (dma_mapping_error(p->dev, dma)) {
		dev_kfree_skb_any(skb);
		return -ENOMEM;
	}
	p->rx_skb[i] = skb;
	p->rx_dma[i] = dma;
	return 0;
}

static void rx_free_all(struct nn_priv *p)
{
	unsigned int i;

	for (i = 0; i < RX_RING; i++) {
		if (!p->rx_skb[i])
			continue;
		dma_unmap_single(p->dev, p->rx_dma[i], RX_BUF, DMA_FROM_DEVICE);
		dev_kfree_skb_any(p->rx_skb[i]);
		p->rx_skb[i] = NULL;
	}
}

/* Unmap and free what the card has sent (it is past it: TX_HEAD). */
static void nn_tx_clean(struct nn_priv *p)
{
	struct net_device *ndev = p->ndev;
	unsigned int head = readl(p->regs + NIC_TX_HEAD);
	unsigned int pkts = 0, bytes = 0;

	spin_lock(&p->tx_lock);
	while (p->tx_clean != head) {
		unsigned int i = p->tx_clean;
		struct sk_buff *skb = p->tx_skb[i];
		u32 status = le32_to_cpu(READ_ONCE(p->tx_ring[i].status));

		if (status & NIC_ERR) {
			ndev->stats.tx_errors++;
		} else {
			ndev->stats.tx_packets++;
			ndev->stats.tx_bytes += skb->len;
		}
		dma_unmap_single(p->dev, p->tx_dma[i], skb->len, DMA_TO_DEVICE);
		pkts++;
		bytes += skb->len;
		napi_consume_skb(skb, 64);
		p->tx_skb[i] = NULL;
		p->tx_clean = (i + 1) % TX_RING;
	}
	netdev_completed_queue(ndev, pkts, bytes);
	if (netif_queue_stopped(ndev) && tx_free(p) >= TX_RING / 4)
		netif_wake_queue(ndev);
	spin_unlock(&p->tx_lock);
}

/* Receive up to @budget frames.  Return: how many. */
static int nn_rx(struct nn_priv *p, int budget)
{
	struct net_device *ndev = p->ndev;
	unsigned int head = readl(p->regs + NIC_RX_HEAD);
	int work = 0;

	while (work < budget && p->rx_next != head) {
		unsigned int i = p->rx_next;
		u32 status = le32_to_cpu(READ_ONCE(p->rx_ring[i].status));
		unsigned int len = status & NIC_LEN_MASK;
		struct sk_buff *skb;
		dma_addr_t dma;

		dma_rmb(); /* nothing of the frame before its status */
		if (status & (NIC_ERR | NIC_OWN)) {
			ndev->stats.rx_errors++;
		} else if (len <= RX_COPYBREAK) {
			/* Copy it out, and give the same buffer back. */
			skb = napi_alloc_skb(&p->napi, len);
			if (!skb) {
				ndev->stats.rx_dropped++;
				goto next;
			}
			dma_sync_single_for_cpu(p->dev, p->rx_dma[i], len,
						DMA_FROM_DEVICE);
			skb_put_data(skb, p->rx_skb[i]->data, len);
			dma_sync_single_for_device(p->dev, p->rx_dma[i], len,
						   DMA_FROM_DEVICE);
			skb->protocol = eth_type_trans(skb, ndev);
			ndev->stats.rx_packets++;
			ndev->stats.rx_bytes += len;
			napi_gro_receive(&p->napi, skb);
		} else {
			/* Pass the buffer up, and refill the slot. */
			skb = p->rx_skb[i];
			dma = p->rx_dma[i];
			if (rx_alloc(p, i)) {
				ndev->stats.rx_dropped++;
				goto next; /* keep the old buffer */
			}
			dma_unmap_single(p->dev, dma, RX_BUF, DMA_FROM_DEVICE);
			skb_put(skb, len);
			skb->protocol = eth_type_trans(skb, ndev);
			ndev->stats.rx_packets++;
			ndev->stats.rx_bytes += len;
			napi_gro_receive(&p->napi, skb);
		}
	next:
		rx_post(p, i);
		p->rx_next = (i + 1) % RX_RING;
		/* One slot stays empty: moving TAIL to i gives the card the
		 * slot before it, posted when it was consumed. */
		writel(i, p->regs + NIC_RX_TAIL);
		work++;
	}
	return work;
}

static int nn_poll(struct napi_struct *napi, int budget)
{
	struct nn_priv *p = container_of(napi, struct nn_priv, napi);
	int work;

	nn_tx_clean(p);
	work = nn_rx(p, budget);
	if (work < budget && napi_complete_done(napi, work))
		writel(NIC_INT_ALL, p->regs + NIC_INT_ENABLE);
	return work;
}

static irqreturn_t nn_irq(int irq, void *data)
{
	struct nn_priv *p = data;
	u32 pending = readl(p->regs + NIC_INT_STATUS);

	if (!pending)
		return IRQ_NONE;
	writel(pending, p->regs + NIC_INT_STATUS); /* acknowledge */
	if (pending & (NIC_INT_TX_ERR | NIC_INT_RX_ERR))
		netdev_err(p->ndev, "error %u at %#x\n",
			   readl(p->regs + NIC_ERR_CODE),
			   readl(p->regs + NIC_ERR_ADDR_LO));
	if (napi_schedule_prep(&p->napi)) {
		/* The poll turns them back on when it is done. */
		writel(0, p->regs + NIC_INT_ENABLE);
		__napi_schedule(&p->napi);
	}
	return IRQ_HANDLED;
}

static netdev_tx_t nn_start_xmit(struct sk_buff *skb, struct net_device *ndev)
{
	struct nn_priv *p = netdev_priv(ndev);
	struct nic_desc *d;
	unsigned int i;
	dma_addr_t dma;

	if (skb->len > RX_BUF) { /* the card's limit is 2048 */
		ndev->stats.tx_dropped++;
		dev_kfree_skb_any(skb);
		return NETDEV_TX_OK;
	}
	spin_lock(&p->tx_lock);
	if (!tx_free(p)) {
		/* The queue is stopped when the ring fills: never here. */
		netif_stop_queue(ndev);
		spin_unlock(&p->tx_lock);
		netdev_err(ndev, "BUG! Tx ring full when queue awake\n");
		return NETDEV_TX_BUSY;
	}
	dma = dma_map_single(p->dev, skb->data, skb->len, DMA_TO_DEVICE);
	if (dma_mapping_error(p->dev, dma)) {
		spin_unlock(&p->tx_lock);
		ndev->stats.tx_dropped++;
		dev_kfree_skb_any(skb);
		return NETDEV_TX_OK;
	}
	i = p->tx_next;
	p->tx_skb[i] = skb;
	p->tx_dma[i] = dma;
	d = &p->tx_ring[i];
	d->addr = cpu_to_le64(dma);
	d->len = cpu_to_le32(skb->len);
	dma_wmb(); /* the descriptor before its OWN bit */
	WRITE_ONCE(d->status, cpu_to_le32(NIC_OWN));
	p->tx_next = (i + 1) % TX_RING;
	netdev_sent_queue(ndev, skb->len);
	skb_tx_timestamp(skb);
	if (!tx_free(p))
		netif_stop_queue(ndev);
	/* One doorbell for a batch; at once when the ring is full. */
	if (!skb->xmit_more || netif_queue_stopped(ndev))
		writel(p->tx_next, p->regs + NIC_TX_TAIL);
	spin_unlock(&p->tx_lock);
	return NETDEV_TX_OK;
}

static int nn_open(struct net_device *ndev)
{
	struct nn_priv *p = netdev_priv(ndev);
	size_t tx_bytes = TX_RING * sizeof(struct nic_desc);
	size_t rx_bytes = RX_RING * sizeof(struct nic_desc);
	unsigned int i;
	int ret = -ENOMEM;

	p->tx_ring = dma_alloc_coherent(p->dev, tx_bytes, &p->tx_ring_dma,
					GFP_KERNEL);
	if (!p->tx_ring)
		return -ENOMEM;
	p->rx_ring = dma_alloc_coherent(p->dev, rx_bytes, &p->rx_ring_dma,
					GFP_KERNEL);
	if (!p->rx_ring)
		goto out_free_tx_ring;
	memset(p->tx_ring, 0, tx_bytes);
	for (i = 0; i < RX_RING; i++) {
		if (rx_alloc(p, i))
			goto out_free_rx;
		rx_post(p, i);
	}
	p->tx_next = p->tx_clean = p->rx_next = 0;
	ret = request_irq(p->irq, nn_irq, 0, ndev->name, p);
	if (ret)
		goto out_free_rx;

	writel(lower_32_bits(p->tx_ring_dma), p->regs + NIC_TX_RING_LO);
	writel(upper_32_bits(p->tx_ring_dma), p->regs + NIC_TX_RING_HI);
	writel(TX_RING, p->regs + NIC_TX_SIZE);
	writel(lower_32_bits(p->rx_ring_dma), p->regs + NIC_RX_RING_LO);
	writel(upper_32_bits(p->rx_ring_dma), p->regs + NIC_RX_RING_HI);
	writel(RX_RING, p->regs + NIC_RX_SIZE);
	writel(RX_RING - 1, p->regs + NIC_RX_TAIL); /* all but one slot */
	writel(NIC_RX_COALESCE << 16 | NIC_TX_COALESCE, p->regs + NIC_COALESCE);
	napi_enable(&p->napi);
	netdev_reset_queue(ndev);
	writel(NIC_INT_ALL, p->regs + NIC_INT_ENABLE);
	p->ctrl = NIC_CTRL_TX_EN | NIC_CTRL_RX_EN;
	if (ndev->features & NETIF_F_LOOPBACK)
		p->ctrl |= NIC_CTRL_LOOPBACK;
	writel(p->ctrl, p->regs + NIC_CTRL);
	netif_start_queue(ndev);
	return 0;

out_free_rx:
	rx_free_all(p);
	dma_free_coherent(p->dev, rx_bytes, p->rx_ring, p->rx_ring_dma);
out_free_tx_ring:
	dma_free_coherent(p->dev, tx_bytes, p->tx_ring, p->tx_ring_dma);
	return ret;
}

static int nn_stop(struct net_device *ndev)
{
	struct nn_priv *p = netdev_priv(ndev);

	netif_stop_queue(ndev);
	/* No poll runs after this, so none turns the interrupts back on. */
	napi_disable(&p->napi);
	writel(0, p->regs + NIC_INT_ENABLE);
	free_irq(p->irq, p);
	writel(NIC_CTRL_RESET, p->regs + NIC_CTRL); /* hands off memory */
	while (p->tx_clean != p->tx_next) {
		unsigned int i = p->tx_clean;

		dma_unmap_single(p->dev, p->tx_dma[i], p->tx_skb[i]->len,
				 DMA_TO_DEVICE);
		dev_kfree_skb_any(p->tx_skb[i]);
		p->tx_skb[i] = NULL;
		p->tx_clean = (i + 1) % TX_RING;
	}
	netdev_reset_queue(ndev);
	rx_free_all(p);
	dma_free_coherent(p->dev, RX_RING * sizeof(struct nic_desc), p->rx_ring,
			  p->rx_ring_dma);
	dma_free_coherent(p->dev, TX_RING * sizeof(struct nic_desc), p->tx_ring,
			  p->tx_ring_dma);
	return 0;
}

static void nn_tx_timeout(struct net_device *ndev)
{
	struct nn_priv *p = netdev_priv(ndev);

	netdev_err(ndev, "TX stuck: head %u, %u queued\n",
		   readl(p->regs + NIC_TX_HEAD),
		   (p->tx_next + TX_RING - p->tx_clean) % TX_RING);
	ndev->stats.tx_errors++;
}

static struct net_device_stats *nn_get_stats(struct net_device *ndev)
{
	return &ndev->stats;
}

static void nn_set_rx_mode(struct net_device *ndev)
{
	/* The card has no address filter: it takes every frame. */
	(void)ndev;
}

static int nn_set_features(struct net_device *ndev, netdev_features_t features)
{
	struct nn_priv *p = netdev_priv(ndev);

	if (features & NETIF_F_LOOPBACK)
		p->ctrl |= NIC_CTRL_LOOPBACK;
	else
		p->ctrl &= ~NIC_CTRL_LOOPBACK;
	if (netif_running(ndev))
		writel(p->ctrl, p->regs + NIC_CTRL);
	ndev->features = features;
	return 0;
}

static const struct net_device_ops nn_netdev_ops = {
	.ndo_open = nn_open,
	.ndo_stop = nn_stop,
	.ndo_start_xmit = nn_start_xmit,
	.ndo_tx_timeout = nn_tx_timeout,
	.ndo_get_stats = nn_get_stats,
	.ndo_set_rx_mode = nn_set_rx_mode,
	.ndo_set_mac_address = eth_mac_addr,
	.ndo_validate_addr = eth_validate_addr,
	.ndo_set_features = nn_set_features,
};

static int nn_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct net_device *ndev;
	struct resource *res;
	struct nn_priv *p;
	int ret;

	ndev = alloc_etherdev(sizeof(*p));
	if (!ndev)
		return -ENOMEM;
	SET_NETDEV_DEV(ndev, dev);
	p = netdev_priv(ndev);
	p->ndev = ndev;
	p->dev = dev;
	spin_lock_init(&p->tx_lock);
	res = platform_get_resource(pdev, IORESOURCE_MEM, 0);
	p->regs = devm_ioremap_resource(dev, res);
	if (IS_ERR(p->regs)) {
		ret = (int)PTR_ERR(p->regs);
		goto out_free;
	}
	if (readl(p->regs + NIC_ID) != NIC_ID_VALUE) {
		dev_err(dev, "not a dmaemu network card\n");
		ret = -ENODEV;
		goto out_free;
	}
	p->irq = platform_get_irq(pdev, 0);
	if (p->irq < 0) {
		ret = p->irq;
		goto out_free;
	}
	ret = dma_set_mask_and_coherent(dev, DMA_BIT_MASK(64));
	if (ret)
		goto out_free;
	writel(NIC_CTRL_RESET, p->regs + NIC_CTRL);

	ndev->netdev_ops = &nn_netdev_ops;
	ndev->watchdog_timeo = 5 * HZ;
	ndev->hw_features = NETIF_F_LOOPBACK;
	eth_hw_addr_random(ndev); /* the card has no address of its own */
	netif_napi_add(ndev, &p->napi, nn_poll, NAPI_POLL_WEIGHT);
	ret = register_netdev(ndev);
	if (ret)
		goto out_free;
	platform_set_drvdata(pdev, ndev);
	netdev_info(ndev, "dmaemu network card, irq %d\n", p->irq);
	return 0;

out_free:
	free_netdev(ndev);
	return ret;
}

static int nn_remove(struct platform_device *pdev)
{
	struct net_device *ndev = platform_get_drvdata(pdev);

	unregister_netdev(ndev); /* ndo_stop, if it is up */
	free_netdev(ndev);
	return 0;
}

struct platform_driver nic_napi_driver = {
	.probe = nn_probe,
	.remove = nn_remove,
	.driver = {.name = "dmaemu-nic"},
};

MODULE_DESCRIPTION("dmaemu network card, NAPI driver");
MODULE_LICENSE("GPL");
