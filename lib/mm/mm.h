/* SPDX-License-Identifier: MIT */
/*
 * mm.h - allocators of lib/ (GFP names, page allocator, kmalloc, context).
 *
 * Locks: the two allocator locks share level 2 of the lock order in
 * core/core.h; between themselves, the slab lock comes first (slab.c
 * asks the page allocator for slabs while holding it).  Neither is held
 * while zeroing memory or making a report.
 */
#ifndef DMAEMU_LIB_MM_H
#define DMAEMU_LIB_MM_H

#include "dmaemu/mm.h"

#include "cpu/cpu.h"

/* page_alloc.c / slab.c: called by machine create/destroy.  slab_init
 * after palloc_init; slab_fini before palloc_fini. */
int dmaemu__palloc_init(struct dmaemu_machine *m);
void dmaemu__palloc_fini(struct dmaemu_machine *m);
int dmaemu__slab_init(struct dmaemu_machine *m);
void dmaemu__slab_fini(struct dmaemu_machine *m);
/* vmalloc.c: after palloc_init; fini before palloc_fini. */
int dmaemu__vmalloc_init(struct dmaemu_machine *m);
void dmaemu__vmalloc_fini(struct dmaemu_machine *m);
struct page *dmaemu__vmalloc_user_page(struct dmaemu_machine *m,
				       const void *addr, size_t off,
				       size_t *npages, const char **why);

/*
 * A "user" view of emulated memory (remap.c: remap_pfn_range(),
 * remap_vmalloc_range(); dma/alloc.c: dma_mmap_attrs()), recorded in
 * vma->dmaemu and removed by dmaemu_vma_unmap().
 * @addr:       the host mapping the vma was moved to.
 * @len:        its length (the vma's).
 * @orig_start: vm_start as the driver gave it.
 * @alias:      @addr is the kernel's own view (nothing to unmap).
 */
struct dmaemu_vma {
	void *addr;
	size_t len;
	unsigned long orig_start;
	bool alias;
};

/* ---------------------------------------------------------------------- */
/* struct page state (page_alloc.c)                                       */
/* ---------------------------------------------------------------------- */

/*
 * Who allocated a block.  Recorded in the head page and checked when the
 * block is freed, so that free_pages() of a kmalloc slab or of a coherent
 * DMA buffer is a bad-free report instead of a corruption.
 */
enum dmaemu__owner {
	DMAEMU__OWNER_NONE = 0,
	DMAEMU__OWNER_PAGES,   /* alloc_pages() and friends */
	DMAEMU__OWNER_SLAB,    /* a kmalloc slab */
	DMAEMU__OWNER_KMALLOC, /* a kmalloc() larger than the classes */
	DMAEMU__OWNER_DMA,     /* dma_alloc_attrs() and the DMA pools */
	DMAEMU__OWNER_SWIOTLB, /* the bounce buffer pool */
	DMAEMU__OWNER_VMALLOC, /* the pages of a vmalloc() area */
	DMAEMU__OWNER_NR
};

/*
 * page->flags.  Only the head page of a block carries state; the other
 * pages of a free or allocated block have flags 0.
 */
#define DMAEMU__PG_BUDDY 0x1UL /* head of a free block of page->order */
#define DMAEMU__PG_HEAD 0x2UL  /* head of an allocation of page->order */
#define DMAEMU__PG_COMP 0x4UL  /* allocated with __GFP_COMP */
#define DMAEMU__PG_MT_SHIFT 4  /* migrate type: free list or as asked */
#define DMAEMU__PG_MT_MASK (0x3UL << DMAEMU__PG_MT_SHIFT)
#define DMAEMU__PG_OWNER_SHIFT 8 /* enum dmaemu__owner of an allocation */
#define DMAEMU__PG_OWNER_MASK (0xfUL << DMAEMU__PG_OWNER_SHIFT)

/**
 * dmaemu__alloc_pages() - the page allocator's one entry point.
 * @m: the machine.
 * @gfp: GFP flags (zone, migrate type, reserves, __GFP_ZERO, __GFP_NOWARN).
 * @order: 2^@order pages.
 * @limit: highest physical address the block may touch (a DMA mask);
 *         UINT64_MAX for any.
 * @owner: recorded for the free-time check.
 * @caller: kernel function name for reports ("alloc_pages").
 *
 * Does not check the calling context (see dmaemu__check_sleep()).
 * Return: the head page, or NULL (an alloc-failure report unless
 * __GFP_NOWARN; a bad-argument report for invalid flags).
 */
struct page *dmaemu__alloc_pages(struct dmaemu_machine *m, unsigned int gfp,
				 unsigned int order, uint64_t limit,
				 enum dmaemu__owner owner, const char *caller);

/**
 * dmaemu__free_pages() - give back what dmaemu__alloc_pages() returned.
 * @owner: must match the allocation's.
 *
 * A page that is not the head of a live allocation of @owner is a bad-free
 * report and nothing is freed; a wrong @order is a bad-free report and the
 * block is freed with its real order.
 * Return: 0, or -EINVAL after a report.
 */
int dmaemu__free_pages(struct dmaemu_machine *m, struct page *page,
		       unsigned int order, enum dmaemu__owner owner,
		       const char *caller);

/* Linear-map address of @page (page->bank's CPU view). */
void *dmaemu__page_address(const struct page *page);
/* The page holding @phys in @m, or NULL when @phys is not DRAM. */
struct page *dmaemu__phys_to_page(struct dmaemu_machine *m, uint64_t phys);
/*
 * What the block holding @page is, as text for reports ("free block of
 * order 2 at 0x...", "page 3 of an alloc_pages() order-2 block at 0x...").
 */
void dmaemu__page_describe(struct dmaemu_machine *m, const struct page *page,
			   char *buf, size_t len);
/* Name of an owner as the API that allocates it ("kmalloc"). */
const char *dmaemu__owner_name(enum dmaemu__owner owner);

/*
 * Zero @len bytes of emulated memory at linear-map address @cpu, the way a
 * CPU store would: the CPU copy changes, so the lines become CPU-dirty.
 */
void dmaemu__mm_zero(struct dmaemu_machine *m, void *cpu, size_t len);

/* ---------------------------------------------------------------------- */
/* kmalloc (slab.c)                                                       */
/* ---------------------------------------------------------------------- */

/* kmalloc() on @m; @caller names the kernel function for reports. */
void *dmaemu__kmalloc(struct dmaemu_machine *m, size_t size, unsigned int gfp,
		      const char *caller);
/* kfree(); reports go to the machine the pointer belongs to. */
void dmaemu__kfree(const void *p, const char *caller);
/* Live kmalloc objects, their usable bytes and the slabs holding them. */
void dmaemu__slab_stats(struct dmaemu_machine *m, unsigned long *objects,
			uint64_t *bytes, unsigned long *slabs);

/* ---------------------------------------------------------------------- */
/* Context and names (context.c, gfp.c)                                   */
/* ---------------------------------------------------------------------- */

/*
 * Before an allocation with @gfp on @m: a sleep-in-atomic report when @gfp
 * may sleep and the calling thread is in atomic context or has interrupts
 * off.  Return: true when the context is fine.
 */
bool dmaemu__check_sleep(struct dmaemu_machine *m, unsigned int gfp,
			 const char *caller);

/* ---------------------------------------------------------------------- */
/* The lockstep scheduler (sched.c; docs/scheduling.md)                   */
/* ---------------------------------------------------------------------- */

struct dmaemu__sctx;
#define DMAEMU__SCHED_NONE UINT64_MAX /* a wait without a deadline */
#define DMAEMU__SCHED_IDLE 0x1 /* a wait for work: no part of a deadlock */
/* A wait with no error path: past hang_timeout_ms, a hung-wait report,
 * and the wait goes on (another report each hang_timeout_ms). */
#define DMAEMU__SCHED_KEEP 0x2

/* Machine create (the caller becomes context 0, holding the turn) and
 * destroy, after every other context exited.  Nothing without lockstep. */
int dmaemu__sched_init(struct dmaemu_machine *m);
void dmaemu__sched_fini(struct dmaemu_machine *m);
/* Is any machine of the process in lockstep?  (A fast check.) */
bool dmaemu__sched_on(void);
/* The calling thread's context of @m (NULL: the current machine), or NULL
 * when @m is not in lockstep or the thread is not one of its contexts. */
struct dmaemu__sctx *dmaemu__sched_self(struct dmaemu_machine *m);
/* As _self(), but a thread that is not a context yet joins (and waits for
 * its turn).  Never call it with a lock of the library held. */
struct dmaemu__sctx *dmaemu__sched_enter(struct dmaemu_machine *m);
/* A scheduling point of the calling thread (joining as _enter()). */
void dmaemu__sched_point(struct dmaemu_machine *m, const char *what);
/*
 * Block context @c (the caller's) on @key until dmaemu__sched_wake(@key),
 * emulated time @deadline (ns, DMAEMU__SCHED_NONE: none), or a deadlock
 * (not for DMAEMU__SCHED_IDLE waits), or, for an untimed wait that is not
 * idle, hang_timeout_ms of emulated time (a hung-wait report; see
 * DMAEMU__SCHED_KEEP).  No lock of the library held.
 * Return: 0 when woken, -ETIMEDOUT, -EDEADLK (after the report).
 */
int dmaemu__sched_wait(struct dmaemu__sctx *c, const void *key,
		       uint64_t deadline, unsigned int flags, const char *what);
/*
 * The hang watchdog (hang_timeout_ms) of an untimed wait outside lockstep
 * (a lockstep wait has it in dmaemu__sched_wait()): _deadline() gives the
 * CLOCK_MONOTONIC time at which a wait starting now on @m (NULL: the
 * current machine) is hung, false when the watchdog is off; _report()
 * makes the hung-wait report of the calling thread's wait in @what, which
 * goes on waiting when @keep (a wait with no error path).
 */
struct timespec;
bool dmaemu__hang_deadline(struct dmaemu_machine *m, struct timespec *ts);
void dmaemu__hang_report(struct dmaemu_machine *m, const char *what, bool keep);
/* Wake every context blocked on @key (any context, any lock held). */
void dmaemu__sched_wake(const void *key);
/* Emulated time of @c's machine; of the calling thread's (false when it
 * is not a context); of @m's (false when @m is not in lockstep). */
uint64_t dmaemu__sched_time(struct dmaemu__sctx *c);
bool dmaemu__sched_now(uint64_t *ns);
bool dmaemu__sched_machine_now(struct dmaemu_machine *m, uint64_t *ns);
/* Sleep @ns of emulated time.  Return: 0, or -ENOSYS when the calling
 * thread is not in lockstep (the caller sleeps on the host's clock). */
int dmaemu__sched_sleep(uint64_t ns, const char *what);
/*
 * Threads the library starts: _spawn() (by the starter, before
 * pthread_create(); NULL without lockstep) makes the context, the thread
 * calls _start() first (also with NULL: it then never joins a lockstep
 * machine by itself) and _exit() last; the starter calls _join() (a
 * wait until _exit()) before pthread_join() and _forget() after it (or
 * when pthread_create() failed).  _detach(): the calling thread leaves
 * lockstep and runs free.
 */
struct dmaemu__sctx *dmaemu__sched_spawn(struct dmaemu_machine *m,
					 const char *name);
void dmaemu__sched_start(struct dmaemu__sctx *c);
void dmaemu__sched_exit(struct dmaemu__sctx *c);
void dmaemu__sched_join(struct dmaemu__sctx *c);
void dmaemu__sched_forget(struct dmaemu__sctx *c);
void dmaemu__sched_detach(struct dmaemu__sctx *c);
/*
 * The starter's two halves of that, for a thread running @fn(@arg):
 * _thread_start() spawns the context into *@sctx (left NULL without
 * lockstep; set before the thread runs, which reads it) and starts the
 * thread into *@tid.  Return: 0, or a positive errno (ENOMEM: no context;
 * what pthread_create() returned), with nothing left behind.
 * _thread_join() waits for the thread to end and forgets its context.
 */
int dmaemu__sched_thread_start(struct dmaemu_machine *m, const char *name,
			       pthread_t *tid, void *(*fn)(void *), void *arg,
			       struct dmaemu__sctx **sctx);
void dmaemu__sched_thread_join(pthread_t tid, struct dmaemu__sctx **sctx);

#endif
