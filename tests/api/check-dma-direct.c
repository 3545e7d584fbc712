// SPDX-License-Identifier: MIT
/*
 * check-dma-direct.c - the streaming DMA API through the direct backend,
 * on every profile: what the CPU and the device see after each call, the
 * state of the cache lines (resident, CPU-dirty, device-changed), line
 * ownership, and the reports for misuse.
 *
 * This file is compiled with the instrumentation flags, like driver code:
 * its loads, stores and mem* calls on kmalloc() buffers go through the
 * cache model.  The device side is a bare device driven with
 * dmaemu_dma_read()/dmaemu_dma_write().  Every test runs once per profile
 * (a Check loop test: _i indexes profiles[]), and its teardown checks that
 * no report was made beyond those the test counted.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/dma-mapping.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>

#include <dmaemu/device.h>
#include <dmaemu/machine.h>
#include <dmaemu/report.h>
#include <dmaemu/testing.h>

#include "check-run.h"
#include "fixture.h"

#define LINE 64

static const char *const profiles[] = {"arm", "arm64", "x86"};
enum { ARM, ARM64, X86 };
static const int dirs[] = {DMA_TO_DEVICE, DMA_FROM_DEVICE, DMA_BIDIRECTIONAL};

static struct dmaemu_machine *m;
static struct dmaemu_device *dd;
static struct device *dev;
static int prof;
static uint64_t expected; /* reports the test made on purpose */

/* Sizes the compiler cannot see through, so mem* calls stay calls. */
static volatile size_t n256 = 256, n64 = 64;

static void make(int profile, const char *extra)
{
	prof = profile;
	m = fixture_machine("profile=%s:mem=16M%s%s", profiles[profile],
			    extra ? ":" : "", extra ? extra : "");
	dd = dmaemu_device_create(m, "dev0", NULL, NULL);
	ck_assert_ptr_nonnull(dd);
	dev = dmaemu_device_to_dev(dd);
	expected = 0;
}

static void teardown(void)
{
	if (m && dd)
		ck_assert_uint_eq(fixture_mapping_count(dd), 0);
	fixture_finish(&m, &dd, expected);
}

static uint64_t count(const char *kind)
{
	return dmaemu_report_count(m, kind);
}

/*
 * A look or write the test makes on purpose that the checkers report once
 * per access site and mapping, later ones being counted as repeats
 * (docs/checkers.md): @may says whether a report is due at all, @first
 * whether this is the first time at this site (so it must print).
 */
static void expect_once(const char *kind, bool may, bool first, uint64_t before)
{
	uint64_t n = count(kind) - before;

	if (!may || first)
		ck_assert_uint_eq(n, may ? 1 : 0);
	else
		ck_assert_uint_le(n, 1);
	expected += n;
	ck_assert_uint_eq(count(NULL), expected);
}

/* @n reports of @kind were expected just now (and none of other kinds). */
static void expect(const char *kind, uint64_t n, uint64_t before)
{
	ck_assert_uint_eq(count(kind) - before, n);
	expected += n;
	ck_assert_uint_eq(count(NULL), expected);
}

/* Device accesses of @dd that landed in no live mapping. */
static uint64_t stray(void)
{
	struct dmaemu_device_dma_info info;

	ck_assert_int_eq(dmaemu_device_dma_info(dd, &info), 0);
	return info.stray_accesses;
}

/* Buffers the prefetcher may fill now. */
static uint64_t prefetch_ranges(void)
{
	struct dmaemu_prefetch_info info;

	ck_assert_int_eq(dmaemu_prefetch_info(m, &info), 0);
	return info.ranges;
}

static bool noncoherent(void)
{
	return prof != X86;
}

/* ---- line state ------------------------------------------------------- */

/* CPU-dirty and device-changed bytes of the line holding @phys. */
static void masks(uint64_t phys, unsigned int *dirty, unsigned int *changed)
{
	struct dmaemu_line_state st;

	ck_assert_int_eq(dmaemu_line_state(m, phys, &st), 0);
	*dirty = dmaemu_line_mask_weight(st.cpu_dirty);
	*changed = dmaemu_line_mask_weight(st.dev_changed);
}

static bool resident(uint64_t phys)
{
	return fixture_resident(m, phys);
}

static bool model_dirty(uint64_t phys)
{
	struct dmaemu_line_state st;

	ck_assert_int_eq(dmaemu_line_state(m, phys, &st), 0);
	return st.dirty_levels & 1;
}

/* Every line of [@phys, +@len) has this state. */
static void assert_lines(uint64_t phys, size_t len, int res, int dirty,
			 unsigned int changed)
{
	uint64_t p;

	for (p = phys; p < phys + len; p += LINE) {
		unsigned int d, c;

		masks(p, &d, &c);
		if (res >= 0)
			ck_assert_int_eq(resident(p), res);
		if (dirty >= 0) {
			ck_assert_uint_eq(d, dirty ? LINE : 0);
			if (res == 1)
				ck_assert_int_eq(model_dirty(p), dirty);
		}
		ck_assert_uint_eq(c, changed);
	}
}

static void assert_owner(uint64_t phys, size_t len, int o)
{
	struct dmaemu_line_state st;
	uint64_t p;

	for (p = phys; p < phys + len; p += LINE) {
		ck_assert_int_eq(dmaemu_line_state(m, p, &st), 0);
		ck_assert_int_eq(st.owner, o);
	}
}

/* ---- data ------------------------------------------------------------- */

/* What the CPU sees of @buf (one modelled load per line). */
static int cpu_sees(const uint8_t *buf, size_t n)
{
	uint8_t tmp[4096];

	ck_assert_uint_le(n, sizeof(tmp));
	memcpy(tmp, buf, n);
	return fixture_all(tmp, tmp[0], n) ? tmp[0] : -1;
}

/* What the device reads at @dma. */
static int dev_sees(dma_addr_t dma, size_t n)
{
	uint8_t tmp[4096];

	ck_assert_int_eq(dmaemu_dma_read(dd, dma, tmp, n), 0);
	return fixture_all(tmp, tmp[0], n) ? tmp[0] : -1;
}

/* What DRAM holds, not through the CPU. */
static int mem_holds(uint64_t phys, size_t n)
{
	uint8_t tmp[4096];

	ck_assert_int_eq(dmaemu_dram_read(m, phys, tmp, n), 0);
	return fixture_all(tmp, tmp[0], n) ? tmp[0] : -1;
}

/* A 256-byte kmalloc buffer (4 lines, line aligned) holding @c in DRAM
 * and in the CPU's cache, clean. */
static uint8_t *clean_buffer(int c)
{
	uint8_t *buf = kmalloc(256, GFP_KERNEL);
	uint64_t phys;

	ck_assert_ptr_nonnull(buf);
	phys = virt_to_phys(buf);
	ck_assert_uint_eq(phys & (LINE - 1), 0);
	/* Start from DRAM's data: a store of the value the CPU's copy
	 * already holds would not make a byte dirty. */
	ck_assert_int_eq(dmaemu_cache_invalidate(m, phys, 256), 0);
	memset(buf, c, n256);
	ck_assert_int_eq(dmaemu_cache_clean(m, phys, 256), 0);
	ck_assert_int_eq(mem_holds(phys, 256), c);
	assert_lines(phys, 256, 1, 0, 0);
	return buf;
}

/* ---------------------------------------------------------------------- */
/* Device writes, CPU reads                                               */
/* ---------------------------------------------------------------------- */

/*
 * For every direction: the CPU has the buffer's lines (it looked while the
 * device owned them), the device writes new data; without sync_for_cpu the
 * CPU reads its old copy on arm and arm64 (a stale read each line), after
 * it the new data, except for TO_DEVICE, which never invalidates.  x86
 * snoops: new data both ways.  @use_unmap ends with unmap instead of
 * sync_for_cpu.
 */
static void dev_write_cpu_read(bool use_unmap)
{
	unsigned int k;

	for (k = 0; k < 3; k++) {
		int dir = dirs[k];
		uint8_t *buf = clean_buffer('A');
		uint64_t phys = virt_to_phys(buf), stale, own;
		dma_addr_t dma;
		bool invalidates = noncoherent() && dir != DMA_TO_DEVICE;

		dma = dma_map_single(dev, buf, 256, dir);
		ck_assert(!dma_mapping_error(dev, dma));
		ck_assert_uint_eq(dma, phys);
		assert_owner(phys, 256, DMAEMU_OWNER_DEVICE);
		/* arm and arm64 invalidate for FROM_DEVICE (Linux 4.14's
		 * v7_dma_map_area, __dma_map_area), clean otherwise; x86
		 * does nothing. */
		assert_lines(phys, 256,
			     noncoherent() && dir == DMA_FROM_DEVICE ? 0 : 1, 0,
			     0);

		/* The CPU looks at the buffer: its lines are resident.  The
		 * device owns it: reported unless only it reads it. */
		own = count("cpu-access-device-owned");
		ck_assert_int_eq(cpu_sees(buf, 256), 'A');
		expect_once("cpu-access-device-owned", dir != DMA_TO_DEVICE,
			    k == 1, own);
		assert_lines(phys, 256, 1, 0, 0);

		/* A device writing a DMA_TO_DEVICE buffer: reported, and the
		 * write lands (no IOMMU). */
		own = count("device-write-to-device-mapping");
		fixture_dev_fill(dd, dma, 'B', 256);
		expect("device-write-to-device-mapping", dir == DMA_TO_DEVICE,
		       own);
		ck_assert_int_eq(mem_holds(phys, 256), 'B');
		if (noncoherent())
			assert_lines(phys, 256, 1, 0, LINE);
		else /* write-invalidate */
			assert_lines(phys, 256, 0, 0, 0);

		/* No sync: the old copy on arm/arm64, a report per line. */
		stale = count("stale-cpu-read");
		ck_assert_int_eq(cpu_sees(buf, 256), noncoherent() ? 'A' : 'B');
		expect("stale-cpu-read", noncoherent() ? 4 : 0, stale);

		if (use_unmap)
			dma_unmap_single(dev, dma, 256, dir);
		else
			dma_sync_single_for_cpu(dev, dma, 256, dir);
		assert_owner(phys, 256, DMAEMU_OWNER_CPU);
		if (invalidates)
			assert_lines(phys, 256, 0, 0, 0);
		stale = count("stale-cpu-read");
		ck_assert_int_eq(cpu_sees(buf, 256),
				 noncoherent() && !invalidates ? 'A' : 'B');
		expect("stale-cpu-read", noncoherent() && !invalidates ? 4 : 0,
		       stale);
		if (!use_unmap)
			dma_unmap_single(dev, dma, 256, dir);
		kfree(buf);
	}
}

START_TEST(test_dev_write_cpu_read_sync)
{
	make(_i, NULL);
	dev_write_cpu_read(false);
}
END_TEST

START_TEST(test_dev_write_cpu_read_unmap)
{
	make(_i, NULL);
	dev_write_cpu_read(true);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* CPU writes, device reads                                               */
/* ---------------------------------------------------------------------- */

/*
 * The CPU writes 'B' over a buffer DRAM holds as 'A', then maps it: the
 * map's clean makes the device read 'B' (TO_DEVICE, BIDI); the FROM_DEVICE
 * map of arm and arm64 (Linux 4.14) invalidates and drops the CPU's bytes.  Without a map (the write made while the device
 * already owned the buffer) the device reads 'A' on arm/arm64 until
 * sync_for_device.  x86 snoops: 'B' always.
 */
START_TEST(test_cpu_write_dev_read)
{
	unsigned int k;

	make(_i, NULL);
	for (k = 0; k < 3; k++) {
		int dir = dirs[k];
		uint8_t *buf = clean_buffer('A');
		uint64_t phys = virt_to_phys(buf);
		bool arm_from = noncoherent() && dir == DMA_FROM_DEVICE;
		uint64_t own;
		dma_addr_t dma;

		/* 1. Written before the map. */
		memset(buf, 'B', n256);
		assert_lines(phys, 256, 1, 1, 0);
		dma = dma_map_single(dev, buf, 256, dir);
		ck_assert(!dma_mapping_error(dev, dma));
		if (noncoherent())
			assert_lines(phys, 256, arm_from ? 0 : 1, 0, 0);
		else
			assert_lines(phys, 256, 1, 1, 0);
		ck_assert_int_eq(dev_sees(dma, 256), arm_from ? 'A' : 'B');
		/* x86: the device's read cleaned the lines (snoop). */
		if (!noncoherent())
			assert_lines(phys, 256, 1, 0, 0);

		/* 2. Written while the device owns it: reported, and on
		 * arm/arm64 the device then reads stale memory. */
		own = count("cpu-access-device-owned");
		memset(buf, 'C', n256);
		expect_once("cpu-access-device-owned", true, k == 0, own);
		assert_lines(phys, 256, 1, 1, 0);
		own = count("stale-device-read");
		ck_assert_int_eq(dev_sees(dma, 256),
				 noncoherent() ? (arm_from ? 'A' : 'B') : 'C');
		expect_once("stale-device-read", noncoherent(), k == 0, own);
		dma_sync_single_for_device(dev, dma, 256, dir);
		assert_owner(phys, 256, DMAEMU_OWNER_DEVICE);
		ck_assert_int_eq(dev_sees(dma, 256), arm_from ? 'A' : 'C');
		dma_unmap_single(dev, dma, 256, dir);
		kfree(buf);
	}
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Partial lines                                                          */
/* ---------------------------------------------------------------------- */

/*
 * A FROM_DEVICE buffer that covers its first and last lines only in part.
 * arm's map cleans and invalidates those edge lines: the CPU's bytes of
 * the neighbours outside the buffer reach DRAM, nothing is lost.  The
 * unmap's invalidate is a plain one: neighbour bytes the CPU wrote while
 * the buffer was mapped are lost there (one lost-cpu-write per edge line)
 * on arm and arm64; x86 keeps them.
 */
START_TEST(test_partial_edge_lines)
{
	uint8_t *area, *buf;
	uint64_t phys, lost;
	dma_addr_t dma;
	unsigned int d, c;

	make(_i, NULL);
	area = kmalloc(256, GFP_KERNEL);
	ck_assert_ptr_nonnull(area);
	phys = virt_to_phys(area);
	buf = area + 16; /* [16, 144): line 0 from 16, line 1, line 2 to 16 */
	memset(area, 0, n256);
	ck_assert_int_eq(dmaemu_cache_clean(m, phys, 256), 0);
	memset(area, 'X', 192);

	lost = count("lost-cpu-write");
	dma = dma_map_single(dev, buf, 128, DMA_FROM_DEVICE);
	ck_assert(!dma_mapping_error(dev, dma));
	expect("lost-cpu-write", 0, lost);
	assert_owner(phys, 192, DMAEMU_OWNER_DEVICE);
	if (noncoherent()) {
		/* Linux 4.14 (v7_dma_inv_range, __dma_inv_area): edges written
		 * back whole and dropped; line 1 dropped. */
		ck_assert_int_eq(mem_holds(phys, 64), 'X');
		ck_assert_int_eq(mem_holds(phys + 128, 64), 'X');
		ck_assert_int_eq(mem_holds(phys + 64, 64), 0);
		ck_assert(!resident(phys) && !resident(phys + 64) &&
			  !resident(phys + 128));
	}
	/* The neighbours' bytes are the CPU's either way. */
	ck_assert_int_eq(cpu_sees(area, 16), 'X');
	ck_assert_int_eq(cpu_sees(area + 144, 48), 'X');

	/* Sharing the edge lines while mapped: the neighbours change, each
	 * store a shared-line-store at once (a portability note on x86: one
	 * kmalloc() object). */
	lost = count("shared-line-store");
	memset(area, 'Y', 16);
	memset(area + 144, 'Y', 48);
	expect("shared-line-store", 2, lost);
	masks(phys, &d, &c);
	ck_assert_uint_eq(d, prof == X86 ? 64 : 16); /* x86 never cleaned */
	fixture_dev_fill(dd, dma, 'D', 128);
	/*
	 * Unmap cleans and invalidates the partly covered edge lines, as
	 * 4.14 does: the write-back of the CPU's dirty edge lines puts the
	 * CPU's stale copy of the buffer's edge bytes over the device's
	 * (lost-device-write, one per line), and the neighbours keep the
	 * CPU's 'Y'.  Line 1, wholly inside, is invalidated: the device's.
	 */
	lost = count("lost-device-write");
	dma_unmap_single(dev, dma, 128, DMA_FROM_DEVICE);
	expect("lost-device-write", noncoherent() ? 2 : 0, lost);
	ck_assert_int_eq(cpu_sees(area, 16), 'Y');
	ck_assert_int_eq(cpu_sees(area + 144, 48), 'Y');
	ck_assert_int_eq(cpu_sees(buf, 48), noncoherent() ? 'X' : 'D');
	ck_assert_int_eq(cpu_sees(buf + 48, 64), 'D');
	ck_assert_int_eq(cpu_sees(buf + 112, 16), noncoherent() ? 'X' : 'D');
	/* x86: the device's write snooped the line, writing 'Y' back. */
	ck_assert_int_eq(mem_holds(phys, 16), 'Y');
	kfree(area);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* DMA_ATTR_SKIP_CPU_SYNC                                                 */
/* ---------------------------------------------------------------------- */

START_TEST(test_skip_cpu_sync)
{
	struct dmaemu_device *dd2;
	struct device *dev2;
	uint8_t *buf;
	uint64_t phys, stale;
	dma_addr_t dma, dma2;

	make(_i, NULL);
	dd2 = dmaemu_device_create(m, "dev1", NULL, NULL);
	ck_assert_ptr_nonnull(dd2);
	dev2 = dmaemu_device_to_dev(dd2);

	/* Wrong: the CPU's data is still dirty in the cache. */
	buf = clean_buffer('A');
	phys = virt_to_phys(buf);
	memset(buf, 'B', n256);
	dma = dma_map_single_attrs(dev, buf, 256, DMA_TO_DEVICE,
				   DMA_ATTR_SKIP_CPU_SYNC);
	ck_assert(!dma_mapping_error(dev, dma));
	assert_owner(phys, 256, DMAEMU_OWNER_DEVICE); /* moved anyway */
	assert_lines(phys, 256, 1, 1, 0);	      /* no maintenance */
	stale = count("stale-device-read");
	ck_assert_int_eq(dev_sees(dma, 256), noncoherent() ? 'A' : 'B');
	expect("stale-device-read", noncoherent() ? 1 : 0, stale);
	dma_unmap_single_attrs(dev, dma, 256, DMA_TO_DEVICE,
			       DMA_ATTR_SKIP_CPU_SYNC);
	assert_owner(phys, 256, DMAEMU_OWNER_CPU);

	/* Right: mapped for dev0 (cleaned), shared with dev1 unsynced. */
	dma = dma_map_single(dev, buf, 256, DMA_TO_DEVICE);
	ck_assert(!dma_mapping_error(dev, dma));
	dma2 = dma_map_single_attrs(dev2, buf, 256, DMA_TO_DEVICE,
				    DMA_ATTR_SKIP_CPU_SYNC);
	ck_assert(!dma_mapping_error(dev2, dma2));
	ck_assert_int_eq(dev_sees(dma, 256), 'B');
	ck_assert(fixture_dev_sees(dd2, dma2, 'B', 256));
	dma_unmap_single_attrs(dev2, dma2, 256, DMA_TO_DEVICE,
			       DMA_ATTR_SKIP_CPU_SYNC);
	dma_unmap_single(dev, dma, 256, DMA_TO_DEVICE);

	/* Wrong at unmap: FROM_DEVICE data never invalidated. */
	dma = dma_map_single(dev, buf, 256, DMA_FROM_DEVICE);
	ck_assert(!dma_mapping_error(dev, dma));
	stale = count("cpu-access-device-owned");
	ck_assert_int_eq(cpu_sees(buf, 256), 'B'); /* lines resident */
	expect("cpu-access-device-owned", 1, stale);
	fixture_dev_fill(dd, dma, 'C', 256);
	dma_unmap_single_attrs(dev, dma, 256, DMA_FROM_DEVICE,
			       DMA_ATTR_SKIP_CPU_SYNC);
	stale = count("stale-cpu-read");
	ck_assert_int_eq(cpu_sees(buf, 256), noncoherent() ? 'B' : 'C');
	expect("stale-cpu-read", noncoherent() ? 4 : 0, stale);
	/* The syncs always maintain: a new mapping synced for the CPU. */
	dma = dma_map_single_attrs(dev, buf, 256, DMA_FROM_DEVICE,
				   DMA_ATTR_SKIP_CPU_SYNC);
	ck_assert(!dma_mapping_error(dev, dma));
	dma_sync_single_for_cpu(dev, dma, 256, DMA_FROM_DEVICE);
	ck_assert_int_eq(cpu_sees(buf, 256), 'C');
	dma_unmap_single(dev, dma, 256, DMA_FROM_DEVICE);
	dmaemu_device_destroy(dd2);
	kfree(buf);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Misuse                                                                 */
/* ---------------------------------------------------------------------- */

static char global_buf[256];

START_TEST(test_map_invalid_memory)
{
	char stack_buf[256];
	char *heap = malloc(256);
	uint8_t *buf;
	uint64_t before;
	void *unc, *wc;

	make(_i, NULL);
	buf = clean_buffer('A');
	unc = dmaemu_phys_view(m, virt_to_phys(buf), DMAEMU_REGION_UNCACHED);
	wc = dmaemu_phys_view(m, virt_to_phys(buf), DMAEMU_REGION_WC);
	before = count("map-invalid-memory");
	ck_assert_ptr_nonnull(heap);
	ck_assert(dma_mapping_error(
		dev, dma_map_single(dev, stack_buf, 64, DMA_TO_DEVICE)));
	ck_assert(dma_mapping_error(
		dev, dma_map_single(dev, heap, 64, DMA_TO_DEVICE)));
	ck_assert(dma_mapping_error(
		dev, dma_map_single(dev, global_buf, 64, DMA_TO_DEVICE)));
	ck_assert(dma_mapping_error(
		dev, dma_map_single(dev, unc, 64, DMA_TO_DEVICE)));
	ck_assert(dma_mapping_error(
		dev, dma_map_single(dev, wc, 64, DMA_TO_DEVICE)));
	expect("map-invalid-memory", 5, before);
	ck_assert_uint_eq(fixture_mapping_count(dd), 0);
	/* Nothing moved. */
	assert_owner(virt_to_phys(buf), 256, DMAEMU_OWNER_CPU);
	free(heap);
	kfree(buf);
}
END_TEST

START_TEST(test_bad_arguments)
{
	struct dmaemu_device *gone;
	struct device *gone_dev;
	uint8_t *buf;
	uint64_t before;
	dma_addr_t dma;

	make(_i, NULL);
	buf = clean_buffer('A');
	before = count("bad-argument");
	ck_assert_uint_eq(dma_map_single(dev, buf, 64, DMA_NONE),
			  DMA_MAPPING_ERROR);
	ck_assert_uint_eq(
		dma_map_single(dev, buf, 64, (enum dma_data_direction)7),
		DMA_MAPPING_ERROR);
	ck_assert_uint_eq(dma_map_single(NULL, buf, 64, DMA_TO_DEVICE),
			  DMA_MAPPING_ERROR);
	ck_assert_uint_eq(
		dma_map_single_attrs(dev, buf, 64, DMA_TO_DEVICE, 1UL << 20),
		DMA_MAPPING_ERROR);
	ck_assert_uint_eq(dma_map_single(dev, buf, 0, DMA_TO_DEVICE),
			  DMA_MAPPING_ERROR);
	expect("bad-argument", 5, before);

	/* A struct device whose device is gone. */
	gone = dmaemu_device_create(m, "gone", NULL, NULL);
	gone_dev = dmaemu_device_to_dev(gone);
	dmaemu_device_destroy(gone);
	before = count("bad-argument");
	ck_assert_uint_eq(dma_map_single(gone_dev, buf, 64, DMA_TO_DEVICE),
			  DMA_MAPPING_ERROR);
	dma_sync_single_for_cpu(gone_dev, 0x80000000, 64, DMA_FROM_DEVICE);
	ck_assert_ptr_null(
		dmaemu_device_machine(dmaemu_dev_to_device(gone_dev)));
	expect("bad-argument", 2, before);

	/* Bad direction on unmap and sync: nothing happens. */
	dma = dma_map_single(dev, buf, 64, DMA_FROM_DEVICE);
	ck_assert(!dma_mapping_error(dev, dma));
	before = count("bad-argument");
	dma_unmap_single(dev, dma, 64, DMA_NONE);
	dma_sync_single_for_cpu(dev, dma, 64, (enum dma_data_direction)9);
	ck_assert_int_eq(dma_map_sg(dev, NULL, 1, DMA_TO_DEVICE), 0);
	expect("bad-argument", 3, before);
	ck_assert_uint_eq(fixture_mapping_count(dd), 1);
	assert_owner(virt_to_phys(buf), 64, DMAEMU_OWNER_DEVICE);
	dma_unmap_single(dev, dma, 64, DMA_FROM_DEVICE);
	kfree(buf);
}
END_TEST

START_TEST(test_unknown_handles)
{
	struct scatterlist sg[2];
	uint8_t *buf;
	uint64_t nm, ia, tm, sn, so;
	dma_addr_t dma;

	make(_i, NULL);
	buf = clean_buffer('A');
	nm = count("unmap-not-mapped");
	ia = count("unmap-invalid-address");
	tm = count("unmap-type-mismatch");
	sn = count("sync-not-mapped");
	so = count("sync-out-of-range");
	dma_unmap_single(dev, 0x80001000, 64, DMA_TO_DEVICE);
	dma_unmap_single(dev, DMA_MAPPING_ERROR, 64, DMA_TO_DEVICE);
	dma_unmap_page(dev, 0x12345000, 64, DMA_TO_DEVICE);
	dma_unmap_resource(dev, 0x12345000, 64, DMA_TO_DEVICE, 0);
	dma_sync_single_for_cpu(dev, 0x80001000, 64, DMA_FROM_DEVICE);
	dma_sync_single_for_device(dev, 0x80001000, 64, DMA_TO_DEVICE);

	/* Double unmap, unmap by the wrong family (resource: nothing is
	 * unmapped; page: unmapped), syncs past the end. */
	dma = dma_map_single(dev, buf, 128, DMA_BIDIRECTIONAL);
	ck_assert(!dma_mapping_error(dev, dma));
	dma_unmap_resource(dev, dma, 128, DMA_BIDIRECTIONAL, 0);
	dma_sync_single_for_cpu(dev, dma + 64, 128, DMA_BIDIRECTIONAL);
	dma_sync_single_range_for_cpu(dev, dma, 64, 64, DMA_BIDIRECTIONAL);
	dma_unmap_page(dev, dma, 128, DMA_BIDIRECTIONAL);
	dma_unmap_single(dev, dma, 128, DMA_BIDIRECTIONAL);

	/* Scatterlists never mapped. */
	sg_init_table(sg, 2);
	sg_set_buf(&sg[0], buf, 64);
	sg_set_buf(&sg[1], buf + 128, 64);
	dma_unmap_sg(dev, sg, 2, DMA_TO_DEVICE);
	dma_sync_sg_for_cpu(dev, sg, 2, DMA_TO_DEVICE);
	ck_assert_uint_eq(count("unmap-not-mapped") - nm, 5);
	ck_assert_uint_eq(count("unmap-invalid-address") - ia, 1);
	ck_assert_uint_eq(count("unmap-type-mismatch") - tm, 2);
	ck_assert_uint_eq(count("sync-out-of-range") - so, 1);
	expected += 9;
	expect("sync-not-mapped", 3, sn);
	assert_owner(virt_to_phys(buf), 256, DMAEMU_OWNER_CPU);
	kfree(buf);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Device side                                                            */
/* ---------------------------------------------------------------------- */

START_TEST(test_device_fault)
{
	struct dmaemu_machine_info info, *b = &info;
	uint8_t in[64], out[64];
	uint64_t end, before;
	int i;

	make(_i, NULL);
	ck_assert_int_eq(dmaemu_machine_info(m, &info), 0);
	end = b->bank[0].phys + b->bank[0].size;
	memset(out, 0x11, sizeof(out));
	ck_assert_int_eq(dmaemu_dram_write(m, end - 32, out, 32), 0);

	/* Half in DRAM, half past its end: nothing written at all. */
	memset(in, 0xee, sizeof(in));
	before = count("dma-fault");
	ck_assert_int_eq(dmaemu_dma_write(dd, end - 32, in, 64), -EFAULT);
	ck_assert_int_eq(mem_holds(end - 32, 32), 0x11);
	memset(out, 0x5a, sizeof(out));
	ck_assert_int_eq(dmaemu_dma_read(dd, end - 32, out, 64), -EFAULT);
	for (i = 0; i < 64; i++)
		ck_assert_uint_eq(out[i], 0x5a);
	ck_assert_int_eq(dmaemu_dma_read(dd, 0x1000, out, 4), -EFAULT);
	ck_assert_int_eq(dmaemu_dma_write(dd, ~(dma_addr_t)0 - 2, in, 8),
			 -EFAULT);
	expect("dma-fault", 4, before);

	before = count("bad-argument");
	ck_assert_int_eq(dmaemu_dma_write(dd, b->bank[0].phys, NULL, 8),
			 -EINVAL);
	ck_assert_int_eq(dmaemu_dma_read(NULL, b->bank[0].phys, out, 8),
			 -EINVAL);
	expect("bad-argument", 2, before);
	ck_assert_int_eq(dmaemu_dma_read(dd, b->bank[0].phys, NULL, 0), 0);
}
END_TEST

START_TEST(test_device_access_records)
{
	struct dmaemu_mapping_info rec;
	uint8_t *buf, tmp[32];
	uint64_t before;
	dma_addr_t dma;

	make(_i, NULL);
	buf = clean_buffer('A');
	dma = dma_map_single(dev, buf, 256, DMA_BIDIRECTIONAL);
	ck_assert(!dma_mapping_error(dev, dma));
	fixture_dev_fill(dd, dma, 'B', 64);
	fixture_dev_fill(dd, dma + 100, 'C', 16);
	ck_assert_int_eq(dmaemu_dma_read(dd, dma + 200, tmp, 32), 0);
	ck_assert_int_eq(dmaemu_device_mapping_find(dd, dma, 1, &rec), 0);
	ck_assert_uint_eq(rec.dev_writes, 2);
	ck_assert_uint_eq(rec.dev_reads, 1);
	ck_assert(rec.last_valid && !rec.last_write);
	ck_assert_uint_eq(rec.last_dma, dma + 200);
	ck_assert_uint_eq(rec.last_len, 32);
	ck_assert(rec.error_checked);
	ck_assert_str_eq(rec.backend, "direct");
	ck_assert_str_eq(rec.fn, "dma_map_single_attrs");
	ck_assert_ptr_nonnull(rec.caller);
	/* Outside every mapping: refused, and counted. */
	ck_assert_uint_eq(stray(), 0);
	before = count("device-access-unmapped");
	ck_assert_int_eq(dmaemu_dma_read(dd, dma + 4096, tmp, 8), -EFAULT);
	expect("device-access-unmapped", 1, before);
	ck_assert_uint_eq(stray(), 1);
	dma_unmap_single(dev, dma, 256, DMA_BIDIRECTIONAL);
	kfree(buf);
}
END_TEST

START_TEST(test_leaked_mappings)
{
	struct scatterlist sg[3];
	uint8_t *a, *b, *c;
	struct page *pg;
	uint64_t before;
	int i;

	make(_i, NULL);
	a = clean_buffer('A');
	b = clean_buffer('B');
	c = clean_buffer('C');
	pg = alloc_pages(GFP_KERNEL, 0);
	ck_assert_ptr_nonnull(pg);
	ck_assert(!dma_mapping_error(
		dev, dma_map_single(dev, a, 64, DMA_TO_DEVICE)));
	ck_assert(!dma_mapping_error(
		dev, dma_map_single(dev, a + 64, 64, DMA_FROM_DEVICE)));
	ck_assert(!dma_mapping_error(
		dev, dma_map_page(dev, pg, 100, 200, DMA_BIDIRECTIONAL)));
	sg_init_table(sg, 3);
	sg_set_buf(&sg[0], b, 100);
	sg_set_buf(&sg[1], c, 256);
	sg_set_buf(&sg[2], b + 128, 64);
	ck_assert_int_eq(dma_map_sg(dev, sg, 3, DMA_FROM_DEVICE), 3);
	ck_assert(
		!dma_mapping_error(dev, dma_map_resource(dev, 0x10000000, 4096,
							 DMA_TO_DEVICE, 0)));
	ck_assert_uint_eq(fixture_mapping_count(dd), 3 + 3 + 1);
	assert_owner(virt_to_phys(c), 256, DMAEMU_OWNER_DEVICE);

	before = count("leaked-mapping");
	dmaemu_device_destroy(dd);
	dd = NULL;
	/* One report a mapping; the scatterlist is one mapping. */
	expect("leaked-mapping", 5, before);
	for (i = 0; i < 3; i++)
		assert_owner(virt_to_phys(i == 0   ? a
					  : i == 1 ? b
						   : c),
			     256, DMAEMU_OWNER_CPU);
	assert_owner(page_to_phys(pg), 4096, DMAEMU_OWNER_CPU);
	__free_pages(pg, 0);
	kfree(a);
	kfree(b);
	kfree(c);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Pages, scatterlists, resources, dma_offset                             */
/* ---------------------------------------------------------------------- */

START_TEST(test_map_page_and_sg)
{
	struct scatterlist sg[3], *s;
	struct page *pg;
	uint8_t *va;
	uint64_t phys;
	dma_addr_t dma;
	int i, n;

	make(_i, NULL);
	pg = alloc_pages(GFP_KERNEL, 1);
	ck_assert_ptr_nonnull(pg);
	va = page_address(pg);
	phys = page_to_phys(pg);
	memset(va, 'A', 8192);
	ck_assert_int_eq(dmaemu_cache_clean(m, phys, 8192), 0);

	/* A page mapping that runs into the next page. */
	dma = dma_map_page(dev, pg, 4032, 128, DMA_FROM_DEVICE);
	ck_assert(!dma_mapping_error(dev, dma));
	ck_assert_uint_eq(dma, phys + 4032);
	fixture_dev_fill(dd, dma, 'P', 128);
	dma_unmap_page(dev, dma, 128, DMA_FROM_DEVICE);
	ck_assert_int_eq(cpu_sees(va + 4032, 128), 'P');

	/* Three entries, one segment each. */
	sg_init_table(sg, 3);
	sg_set_page(&sg[0], pg, 64, 0);
	sg_set_page(&sg[1], pg, 128, 1024);
	sg_set_buf(&sg[2], va + 6144, 192);
	ck_assert_int_eq(cpu_sees(va, 64), 'A'); /* resident lines */
	ck_assert_int_eq(cpu_sees(va + 1024, 128), 'A');
	n = dma_map_sg(dev, sg, 3, DMA_FROM_DEVICE);
	ck_assert_int_eq(n, 3);
	for_each_sg (sg, s, n, i) {
		ck_assert_uint_eq(sg_dma_address(s), sg_phys(s));
		ck_assert_uint_eq(sg_dma_len(s), s->length);
		assert_owner(sg_phys(s), s->length, DMAEMU_OWNER_DEVICE);
		fixture_dev_fill(dd, sg_dma_address(s), '0' + i, s->length);
	}
	dma_sync_sg_for_cpu(dev, sg, 3, DMA_FROM_DEVICE);
	for_each_sg (sg, s, n, i) {
		ck_assert_int_eq(cpu_sees(sg_virt(s), s->length), '0' + i);
		assert_owner(sg_phys(s), s->length, DMAEMU_OWNER_CPU);
	}
	dma_sync_sg_for_device(dev, sg, 3, DMA_FROM_DEVICE);
	assert_owner(sg_phys(&sg[1]), 128, DMAEMU_OWNER_DEVICE);
	dma_unmap_sg(dev, sg, 3, DMA_FROM_DEVICE);
	assert_owner(sg_phys(&sg[1]), 128, DMAEMU_OWNER_CPU);
	__free_pages(pg, 1);
}
END_TEST

START_TEST(test_map_resource)
{
	uint8_t *buf, tmp[8];
	uint64_t before;
	dma_addr_t dma;

	make(_i, NULL);
	buf = clean_buffer('A');
	before = count("bad-argument");
	ck_assert(
		dma_mapping_error(dev, dma_map_resource(dev, virt_to_phys(buf),
							64, DMA_TO_DEVICE, 0)));
	expect("bad-argument", 1, before);
	dma = dma_map_resource(dev, 0x20000000, 4096, DMA_BIDIRECTIONAL, 0);
	ck_assert(!dma_mapping_error(dev, dma));
	ck_assert_uint_eq(dma, 0x20000000);
	/* Peer-to-peer accesses are not modelled: a fault. */
	before = count("dma-fault");
	ck_assert_int_eq(dmaemu_dma_read(dd, dma, tmp, 8), -EFAULT);
	expect("dma-fault", 1, before);
	dma_unmap_resource(dev, dma, 4096, DMA_BIDIRECTIONAL, 0);
	kfree(buf);
}
END_TEST

START_TEST(test_dma_offset)
{
	uint8_t *buf, tmp[8] = {0};
	uint64_t phys, before;
	dma_addr_t dma;

	make(_i, "dma_offset=0x40000000");
	buf = clean_buffer('A');
	phys = virt_to_phys(buf);
	/* 0x80000000 + 0x40000000 is beyond the default 32-bit mask. */
	ck_assert_int_eq(dma_set_mask(dev, DMA_BIT_MASK(64)), 0);
	dma = dma_map_single(dev, buf, 256, DMA_FROM_DEVICE);
	ck_assert(!dma_mapping_error(dev, dma));
	ck_assert_uint_eq(dma, phys + 0x40000000);
	fixture_dev_fill(dd, dma, 'O', 256);
	ck_assert_int_eq(mem_holds(phys, 256), 'O');
	dma_sync_single_for_cpu(dev, dma, 256, DMA_FROM_DEVICE);
	ck_assert_int_eq(cpu_sees(buf, 256), 'O');
	/* The physical address is not a bus address. */
	before = count("dma-fault");
	ck_assert_int_eq(dmaemu_dma_write(dd, phys, tmp, 8), -EFAULT);
	expect("dma-fault", 1, before);
	dma_unmap_single(dev, dma, 256, DMA_FROM_DEVICE);
	kfree(buf);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Prefetch                                                               */
/* ---------------------------------------------------------------------- */

/*
 * With prefetch=1 (one chance at every CPU access) the CPU pulls the
 * device-owned line in while the device works on it: after map (arm's
 * invalidate included) the line is resident with the old data again, so
 * the device's write is only seen after sync_for_cpu invalidates.  The
 * same program without prefetch reads the new data by luck (the line was
 * never resident).  arm and arm64.
 */
START_TEST(test_prefetch_needs_sync)
{
	static const char *const pf[] = {"prefetch=1:prefetch_rate=1",
					 "prefetch=0"};
	unsigned int k;

	for (k = 0; k < 2; k++) {
		uint8_t *buf, *other;
		uint64_t phys, stale, own;
		dma_addr_t dma;

		make(_i, pf[k]);
		buf = kmalloc(64, GFP_KERNEL);
		other = kmalloc(64, GFP_KERNEL);
		phys = virt_to_phys(buf);
		memset(buf, 'A', n64);
		ck_assert_int_eq(dmaemu_cache_clean_invalidate(m, phys, 64), 0);
		ck_assert(!resident(phys));

		dma = dma_map_single(dev, buf, 64, DMA_FROM_DEVICE);
		ck_assert(!dma_mapping_error(dev, dma));
		ck_assert(!resident(phys));
		other[0] = 1; /* any CPU access: a prefetch chance */
		ck_assert_int_eq(resident(phys), k == 0);
		fixture_dev_fill(dd, dma, 'B', 64);
		stale = count("stale-cpu-read");
		own = count("cpu-access-device-owned");
		ck_assert_int_eq(cpu_sees(buf, 64), k == 0 ? 'A' : 'B');
		/* Stale with the prefetch; without it the right data, by
		 * luck: the ownership check says so. */
		ck_assert_uint_eq(count("cpu-access-device-owned") - own,
				  k == 0 ? 0 : 1);
		expected += k == 0 ? 0 : 1;
		expect("stale-cpu-read", k == 0 ? 1 : 0, stale);
		dma_sync_single_for_cpu(dev, dma, 64, DMA_FROM_DEVICE);
		ck_assert_int_eq(cpu_sees(buf, 64), 'B');
		/* Given back to the CPU: no longer prefetched. */
		ck_assert_uint_eq(prefetch_ranges(), 0);
		dma_sync_single_for_device(dev, dma, 64, DMA_FROM_DEVICE);
		ck_assert_uint_eq(prefetch_ranges(), k == 0 ? 1 : 0);
		dma_unmap_single(dev, dma, 64, DMA_FROM_DEVICE);
		ck_assert_uint_eq(prefetch_ranges(), 0);
		kfree(buf);
		kfree(other);
		teardown();
	}
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Backend choice, NON_CONSISTENT                                         */
/* ---------------------------------------------------------------------- */

static const char *backend_of(dma_addr_t dma)
{
	struct dmaemu_mapping_info rec;

	ck_assert_int_eq(dmaemu_device_mapping_find(dd, dma, 1, &rec), 0);
	return rec.backend;
}

START_TEST(test_backend_choice)
{
	static const char *const opts[] = {"highmem=16M", "swiotlb=force",
					   "iommu=1"};
	unsigned int k;

	for (k = 0; k < 3; k++) {
		struct page *pg;
		uint8_t *buf;
		uint64_t phys;
		dma_addr_t dma;

		make(_i, opts[k]);
		pg = alloc_pages(GFP_KERNEL, 0);
		ck_assert_ptr_nonnull(pg);
		buf = page_address(pg);
		phys = page_to_phys(pg);
		if (k == 0)
			ck_assert_uint_ge(phys, 1ULL << 32); /* above mask */
		memset(buf, 'A', n256);
		dma = dma_map_single(dev, buf, 256, DMA_FROM_DEVICE);
		ck_assert(!dma_mapping_error(dev, dma));
		ck_assert_str_eq(backend_of(dma), k == 2 ? "iommu" : "swiotlb");
		ck_assert_uint_ne(dma, phys);
		ck_assert_uint_le(dma + 255, DMA_BIT_MASK(32));
		fixture_dev_fill(dd, dma, 'B', 256);
		dma_unmap_single(dev, dma, 256, DMA_FROM_DEVICE);
		ck_assert_int_eq(cpu_sees(buf, 256), 'B');
		__free_pages(pg, 0);
		teardown();
	}
}
END_TEST

START_TEST(test_non_consistent)
{
	uint8_t *buf, *plain;
	dma_addr_t h, hp;
	uint64_t phys, before;

	make(_i, NULL);
	buf = dma_alloc_attrs(dev, 4096, &h, GFP_KERNEL,
			      DMA_ATTR_NON_CONSISTENT);
	ck_assert_ptr_nonnull(buf);
	phys = virt_to_phys(buf);
	plain = dma_alloc_coherent(dev, 4096, &hp, GFP_KERNEL);
	ck_assert_ptr_nonnull(plain);

	/* CPU writes: the device sees them after dma_cache_sync only. */
	memset(buf, 'B', n256);
	before = count("stale-device-read");
	ck_assert_int_eq(dev_sees(h, 256), noncoherent() ? 0 : 'B');
	expect("stale-device-read", noncoherent() ? 1 : 0, before);
	dma_cache_sync(dev, buf, 256, DMA_TO_DEVICE);
	ck_assert_int_eq(dev_sees(h, 256), 'B');
	assert_lines(phys, 256, 1, 0, 0);

	/* Device writes: the CPU after a sync on the handle. */
	dma_cache_sync(dev, buf + 1024, 64, DMA_FROM_DEVICE);
	if (noncoherent())
		ck_assert(!resident(phys + 1024));
	fixture_dev_fill(dd, h + 1024, 'C', 64);
	ck_assert_int_eq(cpu_sees(buf + 1024, 64), 'C');
	fixture_dev_fill(dd, h + 1024, 'D', 64);
	before = count("stale-cpu-read");
	ck_assert_int_eq(cpu_sees(buf + 1024, 64), noncoherent() ? 'C' : 'D');
	expect("stale-cpu-read", noncoherent() ? 1 : 0, before);
	dma_sync_single_for_cpu(dev, h + 1024, 64, DMA_FROM_DEVICE);
	ck_assert_int_eq(cpu_sees(buf + 1024, 64), 'D');
	fixture_dev_fill(dd, h + 1024, 'E', 64);
	dma_cache_sync(dev, buf + 1024, 64, DMA_FROM_DEVICE);
	ck_assert_int_eq(cpu_sees(buf + 1024, 64), 'E');

	/* Not for coherent memory, nor for memory that is no allocation. */
	before = count("sync-not-mapped");
	dma_cache_sync(dev, plain, 64, DMA_TO_DEVICE);
	dma_cache_sync(dev, &before, 8, DMA_TO_DEVICE);
	expect("sync-not-mapped", 2, before);
	/* A sync on a coherent handle needs nothing and says nothing. */
	dma_sync_single_for_cpu(dev, hp, 64, DMA_FROM_DEVICE);
	dma_free_attrs(dev, 4096, buf, h, DMA_ATTR_NON_CONSISTENT);
	dma_free_coherent(dev, 4096, plain, hp);
}
END_TEST

/*
 * Ranges that start inside a line: [60, 160) of a buffer is lines 0 to 2,
 * the last one only from byte 128, and the map, the syncs and the unmap
 * move all three; a CPU load of the last line's bytes while the device
 * owns them is reported.  A device write of [100, 200) of a buffer whose
 * last line [192, 256) the CPU took back and wrote is reported for those
 * 8 bytes, while the device owns the lines before.
 */
START_TEST(test_unaligned_last_line)
{
	uint8_t *buf, pkt[100];
	struct dmaemu_report r;
	uint64_t phys, before;
	dma_addr_t h;

	make(_i, NULL);
	buf = kmalloc(256, GFP_KERNEL);
	ck_assert_ptr_nonnull(buf);
	phys = virt_to_phys(buf);
	ck_assert_uint_eq(phys % LINE, 0);

	h = dma_map_single(dev, buf + 60, 100, DMA_FROM_DEVICE);
	ck_assert(!dma_mapping_error(dev, h));
	assert_owner(phys, 3 * LINE, DMAEMU_OWNER_DEVICE);
	assert_owner(phys + 3 * LINE, LINE, DMAEMU_OWNER_CPU);
	memset(pkt, 0x5a, sizeof(pkt));
	before = count("device-access-cpu-owned");
	ck_assert_int_eq(dmaemu_dma_write(dd, h, pkt, sizeof(pkt)), 0);
	expect("device-access-cpu-owned", 0, before);
	before = count("cpu-access-device-owned");
	(void)cpu_sees(buf + 150, 1);
	expect("cpu-access-device-owned", 1, before);
	ck_assert_int_eq(dmaemu_report_get(m, dmaemu_report_kept(m) - 1, &r),
			 0);
	ck_assert_uint_eq(r.phys, phys + 150);
	dma_sync_single_for_cpu(dev, h, 100, DMA_FROM_DEVICE);
	assert_owner(phys, 4 * LINE, DMAEMU_OWNER_CPU);
	ck_assert_int_eq(cpu_sees(buf + 60, 100), 0x5a);
	dma_sync_single_for_device(dev, h, 100, DMA_FROM_DEVICE);
	assert_owner(phys, 3 * LINE, DMAEMU_OWNER_DEVICE);
	dma_unmap_single(dev, h, 100, DMA_FROM_DEVICE);
	assert_owner(phys, 4 * LINE, DMAEMU_OWNER_CPU);

	h = dma_map_single(dev, buf, 256, DMA_BIDIRECTIONAL);
	ck_assert(!dma_mapping_error(dev, h));
	dma_sync_single_range_for_cpu(dev, h, 3 * LINE, LINE,
				      DMA_BIDIRECTIONAL);
	assert_owner(phys, 3 * LINE, DMAEMU_OWNER_DEVICE);
	assert_owner(phys + 3 * LINE, LINE, DMAEMU_OWNER_CPU);
	buf[3 * LINE + 3] = 7;
	before = count("device-access-cpu-owned");
	ck_assert_int_eq(dmaemu_dma_write(dd, h + 100, pkt, sizeof(pkt)), 0);
	expect("device-access-cpu-owned", 1, before);
	ck_assert_int_eq(dmaemu_report_get(m, dmaemu_report_kept(m) - 1, &r),
			 0);
	ck_assert_uint_eq(r.phys, phys + 3 * LINE);
	ck_assert_uint_eq(r.size, 8);
	/* Giving the line back writes the CPU's copy over the device's 8
	 * bytes where the device does not snoop. */
	before = count("lost-device-write");
	dma_sync_single_range_for_device(dev, h, 3 * LINE, LINE,
					 DMA_BIDIRECTIONAL);
	expect("lost-device-write", noncoherent() ? 1 : 0, before);
	dma_unmap_single(dev, h, 256, DMA_BIDIRECTIONAL);
	kfree(buf);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("dma-direct");
	TCase *tc = tcase_create("direct");

	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_dev_write_cpu_read_sync, 0, 3);
	tcase_add_loop_test(tc, test_dev_write_cpu_read_unmap, 0, 3);
	tcase_add_loop_test(tc, test_cpu_write_dev_read, 0, 3);
	tcase_add_loop_test(tc, test_partial_edge_lines, 0, 3);
	tcase_add_loop_test(tc, test_unaligned_last_line, 0, 3);
	tcase_add_loop_test(tc, test_skip_cpu_sync, 0, 3);
	tcase_add_loop_test(tc, test_map_invalid_memory, 0, 3);
	tcase_add_loop_test(tc, test_bad_arguments, 0, 3);
	tcase_add_loop_test(tc, test_unknown_handles, 0, 3);
	tcase_add_loop_test(tc, test_device_fault, 0, 3);
	tcase_add_loop_test(tc, test_device_access_records, 0, 3);
	tcase_add_loop_test(tc, test_leaked_mappings, 0, 3);
	tcase_add_loop_test(tc, test_map_page_and_sg, 0, 3);
	tcase_add_loop_test(tc, test_map_resource, 0, 3);
	tcase_add_loop_test(tc, test_dma_offset, 0, 3);
	tcase_add_loop_test(tc, test_prefetch_needs_sync, ARM, ARM64 + 1);
	tcase_add_loop_test(tc, test_backend_choice, 0, 3);
	tcase_add_loop_test(tc, test_non_consistent, 0, 3);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(suite());
}
