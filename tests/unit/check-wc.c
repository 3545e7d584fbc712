// SPDX-License-Identifier: MIT
/*
 * check-wc.c - write-combining buffers: stores through the WC alias stay
 * invisible to devices until a barrier, writel() on arm/arm64, or the
 * eviction of their buffer.  Compiled with the instrumentation flags.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <asm/barrier.h>
#include <linux/dma-mapping.h>
#include <linux/io.h>

#include "check-run.h"
#include "dma/dma.h"
#include "dmaemu/cpu.h"
#include "dmaemu/device.h"
#include "dmaemu/report.h"

#define BASE 0x80200000ULL

static struct dmaemu_machine *m;

static struct dmaemu_machine *make(const char *extra)
{
	char opts[256];
	struct dmaemu_machine *mm;

	snprintf(opts, sizeof(opts), "mem=16M:log_path=/dev/null%s%s",
		 extra ? ":" : "", extra ? extra : "");
	mm = dmaemu_machine_create(opts);
	ck_assert_ptr_nonnull(mm);
	return mm;
}

static void setup(void)
{
	unsetenv("DMAEMU_OPTIONS");
	m = make(NULL);
}

static void teardown(void)
{
	dmaemu_machine_destroy(m);
	m = NULL;
}

static void remake(const char *opts)
{
	dmaemu_machine_destroy(m);
	m = make(opts);
}

/* The write-combining alias of @phys. */
static volatile uint8_t *wc(uint64_t phys)
{
	return dmaemu__phys_view(m, phys, DMAEMU__REGION_WC);
}

static void wc_store64(uint64_t phys, uint64_t v)
{
	*(volatile uint64_t *)wc(phys) = v;
}

/* What a device reading [phys, phys + len) gets. */
static void dev_read(uint64_t phys, void *buf, size_t len)
{
	ck_assert_int_eq(dmaemu__mem_read(m, phys, buf, len), 0);
	dmaemu__wc_device_view(m, phys, buf, len);
}

static uint64_t dev_read64(uint64_t phys)
{
	uint64_t v;

	dev_read(phys, &v, sizeof(v));
	return v;
}

static struct dmaemu_cpu_stats stats(void)
{
	struct dmaemu_cpu_stats st;

	ck_assert_int_eq(dmaemu_cpu_stats(m, 0, &st), 0);
	return st;
}

/* A doorbell register for writel(). */
static uint64_t bell_read(void *priv, uint64_t off, unsigned int size)
{
	(void)priv;
	(void)off;
	(void)size;
	return 0;
}

static void bell_write(void *priv, uint64_t off, uint64_t val,
		       unsigned int size)
{
	(void)off;
	(void)val;
	(void)size;
	(*(int *)priv)++;
}

static const struct dmaemu__mmio_ops bell_ops = {
	.read = bell_read,
	.write = bell_write,
};

/* ---------------------------------------------------------------------- */

START_TEST(test_pending_invisible_until_wmb)
{
	uint8_t buf[16];

	wc_store64(BASE, 0x1122334455667788ULL);
	ck_assert_uint_eq(dmaemu__wc_pending(m, BASE, 64), 8);
	/* The device still sees what memory held before the store. */
	ck_assert_uint_eq(dev_read64(BASE), 0);
	memset(buf, 0xee, sizeof(buf));
	dev_read(BASE, buf, sizeof(buf));
	ck_assert_uint_eq(buf[0], 0);
	ck_assert_uint_eq(buf[8], 0);
	/* The CPU reads its own pending bytes (store forwarding). */
	ck_assert_uint_eq(*(volatile uint64_t *)wc(BASE),
			  0x1122334455667788ULL);
	wmb();
	ck_assert_uint_eq(dmaemu__wc_pending(m, BASE, 64), 0);
	ck_assert_uint_eq(dev_read64(BASE), 0x1122334455667788ULL);
	ck_assert_uint_eq(stats().wc_flushes, 1);
	ck_assert_uint_eq(stats().wc_stores, 1);
}
END_TEST

START_TEST(test_partial_descriptor_seen)
{
	/* A descriptor written in two stores, the first one drained by a
	 * barrier, the second still pending: the device sees half. */
	wc_store64(BASE, 0xaaaaaaaaaaaaaaaaULL);
	dma_wmb();
	wc_store64(BASE + 8, 0xbbbbbbbbbbbbbbbbULL);
	ck_assert_uint_eq(dev_read64(BASE), 0xaaaaaaaaaaaaaaaaULL);
	ck_assert_uint_eq(dev_read64(BASE + 8), 0);
	ck_assert_uint_eq(dmaemu__wc_pending(m, BASE, 16), 8);
	mb();
	ck_assert_uint_eq(dev_read64(BASE + 8), 0xbbbbbbbbbbbbbbbbULL);
}
END_TEST

START_TEST(test_smp_barriers_do_not_drain)
{
	wc_store64(BASE, 1);
	smp_wmb();
	smp_mb();
	rmb();
	dma_rmb();
	ck_assert_uint_eq(dmaemu__wc_pending(m, BASE, 8), 8);
	ck_assert_uint_eq(dev_read64(BASE), 0);
}
END_TEST

START_TEST(test_eviction_when_full)
{
	struct dmaemu_cpu_stats st;

	remake("wc_buffers=2:wc_size=64");
	wc_store64(BASE, 1);
	wc_store64(BASE + 64, 2);
	ck_assert_uint_eq(stats().wc_evictions, 0);
	/* A third chunk: the oldest buffer drains to make room. */
	wc_store64(BASE + 128, 3);
	st = stats();
	ck_assert_uint_eq(st.wc_evictions, 1);
	ck_assert_uint_eq(dev_read64(BASE), 1);
	ck_assert_uint_eq(dev_read64(BASE + 64), 0);
	ck_assert_uint_eq(dev_read64(BASE + 128), 0);
	/* Using a buffer does not make it younger: the order is FIFO. */
	wc_store64(BASE + 64 + 8, 4);
	wc_store64(BASE + 192, 5);
	ck_assert_uint_eq(dev_read64(BASE + 64), 2);
	ck_assert_uint_eq(dev_read64(BASE + 72), 4);
	ck_assert_uint_eq(dmaemu__wc_pending(m, BASE, 256), 16);
}
END_TEST

START_TEST(test_buffer_size_configurable)
{
	/* One 128-byte buffer holds stores 100 bytes apart... */
	remake("wc_buffers=1:wc_size=128");
	wc_store64(BASE, 1);
	wc_store64(BASE + 100, 2);
	ck_assert_uint_eq(stats().wc_evictions, 0);
	ck_assert_uint_eq(dmaemu__wc_pending(m, BASE, 128), 16);
	/* ...64-byte ones do not. */
	remake("wc_buffers=1:wc_size=64");
	wc_store64(BASE, 1);
	wc_store64(BASE + 100, 2);
	ck_assert_uint_eq(stats().wc_evictions, 1);
	ck_assert_uint_eq(dmaemu__wc_pending(m, BASE, 128), 8);
	ck_assert_uint_eq(dev_read64(BASE), 1);
}
END_TEST

static void writel_case(const char *profile, int relaxed, size_t expect)
{
	char opts[64];
	int rings = 0;
	void *bell;

	snprintf(opts, sizeof(opts), "profile=%s", profile);
	remake(opts);
	bell = dmaemu__mmio_map(m, 4, &bell_ops, &rings);
	ck_assert_ptr_nonnull(bell);
	wc_store64(BASE, 9);
	if (relaxed)
		writel_relaxed(1, bell);
	else
		writel(1, bell);
	ck_assert_int_eq(rings, 1);
	ck_assert_uint_eq(dmaemu__wc_pending(m, BASE, 8), expect);
}

START_TEST(test_writel_drains_on_arm64)
{
	writel_case("arm64", 0, 0);
}
END_TEST

START_TEST(test_writel_drains_on_arm)
{
	writel_case("arm", 0, 0);
}
END_TEST

START_TEST(test_writel_keeps_pending_on_x86)
{
	writel_case("x86", 0, 8);
	wmb();
	ck_assert_uint_eq(dmaemu__wc_pending(m, BASE, 8), 0);
}
END_TEST

START_TEST(test_writel_relaxed_keeps_pending)
{
	writel_case("arm64", 1, 8);
}
END_TEST

START_TEST(test_device_write_over_pending)
{
	static const uint8_t dev[4] = {0xd1, 0xd2, 0xd3, 0xd4};
	uint8_t buf[8];

	wc_store64(BASE, 0x0101010101010101ULL);
	/* The device writes bytes 2-5, over pending CPU bytes. */
	ck_assert_uint_eq(dmaemu__wc_device_write(m, BASE + 2, 4), 4);
	ck_assert_int_eq(dmaemu__mem_write(m, BASE + 2, dev, 4), 0);
	dev_read(BASE, buf, sizeof(buf));
	ck_assert_uint_eq(buf[0], 0);	 /* still pending: old value */
	ck_assert_uint_eq(buf[2], 0xd1); /* the device's own data */
	ck_assert_uint_eq(buf[5], 0xd4);
	/* The drain lands the CPU's bytes after the device's. */
	wmb();
	dev_read(BASE, buf, sizeof(buf));
	ck_assert_uint_eq(buf[0], 1);
	ck_assert_uint_eq(buf[2], 1);
	ck_assert_uint_eq(buf[5], 1);
}
END_TEST

START_TEST(test_store_after_device_write)
{
	uint8_t buf[8];
	uint8_t dev = 0xdd;

	wc_store64(BASE, 0x0101010101010101ULL);
	dmaemu__wc_device_write(m, BASE, 1);
	ck_assert_int_eq(dmaemu__mem_write(m, BASE, &dev, 1), 0);
	/* A new CPU store to that byte: the latest CPU value wins at the
	 * drain, and until then the device sees its own write. */
	wc(BASE)[0] = 0x77;
	dev_read(BASE, buf, sizeof(buf));
	ck_assert_uint_eq(buf[0], 0xdd);
	wmb();
	dev_read(BASE, buf, sizeof(buf));
	ck_assert_uint_eq(buf[0], 0x77);
	ck_assert_uint_eq(buf[1], 1);
}
END_TEST

START_TEST(test_wc_loads_counted)
{
	(void)wc(BASE)[3];
	ck_assert_uint_eq(stats().wc_loads, 1);
	ck_assert_uint_eq(stats().accesses, 0);
	ck_assert_uint_eq(dmaemu__wc_pending(m, BASE, 64), 0);
}
END_TEST

/*
 * A device reading bytes still in a write-combining buffer is reported
 * once per read (wc-pending-read), and gets what memory held; after wmb()
 * the same read is right and silent.  _i: 0 arm64 (the default), 1 arm.
 */
START_TEST(test_device_read_of_pending_reported)
{
	struct dmaemu_device *d;
	struct device *dev;
	uint64_t *ring, v[2];
	dma_addr_t dma;

	if (_i)
		remake("profile=arm");
	d = dmaemu_device_create(m, "wcdev", NULL, NULL);
	ck_assert_ptr_nonnull(d);
	dev = dmaemu_device_to_dev(d);
	ring = dma_alloc_attrs(dev, 4096, &dma, GFP_KERNEL,
			       DMA_ATTR_WRITE_COMBINE);
	ck_assert_ptr_nonnull(ring);
	dmaemu_report_reset(m);

	WRITE_ONCE(ring[0], 0x1111);
	WRITE_ONCE(ring[1], 0x2222);
	ck_assert_int_eq(dmaemu_dma_read(d, dma, v, sizeof(v)), 0);
	ck_assert_uint_eq(v[0], 0);
	ck_assert_uint_eq(v[1], 0);
	ck_assert_uint_eq(dmaemu_report_count(m, "wc-pending-read"), 1);
	/* The two stores had no barrier between them either
	 * (docs/ordering.md). */
	ck_assert_uint_eq(dmaemu_report_count(m, "missing-write-barrier"), 1);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 2);
	/* A read of other bytes of the ring is not the pending bytes'. */
	ck_assert_int_eq(dmaemu_dma_read(d, dma + 64, v, sizeof(v)), 0);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 2);

	wmb();
	ck_assert_int_eq(dmaemu_dma_read(d, dma, v, sizeof(v)), 0);
	ck_assert_uint_eq(v[0], 0x1111);
	ck_assert_uint_eq(v[1], 0x2222);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 2);

	dma_free_attrs(dev, 4096, ring, dma, DMA_ATTR_WRITE_COMBINE);
	dmaemu_device_destroy(d);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 2);
}
END_TEST

static Suite *wc_suite(void)
{
	Suite *s = suite_create("wc");
	TCase *tc = tcase_create("wc");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_pending_invisible_until_wmb);
	tcase_add_test(tc, test_partial_descriptor_seen);
	tcase_add_test(tc, test_smp_barriers_do_not_drain);
	tcase_add_test(tc, test_eviction_when_full);
	tcase_add_test(tc, test_buffer_size_configurable);
	tcase_add_test(tc, test_writel_drains_on_arm64);
	tcase_add_test(tc, test_writel_drains_on_arm);
	tcase_add_test(tc, test_writel_keeps_pending_on_x86);
	tcase_add_test(tc, test_writel_relaxed_keeps_pending);
	tcase_add_test(tc, test_device_write_over_pending);
	tcase_add_test(tc, test_store_after_device_write);
	tcase_add_test(tc, test_wc_loads_counted);
	tcase_add_loop_test(tc, test_device_read_of_pending_reported, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(wc_suite());
}
