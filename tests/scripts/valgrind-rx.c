// SPDX-License-Identifier: MIT
/*
 * valgrind-rx.c - a receive path that looks at the packet without
 * dma_sync_single_for_cpu(), run under Memcheck by
 * tests/scripts/valgrind-stale.sh.  Built as is it has the bug; built with
 * -DFIXED it syncs first.  The buggy read branches on the first byte of
 * the packet, on the line marked STALE-USE: built uninstrumented, Memcheck
 * reports that line; built instrumented, the cache model reports the stale
 * read instead and Memcheck stays quiet.
 *
 * Usage: valgrind-rx arm|arm64|x86
 */
#include <stdio.h>
#include <string.h>

#include <dmaemu/device.h>
#include <dmaemu/machine.h>
#include <linux/dma-mapping.h>
#include <linux/slab.h>

#define LEN 2048

int main(int argc, char **argv)
{
	struct dmaemu_machine *m;
	struct dmaemu_device *nic;
	struct device *dev;
	char opts[64];
	dma_addr_t dma;
	char *buf;
	int ret = 1;

	if (argc != 2) {
		fprintf(stderr, "usage: %s arm|arm64|x86\n", argv[0]);
		return 2;
	}
	snprintf(opts, sizeof(opts), "profile=%s", argv[1]);
	m = dmaemu_machine_create(opts);
	if (!m)
		return 2;
	nic = dmaemu_device_create(m, "nic0", NULL, NULL);
	dev = dmaemu_device_to_dev(nic);
	buf = kzalloc(LEN, GFP_KERNEL);
	if (!buf)
		goto out_device;
	dma = dma_map_single(dev, buf, LEN, DMA_FROM_DEVICE);
	if (dma_mapping_error(dev, dma))
		goto out_free;
	/* A peek while the device owns the buffer: the line is cached now. */
	printf("before: %d\n", buf[0]);
	dmaemu_dma_write(nic, dma, "hello", 6); /* the device receives */
#ifdef FIXED
	dma_sync_single_for_cpu(dev, dma, LEN, DMA_FROM_DEVICE);
#endif
	if (buf[0] == 'h') /* STALE-USE */
		printf("received: %s\n", buf);
	else
		printf("received nothing\n");
	dma_unmap_single(dev, dma, LEN, DMA_FROM_DEVICE);
	ret = 0;
out_free:
	kfree(buf);
out_device:
	dmaemu_device_destroy(nic);
	dmaemu_machine_destroy(m);
	return ret;
}
