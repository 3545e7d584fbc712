/* SPDX-License-Identifier: MIT */
/*
 * <dmaemu/testing.h> - looking inside a machine: what tests, the labs'
 * cache-line pictures and checkers ask of the model.
 *
 * Everything here reads state the model keeps anyway, without changing
 * it, except the few calls under "Driving the model directly", which do
 * what a test bench does behind the driver's back (the CPU's cache
 * maintenance instructions, DRAM written by no device, like a hardware
 * testbench's backdoor access).
 *
 *   the machine        dmaemu_machine_info(), dmaemu_cache_level_info()
 *   one cache line     dmaemu_line_state(): resident, CPU-dirty and
 *                      device-changed byte masks, owner
 *   addresses          dmaemu_addr_info(), dmaemu_phys_view()
 *   streaming maps     dmaemu_device_mappings(),
 *                      dmaemu_device_mapping_find(), dmaemu_device_dma_info()
 *   allocations        dmaemu_device_allocation_find()
 *   backends           dmaemu_swiotlb_info(), dmaemu_iommu_info(),
 *                      dmaemu_iommu_iova_to_phys()
 *   CPU side           dmaemu_wc_pending(), dmaemu_prefetch_info()
 *
 * Every call is thread-safe and takes the locks it needs; what it returns
 * is a snapshot.  A NULL machine or device, a device already destroyed, or
 * an address that is not DRAM of the machine is a bad-argument report (on
 * the machine concerned, or the current one) and a negative errno; no call
 * crashes on bad input.
 */
#ifndef DMAEMU_TESTING_H
#define DMAEMU_TESTING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct dmaemu_machine;
struct dmaemu_device;

/* The platform profiles (option profile=), see docs/options.md. */
enum dmaemu_profile {
	DMAEMU_PROFILE_ARM = 0, /* ARMv7: devices do not snoop */
	DMAEMU_PROFILE_ARM64,	/* arm64: devices do not snoop */
	DMAEMU_PROFILE_X86,	/* x86-64: devices snoop the cache */
};

/* What a host address of a machine is (dmaemu_addr_info()). */
enum dmaemu_region {
	DMAEMU_REGION_NONE = 0,	   /* not emulated memory */
	DMAEMU_REGION_LINEAR,	   /* cacheable linear map: the CPU's copy */
	DMAEMU_REGION_UNCACHED,	   /* uncached alias: DRAM (MEM) itself */
	DMAEMU_REGION_WC,	   /* write-combining alias of DRAM */
	DMAEMU_REGION_NOMAP,	   /* NO_KERNEL_MAPPING cookies */
	DMAEMU_REGION_MMIO,	   /* ioremap() cookies */
	DMAEMU_REGION_VMALLOC = 7, /* vmalloc(): pages of the CPU's copy */
};

/* Which side owns a cache line (moved by map/unmap and the syncs). */
enum dmaemu_owner {
	DMAEMU_OWNER_CPU = 0,
	DMAEMU_OWNER_DEVICE = 1,
};

/* What made a streaming mapping: the family of calls that must undo it. */
enum dmaemu_map_type {
	DMAEMU_MAP_SINGLE = 0, /* dma_map_single_attrs() */
	DMAEMU_MAP_PAGE,       /* dma_map_page_attrs() */
	DMAEMU_MAP_SG,	       /* dma_map_sg_attrs(), one entry a segment */
	DMAEMU_MAP_RESOURCE,   /* dma_map_resource() */
};

/* The largest cache line a machine can have, and the words of a byte mask
 * of one line: bit i (bit i % 64 of word i / 64) stands for byte i. */
#define DMAEMU_LINE_MAX 256
#define DMAEMU_LINE_MASK_WORDS (DMAEMU_LINE_MAX / 64)
#define DMAEMU_MAX_BANKS 2

/* ---------------------------------------------------------------------- */
/* The machine                                                            */
/* ---------------------------------------------------------------------- */

/**
 * struct dmaemu_machine_info - how a machine was built.
 * @profile:       enum dmaemu_profile.
 * @line_size:     bytes of a cache line (a power of two, <= DMAEMU_LINE_MAX).
 * @cache_levels:  levels of the cache model (see dmaemu_cache_level_info()).
 * @dma_minalign:  ARCH_DMA_MINALIGN of the machine (dma_get_cache_alignment()).
 * @nbanks:        banks of DRAM (1, or 2 with a high bank).
 * @bank:          each bank's first physical address and size in bytes.
 * @dma_offset:    bus address minus physical address without an IOMMU.
 * @iommu:         streaming and coherent DMA go through the IOMMU.
 * @swiotlb_force: every streaming map bounces (swiotlb=force).
 * @prefetch:      the speculative prefetcher is on.
 */
struct dmaemu_machine_info {
	int profile;
	unsigned int line_size;
	unsigned int cache_levels;
	unsigned int dma_minalign;
	unsigned int nbanks;
	struct {
		uint64_t phys;
		uint64_t size;
	} bank[DMAEMU_MAX_BANKS];
	uint64_t dma_offset;
	bool iommu;
	bool swiotlb_force;
	bool prefetch;
};

/**
 * dmaemu_machine_info() - describe machine @m.
 * @m:    the machine.
 * @info: filled in (zeroed on error).
 *
 * Return: 0; -EINVAL (bad-argument report) for a NULL argument.
 */
int dmaemu_machine_info(struct dmaemu_machine *m,
			struct dmaemu_machine_info *info);

/**
 * struct dmaemu_cache_level_info - the geometry of one level of the model.
 * @size:      bytes.
 * @ways:      associativity.
 * @sets:      number of sets; lines @sets * @line_size bytes apart share
 *             a set.
 * @line_size: bytes of a line.
 */
struct dmaemu_cache_level_info {
	uint64_t size;
	unsigned int ways;
	unsigned int sets;
	unsigned int line_size;
};

/**
 * dmaemu_cache_level_info() - the geometry of cache level @level of @m.
 * @m:     the machine.
 * @level: 0 for L1.
 * @info:  filled in (zeroed on error).
 *
 * Return: 0; -EINVAL (bad-argument report) for a NULL argument or a level
 * the model does not have.
 */
int dmaemu_cache_level_info(struct dmaemu_machine *m, unsigned int level,
			    struct dmaemu_cache_level_info *info);

/* ---------------------------------------------------------------------- */
/* One cache line                                                         */
/* ---------------------------------------------------------------------- */

/**
 * struct dmaemu_line_state - one cache line of DRAM, as the model holds it.
 * @phys:           physical address of the line's first byte.
 * @line_size:      bytes of the line.
 * @resident:       the CPU cache holds the line (in some level).
 * @resident_levels: bit L set when level L holds it.
 * @dirty_levels:   bit L set when level L holds it dirty (the model's dirty
 *                  bit: a store hit it since its last write-back).
 * @cpu_dirty:      bytes written by the CPU and not yet written back
 *                  (CPU != TWIN); bits past @line_size are 0.
 * @dev_changed:    bytes written to DRAM since the CPU took its copy
 *                  (MEM != TWIN); bits past @line_size are 0.
 * @owner:          enum dmaemu_owner: the side that owns the line.
 *
 * The masks are exact to the byte whether or not the line is resident:
 * code that is not instrumented reaches the CPU's copy without the cache
 * model seeing it (docs/instrumentation.md).
 */
struct dmaemu_line_state {
	uint64_t phys;
	unsigned int line_size;
	bool resident;
	unsigned int resident_levels;
	unsigned int dirty_levels;
	uint64_t cpu_dirty[DMAEMU_LINE_MASK_WORDS];
	uint64_t dev_changed[DMAEMU_LINE_MASK_WORDS];
	int owner;
};

/**
 * dmaemu_line_state() - the state of the line of @m holding @phys.
 * @m:    the machine.
 * @phys: any physical address of DRAM (rounded down to its line).
 * @st:   filled in (zeroed on error).
 *
 * A consistent snapshot: residency and the masks are read under the
 * model's locks together.  Cost: one line compared, no host memory
 * touched beyond it.
 *
 * Return: 0; -EINVAL (bad-argument report) for a NULL argument; -EFAULT
 * (bad-argument report) when @phys is not DRAM of @m.
 */
int dmaemu_line_state(struct dmaemu_machine *m, uint64_t phys,
		      struct dmaemu_line_state *st);

/**
 * dmaemu_line_mask_test() - is byte @byte set in line mask @mask?
 * @mask: DMAEMU_LINE_MASK_WORDS words (cpu_dirty or dev_changed).
 * @byte: byte of the line (values >= DMAEMU_LINE_MAX give false).
 *
 * Return: true when set; false for a NULL @mask.
 */
bool dmaemu_line_mask_test(const uint64_t *mask, unsigned int byte);

/**
 * dmaemu_line_mask_weight() - how many bytes line mask @mask has set.
 * @mask: DMAEMU_LINE_MASK_WORDS words.
 *
 * Return: the count (0 for a NULL @mask).
 */
unsigned int dmaemu_line_mask_weight(const uint64_t *mask);

/* ---------------------------------------------------------------------- */
/* Addresses                                                              */
/* ---------------------------------------------------------------------- */

/**
 * struct dmaemu_addr_info - what a host address is.
 * @machine: the machine whose memory it is (NULL: none).
 * @region:  enum dmaemu_region.
 * @phys:    the physical address it stands for (MMIO: the offset in the
 *           machine's MMIO window; 0 for DMAEMU_REGION_NONE).
 */
struct dmaemu_addr_info {
	struct dmaemu_machine *machine;
	int region;
	uint64_t phys;
};

/**
 * dmaemu_addr_info() - classify host address @addr: which machine, which
 * view (linear map, uncached or write-combining alias, cookie), which
 * physical address.  Unlike virt_to_phys() it accepts every view, and an
 * address of no machine is an answer (DMAEMU_REGION_NONE), not a misuse.
 * @addr: any address.
 * @info: filled in.
 *
 * Return: 0; -EINVAL (bad-argument report on the current machine) for a
 * NULL @info.
 */
int dmaemu_addr_info(const void *addr, struct dmaemu_addr_info *info);

/**
 * dmaemu_phys_view() - the host address of @phys in one view of @m.
 * @m:      the machine.
 * @phys:   physical address of DRAM.
 * @region: DMAEMU_REGION_LINEAR (phys_to_virt()), _UNCACHED (DRAM
 *          itself, as coherent memory is seen on non-coherent profiles),
 *          _WC or _NOMAP.
 *
 * Accesses through the address behave as those of the view do
 * (docs/model.md, "What a CPU pointer can be"); the linear map goes
 * through the cache model.
 *
 * Return: the address; NULL with a bad-argument report for a NULL @m,
 * another region, or @phys not DRAM of @m.
 */
void *dmaemu_phys_view(struct dmaemu_machine *m, uint64_t phys, int region);

/* ---------------------------------------------------------------------- */
/* Streaming mappings and allocations of a device                         */
/* ---------------------------------------------------------------------- */

/**
 * struct dmaemu_mapping_info - one live streaming mapping.
 * @type:          enum dmaemu_map_type.
 * @dma:           bus address of its first byte.
 * @phys:          physical address of its first byte (a scatterlist
 *                 segment: of its first entry; a resource: the MMIO
 *                 address mapped).
 * @size:          bytes.
 * @dir:           enum dma_data_direction.
 * @attrs:         DMA_ATTR_* bits given to the map.
 * @backend:       "direct", "swiotlb" or "iommu" (a static string).
 * @fn:            the API function that made it ("dma_map_single_attrs").
 * @cpu_addr:      the CPU address mapped (NULL for pages and resources).
 * @caller:        return address of the driver's call.
 * @error_checked: dma_mapping_error() was called on @dma.
 * @prefetch:      the buffer is registered with the prefetcher (device
 *                 owned, option prefetch=1).
 * @sg_segment:    scatterlist: index of this segment (else 0).
 * @sg_nents:      scatterlist: entries given to the map (else 0).
 * @sg_mapped:     scatterlist: segments it returned (else 0).
 * @dev_reads:     device reads that touched the mapping.
 * @dev_writes:    device writes that touched it.
 * @dev_bytes_read:    bytes of those reads (an access is counted whole in
 *                     the mapping holding its first byte).
 * @dev_bytes_written: bytes of those writes.
 * @last_valid:    the device has accessed it; then @last_dma, @last_len
 *                 and @last_write describe the last access.
 * @syncs_for_device: dma_sync_*_for_device() calls that found it (a
 *                 scatterlist's syncs are counted in segment 0).
 * @syncs_for_cpu: dma_sync_*_for_cpu() calls that found it.
 * @bytes_cleaned: bytes its map and syncs cleaned (arm, arm64; as
 *                 struct dmaemu_device_stats counts them).
 * @bytes_invalidated: bytes its map and syncs invalidated.
 * @bytes_bounced: bytes its map and syncs copied to or from a swiotlb
 *                 bounce buffer.
 * (A scatterlist's map and syncs are counted in segment 0; the unmap's
 * maintenance is not, the mapping being gone.)
 */
struct dmaemu_mapping_info {
	int type;
	uint64_t dma;
	uint64_t phys;
	size_t size;
	int dir;
	unsigned long attrs;
	const char *backend;
	const char *fn;
	const void *cpu_addr;
	const void *caller;
	bool error_checked;
	bool prefetch;
	int sg_segment;
	int sg_nents;
	int sg_mapped;
	uint64_t dev_reads;
	uint64_t dev_writes;
	uint64_t dev_bytes_read;
	uint64_t dev_bytes_written;
	bool last_valid;
	bool last_write;
	uint64_t last_dma;
	size_t last_len;
	uint64_t syncs_for_device;
	uint64_t syncs_for_cpu;
	uint64_t bytes_cleaned;
	uint64_t bytes_invalidated;
	uint64_t bytes_bounced;
};

/**
 * dmaemu_device_mappings() - the live streaming mappings of @dev.
 * @dev: the device.
 * @out: room for @max entries, filled in bus address order (mappings at
 *       one address oldest first); may be NULL when @max is 0.
 * @max: entries @out can take.
 *
 * A scatterlist mapping is one entry per DMA segment.  Coherent
 * allocations are not streaming mappings (dmaemu_device_allocation_find()).
 * Cost: O(n) in the live mappings, under the device's registry lock.
 *
 * Return: the number of live mappings (which may exceed @max: as with
 * snprintf(), a second call with more room gets them all); -EINVAL
 * (bad-argument report) for a NULL or destroyed @dev, or a NULL @out with
 * @max > 0.
 */
int dmaemu_device_mappings(struct dmaemu_device *dev,
			   struct dmaemu_mapping_info *out, size_t max);

/**
 * dmaemu_device_mapping_find() - the live mapping of @dev holding bus range
 * [@dma, @dma + @size) (the most recent one if several do), as unmap and
 * the syncs look it up.
 * @dev:  the device.
 * @dma:  bus address.
 * @size: bytes (0 is taken as 1).
 * @out:  filled in.
 *
 * Return: 0; -ENOENT when no live mapping holds the range (no report: an
 * answer); -EINVAL (bad-argument report) for a NULL argument or a
 * destroyed @dev.
 */
int dmaemu_device_mapping_find(struct dmaemu_device *dev, uint64_t dma,
			       size_t size, struct dmaemu_mapping_info *out);

/**
 * struct dmaemu_device_dma_info - DMA bookkeeping of one device.
 * @mappings:       live streaming mappings (scatterlist segments counted
 *                  one by one).
 * @stray_accesses: device accesses that landed in no live streaming
 *                  mapping (a coherent allocation's included), or were
 *                  refused as device-access-unmapped.
 */
struct dmaemu_device_dma_info {
	uint64_t mappings;
	uint64_t stray_accesses;
};

/**
 * dmaemu_device_dma_info() - fill @info for @dev.
 * @dev:  the device.
 * @info: filled in (zeroed on error).
 *
 * Return: 0; -EINVAL (bad-argument report) for a NULL argument or a
 * destroyed @dev.
 */
int dmaemu_device_dma_info(struct dmaemu_device *dev,
			   struct dmaemu_device_dma_info *info);

/**
 * struct dmaemu_allocation_info - a live dma_alloc_attrs() buffer.
 * @cpu_addr:   what dma_alloc_attrs() returned (address or cookie).
 * @dma:        its bus address.
 * @size:       the size asked for.
 * @attrs:      the DMA_ATTR_* bits it was allocated with.
 * @phys:       physical address of its first byte.
 * @contiguous: one physical run (else pages stitched by an IOMMU).
 * @view:       the CPU's view: "uncached", "cacheable", ... (static).
 */
struct dmaemu_allocation_info {
	void *cpu_addr;
	uint64_t dma;
	size_t size;
	unsigned long attrs;
	uint64_t phys;
	bool contiguous;
	const char *view;
};

/**
 * dmaemu_device_allocation_find() - the live coherent allocation of @dev
 * holding [@cpu_addr, +@size), or, with @cpu_addr NULL, bus range
 * [@dma, +@size).
 * @dev:      the device.
 * @cpu_addr: a CPU address in the buffer, or NULL.
 * @dma:      a bus address in it (used when @cpu_addr is NULL).
 * @size:     bytes that must lie inside it.
 * @out:      filled in.
 *
 * Return: 0; -ENOENT when no live allocation holds the range (no
 * report); -EINVAL (bad-argument report) for a NULL @dev or @out or a
 * destroyed @dev.
 */
int dmaemu_device_allocation_find(struct dmaemu_device *dev,
				  const void *cpu_addr, uint64_t dma,
				  size_t size,
				  struct dmaemu_allocation_info *out);

/* ---------------------------------------------------------------------- */
/* Backends                                                               */
/* ---------------------------------------------------------------------- */

/**
 * struct dmaemu_swiotlb_info - the bounce pool of a machine.
 * @slots:     slots in the pool (0 until the first bounce made it).
 * @slot_size: bytes of a slot.
 * @used:      slots in use.
 * @chunks:    physically contiguous blocks the pool is made of.
 * @start:     physical address of the first block.
 * @maps:      bounce buffers handed out.
 * @fulls:     mappings refused (pool full, or too large).
 * @bounced:   bytes copied between originals and bounce buffers.
 */
struct dmaemu_swiotlb_info {
	uint64_t slots;
	unsigned int slot_size;
	uint64_t used;
	unsigned int chunks;
	uint64_t start;
	uint64_t maps;
	uint64_t fulls;
	uint64_t bounced;
};

/**
 * dmaemu_swiotlb_info() - the bounce pool of @m.
 * @m:    the machine.
 * @info: filled in (all zero but @slot_size before the pool exists).
 *
 * Return: 0; -EINVAL (bad-argument report) for a NULL argument.
 */
int dmaemu_swiotlb_info(struct dmaemu_machine *m,
			struct dmaemu_swiotlb_info *info);

/**
 * struct dmaemu_iommu_info - the IOMMU domain of one device.
 * @ranges:      IOVA ranges in use.
 * @pages:       IOVA pages mapped.
 * @free_ranges: free ranges of the IOVA space.
 * @faults:      device accesses refused.
 * @tables:      page-table pages.
 * @privileged:  the device's accesses are privileged.
 */
struct dmaemu_iommu_info {
	uint64_t ranges;
	uint64_t pages;
	uint64_t free_ranges;
	uint64_t faults;
	uint64_t tables;
	bool privileged;
};

/**
 * dmaemu_iommu_info() - the IOMMU domain of @dev.
 * @dev:  the device.
 * @info: filled in (all zero while @dev has no domain yet).
 *
 * Return: 0; -ENODEV when the machine has no IOMMU (iommu=0; @info
 * zeroed, no report); -EINVAL (bad-argument report) for a NULL argument
 * or a destroyed @dev.
 */
int dmaemu_iommu_info(struct dmaemu_device *dev,
		      struct dmaemu_iommu_info *info);

/**
 * dmaemu_iommu_iova_to_phys() - what IOVA @iova of @dev maps to, as
 * iommu_iova_to_phys().
 * @dev:  the device.
 * @iova: bus address.
 * @phys: receives the physical address.
 *
 * Return: 0; -ENOENT when @iova is not mapped; -ENODEV when the machine
 * has no IOMMU; -EINVAL (bad-argument report) for a NULL argument or a
 * destroyed @dev.
 */
int dmaemu_iommu_iova_to_phys(struct dmaemu_device *dev, uint64_t iova,
			      uint64_t *phys);

/* ---------------------------------------------------------------------- */
/* The CPU side                                                           */
/* ---------------------------------------------------------------------- */

/**
 * dmaemu_wc_pending() - bytes of [@phys, @phys + @len) written through a
 * write-combining alias and still waiting in a buffer (invisible to
 * devices until a barrier or an eviction drains them).
 * @m:    the machine.
 * @phys: physical address.
 * @len:  bytes.
 *
 * Return: the count; -EINVAL (bad-argument report) for a NULL @m.
 */
long dmaemu_wc_pending(struct dmaemu_machine *m, uint64_t phys, size_t len);

/**
 * struct dmaemu_prefetch_info - the speculative prefetcher of a machine.
 * @ranges: buffers it may fill now (device-owned mappings).
 * @lines:  lines in those buffers.
 * @last:   physical address of the last line it filled (0: none yet).
 * @fills:  lines it filled so far.
 */
struct dmaemu_prefetch_info {
	uint64_t ranges;
	uint64_t lines;
	uint64_t last;
	uint64_t fills;
};

/**
 * dmaemu_prefetch_info() - fill @info for @m (all zero with prefetch off).
 * @m:    the machine.
 * @info: filled in.
 *
 * Return: 0; -EINVAL (bad-argument report) for a NULL argument.
 */
int dmaemu_prefetch_info(struct dmaemu_machine *m,
			 struct dmaemu_prefetch_info *info);

/* ---------------------------------------------------------------------- */
/* Driving the model directly                                             */
/* ---------------------------------------------------------------------- */

/**
 * dmaemu_cache_clean() - write back the lines of [@phys, @phys + @len),
 * as the CPU's clean-by-address instruction (dc cvac) over the range: the
 * whole of each CPU-dirty line goes to DRAM (over device-changed bytes: a
 * lost-device-write report), lines stay resident.
 * @m:    the machine.
 * @phys: physical address of DRAM.
 * @len:  bytes (whole lines are maintained).
 *
 * Return: 0; -EINVAL (bad-argument report) for a NULL @m; -EFAULT
 * (bad-argument report) when the range is not inside DRAM of @m.
 */
int dmaemu_cache_clean(struct dmaemu_machine *m, uint64_t phys, size_t len);

/**
 * dmaemu_cache_invalidate() - discard the lines of [@phys, @phys + @len)
 * (dc ivac): CPU-dirty bytes are lost (outside the range: a
 * lost-cpu-write report), the CPU's next load reads DRAM.
 * @m:    the machine.
 * @phys: physical address of DRAM.
 * @len:  bytes.
 *
 * Return: as dmaemu_cache_clean().
 */
int dmaemu_cache_invalidate(struct dmaemu_machine *m, uint64_t phys,
			    size_t len);

/**
 * dmaemu_cache_clean_invalidate() - clean, then invalidate (dc civac).
 * @m:    the machine.
 * @phys: physical address of DRAM.
 * @len:  bytes.
 *
 * Return: as dmaemu_cache_clean().
 */
int dmaemu_cache_clean_invalidate(struct dmaemu_machine *m, uint64_t phys,
				  size_t len);

/**
 * dmaemu_dram_write() - write DRAM (MEM) directly, as a bus master that
 * needs no translation, is not checked and never snoops: no IOMMU, no
 * ownership check, no registry accounting, the CPU's cached copy is left
 * as it is (its bytes become device-changed) on every profile.
 * @m:    the machine.
 * @phys: physical address.
 * @buf:  the bytes.
 * @len:  how many.
 *
 * Return: 0; -EINVAL (bad-argument report) for a NULL @m or @buf with
 * @len > 0; -EFAULT (bad-argument report) when the range is not inside
 * one bank of DRAM.
 */
int dmaemu_dram_write(struct dmaemu_machine *m, uint64_t phys, const void *buf,
		      size_t len);

/**
 * dmaemu_dram_read() - read DRAM (MEM) directly (see dmaemu_dram_write()):
 * what a non-snooping device would read, without any check.
 * @m:    the machine.
 * @phys: physical address.
 * @buf:  where the bytes go.
 * @len:  how many.
 *
 * Return: as dmaemu_dram_write().
 */
int dmaemu_dram_read(struct dmaemu_machine *m, uint64_t phys, void *buf,
		     size_t len);

#ifdef __cplusplus
}
#endif

#endif
