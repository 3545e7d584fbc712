/* SPDX-License-Identifier: MIT */
/*
 * <dmaemu/report.h> - what the checkers found.
 *
 * Every report is printed in the sanitizer form, ending with exactly one
 * line "SUMMARY: dmaemu: <kind> ...", and counted per kind.
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
#define DMAEMU_REPORT_KINDS(X)                                  \
	X(LOST_DEVICE_WRITE, "lost-device-write")               \
	X(LOST_CPU_WRITE, "lost-cpu-write")                     \
	X(STALE_CPU_READ, "stale-cpu-read")                     \
	X(NO_KERNEL_MAPPING_ACCESS, "no-kernel-mapping-access") \
	X(MMIO_ACCESS, "mmio-access")                           \
	X(ALLOC_FAILURE, "alloc-failure")                       \
	X(SLEEP_IN_ATOMIC, "sleep-in-atomic")                   \
	X(BAD_ARGUMENT, "bad-argument")                         \
	X(BAD_FREE, "bad-free")                                 \
	X(MISSING_ATTRIBUTE, "missing-attribute")               \
	X(POOL_CORRUPTION, "pool-corruption")                   \
	X(POOL_BUSY, "pool-busy")                               \
	X(SWIOTLB_FULL, "swiotlb-full")                         \
	X(IOMMU_FAULT, "iommu-fault")                           \
	X(DMA_FAULT, "dma-fault")                               \
	X(LEAKED_MAPPING, "leaked-mapping")                     \
	X(MAP_NON_LINEAR, "map-non-linear")                     \
	X(BAD_UNMAP, "bad-unmap")                               \
	X(BAD_SYNC, "bad-sync")                                 \
	X(LEAKED_IRQ, "leaked-irq")                             \
	X(UNHANDLED_IRQ, "unhandled-irq")                       \
	X(CPU_ACCESS_DEVICE_OWNED, "cpu-access-device-owned")   \
	X(DEVICE_ACCESS_CPU_OWNED, "device-access-cpu-owned")   \
	X(STALE_DEVICE_READ, "stale-device-read")

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

/** dmaemu_report_reset() - zero the counters of @m. */
void dmaemu_report_reset(struct dmaemu_machine *m);

#ifdef __cplusplus
}
#endif

#endif
