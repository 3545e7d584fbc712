// SPDX-License-Identifier: MIT
/*
 * inverter.c - a device model: reads LEN bytes at SRC by DMA and writes
 * their complement at DST, then raises its (level) interrupt line until
 * the driver clears STATUS.  Built from the public headers only.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "inverter.h"

struct inverter {
	pthread_mutex_t lock; /* the registers */
	uint64_t src, dst;
	uint32_t len, status;
	uint8_t buf[INV_MAX_LEN]; /* the run thread's own */
};

/* The line follows STATUS.  Lock held. */
static void update_irq(struct dmaemu_device *dev, struct inverter *inv)
{
	if (inv->status)
		dmaemu_raise_irq(dev, 0);
	else
		dmaemu_lower_irq(dev, 0);
}

static uint64_t inv_read(struct dmaemu_device *dev, uint64_t off,
			 unsigned int size)
{
	struct inverter *inv = dmaemu_device_priv(dev);
	uint64_t v = 0;

	pthread_mutex_lock(&inv->lock);
	if (off == INV_STATUS && size == 4)
		v = inv->status;
	pthread_mutex_unlock(&inv->lock);
	return v;
}

static void inv_write(struct dmaemu_device *dev, uint64_t off, uint64_t val,
		      unsigned int size)
{
	struct inverter *inv = dmaemu_device_priv(dev);
	uint32_t v = (uint32_t)val;
	int start = 0;

	if (size != 4)
		return;
	pthread_mutex_lock(&inv->lock);
	switch (off) {
	case INV_SRC:
	case INV_SRC + 4:
	case INV_DST:
	case INV_DST + 4: {
		uint64_t *r = off < INV_DST ? &inv->src : &inv->dst;
		unsigned int shift = off % 8 ? 32 : 0;

		*r = (*r & ~(0xffffffffULL << shift)) | (uint64_t)v << shift;
		break;
	}
	case INV_LEN:
		inv->len = v;
		break;
	case INV_START:
		start = v & 1;
		break;
	case INV_STATUS:
		inv->status &= ~v;
		update_irq(dev, inv);
		break;
	}
	pthread_mutex_unlock(&inv->lock);
	if (start)
		dmaemu_device_doorbell(dev); /* wakes inv_run */
}

/* The device's own thread, after a doorbell. */
static void inv_run(struct dmaemu_device *dev, unsigned int events)
{
	struct inverter *inv = dmaemu_device_priv(dev);
	uint64_t src, dst;
	uint32_t len, i;
	int err;

	(void)events;
	pthread_mutex_lock(&inv->lock);
	src = inv->src;
	dst = inv->dst;
	len = inv->len;
	pthread_mutex_unlock(&inv->lock);

	/* DMA without the lock: a driver's readl() must get in meanwhile. */
	err = !len || len > INV_MAX_LEN ||
	      dmaemu_dma_read(dev, src, inv->buf, len);
	if (!err) {
		for (i = 0; i < len; i++)
			inv->buf[i] = (uint8_t)~inv->buf[i];
		err = dmaemu_dma_write(dev, dst, inv->buf, len);
	}

	pthread_mutex_lock(&inv->lock);
	inv->status |= err ? INV_ERROR : INV_DONE;
	update_irq(dev, inv);
	pthread_mutex_unlock(&inv->lock);
}

static void inv_release(struct dmaemu_device *dev)
{
	struct inverter *inv = dmaemu_device_priv(dev);

	pthread_mutex_destroy(&inv->lock);
	free(inv);
}

static const struct dmaemu_device_ops inv_ops = {
	.name = "inverter",
	.mmio_size = 0x20,
	.mmio_read = inv_read,
	.mmio_write = inv_write,
	.run = inv_run,
	.release = inv_release,
	.nr_irqs = 1,
};

struct dmaemu_device *inverter_create(struct dmaemu_machine *m,
				      const char *name)
{
	struct inverter *inv = calloc(1, sizeof(*inv));
	struct dmaemu_device *dev;

	if (!inv)
		return NULL;
	pthread_mutex_init(&inv->lock, NULL);
	dev = dmaemu_device_create(m, name, &inv_ops, inv);
	if (!dev) {
		pthread_mutex_destroy(&inv->lock);
		free(inv);
	}
	return dev;
}
