/* SPDX-License-Identifier: MIT */
/*
 * <linux/ip.h> - the IPv4 header in an sk_buff (Linux 4.14,
 * include/linux/ip.h).
 *
 * As 4.14's header, this is the UAPI header of that name (struct iphdr,
 * IPTOS_*, IPVERSION, IP_DF ...), included first with #include_next,
 * plus the kernel's accessors: ip_hdr() is the sk_buff's network header
 * (skb_network_header(), set by skb_reset_network_header() or
 * skb_set_network_header()), ipip_hdr() its transport header.  They are
 * pointers into the buffer, in emulated memory: a driver reading through
 * them reads as its CPU would.  4.14's <linux/ip.h> includes
 * <linux/skbuff.h>.
 */
#ifndef DMAEMU_KERNEL_LINUX_IP_H
#define DMAEMU_KERNEL_LINUX_IP_H

#include <linux/skbuff.h>
#include <linux/types.h>

#if defined(__has_include_next)
#if __has_include_next(<linux/ip.h>)
#include_next <linux/ip.h>
#endif
#endif

/* Without the host's UAPI half, only the include chain is given. */
#ifdef IPVERSION

#ifdef __cplusplus
extern "C" {
#endif

/** ip_hdr() - the IPv4 header: the network header of @skb. */
static inline struct iphdr *ip_hdr(const struct sk_buff *skb)
{
	return (struct iphdr *)skb_network_header(skb);
}

/** ipip_hdr() - the inner IPv4 header of IP-in-IP: the transport header. */
static inline struct iphdr *ipip_hdr(const struct sk_buff *skb)
{
	return (struct iphdr *)skb_transport_header(skb);
}

#ifdef __cplusplus
}
#endif

#endif /* IPVERSION */

#endif /* DMAEMU_KERNEL_LINUX_IP_H */
