/* SPDX-License-Identifier: MIT */
/*
 * <linux/compiler.h> - READ_ONCE(), WRITE_ONCE(), barrier().
 *
 * READ_ONCE() and WRITE_ONCE() are relaxed atomic loads and stores of the
 * object's size, so that a driver polling memory that a device thread
 * writes has no data race at the host level.  They also reach the model.
 * READ_ONCE() is a call of dmaemu_cpu_read_once(), in instrumented code
 * and not: the library makes the load, so that it can return an older
 * value where a read barrier is missing (docs/ordering.md).  WRITE_ONCE()
 * is inline: in instrumented code the compiler checks the atomic access
 * like any other (DMAEMU_INSTRUMENTED is defined by the instrumentation
 * flags); in code that is not instrumented it calls dmaemu_cpu_access()
 * itself.  Objects of other sizes than 1, 2, 4 and 8 bytes are copied
 * between compiler barriers, as the kernel does.
 */
#ifndef DMAEMU_KERNEL_LINUX_COMPILER_H
#define DMAEMU_KERNEL_LINUX_COMPILER_H

#include <stdint.h>

#include <dmaemu/cpu.h>

#ifndef barrier
#define barrier() __asm__ __volatile__("" : : : "memory")
#endif
#ifndef likely
#define likely(x) __builtin_expect(!!(x), 1)
#endif
#ifndef unlikely
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif
#ifndef lower_32_bits
/* The low and high 32 bits of a 64-bit value (a dma_addr_t). */
#define lower_32_bits(n) ((uint32_t)((n)&0xffffffffULL))
#define upper_32_bits(n) ((uint32_t)((uint64_t)(n) >> 32))
#endif
#ifndef container_of
/* The structure of type @type whose member @member is at @ptr. */
#define container_of(ptr, type, member) \
	((type *)(void *)((char *)(ptr) - __builtin_offsetof(type, member)))
#endif

/* Through the library, which may return a word as it was before a device
 * write when a read barrier is missing (dmaemu_cpu_read_once()). */
static inline __attribute__((always_inline)) void __read_once_size(
	const volatile void *p, void *res, int size)
{
	dmaemu_cpu_read_once(p, res, (size_t)size);
}

static inline __attribute__((always_inline)) void __write_once_size(
	volatile void *p, void *res, int size)
{
	int i;

#ifndef DMAEMU_INSTRUMENTED
	dmaemu_cpu_access(p, (size_t)size, 1);
#endif
	switch (size) {
	case 1:
		__atomic_store_n((volatile uint8_t *)p, *(uint8_t *)res,
				 __ATOMIC_RELAXED);
		break;
	case 2:
		__atomic_store_n((volatile uint16_t *)p, *(uint16_t *)res,
				 __ATOMIC_RELAXED);
		break;
	case 4:
		__atomic_store_n((volatile uint32_t *)p, *(uint32_t *)res,
				 __ATOMIC_RELAXED);
		break;
	case 8:
		__atomic_store_n((volatile uint64_t *)p, *(uint64_t *)res,
				 __ATOMIC_RELAXED);
		break;
	default:
		/* Byte by byte, each store checked: GCC's instrumentation
		 * would not check a __builtin_memcpy() it expands inline. */
		barrier();
		for (i = 0; i < size; i++)
			((volatile char *)p)[i] = ((const char *)res)[i];
		barrier();
	}
}

/* A const object is read through the char view of the union. */
#define READ_ONCE(x)                                        \
	__extension__({                                     \
		union {                                     \
			__typeof__(x) __val;                \
			char __c[1];                        \
		} __u;                                      \
		__read_once_size(&(x), __u.__c, sizeof(x)); \
		__u.__val;                                  \
	})

#define WRITE_ONCE(x, val)                                   \
	__extension__({                                      \
		union {                                      \
			__typeof__(x) __val;                 \
			char __c[1];                         \
		} __u = {.__val = (__typeof__(x))(val)};     \
		__write_once_size(&(x), __u.__c, sizeof(x)); \
		__u.__val;                                   \
	})

/*
 * As in the kernel, the barriers come with this header (the kernel's
 * READ_ONCE() needs them); <asm/barrier.h> includes this one first.
 */
#include <asm/barrier.h>

#ifndef __always_inline
#define __always_inline inline __attribute__((always_inline))
#endif
#ifndef __maybe_unused
#define __maybe_unused __attribute__((unused))
#endif
#ifndef __always_unused
#define __always_unused __attribute__((unused))
#endif
#ifndef __packed
#define __packed __attribute__((packed))
#endif
#ifndef __aligned
#define __aligned(x) __attribute__((aligned(x)))
#endif
#ifndef __must_check
#define __must_check __attribute__((warn_unused_result))
#endif
#ifndef __printf
#define __printf(a, b) __attribute__((format(printf, a, b)))
#endif
#ifndef __weak
#define __weak __attribute__((weak))
#endif
#ifndef __noreturn
#define __noreturn __attribute__((noreturn))
#endif
#ifndef __pure
#define __pure __attribute__((pure))
#endif
#ifndef __cold
#define __cold __attribute__((cold))
#endif
#ifndef __force
#define __force
#endif
#ifndef __user
#define __user
#endif
#ifndef __iomem
#define __iomem
#endif
#ifndef __rcu
#define __rcu
#endif
#ifndef __percpu
#define __percpu
#endif
#ifndef __must_hold
#define __must_hold(x)
#define __acquires(x)
#define __releases(x)
#define __acquire(x) (void)0
#define __release(x) (void)0
#endif
#ifndef __cond_lock
#define __cond_lock(x, c) (c)
#endif
#ifndef __section
#define __section(s) __attribute__((section(#s)))
#endif
#ifndef unreachable
#define unreachable() __builtin_unreachable()
#endif
#ifndef ACCESS_ONCE
#define ACCESS_ONCE(x) (*(volatile __typeof__(x) *)&(x))
#endif
#ifndef __same_type
#define __same_type(a, b) \
	__builtin_types_compatible_p(__typeof__(a), __typeof__(b))
#endif
#ifndef OPTIMIZER_HIDE_VAR
#define OPTIMIZER_HIDE_VAR(var) __asm__("" : "=r"(var) : "0"(var))
#endif

#endif
