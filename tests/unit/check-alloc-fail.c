// SPDX-License-Identifier: MIT
/*
 * check-alloc-fail.c - host allocation failure, SQLite-style: a scenario
 * (machine, device, kmalloc, a coherent buffer, a streaming mapping, a
 * dma_pool, a scatterlist mapping, device DMA, teardown) runs once to
 * count its host allocations (dmaemu__alloc_calls()); then for N = 1 ..
 * that count it runs again with the N-th allocation and every later one
 * failing (dmaemu__alloc_fail_after(N)).  Each call must fail cleanly
 * (NULL with errno ENOMEM, DMA_MAPPING_ERROR, 0 segments, -ENOMEM), the
 * teardown must run whatever failed, and the scenario must then succeed
 * again with failures off.  Leaks are Memcheck's (make check-valgrind)
 * and LeakSanitizer's (the ASan build) to find: every run ends with
 * everything destroyed.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <linux/dma-mapping.h>
#include <linux/interrupt.h>
#include <linux/dmapool.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>

#include "base/base.h"
#include "check-run.h"
#include "dmaemu/device.h"
#include "dmaemu/machine.h"
#include "dmaemu/report.h"

/* What one run of the scenario got to do. */
struct outcome {
	bool machine, device, kmalloc, coherent, mapped, pool, pool_block;
	bool sg, dma_ok, irq;
	uint64_t reports;
};

/* Device DMA: done, or refused for want of host memory. */
static bool dma_ok(int rc)
{
	ck_assert_msg(rc == 0 || rc == -ENOMEM, "device DMA returned %d", rc);
	return rc == 0;
}

/* A device with a run thread and an interrupt line: threads to make. */
static void run_nothing(struct dmaemu_device *d, unsigned int events)
{
	(void)d;
	(void)events;
}

/* ops->release runs for a device made, never when create fails (the
 * model frees its own data then: it ran twice when the thread could not
 * be made, a double free of every model's data). */
static int releases;

static void count_release(struct dmaemu_device *d)
{
	(void)d;
	releases++;
}

static const struct dmaemu_device_ops run_ops = {
	.run = run_nothing,
	.release = count_release,
	.nr_irqs = 1,
};

static irqreturn_t on_irq(int irq, void *data)
{
	(void)irq;
	(void)data;
	return IRQ_NONE;
}

static void scenario(const char *opts, struct outcome *o)
{
	unsigned int irq = 0;
	int rc;
	struct scatterlist sg[2];
	struct dmaemu_machine *m;
	struct dmaemu_device *d;
	struct dma_pool *pool;
	struct device *dev;
	dma_addr_t ch = 0, ph = 0, dma;
	char *buf, *coh, *blk, *s0 = NULL, *s1 = NULL;
	uint8_t tmp[64] = {1, 2, 3};
	int n;

	memset(o, 0, sizeof(*o));
	o->dma_ok = true;
	errno = 0;
	m = dmaemu_machine_create(opts);
	if (!m) {
		ck_assert_int_eq(errno, ENOMEM);
		return;
	}
	o->machine = true;
	errno = 0;
	releases = 0;
	d = dmaemu_device_create(m, "dev0", &run_ops, NULL);
	if (!d) {
		ck_assert_int_eq(releases, 0);
		/* EAGAIN: its thread could not be made (pthread_create). */
		ck_assert_msg(errno == ENOMEM || errno == EAGAIN,
			      "dmaemu_device_create(): errno %d", errno);
		goto out_machine;
	}
	o->device = true;
	dev = dmaemu_device_to_dev(d);
	irq = (unsigned int)dmaemu_device_irq(d, 0);
	rc = request_irq(irq, on_irq, 0, "dev0", o);
	ck_assert_msg(rc == 0 || rc == -ENOMEM || rc == -EAGAIN,
		      "request_irq() returned %d", rc);
	o->irq = rc == 0;

	buf = kmalloc(4096, GFP_KERNEL);
	o->kmalloc = buf != NULL;
	coh = dma_alloc_coherent(dev, 8192, &ch, GFP_KERNEL);
	o->coherent = coh != NULL;

	if (buf) {
		memset(buf, 0x5a, 4096);
		dma = dma_map_single(dev, buf, 4096, DMA_TO_DEVICE);
		if (!dma_mapping_error(dev, dma)) {
			o->mapped = true;
			o->dma_ok &= dma_ok(dmaemu_dma_read(d, dma, tmp, 64));
			dma_unmap_single(dev, dma, 4096, DMA_TO_DEVICE);
		}
	}

	pool = dma_pool_create("alloc-fail", dev, 64, 64, 0);
	if (pool) {
		o->pool = true;
		blk = dma_pool_alloc(pool, GFP_KERNEL, &ph);
		if (blk) {
			o->pool_block = true;
			o->dma_ok &= dma_ok(dmaemu_dma_write(d, ph, tmp, 64));
			dma_pool_free(pool, blk, ph);
		}
		dma_pool_destroy(pool);
	}

	s0 = kmalloc(512, GFP_KERNEL);
	s1 = kmalloc(1024, GFP_KERNEL);
	if (s0 && s1) {
		sg_init_table(sg, 2);
		sg_set_buf(&sg[0], s0, 512);
		sg_set_buf(&sg[1], s1, 1024);
		n = dma_map_sg(dev, sg, 2, DMA_FROM_DEVICE);
		ck_assert_int_ge(n, 0);
		if (n > 0) {
			o->sg = true;
			o->dma_ok &= dma_ok(dmaemu_dma_write(
				d, sg_dma_address(&sg[0]), tmp, 64));
			dma_unmap_sg(dev, sg, 2, DMA_FROM_DEVICE);
		}
	}
	kfree(s1);
	kfree(s0);

	if (coh) {
		o->dma_ok &= dma_ok(dmaemu_dma_write(d, ch, tmp, 64));
		dma_free_coherent(dev, 8192, coh, ch);
	}
	kfree(buf);
	if (o->irq)
		free_irq(irq, o);
	dmaemu_device_destroy(d);
	ck_assert_int_eq(releases, 1);
out_machine:
	o->reports = dmaemu_report_count(m, NULL);
	dmaemu_machine_destroy(m);
}

/* Every allocation of the scenario on @opts fails in turn. */
static unsigned int fail_each(const char *opts)
{
	uint64_t points[DMAEMU__ALLOC_KINDS] = {0};
	struct outcome o;
	uint64_t before, count, n, hit;
	int kind;

	dmaemu__alloc_fail_after(0);
	before = dmaemu__alloc_calls();
	scenario(opts, &o);
	count = dmaemu__alloc_calls() - before;
	ck_assert(o.machine && o.device && o.irq && o.kmalloc && o.coherent &&
		  o.mapped && o.pool && o.pool_block && o.sg && o.dma_ok);
	ck_assert_uint_eq(o.reports, 0);
	ck_assert_uint_gt(count, 0);

	for (n = 1; n <= count; n++) {
		dmaemu__alloc_fail_after(n);
		scenario(opts, &o);
		/* The first run also did the one-time initialisation: the
		 * last few N may not be reached. */
		kind = dmaemu__alloc_hit_kind();
		if (kind >= 0)
			points[kind]++;
		dmaemu__alloc_fail_after(0);
		/* The library still works: the whole scenario again. */
		scenario(opts, &o);
		ck_assert_msg(o.machine && o.device && o.irq && o.kmalloc &&
				      o.coherent && o.mapped && o.pool &&
				      o.pool_block && o.sg && o.dma_ok &&
				      o.reports == 0,
			      "after failing allocation %llu of %llu, the "
			      "scenario no longer runs cleanly",
			      (unsigned long long)n, (unsigned long long)count);
	}
	hit = points[0] + points[1] + points[2] + points[3];
	printf("# %s: %llu failure points (malloc %llu, mmap %llu, "
	       "memfd_create %llu, pthread_create %llu)\n",
	       opts, (unsigned long long)hit,
	       (unsigned long long)points[DMAEMU__ALLOC_MALLOC],
	       (unsigned long long)points[DMAEMU__ALLOC_MMAP],
	       (unsigned long long)points[DMAEMU__ALLOC_MEMFD],
	       (unsigned long long)points[DMAEMU__ALLOC_THREAD]);
	/* The machine's memory is memfd-backed and mapped, and a device
	 * has threads: each kind must have been made to fail. */
	ck_assert_uint_gt(points[DMAEMU__ALLOC_MMAP], 0);
	ck_assert_uint_gt(points[DMAEMU__ALLOC_MEMFD], 0);
	ck_assert_uint_gt(points[DMAEMU__ALLOC_THREAD], 0);
	return (unsigned int)hit;
}

START_TEST(direct)
{
	fail_each("mem=16M:log_path=/dev/null");
}
END_TEST

START_TEST(swiotlb)
{
	fail_each("mem=16M:swiotlb=force:swiotlb_size=256K:log_path=/dev/null");
}
END_TEST

START_TEST(iommu)
{
	fail_each("mem=16M:iommu=1:log_path=/dev/null");
}
END_TEST

START_TEST(x86)
{
	fail_each("profile=x86:mem=16M:log_path=/dev/null");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("alloc-fail");
	TCase *tc = tcase_create("alloc-fail");

	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, direct);
	tcase_add_test(tc, swiotlb);
	tcase_add_test(tc, iommu);
	tcase_add_test(tc, x86);
	suite_add_tcase(s, tc);
	return check_run(s);
}
