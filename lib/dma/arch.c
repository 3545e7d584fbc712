// SPDX-License-Identifier: MIT
/*
 * arch.c - the architecture's cache maintenance for streaming DMA: what
 * every backend does to the memory the device really touches (the buffer
 * itself, or the bounce slot), by profile, as Linux 4.14 does it:
 *
 *   profile  map / sync_for_device          unmap / sync_for_cpu
 *   arm      FROM_DEVICE: inv_range,        not TO_DEVICE: inv_range
 *            others: clean                  (v7_dma_unmap_area)
 *            (v7_dma_map_area, cache-v7.S)
 *   arm64    FROM_DEVICE: inv_range,        not TO_DEVICE: inv_range
 *            others: clean                  (__dma_unmap_area)
 *            (__dma_map_area, cache.S);
 *            map_policy=5.19: always clean
 *   x86      -                              - (devices snoop)
 *
 * inv_range is v7_dma_inv_range's and __dma_inv_area's rule: the lines
 * wholly inside the range are invalidated; a first or last line the range
 * covers only in part is cleaned and invalidated (dc civac), because it may
 * hold the CPU's data of a neighbour.  That write-back is what makes the
 * cache-line-sharing bug visible on hardware: it writes the CPU's stale
 * copy of the shared line over the device's bytes in it, a lost device
 * write (reported by the memory layer), while the CPU keeps its field.
 *
 * map_policy=5.19 is what arm64 does since Linux 5.19 (commit "arm64: mm:
 * Don't invalidate FROM_DEVICE buffers at start of DMA transfer"): map
 * cleans for every direction, so that a device that writes only part of a
 * FROM_DEVICE buffer leaves the rest as the CPU last wrote it, instead of
 * whatever stale data DRAM held below invalidated lines.
 *
 * Like Linux's arch_sync_dma_for_{device,cpu}, this is not a backend: the
 * backends call it, and it calls only the memory layer's line operations.
 */
#include "config.h"

#include "dma/dma.h"

__thread struct dmaemu__maint dmaemu__maint_acc;

/*
 * v7_dma_inv_range / __dma_inv_area: whole lines inside the range are
 * invalidated, a partly covered first or last line is cleaned and
 * invalidated.
 */
static void inv_range(struct dmaemu_machine *m, uint64_t phys, size_t size)
{
	uint64_t lmask = (uint64_t)m->line - 1;
	uint64_t start = phys, end = phys + size;

	if (start & lmask) {
		dmaemu__range_clean_invalidate(m, start & ~lmask, m->line);
		start = (start | lmask) + 1;
	}
	if (start >= end)
		return;
	if (end & lmask) {
		dmaemu__range_clean_invalidate(m, end & ~lmask, m->line);
		end &= ~lmask;
	}
	if (start < end)
		dmaemu__range_invalidate(m, start, end - start);
}

/**
 * dmaemu__arch_sync_for_device() - cache maintenance before the device
 * owns [@phys, @phys + @size) (map, sync_for_device).
 * @m:    machine.
 * @dev:  the device (its statistics count the bytes cleaned or
 *        invalidated: a partly covered edge line of an invalidate is
 *        counted as invalidated, though it is cleaned first).
 * @phys: first byte (DRAM).
 * @size: bytes.
 * @dir:  DMA direction of the mapping.
 */
void dmaemu__arch_sync_for_device(struct dmaemu_machine *m, struct device *dev,
				  uint64_t phys, size_t size, int dir)
{
	if (!size)
		return;
	switch (m->opt.profile) {
	case DMAEMU__PROFILE_ARM:
	case DMAEMU__PROFILE_ARM64:
		if (dir == DMAEMU__DIR_FROM_DEVICE && !m->opt.map_clean) {
			inv_range(m, phys, size);
			DMAEMU__STAT_ADD(dmaemu__dev_stats(dev),
					 bytes_invalidated, size);
			dmaemu__maint_acc.invalidated += size;
		} else {
			dmaemu__range_clean(m, phys, size);
			DMAEMU__STAT_ADD(dmaemu__dev_stats(dev), bytes_cleaned,
					 size);
			dmaemu__maint_acc.cleaned += size;
		}
		break;
	case DMAEMU__PROFILE_X86:
		break;
	}
}

/* kmalloc_size_roundup() with ARCH_KMALLOC_MINALIGN 8: the caches 8, 16,
 * 32, 64, 96, 128, 192, then powers of two. */
static size_t kmalloc_roundup(size_t size)
{
	static const size_t small[] = {8, 16, 32, 64, 96, 128, 192};
	size_t r = 256;
	unsigned int i;

	for (i = 0; i < sizeof(small) / sizeof(small[0]); i++)
		if (size <= small[i])
			return small[i];
	while (r < size)
		r <<= 1;
	return r;
}

/**
 * dmaemu__dma_kmalloc_needs_bounce() - must a streaming map of @size bytes
 * in direction @dir be bounced through swiotlb on @m?
 *
 * Linux 6.5's dma_kmalloc_needs_bounce() (include/linux/dma-map-ops.h),
 * with CONFIG_DMA_BOUNCE_UNALIGNED_KMALLOC, which arm64 selects: since
 * kmalloc() aligns only to ARCH_KMALLOC_MINALIGN (8), a mapping of a
 * non-coherent device that is not DMA_TO_DEVICE (dma_kmalloc_safe()) and
 * whose size is below 2 * ARCH_DMA_MINALIGN and does not round up to a
 * kmalloc size aligned to dma_get_cache_alignment()
 * (dma_kmalloc_size_aligned()) may share a cache line with another
 * object, and is bounced.  As in 6.12, the size decides, not where the
 * buffer comes from.  Only at kernel=6.12 on arm64.
 */
bool dmaemu__dma_kmalloc_needs_bounce(struct dmaemu_machine *m, size_t size,
				      int dir)
{
	size_t align = m->opt.dma_minalign;

	if (!m->opt.k612 || m->opt.profile != DMAEMU__PROFILE_ARM64 ||
	    dir == DMAEMU__DIR_TO_DEVICE)
		return false;
	if (size >= 2 * align)
		return false;
	return kmalloc_roundup(size) % align != 0;
}

/**
 * dmaemu__arch_sync_for_cpu() - cache maintenance before the CPU takes
 * [@phys, @phys + @size) back (unmap, sync_for_cpu).
 * @m:    machine.
 * @dev:  the device (statistics).
 * @phys: first byte (DRAM).
 * @size: bytes.
 * @dir:  DMA direction of the mapping.
 */
void dmaemu__arch_sync_for_cpu(struct dmaemu_machine *m, struct device *dev,
			       uint64_t phys, size_t size, int dir)
{
	if (!size || dir == DMAEMU__DIR_TO_DEVICE)
		return;
	switch (m->opt.profile) {
	case DMAEMU__PROFILE_ARM:
	case DMAEMU__PROFILE_ARM64:
		DMAEMU__STAT_ADD(dmaemu__dev_stats(dev), bytes_invalidated,
				 size);
		dmaemu__maint_acc.invalidated += size;
		inv_range(m, phys, size);
		break;
	case DMAEMU__PROFILE_X86:
		break;
	}
}
