// SPDX-License-Identifier: MIT
/*
 * bench-trace.c - what tracing costs (docs/tracing.md, "Cost").
 *
 * One workload, timed in ns per round, best of REPS rounds: a 4 KiB
 * buffer dirtied by uninstrumented code, mapped DMA_TO_DEVICE and
 * unmapped; a device writing 256 bytes into a DMA_FROM_DEVICE mapping and
 * reading them back; the CPU reading one word of each line of the next
 * 4 KiB of a 64 KiB buffer (twice the cache: every read a fill) through
 * <dmaemu/cpu.h>.  It passes the DMA, device and cache-fill trace points.
 *
 * Built twice:
 *   bench-trace      against the library: judges trace_on_ratio, the
 *                    workload with trace=/dev/null (the default groups:
 *                    all but the cache lines) against the same machine
 *                    options without a trace, alternately in one run
 *                    (target at most 1.5), and prints trace_off_ns;
 *   bench-trace-out  against a copy of the library with every trace
 *                    point compiled out (DMAEMU__TRACE_OUT): prints
 *                    trace_out_ns.
 * bench/trace-cost.sh runs both and judges trace_off_vs_out (at most
 * 1.03: tracing off costs nothing measurable).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/dma-mapping.h>
#include <linux/slab.h>

#include <dmaemu/cpu.h>
#include <dmaemu/device.h>
#include <dmaemu/machine.h>
#include <dmaemu/report.h>

#include "bench.h"

#define REPS 9
#define ITERS 200
#define SCAN (64 * 1024)

struct rig {
	struct dmaemu_machine *m;
	struct dmaemu_device *dd;
	struct device *dev;
	uint8_t *buf, *rx, *scan;
};

static int rig_up(struct rig *r, const char *opts)
{
	memset(r, 0, sizeof(*r));
	r->m = dmaemu_machine_create(opts);
	if (!r->m)
		return -1;
	r->dd = dmaemu_device_create(r->m, "bench0", NULL, NULL);
	if (!r->dd)
		return -1;
	r->dev = dmaemu_device_to_dev(r->dd);
	r->buf = kmalloc(4096, GFP_KERNEL);
	r->rx = kmalloc(256, GFP_KERNEL);
	r->scan = kmalloc(SCAN, GFP_KERNEL);
	return r->buf && r->rx && r->scan ? 0 : -1;
}

static void rig_down(struct rig *r)
{
	kfree(r->scan);
	kfree(r->rx);
	kfree(r->buf);
	if (r->dd)
		dmaemu_device_destroy(r->dd);
	dmaemu_machine_destroy(r->m);
}

/* ns per iteration of the workload, one round; -1 on an error. */
static double round_ns(struct rig *r)
{
	uint8_t frame[256], word[8];
	double t0 = bench_now_ns();
	unsigned int i;
	size_t off;

	for (i = 0; i < ITERS; i++) {
		dma_addr_t dma;

		memset(r->buf, (int)i, 4096);
		dma = dma_map_single(r->dev, r->buf, 4096, DMA_TO_DEVICE);
		if (dma_mapping_error(r->dev, dma))
			return -1;
		dma_unmap_single(r->dev, dma, 4096, DMA_TO_DEVICE);

		dma = dma_map_single(r->dev, r->rx, 256, DMA_FROM_DEVICE);
		if (dma_mapping_error(r->dev, dma))
			return -1;
		memset(frame, (int)i, sizeof(frame));
		if (dmaemu_dma_write(r->dd, dma, frame, sizeof(frame)) ||
		    dmaemu_dma_read(r->dd, dma, frame, sizeof(frame)))
			return -1;
		dma_unmap_single(r->dev, dma, 256, DMA_FROM_DEVICE);
		if (r->rx[255] != (uint8_t)i)
			return -1;

		for (off = 0; off < 4096; off += 64)
			if (dmaemu_cpu_read(word,
					    r->scan + (i * 4096u) % SCAN + off,
					    sizeof(word)))
				return -1;
	}
	return (bench_now_ns() - t0) / ITERS;
}

int main(void)
{
	static const char base[] = "profile=arm64:mem=64M:log_path=/dev/null";
	double off[REPS], on[REPS], t_off, t_on;
	struct rig a;
#ifndef BENCH_TRACE_OUT
	struct rig b;
#endif
	unsigned int k;
	uint64_t reports;

	unsetenv("DMAEMU_OPTIONS");
	if (rig_up(&a, base))
		return 1;
#ifndef BENCH_TRACE_OUT
	if (rig_up(&b, "profile=arm64:mem=64M:log_path=/dev/null:"
		       "trace=/dev/null"))
		return 1;
#endif
	for (k = 0; k < REPS; k++) {
		off[k] = round_ns(&a);
#ifndef BENCH_TRACE_OUT
		on[k] = round_ns(&b);
#else
		on[k] = off[k];
#endif
		if (off[k] < 0 || on[k] < 0) {
			fprintf(stderr, "bench-trace: a round failed\n");
			return 1;
		}
	}
	reports = dmaemu_report_count(a.m, NULL);
#ifndef BENCH_TRACE_OUT
	reports += dmaemu_report_count(b.m, NULL);
	rig_down(&b);
#endif
	rig_down(&a);
	if (reports) {
		fprintf(stderr, "bench-trace: the workload was reported\n");
		return 1;
	}
	t_off = bench_min(off, REPS);
	t_on = bench_min(on, REPS);
#ifdef BENCH_TRACE_OUT
	bench_info("trace_out_ns", t_off,
		   "ns a workload iteration, trace points compiled out");
	(void)t_on;
#else
	bench_info("trace_off_ns", t_off, "ns a workload iteration, no trace");
	bench_judge("trace_on_ratio", t_on / t_off, BENCH_LE, 1.5,
		    t_off > 1000 && t_off < 1e8,
		    "trace=/dev/null (default groups) %.0f ns a workload "
		    "iteration; baseline no trace %.0f ns",
		    t_on, t_off);
#endif
	return bench_status();
}
