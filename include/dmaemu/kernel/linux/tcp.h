/* SPDX-License-Identifier: MIT */
/*
 * <linux/tcp.h> - the TCP header in an sk_buff (Linux 4.14,
 * include/linux/tcp.h), the part a network driver uses.
 *
 * The UAPI header of that name (struct tcphdr, TCP_* ...), included first
 * with #include_next, plus tcp_hdr() (the sk_buff's transport header),
 * tcp_hdrlen() and tcp_optlen() as 4.14 has them.  The stack's socket
 * structures are not here.  It includes <linux/skbuff.h>, as 4.14's.
 */
#ifndef DMAEMU_KERNEL_LINUX_TCP_H
#define DMAEMU_KERNEL_LINUX_TCP_H

#include <linux/skbuff.h>
#include <linux/types.h>

#if defined(__has_include_next)
#if __has_include_next(<linux/tcp.h>)
#include_next <linux/tcp.h>
#endif
#endif

/* Without the host's UAPI half, only the include chain is given. */
#ifdef TCP_MSS_DEFAULT

#ifdef __cplusplus
extern "C" {
#endif

/** tcp_hdr() - the TCP header: the transport header of @skb. */
static inline struct tcphdr *tcp_hdr(const struct sk_buff *skb)
{
	return (struct tcphdr *)skb_transport_header(skb);
}

/** __tcp_hdrlen() - the length of @th with its options (doff words). */
static inline unsigned int __tcp_hdrlen(const struct tcphdr *th)
{
	return th->doff * 4u;
}

/** tcp_hdrlen() - the length of @skb's TCP header with its options. */
static inline unsigned int tcp_hdrlen(const struct sk_buff *skb)
{
	return __tcp_hdrlen(tcp_hdr(skb));
}

/** tcp_optlen() - the length of the options of @skb's TCP header. */
static inline unsigned int tcp_optlen(const struct sk_buff *skb)
{
	return (tcp_hdr(skb)->doff - 5u) * 4u;
}

#ifdef __cplusplus
}
#endif

#endif /* TCP_MSS_DEFAULT */

#endif /* DMAEMU_KERNEL_LINUX_TCP_H */
