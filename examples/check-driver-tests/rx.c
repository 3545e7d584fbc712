// SPDX-License-Identifier: MIT
/*
 * rx.c - the receive path of a small network driver, written against the
 * kernel's DMA-mapping API: streaming mappings made once at open, each
 * frame synced for the CPU before it is read and for the device after.
 * Built with dmaemu-cc, so that every load and store goes through the
 * emulated cache.
 */
#include <linux/errno.h>
#include <linux/string.h>

#include <linux/dma-mapping.h>
#include <linux/slab.h>

#include "rx.h"

struct rx_buf {
	void *cpu;
	dma_addr_t dma;
};

struct rx_ring {
	struct device *dev;
	unsigned int n;
	size_t size;
	struct rx_buf buf[];
};

struct rx_ring *rx_open(struct device *dev, unsigned int n, size_t size)
{
	struct rx_ring *r;
	unsigned int i;

	r = kzalloc(sizeof(*r) + n * sizeof(r->buf[0]), GFP_KERNEL);
	if (!r)
		return NULL;
	r->dev = dev;
	r->size = size;
	for (i = 0; i < n; i++) {
		r->buf[i].cpu = kmalloc(size, GFP_KERNEL);
		if (!r->buf[i].cpu)
			goto out_unwind;
		r->buf[i].dma = dma_map_single(dev, r->buf[i].cpu, size,
					       DMA_FROM_DEVICE);
		if (dma_mapping_error(dev, r->buf[i].dma)) {
			kfree(r->buf[i].cpu);
			goto out_unwind;
		}
		r->n++;
	}
	return r;

out_unwind:
	rx_close(r);
	return NULL;
}

dma_addr_t rx_buffer_dma(const struct rx_ring *r, unsigned int i)
{
	return r->buf[i].dma;
}

void *rx_buffer(const struct rx_ring *r, unsigned int i)
{
	return r->buf[i].cpu;
}

long rx_receive(struct rx_ring *r, unsigned int i, void *out, size_t len)
{
	struct rx_buf *b;

	if (i >= r->n || len > r->size)
		return -EINVAL;
	b = &r->buf[i];
	dma_sync_single_for_cpu(r->dev, b->dma, len, DMA_FROM_DEVICE);
	memcpy(out, b->cpu, len);
	dma_sync_single_for_device(r->dev, b->dma, len, DMA_FROM_DEVICE);
	return (long)len;
}

long rx_receive_small(struct rx_ring *r, unsigned int i, void *out, size_t len)
{
	if (i >= r->n || len > r->size)
		return -EINVAL;
	if (len > 64)
		return rx_receive(r, i, out, len);
	/* The bug: "a small frame is in the cache already". */
	memcpy(out, r->buf[i].cpu, len);
	return (long)len;
}

void rx_close(struct rx_ring *r)
{
	unsigned int i;

	for (i = 0; i < r->n; i++) {
		dma_unmap_single(r->dev, r->buf[i].dma, r->size,
				 DMA_FROM_DEVICE);
		kfree(r->buf[i].cpu);
	}
	kfree(r);
}
