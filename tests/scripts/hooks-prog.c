// SPDX-License-Identifier: MIT
/*
 * hooks-prog.c - one driver-like program, built with dmaemu-cc under GCC
 * and under Clang by tests/hooks-gcc-clang.sh: both builds must see the
 * same stale read and leave the same cache statistics.
 *
 * The bug shown: a receive buffer the CPU has cached is mapped and unmapped
 * with DMA_ATTR_SKIP_CPU_SYNC, as if the buffer were already in the
 * device's domain; the device's data never replaces the CPU's copy, and
 * the driver reads the stale copy.  Accesses are volatile, so neither
 * compiler merges or vectorises them; the copies exercise the compilers'
 * different handling of memcpy, memset and struct copies.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <dmaemu/cpu.h>
#include <dmaemu/device.h>
#include <dmaemu/machine.h>
#include <dmaemu/report.h>
#include <linux/dma-mapping.h>
#include <linux/slab.h>

#define LEN 256

struct frame {
	uint8_t bytes[100];
};

/* Sizes the compilers cannot see. */
static volatile size_t len_var = LEN, half_var = LEN / 2;

int main(void)
{
	static const uint8_t pattern[16] = {1, 2,  3,  4,  5,  6,  7,  8,
					    9, 10, 11, 12, 13, 14, 15, 16};
	struct dmaemu_machine *m;
	struct dmaemu_device *dev;
	struct dmaemu_cpu_stats st;
	struct frame copy;
	uint8_t host[LEN];
	volatile uint32_t *words;
	uint8_t *buf;
	dma_addr_t h;
	uint32_t sum = 0, stale;
	unsigned int i;

	m = dmaemu_machine_create("mem=16M:cache_size=4096:cache_ways=4");
	if (!m)
		return 1;
	dev = dmaemu_device_create(m, "hooks0", NULL, NULL);
	buf = kmalloc(LEN, GFP_KERNEL);
	if (!dev || !buf)
		return 1;
	words = (volatile uint32_t *)buf;

	/* The driver prepares the buffer: stores, memset, reads back. */
	memset(buf, 0, len_var);
	for (i = 0; i < LEN / 4; i++)
		words[i] = i;
	for (i = 0; i < LEN / 4; i++)
		sum += words[i];
	memcpy(host, buf, half_var);
	copy = *(struct frame *)(buf + 8);
	sum += copy.bytes[99] + host[3];

	/* Written back and kept: the buffer's lines stay in the cache. */
	h = dma_map_single(dmaemu_device_to_dev(dev), buf, LEN, DMA_TO_DEVICE);
	if (dma_mapping_error(dmaemu_device_to_dev(dev), h))
		return 1;
	dma_unmap_single(dmaemu_device_to_dev(dev), h, LEN, DMA_TO_DEVICE);

	/* The bug: receive without any cache maintenance. */
	h = dma_map_single_attrs(dmaemu_device_to_dev(dev), buf, LEN,
				 DMA_FROM_DEVICE, DMA_ATTR_SKIP_CPU_SYNC);
	if (dma_mapping_error(dmaemu_device_to_dev(dev), h))
		return 1;
	if (dmaemu_dma_write(dev, h, pattern, sizeof(pattern)))
		return 1;
	dma_unmap_single_attrs(dmaemu_device_to_dev(dev), h, LEN,
			       DMA_FROM_DEVICE, DMA_ATTR_SKIP_CPU_SYNC);
	/* The driver reads the first word: stale. */
	stale = words[0];

	dmaemu_cpu_stats(m, 0, &st);
	printf("sum %u\n", sum);
	printf("stale word 0x%08x (the device wrote 0x04030201)\n", stale);
	printf("accesses %llu reads %llu writes %llu\n",
	       (unsigned long long)st.accesses, (unsigned long long)st.reads,
	       (unsigned long long)st.writes);
	printf("hits %llu misses %llu fills %llu stale_reads %llu\n",
	       (unsigned long long)st.hits, (unsigned long long)st.misses,
	       (unsigned long long)st.fills,
	       (unsigned long long)st.stale_reads);
	printf("reports stale-cpu-read %llu total %llu\n",
	       (unsigned long long)dmaemu_report_count(m, "stale-cpu-read"),
	       (unsigned long long)dmaemu_report_count(m, NULL));
	kfree(buf);
	dmaemu_device_destroy(dev);
	dmaemu_machine_destroy(m);
	return 0;
}
