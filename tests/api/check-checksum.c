// SPDX-License-Identifier: MIT
/*
 * check-checksum.c - the checksum engine model (libdmaemu-devices) from
 * the public headers only: the CRC-32 it computes (the standard check
 * value, a buffer of several chunks), the result by DMA write, errors
 * (bad length, buffer and result addresses the bus cannot reach, START
 * while busy) that raise the interrupt and leave the engine usable,
 * reset, and one buffer shared with a second engine through
 * DMA_ATTR_SKIP_CPU_SYNC: the second map does no cache maintenance
 * (dmaemu_cpu_stats()'s maint_* counters), and skipping on the first map
 * too leaves the engine reading stale memory.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <dmaemu/cpu.h>
#include <dmaemu/device.h>
#include <dmaemu/devices/checksum.h>
#include <dmaemu/machine.h>
#include <dmaemu/report.h>
#include <linux/dma-mapping.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/slab.h>

#include "check-run.h"
#include "threads.h"

#define WAIT_FOR(cond) WAIT_UNTIL(cond, 20000)

static const char *const profiles[] = {"arm", "arm64", "x86"};

/* The reference: bit by bit, independent of the model's table. */
static uint32_t crc32_ref(const uint8_t *p, size_t n)
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

struct eng {
	struct dmaemu_machine *m;
	struct dmaemu_device *d;
	struct device *dev;
	uint8_t *regs;
	unsigned int irq;
	counter_t irqs;
	counter_t seen; /* INT_STATUS bits the handler acknowledged */
};

static irqreturn_t eng_irq(int irq, void *data)
{
	struct eng *e = data;
	uint32_t st = readl(e->regs + DMAEMU_CSUM_REG_INT_STATUS);

	(void)irq;
	if (!st)
		return IRQ_NONE;
	writel(st, e->regs + DMAEMU_CSUM_REG_INT_STATUS);
	cset(&e->seen, cget(&e->seen) | (int)st);
	cinc(&e->irqs);
	return IRQ_HANDLED;
}

static void eng_open(struct eng *e, const char *profile)
{
	char opts[96];

	memset(e, 0, sizeof(*e));
	snprintf(opts, sizeof(opts), "profile=%s:log_path=/dev/null", profile);
	e->m = dmaemu_machine_create(opts);
	ck_assert_ptr_nonnull(e->m);
	e->d = dmaemu_checksum_create(e->m, "csum0");
	ck_assert_ptr_nonnull(e->d);
	e->dev = dmaemu_device_to_dev(e->d);
	e->regs = dmaemu_device_regs(e->d);
	ck_assert_int_eq(dma_set_mask_and_coherent(e->dev, DMA_BIT_MASK(64)),
			 0);
	ck_assert_uint_eq(readl(e->regs + DMAEMU_CSUM_REG_ID),
			  DMAEMU_CSUM_ID_VALUE);
	e->irq = (unsigned int)dmaemu_device_irq(e->d, 0);
	ck_assert_int_eq(request_irq(e->irq, eng_irq, 0, "csum0", e), 0);
	writel(DMAEMU_CSUM_INT_DONE | DMAEMU_CSUM_INT_ERROR,
	       e->regs + DMAEMU_CSUM_REG_INT_ENABLE);
}

static void eng_close(struct eng *e, uint64_t reports)
{
	writel(DMAEMU_CSUM_CMD_RESET, e->regs + DMAEMU_CSUM_REG_CMD);
	free_irq(e->irq, e);
	dmaemu_device_destroy(e->d);
	ck_assert_uint_eq(dmaemu_report_count(e->m, NULL), reports);
	dmaemu_machine_destroy(e->m);
}

static uint32_t reg(struct eng *e, unsigned int off)
{
	return readl(e->regs + off);
}

/* Program a job and wait for its interrupt; return INT_STATUS seen. */
static uint32_t job(struct eng *e, uint64_t src, uint32_t len, uint64_t dst,
		    uint32_t cmd)
{
	int before = cget(&e->irqs);

	cset(&e->seen, 0);
	writel((uint32_t)src, e->regs + DMAEMU_CSUM_REG_SRC_LO);
	writel((uint32_t)(src >> 32), e->regs + DMAEMU_CSUM_REG_SRC_HI);
	writel(len, e->regs + DMAEMU_CSUM_REG_LEN);
	writel((uint32_t)dst, e->regs + DMAEMU_CSUM_REG_DST_LO);
	writel((uint32_t)(dst >> 32), e->regs + DMAEMU_CSUM_REG_DST_HI);
	writel(cmd, e->regs + DMAEMU_CSUM_REG_CMD);
	WAIT_FOR(cget(&e->irqs) > before &&
		 !(reg(e, DMAEMU_CSUM_REG_STATUS) & DMAEMU_CSUM_STATUS_BUSY));
	return (uint32_t)cget(&e->seen);
}

/* "123456789" gives the standard check value; the result also lands in
 * memory, little-endian, with the DMA write. */
START_TEST(test_check_value)
{
	struct eng e;
	dma_addr_t dma;
	uint8_t *buf;

	eng_open(&e, profiles[_i]);
	buf = dma_alloc_coherent(e.dev, 64, &dma, GFP_KERNEL);
	ck_assert_ptr_nonnull(buf);
	memset(buf, 0xaa, 64);
	memcpy(buf, "123456789", 9);
	ck_assert_uint_eq(job(&e, dma, 9, dma + 32, DMAEMU_CSUM_CMD_START),
			  DMAEMU_CSUM_INT_DONE);
	ck_assert_uint_eq(reg(&e, DMAEMU_CSUM_REG_RESULT),
			  DMAEMU_CSUM_CRC32_CHECK);
	ck_assert_uint_eq(buf[32], 0xaa); /* no WRITE: memory untouched */
	ck_assert_uint_eq(job(&e, dma, 9, dma + 32,
			      DMAEMU_CSUM_CMD_START | DMAEMU_CSUM_CMD_WRITE),
			  DMAEMU_CSUM_INT_DONE);
	ck_assert_uint_eq(buf[32], 0x26);
	ck_assert_uint_eq(buf[33], 0x39);
	ck_assert_uint_eq(buf[34], 0xf4);
	ck_assert_uint_eq(buf[35], 0xcb);
	ck_assert_uint_eq(buf[36], 0xaa);
	ck_assert_uint_eq(reg(&e, DMAEMU_CSUM_REG_COMPLETED), 2);
	ck_assert_uint_eq(reg(&e, DMAEMU_CSUM_REG_ERR_CODE), 0);
	dma_free_coherent(e.dev, 64, buf, dma);
	eng_close(&e, 0);
}
END_TEST

#define BIG (200 * 1024 + 5) /* four chunks and a bit */

/* A streaming buffer of several chunks, mapped as a driver would. */
START_TEST(test_streaming_big)
{
	struct eng e;
	dma_addr_t dma;
	uint8_t *buf;
	size_t i;

	eng_open(&e, profiles[_i]);
	buf = kmalloc(BIG, GFP_KERNEL);
	ck_assert_ptr_nonnull(buf);
	for (i = 0; i < BIG; i++)
		buf[i] = (uint8_t)(i * 7 + (i >> 11));
	dma = dma_map_single(e.dev, buf, BIG, DMA_TO_DEVICE);
	ck_assert(!dma_mapping_error(e.dev, dma));
	ck_assert_uint_eq(job(&e, dma, BIG, 0, DMAEMU_CSUM_CMD_START),
			  DMAEMU_CSUM_INT_DONE);
	ck_assert_uint_eq(reg(&e, DMAEMU_CSUM_REG_RESULT), crc32_ref(buf, BIG));
	dma_unmap_single(e.dev, dma, BIG, DMA_TO_DEVICE);
	kfree(buf);
	eng_close(&e, 0);
}
END_TEST

/* Errors: each raises ERROR with its code and address, moves nothing,
 * and the engine does the next job right. */
START_TEST(test_errors)
{
	struct eng e;
	dma_addr_t dma;
	uint8_t *buf;

	eng_open(&e, profiles[_i]);
	buf = dma_alloc_coherent(e.dev, 64, &dma, GFP_KERNEL);
	ck_assert_ptr_nonnull(buf);
	memcpy(buf, "123456789", 9);

	ck_assert_uint_eq(job(&e, dma, 0, 0, DMAEMU_CSUM_CMD_START),
			  DMAEMU_CSUM_INT_ERROR);
	ck_assert_uint_eq(reg(&e, DMAEMU_CSUM_REG_ERR_CODE),
			  DMAEMU_CSUM_ERR_LENGTH);
	ck_assert_uint_eq(
		job(&e, dma, DMAEMU_CSUM_MAX_LEN + 1, 0, DMAEMU_CSUM_CMD_START),
		DMAEMU_CSUM_INT_ERROR);
	ck_assert_uint_eq(reg(&e, DMAEMU_CSUM_REG_ERR_CODE),
			  DMAEMU_CSUM_ERR_LENGTH);
	ck_assert_uint_eq(dmaemu_report_count(e.m, NULL), 0);

	/* A buffer outside DRAM. */
	ck_assert_uint_eq(job(&e, 0x10, 64, 0, DMAEMU_CSUM_CMD_START),
			  DMAEMU_CSUM_INT_ERROR);
	ck_assert_uint_eq(reg(&e, DMAEMU_CSUM_REG_ERR_CODE),
			  DMAEMU_CSUM_ERR_SRC);
	ck_assert_uint_eq(reg(&e, DMAEMU_CSUM_REG_ERR_ADDR_LO), 0x10);
	ck_assert_uint_eq(dmaemu_report_count(e.m, "dma-fault"), 1);

	/* A result address above every bank. */
	ck_assert_uint_eq(job(&e, dma, 9, 0xfff00000000ULL,
			      DMAEMU_CSUM_CMD_START | DMAEMU_CSUM_CMD_WRITE),
			  DMAEMU_CSUM_INT_ERROR);
	ck_assert_uint_eq(reg(&e, DMAEMU_CSUM_REG_ERR_CODE),
			  DMAEMU_CSUM_ERR_DST);
	ck_assert_uint_eq(reg(&e, DMAEMU_CSUM_REG_ERR_ADDR_LO), 0);
	ck_assert_uint_eq(reg(&e, DMAEMU_CSUM_REG_ERR_ADDR_HI), 0xfff);
	/* The CRC was computed: only its write failed. */
	ck_assert_uint_eq(reg(&e, DMAEMU_CSUM_REG_RESULT),
			  DMAEMU_CSUM_CRC32_CHECK);
	ck_assert_uint_eq(dmaemu_report_count(e.m, "dma-fault"), 2);
	ck_assert_uint_eq(reg(&e, DMAEMU_CSUM_REG_COMPLETED), 0);

	/* Still usable. */
	ck_assert_uint_eq(job(&e, dma, 9, 0, DMAEMU_CSUM_CMD_START),
			  DMAEMU_CSUM_INT_DONE);
	ck_assert_uint_eq(reg(&e, DMAEMU_CSUM_REG_RESULT),
			  DMAEMU_CSUM_CRC32_CHECK);
	ck_assert_uint_eq(reg(&e, DMAEMU_CSUM_REG_COMPLETED), 1);
	dma_free_coherent(e.dev, 64, buf, dma);
	eng_close(&e, 2);
}
END_TEST

/* START while a job runs is refused with ERR_BUSY and does not disturb
 * the job; reset abandons a job in flight and clears the registers. */
START_TEST(test_busy_and_reset)
{
	struct eng e;
	const uint32_t len = 4u << 20;
	dma_addr_t dma;
	uint8_t *buf;

	eng_open(&e, "arm64");
	buf = dma_alloc_coherent(e.dev, len, &dma, GFP_KERNEL);
	ck_assert_ptr_nonnull(buf);
	memset(buf, 0x5c, len);
	writel((uint32_t)dma, e.regs + DMAEMU_CSUM_REG_SRC_LO);
	writel((uint32_t)(dma >> 32), e.regs + DMAEMU_CSUM_REG_SRC_HI);
	writel(len, e.regs + DMAEMU_CSUM_REG_LEN);
	writel(DMAEMU_CSUM_CMD_START, e.regs + DMAEMU_CSUM_REG_CMD);
	/* A 4 MiB CRC takes far longer than a register write: the second
	 * START comes while the first job runs, is refused, and the job
	 * goes on.  (Should the job have finished first, the START is a
	 * second job of the same buffer.) */
	writel(DMAEMU_CSUM_CMD_START, e.regs + DMAEMU_CSUM_REG_CMD);
	WAIT_FOR(reg(&e, DMAEMU_CSUM_REG_COMPLETED) >= 1 &&
		 !(reg(&e, DMAEMU_CSUM_REG_STATUS) & DMAEMU_CSUM_STATUS_BUSY));
	if (reg(&e, DMAEMU_CSUM_REG_COMPLETED) == 1) {
		WAIT_FOR(cget(&e.seen) & DMAEMU_CSUM_INT_ERROR);
		ck_assert_uint_eq(reg(&e, DMAEMU_CSUM_REG_ERR_CODE),
				  DMAEMU_CSUM_ERR_BUSY);
	} else {
		ck_assert_uint_eq(reg(&e, DMAEMU_CSUM_REG_COMPLETED), 2);
		ck_assert_uint_eq(reg(&e, DMAEMU_CSUM_REG_ERR_CODE), 0);
	}
	ck_assert_uint_eq(reg(&e, DMAEMU_CSUM_REG_RESULT), crc32_ref(buf, len));

	/* Reset: whatever it caught, the engine ends idle at reset values. */
	writel(DMAEMU_CSUM_CMD_START, e.regs + DMAEMU_CSUM_REG_CMD);
	writel(DMAEMU_CSUM_CMD_RESET, e.regs + DMAEMU_CSUM_REG_CMD);
	ck_assert_uint_eq(reg(&e, DMAEMU_CSUM_REG_STATUS), 0);
	ck_assert_uint_eq(reg(&e, DMAEMU_CSUM_REG_COMPLETED), 0);
	ck_assert_uint_eq(reg(&e, DMAEMU_CSUM_REG_RESULT), 0);
	ck_assert_uint_eq(reg(&e, DMAEMU_CSUM_REG_LEN), 0);
	ck_assert_uint_eq(reg(&e, DMAEMU_CSUM_REG_INT_ENABLE), 0);
	ck_assert_uint_eq(reg(&e, DMAEMU_CSUM_REG_INT_STATUS), 0);
	dma_free_coherent(e.dev, len, buf, dma);
	eng_close(&e, 0);
}
END_TEST

/* Registers: widths other than 32 bits read 0 and are ignored; CMD reads
 * 0; the address registers hold 64 bits. */
START_TEST(test_registers)
{
	struct eng e;

	eng_open(&e, "arm64");
	writel(0x12345678, e.regs + DMAEMU_CSUM_REG_SRC_LO);
	writel(0x9abc, e.regs + DMAEMU_CSUM_REG_SRC_HI);
	writel(0x87654321, e.regs + DMAEMU_CSUM_REG_DST_LO);
	writel(0x1, e.regs + DMAEMU_CSUM_REG_DST_HI);
	ck_assert_uint_eq(reg(&e, DMAEMU_CSUM_REG_SRC_LO), 0x12345678);
	ck_assert_uint_eq(reg(&e, DMAEMU_CSUM_REG_SRC_HI), 0x9abc);
	ck_assert_uint_eq(reg(&e, DMAEMU_CSUM_REG_DST_LO), 0x87654321);
	ck_assert_uint_eq(reg(&e, DMAEMU_CSUM_REG_DST_HI), 0x1);
	ck_assert_uint_eq(reg(&e, DMAEMU_CSUM_REG_CMD), 0);
	writew(0x55, e.regs + DMAEMU_CSUM_REG_LEN);
	ck_assert_uint_eq(reg(&e, DMAEMU_CSUM_REG_LEN), 0);
	ck_assert_uint_eq(readw(e.regs + DMAEMU_CSUM_REG_ID), 0);
	eng_close(&e, 0);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* One buffer, two engines: DMA_ATTR_SKIP_CPU_SYNC                        */
/* ---------------------------------------------------------------------- */

#define PKT 1024

static uint64_t maint_lines(struct dmaemu_machine *m)
{
	struct dmaemu_cpu_stats st;

	ck_assert_int_eq(dmaemu_cpu_stats(m, 0, &st), 0);
	return st.maint_lines;
}

static uint64_t maint_ops(struct dmaemu_machine *m)
{
	struct dmaemu_cpu_stats st;

	ck_assert_int_eq(dmaemu_cpu_stats(m, 0, &st), 0);
	return st.maint_ops;
}

/*
 * _i: 0 arm64, the first map syncs; 1 arm64, both skip; 2 x86, both
 * skip.  The CPU's writes are made visible to the model with
 * dmaemu_cpu_write() (this suite is not instrumented).
 */
START_TEST(test_shared_skip_cpu_sync)
{
	static const char *const prof[] = {"arm64", "arm64", "x86"};
	bool first_skips = _i > 0;
	struct eng a, b;
	dma_addr_t da, db;
	uint8_t *pkt, want[PKT];
	uint64_t lines, ops;
	size_t i;

	eng_open(&a, prof[_i]);
	/* The second engine on the same machine. */
	b = a;
	b.d = dmaemu_checksum_create(a.m, "csum1");
	ck_assert_ptr_nonnull(b.d);
	b.dev = dmaemu_device_to_dev(b.d);
	b.regs = dmaemu_device_regs(b.d);
	ck_assert_int_eq(dma_set_mask_and_coherent(b.dev, DMA_BIT_MASK(64)), 0);
	b.irq = (unsigned int)dmaemu_device_irq(b.d, 0);
	cset(&b.irqs, 0);
	cset(&b.seen, 0);
	ck_assert_int_eq(request_irq(b.irq, eng_irq, 0, "csum1", &b), 0);
	writel(DMAEMU_CSUM_INT_DONE, b.regs + DMAEMU_CSUM_REG_INT_ENABLE);

	pkt = kmalloc(PKT, GFP_KERNEL);
	ck_assert_ptr_nonnull(pkt);
	for (i = 0; i < PKT; i++)
		want[i] = (uint8_t)(i ^ 0x3c);
	ck_assert_int_eq(dmaemu_cpu_write(pkt, want, PKT), 0);

	lines = maint_lines(a.m);
	ops = maint_ops(a.m);
	da = dma_map_single_attrs(a.dev, pkt, PKT, DMA_TO_DEVICE,
				  first_skips ? DMA_ATTR_SKIP_CPU_SYNC : 0);
	ck_assert(!dma_mapping_error(a.dev, da));
	if (first_skips || _i == 2) {
		ck_assert_uint_eq(maint_ops(a.m), ops);
	} else {
		/* The clean found the packet's 16 lines in the cache. */
		ck_assert_uint_eq(maint_ops(a.m), ops + 1);
		ck_assert_uint_eq(maint_lines(a.m), lines + PKT / 64);
	}
	lines = maint_lines(a.m);
	ops = maint_ops(a.m);
	db = dma_map_single_attrs(b.dev, pkt, PKT, DMA_TO_DEVICE,
				  DMA_ATTR_SKIP_CPU_SYNC);
	ck_assert(!dma_mapping_error(b.dev, db));
	ck_assert_uint_eq(maint_ops(a.m), ops);
	ck_assert_uint_eq(maint_lines(a.m), lines);

	ck_assert_uint_eq(job(&a, da, PKT, 0, DMAEMU_CSUM_CMD_START),
			  DMAEMU_CSUM_INT_DONE);
	ck_assert_uint_eq(job(&b, db, PKT, 0, DMAEMU_CSUM_CMD_START),
			  DMAEMU_CSUM_INT_DONE);
	if (_i == 1) {
		/* Memory never got the packet: both read stale bytes. */
		ck_assert_uint_ne(reg(&a, DMAEMU_CSUM_REG_RESULT),
				  crc32_ref(want, PKT));
	} else {
		ck_assert_uint_eq(reg(&a, DMAEMU_CSUM_REG_RESULT),
				  crc32_ref(want, PKT));
	}
	ck_assert_uint_eq(reg(&b, DMAEMU_CSUM_REG_RESULT),
			  reg(&a, DMAEMU_CSUM_REG_RESULT));

	dma_unmap_single_attrs(b.dev, db, PKT, DMA_TO_DEVICE,
			       DMA_ATTR_SKIP_CPU_SYNC);
	dma_unmap_single_attrs(a.dev, da, PKT, DMA_TO_DEVICE,
			       first_skips ? DMA_ATTR_SKIP_CPU_SYNC : 0);
	kfree(pkt);
	writel(DMAEMU_CSUM_CMD_RESET, b.regs + DMAEMU_CSUM_REG_CMD);
	free_irq(b.irq, &b);
	dmaemu_device_destroy(b.d);
	/* Both engines' reads of the uncleaned packet are reported
	 * (stale-device-read), on arm64 only: x86 devices snoop. */
	ck_assert_uint_eq(dmaemu_report_count(a.m, "stale-device-read"),
			  _i == 1 ? 2 : 0);
	eng_close(&a, _i == 1 ? 2 : 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("checksum");
	TCase *tc = tcase_create("engine");

	tcase_set_timeout(tc, 300);
	tcase_add_loop_test(tc, test_check_value, 0, 3);
	tcase_add_loop_test(tc, test_streaming_big, 0, 3);
	tcase_add_loop_test(tc, test_errors, 0, 3);
	tcase_add_test(tc, test_busy_and_reset);
	tcase_add_test(tc, test_registers);
	suite_add_tcase(s, tc);
	tc = tcase_create("shared");
	tcase_set_timeout(tc, 300);
	tcase_add_loop_test(tc, test_shared_skip_cpu_sync, 0, 3);
	suite_add_tcase(s, tc);
	return check_run(s);
}
