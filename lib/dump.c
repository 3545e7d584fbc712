// SPDX-License-Identifier: MIT
/*
 * dump.c - dmaemu_machine_dump(): the state of a machine as text, for a
 * person debugging a driver (<dmaemu/seeing.h>).
 *
 * How it works.  One section a part of the machine, each read under the
 * locks that part documents and printed at once:
 *
 *	machine:          profile, line size, IOMMU, swiotlb=force
 *	dram:             the banks
 *	zones:            present and free pages of each zone
 *	memory:           live page allocations, kmalloc objects, slabs
 *	devices:          per device (under m->lock, then each registry's
 *	                  lock, the order written in core/core.h): live
 *	                  streaming mappings, coherent allocations, IOMMU
 *	swiotlb:          slots in use
 *	write-combining:  buffers holding pending bytes
 *
 * It names where a mapping was made by symbolizing the driver's return
 * address: microseconds a mapping, acceptable for a call made by hand.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "dma/dma.h"
#include "dmaemu/mm.h"
#include "dmaemu/seeing.h"
#include "dmaemu/testing.h"

static const char *const map_type_names[] = {
	[DMAEMU__MAP_SINGLE] = "single",
	[DMAEMU__MAP_PAGE] = "page",
	[DMAEMU__MAP_SG] = "sg",
	[DMAEMU__MAP_RESOURCE] = "resource",
	[DMAEMU__MAP_COHERENT] = "coherent",
};

static void dump_machine(struct dmaemu_machine *m, FILE *f)
{
	struct dmaemu_zone_info z;
	struct dmaemu_mm_stats mm;
	unsigned int i;
	int zone;

	fprintf(f, "machine: profile %s, line %u, iommu %s, swiotlb=force %s\n",
		dmaemu__profile_name(m->opt.profile), m->line,
		m->opt.iommu ? "on" : "off",
		m->opt.swiotlb_force ? "on" : "off");
	fprintf(f, "dram:\n");
	for (i = 0; i < m->nbanks; i++)
		fprintf(f,
			"  bank %u: 0x%09" PRIx64 "-0x%09" PRIx64 " (%" PRIu64
			" KiB)\n",
			i, m->bank[i].phys, m->bank[i].phys + m->bank[i].size,
			m->bank[i].size >> 10);
	fprintf(f, "zones:\n");
	for (zone = 0; dmaemu_zone_name(zone); zone++) {
		if (dmaemu_zone_info(m, zone, &z))
			continue; /* no memory in it */
		fprintf(f,
			"  %-6s 0x%09" PRIx64 "-0x%09" PRIx64
			": %lu pages, %lu free, min %lu\n",
			dmaemu_zone_name(zone), z.start, z.end, z.present,
			z.free, z.min_free);
	}
	if (!dmaemu_mm_stats(m, &mm))
		fprintf(f,
			"memory: %lu of %lu pages free, %lu page allocations, "
			"%lu kmalloc objects (%" PRIu64
			" bytes) in %lu slabs\n",
			mm.pages_free, mm.pages_total, mm.page_allocs,
			mm.kmalloc_objects, mm.kmalloc_bytes, mm.slabs);
}

static void dump_mapping(struct dmaemu_machine *m, FILE *f,
			 const struct dmaemu__mapping *r)
{
	char where[256];
	const char *owner = "-";

	if (r->type != DMAEMU__MAP_RESOURCE &&
	    dmaemu__bank_of_phys(m, r->phys, 1))
		owner = dmaemu__owner_get(m, r->phys) == DMAEMU__DOMAIN_DEVICE
				? "device"
				: "cpu";
	dmaemu__code_where(r->caller, where, sizeof(where));
	fprintf(f,
		"    map %-8s dma 0x%09" PRIx64 " phys 0x%09" PRIx64
		" size %zu %s %s owner %s",
		map_type_names[r->type], (uint64_t)r->dma, r->phys, r->size,
		dmaemu__dir_name(r->dir, "?"), r->ops ? r->ops->name : "?",
		owner);
	if (r->type == DMAEMU__MAP_SG)
		fprintf(f, " segment %d of %d", r->seg, r->mapped);
	if (r->attrs)
		fprintf(f, " attrs 0x%lx", r->attrs);
	fprintf(f, "\n      made by %s at %s\n", r->fn ? r->fn : "?", where);
	if (r->type != DMAEMU__MAP_SG || !r->seg)
		fprintf(f,
			"      syncs %" PRIu64 " for device, %" PRIu64
			" for cpu; %" PRIu64 " bytes cleaned, %" PRIu64
			" invalidated, %" PRIu64 " bounced; device %" PRIu64
			" reads, %" PRIu64 " writes\n",
			r->syncs_for_device, r->syncs_for_cpu, r->bytes_cleaned,
			r->bytes_invalidated, r->bytes_bounced, r->dev_reads,
			r->dev_writes);
}

static void dump_device(struct dmaemu_machine *m, FILE *f,
			struct dmaemu_device *d)
{
	struct dmaemu__mapping *maps = NULL;
	struct dmaemu__alloc_info *allocs = NULL;
	struct dmaemu__iommu_stats io;
	size_t n, na, i;

	n = dmaemu__mapping_count(&d->dev);
	if (n)
		maps = dmaemu__calloc(n, sizeof(*maps));
	n = maps ? dmaemu__mapping_list(&d->dev, maps, n) : 0;
	na = dmaemu__alloc_list(&d->dev, NULL, 0);
	if (na)
		allocs = dmaemu__calloc(na, sizeof(*allocs));
	na = allocs ? dmaemu__alloc_list(&d->dev, allocs, na) : 0;
	fprintf(f, "  %s: %zu mapping%s, %zu coherent allocation%s\n",
		d->name ? d->name : "?", n, n == 1 ? "" : "s", na,
		na == 1 ? "" : "s");
	for (i = 0; i < n; i++)
		dump_mapping(m, f, &maps[i]);
	for (i = 0; i < na; i++) {
		fprintf(f,
			"    alloc dma 0x%09" PRIx64 " phys 0x%09" PRIx64
			" size %zu %s%s",
			(uint64_t)allocs[i].handle, allocs[i].phys,
			allocs[i].size, allocs[i].view,
			allocs[i].contiguous ? "" : " scattered");
		if (allocs[i].attrs)
			fprintf(f, " attrs 0x%lx", allocs[i].attrs);
		fputc('\n', f);
	}
	if (m->opt.iommu) {
		dmaemu__iommu_info(&d->dev, &io);
		fprintf(f,
			"    iommu: %" PRIu64 " pages mapped in %" PRIu64
			" ranges, %" PRIu64 " faults, %" PRIu64
			" table pages%s\n",
			io.pages, io.allocs, io.faults, io.tables,
			io.privileged ? ", privileged" : "");
	}
	dmaemu__free(maps);
	dmaemu__free(allocs);
}

int dmaemu_machine_dump(struct dmaemu_machine *m, FILE *f)
{
	struct dmaemu__swiotlb_stats sw;
	struct dmaemu_device *d;
	uint64_t chunk[64];
	unsigned int pending[64];
	size_t n, i;

	if (dmaemu__machine_bad(m, __func__))
		return -EINVAL;
	if (!m || !f) {
		dmaemu__reportf(m, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"%s: NULL %s", __func__,
				m ? "stream" : "machine");
		return -EINVAL;
	}
	dump_machine(m, f);

	fprintf(f, "devices:\n");
	dmaemu__lock(&m->lock);
	for (d = m->devices; d; d = d->next)
		dump_device(m, f, d);
	dmaemu__unlock(&m->lock);

	dmaemu__swiotlb_info(m, &sw);
	if (sw.nslots)
		fprintf(f,
			"swiotlb: %lu of %lu slots in use, %" PRIu64
			" maps, %" PRIu64 " refused, %" PRIu64
			" bytes bounced\n",
			sw.used, sw.nslots, sw.maps, sw.fulls, sw.bounced);
	else
		fprintf(f, "swiotlb: not made\n");

	n = dmaemu__wc_buffers(m, chunk, pending, 64);
	fprintf(f, "write-combining: %zu buffer%s pending\n", n,
		n == 1 ? "" : "s");
	for (i = 0; i < n && i < 64; i++)
		fprintf(f, "  chunk 0x%09" PRIx64 ": %u bytes\n", chunk[i],
			pending[i]);
	return ferror(f) ? -EIO : 0;
}
