/* SPDX-License-Identifier: MIT */
/*
 * <linux/bitrev.h> - reverse the bits of a byte, a 16-bit and a 32-bit
 * word (Linux 4.14, include/linux/bitrev.h): bitrev8(), bitrev16(),
 * bitrev32().  ether_crc() (<linux/crc32.h>) uses bitrev32().
 */
#ifndef DMAEMU_KERNEL_LINUX_BITREV_H
#define DMAEMU_KERNEL_LINUX_BITREV_H

#include <linux/types.h>

static inline u8 bitrev8(u8 byte)
{
	byte = (u8)((byte & 0xf0) >> 4 | (byte & 0x0f) << 4);
	byte = (u8)((byte & 0xcc) >> 2 | (byte & 0x33) << 2);
	return (u8)((byte & 0xaa) >> 1 | (byte & 0x55) << 1);
}

static inline u16 bitrev16(u16 x)
{
	return (u16)((bitrev8(x & 0xff) << 8) | bitrev8(x >> 8));
}

static inline u32 bitrev32(u32 x)
{
	return ((u32)bitrev16(x & 0xffff) << 16) | bitrev16(x >> 16);
}

#endif
