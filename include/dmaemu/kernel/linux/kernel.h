/* SPDX-License-Identifier: MIT */
/*
 * <linux/kernel.h> - the kernel's everyday macros: container_of(),
 * min()/max() and their typed forms, clamp(), ARRAY_SIZE(), rounding and
 * alignment, DIV_ROUND_UP(), the 32-bit halves of a 64-bit value,
 * might_sleep(), and (as the kernel's header does) the types, bit
 * operations, printk() and BUG()/WARN().
 *
 * min() and max() evaluate each argument once and, as in the kernel,
 * comparing two values of different types is a compiler warning
 * (-Wcompare-distinct-pointer-types; an error under -Werror): use min_t().
 * round_up() and round_down() need a power of two, roundup() and
 * rounddown() take any multiple.
 *
 * The system's <linux/kernel.h> (the UAPI header <sys/sysinfo.h>
 * includes) is included first, so that the C library keeps working.
 */
#ifndef DMAEMU_KERNEL_LINUX_KERNEL_H
#define DMAEMU_KERNEL_LINUX_KERNEL_H

#include <dmaemu/klevel.h>

#if defined(__has_include_next)
#if __has_include_next(<linux/kernel.h>)
#include_next <linux/kernel.h>
#endif
#endif

#include <limits.h>
#include <stdarg.h>
#include <stddef.h>

#include <linux/bitops.h>
#include <linux/bug.h>
#include <linux/compiler.h>
#include <linux/irqflags.h>
#include <linux/log2.h>
#include <linux/preempt.h>
#include <linux/printk.h>
#include <linux/stringify.h>
#include <linux/types.h>

#define U8_MAX ((u8)~0U)
#define S8_MAX ((s8)(U8_MAX >> 1))
#define S8_MIN ((s8)(-S8_MAX - 1))
#define U16_MAX ((u16)~0U)
#define S16_MAX ((s16)(U16_MAX >> 1))
#define S16_MIN ((s16)(-S16_MAX - 1))
#define U32_MAX ((u32)~0U)
#define S32_MAX ((s32)(U32_MAX >> 1))
#define S32_MIN ((s32)(-S32_MAX - 1))
#define U64_MAX ((u64)~0ULL)
#define S64_MAX ((s64)(U64_MAX >> 1))
#define S64_MIN ((s64)(-S64_MAX - 1))

#define STACK_MAGIC 0xdeadbeef

/* A name no other expansion uses, for the locals of the macros below. */
#define __dmaemu_paste2(a, b) a##b
#define __dmaemu_paste(a, b) __dmaemu_paste2(a, b)
#define __UNIQUE_ID(prefix) \
	__dmaemu_paste(__dmaemu_paste(__UNIQUE_ID_, prefix), __COUNTER__)

/* The elements of array @arr; a pointer is a compile error, as in the kernel. */
#define __must_be_array(a) BUILD_BUG_ON_ZERO(__same_type((a), &(a)[0]))
#define ARRAY_SIZE(arr) (sizeof(arr) / sizeof((arr)[0]) + __must_be_array(arr))

#define __round_mask(x, y) ((__typeof__(x))((y)-1))
#define round_up(x, y) ((((x)-1) | __round_mask(x, y)) + 1)
#define round_down(x, y) ((x) & ~__round_mask(x, y))
#define roundup(x, y)                            \
	__extension__({                          \
		const __typeof__(y) __y = (y);   \
		(((x) + (__y - 1)) / __y) * __y; \
	})
#define rounddown(x, y)                  \
	__extension__({                  \
		__typeof__(x) __x = (x); \
		__x - (__x % (y));       \
	})

#define __ALIGN_MASK(x, mask) (((x) + (mask)) & ~(mask))
#define ALIGN(x, a) __ALIGN_MASK(x, (__typeof__(x))(a)-1)
#define ALIGN_DOWN(x, a) ALIGN((x) - ((a)-1), (a))
#define PTR_ALIGN(p, a) ((__typeof__(p))ALIGN((unsigned long)(p), (a)))
#define IS_ALIGNED(x, a) (((x) & ((__typeof__(x))(a)-1)) == 0)

#define DIV_ROUND_UP(n, d) (((n) + (d)-1) / (d))
#define DIV_ROUND_UP_ULL(ll, d) \
	((unsigned long long)(((unsigned long long)(ll) + (d)-1) / (d)))
#define DIV_ROUND_DOWN_ULL(ll, d) ((unsigned long long)(ll) / (d))
#define DIV_ROUND_CLOSEST(x, divisor)                                        \
	__extension__({                                                      \
		__typeof__(x) __x = x;                                       \
		__typeof__(divisor) __d = divisor;                           \
		(((__typeof__(x))-1) > 0 || ((__typeof__(divisor))-1) > 0 || \
		 (((__x) > 0) == ((__d) > 0)))                               \
			? (((__x) + ((__d) / 2)) / (__d))                    \
			: (((__x) - ((__d) / 2)) / (__d));                   \
	})

#define __cmp_once(x, y, op, ux, uy)    \
	__extension__({                 \
		__typeof__(x) ux = (x); \
		__typeof__(y) uy = (y); \
		(void)(&ux == &uy);     \
		ux op uy ? ux : uy;     \
	})
#define min(x, y) __cmp_once(x, y, <, __UNIQUE_ID(min1_), __UNIQUE_ID(min2_))
#define max(x, y) __cmp_once(x, y, >, __UNIQUE_ID(max1_), __UNIQUE_ID(max2_))
#define min3(x, y, z) min((__typeof__(x))min(x, y), z)
#define max3(x, y, z) max((__typeof__(x))max(x, y), z)
#define min_not_zero(x, y)                                                    \
	__extension__({                                                       \
		__typeof__(x) __mnz_x = (x);                                  \
		__typeof__(y) __mnz_y = (y);                                  \
		__mnz_x == 0                                                  \
			? __mnz_y                                             \
			: ((__mnz_y == 0) ? __mnz_x : min(__mnz_x, __mnz_y)); \
	})
#define min_t(type, x, y)                                        \
	__cmp_once((type)(x), (type)(y), <, __UNIQUE_ID(mint1_), \
		   __UNIQUE_ID(mint2_))
#define max_t(type, x, y)                                        \
	__cmp_once((type)(x), (type)(y), >, __UNIQUE_ID(maxt1_), \
		   __UNIQUE_ID(maxt2_))
#define clamp(val, lo, hi) min((__typeof__(val))max(val, lo), hi)
#define clamp_t(type, val, lo, hi) min_t(type, max_t(type, val, lo), hi)
#define clamp_val(val, lo, hi) clamp_t(__typeof__(val), val, lo, hi)

#define swap(a, b)                              \
	do {                                    \
		__typeof__(a) __tmp_swap = (a); \
		(a) = (b);                      \
		(b) = __tmp_swap;               \
	} while (0)

#ifndef container_of
#define container_of(ptr, type, member) \
	((type *)(void *)((char *)(ptr) - __builtin_offsetof(type, member)))
#endif

#define FIELD_SIZEOF(t, f) (sizeof(((t *)0)->f))
#ifndef offsetofend /* also <linux/stddef.h>'s */
#define offsetofend(t, m) (offsetof(t, m) + FIELD_SIZEOF(t, m))
#endif
/* Linux 5.5's sizeof_field() and 4.20's cant_sleep(): not at the 4.14
 * level (<dmaemu/klevel.h>). */
#if DMAEMU_KERNEL_LEVEL > 414
#define sizeof_field(t, f) FIELD_SIZEOF(t, f)
#endif

#define REPEAT_BYTE(x) ((~0ul / 0xff) * (x))

#define might_sleep_if(cond)           \
	do {                           \
		if (cond)              \
			might_sleep(); \
	} while (0)
#define might_resched() ((void)0)
#if DMAEMU_KERNEL_LEVEL > 414
#define cant_sleep() WARN_ON_ONCE(!in_atomic() && !irqs_disabled())
#endif

#define _RET_IP_ ((unsigned long)__builtin_return_address(0))
#define TAINT_WARN 9
#define TAINT_CRAP 10
#define TAINT_FIRMWARE_WORKAROUND 11
#define LOCKDEP_STILL_OK 1
#define LOCKDEP_NOW_UNRELIABLE 0
static inline void add_taint(unsigned int flag, int lockdep_ok)
{
	(void)flag;
	(void)lockdep_ok;
}

/*
 * The string formatting of 4.14's <linux/kernel.h>: sprintf(),
 * snprintf(), vsprintf(), vsnprintf(), sscanf(), vsscanf() are the C
 * library's (declared here as 4.14 declares them, without <stdio.h>),
 * scnprintf() and vscnprintf() return the characters written, not the
 * characters the whole text would need.
 */
__printf(2, 3) int sprintf(char *buf, const char *fmt, ...);
int vsprintf(char *buf, const char *fmt, va_list args);
__printf(3, 4) int snprintf(char *buf, size_t size, const char *fmt, ...);
int vsnprintf(char *buf, size_t size, const char *fmt, va_list args);
int sscanf(const char *buf, const char *fmt, ...);
int vsscanf(const char *buf, const char *fmt, va_list args);

static inline __printf(3, 0) int vscnprintf(char *buf, size_t size,
					    const char *fmt, va_list args)
{
	int n = vsnprintf(buf, size, fmt, args);

	if (n < 0)
		return 0;
	if ((size_t)n < size)
		return n;
	return size ? (int)size - 1 : 0;
}

static inline __printf(3, 4) int scnprintf(char *buf, size_t size,
					   const char *fmt, ...)
{
	va_list args;
	int n;

	va_start(args, fmt);
	n = vscnprintf(buf, size, fmt, args);
	va_end(args);
	return n;
}

/* What Linux 4.14's include chain brings with this header (docs/kernel-headers.md). */
#include <asm/byteorder.h>
#include <linux/cache.h>

#endif
