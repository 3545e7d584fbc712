/* SPDX-License-Identifier: MIT */
/*
 * <linux/mmzone.h> - zones, buddy orders and migrate types of the emulated
 * page allocator (see docs/memory.md).
 *
 * Zones follow physical addresses as on x86-64: ZONE_DMA below 16 MiB,
 * ZONE_DMA32 below 4 GiB, ZONE_NORMAL above.  There is no ZONE_HIGHMEM
 * (a 64-bit machine) and no ZONE_MOVABLE.
 */
#ifndef DMAEMU_KERNEL_LINUX_MMZONE_H
#define DMAEMU_KERNEL_LINUX_MMZONE_H

/* Free blocks have orders 0 .. MAX_ORDER - 1 (4 MiB blocks at most). */
#define MAX_ORDER 11
#define MAX_ORDER_NR_PAGES (1UL << (MAX_ORDER - 1))

enum zone_type { ZONE_DMA, ZONE_DMA32, ZONE_NORMAL, MAX_NR_ZONES };

/*
 * Pageblocks are grouped by mobility, as in Linux 4.14.  The values match
 * GFP_MOVABLE_MASK >> GFP_MOVABLE_SHIFT (see <linux/gfp.h>).
 */
enum migratetype {
	MIGRATE_UNMOVABLE,
	MIGRATE_MOVABLE,
	MIGRATE_RECLAIMABLE,
	MIGRATE_TYPES
};

/* What Linux 4.14's include chain brings with this header (docs/kernel-headers.md). */
#include <linux/atomic.h>
#include <linux/cache.h>
#include <linux/gfp.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/wait.h>

#endif
