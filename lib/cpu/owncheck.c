// SPDX-License-Identifier: MIT
/*
 * owncheck.c - the coherence sanitizer's ownership check of CPU accesses,
 * and the repeat summary that its reports and the device side's share.
 *
 * How it works.  The DMA API hands buffers back and forth (mem/ownership.c
 * keeps one byte per line).  A CPU load or store of a line that the device
 * owns is cpu-access-device-owned, except a load of a line that only
 * DMA_TO_DEVICE mappings hold (the device only reads it: harmless on every
 * architecture).  The check costs nothing on the fast path: a map moves
 * lines to the device and bumps the generation, so no fast-path entry of
 * a device-owned line survives, and the slow path makes none (or, for a
 * DMA_TO_DEVICE line, one that serves loads only).  On the slow path it
 * is one load of the line's ownership byte.
 *
 *   access (hook, or a whole memcpy)
 *     slow path, line by line       owner byte: CPU -> nothing
 *                                   device -> note the bytes in the
 *                                   access's accumulator (on its stack)
 *     end of the access, unlocked   dmaemu__own_flush(): ask the DMA layer
 *                                   which mapping holds the bytes (only
 *                                   the mapped bytes of a line shared with
 *                                   CPU data count), then one report
 *                                   no mapped byte, a store: the bytes
 *                                   lie beside a mapping in its partly
 *                                   covered line; shared_store() reports
 *                                   them when the device may write it
 *
 * One access makes one report, however many bytes and lines it touched
 * (an 8 KiB memcpy names the byte range and the line count).  An access
 * that read stale data makes the stale-cpu-read report only: that report
 * already says the buffer was not given back.
 *
 * Repeats.  A loop reading a device-owned buffer byte by byte would print
 * a report per byte.  Reports are keyed by (kind, access site, device,
 * mapping): the first of a key is printed and counted
 * (dmaemu_report_count()), later ones are only counted here, and machine
 * destroy hands their number per kind to the exit summary (report.c),
 * or, with report_fold=0, prints one line per key with the number not
 * printed.  The
 * access site is the first return address outside the library on the
 * stack (glibc's backtrace(), then dladdr()), looked up only when a
 * report is due; when the library is linked statically every address is
 * "inside" and the site is unknown, so the key is then (kind, device,
 * mapping).  The site counts as its source line (site_line()): the
 * instructions a compiler makes of one line, unrolled or inlined, are one
 * site.  The table holds 256 keys; past that, every report prints.
 *
 * Locks: the table's lock is a leaf; the summary is written at machine
 * destroy under the report lock, as the report path writes.
 */
#include "config.h"

#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cpu/cpu.h"

#define NKEYS 256

struct repeat_key {
	enum dmaemu_report_kind kind;
	const void *site; /* the first access's site, for the summary line */
	uint64_t line;	  /* hash of its source line (site_line()) */
	uint64_t dma;
	char dev[32];
	uint64_t count; /* reports of the key, the first included; 0 = free */
};

struct dmaemu__owncheck {
	pthread_mutex_t lock; /* everything below; a leaf */
	struct repeat_key key[NKEYS];
	uint64_t repeats[DMAEMU_REPORT_NKINDS];
	struct dmaemu__own_last last;
	bool have_last;
};

/*
 * glibc's backtrace() loads the unwinder (libgcc_s) with dlopen() the first
 * time it is called; two device threads making their first reports at
 * once would race inside the loader as Helgrind and DRD see it.  Load it
 * once, before any of the machine's threads runs.
 */
static pthread_once_t unwinder_once = PTHREAD_ONCE_INIT;

static void load_unwinder(void)
{
	void *pc[2];

	(void)backtrace(pc, 2);
}

int dmaemu__owncheck_init(struct dmaemu_machine *m)
{
	pthread_once(&unwinder_once, load_unwinder);
	struct dmaemu__owncheck *o = dmaemu__calloc(1, sizeof(*o));

	if (!o)
		return -ENOMEM;
	if (dmaemu__mutex_init(&o->lock)) {
		dmaemu__free(o);
		return -ENOMEM;
	}
	m->cpu->own = o;
	return 0;
}

/* Machine destroy: the repeats to the exit summary (report_fold=1), or one
 * line per key that was repeated; then free. */
void dmaemu__owncheck_fini(struct dmaemu_machine *m)
{
	struct dmaemu__owncheck *o = m->cpu ? m->cpu->own : NULL;
	char where[256], mapping[80], pre[DMAEMU__LOG_PREFIX];
	unsigned int i;
	FILE *out;

	if (!o)
		return;
	if (m->opt.report_fold) {
		/* The exit summary counts them by kind, instead of a line per
		 * key (a ring's buffers would make one line each). */
		for (i = 0; i < DMAEMU_REPORT_NKINDS; i++)
			dmaemu__report_repeats_add(
				m, (enum dmaemu_report_kind)i, o->repeats[i]);
		goto out;
	}
	dmaemu__lock(&m->report_lock);
	out = m->log ? m->log : stderr;
	for (i = 0; i < NKEYS; i++) {
		const struct repeat_key *k = &o->key[i];

		if (k->count <= m->opt.report_repeats || !m->opt.report_repeats)
			continue;
		if (k->site)
			dmaemu__code_where(k->site, where, sizeof(where));
		else
			snprintf(where, sizeof(where), "an unknown site");
		if (k->dev[0])
			snprintf(mapping, sizeof(mapping),
				 " (mapping dma 0x%llx of %s)",
				 (unsigned long long)k->dma, k->dev);
		else
			mapping[0] = '\0';
		fprintf(out,
			"%sdmaemu: %s at %s%s: %llu more report%s like the "
			"first, counted and not printed\n",
			dmaemu__log_prefix(m, pre),
			dmaemu_report_kind_name(k->kind), where, mapping,
			(unsigned long long)(k->count - m->opt.report_repeats),
			k->count - m->opt.report_repeats == 1 ? "" : "s");
	}
	fflush(out);
	dmaemu__unlock(&m->report_lock);
out:
	pthread_mutex_destroy(&o->lock);
	dmaemu__free(o);
	m->cpu->own = NULL;
}

/* ---------------------------------------------------------------------- */
/* Access sites and repeats                                               */
/* ---------------------------------------------------------------------- */

const void *dmaemu__access_site(void)
{
	void *pc[32];
	Dl_info self, info;
	int n, i;

	if (!dladdr((void *)(uintptr_t)dmaemu__access_site, &self))
		return NULL;
	n = backtrace(pc, 32);
	for (i = 1; i < n; i++) {
		if (!dladdr(pc[i], &info))
			return pc[i];
		if (info.dli_fbase != self.dli_fbase)
			return pc[i];
	}
	return NULL;
}

static size_t key_hash(enum dmaemu_report_kind kind, const void *site,
		       uint64_t dma)
{
	uint64_t h = ((uint64_t)(uintptr_t)site ^ dma * 0x9e3779b97f4a7c15ULL) +
		     (uint64_t)kind;

	h *= 0xff51afd7ed558ccdULL;
	return (size_t)(h >> 40) % NKEYS;
}

/*
 * The access site as a source line: "fn file:line" hashed (FNV-1a), so that
 * the several instructions a compiler makes of one line (an unrolled or
 * inlined loop) are one site, as a reader of the report counts them.
 * Without debug information the text is the address's, one per
 * instruction.
 */
static uint64_t site_line(const void *site)
{
	char where[256];
	uint64_t h = 0xcbf29ce484222325ULL;
	const char *c;

	if (!site)
		return 0;
	dmaemu__code_where(site, where, sizeof(where));
	for (c = where; *c; c++)
		h = (h ^ (uint8_t)*c) * 0x100000001b3ULL;
	return h;
}

bool dmaemu__report_first(struct dmaemu_machine *m,
			  enum dmaemu_report_kind kind, const void *site,
			  const char *dev, uint64_t dma)
{
	struct dmaemu__owncheck *o = m->cpu->own;
	uint64_t line = site_line(site);
	size_t i, n;
	bool first = true;

	if (!dev)
		dev = "";
	dmaemu__lock(&o->lock);
	for (i = key_hash(kind, (const void *)(uintptr_t)line, dma), n = 0;
	     n < NKEYS; i = (i + 1) % NKEYS, n++) {
		struct repeat_key *k = &o->key[i];

		if (!k->count) {
			k->kind = kind;
			k->site = site;
			k->line = line;
			k->dma = dma;
			snprintf(k->dev, sizeof(k->dev), "%s", dev);
			k->count = 1;
			break;
		}
		if (k->kind == kind && k->line == line && k->dma == dma &&
		    !strncmp(k->dev, dev, sizeof(k->dev) - 1)) {
			k->count++;
			first = !m->opt.report_repeats ||
				k->count <= m->opt.report_repeats;
			if (!first)
				o->repeats[kind]++;
			break;
		}
	}
	dmaemu__unlock(&o->lock);
	return first;
}

/*
 * Was a report of @kind about the mapping at @dma of @dev made already, at
 * any site?  Paid per stale read of a device-owned buffer only.
 */
static bool report_seen(struct dmaemu_machine *m, enum dmaemu_report_kind kind,
			const char *dev, uint64_t dma)
{
	struct dmaemu__owncheck *o = m->cpu->own;
	bool seen = false;
	size_t i;

	dmaemu__lock(&o->lock);
	for (i = 0; i < NKEYS && !seen; i++)
		seen = o->key[i].count && o->key[i].kind == kind &&
		       o->key[i].dma == dma &&
		       !strncmp(o->key[i].dev, dev, sizeof(o->key[i].dev) - 1);
	dmaemu__unlock(&o->lock);
	return seen;
}

void dmaemu__own_set_last(struct dmaemu_machine *m,
			  const struct dmaemu__own_last *last)
{
	struct dmaemu__owncheck *o = m->cpu->own;

	dmaemu__lock(&o->lock);
	o->last = *last;
	o->have_last = true;
	dmaemu__unlock(&o->lock);
}

int dmaemu__own_last(struct dmaemu_machine *m, struct dmaemu__own_last *out)
{
	struct dmaemu__owncheck *o = m->cpu->own;
	int ret = -ENOENT;

	dmaemu__lock(&o->lock);
	if (o->have_last) {
		*out = o->last;
		ret = 0;
	}
	dmaemu__unlock(&o->lock);
	return ret;
}

uint64_t dmaemu__own_repeats(struct dmaemu_machine *m,
			     enum dmaemu_report_kind kind)
{
	struct dmaemu__owncheck *o = m->cpu->own;
	uint64_t n;

	if ((unsigned int)kind >= DMAEMU_REPORT_NKINDS)
		return 0;
	dmaemu__lock(&o->lock);
	n = o->repeats[kind];
	dmaemu__unlock(&o->lock);
	return n;
}

void dmaemu__own_sync_call(const struct dmaemu__owner_info *o, bool for_cpu,
			   char *buf, size_t len)
{
	const char *to = for_cpu ? "cpu" : "device";

	if (o->sg)
		snprintf(buf, len, "dma_sync_sg_for_%s(dev, sgl, %d, %s)", to,
			 o->nents, o->dir_name);
	else
		snprintf(buf, len,
			 "dma_sync_single_for_%s(dev, 0x%llx, %zu, %s)", to,
			 (unsigned long long)o->dma, o->size, o->dir_name);
}

void dmaemu__own_range_text(const struct dmaemu__own_last *l, char *buf,
			    size_t len)
{
	if (l->hi - l->lo == 1)
		snprintf(buf, len, "1 byte, phys 0x%llx, 1 line",
			 (unsigned long long)l->lo);
	else
		snprintf(buf, len, "%zu bytes, phys 0x%llx-0x%llx, %u line%s",
			 l->bytes, (unsigned long long)l->lo,
			 (unsigned long long)(l->hi - 1), l->lines,
			 l->lines == 1 ? "" : "s");
}

/* ---------------------------------------------------------------------- */
/* CPU accesses                                                           */
/* ---------------------------------------------------------------------- */

void dmaemu__own_note(struct dmaemu__own_acc *acc, struct dmaemu_machine *m,
		      uint64_t phys, size_t len, bool store)
{
	if (acc->n && acc->m != m)
		dmaemu__own_flush(acc);
	if (acc->n && acc->run[acc->n - 1].hi == phys) {
		acc->run[acc->n - 1].hi += len;
		return;
	}
	if (acc->n == DMAEMU__OWN_RUNS)
		dmaemu__own_flush(acc);
	if (!acc->n) {
		acc->m = m;
		acc->store = store;
	}
	acc->run[acc->n].lo = phys;
	acc->run[acc->n].hi = phys + len;
	acc->n++;
}

/* What the CPU must call, for the report's "fix:". */
static void cpu_fix(const struct dmaemu__owner_info *o, bool store, char *buf,
		    size_t len)
{
	char to_cpu[128], to_dev[128];

	dmaemu__own_sync_call(o, true, to_cpu, sizeof(to_cpu));
	dmaemu__own_sync_call(o, false, to_dev, sizeof(to_dev));
	if (!store)
		snprintf(buf, len, "%s before this access", to_cpu);
	else if (o->dir == 1 /* DMA_TO_DEVICE: the CPU only fills it */)
		snprintf(buf, len,
			 "write the buffer before it is mapped, or call %s "
			 "after writing",
			 to_dev);
	else
		snprintf(buf, len, "%s before writing and %s after writing",
			 to_cpu, to_dev);
}

/* ---------------------------------------------------------------------- */
/* Stores beside a mapping, into a line it shares                         */
/* ---------------------------------------------------------------------- */

/*
 * The live mapping that the device may write (not DMA_TO_DEVICE) holding
 * the lowest bytes of line @lp, into @o.  A bounced one counts: the
 * device writes the bounce slot, so the bounce hides the loss on this
 * machine, but the layout is the driver's bug wherever the buffer is not
 * bounced (no swiotlb=force, a buffer within the device's mask, a kernel
 * without 6.12's bounce of small kmalloc() buffers).
 */
static bool line_writer(struct dmaemu_machine *m, uint64_t lp,
			struct dmaemu__owner_info *o)
{
	uint64_t p = lp, end = lp + m->line;

	while (p < end && dmaemu__owner_find(m, p, end, o)) {
		if (o->dir != 1 /* DMA_TO_DEVICE */)
			return true;
		if (o->hi <= p)
			break;
		p = o->hi;
	}
	return false;
}

/*
 * Keep of [@a, @b) (stored bytes of line @lp) what lies in the allocation
 * of @o's bytes there, on x86 only: there kmalloc() packs small objects
 * into one line (no ARCH_DMA_MINALIGN), and arm's alignment would part
 * two objects, never the fields of one.  Memory that is no kmalloc object
 * (pages) is one allocation a page.
 */
static void same_object(struct dmaemu_machine *m, uint64_t lp,
			const struct dmaemu__owner_info *o, uint64_t *a,
			uint64_t *b)
{
	uint64_t lo, hi, mb = o->lo > lp ? o->lo : lp;

	if (m->opt.profile != DMAEMU__PROFILE_X86 ||
	    !dmaemu__owner_object(m, mb, &lo, &hi))
		return;
	if (*a < lo)
		*a = lo;
	if (*b > hi)
		*b = hi;
	if (*a > *b)
		*a = *b;
}

/*
 * A store of the access @acc touched device-owned lines and no mapped
 * byte: the bytes stored lie beside a mapping, in a line it covers in
 * part.  When the mapping is one the device writes, the CPU now holds
 * the line dirty while the device owns it, and a write-back of the line
 * (an eviction, at any moment on arm and arm64; the edge clean of the
 * unmap) puts the CPU's copy of the mapping's bytes over the device's:
 * report it here, whatever the device did so far.
 */
static void shared_store(struct dmaemu__own_acc *acc)
{
	struct dmaemu_machine *m = acc->m;
	struct dmaemu__owner_info first, o;
	struct dmaemu__report_info r;
	struct dmaemu__own_last last;
	uint64_t mask[DMAEMU__MASK_WORDS] = {0};
	uint64_t lp0 = 0, seen = UINT64_MAX, line = m->line;
	unsigned int i, k, c0 = 0, c1 = 0, m0, m1;
	bool have = false, writer = false, x86;
	char where[256], fix[320];
	const void *site;

	memset(&last, 0, sizeof(last));
	for (i = 0; i < acc->n; i++) {
		uint64_t p = acc->run[i].lo, end = acc->run[i].hi;

		while (p < end) {
			uint64_t lp = p & ~(line - 1);
			uint64_t a = p, b = lp + line < end ? lp + line : end;

			p = b;
			if (lp != seen) {
				seen = lp;
				writer = line_writer(m, lp, &o);
			}
			if (!writer)
				continue;
			same_object(m, lp, &o, &a, &b);
			if (a >= b)
				continue;
			if (!have) {
				have = true;
				first = o;
				lp0 = lp;
				last.lo = a;
			}
			if (lp == lp0)
				for (k = (unsigned int)(a - lp);
				     k < (unsigned int)(b - lp); k++)
					mask[k / 64] |= 1ULL << (k % 64);
			if (!last.bytes || lp != ((last.hi - 1) & ~(line - 1)))
				last.lines++;
			last.hi = b;
			last.bytes += b - a;
		}
	}
	x86 = m->opt.profile == DMAEMU__PROFILE_X86;
	if (!have || (x86 && !m->opt.portability_notes))
		return;
	last.kind = DMAEMU_REPORT_SHARED_LINE_STORE;
	last.dma = first.dma;
	site = dmaemu__access_site();
	last.repeat = !dmaemu__report_first(m, last.kind, site, first.device,
					    first.dma);
	dmaemu__own_set_last(m, &last);
	if (last.repeat)
		return;

	/* The two sides' bytes of the first line. */
	for (k = 0; k < line; k++)
		if ((mask[k / 64] >> (k % 64)) & 1) {
			if (!c1)
				c0 = k;
			c1 = k + 1;
		}
	m0 = (unsigned int)((first.lo > lp0 ? first.lo : lp0) - lp0);
	m1 = (unsigned int)((first.hi < lp0 + line ? first.hi : lp0 + line) -
			    lp0);
	dmaemu__shared_line_fix(m, fix, sizeof(fix));
	memset(&r, 0, sizeof(r));
	r.kind = last.kind;
	r.phys = last.lo;
	r.size = last.bytes;
	r.mask = mask;
	r.mask_bits = line;
	r.note = x86;
	if (site && !dmaemu__call_current()) {
		dmaemu__code_where(site, where, sizeof(where));
		r.where = where;
	}
	dmaemu__owner_report_fields(&first, &r);
	dmaemu__report(m, &r,
		       "write of %zu byte%s at %p shares cache line 0x%llx "
		       "with %s's live %s mapping (dma 0x%llx, %zu bytes), "
		       "owned by the device: %sa write-back of the dirty "
		       "line, at any moment, puts the CPU's copy of the "
		       "mapping's bytes over the device's\n"
		       "    fix: %s\n"
		       "    bytes %u-%u the CPU's, %u-%u the mapping's; made "
		       "by %s (%s backend)",
		       acc->len, acc->len == 1 ? "" : "s", (void *)acc->host,
		       (unsigned long long)lp0, first.device, first.dir_name,
		       (unsigned long long)first.dma, first.size,
		       x86 ? "correct on x86 (snooped); on arm and arm64 "
		       : first.kmalloc_bounced
			       ? "hidden here, Linux 6.12 bouncing the map "
				 "through swiotlb (dma_kmalloc_needs_"
				 "bounce()); without the bounce (arm, other "
				 "kernels) "
		       : first.bounced
			       ? "hidden here, the map bouncing through "
				 "swiotlb (the device writes the bounce "
				 "slot); without the bounce (no swiotlb=force, "
				 "a buffer within the device's DMA mask) "
			       : "",
		       fix, c0, c1 - 1, m0, m1 - 1,
		       dmaemu__owner_made_at(&first), first.backend);
}

/* The fix of a shared-line-store report on @m. */
void dmaemu__shared_line_fix(const struct dmaemu_machine *m, char *buf,
			     size_t len)
{
	if (m->opt.profile == DMAEMU__PROFILE_X86)
		snprintf(buf, len,
			 "____cacheline_aligned on the buffer, or its own "
			 "allocation (arm aligns kmalloc() to "
			 "ARCH_DMA_MINALIGN)");
	else if (m->opt.kmalloc_minalign < m->opt.dma_minalign)
		snprintf(buf, len,
			 "____cacheline_aligned on the buffer, or its own "
			 "allocation (kmalloc() aligns to %u here, "
			 "ARCH_KMALLOC_MINALIGN: Linux 6.12 bounces a small "
			 "buffer's streaming maps through swiotlb, "
			 "dma_kmalloc_needs_bounce(), which hides the bug)",
			 m->opt.kmalloc_minalign);
	else
		snprintf(buf, len,
			 "____cacheline_aligned on the buffer, or its own "
			 "allocation (kmalloc() aligns to ARCH_DMA_MINALIGN: "
			 "%u here%s)",
			 m->opt.dma_minalign,
			 m->opt.dma_minalign < m->line ? ", less than a line"
						       : "");
}

void dmaemu__own_flush(struct dmaemu__own_acc *acc)
{
	struct dmaemu_machine *m = acc->m;
	struct dmaemu__owner_info first, o;
	struct dmaemu__report_info r;
	struct dmaemu__own_last last;
	uint64_t last_line = UINT64_MAX;
	unsigned int i, n = acc->n, others = 0;
	char fix[400], where[256], more[64] = "", range[128], owned[32];
	char lastdev[128] = "";
	const void *site;
	bool have = false;

	acc->n = 0;
	if (!n)
		return;
	memset(&last, 0, sizeof(last));
	/* Keep the mapped bytes only: a line shared with CPU data is
	 * device-owned, its other bytes are not. */
	for (i = 0; i < n; i++) {
		uint64_t p = acc->run[i].lo, end = acc->run[i].hi;

		while (p < end && dmaemu__owner_find(m, p, end, &o)) {
			uint64_t a = o.lo > p ? o.lo : p;
			uint64_t b = o.hi < end ? o.hi : end;
			uint64_t l0 = a >> m->line_shift;
			uint64_t l1 = (b - 1) >> m->line_shift;

			if (a >= b)
				break;
			if (!have) {
				first = o;
				have = true;
				last.lo = a;
			} else if (o.dma != first.dma ||
				   strcmp(o.device, first.device)) {
				others++;
			}
			last.hi = b;
			last.bytes += b - a;
			if (l0 == last_line)
				l0++;
			if (l1 >= l0)
				last.lines += (unsigned int)(l1 - l0 + 1);
			last_line = l1;
			p = b;
		}
	}
	/*
	 * A stale read made its stale-cpu-read report, which says the
	 * buffer was not given back.  Linux 4.14's arm and arm64 invalidate
	 * a DMA_FROM_DEVICE buffer at the map and sync_for_device, so there
	 * a stale line of one came back into the cache by an access while
	 * the device owned it, reported then (or by a prefetch).  arm64
	 * since Linux 5.19 (map_policy=5.19, kernel=6.12) cleans instead and
	 * keeps the line: the first read of the device's data is already
	 * stale, and the driver's own mistake, reading a buffer the device
	 * owns, is said too when no access to that mapping was reported
	 * yet, as 4.14 and x86 say it.
	 */
	if (acc->stale && (!have || acc->store || !m->opt.map_clean ||
			   first.dir != 2 /* DMA_FROM_DEVICE */ ||
			   report_seen(m, DMAEMU_REPORT_CPU_ACCESS_DEVICE_OWNED,
				       first.device, first.dma)))
		return;
	if (!have) {
		/* Only bytes beside a mapping: a store there shares the
		 * line.  A store of mapped bytes is reported as one access
		 * to a device-owned buffer, its neighbours included. */
		acc->n = n;
		if (acc->store)
			shared_store(acc);
		acc->n = 0;
		return;
	}
	last.kind = DMAEMU_REPORT_CPU_ACCESS_DEVICE_OWNED;
	last.dma = first.dma;
	site = dmaemu__access_site();
	last.repeat = !dmaemu__report_first(m, last.kind, site, first.device,
					    first.dma);
	dmaemu__own_set_last(m, &last);
	if (last.repeat)
		return;

	cpu_fix(&first, acc->store, fix, sizeof(fix));
	if (last.bytes == acc->len)
		snprintf(owned, sizeof(owned), "%s",
			 acc->len == 1 ? "it" : "them");
	else
		snprintf(owned, sizeof(owned), "%zu of them", last.bytes);
	if (others)
		snprintf(more, sizeof(more), " and %u other mapping%s", others,
			 others == 1 ? "" : "s");
	memset(&r, 0, sizeof(r));
	r.kind = last.kind;
	r.phys = last.lo;
	r.size = last.bytes;
	/* Inside a hook or an API call the report path names the driver's
	 * line (and the stack above it) by itself. */
	if (site && !dmaemu__call_current()) {
		dmaemu__code_where(site, where, sizeof(where));
		r.where = where;
	}
	dmaemu__own_range_text(&last, range, sizeof(range));
	dmaemu__owner_report_fields(&first, &r);
	if (first.last_valid)
		snprintf(lastdev, sizeof(lastdev),
			 "\n    the device's last access to the mapping: %s "
			 "of %zu bytes at dma 0x%llx",
			 first.last_write ? "write" : "read", first.last_len,
			 (unsigned long long)first.last_dma);
	dmaemu__report(m, &r,
		       "%s of %zu byte%s at %p: device %s owns %s (%s %s "
		       "mapping: dma 0x%llx, %zu bytes%s); fix: %s\n"
		       "    %s%s; %s backend; mapping made by %s%s%s",
		       acc->store ? "write" : "read", acc->len,
		       acc->len == 1 ? "" : "s", (void *)acc->host,
		       first.device, owned, first.dir_name,
		       first.sg ? "scatterlist" : "streaming",
		       (unsigned long long)first.dma, first.size,
		       first.sg ? " in this entry" : "", fix, range, more,
		       first.backend, dmaemu__owner_made_at(&first), lastdev,
		       acc->stale ? "\n    the CPU's cache held a copy of "
				    "the line older than the device's "
				    "write: this read got stale data "
				    "(stale-cpu-read)"
				  : "");
}
