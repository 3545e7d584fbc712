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

#define atomic64_inc_and_test(v) (atomic64_add_return(1, v) == 0)

/* Add @a unless the value is @u.  Return: true if it added. */
static inline bool atomic_add_unless(atomic_t *v, int a, int u)
{
	int c = atomic_read(v);

	while (c != u) {
		int old = atomic_cmpxchg(v, c, c + a);

		if (old == c)
			return true;
		c = old;
	}
	return false;
}
#define atomic_inc_not_zero(v) atomic_add_unless((v), 1, 0)

static inline void atomic_or(int i, atomic_t *v)
{
	(void)__atomic_fetch_or(&v->counter, i, __ATOMIC_RELAXED);
}

static inline void atomic_and(int i, atomic_t *v)
{
	(void)__atomic_fetch_and(&v->counter, i, __ATOMIC_RELAXED);
}

/* atomic_long_t: a long, which is 64-bit on every profile's host. */
typedef atomic64_t atomic_long_t;
#define ATOMIC_LONG_INIT(i) ATOMIC64_INIT(i)
#define atomic_long_read(v) ((long)atomic64_read(v))
#define atomic_long_set(v, i) atomic64_set((v), (i))
#define atomic_long_add(i, v) atomic64_add((i), (v))
#define atomic_long_sub(i, v) atomic64_sub((i), (v))
#define atomic_long_inc(v) atomic64_inc(v)
#define atomic_long_dec(v) atomic64_dec(v)
#define atomic_long_add_return(i, v) ((long)atomic64_add_return((i), (v)))
#define atomic_long_sub_return(i, v) ((long)atomic64_sub_return((i), (v)))
#define atomic_long_inc_return(v) ((long)atomic64_inc_return(v))
#define atomic_long_dec_return(v) ((long)atomic64_dec_return(v))
#define atomic_long_xchg(v, i) ((long)atomic64_xchg((v), (i)))
#define atomic_long_cmpxchg(v, o, n) ((long)atomic64_cmpxchg((v), (o), (n)))

/* cmpxchg() and xchg() on a plain object, fully ordered. */
#define cmpxchg(ptr, o, n)                                             \
	__extension__({                                                \
		__typeof__(*(ptr)) __old = (o);                        \
		__atomic_compare_exchange_n((ptr), &__old, (n), false, \
					    __ATOMIC_SEQ_CST,          \
					    __ATOMIC_SEQ_CST);         \
		__old;                                                 \
	})
#define xchg(ptr, v) __atomic_exchange_n((ptr), (v), __ATOMIC_SEQ_CST)

#define smp_mb__before_atomic() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#define smp_mb__after_atomic() __atomic_thread_fence(__ATOMIC_SEQ_CST)

/* What Linux 4.14's include chain brings with this header (docs/kernel-headers.md). */
#include <asm/barrier.h>

#endif
