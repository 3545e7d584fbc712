/* SPDX-License-Identifier: MIT */
/*
 * <linux/udp.h> - the UDP header in an sk_buff (Linux 4.14,
 * include/linux/udp.h), the part a network driver uses.
 *
 * The UAPI header of that name (struct udphdr, UDP_* ...), included first
 * with #include_next, plus udp_hdr(): the sk_buff's transport header.
 * The stack's socket structures are not here.
 */
#ifndef DMAEMU_KERNEL_LINUX_UDP_H
#define DMAEMU_KERNEL_LINUX_UDP_H

#include <linux/skbuff.h>
#include <linux/types.h>

#if defined(__has_include_next)
#if __has_include_next(<linux/udp.h>)
#include_next <linux/udp.h>
#endif
#endif

/* Without the host's UAPI half, only the include chain is given. */
#ifdef UDP_CORK

#ifdef __cplusplus
extern "C" {
#endif

/** udp_hdr() - the UDP header: the transport header of @skb. */
static inline struct udphdr *udp_hdr(const struct sk_buff *skb)
{
	return (struct udphdr *)skb_transport_header(skb);
}

#ifdef __cplusplus
}
#endif

#endif /* UDP_CORK */

#endif /* DMAEMU_KERNEL_LINUX_UDP_H */
