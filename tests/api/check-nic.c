// SPDX-License-Identifier: MIT
/*
 * check-nic.c - the network card model (libdmaemu-devices) with its
 * reference driver (examples/nic/nic-driver.c, compiled in), from the
 * public headers only: loopback end to end on every profile with no
 * report; the seeded traffic generator (the same frames twice, the frames
 * dmaemu_nic_gen_frame() says, at the rate asked); RX drops counted when
 * no descriptor is free; fault injection (bad buffer address, bad
 * descriptor, a ring that cannot be fetched); reset in the middle of
 * traffic; the two-buffer (RX_DUP) mode; interrupt coalescing; the
 * driver's batched doorbell (nicdrv_xmit_more()).
 *
 * The register-level tests drive the card without the driver: rings and
 * buffers in coherent memory (no syncs needed) and the model's own
 * register names (<dmaemu/devices/nic.h>).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>

#include <dmaemu/device.h>
#include <dmaemu/devices/nic.h>
#include <dmaemu/machine.h>
#include <dmaemu/report.h>
#include <dmaemu/sched.h>
#include <dmaemu/sync.h>
#include <linux/delay.h>
#include <linux/dma-mapping.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/jiffies.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include "check-run.h"
#include "threads.h"
#include "nic-driver.h"

#define WAIT_FOR(cond) WAIT_UNTIL(cond, 20000)

/*
 * Counters shared with the interrupt thread, under a spinlock_t: Helgrind
 * and DRD do not model atomics.
 */
static DEFINE_SPINLOCK(counter_lock);

static int locked_get(int *c)
{
	int v;

	spin_lock(&counter_lock);
	v = *c;
	spin_unlock(&counter_lock);
	return v;
}

static const char *const profiles[] = {"arm", "arm64", "x86"};

static struct dmaemu_machine *machine_opts(const char *profile,
					   const char *more)
{
	char opts[160];
	struct dmaemu_machine *m;

	snprintf(opts, sizeof(opts), "profile=%s:log_path=/dev/null%s%s",
		 profile, more ? ":" : "", more ? more : "");
	m = dmaemu_machine_create(opts);
	ck_assert_ptr_nonnull(m);
	return m;
}

static struct dmaemu_machine *machine(const char *profile)
{
	return machine_opts(profile, NULL);
}

/* ---------------------------------------------------------------------- */
/* With the reference driver                                              */
/* ---------------------------------------------------------------------- */

static size_t make_frame(unsigned int n, uint8_t *f)
{
	size_t len = 1 + (n * 1237u) % DMAEMU_NIC_MAX_FRAME, i;

	for (i = 0; i < len; i++)
		f[i] = (uint8_t)(n + i * 13 + (i >> 7));
	return len;
}

#define FRAMES 150

/*
 * FRAMES frames through the loopback with the reference driver, on a
 * machine of @profile with the options @more; every byte and the card's
 * counters checked, no report.  Return: the machine's scheduling
 * fingerprint (sched=lockstep), its number of points in *@points.
 */
static uint64_t loopback(const char *profile, const char *more,
			 uint64_t *points)
{
	static uint8_t want[DMAEMU_NIC_MAX_FRAME], got[DMAEMU_NIC_MAX_FRAME];
	struct dmaemu_machine *m = machine_opts(profile, more);
	struct dmaemu_device *d;
	struct nicdrv_stats st;
	struct nicdrv *nd;
	uint8_t *regs;
	uint32_t bytes = 0;
	unsigned int n, k;
	uint64_t fp;

	ck_assert_int_eq(platform_driver_register(&nicdrv_driver), 0);
	d = dmaemu_nic_create(m, "eth0");
	ck_assert_ptr_nonnull(d);
	nd = nicdrv_first();
	ck_assert_ptr_nonnull(nd);
	regs = dmaemu_device_regs(d);
	nicdrv_set_loopback(nd, true);
	/* Batches of 1 to 50 frames (the driver posts 63 RX buffers). */
	for (n = 0; n < FRAMES; n += k) {
		unsigned int batch = 1 + n % 50, j;

		for (k = 0; k < batch && n + k < FRAMES; k++) {
			size_t len = make_frame(n + k, want);

			bytes += (uint32_t)len;
			ck_assert_int_eq(nicdrv_xmit(nd, want, len), 0);
		}
		for (j = 0; j < k; j++) {
			int len = (int)make_frame(n + j, want);

			ck_assert_int_eq(
				nicdrv_recv(nd, got, sizeof(got), 10 * HZ),
				len);
			ck_assert(!memcmp(got, want, (size_t)len));
		}
	}
	ck_assert_int_eq(nicdrv_recv(nd, got, sizeof(got), 1), -ETIMEDOUT);
	ck_assert_int_eq(nicdrv_xmit(nd, want, 0), -EINVAL);
	ck_assert_int_eq(nicdrv_xmit(nd, want, DMAEMU_NIC_MAX_FRAME + 1),
			 -EINVAL);
	ck_assert_uint_eq(readl(regs + DMAEMU_NIC_REG_TX_FRAMES), FRAMES);
	ck_assert_uint_eq(readl(regs + DMAEMU_NIC_REG_RX_FRAMES), FRAMES);
	ck_assert_uint_eq(readl(regs + DMAEMU_NIC_REG_TX_BYTES), bytes);
	ck_assert_uint_eq(readl(regs + DMAEMU_NIC_REG_RX_BYTES), bytes);
	ck_assert_uint_eq(readl(regs + DMAEMU_NIC_REG_RX_DROPS), 0);
	ck_assert_uint_eq(readl(regs + DMAEMU_NIC_REG_ERRORS), 0);
	nicdrv_get_stats(nd, &st);
	ck_assert_uint_ge(st.irqs, 1);
	ck_assert_uint_eq(st.tx_errors + st.rx_errors, 0);

	dmaemu_device_destroy(d); /* remove(): frames still in flight too */
	ck_assert_ptr_null(nicdrv_first());
	platform_driver_unregister(&nicdrv_driver);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 0);
	fp = dmaemu_sched_fingerprint(m, points);
	dmaemu_machine_destroy(m);
	return fp;
}

START_TEST(test_loopback)
{
	uint64_t points;

	loopback(profiles[_i], NULL, &points);
}
END_TEST

/*
 * The same under sched=lockstep, where the card's run thread and the
 * driver take turns at every MMIO access and DMA call: the card must not
 * hold its lock across a DMA call (a writel() waiting for it would never
 * get its turn back).  One seed replays the same interleaving; another
 * gives another one.
 */
START_TEST(test_loopback_lockstep)
{
	uint64_t a, b, c, pa, pb, pc;

	a = loopback(profiles[_i], "sched=lockstep:seed=11", &pa);
	b = loopback(profiles[_i], "sched=lockstep:seed=11", &pb);
	c = loopback(profiles[_i], "sched=lockstep:seed=12", &pc);
	ck_assert_uint_gt(pa, 1000);
	ck_assert_uint_eq(a, b);
	ck_assert_uint_eq(pa, pb);
	ck_assert(a != c);
}
END_TEST

/*
 * nicdrv_xmit_more(): a batch is one doorbell, written by its last frame
 * (the frames before it wait in the ring, TX_TAIL unmoved), and written
 * at once when the ring fills, so that a batch longer than the ring
 * still goes out instead of waiting for room forever.
 */
START_TEST(test_xmit_more)
{
	static uint8_t want[DMAEMU_NIC_MAX_FRAME], got[DMAEMU_NIC_MAX_FRAME];
	struct dmaemu_machine *m = machine(profiles[_i]);
	struct dmaemu_device *d;
	struct nicdrv *nd;
	uint8_t *regs;
	unsigned int i;
	size_t len;

	ck_assert_int_eq(platform_driver_register(&nicdrv_driver), 0);
	d = dmaemu_nic_create(m, "eth0");
	ck_assert_ptr_nonnull(d);
	nd = nicdrv_first();
	ck_assert_ptr_nonnull(nd);
	regs = dmaemu_device_regs(d);
	nicdrv_set_loopback(nd, true);
	for (i = 0; i < 5; i++)
		ck_assert_int_eq(
			nicdrv_xmit_more(nd, want, make_frame(i, want), true),
			0);
	msleep(20);
	ck_assert_uint_eq(readl(regs + DMAEMU_NIC_REG_TX_TAIL), 0);
	ck_assert_uint_eq(readl(regs + DMAEMU_NIC_REG_TX_FRAMES), 0);
	ck_assert_int_eq(nicdrv_xmit_more(nd, want, make_frame(5, want), false),
			 0);
	ck_assert_uint_eq(readl(regs + DMAEMU_NIC_REG_TX_TAIL), 6);
	for (i = 0; i < 6; i++) {
		len = make_frame(i, want);
		ck_assert_int_eq(nicdrv_recv(nd, got, sizeof(got), 10 * HZ),
				 (int)len);
		ck_assert(!memcmp(got, want, len));
	}

	/* 200 frames in one batch, more than the ring's 63 (no loopback:
	 * no RX buffer to run out of). */
	nicdrv_set_loopback(nd, false);
	for (i = 0; i < 200; i++)
		ck_assert_int_eq(nicdrv_xmit_more(nd, want, 60, true), 0);
	ck_assert_uint_ge(readl(regs + DMAEMU_NIC_REG_TX_FRAMES), 6 + 200 - 63);
	ck_assert_int_eq(nicdrv_xmit_more(nd, want, 60, false), 0);
	WAIT_FOR(readl(regs + DMAEMU_NIC_REG_TX_FRAMES) == 6 + 201);
	ck_assert_uint_eq(readl(regs + DMAEMU_NIC_REG_ERRORS), 0);

	dmaemu_device_destroy(d);
	platform_driver_unregister(&nicdrv_driver);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 0);
	dmaemu_machine_destroy(m);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* At the register level                                                  */
/* ---------------------------------------------------------------------- */

#define RING 16
#define BUF DMAEMU_NIC_MAX_FRAME

struct raw {
	struct dmaemu_machine *m;
	struct dmaemu_device *d;
	struct device *dev;
	uint8_t *regs;
	uint8_t *tx, *rx; /* rings */
	dma_addr_t tx_dma, rx_dma;
	uint8_t *txb, *rxb; /* RING buffers of BUF bytes each */
	dma_addr_t txb_dma, rxb_dma;
	int irqs;
	int seen; /* INT_STATUS bits the handler acknowledged */
	unsigned int irq;
};

static irqreturn_t raw_irq(int irq, void *data)
{
	struct raw *r = data;
	uint32_t st = readl(r->regs + DMAEMU_NIC_REG_INT_STATUS);

	if (!st)
		return IRQ_NONE;
	writel(st, r->regs + DMAEMU_NIC_REG_INT_STATUS);
	spin_lock(&counter_lock);
	r->irqs++;
	r->seen |= (int)st;
	spin_unlock(&counter_lock);
	return IRQ_HANDLED;
}

static void wreg(struct raw *r, unsigned int off, uint32_t v)
{
	writel(v, r->regs + off);
}

static uint32_t reg(struct raw *r, unsigned int off)
{
	return readl(r->regs + off);
}

static void *coherent(struct raw *r, size_t len, dma_addr_t *dma)
{
	void *p = dma_alloc_coherent(r->dev, len, dma, GFP_KERNEL);

	ck_assert_ptr_nonnull(p);
	memset(p, 0, len);
	return p;
}

/* Program the rings (as after a reset). */
static void raw_rings(struct raw *r)
{
	wreg(r, DMAEMU_NIC_REG_TX_RING_LO, (uint32_t)r->tx_dma);
	wreg(r, DMAEMU_NIC_REG_TX_RING_HI, (uint32_t)(r->tx_dma >> 32));
	wreg(r, DMAEMU_NIC_REG_TX_SIZE, RING);
	wreg(r, DMAEMU_NIC_REG_RX_RING_LO, (uint32_t)r->rx_dma);
	wreg(r, DMAEMU_NIC_REG_RX_RING_HI, (uint32_t)(r->rx_dma >> 32));
	wreg(r, DMAEMU_NIC_REG_RX_SIZE, RING);
	if (r->irq)
		wreg(r, DMAEMU_NIC_REG_INT_ENABLE, DMAEMU_NIC_INT_ALL);
}

static void raw_open_opts(struct raw *r, const char *profile, bool handler,
			  const char *more)
{
	memset(r, 0, sizeof(*r));
	r->m = machine_opts(profile, more);
	r->d = dmaemu_nic_create(r->m, "eth0");
	ck_assert_ptr_nonnull(r->d);
	r->dev = dmaemu_device_to_dev(r->d);
	r->regs = dmaemu_device_regs(r->d);
	ck_assert_uint_eq(reg(r, DMAEMU_NIC_REG_ID), DMAEMU_NIC_ID_VALUE);
	r->tx = coherent(r, RING * DMAEMU_NIC_DESC_SIZE, &r->tx_dma);
	r->rx = coherent(r, RING * DMAEMU_NIC_DESC_SIZE, &r->rx_dma);
	r->txb = coherent(r, RING * BUF, &r->txb_dma);
	r->rxb = coherent(r, RING * BUF, &r->rxb_dma);
	if (handler) {
		r->irq = (unsigned int)dmaemu_device_irq(r->d, 0);
		ck_assert_int_eq(request_irq(r->irq, raw_irq, 0, "raw", r), 0);
	}
	raw_rings(r);
}

static void raw_open(struct raw *r, const char *profile, bool handler)
{
	raw_open_opts(r, profile, handler, NULL);
}

static void raw_close(struct raw *r)
{
	wreg(r, DMAEMU_NIC_REG_CTRL, DMAEMU_NIC_CTRL_RESET);
	if (r->irq)
		free_irq(r->irq, r);
	dma_free_coherent(r->dev, RING * BUF, r->rxb, r->rxb_dma);
	dma_free_coherent(r->dev, RING * BUF, r->txb, r->txb_dma);
	dma_free_coherent(r->dev, RING * DMAEMU_NIC_DESC_SIZE, r->rx,
			  r->rx_dma);
	dma_free_coherent(r->dev, RING * DMAEMU_NIC_DESC_SIZE, r->tx,
			  r->tx_dma);
	dmaemu_device_destroy(r->d);
}

static void put_desc(uint8_t *ring, unsigned int i, uint64_t addr, uint32_t len,
		     uint32_t status)
{
	uint8_t *d = ring + i * DMAEMU_NIC_DESC_SIZE;

	memcpy(d + DMAEMU_NIC_DESC_ADDR, &addr, 8);
	memcpy(d + DMAEMU_NIC_DESC_LEN, &len, 4);
	memcpy(d + DMAEMU_NIC_DESC_STATUS, &status, 4);
}

/* RX descriptor @i with its own buffer, given to the card. */
static void post_rx(struct raw *r, unsigned int i)
{
	put_desc(r->rx, i, r->rxb_dma + (uint64_t)i * BUF, BUF,
		 DMAEMU_NIC_DESC_OWN);
}

/* TX descriptor @i with @len bytes of pattern @seed in its buffer. */
static void post_tx(struct raw *r, unsigned int i, uint32_t len, int seed)
{
	uint8_t *b = r->txb + (size_t)i * BUF;
	uint32_t k;

	for (k = 0; k < len; k++)
		b[k] = (uint8_t)(seed + k * 3);
	put_desc(r->tx, i, r->txb_dma + (uint64_t)i * BUF, len,
		 DMAEMU_NIC_DESC_OWN);
}

static uint32_t status_of(const uint8_t *ring, unsigned int i)
{
	uint32_t v;

	__atomic_load(
		(const uint32_t *)(const void *)(ring +
						 i * DMAEMU_NIC_DESC_SIZE +
						 DMAEMU_NIC_DESC_STATUS),
		&v, __ATOMIC_ACQUIRE);
	return v;
}

static uint32_t err_status(uint32_t code)
{
	return DMAEMU_NIC_DESC_ERR | code << DMAEMU_NIC_DESC_CODE_SHIFT;
}

/* Run the generator: @count frames from @seed, into RX buffers 0 .. 14,
 * and wait for it to finish. */
static void generate(struct raw *r, uint32_t seed, uint32_t count,
		     uint32_t interval)
{
	wreg(r, DMAEMU_NIC_REG_GEN_SEED, seed);
	wreg(r, DMAEMU_NIC_REG_GEN_COUNT, count);
	wreg(r, DMAEMU_NIC_REG_GEN_INTERVAL, interval);
	wreg(r, DMAEMU_NIC_REG_GEN_CTRL, DMAEMU_NIC_GEN_RUN);
	WAIT_FOR(reg(r, DMAEMU_NIC_REG_GEN_CTRL) == 0);
}

/* The generator: the frames dmaemu_nic_gen_frame() gives, the same for the
 * same seed, others for another seed; GEN_INTERVAL spaces them. */
START_TEST(test_generator)
{
	static uint8_t first[RING * BUF], want[BUF];
	uint32_t lens[RING], i;
	struct raw r;
	uint64_t t0;
	int run;

	raw_open(&r, profiles[_i], false);
	for (run = 0; run < 3; run++) {
		uint32_t seed = run < 2 ? 42 : 43;

		for (i = 0; i < RING; i++)
			post_rx(&r, i);
		wreg(&r, DMAEMU_NIC_REG_RX_TAIL, RING - 1);
		wreg(&r, DMAEMU_NIC_REG_CTRL, DMAEMU_NIC_CTRL_RX_EN);
		generate(&r, seed, RING - 1, 0);
		ck_assert_uint_eq(reg(&r, DMAEMU_NIC_REG_RX_FRAMES), RING - 1);
		ck_assert_uint_eq(reg(&r, DMAEMU_NIC_REG_RX_DROPS), 0);
		for (i = 0; i < RING - 1; i++) {
			uint32_t st = status_of(r.rx, i);
			size_t len = dmaemu_nic_gen_frame(seed, i, want);

			ck_assert_uint_eq(st, len);
			ck_assert(!memcmp(r.rxb + i * BUF, want, len));
			if (run == 0)
				lens[i] = st;
			else if (run == 1)
				ck_assert_uint_eq(lens[i], st);
		}
		if (run == 0)
			memcpy(first, r.rxb, sizeof(first));
		else if (run == 1)
			ck_assert(!memcmp(first, r.rxb, sizeof(first)));
		else
			ck_assert(memcmp(first, r.rxb, BUF));
		memset(r.rxb, 0, RING * BUF);
		wreg(&r, DMAEMU_NIC_REG_CTRL, DMAEMU_NIC_CTRL_RESET);
		raw_rings(&r);
	}
	/* Four frames 5 ms apart take at least 15 ms. */
	for (i = 0; i < RING; i++)
		post_rx(&r, i);
	wreg(&r, DMAEMU_NIC_REG_RX_TAIL, RING - 1);
	wreg(&r, DMAEMU_NIC_REG_CTRL, DMAEMU_NIC_CTRL_RX_EN);
	t0 = dmaemu_time_ns();
	generate(&r, 7, 4, 5000000);
	ck_assert_uint_ge(dmaemu_time_ns() - t0, 15000000);
	ck_assert_uint_eq(reg(&r, DMAEMU_NIC_REG_RX_FRAMES), 4);
	raw_close(&r);
	ck_assert_uint_eq(dmaemu_report_count(r.m, NULL), 0);
	dmaemu_machine_destroy(r.m);
}
END_TEST

/* No free RX descriptor: the frame is dropped, RX_DROPS counts it and
 * RX_NOBUF is raised; buffers given back are used again. */
START_TEST(test_rx_drops)
{
	struct raw r;
	uint32_t i;

	raw_open(&r, "arm64", true);
	for (i = 0; i < RING; i++)
		post_rx(&r, i);
	wreg(&r, DMAEMU_NIC_REG_RX_TAIL, 5); /* five buffers */
	wreg(&r, DMAEMU_NIC_REG_CTRL, DMAEMU_NIC_CTRL_RX_EN);
	generate(&r, 1, 20, 0);
	ck_assert_uint_eq(reg(&r, DMAEMU_NIC_REG_RX_FRAMES), 5);
	ck_assert_uint_eq(reg(&r, DMAEMU_NIC_REG_RX_DROPS), 15);
	ck_assert_uint_eq(reg(&r, DMAEMU_NIC_REG_RX_HEAD), 5);
	WAIT_FOR(locked_get(&r.seen) & DMAEMU_NIC_INT_RX_NOBUF);
	ck_assert(locked_get(&r.seen) & DMAEMU_NIC_INT_RX_DONE);
	ck_assert_uint_eq(status_of(r.rx, 5), DMAEMU_NIC_DESC_OWN);

	/* Ten more buffers: ten of the next twelve frames get in. */
	wreg(&r, DMAEMU_NIC_REG_RX_TAIL, 15);
	generate(&r, 1, 12, 0);
	ck_assert_uint_eq(reg(&r, DMAEMU_NIC_REG_RX_FRAMES), 15);
	ck_assert_uint_eq(reg(&r, DMAEMU_NIC_REG_RX_DROPS), 17);
	ck_assert_uint_eq(reg(&r, DMAEMU_NIC_REG_ERRORS), 0);
	raw_close(&r);
	ck_assert_uint_eq(dmaemu_report_count(r.m, NULL), 0);
	dmaemu_machine_destroy(r.m);
}
END_TEST

/* Bad TX descriptors and buffers: each completes with ERR and its code,
 * TX_ERR comes, the card goes on; then a TX ring it cannot fetch halts
 * TX.  The process is fine throughout. */
START_TEST(test_tx_faults)
{
	struct raw r;

	raw_open(&r, profiles[_i], true);
	wreg(&r, DMAEMU_NIC_REG_CTRL,
	     DMAEMU_NIC_CTRL_TX_EN | DMAEMU_NIC_CTRL_RX_EN |
		     DMAEMU_NIC_CTRL_LOOPBACK);
	post_rx(&r, 0);
	wreg(&r, DMAEMU_NIC_REG_RX_TAIL, 1);
	put_desc(r.tx, 0, 0x10, 64, DMAEMU_NIC_DESC_OWN); /* not DRAM */
	post_tx(&r, 1, 0, 0);				  /* len 0 */
	post_tx(&r, 2, BUF + 1, 0);			  /* too long */
	put_desc(r.tx, 3, r.txb_dma, 64, 0);		  /* not OWNed */
	post_tx(&r, 4, 100, 9);				  /* good */
	wreg(&r, DMAEMU_NIC_REG_TX_TAIL, 5);
	WAIT_FOR(reg(&r, DMAEMU_NIC_REG_TX_HEAD) == 5 &&
		 reg(&r, DMAEMU_NIC_REG_RX_FRAMES) == 1);
	ck_assert_uint_eq(status_of(r.tx, 0), err_status(DMAEMU_NIC_ERR_BUF));
	ck_assert_uint_eq(status_of(r.tx, 1), err_status(DMAEMU_NIC_ERR_DESC));
	ck_assert_uint_eq(status_of(r.tx, 2), err_status(DMAEMU_NIC_ERR_DESC));
	ck_assert_uint_eq(status_of(r.tx, 3), err_status(DMAEMU_NIC_ERR_DESC));
	ck_assert_uint_eq(status_of(r.tx, 4), 100);
	ck_assert_uint_eq(status_of(r.rx, 0), 100);
	ck_assert(!memcmp(r.rxb, r.txb + 4 * BUF, 100));
	ck_assert_uint_eq(reg(&r, DMAEMU_NIC_REG_ERRORS), 4);
	ck_assert_uint_eq(reg(&r, DMAEMU_NIC_REG_TX_FRAMES), 1);
	WAIT_FOR(locked_get(&r.seen) & DMAEMU_NIC_INT_TX_ERR);
	ck_assert_uint_eq(dmaemu_report_count(r.m, "dma-fault"), 1);

	/* A TX ring outside DRAM: TX halts, with the address. */
	wreg(&r, DMAEMU_NIC_REG_CTRL, 0);
	wreg(&r, DMAEMU_NIC_REG_TX_RING_LO, 0x1000);
	wreg(&r, DMAEMU_NIC_REG_TX_RING_HI, 0);
	wreg(&r, DMAEMU_NIC_REG_TX_SIZE, RING);
	wreg(&r, DMAEMU_NIC_REG_INT_STATUS, DMAEMU_NIC_INT_ALL);
	spin_lock(&counter_lock);
	r.seen = 0;
	spin_unlock(&counter_lock);
	wreg(&r, DMAEMU_NIC_REG_CTRL, DMAEMU_NIC_CTRL_TX_EN);
	wreg(&r, DMAEMU_NIC_REG_TX_TAIL, 1);
	/* A TX_ERR of the first part may still be on its way to the
	 * handler: wait for the halt itself too. */
	WAIT_FOR((locked_get(&r.seen) & DMAEMU_NIC_INT_TX_ERR) &&
		 reg(&r, DMAEMU_NIC_REG_STATUS) == DMAEMU_NIC_STATUS_TX_HALTED);
	ck_assert_uint_eq(reg(&r, DMAEMU_NIC_REG_STATUS),
			  DMAEMU_NIC_STATUS_TX_HALTED);
	ck_assert_uint_eq(reg(&r, DMAEMU_NIC_REG_ERR_CODE),
			  DMAEMU_NIC_ERR_FETCH);
	ck_assert_uint_eq(reg(&r, DMAEMU_NIC_REG_ERR_ADDR_LO), 0x1000);
	ck_assert_uint_eq(reg(&r, DMAEMU_NIC_REG_TX_HEAD), 0);
	ck_assert_uint_eq(dmaemu_report_count(r.m, "dma-fault"), 2);

	/* A misaligned ring halts it too, after a reset. */
	wreg(&r, DMAEMU_NIC_REG_CTRL, DMAEMU_NIC_CTRL_RESET);
	ck_assert_uint_eq(reg(&r, DMAEMU_NIC_REG_STATUS), 0);
	raw_rings(&r);
	wreg(&r, DMAEMU_NIC_REG_TX_RING_LO, (uint32_t)r.tx_dma + 8);
	wreg(&r, DMAEMU_NIC_REG_CTRL, DMAEMU_NIC_CTRL_TX_EN);
	wreg(&r, DMAEMU_NIC_REG_TX_TAIL, 1);
	WAIT_FOR(reg(&r, DMAEMU_NIC_REG_STATUS) == DMAEMU_NIC_STATUS_TX_HALTED);
	ck_assert_uint_eq(reg(&r, DMAEMU_NIC_REG_ERR_CODE),
			  DMAEMU_NIC_ERR_RING);
	raw_close(&r);
	ck_assert_uint_eq(dmaemu_report_count(r.m, NULL), 2);
	dmaemu_machine_destroy(r.m);
}
END_TEST

/* Bad RX buffers: a frame into a buffer outside DRAM, a frame longer
 * than its buffer, a descriptor not OWNed; then an RX ring that cannot be
 * fetched halts RX. */
START_TEST(test_rx_faults)
{
	struct raw r;

	raw_open(&r, profiles[_i], true);
	wreg(&r, DMAEMU_NIC_REG_CTRL,
	     DMAEMU_NIC_CTRL_TX_EN | DMAEMU_NIC_CTRL_RX_EN |
		     DMAEMU_NIC_CTRL_LOOPBACK);
	put_desc(r.rx, 0, 0xfff00000000ULL, BUF, DMAEMU_NIC_DESC_OWN);
	put_desc(r.rx, 1, r.rxb_dma, 50, DMAEMU_NIC_DESC_OWN);
	put_desc(r.rx, 2, r.rxb_dma, BUF, 0);
	post_rx(&r, 3);
	wreg(&r, DMAEMU_NIC_REG_RX_TAIL, 4);
	post_tx(&r, 0, 64, 1);
	post_tx(&r, 1, 64, 2);
	post_tx(&r, 2, 64, 3);
	post_tx(&r, 3, 64, 4);
	wreg(&r, DMAEMU_NIC_REG_TX_TAIL, 4);
	WAIT_FOR(reg(&r, DMAEMU_NIC_REG_RX_HEAD) == 4);
	ck_assert_uint_eq(status_of(r.rx, 0), err_status(DMAEMU_NIC_ERR_BUF));
	ck_assert_uint_eq(status_of(r.rx, 1),
			  err_status(DMAEMU_NIC_ERR_TOO_LONG));
	ck_assert_uint_eq(status_of(r.rx, 2), err_status(DMAEMU_NIC_ERR_DESC));
	ck_assert_uint_eq(status_of(r.rx, 3), 64);
	ck_assert(!memcmp(r.rxb + 3 * BUF, r.txb + 3 * BUF, 64));
	ck_assert_uint_eq(r.rxb[0], 0); /* TOO_LONG wrote nothing */
	ck_assert_uint_eq(reg(&r, DMAEMU_NIC_REG_RX_FRAMES), 1);
	ck_assert_uint_eq(reg(&r, DMAEMU_NIC_REG_TX_FRAMES), 4);
	ck_assert_uint_eq(reg(&r, DMAEMU_NIC_REG_ERRORS), 3);
	WAIT_FOR(locked_get(&r.seen) & DMAEMU_NIC_INT_RX_ERR);
	ck_assert_uint_eq(dmaemu_report_count(r.m, "dma-fault"), 1);

	wreg(&r, DMAEMU_NIC_REG_RX_RING_LO, 0x2000);
	wreg(&r, DMAEMU_NIC_REG_RX_RING_HI, 0);
	wreg(&r, DMAEMU_NIC_REG_RX_SIZE, RING);
	wreg(&r, DMAEMU_NIC_REG_RX_TAIL, 1);
	post_tx(&r, 4, 64, 5);
	wreg(&r, DMAEMU_NIC_REG_TX_TAIL, 5);
	WAIT_FOR(reg(&r, DMAEMU_NIC_REG_STATUS) == DMAEMU_NIC_STATUS_RX_HALTED);
	ck_assert_uint_eq(reg(&r, DMAEMU_NIC_REG_ERR_CODE),
			  DMAEMU_NIC_ERR_FETCH);
	ck_assert_uint_eq(reg(&r, DMAEMU_NIC_REG_ERR_ADDR_LO), 0x2000);
	/* TX goes on; what arrives now is dropped. */
	post_tx(&r, 5, 64, 6);
	wreg(&r, DMAEMU_NIC_REG_TX_TAIL, 6);
	WAIT_FOR(reg(&r, DMAEMU_NIC_REG_TX_FRAMES) == 6);
	ck_assert_uint_eq(reg(&r, DMAEMU_NIC_REG_RX_DROPS), 1);
	raw_close(&r);
	ck_assert_uint_eq(dmaemu_report_count(r.m, NULL), 2);
	dmaemu_machine_destroy(r.m);
}
END_TEST

/* Reset while the generator and TX run: the registers go to their reset
 * values, the card stops touching memory, and set up again it works. */
START_TEST(test_reset_mid_traffic)
{
	static uint8_t snap[RING * BUF];
	uint8_t ring[RING * DMAEMU_NIC_DESC_SIZE];
	struct raw r;
	unsigned int i;
	int irqs;

	raw_open(&r, profiles[_i], true);
	for (i = 0; i < RING; i++) {
		post_rx(&r, i);
		post_tx(&r, i, BUF, (int)i);
	}
	wreg(&r, DMAEMU_NIC_REG_RX_TAIL, RING - 1);
	/*
	 * Back to back (interval 0): the card's thread never sleeps on its
	 * timer, whose timed wait, timing out as the reset signals it, makes
	 * glibc's condition variable trip a Helgrind false positive.
	 */
	wreg(&r, DMAEMU_NIC_REG_GEN_COUNT, 1000000);
	wreg(&r, DMAEMU_NIC_REG_GEN_INTERVAL, 0);
	wreg(&r, DMAEMU_NIC_REG_CTRL,
	     DMAEMU_NIC_CTRL_TX_EN | DMAEMU_NIC_CTRL_RX_EN);
	wreg(&r, DMAEMU_NIC_REG_GEN_CTRL, DMAEMU_NIC_GEN_RUN);
	WAIT_FOR(reg(&r, DMAEMU_NIC_REG_RX_FRAMES) >= 3);
	wreg(&r, DMAEMU_NIC_REG_TX_TAIL, RING - 1);
	wreg(&r, DMAEMU_NIC_REG_CTRL, DMAEMU_NIC_CTRL_RESET);

	ck_assert_uint_eq(reg(&r, DMAEMU_NIC_REG_CTRL), 0);
	ck_assert_uint_eq(reg(&r, DMAEMU_NIC_REG_STATUS), 0);
	ck_assert_uint_eq(reg(&r, DMAEMU_NIC_REG_INT_STATUS), 0);
	ck_assert_uint_eq(reg(&r, DMAEMU_NIC_REG_GEN_CTRL), 0);
	ck_assert_uint_eq(reg(&r, DMAEMU_NIC_REG_GEN_COUNT), 0);
	ck_assert_uint_eq(reg(&r, DMAEMU_NIC_REG_TX_HEAD), 0);
	ck_assert_uint_eq(reg(&r, DMAEMU_NIC_REG_TX_TAIL), 0);
	ck_assert_uint_eq(reg(&r, DMAEMU_NIC_REG_RX_SIZE), 0);
	ck_assert_uint_eq(reg(&r, DMAEMU_NIC_REG_RX_FRAMES), 0);
	ck_assert_uint_eq(reg(&r, DMAEMU_NIC_REG_TX_FRAMES), 0);
	memcpy(snap, r.rxb, sizeof(snap));
	memcpy(ring, r.rx, sizeof(ring));
	/* A handler the card raised before the reset may still be running:
	 * let it finish, then nothing more may come. */
	synchronize_irq(r.irq);
	irqs = locked_get(&r.irqs);
	msleep(20);
	ck_assert(!memcmp(snap, r.rxb, sizeof(snap)));
	ck_assert(!memcmp(ring, r.rx, sizeof(ring)));
	ck_assert_int_eq(locked_get(&r.irqs), irqs);
	ck_assert_uint_eq(reg(&r, DMAEMU_NIC_REG_RX_DROPS), 0);

	/* Set up again: one frame through the loopback. */
	raw_rings(&r);
	post_rx(&r, 0);
	memset(r.rxb, 0, BUF);
	post_tx(&r, 0, 777, 5);
	wreg(&r, DMAEMU_NIC_REG_RX_TAIL, 1);
	wreg(&r, DMAEMU_NIC_REG_CTRL,
	     DMAEMU_NIC_CTRL_TX_EN | DMAEMU_NIC_CTRL_RX_EN |
		     DMAEMU_NIC_CTRL_LOOPBACK);
	wreg(&r, DMAEMU_NIC_REG_TX_TAIL, 1);
	WAIT_FOR(reg(&r, DMAEMU_NIC_REG_RX_FRAMES) == 1);
	ck_assert_uint_eq(status_of(r.rx, 0), 777);
	ck_assert(!memcmp(r.rxb, r.txb, 777));
	raw_close(&r);
	ck_assert_uint_eq(dmaemu_report_count(r.m, NULL), 0);
	dmaemu_machine_destroy(r.m);
}
END_TEST

/* RX_DUP: each frame fills two descriptors, the second marked DUP; a
 * frame that finds one free descriptor only is dropped whole. */
START_TEST(test_dup)
{
	struct raw r;
	unsigned int i;

	raw_open(&r, profiles[_i], true);
	for (i = 0; i < RING; i++)
		post_rx(&r, i);
	wreg(&r, DMAEMU_NIC_REG_RX_TAIL, 7); /* seven buffers */
	wreg(&r, DMAEMU_NIC_REG_CTRL,
	     DMAEMU_NIC_CTRL_TX_EN | DMAEMU_NIC_CTRL_RX_EN |
		     DMAEMU_NIC_CTRL_LOOPBACK | DMAEMU_NIC_CTRL_RX_DUP);
	for (i = 0; i < 4; i++)
		post_tx(&r, i, 100 + i, (int)i * 11);
	wreg(&r, DMAEMU_NIC_REG_TX_TAIL, 4);
	WAIT_FOR(reg(&r, DMAEMU_NIC_REG_TX_FRAMES) == 4);
	ck_assert_uint_eq(reg(&r, DMAEMU_NIC_REG_RX_FRAMES), 3);
	ck_assert_uint_eq(reg(&r, DMAEMU_NIC_REG_RX_BYTES), 100 + 101 + 102);
	ck_assert_uint_eq(reg(&r, DMAEMU_NIC_REG_RX_DROPS), 1);
	ck_assert_uint_eq(reg(&r, DMAEMU_NIC_REG_RX_HEAD), 6);
	for (i = 0; i < 3; i++) {
		const uint8_t *sent = r.txb + i * BUF;

		ck_assert_uint_eq(status_of(r.rx, 2 * i), 100 + i);
		ck_assert_uint_eq(status_of(r.rx, 2 * i + 1),
				  (100 + i) | DMAEMU_NIC_DESC_DUP);
		ck_assert(!memcmp(r.rxb + 2 * i * BUF, sent, 100 + i));
		ck_assert(!memcmp(r.rxb + (2 * i + 1) * BUF, sent, 100 + i));
	}
	ck_assert_uint_eq(status_of(r.rx, 6), DMAEMU_NIC_DESC_OWN);
	raw_close(&r);
	ck_assert_uint_eq(dmaemu_report_count(r.m, NULL), 0);
	dmaemu_machine_destroy(r.m);
}
END_TEST

/* COALESCE: a burst within the thresholds is one interrupt for TX and RX
 * together, when the card runs out of work; nothing waits for the
 * threshold. */
START_TEST(test_coalescing)
{
	struct raw r;
	unsigned int i;

	raw_open(&r, "arm64", true);
	for (i = 0; i < RING; i++) {
		post_rx(&r, i);
		post_tx(&r, i, 60, (int)i);
	}
	wreg(&r, DMAEMU_NIC_REG_RX_TAIL, RING - 1);
	wreg(&r, DMAEMU_NIC_REG_COALESCE, 1000u << 16 | 1000);
	wreg(&r, DMAEMU_NIC_REG_CTRL,
	     DMAEMU_NIC_CTRL_TX_EN | DMAEMU_NIC_CTRL_RX_EN |
		     DMAEMU_NIC_CTRL_LOOPBACK);
	wreg(&r, DMAEMU_NIC_REG_TX_TAIL, RING - 1);
	WAIT_FOR(locked_get(&r.irqs) == 1);
	ck_assert_int_eq(locked_get(&r.seen),
			 DMAEMU_NIC_INT_TX_DONE | DMAEMU_NIC_INT_RX_DONE);
	ck_assert_uint_eq(reg(&r, DMAEMU_NIC_REG_RX_FRAMES), RING - 1);
	msleep(10);
	ck_assert_int_eq(locked_get(&r.irqs), 1);
	raw_close(&r);
	ck_assert_uint_eq(dmaemu_report_count(r.m, NULL), 0);
	dmaemu_machine_destroy(r.m);
}
END_TEST

/*
 * What a driver polling one ring's counter and DONE bit saw while the card
 * worked through a burst, checked against COALESCE's threshold @t: the bit
 * is set when @t completions have come since it was last set (frames @t,
 * 2 @t, ... of the burst), and, mid-burst, at no other time.
 */
struct done_watch {
	unsigned int counter; /* TX_FRAMES or RX_FRAMES */
	uint32_t bit;	      /* TX_DONE or RX_DONE */
	uint32_t t;	      /* the threshold */
	uint32_t cleared;     /* the counter read after the last clear */
	uint32_t seen;	      /* times the bit was seen set mid-burst */
};

/* Is there a multiple of @t in [@lo, @hi]? */
static bool multiple_in(uint32_t t, uint32_t lo, uint32_t hi)
{
	return lo <= hi && (hi / t) * t >= lo;
}

/* One poll of @w: the counter, INT_STATUS, the counter again; the bit
 * seen set is cleared (write 1) and the counter read after. */
static void done_poll(struct raw *r, struct done_watch *w, uint32_t frames)
{
	uint32_t a = reg(r, w->counter);
	uint32_t st = reg(r, DMAEMU_NIC_REG_INT_STATUS);
	uint32_t b = reg(r, w->counter);

	if (b >= frames)
		return; /* the end of the burst signals what is left */
	if (st & w->bit) {
		/* A crossing since the clear, frames cleared+1 .. b. */
		ck_assert_msg(multiple_in(w->t, w->cleared + 1, b),
			      "DONE 0x%x set with frames %u..%u, threshold %u, "
			      "cleared at %u",
			      w->bit, a, b, w->t, w->cleared);
		w->seen++;
		wreg(r, DMAEMU_NIC_REG_INT_STATUS, w->bit);
		w->cleared = reg(r, w->counter);
	} else {
		/* No crossing after the clear up to a. */
		ck_assert_msg(!multiple_in(w->t, w->cleared + 1, a),
			      "DONE 0x%x clear with %u frames, threshold %u, "
			      "cleared at %u",
			      w->bit, a, w->t, w->cleared);
	}
}

#define BURST 12

/*
 * One burst of BURST frames through the loopback under sched=lockstep
 * with @seed, each DMA taking 10 us of emulated time, COALESCE thresholds
 * @tx_t and @rx_t; the driver polls the counters and the DONE bits with
 * udelay(1) between polls.  Return: how many times the TX and RX DONE
 * bits were seen set mid-burst, in *@tx_seen and *@rx_seen.
 */
static void coalesce_burst(uint64_t seed, uint32_t tx_t, uint32_t rx_t,
			   uint32_t *tx_seen, uint32_t *rx_seen)
{
	struct done_watch tx = {DMAEMU_NIC_REG_TX_FRAMES,
				DMAEMU_NIC_INT_TX_DONE, tx_t, 0, 0};
	struct done_watch rx = {DMAEMU_NIC_REG_RX_FRAMES,
				DMAEMU_NIC_INT_RX_DONE, rx_t, 0, 0};
	char more[96];
	struct raw r;
	unsigned int i, polls;

	snprintf(more, sizeof(more),
		 "sched=lockstep:seed=%llu:device_timing=latency=10us",
		 (unsigned long long)seed);
	raw_open_opts(&r, "arm64", false, more);
	for (i = 0; i < RING; i++)
		post_rx(&r, i);
	for (i = 0; i < BURST; i++)
		post_tx(&r, i, 60, (int)i);
	wreg(&r, DMAEMU_NIC_REG_RX_TAIL, RING - 1);
	wreg(&r, DMAEMU_NIC_REG_COALESCE, rx_t << 16 | tx_t);
	wreg(&r, DMAEMU_NIC_REG_CTRL,
	     DMAEMU_NIC_CTRL_TX_EN | DMAEMU_NIC_CTRL_RX_EN |
		     DMAEMU_NIC_CTRL_LOOPBACK);
	wreg(&r, DMAEMU_NIC_REG_TX_TAIL, BURST);
	for (polls = 0; reg(&r, DMAEMU_NIC_REG_RX_FRAMES) < BURST; polls++) {
		ck_assert_uint_lt(polls, 100000);
		done_poll(&r, &tx, BURST);
		done_poll(&r, &rx, BURST);
		udelay(1);
	}
	ck_assert_uint_eq(reg(&r, DMAEMU_NIC_REG_TX_FRAMES), BURST);
	/* The end of the burst signals what is left (nothing waits). */
	for (polls = 0; (reg(&r, DMAEMU_NIC_REG_INT_STATUS) &
			 (DMAEMU_NIC_INT_TX_DONE | DMAEMU_NIC_INT_RX_DONE)) !=
			(DMAEMU_NIC_INT_TX_DONE | DMAEMU_NIC_INT_RX_DONE);
	     polls++) {
		ck_assert_uint_lt(polls, 100000);
		udelay(1);
	}
	raw_close(&r);
	ck_assert_uint_eq(dmaemu_report_count(r.m, NULL), 0);
	dmaemu_machine_destroy(r.m);
	*tx_seen = tx.seen;
	*rx_seen = rx.seen;
}

/*
 * COALESCE below the burst: DONE is set after exactly the threshold's
 * number of frames, again after as many more, never in between; each
 * ring by its own field, each field all of its 16 bits (258 is not 2).
 * Lockstep seeds: the polls fall between the card's frames where the
 * seed says, the same in every run.
 */
START_TEST(test_coalescing_threshold)
{
	uint32_t tx_seen = 0, rx_seen = 0, a, b;
	uint64_t seed;

	for (seed = 1; seed <= 4; seed++) {
		coalesce_burst(seed, 3, 258, &a, &b);
		ck_assert_uint_eq(b, 0);
		tx_seen += a;
		coalesce_burst(seed, 258, 4, &a, &b);
		ck_assert_uint_eq(a, 0);
		rx_seen += b;
	}
	printf("# DONE seen mid-burst: TX %u times, RX %u times in 4 seeds\n",
	       tx_seen, rx_seen);
	/* The polls saw the thresholds work, not only the burst's end. */
	ck_assert_uint_gt(tx_seen, 4);
	ck_assert_uint_gt(rx_seen, 4);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("nic");
	TCase *tc = tcase_create("driver");

	tcase_set_timeout(tc, 300);
	tcase_add_loop_test(tc, test_loopback, 0, 3);
	tcase_add_loop_test(tc, test_loopback_lockstep, 0, 3);
	tcase_add_loop_test(tc, test_xmit_more, 0, 3);
	suite_add_tcase(s, tc);
	tc = tcase_create("registers");
	tcase_set_timeout(tc, 300);
	tcase_add_loop_test(tc, test_generator, 0, 3);
	tcase_add_test(tc, test_rx_drops);
	tcase_add_loop_test(tc, test_tx_faults, 0, 3);
	tcase_add_loop_test(tc, test_rx_faults, 0, 3);
	tcase_add_loop_test(tc, test_reset_mid_traffic, 0, 3);
	tcase_add_loop_test(tc, test_dup, 0, 3);
	tcase_add_test(tc, test_coalescing);
	tcase_add_test(tc, test_coalescing_threshold);
	suite_add_tcase(s, tc);
	return check_run(s);
}
