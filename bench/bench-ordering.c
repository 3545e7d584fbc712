// SPDX-License-Identifier: MIT
/*
 * bench-ordering.c - what the ordering checks of coherent memory
 * (docs/ordering.md) cost a driver, on an arm64 machine with
 * ordering=weak and on one with ordering=strong, alternately in the same
 * run, through two reference drivers built with the instrumentation
 * flags: the copy engine's copying 4 KiB buffers one job at a time
 * (descriptor stores to the coherent ring, doorbell, interrupt, status
 * load), and the network card's sending and receiving 64-byte frames
 * through its loopback (TX and RX rings in coherent memory).  The
 * target for each: weak costs at most 1.3 times strong.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <linux/platform_device.h>
#include <linux/slab.h>

#include <dmaemu/devices/copy-engine.h>
#include <dmaemu/device.h>
#include <dmaemu/machine.h>
#include <dmaemu/report.h>

#include "bench.h"
#include "bench-nic.h"
#include "ce-driver.h"

#define LEN 4096
#define JOBS 300
#define REPS 7
#define FRAMES 5000

/* ns per job of JOBS copies on a fresh machine with @opts; -1 on error. */
static double round_ns(const char *opts, uint64_t *reports)
{
	struct dmaemu_machine *m = dmaemu_machine_create(opts);
	struct dmaemu_device *d;
	struct cedrv *ce;
	uint8_t *src, *dst;
	double t0, t = -1;
	unsigned int i;

	if (!m)
		return -1;
	if (platform_driver_register(&cedrv_driver))
		goto out_m;
	d = dmaemu_copy_engine_create(m, "ce0");
	ce = cedrv_first();
	src = kmalloc(LEN, GFP_KERNEL);
	dst = kmalloc(LEN, GFP_KERNEL);
	if (!d || !ce || !src || !dst)
		goto out;
	memset(src, 0x5a, LEN);
	t0 = bench_now_ns();
	for (i = 0; i < JOBS; i++)
		if (cedrv_memcpy(ce, dst, src, LEN))
			goto out;
	t = (bench_now_ns() - t0) / JOBS;
	if (memcmp(dst, src, LEN))
		t = -1;
out:
	kfree(dst);
	kfree(src);
	if (d)
		dmaemu_device_destroy(d);
	platform_driver_unregister(&cedrv_driver);
out_m:
	*reports += dmaemu_report_count(m, NULL);
	dmaemu_machine_destroy(m);
	return t;
}

int main(void)
{
	double tw[REPS], ts[REPS], pw[REPS], ps[REPS], w, s, nw, ns;
	uint64_t reports = 0;
	unsigned int r;

	unsetenv("DMAEMU_OPTIONS");
	for (r = 0; r < REPS; r++) {
		tw[r] = round_ns("profile=arm64:mem=64M:log_path=/dev/null:"
				 "ordering=weak",
				 &reports);
		ts[r] = round_ns("profile=arm64:mem=64M:log_path=/dev/null:"
				 "ordering=strong",
				 &reports);
		pw[r] = bench_nic_pps(
			"profile=arm64:mem=64M:log_path=/dev/null:"
			"ordering=weak",
			16, FRAMES, &reports);
		ps[r] = bench_nic_pps(
			"profile=arm64:mem=64M:log_path=/dev/null:"
			"ordering=strong",
			16, FRAMES, &reports);
		if (tw[r] < 0 || ts[r] < 0 || pw[r] < 0 || ps[r] < 0) {
			fprintf(stderr, "bench-ordering: a run failed\n");
			return 1;
		}
	}
	if (reports) {
		fprintf(stderr, "bench-ordering: the driver was reported\n");
		return 1;
	}
	w = bench_min(tw, REPS);
	s = bench_min(ts, REPS);
	bench_info("ordering_ce_weak_ns", w, "ns per 4 KiB copy job, weak");
	bench_info("ordering_ce_strong_ns", s, "ns per 4 KiB copy job, strong");
	bench_judge("ordering_ratio_ce", w / s, BENCH_LE, 1.3,
		    s > 1000 && s < 1e8,
		    "ordering=weak %.0f ns a copy-engine job; baseline "
		    "ordering=strong %.0f ns",
		    w, s);
	nw = bench_max(pw, REPS);
	ns = bench_max(ps, REPS);
	bench_info("ordering_nic_weak_pps", nw, "64-byte frames/s, weak");
	bench_info("ordering_nic_strong_pps", ns, "64-byte frames/s, strong");
	bench_judge("ordering_ratio_nic", ns / nw, BENCH_LE, 1.3,
		    ns > 1000 && ns < 1e8,
		    "ordering=weak %.0f frames/s through the card's loopback; "
		    "baseline ordering=strong %.0f frames/s",
		    nw, ns);
	return bench_status();
}
