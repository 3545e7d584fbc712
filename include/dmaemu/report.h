/* SPDX-License-Identifier: MIT */
/*
 * <dmaemu/report.h> - what the checkers found.
 *
 * Every report is printed in the sanitizer form, ending with exactly one
 * line "SUMMARY: dmaemu: <kind> ...", and counted per kind.  With the
 * option report_fold=1 (the default) a report of the same kind at the same
 * driver line as an earlier one is not printed, only counted in the exit
 * summary; every function of this header sees it all the same.
 */
#ifndef DMAEMU_REPORT_H
#define DMAEMU_REPORT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct dmaemu_machine;

/*
 * The report kinds; DMAEMU_REPORT_KINDS(X) makes both the enum and the
 * table of names, so they cannot disagree.
 */
#define DMAEMU_REPORT_KINDS(X)                                              \
	X(LOST_DEVICE_WRITE, "lost-device-write")                           \
	X(LOST_CPU_WRITE, "lost-cpu-write")                                 \
	X(STALE_CPU_READ, "stale-cpu-read")                                 \
	X(NO_KERNEL_MAPPING_ACCESS, "no-kernel-mapping-access")             \
	X(MMIO_ACCESS, "mmio-access")                                       \
	X(ALLOC_FAILURE, "alloc-failure")                                   \
	X(SLEEP_IN_ATOMIC, "sleep-in-atomic")                               \
	X(BAD_ARGUMENT, "bad-argument")                                     \
	X(BAD_FREE, "bad-free")                                             \
	X(MISSING_ATTRIBUTE, "missing-attribute")                           \
	X(POOL_CORRUPTION, "pool-corruption")                               \
	X(POOL_BUSY, "pool-busy")                                           \
	X(SWIOTLB_FULL, "swiotlb-full")                                     \
	X(IOMMU_FAULT, "iommu-fault")                                       \
	X(DMA_FAULT, "dma-fault")                                           \
	X(LEAKED_MAPPING, "leaked-mapping")                                 \
	X(MAP_INVALID_MEMORY, "map-invalid-memory")                         \
	X(UNMAP_INVALID_ADDRESS, "unmap-invalid-address")                   \
	X(UNMAP_NOT_MAPPED, "unmap-not-mapped")                             \
	X(UNMAP_SIZE_MISMATCH, "unmap-size-mismatch")                       \
	X(UNMAP_TYPE_MISMATCH, "unmap-type-mismatch")                       \
	X(FREE_CPU_ADDRESS_MISMATCH, "free-cpu-address-mismatch")           \
	X(UNMAP_SG_COUNT_MISMATCH, "unmap-sg-count-mismatch")               \
	X(UNMAP_DIRECTION_MISMATCH, "unmap-direction-mismatch")             \
	X(MAPPING_ERROR_NOT_CHECKED, "mapping-error-not-checked")           \
	X(SYNC_NOT_MAPPED, "sync-not-mapped")                               \
	X(SYNC_OUT_OF_RANGE, "sync-out-of-range")                           \
	X(SYNC_DIRECTION_MISMATCH, "sync-direction-mismatch")               \
	X(SYNC_CPU_TO_DEVICE, "sync-for-cpu-of-to-device-mapping")          \
	X(SYNC_DEV_FROM_DEVICE, "sync-for-device-of-from-device-mapping")   \
	X(SYNC_SG_COUNT_MISMATCH, "sync-sg-count-mismatch")                 \
	X(OVERLAPPING_MAPPINGS, "overlapping-mappings")                     \
	X(FREE_OF_MAPPED_MEMORY, "free-of-mapped-memory")                   \
	X(LEAKED_IRQ, "leaked-irq")                                         \
	X(UNHANDLED_IRQ, "unhandled-irq")                                   \
	X(CPU_ACCESS_DEVICE_OWNED, "cpu-access-device-owned")               \
	X(DEVICE_ACCESS_CPU_OWNED, "device-access-cpu-owned")               \
	X(STALE_DEVICE_READ, "stale-device-read")                           \
	X(WC_PENDING_READ, "wc-pending-read")                               \
	X(LOCKSTEP_DEADLOCK, "lockstep-deadlock")                           \
	X(DEVICE_ACCESS_UNMAPPED, "device-access-unmapped")                 \
	X(DEVICE_WRITE_TO_DEVICE_MAPPING, "device-write-to-device-mapping") \
	X(MISSING_WRITE_BARRIER, "missing-write-barrier")                   \
	X(MISSING_READ_BARRIER, "missing-read-barrier")                     \
	X(KERNEL_WARNING, "kernel-warning")                                 \
	X(KERNEL_BUG, "kernel-bug")                                         \
	X(SHARED_LINE_STORE, "shared-line-store")                           \
	X(IRQ_STORM, "irq-storm")                                           \
	X(HUNG_WAIT, "hung-wait")                                           \
	X(SG_SEGMENT_LIMITS, "sg-segment-limits")

enum dmaemu_report_kind {
#define DMAEMU_X_ENUM(id, name) DMAEMU_REPORT_##id,
	DMAEMU_REPORT_KINDS(DMAEMU_X_ENUM)
#undef DMAEMU_X_ENUM
		DMAEMU_REPORT_NKINDS
};

/** dmaemu_report_kind_name() - "lost-device-write" for its kind. */
const char *dmaemu_report_kind_name(enum dmaemu_report_kind kind);

/**
 * dmaemu_report_count() - reports of one kind made by @m so far.
 * @kind: a kind name ("stale-cpu-read"), or NULL for all kinds.
 * Return: the count; 0 for an unknown name.
 */
uint64_t dmaemu_report_count(struct dmaemu_machine *m, const char *kind);

/**
 * dmaemu_report_reset() - zero the counters of @m (dmaemu_report_count()
 * and dmaemu_report_suppressed()).
 * The recorded reports stay; dmaemu_report_clear() forgets both.
 */
void dmaemu_report_reset(struct dmaemu_machine *m);

/**
 * dmaemu_report_suppressed() - reports of one kind that a rule of the
 * machine's suppressions file matched (option suppressions=, see
 * docs/options.md): not printed, recorded, counted by
 * dmaemu_report_count() nor handed to the report callback.
 * @m:    the machine.
 * @kind: a kind name, or NULL for all kinds.
 * Return: the count since create or the last reset; 0 for an unknown name
 * or a NULL machine.
 */
uint64_t dmaemu_report_suppressed(struct dmaemu_machine *m, const char *kind);

/* ---------------------------------------------------------------------- */
/* Querying reports                                                       */
/* ---------------------------------------------------------------------- */

/*
 * Besides printing and counting, a machine records its last reports
 * (option report_keep=N, 256 by default; older ones are dropped and
 * counted) and hands each one, as it is made, to a callback.  Tests use
 * them to assert what was reported (<dmaemu/check.h> builds Check
 * fixtures and assertions on them).
 */

#define DMAEMU_REPORT_TEXT_MAX 4096 /* bytes of text, with its NUL */
#define DMAEMU_REPORT_WHERE_MAX 256 /* bytes of where, with its NUL */
#define DMAEMU_REPORT_DEVICE_MAX 64 /* bytes of device, with its NUL */
#define DMAEMU_REPORT_MASK_WORDS 4  /* 256 bits: the largest cache line */

/**
 * enum dmaemu_report_severity - how bad a report is.
 * @DMAEMU_SEVERITY_ERROR: a bug on the emulated platform (printed
 *                         "==PID==ERROR: dmaemu: ...").
 * @DMAEMU_SEVERITY_NOTE:  a portability note: correct on this profile,
 *                         broken on another (the ordering checks on x86,
 *                         whose TSO order hides a missing dma_wmb() or
 *                         dma_rmb() that arm64 needs; shared-line-store on
 *                         x86, whose devices snoop the cache); printed
 *                         "==PID==NOTE: dmaemu: ...", counted and recorded
 *                         like an error, but exitcode= and halt_on_error=
 *                         ignore it.  Option portability_notes=0 drops
 *                         them.
 */
enum dmaemu_report_severity {
	DMAEMU_SEVERITY_ERROR = 0,
	DMAEMU_SEVERITY_NOTE,
};

/**
 * struct dmaemu_report - one report, as recorded by its machine.
 * @seq:       1 for the machine's first report, then 2, 3, ...: the order
 *             in which the machine recorded them; never reused, not reset
 *             by dmaemu_report_clear().
 * @kind:      what was found.
 * @kind_name: dmaemu_report_kind_name(@kind) ("stale-cpu-read").
 * @severity:  an error, or a portability note.
 * @device:    name of the device the report is about, for the reports a
 *             device's own access or release makes: dma-fault (a bus
 *             address that is not DRAM), iommu-fault,
 *             device-access-unmapped, device-write-to-device-mapping,
 *             stale-device-read, wc-pending-read, unhandled-irq (the
 *             device of the line), and leaked-mapping
 *             when a device is released; "" for the others (their
 *             headline may still name a device).
 * @phys:      first physical byte concerned (0 when none).
 * @size:      bytes concerned (0 when the report names no range).
 * @mask_bits: bits of @mask: the line size when the report has a byte mask
 *             of one cache line (the line holding @phys), else 0.
 * @mask:      bit i (bit i % 64 of word i / 64) set: byte i of the line is
 *             concerned (stale bytes, lost bytes).
 * @where:     the driver's code the report names: "rx_poll+0x2c
 *             (/path/prog)" for a report made inside a DMA API call, or
 *             the cause a checker gave; "" when none.
 * @text:      the report as printed (or as it would have been, for a
 *             report that report_fold or report_limit kept from the
 *             log), from "==PID==ERROR:" to the SUMMARY line and its
 *             newline; the printed report is never cut, this copy keeps
 *             its first DMAEMU_REPORT_TEXT_MAX - 1 bytes.
 * @made_at:   where the mapping or coherent allocation the report is
 *             about was made: the API function and the driver's line
 *             ("dma_map_single_attrs() called from rx_refill rx.c:51"),
 *             for the ownership reports, stale-device-read (the mapping,
 *             or the DMA_ATTR_NON_CONSISTENT allocation read),
 *             device-access-unmapped (the mapping unmapped there, the one
 *             overrun, or the nearest one), dma-fault and iommu-fault
 *             (the mapping unmapped there, or the live one the address is
 *             a cut address of), device-write-to-device-mapping and
 *             free-of-mapped-memory; "" for the others and when none is
 *             known.
 * @last_device: the device of the last access to that mapping before the
 *             report ("" when the report names none, or the device never
 *             accessed the mapping); @last_dma, @last_size, @last_write:
 *             its bus address, bytes, and 1 for a write.
 */
struct dmaemu_report {
	uint64_t seq;
	enum dmaemu_report_kind kind;
	const char *kind_name;
	enum dmaemu_report_severity severity;
	char device[DMAEMU_REPORT_DEVICE_MAX];
	uint64_t phys;
	uint64_t size;
	unsigned int mask_bits;
	uint64_t mask[DMAEMU_REPORT_MASK_WORDS];
	char where[DMAEMU_REPORT_WHERE_MAX];
	char text[DMAEMU_REPORT_TEXT_MAX];
	char made_at[DMAEMU_REPORT_WHERE_MAX];
	char last_device[DMAEMU_REPORT_DEVICE_MAX];
	uint64_t last_dma;
	uint64_t last_size;
	int last_write;
};

/**
 * typedef dmaemu_report_fn - a callback of dmaemu_report_set_callback().
 * @m:   the machine that made the report.
 * @r:   the report; valid only until the callback returns (copy what is
 *       needed).
 * @arg: the argument given with the callback.
 */
typedef void (*dmaemu_report_fn)(struct dmaemu_machine *m,
				 const struct dmaemu_report *r, void *arg);

/**
 * dmaemu_report_set_callback() - call @fn for every report @m makes.
 * @m:   the machine.
 * @fn:  the callback, or NULL for none.
 * @arg: passed to @fn.
 *
 * @fn runs on the thread that made the report (a driver thread, a
 * device's thread, the interrupt thread), after the report is printed,
 * counted and recorded, and before halt_on_error aborts.  It runs outside
 * the report lock, but a report found inside the memory model (a stale
 * read found by a load, a lost write found by a cache maintenance) is made
 * while the model's own locks are held, so the callback must keep to:
 * reading @r; its own data, under its own locks (which it must not hold
 * while calling the library elsewhere); and the calls of this header
 * (dmaemu_report_count(), _get(), _next(), _kept(), _dropped()).  It
 * must not call any other function of the library (DMA API, CPU
 * accessors, devices, machines), nor leave by longjmp() (a failing
 * ck_assert() in a CK_FORK=no test does), nor sleep for long.  A report
 * made by the callback itself is recorded but not handed to it again.
 *
 * Once this returns, every report that starts later uses the new
 * callback, and no call of the old one is running on another thread (this
 * waits for them; from inside a callback it does not wait).  So a test may
 * free what the old @arg points to once this returns.
 *
 * Return: 0; -EINVAL (a bad-argument report) for a NULL machine; -ENOMEM
 * when the machine's record of reports could not be made.
 */
int dmaemu_report_set_callback(struct dmaemu_machine *m, dmaemu_report_fn fn,
			       void *arg);

/**
 * dmaemu_report_kept() - how many reports @m holds now (at most the
 * report_keep option), the oldest at index 0.
 * Return: the number; 0 for a NULL machine.
 */
unsigned int dmaemu_report_kept(struct dmaemu_machine *m);

/**
 * dmaemu_report_dropped() - reports @m made but no longer holds (the older
 * ones, once more than report_keep were made, or any it could not store)
 * since it was created or last cleared.
 * Return: the number; 0 for a NULL machine.
 */
uint64_t dmaemu_report_dropped(struct dmaemu_machine *m);

/**
 * dmaemu_report_get() - copy out a recorded report.
 * @m:   the machine.
 * @i:   0 for the oldest report held, dmaemu_report_kept() - 1 for the
 *       newest.
 * @out: filled in.
 *
 * Indexes move when an old report is dropped; while other threads may
 * still report, iterate with dmaemu_report_next() instead.
 *
 * Return: 0; -ENOENT when @i is not below dmaemu_report_kept(); -EINVAL
 * (a bad-argument report) for a NULL argument.
 */
int dmaemu_report_get(struct dmaemu_machine *m, unsigned int i,
		      struct dmaemu_report *out);

/**
 * dmaemu_report_next() - the oldest recorded report made after another.
 * @m:     the machine.
 * @after: a sequence number (0: from the oldest held).
 * @out:   filled with the oldest report held whose ->seq is greater than
 *         @after.
 *
 * Iterates in order even while new reports are made:
 *   for (seq = 0; !dmaemu_report_next(m, seq, &r); seq = r.seq) ...
 *
 * Return: 0; -ENOENT when there is no such report; -EINVAL (a
 * bad-argument report) for a NULL argument.
 */
int dmaemu_report_next(struct dmaemu_machine *m, uint64_t after,
		       struct dmaemu_report *out);

/**
 * dmaemu_report_clear() - forget every recorded report of @m, the count of
 * dropped ones and the counters of dmaemu_report_count().  Sequence
 * numbers go on from where they were.
 */
void dmaemu_report_clear(struct dmaemu_machine *m);

#ifdef __cplusplus
}
#endif

#endif
