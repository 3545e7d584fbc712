// SPDX-License-Identifier: MIT
/*
 * prefetch.c - the speculative prefetcher (option prefetch=1).
 *
 * How it works.  A real CPU may pull any line of a cacheable mapping into
 * its cache at any moment (hardware prefetch, speculation), including
 * lines of a buffer the device owns.  That is why unmap and
 * sync_for_cpu must invalidate even when map already did: the copy the
 * CPU took while the device was writing is stale.
 *
 * The DMA layer registers the device-owned ranges (at map, or
 * sync_for_device) and removes them when the CPU takes them back.  On CPU
 * accesses to emulated memory, each thread counts down an interval drawn
 * uniformly from [1, 2 * opt.prefetch_rate - 1] (so one chance every
 * prefetch_rate accesses on average); at zero, one line of the registered
 * ranges, chosen uniformly, is filled into the cache model (and the CPU
 * copy takes memory's data), unless it is resident already.  Both draws
 * come from one xorshift64* generator per machine seeded by opt.seed, so
 * a single-threaded program replays the same prefetches for the same seed.
 *
 * A prefetch is a read lookup of the cache model: it shows in the
 * statistics as a read (and a miss), and is counted in
 * dmaemu_cpu_stats.prefetches.  Everything here runs under the cache lock.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu.h"

struct dmaemu__pf_range {
	uint64_t first; /* first line */
	uint64_t nlines;
	uint64_t phys, len; /* as registered */
};

static uint64_t next_rand(struct dmaemu__cpu *c)
{
	uint64_t x = c->pf_rng;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	c->pf_rng = x;
	return x * 0x2545f4914f6cdd1dULL;
}

int dmaemu__prefetch_add_range(struct dmaemu_machine *m, uint64_t phys,
			       uint64_t len)
{
	struct dmaemu__cpu *c = m->cpu;
	uint64_t lmask = (uint64_t)m->line - 1, first, end;
	struct dmaemu__pf_range *r;

	if (!len || phys + len < phys || !dmaemu__bank_of_phys(m, phys, len))
		return -EINVAL;
	first = phys & ~lmask;
	end = (phys + len + lmask) & ~lmask;
	dmaemu__lock(&m->cache_lock);
	if (c->pf_n == c->pf_cap) {
		size_t cap = c->pf_cap ? 2 * c->pf_cap : 8;

		r = dmaemu__realloc(c->pf, cap * sizeof(*r));
		if (!r) {
			dmaemu__unlock(&m->cache_lock);
			return -ENOMEM;
		}
		c->pf = r;
		c->pf_cap = cap;
	}
	r = &c->pf[c->pf_n++];
	r->first = first;
	r->nlines = (end - first) >> m->line_shift;
	r->phys = phys;
	r->len = len;
	c->pf_lines += r->nlines;
	dmaemu__unlock(&m->cache_lock);
	return 0;
}

int dmaemu__prefetch_del_range(struct dmaemu_machine *m, uint64_t phys,
			       uint64_t len)
{
	struct dmaemu__cpu *c = m->cpu;
	size_t i;

	dmaemu__lock(&m->cache_lock);
	for (i = 0; i < c->pf_n; i++) {
		if (c->pf[i].phys == phys && c->pf[i].len == len) {
			c->pf_lines -= c->pf[i].nlines;
			/* Keep the order: picks stay reproducible. */
			memmove(&c->pf[i], &c->pf[i + 1],
				(c->pf_n - i - 1) * sizeof(c->pf[0]));
			c->pf_n--;
			dmaemu__unlock(&m->cache_lock);
			return 0;
		}
	}
	dmaemu__unlock(&m->cache_lock);
	return -EINVAL;
}

uint64_t dmaemu__prefetch_interval(struct dmaemu_machine *m)
{
	uint64_t span = 2 * (uint64_t)m->opt.prefetch_rate - 1;

	if (!m->opt.prefetch)
		return UINT64_MAX;
	return 1 + next_rand(m->cpu) % (span ? span : 1);
}

void dmaemu__prefetch_fire(struct dmaemu_machine *m)
{
	struct dmaemu__cpu *c = m->cpu;
	uint64_t dirty[DMAEMU__MASK_WORDS], pick, lp = 0;
	pthread_mutex_t *stripe;
	unsigned int i, lvl;
	size_t r;

	if (!c->pf_lines)
		return;
	pick = next_rand(c) % c->pf_lines;
	for (r = 0; r < c->pf_n; r++) {
		if (pick < c->pf[r].nlines) {
			lp = c->pf[r].first + (pick << m->line_shift);
			break;
		}
		pick -= c->pf[r].nlines;
	}
	for (i = 0; i < cachesim_levels(m->cache); i++)
		if (cachesim_resident(m->cache, i, lp))
			return;
	lvl = cachesim_access(m->cache, lp, m->line, CACHESIM_READ);
	dmaemu__mem_residency_changed();
	if (__builtin_expect(dmaemu__tracing(m, DMAEMU__TRACE_CACHE), 0))
		dmaemu__trace_fill(m, lp, lvl, true);
	stripe = dmaemu__stripe_of(m, lp);
	dmaemu__lock(stripe);
	dmaemu__racy_line_begin(dmaemu__phys_cpu(m, lp), m->line);
	dmaemu__line_masks(m, lp, dirty, NULL);
	/* A line with CPU-dirty bytes counts as resident already (cpu.c). */
	if (!dmaemu__mask_any(dirty))
		dmaemu__line_fill(m, lp);
	dmaemu__racy_line_end(dmaemu__phys_cpu(m, lp), m->line);
	dmaemu__unlock(stripe);
	c->prefetches++;
	c->pf_last = lp;
}

void dmaemu__prefetch_fini(struct dmaemu_machine *m)
{
	dmaemu__free(m->cpu->pf);
	m->cpu->pf = NULL;
	m->cpu->pf_n = m->cpu->pf_cap = 0;
	m->cpu->pf_lines = 0;
}
