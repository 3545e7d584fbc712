/* SPDX-License-Identifier: MIT */
/*
 * <linux/bitops.h> - operations on bits of unsigned long arrays, and bit
 * searches.
 *
 * set_bit(), clear_bit(), change_bit() and the test_and_ forms are atomic
 * (the compiler's __atomic builtins on the word that holds the bit); the
 * test_and_ forms are fully ordered, the others relaxed, as the kernel
 * documents.  The __ forms are plain read-modify-writes for data the
 * caller owns.  ffs() and fls() count from 1 and give 0 for 0; __ffs()
 * and __fls() count from 0 and are undefined for 0, as in the kernel.
 */
#ifndef DMAEMU_KERNEL_LINUX_BITOPS_H
#define DMAEMU_KERNEL_LINUX_BITOPS_H

#include <dmaemu/klevel.h>

#include <stdbool.h>
#include <strings.h>

#include <linux/bits.h>
#include <linux/types.h>

#define BITS_TO_LONGS(nr) (((nr) + BITS_PER_LONG - 1) / BITS_PER_LONG)
#if DMAEMU_KERNEL_LEVEL > 414 /* Linux 4.19's (<dmaemu/klevel.h>) */
#define BITS_PER_TYPE(type) (sizeof(type) * BITS_PER_BYTE)
#endif

static inline void set_bit(long nr, volatile unsigned long *addr)
{
	__atomic_fetch_or(addr + BIT_WORD(nr), BIT_MASK(nr), __ATOMIC_RELAXED);
}

static inline void clear_bit(long nr, volatile unsigned long *addr)
{
	__atomic_fetch_and(addr + BIT_WORD(nr), ~BIT_MASK(nr),
			   __ATOMIC_RELAXED);
}

static inline void change_bit(long nr, volatile unsigned long *addr)
{
	__atomic_fetch_xor(addr + BIT_WORD(nr), BIT_MASK(nr), __ATOMIC_RELAXED);
}

static inline int test_and_set_bit(long nr, volatile unsigned long *addr)
{
	return (__atomic_fetch_or(addr + BIT_WORD(nr), BIT_MASK(nr),
				  __ATOMIC_SEQ_CST) &
		BIT_MASK(nr)) != 0;
}

static inline int test_and_clear_bit(long nr, volatile unsigned long *addr)
{
	return (__atomic_fetch_and(addr + BIT_WORD(nr), ~BIT_MASK(nr),
				   __ATOMIC_SEQ_CST) &
		BIT_MASK(nr)) != 0;
}

static inline int test_and_change_bit(long nr, volatile unsigned long *addr)
{
	return (__atomic_fetch_xor(addr + BIT_WORD(nr), BIT_MASK(nr),
				   __ATOMIC_SEQ_CST) &
		BIT_MASK(nr)) != 0;
}

static inline int test_bit(long nr, const volatile unsigned long *addr)
{
	return (__atomic_load_n(addr + BIT_WORD(nr), __ATOMIC_RELAXED) >>
		(nr % BITS_PER_LONG)) &
	       1UL;
}

static inline void __set_bit(long nr, volatile unsigned long *addr)
{
	addr[BIT_WORD(nr)] |= BIT_MASK(nr);
}

static inline void __clear_bit(long nr, volatile unsigned long *addr)
{
	addr[BIT_WORD(nr)] &= ~BIT_MASK(nr);
}

static inline void __change_bit(long nr, volatile unsigned long *addr)
{
	addr[BIT_WORD(nr)] ^= BIT_MASK(nr);
}

static inline int __test_and_set_bit(long nr, volatile unsigned long *addr)
{
	unsigned long old = addr[BIT_WORD(nr)];

	addr[BIT_WORD(nr)] = old | BIT_MASK(nr);
	return (old & BIT_MASK(nr)) != 0;
}

static inline int __test_and_clear_bit(long nr, volatile unsigned long *addr)
{
	unsigned long old = addr[BIT_WORD(nr)];

	addr[BIT_WORD(nr)] = old & ~BIT_MASK(nr);
	return (old & BIT_MASK(nr)) != 0;
}

#define clear_bit_unlock(nr, addr)                       \
	do {                                             \
		__atomic_thread_fence(__ATOMIC_RELEASE); \
		clear_bit(nr, addr);                     \
	} while (0)
#define test_and_set_bit_lock(nr, addr) test_and_set_bit(nr, addr)

/* ffs(): 1 + the index of the least significant set bit, 0 for 0: the C
 * library's (<strings.h>), which is the kernel's. */

/* 1 + the index of the most significant set bit, 0 for 0. */
static inline int fls(unsigned int x)
{
	return x ? 32 - __builtin_clz(x) : 0;
}

static inline int fls64(u64 x)
{
	return x ? 64 - __builtin_clzll(x) : 0;
}

static inline int fls_long(unsigned long x)
{
	return x ? BITS_PER_LONG - __builtin_clzl(x) : 0;
}

/* Index of the least significant set bit; @word must not be 0. */
static inline unsigned long __ffs(unsigned long word)
{
	return (unsigned long)__builtin_ctzl(word);
}

/* Index of the most significant set bit; @word must not be 0. */
static inline unsigned long __fls(unsigned long word)
{
	return (unsigned long)(BITS_PER_LONG - 1 - __builtin_clzl(word));
}

static inline unsigned long ffz(unsigned long word)
{
	return __ffs(~word);
}

static inline unsigned int hweight8(unsigned int w)
{
	return (unsigned int)__builtin_popcount(w & 0xffu);
}

static inline unsigned int hweight16(unsigned int w)
{
	return (unsigned int)__builtin_popcount(w & 0xffffu);
}

static inline unsigned int hweight32(unsigned int w)
{
	return (unsigned int)__builtin_popcount(w);
}

static inline unsigned long hweight64(u64 w)
{
	return (unsigned long)__builtin_popcountll(w);
}

static inline unsigned long hweight_long(unsigned long w)
{
	return (unsigned long)__builtin_popcountl(w);
}

static inline u32 rol32(u32 word, unsigned int shift)
{
	return (word << (shift & 31)) | (word >> ((-shift) & 31));
}

static inline u32 ror32(u32 word, unsigned int shift)
{
	return (word >> (shift & 31)) | (word << ((-shift) & 31));
}

static inline int get_count_order(unsigned int count)
{
	int order = fls(count) - 1;

	if (count & (count - 1))
		order++;
	return order;
}

/*
 * The index of the first set (or zero) bit of the @size bits at @addr at
 * or after @offset; @size when there is none.
 */
static inline unsigned long find_next_bit(const unsigned long *addr,
					  unsigned long size,
					  unsigned long offset)
{
	unsigned long w;

	while (offset < size) {
		w = addr[BIT_WORD(offset)] >> (offset % BITS_PER_LONG);
		if (w) {
			offset += __ffs(w);
			return offset < size ? offset : size;
		}
		offset = (BIT_WORD(offset) + 1) * BITS_PER_LONG;
	}
	return size;
}

static inline unsigned long find_next_zero_bit(const unsigned long *addr,
					       unsigned long size,
					       unsigned long offset)
{
	unsigned long w;

	while (offset < size) {
		w = ~addr[BIT_WORD(offset)] >> (offset % BITS_PER_LONG);
		if (w) {
			offset += __ffs(w);
			return offset < size ? offset : size;
		}
		offset = (BIT_WORD(offset) + 1) * BITS_PER_LONG;
	}
	return size;
}

#define find_first_bit(addr, size) find_next_bit((addr), (size), 0)
#define find_first_zero_bit(addr, size) find_next_zero_bit((addr), (size), 0)

#define for_each_set_bit(bit, addr, size)                            \
	for ((bit) = find_first_bit((addr), (size)); (bit) < (size); \
	     (bit) = find_next_bit((addr), (size), (bit) + 1))
#define for_each_clear_bit(bit, addr, size)                               \
	for ((bit) = find_first_zero_bit((addr), (size)); (bit) < (size); \
	     (bit) = find_next_zero_bit((addr), (size), (bit) + 1))

#endif
