// SPDX-License-Identifier: MIT
/*
 * shared-cacheline - a receive buffer that lives inside the driver's
 * struct, next to a counter the CPU updates while the device owns the
 * buffer.  Both sit in one cache line; the unmap's write-back of that line
 * puts the CPU's old copy of the buffer over the device's packet.
 */
#include <errno.h> /* the kernel's <linux/errno.h> is the system's */
#include <string.h>

#include <dmaemu/device.h>
#include <linux/dma-mapping.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include "lab.h"

#define RX_LEN 24 /* bytes of one (small) packet */

struct rxq {
	u32 posted; /* buffers handed to the device: the CPU bumps it */
#ifdef LAB_FIXED
	/* FIX: the buffer is an allocation of its own, of whole cache lines
	 * (a 64-byte kmalloc object is 64-byte aligned): nothing else can
	 * share its lines. */
	u8 *buf;
#else
	u8 buf[RX_LEN]; /* shares the line of @posted */
#endif
};

#ifdef LAB_FIXED
#define RX_ALLOC 64 /* RX_LEN rounded up to the CPU's cache line */
#endif

/* The struct's line(s), and the buffer's when it has its own. */
static void show(struct lab *lab, struct rxq *q, const char *title)
{
	lab_show(lab, q, sizeof(*q), title);
#ifdef LAB_FIXED
	lab_show(lab, q->buf, RX_LEN, "...and the buffer, in its own line");
#endif
}

/*
 * kmalloc() aligns to 8 bytes only: the buffer has no line of its own
 * unless the driver makes one.  At 4.14 the lab asks for it; Linux 6.12's
 * arm64 does it by itself (ARCH_KMALLOC_MINALIGN, since 6.5), and arm
 * keeps its kernel's alignment: the member shares its line all the same.
 */
#if DMAEMU_KERNEL == 612
#define LAB_OPTIONS NULL
#else
#define LAB_OPTIONS "dma_minalign=8"
#endif

int main(int argc, char **argv)
{
	struct lab *lab =
		lab_start("shared-cacheline", argc, argv, LAB_OPTIONS);
	static const u8 packet[RX_LEN] = "packet from the wire!!!";
	struct dmaemu_device *nic;
	struct device *dev;
	struct rxq *q;
	dma_addr_t h;
	bool ok;

	if (!lab)
		return 2;
	nic = dmaemu_device_create(lab->m, "nic0", NULL, NULL);
	if (!nic)
		return lab_fail(lab, "dmaemu_device_create()", errno);
	dev = dmaemu_device_to_dev(nic);
	q = kzalloc(sizeof(*q), GFP_KERNEL);
	if (!q)
		return lab_fail(lab, "kzalloc()", -ENOMEM);
#ifdef LAB_FIXED
	/* FIX: allocate the buffer on its own, in whole lines. */
	q->buf = kzalloc(RX_ALLOC, GFP_KERNEL);
	if (!q->buf)
		return lab_fail(lab, "kzalloc()", -ENOMEM);
#endif
	lab_say("counter 'posted' at %p, receive buffer at %p",
		(void *)&q->posted, (void *)q->buf);

	/* 1. Post the buffer: the device owns it from now on. */
	h = dma_map_single(dev, q->buf, RX_LEN, DMA_FROM_DEVICE);
	if (dma_mapping_error(dev, h))
		return lab_fail(lab, "dma_map_single()", -ENOMEM);
	/* Where the device writes: the buffer itself, or (Linux 6.12 on
	 * arm64) a swiotlb slot the unmap copies back from. */
	lab_say("the device writes at dma 0x%llx, the buffer is at 0x%llx%s",
		(unsigned long long)h, (unsigned long long)virt_to_phys(q->buf),
		h == virt_to_phys(q->buf) ? "" : ": a bounce buffer");
	/* 2. Count it (the first post).  The counter is not in the buffer,
	 *    but it is in the buffer's cache line: the CPU now holds that
	 *    line dirty while the device owns the buffer. */
	q->posted = 1;
	lab_say("mapped the buffer DMA_FROM_DEVICE, then posted = %u",
		q->posted);
	show(lab, q, "after posted = 1 (the CPU holds its line, dirty)");

	/* 3. A packet arrives: the device writes DRAM. */
	dmaemu_dma_write(nic, h, packet, RX_LEN);
	show(lab, q, "the device wrote the packet into DRAM");

	/* 4. Take the buffer back.  The unmap cleans and invalidates the
	 *    line it shares: the write-back carries the CPU's old bytes of
	 *    the buffer along with the counter. */
	dma_unmap_single(dev, h, RX_LEN, DMA_FROM_DEVICE);
	show(lab, q, "after dma_unmap_single()");

	ok = !memcmp(q->buf, packet, RX_LEN) && q->posted == 1;
	lab_say("buffer: \"%.*s\"%s, posted = %u", RX_LEN - 1,
		(const char *)q->buf, ok ? "" : " (not the packet)", q->posted);
#ifdef LAB_FIXED
	kfree(q->buf);
#endif
	kfree(q);
	dmaemu_device_destroy(nic);
	return lab_finish(lab, ok);
}
