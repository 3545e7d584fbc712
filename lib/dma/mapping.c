// SPDX-License-Identifier: MIT
/*
 * mapping.c - the streaming half of the DMA-mapping API: map, unmap,
 * sync, dma_mapping_error() and dma_cache_sync().
 *
 * How it works.  Every call has the same shape, as in Linux's
 * kernel/dma/mapping.c:
 *
 *   1. validate: the device must be live (a NULL, foreign or destroyed
 *      struct device is a bad-argument report), the direction valid, the
 *      attribute bits known, the memory DRAM reached the right way (a
 *      linear-map pointer, a page of this machine; anything else is
 *      map-invalid-memory).  A bad call reports and returns the error value:
 *      DMA_MAPPING_ERROR, 0, or nothing happens.
 *   2. choose the backend, once per mapping:
 *        iommu=1                                 IOMMU ops
 *        swiotlb=force, or the buffer's bus      swiotlb ops
 *        range beyond *dev->dma_mask
 *        otherwise                               direct ops
 *      and dispatch through its ops (backend.h): the backend does the
 *      cache maintenance.  An op the backend leaves NULL is skipped here,
 *      and what the dispatcher needs to know of a backend is a slot of its
 *      ops, never its identity.
 *   3. record (registry.c): the record names the backend, so the unmap
 *      and the syncs of a handle go to the backend that made it.  Unmaps
 *      and syncs of a handle the registry does not know are reported
 *      (unmap-not-mapped, sync-not-mapped, ...) and never reach a
 *      backend.
 *   4. move ownership of the lines (ownership.c), and, with prefetch=1,
 *      tell the prefetcher which ranges the device owns: a mapping is
 *      registered at map and at sync_for_device, and removed at unmap and
 *      at a sync_for_cpu of the whole mapping (a scatterlist for its whole
 *      life).
 *
 * An unmap uses the recorded address, size and backend, and the caller's
 * direction and attributes (DMA_ATTR_SKIP_CPU_SYNC is the caller's to give
 * at unmap).  The checks are those of Linux 4.14's CONFIG_DMA_API_DEBUG
 * (lib/dma-debug.c), each its own report kind (docs/checkers.md):
 *
 *   map     check_for_stack(), check_for_illegal_area(): memory outside
 *           the linear map (map-invalid-memory, the map fails);
 *           add_dma_entry()'s active-cacheline tracking: a cache line
 *           held by another live streaming mapping that is not
 *           DMA_TO_DEVICE (overlapping-mappings, unless the new map has
 *           DMA_ATTR_SKIP_CPU_SYNC or is DMA_TO_DEVICE)
 *   unmap   check_unmap(): DMA_MAPPING_ERROR (unmap-invalid-address),
 *           no mapping (unmap-not-mapped) or one made by another function
 *           (unmap-type-mismatch), both doing nothing; then, the mapping
 *           being unmapped all the same, another size, another function
 *           of the pair single/page, another entry count, another
 *           direction, and dma_mapping_error() never called on the handle
 *           (mapping-error-not-checked), in that order
 *   sync    check_sync(): no mapping (sync-not-mapped, nothing done), a
 *           range past its end (sync-out-of-range, maintained all the
 *           same); unless the mapping is DMA_BIDIRECTIONAL: another
 *           direction, a sync for the CPU of a DMA_TO_DEVICE mapping or for
 *           the device of a DMA_FROM_DEVICE one, another entry count.
 *
 * Each public function is the driver's call: it enters it as the thread's
 * call-site context (core.h, DMAEMU__API_CALL()), so every report made
 * while it runs, here or in a backend or the memory model, names the
 * driver's line, and the record keeps the address as "mapping made at".
 *
 * Syncs of a handle that is not a streaming mapping may name a
 * dma_alloc_attrs(DMA_ATTR_NON_CONSISTENT) buffer: those get the
 * per-profile maintenance of the range; other coherent buffers need none.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/dma-mapping.h>
#include <linux/scatterlist.h>

#include "dma/backend.h"

static const char *dir_name(int dir)
{
	return dmaemu__dir_name(dir, "invalid direction");
}

static const char *const type_names[] = {
	[DMAEMU__MAP_SINGLE] = "single",
	[DMAEMU__MAP_PAGE] = "page",
	[DMAEMU__MAP_SG] = "scatterlist",
	[DMAEMU__MAP_RESOURCE] = "resource",
	[DMAEMU__MAP_COHERENT] = "coherent",
};

/*
 * Step 1 for every call: the machine of @dev, or NULL after a report.
 * @dir < 0 skips the direction check.
 */
static struct dmaemu_machine *api_enter(struct device *dev, const char *fn,
					int dir, unsigned long attrs)
{
	struct dmaemu_machine *m = dmaemu__dev_machine_or_report(dev, fn);

	/*
	 * Maps, unmaps and syncs are barriers for the ordering checks
	 * (cpu/order.c): on arm64 the cache maintenance behind them
	 * (__dma_map_area(), __dma_unmap_area()) ends with a dsb sy, and
	 * ARMv7's with a dsb; on x86 they stand for those.
	 */
	dmaemu__order_barrier(DMAEMU_BARRIER_FULL);
	if (!m)
		return NULL;
	if (dir >= 0 && !valid_dma_direction(dir)) {
		dmaemu__reportf(
			m, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
			"%s(%s): invalid direction %d (%s): a mapping is "
			"DMA_BIDIRECTIONAL, DMA_TO_DEVICE or DMA_FROM_DEVICE",
			fn, dev_name(dev), dir, dir_name(dir));
		return NULL;
	}
	if (attrs & ~DMAEMU__LEVEL_ATTRS(m)) {
		dmaemu__reportf(m, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"%s(%s): unknown attribute bits %#lx", fn,
				dev_name(dev), attrs & ~DMAEMU__LEVEL_ATTRS(m));
		return NULL;
	}
	return m;
}

/**
 * dmaemu__api612_enter() - api_enter() for a call Linux brought after
 * 4.14: on a kernel=4.14 machine it is a bad-argument report (a program
 * the headers did not stop, declaring the call itself) and NULL.
 */
struct dmaemu_machine *dmaemu__api612_enter(struct device *dev, const char *fn,
					    int dir, unsigned long attrs)
{
	struct dmaemu_machine *m = api_enter(dev, fn, dir, attrs);

	if (m && !m->opt.k612) {
		dmaemu__reportf(m, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"%s(%s): not in Linux 4.14's DMA API (the "
				"machine is kernel=4.14; kernel=6.12 has it)",
				fn, dev_name(dev));
		return NULL;
	}
	return m;
}

/* Must [@phys, +@size) be bounced for @dev (forced, or beyond its mask)? */
static bool needs_bounce(struct dmaemu_machine *m, struct device *dev,
			 uint64_t phys, size_t size)
{
	uint64_t bus = phys + m->opt.dma_offset;

	return m->opt.swiotlb_force || bus + size - 1 < bus ||
	       bus + size - 1 > *dev->dma_mask;
}

/* needs_bounce(), or the 6.5 arm64 rule for small buffers (arch.c). */
static bool must_bounce(struct dmaemu_machine *m, struct device *dev,
			uint64_t phys, size_t size, int dir)
{
	return needs_bounce(m, dev, phys, size) ||
	       dmaemu__dma_kmalloc_needs_bounce(m, size, dir);
}

/*
 * Step 2: the backend of a mapping, the one place that names backends.
 * @bounce: some of the memory needs bouncing (needs_bounce()); MMIO never
 * does.
 */
static const struct dmaemu__dma_ops *choose_ops(struct dmaemu_machine *m,
						bool bounce)
{
	if (m->opt.iommu)
		return &dmaemu__iommu_ops;
	if (bounce)
		return &dmaemu__swiotlb_ops;
	return &dmaemu__direct_ops;
}

/*
 * The backend of dma_map_resource(): choose_ops(), but for x86 with the
 * IOMMU at kernel=4.14, whose intel_dma_ops have no map_resource (4.14's
 * dma_map_resource() then returns the physical address): the direct ops,
 * which have none either.  6.12 maps it through dma-iommu
 * (iommu_dma_map_resource()) as arm64's and arm's IOMMU ops already did in
 * 4.14.
 */
static const struct dmaemu__dma_ops *choose_resource_ops(
	struct dmaemu_machine *m)
{
	if (m->opt.iommu && m->opt.profile == DMAEMU__PROFILE_X86 &&
	    !m->opt.k612)
		return &dmaemu__direct_ops;
	return choose_ops(m, false);
}

/* A device needs a DMA mask to map anything (Linux: dma_capable()). */
static bool has_mask(struct dmaemu_machine *m, struct device *dev,
		     const char *fn)
{
	if (dev->dma_mask && *dev->dma_mask)
		return true;
	dmaemu__reportf(
		m, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
		"%s(%s): the device has no DMA mask (dma_set_mask() first)", fn,
		dev_name(dev));
	return false;
}

/*
 * Step 4: move the lines of the part [@addr, +@size) of mapping @map to
 * @domain.  The CPU's buffer is what changes hands, so for a bounced
 * mapping that is the original; behind a backend that remaps, the pages
 * are found through it (a merged scatterlist segment is not physically
 * contiguous).
 */
static void owner_move(struct dmaemu_machine *m, struct device *dev,
		       const struct dmaemu__mapping *map, dma_addr_t addr,
		       size_t size, enum dmaemu__domain domain)
{
	const struct dmaemu__dma_ops *ops = dmaemu__dma_ops_of(map->ops);

	if (map->type == DMAEMU__MAP_RESOURCE)
		return;
	if (!ops->iova_to_phys || map->type != DMAEMU__MAP_SG) {
		dmaemu__owner_set(m, map->phys + (addr - map->dma), size,
				  domain);
		return;
	}
	while (size) {
		uint64_t phys = ops->iova_to_phys(m, dev, addr);
		size_t n = DMAEMU__PAGE_SIZE - (addr & (DMAEMU__PAGE_SIZE - 1));

		if (n > size)
			n = size;
		if (phys != UINT64_MAX)
			dmaemu__owner_set(m, phys, n, domain);
		addr += n;
		size -= n;
	}
}

/* Where a mapping was made, for reports. */
/*
 * The part [@addr, +@size) of mapping @map changes hands (@how, in the
 * driver's call @fn): the stores the CPU made into it while it owned it
 * are checked (lost-cpu-write) and forgotten.  With @after, only
 * forgotten: the stores a bouncing backend's copy back made meanwhile are
 * the kernel's, not the driver's.  Scatterlist entries are checked by
 * their callers, entry by entry.
 */
static void handover(struct device *dev, const struct dmaemu__mapping *map,
		     dma_addr_t addr, size_t size, int dir, unsigned long attrs,
		     enum dmaemu__handover how, const char *fn, bool after)
{
	size_t in;

	if (map->type == DMAEMU__MAP_SG || map->type == DMAEMU__MAP_RESOURCE ||
	    addr < map->dma || addr - map->dma >= map->size)
		return;
	in = (size_t)(map->dma + map->size - addr);
	if (size < in)
		in = size;
	if (after)
		dmaemu__owner_stores_take(dev->dmaemu->m,
					  map->phys + (addr - map->dma), in,
					  NULL);
	else
		dmaemu__owncheck_handover(dev, map,
					  map->phys + (addr - map->dma), in,
					  dir, attrs, how, fn);
}

static void made_at(const struct dmaemu__mapping *map, char *buf, size_t len)
{
	char where[256];

	dmaemu__code_where(map->caller, where, sizeof(where));
	snprintf(buf, len, "%s() called from %s", map->fn, where);
}

/* ---------------------------------------------------------------------- */
/* Single buffers and pages                                               */
/* ---------------------------------------------------------------------- */

/* The record of a mapping @ops made: what unmap and the syncs need. */
static void fill_record(struct dmaemu__mapping *map, enum dmaemu__map_type type,
			dma_addr_t dma, uint64_t phys, size_t size, int dir,
			unsigned long attrs, const struct dmaemu__dma_ops *ops,
			const char *fn, const void *caller)
{
	map->type = type;
	map->dma = dma;
	map->phys = phys;
	map->size = size;
	map->dir = dir;
	map->attrs = attrs;
	map->ops = &ops->id;
	map->fn = fn;
	map->caller = caller;
}

/* What a host address is, in words, for map-invalid-memory reports. */
static const char *describe_host(struct dmaemu_machine *m, const void *p,
				 const struct dmaemu__where *w)
{
	pthread_attr_t attr;
	void *lo;
	size_t sz;
	bool stack = false;

	switch (w->region) {
	case DMAEMU__REGION_LINEAR:
		return w->m != m ? "the linear map of another machine"
				 : "a linear-map range that leaves its bank";
	case DMAEMU__REGION_UNCACHED:
		return "the uncached alias of a coherent allocation (it has a "
		       "bus address already)";
	case DMAEMU__REGION_WC:
		return "a write-combining alias (dma_alloc_wc() memory has a "
		       "bus address already)";
	case DMAEMU__REGION_NOMAP:
		return "a DMA_ATTR_NO_KERNEL_MAPPING cookie";
	case DMAEMU__REGION_MMIO:
		return "an ioremap() cookie (use dma_map_resource())";
	case DMAEMU__REGION_VMALLOC:
		return "vmalloc() memory, virtually contiguous only: map its "
		       "pages (vmalloc_to_page()) with dma_map_page() or a "
		       "scatterlist";
	default:
		break;
	}
	if (!pthread_getattr_np(pthread_self(), &attr)) {
		if (!pthread_attr_getstack(&attr, &lo, &sz))
			stack = (uintptr_t)p - (uintptr_t)lo < sz;
		pthread_attr_destroy(&attr);
	}
	return stack ? "the stack (device driver maps memory from stack)"
		     : "host memory outside the emulated machine (heap, "
		       "globals)";
}

/*
 * Linux's active-cacheline tracking (add_dma_entry()): a new streaming
 * mapping of [@phys, +@size) that is not DMA_TO_DEVICE and not
 * DMA_ATTR_SKIP_CPU_SYNC must not share a cache line with a live
 * streaming mapping that is not DMA_TO_DEVICE either (DMA_TO_DEVICE
 * mappings are not tracked: several readers of a line are harmless).  The
 * ownership byte of each line counts the mappings holding it and says
 * whether they are all DMA_TO_DEVICE, so a correct driver pays one byte
 * read a line; the holder is named through the ownership finder.  One
 * report a map; the mapping is made all the same.
 */
static __attribute__((noinline)) void check_overlap_lines(
	struct dmaemu_machine *m, struct device *dev, uint64_t phys,
	size_t size, int dir, unsigned long attrs, const char *fn)
{
	uint64_t line = m->line, p, lo, hi;
	struct dmaemu__owner_info o;
	uint8_t b;

	lo = phys & ~(line - 1);
	hi = ((phys + size - 1) | (line - 1)) + 1;
	for (p = dmaemu__owner_next_writable(m, lo, hi); p < hi;
	     p = dmaemu__owner_next_writable(m, p + line, hi)) {
		b = dmaemu__owner_byte(m, p);
		if (!(b >> DMAEMU__OWN_HOLD_SHIFT) || (b & DMAEMU__OWN_READ_OK))
			continue;
		if (!dmaemu__owner_find(m, p, p + line, &o) ||
		    o.dir == DMAEMU__DIR_TO_DEVICE || o.kmalloc_bounced)
			continue;
		dmaemu__reportf(
			m, DMAEMU_REPORT_OVERLAPPING_MAPPINGS, p, line,
			"%s(%s, phys 0x%" PRIx64 ", %zu bytes, %s): cache line "
			"0x%" PRIx64 " is also held by a live %s %s mapping of "
			"device %s (dma 0x%" PRIx64 ", %zu bytes, %s backend, "
			"made by %s); the CPU's cache maintenance of one "
			"mapping destroys the other's data (map shared buffers "
			"with DMA_ATTR_SKIP_CPU_SYNC, or align them to cache "
			"lines); mapped all the same",
			fn, dev_name(dev), phys, size, dir_name(dir), p,
			o.dir_name, o.sg ? "scatterlist" : "streaming",
			o.device, o.dma, o.size, o.backend,
			dmaemu__owner_made_at(&o));
		return;
	}
}

/* The lines' walk is out of line: most maps are DMA_TO_DEVICE, which
 * need none of its set-up. */
static inline void check_overlap(struct dmaemu_machine *m, struct device *dev,
				 uint64_t phys, size_t size, int dir,
				 unsigned long attrs, const char *fn)
{
	/* 6.12 (arm64): a map bounced for dma_kmalloc_needs_bounce() has
	 * the device write a slot, never the shared line. */
	if (dir == DMAEMU__DIR_TO_DEVICE || (attrs & DMA_ATTR_SKIP_CPU_SYNC) ||
	    !size ||
	    (!m->opt.iommu && dmaemu__dma_kmalloc_needs_bounce(m, size, dir)))
		return;
	check_overlap_lines(m, dev, phys, size, dir, attrs, fn);
}

/*
 * Linux 6.12's check_sg_segment() (kernel/dma/debug.c, with
 * CONFIG_DMA_API_DEBUG_SG; 4.14 has no such check): each of the @n mapped
 * segments of @sgl no longer than dma_get_max_seg_size() (64 KiB unless
 * the driver set it) and its bus range inside one dma_get_seg_boundary()
 * window.  One report a rule a segment breaks; the list stays mapped.
 */
static __attribute__((noinline)) void check_sg_segments(
	struct dmaemu_machine *m, struct device *dev, struct scatterlist *sgl,
	int n, const char *fn)
{
	unsigned int max = dma_get_max_seg_size(dev);
	uint64_t boundary = dma_get_seg_boundary(dev), start, end;
	struct scatterlist *sg;
	int i;

	for_each_sg (sgl, sg, n, i) {
		if (sg->length > max)
			dmaemu__reportf(
				m, DMAEMU_REPORT_SG_SEGMENT_LIMITS, sg_phys(sg),
				sg->length,
				"%s(%s): entry %d is %u bytes, longer than the "
				"device claims to support "
				"(dma_get_max_seg_size() "
				"%u); a device that takes longer segments says "
				"so "
				"with dma_set_max_seg_size() in probe, else "
				"build "
				"the list within the limit (Linux 6.12's "
				"check_sg_segment()); mapped all the same",
				fn, dev_name(dev), i, sg->length, max);
		start = sg_dma_address(sg);
		end = start + sg_dma_len(sg) - 1;
		if (sg_dma_len(sg) && ((start ^ end) & ~boundary))
			dmaemu__reportf(
				m, DMAEMU_REPORT_SG_SEGMENT_LIMITS, sg_phys(sg),
				sg->length,
				"%s(%s): entry %d, dma 0x%" PRIx64 "-0x%" PRIx64
				", crosses the device's segment boundary "
				"(dma_get_seg_boundary() 0x%" PRIx64 "): build "
				"the list so that no entry crosses it (Linux "
				"6.12's check_sg_segment()); mapped all the "
				"same",
				fn, dev_name(dev), i, start, end, boundary);
	}
}

static __attribute__((noinline)) bool fault_map_armed(struct dmaemu_machine *m,
						      struct device *dev,
						      const char *fn,
						      size_t size, int dir)
{
	char what[256];

	snprintf(what, sizeof(what), "%s(%s, %zu bytes, %s)", fn, dev_name(dev),
		 size, dir_name(dir));
	return dmaemu__should_fail(m, DMAEMU_FAULT_DMA_MAP, size, what);
}

/* Should this map fail by fault injection (fail_dma_map)? */
static inline bool fault_map(struct dmaemu_machine *m, struct device *dev,
			     const char *fn, size_t size, int dir)
{
	return dmaemu__fault_armed(m) && fault_map_armed(m, dev, fn, size, dir);
}

/* The device's statistics: a map of @bytes; a sync (the API's calls, counted
 * whether or not they found their mapping). */
static void count_map(struct device *dev, uint64_t bytes)
{
	struct dmaemu__dev_stats *st = dmaemu__dev_stats(dev);

	DMAEMU__STAT_ADD(st, maps, 1);
	DMAEMU__STAT_ADD(st, bytes_mapped, bytes);
}

static void count_sync(struct device *dev, bool for_device)
{
	if (for_device)
		DMAEMU__STAT_ADD(dmaemu__dev_stats(dev), syncs_for_device, 1);
	else
		DMAEMU__STAT_ADD(dmaemu__dev_stats(dev), syncs_for_cpu, 1);
}

/*
 * The JSON trace's view of a buffer (trace.c): its ownership span moves to
 * @owner ("cpu", "device"; NULL: unmapped) and the counters of dirty
 * lines and bounce slots follow.  One test when the JSON form is off.
 */
static __attribute__((noinline)) void trace_json(struct dmaemu_machine *m,
						 struct device *dev,
						 dma_addr_t dma, size_t size,
						 int dir, uint64_t id,
						 const char *owner)
{
	uint64_t lines[CACHESIM_MAX_LEVELS];
	struct dmaemu__swiotlb_stats st;
	char label[96], args[160];
	unsigned int i, n;
	size_t k = 0;

	snprintf(label, sizeof(label), "%s dma=0x%" PRIx64 " len=%zu %s",
		 dev_name(dev), (uint64_t)dma, size, dir_name(dir));
	dmaemu__trace_owner(m, id, owner, label);
	n = dmaemu__cache_dirty_lines(m, lines, CACHESIM_MAX_LEVELS);
	args[0] = '\0';
	for (i = 0; i < n && k < sizeof(args); i++)
		k += (size_t)snprintf(args + k, sizeof(args) - k,
				      "%s\"L%u\":%" PRIu64, i ? "," : "", i + 1,
				      lines[i]);
	dmaemu__trace_counter(m, DMAEMU__TRACE_CTR_DIRTY, "dirty lines", args);
	dmaemu__swiotlb_info(m, &st);
	if (st.nslots) {
		snprintf(args, sizeof(args), "\"used\":%lu", st.used);
		dmaemu__trace_counter(m, DMAEMU__TRACE_CTR_SWIOTLB,
				      "swiotlb slots", args);
	}
}

/*
 * Ownership of the mapping at @dma (trace id @id) is @owner's now, for
 * the JSON trace.
 */
static inline void trace_owner(struct dmaemu_machine *m, struct device *dev,
			       dma_addr_t dma, size_t size, int dir,
			       uint64_t id, const char *owner)
{
	if (__builtin_expect(id != 0, 0) ||
	    __builtin_expect(dmaemu__tracing_json(m, DMAEMU__TRACE_DMA), 0))
		trace_json(m, dev, dma, size, dir, id, owner);
}

/* Zero this thread's maintenance account before a backend's op. */
static inline void maint_start(void)
{
	memset(&dmaemu__maint_acc, 0, sizeof(dmaemu__maint_acc));
}

/* What the op did, into @map's counters (a record not yet live). */
static inline void maint_into(struct dmaemu__mapping *map)
{
	map->bytes_cleaned += dmaemu__maint_acc.cleaned;
	map->bytes_invalidated += dmaemu__maint_acc.invalidated;
	map->bytes_bounced += dmaemu__maint_acc.bounced;
}

/*
 * Map [@phys, +@size) after validation; @type, @cpu, @fn, @caller for the
 * record.  Return: the bus address or DMA_MAPPING_ERROR.
 */
static dma_addr_t map_phys(struct dmaemu_machine *m, struct device *dev,
			   uint64_t phys, const void *cpu, size_t size, int dir,
			   unsigned long attrs, enum dmaemu__map_type type,
			   const char *fn, const void *caller)
{
	const struct dmaemu__dma_ops *ops;
	struct dmaemu__mapping *map;
	uint64_t id = 0;
	dma_addr_t dma;

	if (!has_mask(m, dev, fn))
		return DMA_MAPPING_ERROR;
	if (fault_map(m, dev, fn, size, dir))
		return DMA_MAPPING_ERROR;
	map = dmaemu__mapping_new(0);
	if (!map)
		return DMA_MAPPING_ERROR;
	ops = choose_ops(m, must_bounce(m, dev, phys, size, dir));
	maint_start();
	dma = ops->map(m, dev, phys, size, dir, attrs);
	if (dma == DMA_MAPPING_ERROR) {
		dmaemu__mapping_free(map);
		return DMA_MAPPING_ERROR;
	}
	check_overlap(m, dev, phys, size, dir, attrs, fn);
	fill_record(map, type, dma, phys, size, dir, attrs, ops, fn, caller);
	map->cpu_addr = cpu;
	map->prefetch = m->opt.prefetch;
	maint_into(map);
	if (__builtin_expect(dmaemu__tracing_json(m, DMAEMU__TRACE_DMA), 0))
		map->trace_id = id = dmaemu__trace_new_id(m);
	dmaemu__mapping_insert(dev, map);
	count_map(dev, size);
	dmaemu__owner_map(m, phys, size, dir == DMAEMU__DIR_TO_DEVICE);
	if (m->opt.prefetch)
		dmaemu__prefetch_add_range(m, phys, size);
	/* The test first: the fields cost something to gather. */
	if (dmaemu__tracing(m, DMAEMU__TRACE_DMA))
		dmaemu__trace(m, DMAEMU__TRACE_DMA,
			      type == DMAEMU__MAP_SINGLE ? "dma_map_single"
							 : "dma_map_page",
			      "dev=%s dir=%s phys=0x%" PRIx64 " dma=0x%" PRIx64
			      " len=%zu attrs=0x%lx backend=%s%s",
			      dev_name(dev), dir_name(dir), phys, (uint64_t)dma,
			      size, attrs, ops->id.name,
			      map->bytes_bounced &&
					      dmaemu__dma_kmalloc_needs_bounce(
						      m, size, dir)
				      ? " bounce=dma_kmalloc_needs_bounce"
				      : "");
	trace_owner(m, dev, dma, size, dir, id, "device");
	return dma;
}

static dma_addr_t map_single(struct device *dev, void *ptr, size_t size,
			     int dir, unsigned long attrs, const void *caller)
{
	static const char fn[] = "dma_map_single_attrs";
	struct dmaemu_machine *m = api_enter(dev, fn, dir, attrs);
	struct dmaemu__where w;

	if (!m)
		return DMA_MAPPING_ERROR;
	if (!size) {
		dmaemu__reportf(m, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"%s(%s, %p, 0 bytes): nothing to map", fn,
				dev_name(dev), ptr);
		return DMA_MAPPING_ERROR;
	}
	if (!dmaemu__classify(ptr, &w) || w.m != m ||
	    w.region != DMAEMU__REGION_LINEAR ||
	    !dmaemu__bank_of_phys(m, w.phys, size)) {
		dmaemu__reportf(
			m, DMAEMU_REPORT_MAP_INVALID_MEMORY, 0, size,
			"%s(%s, %p, %zu bytes, %s): the buffer is not in the "
			"linear map: it is in %s; DMA_MAPPING_ERROR returned",
			fn, dev_name(dev), ptr, size, dir_name(dir),
			describe_host(m, ptr, &w));
		return DMA_MAPPING_ERROR;
	}
	return map_phys(m, dev, w.phys, ptr, size, dir, attrs,
			DMAEMU__MAP_SINGLE, fn, caller);
}

/**
 * dma_map_single_attrs() - give a linear-map buffer to @dev.
 * @dev:   the device.
 * @ptr:   the buffer: kmalloc(), page allocator or other linear-map memory.
 * @size:  bytes.
 * @dir:   direction.
 * @attrs: DMA_ATTR_* (SKIP_CPU_SYNC skips the cache maintenance).
 *
 * The lines move to the device domain after the backend's maintenance
 * (docs/dma-api.md has the table per profile).
 *
 * Return: the bus address, or DMA_MAPPING_ERROR: bad argument
 * (bad-argument), memory that is not in the linear map (map-invalid-memory:
 * stack, heap, globals, the uncached or write-combining alias of an
 * allocation), bounce pool or IOVA space exhausted (a retry after other
 * unmaps may succeed), host memory exhausted.
 */
dma_addr_t dma_map_single_attrs(struct device *dev, void *ptr, size_t size,
				enum dma_data_direction dir,
				unsigned long attrs)
{
	DMAEMU__API_CALL(call, "dma_map_single_attrs");
	return map_single(dev, ptr, size, (int)dir, attrs, call.caller);
}

/* Check that @page is a struct page of @m.  Never reads it otherwise. */
static bool page_of_machine(struct dmaemu_machine *m, const struct page *page)
{
	unsigned int i;

	for (i = 0; i < m->nbanks; i++) {
		const struct dmaemu__bank *b = &m->bank[i];

		if (page >= b->pages &&
		    page < b->pages + (b->size >> DMAEMU__PAGE_SHIFT))
			return true;
	}
	return false;
}

static dma_addr_t map_page(struct device *dev, struct page *page, size_t offset,
			   size_t size, int dir, unsigned long attrs,
			   const void *caller)
{
	static const char fn[] = "dma_map_page_attrs";
	struct dmaemu_machine *m = api_enter(dev, fn, dir, attrs);
	uint64_t phys;

	if (!m)
		return DMA_MAPPING_ERROR;
	if (!size || !page || !page_of_machine(m, page)) {
		dmaemu__reportf(m,
				size && page ? DMAEMU_REPORT_MAP_INVALID_MEMORY
					     : DMAEMU_REPORT_BAD_ARGUMENT,
				0, size,
				"%s(%s, page %p, offset %zu, %zu bytes): %s",
				fn, dev_name(dev), (void *)page, offset, size,
				!size	? "nothing to map"
				: !page ? "NULL page"
					: "not a struct page of this machine");
		return DMA_MAPPING_ERROR;
	}
	phys = page->phys + offset;
	if (offset > UINT64_MAX - page->phys ||
	    !dmaemu__bank_of_phys(m, phys, size)) {
		dmaemu__reportf(
			m, DMAEMU_REPORT_BAD_ARGUMENT, page->phys, size,
			"%s(%s, page at 0x%llx, offset %zu, %zu bytes): the "
			"range runs past the end of DRAM",
			fn, dev_name(dev), (unsigned long long)page->phys,
			offset, size);
		return DMA_MAPPING_ERROR;
	}
	return map_phys(m, dev, phys, dmaemu__phys_cpu(m, phys), size, dir,
			attrs, DMAEMU__MAP_PAGE, fn, caller);
}

/**
 * dma_map_page_attrs() - give @size bytes at @offset in @page to @dev.
 * @dev, @dir, @attrs: as dma_map_single_attrs().
 * @page:   a struct page of the device's machine.
 * @offset: byte offset from the start of @page (may run into the pages
 *          after it).
 * @size:   bytes.
 *
 * Return: as dma_map_single_attrs(); a page that is not one of this
 * machine's is map-invalid-memory.
 */
dma_addr_t dma_map_page_attrs(struct device *dev, struct page *page,
			      size_t offset, size_t size,
			      enum dma_data_direction dir, unsigned long attrs)
{
	DMAEMU__API_CALL(call, "dma_map_page_attrs");
	return map_page(dev, page, offset, size, (int)dir, attrs, call.caller);
}

/*
 * The report of an unmap (or a free) that found no live mapping of its
 * @type at @addr (check_unmap()'s first three checks): the handle is
 * DMA_MAPPING_ERROR (unmap-invalid-address), another function made what
 * starts there (unmap-type-mismatch), or nothing does (unmap-not-mapped).
 * Nothing is unmapped.
 */
static void report_no_mapping(struct dmaemu_machine *m, struct device *dev,
			      const char *fn, enum dmaemu__map_type type,
			      dma_addr_t addr, size_t size, int dir)
{
	struct dmaemu__alloc_info info;
	struct dmaemu__mapping other;
	char where[400];

	if (addr == DMA_MAPPING_ERROR) {
		dmaemu__reportf(
			m, DMAEMU_REPORT_UNMAP_INVALID_ADDRESS, 0, size,
			"%s(%s, dma 0x%" PRIx64 ", %zu bytes, %s): the handle "
			"is DMA_MAPPING_ERROR: the map failed (check it with "
			"dma_mapping_error()); nothing is unmapped",
			fn, dev_name(dev), (uint64_t)addr, size, dir_name(dir));
		return;
	}
	if (!dmaemu__mapping_find_start(dev, addr, &other)) {
		made_at(&other, where, sizeof(where));
		dmaemu__reportf(
			m, DMAEMU_REPORT_UNMAP_TYPE_MISMATCH, other.phys, size,
			"%s(%s, dma 0x%" PRIx64 ", %zu bytes, %s): the "
			"mapping at this address is a %s mapping (made "
			"at %s), not a %s one; nothing is unmapped",
			fn, dev_name(dev), (uint64_t)addr, size, dir_name(dir),
			type_names[other.type], where, type_names[type]);
		return;
	}
	if (!dmaemu__alloc_find(dev, NULL, addr, 1, &info) &&
	    info.handle == addr) {
		dmaemu__reportf(
			m, DMAEMU_REPORT_UNMAP_TYPE_MISMATCH, info.phys, size,
			"%s(%s, dma 0x%" PRIx64 ", %zu bytes, %s): the "
			"address is a coherent dma_alloc_attrs() buffer "
			"of %zu bytes (free it with dma_free_attrs()); "
			"nothing is unmapped",
			fn, dev_name(dev), (uint64_t)addr, size, dir_name(dir),
			info.size);
		return;
	}
	dmaemu__reportf(
		m, DMAEMU_REPORT_UNMAP_NOT_MAPPED, 0, size,
		"%s(%s, dma 0x%" PRIx64 ", %zu bytes, %s): no live %s mapping "
		"of this device starts at this address (never mapped, or "
		"already unmapped); nothing is unmapped",
		fn, dev_name(dev), (uint64_t)addr, size, dir_name(dir),
		type_names[type]);
}

/* An unmap with another size than the map's (CONFIG_DMA_API_DEBUG's
 * "unmap with different size"). */
static void report_other_size(struct dmaemu_machine *m, struct device *dev,
			      const char *fn, const struct dmaemu__mapping *map,
			      size_t size, int dir)
{
	char where[400];

	made_at(map, where, sizeof(where));
	dmaemu__reportf(m, DMAEMU_REPORT_UNMAP_SIZE_MISMATCH, map->phys, size,
			"%s(%s, dma 0x%" PRIx64 ", %zu bytes, %s): the mapping "
			"has %zu bytes (made at %s); the cache maintenance "
			"covers the %zu bytes given, as Linux does",
			fn, dev_name(dev), (uint64_t)map->dma, size,
			dir_name(dir), map->size, where, size);
}

/*
 * An unmap or a sync with another direction than the map's
 * (CONFIG_DMA_API_DEBUG's "with different direction"; a sync of a
 * DMA_BIDIRECTIONAL mapping may name either direction).  The maintenance
 * then follows the direction given, as Linux does.
 */
static void report_other_dir(struct dmaemu_machine *m, struct device *dev,
			     const char *fn, const struct dmaemu__mapping *map,
			     dma_addr_t addr, size_t size, int dir,
			     enum dmaemu_report_kind kind)
{
	char where[400];

	made_at(map, where, sizeof(where));
	dmaemu__reportf(m, kind, map->phys, size,
			"%s(%s, dma 0x%" PRIx64 ", %zu bytes, %s): the mapping "
			"is %s (made at %s); the cache maintenance follows "
			"the direction given, as Linux does",
			fn, dev_name(dev), (uint64_t)addr, size, dir_name(dir),
			dir_name(map->dir), where);
}

/* made_at() into @buf the first time a report needs it (@buf starts
 * empty): symbolizing is for reports, not for every unmap. */
static const char *where_of(const struct dmaemu__mapping *map, char *buf,
			    size_t len)
{
	if (!buf[0])
		made_at(map, buf, len);
	return buf;
}

/*
 * check_unmap() once the mapping is found, after its size (which changes
 * the maintenance, so the caller checks it): the function pair
 * single/page (@type), the entry count of a scatterlist (@nents), the
 * direction, and whether dma_mapping_error() looked at the handle of a
 * single or page mapping (Linux 4.14 tracks it for those only).  The
 * unmap goes on whatever they find.
 */
static __attribute__((noinline)) void check_unmap_report(
	struct dmaemu_machine *m, struct device *dev, const char *fn,
	const struct dmaemu__mapping *map, enum dmaemu__map_type type,
	size_t size, int nents, int dir)
{
	/* Filled by where_of() for a report only: zeroing the whole array
	 * here would cost every unmap a 400-byte store. */
	char where[400];

	where[0] = '\0';
	if (map->type != type)
		dmaemu__reportf(
			m, DMAEMU_REPORT_UNMAP_TYPE_MISMATCH, map->phys,
			map->size,
			"%s(%s, dma 0x%" PRIx64 ", %zu bytes, %s): a %s "
			"mapping (made at %s) unmapped as a %s one; "
			"unmapped all the same",
			fn, dev_name(dev), (uint64_t)map->dma, size,
			dir_name(dir), type_names[map->type],
			where_of(map, where, sizeof(where)), type_names[type]);
	if (type == DMAEMU__MAP_SG && nents != map->nents)
		dmaemu__reportf(m, DMAEMU_REPORT_UNMAP_SG_COUNT_MISMATCH,
				map->phys, map->size,
				"%s(%s, %p, %d entries, %s): the list was "
				"mapped with %d entries (made at %s); the "
				"%d recorded entries are unmapped",
				fn, dev_name(dev), (void *)map->sg, nents,
				dir_name(dir), map->nents,
				where_of(map, where, sizeof(where)),
				map->nents);
	if (dir != map->dir)
		report_other_dir(m, dev, fn, map, map->dma, size, dir,
				 DMAEMU_REPORT_UNMAP_DIRECTION_MISMATCH);
	if ((map->type == DMAEMU__MAP_SINGLE ||
	     map->type == DMAEMU__MAP_PAGE) &&
	    !map->error_checked)
		dmaemu__reportf(m, DMAEMU_REPORT_MAPPING_ERROR_NOT_CHECKED,
				map->phys, map->size,
				"%s(%s, dma 0x%" PRIx64 ", %zu bytes, %s): "
				"device driver failed to check map error: "
				"dma_mapping_error() was never called on this "
				"handle (made at %s)",
				fn, dev_name(dev), (uint64_t)map->dma,
				map->size, dir_name(map->dir),
				where_of(map, where, sizeof(where)));
}

/* Whether check_unmap_report() has anything to say, tested inline: a
 * correct unmap pays a few compares. */
static inline void check_unmap(struct dmaemu_machine *m, struct device *dev,
			       const char *fn,
			       const struct dmaemu__mapping *map,
			       enum dmaemu__map_type type, size_t size,
			       int nents, int dir)
{
	if (map->type != type ||
	    (type == DMAEMU__MAP_SG && nents != map->nents) ||
	    dir != map->dir ||
	    ((map->type == DMAEMU__MAP_SINGLE ||
	      map->type == DMAEMU__MAP_PAGE) &&
	     !map->error_checked))
		check_unmap_report(m, dev, fn, map, type, size, nents, dir);
}

/*
 * check_sync()'s checks of the direction and entry count, once the
 * mapping (direction @map_dir, made by @map_fn from @map_caller, at
 * @map_dma, its CPU buffer at @phys) is found; none for a
 * DMA_BIDIRECTIONAL mapping: another direction, a sync for the CPU
 * naming a direction other than DMA_TO_DEVICE of a DMA_TO_DEVICE mapping
 * (the device only reads it), a sync for the device naming one other than
 * DMA_FROM_DEVICE of a DMA_FROM_DEVICE mapping (the device only writes
 * it), and for a scatterlist (@nelems > 0) another entry count than the
 * map's @nents.  Linux 4.14 reports each that holds; the maintenance
 * follows the direction given.
 */
static void check_sync_dir(struct dmaemu_machine *m, struct device *dev,
			   const char *fn, int map_dir, const char *map_fn,
			   const void *map_caller, uint64_t phys,
			   dma_addr_t map_dma, size_t size, int dir,
			   bool for_device, int nelems, int nents)
{
	bool other_dir = dir != map_dir;
	bool cpu_of_to_dev = !for_device &&
			     map_dir != DMAEMU__DIR_FROM_DEVICE &&
			     dir != DMAEMU__DIR_TO_DEVICE;
	bool dev_of_from_dev = for_device && map_dir != DMAEMU__DIR_TO_DEVICE &&
			       dir != DMAEMU__DIR_FROM_DEVICE;
	bool other_count = nelems > 0 && nelems != nents;
	char code[256], where[400];

	if (map_dir == DMAEMU__DIR_BIDI)
		return;
	/* Symbolizing is for reports, not for every sync. */
	if (!other_dir && !cpu_of_to_dev && !dev_of_from_dev && !other_count)
		return;
	dmaemu__code_where(map_caller, code, sizeof(code));
	snprintf(where, sizeof(where), "%s() called from %s", map_fn, code);
	if (other_dir)
		dmaemu__reportf(m, DMAEMU_REPORT_SYNC_DIRECTION_MISMATCH, phys,
				size,
				"%s(%s, dma 0x%" PRIx64 ", %zu bytes, %s): the "
				"mapping is %s (made at %s); the cache "
				"maintenance follows the direction given, as "
				"Linux does",
				fn, dev_name(dev), (uint64_t)map_dma, size,
				dir_name(dir), dir_name(map_dir), where);
	if (cpu_of_to_dev)
		dmaemu__reportf(m, DMAEMU_REPORT_SYNC_CPU_TO_DEVICE, phys, size,
				"%s(%s, dma 0x%" PRIx64 ", %zu bytes, %s): "
				"device driver syncs device read-only DMA "
				"memory for cpu: the mapping is DMA_TO_DEVICE "
				"(made at %s)",
				fn, dev_name(dev), (uint64_t)map_dma, size,
				dir_name(dir), where);
	if (dev_of_from_dev)
		dmaemu__reportf(m, DMAEMU_REPORT_SYNC_DEV_FROM_DEVICE, phys,
				size,
				"%s(%s, dma 0x%" PRIx64 ", %zu bytes, %s): "
				"device driver syncs device write-only DMA "
				"memory to device: the mapping is "
				"DMA_FROM_DEVICE (made at %s)",
				fn, dev_name(dev), (uint64_t)map_dma, size,
				dir_name(dir), where);
	if (other_count)
		dmaemu__reportf(
			m, DMAEMU_REPORT_SYNC_SG_COUNT_MISMATCH, phys, size,
			"%s(%s, dma 0x%" PRIx64 ", %d entries, %s): the "
			"list was mapped with %d entries (made at %s); "
			"the recorded segments are synced",
			fn, dev_name(dev), (uint64_t)map_dma, nelems,
			dir_name(dir), nents, where);
}

/*
 * The maintenance of [@addr, +@size) of mapping @map for the device or the
 * CPU, as Linux 4.14 does it for a range the driver passes: the part
 * inside the mapping through its backend; a part past its end on the
 * physical memory that follows the mapping's last byte (what the
 * architecture's maintenance of phys_to_virt(start), size reaches),
 * clipped to DRAM, except behind a bouncing backend, whose slot ends with
 * the mapping.  Ownership moves for the part inside only.
 */
static void sync_range(struct dmaemu_machine *m, struct device *dev,
		       const struct dmaemu__dma_ops *ops,
		       const struct dmaemu__mapping *map, dma_addr_t addr,
		       size_t size, int dir, bool for_device)
{
	size_t in = map->dma + map->size - addr, past = 0;
	struct dmaemu__bank *b;
	uint64_t p;

	if (size > in)
		past = size - in;
	else
		in = size;
	if (for_device) {
		if (ops->sync_for_device)
			ops->sync_for_device(m, dev, map->dma, map->phys, addr,
					     in, dir);
	} else if (ops->sync_for_cpu) {
		ops->sync_for_cpu(m, dev, map->dma, map->phys, addr, in, dir);
	}
	if (!past || ops->bounces)
		return;
	p = ops->iova_to_phys ? ops->iova_to_phys(m, dev, addr + in - 1)
			      : map->phys + (addr + in - 1 - map->dma);
	if (p == UINT64_MAX)
		return;
	p++;
	b = dmaemu__bank_of_phys(m, p, 1);
	if (!b)
		return;
	if (past > b->phys + b->size - p)
		past = (size_t)(b->phys + b->size - p);
	if (for_device)
		dmaemu__arch_sync_for_device(m, dev, p, past, dir);
	else
		dmaemu__arch_sync_for_cpu(m, dev, p, past, dir);
}

static void unmap_single(struct device *dev, dma_addr_t addr, size_t size,
			 int dir, unsigned long attrs,
			 enum dmaemu__map_type type, const char *fn)
{
	struct dmaemu_machine *m = api_enter(dev, fn, dir, attrs);
	const struct dmaemu__dma_ops *ops;
	struct dmaemu__mapping *map;
	bool skip = attrs & DMA_ATTR_SKIP_CPU_SYNC;

	if (!m)
		return;
	map = dmaemu__mapping_take(dev, addr, type, NULL, size, dir);
	if (!map) {
		report_no_mapping(m, dev, fn, type, addr, size, dir);
		return;
	}
	DMAEMU__STAT_ADD(dmaemu__dev_stats(dev), unmaps, 1);
	ops = dmaemu__dma_ops_of(map->ops);
	if (dmaemu__tracing(m, DMAEMU__TRACE_DMA))
		dmaemu__trace(m, DMAEMU__TRACE_DMA,
			      type == DMAEMU__MAP_SINGLE ? "dma_unmap_single"
							 : "dma_unmap_page",
			      "dev=%s dir=%s phys=0x%" PRIx64 " dma=0x%" PRIx64
			      " len=%zu attrs=0x%lx backend=%s",
			      dev_name(dev), dir_name(dir), map->phys,
			      (uint64_t)map->dma, size, attrs, ops->id.name);
	/* Ownership moves before the maintenance: a bouncing backend's copy
	 * back into the buffer is the CPU's own access.  Without
	 * SKIP_CPU_SYNC the buffer is the CPU's again; with it, the lines
	 * other devices still map stay theirs (the sharing the attribute is
	 * for). */
	handover(dev, map, map->dma, map->size, dir, attrs,
		 DMAEMU__HANDOVER_UNMAP, fn, false);
	dmaemu__owner_unmap(m, map->phys, map->size, skip);
	if (size != map->size)
		report_other_size(m, dev, fn, map, size, dir);
	check_unmap(m, dev, fn, map, type, size, 0, dir);
	if (size != map->size) {
		/* Linux 4.14 maintains the size the driver gave: that much
		 * of the mapping (or past it), then the mapping goes. */
		if (!(attrs & DMA_ATTR_SKIP_CPU_SYNC)) {
			sync_range(m, dev, ops, map, map->dma, size, dir,
				   false);
			attrs |= DMA_ATTR_SKIP_CPU_SYNC;
		}
	}
	if (ops->unmap)
		ops->unmap(m, dev, map->dma, map->phys, map->size, dir, attrs);
	handover(dev, map, map->dma, map->size, dir, attrs,
		 DMAEMU__HANDOVER_UNMAP, fn, true);
	if (map->prefetch)
		dmaemu__prefetch_del_range(m, map->phys, map->size);
	trace_owner(m, dev, map->dma, map->size, map->dir, map->trace_id, NULL);
	dmaemu__mapping_free(map);
}

/**
 * dma_unmap_single_attrs() - end a mapping made by dma_map_single_attrs().
 * @dev:   the device.
 * @addr:  the bus address the map returned.
 * @size:  its size.
 * @dir:   its direction.
 * @attrs: DMA_ATTR_SKIP_CPU_SYNC skips the cache maintenance.
 *
 * The lines go back to the CPU domain after the backend's maintenance.  A
 * handle that is not a live mapping of @dev (never mapped, unmapped
 * already, DMA_MAPPING_ERROR, another function's) is reported
 * (unmap-not-mapped, unmap-invalid-address, unmap-type-mismatch) and
 * nothing happens; a mapping unmapped with another size, direction or
 * function, or whose handle dma_mapping_error() never saw, is reported
 * and unmapped (docs/dma-api.md).
 */
void dma_unmap_single_attrs(struct device *dev, dma_addr_t addr, size_t size,
			    enum dma_data_direction dir, unsigned long attrs)
{
	DMAEMU__API_CALL(call, "dma_unmap_single_attrs");
	unmap_single(dev, addr, size, (int)dir, attrs, DMAEMU__MAP_SINGLE,
		     call.fn);
}

/** dma_unmap_page_attrs() - end a dma_map_page_attrs() mapping. */
void dma_unmap_page_attrs(struct device *dev, dma_addr_t addr, size_t size,
			  enum dma_data_direction dir, unsigned long attrs)
{
	DMAEMU__API_CALL(call, "dma_unmap_page_attrs");
	unmap_single(dev, addr, size, (int)dir, attrs, DMAEMU__MAP_PAGE,
		     call.fn);
}

/* ---------------------------------------------------------------------- */
/* Scatterlists                                                           */
/* ---------------------------------------------------------------------- */

static int map_sg(struct device *dev, struct scatterlist *sgl, int nents,
		  int dir, unsigned long attrs, const void *caller)
{
	static const char fn[] = "dma_map_sg_attrs";
	struct dmaemu_machine *m = api_enter(dev, fn, dir, attrs);
	const struct dmaemu__dma_ops *ops;
	struct dmaemu__mapping *head, *seg;
	struct scatterlist *sg;
	bool bounce = false;
	uint64_t bytes, id = 0;
	int i, n;

	if (!m)
		return 0;
	if (!sgl || nents <= 0) {
		dmaemu__reportf(m, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"%s(%s, %p, %d entries): %s", fn, dev_name(dev),
				(void *)sgl, nents,
				sgl ? "no entries" : "NULL scatterlist");
		return 0;
	}
	if (!has_mask(m, dev, fn))
		return 0;
	if (dmaemu__fault_armed(m)) {
		size_t total = 0;

		for_each_sg (sgl, sg, nents, i)
			total += sg->length;
		if (fault_map(m, dev, fn, total, dir))
			return 0;
	}
	head = dmaemu__mapping_new(nents);
	if (!head)
		return 0;
	for_each_sg (sgl, sg, nents, i) {
		struct page *page = sg_page(sg);
		uint64_t phys;

		if (!page || !page_of_machine(m, page) || !sg->length ||
		    !dmaemu__bank_of_phys(m, page->phys + sg->offset,
					  sg->length)) {
			dmaemu__reportf(
				m,
				page && !page_of_machine(m, page)
					? DMAEMU_REPORT_MAP_INVALID_MEMORY
					: DMAEMU_REPORT_BAD_ARGUMENT,
				0, sg->length,
				"%s(%s): entry %d (page %p, offset %u, %u "
				"bytes): %s; nothing mapped",
				fn, dev_name(dev), i, (void *)page, sg->offset,
				sg->length,
				!page ? "no page"
				: !page_of_machine(m, page)
					? "not a struct page of this machine "
					  "(sg_set_buf() of memory outside "
					  "the linear map?)"
				: !sg->length ? "empty entry"
					      : "runs past the end of DRAM");
			dmaemu__mapping_free(head);
			return 0;
		}
		phys = sg_phys(sg);
		head->ents[i].phys = phys;
		head->ents[i].len = sg->length;
		/* One entry that must bounce sends the list to a backend
		 * that bounces (it maps the others directly). */
		bounce |= must_bounce(m, dev, phys, sg->length, dir);
	}
	ops = choose_ops(m, bounce);

	maint_start();
	n = ops->map_sg(m, dev, sgl, nents, dir, attrs);
	if (n <= 0) {
		dmaemu__mapping_free(head);
		return 0;
	}
	head->type = DMAEMU__MAP_SG;
	head->mapped = 0;
	head->segs[0] = head;
	for (i = 1; i < n; i++) {
		head->segs[i] = dmaemu__mapping_new(0);
		if (!head->segs[i])
			break;
		head->mapped = i; /* what dmaemu__mapping_free() must free */
	}
	if (i < n) {
		if (ops->unmap_sg)
			ops->unmap_sg(m, dev, sgl, nents, dir,
				      attrs | DMA_ATTR_SKIP_CPU_SYNC);
		head->mapped = i;
		dmaemu__mapping_free(head);
		return 0;
	}
	head->mapped = n;
	for_each_sg (sgl, sg, n, i) {
		seg = head->segs[i];
		seg->type = DMAEMU__MAP_SG;
		seg->dma = sg_dma_address(sg);
		seg->size = sg_dma_len(sg);
		seg->phys = ops->iova_to_phys
				    ? ops->iova_to_phys(m, dev, seg->dma)
				    : head->ents[i].phys;
		seg->cpu_addr = dmaemu__phys_cpu(m, seg->phys);
		seg->dir = dir;
		seg->attrs = attrs;
		seg->ops = &ops->id;
		seg->fn = fn;
		seg->caller = caller;
		seg->sg = sgl;
		seg->nents = nents;
		seg->mapped = n;
		seg->seg = i;
		seg->head = head;
		seg->prefetch = m->opt.prefetch;
	}
	if (m->opt.k612)
		check_sg_segments(m, dev, sgl, n, fn);
	for (i = 0; i < nents; i++)
		check_overlap(m, dev, head->ents[i].phys, head->ents[i].len,
			      dir, attrs, fn);
	maint_into(head);
	if (__builtin_expect(dmaemu__tracing_json(m, DMAEMU__TRACE_DMA), 0))
		head->trace_id = id = dmaemu__trace_new_id(m);
	dmaemu__mapping_insert(dev, head);
	for (i = 0, bytes = 0; i < nents; i++)
		bytes += head->ents[i].len;
	count_map(dev, bytes);
	for (i = 0; i < nents; i++) {
		dmaemu__owner_map(m, head->ents[i].phys, head->ents[i].len,
				  dir == DMAEMU__DIR_TO_DEVICE);
		if (m->opt.prefetch)
			dmaemu__prefetch_add_range(m, head->ents[i].phys,
						   head->ents[i].len);
	}
	dmaemu__trace(m, DMAEMU__TRACE_DMA, "dma_map_sg",
		      "dev=%s dir=%s nents=%d mapped=%d dma=0x%" PRIx64
		      " attrs=0x%lx backend=%s",
		      dev_name(dev), dir_name(dir), nents, n,
		      (uint64_t)sg_dma_address(sgl), attrs, ops->id.name);
	trace_owner(m, dev, sg_dma_address(sgl), sg_dma_len(sgl), dir, id,
		    "device");
	return n;
}

/**
 * dma_map_sg_attrs() - give the entries of a scatterlist to @dev.
 * @dev:   the device.
 * @sg:    the list; each entry a page of this machine, offset and length.
 * @nents: entries to map.
 * @dir:   direction.
 * @attrs: DMA_ATTR_* bits.
 *
 * Fills sg_dma_address()/sg_dma_len() of the first N entries.  Without an
 * IOMMU each entry is its own segment (N == @nents); the IOMMU may merge.
 *
 * Return: N, or 0 on failure (reported, except plain exhaustion of the
 * bounce pool or IOVA space with DMA_ATTR_NO_WARN); nothing stays mapped
 * then.
 */
int dma_map_sg_attrs(struct device *dev, struct scatterlist *sg, int nents,
		     enum dma_data_direction dir, unsigned long attrs)
{
	DMAEMU__API_CALL(call, "dma_map_sg_attrs");
	return map_sg(dev, sg, nents, (int)dir, attrs, call.caller);
}

/**
 * dma_unmap_sg_attrs() - end a dma_map_sg_attrs() mapping.
 * @dev:   the device.
 * @sg:    the list given to the map.
 * @nents: the count given to the map (not its result).
 * @dir:   direction.
 * @attrs: DMA_ATTR_SKIP_CPU_SYNC skips the cache maintenance.
 *
 * A list that is not live for @dev is reported (unmap-not-mapped,
 * unmap-type-mismatch), nothing happens; another @nents
 * (unmap-sg-count-mismatch) or direction is reported and the recorded
 * entries are unmapped.
 */
void dma_unmap_sg_attrs(struct device *dev, struct scatterlist *sg, int nents,
			enum dma_data_direction dir, unsigned long attrs)
{
	static const char fn[] = "dma_unmap_sg_attrs";
	const struct dmaemu__dma_ops *ops;
	struct dmaemu_machine *m;
	struct dmaemu__mapping *head, other;
	int i;

	DMAEMU__API_CALL(call, fn);
	m = api_enter(dev, fn, (int)dir, attrs);
	if (!m)
		return;
	head = sg ? dmaemu__mapping_take(dev, sg_dma_address(sg),
					 DMAEMU__MAP_SG, sg, 0, -1)
		  : NULL;
	/* Unless another list's segment starts there: the error cookie,
	 * another kind of mapping or allocation, or nothing. */
	if (!head && sg &&
	    (dmaemu__mapping_find_start(dev, sg_dma_address(sg), &other) ||
	     other.type != DMAEMU__MAP_SG)) {
		report_no_mapping(m, dev, fn, DMAEMU__MAP_SG,
				  sg_dma_address(sg), 0, (int)dir);
		return;
	}
	if (!head) {
		dmaemu__reportf(
			m, DMAEMU_REPORT_UNMAP_NOT_MAPPED, 0, 0,
			"%s(%s, %p, %d entries, %s): not a live scatterlist "
			"mapping of this device (never mapped, already "
			"unmapped, or its sg_dma_address() was changed); "
			"nothing is unmapped",
			fn, dev_name(dev), (void *)sg, nents,
			dir_name((int)dir));
		return;
	}
	DMAEMU__STAT_ADD(dmaemu__dev_stats(dev), unmaps, 1);
	/* The recorded count is what is unmapped. */
	check_unmap(m, dev, fn, head, DMAEMU__MAP_SG, head->size, nents,
		    (int)dir);
	ops = dmaemu__dma_ops_of(head->ops);
	dmaemu__trace(m, DMAEMU__TRACE_DMA, "dma_unmap_sg",
		      "dev=%s dir=%s nents=%d dma=0x%" PRIx64
		      " attrs=0x%lx backend=%s",
		      dev_name(dev), dir_name((int)dir), head->nents,
		      (uint64_t)head->dma, attrs, ops->id.name);
	for (i = 0; i < head->nents; i++)
		dmaemu__owncheck_handover(dev, head, head->ents[i].phys,
					  head->ents[i].len, (int)dir, attrs,
					  DMAEMU__HANDOVER_UNMAP, fn);
	/* Ownership first: a bouncing backend's copy back is the CPU's. */
	for (i = 0; i < head->nents; i++)
		dmaemu__owner_unmap(m, head->ents[i].phys, head->ents[i].len,
				    attrs & DMA_ATTR_SKIP_CPU_SYNC);
	if (ops->unmap_sg)
		ops->unmap_sg(m, dev, sg, head->nents, (int)dir, attrs);
	for (i = 0; i < head->nents; i++)
		dmaemu__owner_stores_take(m, head->ents[i].phys,
					  head->ents[i].len, NULL);
	for (i = 0; i < head->nents; i++) {
		if (head->prefetch)
			dmaemu__prefetch_del_range(m, head->ents[i].phys,
						   head->ents[i].len);
	}
	trace_owner(m, dev, head->dma, head->size, head->dir, head->trace_id,
		    NULL);
	dmaemu__mapping_free(head);
}

static void sync_sg(struct device *dev, struct scatterlist *sg, int nelems,
		    int dir, bool for_device, const char *fn)
{
	struct dmaemu_machine *m = api_enter(dev, fn, dir, 0);
	const struct dmaemu__dma_ops *ops;
	struct dmaemu__sg_copy *c = NULL;
	struct dmaemu__mapping as_map;
	uint64_t id;
	int i, ret;

	if (!m)
		return;
	count_sync(dev, for_device);
	ret = sg ? dmaemu__mapping_find_sg(dev, sg_dma_address(sg), sg, &c)
		 : -ENOENT;
	if (ret) {
		if (ret == -ENOENT)
			dmaemu__reportf(
				m, DMAEMU_REPORT_SYNC_NOT_MAPPED, 0, 0,
				"%s(%s, %p, %d entries, %s): not a live "
				"scatterlist mapping of this device; nothing "
				"is synced",
				fn, dev_name(dev), (void *)sg, nelems,
				dir_name(dir));
		return;
	}
	check_sync_dir(m, dev, fn, c->dir, c->fn, c->caller,
		       c->nents ? c->ents[0].phys : 0, sg_dma_address(sg),
		       c->seg_len[0], dir, for_device, nelems, c->nents);
	dmaemu__trace(m, DMAEMU__TRACE_DMA,
		      for_device ? "dma_sync_sg_for_device"
				 : "dma_sync_sg_for_cpu",
		      "dev=%s dir=%s nents=%d dma=0x%" PRIx64, dev_name(dev),
		      dir_name(dir), nelems, (uint64_t)sg_dma_address(sg));
	ops = dmaemu__dma_ops_of(c->ops);
	/* The CPU's stores into the entries (the list as its mapping). */
	memset(&as_map, 0, sizeof(as_map));
	as_map.type = DMAEMU__MAP_SG;
	as_map.dma = sg_dma_address(sg);
	as_map.dir = c->dir;
	as_map.ops = c->ops;
	as_map.fn = c->fn;
	as_map.caller = c->caller;
	as_map.nents = c->nents;
	for (i = 0; i < c->nents; i++)
		dmaemu__owncheck_handover(
			dev, &as_map, c->ents[i].phys, c->ents[i].len, dir, 0,
			for_device ? DMAEMU__HANDOVER_FOR_DEVICE
				   : DMAEMU__HANDOVER_FOR_CPU,
			fn);
	/* For the CPU, ownership moves first: a bouncing backend's copy back
	 * into the buffer is the CPU's own access to it. */
	for (i = 0; !for_device && i < c->nents; i++)
		dmaemu__owner_set(m, c->ents[i].phys, c->ents[i].len,
				  DMAEMU__DOMAIN_CPU);
	maint_start();
	for (i = 0; i < c->mapped; i++) {
		/* Without iova_to_phys a segment is its entry. */
		uint64_t phys = i < c->nents ? c->ents[i].phys : 0;

		if (for_device && ops->sync_for_device)
			ops->sync_for_device(m, dev, c->seg_dma[i], phys,
					     c->seg_dma[i], c->seg_len[i], dir);
		else if (!for_device && ops->sync_for_cpu)
			ops->sync_for_cpu(m, dev, c->seg_dma[i], phys,
					  c->seg_dma[i], c->seg_len[i], dir);
	}
	for (i = 0; for_device && i < c->nents; i++)
		dmaemu__owner_set(m, c->ents[i].phys, c->ents[i].len,
				  DMAEMU__DOMAIN_DEVICE);
	/* The copy back made no store of the driver's. */
	for (i = 0; !for_device && i < c->nents; i++)
		dmaemu__owner_stores_take(m, c->ents[i].phys, c->ents[i].len,
					  NULL);
	id = dmaemu__mapping_account(dev, sg_dma_address(sg), DMAEMU__MAP_SG, 0,
				     -1, for_device, &dmaemu__maint_acc);
	trace_owner(m, dev, sg_dma_address(sg), c->seg_len[0], c->dir, id,
		    for_device ? "device" : "cpu");
	dmaemu__free(c);
}

/**
 * dma_sync_sg_for_cpu() - give a mapped scatterlist back to the CPU.
 * @dev:    the device.
 * @sg:     the list given to dma_map_sg_attrs().
 * @nelems: the count given to the map.
 * @dir:    direction.
 */
void dma_sync_sg_for_cpu(struct device *dev, struct scatterlist *sg, int nelems,
			 enum dma_data_direction dir)
{
	DMAEMU__API_CALL(call, "dma_sync_sg_for_cpu");
	sync_sg(dev, sg, nelems, (int)dir, false, call.fn);
}

/** dma_sync_sg_for_device() - give a mapped scatterlist to the device. */
void dma_sync_sg_for_device(struct device *dev, struct scatterlist *sg,
			    int nelems, enum dma_data_direction dir)
{
	DMAEMU__API_CALL(call, "dma_sync_sg_for_device");
	sync_sg(dev, sg, nelems, (int)dir, true, call.fn);
}

/* ---------------------------------------------------------------------- */
/* Resources                                                              */
/* ---------------------------------------------------------------------- */

static dma_addr_t map_resource(struct device *dev, phys_addr_t phys,
			       size_t size, int dir, unsigned long attrs,
			       const void *caller)
{
	static const char fn[] = "dma_map_resource";
	struct dmaemu_machine *m = api_enter(dev, fn, dir, attrs);
	const struct dmaemu__dma_ops *ops;
	struct dmaemu__mapping *map;
	unsigned int i;
	dma_addr_t dma;

	if (!m)
		return DMA_MAPPING_ERROR;
	if (!size || phys + size - 1 < phys) {
		dmaemu__reportf(m, DMAEMU_REPORT_BAD_ARGUMENT, phys, size,
				"%s(%s, 0x%llx, %zu bytes): %s", fn,
				dev_name(dev), (unsigned long long)phys, size,
				size ? "the range wraps around"
				     : "nothing to map");
		return DMA_MAPPING_ERROR;
	}
	if (fault_map(m, dev, fn, size, dir))
		return DMA_MAPPING_ERROR;
	for (i = 0; i < m->nbanks; i++) {
		const struct dmaemu__bank *b = &m->bank[i];

		if (phys < b->phys + b->size && b->phys <= phys + size - 1) {
			dmaemu__reportf(
				m, DMAEMU_REPORT_BAD_ARGUMENT, phys, size,
				"%s(%s, 0x%llx, %zu bytes): the range is DRAM; "
				"dma_map_resource() is for MMIO (use "
				"dma_map_page() or dma_map_single())",
				fn, dev_name(dev), (unsigned long long)phys,
				size);
			return DMA_MAPPING_ERROR;
		}
	}
	map = dmaemu__mapping_new(0);
	if (!map)
		return DMA_MAPPING_ERROR;
	/* MMIO is never bounced.  Without the op the bus address is the
	 * physical one, dma_offset or not, as Linux 4.14's
	 * dma_map_resource() has it when the ops have no map_resource. */
	ops = choose_resource_ops(m);
	dma = ops->map_resource
		      ? ops->map_resource(m, dev, phys, size, dir, attrs)
		      : phys;
	if (dma == DMA_MAPPING_ERROR) {
		dmaemu__mapping_free(map);
		return DMA_MAPPING_ERROR;
	}
	fill_record(map, DMAEMU__MAP_RESOURCE, dma, phys, size, dir, attrs, ops,
		    fn, caller);
	dmaemu__mapping_insert(dev, map);
	count_map(dev, size);
	return dma;
}

/**
 * dma_map_resource() - map an MMIO range of another device for @dev
 * (device-to-device DMA).
 * @dev:       the device.
 * @phys_addr: physical address of the range: not DRAM.
 * @size:      bytes.
 * @dir:       direction.
 * @attrs:     DMA_ATTR_* bits.
 *
 * No cache maintenance.  Device accesses to the range are not modelled
 * (they fault, see docs/dma-api.md).
 *
 * Return: the bus address, or DMA_MAPPING_ERROR (bad argument, DRAM,
 * IOVA space exhausted).
 */
dma_addr_t dma_map_resource(struct device *dev, phys_addr_t phys_addr,
			    size_t size, enum dma_data_direction dir,
			    unsigned long attrs)
{
	DMAEMU__API_CALL(call, "dma_map_resource");
	return map_resource(dev, phys_addr, size, (int)dir, attrs, call.caller);
}

/** dma_unmap_resource() - end a dma_map_resource() mapping. */
void dma_unmap_resource(struct device *dev, dma_addr_t addr, size_t size,
			enum dma_data_direction dir, unsigned long attrs)
{
	static const char fn[] = "dma_unmap_resource";
	const struct dmaemu__dma_ops *ops;
	struct dmaemu_machine *m;
	struct dmaemu__mapping *map;

	DMAEMU__API_CALL(call, fn);
	m = api_enter(dev, fn, (int)dir, attrs);
	if (!m)
		return;
	map = dmaemu__mapping_take(dev, addr, DMAEMU__MAP_RESOURCE, NULL, size,
				   dir);
	if (!map) {
		report_no_mapping(m, dev, fn, DMAEMU__MAP_RESOURCE, addr, size,
				  (int)dir);
		return;
	}
	DMAEMU__STAT_ADD(dmaemu__dev_stats(dev), unmaps, 1);
	if (size != map->size)
		report_other_size(m, dev, fn, map, size, (int)dir);
	check_unmap(m, dev, fn, map, DMAEMU__MAP_RESOURCE, size, 0, (int)dir);
	ops = dmaemu__dma_ops_of(map->ops);
	if (ops->unmap_resource)
		ops->unmap_resource(m, dev, map->dma, map->size, (int)dir,
				    attrs);
	dmaemu__mapping_free(map);
}

/* ---------------------------------------------------------------------- */
/* dma_mapping_error                                                      */
/* ---------------------------------------------------------------------- */

/**
 * dma_mapping_error() - did a map call fail?
 * @dev:      the device.
 * @dma_addr: what the map returned.
 *
 * Also tells the checker that the driver looked (CONFIG_DMA_API_DEBUG
 * reports mappings whose error was never checked).
 *
 * Return: for DMA_MAPPING_ERROR 1 on a kernel=4.14 machine (the
 * comparison 4.14's dma-direct and swiotlb ops make) and -ENOMEM on a
 * kernel=6.12 one (6.12's dma_mapping_error()); 0 otherwise.
 */
int dma_mapping_error(struct device *dev, dma_addr_t dma_addr)
{
	DMAEMU__API_CALL(call, "dma_mapping_error");
	struct dmaemu_machine *m = api_enter(dev, call.fn, -1, 0);

	if (m && dma_addr != DMA_MAPPING_ERROR)
		dmaemu__mapping_checked(dev, dma_addr);
	if (dma_addr != DMA_MAPPING_ERROR)
		return 0;
	return m && m->opt.k612 ? -ENOMEM : 1;
}

/* ---------------------------------------------------------------------- */
/* Syncs                                                                  */
/* ---------------------------------------------------------------------- */

/*
 * A sync of a handle that is no streaming mapping: a NON_CONSISTENT
 * allocation gets the maintenance of the range.  Return: false when
 * @addr is no allocation either.
 */
static bool sync_allocation(struct dmaemu_machine *m, struct device *dev,
			    dma_addr_t addr, size_t size, int dir,
			    bool for_device)
{
	struct dmaemu__alloc_info info;
	uint64_t phys;

	if (dmaemu__alloc_find(dev, NULL, addr, size ? size : 1, &info))
		return false;
	if (!(info.attrs & DMA_ATTR_NON_CONSISTENT || info.pages) ||
	    !info.contiguous)
		return true; /* coherent memory: nothing to do */
	phys = info.phys + (addr - info.handle);
	if (for_device)
		dmaemu__arch_sync_for_device(m, dev, phys, size, dir);
	else
		dmaemu__arch_sync_for_cpu(m, dev, phys, size, dir);
	return true;
}

/* After a sync of @map: its counters, its ownership span. */
static void sync_done(struct dmaemu_machine *m, struct device *dev,
		      const struct dmaemu__mapping *map, bool for_device)
{
	uint64_t id = dmaemu__mapping_account(dev, map->dma, map->type,
					      map->size, map->dir, for_device,
					      &dmaemu__maint_acc);

	trace_owner(m, dev, map->dma, map->size, map->dir, id,
		    for_device ? "device" : "cpu");
}

/* The prefetcher follows a sync's change of owner (@pf, see dma.h). */
static void prefetch_follow(struct dmaemu_machine *m,
			    const struct dmaemu__mapping *map, int pf)
{
	if (m->opt.prefetch && pf > 0)
		dmaemu__prefetch_add_range(m, map->phys, map->size);
	else if (m->opt.prefetch && pf < 0)
		dmaemu__prefetch_del_range(m, map->phys, map->size);
}

/*
 * A sync of [@handle + @offset, +@size): the mapping is the one @handle
 * names (dmaemu__mapping_named(): by the handle, as dma-debug matches its
 * entry, never a mapping that merely covers the range), and a range that
 * runs past its end is reported whatever else covers the bytes past it.
 */
static void sync_single(struct device *dev, dma_addr_t handle,
			unsigned long offset, size_t size, int dir,
			bool for_device, const char *fn)
{
	struct dmaemu_machine *m = api_enter(dev, fn, dir, 0);
	const struct dmaemu__dma_ops *ops;
	struct dmaemu__mapping map;
	dma_addr_t addr = handle + offset;
	uint64_t extent = (uint64_t)offset + size, in;
	int pf = for_device ? 1 : -1;
	enum dmaemu__handover how = for_device ? DMAEMU__HANDOVER_FOR_DEVICE
					       : DMAEMU__HANDOVER_FOR_CPU;

	if (!m)
		return;
	count_sync(dev, for_device);
	dmaemu__trace(m, DMAEMU__TRACE_DMA,
		      for_device ? "dma_sync_single_for_device"
				 : "dma_sync_single_for_cpu",
		      "dev=%s dir=%s dma=0x%" PRIx64 " len=%zu", dev_name(dev),
		      dir_name(dir), (uint64_t)addr, size);
	if (dmaemu__mapping_named(dev, handle, extent, size, &map,
				  m->opt.prefetch ? &pf : NULL)) {
		if (!sync_allocation(m, dev, addr, size, dir, for_device))
			dmaemu__reportf(
				m, DMAEMU_REPORT_SYNC_NOT_MAPPED, 0, size,
				"%s(%s, dma 0x%" PRIx64 ", %zu bytes, %s): "
				"not inside a live mapping or allocation of "
				"this device; nothing is synced",
				fn, dev_name(dev), (uint64_t)addr, size,
				dir_name(dir));
		return;
	}
	if (map.type == DMAEMU__MAP_RESOURCE)
		return; /* MMIO: no cache, no ownership */
	/* Bytes of the range inside the mapping: addr is at or after its
	 * start (the handle is), maybe past its end (a _range_ offset). */
	in = addr - map.dma < map.size ? map.dma + map.size - addr : 0;
	if (size > in) {
		/* The range runs past the end of its mapping. */
		char where[400];

		made_at(&map, where, sizeof(where));
		dmaemu__reportf(
			m, DMAEMU_REPORT_SYNC_OUT_OF_RANGE,
			map.phys + (addr - map.dma), size,
			"%s(%s, dma 0x%" PRIx64
			", %zu bytes, %s): runs %" PRIu64
			" bytes past the end of its mapping (dma 0x%" PRIx64
			", %zu bytes, made at %s); %s",
			fn, dev_name(dev), (uint64_t)addr, size, dir_name(dir),
			(uint64_t)(extent - (map.dma + map.size - handle)),
			(uint64_t)map.dma, map.size, where,
			in ? "the cache maintenance covers the whole range, "
			     "as Linux does"
			   : "it starts past the end: nothing is synced");
		if (!in) {
			prefetch_follow(m, &map, pf);
			return;
		}
		check_sync_dir(m, dev, fn, map.dir, map.fn, map.caller,
			       map.phys, map.dma, size, dir, for_device, 0, 0);
		ops = dmaemu__dma_ops_of(map.ops);
		handover(dev, &map, addr, size, dir, 0, how, fn, false);
		if (!for_device)
			owner_move(m, dev, &map, addr, (size_t)in,
				   DMAEMU__DOMAIN_CPU);
		maint_start();
		sync_range(m, dev, ops, &map, addr, size, dir, for_device);
		if (!for_device)
			handover(dev, &map, addr, size, dir, 0, how, fn, true);
		if (for_device)
			owner_move(m, dev, &map, addr, (size_t)in,
				   DMAEMU__DOMAIN_DEVICE);
		sync_done(m, dev, &map, for_device);
		prefetch_follow(m, &map, pf);
		return;
	}
	check_sync_dir(m, dev, fn, map.dir, map.fn, map.caller,
		       map.phys + (addr - map.dma), map.dma, size, dir,
		       for_device, 0, 0);
	ops = dmaemu__dma_ops_of(map.ops);
	/* For the CPU, ownership moves first (a bounce copy back is the
	 * CPU's access); for the device, after the maintenance. */
	handover(dev, &map, addr, size, dir, 0, how, fn, false);
	if (!for_device)
		owner_move(m, dev, &map, addr, size, DMAEMU__DOMAIN_CPU);
	maint_start();
	sync_range(m, dev, ops, &map, addr, size, dir, for_device);
	if (for_device)
		owner_move(m, dev, &map, addr, size, DMAEMU__DOMAIN_DEVICE);
	else
		handover(dev, &map, addr, size, dir, 0, how, fn, true);
	sync_done(m, dev, &map, for_device);
	prefetch_follow(m, &map, pf);
}

/**
 * dma_sync_single_for_cpu() - give (part of) a mapping back to the CPU.
 * @dev:  the device.
 * @addr: a bus address inside a live mapping (usually its start).
 * @size: bytes from there.
 * @dir:  the mapping's direction.
 *
 * Cache maintenance for the CPU (docs/dma-api.md); the lines move to the
 * CPU domain.  Also accepted on the handle of a NON_CONSISTENT allocation.
 * A range that is not inside a live mapping or allocation is reported
 * (sync-not-mapped) and nothing happens; one that runs past the end of
 * its mapping (sync-out-of-range), or names a direction the mapping does
 * not allow, is reported and maintained as Linux does (docs/dma-api.md).
 */
void dma_sync_single_for_cpu(struct device *dev, dma_addr_t addr, size_t size,
			     enum dma_data_direction dir)
{
	DMAEMU__API_CALL(call, "dma_sync_single_for_cpu");
	sync_single(dev, addr, 0, size, (int)dir, false, call.fn);
}

/** dma_sync_single_for_device() - give (part of) a mapping to the device. */
void dma_sync_single_for_device(struct device *dev, dma_addr_t addr,
				size_t size, enum dma_data_direction dir)
{
	DMAEMU__API_CALL(call, "dma_sync_single_for_device");
	sync_single(dev, addr, 0, size, (int)dir, true, call.fn);
}

/** dma_sync_single_range_for_cpu() - sync_for_cpu of @addr + @offset. */
void dma_sync_single_range_for_cpu(struct device *dev, dma_addr_t addr,
				   unsigned long offset, size_t size,
				   enum dma_data_direction dir)
{
	DMAEMU__API_CALL(call, "dma_sync_single_range_for_cpu");
	sync_single(dev, addr, offset, size, (int)dir, false, call.fn);
}

/** dma_sync_single_range_for_device() - sync_for_device of @addr + @offset. */
void dma_sync_single_range_for_device(struct device *dev, dma_addr_t addr,
				      unsigned long offset, size_t size,
				      enum dma_data_direction dir)
{
	DMAEMU__API_CALL(call, "dma_sync_single_range_for_device");
	sync_single(dev, addr, offset, size, (int)dir, true, call.fn);
}

/**
 * dma_cache_sync() - cache maintenance of a NON_CONSISTENT allocation.
 * @dev:   the device.
 * @vaddr: an address inside a dma_alloc_attrs(DMA_ATTR_NON_CONSISTENT)
 *         buffer of @dev.
 * @size:  bytes from there.
 * @dir:   DMA_TO_DEVICE cleans, DMA_FROM_DEVICE invalidates,
 *         DMA_BIDIRECTIONAL does both; nothing on x86 (devices snoop).
 *
 * Memory that is not such an allocation is reported (sync-not-mapped).
 */
void dma_cache_sync(struct device *dev, void *vaddr, size_t size,
		    enum dma_data_direction dir)
{
	static const char fn[] = "dma_cache_sync";
	struct dmaemu_machine *m;
	struct dmaemu__alloc_info info;
	uint64_t phys;

	DMAEMU__API_CALL(call, fn);
	m = api_enter(dev, fn, (int)dir, 0);
	if (!m)
		return;
	if (m->opt.k612) {
		dmaemu__reportf(m, DMAEMU_REPORT_BAD_ARGUMENT, 0, size,
				"%s(%s): removed in Linux 5.10, not in the "
				"machine's kernel=6.12: sync the handle of a "
				"dma_alloc_noncoherent() buffer with "
				"dma_sync_single_for_device()/_for_cpu()",
				fn, dev_name(dev));
		return;
	}
	if (dmaemu__alloc_find(dev, vaddr, 0, size ? size : 1, &info) ||
	    !(info.attrs & DMA_ATTR_NON_CONSISTENT) || !info.contiguous) {
		dmaemu__reportf(
			m, DMAEMU_REPORT_SYNC_NOT_MAPPED, 0, size,
			"%s(%s, %p, %zu bytes, %s): %s", fn, dev_name(dev),
			vaddr, size, dir_name((int)dir),
			dmaemu__alloc_find(dev, vaddr, 0, size ? size : 1,
					   &info)
				? "not inside a live allocation of this device"
				: "not a DMA_ATTR_NON_CONSISTENT allocation "
				  "(coherent memory needs no maintenance)");
		return;
	}
	phys = info.phys +
	       (uint64_t)((uintptr_t)vaddr - (uintptr_t)info.cpu_addr);
	dmaemu__trace(m, DMAEMU__TRACE_DMA, "dma_cache_sync",
		      "dev=%s dir=%s phys=0x%" PRIx64 " len=%zu", dev_name(dev),
		      dir_name((int)dir), phys, size);
	if (m->opt.profile == DMAEMU__PROFILE_X86 || !size)
		return;
	switch ((int)dir) {
	case DMAEMU__DIR_TO_DEVICE:
		dmaemu__range_clean(m, phys, size);
		break;
	case DMAEMU__DIR_FROM_DEVICE:
		dmaemu__range_invalidate(m, phys, size);
		break;
	default:
		dmaemu__range_clean_invalidate(m, phys, size);
		break;
	}
}

/* ---------------------------------------------------------------------- */
/* Device destroy                                                         */
/* ---------------------------------------------------------------------- */

/*
 * Unmap a leaked scatterlist through its backend from the record alone:
 * the driver's list may be gone by now.  Return: false when out of host
 * memory (the backend's state then stays as it is).
 */
static bool release_sg(struct dmaemu_machine *m, struct device *dev,
		       const struct dmaemu__mapping *head)
{
	const struct dmaemu__dma_ops *ops = dmaemu__dma_ops_of(head->ops);
	struct scatterlist *tmp;
	int i;

	if (!ops->unmap_sg)
		return true;
	tmp = dmaemu__calloc((size_t)head->nents, sizeof(*tmp));
	if (!tmp)
		return false;
	sg_init_table(tmp, (unsigned int)head->nents);
	for (i = 0; i < head->nents; i++) {
		uint64_t phys = head->ents[i].phys;

		sg_set_page(&tmp[i], dmaemu__phys_to_page(m, phys),
			    (unsigned int)head->ents[i].len,
			    (unsigned int)(phys & (DMAEMU__PAGE_SIZE - 1)));
	}
	for (i = 0; i < head->mapped; i++) {
		tmp[i].dma_address = head->segs[i]->dma;
		tmp[i].dma_length = (unsigned int)head->segs[i]->size;
	}
	ops->unmap_sg(m, dev, tmp, head->nents, head->dir,
		      head->attrs | DMA_ATTR_SKIP_CPU_SYNC);
	dmaemu__free(tmp);
	return true;
}

unsigned long dmaemu__mapping_release_device(struct device *dev)
{
	struct dmaemu_machine *m = dmaemu__dev_machine(dev);
	const struct dmaemu__dma_ops *ops;
	struct dmaemu__mapping *map;
	struct dmaemu__call call;
	struct dmaemu__report_info leak = {.kind = DMAEMU_REPORT_LEAKED_MAPPING,
					   .device = dev_name(dev)};
	unsigned long n = 0;
	char where[400];
	int i;

	if (!m)
		return 0;
	while ((map = dmaemu__mapping_take_any(dev))) {
		ops = dmaemu__dma_ops_of(map->ops);
		/* The SUMMARY line points at the call that made it (the
		 * headline names that call already). */
		dmaemu__call_enter(&call, NULL, map->caller);
		made_at(map, where, sizeof(where));
		leak.phys = map->phys;
		leak.size = map->size;
		dmaemu__report(
			m, &leak,
			"device %s released with a live %s mapping: %zu bytes "
			"%s at dma 0x%" PRIx64 " (phys 0x%" PRIx64 ", %s "
			"backend), made by %s; unmapped now, without cache "
			"maintenance",
			dev_name(dev), type_names[map->type], map->size,
			dir_name(map->dir), (uint64_t)map->dma,
			(uint64_t)map->phys, map->ops->name, where);
		dmaemu__call_leave(&call);
		switch (map->type) {
		case DMAEMU__MAP_SG:
			release_sg(m, dev, map);
			for (i = 0; i < map->nents; i++) {
				dmaemu__owner_unmap(m, map->ents[i].phys,
						    map->ents[i].len, false);
				if (map->prefetch)
					dmaemu__prefetch_del_range(
						m, map->ents[i].phys,
						map->ents[i].len);
			}
			break;
		case DMAEMU__MAP_RESOURCE:
			if (ops->unmap_resource)
				ops->unmap_resource(m, dev, map->dma, map->size,
						    map->dir, map->attrs);
			break;
		default:
			if (ops->unmap)
				ops->unmap(m, dev, map->dma, map->phys,
					   map->size, map->dir,
					   map->attrs | DMA_ATTR_SKIP_CPU_SYNC);
			dmaemu__owner_unmap(m, map->phys, map->size, false);
			if (map->prefetch)
				dmaemu__prefetch_del_range(m, map->phys,
							   map->size);
			break;
		}
		trace_owner(m, dev, map->dma, map->size, map->dir,
			    map->trace_id, NULL);
		dmaemu__mapping_free(map);
		n++;
	}
	return n;
}
