/* SPDX-License-Identifier: MIT */
/*
 * <linux/mm_types.h> - struct page, one per page of emulated DRAM.
 */
#ifndef DMAEMU_KERNEL_LINUX_MM_TYPES_H
#define DMAEMU_KERNEL_LINUX_MM_TYPES_H

#include <stdint.h>

struct page {
	unsigned long flags; /* PG_* bits */
	unsigned int order;  /* buddy order of a free or allocated head page */
	int refcount;
	uint64_t phys;		  /* physical address of the page */
	void *bank;		  /* the struct dmaemu_bank holding it */
	struct page *next, *prev; /* free-list links */
	void *priv;		  /* allocator private */
};

#endif
