/* SPDX-License-Identifier: MIT */
/*
 * <linux/gfp.h> - GFP flags and the page allocator, Linux 4.14 level.
 *
 * The bit values are those of Linux 4.14 (with CONFIG_LOCKDEP, so that
 * __GFP_NOLOCKDEP has a bit), so a flags value printed by a kernel and by
 * dmaemu reads the same.  GFP_TEMPORARY, removed in 4.14, is a compile-time
 * error that names its replacement.
 *
 * Which flags the emulated allocator honours, and how, is described in
 * docs/memory.md; flags print by name with dmaemu_gfp_format().
 */
#ifndef DMAEMU_KERNEL_LINUX_GFP_H
#define DMAEMU_KERNEL_LINUX_GFP_H

#include <stdbool.h>
#include <stddef.h>

#include <dmaemu/level.h>
#include <linux/err.h>
#include <linux/mm_types.h>
#include <linux/mmzone.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef unsigned int gfp_t;

/* Plain integer bits; use the __GFP_ and GFP_ names below. */
#define ___GFP_DMA 0x01u
#define ___GFP_HIGHMEM 0x02u
#define ___GFP_DMA32 0x04u
#define ___GFP_MOVABLE 0x08u
#define ___GFP_RECLAIMABLE 0x10u
#define ___GFP_HIGH 0x20u
#define ___GFP_IO 0x40u
#define ___GFP_FS 0x80u
#define ___GFP_COLD 0x100u
#define ___GFP_NOWARN 0x200u
#define ___GFP_RETRY_MAYFAIL 0x400u
#define ___GFP_NOFAIL 0x800u
#define ___GFP_NORETRY 0x1000u
#define ___GFP_MEMALLOC 0x2000u
#define ___GFP_COMP 0x4000u
#define ___GFP_ZERO 0x8000u
#define ___GFP_NOMEMALLOC 0x10000u
#define ___GFP_HARDWALL 0x20000u
#define ___GFP_THISNODE 0x40000u
#define ___GFP_ATOMIC 0x80000u
#define ___GFP_ACCOUNT 0x100000u
#define ___GFP_NOTRACK 0x200000u
#define ___GFP_DIRECT_RECLAIM 0x400000u
#define ___GFP_WRITE 0x800000u
#define ___GFP_KSWAPD_RECLAIM 0x1000000u
#define ___GFP_NOLOCKDEP 0x2000000u

/* Zone modifiers: the zone an allocation may come from (and below). */
#define __GFP_DMA ((gfp_t)___GFP_DMA)
#define __GFP_HIGHMEM ((gfp_t)___GFP_HIGHMEM)
#define __GFP_DMA32 ((gfp_t)___GFP_DMA32)
#define __GFP_MOVABLE ((gfp_t)___GFP_MOVABLE)
#define GFP_ZONEMASK (__GFP_DMA | __GFP_HIGHMEM | __GFP_DMA32 | __GFP_MOVABLE)

/* Mobility and placement hints. */
#define __GFP_RECLAIMABLE ((gfp_t)___GFP_RECLAIMABLE)
#define __GFP_WRITE ((gfp_t)___GFP_WRITE)
#define __GFP_HARDWALL ((gfp_t)___GFP_HARDWALL)
#define __GFP_THISNODE ((gfp_t)___GFP_THISNODE)
#define __GFP_ACCOUNT ((gfp_t)___GFP_ACCOUNT)

/* Watermark modifiers: access to the reserves. */
#define __GFP_ATOMIC ((gfp_t)___GFP_ATOMIC)
#define __GFP_HIGH ((gfp_t)___GFP_HIGH)
#define __GFP_MEMALLOC ((gfp_t)___GFP_MEMALLOC)
#define __GFP_NOMEMALLOC ((gfp_t)___GFP_NOMEMALLOC)

/* Reclaim modifiers. */
#define __GFP_IO ((gfp_t)___GFP_IO)
#define __GFP_FS ((gfp_t)___GFP_FS)
#define __GFP_DIRECT_RECLAIM ((gfp_t)___GFP_DIRECT_RECLAIM)
#define __GFP_KSWAPD_RECLAIM ((gfp_t)___GFP_KSWAPD_RECLAIM)
#define __GFP_RECLAIM ((gfp_t)(___GFP_DIRECT_RECLAIM | ___GFP_KSWAPD_RECLAIM))
#define __GFP_RETRY_MAYFAIL ((gfp_t)___GFP_RETRY_MAYFAIL)
#define __GFP_NOFAIL ((gfp_t)___GFP_NOFAIL)
#define __GFP_NORETRY ((gfp_t)___GFP_NORETRY)

/* Action modifiers. */
#define __GFP_COLD ((gfp_t)___GFP_COLD)
#define __GFP_NOWARN ((gfp_t)___GFP_NOWARN)
#define __GFP_COMP ((gfp_t)___GFP_COMP)
#define __GFP_ZERO ((gfp_t)___GFP_ZERO)
#define __GFP_NOTRACK ((gfp_t)___GFP_NOTRACK)
#define __GFP_NOTRACK_FALSE_POSITIVE (__GFP_NOTRACK)
#define __GFP_NOLOCKDEP ((gfp_t)___GFP_NOLOCKDEP)

#define __GFP_BITS_SHIFT 26
#define __GFP_BITS_MASK ((gfp_t)((1u << __GFP_BITS_SHIFT) - 1))

/* The combinations drivers use. */
#define GFP_ATOMIC (__GFP_HIGH | __GFP_ATOMIC | __GFP_KSWAPD_RECLAIM)
#define GFP_KERNEL (__GFP_RECLAIM | __GFP_IO | __GFP_FS)
#define GFP_KERNEL_ACCOUNT (GFP_KERNEL | __GFP_ACCOUNT)
#define GFP_NOWAIT (__GFP_KSWAPD_RECLAIM)
#define GFP_NOIO (__GFP_RECLAIM)
#define GFP_NOFS (__GFP_RECLAIM | __GFP_IO)
#define GFP_USER (__GFP_RECLAIM | __GFP_IO | __GFP_FS | __GFP_HARDWALL)
#define GFP_DMA __GFP_DMA
#define GFP_DMA32 __GFP_DMA32
#define GFP_HIGHUSER (GFP_USER | __GFP_HIGHMEM)
#define GFP_HIGHUSER_MOVABLE (GFP_HIGHUSER | __GFP_MOVABLE)
#define GFP_TRANSHUGE_LIGHT                                      \
	((GFP_HIGHUSER_MOVABLE | __GFP_COMP | __GFP_NOMEMALLOC | \
	  __GFP_NOWARN) &                                        \
	 ~__GFP_RECLAIM)
#define GFP_TRANSHUGE (GFP_TRANSHUGE_LIGHT | __GFP_DIRECT_RECLAIM)

/*
 * GFP_TEMPORARY (GFP_KERNEL | __GFP_RECLAIMABLE until 4.13) was removed in
 * Linux 4.14 because nobody could say what "temporary" meant.  Any use is
 * a compile error naming the replacement, at both API levels (4.14, 6.12); cocci/gfp_temporary.cocci makes
 * the change treewide.  The pragma fires while preprocessing, so it works
 * at any optimisation level, at file scope and inside other macros, with
 * GCC and Clang alike.
 */
/* clang-format off */
#define GFP_TEMPORARY \
	(_Pragma("GCC error \"GFP_TEMPORARY was removed in Linux 4.14: use GFP_KERNEL\"") \
	 GFP_KERNEL)
/* clang-format on */

/* Mobility grouping: the migrate type an allocation's pages are given. */
#define GFP_MOVABLE_MASK (__GFP_RECLAIMABLE | __GFP_MOVABLE)
#define GFP_MOVABLE_SHIFT 3

/**
 * gfpflags_to_migratetype() - the migrate type of an allocation.
 * @gfp_flags: its GFP flags; __GFP_MOVABLE and __GFP_RECLAIMABLE together
 *             are invalid (the allocator rejects them).
 */
static inline int gfpflags_to_migratetype(const gfp_t gfp_flags)
{
	return (int)((gfp_flags & GFP_MOVABLE_MASK) >> GFP_MOVABLE_SHIFT);
}

/**
 * gfpflags_allow_blocking() - may an allocation with @gfp_flags sleep?
 *
 * Only __GFP_DIRECT_RECLAIM makes an allocation sleep; one that may sleep
 * must not be made in atomic context (a sleep-in-atomic report).
 */
static inline bool gfpflags_allow_blocking(const gfp_t gfp_flags)
{
	return !!(gfp_flags & __GFP_DIRECT_RECLAIM);
}

/**
 * gfp_zone() - the highest zone an allocation with @flags may use.
 *
 * __GFP_DMA and __GFP_DMA32 together are invalid (the allocator rejects
 * them); __GFP_HIGHMEM and __GFP_MOVABLE mean ZONE_NORMAL on a 64-bit
 * machine.
 */
static inline enum zone_type gfp_zone(gfp_t flags)
{
	if (flags & __GFP_DMA)
		return ZONE_DMA;
	if (flags & __GFP_DMA32)
		return ZONE_DMA32;
	return ZONE_NORMAL;
}

/*
 * The page allocator.  Pages come from the current machine
 * (dmaemu_machine_current()); frees find the machine from the page or
 * address.  Failures return NULL (or 0) and, unless __GFP_NOWARN, make an
 * alloc-failure report naming the order and the flags.  Freeing something
 * that is not a live allocation of that order is a bad-free report.
 */

/** alloc_pages() - 2^@order physically contiguous pages, or NULL. */
struct page *alloc_pages(gfp_t gfp_mask, unsigned int order);
/** alloc_pages_node() - alloc_pages(); there is one node. */
struct page *alloc_pages_node(int nid, gfp_t gfp_mask, unsigned int order);
/** __get_free_pages() - like alloc_pages(), returning the linear address. */
unsigned long __get_free_pages(gfp_t gfp_mask, unsigned int order);
/** get_zeroed_page() - one zeroed page's linear address, or 0. */
unsigned long get_zeroed_page(gfp_t gfp_mask);
/** __free_pages() - free what alloc_pages(..., @order) returned. */
void __free_pages(struct page *page, unsigned int order);
/**
 * free_pages() - free what __get_free_pages(..., @order) returned.
 * @addr: the linear address; 0 is ignored.
 * @order: the order it was allocated with.
 */
void free_pages(unsigned long addr, unsigned int order);
/**
 * alloc_pages_exact() - @size bytes of contiguous pages; the pages past
 * @size are given back, and each page kept is freed alone or together by
 * free_pages_exact().
 */
void *alloc_pages_exact(size_t size, gfp_t gfp_mask);
/** free_pages_exact() - free what alloc_pages_exact(@size) returned. */
void free_pages_exact(void *virt, size_t size);

#define alloc_page(gfp_mask) alloc_pages(gfp_mask, 0)
#define __get_free_page(gfp_mask) __get_free_pages((gfp_mask), 0)
#define __get_dma_pages(gfp_mask, order) \
	__get_free_pages((gfp_mask) | GFP_DMA, (order))
#define __free_page(page) __free_pages((page), 0)
#define free_page(addr) free_pages((addr), 0)

#ifdef __cplusplus
}
#endif

/* What Linux 4.14's include chain brings with this header (docs/kernel-headers.md). */
#include <linux/mm.h>

#endif
