// SPDX-License-Identifier: MIT
/*
 * check-soak.c - a soak: several driver threads move data through
 * several devices at once, on every profile (arm, arm64, x86), every
 * backend (direct, swiotlb=force, iommu=1) and both scheduling modes
 * (sched=threads, sched=lockstep), and every byte moved is checked.
 *
 * The devices: two copy engines bound to their reference driver
 * (examples/copy-engine) and one checksum engine driven by a small driver
 * here (a mutex for one job at a time, an interrupt handler that
 * completes a completion).  The network card is left out: it was left
 * out while its model hung under sched=lockstep (fixed since, see
 * check-nic's test_loopback), and has not been added yet.
 *
 * One round of a driver thread, with a length drawn from its own
 * generator (so a copy often spans several 64 KiB descriptors):
 *   kmalloc src and dst; src gets a pattern of (thread, round, offset),
 *   dst its complement, so a byte not written reads wrong;
 *   cedrv_memcpy() on the thread's copy engine (threads share them);
 *   every byte of dst is compared with the pattern;
 *   the checksum engine computes the CRC-32 of dst (mapped DMA_TO_DEVICE)
 *   into a register and, by a DMA write, into the thread's coherent
 *   buffer: both must equal the CRC of the pattern computed here.
 * A byte lost, duplicated into another buffer or left stale is a wrong
 * byte of some thread's dst or a wrong CRC; the figures (transfers,
 * bytes, threads, devices, seconds, wrong bytes) are printed as TAP
 * diagnostics, and the machine must end with no report, no mapping and
 * no error.
 *
 * make check runs a few rounds per machine (seconds in all; fewer under
 * Valgrind, where Helgrind and DRD run it); make stress runs the same
 * program with SOAK_SECONDS set, spread over the 18 machines.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef HAVE_VALGRIND_VALGRIND_H
#include <valgrind/valgrind.h>
#else
#define RUNNING_ON_VALGRIND 0
#endif

#include <dmaemu/device.h>
#include <dmaemu/devices/checksum.h>
#include <dmaemu/devices/copy-engine.h>
#include <dmaemu/machine.h>
#include <dmaemu/report.h>
#include <dmaemu/sched.h>
#include <linux/completion.h>
#include <linux/dma-mapping.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/jiffies.h>
#include <linux/mutex.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include "ce-driver.h"
#include "check-run.h"

#define NTHREADS 4
#define NCE 2
#define NDEVICES (NCE + 1)
#define MAXLEN (150 * 1024) /* up to three copy descriptors */

static const char *const profiles[] = {"arm", "arm64", "x86"};
static const char *const backends[] = {"", ":swiotlb=force", ":iommu=1"};
static const char *const scheds[] = {"threads", "lockstep"};
#define NCONFIG 18

/* What a run does: a number of rounds per thread, or a time. */
static unsigned int rounds;
static double seconds_each;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint32_t crc32_le(const uint8_t *p, size_t n)
{
	uint32_t crc = 0xffffffffu;
	int k;

	while (n--) {
		crc ^= *p++;
		for (k = 0; k < 8; k++)
			crc = (crc & 1) ? 0xedb88320u ^ (crc >> 1) : crc >> 1;
	}
	return ~crc;
}

/* ---------------------------------------------------------------------- */
/* A small driver of the checksum engine                                  */
/* ---------------------------------------------------------------------- */

struct csum {
	struct dmaemu_device *d;
	struct device *dev;
	uint8_t *regs;
	unsigned int irq;
	struct mutex job_lock; /* one job at a time */
	spinlock_t lock;       /* status, set by the handler */
	uint32_t status;
	struct completion done;
};

static irqreturn_t csum_irq(int irq, void *data)
{
	struct csum *c = data;
	uint32_t st = readl(c->regs + DMAEMU_CSUM_REG_INT_STATUS);

	(void)irq;
	if (!st)
		return IRQ_NONE;
	writel(st, c->regs + DMAEMU_CSUM_REG_INT_STATUS);
	spin_lock(&c->lock);
	c->status |= st;
	spin_unlock(&c->lock);
	complete(&c->done);
	return IRQ_HANDLED;
}

static int csum_open(struct csum *c, struct dmaemu_machine *m)
{
	c->d = dmaemu_checksum_create(m, "csum0");
	if (!c->d)
		return -ENOMEM;
	c->dev = dmaemu_device_to_dev(c->d);
	c->regs = dmaemu_device_regs(c->d);
	mutex_init(&c->job_lock);
	spin_lock_init(&c->lock);
	init_completion(&c->done);
	if (dma_set_mask_and_coherent(c->dev, DMA_BIT_MASK(64)))
		return -EIO;
	c->irq = (unsigned int)dmaemu_device_irq(c->d, 0);
	if (request_irq(c->irq, csum_irq, 0, "csum0", c))
		return -EIO;
	writel(DMAEMU_CSUM_INT_DONE | DMAEMU_CSUM_INT_ERROR,
	       c->regs + DMAEMU_CSUM_REG_INT_ENABLE);
	return 0;
}

static void csum_close(struct csum *c)
{
	writel(0, c->regs + DMAEMU_CSUM_REG_INT_ENABLE);
	writel(DMAEMU_CSUM_CMD_RESET, c->regs + DMAEMU_CSUM_REG_CMD);
	free_irq(c->irq, c);
	mutex_destroy(&c->job_lock);
	dmaemu_device_destroy(c->d);
}

/* The CRC of @len bytes at @src, in a register and written to @dst.
 * Return: 0, -EIO for an engine error, -ETIMEDOUT. */
static int csum_run(struct csum *c, dma_addr_t src, uint32_t len,
		    dma_addr_t dst, uint32_t *crc)
{
	uint32_t st;
	int ret = 0;

	mutex_lock(&c->job_lock);
	reinit_completion(&c->done);
	spin_lock_irq(&c->lock);
	c->status = 0;
	spin_unlock_irq(&c->lock);
	writel(lower_32_bits(src), c->regs + DMAEMU_CSUM_REG_SRC_LO);
	writel(upper_32_bits(src), c->regs + DMAEMU_CSUM_REG_SRC_HI);
	writel(len, c->regs + DMAEMU_CSUM_REG_LEN);
	writel(lower_32_bits(dst), c->regs + DMAEMU_CSUM_REG_DST_LO);
	writel(upper_32_bits(dst), c->regs + DMAEMU_CSUM_REG_DST_HI);
	writel(DMAEMU_CSUM_CMD_START | DMAEMU_CSUM_CMD_WRITE,
	       c->regs + DMAEMU_CSUM_REG_CMD);
	if (!wait_for_completion_timeout(&c->done, 10 * HZ)) {
		ret = -ETIMEDOUT;
		goto out;
	}
	spin_lock_irq(&c->lock);
	st = c->status;
	spin_unlock_irq(&c->lock);
	if (st & DMAEMU_CSUM_INT_ERROR)
		ret = -EIO;
	*crc = readl(c->regs + DMAEMU_CSUM_REG_RESULT);
out:
	mutex_unlock(&c->job_lock);
	return ret;
}

/* ---------------------------------------------------------------------- */
/* The driver threads                                                     */
/* ---------------------------------------------------------------------- */

struct soak {
	struct dmaemu_machine *m;
	struct dmaemu_device *ce_dev[NCE];
	struct cedrv *ce[NCE];
	struct csum cs;
	double deadline; /* 0: run @rounds rounds */
};

struct drv {
	struct soak *s;
	unsigned int id;
	uint64_t rng;
	/* results, read after the join */
	unsigned long transfers;
	unsigned long long bytes;
	unsigned long long wrong; /* bytes of dst not as sent */
	unsigned long bad_crc;	  /* CRCs (register or memory) not as sent */
	unsigned long errors;	  /* calls that failed */
};

static uint32_t next(struct drv *d)
{
	/* xorshift64* */
	d->rng ^= d->rng >> 12;
	d->rng ^= d->rng << 25;
	d->rng ^= d->rng >> 27;
	return (uint32_t)((d->rng * 0x2545f4914f6cdd1dULL) >> 32);
}

static uint8_t pattern(const struct drv *d, unsigned int round, size_t i)
{
	return (uint8_t)(i * 7 + (i >> 8) * 13 + d->id * 59 + round * 101 + 1);
}

static bool more(struct drv *d, unsigned int round)
{
	if (d->s->deadline > 0)
		return now() < d->s->deadline;
	return round < rounds;
}

static void one_round(struct drv *d, unsigned int round, uint8_t *res,
		      dma_addr_t res_dma)
{
	struct soak *s = d->s;
	struct device *cdev = s->cs.dev;
	size_t len = 1 + next(d) % MAXLEN, i;
	uint8_t *src, *dst;
	uint32_t want, crc = 0, mem;
	dma_addr_t dma;

	src = kmalloc(len, GFP_KERNEL);
	dst = kmalloc(len, GFP_KERNEL);
	if (!src || !dst) {
		d->errors++;
		goto out;
	}
	for (i = 0; i < len; i++) {
		src[i] = pattern(d, round, i);
		dst[i] = (uint8_t)~src[i];
	}
	want = crc32_le(src, len);
	if (cedrv_memcpy(s->ce[d->id % NCE], dst, src, len)) {
		d->errors++;
		goto out;
	}
	for (i = 0; i < len; i++)
		if (dst[i] != pattern(d, round, i))
			d->wrong++;

	dma = dma_map_single(cdev, dst, len, DMA_TO_DEVICE);
	if (dma_mapping_error(cdev, dma)) {
		d->errors++;
		goto out;
	}
	memset(res, 0, 4);
	if (csum_run(&s->cs, dma, (uint32_t)len, res_dma, &crc))
		d->errors++;
	dma_unmap_single(cdev, dma, len, DMA_TO_DEVICE);
	mem = (uint32_t)res[0] | (uint32_t)res[1] << 8 |
	      (uint32_t)res[2] << 16 | (uint32_t)res[3] << 24;
	if (crc != want || mem != want)
		d->bad_crc++;
	d->transfers++;
	d->bytes += len;
out:
	kfree(dst);
	kfree(src);
}

static void *driver_thread(void *arg)
{
	struct drv *d = arg;
	struct device *cdev = d->s->cs.dev;
	dma_addr_t res_dma;
	uint8_t *res;
	unsigned int round;

	/* The checksum engine's result lands here (one per thread). */
	res = dma_alloc_coherent(cdev, 64, &res_dma, GFP_KERNEL);
	if (!res) {
		d->errors++;
		return NULL;
	}
	for (round = 0; more(d, round); round++)
		one_round(d, round, res, res_dma);
	dma_free_coherent(cdev, 64, res, res_dma);
	return NULL;
}

/* ---------------------------------------------------------------------- */
/* One machine                                                            */
/* ---------------------------------------------------------------------- */

START_TEST(test_soak)
{
	const char *profile = profiles[_i % 3];
	const char *backend = backends[(_i / 3) % 3];
	const char *sched = scheds[_i / 9];
	struct dmaemu_thread *t[NTHREADS];
	struct drv drv[NTHREADS];
	struct soak s;
	char opts[160], name[8];
	unsigned long transfers = 0, errors = 0, bad_crc = 0;
	unsigned long long bytes = 0, wrong = 0;
	double t0, secs;
	unsigned int i;

	memset(&s, 0, sizeof(s));
	snprintf(opts, sizeof(opts),
		 "profile=%s%s:sched=%s:seed=%u:mem=64M:log_path=/dev/null",
		 profile, backend, sched, 1000 + _i);
	s.m = dmaemu_machine_create(opts);
	ck_assert_msg(s.m != NULL, "machine %s", opts);
	ck_assert_int_eq(platform_driver_register(&cedrv_driver), 0);
	for (i = 0; i < NCE; i++) {
		snprintf(name, sizeof(name), "ce%u", i);
		s.ce_dev[i] = dmaemu_copy_engine_create(s.m, name);
		ck_assert_ptr_nonnull(s.ce_dev[i]);
		s.ce[i] = dev_get_drvdata(dmaemu_device_to_dev(s.ce_dev[i]));
		ck_assert_ptr_nonnull(s.ce[i]);
	}
	ck_assert_ptr_ne(s.ce[0], s.ce[1]);
	ck_assert_int_eq(csum_open(&s.cs, s.m), 0);

	t0 = now();
	if (seconds_each > 0)
		s.deadline = t0 + seconds_each;
	for (i = 0; i < NTHREADS; i++) {
		memset(&drv[i], 0, sizeof(drv[i]));
		drv[i].s = &s;
		drv[i].id = i;
		drv[i].rng = 0x9e3779b97f4a7c15ULL * (i + 1) + (uint64_t)_i;
		snprintf(name, sizeof(name), "drv%u", i);
		t[i] = dmaemu_thread_create(s.m, name, driver_thread, &drv[i]);
		ck_assert_ptr_nonnull(t[i]);
	}
	for (i = 0; i < NTHREADS; i++) {
		dmaemu_thread_join(t[i]);
		transfers += drv[i].transfers;
		bytes += drv[i].bytes;
		wrong += drv[i].wrong;
		bad_crc += drv[i].bad_crc;
		errors += drv[i].errors;
	}
	secs = now() - t0;

	printf("# %s%s sched=%s: %d threads, %d devices, %lu transfers, "
	       "%llu bytes, %.2f s, %llu lost\n",
	       profile, backend, sched, NTHREADS, NDEVICES, transfers, bytes,
	       secs, wrong);
	fflush(stdout);
	ck_assert_uint_eq(errors, 0);
	ck_assert_uint_eq(wrong, 0);
	ck_assert_uint_eq(bad_crc, 0);
	ck_assert_uint_ge(transfers, NTHREADS);

	csum_close(&s.cs);
	for (i = 0; i < NCE; i++)
		dmaemu_device_destroy(s.ce_dev[i]);
	platform_driver_unregister(&cedrv_driver);
	ck_assert_uint_eq(dmaemu_report_count(s.m, NULL), 0);
	dmaemu_machine_destroy(s.m);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("soak");
	TCase *tc = tcase_create("soak");
	const char *env = getenv("SOAK_SECONDS");
	double secs = env ? atof(env) : 0;

	unsetenv("DMAEMU_OPTIONS");
	rounds = RUNNING_ON_VALGRIND ? 1 : 10;
	if (secs > 0)
		seconds_each = secs / NCONFIG;
	tcase_set_timeout(tc, seconds_each + 600);
	tcase_add_loop_test(tc, test_soak, 0, NCONFIG);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(suite());
}
