// SPDX-License-Identifier: MIT
/*
 * lineops.c - line operations on the three copies (MEM, CPU, TWIN), range
 * maintenance, and the device side's access to MEM.
 *
 * How it works.  Per byte of a line:
 *
 *   CPU != TWIN   CPU-dirty: written by the CPU, not yet written back
 *   MEM != TWIN   device-changed: written to memory since the CPU's copy
 *                 was taken
 *
 * and the operations (DESIGN.md 2.1):
 *
 *   fill        CPU = TWIN = MEM                  (cleans first if dirty)
 *   clean       if any byte is CPU-dirty: MEM = TWIN = CPU, the whole line;
 *               device-changed bytes the CPU did not write are lost
 *               (lost-device-write)
 *   invalidate  CPU = TWIN = MEM; CPU-dirty bytes outside the range being
 *               maintained are lost (lost-cpu-write)
 *
 * Masks are computed a 64-bit word at a time: the XOR of two words has a
 * nonzero byte exactly where the copies differ, and nz_bytes() folds each
 * byte to one bit.  A clean line costs one memcmp of CPU against TWIN.
 *
 * Locking.  The data of a line is protected by its stripe lock.  Stripes
 * are chosen by page, (phys >> PAGE_SHIFT) % DMAEMU_NSTRIPES, so every line
 * of a page shares one stripe: range operations lock once per page, and a
 * device copy of a page takes one lock.  Range operations hold the cache
 * lock for their whole length (the model's residency and the data change
 * together as seen by CPU threads); devices take only stripe locks.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "dmaemu-private.h"

#define ONES 0x0101010101010101ULL
#define HIGHS 0x8080808080808080ULL

static inline uint64_t load64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* Bit i set when byte i (in memory order) of @x is nonzero. */
static inline unsigned int nz_bytes(uint64_t x)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	x |= x >> 4;
	x |= x >> 2;
	x |= x >> 1;
	x &= ONES;
	/* Gather bit 8i into bit 56 + i. */
	return (unsigned int)((x * 0x0102040810204080ULL) >> 56);
#else
	unsigned int i, r = 0;

	for (i = 0; i < 8; i++)
		if ((x >> (56 - 8 * i)) & 0xff)
			r |= 1U << i;
	return r;
#endif
}

/* Does @x have a zero byte?  (Exact; the classic haszero trick.) */
static inline bool has_zero_byte(uint64_t x)
{
	return ((x - ONES) & ~x & HIGHS) != 0;
}

static inline void mask_set(uint64_t *mask, unsigned int word,
			    unsigned int bits)
{
	mask[word / 8] |= (uint64_t)bits << ((word % 8) * 8);
}

/* @mask = bits [lo, hi) of a line mask. */
static void mask_range(uint64_t *mask, uint64_t lo, uint64_t hi)
{
	unsigned int i;

	for (i = 0; i < DMAEMU_MASK_WORDS; i++) {
		uint64_t wlo = i * 64ULL, whi = wlo + 64, a, b;

		a = lo > wlo ? lo : wlo;
		b = hi < whi ? hi : whi;
		if (a >= b)
			mask[i] = 0;
		else if (b - a == 64)
			mask[i] = ~0ULL;
		else
			mask[i] = ((1ULL << (b - a)) - 1) << (a - wlo);
	}
}

static unsigned int mask_count(const uint64_t *mask)
{
	unsigned int i, n = 0;

	for (i = 0; i < DMAEMU_MASK_WORDS; i++)
		n += (unsigned int)__builtin_popcountll(mask[i]);
	return n;
}

/* First and last set bits of a nonempty mask. */
static void mask_span(const uint64_t *mask, unsigned int *first,
		      unsigned int *last)
{
	int i;

	for (i = 0; i < DMAEMU_MASK_WORDS; i++) {
		if (mask[i]) {
			*first = (unsigned int)(i * 64 +
						__builtin_ctzll(mask[i]));
			break;
		}
	}
	for (i = DMAEMU_MASK_WORDS - 1; i >= 0; i--) {
		if (mask[i]) {
			*last = (unsigned int)(i * 64 + 63 -
					       __builtin_clzll(mask[i]));
			break;
		}
	}
}

pthread_mutex_t *dmaemu__stripe_of(struct dmaemu_machine *m, uint64_t phys)
{
	return &m->stripe[(phys >> DMAEMU_PAGE_SHIFT) % DMAEMU_NSTRIPES];
}

/* The three copies of the line at @lp; @lp must be in a bank. */
struct copies {
	uint8_t *mem, *cpu, *twin;
};

static void get_copies(struct dmaemu_machine *m, uint64_t lp, struct copies *c)
{
	struct dmaemu_bank *b = dmaemu__bank_of_phys(m, lp, m->line);
	uint64_t off;

	if (!b)
		abort(); /* callers check the range first */
	off = lp - b->phys;
	c->mem = b->mem + off;
	c->cpu = b->cpu + off;
	c->twin = b->twin + off;
}

static void report_lost(struct dmaemu_machine *m, enum dmaemu_report_kind kind,
			uint64_t lp, const uint64_t *mask, const char *what)
{
	struct dmaemu_report_info r;
	unsigned int first = 0, last = 0, n = mask_count(mask);

	mask_span(mask, &first, &last);
	memset(&r, 0, sizeof(r));
	r.kind = kind;
	r.phys = lp + first;
	r.size = last - first + 1;
	r.mask = mask;
	r.mask_bits = m->line;
	if (kind == DMAEMU_REPORT_LOST_DEVICE_WRITE)
		dmaemu__report(m, &r,
			       "%s of line 0x%llx overwrote %u byte%s written "
			       "by the device",
			       what, (unsigned long long)lp, n,
			       n == 1 ? "" : "s");
	else
		dmaemu__report(m, &r,
			       "%s of line 0x%llx discarded %u byte%s written "
			       "by the CPU outside the maintained range",
			       what, (unsigned long long)lp, n,
			       n == 1 ? "" : "s");
}

/*
 * Write back a line with CPU-dirty bytes (the caller knows it has some).
 * A word whose bytes are all CPU-dirty cannot hide a lost device write, so
 * MEM is only read for the words that have a clean byte.
 */
static void write_back(struct dmaemu_machine *m, uint64_t lp,
		       const struct copies *c, const char *what)
{
	uint64_t lost[DMAEMU_MASK_WORDS] = {0};
	unsigned int w, nwords = m->line / 8;
	bool any = false;

	for (w = 0; w < nwords; w++) {
		uint64_t t = load64(c->twin + 8 * w);
		uint64_t dc = load64(c->cpu + 8 * w) ^ t, dm;
		unsigned int bits;

		if (!has_zero_byte(dc))
			continue;
		dm = load64(c->mem + 8 * w) ^ t;
		if (!dm)
			continue;
		bits = nz_bytes(dm) & ~nz_bytes(dc) & 0xff;
		if (bits) {
			mask_set(lost, w, bits);
			any = true;
		}
	}
	memcpy(c->mem, c->cpu, m->line);
	memcpy(c->twin, c->cpu, m->line);
	if (any)
		report_lost(m, DMAEMU_REPORT_LOST_DEVICE_WRITE, lp, lost, what);
}

static bool line_is_dirty(const struct dmaemu_machine *m,
			  const struct copies *c)
{
	return memcmp(c->cpu, c->twin, m->line) != 0;
}

/* CPU = TWIN = MEM, skipping the writes when already equal (which also
 * keeps never-written memory from costing host pages). */
static void reload(struct dmaemu_machine *m, const struct copies *c)
{
	if (!memcmp(c->twin, c->mem, m->line) &&
	    !memcmp(c->cpu, c->mem, m->line))
		return;
	memcpy(c->cpu, c->mem, m->line);
	memcpy(c->twin, c->mem, m->line);
}

/**
 * dmaemu__line_fill() - the CPU takes a fresh copy of a line.
 * @m:         machine.
 * @line_phys: line-aligned physical address inside a bank.
 *
 * Caller holds the line's stripe lock.  A line with CPU-dirty bytes (left
 * by uninstrumented writes) is cleaned first, as the cache would have
 * written it back when evicting it.
 */
void dmaemu__line_fill(struct dmaemu_machine *m, uint64_t line_phys)
{
	struct copies c;

	get_copies(m, line_phys, &c);
	if (line_is_dirty(m, &c))
		write_back(m, line_phys, &c, "write-back before a fill");
	reload(m, &c);
}

/**
 * dmaemu__line_clean() - write a line back if it has CPU-dirty bytes.
 * @m:         machine.
 * @line_phys: line-aligned physical address inside a bank.
 *
 * Caller holds the line's stripe lock.  Reports lost-device-write with
 * the byte mask of device-changed bytes the CPU did not write.
 */
void dmaemu__line_clean(struct dmaemu_machine *m, uint64_t line_phys)
{
	struct copies c;

	get_copies(m, line_phys, &c);
	if (line_is_dirty(m, &c))
		write_back(m, line_phys, &c, "clean");
}

/**
 * dmaemu__line_invalidate() - drop the CPU's copy of a line.
 * @m:         machine.
 * @line_phys: line-aligned physical address inside a bank.
 * @keep_lo:   first physical byte being maintained.
 * @keep_hi:   end (exclusive) of the bytes being maintained.
 *
 * Caller holds the line's stripe lock.  CPU-dirty bytes are discarded;
 * those outside [@keep_lo, @keep_hi) are reported as lost-cpu-write.
 */
void dmaemu__line_invalidate(struct dmaemu_machine *m, uint64_t line_phys,
			     uint64_t keep_lo, uint64_t keep_hi)
{
	struct copies c;

	get_copies(m, line_phys, &c);
	if (line_is_dirty(m, &c)) {
		uint64_t lost[DMAEMU_MASK_WORDS] = {0};
		uint64_t keep[DMAEMU_MASK_WORDS];
		uint64_t lo = keep_lo > line_phys ? keep_lo - line_phys : 0;
		uint64_t hi = keep_hi > line_phys ? keep_hi - line_phys : 0;
		unsigned int w, nwords = m->line / 8;
		bool any = false;

		if (hi > m->line)
			hi = m->line;
		mask_range(keep, lo < hi ? lo : hi, hi);
		for (w = 0; w < nwords; w++) {
			uint64_t d =
				load64(c.cpu + 8 * w) ^ load64(c.twin + 8 * w);
			unsigned int bits;

			if (!d)
				continue;
			bits = nz_bytes(d) &
			       ~(unsigned int)(keep[w / 8] >> ((w % 8) * 8));
			bits &= 0xff;
			if (bits) {
				mask_set(lost, w, bits);
				any = true;
			}
		}
		if (any)
			report_lost(m, DMAEMU_REPORT_LOST_CPU_WRITE, line_phys,
				    lost, "invalidate");
	}
	reload(m, &c);
}

void dmaemu__line_clean_invalidate(struct dmaemu_machine *m, uint64_t line_phys)
{
	struct copies c;

	get_copies(m, line_phys, &c);
	if (line_is_dirty(m, &c))
		write_back(m, line_phys, &c, "clean+invalidate");
	reload(m, &c);
}

/**
 * dmaemu__line_masks() - the CPU-dirty and device-changed masks of a line.
 * @m:           machine.
 * @line_phys:   line-aligned physical address inside a bank.
 * @cpu_dirty:   DMAEMU_MASK_WORDS words, or NULL.
 * @dev_changed: DMAEMU_MASK_WORDS words, or NULL.
 *
 * Caller holds the line's stripe lock.
 */
void dmaemu__line_masks(struct dmaemu_machine *m, uint64_t line_phys,
			uint64_t *cpu_dirty, uint64_t *dev_changed)
{
	struct copies c;
	unsigned int w, nwords = m->line / 8;

	get_copies(m, line_phys, &c);
	if (cpu_dirty)
		memset(cpu_dirty, 0, DMAEMU_MASK_WORDS * sizeof(uint64_t));
	if (dev_changed)
		memset(dev_changed, 0, DMAEMU_MASK_WORDS * sizeof(uint64_t));
	for (w = 0; w < nwords; w++) {
		uint64_t t = load64(c.twin + 8 * w);

		if (cpu_dirty)
			mask_set(cpu_dirty, w,
				 nz_bytes(load64(c.cpu + 8 * w) ^ t));
		if (dev_changed)
			mask_set(dev_changed, w,
				 nz_bytes(load64(c.mem + 8 * w) ^ t));
	}
}

/* ---------------------------------------------------------------------- */
/* Range maintenance                                                      */
/* ---------------------------------------------------------------------- */

enum range_op {
	RANGE_CLEAN,
	RANGE_INVALIDATE,
	RANGE_CLEAN_INVALIDATE,
};

static const char *const range_op_names[] = {
	[RANGE_CLEAN] = "clean",
	[RANGE_INVALIDATE] = "invalidate",
	[RANGE_CLEAN_INVALIDATE] = "clean+invalidate",
};

/*
 * 1. Under the cache lock, update the cache model (residency and dirty
 *    bits) for the whole lines covering the range; the eviction hook does
 *    not act meanwhile (in_maint), the data work is done here.
 * 2. Per page, under that page's stripe lock, apply the data operation to
 *    every line, including lines the model does not hold (uninstrumented
 *    writes leave lines dirty without the model knowing).
 */
static void range_op(struct dmaemu_machine *m, uint64_t phys, uint64_t len,
		     enum range_op op)
{
	uint64_t lmask = (uint64_t)m->line - 1;
	uint64_t first, end, p;

	if (!len)
		return;
	first = phys & ~lmask;
	if (phys + len < phys || phys + len + lmask < phys + len ||
	    !dmaemu__bank_of_phys(m, first,
				  ((phys + len + lmask) & ~lmask) - first)) {
		struct dmaemu_report_info r = {
			.kind = DMAEMU_REPORT_BAD_ARGUMENT,
			.phys = phys,
			.size = len,
		};

		dmaemu__report(m, &r, "%s of 0x%llx+%llu: not emulated memory",
			       range_op_names[op], (unsigned long long)phys,
			       (unsigned long long)len);
		return;
	}
	end = (phys + len + lmask) & ~lmask;

	dmaemu__lock(&m->cache_lock);
	m->in_maint = true;
	switch (op) {
	case RANGE_CLEAN:
		cachesim_clean(m->cache, first, end - first);
		break;
	case RANGE_INVALIDATE:
		cachesim_invalidate(m->cache, first, end - first);
		break;
	case RANGE_CLEAN_INVALIDATE:
		cachesim_clean_invalidate(m->cache, first, end - first);
		break;
	}
	m->in_maint = false;

	for (p = first; p < end;) {
		uint64_t page_end = (p | (DMAEMU_PAGE_SIZE - 1)) + 1, lp;
		pthread_mutex_t *stripe = dmaemu__stripe_of(m, p);

		if (page_end > end)
			page_end = end;
		dmaemu__lock(stripe);
		for (lp = p; lp < page_end; lp += m->line) {
			switch (op) {
			case RANGE_CLEAN:
				dmaemu__line_clean(m, lp);
				break;
			case RANGE_INVALIDATE:
				dmaemu__line_invalidate(m, lp, phys,
							phys + len);
				break;
			case RANGE_CLEAN_INVALIDATE:
				dmaemu__line_clean_invalidate(m, lp);
				break;
			}
		}
		dmaemu__unlock(stripe);
		p = page_end;
	}
	dmaemu__unlock(&m->cache_lock);
}

/**
 * dmaemu__range_clean() - write back the lines covering a range.
 * @m:    machine.
 * @phys: first byte.
 * @len:  bytes (0 does nothing).
 *
 * Takes the cache lock and the stripe locks.  Whole lines are written, so
 * bytes outside the range in the edge lines are written too (and can be
 * lost device writes).  A range outside the banks is a bad-argument report.
 */
void dmaemu__range_clean(struct dmaemu_machine *m, uint64_t phys, uint64_t len)
{
	range_op(m, phys, len, RANGE_CLEAN);
}

/**
 * dmaemu__range_invalidate() - discard the CPU's copies of a range.
 * @m:    machine.
 * @phys: first byte.
 * @len:  bytes (0 does nothing).
 *
 * The maintained range is [@phys, @phys + @len): CPU-dirty bytes outside
 * it, in the edge lines, are reported as lost-cpu-write.
 */
void dmaemu__range_invalidate(struct dmaemu_machine *m, uint64_t phys,
			      uint64_t len)
{
	range_op(m, phys, len, RANGE_INVALIDATE);
}

/** dmaemu__range_clean_invalidate() - write back, then discard, a range. */
void dmaemu__range_clean_invalidate(struct dmaemu_machine *m, uint64_t phys,
				    uint64_t len)
{
	range_op(m, phys, len, RANGE_CLEAN_INVALIDATE);
}

/**
 * dmaemu__evict_hook() - cachesim's eviction hook: a dirty line leaving the
 * last level is written back to MEM.
 *
 * Runs with the cache lock held (cachesim is only called under it), and
 * takes the line's stripe lock: cache lock then stripe, as the order says.
 */
void dmaemu__evict_hook(void *ctx, unsigned int level, uint64_t addr,
			bool dirty, bool last)
{
	struct dmaemu_machine *m = ctx;
	pthread_mutex_t *stripe;

	if (!dirty || !last || m->in_maint)
		return;
	if (!dmaemu__bank_of_phys(m, addr, m->line))
		return;
	stripe = dmaemu__stripe_of(m, addr);
	dmaemu__lock(stripe);
	dmaemu__line_clean(m, addr);
	dmaemu__unlock(stripe);
}

/* ---------------------------------------------------------------------- */
/* Device side                                                            */
/* ---------------------------------------------------------------------- */

/* Copy between MEM and @buf a page at a time, each under its stripe. */
static int mem_copy(struct dmaemu_machine *m, uint64_t phys, uint8_t *buf,
		    size_t len, bool to_mem)
{
	struct dmaemu_bank *b;

	if (!len)
		return 0;
	b = dmaemu__bank_of_phys(m, phys, len);
	if (!b)
		return -EFAULT;
	while (len) {
		size_t chunk =
			DMAEMU_PAGE_SIZE - (phys & (DMAEMU_PAGE_SIZE - 1));
		pthread_mutex_t *stripe = dmaemu__stripe_of(m, phys);
		uint8_t *mem = b->mem + (phys - b->phys);

		if (chunk > len)
			chunk = len;
		dmaemu__lock(stripe);
		if (to_mem)
			memcpy(mem, buf, chunk);
		else
			memcpy(buf, mem, chunk);
		dmaemu__unlock(stripe);
		phys += chunk;
		buf += chunk;
		len -= chunk;
	}
	return 0;
}

/**
 * dmaemu__mem_write() - a device writes DRAM.
 * @m:    machine.
 * @phys: first byte.
 * @buf:  data.
 * @len:  bytes.
 *
 * Only MEM changes: the bytes become device-changed for the CPU's copy.
 * Takes only stripe locks (never the cache lock).
 *
 * Return: 0, or -EFAULT when the range is not inside one bank.
 */
int dmaemu__mem_write(struct dmaemu_machine *m, uint64_t phys, const void *buf,
		      size_t len)
{
	return mem_copy(m, phys, (uint8_t *)(uintptr_t)buf, len, true);
}

/**
 * dmaemu__mem_read() - a device reads DRAM (MEM, never the CPU's copy).
 * Same arguments and return as dmaemu__mem_write().
 */
int dmaemu__mem_read(struct dmaemu_machine *m, uint64_t phys, void *buf,
		     size_t len)
{
	return mem_copy(m, phys, buf, len, false);
}
