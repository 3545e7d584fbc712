// SPDX-License-Identifier: MIT
/*
 * bench-dma.c - the cost of a streaming mapping, as ratios to memcpy() of
 * the same size measured in the same run.
 *
 * Each figure is dma_map_single() + dma_unmap_single() of a buffer that is
 * fully dirty before every map (DMA_TO_DEVICE, arm64, the registry and
 * ownership on, as always): the map's clean writes every line back.  The
 * buffer is dirtied again with a memset() of a new value through the CPU's
 * copy (the linear map, as uninstrumented code does) before each map; that
 * memset is timed on its own in the same way and subtracted.
 *
 * Output: one "key=value" line per figure, then the verdicts:
 *   map_unmap_4k_ns, memcpy_4k_ns, ratio_4k          target <= 6
 *   map_unmap_1m_ns, memcpy_1m_ns, ratio_1m          target <= 3.5
 *   map_unmap_4k_live_ns, live_mappings, ratio_live  target < 2 (the same
 *       map+unmap with 100,000 other mappings live on the device, against
 *       the empty case)
 * and a breakdown that is not judged: clean_4k_ns and clean_1m_ns, the
 * map's cache maintenance alone (dmaemu__range_clean() of the same dirty
 * buffer, timed the same way), and dma_layer_4k_ns, the rest of a 4 KiB
 * map+unmap (map_unmap_4k_ns - clean_4k_ns: checks, registry, ownership).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <linux/dma-mapping.h>
#include <linux/gfp.h>
#include <linux/mm.h>

#include "dma/dma.h"
#include "dmaemu/device.h"

#define REPS 7
#define LIVE 100000
#define LIVE_SLICE 256

static struct device *dev;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static double min_of(const double *t, unsigned int n)
{
	double b = t[0];
	unsigned int i;

	for (i = 1; i < n; i++)
		if (t[i] < b)
			b = t[i];
	return b;
}

/* ns per memcpy() of @size bytes between two warm host buffers. */
static double time_memcpy(size_t size, unsigned int iters)
{
	uint8_t *a = malloc(size), *b = malloc(size);
	double t[REPS], t0;
	unsigned int r, i;

	if (!a || !b)
		abort();
	memset(a, 1, size);
	memset(b, 2, size);
	for (r = 0; r < REPS; r++) {
		t0 = now();
		for (i = 0; i < iters; i++) {
			memcpy(b, a, size);
			/* Keep the copy from being optimised away. */
			__asm__ volatile("" : : "r"(b) : "memory");
			a[i % size]++;
		}
		t[r] = (now() - t0) / iters;
	}
	free(a);
	free(b);
	return min_of(t, REPS);
}

/*
 * ns per map+unmap of @size bytes at @buf, fully dirty before each map:
 * (memset + map + unmap) minus (memset alone), best of REPS each.
 */
static double time_map_unmap(uint8_t *buf, size_t size, unsigned int iters)
{
	double with[REPS], alone[REPS], t0;
	unsigned int r, i;
	uint8_t v = 0;

	for (r = 0; r < REPS; r++) {
		t0 = now();
		for (i = 0; i < iters; i++) {
			dma_addr_t dma;

			memset(buf, ++v ? v : ++v, size);
			dma = dma_map_single(dev, buf, size, DMA_TO_DEVICE);
			if (dma_mapping_error(dev, dma))
				abort();
			dma_unmap_single(dev, dma, size, DMA_TO_DEVICE);
		}
		with[r] = (now() - t0) / iters;

		t0 = now();
		for (i = 0; i < iters; i++) {
			memset(buf, ++v ? v : ++v, size);
			__asm__ volatile("" : : "r"(buf) : "memory");
		}
		alone[r] = (now() - t0) / iters;
		/* Leave the buffer clean for the next round's first map. */
		dmaemu__range_clean(dmaemu__dev_machine(dev), virt_to_phys(buf),
				    size);
	}
	return min_of(with, REPS) - min_of(alone, REPS);
}

/*
 * ns per dmaemu__range_clean() of @size bytes at @buf, fully dirty before
 * each: the maintenance that a map does, without the DMA layer around it.
 */
static double time_clean(uint8_t *buf, size_t size, unsigned int iters)
{
	struct dmaemu_machine *m = dmaemu__dev_machine(dev);
	uint64_t phys = virt_to_phys(buf);
	double with[REPS], alone[REPS], t0;
	unsigned int r, i;
	uint8_t v = 0;

	for (r = 0; r < REPS; r++) {
		t0 = now();
		for (i = 0; i < iters; i++) {
			memset(buf, ++v ? v : ++v, size);
			dmaemu__range_clean(m, phys, size);
		}
		with[r] = (now() - t0) / iters;

		t0 = now();
		for (i = 0; i < iters; i++) {
			memset(buf, ++v ? v : ++v, size);
			__asm__ volatile("" : : "r"(buf) : "memory");
		}
		alone[r] = (now() - t0) / iters;
		dmaemu__range_clean(m, phys, size);
	}
	return min_of(with, REPS) - min_of(alone, REPS);
}

static void verdict(const char *name, double v, double target, bool strict)
{
	bool ok = strict ? v < target : v <= target;

	printf("%s=%.2f target=%s%.1f %s\n", name, v,
	       strict ? "<" : "<=", target, ok ? "ok" : "MISSED");
}

int main(void)
{
	struct dmaemu_machine *m;
	struct dmaemu_device *dd;
	struct page *big, *small, *live[8];
	double mu4, mc4, mu1, mc1, mul, cl4, cl1;
	dma_addr_t *handles;
	unsigned int i, n;

	unsetenv("DMAEMU_OPTIONS");
	m = dmaemu_machine_create("profile=arm64:mem=256M:log_path=/dev/null");
	if (!m)
		return 1;
	dd = dmaemu_device_create(m, "bench0", NULL, NULL);
	dev = dmaemu_device_to_dev(dd);
	small = alloc_pages(GFP_KERNEL, 0);
	big = alloc_pages(GFP_KERNEL, 8);
	if (!small || !big)
		return 1;

	mc4 = time_memcpy(4096, 20000);
	mu4 = time_map_unmap(page_address(small), 4096, 20000);
	mc1 = time_memcpy(1 << 20, 100);
	mu1 = time_map_unmap(page_address(big), 1 << 20, 100);
	cl4 = time_clean(page_address(small), 4096, 20000);
	cl1 = time_clean(page_address(big), 1 << 20, 100);

	/* 100,000 live mappings of 256-byte slices of 25 MiB. */
	handles = malloc(LIVE * sizeof(*handles));
	if (!handles)
		return 1;
	for (i = 0, n = 0; i < 8 && n < LIVE; i++) {
		uint8_t *va;
		unsigned int j;

		live[i] = alloc_pages(GFP_KERNEL, 10);
		if (!live[i])
			return 1;
		va = page_address(live[i]);
		for (j = 0; j < (4u << 20) / LIVE_SLICE && n < LIVE; j++, n++) {
			handles[n] = dma_map_single(dev, va + j * LIVE_SLICE,
						    LIVE_SLICE, DMA_TO_DEVICE);
			if (dma_mapping_error(dev, handles[n]))
				return 1;
		}
	}
	mul = time_map_unmap(page_address(small), 4096, 20000);

	printf("memcpy_4k_ns=%.1f\nmap_unmap_4k_ns=%.1f\n", mc4, mu4);
	printf("memcpy_1m_ns=%.1f\nmap_unmap_1m_ns=%.1f\n", mc1, mu1);
	printf("live_mappings=%u\nmap_unmap_4k_live_ns=%.1f\n", n, mul);
	printf("clean_4k_ns=%.1f\nclean_1m_ns=%.1f\ndma_layer_4k_ns=%.1f\n",
	       cl4, cl1, mu4 - cl4);
	verdict("ratio_4k", mu4 / mc4, 6.0, false);
	verdict("ratio_1m", mu1 / mc1, 3.5, false);
	verdict("ratio_live", mul / mu4, 2.0, true);

	for (i = 0; i < n; i++)
		dma_unmap_single(dev, handles[i], LIVE_SLICE, DMA_TO_DEVICE);
	free(handles);
	for (i = 0; i < 8 && i * ((4u << 20) / LIVE_SLICE) < n; i++)
		__free_pages(live[i], 10);
	__free_pages(big, 8);
	__free_pages(small, 0);
	dmaemu_device_destroy(dd);
	dmaemu_machine_destroy(m);
	return 0;
}
