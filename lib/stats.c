// SPDX-License-Identifier: MIT
/*
 * stats.c - <dmaemu/seeing.h>'s statistics: per device, per machine, and
 * the summary that option stats=1 prints at machine destroy.
 *
 * How it works.  Each device keeps a struct dmaemu__dev_stats (core.h) in
 * its struct dmaemu_device; the layers that see an event add to it with a
 * relaxed atomic load and store (no lock, no locked instruction, no
 * branch; concurrent additions to one counter may lose one, see
 * DMAEMU__STAT_ADD in core/core.h):
 *
 *	dma/mapping.c   maps, unmaps, syncs, bytes mapped
 *	dma/arch.c      bytes cleaned and invalidated by the streaming API
 *	dma/swiotlb.c   bytes bounced
 *	bus/device.c    device DMA reads and writes, and their bytes
 *	bus/irq.c       interrupts raised
 *
 * What the model keeps anyway (cache statistics per level, the page
 * allocator, the slab, the bounce pool, IOMMU pages, live mappings) is
 * read from there when asked.  With stats=1, device destroy keeps a copy
 * of the device's counters on the machine (m->stats_gone), so that the
 * summary printed at machine destroy covers devices destroyed before.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "dma/dma.h"
#include "dmaemu/cpu.h"
#include "dmaemu/mm.h"
#include "dmaemu/report.h"
#include "dmaemu/seeing.h"

static void device_stats(struct dmaemu_device *d,
			 struct dmaemu_device_stats *st)
{
	struct dmaemu__dev_stats s;
	struct dmaemu__iommu_stats io;

	dmaemu__dev_stats_read(&s, &d->stats);
	st->maps = s.maps;
	st->unmaps = s.unmaps;
	st->syncs_for_device = s.syncs_for_device;
	st->syncs_for_cpu = s.syncs_for_cpu;
	st->bytes_mapped = s.bytes_mapped;
	st->bytes_cleaned = s.bytes_cleaned;
	st->bytes_invalidated = s.bytes_invalidated;
	st->bytes_bounced = s.bytes_bounced;
	st->dev_reads = s.dev_reads;
	st->dev_writes = s.dev_writes;
	st->dev_bytes_read = s.dev_bytes_read;
	st->dev_bytes_written = s.dev_bytes_written;
	st->irqs = s.irqs;
	st->live_mappings = dmaemu__mapping_count(&d->dev);
	if (d->m->opt.iommu) {
		dmaemu__iommu_info(&d->dev, &io);
		st->iommu_pages = io.pages;
	}
}

int dmaemu_device_stats(struct dmaemu_device *dev,
			struct dmaemu_device_stats *st)
{
	struct device *d = dmaemu_device_to_dev(dev);

	if (st)
		memset(st, 0, sizeof(*st));
	if (!d || !st) {
		dmaemu__reportf(d ? dmaemu__dev_machine(d) : NULL,
				DMAEMU_REPORT_BAD_ARGUMENT, 0, 0, "%s: %s",
				__func__,
				!dev ? "NULL device"
				: !d ? "device already destroyed"
				     : "NULL argument");
		return -EINVAL;
	}
	device_stats(dev, st);
	return 0;
}

int dmaemu_machine_stats(struct dmaemu_machine *m,
			 struct dmaemu_machine_stats *st)
{
	struct dmaemu__swiotlb_stats sw;
	struct dmaemu_zone_info z;
	struct dmaemu_cpu_stats cs;
	struct dmaemu_mm_stats mm;
	struct dmaemu_device *d;
	unsigned int l;
	int zone;

	if (st)
		memset(st, 0, sizeof(*st));
	if (dmaemu__machine_bad(m, __func__))
		return -EINVAL;
	if (!m || !st) {
		dmaemu__reportf(m, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"%s: NULL %s", __func__,
				m ? "argument" : "machine");
		return -EINVAL;
	}
	st->cache_levels = cachesim_levels(m->cache);
	for (l = 0; l < st->cache_levels && l < DMAEMU_STATS_LEVELS; l++) {
		struct dmaemu_cache_level_stats *c = &st->cache[l];

		if (dmaemu_cpu_stats(m, l, &cs))
			break;
		c->accesses = cs.accesses;
		c->hits = cs.hits;
		c->misses = cs.misses;
		c->evictions = cs.evictions;
		c->writebacks = cs.writebacks;
		c->maint_ops = cs.maint_ops;
		c->maint_lines = cs.maint_lines;
		c->maint_writebacks = cs.maint_writebacks;
		if (!l) {
			st->stale_reads = cs.stale_reads;
			st->wc_flushes = cs.wc_flushes;
			st->wc_evictions = cs.wc_evictions;
		}
	}
	if (!dmaemu_mm_stats(m, &mm)) {
		st->pages_total = mm.pages_total;
		st->pages_free = mm.pages_free;
		st->page_allocs = mm.page_allocs;
		st->kmalloc_objects = mm.kmalloc_objects;
		st->kmalloc_bytes = mm.kmalloc_bytes;
		st->slabs = mm.slabs;
	}
	for (zone = 0; dmaemu_zone_name(zone); zone++) {
		if (dmaemu_zone_info(m, zone, &z))
			continue;
		st->zone_allocs += z.allocs;
		st->zone_failures += z.failures;
	}
	dmaemu__swiotlb_info(m, &sw);
	st->swiotlb_slots = sw.nslots;
	st->swiotlb_used = sw.used;
	st->swiotlb_maps = sw.maps;
	st->swiotlb_bounced = sw.bounced;
	dmaemu__lock(&m->lock);
	for (d = m->devices; d; d = d->next)
		st->devices++;
	dmaemu__unlock(&m->lock);
	st->reports = dmaemu_report_count(m, NULL);
	return 0;
}

static void print_device(FILE *f, const char *name, const char *state,
			 const struct dmaemu_device_stats *s)
{
	fprintf(f,
		"dmaemu stats: device %s%s: %" PRIu64 " maps (%" PRIu64
		" bytes), %" PRIu64 " unmaps, %" PRIu64
		" syncs for device, %" PRIu64 " for cpu; %" PRIu64
		" bytes cleaned, %" PRIu64 " invalidated, %" PRIu64
		" bounced; %" PRIu64 " iommu pages; device %" PRIu64
		" reads (%" PRIu64 " bytes), %" PRIu64 " writes (%" PRIu64
		" bytes); %" PRIu64 " irqs\n",
		name, state, s->maps, s->bytes_mapped, s->unmaps,
		s->syncs_for_device, s->syncs_for_cpu, s->bytes_cleaned,
		s->bytes_invalidated, s->bytes_bounced, s->iommu_pages,
		s->dev_reads, s->dev_bytes_read, s->dev_writes,
		s->dev_bytes_written, s->irqs);
}

int dmaemu_machine_stats_print(struct dmaemu_machine *m, FILE *f)
{
	struct dmaemu_machine_stats ms;
	struct dmaemu_device_stats ds;
	struct dmaemu__stats_gone *g;
	struct dmaemu_device *d;
	unsigned int l;
	int ret;

	if (dmaemu__machine_bad(m, __func__))
		return -EINVAL;
	if (!f) {
		dmaemu__reportf(m, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"%s: NULL stream", __func__);
		return -EINVAL;
	}
	ret = dmaemu_machine_stats(m, &ms);
	if (ret)
		return ret;
	for (l = 0; l < ms.cache_levels && l < DMAEMU_STATS_LEVELS; l++) {
		const struct dmaemu_cache_level_stats *c = &ms.cache[l];

		fprintf(f,
			"dmaemu stats: L%u: %" PRIu64 " accesses, %" PRIu64
			" hits, %" PRIu64 " misses, %" PRIu64
			" evictions, %" PRIu64
			" write-backs; maintenance: %" PRIu64 " calls, %" PRIu64
			" lines, %" PRIu64 " write-backs\n",
			l + 1, c->accesses, c->hits, c->misses, c->evictions,
			c->writebacks, c->maint_ops, c->maint_lines,
			c->maint_writebacks);
	}
	fprintf(f,
		"dmaemu stats: cpu: %" PRIu64 " stale reads, %" PRIu64
		" write-combining drains, %" PRIu64 " evicted\n",
		ms.stale_reads, ms.wc_flushes, ms.wc_evictions);
	fprintf(f,
		"dmaemu stats: pages: %lu of %lu free, %lu allocations made, "
		"%lu failed, %lu live alloc_pages() blocks\n",
		ms.pages_free, ms.pages_total, ms.zone_allocs, ms.zone_failures,
		ms.page_allocs);
	fprintf(f,
		"dmaemu stats: slab: %lu kmalloc objects, %" PRIu64
		" bytes, %lu slabs\n",
		ms.kmalloc_objects, ms.kmalloc_bytes, ms.slabs);
	fprintf(f,
		"dmaemu stats: swiotlb: %" PRIu64 " of %" PRIu64
		" slots in use, %" PRIu64 " maps, %" PRIu64 " bytes bounced\n",
		ms.swiotlb_used, ms.swiotlb_slots, ms.swiotlb_maps,
		ms.swiotlb_bounced);
	/* Devices destroyed before, oldest first, then the live ones. */
	dmaemu__lock(&m->lock);
	for (l = 0, g = m->stats_gone; g; g = g->next)
		l++;
	while (l) {
		unsigned int i;

		for (i = 1, g = m->stats_gone; i < l; i++)
			g = g->next;
		memset(&ds, 0, sizeof(ds));
		ds.maps = g->st.maps;
		ds.unmaps = g->st.unmaps;
		ds.syncs_for_device = g->st.syncs_for_device;
		ds.syncs_for_cpu = g->st.syncs_for_cpu;
		ds.bytes_mapped = g->st.bytes_mapped;
		ds.bytes_cleaned = g->st.bytes_cleaned;
		ds.bytes_invalidated = g->st.bytes_invalidated;
		ds.bytes_bounced = g->st.bytes_bounced;
		ds.dev_reads = g->st.dev_reads;
		ds.dev_writes = g->st.dev_writes;
		ds.dev_bytes_read = g->st.dev_bytes_read;
		ds.dev_bytes_written = g->st.dev_bytes_written;
		ds.irqs = g->st.irqs;
		print_device(f, g->name, " (destroyed)", &ds);
		l--;
	}
	for (d = m->devices; d; d = d->next) {
		memset(&ds, 0, sizeof(ds));
		device_stats(d, &ds);
		print_device(f, d->name ? d->name : "?", "", &ds);
	}
	dmaemu__unlock(&m->lock);
	fprintf(f, "dmaemu stats: %" PRIu64 " reports\n", ms.reports);
	return ferror(f) ? -EIO : 0;
}
