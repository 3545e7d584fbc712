// SPDX-License-Identifier: MIT
/*
 * check-fidelity.c - the bytes a driver sees are the bytes Linux 4.14
 * gives on the real machine (the cache maintenance of
 * arch/arm64/mm/cache.S and arch/arm/mm/cache-v7.S), asserted through the
 * public API only, compiled like driver code (instrumented).
 *
 * Each test runs on profile=arm, arm64 and x86 (and arm64 with
 * map_policy=5.19 where the policy matters).
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <dmaemu/device.h>
#include <dmaemu/machine.h>
#include <dmaemu/report.h>
#include <dmaemu/testing.h>
#include <dmaemu/vma.h>
#include <asm/barrier.h>
#include <linux/dma-mapping.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include "check-run.h"

enum { ARM, ARM64, X86, ARM64_519, NPROF };

static const char *const profiles[NPROF] = {
	"profile=arm:log_path=/dev/null",
	"profile=arm64:log_path=/dev/null",
	"profile=x86:log_path=/dev/null",
	"profile=arm64:map_policy=5.19:log_path=/dev/null",
};

static struct dmaemu_machine *m;
static struct dmaemu_device *dd;
static struct device *dev;

static void mk(int prof)
{
	m = dmaemu_machine_create(profiles[prof]);
	ck_assert_ptr_nonnull(m);
	dd = dmaemu_device_create(m, "dev0", NULL, NULL);
	ck_assert_ptr_nonnull(dd);
	dev = dmaemu_device_to_dev(dd);
}

static void done(void)
{
	dmaemu_device_destroy(dd);
	dmaemu_machine_destroy(m);
	m = NULL;
}

/* Every byte of [p, p + n) is @c. */
static int all(const uint8_t *p, size_t n, int c)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] != c)
			return 0;
	return 1;
}

/* What the device reads at @dma: DRAM on arm/arm64 (no snooping). */
static int dev_sees(dma_addr_t dma, size_t n, int c)
{
	uint8_t tmp[256];

	ck_assert_uint_le(n, sizeof(tmp));
	ck_assert_int_eq(dmaemu_dma_read(dd, dma, tmp, n), 0);
	return all(tmp, n, c);
}

/* A 256-byte kmalloc buffer whose DRAM holds @c: written by the CPU and
 * handed to a device once (the map's clean writes it back). */
static uint8_t *dram_buffer(int c)
{
	uint8_t *buf = kmalloc(256, GFP_KERNEL);
	dma_addr_t dma;

	ck_assert_ptr_nonnull(buf);
	memset(buf, c, 256);
	dma = dma_map_single(dev, buf, 256, DMA_TO_DEVICE);
	ck_assert(!dma_mapping_error(dev, dma));
	dma_unmap_single(dev, dma, 256, DMA_TO_DEVICE);
	return buf;
}

/*
 * Item 1: the CPU-ownership end of a transfer cleans and invalidates a
 * line the buffer covers only in part (__dma_inv_area, v7_dma_inv_range).
 * A receive buffer shares its first and last lines with CPU fields the
 * CPU updates while the device owns the buffer: on hardware the unmap's
 * write-back of those lines puts the CPU's stale copy of the buffer's
 * edge bytes over the device's (lost-device-write), and the CPU's fields
 * survive.  x86 snoops: every byte is right.  Each store into a shared
 * line is a shared-line-store at once (a portability note on x86).
 */
START_TEST(test_unmap_partial_lines)
{
	const int prof = _i;
	const bool snoop = prof == X86;
	uint8_t *area, *rx;
	dma_addr_t dma;

	mk(prof);
	area = kmalloc(256, GFP_KERNEL);
	ck_assert_ptr_nonnull(area);
	ck_assert_uint_eq(virt_to_phys(area) % 64, 0);
	memset(area, 'X', 256);
	rx = area + 16; /* [16, 144): part of line 0, line 1, part of 2 */
	dma = dma_map_single(dev, rx, 128, DMA_FROM_DEVICE);
	ck_assert(!dma_mapping_error(dev, dma));

	/* The CPU updates its fields beside the buffer; the device writes. */
	memset(area, 'C', 16);
	memset(area + 144, 'C', 16);
	ck_assert_int_eq(dmaemu_dma_write(dd, dma,
					  memset((uint8_t[128]){0}, 'D', 128),
					  128),
			 0);
	dma_unmap_single(dev, dma, 128, DMA_FROM_DEVICE);

	ck_assert(all(area, 16, 'C'));
	ck_assert(all(area + 144, 16, 'C'));
	ck_assert(all(rx + 48, 64, 'D')); /* line 1: the device's */
	ck_assert(all(rx, 48, snoop ? 'D' : 'X'));
	ck_assert(all(rx + 112, 16, snoop ? 'D' : 'X'));
	ck_assert_uint_eq(dmaemu_report_count(m, "lost-device-write"),
			  snoop ? 0 : 2);
	ck_assert_uint_eq(dmaemu_report_count(m, "lost-cpu-write"), 0);
	ck_assert_uint_eq(dmaemu_report_count(m, "shared-line-store"), 2);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), snoop ? 2 : 4);
	kfree(area);
	done();
}
END_TEST

/*
 * The same with sync_for_cpu, the other CPU-ownership call, and a
 * BIDIRECTIONAL mapping.
 */
START_TEST(test_sync_for_cpu_partial_lines)
{
	const int prof = _i;
	const bool snoop = prof == X86;
	uint8_t *area, *rx;
	dma_addr_t dma;

	mk(prof);
	area = kmalloc(256, GFP_KERNEL);
	ck_assert_ptr_nonnull(area);
	memset(area, 'X', 256);
	rx = area + 32; /* [32, 96): half of line 0, half of line 1 */
	dma = dma_map_single(dev, rx, 64, DMA_BIDIRECTIONAL);
	ck_assert(!dma_mapping_error(dev, dma));
	area[0] = 'C';
	area[100] = 'C';
	ck_assert_int_eq(dmaemu_dma_write(dd, dma,
					  memset((uint8_t[64]){0}, 'D', 64),
					  64),
			 0);
	dma_sync_single_for_cpu(dev, dma, 64, DMA_BIDIRECTIONAL);
	ck_assert_int_eq(area[0], 'C');
	ck_assert_int_eq(area[100], 'C');
	ck_assert(all(rx, 64, snoop ? 'D' : 'X'));
	ck_assert_uint_eq(dmaemu_report_count(m, "lost-device-write"),
			  snoop ? 0 : 2);
	ck_assert_uint_eq(dmaemu_report_count(m, "shared-line-store"), 2);
	dma_unmap_single(dev, dma, 64, DMA_BIDIRECTIONAL);
	kfree(area);
	done();
}
END_TEST

/*
 * Item 3: the map of a FROM_DEVICE buffer.  4.14 invalidates (arm64's
 * __dma_map_area, ARMv7's v7_dma_map_area), so CPU data written into the
 * buffer before the map never reaches DRAM, and a device that writes only
 * part of the buffer leaves DRAM's old bytes in the rest.  Linux 5.19's
 * arm64 policy (map_policy=5.19) cleans instead: the rest holds what the
 * CPU wrote.  x86: coherent, the CPU's bytes.
 */
START_TEST(test_map_from_device)
{
	const int prof = _i;
	const bool cleans = prof == X86 || prof == ARM64_519;
	uint8_t *buf;
	dma_addr_t dma;

	mk(prof);
	buf = dram_buffer('A');

	/* The CPU writes 'B' and maps the buffer for the device to fill. */
	memset(buf, 'B', 256);
	dma = dma_map_single(dev, buf, 256, DMA_FROM_DEVICE);
	ck_assert(!dma_mapping_error(dev, dma));
	ck_assert(dev_sees(dma, 256, cleans ? 'B' : 'A'));
	/* The device writes the first half only. */
	ck_assert_int_eq(dmaemu_dma_write(dd, dma,
					  memset((uint8_t[128]){0}, 'D', 128),
					  128),
			 0);
	dma_unmap_single(dev, dma, 256, DMA_FROM_DEVICE);
	ck_assert(all(buf, 128, 'D'));
	ck_assert(all(buf + 128, 128, cleans ? 'B' : 'A'));
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 0);
	kfree(buf);
	done();
}
END_TEST

/*
 * Item 4: x86 in 4.14 ignores DMA_ATTR_WRITE_COMBINE
 * (dma_generic_alloc_coherent()): ordinary write-back memory, coherent, so
 * the device sees a store at once, with or without wmb().  On arm and
 * arm64 the store waits in a write-combining buffer until the barrier.
 */
START_TEST(test_write_combine)
{
	const int prof = _i;
	uint8_t *p, got[8];
	dma_addr_t h;

	mk(prof);
	p = dma_alloc_wc(dev, 4096, &h, GFP_KERNEL);
	ck_assert_ptr_nonnull(p);
	memset(p, 0x5a, 8);
	ck_assert_int_eq(dmaemu_dma_read(dd, h, got, 8), 0);
	ck_assert(all(got, 8, prof == X86 ? 0x5a : 0));
	wmb();
	ck_assert_int_eq(dmaemu_dma_read(dd, h, got, 8), 0);
	ck_assert(all(got, 8, 0x5a));
	dma_free_wc(dev, 4096, p, h);
	done();
}
END_TEST

/*
 * Item 5: the kernel view and a dma_mmap_coherent() user view of one
 * buffer agree on every profile: on x86 both are cacheable mappings of one
 * page (coherent with each other and with the device), on arm and arm64
 * both are uncached.  A correct program gets no report.
 */
START_TEST(test_mmap_views_agree)
{
	struct vm_area_struct vma = {.vm_end = 4096};
	uint8_t *k, *u, got[24];
	dma_addr_t h;

	mk(_i);
	k = dma_alloc_coherent(dev, 4096, &h, GFP_KERNEL);
	ck_assert_ptr_nonnull(k);
	ck_assert_int_eq(dma_mmap_coherent(dev, &vma, k, h, 4096), 0);
	u = (uint8_t *)vma.vm_start;
	memset(k, 'K', 8);
	ck_assert(all(u, 8, 'K'));
	memset(u + 8, 'U', 8);
	ck_assert(all(k + 8, 8, 'U'));
	ck_assert_int_eq(dmaemu_dma_write(dd, h + 16, "DDDDDDDD", 8), 0);
	ck_assert(all(k + 16, 8, 'D'));
	ck_assert(all(u + 16, 8, 'D'));
	/* The CPU's two stores reach the device in order only after a
	 * barrier (docs/ordering.md). */
	wmb();
	ck_assert_int_eq(dmaemu_dma_read(dd, h, got, 24), 0);
	ck_assert(all(got, 8, 'K') && all(got + 8, 8, 'U'));
	dmaemu_vma_unmap(&vma);
	dma_free_coherent(dev, 4096, k, h);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 0);
	done();
}
END_TEST

/*
 * Item 10: without an IOMMU dma_map_resource() returns the physical
 * address unchanged, as 4.14's generic code does when the ops have no
 * map_resource, even where memory sits at dma_offset on the bus.
 */
START_TEST(test_map_resource_offset)
{
	struct dmaemu_machine *x = dmaemu_machine_create(
		"dma_offset=0x40000000:log_path=/dev/null");
	struct dmaemu_device *d;
	struct device *xd;
	uint8_t *buf;
	dma_addr_t dma;

	ck_assert_ptr_nonnull(x);
	d = dmaemu_device_create(x, "dev0", NULL, NULL);
	ck_assert_ptr_nonnull(d);
	xd = dmaemu_device_to_dev(d);
	dma = dma_map_resource(xd, 0x20000000, 4096, DMA_BIDIRECTIONAL, 0);
	ck_assert(!dma_mapping_error(xd, dma));
	ck_assert_uint_eq(dma, 0x20000000);
	dma_unmap_resource(xd, dma, 4096, DMA_BIDIRECTIONAL, 0);
	/* Memory, by contrast, is at dma_offset on the bus. */
	buf = kmalloc(64, GFP_KERNEL);
	ck_assert_ptr_nonnull(buf);
	dma = dma_map_single(xd, buf, 64, DMA_TO_DEVICE);
	ck_assert(!dma_mapping_error(xd, dma));
	ck_assert_uint_eq(dma, virt_to_phys(buf) + 0x40000000);
	dma_unmap_single(xd, dma, 64, DMA_TO_DEVICE);
	kfree(buf);
	ck_assert_uint_eq(dmaemu_report_count(x, NULL), 0);
	dmaemu_device_destroy(d);
	dmaemu_machine_destroy(x);
}
END_TEST

/*
 * Item 6: unmap and sync maintain the size the driver passed, as 4.14's
 * dma_unmap_single_attrs()/dma_sync_single_for_cpu() hand it to the
 * architecture, and the mismatch is reported.  An unmap of half the
 * mapping leaves the other half's lines stale on arm/arm64.
 */
START_TEST(test_unmap_smaller_size)
{
	const int prof = _i;
	const bool snoop = prof == X86;
	uint8_t *buf, tmp[256];
	dma_addr_t dma;

	mk(prof);
	buf = dram_buffer('A');
	dma = dma_map_single(dev, buf, 256, DMA_FROM_DEVICE);
	ck_assert(!dma_mapping_error(dev, dma));
	ck_assert(all(buf, 256, 'A')); /* the CPU looks: lines cached */
	ck_assert_int_eq(dmaemu_dma_write(dd, dma, memset(tmp, 'D', 256), 256),
			 0);
	dma_unmap_single(dev, dma, 128, DMA_FROM_DEVICE);
	ck_assert_uint_eq(dmaemu_report_count(m, "unmap-size-mismatch"), 1);
	ck_assert(all(buf, 128, 'D'));
	ck_assert(all(buf + 128, 128, snoop ? 'D' : 'A'));
	/* One report per stale load: at least one per stale line. */
	if (snoop)
		ck_assert_uint_eq(dmaemu_report_count(m, "stale-cpu-read"), 0);
	else
		ck_assert_uint_ge(dmaemu_report_count(m, "stale-cpu-read"), 2);
	kfree(buf);
	done();
}
END_TEST

/* A sync that runs past its mapping is reported and still maintains the
 * whole range (4.14 does; DMA API debugging only complains). */
START_TEST(test_sync_past_end)
{
	const int prof = _i;
	uint8_t *buf, tmp[256];
	dma_addr_t dma;

	mk(prof);
	buf = dram_buffer('A');
	dma = dma_map_single(dev, buf, 128, DMA_FROM_DEVICE);
	ck_assert(!dma_mapping_error(dev, dma));
	ck_assert(all(buf, 256, 'A')); /* the CPU caches all 4 lines */
	/* Half of that look read the mapping the device owns: one report
	 * of its 128 bytes, none for the 128 after it. */
	ck_assert_uint_eq(dmaemu_report_count(m, "cpu-access-device-owned"), 1);
	ck_assert_int_eq(dmaemu_dma_write(dd, dma, memset(tmp, 'D', 128), 128),
			 0);
	/* DRAM past the mapping changes too (the device may not reach it:
	 * written here through the uncached alias, as by another master
	 * that does not snoop; x86 has no such master). */
	if (prof != X86)
		memset(dmaemu_phys_view(m, virt_to_phys(buf) + 128,
					DMAEMU_REGION_UNCACHED),
		       'D', 128);
	dma_sync_single_for_cpu(dev, dma, 256, DMA_FROM_DEVICE);
	ck_assert_uint_eq(dmaemu_report_count(m, "sync-out-of-range"), 1);
	ck_assert(all(buf, 128, 'D'));
	ck_assert(all(buf + 128, 128, prof == X86 ? 'A' : 'D'));
	ck_assert_uint_eq(dmaemu_report_count(m, "stale-cpu-read"), 0);
	dma_unmap_single(dev, dma, 128, DMA_FROM_DEVICE);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 2);
	kfree(buf);
	done();
}
END_TEST

/*
 * Item 2: every store dirties its line, as on hardware, even one that
 * writes the value the byte already holds; a write-back then writes the
 * whole line.  The driver stores into a BIDIRECTIONAL buffer the device
 * owns and has just written: the sync_for_device's clean puts the CPU's
 * stale line over the device's bytes (lost-device-write).  A
 * read-modify-write that changes a byte dirties it too (GCC checks only
 * the load of one: the changed byte says it).  x86 snoops: the device's
 * write took the line away, so only the stored byte is the CPU's.
 */
static volatile unsigned char one = 1;

START_TEST(test_store_dirties)
{
	const int prof = _i / 2;
	const bool rmw = _i % 2;
	const bool snoop = prof == X86;
	uint8_t *buf, got[64];
	dma_addr_t dma;

	mk(prof);
	buf = dram_buffer('A');
	dma = dma_map_single(dev, buf, 64, DMA_BIDIRECTIONAL);
	ck_assert(!dma_mapping_error(dev, dma));
	ck_assert(all(buf, 64, 'A')); /* the CPU holds the line, clean */
	ck_assert_int_eq(dmaemu_dma_write(dd, dma, memset(got, 'D', 64), 64),
			 0);
	if (rmw)
		buf[0] += one; /* 'A' + 1 on arm/arm64, 'D' + 1 on x86 */
	else
		buf[0] = 'A'; /* the value the CPU's copy already holds */
	dma_sync_single_for_device(dev, dma, 64, DMA_BIDIRECTIONAL);
	ck_assert_int_eq(dmaemu_dma_read(dd, dma, got, 64), 0);
	if (snoop) {
		ck_assert_int_eq(got[0], rmw ? 'D' + 1 : 'A');
		ck_assert(all(got + 1, 63, 'D'));
	} else {
		ck_assert_int_eq(got[0], rmw ? 'B' : 'A');
		ck_assert(all(got + 1, 63, 'A'));
	}
	ck_assert_uint_eq(dmaemu_report_count(m, "lost-device-write"),
			  snoop ? 0 : 1);
	dma_unmap_single(dev, dma, 64, DMA_BIDIRECTIONAL);
	kfree(buf);
	done();
}
END_TEST

/*
 * Item 2, on eviction: a line the model holds dirty because of a store of
 * an unchanged value is written back whole when the cache evicts it, over
 * the device's bytes (lost-device-write).  A direct-mapped cache of four
 * sets: the line 256 bytes on shares the set and evicts it.
 */
START_TEST(test_store_dirties_evicted)
{
	struct dmaemu_machine *x = dmaemu_machine_create(
		"profile=arm64:cache_size=256:cache_ways=1:log_path=/dev/null");
	struct dmaemu_device *d;
	struct device *xd;
	uint8_t *buf, got[64];
	dma_addr_t dma;
	volatile uint8_t sink;

	ck_assert_ptr_nonnull(x);
	d = dmaemu_device_create(x, "dev0", NULL, NULL);
	ck_assert_ptr_nonnull(d);
	xd = dmaemu_device_to_dev(d);
	buf = kmalloc(1024, GFP_KERNEL);
	ck_assert_ptr_nonnull(buf);
	memset(buf, 'A', 1024);
	dma = dma_map_single(xd, buf, 1024, DMA_TO_DEVICE);
	dma_unmap_single(xd, dma, 1024, DMA_TO_DEVICE);
	dma = dma_map_single(xd, buf, 64, DMA_BIDIRECTIONAL);
	ck_assert(!dma_mapping_error(xd, dma));
	ck_assert(all(buf, 64, 'A')); /* the line is held, clean */
	ck_assert_int_eq(dmaemu_dma_write(d, dma, memset(got, 'D', 64), 64), 0);
	buf[0] = 'A'; /* the value the CPU's copy holds: dirty all the same */
	sink = buf[256]; /* same set: evicts the line, which is written back */
	(void)sink;
	ck_assert_int_eq(dmaemu_dma_read(d, dma, got, 64), 0);
	ck_assert(all(got, 64, 'A'));
	ck_assert_uint_eq(dmaemu_report_count(x, "lost-device-write"), 1);
	dma_unmap_single(xd, dma, 64, DMA_BIDIRECTIONAL);
	kfree(buf);
	dmaemu_device_destroy(d);
	dmaemu_machine_destroy(x);
}
END_TEST

/*
 * dma_map_resource() with the IOMMU: 4.14's intel_dma_ops (x86) have no
 * map_resource, so the bus address is the physical one; arm64's
 * iommu_dma_ops and arm's arm_iommu ops map it at an IOVA.
 */
START_TEST(test_map_resource_iommu)
{
	static const char *const opts[] = {
		"profile=arm:iommu=1:log_path=/dev/null",
		"profile=arm64:iommu=1:log_path=/dev/null",
		"profile=x86:iommu=1:log_path=/dev/null",
	};
	struct dmaemu_machine *x = dmaemu_machine_create(opts[_i]);
	struct dmaemu_device *d;
	struct device *xd;
	dma_addr_t dma;

	ck_assert_ptr_nonnull(x);
	d = dmaemu_device_create(x, "dev0", NULL, NULL);
	ck_assert_ptr_nonnull(d);
	xd = dmaemu_device_to_dev(d);
	dma = dma_map_resource(xd, 0x20000000, 4096, DMA_BIDIRECTIONAL, 0);
	ck_assert(!dma_mapping_error(xd, dma));
	if (_i == X86)
		ck_assert_uint_eq(dma, 0x20000000);
	else
		ck_assert_uint_ne(dma, 0x20000000);
	dma_unmap_resource(xd, dma, 4096, DMA_BIDIRECTIONAL, 0);
	ck_assert_uint_eq(dmaemu_report_count(x, NULL), 0);
	dmaemu_device_destroy(d);
	dmaemu_machine_destroy(x);
}
END_TEST

/* map_policy: its default, its spelling, arm64 only. */
START_TEST(test_map_policy_option)
{
	struct dmaemu_machine *x;
	char v[16];

	x = dmaemu_machine_create("profile=arm64");
	ck_assert_ptr_nonnull(x);
	ck_assert_int_eq(dmaemu_machine_option(x, "map_policy", v, sizeof(v)),
			 0);
	ck_assert_str_eq(v, "4.14");
	dmaemu_machine_destroy(x);
	x = dmaemu_machine_create("profile=arm64:map_policy=5.19");
	ck_assert_ptr_nonnull(x);
	ck_assert_int_eq(dmaemu_machine_option(x, "map_policy", v, sizeof(v)),
			 0);
	ck_assert_str_eq(v, "5.19");
	dmaemu_machine_destroy(x);

	errno = 0;
	ck_assert_ptr_null(
		dmaemu_machine_create("profile=arm:map_policy=5.19"));
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_ptr_null(dmaemu_machine_create("map_policy=5.10"));
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

/*
 * 4.14's debug_dma_map_sg() has no check_sg_segment() (Linux 4.18 brought
 * it): an entry longer than dma_get_max_seg_size() or across
 * dma_get_seg_boundary() maps with no report at kernel=4.14 (at 6.12,
 * sg-segment-limits: check-fidelity-612).
 */
START_TEST(test_sg_segment_unchecked)
{
	struct scatterlist sg[2];
	struct page *pg;
	size_t off;
	u8 *va;

	mk(_i);
	pg = alloc_pages(GFP_KERNEL, 5);
	ck_assert_ptr_nonnull(pg);
	va = page_address(pg);
	sg_init_table(sg, 2);
	sg_set_buf(&sg[0], va, 4096);
	sg_set_buf(&sg[1], va + 4096, 96 << 10);
	ck_assert_int_eq(dma_map_sg(dev, sg, 2, DMA_TO_DEVICE), 2);
	dma_unmap_sg(dev, sg, 2, DMA_TO_DEVICE);
	ck_assert_int_eq(dma_set_seg_boundary(dev, 0xffff), 0);
	off = (size_t)(0x10000 - (virt_to_phys(va) & 0xffff)) - 4096;
	sg_init_table(sg, 1);
	sg_set_buf(&sg[0], va + off, 8192);
	ck_assert_int_eq(dma_map_sg(dev, sg, 1, DMA_FROM_DEVICE), 1);
	dma_unmap_sg(dev, sg, 1, DMA_FROM_DEVICE);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 0);
	__free_pages(pg, 5);
	done();
}
END_TEST

#include "handover-cases.h"

/*
 * The receive drivers of handover-cases.h at 4.14 and with
 * map_policy=5.19: what the driver did is reported whatever the
 * maintenance did with it.  rx-recycle's store is a lost-cpu-write on
 * every profile, lost on arm and arm64, written back by arm64's
 * map_policy=5.19 sync (and kept by x86): right data there.  rx-stale's
 * read is a cpu-access-device-owned everywhere; map_policy=5.19's map
 * keeps the kzalloc()'d line in the cache, so the read is stale too (a
 * stale-cpu-read at the same line), where 4.14's invalidate made the
 * first read right.  The twins: no report.
 */
START_TEST(test_handover_reports)
{
	const int prof = _i;
	const bool p519 = prof == ARM64_519;
	unsigned int n, k;
	uint64_t seq = 0, at;
	int line;

	mk(prof);
	ck_assert(hc_recycle(false, &line));
	ck_assert(hc_rx_read(false, &line));
	ck_assert_uint_eq(hc_reports(&seq, "", 0, "", &k), 0);

	ck_assert(hc_recycle(true, &line) == (prof == X86 || p519));
	n = hc_reports(&seq, "lost-cpu-write", line,
		       p519 ? "dma_sync_single_for_device(DMA_FROM_DEVICE) "
			      "gives the device 4 bytes (1 line) the CPU "
			      "stored while it owned the buffer (dev0's "
			      "DMA_FROM_DEVICE streaming mapping"
			    : "dma_sync_single_for_device(DMA_FROM_DEVICE) "
			      "invalidates 4 bytes (1 line)",
		       &k);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(k, 1);

	at = seq;
	ck_assert(hc_rx_read(true, &line) == !p519);
	n = hc_reports(&seq, "cpu-access-device-owned", line,
		       p519 ? "this read got stale data"
			    : "fix: dma_sync_single_for_cpu(",
		       &k);
	ck_assert_uint_eq(n, p519 ? 2 : 1);
	ck_assert_uint_eq(k, 1);
	hc_reports(&at, "stale-cpu-read", line, "", &k);
	ck_assert_uint_eq(k, p519 ? 1 : 0);
	done();
}
END_TEST

int main(void)
{
	Suite *s = suite_create("fidelity");
	TCase *tc = tcase_create("fidelity");

	tcase_add_loop_test(tc, test_unmap_partial_lines, ARM, X86 + 1);
	tcase_add_loop_test(tc, test_sync_for_cpu_partial_lines, ARM, X86 + 1);
	tcase_add_loop_test(tc, test_map_from_device, ARM, NPROF);
	tcase_add_loop_test(tc, test_write_combine, ARM, X86 + 1);
	tcase_add_loop_test(tc, test_mmap_views_agree, ARM, X86 + 1);
	tcase_add_loop_test(tc, test_unmap_smaller_size, ARM, X86 + 1);
	tcase_add_loop_test(tc, test_sync_past_end, ARM, X86 + 1);
	tcase_add_loop_test(tc, test_store_dirties, 0, 2 * (X86 + 1));
	tcase_add_test(tc, test_store_dirties_evicted);
	tcase_add_test(tc, test_map_resource_offset);
	tcase_add_loop_test(tc, test_map_resource_iommu, ARM, X86 + 1);
	tcase_add_test(tc, test_map_policy_option);
	tcase_add_loop_test(tc, test_sg_segment_unchecked, ARM, X86 + 1);
	tcase_add_loop_test(tc, test_handover_reports, ARM, NPROF);
	suite_add_tcase(s, tc);
	return check_run(s);
}
