/* SPDX-License-Identifier: MIT */
/*
 * <dmaemu/mm.h> - looking at the emulated allocators: GFP flag names,
 * zones, free lists by order and migrate type (like /proc/buddyinfo and
 * /proc/pagetypeinfo), and live allocation counts.
 *
 * The allocators themselves have kernel names (<linux/gfp.h>,
 * <linux/slab.h>); docs/memory.md describes how they work.
 */
#ifndef DMAEMU_MM_H
#define DMAEMU_MM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct dmaemu_machine;

/* Orders 0 .. DMAEMU_MAX_ORDER - 1, as MAX_ORDER in <linux/mmzone.h>. */
#define DMAEMU_MAX_ORDER 11

/* The zones, as enum zone_type in <linux/mmzone.h>. */
enum dmaemu_zone {
	DMAEMU_ZONE_DMA,    /* below 16 MiB */
	DMAEMU_ZONE_DMA32,  /* below 4 GiB */
	DMAEMU_ZONE_NORMAL, /* the rest */
	DMAEMU_NR_ZONES
};

/* Migrate types, as enum migratetype in <linux/mmzone.h>. */
enum dmaemu_migratetype {
	DMAEMU_MIGRATE_UNMOVABLE,
	DMAEMU_MIGRATE_MOVABLE,
	DMAEMU_MIGRATE_RECLAIMABLE,
	DMAEMU_MIGRATE_TYPES
};

/**
 * dmaemu_gfp_format() - GFP flags by name, like the kernel's tracepoints.
 * @flags: the flags (a gfp_t).
 * @buf: where to write the text, always terminated when @len > 0.
 * @len: size of @buf.
 *
 * Combinations come first: the table of names is walked from the widest
 * combination (GFP_TRANSHUGE) down to single bits, and every entry whose
 * bits are all still set is printed and its bits taken away, so
 * GFP_KERNEL | __GFP_ZERO prints "GFP_KERNEL|__GFP_ZERO" and GFP_ATOMIC
 * prints "GFP_ATOMIC", not "GFP_NOWAIT|...".  Bits without a name print as
 * one hexadecimal number at the end ("GFP_KERNEL|0x8000000"); no flags at
 * all print "0" (GFP_NOWAIT is __GFP_KSWAPD_RECLAIM, not 0).
 *
 * Return: the length of the whole text (as snprintf(): a value >= @len
 * means it was truncated), or -EINVAL when @buf is NULL and @len is not 0.
 */
int dmaemu_gfp_format(unsigned int flags, char *buf, size_t len);

/**
 * dmaemu_gfp_parse() - the reverse of dmaemu_gfp_format().
 * @s: names and numbers separated by '|' ("GFP_KERNEL|__GFP_ZERO|0x10").
 * @flags: where to store the result.
 * Return: 0, or -EINVAL for an unknown name (GFP_TEMPORARY included) or a
 * malformed number.
 */
int dmaemu_gfp_parse(const char *s, unsigned int *flags);

/** dmaemu_zone_name() - "DMA", "DMA32", "Normal"; NULL for a bad zone. */
const char *dmaemu_zone_name(int zone);
/** dmaemu_migratetype_name() - "Unmovable", ...; NULL for a bad type. */
const char *dmaemu_migratetype_name(int migratetype);

/**
 * struct dmaemu_zone_info - one zone of a machine.
 * @start: lowest physical address of DRAM in the zone.
 * @end: one past the highest.
 * @present: pages of DRAM in the zone.
 * @free: free pages.
 * @min_free: the min watermark: allocations that would leave fewer free
 *            pages fail unless they may use the reserve (__GFP_HIGH,
 *            __GFP_ATOMIC, __GFP_MEMALLOC; see docs/memory.md).
 * @pageblock_order: order of a pageblock (the same for every zone).
 * @allocs: successful allocations from this zone.
 * @failures: allocations that failed with this zone as the preferred one.
 * @fallbacks: allocations served from the free lists of another migrate
 *             type.
 * @conversions: pageblocks whose migrate type was changed by a fallback.
 */
struct dmaemu_zone_info {
	uint64_t start;
	uint64_t end;
	unsigned long present;
	unsigned long free;
	unsigned long min_free;
	unsigned int pageblock_order;
	unsigned long allocs;
	unsigned long failures;
	unsigned long fallbacks;
	unsigned long conversions;
};

/**
 * dmaemu_zone_info() - what @zone of @m holds.
 * Return: 0; -ENOENT when the zone has no memory (@info is zeroed);
 * -EINVAL for a NULL argument or a bad zone number.
 */
int dmaemu_zone_info(struct dmaemu_machine *m, int zone,
		     struct dmaemu_zone_info *info);

/**
 * dmaemu_buddyinfo() - free blocks of @zone by order.
 * @counts: counts[o] = number of free blocks of order o.
 * Return: 0, -ENOENT for an empty zone (counts zeroed), -EINVAL for bad
 * arguments.
 */
int dmaemu_buddyinfo(struct dmaemu_machine *m, int zone,
		     unsigned long counts[DMAEMU_MAX_ORDER]);

/**
 * dmaemu_pagetypeinfo() - free blocks of @zone and @migratetype by order.
 * Return: as dmaemu_buddyinfo().
 */
int dmaemu_pagetypeinfo(struct dmaemu_machine *m, int zone, int migratetype,
			unsigned long counts[DMAEMU_MAX_ORDER]);

/**
 * dmaemu_pageblocks() - pageblocks of @zone by migrate type.
 * Return: as dmaemu_buddyinfo().
 */
int dmaemu_pageblocks(struct dmaemu_machine *m, int zone,
		      unsigned long counts[DMAEMU_MIGRATE_TYPES]);

/**
 * dmaemu_pageblock_migratetype() - the migrate type of the pageblock
 * holding physical address @phys.
 * Return: the type, or -EINVAL when @phys is not DRAM of @m.
 */
int dmaemu_pageblock_migratetype(struct dmaemu_machine *m, uint64_t phys);

/**
 * dmaemu_buddyinfo_format() - the text of /proc/buddyinfo for @m.
 * Return: as snprintf(), or -EINVAL.
 */
int dmaemu_buddyinfo_format(struct dmaemu_machine *m, char *buf, size_t len);

/**
 * dmaemu_pagetypeinfo_format() - the text of /proc/pagetypeinfo for @m.
 * Return: as snprintf(), or -EINVAL.
 */
int dmaemu_pagetypeinfo_format(struct dmaemu_machine *m, char *buf, size_t len);

/**
 * struct dmaemu_mm_stats - live allocations of a machine.
 * @pages_total: pages of DRAM managed by the page allocator.
 * @pages_free: of which free.
 * @page_allocs: live allocations made through alloc_pages() and friends
 *               (a block of 2^order pages counts once).
 * @kmalloc_objects: live kmalloc objects (ZERO_SIZE_PTR not counted).
 * @kmalloc_bytes: their usable sizes (ksize()) added up.
 * @slabs: slabs holding them.
 */
struct dmaemu_mm_stats {
	unsigned long pages_total;
	unsigned long pages_free;
	unsigned long page_allocs;
	unsigned long kmalloc_objects;
	uint64_t kmalloc_bytes;
	unsigned long slabs;
};

/**
 * dmaemu_mm_stats() - fill @st for @m.
 * Return: 0, or -EINVAL for a NULL argument.
 */
int dmaemu_mm_stats(struct dmaemu_machine *m, struct dmaemu_mm_stats *st);

#ifdef __cplusplus
}
#endif

#endif
