// SPDX-License-Identifier: MIT
/*
 * legacy.c - the legacy block device: a DMA engine with 32-bit address
 * registers moving blocks between memory and its own store, written from
 * the public device-model API only.  Its data sheet is
 * docs/devices/legacy.md.
 *
 * How it works.
 *
 *   driver                         model (its own thread: legacy_run)
 *   ------                         ----------------------------------
 *   ADDR, LEN, OFFSET (, PATTERN)
 *   writel(op, CMD) ------------->   1. check opcode, LEN, OFFSET + LEN
 *        (doorbell: latched,         2. READ:  store -> memory (DMA write)
 *         STATUS.BUSY)                  WRITE: memory -> store (DMA read)
 *                                       FILL:  PATTERN -> memory
 *                                    3. COMPLETED++, BUSY off, DONE
 *   handler: INT_STATUS <----------- line 0 (level) = INT_STATUS & ENABLE
 *
 * ADDR has 32 bits, so the device reaches the first 4 GiB of bus
 * addresses only; dmaemu_legacy_create() sets its DMA masks to 32 bits,
 * and the DMA API bounces buffers above them (swiotlb).  Errors end the
 * command with INT_STATUS.ERROR, ERR_CODE and ERR_ADDR; a memory access
 * that fails moves nothing (the library reports dma-fault or iommu-fault).
 *
 * Locking: lg->lock (a pthread mutex) protects the registers and the
 * command in flight; the store belongs to the run thread while BUSY and
 * is only touched there.  The lock is dropped around DMA and held while
 * the interrupt line is raised or lowered.  CMD.RESET calls
 * dmaemu_device_reset() without it.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <dmaemu/device.h>
#include <dmaemu/devices/legacy.h>
#include <linux/dma-mapping.h>

struct legacy {
	pthread_mutex_t lock;
	/* Registers. */
	uint32_t status, int_status, int_enable, addr, len, offset;
	uint32_t pattern, err_code, err_addr, completed;
	/* The command latched by CMD (status BUSY). */
	uint32_t op, job_addr, job_len, job_offset, job_pattern;
	/* The run thread's own while BUSY; kept across reset, like a disk. */
	uint8_t store[DMAEMU_LEGACY_STORE_SIZE];
	uint8_t buf[DMAEMU_LEGACY_MAX_LEN];
};

/* The interrupt line follows INT_STATUS & INT_ENABLE.  Lock held. */
static void update_irq(struct dmaemu_device *dev, struct legacy *lg)
{
	if (lg->int_status & lg->int_enable)
		dmaemu_raise_irq(dev, 0);
	else
		dmaemu_lower_irq(dev, 0);
}

static void set_error(struct legacy *lg, uint32_t code, uint32_t addr)
{
	lg->int_status |= DMAEMU_LEGACY_INT_ERROR;
	lg->err_code = code;
	lg->err_addr = addr;
}

/* Check the latched command.  Return: 0, or the error code. */
static uint32_t check_cmd(const struct legacy *lg)
{
	switch (lg->op) {
	case DMAEMU_LEGACY_CMD_READ:
	case DMAEMU_LEGACY_CMD_WRITE:
	case DMAEMU_LEGACY_CMD_FILL:
		break;
	default:
		return DMAEMU_LEGACY_ERR_OPCODE;
	}
	if (!lg->job_len || lg->job_len > DMAEMU_LEGACY_MAX_LEN)
		return DMAEMU_LEGACY_ERR_LENGTH;
	if (lg->op != DMAEMU_LEGACY_CMD_FILL &&
	    (uint64_t)lg->job_offset + lg->job_len > DMAEMU_LEGACY_STORE_SIZE)
		return DMAEMU_LEGACY_ERR_RANGE;
	return 0;
}

/* Move the latched command's data.  Lock held; dropped around the DMA. */
static void run_cmd(struct dmaemu_device *dev, struct legacy *lg)
{
	uint32_t op = lg->op, len = lg->job_len, i;
	dma_addr_t addr = lg->job_addr;
	uint32_t code = check_cmd(lg), pattern = lg->job_pattern;
	uint8_t *at;
	int ret = 0;

	if (code) {
		set_error(lg, code, lg->job_addr);
		return;
	}
	/* Only READ and WRITE use OFFSET (checked above); FILL may carry any. */
	at = op == DMAEMU_LEGACY_CMD_FILL ? NULL : lg->store + lg->job_offset;
	pthread_mutex_unlock(&lg->lock);
	switch (op) {
	case DMAEMU_LEGACY_CMD_READ:
		ret = dmaemu_dma_write(dev, addr, at, len);
		break;
	case DMAEMU_LEGACY_CMD_WRITE:
		/* Into buf first: a failed read leaves the store as it was. */
		ret = dmaemu_dma_read(dev, addr, lg->buf, len);
		if (!ret)
			memcpy(at, lg->buf, len);
		break;
	case DMAEMU_LEGACY_CMD_FILL:
		for (i = 0; i < len; i++)
			lg->buf[i] = (uint8_t)(pattern >> (8 * (i % 4)));
		ret = dmaemu_dma_write(dev, addr, lg->buf, len);
		break;
	}
	pthread_mutex_lock(&lg->lock);
	if (ret) {
		set_error(lg, DMAEMU_LEGACY_ERR_DMA, lg->job_addr);
		return;
	}
	lg->completed++;
	lg->int_status |= DMAEMU_LEGACY_INT_DONE;
}

static void legacy_run(struct dmaemu_device *dev, unsigned int events)
{
	struct legacy *lg = dmaemu_device_priv(dev);

	(void)events;
	pthread_mutex_lock(&lg->lock);
	if (lg->status & DMAEMU_LEGACY_STATUS_BUSY) {
		run_cmd(dev, lg);
		lg->status &= ~DMAEMU_LEGACY_STATUS_BUSY;
	}
	update_irq(dev, lg);
	pthread_mutex_unlock(&lg->lock);
}

/* Reset values; lock held.  The store keeps its contents. */
static void reset_regs(struct legacy *lg)
{
	lg->status = lg->int_status = lg->int_enable = 0;
	lg->addr = lg->len = lg->offset = lg->pattern = 0;
	lg->err_code = lg->err_addr = lg->completed = 0;
	lg->op = lg->job_addr = lg->job_len = lg->job_offset = 0;
	lg->job_pattern = 0;
}

static void legacy_reset(struct dmaemu_device *dev)
{
	struct legacy *lg = dmaemu_device_priv(dev);

	pthread_mutex_lock(&lg->lock);
	reset_regs(lg);
	update_irq(dev, lg);
	pthread_mutex_unlock(&lg->lock);
}

static uint64_t legacy_read(struct dmaemu_device *dev, uint64_t off,
			    unsigned int size)
{
	struct legacy *lg = dmaemu_device_priv(dev);
	uint32_t v = 0;

	if (size != 4)
		return 0;
	pthread_mutex_lock(&lg->lock);
	switch (off) {
	case DMAEMU_LEGACY_REG_ID:
		v = DMAEMU_LEGACY_ID_VALUE;
		break;
	case DMAEMU_LEGACY_REG_STATUS:
		v = lg->status;
		break;
	case DMAEMU_LEGACY_REG_INT_STATUS:
		v = lg->int_status;
		break;
	case DMAEMU_LEGACY_REG_INT_ENABLE:
		v = lg->int_enable;
		break;
	case DMAEMU_LEGACY_REG_ADDR:
		v = lg->addr;
		break;
	case DMAEMU_LEGACY_REG_LEN:
		v = lg->len;
		break;
	case DMAEMU_LEGACY_REG_OFFSET:
		v = lg->offset;
		break;
	case DMAEMU_LEGACY_REG_PATTERN:
		v = lg->pattern;
		break;
	case DMAEMU_LEGACY_REG_ERR_CODE:
		v = lg->err_code;
		break;
	case DMAEMU_LEGACY_REG_ERR_ADDR:
		v = lg->err_addr;
		break;
	case DMAEMU_LEGACY_REG_COMPLETED:
		v = lg->completed;
		break;
	}
	pthread_mutex_unlock(&lg->lock);
	return v;
}

/* CMD: latch a command, or refuse it while one runs.  Lock held.
 * Return: true when the device's thread must be woken. */
static bool command(struct dmaemu_device *dev, struct legacy *lg, uint32_t v)
{
	if (lg->status & DMAEMU_LEGACY_STATUS_BUSY) {
		set_error(lg, DMAEMU_LEGACY_ERR_BUSY, lg->addr);
		update_irq(dev, lg);
		return false;
	}
	lg->op = v & DMAEMU_LEGACY_CMD_OP_MASK;
	lg->job_addr = lg->addr;
	lg->job_len = lg->len;
	lg->job_offset = lg->offset;
	lg->job_pattern = lg->pattern;
	lg->status |= DMAEMU_LEGACY_STATUS_BUSY;
	return true;
}

static void legacy_write(struct dmaemu_device *dev, uint64_t off, uint64_t val,
			 unsigned int size)
{
	struct legacy *lg = dmaemu_device_priv(dev);
	uint32_t v = (uint32_t)val;
	bool ring = false;

	if (size != 4)
		return;
	if (off == DMAEMU_LEGACY_REG_CMD && (v & DMAEMU_LEGACY_CMD_RESET)) {
		dmaemu_device_reset(dev); /* waits for legacy_run: no lock */
		return;
	}
	pthread_mutex_lock(&lg->lock);
	switch (off) {
	case DMAEMU_LEGACY_REG_CMD:
		ring = command(dev, lg, v);
		break;
	case DMAEMU_LEGACY_REG_INT_STATUS:
		lg->int_status &= ~v;
		update_irq(dev, lg);
		break;
	case DMAEMU_LEGACY_REG_INT_ENABLE:
		lg->int_enable =
			v & (DMAEMU_LEGACY_INT_DONE | DMAEMU_LEGACY_INT_ERROR);
		update_irq(dev, lg);
		break;
	case DMAEMU_LEGACY_REG_ADDR:
		lg->addr = v;
		break;
	case DMAEMU_LEGACY_REG_LEN:
		lg->len = v;
		break;
	case DMAEMU_LEGACY_REG_OFFSET:
		lg->offset = v;
		break;
	case DMAEMU_LEGACY_REG_PATTERN:
		lg->pattern = v;
		break;
	}
	pthread_mutex_unlock(&lg->lock);
	if (ring)
		dmaemu_device_doorbell(dev);
}

static void legacy_release(struct dmaemu_device *dev)
{
	struct legacy *lg = dmaemu_device_priv(dev);

	pthread_mutex_destroy(&lg->lock);
	free(lg);
}

static const struct dmaemu_device_ops legacy_ops = {
	.name = DMAEMU_LEGACY_NAME,
	.mmio_size = DMAEMU_LEGACY_MMIO_SIZE,
	.mmio_read = legacy_read,
	.mmio_write = legacy_write,
	.run = legacy_run,
	.reset = legacy_reset,
	.release = legacy_release,
	.nr_irqs = 1,
};

struct dmaemu_device *dmaemu_legacy_create(struct dmaemu_machine *m,
					   const char *name)
{
	struct dmaemu_device *dev;
	struct legacy *lg = calloc(1, sizeof(*lg));
	struct device *d;
	int err;

	if (!lg) {
		errno = ENOMEM;
		return NULL;
	}
	err = pthread_mutex_init(&lg->lock, NULL);
	if (err) {
		free(lg);
		errno = err;
		return NULL;
	}
	reset_regs(lg);
	dev = dmaemu_device_create(m, name, &legacy_ops, lg);
	if (!dev) {
		err = errno;
		pthread_mutex_destroy(&lg->lock);
		free(lg);
		errno = err;
		return NULL;
	}
	/*
	 * The address register has 32 bits (docs/devices/legacy.md): masks
	 * wider than that are narrowed, as firmware describing the bus would
	 * do; a driver bound during creation that narrowed them further (an
	 * ISA-style 24-bit part) keeps its own.
	 */
	d = dmaemu_device_to_dev(dev);
	err = 0;
	if (dma_get_mask(d) > DMA_BIT_MASK(32) ||
	    d->coherent_dma_mask > DMA_BIT_MASK(32))
		err = dma_set_mask_and_coherent(d, DMA_BIT_MASK(32));
	if (err) {
		dmaemu_device_destroy(dev);
		errno = -err;
		return NULL;
	}
	return dev;
}
