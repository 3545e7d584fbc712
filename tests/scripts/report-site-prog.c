// SPDX-License-Identifier: MIT
/*
 * report-site-prog.c - a receive path with four bugs, each leaving one
 * report, built with dmaemu-cc by tests/scripts/report-site.sh, which
 * checks that every report names the driver's line.  The lines a report
 * must name end with a marker comment, "site: NAME", which the test looks
 * for (the line numbers are never written in the test).
 *
 *   1. a stale read in main()                        (the load hook)
 *   2. a stale read in peek(), inlined into rx_poll() (inlined frames and
 *      the stack above the read)
 *   3. a memcpy() from the stale buffer               (the routed memcpy)
 *   4. a second dma_unmap_single() of the same handle (an API misuse)
 */
#include <stdio.h>
#include <string.h>

#include <dmaemu/device.h>
#include <dmaemu/machine.h>
#include <linux/dma-mapping.h>
#include <linux/slab.h>

static inline __attribute__((always_inline)) int peek(const volatile char *p)
{
	return p[1]; /* site: peek */
}

__attribute__((noinline)) static int rx_poll(const volatile char *p)
{
	return peek(p); /* site: rx_poll */
}

int main(void)
{
	struct dmaemu_machine *m = dmaemu_machine_create("profile=arm64");
	struct dmaemu_device *nic;
	struct device *dev;
	volatile size_t len = 4; /* a real call of memcpy, not a move */
	char copy[4];
	char *buf;
	dma_addr_t dma;
	int v;

	if (!m)
		return 1;
	nic = dmaemu_device_create(m, "nic0", NULL, NULL);
	dev = dmaemu_device_to_dev(nic);
	buf = kzalloc(2048, GFP_KERNEL);
	dma = dma_map_single(dev, buf, 2048, DMA_FROM_DEVICE);
	if (dma_mapping_error(dev, dma))
		return 1;
	printf("before: %d\n", buf[0]); /* the line is cached again */
	dmaemu_dma_write(nic, dma, "hello", 6);
	v = buf[0];		/* site: main */
	v += rx_poll(buf);	/* site: call */
	memcpy(copy, buf, len); /* site: memcpy */
	printf("stale: %d %d\n", v, copy[0]);
	dma_unmap_single(dev, dma, 2048, DMA_FROM_DEVICE);
	dma_unmap_single(dev, dma, 2048, DMA_FROM_DEVICE); /* site: unmap */
	kfree(buf);
	dmaemu_device_destroy(nic);
	dmaemu_machine_destroy(m);
	return 0;
}
