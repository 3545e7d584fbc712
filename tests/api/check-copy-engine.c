// SPDX-License-Identifier: MIT
/*
 * check-copy-engine.c - the copy engine model (libdmaemu-devices) with its
 * reference driver (examples/copy-engine/ce-driver.c, compiled in), from
 * the public headers only: data end to end on every profile with no
 * report, interrupt coalescing, fault injection (bad addresses in a
 * descriptor, oversized length, bad opcode, a ring that cannot be
 * fetched), and reset in the middle of a transfer.
 *
 * The register-level tests drive the engine without the driver: a ring
 * and buffers in coherent memory (no syncs needed) and the model's own
 * register names (<dmaemu/devices/copy-engine.h>).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>

#include <dmaemu/device.h>
#include <dmaemu/devices/copy-engine.h>
#include <dmaemu/machine.h>
#include <dmaemu/report.h>
#include <linux/delay.h>
#include <linux/dma-mapping.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include "ce-driver.h"
#include "check-run.h"
#include "threads.h"

#define WAIT_FOR(cond) WAIT_UNTIL(cond, 20000)

static const char *const profiles[] = {"arm", "arm64", "x86"};

static struct dmaemu_machine *machine(const char *profile)
{
	char opts[96];
	struct dmaemu_machine *m;

	snprintf(opts, sizeof(opts), "profile=%s:log_path=/dev/null", profile);
	m = dmaemu_machine_create(opts);
	ck_assert_ptr_nonnull(m);
	return m;
}

static uint32_t *u32p(uint8_t *p)
{
	return (uint32_t *)(void *)p;
}

/* ---------------------------------------------------------------------- */
/* With the reference driver                                              */
/* ---------------------------------------------------------------------- */

#define LEN (200 * 1024 + 12) /* four chunks and a bit */

struct bound {
	struct dmaemu_machine *m;
	struct dmaemu_device *d;
	struct cedrv *ce;
};

static void bind(struct bound *b, const char *profile)
{
	b->m = machine(profile);
	ck_assert_int_eq(platform_driver_register(&cedrv_driver), 0);
	b->d = dmaemu_copy_engine_create(b->m, "ce0");
	ck_assert_ptr_nonnull(b->d);
	b->ce = cedrv_first();
	ck_assert_ptr_nonnull(b->ce);
}

static void unbind(struct bound *b)
{
	dmaemu_device_destroy(b->d);
	ck_assert_ptr_null(cedrv_first());
	platform_driver_unregister(&cedrv_driver);
}

START_TEST(test_end_to_end)
{
	struct bound b;
	uint8_t *src, *dst;
	uint32_t *w;
	unsigned long irqs;
	size_t i;

	bind(&b, profiles[_i]);
	src = kmalloc(LEN, GFP_KERNEL);
	dst = kmalloc(LEN, GFP_KERNEL);
	ck_assert_ptr_nonnull(src);
	ck_assert_ptr_nonnull(dst);
	for (i = 0; i < LEN; i++) {
		src[i] = (uint8_t)(i * 13 + (i >> 9));
		dst[i] = 0x5a;
	}
	ck_assert_int_eq(cedrv_memcpy(b.ce, dst, src, LEN), 0);
	ck_assert(!memcmp(dst, src, LEN));
	irqs = cedrv_irqs(b.ce);
	ck_assert_uint_ge(irqs, 1);

	ck_assert_int_eq(cedrv_memset32(b.ce, dst, 0x01020304, LEN - 12), 0);
	w = (uint32_t *)(void *)dst;
	for (i = 0; i < (LEN - 12) / 4; i++)
		ck_assert_uint_eq(w[i], 0x01020304);
	ck_assert(!memcmp(dst + LEN - 12, src + LEN - 12, 12));
	ck_assert_uint_gt(cedrv_irqs(b.ce), irqs);
	kfree(dst);
	kfree(src);
	unbind(&b);
	ck_assert_uint_eq(dmaemu_report_count(b.m, NULL), 0);
	dmaemu_machine_destroy(b.m);
}
END_TEST

/* Bad addresses, length and opcode: the descriptor carries ERROR and its
 * code, the interrupt comes, the engine goes on with the next one. */
START_TEST(test_descriptor_faults)
{
	struct bound b;
	struct device *dev;
	uint8_t *buf;
	dma_addr_t dma;
	unsigned long irqs;
	uint8_t *regs;

	bind(&b, profiles[_i]);
	dev = dmaemu_device_to_dev(b.d);
	regs = dmaemu_device_regs(b.d);
	buf = kzalloc(4096, GFP_KERNEL);
	dma = dma_map_single(dev, buf, 4096, DMA_BIDIRECTIONAL);
	ck_assert(!dma_mapping_error(dev, dma));

	irqs = cedrv_irqs(b.ce);
	ck_assert_int_eq(cedrv_run(b.ce, CE_OP_COPY, 0x10, dma, 64), -EIO);
	ck_assert_uint_eq(readl(regs + DMAEMU_CE_REG_ERR_CODE),
			  DMAEMU_CE_ERR_SRC);
	ck_assert_uint_eq(readl(regs + DMAEMU_CE_REG_ERR_ADDR_LO), 0x10);
	ck_assert_uint_gt(cedrv_irqs(b.ce), irqs);
	ck_assert_uint_eq(dmaemu_report_count(b.m, "dma-fault"), 1);

	irqs = cedrv_irqs(b.ce);
	ck_assert_int_eq(cedrv_run(b.ce, CE_OP_COPY, dma, 0xfff00000000ULL, 64),
			 -EIO);
	ck_assert_uint_eq(readl(regs + DMAEMU_CE_REG_ERR_CODE),
			  DMAEMU_CE_ERR_DST);
	ck_assert_uint_gt(cedrv_irqs(b.ce), irqs);
	ck_assert_uint_eq(dmaemu_report_count(b.m, "dma-fault"), 2);

	irqs = cedrv_irqs(b.ce);
	ck_assert_int_eq(
		cedrv_run(b.ce, CE_OP_FILL, 0, dma, DMAEMU_CE_MAX_LEN + 1),
		-EIO);
	ck_assert_uint_eq(readl(regs + DMAEMU_CE_REG_ERR_CODE),
			  DMAEMU_CE_ERR_LENGTH);
	ck_assert_uint_gt(cedrv_irqs(b.ce), irqs);
	ck_assert_int_eq(cedrv_run(b.ce, 9, dma, dma, 64), -EIO);
	ck_assert_uint_eq(readl(regs + DMAEMU_CE_REG_ERR_CODE),
			  DMAEMU_CE_ERR_OPCODE);
	/* Neither moved a byte, and the engine still works. */
	ck_assert_int_eq(cedrv_run(b.ce, CE_OP_FILL, 0x11111111, dma, 4096), 0);
	dma_sync_single_for_cpu(dev, dma, 4096, DMA_BIDIRECTIONAL);
	ck_assert_uint_eq(buf[4095], 0x11);
	ck_assert_uint_eq(readl(regs + DMAEMU_CE_REG_STATUS), 0);
	dma_unmap_single(dev, dma, 4096, DMA_BIDIRECTIONAL);
	kfree(buf);
	unbind(&b);
	ck_assert_uint_eq(dmaemu_report_count(b.m, NULL), 2);
	dmaemu_machine_destroy(b.m);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* At the register level                                                  */
/* ---------------------------------------------------------------------- */

struct raw {
	struct dmaemu_machine *m;
	struct dmaemu_device *d;
	struct device *dev;
	uint8_t *regs;
	uint8_t *ring;
	dma_addr_t ring_dma;
	uint8_t *src, *dst;
	dma_addr_t src_dma, dst_dma;
	size_t len;
	counter_t irqs;
	counter_t int_status; /* what the handler acknowledged */
	unsigned int irq;
};

static irqreturn_t raw_irq(int irq, void *data)
{
	struct raw *r = data;
	uint32_t st = readl(r->regs + DMAEMU_CE_REG_INT_STATUS);

	if (!st)
		return IRQ_NONE;
	writel(st, r->regs + DMAEMU_CE_REG_INT_STATUS);
	cinc(&r->irqs);
	cset(&r->int_status, cget(&r->int_status) | (int)st);
	return IRQ_HANDLED;
}

static void raw_open(struct raw *r, const char *profile, size_t len,
		     bool handler)
{
	memset(r, 0, sizeof(*r));
	r->m = machine(profile);
	r->d = dmaemu_copy_engine_create(r->m, "ce0");
	ck_assert_ptr_nonnull(r->d);
	r->dev = dmaemu_device_to_dev(r->d);
	r->regs = dmaemu_device_regs(r->d);
	ck_assert_uint_eq(readl(r->regs + DMAEMU_CE_REG_ID),
			  DMAEMU_CE_ID_VALUE);
	r->ring = dma_alloc_coherent(r->dev, 16 * DMAEMU_CE_DESC_SIZE,
				     &r->ring_dma, GFP_KERNEL);
	r->len = len;
	r->src = dma_alloc_coherent(r->dev, len, &r->src_dma, GFP_KERNEL);
	r->dst = dma_alloc_coherent(r->dev, len, &r->dst_dma, GFP_KERNEL);
	ck_assert_ptr_nonnull(r->ring);
	ck_assert_ptr_nonnull(r->src);
	ck_assert_ptr_nonnull(r->dst);
	memset(r->ring, 0, 16 * DMAEMU_CE_DESC_SIZE);
	memset(r->dst, 0, len);
	for (size_t i = 0; i < len; i++)
		r->src[i] = (uint8_t)(i * 7 + 1);
	writel((uint32_t)r->ring_dma, r->regs + DMAEMU_CE_REG_RING_LO);
	writel((uint32_t)(r->ring_dma >> 32), r->regs + DMAEMU_CE_REG_RING_HI);
	writel(16, r->regs + DMAEMU_CE_REG_RING_SIZE);
	if (handler) {
		r->irq = (unsigned int)dmaemu_device_irq(r->d, 0);
		ck_assert_int_eq(request_irq(r->irq, raw_irq, 0, "raw", r), 0);
		writel(DMAEMU_CE_INT_DONE | DMAEMU_CE_INT_ERROR,
		       r->regs + DMAEMU_CE_REG_INT_ENABLE);
	}
}

static void raw_close(struct raw *r)
{
	writel(DMAEMU_CE_CTRL_RESET, r->regs + DMAEMU_CE_REG_CTRL);
	if (r->irq)
		free_irq(r->irq, r);
	dma_free_coherent(r->dev, r->len, r->dst, r->dst_dma);
	dma_free_coherent(r->dev, r->len, r->src, r->src_dma);
	dma_free_coherent(r->dev, 16 * DMAEMU_CE_DESC_SIZE, r->ring,
			  r->ring_dma);
	dmaemu_device_destroy(r->d);
}

static void put_desc(struct raw *r, unsigned int i, uint32_t ctrl, uint32_t len,
		     uint64_t src, uint64_t dst)
{
	uint8_t *d = r->ring + i * DMAEMU_CE_DESC_SIZE;

	*u32p(d + DMAEMU_CE_DESC_CTRL) = ctrl;
	*u32p(d + DMAEMU_CE_DESC_LEN) = len;
	memcpy(d + DMAEMU_CE_DESC_SRC, &src, 8);
	memcpy(d + DMAEMU_CE_DESC_DST, &dst, 8);
	*u32p(d + DMAEMU_CE_DESC_STATUS) = 0;
}

static uint32_t desc_status(struct raw *r, unsigned int i)
{
	return __atomic_load_n(
		u32p(r->ring + i * DMAEMU_CE_DESC_SIZE + DMAEMU_CE_DESC_STATUS),
		__ATOMIC_ACQUIRE);
}

static uint32_t reg(struct raw *r, unsigned int off)
{
	return readl(r->regs + off);
}

/* COALESCE and the descriptor IRQ flag, single-stepped with PAUSE. */
START_TEST(test_coalescing)
{
	struct raw r;
	unsigned int i;

	raw_open(&r, "arm64", 4096, false);
	for (i = 0; i < 8; i++)
		put_desc(&r, i,
			 DMAEMU_CE_OP_FILL | (i == 1 ? DMAEMU_CE_DESC_IRQ : 0),
			 64, i, r.dst_dma + 64 * i);
	writel(4, r.regs + DMAEMU_CE_REG_COALESCE);
	writel(DMAEMU_CE_CTRL_ENABLE | DMAEMU_CE_CTRL_PAUSE,
	       r.regs + DMAEMU_CE_REG_CTRL);
	for (i = 1; i <= 8; i++) {
		uint32_t st, want;

		writel(8, r.regs + DMAEMU_CE_REG_TAIL); /* one step */
		WAIT_FOR(reg(&r, DMAEMU_CE_REG_COMPLETED) == i &&
			 !(reg(&r, DMAEMU_CE_REG_STATUS) &
			   DMAEMU_CE_STATUS_BUSY));
		st = reg(&r, DMAEMU_CE_REG_INT_STATUS);
		/* 2: its IRQ flag; 6: four after that; 8: the ring drained. */
		want = (i == 2 || i == 6 || i == 8) ? DMAEMU_CE_INT_DONE : 0;
		ck_assert_msg(st == want, "after %u: INT_STATUS %u", i, st);
		writel(st, r.regs + DMAEMU_CE_REG_INT_STATUS);
		ck_assert_uint_eq(desc_status(&r, i - 1), DMAEMU_CE_DESC_DONE);
	}
	ck_assert_uint_eq(reg(&r, DMAEMU_CE_REG_HEAD), 8);
	ck_assert_uint_eq(r.dst[64 * 7], 7);
	raw_close(&r);
	ck_assert_uint_eq(dmaemu_report_count(r.m, NULL), 0);
	dmaemu_machine_destroy(r.m);
}
END_TEST

/* A ring the engine cannot fetch, and a misaligned one: halted, error
 * interrupt; a reset brings it back. */
START_TEST(test_ring_faults)
{
	struct raw r;

	raw_open(&r, profiles[_i], 4096, true);
	writel(0x1000, r.regs + DMAEMU_CE_REG_RING_LO); /* not DRAM */
	writel(0, r.regs + DMAEMU_CE_REG_RING_HI);
	writel(DMAEMU_CE_CTRL_ENABLE, r.regs + DMAEMU_CE_REG_CTRL);
	writel(1, r.regs + DMAEMU_CE_REG_TAIL);
	WAIT_FOR(cget(&r.irqs) == 1);
	ck_assert_uint_eq(cget(&r.int_status), DMAEMU_CE_INT_ERROR);
	ck_assert_uint_eq(reg(&r, DMAEMU_CE_REG_STATUS),
			  DMAEMU_CE_STATUS_HALTED);
	ck_assert_uint_eq(reg(&r, DMAEMU_CE_REG_ERR_CODE), DMAEMU_CE_ERR_FETCH);
	ck_assert_uint_eq(reg(&r, DMAEMU_CE_REG_ERR_ADDR_LO), 0x1000);
	ck_assert_uint_eq(dmaemu_report_count(r.m, "dma-fault"), 1);

	writel(DMAEMU_CE_CTRL_RESET, r.regs + DMAEMU_CE_REG_CTRL);
	ck_assert_uint_eq(reg(&r, DMAEMU_CE_REG_STATUS), 0);
	ck_assert_uint_eq(reg(&r, DMAEMU_CE_REG_ERR_CODE), 0);
	ck_assert_uint_eq(reg(&r, DMAEMU_CE_REG_INT_ENABLE), 0);
	writel((uint32_t)r.ring_dma + 8, r.regs + DMAEMU_CE_REG_RING_LO);
	writel(16, r.regs + DMAEMU_CE_REG_RING_SIZE);
	writel(DMAEMU_CE_INT_ERROR, r.regs + DMAEMU_CE_REG_INT_ENABLE);
	writel(DMAEMU_CE_CTRL_ENABLE, r.regs + DMAEMU_CE_REG_CTRL);
	writel(1, r.regs + DMAEMU_CE_REG_TAIL);
	WAIT_FOR(cget(&r.irqs) == 2);
	ck_assert_uint_eq(reg(&r, DMAEMU_CE_REG_ERR_CODE), DMAEMU_CE_ERR_RING);
	raw_close(&r);
	ck_assert_uint_eq(dmaemu_report_count(r.m, NULL), 1);
	dmaemu_machine_destroy(r.m);
}
END_TEST

#define BIG (1u << 20)

/* Reset with a transfer stopped after its first chunk: nothing more is
 * moved, the descriptor is not completed, the registers are at reset;
 * set up again, the engine does the whole job. */
START_TEST(test_reset_mid_transfer)
{
	struct raw r;
	size_t done;

	raw_open(&r, profiles[_i], BIG, true);
	put_desc(&r, 0, DMAEMU_CE_OP_COPY, BIG, r.src_dma, r.dst_dma);
	writel(DMAEMU_CE_CTRL_ENABLE | DMAEMU_CE_CTRL_PAUSE,
	       r.regs + DMAEMU_CE_REG_CTRL);
	writel(1, r.regs + DMAEMU_CE_REG_TAIL);
	WAIT_FOR(reg(&r, DMAEMU_CE_REG_STATUS) ==
		 (DMAEMU_CE_STATUS_BUSY | DMAEMU_CE_STATUS_PAUSED));
	/* One chunk per doorbell: the CTRL and TAIL writes are two, and
	 * the device thread may see them as one wake-up or two. */
	done = 0;
	while (done < BIG &&
	       !memcmp(r.dst + done, r.src + done, DMAEMU_CE_CHUNK))
		done += DMAEMU_CE_CHUNK;
	ck_assert_uint_ge(done, DMAEMU_CE_CHUNK);
	ck_assert_uint_le(done, 2 * DMAEMU_CE_CHUNK);
	ck_assert_uint_lt(done, BIG);
	ck_assert_uint_eq(r.dst[done], 0);

	writel(DMAEMU_CE_CTRL_RESET, r.regs + DMAEMU_CE_REG_CTRL);
	ck_assert_uint_eq(reg(&r, DMAEMU_CE_REG_STATUS), 0);
	ck_assert_uint_eq(reg(&r, DMAEMU_CE_REG_CTRL), 0);
	ck_assert_uint_eq(reg(&r, DMAEMU_CE_REG_HEAD), 0);
	ck_assert_uint_eq(reg(&r, DMAEMU_CE_REG_RING_SIZE), 0);
	ck_assert_uint_eq(reg(&r, DMAEMU_CE_REG_COMPLETED), 0);
	msleep(20);
	ck_assert_uint_eq(r.dst[done], 0);
	ck_assert_uint_eq(r.dst[BIG - 1], 0);
	ck_assert_uint_eq(desc_status(&r, 0), 0);
	ck_assert_int_eq(cget(&r.irqs), 0);

	/* Again, from the top, without pausing. */
	writel((uint32_t)r.ring_dma, r.regs + DMAEMU_CE_REG_RING_LO);
	writel((uint32_t)(r.ring_dma >> 32), r.regs + DMAEMU_CE_REG_RING_HI);
	writel(16, r.regs + DMAEMU_CE_REG_RING_SIZE);
	writel(DMAEMU_CE_INT_DONE | DMAEMU_CE_INT_ERROR,
	       r.regs + DMAEMU_CE_REG_INT_ENABLE);
	writel(DMAEMU_CE_CTRL_ENABLE, r.regs + DMAEMU_CE_REG_CTRL);
	writel(1, r.regs + DMAEMU_CE_REG_TAIL);
	WAIT_FOR(cget(&r.irqs) == 1);
	ck_assert_uint_eq(cget(&r.int_status), DMAEMU_CE_INT_DONE);
	ck_assert_uint_eq(desc_status(&r, 0), DMAEMU_CE_DESC_DONE);
	ck_assert(!memcmp(r.dst, r.src, BIG));

	/* A reset racing a running transfer: whatever it caught, the engine
	 * ends idle and at reset values, and the process is fine. */
	put_desc(&r, 1, DMAEMU_CE_OP_COPY, BIG, r.dst_dma, r.src_dma);
	writel(2, r.regs + DMAEMU_CE_REG_TAIL);
	writel(DMAEMU_CE_CTRL_RESET, r.regs + DMAEMU_CE_REG_CTRL);
	ck_assert_uint_eq(reg(&r, DMAEMU_CE_REG_STATUS), 0);
	ck_assert_uint_eq(reg(&r, DMAEMU_CE_REG_TAIL), 0);
	raw_close(&r);
	ck_assert_uint_eq(dmaemu_report_count(r.m, NULL), 0);
	dmaemu_machine_destroy(r.m);
}
END_TEST

/*
 * A report the engine's thread makes names the driver's line in its
 * SUMMARY: the source is written after its map and never synced, the
 * engine reads it (stale-device-read on arm64, on the device's thread),
 * and the SUMMARY points at the dma_map_single() of this file, not at
 * the model's code.
 */
START_TEST(test_device_report_summary)
{
	struct dmaemu_report rep;
	char want[96], *sum;
	struct raw r;
	dma_addr_t s;
	uint8_t *buf;
	int line;

	raw_open(&r, "arm64", 256, true);
	buf = kmalloc(256, GFP_KERNEL);
	ck_assert_ptr_nonnull(buf);
	memset(buf, 0x11, 256);
	line = __LINE__ + 1;
	s = dma_map_single(r.dev, buf, 256, DMA_TO_DEVICE);
	ck_assert(!dma_mapping_error(r.dev, s));
	memset(buf, 0x22, 64); /* after the map: never cleaned */
	put_desc(&r, 0, DMAEMU_CE_OP_COPY, 256, s, r.dst_dma);
	writel(DMAEMU_CE_CTRL_ENABLE, r.regs + DMAEMU_CE_REG_CTRL);
	writel(1, r.regs + DMAEMU_CE_REG_TAIL);
	WAIT_FOR(cget(&r.irqs) == 1);
	ck_assert_uint_eq(r.dst[0], 0x11); /* what memory held */
	dma_unmap_single(r.dev, s, 256, DMA_TO_DEVICE);
	kfree(buf);
	ck_assert_uint_eq(dmaemu_report_count(r.m, "stale-device-read"), 1);
	ck_assert_int_eq(dmaemu_report_get(r.m, 0, &rep), 0);
	ck_assert_str_eq(rep.kind_name, "stale-device-read");
	ck_assert_ptr_nonnull(strstr(rep.text, "copy-engine.c"));
	sum = strstr(rep.text, "SUMMARY: dmaemu: stale-device-read ");
	ck_assert_ptr_nonnull(sum);
	snprintf(want, sizeof(want),
		 "check-copy-engine.c:%d in test_device_report_summary", line);
	ck_assert_msg(strstr(sum, want), "SUMMARY does not name %s: %s", want,
		      sum);
	raw_close(&r);
	dmaemu_machine_destroy(r.m);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("copy-engine");
	TCase *tc = tcase_create("driver");

	tcase_set_timeout(tc, 300);
	tcase_add_loop_test(tc, test_end_to_end, 0, 3);
	tcase_add_loop_test(tc, test_descriptor_faults, 0, 3);
	suite_add_tcase(s, tc);
	tc = tcase_create("registers");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_coalescing);
	tcase_add_loop_test(tc, test_ring_faults, 0, 3);
	tcase_add_loop_test(tc, test_reset_mid_transfer, 0, 3);
	tcase_add_test(tc, test_device_report_summary);
	suite_add_tcase(s, tc);
	return check_run(s);
}
