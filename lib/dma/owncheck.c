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
 * The handovers of a mapping (map, syncs, unmap) come here too, before
 * their maintenance: the receive-recycle lost-cpu-write (stores noted
 * while the CPU owned the buffer) and, for stores the hooks do not see, a
 * shared-line-store found in the lines the mapping covers in part
 * (shared_edges()).
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

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <linux/device.h>
#include <linux/dma-mapping.h>

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
	o->bounced = map->ops && !strcmp(map->ops->name, "swiotlb");
	o->kmalloc_bounced = false;
	o->made_caller = map->caller;
	o->made_fn = map->fn;
	o->made_at[0] = '\0';
	o->last_valid = map->last.valid;
	o->last_write = map->last.write;
	o->last_dma = map->last.dma;
	o->last_len = map->last.len;
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
	out->kmalloc_bounced = out->bounced && dmaemu__dma_kmalloc_needs_bounce(
						       m, best.size, best.dir);
	return true;
}

/*
 * Did the CPU write the line at @lp since it took it (dma_sync_*_for_cpu())?
 * A store of instrumented code is noted (ownership.c); one of
 * uninstrumented code left its bytes CPU-dirty, unless @bounced (behind
 * swiotlb the copy back to the CPU's buffer dirtied them: only noted
 * stores count there).  A line the CPU only read
 * may go back to the device without dma_sync_*_for_device(): the 4.14
 * DMA-API-HOWTO's receive handler does so ("CPU should not write to
 * DMA_FROM_DEVICE-mapped area, so dma_sync_single_for_device() is not
 * needed here"), and no platform's sync would have anything to publish.
 * Not a posted write landing late: the device made it before the CPU took
 * the buffer, which the CPU may have read without it.
 */
static bool cpu_wrote(struct dmaemu_machine *m, uint64_t lp, bool bounced)
{
	uint64_t dirty[DMAEMU__MASK_WORDS];
	pthread_mutex_t *stripe;

	if (dmaemu__owner_stores_noted(m, lp))
		return true;
	if (bounced) /* the copy back wrote it, not the driver */
		return false;
	stripe = dmaemu__stripe_of(m, lp);
	dmaemu__lock(stripe);
	dmaemu__line_masks(m, lp, dirty, NULL);
	dmaemu__unlock(stripe);
	return dmaemu__mask_any(dirty);
}

/*
 * A device read of @n bytes of a bounce buffer that no copy filled, the
 * first at pool address @first: the mapping was made with
 * DMA_ATTR_SKIP_CPU_SYNC, which 4.14's swiotlb_tbl_map_single() honours by
 * copying nothing, and no sync_for_device followed.  stale-device-read,
 * on every profile: the device reads what the slot held before.
 */
static __attribute__((noinline)) void report_unfilled(
	struct dmaemu_device *d, const struct dmaemu__mapping *map,
	dma_addr_t dma, size_t len, uint64_t first, size_t n)
{
	struct dmaemu_machine *m = d->m;
	struct dmaemu__own_last last;
	struct dmaemu__owner_info o;
	struct dmaemu__report_info r;
	uint64_t cpu = dmaemu__swiotlb_orig(m, first);
	char fix[160], where[256];
	const void *site = dmaemu__access_site();

	memset(&last, 0, sizeof(last));
	last.kind = DMAEMU_REPORT_STALE_DEVICE_READ;
	last.lo = cpu == UINT64_MAX ? first : cpu;
	last.hi = last.lo + n;
	last.bytes = n;
	last.lines = 1;
	last.dma = map->dma;
	last.repeat =
		!dmaemu__report_first(m, last.kind, site, d->name, map->dma);
	dmaemu__own_set_last(m, &last);
	if (last.repeat)
		return;
	fill_info(&o, map, d->name, map->phys, map->phys + map->size);
	dmaemu__own_sync_call(&o, false, fix, sizeof(fix));
	memset(&r, 0, sizeof(r));
	r.kind = last.kind;
	r.phys = last.lo;
	r.size = n;
	if (site) {
		dmaemu__code_where(site, where, sizeof(where));
		r.where = where;
	}
	dmaemu__owner_report_fields(&o, &r);
	r.device = d->name;
	dmaemu__report(m, &r,
		       "device %s read of %zu byte%s at dma 0x%llx: %zu of "
		       "them lie in a swiotlb bounce buffer that nothing "
		       "filled (%s streaming mapping: dma 0x%llx, %zu bytes, "
		       "made with DMA_ATTR_SKIP_CPU_SYNC, and no "
		       "sync_for_device since), so the device read what the "
		       "bounce slot held before, not the CPU's buffer; fix: "
		       "%s after the map (swiotlb copies the buffer into its "
		       "bounce slot only at a map without the attribute or at "
		       "a sync_for_device)\n"
		       "    mapping made by %s",
		       d->name, len, len == 1 ? "" : "s",
		       (unsigned long long)dma, n, o.dir_name,
		       (unsigned long long)map->dma, map->size, fix,
		       dmaemu__owner_made_at(&o));
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
	if (cpu != phys && write) {
		dmaemu__swiotlb_device_wrote(m, phys, len);
	} else if (cpu != phys) {
		uint64_t first = 0;
		size_t n = dmaemu__swiotlb_unfilled(m, phys, len, &first);

		if (n) {
			report_unfilled(d, map, dma, len, first, n);
			return;
		}
	}
	memset(&last, 0, sizeof(last));
	/* A correct driver's access: every line device-owned, one scan. */
	end = cpu + len;
	p = cpu + dmaemu__owner_device_span(m, cpu, len);
	while (p < end) {
		uint64_t next = (p | (line - 1)) + 1;
		uint64_t b = next < end ? next : end;

		if (dmaemu__owner_byte(m, p) & DMAEMU__OWN_DEVICE) {
			p = b;
			continue;
		}
		if (!dmaemu__dma_landing() &&
		    !cpu_wrote(m, p & ~(line - 1), cpu != phys)) {
			/* The HOWTO's buffer given back unwritten. */
			dmaemu__owner_set(m, p & ~(line - 1), line,
					  DMAEMU__DOMAIN_DEVICE);
			p = b;
			continue;
		}
		if (!last.bytes)
			last.lo = p;
		last.hi = b;
		last.bytes += b - p;
		last.lines++;
		p = b;
	}
	if (!last.bytes)
		return;
	/* One bug, one report: the stores this access tramples are not
	 * also a lost-cpu-write at the next handover. */
	dmaemu__owner_stores_take(m, last.lo & ~(line - 1),
				  ((last.hi + line - 1) & ~(line - 1)) -
					  (last.lo & ~(line - 1)),
				  NULL);
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
	dmaemu__owner_report_fields(&o, &r);
	r.device = d->name;
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

/* Does @how with direction @dir invalidate the buffer on 4.14's arm? */
static bool handover_invalidates(const struct dmaemu_machine *m,
				 enum dmaemu__handover how, int dir,
				 unsigned long attrs)
{
	switch (how) {
	case DMAEMU__HANDOVER_FOR_DEVICE:
		/* v7_dma_map_area, __dma_map_area (not map_policy=5.19) */
		return dir == DMAEMU__DIR_FROM_DEVICE && !m->opt.map_clean;
	case DMAEMU__HANDOVER_FOR_CPU:
		return dir != DMAEMU__DIR_TO_DEVICE;
	case DMAEMU__HANDOVER_UNMAP:
		return dir != DMAEMU__DIR_TO_DEVICE &&
		       !(attrs & DMA_ATTR_SKIP_CPU_SYNC);
	}
	return false;
}

/*
 * The values of the first bytes of @r's range, from @r->phys to the end of
 * its line: the CPU's stores, still in its copy (the handover's
 * maintenance has not run yet), and what memory holds, which the CPU will
 * read instead.  Under the line's stripe lock, as a device's access.
 */
static void show_values(struct dmaemu_machine *m, struct dmaemu__report_info *r)
{
	uint64_t lp = r->phys & ~((uint64_t)m->line - 1);
	const uint8_t *cpu =
		dmaemu__phys_view(m, r->phys, DMAEMU__REGION_LINEAR);
	const uint8_t *mem =
		dmaemu__phys_view(m, r->phys, DMAEMU__REGION_UNCACHED);
	pthread_mutex_t *stripe = dmaemu__stripe_of(m, lp);
	uint64_t n = lp + m->line - r->phys;

	if (!cpu || !mem)
		return;
	r->nval =
		n < DMAEMU__REPORT_VALS ? (unsigned int)n : DMAEMU__REPORT_VALS;
	dmaemu__lock(stripe);
	dmaemu__racy_line_begin(cpu - (r->phys - lp), m->line);
	memcpy(r->val[0], cpu, r->nval);
	memcpy(r->val[1], mem, r->nval);
	dmaemu__racy_line_end(cpu - (r->phys - lp), m->line);
	dmaemu__unlock(stripe);
	r->val_name[0] = "the CPU had written";
	r->val_name[1] = "memory holds";
}

/*
 * The report of dmaemu__owncheck_handover(): the stores @ls that the
 * handover invalidates.  Out of line, so that a handover with nothing to
 * report sets up none of the report's buffers.
 */
static __attribute__((noinline)) void report_handover(
	struct device *dev, const struct dmaemu__mapping *map, uint64_t phys,
	size_t size, int dir, enum dmaemu__handover how, const char *fn,
	const struct dmaemu__lost_stores *lsp)
{
	struct dmaemu_device *d = dev->dmaemu;
	struct dmaemu_machine *m = d->m;
	struct dmaemu__lost_stores ls = *lsp;
	struct dmaemu__owner_info o;
	struct dmaemu__report_info r;
	struct dmaemu__own_last last;
	char fix[300], call[160], stored[300] = "";
	const char *dname = dmaemu__dir_name(dir, "DMA_NONE");
	bool cleans;

	/* One report per mapping and store site; repeats are counted. */
	memset(&last, 0, sizeof(last));
	last.kind = DMAEMU_REPORT_LOST_CPU_WRITE;
	last.lo = ls.lo;
	last.hi = ls.hi;
	last.bytes = ls.bytes;
	last.lines = ls.lines;
	last.dma = map->dma;
	last.repeat =
		!dmaemu__report_first(m, last.kind, ls.site, d->name, map->dma);
	dmaemu__own_set_last(m, &last);
	if (last.repeat)
		return;
	fill_info(&o, map, d->name, map->phys, map->phys + map->size);
	if (o.sg) {
		o.lo = phys;
		o.hi = phys + size;
	}
	dmaemu__own_sync_call(&o, how != DMAEMU__HANDOVER_FOR_DEVICE, call,
			      sizeof(call));
	if (how == DMAEMU__HANDOVER_FOR_DEVICE)
		snprintf(fix, sizeof(fix),
			 "keep CPU data out of a DMA_FROM_DEVICE buffer given "
			 "back to the device, or map it DMA_BIDIRECTIONAL");
	else if (how == DMAEMU__HANDOVER_FOR_CPU)
		snprintf(fix, sizeof(fix), "make the stores after the last %s",
			 call);
	else
		snprintf(fix, sizeof(fix),
			 "make the stores after %s(), not before it", fn);
	if (ls.site) {
		char w[256];

		dmaemu__code_where(ls.site, w, sizeof(w));
		snprintf(stored, sizeof(stored), "stored at %s; ", w);
	}
	memset(&r, 0, sizeof(r));
	r.kind = DMAEMU_REPORT_LOST_CPU_WRITE;
	r.phys = ls.lo;
	r.size = ls.bytes;
	r.mask = ls.mask;
	r.mask_bits = m->line;
	show_values(m, &r);
	dmaemu__owner_report_fields(&o, &r);
	/* arm64 since Linux 5.19 cleans the buffer at sync_for_device: the
	 * stores reach memory here, and the device's next write replaces
	 * them; the text says so, and where they are lost. */
	cleans = how == DMAEMU__HANDOVER_FOR_DEVICE && m->opt.map_clean &&
		 m->opt.profile == DMAEMU__PROFILE_ARM64;
	dmaemu__report(m, &r,
		       "%s(%s) %s %zu byte%s (%u line%s) the CPU "
		       "stored while it owned the buffer (%s's %s %s mapping: "
		       "dma 0x%llx, %zu bytes), %s; fix: "
		       "%s\n"
		       "    %smapping made by %s (%s backend)",
		       fn, dname, cleans ? "gives the device" : "invalidates",
		       ls.bytes, ls.bytes == 1 ? "" : "s", ls.lines,
		       ls.lines == 1 ? "" : "s", d->name, o.dir_name,
		       o.sg ? "scatterlist" : "streaming",
		       (unsigned long long)map->dma, map->size,
		       cleans ? "written back to memory here (arm64 cleans "
				"since Linux 5.19), lost on arm and on arm64 "
				"before 5.19, and the device owns them"
			      : "lost on arm and arm64",
		       fix, stored, dmaemu__owner_made_at(&o), o.backend);
}

/*
 * The report of shared_edges(): @n bytes of line @lp (@mask), beside
 * mapping @map, that code the hooks do not see stored while the device
 * owned the line.
 */
static __attribute__((noinline)) void report_shared_edge(
	struct device *dev, const struct dmaemu__mapping *map, uint64_t lp,
	const uint64_t *mask, const char *fn)
{
	struct dmaemu_device *d = dev->dmaemu;
	struct dmaemu_machine *m = d->m;
	const struct dmaemu__call *call = dmaemu__call_current();
	struct dmaemu__owner_info o;
	struct dmaemu__report_info r;
	struct dmaemu__own_last last;
	unsigned int k, n = 0, c0 = 0, c1 = 0, line = m->line;
	uint64_t m0, m1;
	char fix[320];

	for (k = 0; k < line; k++)
		if ((mask[k / 64] >> (k % 64)) & 1) {
			if (!n++)
				c0 = k;
			c1 = k + 1;
		}
	memset(&last, 0, sizeof(last));
	last.kind = DMAEMU_REPORT_SHARED_LINE_STORE;
	last.lo = lp + c0;
	last.hi = lp + c1;
	last.bytes = n;
	last.lines = 1;
	last.dma = map->dma;
	last.repeat = !dmaemu__report_first(
		m, last.kind, call ? call->caller : NULL, d->name, map->dma);
	dmaemu__own_set_last(m, &last);
	if (last.repeat)
		return;
	fill_info(&o, map, d->name, map->phys, map->phys + map->size);
	m0 = o.lo > lp ? o.lo - lp : 0;
	m1 = o.hi < lp + line ? o.hi - lp : line;
	memset(&r, 0, sizeof(r));
	r.kind = last.kind;
	r.phys = last.lo;
	r.size = n;
	r.mask = mask;
	r.mask_bits = line;
	dmaemu__owner_report_fields(&o, &r);
	dmaemu__shared_line_fix(m, fix, sizeof(fix));
	dmaemu__report(m, &r,
		       "%s() finds %u byte%s of cache line 0x%llx, beside "
		       "%s's live %s mapping (dma 0x%llx, %zu bytes), stored "
		       "by code the hooks do not see while the device owned "
		       "the line: on arm and arm64 a write-back of the dirty "
		       "line, at any moment, puts the CPU's copy of the "
		       "mapping's bytes over the device's\n"
		       "    fix: %s\n"
		       "    bytes %u-%u the CPU's, %llu-%llu the mapping's; "
		       "made by %s (%s backend)",
		       fn, n, n == 1 ? "" : "s", (unsigned long long)lp,
		       d->name, o.dir_name, (unsigned long long)map->dma,
		       map->size, fix, c0, c1 - 1, (unsigned long long)m0,
		       (unsigned long long)(m1 - 1), dmaemu__owner_made_at(&o),
		       o.backend);
}

/*
 * shared-line-store for code the hooks do not see.  At a call that gives
 * the lines of a single or page mapping back to the CPU, on arm and
 * arm64: the map or sync_for_device that gave them to the device cleaned
 * the lines the mapping covers in part (4.14's v7_dma_inv_range and
 * __dma_inv_area clean such edge lines), so CPU-dirty bytes beside the
 * mapping there were stored while the device owned the line.  A line the
 * cache model holds dirty was stored through the hooks, and reported at
 * the store; a line whose clean in this very call overwrites the device's
 * bytes is the lost-device-write this call reports, not a second report
 * at the same line of the driver.  x86 keeps no such record (no clean at
 * map), nor does a DMA_ATTR_SKIP_CPU_SYNC map or a bounced mapping (the
 * device writes a bounce slot).  Cost on a buffer aligned to lines: two
 * compares.
 */
static void shared_edges(struct device *dev, const struct dmaemu__mapping *map,
			 uint64_t phys, size_t size, int dir,
			 unsigned long attrs, enum dmaemu__handover how,
			 const char *fn)
{
	struct dmaemu_machine *m = dev->dmaemu->m;
	uint64_t line = m->line, lo = map->phys, hi = map->phys + map->size;
	uint64_t edge[2], dirty[DMAEMU__MASK_WORDS], chg[DMAEMU__MASK_WORDS];
	uint64_t out[DMAEMU__MASK_WORDS], lost;
	unsigned int e, n = 0, k;
	pthread_mutex_t *stripe;
	bool any;

	if (!((lo | hi) & (line - 1)) || how == DMAEMU__HANDOVER_FOR_DEVICE ||
	    map->type == DMAEMU__MAP_SG || dir == DMAEMU__DIR_TO_DEVICE ||
	    map->dir == DMAEMU__DIR_TO_DEVICE ||
	    (map->attrs & DMA_ATTR_SKIP_CPU_SYNC) ||
	    m->opt.profile == DMAEMU__PROFILE_X86 ||
	    (map->ops && !strcmp(map->ops->name, "swiotlb")))
		return;
	/* The partial lines the call's range touches. */
	if ((lo & (line - 1)) && phys < (lo | (line - 1)) + 1)
		edge[n++] = lo & ~(line - 1);
	if ((hi & (line - 1)) && phys + size > (hi & ~(line - 1)) &&
	    (!n || edge[0] != (hi & ~(line - 1))))
		edge[n++] = hi & ~(line - 1);
	for (e = 0; e < n; e++) {
		uint64_t lp = edge[e];
		uint8_t own = dmaemu__owner_byte(m, lp);

		if (!(own & DMAEMU__OWN_DEVICE) ||
		    (own >> DMAEMU__OWN_HOLD_SHIFT) != 1)
			continue;
		stripe = dmaemu__stripe_of(m, lp);
		dmaemu__lock(stripe);
		dmaemu__line_masks(m, lp, dirty, chg);
		dmaemu__unlock(stripe);
		memset(out, 0, sizeof(out));
		any = false;
		lost = 0;
		for (k = 0; k < line; k++) {
			uint64_t bit = 1ULL << (k % 64);
			bool in = lp + k >= lo && lp + k < hi;

			if (!in && (dirty[k / 64] & bit)) {
				out[k / 64] |= bit;
				any = true;
			}
			if (in && (chg[k / 64] & bit) && !(dirty[k / 64] & bit))
				lost++;
		}
		if (!any || dmaemu__cpu_model_dirty(m, lp) ||
		    (lost && handover_invalidates(m, how, dir, attrs)))
			continue;
		report_shared_edge(dev, map, lp, out, fn);
	}
}

void dmaemu__owncheck_handover(struct device *dev,
			       const struct dmaemu__mapping *map, uint64_t phys,
			       size_t size, int dir, unsigned long attrs,
			       enum dmaemu__handover how, const char *fn)
{
	struct dmaemu_machine *m = dev->dmaemu->m;
	struct dmaemu__lost_stores ls;

	if (map->type == DMAEMU__MAP_RESOURCE)
		return;
	if (dmaemu__checks_on(m, DMAEMU__CHECK_COHERENCE))
		shared_edges(dev, map, phys, size, dir, attrs, how, fn);
	/* A store given back to the device in a DMA_FROM_DEVICE buffer is
	 * the driver's bug whatever this machine's sync does with it: 4.14's
	 * arm and arm64 invalidate it, arm64 since Linux 5.19
	 * (map_policy=5.19, kernel=6.12) cleans it to memory, x86 keeps
	 * it. */
	if (!dmaemu__checks_on(m, DMAEMU__CHECK_COHERENCE) ||
	    !(handover_invalidates(m, how, dir, attrs) ||
	      (how == DMAEMU__HANDOVER_FOR_DEVICE &&
	       dir == DMAEMU__DIR_FROM_DEVICE))) {
		dmaemu__owner_stores_take(m, phys, size, NULL);
		return;
	}
	if (dmaemu__owner_stores_take(m, phys, size, &ls))
		report_handover(dev, map, phys, size, dir, how, fn, &ls);
}

/* "the DMA_FROM_DEVICE streaming mapping dma 0x80021000+1514 (direct
 * backend) made by dma_map_single_attrs() called from rx_refill rx.c:51";
 * a coherent allocation made with DMA_ATTR_NON_CONSISTENT says so. */
void dmaemu__owncheck_range_text(const struct dmaemu__coh_range *r,
				 struct dmaemu__owner_info *made, char *buf,
				 size_t len)
{
	static const char *const types[] = {
		[DMAEMU__MAP_SINGLE] = "streaming mapping",
		[DMAEMU__MAP_PAGE] = "page mapping",
		[DMAEMU__MAP_SG] = "scatterlist segment",
		[DMAEMU__MAP_RESOURCE] = "resource mapping",
		[DMAEMU__MAP_COHERENT] = "coherent allocation",
	};
	struct dmaemu__owner_info o;

	memset(&o, 0, sizeof(o));
	o.made_caller = r->caller;
	o.made_fn = r->fn;
	if (r->type == DMAEMU__MAP_COHERENT)
		snprintf(buf, len,
			 "the coherent allocation dma 0x%llx+%zu%s made by %s",
			 (unsigned long long)r->dma, r->size,
			 (r->attrs & DMA_ATTR_NON_CONSISTENT)
				 ? " (DMA_ATTR_NON_CONSISTENT)"
				 : "",
			 dmaemu__owner_made_at(&o));
	else
		snprintf(buf, len,
			 "the %s %s dma 0x%llx+%zu (%s backend) made "
			 "by %s",
			 dmaemu__dir_name(r->dir, "DMA_NONE"), types[r->type],
			 (unsigned long long)r->dma, r->size,
			 r->backend ? r->backend : "?",
			 dmaemu__owner_made_at(&o));
	if (made)
		*made = o;
}

/* Bus address @dma of @dev as a physical address (UINT64_MAX: none). */
static uint64_t bus_phys(struct dmaemu_machine *m, struct device *dev,
			 dma_addr_t dma)
{
	if (m->opt.iommu)
		return dmaemu__iommu_iova_to_phys(dev, dma);
	return dma - m->opt.dma_offset;
}

/*
 * The lines a report of an access to @a->ulo (@n bytes from there that no
 * live range covers; @subj: "they are", "the address is") gives of it:
 * the range that went away there and the call that undid it, a live range
 * it overruns or comes near, the live range it is a cut address of; or
 * that nothing remembered covers it.  @made receives where the range
 * named first was made (made_at empty: none).
 */
void dmaemu__owncheck_explain(const struct dmaemu__admit *a, uint64_t n,
			      const char *subj, char *buf, size_t len,
			      struct dmaemu__owner_info *made)
{
	bool many = !strcmp(subj, "they are");
	char near[560];
	size_t at = 0;
	bool named = false;

#define ADD(...)                                                            \
	do {                                                                \
		if (at < len) {                                             \
			int k_ = snprintf(buf + at, len - at, __VA_ARGS__); \
			at += k_ > 0 ? (size_t)k_ : 0;                      \
		}                                                           \
	} while (0)
	buf[0] = '\0';
	made->made_at[0] = '\0';
	if (a->gone) {
		struct dmaemu__owner_info by;

		memset(&by, 0, sizeof(by));
		by.made_caller = a->gone_r.gone_caller;
		by.made_fn = a->gone_r.gone_fn;
		dmaemu__owncheck_range_text(&a->gone_r, made, near,
					    sizeof(near));
		named = true;
		ADD("\n    %s %llu bytes into %s, which was %s since by %s",
		    subj, (unsigned long long)(a->ulo - a->gone_r.dma), near,
		    a->gone_r.type == DMAEMU__MAP_COHERENT ? "freed"
							   : "unmapped",
		    a->gone_r.gone_caller ? dmaemu__owner_made_at(&by)
					  : "the library");
	} else if (a->overrun) {
		dmaemu__owncheck_range_text(&a->near_r, made, near,
					    sizeof(near));
		named = true;
		ADD("\n    %llu byte%s past the end of %s",
		    (unsigned long long)n, n == 1 ? "" : "s", near);
	} else if (a->forgot) {
		ADD("\n    no live or recently unmapped mapping covers %s (the "
		    "device's last %zu unmaps and frees are remembered: "
		    "option unmap_history)",
		    n == 1 ? "it" : "them", a->history);
	} else if (a->near) {
		dmaemu__owncheck_range_text(&a->near_r, made, near,
					    sizeof(near));
		named = true;
		ADD("\n    %s %llu byte%s %s %s", many ? "they start" : subj,
		    (unsigned long long)a->near_dist,
		    a->near_dist == 1 ? "" : "s",
		    a->near_after ? "before the start of" : "past the end of",
		    near);
	}
	if (a->alias) {
		struct dmaemu__owner_info o;

		dmaemu__owncheck_range_text(&a->alias_r, named ? &o : made,
					    near, sizeof(near));
		ADD("\n    dma 0x%llx is the bus address 0x%llx cut to its low "
		    "%u bits (a register or DMA mask narrower than the "
		    "address), inside %s",
		    (unsigned long long)a->ulo,
		    (unsigned long long)(a->alias_r.dma +
					 (a->ulo -
					  (a->alias_r.dma &
					   (((uint64_t)1 << a->alias_bits) -
					    1)))),
		    a->alias_bits, near);
	}
#undef ADD
}

static void report_unmapped(struct dmaemu_device *d, dma_addr_t dma, size_t len,
			    bool write, const struct dmaemu__admit *a)
{
	struct dmaemu_machine *m = d->m;
	struct dmaemu__report_info r;
	struct dmaemu__owner_info made;
	uint64_t n = a->uhi - a->ulo, phys;
	char where[256], what[1400], bell[400];
	const void *site = dmaemu__access_site();
	uint64_t key = a->gone				       ? a->gone_r.dma
		       : a->overrun || (a->near && !a->forgot) ? a->near_r.dma
		       : a->alias			       ? a->alias_r.dma
							       : 0;

	if (!dmaemu__report_first(m, DMAEMU_REPORT_DEVICE_ACCESS_UNMAPPED, site,
				  d->name, key))
		return;
	dmaemu__owncheck_explain(a, n, "they are", what, sizeof(what), &made);
	phys = bus_phys(m, &d->dev, a->ulo);
	memset(&r, 0, sizeof(r));
	r.kind = DMAEMU_REPORT_DEVICE_ACCESS_UNMAPPED;
	r.phys = phys == UINT64_MAX ? 0 : phys;
	r.size = n;
	r.device = d->name;
	if (made.made_at[0])
		r.made_at = made.made_at;
	bell[0] = '\0';
	where[0] = '\0';
	/* A device's own access naming no mapping: the driver's line is
	 * the register write that gave the device the address. */
	if (!made.made_at[0] && dmaemu__on_device_thread())
		dmaemu__device_last_write(d, bell, sizeof(bell), where,
					  sizeof(where));
	if (where[0])
		r.where = where;
	else if (site) {
		dmaemu__code_where(site, where, sizeof(where));
		r.where = where;
	}
	dmaemu__report(m, &r,
		       "device %s %s of %zu byte%s at dma 0x%llx: %llu byte%s "
		       "at dma 0x%llx-0x%llx %s in no live mapping or "
		       "coherent allocation of the device; the access is "
		       "refused, nothing transferred (as behind an IOMMU)%s%s",
		       d->name, write ? "write" : "read", len,
		       len == 1 ? "" : "s", (unsigned long long)dma,
		       (unsigned long long)n, n == 1 ? "" : "s",
		       (unsigned long long)a->ulo,
		       (unsigned long long)(a->uhi - 1), n == 1 ? "is" : "are",
		       what, bell);
}

static void report_write_to_device(struct dmaemu_device *d, dma_addr_t dma,
				   size_t len, const struct dmaemu__admit *a)
{
	struct dmaemu_machine *m = d->m;
	struct dmaemu__report_info r;
	struct dmaemu__owner_info made;
	struct dmaemu__coh_range w;
	uint64_t n = a->whi - a->wlo, phys;
	char where[256], map[560];
	const void *site = dmaemu__access_site();

	if (!dmaemu__report_first(m,
				  DMAEMU_REPORT_DEVICE_WRITE_TO_DEVICE_MAPPING,
				  site, d->name, a->wmap.dma))
		return;
	memset(&w, 0, sizeof(w));
	w.dma = a->wmap.dma;
	w.size = a->wmap.size;
	w.dir = DMA_TO_DEVICE;
	w.type = a->wmap.type;
	w.fn = a->wmap.fn;
	w.caller = a->wmap.caller;
	w.backend = a->wmap.ops ? a->wmap.ops->name : NULL;
	dmaemu__owncheck_range_text(&w, NULL, map, sizeof(map));
	phys = bus_phys(m, &d->dev, a->wlo);
	memset(&r, 0, sizeof(r));
	r.kind = DMAEMU_REPORT_DEVICE_WRITE_TO_DEVICE_MAPPING;
	r.phys = phys == UINT64_MAX ? 0 : phys;
	r.size = n;
	r.device = d->name;
	fill_info(&made, &a->wmap, d->name, 0, 0);
	dmaemu__owner_report_fields(&made, &r);
	if (site) {
		dmaemu__code_where(site, where, sizeof(where));
		r.where = where;
	}
	dmaemu__report(m, &r,
		       "device %s write of %zu byte%s at dma 0x%llx: %llu "
		       "byte%s at dma 0x%llx-0x%llx are in a DMA_TO_DEVICE "
		       "mapping, which the device may only read; the write "
		       "lands (no IOMMU stops it)%s; fix: map the buffer "
		       "DMA_FROM_DEVICE or DMA_BIDIRECTIONAL if the device "
		       "writes it\n"
		       "    %s",
		       d->name, len, len == 1 ? "" : "s",
		       (unsigned long long)dma, (unsigned long long)n,
		       n == 1 ? "" : "s", (unsigned long long)a->wlo,
		       (unsigned long long)(a->whi - 1),
		       a->wmap.ops && a->wmap.ops->name &&
				       !strcmp(a->wmap.ops->name, "swiotlb")
			       ? " in the bounce buffer, and the unmap copies "
				 "nothing back"
			       : "",
		       map);
}

int dmaemu__owncheck_admit(struct device *dev, dma_addr_t dma, size_t len,
			   bool write, const struct dmaemu__admit *a)
{
	struct dmaemu_device *d = (struct dmaemu_device *)(void *)dev;

	if (a->whi)
		report_write_to_device(d, dma, len, a);
	if (!a->uhi)
		return 0;
	report_unmapped(d, dma, len, write, a);
	return -EFAULT;
}
