/* SPDX-License-Identifier: MIT */
/*
 * mm.h - allocators of lib/ (GFP names, page allocator, kmalloc, context).
 * Included by dmaemu-private.h only.
 */
#ifndef DMAEMU_MM_H
#define DMAEMU_MM_H

struct dmaemu_machine;

/* page_alloc.c / slab.c: called by machine create/destroy. */
int dmaemu__palloc_init(struct dmaemu_machine *m);
void dmaemu__palloc_fini(struct dmaemu_machine *m);
int dmaemu__slab_init(struct dmaemu_machine *m);
void dmaemu__slab_fini(struct dmaemu_machine *m);

#endif
