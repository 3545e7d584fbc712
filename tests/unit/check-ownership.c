// SPDX-License-Identifier: MIT
/*
 * check-ownership.c - the coherence sanitizer's ownership checks
 * (docs/checkers.md): cpu-access-device-owned, device-access-cpu-owned and
 * stale-device-read, each made by a small driver exactly once, its
 * corrected twin making none, on every profile (arm, arm64, x86) and
 * through every backend (direct, swiotlb=force, iommu=1); the uses that
 * must stay silent; one report per access (an 8 KiB memcpy), repeats at
 * one site counted and summed up at machine destroy.
 *
 * This file is compiled like driver code (instrumented, memcpy routed):
 * the plain loads and stores below are the driver's.  Every test ends in
 * fixture_finish() with the number of reports it made on purpose.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "check-run.h"
#include "dma/dma.h"
#include "dmaemu/device.h"
#include "fixture.h"

#include <asm/barrier.h>
#include <linux/dma-mapping.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>

static const char *const profiles[] = {"arm", "arm64", "x86"};
static const char *const backends[] = {"", ":swiotlb=force", ":iommu=1"};
enum { ARM, ARM64, X86 };
enum { DIRECT, SWIOTLB, IOMMU };
#define VARIANTS 9 /* 3 profiles x 3 backends */

static struct dmaemu_machine *m;
static struct dmaemu_device *dd, *dd2;
static struct device *dev, *dev2;
static int prof, backend;
static uint64_t expected; /* reports made on purpose */

/* Sizes the compiler cannot see, so that mem* calls stay calls. */
static volatile size_t n1 = 1, n32 = 32, n8k = 8192;

/* Loop index @i: profile i % 3, backend i / 3. */
static void start(int i)
{
	prof = i % 3;
	backend = i / 3;
	expected = 0;
	m = fixture_machine("profile=%s:mem=16M%s", profiles[prof],
			    backends[backend]);
	dd = dmaemu_device_create(m, "dev0", NULL, NULL);
	ck_assert_ptr_nonnull(dd);
	dev = dmaemu_device_to_dev(dd);
	dd2 = NULL;
	dev2 = NULL;
}

static void teardown(void)
{
	if (dd2)
		dmaemu_device_destroy(dd2);
	dd2 = NULL;
	fixture_finish(&m, &dd, expected);
}

static uint64_t count(const char *kind)
{
	return dmaemu_report_count(m, kind);
}

/* The last ownership report (printed or a repeat). */
static struct dmaemu__own_last last(void)
{
	struct dmaemu__own_last l;

	ck_assert_int_eq(dmaemu__own_last(m, &l), 0);
	return l;
}

/* Exactly one new report since @before (all kinds): of @kind, about
 * [@lo, @lo + @bytes) of the buffer; it is expected from now on. */
static void one_report(const char *kind, uint64_t before, uint64_t lo,
		       size_t bytes)
{
	struct dmaemu__own_last l = last();

	ck_assert_uint_eq(count(NULL), before + 1);
	ck_assert_uint_eq(count(kind), 1);
	ck_assert_str_eq(dmaemu_report_kind_name(l.kind), kind);
	ck_assert(!l.repeat);
	ck_assert_uint_eq(l.lo, lo);
	ck_assert_uint_eq(l.bytes, bytes);
	ck_assert_uint_eq(l.hi, lo + bytes);
	expected++;
}

static bool noncoherent(void)
{
	return prof != X86;
}

/* A driver's plain load of one byte. */
static uint8_t peek(const uint8_t *p)
{
	return *(const volatile uint8_t *)p;
}

static void poke(uint8_t *p, uint8_t v)
{
	*(volatile uint8_t *)p = v;
}

static void dev_fill(dma_addr_t dma, int c, size_t len)
{
	fixture_dev_fill(dd, dma, c, len);
}

static void dev_read(dma_addr_t dma, size_t len)
{
	static uint8_t tmp[8192];

	ck_assert_uint_le(len, sizeof(tmp));
	ck_assert_int_eq(dmaemu_dma_read(dd, dma, tmp, len), 0);
}

static dma_addr_t map(void *buf, size_t len, enum dma_data_direction dir)
{
	dma_addr_t dma = dma_map_single(dev, buf, len, dir);

	ck_assert(!dma_mapping_error(dev, dma));
	return dma;
}

/* ---------------------------------------------------------------------- */
/* cpu-access-device-owned                                                */
/* ---------------------------------------------------------------------- */

/*
 * The receive path reads the packet without dma_sync_single_for_cpu():
 * one report on every profile and backend (arm, arm64: the map
 * invalidated, so the load fills and the byte happens to be new; x86:
 * snooped; swiotlb: the old byte), naming the sync that is missing.
 * The twin syncs first.
 */
START_TEST(test_cpu_read_device_owned)
{
	char want[160];
	uint8_t *buf;
	dma_addr_t dma;
	int fixed;

	start(_i);
	for (fixed = 0; fixed < 2; fixed++) {
		uint64_t before = count(NULL);

		buf = kzalloc(2048, GFP_KERNEL);
		ck_assert_ptr_nonnull(buf);
		dma = map(buf, 2048, DMA_FROM_DEVICE);
		dev_fill(dma, 'P', 1514);
		if (fixed)
			dma_sync_single_for_cpu(dev, dma, 2048,
						DMA_FROM_DEVICE);
		(void)peek(buf + 10);
		if (!fixed) {
			one_report("cpu-access-device-owned", before,
				   virt_to_phys(buf) + 10, 1);
			ck_assert_uint_eq(last().dma, dma);
			snprintf(want, sizeof(want),
				 "fix: dma_sync_single_for_cpu(dev, 0x%llx, "
				 "2048, DMA_FROM_DEVICE) before this access",
				 (unsigned long long)dma);
			ck_assert_ptr_nonnull(strstr(fixture_log(), want));
			/* The SUMMARY line names the driver's line (the
			 * site: check-ownership.c:N, or check-ownership+0x..
			 * without debug information), not a physical range. */
			ck_assert_ptr_nonnull(strstr(
				fixture_log(),
				"SUMMARY: dmaemu: cpu-access-device-owned "));
			ck_assert_ptr_nonnull(
				strstr(strstr(fixture_log(),
					      "SUMMARY: dmaemu: "
					      "cpu-access-device-owned "),
				       "check-ownership"));
		} else {
			ck_assert_uint_eq(count(NULL), before);
		}
		dma_unmap_single(dev, dma, 2048, DMA_FROM_DEVICE);
		kfree(buf);
	}
}
END_TEST

/*
 * An 8 KiB memcpy out of a device-owned buffer is one access: one report
 * naming all 8192 bytes and their 128 lines.
 */
START_TEST(test_memcpy_one_report)
{
	uint8_t *buf, *copy;
	dma_addr_t dma;
	uint64_t before;

	start(_i);
	buf = kmalloc(8192, GFP_KERNEL);
	copy = malloc(8192);
	ck_assert_ptr_nonnull(buf);
	ck_assert_ptr_nonnull(copy);
	dma = map(buf, 8192, DMA_BIDIRECTIONAL);
	dev_fill(dma, 'D', 8192);
	before = count(NULL);
	memcpy(copy, buf, n8k);
	one_report("cpu-access-device-owned", before, virt_to_phys(buf), 8192);
	ck_assert_uint_eq(last().lines, 8192 / 64);
	ck_assert_ptr_nonnull(strstr(fixture_log(), "read of 8192 bytes"));
	/* The twin: given back first. */
	dma_sync_single_for_cpu(dev, dma, 8192, DMA_BIDIRECTIONAL);
	memcpy(copy, buf, n8k);
	ck_assert(fixture_all(copy, 'D', 8192));
	ck_assert_uint_eq(count(NULL), before + 1);
	dma_unmap_single(dev, dma, 8192, DMA_BIDIRECTIONAL);
	free(copy);
	kfree(buf);
}
END_TEST

/*
 * The transmit path fills the buffer after mapping it: a write the device
 * may never see (arm, arm64, swiotlb).  Reported on every profile, with
 * the sync that would publish it; the twin writes before the map.  Loads
 * of a DMA_TO_DEVICE buffer the device owns are harmless: no report.
 */
START_TEST(test_cpu_write_to_device)
{
	char want[160];
	uint8_t *buf;
	dma_addr_t dma;
	uint64_t before;

	start(_i);
	buf = kmalloc(512, GFP_KERNEL);
	ck_assert_ptr_nonnull(buf);
	memset(buf, 'T', 512); /* the twin: written, then mapped */
	dma = map(buf, 512, DMA_TO_DEVICE);
	before = count(NULL);
	ck_assert_int_eq(peek(buf + 100), 'T'); /* a load: harmless */
	dev_read(dma, 512);
	ck_assert_uint_eq(count(NULL), before);

	poke(buf + 300, 'X'); /* the bug */
	one_report("cpu-access-device-owned", before, virt_to_phys(buf) + 300,
		   1);
	snprintf(want, sizeof(want),
		 "fix: write the buffer before it is mapped, or call "
		 "dma_sync_single_for_device(dev, 0x%llx, 512, DMA_TO_DEVICE) "
		 "after writing",
		 (unsigned long long)dma);
	ck_assert_ptr_nonnull(strstr(fixture_log(), want));
	ck_assert_ptr_nonnull(strstr(fixture_log(), "write of 1 byte"));
	dma_sync_single_for_device(dev, dma, 512, DMA_TO_DEVICE);
	dev_read(dma, 512);
	dma_unmap_single(dev, dma, 512, DMA_TO_DEVICE);
	kfree(buf);
}
END_TEST

/* A scatterlist entry read before dma_sync_sg_for_cpu(). */
START_TEST(test_sg_entry)
{
	struct scatterlist sg[2];
	uint8_t *a, *b;
	uint64_t before;
	int n;

	start(_i);
	a = kmalloc(1024, GFP_KERNEL);
	b = kmalloc(1024, GFP_KERNEL);
	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	sg_init_table(sg, 2);
	sg_set_buf(&sg[0], a, 1024);
	sg_set_buf(&sg[1], b, 1024);
	n = dma_map_sg(dev, sg, 2, DMA_FROM_DEVICE);
	ck_assert_int_ge(n, 1);
	before = count(NULL);
	(void)peek(b + 5);
	one_report("cpu-access-device-owned", before, virt_to_phys(b) + 5, 1);
	ck_assert_ptr_nonnull(strstr(fixture_log(),
				     "fix: dma_sync_sg_for_cpu(dev, sgl, 2, "
				     "DMA_FROM_DEVICE) before this access"));
	dma_sync_sg_for_cpu(dev, sg, 2, DMA_FROM_DEVICE);
	(void)peek(b + 5);
	(void)peek(a);
	ck_assert_uint_eq(count(NULL), before + 1);
	dma_unmap_sg(dev, sg, 2, DMA_FROM_DEVICE);
	kfree(a);
	kfree(b);
}
END_TEST

/*
 * A mapping that shares its first and last lines with CPU data: the
 * neighbours' bytes stay the CPU's (no report however often they are
 * read), the mapped bytes of those lines are the device's, to the byte.
 */
START_TEST(test_partial_lines_per_byte)
{
	uint8_t *area, *buf, tmp[64];
	uint64_t phys, before;
	dma_addr_t dma;
	int i;

	start(_i);
	area = kzalloc(256, GFP_KERNEL);
	ck_assert_ptr_nonnull(area);
	phys = virt_to_phys(area);
	buf = area + 16; /* [16, 144): two partly covered lines */
	dma = map(buf, 128, DMA_FROM_DEVICE);
	before = count(NULL);
	for (i = 0; i < 16; i++)
		(void)peek(area + i);
	for (i = 144; i < 256; i++)
		(void)peek(area + i);
	memcpy(tmp, area + 144, n32);
	ck_assert(fixture_all(tmp, 0, 32)); /* (the copy is used) */
	ck_assert_uint_eq(count(NULL), before);
	/* 32 bytes across the edge: only the 16 mapped ones count. */
	memcpy(tmp, area, n32);
	ck_assert(fixture_all(tmp, 0, 32));
	one_report("cpu-access-device-owned", before, phys + 16, 16);
	dma_unmap_single(dev, dma, 128, DMA_FROM_DEVICE);
	kfree(area);
}
END_TEST

/*
 * A loop reading a device-owned buffer byte by byte: one report printed
 * for the site, the other 99 counted, and one summary line at machine
 * destroy.
 */
START_TEST(test_repeats_summed_up)
{
	uint8_t *buf;
	dma_addr_t dma;
	uint64_t before;
	int i;

	start(_i);
	buf = kmalloc(128, GFP_KERNEL);
	ck_assert_ptr_nonnull(buf);
	dma = map(buf, 128, DMA_FROM_DEVICE);
	before = count(NULL);
	for (i = 0; i < 100; i++)
		(void)peek(buf + i);
	ck_assert_uint_eq(count("cpu-access-device-owned"), 1);
	ck_assert_uint_eq(count(NULL), before + 1);
	ck_assert_uint_eq(
		dmaemu__own_repeats(m, DMAEMU_REPORT_CPU_ACCESS_DEVICE_OWNED),
		99);
	ck_assert(last().repeat);
	expected++;
	dma_unmap_single(dev, dma, 128, DMA_FROM_DEVICE);
	kfree(buf);
	dmaemu_device_destroy(dd);
	dd = NULL;
	dmaemu_machine_destroy(m);
	m = NULL;
	/* The exit summary counts them (report_fold=1, the default). */
	ck_assert_ptr_nonnull(
		strstr(fixture_log(),
		       "dmaemu:   1 cpu-access-device-owned at 1 driver line, "
		       "first at "));
	ck_assert_ptr_nonnull(strstr(fixture_log(),
				     ": 1 printed, 0 folded, over 1 mapping; "
				     "99 repeats at the same line and mapping "
				     "not reported (report_repeats=1)\n"));
	ck_assert_ptr_null(strstr(fixture_log(), "more reports like the"));
}
END_TEST

/*
 * report_fold=0: machine destroy prints a line per repeated key, as before
 * the exit summary folded them.
 */
START_TEST(test_repeats_line_per_key)
{
	uint8_t *buf;
	dma_addr_t dma;
	int i;

	m = fixture_machine("profile=arm64:mem=16M:report_fold=0");
	dd = dmaemu_device_create(m, "dev0", NULL, NULL);
	ck_assert_ptr_nonnull(dd);
	dev = dmaemu_device_to_dev(dd);
	buf = kmalloc(128, GFP_KERNEL);
	ck_assert_ptr_nonnull(buf);
	dma = map(buf, 128, DMA_FROM_DEVICE);
	for (i = 0; i < 100; i++)
		(void)peek(buf + i);
	ck_assert_uint_eq(count("cpu-access-device-owned"), 1);
	dma_unmap_single(dev, dma, 128, DMA_FROM_DEVICE);
	kfree(buf);
	dmaemu_device_destroy(dd);
	dd = NULL;
	dmaemu_machine_destroy(m);
	m = NULL;
	ck_assert_ptr_nonnull(strstr(fixture_log(),
				     "99 more reports like the first, "
				     "counted and not printed"));
	ck_assert_ptr_nonnull(strstr(fixture_log(), "ERROR SUMMARY: 1 report "
						    "of 1 kind: 1 printed, 0 "
						    "folded\n"));
	ck_assert_ptr_null(strstr(fixture_log(), "repeats at the same"));
}
END_TEST

/* The option report_repeats=N prints N reports per key; 0 prints all. */
START_TEST(test_report_repeats_option)
{
	static const unsigned int printed[] = {3, 0};
	uint8_t *buf;
	dma_addr_t dma;
	int i;

	m = fixture_machine("profile=arm64:mem=16M:report_repeats=%u",
			    printed[_i]);
	dd = dmaemu_device_create(m, "dev0", NULL, NULL);
	ck_assert_ptr_nonnull(dd);
	dev = dmaemu_device_to_dev(dd);
	buf = kmalloc(128, GFP_KERNEL);
	ck_assert_ptr_nonnull(buf);
	dma = map(buf, 128, DMA_FROM_DEVICE);
	for (i = 0; i < 100; i++)
		(void)peek(buf + i);
	expected = printed[_i] ? printed[_i] : 100;
	ck_assert_uint_eq(count("cpu-access-device-owned"), expected);
	ck_assert_uint_eq(
		dmaemu__own_repeats(m, DMAEMU_REPORT_CPU_ACCESS_DEVICE_OWNED),
		100 - expected);
	dma_unmap_single(dev, dma, 128, DMA_FROM_DEVICE);
	kfree(buf);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* device-access-cpu-owned                                                */
/* ---------------------------------------------------------------------- */

/*
 * The receive path syncs a buffer for the CPU, looks at it, and hands it
 * back to the device without dma_sync_single_for_device(): the device's
 * next write lands in lines the CPU owns.  The twin gives it back.
 */
START_TEST(test_device_access_cpu_owned)
{
	char want[160];
	uint8_t *buf;
	dma_addr_t dma;
	uint64_t before;

	start(_i);
	buf = kmalloc(2048, GFP_KERNEL);
	ck_assert_ptr_nonnull(buf);
	dma = map(buf, 2048, DMA_FROM_DEVICE);
	dev_fill(dma, 'A', 2048);
	dma_sync_single_for_cpu(dev, dma, 2048, DMA_FROM_DEVICE);
	ck_assert_int_eq(peek(buf), 'A');
	/* The CPU writes lines 1 and 2; a line it only read would go back
	 * to the device without a sync (the DMA-API-HOWTO's receive path,
	 * test_howto_give_back below). */
	poke(buf + 64, 'c');
	poke(buf + 130, 'c');
	before = count(NULL);
	dev_fill(dma + 64, 'B', 100); /* the bug */
	one_report("device-access-cpu-owned", before, virt_to_phys(buf) + 64,
		   100);
	ck_assert_uint_eq(last().lines, 2);
	snprintf(want, sizeof(want),
		 "fix: dma_sync_single_for_device(dev, 0x%llx, 2048, "
		 "DMA_FROM_DEVICE) after the CPU's last access",
		 (unsigned long long)dma);
	ck_assert_ptr_nonnull(strstr(fixture_log(), want));
	/* The twin. */
	dma_sync_single_for_device(dev, dma, 2048, DMA_FROM_DEVICE);
	dev_fill(dma, 'C', 2048);
	dma_sync_single_for_cpu(dev, dma, 2048, DMA_FROM_DEVICE);
	ck_assert_int_eq(peek(buf + 2047), 'C');
	ck_assert_uint_eq(count(NULL), before + 1);
	dma_unmap_single(dev, dma, 2048, DMA_FROM_DEVICE);
	kfree(buf);
}
END_TEST

/*
 * The 4.14 DMA-API-HOWTO's receive handler: dma_sync_single_for_cpu(),
 * the header only read, the buffer given back to the card without
 * dma_sync_single_for_device() ("CPU should not write to
 * DMA_FROM_DEVICE-mapped area").  The device's next write is no report,
 * and the lines are the device's again: a CPU read without another
 * dma_sync_single_for_cpu() is cpu-access-device-owned; with it the CPU
 * reads the new data.
 */
START_TEST(test_howto_give_back)
{
	uint8_t *buf;
	dma_addr_t dma;
	uint64_t before;

	start(_i);
	buf = kmalloc(2048, GFP_KERNEL);
	ck_assert_ptr_nonnull(buf);
	dma = map(buf, 2048, DMA_FROM_DEVICE);
	dev_fill(dma, 'A', 2048);
	dma_sync_single_for_cpu(dev, dma, 2048, DMA_FROM_DEVICE);
	ck_assert_int_eq(peek(buf), 'A');
	ck_assert_int_eq(peek(buf + 100), 'A');
	before = count(NULL);
	dev_fill(dma, 'B', 2048); /* given back unwritten: no sync */
	ck_assert_uint_eq(count(NULL), before);
	(void)peek(buf + 1000); /* a line the CPU has not cached */
	one_report("cpu-access-device-owned", before, virt_to_phys(buf) + 1000,
		   1);
	before = count(NULL);
	dma_sync_single_for_cpu(dev, dma, 2048, DMA_FROM_DEVICE);
	ck_assert_int_eq(peek(buf + 100), 'B');
	ck_assert_int_eq(peek(buf + 2047), 'B');
	dma_unmap_single(dev, dma, 2048, DMA_FROM_DEVICE);
	ck_assert_uint_eq(count(NULL), before);
	kfree(buf);
}
END_TEST

/*
 * Sub-range syncs move only the lines they cover: the CPU may read the
 * part it took back, not the rest; the device may write the rest, not
 * the part the CPU holds.
 */
START_TEST(test_sub_range_sync)
{
	uint8_t *buf;
	dma_addr_t dma;
	uint64_t phys, before;

	start(_i);
	buf = kmalloc(4096, GFP_KERNEL);
	ck_assert_ptr_nonnull(buf);
	phys = virt_to_phys(buf);
	dma = map(buf, 4096, DMA_FROM_DEVICE);
	dev_fill(dma, 'S', 4096);
	dma_sync_single_range_for_cpu(dev, dma, 1024, 512, DMA_FROM_DEVICE);
	before = count(NULL);
	(void)peek(buf + 1024);
	(void)peek(buf + 1535);
	dev_fill(dma + 2048, 'T', 64);
	ck_assert_uint_eq(count(NULL), before);
	(void)peek(buf + 1536);
	one_report("cpu-access-device-owned", before, phys + 1536, 1);
	poke(buf + 1030, 'p'); /* a CPU write: line 16 is not given back */
	before = count(NULL);
	dev_fill(dma + 1000, 'U', 48); /* lines 15 (device), 16 (CPU) */
	ck_assert_uint_eq(count("device-access-cpu-owned"), 1);
	ck_assert_uint_eq(count(NULL), before + 1);
	ck_assert_uint_eq(last().lo, phys + 1024);
	ck_assert_uint_eq(last().bytes, 24);
	expected++;
	dma_sync_single_range_for_device(dev, dma, 1024, 512, DMA_FROM_DEVICE);
	dev_fill(dma + 1000, 'V', 48);
	dma_unmap_single(dev, dma, 4096, DMA_FROM_DEVICE);
	ck_assert_int_eq(peek(buf + 1030), 'V');
	ck_assert_uint_eq(count(NULL), before + 1);
	kfree(buf);
}
END_TEST

/*
 * One line the CPU took back and wrote, in the middle of a buffer whose
 * other lines the device owns: a device write of the whole buffer is
 * reported for that line alone (the check scans the owner map eight lines
 * at a time; a group with one CPU-owned line must not pass).
 */
START_TEST(test_one_cpu_line_in_buffer)
{
	uint8_t *buf;
	dma_addr_t dma;
	uint64_t phys, before;

	start(_i);
	buf = kmalloc(4096, GFP_KERNEL);
	ck_assert_ptr_nonnull(buf);
	phys = virt_to_phys(buf);
	dma = map(buf, 4096, DMA_FROM_DEVICE);
	dev_fill(dma, 'S', 4096);
	dma_sync_single_range_for_cpu(dev, dma, 64 * 9, 64, DMA_FROM_DEVICE);
	poke(buf + 64 * 9 + 3, 'p');
	before = count(NULL);
	dev_fill(dma, 'T', 4096);
	one_report("device-access-cpu-owned", before, phys + 64 * 9, 64);
	ck_assert_uint_eq(last().lines, 1);
	dma_unmap_single(dev, dma, 4096, DMA_FROM_DEVICE);
	ck_assert_int_eq(peek(buf + 64 * 10), 'T');
	kfree(buf);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* stale-device-read                                                      */
/* ---------------------------------------------------------------------- */

/*
 * A DMA_ATTR_NON_CONSISTENT buffer written by the CPU and read by the
 * device without dma_cache_sync(DMA_TO_DEVICE): arm and arm64 (every
 * backend: the allocation is never bounced) read old memory, one report
 * naming dma_cache_sync(); x86 snoops: nothing.  The twin cleans.
 */
START_TEST(test_stale_device_read)
{
	const unsigned long nc = DMA_ATTR_NON_CONSISTENT;
	dma_addr_t h;
	uint8_t *p, got[64];
	uint64_t before, phys;

	start(_i);
	p = dma_alloc_attrs(dev, 4096, &h, GFP_KERNEL, nc);
	ck_assert_ptr_nonnull(p);
	phys = virt_to_phys(p);
	before = count(NULL);
	memset(p + 128, 'W', n32);
	ck_assert_int_eq(dmaemu_dma_read(dd, h + 128, got, 64), 0);
	ck_assert_int_eq(got[0], noncoherent() ? 0 : 'W');
	if (noncoherent()) {
		one_report("stale-device-read", before, phys + 128, 32);
		ck_assert_uint_eq(last().lines, 1);
		ck_assert_ptr_nonnull(strstr(fixture_log(), "dma_cache_sync("));
	} else {
		ck_assert_uint_eq(count(NULL), before);
	}
	/* The twin. */
	before = count(NULL);
	memset(p + 256, 'Z', n32);
	dma_cache_sync(dev, p + 256, 32, DMA_TO_DEVICE);
	ck_assert_int_eq(dmaemu_dma_read(dd, h + 256, got, 32), 0);
	ck_assert(fixture_all(got, 'Z', 32));
	ck_assert_uint_eq(count(NULL), before);
	dma_free_attrs(dev, 4096, p, h, nc);
}
END_TEST

/*
 * A buffer written, then mapped with DMA_ATTR_SKIP_CPU_SYNC as if it were
 * clean: arm and arm64 read old memory (direct and IOMMU); swiotlb's copy
 * and x86's snoop make the data right, and the buffer was written before
 * the map, so nothing is said there.  The twin maps normally.
 */
START_TEST(test_skip_sync_dirty)
{
	uint8_t *buf;
	dma_addr_t dma;
	uint64_t before;
	bool stale;

	start(_i);
	/* Behind swiotlb, on every profile, the device reads a bounce slot
	 * that nothing filled (the map skipped the copy). */
	stale = noncoherent() || backend == SWIOTLB;
	buf = kmalloc(256, GFP_KERNEL);
	ck_assert_ptr_nonnull(buf);
	memset(buf, 'K', 256);
	before = count(NULL);
	dma = dma_map_single_attrs(dev, buf, 256, DMA_TO_DEVICE,
				   DMA_ATTR_SKIP_CPU_SYNC);
	ck_assert(!dma_mapping_error(dev, dma));
	dev_read(dma, 256);
	if (stale) {
		one_report("stale-device-read", before, virt_to_phys(buf), 256);
		if (backend != SWIOTLB) /* the dirty lines the map left */
			ck_assert_uint_eq(last().lines, 4);
		ck_assert_uint_eq(last().dma, dma);
	} else {
		ck_assert_uint_eq(count(NULL), before);
	}
	dma_unmap_single_attrs(dev, dma, 256, DMA_TO_DEVICE,
			       DMA_ATTR_SKIP_CPU_SYNC);
	/* The twin. */
	before = count(NULL);
	memset(buf, 'L', 256);
	dma = map(buf, 256, DMA_TO_DEVICE);
	dev_read(dma, 256);
	dma_unmap_single(dev, dma, 256, DMA_TO_DEVICE);
	ck_assert_uint_eq(count(NULL), before);
	kfree(buf);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* What must stay silent                                                  */
/* ---------------------------------------------------------------------- */

/* Coherent allocations have no owner: any side, any time. */
START_TEST(test_coherent_silent)
{
	uint8_t *c, *wc, got[64];
	dma_addr_t h, hw;
	int i;

	start(_i);
	c = dma_alloc_coherent(dev, 4096, &h, GFP_KERNEL);
	wc = dma_alloc_wc(dev, 4096, &hw, GFP_KERNEL);
	ck_assert_ptr_nonnull(c);
	ck_assert_ptr_nonnull(wc);
	for (i = 0; i < 3; i++) {
		memset(c, 'a' + i, n32);
		poke(wc, (uint8_t)('a' + i));
		wmb();
		ck_assert_int_eq(dmaemu_dma_read(dd, h, got, 32), 0);
		ck_assert_int_eq(got[0], 'a' + i);
		dev_fill(h + 64, 'x', 64);
		dev_fill(hw + 64, 'y', 64);
		ck_assert_int_eq(peek(c + 64), 'x');
		ck_assert_int_eq(peek(wc + 64), 'y');
	}
	dma_free_wc(dev, 4096, wc, hw);
	dma_free_coherent(dev, 4096, c, h);
}
END_TEST

/*
 * One buffer shared by two devices: mapped normally for the first, with
 * DMA_ATTR_SKIP_CPU_SYNC for the second; the second unmaps first and the
 * first device keeps reading: still the device domain, no report.
 */
START_TEST(test_skip_cpu_sync_shared)
{
	uint8_t *buf, got[256];
	dma_addr_t d1, d2;
	uint64_t before;

	start(_i);
	dd2 = dmaemu_device_create(m, "dev1", NULL, NULL);
	ck_assert_ptr_nonnull(dd2);
	dev2 = dmaemu_device_to_dev(dd2);
	buf = kmalloc(256, GFP_KERNEL);
	ck_assert_ptr_nonnull(buf);
	memset(buf, 'M', 256);
	d1 = map(buf, 256, DMA_TO_DEVICE);
	d2 = dma_map_single_attrs(dev2, buf, 256, DMA_TO_DEVICE,
				  DMA_ATTR_SKIP_CPU_SYNC);
	ck_assert(!dma_mapping_error(dev2, d2));
	before = count(NULL);
	ck_assert_int_eq(dmaemu_dma_read(dd2, d2, got, 256), 0);
	/* Behind swiotlb the second mapping has a bounce slot of its own,
	 * which the skipped sync left unfilled (lib/swiotlb.c of 4.14):
	 * dev1 reads what it held, a stale-device-read. */
	if (backend == SWIOTLB)
		one_report("stale-device-read", before, virt_to_phys(buf), 256);
	ck_assert_int_eq(dmaemu_dma_read(dd, d1, got, 256), 0);
	dma_unmap_single_attrs(dev2, d2, 256, DMA_TO_DEVICE,
			       DMA_ATTR_SKIP_CPU_SYNC);
	ck_assert_int_eq(dmaemu_dma_read(dd, d1, got, 256), 0);
	ck_assert(fixture_all(got, 'M', 256));
	dma_unmap_single(dev, d1, 256, DMA_TO_DEVICE);
	memset(buf, 'N', 256); /* the CPU's again */
	kfree(buf);
}
END_TEST

/*
 * test_skip_cpu_sync_shared() with a page: its lines' ownership bytes are
 * whole words, which an unmap takes a word at a time.  The second device's
 * unmap leaves every line held by the first, in the device domain: a CPU
 * store is still reported, until the first device unmaps too.
 */
START_TEST(test_skip_cpu_sync_shared_page)
{
	struct page *pg;
	uint8_t *buf;
	dma_addr_t d1, d2;
	uint64_t before;

	start(_i);
	dd2 = dmaemu_device_create(m, "dev1", NULL, NULL);
	ck_assert_ptr_nonnull(dd2);
	dev2 = dmaemu_device_to_dev(dd2);
	pg = alloc_pages(GFP_KERNEL, 0);
	ck_assert_ptr_nonnull(pg);
	buf = page_address(pg);
	memset(buf, 'M', 4096);
	d1 = map(buf, 4096, DMA_TO_DEVICE);
	d2 = dma_map_single_attrs(dev2, buf, 4096, DMA_TO_DEVICE,
				  DMA_ATTR_SKIP_CPU_SYNC);
	ck_assert(!dma_mapping_error(dev2, d2));
	dma_unmap_single_attrs(dev2, d2, 4096, DMA_TO_DEVICE,
			       DMA_ATTR_SKIP_CPU_SYNC);
	before = count(NULL);
	poke(buf + 1000, 'X');
	one_report("cpu-access-device-owned", before, virt_to_phys(buf) + 1000,
		   1);
	dma_unmap_single(dev, d1, 4096, DMA_TO_DEVICE);
	poke(buf + 1000, 'Y'); /* the CPU's again */
	ck_assert_uint_eq(count(NULL), before + 1);
	__free_pages(pg, 0);
}
END_TEST

/*
 * test_partial_lines_per_byte() with the partly covered first line at the
 * start of a page, the first of a word of eight ownership bytes (maps take
 * whole words a word at a time), and the last one at the start of another
 * word: the neighbours' bytes in both stay the CPU's.
 */
START_TEST(test_partial_lines_word_aligned)
{
	struct page *pg;
	uint8_t *area;
	uint64_t before;
	dma_addr_t dma;
	int i;

	start(_i);
	pg = alloc_pages(GFP_KERNEL, 0);
	ck_assert_ptr_nonnull(pg);
	area = page_address(pg);
	memset(area, 0, 4096);
	dma = map(area + 16, 2048, DMA_FROM_DEVICE); /* lines 0 and 32 */
	before = count(NULL);
	for (i = 0; i < 16; i++)
		(void)peek(area + i);
	for (i = 2064; i < 2112; i++)
		(void)peek(area + i);
	ck_assert_uint_eq(count(NULL), before);
	(void)peek(area + 16);
	one_report("cpu-access-device-owned", before, virt_to_phys(area) + 16,
		   1);
	dma_unmap_single(dev, dma, 2048, DMA_FROM_DEVICE);
	__free_pages(pg, 0);
}
END_TEST

/* NON_CONSISTENT memory with its dma_cache_sync() calls: silent. */
START_TEST(test_non_consistent_synced)
{
	const unsigned long nc = DMA_ATTR_NON_CONSISTENT;
	uint8_t *p, got[64];
	dma_addr_t h;

	start(_i);
	p = dma_alloc_attrs(dev, 4096, &h, GFP_KERNEL, nc);
	ck_assert_ptr_nonnull(p);
	memset(p, 'Q', n32);
	dma_cache_sync(dev, p, 32, DMA_TO_DEVICE);
	ck_assert_int_eq(dmaemu_dma_read(dd, h, got, 32), 0);
	ck_assert(fixture_all(got, 'Q', 32));
	dma_cache_sync(dev, p + 1024, 64, DMA_FROM_DEVICE);
	dev_fill(h + 1024, 'R', 64);
	dma_cache_sync(dev, p + 1024, 64, DMA_FROM_DEVICE);
	ck_assert_int_eq(peek(p + 1024), 'R');
	dma_free_attrs(dev, 4096, p, h, nc);
}
END_TEST

/* A device that fills part of a FROM_DEVICE buffer; buffers reused over
 * many map/unmap cycles: silent. */
START_TEST(test_partial_write_and_reuse)
{
	uint8_t *buf, copy[64];
	dma_addr_t dma;
	int round;

	start(_i);
	buf = kmalloc(2048, GFP_KERNEL);
	ck_assert_ptr_nonnull(buf);
	for (round = 0; round < 20; round++) {
		memset(buf, 0, 2048);
		dma = map(buf, 2048, DMA_FROM_DEVICE);
		dev_fill(dma, 'a' + round, 60 + round);
		dma_unmap_single(dev, dma, 2048, DMA_FROM_DEVICE);
		memcpy(copy, buf, n32);
		ck_assert(fixture_all(copy, 'a' + round, 32));
		ck_assert_int_eq(peek(buf + 60 + round), 0);
	}
	for (round = 0; round < 5; round++) {
		dma = map(buf, 2048, DMA_TO_DEVICE);
		dev_read(dma, 2048);
		dma_unmap_single(dev, dma, 2048, DMA_TO_DEVICE);
		poke(buf + round, 'w');
	}
	(void)n1;
	kfree(buf);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* The library's own copies                                               */
/* ---------------------------------------------------------------------- */

/* The newest report names this file's line @line, and no library file. */
static void names_driver_line(int line)
{
	struct dmaemu_report r;
	char want[64];

	ck_assert_int_eq(dmaemu_report_get(m, dmaemu_report_kept(m) - 1, &r),
			 0);
	snprintf(want, sizeof(want), "check-ownership.c:%d", line);
	ck_assert_msg(strstr(r.where, want), "where \"%s\", not %s", r.where,
		      want);
	ck_assert_ptr_null(strstr(r.text, "SUMMARY: dmaemu: "
					  "cpu-access-device-owned ../lib/"));
}

/*
 * A page pool's receive page (drivers/net's page_pool with
 * PP_FLAG_DMA_SYNC_DEV, DMA_BIDIRECTIONAL for XDP_TX): mapped whole with
 * DMA_ATTR_SKIP_CPU_SYNC, each half handed to the device with
 * dma_sync_single_range_for_device() while the device already owns the
 * page, received, synced back for the CPU, recycled.  Behind swiotlb each
 * sync copies between the page and its bounce buffer: the kernel's copy,
 * never the driver's access, so no report on any profile or backend.  The
 * driver's own store into the page while the device owns it still is one,
 * naming the driver's line.
 */
START_TEST(test_bounce_copies_silent)
{
	struct page *pg;
	uint8_t *buf;
	dma_addr_t d;
	int k, line;

	start(_i);
	pg = alloc_pages(GFP_KERNEL, 0);
	ck_assert_ptr_nonnull(pg);
	buf = page_address(pg);
	memset(buf, 'P', 4096);
	d = dma_map_page_attrs(dev, pg, 0, 4096, DMA_BIDIRECTIONAL,
			       DMA_ATTR_SKIP_CPU_SYNC);
	ck_assert(!dma_mapping_error(dev, d));
	for (k = 0; k < 4; k++) {
		size_t off = (size_t)(k % 2) * 2048;

		dma_sync_single_range_for_device(dev, d, off, 2048,
						 DMA_BIDIRECTIONAL);
		dev_fill(d + off, 'a' + k, 1500);
		dma_sync_single_range_for_cpu(dev, d, off, 2048,
					      DMA_BIDIRECTIONAL);
		ck_assert(fixture_all(buf + off, 'a' + k, 1500));
		poke(buf + off + 1600, 'C'); /* the CPU's half now */
	}
	dma_sync_single_for_device(dev, d, 4096, DMA_BIDIRECTIONAL);
	/* A second hand-over with no access between: legal, and a copy. */
	dma_sync_single_for_device(dev, d, 4096, DMA_BIDIRECTIONAL);
	ck_assert_uint_eq(count(NULL), 0);
	line = __LINE__ + 1;
	*(volatile uint8_t *)(buf + 100) = 'X';
	one_report("cpu-access-device-owned", 0, virt_to_phys(buf) + 100, 1);
	names_driver_line(line);
	dma_unmap_page_attrs(dev, d, 4096, DMA_BIDIRECTIONAL,
			     DMA_ATTR_SKIP_CPU_SYNC);
	__free_pages(pg, 0);
}
END_TEST

/*
 * sg_copy_to_buffer() is the CPU copying for the driver: out of entries
 * the device owns, a report that names the driver's call of it, not the
 * library's copy; after dma_sync_sg_for_cpu(), none.
 */
START_TEST(test_sg_copy_names_driver)
{
	struct scatterlist sg[2];
	uint8_t *a, *b, out[2048];
	int n, line;

	start(_i);
	a = kmalloc(1024, GFP_KERNEL);
	b = kmalloc(1024, GFP_KERNEL);
	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	sg_init_table(sg, 2);
	sg_set_buf(&sg[0], a, 1024);
	sg_set_buf(&sg[1], b, 1024);
	n = dma_map_sg(dev, sg, 2, DMA_FROM_DEVICE);
	ck_assert_int_ge(n, 1);
	line = __LINE__ + 1;
	ck_assert_uint_eq(sg_copy_to_buffer(sg, 2, out, sizeof(out)), 2048);
	/* Each entry is one access; the second is a repeat of the first. */
	ck_assert_uint_eq(count("cpu-access-device-owned"), 1);
	ck_assert_uint_eq(count(NULL), 1);
	names_driver_line(line);
	expected++;
	dma_sync_sg_for_cpu(dev, sg, 2, DMA_FROM_DEVICE);
	ck_assert_uint_eq(sg_copy_to_buffer(sg, 2, out, sizeof(out)), 2048);
	ck_assert_uint_eq(count(NULL), 1);
	dma_unmap_sg(dev, sg, 2, DMA_FROM_DEVICE);
	kfree(a);
	kfree(b);
}
END_TEST

static Suite *ownership_suite(void)
{
	Suite *s = suite_create("ownership");
	TCase *tc = tcase_create("ownership");

	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_cpu_read_device_owned, 0, VARIANTS);
	tcase_add_loop_test(tc, test_memcpy_one_report, 0, VARIANTS);
	tcase_add_loop_test(tc, test_cpu_write_to_device, 0, VARIANTS);
	tcase_add_loop_test(tc, test_sg_entry, 0, VARIANTS);
	tcase_add_loop_test(tc, test_partial_lines_per_byte, 0, VARIANTS);
	tcase_add_loop_test(tc, test_repeats_summed_up, 0, VARIANTS);
	tcase_add_test(tc, test_repeats_line_per_key);
	tcase_add_loop_test(tc, test_report_repeats_option, 0, 2);
	tcase_add_loop_test(tc, test_device_access_cpu_owned, 0, VARIANTS);
	tcase_add_loop_test(tc, test_howto_give_back, 0, VARIANTS);
	tcase_add_loop_test(tc, test_sub_range_sync, 0, VARIANTS);
	tcase_add_loop_test(tc, test_one_cpu_line_in_buffer, 0, VARIANTS);
	tcase_add_loop_test(tc, test_stale_device_read, 0, VARIANTS);
	tcase_add_loop_test(tc, test_skip_sync_dirty, 0, VARIANTS);
	tcase_add_loop_test(tc, test_coherent_silent, 0, VARIANTS);
	tcase_add_loop_test(tc, test_skip_cpu_sync_shared, 0, VARIANTS);
	tcase_add_loop_test(tc, test_skip_cpu_sync_shared_page, 0, VARIANTS);
	tcase_add_loop_test(tc, test_partial_lines_word_aligned, 0, VARIANTS);
	tcase_add_loop_test(tc, test_non_consistent_synced, 0, VARIANTS);
	tcase_add_loop_test(tc, test_partial_write_and_reuse, 0, VARIANTS);
	tcase_add_loop_test(tc, test_bounce_copies_silent, 0, VARIANTS);
	tcase_add_loop_test(tc, test_sg_copy_names_driver, 0, VARIANTS);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(ownership_suite());
}
