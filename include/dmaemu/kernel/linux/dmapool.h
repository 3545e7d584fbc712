/* SPDX-License-Identifier: MIT */
/*
 * <linux/dmapool.h> - pools of small coherent DMA blocks.
 *
 * A pool carves fixed-size blocks out of coherent allocations with the
 * kernel's rules: @align must be a power of two (0 means 1); @size must be
 * nonzero, becomes at least 4 and is rounded up to @align; each allocation
 * is max(@size, PAGE_SIZE) bytes; @boundary must be 0 (the allocation
 * size) or a power of two no smaller than @size, and no block crosses a
 * @boundary.  Freed blocks are poisoned; a block written after free or
 * freed twice is reported.
 */
#ifndef DMAEMU_KERNEL_LINUX_DMAPOOL_H
#define DMAEMU_KERNEL_LINUX_DMAPOOL_H

#include <dmaemu/ktypes.h>
#include <linux/device.h>
#include <linux/gfp.h>

#ifdef __cplusplus
extern "C" {
#endif

struct dma_pool;

/**
 * dma_pool_create() - a pool of @size-byte blocks for @dev.
 * Return: the pool, or NULL (bad size/align/boundary, out of memory).
 */
struct dma_pool *dma_pool_create(const char *name, struct device *dev,
				 size_t size, size_t align, size_t boundary);

/** dma_pool_destroy() - free the pool; blocks still in use are reported. */
void dma_pool_destroy(struct dma_pool *pool);

/** dma_pool_alloc() - a block; its bus address goes to @handle. */
void *dma_pool_alloc(struct dma_pool *pool, gfp_t mem_flags,
		     dma_addr_t *handle);

/** dma_pool_zalloc() - a zeroed block. */
void *dma_pool_zalloc(struct dma_pool *pool, gfp_t mem_flags,
		      dma_addr_t *handle);

/** dma_pool_free() - give back a block (@addr and @dma must match). */
void dma_pool_free(struct dma_pool *pool, void *vaddr, dma_addr_t dma);

/** dmam_pool_create() - a pool destroyed with the device. */
struct dma_pool *dmam_pool_create(const char *name, struct device *dev,
				  size_t size, size_t align, size_t allocation);

/** dmam_pool_destroy() - destroy a managed pool now. */
void dmam_pool_destroy(struct dma_pool *pool);

#ifdef __cplusplus
}
#endif

/* What Linux 4.14's include chain brings with this header (docs/kernel-headers.md). */
#include <linux/io.h>
#include <linux/scatterlist.h>

#endif
