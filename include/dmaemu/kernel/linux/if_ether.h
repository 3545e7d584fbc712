/* SPDX-License-Identifier: MIT */
/*
 * <linux/if_ether.h> - Ethernet frame constants and struct ethhdr.
 *
 * As Linux 4.14's header, this is the UAPI header of that name (which the
 * C library's <net/ethernet.h> includes too, so it is included first, with
 * #include_next) plus the kernel's part: ETH_ALEN (6), ETH_HLEN (14),
 * ETH_ZLEN (60), ETH_DATA_LEN (1500), ETH_FRAME_LEN (1514), ETH_FCS_LEN
 * (4), the ETH_P_* protocol numbers and struct ethhdr.  Without the host's
 * UAPI headers, the same names are defined here.  4.14's eth_hdr() takes a
 * struct sk_buff, which the networking headers give.
 */
#ifndef DMAEMU_KERNEL_LINUX_IF_ETHER_H
#define DMAEMU_KERNEL_LINUX_IF_ETHER_H

#include <linux/types.h>

#if defined(__has_include_next)
#if __has_include_next(<linux/if_ether.h>)
#include_next <linux/if_ether.h>
#endif
#endif

#ifndef ETH_ALEN
#define ETH_ALEN 6
#define ETH_TLEN 2
#define ETH_HLEN 14
#define ETH_ZLEN 60
#define ETH_DATA_LEN 1500
#define ETH_FRAME_LEN 1514
#define ETH_FCS_LEN 4
#define ETH_MIN_MTU 68
#define ETH_MAX_MTU 0xFFFFU
#define ETH_P_LOOP 0x0060
#define ETH_P_IP 0x0800
#define ETH_P_ARP 0x0806
#define ETH_P_8021Q 0x8100
#define ETH_P_IPV6 0x86DD
#define ETH_P_8021AD 0x88A8
#define ETH_P_802_3 0x0001
#define ETH_P_ALL 0x0003

/** struct ethhdr - the header of an Ethernet frame, as on the wire. */
struct ethhdr {
	unsigned char h_dest[ETH_ALEN];
	unsigned char h_source[ETH_ALEN];
	__be16 h_proto;
} __attribute__((packed));
#endif

#endif
