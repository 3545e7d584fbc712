// SPDX-License-Identifier: MIT
/*
 * check-net.c - the networking basics (<linux/skbuff.h>,
 * <linux/netdevice.h>, <linux/etherdevice.h>) and the test's side of the
 * stack (<dmaemu/net.h>), docs/kernel-headers.md: sk_buffs in emulated
 * memory, net_device registration, Ethernet helpers, a loopback NAPI
 * driver whose frames go out through ndo_start_xmit and come back up
 * through a budgeted poll in softirq context, the TX watchdog, netif_rx()
 * from a hard handler, and each misuse the stack reports; a frame passed
 * up while the device still owns its buffer is reported at the driver's
 * line.  Around a NIC driver: the IP headers through the sk_buff's header
 * offsets, the MII library over a fake PHY, the device-tree headers of a
 * machine without one, fixed clocks (an unbalanced disable reported at
 * its line), busy register ranges and hrtimers (a periodic poll timer).
 */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/circ_buf.h>
#include <linux/clk.h>
#include <linux/crc32.h>
#include <linux/crc32c.h>
#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/etherdevice.h>
#include <linux/hrtimer.h>
#include <linux/ethtool.h>
#include <linux/in.h>
#include <linux/interrupt.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/mii.h>
#include <linux/netdevice.h>
#include <linux/of_address.h>
#include <linux/of_device.h>
#include <linux/of_irq.h>
#include <linux/of_net.h>
#include <linux/of_platform.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/tcp.h>
#include <linux/udp.h>

#include <dmaemu/device.h>
#include <dmaemu/machine.h>
#include <dmaemu/net.h>
#include <dmaemu/report.h>
#include <dmaemu/testing.h>

#include "check-run.h"
#include "fixture.h"
#include "threads.h"

static const struct dmaemu_device_ops bare_ops = {
	.nr_irqs = 1, /* level */
};

static struct dmaemu_machine *m;
static struct dmaemu_device *d;
static struct device *ddev;
static unsigned int irq;

static void setup_with(const char *opts)
{
	m = fixture_machine("%s", opts);
	d = dmaemu_device_create(m, "nic0", &bare_ops, NULL);
	ck_assert_ptr_nonnull(d);
	ddev = dmaemu_device_to_dev(d);
	irq = (unsigned int)dmaemu_device_irq(d, 0);
}

static void setup(void)
{
	setup_with("profile=arm64:mem=64M");
}

static void teardown(void)
{
	if (d)
		dmaemu_device_destroy(d);
	d = NULL;
	if (m)
		dmaemu_machine_destroy(m);
	m = NULL;
	fixture_teardown();
}

static uint64_t reports(const char *kind)
{
	return dmaemu_report_count(m, kind);
}

static const u8 our_mac[ETH_ALEN] = {0x02, 0x00, 0x00, 0x00, 0x00, 0x01};

/* An Ethernet frame of @len bytes to @dst, EtherType @type, payload
 * from @seed. */
static void make_frame(unsigned char *f, size_t len, const u8 *dst, u16 type,
		       unsigned int seed)
{
	size_t i;

	memcpy(f, dst, ETH_ALEN);
	memcpy(f + 6, "\x02\x11\x22\x33\x44\x55", 6);
	f[12] = (unsigned char)(type >> 8);
	f[13] = (unsigned char)type;
	for (i = ETH_HLEN; i < len; i++)
		f[i] = (unsigned char)(seed * 13 + i * 7);
}

/* ---------------------------------------------------------------------- */
/* sk_buffs                                                               */
/* ---------------------------------------------------------------------- */

START_TEST(test_skb_layout)
{
	struct sk_buff *skb = alloc_skb(256, GFP_KERNEL);
	struct net_device *nd = alloc_etherdev(0);
	struct napi_struct napi;
	uint64_t phys;
	dma_addr_t dma;
	void *buf;

	ck_assert_ptr_nonnull(skb);
	ck_assert_int_eq(fixture_region(skb->head, &phys),
			 DMAEMU_REGION_LINEAR);
	ck_assert_uint_eq(skb_headroom(skb), 0);
	ck_assert_int_ge(skb_tailroom(skb), 256);
	ck_assert_uint_eq(skb_end_offset(skb) % SMP_CACHE_BYTES, 0);
	ck_assert_uint_eq(skb_shinfo(skb)->nr_frags, 0);
	skb_reserve(skb, 16);
	ck_assert_ptr_eq(skb_put(skb, 100), skb->head + 16);
	ck_assert_uint_eq(skb->len, 100);
	ck_assert_ptr_eq(skb_tail_pointer(skb), skb->head + 116);
	ck_assert_ptr_eq(skb_push(skb, 14), skb->head + 2);
	ck_assert_uint_eq(skb->len, 114);
	ck_assert_ptr_eq(skb_pull(skb, 14), skb->head + 16);
	ck_assert_ptr_null(skb_pull(skb, 1000));
	skb_trim(skb, 60);
	ck_assert_uint_eq(skb->len, 60);
	ck_assert_uint_eq(skb_headlen(skb), 60);
	ck_assert(!skb_is_nonlinear(skb));
	skb_copy_to_linear_data(skb, "abcdef", 6);
	ck_assert_int_eq(memcmp(skb->data, "abcdef", 6), 0);
	skb_checksum_none_assert(skb);
	skb_tx_timestamp(skb);
	/* The data maps like any kmalloc() buffer. */
	dma = dma_map_single(ddev, skb->data, skb->len, DMA_TO_DEVICE);
	ck_assert(!dma_mapping_error(ddev, dma));
	ck_assert(fixture_dev_sees(d, dma, 'a', 1));
	dma_unmap_single(ddev, dma, skb->len, DMA_TO_DEVICE);
	kfree_skb(skb);
	ck_assert_uint_eq(reports(NULL), 0);

	/* The allocators' headroom. */
	skb = netdev_alloc_skb(nd, 1500);
	ck_assert_uint_eq(skb_headroom(skb), NET_SKB_PAD);
	ck_assert_ptr_eq(skb->dev, nd);
	dev_kfree_skb_any(skb);
	netif_napi_add(nd, &napi, NULL, 64); /* no poll: reported */
	ck_assert_uint_eq(reports("bad-argument"), 1);
	napi.dev = nd;
	skb = napi_alloc_skb(&napi, 1500);
	ck_assert_uint_eq(skb_headroom(skb), NET_SKB_PAD + NET_IP_ALIGN);
	consume_skb(skb);
	skb = netdev_alloc_skb_ip_align(nd, 100);
	ck_assert_uint_eq(skb_headroom(skb), NET_SKB_PAD + NET_IP_ALIGN);
	dev_kfree_skb_irq(skb);

	/* build_skb() takes a kmalloc() buffer; kfree_skb() frees it. */
	buf = kmalloc(2048, GFP_KERNEL);
	skb = build_skb(buf, 2048);
	ck_assert_ptr_nonnull(skb);
	ck_assert_ptr_eq(skb->head, buf);
	ck_assert_uint_eq(
		skb_end_offset(skb),
		2048 - SKB_DATA_ALIGN(sizeof(struct skb_shared_info)));
	kfree_skb(skb);
	ck_assert_ptr_null(build_skb(&phys, 64)); /* not kmalloc() */
	ck_assert_uint_eq(reports("bad-argument"), 2);
	buf = kmalloc(256, GFP_KERNEL);
	ck_assert_ptr_null(build_skb(buf, 4096)); /* larger than it */
	ck_assert_uint_eq(reports("bad-argument"), 3);
	kfree(buf);

	/* A double free is reported, not done. */
	skb = alloc_skb(64, GFP_KERNEL);
	skb_get(skb);
	kfree_skb(skb);
	kfree_skb(skb);
	kfree_skb(skb);
	ck_assert_uint_eq(reports("bad-argument"), 4);
	ck_assert_ptr_nonnull(strstr(fixture_log(), "not a live sk_buff"));
	free_netdev(nd);
	ck_assert_uint_eq(reports(NULL), 4);
}
END_TEST

START_TEST(test_skb_over_panic)
{
	int status;
	pid_t pid = fork();

	ck_assert_int_ne(pid, -1);
	if (!pid) {
		struct sk_buff *skb = alloc_skb(128, GFP_KERNEL);

		skb_put(skb, 64);
		skb_put(skb, 4096);
		_exit(0); /* not reached */
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFSIGNALED(status));
	ck_assert_int_eq(WTERMSIG(status), SIGABRT);
	ck_assert_ptr_nonnull(strstr(fixture_log(), "kernel-bug"));
	ck_assert_ptr_nonnull(strstr(fixture_log(), "skb_over_panic"));
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Devices and Ethernet                                                   */
/* ---------------------------------------------------------------------- */

static netdev_tx_t drop_xmit(struct sk_buff *skb, struct net_device *dev)
{
	dev_kfree_skb_any(skb);
	return NETDEV_TX_OK;
}

static const struct net_device_ops drop_ops = {
	.ndo_start_xmit = drop_xmit,
};

START_TEST(test_register)
{
	struct net_device *a = alloc_etherdev(100), *b = alloc_etherdev(0);

	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_eq(netdev_priv(a),
			 (char *)a + ALIGN(sizeof(*a), NETDEV_ALIGN));
	memset(netdev_priv(a), 0x5a, 100);
	ck_assert_uint_eq(a->mtu, 1500);
	ck_assert_uint_eq(a->addr_len, ETH_ALEN);
	ck_assert(is_broadcast_ether_addr(a->broadcast));
	ck_assert_int_eq(register_netdev(a), -EINVAL); /* no ops */
	ck_assert_uint_eq(reports("bad-argument"), 1);
	a->netdev_ops = &drop_ops;
	b->netdev_ops = &drop_ops;
	SET_NETDEV_DEV(a, ddev);
	ck_assert_int_eq(register_netdev(a), 0);
	ck_assert_int_eq(register_netdev(b), 0);
	ck_assert_str_eq(a->name, "eth0");
	ck_assert_str_eq(b->name, "eth1");
	ck_assert_ptr_eq(dmaemu_net_find("eth1"), b);
	ck_assert_int_eq(register_netdev(a), -EINVAL); /* twice */
	free_netdev(a);				       /* registered */
	ck_assert_uint_eq(reports("bad-argument"), 3);
	ck_assert(!netif_running(a));
	ck_assert_int_eq(dmaemu_net_xmit(a, our_mac, 6, false, 0), -ENETDOWN);
	ck_assert_int_eq(dmaemu_net_open(a), 0);
	ck_assert(netif_running(a) && (a->flags & IFF_UP));
	ck_assert(netif_carrier_ok(a));
	netif_carrier_off(a);
	ck_assert(!netif_carrier_ok(a));
	netif_carrier_on(a);
	unregister_netdev(a); /* closes it */
	ck_assert(!netif_running(a));
	unregister_netdev(b);
	free_netdev(a);
	free_netdev(b);
	ck_assert_uint_eq(reports(NULL), 3);
}
END_TEST

START_TEST(test_ether_helpers)
{
	static const u8 bcast[ETH_ALEN] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
	static const u8 mcast[ETH_ALEN] = {0x01, 0x00, 0x5e, 0, 0, 1};
	struct net_device *nd = alloc_etherdev(0);
	unsigned char f[64];
	struct sk_buff *skb;
	u8 a[ETH_ALEN];

	ck_assert(is_valid_ether_addr(our_mac));
	ck_assert(!is_valid_ether_addr(bcast));
	ck_assert(!is_valid_ether_addr(mcast));
	eth_zero_addr(a);
	ck_assert(is_zero_ether_addr(a) && !is_valid_ether_addr(a));
	ether_addr_copy(a, our_mac);
	ck_assert(ether_addr_equal(a, our_mac));
	eth_hw_addr_random(nd);
	ck_assert(is_valid_ether_addr(nd->dev_addr));
	ck_assert(is_local_ether_addr(nd->dev_addr));
	ck_assert_uint_eq(nd->addr_assign_type, NET_ADDR_RANDOM);
	ether_addr_copy(nd->dev_addr, our_mac);

	/* eth_type_trans(): dev, mac header, pull, pkt_type, protocol. */
	make_frame(f, sizeof(f), our_mac, ETH_P_IP, 1);
	skb = alloc_skb(128, GFP_KERNEL);
	skb_put_data(skb, f, sizeof(f));
	ck_assert_uint_eq(eth_type_trans(skb, nd), cpu_to_be16(ETH_P_IP));
	ck_assert_ptr_eq(skb->dev, nd);
	ck_assert_uint_eq(skb->len, sizeof(f) - ETH_HLEN);
	ck_assert_ptr_eq(eth_hdr(skb), (void *)skb->head);
	ck_assert_uint_eq(skb->pkt_type, PACKET_HOST);
	kfree_skb(skb);

	make_frame(f, sizeof(f), bcast, ETH_P_ARP, 2);
	skb = alloc_skb(128, GFP_KERNEL);
	skb_put_data(skb, f, sizeof(f));
	ck_assert_uint_eq(eth_type_trans(skb, nd), cpu_to_be16(ETH_P_ARP));
	ck_assert_uint_eq(skb->pkt_type, PACKET_BROADCAST);
	kfree_skb(skb);

	make_frame(f, sizeof(f), mcast, 46, 3); /* 802.3 length */
	skb = alloc_skb(128, GFP_KERNEL);
	skb_put_data(skb, f, sizeof(f));
	ck_assert_uint_eq(eth_type_trans(skb, nd), cpu_to_be16(ETH_P_802_2));
	ck_assert_uint_eq(skb->pkt_type, PACKET_MULTICAST);
	kfree_skb(skb);

	make_frame(f, sizeof(f), (const u8 *)"\x02\x99\x99\x99\x99\x99", 46, 4);
	f[14] = f[15] = 0xff; /* raw 802.3 (IPX) */
	skb = alloc_skb(128, GFP_KERNEL);
	skb_put_data(skb, f, sizeof(f));
	ck_assert_uint_eq(eth_type_trans(skb, nd), cpu_to_be16(ETH_P_802_3));
	ck_assert_uint_eq(skb->pkt_type, PACKET_OTHERHOST);
	/* Too short for a header: reported. */
	skb_trim(skb, 10);
	ck_assert_uint_eq(eth_type_trans(skb, nd), 0);
	kfree_skb(skb);
	free_netdev(nd);
	ck_assert_uint_eq(reports("bad-argument"), 1);
	ck_assert_uint_eq(reports(NULL), 1);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* A loopback NAPI driver                                                 */
/* ---------------------------------------------------------------------- */

#define LB_RING 256

enum lb_mode {
	LB_GOOD,
	LB_STOP,	/* stop the queue after each frame */
	LB_SLEEP,	/* kmalloc(GFP_KERNEL) in ndo_start_xmit */
	LB_NO_COMPLETE, /* poll never calls napi_complete_done() */
	LB_OVER_BUDGET, /* poll returns more than its budget */
	LB_NETIF_RX,	/* no NAPI: netif_rx() from the hard handler */
};

struct lb {
	struct net_device *ndev;
	struct napi_struct napi;
	spinlock_t lock;
	unsigned char frame[LB_RING][1600];
	size_t len[LB_RING];
	unsigned int head, tail; /* lock */
	counter_t mode;		 /* enum lb_mode */
	counter_t xmit_ctx_bad, poll_ctx_bad, polls, full_polls, timeouts;
};

static netdev_tx_t lb_xmit(struct sk_buff *skb, struct net_device *ndev)
{
	struct lb *lb = netdev_priv(ndev);
	enum lb_mode mode = (enum lb_mode)cget(&lb->mode);
	unsigned long flags;
	bool more;

	/* dev_queue_xmit(): bottom halves off, a lock held. */
	if (!in_softirq() || in_irq() || !in_atomic())
		cinc(&lb->xmit_ctx_bad);
	if (mode == LB_SLEEP)
		kfree(kmalloc(16, GFP_KERNEL));
	spin_lock_irqsave(&lb->lock, flags);
	if (lb->tail - lb->head == LB_RING) {
		spin_unlock_irqrestore(&lb->lock, flags);
		netif_stop_queue(ndev);
		return NETDEV_TX_BUSY;
	}
	memcpy(lb->frame[lb->tail % LB_RING], skb->data, skb->len);
	lb->len[lb->tail % LB_RING] = skb->len;
	lb->tail++;
	spin_unlock_irqrestore(&lb->lock, flags);
	netdev_sent_queue(ndev, skb->len);
	ndev->stats.tx_packets++;
	if (mode == LB_STOP)
		netif_stop_queue(ndev);
	more = skb->xmit_more;
	dev_kfree_skb_any(skb);
	if (!more || mode != LB_GOOD)
		dmaemu_raise_irq(d, 0);
	return NETDEV_TX_OK;
}

/* Pass one frame up; false when none is left. */
static bool lb_rx_one(struct lb *lb, bool napi)
{
	struct sk_buff *skb;
	unsigned long flags;
	unsigned int i;

	spin_lock_irqsave(&lb->lock, flags);
	if (lb->head == lb->tail) {
		spin_unlock_irqrestore(&lb->lock, flags);
		return false;
	}
	i = lb->head++ % LB_RING;
	spin_unlock_irqrestore(&lb->lock, flags);
	skb = napi ? napi_alloc_skb(&lb->napi, lb->len[i])
		   : netdev_alloc_skb(lb->ndev, lb->len[i]);
	ck_assert_ptr_nonnull(skb);
	skb_put_data(skb, lb->frame[i], (unsigned int)lb->len[i]);
	skb->protocol = eth_type_trans(skb, lb->ndev);
	netdev_completed_queue(lb->ndev, 1, (unsigned int)lb->len[i]);
	if (napi)
		napi_gro_receive(&lb->napi, skb);
	else
		netif_rx(skb);
	return true;
}

static int lb_poll(struct napi_struct *napi, int budget)
{
	struct lb *lb = container_of(napi, struct lb, napi);
	int work = 0;

	if (!in_softirq() || in_irq() || !in_interrupt())
		cinc(&lb->poll_ctx_bad);
	cinc(&lb->polls);
	while (work < budget && lb_rx_one(lb, true))
		work++;
	if ((enum lb_mode)cget(&lb->mode) == LB_OVER_BUDGET)
		return budget + 1;
	if (work == budget) {
		cinc(&lb->full_polls);
		return work;
	}
	if ((enum lb_mode)cget(&lb->mode) != LB_NO_COMPLETE)
		napi_complete_done(napi, work);
	return work;
}

static irqreturn_t lb_irq(int irq_, void *data)
{
	struct lb *lb = data;

	dmaemu_lower_irq(d, 0);
	if ((enum lb_mode)cget(&lb->mode) == LB_NETIF_RX) {
		while (lb_rx_one(lb, false))
			;
		return IRQ_HANDLED;
	}
	if (napi_schedule_prep(&lb->napi))
		__napi_schedule(&lb->napi);
	return IRQ_HANDLED;
}

static void lb_tx_timeout(struct net_device *ndev)
{
	struct lb *lb = netdev_priv(ndev);

	cinc(&lb->timeouts);
	netif_wake_queue(ndev);
}

static int lb_open(struct net_device *ndev)
{
	struct lb *lb = netdev_priv(ndev);
	int ret = request_irq(irq, lb_irq, 0, ndev->name, lb);

	if (ret)
		return ret;
	napi_enable(&lb->napi);
	netdev_reset_queue(ndev);
	netif_start_queue(ndev);
	return 0;
}

static int lb_stop(struct net_device *ndev)
{
	struct lb *lb = netdev_priv(ndev);

	netif_stop_queue(ndev);
	napi_disable(&lb->napi);
	free_irq(irq, lb);
	return 0;
}

static const struct net_device_ops lb_ops = {
	.ndo_open = lb_open,
	.ndo_stop = lb_stop,
	.ndo_start_xmit = lb_xmit,
	.ndo_tx_timeout = lb_tx_timeout,
};

static struct lb *lb_create_timeo(enum lb_mode mode, int weight,
				  int watchdog_timeo)
{
	struct net_device *ndev = alloc_etherdev(sizeof(struct lb));
	struct lb *lb;

	ck_assert_ptr_nonnull(ndev);
	lb = netdev_priv(ndev);
	lb->ndev = ndev;
	cset(&lb->mode, (int)mode);
	spin_lock_init(&lb->lock);
	ndev->netdev_ops = &lb_ops;
	ether_addr_copy(ndev->dev_addr, our_mac);
	SET_NETDEV_DEV(ndev, ddev);
	ndev->watchdog_timeo = watchdog_timeo;
	netif_napi_add(ndev, &lb->napi, lb_poll, weight);
	ck_assert_int_eq(register_netdev(ndev), 0);
	ck_assert_int_eq(dmaemu_net_open(ndev), 0);
	return lb;
}

static struct lb *lb_create(enum lb_mode mode, int weight)
{
	return lb_create_timeo(mode, weight, 0);
}

static void lb_destroy(struct lb *lb)
{
	struct net_device *ndev = lb->ndev;

	unregister_netdev(ndev);
	free_netdev(ndev);
}

/* Send @n frames (batches of @batch with xmit_more), receive them all
 * and compare. */
static void lb_round_trip(struct lb *lb, unsigned int n, unsigned int batch,
			  const char *how)
{
	static unsigned char f[1600], got[1600];
	struct dmaemu_net_rxinfo info;
	unsigned int i;
	size_t len;

	for (i = 0; i < n; i++) {
		len = 60 + (i * 97) % 1455;
		make_frame(f, len, our_mac, ETH_P_IP, i);
		ck_assert_int_eq(
			dmaemu_net_xmit(lb->ndev, f, len,
					(i + 1) % batch != 0 && i + 1 < n, HZ),
			0);
	}
	for (i = 0; i < n; i++) {
		len = 60 + (i * 97) % 1455;
		make_frame(f, len, our_mac, ETH_P_IP, i);
		ck_assert_int_eq(dmaemu_net_recv(lb->ndev, got, sizeof(got),
						 5 * HZ, &info),
				 (int)len);
		ck_assert_int_eq(memcmp(got, f, len), 0);
		ck_assert_uint_eq(info.protocol, ETH_P_IP);
		ck_assert_uint_eq(info.pkt_type, PACKET_HOST);
		ck_assert_str_eq(info.how, how);
		ck_assert(info.softirq);
	}
}

/* Frames out through ndo_start_xmit, back up through a NAPI poll in
 * softirq context on the interrupt thread, with the budget: 200 frames
 * queued with one interrupt and weight 16 take several full polls. */
START_TEST(test_napi_loopback)
{
	struct lb *lb = lb_create(LB_GOOD, 16);
	struct dmaemu_net_stats st;

	lb_round_trip(lb, 20, 1, "napi_gro_receive");
	lb_round_trip(lb, 200, 200, "napi_gro_receive");
	ck_assert_int_eq(cget(&lb->xmit_ctx_bad), 0);
	ck_assert_int_eq(cget(&lb->poll_ctx_bad), 0);
	ck_assert_int_gt(cget(&lb->full_polls), 5);
	ck_assert_int_eq(dmaemu_net_stats(lb->ndev, &st), 0);
	ck_assert_uint_eq(st.tx_frames, 220);
	ck_assert_uint_eq(st.rx_frames, 220);
	ck_assert_uint_eq(st.rx_queued, 0);
	ck_assert_uint_eq(st.napi_polls, (uint64_t)cget(&lb->polls));
	ck_assert_int_eq(dmaemu_net_recv(lb->ndev, NULL, 0, 2, NULL),
			 -ETIMEDOUT);
	lb_destroy(lb);
	ck_assert_uint_eq(reports(NULL), 0);
}
END_TEST

/* The same driver under sched=lockstep. */
START_TEST(test_napi_lockstep)
{
	struct lb *lb;

	teardown();
	setup_with("profile=arm:sched=lockstep:seed=9");
	lb = lb_create(LB_GOOD, 8);
	lb_round_trip(lb, 40, 10, "napi_gro_receive");
	ck_assert_int_gt(cget(&lb->full_polls), 0);
	lb_destroy(lb);
	ck_assert_uint_eq(reports(NULL), 0);
}
END_TEST

/* netif_rx() from the hard handler: up in softirq context too. */
START_TEST(test_netif_rx)
{
	struct lb *lb = lb_create(LB_NETIF_RX, 64);

	lb_round_trip(lb, 30, 1, "netif_rx");
	lb_destroy(lb);
	ck_assert_uint_eq(reports(NULL), 0);
}
END_TEST

/* A queue the driver stops: the stack waits, then drops; the watchdog
 * calls ndo_tx_timeout after watchdog_timeo, which wakes it. */
START_TEST(test_watchdog)
{
	struct lb *lb = lb_create_timeo(LB_STOP, 64, HZ / 10);
	struct dmaemu_net_stats st;
	unsigned char f[60];

	make_frame(f, sizeof(f), our_mac, ETH_P_IP, 0);
	ck_assert_int_eq(dmaemu_net_xmit(lb->ndev, f, sizeof(f), false, 0), 0);
	ck_assert(netif_queue_stopped(lb->ndev));
	ck_assert_int_eq(dmaemu_net_xmit(lb->ndev, f, sizeof(f), false, 5),
			 -EBUSY);
	ck_assert_int_eq(cget(&lb->timeouts), 0);
	/* Waits for the watchdog's wake-up, then goes. */
	ck_assert_int_eq(dmaemu_net_xmit(lb->ndev, f, sizeof(f), false, 5 * HZ),
			 0);
	ck_assert_int_ge(cget(&lb->timeouts), 1);
	dmaemu_net_stats(lb->ndev, &st);
	ck_assert_uint_eq(st.tx_dropped, 1);
	ck_assert_uint_eq(st.tx_timeouts, (uint64_t)cget(&lb->timeouts));
	ck_assert_int_eq(dmaemu_net_recv(lb->ndev, NULL, 0, 5 * HZ, NULL), 60);
	ck_assert_int_eq(dmaemu_net_recv(lb->ndev, NULL, 0, 5 * HZ, NULL), 60);
	lb_destroy(lb);
	ck_assert_uint_eq(reports(NULL), 0);
}
END_TEST

START_TEST(test_sleep_in_xmit)
{
	struct lb *lb = lb_create(LB_SLEEP, 64);
	unsigned char f[60];

	make_frame(f, sizeof(f), our_mac, ETH_P_IP, 0);
	ck_assert_int_eq(dmaemu_net_xmit(lb->ndev, f, sizeof(f), false, HZ), 0);
	ck_assert_int_eq(dmaemu_net_recv(lb->ndev, NULL, 0, 5 * HZ, NULL), 60);
	lb_destroy(lb);
	ck_assert_uint_eq(reports("sleep-in-atomic"), 1);
	ck_assert_ptr_nonnull(strstr(fixture_log(), "bottom halves"));
	ck_assert_uint_eq(reports(NULL), 1);
}
END_TEST

/* A poll that does not complete: reported; napi_disable() of it then
 * reports instead of waiting forever. */
START_TEST(test_poll_no_complete)
{
	struct lb *lb = lb_create(LB_NO_COMPLETE, 64);
	unsigned char f[60];

	make_frame(f, sizeof(f), our_mac, ETH_P_IP, 0);
	ck_assert_int_eq(dmaemu_net_xmit(lb->ndev, f, sizeof(f), false, HZ), 0);
	ck_assert_int_eq(dmaemu_net_recv(lb->ndev, NULL, 0, 5 * HZ, NULL), 60);
	WAIT_UNTIL(reports("bad-argument") == 1, 5000);
	ck_assert_ptr_nonnull(strstr(fixture_log(), "napi_complete_done"));
	ck_assert_ptr_nonnull(strstr(fixture_log(), "lb_poll"));
	lb_destroy(lb); /* ndo_stop's napi_disable() */
	ck_assert_uint_eq(reports("bad-argument"), 2);
	ck_assert_ptr_nonnull(strstr(fixture_log(), "wait forever"));
	ck_assert_uint_eq(reports(NULL), 2);
}
END_TEST

START_TEST(test_poll_over_budget)
{
	struct lb *lb = lb_create(LB_OVER_BUDGET, 4);
	unsigned char f[60];

	make_frame(f, sizeof(f), our_mac, ETH_P_IP, 0);
	ck_assert_int_eq(dmaemu_net_xmit(lb->ndev, f, sizeof(f), false, HZ), 0);
	ck_assert_int_eq(dmaemu_net_recv(lb->ndev, NULL, 0, 5 * HZ, NULL), 60);
	WAIT_UNTIL(reports("kernel-warning") >= 1, 5000);
	ck_assert_ptr_nonnull(strstr(fixture_log(), "more than its budget"));
	cset(&lb->mode, LB_GOOD); /* and let it complete */
	WAIT_UNTIL(!test_bit(NAPI_STATE_SCHED, &lb->napi.state), 5000);
	lb_destroy(lb);
	ck_assert_uint_eq(reports(NULL), reports("kernel-warning"));
}
END_TEST

/* Byte queue limits: completing more than was sent is reported. */
START_TEST(test_bql_misuse)
{
	struct net_device *nd = alloc_etherdev(0);

	netdev_reset_queue(nd);
	netdev_sent_queue(nd, 100);
	netdev_completed_queue(nd, 1, 60);
	netdev_completed_queue(nd, 1, 40);
	ck_assert_uint_eq(reports(NULL), 0);
	netdev_completed_queue(nd, 1, 1);
	ck_assert_uint_eq(reports("bad-argument"), 1);
	ck_assert_ptr_nonnull(strstr(fixture_log(), "dql_completed"));
	free_netdev(nd);
}
END_TEST

/* A receive path that passes the frame up while the device still owns
 * its buffer (the unmap comes after napi_gro_receive()): reported at the
 * driver's line. */
static struct napi_struct own_napi;
static struct sk_buff *own_skb;
static dma_addr_t own_dma;
static int own_line;

static int own_poll(struct napi_struct *napi, int budget)
{
	struct sk_buff *skb = own_skb;

	skb_put(skb, 60);
	own_line = __LINE__ + 1;
	napi_gro_receive(napi, skb); /* before the unmap: a bug */
	dma_unmap_single(ddev, own_dma, 1536, DMA_FROM_DEVICE);
	napi_complete_done(napi, 1);
	return 1;
}

START_TEST(test_rx_before_unmap)
{
	struct net_device *nd = alloc_etherdev(0);
	char where[64];

	nd->netdev_ops = &drop_ops;
	SET_NETDEV_DEV(nd, ddev);
	netif_napi_add(nd, &own_napi, own_poll, 64);
	ck_assert_int_eq(register_netdev(nd), 0);
	napi_enable(&own_napi);
	own_skb = netdev_alloc_skb(nd, 1536);
	own_skb->dev = nd;
	own_dma = dma_map_single(ddev, own_skb->data, 1536, DMA_FROM_DEVICE);
	ck_assert(!dma_mapping_error(ddev, own_dma));
	fixture_dev_fill(d, own_dma, 0x42, 60);
	napi_schedule(&own_napi);
	ck_assert_int_eq(dmaemu_net_recv(nd, NULL, 0, 5 * HZ, NULL), 60);
	snprintf(where, sizeof(where), "check-net.c:%d", own_line);
	ck_assert_uint_eq(reports("cpu-access-device-owned"), 1);
	ck_assert_ptr_nonnull(strstr(fixture_log(), where));
	napi_disable(&own_napi);
	unregister_netdev(nd);
	free_netdev(nd);
	ck_assert_uint_eq(reports(NULL), 1);
}
END_TEST

/*
 * The pieces 4.14's include chains bring around a NIC driver
 * (docs/kernel-headers.md): CRC-32 and bit reversal, ring indexes, the
 * ethtool helpers, the address lists, skb_copy_and_csum_dev(),
 * scnprintf(), devm_kcalloc().
 */
START_TEST(test_crc32)
{
	static const unsigned char check[] = "123456789";
	static const u8 bcast[ETH_ALEN] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
	static const u8 mcast[ETH_ALEN] = {0x01, 0x00, 0x5e, 0x00, 0x00, 0x01};

	/* The catalogue's check values of CRC-32, CRC-32/BZIP2, CRC-32C. */
	ck_assert_uint_eq(crc32_le(~0U, check, 9) ^ ~0U, 0xcbf43926U);
	ck_assert_uint_eq(crc32(~0U, check, 9) ^ ~0U, 0xcbf43926U);
	ck_assert_uint_eq(crc32_be(~0U, check, 9) ^ ~0U, 0xfc891918U);
	ck_assert_uint_eq(__crc32c_le(~0U, check, 9) ^ ~0U, 0xe3069283U);
	ck_assert_uint_eq(crc32c(~0U, check, 9) ^ ~0U, 0xe3069283U);
	ck_assert_uint_eq(crc32c(crc32c(~0U, check, 2), check + 2, 7),
			  crc32c_le(~0U, check, 9));
	/* Chained calls give the CRC of the whole. */
	ck_assert_uint_eq(crc32_le(crc32_le(~0U, check, 4), check + 4, 5),
			  crc32_le(~0U, check, 9));
	ck_assert_uint_eq(crc32_le(5, check, 0), 5);
	ck_assert_uint_eq(bitrev8(0x01), 0x80);
	ck_assert_uint_eq(bitrev8(0xa0), 0x05);
	ck_assert_uint_eq(bitrev16(0x0001), 0x8000);
	ck_assert_uint_eq(bitrev32(0x00000001U), 0x80000000U);
	ck_assert_uint_eq(bitrev32(0x12345678U), 0x1e6a2c48U);
	ck_assert_uint_eq(ether_crc_le(ETH_ALEN, bcast), 0xbe2612ffU);
	ck_assert_uint_eq(ether_crc(ETH_ALEN, bcast), 0xff48647dU);
	/* A 64-bin hash filter's index of 01:00:5e:00:00:01. */
	ck_assert_uint_eq(ether_crc(ETH_ALEN, mcast) >> 26, 31);
	ck_assert_uint_eq(ether_crc_le(ETH_ALEN, mcast) >> 26, 54);
}
END_TEST

START_TEST(test_circ_buf)
{
	struct circ_buf c = {NULL, 3, 1};

	ck_assert_int_eq(CIRC_CNT(c.head, c.tail, 8), 2);
	ck_assert_int_eq(CIRC_SPACE(c.head, c.tail, 8), 5);
	ck_assert_int_eq(CIRC_CNT(1, 1, 8), 0);
	ck_assert_int_eq(CIRC_SPACE(1, 1, 8), 7); /* one entry stays free */
	ck_assert_int_eq(CIRC_SPACE(0, 1, 8), 0);
	ck_assert_int_eq(CIRC_CNT(1, 6, 8), 3); /* wrapped */
	ck_assert_int_eq(CIRC_CNT_TO_END(1, 6, 8), 2);
	ck_assert_int_eq(CIRC_SPACE_TO_END(6, 1, 8), 2);
	ck_assert_int_eq(CIRC_SPACE_TO_END(2, 6, 8), 3);
}
END_TEST

START_TEST(test_ethtool_helpers)
{
	struct net_device *dev = alloc_etherdev(0);
	struct ethtool_ts_info ts;
	struct ethtool_link_ksettings ks;
	u32 legacy = 0;

	ck_assert_ptr_nonnull(dev);
	ck_assert_uint_eq(ethtool_op_get_link(dev), 1);
	netif_carrier_off(dev);
	ck_assert_uint_eq(ethtool_op_get_link(dev), 0);
	memset(&ts, 0x5a, sizeof(ts));
	ck_assert_int_eq(ethtool_op_get_ts_info(dev, &ts), 0);
	/* SOF_TIMESTAMPING_TX_SOFTWARE | _RX_SOFTWARE | _SOFTWARE */
	ck_assert_uint_eq(ts.so_timestamping, (1 << 1) | (1 << 3) | (1 << 4));
	ck_assert_int_eq(ts.phc_index, -1);
	ck_assert_uint_eq(reports(NULL), 0);
	ck_assert_uint_eq(ethtool_op_get_link(NULL), 0);
	ck_assert_uint_eq(reports("bad-argument"), 1);

	ethtool_convert_legacy_u32_to_link_mode(ks.link_modes.supported,
						SUPPORTED_100baseT_Full |
							SUPPORTED_Autoneg);
	ck_assert(ethtool_link_ksettings_test_link_mode(&ks, supported,
							100baseT_Full));
	ck_assert(!ethtool_link_ksettings_test_link_mode(&ks, supported,
							 10baseT_Half));
	ck_assert(ethtool_convert_link_mode_to_legacy_u32(
		&legacy, ks.link_modes.supported));
	ck_assert_uint_eq(legacy, SUPPORTED_100baseT_Full | SUPPORTED_Autoneg);
	/* A mode past the legacy word's 32 bits cannot be said in it. */
	ethtool_link_ksettings_add_link_mode(&ks, supported, 25000baseKR_Full);
	ck_assert(!ethtool_convert_link_mode_to_legacy_u32(
		&legacy, ks.link_modes.supported));
	ck_assert_uint_eq(legacy, SUPPORTED_100baseT_Full | SUPPORTED_Autoneg);
	ethtool_link_ksettings_del_link_mode(&ks, supported, 25000baseKR_Full);
	ck_assert(ethtool_convert_link_mode_to_legacy_u32(
		&legacy, ks.link_modes.supported));
	ethtool_link_ksettings_zero_link_mode(&ks, supported);
	ck_assert(!ethtool_link_ksettings_test_link_mode(&ks, supported,
							 100baseT_Full));
	free_netdev(dev);
}
END_TEST

static int rx_mode_calls;

static void count_rx_mode(struct net_device *dev)
{
	(void)dev;
	rx_mode_calls++;
}

static const struct net_device_ops rx_mode_ops = {
	.ndo_start_xmit = drop_xmit,
	.ndo_set_rx_mode = count_rx_mode,
};

START_TEST(test_addr_lists)
{
	static const u8 a1[ETH_ALEN] = {0x01, 0x00, 0x5e, 0x00, 0x00, 0x01};
	static const u8 a2[ETH_ALEN] = {0x33, 0x33, 0x00, 0x00, 0x00, 0x01};
	struct net_device *dev = alloc_etherdev(0);
	struct netdev_hw_addr *ha;
	int n = 0;

	ck_assert_ptr_nonnull(dev);
	dev->netdev_ops = &rx_mode_ops;
	SET_NETDEV_DEV(dev, ddev);
	ck_assert_int_eq(register_netdev(dev), 0);
	rx_mode_calls = 0;
	ck_assert(netdev_mc_empty(dev) && netdev_uc_empty(dev));
	ck_assert_int_eq(dev_mc_add(dev, a1), 0); /* down: no call */
	ck_assert_int_eq(rx_mode_calls, 0);
	ck_assert_int_eq(dmaemu_net_open(dev), 0); /* open programs it */
	ck_assert_int_eq(rx_mode_calls, 1);
	ck_assert_int_eq(dev_mc_add(dev, a1), 0); /* a reference more */
	ck_assert_int_eq(rx_mode_calls, 1);
	ck_assert_int_eq(netdev_mc_count(dev), 1);
	ck_assert_int_eq(dev_mc_add(dev, a2), 0);
	ck_assert_int_eq(rx_mode_calls, 2);
	ck_assert_int_eq(netdev_mc_count(dev), 2);
	netdev_for_each_mc_addr(ha, dev)
	{
		ck_assert(!memcmp(ha->addr, n ? a2 : a1, ETH_ALEN));
		n++;
	}
	ck_assert_int_eq(n, 2);
	ck_assert_int_eq(dev_mc_del(dev, a1), 0); /* one reference left */
	ck_assert_int_eq(netdev_mc_count(dev), 2);
	ck_assert_int_eq(dev_mc_del(dev, a1), 0);
	ck_assert_int_eq(netdev_mc_count(dev), 1);
	ck_assert_int_eq(rx_mode_calls, 3);
	ck_assert_int_eq(dev_mc_del(dev, a1), -ENOENT);
	ck_assert_int_eq(rx_mode_calls, 3);
	ck_assert_int_eq(dev_uc_add(dev, our_mac), 0);
	ck_assert_int_eq(netdev_uc_count(dev), 1);
	ck_assert_int_eq(netdev_mc_count(dev), 1);
	ck_assert_int_eq(rx_mode_calls, 4);
	ck_assert_int_eq(dev_uc_del(dev, our_mac), 0);
	ck_assert(netdev_uc_empty(dev));
	ck_assert_uint_eq(reports(NULL), 0);
	ck_assert_int_eq(dev_mc_add(dev, NULL), -EINVAL);
	ck_assert_int_eq(dev_uc_del(NULL, a1), -EINVAL);
	ck_assert_uint_eq(reports("bad-argument"), 2);
	unregister_netdev(dev);
	free_netdev(dev); /* frees a2's entry */
}
END_TEST

START_TEST(test_copy_and_csum_dev)
{
	struct sk_buff *skb = alloc_skb(256, GFP_KERNEL);
	u8 frame[80], to[80];
	unsigned int i, start = ETH_HLEN + 20; /* an IPv4 header, then UDP */
	u32 sum = 0;

	ck_assert_ptr_nonnull(skb);
	skb_reserve(skb, 16);
	for (i = 0; i < sizeof(frame); i++)
		frame[i] = (u8)(i * 37 + 11);
	frame[start + 6] = frame[start + 7] = 0; /* the UDP checksum */
	skb_put_data(skb, frame, sizeof(frame));
	skb->ip_summed = CHECKSUM_NONE;
	memset(to, 0, sizeof(to));
	skb_copy_and_csum_dev(skb, to);
	ck_assert(!memcmp(to, frame, sizeof(frame)));

	/* CHECKSUM_PARTIAL: the sum from csum_start, at csum_offset. */
	skb->ip_summed = CHECKSUM_PARTIAL;
	skb->csum_start = (u16)(skb_headroom(skb) + start);
	skb->csum_offset = 6;
	ck_assert_int_eq(skb_checksum_start_offset(skb), (int)start);
	skb_copy_and_csum_dev(skb, to);
	ck_assert(!memcmp(to, frame, start + 6));
	ck_assert(!memcmp(to + start + 8, frame + start + 8,
			  sizeof(frame) - start - 8));
	ck_assert(to[start + 6] || to[start + 7]);
	/* The one's-complement sum of the checked bytes, the checksum
	 * included, is all ones (RFC 1071), in network order pairs. */
	for (i = start; i + 1 < sizeof(frame); i += 2)
		sum += (u32)(to[i] << 8 | to[i + 1]);
	if (i < sizeof(frame))
		sum += (u32)to[i] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	ck_assert_uint_eq(sum, 0xffff);
	kfree_skb(skb);
	ck_assert_uint_eq(reports(NULL), 0);
}
END_TEST

START_TEST(test_string_and_devm_helpers)
{
	char buf[4];
	const char *volatile word = "hello"; /* not a constant: no warning */
	u32 *v;

	ck_assert_int_eq(snprintf(buf, sizeof(buf), "%s", word), 5);
	ck_assert_int_eq(scnprintf(buf, sizeof(buf), "%s", word), 3);
	ck_assert_str_eq(buf, "hel");
	ck_assert_int_eq(scnprintf(buf, sizeof(buf), "%d", 7), 1);
	ck_assert_int_eq(scnprintf(buf, 0, "%d", 7), 0);
	v = devm_kcalloc(ddev, 16, sizeof(*v), GFP_KERNEL);
	ck_assert_ptr_nonnull(v);
	for (int i = 0; i < 16; i++)
		ck_assert_uint_eq(v[i], 0);
	ck_assert_ptr_null(devm_kcalloc(ddev, SIZE_MAX / 2, 4, GFP_KERNEL));
	ck_assert_ptr_null(
		devm_kmalloc_array(ddev, SIZE_MAX / 2, 4, GFP_KERNEL));
	devm_kfree(ddev, v);
	ck_assert_uint_eq(reports(NULL), 0);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* IP headers in an sk_buff                                               */
/* ---------------------------------------------------------------------- */

START_TEST(test_ip_headers)
{
	static const u8 bcast[ETH_ALEN] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
	struct net_device *nd = alloc_etherdev(0);
	struct sk_buff *skb = alloc_skb(256, GFP_KERNEL);
	unsigned char f[14 + 20 + 24];
	struct iphdr *iph;
	struct tcphdr *th;

	/* Ethernet, IPv4 (ihl 5, TCP, 10.1.2.3 -> 224.0.0.1), TCP with 4
	 * bytes of options (doff 6), ports 1234 -> 80. */
	memset(f, 0, sizeof(f));
	make_frame(f, ETH_HLEN, bcast, ETH_P_IP, 0);
	/* As a driver does: the IP header after the 14-byte Ethernet
	 * header on a 4-byte boundary (struct iphdr's alignment). */
	skb_reserve(skb, 2);
	f[14] = 0x45;
	f[14 + 9] = IPPROTO_TCP;
	memcpy(f + 14 + 12, "\x0a\x01\x02\x03\xe0\x00\x00\x01", 8);
	memcpy(f + 34, "\x04\xd2\x00\x50", 4);
	f[34 + 12] = 6 << 4;
	skb_put_data(skb, f, sizeof(f));
	ck_assert_uint_eq(be16_to_cpu(eth_type_trans(skb, nd)), ETH_P_IP);
	ck_assert(!skb_transport_header_was_set(skb));
	skb_reset_network_header(skb);
	iph = ip_hdr(skb);
	ck_assert_ptr_eq(iph, skb->data);
	ck_assert_int_eq(skb_network_offset(skb), 0);
	ck_assert_int_eq(skb_mac_offset(skb), -ETH_HLEN);
	ck_assert_uint_eq(iph->version, 4);
	ck_assert_uint_eq(iph->protocol, IPPROTO_TCP);
	ck_assert(ipv4_is_multicast(iph->daddr));
	ck_assert(ipv4_is_local_multicast(iph->daddr));
	ck_assert(ipv4_is_private_10(iph->saddr));
	ck_assert(!ipv4_is_multicast(iph->saddr));
	ck_assert(!ipv4_is_loopback(iph->saddr));
	ck_assert(ipv4_is_loopback(cpu_to_be32(0x7f000001)));
	ck_assert_int_eq(proto_ports_offset(iph->protocol), 0);
	ck_assert_int_eq(proto_ports_offset(IPPROTO_AH), 4);
	ck_assert_int_eq(proto_ports_offset(IPPROTO_ICMP), -EINVAL);
	skb_set_transport_header(skb, iph->ihl * 4);
	ck_assert(skb_transport_header_was_set(skb));
	ck_assert_int_eq(skb_transport_offset(skb), 20);
	ck_assert_uint_eq(skb_network_header_len(skb), 20);
	th = tcp_hdr(skb);
	ck_assert_ptr_eq(th, skb->data + 20);
	ck_assert_uint_eq(be16_to_cpu(th->source), 1234);
	ck_assert_uint_eq(be16_to_cpu(th->dest), 80);
	ck_assert_uint_eq(tcp_hdrlen(skb), 24);
	ck_assert_uint_eq(tcp_optlen(skb), 4);
	ck_assert_ptr_eq(udp_hdr(skb), (void *)th);
	ck_assert_ptr_eq(ipip_hdr(skb), (void *)th);
	/* A header set at an offset from data, as a driver's TX path does
	 * after skb_push(). */
	skb_set_network_header(skb, 8);
	ck_assert_ptr_eq(ipv6_hdr(skb), skb->data + 8);
	ck_assert_int_eq(skb_network_offset(skb), 8);
	kfree_skb(skb);
	free_netdev(nd);
	ck_assert_uint_eq(reports(NULL), 0);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* The MII library over a fake PHY                                        */
/* ---------------------------------------------------------------------- */

/* A PHY at address 3: 32 registers, BMSR's link bit latching low (the
 * first read after a drop shows it down, as IEEE 802.3 22.2.4.2.13
 * has it), every access counted. */
struct fake_phy {
	u16 reg[32];
	bool link_dropped;
	int reads, writes, other_phy;
	int last_write_reg, last_write_val;
};
static struct fake_phy phy;

static int phy_read(struct net_device *nd, int id, int reg)
{
	(void)nd;
	if (id != 3) {
		phy.other_phy++;
		return 0xffff;
	}
	phy.reads++;
	if (reg == MII_BMSR && phy.link_dropped) {
		phy.link_dropped = false;
		return phy.reg[reg] & ~BMSR_LSTATUS;
	}
	return phy.reg[reg & 31];
}

static void phy_write(struct net_device *nd, int id, int reg, int val)
{
	(void)nd;
	if (id != 3) {
		phy.other_phy++;
		return;
	}
	phy.writes++;
	phy.last_write_reg = reg;
	phy.last_write_val = val;
	phy.reg[reg & 31] = (u16)val;
}

START_TEST(test_mii)
{
	struct net_device *nd = alloc_etherdev(0);
	struct mii_if_info mii = {
		.phy_id = 3,
		.phy_id_mask = 0x1f,
		.reg_num_mask = 0x1f,
		.dev = nd,
		.mdio_read = phy_read,
		.mdio_write = phy_write,
	};
	struct ethtool_cmd ec;
	struct ethtool_link_ksettings ks;
	struct mii_ioctl_data io;
	unsigned int chg;

	SET_NETDEV_DEV(nd, ddev);
	memset(&phy, 0, sizeof(phy));
	phy.reg[MII_BMCR] = BMCR_ANENABLE;
	phy.reg[MII_BMSR] = BMSR_LSTATUS | BMSR_ANEGCAPABLE |
			    BMSR_ANEGCOMPLETE | BMSR_100FULL | BMSR_100HALF;
	phy.reg[MII_ADVERTISE] = ADVERTISE_ALL | ADVERTISE_CSMA;
	phy.reg[MII_LPA] = LPA_LPACK | LPA_100HALF | LPA_10FULL;

	/* The link: the dummy read clears a past drop. */
	phy.link_dropped = true;
	ck_assert_int_eq(mii_link_ok(&mii), 1);
	ck_assert_int_eq(phy.reads, 2);
	phy.reg[MII_BMSR] &= (u16)~BMSR_LSTATUS;
	ck_assert_int_eq(mii_link_ok(&mii), 0);
	ck_assert_int_eq(mii_check_gmii_support(&mii), 0);

	/* Carrier follows the link. */
	netif_carrier_off(nd);
	mii_check_link(&mii);
	ck_assert(!netif_carrier_ok(nd));
	phy.reg[MII_BMSR] |= BMSR_LSTATUS;
	mii_check_link(&mii);
	ck_assert(netif_carrier_ok(nd));
	phy.reg[MII_BMSR] &= (u16)~BMSR_LSTATUS;
	mii_check_link(&mii);
	ck_assert(!netif_carrier_ok(nd));

	/* Media: ADVERTISE & LPA = 100 half (over 10 full). */
	phy.reg[MII_BMSR] |= BMSR_LSTATUS;
	mii.full_duplex = 1;
	ck_assert_uint_eq(mii_check_media(&mii, 1, 0), 1);
	ck_assert(netif_carrier_ok(nd));
	ck_assert_uint_eq(mii.full_duplex, 0);
	ck_assert_int_eq(mii.advertising, ADVERTISE_ALL | ADVERTISE_CSMA);
	ck_assert_msg(strstr(fixture_log(), "link up, 100Mbps, half-duplex, "
					    "lpa 0x40C0"),
		      "%s", fixture_log());
	ck_assert_uint_eq(mii_check_media(&mii, 0, 0), 0); /* no change */
	phy.reg[MII_LPA] = LPA_LPACK | LPA_100FULL;
	ck_assert_uint_eq(mii_check_media(&mii, 0, 1), 1); /* init */
	ck_assert_uint_eq(mii.full_duplex, 1);
	phy.reg[MII_BMSR] &= (u16)~BMSR_LSTATUS;
	ck_assert_uint_eq(mii_check_media(&mii, 1, 0), 0);
	ck_assert(!netif_carrier_ok(nd));
	ck_assert_ptr_nonnull(strstr(fixture_log(), "link down"));
	phy.reg[MII_BMSR] |= BMSR_LSTATUS;

	/* ethtool: autonegotiated 100 full. */
	memset(&ec, 0, sizeof(ec));
	ck_assert_int_eq(mii_ethtool_gset(&mii, &ec), 0);
	ck_assert_uint_eq(ethtool_cmd_speed(&ec), SPEED_100);
	ck_assert_uint_eq(ec.duplex, DUPLEX_FULL);
	ck_assert_uint_eq(ec.autoneg, AUTONEG_ENABLE);
	ck_assert_uint_eq(ec.phy_address, 3);
	ck_assert(ec.advertising & ADVERTISED_Autoneg);
	ck_assert(ec.lp_advertising & ADVERTISED_100baseT_Full);
	ck_assert(!(ec.supported & SUPPORTED_1000baseT_Full));
	memset(&ks, 0, sizeof(ks));
	mii_ethtool_get_link_ksettings(&mii, &ks);
	ck_assert_uint_eq(ks.base.speed, SPEED_100);
	ck_assert_uint_eq(ks.base.duplex, DUPLEX_FULL);
	ck_assert(ethtool_link_ksettings_test_link_mode(&ks, lp_advertising,
							100baseT_Full));

	/* Advertise 10 half only: ADVERTISE rewritten, renegotiation. */
	ec.advertising = ADVERTISED_10baseT_Half;
	ck_assert_int_eq(mii_ethtool_sset(&mii, &ec), 0);
	ck_assert_uint_eq(phy.reg[MII_ADVERTISE],
			  ADVERTISE_10HALF | ADVERTISE_CSMA);
	ck_assert_int_eq(mii.advertising, ADVERTISE_10HALF | ADVERTISE_CSMA);
	ck_assert_int_eq(phy.last_write_reg, MII_BMCR);
	ck_assert_uint_eq(phy.reg[MII_BMCR], BMCR_ANENABLE | BMCR_ANRESTART);
	/* Refused: 1000 without GMII, another PHY, nothing advertised. */
	phy.writes = 0;
	ethtool_cmd_speed_set(&ec, SPEED_1000);
	ck_assert_int_eq(mii_ethtool_sset(&mii, &ec), -EINVAL);
	ethtool_cmd_speed_set(&ec, SPEED_100);
	ec.phy_address = 4;
	ck_assert_int_eq(mii_ethtool_sset(&mii, &ec), -EINVAL);
	ec.phy_address = 3;
	ec.advertising = ADVERTISED_TP;
	ck_assert_int_eq(mii_ethtool_sset(&mii, &ec), -EINVAL);
	ck_assert_int_eq(phy.writes, 0);
	/* Forced 10 full: BMCR without autonegotiation. */
	ec.autoneg = AUTONEG_DISABLE;
	ethtool_cmd_speed_set(&ec, SPEED_10);
	ec.duplex = DUPLEX_FULL;
	ck_assert_int_eq(mii_ethtool_sset(&mii, &ec), 0);
	ck_assert_uint_eq(phy.reg[MII_BMCR] & (BMCR_ANENABLE | BMCR_SPEED100 |
					       BMCR_FULLDPLX),
			  BMCR_FULLDPLX);
	ck_assert_uint_eq(mii.force_media, 1);
	ck_assert_uint_eq(mii_check_media(&mii, 0, 1), 0); /* forced */
	ck_assert_int_eq(mii_nway_restart(&mii), -EINVAL);
	memset(&ec, 0, sizeof(ec));
	ck_assert_int_eq(mii_ethtool_gset(&mii, &ec), 0);
	ck_assert_uint_eq(ethtool_cmd_speed(&ec), SPEED_10);
	ck_assert_uint_eq(ec.duplex, DUPLEX_FULL);
	ck_assert_uint_eq(ec.autoneg, AUTONEG_DISABLE);
	/* The ksettings setter: back to autonegotiation, 100 full. */
	memset(&ks, 0, sizeof(ks));
	ks.base.speed = SPEED_100;
	ks.base.duplex = DUPLEX_FULL;
	ks.base.port = PORT_MII;
	ks.base.phy_address = 3;
	ks.base.autoneg = AUTONEG_ENABLE;
	ethtool_link_ksettings_add_link_mode(&ks, advertising, 100baseT_Full);
	ck_assert_int_eq(mii_ethtool_set_link_ksettings(&mii, &ks), 0);
	ck_assert_uint_eq(phy.reg[MII_ADVERTISE],
			  ADVERTISE_100FULL | ADVERTISE_CSMA);
	ck_assert(phy.reg[MII_BMCR] & BMCR_ANENABLE);
	ck_assert_uint_eq(mii.force_media, 0);
	phy.reg[MII_BMCR] &= (u16)~BMCR_ANRESTART;
	ck_assert_int_eq(mii_nway_restart(&mii), 0);
	ck_assert(phy.reg[MII_BMCR] & BMCR_ANRESTART);

	/* GMII: extended status with 1000BASE-T. */
	phy.reg[MII_BMSR] |= BMSR_ESTATEN;
	phy.reg[MII_ESTATUS] = ESTATUS_1000_TFULL;
	ck_assert_int_eq(mii_check_gmii_support(&mii), 1);

	/* The ioctl: the PHY's address, a read, a write that forces full
	 * duplex, an unknown command. */
	memset(&io, 0, sizeof(io));
	io.reg_num = MII_LPA;
	ck_assert_int_eq(generic_mii_ioctl(&mii, &io, SIOCGMIIPHY, NULL), 0);
	ck_assert_uint_eq(io.phy_id, 3);
	ck_assert_uint_eq(io.val_out, LPA_LPACK | LPA_100FULL);
	io.reg_num = MII_BMCR | 0x20; /* masked to MII_BMCR */
	io.val_in = BMCR_FULLDPLX;
	mii.full_duplex = 0;
	ck_assert_int_eq(generic_mii_ioctl(&mii, &io, SIOCSMIIREG, &chg), 0);
	ck_assert_uint_eq(chg, 1);
	ck_assert_uint_eq(mii.force_media, 1);
	ck_assert_uint_eq(phy.reg[MII_BMCR], BMCR_FULLDPLX);
	io.reg_num = MII_ADVERTISE;
	io.val_in = ADVERTISE_10FULL | ADVERTISE_CSMA;
	ck_assert_int_eq(generic_mii_ioctl(&mii, &io, SIOCSMIIREG, &chg), 0);
	ck_assert_uint_eq(chg, 0);
	ck_assert_int_eq(mii.advertising, ADVERTISE_10FULL | ADVERTISE_CSMA);
	ck_assert_int_eq(generic_mii_ioctl(&mii, &io, SIOCGIFMTU, &chg),
			 -EOPNOTSUPP);
	ck_assert_int_eq(phy.other_phy, 0);

	/* The inline helpers. */
	ck_assert_uint_eq(mii_nway_result(LPA_100HALF | LPA_100BASE4),
			  LPA_100BASE4);
	ck_assert_uint_eq(mii_duplex(0, LPA_10FULL | LPA_100HALF), 0);
	ck_assert_uint_eq(mii_duplex(1, LPA_10HALF), 1);
	ck_assert_uint_eq(mii_resolve_flowctrl_fdx(ADVERTISE_PAUSE_CAP |
							   ADVERTISE_PAUSE_ASYM,
						   ADVERTISE_PAUSE_ASYM),
			  FLOW_CTRL_RX);
	ck_assert_uint_eq(mii_advertise_flowctrl(FLOW_CTRL_TX),
			  ADVERTISE_PAUSE_ASYM);
	free_netdev(nd);
	ck_assert_uint_eq(reports(NULL), 0);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* No device tree: every query answers "absent", as 4.14 without CONFIG_OF */
/* ---------------------------------------------------------------------- */

static const struct of_device_id nic_of_ids[] = {
	{.compatible = "vendor,nic", .data = "match data"},
	{},
};

START_TEST(test_no_device_tree)
{
	struct device_node *np = ddev->of_node, *child;
	struct resource res;
	u32 v = 7, arr[2] = {7, 7};
	const char *str = "unset";
	int n = 0;

	ck_assert_ptr_null(np);
	ck_assert_ptr_null(of_match_ptr(nic_of_ids));
	ck_assert_ptr_null(of_match_device(nic_of_ids, ddev));
	ck_assert_ptr_null(of_device_get_match_data(ddev));
	ck_assert_ptr_null(of_match_node(nic_of_ids, np));
	ck_assert(!of_have_populated_dt());
	ck_assert_int_eq(of_property_read_u32(np, "reg", &v), -ENOSYS);
	ck_assert_int_eq(of_property_read_u32_array(np, "x", arr, 2), -ENOSYS);
	ck_assert_uint_eq(v, 7); /* untouched */
	ck_assert_uint_eq(arr[1], 7);
	ck_assert_int_eq(of_property_read_string(np, "phy-mode", &str),
			 -ENOSYS);
	ck_assert_str_eq(str, "unset");
	ck_assert(!of_property_read_bool(np, "big-endian"));
	ck_assert_ptr_null(of_get_property(np, "local-mac-address", NULL));
	ck_assert_int_eq(of_device_is_compatible(np, "vendor,nic"), 0);
	ck_assert_ptr_null(of_get_child_by_name(np, "mdio"));
	for_each_child_of_node(np, child) n++;
	ck_assert_int_eq(n, 0);
	ck_assert_ptr_null(of_get_mac_address(np));
	ck_assert_int_eq(of_get_phy_mode(np), -ENODEV);
	ck_assert_uint_eq(irq_of_parse_and_map(np, 0), 0);
	ck_assert_int_eq(of_irq_get(np, 0), 0);
	ck_assert_ptr_null(of_iomap(np, 0));
	ck_assert_int_eq(of_address_to_resource(np, 0, &res), -EINVAL);
	ck_assert_int_eq(of_alias_get_id(np, "ethernet"), -ENOSYS);
	ck_assert_int_eq(of_platform_populate(np, NULL, NULL, ddev), -ENODEV);
	ck_assert_ptr_eq(of_node_get(np), np);
	of_node_put(np);
	ck_assert_uint_eq(reports(NULL), 0);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Fixed clocks                                                           */
/* ---------------------------------------------------------------------- */

START_TEST(test_clk)
{
	struct clk *clk = devm_clk_get(ddev, NULL), *other;
	char where[64];
	int line;

	/* A probe and a remove, balanced: no report. */
	ck_assert(!IS_ERR(clk));
	ck_assert_int_eq(clk_prepare_enable(clk), 0);
	ck_assert_uint_eq(clk_get_rate(clk), DMAEMU_CLK_RATE);
	ck_assert_int_eq(clk_set_rate(clk, 25000000), 0);
	ck_assert_uint_eq(clk_get_rate(clk), DMAEMU_CLK_RATE); /* fixed */
	ck_assert_int_eq(clk_round_rate(clk, 1), (long)DMAEMU_CLK_RATE);
	ck_assert_ptr_null(clk_get_parent(clk));
	ck_assert_int_eq(clk_enable(clk), 0); /* nested: counted */
	clk_disable(clk);
	clk_disable_unprepare(clk);
	ck_assert_int_eq(clk_prepare(clk), 0);
	ck_assert_int_eq(clk_enable(clk), 0);
	clk_disable(clk);
	clk_unprepare(clk);
	ck_assert_uint_eq(reports(NULL), 0);

	/* The optional clock (NULL) does nothing and succeeds. */
	ck_assert_int_eq(clk_prepare_enable(NULL), 0);
	clk_disable_unprepare(NULL);
	ck_assert_uint_eq(clk_get_rate(NULL), 0);
	clk_put(NULL);
	ck_assert_uint_eq(reports(NULL), 0);

	/* A remove path that disables twice: reported at its line. */
	line = __LINE__ + 1;
	clk_disable_unprepare(clk);
	ck_assert_uint_eq(reports("bad-argument"), 2); /* disable, unprepare */
	snprintf(where, sizeof(where), "check-net.c:%d", line);
	ck_assert_ptr_nonnull(strstr(fixture_log(), where));
	ck_assert_ptr_nonnull(strstr(fixture_log(), "unbalanced disable"));

	/* Enabled without being prepared: reported, fails as 4.14's. */
	other = clk_get(ddev, "bus");
	ck_assert(!IS_ERR(other));
	ck_assert_int_eq(clk_enable(other), -ESHUTDOWN);
	ck_assert_uint_eq(reports("bad-argument"), 3);
	ck_assert_ptr_nonnull(strstr(fixture_log(), "not prepared"));
	clk_put(other);

	/* An error pointer where a clock is expected. */
	ck_assert_int_eq(clk_prepare_enable(ERR_PTR(-ENOENT)), -EINVAL);
	ck_assert_uint_eq(reports("bad-argument"), 4);
	ck_assert_ptr_eq(of_clk_get(NULL, 0), ERR_PTR(-ENOENT));
	/* devm_clk_get()'s clock goes with the device. */
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Busy register ranges                                                   */
/* ---------------------------------------------------------------------- */

START_TEST(test_mem_region)
{
	struct resource *a, *b;
	char where[64];
	int line;

	a = request_mem_region(0x10000000, 0x1000, "nic0");
	ck_assert_ptr_nonnull(a);
	ck_assert_uint_eq(a->start, 0x10000000);
	ck_assert_uint_eq(resource_size(a), 0x1000);
	ck_assert_uint_eq(resource_type(a), IORESOURCE_MEM);
	ck_assert(a->flags & IORESOURCE_BUSY);
	ck_assert_str_eq(a->name, "nic0");
	/* Overlapping claims fail (the end, the start, inside, around). */
	ck_assert_ptr_null(request_mem_region(0x10000fff, 0x10, "x"));
	ck_assert_ptr_null(request_mem_region(0x0ffffff0, 0x11, "x"));
	ck_assert_ptr_null(request_mem_region(0x10000100, 0x10, "x"));
	ck_assert_ptr_null(request_mem_region(0x0f000000, 0x2000000, "x"));
	/* Adjacent ones succeed. */
	b = request_mem_region(0x10001000, 0x100, "nic1");
	ck_assert_ptr_nonnull(b);
	ck_assert_ptr_nonnull(request_mem_region(0x0ffff000, 0x1000, "n2"));
	release_mem_region(0x0ffff000, 0x1000);
	ck_assert_uint_eq(reports(NULL), 0);
	/* Release frees exactly the claim: a second request then works. */
	release_mem_region(0x10000000, 0x1000);
	a = request_mem_region(0x10000000, 0x1000, "nic0");
	ck_assert_ptr_nonnull(a);
	/* A release of a range never claimed (a part of one) is reported. */
	line = __LINE__ + 1;
	release_mem_region(0x10000000, 0x800);
	ck_assert_uint_eq(reports("bad-argument"), 1);
	snprintf(where, sizeof(where), "check-net.c:%d", line);
	ck_assert_ptr_nonnull(strstr(fixture_log(), where));
	ck_assert_ptr_null(request_mem_region(0x10000000, 0x10, "x"));
	release_mem_region(0x10000000, 0x1000);
	/* The managed form goes with the device's unbind. */
	ck_assert_ptr_nonnull(
		devm_request_mem_region(ddev, 0x20000000, 0x100, "nic0"));
	ck_assert_ptr_null(request_mem_region(0x20000000, 0x100, "x"));
	dmaemu_device_destroy(d); /* its managed resources are released */
	d = NULL;
	ck_assert_ptr_nonnull(request_mem_region(0x20000000, 0x100, "x"));
	/* b and that one stay claimed: freed with the machine. */
	ck_assert_uint_eq(reports(NULL), 1);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* High-resolution timers: the tick, hardirq context, forward and restart */
/* ---------------------------------------------------------------------- */

static struct hrtimer poll_timer;
static int poll_runs, poll_in_irq, poll_overruns;
static ktime_t poll_first, poll_last;

static enum hrtimer_restart poll_fn(struct hrtimer *t)
{
	int n = __atomic_add_fetch(&poll_runs, 1, __ATOMIC_ACQ_REL);

	if (n == 1)
		poll_first = ktime_get();
	poll_last = ktime_get();
	if (in_irq())
		__atomic_add_fetch(&poll_in_irq, 1, __ATOMIC_ACQ_REL);
	__atomic_add_fetch(&poll_overruns,
			   (int)hrtimer_forward_now(t, ms_to_ktime(2)),
			   __ATOMIC_ACQ_REL);
	return n < 3 ? HRTIMER_RESTART : HRTIMER_NORESTART;
}

START_TEST(test_hrtimer)
{
	ktime_t start;
	struct hrtimer h;

	poll_runs = poll_in_irq = poll_overruns = 0;
	hrtimer_init(&poll_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	poll_timer.function = poll_fn;
	ck_assert(!hrtimer_active(&poll_timer));
	ck_assert_int_eq(hrtimer_try_to_cancel(&poll_timer), 0);
	start = ktime_get();
	hrtimer_start(&poll_timer, ms_to_ktime(5), HRTIMER_MODE_REL);
	ck_assert(hrtimer_is_queued(&poll_timer));
	/* Three runs: the first at or after 5 ms, then restarted twice. */
	for (int i = 0;
	     i < 2000 && __atomic_load_n(&poll_runs, __ATOMIC_ACQUIRE) < 3; i++)
		msleep(1);
	while (hrtimer_active(&poll_timer))
		msleep(1);
	ck_assert_int_eq(hrtimer_cancel(&poll_timer), 0); /* done: not armed */
	ck_assert_int_eq(poll_runs, 3);
	ck_assert_int_eq(poll_in_irq, 3); /* hardirq context, as 4.14 */
	ck_assert_int_ge(poll_overruns, 3);
	ck_assert_int_ge(poll_first - start, 5 * NSEC_PER_MSEC);
	ck_assert(!hrtimer_active(&poll_timer));

	/* Relative, now that 3 ms as an absolute time is past: 3 ms on. */
	ck_assert_int_gt(ktime_get(), 3 * NSEC_PER_MSEC);
	poll_runs = 2; /* one more run, then NORESTART */
	start = ktime_get();
	hrtimer_start(&poll_timer, ms_to_ktime(3), HRTIMER_MODE_REL);
	for (int i = 0;
	     i < 2000 && __atomic_load_n(&poll_runs, __ATOMIC_ACQUIRE) < 3; i++)
		msleep(1);
	ck_assert_int_eq(hrtimer_cancel(&poll_timer), 0);
	ck_assert_int_eq(poll_runs, 3);
	ck_assert_int_ge(poll_last - start, 3 * NSEC_PER_MSEC);

	/* Cancel before expiry: it never runs. */
	hrtimer_start(&poll_timer, ms_to_ktime(10000), HRTIMER_MODE_REL);
	ck_assert_int_eq(hrtimer_cancel(&poll_timer), 1);
	ck_assert_int_eq(hrtimer_cancel(&poll_timer), 0);
	ck_assert_int_eq(poll_runs, 3);

	/* hrtimer_forward(): whole intervals past now, none if ahead. */
	hrtimer_init(&h, CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
	hrtimer_set_expires(&h, 1000000);
	ck_assert_uint_eq(hrtimer_forward(&h, 10500000, 2000000), 5);
	ck_assert_int_eq(hrtimer_get_expires(&h), 11000000);
	ck_assert_uint_eq(hrtimer_forward(&h, 10500000, 2000000), 0);
	ck_assert_uint_eq(hrtimer_resolution, NSEC_PER_SEC / HZ);
	ck_assert_uint_eq(reports(NULL), 0);

	/* Started without a function: reported, not armed. */
	hrtimer_start(&h, 0, HRTIMER_MODE_REL);
	ck_assert(!hrtimer_active(&h));
	ck_assert_uint_eq(reports("bad-argument"), 1);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("net");
	TCase *tc = tcase_create("net");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_skb_layout);
	tcase_add_test(tc, test_skb_over_panic);
	tcase_add_test(tc, test_register);
	tcase_add_test(tc, test_ether_helpers);
	tcase_add_test(tc, test_napi_loopback);
	tcase_add_test(tc, test_napi_lockstep);
	tcase_add_test(tc, test_netif_rx);
	tcase_add_test(tc, test_watchdog);
	tcase_add_test(tc, test_sleep_in_xmit);
	tcase_add_test(tc, test_poll_no_complete);
	tcase_add_test(tc, test_poll_over_budget);
	tcase_add_test(tc, test_bql_misuse);
	tcase_add_test(tc, test_rx_before_unmap);
	tcase_add_test(tc, test_crc32);
	tcase_add_test(tc, test_circ_buf);
	tcase_add_test(tc, test_ethtool_helpers);
	tcase_add_test(tc, test_addr_lists);
	tcase_add_test(tc, test_copy_and_csum_dev);
	tcase_add_test(tc, test_string_and_devm_helpers);
	tcase_add_test(tc, test_ip_headers);
	tcase_add_test(tc, test_mii);
	tcase_add_test(tc, test_no_device_tree);
	tcase_add_test(tc, test_clk);
	tcase_add_test(tc, test_mem_region);
	tcase_add_test(tc, test_hrtimer);
	suite_add_tcase(s, tc);
	return check_run(s);
}
