// SPDX-License-Identifier: MIT
/*
 * check-fidelity-612.c - at the Linux 6.12 API level (DMAEMU_KERNEL=612,
 * machines with kernel=6.12), the bytes the CPU and the device see are
 * those 6.12 gives on the real machine, each case naming the 6.12
 * function it follows; asserted through the public API, compiled like
 * driver code (instrumented).
 *
 * Each test runs on profile=arm, arm64 and x86 unless it says otherwise.
 */
#define DMAEMU_KERNEL 612

#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <dmaemu/device.h>
#include <dmaemu/devices/legacy.h>
#include <dmaemu/devices/nic.h>
#include <dmaemu/machine.h>
#include <dmaemu/report.h>
#include <dmaemu/testing.h>
#include <dmaemu/vma.h>
#include <linux/dma-mapping.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include "check-run.h"

enum { ARM, ARM64, X86, NPROF };

static const char *const profiles[NPROF] = {
	"kernel=6.12:profile=arm:log_path=/dev/null",
	"kernel=6.12:profile=arm64:log_path=/dev/null",
	"kernel=6.12:profile=x86:log_path=/dev/null",
};

static struct dmaemu_machine *m;
static struct dmaemu_device *dd;
static struct device *dev;

static void mk_opts(const char *opts)
{
	m = dmaemu_machine_create(opts);
	ck_assert_ptr_nonnull(m);
	dd = dmaemu_device_create(m, "dev0", NULL, NULL);
	ck_assert_ptr_nonnull(dd);
	dev = dmaemu_device_to_dev(dd);
}

static void mk(int prof)
{
	mk_opts(profiles[prof]);
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
	uint8_t tmp[4096];

	ck_assert_uint_le(n, sizeof(tmp));
	ck_assert_int_eq(dmaemu_dma_read(dd, dma, tmp, n), 0);
	return all(tmp, n, c);
}

/*
 * A free page whose DRAM holds @c (written by the CPU, cleaned by a map):
 * the next order-0 allocation gets it.  Return: its physical address.
 */
static phys_addr_t dram_page(int c)
{
	struct page *pg = alloc_pages(GFP_KERNEL, 0);
	uint8_t *p;
	phys_addr_t phys;
	dma_addr_t dma;

	ck_assert_ptr_nonnull(pg);
	p = page_address(pg);
	memset(p, c, 4096);
	dma = dma_map_single(dev, p, 4096, DMA_TO_DEVICE);
	ck_assert(!dma_mapping_error(dev, dma));
	dma_unmap_single(dev, dma, 4096, DMA_TO_DEVICE);
	phys = virt_to_phys(p);
	__free_pages(pg, 0);
	return phys;
}

/*
 * dma_alloc_noncoherent() (dma_direct_alloc_pages(): memset() through the
 * cache, no arch_dma_prep_coherent()): the CPU sees zeroes, a
 * non-coherent device the page's old DRAM until the driver's
 * dma_sync_single_for_device().  That sync is arch_sync_dma_for_device():
 * arm64 cleans for every direction (the zeroes reach DRAM), arm
 * invalidates a DMA_FROM_DEVICE buffer (v7_dma_inv_range: the zeroes are
 * dropped, DRAM's old bytes stay), x86 does nothing and snoops.  After
 * the device fills half of the buffer and the CPU syncs, the other half
 * is zeroes on arm64 and x86, the page's old bytes on arm.
 */
START_TEST(test_alloc_noncoherent)
{
	const int prof = _i;
	phys_addr_t old;
	dma_addr_t h;
	uint8_t *p;

	mk(prof);
	old = dram_page('A');
	p = dma_alloc_noncoherent(dev, 4096, &h, DMA_FROM_DEVICE, GFP_KERNEL);
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(virt_to_phys(p), old);
	ck_assert(all(p, 4096, 0));
	ck_assert(dev_sees(h, 4096, prof == X86 ? 0 : 'A'));
	dma_sync_single_for_device(dev, h, 4096, DMA_FROM_DEVICE);
	ck_assert(dev_sees(h, 4096, prof == ARM ? 'A' : 0));
	ck_assert_int_eq(dmaemu_dma_write(dd, h,
					  memset((uint8_t[2048]){0}, 'D', 2048),
					  2048),
			 0);
	dma_sync_single_for_cpu(dev, h, 4096, DMA_FROM_DEVICE);
	ck_assert(all(p, 2048, 'D'));
	ck_assert(all(p + 2048, 2048, prof == ARM ? 'A' : 0));
	dma_free_noncoherent(dev, 4096, p, h, DMA_FROM_DEVICE);
	/* The probe of DRAM before the sync is a device read the driver
	 * must not make: the zeroes were never cleaned. */
	ck_assert_uint_eq(dmaemu_report_count(m, "stale-device-read"),
			  prof == X86 ? 0 : 1);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), prof == X86 ? 0 : 1);
	done();
}
END_TEST

/*
 * The bug the 5.10 contract lets a driver write: CPU data handed to the
 * device without dma_sync_single_for_device().  On arm and arm64 the
 * device reads DRAM, not the CPU's dirty lines: a stale-device-read at
 * the device's access.  x86 snoops.
 */
START_TEST(test_noncoherent_missing_sync)
{
	const int prof = _i;
	uint8_t *p, got[64];
	dma_addr_t h;

	mk(prof);
	p = dma_alloc_noncoherent(dev, 4096, &h, DMA_TO_DEVICE, GFP_KERNEL);
	ck_assert_ptr_nonnull(p);
	memset(p, 'T', 64);
	ck_assert_int_eq(dmaemu_dma_read(dd, h, got, 64), 0);
	ck_assert(all(got, 64, prof == X86 ? 'T' : 0));
	ck_assert_uint_eq(dmaemu_report_count(m, "stale-device-read"),
			  prof == X86 ? 0 : 1);
	if (prof != X86) {
		struct dmaemu_report r;

		ck_assert_int_eq(dmaemu_report_get(m, 0, &r), 0);
		ck_assert_ptr_nonnull(
			strstr(r.text, "fix: clean after the CPU's last write: "
				       "dma_sync_single_for_device(dev, "
				       "handle, size, DMA_TO_DEVICE) for a "
				       "dma_alloc_noncoherent() buffer"));
	}
	dma_sync_single_for_device(dev, h, 4096, DMA_TO_DEVICE);
	ck_assert(dev_sees(h, 64, 'T'));
	dma_free_noncoherent(dev, 4096, p, h, DMA_TO_DEVICE);
	done();
}
END_TEST

/* dma_alloc_coherent() always zeroes (dma_direct_alloc()), on a page
 * whose DRAM held other bytes. */
START_TEST(test_alloc_coherent_zeroes)
{
	const int prof = _i;
	phys_addr_t old;
	dma_addr_t h;
	uint8_t *p;

	mk(prof);
	old = dram_page('A');
	p = dma_alloc_coherent(dev, 4096, &h, GFP_KERNEL);
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(h, old);
	ck_assert(all(p, 4096, 0));
	ck_assert(dev_sees(h, 4096, 0));
	dma_free_coherent(dev, 4096, p, h);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 0);
	done();
}
END_TEST

/* dma_mapping_error(): 6.12 returns -ENOMEM for DMA_MAPPING_ERROR. */
START_TEST(test_mapping_error_value)
{
	uint8_t *buf;
	dma_addr_t h;

	mk(_i);
	buf = kmalloc(64, GFP_KERNEL);
	h = dma_map_single(dev, buf, 64, DMA_TO_DEVICE);
	ck_assert_int_eq(dma_mapping_error(dev, h), 0);
	ck_assert_int_eq(dma_mapping_error(dev, DMA_MAPPING_ERROR), -ENOMEM);
	dma_unmap_single(dev, h, 64, DMA_TO_DEVICE);
	kfree(buf);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 0);
	done();
}
END_TEST

/*
 * dma_map_sgtable() maps sgt->orig_nents entries and stores the segment
 * count in sgt->nents; the sgtable syncs and unmap use orig_nents, so a
 * receive into three buffers reads the device's bytes after
 * dma_sync_sgtable_for_cpu().  A NULL table is -EINVAL and reported.
 */
START_TEST(test_map_sgtable)
{
	struct sg_table sgt;
	struct scatterlist *s;
	uint8_t *buf[3];
	unsigned int i;

	mk(_i);
	ck_assert_int_eq(sg_alloc_table(&sgt, 3, GFP_KERNEL), 0);
	for_each_sg (sgt.sgl, s, 3, i) {
		buf[i] = kmalloc(256, GFP_KERNEL);
		ck_assert_ptr_nonnull(buf[i]);
		sg_set_buf(s, buf[i], 256);
	}
	ck_assert_int_eq(dma_map_sgtable(dev, &sgt, DMA_FROM_DEVICE, 0), 0);
	ck_assert_uint_eq(sgt.nents, 3);
	for_each_sg (sgt.sgl, s, sgt.nents, i)
		ck_assert_int_eq(dmaemu_dma_write(dd, sg_dma_address(s),
						  memset((uint8_t[256]){0},
							 'a' + (int)i, 256),
						  256),
				 0);
	dma_sync_sgtable_for_cpu(dev, &sgt, DMA_FROM_DEVICE);
	for (i = 0; i < 3; i++)
		ck_assert(all(buf[i], 256, 'a' + (int)i));
	dma_sync_sgtable_for_device(dev, &sgt, DMA_FROM_DEVICE);
	dma_unmap_sgtable(dev, &sgt, DMA_FROM_DEVICE, 0);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 0);
	ck_assert_int_eq(dma_map_sgtable(dev, NULL, DMA_TO_DEVICE, 0), -EINVAL);
	ck_assert_uint_eq(dmaemu_report_count(m, "bad-argument"), 1);
	for (i = 0; i < 3; i++)
		kfree(buf[i]);
	sg_free_table(&sgt);
	done();
}
END_TEST

/*
 * dma_need_sync() as 6.12 answers with CONFIG_DMA_API_DEBUG:
 * dma_direct_need_sync() on arm and arm64 (non-coherent: true) and on
 * x86 (false, but for a mapping swiotlb bounced); true behind the IOMMU
 * (__dma_need_sync() of non-direct ops).
 */
static const struct {
	const char *opts;
	bool need;
} need_cases[] = {
	{"kernel=6.12:profile=arm:log_path=/dev/null", true},
	{"kernel=6.12:profile=arm64:log_path=/dev/null", true},
	{"kernel=6.12:profile=x86:log_path=/dev/null", false},
	{"kernel=6.12:profile=x86:swiotlb=force:log_path=/dev/null", true},
	{"kernel=6.12:profile=x86:iommu=1:log_path=/dev/null", true},
};

START_TEST(test_need_sync)
{
	uint8_t *buf;
	dma_addr_t h;

	mk_opts(need_cases[_i].opts);
	buf = kmalloc(64, GFP_KERNEL);
	h = dma_map_single(dev, buf, 64, DMA_TO_DEVICE);
	ck_assert(!dma_mapping_error(dev, h));
	ck_assert_int_eq(dma_need_sync(dev, h), need_cases[_i].need);
	dma_unmap_single(dev, h, 64, DMA_TO_DEVICE);
	kfree(buf);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 0);
	done();
}
END_TEST

/*
 * dma_max_mapping_size() and dma_opt_mapping_size():
 * dma_direct_max_mapping_size() is swiotlb_max_mapping_size() (256 KiB)
 * when a mapping may bounce, SIZE_MAX otherwise; behind the IOMMU SIZE_MAX
 * and iommu_dma_opt_mapping_size() (128 KiB).
 */
static const struct {
	const char *opts;
	uint64_t mask;
	size_t max, opt;
} size_cases[] = {
	{"kernel=6.12:log_path=/dev/null", 32, SIZE_MAX, SIZE_MAX},
	{"kernel=6.12:swiotlb=force:log_path=/dev/null", 32, 256 << 10,
	 256 << 10},
	{"kernel=6.12:highmem=64m:log_path=/dev/null", 32, 256 << 10,
	 256 << 10},
	{"kernel=6.12:highmem=64m:log_path=/dev/null", 64, SIZE_MAX, SIZE_MAX},
	{"kernel=6.12:iommu=1:highmem=64m:log_path=/dev/null", 32, SIZE_MAX,
	 128 << 10},
};

START_TEST(test_mapping_sizes)
{
	mk_opts(size_cases[_i].opts);
	ck_assert_int_eq(dma_set_mask_and_coherent(
				 dev, DMA_BIT_MASK(size_cases[_i].mask)),
			 0);
	ck_assert_uint_eq(dma_max_mapping_size(dev), size_cases[_i].max);
	ck_assert_uint_eq(dma_opt_mapping_size(dev), size_cases[_i].opt);
	done();
}
END_TEST

/*
 * dma_alloc_pages() and dma_mmap_pages(): the user view is cacheable
 * (remap_pfn_range() with the vma's protection), the same lines as the
 * kernel's, so each sees the other's stores at once on every profile.
 */
START_TEST(test_alloc_pages_mmap)
{
	struct vm_area_struct vma = {.vm_end = 8192};
	struct page *pg;
	uint8_t *k, *u;
	dma_addr_t h;

	mk(_i);
	pg = dma_alloc_pages(dev, 8192, &h, DMA_BIDIRECTIONAL, GFP_KERNEL);
	ck_assert_ptr_nonnull(pg);
	k = page_address(pg);
	ck_assert(all(k, 8192, 0));
	ck_assert_int_eq(dma_mmap_pages(dev, &vma, 8192, pg), 0);
	u = (uint8_t *)vma.vm_start;
	u[100] = 'U';
	ck_assert_int_eq(k[100], 'U');
	k[5000] = 'K';
	ck_assert_int_eq(u[5000], 'K');
	dmaemu_vma_unmap(&vma);
	vma = (struct vm_area_struct){.vm_end = 3 * 4096};
	ck_assert_int_eq(dma_mmap_pages(dev, &vma, 8192, pg), -ENXIO);
	dma_sync_single_for_device(dev, h, 8192, DMA_BIDIRECTIONAL);
	ck_assert(dev_sees(h + 4096, 4096, 0) || k[5000] == 'K');
	dma_free_pages(dev, 8192, pg, h, DMA_BIDIRECTIONAL);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 0);
	done();
}
END_TEST

/*
 * dma_alloc_noncontiguous() without an IOMMU that provides it:
 * alloc_single_sgt(), one chunk in a one-entry mapped table;
 * dma_vmap_noncontiguous() is its page_address(); the sgtable syncs hand
 * it over as the single syncs do.
 */
START_TEST(test_noncontiguous)
{
	const int prof = _i;
	struct sg_table *sgt;
	uint8_t *v;

	mk(prof);
	sgt = dma_alloc_noncontiguous(dev, 6000, DMA_TO_DEVICE, GFP_KERNEL, 0);
	ck_assert_ptr_nonnull(sgt);
	ck_assert_uint_eq(sgt->nents, 1);
	ck_assert_uint_eq(sg_dma_len(sgt->sgl), 8192);
	v = dma_vmap_noncontiguous(dev, 6000, sgt);
	ck_assert_ptr_nonnull(v);
	memset(v, 'X', 6000);
	ck_assert(
		dev_sees(sg_dma_address(sgt->sgl), 64, prof == X86 ? 'X' : 0));
	dma_sync_sgtable_for_device(dev, sgt, DMA_TO_DEVICE);
	ck_assert(dev_sees(sg_dma_address(sgt->sgl), 4096, 'X'));
	dma_vunmap_noncontiguous(dev, v);
	ck_assert_int_eq(
		dma_alloc_noncontiguous(dev, 4096, DMA_TO_DEVICE, GFP_KERNEL,
					DMA_ATTR_WRITE_COMBINE) == NULL,
		1);
	ck_assert_uint_eq(dmaemu_report_count(m, "bad-argument"), 1);
	ck_assert_uint_eq(dmaemu_report_count(m, "stale-device-read"),
			  prof == X86 ? 0 : 1);
	dma_free_noncontiguous(dev, 6000, sgt, DMA_TO_DEVICE);
	done();
}
END_TEST

/*
 * Frees as 6.12's DMA debugging checks them: a dma_alloc_noncoherent()
 * buffer freed with dma_free_coherent() is unmap-type-mismatch and stays;
 * freed with another direction, unmap-direction-mismatch and freed.  The
 * attributes 6.12 removed are unknown bits, and GFP_DMA32 is refused.
 */
START_TEST(test_misuse)
{
	dma_addr_t h;
	uint8_t *p;

	mk(_i);
	p = dma_alloc_noncoherent(dev, 4096, &h, DMA_FROM_DEVICE, GFP_KERNEL);
	ck_assert_ptr_nonnull(p);
	dma_free_coherent(dev, 4096, p, h);
	ck_assert_uint_eq(dmaemu_report_count(m, "unmap-type-mismatch"), 1);
	dma_free_noncoherent(dev, 4000, p, h, DMA_TO_DEVICE);
	ck_assert_uint_eq(dmaemu_report_count(m, "unmap-direction-mismatch"),
			  1);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 2);
	ck_assert_ptr_null(
		dma_alloc_attrs(dev, 4096, &h, GFP_KERNEL, 1UL << 3));
	ck_assert_uint_eq(
		dma_map_single_attrs(dev, p, 64, DMA_TO_DEVICE, 1UL << 0),
		DMA_MAPPING_ERROR);
	ck_assert_ptr_null(dma_alloc_noncoherent(dev, 4096, &h, DMA_TO_DEVICE,
						 GFP_KERNEL | GFP_DMA32));
	ck_assert_uint_eq(dmaemu_report_count(m, "bad-argument"), 3);
	done();
}
END_TEST

/*
 * arch_sync_dma_for_device() of a DMA_FROM_DEVICE map: 6.12's arm64
 * (arch/arm64/mm/dma-mapping.c) cleans for every direction, so a device
 * that writes half of the buffer leaves the CPU's bytes in the rest; arm
 * (__dma_page_cpu_to_dev(), v7_dma_map_area) still invalidates: DRAM's
 * old bytes; x86 is coherent.
 */
START_TEST(test_map_from_device)
{
	const int prof = _i;
	uint8_t *buf;
	dma_addr_t dma;

	mk(prof);
	buf = kmalloc(256, GFP_KERNEL);
	ck_assert_ptr_nonnull(buf);
	memset(buf, 'A', 256);
	dma = dma_map_single(dev, buf, 256, DMA_TO_DEVICE);
	ck_assert(!dma_mapping_error(dev, dma));
	dma_unmap_single(dev, dma, 256, DMA_TO_DEVICE);
	memset(buf, 'B', 256);
	dma = dma_map_single(dev, buf, 256, DMA_FROM_DEVICE);
	ck_assert(!dma_mapping_error(dev, dma));
	ck_assert(dev_sees(dma, 256, prof == ARM ? 'A' : 'B'));
	ck_assert_int_eq(dmaemu_dma_write(dd, dma,
					  memset((uint8_t[128]){0}, 'D', 128),
					  128),
			 0);
	dma_unmap_single(dev, dma, 256, DMA_FROM_DEVICE);
	ck_assert(all(buf, 128, 'D'));
	ck_assert(all(buf + 128, 128, prof == ARM ? 'A' : 'B'));
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 0);
	kfree(buf);
	done();
}
END_TEST

/*
 * dma_map_resource() with the IOMMU gives an IOVA on every profile at
 * 6.12: dma-iommu's iommu_dma_map_resource() on x86 and arm64, arm's own
 * arm_iommu_map_resource().
 */
START_TEST(test_map_resource_iommu)
{
	static const char *const opts[NPROF] = {
		"kernel=6.12:profile=arm:iommu=1:log_path=/dev/null",
		"kernel=6.12:profile=arm64:iommu=1:log_path=/dev/null",
		"kernel=6.12:profile=x86:iommu=1:log_path=/dev/null",
	};
	dma_addr_t dma;

	mk_opts(opts[_i]);
	dma = dma_map_resource(dev, 0x20000000, 4096, DMA_BIDIRECTIONAL, 0);
	ck_assert(!dma_mapping_error(dev, dma));
	ck_assert_uint_ne(dma, 0x20000000);
	dma_unmap_resource(dev, dma, 4096, DMA_BIDIRECTIONAL, 0);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 0);
	done();
}
END_TEST

/*
 * The classic shared-cache-line receive buffer: a 24-byte buffer inside a
 * struct, next to a counter the CPU bumps while the device owns the
 * buffer.  On 6.12's arm64 kmalloc() aligns to 8 and the map of the small
 * DMA_FROM_DEVICE buffer is bounced through swiotlb
 * (dma_kmalloc_needs_bounce()): the unmap copies the packet back and the
 * counter survives, the bug turned into a hidden copy; the checker still
 * names the store into the shared line, and the trace the bounce.  On arm
 * (no CONFIG_DMA_BOUNCE_UNALIGNED_KMALLOC) the unmap's write-back of the
 * shared line loses the device's bytes, as at 4.14.  x86 is coherent.
 */
struct rxq {
	u32 posted;
	u8 buf[24];
};

START_TEST(test_kmalloc_bounce)
{
	static const char *const profs[NPROF] = {"arm", "arm64", "x86"};
	static const u8 packet[24] = "packet from the wire!!!";
	const int prof = _i;
	char path[] = "/tmp/dmaemu-fidelity-612-XXXXXX", o[128], line[512];
	bool bounced = false;
	struct rxq *q;
	u8 *a, *b;
	dma_addr_t h;
	FILE *f;
	int fd;

	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	close(fd);
	snprintf(o, sizeof(o),
		 "kernel=6.12:profile=%s:trace=%s:trace_events=dma:"
		 "log_path=/dev/null",
		 profs[prof], path);
	mk_opts(o);
	q = kzalloc(sizeof(*q), GFP_KERNEL);
	ck_assert_ptr_nonnull(q);
	/* 6.12's arm64 kmalloc() aligns to ARCH_KMALLOC_MINALIGN, 8: two
	 * 8-byte objects are neighbours; elsewhere to ARCH_DMA_MINALIGN. */
	a = kmalloc(8, GFP_KERNEL);
	b = kmalloc(8, GFP_KERNEL);
	ck_assert(a && b);
	ck_assert_uint_eq(virt_to_phys(b) - virt_to_phys(a), prof == ARM64 ? 8
							     : prof == ARM ? 64
									   : 8);
	kfree(b);
	kfree(a);
	h = dma_map_single(dev, q->buf, sizeof(q->buf), DMA_FROM_DEVICE);
	ck_assert(!dma_mapping_error(dev, h));
	q->posted = 1;
	ck_assert_int_eq(dmaemu_dma_write(dd, h, packet, sizeof(packet)), 0);
	dma_unmap_single(dev, h, sizeof(q->buf), DMA_FROM_DEVICE);
	ck_assert_uint_eq(q->posted, 1);
	ck_assert_int_eq(!memcmp(q->buf, packet, sizeof(packet)), prof != ARM);
	ck_assert_uint_eq(dmaemu_report_count(m, "shared-line-store"), 1);
	ck_assert_uint_eq(dmaemu_report_count(m, "lost-device-write"),
			  prof == ARM ? 1 : 0);
	kfree(q);
	done();
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "dma_map_single") &&
		    strstr(line, "backend=swiotlb "
				 "bounce=dma_kmalloc_needs_bounce"))
			bounced = true;
	fclose(f);
	unlink(path);
	ck_assert_int_eq(bounced, prof == ARM64);
}
END_TEST

/*
 * dma_kmalloc_needs_bounce() decides by size and direction: on arm64 a
 * DMA_TO_DEVICE map, a 128-byte one (a kmalloc-128 object is aligned) and
 * one of 256 bytes or more (2 * ARCH_DMA_MINALIGN) are not bounced; a
 * 96-byte DMA_BIDIRECTIONAL one is.
 */
START_TEST(test_kmalloc_bounce_sizes)
{
	static const struct {
		size_t size;
		enum dma_data_direction dir;
		bool bounce;
	} c[] = {
		{24, DMA_TO_DEVICE, false},    {24, DMA_FROM_DEVICE, true},
		{96, DMA_BIDIRECTIONAL, true}, {128, DMA_FROM_DEVICE, false},
		{192, DMA_FROM_DEVICE, true},  {256, DMA_FROM_DEVICE, false},
	};
	unsigned int i;

	mk(ARM64);
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		u8 *buf = kmalloc(c[i].size, GFP_KERNEL);
		dma_addr_t h;

		ck_assert_ptr_nonnull(buf);
		h = dma_map_single(dev, buf, c[i].size, c[i].dir);
		ck_assert(!dma_mapping_error(dev, h));
		ck_assert_msg((h != virt_to_phys(buf)) == c[i].bounce,
			      "size %zu dir %d", c[i].size, (int)c[i].dir);
		ck_assert_int_eq(dma_need_sync(dev, h), 1);
		dma_unmap_single(dev, h, c[i].size, c[i].dir);
		kfree(buf);
	}
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 0);
	done();
}
END_TEST

/*
 * 6.12's swiotlb_tbl_map_single() copies the buffer into the bounce slot
 * for every direction: a device that writes part of a bounced
 * DMA_FROM_DEVICE buffer leaves the rest as the CPU had it (4.14 copied
 * only for TO_DEVICE and BIDIRECTIONAL).
 */
START_TEST(test_swiotlb_map_copies)
{
	uint8_t *buf;
	dma_addr_t h;

	mk_opts(_i == 0 ? "kernel=6.12:profile=arm64:swiotlb=force:"
			  "log_path=/dev/null"
			: "kernel=6.12:profile=x86:swiotlb=force:"
			  "log_path=/dev/null");
	buf = kmalloc(256, GFP_KERNEL);
	ck_assert_ptr_nonnull(buf);
	memset(buf, 'B', 256);
	h = dma_map_single(dev, buf, 256, DMA_FROM_DEVICE);
	ck_assert(!dma_mapping_error(dev, h));
	ck_assert_uint_ne(h, virt_to_phys(buf));
	ck_assert_int_eq(dmaemu_dma_write(dd, h,
					  memset((uint8_t[128]){0}, 'D', 128),
					  128),
			 0);
	dma_unmap_single(dev, h, 256, DMA_FROM_DEVICE);
	ck_assert(all(buf, 128, 'D'));
	ck_assert(all(buf + 128, 128, 'B'));
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 0);
	kfree(buf);
	done();
}
END_TEST

/*
 * Overlapping mappings, as 6.12's add_dma_entry() sees them: two
 * DMA_FROM_DEVICE buffers sharing a cache line are reported at the
 * second map ("cacheline tracking EEXIST, overlapping mappings aren't
 * supported"); on arm64 two small kmalloc() objects in one line are not,
 * both maps being bounced (dma_kmalloc_needs_bounce()), nor a large
 * buffer in the line of a bounced small one; on arm kmalloc() parts two
 * objects (64-byte alignment), and nothing is bounced.
 */
START_TEST(test_overlapping_mappings)
{
	const int prof = _i;
	dma_addr_t h1, h2;
	u8 *base, *a, *b;

	mk(prof);
	base = kmalloc(1024, GFP_KERNEL);
	ck_assert_ptr_nonnull(base);
	h1 = dma_map_single(dev, base, 240, DMA_FROM_DEVICE);
	ck_assert_uint_eq(dmaemu_report_count(m, "overlapping-mappings"), 0);
	h2 = dma_map_single(dev, base + 240, 256, DMA_FROM_DEVICE);
	ck_assert_uint_eq(dmaemu_report_count(m, "overlapping-mappings"), 1);
	dma_unmap_single(dev, h2, 256, DMA_FROM_DEVICE);
	dma_unmap_single(dev, h1, 240, DMA_FROM_DEVICE);
	kfree(base);

	a = kmalloc(24, GFP_KERNEL);
	b = kmalloc(24, GFP_KERNEL);
	ck_assert(a && b);
	h1 = dma_map_single(dev, a, 24, DMA_FROM_DEVICE);
	h2 = dma_map_single(dev, b, 24, DMA_FROM_DEVICE);
	ck_assert_uint_eq(dmaemu_report_count(m, "overlapping-mappings"),
			  prof == X86 ? 2 : 1);
	dma_unmap_single(dev, h2, 24, DMA_FROM_DEVICE);
	dma_unmap_single(dev, h1, 24, DMA_FROM_DEVICE);
	kfree(b);
	kfree(a);

	/* A bounced small buffer, then a large one in its line. */
	base = kmalloc(1024, GFP_KERNEL);
	ck_assert_ptr_nonnull(base);
	h1 = dma_map_single(dev, base, 24, DMA_FROM_DEVICE);
	h2 = dma_map_single(dev, base + 24, 256, DMA_FROM_DEVICE);
	ck_assert_uint_eq(dmaemu_report_count(m, "overlapping-mappings"),
			  prof == X86	? 3
			  : prof == ARM ? 2
					: 1);
	dma_unmap_single(dev, h2, 256, DMA_FROM_DEVICE);
	dma_unmap_single(dev, h1, 24, DMA_FROM_DEVICE);
	kfree(base);

	/* The same the other way round: the small map comes second. */
	base = kmalloc(1024, GFP_KERNEL);
	ck_assert_ptr_nonnull(base);
	h2 = dma_map_single(dev, base + 24, 256, DMA_FROM_DEVICE);
	h1 = dma_map_single(dev, base, 24, DMA_FROM_DEVICE);
	ck_assert_uint_eq(dmaemu_report_count(m, "overlapping-mappings"),
			  prof == X86	? 4
			  : prof == ARM ? 3
					: 1);
	dma_unmap_single(dev, h1, 24, DMA_FROM_DEVICE);
	dma_unmap_single(dev, h2, 256, DMA_FROM_DEVICE);
	kfree(base);
	done();
}
END_TEST

/*
 * The sg-segment-limits reports of @m after @seq: how many, and whether
 * each names @line of this file (the driver's map) and says @what.
 */
static int sg_limit_reports(uint64_t *seq, int line, const char *what)
{
	struct dmaemu_report r;
	char at[64];
	int n = 0;

	snprintf(at, sizeof(at), "check-fidelity-612.c:%d ", line);
	while (!dmaemu_report_next(m, *seq, &r)) {
		*seq = r.seq;
		if (strcmp(r.kind_name, "sg-segment-limits"))
			continue;
		ck_assert_msg(strstr(r.text, at) && strstr(r.text, what),
			      "not at %s or without '%s': %s", at, what,
			      r.text);
		n++;
	}
	return n;
}

/*
 * 6.12's check_sg_segment() (kernel/dma/debug.c, CONFIG_DMA_API_DEBUG_SG):
 * a mapped entry longer than dma_get_max_seg_size() (64 KiB unless the
 * driver set it), or whose bus range crosses dma_get_seg_boundary(), is
 * reported at the driver's dma_map_sg(), once a rule an entry, and the
 * list is mapped all the same.  Within the limits the device declares,
 * nothing.  4.14 has no such check (check-dma-sg's long entry).
 */
START_TEST(test_sg_segment_limits)
{
	struct scatterlist sg[2];
	uint64_t seq = 0, phys;
	struct page *pg;
	size_t off;
	u8 *va;
	int n, line;

	mk(_i);
	pg = alloc_pages(GFP_KERNEL, 5); /* 128 KiB */
	ck_assert_ptr_nonnull(pg);
	va = page_address(pg);
	/* An entry of 96 KiB: past the default 64 KiB. */
	sg_init_table(sg, 2);
	sg_set_buf(&sg[0], va, 4096);
	sg_set_buf(&sg[1], va + 4096, 96 << 10);
	line = __LINE__ + 1;
	n = dma_map_sg(dev, sg, 2, DMA_TO_DEVICE);
	ck_assert_int_eq(n, 2);
	ck_assert_int_eq(
		sg_limit_reports(&seq, line,
				 "entry 1 is 98304 bytes, "
				 "longer than the device claims to "
				 "support (dma_get_max_seg_size() 65536)"),
		1);
	dma_unmap_sg(dev, sg, 2, DMA_TO_DEVICE);
	/* The device says it takes 128 KiB: clean. */
	ck_assert_int_eq(dma_set_max_seg_size(dev, 128 << 10), 0);
	ck_assert_int_eq(dma_map_sg(dev, sg, 2, DMA_TO_DEVICE), 2);
	ck_assert_int_eq(sg_limit_reports(&seq, 0, ""), 0);
	dma_unmap_sg(dev, sg, 2, DMA_TO_DEVICE);
	/* 64 KiB windows: an 8 KiB entry across one. */
	ck_assert_int_eq(dma_set_seg_boundary(dev, 0xffff), 0);
	phys = virt_to_phys(va);
	off = (size_t)(0x10000 - (phys & 0xffff)) - 4096;
	sg_init_table(sg, 1);
	sg_set_buf(&sg[0], va + off, 8192);
	line = __LINE__ + 1;
	ck_assert_int_eq(dma_map_sg(dev, sg, 1, DMA_FROM_DEVICE), 1);
	ck_assert_int_eq(sg_limit_reports(&seq, line,
					  "crosses the device's "
					  "segment boundary "
					  "(dma_get_seg_boundary() 0xffff)"),
			 1);
	dma_unmap_sg(dev, sg, 1, DMA_FROM_DEVICE);
	/* Within a window: clean. */
	sg_set_buf(&sg[0], va + off + 4096, 8192);
	ck_assert_int_eq(dma_map_sg(dev, sg, 1, DMA_FROM_DEVICE), 1);
	ck_assert_int_eq(sg_limit_reports(&seq, 0, ""), 0);
	dma_unmap_sg(dev, sg, 1, DMA_FROM_DEVICE);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 2);
	__free_pages(pg, 5);
	done();
}
END_TEST

/*
 * Behind swiotlb, 6.12's map copies the buffer into the bounce slot
 * through the CPU's cache whatever DMA_ATTR_SKIP_CPU_SYNC, and the
 * attribute skips the clean that would write the copy to memory: a
 * device read of the slot gets what memory held before, a
 * stale-device-read whose fix is the streaming map's own (a
 * dma_sync_single_for_device() after the CPU's last write, or no
 * attribute), made at the driver's map.  The twin syncs for the device.
 * x86 snoops: the device reads the CPU's copy, nothing to report.
 */
START_TEST(test_skip_sync_slot_fix)
{
	const bool bug = _i & 1, x86 = _i >> 1;
	struct dmaemu_report r;
	uint8_t *buf, got[256];
	char fix[200], made[64];
	dma_addr_t h;
	int line;

	mk_opts(x86 ? "kernel=6.12:profile=x86:swiotlb=force:"
		      "log_path=/dev/null"
		    : "kernel=6.12:profile=arm64:swiotlb=force:"
		      "log_path=/dev/null");
	buf = kmalloc(256, GFP_KERNEL);
	ck_assert_ptr_nonnull(buf);
	memset(buf, 'C', 256);
	line = __LINE__ + 1;
	h = dma_map_single_attrs(dev, buf, 256, DMA_TO_DEVICE,
				 DMA_ATTR_SKIP_CPU_SYNC);
	ck_assert(!dma_mapping_error(dev, h));
	ck_assert_uint_ne(h, virt_to_phys(buf));
	if (!bug)
		dma_sync_single_for_device(dev, h, 256, DMA_TO_DEVICE);
	ck_assert_int_eq(dmaemu_dma_read(dd, h, got, sizeof(got)), 0);
	ck_assert_int_eq(all(got, 256, 'C'), !bug || x86);
	if (!bug || x86) {
		ck_assert_uint_eq(dmaemu_report_count(m, NULL), 0);
	} else {
		ck_assert_uint_eq(dmaemu_report_count(m, NULL), 1);
		ck_assert_int_eq(dmaemu_report_next(m, 0, &r), 0);
		ck_assert_str_eq(r.kind_name, "stale-device-read");
		snprintf(fix, sizeof(fix),
			 "fix: dma_sync_single_for_device(dev, 0x%llx, 256, "
			 "DMA_TO_DEVICE) after the CPU's last write, or map "
			 "without DMA_ATTR_SKIP_CPU_SYNC",
			 (unsigned long long)h);
		ck_assert_msg(strstr(r.text, fix), "no '%s': %s", fix, r.text);
		ck_assert_msg(strstr(r.text, "a swiotlb bounce slot of a "
					     "streaming mapping made with "
					     "DMA_ATTR_SKIP_CPU_SYNC"),
			      "%s", r.text);
		ck_assert_ptr_null(strstr(r.text, "dma_alloc_noncoherent"));
		snprintf(made, sizeof(made), "check-fidelity-612.c:%d", line);
		ck_assert_msg(strstr(r.made_at, made), "made at %s, not %s",
			      r.made_at, made);
	}
	dma_unmap_single(dev, h, 256, DMA_TO_DEVICE);
	kfree(buf);
	done();
}
END_TEST

#include "handover-cases.h"

/*
 * The receive drivers of handover-cases.h at 6.12, where arm64's map and
 * sync_for_device clean a DMA_FROM_DEVICE buffer (arch_sync_dma_for_
 * device(), since 5.19) and arm's still invalidate: what the driver did
 * is reported whatever that maintenance did with it.  rx-recycle's store
 * is a lost-cpu-write on every profile: written back on arm64 (the text
 * says so), lost on arm, kept on x86.  rx-stale's read is a
 * cpu-access-device-owned everywhere, and on arm64, whose map kept the
 * kzalloc()'d line in the cache, a stale-cpu-read too.  The twins: no
 * report.
 */
START_TEST(test_handover_reports)
{
	const int prof = _i;
	unsigned int n, k;
	uint64_t seq = 0, at;
	int line;

	mk(prof);
	ck_assert(hc_recycle(false, &line));
	ck_assert(hc_rx_read(false, &line));
	ck_assert_uint_eq(hc_reports(&seq, "", 0, "", &k), 0);

	ck_assert(hc_recycle(true, &line) == (prof != ARM));
	n = hc_reports(&seq, "lost-cpu-write", line,
		       prof == ARM64
			       ? "gives the device 4 bytes (1 line) the CPU "
				 "stored while it owned the buffer (dev0's "
				 "DMA_FROM_DEVICE streaming mapping: dma "
			       : "invalidates 4 bytes (1 line) the CPU stored",
		       &k);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(k, 1);
	if (prof == ARM64) {
		struct dmaemu_report r;

		ck_assert_int_eq(dmaemu_report_next(m, seq - 1, &r), 0);
		ck_assert_ptr_nonnull(
			strstr(r.text, "written back to memory here (arm64 "
				       "cleans since Linux 5.19), lost on arm "
				       "and on arm64 before 5.19"));
	}

	at = seq;
	ck_assert(hc_rx_read(true, &line) == (prof != ARM64));
	n = hc_reports(&seq, "cpu-access-device-owned", line,
		       prof == ARM64 ? "this read got stale data"
				     : "fix: dma_sync_single_for_cpu(",
		       &k);
	ck_assert_uint_eq(n, prof == ARM64 ? 2 : 1);
	ck_assert_uint_eq(k, 1);
	hc_reports(&at, "stale-cpu-read", line, "", &k);
	ck_assert_uint_eq(k, prof == ARM64 ? 1 : 0);
	done();
}
END_TEST

/*
 * The device models of libdmaemu-devices serve a 6.12 program too: this
 * one links them, so its machines are created (legacy.c, built with the
 * kernel headers, carries no 4.14 level marker), and the legacy device
 * narrows its masks to 32 bits as at 4.14.
 */
START_TEST(test_device_models)
{
	struct dmaemu_device *lg, *nic;

	mk(_i);
	lg = dmaemu_legacy_create(m, "lg0");
	ck_assert_ptr_nonnull(lg);
	ck_assert_uint_eq(dma_get_mask(dmaemu_device_to_dev(lg)),
			  DMA_BIT_MASK(32));
	nic = dmaemu_nic_create(m, "eth0");
	ck_assert_ptr_nonnull(nic);
	dmaemu_device_destroy(nic);
	dmaemu_device_destroy(lg);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 0);
	done();
}
END_TEST

static Suite *fidelity612_suite(void)
{
	Suite *s = suite_create("fidelity-612");
	TCase *tc = tcase_create("fidelity-612");

	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_alloc_noncoherent, 0, NPROF);
	tcase_add_loop_test(tc, test_noncoherent_missing_sync, 0, NPROF);
	tcase_add_loop_test(tc, test_alloc_coherent_zeroes, 0, NPROF);
	tcase_add_loop_test(tc, test_mapping_error_value, 0, NPROF);
	tcase_add_loop_test(tc, test_map_sgtable, 0, NPROF);
	tcase_add_loop_test(tc, test_need_sync, 0,
			    (int)(sizeof(need_cases) / sizeof(need_cases[0])));
	tcase_add_loop_test(tc, test_mapping_sizes, 0,
			    (int)(sizeof(size_cases) / sizeof(size_cases[0])));
	tcase_add_loop_test(tc, test_alloc_pages_mmap, 0, NPROF);
	tcase_add_loop_test(tc, test_noncontiguous, 0, NPROF);
	tcase_add_loop_test(tc, test_misuse, 0, NPROF);
	tcase_add_loop_test(tc, test_map_from_device, 0, NPROF);
	tcase_add_loop_test(tc, test_map_resource_iommu, 0, NPROF);
	tcase_add_loop_test(tc, test_kmalloc_bounce, 0, NPROF);
	tcase_add_test(tc, test_kmalloc_bounce_sizes);
	tcase_add_loop_test(tc, test_swiotlb_map_copies, 0, 2);
	tcase_add_loop_test(tc, test_overlapping_mappings, 0, NPROF);
	tcase_add_loop_test(tc, test_sg_segment_limits, 0, NPROF);
	tcase_add_loop_test(tc, test_handover_reports, 0, NPROF);
	tcase_add_loop_test(tc, test_skip_sync_slot_fix, 0, 4);
	tcase_add_loop_test(tc, test_device_models, 0, NPROF);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(fidelity612_suite());
}
