// SPDX-License-Identifier: MIT
/*
 * check-legacy.c - the legacy block device model (libdmaemu-devices) from
 * the public headers only: its 32-bit DMA masks, blocks written to its
 * store and read back on every profile, FILL, buffers above 4 GiB bounced
 * by swiotlb (the device's data reaches the driver's buffer only through
 * dma_sync_single_for_cpu() or the unmap), errors (opcode, length, store
 * range, an address outside DRAM) that raise the interrupt and leave the
 * device usable, and reset, which keeps the store.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <dmaemu/device.h>
#include <dmaemu/devices/legacy.h>
#include <dmaemu/machine.h>
#include <dmaemu/report.h>
#include <dmaemu/testing.h>
#include <linux/dma-mapping.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/platform_device.h>
#include <linux/slab.h>

#include "check-run.h"
#include "threads.h"

#define WAIT_FOR(cond) WAIT_UNTIL(cond, 20000)

static const char *const profiles[] = {"arm", "arm64", "x86"};

struct blk {
	struct dmaemu_machine *m;
	struct dmaemu_device *d;
	struct device *dev;
	uint8_t *regs;
	unsigned int irq;
	counter_t irqs;
	counter_t seen;
};

static irqreturn_t blk_irq(int irq, void *data)
{
	struct blk *b = data;
	uint32_t st = readl(b->regs + DMAEMU_LEGACY_REG_INT_STATUS);

	(void)irq;
	if (!st)
		return IRQ_NONE;
	writel(st, b->regs + DMAEMU_LEGACY_REG_INT_STATUS);
	cset(&b->seen, cget(&b->seen) | (int)st);
	cinc(&b->irqs);
	return IRQ_HANDLED;
}

static void blk_open(struct blk *b, const char *profile, const char *more)
{
	char opts[128];

	memset(b, 0, sizeof(*b));
	snprintf(opts, sizeof(opts), "profile=%s:log_path=/dev/null%s%s",
		 profile, more ? ":" : "", more ? more : "");
	b->m = dmaemu_machine_create(opts);
	ck_assert_ptr_nonnull(b->m);
	b->d = dmaemu_legacy_create(b->m, "blk0");
	ck_assert_ptr_nonnull(b->d);
	b->dev = dmaemu_device_to_dev(b->d);
	b->regs = dmaemu_device_regs(b->d);
	ck_assert_uint_eq(readl(b->regs + DMAEMU_LEGACY_REG_ID),
			  DMAEMU_LEGACY_ID_VALUE);
	b->irq = (unsigned int)dmaemu_device_irq(b->d, 0);
	ck_assert_int_eq(request_irq(b->irq, blk_irq, 0, "blk0", b), 0);
	writel(DMAEMU_LEGACY_INT_DONE | DMAEMU_LEGACY_INT_ERROR,
	       b->regs + DMAEMU_LEGACY_REG_INT_ENABLE);
}

static void blk_close(struct blk *b, uint64_t reports)
{
	writel(DMAEMU_LEGACY_CMD_RESET, b->regs + DMAEMU_LEGACY_REG_CMD);
	free_irq(b->irq, b);
	dmaemu_device_destroy(b->d);
	ck_assert_uint_eq(dmaemu_report_count(b->m, NULL), reports);
	dmaemu_machine_destroy(b->m);
}

static uint32_t reg(struct blk *b, unsigned int off)
{
	return readl(b->regs + off);
}

/* One command; waits for its interrupt.  Return: INT_STATUS seen. */
static uint32_t cmd(struct blk *b, uint32_t op, uint32_t addr, uint32_t off,
		    uint32_t len)
{
	int before = cget(&b->irqs);

	cset(&b->seen, 0);
	writel(addr, b->regs + DMAEMU_LEGACY_REG_ADDR);
	writel(len, b->regs + DMAEMU_LEGACY_REG_LEN);
	writel(off, b->regs + DMAEMU_LEGACY_REG_OFFSET);
	writel(op, b->regs + DMAEMU_LEGACY_REG_CMD);
	WAIT_FOR(cget(&b->irqs) > before && !(reg(b, DMAEMU_LEGACY_REG_STATUS) &
					      DMAEMU_LEGACY_STATUS_BUSY));
	return (uint32_t)cget(&b->seen);
}

static void fill(uint8_t *p, size_t n, unsigned int seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(seed + i * 5 + (i >> 8));
}

/* A driver bound during creation: its probe sets the mask it is given. */
static u64 probe_mask;

static int mask_probe(struct platform_device *pdev)
{
	return dma_set_mask_and_coherent(&pdev->dev, probe_mask);
}

static int mask_remove(struct platform_device *pdev)
{
	(void)pdev;
	return 0;
}

static struct platform_driver mask_driver = {
	.probe = mask_probe,
	.remove = mask_remove,
	.driver = {.name = DMAEMU_LEGACY_NAME},
};

/* The masks a probe set: wider than 32 bits, narrowed to 32 after it; a
 * narrower one (an ISA-style 24-bit part) kept. */
START_TEST(test_probe_masks)
{
	static const u64 set[] = {DMA_BIT_MASK(64), DMA_BIT_MASK(24)};
	static const u64 want[] = {DMA_BIT_MASK(32), DMA_BIT_MASK(24)};
	struct dmaemu_machine *m;
	struct dmaemu_device *d;
	struct device *dev;

	/* DRAM below 16 MiB: a 24-bit mask is supported there. */
	m = dmaemu_machine_create(
		"mem_base=0x100000:mem=15M:log_path=/dev/null");
	ck_assert_ptr_nonnull(m);
	probe_mask = set[_i];
	ck_assert_int_eq(platform_driver_register(&mask_driver), 0);
	d = dmaemu_legacy_create(m, "blk0");
	ck_assert_ptr_nonnull(d);
	dev = dmaemu_device_to_dev(d);
	ck_assert_ptr_eq(dev_get_drvdata(dev), NULL);
	ck_assert_uint_eq(dma_get_mask(dev), want[_i]);
	ck_assert_uint_eq(dev->coherent_dma_mask, want[_i]);
	dmaemu_device_destroy(d);
	platform_driver_unregister(&mask_driver);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 0);
	dmaemu_machine_destroy(m);
}
END_TEST

START_TEST(test_masks)
{
	struct blk b;
	dma_addr_t dma;
	void *p;

	blk_open(&b, profiles[_i], "highmem=64M");
	ck_assert_uint_eq(dma_get_mask(b.dev), DMA_BIT_MASK(32));
	ck_assert_uint_eq(b.dev->coherent_dma_mask, DMA_BIT_MASK(32));
	/* Coherent memory comes from below 4 GiB, with no bounce. */
	p = dma_alloc_coherent(b.dev, 4096, &dma, GFP_KERNEL);
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_le(dma + 4096, 1ULL << 32);
	dma_free_coherent(b.dev, 4096, p, dma);
	blk_close(&b, 0);
}
END_TEST

#define LEN (48 * 1024 + 100)

/* Write a block, read it back elsewhere: memory below 4 GiB, no bounce. */
START_TEST(test_round_trip)
{
	struct dmaemu_swiotlb_info si;
	struct blk b;
	uint8_t *src, *dst;
	dma_addr_t s, d;

	blk_open(&b, profiles[_i], NULL);
	src = kmalloc(LEN, GFP_KERNEL);
	dst = kmalloc(LEN, GFP_KERNEL);
	ck_assert_ptr_nonnull(src);
	ck_assert_ptr_nonnull(dst);
	fill(src, LEN, 3);
	memset(dst, 0, LEN);
	s = dma_map_single(b.dev, src, LEN, DMA_TO_DEVICE);
	ck_assert(!dma_mapping_error(b.dev, s));
	ck_assert_uint_eq(s, virt_to_phys(src));
	ck_assert_uint_eq(
		cmd(&b, DMAEMU_LEGACY_CMD_WRITE, (uint32_t)s, 4096, LEN),
		DMAEMU_LEGACY_INT_DONE);
	dma_unmap_single(b.dev, s, LEN, DMA_TO_DEVICE);
	d = dma_map_single(b.dev, dst, LEN, DMA_FROM_DEVICE);
	ck_assert(!dma_mapping_error(b.dev, d));
	ck_assert_uint_eq(
		cmd(&b, DMAEMU_LEGACY_CMD_READ, (uint32_t)d, 4096, LEN),
		DMAEMU_LEGACY_INT_DONE);
	dma_unmap_single(b.dev, d, LEN, DMA_FROM_DEVICE);
	ck_assert(!memcmp(dst, src, LEN));
	ck_assert_uint_eq(reg(&b, DMAEMU_LEGACY_REG_COMPLETED), 2);
	ck_assert_int_eq(dmaemu_swiotlb_info(b.m, &si), 0);
	ck_assert_uint_eq(si.maps, 0);

	/* FILL: the pattern, little-endian, from the first byte. */
	d = dma_map_single(b.dev, dst, 64, DMA_FROM_DEVICE);
	ck_assert(!dma_mapping_error(b.dev, d));
	writel(0x04030201, b.regs + DMAEMU_LEGACY_REG_PATTERN);
	ck_assert_uint_eq(cmd(&b, DMAEMU_LEGACY_CMD_FILL, (uint32_t)d, 0, 10),
			  DMAEMU_LEGACY_INT_DONE);
	dma_unmap_single(b.dev, d, 64, DMA_FROM_DEVICE);
	ck_assert_uint_eq(dst[0], 1);
	ck_assert_uint_eq(dst[3], 4);
	ck_assert_uint_eq(dst[8], 1);
	ck_assert_uint_eq(dst[9], 2);
	ck_assert_uint_eq(dst[10], src[10]);
	/* FILL ignores OFFSET, even one far beyond the store (the model
	 * pointed into the store at it all the same: UBSan's finding,
	 * from tests/fuzz/fuzz-devices). */
	d = dma_map_single(b.dev, dst, 64, DMA_FROM_DEVICE);
	ck_assert(!dma_mapping_error(b.dev, d));
	writel(0x0d0c0b0a, b.regs + DMAEMU_LEGACY_REG_PATTERN);
	ck_assert_uint_eq(
		cmd(&b, DMAEMU_LEGACY_CMD_FILL, (uint32_t)d, 0x24242421, 4),
		DMAEMU_LEGACY_INT_DONE);
	dma_unmap_single(b.dev, d, 64, DMA_FROM_DEVICE);
	ck_assert_uint_eq(dst[0], 0x0a);
	ck_assert_uint_eq(dst[3], 0x0d);
	kfree(dst);
	kfree(src);
	blk_close(&b, 0);
}
END_TEST

#define BLK 4096

/* Buffers in the bank above 4 GiB: bounced.  The device's block lands in
 * the bounce buffer; the driver's buffer gets it at sync_for_cpu. */
START_TEST(test_bounce)
{
	struct dmaemu_swiotlb_info si;
	struct blk b;
	uint8_t *src, *dst, want[BLK];
	dma_addr_t s, d;

	blk_open(&b, profiles[_i], "highmem=64M");
	src = kmalloc(BLK, GFP_KERNEL);
	dst = kmalloc(BLK, GFP_KERNEL);
	ck_assert_ptr_nonnull(src);
	ck_assert_ptr_nonnull(dst);
	ck_assert_uint_ge(virt_to_phys(src), 1ULL << 32);
	ck_assert_uint_ge(virt_to_phys(dst), 1ULL << 32);
	fill(want, BLK, 11);
	memcpy(src, want, BLK);
	memset(dst, 0xee, BLK);

	s = dma_map_single(b.dev, src, BLK, DMA_TO_DEVICE);
	ck_assert(!dma_mapping_error(b.dev, s));
	ck_assert_uint_lt(s, 1ULL << 32);
	ck_assert_uint_eq(cmd(&b, DMAEMU_LEGACY_CMD_WRITE, (uint32_t)s, 0, BLK),
			  DMAEMU_LEGACY_INT_DONE);
	dma_unmap_single(b.dev, s, BLK, DMA_TO_DEVICE);

	d = dma_map_single(b.dev, dst, BLK, DMA_FROM_DEVICE);
	ck_assert(!dma_mapping_error(b.dev, d));
	ck_assert_uint_lt(d, 1ULL << 32);
	ck_assert_uint_eq(cmd(&b, DMAEMU_LEGACY_CMD_READ, (uint32_t)d, 0, BLK),
			  DMAEMU_LEGACY_INT_DONE);
	/* Not synced: the driver's buffer still holds what it held. */
	ck_assert_uint_eq(dst[0], 0xee);
	ck_assert_uint_eq(dst[BLK - 1], 0xee);
	ck_assert_int_eq(dmaemu_swiotlb_info(b.m, &si), 0);
	ck_assert_uint_eq(si.maps, 2);
	ck_assert_uint_eq(si.bounced, BLK);
	dma_sync_single_for_cpu(b.dev, d, BLK, DMA_FROM_DEVICE);
	ck_assert(!memcmp(dst, want, BLK));
	ck_assert_int_eq(dmaemu_swiotlb_info(b.m, &si), 0);
	ck_assert_uint_eq(si.bounced, 2 * BLK);
	dma_unmap_single(b.dev, d, BLK, DMA_FROM_DEVICE);
	kfree(dst);
	kfree(src);
	blk_close(&b, 0);
}
END_TEST

/* Errors: code, address and interrupt; nothing moved; still usable. */
START_TEST(test_errors)
{
	struct blk b;
	uint8_t *buf;
	dma_addr_t d;

	blk_open(&b, profiles[_i], NULL);
	buf = kzalloc(4096, GFP_KERNEL);
	ck_assert_ptr_nonnull(buf);
	d = dma_map_single(b.dev, buf, 4096, DMA_BIDIRECTIONAL);
	ck_assert(!dma_mapping_error(b.dev, d));

	ck_assert_uint_eq(cmd(&b, 9, (uint32_t)d, 0, 64),
			  DMAEMU_LEGACY_INT_ERROR);
	ck_assert_uint_eq(reg(&b, DMAEMU_LEGACY_REG_ERR_CODE),
			  DMAEMU_LEGACY_ERR_OPCODE);
	ck_assert_uint_eq(cmd(&b, DMAEMU_LEGACY_CMD_READ, (uint32_t)d, 0, 0),
			  DMAEMU_LEGACY_INT_ERROR);
	ck_assert_uint_eq(reg(&b, DMAEMU_LEGACY_REG_ERR_CODE),
			  DMAEMU_LEGACY_ERR_LENGTH);
	ck_assert_uint_eq(cmd(&b, DMAEMU_LEGACY_CMD_READ, (uint32_t)d, 0,
			      DMAEMU_LEGACY_MAX_LEN + 1),
			  DMAEMU_LEGACY_INT_ERROR);
	ck_assert_uint_eq(reg(&b, DMAEMU_LEGACY_REG_ERR_CODE),
			  DMAEMU_LEGACY_ERR_LENGTH);
	ck_assert_uint_eq(cmd(&b, DMAEMU_LEGACY_CMD_WRITE, (uint32_t)d,
			      DMAEMU_LEGACY_STORE_SIZE - 100, 101),
			  DMAEMU_LEGACY_INT_ERROR);
	ck_assert_uint_eq(reg(&b, DMAEMU_LEGACY_REG_ERR_CODE),
			  DMAEMU_LEGACY_ERR_RANGE);
	ck_assert_uint_eq(reg(&b, DMAEMU_LEGACY_REG_ERR_ADDR), (uint32_t)d);
	ck_assert_uint_eq(dmaemu_report_count(b.m, NULL), 0);

	/* Below DRAM: the bus refuses, the device reports it. */
	ck_assert_uint_eq(cmd(&b, DMAEMU_LEGACY_CMD_READ, 0x1000, 0, 64),
			  DMAEMU_LEGACY_INT_ERROR);
	ck_assert_uint_eq(reg(&b, DMAEMU_LEGACY_REG_ERR_CODE),
			  DMAEMU_LEGACY_ERR_DMA);
	ck_assert_uint_eq(reg(&b, DMAEMU_LEGACY_REG_ERR_ADDR), 0x1000);
	ck_assert_uint_eq(cmd(&b, DMAEMU_LEGACY_CMD_WRITE, 0x1000, 0, 64),
			  DMAEMU_LEGACY_INT_ERROR);
	ck_assert_uint_eq(dmaemu_report_count(b.m, "dma-fault"), 2);
	ck_assert_uint_eq(reg(&b, DMAEMU_LEGACY_REG_COMPLETED), 0);

	/* The failed WRITE left the store alone (zeros): read it back. */
	memset(buf, 0x77, 4096);
	dma_sync_single_for_device(b.dev, d, 4096, DMA_BIDIRECTIONAL);
	ck_assert_uint_eq(cmd(&b, DMAEMU_LEGACY_CMD_READ, (uint32_t)d, 0, 64),
			  DMAEMU_LEGACY_INT_DONE);
	dma_sync_single_for_cpu(b.dev, d, 4096, DMA_BIDIRECTIONAL);
	ck_assert_uint_eq(buf[0], 0);
	ck_assert_uint_eq(buf[63], 0);
	ck_assert_uint_eq(buf[64], 0x77);
	ck_assert_uint_eq(reg(&b, DMAEMU_LEGACY_REG_COMPLETED), 1);
	dma_unmap_single(b.dev, d, 4096, DMA_BIDIRECTIONAL);
	kfree(buf);
	blk_close(&b, 2);
}
END_TEST

/* Reset: registers at reset values, the store kept. */
START_TEST(test_reset_keeps_store)
{
	struct blk b;
	uint8_t *buf;
	dma_addr_t d;

	blk_open(&b, "arm64", NULL);
	buf = kmalloc(256, GFP_KERNEL);
	ck_assert_ptr_nonnull(buf);
	fill(buf, 256, 7);
	d = dma_map_single(b.dev, buf, 256, DMA_BIDIRECTIONAL);
	ck_assert(!dma_mapping_error(b.dev, d));
	ck_assert_uint_eq(
		cmd(&b, DMAEMU_LEGACY_CMD_WRITE, (uint32_t)d, 512, 256),
		DMAEMU_LEGACY_INT_DONE);
	writel(0x1234, b.regs + DMAEMU_LEGACY_REG_PATTERN);
	writel(DMAEMU_LEGACY_CMD_RESET, b.regs + DMAEMU_LEGACY_REG_CMD);
	ck_assert_uint_eq(reg(&b, DMAEMU_LEGACY_REG_COMPLETED), 0);
	ck_assert_uint_eq(reg(&b, DMAEMU_LEGACY_REG_PATTERN), 0);
	ck_assert_uint_eq(reg(&b, DMAEMU_LEGACY_REG_ADDR), 0);
	ck_assert_uint_eq(reg(&b, DMAEMU_LEGACY_REG_INT_ENABLE), 0);
	ck_assert_uint_eq(reg(&b, DMAEMU_LEGACY_REG_CMD), 0);
	writel(DMAEMU_LEGACY_INT_DONE | DMAEMU_LEGACY_INT_ERROR,
	       b.regs + DMAEMU_LEGACY_REG_INT_ENABLE);
	dma_sync_single_for_cpu(b.dev, d, 256, DMA_BIDIRECTIONAL);
	memset(buf, 0, 256);
	dma_sync_single_for_device(b.dev, d, 256, DMA_BIDIRECTIONAL);
	ck_assert_uint_eq(
		cmd(&b, DMAEMU_LEGACY_CMD_READ, (uint32_t)d, 512, 256),
		DMAEMU_LEGACY_INT_DONE);
	dma_unmap_single(b.dev, d, 256, DMA_BIDIRECTIONAL);
	ck_assert_uint_eq(buf[0], 7);
	ck_assert_uint_eq(buf[255], (uint8_t)(7 + 255 * 5));
	kfree(buf);
	blk_close(&b, 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("legacy");
	TCase *tc = tcase_create("device");

	tcase_set_timeout(tc, 300);
	tcase_add_loop_test(tc, test_masks, 0, 3);
	tcase_add_loop_test(tc, test_probe_masks, 0, 2);
	tcase_add_loop_test(tc, test_round_trip, 0, 3);
	tcase_add_loop_test(tc, test_bounce, 0, 3);
	tcase_add_loop_test(tc, test_errors, 0, 3);
	tcase_add_test(tc, test_reset_keeps_store);
	suite_add_tcase(s, tc);
	return check_run(s);
}
