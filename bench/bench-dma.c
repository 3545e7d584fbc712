// SPDX-License-Identifier: MIT
/*
 * bench-dma.c - the cost of a streaming mapping, as ratios to memcpy() of
 * the same size measured in the same run.
 *
 * Each judged figure is dma_map_single() + dma_unmap_single() of a buffer
 * that is fully dirty before every map (DMA_TO_DEVICE, arm64, the registry
 * and ownership on, as always): the map's clean writes every line back.
 * Before each map the buffer is dirtied again with a new value in one of
 * two ways:
 *
 *   plain   memset() through the linear map by uninstrumented code: the
 *           lines are dirty in the data (CPU != TWIN) but the cache model
 *           never saw the stores (docs/model.md, way 3)
 *   instr   a store loop compiled with the instrumentation flags
 *           (bench-dma-dirty.c, as dmaemu-cc builds driver code): every
 *           store goes through the hooks, so the lines are resident and
 *           dirty in the cache model too, as a real driver's are
 *
 * The map+unmap pair alone is timed (clock read before the map and after
 * the unmap, the cost of an empty interval measured in the same run and
 * subtracted), averaged over a round, best of REPS short rounds (a round
 * of a millisecond or two can fall between two preemptions on a shared
 * machine).  Before timing, each case is checked once: every byte of the
 * buffer CPU-dirty before the map, and MEM equal to the CPU's copy after
 * it (the work is really done).
 *
 * The 4 KiB cases run on the default arm64 machine (32 KiB cache).  The
 * 1 MiB cases run on one with a 2 MiB cache: with the default cache, the
 * instrumented loop's own evictions would write all but the last 32 KiB
 * back while dirtying, and the map would find the buffer mostly clean.
 *
 * The baseline is memcpy() between two warm buffers carved from one
 * page-aligned block, the destination size + 2 KiB after the source: two
 * separate malloc() blocks can sit a multiple of 4 KiB apart, and then
 * every load of the copy is falsely made to wait for an earlier store to
 * the same address bits 0-11 (4 KiB aliasing), which made a 4 KiB copy
 * 20-40 times slower than it is and every ratio look good.  A baseline is
 * refused (bad-baseline) when its bandwidth is below a floor no correct
 * copy comes near: 8 GB/s for 4 KiB (the copy is L1-resident; correct ones
 * measure 45-120 GB/s on the hosts we use, the aliased one 1.5-2.9 GB/s),
 * 4 GB/s for 1 MiB (in L2/L3; even a DRAM-to-DRAM copy on a loaded server
 * runs above 5 GB/s).
 *
 * Judged (bench.h format):
 *   dma_ratio_4k_plain, dma_ratio_4k_instr    target <= 6
 *   dma_ratio_1m_plain, dma_ratio_1m_instr    target <= 3.5
 *   dma_ratio_live   the 4 KiB plain map+unmap with 100,000 other mappings
 *                    live on the device, against the same on the empty
 *                    device measured just before: < 2
 *   dma_cycle_4k, dma_cycle_1m   the cycle a driver makes, "fill from
 *                    instrumented code, map, unmap", minus its fill, on a
 *                    machine with the default options and cache (32 KiB),
 *                    against memcpy(): <= 6 and <= 3.5.  The fill is a
 *                    copy through the model (bench_fill_instr()), as a
 *                    dmaemu-cc-built driver's memcpy() is, and is timed
 *                    inside the cycle (clock read before the fill, after
 *                    it, after the unmap): the map and unmap then meet the
 *                    cache state a real fill leaves (with the default
 *                    cache, a 1 MiB fill's own evictions have written most
 *                    of the buffer back).  Each fill copies the same bytes:
 *                    from the second cycle on, the lines' CPU copy equals
 *                    TWIN and MEM and the model holds the resident ones
 *                    dirty (a fill with new bytes leaves them fully dirty,
 *                    the case dma_ratio_*_instr times).  Informational: the fill in the
 *                    cycle, and the same fill repeated with no map between
 *                    (the lines stay resident and dirty at 4 KiB), each
 *                    against memcpy().
 * Informational: the times themselves, the clean alone (dmaemu__range_
 * clean() of the same dirty buffer: the map's maintenance without the DMA
 * layer), and for the instrumented cases how much more the next dirtying
 * costs after a map+unmap than on a buffer that stayed dirty (the stores
 * find their lines clean in the model and take the slow path again: a
 * cost of the store path that a map causes, not counted in map+unmap).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <linux/dma-mapping.h>
#include <linux/gfp.h>
#include <linux/mm.h>

#include "bench.h"
#include "dma/dma.h"
#include "dmaemu/device.h"

#define REPS 31
#define LIVE 100000
#define LIVE_SLICE 256
/* Baseline floors, GB/s (see above). */
#define FLOOR_4K_GBS 8.0
#define FLOOR_1M_GBS 4.0

/* bench-dma-dirty.c, compiled with the instrumentation flags. */
void bench_dirty_instr(void *buf, size_t size, uint8_t v);
void bench_fill_instr(void *dst, const void *src, size_t size);

typedef void dirty_fn(void *buf, size_t size, uint8_t v);

static void dirty_plain(void *buf, size_t size, uint8_t v)
{
	memset(buf, v, size);
	__asm__ volatile("" : : "r"(buf) : "memory");
}

struct bench_machine {
	struct dmaemu_machine *m;
	struct dmaemu_device *dd;
	struct device *dev;
};

/* A new nonzero value each time. */
static uint8_t next_value(uint8_t *v)
{
	if (!++*v)
		++*v;
	return *v;
}

/* ns of an empty timed interval: what the timing below subtracts. */
static double time_clock(void)
{
	double t[REPS], sum, t0;
	unsigned int r, i;

	for (r = 0; r < REPS; r++) {
		sum = 0;
		for (i = 0; i < 100000; i++) {
			t0 = bench_now_ns();
			sum += bench_now_ns() - t0;
		}
		t[r] = sum / 100000;
	}
	return bench_min(t, REPS);
}

/*
 * ns per memcpy() of @size bytes between two warm host buffers from one
 * page-aligned block, the destination @size + 2 KiB after the source (so
 * no load aliases a recent store modulo 4 KiB).
 */
static double time_memcpy(size_t size, unsigned int iters)
{
	double t[REPS], t0;
	unsigned int r, i;
	uint8_t *a, *b;
	void *blk;

	if (posix_memalign(&blk, 4096, 2 * size + 2048))
		abort();
	a = blk;
	b = a + size + 2048;
	memset(a, 1, size);
	memset(b, 2, size);
	for (r = 0; r < REPS; r++) {
		t0 = bench_now_ns();
		for (i = 0; i < iters; i++) {
			memcpy(b, a, size);
			/* Keep the copy from being optimised away. */
			__asm__ volatile("" : : "r"(b) : "memory");
			a[i % size]++;
		}
		t[r] = (bench_now_ns() - t0) / iters;
	}
	free(blk);
	return bench_min(t, REPS);
}

/*
 * Check once that the case does the work it claims: @buf fully CPU-dirty
 * before the map, MEM equal to the CPU's copy after it.  Exits on failure.
 */
static void check_case(const struct bench_machine *bm, uint8_t *buf,
		       size_t size, dirty_fn *dirty, const char *name)
{
	uint64_t phys = virt_to_phys(buf);
	const uint8_t *twin = dmaemu__phys_twin(bm->m, phys);
	const uint8_t *mem = dmaemu__phys_mem(bm->m, phys);
	dma_addr_t dma;
	size_t i;
	uint8_t v;

	v = twin[0] + 1 ? twin[0] + 1 : 1;
	dirty(buf, size, v);
	for (i = 0; i < size; i++)
		if (buf[i] == twin[i])
			break;
	dma = dma_map_single(bm->dev, buf, size, DMA_TO_DEVICE);
	if (dma_mapping_error(bm->dev, dma)) {
		fprintf(stderr, "bench-dma: %s: map failed\n", name);
		exit(1);
	}
	if (i < size) {
		fprintf(stderr, "bench-dma: %s: byte %zu not dirty\n", name, i);
		exit(1);
	}
	if (memcmp(mem, buf, size)) {
		fprintf(stderr, "bench-dma: %s: map did not write back\n",
			name);
		exit(1);
	}
	dma_unmap_single(bm->dev, dma, size, DMA_TO_DEVICE);
}

struct dma_time {
	double map_unmap; /* ns per map+unmap */
	double redirty;	  /* ns more per dirtying after one */
};

/*
 * ns per map+unmap of @size bytes at @buf, dirtied by @dirty before each
 * map; and how much more that dirtying costs than dirtying a buffer that
 * stayed dirty.  @clock: the cost of an empty interval.
 */
static void time_map_unmap(const struct bench_machine *bm, uint8_t *buf,
			   size_t size, unsigned int iters, dirty_fn *dirty,
			   double clock, struct dma_time *out)
{
	double mu[REPS], dm[REPS], da[REPS], t0, t1, smu, sdm, sda;
	unsigned int r, i;
	uint8_t v = 0;

	for (r = 0; r < REPS; r++) {
		smu = sdm = sda = 0;
		for (i = 0; i < iters; i++) {
			dma_addr_t dma;

			t0 = bench_now_ns();
			dirty(buf, size, next_value(&v));
			t1 = bench_now_ns();
			sdm += t1 - t0;
			t0 = bench_now_ns();
			dma = dma_map_single(bm->dev, buf, size, DMA_TO_DEVICE);
			if (dma_mapping_error(bm->dev, dma))
				abort();
			dma_unmap_single(bm->dev, dma, size, DMA_TO_DEVICE);
			smu += bench_now_ns() - t0;
		}
		mu[r] = smu / iters - clock;
		dm[r] = sdm / iters;

		for (i = 0; i < iters; i++) {
			t0 = bench_now_ns();
			dirty(buf, size, next_value(&v));
			sda += bench_now_ns() - t0;
		}
		da[r] = sda / iters;
		/* Leave the buffer clean for the next round's first map. */
		dmaemu__range_clean(bm->m, virt_to_phys(buf), size);
	}
	out->map_unmap = bench_min(mu, REPS);
	out->redirty = bench_min(dm, REPS) - bench_min(da, REPS);
}

/*
 * ns per dmaemu__range_clean() of @size bytes at @buf, fully dirty before
 * each: the maintenance that a map does, without the DMA layer around it.
 */
static double time_clean(const struct bench_machine *bm, uint8_t *buf,
			 size_t size, unsigned int iters, dirty_fn *dirty,
			 double clock)
{
	uint64_t phys = virt_to_phys(buf);
	double t[REPS], t0, s;
	unsigned int r, i;
	uint8_t v = 0;

	for (r = 0; r < REPS; r++) {
		s = 0;
		for (i = 0; i < iters; i++) {
			dirty(buf, size, next_value(&v));
			t0 = bench_now_ns();
			dmaemu__range_clean(bm->m, phys, size);
			s += bench_now_ns() - t0;
		}
		t[r] = s / iters - clock;
	}
	return bench_min(t, REPS);
}

/* Only the cases whose name contains this (argv[1]), for profiling. */
static const char *only;

static bool wanted(const char *name)
{
	return !only || strstr(name, only);
}

/*
 * dma_cycle_*: ns per "fill, map, unmap" of @size bytes at @buf from
 * @src, minus ns per fill alone; judged against @copy_ns.
 */
static void run_cycle(const struct bench_machine *bm, uint8_t *buf,
		      const uint8_t *src, size_t size, unsigned int iters,
		      const char *name, double clock, double copy_ns,
		      double target, double floor_gbs)
{
	double mu[REPS], fc[REPS], fa[REPS], t0, t1, smu, sfc, sfa;
	double gbs = (double)size / copy_ns, mapping, fill, alone;
	unsigned int r, i;
	char info[64];

	if (!wanted(name))
		return;
	for (r = 0; r < REPS; r++) {
		smu = sfc = sfa = 0;
		for (i = 0; i < iters; i++) {
			dma_addr_t dma;

			t0 = bench_now_ns();
			bench_fill_instr(buf, src, size);
			t1 = bench_now_ns();
			dma = dma_map_single(bm->dev, buf, size, DMA_TO_DEVICE);
			if (dma_mapping_error(bm->dev, dma))
				abort();
			dma_unmap_single(bm->dev, dma, size, DMA_TO_DEVICE);
			smu += bench_now_ns() - t1;
			sfc += t1 - t0;
		}
		mu[r] = smu / iters - clock;
		fc[r] = sfc / iters - clock;
		for (i = 0; i < iters; i++) {
			t0 = bench_now_ns();
			bench_fill_instr(buf, src, size);
			sfa += bench_now_ns() - t0;
		}
		fa[r] = sfa / iters - clock;
	}
	mapping = bench_min(mu, REPS);
	fill = bench_min(fc, REPS);
	alone = bench_min(fa, REPS);
	bench_judge(name, mapping / copy_ns, BENCH_LE, target, gbs >= floor_gbs,
		    "fill+map+unmap %.1f ns - its fill %.1f ns; baseline "
		    "memcpy %zu KiB %.1f ns = %.1f GB/s (floor %.0f)",
		    mapping + fill, fill, size >> 10, copy_ns, gbs, floor_gbs);
	snprintf(info, sizeof(info), "%s_fill_ratio", name);
	bench_info(info, fill / copy_ns,
		   "the fill in the cycle (a copy through the model) / memcpy");
	snprintf(info, sizeof(info), "%s_fill_alone_ratio", name);
	bench_info(info, alone / copy_ns,
		   "the same fill repeated with no map between / memcpy");
}

static int machine_up(struct bench_machine *bm, const char *opts)
{
	bm->m = dmaemu_machine_create(opts);
	if (!bm->m)
		return -1;
	bm->dd = dmaemu_device_create(bm->m, "bench0", NULL, NULL);
	if (!bm->dd)
		return -1;
	bm->dev = dmaemu_device_to_dev(bm->dd);
	return 0;
}

static void machine_down(struct bench_machine *bm)
{
	dmaemu_device_destroy(bm->dd);
	dmaemu_machine_destroy(bm->m);
}

/* One judged case. */
static void run_case(const struct bench_machine *bm, uint8_t *buf, size_t size,
		     unsigned int iters, dirty_fn *dirty, const char *name,
		     double clock, double copy_ns, double target,
		     double floor_gbs)
{
	struct dma_time t;
	double cl, gbs = (double)size / copy_ns;
	char info[64];

	/* dma_ratio_live needs the empty 4 KiB figure. */
	if (!wanted(name) &&
	    !(!strcmp(name, "dma_ratio_4k_plain") && wanted("dma_ratio_live")))
		return;
	check_case(bm, buf, size, dirty, name);
	time_map_unmap(bm, buf, size, iters, dirty, clock, &t);
	cl = time_clean(bm, buf, size, iters, dirty, clock);
	bench_judge(name, t.map_unmap / copy_ns, BENCH_LE, target,
		    gbs >= floor_gbs,
		    "map+unmap %.1f ns; baseline memcpy %zu KiB %.1f ns = "
		    "%.1f GB/s (floor %.0f)",
		    t.map_unmap, size >> 10, copy_ns, gbs, floor_gbs);
	snprintf(info, sizeof(info), "%s_clean_ns", name);
	bench_info(info, cl, "dmaemu__range_clean() alone, same buffer");
	if (dirty != dirty_plain) {
		snprintf(info, sizeof(info), "%s_redirty_ns", name);
		bench_info(info, t.redirty,
			   "extra cost of the next dirtying after a "
			   "map+unmap (store path), not in the ratio");
	}
}

/*
 * dma_ratio_live: the 4 KiB plain map+unmap of @buf with 100,000 other
 * mappings (256-byte slices of 25 MiB) live on the device, against the
 * same measured just before on the empty device (in the same cache-model
 * state: the earlier cases leave lines of @buf resident).
 */
static int run_live(const struct bench_machine *bm, uint8_t *buf, double clock)
{
	struct page *live[8];
	struct dma_time t, e;
	dma_addr_t *handles;
	unsigned int i, n;

	time_map_unmap(bm, buf, 4096, 2000, dirty_plain, clock, &e);
	handles = malloc(LIVE * sizeof(*handles));
	if (!handles)
		return -1;
	for (i = 0, n = 0; i < 8 && n < LIVE; i++) {
		uint8_t *va;
		unsigned int j;

		live[i] = alloc_pages(GFP_KERNEL, 10);
		if (!live[i])
			return -1;
		va = page_address(live[i]);
		for (j = 0; j < (4u << 20) / LIVE_SLICE && n < LIVE; j++, n++) {
			handles[n] =
				dma_map_single(bm->dev, va + j * LIVE_SLICE,
					       LIVE_SLICE, DMA_TO_DEVICE);
			if (dma_mapping_error(bm->dev, handles[n]))
				return -1;
		}
	}
	time_map_unmap(bm, buf, 4096, 2000, dirty_plain, clock, &t);
	bench_judge("dma_ratio_live", t.map_unmap / e.map_unmap, BENCH_LT, 2.0,
		    e.map_unmap > 0,
		    "%u live mappings: map+unmap 4 KiB %.1f ns; baseline the "
		    "same on an empty device %.1f ns",
		    n, t.map_unmap, e.map_unmap);
	for (i = 0; i < n; i++)
		dma_unmap_single(bm->dev, handles[i], LIVE_SLICE,
				 DMA_TO_DEVICE);
	free(handles);
	for (i = 0; i < 8 && i * ((4u << 20) / LIVE_SLICE) < n; i++)
		__free_pages(live[i], 10);
	return 0;
}

int main(int argc, char **argv)
{
	struct bench_machine a, b, c;
	struct page *big, *small, *cbig, *csmall;
	uint8_t *src;
	double clock, mc4, mc1;

	if (argc > 1)
		only = argv[1];
	unsetenv("DMAEMU_OPTIONS");
	if (machine_up(&a, "profile=arm64:mem=256M:log_path=/dev/null") ||
	    machine_up(&b, "profile=arm64:mem=64M:cache_size=2M:"
			   "log_path=/dev/null") ||
	    machine_up(&c, "log_path=/dev/null")) {
		fprintf(stderr, "bench-dma: cannot create the machines\n");
		return 1;
	}
	dmaemu_machine_set_current(a.m);
	small = alloc_pages(GFP_KERNEL, 0);
	dmaemu_machine_set_current(b.m);
	big = alloc_pages(GFP_KERNEL, 8);
	dmaemu_machine_set_current(c.m);
	csmall = alloc_pages(GFP_KERNEL, 0);
	cbig = alloc_pages(GFP_KERNEL, 8);
	dmaemu_machine_set_current(a.m);
	src = malloc(1 << 20);
	if (!small || !big || !csmall || !cbig || !src) {
		fprintf(stderr, "bench-dma: out of emulated memory\n");
		return 1;
	}

	clock = time_clock();
	mc4 = time_memcpy(4096, 20000);
	mc1 = time_memcpy(1 << 20, 30);
	bench_info("dma_clock_ns", clock,
		   "an empty timed interval, "
		   "subtracted from each time");

	run_case(&a, page_address(small), 4096, 2000, dirty_plain,
		 "dma_ratio_4k_plain", clock, mc4, 6.0, FLOOR_4K_GBS);
	run_case(&a, page_address(small), 4096, 2000, bench_dirty_instr,
		 "dma_ratio_4k_instr", clock, mc4, 6.0, FLOOR_4K_GBS);
	run_case(&b, page_address(big), 1 << 20, 10, dirty_plain,
		 "dma_ratio_1m_plain", clock, mc1, 3.5, FLOOR_1M_GBS);
	run_case(&b, page_address(big), 1 << 20, 10, bench_dirty_instr,
		 "dma_ratio_1m_instr", clock, mc1, 3.5, FLOOR_1M_GBS);

	memset(src, 0x3c, 1 << 20);
	run_cycle(&c, page_address(csmall), src, 4096, 2000, "dma_cycle_4k",
		  clock, mc4, 6.0, FLOOR_4K_GBS);
	run_cycle(&c, page_address(cbig), src, 1 << 20, 10, "dma_cycle_1m",
		  clock, mc1, 3.5, FLOOR_1M_GBS);

	if (wanted("dma_ratio_live") &&
	    run_live(&a, page_address(small), clock))
		return 1;
	if (dmaemu_report_count(a.m, NULL) || dmaemu_report_count(b.m, NULL) ||
	    dmaemu_report_count(c.m, NULL)) {
		fprintf(stderr, "bench-dma: unexpected reports\n");
		return 1;
	}
	__free_pages(small, 0);
	dmaemu_machine_set_current(b.m);
	__free_pages(big, 8);
	dmaemu_machine_set_current(c.m);
	__free_pages(csmall, 0);
	__free_pages(cbig, 8);
	free(src);
	machine_down(&c);
	machine_down(&b);
	machine_down(&a);
	return bench_status();
}
