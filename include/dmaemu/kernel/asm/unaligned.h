/* SPDX-License-Identifier: MIT */
/*
 * <asm/unaligned.h> - loads and stores at any alignment:
 * get_unaligned_le16/32/64(), get_unaligned_be16/32/64(), the put_
 * forms, and get_unaligned()/put_unaligned() for a value of the
 * pointer's type in CPU order.  Each access is one copy of the object's
 * bytes (a packed struct), so instrumented code checks it like any other
 * access of that size.
 */
#ifndef DMAEMU_KERNEL_ASM_UNALIGNED_H
#define DMAEMU_KERNEL_ASM_UNALIGNED_H

#include <asm/byteorder.h>
#include <linux/types.h>

#define __dmaemu_unaligned(bits)                                             \
	struct __dmaemu_una_u##bits {                                        \
		__u##bits x;                                                 \
	} __attribute__((packed, may_alias));                                \
	static inline __u##bits __get_unaligned_cpu##bits(const void *p)     \
	{                                                                    \
		return ((const struct __dmaemu_una_u##bits *)p)->x;          \
	}                                                                    \
	static inline void __put_unaligned_cpu##bits(__u##bits val, void *p) \
	{                                                                    \
		((struct __dmaemu_una_u##bits *)p)->x = val;                 \
	}                                                                    \
	static inline __u##bits get_unaligned_le##bits(const void *p)        \
	{                                                                    \
		return le##bits##_to_cpu(__get_unaligned_cpu##bits(p));      \
	}                                                                    \
	static inline __u##bits get_unaligned_be##bits(const void *p)        \
	{                                                                    \
		return be##bits##_to_cpu(__get_unaligned_cpu##bits(p));      \
	}                                                                    \
	static inline void put_unaligned_le##bits(__u##bits val, void *p)    \
	{                                                                    \
		__put_unaligned_cpu##bits(cpu_to_le##bits(val), p);          \
	}                                                                    \
	static inline void put_unaligned_be##bits(__u##bits val, void *p)    \
	{                                                                    \
		__put_unaligned_cpu##bits(cpu_to_be##bits(val), p);          \
	}
__dmaemu_unaligned(16) __dmaemu_unaligned(32) __dmaemu_unaligned(64)
#undef __dmaemu_unaligned

/* A value of *@ptr's type, read or written at any alignment. */
#define get_unaligned(ptr)                                   \
	__extension__({                                      \
		struct {                                     \
			__typeof__(*(ptr)) x;                \
		} __attribute__((packed, may_alias)) *__pu = \
			(__typeof__(__pu))(ptr);             \
		__pu->x;                                     \
	})
#define put_unaligned(val, ptr)                              \
	do {                                                 \
		struct {                                     \
			__typeof__(*(ptr)) x;                \
		} __attribute__((packed, may_alias)) *__pu = \
			(__typeof__(__pu))(ptr);             \
		__pu->x = (val);                             \
	} while (0)

	static inline u32 get_unaligned_le24(const void *p)
{
	const u8 *b = (const u8 *)p;

	return b[0] | (u32)b[1] << 8 | (u32)b[2] << 16;
}

static inline u32 get_unaligned_be24(const void *p)
{
	const u8 *b = (const u8 *)p;

	return b[2] | (u32)b[1] << 8 | (u32)b[0] << 16;
}

#endif
