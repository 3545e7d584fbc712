/* SPDX-License-Identifier: MIT */
/*
 * core.h - the core layer of lib/: the machine struct, options, the
 * registry of live machines, reports, and the one lock order.  See
 * docs/architecture.md for the layers; each layer's header includes the
 * one below it, so a file includes its own layer's header only.
 *
 *   options.c   option parsing (struct, string, DMAEMU_OPTIONS)
 *   machines.c  live machines, the current machine, the address span
 *   report.c    the report path (counting, printing, SUMMARY lines, policy)
 *               and the call-site context of the driver call in progress
 *   report-query.c  the last reports of a machine, kept for queries, and
 *               the report callback
 *   suppress.c  the suppressions file of a machine (suppressions=)
 *   symbolize.c code addresses as function, file and line (libdwfl), and
 *               the stack above a driver's line
 *
 * The machine struct holds every layer's state; the fields of a higher
 * layer are pointers to types only that layer defines.
 *
 * Lock order (outermost first; a thread holding one may only take those
 * below it):
 *   1. m->lock            machine-wide lists (devices, mappings)
 *   2. allocator locks     page allocator zone lock, slab lock (mm/mm.h)
 *   3. m->cache_lock      the CPU cache model (cachesim) and residency
 *   4. m->stripe[i]       physical memory data of the lines hashing to i;
 *                         several are taken in ascending index order
 *   5. m->wc_lock         write-combining buffers
 *   6. m->report_lock     report counters, the output stream, the
 *                         recorded reports and the report callback (which
 *                         is called with none of report_lock held, but
 *                         maybe with 1-5 held: see <dmaemu/report.h>)
 *   7. sym_lock           the libdwfl session (symbolize.c): a leaf taken
 *                         while a report is formatted, with any of the
 *                         above held or none
 *   -  own_stores->lock   the CPU's stores into held lines (mem/
 *                         ownership.c): a leaf, taken under the cache lock
 *                         by the CPU's slow path and with none held by the
 *                         DMA layer
 * Device DMA takes only stripe locks (4) and below, so devices never
 * serialise on the cache lock.  The DMA backends (dma/): the swiotlb pool
 * lock is taken with none of the above held and takes the allocator locks
 * (2) when it makes the pool.  The device layer's locks are leaves too:
 * the set of live devices (bus/device.c), each device's devres list and
 * each device's registry of live mappings (dma/registry.c).  The ownership
 * checks' repeat table (cpu/owncheck.c) is a leaf too; the checks make
 * their reports with no lock held, after asking the DMA layer which
 * mapping holds a byte (m->lock, then each registry's lock).
 *
 * The IOMMU, split as Linux splits drivers/iommu/ (bus/iommu.c: domains,
 * page tables, the walk, faults) from dma-iommu.c (dma/iommu.c: IOVA
 * allocation, the DMA ops); each side has its own locks, all leaves, and
 * never holds one of its own while it calls the other side:
 *   iommu->lock     bus/iommu.c: the machine's list of domains; a domain's
 *                   lock is taken under it only while the domain is made
 *                   (nobody else can hold that one yet)
 *   d->lock         bus/iommu.c: one domain's page table, privilege, fault
 *                   count and cookie; taken by the bus translation, which
 *                   may run with any lock of the machine held, so nothing
 *                   is taken and no report is made under it
 *   iv->lock        dma/iommu.c: one device's IOVA space (its free and
 *                   allocated ranges); a map takes it to take a range,
 *                   drops it, maps the pages in the domain (d->lock), and
 *                   takes it again to record the range; an unmap takes the
 *                   record off, drops it, unmaps the pages, then takes it
 *                   to give the range back
 * The IOMMU's state is made on first use under m->lock (1), released
 * before iommu->lock is taken.
 *
 * Devices, interrupts and the kernel's locks (bus/thread.c, bus/irq.c,
 * bus/platform.c, mm/sync.c):
 *   0. the platform bus's bind lock (bus/platform.c), held while a
 *      driver's probe() or remove() runs: outermost of all
 *   0. a driver's own locks (spinlock_t, struct mutex): driver code holds
 *      them across any call of the library, so they come before every
 *      lock of the library; the sync buckets that implement them
 *      (mm/sync.c) are leaves, held only inside the primitives
 *   0. a device model's own lock: register handlers run on driver threads
 *      that may hold driver locks, and a model calls the framework
 *      (doorbell, raise/lower irq, DMA) with its lock held
 *   then, all leaves (nothing is taken under them, no report is made under
 *   them, no driver or model code runs under them): each device's thread
 *   lock (bus/thread.c), the machine's interrupt controller lock
 *   (m->irqc, bus/irq.c), the global table of irq numbers (bus/irq.c),
 *   the kernel worker's lock (m->kwork, bus/kwork.c), the softirq lock
 *   (m->softirq, bus/softirq.c), the net layer's locks (net/net.h).
 * No handler, run() or probe() is ever called with a lock of the library
 * held.  m->irqs_off (threads with interrupts off) is an atomic.
 */
#ifndef DMAEMU_LIB_CORE_H
#define DMAEMU_LIB_CORE_H

#include "base/base.h"
#include "cachesim.h"
#include "dmaemu/device.h"
#include "dmaemu/fault.h"
#include "dmaemu/machine.h"
#include "dmaemu/report.h"
#include "dmaemu/trace.h"

struct page;

#define DMAEMU__MAX_BANKS 2
#define DMAEMU__PAGE_SHIFT 12
#define DMAEMU__PAGE_SIZE (1UL << DMAEMU__PAGE_SHIFT)
#define DMAEMU__MAX_LINE 256
#define DMAEMU__NSTRIPES 64
#define DMAEMU__MASK_WORDS (DMAEMU__MAX_LINE / 64) /* words of a line mask */

/* Has the line mask @mask (DMAEMU__MASK_WORDS words) any bit set? */
static inline bool dmaemu__mask_any(const uint64_t *mask)
{
	unsigned int i;

	for (i = 0; i < DMAEMU__MASK_WORDS; i++)
		if (mask[i])
			return true;
	return false;
}
/* Bytes whose values a report shows (struct dmaemu__report_info). */
#define DMAEMU__REPORT_VALS 16
#define DMAEMU__OPT_MAXKEYS 64
#define DMAEMU__OPT_PATH_MAX 256 /* bytes of a path option, with its NUL */
#define DMAEMU__MAX_MACHINES 256 /* live machines per process */
#define DMAEMU__MMIO_SIZE (16UL << 20) /* MMIO cookie window per machine */

/* ---------------------------------------------------------------------- */
/* Options                                                                */
/* ---------------------------------------------------------------------- */

enum dmaemu__profile {
	DMAEMU__PROFILE_ARM = 0,
	DMAEMU__PROFILE_ARM64,
	DMAEMU__PROFILE_X86,
};

/*
 * A fault point's attributes (fault.c), as Linux's struct fault_attr:
 * fail one call in @interval (1: every call), with @probability percent,
 * after @space bytes have been asked for, at most @times times (-1: no
 * limit).  @on is false for "off".
 */
struct dmaemu__fault_attr {
	bool on;
	unsigned long interval;
	unsigned long probability;
	long space;
	long times;
};

/*
 * Every option of a machine; see options.c for the keys, defaults and the
 * documentation of each.
 */
struct dmaemu__options {
	enum dmaemu__profile profile;
	uint64_t mem_base;     /* low bank physical base */
	uint64_t mem;	       /* low bank size */
	uint64_t highmem_base; /* high bank physical base (>= 4 GiB) */
	uint64_t highmem;      /* high bank size, 0 = none */
	uint64_t cache_size;
	unsigned int cache_ways;
	unsigned int cache_line;
	enum cachesim_policy cache_policy;
	unsigned int dma_minalign; /* resolved to cache_line if not set */
	/* ARCH_KMALLOC_MINALIGN: kmalloc()'s alignment (slab.c); 8 at
	 * kernel=6.12 on arm64, else dma_minalign (options_finish()). */
	unsigned int kmalloc_minalign;
	unsigned int wc_buffers; /* number of write-combining buffers */
	unsigned int wc_size;	 /* bytes per buffer (power of two) */
	bool prefetch;
	unsigned int prefetch_rate; /* 1 in N CPU accesses may prefetch */
	uint64_t seed;
	bool halt_on_error;
	int exitcode;		     /* 0 = leave the exit status alone */
	unsigned int report_repeats; /* reports printed per key (0: all) */
	char log_path[DMAEMU__OPT_PATH_MAX]; /* "" = stderr */
	/* Report policy (report.c). */
	char suppressions[DMAEMU__OPT_PATH_MAX]; /* "" = none */
	unsigned int report_limit; /* reports printed at most (0: all) */
	unsigned int verbosity;	   /* 0, 1, 2 */
	unsigned int checks;	   /* bit f: check family f is on */
	/* The DMA layer (dma.h). */
	bool iommu;	    /* streaming and coherent DMA through the IOMMU */
	bool swiotlb_force; /* swiotlb=force: bounce every streaming map */
	uint64_t swiotlb_size; /* bytes of the bounce pool */
	uint64_t dma_offset;   /* bus address = physical + dma_offset */
	bool map_clean;	       /* map_policy=5.19: arm64 map always cleans */
	bool k612;	       /* kernel=6.12: Linux 6.12's DMA API */
	bool iommu_strict;     /* IOMMU checks stricter than 4.14 (iommu.c) */
	unsigned int report_keep; /* reports recorded (report-query.c) */
	bool lockstep;		  /* sched=lockstep (mm/sched.c) */
	/* Fault injection (fault.c): failslab=, fail_page_alloc=, ... */
	struct dmaemu__fault_attr fail[DMAEMU_FAULT_NPOINTS];
	bool fail_verbose; /* a log line per injected failure */
	/* help=1: the keys, their defaults and meaning, printed at create. */
	bool help;
	/* Tracing (trace.c). */
	char trace[DMAEMU__OPT_PATH_MAX]; /* "" = no trace file */
	bool trace_json;		  /* trace_format=json */
	unsigned int trace_events;	  /* groups traced from create */
	bool ordering_strong;	/* ordering=strong: no checks (cpu/order.c) */
	bool portability_notes; /* x86: ordering, shared-line notes */
	bool posted_relaxed;	/* posted_writes=relaxed (bus/device.c) */
	bool stats;		/* print the statistics at machine destroy */
	/* Tracing (trace.c): bytes of each thread's trace buffer (0: every
	 * event is written at once); here, it takes what was padding. */
	unsigned int trace_buffer;
	/* device_timing=: every new device's timing knobs (bus/device.c) */
	struct dmaemu_device_timing device_timing;
	/* Report policy (report.c): print the first report of a kind at a
	 * driver line and fold its repeats; print no PID and no host
	 * address, so that two lockstep runs of one seed compare equal. */
	bool report_fold;
	bool log_stable;
	/* Unmaps and frees each device remembers, for the reports of a
	 * device access after them (dma/registry.c). */
	unsigned int unmap_history;
	unsigned int irq_storm;	      /* handler runs, line up: irq-storm */
	unsigned int sched_step_ns;   /* lockstep: cost of a busy point */
	unsigned int hang_timeout_ms; /* untimed waits: hung-wait */
	/* Origin ("DMAEMU_OPTIONS", "options") of each key that was set,
	 * indexed like the key table of options.c; NULL = default. */
	const char *set_by[DMAEMU__OPT_MAXKEYS];
};

/* ---------------------------------------------------------------------- */
/* Physical memory and the host views (physmem.c)                         */
/* ---------------------------------------------------------------------- */

/*
 * What a host address inside a machine's reservation is.  Inside one
 * bank's area the views follow this order, MMIO excepted (it is one window
 * per machine, after the banks); see physmem.c.
 */
enum dmaemu__region {
	DMAEMU__REGION_NONE = 0, /* not emulated memory */
	DMAEMU__REGION_LINEAR,	 /* cacheable linear map: the CPU copy */
	DMAEMU__REGION_UNCACHED, /* uncached alias: MEM itself */
	DMAEMU__REGION_WC,	 /* write-combining alias of MEM */
	DMAEMU__REGION_NOMAP,	 /* NO_KERNEL_MAPPING cookies: inaccessible */
	DMAEMU__REGION_MMIO,	 /* ioremap cookies: readl/writel only */
	DMAEMU__REGION_TWIN,	/* internal: the TWIN copy (never handed out) */
	DMAEMU__REGION_VMALLOC, /* vmalloc(): pages of the CPU copy mapped
				 * again, virtually contiguous */
};

/*
 * One bank of emulated DRAM.  All views are reserved lazily (MAP_NORESERVE,
 * and a memfd for MEM): untouched pages cost no host memory.
 */
struct dmaemu__bank {
	uint64_t phys;	    /* first physical address */
	uint64_t size;	    /* bytes, a multiple of the page size */
	int memfd;	    /* backs MEM and its aliases */
	int cpufd;	    /* backs the CPU copy (and vmalloc()'s views) */
	uint8_t *mem;	    /* MEM, mapped shared; also the uncached alias */
	uint8_t *cpu;	    /* CPU copy = the linear map drivers use */
	uint8_t *twin;	    /* TWIN copy */
	uint8_t *wc;	    /* write-combining alias: MEM mapped again */
	uint8_t *nomap;	    /* PROT_NONE cookie window, same size */
	uint8_t *dev_mem;   /* MEM mapped again, outside the reservation:
			     * the devices' alias (physmem.c) */
	uint8_t *dev_cpu;   /* the CPU copy mapped again, the same way */
	struct page *pages; /* one per page, indexed by (phys - bank phys) */
};

/* One slot of the reservation: what the view at that slot is. */
struct dmaemu__slot {
	enum dmaemu__region region;
	struct dmaemu__bank *bank; /* NULL for MMIO and unused slots */
	uint64_t skew;		   /* the view starts this far into its slot */
};
#define DMAEMU__VIEWS_PER_BANK 5 /* LINEAR, UNCACHED, WC, NOMAP, TWIN */
/* Every bank's views, then the vmalloc area, then the MMIO window. */
#define DMAEMU__MAX_SLOTS (DMAEMU__MAX_BANKS * DMAEMU__VIEWS_PER_BANK + 2)

/* Result of classifying a host address. */
struct dmaemu__where {
	enum dmaemu__region region;
	struct dmaemu_machine *m;
	struct dmaemu__bank *bank; /* NULL for MMIO */
	uint64_t phys;		   /* physical address (MMIO: window offset) */
};

/* ---------------------------------------------------------------------- */
/* The machine                                                            */
/* ---------------------------------------------------------------------- */

struct dmaemu__palloc;	/* page allocator state (page_alloc.c) */
struct dmaemu__vmalloc; /* vmalloc areas (mm/vmalloc.c) */
struct dmaemu__slab;	/* kmalloc state (slab.c) */
struct dmaemu__cpu;	/* CPU access state: prefetch, stats (cpu.c) */
struct dmaemu__wc;	/* write-combining buffers (wc.c) */
struct dmaemu__swiotlb;
struct dmaemu__iommu;
struct dmaemu__irqc;
struct dmaemu__kwork;
struct dmaemu__softirq;
struct dmaemu__net;
struct dmaemu__iomem_claim;
struct dmaemu__own_stores; /* CPU stores into held lines (ownership.c) */
struct dmaemu__bus_client;
struct dmaemu__report_rec;	/* recorded reports (report-query.c) */
struct dmaemu__supp;		/* suppression rules (report.c) */
struct dmaemu__fold;		/* folded reports (report.c) */
#define DMAEMU__BUS_MAX_SLOTS 4 /* >= DMAEMU__BUS_NSLOTS (bus.h) */

/*
 * struct dmaemu__dev_stats - what one device did (<dmaemu/seeing.h>'s
 * dmaemu_device_stats()).  Kept in the device (bus/bus.h), added to with
 * relaxed atomics by the layers that see each event: the DMA API
 * (dma/mapping.c: maps, unmaps, syncs), the architecture's maintenance
 * (dma/arch.c: bytes cleaned and invalidated), the bounce pool
 * (dma/swiotlb.c), device DMA (bus/device.c) and interrupts (bus/irq.c);
 * marked for Helgrind and DRD as accessed with atomics only.
 */
struct dmaemu__dev_stats {
	uint64_t maps, unmaps, syncs_for_device, syncs_for_cpu;
	uint64_t bytes_mapped, bytes_cleaned, bytes_invalidated, bytes_bounced;
	uint64_t dev_reads, dev_writes, dev_bytes_read, dev_bytes_written;
	uint64_t irqs;
};
/* In a device, the counters get cache lines of their own: a line the DMA
 * path writes with atomics must not hold what other threads read. */
#define DMAEMU__STATS_PAD 64
/*
 * A relaxed atomic load and store, not a read-modify-write: a locked add
 * cost 2-5% of a 4 KiB map+unmap (bench-dma), this costs nothing
 * measurable.  The price: two threads adding to the same counter of one
 * device at the same instant may lose one of the additions.  Counts made
 * from one thread at a time are exact.
 */
#define DMAEMU__STAT_ADD(st, field, n)                                     \
	__atomic_store_n(&(st)->field,                                     \
			 __atomic_load_n(&(st)->field, __ATOMIC_RELAXED) + \
				 (uint64_t)(n),                            \
			 __ATOMIC_RELAXED)

/* A snapshot of @src in @dst, each counter loaded atomically. */
static inline void dmaemu__dev_stats_read(struct dmaemu__dev_stats *dst,
					  const struct dmaemu__dev_stats *src)
{
	const uint64_t *s = (const uint64_t *)(const void *)src;
	uint64_t *d = (uint64_t *)(void *)dst;
	size_t i;

	for (i = 0; i < sizeof(*src) / sizeof(uint64_t); i++)
		d[i] = __atomic_load_n(&s[i], __ATOMIC_RELAXED);
}

/* With stats=1, the statistics of a destroyed device, kept for the
 * summary at machine destroy (bus/device.c; m->lock). */
struct dmaemu__stats_gone {
	struct dmaemu__stats_gone *next;
	char name[64];
	struct dmaemu__dev_stats st;
};

struct dmaemu__trace_span;
struct dmaemu__trace_buf;
/* Counters of the JSON trace (dmaemu__trace_counter()). */
enum {
	DMAEMU__TRACE_CTR_DIRTY,   /* dirty lines of the cache model */
	DMAEMU__TRACE_CTR_SWIOTLB, /* bounce-pool slots in use */
	DMAEMU__TRACE_NCTRS,
};

struct dmaemu_machine {
	struct dmaemu__options opt;
	pthread_mutex_t lock; /* lists below; order 1 */

	/* Physical memory.  Immutable after create. */
	unsigned int nbanks;
	struct dmaemu__bank bank[DMAEMU__MAX_BANKS];
	uint8_t *resv; /* the host reservation of all views */
	size_t resv_size;
	unsigned int slot_shift; /* log2 of the stride between views */
	unsigned int nslots;
	struct dmaemu__slot slot[DMAEMU__MAX_SLOTS];
	uint8_t *mmio; /* MMIO cookie window (PROT_NONE) */
	size_t mmio_size;
	/* The vmalloc area (mem/physmem.c maps, mm/vmalloc.c allocates):
	 * vmap_phys[i] is the physical page mapped at page i of it, 0 for
	 * none (written by the mapper, read atomically by classify). */
	uint8_t *vmap;
	size_t vmap_size;
	uint64_t *vmap_phys;
	struct dmaemu__vmalloc *vmalloc; /* mm/vmalloc.c's state */
	unsigned int line;		 /* cache line size (opt.cache_line) */
	unsigned int line_shift;

	/* The CPU cache model.  Protected by cache_lock (order 3). */
	pthread_mutex_t cache_lock;
	struct cachesim *cache;
	bool in_maint; /* a range operation does the data work itself */

	/* Data of physical memory: stripe i covers the lines whose line
	 * number hashes to i (order 4). */
	pthread_mutex_t stripe[DMAEMU__NSTRIPES];

	/* Sub-systems, each with its own lock where it needs one. */
	struct dmaemu__palloc *palloc;
	struct dmaemu__slab *slab;
	struct dmaemu__cpu *cpu;
	pthread_mutex_t wc_lock; /* order 5 */
	struct dmaemu__wc *wc;
	/* Made on first use under m->lock: the bounce pool (dma/swiotlb.c)
	 * and the IOMMU's domains (bus/iommu.c). */
	struct dmaemu__swiotlb *swiotlb;
	struct dmaemu__iommu *iommu;
	/* Devices (device.c), under m->lock; per-line ownership of each bank
	 * (ownership.c), mapped on first use under m->lock, then read with
	 * atomic loads. */
	struct dmaemu_device *devices;
	/* The bus (bus/): clients by slot and the IOMMU's owner hook (what
	 * a faulting page belongs to), set at create before any device
	 * exists, then read-only. */
	const struct dmaemu__bus_client *bus_client[DMAEMU__BUS_MAX_SLOTS];
	void (*iommu_owner)(unsigned int tag, char *buf, size_t len);
	uint8_t *owner[DMAEMU__MAX_BANKS];
	/* The CPU's last store to each line that the model saw, in a
	 * direct-mapped table made at create (lineops.c): what the lost-write
	 * reports name.  Read and written with relaxed atomics. */
	struct dmaemu__store_site *store_site;
	/* The CPU's stores into lines a live streaming mapping holds while
	 * the CPU owns them (ownership.c): what lost-cpu-write names when a
	 * handover's invalidate discards them.  Made at create. */
	struct dmaemu__own_stores *own_stores;
	/* Interrupts (bus/irq.c): the controller and its thread, made at
	 * create; threads of this machine that have interrupts off
	 * (mm/context.c), which holds off the start of handlers (atomics). */
	struct dmaemu__irqc *irqc;
	unsigned int irqs_off;
	/* Softirqs (bus/softirq.c): tasklets and NAPI polls, run on the
	 * interrupt thread; made and freed with the controller. */
	struct dmaemu__softirq *softirq;
	/* The network stack's state (net/dev.c): NAPI poll list, frames
	 * passed up, registered devices; made at create. */
	struct dmaemu__net *net;
	/* Busy register ranges of request_mem_region() (bus/region.c),
	 * under that file's lock; freed at destroy. */
	struct dmaemu__iomem_claim *iomem_busy;
	/* Kernel timers and work items (bus/kwork.c): the worker, made at
	 * create, its thread started by the first timer or work item. */
	struct dmaemu__kwork *kwork;
	/* sched=lockstep: the scheduler (mm/sched.c), made at create. */
	struct dmaemu__sched *sched;

	/* Reports (report.c), protected by report_lock (order 6). */
	pthread_mutex_t report_lock;
	FILE *log; /* NULL = stderr */
	uint64_t report_counts[DMAEMU_REPORT_NKINDS];
	uint64_t report_total;
	/* Recorded reports and the callback (report-query.c), under
	 * report_lock too: the ring is made on first use. */
	struct dmaemu__report_rec *report_rec;
	uint64_t report_seq;	 /* sequence number of the last report */
	uint64_t report_dropped; /* made but no longer (or never) held */
	/* The report policy (report.c), under report_lock: reports a
	 * suppression matched, by kind; reports printed and reports not
	 * printed because of report_limit.  The rules (suppressions=) are
	 * read at create and immutable, their match counts under the lock. */
	uint64_t report_suppressed[DMAEMU_REPORT_NKINDS];
	uint64_t report_printed;
	uint64_t report_unprinted;
	struct dmaemu__supp *supp;
	/* Folded reports and the exit summary (report.c), under
	 * report_lock; made on the first report. */
	struct dmaemu__fold *fold;

	/* Fault injection (fault.c): the points' attributes (copied from the
	 * options at create, changed by dmaemu_fault_set()) and counters,
	 * under fault_lock, a leaf; fault_any says whether any point is on,
	 * read without the lock on every call at a point. */
	pthread_mutex_t fault_lock;
	struct dmaemu__fault_attr fault[DMAEMU_FAULT_NPOINTS];
	unsigned long fault_calls[DMAEMU_FAULT_NPOINTS];
	unsigned long fault_injected[DMAEMU_FAULT_NPOINTS];
	uint64_t fault_rng[DMAEMU_FAULT_NPOINTS];
	int fault_any;

	/* Tracing (trace.c): the groups on (read without a lock), the file,
	 * the callback and the count of events, under trace_lock (a leaf);
	 * the clock is set at create by the top layer. */
	unsigned int trace_mask;
	pthread_mutex_t trace_lock;
	FILE *trace_file;
	dmaemu_trace_fn trace_fn;
	void *trace_arg;
	uint64_t trace_events;
	uint64_t (*trace_clock)(void);

	/* Registry (machine.c): immutable while the machine is live. */
	uint64_t seq;		/* creation order, for "current" */
	unsigned int reg_index; /* slot in the registry */

	/* stats=1: counters of destroyed devices (bus/device.c), newest
	 * first, under m->lock. */
	struct dmaemu__stats_gone *stats_gone;

	/* Tracing, continued (trace.c), under trace_lock: the ownership
	 * spans open in the JSON form, the last value written of each
	 * counter, the per-thread buffers (trace_buffer=), the events they
	 * dropped; trace_seq orders buffered events (atomic). */
	struct dmaemu__trace_span *trace_spans;
	size_t trace_nspans, trace_spans_cap;
	uint64_t trace_next_id;
	char trace_ctr_last[DMAEMU__TRACE_NCTRS][160];
	struct dmaemu__trace_buf *trace_bufs;
	uint64_t trace_seq;
	uint64_t trace_dropped;
};

/*
 * Check families (option checks=, report.c): every report kind belongs to
 * one family, by the table of report.c; a kind the table does not name is
 * an API-debugging kind (the DMA API's own misuse checks, whose kinds are
 * the most numerous and the likeliest to be split).  A family that is off
 * makes no report of its kinds (dmaemu__vreport() drops them before any
 * work), and the checks that cost something on their own test
 * dmaemu__checks_on() first, so that their cost goes too.  Errors are no
 * family: a failed call, a fault, an exhausted resource is always
 * reported.
 */
enum dmaemu__check_family {
	DMAEMU__CHECK_API = 0, /* api: the default of the kind table */
	DMAEMU__CHECK_COHERENCE,
	DMAEMU__CHECK_PLATFORM,
	DMAEMU__CHECK_NFAMILIES,
	DMAEMU__CHECK_ERRORS = DMAEMU__CHECK_NFAMILIES, /* always on */
};
#define DMAEMU__CHECKS_ALL ((1U << DMAEMU__CHECK_NFAMILIES) - 1)
/* "coherence" for its family (NULL past the last). */
const char *dmaemu__check_family_name(unsigned int family);
/* The family of @kind, DMAEMU__CHECK_ERRORS for the errors. */
enum dmaemu__check_family dmaemu__check_family_of(enum dmaemu_report_kind kind);

/* Is check family @f on for @m (option checks=)?  A load and a test. */
static inline bool dmaemu__checks_on(const struct dmaemu_machine *m,
				     enum dmaemu__check_family f)
{
	return (m->opt.checks >> f) & 1;
}

/* machines.c */
/*
 * The bounding span [lo, hi) of every live machine's reservation, read
 * without a lock by the instrumentation: an address outside it is not
 * emulated memory, and that costs two compares.  Only accessed with the
 * __atomic builtins (written under the registry lock).
 */
extern uintptr_t dmaemu__span_lo __attribute__((visibility("hidden")));
extern uintptr_t dmaemu__span_hi __attribute__((visibility("hidden")));

static inline bool dmaemu__in_span(const void *addr)
{
	uintptr_t a = (uintptr_t)addr;

	return a >= __atomic_load_n(&dmaemu__span_lo, __ATOMIC_RELAXED) &&
	       a < __atomic_load_n(&dmaemu__span_hi, __ATOMIC_RELAXED);
}

struct dmaemu_machine *dmaemu__machine_of_addr(const void *addr);
/* Machine create/destroy: enter a machine in the registry (it becomes the
 * current one; 0 or -EBUSY when DMAEMU__MAX_MACHINES are live) and take it
 * out (the most recent other machine becomes current if it was). */
int dmaemu__machine_register(struct dmaemu_machine *m);
void dmaemu__machine_unregister(struct dmaemu_machine *m);
/*
 * dmaemu__machine_bad() - is @m a pointer that is not a live machine (one
 * destroyed, or never made by dmaemu_machine_create())?  Then a
 * bad-argument report naming @fn, on the current machine.  NULL is not
 * bad here (each function says what NULL means).  @m is never
 * dereferenced: it is compared with the registry's entries.
 */
bool dmaemu__machine_bad(const struct dmaemu_machine *m, const char *fn);
/* Is @m a live machine?  (Compared with the registry, not dereferenced.) */
bool dmaemu__machine_live(const struct dmaemu_machine *m);
/* options.c */
void dmaemu__options_defaults(struct dmaemu__options *o);
int dmaemu__options_parse(struct dmaemu__options *o, const char *s,
			  const char *origin, char *err, size_t errlen);
int dmaemu__options_finish(struct dmaemu__options *o, char *err, size_t errlen);
int dmaemu__options_level(const struct dmaemu__options *o, char *err,
			  size_t errlen);
int dmaemu__options_build(struct dmaemu__options *o, const char *env,
			  const char *str, char **note, char *err,
			  size_t errlen);
void dmaemu__options_help(const struct dmaemu__options *o, FILE *f);
const char *dmaemu__profile_name(enum dmaemu__profile p);
const char *dmaemu__option_origin(const struct dmaemu__options *o,
				  const char *key);

/* report.c */
struct dmaemu__report_info {
	enum dmaemu_report_kind kind;
	uint64_t phys;	      /* first byte concerned (0 if none) */
	uint64_t size;	      /* bytes concerned */
	const uint64_t *mask; /* optional byte mask of one line */
	unsigned int mask_bits;
	const char *where;  /* optional "function file:line" of the cause */
	const char *device; /* optional name of the device concerned */
	/* Optional: where the mapping or allocation the report names was
	 * made ("dma_map_single_attrs() called from rx_refill rx.c:51"). */
	const char *made_at;
	/* Optional: the last device access to that mapping (@last_device
	 * NULL: none known). */
	const char *last_device;
	uint64_t last_dma, last_size;
	bool last_write;
	bool note; /* a portability note, not an error (report.h) */
	/* Optional: the mapping the report is about (@map_device NULL:
	 * none), which the exit summary counts per folded report. */
	const char *map_device;
	uint64_t map_dma;
	/* Optional: the values of the first @nval bytes from @phys, as
	 * @val_name[0] saw or wrote them (the CPU, usually) and as
	 * @val_name[1] held them (memory, the device); bytes outside @mask
	 * are printed "..". */
	unsigned int nval;
	uint8_t val[2][DMAEMU__REPORT_VALS];
	const char *val_name[2];
};
int dmaemu__report_init(struct dmaemu_machine *m, char *err, size_t errlen);
void dmaemu__report_fini(struct dmaemu_machine *m);
void dmaemu__vreport(struct dmaemu_machine *m,
		     const struct dmaemu__report_info *r, const char *fmt,
		     va_list ap) __attribute__((format(printf, 3, 0)));
void dmaemu__report(struct dmaemu_machine *m,
		    const struct dmaemu__report_info *r, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* @m NULL: the current machine (none: no report). */
void dmaemu__reportf(struct dmaemu_machine *m, enum dmaemu_report_kind kind,
		     uint64_t phys, uint64_t size, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* report-query.c: record a finished report (@text as printed, @len bytes;
 * @where as printed or NULL) and hand it to the callback; called by
 * dmaemu__vreport() with no lock of its own held.  _fini frees what
 * report_fini() leaves. */
void dmaemu__report_record(struct dmaemu_machine *m,
			   const struct dmaemu__report_info *r,
			   const char *text, size_t len, const char *where);
void dmaemu__report_rec_fini(struct dmaemu_machine *m);
/* suppress.c: the rules of option suppressions= (see there). */
struct dmaemu__frame;
int dmaemu__supp_load(struct dmaemu_machine *m, char *err, size_t errlen);
void dmaemu__supp_fini(struct dmaemu_machine *m);
bool dmaemu__supp_frames(const struct dmaemu_machine *m);
int dmaemu__supp_match(const struct dmaemu_machine *m,
		       enum dmaemu_report_kind kind,
		       const struct dmaemu__frame *f, unsigned int nf);
void dmaemu__supp_count(struct dmaemu_machine *m, int i);
void dmaemu__supp_summary(struct dmaemu_machine *m, FILE *out);
/* report.c: zero the counters of dmaemu_report_count() and
 * dmaemu_report_suppressed() (report lock held). */
void dmaemu__report_counters_zero(struct dmaemu_machine *m);
/* report.c: the checkers' own repeats of @kind (a report not made again
 * for the same access site and mapping: cpu/owncheck.c), for the exit
 * summary; @n of them. */
void dmaemu__report_repeats_add(struct dmaemu_machine *m,
				enum dmaemu_report_kind kind, uint64_t n);
/* report.c: "==4242==", or "==dmaemu==" with log_stable=1: the prefix of
 * every line of the report stream.  @buf of DMAEMU__LOG_PREFIX bytes. */
#define DMAEMU__LOG_PREFIX 24
const char *dmaemu__log_prefix(const struct dmaemu_machine *m, char *buf);

/*
 * Call-site context (report.c): the driver's API call in progress on this
 * thread, so that every report made while it runs - the dispatcher's, a
 * backend's, a line operation's deep in mem/ - names the driver's line.
 * A report made inside a call, with no ->where of its own, prints
 *
 *     at rx_refill examples/nic/nic.c:51, in dma_map_single_attrs()
 *     by nic_open examples/nic/nic.c:140
 *     SUMMARY: dmaemu: <kind> examples/nic/nic.c:51 in rx_refill
 *
 * (", in fn()" left out when the headline starts with fn already; the
 * dladdr() form "rx_refill+0x2c (/path/prog)" where there is no debug
 * information; see report.c for the stack lines).  Calls
 * nest: an API call made inside another (by the library, for the driver)
 * names the inner function and keeps the outer one's caller.  Public entry points use DMAEMU__API_CALL(), which
 * leaves on every return path; dmaemu__call_enter()/_leave() are for code
 * that reports on behalf of an earlier call (device destroy names the
 * call that made a leaked mapping).
 */
struct dmaemu__call {
	const char *fn;			  /* "dma_map_single_attrs" */
	const void *caller;		  /* the driver's return address */
	const struct dmaemu__call *outer; /* the call this one is inside */
};
struct dmaemu__call dmaemu__call_start(struct dmaemu__call *c, const char *fn,
				       const void *caller);
void dmaemu__call_enter(struct dmaemu__call *c, const char *fn,
			const void *caller);
void dmaemu__call_leave(struct dmaemu__call *c);
/* The innermost call in progress on this thread, or NULL. */
const struct dmaemu__call *dmaemu__call_current(void);
/*
 * Declare @var as the call-site context of the enclosing public function
 * @fn, from its return address; it is left when @var goes out of scope
 * (the cleanup attribute), so early returns need no unwinding.  Must be
 * expanded in the public function itself, not in a helper.
 */
#define DMAEMU__API_CALL(var, fn)                                              \
	struct dmaemu__call var __attribute__((cleanup(dmaemu__call_leave))) = \
		dmaemu__call_start(&var, fn, __builtin_return_address(0))
/*
 * An access site is a call context with no API function (@fn NULL): the
 * CPU layer enters one, with the return address of its entry point (an
 * instrumentation hook, a routed mem* function, an explicit accessor),
 * around the slow path of an access of driver code, so that every report
 * made while the access is handled names the driver's line; no ", in
 * fn()" is added to it.
 */
/* "rx_refill examples/nic/nic.c:51" for a return address (report.c), or
 * without line information "rx_refill+0x2c (/path/prog)" as dladdr() knows
 * it; for "at" lines and "mapping made at". */
void dmaemu__code_where(const void *addr, char *buf, size_t len);

/*
 * Symbolization (symbolize.c): source frames of code addresses, with
 * elfutils' libdwfl.  One source frame: the function, and the file (as
 * compiled) and line.
 */
struct dmaemu__frame {
	char fn[128];
	char file[256];
	unsigned int line;
};
/* The frames of return address @ret, innermost (inlined) first; 0 when it
 * has no line information.  Thread-safe. */
unsigned int dmaemu__symbolize(const void *ret, struct dmaemu__frame *f,
			       unsigned int max);
/* How many lookups dmaemu__symbolize() made so far in the process: they
 * cost microseconds, so only reports may make them (check-symbolize). */
uint64_t dmaemu__symbolize_count(void);
/* The return addresses of the frames above the function holding @site on
 * the calling thread's stack; 0 when @site is not on it. */
unsigned int dmaemu__stack_above(const void *site, const void **pcs,
				 unsigned int max);

/*
 * Fault injection (fault.c).  dmaemu__should_fail(): should this call at
 * @point, asking for @size bytes, fail?  @what names the call for the log
 * line ("kmalloc(256, GFP_KERNEL)"); the driver's line is the call-site
 * context's (DMAEMU__API_CALL).  Takes fault_lock and, to log, the report
 * lock: call it with no lock of the library held.  Costs a load and a
 * test when no point is on and the thread asked for no failure.
 */
void dmaemu__fault_init(struct dmaemu_machine *m);
bool dmaemu__should_fail(struct dmaemu_machine *m,
			 enum dmaemu_fault_point point, size_t size,
			 const char *what);
/*
 * dmaemu__fault_armed() - may any call fail now?  The fast test in front
 * of dmaemu__should_fail(): some point is on, or this thread asked for the
 * Nth call to fail.  Callers skip building the log text when it is false.
 */
static inline bool dmaemu__fault_armed(struct dmaemu_machine *m)
{
	return __atomic_load_n(&m->fault_any, __ATOMIC_RELAXED) ||
	       dmaemu_fail_nth_left();
}

/*
 * Timing knobs of a device (options.c): the syntax of device_timing= and
 * dmaemu_device_set_options(); format writes what parse reads back.
 */
/* The limits of the device timing knobs (dmaemu__timing_check()). */
#define DMAEMU__TIMING_MAX_NS 10000000ULL	/* latency, jitter: 10 ms */
#define DMAEMU__TIMING_MIN_BANDWIDTH 1000000ULL /* 1 MB/s, or 0: no cap */
#define DMAEMU__TIMING_LIMITS                                           \
	"latency and jitter are at most 10ms each, bandwidth is 0 (no " \
	"cap) or at least 1M bytes per second"
int dmaemu__timing_check(const struct dmaemu_device_timing *t);
int dmaemu__timing_parse(const char *s, struct dmaemu_device_timing *t,
			 const char **bad);
void dmaemu__timing_format(const struct dmaemu_device_timing *t, char *buf,
			   size_t len);

/* Option parsing and printing of a fault point's value (options.c). */
int dmaemu__fault_parse(const char *s, struct dmaemu__fault_attr *a);
void dmaemu__fault_format(const struct dmaemu__fault_attr *a, char *buf,
			  size_t len);

/*
 * Trace events (trace.c).  dmaemu__trace(m, group, name, fmt, ...): an
 * event of @group named @name with its fields as printf-style text; a
 * load and a test when the group is off.  Callable with any lock held but
 * trace_lock (a leaf but for the per-thread buffers' locks, taken under
 * it or alone).
 */
enum dmaemu__trace_group {
	DMAEMU__TRACE_ALLOC,
	DMAEMU__TRACE_DMA,
	DMAEMU__TRACE_DEVICE,
	DMAEMU__TRACE_MMIO,
	DMAEMU__TRACE_IRQ,
	DMAEMU__TRACE_REPORT,
	DMAEMU__TRACE_CACHE, /* many events: not in the default set */
	DMAEMU__TRACE_NGROUPS,
};
#define DMAEMU__TRACE_ALL ((1U << DMAEMU__TRACE_NGROUPS) - 1)
#define DMAEMU__TRACE_DEFAULT (DMAEMU__TRACE_ALL & ~(1U << DMAEMU__TRACE_CACHE))
void dmaemu__trace(struct dmaemu_machine *m, unsigned int group,
		   const char *name, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Is @group traced on @m now?  For events whose fields cost something. */
static inline bool dmaemu__tracing(const struct dmaemu_machine *m,
				   unsigned int group)
{
	return m && (__atomic_load_n(&m->trace_mask, __ATOMIC_RELAXED) &
		     (1U << group));
}
/* The calling thread's name in traces ("nic0-dev") and context ("dev"). */
void dmaemu__trace_thread(const char *name, const char *ctx);
/* Is this thread a device model's (named with ctx "dev")?  Its reports
 * name the driver's line where the mapping was made in their SUMMARY. */
bool dmaemu__on_device_thread(void);
int dmaemu__trace_init(struct dmaemu_machine *m, char *err, size_t errlen);
void dmaemu__trace_fini(struct dmaemu_machine *m);
int dmaemu__trace_parse(const char *s, unsigned int *mask);
void dmaemu__trace_format_groups(unsigned int mask, char *buf, size_t len);
const char *dmaemu__trace_group_name(unsigned int g);
/* The JSON form is written for @group now (spans and counters). */
static inline bool dmaemu__tracing_json(const struct dmaemu_machine *m,
					unsigned int group)
{
	return dmaemu__tracing(m, group) && m->opt.trace_json && m->trace_file;
}
/*
 * Ownership spans of the JSON form: dmaemu__trace_new_id() names a buffer
 * (0 when the dma group's JSON is off: the buffer has no spans);
 * dmaemu__trace_owner() says that buffer @id (@label: its device and
 * addresses) is now owned by @owner ("cpu", "device"), or, with NULL, no
 * longer mapped: the open span ends, a new one begins.  Nothing happens
 * for an owner that did not change.
 */
uint64_t dmaemu__trace_new_id(struct dmaemu_machine *m);
void dmaemu__trace_owner(struct dmaemu_machine *m, uint64_t id,
			 const char *owner, const char *label);
/* A counter of the JSON form ("ph":"C"), written when @args (a JSON
 * object's members) changed since its last value. */
void dmaemu__trace_counter(struct dmaemu_machine *m, unsigned int ctr,
			   const char *name, const char *args);
/* Write what the threads' buffers hold (trace_buffer=) to the file. */
void dmaemu__trace_flush(struct dmaemu_machine *m);

#ifdef DMAEMU__TRACE_OUT
/*
 * Every trace point compiled to nothing: the build bench/ measures the
 * cost of tracing off against (bench/trace-cost.sh).  trace.c still
 * defines the functions (it undefines these names).
 */
static inline __attribute__((format(printf, 4, 5))) void dmaemu__trace_out(
	struct dmaemu_machine *m, unsigned int group, const char *name,
	const char *fmt, ...)
{
	(void)m;
	(void)group;
	(void)name;
	(void)fmt;
}
static inline bool dmaemu__tracing_out(const struct dmaemu_machine *m,
				       unsigned int group)
{
	(void)m;
	(void)group;
	return false;
}
#define dmaemu__trace dmaemu__trace_out
#define dmaemu__tracing dmaemu__tracing_out
#define dmaemu__tracing_json dmaemu__tracing_out
#endif

#endif /* DMAEMU_LIB_CORE_H */
