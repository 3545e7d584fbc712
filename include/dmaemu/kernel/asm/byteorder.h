/* SPDX-License-Identifier: MIT */
/*
 * <asm/byteorder.h> - the CPU's byte order and the conversions to and
 * from little- and big-endian values: cpu_to_le32(), be16_to_cpu(),
 * le32_to_cpup(), cpu_to_be64s() and the rest, for 16, 32 and 64 bits.
 *
 * The emulated CPU has the host's byte order (every profile is
 * little-endian on the usual hosts: arm64 and x86-64 Linux are).  The
 * __le and __be types are the system's <linux/types.h> ones; as in the
 * kernel without sparse they are plain integers, so mixing them up is not
 * a compile error here.
 */
#ifndef DMAEMU_KERNEL_ASM_BYTEORDER_H
#define DMAEMU_KERNEL_ASM_BYTEORDER_H

#include <linux/swab.h>
#include <linux/types.h>

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#ifndef __LITTLE_ENDIAN
#define __LITTLE_ENDIAN 1234
#endif
#ifndef __LITTLE_ENDIAN_BITFIELD
#define __LITTLE_ENDIAN_BITFIELD
#endif
#define __dmaemu_le(bits, x) ((__u##bits)(x))
#define __dmaemu_be(bits, x) swab##bits(x)
#else
#ifndef __BIG_ENDIAN
#define __BIG_ENDIAN 4321
#endif
#ifndef __BIG_ENDIAN_BITFIELD
#define __BIG_ENDIAN_BITFIELD
#endif
#define __dmaemu_le(bits, x) swab##bits(x)
#define __dmaemu_be(bits, x) ((__u##bits)(x))
#endif

#define cpu_to_le16(x) ((__le16)__dmaemu_le(16, x))
#define cpu_to_le32(x) ((__le32)__dmaemu_le(32, x))
#define cpu_to_le64(x) ((__le64)__dmaemu_le(64, x))
#define le16_to_cpu(x) ((__u16)__dmaemu_le(16, (__u16)(__le16)(x)))
#define le32_to_cpu(x) ((__u32)__dmaemu_le(32, (__u32)(__le32)(x)))
#define le64_to_cpu(x) ((__u64)__dmaemu_le(64, (__u64)(__le64)(x)))
#define cpu_to_be16(x) ((__be16)__dmaemu_be(16, x))
#define cpu_to_be32(x) ((__be32)__dmaemu_be(32, x))
#define cpu_to_be64(x) ((__be64)__dmaemu_be(64, x))
#define be16_to_cpu(x) ((__u16)__dmaemu_be(16, (__u16)(__be16)(x)))
#define be32_to_cpu(x) ((__u32)__dmaemu_be(32, (__u32)(__be32)(x)))
#define be64_to_cpu(x) ((__u64)__dmaemu_be(64, (__u64)(__be64)(x)))

#define __cpu_to_le16(x) cpu_to_le16(x)
#define __cpu_to_le32(x) cpu_to_le32(x)
#define __cpu_to_le64(x) cpu_to_le64(x)
#define __le16_to_cpu(x) le16_to_cpu(x)
#define __le32_to_cpu(x) le32_to_cpu(x)
#define __le64_to_cpu(x) le64_to_cpu(x)
#define __cpu_to_be16(x) cpu_to_be16(x)
#define __cpu_to_be32(x) cpu_to_be32(x)
#define __cpu_to_be64(x) cpu_to_be64(x)
#define __be16_to_cpu(x) be16_to_cpu(x)
#define __be32_to_cpu(x) be32_to_cpu(x)
#define __be64_to_cpu(x) be64_to_cpu(x)

/* The constant forms (integer constant expressions: the UAPI headers'
 * enumerators use them, such as TCP_FLAG_* of <linux/tcp.h>). */
#define __constant_cpu_to_le16(x) cpu_to_le16(x)
#define __constant_cpu_to_le32(x) cpu_to_le32(x)
#define __constant_cpu_to_le64(x) cpu_to_le64(x)
#define __constant_le16_to_cpu(x) le16_to_cpu(x)
#define __constant_le32_to_cpu(x) le32_to_cpu(x)
#define __constant_le64_to_cpu(x) le64_to_cpu(x)
#define __constant_cpu_to_be16(x) cpu_to_be16(x)
#define __constant_cpu_to_be32(x) cpu_to_be32(x)
#define __constant_cpu_to_be64(x) cpu_to_be64(x)
#define __constant_be16_to_cpu(x) be16_to_cpu(x)
#define __constant_be32_to_cpu(x) be32_to_cpu(x)
#define __constant_be64_to_cpu(x) be64_to_cpu(x)
#define __constant_htonl(x) cpu_to_be32(x)
#define __constant_ntohl(x) be32_to_cpu(x)
#define __constant_htons(x) cpu_to_be16(x)
#define __constant_ntohs(x) be16_to_cpu(x)

/* The pointer forms (p: read through a pointer; s: convert in place). */
#define __dmaemu_byteorder_ptr(e, bits)                                   \
	static inline __u##bits e##bits##_to_cpup(const __##e##bits *p)   \
	{                                                                 \
		return e##bits##_to_cpu(*p);                              \
	}                                                                 \
	static inline __##e##bits cpu_to_##e##bits##p(const __u##bits *p) \
	{                                                                 \
		return cpu_to_##e##bits(*p);                              \
	}                                                                 \
	static inline void e##bits##_to_cpus(__u##bits *p)                \
	{                                                                 \
		*p = e##bits##_to_cpu(*p);                                \
	}                                                                 \
	static inline void cpu_to_##e##bits##s(__u##bits *p)              \
	{                                                                 \
		*p = cpu_to_##e##bits(*p);                                \
	}
__dmaemu_byteorder_ptr(le, 16) __dmaemu_byteorder_ptr(le, 32)
	__dmaemu_byteorder_ptr(le, 64) __dmaemu_byteorder_ptr(be, 16)
		__dmaemu_byteorder_ptr(be, 32) __dmaemu_byteorder_ptr(be, 64)
#undef __dmaemu_byteorder_ptr

	/* In-place additions to little-endian fields, as the kernel's. */
	static inline void le16_add_cpu(__le16 *var, __u16 val)
{
	*var = cpu_to_le16(le16_to_cpu(*var) + val);
}

static inline void le32_add_cpu(__le32 *var, __u32 val)
{
	*var = cpu_to_le32(le32_to_cpu(*var) + val);
}

static inline void le64_add_cpu(__le64 *var, __u64 val)
{
	*var = cpu_to_le64(le64_to_cpu(*var) + val);
}

static inline void be16_add_cpu(__be16 *var, __u16 val)
{
	*var = cpu_to_be16(be16_to_cpu(*var) + val);
}

static inline void be32_add_cpu(__be32 *var, __u32 val)
{
	*var = cpu_to_be32(be32_to_cpu(*var) + val);
}

#endif
