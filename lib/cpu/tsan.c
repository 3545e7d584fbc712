// SPDX-License-Identifier: MIT
/*
 * tsan.c - the entry points of GCC's thread-sanitizer instrumentation,
 * which is how driver code built with GCC reaches the model.
 *
 * Why not GCC's kernel-address instrumentation (kasan.c), as with Clang:
 * GCC checks a memory reference once per extended basic block, whatever
 * the kind of the access, and no flag turns that off; the load of a
 * read-modify-write (buf[i] ^= x, seq++, hdr->flags |= BIT(3)) is checked
 * and its store is not.  For a sanitizer of addresses that is enough (the
 * same bytes are valid for both); for dmaemu the store is what dirties
 * the line and what touches a buffer the device owns.  GCC's
 * thread-sanitizer instrumentation calls a function before every load and
 * every store, with no such merging, because a race detector needs them
 * all.  dmaemu-cc hands -fsanitize=thread to the compiler proper only
 * (-Wp,...: the driver never sees it, so no sanitizer runtime is linked)
 * with the function entry/exit calls turned off (docs/instrumentation.md
 * has the flags).
 *
 * What GCC emits, and what each does here:
 *
 *   __tsan_readN(addr), __tsan_writeN(addr)    N = 1, 2, 4, 8, 16: the hook
 *   __tsan_unaligned_readN, _writeN            the same, not known aligned
 *                                               (not from GCC 12, which
 *                                               checks a packed field as a
 *                                               range)
 *   __tsan_read_range(addr, size), _write_range   struct copies: the range
 *   __tsan_atomicN_load, _store, _exchange, _fetch_<op>,
 *   _compare_exchange_{strong,weak,val}        the hook, then the atomic
 *                                               operation itself (GCC
 *                                               leaves it to the runtime)
 *   __tsan_atomic_thread_fence, _signal_fence  the fence
 *   __tsan_init, __tsan_func_entry, _exit      nothing (no shadow state)
 *
 * An atomic read-modify-write is checked as one store, as GCC's and
 * Clang's kernel-address instrumentation check it, so the counts match.
 * The atomic operation is always made sequentially consistent: stronger
 * than any order the caller asked for, which is allowed.
 *
 * GCC checks no call of memcpy(), memset() and the like under this
 * instrumentation (TSan's runtime intercepts them), and expands a small
 * one inline, unchecked: the flags keep them calls (-fno-builtin-memcpy
 * ...), which --wrap routes to the model (memintrin.c).
 *
 * The access site is the return address of the entry point (cpu.h).  GCC
 * may turn a call that ends a function into a jump, which would make the
 * site the caller's caller: the flags turn sibling calls off.
 */
#include "config.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cpu/cpu.h"

/*
 * Not in a sanitizer build (--enable-sanitizer): these are the TSan
 * runtime's own names (kasan.c says why no hook can run there anyway).
 */
#ifndef DMAEMU_SANITIZER

#define HOOK __attribute__((aligned(64)))
#define SITE __builtin_return_address(0)
#define SC __ATOMIC_SEQ_CST

#define DECLARE_PLAIN(n)                 \
	void __tsan_read##n(void *addr); \
	void __tsan_write##n(void *addr)
#define DECLARE_UNALIGNED(n)                       \
	void __tsan_unaligned_read##n(void *addr); \
	void __tsan_unaligned_write##n(void *addr)
DECLARE_PLAIN(1);
DECLARE_PLAIN(2);
DECLARE_PLAIN(4);
DECLARE_PLAIN(8);
DECLARE_PLAIN(16);
DECLARE_UNALIGNED(2);
DECLARE_UNALIGNED(4);
DECLARE_UNALIGNED(8);
DECLARE_UNALIGNED(16);
void __tsan_read_range(void *addr, unsigned long size);
void __tsan_write_range(void *addr, unsigned long size);
void __tsan_init(void);
void __tsan_func_entry(void *caller);
void __tsan_func_exit(void);
void __tsan_atomic_thread_fence(int mo);
void __tsan_atomic_signal_fence(int mo);

#define DEFINE_PLAIN(n)                                      \
	HOOK void __tsan_read##n(void *addr)                 \
	{                                                    \
		dmaemu__cpu_hook((uintptr_t)addr, n, false); \
	}                                                    \
	HOOK void __tsan_write##n(void *addr)                \
	{                                                    \
		dmaemu__cpu_hook((uintptr_t)addr, n, true);  \
	}
#define DEFINE_UNALIGNED(n)                                  \
	HOOK void __tsan_unaligned_read##n(void *addr)       \
	{                                                    \
		dmaemu__cpu_hook((uintptr_t)addr, n, false); \
	}                                                    \
	HOOK void __tsan_unaligned_write##n(void *addr)      \
	{                                                    \
		dmaemu__cpu_hook((uintptr_t)addr, n, true);  \
	}

DEFINE_PLAIN(1)
DEFINE_PLAIN(2)
DEFINE_PLAIN(4)
DEFINE_PLAIN(8)
DEFINE_PLAIN(16)
DEFINE_UNALIGNED(2)
DEFINE_UNALIGNED(4)
DEFINE_UNALIGNED(8)
DEFINE_UNALIGNED(16)

/* Struct copies and other accesses of odd sizes. */
void __tsan_read_range(void *addr, unsigned long size)
{
	dmaemu__cpu_range_at(addr, size, false, SITE);
}

void __tsan_write_range(void *addr, unsigned long size)
{
	dmaemu__cpu_range_at(addr, size, true, SITE);
}

/*
 * The atomics, for each size: the hook, then the operation.  The memory
 * order arguments are accepted and strengthened to SEQ_CST.
 */
#define DEFINE_FETCH(n, t, op)                                       \
	t __tsan_atomic##n##_fetch_##op(volatile t *a, t v, int mo); \
	t __tsan_atomic##n##_fetch_##op(volatile t *a, t v, int mo)  \
	{                                                            \
		(void)mo;                                            \
		dmaemu__cpu_hook((uintptr_t)a, sizeof(t), true);     \
		return __atomic_fetch_##op(a, v, SC);                \
	}

#define DEFINE_ATOMICS(n, t)                                                   \
	t __tsan_atomic##n##_load(const volatile t *a, int mo);                \
	t __tsan_atomic##n##_load(const volatile t *a, int mo)                 \
	{                                                                      \
		(void)mo;                                                      \
		dmaemu__cpu_hook((uintptr_t)a, sizeof(t), false);              \
		return __atomic_load_n(a, SC);                                 \
	}                                                                      \
	void __tsan_atomic##n##_store(volatile t *a, t v, int mo);             \
	void __tsan_atomic##n##_store(volatile t *a, t v, int mo)              \
	{                                                                      \
		(void)mo;                                                      \
		dmaemu__cpu_hook((uintptr_t)a, sizeof(t), true);               \
		__atomic_store_n(a, v, SC);                                    \
	}                                                                      \
	t __tsan_atomic##n##_exchange(volatile t *a, t v, int mo);             \
	t __tsan_atomic##n##_exchange(volatile t *a, t v, int mo)              \
	{                                                                      \
		(void)mo;                                                      \
		dmaemu__cpu_hook((uintptr_t)a, sizeof(t), true);               \
		return __atomic_exchange_n(a, v, SC);                          \
	}                                                                      \
	DEFINE_FETCH(n, t, add)                                                \
	DEFINE_FETCH(n, t, sub)                                                \
	DEFINE_FETCH(n, t, and)                                                \
	DEFINE_FETCH(n, t, or)                                                 \
	DEFINE_FETCH(n, t, xor)                                                \
	DEFINE_FETCH(n, t, nand)                                               \
	int __tsan_atomic##n##_compare_exchange_strong(volatile t *a, t *c,    \
						       t v, int mo, int fmo);  \
	int __tsan_atomic##n##_compare_exchange_strong(volatile t *a, t *c,    \
						       t v, int mo, int fmo)   \
	{                                                                      \
		(void)mo;                                                      \
		(void)fmo;                                                     \
		dmaemu__cpu_hook((uintptr_t)a, sizeof(t), true);               \
		return __atomic_compare_exchange_n(a, c, v, false, SC, SC);    \
	}                                                                      \
	int __tsan_atomic##n##_compare_exchange_weak(volatile t *a, t *c, t v, \
						     int mo, int fmo);         \
	int __tsan_atomic##n##_compare_exchange_weak(volatile t *a, t *c, t v, \
						     int mo, int fmo)          \
	{                                                                      \
		(void)mo;                                                      \
		(void)fmo;                                                     \
		dmaemu__cpu_hook((uintptr_t)a, sizeof(t), true);               \
		return __atomic_compare_exchange_n(a, c, v, true, SC, SC);     \
	}                                                                      \
	t __tsan_atomic##n##_compare_exchange_val(volatile t *a, t c, t v,     \
						  int mo, int fmo);            \
	t __tsan_atomic##n##_compare_exchange_val(volatile t *a, t c, t v,     \
						  int mo, int fmo)             \
	{                                                                      \
		(void)mo;                                                      \
		(void)fmo;                                                     \
		dmaemu__cpu_hook((uintptr_t)a, sizeof(t), true);               \
		__atomic_compare_exchange_n(a, &c, v, false, SC, SC);          \
		return c;                                                      \
	}

DEFINE_ATOMICS(8, uint8_t)
DEFINE_ATOMICS(16, uint16_t)
DEFINE_ATOMICS(32, uint32_t)
DEFINE_ATOMICS(64, uint64_t)

void __tsan_atomic_thread_fence(int mo)
{
	(void)mo;
	__atomic_thread_fence(SC);
}

void __tsan_atomic_signal_fence(int mo)
{
	(void)mo;
	__atomic_signal_fence(SC);
}

/* TSan's runtime starts here and tracks call stacks; dmaemu has neither. */
void __tsan_init(void)
{
}

void __tsan_func_entry(void *caller)
{
	(void)caller;
}

void __tsan_func_exit(void)
{
}

#endif /* !DMAEMU_SANITIZER */
