// SPDX-License-Identifier: MIT
/*
 * arch.c - the architecture's cache maintenance for streaming DMA: what
 * every backend does to the memory the device really touches (the buffer
 * itself, or the bounce slot), by profile (DESIGN.md §2):
 *
 *   profile  map / sync_for_device           unmap / sync_for_cpu
 *   arm      FROM_DEVICE: invalidate, the     not TO_DEVICE: invalidate
 *            partial edge lines clean+inv.
 *            others: clean
 *   arm64    clean                            not TO_DEVICE: invalidate
 *   x86      -                                -
 *
 * arm's edge rule is v7_dma_inv_range's: a line the buffer only partly
 * covers may hold CPU data of a neighbour, which a plain invalidate would
 * throw away, so it is written back first.  The invalidates for the CPU
 * are plain ones: CPU-dirty bytes outside the buffer in an edge line are
 * lost there, and lineops.c reports them (lost-cpu-write), which is the
 * cache-line-sharing bug made visible.
 *
 * Like Linux's arch_sync_dma_for_{device,cpu}, this is not a backend: the
 * backends call it, and it calls only the memory layer's line operations.
 */
#include "config.h"

#include "dma/dma.h"

/*
 * arm's invalidate for the device: whole lines inside the range are
 * invalidated, a partly covered first or last line is cleaned and
 * invalidated.
 */
static void arm_inv_range(struct dmaemu_machine *m, uint64_t phys, size_t size)
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
 * @phys: first byte (DRAM).
 * @size: bytes.
 * @dir:  DMA direction of the mapping.
 */
void dmaemu__arch_sync_for_device(struct dmaemu_machine *m, uint64_t phys,
				  size_t size, int dir)
{
	if (!size)
		return;
	switch (m->opt.profile) {
	case DMAEMU__PROFILE_ARM:
		if (dir == DMAEMU__DIR_FROM_DEVICE)
			arm_inv_range(m, phys, size);
		else
			dmaemu__range_clean(m, phys, size);
		break;
	case DMAEMU__PROFILE_ARM64:
		dmaemu__range_clean(m, phys, size);
		break;
	case DMAEMU__PROFILE_X86:
		break;
	}
}

/**
 * dmaemu__arch_sync_for_cpu() - cache maintenance before the CPU takes
 * [@phys, @phys + @size) back (unmap, sync_for_cpu).
 * @m:    machine.
 * @phys: first byte (DRAM).
 * @size: bytes.
 * @dir:  DMA direction of the mapping.
 */
void dmaemu__arch_sync_for_cpu(struct dmaemu_machine *m, uint64_t phys,
			       size_t size, int dir)
{
	if (!size || dir == DMAEMU__DIR_TO_DEVICE)
		return;
	switch (m->opt.profile) {
	case DMAEMU__PROFILE_ARM:
	case DMAEMU__PROFILE_ARM64:
		dmaemu__range_invalidate(m, phys, size);
		break;
	case DMAEMU__PROFILE_X86:
		break;
	}
}
