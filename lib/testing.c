// SPDX-License-Identifier: MIT
/*
 * testing.c - <dmaemu/testing.h>: the model seen from outside, for tests,
 * the labs' cache-line pictures and checkers.
 *
 * How it works.  It sits on top, beside machine.c, and only reads what the
 * layers below keep anyway: the cache model (under the cache lock) and the
 * three copies (under the line's stripe lock) for a line's state, the
 * mapping registry, the backends' statistics, the prefetcher's ranges.
 * Each call copies a snapshot out under the lock that protects it and
 * converts private types to public ones, so no private struct crosses the
 * API and the layers can change behind it.  The few calls that act
 * (cache maintenance by address, DRAM access without a device) call the
 * memory layer's own operations, so they behave exactly as the DMA layer's
 * uses of them do.
 *
 * Bad arguments (NULL machine or device, a destroyed device, an address
 * that is not DRAM) are bad-argument reports plus -EINVAL or -EFAULT; a
 * question whose answer is "none" (no mapping there, no IOMMU) is an
 * error code without a report.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "dma/dma.h"
#include "dmaemu/testing.h"

_Static_assert(DMAEMU_LINE_MAX == DMAEMU__MAX_LINE, "line mask sizes");
_Static_assert(DMAEMU_LINE_MASK_WORDS == DMAEMU__MASK_WORDS, "mask words");
_Static_assert(DMAEMU_MAX_BANKS == DMAEMU__MAX_BANKS, "banks");
_Static_assert((int)DMAEMU_PROFILE_ARM == (int)DMAEMU__PROFILE_ARM &&
		       (int)DMAEMU_PROFILE_ARM64 ==
			       (int)DMAEMU__PROFILE_ARM64 &&
		       (int)DMAEMU_PROFILE_X86 == (int)DMAEMU__PROFILE_X86,
	       "profiles");
_Static_assert((int)DMAEMU_REGION_LINEAR == (int)DMAEMU__REGION_LINEAR &&
		       (int)DMAEMU_REGION_UNCACHED ==
			       (int)DMAEMU__REGION_UNCACHED &&
		       (int)DMAEMU_REGION_WC == (int)DMAEMU__REGION_WC &&
		       (int)DMAEMU_REGION_NOMAP == (int)DMAEMU__REGION_NOMAP &&
		       (int)DMAEMU_REGION_MMIO == (int)DMAEMU__REGION_MMIO &&
		       (int)DMAEMU_REGION_VMALLOC ==
			       (int)DMAEMU__REGION_VMALLOC,
	       "regions");
_Static_assert((int)DMAEMU_OWNER_CPU == (int)DMAEMU__DOMAIN_CPU &&
		       (int)DMAEMU_OWNER_DEVICE == (int)DMAEMU__DOMAIN_DEVICE,
	       "owners");
_Static_assert((int)DMAEMU_MAP_SINGLE == (int)DMAEMU__MAP_SINGLE &&
		       (int)DMAEMU_MAP_PAGE == (int)DMAEMU__MAP_PAGE &&
		       (int)DMAEMU_MAP_SG == (int)DMAEMU__MAP_SG &&
		       (int)DMAEMU_MAP_RESOURCE == (int)DMAEMU__MAP_RESOURCE,
	       "mapping types");

/* The size of a swiotlb slot (IO_TLB_SIZE of swiotlb.c, as in Linux). */
#define SWIOTLB_SLOT_SIZE 2048

/* ---------------------------------------------------------------------- */
/* Arguments                                                              */
/* ---------------------------------------------------------------------- */

/* @m is non-NULL, else a bad-argument report on the current machine. */
static int check_machine(struct dmaemu_machine *m, const void *out,
			 const char *fn)
{
	if (dmaemu__machine_bad(m, fn))
		return -EINVAL;
	if (m && out)
		return 0;
	dmaemu__reportf(m, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0, "%s: NULL %s", fn,
			m ? "argument" : "machine");
	return -EINVAL;
}

/* Zero the caller's @out (@size bytes, if any), then check_machine(). */
static int zero_and_check(struct dmaemu_machine *m, void *out, size_t size,
			  const char *fn)
{
	if (out)
		memset(out, 0, size);
	return check_machine(m, out, fn);
}

/* The struct device of live @dev, or NULL after a bad-argument report. */
static struct device *check_device(struct dmaemu_device *dev, const void *out,
				   const char *fn)
{
	struct device *d = dmaemu_device_to_dev(dev);

	if (d && out)
		return d;
	dmaemu__reportf(d ? dmaemu__dev_machine(d) : NULL,
			DMAEMU_REPORT_BAD_ARGUMENT, 0, 0, "%s: %s", fn,
			!dev ? "NULL device"
			: !d ? "device already destroyed"
			     : "NULL argument");
	return NULL;
}

/* [@phys, +@len) (@len 0 taken as 1) is DRAM of @m, else a report. */
static int check_dram(struct dmaemu_machine *m, uint64_t phys, uint64_t len,
		      const char *fn)
{
	if (phys + len >= phys && dmaemu__bank_of_phys(m, phys, len))
		return 0;
	dmaemu__reportf(m, DMAEMU_REPORT_BAD_ARGUMENT, phys, len,
			"%s: 0x%llx+%llu is not DRAM of the machine", fn,
			(unsigned long long)phys, (unsigned long long)len);
	return -EFAULT;
}

/* ---------------------------------------------------------------------- */
/* The machine                                                            */
/* ---------------------------------------------------------------------- */

int dmaemu_machine_info(struct dmaemu_machine *m,
			struct dmaemu_machine_info *info)
{
	unsigned int i;
	int ret;

	ret = zero_and_check(m, info, sizeof(*info), __func__);
	if (ret)
		return ret;
	info->profile = (int)m->opt.profile;
	info->line_size = m->line;
	dmaemu__lock(&m->cache_lock);
	info->cache_levels = cachesim_levels(m->cache);
	dmaemu__unlock(&m->cache_lock);
	info->dma_minalign = m->opt.dma_minalign;
	info->nbanks = m->nbanks;
	for (i = 0; i < m->nbanks; i++) {
		info->bank[i].phys = m->bank[i].phys;
		info->bank[i].size = m->bank[i].size;
	}
	info->dma_offset = dmaemu__dma_offset(m);
	info->iommu = m->opt.iommu;
	info->swiotlb_force = m->opt.swiotlb_force;
	info->prefetch = m->opt.prefetch;
	return 0;
}

int dmaemu_cache_level_info(struct dmaemu_machine *m, unsigned int level,
			    struct dmaemu_cache_level_info *info)
{
	const struct cachesim_level_config *cfg;
	int ret;

	ret = zero_and_check(m, info, sizeof(*info), __func__);
	if (ret)
		return ret;
	dmaemu__lock(&m->cache_lock);
	if (level >= cachesim_levels(m->cache)) {
		dmaemu__unlock(&m->cache_lock);
		dmaemu__reportf(m, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"%s: no cache level %u", __func__, level);
		return -EINVAL;
	}
	cfg = cachesim_level_config(m->cache, level);
	info->size = cfg->size;
	info->ways = cfg->ways;
	info->line_size = cfg->line;
	info->sets = cachesim_sets(m->cache, level);
	dmaemu__unlock(&m->cache_lock);
	return 0;
}

/* ---------------------------------------------------------------------- */
/* One cache line                                                         */
/* ---------------------------------------------------------------------- */

int dmaemu_line_state(struct dmaemu_machine *m, uint64_t phys,
		      struct dmaemu_line_state *st)
{
	pthread_mutex_t *stripe;
	unsigned int l, n;
	uint64_t lp;
	int ret;

	if (st)
		memset(st, 0, sizeof(*st));
	ret = check_machine(m, st, __func__);
	if (ret)
		return ret;
	lp = phys & ~((uint64_t)m->line - 1);
	ret = check_dram(m, lp, m->line, __func__);
	if (ret)
		return ret;
	st->phys = lp;
	st->line_size = m->line;
	/* Cache lock, then the line's stripe: the written order (core.h). */
	stripe = dmaemu__stripe_of(m, lp);
	dmaemu__lock(&m->cache_lock);
	n = cachesim_levels(m->cache);
	for (l = 0; l < n && l < 8 * sizeof(st->resident_levels); l++) {
		if (cachesim_resident(m->cache, l, lp))
			st->resident_levels |= 1U << l;
		if (cachesim_dirty(m->cache, l, lp))
			st->dirty_levels |= 1U << l;
	}
	dmaemu__lock(stripe);
	dmaemu__line_masks(m, lp, st->cpu_dirty, st->dev_changed);
	dmaemu__unlock(stripe);
	dmaemu__unlock(&m->cache_lock);
	st->resident = st->resident_levels != 0;
	st->owner = (int)dmaemu__owner_get(m, lp);
	return 0;
}

bool dmaemu_line_mask_test(const uint64_t *mask, unsigned int byte)
{
	if (!mask || byte >= DMAEMU_LINE_MAX)
		return false;
	return (mask[byte / 64] >> (byte % 64)) & 1;
}

unsigned int dmaemu_line_mask_weight(const uint64_t *mask)
{
	unsigned int i, n = 0;

	if (!mask)
		return 0;
	for (i = 0; i < DMAEMU_LINE_MASK_WORDS; i++)
		n += (unsigned int)__builtin_popcountll(mask[i]);
	return n;
}

/* ---------------------------------------------------------------------- */
/* Addresses                                                              */
/* ---------------------------------------------------------------------- */

int dmaemu_addr_info(const void *addr, struct dmaemu_addr_info *info)
{
	struct dmaemu__where w;

	if (!info) {
		dmaemu__reportf(NULL, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"%s: NULL argument", __func__);
		return -EINVAL;
	}
	memset(info, 0, sizeof(*info));
	if (!dmaemu__classify(addr, &w))
		return 0;
	/* The TWIN view is never handed out; nobody can hold its address
	 * but the model itself. */
	if (w.region == DMAEMU__REGION_TWIN)
		return 0;
	info->machine = w.m;
	info->region = (int)w.region;
	info->phys = w.phys;
	return 0;
}

void *dmaemu_phys_view(struct dmaemu_machine *m, uint64_t phys, int region)
{
	if (!m) {
		dmaemu__reportf(NULL, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"%s: NULL machine", __func__);
		return NULL;
	}
	switch (region) {
	case DMAEMU_REGION_LINEAR:
	case DMAEMU_REGION_UNCACHED:
	case DMAEMU_REGION_WC:
	case DMAEMU_REGION_NOMAP:
		break;
	default:
		dmaemu__reportf(m, DMAEMU_REPORT_BAD_ARGUMENT, phys, 0,
				"%s: region %d has no view of DRAM", __func__,
				region);
		return NULL;
	}
	if (check_dram(m, phys, 1, __func__))
		return NULL;
	return dmaemu__phys_view(m, phys, (enum dmaemu__region)region);
}

/* ---------------------------------------------------------------------- */
/* Streaming mappings and allocations                                     */
/* ---------------------------------------------------------------------- */

static void mapping_out(const struct dmaemu__mapping *r,
			struct dmaemu_mapping_info *o)
{
	memset(o, 0, sizeof(*o));
	o->type = (int)r->type;
	o->dma = r->dma;
	o->phys = r->phys;
	o->size = r->size;
	o->dir = r->dir;
	o->attrs = r->attrs;
	o->backend = r->ops ? r->ops->name : NULL;
	o->fn = r->fn;
	o->cpu_addr = r->cpu_addr;
	o->caller = r->caller;
	o->error_checked = r->error_checked;
	o->prefetch = r->prefetch;
	if (r->type == DMAEMU__MAP_SG) {
		o->sg_segment = r->seg;
		o->sg_nents = r->nents;
		o->sg_mapped = r->mapped;
	}
	o->dev_reads = r->dev_reads;
	o->dev_writes = r->dev_writes;
	o->dev_bytes_read = r->dev_bytes_read;
	o->dev_bytes_written = r->dev_bytes_written;
	o->last_valid = r->last.valid;
	o->last_write = r->last.write;
	o->last_dma = r->last.dma;
	o->last_len = r->last.len;
	o->syncs_for_device = r->syncs_for_device;
	o->syncs_for_cpu = r->syncs_for_cpu;
	o->bytes_cleaned = r->bytes_cleaned;
	o->bytes_invalidated = r->bytes_invalidated;
	o->bytes_bounced = r->bytes_bounced;
}

int dmaemu_device_mappings(struct dmaemu_device *dev,
			   struct dmaemu_mapping_info *out, size_t max)
{
	struct dmaemu__mapping *recs = NULL;
	struct device *d;
	size_t n, i;

	d = check_device(dev, max ? (const void *)out : (const void *)dev,
			 __func__);
	if (!d)
		return -EINVAL;
	/* The registry copies under its lock (a leaf): copy into a private
	 * array first, then convert, so no report or allocation runs under
	 * it.  Mappings made meanwhile may be missed, as in any snapshot. */
	for (;;) {
		n = dmaemu__mapping_count(d);
		if (n > max)
			n = max;
		if (n) {
			recs = dmaemu__calloc(n, sizeof(*recs));
			if (!recs)
				return -ENOMEM;
		}
		i = dmaemu__mapping_list(d, recs, n);
		if (i <= n || n == max)
			break;
		/* More were made between the count and the copy. */
		dmaemu__free(recs);
		recs = NULL;
	}
	for (size_t k = 0; k < n && k < i; k++)
		mapping_out(&recs[k], &out[k]);
	dmaemu__free(recs);
	return i > (size_t)INT32_MAX ? INT32_MAX : (int)i;
}

int dmaemu_device_mapping_find(struct dmaemu_device *dev, uint64_t dma,
			       size_t size, struct dmaemu_mapping_info *out)
{
	struct dmaemu__mapping rec;
	struct device *d = check_device(dev, out, __func__);

	if (!d)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	if (dmaemu__mapping_find(d, dma, size, &rec, NULL))
		return -ENOENT;
	mapping_out(&rec, out);
	return 0;
}

int dmaemu_device_dma_info(struct dmaemu_device *dev,
			   struct dmaemu_device_dma_info *info)
{
	struct device *d = check_device(dev, info, __func__);

	if (info)
		memset(info, 0, sizeof(*info));
	if (!d)
		return -EINVAL;
	info->mappings = dmaemu__mapping_count(d);
	info->stray_accesses = dmaemu__mapping_stray(d);
	return 0;
}

int dmaemu_device_allocation_find(struct dmaemu_device *dev,
				  const void *cpu_addr, uint64_t dma,
				  size_t size,
				  struct dmaemu_allocation_info *out)
{
	struct dmaemu__alloc_info a;
	struct device *d = check_device(dev, out, __func__);

	if (!d)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	if (dmaemu__alloc_find(d, cpu_addr, dma, size, &a))
		return -ENOENT;
	out->cpu_addr = a.cpu_addr;
	out->dma = a.handle;
	out->size = a.size;
	out->attrs = a.attrs;
	out->phys = a.phys;
	out->contiguous = a.contiguous;
	out->view = a.view;
	return 0;
}

/* ---------------------------------------------------------------------- */
/* Backends                                                               */
/* ---------------------------------------------------------------------- */

int dmaemu_swiotlb_info(struct dmaemu_machine *m,
			struct dmaemu_swiotlb_info *info)
{
	struct dmaemu__swiotlb_stats st;
	int ret;

	ret = zero_and_check(m, info, sizeof(*info), __func__);
	if (ret)
		return ret;
	dmaemu__swiotlb_info(m, &st);
	info->slots = st.nslots;
	info->slot_size = SWIOTLB_SLOT_SIZE;
	info->used = st.used;
	info->chunks = st.nchunks;
	info->start = st.start;
	info->maps = st.maps;
	info->fulls = st.fulls;
	info->bounced = st.bounced;
	return 0;
}

int dmaemu_iommu_info(struct dmaemu_device *dev, struct dmaemu_iommu_info *info)
{
	struct dmaemu__iommu_stats st;
	struct device *d = check_device(dev, info, __func__);

	if (info)
		memset(info, 0, sizeof(*info));
	if (!d)
		return -EINVAL;
	if (!dmaemu__dev_machine(d)->opt.iommu)
		return -ENODEV;
	dmaemu__iommu_info(d, &st);
	info->ranges = st.allocs;
	info->pages = st.pages;
	info->free_ranges = st.free_ranges;
	info->faults = st.faults;
	info->tables = st.tables;
	info->privileged = st.privileged;
	return 0;
}

int dmaemu_iommu_iova_to_phys(struct dmaemu_device *dev, uint64_t iova,
			      uint64_t *phys)
{
	struct device *d = check_device(dev, phys, __func__);
	uint64_t p;

	if (!d)
		return -EINVAL;
	if (!dmaemu__dev_machine(d)->opt.iommu)
		return -ENODEV;
	p = dmaemu__iommu_iova_to_phys(d, iova);
	if (p == UINT64_MAX)
		return -ENOENT;
	*phys = p;
	return 0;
}

/* ---------------------------------------------------------------------- */
/* The CPU side                                                           */
/* ---------------------------------------------------------------------- */

long dmaemu_wc_pending(struct dmaemu_machine *m, uint64_t phys, size_t len)
{
	int ret = check_machine(m, m, __func__);

	if (ret)
		return ret;
	return (long)dmaemu__wc_pending(m, phys, len);
}

int dmaemu_prefetch_info(struct dmaemu_machine *m,
			 struct dmaemu_prefetch_info *info)
{
	int ret;

	ret = zero_and_check(m, info, sizeof(*info), __func__);
	if (ret)
		return ret;
	dmaemu__lock(&m->cache_lock);
	info->ranges = m->cpu->pf_n;
	info->lines = m->cpu->pf_lines;
	info->last = m->cpu->pf_last;
	dmaemu__unlock(&m->cache_lock);
	info->fills = __atomic_load_n(&m->cpu->prefetches, __ATOMIC_RELAXED);
	return 0;
}

/* ---------------------------------------------------------------------- */
/* Driving the model directly                                             */
/* ---------------------------------------------------------------------- */

/* The lines covering [@phys, +@len) are DRAM of @m (what range_op wants). */
static int check_range(struct dmaemu_machine *m, uint64_t phys, size_t len,
		       const char *fn)
{
	uint64_t lmask, first, end;
	int ret = check_machine(m, m, fn);

	if (ret)
		return ret;
	if (!len)
		return 0;
	lmask = (uint64_t)m->line - 1;
	first = phys & ~lmask;
	end = phys + len + lmask;
	if (phys + len < phys || end < phys + len)
		return check_dram(m, phys, UINT64_MAX - phys, fn);
	end &= ~lmask;
	return check_dram(m, first, end - first, fn);
}

int dmaemu_cache_clean(struct dmaemu_machine *m, uint64_t phys, size_t len)
{
	/* Reports of the maintenance name the caller's line. */
	DMAEMU__API_CALL(call, __func__);
	int ret = check_range(m, phys, len, __func__);

	if (ret)
		return ret;
	dmaemu__range_clean(m, phys, len);
	return 0;
}

int dmaemu_cache_invalidate(struct dmaemu_machine *m, uint64_t phys, size_t len)
{
	/* Reports of the maintenance name the caller's line. */
	DMAEMU__API_CALL(call, __func__);
	int ret = check_range(m, phys, len, __func__);

	if (ret)
		return ret;
	dmaemu__range_invalidate(m, phys, len);
	return 0;
}

int dmaemu_cache_clean_invalidate(struct dmaemu_machine *m, uint64_t phys,
				  size_t len)
{
	DMAEMU__API_CALL(call, __func__);
	int ret = check_range(m, phys, len, __func__);

	if (ret)
		return ret;
	dmaemu__range_clean_invalidate(m, phys, len);
	return 0;
}

static int dram_args(struct dmaemu_machine *m, uint64_t phys, const void *buf,
		     size_t len, const char *fn)
{
	int ret = check_machine(m, (buf || !len) ? m : NULL, fn);

	if (ret)
		return ret;
	if (!len)
		return 0;
	return check_dram(m, phys, len, fn);
}

int dmaemu_dram_write(struct dmaemu_machine *m, uint64_t phys, const void *buf,
		      size_t len)
{
	int ret = dram_args(m, phys, buf, len, __func__);

	if (ret || !len)
		return ret;
	return dmaemu__mem_write(m, phys, buf, len);
}

int dmaemu_dram_read(struct dmaemu_machine *m, uint64_t phys, void *buf,
		     size_t len)
{
	int ret = dram_args(m, phys, buf, len, __func__);

	if (ret || !len)
		return ret;
	return dmaemu__mem_read(m, phys, buf, len);
}
