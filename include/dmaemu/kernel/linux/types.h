/* SPDX-License-Identifier: MIT */
/*
 * <linux/types.h> - the kernel's basic types.
 *
 * The system's <linux/types.h> (the UAPI header: __u32, __le32, __be16,
 * __aligned_u64 and the __kernel_ types) is included first, as the
 * kernel's own header includes its UAPI half: the C library's headers
 * reach this name too (<signal.h> through <asm/sigcontext.h>), so it must
 * keep giving them what they expect.  The kernel-only names follow: u8 to
 * s64 and the address types (from <dmaemu/ktypes.h>), bool, gfp_t, the
 * list heads and the callback head.  atomic_t is in <linux/atomic.h>.
 */
#ifndef DMAEMU_KERNEL_LINUX_TYPES_H
#define DMAEMU_KERNEL_LINUX_TYPES_H

#if defined(__has_include_next)
#if __has_include_next(<linux/types.h>)
#include_next <linux/types.h>
#define DMAEMU_HAVE_UAPI_TYPES 1
#endif
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <dmaemu/ktypes.h>

#ifndef DMAEMU_HAVE_UAPI_TYPES
/* No UAPI headers on this host: the same names, the same way. */
typedef uint8_t __u8;
typedef uint16_t __u16;
typedef uint32_t __u32;
typedef uint64_t __u64;
typedef int8_t __s8;
typedef int16_t __s16;
typedef int32_t __s32;
typedef int64_t __s64;
typedef __u16 __le16;
typedef __u16 __be16;
typedef __u32 __le32;
typedef __u32 __be32;
typedef __u64 __le64;
typedef __u64 __be64;
typedef __u16 __sum16;
typedef __u32 __wsum;
#define __aligned_u64 __u64 __attribute__((aligned(8)))
#endif

#ifndef __bitwise
#define __bitwise
#endif

typedef unsigned long ulong;
typedef unsigned int uint;
typedef unsigned short ushort;
typedef unsigned char u_char;

typedef unsigned int gfp_t;
typedef unsigned int fmode_t;
typedef unsigned short umode_t;
typedef unsigned long irq_hw_number_t;
typedef s64 ktime_t;
typedef u64 sector_t;

/**
 * struct list_head - a node of a circular doubly linked list, and the
 * list's head (<linux/list.h>).
 */
struct list_head {
	struct list_head *next, *prev;
};

/** struct hlist_head - the head of a list with one pointer heads. */
struct hlist_head {
	struct hlist_node *first;
};

/** struct hlist_node - a node of an hlist. */
struct hlist_node {
	struct hlist_node *next, **pprev;
};

/** struct callback_head - a deferred call (rcu_head). */
struct callback_head {
	struct callback_head *next;
	void (*func)(struct callback_head *head);
};
#define rcu_head callback_head

/* What Linux 4.14's include chain brings with this header (docs/kernel-headers.md). */
#include <linux/atomic.h>
#include <linux/compiler.h>

#endif
