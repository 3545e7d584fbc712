// SPDX-License-Identifier: MIT
/*
 * non-consistent - why a driver that works on its DMA buffer wants
 * cacheable memory on a non-coherent platform, and what it owes for it.
 *
 * The same filter loop runs over a block of samples in a coherent buffer
 * (uncached on arm/arm64: every access goes to DRAM) and in a
 * DMA_ATTR_NON_CONSISTENT one (cacheable: the driver must call
 * dma_cache_sync() at each hand-over).  The device then checks the block
 * and writes a status word, which the driver reads... after a
 * dma_cache_sync(DMA_FROM_DEVICE) that the buggy variant forgets.
 */
#include <errno.h> /* the kernel's <linux/errno.h> is the system's */
#include <string.h>

#include <dmaemu/cpu.h>
#include <dmaemu/device.h>
#include <linux/dma-mapping.h>

#include "lab.h"

#define NSAMPLES 2048	     /* 4 KiB of 16-bit samples */
#define BLOCK (NSAMPLES * 2) /* the status follows, in a line of its own */
#define SIZE (BLOCK + 64)
#define PASSES 4

struct status {
	u32 magic; /* 0x600d: the device checked the block */
	u32 sum;   /* of the samples it read */
};

/* The driver's work: generate a signal, smooth it in place a few times.
 * Each sample is read three times and written twice per pass. */
static void process(u16 *s)
{
	int i, p;

	for (i = 0; i < NSAMPLES; i++)
		s[i] = (u16)((i * 37) & 0xfff);
	for (p = 0; p < PASSES; p++)
		for (i = 1; i < NSAMPLES - 1; i++)
			s[i] = (u16)((s[i - 1] + 2 * s[i] + s[i + 1]) / 4);
}

/* The device: read the block, write the status after it. */
static u32 device_check(struct dmaemu_device *d, dma_addr_t h)
{
	static u16 seen[NSAMPLES];
	struct status st = {0x600d, 0};
	int i;

	dmaemu_dma_read(d, h, seen, BLOCK);
	for (i = 0; i < NSAMPLES; i++)
		st.sum += seen[i];
	dmaemu_dma_write(d, h + BLOCK, &st, sizeof(st));
	return st.sum;
}

/*
 * Run process() on @s and say what it cost.  The model gives cycles to
 * cache lookups only; an uncached access is counted, and costs a trip to
 * DRAM (tens of times an L1 hit).
 */
static void measure(struct lab *lab, u16 *s, const char *what)
{
	struct dmaemu_cpu_stats a, b;

	dmaemu_cpu_stats(lab->m, 0, &a);
	process(s);
	dmaemu_cpu_stats(lab->m, 0, &b);
	lab_say("%s buffer:", what);
	lab_say("  uncached accesses, each one a trip to DRAM: %llu",
		(unsigned long long)(b.uncached - a.uncached));
	lab_say("  cached accesses: %llu (L1 hits %llu, misses %llu), "
		"L1 cycles %llu",
		(unsigned long long)(b.accesses - a.accesses),
		(unsigned long long)(b.hits - a.hits),
		(unsigned long long)(b.misses - a.misses),
		(unsigned long long)(b.cycles - a.cycles));
}

int main(int argc, char **argv)
{
	struct lab *lab = lab_start("non-consistent", argc, argv, NULL);
	struct dmaemu_device *adc;
	struct device *dev;
	dma_addr_t hc, hn;
	u16 *coh, *nc;
	struct status *st;
	u32 sum;
	bool ok;

	if (!lab)
		return 2;
	adc = dmaemu_device_create(lab->m, "dsp0", NULL, NULL);
	if (!adc)
		return lab_fail(lab, "dmaemu_device_create()", errno);
	dev = dmaemu_device_to_dev(adc);
	coh = dma_alloc_coherent(dev, SIZE, &hc, GFP_KERNEL);
	if (!coh)
		return lab_fail(lab, "dma_alloc_coherent()", -ENOMEM);
	nc = dma_alloc_attrs(dev, SIZE, &hn, GFP_KERNEL,
			     DMA_ATTR_NON_CONSISTENT);
	if (!nc)
		return lab_fail(lab, "dma_alloc_attrs(DMA_ATTR_NON_CONSISTENT)",
				-ENOMEM);

	lab_say("the same filter, %d passes over %d samples:", PASSES,
		NSAMPLES);
	measure(lab, coh, "coherent");
	measure(lab, nc, "non-consistent");

	/* Hand the non-consistent block to the device: write it back. */
	st = (struct status *)((u8 *)nc + BLOCK);
	st->magic = 0;
	dma_cache_sync(dev, nc, SIZE, DMA_TO_DEVICE);
	lab_show(lab, st, sizeof(*st), "status line, handed to the device");
	sum = device_check(adc, hn);
	lab_show(lab, st, sizeof(*st), "the device wrote the status");

#ifdef LAB_FIXED
	/* FIX: the CPU still caches the status line (the clean above kept
	 * it): drop it before reading what the device wrote. */
	dma_cache_sync(dev, st, sizeof(*st), DMA_FROM_DEVICE);
#endif
	ok = st->magic == 0x600d && st->sum == sum;
	lab_say("status: magic 0x%x, sum %u (the device computed %u)",
		st->magic, st->sum, sum);
	lab_show(lab, st, sizeof(*st), "status line after the read");

	dma_free_attrs(dev, SIZE, nc, hn, DMA_ATTR_NON_CONSISTENT);
	dma_free_coherent(dev, SIZE, coh, hc);
	dmaemu_device_destroy(adc);
	return lab_finish(lab, ok);
}
