// SPDX-License-Identifier: MIT
/*
 * nic.c - the network card: TX and RX descriptor rings in memory, a
 * loopback wire and a seeded traffic generator, written from the public
 * device-model API only.  Its data sheet is docs/devices/nic.md.
 *
 * How it works.
 *
 *   driver                          model (its own thread: nic_run)
 *   ------                          ------------------------------
 *   tx[tail] = {buf, len, OWN}      TX_HEAD != TX_TAIL and TX_EN:
 *   writel(tail + 1, TX_TAIL) ----->  1. fetch tx[HEAD] (16 bytes, DMA)
 *        (doorbell)                   2. read the frame from its buffer
 *                                     3. write the status back (OWN clear)
 *                                     4. LOOPBACK: the frame arrives on RX
 *   rx[i] = {buf, size, OWN}        a frame arrives (loopback, generator):
 *   writel(i + 1, RX_TAIL)            RX_HEAD != RX_TAIL and RX_EN: fetch
 *                                     rx[HEAD], write the frame into its
 *                                     buffer (and into rx[HEAD + 1] in
 *                                     RX_DUP mode), write the status back;
 *                                     no descriptor: RX_DROPS++, RX_NOBUF
 *   generator (the model's timer) --> a frame every GEN_INTERVAL ns
 *   handler: INT_STATUS <------------ line 0 (level) = INT_STATUS & ENABLE
 *
 * TX_DONE and RX_DONE are raised after COALESCE frames, or when the card
 * runs out of work (the end of each run) with completions not yet
 * signalled.  A bad descriptor or buffer completes that descriptor with
 * ERR and its code and raises TX_ERR or RX_ERR; a descriptor that cannot
 * be fetched or written back, or a bad ring, halts that ring until reset.
 * The library reports the bad address (dma-fault, iommu-fault) and moves
 * nothing: the process never crashes, whatever the descriptors say.
 *
 * Locking: nic->lock (a pthread mutex) protects every register; the run
 * thread holds it while it moves a frame, except across each DMA call
 * (nic_dma_read/_write()): under sched=lockstep a DMA call is a
 * scheduling point, and a driver's register access waiting for the lock
 * there would never give the card its turn back.  A ring reprogrammed
 * meanwhile (against the data sheet: only while disabled) is used as it
 * is from the next descriptor on; a bad one halts with ERR_RING.
 * nic->frame and the descriptor copies are the run thread's own.  The
 * register handlers never wait for the card, except CTRL.RESET, which
 * calls dmaemu_device_reset() without the lock.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include <dmaemu/device.h>
#include <dmaemu/devices/nic.h>

enum { TX_FRAMES, TX_BYTES, RX_FRAMES, RX_BYTES, RX_DROPS, ERRORS, NR_STATS };

#define DESC_USED 16 /* bytes of a descriptor the card reads */

struct ring {
	uint64_t base;
	uint32_t size, head, tail;
	uint32_t pending; /* completions not yet signalled */
	/* What this ring sets in STATUS and INT_STATUS. */
	uint32_t halted_bit, done_bit, err_bit;
};

struct nic {
	pthread_mutex_t lock;
	/* Registers. */
	uint32_t ctrl, status, int_status, int_enable, coalesce, err_code;
	uint64_t err_addr;
	struct ring tx, rx;
	uint32_t stat[NR_STATS];
	uint32_t gen_ctrl, gen_seed, gen_count, gen_interval;
	uint32_t gen_index; /* next frame of the generator */
	bool irq_level;	    /* what line 0 was last set to */
	uint8_t frame[DMAEMU_NIC_MAX_FRAME];
};

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

size_t dmaemu_nic_gen_frame(uint32_t seed, uint32_t index, uint8_t *buf)
{
	uint64_t s = (uint64_t)seed << 32 | index, w = 0;
	size_t len, i;

	len = DMAEMU_NIC_GEN_MIN +
	      splitmix64(&s) % (DMAEMU_NIC_GEN_MAX - DMAEMU_NIC_GEN_MIN + 1);
	for (i = 0; i < len; i++) {
		if (!(i % 8))
			w = splitmix64(&s);
		buf[i] = (uint8_t)(w >> (8 * (i % 8)));
	}
	return len;
}

/* Line 0 follows INT_STATUS & INT_ENABLE.  Lock held. */
static void update_irq(struct dmaemu_device *dev, struct nic *nic)
{
	bool level = nic->int_status & nic->int_enable;

	if (level == nic->irq_level)
		return;
	nic->irq_level = level;
	if (level)
		dmaemu_raise_irq(dev, 0);
	else
		dmaemu_lower_irq(dev, 0);
}

static void set_error(struct nic *nic, struct ring *r, uint32_t code,
		      uint64_t addr)
{
	nic->int_status |= r->err_bit;
	nic->err_code = code;
	nic->err_addr = addr;
	nic->stat[ERRORS]++;
}

static void halt(struct nic *nic, struct ring *r, uint32_t code, uint64_t addr)
{
	nic->status |= r->halted_bit;
	set_error(nic, r, code, addr);
}

/* A frame completed on @r: signal it as COALESCE (@shift: its field)
 * says. */
static void count_done(struct nic *nic, struct ring *r, unsigned int shift)
{
	uint32_t n = (nic->coalesce >> shift) & 0xffff;

	if (++r->pending >= (n ? n : 1)) {
		nic->int_status |= r->done_bit;
		r->pending = 0;
	}
}

static bool ring_ok(const struct ring *r)
{
	return r->size >= 2 && r->size <= DMAEMU_NIC_MAX_RING &&
	       !(r->size & (r->size - 1)) && !(r->base % DMAEMU_NIC_DESC_SIZE);
}

/* The card's DMA.  Lock held; dropped across the transfer. */
static int nic_dma_read(struct dmaemu_device *dev, struct nic *nic,
			uint64_t addr, void *buf, size_t len)
{
	int ret;

	pthread_mutex_unlock(&nic->lock);
	ret = dmaemu_dma_read(dev, addr, buf, len);
	pthread_mutex_lock(&nic->lock);
	return ret;
}

static int nic_dma_write(struct dmaemu_device *dev, struct nic *nic,
			 uint64_t addr, const void *buf, size_t len)
{
	int ret;

	pthread_mutex_unlock(&nic->lock);
	ret = dmaemu_dma_write(dev, addr, buf, len);
	pthread_mutex_lock(&nic->lock);
	return ret;
}

/*
 * Take descriptor HEAD of @r: fetch it into @d and check its OWN bit and
 * length (@max: the largest length allowed).  Return: its bus address, 0
 * when the ring halted (bad ring, fetch failure); *@code is
 * DMAEMU_NIC_ERR_DESC for a bad descriptor, else 0.
 */
static uint64_t take(struct dmaemu_device *dev, struct nic *nic, struct ring *r,
		     uint8_t *d, uint32_t max, uint32_t *code)
{
	uint64_t da = r->base + (uint64_t)r->head * DMAEMU_NIC_DESC_SIZE;
	uint32_t len;

	if (!ring_ok(r)) {
		halt(nic, r, DMAEMU_NIC_ERR_RING, r->base);
		return 0;
	}
	if (nic_dma_read(dev, nic, da, d, DESC_USED)) {
		halt(nic, r, DMAEMU_NIC_ERR_FETCH, da);
		return 0;
	}
	len = get32(d + DMAEMU_NIC_DESC_LEN);
	*code = 0;
	if (!(get32(d + DMAEMU_NIC_DESC_STATUS) & DMAEMU_NIC_DESC_OWN) ||
	    !len || len > max)
		*code = DMAEMU_NIC_ERR_DESC;
	return da;
}

/* Write the status of descriptor @da back and give it to the driver
 * (HEAD++).  Return: false when the ring halted. */
static bool give_back(struct dmaemu_device *dev, struct nic *nic,
		      struct ring *r, uint64_t da, uint32_t st)
{
	uint8_t le[4];

	put32(le, st);
	if (nic_dma_write(dev, nic, da + DMAEMU_NIC_DESC_STATUS, le, 4)) {
		halt(nic, r, DMAEMU_NIC_ERR_WRITEBACK,
		     da + DMAEMU_NIC_DESC_STATUS);
		return false;
	}
	r->head = (r->head + 1) & (r->size - 1);
	return true;
}

static uint32_t bad_status(uint32_t code)
{
	return DMAEMU_NIC_DESC_ERR | code << DMAEMU_NIC_DESC_CODE_SHIFT;
}

/* A frame arrives on the wire: into the next RX descriptor (two in RX_DUP
 * mode), or dropped.  Lock held. */
static void rx_frame(struct dmaemu_device *dev, struct nic *nic,
		     const uint8_t *f, uint32_t len)
{
	struct ring *r = &nic->rx;
	unsigned int copies = nic->ctrl & DMAEMU_NIC_CTRL_RX_DUP ? 2 : 1, c;
	uint8_t d[DESC_USED];
	bool delivered = false;

	if (!(nic->ctrl & DMAEMU_NIC_CTRL_RX_EN) ||
	    (nic->status & r->halted_bit)) {
		nic->stat[RX_DROPS]++;
		return;
	}
	if (r->size && ((r->tail - r->head) & (r->size - 1)) < copies) {
		nic->stat[RX_DROPS]++;
		nic->int_status |= DMAEMU_NIC_INT_RX_NOBUF;
		return;
	}
	for (c = 0; c < copies; c++) {
		uint32_t code, st = len | (c ? DMAEMU_NIC_DESC_DUP : 0);
		uint64_t da = take(dev, nic, r, d, UINT32_MAX, &code), buf;

		if (!da)
			return;
		buf = (uint64_t)get32(d + DMAEMU_NIC_DESC_ADDR) |
		      (uint64_t)get32(d + DMAEMU_NIC_DESC_ADDR + 4) << 32;
		if (!code && len > get32(d + DMAEMU_NIC_DESC_LEN))
			code = DMAEMU_NIC_ERR_TOO_LONG;
		if (!code && nic_dma_write(dev, nic, buf, f, len))
			code = DMAEMU_NIC_ERR_BUF;
		if (!give_back(dev, nic, r, da, code ? bad_status(code) : st))
			return;
		if (code)
			set_error(nic, r, code,
				  code == DMAEMU_NIC_ERR_BUF ? buf : da);
		else
			delivered = true;
	}
	if (delivered) {
		nic->stat[RX_FRAMES]++;
		nic->stat[RX_BYTES] += len;
	}
	count_done(nic, r, 16);
}

/* Send descriptor TX_HEAD.  Lock held.  Return: false when TX halted. */
static bool tx_one(struct dmaemu_device *dev, struct nic *nic)
{
	struct ring *r = &nic->tx;
	uint8_t d[DESC_USED];
	uint32_t code, len;
	uint64_t da, buf;

	da = take(dev, nic, r, d, DMAEMU_NIC_MAX_FRAME, &code);
	if (!da)
		return false;
	len = get32(d + DMAEMU_NIC_DESC_LEN);
	buf = (uint64_t)get32(d + DMAEMU_NIC_DESC_ADDR) |
	      (uint64_t)get32(d + DMAEMU_NIC_DESC_ADDR + 4) << 32;
	if (!code && nic_dma_read(dev, nic, buf, nic->frame, len))
		code = DMAEMU_NIC_ERR_BUF;
	if (!give_back(dev, nic, r, da, code ? bad_status(code) : len))
		return false;
	if (code) {
		set_error(nic, r, code, code == DMAEMU_NIC_ERR_BUF ? buf : da);
	} else {
		nic->stat[TX_FRAMES]++;
		nic->stat[TX_BYTES] += len;
	}
	count_done(nic, r, 0);
	if (!code && (nic->ctrl & DMAEMU_NIC_CTRL_LOOPBACK))
		rx_frame(dev, nic, nic->frame, len);
	return true;
}

/* The generator's timer: inject the frames due.  Lock held. */
static void gen_step(struct dmaemu_device *dev, struct nic *nic)
{
	unsigned int n = nic->gen_interval ? 1 : DMAEMU_NIC_GEN_BURST;
	size_t len;

	while (n-- && (nic->gen_ctrl & DMAEMU_NIC_GEN_RUN) && nic->gen_count &&
	       !dmaemu_device_stopping(dev)) {
		len = dmaemu_nic_gen_frame(nic->gen_seed, nic->gen_index++,
					   nic->frame);
		nic->gen_count--;
		rx_frame(dev, nic, nic->frame, (uint32_t)len);
		update_irq(dev, nic);
	}
	if (!nic->gen_count)
		nic->gen_ctrl = 0;
	else if (nic->gen_ctrl & DMAEMU_NIC_GEN_RUN)
		dmaemu_device_timer_arm(dev, nic->gen_interval);
}

static void nic_run(struct dmaemu_device *dev, unsigned int events)
{
	struct nic *nic = dmaemu_device_priv(dev);

	pthread_mutex_lock(&nic->lock);
	if (events & DMAEMU_DEVICE_TIMER)
		gen_step(dev, nic);
	while ((nic->ctrl & DMAEMU_NIC_CTRL_TX_EN) &&
	       !(nic->status & DMAEMU_NIC_STATUS_TX_HALTED) &&
	       nic->tx.head != nic->tx.tail && !dmaemu_device_stopping(dev)) {
		if (!tx_one(dev, nic))
			break;
		update_irq(dev, nic);
		/* Let register accesses in between frames. */
		pthread_mutex_unlock(&nic->lock);
		pthread_mutex_lock(&nic->lock);
	}
	/* Out of work: signal what coalescing held back. */
	if (nic->tx.pending)
		nic->int_status |= DMAEMU_NIC_INT_TX_DONE;
	if (nic->rx.pending)
		nic->int_status |= DMAEMU_NIC_INT_RX_DONE;
	nic->tx.pending = nic->rx.pending = 0;
	update_irq(dev, nic);
	pthread_mutex_unlock(&nic->lock);
}

/* Reset values; lock held. */
static void reset_regs(struct nic *nic)
{
	struct ring tx = {.halted_bit = DMAEMU_NIC_STATUS_TX_HALTED,
			  .done_bit = DMAEMU_NIC_INT_TX_DONE,
			  .err_bit = DMAEMU_NIC_INT_TX_ERR};
	struct ring rx = {.halted_bit = DMAEMU_NIC_STATUS_RX_HALTED,
			  .done_bit = DMAEMU_NIC_INT_RX_DONE,
			  .err_bit = DMAEMU_NIC_INT_RX_ERR};
	unsigned int i;

	nic->ctrl = nic->status = nic->int_status = nic->int_enable = 0;
	nic->coalesce = nic->err_code = 0;
	nic->err_addr = 0;
	nic->tx = tx;
	nic->rx = rx;
	for (i = 0; i < NR_STATS; i++)
		nic->stat[i] = 0;
	nic->gen_ctrl = nic->gen_seed = nic->gen_count = 0;
	nic->gen_interval = nic->gen_index = 0;
}

static void nic_reset(struct dmaemu_device *dev)
{
	struct nic *nic = dmaemu_device_priv(dev);

	pthread_mutex_lock(&nic->lock);
	reset_regs(nic);
	nic->irq_level = false; /* dmaemu_device_reset() lowered it */
	pthread_mutex_unlock(&nic->lock);
}

static uint64_t nic_read(struct dmaemu_device *dev, uint64_t off,
			 unsigned int size)
{
	struct nic *nic = dmaemu_device_priv(dev);
	uint32_t v = 0;

	if (size != 4)
		return 0;
	pthread_mutex_lock(&nic->lock);
	switch (off) {
	case DMAEMU_NIC_REG_ID:
		v = DMAEMU_NIC_ID_VALUE;
		break;
	case DMAEMU_NIC_REG_CTRL:
		v = nic->ctrl;
		break;
	case DMAEMU_NIC_REG_STATUS:
		v = nic->status;
		break;
	case DMAEMU_NIC_REG_INT_STATUS:
		v = nic->int_status;
		break;
	case DMAEMU_NIC_REG_INT_ENABLE:
		v = nic->int_enable;
		break;
	case DMAEMU_NIC_REG_COALESCE:
		v = nic->coalesce;
		break;
	case DMAEMU_NIC_REG_ERR_CODE:
		v = nic->err_code;
		break;
	case DMAEMU_NIC_REG_ERR_ADDR_LO:
		v = (uint32_t)nic->err_addr;
		break;
	case DMAEMU_NIC_REG_ERR_ADDR_HI:
		v = (uint32_t)(nic->err_addr >> 32);
		break;
	case DMAEMU_NIC_REG_TX_RING_LO:
		v = (uint32_t)nic->tx.base;
		break;
	case DMAEMU_NIC_REG_TX_RING_HI:
		v = (uint32_t)(nic->tx.base >> 32);
		break;
	case DMAEMU_NIC_REG_TX_SIZE:
		v = nic->tx.size;
		break;
	case DMAEMU_NIC_REG_TX_HEAD:
		v = nic->tx.head;
		break;
	case DMAEMU_NIC_REG_TX_TAIL:
		v = nic->tx.tail;
		break;
	case DMAEMU_NIC_REG_RX_RING_LO:
		v = (uint32_t)nic->rx.base;
		break;
	case DMAEMU_NIC_REG_RX_RING_HI:
		v = (uint32_t)(nic->rx.base >> 32);
		break;
	case DMAEMU_NIC_REG_RX_SIZE:
		v = nic->rx.size;
		break;
	case DMAEMU_NIC_REG_RX_HEAD:
		v = nic->rx.head;
		break;
	case DMAEMU_NIC_REG_RX_TAIL:
		v = nic->rx.tail;
		break;
	case DMAEMU_NIC_REG_GEN_CTRL:
		v = nic->gen_ctrl;
		break;
	case DMAEMU_NIC_REG_GEN_SEED:
		v = nic->gen_seed;
		break;
	case DMAEMU_NIC_REG_GEN_COUNT:
		v = nic->gen_count;
		break;
	case DMAEMU_NIC_REG_GEN_INTERVAL:
		v = nic->gen_interval;
		break;
	default:
		if (off >= DMAEMU_NIC_REG_TX_FRAMES &&
		    off <= DMAEMU_NIC_REG_ERRORS && !(off % 4))
			v = nic->stat[(off - DMAEMU_NIC_REG_TX_FRAMES) / 4];
	}
	pthread_mutex_unlock(&nic->lock);
	return v;
}

static void set_ring(struct ring *r, uint64_t off, uint32_t v)
{
	switch (off) {
	case 0: /* RING_LO */
		r->base = (r->base & ~0xffffffffULL) | v;
		break;
	case 4: /* RING_HI */
		r->base = (r->base & 0xffffffffULL) | (uint64_t)v << 32;
		break;
	case 8: /* SIZE */
		r->size = v;
		r->head = r->tail = 0;
		break;
	case 0x10: /* TAIL */
		r->tail = r->size ? v & (r->size - 1) : 0;
		break;
	}
}

static void nic_write(struct dmaemu_device *dev, uint64_t off, uint64_t val,
		      unsigned int size)
{
	struct nic *nic = dmaemu_device_priv(dev);
	uint32_t v = (uint32_t)val;
	bool ring = false;

	if (size != 4)
		return;
	if (off == DMAEMU_NIC_REG_CTRL && (v & DMAEMU_NIC_CTRL_RESET)) {
		dmaemu_device_reset(dev); /* waits for nic_run: no lock held */
		return;
	}
	pthread_mutex_lock(&nic->lock);
	switch (off) {
	case DMAEMU_NIC_REG_CTRL:
		nic->ctrl =
			v & (DMAEMU_NIC_CTRL_TX_EN | DMAEMU_NIC_CTRL_RX_EN |
			     DMAEMU_NIC_CTRL_LOOPBACK | DMAEMU_NIC_CTRL_RX_DUP);
		ring = true;
		break;
	case DMAEMU_NIC_REG_INT_STATUS:
		nic->int_status &= ~v;
		break;
	case DMAEMU_NIC_REG_INT_ENABLE:
		nic->int_enable = v & DMAEMU_NIC_INT_ALL;
		break;
	case DMAEMU_NIC_REG_COALESCE:
		nic->coalesce = v;
		break;
	case DMAEMU_NIC_REG_TX_RING_LO:
	case DMAEMU_NIC_REG_TX_RING_HI:
	case DMAEMU_NIC_REG_TX_SIZE:
	case DMAEMU_NIC_REG_TX_TAIL:
		set_ring(&nic->tx, off - DMAEMU_NIC_REG_TX_RING_LO, v);
		ring = off == DMAEMU_NIC_REG_TX_TAIL;
		break;
	case DMAEMU_NIC_REG_RX_RING_LO:
	case DMAEMU_NIC_REG_RX_RING_HI:
	case DMAEMU_NIC_REG_RX_SIZE:
	case DMAEMU_NIC_REG_RX_TAIL:
		set_ring(&nic->rx, off - DMAEMU_NIC_REG_RX_RING_LO, v);
		break;
	case DMAEMU_NIC_REG_GEN_CTRL:
		nic->gen_ctrl = v & DMAEMU_NIC_GEN_RUN;
		nic->gen_index = 0;
		if (nic->gen_ctrl && nic->gen_count)
			dmaemu_device_timer_arm(dev, nic->gen_interval);
		else
			dmaemu_device_timer_cancel(dev);
		break;
	case DMAEMU_NIC_REG_GEN_SEED:
		nic->gen_seed = v;
		break;
	case DMAEMU_NIC_REG_GEN_COUNT:
		nic->gen_count = v;
		break;
	case DMAEMU_NIC_REG_GEN_INTERVAL:
		nic->gen_interval = v;
		break;
	}
	update_irq(dev, nic);
	pthread_mutex_unlock(&nic->lock);
	if (ring)
		dmaemu_device_doorbell(dev);
}

static void nic_release(struct dmaemu_device *dev)
{
	struct nic *nic = dmaemu_device_priv(dev);

	pthread_mutex_destroy(&nic->lock);
	free(nic);
}

static const struct dmaemu_device_ops nic_ops = {
	.name = DMAEMU_NIC_NAME,
	.mmio_size = DMAEMU_NIC_MMIO_SIZE,
	.mmio_read = nic_read,
	.mmio_write = nic_write,
	.run = nic_run,
	.reset = nic_reset,
	.release = nic_release,
	.nr_irqs = 1,
};

struct dmaemu_device *dmaemu_nic_create(struct dmaemu_machine *m,
					const char *name)
{
	struct dmaemu_device *dev;
	struct nic *nic = calloc(1, sizeof(*nic));
	int err;

	if (!nic) {
		errno = ENOMEM;
		return NULL;
	}
	err = pthread_mutex_init(&nic->lock, NULL);
	if (err) {
		free(nic);
		errno = err;
		return NULL;
	}
	reset_regs(nic);
	dev = dmaemu_device_create(m, name, &nic_ops, nic);
	if (!dev) {
		err = errno;
		pthread_mutex_destroy(&nic->lock);
		free(nic);
		errno = err;
	}
	return dev;
}
