/* SPDX-License-Identifier: MIT */
/*
 * dma.h - the DMA layer of lib/: devices, the backend ops table, mapping
 * records.  Included by dmaemu-private.h only.
 *
 *   device.c       emulated devices, struct device, device-side DMA
 *                  (dmaemu_dma_read/write), dev_printk
 *   dma_mapping.c  the public DMA API: validate, choose the backend,
 *                  dispatch through its ops, record, then the debug hook
 *   dma_direct.c   direct backend (bus address = physical + offset) and
 *                  the per-profile cache maintenance every backend uses
 *   swiotlb.c      bounce-buffer backend
 *   iommu.c        IOMMU backend: IOVA space, page tables, faults
 *   dma_debug.c    the registry of live mappings and allocations, checks
 *   ownership.c    per-line ownership (CPU or device domain)
 *   dma_alloc.c    dma_alloc_attrs and the attributes, dmam_*, mmap,
 *                  get_sgtable
 *   dma_pool.c     dma_pool_*;  scatterlist.c  sg_* helpers
 *
 * Data flows one way: a public call validates its arguments, picks the
 * backend (IOMMU when the machine has one; otherwise swiotlb when forced or
 * when the buffer is beyond the device's mask; otherwise direct), calls the
 * backend's op, records the result in dma_debug.c, and moves ownership.
 * The backend named in the record serves the matching unmap and syncs; no
 * backend calls another's ops.
 */
#ifndef DMAEMU_LIB_DMA_H
#define DMAEMU_LIB_DMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <dmaemu/device.h>
#include <dmaemu/ktypes.h>

struct device;
struct dmaemu_machine;
struct scatterlist;

/* Directions, as the values of enum dma_data_direction. */
#define DMAEMU_DIR_BIDI 0
#define DMAEMU_DIR_TO_DEVICE 1
#define DMAEMU_DIR_FROM_DEVICE 2
#define DMAEMU_DIR_NONE 3

/**
 * struct dmaemu_dma_ops - one backend.  All addresses are physical (the
 * dispatcher converted CPU addresses); every op is called without machine
 * locks held and takes what it needs.
 * @name:        "direct", "swiotlb", "iommu" (reports, traces).
 * @map:         map [@phys, @phys + @size) for @dir; does the cache
 *               maintenance for the device unless @attrs has SKIP_CPU_SYNC.
 *               Return: bus address, or DMA_MAPPING_ERROR (0 ... nothing
 *               mapped; the backend has reported why if it was not plain
 *               exhaustion).
 * @unmap:       undo @map; cache maintenance for the CPU unless
 *               SKIP_CPU_SYNC.  @phys is the recorded physical address.
 * @sync_for_cpu, @sync_for_device: ownership transfers of [@addr, +@size)
 *               inside a mapping whose start is @map_addr / @map_phys.
 * @map_sg:      map a list; fills dma_address/dma_length of the first N
 *               entries and returns N (0 on failure, nothing left mapped).
 * @unmap_sg:    undo @map_sg given the same @nents.
 * @map_resource, @unmap_resource: MMIO ranges (no cache maintenance).
 * @translate:   device side: bus address → physical for a device access of
 *               @len bytes (@write: a write).  Sets *@phys and *@contig
 *               (bytes contiguous from there, <= @len).  Return: 0,
 *               -EFAULT (unmapped, outside DRAM) or -EPERM (permission),
 *               after reporting.
 */
struct dmaemu_dma_ops {
	const char *name;
	dma_addr_t (*map)(struct device *dev, uint64_t phys, size_t size,
			  int dir, unsigned long attrs);
	void (*unmap)(struct device *dev, dma_addr_t addr, uint64_t phys,
		      size_t size, int dir, unsigned long attrs);
	void (*sync_for_cpu)(struct device *dev, dma_addr_t map_addr,
			     uint64_t map_phys, dma_addr_t addr, size_t size,
			     int dir);
	void (*sync_for_device)(struct device *dev, dma_addr_t map_addr,
				uint64_t map_phys, dma_addr_t addr, size_t size,
				int dir);
	int (*map_sg)(struct device *dev, struct scatterlist *sg, int nents,
		      int dir, unsigned long attrs);
	void (*unmap_sg)(struct device *dev, struct scatterlist *sg, int nents,
			 int dir, unsigned long attrs);
	dma_addr_t (*map_resource)(struct device *dev, uint64_t phys,
				   size_t size, int dir, unsigned long attrs);
	void (*unmap_resource)(struct device *dev, dma_addr_t addr, size_t size,
			       int dir, unsigned long attrs);
	int (*translate)(struct device *dev, dma_addr_t addr, size_t len,
			 bool write, uint64_t *phys, size_t *contig);
};

extern const struct dmaemu_dma_ops dmaemu__direct_ops;
extern const struct dmaemu_dma_ops dmaemu__swiotlb_ops;
extern const struct dmaemu_dma_ops dmaemu__iommu_ops;

/*
 * Per-profile cache maintenance of a physical range (DESIGN.md §2, the
 * profile table), used by every backend for the memory the device really
 * touches (the buffer itself, or the bounce slot):
 *   arm:   for_device: FROM_DEVICE invalidates (partial edge lines
 *          clean+invalidate), others clean; for_cpu: not TO_DEVICE
 *          invalidates.
 *   arm64: for_device: always clean; for_cpu: not TO_DEVICE invalidates.
 *   x86:   nothing (devices snoop).
 * dma_direct.c.
 */
void dmaemu__arch_sync_for_device(struct dmaemu_machine *m, uint64_t phys,
				  size_t size, int dir);
void dmaemu__arch_sync_for_cpu(struct dmaemu_machine *m, uint64_t phys,
			       size_t size, int dir);

/* The machine and the emulated device of a struct device (NULL: foreign,
 * reported as bad-argument by the caller). */
struct dmaemu_machine *dmaemu__dev_machine(const struct device *dev);

/* ---------------------------------------------------------------------- */
/* Devices, dispatch, registry, ownership (device.c, dma_mapping.c,        */
/* dma_direct.c, dma_debug.c, ownership.c)                                 */
/* ---------------------------------------------------------------------- */

/* ---------------------------------------------------------------------- */
/* swiotlb.c, iommu.c                                                      */
/* ---------------------------------------------------------------------- */

/* ---------------------------------------------------------------------- */
/* dma_alloc.c, dma_pool.c, scatterlist.c, dma_mask.c                      */
/* ---------------------------------------------------------------------- */

#endif
