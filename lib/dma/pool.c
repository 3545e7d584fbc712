// SPDX-License-Identifier: MIT
/*
 * dma_pool.c - pools of small coherent blocks (<linux/dmapool.h>).
 *
 * How it works.  A pool hands out blocks of one size carved from coherent
 * allocations ("pages") of pool->allocation bytes, made on demand with
 * dma_alloc_coherent() for the pool's device and kept until the pool is
 * destroyed, as in the kernel.  Blocks are laid out once, the same in every
 * page, as Linux 4.14's pool_initialise_page() does: back to back, except
 * that a block that would reach a multiple of pool->boundary (cross it, or
 * end exactly on it) starts at that multiple instead.  For size 96,
 * boundary 256 in a 1 KiB page:
 *
 *   0     96    192 256   352   448 512   608   704 768   864   960 1024
 *   [ b0 ][ b1 ] ...[ b2 ][ b3 ]...[ b4 ][ b5 ]...[ b6 ][ b7 ]...
 *
 * and for 64-byte blocks in a 4 KiB page 63 blocks, not 64: the block at
 * 4032 would end on the boundary.
 *
 * The bookkeeping is host memory (struct pool_page: a state byte and a
 * free-list link per block), so neither driver code nor a device can
 * corrupt it: the kernel keeps its free list inside the free blocks.
 *
 * Poisoning (the kernel's DMAPOOL_DEBUG, always on): a free block holds
 * POISON_FREED in every byte; dma_pool_alloc() checks that the poison is
 * intact before handing the block out (a pool-corruption report names the
 * first changed byte: a write after free by the CPU or by a device), then
 * fills it with POISON_ALLOCATED.  The CPU writes and reads the poison
 * through the pool's own kernel view of the page, as the kernel's memset
 * does: that is the uncached alias on arm/arm64 (so it goes straight to
 * DRAM and leaves no cache lines), the cacheable linear map on x86.
 *
 * Locking.  pool->lock protects the page list and every page's block
 * states and free list.  It is a leaf: nothing else is taken while it is
 * held.  Allocating a page, poisoning, checking and reporting all happen
 * with it dropped; a block being freed is marked FREEING meanwhile, so a
 * concurrent second free of it is still caught.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/dma-mapping.h>
#include <linux/dmapool.h>

#include "dma/dma.h"

#define POISON_FREED 0xa7     /* the kernel's POOL_POISON_FREED */
#define POISON_ALLOCATED 0xa9 /* POOL_POISON_ALLOCATED */

enum block_state {
	BLOCK_FREE = 0,
	BLOCK_USED,
	BLOCK_FREEING, /* being poisoned by dma_pool_free() */
};

/* One coherent allocation of a pool. */
struct pool_page {
	struct pool_page *next; /* pool->pages */
	uint8_t *vaddr;		/* kernel view (dma_alloc_coherent()) */
	dma_addr_t dma;		/* its bus address */
	unsigned int in_use;	/* blocks BLOCK_USED or BLOCK_FREEING */
	int free_head;		/* first free block, -1: none */
	int *next_free;		/* per block: the next free block */
	uint8_t *state;		/* per block: enum block_state */
};

struct dma_pool {
	char name[32];
	char dev_name[32]; /* copied: the device may be gone at destroy */
	struct device *dev;
	struct dmaemu_machine *m;
	size_t size;	   /* block size (rounded up to the alignment) */
	size_t boundary;   /* no block crosses a multiple of this */
	size_t allocation; /* bytes of each page */
	unsigned int nblocks;
	size_t *offsets; /* block offsets inside a page, ascending */
	bool managed;	 /* made by dmam_pool_create() */
	pthread_mutex_t lock;
	struct pool_page *pages;    /* newest first */
	struct dma_pool *live_next; /* live_pools (live_lock) */
};

/*
 * The live pools, so that a destroyed pool or a pointer that never was a
 * pool is a bad-argument report rather than a use of freed or foreign
 * memory: the candidate is compared with the list's entries, never
 * dereferenced.  live_lock is a leaf.
 */
static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;
static struct dma_pool *live_pools;

static void live_add(struct dma_pool *pool)
{
	dmaemu__lock(&live_lock);
	pool->live_next = live_pools;
	live_pools = pool;
	dmaemu__unlock(&live_lock);
}

/* Take @pool off the list: false if it was not on it. */
static bool live_del(struct dma_pool *pool)
{
	struct dma_pool **pp;
	bool found = false;

	dmaemu__lock(&live_lock);
	for (pp = &live_pools; *pp; pp = &(*pp)->live_next)
		if (*pp == pool) {
			*pp = pool->live_next;
			found = true;
			break;
		}
	dmaemu__unlock(&live_lock);
	return found;
}

/* Is @pool not a live pool?  Then a bad-argument report naming @fn. */
static bool pool_bad(const struct dma_pool *pool, const char *fn)
{
	const struct dma_pool *p;

	dmaemu__lock(&live_lock);
	for (p = live_pools; p && p != pool; p = p->live_next)
		;
	dmaemu__unlock(&live_lock);
	if (p)
		return false;
	dmaemu__reportf(NULL, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
			"%s: %p is not a live pool (destroyed, or not made by "
			"dma_pool_create())",
			fn, (const void *)pool);
	return true;
}

/* ---------------------------------------------------------------------- */
/* Creation and destruction                                               */
/* ---------------------------------------------------------------------- */

/*
 * The offsets of the blocks of one page (see the picture above), walked as
 * Linux 4.14's pool_initialise_page() chains them: the block after one at
 * @off starts at @off + @size unless a block there would reach the next
 * multiple of @boundary (end on it, or cross it), in which case it starts
 * at that multiple.  @offs NULL: only count.
 */
static size_t walk_blocks(size_t size, size_t boundary, size_t allocation,
			  size_t *offs)
{
	size_t off = 0, next, next_boundary = boundary, n = 0;

	do {
		if (offs)
			offs[n] = off;
		n++;
		next = off + size;
		if (next + size >= next_boundary) {
			next = next_boundary;
			next_boundary += boundary;
		}
		off = next;
	} while (off < allocation);
	return n;
}

static size_t *layout(size_t size, size_t boundary, size_t allocation,
		      unsigned int *nblocks)
{
	size_t n = walk_blocks(size, boundary, allocation, NULL), *offs;

	offs = dmaemu__calloc(n, sizeof(*offs));
	if (!offs)
		return NULL;
	walk_blocks(size, boundary, allocation, offs);
	*nblocks = (unsigned int)n;
	return offs;
}

/**
 * dma_pool_create() - a pool of @size-byte blocks for coherent DMA.
 * @name:     for reports (the first 31 characters are kept).
 * @dev:      the device the blocks are for.
 * @size:     block size: nonzero; at least 4; rounded up to @align.
 * @align:    block alignment: a power of two, or 0 for 1.
 * @boundary: 0, or a power of two no smaller than @size that no block may
 *            cross (for devices whose descriptors must not straddle, say,
 *            4 KiB).
 *
 * Blocks come from pages of max(@size, PAGE_SIZE) bytes allocated with
 * dma_alloc_coherent() when needed.  Cost: O(blocks per page).
 *
 * Return: the pool; NULL for a size, alignment or boundary the rules above
 * refuse (as in the kernel, silently), for a bad device (reported), or
 * when out of host memory.
 */
struct dma_pool *dma_pool_create(const char *name, struct device *dev,
				 size_t size, size_t align, size_t boundary)
{
	DMAEMU__API_CALL(call, "dma_pool_create");
	struct dmaemu_machine *m = dmaemu__dev_machine(dev);
	struct dma_pool *pool;
	size_t allocation;

	if (!m) {
		dmaemu__reportf(NULL, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"dma_pool_create(%s): %s",
				name ? name : "(null)",
				dev ? "not a device of an emulated machine"
				    : "NULL device");
		return NULL;
	}
	if (!align)
		align = 1;
	else if (align & (align - 1))
		return NULL;
	if (!size)
		return NULL;
	if (size < 4)
		size = 4;
	if (size > SIZE_MAX / 2)
		return NULL;
	size = (size + align - 1) & ~(align - 1);
	allocation = size > DMAEMU__PAGE_SIZE ? size : DMAEMU__PAGE_SIZE;
	if (!boundary)
		boundary = allocation;
	else if (boundary < size || (boundary & (boundary - 1)))
		return NULL;

	pool = dmaemu__calloc(1, sizeof(*pool));
	if (!pool)
		return NULL;
	snprintf(pool->name, sizeof(pool->name), "%s", name ? name : "");
	snprintf(pool->dev_name, sizeof(pool->dev_name), "%s", dev_name(dev));
	pool->dev = dev;
	pool->m = m;
	pool->size = size;
	pool->boundary = boundary;
	pool->allocation = allocation;
	pool->offsets = layout(size, boundary, allocation, &pool->nblocks);
	if (!pool->offsets || dmaemu__mutex_init(&pool->lock)) {
		dmaemu__free(pool->offsets);
		dmaemu__free(pool);
		return NULL;
	}
	live_add(pool);
	return pool;
}

static void dmam_pool_release(struct device *dev, void *data);

static void page_free(struct dma_pool *pool, struct pool_page *page)
{
	dma_free_coherent(pool->dev, pool->allocation, page->vaddr, page->dma);
	dmaemu__free(page->next_free);
	dmaemu__free(page->state);
	dmaemu__free(page);
}

/**
 * dma_pool_destroy() - free a pool and all its pages.
 * @pool: the pool (NULL is ignored).
 *
 * Blocks still in use are reported (pool-busy, one report for the pool)
 * and freed with it: the driver must not touch them again.
 */
void dma_pool_destroy(struct dma_pool *pool)
{
	DMAEMU__API_CALL(call, "dma_pool_destroy");
	struct pool_page *page, *next;
	unsigned long busy = 0;

	if (!pool)
		return;
	if (!live_del(pool)) {
		pool_bad(pool, "dma_pool_destroy");
		return;
	}
	/* Destroyed before its device: the device must not destroy it
	 * again.  (On the devres path the entry is already gone.) */
	if (pool->managed)
		dmaemu__devres_remove(pool->dev, dmam_pool_release, pool);
	dmaemu__lock(&pool->lock);
	for (page = pool->pages; page; page = page->next)
		busy += page->in_use;
	page = pool->pages;
	pool->pages = NULL;
	dmaemu__unlock(&pool->lock);
	if (busy)
		dmaemu__reportf(
			pool->m, DMAEMU_REPORT_POOL_BUSY, 0, 0,
			"dma_pool_destroy(%s) of device %s with %lu block%s "
			"still in use",
			pool->name, pool->dev_name, busy, busy == 1 ? "" : "s");
	for (; page; page = next) {
		next = page->next;
		page_free(pool, page);
	}
	pthread_mutex_destroy(&pool->lock);
	dmaemu__free(pool->offsets);
	dmaemu__free(pool);
}

/* ---------------------------------------------------------------------- */
/* Blocks                                                                 */
/* ---------------------------------------------------------------------- */

/*
 * The CPU fills @len bytes at @vaddr with @c through the kernel view (an
 * access of the model: uncached on arm/arm64, the cache on x86).
 */
static void cpu_fill(void *vaddr, int c, size_t len)
{
	dmaemu__cpu_range(vaddr, len, true);
	memset(vaddr, c, len);
}

/* A new page, every block free and poisoned; NULL when out of memory. */
static struct pool_page *page_alloc(struct dma_pool *pool, gfp_t gfp)
{
	struct pool_page *page = dmaemu__calloc(1, sizeof(*page));
	unsigned int i;

	if (!page)
		return NULL;
	page->next_free =
		dmaemu__calloc(pool->nblocks, sizeof(*page->next_free));
	page->state = dmaemu__calloc(pool->nblocks, sizeof(*page->state));
	if (!page->next_free || !page->state)
		goto out_free;
	page->vaddr = dma_alloc_coherent(pool->dev, pool->allocation,
					 &page->dma, gfp & ~__GFP_ZERO);
	if (!page->vaddr)
		goto out_free;
	cpu_fill(page->vaddr, POISON_FREED, pool->allocation);
	for (i = 0; i < pool->nblocks; i++)
		page->next_free[i] = i + 1 < pool->nblocks ? (int)i + 1 : -1;
	page->free_head = 0;
	return page;

out_free:
	dmaemu__free(page->next_free);
	dmaemu__free(page->state);
	dmaemu__free(page);
	return NULL;
}

/* Take a free block of @page; pool->lock held. */
static unsigned int take_block(struct pool_page *page)
{
	unsigned int i = (unsigned int)page->free_head;

	page->free_head = page->next_free[i];
	page->state[i] = BLOCK_USED;
	page->in_use++;
	return i;
}

/*
 * Is the poison of a free block intact?  Reports the first damaged byte
 * otherwise: something wrote to the block after it was freed.
 */
static void check_poison(struct dma_pool *pool, struct pool_page *page,
			 unsigned int i)
{
	const uint8_t *b = page->vaddr + pool->offsets[i];
	size_t k, bad = 0, first = 0;

	dmaemu__cpu_range(b, pool->size, false);
	for (k = 0; k < pool->size; k++) {
		if (b[k] != POISON_FREED) {
			if (!bad)
				first = k;
			bad++;
		}
	}
	if (bad)
		dmaemu__reportf(
			pool->m, DMAEMU_REPORT_POOL_CORRUPTION,
			page->dma + pool->offsets[i], pool->size,
			"dma_pool_alloc(%s): free block %p (dma 0x%" PRIx64
			") was written after it was freed: %zu of %zu bytes "
			"changed, first at offset %zu (0x%02x, poison 0x%02x)",
			pool->name, (const void *)b,
			(uint64_t)(page->dma + pool->offsets[i]), bad,
			pool->size, first, b[first], POISON_FREED);
}

/**
 * dma_pool_alloc() - a block from @pool.
 * @pool:      the pool.
 * @mem_flags: GFP flags for a new page (GFP_KERNEL may sleep).
 * @handle:    receives the block's bus address.
 *
 * The block is filled with 0xa9 (POOL_POISON_ALLOCATED), so a driver that
 * reads it before writing sees garbage, as with the kernel's pool debug.
 * Cost: O(pages) to find a free block, O(size) to check and fill it.
 *
 * Return: the block's kernel address, or NULL when a new page could not be
 * allocated (or for a NULL argument, reported).
 */
void *dma_pool_alloc(struct dma_pool *pool, gfp_t mem_flags, dma_addr_t *handle)
{
	DMAEMU__API_CALL(call, "dma_pool_alloc");
	struct pool_page *page, *fresh = NULL;
	unsigned int i;
	uint8_t *vaddr;

	if (pool && pool_bad(pool, "dma_pool_alloc"))
		return NULL;
	if (!pool || !handle) {
		dmaemu__reportf(
			pool ? pool->m : NULL, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
			"dma_pool_alloc: NULL %s", pool ? "handle" : "pool");
		return NULL;
	}
	if (!(mem_flags & __GFP_NOFAIL) && dmaemu__fault_armed(pool->m)) {
		char what[320], names[160];

		dmaemu_gfp_format(mem_flags, names, sizeof(names));
		snprintf(what, sizeof(what), "dma_pool_alloc(%s, %s)",
			 pool->name, names);
		if (dmaemu__should_fail(pool->m, DMAEMU_FAULT_DMA_POOL,
					pool->size, what))
			return NULL;
	}
	for (;;) {
		dmaemu__lock(&pool->lock);
		for (page = pool->pages; page; page = page->next)
			if (page->free_head >= 0)
				break;
		if (!page && fresh) {
			fresh->next = pool->pages;
			pool->pages = fresh;
			page = fresh;
			fresh = NULL;
		}
		if (page)
			break;
		dmaemu__unlock(&pool->lock);
		fresh = page_alloc(pool, mem_flags);
		if (!fresh)
			return NULL;
	}
	i = take_block(page);
	dmaemu__unlock(&pool->lock);
	if (fresh) /* another thread freed a block meanwhile */
		page_free(pool, fresh);

	check_poison(pool, page, i);
	vaddr = page->vaddr + pool->offsets[i];
	cpu_fill(vaddr, POISON_ALLOCATED, pool->size);
	*handle = page->dma + pool->offsets[i];
	return vaddr;
}

/**
 * dma_pool_zalloc() - a zeroed block from @pool.
 * @pool:      the pool.
 * @mem_flags: as dma_pool_alloc().
 * @handle:    receives the block's bus address.
 *
 * Return: as dma_pool_alloc().
 */
void *dma_pool_zalloc(struct dma_pool *pool, gfp_t mem_flags,
		      dma_addr_t *handle)
{
	DMAEMU__API_CALL(call, "dma_pool_zalloc");
	void *vaddr = dma_pool_alloc(pool, mem_flags, handle);

	if (vaddr)
		cpu_fill(vaddr, 0, pool->size);
	return vaddr;
}

/* Index of the block at @off in a page, or -1 when no block starts there. */
static int block_at(const struct dma_pool *pool, size_t off)
{
	unsigned int lo = 0, hi = pool->nblocks;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (pool->offsets[mid] < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < pool->nblocks && pool->offsets[lo] == off ? (int)lo : -1;
}

/**
 * dma_pool_free() - give a block back to its pool.
 * @pool:  the pool it came from.
 * @vaddr: the block's kernel address, as dma_pool_alloc() returned it.
 * @dma:   the block's bus address.
 *
 * The block is poisoned (0xa7) for the check at its next allocation.
 * A block of another pool, a @vaddr that does not match @dma or is not
 * the start of a block, and a block already free are reported (bad-free)
 * and nothing is freed.  Cost: O(pages + log blocks per page + size).
 */
void dma_pool_free(struct dma_pool *pool, void *vaddr, dma_addr_t dma)
{
	DMAEMU__API_CALL(call, "dma_pool_free");
	struct dmaemu__where w;
	struct pool_page *page;
	const char *why = NULL;
	size_t off = 0;
	int i = -1;

	if (!pool) {
		dmaemu__reportf(NULL, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"dma_pool_free: NULL pool");
		return;
	}
	if (pool_bad(pool, "dma_pool_free"))
		return;
	dmaemu__lock(&pool->lock);
	for (page = pool->pages; page; page = page->next)
		if (dma >= page->dma && dma - page->dma < pool->allocation)
			break;
	if (!page) {
		why = "not a block of this pool";
	} else {
		off = (size_t)(dma - page->dma);
		i = block_at(pool, off);
		if (i < 0)
			why = "not the start of a block";
		else if ((uint8_t *)vaddr != page->vaddr + off)
			why = "the address does not match the bus address";
		else if (page->state[i] != BLOCK_USED)
			why = "already free (double free)";
		else
			page->state[i] = BLOCK_FREEING;
	}
	dmaemu__unlock(&pool->lock);
	if (why) {
		dmaemu__reportf(pool->m, DMAEMU_REPORT_BAD_FREE, 0, 0,
				"dma_pool_free(%s, %p, dma 0x%" PRIx64 "): %s",
				pool->name, vaddr, (uint64_t)dma, why);
		return;
	}

	/* The block is BLOCK_FREEING: no other free can take it.  Its
	 * memory is DRAM under whichever alias the allocation gave. */
	if (dmaemu__classify(vaddr, &w) && w.m == pool->m && w.bank)
		dmaemu__owner_check_free(pool->m, w.phys, pool->size,
					 "dma_pool_free");
	cpu_fill(vaddr, POISON_FREED, pool->size);
	dmaemu__lock(&pool->lock);
	page->state[i] = BLOCK_FREE;
	page->next_free[i] = page->free_head;
	page->free_head = i;
	page->in_use--;
	dmaemu__unlock(&pool->lock);
}

/* ---------------------------------------------------------------------- */
/* Managed pools                                                          */
/* ---------------------------------------------------------------------- */

/* The devres release: the pool goes with its device. */
static void dmam_pool_release(struct device *dev, void *data)
{
	(void)dev;
	dma_pool_destroy(data);
}

/**
 * dmam_pool_create() - dma_pool_create() for a pool destroyed with its
 * device (by dmaemu_device_destroy(), silently unless blocks are in use).
 * @name, @dev, @size, @align: as dma_pool_create().
 * @allocation: the boundary, as dma_pool_create()'s @boundary.
 *
 * Return: as dma_pool_create().
 */
struct dma_pool *dmam_pool_create(const char *name, struct device *dev,
				  size_t size, size_t align, size_t allocation)
{
	DMAEMU__API_CALL(call, "dmam_pool_create");
	struct dma_pool *pool =
		dma_pool_create(name, dev, size, align, allocation);

	if (!pool)
		return NULL;
	pool->managed = true;
	if (dmaemu__devres_add(dev, dmam_pool_release, pool)) {
		dma_pool_destroy(pool);
		return NULL;
	}
	return pool;
}

/**
 * dmam_pool_destroy() - destroy a managed pool before its device goes.
 * @pool: a pool from dmam_pool_create() (NULL is ignored).
 *
 * dma_pool_destroy() does the same for a managed pool; a pool that is not
 * managed is reported (bad-argument) and destroyed anyway.
 */
void dmam_pool_destroy(struct dma_pool *pool)
{
	DMAEMU__API_CALL(call, "dmam_pool_destroy");
	if (!pool)
		return;
	if (pool_bad(pool, "dmam_pool_destroy"))
		return;
	if (!pool->managed)
		dmaemu__reportf(pool->m, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"dmam_pool_destroy(%s): not a managed pool "
				"(dmam_pool_create())",
				pool->name);
	dma_pool_destroy(pool);
}
