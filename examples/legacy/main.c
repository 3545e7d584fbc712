// SPDX-License-Identifier: MIT
/*
 * main.c - the legacy block device's reference driver at work, on a
 * machine whose kernel buffers lie in a bank above 4 GiB (highmem=), out
 * of the device's reach: blocks written to the device's store and read
 * back, a buffer kept mapped and handed back and forth with syncs, all of
 * it bounced through swiotlb.  With "24" the driver drives an ISA-style
 * part (24-bit DMA mask) on a PC-like machine whose DRAM below 16 MiB
 * holds the swiotlb pool; a GFP_DMA buffer then needs no bouncing.
 * Prints what it checked and how many reports the machine made; exits 0
 * only when the data is right and there were none.
 *
 *   usage: legacy [arm|arm64|x86] [32|24]     (default arm64 32)
 *
 * Build it as any program outside the dmaemu tree would:
 *   dmaemu-cc -o legacy main.c legacy-driver.c -ldmaemu-devices
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <dmaemu/device.h>
#include <dmaemu/devices/legacy.h>
#include <dmaemu/machine.h>
#include <dmaemu/report.h>
#include <dmaemu/seeing.h>
#include <linux/dma-mapping.h>
#include <linux/gfp.h>
#include <linux/slab.h>

#include "legacy-driver.h"

#define LEN 150000 /* three commands, the last one partial */
#define BUF 4096

static int failures;

static void check(int ok, const char *what)
{
	printf("%s: %s\n", ok ? "ok" : "FAILED", what);
	failures += !ok;
}

static u64 bounced(struct dmaemu_device *d)
{
	struct dmaemu_device_stats st;

	return dmaemu_device_stats(d, &st) ? 0 : st.bytes_bounced;
}

/*
 * A buffer mapped once and reused: the CPU writes it, the device stores
 * it (WRITE) and fills it (FILL), and the CPU reads the fill.  Each
 * handover is a sync, which with a bounce buffer is the copy.
 */
static int reuse_with_syncs(struct legdrv *lg, u8 *buf)
{
	struct device *dev = legdrv_dev(lg);
	dma_addr_t dma;
	int round, i, ok = 1;

	dma = dma_map_single(dev, buf, BUF, DMA_BIDIRECTIONAL);
	if (dma_mapping_error(dev, dma))
		return 0;
	/* The device owns a mapped buffer: take it before writing. */
	dma_sync_single_for_cpu(dev, dma, BUF, DMA_BIDIRECTIONAL);
	for (round = 0; round < 3; round++) {
		for (i = 0; i < BUF; i++)
			buf[i] = (u8)(i * 5 + round);
		dma_sync_single_for_device(dev, dma, BUF, DMA_BIDIRECTIONAL);
		ok &= !legdrv_cmd(lg, LEG_CMD_WRITE, dma, 0x80000, BUF, 0);
		ok &= !legdrv_cmd(lg, LEG_CMD_FILL, dma, 0, BUF / 2,
				  0x01020304u * (u32)(round + 1));
		dma_sync_single_for_cpu(dev, dma, BUF, DMA_BIDIRECTIONAL);
		for (i = 0; i < BUF / 2; i++)
			ok &= buf[i] == (u8)((4 - i % 4) * (round + 1));
		for (; i < BUF; i++)
			ok &= buf[i] == (u8)(i * 5 + round);
	}
	dma_unmap_single(dev, dma, BUF, DMA_BIDIRECTIONAL);
	/* The store has the last round's whole buffer. */
	memset(buf, 0, BUF);
	ok &= !legdrv_read(lg, buf, 0x80000, BUF);
	for (i = 0; i < BUF; i++)
		ok &= buf[i] == (u8)(i * 5 + 2);
	return ok;
}

int main(int argc, char **argv)
{
	const char *profile = argc > 1 ? argv[1] : "arm64";
	int isa = argc > 2 && !strcmp(argv[2], "24");
	struct dmaemu_machine *m;
	struct dmaemu_device *blk;
	struct legdrv *lg;
	u8 *src, *dst, *low;
	uint64_t reports, b;
	char opts[128];
	int i, ok, ret;

	/* A PC-like machine for the ISA-style part: DRAM from 1 MiB to
	 * 16 MiB (ZONE_DMA, the pool's place too), and the high bank. */
	snprintf(opts, sizeof(opts), "profile=%s:highmem=64M%s", profile,
		 isa ? ":mem_base=0x100000:mem=15M" : "");
	m = dmaemu_machine_create(opts);
	if (!m) {
		perror("legacy: dmaemu_machine_create()");
		return 2;
	}
	legdrv_dma_bits = isa ? 24 : 32;
	ret = platform_driver_register(&legdrv_driver);
	if (ret) {
		fprintf(stderr, "legacy: platform_driver_register(): %s\n",
			strerror(-ret));
		return 2;
	}
	blk = dmaemu_legacy_create(m, "blk0"); /* probed here */
	lg = legdrv_first();
	check(blk && lg, "the driver probed the device");
	if (!lg)
		return 1;
	check(dma_get_mask(legdrv_dev(lg)) == DMA_BIT_MASK(legdrv_dma_bits),
	      isa ? "24-bit DMA mask" : "32-bit DMA mask");

	src = kmalloc(LEN, GFP_KERNEL);
	dst = kmalloc(LEN, GFP_KERNEL);
	if (!src || !dst) {
		fprintf(stderr, "legacy: kmalloc(): %s\n", strerror(ENOMEM));
		return 2;
	}
	check(virt_to_phys(src) >> 32 && virt_to_phys(dst) >> 32,
	      "the buffers lie above 4 GiB");
	for (i = 0; i < LEN; i++) {
		src[i] = (u8)(i ^ (i >> 7));
		dst[i] = 0xee;
	}
	ok = !legdrv_write(lg, src, 1000, LEN);
	ok &= !legdrv_read(lg, dst, 1000, LEN);
	check(ok && !memcmp(dst, src, LEN),
	      "150000 bytes to the store and back");
	check(reuse_with_syncs(lg, src), "a mapped buffer reused with syncs");
	b = bounced(blk);
	check(b >= 2 * LEN, "bounced through swiotlb");

	if (isa) {
		/* Memory the part reaches directly: no bouncing. */
		low = kmalloc(BUF, GFP_KERNEL | GFP_DMA);
		ok = low && virt_to_phys(low) + BUF <= 1u << 24;
		for (i = 0; ok && i < BUF; i++)
			low[i] = (u8)i;
		ok = ok && !legdrv_write(lg, low, 0, BUF) &&
		     !legdrv_read(lg, dst, 0, BUF) && !memcmp(dst, low, BUF);
		/* Only dst, above 16 MiB, is bounced: copied back at the
		 * unmap, and at Linux 6.12 into its slot at the map too
		 * (swiotlb_tbl_map_single() copies whatever the direction). */
		check(ok && bounced(blk) ==
				      b + (DMAEMU_KERNEL == 612 ? 2 : 1) * BUF,
		      "a GFP_DMA buffer below 16 MiB, not bounced");
		kfree(low);
	}

	kfree(dst);
	kfree(src);
	dmaemu_device_destroy(blk); /* remove() runs */
	platform_driver_unregister(&legdrv_driver);
	reports = dmaemu_report_count(m, NULL);
	printf("profile %s, %d-bit: %llu reports\n", profile, legdrv_dma_bits,
	       (unsigned long long)reports);
	dmaemu_machine_destroy(m);
	return failures || reports ? 1 : 0;
}
