// SPDX-License-Identifier: MIT
/*
 * swiotlb.c - the bounce-buffer backend (software I/O TLB), as in Linux
 * 4.14's lib/swiotlb.c together with arm64's swiotlb DMA ops.
 *
 * How it works.  The pool is emulated DRAM below 4 GiB, taken from the
 * page allocator (ZONE_DMA32, owner "swiotlb") the first time a machine
 * bounces anything, swiotlb_size bytes rounded up to whole segments.  It is
 * cut into 2 KiB slots (IO_TLB_SHIFT 11) grouped in segments of 128 slots
 * (IO_TLB_SEGSIZE); a mapping takes contiguous slots inside one segment,
 * so no mapping is larger than 256 KiB.  Because the page allocator's
 * largest block is 4 MiB, a larger pool is several blocks ("chunks"), each
 * a whole number of segments; slots are numbered across the chunks in
 * physical order.
 *
 *   chunk 0 (phys P)                         chunk 1 (phys Q)
 *   |seg 0: slots 0..127|seg 1: 128..255|...|seg k: ...|...
 *    free_run: 128 127 ... 1 | 128 ... 1 |
 *
 * free_run[i] is the number of free slots from i to the end of its
 * segment (0 when slot i is in use), so "can n slots start at i?" is one
 * compare, and freeing rebuilds the counts of the free slots just before.
 * The search starts where the last one ended and walks with a stride of
 * one slot (two, i.e. page-aligned bounce buffers, for mappings of a page
 * or more), skipping positions whose bus range would cross the device's
 * segment boundary.  As in 4.14 the bounce buffer starts at its slot: the
 * original's offset inside a slot or page is not kept (Linux kept it only
 * from 5.12, with min_align_mask).
 *
 * orig[i] is the original physical address of the bytes at slot i (or
 * INVALID), pos[i] the place of slot i in its mapping and size[i] the bytes
 * of the mapping starting at slot i (0 elsewhere): unmap checks that it
 * was given a mapping's start, and syncs are kept inside their mapping.
 *
 * Copies ("bounces") are what the kernel's CPU does with memcpy: the
 * original is read and the bounce buffer written through the CPU's view
 * (the cache model), one destination line at a time, so the copied lines
 * become CPU-dirty exactly as a CPU's stores would make them.  The
 * device-side maintenance then runs on the bounce buffer, the memory the
 * device really touches:
 *
 *   map            TO_DEVICE, BIDI: copy original -> bounce (FROM_DEVICE:
 *                  no copy, as in 4.14; the bounce keeps whatever the slot
 *                  held, which a partial device write leaves behind and
 *                  unmap copies back), then for_device maintenance
 *   unmap          for_cpu maintenance, then FROM_DEVICE, BIDI: copy
 *                  bounce -> original
 *   sync_for_cpu   for_cpu maintenance, then FROM_DEVICE, BIDI: copy
 *                  bounce -> original
 *   sync_for_dev   TO_DEVICE, BIDI: copy original -> bounce, then
 *                  for_device maintenance
 *
 * DMA_ATTR_SKIP_CPU_SYNC skips both the copies and the maintenance at map
 * and unmap, as 4.14's swiotlb_tbl_map_single() and
 * swiotlb_tbl_unmap_single() do.  The bytes of a TO_DEVICE or BIDI bounce
 * buffer that such a map left unfilled are marked (@unfilled) until a
 * sync_for_device copies into them or the device writes them: a device
 * read of them is reported (owncheck.c), since the device reads what the
 * slot held, not the buffer.  A driver that forgets sync_for_cpu/unmap on a bounced
 * FROM_DEVICE buffer never sees the device's data, on every profile: it
 * stays in the bounce buffer.
 *
 * Addresses that do not need bouncing (not forced, within the device's
 * mask) are mapped directly, as Linux's swiotlb_map_page() does, and the
 * other ops recognise them by their physical address lying outside the
 * pool.
 *
 * Locking.  s->lock protects the slot tables; it is taken with no other
 * lock of the machine held (it may take the page allocator's lock when the
 * pool is created) and never held across a copy or maintenance, which take
 * the cache and stripe locks themselves.  m->swiotlb is set once, under
 * m->lock.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dma/backend.h"
#include "dmaemu/cpu.h"

#include <linux/dma-mapping.h>
#include <linux/gfp.h>
#include <linux/scatterlist.h>

#define IO_TLB_SHIFT 11
#define IO_TLB_SIZE (1UL << IO_TLB_SHIFT)
#define IO_TLB_SEGSIZE 128
#define SLOTS_PER_PAGE (DMAEMU__PAGE_SIZE >> IO_TLB_SHIFT)
#define CHUNK_MAX_ORDER 10 /* the page allocator's largest block, 4 MiB */
#define INVALID_PHYS UINT64_MAX
#define LOW_LIMIT 0xffffffffULL /* the pool lies below 4 GiB */

/* A block of the pool: a whole number of segments, physically contiguous. */
struct swiotlb_chunk {
	uint64_t phys;	      /* first byte */
	unsigned long first;  /* number of its first slot */
	unsigned long nslots; /* slots in it */
	struct page *page;    /* head page of the block */
	unsigned int order;   /* its order */
};

/**
 * struct dmaemu__swiotlb - the bounce pool of a machine.
 * @lock:     protects every field (the immutable ones are only read under
 *            it too, which keeps Helgrind's happens-before simple).
 * @nslots:   slots in the pool (a multiple of IO_TLB_SEGSIZE); 0 while the
 *            pool has not been allocated.
 * @nchunks:  entries of @chunk, sorted by physical address.
 * @chunk:    the blocks.
 * @free_run: per slot, free slots from it to the end of its segment.
 * @orig:     per slot, the original physical address of its bytes, or
 *            INVALID_PHYS.
 * @pos:      per used slot, its place in its mapping (0 = first).
 * @size:     per slot, the bytes of the mapping starting there, else 0.
 * @unfilled: one bit per byte of the pool: set for the bytes of a
 *            TO_DEVICE or BIDI mapping made with DMA_ATTR_SKIP_CPU_SYNC
 *            until a copy from the original or a device write fills them.
 * @index:    where the next search starts.
 * @used:     slots in use.
 * @maps, @fulls, @bounced: statistics (mappings made, failures, bytes
 *            copied).
 */
struct dmaemu__swiotlb {
	pthread_mutex_t lock;
	unsigned long nslots;
	unsigned int nchunks;
	struct swiotlb_chunk *chunk;
	unsigned int *free_run;
	uint64_t *orig;
	uint8_t *pos;
	uint32_t *size;
	uint64_t *unfilled;
	unsigned long index;
	unsigned long used;
	uint64_t maps, fulls, bounced;
};

static bool to_dev(int dir)
{
	return dir == DMAEMU__DIR_TO_DEVICE || dir == DMAEMU__DIR_BIDI;
}

static bool from_dev(int dir)
{
	return dir == DMAEMU__DIR_FROM_DEVICE || dir == DMAEMU__DIR_BIDI;
}

/* ---------------------------------------------------------------------- */
/* Bus addresses                                                          */
/* ---------------------------------------------------------------------- */

static uint64_t phys_to_bus(const struct dmaemu_machine *m, uint64_t phys)
{
	return phys + m->opt.dma_offset;
}

static uint64_t bus_to_phys(const struct dmaemu_machine *m, dma_addr_t bus)
{
	return bus - m->opt.dma_offset;
}

/* dma_capable(): can @dev reach [@bus, @bus + @size)? */
static bool capable(const struct device *dev, dma_addr_t bus, size_t size)
{
	if (!dev->dma_mask || !size)
		return false;
	return bus + size - 1 >= bus && bus + size - 1 <= *dev->dma_mask;
}

static unsigned long seg_boundary(const struct device *dev)
{
	return dev->dma_parms ? dev->dma_parms->segment_boundary_mask
			      : 0xffffffffUL;
}

static const char *dev_label(const struct device *dev)
{
	return dev->init_name ? dev->init_name : "?";
}

/* ---------------------------------------------------------------------- */
/* The pool                                                               */
/* ---------------------------------------------------------------------- */

static void pool_free(struct dmaemu_machine *m, struct dmaemu__swiotlb *s)
{
	unsigned int i;

	for (i = 0; i < s->nchunks; i++)
		dmaemu__free_pages(m, s->chunk[i].page, s->chunk[i].order,
				   DMAEMU__OWNER_SWIOTLB, "swiotlb_exit");
	dmaemu__free(s->chunk);
	dmaemu__free(s->free_run);
	dmaemu__free(s->orig);
	dmaemu__free(s->pos);
	dmaemu__free(s->size);
	dmaemu__free(s->unfilled);
	s->unfilled = NULL;
	s->chunk = NULL;
	s->free_run = NULL;
	s->orig = NULL;
	s->pos = NULL;
	s->size = NULL;
	s->nchunks = 0;
	s->nslots = 0;
}

static int cmp_chunk(const void *a, const void *b)
{
	const struct swiotlb_chunk *x = a, *y = b;

	return x->phys < y->phys ? -1 : x->phys > y->phys;
}

/*
 * Allocate the pool's memory and tables; s->lock held.  Return: 0, or
 * -ENOMEM with *@why saying what ran out.
 */
static int pool_alloc(struct dmaemu_machine *m, struct dmaemu__swiotlb *s,
		      const char **why)
{
	unsigned long nslots, left, i, first;
	unsigned int n;

	/* Whole segments, as swiotlb_init() rounds io_tlb_nslabs. */
	nslots = (unsigned long)(m->opt.swiotlb_size >> IO_TLB_SHIFT);
	nslots = (nslots + IO_TLB_SEGSIZE - 1) & ~(IO_TLB_SEGSIZE - 1UL);
	if (!nslots)
		nslots = IO_TLB_SEGSIZE;

	/* Blocks from 4 MiB down, each a whole number of segments. */
	s->chunk = dmaemu__calloc(64, sizeof(*s->chunk));
	s->free_run = dmaemu__malloc(nslots * sizeof(*s->free_run));
	s->orig = dmaemu__malloc(nslots * sizeof(*s->orig));
	s->pos = dmaemu__calloc(nslots, sizeof(*s->pos));
	s->size = dmaemu__calloc(nslots, sizeof(*s->size));
	s->unfilled = dmaemu__calloc(nslots * (IO_TLB_SIZE / 64),
				     sizeof(*s->unfilled));
	if (!s->chunk || !s->free_run || !s->orig || !s->pos || !s->size ||
	    !s->unfilled) {
		*why = "out of host memory for the slot tables";
		goto fail;
	}
	for (left = nslots; left;) {
		unsigned long pages = left / SLOTS_PER_PAGE;
		unsigned int order = 63 - (unsigned int)__builtin_clzl(pages);
		struct swiotlb_chunk *c;

		if (order > CHUNK_MAX_ORDER)
			order = CHUNK_MAX_ORDER;
		if (s->nchunks == 64) {
			*why = "swiotlb_size needs more than 64 blocks";
			goto fail;
		}
		c = &s->chunk[s->nchunks];
		c->page = dmaemu__alloc_pages(
			m, GFP_KERNEL | __GFP_DMA32 | __GFP_NOWARN, order,
			LOW_LIMIT, DMAEMU__OWNER_SWIOTLB, "swiotlb_init");
		if (!c->page) {
			*why = "not enough free memory below 4 GiB";
			goto fail;
		}
		c->order = order;
		c->phys = c->page->phys;
		c->nslots = (DMAEMU__PAGE_SIZE << order) >> IO_TLB_SHIFT;
		s->nchunks++;
		left -= c->nslots;
	}
	qsort(s->chunk, s->nchunks, sizeof(*s->chunk), cmp_chunk);
	for (n = 0, first = 0; n < s->nchunks; n++) {
		s->chunk[n].first = first;
		first += s->chunk[n].nslots;
	}
	for (i = 0; i < nslots; i++) {
		s->free_run[i] =
			IO_TLB_SEGSIZE - (unsigned int)(i % IO_TLB_SEGSIZE);
		s->orig[i] = INVALID_PHYS;
	}
	s->nslots = nslots;
	s->index = 0;
	s->used = 0;
	return 0;

fail:
	pool_free(m, s);
	return -ENOMEM;
}

/*
 * The machine's swiotlb state, made on first use.  Return: NULL when out
 * of host memory.
 */
static struct dmaemu__swiotlb *state(struct dmaemu_machine *m)
{
	struct dmaemu__swiotlb *s;

	s = __atomic_load_n(&m->swiotlb, __ATOMIC_ACQUIRE);
	if (s)
		return s;
	dmaemu__lock(&m->lock);
	s = m->swiotlb;
	if (!s) {
		s = dmaemu__calloc(1, sizeof(*s));
		if (s && dmaemu__mutex_init(&s->lock)) {
			dmaemu__free(s);
			s = NULL;
		}
		if (s) {
			/* Threads that find @s without m->lock take s->lock
			 * first: this pair orders them after the set-up. */
			dmaemu__lock(&s->lock);
			dmaemu__unlock(&s->lock);
			dmaemu__vg_atomic(&m->swiotlb, sizeof(m->swiotlb));
			__atomic_store_n(&m->swiotlb, s, __ATOMIC_RELEASE);
		}
	}
	dmaemu__unlock(&m->lock);
	return s;
}

/* Index of the chunk holding slot-pool address @phys, or -1.  Lock held. */
static int chunk_of_phys(const struct dmaemu__swiotlb *s, uint64_t phys)
{
	unsigned int lo = 0, hi = s->nchunks;

	while (lo < hi) {
		unsigned int mid = (lo + hi) / 2;
		const struct swiotlb_chunk *c = &s->chunk[mid];

		if (phys < c->phys)
			hi = mid;
		else if (phys - c->phys >= c->nslots << IO_TLB_SHIFT)
			lo = mid + 1;
		else
			return (int)mid;
	}
	return -1;
}

static uint64_t slot_phys(const struct dmaemu__swiotlb *s, unsigned long i)
{
	unsigned int lo = 0, hi = s->nchunks;

	/* The last chunk whose first slot is <= i. */
	while (hi - lo > 1) {
		unsigned int mid = (lo + hi) / 2;

		if (s->chunk[mid].first <= i)
			lo = mid;
		else
			hi = mid;
	}
	return s->chunk[lo].phys +
	       ((uint64_t)(i - s->chunk[lo].first) << IO_TLB_SHIFT);
}

/* Slot of pool address @phys, or -1 when @phys is not in the pool. */
static long slot_of(const struct dmaemu__swiotlb *s, uint64_t phys)
{
	int c = chunk_of_phys(s, phys);

	if (c < 0)
		return -1;
	return (long)(s->chunk[c].first +
		      ((phys - s->chunk[c].phys) >> IO_TLB_SHIFT));
}

/* ---------------------------------------------------------------------- */
/* Reports                                                                */
/* ---------------------------------------------------------------------- */

static void report_full(struct dmaemu_machine *m, const struct device *dev,
			uint64_t phys, size_t size, int dir, const char *why,
			unsigned long used, unsigned long total)
{
	dmaemu__reportf(m, DMAEMU_REPORT_SWIOTLB_FULL, phys, size,
			"swiotlb buffer is full (sz: %zu bytes), total %lu "
			"(slots), used %lu (slots): device %s, %s mapping of "
			"phys 0x%llx: %s; the map returns DMA_MAPPING_ERROR",
			size, total, used, dev_label(dev),
			dmaemu__dir_name(dir, "?"), (unsigned long long)phys,
			why);
}

static void report_bad(struct dmaemu_machine *m, const struct device *dev,
		       uint64_t phys, size_t size, const char *what)
{
	dmaemu__reportf(m, DMAEMU_REPORT_BAD_ARGUMENT, phys, size,
			"swiotlb: device %s: %s", dev_label(dev), what);
}

/* ---------------------------------------------------------------------- */
/* Bytes no copy filled                                                   */
/* ---------------------------------------------------------------------- */

/*
 * Set (@set) or clear the unfilled bits of the pool bytes [@tlb, +@size),
 * which lie in one mapping (contiguous slots of one chunk).  Lock held.
 */
static void unfilled_mark(struct dmaemu__swiotlb *s, uint64_t tlb, size_t size,
			  bool set)
{
	long index = slot_of(s, tlb);
	uint64_t b, end;

	if (index < 0 || !size)
		return;
	b = ((uint64_t)index << IO_TLB_SHIFT) + (tlb & (IO_TLB_SIZE - 1));
	end = b + size;
	if (end > (uint64_t)s->nslots << IO_TLB_SHIFT)
		end = (uint64_t)s->nslots << IO_TLB_SHIFT;
	for (; b < end; b++) {
		if (set)
			s->unfilled[b / 64] |= 1ULL << (b % 64);
		else
			s->unfilled[b / 64] &= ~(1ULL << (b % 64));
	}
}

static void unfilled_set(struct dmaemu_machine *m, uint64_t tlb, size_t size,
			 bool set)
{
	struct dmaemu__swiotlb *s =
		__atomic_load_n(&m->swiotlb, __ATOMIC_ACQUIRE);

	dmaemu__lock(&s->lock);
	unfilled_mark(s, tlb, size, set);
	dmaemu__unlock(&s->lock);
}

/**
 * dmaemu__swiotlb_unfilled() - the bytes of [@tlb, +@len) that lie in a
 * bounce buffer and that no copy from the original filled (a TO_DEVICE
 * or BIDI map with DMA_ATTR_SKIP_CPU_SYNC, as Linux 4.14's
 * swiotlb_tbl_map_single() copies nothing then, and no sync_for_device
 * or device write since).
 * @m:     machine.
 * @tlb:   physical address a device read landed at.
 * @len:   bytes read.
 * @first: set to the first such byte's pool address, when any.
 * Return: how many of the bytes are unfilled (0 outside the pool).
 */
size_t dmaemu__swiotlb_unfilled(struct dmaemu_machine *m, uint64_t tlb,
				size_t len, uint64_t *first)
{
	struct dmaemu__swiotlb *s =
		__atomic_load_n(&m->swiotlb, __ATOMIC_ACQUIRE);
	size_t n = 0, i;
	long index;

	if (!s)
		return 0;
	dmaemu__lock(&s->lock);
	index = s->nslots ? slot_of(s, tlb) : -1;
	for (i = 0; index >= 0 && i < len; i++) {
		uint64_t b = ((uint64_t)index << IO_TLB_SHIFT) +
			     (tlb & (IO_TLB_SIZE - 1)) + i;

		if (b >= (uint64_t)s->nslots << IO_TLB_SHIFT)
			break;
		if (s->unfilled[b / 64] & (1ULL << (b % 64)) && !n++)
			*first = tlb + i;
	}
	dmaemu__unlock(&s->lock);
	return n;
}

/**
 * dmaemu__swiotlb_device_wrote() - a device wrote [@tlb, +@len): those
 * bytes of a bounce buffer hold data now (nothing when @tlb is not in the
 * pool).
 */
void dmaemu__swiotlb_device_wrote(struct dmaemu_machine *m, uint64_t tlb,
				  size_t len)
{
	struct dmaemu__swiotlb *s =
		__atomic_load_n(&m->swiotlb, __ATOMIC_ACQUIRE);

	if (!s)
		return;
	dmaemu__lock(&s->lock);
	if (s->nslots)
		unfilled_mark(s, tlb, len, false);
	dmaemu__unlock(&s->lock);
}

/* ---------------------------------------------------------------------- */
/* Slots                                                                  */
/* ---------------------------------------------------------------------- */

/*
 * Find @n free slots for @dev, mark them used and record @orig.  Lock
 * held.  Return: the first slot, or -1.
 */
static long slots_take(struct dmaemu__swiotlb *s, const struct device *dev,
		       const struct dmaemu_machine *m, size_t size,
		       unsigned long stride, uint64_t orig)
{
	unsigned long n = (size + IO_TLB_SIZE - 1) >> IO_TLB_SHIFT;
	unsigned long mask = seg_boundary(dev), index, wrap, i;
	long j;
	unsigned int count;

	if (n > IO_TLB_SEGSIZE || n > s->nslots - s->used)
		return -1;
	index = (s->index + stride - 1) & ~(stride - 1);
	if (index >= s->nslots)
		index = 0;
	wrap = index;
	do {
		uint64_t bus = phys_to_bus(m, slot_phys(s, index));
		uint64_t last = bus + (n << IO_TLB_SHIFT) - 1;

		/* Slots of one segment are contiguous in physical memory. */
		if (s->free_run[index] >= n &&
		    (bus & ~(uint64_t)mask) == (last & ~(uint64_t)mask))
			goto found;
		index += stride;
		if (index >= s->nslots)
			index = 0;
	} while (index != wrap);
	return -1;

found:
	for (i = index; i < index + n; i++) {
		s->free_run[i] = 0;
		s->orig[i] = orig + ((i - index) << IO_TLB_SHIFT);
		s->pos[i] = (uint8_t)(i - index);
	}
	/* Free slots before it in its segment now end at @index. */
	count = 0;
	for (j = (long)index - 1;
	     j >= 0 && j % IO_TLB_SEGSIZE != IO_TLB_SEGSIZE - 1 &&
	     s->free_run[j];
	     j--)
		s->free_run[j] = ++count;
	s->size[index] = (uint32_t)size;
	s->index = index + n < s->nslots ? index + n : 0;
	s->used += n;
	s->maps++;
	return (long)index;
}

/* Give back @n slots from @index.  Lock held. */
static void slots_put(struct dmaemu__swiotlb *s, unsigned long index,
		      unsigned long n)
{
	unsigned long seg_end =
		(index / IO_TLB_SEGSIZE + 1) * (unsigned long)IO_TLB_SEGSIZE;
	unsigned int count;
	long j;

	memset(&s->unfilled[(index << IO_TLB_SHIFT) / 64], 0,
	       (n << IO_TLB_SHIFT) / 8);
	count = index + n < seg_end ? s->free_run[index + n] : 0;
	for (j = (long)(index + n) - 1; j >= (long)index; j--) {
		s->free_run[j] = ++count;
		s->orig[j] = INVALID_PHYS;
	}
	for (j = (long)index - 1;
	     j >= 0 && j % IO_TLB_SEGSIZE != IO_TLB_SEGSIZE - 1 &&
	     s->free_run[j];
	     j--)
		s->free_run[j] = ++count;
	s->size[index] = 0;
	s->used -= n;
}

/* ---------------------------------------------------------------------- */
/* Bounce copies                                                          */
/* ---------------------------------------------------------------------- */

/*
 * Copy @size bytes from @src to @dst (physical addresses) as the CPU does:
 * a load of the source and a store of the destination through the cache
 * model, one destination line at a time, so that a finite cache evicts
 * exactly what a CPU's memcpy would.
 */
static void bounce(struct dmaemu_machine *m, uint64_t dst, uint64_t src,
		   size_t size)
{
	uint8_t *d = dmaemu__phys_cpu(m, dst), *sp = dmaemu__phys_cpu(m, src);
	size_t line = m->line;

	if (!size)
		return;
	if (!d || !sp || !dmaemu__bank_of_phys(m, dst, size) ||
	    !dmaemu__bank_of_phys(m, src, size))
		abort(); /* callers pass pool slots and checked originals */
	while (size) {
		size_t n = line - ((uintptr_t)(dst & (line - 1)));

		if (n > size)
			n = size;
		dmaemu__cpu_kernel_copy(d, sp, n);
		d += n;
		sp += n;
		dst += n;
		size -= n;
	}
}

static void count_bounce(struct dmaemu_machine *m, struct device *dev,
			 size_t size)
{
	struct dmaemu__swiotlb *s =
		__atomic_load_n(&m->swiotlb, __ATOMIC_ACQUIRE);

	dmaemu__lock(&s->lock);
	s->bounced += size;
	dmaemu__unlock(&s->lock);
	DMAEMU__STAT_ADD(dmaemu__dev_stats(dev), bytes_bounced, size);
	dmaemu__maint_acc.bounced += size;
}

/* ---------------------------------------------------------------------- */
/* Map and unmap                                                          */
/* ---------------------------------------------------------------------- */

/*
 * Bounce [@phys, +@size) for @dev: take slots (making the pool on first
 * use), copy for TO_DEVICE/BIDI.  No maintenance.  Return: the pool
 * address, or INVALID_PHYS after a report (unless NO_WARN).
 */
static uint64_t bounce_map(struct dmaemu_machine *m, struct device *dev,
			   uint64_t phys, size_t size, int dir,
			   unsigned long attrs)
{
	struct dmaemu__swiotlb *s = state(m);
	unsigned long n, stride, used = 0, total = 0;
	const char *why = NULL;
	uint64_t tlb = INVALID_PHYS;
	long index = -1;

	if (!s) {
		report_full(m, dev, phys, size, dir, "out of host memory", 0,
			    0);
		return INVALID_PHYS;
	}
	if (!size || !dmaemu__bank_of_phys(m, phys, size)) {
		report_bad(m, dev, phys, size,
			   "bounce of a range that is not emulated DRAM");
		return INVALID_PHYS;
	}
	n = (size + IO_TLB_SIZE - 1) >> IO_TLB_SHIFT;
	stride = size >= DMAEMU__PAGE_SIZE ? SLOTS_PER_PAGE : 1;

	dmaemu__lock(&s->lock);
	if (!s->nslots && pool_alloc(m, s, &why) < 0) {
		dmaemu__unlock(&s->lock);
		report_full(m, dev, phys, size, dir, why, 0, 0);
		return INVALID_PHYS;
	}
	if (n > IO_TLB_SEGSIZE)
		why = "larger than one segment of 128 slots (256 KiB), the "
		      "most swiotlb can bounce at once";
	else
		index = slots_take(s, dev, m, size, stride, phys);
	if (index >= 0)
		tlb = slot_phys(s, (unsigned long)index);
	else
		s->fulls++;
	used = s->used;
	total = s->nslots;
	dmaemu__unlock(&s->lock);

	if (index < 0) {
		if (!(attrs & DMA_ATTR_NO_WARN))
			report_full(m, dev, phys, size, dir,
				    why ? why
					: "no free run of slots fits (unmap "
					  "buffers sooner, or raise "
					  "swiotlb_size)",
				    used, total);
		return INVALID_PHYS;
	}
	if (!capable(dev, phys_to_bus(m, tlb), size)) {
		/* The pool is out of the device's reach (a mask below the
		 * pool), which 4.14 failed silently. */
		dmaemu__lock(&s->lock);
		slots_put(s, (unsigned long)index, n);
		dmaemu__unlock(&s->lock);
		if (!(attrs & DMA_ATTR_NO_WARN))
			report_full(m, dev, phys, size, dir,
				    "the bounce buffer lies beyond the "
				    "device's DMA mask",
				    used, total);
		return INVALID_PHYS;
	}
	/* 6.12's swiotlb_tbl_map_single() copies for every direction, with
	 * or without SKIP_CPU_SYNC, so that a device's partial write leaves
	 * the rest of the buffer as it was. */
	if (m->opt.k612 || (!(attrs & DMA_ATTR_SKIP_CPU_SYNC) && to_dev(dir))) {
		bounce(m, tlb, phys, size);
		count_bounce(m, dev, size);
	} else if (to_dev(dir)) {
		/* The slot keeps what it held: a device read of it before a
		 * sync_for_device is reported (owncheck.c). */
		unfilled_set(m, tlb, size, true);
	}
	return tlb;
}

/* Give back the slots of the mapping that starts at pool address @tlb. */
static void slots_release(struct dmaemu_machine *m, uint64_t tlb)
{
	struct dmaemu__swiotlb *s =
		__atomic_load_n(&m->swiotlb, __ATOMIC_ACQUIRE);
	long index;

	dmaemu__lock(&s->lock);
	index = slot_of(s, tlb);
	/* Still the start of a mapping, unless a second unmap of the same
	 * buffer raced with this one (the registry's to report). */
	if (index >= 0 && s->size[index])
		slots_put(s, (unsigned long)index,
			  (s->size[index] + IO_TLB_SIZE - 1) >> IO_TLB_SHIFT);
	dmaemu__unlock(&s->lock);
}

/*
 * Look up pool address @tlb for an access of *@size bytes.  With @unmap,
 * @tlb must start a mapping.  *@size is clipped to the mapping (after a
 * report when it did not fit).  Nothing is released here: an unmap copies
 * back first and gives the slots back with slots_release() after, so no
 * other mapping can take them while the copy runs.
 *
 * Return: true when @tlb lies in a live bounce buffer (*@orig is then the
 * original of @tlb); false when @tlb is not in the pool (*@in_pool false:
 * a direct mapping) or is not a usable bounce address (reported).
 */
static bool bounce_lookup(struct dmaemu_machine *m, struct device *dev,
			  uint64_t tlb, size_t *size, bool unmap,
			  uint64_t *orig, bool *in_pool)
{
	struct dmaemu__swiotlb *s =
		__atomic_load_n(&m->swiotlb, __ATOMIC_ACQUIRE);
	unsigned long start;
	const char *bad = NULL;
	uint64_t off, msize;
	long index;
	bool ok = false;

	*in_pool = false;
	if (!s)
		return false;
	dmaemu__lock(&s->lock);
	index = s->nslots ? slot_of(s, tlb) : -1;
	if (index < 0) {
		dmaemu__unlock(&s->lock);
		return false;
	}
	*in_pool = true;
	if (s->orig[index] == INVALID_PHYS) {
		bad = "address in the bounce pool that is not mapped";
		goto out;
	}
	start = (unsigned long)index - s->pos[index];
	msize = s->size[start];
	/* Bytes of the mapping before @tlb. */
	off = ((uint64_t)s->pos[index] << IO_TLB_SHIFT) +
	      (tlb & (IO_TLB_SIZE - 1));
	if (unmap && off) {
		bad = "unmap of an address inside a bounce buffer, not its "
		      "start";
		goto out;
	}
	if (off >= msize) {
		bad = "address past the end of its bounce buffer";
		goto out;
	}
	if (*size > msize - off) {
		bad = unmap ? "unmap with a size larger than the mapping's; "
			      "the mapping's is used"
			    : "sync beyond the end of the bounce buffer; "
			      "clipped to the mapping";
		*size = (size_t)(msize - off);
	} else if (unmap && *size != msize) {
		bad = "unmap with a size smaller than the mapping's; the "
		      "mapping is released whole";
	}
	*orig = s->orig[index] + (tlb & (IO_TLB_SIZE - 1));
	ok = true;
out:
	dmaemu__unlock(&s->lock);
	if (bad)
		report_bad(m, dev, tlb, *size, bad);
	return ok;
}

static dma_addr_t swiotlb_map(struct dmaemu_machine *m, struct device *dev,
			      uint64_t phys, size_t size, int dir,
			      unsigned long attrs)
{
	uint64_t tlb;

	/* As swiotlb_map_page(): bounce only when it has to (6.12's
	 * dma_direct_map_page() also for dma_kmalloc_needs_bounce()). */
	if (!m->opt.swiotlb_force && capable(dev, phys_to_bus(m, phys), size) &&
	    !dmaemu__dma_kmalloc_needs_bounce(m, size, dir)) {
		if (!(attrs & DMA_ATTR_SKIP_CPU_SYNC))
			dmaemu__arch_sync_for_device(m, dev, phys, size, dir);
		return phys_to_bus(m, phys);
	}
	tlb = bounce_map(m, dev, phys, size, dir, attrs);
	if (tlb == INVALID_PHYS)
		return DMA_MAPPING_ERROR;
	if (!(attrs & DMA_ATTR_SKIP_CPU_SYNC))
		dmaemu__arch_sync_for_device(m, dev, tlb, size, dir);
	return phys_to_bus(m, tlb);
}

/*
 * Give [@tlb, +@size) back to the CPU, for an unmap (@unmap) or a
 * sync_for_cpu: the device's view of the bounce buffer first, as arm64's
 * __swiotlb_unmap_page() invalidates before swiotlb copies, then the copy
 * back when the device may have written.  @skip (SKIP_CPU_SYNC) does
 * neither.  Return: bounce_lookup()'s answer.
 */
static bool to_cpu(struct dmaemu_machine *m, struct device *dev, uint64_t tlb,
		   size_t size, int dir, bool skip, bool unmap)
{
	uint64_t orig = 0;
	bool in_pool;

	if (!skip && dmaemu__bank_of_phys(m, tlb, size))
		dmaemu__arch_sync_for_cpu(m, dev, tlb, size, dir);
	if (!bounce_lookup(m, dev, tlb, &size, unmap, &orig, &in_pool))
		return false;
	if (!skip && from_dev(dir)) {
		bounce(m, orig, tlb, size);
		count_bounce(m, dev, size);
	}
	return true;
}

/* Unmap one bounce buffer or direct mapping at bus address @addr. */
static void unmap_one(struct dmaemu_machine *m, struct device *dev,
		      dma_addr_t addr, size_t size, int dir,
		      unsigned long attrs)
{
	uint64_t tlb = bus_to_phys(m, addr);

	if (to_cpu(m, dev, tlb, size, dir, attrs & DMA_ATTR_SKIP_CPU_SYNC,
		   true))
		slots_release(m, tlb);
}

static void swiotlb_unmap(struct dmaemu_machine *m, struct device *dev,
			  dma_addr_t addr, uint64_t phys, size_t size, int dir,
			  unsigned long attrs)
{
	unmap_one(m, dev, addr, size, dir, attrs);
}

static void swiotlb_sync_for_cpu(struct dmaemu_machine *m, struct device *dev,
				 dma_addr_t map_addr, uint64_t map_phys,
				 dma_addr_t addr, size_t size, int dir)
{
	to_cpu(m, dev, bus_to_phys(m, addr), size, dir, false, false);
}

static void swiotlb_sync_for_device(struct dmaemu_machine *m,
				    struct device *dev, dma_addr_t map_addr,
				    uint64_t map_phys, dma_addr_t addr,
				    size_t size, int dir)
{
	uint64_t tlb = bus_to_phys(m, addr), orig = 0;
	bool in_pool;

	if (bounce_lookup(m, dev, tlb, &size, false, &orig, &in_pool) &&
	    to_dev(dir)) {
		bounce(m, tlb, orig, size);
		count_bounce(m, dev, size);
		unfilled_set(m, tlb, size, false);
	}
	if (dmaemu__bank_of_phys(m, tlb, size))
		dmaemu__arch_sync_for_device(m, dev, tlb, size, dir);
}

static void swiotlb_unmap_sg(struct dmaemu_machine *m, struct device *dev,
			     struct scatterlist *sgl, int nents, int dir,
			     unsigned long attrs)
{
	struct scatterlist *sg;
	int i;

	for_each_sg (sgl, sg, nents, i)
		unmap_one(m, dev, sg->dma_address, sg->dma_length, dir, attrs);
}

/*
 * As swiotlb_map_sg_attrs(): each entry is bounced when forced or out of
 * the device's reach, else mapped directly; a failure unmaps the entries
 * done so far without copying back and returns 0.
 */
static int swiotlb_map_sg(struct dmaemu_machine *m, struct device *dev,
			  struct scatterlist *sgl, int nents, int dir,
			  unsigned long attrs)
{
	struct scatterlist *sg;
	int i;

	for_each_sg (sgl, sg, nents, i) {
		uint64_t phys = sg_phys(sg), dev_phys = phys;

		if (m->opt.swiotlb_force ||
		    !capable(dev, phys_to_bus(m, phys), sg->length) ||
		    dmaemu__dma_kmalloc_needs_bounce(m, sg->length, dir)) {
			dev_phys = bounce_map(m, dev, phys, sg->length, dir,
					      attrs);
			if (dev_phys == INVALID_PHYS) {
				swiotlb_unmap_sg(
					m, dev, sgl, i, dir,
					attrs | DMA_ATTR_SKIP_CPU_SYNC);
				sgl->dma_length = 0;
				return 0;
			}
		}
		sg->dma_address = phys_to_bus(m, dev_phys);
		sg->dma_length = sg->length;
		if (!(attrs & DMA_ATTR_SKIP_CPU_SYNC))
			dmaemu__arch_sync_for_device(m, dev, dev_phys,
						     sg->length, dir);
	}
	return nents;
}

/*
 * No resource ops: MMIO is never bounced, so the dispatcher never gives a
 * resource to this backend.
 */
const struct dmaemu__dma_ops dmaemu__swiotlb_ops = {
	.id = {.name = "swiotlb"},
	.bounces = true,
	.map = swiotlb_map,
	.unmap = swiotlb_unmap,
	.sync_for_cpu = swiotlb_sync_for_cpu,
	.sync_for_device = swiotlb_sync_for_device,
	.map_sg = swiotlb_map_sg,
	.unmap_sg = swiotlb_unmap_sg,
};

/* ---------------------------------------------------------------------- */
/* Introspection and teardown                                             */
/* ---------------------------------------------------------------------- */

/**
 * dmaemu__swiotlb_info() - the state of @m's bounce pool.
 * @m:  machine.
 * @st: filled in (all zero before the pool is made).
 */
void dmaemu__swiotlb_info(struct dmaemu_machine *m,
			  struct dmaemu__swiotlb_stats *st)
{
	struct dmaemu__swiotlb *s =
		__atomic_load_n(&m->swiotlb, __ATOMIC_ACQUIRE);

	memset(st, 0, sizeof(*st));
	if (!s)
		return;
	dmaemu__lock(&s->lock);
	st->nslots = s->nslots;
	st->used = s->used;
	st->maps = s->maps;
	st->fulls = s->fulls;
	st->bounced = s->bounced;
	st->nchunks = s->nchunks;
	st->start = s->nchunks ? s->chunk[0].phys : 0;
	dmaemu__unlock(&s->lock);
}

/**
 * dmaemu__swiotlb_orig() - the original of a bounce-buffer address.
 * @m:   machine.
 * @tlb: physical address in the pool.
 * Return: the original physical address, or UINT64_MAX when @tlb is not in
 * a live bounce buffer.
 */
uint64_t dmaemu__swiotlb_orig(struct dmaemu_machine *m, uint64_t tlb)
{
	struct dmaemu__swiotlb *s =
		__atomic_load_n(&m->swiotlb, __ATOMIC_ACQUIRE);
	uint64_t r = INVALID_PHYS;
	long index;

	if (!s)
		return r;
	dmaemu__lock(&s->lock);
	index = s->nslots ? slot_of(s, tlb) : -1;
	if (index >= 0 && s->orig[index] != INVALID_PHYS)
		r = s->orig[index] + (tlb & (IO_TLB_SIZE - 1));
	dmaemu__unlock(&s->lock);
	return r;
}

/**
 * dmaemu__swiotlb_fini() - free @m's pool (machine destroy, before the
 * page allocator goes).
 */
void dmaemu__swiotlb_fini(struct dmaemu_machine *m)
{
	struct dmaemu__swiotlb *s = m->swiotlb;

	if (!s)
		return;
	pool_free(m, s);
	pthread_mutex_destroy(&s->lock);
	dmaemu__free(s);
	m->swiotlb = NULL;
}
