// SPDX-License-Identifier: MIT
/*
 * ownership.c - which side owns each cache line of DRAM: the CPU domain or
 * the device domain.
 *
 * How it works.  The DMA API hands a buffer back and forth: map and
 * sync_for_device give it to the device, unmap and sync_for_cpu give it
 * back to the CPU (DMA_ATTR_SKIP_CPU_SYNC skips the cache work, never the
 * transfer of ownership).  The state is one byte per line of each bank:
 *
 *   bank:   | line 0 | line 1 | line 2 | ... |      (m->line bytes each)
 *   owner:  |   0    |   1    |   1    | ... |      0 = CPU, 1 = device
 *
 * The map is an anonymous MAP_NORESERVE mapping made the first time a
 * bank's ownership changes, so it costs host memory only where mappings
 * were made (1/64 of the bytes mapped with 64-byte lines).  It is made
 * under m->lock and published with a release store; later users read the
 * pointer with an acquire load and take no lock.  The bytes themselves are
 * written and read with relaxed atomics: each line has one owner at a
 * time, and two mappings that share a line (itself the bug the checker
 * exists to show) just leave the last transition.
 *
 * The coherence sanitizer (a later layer) reads this state to report CPU
 * accesses to device-owned lines and device accesses to CPU-owned ones;
 * the prefetcher is told about device-owned ranges by dma_mapping.c.
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include "mem/mem.h"

static size_t map_bytes(const struct dmaemu_machine *m,
			const struct dmaemu__bank *b)
{
	return (size_t)(b->size >> m->line_shift);
}

/* The owner map of bank @i, made on first use; NULL when out of memory. */
static uint8_t *owner_map(struct dmaemu_machine *m, unsigned int i)
{
	uint8_t *map = __atomic_load_n(&m->owner[i], __ATOMIC_ACQUIRE);
	void *p;

	if (map)
		return map;
	dmaemu__lock(&m->lock);
	map = m->owner[i];
	if (!map) {
		p = mmap(NULL, map_bytes(m, &m->bank[i]),
			 PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (p != MAP_FAILED) {
			map = p;
			/* Lock-free readers: the pointer itself, and the
			 * bytes, which only see atomics. */
			dmaemu__vg_atomic(&m->owner[i], sizeof(m->owner[i]));
			dmaemu__vg_atomic(map, map_bytes(m, &m->bank[i]));
			__atomic_store_n(&m->owner[i], map, __ATOMIC_RELEASE);
		}
	}
	dmaemu__unlock(&m->lock);
	return map;
}

/**
 * dmaemu__owner_set() - move the lines covering a range to a domain.
 * @m:      machine.
 * @phys:   first byte.
 * @size:   bytes (0 does nothing).
 * @domain: the new owner.
 *
 * Cost: one byte store per line.
 * Return: 0; -EINVAL when the range is not inside one bank; -ENOMEM when
 * the bank's map could not be made.
 */
int dmaemu__owner_set(struct dmaemu_machine *m, uint64_t phys, size_t size,
		      enum dmaemu__domain domain)
{
	struct dmaemu__bank *b;
	uint64_t first, last, l;
	unsigned int i;
	uint8_t *map;

	if (!size)
		return 0;
	/* dmaemu__bank_of_phys(), keeping the bank's index. */
	for (i = 0; i < m->nbanks; i++) {
		b = &m->bank[i];
		if (phys >= b->phys && phys - b->phys < b->size &&
		    size <= b->size - (phys - b->phys))
			break;
	}
	if (i == m->nbanks)
		return -EINVAL;
	map = owner_map(m, i);
	if (!map)
		return -ENOMEM;
	first = (phys - b->phys) >> m->line_shift;
	last = (phys + size - 1 - b->phys) >> m->line_shift;
	/* Eight lines a store where the map is word-aligned: a 1 MiB map
	 * moves 16,384 lines. */
	for (l = first; l <= last && (l & 7); l++)
		__atomic_store_n(&map[l], (uint8_t)domain, __ATOMIC_RELAXED);
	for (; l + 8 <= last + 1; l += 8)
		__atomic_store_n((uint64_t *)(void *)&map[l],
				 domain ? 0x0101010101010101ULL : 0,
				 __ATOMIC_RELAXED);
	for (; l <= last; l++)
		__atomic_store_n(&map[l], (uint8_t)domain, __ATOMIC_RELAXED);
	return 0;
}

/**
 * dmaemu__owner_get() - the owner of the line holding @phys.
 * Return: the domain; the CPU for lines never mapped and for addresses
 * that are not DRAM.
 */
enum dmaemu__domain dmaemu__owner_get(struct dmaemu_machine *m, uint64_t phys)
{
	struct dmaemu__bank *b = dmaemu__bank_of_phys(m, phys, 1);
	uint8_t *map;

	if (!b)
		return DMAEMU__DOMAIN_CPU;
	map = __atomic_load_n(&m->owner[b - m->bank], __ATOMIC_ACQUIRE);
	if (!map)
		return DMAEMU__DOMAIN_CPU;
	return (enum dmaemu__domain)__atomic_load_n(
		&map[(phys - b->phys) >> m->line_shift], __ATOMIC_RELAXED);
}

/** dmaemu__owner_fini() - unmap the owner maps (machine destroy). */
void dmaemu__owner_fini(struct dmaemu_machine *m)
{
	unsigned int i;

	for (i = 0; i < DMAEMU__MAX_BANKS; i++) {
		if (m->owner[i])
			munmap(m->owner[i], map_bytes(m, &m->bank[i]));
		m->owner[i] = NULL;
	}
}
