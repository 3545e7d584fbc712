// SPDX-License-Identifier: MIT
/*
 * owncheck.c - the coherence sanitizer in the DMA layer: the ownership
 * check of device accesses, and the names of mappings in every ownership
 * report.
 *
 * How it works.  Only this layer knows which CPU buffer a bus address
 * stands for (the buffer itself, an IOMMU page of it, or the original of
 * a swiotlb bounce slot), so the device side of the check runs here, from
 * the registry's bus client, after the access, with no lock held:
 *
 *   device access inside a live mapping (registry.c found the record)
 *     the CPU buffer's bytes it touched    the landing address, or the
 *                                          bounce slot's original
 *     their lines' ownership byte          CPU-owned lines: the buffer
 *                                          was synced for the CPU and not
 *                                          given back (or unmapped by
 *                                          another device), one report
 *
 * Coherent allocations are no mapping: their accesses never get here.
 * A device writing only part of a FROM_DEVICE buffer touches only lines
 * it owns: nothing to say.
 *
 * The finder (dmaemu__owncheck_find(), installed in mem/ at machine
 * create) answers "which live mapping holds this physical byte?" for the
 * CPU side's reports and for bytes of lines that a mapping covers in
 * part.  It walks every live mapping of every device of the machine
 * under m->lock (each registry's lock is a leaf under it): a cost paid
 * per report, never per access of a correct driver.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <linux/device.h>

#include "dma/dma.h"

static void fill_info(struct dmaemu__owner_info *o,
		      const struct dmaemu__mapping *map, const char *dev,
		      uint64_t lo, uint64_t hi)
{
	o->lo = lo;
	o->hi = hi;
	o->dma = map->dma;
	o->sg = map->type == DMAEMU__MAP_SG;
	o->size = o->sg ? (size_t)(hi - lo) : map->size;
	o->nents = map->nents;
	o->dir = map->dir;
	o->dir_name = dmaemu__dir_name(map->dir, "DMA_NONE");
	snprintf(o->device, sizeof(o->device), "%s", dev);
	o->backend = map->ops ? map->ops->name : "?";
	o->made_caller = map->caller;
	o->made_fn = map->fn;
	o->made_at[0] = '\0';
}

bool dmaemu__owncheck_find(struct dmaemu_machine *m, uint64_t phys,
			   uint64_t limit, struct dmaemu__owner_info *out)
{
	struct dmaemu__mapping map, best;
	struct dmaemu_device *d;
	uint64_t lo, hi, blo = 0, bhi = 0, start = UINT64_MAX;
	char name[64] = "";

	dmaemu__lock(&m->lock);
	for (d = m->devices; d; d = d->next) {
		uint64_t s;

		if (!dmaemu__mapping_find_phys(dmaemu__devp(d), phys, limit,
					       &map, &lo, &hi))
			continue;
		s = lo > phys ? lo : phys;
		if (s >= start)
			continue;
		start = s;
		best = map;
		blo = lo;
		bhi = hi;
		snprintf(name, sizeof(name), "%s", d->name);
	}
	dmaemu__unlock(&m->lock);
	if (start == UINT64_MAX)
		return false;
	fill_info(out, &best, name, blo, bhi);
	return true;
}

void dmaemu__owncheck_device(struct device *dev,
			     const struct dmaemu__mapping *map, dma_addr_t dma,
			     uint64_t phys, size_t len, bool write)
{
	struct dmaemu_device *d = dev->dmaemu;
	struct dmaemu_machine *m = d->m;
	struct dmaemu__own_last last;
	struct dmaemu__owner_info o;
	struct dmaemu__report_info r;
	uint64_t off = dma - map->dma, cpu, p, end, line = m->line;
	char fix[160], where[256], range[128];
	const void *site;

	if (map->type == DMAEMU__MAP_RESOURCE || off >= map->size)
		return;
	if (len > map->size - off)
		len = (size_t)(map->size - off);
	/* Behind swiotlb the device touched the bounce slot; the CPU's
	 * buffer is its original. */
	cpu = dmaemu__swiotlb_orig(m, phys);
	if (cpu == UINT64_MAX)
		cpu = phys;
	memset(&last, 0, sizeof(last));
	for (p = cpu, end = cpu + len; p < end;) {
		uint64_t next = (p | (line - 1)) + 1;
		uint64_t b = next < end ? next : end;

		if (!(dmaemu__owner_byte(m, p) & DMAEMU__OWN_DEVICE)) {
			if (!last.bytes)
				last.lo = p;
			last.hi = b;
			last.bytes += b - p;
			last.lines++;
		}
		p = b;
	}
	if (!last.bytes)
		return;
	last.kind = DMAEMU_REPORT_DEVICE_ACCESS_CPU_OWNED;
	last.dma = map->dma;
	site = dmaemu__access_site();
	last.repeat =
		!dmaemu__report_first(m, last.kind, site, d->name, map->dma);
	dmaemu__own_set_last(m, &last);
	if (last.repeat)
		return;
	fill_info(&o, map, d->name, map->phys, map->phys + map->size);
	if (o.sg) {
		o.lo = last.lo;
		o.hi = last.hi;
	}
	dmaemu__own_sync_call(&o, false, fix, sizeof(fix));
	memset(&r, 0, sizeof(r));
	r.kind = last.kind;
	r.phys = last.lo;
	r.size = last.bytes;
	if (site) {
		dmaemu__code_where(site, where, sizeof(where));
		r.where = where;
	}
	dmaemu__own_range_text(&last, range, sizeof(range));
	dmaemu__report(m, &r,
		       "device %s %s of %zu byte%s at dma 0x%llx: the CPU owns "
		       "%zu of them (%s %s mapping: dma 0x%llx, %zu bytes); "
		       "fix: %s after the CPU's last access, before the device "
		       "accesses it\n"
		       "    %s of the CPU's buffer; %s backend; mapping made "
		       "by %s",
		       d->name, write ? "write" : "read", len,
		       len == 1 ? "" : "s", (unsigned long long)dma, last.bytes,
		       o.dir_name, o.sg ? "scatterlist" : "streaming",
		       (unsigned long long)map->dma, map->size, fix, range,
		       o.backend, dmaemu__owner_made_at(&o));
}
