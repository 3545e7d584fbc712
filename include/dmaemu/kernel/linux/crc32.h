/* SPDX-License-Identifier: MIT */
/*
 * <linux/crc32.h> - CRC-32 (Linux 4.14, include/linux/crc32.h,
 * lib/crc32.c): crc32_le() (the Ethernet polynomial 0x04c11db7, bits
 * reflected: 0xedb88320), crc32_be() (the same polynomial, most
 * significant bit first), __crc32c_le() (Castagnoli, 0x82f63b78
 * reflected), crc32(), and the Ethernet helpers ether_crc() (the CRC of
 * an address, bit-reversed, as MAC hash filters index it) and
 * ether_crc_le().  4.14's <linux/etherdevice.h> includes this header.
 *
 * As in 4.14 the seed is the caller's: ~0 for the Ethernet FCS (whose
 * final value is then inverted), nothing is inverted here.  The
 * functions are inline, a bit at a time: the bytes they read are the
 * driver's own reads (through the cache model in instrumented code).
 */
#ifndef DMAEMU_KERNEL_LINUX_CRC32_H
#define DMAEMU_KERNEL_LINUX_CRC32_H

#include <stddef.h>

#include <linux/bitrev.h>
#include <linux/types.h>

#define DMAEMU_CRCPOLY_LE 0xedb88320U
#define DMAEMU_CRCPOLY_BE 0x04c11db7U
#define DMAEMU_CRC32C_POLY_LE 0x82f63b78U

static inline u32 dmaemu_crc32_le_poly(u32 crc, unsigned char const *p,
				       size_t len, u32 poly)
{
	int i;

	while (len--) {
		crc ^= *p++;
		for (i = 0; i < 8; i++)
			crc = (crc >> 1) ^ ((crc & 1) ? poly : 0);
	}
	return crc;
}

/** crc32_le() - CRC-32 of @len bytes at @p, bits reflected, from @crc. */
static inline u32 crc32_le(u32 crc, unsigned char const *p, size_t len)
{
	return dmaemu_crc32_le_poly(crc, p, len, DMAEMU_CRCPOLY_LE);
}

/** __crc32c_le() - CRC-32C (Castagnoli) of @len bytes, from @crc. */
static inline u32 __crc32c_le(u32 crc, unsigned char const *p, size_t len)
{
	return dmaemu_crc32_le_poly(crc, p, len, DMAEMU_CRC32C_POLY_LE);
}

/** crc32_be() - CRC-32 of @len bytes, most significant bit first. */
static inline u32 crc32_be(u32 crc, unsigned char const *p, size_t len)
{
	int i;

	while (len--) {
		crc ^= (u32)*p++ << 24;
		for (i = 0; i < 8; i++)
			crc = (crc << 1) ^
			      ((crc & 0x80000000U) ? DMAEMU_CRCPOLY_BE : 0);
	}
	return crc;
}

#define crc32(seed, data, length) \
	crc32_le(seed, (unsigned char const *)(data), length)

/** ether_crc() - the CRC of @length bytes at @data, bit-reversed. */
#define ether_crc(length, data) bitrev32(crc32_le(~0U, data, length))
/** ether_crc_le() - the CRC of @length bytes at @data. */
#define ether_crc_le(length, data) crc32_le(~0U, data, length)

#endif
