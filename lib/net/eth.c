// SPDX-License-Identifier: MIT
/*
 * eth.c - Ethernet (<linux/etherdevice.h>), after 4.14's
 * net/ethernet/eth.c (eth_type_trans(), ether_setup(),
 * alloc_etherdev_mqs(), eth_mac_addr(), eth_validate_addr()) and
 * eth_random_addr().
 *
 * eth_type_trans() reads the frame's header as the driver's CPU would,
 * through the cache model in the driver's call context: a header read
 * from a buffer the device still owns, or from stale lines, is reported
 * at the driver's line.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include <linux/etherdevice.h>

#include "net/net.h"

__be16 eth_type_trans(struct sk_buff *skb, struct net_device *dev)
{
	DMAEMU__API_CALL(call, "eth_type_trans");
	struct ethhdr eth;
	unsigned char rawp[2];

	if (!skb || !dev || skb->len < ETH_HLEN) {
		dmaemu__reportf(skb ? dmaemu__skb_machine(skb)
				    : dmaemu_machine_current(),
				DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"eth_type_trans(%p, %s): %s", (void *)skb,
				dev ? dev->name : "NULL",
				!skb   ? "NULL sk_buff"
				: !dev ? "NULL device"
				       : "the frame is shorter than an "
					 "Ethernet header (skb_put() first)");
		return 0;
	}
	skb->dev = dev;
	skb_reset_mac_header(skb);
	(void)dmaemu__net_copy(&eth, skb->data, sizeof(eth), false);
	skb_pull(skb, ETH_HLEN);
	if (is_multicast_ether_addr(eth.h_dest)) {
		if (ether_addr_equal(eth.h_dest, dev->broadcast))
			skb->pkt_type = PACKET_BROADCAST;
		else
			skb->pkt_type = PACKET_MULTICAST;
	} else if (!ether_addr_equal(eth.h_dest, dev->dev_addr)) {
		skb->pkt_type = PACKET_OTHERHOST;
	} else {
		skb->pkt_type = PACKET_HOST;
	}
	if (be16_to_cpu(eth.h_proto) >= ETH_P_802_3_MIN)
		return eth.h_proto;
	/* A raw 802.3 frame (Novell IPX) starts with 0xFFFF; anything else
	 * is 802.2 LLC. */
	if (skb->len >= 2) {
		(void)dmaemu__net_copy(rawp, skb->data, 2, false);
		if (rawp[0] == 0xff && rawp[1] == 0xff)
			return cpu_to_be16(ETH_P_802_3);
	}
	return cpu_to_be16(ETH_P_802_2);
}

void ether_setup(struct net_device *dev)
{
	DMAEMU__API_CALL(call, "ether_setup");

	if (dmaemu__net_null(dev, "ether_setup"))
		return;
	dev->type = ARPHRD_ETHER;
	dev->hard_header_len = ETH_HLEN;
	dev->min_mtu = ETH_MIN_MTU;
	dev->max_mtu = ETH_DATA_LEN;
	dev->mtu = ETH_DATA_LEN;
	dev->addr_len = ETH_ALEN;
	dev->tx_queue_len = 1000;
	dev->flags = IFF_BROADCAST | IFF_MULTICAST;
	eth_broadcast_addr(dev->broadcast);
}

struct net_device *alloc_etherdev_mqs(int sizeof_priv, unsigned int txqs,
				      unsigned int rxqs)
{
	return alloc_netdev_mqs(sizeof_priv, "eth%d", NET_NAME_ENUM,
				ether_setup, txqs, rxqs);
}

int eth_validate_addr(struct net_device *dev)
{
	DMAEMU__API_CALL(call, "eth_validate_addr");

	if (dmaemu__net_null(dev, "eth_validate_addr"))
		return -EINVAL;
	return is_valid_ether_addr(dev->dev_addr) ? 0 : -EADDRNOTAVAIL;
}

int eth_mac_addr(struct net_device *dev, void *p)
{
	/* struct sockaddr: sa_family, then sa_data. */
	DMAEMU__API_CALL(call, "eth_mac_addr");
	const unsigned char *addr;

	if (dmaemu__net_null(dev, "eth_mac_addr"))
		return -EINVAL;
	if (!p)
		return -EADDRNOTAVAIL;
	addr = (const unsigned char *)p + 2;
	if (!is_valid_ether_addr(addr))
		return -EADDRNOTAVAIL;
	ether_addr_copy(dev->dev_addr, addr);
	dev->addr_assign_type = NET_ADDR_SET;
	return 0;
}

/* splitmix64 (the generator of Java's SplittableRandom). */
static uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void eth_random_addr(u8 *addr)
{
	static uint64_t draws; /* atomic */
	struct dmaemu_machine *m = dmaemu_machine_current();
	uint64_t state =
		(m ? m->opt.seed : 0) ^
		(__atomic_add_fetch(&draws, 1, __ATOMIC_RELAXED) << 40);
	uint64_t r = splitmix64(&state);
	int i;
	DMAEMU__API_CALL(call, "eth_random_addr");

	if (dmaemu__net_null(addr, "eth_random_addr"))
		return;
	for (i = 0; i < ETH_ALEN; i++)
		addr[i] = (u8)(r >> (8 * i));
	addr[0] &= 0xfe; /* clear multicast bit */
	addr[0] |= 0x02; /* set local assignment bit (IEEE802) */
}

/* 4.14's net/core/ethtool.c. */
u32 ethtool_op_get_link(struct net_device *dev)
{
	DMAEMU__API_CALL(call, "ethtool_op_get_link");

	if (dmaemu__net_null(dev, "ethtool_op_get_link"))
		return 0;
	return netif_carrier_ok(dev) ? 1 : 0;
}

int ethtool_op_get_ts_info(struct net_device *dev, struct ethtool_ts_info *info)
{
	DMAEMU__API_CALL(call, "ethtool_op_get_ts_info");

	if (dmaemu__net_null(dev, "ethtool_op_get_ts_info") ||
	    dmaemu__net_null(info, "ethtool_op_get_ts_info"))
		return -EINVAL;
	/* SOF_TIMESTAMPING_TX_SOFTWARE | _RX_SOFTWARE | _SOFTWARE
	 * (<linux/net_tstamp.h>: bits 1, 3 and 4). */
	info->so_timestamping = (1 << 1) | (1 << 3) | (1 << 4);
	info->phc_index = -1;
	return 0;
}
