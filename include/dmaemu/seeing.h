/* SPDX-License-Identifier: MIT */
/*
 * <dmaemu/seeing.h> - pictures and summaries of a machine for people:
 * cache-line maps of a buffer (a terminal picture and an SVG file), a
 * dump of the machine's state, and statistics (docs/seeing.md).
 *
 * Everything here reads state the model keeps anyway (the same snapshots
 * as <dmaemu/testing.h>) and changes nothing.  A NULL machine or stream,
 * or a range that is not DRAM of the machine, is a bad-argument report
 * and a negative errno; no call crashes on bad input.
 */
#ifndef DMAEMU_SEEING_H
#define DMAEMU_SEEING_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

struct dmaemu_machine;
struct dmaemu_device;

/* ---------------------------------------------------------------------- */
/* Cache-line maps                                                        */
/* ---------------------------------------------------------------------- */

/* Colour of a terminal picture (dmaemu_line_map_print()). */
enum dmaemu_colour {
	/* ANSI colour when the stream is a terminal, NO_COLOR is not set
	 * and TERM is not "dumb"; plain characters otherwise. */
	DMAEMU_COLOUR_AUTO = 0,
	DMAEMU_COLOUR_NEVER,
	DMAEMU_COLOUR_ALWAYS,
};

/**
 * dmaemu_line_map_print() - draw the cache lines of DRAM range [@phys,
 * @phys + @len) of @m on @f, one row a line:
 *
 *     line        owner  $   bytes of the line: . same  c CPU-dirty ...
 *     0x080001000 device R   ....ccccdddd!!!!wwww
 *
 * owner is "cpu" or "device"; $ is "-" (not cached), "R" (resident) or
 * "R+D" (resident and dirty: dirty in the model, or with CPU-dirty bytes,
 * which the model holds as resident dirty data whether or not it saw the
 * store); then one character a byte: '.'
 * the CPU's copy and memory agree, 'c' CPU-dirty (the CPU's copy is newer
 * than memory), 'd' device-changed (memory is newer than the CPU's copy),
 * '!' both, 'w' waiting in a write-combining buffer (shown over the
 * others), ' ' outside the range.  Every row starts with four spaces.
 * @m:      the machine.
 * @phys:   physical address of DRAM.
 * @len:    bytes (at least 1).
 * @f:      the stream.
 * @colour: enum dmaemu_colour.
 *
 * Cost: one dmaemu_line_state() and one look at the write-combining
 * buffers a line.
 *
 * Return: the number of lines drawn; -EINVAL (bad-argument report) for a
 * NULL @m or @f, a zero @len or an unknown @colour; -EFAULT (bad-argument
 * report) when the range is not inside one bank of DRAM of @m.
 */
int dmaemu_line_map_print(struct dmaemu_machine *m, uint64_t phys, size_t len,
			  FILE *f, int colour);

/**
 * dmaemu_line_map_svg() - the same picture as dmaemu_line_map_print(), as
 * a stand-alone SVG document written to @f: a row of cells a line, one
 * cell a byte of the range coloured by its state (the same letters name
 * the colours in the legend), the line's address, owner and residency on
 * its left, a tooltip (<title>) per row with the counts of each state.
 * @m:     the machine.
 * @phys:  physical address of DRAM.
 * @len:   bytes (at least 1).
 * @title: heading of the picture (NULL: none); XML-escaped.
 * @f:     the stream.
 *
 * Return: as dmaemu_line_map_print(); -EIO when writing @f failed.
 */
int dmaemu_line_map_svg(struct dmaemu_machine *m, uint64_t phys, size_t len,
			const char *title, FILE *f);

/* ---------------------------------------------------------------------- */
/* The machine's state                                                    */
/* ---------------------------------------------------------------------- */

/**
 * dmaemu_machine_dump() - write the state of @m to @f for debugging:
 * options that shape it, DRAM banks and the page allocator's zones (free
 * pages), the slab caches, every device with its live streaming mappings
 * (bus and physical address, size, direction, backend, owner of the
 * first line, where the mapping was made) and coherent allocations, its
 * IOMMU domain (mapped pages, ranges), the swiotlb pool (slots in use)
 * and the bytes waiting in write-combining buffers.
 * @m: the machine.
 * @f: the stream.
 *
 * The format is for people and may change; each section starts with a
 * line of its own ("devices:", "swiotlb:", ...).  Each part is a snapshot
 * under its own lock, so a machine whose devices are running may show
 * the parts at slightly different moments.
 *
 * Return: 0; -EINVAL (bad-argument report) for a NULL argument; -EIO when
 * writing @f failed.
 */
int dmaemu_machine_dump(struct dmaemu_machine *m, FILE *f);

/* ---------------------------------------------------------------------- */
/* Statistics                                                             */
/* ---------------------------------------------------------------------- */

/**
 * struct dmaemu_device_stats - what one device and its driver did.
 * @maps:              successful map calls (dma_map_single/page/sg/
 *                     resource; a scatterlist counts once).
 * @unmaps:            unmaps that found their mapping.
 * @syncs_for_device:  dma_sync_*_for_device() calls (single and sg).
 * @syncs_for_cpu:     dma_sync_*_for_cpu() calls.
 * @bytes_mapped:      bytes those maps covered.
 * @bytes_cleaned:     bytes the streaming API's cache maintenance wrote
 *                     back (arm, arm64: map and sync_for_device other
 *                     than FROM_DEVICE; 0 on x86, where devices snoop).
 * @bytes_invalidated: bytes it invalidated (FROM_DEVICE maps, unmaps and
 *                     syncs for the CPU not TO_DEVICE).
 * @bytes_bounced:     bytes copied to or from swiotlb bounce buffers.
 * @iommu_pages:       IOVA pages mapped now in the device's IOMMU domain.
 * @live_mappings:     live streaming mappings now (segments one by one).
 * @dev_reads:         successful device DMA reads (dmaemu_dma_read()).
 * @dev_writes:        successful device DMA writes.
 * @dev_bytes_read:    bytes those reads moved.
 * @dev_bytes_written: bytes those writes moved.
 * @irqs:              interrupts the device raised (dmaemu_raise_irq()).
 */
struct dmaemu_device_stats {
	uint64_t maps;
	uint64_t unmaps;
	uint64_t syncs_for_device;
	uint64_t syncs_for_cpu;
	uint64_t bytes_mapped;
	uint64_t bytes_cleaned;
	uint64_t bytes_invalidated;
	uint64_t bytes_bounced;
	uint64_t iommu_pages;
	uint64_t live_mappings;
	uint64_t dev_reads;
	uint64_t dev_writes;
	uint64_t dev_bytes_read;
	uint64_t dev_bytes_written;
	uint64_t irqs;
};

/**
 * dmaemu_device_stats() - fill @st for @dev.
 * @dev: the device.
 * @st:  filled in (zeroed on error).
 *
 * The counters cost the paths they count no lock and no locked
 * instruction (a relaxed atomic load and store), so they are exact when
 * one thread at a time makes the device's calls (or its DMA); threads
 * that add to one counter of one device at the same instant may lose a
 * count.
 *
 * Return: 0; -EINVAL (bad-argument report) for a NULL argument or a
 * destroyed @dev.
 */
int dmaemu_device_stats(struct dmaemu_device *dev,
			struct dmaemu_device_stats *st);

/* Cache levels dmaemu_machine_stats() describes. */
#define DMAEMU_STATS_LEVELS 4

/**
 * struct dmaemu_cache_level_stats - one level of the cache model.
 * @accesses, @hits, @misses: CPU accesses the model saw at this level.
 * @evictions:  lines evicted.
 * @writebacks: dirty lines written back by evictions.
 * @maint_ops:  cache maintenance calls (clean, invalidate, by range).
 * @maint_lines: lines they cleaned or dropped.
 * @maint_writebacks: dirty lines they wrote back.
 */
struct dmaemu_cache_level_stats {
	uint64_t accesses;
	uint64_t hits;
	uint64_t misses;
	uint64_t evictions;
	uint64_t writebacks;
	uint64_t maint_ops;
	uint64_t maint_lines;
	uint64_t maint_writebacks;
};

/**
 * struct dmaemu_machine_stats - a machine's statistics.
 * @cache_levels:    levels of the model (at most DMAEMU_STATS_LEVELS
 *                   are described in @cache).
 * @cache:           per level, L1 first (cachesim's statistics).
 * @stale_reads:     CPU reads of device-changed bytes the model saw.
 * @wc_flushes:      write-combining buffers drained by a barrier.
 * @wc_evictions:    write-combining buffers drained to make room.
 * @pages_total:     pages of DRAM the page allocator manages.
 * @pages_free:      of which free.
 * @page_allocs:     live alloc_pages() allocations.
 * @zone_allocs:     successful page allocations, all zones.
 * @zone_failures:   failed page allocations, all zones.
 * @kmalloc_objects: live kmalloc objects.
 * @kmalloc_bytes:   their usable bytes.
 * @slabs:           slabs holding them.
 * @swiotlb_slots:   slots of the bounce pool (0: not made).
 * @swiotlb_used:    of which in use.
 * @swiotlb_maps:    bounce buffers handed out.
 * @swiotlb_bounced: bytes copied.
 * @devices:         live devices.
 * @reports:         reports made.
 */
struct dmaemu_machine_stats {
	unsigned int cache_levels;
	struct dmaemu_cache_level_stats cache[DMAEMU_STATS_LEVELS];
	uint64_t stale_reads;
	uint64_t wc_flushes;
	uint64_t wc_evictions;
	unsigned long pages_total;
	unsigned long pages_free;
	unsigned long page_allocs;
	unsigned long zone_allocs;
	unsigned long zone_failures;
	unsigned long kmalloc_objects;
	uint64_t kmalloc_bytes;
	unsigned long slabs;
	uint64_t swiotlb_slots;
	uint64_t swiotlb_used;
	uint64_t swiotlb_maps;
	uint64_t swiotlb_bounced;
	unsigned int devices;
	uint64_t reports;
};

/**
 * dmaemu_machine_stats() - fill @st for @m.
 * @m:  the machine.
 * @st: filled in (zeroed on error).
 *
 * Return: 0; -EINVAL (bad-argument report) for a NULL argument.
 */
int dmaemu_machine_stats(struct dmaemu_machine *m,
			 struct dmaemu_machine_stats *st);

/**
 * dmaemu_machine_stats_print() - write a summary of the statistics of
 * @m and of each of its devices (live ones, and with stats=1 those
 * destroyed before) to @f: what option stats=1 prints when the machine
 * is destroyed.  The lines start with "dmaemu stats: ".
 * @m: the machine.
 * @f: the stream.
 *
 * Return: 0; -EINVAL (bad-argument report) for a NULL argument; -EIO when
 * writing @f failed.
 */
int dmaemu_machine_stats_print(struct dmaemu_machine *m, FILE *f);

#ifdef __cplusplus
}
#endif

#endif
