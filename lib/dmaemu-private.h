/* SPDX-License-Identifier: MIT */
/*
 * dmaemu-private.h - the private header of lib/: the machine and the
 * interfaces between the files of the emulated platform.  Never included by
 * a public header.
 *
 * Files of lib/ and their jobs:
 *   machine.c   machine create/destroy, the current machine, the registry of
 *               live machines used by the instrumentation's range check
 *   options.c   option parsing (struct, string, DMAEMU_OPTIONS)
 *   physmem.c   banks, the host views (MEM, CPU, TWIN, aliases), regions,
 *               address classification, struct page arrays
 *   lineops.c   line operations (fill, clean, invalidate) on the three
 *               copies with byte masks; range maintenance; stripe locks
 *   report.c    the report path (counting, printing, SUMMARY lines, policy)
 *   gfp.c, page_alloc.c, slab.c, context.c   allocators (mm.h)
 *   cpu.c, kasan.c, memintrin.c, wc.c, prefetch.c   CPU accesses (cpu.h)
 *
 * Lock order (outermost first; a thread holding one may only take those
 * below it):
 *   1. m->lock            machine-wide lists (devices, mappings)
 *   2. allocator locks     page allocator zone lock, slab lock (mm.h)
 *   3. m->cache_lock      the CPU cache model (cachesim) and residency
 *   4. m->stripe[i]       physical memory data of the lines hashing to i;
 *                         several are taken in ascending index order
 *   5. m->wc_lock         write-combining buffers
 *   6. m->report_lock     report counters and the output stream
 * Device DMA takes only stripe locks (4) and below, so devices never
 * serialise on the cache lock.  The DMA backends (dma.h): the IOMMU's
 * locks are leaves (nothing is taken under them); the swiotlb pool lock is
 * taken with none of the above held and takes the allocator locks (2)
 * when it makes the pool.  The device layer's locks are leaves too: the
 * set of live devices (device.c), each device's devres list and each
 * device's registry of live mappings (dma_debug.c).
 */
#ifndef DMAEMU_PRIVATE_H
#define DMAEMU_PRIVATE_H

#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "cachesim.h"
#include "dmaemu/machine.h"
#include "dmaemu/report.h"

struct page;

#define DMAEMU_MAX_BANKS 2
#define DMAEMU_PAGE_SHIFT 12
#define DMAEMU_PAGE_SIZE (1UL << DMAEMU_PAGE_SHIFT)
#define DMAEMU_MAX_LINE 256
#define DMAEMU_NSTRIPES 64
#define DMAEMU_MASK_WORDS (DMAEMU_MAX_LINE / 64) /* words of a line mask */
#define DMAEMU_OPT_MAXKEYS 32
#define DMAEMU_MAX_MACHINES 256	      /* live machines per process */
#define DMAEMU_MMIO_SIZE (16UL << 20) /* MMIO cookie window per machine */

/* ---------------------------------------------------------------------- */
/* Options                                                                */
/* ---------------------------------------------------------------------- */

enum dmaemu_profile {
	DMAEMU_PROFILE_ARM = 0,
	DMAEMU_PROFILE_ARM64,
	DMAEMU_PROFILE_X86,
};

/*
 * Every option of a machine; see options.c for the keys, defaults and the
 * documentation of each.
 */
struct dmaemu_options {
	enum dmaemu_profile profile;
	uint64_t mem_base;     /* low bank physical base */
	uint64_t mem;	       /* low bank size */
	uint64_t highmem_base; /* high bank physical base (>= 4 GiB) */
	uint64_t highmem;      /* high bank size, 0 = none */
	uint64_t cache_size;
	unsigned int cache_ways;
	unsigned int cache_line;
	enum cachesim_policy cache_policy;
	unsigned int dma_minalign; /* resolved to cache_line if not set */
	unsigned int wc_buffers;   /* number of write-combining buffers */
	unsigned int wc_size;	   /* bytes per buffer (power of two) */
	bool prefetch;
	unsigned int prefetch_rate; /* 1 in N CPU accesses may prefetch */
	uint64_t seed;
	bool halt_on_error;
	int exitcode;	    /* 0 = leave the exit status alone */
	char log_path[256]; /* "" = stderr */
	/* The DMA layer (dma.h). */
	bool iommu;	    /* streaming and coherent DMA through the IOMMU */
	bool swiotlb_force; /* swiotlb=force: bounce every streaming map */
	uint64_t swiotlb_size; /* bytes of the bounce pool */
	uint64_t dma_offset;   /* bus address = physical + dma_offset */
	/* Origin ("DMAEMU_OPTIONS", "options") of each key that was set,
	 * indexed like the key table of options.c; NULL = default. */
	const char *set_by[DMAEMU_OPT_MAXKEYS];
};

/* ---------------------------------------------------------------------- */
/* Physical memory and the host views (physmem.c)                         */
/* ---------------------------------------------------------------------- */

/*
 * What a host address inside a machine's reservation is.  Inside one
 * bank's area the views follow this order, MMIO excepted (it is one window
 * per machine, after the banks); see physmem.c.
 */
enum dmaemu_region {
	DMAEMU_REGION_NONE = 0, /* not emulated memory */
	DMAEMU_REGION_LINEAR,	/* cacheable linear map: the CPU copy */
	DMAEMU_REGION_UNCACHED, /* uncached alias: MEM itself */
	DMAEMU_REGION_WC,	/* write-combining alias of MEM */
	DMAEMU_REGION_NOMAP,	/* NO_KERNEL_MAPPING cookies: inaccessible */
	DMAEMU_REGION_MMIO,	/* ioremap cookies: readl/writel only */
	DMAEMU_REGION_TWIN,	/* internal: the TWIN copy (never handed out) */
};

/*
 * One bank of emulated DRAM.  All views are reserved lazily (MAP_NORESERVE,
 * and a memfd for MEM): untouched pages cost no host memory.
 */
struct dmaemu_bank {
	uint64_t phys;	    /* first physical address */
	uint64_t size;	    /* bytes, a multiple of the page size */
	int memfd;	    /* backs MEM and its aliases */
	uint8_t *mem;	    /* MEM, mapped shared; also the uncached alias */
	uint8_t *cpu;	    /* CPU copy = the linear map drivers use */
	uint8_t *twin;	    /* TWIN copy */
	uint8_t *wc;	    /* write-combining alias: MEM mapped again */
	uint8_t *nomap;	    /* PROT_NONE cookie window, same size */
	struct page *pages; /* one per page, indexed by (phys - bank phys) */
};

/* One slot of the reservation: what the view at that slot is. */
struct dmaemu_slot {
	enum dmaemu_region region;
	struct dmaemu_bank *bank; /* NULL for MMIO and unused slots */
};
#define DMAEMU_VIEWS_PER_BANK 5 /* LINEAR, UNCACHED, WC, NOMAP, TWIN */
#define DMAEMU_MAX_SLOTS (DMAEMU_MAX_BANKS * DMAEMU_VIEWS_PER_BANK + 1)

/* Result of classifying a host address. */
struct dmaemu_where {
	enum dmaemu_region region;
	struct dmaemu_machine *m;
	struct dmaemu_bank *bank; /* NULL for MMIO */
	uint64_t phys;		  /* physical address (MMIO: window offset) */
};

/* ---------------------------------------------------------------------- */
/* The machine                                                            */
/* ---------------------------------------------------------------------- */

struct dmaemu__palloc; /* page allocator state (page_alloc.c) */
struct dmaemu__slab;   /* kmalloc state (slab.c) */
struct dmaemu__cpu;    /* CPU access state: prefetch, stats (cpu.c) */
struct dmaemu__wc;     /* write-combining buffers (wc.c) */
struct dmaemu__swiotlb;
struct dmaemu__iommu;

struct dmaemu_machine {
	struct dmaemu_options opt;
	pthread_mutex_t lock; /* lists below; order 1 */

	/* Physical memory.  Immutable after create. */
	unsigned int nbanks;
	struct dmaemu_bank bank[DMAEMU_MAX_BANKS];
	uint8_t *resv; /* the host reservation of all views */
	size_t resv_size;
	unsigned int slot_shift; /* log2 of the stride between views */
	unsigned int nslots;
	struct dmaemu_slot slot[DMAEMU_MAX_SLOTS];
	uint8_t *mmio; /* MMIO cookie window (PROT_NONE) */
	size_t mmio_size;
	unsigned int line; /* cache line size (opt.cache_line) */
	unsigned int line_shift;

	/* The CPU cache model.  Protected by cache_lock (order 3). */
	pthread_mutex_t cache_lock;
	struct cachesim *cache;
	bool in_maint; /* a range operation does the data work itself */

	/* Data of physical memory: stripe i covers the lines whose line
	 * number hashes to i (order 4). */
	pthread_mutex_t stripe[DMAEMU_NSTRIPES];

	/* Sub-systems, each with its own lock where it needs one. */
	struct dmaemu__palloc *palloc;
	struct dmaemu__slab *slab;
	struct dmaemu__cpu *cpu;
	pthread_mutex_t wc_lock; /* order 5 */
	struct dmaemu__wc *wc;
	/* DMA backends, made on first use under m->lock (dma.h): the bounce
	 * pool (swiotlb.c) and the IOMMU domains (iommu.c). */
	struct dmaemu__swiotlb *swiotlb;
	struct dmaemu__iommu *iommu;
	/* Devices (device.c), under m->lock; per-line ownership of each bank
	 * (ownership.c), mapped on first use under m->lock, then read with
	 * atomic loads. */
	struct dmaemu_device *devices;
	uint8_t *owner[DMAEMU_MAX_BANKS];

	/* Reports (report.c), protected by report_lock (order 6). */
	pthread_mutex_t report_lock;
	FILE *log; /* NULL = stderr */
	uint64_t report_counts[DMAEMU_REPORT_NKINDS];
	uint64_t report_total;

	/* Registry (machine.c): immutable while the machine is live. */
	uint64_t seq;		/* creation order, for "current" */
	unsigned int reg_index; /* slot in the registry */
};

/* machine.c */
/*
 * The bounding span [lo, hi) of every live machine's reservation, read
 * without a lock by the instrumentation: an address outside it is not
 * emulated memory, and that costs two compares.  Only accessed with the
 * __atomic builtins (written under the registry lock).
 */
extern uintptr_t dmaemu__span_lo, dmaemu__span_hi;

static inline bool dmaemu__in_span(const void *addr)
{
	uintptr_t a = (uintptr_t)addr;

	return a >= __atomic_load_n(&dmaemu__span_lo, __ATOMIC_RELAXED) &&
	       a < __atomic_load_n(&dmaemu__span_hi, __ATOMIC_RELAXED);
}

struct dmaemu_machine *dmaemu__machine_of_addr(const void *addr);
/* Mutexes: error-checking unless NDEBUG; a failing lock is a broken
 * invariant and aborts. */
int dmaemu__mutex_init(pthread_mutex_t *mu);
static inline void dmaemu__lock(pthread_mutex_t *mu)
{
	if (pthread_mutex_lock(mu))
		abort();
}
static inline void dmaemu__unlock(pthread_mutex_t *mu)
{
	if (pthread_mutex_unlock(mu))
		abort();
}

/* options.c */
void dmaemu__options_defaults(struct dmaemu_options *o);
int dmaemu__options_parse(struct dmaemu_options *o, const char *s,
			  const char *origin, char *err, size_t errlen);
int dmaemu__options_finish(struct dmaemu_options *o, char *err, size_t errlen);
int dmaemu__options_build(struct dmaemu_options *o, const char *env,
			  const char *str, char *err, size_t errlen);
const char *dmaemu__profile_name(enum dmaemu_profile p);
const char *dmaemu__option_origin(const struct dmaemu_options *o,
				  const char *key);

/* physmem.c */
int dmaemu__physmem_init(struct dmaemu_machine *m);
void dmaemu__physmem_fini(struct dmaemu_machine *m);
/* Classify @addr; fast for addresses outside every machine. */
bool dmaemu__classify(const void *addr, struct dmaemu_where *w);
struct dmaemu_bank *dmaemu__bank_of_phys(struct dmaemu_machine *m,
					 uint64_t phys, uint64_t len);
/* View of @phys in the given copy; NULL when @phys is not DRAM. */
uint8_t *dmaemu__phys_mem(struct dmaemu_machine *m, uint64_t phys);
uint8_t *dmaemu__phys_cpu(struct dmaemu_machine *m, uint64_t phys);
uint8_t *dmaemu__phys_twin(struct dmaemu_machine *m, uint64_t phys);
uint8_t *dmaemu__phys_view(struct dmaemu_machine *m, uint64_t phys,
			   enum dmaemu_region view);

/* lineops.c: data operations on one line; the caller holds the line's
 * stripe lock.  @keep_lo/@keep_hi bound the bytes being maintained (for
 * lost-cpu-write): dirty bytes outside it are reported when discarded.
 * The single-line operations leave dmaemu__cpu_changed() to their caller;
 * the range operations and dmaemu__mem_write() call it themselves. */
pthread_mutex_t *dmaemu__stripe_of(struct dmaemu_machine *m, uint64_t phys);
void dmaemu__line_fill(struct dmaemu_machine *m, uint64_t line_phys);
void dmaemu__line_clean(struct dmaemu_machine *m, uint64_t line_phys);
void dmaemu__line_invalidate(struct dmaemu_machine *m, uint64_t line_phys,
			     uint64_t keep_lo, uint64_t keep_hi);
/* Byte masks of one line: bit i = byte i (line <= DMAEMU_MAX_LINE), each an
 * array of DMAEMU_MASK_WORDS words (bit i is bit i % 64 of word i / 64);
 * either may be NULL. */
void dmaemu__line_masks(struct dmaemu_machine *m, uint64_t line_phys,
			uint64_t *cpu_dirty, uint64_t *dev_changed);
/* Clean then invalidate one line (never a lost-cpu-write). */
void dmaemu__line_clean_invalidate(struct dmaemu_machine *m,
				   uint64_t line_phys);
/* Device side: copy into / out of MEM under the stripe locks only.
 * Return: 0, or -EFAULT when [phys, phys + len) is not inside one bank. */
int dmaemu__mem_write(struct dmaemu_machine *m, uint64_t phys, const void *buf,
		      size_t len);
int dmaemu__mem_read(struct dmaemu_machine *m, uint64_t phys, void *buf,
		     size_t len);
/* The eviction hook given to cachesim (dirty victims are written back). */
void dmaemu__evict_hook(void *ctx, unsigned int level, uint64_t addr,
			bool dirty, bool last);
/* Range maintenance for DMA: cache model and data, taking the locks. */
void dmaemu__range_clean(struct dmaemu_machine *m, uint64_t phys, uint64_t len);
void dmaemu__range_invalidate(struct dmaemu_machine *m, uint64_t phys,
			      uint64_t len);
void dmaemu__range_clean_invalidate(struct dmaemu_machine *m, uint64_t phys,
				    uint64_t len);

/* report.c */
struct dmaemu_report_info {
	enum dmaemu_report_kind kind;
	uint64_t phys;	      /* first byte concerned (0 if none) */
	uint64_t size;	      /* bytes concerned */
	const uint64_t *mask; /* optional byte mask of one line */
	unsigned int mask_bits;
	const char *where; /* optional "function file:line" of the cause */
};
int dmaemu__report_init(struct dmaemu_machine *m, char *err, size_t errlen);
void dmaemu__report_fini(struct dmaemu_machine *m);
void dmaemu__vreport(struct dmaemu_machine *m,
		     const struct dmaemu_report_info *r, const char *fmt,
		     va_list ap) __attribute__((format(printf, 3, 0)));
void dmaemu__report(struct dmaemu_machine *m,
		    const struct dmaemu_report_info *r, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* @m NULL: the current machine (none: no report). */
void dmaemu__reportf(struct dmaemu_machine *m, enum dmaemu_report_kind kind,
		     uint64_t phys, uint64_t size, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

#include "mm.h"
#include "cpu.h"
#include "dma.h"

#endif /* DMAEMU_PRIVATE_H */
