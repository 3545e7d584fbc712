// SPDX-License-Identifier: MIT
/*
 * check-testing.c - <dmaemu/testing.h>, the introspection API: every call
 * on every profile where its answer differs, bad arguments (a report and
 * an error each), and values that only a working API gives (the bytes the
 * CPU stored are exactly the CPU-dirty ones, the bytes a device wrote are
 * exactly the device-changed ones, a mapped line belongs to the device).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/dma-mapping.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>

#include <dmaemu/cpu.h>
#include <dmaemu/device.h>
#include <dmaemu/machine.h>
#include <dmaemu/report.h>
#include <dmaemu/testing.h>

#include "check-run.h"
#include "fixture.h"

static const char *const profiles[] = {"arm", "arm64", "x86"};
static const int profile_ids[] = {DMAEMU_PROFILE_ARM, DMAEMU_PROFILE_ARM64,
				  DMAEMU_PROFILE_X86};

static struct dmaemu_machine *m;
static struct dmaemu_device *dd;
static struct device *dev;
static uint64_t expected; /* reports the test made on purpose */

static void make(const char *profile, const char *extra)
{
	m = fixture_machine("profile=%s:mem=16M%s%s", profile, extra ? ":" : "",
			    extra ? extra : "");
	dd = dmaemu_device_create(m, "dev0", NULL, NULL);
	ck_assert_ptr_nonnull(dd);
	dev = dmaemu_device_to_dev(dd);
	expected = 0;
}

static void teardown(void)
{
	fixture_finish(&m, &dd, expected);
	expected = 0;
}

/* One more bad-argument report than @before, and it was expected. */
static void one_bad_argument(uint64_t before)
{
	ck_assert_uint_eq(dmaemu_report_count(m, "bad-argument"), before + 1);
	expected++;
}

static uint64_t bad_args(void)
{
	return dmaemu_report_count(m, "bad-argument");
}

/* A line-aligned kmalloc buffer of @len bytes, clean in the CPU's cache
 * and DRAM, holding 0 (a fresh start for the masks). */
static uint8_t *clean_buffer(size_t len)
{
	uint8_t *buf = kmalloc(len, GFP_KERNEL);
	uint64_t phys;

	ck_assert_ptr_nonnull(buf);
	phys = virt_to_phys(buf);
	ck_assert_uint_eq(phys % 64, 0);
	ck_assert_int_eq(dmaemu_cache_invalidate(m, phys, len), 0);
	fixture_cpu_fill(buf, 0, len);
	ck_assert_int_eq(dmaemu_cache_clean(m, phys, len), 0);
	return buf;
}

/* Bytes [lo, hi) and no others are set in @mask. */
static void assert_mask(const uint64_t *mask, unsigned int lo, unsigned int hi)
{
	unsigned int i;

	ck_assert_uint_eq(dmaemu_line_mask_weight(mask), hi - lo);
	for (i = 0; i < DMAEMU_LINE_MAX; i++)
		ck_assert_int_eq(dmaemu_line_mask_test(mask, i),
				 i >= lo && i < hi);
}

/* ---------------------------------------------------------------------- */
/* The machine                                                            */
/* ---------------------------------------------------------------------- */

START_TEST(test_machine_info)
{
	struct dmaemu_machine_info info;
	struct dmaemu_cache_level_info l1;
	uint64_t before;

	make(profiles[_i], NULL);
	ck_assert_int_eq(dmaemu_machine_info(m, &info), 0);
	ck_assert_int_eq(info.profile, profile_ids[_i]);
	ck_assert_uint_eq(info.line_size, 64);
	/* ARCH_DMA_MINALIGN of Linux 4.14: the line, 128, none. */
	ck_assert_uint_eq(info.dma_minalign, _i == 0 ? 64 : _i == 1 ? 128 : 1);
	ck_assert_uint_eq(info.cache_levels, 1);
	ck_assert_uint_eq(info.nbanks, 1);
	ck_assert_uint_eq(info.bank[0].phys, 0x80000000ULL);
	ck_assert_uint_eq(info.bank[0].size, 16ULL << 20);
	ck_assert_uint_eq(info.dma_offset, 0);
	ck_assert(!info.iommu && !info.swiotlb_force && !info.prefetch);

	ck_assert_int_eq(dmaemu_cache_level_info(m, 0, &l1), 0);
	ck_assert_uint_eq(l1.size, 32 << 10);
	ck_assert_uint_eq(l1.ways, _i == 2 ? 8 : 4); /* x86 defaults to 8 */
	ck_assert_uint_eq(l1.line_size, 64);
	ck_assert_uint_eq((uint64_t)l1.sets * l1.ways * l1.line_size, l1.size);

	before = bad_args();
	ck_assert_int_eq(dmaemu_cache_level_info(m, 1, &l1), -EINVAL);
	one_bad_argument(before);
	ck_assert_uint_eq(l1.ways, 0);
	before = bad_args();
	ck_assert_int_eq(dmaemu_machine_info(NULL, &info), -EINVAL);
	one_bad_argument(before);
	before = bad_args();
	ck_assert_int_eq(dmaemu_machine_info(m, NULL), -EINVAL);
	one_bad_argument(before);
	before = bad_args();
	ck_assert_int_eq(dmaemu_cache_level_info(NULL, 0, &l1), -EINVAL);
	one_bad_argument(before);
	teardown();

	/* Every option the structure shows. */
	m = fixture_machine("profile=%s:mem=8M:highmem=4M:cache_line=32:"
			    "cache_size=8K:cache_ways=2:dma_minalign=128:"
			    "iommu=1:swiotlb=force:prefetch=1",
			    profiles[_i]);
	ck_assert_int_eq(dmaemu_machine_info(m, &info), 0);
	ck_assert_uint_eq(info.line_size, 32);
	ck_assert_uint_eq(info.dma_minalign, 128);
	ck_assert_uint_eq(info.nbanks, 2);
	ck_assert_uint_eq(info.bank[0].size, 8ULL << 20);
	ck_assert_uint_eq(info.bank[1].phys, 0x100000000ULL);
	ck_assert_uint_eq(info.bank[1].size, 4ULL << 20);
	ck_assert(info.iommu && info.swiotlb_force && info.prefetch);
	ck_assert_int_eq(dmaemu_cache_level_info(m, 0, &l1), 0);
	ck_assert_uint_eq(l1.size, 8 << 10);
	ck_assert_uint_eq(l1.ways, 2);
	ck_assert_uint_eq(l1.sets, 128);
	ck_assert_uint_eq(l1.line_size, 32);
	teardown();

	m = fixture_machine("profile=%s:dma_offset=0x10000000", profiles[_i]);
	ck_assert_int_eq(dmaemu_machine_info(m, &info), 0);
	ck_assert_uint_eq(info.dma_offset, 0x10000000);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Line state                                                             */
/* ---------------------------------------------------------------------- */

/* A CPU store makes exactly its bytes CPU-dirty; a clean undoes it. */
START_TEST(test_line_cpu_store)
{
	struct dmaemu_line_state st;
	uint8_t *buf;
	uint64_t phys;

	make(profiles[_i], NULL);
	buf = clean_buffer(128);
	phys = virt_to_phys(buf);
	ck_assert_int_eq(dmaemu_line_state(m, phys + 64 + 5, &st), 0);
	ck_assert_uint_eq(st.phys, phys + 64);
	ck_assert_uint_eq(st.line_size, 64);
	ck_assert(st.resident);
	ck_assert_uint_eq(st.resident_levels, 1);
	ck_assert_uint_eq(st.dirty_levels, 0);
	assert_mask(st.cpu_dirty, 0, 0);
	assert_mask(st.dev_changed, 0, 0);
	ck_assert_int_eq(st.owner, DMAEMU_OWNER_CPU);

	fixture_cpu_fill(buf + 64 + 3, 0x5a, 8);
	ck_assert_int_eq(dmaemu_line_state(m, phys + 64, &st), 0);
	ck_assert(st.resident);
	ck_assert_uint_eq(st.dirty_levels, 1);
	assert_mask(st.cpu_dirty, 3, 11);
	assert_mask(st.dev_changed, 0, 0);
	ck_assert(fixture_cpu_dirty(m, phys + 64));
	/* The line before is untouched. */
	ck_assert_int_eq(dmaemu_line_state(m, phys, &st), 0);
	assert_mask(st.cpu_dirty, 0, 0);
	ck_assert(!fixture_cpu_dirty(m, phys));

	ck_assert_int_eq(dmaemu_cache_clean(m, phys + 64, 1), 0);
	ck_assert_int_eq(dmaemu_line_state(m, phys + 64, &st), 0);
	ck_assert(st.resident);
	ck_assert_uint_eq(st.dirty_levels, 0);
	assert_mask(st.cpu_dirty, 0, 0);
	ck_assert_int_eq(dmaemu_cache_invalidate(m, phys, 128), 0);
	ck_assert_int_eq(dmaemu_line_state(m, phys + 64, &st), 0);
	ck_assert(!st.resident);
	ck_assert_uint_eq(st.resident_levels, 0);
	kfree(buf);
	teardown();
}
END_TEST

/*
 * Map moves ownership to the device, a device write changes DRAM only on
 * the non-coherent profiles (device-changed bytes), unmap gives the line
 * back.
 */
START_TEST(test_line_device_write)
{
	struct dmaemu_line_state st;
	uint8_t *buf;
	uint64_t phys;
	dma_addr_t dma;
	bool x86 = _i == 2;

	make(profiles[_i], NULL);
	buf = clean_buffer(128);
	phys = virt_to_phys(buf);
	dma = dma_map_single(dev, buf, 128, DMA_BIDIRECTIONAL);
	ck_assert(!dma_mapping_error(dev, dma));
	ck_assert_int_eq(dmaemu_line_state(m, phys, &st), 0);
	ck_assert_int_eq(st.owner, DMAEMU_OWNER_DEVICE);
	ck_assert_int_eq(dmaemu_line_state(m, phys + 127, &st), 0);
	ck_assert_int_eq(st.owner, DMAEMU_OWNER_DEVICE);
	ck_assert(st.resident); /* BIDIRECTIONAL map cleans, keeps lines */

	fixture_dev_fill(dd, dma + 64 + 16, 0xa5, 16);
	ck_assert_int_eq(dmaemu_line_state(m, phys + 64, &st), 0);
	if (x86) {
		/* The device snoops: the CPU's copy is invalidated. */
		assert_mask(st.dev_changed, 0, 0);
		ck_assert(!st.resident);
	} else {
		assert_mask(st.dev_changed, 16, 32);
		ck_assert(st.resident);
	}
	assert_mask(st.cpu_dirty, 0, 0);
	ck_assert_int_eq(dmaemu_line_state(m, phys, &st), 0);
	assert_mask(st.dev_changed, 0, 0);

	dma_unmap_single(dev, dma, 128, DMA_BIDIRECTIONAL);
	ck_assert_int_eq(dmaemu_line_state(m, phys + 64, &st), 0);
	ck_assert_int_eq(st.owner, DMAEMU_OWNER_CPU);
	assert_mask(st.dev_changed, 0, 0);
	ck_assert(!st.resident);
	ck_assert(fixture_cpu_sees(buf + 64 + 16, 0xa5, 16));
	kfree(buf);
	teardown();
}
END_TEST

/* DRAM written behind the CPU's back: device-changed bytes on every
 * profile, until an invalidate. */
START_TEST(test_line_dram_write)
{
	struct dmaemu_line_state st;
	uint8_t data[4] = {1, 2, 3, 4}, back[4];
	uint8_t *buf;
	uint64_t phys;

	make(profiles[_i], NULL);
	buf = clean_buffer(64);
	phys = virt_to_phys(buf);
	ck_assert_int_eq(dmaemu_dram_write(m, phys + 60, data, 4), 0);
	ck_assert_int_eq(dmaemu_line_state(m, phys, &st), 0);
	assert_mask(st.dev_changed, 60, 64);
	assert_mask(st.cpu_dirty, 0, 0);
	ck_assert_int_eq(dmaemu_dram_read(m, phys + 60, back, 4), 0);
	ck_assert_mem_eq(back, data, 4);
	ck_assert_int_eq(dmaemu_cache_clean_invalidate(m, phys, 64), 0);
	ck_assert_int_eq(dmaemu_line_state(m, phys, &st), 0);
	assert_mask(st.dev_changed, 0, 0);
	ck_assert(!st.resident);
	memset(back, 0, sizeof(back));
	ck_assert_int_eq(dmaemu_cpu_read(back, buf + 60, 4), 0);
	ck_assert_mem_eq(back, data, 4);
	kfree(buf);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 0);
	teardown();
}
END_TEST

START_TEST(test_line_bad_arguments)
{
	struct dmaemu_line_state st;
	struct dmaemu_machine_info info;
	uint8_t b[8] = {0};
	uint64_t before, end;

	make(profiles[_i], NULL);
	ck_assert_int_eq(dmaemu_machine_info(m, &info), 0);
	end = info.bank[0].phys + info.bank[0].size;

	before = bad_args();
	ck_assert_int_eq(dmaemu_line_state(NULL, 0x80000000, &st), -EINVAL);
	one_bad_argument(before);
	before = bad_args();
	ck_assert_int_eq(dmaemu_line_state(m, 0x80000000, NULL), -EINVAL);
	one_bad_argument(before);
	before = bad_args();
	memset(&st, 0xff, sizeof(st));
	ck_assert_int_eq(dmaemu_line_state(m, 0x1000, &st), -EFAULT);
	one_bad_argument(before);
	ck_assert_uint_eq(st.line_size, 0); /* zeroed on error */
	before = bad_args();
	ck_assert_int_eq(dmaemu_line_state(m, end, &st), -EFAULT);
	one_bad_argument(before);
	ck_assert_int_eq(dmaemu_line_state(m, end - 1, &st), 0);

	before = bad_args();
	ck_assert_int_eq(dmaemu_cache_clean(NULL, 0x80000000, 64), -EINVAL);
	one_bad_argument(before);
	before = bad_args();
	ck_assert_int_eq(dmaemu_cache_invalidate(m, end - 32, 64), -EFAULT);
	one_bad_argument(before);
	before = bad_args();
	ck_assert_int_eq(dmaemu_cache_clean_invalidate(m, ~0ULL - 8, 64),
			 -EFAULT);
	one_bad_argument(before);
	ck_assert_int_eq(dmaemu_cache_clean(m, 0x1000, 0), 0);

	before = bad_args();
	ck_assert_int_eq(dmaemu_dram_write(m, end - 4, b, 8), -EFAULT);
	one_bad_argument(before);
	before = bad_args();
	ck_assert_int_eq(dmaemu_dram_read(m, 0x80000000, NULL, 8), -EINVAL);
	one_bad_argument(before);
	before = bad_args();
	ck_assert_int_eq(dmaemu_dram_read(NULL, 0x80000000, b, 8), -EINVAL);
	one_bad_argument(before);
	ck_assert_int_eq(dmaemu_dram_write(m, 0, NULL, 0), 0);

	before = bad_args();
	ck_assert_int_eq(dmaemu_wc_pending(NULL, 0x80000000, 8), -EINVAL);
	one_bad_argument(before);

	ck_assert(!dmaemu_line_mask_test(NULL, 0));
	ck_assert_uint_eq(dmaemu_line_mask_weight(NULL), 0);
	teardown();
}
END_TEST

START_TEST(test_line_masks)
{
	uint64_t mask[DMAEMU_LINE_MASK_WORDS] = {0x1ULL | (1ULL << 63), 0, 0,
						 1ULL << 63};

	ck_assert(dmaemu_line_mask_test(mask, 0));
	ck_assert(!dmaemu_line_mask_test(mask, 1));
	ck_assert(dmaemu_line_mask_test(mask, 63));
	ck_assert(!dmaemu_line_mask_test(mask, 64));
	ck_assert(dmaemu_line_mask_test(mask, 255));
	ck_assert(!dmaemu_line_mask_test(mask, 256));
	ck_assert_uint_eq(dmaemu_line_mask_weight(mask), 3);
}
END_TEST

/* A smaller line: masks, addresses and owner follow it. */
START_TEST(test_line_size_32)
{
	struct dmaemu_line_state st;
	uint8_t *buf;
	uint64_t phys;

	m = fixture_machine("profile=%s:mem=16M:cache_line=32", profiles[_i]);
	buf = kmalloc(64, GFP_KERNEL);
	ck_assert_ptr_nonnull(buf);
	phys = virt_to_phys(buf);
	ck_assert_int_eq(dmaemu_cache_invalidate(m, phys, 64), 0);
	fixture_cpu_fill(buf + 30, 0x77, 4); /* two lines, 2 bytes each */
	ck_assert_int_eq(dmaemu_line_state(m, phys + 40, &st), 0);
	ck_assert_uint_eq(st.phys, phys + 32);
	ck_assert_uint_eq(st.line_size, 32);
	assert_mask(st.cpu_dirty, 0, 2);
	ck_assert_int_eq(dmaemu_line_state(m, phys, &st), 0);
	assert_mask(st.cpu_dirty, 30, 32);
	kfree(buf);
	teardown();
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Addresses                                                              */
/* ---------------------------------------------------------------------- */

START_TEST(test_addr_info)
{
	struct dmaemu_addr_info ai;
	uint8_t *buf, *coh, *wc;
	uint64_t phys, before;
	dma_addr_t h, hw;
	int on_stack;
	void *v;

	make(profiles[_i], NULL);
	buf = kmalloc(64, GFP_KERNEL);
	ck_assert_ptr_nonnull(buf);
	phys = virt_to_phys(buf);
	ck_assert_int_eq(dmaemu_addr_info(buf + 3, &ai), 0);
	ck_assert_ptr_eq(ai.machine, m);
	ck_assert_int_eq(ai.region, DMAEMU_REGION_LINEAR);
	ck_assert_uint_eq(ai.phys, phys + 3);

	/* Coherent memory: uncached alias where devices do not snoop. */
	coh = dma_alloc_coherent(dev, 4096, &h, GFP_KERNEL);
	ck_assert_ptr_nonnull(coh);
	ck_assert_int_eq(dmaemu_addr_info(coh, &ai), 0);
	ck_assert_int_eq(ai.region, _i == 2 ? DMAEMU_REGION_LINEAR
					    : DMAEMU_REGION_UNCACHED);
	ck_assert_uint_eq(ai.phys, h);
	wc = dma_alloc_wc(dev, 4096, &hw, GFP_KERNEL);
	ck_assert_ptr_nonnull(wc);
	ck_assert_int_eq(dmaemu_addr_info(wc + 8, &ai), 0);
	/* x86 (Linux 4.14) ignores DMA_ATTR_WRITE_COMBINE: write-back. */
	ck_assert_int_eq(ai.region, profile_ids[_i] == DMAEMU_PROFILE_X86
					    ? DMAEMU_REGION_LINEAR
					    : DMAEMU_REGION_WC);
	ck_assert_uint_eq(ai.phys, hw + 8);

	/* Not emulated memory: an answer, not a misuse. */
	ck_assert_int_eq(dmaemu_addr_info(&on_stack, &ai), 0);
	ck_assert_int_eq(ai.region, DMAEMU_REGION_NONE);
	ck_assert_ptr_null(ai.machine);
	ck_assert_int_eq(dmaemu_addr_info(NULL, &ai), 0);
	ck_assert_int_eq(ai.region, DMAEMU_REGION_NONE);

	/* Every view of one physical address. */
	ck_assert_ptr_eq(dmaemu_phys_view(m, phys, DMAEMU_REGION_LINEAR), buf);
	ck_assert_ptr_eq(dmaemu_phys_view(m, phys, DMAEMU_REGION_LINEAR),
			 phys_to_virt(phys));
	v = dmaemu_phys_view(m, phys, DMAEMU_REGION_UNCACHED);
	ck_assert_int_eq(dmaemu_addr_info(v, &ai), 0);
	ck_assert_int_eq(ai.region, DMAEMU_REGION_UNCACHED);
	ck_assert_uint_eq(ai.phys, phys);
	v = dmaemu_phys_view(m, phys, DMAEMU_REGION_WC);
	ck_assert_int_eq(dmaemu_addr_info(v, &ai), 0);
	ck_assert_int_eq(ai.region, DMAEMU_REGION_WC);
	v = dmaemu_phys_view(m, phys, DMAEMU_REGION_NOMAP);
	ck_assert_int_eq(dmaemu_addr_info(v, &ai), 0);
	ck_assert_int_eq(ai.region, DMAEMU_REGION_NOMAP);
	ck_assert_uint_eq(ai.phys, phys);

	before = bad_args();
	ck_assert_int_eq(dmaemu_addr_info(buf, NULL), -EINVAL);
	one_bad_argument(before);
	before = bad_args();
	ck_assert_ptr_null(dmaemu_phys_view(m, phys, DMAEMU_REGION_MMIO));
	one_bad_argument(before);
	before = bad_args();
	ck_assert_ptr_null(dmaemu_phys_view(m, 0x1000, DMAEMU_REGION_LINEAR));
	one_bad_argument(before);
	before = bad_args();
	ck_assert_ptr_null(dmaemu_phys_view(NULL, phys, DMAEMU_REGION_LINEAR));
	one_bad_argument(before);

	dma_free_wc(dev, 4096, wc, hw);
	dma_free_coherent(dev, 4096, coh, h);
	kfree(buf);
	teardown();
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Mappings and allocations                                               */
/* ---------------------------------------------------------------------- */

START_TEST(test_device_mappings)
{
	static const char *const opts[] = {NULL, "swiotlb=force", "iommu=1"};
	static const char *const backends[] = {"direct", "swiotlb", "iommu"};
	unsigned int k;

	for (k = 0; k < 3; k++) {
		struct dmaemu_mapping_info mi[8];
		struct dmaemu_device_dma_info di;
		struct scatterlist sg[2];
		uint8_t *a, *b, tmp[8];
		struct page *pg;
		dma_addr_t da, dp, dr;
		uint64_t before;
		int n, i, nsg;

		make(profiles[_i], opts[k]);
		a = kmalloc(256, GFP_KERNEL);
		b = kmalloc(512, GFP_KERNEL);
		pg = alloc_pages(GFP_KERNEL, 0);
		ck_assert(a && b && pg);
		ck_assert_int_eq(dmaemu_device_mappings(dd, NULL, 0), 0);

		da = dma_map_single_attrs(dev, a, 256, DMA_TO_DEVICE,
					  DMA_ATTR_WEAK_ORDERING);
		ck_assert(!dma_mapping_error(dev, da));
		dp = dma_map_page(dev, pg, 512, 1024, DMA_FROM_DEVICE);
		sg_init_table(sg, 2);
		sg_set_buf(&sg[0], b, 100);
		sg_set_buf(&sg[1], b + 256, 200);
		nsg = dma_map_sg(dev, sg, 2, DMA_BIDIRECTIONAL);
		ck_assert_int_ge(nsg, 1);
		dr = dma_map_resource(dev, 0x10000000, 4096, DMA_TO_DEVICE, 0);
		ck_assert(!dma_mapping_error(dev, dr));

		n = dmaemu_device_mappings(dd, mi, 8);
		ck_assert_int_eq(n, 3 + nsg);
		for (i = 1; i < n; i++)
			ck_assert_uint_le(mi[i - 1].dma, mi[i].dma);
		for (i = 0; i < n; i++) {
			const struct dmaemu_mapping_info *p = &mi[i];

			switch (p->type) {
			case DMAEMU_MAP_SINGLE:
				ck_assert_uint_eq(p->dma, da);
				ck_assert_uint_eq(p->phys, virt_to_phys(a));
				ck_assert_uint_eq(p->size, 256);
				ck_assert_int_eq(p->dir, DMA_TO_DEVICE);
				ck_assert_uint_eq(p->attrs,
						  DMA_ATTR_WEAK_ORDERING);
				ck_assert_ptr_eq(p->cpu_addr, a);
				ck_assert_str_eq(p->fn, "dma_map_single_attrs");
				ck_assert(p->error_checked);
				ck_assert_str_eq(p->backend, backends[k]);
				break;
			case DMAEMU_MAP_PAGE:
				ck_assert_uint_eq(p->dma, dp);
				ck_assert_uint_eq(p->phys,
						  page_to_phys(pg) + 512);
				ck_assert_uint_eq(p->size, 1024);
				ck_assert_int_eq(p->dir, DMA_FROM_DEVICE);
				ck_assert(!p->error_checked);
				ck_assert_str_eq(p->backend, backends[k]);
				break;
			case DMAEMU_MAP_SG:
				ck_assert_int_eq(p->sg_nents, 2);
				ck_assert_int_eq(p->sg_mapped, nsg);
				ck_assert_int_lt(p->sg_segment, nsg);
				ck_assert_uint_eq(
					p->dma,
					sg_dma_address(&sg[p->sg_segment]));
				ck_assert_int_eq(p->dir, DMA_BIDIRECTIONAL);
				ck_assert_str_eq(p->backend, backends[k]);
				break;
			case DMAEMU_MAP_RESOURCE:
				ck_assert_uint_eq(p->dma, dr);
				ck_assert_uint_eq(p->phys, 0x10000000);
				ck_assert_uint_eq(p->size, 4096);
				ck_assert_ptr_null(p->cpu_addr);
				break;
			default:
				ck_abort_msg("type %d", p->type);
			}
		}
		/* Less room: the count is still all of them. */
		memset(mi, 0, sizeof(mi));
		ck_assert_int_eq(dmaemu_device_mappings(dd, mi, 1), n);
		ck_assert_uint_ne(mi[0].size, 0);
		ck_assert_uint_eq(mi[1].size, 0);

		/* find, with the device's accesses counted. */
		fixture_dev_fill(dd, dp + 8, 0x11, 8);
		ck_assert_int_eq(dmaemu_dma_read(dd, da, tmp, 8), 0);
		ck_assert_int_eq(
			dmaemu_device_mapping_find(dd, dp + 1000, 24, &mi[0]),
			0);
		ck_assert_int_eq(mi[0].type, DMAEMU_MAP_PAGE);
		ck_assert_uint_eq(mi[0].dev_writes, 1);
		ck_assert_uint_eq(mi[0].dev_reads, 0);
		ck_assert(mi[0].last_valid && mi[0].last_write);
		ck_assert_uint_eq(mi[0].last_dma, dp + 8);
		ck_assert_uint_eq(mi[0].last_len, 8);
		ck_assert_int_eq(dmaemu_device_mapping_find(dd, da, 0, &mi[0]),
				 0);
		ck_assert_uint_eq(mi[0].dev_reads, 1);
		ck_assert_int_eq(
			dmaemu_device_mapping_find(dd, dp + 1000, 25, &mi[0]),
			-ENOENT);
		ck_assert_int_eq(dmaemu_device_dma_info(dd, &di), 0);
		ck_assert_uint_eq(di.mappings, (uint64_t)n);
		ck_assert_uint_eq(di.stray_accesses, 0);

		dma_unmap_resource(dev, dr, 4096, DMA_TO_DEVICE, 0);
		dma_unmap_sg(dev, sg, 2, DMA_BIDIRECTIONAL);
		/* Checked late (an unmap of an unchecked handle is a
		 * mapping-error-not-checked report). */
		ck_assert(!dma_mapping_error(dev, dp));
		dma_unmap_page(dev, dp, 1024, DMA_FROM_DEVICE);
		dma_unmap_single(dev, da, 256, DMA_TO_DEVICE);
		ck_assert_int_eq(dmaemu_device_mappings(dd, mi, 8), 0);
		ck_assert_int_eq(dmaemu_device_dma_info(dd, &di), 0);
		ck_assert_uint_eq(di.mappings, 0);

		before = bad_args();
		ck_assert_int_eq(dmaemu_device_mappings(NULL, mi, 8), -EINVAL);
		one_bad_argument(before);
		before = bad_args();
		ck_assert_int_eq(dmaemu_device_mappings(dd, NULL, 8), -EINVAL);
		one_bad_argument(before);
		before = bad_args();
		ck_assert_int_eq(dmaemu_device_mapping_find(dd, da, 1, NULL),
				 -EINVAL);
		one_bad_argument(before);
		before = bad_args();
		ck_assert_int_eq(dmaemu_device_dma_info(NULL, &di), -EINVAL);
		one_bad_argument(before);

		__free_pages(pg, 0);
		kfree(b);
		kfree(a);
		teardown();
	}
}
END_TEST

/* A destroyed device is a bad argument to every call that takes one. */
START_TEST(test_destroyed_device)
{
	struct dmaemu_mapping_info mi;
	struct dmaemu_device_dma_info di;
	struct dmaemu_allocation_info ai;
	struct dmaemu_iommu_info ii;
	struct dmaemu_device *gone;
	uint64_t before, phys;

	make(profiles[_i], "iommu=1");
	gone = dmaemu_device_create(m, "gone", NULL, NULL);
	ck_assert_ptr_nonnull(gone);
	dmaemu_device_destroy(gone);
	before = bad_args();
	ck_assert_int_eq(dmaemu_device_mappings(gone, NULL, 0), -EINVAL);
	ck_assert_int_eq(dmaemu_device_mapping_find(gone, 0, 1, &mi), -EINVAL);
	ck_assert_int_eq(dmaemu_device_dma_info(gone, &di), -EINVAL);
	ck_assert_int_eq(dmaemu_device_allocation_find(gone, NULL, 0, 1, &ai),
			 -EINVAL);
	ck_assert_int_eq(dmaemu_iommu_info(gone, &ii), -EINVAL);
	ck_assert_int_eq(dmaemu_iommu_iova_to_phys(gone, 0, &phys), -EINVAL);
	/* Reported on the current machine, which is this one. */
	ck_assert_uint_eq(bad_args(), before + 6);
	expected += 6;
	teardown();
}
END_TEST

START_TEST(test_allocation_find)
{
	struct dmaemu_allocation_info ai;
	uint64_t before;
	dma_addr_t h;
	uint8_t *p;

	make(profiles[_i], NULL);
	p = dma_alloc_attrs(dev, 3 * 4096, &h, GFP_KERNEL,
			    DMA_ATTR_WRITE_BARRIER);
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(
		dmaemu_device_allocation_find(dd, NULL, h + 4096, 8192, &ai),
		0);
	ck_assert_ptr_eq(ai.cpu_addr, p);
	ck_assert_uint_eq(ai.dma, h);
	ck_assert_uint_eq(ai.size, 3 * 4096);
	ck_assert_uint_eq(ai.attrs, DMA_ATTR_WRITE_BARRIER);
	ck_assert_uint_eq(ai.phys, h); /* no IOMMU, no offset */
	ck_assert(ai.contiguous);
	ck_assert_str_eq(ai.view, _i == 2 ? "cacheable" : "uncached");
	ck_assert_int_eq(dmaemu_device_allocation_find(dd, p + 100, 0, 10, &ai),
			 0);
	ck_assert_int_eq(
		dmaemu_device_allocation_find(dd, NULL, h + 8192, 4097, &ai),
		-ENOENT);
	before = bad_args();
	ck_assert_int_eq(dmaemu_device_allocation_find(dd, p, 0, 1, NULL),
			 -EINVAL);
	one_bad_argument(before);
	dma_free_attrs(dev, 3 * 4096, p, h, DMA_ATTR_WRITE_BARRIER);
	ck_assert_int_eq(dmaemu_device_allocation_find(dd, p, 0, 1, &ai),
			 -ENOENT);
	teardown();
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Backends                                                               */
/* ---------------------------------------------------------------------- */

START_TEST(test_swiotlb_info)
{
	struct dmaemu_swiotlb_info si;
	uint64_t before;
	dma_addr_t dma;
	uint8_t *buf;

	make(profiles[_i], "swiotlb=force:swiotlb_size=1M");
	ck_assert_int_eq(dmaemu_swiotlb_info(m, &si), 0);
	ck_assert_uint_eq(si.slots, 0); /* made on first use */
	ck_assert_uint_eq(si.slot_size, 2048);
	buf = kmalloc(3000, GFP_KERNEL);
	ck_assert_ptr_nonnull(buf);
	fixture_cpu_fill(buf, 0x42, 3000);
	dma = dma_map_single(dev, buf, 3000, DMA_TO_DEVICE);
	ck_assert(!dma_mapping_error(dev, dma));
	ck_assert_int_eq(dmaemu_swiotlb_info(m, &si), 0);
	ck_assert_uint_eq(si.slots, (1 << 20) / 2048);
	ck_assert_uint_eq(si.used, 2);
	ck_assert_uint_eq(si.maps, 1);
	ck_assert_uint_eq(si.fulls, 0);
	ck_assert_uint_eq(si.bounced, 3000); /* TO_DEVICE: copied at map */
	ck_assert_uint_ge(si.chunks, 1);
	ck_assert_uint_le(si.start, dma);
	ck_assert(fixture_dev_sees(dd, dma, 0x42, 3000));
	dma_unmap_single(dev, dma, 3000, DMA_TO_DEVICE);
	ck_assert_int_eq(dmaemu_swiotlb_info(m, &si), 0);
	ck_assert_uint_eq(si.used, 0);
	ck_assert_uint_eq(si.bounced, 3000); /* nothing copied back */
	kfree(buf);

	before = bad_args();
	ck_assert_int_eq(dmaemu_swiotlb_info(NULL, &si), -EINVAL);
	one_bad_argument(before);
	before = bad_args();
	ck_assert_int_eq(dmaemu_swiotlb_info(m, NULL), -EINVAL);
	one_bad_argument(before);
	teardown();
}
END_TEST

START_TEST(test_iommu_info)
{
	struct dmaemu_iommu_info ii;
	struct page *pg;
	uint64_t phys, before;
	dma_addr_t dma;
	uint8_t tmp[4];

	/* No IOMMU: a question with the answer "none". */
	make(profiles[_i], NULL);
	ck_assert_int_eq(dmaemu_iommu_info(dd, &ii), -ENODEV);
	ck_assert_int_eq(dmaemu_iommu_iova_to_phys(dd, 0x1000, &phys), -ENODEV);
	teardown();

	make(profiles[_i], "iommu=1");
	ck_assert_int_eq(dmaemu_iommu_info(dd, &ii), 0);
	ck_assert_uint_eq(ii.pages, 0);
	pg = alloc_pages(GFP_KERNEL, 2);
	ck_assert_ptr_nonnull(pg);
	dma = dma_map_page(dev, pg, 0, 3 * 4096, DMA_TO_DEVICE);
	ck_assert(!dma_mapping_error(dev, dma));
	ck_assert_int_eq(dmaemu_iommu_info(dd, &ii), 0);
	ck_assert_uint_eq(ii.ranges, 1);
	ck_assert_uint_eq(ii.pages, 3);
	ck_assert_uint_eq(ii.faults, 0);
	ck_assert_uint_ge(ii.tables, 1);
	ck_assert(!ii.privileged);
	ck_assert_int_eq(dmaemu_iommu_iova_to_phys(dd, dma + 4096 + 5, &phys),
			 0);
	ck_assert_uint_eq(phys, page_to_phys(pg) + 4096 + 5);
	ck_assert_int_eq(dmaemu_iommu_iova_to_phys(dd, dma + 3 * 4096, &phys),
			 -ENOENT);
	/* A write to a TO_DEVICE mapping is refused: a fault. */
	before = dmaemu_report_count(m, "iommu-fault");
	memset(tmp, 0, sizeof(tmp));
	ck_assert_int_ne(dmaemu_dma_write(dd, dma, tmp, 4), 0);
	ck_assert_uint_eq(dmaemu_report_count(m, "iommu-fault"), before + 1);
	expected++;
	ck_assert_int_eq(dmaemu_iommu_info(dd, &ii), 0);
	ck_assert_uint_eq(ii.faults, 1);
	ck_assert_int_eq(dmaemu_device_set_privileged(dd, true), 0);
	ck_assert_int_eq(dmaemu_iommu_info(dd, &ii), 0);
	ck_assert(ii.privileged);
	dma_unmap_page(dev, dma, 3 * 4096, DMA_TO_DEVICE);
	ck_assert_int_eq(dmaemu_iommu_info(dd, &ii), 0);
	ck_assert_uint_eq(ii.ranges, 0);
	ck_assert_uint_eq(ii.pages, 0);
	__free_pages(pg, 2);

	before = bad_args();
	ck_assert_int_eq(dmaemu_iommu_info(NULL, &ii), -EINVAL);
	one_bad_argument(before);
	before = bad_args();
	ck_assert_int_eq(dmaemu_iommu_iova_to_phys(dd, dma, NULL), -EINVAL);
	one_bad_argument(before);
	teardown();
}
END_TEST

/* ---------------------------------------------------------------------- */
/* The CPU side                                                           */
/* ---------------------------------------------------------------------- */

START_TEST(test_wc_pending)
{
	dma_addr_t h;
	uint8_t *p;

	make(profiles[_i], NULL);
	p = dma_alloc_wc(dev, 4096, &h, GFP_KERNEL);
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(dmaemu_wc_pending(m, h, 4096), 0);
	fixture_cpu_fill(p + 8, 0x66, 8);
	ck_assert_int_eq(dmaemu_wc_pending(m, h + 8, 8), 8);
	ck_assert_int_eq(dmaemu_wc_pending(m, h, 4096), 8);
	ck_assert_int_eq(dmaemu_wc_pending(m, h, 12), 4);
	ck_assert(fixture_dev_sees(dd, h + 8, 0, 8)); /* not yet */
	expected = dmaemu_report_count(m, NULL);      /* the checker may say */
	dmaemu_cpu_flush_wc();
	ck_assert_int_eq(dmaemu_wc_pending(m, h, 4096), 0);
	ck_assert(fixture_dev_sees(dd, h + 8, 0x66, 8));
	dma_free_wc(dev, 4096, p, h);
	teardown();
}
END_TEST

START_TEST(test_prefetch_info)
{
	struct dmaemu_prefetch_info pi;
	uint64_t before;
	dma_addr_t dma;
	uint8_t *buf;
	int k;

	for (k = 0; k < 2; k++) {
		make(profiles[_i], k ? "prefetch=0" : "prefetch=1");
		ck_assert_int_eq(dmaemu_prefetch_info(m, &pi), 0);
		ck_assert_uint_eq(pi.ranges, 0);
		buf = kmalloc(256, GFP_KERNEL);
		ck_assert_ptr_nonnull(buf);
		dma = dma_map_single(dev, buf, 256, DMA_FROM_DEVICE);
		ck_assert(!dma_mapping_error(dev, dma));
		ck_assert_int_eq(dmaemu_prefetch_info(m, &pi), 0);
		ck_assert_uint_eq(pi.ranges, k ? 0 : 1);
		ck_assert_uint_eq(pi.lines, k ? 0 : 4);
		dma_unmap_single(dev, dma, 256, DMA_FROM_DEVICE);
		ck_assert_int_eq(dmaemu_prefetch_info(m, &pi), 0);
		ck_assert_uint_eq(pi.ranges, 0);
		ck_assert_uint_eq(pi.lines, 0);
		kfree(buf);
		before = bad_args();
		ck_assert_int_eq(dmaemu_prefetch_info(m, NULL), -EINVAL);
		one_bad_argument(before);
		teardown();
	}
}
END_TEST

static Suite *testing_suite(void)
{
	Suite *s = suite_create("testing");
	TCase *tc = tcase_create("testing");

	tcase_add_loop_test(tc, test_machine_info, 0, 3);
	tcase_add_loop_test(tc, test_line_cpu_store, 0, 3);
	tcase_add_loop_test(tc, test_line_device_write, 0, 3);
	tcase_add_loop_test(tc, test_line_dram_write, 0, 3);
	tcase_add_loop_test(tc, test_line_bad_arguments, 0, 3);
	tcase_add_test(tc, test_line_masks);
	tcase_add_loop_test(tc, test_line_size_32, 0, 3);
	tcase_add_loop_test(tc, test_addr_info, 0, 3);
	tcase_add_loop_test(tc, test_device_mappings, 0, 3);
	tcase_add_loop_test(tc, test_destroyed_device, 0, 3);
	tcase_add_loop_test(tc, test_allocation_find, 0, 3);
	tcase_add_loop_test(tc, test_swiotlb_info, 0, 3);
	tcase_add_loop_test(tc, test_iommu_info, 0, 3);
	/* arm and arm64: x86's dma_alloc_wc() memory is write-back. */
	tcase_add_loop_test(tc, test_wc_pending, 0, 2);
	tcase_add_loop_test(tc, test_prefetch_info, 0, 3);
	tcase_add_checked_fixture(tc, NULL, teardown);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(testing_suite());
}
