/* SPDX-License-Identifier: MIT */
/*
 * backend.h - the contract between the dispatcher (mapping.c) and the
 * streaming backends (direct.c, swiotlb.c, iommu.c), as Linux's struct
 * dma_map_ops.  Only those four files include it: the rest of the layer
 * knows a backend by the struct dmaemu__dma_backend a record names
 * (dma.h), and no backend calls another's ops or symbols.
 *
 * What a backend does is the work of one mapping: its bus address, its
 * state (bounce slots, IOVA pages) and the cache maintenance of the memory
 * the device really touches (arch.c).  What it does not do is the
 * dispatcher's: validating arguments, choosing the backend, recording the
 * mapping, moving ownership.
 *
 * Optional slots are NULL when the backend has nothing to do there; the
 * dispatcher checks each at its call site (no empty stubs).  A property
 * the dispatcher needs is a slot or a field here, never a comparison with
 * one of the tables, so a new backend needs no dispatcher edit beyond
 * choose_ops().
 */
#ifndef DMAEMU_LIB_DMA_BACKEND_H
#define DMAEMU_LIB_DMA_BACKEND_H

#include <stddef.h>

#include "dma/dma.h"

/**
 * struct dmaemu__dma_ops - one backend.  All addresses are physical (the
 * dispatcher converted CPU addresses); every op is called without machine
 * locks held and takes what it needs.  @m is @dev's machine, which the
 * dispatcher has already looked up and checked.
 * @id:              what records name (dma.h); first, so a record's
 *                   backend leads back to its ops (dmaemu__dma_ops_of()).
 * @map:             map [@phys, @phys + @size) for @dir; does the cache
 *                   maintenance for the device unless @attrs has
 *                   SKIP_CPU_SYNC.  Return: bus address, or
 *                   DMA_MAPPING_ERROR (nothing mapped; the backend has
 *                   reported why if it was not plain exhaustion with
 *                   NO_WARN).
 * @unmap:           optional: undo @map; cache maintenance for the CPU
 *                   unless SKIP_CPU_SYNC.  @phys is the recorded physical
 *                   address.
 * @sync_for_cpu, @sync_for_device: optional: ownership transfers of
 *                   [@addr, +@size) inside a mapping whose start is
 *                   @map_addr / @map_phys.
 * @map_sg:          map a list; fills dma_address/dma_length of the first
 *                   N entries and returns N (0 on failure, nothing left
 *                   mapped).
 * @unmap_sg:        optional: undo @map_sg given the same @nents.
 * @map_resource:    optional: map an MMIO range (no cache maintenance).
 *                   NULL: the bus address is the physical one plus
 *                   dma_offset and the backend keeps no state, as Linux's
 *                   dma_map_resource() does without the op.
 * @unmap_resource:  optional: undo @map_resource.
 * @iova_to_phys:    optional: the physical address behind bus address
 *                   @addr of a live mapping, or UINT64_MAX.  Set by a
 *                   backend that remaps (may merge scatterlist entries
 *                   into segments that are not physically contiguous);
 *                   NULL: segment i of a scatterlist is entry i.
 */
struct dmaemu__dma_ops {
	struct dmaemu__dma_backend id;
	dma_addr_t (*map)(struct dmaemu_machine *m, struct device *dev,
			  uint64_t phys, size_t size, int dir,
			  unsigned long attrs);
	void (*unmap)(struct dmaemu_machine *m, struct device *dev,
		      dma_addr_t addr, uint64_t phys, size_t size, int dir,
		      unsigned long attrs);
	void (*sync_for_cpu)(struct dmaemu_machine *m, struct device *dev,
			     dma_addr_t map_addr, uint64_t map_phys,
			     dma_addr_t addr, size_t size, int dir);
	void (*sync_for_device)(struct dmaemu_machine *m, struct device *dev,
				dma_addr_t map_addr, uint64_t map_phys,
				dma_addr_t addr, size_t size, int dir);
	int (*map_sg)(struct dmaemu_machine *m, struct device *dev,
		      struct scatterlist *sg, int nents, int dir,
		      unsigned long attrs);
	void (*unmap_sg)(struct dmaemu_machine *m, struct device *dev,
			 struct scatterlist *sg, int nents, int dir,
			 unsigned long attrs);
	dma_addr_t (*map_resource)(struct dmaemu_machine *m, struct device *dev,
				   uint64_t phys, size_t size, int dir,
				   unsigned long attrs);
	void (*unmap_resource)(struct dmaemu_machine *m, struct device *dev,
			       dma_addr_t addr, size_t size, int dir,
			       unsigned long attrs);
	uint64_t (*iova_to_phys)(struct dmaemu_machine *m, struct device *dev,
				 dma_addr_t addr);
};

extern const struct dmaemu__dma_ops dmaemu__direct_ops;
extern const struct dmaemu__dma_ops dmaemu__swiotlb_ops;
extern const struct dmaemu__dma_ops dmaemu__iommu_ops;

/* The ops of the backend a record names (@b is the @id of one of the
 * tables above). */
static inline const struct dmaemu__dma_ops *dmaemu__dma_ops_of(
	const struct dmaemu__dma_backend *b)
{
	return (const struct dmaemu__dma_ops *)((const char *)b -
						offsetof(struct dmaemu__dma_ops,
							 id));
}

#endif /* DMAEMU_LIB_DMA_BACKEND_H */
