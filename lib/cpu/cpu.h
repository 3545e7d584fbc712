/* SPDX-License-Identifier: MIT */
/*
 * cpu.h - the CPU layer of lib/: how CPU accesses reach the model
 * (instrumentation hooks, the cache access path, write-combining buffers,
 * prefetch, MMIO accessors).
 *
 *   kasan.c      Clang's hooks (__asan_load4_noabort, ...): range check,
 *                then the fast path below, then dmaemu__cpu_slow()
 *   tsan.c       GCC's hooks (__tsan_read4, __tsan_write4, the atomics),
 *                the same way
 *   memintrin.c  memcpy/memset/memmove/memcmp of instrumented code
 *   cpu.c        the access path: classification, cache model, stale
 *                reads, statistics, explicit accessors, MMIO accessors
 *   wc.c         write-combining buffers
 *   prefetch.c   speculative fills of device-owned lines
 *   order.c      ordering between CPU contexts and devices on coherent
 *                memory (missing-write-barrier, missing-read-barrier)
 *   owncheck.c   the ownership check of CPU accesses (the coherence
 *                sanitizer's CPU side) and the repeat summary its reports
 *                share with the device side
 */
#ifndef DMAEMU_LIB_CPU_H
#define DMAEMU_LIB_CPU_H

#include "dmaemu/cpu.h"
#include "mem/mem.h"

/* cpu.c / wc.c: called by machine create/destroy. */
int dmaemu__cpu_init(struct dmaemu_machine *m);
void dmaemu__cpu_fini(struct dmaemu_machine *m);
int dmaemu__wc_init(struct dmaemu_machine *m);
void dmaemu__wc_fini(struct dmaemu_machine *m);

/* ---------------------------------------------------------------------- */
/* The access path (cpu.c)                                                */
/* ---------------------------------------------------------------------- */

/*
 * The fast-path table: the lines one thread touched last through the
 * model, direct-mapped by host line address.  A driver loop that updates
 * fields of a few structs and walks a ring or two touches a handful of
 * lines over and over; each needs its own entry, or every access of the
 * loop would find its line replaced by the previous one.
 */
#define DMAEMU__FAST_LINES 512 /* entries, a power of two */
#define DMAEMU__FAST_DIRTY 1u  /* tag bit: the model holds the line dirty */

/*
 * Fast-path state of one thread for one machine (struct dmaemu__cpu's
 * list; freed with the machine).
 *
 * @ent[i].tag is the host address of a line (linear map or vmalloc view)
 * the thread may access without the slow path, with DMAEMU__FAST_DIRTY
 * when stores may too, or 0.  An entry is valid while dmaemu__mem_gen
 * equals the generation it was made in (@ent[i].gen): every event that can
 * make many entries wrong bumps it, and none needs clearing.  512 entries
 * are as many lines as the default model cache holds: a loop over a
 * buffer that fits the model runs on the fast path after its first pass.  A line the cache model evicts is
 * dropped from every thread's table by the thread evicting it
 * (dmaemu__cpu_evicted(), cache lock held), so that a miss, the commonest
 * such event, leaves the other entries alone.  The tags are read by their
 * thread without a lock and written under the cache lock: atomics only.
 *
 * Replacement order: a fast hit does not update the model's LRU or PLRU
 * state.  Each hit on a line other than the one touched last stamps its
 * entry with the thread's clock and, at the first such hit since the last
 * replay, queues it in @pend; the thread's next slow-path visit (cache
 * lock held, before the model is used) touches the queued lines in the
 * order of their last hit (cachesim_touch()), which is all LRU and PLRU
 * depend on, so the victims are those of a model told of every access.
 * @lp, @stamp, @pend, @npend, @clock, @replayed, @aliases: the owner's
 * only (under the cache lock, but for the stamps and the queue, which only
 * the owner's fast path and slow path touch).
 */
struct dmaemu__tstats {
	uint64_t load_hits;  /* cacheable loads that hit a fast-path line */
	uint64_t store_hits; /* cacheable stores that hit one (line dirty) */
	uint64_t uncached;   /* accesses through the uncached alias */
	struct {
		uintptr_t tag;
		uint64_t gen;
	} ent[DMAEMU__FAST_LINES];
	pthread_t owner; /* the thread counting here */
	struct dmaemu__tstats *next;
	uint64_t lp[DMAEMU__FAST_LINES];    /* each entry's physical line */
	uint64_t stamp[DMAEMU__FAST_LINES]; /* its last hit (@clock) */
	uint16_t pend[DMAEMU__FAST_LINES];  /* entries hit since the replay */
	unsigned int npend;
	uint64_t clock, replayed; /* hits stamped; stamp of the last replay */
	/* An entry of generation @alias_gen is a vmalloc view's: evictions
	 * search the table for it (0: none). */
	uint64_t alias_gen;
};

/*
 * One thread's fast-path entries.  @ts: the table and counters of machine
 * @ts_id, valid (and @ts dereferenced by the fast path) only while
 * dmaemu__mem_gen == @gen, the generation of the last entry made: a
 * machine going away bumps it.  @shift: that
 * machine's line size, log2.  @mru: the entry touched last (a hit there
 * changes no replacement order), DMAEMU__FAST_LINES for none.  @unc: the
 * uncached view of the last bank touched.  @pf_left: accesses until the
 * next prefetch chance (UINT64_MAX: prefetch off).
 */
struct dmaemu__cpu_tls {
	uint64_t gen;
	unsigned int shift, mru;
	uintptr_t unc, unc_len;
	uint64_t unc_gen;
	uint64_t pf_left;
	struct dmaemu__tstats *ts; /* counters for machine @ts_id */
	uint64_t ts_id;
};
extern __thread struct dmaemu__cpu_tls dmaemu__tls
	__attribute__((tls_model("initial-exec"), visibility("hidden")));

/* A fast hit on entry @i of @ts that is not the last one touched: stamp
 * it, and queue it for the replay at its first such hit. */
static inline __attribute__((always_inline)) void dmaemu__fast_stamp(
	struct dmaemu__cpu_tls *t, struct dmaemu__tstats *ts, unsigned int i)
{
	t->mru = i;
	if (ts->stamp[i] <= ts->replayed)
		ts->pend[ts->npend++] = (uint16_t)i;
	ts->stamp[i] = ++ts->clock;
}

/*
 * The lock-free part of an access of @size bytes at @addr.  Return: true
 * when the access was fully handled (a hit on a line of the thread's
 * table or the uncached view); false when dmaemu__cpu_slow() must run.
 */
static inline __attribute__((always_inline)) bool dmaemu__cpu_fast(
	uintptr_t addr, size_t size, bool store)
{
	struct dmaemu__cpu_tls *t = &dmaemu__tls;
	uint64_t gen = __atomic_load_n(&dmaemu__mem_gen, __ATOMIC_ACQUIRE);
	uintptr_t off;

	if (t->pf_left <= 1)
		return false;
	if (gen == t->gen) {
		struct dmaemu__tstats *ts = t->ts;
		unsigned int i = (unsigned int)(addr >> t->shift) &
				 (DMAEMU__FAST_LINES - 1);
		uintptr_t tag =
			__atomic_load_n(&ts->ent[i].tag, __ATOMIC_RELAXED);
		uintptr_t len = (uintptr_t)1 << t->shift;

		off = addr - (tag & ~(uintptr_t)DMAEMU__FAST_DIRTY);
		if (off < len && size <= len - off &&
		    __atomic_load_n(&ts->ent[i].gen, __ATOMIC_RELAXED) == gen &&
		    (!store || (tag & DMAEMU__FAST_DIRTY))) {
			t->pf_left--;
			if (i != t->mru)
				dmaemu__fast_stamp(t, ts, i);
			dmaemu__count(store ? &ts->store_hits : &ts->load_hits);
			return true;
		}
	}
	off = addr - t->unc;
	if (off < t->unc_len && size <= t->unc_len - off && gen == t->unc_gen) {
		t->pf_left--;
		dmaemu__count(&t->ts->uncached);
		return true;
	}
	return false;
}

/* The model evicted the line at physical @lp of @m: no thread's fast path
 * may hit it any longer.  Cache lock held. */
void dmaemu__cpu_evicted(struct dmaemu_machine *m, uint64_t lp);
/* Register the cache model's eviction hook of @m: the fast paths forget
 * the line, then dmaemu__evict_hook() (lineops.c) writes it back. */
void dmaemu__cpu_set_evict_hook(struct dmaemu_machine *m);

/*
 * Everything else: classify @addr, drive the model, report.  @site: the
 * return address of the entry point driver code called, or NULL for an
 * access the library makes itself.  A non-NULL @site is the access site
 * (core.h) while the access is handled: every report made meanwhile, by
 * any check on this path, names that line with no more work, so checks of
 * CPU accesses that report belong here (and in dmaemu__cpu_range_at()),
 * never in the fast path.
 */
/*
 * dmaemu_cpu_read() (@write false) or dmaemu_cpu_write() for the library
 * acting for driver code (the network stack reading a frame the driver
 * passed up): the reports name @site, the driver's return address.
 */
int dmaemu__cpu_copy(void *dst, const void *src, size_t len, bool write,
		     const void *site);
void dmaemu__cpu_slow(uintptr_t addr, size_t size, bool store,
		      const void *site);

/*
 * The hook every instrumented access runs before it touches memory.  It
 * is always inlined, into the entry point driver code called (kasan.c's
 * and tsan.c's hooks, the explicit accessors), whose return address is
 * the access site.  That address is taken on the slow path only: as an argument,
 * GCC would load it at the entry of every hook, on the host-memory path
 * too.
 */
static inline __attribute__((always_inline)) void dmaemu__cpu_hook(
	uintptr_t addr, size_t size, bool store)
{
	if (__builtin_expect(!dmaemu__in_span((const void *)addr), 1))
		return;
	if (dmaemu__cpu_fast(addr, size, store))
		return;
	dmaemu__cpu_slow(addr, size, store, __builtin_return_address(0));
}

/* A range of any length (mem* functions, explicit accessors), made by
 * driver code at @site, or by the library (dmaemu__cpu_range()). */
void dmaemu__cpu_range_at(const void *addr, size_t len, bool store,
			  const void *site);
static inline void dmaemu__cpu_range(const void *addr, size_t len, bool store)
{
	dmaemu__cpu_range_at(addr, len, store, NULL);
}

/*
 * The kernel's own copy of @len bytes from @src to @dst, made inside a DMA
 * API call (swiotlb's bounce): the cache model sees its loads and stores
 * as any CPU copy's, but the ownership check does not run: the copy is
 * what the API call does with the buffer, never the driver's access, and
 * the call's own checks judge the hand-over.  Any other report it makes
 * names the API call's caller, the driver's line.
 */
void dmaemu__cpu_kernel_copy(void *dst, const void *src, size_t len);

/*
 * dmaemu_cpu_read() (@write false) or dmaemu_cpu_write() for a library
 * function that copies on the driver's behalf (sg_copy_to_buffer()):
 * reports name @site, the driver's call, not the library's.
 */
int dmaemu__cpu_copy_at(void *dst, const void *src, size_t len, bool write,
			const void *site);

/* Is the line holding @phys resident in some level of the model?  Takes
 * the cache lock. */
bool dmaemu__cpu_resident(struct dmaemu_machine *m, uint64_t phys);
/* Does a level of the cache model hold the line of @phys dirty?  Only an
 * access through the hooks makes it so: a CPU-dirty byte of a line the
 * model holds clean (or not at all) was stored by uninstrumented code. */
bool dmaemu__cpu_model_dirty(struct dmaemu_machine *m, uint64_t phys);

/*
 * State of the CPU side of a machine (m->cpu).  Counters are updated with
 * atomics (several paths run without the cache lock); the lists say which
 * lock protects them.
 */
#define DMAEMU__NVERIFIED 1024
struct dmaemu__mmio_map;
struct dmaemu__pf_range;
struct dmaemu__order;
struct dmaemu__cpu {
	uint64_t id; /* process-unique, never reused (fast-path entries) */

	/* Slow-path counters (atomics). */
	uint64_t fills;	       /* lines filled by CPU accesses */
	uint64_t stale_reads;  /* loads that read device-changed bytes */
	uint64_t uncached;     /* slow-path uncached accesses */
	uint64_t wc_loads;     /* loads through the write-combining alias */
	uint64_t wc_stores;    /* stores through the write-combining alias */
	uint64_t bad_accesses; /* NOMAP and plain MMIO accesses */
	uint64_t prefetches;   /* lines filled by the prefetcher */

	struct dmaemu__tstats *tstats; /* per-thread counters; cache_lock */

	/*
	 * Lines found resident without device-changed bytes, with the data
	 * generation of that check: while it has not moved, a hit on such a
	 * line needs no look at the data.  Direct-mapped by line number;
	 * under cache_lock.
	 */
	struct {
		uint64_t line; /* line address + 1; 0 = empty */
		uint64_t dgen;
	} verified[DMAEMU__NVERIFIED];

	/* Prefetch (prefetch.c); all under cache_lock. */
	struct dmaemu__pf_range *pf;
	size_t pf_n, pf_cap;
	uint64_t pf_lines; /* lines in all registered ranges */
	uint64_t pf_rng;   /* xorshift64* state, seeded by opt.seed */
	uint64_t pf_last;  /* physical address of the last line filled */

	/* MMIO cookies (dmaemu__mmio_map()); under m->lock. */
	struct dmaemu__mmio_map *mmio;

	/* The sanitizer's repeat summary (owncheck.c), its own lock. */
	struct dmaemu__owncheck *own;

	/* Ordering on coherent memory (order.c), its own lock; NULL with
	 * ordering=strong. */
	struct dmaemu__order *order;
};

/* ---------------------------------------------------------------------- */
/* Ownership checks and the repeat summary (owncheck.c)                   */
/* ---------------------------------------------------------------------- */

/*
 * What one CPU access (a hook's, or a whole mem* range) touched of lines
 * the device owns, gathered by the slow path line by line and reported
 * once at the end of the access (dmaemu__own_flush()), when no lock is
 * held.  Runs of physical bytes; a run that cannot be merged into the
 * last one when all are taken flushes early.
 */
#define DMAEMU__OWN_RUNS 8
struct dmaemu__own_acc {
	struct dmaemu_machine *m;
	unsigned int n;	   /* runs in use; 0 = nothing to report */
	bool store, stale; /* a store; a stale read was reported */
	bool kernel;	   /* the kernel's own copy: no ownership check */
	uintptr_t host;	   /* the access: its first byte, set by the caller */
	size_t len;	   /* and its length */
	uint64_t oseq;	   /* its clock for the ordering checks (0: none yet) */
	/* A stale read found under the model's locks, reported once they
	 * are released (so that the report can name the mapping). */
	bool stale_due;
	uint64_t stale_lp, stale_phys;
	size_t stale_len;
	uint64_t stale_mask[DMAEMU__MASK_WORDS];
	/* The first stale bytes, as the CPU read them and as memory holds
	 * them, from the first stale byte on (to the end of the line). */
	uint8_t stale_val[2][DMAEMU__REPORT_VALS];
	struct {
		uint64_t lo, hi;
	} run[DMAEMU__OWN_RUNS];
};

void dmaemu__own_note(struct dmaemu__own_acc *acc, struct dmaemu_machine *m,
		      uint64_t phys, size_t len, bool store);
/*
 * The slow path's check of @len bytes at @phys (one line) whose ownership
 * byte is @own: notes the bytes in @acc when the device owns the line and
 * the access is not a harmless load.
 */
static inline void dmaemu__own_check(struct dmaemu__own_acc *acc,
				     struct dmaemu_machine *m, uint64_t phys,
				     size_t len, bool store, uint8_t own)
{
	if (__builtin_expect(!(own & DMAEMU__OWN_DEVICE), 1))
		return;
	if (!store && (own & DMAEMU__OWN_READ_OK))
		return;
	dmaemu__own_note(acc, m, phys, len, store);
}
/* The end of an access: report what @acc holds (no lock held). */
void dmaemu__own_flush(struct dmaemu__own_acc *acc);
/* The "fix:" of a shared-line-store report on @m, into @buf. */
void dmaemu__shared_line_fix(const struct dmaemu_machine *m, char *buf,
			     size_t len);

/*
 * The repeat summary.  dmaemu__report_first(): a report of @kind is about
 * to be made at code address @site (NULL: unknown) about the mapping at
 * bus address @dma of device @dev: true when it is the first of its key,
 * which the caller then prints; false when it is a repeat, only counted
 * (in the exit summary; with report_fold=0, machine destroy prints one
 * line per key with repeats).  Leaf lock.
 * dmaemu__access_site(): the first return address outside the library on
 * this thread's stack (the driver's or the device model's line), or NULL.
 */
bool dmaemu__report_first(struct dmaemu_machine *m,
			  enum dmaemu_report_kind kind, const void *site,
			  const char *dev, uint64_t dma);
const void *dmaemu__access_site(void);

/**
 * struct dmaemu__own_last - the last report of the ownership checks (and
 * of stale-device-read), printed or counted as a repeat; for tests.
 * @kind:    its kind.
 * @lo, @hi: the physical bytes [lo, hi) concerned (first to last).
 * @bytes:   how many of them (runs may leave gaps).
 * @lines:   cache lines they touch.
 * @dma:     bus address of the mapping named (0: none).
 * @repeat:  it was a repeat, not printed.
 */
struct dmaemu__own_last {
	enum dmaemu_report_kind kind;
	uint64_t lo, hi;
	size_t bytes;
	unsigned int lines;
	uint64_t dma;
	bool repeat;
};
void dmaemu__own_set_last(struct dmaemu_machine *m,
			  const struct dmaemu__own_last *last);
/* For tests: the last such report (-ENOENT: none yet), and the repeats of
 * @kind counted and not printed so far. */
int dmaemu__own_last(struct dmaemu_machine *m, struct dmaemu__own_last *out);
uint64_t dmaemu__own_repeats(struct dmaemu_machine *m,
			     enum dmaemu_report_kind kind);
/* The fix a report proposes for the mapping @o, written into @buf: the
 * sync that hands it to @for_cpu ? the CPU : the device. */
void dmaemu__own_sync_call(const struct dmaemu__owner_info *o, bool for_cpu,
			   char *buf, size_t len);
/* "2048 bytes, phys 0x80021000-0x800217ff, 32 lines" for a report. */
void dmaemu__own_range_text(const struct dmaemu__own_last *l, char *buf,
			    size_t len);
int dmaemu__owncheck_init(struct dmaemu_machine *m);
void dmaemu__owncheck_fini(struct dmaemu_machine *m);

/* ---------------------------------------------------------------------- */
/* MMIO cookies (cpu.c)                                                   */
/* ---------------------------------------------------------------------- */

/*
 * Register handlers of a device's register window.  @read returns the
 * value of the @size-byte (1, 2, 4, 8) register at byte offset @off;
 * @write stores @val there.  Both run without any lock of the machine
 * held.
 */
struct dmaemu__mmio_ops {
	uint64_t (*read)(void *priv, uint64_t off, unsigned int size);
	void (*write)(void *priv, uint64_t off, uint64_t val,
		      unsigned int size);
};

/*
 * dmaemu__mmio_map() - place a register window of @size bytes in the MMIO
 * window of @m.  Return: the cookie readl()/writel() take, or NULL
 * (errno ENOMEM: the window is full; EINVAL: @size is 0 or @ops has no
 * handler).
 */
void *dmaemu__mmio_map(struct dmaemu_machine *m, size_t size,
		       const struct dmaemu__mmio_ops *ops, void *priv);
/* dmaemu__mmio_unmap() - remove a window.  Return: 0, or -EINVAL when
 * @cookie is not the start of a live window of @m. */
int dmaemu__mmio_unmap(struct dmaemu_machine *m, void *cookie);
/*
 * dmaemu__mmio_write_site() - inside a window's @write handler: the code
 * address of the driver's writel() (or other register write) being
 * handled; NULL elsewhere.  What a device remembers as the driver's last
 * register write (bus/device.c), which the reports of a fault name.
 */
const void *dmaemu__mmio_write_site(void);

/* ---------------------------------------------------------------------- */
/* Write-combining buffers (wc.c)                                         */
/* ---------------------------------------------------------------------- */

/* The store hook of the WC alias: [@phys, @phys + @len) lies in one line
 * of @m and is about to be written by the CPU. */
void dmaemu__wc_store(struct dmaemu_machine *m, uint64_t phys, size_t len);
/* Drain every buffer: pending bytes become visible to devices. */
void dmaemu__wc_flush(struct dmaemu_machine *m);
/*
 * Device side, called with the stripe locks of the range held (the DMA
 * layer, around its MEM copies):
 *  - dmaemu__wc_device_view(): @buf holds what MEM has at [@phys, +@len);
 *    overwrite the bytes still pending in a buffer with what memory held
 *    before the CPU's store.  Return: the number of bytes patched (each
 *    one a pending write-combined byte read by a device).
 *  - dmaemu__wc_device_write(): the device is about to write [@phys,
 *    +@len) of MEM; pending CPU bytes there are saved so that the flush
 *    still lands them after the device's data, as a buffer draining later
 *    would.  Return: the number of pending bytes the device wrote over.
 */
size_t dmaemu__wc_device_view(struct dmaemu_machine *m, uint64_t phys,
			      void *buf, size_t len);
size_t dmaemu__wc_device_write(struct dmaemu_machine *m, uint64_t phys,
			       size_t len);
/* Buffers drained by a barrier or writel(), and drained to make room. */
void dmaemu__wc_stats(struct dmaemu_machine *m, uint64_t *flushes,
		      uint64_t *evictions);
/* Bytes of [@phys, @phys + @len) pending in write-combining buffers. */
size_t dmaemu__wc_pending(struct dmaemu_machine *m, uint64_t phys, size_t len);
/* The buffers in use: up to @max chunk addresses and pending byte counts,
 * in buffer order (the machine dump); returns how many are in use. */
size_t dmaemu__wc_buffers(struct dmaemu_machine *m, uint64_t *chunk,
			  unsigned int *pending, size_t max);

/* ---------------------------------------------------------------------- */
/* Ordering on coherent memory (order.c)                                  */
/* ---------------------------------------------------------------------- */

/* Made at machine create unless ordering=strong (then every call below
 * does nothing); _fini frees it. */
int dmaemu__order_init(struct dmaemu_machine *m);
void dmaemu__order_fini(struct dmaemu_machine *m);
/* ordering=weak: the checks run (and accesses to coherent memory take the
 * slow path). */
bool dmaemu__order_weak(const struct dmaemu_machine *m);
/* The pages of [@phys, +@len) hold a coherent or write-combining
 * allocation (@on) or no longer do: only they have records. */
void dmaemu__order_track(struct dmaemu_machine *m, uint64_t phys, uint64_t len,
			 bool on);
/* Does the page of @phys hold one?  Lock-free. */
bool dmaemu__order_tracked(struct dmaemu_machine *m, uint64_t phys);
/* A barrier of the calling thread (DMAEMU_BARRIER_* of <dmaemu/cpu.h>). */
void dmaemu__order_barrier(unsigned int kind);
/* The CPU's load or store of [@phys, +@len) of a tracked page, made by
 * driver code at @site (NULL: unknown).  @buffered: through the uncached
 * alias of arm or arm64, whose stores may drain out of order (a store
 * keeps what devices saw before it).  @seq: the access's clock, 0 until
 * its first part takes one (the parts of one memcpy() are one store).
 * No lock held. */
void dmaemu__order_cpu(struct dmaemu_machine *m, uint64_t phys, size_t len,
		       bool store, bool buffered, const void *site,
		       uint64_t *seq);
/* The calling thread wrote a register of device @dev (its doorbell). */
void dmaemu__order_doorbell(struct dmaemu_machine *m, const void *dev,
			    const void *site);
/* Device @dev (named @name) read or wrote [@phys, +@len) at bus address
 * @dma (one physically contiguous piece), whose data is at @buf.  A read
 * may get, in @buf, the old value of a word whose store has no barrier
 * before a later one the device saw, and has not drained (the seed
 * decides).  No lock held. */
void dmaemu__order_device(struct dmaemu_machine *m, const void *dev,
			  const char *name, uint64_t dma, uint64_t phys,
			  void *buf, size_t len, bool write);
/* A device is about to read or write [@phys, +@len): the words that hold
 * an old value for a CPU's load satisfied early get the device's back;
 * for a write, keep what the words hold now (what a load satisfied early
 * returns).  No lock held. */
void dmaemu__order_device_before(struct dmaemu_machine *m, uint64_t phys,
				 size_t len, bool write);
/* The words of the calling thread's last load of coherent memory that
 * were satisfied early (arm, arm64: a missing-read-barrier finding and the
 * seed's choice), with what they return: the value before the device's
 * last write.  A load through an accessor of the library clears it
 * (n = 0) before its hook, and after copying the data puts the old
 * values into @buf, the data of [@phys, +@len), with _fix (which clears
 * it again).  A plain load cannot be changed: its words stay here until
 * the next load. */
#define DMAEMU__ORDER_STALE_MAX 16
struct dmaemu__order_stale {
	unsigned int n;
	uint64_t phys[DMAEMU__ORDER_STALE_MAX];
	uint32_t old[DMAEMU__ORDER_STALE_MAX];
};
extern __thread struct dmaemu__order_stale dmaemu__order_stale
	__attribute__((tls_model("initial-exec")));
void dmaemu__order_stale_fix(uint64_t phys, void *buf, size_t len);
/* The same for a load of the host range at @src, whose data is in @buf
 * (cpu.c: classifies @src); nothing when no word was early. */
void dmaemu__cpu_stale_fix_slow(const void *src, void *buf, size_t len);
static inline void dmaemu__cpu_stale_fix(const void *src, void *buf, size_t len)
{
	if (__builtin_expect(dmaemu__order_stale.n != 0, 0))
		dmaemu__cpu_stale_fix_slow(src, buf, len);
}
/* Device @dev is going away: forget what it saw. */
void dmaemu__order_forget_device(struct dmaemu_machine *m, const void *dev);

/* ---------------------------------------------------------------------- */
/* Prefetch (prefetch.c)                                                  */
/* ---------------------------------------------------------------------- */

/*
 * Ranges the prefetcher may fill (device-owned buffers; the DMA layer adds
 * them at map and removes them at unmap).  Return: 0, -EINVAL (not inside
 * a bank, or no such range for del), -ENOMEM.  Take the cache lock.
 */
int dmaemu__prefetch_add_range(struct dmaemu_machine *m, uint64_t phys,
			       uint64_t len);
int dmaemu__prefetch_del_range(struct dmaemu_machine *m, uint64_t phys,
			       uint64_t len);
/* Under the cache lock: accesses until the next prefetch chance, and the
 * prefetch itself. */
uint64_t dmaemu__prefetch_interval(struct dmaemu_machine *m);
void dmaemu__prefetch_fire(struct dmaemu_machine *m);
/* The cache_fill trace event of line @lp, which level @lvl had (cpu.c). */
void dmaemu__trace_fill(struct dmaemu_machine *m, uint64_t lp, unsigned int lvl,
			bool prefetch);
void dmaemu__prefetch_fini(struct dmaemu_machine *m);

#endif /* DMAEMU_LIB_CPU_H */
