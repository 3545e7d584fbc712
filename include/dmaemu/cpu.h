/* SPDX-License-Identifier: MIT */
/*
 * <dmaemu/cpu.h> - CPU accesses to emulated memory: explicit accessors,
 * the cache model's statistics, write-combining buffers, register access.
 *
 * Instrumented code (built with dmaemu-cc or the flags of
 * `pkg-config --cflags dmaemu-instrument`) reaches the model on every load
 * and store by itself; the accessors here are for code that is not
 * instrumented, or that wants to say what it does explicitly.
 */
#ifndef DMAEMU_CPU_H
#define DMAEMU_CPU_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct dmaemu_machine;

/**
 * struct dmaemu_cpu_stats - what CPU accesses did to a machine's model.
 * @accesses:     cache lookups of the level asked for (reads + writes).
 *                A cacheable access counts once per line it touches.
 * @reads:        lookups by loads (and prefetches, at level 0).
 * @writes:       lookups by stores.
 * @hits:         lookups that found the line.
 * @misses:       lookups that did not (read_misses + write_misses).
 * @read_misses:  misses of reads.
 * @write_misses: misses of writes.
 * @evictions:    valid lines replaced to make room.
 * @writebacks:   dirty lines written back when replaced.
 * @cycles:       simulated cycles spent at this level.
 * @fast_hits:    the part of @hits handled without the cache lock.
 * @fills:        lines the CPU took a fresh copy of on a miss.
 * @stale_reads:  loads that read device-changed bytes from a resident
 *                line (each one was reported as stale-cpu-read); not
 *                looked for, so 0, with checks=-coherence.
 * @uncached:     accesses through the uncached alias (coherent memory).
 * @wc_loads:     loads through a write-combining alias.
 * @wc_stores:    stores through a write-combining alias.
 * @wc_flushes:   barriers and writel() calls that drained pending bytes.
 * @wc_evictions: buffers drained to make room for another chunk.
 * @bad_accesses: accesses of NO_KERNEL_MAPPING cookies and plain accesses
 *                of MMIO cookies (each one reported).
 * @prefetches:   lines filled by the speculative prefetcher.
 * @maint_ops:    cache maintenance calls over an address range that
 *                reached this level: the cleans and invalidates of the
 *                DMA API's maps, unmaps and syncs (one per call and
 *                range), dmaemu_cache_clean() and friends.  Accesses do
 *                not count here, and maintenance is not an access.
 * @maint_lines:  lines of this level those calls found resident, and so
 *                cleaned or dropped: the work a DMA_ATTR_SKIP_CPU_SYNC
 *                mapping saves.
 * @maint_writebacks: dirty lines those calls wrote back.
 *
 * Fields from @accesses to @cycles and the maint_* fields are those of
 * the chosen cache level; the others are machine-wide.
 */
struct dmaemu_cpu_stats {
	uint64_t accesses;
	uint64_t reads;
	uint64_t writes;
	uint64_t hits;
	uint64_t misses;
	uint64_t read_misses;
	uint64_t write_misses;
	uint64_t evictions;
	uint64_t writebacks;
	uint64_t cycles;
	uint64_t fast_hits;
	uint64_t fills;
	uint64_t stale_reads;
	uint64_t uncached;
	uint64_t wc_loads;
	uint64_t wc_stores;
	uint64_t wc_flushes;
	uint64_t wc_evictions;
	uint64_t bad_accesses;
	uint64_t prefetches;
	uint64_t maint_ops;
	uint64_t maint_lines;
	uint64_t maint_writebacks;
};

/**
 * dmaemu_cpu_stats() - statistics of the CPU side of a machine.
 * @m:     machine.
 * @level: cache level, 0 for L1.
 * @st:    filled in.
 *
 * Return: 0, or -EINVAL for a NULL argument or a level the machine's cache
 * does not have.
 */
int dmaemu_cpu_stats(struct dmaemu_machine *m, unsigned int level,
		     struct dmaemu_cpu_stats *st);

/**
 * dmaemu_cpu_read() - the CPU copies @len bytes from @src to @dst, through
 * the model (a load of every line of @src, a store of every line of @dst).
 * @dst: destination (any memory).
 * @src: source (any memory).
 * @len: bytes.
 *
 * Unlike a plain access, touching a NO_KERNEL_MAPPING or MMIO cookie does
 * not fault: it is reported and nothing is copied.
 *
 * Return: 0; -EINVAL for a NULL pointer with @len > 0 or a range that
 * wraps around the address space (reported); -EFAULT for a
 * cookie (reported).
 */
int dmaemu_cpu_read(void *dst, const void *src, size_t len);

/**
 * dmaemu_cpu_write() - the CPU copies @len bytes from @src to @dst; the
 * same as dmaemu_cpu_read(), named for writing emulated memory at @dst.
 *
 * Return: as dmaemu_cpu_read().
 */
int dmaemu_cpu_write(void *dst, const void *src, size_t len);

/**
 * dmaemu_cpu_access() - tell the model that the CPU is about to access
 * [@addr, @addr + @size): what instrumentation does before each access.
 * @addr:  the address.
 * @size:  bytes.
 * @write: nonzero for a store.
 *
 * READ_ONCE() and WRITE_ONCE() call it in code that is not instrumented.
 */
void dmaemu_cpu_access(const volatile void *addr, size_t size, int write);

/**
 * dmaemu_cpu_read_once() - a load of [@addr, @addr + @size) into @res
 * through the model: what READ_ONCE() does, in instrumented code and not.
 * @addr: the address.
 * @res:  where the value goes.
 * @size: bytes (1, 2, 4 and 8 are single relaxed atomic loads).
 *
 * On arm and arm64 with ordering=weak, a load of coherent memory that
 * follows the load of a newer device write with no read barrier between
 * them may have been satisfied first (docs/ordering.md): the seed decides,
 * and @res then gets what the word held before the device's last write.
 */
void dmaemu_cpu_read_once(const volatile void *addr, void *res, size_t size);

/**
 * dmaemu_cpu_flush_wc() - drain the write-combining buffers of the current
 * machine: every pending byte becomes visible to devices.  What mb(),
 * wmb() and dma_wmb() do besides ordering.
 */
void dmaemu_cpu_flush_wc(void);

/* Kinds of dmaemu_cpu_barrier(). */
#define DMAEMU_BARRIER_READ 0x1u  /* rmb(), dma_rmb(), load-acquire */
#define DMAEMU_BARRIER_WRITE 0x2u /* wmb(), dma_wmb(), store-release */
#define DMAEMU_BARRIER_FULL 0x3u  /* mb(), locks */

/**
 * dmaemu_cpu_barrier() - the calling thread orders its accesses to
 * coherent memory (docs/ordering.md): what the barrier macros of
 * <asm/barrier.h> call besides their fence.
 * @kind: DMAEMU_BARRIER_READ (later loads are satisfied after earlier
 *        ones), DMAEMU_BARRIER_WRITE (earlier stores reach devices before
 *        later ones) or DMAEMU_BARRIER_FULL (both).
 *
 * It changes no data and costs a few loads and stores; a thread that never
 * accessed coherent memory has nothing to order.
 */
void dmaemu_cpu_barrier(unsigned int kind);

/**
 * dmaemu_mmio_read() - read a device register (readl() and friends).
 * @addr:    an ioremap() cookie, or memory.
 * @size:    1, 2, 4 or 8.
 * @relaxed: nonzero for the _relaxed variants (no barrier after).
 *
 * A cookie calls the device's register handler; a cookie with no device
 * registers behind it is reported (mmio-access) and reads all ones, as a
 * bus would.  Memory is read with a volatile load, through the model.
 *
 * Return: the value (all ones for a bad @size).
 */
uint64_t dmaemu_mmio_read(const volatile void *addr, unsigned int size,
			  int relaxed);

/**
 * dmaemu_mmio_write() - write a device register (writel() and friends).
 * @addr:    an ioremap() cookie, or memory.
 * @val:     value (the low @size bytes are written).
 * @size:    1, 2, 4 or 8.
 * @relaxed: nonzero for the _relaxed variants.
 *
 * Without @relaxed, earlier writes to memory are ordered before the
 * register write, and on the arm and arm64 profiles the write-combining
 * buffers are drained first (writel() contains a wmb() there).
 */
void dmaemu_mmio_write(volatile void *addr, uint64_t val, unsigned int size,
		       int relaxed);

#ifdef __cplusplus
}
#endif

#endif
