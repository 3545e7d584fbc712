// SPDX-License-Identifier: MIT
/*
 * ownership.c - which side owns each cache line of DRAM: the CPU domain or
 * the device domain.
 *
 * How it works.  The DMA API hands a buffer back and forth: map and
 * sync_for_device give it to the device, unmap and sync_for_cpu give it
 * back to the CPU (DMA_ATTR_SKIP_CPU_SYNC skips the cache work, never the
 * transfer of ownership).  The state is one byte per line of each bank:
 *
 *   bank:   | line 0 | line 1 | line 2 | ... |      (m->line bytes each)
 *   owner:  |   0    |   1    |   1    | ... |      0 = CPU, 1 = device
 *
 * The map is an anonymous MAP_NORESERVE mapping made the first time a
 * bank's ownership changes, so it costs host memory only where mappings
 * were made (1/64 of the bytes mapped with 64-byte lines).  It is made
 * under m->lock and published with a release store; later users read the
 * pointer with an acquire load and take no lock.  The bytes themselves are
 * written and read with relaxed atomics: each line has one owner at a
 * time, and two mappings that share a line (itself the bug the checker
 * exists to show) leave the last transition of a sync; the holder count
 * keeps a line in the device domain when one of several devices sharing
 * a buffer (DMA_ATTR_SKIP_CPU_SYNC) unmaps it.
 *
 * Besides the domain, each byte counts the live mappings that hold the
 * line and says whether they are all DMA_TO_DEVICE and whether one covers
 * the line only in part (mem.h).  The checkers read it: the CPU layer on
 * the slow path of every access to DRAM (cpu/owncheck.c), the DMA layer on
 * every device access that lands in a mapping (dma/owncheck.c).  For the
 * bytes of a partly covered line and for the words of a report, they ask
 * the DMA layer which mapping holds a byte (dmaemu__owner_find(), through
 * the finder it installs); the prefetcher is told about device-owned
 * ranges by dma/mapping.c.
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include "mem/mem.h"

static size_t map_bytes(const struct dmaemu_machine *m,
			const struct dmaemu__bank *b)
{
	return (size_t)(b->size >> m->line_shift);
}

/* owner_map() the first time: make the map.  Out of line, so that the
 * callers' fast path keeps a small frame. */
static __attribute__((noinline)) uint8_t *owner_map_make(
	struct dmaemu_machine *m, unsigned int i)
{
	uint8_t *map;
	void *p;

	dmaemu__lock(&m->lock);
	map = m->owner[i];
	if (!map) {
		p = dmaemu__mmap(
			NULL, map_bytes(m, &m->bank[i]), PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (p != MAP_FAILED) {
			map = p;
			/* Lock-free readers: the pointer itself, and the
			 * bytes, which only see atomics. */
			dmaemu__vg_atomic(&m->owner[i], sizeof(m->owner[i]));
			dmaemu__vg_atomic(map, map_bytes(m, &m->bank[i]));
			__atomic_store_n(&m->owner[i], map, __ATOMIC_RELEASE);
		}
	}
	dmaemu__unlock(&m->lock);
	return map;
}

/* The owner map of bank @i, made on first use; NULL when out of memory. */
static inline uint8_t *owner_map(struct dmaemu_machine *m, unsigned int i)
{
	uint8_t *map = __atomic_load_n(&m->owner[i], __ATOMIC_ACQUIRE);

	if (__builtin_expect(map != NULL, 1))
		return map;
	return owner_map_make(m, i);
}

/* The map of the bank holding [@phys, +@size) and the line range. */
static inline uint8_t *range_map(struct dmaemu_machine *m, uint64_t phys,
				 size_t size, uint64_t *first, uint64_t *last,
				 int *err)
{
	struct dmaemu__bank *b;
	unsigned int i;
	uint8_t *map;

	/* dmaemu__bank_of_phys(), keeping the bank's index. */
	for (i = 0; i < m->nbanks; i++) {
		b = &m->bank[i];
		if (phys >= b->phys && phys - b->phys < b->size &&
		    size <= b->size - (phys - b->phys))
			break;
	}
	if (i == m->nbanks) {
		*err = -EINVAL;
		return NULL;
	}
	map = owner_map(m, i);
	if (!map) {
		*err = -ENOMEM;
		return NULL;
	}
	*first = (phys - b->phys) >> m->line_shift;
	*last = (phys + size - 1 - b->phys) >> m->line_shift;
	return map;
}

#define ONES 0x0101010101010101ULL
#define HOLD_MASK ((uint8_t)(DMAEMU__OWN_HOLD_MAX << DMAEMU__OWN_HOLD_SHIFT))

static unsigned int holders(uint8_t o)
{
	return o >> DMAEMU__OWN_HOLD_SHIFT;
}

static uint8_t with_holders(uint8_t o, unsigned int n)
{
	return (uint8_t)((o & ~HOLD_MASK) | (n << DMAEMU__OWN_HOLD_SHIFT));
}

/* One more mapping holds the line. */
static uint8_t map_byte(uint8_t o, bool to_device, bool edge)
{
	unsigned int n = holders(o);
	uint8_t read_ok = to_device ? DMAEMU__OWN_READ_OK : 0;

	if (!n)
		o = read_ok;
	else
		o = (uint8_t)((o & DMAEMU__OWN_EDGE) |
			      (o & DMAEMU__OWN_READ_OK & read_ok));
	o |= DMAEMU__OWN_DEVICE | (edge ? DMAEMU__OWN_EDGE : 0);
	return with_holders(o, n < DMAEMU__OWN_HOLD_MAX ? n + 1 : n);
}

/* One mapping of the line ends (a saturated count stays). */
static uint8_t unmap_byte(uint8_t o, bool keep_shared)
{
	unsigned int n = holders(o);

	if (n && n < DMAEMU__OWN_HOLD_MAX)
		n--;
	if (!n)
		return 0;
	o = with_holders(o, n);
	return keep_shared ? o : (uint8_t)(o & ~DMAEMU__OWN_DEVICE);
}

static uint8_t load_byte(const uint8_t *map, uint64_t l)
{
	return __atomic_load_n(&map[l], __ATOMIC_RELAXED);
}

static void store_byte(uint8_t *map, uint64_t l, uint8_t v)
{
	__atomic_store_n(&map[l], v, __ATOMIC_RELAXED);
}

static uint64_t *word_at(uint8_t *map, uint64_t l)
{
	return (uint64_t *)(void *)&map[l];
}

/* The eight lines of word @w are alike and held by one mapping. */
static inline bool held_once(uint64_t w)
{
	return w == (uint8_t)w * ONES && holders((uint8_t)w) == 1;
}

/* The OR of the eight words from line @l (a multiple of 8). */
static inline uint64_t words_or8(uint8_t *map, uint64_t l)
{
	uint64_t acc = 0;
	unsigned int k;

#pragma GCC unroll 8
	for (k = 0; k < 8; k++)
		acc |= __atomic_load_n(word_at(map, l + 8 * k),
				       __ATOMIC_RELAXED);
	return acc;
}

/* Are the eight words from line @l (a multiple of 8) all @w? */
static inline bool words_all8(uint8_t *map, uint64_t l, uint64_t w)
{
	uint64_t diff = 0;
	unsigned int k;

#pragma GCC unroll 8
	for (k = 0; k < 8; k++)
		diff |= __atomic_load_n(word_at(map, l + 8 * k),
					__ATOMIC_RELAXED) ^
			w;
	return !diff;
}

/* The eight words from line @l (a multiple of 8) become @w. */
static inline void words_set8(uint8_t *map, uint64_t l, uint64_t w)
{
	unsigned int k;

#pragma GCC unroll 8
	for (k = 0; k < 8; k++)
		__atomic_store_n(word_at(map, l + 8 * k), w, __ATOMIC_RELAXED);
}

/**
 * dmaemu__owner_map() - a streaming mapping of [@phys, +@size) is made:
 * its lines move to the device domain and count one more holder.
 * @m:         machine.
 * @phys:      first byte of the CPU's buffer.
 * @size:      bytes (0 does nothing).
 * @to_device: the mapping is DMA_TO_DEVICE (CPU loads stay harmless).
 *
 * The first and last lines are marked DMAEMU__OWN_EDGE when the buffer
 * covers them only in part.  Each byte is read and written with relaxed
 * atomics and no lock: only maps and unmaps of the same line race, and two
 * live mappings of one line are already the bug the checkers show.
 *
 * Cost: a load and a store per eight lines inside the buffer.
 * Return: 0, -EINVAL (not inside one bank) or -ENOMEM.
 */
int dmaemu__owner_map(struct dmaemu_machine *m, uint64_t phys, size_t size,
		      bool to_device)
{
	uint64_t first, last, l, a, b, line = m->line;
	bool edge_hi = (phys + size) & (line - 1);
	bool edge_lo =
		(phys & (line - 1)) ||
		(!((phys ^ (phys + size - 1)) >> m->line_shift) && edge_hi);
	uint8_t fresh = map_byte(0, to_device, false);
	uint64_t fresh_w = fresh * ONES;
	uint8_t *map;
	int err = 0;

	if (!size)
		return 0;
	map = range_map(m, phys, size, &first, &last, &err);
	if (!map)
		return err;
	/* Stores noted before the map were no handover's business. */
	dmaemu__owner_stores_take(m, phys, size, NULL);
	/*
	 * Lines first and last are edges when the buffer covers them in
	 * part.  Whole words of eight lines between them [a, b) go by blocks
	 * of eight words (a page of 64-byte lines): a block that no mapping
	 * holds takes eight stores with no branch per word; in another, a
	 * word no mapping holds takes one store, any other word a byte at a
	 * time.  The lines before and after them, edges included, a byte at
	 * a time.
	 */
	a = (first + edge_lo + 7) & ~(uint64_t)7;
	b = (last + 1 - edge_hi) & ~(uint64_t)7;
	if (a > b)
		a = b = last + 1;
#define EDGE(l) (((l) == first && edge_lo) || ((l) == last && edge_hi))
	for (l = first; l < a; l++)
		store_byte(map, l,
			   map_byte(load_byte(map, l), to_device, EDGE(l)));
	while (l < b) {
		uint64_t end = b - l >= 64 ? l + 64 : b;

		if (end - l == 64 && !words_or8(map, l)) {
			words_set8(map, l, fresh_w);
			l = end;
			continue;
		}
		for (; l < end; l += 8) {
			uint64_t w = __atomic_load_n(word_at(map, l),
						     __ATOMIC_RELAXED);
			unsigned int k;

			if (!w) {
				__atomic_store_n(word_at(map, l), fresh_w,
						 __ATOMIC_RELAXED);
				continue;
			}
			for (k = 0; k < 8; k++)
				store_byte(map, l + k,
					   map_byte(load_byte(map, l + k),
						    to_device, false));
		}
	}
	for (; l <= last; l++)
		store_byte(map, l,
			   map_byte(load_byte(map, l), to_device, EDGE(l)));
#undef EDGE
	/* No CPU fast-path entry may survive a move to the device. */
	dmaemu__mem_residency_changed();
	return 0;
}

/**
 * dmaemu__owner_unmap() - a streaming mapping of [@phys, +@size) ends.
 * @m:           machine.
 * @phys:        first byte of the CPU's buffer.
 * @size:        bytes (0 does nothing).
 * @keep_shared: lines that another live mapping still holds stay in the
 *               device domain (an unmap with DMA_ATTR_SKIP_CPU_SYNC: the
 *               buffer is shared with other devices); otherwise every line
 *               goes back to the CPU.
 *
 * A line no mapping holds any more is back to 0 (CPU, no flags).
 * Return: 0, -EINVAL or -ENOMEM.
 */
int dmaemu__owner_unmap(struct dmaemu_machine *m, uint64_t phys, size_t size,
			bool keep_shared)
{
	/* The last word found held by one mapping only (0 at first: either
	 * way a word of 0 stays 0). */
	uint64_t first, last, l, only = 0;
	uint8_t *map;
	int err = 0;

	if (!size)
		return 0;
	map = range_map(m, phys, size, &first, &last, &err);
	if (!map)
		return err;
	dmaemu__owner_stores_take(m, phys, size, NULL);
	for (l = first; l <= last && (l & 7); l++)
		store_byte(map, l, unmap_byte(load_byte(map, l), keep_shared));
	/*
	 * Whole words by blocks of eight (a page of 64-byte lines): a block
	 * whose lines are all alike and held by this mapping only is cleared
	 * with eight stores and no branch per word; in another, such a word
	 * takes one store, any other word a byte at a time.
	 */
	while (l + 8 <= last + 1) {
		uint64_t end =
			last + 1 - l >= 64 ? l + 64 : (last + 1) & ~(uint64_t)7;
		uint64_t w = __atomic_load_n(word_at(map, l), __ATOMIC_RELAXED);

		if (end - l == 64 && held_once(w) && words_all8(map, l, w)) {
			words_set8(map, l, 0);
			only = w;
			l = end;
			continue;
		}
		for (; l < end; l += 8) {
			unsigned int k;

			w = __atomic_load_n(word_at(map, l), __ATOMIC_RELAXED);
			/* As the word before, which saves the tests. */
			if (w == only || held_once(w)) {
				only = w;
				__atomic_store_n(word_at(map, l), 0,
						 __ATOMIC_RELAXED);
				continue;
			}
			for (k = 0; k < 8; k++)
				store_byte(map, l + k,
					   unmap_byte(load_byte(map, l + k),
						      keep_shared));
		}
	}
	for (; l <= last; l++)
		store_byte(map, l, unmap_byte(load_byte(map, l), keep_shared));
	return 0;
}

/**
 * dmaemu__owner_set() - a sync moves the lines covering a range to a
 * domain (the holders and flags stay).
 * @m:      machine.
 * @phys:   first byte.
 * @size:   bytes (0 does nothing).
 * @domain: the new owner.
 *
 * Cost: one load and store per eight lines where the map is word-aligned:
 * a 1 MiB buffer moves 16,384 lines.
 * Return: 0; -EINVAL when the range is not inside one bank; -ENOMEM when
 * the bank's map could not be made.
 */
int dmaemu__owner_set(struct dmaemu_machine *m, uint64_t phys, size_t size,
		      enum dmaemu__domain domain)
{
	uint64_t first, last, l;
	uint8_t *map;
	int err = 0;

	if (!size)
		return 0;
	map = range_map(m, phys, size, &first, &last, &err);
	if (!map)
		return err;
	for (l = first; l <= last && (l & 7); l++)
		store_byte(map, l,
			   domain ? load_byte(map, l) | DMAEMU__OWN_DEVICE
				  : load_byte(map, l) & ~DMAEMU__OWN_DEVICE);
	for (; l + 8 <= last + 1; l += 8) {
		uint64_t w = __atomic_load_n(word_at(map, l), __ATOMIC_RELAXED);

		w = domain ? w | ONES * DMAEMU__OWN_DEVICE
			   : w & ~(ONES * DMAEMU__OWN_DEVICE);
		__atomic_store_n(word_at(map, l), w, __ATOMIC_RELAXED);
	}
	for (; l <= last; l++)
		store_byte(map, l,
			   domain ? load_byte(map, l) | DMAEMU__OWN_DEVICE
				  : load_byte(map, l) & ~DMAEMU__OWN_DEVICE);
	if (domain == DMAEMU__DOMAIN_DEVICE)
		dmaemu__mem_residency_changed();
	return 0;
}

/**
 * dmaemu__owner_byte() - the ownership byte of the line holding @phys.
 * Return: the byte (bits in mem.h); 0 (the CPU's, no mapping) for lines
 * never mapped and for addresses that are not DRAM.
 */
uint8_t dmaemu__owner_byte(struct dmaemu_machine *m, uint64_t phys)
{
	struct dmaemu__bank *b = dmaemu__bank_of_phys(m, phys, 1);
	uint8_t *map;

	if (!b)
		return 0;
	map = __atomic_load_n(&m->owner[b - m->bank], __ATOMIC_ACQUIRE);
	if (!map)
		return 0;
	return load_byte(map, (phys - b->phys) >> m->line_shift);
}

/**
 * dmaemu__owner_device_span() - how far from @phys the lines are all in
 * the device domain.
 * @m:    machine.
 * @phys: first byte.
 * @len:  bytes (the range lies inside one bank).
 *
 * The device side's ownership check asks this of every access first: a
 * correct driver's access finds every line device-owned, and a scan of
 * the owner map eight lines a load answers it, where a question per line
 * cost a bank lookup each.
 *
 * Return: the bytes from @phys up to the first line the device does not
 * own (the CPU owns it, or no mapping ever held it), or @len when it owns
 * them all.
 */
size_t dmaemu__owner_device_span(struct dmaemu_machine *m, uint64_t phys,
				 size_t len)
{
	struct dmaemu__bank *b = dmaemu__bank_of_phys(m, phys, len);
	uint64_t l, first, last, stop;
	const uint8_t *map;

	if (!b || !len)
		return 0;
	map = __atomic_load_n(&m->owner[b - m->bank], __ATOMIC_ACQUIRE);
	if (!map)
		return 0;
	first = (phys - b->phys) >> m->line_shift;
	last = (phys + len - 1 - b->phys) >> m->line_shift;
	for (l = first; l <= last && (l & 7); l++)
		if (!(load_byte(map, l) & DMAEMU__OWN_DEVICE))
			goto out;
	for (; l + 8 <= last + 1; l += 8) {
		uint64_t w =
			__atomic_load_n((const uint64_t *)(const void *)&map[l],
					__ATOMIC_RELAXED);

		if ((w & ONES * DMAEMU__OWN_DEVICE) !=
		    ONES * DMAEMU__OWN_DEVICE)
			break;
	}
	for (; l <= last; l++)
		if (!(load_byte(map, l) & DMAEMU__OWN_DEVICE))
			goto out;
	return len;
out:
	stop = b->phys + (l << m->line_shift);
	return stop > phys ? (size_t)(stop - phys) : 0;
}

/**
 * dmaemu__owner_next_writable() - the first line of [@lo, @hi) that a live
 * streaming mapping other than a DMA_TO_DEVICE one holds.
 * @m:  machine.
 * @lo: line-aligned first byte.
 * @hi: line-aligned end (the range lies inside one bank).
 *
 * The map's overlap check asks this: a buffer no mapping holds yet is
 * settled a load per eight lines.
 * Return: that line's address, or @hi when there is none.
 */
uint64_t dmaemu__owner_next_writable(struct dmaemu_machine *m, uint64_t lo,
				     uint64_t hi)
{
	struct dmaemu__bank *b = dmaemu__bank_of_phys(m, lo, hi - lo);
	uint64_t l, last;
	const uint8_t *map;
	uint8_t o;

	if (!b || hi <= lo)
		return hi;
	map = __atomic_load_n(&m->owner[b - m->bank], __ATOMIC_ACQUIRE);
	if (!map)
		return hi;
	l = (lo - b->phys) >> m->line_shift;
	last = (hi - 1 - b->phys) >> m->line_shift;
	for (; l <= last; l++) {
		/* Eight lines no mapping holds: one load. */
		if (!(l & 7) && last - l >= 7 &&
		    !(__atomic_load_n((const uint64_t *)(const void *)&map[l],
				      __ATOMIC_RELAXED) &
		      ONES * HOLD_MASK)) {
			l += 7;
			continue;
		}
		o = load_byte(map, l);
		if (holders(o) && !(o & DMAEMU__OWN_READ_OK))
			return b->phys + (l << m->line_shift);
	}
	return hi;
}

/**
 * dmaemu__owner_get() - the owner of the line holding @phys.
 * Return: the domain; the CPU for lines never mapped and for addresses
 * that are not DRAM.
 */
enum dmaemu__domain dmaemu__owner_get(struct dmaemu_machine *m, uint64_t phys)
{
	return (enum dmaemu__domain)(dmaemu__owner_byte(m, phys) &
				     DMAEMU__OWN_DEVICE);
}

/* The DMA layer's finder (one function for every machine). */
static dmaemu__owner_find_fn owner_finder;

/** dmaemu__owner_set_finder() - install the DMA layer's finder. */
void dmaemu__owner_set_finder(dmaemu__owner_find_fn fn)
{
	/* Every machine installs the same function: written once, before
	 * any thread of a machine can read it. */
	if (__atomic_load_n(&owner_finder, __ATOMIC_ACQUIRE) != fn)
		__atomic_store_n(&owner_finder, fn, __ATOMIC_RELEASE);
}

/**
 * dmaemu__owner_find() - the live streaming mapping holding the lowest
 * byte of [@phys, @limit).
 * Return: true with *@out filled; false when none does (or no DMA layer
 * answers).  Cost: the DMA layer's look-up, a walk of every live mapping
 * of the machine: for reports only (a CPU access to a device-owned line
 * is either reported or, in a line a mapping covers in part, touched
 * bytes outside it).
 */
bool dmaemu__owner_find(struct dmaemu_machine *m, uint64_t phys, uint64_t limit,
			struct dmaemu__owner_info *out)
{
	dmaemu__owner_find_fn fn =
		__atomic_load_n(&owner_finder, __ATOMIC_ACQUIRE);

	return fn && phys < limit && fn(m, phys, limit, out);
}

/* The allocator's object finder (one function for every machine). */
static dmaemu__object_find_fn object_finder;

/** dmaemu__owner_set_object_finder() - install the allocator's finder. */
void dmaemu__owner_set_object_finder(dmaemu__object_find_fn fn)
{
	if (__atomic_load_n(&object_finder, __ATOMIC_ACQUIRE) != fn)
		__atomic_store_n(&object_finder, fn, __ATOMIC_RELEASE);
}

/**
 * dmaemu__owner_object() - the kmalloc object holding @phys.
 * Return: true with [*@lo, *@hi) filled; false when none does (or no
 * allocator answers).
 */
bool dmaemu__owner_object(struct dmaemu_machine *m, uint64_t phys, uint64_t *lo,
			  uint64_t *hi)
{
	dmaemu__object_find_fn fn =
		__atomic_load_n(&object_finder, __ATOMIC_ACQUIRE);

	return fn && fn(m, phys, lo, hi);
}

/** dmaemu__owner_fini() - unmap the owner maps (machine destroy). */
void dmaemu__owner_fini(struct dmaemu_machine *m)
{
	unsigned int i;

	for (i = 0; i < DMAEMU__MAX_BANKS; i++) {
		if (m->owner[i])
			munmap(m->owner[i], map_bytes(m, &m->bank[i]));
		m->owner[i] = NULL;
	}
}

/**
 * dmaemu__owner_held() - does a live streaming mapping hold a line of
 * [@phys, +@size)?  Lock-free (the ownership bytes); a line shared with a
 * mapping of other bytes counts too (dmaemu__owner_check_free() tells).
 */
bool dmaemu__owner_held(struct dmaemu_machine *m, uint64_t phys, size_t size)
{
	struct dmaemu__bank *b = dmaemu__bank_of_phys(m, phys, size);
	uint64_t l, first, last;
	uint8_t *map;

	if (!b || !size)
		return false;
	map = __atomic_load_n(&m->owner[b - m->bank], __ATOMIC_ACQUIRE);
	if (!map)
		return false;
	first = (phys - b->phys) >> m->line_shift;
	last = first + (((phys & (m->line - 1)) + size - 1) >> m->line_shift);
	for (l = first; l <= last; l++)
		if (holders(load_byte(map, l)))
			return true;
	return false;
}

/**
 * dmaemu__owner_check_free() - a free of [@phys, +@size) by @fn: the bytes
 * of a live streaming mapping are reported (free-of-mapped-memory: the
 * device may still write them, and the unmap's maintenance will write to
 * memory that has a new owner).  A correct driver pays one ownership byte
 * read a line; the DMA layer is asked only when a line is held.  The
 * free goes on: the caller frees as the kernel would.
 * Return: true when a report was made.
 */
bool dmaemu__owner_check_free(struct dmaemu_machine *m, uint64_t phys,
			      size_t size, const char *fn)
{
	struct dmaemu__owner_info o;

	struct dmaemu__report_info r = {
		.kind = DMAEMU_REPORT_FREE_OF_MAPPED_MEMORY};

	if (!dmaemu__owner_held(m, phys, size) ||
	    !dmaemu__owner_find(m, phys, phys + size, &o))
		return false;
	r.phys = o.lo > phys ? o.lo : phys;
	r.size = size;
	dmaemu__owner_report_fields(&o, &r);
	dmaemu__report(m, &r,
		       "%s of %zu bytes at phys 0x%llx: a live %s %s mapping "
		       "of device %s holds [0x%llx, 0x%llx) of them (dma "
		       "0x%llx, %zu bytes, %s backend, made by %s); unmap it "
		       "before the memory is freed; freed all the same",
		       fn, size, (unsigned long long)phys, o.dir_name,
		       o.sg ? "scatterlist" : "streaming", o.device,
		       (unsigned long long)o.lo, (unsigned long long)o.hi,
		       (unsigned long long)o.dma, o.size, o.backend,
		       dmaemu__owner_made_at(&o));
	return true;
}

const char *dmaemu__owner_made_at(struct dmaemu__owner_info *o)
{
	char where[256];

	if (!o->made_at[0]) {
		dmaemu__code_where(o->made_caller, where, sizeof(where));
		snprintf(o->made_at, sizeof(o->made_at), "%s() called from %s",
			 o->made_fn ? o->made_fn : "?", where);
	}
	return o->made_at;
}

/**
 * dmaemu__owner_report_fields() - the mapping @o in the fields of report
 * @r: where it was made and the last device access to it.
 */
void dmaemu__owner_report_fields(struct dmaemu__owner_info *o,
				 struct dmaemu__report_info *r)
{
	r->made_at = dmaemu__owner_made_at(o);
	r->map_device = o->device;
	r->map_dma = o->dma;
	if (o->last_valid) {
		r->last_device = o->device;
		r->last_dma = o->last_dma;
		r->last_size = o->last_len;
		r->last_write = o->last_write;
	}
}

/* ---------------------------------------------------------------------- */
/* The CPU's stores into held lines                                       */
/* ---------------------------------------------------------------------- */

/*
 * A table of lines, each probed at OWN_PROBE slots from its line number:
 * a line that finds no free slot takes the first one (the record it
 * replaces is forgotten, so a store may go unreported when more than
 * OWN_PROBE lines of the same slots hold stores at once; correct drivers
 * store into held lines rarely, after a sync_for_cpu).
 */
#define OWN_STORES 1024
#define OWN_PROBE 4

struct own_store {
	uint64_t line; /* line address + 1; 0: free */
	uint64_t mask[DMAEMU__MASK_WORDS];
	const void *site;
};

struct dmaemu__own_stores {
	pthread_mutex_t lock; /* everything below; a leaf */
	unsigned int used;    /* slots in use; also read without the lock */
	struct own_store e[OWN_STORES];
};

int dmaemu__owner_stores_init(struct dmaemu_machine *m)
{
	struct dmaemu__own_stores *s = dmaemu__calloc(1, sizeof(*s));

	if (!s)
		return -ENOMEM;
	if (dmaemu__mutex_init(&s->lock)) {
		dmaemu__free(s);
		return -ENOMEM;
	}
	dmaemu__vg_atomic(&s->used, sizeof(s->used));
	m->own_stores = s;
	return 0;
}

void dmaemu__owner_stores_fini(struct dmaemu_machine *m)
{
	struct dmaemu__own_stores *s = m->own_stores;

	if (!s)
		return;
	pthread_mutex_destroy(&s->lock);
	dmaemu__free(s);
	m->own_stores = NULL;
}

/* Set (@set) or clear bits [@lo, @hi) of @mask. */
static void mask_bits(uint64_t *mask, unsigned int lo, unsigned int hi,
		      bool set)
{
	unsigned int i;

	for (i = lo; i < hi; i++) {
		if (set)
			mask[i / 64] |= 1ULL << (i % 64);
		else
			mask[i / 64] &= ~(1ULL << (i % 64));
	}
}

void dmaemu__owner_store_note(struct dmaemu_machine *m, uint64_t phys,
			      size_t len, const void *site)
{
	struct dmaemu__own_stores *s = m->own_stores;
	uint64_t lp = phys & ~((uint64_t)m->line - 1);
	size_t idx = (size_t)(lp >> m->line_shift), k, slot = SIZE_MAX;
	unsigned int off = (unsigned int)(phys - lp);
	struct own_store *e;

	if (!s || !len)
		return;
	if (off + len > m->line)
		len = m->line - off;
	dmaemu__lock(&s->lock);
	for (k = 0; k < OWN_PROBE; k++) {
		size_t i = (idx + k) % OWN_STORES;

		if (s->e[i].line == lp + 1) {
			slot = i;
			break;
		}
		if (!s->e[i].line && slot == SIZE_MAX)
			slot = i;
	}
	if (slot == SIZE_MAX)
		slot = idx % OWN_STORES; /* replaces another line's record */
	e = &s->e[slot];
	if (e->line != lp + 1) {
		if (!e->line)
			__atomic_store_n(&s->used, s->used + 1,
					 __ATOMIC_RELAXED);
		memset(e, 0, sizeof(*e));
		e->line = lp + 1;
	}
	mask_bits(e->mask, off, off + (unsigned int)len, true);
	e->site = site;
	dmaemu__unlock(&s->lock);
}

/* Take the bytes of entry @e inside [@lo, @hi) into @out (may be NULL). */
static void take_entry(struct dmaemu_machine *m, struct dmaemu__own_stores *s,
		       struct own_store *e, uint64_t lo, uint64_t hi,
		       struct dmaemu__lost_stores *out, bool *any)
{
	uint64_t lp = e->line - 1, a = lo > lp ? lo : lp;
	uint64_t b = hi < lp + m->line ? hi : lp + m->line;
	uint64_t got[DMAEMU__MASK_WORDS] = {0};
	unsigned int i, n = 0, first = 0, last = 0;
	bool left = false;

	if (a >= b)
		return;
	mask_bits(got, (unsigned int)(a - lp), (unsigned int)(b - lp), true);
	for (i = 0; i < DMAEMU__MASK_WORDS; i++) {
		got[i] &= e->mask[i];
		e->mask[i] &= ~got[i];
		left |= e->mask[i] != 0;
		n += (unsigned int)__builtin_popcountll(got[i]);
	}
	if (n && out) {
		for (i = 0; i < m->line; i++)
			if ((got[i / 64] >> (i % 64)) & 1)
				last = i;
		first = 0;
		while (!((got[first / 64] >> (first % 64)) & 1))
			first++;
		if (!*any || lp < out->first_line) {
			out->first_line = lp;
			memcpy(out->mask, got, sizeof(out->mask));
			out->site = e->site;
		}
		if (!*any || lp + first < out->lo)
			out->lo = lp + first;
		if (!*any || lp + last + 1 > out->hi)
			out->hi = lp + last + 1;
		out->bytes += n;
		out->lines++;
		*any = true;
	}
	if (!left) {
		memset(e, 0, sizeof(*e));
		__atomic_store_n(&s->used, s->used - 1, __ATOMIC_RELAXED);
	}
}

/* The entry of line number @l (its address >> line_shift), or NULL.
 * s->lock held. */
static struct own_store *line_entry(struct dmaemu_machine *m,
				    struct dmaemu__own_stores *s, uint64_t l)
{
	size_t k;

	for (k = 0; k < OWN_PROBE; k++) {
		struct own_store *e = &s->e[(l + k) % OWN_STORES];

		if (e->line == (l << m->line_shift) + 1)
			return e;
	}
	return NULL;
}

bool dmaemu__owner_stores_noted(struct dmaemu_machine *m, uint64_t line_phys)
{
	struct dmaemu__own_stores *s = m->own_stores;
	const struct own_store *e;
	bool any;

	if (!s || !__atomic_load_n(&s->used, __ATOMIC_RELAXED))
		return false;
	dmaemu__lock(&s->lock);
	e = line_entry(m, s, line_phys >> m->line_shift);
	any = e && dmaemu__mask_any(e->mask);
	dmaemu__unlock(&s->lock);
	return any;
}

/* dmaemu__owner_stores_take() once some line has stores noted.  Out of
 * line: every map and unmap asks, and almost always nothing is noted. */
static __attribute__((noinline)) bool stores_take(
	struct dmaemu_machine *m, struct dmaemu__own_stores *s, uint64_t phys,
	size_t size, struct dmaemu__lost_stores *out)
{
	uint64_t first, last, l, end = phys + size;
	bool any = false;
	size_t i;

	first = phys >> m->line_shift;
	last = (end - 1) >> m->line_shift;
	dmaemu__lock(&s->lock);
	if (last - first + 1 > OWN_STORES) {
		/* A range larger than the table: walk the table. */
		for (i = 0; i < OWN_STORES && s->used; i++) {
			struct own_store *e = &s->e[i];

			if (e->line && e->line - 1 < end &&
			    e->line - 1 + m->line > phys)
				take_entry(m, s, e, phys, end, out, &any);
		}
	} else {
		for (l = first; l <= last && s->used; l++) {
			struct own_store *e = line_entry(m, s, l);

			if (e)
				take_entry(m, s, e, phys, end, out, &any);
		}
	}
	dmaemu__unlock(&s->lock);
	return any;
}

bool dmaemu__owner_stores_take(struct dmaemu_machine *m, uint64_t phys,
			       size_t size, struct dmaemu__lost_stores *out)
{
	struct dmaemu__own_stores *s = m->own_stores;

	if (out)
		memset(out, 0, sizeof(*out));
	if (!s || !size || !__atomic_load_n(&s->used, __ATOMIC_RELAXED))
		return false;
	return stores_take(m, s, phys, size, out);
}
