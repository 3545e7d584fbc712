// SPDX-License-Identifier: MIT
/*
 * bench-checks.c - what the checkers cost a driver's receive path: the
 * same streaming receive loop on a machine with every check on (the
 * default, checks=all) and on one with checks=none, in the same run.
 *
 * One packet is what a NAPI poll does with a receive buffer (arm64, the
 * direct backend):
 *
 *   dma_map_single(DMA_FROM_DEVICE)   the buffer goes to the device
 *   dmaemu_dma_write()                the device writes the packet
 *   dma_sync_single_for_cpu()         the buffer comes back
 *   the CPU reads the packet          a loop built with the
 *                                     instrumentation flags
 *                                     (bench-checks-read.c), as
 *                                     dmaemu-cc builds driver code
 *   dma_unmap_single()
 *
 * With every check on, the device's write goes through the ownership
 * check and the stale-device-read search is skipped (a write), the CPU's
 * loads through the ownership check and the stale-read test; with
 * checks=none those are not made (docs/options.md, "Report policy").
 * The map, the sync, the unmap and the cache model cost the same on both.
 *
 * Judged (bench.h format):
 *   checks_ratio_rx   ns per packet with checks=all / with checks=none,
 *                     target <= 2
 * The two machines run alternately, a round of ITERS packets each, best
 * of REPS rounds (a round can fall between two preemptions on a shared
 * host).  The baseline (checks=none) is refused as bad-baseline when it is
 * not plausible: faster than copying the packet twice with memcpy() (the
 * device's write and the CPU's read each move every byte: a faster loop
 * does not do the work), or slower than 1 ms a packet (a disturbed run).
 * Before timing, each machine's loop is checked once: the CPU reads what
 * the device wrote, and a CPU read before the sync is reported with the
 * checks on and not with checks=none (the option took effect).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <dmaemu/device.h>
#include <dmaemu/machine.h>
#include <dmaemu/report.h>
#include <linux/dma-mapping.h>
#include <linux/slab.h>

#include "bench.h"

#define REPS 61
#define ITERS 200
#define PKT 2048
#define CEILING_NS 1e6

/* bench-checks-read.c, compiled with the instrumentation flags. */
uint64_t bench_checks_read(const void *buf, size_t size);

struct rx {
	struct dmaemu_machine *m;
	struct dmaemu_device *dd;
	struct device *dev;
	uint8_t *buf;
	uint8_t pkt[PKT];
	uint64_t want; /* the sum of pkt's words */
};

static int rx_up(struct rx *rx, const char *opts)
{
	unsigned int i;

	rx->m = dmaemu_machine_create(opts);
	if (!rx->m)
		return -1;
	rx->dd = dmaemu_device_create(rx->m, "rx0", NULL, NULL);
	if (!rx->dd)
		return -1;
	rx->dev = dmaemu_device_to_dev(rx->dd);
	dmaemu_machine_set_current(rx->m);
	rx->buf = kmalloc(PKT, GFP_KERNEL);
	if (!rx->buf)
		return -1;
	for (i = 0; i < PKT; i++)
		rx->pkt[i] = (uint8_t)(i * 7 + 1);
	rx->want = 0;
	for (i = 0; i < PKT; i += 8) {
		uint64_t w;

		memcpy(&w, rx->pkt + i, 8);
		rx->want += w;
	}
	return 0;
}

static void rx_down(struct rx *rx)
{
	dmaemu_machine_set_current(rx->m);
	kfree(rx->buf);
	dmaemu_device_destroy(rx->dd);
	dmaemu_machine_destroy(rx->m);
}

/* One packet; return the sum the CPU read.  @early: the CPU reads the
 * buffer once before the sync too (the bug the checks report). */
static uint64_t rx_packet(struct rx *rx, bool early)
{
	dma_addr_t dma;
	uint64_t sum;

	dma = dma_map_single(rx->dev, rx->buf, PKT, DMA_FROM_DEVICE);
	if (dma_mapping_error(rx->dev, dma))
		abort();
	if (dmaemu_dma_write(rx->dd, dma, rx->pkt, PKT))
		abort();
	if (early)
		(void)bench_checks_read(rx->buf, PKT);
	dma_sync_single_for_cpu(rx->dev, dma, PKT, DMA_FROM_DEVICE);
	sum = bench_checks_read(rx->buf, PKT);
	dma_unmap_single(rx->dev, dma, PKT, DMA_FROM_DEVICE);
	return sum;
}

/* ns per packet of a round of ITERS. */
static double rx_round(struct rx *rx)
{
	uint64_t sum = 0;
	unsigned int i;
	double t0;

	dmaemu_machine_set_current(rx->m);
	t0 = bench_now_ns();
	for (i = 0; i < ITERS; i++)
		sum += rx_packet(rx, false);
	t0 = (bench_now_ns() - t0) / ITERS;
	if (sum != rx->want * ITERS)
		abort();
	return t0;
}

/* The loop does its work, and the checks are on or off as asked. */
static int rx_verify(struct rx *rx, bool checks, const char *name)
{
	uint64_t before;

	dmaemu_machine_set_current(rx->m);
	if (rx_packet(rx, false) != rx->want) {
		fprintf(stderr, "bench-checks: %s: the CPU read wrong data\n",
			name);
		return -1;
	}
	if (dmaemu_report_count(rx->m, NULL)) {
		fprintf(stderr, "bench-checks: %s: a correct loop reported\n",
			name);
		return -1;
	}
	before = dmaemu_report_count(rx->m, "cpu-access-device-owned");
	rx_packet(rx, true);
	if ((dmaemu_report_count(rx->m, "cpu-access-device-owned") > before) !=
	    checks) {
		fprintf(stderr, "bench-checks: %s: the early read was %s\n",
			name, checks ? "not reported" : "reported");
		return -1;
	}
	dmaemu_report_reset(rx->m);
	return 0;
}

/* ns per memcpy() of PKT bytes between two warm buffers of one block. */
static double time_memcpy(void)
{
	double t[REPS], t0;
	unsigned int r, i;
	uint8_t *a, *b;
	void *blk;

	if (posix_memalign(&blk, 4096, 2 * PKT + 2048))
		abort();
	a = blk;
	b = a + PKT + 2048;
	memset(a, 1, PKT);
	memset(b, 2, PKT);
	for (r = 0; r < REPS; r++) {
		t0 = bench_now_ns();
		for (i = 0; i < 20000; i++) {
			memcpy(b, a, PKT);
			__asm__ volatile("" : : "r"(b) : "memory");
			a[i % PKT]++;
		}
		t[r] = (bench_now_ns() - t0) / 20000;
	}
	free(blk);
	return bench_min(t, REPS);
}

int main(void)
{
	struct rx *all = calloc(1, sizeof(*all)),
		  *none = calloc(1, sizeof(*none));
	double ta[REPS], tn[REPS], a, n, mc;
	unsigned int r;

	unsetenv("DMAEMU_OPTIONS");
	if (!all || !none ||
	    rx_up(all, "profile=arm64:mem=64M:log_path=/dev/null") ||
	    rx_up(none, "profile=arm64:mem=64M:log_path=/dev/null:"
			"checks=none")) {
		fprintf(stderr, "bench-checks: cannot create the machines\n");
		return 1;
	}
	if (rx_verify(all, true, "checks=all") ||
	    rx_verify(none, false, "checks=none"))
		return 1;
	mc = time_memcpy();
	for (r = 0; r < REPS; r++) {
		ta[r] = rx_round(all);
		tn[r] = rx_round(none);
	}
	a = bench_min(ta, REPS);
	n = bench_min(tn, REPS);
	bench_info("checks_rx_all_ns", a, "ns per packet, checks=all");
	bench_info("checks_rx_none_ns", n, "ns per packet, checks=none");
	bench_judge("checks_ratio_rx", a / n, BENCH_LE, 2.0,
		    n >= 2 * mc && n <= CEILING_NS,
		    "checks=all %.1f ns a %d-byte packet; baseline checks=none "
		    "%.1f ns (plausible from 2 x memcpy %.1f ns to %.0f ns)",
		    a, PKT, n, 2 * mc, CEILING_NS);
	if (dmaemu_report_count(all->m, NULL) ||
	    dmaemu_report_count(none->m, NULL)) {
		fprintf(stderr, "bench-checks: unexpected reports\n");
		return 1;
	}
	rx_down(none);
	rx_down(all);
	free(all);
	free(none);
	return bench_status();
}
