/* SPDX-License-Identifier: MIT */
/*
 * <linux/atomic.h> - atomic_t and atomic64_t.
 *
 * The compiler's __atomic builtins: atomic_read()/atomic_set() are relaxed,
 * the read-modify-write operations that return a value are fully ordered
 * and those that return nothing are relaxed, as the kernel documents.
 * In instrumented code the compiler checks each atomic access like any
 * other, so an atomic_t in DMA memory goes through the cache model.
 */
#ifndef DMAEMU_KERNEL_LINUX_ATOMIC_H
#define DMAEMU_KERNEL_LINUX_ATOMIC_H

#include <stdbool.h>

#include <dmaemu/ktypes.h>

typedef struct {
	int counter;
} atomic_t;

typedef struct {
	s64 counter;
} atomic64_t;

#define ATOMIC_INIT(i) \
	{              \
		(i)    \
	}
#define ATOMIC64_INIT(i) \
	{                \
		(i)      \
	}

#define DMAEMU_ATOMIC_OPS(pfx, t, T)                                          \
	static inline T pfx##_read(const t *v)                                \
	{                                                                     \
		return __atomic_load_n(&v->counter, __ATOMIC_RELAXED);        \
	}                                                                     \
	static inline void pfx##_set(t *v, T i)                               \
	{                                                                     \
		__atomic_store_n(&v->counter, i, __ATOMIC_RELAXED);           \
	}                                                                     \
	static inline void pfx##_add(T i, t *v)                               \
	{                                                                     \
		(void)__atomic_fetch_add(&v->counter, i, __ATOMIC_RELAXED);   \
	}                                                                     \
	static inline void pfx##_sub(T i, t *v)                               \
	{                                                                     \
		(void)__atomic_fetch_sub(&v->counter, i, __ATOMIC_RELAXED);   \
	}                                                                     \
	static inline T pfx##_add_return(T i, t *v)                           \
	{                                                                     \
		return __atomic_add_fetch(&v->counter, i, __ATOMIC_SEQ_CST);  \
	}                                                                     \
	static inline T pfx##_sub_return(T i, t *v)                           \
	{                                                                     \
		return __atomic_sub_fetch(&v->counter, i, __ATOMIC_SEQ_CST);  \
	}                                                                     \
	static inline T pfx##_fetch_add(T i, t *v)                            \
	{                                                                     \
		return __atomic_fetch_add(&v->counter, i, __ATOMIC_SEQ_CST);  \
	}                                                                     \
	static inline T pfx##_xchg(t *v, T i)                                 \
	{                                                                     \
		return __atomic_exchange_n(&v->counter, i, __ATOMIC_SEQ_CST); \
	}                                                                     \
	static inline T pfx##_cmpxchg(t *v, T old, T new_)                    \
	{                                                                     \
		__atomic_compare_exchange_n(&v->counter, &old, new_, false,   \
					    __ATOMIC_SEQ_CST,                 \
					    __ATOMIC_SEQ_CST);                \
		return old;                                                   \
	}

DMAEMU_ATOMIC_OPS(atomic, atomic_t, int)
DMAEMU_ATOMIC_OPS(atomic64, atomic64_t, s64)
#undef DMAEMU_ATOMIC_OPS

#define atomic_inc(v) atomic_add(1, v)
#define atomic_dec(v) atomic_sub(1, v)
#define atomic_inc_return(v) atomic_add_return(1, v)
#define atomic_dec_return(v) atomic_sub_return(1, v)
#define atomic_inc_and_test(v) (atomic_add_return(1, v) == 0)
#define atomic_dec_and_test(v) (atomic_sub_return(1, v) == 0)
#define atomic_sub_and_test(i, v) (atomic_sub_return(i, v) == 0)
#define atomic64_inc(v) atomic64_add(1, v)
#define atomic64_dec(v) atomic64_sub(1, v)
#define atomic64_inc_return(v) atomic64_add_return(1, v)
#define atomic64_dec_return(v) atomic64_sub_return(1, v)
#define atomic64_dec_and_test(v) (atomic64_sub_return(1, v) == 0)

#endif
