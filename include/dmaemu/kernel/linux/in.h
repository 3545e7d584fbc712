/* SPDX-License-Identifier: MIT */
/*
 * <linux/in.h> - IPv4 addresses and protocol numbers (Linux 4.14,
 * include/linux/in.h).
 *
 * As 4.14's header, this is the UAPI header of that name (struct in_addr,
 * struct sockaddr_in, IPPROTO_*, INADDR_*, IN_MULTICAST() ...), included
 * first with #include_next (the host's linux-libc-dev, whose
 * <linux/libc-compat.h> keeps it from clashing with the C library's
 * <netinet/in.h>), plus the kernel's part: the ipv4_is_*() address
 * tests and proto_ports_offset().
 */
#ifndef DMAEMU_KERNEL_LINUX_IN_H
#define DMAEMU_KERNEL_LINUX_IN_H

#include <linux/errno.h>
#include <linux/types.h>

/* The C library's <netinet/in.h> first: the UAPI's <linux/libc-compat.h>
 * then leaves its duplicates out, so a test may include either header
 * after this one. */
#include <netinet/in.h>

#if defined(__has_include_next)
#if __has_include_next(<linux/in.h>)
#include_next <linux/in.h>
#endif
#endif

#include <asm/byteorder.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Without the host's UAPI half, only the include chain is given. */
#ifdef IPPROTO_TCP

/**
 * proto_ports_offset() - where the ports of an IPPROTO_@proto header are,
 * from the start of that header (4.14: 0 for TCP, UDP, DCCP, ESP, SCTP,
 * UDP-Lite; 4 for AH; -EINVAL for the others).
 */
static inline int proto_ports_offset(int proto)
{
	switch (proto) {
	case IPPROTO_TCP:
	case IPPROTO_UDP:
	case IPPROTO_DCCP:
	case IPPROTO_ESP:
	case IPPROTO_SCTP:
	case IPPROTO_UDPLITE:
		return 0;
	case IPPROTO_AH:
		return 4;
	default:
		return -EINVAL;
	}
}

/* Address classes; @addr in network byte order, as 4.14's. */
static inline bool ipv4_is_loopback(__be32 addr)
{
	return (addr & cpu_to_be32(0xff000000)) == cpu_to_be32(0x7f000000);
}

static inline bool ipv4_is_multicast(__be32 addr)
{
	return (addr & cpu_to_be32(0xf0000000)) == cpu_to_be32(0xe0000000);
}

static inline bool ipv4_is_local_multicast(__be32 addr)
{
	return (addr & cpu_to_be32(0xffffff00)) == cpu_to_be32(0xe0000000);
}

static inline bool ipv4_is_lbcast(__be32 addr)
{
	return addr == cpu_to_be32(0xffffffff);
}

static inline bool ipv4_is_zeronet(__be32 addr)
{
	return (addr & cpu_to_be32(0xff000000)) == 0;
}

static inline bool ipv4_is_private_10(__be32 addr)
{
	return (addr & cpu_to_be32(0xff000000)) == cpu_to_be32(0x0a000000);
}

static inline bool ipv4_is_private_172(__be32 addr)
{
	return (addr & cpu_to_be32(0xfff00000)) == cpu_to_be32(0xac100000);
}

static inline bool ipv4_is_private_192(__be32 addr)
{
	return (addr & cpu_to_be32(0xffff0000)) == cpu_to_be32(0xc0a80000);
}

static inline bool ipv4_is_linklocal_169(__be32 addr)
{
	return (addr & cpu_to_be32(0xffff0000)) == cpu_to_be32(0xa9fe0000);
}

#endif /* IPPROTO_TCP */

#ifdef __cplusplus
}
#endif

#endif /* DMAEMU_KERNEL_LINUX_IN_H */
