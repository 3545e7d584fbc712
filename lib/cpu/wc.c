// SPDX-License-Identifier: MIT
/*
 * wc.c - write-combining buffers.
 *
 * How it works.  A write-combining CPU mapping (DMA_ATTR_WRITE_COMBINE)
 * does not send each store to memory: stores to one aligned chunk gather
 * in a buffer, which drains when a barrier (wmb, mb, dma_wmb; writel on
 * arm) asks for it or when the buffer is needed for another chunk.  Until
 * then the device does not see the bytes.
 *
 * The WC alias is a second host mapping of MEM, so the CPU's store lands
 * in MEM at once.  To keep it invisible to devices, the store hook runs
 * before the store and saves, per byte, what MEM held ("what the device
 * still sees"); the device side asks for that view:
 *
 *   buffer (opt.wc_size bytes, one aligned chunk)
 *   chunk    | phys of the chunk
 *   pending  | 0 0 1 1 1 1 0 0 ...   bytes stored, not yet drained
 *   old      | . . a b c d . .       MEM before the CPU's store
 *   captured | 0 0 0 0 1 1 0 0 ...   pending bytes a device wrote over
 *   val      | . . . . x y . .       the CPU's values of those bytes
 *
 *   device read   MEM, with pending (not captured) bytes replaced by old
 *   device write  first captures the CPU's pending bytes into val, then
 *                 MEM takes the device's data; the drain writes val back,
 *                 so the CPU's bytes land after the device's, as a buffer
 *                 draining later would
 *   CPU read      MEM: the CPU sees its own pending bytes (store
 *                 forwarding); after a device wrote over pending bytes it
 *                 sees the device's data until the drain
 *   drain         captured bytes: MEM = val; then the buffer is free
 *
 * With every buffer in use, a store to a new chunk drains the oldest one
 * (in the order buffers were taken).  opt.wc_buffers and opt.wc_size set
 * the count and size.
 *
 * Locking.  The buffers are under m->wc_lock (order 5), which nests inside
 * the stripe locks (order 4) of the bytes of MEM being read or written:
 * the store hook holds the stripe of its line, the device side calls in
 * with its stripes held.  A drain that writes captured bytes needs their
 * stripes too; when it does not hold them, everything is released and
 * retaken with the larger set (rare: only after a device wrote over
 * pending bytes).  The count of buffers in use is also read without the
 * lock (atomics), so that a barrier with nothing pending costs one load.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu.h"

struct wc_buf {
	uint64_t chunk; /* physical address of the chunk */
	uint64_t stamp; /* when taken: the oldest drains first */
	bool used;
	bool captured_any;  /* some byte of @captured is set */
	uint8_t *old;	    /* what the device sees of pending bytes */
	uint8_t *val;	    /* the CPU's values of captured bytes */
	uint64_t *pending;  /* bit per byte of the chunk */
	uint64_t *captured; /* bit per byte: the device wrote over it */
};

/* The buffers of a machine; all fields under m->wc_lock except @used. */
struct dmaemu__wc {
	unsigned int n;	    /* buffers */
	unsigned int size;  /* bytes per buffer (a power of two) */
	unsigned int words; /* mask words per buffer */
	unsigned int used; /* buffers in use; written under the lock, atomics */
	uint64_t clock;	   /* stamps */
	uint64_t flushes;  /* drains asked by a barrier that found work */
	uint64_t evictions; /* buffers drained to make room */
	struct wc_buf buf[];
};

static inline bool bit_get(const uint64_t *m, unsigned int i)
{
	return (m[i / 64] >> (i % 64)) & 1;
}

static inline void bit_set(uint64_t *m, unsigned int i)
{
	m[i / 64] |= 1ULL << (i % 64);
}

static inline void bit_clear(uint64_t *m, unsigned int i)
{
	m[i / 64] &= ~(1ULL << (i % 64));
}

int dmaemu__wc_init(struct dmaemu_machine *m)
{
	unsigned int n = m->opt.wc_buffers, size = m->opt.wc_size, i;
	unsigned int words = (size + 63) / 64;
	size_t per = 2 * (size_t)size + 2 * words * sizeof(uint64_t);
	struct dmaemu__wc *wc;
	uint8_t *p;

	if (!n || !size || (size & (size - 1)) || size > DMAEMU__PAGE_SIZE)
		return -EINVAL;
	wc = dmaemu__calloc(1, sizeof(*wc) + n * sizeof(wc->buf[0]) + n * per);
	if (!wc)
		return -ENOMEM;
	wc->n = n;
	wc->size = size;
	wc->words = words;
	p = (uint8_t *)&wc->buf[n];
	for (i = 0; i < n; i++) {
		struct wc_buf *b = &wc->buf[i];

		b->pending = (uint64_t *)p;
		b->captured = b->pending + words;
		b->old = (uint8_t *)(b->captured + words);
		b->val = b->old + size;
		p += per;
	}
	dmaemu__vg_atomic(&wc->used, sizeof(wc->used));
	m->wc = wc;
	return 0;
}

void dmaemu__wc_fini(struct dmaemu_machine *m)
{
	dmaemu__free(m->wc);
	m->wc = NULL;
}

static unsigned int stripe_index(struct dmaemu_machine *m, uint64_t phys)
{
	return (unsigned int)(dmaemu__stripe_of(m, phys) - m->stripe);
}

static void lock_stripes(struct dmaemu_machine *m, uint64_t set)
{
	unsigned int i;

	for (i = 0; i < DMAEMU__NSTRIPES; i++)
		if ((set >> i) & 1)
			dmaemu__lock(&m->stripe[i]);
}

static void unlock_stripes(struct dmaemu_machine *m, uint64_t set)
{
	unsigned int i = DMAEMU__NSTRIPES;

	while (i-- > 0)
		if ((set >> i) & 1)
			dmaemu__unlock(&m->stripe[i]);
}

/* The stripes a drain of @b writes (a chunk never crosses a page). */
static uint64_t drain_needs(struct dmaemu_machine *m, const struct wc_buf *b)
{
	return b->captured_any ? 1ULL << stripe_index(m, b->chunk) : 0;
}

/* Drain @b: captured bytes land in MEM; the buffer is free again.  Holds
 * wc_lock and drain_needs(b). */
static void drain(struct dmaemu_machine *m, struct wc_buf *b)
{
	struct dmaemu__wc *wc = m->wc;
	unsigned int i;

	if (b->captured_any) {
		uint8_t *mem = dmaemu__phys_mem(m, b->chunk);

		for (i = 0; i < wc->size; i++)
			if (bit_get(b->captured, i))
				mem[i] = b->val[i];
		dmaemu__mem_changed();
	}
	memset(b->pending, 0, wc->words * sizeof(uint64_t));
	memset(b->captured, 0, wc->words * sizeof(uint64_t));
	b->captured_any = false;
	b->used = false;
	__atomic_store_n(&wc->used, wc->used - 1, __ATOMIC_RELAXED);
}

static struct wc_buf *find(struct dmaemu__wc *wc, uint64_t chunk)
{
	unsigned int i;

	for (i = 0; i < wc->n; i++)
		if (wc->buf[i].used && wc->buf[i].chunk == chunk)
			return &wc->buf[i];
	return NULL;
}

/*
 * Record the CPU's store of [@phys, @phys + @len) (inside one line), with
 * wc_lock and the stripes @held.  Return: 0 when done, or stripes that a
 * drain needs and that are not held (nothing was left half done: recording
 * a byte twice keeps its first old value, the store has not happened yet).
 */
static uint64_t record(struct dmaemu_machine *m, uint64_t phys, size_t len,
		       uint64_t held)
{
	struct dmaemu__wc *wc = m->wc;
	uint64_t cmask = (uint64_t)wc->size - 1, end = phys + len, p = phys;

	while (p < end) {
		uint64_t chunk = p & ~cmask, stop = chunk + wc->size, req;
		struct wc_buf *b = find(wc, chunk), *victim = NULL;
		const uint8_t *mem;
		unsigned int i;

		if (!b) {
			for (i = 0; i < wc->n; i++) {
				struct wc_buf *c = &wc->buf[i];

				if (!c->used) {
					victim = c;
					break;
				}
				if (!victim || c->stamp < victim->stamp)
					victim = c;
			}
			if (victim->used) {
				req = drain_needs(m, victim);
				if (req & ~held)
					return req & ~held;
				drain(m, victim);
				wc->evictions++;
			}
			b = victim;
			b->chunk = chunk;
			b->stamp = ++wc->clock;
			b->used = true;
			__atomic_store_n(&wc->used, wc->used + 1,
					 __ATOMIC_RELAXED);
		}
		if (stop > end)
			stop = end;
		mem = dmaemu__phys_mem(m, p);
		for (; p < stop; p++, mem++) {
			i = (unsigned int)(p - chunk);
			if (!bit_get(b->pending, i)) {
				b->old[i] = *mem;
				bit_set(b->pending, i);
			} else if (bit_get(b->captured, i)) {
				/* The device's data is what it sees now. */
				b->old[i] = *mem;
				bit_clear(b->captured, i);
			}
		}
	}
	return 0;
}

void dmaemu__wc_store(struct dmaemu_machine *m, uint64_t phys, size_t len)
{
	uint64_t held = 1ULL << stripe_index(m, phys), more;

	do {
		lock_stripes(m, held);
		dmaemu__lock(&m->wc_lock);
		more = record(m, phys, len, held);
		dmaemu__unlock(&m->wc_lock);
		unlock_stripes(m, held);
		held |= more;
	} while (more);
}

void dmaemu__wc_flush(struct dmaemu_machine *m)
{
	struct dmaemu__wc *wc = m->wc;
	uint64_t held = 0, req;
	unsigned int i;

	if (!__atomic_load_n(&wc->used, __ATOMIC_RELAXED))
		return;
	for (;;) {
		lock_stripes(m, held);
		dmaemu__lock(&m->wc_lock);
		req = 0;
		for (i = 0; i < wc->n; i++)
			if (wc->buf[i].used)
				req |= drain_needs(m, &wc->buf[i]);
		if (!(req & ~held))
			break;
		dmaemu__unlock(&m->wc_lock);
		unlock_stripes(m, held);
		held |= req;
	}
	if (wc->used)
		wc->flushes++;
	for (i = 0; i < wc->n; i++)
		if (wc->buf[i].used)
			drain(m, &wc->buf[i]);
	dmaemu__unlock(&m->wc_lock);
	unlock_stripes(m, held);
}

/*
 * Call @fn on every byte of [@phys, @phys + @len) that lies in a used
 * buffer (wc_lock held); @fn returns whether the byte counts.
 */
static size_t for_each_byte(struct dmaemu_machine *m, uint64_t phys, size_t len,
			    bool (*fn)(struct dmaemu_machine *m,
				       struct wc_buf *b, unsigned int i,
				       size_t at, void *arg),
			    void *arg)
{
	struct dmaemu__wc *wc = m->wc;
	size_t n = 0;
	unsigned int i;

	for (i = 0; i < wc->n; i++) {
		struct wc_buf *b = &wc->buf[i];
		uint64_t lo, hi, p;

		if (!b->used)
			continue;
		lo = b->chunk > phys ? b->chunk : phys;
		hi = b->chunk + wc->size < phys + len ? b->chunk + wc->size
						      : phys + len;
		for (p = lo; p < hi; p++)
			if (fn(m, b, (unsigned int)(p - b->chunk),
			       (size_t)(p - phys), arg))
				n++;
	}
	return n;
}

static bool view_byte(struct dmaemu_machine *m, struct wc_buf *b,
		      unsigned int i, size_t at, void *arg)
{
	uint8_t *buf = arg;

	(void)m;
	if (!bit_get(b->pending, i) || bit_get(b->captured, i))
		return false;
	buf[at] = b->old[i];
	return true;
}

static bool write_byte(struct dmaemu_machine *m, struct wc_buf *b,
		       unsigned int i, size_t at, void *arg)
{
	(void)at;
	(void)arg;
	if (!bit_get(b->pending, i))
		return false;
	if (!bit_get(b->captured, i)) {
		b->val[i] = *dmaemu__phys_dev_mem(m, b->chunk + i);
		bit_set(b->captured, i);
		b->captured_any = true;
	}
	return true;
}

static bool pending_byte(struct dmaemu_machine *m, struct wc_buf *b,
			 unsigned int i, size_t at, void *arg)
{
	(void)m;
	(void)at;
	(void)arg;
	return bit_get(b->pending, i);
}

static size_t walk(struct dmaemu_machine *m, uint64_t phys, size_t len,
		   bool (*fn)(struct dmaemu_machine *m, struct wc_buf *b,
			      unsigned int i, size_t at, void *arg),
		   void *arg)
{
	size_t n;

	if (!len || !__atomic_load_n(&m->wc->used, __ATOMIC_RELAXED))
		return 0;
	dmaemu__lock(&m->wc_lock);
	n = for_each_byte(m, phys, len, fn, arg);
	dmaemu__unlock(&m->wc_lock);
	return n;
}

size_t dmaemu__wc_device_view(struct dmaemu_machine *m, uint64_t phys,
			      void *buf, size_t len)
{
	return walk(m, phys, len, view_byte, buf);
}

size_t dmaemu__wc_device_write(struct dmaemu_machine *m, uint64_t phys,
			       size_t len)
{
	return walk(m, phys, len, write_byte, NULL);
}

size_t dmaemu__wc_pending(struct dmaemu_machine *m, uint64_t phys, size_t len)
{
	return walk(m, phys, len, pending_byte, NULL);
}

size_t dmaemu__wc_buffers(struct dmaemu_machine *m, uint64_t *chunk,
			  unsigned int *pending, size_t max)
{
	size_t n = 0;
	unsigned int i, j;

	dmaemu__lock(&m->wc_lock);
	for (i = 0; i < m->wc->n; i++) {
		struct wc_buf *b = &m->wc->buf[i];
		unsigned int bytes = 0;

		if (!b->used)
			continue;
		for (j = 0; j < m->wc->words; j++)
			bytes += (unsigned int)__builtin_popcountll(
				b->pending[j]);
		if (n < max) {
			chunk[n] = b->chunk;
			pending[n] = bytes;
		}
		n++;
	}
	dmaemu__unlock(&m->wc_lock);
	return n;
}

void dmaemu__wc_stats(struct dmaemu_machine *m, uint64_t *flushes,
		      uint64_t *evictions)
{
	dmaemu__lock(&m->wc_lock);
	*flushes = m->wc->flushes;
	*evictions = m->wc->evictions;
	dmaemu__unlock(&m->wc_lock);
}
