// SPDX-License-Identifier: MIT
/*
 * check-dma-swiotlb.c - the bounce-buffer backend: copies by direction at
 * map, unmap and both syncs (what MEM and the CPU's copy hold at the
 * bounce slot and at the original after each call), the missing
 * sync_for_cpu that hides the device's data on every profile, SKIP_CPU_SYNC,
 * bouncing of a buffer above a 32-bit mask, pool exhaustion, the 128-slot
 * limit, slot reuse, and scatterlists.  Every test runs on arm, arm64 and
 * x86.
 */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "check-run.h"
#include "dma/dma.h"
#include "dmaemu/cpu.h"
#include "dmaemu/device.h"
#include "fixture.h"

#include <linux/dma-mapping.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>

static const char *const profiles[] = {"arm", "arm64", "x86"};

static struct dmaemu_machine *m;
static struct dmaemu_device *dd;
static struct device *dev;
static bool coherent; /* the x86 profile: devices snoop */

/* A machine of @profile with @extra options and one bare device. */
static void start(int profile, const char *extra)
{
	m = fixture_machine("profile=%s:mem=16M%s%s", profiles[profile],
			    extra ? ":" : "", extra ? extra : "");
	coherent = profile == 2;
	dd = dmaemu_device_create(m, "dev0", NULL, NULL);
	ck_assert_ptr_nonnull(dd);
	dev = dmaemu_device_to_dev(dd);
	ck_assert_ptr_nonnull(dev);
}

static void stop(void)
{
	struct dmaemu__swiotlb_stats st;

	dmaemu__swiotlb_info(m, &st);
	/* Every test gives its bounce buffers back. */
	ck_assert_uint_eq(st.used, 0);
	dmaemu_device_destroy(dd);
	ck_assert_uint_eq(dmaemu_report_count(m, "leaked-mapping"), 0);
	dmaemu_machine_destroy(m);
	m = NULL;
	fixture_teardown();
}

static uint64_t reports(const char *kind)
{
	return dmaemu_report_count(m, kind);
}

static uint8_t *mem(uint64_t phys)
{
	return dmaemu__phys_mem(m, phys);
}

static uint8_t *cpu(uint64_t phys)
{
	return dmaemu__phys_cpu(m, phys);
}

static unsigned long slots_used(void)
{
	struct dmaemu__swiotlb_stats st;

	dmaemu__swiotlb_info(m, &st);
	return st.used;
}

/* ---------------------------------------------------------------------- */

/*
 * TO_DEVICE: map copies the original into the bounce buffer and cleans it
 * for the device; a CPU change after map is not seen by the device until
 * sync_for_device copies again; unmap copies nothing back.
 */
START_TEST(to_device_copies_at_map_and_sync_for_device)
{
	uint8_t *buf;
	uint64_t phys;
	dma_addr_t addr;

	start(_i, "swiotlb=force");
	buf = kmalloc(256, GFP_KERNEL);
	ck_assert_ptr_nonnull(buf);
	phys = virt_to_phys(buf);
	fixture_cpu_fill(buf, 0xa1, 256);

	addr = dma_map_single(dev, buf, 256, DMA_TO_DEVICE);
	ck_assert(!dma_mapping_error(dev, addr));
	ck_assert_uint_ne(addr, phys);
	ck_assert_uint_eq(dmaemu__swiotlb_orig(m, addr), phys);
	ck_assert_uint_eq(slots_used(), 1);
	/* The bounce buffer got the data through the CPU's view... */
	ck_assert(fixture_all(cpu(addr), 0xa1, 256));
	/* ...and was written back for the device, except on x86. */
	if (coherent) {
		ck_assert(fixture_cpu_dirty(m, addr));
	} else {
		ck_assert(!fixture_cpu_dirty(m, addr) &&
			  !fixture_cpu_dirty(m, addr + 255));
		ck_assert(fixture_all(mem(addr), 0xa1, 256));
	}
	ck_assert(fixture_dev_sees(dd, addr, 0xa1, 256));

	/* The CPU takes the buffer back and changes it: the bounce buffer
	 * keeps the old bytes until sync_for_device copies. */
	dma_sync_single_for_cpu(dev, addr, 256, DMA_TO_DEVICE);
	fixture_cpu_fill(buf, 0xb2, 256);
	ck_assert(fixture_all(cpu(addr), 0xa1, 256));
	dma_sync_single_for_device(dev, addr, 256, DMA_TO_DEVICE);
	ck_assert(fixture_all(cpu(addr), 0xb2, 256));
	if (!coherent)
		ck_assert(fixture_all(mem(addr), 0xb2, 256));
	ck_assert(fixture_dev_sees(dd, addr, 0xb2, 256));

	/* A device write into the bounce buffer (a driver's bug, reported)
	 * is not copied back. */
	fixture_dev_fill(dd, addr, 0xcc, 16);
	ck_assert_uint_eq(reports("device-write-to-device-mapping"), 1);
	dma_unmap_single(dev, addr, 256, DMA_TO_DEVICE);
	ck_assert_uint_eq(slots_used(), 0);
	ck_assert(fixture_cpu_sees(buf, 0xb2, 256));
	ck_assert_uint_eq(reports("swiotlb-full"), 0);
	kfree(buf);
	ck_assert_uint_eq(reports(NULL), 1); /* every report */
	stop();
}
END_TEST

/*
 * FROM_DEVICE: map copies nothing (Linux 4.14); the device writes the
 * bounce buffer only; unmap copies it to the original through the CPU, so
 * the original's lines are CPU-dirty and its MEM is untouched.
 */
START_TEST(from_device_copies_at_unmap)
{
	uint8_t *buf;
	uint64_t phys;
	dma_addr_t addr;

	start(_i, "swiotlb=force");
	buf = kmalloc(512, GFP_KERNEL);
	ck_assert_ptr_nonnull(buf);
	phys = virt_to_phys(buf);
	fixture_cpu_fill(buf, 0x11, 512);

	addr = dma_map_single(dev, buf, 512, DMA_FROM_DEVICE);
	ck_assert(!dma_mapping_error(dev, addr));
	ck_assert_uint_ne(addr, phys);
	/* No copy at map: the fresh pool still holds zeros. */
	ck_assert(fixture_all(cpu(addr), 0x00, 512));

	fixture_dev_fill(dd, addr, 0xd4, 512);
	ck_assert(fixture_all(mem(addr), 0xd4, 512));
	ck_assert(fixture_all(cpu(phys), 0x11, 512));
	ck_assert(!fixture_all(mem(phys), 0xd4, 512));

	dma_unmap_single(dev, addr, 512, DMA_FROM_DEVICE);
	ck_assert(fixture_cpu_sees(buf, 0xd4, 512));
	/* The CPU wrote the original: dirty lines, memory not yet. */
	ck_assert(fixture_cpu_dirty(m, phys));
	ck_assert(!fixture_all(mem(phys), 0xd4, 512));
	kfree(buf);
	ck_assert_uint_eq(reports(NULL), 0); /* every report */
	stop();
}
END_TEST

/*
 * A driver that forgets sync_for_cpu never sees the device's data: it is
 * in the bounce buffer, on every profile, x86 included (where the same
 * driver works by luck without swiotlb).
 */
START_TEST(missing_sync_for_cpu_hides_device_data)
{
	uint8_t *buf;
	dma_addr_t addr;
	int k;

	start(_i, "swiotlb=force");
	buf = kmalloc(128, GFP_KERNEL);
	ck_assert_ptr_nonnull(buf);
	fixture_cpu_fill(buf, 0x22, 128);
	addr = dma_map_single(dev, buf, 128, DMA_FROM_DEVICE);
	ck_assert(!dma_mapping_error(dev, addr));
	fixture_dev_fill(dd, addr, 0xe5, 128);
	/* However long the driver polls, the bytes never arrive. */
	for (k = 0; k < 3; k++)
		ck_assert(fixture_cpu_sees(buf, 0x22, 128));
	dma_sync_single_for_cpu(dev, addr, 128, DMA_FROM_DEVICE);
	ck_assert(fixture_cpu_sees(buf, 0xe5, 128));
	/* Again for the next transfer, then unmap copies it. */
	dma_sync_single_for_device(dev, addr, 128, DMA_FROM_DEVICE);
	fixture_dev_fill(dd, addr, 0xf6, 128);
	ck_assert(fixture_cpu_sees(buf, 0xe5, 128));
	dma_unmap_single(dev, addr, 128, DMA_FROM_DEVICE);
	ck_assert(fixture_cpu_sees(buf, 0xf6, 128));
	kfree(buf);
	/* The polls read a buffer the device owns: one report for their
	 * site and mapping, the three others counted as repeats. */
	ck_assert_uint_eq(reports("cpu-access-device-owned"), 1);
	ck_assert_uint_eq(
		dmaemu__own_repeats(m, DMAEMU_REPORT_CPU_ACCESS_DEVICE_OWNED),
		3);
	ck_assert_uint_eq(reports(NULL), 1); /* every report */
	stop();
}
END_TEST

/* The contrast: without swiotlb, x86 snoops, so the same bug is hidden. */
START_TEST(x86_direct_shows_data_without_sync)
{
	uint8_t *buf;
	dma_addr_t addr;

	start(2, "swiotlb=normal");
	buf = kmalloc(128, GFP_KERNEL);
	ck_assert_ptr_nonnull(buf);
	fixture_cpu_fill(buf, 0x22, 128);
	addr = dma_map_single(dev, buf, 128, DMA_FROM_DEVICE);
	ck_assert(!dma_mapping_error(dev, addr));
	ck_assert_uint_eq(addr, virt_to_phys(buf));
	fixture_dev_fill(dd, addr, 0xe5, 128);
	ck_assert(fixture_cpu_sees(buf, 0xe5, 128));
	dma_unmap_single(dev, addr, 128, DMA_FROM_DEVICE);
	kfree(buf);
	/* Right data by luck: the ownership check still says it. */
	ck_assert_uint_eq(reports("cpu-access-device-owned"), 1);
	ck_assert_uint_eq(reports(NULL), 1); /* every report */
	stop();
}
END_TEST

/* BIDIRECTIONAL: copies both ways, at map and at unmap. */
START_TEST(bidirectional_copies_both_ways)
{
	uint8_t *buf;
	dma_addr_t addr;

	start(_i, "swiotlb=force");
	buf = kmalloc(300, GFP_KERNEL);
	ck_assert_ptr_nonnull(buf);
	fixture_cpu_fill(buf, 0x33, 300);
	addr = dma_map_single(dev, buf, 300, DMA_BIDIRECTIONAL);
	ck_assert(!dma_mapping_error(dev, addr));
	ck_assert(fixture_dev_sees(dd, addr, 0x33, 300));
	fixture_dev_fill(dd, addr + 100, 0x44, 50);
	dma_sync_single_for_cpu(dev, addr, 300, DMA_BIDIRECTIONAL);
	ck_assert(fixture_cpu_sees(buf, 0x33, 100));
	ck_assert(fixture_cpu_sees(buf + 100, 0x44, 50));
	ck_assert(fixture_cpu_sees(buf + 150, 0x33, 150));
	fixture_cpu_fill(buf, 0x55, 10);
	dma_sync_single_for_device(dev, addr, 300, DMA_BIDIRECTIONAL);
	ck_assert(fixture_dev_sees(dd, addr, 0x55, 10));
	fixture_dev_fill(dd, addr + 299, 0x66, 1);
	dma_unmap_single(dev, addr, 300, DMA_BIDIRECTIONAL);
	ck_assert(fixture_cpu_sees(buf + 299, 0x66, 1));
	ck_assert(fixture_cpu_sees(buf, 0x55, 10));
	kfree(buf);
	ck_assert_uint_eq(reports(NULL), 0); /* every report */
	stop();
}
END_TEST

/*
 * 4.14 copies nothing at a FROM_DEVICE map, so the bytes the device does
 * not write come back from the bounce buffer, not from the original.
 */
START_TEST(partial_device_write_returns_bounce_bytes)
{
	uint8_t *buf;
	dma_addr_t addr;

	start(_i, "swiotlb=force");
	buf = kmalloc(256, GFP_KERNEL);
	ck_assert_ptr_nonnull(buf);
	fixture_cpu_fill(buf, 0x77, 256);
	addr = dma_map_single(dev, buf, 256, DMA_FROM_DEVICE);
	ck_assert(!dma_mapping_error(dev, addr));
	fixture_dev_fill(dd, addr, 0x88, 16);
	dma_unmap_single(dev, addr, 256, DMA_FROM_DEVICE);
	ck_assert(fixture_cpu_sees(buf, 0x88, 16));
	ck_assert(fixture_cpu_sees(buf + 16, 0x00, 240));
	kfree(buf);
	ck_assert_uint_eq(reports(NULL), 0); /* every report */
	stop();
}
END_TEST

/* SKIP_CPU_SYNC: no copy and no maintenance at map or unmap. */
START_TEST(skip_cpu_sync_skips_copies)
{
	uint8_t *buf;
	dma_addr_t addr;

	start(_i, "swiotlb=force");
	buf = kmalloc(256, GFP_KERNEL);
	ck_assert_ptr_nonnull(buf);
	fixture_cpu_fill(buf, 0x99, 256);
	addr = dma_map_single_attrs(dev, buf, 256, DMA_TO_DEVICE,
				    DMA_ATTR_SKIP_CPU_SYNC);
	ck_assert(!dma_mapping_error(dev, addr));
	ck_assert(fixture_all(cpu(addr), 0x00, 256));
	ck_assert(fixture_dev_sees(dd, addr, 0x00, 256));
	dma_sync_single_for_device(dev, addr, 256, DMA_TO_DEVICE);
	ck_assert(fixture_dev_sees(dd, addr, 0x99, 256));
	dma_unmap_single_attrs(dev, addr, 256, DMA_TO_DEVICE,
			       DMA_ATTR_SKIP_CPU_SYNC);

	addr = dma_map_single(dev, buf, 256, DMA_FROM_DEVICE);
	ck_assert(!dma_mapping_error(dev, addr));
	fixture_dev_fill(dd, addr, 0xab, 256);
	dma_unmap_single_attrs(dev, addr, 256, DMA_FROM_DEVICE,
			       DMA_ATTR_SKIP_CPU_SYNC);
	ck_assert(fixture_cpu_sees(buf, 0x99, 256));
	kfree(buf);
	/* The device's read of the slot the map left unfilled, and only it. */
	ck_assert_uint_eq(reports("stale-device-read"), 1);
	ck_assert_uint_eq(reports(NULL), 1); /* every report */
	stop();
}
END_TEST

/*
 * Without swiotlb=force, a buffer above the device's 32-bit mask bounces
 * through the pool below 4 GiB; one below the mask, or with a 64-bit
 * mask, does not.
 */
START_TEST(above_mask_bounces)
{
	struct page *hi, *lo;
	uint64_t hphys, lphys;
	struct dmaemu__swiotlb_stats st;
	dma_addr_t addr;

	start(_i, "swiotlb=normal:highmem=16M");
	hi = alloc_pages(GFP_KERNEL, 0);
	lo = alloc_pages(GFP_KERNEL | __GFP_DMA32, 0);
	ck_assert_ptr_nonnull(hi);
	ck_assert_ptr_nonnull(lo);
	hphys = page_to_phys(hi);
	lphys = page_to_phys(lo);
	ck_assert_uint_ge(hphys, 1ULL << 32);
	ck_assert_uint_lt(lphys, 1ULL << 32);
	fixture_cpu_fill(page_address(hi), 0x5a, PAGE_SIZE);

	addr = dma_map_page(dev, hi, 0, PAGE_SIZE, DMA_TO_DEVICE);
	ck_assert(!dma_mapping_error(dev, addr));
	ck_assert_uint_lt(addr + PAGE_SIZE - 1, 1ULL << 32);
	ck_assert_uint_eq(dmaemu__swiotlb_orig(m, addr), hphys);
	ck_assert_uint_eq(addr & (PAGE_SIZE - 1), 0); /* page stride */
	ck_assert(fixture_dev_sees(dd, addr, 0x5a, PAGE_SIZE));
	dma_unmap_page(dev, addr, PAGE_SIZE, DMA_TO_DEVICE);

	/* Below the mask: direct. */
	addr = dma_map_page(dev, lo, 0, PAGE_SIZE, DMA_TO_DEVICE);
	ck_assert(!dma_mapping_error(dev, addr));
	ck_assert_uint_eq(addr, lphys);
	dma_unmap_page(dev, addr, PAGE_SIZE, DMA_TO_DEVICE);

	/* A 64-bit device reaches the high page directly. */
	ck_assert_int_eq(dma_set_mask(dev, DMA_BIT_MASK(64)), 0);
	addr = dma_map_page(dev, hi, 0, PAGE_SIZE, DMA_TO_DEVICE);
	ck_assert(!dma_mapping_error(dev, addr));
	ck_assert_uint_eq(addr, hphys);
	dma_unmap_page(dev, addr, PAGE_SIZE, DMA_TO_DEVICE);

	dmaemu__swiotlb_info(m, &st);
	ck_assert_uint_eq(st.maps, 1);
	/* The pool lies below 4 GiB. */
	ck_assert_uint_lt(st.start, 1ULL << 32);
	__free_pages(hi, 0);
	__free_pages(lo, 0);
	ck_assert_uint_eq(reports(NULL), 0); /* every report */
	stop();
}
END_TEST

/*
 * A 256 KiB pool is 128 slots: 64 page-sized mappings fill it; the next
 * fails with DMA_MAPPING_ERROR and exactly one swiotlb-full report, or none
 * with NO_WARN; unmapping makes room again.
 */
START_TEST(exhaustion)
{
	enum { N = 64 };
	struct page *pages;
	uint8_t *base;
	dma_addr_t addr[N], extra;
	int k;

	start(_i, "swiotlb=force:swiotlb_size=256K");
	pages = alloc_pages(GFP_KERNEL, 7); /* 512 KiB */
	ck_assert_ptr_nonnull(pages);
	base = page_address(pages);
	for (k = 0; k < N; k++) {
		addr[k] = dma_map_single(dev, base + k * PAGE_SIZE, PAGE_SIZE,
					 DMA_TO_DEVICE);
		ck_assert(!dma_mapping_error(dev, addr[k]));
	}
	ck_assert_uint_eq(slots_used(), 128);
	ck_assert_uint_eq(reports("swiotlb-full"), 0);

	extra = dma_map_single(dev, base + N * PAGE_SIZE, PAGE_SIZE,
			       DMA_TO_DEVICE);
	ck_assert(dma_mapping_error(dev, extra));
	ck_assert_uint_eq(reports("swiotlb-full"), 1);
	extra = dma_map_single_attrs(dev, base + N * PAGE_SIZE, PAGE_SIZE,
				     DMA_TO_DEVICE, DMA_ATTR_NO_WARN);
	ck_assert(dma_mapping_error(dev, extra));
	ck_assert_uint_eq(reports("swiotlb-full"), 1);
	/* Even 2 KiB does not fit now. */
	extra = dma_map_single(dev, base + N * PAGE_SIZE, 2048, DMA_TO_DEVICE);
	ck_assert(dma_mapping_error(dev, extra));
	ck_assert_uint_eq(reports("swiotlb-full"), 2);

	dma_unmap_single(dev, addr[10], PAGE_SIZE, DMA_TO_DEVICE);
	addr[10] = dma_map_single(dev, base + N * PAGE_SIZE, PAGE_SIZE,
				  DMA_TO_DEVICE);
	ck_assert(!dma_mapping_error(dev, addr[10]));
	for (k = 0; k < N; k++)
		dma_unmap_single(dev, addr[k], PAGE_SIZE, DMA_TO_DEVICE);
	ck_assert_uint_eq(reports("swiotlb-full"), 2);
	__free_pages(pages, 7);
	ck_assert_uint_eq(reports(NULL), 2); /* every report */
	stop();
}
END_TEST

/* At most 128 contiguous slots: 256 KiB maps, one byte more does not. */
START_TEST(segment_limit)
{
	struct page *pages;
	uint8_t *base;
	dma_addr_t addr;

	start(_i, "swiotlb=force");
	pages = alloc_pages(GFP_KERNEL, 7);
	ck_assert_ptr_nonnull(pages);
	base = page_address(pages);
	fixture_cpu_fill(base, 0x3c, 256 << 10);

	addr = dma_map_single(dev, base, 256 << 10, DMA_TO_DEVICE);
	ck_assert(!dma_mapping_error(dev, addr));
	ck_assert_uint_eq(slots_used(), 128);
	ck_assert(fixture_dev_sees(dd, addr, 0x3c, 256 << 10));
	dma_unmap_single(dev, addr, 256 << 10, DMA_TO_DEVICE);

	addr = dma_map_single(dev, base, (256 << 10) + 1, DMA_TO_DEVICE);
	ck_assert(dma_mapping_error(dev, addr));
	ck_assert_uint_eq(reports("swiotlb-full"), 1);
	addr = dma_map_single_attrs(dev, base, (256 << 10) + 1, DMA_TO_DEVICE,
				    DMA_ATTR_NO_WARN);
	ck_assert(dma_mapping_error(dev, addr));
	ck_assert_uint_eq(reports("swiotlb-full"), 1);
	__free_pages(pages, 7);
	ck_assert_uint_eq(reports(NULL), 1); /* every report */
	stop();
}
END_TEST

/* Unmap frees the slots: far more map/unmap pairs than the pool holds. */
/*
 * A report the backend makes inside the driver's call names that call
 * (core's call-site context): the "at" line with the function, and the
 * SUMMARY line pointing at the caller.  Once the call has returned, a
 * report names no call.
 */
START_TEST(full_report_names_the_call)
{
	struct page *pages;
	const char *log;
	dma_addr_t addr;

	start(_i, "swiotlb=force");
	pages = alloc_pages(GFP_KERNEL, 7);
	ck_assert_ptr_nonnull(pages);
	addr = dma_map_single(dev, page_address(pages), (256 << 10) + 1,
			      DMA_TO_DEVICE);
	ck_assert(dma_mapping_error(dev, addr));
	ck_assert_uint_eq(reports("swiotlb-full"), 1);
	log = fixture_log();
	ck_assert_msg(strstr(log, ", in dma_map_single_attrs()\n"), "%s", log);
	ck_assert_msg(!strstr(log, "SUMMARY: dmaemu: swiotlb-full 0x"), "%s",
		      log);

	fixture_log_clear();
	dmaemu__reportf(m, DMAEMU_REPORT_BAD_ARGUMENT, 0x1000, 4, "probe");
	log = fixture_log();
	ck_assert_msg(!strstr(log, "    at ") &&
			      strstr(log, "SUMMARY: dmaemu: bad-argument "
					  "0x1000+4\n"),
		      "%s", log);
	__free_pages(pages, 7);
	stop();
}
END_TEST

START_TEST(slots_reused)
{
	struct dmaemu__swiotlb_stats st;
	uint8_t *buf;
	int k;

	start(_i, "swiotlb=force:swiotlb_size=256K");
	buf = kmalloc(PAGE_SIZE, GFP_KERNEL);
	ck_assert_ptr_nonnull(buf);
	for (k = 0; k < 1000; k++) {
		dma_addr_t a =
			dma_map_single(dev, buf, PAGE_SIZE,
				       k & 1 ? DMA_FROM_DEVICE : DMA_TO_DEVICE);

		ck_assert(!dma_mapping_error(dev, a));
		dma_unmap_single(dev, a, PAGE_SIZE,
				 k & 1 ? DMA_FROM_DEVICE : DMA_TO_DEVICE);
	}
	dmaemu__swiotlb_info(m, &st);
	ck_assert_uint_eq(st.nslots, 128);
	ck_assert_uint_eq(st.maps, 1000);
	ck_assert_uint_eq(st.fulls, 0);
	ck_assert_uint_eq(reports("swiotlb-full"), 0);
	kfree(buf);
	ck_assert_uint_eq(reports(NULL), 0); /* every report */
	stop();
}
END_TEST

/* map_sg bounces each entry; unmap_sg and sync_sg copy each back. */
START_TEST(scatterlist_bounces_each_entry)
{
	struct scatterlist sg[3], *s;
	uint8_t *buf[3];
	int k, n;

	start(_i, "swiotlb=force");
	sg_init_table(sg, 3);
	for (k = 0; k < 3; k++) {
		buf[k] = kmalloc(1000, GFP_KERNEL);
		ck_assert_ptr_nonnull(buf[k]);
		fixture_cpu_fill(buf[k], (uint8_t)(0x10 + k), 1000);
		sg_set_buf(&sg[k], buf[k], 1000);
	}
	n = dma_map_sg(dev, sg, 3, DMA_BIDIRECTIONAL);
	ck_assert_int_eq(n, 3);
	ck_assert_uint_eq(slots_used(), 3);
	for_each_sg (sg, s, n, k) {
		ck_assert_uint_ne(sg_dma_address(s), virt_to_phys(buf[k]));
		ck_assert_uint_eq(sg_dma_len(s), 1000);
		ck_assert(fixture_dev_sees(dd, sg_dma_address(s),
					   (uint8_t)(0x10 + k), 1000));
		fixture_dev_fill(dd, sg_dma_address(s), (uint8_t)(0x20 + k),
				 1000);
		ck_assert(fixture_cpu_sees(buf[k], (uint8_t)(0x10 + k), 1000));
	}
	dma_sync_sg_for_cpu(dev, sg, 3, DMA_BIDIRECTIONAL);
	for (k = 0; k < 3; k++)
		ck_assert(fixture_cpu_sees(buf[k], (uint8_t)(0x20 + k), 1000));
	dma_sync_sg_for_device(dev, sg, 3, DMA_BIDIRECTIONAL);
	for_each_sg (sg, s, n, k)
		fixture_dev_fill(dd, sg_dma_address(s), (uint8_t)(0x30 + k),
				 1000);
	dma_unmap_sg(dev, sg, 3, DMA_BIDIRECTIONAL);
	for (k = 0; k < 3; k++) {
		ck_assert(fixture_cpu_sees(buf[k], (uint8_t)(0x30 + k), 1000));
		kfree(buf[k]);
	}
	/* The looks before the sync read entries the device owns: one
	 * report for the list at that site, two repeats. */
	ck_assert_uint_eq(reports("cpu-access-device-owned"), 1);
	ck_assert_uint_eq(
		dmaemu__own_repeats(m, DMAEMU_REPORT_CPU_ACCESS_DEVICE_OWNED),
		2);
	ck_assert_uint_eq(reports(NULL), 1); /* every report */
	stop();
}
END_TEST

/* A list that does not fit maps nothing and keeps no slot. */
START_TEST(scatterlist_failure_unwinds)
{
	struct scatterlist sg[3];
	struct page *pages;
	uint8_t *base;
	int k;

	start(_i, "swiotlb=force:swiotlb_size=256K");
	pages = alloc_pages(GFP_KERNEL, 7);
	ck_assert_ptr_nonnull(pages);
	base = page_address(pages);
	sg_init_table(sg, 3);
	for (k = 0; k < 3; k++)
		sg_set_buf(&sg[k], base + k * (128 << 10), 100 << 10);
	ck_assert_int_eq(dma_map_sg(dev, sg, 3, DMA_TO_DEVICE), 0);
	ck_assert_uint_eq(slots_used(), 0);
	ck_assert_uint_eq(reports("swiotlb-full"), 1);
	__free_pages(pages, 7);
	ck_assert_uint_eq(reports(NULL), 1); /* every report */
	stop();
}
END_TEST

/*
 * Without force, a list with one entry above the mask bounces that entry
 * only; the other is mapped directly, and unmap_sg copies back the bounced
 * one.
 */
START_TEST(scatterlist_mixed)
{
	struct scatterlist sg[2];
	struct page *hi, *lo;
	struct dmaemu__swiotlb_stats st;

	start(_i, "swiotlb=normal:highmem=16M");
	hi = alloc_pages(GFP_KERNEL, 0);
	lo = alloc_pages(GFP_KERNEL | __GFP_DMA32, 0);
	ck_assert_ptr_nonnull(hi);
	ck_assert_ptr_nonnull(lo);
	ck_assert_uint_ge(page_to_phys(hi), 1ULL << 32);
	fixture_cpu_fill(page_address(hi), 0x12, PAGE_SIZE);
	fixture_cpu_fill(page_address(lo), 0x34, PAGE_SIZE);
	sg_init_table(sg, 2);
	sg_set_page(&sg[0], lo, PAGE_SIZE, 0);
	sg_set_page(&sg[1], hi, PAGE_SIZE, 0);
	ck_assert_int_eq(dma_map_sg(dev, sg, 2, DMA_BIDIRECTIONAL), 2);
	ck_assert_uint_eq(sg_dma_address(&sg[0]), page_to_phys(lo));
	ck_assert_uint_lt(sg_dma_address(&sg[1]), 1ULL << 32);
	ck_assert_uint_eq(dmaemu__swiotlb_orig(m, sg_dma_address(&sg[1])),
			  page_to_phys(hi));
	ck_assert(
		fixture_dev_sees(dd, sg_dma_address(&sg[0]), 0x34, PAGE_SIZE));
	ck_assert(
		fixture_dev_sees(dd, sg_dma_address(&sg[1]), 0x12, PAGE_SIZE));
	fixture_dev_fill(dd, sg_dma_address(&sg[0]), 0x56, PAGE_SIZE);
	fixture_dev_fill(dd, sg_dma_address(&sg[1]), 0x78, PAGE_SIZE);
	ck_assert(fixture_cpu_sees(page_address(hi), 0x12, PAGE_SIZE));
	dma_unmap_sg(dev, sg, 2, DMA_BIDIRECTIONAL);
	ck_assert(fixture_cpu_sees(page_address(lo), 0x56, PAGE_SIZE));
	ck_assert(fixture_cpu_sees(page_address(hi), 0x78, PAGE_SIZE));
	dmaemu__swiotlb_info(m, &st);
	ck_assert_uint_eq(st.maps, 1);
	__free_pages(hi, 0);
	__free_pages(lo, 0);
	/* The look at the bounced entry before the unmap. */
	ck_assert_uint_eq(reports("cpu-access-device-owned"), 1);
	ck_assert_uint_eq(reports(NULL), 1); /* every report */
	stop();
}
END_TEST

/*
 * Threads bouncing at once: each maps its own buffer, plays the device on
 * it, and checks that both directions of copy land, while the others take
 * and give back slots of the same pool.
 */
enum { THREADS = 4, ROUNDS = 150 };

static void *bounce_worker(void *arg)
{
	uintptr_t id = (uintptr_t)arg;
	uint8_t *buf = kmalloc(700, GFP_KERNEL);
	int r;

	ck_assert_ptr_nonnull(buf);
	for (r = 0; r < ROUNDS; r++) {
		uint8_t a = (uint8_t)(id * 64 + r), b = (uint8_t)(a ^ 0xff);
		dma_addr_t addr;

		fixture_cpu_fill(buf, a, 700);
		addr = dma_map_single(dev, buf, 700, DMA_BIDIRECTIONAL);
		ck_assert(!dma_mapping_error(dev, addr));
		ck_assert(fixture_dev_sees(dd, addr, a, 700));
		fixture_dev_fill(dd, addr, b, 700);
		dma_unmap_single(dev, addr, 700, DMA_BIDIRECTIONAL);
		ck_assert(fixture_cpu_sees(buf, b, 700));
	}
	kfree(buf);
	return NULL;
}

START_TEST(concurrent_bouncing)
{
	pthread_t t[THREADS];
	struct dmaemu__swiotlb_stats st;
	uintptr_t k;

	/*
	 * A cache that holds everything touched: no thread's access evicts
	 * another thread's line.  (A write-back of a line that its own
	 * thread is storing to at that moment is the CPU model's concern,
	 * not the pool's.)
	 */
	start(_i,
	      "swiotlb=force:swiotlb_size=256K:cache_size=4M:cache_ways=16");
	for (k = 0; k < THREADS; k++)
		ck_assert_int_eq(
			pthread_create(&t[k], NULL, bounce_worker, (void *)k),
			0);
	for (k = 0; k < THREADS; k++)
		ck_assert_int_eq(pthread_join(t[k], NULL), 0);
	dmaemu__swiotlb_info(m, &st);
	ck_assert_uint_eq(st.maps, THREADS * ROUNDS);
	ck_assert_uint_eq(st.fulls, 0);
	ck_assert_uint_eq(reports(NULL), 0); /* every report */
	stop();
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("dma-swiotlb");
	TCase *tc = tcase_create("swiotlb");

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, to_device_copies_at_map_and_sync_for_device, 0,
			    3);
	tcase_add_loop_test(tc, from_device_copies_at_unmap, 0, 3);
	tcase_add_loop_test(tc, missing_sync_for_cpu_hides_device_data, 0, 3);
	tcase_add_test(tc, x86_direct_shows_data_without_sync);
	tcase_add_loop_test(tc, bidirectional_copies_both_ways, 0, 3);
	tcase_add_loop_test(tc, partial_device_write_returns_bounce_bytes, 0,
			    3);
	tcase_add_loop_test(tc, skip_cpu_sync_skips_copies, 0, 3);
	tcase_add_loop_test(tc, above_mask_bounces, 0, 3);
	tcase_add_loop_test(tc, exhaustion, 0, 3);
	tcase_add_loop_test(tc, segment_limit, 0, 3);
	tcase_add_loop_test(tc, full_report_names_the_call, 0, 3);
	tcase_add_loop_test(tc, slots_reused, 0, 3);
	tcase_add_loop_test(tc, scatterlist_bounces_each_entry, 0, 3);
	tcase_add_loop_test(tc, scatterlist_failure_unwinds, 0, 3);
	tcase_add_loop_test(tc, scatterlist_mixed, 0, 3);
	tcase_add_loop_test(tc, concurrent_bouncing, 0, 3);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(suite());
}
