// SPDX-License-Identifier: MIT
/*
 * check-device-model.c - a device model written from the public headers
 * only, linked against the library that exports the public API only
 * (lib/libdmaemu.la): register windows, handlers, and device-side DMA
 * started from a register write.
 *
 * The model: a checksum engine with four 32-bit registers,
 *   0x0 ADDR_LO, 0x4 ADDR_HI, 0x8 LEN   what to read (bus address, bytes)
 *   0xc CTRL    writing 1 reads [ADDR, +LEN) by DMA and stores the byte
 *               sum in SUM; reads back the last command
 *   0x10 SUM    the result (read-only: a write is ignored by the model)
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <dmaemu/device.h>
#include <dmaemu/machine.h>
#include <dmaemu/report.h>
#include <linux/dma-mapping.h>
#include <linux/io.h>
#include <linux/slab.h>

#include "check-run.h"

#define REG_ADDR_LO 0x0
#define REG_ADDR_HI 0x4
#define REG_LEN 0x8
#define REG_CTRL 0xc
#define REG_SUM 0x10
#define NREGS 5

struct engine {
	uint32_t reg[NREGS];
	unsigned int reads, writes, released;
	unsigned int last_size;
	int dma_ret;
};

static uint64_t engine_read(struct dmaemu_device *dev, uint64_t off,
			    unsigned int size)
{
	struct engine *e = dmaemu_device_priv(dev);

	e->reads++;
	e->last_size = size;
	return off / 4 < NREGS ? e->reg[off / 4] >> (8 * (off % 4)) : 0;
}

static void engine_write(struct dmaemu_device *dev, uint64_t off, uint64_t val,
			 unsigned int size)
{
	struct engine *e = dmaemu_device_priv(dev);
	uint8_t buf[256];
	uint32_t sum = 0, i;
	dma_addr_t addr;

	e->writes++;
	e->last_size = size;
	if (off / 4 >= NREGS || off == REG_SUM)
		return;
	e->reg[off / 4] = (uint32_t)val;
	if (off != REG_CTRL || val != 1)
		return;
	addr = (dma_addr_t)e->reg[REG_ADDR_HI / 4] << 32 |
	       e->reg[REG_ADDR_LO / 4];
	if (e->reg[REG_LEN / 4] > sizeof(buf)) {
		e->dma_ret = -EINVAL;
		return;
	}
	e->dma_ret = dmaemu_dma_read(dev, addr, buf, e->reg[REG_LEN / 4]);
	for (i = 0; !e->dma_ret && i < e->reg[REG_LEN / 4]; i++)
		sum += buf[i];
	e->reg[REG_SUM / 4] = sum;
}

static void engine_release(struct dmaemu_device *dev)
{
	struct engine *e = dmaemu_device_priv(dev);

	e->released++;
}

static const struct dmaemu_device_ops engine_ops = {
	.mmio_size = 0x14,
	.mmio_read = engine_read,
	.mmio_write = engine_write,
	.release = engine_release,
};

static const char *const profiles[] = {"profile=arm64:log_path=/dev/null",
				       "profile=arm:log_path=/dev/null",
				       "profile=x86:log_path=/dev/null"};

/* The registers reach the handlers with their offsets and widths. */
START_TEST(test_registers)
{
	struct dmaemu_machine *m = dmaemu_machine_create(profiles[_i]);
	struct engine e = {0};
	struct dmaemu_device *d;
	uint8_t *regs;

	ck_assert_ptr_nonnull(m);
	d = dmaemu_device_create(m, "engine0", &engine_ops, &e);
	ck_assert_ptr_nonnull(d);
	regs = dmaemu_device_regs(d);
	ck_assert_ptr_nonnull(regs);

	writel(0x12345678, regs + REG_LEN);
	ck_assert_uint_eq(e.reg[REG_LEN / 4], 0x12345678);
	ck_assert_uint_eq(e.last_size, 4);
	ck_assert_uint_eq(readl(regs + REG_LEN), 0x12345678);
	ck_assert_uint_eq(readb(regs + REG_LEN + 1), 0x56);
	ck_assert_uint_eq(e.last_size, 1);
	ck_assert_uint_eq(readw(regs + REG_LEN + 2), 0x1234);
	ck_assert_uint_eq(e.last_size, 2);
	writel_relaxed(7, regs + REG_ADDR_LO);
	ck_assert_uint_eq(readl_relaxed(regs + REG_ADDR_LO), 7);
	ck_assert_uint_eq(e.writes, 2);
	ck_assert_uint_eq(e.reads, 4);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 0);

	dmaemu_device_destroy(d);
	ck_assert_uint_eq(e.released, 1);
	dmaemu_machine_destroy(m);
}
END_TEST

/* A register write starts DMA that reads what the driver mapped. */
START_TEST(test_doorbell_dma)
{
	struct dmaemu_machine *m = dmaemu_machine_create(profiles[_i]);
	struct engine e = {0};
	struct dmaemu_device *d;
	struct device *dev;
	uint8_t *buf;
	dma_addr_t dma;
	uint8_t *regs;
	unsigned int i, want = 0;

	ck_assert_ptr_nonnull(m);
	d = dmaemu_device_create(m, "engine0", &engine_ops, &e);
	ck_assert_ptr_nonnull(d);
	dev = dmaemu_device_to_dev(d);
	regs = dmaemu_device_regs(d);
	buf = kmalloc(128, GFP_KERNEL);
	ck_assert_ptr_nonnull(buf);
	for (i = 0; i < 128; i++) {
		buf[i] = (uint8_t)(i * 3 + 1);
		want += buf[i];
	}
	dma = dma_map_single(dev, buf, 128, DMA_TO_DEVICE);
	ck_assert(!dma_mapping_error(dev, dma));
	writel((uint32_t)dma, regs + REG_ADDR_LO);
	writel((uint32_t)(dma >> 32), regs + REG_ADDR_HI);
	writel(128, regs + REG_LEN);
	writel(1, regs + REG_CTRL);
	ck_assert_int_eq(e.dma_ret, 0);
	ck_assert_uint_eq(readl(regs + REG_SUM), want);
	/* SUM is read-only in the model: the write is seen, not stored. */
	writel(0, regs + REG_SUM);
	ck_assert_uint_eq(readl(regs + REG_SUM), want);
	dma_unmap_single(dev, dma, 128, DMA_TO_DEVICE);

	/* Unmapped now: the next command is a device fault, not a crash.
	 * DRAM still answers there, but the sanitizer refuses the access as
	 * an IOMMU would; outside DRAM the bus faults. */
	writel(1, regs + REG_CTRL);
	ck_assert_int_eq(e.dma_ret, -EFAULT);
	ck_assert_uint_eq(dmaemu_report_count(m, "device-access-unmapped"), 1);
	writel(0xffffff00, regs + REG_ADDR_LO);
	writel(0xff, regs + REG_ADDR_HI);
	writel(1, regs + REG_CTRL);
	ck_assert_int_eq(e.dma_ret, -EFAULT);
	ck_assert_uint_eq(dmaemu_report_count(m, "dma-fault"), 1);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 2);

	kfree(buf);
	dmaemu_device_destroy(d);
	dmaemu_machine_destroy(m);
}
END_TEST

static const struct dmaemu_device_ops write_only_ops = {
	.mmio_size = 8,
	.mmio_write = engine_write,
};

/* Reading a write-only window is reported and reads all ones. */
START_TEST(test_write_only)
{
	struct dmaemu_machine *m = dmaemu_machine_create(profiles[0]);
	struct engine e = {0};
	struct dmaemu_device *d;

	ck_assert_ptr_nonnull(m);
	d = dmaemu_device_create(m, "wo0", &write_only_ops, &e);
	ck_assert_ptr_nonnull(d);
	writel(5, dmaemu_device_regs(d));
	ck_assert_uint_eq(e.reg[0], 5);
	ck_assert_uint_eq(readl(dmaemu_device_regs(d)), 0xffffffff);
	ck_assert_uint_eq(e.reads, 0);
	ck_assert_uint_eq(dmaemu_report_count(m, "mmio-access"), 1);
	/* Past the end of the 8-byte window: no registers there. */
	ck_assert_uint_eq(readl((uint8_t *)dmaemu_device_regs(d) + 8),
			  0xffffffff);
	ck_assert_uint_eq(dmaemu_report_count(m, "mmio-access"), 2);
	dmaemu_device_destroy(d);
	dmaemu_machine_destroy(m);
}
END_TEST

static const struct dmaemu_device_ops no_handler_ops = {.mmio_size = 16};
static const struct dmaemu_device_ops no_size_ops = {.mmio_read = engine_read};

/* Unusable ops are a bad-argument report and EINVAL, never a crash. */
START_TEST(test_bad_ops)
{
	struct dmaemu_machine *m = dmaemu_machine_create(profiles[0]);
	struct dmaemu_device *d;
	struct engine e = {0};

	ck_assert_ptr_nonnull(m);
	errno = 0;
	ck_assert_ptr_null(dmaemu_device_create(m, "x", &no_handler_ops, &e));
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_ptr_null(dmaemu_device_create(m, "y", &no_size_ops, &e));
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_uint_eq(dmaemu_report_count(m, "bad-argument"), 2);
	/* A bare device has no registers. */
	d = dmaemu_device_create(m, "bare", NULL, NULL);
	ck_assert_ptr_nonnull(d);
	ck_assert_ptr_null(dmaemu_device_regs(d));
	ck_assert_ptr_null(dmaemu_device_regs(NULL));
	dmaemu_device_destroy(d);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 2);
	dmaemu_machine_destroy(m);
}
END_TEST

/* Windows of several devices do not overlap; each reaches its model. */
START_TEST(test_two_windows)
{
	struct dmaemu_machine *m = dmaemu_machine_create(profiles[0]);
	struct engine a = {0}, b = {0};
	struct dmaemu_device *da, *db;

	ck_assert_ptr_nonnull(m);
	da = dmaemu_device_create(m, "a", &engine_ops, &a);
	db = dmaemu_device_create(m, "b", &engine_ops, &b);
	ck_assert_ptr_nonnull(da);
	ck_assert_ptr_nonnull(db);
	ck_assert_ptr_ne(dmaemu_device_regs(da), dmaemu_device_regs(db));
	writel(1111, (uint8_t *)dmaemu_device_regs(da) + REG_LEN);
	writel(2222, (uint8_t *)dmaemu_device_regs(db) + REG_LEN);
	ck_assert_uint_eq(a.reg[REG_LEN / 4], 1111);
	ck_assert_uint_eq(b.reg[REG_LEN / 4], 2222);
	dmaemu_device_destroy(da);
	/* b's window still works after a's is gone. */
	ck_assert_uint_eq(readl((uint8_t *)dmaemu_device_regs(db) + REG_LEN),
			  2222);
	dmaemu_device_destroy(db);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 0);
	dmaemu_machine_destroy(m);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("device-model");
	TCase *tc = tcase_create("device-model");

	tcase_add_loop_test(tc, test_registers, 0, 3);
	tcase_add_loop_test(tc, test_doorbell_dma, 0, 3);
	tcase_add_test(tc, test_write_only);
	tcase_add_test(tc, test_bad_ops);
	tcase_add_test(tc, test_two_windows);
	suite_add_tcase(s, tc);
	return check_run(s);
}
