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
 * and the operations (docs/model.md):
 *
 *   fill        CPU = TWIN = MEM                  (cleans first if dirty)
 *   clean       if the cache model holds the line dirty (a store through
 *               the model dirties its line, whatever it wrote) or any byte
 *               is CPU-dirty (stores the model never saw): MEM = TWIN =
 *               CPU, the whole line; device-changed bytes the CPU did not
 *               write are lost (lost-device-write)
 *   invalidate  CPU = TWIN = MEM; CPU-dirty bytes outside the range being
 *               maintained are lost (lost-cpu-write)
 *
 * Masks.  A line's "equal" masks (bit i set when byte i of two copies is
 * the same) are built 16 bytes at a time: one SIMD compare and a movemask
 * where the host has SSE2, 64-bit word tricks elsewhere.  A line is held
 * in DMAEMU__MASK_WORDS 64-bit mask words.  CPU-dirty = ~eq(CPU, TWIN);
 * device-changed = ~eq(MEM, TWIN).  MEM is only compared when the CPU's
 * compare leaves a byte that is not dirty (a fully dirty line cannot hide
 * a lost device write), so writing back a fully dirty line reads CPU and
 * TWIN once and writes MEM and TWIN once.  The per-line code is inlined
 * for 64-byte lines (the default) so that it compiles to straight-line
 * vector code; other line sizes take the same code with a loop.  A clean
 * of 64-byte lines is one fused pass: each line's CPU copy is loaded into
 * registers once, compared with TWIN, and a fully dirty line is stored to
 * MEM and TWIN from those registers (with 32-byte AVX2 vectors when the
 * host has them, checked at run time); only mixed lines build masks.
 * Tests force each of the three ways with dmaemu__clean_path (mem.h).
 *
 * Device reads.  A device's read of a span copies MEM out and, in the same
 * pass, compares the CPU copy with TWIN (dmaemu__mem_read_clean()): a
 * CPU-dirty byte there is a stale device read, which the device layer
 * then finds byte by byte.  The copy and the compare read different
 * copies: one pass over the three streams costs less than the two passes
 * one after the other.
 *
 * Memcheck.  Under it, the CPU copy's stale bytes are undefined (base.h,
 * docs/valgrind.md): the span operations below open their span (defined
 * for the compares and copies) and close it (undefined again where still
 * stale) in the _vg variants, which only run under Memcheck; device writes
 * mark what they made stale (dmaemu__mem_vg_written()).
 *
 * Locking.  The data of a line is protected by its stripe lock.  Stripes
 * are chosen by page, (phys >> PAGE_SHIFT) % DMAEMU__NSTRIPES, so every line
 * of a page shares one stripe: range operations lock once per page, and a
 * device copy of a page takes one lock.  Range operations hold the cache
 * lock while they read or change the model; their data pass holds it too
 * when it asks the model (a clean of a range the model holds dirty lines
 * of), and runs under the stripes alone otherwise (range_op()).  Devices
 * take only stripe locks.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
/* 32-byte vectors where the host has them, chosen at run time. */
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define HAVE_AVX2_PATH 1
#else
#define HAVE_AVX2_PATH 0
#endif

#include "mem/mem.h"

/* From 1: a thread's fast path holds 0 until it has entries (cpu.h). */
uint64_t dmaemu__mem_gen __attribute__((aligned(64))) = 1;
uint64_t dmaemu__mem_dgen __attribute__((aligned(64)));

void dmaemu__mem_changed(void)
{
	__atomic_fetch_add(&dmaemu__mem_dgen, 1, __ATOMIC_RELEASE);
	__atomic_fetch_add(&dmaemu__mem_gen, 1, __ATOMIC_RELEASE);
}

void dmaemu__mem_residency_changed(void)
{
	__atomic_fetch_add(&dmaemu__mem_gen, 1, __ATOMIC_RELEASE);
}

#define ONES 0x0101010101010101ULL
#define ALWAYS_INLINE inline __attribute__((always_inline))

#ifndef __SSE2__
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
#endif

/* Bit i set when byte i of @a equals byte i of @b, for 16 bytes. */
static ALWAYS_INLINE unsigned int eq16(const uint8_t *a, const uint8_t *b)
{
#ifdef __SSE2__
	__m128i va = _mm_loadu_si128((const __m128i *)(const void *)a);
	__m128i vb = _mm_loadu_si128((const __m128i *)(const void *)b);

	return (unsigned int)_mm_movemask_epi8(_mm_cmpeq_epi8(va, vb));
#else
	unsigned int lo = nz_bytes(load64(a) ^ load64(b));
	unsigned int hi = nz_bytes(load64(a + 8) ^ load64(b + 8));

	return ~(lo | hi << 8) & 0xffff;
#endif
}

/*
 * The equal mask of @line bytes at @a and @b into @eq (DMAEMU__MASK_WORDS
 * words; bits past the line are set, so "~eq" never shows them).
 */
static ALWAYS_INLINE void eq_line(const uint8_t *a, const uint8_t *b,
				  unsigned int line, uint64_t *eq)
{
	unsigned int k;

	for (k = 0; k < DMAEMU__MASK_WORDS; k++)
		eq[k] = k * 64 < line ? 0 : ~0ULL;
	if (line < 64)
		eq[0] = ~0ULL << line;
	for (k = 0; k < line / 16; k++)
		eq[k / 4] |= (uint64_t)eq16(a + 16 * k, b + 16 * k)
			     << (16 * (k % 4));
}

enum line_state {
	LINE_EQUAL,  /* every byte equal */
	LINE_DIFFER, /* every byte differs */
	LINE_MIXED,
};

/*
 * Compare @line bytes at @a and @b as a whole: the common cases (a clean
 * line, a fully written line) are decided without building a mask.
 */
static ALWAYS_INLINE enum line_state compare_line(const uint8_t *a,
						  const uint8_t *b,
						  unsigned int line)
{
#ifdef __SSE2__
	__m128i any = _mm_setzero_si128(), all = _mm_set1_epi8(-1);
	unsigned int k;

	for (k = 0; k < line / 16; k++) {
		__m128i e = _mm_cmpeq_epi8(
			_mm_loadu_si128(
				(const __m128i *)(const void *)(a + 16 * k)),
			_mm_loadu_si128(
				(const __m128i *)(const void *)(b + 16 * k)));

		any = _mm_or_si128(any, e);
		all = _mm_and_si128(all, e);
	}
	if (_mm_movemask_epi8(all) == 0xffff)
		return LINE_EQUAL;
	if (_mm_movemask_epi8(any) == 0)
		return LINE_DIFFER;
	return LINE_MIXED;
#else
	uint64_t eq[DMAEMU__MASK_WORDS], all = ~0ULL, any = 0;
	unsigned int k;

	eq_line(a, b, line, eq);
	for (k = 0; k * 64 < line; k++) {
		uint64_t valid = line - k * 64 >= 64
					 ? ~0ULL
					 : (1ULL << (line - k * 64)) - 1;

		all &= eq[k] | ~valid;
		any |= eq[k] & valid;
	}
	if (all == ~0ULL)
		return LINE_EQUAL;
	if (!any)
		return LINE_DIFFER;
	return LINE_MIXED;
#endif
}

/* @mask = bits [lo, hi) of a line mask. */
static void mask_range(uint64_t *mask, uint64_t lo, uint64_t hi)
{
	unsigned int i;

	for (i = 0; i < DMAEMU__MASK_WORDS; i++) {
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

	for (i = 0; i < DMAEMU__MASK_WORDS; i++)
		n += (unsigned int)__builtin_popcountll(mask[i]);
	return n;
}

/* First and last set bits of a nonempty mask. */
static void mask_span(const uint64_t *mask, unsigned int *first,
		      unsigned int *last)
{
	int i;

	for (i = 0; i < DMAEMU__MASK_WORDS; i++) {
		if (mask[i]) {
			*first = (unsigned int)(i * 64 +
						__builtin_ctzll(mask[i]));
			break;
		}
	}
	for (i = DMAEMU__MASK_WORDS - 1; i >= 0; i--) {
		if (mask[i]) {
			*last = (unsigned int)(i * 64 + 63 -
					       __builtin_clzll(mask[i]));
			break;
		}
	}
}

pthread_mutex_t *dmaemu__stripe_of(struct dmaemu_machine *m, uint64_t phys)
{
	return &m->stripe[(phys >> DMAEMU__PAGE_SHIFT) % DMAEMU__NSTRIPES];
}

/*
 * The three copies of a span of whole lines inside one bank, starting at
 * physical address @phys.
 */
/*
 * The copies of [@phys, ...) for a span operation.  A clean also writes
 * back a line whose bytes all equal TWIN when the cache model holds it
 * dirty (a store of the value a byte already held dirties the line on
 * hardware too): @model_dirty says so for a single line the model is
 * evicting, @model is the model to ask for each such line of a range, and
 * @mbits its answer for every line of the span at once when @mbits_ok
 * (bit i: line i; read from the model's map of a tracked bank,
 * cachesim_dirty_bits(), under the cache lock).
 */
struct copies {
	uint64_t phys;
	uint8_t *mem, *cpu, *twin;
	const struct cachesim *model;
	uint64_t mbits;
	bool model_dirty, mbits_ok;
};

/* The copies from @phys on, in bank @b. */
static void bank_copies(const struct dmaemu__bank *b, uint64_t phys,
			struct copies *c)
{
	uint64_t off = phys - b->phys;

	c->phys = phys;
	c->mem = b->mem + off;
	c->cpu = b->cpu + off;
	c->twin = b->twin + off;
	c->model = NULL;
	c->model_dirty = false;
	c->mbits_ok = false;
}

static void get_copies(struct dmaemu_machine *m, uint64_t phys, uint64_t len,
		       struct copies *c)
{
	struct dmaemu__bank *b = dmaemu__bank_of_phys(m, phys, len);

	if (!b)
		abort(); /* callers check the range first */
	bank_copies(b, phys, c);
}

/* ---------------------------------------------------------------------- */
/* Store sites                                                            */
/* ---------------------------------------------------------------------- */

int dmaemu__store_sites_init(struct dmaemu_machine *m)
{
	m->store_site =
		dmaemu__calloc(DMAEMU__STORE_SITES, sizeof(*m->store_site));
	if (!m->store_site)
		return -ENOMEM;
	dmaemu__vg_atomic(m->store_site,
			  DMAEMU__STORE_SITES * sizeof(*m->store_site));
	return 0;
}

void dmaemu__store_sites_fini(struct dmaemu_machine *m)
{
	dmaemu__free(m->store_site);
	m->store_site = NULL;
}

static struct dmaemu__store_site *site_slot(struct dmaemu_machine *m,
					    uint64_t lp)
{
	return &m->store_site[(lp >> m->line_shift) % DMAEMU__STORE_SITES];
}

void dmaemu__store_site_note(struct dmaemu_machine *m, uint64_t lp,
			     const void *site)
{
	struct dmaemu__store_site *s = site_slot(m, lp);

	__atomic_store_n(&s->line, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&s->site, site, __ATOMIC_RELAXED);
	__atomic_store_n(&s->line, lp + 1, __ATOMIC_RELEASE);
}

const void *dmaemu__store_site_of(struct dmaemu_machine *m, uint64_t lp)
{
	struct dmaemu__store_site *s = site_slot(m, lp);
	const void *site;

	if (__atomic_load_n(&s->line, __ATOMIC_ACQUIRE) != lp + 1)
		return NULL;
	site = __atomic_load_n(&s->site, __ATOMIC_RELAXED);
	/* A note of another line in between: the site may be its. */
	if (__atomic_load_n(&s->line, __ATOMIC_ACQUIRE) != lp + 1)
		return NULL;
	return site;
}

/*
 * The report of the bytes @mask of line @lp that a clean or an invalidate
 * loses; @c at offset @off holds the line's copies, still as they were
 * before the operation: the report shows the values of both sides.
 */
static void report_lost(struct dmaemu_machine *m, enum dmaemu_report_kind kind,
			const struct copies *c, uint64_t off,
			const uint64_t *mask, const char *what)
{
	struct dmaemu__report_info r;
	unsigned int first = 0, last = 0, n = mask_count(mask);
	uint64_t lp = c->phys + off;
	const void *site = dmaemu__store_site_of(m, lp);
	char stored[300] = "";

	mask_span(mask, &first, &last);
	memset(&r, 0, sizeof(r));
	r.kind = kind;
	r.phys = lp + first;
	r.size = last - first + 1;
	r.mask = mask;
	r.mask_bits = m->line;
	r.nval = m->line - first < DMAEMU__REPORT_VALS ? m->line - first
						       : DMAEMU__REPORT_VALS;
	memcpy(r.val[0], c->cpu + off + first, r.nval);
	memcpy(r.val[1], c->mem + off + first, r.nval);
	if (kind == DMAEMU_REPORT_LOST_DEVICE_WRITE) {
		r.val_name[0] = "the CPU wrote back";
		r.val_name[1] = "the device had written";
	} else {
		r.val_name[0] = "the CPU had written";
		r.val_name[1] = "memory holds";
	}
	if (site) {
		char w[256];

		dmaemu__code_where(site, w, sizeof(w));
		snprintf(stored, sizeof(stored),
			 "\n    the CPU's last store to the line: at %s", w);
	}
	if (kind == DMAEMU_REPORT_LOST_DEVICE_WRITE)
		dmaemu__report(m, &r,
			       "%s of line 0x%llx overwrote %u byte%s written "
			       "by the device%s",
			       what, (unsigned long long)lp, n,
			       n == 1 ? "" : "s", stored);
	else
		dmaemu__report(m, &r,
			       "%s of line 0x%llx discarded %u byte%s written "
			       "by the CPU outside the maintained range%s",
			       what, (unsigned long long)lp, n,
			       n == 1 ? "" : "s", stored);
}

/*
 * Lost device bytes of a dirty line: device-changed and not CPU-dirty,
 * i.e. ~eq(MEM, TWIN) & eq(CPU, TWIN).  Called only when the line has a
 * byte that is not CPU-dirty (@eqc has a bit set).
 */
static void check_lost_device(struct dmaemu_machine *m, const struct copies *c,
			      uint64_t off, const uint64_t *eqc,
			      const char *what)
{
	uint64_t eqm[DMAEMU__MASK_WORDS], lost[DMAEMU__MASK_WORDS];
	unsigned int k;
	bool any = false;

	eq_line(c->mem + off, c->twin + off, m->line, eqm);
	for (k = 0; k < DMAEMU__MASK_WORDS; k++) {
		lost[k] = ~eqm[k] & eqc[k];
		any |= lost[k] != 0;
	}
	if (any)
		report_lost(m, DMAEMU_REPORT_LOST_DEVICE_WRITE, c, off, lost,
			    what);
}

/* Dirty bytes (~@eqc) outside [keep_lo, keep_hi) are lost CPU writes. */
static void check_lost_cpu(struct dmaemu_machine *m, const struct copies *c,
			   uint64_t off, const uint64_t *eqc, uint64_t keep_lo,
			   uint64_t keep_hi)
{
	uint64_t lost[DMAEMU__MASK_WORDS], keep[DMAEMU__MASK_WORDS];
	uint64_t lp = c->phys + off;
	uint64_t lo = keep_lo > lp ? keep_lo - lp : 0;
	uint64_t hi = keep_hi > lp ? keep_hi - lp : 0;
	unsigned int k;
	bool any = false;

	if (hi > m->line)
		hi = m->line;
	if (lo > hi)
		lo = hi;
	if (lo == 0 && hi == m->line)
		return; /* the whole line is being maintained */
	mask_range(keep, lo, hi);
	for (k = 0; k < DMAEMU__MASK_WORDS; k++) {
		lost[k] = ~eqc[k] & ~keep[k];
		any |= lost[k] != 0;
	}
	if (any)
		report_lost(m, DMAEMU_REPORT_LOST_CPU_WRITE, c, off, lost,
			    "invalidate");
}

/*
 * Span operations: @len bytes (whole lines) of @c, under the one stripe
 * lock the caller holds.  Written once with @line as a parameter and
 * instantiated for 64-byte lines, where every loop above unrolls.
 */

/*
 * A line with both CPU-dirty bytes and bytes that are not: device-changed
 * bytes among the latter are lost when it is written back.  Kept out of
 * line: the loops below only call it for such lines.
 */
static __attribute__((noinline)) void clean_mixed(struct dmaemu_machine *m,
						  const struct copies *c,
						  uint64_t off,
						  const char *what)
{
	uint64_t eqc[DMAEMU__MASK_WORDS];

	eq_line(c->cpu + off, c->twin + off, m->line, eqc);
	check_lost_device(m, c, off, eqc, what);
	memcpy(c->mem + off, c->cpu + off, m->line);
	memcpy(c->twin + off, c->cpu + off, m->line);
}

/*
 * May a line whose CPU copy equals TWIN be written back (clean_equal())?
 * Not when the model is not asked, nor when its map says the line is
 * clean.  @shift: log2 of the line size.
 */
static ALWAYS_INLINE bool equal_asks(const struct copies *c, uint64_t off,
				     unsigned int shift)
{
	if (c->model_dirty)
		return true;
	if (!c->model)
		return false;
	return !c->mbits_ok || ((c->mbits >> (off >> shift)) & 1);
}

/*
 * A line whose CPU copy equals TWIN: written back all the same when the
 * model holds it dirty.  Its device-changed bytes are then lost (none of
 * its bytes is CPU-dirty).  When MEM equals TWIN too, the write-back
 * would write every byte with the value it holds and there is nothing
 * to report: one compare instead of the masks and two copies (the
 * common case of a buffer the CPU filled again with the data it held).
 */
static __attribute__((noinline)) void clean_equal(struct dmaemu_machine *m,
						  const struct copies *c,
						  uint64_t off,
						  const char *what)
{
	bool dirty = c->model_dirty;

	if (!dirty)
		dirty = c->mbits_ok
				? (c->mbits >> (off >> m->line_shift)) & 1
				: cachesim_dirty(c->model, 0, c->phys + off);
	if (dirty &&
	    compare_line(c->mem + off, c->twin + off, m->line) != LINE_EQUAL)
		clean_mixed(m, c, off, what);
}

/* Write back the dirty lines: MEM = TWIN = CPU for each. */
static ALWAYS_INLINE void span_clean_n(struct dmaemu_machine *m,
				       const struct copies *c, uint64_t len,
				       const char *what, unsigned int line)
{
	uint64_t off;

	for (off = 0; off < len; off += line) {
		enum line_state st =
			compare_line(c->cpu + off, c->twin + off, line);

		if (st == LINE_EQUAL) {
			if (equal_asks(c, off,
				       (unsigned int)__builtin_ctz(line)))
				clean_equal(m, c, off, what);
			continue;
		}
		if (st == LINE_MIXED) {
			clean_mixed(m, c, off, what);
			continue;
		}
		memcpy(c->mem + off, c->cpu + off, line);
		memcpy(c->twin + off, c->cpu + off, line);
	}
}

#ifdef __SSE2__
/*
 * span_clean_n() for 64-byte lines in one pass: the CPU copy of a line is
 * loaded once, compared with TWIN, and a fully dirty line (the common case
 * of a buffer the CPU has just written) is stored to MEM and TWIN from the
 * same registers.  Clean lines are skipped, mixed ones go to clean_mixed().
 */
static void span_clean_64(struct dmaemu_machine *m, const struct copies *c,
			  uint64_t len, const char *what)
{
	const uint8_t *cpu = c->cpu;
	uint8_t *mem = c->mem, *twin = c->twin;
	uint64_t off;

	for (off = 0; off < len; off += 64) {
		const __m128i *pc = (const __m128i *)(const void *)(cpu + off);
		__m128i *pt = (__m128i *)(void *)(twin + off);
		__m128i *pm = (__m128i *)(void *)(mem + off);
		__m128i c0 = _mm_loadu_si128(pc), c1 = _mm_loadu_si128(pc + 1);
		__m128i c2 = _mm_loadu_si128(pc + 2),
			c3 = _mm_loadu_si128(pc + 3);
		__m128i e0 = _mm_cmpeq_epi8(c0, _mm_loadu_si128(pt));
		__m128i e1 = _mm_cmpeq_epi8(c1, _mm_loadu_si128(pt + 1));
		__m128i e2 = _mm_cmpeq_epi8(c2, _mm_loadu_si128(pt + 2));
		__m128i e3 = _mm_cmpeq_epi8(c3, _mm_loadu_si128(pt + 3));
		__m128i any = _mm_or_si128(_mm_or_si128(e0, e1),
					   _mm_or_si128(e2, e3));
		__m128i all = _mm_and_si128(_mm_and_si128(e0, e1),
					    _mm_and_si128(e2, e3));

		if (_mm_movemask_epi8(any) == 0) {
			_mm_storeu_si128(pm, c0);
			_mm_storeu_si128(pm + 1, c1);
			_mm_storeu_si128(pm + 2, c2);
			_mm_storeu_si128(pm + 3, c3);
			_mm_storeu_si128(pt, c0);
			_mm_storeu_si128(pt + 1, c1);
			_mm_storeu_si128(pt + 2, c2);
			_mm_storeu_si128(pt + 3, c3);
		} else if (_mm_movemask_epi8(all) != 0xffff) {
			clean_mixed(m, c, off, what);
		} else if (!equal_asks(c, off, 6)) {
			continue;
		} else if (!c->model_dirty && !c->mbits_ok) {
			clean_equal(m, c, off, what);
		} else {
			/* Dirty in the model: clean_equal(), inline. */
			__m128i q = _mm_and_si128(
				_mm_and_si128(
					_mm_cmpeq_epi8(c0, _mm_loadu_si128(pm)),
					_mm_cmpeq_epi8(
						c1, _mm_loadu_si128(pm + 1))),
				_mm_and_si128(
					_mm_cmpeq_epi8(c2,
						       _mm_loadu_si128(pm + 2)),
					_mm_cmpeq_epi8(
						c3, _mm_loadu_si128(pm + 3))));

			if (_mm_movemask_epi8(q) != 0xffff)
				clean_mixed(m, c, off, what);
		}
	}
}
#else
static void span_clean_64(struct dmaemu_machine *m, const struct copies *c,
			  uint64_t len, const char *what)
{
	span_clean_n(m, c, len, what, 64);
}
#endif

#if HAVE_AVX2_PATH
/*
 * span_clean_64() with 32-byte vectors, for hosts that have AVX2 (chosen
 * at run time: the library is built for the baseline ISA).  Two loads, two
 * compares and four stores a line: about the cost of copying it twice.
 */
static __attribute__((target("avx2"))) void span_clean_64_avx2(
	struct dmaemu_machine *m, const struct copies *c, uint64_t len,
	const char *what)
{
	const uint8_t *cpu = c->cpu;
	uint8_t *mem = c->mem, *twin = c->twin;
	uint64_t off;

	for (off = 0; off < len; off += 64) {
		const __m256i *pc = (const __m256i *)(const void *)(cpu + off);
		__m256i *pt = (__m256i *)(void *)(twin + off);
		__m256i *pm = (__m256i *)(void *)(mem + off);
		__m256i c0 = _mm256_loadu_si256(pc);
		__m256i c1 = _mm256_loadu_si256(pc + 1);
		__m256i e0 = _mm256_cmpeq_epi8(c0, _mm256_loadu_si256(pt));
		__m256i e1 = _mm256_cmpeq_epi8(c1, _mm256_loadu_si256(pt + 1));
		__m256i any = _mm256_or_si256(e0, e1);

		if (_mm256_testz_si256(any, any)) {
			_mm256_storeu_si256(pm, c0);
			_mm256_storeu_si256(pm + 1, c1);
			_mm256_storeu_si256(pt, c0);
			_mm256_storeu_si256(pt + 1, c1);
		} else if (_mm256_movemask_epi8(_mm256_and_si256(e0, e1)) !=
			   -1) {
			clean_mixed(m, c, off, what);
		} else if (!equal_asks(c, off, 6)) {
			continue;
		} else if (!c->model_dirty && !c->mbits_ok) {
			clean_equal(m, c, off, what);
		} else {
			/* Dirty in the model: clean_equal(), inline. */
			__m256i q = _mm256_and_si256(
				_mm256_cmpeq_epi8(c0, _mm256_loadu_si256((
							      const void *)pm)),
				_mm256_cmpeq_epi8(
					c1, _mm256_loadu_si256(
						    (const void *)(pm + 1))));

			if (_mm256_movemask_epi8(q) != -1)
				clean_mixed(m, c, off, what);
		}
	}
}
#endif

#if HAVE_AVX2_PATH
/*
 * span_clean_64() with 64-byte vectors, for hosts that have AVX-512BW
 * (chosen at run time): a line is one load of each copy, one compare into
 * a 64-bit mask and two stores, half the stores of the AVX2 path, which is
 * what bounds a fully dirty clean.
 */
static __attribute__((target("avx512f,avx512bw"))) void span_clean_64_avx512(
	struct dmaemu_machine *m, const struct copies *c, uint64_t len,
	const char *what)
{
	const uint8_t *cpu = c->cpu;
	uint8_t *mem = c->mem, *twin = c->twin;
	uint64_t off;

	for (off = 0; off < len; off += 64) {
		__m512i v = _mm512_loadu_si512((const void *)(cpu + off));
		__mmask64 eq = _mm512_cmpeq_epi8_mask(
			v, _mm512_loadu_si512((const void *)(twin + off)));

		if (!eq) {
			_mm512_storeu_si512((void *)(mem + off), v);
			_mm512_storeu_si512((void *)(twin + off), v);
		} else if (eq != ~(__mmask64)0) {
			clean_mixed(m, c, off, what);
		} else if (!equal_asks(c, off, 6)) {
			continue;
		} else if (!c->model_dirty && !c->mbits_ok) {
			clean_equal(m, c, off, what);
		} else if (_mm512_cmpeq_epi8_mask(
				   v, _mm512_loadu_si512(
					      (const void *)(mem + off))) !=
			   ~(__mmask64)0) {
			/* Dirty in the model, MEM differs: clean_equal(). */
			clean_mixed(m, c, off, what);
		}
	}
}
#endif

/*
 * CPU = TWIN = MEM for every line.  Lines already equal are not written,
 * which keeps never-touched memory from costing host pages.  Dirty lines
 * (if @check) are reported when they have bytes outside the keep range.
 */
static ALWAYS_INLINE void span_reload_n(struct dmaemu_machine *m,
					const struct copies *c, uint64_t len,
					bool check, uint64_t keep_lo,
					uint64_t keep_hi, unsigned int line)
{
	uint64_t eqc[DMAEMU__MASK_WORDS], off;

	for (off = 0; off < len; off += line) {
		if (compare_line(c->cpu + off, c->twin + off, line) !=
		    LINE_EQUAL) {
			if (check) {
				eq_line(c->cpu + off, c->twin + off, line, eqc);
				check_lost_cpu(m, c, off, eqc, keep_lo,
					       keep_hi);
			}
		} else if (compare_line(c->mem + off, c->twin + off, line) ==
			   LINE_EQUAL) {
			continue;
		}
		memcpy(c->cpu + off, c->mem + off, line);
		memcpy(c->twin + off, c->mem + off, line);
	}
}

/* The lost-cpu-write check of a reloaded line with CPU-dirty bytes. */
static __attribute__((noinline)) void reload_check(struct dmaemu_machine *m,
						   const struct copies *c,
						   uint64_t off,
						   uint64_t keep_lo,
						   uint64_t keep_hi)
{
	uint64_t eqc[DMAEMU__MASK_WORDS];

	eq_line(c->cpu + off, c->twin + off, m->line, eqc);
	check_lost_cpu(m, c, off, eqc, keep_lo, keep_hi);
}

#if HAVE_AVX2_PATH
/*
 * span_reload_n() for 64-byte lines with 32-byte vectors (hosts with AVX2,
 * chosen at run time), in one pass: each line's three copies are loaded
 * once and compared, and a line that is not clean and unchanged gets MEM
 * stored into CPU and TWIN from the registers.
 */
static __attribute__((target("avx2"))) void span_reload_64_avx2(
	struct dmaemu_machine *m, const struct copies *c, uint64_t len,
	bool check, uint64_t keep_lo, uint64_t keep_hi)
{
	uint64_t off;

	for (off = 0; off < len; off += 64) {
		__m256i *pc = (__m256i *)(void *)(c->cpu + off);
		__m256i *pt = (__m256i *)(void *)(c->twin + off);
		const __m256i *pm =
			(const __m256i *)(const void *)(c->mem + off);
		__m256i t0 = _mm256_loadu_si256(pt);
		__m256i t1 = _mm256_loadu_si256(pt + 1);
		__m256i m0 = _mm256_loadu_si256(pm);
		__m256i m1 = _mm256_loadu_si256(pm + 1);
		__m256i ec = _mm256_and_si256(
			_mm256_cmpeq_epi8(_mm256_loadu_si256(pc), t0),
			_mm256_cmpeq_epi8(_mm256_loadu_si256(pc + 1), t1));
		__m256i em = _mm256_and_si256(_mm256_cmpeq_epi8(m0, t0),
					      _mm256_cmpeq_epi8(m1, t1));
		bool clean = _mm256_movemask_epi8(ec) == -1;

		if (clean && _mm256_movemask_epi8(em) == -1)
			continue;
		if (!clean && check)
			reload_check(m, c, off, keep_lo, keep_hi);
		_mm256_storeu_si256(pc, m0);
		_mm256_storeu_si256(pc + 1, m1);
		_mm256_storeu_si256(pt, m0);
		_mm256_storeu_si256(pt + 1, m1);
	}
}
#endif

enum dmaemu__clean_path dmaemu__clean_path = DMAEMU__CLEAN_AUTO;

#if HAVE_AVX2_PATH
/* The AVX2 paths may run: chosen or automatic, and the host has AVX2. */
static bool avx2_path(void)
{
	return (dmaemu__clean_path == DMAEMU__CLEAN_AUTO ||
		dmaemu__clean_path == DMAEMU__CLEAN_AVX2) &&
	       __builtin_cpu_supports("avx2");
}
#endif

static void span_clean_plain(struct dmaemu_machine *m, const struct copies *c,
			     uint64_t len, const char *what)
{
	if (m->line != 64 || dmaemu__clean_path == DMAEMU__CLEAN_GENERIC)
		span_clean_n(m, c, len, what, m->line);
#if HAVE_AVX2_PATH
	else if (dmaemu__clean_path == DMAEMU__CLEAN_AUTO &&
		 __builtin_cpu_supports("avx512bw"))
		span_clean_64_avx512(m, c, len, what);
	else if (avx2_path())
		span_clean_64_avx2(m, c, len, what);
#endif
	else
		span_clean_64(m, c, len, what);
}

static void span_reload_plain(struct dmaemu_machine *m, const struct copies *c,
			      uint64_t len, bool check, uint64_t keep_lo,
			      uint64_t keep_hi)
{
#if HAVE_AVX2_PATH
	if (m->line == 64 && avx2_path()) {
		span_reload_64_avx2(m, c, len, check, keep_lo, keep_hi);
		return;
	}
#endif
	if (m->line == 64 && dmaemu__clean_path != DMAEMU__CLEAN_GENERIC)
		span_reload_n(m, c, len, check, keep_lo, keep_hi, 64);
	else
		span_reload_n(m, c, len, check, keep_lo, keep_hi, m->line);
}

/*
 * Under Memcheck the span's stale bytes are undefined (base.h): the
 * operation works on a defined span, and the stale bytes it left stale
 * are undefined again afterwards.  Out of line, so that the span's saved
 * V bits cost the usual path nothing.
 */
static __attribute__((noinline)) void span_clean_vg(struct dmaemu_machine *m,
						    const struct copies *c,
						    uint64_t len,
						    const char *what)
{
	struct dmaemu__vg_cpu vg;

	dmaemu__vg_cpu_open(&vg, c->cpu, c->mem, c->twin, len);
	span_clean_plain(m, c, len, what);
	dmaemu__vg_cpu_close(&vg, false);
}

static __attribute__((noinline)) void span_reload_vg(struct dmaemu_machine *m,
						     const struct copies *c,
						     uint64_t len, bool check,
						     uint64_t keep_lo,
						     uint64_t keep_hi)
{
	struct dmaemu__vg_cpu vg;

	dmaemu__vg_cpu_open(&vg, c->cpu, c->mem, c->twin, len);
	span_reload_plain(m, c, len, check, keep_lo, keep_hi);
	dmaemu__vg_cpu_close(&vg, false);
}

/* Write back the dirty lines of a span (at most a page). */
static void span_clean(struct dmaemu_machine *m, const struct copies *c,
		       uint64_t len, const char *what)
{
	if (__builtin_expect(dmaemu__on_memcheck, 0))
		span_clean_vg(m, c, len, what);
	else
		span_clean_plain(m, c, len, what);
}

/* Refresh the CPU copy of a span (at most a page) from MEM. */
static void span_reload(struct dmaemu_machine *m, const struct copies *c,
			uint64_t len, bool check, uint64_t keep_lo,
			uint64_t keep_hi)
{
	if (__builtin_expect(dmaemu__on_memcheck, 0))
		span_reload_vg(m, c, len, check, keep_lo, keep_hi);
	else
		span_reload_plain(m, c, len, check, keep_lo, keep_hi);
}

_Static_assert(DMAEMU__PAGE_SIZE <= DMAEMU__VG_SPAN &&
		       DMAEMU__MAX_LINE <= DMAEMU__VG_SPAN,
	       "a span operation covers at most a page or a line");

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

	get_copies(m, line_phys, m->line, &c);
	span_clean(m, &c, m->line, "write-back before a fill");
	span_reload(m, &c, m->line, false, 0, 0);
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

	get_copies(m, line_phys, m->line, &c);
	span_clean(m, &c, m->line, "clean");
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

	get_copies(m, line_phys, m->line, &c);
	span_reload(m, &c, m->line, true, keep_lo, keep_hi);
}

/**
 * dmaemu__line_clean_invalidate() - write back if dirty, then invalidate.
 * Caller holds the stripe lock; never reports lost-cpu-write.
 */
void dmaemu__line_clean_invalidate(struct dmaemu_machine *m, uint64_t line_phys)
{
	struct copies c;

	get_copies(m, line_phys, m->line, &c);
	span_clean(m, &c, m->line, "clean+invalidate");
	span_reload(m, &c, m->line, false, 0, 0);
}

/* The CPU-dirty mask of a line under Memcheck: compared defined. */
static __attribute__((noinline)) void cpu_dirty_vg(struct dmaemu_machine *m,
						   const struct copies *c,
						   uint64_t *cpu_dirty)
{
	struct dmaemu__vg_cpu vg;
	uint64_t eq[DMAEMU__MASK_WORDS];
	unsigned int k;

	dmaemu__vg_cpu_open(&vg, c->cpu, c->mem, c->twin, m->line);
	eq_line(c->cpu, c->twin, m->line, eq);
	for (k = 0; k < DMAEMU__MASK_WORDS; k++)
		cpu_dirty[k] = ~eq[k];
	dmaemu__vg_cpu_close(&vg, false);
}

/**
 * dmaemu__line_masks() - the CPU-dirty and device-changed masks of a line.
 * @m:           machine.
 * @line_phys:   line-aligned physical address inside a bank.
 * @cpu_dirty:   DMAEMU__MASK_WORDS words, or NULL.
 * @dev_changed: DMAEMU__MASK_WORDS words, or NULL.
 *
 * Caller holds the line's stripe lock.
 */
void dmaemu__line_masks(struct dmaemu_machine *m, uint64_t line_phys,
			uint64_t *cpu_dirty, uint64_t *dev_changed)
{
	uint64_t eq[DMAEMU__MASK_WORDS];
	struct copies c;
	unsigned int k;

	get_copies(m, line_phys, m->line, &c);
	if (__builtin_expect(dmaemu__on_memcheck, 0) && cpu_dirty) {
		cpu_dirty_vg(m, &c, cpu_dirty);
	} else if (cpu_dirty) {
		eq_line(c.cpu, c.twin, m->line, eq);
		for (k = 0; k < DMAEMU__MASK_WORDS; k++)
			cpu_dirty[k] = ~eq[k];
	}
	if (dev_changed) {
		eq_line(c.mem, c.twin, m->line, eq);
		for (k = 0; k < DMAEMU__MASK_WORDS; k++)
			dev_changed[k] = ~eq[k];
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

/* ---------------------------------------------------------------------- */
/* Cache-line trace events (group cache)                                  */
/* ---------------------------------------------------------------------- */

/* Held in some level of the model? Dirty in one?  Cache lock held. */
static void model_state(struct dmaemu_machine *m, uint64_t lp, bool *res,
			bool *dirty)
{
	unsigned int l, n = cachesim_levels(m->cache);

	*res = *dirty = false;
	for (l = 0; l < n; l++) {
		*res |= cachesim_resident(m->cache, l, lp);
		*dirty |= cachesim_dirty(m->cache, l, lp);
	}
}

/*
 * The events of a range operation on lines [@first, @end), before its
 * data work (cache lock held): a cache_writeback per line a clean writes
 * back (the model holds it dirty, or its CPU copy has dirty bytes), then
 * one event for the operation with its counts.  Only when the group is
 * on: out of line, so that the operation pays one test otherwise.
 */
static __attribute__((noinline)) void trace_range(struct dmaemu_machine *m,
						  uint64_t phys, uint64_t len,
						  uint64_t first, uint64_t end,
						  enum range_op op)
{
	static const char *const names[] = {
		[RANGE_CLEAN] = "cache_clean",
		[RANGE_INVALIDATE] = "cache_invalidate",
		[RANGE_CLEAN_INVALIDATE] = "cache_clean_invalidate",
	};
	uint64_t dirty[DMAEMU__MASK_WORDS], changed[DMAEMU__MASK_WORDS];
	uint64_t lp, lines = 0, resident = 0, written = 0, dropped = 0,
		     stale = 0;

	for (lp = first; lp < end; lp += m->line) {
		pthread_mutex_t *stripe = dmaemu__stripe_of(m, lp);
		unsigned int nd, nc;
		bool res, mdirty;

		model_state(m, lp, &res, &mdirty);
		dmaemu__lock(stripe);
		dmaemu__racy_line_begin(dmaemu__phys_cpu(m, lp), m->line);
		dmaemu__line_masks(m, lp, dirty, changed);
		dmaemu__racy_line_end(dmaemu__phys_cpu(m, lp), m->line);
		dmaemu__unlock(stripe);
		nd = mask_count(dirty);
		nc = mask_count(changed);
		lines++;
		resident += res;
		if (op != RANGE_INVALIDATE && (mdirty || nd)) {
			written++;
			dmaemu__trace(m, DMAEMU__TRACE_CACHE, "cache_writeback",
				      "line=0x%" PRIx64
				      " dirty_bytes=%u cause=%s",
				      lp, nd,
				      op == RANGE_CLEAN ? "clean"
							: "clean+invalidate");
		} else if (op == RANGE_INVALIDATE && nd) {
			dropped++;
		}
		stale += nc != 0 && op != RANGE_CLEAN;
	}
	if (op == RANGE_CLEAN)
		dmaemu__trace(m, DMAEMU__TRACE_CACHE, names[op],
			      "phys=0x%" PRIx64 " len=%" PRIu64
			      " lines=%" PRIu64 " resident=%" PRIu64
			      " written=%" PRIu64,
			      phys, len, lines, resident, written);
	else
		dmaemu__trace(
			m, DMAEMU__TRACE_CACHE, names[op],
			"phys=0x%" PRIx64 " len=%" PRIu64 " lines=%" PRIu64
			" resident=%" PRIu64 " written=%" PRIu64
			" dropped=%" PRIu64 " refreshed=%" PRIu64,
			phys, len, lines, resident, written, dropped, stale);
}

/*
 * An eviction the model made (a replacement, not maintenance), and at the
 * last level the write-back it causes; before the data work.  Cache lock
 * held.
 */
static __attribute__((noinline)) void trace_evict(struct dmaemu_machine *m,
						  unsigned int level,
						  uint64_t addr, bool dirty,
						  bool last)
{
	uint64_t cpu_dirty[DMAEMU__MASK_WORDS];
	const char *lname = cachesim_level_config(m->cache, level)->name;
	unsigned int nd = 0;

	dmaemu__trace(m, DMAEMU__TRACE_CACHE, "cache_evict",
		      "line=0x%" PRIx64 " level=%s dirty=%d", addr, lname,
		      dirty);
	if (!last || !dmaemu__bank_of_phys(m, addr, m->line))
		return;
	dmaemu__lock(dmaemu__stripe_of(m, addr));
	dmaemu__racy_line_begin(dmaemu__phys_cpu(m, addr), m->line);
	dmaemu__line_masks(m, addr, cpu_dirty, NULL);
	dmaemu__racy_line_end(dmaemu__phys_cpu(m, addr), m->line);
	dmaemu__unlock(dmaemu__stripe_of(m, addr));
	nd = mask_count(cpu_dirty);
	if (dirty || nd)
		dmaemu__trace(m, DMAEMU__TRACE_CACHE, "cache_writeback",
			      "line=0x%" PRIx64 " dirty_bytes=%u cause=evict",
			      addr, nd);
}

/*
 * 1. Under the cache lock, update the cache model (residency and dirty
 *    bits) for the whole lines covering the range; the eviction hook does
 *    not act meanwhile (in_maint), the data work is done here.
 * 2. Per page, under that page's stripe lock, apply the data operation to
 *    every line, including lines the model does not hold (uninstrumented
 *    writes leave lines dirty without the model knowing).  Reports made
 *    meanwhile take the report lock, below the stripes in the order.
 *
 * Step 2 runs first, and without the cache lock when it needs nothing of
 * the model: an invalidate, or a clean of a range the model holds no
 * dirty line of (nor traces).  Maps of 1 MiB buffers on two threads then
 * move their data in parallel instead of one after the other.  A CPU
 * access to a line in between finds it as either side of the operation
 * left it: its stripe orders the data, the cache lock the model, and the
 * generation bump below comes after both.
 */
static void range_op(struct dmaemu_machine *m, uint64_t phys, uint64_t len,
		     enum range_op op)
{
	uint64_t lmask = (uint64_t)m->line - 1;
	uint64_t first, end, p, resident = 0;
	struct dmaemu__bank *b = NULL;
	struct copies all;
	bool unlocked, model_line;

	if (!len)
		return;
	first = phys & ~lmask;
	end = (phys + len + lmask) & ~lmask;
	if (phys + len >= phys && phys + len + lmask >= phys + len)
		b = dmaemu__bank_of_phys(m, first, end - first);
	if (!b) {
		dmaemu__reportf(m, DMAEMU_REPORT_BAD_ARGUMENT, phys, len,
				"%s of 0x%llx+%llu: not emulated memory",
				range_op_names[op], (unsigned long long)phys,
				(unsigned long long)len);
		return;
	}
	bank_copies(b, first, &all);

	dmaemu__lock(&m->cache_lock);
	if (__builtin_expect(dmaemu__tracing(m, DMAEMU__TRACE_CACHE), 0))
		trace_range(m, phys, len, first, end, op);
	/*
	 * The data first, while the model still says which lines it holds
	 * dirty: a clean writes those back even where no byte differs.
	 */
	all.model = op == RANGE_INVALIDATE ? NULL : m->cache;
	/*
	 * A range larger than the cache is asked about once (one walk of the
	 * cache's slots answers for all its lines, and the data pass may then
	 * run without the cache lock).  A shorter one asks only about its
	 * lines whose bytes did not change (clean_equal()): a question for
	 * each of its lines would cost about as much as its data pass.
	 */
	if (all.model && end - first > m->opt.cache_size &&
	    !cachesim_dirty_any(m->cache, 0, first, end - first))
		all.model = NULL;
	model_line = all.model &&
		     cachesim_level_config(m->cache, 0)->line == m->line;
	unlocked =
		!all.model &&
		!__builtin_expect(dmaemu__tracing(m, DMAEMU__TRACE_CACHE), 0);
	if (unlocked)
		dmaemu__unlock(&m->cache_lock);
	for (p = first; p < end;) {
		uint64_t page_end = (p | (DMAEMU__PAGE_SIZE - 1)) + 1;
		pthread_mutex_t *stripe = dmaemu__stripe_of(m, p);
		struct copies c = all;

		if (page_end > end)
			page_end = end;
		c.phys = p;
		c.mem += p - first;
		c.cpu += p - first;
		c.twin += p - first;
		/* The model's dirty lines of the page in one word. */
		if (c.model && model_line)
			c.mbits_ok = cachesim_dirty_bits(
				m->cache, 0, p,
				(unsigned int)((page_end - p) >> m->line_shift),
				&c.mbits);
		dmaemu__lock(stripe);
		switch (op) {
		case RANGE_CLEAN:
			span_clean(m, &c, page_end - p, "clean");
			break;
		case RANGE_INVALIDATE:
			span_reload(m, &c, page_end - p, true, phys,
				    phys + len);
			break;
		case RANGE_CLEAN_INVALIDATE:
			span_clean(m, &c, page_end - p, "clean+invalidate");
			span_reload(m, &c, page_end - p, false, 0, 0);
			break;
		}
		dmaemu__unlock(stripe);
		p = page_end;
	}
	if (unlocked)
		dmaemu__lock(&m->cache_lock);
	m->in_maint = true;
	switch (op) {
	case RANGE_CLEAN:
		resident = cachesim_clean(m->cache, first, end - first);
		break;
	case RANGE_INVALIDATE:
		resident = cachesim_invalidate(m->cache, first, end - first);
		break;
	case RANGE_CLEAN_INVALIDATE:
		resident =
			cachesim_clean_invalidate(m->cache, first, end - first);
		break;
	}
	m->in_maint = false;
	/*
	 * Residency and dirtiness changed: no thread may keep a fast-path
	 * entry for these lines (cpu.c).  A fast-path entry is only ever
	 * made for a line the model holds, and stays valid only while the
	 * line stays resident (the line a miss evicts leaves every
	 * thread's table through the CPU layer's eviction hook), so when the model held no line of the range (a
	 * buffer written by uninstrumented code, the common case of a
	 * driver's map), no entry can name one: neither the model nor any
	 * entry changed, and the bump is skipped.  The data generation
	 * stays in every case: a clean or an invalidate only makes copies
	 * equal (MEM = TWIN = CPU), so it never gives a line a
	 * device-changed byte, and the CPU layer's record of lines verified
	 * to have none stays true.
	 */
	if (resident)
		dmaemu__mem_residency_changed();
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
 * dmaemu__cache_dirty_lines() - the lines each level of the cache model
 * holds dirty, L1 first, into @out (at most @max levels).
 * Return: the number of levels filled.  Takes the cache lock; O(lines).
 */
unsigned int dmaemu__cache_dirty_lines(struct dmaemu_machine *m, uint64_t *out,
				       unsigned int max)
{
	unsigned int l, n;

	dmaemu__lock(&m->cache_lock);
	n = cachesim_levels(m->cache);
	if (n > max)
		n = max;
	for (l = 0; l < n; l++)
		out[l] = cachesim_dirty_lines(m->cache, l);
	dmaemu__unlock(&m->cache_lock);
	return n;
}

/**
 * dmaemu__evict_hook() - cachesim's eviction hook: a line leaving the last
 * level is written back to MEM if the model held it dirty (every store
 * dirties its line, as on hardware, even one that wrote the value a byte
 * already held) or its CPU copy differs from TWIN.
 *
 * The model's dirty bit is not the only signal: a store it never saw (gcc
 * checks only the load of a read-modify-write; uninstrumented code) still
 * leaves CPU-dirty bytes, and hardware writes back what the line holds.
 *
 * Runs with the cache lock held (cachesim is only called under it), and
 * takes the line's stripe lock: cache lock then stripe, as the order says.
 */
void dmaemu__evict_hook(void *ctx, unsigned int level, uint64_t addr,
			bool dirty, bool last)
{
	struct dmaemu_machine *m = ctx;
	pthread_mutex_t *stripe;

	struct copies c;

	if (m->in_maint)
		return;
	if (__builtin_expect(dmaemu__tracing(m, DMAEMU__TRACE_CACHE), 0))
		trace_evict(m, level, addr, dirty, last);
	if (!last)
		return;
	if (!dmaemu__bank_of_phys(m, addr, m->line))
		return;
	stripe = dmaemu__stripe_of(m, addr);
	dmaemu__lock(stripe);
	/* Another thread may be storing to this line right now. */
	dmaemu__racy_line_begin(dmaemu__phys_cpu(m, addr), m->line);
	get_copies(m, addr, m->line, &c);
	c.model_dirty = dirty;
	/* Named as such: the access the report points at is whatever
	 * needed the room, a load as often as not, no call that cleans. */
	span_clean(m, &c, m->line,
		   "eviction (a write-back to make room in the cache)");
	dmaemu__racy_line_end(dmaemu__phys_cpu(m, addr), m->line);
	dmaemu__unlock(stripe);
}

/* ---------------------------------------------------------------------- */
/* Device side                                                            */
/* ---------------------------------------------------------------------- */

/* Copy between MEM and @buf a page at a time, each under its stripe. */
static int mem_copy(struct dmaemu_machine *m, uint64_t phys, uint8_t *buf,
		    size_t len, bool to_mem)
{
	struct dmaemu__bank *b;

	if (!len)
		return 0;
	b = dmaemu__bank_of_phys(m, phys, len);
	if (!b)
		return -EFAULT;
	while (len) {
		size_t chunk =
			DMAEMU__PAGE_SIZE - (phys & (DMAEMU__PAGE_SIZE - 1));
		pthread_mutex_t *stripe = dmaemu__stripe_of(m, phys);
		uint8_t *mem = dmaemu__phys_dev_mem(m, phys);

		if (chunk > len)
			chunk = len;
		dmaemu__lock(stripe);
		if (to_mem) {
			memcpy(mem, buf, chunk);
			dmaemu__mem_vg_written(m, phys, chunk);
		} else {
			memcpy(buf, mem, chunk);
		}
		dmaemu__unlock(stripe);
		phys += chunk;
		buf += chunk;
		len -= chunk;
	}
	/* A device write can make any CPU fast-path entry stale (cpu.c). */
	if (to_mem)
		dmaemu__mem_changed();
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

/* The generic read: a copy, then one compare of CPU with TWIN. */
static bool read_clean_plain(uint8_t *buf, const uint8_t *mem,
			     const uint8_t *cpu, const uint8_t *twin,
			     size_t len)
{
	memcpy(buf, mem, len);
	return memcmp(cpu, twin, len) == 0;
}

#if HAVE_AVX2_PATH
/*
 * read_clean_plain() in one pass with 32-byte vectors: each 64 bytes of
 * MEM are loaded and stored to @buf while the CPU copy and TWIN of the
 * same bytes are compared, three streams side by side (the copy and the
 * compare one after the other cost half as much again on a page that is
 * not in the host's caches).  A tail shorter than 64 bytes takes the
 * generic read.
 */
static __attribute__((target("avx2"))) bool read_clean_avx2(uint8_t *buf,
							    const uint8_t *mem,
							    const uint8_t *cpu,
							    const uint8_t *twin,
							    size_t len)
{
	__m256i diff = _mm256_setzero_si256();
	size_t off, body = len & ~(size_t)63;

	for (off = 0; off < body; off += 64) {
		const __m256i *pm = (const __m256i *)(const void *)(mem + off);
		const __m256i *pc = (const __m256i *)(const void *)(cpu + off);
		const __m256i *pt = (const __m256i *)(const void *)(twin + off);
		__m256i *pb = (__m256i *)(void *)(buf + off);
		__m256i m0 = _mm256_loadu_si256(pm);
		__m256i m1 = _mm256_loadu_si256(pm + 1);
		__m256i x0 = _mm256_xor_si256(_mm256_loadu_si256(pc),
					      _mm256_loadu_si256(pt));
		__m256i x1 = _mm256_xor_si256(_mm256_loadu_si256(pc + 1),
					      _mm256_loadu_si256(pt + 1));

		_mm256_storeu_si256(pb, m0);
		_mm256_storeu_si256(pb + 1, m1);
		diff = _mm256_or_si256(diff, _mm256_or_si256(x0, x1));
	}
	/* The tail is read whatever the body held. */
	return read_clean_plain(buf + body, mem + body, cpu + body, twin + body,
				len - body) &&
	       _mm256_testz_si256(diff, diff);
}
#endif

bool dmaemu__mem_read_clean(struct dmaemu_machine *m, uint64_t phys, void *buf,
			    size_t len)
{
	const uint8_t *mem = dmaemu__phys_dev_mem(m, phys);
	const uint8_t *cpu = dmaemu__phys_dev_cpu(m, phys);
	const uint8_t *twin = dmaemu__phys_twin(m, phys);
	bool clean;

	if (__builtin_expect(dmaemu__on_memcheck, 0)) {
		memcpy(buf, mem, len);
		return false;
	}
	/* Another thread may be storing to the CPU copy right now. */
	dmaemu__racy_line_begin(cpu, len);
#if HAVE_AVX2_PATH
	if (avx2_path())
		clean = read_clean_avx2(buf, mem, cpu, twin, len);
	else
#endif
		clean = read_clean_plain(buf, mem, cpu, twin, len);
	dmaemu__racy_line_end(cpu, len);
	return clean;
}

/* ---------------------------------------------------------------------- */
/* Memcheck's view of the CPU copy (base.h)                               */
/* ---------------------------------------------------------------------- */

void dmaemu__mem_vg_mark_written(struct dmaemu_machine *m, uint64_t phys,
				 size_t len)
{
	struct dmaemu__vg_cpu vg;
	struct copies c;

	get_copies(m, phys, len, &c);
	dmaemu__vg_cpu_open(&vg, c.cpu, c.mem, c.twin, len);
	dmaemu__vg_cpu_close(&vg, true);
}

void dmaemu__mem_vg_mark_seen(struct dmaemu_machine *m, uint64_t line_phys,
			      const uint64_t *mask)
{
	uint8_t *cpu = dmaemu__phys_cpu(m, line_phys);
	unsigned int i;

	for (i = 0; i < m->line; i++)
		if ((mask[i / 64] >> (i % 64)) & 1)
			dmaemu__vg_cpu_define(cpu + i, 1);
}
