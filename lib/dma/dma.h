/* SPDX-License-Identifier: MIT */
/*
 * dma.h - the DMA layer of lib/: the DMA-mapping API, its backends, the
 * registry of live mappings, allocations, pools, masks, scatterlists.
 *
 *   mapping.c      the public DMA API: validate, choose the backend,
 *                  dispatch through its ops, record, then the checks
 *   backend.h      the ops contract between mapping.c and the three
 *                  backends below (only those four include it)
 *   arch.c         the per-profile cache maintenance every backend uses
 *   direct.c       direct backend (bus address = physical + offset)
 *   swiotlb.c      bounce-buffer backend
 *   iommu.c        IOMMU backend: IOVA spaces and the DMA ops, mapping
 *                  into the bus's IOMMU (bus/iommu.c: page tables, faults)
 *   registry.c     the registry of live mappings of each device
 *   owncheck.c     ownership checks of device accesses; naming the
 *                  mapping that owns a line for the checkers' reports
 *   alloc.c        dma_alloc_attrs and the attributes, dmam_*, mmap,
 *                  get_sgtable
 *   pool.c         dma_pool_*;  scatterlist.c  sg_* helpers
 *   mask.c         dma_set_mask and friends
 *
 * Data flows one way: a public call validates its arguments, picks the
 * backend (IOMMU when the machine has one; otherwise swiotlb when forced or
 * when the buffer is beyond the device's mask; otherwise direct), calls the
 * backend's op, records the result in registry.c, and moves ownership.
 * The backend named in the record serves the matching unmap and syncs; no
 * backend calls another's ops.
 */
#ifndef DMAEMU_LIB_DMA_H
#define DMAEMU_LIB_DMA_H

#include "bus/bus.h"

struct scatterlist;

/* Directions, as the values of enum dma_data_direction. */
#define DMAEMU__DIR_BIDI 0
#define DMAEMU__DIR_TO_DEVICE 1
#define DMAEMU__DIR_FROM_DEVICE 2
#define DMAEMU__DIR_NONE 3

/* Every DMA_ATTR_* bit of Linux 6.12: 4.14's without WRITE_BARRIER and
 * NON_CONSISTENT. */
#define DMAEMU__ATTRS_612 (DMAEMU__ALL_ATTRS & ~(1UL << 0) & ~(1UL << 3))
/* The attribute bits of @m's API level. */
#define DMAEMU__LEVEL_ATTRS(m) \
	((m)->opt.k612 ? DMAEMU__ATTRS_612 : DMAEMU__ALL_ATTRS)

/* Every DMA_ATTR_* bit of Linux 4.14 (where <linux/dma-mapping.h> is in). */
#define DMAEMU__ALL_ATTRS                                          \
	(DMA_ATTR_WRITE_BARRIER | DMA_ATTR_WEAK_ORDERING |         \
	 DMA_ATTR_WRITE_COMBINE | DMA_ATTR_NON_CONSISTENT |        \
	 DMA_ATTR_NO_KERNEL_MAPPING | DMA_ATTR_SKIP_CPU_SYNC |     \
	 DMA_ATTR_FORCE_CONTIGUOUS | DMA_ATTR_ALLOC_SINGLE_PAGES | \
	 DMA_ATTR_NO_WARN | DMA_ATTR_PRIVILEGED)

/* "DMA_TO_DEVICE" for a direction; @invalid for a value that is none.
 * Inline so that the dispatcher and every backend can name directions
 * without calling into one another. */
static inline const char *dmaemu__dir_name(int dir, const char *invalid)
{
	static const char *const dir_names[] = {
		"DMA_BIDIRECTIONAL",
		"DMA_TO_DEVICE",
		"DMA_FROM_DEVICE",
		"DMA_NONE",
	};

	return (unsigned int)dir <= DMAEMU__DIR_NONE ? dir_names[dir] : invalid;
}

/**
 * struct dmaemu__dma_backend - a DMA backend as the rest of the layer
 * knows it: what a mapping record names (reports, traces, tests).  Its
 * ops table (struct dmaemu__dma_ops, backend.h) starts with this; only the
 * dispatcher and the backends include backend.h and call ops.
 * @name: "direct", "swiotlb", "iommu".
 */
struct dmaemu__dma_backend {
	const char *name;
};

/*
 * Per-profile cache maintenance of a physical range (docs/model.md, the
 * profile table), used by every backend for the memory the device really
 * touches (the buffer itself, or the bounce slot), and by the dispatcher
 * for the syncs of NON_CONSISTENT allocations:
 *   arm:   for_device: FROM_DEVICE invalidates (partial edge lines
 *          clean+invalidate), others clean; for_cpu: not TO_DEVICE
 *          invalidates.
 *   arm64: for_device: always clean; for_cpu: not TO_DEVICE invalidates.
 *   x86:   nothing (devices snoop).
 * arch.c.
 */
bool dmaemu__dma_kmalloc_needs_bounce(struct dmaemu_machine *m, size_t size,
				      int dir);
void dmaemu__arch_sync_for_device(struct dmaemu_machine *m, struct device *dev,
				  uint64_t phys, size_t size, int dir);
void dmaemu__arch_sync_for_cpu(struct dmaemu_machine *m, struct device *dev,
			       uint64_t phys, size_t size, int dir);

/* ---------------------------------------------------------------------- */
/* Dispatch and the registry (mapping.c, registry.c)                     */
/* ---------------------------------------------------------------------- */

/*
 * Machine create: hang the DMA layer on the bus (the registry of each
 * device's mappings, the release of what a destroyed device leaves, the
 * accounting of device accesses) and, with iommu=1, name the IOMMU
 * backend's pages in the bus's fault reports (registry.c).
 */
void dmaemu__dma_init(struct dmaemu_machine *m);

/* What made a mapping (the function family that must undo it). */
enum dmaemu__map_type {
	DMAEMU__MAP_SINGLE,   /* dma_map_single_attrs() */
	DMAEMU__MAP_PAGE,     /* dma_map_page_attrs() */
	DMAEMU__MAP_SG,	      /* dma_map_sg_attrs(), one record a segment */
	DMAEMU__MAP_RESOURCE, /* dma_map_resource() */
	DMAEMU__MAP_COHERENT, /* dma_alloc_attrs() (if registered here) */
};

/* One entry of a mapped scatterlist, as it was at map time. */
struct dmaemu__sg_ent {
	uint64_t phys;
	size_t len;
};

/* A device access seen by the checker hook. */
struct dmaemu__dev_access {
	dma_addr_t dma;
	size_t len;
	bool write;
	bool valid; /* false until the first access */
};

/**
 * struct dmaemu__mapping - the record of one live mapping (registry.c).
 * @type:          what made it.
 * @dma:           bus address of its first byte.
 * @phys:          physical address of its first byte (for a scatterlist
 *                 segment: of its first entry).
 * @cpu_addr:      the CPU address mapped (NULL for pages without one,
 *                 resources).
 * @size:          bytes.
 * @dir:           direction.
 * @attrs:         DMA_ATTR_* bits given to the map.
 * @ops:           the backend that made it; it serves the unmap and syncs
 *                 (the dispatcher reaches its ops through backend.h).
 * @fn:            the API function that made it ("dma_map_single_attrs").
 * @caller:        return address of the driver's call ("mapping made at").
 * @error_checked: dma_mapping_error() was called on @dma.
 * @prefetch:      registered with the prefetcher (option prefetch=1).
 * @sg:            scatterlist: the list given to dma_map_sg_attrs().
 * @nents:         scatterlist: entries given; @mapped: segments returned.
 * @seg:           scatterlist: index of this segment.
 * @head:          scatterlist: segment 0's record (itself for segment 0).
 * @segs:          scatterlist, segment 0 only: every segment's record.
 * @ents:          scatterlist, segment 0 only: the @nents entries.
 * @dev_reads:     device reads that touched the mapping.
 * @dev_writes:    device writes that touched it.
 * @last:          the last device access.
 * @trace_id:      its ownership spans in the JSON trace (0: none).
 * @syncs_for_device, @syncs_for_cpu: syncs that found it (a scatterlist's
 *                 count in segment 0's record).
 * @bytes_cleaned, @bytes_invalidated, @bytes_bounced: what its map and
 *                 syncs maintained and bounced (struct dmaemu__maint).
 */
struct dmaemu__mapping {
	enum dmaemu__map_type type;
	dma_addr_t dma;
	uint64_t phys;
	const void *cpu_addr;
	size_t size;
	int dir;
	unsigned long attrs;
	const struct dmaemu__dma_backend *ops;
	const char *fn;
	const void *caller;
	bool error_checked;
	bool prefetch;
	struct scatterlist *sg;
	int nents, mapped, seg;
	struct dmaemu__mapping *head;
	struct dmaemu__mapping **segs;
	struct dmaemu__sg_ent *ents;
	uint64_t dev_reads, dev_writes;
	uint64_t dev_bytes_read, dev_bytes_written; /* of those accesses */
	struct dmaemu__dev_access last;
	uint64_t trace_id;
	uint64_t syncs_for_device, syncs_for_cpu;
	uint64_t bytes_cleaned, bytes_invalidated, bytes_bounced;
};

/*
 * What the cache maintenance (arch.c) and the bounce copies (swiotlb.c)
 * of this thread did, added where the device's statistics are: the
 * dispatcher zeroes it before a backend's op and gives it to the mapping
 * after (registry.c: dmaemu__mapping_account()).  Thread-local: no lock,
 * no branch on the way.
 */
struct dmaemu__maint {
	uint64_t cleaned, invalidated, bounced;
};
extern __thread struct dmaemu__maint dmaemu__maint_acc
	__attribute__((tls_model("initial-exec"), visibility("hidden")));

/*
 * registry.c: the registry of live mappings, one per device, ordered by
 * bus address (several mappings may share one).  Every function takes the
 * device's registry lock, a leaf; none makes a report.
 *
 *  _new()/_free():  a record (zeroed) and its release; for scatterlists
 *                   @nents > 0 also allocates @segs and @ents.
 *  _insert():       make @map live (0, or -EINVAL for a dead device).
 *  _take():         find the live mapping starting at @dma made by @type
 *                   (SINGLE and PAGE match each other; SG also needs @sg
 *                   when not NULL), remove it (a scatterlist with all its
 *                   segments) and return it; NULL when there is none.
 *  _take_any():     remove and return any live mapping (device destroy).
 *  _find():         copy into @out the mapping holding [@dma, +@size)
 *                   (the most recent one if several do); for a
 *                   scatterlist segment, @out->segs/ents are NULL.  With
 *                   @pf (option prefetch), flip the prefetch flag for a
 *                   sync: +1 for the device (returns 1 in *@pf if it was
 *                   off), -1 for the CPU over the whole mapping (returns
 *                   -1 if it was on).  0 or -ENOENT.
 *  _find_sg():      the scatterlist mapping whose segment 0 starts at @dma
 *                   and was made from @sg: its segments' bus ranges and
 *                   its entries, copied into one malloc()ed block that the
 *                   caller frees.  0, -ENOENT or -ENOMEM.
 *  _find_start():   a copy of the most recent live record of any type
 *                   starting at @dma (the reports of an unmap or free
 *                   by the wrong function).  0 or -ENOENT.
 *  _checked():      dma_mapping_error() was called on @dma.
 *  _count():        live records of @dev (segments counted one by one).
 *  _list():         copies of up to @max live records of @dev in bus
 *                   address order (as _find() copies them); returns how
 *                   many are live.
 *  _admit():       before a device access moves data: true when every
 *                   byte of it is in a live mapping or coherent
 *                   allocation of @dev and a write reaches no byte that
 *                   only DMA_TO_DEVICE mappings hold; else false with
 *                   what is wrong in @out (owncheck.c reports it).
 *  _coherent_add(), _coherent_del(): a coherent allocation of @dev (its
 *                   bus range) starts and stops being reachable
 *                   (alloc.c); 0 or -ENOMEM.
 *  _device_access(): the checker hook of device DMA (device.c): counts the
 *                   access in the mapping holding it and remembers it as
 *                   the last one; accesses outside every mapping are
 *                   counted per device (_stray()).
 */
struct dmaemu__sg_copy {
	const struct dmaemu__dma_backend *ops;
	int dir;	    /* the map's direction */
	const char *fn;	    /* "dma_map_sg_attrs" */
	const void *caller; /* "mapping made at" */
	int nents, mapped;
	dma_addr_t *seg_dma; /* @mapped bus addresses */
	size_t *seg_len;     /* @mapped lengths */
	struct dmaemu__sg_ent *ents;
};
/*
 * A bus range a device may reach besides its streaming mappings (a live
 * coherent allocation), or one it no longer may (a mapping or allocation
 * that went away): what a device-access-unmapped report names.
 * @type is DMAEMU__MAP_COHERENT for an allocation.
 */
struct dmaemu__coh_range {
	dma_addr_t dma;
	size_t size;
	int dir;
	enum dmaemu__map_type type;
	const char *fn;	     /* "dma_alloc_attrs" */
	const void *caller;  /* the driver's return address */
	const char *backend; /* NULL for an allocation */
	unsigned long attrs; /* DMA_ATTR_* of the allocation */
	/* For a range that went away: the call that undid it. */
	const char *gone_fn;
	const void *gone_caller;
};

/*
 * What dmaemu__mapping_admit() found of a device access before its data
 * moves (registry.c), for the reports of owncheck.c.
 * @ulo, @uhi:   the first run of bus bytes [ulo, uhi) that no live
 *               mapping or allocation of the device covers (@uhi == 0:
 *               none).
 * @gone:        @ulo lies in a range that went away (@gone_r), one of
 *               the device's last @history (option unmap_history).
 * @forgot:      more than @history ranges went away: an older one may
 *               have held @ulo.
 * @near:        a live range ends at most DMAEMU__NEAR bytes before @ulo
 *               (@near_dist = @ulo - its end, @near_after false) or
 *               starts at most that far after (@near_dist = its start -
 *               @ulo, @near_after true): @near_r.
 * @overrun:     the access starts inside that live range and runs past
 *               its end (@near, @near_dist 0, @ulo past the access's
 *               start): a fact, not a guess.
 * @alias:       @ulo is the bus address of live range @alias_r cut to its
 *               low @alias_bits bits (a 64-bit address through a 32-bit
 *               register or DMA mask).
 * @live:        dmaemu__mapping_explain() only: @ulo is inside the live
 *               coherent allocation @live_r.
 * @wlo, @whi:   a write's first run of bytes that only DMA_TO_DEVICE
 *               mappings hold (@whi == 0: none); @wmap, the mapping.
 */
#define DMAEMU__NEAR 4096
struct dmaemu__admit {
	uint64_t ulo, uhi;
	bool gone, forgot, near, near_after, overrun, alias, live;
	size_t history;
	uint64_t near_dist;
	unsigned int alias_bits;
	struct dmaemu__coh_range gone_r, near_r, alias_r, live_r;
	uint64_t wlo, whi;
	struct dmaemu__mapping wmap;
};
bool dmaemu__mapping_admit(struct device *dev, dma_addr_t dma, size_t len,
			   bool write, struct dmaemu__admit *out);
void dmaemu__mapping_explain(struct device *dev, dma_addr_t dma,
			     struct dmaemu__admit *out);
int dmaemu__mapping_coherent_add(struct device *dev,
				 const struct dmaemu__coh_range *r);
void dmaemu__mapping_coherent_del(struct device *dev, dma_addr_t dma);

struct dmaemu__mapping *dmaemu__mapping_new(int nents);
void dmaemu__mapping_free(struct dmaemu__mapping *map);
int dmaemu__mapping_insert(struct device *dev, struct dmaemu__mapping *map);
struct dmaemu__mapping *dmaemu__mapping_take(struct device *dev, dma_addr_t dma,
					     enum dmaemu__map_type type,
					     const struct scatterlist *sg,
					     size_t size, int dir);
struct dmaemu__mapping *dmaemu__mapping_take_any(struct device *dev);
int dmaemu__mapping_find(struct device *dev, dma_addr_t dma, size_t size,
			 struct dmaemu__mapping *out, int *pf);
int dmaemu__mapping_named(struct device *dev, dma_addr_t handle,
			  uint64_t extent, size_t pf_size,
			  struct dmaemu__mapping *out, int *pf);
int dmaemu__mapping_find_sg(struct device *dev, dma_addr_t dma,
			    const struct scatterlist *sg,
			    struct dmaemu__sg_copy **out);
int dmaemu__mapping_find_start(struct device *dev, dma_addr_t dma,
			       struct dmaemu__mapping *out);
void dmaemu__mapping_checked(struct device *dev, dma_addr_t dma);
size_t dmaemu__mapping_count(struct device *dev);
size_t dmaemu__mapping_list(struct device *dev, struct dmaemu__mapping *out,
			    size_t max);
uint64_t dmaemu__mapping_stray(struct device *dev);
/*
 * A sync of the live mapping starting at @dma made by @type (a
 * scatterlist: its segment 0): count it and what it maintained (@acc);
 * Return: its trace id (0 when not found or it has none).
 */
uint64_t dmaemu__mapping_account(struct device *dev, dma_addr_t dma,
				 enum dmaemu__map_type type, size_t size,
				 int dir, bool for_device,
				 const struct dmaemu__maint *acc);
bool dmaemu__mapping_find_phys(struct device *dev, uint64_t phys,
			       uint64_t limit, struct dmaemu__mapping *out,
			       uint64_t *lo, uint64_t *hi);

/*
 * owncheck.c: the coherence sanitizer's side in the DMA layer.
 * dmaemu__owncheck_find(): the finder of mem/ (dmaemu__owner_find()),
 * which names the live mapping that holds a physical byte; installed by
 * dmaemu__dma_init().  dmaemu__owncheck_device(): a device access of
 * @len bytes at bus address @dma (landing at @phys) inside the live
 * mapping @map (a copy): lines of the buffer that the CPU owns are a
 * device-access-cpu-owned report.  Called with no lock held.
 */
bool dmaemu__owncheck_find(struct dmaemu_machine *m, uint64_t phys,
			   uint64_t limit, struct dmaemu__owner_info *out);
void dmaemu__owncheck_device(struct device *dev,
			     const struct dmaemu__mapping *map, dma_addr_t dma,
			     uint64_t phys, size_t len, bool write);
/*
 * dmaemu__owncheck_handover(): the driver's call @fn hands
 * [@phys, +@size) of the CPU's buffer of mapping @map over (@how): the
 * stores the CPU made into it while it owned it are forgotten, and
 * reported as lost-cpu-write when the call's cache maintenance on 4.14's
 * arm and arm64 invalidates them (@dir: the direction the call names;
 * @attrs: the unmap's), on every profile and backend.  Called with no
 * lock held, before the call moves the lines and maintains them.
 */
enum dmaemu__handover {
	DMAEMU__HANDOVER_FOR_DEVICE,
	DMAEMU__HANDOVER_FOR_CPU,
	DMAEMU__HANDOVER_UNMAP,
};
void dmaemu__owncheck_handover(struct device *dev,
			       const struct dmaemu__mapping *map, uint64_t phys,
			       size_t size, int dir, unsigned long attrs,
			       enum dmaemu__handover how, const char *fn);
/*
 * dmaemu__owncheck_admit(): the reports of a device access that
 * dmaemu__mapping_admit() did not admit (@a): device-access-unmapped
 * (Return: -EFAULT, the access is refused) and
 * device-write-to-device-mapping (Return: 0, the write lands: no IOMMU
 * stops it).
 */
int dmaemu__owncheck_admit(struct device *dev, dma_addr_t dma, size_t len,
			   bool write, const struct dmaemu__admit *a);
/*
 * dmaemu__owncheck_range_text(): "the DMA_FROM_DEVICE streaming mapping
 * dma 0x80021000+1514 (direct backend) made by ..." for @r, and in @made
 * (if not NULL) where it was made.
 * dmaemu__owncheck_explain(): the lines ("\n    ...") a report gives of
 * an access of @n bytes at @a->ulo that no live range covers (@subj:
 * "they are", "the address is"), and in @made where the range they name
 * first was made (made_at "" for none).
 */
void dmaemu__owncheck_range_text(const struct dmaemu__coh_range *r,
				 struct dmaemu__owner_info *made, char *buf,
				 size_t len);
void dmaemu__owncheck_explain(const struct dmaemu__admit *a, uint64_t n,
			      const char *subj, char *buf, size_t len,
			      struct dmaemu__owner_info *made);

/*
 * mapping.c.  dmaemu__mapping_release_device(): device destroy, after
 * the devres release: each streaming mapping still live is reported
 * (leaked-mapping) and unmapped through its backend without cache
 * maintenance; returns how many.
 */
unsigned long dmaemu__mapping_release_device(struct device *dev);

/* ---------------------------------------------------------------------- */
/* swiotlb.c, iommu.c                                                      */
/* ---------------------------------------------------------------------- */

/*
 * The bounce pool is made on first use (under m->lock) and freed by
 * dmaemu__swiotlb_fini() at machine destroy, before the page allocator.
 * Its lock is taken with no other lock of the machine held (it takes the
 * page allocator's when it makes the pool).  The IOMMU backend's state of
 * a device (its IOVA space) is the cookie of the device's IOMMU domain
 * (bus/iommu.c); its lock is a leaf.
 */
void dmaemu__swiotlb_fini(struct dmaemu_machine *m);

/**
 * struct dmaemu__swiotlb_stats - the bounce pool (dmaemu__swiotlb_info()).
 * @nslots:  2 KiB slots in the pool (0 until the first bounce made it).
 * @used:    slots in use.
 * @nchunks: physically contiguous blocks the pool is made of.
 * @start:   physical address of the first block.
 * @maps:    bounce buffers handed out.
 * @fulls:   mappings refused (pool full, or too large).
 * @bounced: bytes copied between originals and bounce buffers.
 */
struct dmaemu__swiotlb_stats {
	unsigned long nslots, used;
	unsigned int nchunks;
	uint64_t start;
	uint64_t maps, fulls, bounced;
};
void dmaemu__swiotlb_info(struct dmaemu_machine *m,
			  struct dmaemu__swiotlb_stats *st);
/* Original physical address behind bounce-pool address @tlb, or
 * UINT64_MAX when @tlb is not in a live bounce buffer. */
uint64_t dmaemu__swiotlb_orig(struct dmaemu_machine *m, uint64_t tlb);
/* Bytes of a device read that no copy filled (swiotlb.c), and a device
 * write that fills them. */
size_t dmaemu__swiotlb_unfilled(struct dmaemu_machine *m, uint64_t tlb,
				size_t len, uint64_t *first);
void dmaemu__swiotlb_device_wrote(struct dmaemu_machine *m, uint64_t tlb,
				  size_t len);

/*
 * IOMMU mappings of coherent allocations (alloc.c).  @prot is
 * DMAEMU__IOMMU_READ | DMAEMU__IOMMU_WRITE (bus.h; a coherent buffer is
 * both, as dma_info_to_prot(DMA_BIDIRECTIONAL) gives), plus
 * DMAEMU__IOMMU_NOWARN to make a full IOVA space a silent failure
 * (DMA_ATTR_NO_WARN).  The pages need not be physically contiguous; they
 * get consecutive IOVAs.  Return: the IOVA of the first page, or
 * DMA_MAPPING_ERROR after a report.  dmaemu__iommu_unmap() takes that
 * IOVA and the allocation's size.
 */
#define DMAEMU__IOMMU_NOWARN 0x100
dma_addr_t dmaemu__iommu_map_pages(struct device *dev,
				   const uint64_t *phys_pages, size_t npages,
				   int prot, bool privileged);
void dmaemu__iommu_unmap(struct device *dev, dma_addr_t addr, size_t size);

/*
 * dmaemu__iommu_dma_init(): machine create (dmaemu__dma_init()): with
 * iommu=1, install the hook that names, in the bus's fault reports, what a
 * page belongs to.  dmaemu__iommu_dma_release(): device destroy, from the
 * DMA layer's bus client after the device's mappings and allocations were
 * released: free its IOVA space (the bus frees the domain after).
 */
void dmaemu__iommu_dma_init(struct dmaemu_machine *m);
void dmaemu__iommu_dma_release(struct device *dev);

/**
 * struct dmaemu__iommu_stats - one device's domain (dmaemu__iommu_info()):
 * its IOVA space (this layer's) and its page table (the bus's).
 * @allocs:      IOVA ranges in use.
 * @pages:       IOVA pages mapped.
 * @free_ranges: free ranges of the IOVA space.
 * @faults:      device accesses refused.
 * @tables:      page-table pages.
 * @steps:       comparisons made by the IOVA space's trees so far: the
 *               cost of maps and unmaps, independent of the machine's load.
 * @privileged:  the device's accesses are privileged.
 */
struct dmaemu__iommu_stats {
	uint64_t allocs, pages, free_ranges, faults, tables, steps;
	bool privileged;
};
void dmaemu__iommu_info(struct device *dev, struct dmaemu__iommu_stats *st);

/* ---------------------------------------------------------------------- */
/* alloc.c, pool.c, scatterlist.c, mask.c                                  */
/* ---------------------------------------------------------------------- */

/**
 * struct dmaemu__alloc_info - a live dma_alloc_attrs() buffer, as
 * dmaemu__alloc_find() describes it.
 * @cpu_addr:   what dma_alloc_attrs() returned (address or cookie).
 * @handle:     its bus address.
 * @size:       the size asked for.
 * @attrs:      the DMA_ATTR_* bits it was allocated with.
 * @phys:       physical address of its first byte.
 * @contiguous: one physical run (else scattered pages behind an IOMMU).
 * @view:       "uncached", "cacheable", ... (for reports).
 */
struct dmaemu__alloc_info {
	void *cpu_addr;
	dma_addr_t handle;
	size_t size;
	unsigned long attrs;
	uint64_t phys;
	bool contiguous;
	const char *view;
	bool pages; /* dma_alloc_pages() memory (kernel=6.12) */
};

/*
 * alloc.c.  dmaemu__alloc_find(): the allocation of @dev holding
 * [@vaddr, +@size) (or, with @vaddr NULL, bus range [@addr, +@size)) -
 * for dma_cache_sync() and the syncs of NON_CONSISTENT handles; 0 or
 * -ENOENT.  dmaemu__alloc_release_device(): called by device destroy
 * after the devres release: each allocation still live is reported
 * (leaked-mapping) and freed; returns how many.  The registry lock is a
 * leaf (nothing is taken under it).
 */
int dmaemu__alloc_find(struct device *dev, const void *vaddr, dma_addr_t addr,
		       size_t size, struct dmaemu__alloc_info *out);
bool dmaemu__alloc_device_busy(struct device *dev);
unsigned long dmaemu__alloc_release_device(struct device *dev);
/* alloc.c: Linux 6.12's dma_alloc_pages() family (api612.c). */
struct vm_area_struct;
void *dmaemu__dma_alloc_pages(struct device *dev, size_t size,
			      dma_addr_t *handle, int dir, unsigned int gfp);
void dmaemu__dma_free_pages(struct device *dev, size_t size, void *cpu_addr,
			    dma_addr_t handle, int dir);
int dmaemu__dma_mmap_pages(struct device *dev, struct vm_area_struct *vma,
			   size_t size, void *cpu_addr);
/* mapping.c: enter a public call of the 6.12 level (api612.c). */
struct dmaemu_machine *dmaemu__api612_enter(struct device *dev, const char *fn,
					    int dir, unsigned long attrs);
/* alloc.c: copies of up to @max live allocations of @dev; how many live. */
size_t dmaemu__alloc_list(struct device *dev, struct dmaemu__alloc_info *out,
			  size_t max);

/* mask.c: does @mask reach the lowest page of DRAM (bus addresses)? */
bool dmaemu__dma_mask_supported(struct dmaemu_machine *m, uint64_t mask);

#endif
