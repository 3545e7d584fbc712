/* SPDX-License-Identifier: MIT */
/*
 * <linux/etherdevice.h> - Ethernet devices and addresses (Linux 4.14,
 * include/linux/etherdevice.h, net/ethernet/eth.c).
 *
 * ETH_ALEN, ETH_HLEN, ETH_P_* and struct ethhdr come from
 * <linux/if_ether.h>.  The address helpers are inline, as in 4.14, so
 * the bytes they read are the driver's reads.
 */
#ifndef DMAEMU_KERNEL_LINUX_ETHERDEVICE_H
#define DMAEMU_KERNEL_LINUX_ETHERDEVICE_H

#include <stdbool.h>
#include <string.h>

#include <asm/byteorder.h>
#include <linux/crc32.h>
#include <linux/if_ether.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/types.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ARPHRD_ETHER 1

/** eth_hdr() - the Ethernet header of @skb (its mac header). */
static inline struct ethhdr *eth_hdr(const struct sk_buff *skb)
{
	return (struct ethhdr *)skb_mac_header(skb);
}

/**
 * eth_type_trans() - set skb->dev, the mac header and skb->pkt_type,
 * pull the Ethernet header, and return the protocol (network order),
 * as 4.14's eth.c: frames of EtherType 0x0600 and above give it;
 * shorter "802.3" frames give ETH_P_802_3 (ETH_P_802_2 unless raw IPX).
 * Reads the header: through the cache model, at the driver's line.
 */
__be16 eth_type_trans(struct sk_buff *skb, struct net_device *dev);

/** ether_setup() - the Ethernet defaults of a net_device. */
void ether_setup(struct net_device *dev);
/** alloc_etherdev_mqs() - alloc_netdev_mqs() with ether_setup(). */
struct net_device *alloc_etherdev_mqs(int sizeof_priv, unsigned int txqs,
				      unsigned int rxqs);
#define alloc_etherdev(sizeof_priv) alloc_etherdev_mqs(sizeof_priv, 1, 1)
#define alloc_etherdev_mq(sizeof_priv, count) \
	alloc_etherdev_mqs(sizeof_priv, count, count)
/** eth_mac_addr() - ndo_set_mac_address for Ethernet (a struct sockaddr
 * whose sa_data holds the address; not a valid one: -EADDRNOTAVAIL). */
int eth_mac_addr(struct net_device *dev, void *p);
/** eth_validate_addr() - -EADDRNOTAVAIL unless dev_addr is valid. */
int eth_validate_addr(struct net_device *dev);

static inline bool is_zero_ether_addr(const u8 *addr)
{
	return !(addr[0] | addr[1] | addr[2] | addr[3] | addr[4] | addr[5]);
}

static inline bool is_multicast_ether_addr(const u8 *addr)
{
	return addr[0] & 0x01;
}

static inline bool is_unicast_ether_addr(const u8 *addr)
{
	return !is_multicast_ether_addr(addr);
}

static inline bool is_local_ether_addr(const u8 *addr)
{
	return addr[0] & 0x02;
}

static inline bool is_broadcast_ether_addr(const u8 *addr)
{
	return (addr[0] & addr[1] & addr[2] & addr[3] & addr[4] & addr[5]) ==
	       0xff;
}

/** is_valid_ether_addr() - neither multicast (nor broadcast) nor zero. */
static inline bool is_valid_ether_addr(const u8 *addr)
{
	return !is_multicast_ether_addr(addr) && !is_zero_ether_addr(addr);
}

static inline void eth_zero_addr(u8 *addr)
{
	memset(addr, 0x00, ETH_ALEN);
}

static inline void eth_broadcast_addr(u8 *addr)
{
	memset(addr, 0xff, ETH_ALEN);
}

static inline void ether_addr_copy(u8 *dst, const u8 *src)
{
	memcpy(dst, src, ETH_ALEN);
}

static inline bool ether_addr_equal(const u8 *addr1, const u8 *addr2)
{
	return !memcmp(addr1, addr2, ETH_ALEN);
}

/**
 * eth_random_addr() - a random locally administered unicast address
 * (from the machine's seeded generator, so a run replays).
 */
void eth_random_addr(u8 *addr);

/** eth_hw_addr_random() - a random dev_addr, NET_ADDR_RANDOM. */
static inline void eth_hw_addr_random(struct net_device *dev)
{
	dev->addr_assign_type = NET_ADDR_RANDOM;
	eth_random_addr(dev->dev_addr);
}

#ifdef __cplusplus
}
#endif

#endif
