// SPDX-License-Identifier: MIT
/*
 * camera.c - the streaming camera: a producer device writing frames of a
 * seeded pattern into buffers the driver allocated, typically with
 * DMA_ATTR_NO_KERNEL_MAPPING (the CPU never maps them; a "user" maps them
 * with dma_mmap_attrs()).  Written from the public device-model API only;
 * its data sheet is docs/devices/camera.md.
 *
 * How it works.
 *
 *   driver                            model (its own thread: cam_run)
 *   ------                            -------------------------------
 *   BUF_LO/HI(n), FRAME_SIZE,
 *   PERIOD_US, INT_ENABLE
 *   writel(n, QUEUE) ...              buffer n is the camera's
 *   writel(ENABLE, CTRL) -----------> doorbell: arm the timer (PERIOD_US)
 *                                     each expiry:
 *                                       1. the next queued buffer in ring
 *                                          order; none: DROPPED++, DROP
 *                                       2. write the pattern, 64 KiB per
 *                                          DMA call, then the header
 *                                       3. DONE |= 1 << n, FRAMES++, FRAME
 *                                       4. re-arm the timer
 *   handler: DONE, INT_STATUS <------ line 0 (level) = INT_STATUS & ENABLE
 *   writel(DONE bits, DONE): the buffers are the driver's again
 *
 * A buffer the camera cannot write (the library reports dma-fault or
 * iommu-fault) stops the stream: ERROR, ERR_ADDR, CTRL.ENABLE cleared.
 *
 * Locking: cam->lock (a pthread mutex) protects every register; it is
 * dropped around DMA and held while the interrupt line changes.
 * CTRL.RESET calls dmaemu_device_reset() without it.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include <dmaemu/device.h>
#include <dmaemu/devices/camera.h>

struct cam {
	pthread_mutex_t lock;
	/* Registers. */
	uint32_t ctrl, int_status, int_enable, frame_size, period_us, seed;
	uint32_t queued, done, frames, dropped;
	uint64_t err_addr;
	uint64_t buf[DMAEMU_CAM_MAX_BUFS];
	unsigned int next; /* ring position of the next buffer to fill */
	/* The run thread's own: no lock needed. */
	uint8_t chunk[DMAEMU_CAM_CHUNK];
};

/* The interrupt line follows INT_STATUS & INT_ENABLE.  Lock held. */
static void update_irq(struct dmaemu_device *dev, struct cam *c)
{
	if (c->int_status & c->int_enable)
		dmaemu_raise_irq(dev, 0);
	else
		dmaemu_lower_irq(dev, 0);
}

static void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

/*
 * Write frame @seq of @size bytes into buffer @n at @addr.  No lock held.
 * Return: 0; -EFAULT (*@bad: the address) when a write failed; -EINTR
 * when a reset or destroy stopped it.
 */
static int write_frame(struct dmaemu_device *dev, struct cam *c, uint64_t addr,
		       uint32_t size, uint32_t seed, uint32_t seq,
		       unsigned int n, uint64_t *bad)
{
	uint8_t hdr[DMAEMU_CAM_HEADER];
	uint32_t off = DMAEMU_CAM_HEADER;

	while (off < size) {
		uint32_t len = size - off, i;

		if (len > DMAEMU_CAM_CHUNK)
			len = DMAEMU_CAM_CHUNK;
		if (dmaemu_device_stopping(dev))
			return -EINTR;
		for (i = 0; i < len; i++)
			c->chunk[i] = dmaemu_camera_pattern(seed, seq, off + i);
		if (dmaemu_dma_write(dev, addr + off, c->chunk, len)) {
			*bad = addr + off;
			return -EFAULT;
		}
		off += len;
	}
	put_le32(hdr, DMAEMU_CAM_MAGIC);
	put_le32(hdr + 4, seq);
	put_le32(hdr + 8, size);
	put_le32(hdr + 12, n);
	if (dmaemu_dma_write(dev, addr, hdr, sizeof(hdr))) {
		*bad = addr;
		return -EFAULT;
	}
	return 0;
}

/* One period: a frame into the next queued buffer.  Lock held; dropped
 * around the DMA. */
static void period(struct dmaemu_device *dev, struct cam *c)
{
	uint32_t size = c->frame_size, seed = c->seed, seq = c->frames;
	unsigned int i, n = DMAEMU_CAM_MAX_BUFS;
	uint64_t addr, bad = 0;
	int ret;

	for (i = 0; i < DMAEMU_CAM_MAX_BUFS; i++) {
		unsigned int k = (c->next + i) % DMAEMU_CAM_MAX_BUFS;

		if (c->queued & (1u << k)) {
			n = k;
			break;
		}
	}
	if (n == DMAEMU_CAM_MAX_BUFS) {
		c->dropped++;
		c->int_status |= DMAEMU_CAM_INT_DROP;
		return;
	}
	addr = c->buf[n];
	pthread_mutex_unlock(&c->lock);
	ret = write_frame(dev, c, addr, size, seed, seq, n, &bad);
	pthread_mutex_lock(&c->lock);
	if (ret == -EINTR)
		return;
	c->queued &= ~(1u << n);
	c->next = (n + 1) % DMAEMU_CAM_MAX_BUFS;
	if (ret) {
		c->err_addr = bad;
		c->ctrl &= ~DMAEMU_CAM_CTRL_ENABLE;
		c->int_status |= DMAEMU_CAM_INT_ERROR;
		return;
	}
	c->done |= 1u << n;
	c->frames++;
	c->int_status |= DMAEMU_CAM_INT_FRAME;
}

static void cam_run(struct dmaemu_device *dev, unsigned int events)
{
	struct cam *c = dmaemu_device_priv(dev);
	bool arm;

	(void)events;
	pthread_mutex_lock(&c->lock);
	if ((events & DMAEMU_DEVICE_TIMER) &&
	    (c->ctrl & DMAEMU_CAM_CTRL_ENABLE))
		period(dev, c);
	arm = c->ctrl & DMAEMU_CAM_CTRL_ENABLE;
	update_irq(dev, c);
	/* Enabled (the doorbell) or a period over: the next one. */
	if (arm)
		dmaemu_device_timer_arm(dev, (uint64_t)c->period_us * 1000);
	pthread_mutex_unlock(&c->lock);
}

/* Reset values; lock held. */
static void reset_regs(struct cam *c)
{
	unsigned int i;

	c->ctrl = c->int_status = c->int_enable = 0;
	c->frame_size = 4096;
	c->period_us = 1000;
	c->seed = 0;
	c->queued = c->done = c->frames = c->dropped = 0;
	c->err_addr = 0;
	c->next = 0;
	for (i = 0; i < DMAEMU_CAM_MAX_BUFS; i++)
		c->buf[i] = 0;
}

static void cam_reset(struct dmaemu_device *dev)
{
	struct cam *c = dmaemu_device_priv(dev);

	pthread_mutex_lock(&c->lock);
	reset_regs(c);
	update_irq(dev, c);
	pthread_mutex_unlock(&c->lock);
}

static uint64_t cam_read(struct dmaemu_device *dev, uint64_t off,
			 unsigned int size)
{
	struct cam *c = dmaemu_device_priv(dev);
	uint32_t v = 0;

	if (size != 4)
		return 0;
	pthread_mutex_lock(&c->lock);
	if (off >= DMAEMU_CAM_REG_BUF_LO(0) && off < DMAEMU_CAM_MMIO_SIZE) {
		uint64_t b = c->buf[(off - DMAEMU_CAM_REG_BUF_LO(0)) / 8];

		v = (off & 4) ? (uint32_t)(b >> 32) : (uint32_t)b;
	}
	switch (off) {
	case DMAEMU_CAM_REG_ID:
		v = DMAEMU_CAM_ID_VALUE;
		break;
	case DMAEMU_CAM_REG_CTRL:
		v = c->ctrl;
		break;
	case DMAEMU_CAM_REG_STATUS:
		v = (c->ctrl & DMAEMU_CAM_CTRL_ENABLE)
			    ? DMAEMU_CAM_STATUS_RUNNING
			    : 0;
		break;
	case DMAEMU_CAM_REG_INT_STATUS:
		v = c->int_status;
		break;
	case DMAEMU_CAM_REG_INT_ENABLE:
		v = c->int_enable;
		break;
	case DMAEMU_CAM_REG_FRAME_SIZE:
		v = c->frame_size;
		break;
	case DMAEMU_CAM_REG_PERIOD_US:
		v = c->period_us;
		break;
	case DMAEMU_CAM_REG_SEED:
		v = c->seed;
		break;
	case DMAEMU_CAM_REG_DONE:
		v = c->done;
		break;
	case DMAEMU_CAM_REG_FRAMES:
		v = c->frames;
		break;
	case DMAEMU_CAM_REG_DROPPED:
		v = c->dropped;
		break;
	case DMAEMU_CAM_REG_ERR_ADDR_LO:
		v = (uint32_t)c->err_addr;
		break;
	case DMAEMU_CAM_REG_ERR_ADDR_HI:
		v = (uint32_t)(c->err_addr >> 32);
		break;
	}
	pthread_mutex_unlock(&c->lock);
	return v;
}

static void cam_write(struct dmaemu_device *dev, uint64_t off, uint64_t val,
		      unsigned int size)
{
	struct cam *c = dmaemu_device_priv(dev);
	uint32_t v = (uint32_t)val;
	bool ring = false;

	if (size != 4)
		return;
	if (off == DMAEMU_CAM_REG_CTRL && (v & DMAEMU_CAM_CTRL_RESET)) {
		dmaemu_device_reset(dev); /* waits for cam_run: no lock */
		return;
	}
	pthread_mutex_lock(&c->lock);
	if (off >= DMAEMU_CAM_REG_BUF_LO(0) && off < DMAEMU_CAM_MMIO_SIZE) {
		uint64_t *b = &c->buf[(off - DMAEMU_CAM_REG_BUF_LO(0)) / 8];

		if (off & 4)
			*b = (*b & 0xffffffffULL) | (uint64_t)v << 32;
		else
			*b = (*b & ~0xffffffffULL) | v;
	}
	switch (off) {
	case DMAEMU_CAM_REG_CTRL:
		ring = (v & DMAEMU_CAM_CTRL_ENABLE) &&
		       !(c->ctrl & DMAEMU_CAM_CTRL_ENABLE);
		c->ctrl = v & DMAEMU_CAM_CTRL_ENABLE;
		if (!c->ctrl)
			dmaemu_device_timer_cancel(dev);
		break;
	case DMAEMU_CAM_REG_INT_STATUS:
		c->int_status &= ~v;
		update_irq(dev, c);
		break;
	case DMAEMU_CAM_REG_INT_ENABLE:
		c->int_enable =
			v & (DMAEMU_CAM_INT_FRAME | DMAEMU_CAM_INT_ERROR |
			     DMAEMU_CAM_INT_DROP);
		update_irq(dev, c);
		break;
	case DMAEMU_CAM_REG_FRAME_SIZE:
		if (v >= DMAEMU_CAM_MIN_FRAME && v <= DMAEMU_CAM_MAX_FRAME &&
		    !(v & 3))
			c->frame_size = v;
		break;
	case DMAEMU_CAM_REG_PERIOD_US:
		c->period_us = v ? v : 1;
		break;
	case DMAEMU_CAM_REG_SEED:
		c->seed = v;
		break;
	case DMAEMU_CAM_REG_QUEUE:
		if (v < DMAEMU_CAM_MAX_BUFS) {
			c->queued |= 1u << v;
			c->done &= ~(1u << v);
		}
		break;
	case DMAEMU_CAM_REG_DONE:
		c->done &= ~v;
		break;
	}
	pthread_mutex_unlock(&c->lock);
	if (ring)
		dmaemu_device_doorbell(dev);
}

static void cam_release(struct dmaemu_device *dev)
{
	struct cam *c = dmaemu_device_priv(dev);

	pthread_mutex_destroy(&c->lock);
	free(c);
}

static const struct dmaemu_device_ops cam_ops = {
	.name = DMAEMU_CAM_NAME,
	.mmio_size = DMAEMU_CAM_MMIO_SIZE,
	.mmio_read = cam_read,
	.mmio_write = cam_write,
	.run = cam_run,
	.reset = cam_reset,
	.release = cam_release,
	.nr_irqs = 1,
};

struct dmaemu_device *dmaemu_camera_create(struct dmaemu_machine *m,
					   const char *name)
{
	struct dmaemu_device *dev;
	struct cam *c;
	int err;

	c = calloc(1, sizeof(*c));
	if (!c) {
		errno = ENOMEM;
		return NULL;
	}
	err = pthread_mutex_init(&c->lock, NULL);
	if (err) {
		free(c);
		errno = err;
		return NULL;
	}
	reset_regs(c);
	dev = dmaemu_device_create(m, name, &cam_ops, c);
	if (!dev) {
		err = errno;
		pthread_mutex_destroy(&c->lock);
		free(c);
		errno = err;
	}
	return dev;
}
