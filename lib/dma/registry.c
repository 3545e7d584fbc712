// SPDX-License-Identifier: MIT
/*
 * registry.c - the registry of live streaming mappings, per device: what
 * unmap and the syncs look up, what device destroy finds leaked, and where
 * device DMA accesses are counted.  It is the DMA layer's bus client
 * (bus.h): made and freed with each device, told of each device access.
 *
 * How it works.  Each device has one red-black tree (BSD <sys/tree.h>) of
 * records ordered by (bus address, insertion number).  Several live
 * mappings may start at one bus address (a buffer mapped twice, or for two
 * directions), so the insertion number keeps the keys unique and orders
 * equal addresses oldest first:
 *
 *                      (0x80001000, 7)
 *                     /               \
 *          (0x80000000, 3)        (0x80001000, 9)     <- same address,
 *                                         \              mapped again
 *                                   (0x80200000, 4)
 *
 *   exact lookup (unmap)        NFIND (addr, 0), walk forward over the
 *                               records starting at addr: O(log n + k)
 *   containment (syncs, device  NFIND (addr, max) and walk backward while
 *   accesses)                   the start is within the largest mapping
 *                               ever made of addr: O(log n + k)
 *
 * Mappings rarely overlap, so k is 1 in practice; with 100,000 live
 * mappings a lookup is about 17 steps.  A device's accesses usually land
 * in the mapping of its previous access, which is kept as a hint and
 * trusted while no record was removed since (the removal generation).
 *
 * A scatterlist mapping is one record per DMA segment, so that a device
 * access or a sync of any segment finds its own; segment 0 (the head)
 * holds the list of segments and the entries as they were at map time,
 * and unmap removes them all at once.
 *
 * What is recorded is what CONFIG_DMA_API_DEBUG keeps: the type (single,
 * page, scatterlist, resource), addresses, size, direction, attributes,
 * the backend, whether dma_mapping_error() looked at the handle, and the
 * caller's return address ("mapping made at").  The checks that use them
 * (CONFIG_DMA_API_DEBUG's check_unmap() and check_sync(): another size,
 * type, direction or entry count, an unchecked mapping error) are
 * mapping.c's; these records also serve leak reports and access counts.
 *
 * Locking.  reg->lock protects the tree and every record in it; it is a
 * leaf: no other lock is taken and no report is made while it is held.
 * Records leave the tree before they are freed, so two racing unmaps of
 * one handle find it once.
 *
 * Allocation.  A map and its unmap make and free one record; each thread
 * keeps the last plain record it freed (its spare) for its next map, so
 * that a driver's map+unmap cycle does not go to the heap.  A thread's
 * spare is freed when the thread exits (a key destructor).
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bsd/sys/tree.h>

#include <linux/dma-mapping.h>
#include <linux/scatterlist.h>

#include "dma/dma.h"

struct node {
	RB_ENTRY(node) link;
	uint64_t seq; /* insertion number: unique, orders equal addresses */
	struct dmaemu__mapping map;
};

static int node_cmp(const struct node *a, const struct node *b)
{
	if (a->map.dma != b->map.dma)
		return a->map.dma < b->map.dma ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

RB_HEAD(reg_tree, node);
/* RB_GENERATE_STATIC() uses __unused, which libbsd leaves undefined. */
#define TREE_FN __attribute__((__unused__)) static
RB_GENERATE_INTERNAL(reg_tree, node, link, node_cmp, TREE_FN)

/**
 * struct dmaemu__registry - the live mappings of one device.
 * @lock:     protects every field and the records in @tree (a leaf).
 * @tree:     the records.
 * @count:    records in @tree.
 * @seq:      last insertion number given.
 * @max_size: largest mapping ever inserted: bounds the backward walk of a
 *            containment lookup.
 * @gen:      bumped by every removal; @hint is valid while @hint_gen
 *            equals it.
 * @hint:     the record the last device access landed in.
 * @stray:    device accesses that landed in no live mapping, or were
 *            refused for reaching bytes no live mapping or allocation
 *            covers.
 * @coh:      the device's live coherent allocations (dma_alloc_attrs()),
 *            @ncoh of them in bus address order (room for @coh_cap): what
 *            device accesses may reach besides the streaming mappings.
 * @gone:     the last @gone_cap mappings and allocations that went away
 *            (unmapped or freed; option unmap_history), a ring whose
 *            newest is at @gone_next - 1 (modulo @gone_cap): a device
 *            access there is named as an access after the unmap.  NULL
 *            with @gone_cap 0 (unmap_history=0: nothing remembered).
 * @gone_next: how many went away since the device was made; more than
 *            @gone_cap, and the oldest were forgotten.
 */
struct dmaemu__registry {
	pthread_mutex_t lock;
	struct reg_tree tree;
	size_t count;
	uint64_t seq;
	size_t max_size;
	uint64_t gen, hint_gen;
	struct node *hint;
	uint64_t stray;
	struct dmaemu__coh_range *coh;
	size_t ncoh, coh_cap;
	struct dmaemu__coh_range *gone;
	size_t gone_cap;
	uint64_t gone_next;
};

static struct node *node_of(struct dmaemu__mapping *map)
{
	return (struct node *)((char *)map - offsetof(struct node, map));
}

/*
 * The registry of @dev, which the caller checked is a live device (every
 * caller has: the API's entry checks, the testing accessors, device
 * destroy), so it is not looked up again.
 */
static struct dmaemu__registry *reg_of(struct device *dev)
{
	return dmaemu__live_device_data(dev, DMAEMU__BUS_DMA);
}

/*
 * The calling thread's spare record (see "Allocation" above); only this
 * thread touches it.  @spare_keyed: the exit destructor is set up for it.
 */
static __thread struct node *spare __attribute__((tls_model("initial-exec")));
static __thread bool spare_keyed __attribute__((tls_model("initial-exec")));
static pthread_key_t spare_key;		  /* under spare_lock until made */
static bool spare_key_made, spare_key_ok; /* under spare_lock */
/*
 * A mutex rather than pthread_once(): Helgrind does not see the
 * happens-before edge of pthread_once()'s fast path and would report the
 * readers of spare_key_ok.  Taken once per thread.
 */
static pthread_mutex_t spare_lock = PTHREAD_MUTEX_INITIALIZER;

/*
 * Key destructor: runs on the exiting thread, so @spare is its own.  A
 * record released by a later destructor sets the key again (and is freed
 * in the next round of destructors).
 */
static void spare_exit(void *unused)
{
	(void)unused;
	dmaemu__free(spare);
	spare = NULL;
	spare_keyed = false;
}

/* Register @spare with the exit destructor.  Return: true on success. */
static bool spare_key_set(void)
{
	bool ok;

	pthread_mutex_lock(&spare_lock);
	if (!spare_key_made) {
		spare_key_ok = !pthread_key_create(&spare_key, spare_exit);
		spare_key_made = true;
	}
	ok = spare_key_ok && !pthread_setspecific(spare_key, &spare);
	pthread_mutex_unlock(&spare_lock);
	return ok;
}

/* Free a record with no arrays, or keep it as the thread's spare. */
static void node_release(struct node *n)
{
	if (!spare && !spare_keyed) {
		/* The destructor runs only for a non-NULL value. */
		spare_keyed = spare_key_set();
	}
	if (!spare && spare_keyed) {
		spare = n;
		return;
	}
	dmaemu__free(n);
}

/* Device create (the bus client's add): an empty registry. */
static int registry_add(struct device *dev, void **data)
{
	struct dmaemu__registry *reg = dmaemu__calloc(1, sizeof(*reg));
	size_t cap = dev->dmaemu->m->opt.unmap_history;

	if (!reg)
		return -ENOMEM;
	if (cap) {
		reg->gone = dmaemu__calloc(cap, sizeof(*reg->gone));
		if (!reg->gone) {
			dmaemu__free(reg);
			return -ENOMEM;
		}
		reg->gone_cap = cap;
	}
	if (dmaemu__mutex_init(&reg->lock)) {
		dmaemu__free(reg->gone);
		dmaemu__free(reg);
		return -ENOMEM;
	}
	RB_INIT(&reg->tree);
	*data = reg;
	return 0;
}

/* Device destroy, last (the bus client's free): the registry and what is
 * left in it. */
static void registry_free(void *data)
{
	struct dmaemu__registry *reg = data;
	struct node *n, *next;

	if (!reg)
		return;
	for (n = RB_MIN(reg_tree, &reg->tree); n; n = next) {
		next = RB_NEXT(reg_tree, &reg->tree, n);
		RB_REMOVE(reg_tree, &reg->tree, n);
		/* Only a scatterlist's head owns these arrays. */
		dmaemu__free(n->map.segs);
		dmaemu__free(n->map.ents);
		dmaemu__free(n);
	}
	pthread_mutex_destroy(&reg->lock);
	dmaemu__free(reg->coh);
	dmaemu__free(reg->gone);
	dmaemu__free(reg);
}

/**
 * dmaemu__mapping_new() - a zeroed record, not yet live.
 * @nents: for a scatterlist, the number of entries (room for as many
 *         segments and entries); 0 otherwise.
 * Return: the record, or NULL when out of host memory.
 */
struct dmaemu__mapping *dmaemu__mapping_new(int nents)
{
	struct node *n = spare;
	size_t len = sizeof(*n);

	if (n)
		spare = NULL;
	else
		n = dmaemu__malloc(len);
	if (!n)
		return NULL;
	/* A call to the C library's memset(): GCC would inline this size as
	 * "rep stos", several times slower on current x86 hosts. */
	__asm__("" : "+r"(len));
	memset(n, 0, len);
	n->map.head = &n->map;
	if (nents > 0) {
		n->map.segs =
			dmaemu__calloc((size_t)nents, sizeof(*n->map.segs));
		n->map.ents =
			dmaemu__calloc((size_t)nents, sizeof(*n->map.ents));
		if (!n->map.segs || !n->map.ents) {
			dmaemu__free(n->map.segs);
			dmaemu__free(n->map.ents);
			node_release(n);
			return NULL;
		}
	}
	return &n->map;
}

/**
 * dmaemu__mapping_free() - free a record that is not live; for the head of
 * a scatterlist, every segment's record too.
 */
void dmaemu__mapping_free(struct dmaemu__mapping *map)
{
	int i;

	if (!map)
		return;
	if (map->type == DMAEMU__MAP_SG && map->segs)
		for (i = 1; i < map->mapped; i++)
			if (map->segs[i] && map->segs[i] != map)
				node_release(node_of(map->segs[i]));
	/* Only a scatterlist's head has arrays. */
	if (map->segs || map->ents) {
		dmaemu__free(map->segs);
		dmaemu__free(map->ents);
	}
	node_release(node_of(map));
}

static void insert_one(struct dmaemu__registry *reg, struct dmaemu__mapping *m)
{
	struct node *n = node_of(m);

	n->seq = ++reg->seq;
	RB_INSERT(reg_tree, &reg->tree, n);
	reg->count++;
	if (m->size > reg->max_size)
		reg->max_size = m->size;
}

/**
 * dmaemu__mapping_insert() - make a record live.
 * @dev: a live device.
 * @map: from dmaemu__mapping_new(), filled in; a scatterlist head with its
 *       @segs[0..@mapped) (segment 0 being @map).
 * Return: 0.
 */
int dmaemu__mapping_insert(struct device *dev, struct dmaemu__mapping *map)
{
	struct dmaemu__registry *reg = reg_of(dev);
	int i;

	dmaemu__lock(&reg->lock);
	if (map->type == DMAEMU__MAP_SG)
		for (i = 0; i < map->mapped; i++)
			insert_one(reg, map->segs[i]);
	else
		insert_one(reg, map);
	dmaemu__unlock(&reg->lock);
	return 0;
}

/* The slot of the ring of ranges that went away that the next one takes
 * (NULL: unmap_history=0); counts it.  Lock held. */
static struct dmaemu__coh_range *gone_slot(struct dmaemu__registry *reg)
{
	struct dmaemu__coh_range *g =
		reg->gone_cap ? &reg->gone[reg->gone_next % reg->gone_cap]
			      : NULL;

	reg->gone_next++;
	return g;
}

/* Remember a range that went away, and the driver's call that undid it
 * (lock held). */
static void gone_add(struct dmaemu__registry *reg,
		     const struct dmaemu__coh_range *r)
{
	const struct dmaemu__call *call = dmaemu__call_current();
	struct dmaemu__coh_range *g = gone_slot(reg);

	if (!g)
		return;
	*g = *r;
	g->gone_fn = call ? call->fn : NULL;
	g->gone_caller = call ? call->caller : NULL;
}

/* Remove one record, remembered as gone (gone_add(), filled in place:
 * every unmap comes here).  Lock held. */
static void remove_one(struct dmaemu__registry *reg, struct dmaemu__mapping *m)
{
	const struct dmaemu__call *call = dmaemu__call_current();
	struct dmaemu__coh_range *g = gone_slot(reg);

	RB_REMOVE(reg_tree, &reg->tree, node_of(m));
	reg->count--;
	if (!g)
		return;
	g->dma = m->dma;
	g->size = m->size;
	g->dir = m->dir;
	g->type = m->type;
	g->fn = m->fn;
	g->caller = m->caller;
	g->backend = m->ops ? m->ops->name : NULL;
	g->attrs = 0;
	g->gone_fn = call ? call->fn : NULL;
	g->gone_caller = call ? call->caller : NULL;
}

/* Remove a record (a scatterlist head with its segments).  Lock held. */
static void remove_mapping(struct dmaemu__registry *reg,
			   struct dmaemu__mapping *map)
{
	int i;

	if (map->type == DMAEMU__MAP_SG)
		for (i = 0; i < map->mapped; i++)
			remove_one(reg, map->segs[i]);
	else
		remove_one(reg, map);
	reg->gen++;
}

/* Do unmaps of @want undo mappings of @have? */
static bool type_matches(enum dmaemu__map_type have, enum dmaemu__map_type want)
{
	bool single_have =
		have == DMAEMU__MAP_SINGLE || have == DMAEMU__MAP_PAGE;
	bool single_want =
		want == DMAEMU__MAP_SINGLE || want == DMAEMU__MAP_PAGE;

	return have == want || (single_have && single_want);
}

/*
 * The record starting at @dma that @want undoes.  Lock held.  Of several
 * (one buffer mapped twice on the direct backend), the best fit, as
 * dma-debug's: the most recent of @size bytes (0: any) and direction
 * @dir (-1: any), else of @size bytes, else of direction @dir, else the
 * most recent.
 */
static struct node *find_exact(struct dmaemu__registry *reg, dma_addr_t dma,
			       enum dmaemu__map_type want,
			       const struct scatterlist *sg, size_t size,
			       int dir)
{
	struct node key, *n, *best = NULL;
	int fit, best_fit = -1;

	key.map.dma = dma;
	key.seq = 0;
	for (n = RB_NFIND(reg_tree, &reg->tree, &key); n && n->map.dma == dma;
	     n = RB_NEXT(reg_tree, &reg->tree, n)) {
		if (!type_matches(n->map.type, want))
			continue;
		if (want == DMAEMU__MAP_SG &&
		    (n->map.seg || (sg && n->map.sg != sg)))
			continue;
		fit = 2 * (size && n->map.size == size) +
		      (dir >= 0 && n->map.dir == dir);
		if (fit >= best_fit) {
			best = n;
			best_fit = fit;
		}
	}
	return best;
}

/**
 * dmaemu__mapping_take() - remove and return the live mapping that an unmap
 * of @dma by an API function of @type undoes.
 * @dev:  a live device.
 * @dma:  bus address given to the unmap.
 * @type: which unmap (SINGLE and PAGE undo each other).
 * @sg:   for SG, the list given to the unmap (NULL: any).
 * @size: the unmap's size (0: any), @dir: its direction (-1: any): of
 *        several records at @dma, the best fit (find_exact()).
 * Return: the record (a scatterlist's head), no longer live: the caller
 * frees it; NULL when no such mapping is live.
 */
struct dmaemu__mapping *dmaemu__mapping_take(struct device *dev, dma_addr_t dma,
					     enum dmaemu__map_type type,
					     const struct scatterlist *sg,
					     size_t size, int dir)
{
	struct dmaemu__registry *reg = reg_of(dev);
	struct node *n;

	dmaemu__lock(&reg->lock);
	n = find_exact(reg, dma, type, sg, size, dir);
	if (n)
		remove_mapping(reg, &n->map);
	dmaemu__unlock(&reg->lock);
	return n ? &n->map : NULL;
}

uint64_t dmaemu__mapping_account(struct device *dev, dma_addr_t dma,
				 enum dmaemu__map_type type, size_t size,
				 int dir, bool for_device,
				 const struct dmaemu__maint *acc)
{
	struct dmaemu__registry *reg = reg_of(dev);
	struct dmaemu__mapping *map;
	uint64_t id = 0;
	struct node *n;

	dmaemu__lock(&reg->lock);
	n = find_exact(reg, dma, type, NULL, size, dir);
	if (n) {
		map = &n->map;
		if (for_device)
			map->syncs_for_device++;
		else
			map->syncs_for_cpu++;
		map->bytes_cleaned += acc->cleaned;
		map->bytes_invalidated += acc->invalidated;
		map->bytes_bounced += acc->bounced;
		id = map->trace_id;
	}
	dmaemu__unlock(&reg->lock);
	return id;
}

/** dmaemu__mapping_take_any() - remove and return any live mapping. */
struct dmaemu__mapping *dmaemu__mapping_take_any(struct device *dev)
{
	struct dmaemu__registry *reg = reg_of(dev);
	struct dmaemu__mapping *map = NULL;
	struct node *n;

	dmaemu__lock(&reg->lock);
	n = RB_MIN(reg_tree, &reg->tree);
	if (n) {
		map = n->map.head;
		remove_mapping(reg, map);
	}
	dmaemu__unlock(&reg->lock);
	return map;
}

/*
 * The most recent record holding [@dma, @dma + @size), or NULL.  Lock
 * held.  Walks back from the last record starting at or below @dma, as
 * far as the largest mapping could reach.
 */
static struct node *find_holding(struct dmaemu__registry *reg, dma_addr_t dma,
				 size_t size)
{
	struct node key, *n;

	key.map.dma = dma;
	key.seq = UINT64_MAX;
	n = RB_NFIND(reg_tree, &reg->tree, &key);
	n = n ? RB_PREV(reg_tree, &reg->tree, n) : RB_MAX(reg_tree, &reg->tree);
	for (; n && dma - n->map.dma < reg->max_size;
	     n = RB_PREV(reg_tree, &reg->tree, n)) {
		uint64_t off = dma - n->map.dma;

		if (off < n->map.size && size <= n->map.size - off)
			return n;
	}
	return NULL;
}

/**
 * dmaemu__mapping_find() - the live mapping holding a bus range, for a sync.
 * @dev:  a live device.
 * @dma:  first byte.
 * @size: bytes (at least 1 is looked for).
 * @out:  receives a copy of the record (@segs and @ents set to NULL: they
 *        belong to the live record).
 * @pf:   NULL, or the prefetch transition (see dma.h); on return, the
 *        change the caller must make with the prefetcher (+1 add, -1
 *        remove, 0 none).
 * Return: 0, or -ENOENT.
 */
int dmaemu__mapping_find(struct device *dev, dma_addr_t dma, size_t size,
			 struct dmaemu__mapping *out, int *pf)
{
	struct dmaemu__registry *reg = reg_of(dev);
	struct dmaemu__mapping *map;
	struct node *n;
	int want = pf ? *pf : 0;

	if (pf)
		*pf = 0;
	dmaemu__lock(&reg->lock);
	n = find_holding(reg, dma, size ? size : 1);
	if (n) {
		map = &n->map;
		if (want > 0 && !map->prefetch) {
			map->prefetch = true;
			*pf = 1;
		} else if (want < 0 && map->prefetch && dma == map->dma &&
			   size >= map->size) {
			map->prefetch = false;
			*pf = -1;
		}
		*out = *map;
		out->segs = NULL;
		out->ents = NULL;
	}
	dmaemu__unlock(&reg->lock);
	return n ? 0 : -ENOENT;
}

/*
 * The record a sync naming @handle means, for a range ending @extent bytes
 * after @handle.  Lock held.  Records that start at @handle come first, as
 * for an unmap: the one of exactly @extent bytes, else the shortest (one
 * buffer mapped twice on the direct backend gives equal handles; a sync
 * longer than one of them and of neither's length is taken for the
 * shorter, as dma-debug takes no entry when none fits exactly).  Without
 * one, the most recent record holding the byte at @handle (a sync by an
 * address inside a mapping).  Never a record that merely holds the range:
 * a sync past the end of its mapping stays one when another mapping
 * covers the bytes past the end.
 */
static struct node *find_named(struct dmaemu__registry *reg, dma_addr_t handle,
			       uint64_t extent)
{
	struct node key, *n, *best = NULL;

	key.map.dma = handle;
	key.seq = 0;
	for (n = RB_NFIND(reg_tree, &reg->tree, &key);
	     n && n->map.dma == handle; n = RB_NEXT(reg_tree, &reg->tree, n)) {
		if (!best || n->map.size == extent ||
		    (best->map.size != extent && n->map.size <= best->map.size))
			best = n;
	}
	return best ? best : find_holding(reg, handle, 1);
}

/**
 * dmaemu__mapping_named() - the live mapping a sync naming @handle means.
 * @dev:    a live device.
 * @handle: the bus address the call names (for the _range_ syncs, the
 *          handle before the offset).
 * @extent: bytes from @handle to the end of the synced range.
 * @out:    receives a copy of the record (@segs and @ents set to NULL).
 * @pf:     as for dmaemu__mapping_find(), with the range [@handle +
 *          @extent - @pf_size, @handle + @extent) of @pf_size bytes.
 *
 * Matches by the handle (find_named()), never by containment of the
 * range: the caller compares the range with the record's end.
 * Return: 0, or -ENOENT.
 */
int dmaemu__mapping_named(struct device *dev, dma_addr_t handle,
			  uint64_t extent, size_t pf_size,
			  struct dmaemu__mapping *out, int *pf)
{
	struct dmaemu__registry *reg = reg_of(dev);
	dma_addr_t dma = handle + extent - pf_size;
	struct dmaemu__mapping *map;
	struct node *n;
	int want = pf ? *pf : 0;

	if (pf)
		*pf = 0;
	dmaemu__lock(&reg->lock);
	n = find_named(reg, handle, extent);
	if (n) {
		map = &n->map;
		if (want > 0 && !map->prefetch) {
			map->prefetch = true;
			*pf = 1;
		} else if (want < 0 && map->prefetch && dma == map->dma &&
			   pf_size >= map->size) {
			map->prefetch = false;
			*pf = -1;
		}
		*out = *map;
		out->segs = NULL;
		out->ents = NULL;
	}
	dmaemu__unlock(&reg->lock);
	return n ? 0 : -ENOENT;
}

/**
 * dmaemu__mapping_find_sg() - a copy of a live scatterlist mapping.
 * @dev: a live device.
 * @dma: bus address of its segment 0 (sg_dma_address() of the list).
 * @sg:  the list it was made from.
 * @out: receives the copy (one block: free() it).
 * Return: 0; -ENOENT when no such mapping is live; -ENOMEM.
 */
int dmaemu__mapping_find_sg(struct device *dev, dma_addr_t dma,
			    const struct scatterlist *sg,
			    struct dmaemu__sg_copy **out)
{
	struct dmaemu__registry *reg = reg_of(dev);
	struct dmaemu__sg_copy *c = NULL;
	struct dmaemu__mapping *map;
	struct node *n;
	size_t bytes;
	int i, ret = -ENOENT;

	dmaemu__lock(&reg->lock);
	n = find_exact(reg, dma, DMAEMU__MAP_SG, sg, 0, -1);
	if (!n)
		goto out;
	map = &n->map;
	bytes = sizeof(*c) +
		(size_t)map->mapped * (sizeof(dma_addr_t) + sizeof(size_t)) +
		(size_t)map->nents * sizeof(struct dmaemu__sg_ent);
	ret = -ENOMEM;
	c = dmaemu__malloc(bytes);
	if (!c)
		goto out;
	c->ops = map->ops;
	c->dir = map->dir;
	c->fn = map->fn;
	c->caller = map->caller;
	c->nents = map->nents;
	c->mapped = map->mapped;
	c->seg_dma = (dma_addr_t *)(c + 1);
	c->seg_len = (size_t *)(c->seg_dma + map->mapped);
	c->ents = (struct dmaemu__sg_ent *)(c->seg_len + map->mapped);
	for (i = 0; i < map->mapped; i++) {
		c->seg_dma[i] = map->segs[i]->dma;
		c->seg_len[i] = map->segs[i]->size;
	}
	memcpy(c->ents, map->ents, (size_t)map->nents * sizeof(*c->ents));
	ret = 0;
out:
	dmaemu__unlock(&reg->lock);
	*out = c;
	return ret;
}

/* The piece of @map's CPU buffer that starts lowest in [@phys, @limit),
 * into [*@lo, *@hi).  Return: whether one does. */
static bool piece_in(const struct dmaemu__mapping *map, uint64_t phys,
		     uint64_t limit, uint64_t *lo, uint64_t *hi)
{
	bool found = false;
	int i;

	if (map->type == DMAEMU__MAP_RESOURCE)
		return false;
	if (map->type != DMAEMU__MAP_SG) {
		*lo = map->phys;
		*hi = map->phys + map->size;
		return *lo<limit && * hi> phys;
	}
	if (map->seg || !map->ents)
		return false; /* segment 0 stands for the whole list */
	for (i = 0; i < map->nents; i++) {
		uint64_t a = map->ents[i].phys, b = a + map->ents[i].len;

		if (a >= limit || b <= phys)
			continue;
		if (!found ||
		    (a > phys ? a : phys) < (*lo > phys ? *lo : phys)) {
			*lo = a;
			*hi = b;
			found = true;
		}
	}
	return found;
}

/**
 * dmaemu__mapping_find_phys() - the live mapping of @dev whose CPU buffer
 * holds the lowest byte of [@phys, @limit) (the most recent of several).
 * @dev:   a live device.
 * @out:   receives a copy of the record (a scatterlist: segment 0's, with
 *         @segs and @ents NULL).
 * @lo:    receives the piece of the buffer that holds it: the buffer, or
 *         the scatterlist's entry, [*@lo, *@hi).
 * Return: true when one does.  Cost: a walk of every live mapping of @dev
 * (reports only).
 */
bool dmaemu__mapping_find_phys(struct device *dev, uint64_t phys,
			       uint64_t limit, struct dmaemu__mapping *out,
			       uint64_t *lo, uint64_t *hi)
{
	struct dmaemu__registry *reg = reg_of(dev);
	uint64_t best = UINT64_MAX, a = 0, b = 0;
	struct node *n;

	dmaemu__lock(&reg->lock);
	RB_FOREACH(n, reg_tree, &reg->tree)
	{
		uint64_t start;

		if (!piece_in(&n->map, phys, limit, &a, &b))
			continue;
		start = a > phys ? a : phys;
		if (start > best)
			continue;
		best = start;
		*out = n->map;
		out->segs = NULL;
		out->ents = NULL;
		*lo = a;
		*hi = b;
	}
	dmaemu__unlock(&reg->lock);
	return best != UINT64_MAX;
}

/**
 * dmaemu__mapping_find_start() - the most recent live mapping of @dev, of
 * any type, whose record starts at @dma (a scatterlist: its head when
 * segment 0 starts there, else the segment), for the reports of an unmap
 * that found none of its own type.
 * @out: receives a copy (@segs and @ents NULL).
 * Return: 0, or -ENOENT.
 */
int dmaemu__mapping_find_start(struct device *dev, dma_addr_t dma,
			       struct dmaemu__mapping *out)
{
	struct dmaemu__registry *reg = reg_of(dev);
	struct node key, *n, *best = NULL;

	key.map.dma = dma;
	key.seq = 0;
	dmaemu__lock(&reg->lock);
	for (n = RB_NFIND(reg_tree, &reg->tree, &key); n && n->map.dma == dma;
	     n = RB_NEXT(reg_tree, &reg->tree, n))
		best = n;
	if (best) {
		*out = best->map;
		out->segs = NULL;
		out->ents = NULL;
	}
	dmaemu__unlock(&reg->lock);
	return best ? 0 : -ENOENT;
}

/** dmaemu__mapping_checked() - dma_mapping_error() looked at @dma. */
void dmaemu__mapping_checked(struct device *dev, dma_addr_t dma)
{
	struct dmaemu__registry *reg = reg_of(dev);
	struct node key, *n;

	key.map.dma = dma;
	key.seq = 0;
	dmaemu__lock(&reg->lock);
	for (n = RB_NFIND(reg_tree, &reg->tree, &key); n && n->map.dma == dma;
	     n = RB_NEXT(reg_tree, &reg->tree, n))
		n->map.error_checked = true;
	dmaemu__unlock(&reg->lock);
}

/** dmaemu__mapping_count() - records live for @dev. */
size_t dmaemu__mapping_count(struct device *dev)
{
	struct dmaemu__registry *reg = reg_of(dev);
	size_t n;

	dmaemu__lock(&reg->lock);
	n = reg->count;
	dmaemu__unlock(&reg->lock);
	return n;
}

/** dmaemu__mapping_stray() - device accesses that hit no live mapping. */
uint64_t dmaemu__mapping_stray(struct device *dev)
{
	struct dmaemu__registry *reg = reg_of(dev);
	uint64_t n;

	dmaemu__lock(&reg->lock);
	n = reg->stray;
	dmaemu__unlock(&reg->lock);
	return n;
}

/**
 * dmaemu__mapping_list() - copies of the live records of @dev.
 * @dev: a live device.
 * @out: room for @max records, filled in bus address order (oldest first
 *       at one address); scatterlist copies have @segs and @ents NULL.
 * @max: records @out can take.
 * Return: the number of live records (which may exceed @max).
 */
size_t dmaemu__mapping_list(struct device *dev, struct dmaemu__mapping *out,
			    size_t max)
{
	struct dmaemu__registry *reg = reg_of(dev);
	struct node *n;
	size_t i = 0, count;

	dmaemu__lock(&reg->lock);
	count = reg->count;
	RB_FOREACH(n, reg_tree, &reg->tree)
	{
		if (i == max)
			break;
		out[i] = n->map;
		out[i].segs = NULL;
		out[i].ents = NULL;
		out[i].head = NULL;
		i++;
	}
	dmaemu__unlock(&reg->lock);
	return count;
}

/* ---------------------------------------------------------------------- */
/* What a device may reach                                                */
/* ---------------------------------------------------------------------- */

/* Index of the first coherent range of @reg starting above @dma.  Lock
 * held. */
static size_t coh_upper(const struct dmaemu__registry *reg, dma_addr_t dma)
{
	size_t lo = 0, hi = reg->ncoh;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (reg->coh[mid].dma <= dma)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The coherent range holding @dma, or NULL.  Lock held. */
static const struct dmaemu__coh_range *coh_at(
	const struct dmaemu__registry *reg, dma_addr_t dma)
{
	size_t i = coh_upper(reg, dma);

	if (i && dma - reg->coh[i - 1].dma < reg->coh[i - 1].size)
		return &reg->coh[i - 1];
	return NULL;
}

/**
 * dmaemu__mapping_coherent_add() - the coherent allocation @r of @dev is
 * live: device accesses may reach it.
 * Return: 0, or -ENOMEM.
 */
int dmaemu__mapping_coherent_add(struct device *dev,
				 const struct dmaemu__coh_range *r)
{
	struct dmaemu__registry *reg = reg_of(dev);
	size_t i;

	dmaemu__lock(&reg->lock);
	if (reg->ncoh == reg->coh_cap) {
		size_t cap = reg->coh_cap ? 2 * reg->coh_cap : 8;
		struct dmaemu__coh_range *t =
			dmaemu__realloc(reg->coh, cap * sizeof(*t));

		if (!t) {
			dmaemu__unlock(&reg->lock);
			return -ENOMEM;
		}
		reg->coh = t;
		reg->coh_cap = cap;
	}
	i = coh_upper(reg, r->dma);
	memmove(&reg->coh[i + 1], &reg->coh[i],
		(reg->ncoh - i) * sizeof(*reg->coh));
	reg->coh[i] = *r;
	reg->coh[i].type = DMAEMU__MAP_COHERENT;
	reg->ncoh++;
	dmaemu__unlock(&reg->lock);
	return 0;
}

/**
 * dmaemu__mapping_coherent_del() - the coherent allocation of @dev at bus
 * address @dma goes away (before its memory does).
 */
void dmaemu__mapping_coherent_del(struct device *dev, dma_addr_t dma)
{
	struct dmaemu__registry *reg = reg_of(dev);
	size_t i;

	dmaemu__lock(&reg->lock);
	i = coh_upper(reg, dma);
	if (i && reg->coh[i - 1].dma == dma) {
		gone_add(reg, &reg->coh[i - 1]);
		memmove(&reg->coh[i - 1], &reg->coh[i],
			(reg->ncoh - i) * sizeof(*reg->coh));
		reg->ncoh--;
	}
	dmaemu__unlock(&reg->lock);
}

/*
 * The record holding @dma best for an access (a write prefers one that is
 * not DMA_TO_DEVICE), or NULL.  Lock held.
 */
static struct node *holder_at(struct dmaemu__registry *reg, dma_addr_t dma,
			      bool write)
{
	struct node key, *n, *first = NULL;

	key.map.dma = dma;
	key.seq = UINT64_MAX;
	n = RB_NFIND(reg_tree, &reg->tree, &key);
	n = n ? RB_PREV(reg_tree, &reg->tree, n) : RB_MAX(reg_tree, &reg->tree);
	for (; n && dma - n->map.dma < reg->max_size;
	     n = RB_PREV(reg_tree, &reg->tree, n)) {
		if (dma - n->map.dma >= n->map.size)
			continue;
		if (!write || n->map.dir != DMA_TO_DEVICE)
			return n;
		if (!first)
			first = n;
	}
	return first;
}

/* The lowest start of a live range of @reg above @dma (UINT64_MAX: none).
 * Lock held. */
static uint64_t next_start(struct dmaemu__registry *reg, dma_addr_t dma)
{
	struct node key, *n;
	uint64_t best = UINT64_MAX;
	size_t i;

	key.map.dma = dma;
	key.seq = UINT64_MAX;
	n = RB_NFIND(reg_tree, &reg->tree, &key);
	if (n)
		best = n->map.dma;
	i = coh_upper(reg, dma);
	if (i < reg->ncoh && reg->coh[i].dma < best)
		best = reg->coh[i].dma;
	return best;
}

/* A live range of @reg as the reports name it. */
static void range_of_map(const struct dmaemu__mapping *map,
			 struct dmaemu__coh_range *r)
{
	r->dma = map->dma;
	r->size = map->size;
	r->dir = map->dir;
	r->type = map->type;
	r->fn = map->fn;
	r->caller = map->caller;
	r->backend = map->ops ? map->ops->name : NULL;
}

/* The live range nearest to the uncovered run of @a, within DMAEMU__NEAR
 * bytes.  Lock held.  Cost: a walk of every live mapping (reports only). */
static void find_near(struct dmaemu__registry *reg, struct dmaemu__admit *a)
{
	struct dmaemu__coh_range r;
	struct node *n;
	size_t i;

	a->near = false;
	a->near_dist = DMAEMU__NEAR + 1;
#define CONSIDER(range)                                               \
	do {                                                          \
		uint64_t end_ = (range).dma + (range).size;           \
		if (end_ <= a->ulo && a->ulo - end_ < a->near_dist) { \
			a->near_dist = a->ulo - end_;                 \
			a->near_after = false;                        \
			a->near_r = (range);                          \
			a->near = true;                               \
		} else if ((range).dma >= a->ulo &&                   \
			   (range).dma - a->ulo < a->near_dist) {     \
			a->near_dist = (range).dma - a->ulo;          \
			a->near_after = true;                         \
			a->near_r = (range);                          \
			a->near = true;                               \
		}                                                     \
	} while (0)
	RB_FOREACH(n, reg_tree, &reg->tree)
	{
		range_of_map(&n->map, &r);
		CONSIDER(r);
	}
	for (i = 0; i < reg->ncoh; i++)
		CONSIDER(reg->coh[i]);
#undef CONSIDER
}

/* The newest range that went away holding bus address @dma (NULL: none
 * of those remembered).  Lock held.  Cost: the history (reports only). */
static const struct dmaemu__coh_range *gone_at(struct dmaemu__registry *reg,
					       dma_addr_t dma)
{
	uint64_t i, n = reg->gone_next < reg->gone_cap ? reg->gone_next
						       : reg->gone_cap;

	for (i = 0; i < n; i++) {
		const struct dmaemu__coh_range *g =
			&reg->gone[(reg->gone_next - 1 - i) % reg->gone_cap];

		if (dma - g->dma < g->size)
			return g;
	}
	return NULL;
}

/*
 * A live range @r whose bus address, cut to its low @bits bits (a
 * register or a DMA mask narrower than the address), holds @dma: the
 * narrowest such cut.  Return: @bits, or 0.
 */
static unsigned int cut_bits(const struct dmaemu__coh_range *r, dma_addr_t dma)
{
	unsigned int bits;

	for (bits = 32; bits < 64; bits++) {
		uint64_t low = ((uint64_t)1 << bits) - 1;

		if (!(r->dma >> bits) || dma > low)
			continue;
		if (dma - (r->dma & low) < r->size)
			return bits;
	}
	return 0;
}

/* The live range of @reg that @a->ulo is a cut address of (@a->alias).
 * Lock held.  Cost: a walk of every live range (reports only). */
static void find_alias(struct dmaemu__registry *reg, struct dmaemu__admit *a)
{
	struct dmaemu__coh_range r;
	unsigned int bits;
	struct node *n;
	size_t i;

	a->alias = false;
	a->alias_bits = 64;
	RB_FOREACH(n, reg_tree, &reg->tree)
	{
		range_of_map(&n->map, &r);
		bits = cut_bits(&r, a->ulo);
		if (bits && bits < a->alias_bits) {
			a->alias = true;
			a->alias_bits = bits;
			a->alias_r = r;
		}
	}
	for (i = 0; i < reg->ncoh; i++) {
		bits = cut_bits(&reg->coh[i], a->ulo);
		if (bits && bits < a->alias_bits) {
			a->alias = true;
			a->alias_bits = bits;
			a->alias_r = reg->coh[i];
		}
	}
}

/*
 * What the reports of an access to @a->ulo, outside every live range, say
 * of it: the range that went away there (the history), whether older
 * unmaps were forgotten, the live range nearest, the live range it is a
 * cut address of.  Lock held.
 */
static void explain_at(struct dmaemu__registry *reg, struct dmaemu__admit *a)
{
	const struct dmaemu__coh_range *g = gone_at(reg, a->ulo);

	a->gone = g != NULL;
	if (g)
		a->gone_r = *g;
	a->history = reg->gone_cap;
	a->forgot = reg->gone_next > reg->gone_cap;
	find_near(reg, a);
	find_alias(reg, a);
}

/**
 * dmaemu__mapping_admit() - may device @dev access [@dma, +@len)?  (See
 * dma.h.)  Cost on a correct access: the hint, or one containment lookup
 * per mapping or allocation the access spans.
 */
bool dmaemu__mapping_admit(struct device *dev, dma_addr_t dma, size_t len,
			   bool write, struct dmaemu__admit *out)
{
	struct dmaemu__registry *reg = reg_of(dev);
	uint64_t p = dma, end = dma + len;
	struct node *n;
	bool ok = true;

	dmaemu__lock(&reg->lock);
	n = reg->hint;
	if (n && reg->hint_gen == reg->gen && dma - n->map.dma < n->map.size &&
	    len <= n->map.size - (dma - n->map.dma) &&
	    (!write || n->map.dir != DMA_TO_DEVICE)) {
		dmaemu__unlock(&reg->lock);
		return true;
	}
	out->uhi = 0;
	out->whi = 0;
	out->gone = out->near = out->alias = out->overrun = false;
	out->forgot = out->live = false;
	while (p < end) {
		const struct dmaemu__coh_range *c;
		uint64_t stop;

		n = holder_at(reg, p, write);
		if (n && p == dma && n->map.dma + n->map.size >= end) {
			/* One mapping holds it all: the access's hint too. */
			reg->hint = n;
			reg->hint_gen = reg->gen;
		}
		if (n) {
			stop = n->map.dma + n->map.size;
			if (stop > end)
				stop = end;
			if (write && n->map.dir == DMA_TO_DEVICE && !out->whi) {
				out->wlo = p;
				out->whi = stop;
				out->wmap = n->map;
				out->wmap.segs = NULL;
				out->wmap.ents = NULL;
				ok = false;
			}
			p = stop;
			continue;
		}
		c = coh_at(reg, p);
		if (c) {
			p = c->dma + c->size;
			continue;
		}
		stop = next_start(reg, p);
		out->ulo = p;
		out->uhi = stop < end ? stop : end;
		ok = false;
		break;
	}
	if (out->uhi) {
		reg->stray++;
		explain_at(reg, out);
		/* Overrunning a live range is no guess: it is named even
		 * when unmaps were forgotten. */
		out->overrun = out->near && !out->near_after &&
			       !out->near_dist && out->ulo > dma;
	}
	dmaemu__unlock(&reg->lock);
	return ok;
}

/**
 * dmaemu__mapping_explain() - what the registry of @dev knows of bus
 * address @dma that no live range covers (a fault before any admit: the
 * IOMMU found the page unmapped, or the address is not DRAM): the
 * facts of dmaemu__mapping_admit() for an uncovered run starting at @dma,
 * and the live coherent allocation holding it (@live, @live_r) if one
 * does.
 */
void dmaemu__mapping_explain(struct device *dev, dma_addr_t dma,
			     struct dmaemu__admit *out)
{
	struct dmaemu__registry *reg = reg_of(dev);
	const struct dmaemu__coh_range *c;

	memset(out, 0, sizeof(*out));
	out->ulo = dma;
	out->uhi = dma + 1;
	dmaemu__lock(&reg->lock);
	c = coh_at(reg, dma);
	if (c) {
		out->live = true;
		out->live_r = *c;
	}
	explain_at(reg, out);
	dmaemu__unlock(&reg->lock);
}

/*
 * registry_access() - a device access (the bus client's access).
 * @dev:   a live device.
 * @dma:   bus address of the access.
 * @phys:  where it landed.
 * @len:   bytes.
 * @write: a device write.
 *
 * Counts the access in the mapping holding its first byte and keeps it
 * as that mapping's last device access (what a report of a stale CPU read
 * will quote); an access outside every mapping is counted as stray.  An
 * access inside a mapping then goes through the ownership check
 * (owncheck.c), unless the bus found it read stale data (@stale: reported
 * as stale-device-read already).
 */
static void registry_access(struct device *dev, void *data, dma_addr_t dma,
			    uint64_t phys, size_t len, bool write, bool stale)
{
	struct dmaemu__registry *reg = data;
	struct dmaemu__mapping *map, copy;
	struct node *n;

	dmaemu__lock(&reg->lock);
	n = reg->hint;
	if (!n || reg->hint_gen != reg->gen || dma - n->map.dma >= n->map.size)
		n = find_holding(reg, dma, 1);
	if (n) {
		map = &n->map;
		if (write) {
			map->dev_writes++;
			map->dev_bytes_written += len;
		} else {
			map->dev_reads++;
			map->dev_bytes_read += len;
		}
		map->last.dma = dma;
		map->last.len = len;
		map->last.write = write;
		map->last.valid = true;
		reg->hint = n;
		reg->hint_gen = reg->gen;
		copy = *map;
		copy.segs = NULL;
		copy.ents = NULL;
	} else {
		reg->stray++;
	}
	dmaemu__unlock(&reg->lock);
	/* The ownership check, unlocked (it may report); an access that read
	 * stale data was reported as such already. */
	if (n && !stale)
		dmaemu__owncheck_device(dev, &copy, dma, phys, len, write);
}

/*
 * registry_order() - the ordering attributes of a device access (the bus
 * client's order op): *@any gets the DMA_ATTR_* bits of some range the
 * access reaches, *@all those every byte of it carries (0 when a byte is
 * in no live range).  A byte held by several mappings counts the first
 * holder found (the one the access is counted in).
 */
static void registry_order(struct device *dev, void *data, dma_addr_t dma,
			   size_t len, bool write, unsigned long *any,
			   unsigned long *all)
{
	struct dmaemu__registry *reg = data;
	uint64_t p = dma, end = dma + len;

	(void)dev;
	*any = 0;
	*all = ~0UL;
	dmaemu__lock(&reg->lock);
	while (p < end) {
		const struct dmaemu__coh_range *c;
		struct node *n = holder_at(reg, p, write);
		unsigned long a;
		uint64_t stop;

		if (n) {
			a = n->map.attrs;
			stop = n->map.dma + n->map.size;
		} else if ((c = coh_at(reg, p))) {
			a = c->attrs;
			stop = c->dma + c->size;
		} else {
			a = 0;
			stop = next_start(reg, p);
		}
		*any |= a;
		*all &= a;
		p = stop < end ? stop : end;
	}
	dmaemu__unlock(&reg->lock);
	if (!len)
		*all = 0;
}

/* Device destroy, after the managed resources: what the device still
 * holds is reported and released, mappings first. */
static void registry_release(struct device *dev, void *data)
{
	(void)data;
	dmaemu__mapping_release_device(dev);
	dmaemu__alloc_release_device(dev);
	dmaemu__iommu_dma_release(dev);
}

/* Before a device access moves data (the bus client's admit): refused
 * when it reaches bytes no live mapping or allocation covers. */
static int registry_admit(struct device *dev, void *data, dma_addr_t dma,
			  size_t len, bool write)
{
	struct dmaemu__admit a;

	(void)data;
	if (dmaemu__mapping_admit(dev, dma, len, write, &a))
		return 0;
	return dmaemu__owncheck_admit(dev, dma, len, write, &a);
}

/*
 * DMAEMU__EXPLAIN_SLOT: the fix of a device read, at bus address @dma, of
 * bytes of a swiotlb bounce slot that the CPU wrote and never cleaned.
 * Linux 6.12's swiotlb_tbl_map_single() copies the buffer into the slot
 * through the CPU's cache at every map; DMA_ATTR_SKIP_CPU_SYNC then skips
 * the clean (arch_sync_dma_for_device()) that would write the copy to
 * memory, and only a dma_sync_single_for_device() does it.
 */
static void slot_fix(struct device *dev, dma_addr_t dma, char *buf, size_t len,
		     char *made_at, size_t mlen)
{
	struct dmaemu__mapping map;
	struct dmaemu__owner_info o;
	const char *dir;

	if (made_at)
		made_at[0] = '\0';
	if (dmaemu__mapping_find(dev, dma, 1, &map, NULL) ||
	    !(map.attrs & DMA_ATTR_SKIP_CPU_SYNC) || !map.ops ||
	    strcmp(map.ops->name, "swiotlb"))
		return;
	dir = dmaemu__dir_name(map.dir, "DMA_NONE");
	if (map.type == DMAEMU__MAP_SG)
		snprintf(buf, len,
			 "dma_sync_sg_for_device(dev, sgl, %d, %s) after the "
			 "CPU's last write, or map without "
			 "DMA_ATTR_SKIP_CPU_SYNC (swiotlb copied the buffer "
			 "into its bounce slot through the CPU's cache, and "
			 "the attribute skipped the clean that writes the copy "
			 "to memory)",
			 map.nents, dir);
	else
		snprintf(buf, len,
			 "dma_sync_single_for_device(dev, 0x%llx, %zu, %s) "
			 "after the CPU's last write, or map without "
			 "DMA_ATTR_SKIP_CPU_SYNC (swiotlb copied the buffer "
			 "into its bounce slot through the CPU's cache, and "
			 "the attribute skipped the clean that writes the copy "
			 "to memory)",
			 (unsigned long long)map.dma, map.size, dir);
	memset(&o, 0, sizeof(o));
	o.made_caller = map.caller;
	o.made_fn = map.fn;
	if (made_at)
		snprintf(made_at, mlen, "%s", dmaemu__owner_made_at(&o));
}

/* A report of the bus about bus address @dma of @dev (the bus client's
 * explain, see dmaemu__bus_explain() in bus.h). */
static void registry_explain(struct device *dev, void *data, dma_addr_t dma,
			     unsigned int what, char *buf, size_t len,
			     char *made_at, size_t mlen)
{
	struct dmaemu__owner_info made;
	struct dmaemu__admit a;
	char text[560];

	(void)data;
	buf[0] = '\0';
	if (what & DMAEMU__EXPLAIN_SLOT) {
		slot_fix(dev, dma, buf, len, made_at, mlen);
		return;
	}
	dmaemu__mapping_explain(dev, dma, &a);
	made.made_at[0] = '\0';
	if ((what & DMAEMU__EXPLAIN_ALLOC) && a.live) {
		dmaemu__owncheck_range_text(&a.live_r, &made, text,
					    sizeof(text));
		snprintf(buf, len, "\n    in %s", text);
	} else if (what & DMAEMU__EXPLAIN_FAULT) {
		dmaemu__owncheck_explain(&a, 1, "the address is", buf, len,
					 &made);
	}
	if (made_at)
		snprintf(made_at, mlen, "%s", made.made_at);
}

/* dmaemu_device_bind(): does @dev hold mappings or allocations? */
static bool registry_busy(struct device *dev, void *data)
{
	struct dmaemu__registry *reg = data;
	size_t n;

	dmaemu__lock(&reg->lock);
	n = reg->count;
	dmaemu__unlock(&reg->lock);
	return n || dmaemu__alloc_device_busy(dev);
}

static const struct dmaemu__bus_client registry_client = {
	.add = registry_add,
	.busy = registry_busy,
	.release = registry_release,
	.free = registry_free,
	.access = registry_access,
	.admit = registry_admit,
	.order = registry_order,
	.explain = registry_explain,
};

void dmaemu__dma_init(struct dmaemu_machine *m)
{
	dmaemu__bus_attach(m, DMAEMU__BUS_DMA, &registry_client);
	dmaemu__owner_set_finder(dmaemu__owncheck_find);
	dmaemu__iommu_dma_init(m);
}
