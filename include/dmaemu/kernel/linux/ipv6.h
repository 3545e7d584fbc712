/* SPDX-License-Identifier: MIT */
/*
 * <linux/ipv6.h> - the IPv6 header in an sk_buff (Linux 4.14,
 * include/linux/ipv6.h), the part a network driver uses.
 *
 * The UAPI header of that name (struct ipv6hdr, struct in6_addr through
 * <linux/in6.h>, IPV6_* ...), included first with #include_next, plus
 * ipv6_hdr(): the sk_buff's network header.  4.14's header also has the
 * stack's socket and device configuration structures; a driver never
 * needs them and they are not here.  As 4.14's, it includes
 * <linux/tcp.h> and <linux/udp.h>.
 */
#ifndef DMAEMU_KERNEL_LINUX_IPV6_H
#define DMAEMU_KERNEL_LINUX_IPV6_H

#include <linux/skbuff.h>
#include <linux/tcp.h>
#include <linux/types.h>
#include <linux/udp.h>

/* The C library's <netinet/in.h> first: the UAPI's <linux/libc-compat.h>
 * then leaves its duplicates out, so a test may include either header
 * after this one. */
#include <netinet/in.h>

#if defined(__has_include_next)
#if __has_include_next(<linux/ipv6.h>)
#include_next <linux/ipv6.h>
#endif
#endif

/* Without the host's UAPI half, only the include chain is given. */
#ifdef IPV6_MIN_MTU

#ifdef __cplusplus
extern "C" {
#endif

/** ipv6_hdr() - the IPv6 header: the network header of @skb. */
static inline struct ipv6hdr *ipv6_hdr(const struct sk_buff *skb)
{
	return (struct ipv6hdr *)skb_network_header(skb);
}

#ifdef __cplusplus
}
#endif

#endif /* IPV6_MIN_MTU */

#endif /* DMAEMU_KERNEL_LINUX_IPV6_H */
