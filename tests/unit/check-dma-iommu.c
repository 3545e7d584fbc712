// SPDX-License-Identifier: MIT
/*
 * check-dma-iommu.c - the IOMMU backend: IOVAs differ from physical
 * addresses and translate back, permissions by direction as the 4.14
 * drivers write them (arm_lpae_prot_to_pte() on arm and arm64,
 * __intel_map_single() on x86) and as iommu_strict=1 keeps them
 * (dma_info_to_prot() as it is), faults on unmapped IOVAs and after unmap,
 * DMA_ATTR_PRIVILEGED, scatterlists: merging as iommu_dma_map_sg() (and
 * its limits: page offsets, max_segment_size, segment boundary) on arm,
 * arm64 and strict x86, one segment per entry as intel_map_sg() on x86;
 * the IOVA allocator (alignment, mask, coalescing, exhaustion),
 * coherent-allocation pages, and 100,000 live mappings.  Cache
 * maintenance still follows the profile.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_VALGRIND_VALGRIND_H
#include <valgrind/valgrind.h>
#endif

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
enum { ARM, ARM64, X86 };

static struct dmaemu_machine *m;
static struct dmaemu_device *dd;
static struct device *dev;
static bool coherent;

/* A machine of @profile with the IOMMU on and @extra options, one bare
 * device. */
static void start(int profile, const char *extra)
{
	m = fixture_machine("profile=%s:iommu=1:%s", profiles[profile], extra);
	coherent = profile == X86;
	dd = dmaemu_device_create(m, "dev0", NULL, NULL);
	ck_assert_ptr_nonnull(dd);
	dev = dmaemu_device_to_dev(dd);
}

/*
 * The profiles whose IOMMU behaves as dma-iommu.c with an io-pgtable-arm
 * table for scatterlists and privilege: arm, arm64, and x86 only with
 * iommu_strict=1 (4.14's VT-d code does neither).
 */
static void start_smmu_like(int profile, const char *extra)
{
	char opts[128];

	snprintf(opts, sizeof(opts), "%s%s", extra,
		 profile == X86 ? ":iommu_strict=1" : "");
	start(profile, opts);
}

static void stop(void)
{
	struct dmaemu__iommu_stats st;

	dmaemu__iommu_info(dev, &st);
	/* Every test unmaps what it mapped: one free range again. */
	ck_assert_uint_eq(st.allocs, 0);
	ck_assert_uint_eq(st.pages, 0);
	ck_assert_uint_le(st.free_ranges, 1);
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

static int dev_write(dma_addr_t addr, uint8_t v, size_t len)
{
	uint8_t *src = malloc(len);
	int ret;

	ck_assert_ptr_nonnull(src);
	memset(src, v, len);
	ret = dmaemu_dma_write(dd, addr, src, len);
	free(src);
	return ret;
}

static int dev_read_all(dma_addr_t addr, uint8_t v, size_t len)
{
	uint8_t *got = malloc(len);
	int ret;

	ck_assert_ptr_nonnull(got);
	ret = dmaemu_dma_read(dd, addr, got, len);
	if (!ret && !fixture_all(got, v, len))
		ret = 1;
	free(got);
	return ret;
}

static int translate(dma_addr_t addr, size_t len, bool write, uint64_t *phys,
		     size_t *contig)
{
	return dmaemu__bus_translate(dev, addr, len, write, phys, contig);
}

/* ---------------------------------------------------------------------- */

/*
 * The IOVA is not the physical address and translates to it; the device
 * reaches the buffer through it; maintenance still runs on the physical
 * lines per profile.
 */
START_TEST(iova_translates)
{
	uint8_t *buf;
	uint64_t phys, p;
	size_t contig;
	dma_addr_t addr;

	start(_i, "mem=16M");
	buf = kmalloc(256, GFP_KERNEL);
	ck_assert_ptr_nonnull(buf);
	phys = virt_to_phys(buf);
	fixture_cpu_fill(buf, 0x42, 256);
	ck_assert(fixture_cpu_dirty(m, phys));

	addr = dma_map_single(dev, buf, 256, DMA_BIDIRECTIONAL);
	ck_assert(!dma_mapping_error(dev, addr));
	ck_assert_uint_ne(addr, phys);
	ck_assert_uint_eq(addr & (PAGE_SIZE - 1), phys & (PAGE_SIZE - 1));
	/* Top-down below the 32-bit mask. */
	ck_assert_uint_lt(addr, 1ULL << 32);
	ck_assert_uint_ge(addr, 0xfff00000ULL);
	ck_assert_uint_eq(dmaemu__iommu_iova_to_phys(dev, addr), phys);
	ck_assert_int_eq(translate(addr + 10, 100, true, &p, &contig), 0);
	ck_assert_uint_eq(p, phys + 10);
	ck_assert_uint_eq(contig, 100);
	/* The clean at map happened on the physical lines (not on x86). */
	ck_assert(coherent ? fixture_cpu_dirty(m, phys)
			   : !fixture_cpu_dirty(m, phys));

	ck_assert_int_eq(dev_read_all(addr, 0x42, 256), 0);
	ck_assert_int_eq(dev_write(addr, 0x43, 256), 0);
	dma_sync_single_for_cpu(dev, addr, 256, DMA_BIDIRECTIONAL);
	ck_assert(fixture_cpu_sees(buf, 0x43, 256));
	dma_unmap_single(dev, addr, 256, DMA_BIDIRECTIONAL);
	ck_assert_uint_eq(reports("iommu-fault"), 0);
	kfree(buf);
	ck_assert_uint_eq(reports(NULL), 0); /* every report */
	stop();
}
END_TEST

/*
 * A TO_DEVICE mapping is read-only for the device on every profile; a
 * refused access is one iommu-fault report and leaves memory alone.  A
 * FROM_DEVICE mapping can be written, and read as 4.14's tables allow:
 * on arm and arm64 the read succeeds and gives the bytes memory holds
 * (arm_lpae_prot_to_pte(): a stage-1 entry cannot be write-only), on x86
 * it faults (__intel_map_single(): DMA_PTE_WRITE only).  Loop index:
 * profile, and + 3 for iommu_strict=1, where every profile faults the read
 * (dma_info_to_prot() as it is).
 */
START_TEST(permissions_by_direction)
{
	int prof = _i % 3;
	bool strict = _i >= 3;
	bool read_ok = !strict && prof != X86;
	uint8_t *buf, before[64];
	uint64_t phys, p, faults;
	size_t contig;
	dma_addr_t to, from;

	start(prof, strict ? "mem=16M:iommu_strict=1" : "mem=16M");
	buf = kmalloc(64, GFP_KERNEL);
	ck_assert_ptr_nonnull(buf);
	phys = virt_to_phys(buf);
	fixture_cpu_fill(buf, 0x61, 64);

	to = dma_map_single(dev, buf, 64, DMA_TO_DEVICE);
	ck_assert(!dma_mapping_error(dev, to));
	ck_assert_int_eq(dev_read_all(to, 0x61, 64), 0);
	memcpy(before, dmaemu__phys_mem(m, phys), 64);
	ck_assert_int_ne(dev_write(to, 0x62, 64), 0);
	ck_assert_uint_eq(reports("iommu-fault"), 1);
	ck_assert(!memcmp(before, dmaemu__phys_mem(m, phys), 64));
	ck_assert(fixture_all(dmaemu__phys_cpu(m, phys), 0x61, 64));
	ck_assert_int_eq(translate(to, 64, true, &p, &contig), -EPERM);
	ck_assert_uint_eq(reports("iommu-fault"), 2);
	ck_assert_int_eq(translate(to, 64, false, &p, &contig), 0);
	dma_unmap_single(dev, to, 64, DMA_TO_DEVICE);

	/* The TO_DEVICE map cleaned the line (x86: the device snoops): the
	 * device reads 0x61 wherever it may read. */
	from = dma_map_single(dev, buf, 64, DMA_FROM_DEVICE);
	ck_assert(!dma_mapping_error(dev, from));
	faults = reports("iommu-fault");
	if (read_ok) {
		ck_assert_int_eq(translate(from, 64, false, &p, &contig), 0);
		ck_assert_uint_eq(p, phys);
		ck_assert_int_eq(dev_read_all(from, 0x61, 64), 0);
		ck_assert_uint_eq(reports("iommu-fault"), faults);
	} else {
		ck_assert_int_eq(translate(from, 64, false, &p, &contig),
				 -EPERM);
		ck_assert_int_ne(dev_read_all(from, 0x61, 64), 0);
		ck_assert_uint_eq(reports("iommu-fault"), faults + 2);
	}
	faults = reports("iommu-fault");
	ck_assert_int_eq(translate(from, 64, true, &p, &contig), 0);
	ck_assert_int_eq(dev_write(from, 0x64, 64), 0);
	dma_unmap_single(dev, from, 64, DMA_FROM_DEVICE);
	ck_assert(fixture_cpu_sees(buf, 0x64, 64));
	ck_assert_uint_eq(reports("iommu-fault"), faults);
	kfree(buf);
	/* every report: two faults of the TO_DEVICE part, two more where a
	 * FROM_DEVICE page is write-only */
	ck_assert_uint_eq(reports(NULL), read_ok ? 2 : 4);
	stop();
}
END_TEST

/*
 * The same through a scatterlist and a coherent allocation's pages: a
 * FROM_DEVICE list is readable on arm and arm64, not on x86 nor with
 * iommu_strict=1; pages mapped IOMMU_WRITE only (dmaemu__iommu_map_pages)
 * follow the same table rules.  Loop index as above.
 */
START_TEST(permissions_sg_and_pages)
{
	int prof = _i % 3;
	bool strict = _i >= 3;
	bool read_ok = !strict && prof != X86;
	struct scatterlist sg[2];
	struct page *pg;
	uint64_t phys[2], p;
	size_t contig;
	dma_addr_t addr;
	int n;

	start(prof, strict ? "mem=16M:iommu_strict=1" : "mem=16M");
	pg = alloc_pages(GFP_KERNEL, 1);
	ck_assert_ptr_nonnull(pg);
	fixture_cpu_fill(page_address(pg), 0x5a, 2 * PAGE_SIZE);
	sg_init_table(sg, 2);
	sg_set_page(&sg[0], pg, PAGE_SIZE, 0);
	sg_set_page(&sg[1], pg + 1, PAGE_SIZE, 0);
	n = dma_map_sg(dev, sg, 2, DMA_FROM_DEVICE);
	ck_assert_int_gt(n, 0);
	ck_assert_int_eq(
		translate(sg_dma_address(&sg[0]), 64, false, &p, &contig),
		read_ok ? 0 : -EPERM);
	ck_assert_int_eq(
		translate(sg_dma_address(&sg[0]), 64, true, &p, &contig), 0);
	dma_unmap_sg(dev, sg, 2, DMA_FROM_DEVICE);

	phys[0] = page_to_phys(pg);
	phys[1] = page_to_phys(pg + 1);
	addr = dmaemu__iommu_map_pages(dev, phys, 2, DMAEMU__IOMMU_WRITE,
				       false);
	ck_assert(!dma_mapping_error(dev, addr));
	ck_assert_int_eq(translate(addr, 64, false, &p, &contig),
			 read_ok ? 0 : -EPERM);
	dmaemu__iommu_unmap(dev, addr, 2 * PAGE_SIZE);
	ck_assert_uint_eq(reports("iommu-fault"), read_ok ? 0 : 2);
	__free_pages(pg, 1);
	stop();
}
END_TEST

/* Unmapped IOVAs fault, before any mapping and after unmap. */
START_TEST(unmapped_faults)
{
	uint8_t *buf, got[16];
	uint64_t phys, p;
	size_t contig;
	dma_addr_t addr;

	start(_i, "mem=16M");
	buf = kmalloc(64, GFP_KERNEL);
	ck_assert_ptr_nonnull(buf);
	phys = virt_to_phys(buf);
	/* No domain yet; the physical address means nothing to the IOMMU. */
	ck_assert_int_ne(dmaemu_dma_read(dd, phys, got, sizeof(got)), 0);
	ck_assert_uint_eq(reports("iommu-fault"), 1);

	addr = dma_map_single(dev, buf, 64, DMA_BIDIRECTIONAL);
	ck_assert(!dma_mapping_error(dev, addr));
	ck_assert_int_eq(translate(phys, 16, false, &p, &contig), -EFAULT);
	ck_assert_int_eq(translate(addr + PAGE_SIZE, 16, false, &p, &contig),
			 -EFAULT);
	ck_assert_uint_eq(reports("iommu-fault"), 3);
	ck_assert_int_eq(translate(addr, 16, false, &p, &contig), 0);
	dma_unmap_single(dev, addr, 64, DMA_BIDIRECTIONAL);
	ck_assert_int_eq(translate(addr, 16, false, &p, &contig), -EFAULT);
	ck_assert_int_ne(dev_write(addr, 0x70, 16), 0);
	ck_assert_uint_eq(reports("iommu-fault"), 5);
	ck_assert_uint_eq(dmaemu__iommu_iova_to_phys(dev, addr), UINT64_MAX);
	kfree(buf);
	ck_assert_uint_eq(reports(NULL), 5); /* every report */
	stop();
}
END_TEST

/* A range that runs off the end of a mapping faults at the first page
 * past it: translate gives the mapped part, the next call faults. */
START_TEST(access_past_the_mapping)
{
	struct page *pg;
	uint64_t p;
	size_t contig;
	dma_addr_t addr;

	start(_i, "mem=16M");
	pg = alloc_pages(GFP_KERNEL, 1);
	ck_assert_ptr_nonnull(pg);
	addr = dma_map_page(dev, pg, 0, 2 * PAGE_SIZE, DMA_TO_DEVICE);
	ck_assert(!dma_mapping_error(dev, addr));
	/* Two physically contiguous pages translate in one piece. */
	ck_assert_int_eq(
		translate(addr + 100, 2 * PAGE_SIZE - 100, false, &p, &contig),
		0);
	ck_assert_uint_eq(contig, 2 * PAGE_SIZE - 100);
	ck_assert_uint_eq(p, page_to_phys(pg) + 100);
	ck_assert_int_eq(
		translate(addr + 100, 2 * PAGE_SIZE, false, &p, &contig), 0);
	ck_assert_uint_eq(contig, 2 * PAGE_SIZE - 100);
	ck_assert_int_eq(
		translate(addr + 2 * PAGE_SIZE, 100, false, &p, &contig),
		-EFAULT);
	ck_assert_int_ne(dev_read_all(addr + 100, 0, 2 * PAGE_SIZE), 0);
	ck_assert_uint_eq(reports("iommu-fault"), 2);
	dma_unmap_page(dev, addr, 2 * PAGE_SIZE, DMA_TO_DEVICE);
	__free_pages(pg, 1);
	ck_assert_uint_eq(reports(NULL), 2); /* every report */
	stop();
}
END_TEST

/*
 * DMA_ATTR_PRIVILEGED: only a privileged device reaches the mapping
 * (arm_lpae_prot_to_pte(): no AP_UNPRIV); on x86 with iommu_strict=1.
 */
START_TEST(privileged)
{
	uint8_t *buf;
	uint64_t p;
	size_t contig;
	dma_addr_t addr, plain;
	struct dmaemu__iommu_stats st;

	start_smmu_like(_i, "mem=16M");
	buf = kmalloc(128, GFP_KERNEL);
	ck_assert_ptr_nonnull(buf);
	fixture_cpu_fill(buf, 0x71, 128);
	addr = dma_map_single_attrs(dev, buf, 64, DMA_BIDIRECTIONAL,
				    DMA_ATTR_PRIVILEGED);
	plain = dma_map_single(dev, buf + 64, 64, DMA_TO_DEVICE);
	ck_assert(!dma_mapping_error(dev, addr));
	ck_assert(!dma_mapping_error(dev, plain));
	ck_assert_int_eq(translate(addr, 64, false, &p, &contig), -EPERM);
	ck_assert_int_ne(dev_read_all(addr, 0x71, 64), 0);
	ck_assert_int_ne(dev_write(addr, 0x72, 64), 0);
	ck_assert_uint_eq(reports("iommu-fault"), 3);
	ck_assert_int_eq(dev_read_all(plain, 0x71, 64), 0);

	ck_assert_int_eq(dmaemu_device_set_privileged(dd, true), 0);
	dmaemu__iommu_info(dev, &st);
	ck_assert(st.privileged);
	ck_assert_int_eq(dev_read_all(addr, 0x71, 64), 0);
	ck_assert_int_eq(dev_write(addr, 0x72, 64), 0);
	/* Privilege does not lift the direction's permissions. */
	ck_assert_int_ne(dev_write(plain, 0x73, 64), 0);
	ck_assert_uint_eq(reports("iommu-fault"), 4);
	ck_assert_int_eq(dmaemu_device_set_privileged(NULL, true), -EINVAL);
	dma_unmap_single_attrs(dev, addr, 64, DMA_BIDIRECTIONAL,
			       DMA_ATTR_PRIVILEGED);
	dma_unmap_single(dev, plain, 64, DMA_TO_DEVICE);
	ck_assert(fixture_cpu_sees(buf, 0x72, 64));
	kfree(buf);
	ck_assert_uint_eq(reports(NULL), 4); /* every report */
	stop();
}
END_TEST

/*
 * x86: 4.14's VT-d code does not look at the attributes
 * (intel_map_page() passes none to __intel_map_single()), so
 * DMA_ATTR_PRIVILEGED changes nothing: an unprivileged device reaches the
 * mapping, and a coherent allocation's pages likewise.
 */
START_TEST(vtd_ignores_privileged)
{
	uint8_t *buf;
	uint64_t phys;
	dma_addr_t addr;

	/* The second part reads a page the IOMMU maps with no DMA API
	 * mapping, which the sanitizer would refuse. */
	start(X86, "mem=16M:checks=-coherence");
	buf = kmalloc(64, GFP_KERNEL);
	ck_assert_ptr_nonnull(buf);
	fixture_cpu_fill(buf, 0x74, 64);
	addr = dma_map_single_attrs(dev, buf, 64, DMA_BIDIRECTIONAL,
				    DMA_ATTR_PRIVILEGED);
	ck_assert(!dma_mapping_error(dev, addr));
	ck_assert_int_eq(dev_read_all(addr, 0x74, 64), 0);
	ck_assert_int_eq(dev_write(addr, 0x75, 64), 0);
	dma_unmap_single_attrs(dev, addr, 64, DMA_BIDIRECTIONAL,
			       DMA_ATTR_PRIVILEGED);
	ck_assert(fixture_cpu_sees(buf, 0x75, 64));

	phys = virt_to_phys(buf) & ~(uint64_t)(PAGE_SIZE - 1);
	addr = dmaemu__iommu_map_pages(
		dev, &phys, 1, DMAEMU__IOMMU_READ | DMAEMU__IOMMU_WRITE, true);
	ck_assert(!dma_mapping_error(dev, addr));
	ck_assert_int_eq(
		dev_read_all(addr + (virt_to_phys(buf) - phys), 0x75, 64), 0);
	dmaemu__iommu_unmap(dev, addr, PAGE_SIZE);
	ck_assert_uint_eq(reports("iommu-fault"), 0);
	kfree(buf);
	stop();
}
END_TEST

/* Three single pages, not physically contiguous. */
static struct page *pg3[3];

static void three_pages(void)
{
	int k;

	for (k = 0; k < 3; k++) {
		/* Order-1 blocks, using the first page of each: never
		 * neighbours. */
		pg3[k] = alloc_pages(GFP_KERNEL, 1);
		ck_assert_ptr_nonnull(pg3[k]);
		fixture_cpu_fill(page_address(pg3[k]), (uint8_t)(0x81 + k),
				 PAGE_SIZE);
	}
}

static void free_three(void)
{
	int k;

	for (k = 0; k < 3; k++)
		__free_pages(pg3[k], 1);
}

/*
 * iommu_dma_map_sg() (arm, arm64; x86 with iommu_strict=1): three
 * whole-page entries become one DMA segment, contiguous in IOVA space
 * though not in physical memory; the device reads across them.
 */
START_TEST(sg_merges_pages)
{
	struct scatterlist sg[3];
	uint8_t *got;
	uint64_t p;
	size_t contig;
	int k, n;

	start_smmu_like(_i, "mem=16M");
	three_pages();
	sg_init_table(sg, 3);
	for (k = 0; k < 3; k++)
		sg_set_page(&sg[k], pg3[k], PAGE_SIZE, 0);
	n = dma_map_sg(dev, sg, 3, DMA_BIDIRECTIONAL);
	ck_assert_int_eq(n, 1);
	ck_assert_uint_eq(sg_dma_len(&sg[0]), 3 * PAGE_SIZE);
	ck_assert_uint_eq(sg_dma_len(&sg[1]), 0);
	ck_assert(dma_mapping_error(dev, sg_dma_address(&sg[1])));
	for (k = 0; k < 3; k++)
		ck_assert_uint_eq(
			dmaemu__iommu_iova_to_phys(dev, sg_dma_address(&sg[0]) +
								k * PAGE_SIZE),
			page_to_phys(pg3[k]));
	/* Physically apart: translation stops at the page's end. */
	ck_assert_int_eq(translate(sg_dma_address(&sg[0]), 3 * PAGE_SIZE, false,
				   &p, &contig),
			 0);
	ck_assert_uint_eq(contig, PAGE_SIZE);

	got = malloc(3 * PAGE_SIZE);
	ck_assert_ptr_nonnull(got);
	ck_assert_int_eq(
		dmaemu_dma_read(dd, sg_dma_address(&sg[0]), got, 3 * PAGE_SIZE),
		0);
	for (k = 0; k < 3; k++)
		ck_assert(fixture_all(got + k * PAGE_SIZE, (uint8_t)(0x81 + k),
				      PAGE_SIZE));
	free(got);
	ck_assert_int_eq(
		dev_write(sg_dma_address(&sg[0]) + PAGE_SIZE - 8, 0x99, 16), 0);
	dma_unmap_sg(dev, sg, 3, DMA_BIDIRECTIONAL);
	ck_assert(fixture_cpu_sees(
		(uint8_t *)page_address(pg3[0]) + PAGE_SIZE - 8, 0x99, 8));
	ck_assert(fixture_cpu_sees(page_address(pg3[1]), 0x99, 8));
	ck_assert_int_ne(dev_read_all(sg_dma_address(&sg[0]), 0, 16), 0);
	free_three();
	ck_assert_uint_eq(reports(NULL), 1); /* every report */
	stop();
}
END_TEST

/* iommu_dma_map_sg(): no merge past max_segment_size, nor across a page
 * offset. */
START_TEST(sg_merge_limits)
{
	struct scatterlist sg[3];
	int k, n;

	start_smmu_like(_i, "mem=16M");
	three_pages();

	/* max_segment_size of one page: three segments. */
	ck_assert_int_eq(dma_set_max_seg_size(dev, PAGE_SIZE), 0);
	sg_init_table(sg, 3);
	for (k = 0; k < 3; k++)
		sg_set_page(&sg[k], pg3[k], PAGE_SIZE, 0);
	n = dma_map_sg(dev, sg, 3, DMA_TO_DEVICE);
	ck_assert_int_eq(n, 3);
	for (k = 0; k < 3; k++) {
		ck_assert_uint_eq(sg_dma_len(&sg[k]), PAGE_SIZE);
		ck_assert_int_eq(dev_read_all(sg_dma_address(&sg[k]),
					      (uint8_t)(0x81 + k), PAGE_SIZE),
				 0);
	}
	/* Still one IOVA range, laid out back to back. */
	ck_assert_uint_eq(sg_dma_address(&sg[1]),
			  sg_dma_address(&sg[0]) + PAGE_SIZE);
	dma_unmap_sg(dev, sg, 3, DMA_TO_DEVICE);

	/* Two pages per segment: 2 + 1. */
	ck_assert_int_eq(dma_set_max_seg_size(dev, 2 * PAGE_SIZE), 0);
	n = dma_map_sg(dev, sg, 3, DMA_TO_DEVICE);
	ck_assert_int_eq(n, 2);
	ck_assert_uint_eq(sg_dma_len(&sg[0]), 2 * PAGE_SIZE);
	ck_assert_uint_eq(sg_dma_len(&sg[1]), PAGE_SIZE);
	dma_unmap_sg(dev, sg, 3, DMA_TO_DEVICE);
	ck_assert_int_eq(dma_set_max_seg_size(dev, 65536), 0);

	/* Entries that do not end and start on page boundaries. */
	for (k = 0; k < 3; k++)
		sg_set_page(&sg[k], pg3[k], 1000, 100);
	n = dma_map_sg(dev, sg, 3, DMA_TO_DEVICE);
	ck_assert_int_eq(n, 3);
	for (k = 0; k < 3; k++) {
		ck_assert_uint_eq(sg_dma_address(&sg[k]) & (PAGE_SIZE - 1),
				  100);
		ck_assert_uint_eq(sg_dma_len(&sg[k]), 1000);
	}
	dma_unmap_sg(dev, sg, 3, DMA_TO_DEVICE);

	/* A page ending where the next starts merges even with offsets at
	 * the outer ends: [100, 4096) + [0, 4096) + [0, 50). */
	sg_set_page(&sg[0], pg3[0], PAGE_SIZE - 100, 100);
	sg_set_page(&sg[1], pg3[1], PAGE_SIZE, 0);
	sg_set_page(&sg[2], pg3[2], 50, 0);
	n = dma_map_sg(dev, sg, 3, DMA_TO_DEVICE);
	ck_assert_int_eq(n, 1);
	ck_assert_uint_eq(sg_dma_len(&sg[0]), 2 * PAGE_SIZE - 100 + 50);
	ck_assert_uint_eq(sg_dma_address(&sg[0]) & (PAGE_SIZE - 1), 100);
	dma_unmap_sg(dev, sg, 3, DMA_TO_DEVICE);
	free_three();
	ck_assert_uint_eq(reports(NULL), 0); /* every report */
	stop();
}
END_TEST

/*
 * iommu_dma_map_sg(): an entry that ends inside a page ends its segment,
 * even when the next entry starts on a page: the rest of that page is not
 * the next entry's bytes.  Whether the entry is one page or more, and
 * whatever its offset; an entry that starts inside a page and crosses
 * into the next gets both pages, and the device reads all of it.  A
 * segment of exactly max_segment_size is one segment.
 */
START_TEST(sg_merge_midpage)
{
	struct scatterlist sg[2];
	uint8_t *got;
	int k, n;

	start_smmu_like(_i, "mem=16M");
	three_pages();
	/* The order-1 blocks' second pages too: 0x91 + k. */
	for (k = 0; k < 3; k++)
		fixture_cpu_fill((uint8_t *)page_address(pg3[k]) + PAGE_SIZE,
				 (uint8_t)(0x91 + k), PAGE_SIZE);
	sg_init_table(sg, 2);

	/* [0, 1000) + [0, 4096): two segments. */
	sg_set_page(&sg[0], pg3[0], 1000, 0);
	sg_set_page(&sg[1], pg3[1], PAGE_SIZE, 0);
	n = dma_map_sg(dev, sg, 2, DMA_TO_DEVICE);
	ck_assert_int_eq(n, 2);
	ck_assert_uint_eq(sg_dma_len(&sg[0]), 1000);
	ck_assert_uint_eq(sg_dma_len(&sg[1]), PAGE_SIZE);
	ck_assert_uint_eq(sg_dma_address(&sg[1]) & (PAGE_SIZE - 1), 0);
	ck_assert_int_eq(dev_read_all(sg_dma_address(&sg[1]), 0x82, PAGE_SIZE),
			 0);
	dma_unmap_sg(dev, sg, 2, DMA_TO_DEVICE);

	/* The same after an offset: [100, 1100) + [0, 4096). */
	sg_set_page(&sg[0], pg3[0], 1000, 100);
	n = dma_map_sg(dev, sg, 2, DMA_TO_DEVICE);
	ck_assert_int_eq(n, 2);
	ck_assert_int_eq(dev_read_all(sg_dma_address(&sg[1]), 0x82, PAGE_SIZE),
			 0);
	dma_unmap_sg(dev, sg, 2, DMA_TO_DEVICE);

	/* An entry of a page and 1000 bytes ends inside its second page:
	 * two segments. */
	sg_set_page(&sg[0], pg3[0], PAGE_SIZE + 1000, 0);
	n = dma_map_sg(dev, sg, 2, DMA_TO_DEVICE);
	ck_assert_int_eq(n, 2);
	ck_assert_uint_eq(sg_dma_len(&sg[0]), PAGE_SIZE + 1000);
	ck_assert_uint_eq(sg_dma_len(&sg[1]), PAGE_SIZE);
	ck_assert_int_eq(
		dev_read_all(sg_dma_address(&sg[0]) + PAGE_SIZE, 0x91, 1000),
		0);
	ck_assert_int_eq(dev_read_all(sg_dma_address(&sg[1]), 0x82, PAGE_SIZE),
			 0);
	dma_unmap_sg(dev, sg, 2, DMA_TO_DEVICE);

	/* [3000, 5000) of a block: both of its pages are mapped, and the
	 * device reads the 2000 bytes. */
	sg_set_page(&sg[0], pg3[0], 2000, 3000);
	n = dma_map_sg(dev, sg, 1, DMA_TO_DEVICE);
	ck_assert_int_eq(n, 1);
	ck_assert_uint_eq(sg_dma_len(&sg[0]), 2000);
	got = malloc(2000);
	ck_assert_ptr_nonnull(got);
	ck_assert_int_eq(dmaemu_dma_read(dd, sg_dma_address(&sg[0]), got, 2000),
			 0);
	ck_assert(fixture_all(got, 0x81, PAGE_SIZE - 3000));
	ck_assert(fixture_all(got + PAGE_SIZE - 3000, 0x91, 2000 - 1096));
	free(got);
	dma_unmap_sg(dev, sg, 1, DMA_TO_DEVICE);

	/* Two pages under a max_segment_size of two pages: one segment. */
	ck_assert_int_eq(dma_set_max_seg_size(dev, 2 * PAGE_SIZE), 0);
	sg_set_page(&sg[0], pg3[0], PAGE_SIZE, 0);
	n = dma_map_sg(dev, sg, 2, DMA_TO_DEVICE);
	ck_assert_int_eq(n, 1);
	ck_assert_uint_eq(sg_dma_len(&sg[0]), 2 * PAGE_SIZE);
	dma_unmap_sg(dev, sg, 2, DMA_TO_DEVICE);
	free_three();
	ck_assert_uint_eq(reports(NULL), 0); /* every report */
	stop();
}
END_TEST

/*
 * iommu_dma_map_sg(): a segment never crosses the device's segment
 * boundary: with an 8 KiB boundary three pages map as 2 + 1, the third
 * starting on the boundary.
 */
START_TEST(sg_segment_boundary)
{
	struct scatterlist sg[3];
	int k, n;

	start_smmu_like(_i, "mem=16M");
	three_pages();
	ck_assert_int_eq(dma_set_seg_boundary(dev, 2 * PAGE_SIZE - 1), 0);
	sg_init_table(sg, 3);
	for (k = 0; k < 3; k++)
		sg_set_page(&sg[k], pg3[k], PAGE_SIZE, 0);
	n = dma_map_sg(dev, sg, 3, DMA_TO_DEVICE);
	ck_assert_int_eq(n, 2);
	ck_assert_uint_eq(sg_dma_address(&sg[0]) & (2 * PAGE_SIZE - 1), 0);
	ck_assert_uint_eq(sg_dma_len(&sg[0]), 2 * PAGE_SIZE);
	ck_assert_uint_eq(sg_dma_address(&sg[1]) & (2 * PAGE_SIZE - 1), 0);
	ck_assert_int_eq(dev_read_all(sg_dma_address(&sg[1]), 0x83, PAGE_SIZE),
			 0);
	dma_unmap_sg(dev, sg, 3, DMA_TO_DEVICE);

	/* An entry that would cross the boundary is moved to it: one page,
	 * then two pages padded to start on the next 8 KiB. */
	sg_init_table(sg, 2);
	sg_set_page(&sg[0], pg3[0], PAGE_SIZE, 0);
	sg_set_page(&sg[1], pg3[1], 2 * PAGE_SIZE, 0);
	n = dma_map_sg(dev, sg, 2, DMA_TO_DEVICE);
	ck_assert_int_eq(n, 2);
	ck_assert_uint_eq(sg_dma_address(&sg[1]),
			  sg_dma_address(&sg[0]) + 2 * PAGE_SIZE);
	/* The padding page is not mapped. */
	ck_assert_uint_eq(dmaemu__iommu_iova_to_phys(
				  dev, sg_dma_address(&sg[0]) + PAGE_SIZE),
			  UINT64_MAX);
	dma_unmap_sg(dev, sg, 2, DMA_TO_DEVICE);
	free_three();
	ck_assert_uint_eq(reports(NULL), 0); /* every report */
	stop();
}
END_TEST

/*
 * x86, intel_map_sg() and __domain_mapping(): one IOVA range, each entry's
 * whole pages back to back, and one DMA segment per entry: the result is
 * nents, sg_dma_address() the entry's IOVA (its page offset kept) and
 * sg_dma_len() its length.  Neither the segment boundary nor
 * max_segment_size changes the layout.  The device reads across the
 * entries through the consecutive IOVAs.
 */
START_TEST(vtd_sg_one_segment_per_entry)
{
	struct scatterlist sg[3];
	uint8_t *got;
	dma_addr_t base;
	int k, n;

	start(X86, "mem=16M");
	three_pages();
	sg_init_table(sg, 3);
	for (k = 0; k < 3; k++)
		sg_set_page(&sg[k], pg3[k], PAGE_SIZE, 0);
	n = dma_map_sg(dev, sg, 3, DMA_BIDIRECTIONAL);
	ck_assert_int_eq(n, 3);
	base = sg_dma_address(&sg[0]);
	ck_assert_uint_eq(base & (PAGE_SIZE - 1), 0);
	for (k = 0; k < 3; k++) {
		ck_assert_uint_eq(sg_dma_address(&sg[k]),
				  base + (dma_addr_t)k * PAGE_SIZE);
		ck_assert_uint_eq(sg_dma_len(&sg[k]), PAGE_SIZE);
		ck_assert_uint_eq(
			dmaemu__iommu_iova_to_phys(dev, sg_dma_address(&sg[k])),
			page_to_phys(pg3[k]));
	}
	got = malloc(3 * PAGE_SIZE);
	ck_assert_ptr_nonnull(got);
	ck_assert_int_eq(dmaemu_dma_read(dd, base, got, 3 * PAGE_SIZE), 0);
	for (k = 0; k < 3; k++)
		ck_assert(fixture_all(got + k * PAGE_SIZE, (uint8_t)(0x81 + k),
				      PAGE_SIZE));
	free(got);
	ck_assert_int_eq(dev_write(sg_dma_address(&sg[2]), 0x98, 16), 0);
	dma_sync_sg_for_cpu(dev, sg, 3, DMA_BIDIRECTIONAL);
	ck_assert(fixture_cpu_sees(page_address(pg3[2]), 0x98, 16));
	dma_unmap_sg(dev, sg, 3, DMA_BIDIRECTIONAL);

	/* Page offsets: each entry its own pages, its offset kept. */
	for (k = 0; k < 3; k++)
		sg_set_page(&sg[k], pg3[k], 1000, 100);
	n = dma_map_sg(dev, sg, 3, DMA_TO_DEVICE);
	ck_assert_int_eq(n, 3);
	base = sg_dma_address(&sg[0]) & ~(dma_addr_t)(PAGE_SIZE - 1);
	for (k = 0; k < 3; k++) {
		ck_assert_uint_eq(sg_dma_address(&sg[k]),
				  base + (dma_addr_t)k * PAGE_SIZE + 100);
		ck_assert_uint_eq(sg_dma_len(&sg[k]), 1000);
		ck_assert_int_eq(dev_read_all(sg_dma_address(&sg[k]),
					      (uint8_t)(0x81 + k), 1000),
				 0);
	}
	dma_unmap_sg(dev, sg, 3, DMA_TO_DEVICE);

	/* An 8 KiB boundary and a one-page max_segment_size: still back to
	 * back, one segment per entry (no padding page). */
	ck_assert_int_eq(dma_set_seg_boundary(dev, 2 * PAGE_SIZE - 1), 0);
	ck_assert_int_eq(dma_set_max_seg_size(dev, PAGE_SIZE), 0);
	sg_init_table(sg, 2);
	sg_set_page(&sg[0], pg3[0], PAGE_SIZE, 0);
	sg_set_page(&sg[1], pg3[1], PAGE_SIZE, 0);
	n = dma_map_sg(dev, sg, 2, DMA_TO_DEVICE);
	ck_assert_int_eq(n, 2);
	ck_assert_uint_eq(sg_dma_address(&sg[1]),
			  sg_dma_address(&sg[0]) + PAGE_SIZE);
	dma_unmap_sg(dev, sg, 2, DMA_TO_DEVICE);
	ck_assert_uint_eq(reports("iommu-fault"), 0);
	free_three();
	stop();
}
END_TEST

/*
 * The allocator: ranges aligned to their size rounded up to a power of
 * two, below the mask, never overlapping; freeing everything coalesces
 * the space back into one range.
 */
START_TEST(iova_allocator)
{
	enum { N = 600 };
	static dma_addr_t addr[N];
	static size_t len[N];
	struct dmaemu__iommu_stats st;
	struct page *pages;
	uint8_t *base;
	uint64_t seed = 12345;
	int k, j, live = 0;

	start(_i, "mem=16M");
	pages = alloc_pages(GFP_KERNEL, 6); /* 256 KiB */
	ck_assert_ptr_nonnull(pages);
	base = page_address(pages);
	memset(addr, 0, sizeof(addr));
	for (k = 0; k < 4 * N; k++) {
		int i;

		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		i = (int)((seed >> 33) % N);
		if (addr[i]) {
			dma_unmap_single(dev, addr[i], len[i], DMA_TO_DEVICE);
			addr[i] = 0;
			live--;
			continue;
		}
		len[i] = ((seed >> 20) % 16 + 1) * PAGE_SIZE - (seed & 0xff);
		addr[i] = dma_map_single(dev, base + (seed & 0xff), len[i],
					 DMA_TO_DEVICE);
		ck_assert(!dma_mapping_error(dev, addr[i]));
		live++;
	}
	for (k = 0; k < N; k++) {
		uint64_t a, n, al;

		if (!addr[k])
			continue;
		a = addr[k] >> PAGE_SHIFT;
		n = ((addr[k] & (PAGE_SIZE - 1)) + len[k] + PAGE_SIZE - 1) >>
		    PAGE_SHIFT;
		for (al = 1; al < n; al <<= 1)
			;
		ck_assert_uint_eq(a % al, 0);
		ck_assert_uint_le(addr[k] + len[k], 1ULL << 32);
		for (j = k + 1; j < N; j++) {
			uint64_t b, bn;

			if (!addr[j])
				continue;
			b = addr[j] >> PAGE_SHIFT;
			bn = ((addr[j] & (PAGE_SIZE - 1)) + len[j] + PAGE_SIZE -
			      1) >>
			     PAGE_SHIFT;
			ck_assert(a + n <= b || b + bn <= a);
		}
	}
	dmaemu__iommu_info(dev, &st);
	ck_assert_uint_eq(st.allocs, (uint64_t)live);
	for (k = 0; k < N; k++)
		if (addr[k])
			dma_unmap_single(dev, addr[k], len[k], DMA_TO_DEVICE);
	dmaemu__iommu_info(dev, &st);
	ck_assert_uint_eq(st.free_ranges, 1);
	__free_pages(pages, 6);
	ck_assert_uint_eq(reports(NULL), 0); /* every report */
	stop();
}
END_TEST

/* A narrow mask leaves room for little: exhaustion is an error return with
 * one alloc-failure report (none with NO_WARN). */
START_TEST(iova_exhaustion)
{
	struct page *pg;
	uint8_t *buf;
	dma_addr_t a, b;
	uint64_t mask = DMA_BIT_MASK(14); /* pages 1, 2, 3 */

	start(_i, "mem=16M");
	pg = alloc_pages(GFP_KERNEL, 1);
	ck_assert_ptr_nonnull(pg);
	buf = page_address(pg);
	dev->dma_mask = &mask;
	a = dma_map_single(dev, buf, PAGE_SIZE, DMA_TO_DEVICE);
	ck_assert(!dma_mapping_error(dev, a));
	ck_assert_uint_eq(a, 3 * PAGE_SIZE); /* from the top */
	b = dma_map_single(dev, buf, 2 * PAGE_SIZE, DMA_TO_DEVICE);
	/* Two pages need an aligned pair: pages 2-3 are taken, 0 never. */
	ck_assert(dma_mapping_error(dev, b));
	ck_assert_uint_eq(reports("alloc-failure"), 1);
	b = dma_map_single_attrs(dev, buf, 2 * PAGE_SIZE, DMA_TO_DEVICE,
				 DMA_ATTR_NO_WARN);
	ck_assert(dma_mapping_error(dev, b));
	ck_assert_uint_eq(reports("alloc-failure"), 1);
	b = dma_map_single(dev, buf, PAGE_SIZE, DMA_TO_DEVICE);
	ck_assert(!dma_mapping_error(dev, b));
	ck_assert_uint_eq(b, 2 * PAGE_SIZE);
	dma_unmap_single(dev, a, PAGE_SIZE, DMA_TO_DEVICE);
	dma_unmap_single(dev, b, PAGE_SIZE, DMA_TO_DEVICE);
	dev->dma_mask = &dev->dmaemu_dma_mask;
	__free_pages(pg, 1);
	ck_assert_uint_eq(reports(NULL), 1); /* every report */
	stop();
}
END_TEST

/* Coherent allocations' pages: stitched into consecutive IOVAs. */
START_TEST(map_pages_stitches)
{
	uint64_t phys[3], p;
	size_t contig;
	dma_addr_t addr;
	uint8_t *got;
	int k;

	/* Pages the IOMMU maps with no DMA API mapping: the sanitizer would
	 * refuse the device's accesses (device-access-unmapped). */
	start(_i, "mem=16M:checks=-coherence");
	three_pages();
	for (k = 0; k < 3; k++)
		phys[k] = page_to_phys(pg3[k]);
	addr = dmaemu__iommu_map_pages(
		dev, phys, 3, DMAEMU__IOMMU_READ | DMAEMU__IOMMU_WRITE, false);
	ck_assert(!dma_mapping_error(dev, addr));
	ck_assert_uint_eq(addr & (PAGE_SIZE - 1), 0);
	for (k = 0; k < 3; k++)
		ck_assert_uint_eq(
			dmaemu__iommu_iova_to_phys(dev, addr + k * PAGE_SIZE),
			phys[k]);
	got = malloc(3 * PAGE_SIZE);
	ck_assert_ptr_nonnull(got);
	if (!coherent) {
		/* Make the CPU's bytes visible in memory first. */
		for (k = 0; k < 3; k++)
			dmaemu__range_clean(m, phys[k], PAGE_SIZE);
	}
	ck_assert_int_eq(dmaemu_dma_read(dd, addr, got, 3 * PAGE_SIZE), 0);
	for (k = 0; k < 3; k++)
		ck_assert(fixture_all(got + k * PAGE_SIZE, (uint8_t)(0x81 + k),
				      PAGE_SIZE));
	free(got);
	dmaemu__iommu_unmap(dev, addr, 3 * PAGE_SIZE);
	ck_assert_int_eq(translate(addr, 8, false, &p, &contig), -EFAULT);

	/* Read-only and privileged (x86: VT-d has no privilege bit, only
	 * the read-only part holds). */
	addr = dmaemu__iommu_map_pages(dev, phys, 1, DMAEMU__IOMMU_READ, true);
	ck_assert(!dma_mapping_error(dev, addr));
	ck_assert_int_eq(translate(addr, 8, false, &p, &contig),
			 _i == X86 ? 0 : -EPERM);
	ck_assert_int_eq(dmaemu_device_set_privileged(dd, true), 0);
	ck_assert_int_eq(translate(addr, 8, false, &p, &contig), 0);
	ck_assert_int_eq(translate(addr, 8, true, &p, &contig), -EPERM);
	dmaemu__iommu_unmap(dev, addr, PAGE_SIZE);
	ck_assert_uint_eq(reports("iommu-fault"), _i == X86 ? 2 : 3);
	ck_assert_uint_eq(reports("bad-argument"), 0);
	dmaemu__iommu_unmap(dev, addr, PAGE_SIZE);
	ck_assert_uint_eq(reports("bad-argument"), 1);
	free_three();
	/* every report: the faults above and the bad-argument */
	ck_assert_uint_eq(reports(NULL), _i == X86 ? 3 : 4);
	stop();
}
END_TEST

/* Tree comparisons per map+unmap pair of one 64-byte buffer, @n pairs. */
static uint64_t pair_steps(uint8_t *buf, int n)
{
	struct dmaemu__iommu_stats st;
	uint64_t before;
	int k;

	dmaemu__iommu_info(dev, &st);
	before = st.steps;
	for (k = 0; k < n; k++) {
		dma_addr_t a = dma_map_single(dev, buf, 64, DMA_TO_DEVICE);

		ck_assert(!dma_mapping_error(dev, a));
		dma_unmap_single(dev, a, 64, DMA_TO_DEVICE);
	}
	dmaemu__iommu_info(dev, &st);
	return (st.steps - before) / (uint64_t)n;
}

static unsigned int log2_ceil(uint64_t v)
{
	unsigned int b = 0;

	while ((1ULL << b) < v)
		b++;
	return b;
}

/*
 * 100,000 live mappings (10,000 under Valgrind): all distinct, all
 * translating, and one more map+unmap costs O(log n): counted in tree
 * comparisons (the domain's steps), not in time, so a loaded machine
 * cannot fail it.  A red-black tree of n nodes is at most 2 log2(n + 1)
 * deep; a pair inserts into and searches the tree of live ranges once
 * each, and a linear allocator would make n comparisons.
 */
START_TEST(many_live_mappings)
{
	int n = 100000, k;
	uint8_t **buf, *probe;
	dma_addr_t *addr;
	uint64_t empty, full;
	struct dmaemu__iommu_stats st;

#ifdef HAVE_VALGRIND_VALGRIND_H
	if (RUNNING_ON_VALGRIND)
		n = 10000;
#endif
	start(ARM64, "mem=64M");
	buf = calloc((size_t)n, sizeof(*buf));
	addr = calloc((size_t)n, sizeof(*addr));
	ck_assert_ptr_nonnull(buf);
	ck_assert_ptr_nonnull(addr);
	probe = kmalloc(64, GFP_KERNEL);
	ck_assert_ptr_nonnull(probe);
	empty = pair_steps(probe, 100);
	ck_assert_uint_gt(empty, 0);

	for (k = 0; k < n; k++) {
		buf[k] = kmalloc(64, GFP_KERNEL);
		ck_assert_ptr_nonnull(buf[k]);
		addr[k] = dma_map_single(dev, buf[k], 64, DMA_TO_DEVICE);
		ck_assert(!dma_mapping_error(dev, addr[k]));
	}
	dmaemu__iommu_info(dev, &st);
	ck_assert_uint_eq(st.allocs, (uint64_t)n);
	ck_assert_uint_eq(st.pages, (uint64_t)n);
	for (k = 0; k < n; k += 997)
		ck_assert_uint_eq(dmaemu__iommu_iova_to_phys(dev, addr[k]),
				  virt_to_phys(buf[k]));
	full = pair_steps(probe, 100);
	fprintf(stderr,
		"# tree comparisons per map+unmap: %llu with 0 live "
		"mappings, %llu with %d\n",
		(unsigned long long)empty, (unsigned long long)full, n);
	ck_assert_uint_le(full, empty + 2 * 2 * log2_ceil((uint64_t)n + 1));
	for (k = 0; k < n; k++) {
		dma_unmap_single(dev, addr[k], 64, DMA_TO_DEVICE);
		kfree(buf[k]);
	}
	kfree(probe);
	free(buf);
	free(addr);
	ck_assert_uint_eq(reports(NULL), 0); /* every report */
	stop();
}
END_TEST

/*
 * iommu_strict: off by default, needs iommu=1, and is shown by
 * dmaemu_machine_option().
 */
START_TEST(strict_option)
{
	struct dmaemu_machine *x;
	char v[16], o[128];

	snprintf(o, sizeof(o), "profile=%s:iommu=1:log_path=/dev/null",
		 profiles[_i]);
	x = dmaemu_machine_create(o);
	ck_assert_ptr_nonnull(x);
	ck_assert_int_eq(dmaemu_machine_option(x, "iommu_strict", v, sizeof(v)),
			 0);
	ck_assert_str_eq(v, "0");
	dmaemu_machine_destroy(x);
	snprintf(o, sizeof(o),
		 "profile=%s:iommu=1:iommu_strict=1:log_path=/dev/null",
		 profiles[_i]);
	x = dmaemu_machine_create(o);
	ck_assert_ptr_nonnull(x);
	ck_assert_int_eq(dmaemu_machine_option(x, "iommu_strict", v, sizeof(v)),
			 0);
	ck_assert_str_eq(v, "1");
	dmaemu_machine_destroy(x);
	errno = 0;
	snprintf(o, sizeof(o), "profile=%s:iommu_strict=1:log_path=/dev/null",
		 profiles[_i]);
	ck_assert_ptr_null(dmaemu_machine_create(o));
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

/* Device release forgets the domain; a new device starts afresh. */
START_TEST(domain_per_device)
{
	struct dmaemu_device *d2;
	struct device *dev2;
	uint8_t *buf;
	dma_addr_t a1, a2;
	uint64_t p;
	size_t contig;

	start(_i, "mem=16M");
	buf = kmalloc(64, GFP_KERNEL);
	ck_assert_ptr_nonnull(buf);
	d2 = dmaemu_device_create(m, "dev1", NULL, NULL);
	ck_assert_ptr_nonnull(d2);
	dev2 = dmaemu_device_to_dev(d2);
	a1 = dma_map_single(dev, buf, 64, DMA_TO_DEVICE);
	a2 = dma_map_single(dev2, buf, 64, DMA_TO_DEVICE);
	ck_assert(!dma_mapping_error(dev, a1));
	ck_assert(!dma_mapping_error(dev2, a2));
	/* Separate spaces: the same IOVA in each, each its own table. */
	ck_assert_uint_eq(a1, a2);
	dma_unmap_single(dev2, a2, 64, DMA_TO_DEVICE);
	ck_assert_int_eq(dmaemu__bus_translate(dev2, a2, 8, false, &p, &contig),
			 -EFAULT);
	ck_assert_int_eq(translate(a1, 8, false, &p, &contig), 0);
	dmaemu_device_destroy(d2);
	dma_unmap_single(dev, a1, 64, DMA_TO_DEVICE);
	kfree(buf);
	ck_assert_uint_eq(reports(NULL), 1); /* every report */
	stop();
}
END_TEST

/*
 * Threads mapping at once in one domain while each plays the device on its
 * mappings: IOVAs, page tables and data stay consistent.
 */
enum { THREADS = 4, ROUNDS = 150 };

static void *iommu_worker(void *arg)
{
	uintptr_t id = (uintptr_t)arg;
	uint8_t *buf = kmalloc(3000, GFP_KERNEL);
	int r;

	ck_assert_ptr_nonnull(buf);
	for (r = 0; r < ROUNDS; r++) {
		uint8_t a = (uint8_t)(id * 64 + r), b = (uint8_t)(a ^ 0xff);
		dma_addr_t addr;

		fixture_cpu_fill(buf, a, 3000);
		addr = dma_map_single(dev, buf, 3000, DMA_BIDIRECTIONAL);
		ck_assert(!dma_mapping_error(dev, addr));
		ck_assert_uint_eq(dmaemu__iommu_iova_to_phys(dev, addr),
				  virt_to_phys(buf));
		ck_assert_int_eq(dev_read_all(addr, a, 3000), 0);
		ck_assert_int_eq(dev_write(addr, b, 3000), 0);
		dma_unmap_single(dev, addr, 3000, DMA_BIDIRECTIONAL);
		ck_assert(fixture_cpu_sees(buf, b, 3000));
	}
	kfree(buf);
	return NULL;
}

START_TEST(concurrent_mapping)
{
	pthread_t t[THREADS];
	uintptr_t k;

	/* As in check-dma-swiotlb: no eviction of another thread's line. */
	start(_i, "mem=16M:cache_size=4M:cache_ways=16");
	for (k = 0; k < THREADS; k++)
		ck_assert_int_eq(
			pthread_create(&t[k], NULL, iommu_worker, (void *)k),
			0);
	for (k = 0; k < THREADS; k++)
		ck_assert_int_eq(pthread_join(t[k], NULL), 0);
	ck_assert_uint_eq(reports("iommu-fault"), 0);
	ck_assert_uint_eq(reports(NULL), 0); /* every report */
	stop();
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("dma-iommu");
	TCase *tc = tcase_create("iommu");

	tcase_set_timeout(tc, 300);
	tcase_add_loop_test(tc, iova_translates, 0, 3);
	tcase_add_loop_test(tc, permissions_by_direction, 0, 6);
	tcase_add_loop_test(tc, permissions_sg_and_pages, 0, 6);
	tcase_add_loop_test(tc, unmapped_faults, 0, 3);
	tcase_add_loop_test(tc, access_past_the_mapping, 0, 3);
	tcase_add_loop_test(tc, privileged, 0, 3);
	tcase_add_test(tc, vtd_ignores_privileged);
	tcase_add_loop_test(tc, sg_merges_pages, 0, 3);
	tcase_add_loop_test(tc, sg_merge_limits, 0, 3);
	tcase_add_loop_test(tc, sg_merge_midpage, 0, 3);
	tcase_add_loop_test(tc, sg_segment_boundary, 0, 3);
	tcase_add_test(tc, vtd_sg_one_segment_per_entry);
	tcase_add_loop_test(tc, iova_allocator, 0, 3);
	tcase_add_loop_test(tc, iova_exhaustion, 0, 3);
	tcase_add_loop_test(tc, map_pages_stitches, 0, 3);
	tcase_add_test(tc, many_live_mappings);
	tcase_add_loop_test(tc, strict_option, 0, 3);
	tcase_add_loop_test(tc, domain_per_device, 0, 3);
	tcase_add_loop_test(tc, concurrent_mapping, 0, 3);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(suite());
}
