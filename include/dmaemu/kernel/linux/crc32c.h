/* SPDX-License-Identifier: MIT */
/*
 * <linux/crc32c.h> - CRC-32C (Castagnoli) as lib/libcrc32c.c gives it
 * (Linux 4.14): crc32c(crc, p, len) runs the reflected polynomial
 * 0x82f63b78 over @len bytes from the seed @crc, with no inversion (the
 * caller seeds ~0 and inverts the result for the standard check value),
 * the same as __crc32c_le() of <linux/crc32.h>; crc32c_le() is its old
 * name.
 */
#ifndef DMAEMU_KERNEL_LINUX_CRC32C_H
#define DMAEMU_KERNEL_LINUX_CRC32C_H

#include <linux/crc32.h>
#include <linux/types.h>

static inline u32 crc32c(u32 crc, const void *address, unsigned int length)
{
	return __crc32c_le(crc, (unsigned char const *)address, length);
}

#define crc32c_le crc32c

#endif /* DMAEMU_KERNEL_LINUX_CRC32C_H */
