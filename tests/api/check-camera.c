// SPDX-License-Identifier: MIT
/*
 * check-camera.c - the streaming camera (docs/devices/camera.md) on every
 * profile: frames of the seeded pattern land in DMA_ATTR_NO_KERNEL_MAPPING
 * buffers that the CPU never maps, and a "user" reads them through
 * dma_mmap_attrs(); buffers given back are refilled in ring order; a
 * period with no buffer is a drop; a bad buffer address stops the stream
 * with the error bit and the interrupt; registers and reset.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <dmaemu/device.h>
#include <dmaemu/devices/camera.h>
#include <dmaemu/machine.h>
#include <dmaemu/report.h>
#include <dmaemu/vma.h>
#include <linux/dma-mapping.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/mm.h>

#include "check-run.h"
#include "threads.h"

#define WAIT_FOR(cond) WAIT_UNTIL(cond, 20000)
#define NBUF 4
#define FRAME 8192
#define SEED 7

static const char *const profiles[] = {"arm", "arm64", "x86"};
static const unsigned long nkm = DMA_ATTR_NO_KERNEL_MAPPING;

struct cam {
	struct dmaemu_machine *m;
	struct dmaemu_device *d;
	struct device *dev;
	uint8_t *regs;
	unsigned int irq;
	counter_t filled[NBUF]; /* frames the handler saw land in buffer n */
	counter_t seen;		/* INT_STATUS bits acknowledged */
	void *cookie[NBUF];
	dma_addr_t dma[NBUF];
	struct vm_area_struct vma[NBUF];
};

static irqreturn_t cam_irq(int irq, void *data)
{
	struct cam *c = data;
	uint32_t st = readl(c->regs + DMAEMU_CAM_REG_INT_STATUS);
	uint32_t done;
	unsigned int n;

	(void)irq;
	if (!st)
		return IRQ_NONE;
	writel(st, c->regs + DMAEMU_CAM_REG_INT_STATUS);
	done = readl(c->regs + DMAEMU_CAM_REG_DONE);
	writel(done, c->regs + DMAEMU_CAM_REG_DONE);
	for (n = 0; n < NBUF; n++)
		if (done & (1u << n))
			cinc(&c->filled[n]);
	cset(&c->seen, cget(&c->seen) | (int)st);
	return IRQ_HANDLED;
}

static uint32_t reg(struct cam *c, unsigned int off)
{
	return readl(c->regs + off);
}

static void cam_open(struct cam *c, const char *profile)
{
	char opts[96];
	unsigned int n;

	memset(c, 0, sizeof(*c));
	snprintf(opts, sizeof(opts), "profile=%s:log_path=/dev/null", profile);
	c->m = dmaemu_machine_create(opts);
	ck_assert_ptr_nonnull(c->m);
	c->d = dmaemu_camera_create(c->m, "cam0");
	ck_assert_ptr_nonnull(c->d);
	c->dev = dmaemu_device_to_dev(c->d);
	c->regs = dmaemu_device_regs(c->d);
	ck_assert_uint_eq(reg(c, DMAEMU_CAM_REG_ID), DMAEMU_CAM_ID_VALUE);
	ck_assert_int_eq(dma_set_mask_and_coherent(c->dev, DMA_BIT_MASK(64)),
			 0);
	c->irq = (unsigned int)dmaemu_device_irq(c->d, 0);
	ck_assert_int_eq(request_irq(c->irq, cam_irq, 0, "cam0", c), 0);
	for (n = 0; n < NBUF; n++) {
		c->cookie[n] = dma_alloc_attrs(c->dev, FRAME, &c->dma[n],
					       GFP_KERNEL, nkm);
		ck_assert_ptr_nonnull(c->cookie[n]);
		c->vma[n].vm_start = 0;
		c->vma[n].vm_end = FRAME;
		ck_assert_int_eq(dma_mmap_attrs(c->dev, &c->vma[n],
						c->cookie[n], c->dma[n], FRAME,
						nkm),
				 0);
		writel((uint32_t)c->dma[n], c->regs + DMAEMU_CAM_REG_BUF_LO(n));
		writel((uint32_t)(c->dma[n] >> 32),
		       c->regs + DMAEMU_CAM_REG_BUF_HI(n));
	}
	writel(FRAME, c->regs + DMAEMU_CAM_REG_FRAME_SIZE);
	writel(100, c->regs + DMAEMU_CAM_REG_PERIOD_US);
	writel(SEED, c->regs + DMAEMU_CAM_REG_SEED);
	writel(DMAEMU_CAM_INT_FRAME | DMAEMU_CAM_INT_ERROR |
		       DMAEMU_CAM_INT_DROP,
	       c->regs + DMAEMU_CAM_REG_INT_ENABLE);
}

static void cam_close(struct cam *c, uint64_t reports)
{
	unsigned int n;

	writel(DMAEMU_CAM_CTRL_RESET, c->regs + DMAEMU_CAM_REG_CTRL);
	ck_assert_uint_eq(reg(c, DMAEMU_CAM_REG_CTRL), 0);
	free_irq(c->irq, c);
	for (n = 0; n < NBUF; n++) {
		dmaemu_vma_unmap(&c->vma[n]);
		dma_free_attrs(c->dev, FRAME, c->cookie[n], c->dma[n], nkm);
	}
	dmaemu_device_destroy(c->d);
	ck_assert_uint_eq(dmaemu_report_count(c->m, NULL), reports);
	dmaemu_machine_destroy(c->m);
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

/* Frames 0..11 through four buffers, each checked by the "user" through
 * its dma_mmap_attrs() view and given back. */
START_TEST(test_stream)
{
	int used[NBUF] = {0};
	struct cam c;
	uint32_t seq;
	size_t i;

	cam_open(&c, profiles[_i]);
	for (i = 0; i < NBUF; i++)
		writel((uint32_t)i, c.regs + DMAEMU_CAM_REG_QUEUE);
	writel(DMAEMU_CAM_CTRL_ENABLE, c.regs + DMAEMU_CAM_REG_CTRL);
	ck_assert_uint_eq(reg(&c, DMAEMU_CAM_REG_STATUS),
			  DMAEMU_CAM_STATUS_RUNNING);
	for (seq = 0; seq < 12; seq++) {
		unsigned int n = seq % NBUF;
		const uint8_t *u;

		WAIT_FOR(cget(&c.filled[n]) > used[n]);
		used[n]++;
		u = (const uint8_t *)c.vma[n].vm_start;
		ck_assert_uint_eq(le32(u), DMAEMU_CAM_MAGIC);
		ck_assert_uint_eq(le32(u + 4), seq);
		ck_assert_uint_eq(le32(u + 8), FRAME);
		ck_assert_uint_eq(le32(u + 12), n);
		for (i = DMAEMU_CAM_HEADER; i < FRAME; i++)
			ck_assert_uint_eq(u[i],
					  dmaemu_camera_pattern(SEED, seq, i));
		writel(n, c.regs + DMAEMU_CAM_REG_QUEUE);
	}
	writel(0, c.regs + DMAEMU_CAM_REG_CTRL);
	ck_assert_uint_ge(reg(&c, DMAEMU_CAM_REG_FRAMES), 12);
	ck_assert_uint_eq(reg(&c, DMAEMU_CAM_REG_STATUS), 0);
	cam_close(&c, 0);
}
END_TEST

/* No buffer queued: every period is a drop, with its interrupt. */
START_TEST(test_drops)
{
	struct cam c;

	cam_open(&c, profiles[_i]);
	writel(DMAEMU_CAM_CTRL_ENABLE, c.regs + DMAEMU_CAM_REG_CTRL);
	WAIT_FOR(reg(&c, DMAEMU_CAM_REG_DROPPED) >= 3);
	WAIT_FOR(cget(&c.seen) & DMAEMU_CAM_INT_DROP);
	ck_assert_uint_eq(reg(&c, DMAEMU_CAM_REG_FRAMES), 0);
	/* A buffer given back is filled at the next period. */
	writel(2, c.regs + DMAEMU_CAM_REG_QUEUE);
	WAIT_FOR(cget(&c.filled[2]) == 1);
	ck_assert_uint_eq(le32((const uint8_t *)c.vma[2].vm_start),
			  DMAEMU_CAM_MAGIC);
	cam_close(&c, 0);
}
END_TEST

/* A bad buffer address: the error bit, the address, the interrupt, the
 * stream stopped; the library reports the access. */
START_TEST(test_bad_buffer)
{
	struct cam c;
	uint64_t bad = 0xdead0000ULL;

	cam_open(&c, profiles[_i]);
	writel((uint32_t)bad, c.regs + DMAEMU_CAM_REG_BUF_LO(1));
	writel((uint32_t)(bad >> 32), c.regs + DMAEMU_CAM_REG_BUF_HI(1));
	writel(1, c.regs + DMAEMU_CAM_REG_QUEUE);
	writel(DMAEMU_CAM_CTRL_ENABLE, c.regs + DMAEMU_CAM_REG_CTRL);
	WAIT_FOR(cget(&c.seen) & DMAEMU_CAM_INT_ERROR);
	ck_assert_uint_eq(reg(&c, DMAEMU_CAM_REG_CTRL), 0);
	ck_assert_uint_eq(reg(&c, DMAEMU_CAM_REG_ERR_ADDR_LO),
			  (uint32_t)bad + DMAEMU_CAM_HEADER);
	ck_assert_uint_eq(reg(&c, DMAEMU_CAM_REG_ERR_ADDR_HI), 0);
	ck_assert_uint_eq(reg(&c, DMAEMU_CAM_REG_FRAMES), 0);
	ck_assert_uint_eq(dmaemu_report_count(c.m, NULL), 1);
	cam_close(&c, 1);
}
END_TEST

/* Register values: reset state, limits, reset clears. */
START_TEST(test_registers)
{
	struct cam c;

	cam_open(&c, "arm64");
	ck_assert_uint_eq(reg(&c, DMAEMU_CAM_REG_FRAME_SIZE), FRAME);
	writel(3, c.regs + DMAEMU_CAM_REG_FRAME_SIZE);	       /* too small */
	writel(FRAME + 2, c.regs + DMAEMU_CAM_REG_FRAME_SIZE); /* not 4n */
	writel(DMAEMU_CAM_MAX_FRAME + 4, c.regs + DMAEMU_CAM_REG_FRAME_SIZE);
	ck_assert_uint_eq(reg(&c, DMAEMU_CAM_REG_FRAME_SIZE), FRAME);
	ck_assert_uint_eq(reg(&c, DMAEMU_CAM_REG_BUF_LO(3)),
			  (uint32_t)c.dma[3]);
	writel(DMAEMU_CAM_CTRL_RESET, c.regs + DMAEMU_CAM_REG_CTRL);
	ck_assert_uint_eq(reg(&c, DMAEMU_CAM_REG_FRAME_SIZE), 4096);
	ck_assert_uint_eq(reg(&c, DMAEMU_CAM_REG_PERIOD_US), 1000);
	ck_assert_uint_eq(reg(&c, DMAEMU_CAM_REG_BUF_LO(3)), 0);
	ck_assert_uint_eq(reg(&c, DMAEMU_CAM_REG_INT_ENABLE), 0);
	cam_close(&c, 0);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("camera");
	TCase *tc = tcase_create("stream");

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_stream, 0, 3);
	tcase_add_loop_test(tc, test_drops, 0, 3);
	tcase_add_loop_test(tc, test_bad_buffer, 0, 3);
	tcase_add_test(tc, test_registers);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(suite());
}
