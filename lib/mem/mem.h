/* SPDX-License-Identifier: MIT */
/*
 * mem.h - the memory layer of lib/: emulated DRAM with its three copies
 * (MEM, CPU, TWIN), the line operations on them, and per-line ownership.
 *
 *   physmem.c    banks, the host views (MEM, CPU, TWIN, aliases), regions,
 *                address classification, struct page arrays
 *   lineops.c    line operations (fill, clean, invalidate) on the three
 *                copies with byte masks; range maintenance; stripe locks;
 *                the generations that tell the CPU layer data changed
 *   ownership.c  which side (CPU or device) owns each line
 *
 * Upward notifications: the CPU layer keeps per-thread fast-path entries
 * that are valid while dmaemu__mem_gen has not moved.  Every path that
 * changes MEM, CPU or TWIN outside a CPU access, or which lines are
 * resident, bumps it here (dmaemu__mem_changed(),
 * dmaemu__mem_residency_changed()); the CPU layer only reads it.
 */
#ifndef DMAEMU_LIB_MEM_H
#define DMAEMU_LIB_MEM_H

#include "core/core.h"

/* ---------------------------------------------------------------------- */
/* Generations (lineops.c)                                                */
/* ---------------------------------------------------------------------- */

/*
 * dmaemu__mem_gen: bumped by every change that can make many CPU
 * fast-path entries wrong (a line operation, a device write, a prefetch,
 * a machine going away; a line the cache model evicts on a miss leaves
 * the fast paths through the CPU layer's eviction hook instead).  dmaemu__mem_dgen:
 * bumped only when a line may have gained device-changed bytes (MEM
 * written by a device or a write-combining drain; dmaemu__mem_changed()
 * bumps both); line operations only make copies equal, so they bump
 * dmaemu__mem_gen alone.  Writers bump after the change
 * (release); readers load before looking at the data (acquire).  Hidden,
 * so that the hooks read them without the GOT.
 */
extern uint64_t dmaemu__mem_gen __attribute__((visibility("hidden")));
extern uint64_t dmaemu__mem_dgen __attribute__((visibility("hidden")));
void dmaemu__mem_changed(void);
void dmaemu__mem_residency_changed(void);

/* physmem.c */
int dmaemu__physmem_init(struct dmaemu_machine *m);
void dmaemu__physmem_fini(struct dmaemu_machine *m);
/* Classify @addr; fast for addresses outside every machine. */
bool dmaemu__classify(const void *addr, struct dmaemu__where *w);

/**
 * dmaemu__bank_of_phys() - the bank holding all of [@phys, @phys + @len).
 * @len: 0 is treated as 1.
 *
 * Inline: every DMA call looks a bank up, and a machine has one or two.
 * Return: the bank, or NULL when the range is not inside one bank.
 */
static inline struct dmaemu__bank *dmaemu__bank_of_phys(
	struct dmaemu_machine *m, uint64_t phys, uint64_t len)
{
	unsigned int i;

	if (!len)
		len = 1;
	for (i = 0; i < m->nbanks; i++) {
		struct dmaemu__bank *b = &m->bank[i];

		if (phys >= b->phys && phys - b->phys < b->size &&
		    len <= b->size - (phys - b->phys))
			return b;
	}
	return NULL;
}

/*
 * The vmalloc area and user views (physmem.c): map or unmap one page of
 * the CPU copy in the vmalloc area; the files behind a bank's CPU copy
 * and MEM, with @phys's offset in them (-1: not DRAM).
 */
int dmaemu__vmap_page(struct dmaemu_machine *m, size_t idx, uint64_t phys);
void dmaemu__vunmap_page(struct dmaemu_machine *m, size_t idx);
int dmaemu__cpu_fd(struct dmaemu_machine *m, uint64_t phys, uint64_t *off);
int dmaemu__mem_fd(struct dmaemu_machine *m, uint64_t phys, uint64_t *off);

/* View of @phys in the given copy; NULL when @phys is not DRAM. */
uint8_t *dmaemu__phys_mem(struct dmaemu_machine *m, uint64_t phys);
uint8_t *dmaemu__phys_cpu(struct dmaemu_machine *m, uint64_t phys);
uint8_t *dmaemu__phys_twin(struct dmaemu_machine *m, uint64_t phys);
/*
 * MEM and the CPU copy at @phys through the hardware's aliases: the host
 * addresses a device's access (and the model's copies that stand for the
 * hardware) use, never the ones drivers use, so that Helgrind, DRD and
 * TSan, which know memory by address, do not take the emulated hardware's
 * accesses for data races of the program (physmem.c).
 */
uint8_t *dmaemu__phys_dev_mem(struct dmaemu_machine *m, uint64_t phys);
uint8_t *dmaemu__phys_dev_cpu(struct dmaemu_machine *m, uint64_t phys);
uint8_t *dmaemu__phys_view(struct dmaemu_machine *m, uint64_t phys,
			   enum dmaemu__region view);

/* lineops.c: data operations on one line; the caller holds the line's
 * stripe lock.  @keep_lo/@keep_hi bound the bytes being maintained (for
 * lost-cpu-write): dirty bytes outside it are reported when discarded.
 * The single-line operations leave dmaemu__mem_changed() to their caller;
 * the range operations and dmaemu__mem_write() call it themselves. */
pthread_mutex_t *dmaemu__stripe_of(struct dmaemu_machine *m, uint64_t phys);
void dmaemu__line_fill(struct dmaemu_machine *m, uint64_t line_phys);
void dmaemu__line_clean(struct dmaemu_machine *m, uint64_t line_phys);
void dmaemu__line_invalidate(struct dmaemu_machine *m, uint64_t line_phys,
			     uint64_t keep_lo, uint64_t keep_hi);
/* Byte masks of one line: bit i = byte i (line <= DMAEMU__MAX_LINE), each an
 * array of DMAEMU__MASK_WORDS words (bit i is bit i % 64 of word i / 64);
 * either may be NULL. */
void dmaemu__line_masks(struct dmaemu_machine *m, uint64_t line_phys,
			uint64_t *cpu_dirty, uint64_t *dev_changed);
/*
 * Which code writes back 64-byte lines (lineops.c), for tests: AUTO takes
 * the fastest the host has (AVX-512BW, else AVX2, else SSE2 on x86-64,
 * else the per-line loop); AVX2 and SSE2 force those vector passes (where
 * the host has them), so that they run on hosts with wider vectors too;
 * GENERIC the per-line loop that other line sizes take.  The reload of an
 * invalidate follows it too: its AVX2 pass under AUTO and AVX2, the SSE2
 * compares under SSE2, the per-line loop under GENERIC.  Set it while no
 * machine is in use; the library never changes it.
 */
enum dmaemu__clean_path {
	DMAEMU__CLEAN_AUTO = 0,
	DMAEMU__CLEAN_AVX2,
	DMAEMU__CLEAN_SSE2,
	DMAEMU__CLEAN_GENERIC,
};
extern enum dmaemu__clean_path dmaemu__clean_path;
/*
 * Store sites (lineops.c): the CPU layer notes the driver's code address
 * of each store it handles on its slow path (the first store to a clean
 * line always is), per line in a direct-mapped table of
 * DMAEMU__STORE_SITES entries; a lost-cpu-write or lost-device-write
 * report names the last one noted for its line, if the entry is still
 * that line's.  _init()/_fini(): the table, at machine create/destroy.
 */
#define DMAEMU__STORE_SITES 4096
struct dmaemu__store_site {
	uint64_t line; /* line address + 1; 0: empty */
	const void *site;
};
int dmaemu__store_sites_init(struct dmaemu_machine *m);
void dmaemu__store_sites_fini(struct dmaemu_machine *m);
void dmaemu__store_site_note(struct dmaemu_machine *m, uint64_t lp,
			     const void *site);
const void *dmaemu__store_site_of(struct dmaemu_machine *m, uint64_t lp);

/* Clean then invalidate one line (never a lost-cpu-write). */
void dmaemu__line_clean_invalidate(struct dmaemu_machine *m,
				   uint64_t line_phys);
/* Device side: copy into / out of MEM under the stripe locks only.
 * Return: 0, or -EFAULT when [phys, phys + len) is not inside one bank. */
int dmaemu__mem_write(struct dmaemu_machine *m, uint64_t phys, const void *buf,
		      size_t len);
int dmaemu__mem_read(struct dmaemu_machine *m, uint64_t phys, void *buf,
		     size_t len);
/*
 * A device's read of a span (at most a page, inside one bank, its stripe
 * lock held) that also asks whether the CPU holds any of its bytes dirty
 * (CPU != TWIN: the device reads what memory held before those writes).
 * Copies MEM into @buf; the path follows dmaemu__clean_path (AVX2: one
 * pass loads MEM, CPU and TWIN of each line together).
 * Return: true when no byte of the span is CPU-dirty, false when some may
 * be (always under Memcheck, whose rules the caller's byte search keeps).
 */
bool dmaemu__mem_read_clean(struct dmaemu_machine *m, uint64_t phys, void *buf,
			    size_t len);
/*
 * Memcheck's view of the CPU copy (lineops.c; base.h says which bytes are
 * undefined).  The line operations keep it by themselves; these tell it
 * about the rest, with the stripe lock of the bytes held, and cost one
 * test when not under Memcheck.
 *   dmaemu__mem_vg_written()  a device wrote MEM at [@phys, @phys + @len)
 *                             (within one page): its stale bytes become
 *                             undefined in the CPU copy
 *   dmaemu__mem_vg_seen()     the cache model reported the stale read of
 *                             the bytes of @mask in the line at
 *                             @line_phys: they are defined again, so that
 *                             instrumented code gets the report only
 */
void dmaemu__mem_vg_mark_written(struct dmaemu_machine *m, uint64_t phys,
				 size_t len);
void dmaemu__mem_vg_mark_seen(struct dmaemu_machine *m, uint64_t line_phys,
			      const uint64_t *mask);
static inline void dmaemu__mem_vg_written(struct dmaemu_machine *m,
					  uint64_t phys, size_t len)
{
	if (__builtin_expect(dmaemu__on_memcheck, 0))
		dmaemu__mem_vg_mark_written(m, phys, len);
}
static inline void dmaemu__mem_vg_seen(struct dmaemu_machine *m,
				       uint64_t line_phys, const uint64_t *mask)
{
	if (__builtin_expect(dmaemu__on_memcheck, 0))
		dmaemu__mem_vg_mark_seen(m, line_phys, mask);
}
/* The eviction hook given to cachesim (dirty victims are written back). */
void dmaemu__evict_hook(void *ctx, unsigned int level, uint64_t addr,
			bool dirty, bool last);
/* Range maintenance for DMA: cache model and data, taking the locks. */
void dmaemu__range_clean(struct dmaemu_machine *m, uint64_t phys, uint64_t len);
void dmaemu__range_invalidate(struct dmaemu_machine *m, uint64_t phys,
			      uint64_t len);
void dmaemu__range_clean_invalidate(struct dmaemu_machine *m, uint64_t phys,
				    uint64_t len);

/*
 * ownership.c: which side owns each cache line of DRAM, moved by map and
 * sync_for_device (device) and by unmap and sync_for_cpu (CPU).  One byte
 * a line, in a map per bank made on first use (MAP_NORESERVE: untouched
 * parts cost nothing):
 *
 *   bit 0      DMAEMU__OWN_DEVICE: the device domain (else the CPU's)
 *   bit 1      DMAEMU__OWN_READ_OK: every mapping holding the line is
 *              DMA_TO_DEVICE, so CPU loads are harmless
 *   bit 2      DMAEMU__OWN_EDGE: a mapping covers only part of the line
 *              (the checkers decide per byte there)
 *   bits 3-7   live streaming mappings holding the line (saturates at 31)
 *
 * dmaemu__owner_map()/_unmap(): a mapping is made or ends (unmap keeps
 * the line in the device domain when @keep_shared and another mapping
 * still holds it: DMA_ATTR_SKIP_CPU_SYNC sharing).  dmaemu__owner_set():
 * the syncs, which move the domain only.  Each returns 0, -EINVAL (not
 * DRAM) or -ENOMEM.  A move to the device bumps dmaemu__mem_gen, so no CPU
 * fast-path entry survives it.  dmaemu__owner_get(): the domain;
 * dmaemu__owner_byte(): the whole byte (0 for memory never mapped).
 * dmaemu__owner_fini(): machine destroy.
 */
enum dmaemu__domain {
	DMAEMU__DOMAIN_CPU = 0,
	DMAEMU__DOMAIN_DEVICE = 1,
};
#define DMAEMU__OWN_DEVICE 0x01
#define DMAEMU__OWN_READ_OK 0x02
#define DMAEMU__OWN_EDGE 0x04
#define DMAEMU__OWN_HOLD_SHIFT 3
#define DMAEMU__OWN_HOLD_MAX 31
int dmaemu__owner_map(struct dmaemu_machine *m, uint64_t phys, size_t size,
		      bool to_device);
int dmaemu__owner_unmap(struct dmaemu_machine *m, uint64_t phys, size_t size,
			bool keep_shared);
int dmaemu__owner_set(struct dmaemu_machine *m, uint64_t phys, size_t size,
		      enum dmaemu__domain domain);
enum dmaemu__domain dmaemu__owner_get(struct dmaemu_machine *m, uint64_t phys);
uint8_t dmaemu__owner_byte(struct dmaemu_machine *m, uint64_t phys);
/* The first line of [@lo, @hi) held by a mapping that is not
 * DMA_TO_DEVICE only (@hi: none). */
uint64_t dmaemu__owner_next_writable(struct dmaemu_machine *m, uint64_t lo,
				     uint64_t hi);
/* The bytes from @phys whose lines are all device-owned (@len: all). */
size_t dmaemu__owner_device_span(struct dmaemu_machine *m, uint64_t phys,
				 size_t len);
void dmaemu__owner_fini(struct dmaemu_machine *m);

/**
 * struct dmaemu__owner_info - the streaming mapping that holds a physical
 * byte, as the DMA layer describes it for the checkers' reports.
 * @lo, @hi:   the CPU buffer's physical bytes [lo, hi) of the mapping, one
 *             contiguous piece (a scatterlist: one entry).
 * @dma:       bus address of the mapping (a scatterlist: of segment 0).
 * @size:      its size (a scatterlist: the length of the entry @lo..@hi).
 * @dir:       its direction (DMA_*); @dir_name: "DMA_FROM_DEVICE".
 * @sg:        made by dma_map_sg_attrs(); @nents entries.
 * @device:    the device's name.
 * @backend:   "direct", "swiotlb", "iommu".
 * @bounced:   the device works on a bounce slot, never on the buffer's
 *             own lines (the swiotlb backend).
 * @made_at:   "dma_map_single_attrs() called from rx_refill+0x2c (prog)".
 */
struct dmaemu__owner_info {
	uint64_t lo, hi;
	uint64_t dma;
	size_t size;
	int dir;
	const char *dir_name;
	bool sg;
	int nents;
	char device[64];
	const char *backend;
	bool bounced;
	/* bounced only by Linux 6.5's arm64 rule for small buffers
	 * (dmaemu__dma_kmalloc_needs_bounce()): the line is still shared */
	bool kmalloc_bounced;
	/* Where the mapping was made: formatted (symbolized) only when a
	 * report prints it, by dmaemu__owner_made_at(). */
	const void *made_caller;
	const char *made_fn;
	char made_at[320];
	/* The device's last access to the mapping (@last_valid false:
	 * none yet). */
	bool last_valid, last_write;
	uint64_t last_dma;
	size_t last_len;
};
/* "dma_map_single_attrs() called from rx_refill rx.c:51" for @o. */
const char *dmaemu__owner_made_at(struct dmaemu__owner_info *o);
/* Where @o was made and its last device access, into report @r. */
void dmaemu__owner_report_fields(struct dmaemu__owner_info *o,
				 struct dmaemu__report_info *r);
/*
 * The DMA layer's answer to "which live streaming mapping holds the lowest
 * byte of [@phys, @limit) of @m?" (installed by it at machine create; the
 * caller holds no lock of the machine).  Return: true with *@out filled
 * (its piece [lo, hi) meets the range), or false when no live mapping
 * holds a byte of the range.
 */
typedef bool (*dmaemu__owner_find_fn)(struct dmaemu_machine *m, uint64_t phys,
				      uint64_t limit,
				      struct dmaemu__owner_info *out);
void dmaemu__owner_set_finder(dmaemu__owner_find_fn fn);
bool dmaemu__owner_find(struct dmaemu_machine *m, uint64_t phys, uint64_t limit,
			struct dmaemu__owner_info *out);
/*
 * The allocator's answer to "which kmalloc object holds physical byte
 * @phys of @m?" (installed by mm/slab.c at machine create; no lock of the
 * machine held): true with the object's physical bytes [*@lo, *@hi);
 * false when no live kmalloc object holds it (page allocations, coherent
 * buffers, free memory).  For reports only: shared-line-store on x86
 * tells a layout of one allocation from two allocations that x86's
 * kmalloc() packs into one line and arm's ARCH_DMA_MINALIGN would not.
 */
typedef bool (*dmaemu__object_find_fn)(struct dmaemu_machine *m, uint64_t phys,
				       uint64_t *lo, uint64_t *hi);
void dmaemu__owner_set_object_finder(dmaemu__object_find_fn fn);
bool dmaemu__owner_object(struct dmaemu_machine *m, uint64_t phys, uint64_t *lo,
			  uint64_t *hi);
/*
 * dmaemu__owner_check_free(): a free (kfree, free_pages, dma_pool_free;
 * @fn names it) of [@phys, +@size): bytes a live streaming mapping holds
 * are reported (free-of-mapped-memory); call with no lock of the machine
 * held; returns whether it reported.  dmaemu__owner_held(): its lock-free
 * first step, whether any line of the range is held by a mapping.
 */
bool dmaemu__owner_held(struct dmaemu_machine *m, uint64_t phys, size_t size);
/*
 * The CPU's stores into lines that a live streaming mapping holds while
 * the CPU owns them (after dma_sync_*_for_cpu()), noted by the CPU's slow
 * path, byte by byte, with the driver's code address of the last store to
 * each line.  A handover that invalidates such bytes (4.14's arm and arm64:
 * sync_for_device of DMA_FROM_DEVICE, sync_for_cpu and unmap of anything
 * but DMA_TO_DEVICE) throws them away: lost-cpu-write, reported by the DMA
 * layer on every profile.  Stores made before the map (a kzalloc()'d
 * buffer) are never noted; map and unmap forget the lines they cover.
 *
 *   _stores_init()/_fini()  the table, at machine create/destroy
 *   _store_note()           a store of @len bytes at @phys (one line)
 *   _stores_take()          take the bytes noted in [@phys, +@size) into
 *                           @out (NULL: forget them); returns whether any
 *                           byte was noted there.  Costs one atomic load
 *                           while nothing is noted anywhere.
 */
struct dmaemu__lost_stores {
	uint64_t lo, hi;     /* first byte noted, end of the last */
	size_t bytes;	     /* bytes noted */
	unsigned int lines;  /* lines holding them */
	uint64_t first_line; /* the lowest of those lines */
	uint64_t mask[DMAEMU__MASK_WORDS]; /* its bytes noted */
	const void *site; /* the last store to it (NULL: unknown) */
};
int dmaemu__owner_stores_init(struct dmaemu_machine *m);
void dmaemu__owner_stores_fini(struct dmaemu_machine *m);
void dmaemu__owner_store_note(struct dmaemu_machine *m, uint64_t phys,
			      size_t len, const void *site);
bool dmaemu__owner_stores_take(struct dmaemu_machine *m, uint64_t phys,
			       size_t size, struct dmaemu__lost_stores *out);
/* Has the CPU a store noted in the line at @line_phys?  (A look only.) */
bool dmaemu__owner_stores_noted(struct dmaemu_machine *m, uint64_t line_phys);
bool dmaemu__owner_check_free(struct dmaemu_machine *m, uint64_t phys,
			      size_t size, const char *fn);

/* Dirty lines of each level of the cache model (lineops.c). */
unsigned int dmaemu__cache_dirty_lines(struct dmaemu_machine *m, uint64_t *out,
				       unsigned int max);

#endif /* DMAEMU_LIB_MEM_H */
