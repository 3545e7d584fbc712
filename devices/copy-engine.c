// SPDX-License-Identifier: MIT
/*
 * copy-engine.c - the copy engine: copy and fill commands from a
 * descriptor ring in memory, written from the public device-model API
 * only.  Its data sheet is docs/devices/copy-engine.md.
 *
 * How it works.
 *
 *   driver                         model (its own thread: ce_run)
 *   ------                         -----------------------------
 *   ring[tail] = desc              HEAD != TAIL and ENABLE:
 *   writel(tail + 1, TAIL) ----->    1. fetch ring[HEAD] (32 bytes, DMA)
 *        (doorbell)                  2. check opcode and length
 *                                    3. move the data 64 KiB at a time
 *                                       (dmaemu_dma_read/_write); between
 *                                       chunks: give up on reset/destroy,
 *                                       stop after one chunk when PAUSE
 *                                    4. write the status word back into
 *                                       the descriptor, HEAD++
 *                                    5. INT_STATUS.DONE after COALESCE
 *                                       descriptors, a descriptor with the
 *                                       IRQ flag, or when the ring drains
 *   handler: INT_STATUS <------------ line 0 (level) = INT_STATUS & ENABLE
 *
 * A fault moves nothing more for that descriptor: a bad source or
 * destination (the library reports dma-fault or iommu-fault and moves
 * nothing), a bad opcode or length mark the descriptor with ERROR and its
 * code, set INT_STATUS.ERROR, ERR_CODE and ERR_ADDR, and the engine goes
 * on with the next one.  A descriptor that cannot be fetched or written
 * back, or a bad ring, halts the engine (STATUS.HALTED) until reset.
 *
 * Locking: ce->lock (a pthread mutex) protects every register and the
 * descriptor in flight; it is dropped around DMA, and held while the
 * interrupt line is raised or lowered.  The register handlers run on the
 * driver's threads and never wait for the engine, except CTRL.RESET,
 * which calls dmaemu_device_reset() without the lock.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <dmaemu/device.h>
#include <dmaemu/devices/copy-engine.h>

struct ce {
	pthread_mutex_t lock;
	/* Registers. */
	uint32_t ctrl, status, int_status, int_enable, ring_size;
	uint32_t head, tail, coalesce, err_code, completed;
	uint64_t ring, err_addr;
	/* The descriptor in flight (status BUSY). */
	bool active;
	uint64_t cur_addr; /* its bus address */
	uint32_t cur_ctrl, cur_len, done;
	uint64_t cur_src, cur_dst;
	uint32_t since_irq; /* completions not yet signalled */
	uint8_t buf[DMAEMU_CE_CHUNK];
};

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static uint64_t get64(const uint8_t *p)
{
	return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32;
}

/* The interrupt line follows INT_STATUS & INT_ENABLE.  Lock held. */
static void update_irq(struct dmaemu_device *dev, struct ce *ce)
{
	if (ce->int_status & ce->int_enable)
		dmaemu_raise_irq(dev, 0);
	else
		dmaemu_lower_irq(dev, 0);
}

static void set_error(struct ce *ce, uint32_t code, uint64_t addr)
{
	ce->int_status |= DMAEMU_CE_INT_ERROR;
	ce->err_code = code;
	ce->err_addr = addr;
}

static void halt(struct ce *ce, uint32_t code, uint64_t addr)
{
	ce->status |= DMAEMU_CE_STATUS_HALTED;
	ce->status &= ~DMAEMU_CE_STATUS_BUSY;
	ce->active = false;
	set_error(ce, code, addr);
}

/*
 * The descriptor in flight is finished (@code 0: done, else failed at
 * @addr): write its status back, move HEAD, signal as COALESCE says.
 * Lock held; dropped around the write-back.
 */
static void finish(struct dmaemu_device *dev, struct ce *ce, uint32_t code,
		   uint64_t addr)
{
	uint32_t st = DMAEMU_CE_DESC_DONE;
	uint8_t le[4];
	int ret;

	if (code) {
		st |= DMAEMU_CE_DESC_ERROR | code << DMAEMU_CE_DESC_CODE_SHIFT;
		set_error(ce, code, addr);
	}
	le[0] = (uint8_t)st;
	le[1] = (uint8_t)(st >> 8);
	le[2] = (uint8_t)(st >> 16);
	le[3] = (uint8_t)(st >> 24);
	pthread_mutex_unlock(&ce->lock);
	ret = dmaemu_dma_write(dev, ce->cur_addr + DMAEMU_CE_DESC_STATUS, le,
			       sizeof(le));
	pthread_mutex_lock(&ce->lock);
	if (ret) {
		halt(ce, DMAEMU_CE_ERR_WRITEBACK,
		     ce->cur_addr + DMAEMU_CE_DESC_STATUS);
		return;
	}
	ce->active = false;
	ce->status &= ~DMAEMU_CE_STATUS_BUSY;
	ce->head = (ce->head + 1) & (ce->ring_size - 1);
	ce->completed++;
	ce->since_irq++;
	if ((ce->cur_ctrl & DMAEMU_CE_DESC_IRQ) ||
	    ce->since_irq >= (ce->coalesce ? ce->coalesce : 1)) {
		ce->int_status |= DMAEMU_CE_INT_DONE;
		ce->since_irq = 0;
	}
}

static bool ring_ok(const struct ce *ce)
{
	return ce->ring_size && ce->ring_size <= DMAEMU_CE_MAX_RING &&
	       !(ce->ring_size & (ce->ring_size - 1)) &&
	       !(ce->ring % DMAEMU_CE_DESC_SIZE);
}

/* Fetch ring[HEAD] and check it.  Lock held; dropped around the fetch.
 * Return: true when a descriptor is in flight. */
static bool fetch(struct dmaemu_device *dev, struct ce *ce)
{
	uint8_t d[DMAEMU_CE_DESC_SIZE];
	uint64_t addr;
	int ret;

	if (!ring_ok(ce)) {
		halt(ce, DMAEMU_CE_ERR_RING, ce->ring);
		return false;
	}
	addr = ce->ring + (uint64_t)ce->head * DMAEMU_CE_DESC_SIZE;
	pthread_mutex_unlock(&ce->lock);
	ret = dmaemu_dma_read(dev, addr, d, sizeof(d));
	pthread_mutex_lock(&ce->lock);
	if (ret) {
		halt(ce, DMAEMU_CE_ERR_FETCH, addr);
		return false;
	}
	ce->active = true;
	ce->status |= DMAEMU_CE_STATUS_BUSY;
	ce->cur_addr = addr;
	ce->cur_ctrl = get32(d + DMAEMU_CE_DESC_CTRL);
	ce->cur_len = get32(d + DMAEMU_CE_DESC_LEN);
	ce->cur_src = get64(d + DMAEMU_CE_DESC_SRC);
	ce->cur_dst = get64(d + DMAEMU_CE_DESC_DST);
	ce->done = 0;
	switch (ce->cur_ctrl & 0xff) {
	case DMAEMU_CE_OP_COPY:
	case DMAEMU_CE_OP_FILL:
		break;
	default:
		finish(dev, ce, DMAEMU_CE_ERR_OPCODE, addr);
		return false;
	}
	if (!ce->cur_len || ce->cur_len > DMAEMU_CE_MAX_LEN) {
		finish(dev, ce, DMAEMU_CE_ERR_LENGTH, addr);
		return false;
	}
	return true;
}

/* Move the next chunk of the descriptor in flight.  Lock held; dropped
 * around the DMA. */
static void step(struct dmaemu_device *dev, struct ce *ce)
{
	uint32_t n = ce->cur_len - ce->done, i;
	uint64_t src = ce->cur_src + ce->done, dst = ce->cur_dst + ce->done;
	uint32_t off = ce->done, op = ce->cur_ctrl & 0xff, code = 0;
	uint64_t pattern = ce->cur_src, bad = 0;

	if (n > DMAEMU_CE_CHUNK)
		n = DMAEMU_CE_CHUNK;
	pthread_mutex_unlock(&ce->lock);
	/* ce->buf is the run thread's own: no lock needed for it. */
	if (op == DMAEMU_CE_OP_COPY) {
		if (dmaemu_dma_read(dev, src, ce->buf, n)) {
			code = DMAEMU_CE_ERR_SRC;
			bad = src;
		}
	} else {
		for (i = 0; i < n; i++)
			ce->buf[i] =
				(uint8_t)(pattern >> (8 * ((off + i) % 4)));
	}
	if (!code && dmaemu_dma_write(dev, dst, ce->buf, n)) {
		code = DMAEMU_CE_ERR_DST;
		bad = dst;
	}
	pthread_mutex_lock(&ce->lock);
	if (code) {
		finish(dev, ce, code, bad);
		return;
	}
	ce->done += n;
	if (ce->done == ce->cur_len)
		finish(dev, ce, 0, 0);
}

static void ce_run(struct dmaemu_device *dev, unsigned int events)
{
	struct ce *ce = dmaemu_device_priv(dev);
	unsigned int steps = 0;

	(void)events;
	pthread_mutex_lock(&ce->lock);
	for (;;) {
		if (!(ce->ctrl & DMAEMU_CE_CTRL_ENABLE) ||
		    (ce->status & DMAEMU_CE_STATUS_HALTED))
			break;
		/* PAUSE: one step per doorbell (single-stepping). */
		if ((ce->ctrl & DMAEMU_CE_CTRL_PAUSE) && steps)
			break;
		if (dmaemu_device_stopping(dev))
			break;
		if (!ce->active) {
			if (ce->head == ce->tail)
				break;
			if (!fetch(dev, ce))
				continue;
		}
		step(dev, ce);
		steps++;
	}
	if ((ce->ctrl & DMAEMU_CE_CTRL_PAUSE) && ce->active)
		ce->status |= DMAEMU_CE_STATUS_PAUSED;
	else
		ce->status &= ~DMAEMU_CE_STATUS_PAUSED;
	/* The ring drained: signal what coalescing held back. */
	if (!ce->active && ce->head == ce->tail && ce->since_irq) {
		ce->int_status |= DMAEMU_CE_INT_DONE;
		ce->since_irq = 0;
	}
	update_irq(dev, ce);
	pthread_mutex_unlock(&ce->lock);
}

/* Reset values; lock held. */
static void reset_regs(struct ce *ce)
{
	ce->ctrl = ce->status = ce->int_status = ce->int_enable = 0;
	ce->ring_size = ce->head = ce->tail = ce->coalesce = 0;
	ce->err_code = ce->completed = 0;
	ce->ring = ce->err_addr = 0;
	ce->active = false;
	ce->since_irq = 0;
}

static void ce_reset(struct dmaemu_device *dev)
{
	struct ce *ce = dmaemu_device_priv(dev);

	pthread_mutex_lock(&ce->lock);
	reset_regs(ce);
	update_irq(dev, ce);
	pthread_mutex_unlock(&ce->lock);
}

static uint64_t ce_read(struct dmaemu_device *dev, uint64_t off,
			unsigned int size)
{
	struct ce *ce = dmaemu_device_priv(dev);
	uint32_t v = 0;

	if (size != 4)
		return 0;
	pthread_mutex_lock(&ce->lock);
	switch (off) {
	case DMAEMU_CE_REG_ID:
		v = DMAEMU_CE_ID_VALUE;
		break;
	case DMAEMU_CE_REG_CTRL:
		v = ce->ctrl;
		break;
	case DMAEMU_CE_REG_STATUS:
		v = ce->status;
		break;
	case DMAEMU_CE_REG_INT_STATUS:
		v = ce->int_status;
		break;
	case DMAEMU_CE_REG_INT_ENABLE:
		v = ce->int_enable;
		break;
	case DMAEMU_CE_REG_RING_LO:
		v = (uint32_t)ce->ring;
		break;
	case DMAEMU_CE_REG_RING_HI:
		v = (uint32_t)(ce->ring >> 32);
		break;
	case DMAEMU_CE_REG_RING_SIZE:
		v = ce->ring_size;
		break;
	case DMAEMU_CE_REG_HEAD:
		v = ce->head;
		break;
	case DMAEMU_CE_REG_TAIL:
		v = ce->tail;
		break;
	case DMAEMU_CE_REG_COALESCE:
		v = ce->coalesce;
		break;
	case DMAEMU_CE_REG_ERR_CODE:
		v = ce->err_code;
		break;
	case DMAEMU_CE_REG_ERR_ADDR_LO:
		v = (uint32_t)ce->err_addr;
		break;
	case DMAEMU_CE_REG_ERR_ADDR_HI:
		v = (uint32_t)(ce->err_addr >> 32);
		break;
	case DMAEMU_CE_REG_COMPLETED:
		v = ce->completed;
		break;
	}
	pthread_mutex_unlock(&ce->lock);
	return v;
}

static void ce_write(struct dmaemu_device *dev, uint64_t off, uint64_t val,
		     unsigned int size)
{
	struct ce *ce = dmaemu_device_priv(dev);
	uint32_t v = (uint32_t)val;
	bool ring = false;

	if (size != 4)
		return;
	if (off == DMAEMU_CE_REG_CTRL && (v & DMAEMU_CE_CTRL_RESET)) {
		dmaemu_device_reset(dev); /* waits for ce_run: no lock held */
		return;
	}
	pthread_mutex_lock(&ce->lock);
	switch (off) {
	case DMAEMU_CE_REG_CTRL:
		ce->ctrl = v & (DMAEMU_CE_CTRL_ENABLE | DMAEMU_CE_CTRL_PAUSE);
		ring = true;
		break;
	case DMAEMU_CE_REG_INT_STATUS:
		ce->int_status &= ~v;
		update_irq(dev, ce);
		break;
	case DMAEMU_CE_REG_INT_ENABLE:
		ce->int_enable = v & (DMAEMU_CE_INT_DONE | DMAEMU_CE_INT_ERROR);
		update_irq(dev, ce);
		break;
	case DMAEMU_CE_REG_RING_LO:
		ce->ring = (ce->ring & ~0xffffffffULL) | v;
		break;
	case DMAEMU_CE_REG_RING_HI:
		ce->ring = (ce->ring & 0xffffffffULL) | (uint64_t)v << 32;
		break;
	case DMAEMU_CE_REG_RING_SIZE:
		ce->ring_size = v;
		break;
	case DMAEMU_CE_REG_TAIL:
		ce->tail = ce->ring_size ? v & (ce->ring_size - 1) : 0;
		ring = true;
		break;
	case DMAEMU_CE_REG_COALESCE:
		ce->coalesce = v;
		break;
	}
	pthread_mutex_unlock(&ce->lock);
	if (ring)
		dmaemu_device_doorbell(dev);
}

static void ce_release(struct dmaemu_device *dev)
{
	struct ce *ce = dmaemu_device_priv(dev);

	pthread_mutex_destroy(&ce->lock);
	free(ce);
}

static const struct dmaemu_device_ops ce_ops = {
	.name = DMAEMU_CE_NAME,
	.mmio_size = DMAEMU_CE_MMIO_SIZE,
	.mmio_read = ce_read,
	.mmio_write = ce_write,
	.run = ce_run,
	.reset = ce_reset,
	.release = ce_release,
	.nr_irqs = 1,
};

struct dmaemu_device *dmaemu_copy_engine_create(struct dmaemu_machine *m,
						const char *name)
{
	struct dmaemu_device *dev;
	struct ce *ce = calloc(1, sizeof(*ce));
	int err;

	if (!ce) {
		errno = ENOMEM;
		return NULL;
	}
	err = pthread_mutex_init(&ce->lock, NULL);
	if (err) {
		free(ce);
		errno = err;
		return NULL;
	}
	reset_regs(ce);
	dev = dmaemu_device_create(m, name, &ce_ops, ce);
	if (!dev) {
		err = errno;
		pthread_mutex_destroy(&ce->lock);
		free(ce);
		errno = err;
	}
	return dev;
}
