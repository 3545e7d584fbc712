// SPDX-License-Identifier: MIT
/*
 * checksum.c - the checksum engine: CRC-32 of a buffer read by DMA,
 * written from the public device-model API only.  Its data sheet is
 * docs/devices/checksum.md.
 *
 * How it works.
 *
 *   driver                         model (its own thread: csum_run)
 *   ------                         --------------------------------
 *   SRC, LEN (, DST) registers
 *   writel(START, CMD) ---------->   1. check LEN
 *        (doorbell: the job is       2. read the buffer 64 KiB at a time
 *         latched, STATUS.BUSY)         (dmaemu_dma_read) and fold it into
 *                                       the CRC; between chunks: give up
 *                                       on reset/destroy
 *                                    3. RESULT = CRC; with CMD.WRITE also
 *                                       write it (4 bytes, little-endian)
 *                                       at DST by DMA
 *                                    4. COMPLETED++, BUSY off, DONE
 *   handler: INT_STATUS <----------- line 0 (level) = INT_STATUS & ENABLE
 *
 * A bad length, a buffer that cannot be read or a result that cannot be
 * written end the job with INT_STATUS.ERROR, ERR_CODE and ERR_ADDR (the
 * library reports dma-fault or iommu-fault for the bad address); the
 * engine stays usable.  A START while a job runs is refused the same way
 * (ERR_BUSY) and does not disturb the job.
 *
 * Locking: cs->lock (a pthread mutex) protects every register and the job
 * in flight; it is dropped around DMA and held while the interrupt line
 * is raised or lowered.  CMD.RESET calls dmaemu_device_reset() without it.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include <dmaemu/device.h>
#include <dmaemu/devices/checksum.h>

struct csum {
	pthread_mutex_t lock;
	/* Registers. */
	uint32_t status, int_status, int_enable, len, result;
	uint32_t err_code, completed;
	uint64_t src, dst, err_addr;
	/* The job latched by START (status BUSY). */
	bool job_write;
	uint64_t job_src, job_dst;
	uint32_t job_len;
	/* The run thread's own: no lock needed. */
	uint8_t buf[DMAEMU_CSUM_CHUNK];
};

/* CRC-32 (IEEE 802.3, reflected), one table built on first use. */
static uint32_t crc_table[256];
static pthread_once_t crc_once = PTHREAD_ONCE_INIT;

static void crc_init(void)
{
	uint32_t i, j, c;

	for (i = 0; i < 256; i++) {
		c = i;
		for (j = 0; j < 8; j++)
			c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
		crc_table[i] = c;
	}
}

/* Fold @n bytes into @crc (the running value, before the final XOR). */
static uint32_t crc_update(uint32_t crc, const uint8_t *p, size_t n)
{
	while (n--)
		crc = crc_table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return crc;
}

/* The interrupt line follows INT_STATUS & INT_ENABLE.  Lock held. */
static void update_irq(struct dmaemu_device *dev, struct csum *cs)
{
	if (cs->int_status & cs->int_enable)
		dmaemu_raise_irq(dev, 0);
	else
		dmaemu_lower_irq(dev, 0);
}

static void set_error(struct csum *cs, uint32_t code, uint64_t addr)
{
	cs->int_status |= DMAEMU_CSUM_INT_ERROR;
	cs->err_code = code;
	cs->err_addr = addr;
}

/*
 * Run the latched job.  Lock held; dropped around each DMA.
 * Return: false when a reset or destroy stopped it (nothing is signalled).
 */
static bool run_job(struct dmaemu_device *dev, struct csum *cs)
{
	uint64_t src = cs->job_src, dst = cs->job_dst;
	uint32_t len = cs->job_len, done = 0, crc = 0xffffffffu;
	bool write = cs->job_write;
	uint8_t le[4];

	if (!len || len > DMAEMU_CSUM_MAX_LEN) {
		set_error(cs, DMAEMU_CSUM_ERR_LENGTH, src);
		return true;
	}
	pthread_mutex_unlock(&cs->lock);
	while (done < len) {
		uint32_t n = len - done;

		if (n > DMAEMU_CSUM_CHUNK)
			n = DMAEMU_CSUM_CHUNK;
		if (dmaemu_device_stopping(dev)) {
			pthread_mutex_lock(&cs->lock);
			return false;
		}
		if (dmaemu_dma_read(dev, src + done, cs->buf, n)) {
			pthread_mutex_lock(&cs->lock);
			set_error(cs, DMAEMU_CSUM_ERR_SRC, src + done);
			return true;
		}
		crc = crc_update(crc, cs->buf, n);
		done += n;
	}
	crc ^= 0xffffffffu;
	if (write) {
		le[0] = (uint8_t)crc;
		le[1] = (uint8_t)(crc >> 8);
		le[2] = (uint8_t)(crc >> 16);
		le[3] = (uint8_t)(crc >> 24);
		if (dmaemu_dma_write(dev, dst, le, sizeof(le))) {
			pthread_mutex_lock(&cs->lock);
			cs->result = crc;
			set_error(cs, DMAEMU_CSUM_ERR_DST, dst);
			return true;
		}
	}
	pthread_mutex_lock(&cs->lock);
	cs->result = crc;
	cs->completed++;
	cs->int_status |= DMAEMU_CSUM_INT_DONE;
	return true;
}

static void csum_run(struct dmaemu_device *dev, unsigned int events)
{
	struct csum *cs = dmaemu_device_priv(dev);

	(void)events;
	pthread_mutex_lock(&cs->lock);
	if ((cs->status & DMAEMU_CSUM_STATUS_BUSY) && run_job(dev, cs))
		cs->status &= ~DMAEMU_CSUM_STATUS_BUSY;
	update_irq(dev, cs);
	pthread_mutex_unlock(&cs->lock);
}

/* Reset values; lock held. */
static void reset_regs(struct csum *cs)
{
	cs->status = cs->int_status = cs->int_enable = cs->len = 0;
	cs->result = cs->err_code = cs->completed = 0;
	cs->src = cs->dst = cs->err_addr = 0;
	cs->job_write = false;
	cs->job_src = cs->job_dst = 0;
	cs->job_len = 0;
}

static void csum_reset(struct dmaemu_device *dev)
{
	struct csum *cs = dmaemu_device_priv(dev);

	pthread_mutex_lock(&cs->lock);
	reset_regs(cs);
	update_irq(dev, cs);
	pthread_mutex_unlock(&cs->lock);
}

static uint64_t csum_read(struct dmaemu_device *dev, uint64_t off,
			  unsigned int size)
{
	struct csum *cs = dmaemu_device_priv(dev);
	uint32_t v = 0;

	if (size != 4)
		return 0;
	pthread_mutex_lock(&cs->lock);
	switch (off) {
	case DMAEMU_CSUM_REG_ID:
		v = DMAEMU_CSUM_ID_VALUE;
		break;
	case DMAEMU_CSUM_REG_STATUS:
		v = cs->status;
		break;
	case DMAEMU_CSUM_REG_INT_STATUS:
		v = cs->int_status;
		break;
	case DMAEMU_CSUM_REG_INT_ENABLE:
		v = cs->int_enable;
		break;
	case DMAEMU_CSUM_REG_SRC_LO:
		v = (uint32_t)cs->src;
		break;
	case DMAEMU_CSUM_REG_SRC_HI:
		v = (uint32_t)(cs->src >> 32);
		break;
	case DMAEMU_CSUM_REG_LEN:
		v = cs->len;
		break;
	case DMAEMU_CSUM_REG_DST_LO:
		v = (uint32_t)cs->dst;
		break;
	case DMAEMU_CSUM_REG_DST_HI:
		v = (uint32_t)(cs->dst >> 32);
		break;
	case DMAEMU_CSUM_REG_RESULT:
		v = cs->result;
		break;
	case DMAEMU_CSUM_REG_ERR_CODE:
		v = cs->err_code;
		break;
	case DMAEMU_CSUM_REG_ERR_ADDR_LO:
		v = (uint32_t)cs->err_addr;
		break;
	case DMAEMU_CSUM_REG_ERR_ADDR_HI:
		v = (uint32_t)(cs->err_addr >> 32);
		break;
	case DMAEMU_CSUM_REG_COMPLETED:
		v = cs->completed;
		break;
	}
	pthread_mutex_unlock(&cs->lock);
	return v;
}

/* CMD: latch a job, or refuse it while one runs.  Lock held.
 * Return: true when the engine's thread must be woken. */
static bool command(struct dmaemu_device *dev, struct csum *cs, uint32_t v)
{
	if (!(v & DMAEMU_CSUM_CMD_START))
		return false;
	if (cs->status & DMAEMU_CSUM_STATUS_BUSY) {
		set_error(cs, DMAEMU_CSUM_ERR_BUSY, cs->src);
		update_irq(dev, cs);
		return false;
	}
	cs->job_src = cs->src;
	cs->job_dst = cs->dst;
	cs->job_len = cs->len;
	cs->job_write = v & DMAEMU_CSUM_CMD_WRITE;
	cs->status |= DMAEMU_CSUM_STATUS_BUSY;
	return true;
}

static void csum_write(struct dmaemu_device *dev, uint64_t off, uint64_t val,
		       unsigned int size)
{
	struct csum *cs = dmaemu_device_priv(dev);
	uint32_t v = (uint32_t)val;
	bool ring = false;

	if (size != 4)
		return;
	if (off == DMAEMU_CSUM_REG_CMD && (v & DMAEMU_CSUM_CMD_RESET)) {
		dmaemu_device_reset(dev); /* waits for csum_run: no lock */
		return;
	}
	pthread_mutex_lock(&cs->lock);
	switch (off) {
	case DMAEMU_CSUM_REG_CMD:
		ring = command(dev, cs, v);
		break;
	case DMAEMU_CSUM_REG_INT_STATUS:
		cs->int_status &= ~v;
		update_irq(dev, cs);
		break;
	case DMAEMU_CSUM_REG_INT_ENABLE:
		cs->int_enable =
			v & (DMAEMU_CSUM_INT_DONE | DMAEMU_CSUM_INT_ERROR);
		update_irq(dev, cs);
		break;
	case DMAEMU_CSUM_REG_SRC_LO:
		cs->src = (cs->src & ~0xffffffffULL) | v;
		break;
	case DMAEMU_CSUM_REG_SRC_HI:
		cs->src = (cs->src & 0xffffffffULL) | (uint64_t)v << 32;
		break;
	case DMAEMU_CSUM_REG_LEN:
		cs->len = v;
		break;
	case DMAEMU_CSUM_REG_DST_LO:
		cs->dst = (cs->dst & ~0xffffffffULL) | v;
		break;
	case DMAEMU_CSUM_REG_DST_HI:
		cs->dst = (cs->dst & 0xffffffffULL) | (uint64_t)v << 32;
		break;
	}
	pthread_mutex_unlock(&cs->lock);
	if (ring)
		dmaemu_device_doorbell(dev);
}

static void csum_release(struct dmaemu_device *dev)
{
	struct csum *cs = dmaemu_device_priv(dev);

	pthread_mutex_destroy(&cs->lock);
	free(cs);
}

static const struct dmaemu_device_ops csum_ops = {
	.name = DMAEMU_CSUM_NAME,
	.mmio_size = DMAEMU_CSUM_MMIO_SIZE,
	.mmio_read = csum_read,
	.mmio_write = csum_write,
	.run = csum_run,
	.reset = csum_reset,
	.release = csum_release,
	.nr_irqs = 1,
};

struct dmaemu_device *dmaemu_checksum_create(struct dmaemu_machine *m,
					     const char *name)
{
	struct dmaemu_device *dev;
	struct csum *cs;
	int err;

	err = pthread_once(&crc_once, crc_init);
	if (err) {
		errno = err;
		return NULL;
	}
	cs = calloc(1, sizeof(*cs));
	if (!cs) {
		errno = ENOMEM;
		return NULL;
	}
	err = pthread_mutex_init(&cs->lock, NULL);
	if (err) {
		free(cs);
		errno = err;
		return NULL;
	}
	reset_regs(cs);
	dev = dmaemu_device_create(m, name, &csum_ops, cs);
	if (!dev) {
		err = errno;
		pthread_mutex_destroy(&cs->lock);
		free(cs);
		errno = err;
	}
	return dev;
}
