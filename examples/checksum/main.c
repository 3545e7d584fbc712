// SPDX-License-Identifier: MIT
/*
 * main.c - the checksum engine's reference driver at work: a machine with
 * a checksum engine and a copy engine, both drivers probing them, CRCs of
 * kernel buffers, then one packet buffer shared by the two devices at
 * once: mapped for the copy engine, which does the cache maintenance, and
 * for the checksum engine with DMA_ATTR_SKIP_CPU_SYNC (nothing is left to
 * do: Documentation/DMA-attributes.txt) and a dma_sync_single_for_device()
 * for swiotlb, checksummed while it is copied out.  Prints what it checked and how many reports the machine made;
 * exits 0 only when the data is right and there were none.
 *
 *   usage: checksum [arm|arm64|x86]      (default arm64)
 *
 * Build it as any program outside the dmaemu tree would:
 *   dmaemu-cc -I../copy-engine -o checksum main.c cs-driver.c \
 *       ../copy-engine/ce-driver.c -ldmaemu-devices
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <dmaemu/device.h>
#include <dmaemu/devices/checksum.h>
#include <dmaemu/devices/copy-engine.h>
#include <dmaemu/machine.h>
#include <dmaemu/report.h>
#include <linux/dma-mapping.h>
#include <linux/gfp.h>
#include <linux/slab.h>

#include "ce-driver.h"
#include "cs-driver.h"

#define LEN 200000 /* four 64 KiB chunks, the last one partial */
#define PKT 1514   /* an Ethernet frame */

static int failures;

static void check(int ok, const char *what)
{
	printf("%s: %s\n", ok ? "ok" : "FAILED", what);
	failures += !ok;
}

/* CRC-32 of IEEE 802.3, bit by bit: what the engine must get. */
static u32 crc32_ref(const u8 *p, size_t n)
{
	u32 crc = 0xffffffff;
	int k;

	while (n--) {
		crc ^= *p++;
		for (k = 0; k < 8; k++)
			crc = crc >> 1 ^ (0xedb88320 & -(crc & 1));
	}
	return ~crc;
}

/*
 * One packet, two devices at once.  The copy engine's mapping comes first
 * and writes the CPU's lines back; the checksum engine's mapping then
 * skips the cache work, and so does its unmap.  Behind swiotlb that second
 * mapping is a bounce buffer of its own, which the attribute leaves
 * unfilled (Linux 4.14's swiotlb_tbl_map_single() copies nothing then):
 * the sync for the device copies the packet into it.  Return: 1 when
 * both devices saw the packet.
 */
static int shared_packet(struct csdrv *cs, struct cedrv *ce,
			 struct device *ce_dev, u8 *pkt, u8 *out, int round)
{
	struct device *cs_dev = csdrv_dev(cs);
	dma_addr_t ce_src, ce_dst, cs_src;
	int i, ok = 0;
	u32 crc = 0;

	for (i = 0; i < PKT; i++)
		pkt[i] = (u8)(i * 31 + round);
	memset(out, 0, PKT);
	ce_src = dma_map_single(ce_dev, pkt, PKT, DMA_TO_DEVICE);
	if (dma_mapping_error(ce_dev, ce_src))
		return 0;
	cs_src = dma_map_single_attrs(cs_dev, pkt, PKT, DMA_TO_DEVICE,
				      DMA_ATTR_SKIP_CPU_SYNC);
	if (dma_mapping_error(cs_dev, cs_src))
		goto out_ce_src;
	dma_sync_single_for_device(cs_dev, cs_src, PKT, DMA_TO_DEVICE);
	ce_dst = dma_map_single(ce_dev, out, PKT, DMA_FROM_DEVICE);
	if (dma_mapping_error(ce_dev, ce_dst))
		goto out_cs_src;
	/* The checksum runs while the copy engine copies the packet. */
	if (!csdrv_start(cs, cs_src, PKT)) {
		ok = !cedrv_run(ce, CE_OP_COPY, ce_src, ce_dst, PKT);
		ok &= !csdrv_wait(cs, &crc);
	}
	dma_unmap_single(ce_dev, ce_dst, PKT, DMA_FROM_DEVICE);
out_cs_src:
	dma_unmap_single_attrs(cs_dev, cs_src, PKT, DMA_TO_DEVICE,
			       DMA_ATTR_SKIP_CPU_SYNC);
out_ce_src:
	dma_unmap_single(ce_dev, ce_src, PKT, DMA_TO_DEVICE);
	return ok && crc == crc32_ref(pkt, PKT) && !memcmp(out, pkt, PKT);
}

int main(int argc, char **argv)
{
	const char *profile = argc > 1 ? argv[1] : "arm64";
	struct dmaemu_device *csum, *copier;
	struct dmaemu_machine *m;
	struct csdrv *cs;
	struct cedrv *ce;
	uint64_t reports;
	char opts[64];
	u8 *buf, *pkt, *out;
	int i, ok, ret;
	u32 crc = 0;

	snprintf(opts, sizeof(opts), "profile=%s", profile);
	m = dmaemu_machine_create(opts);
	if (!m) {
		perror("checksum: dmaemu_machine_create()");
		return 2;
	}
	ret = platform_driver_register(&csdrv_driver);
	if (!ret)
		ret = platform_driver_register(&cedrv_driver);
	if (ret) {
		fprintf(stderr, "checksum: platform_driver_register(): %s\n",
			strerror(-ret));
		return 2;
	}
	csum = dmaemu_checksum_create(m, "csum0"); /* probed here */
	copier = dmaemu_copy_engine_create(m, "ce0");
	cs = csdrv_first();
	ce = cedrv_first();
	check(csum && copier && cs && ce, "the drivers probed both engines");
	if (!cs || !ce)
		return 1;

	buf = kmalloc(LEN, GFP_KERNEL);
	pkt = kmalloc(PKT, GFP_KERNEL);
	out = kmalloc(PKT, GFP_KERNEL);
	if (!buf || !pkt || !out) {
		fprintf(stderr, "checksum: kmalloc(): %s\n", strerror(ENOMEM));
		return 2;
	}
	memcpy(buf, "123456789", 9);
	check(!csdrv_crc32(cs, buf, 9, 0, &crc) && crc == 0xcbf43926,
	      "CRC-32 of \"123456789\" is 0xcbf43926");
	for (i = 0; i < LEN; i++)
		buf[i] = (u8)(i ^ (i >> 9));
	check(!csdrv_crc32(cs, buf, LEN, 0, &crc) && crc == crc32_ref(buf, LEN),
	      "CRC-32 of 200000 bytes");
	for (ok = 1, i = 0; i < 3; i++)
		ok &= shared_packet(cs, ce, dmaemu_device_to_dev(copier), pkt,
				    out, i);
	check(ok, "a packet shared by two devices (DMA_ATTR_SKIP_CPU_SYNC), "
		  "three times");

	kfree(out);
	kfree(pkt);
	kfree(buf);
	dmaemu_device_destroy(copier); /* remove() runs */
	dmaemu_device_destroy(csum);
	platform_driver_unregister(&cedrv_driver);
	platform_driver_unregister(&csdrv_driver);
	reports = dmaemu_report_count(m, NULL);
	printf("profile %s: %llu reports\n", profile,
	       (unsigned long long)reports);
	dmaemu_machine_destroy(m);
	return failures || reports ? 1 : 0;
}
