// SPDX-License-Identifier: MIT
/*
 * main.c - the copy engine's reference driver at work: a machine with one
 * engine, the driver probing it, three jobs, and teardown.  Prints what it
 * checked and how many reports the machine made; exits 0 only when the
 * data is right and there were none.
 *
 *   usage: copy-engine [arm|arm64|x86]      (default arm64)
 *
 * Build it as any program outside the dmaemu tree would:
 *   dmaemu-cc -o copy-engine main.c ce-driver.c -ldmaemu-devices
 */
#include <stdio.h>
#include <string.h>

#include <dmaemu/devices/copy-engine.h>
#include <dmaemu/device.h>
#include <dmaemu/machine.h>
#include <dmaemu/report.h>
#include <linux/dma-mapping.h>
#include <linux/gfp.h>
#include <linux/slab.h>

#include "ce-driver.h"

#define LEN 100000 /* two chunks and a bit: not a multiple of anything */
#define BUF 4096

static int failures;

static void check(int ok, const char *what)
{
	printf("%s: %s\n", ok ? "ok" : "FAILED", what);
	failures += !ok;
}

/* A buffer mapped once and reused, handed back and forth with syncs. */
static void reuse_with_syncs(struct cedrv *ce, struct device *dev)
{
	u8 *buf = kmalloc(BUF, GFP_KERNEL);
	dma_addr_t dma;
	int round, ok = 1, i;

	if (!buf) {
		check(0, "kmalloc");
		return;
	}
	dma = dma_map_single(dev, buf, BUF, DMA_BIDIRECTIONAL);
	if (dma_mapping_error(dev, dma)) {
		check(0, "dma_map_single");
		kfree(buf);
		return;
	}
	for (round = 0; round < 3; round++) {
		/* The CPU owns the buffer: write the first half. */
		dma_sync_single_for_cpu(dev, dma, BUF, DMA_BIDIRECTIONAL);
		for (i = 0; i < BUF / 2; i++)
			buf[i] = (u8)(i * 7 + round);
		/* Give it to the device, which copies it to the second
		 * half; then take it back before reading. */
		dma_sync_single_for_device(dev, dma, BUF, DMA_BIDIRECTIONAL);
		if (cedrv_run(ce, CE_OP_COPY, dma, dma + BUF / 2, BUF / 2))
			ok = 0;
		dma_sync_single_for_cpu(dev, dma, BUF, DMA_BIDIRECTIONAL);
		for (i = 0; i < BUF / 2; i++)
			if (buf[BUF / 2 + i] != (u8)(i * 7 + round))
				ok = 0;
		dma_sync_single_for_device(dev, dma, BUF, DMA_BIDIRECTIONAL);
	}
	dma_unmap_single(dev, dma, BUF, DMA_BIDIRECTIONAL);
	check(ok, "a mapped buffer reused three times with syncs");
	kfree(buf);
}

int main(int argc, char **argv)
{
	const char *profile = argc > 1 ? argv[1] : "arm64";
	struct dmaemu_machine *m;
	struct dmaemu_device *engine;
	struct cedrv *ce;
	char opts[64];
	u8 *src, *dst;
	u32 *words;
	uint64_t reports;
	int i, ok, ret;

	snprintf(opts, sizeof(opts), "profile=%s", profile);
	m = dmaemu_machine_create(opts);
	if (!m) {
		perror("copy-engine: dmaemu_machine_create()");
		return 2;
	}
	ret = platform_driver_register(&cedrv_driver);
	if (ret) {
		fprintf(stderr, "copy-engine: platform_driver_register(): %s\n",
			strerror(-ret));
		return 2;
	}
	engine = dmaemu_copy_engine_create(m, "ce0"); /* probed here */
	ce = cedrv_first();
	check(engine && ce, "the driver probed the engine");
	if (!ce)
		return 1;

	src = kmalloc(LEN, GFP_KERNEL);
	dst = kmalloc(LEN, GFP_KERNEL);
	words = kmalloc(LEN, GFP_KERNEL);
	if (!src || !dst || !words) {
		fprintf(stderr, "copy-engine: kmalloc(): out of memory\n");
		return 2;
	}
	for (i = 0; i < LEN; i++) {
		src[i] = (u8)(i ^ (i >> 8));
		dst[i] = 0xee;
	}
	check(!cedrv_memcpy(ce, dst, src, LEN) && !memcmp(dst, src, LEN),
	      "memcpy of 100000 bytes by the engine");

	ok = !cedrv_memset32(ce, words, 0xdeadbeef, LEN);
	for (i = 0; ok && i < LEN / 4; i++)
		ok = words[i] == 0xdeadbeef;
	check(ok, "memset32 of 100000 bytes by the engine");

	reuse_with_syncs(ce, dmaemu_device_to_dev(engine));
	check(cedrv_irqs(ce) >= 5, "one interrupt per descriptor");

	kfree(words);
	kfree(dst);
	kfree(src);
	dmaemu_device_destroy(engine); /* remove() runs */
	platform_driver_unregister(&cedrv_driver);
	reports = dmaemu_report_count(m, NULL);
	printf("profile %s: %llu reports\n", profile,
	       (unsigned long long)reports);
	dmaemu_machine_destroy(m);
	return failures || reports ? 1 : 0;
}
