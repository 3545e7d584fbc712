/* SPDX-License-Identifier: MIT */
/*
 * <linux/mm_types.h> - struct page, one per page of emulated DRAM.
 *
 * The array of struct page of each bank lives in host memory outside the
 * emulated DRAM, so neither driver code nor a device can corrupt it.
 * physmem.c fills @phys and @bank once; page_alloc.c and slab.c own the
 * other fields, under the allocator locks.
 */
#ifndef DMAEMU_KERNEL_LINUX_MM_TYPES_H
#define DMAEMU_KERNEL_LINUX_MM_TYPES_H

#include <stdint.h>

typedef uint64_t phys_addr_t;

struct page {
	unsigned long flags; /* allocator state bits (lib/mm.h) */
	unsigned int order;  /* buddy order of a free or allocated head page */
	int refcount;	     /* 1 on the head of a live allocation, else 0 */
	uint64_t phys;	     /* physical address of the page */
	void *bank;	     /* the struct dmaemu_bank holding it */
	struct page *next, *prev; /* free-list links */
	void *priv;		  /* kmalloc: the slab or large allocation */
};

#endif
