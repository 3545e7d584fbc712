// SPDX-License-Identifier: MIT
/*
 * direct.c - the direct backend (bus address = physical address +
 * dma_offset).
 *
 * How it works.  A direct mapping needs no state: the bus address is the
 * physical one plus the machine's fixed dma_offset, so unmap and the syncs
 * recompute the physical range from the recorded start.  What the backend
 * does is the cache maintenance of the profile (arch.c), on the buffer
 * itself.  DMA_ATTR_SKIP_CPU_SYNC skips the maintenance of map and unmap
 * only; syncs always do theirs.
 *
 * The device side is the bus's (bus/translate.c): without an IOMMU a bus
 * address is a physical one plus dma_offset.  MMIO resources need no op:
 * the dispatcher gives them the same bus address and nothing is kept.
 */
#include "config.h"

#include <errno.h>

#include <linux/dma-mapping.h>
#include <linux/scatterlist.h>

#include "dma/backend.h"

static dma_addr_t direct_map(struct dmaemu_machine *m, struct device *dev,
			     uint64_t phys, size_t size, int dir,
			     unsigned long attrs)
{
	if (!(attrs & DMA_ATTR_SKIP_CPU_SYNC))
		dmaemu__arch_sync_for_device(m, dev, phys, size, dir);
	return phys + m->opt.dma_offset;
}

static void direct_unmap(struct dmaemu_machine *m, struct device *dev,
			 dma_addr_t addr, uint64_t phys, size_t size, int dir,
			 unsigned long attrs)
{
	if (!(attrs & DMA_ATTR_SKIP_CPU_SYNC))
		dmaemu__arch_sync_for_cpu(m, dev, phys, size, dir);
}

static void direct_sync_for_cpu(struct dmaemu_machine *m, struct device *dev,
				dma_addr_t map_addr, uint64_t map_phys,
				dma_addr_t addr, size_t size, int dir)
{
	dmaemu__arch_sync_for_cpu(m, dev, map_phys + (addr - map_addr), size,
				  dir);
}

static void direct_sync_for_device(struct dmaemu_machine *m, struct device *dev,
				   dma_addr_t map_addr, uint64_t map_phys,
				   dma_addr_t addr, size_t size, int dir)
{
	dmaemu__arch_sync_for_device(m, dev, map_phys + (addr - map_addr), size,
				     dir);
}

/* Each entry is its own segment: a direct mapping never merges. */
static int direct_map_sg(struct dmaemu_machine *m, struct device *dev,
			 struct scatterlist *sgl, int nents, int dir,
			 unsigned long attrs)
{
	struct scatterlist *sg;
	int i;

	for_each_sg (sgl, sg, nents, i) {
		uint64_t phys = sg_phys(sg);

		sg->dma_address = phys + m->opt.dma_offset;
		sg->dma_length = sg->length;
		if (!(attrs & DMA_ATTR_SKIP_CPU_SYNC))
			dmaemu__arch_sync_for_device(m, dev, phys, sg->length,
						     dir);
	}
	return nents;
}

static void direct_unmap_sg(struct dmaemu_machine *m, struct device *dev,
			    struct scatterlist *sgl, int nents, int dir,
			    unsigned long attrs)
{
	struct scatterlist *sg;
	int i;

	if (attrs & DMA_ATTR_SKIP_CPU_SYNC)
		return;
	for_each_sg (sgl, sg, nents, i)
		dmaemu__arch_sync_for_cpu(m, dev, sg_phys(sg), sg->length, dir);
}

const struct dmaemu__dma_ops dmaemu__direct_ops = {
	.id = {.name = "direct"},
	.map = direct_map,
	.unmap = direct_unmap,
	.sync_for_cpu = direct_sync_for_cpu,
	.sync_for_device = direct_sync_for_device,
	.map_sg = direct_map_sg,
	.unmap_sg = direct_unmap_sg,
};
