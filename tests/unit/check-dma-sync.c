// SPDX-License-Identifier: MIT
/*
 * check-dma-sync.c - the syncs at the edges of their mapping, and the
 * ownership they move, on every profile and through every backend
 * (direct, swiotlb=force, iommu=1): a sync one byte past its mapping is
 * refused (sync-not-mapped) and does nothing, a sync of its last byte alone
 * works; sync_for_device gives back to the device what sync_for_cpu gave
 * the CPU; dma_cache_sync(DMA_FROM_DEVICE) over lines the CPU dirtied
 * lets the device's data win.  Every test counts every report it makes.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "check-run.h"
#include "dma/dma.h"
#include "dmaemu/device.h"
#include "fixture.h"

#include <linux/dma-mapping.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>

static const char *const profiles[] = {"arm", "arm64", "x86"};
static const char *const backends[] = {"", ":swiotlb=force", ":iommu=1"};
enum { DIRECT, SWIOTLB, IOMMU };

static struct dmaemu_machine *m;
static struct dmaemu_device *dd;
static struct device *dev;
static int prof, backend;

/* Loop index @i: profile i % 3, backend i / 3. */
static void start(int i)
{
	prof = i % 3;
	backend = i / 3;
	m = fixture_machine("profile=%s:mem=16M%s", profiles[prof],
			    backends[backend]);
	dd = dmaemu_device_create(m, "dev0", NULL, NULL);
	ck_assert_ptr_nonnull(dd);
	dev = dmaemu_device_to_dev(dd);
}

static void teardown(void)
{
	fixture_finish(&m, &dd, 0);
}

/* The backend that serves @dma is the one asked for. */
static void assert_backend(dma_addr_t dma)
{
	static const char *const names[] = {"direct", "swiotlb", "iommu"};
	struct dmaemu__mapping rec;

	ck_assert_int_eq(dmaemu__mapping_find(dev, dma, 1, &rec, NULL), 0);
	ck_assert_str_eq(rec.ops->name, names[backend]);
}

/* Every line of [@p, +@len) belongs to @o. */
static void assert_owner(const void *p, size_t len, enum dmaemu__domain o)
{
	uint64_t phys = virt_to_phys(p), a;

	for (a = phys; a < phys + len; a += m->line)
		ck_assert_msg(dmaemu__owner_get(m, a) == o,
			      "line 0x%llx: owner %d, want %d",
			      (unsigned long long)a, dmaemu__owner_get(m, a),
			      o);
}

/*
 * A 256-byte mapping: syncs that start in it and reach past it are one
 * sync-out-of-range each and still maintained (Linux 4.14); syncs that
 * start past it are one sync-not-mapped each and change nothing; a sync that starts in its
 * last byte is inside and moves that byte's line.
 */
START_TEST(test_sync_edges)
{
	uint8_t *buf;
	dma_addr_t dma;
	uint64_t n;

	start(_i);
	buf = kmalloc(256, GFP_KERNEL);
	ck_assert_ptr_nonnull(buf);
	fixture_cpu_fill(buf, 'A', 256);
	dma = dma_map_single(dev, buf, 256, DMA_BIDIRECTIONAL);
	ck_assert(!dma_mapping_error(dev, dma));
	assert_backend(dma);
	/* A look while the device owns the buffer: reported (and the
	 * counters start again for what this test is about). */
	ck_assert(fixture_cpu_sees(buf, 'A', 256));
	ck_assert_uint_eq(dmaemu_report_count(m, "cpu-access-device-owned"), 1);
	dmaemu_report_reset(m);
	fixture_dev_fill(dd, dma, 'B', 256);

	/*
	 * A sync that starts in the mapping and runs one byte past its end
	 * is a sync-out-of-range, and (Linux 4.14) still maintained for the whole
	 * range: the part inside changes domain and the CPU sees the
	 * device's data (behind swiotlb, copied back from the slot).
	 */
	dma_sync_single_for_cpu(dev, dma + 1, 256, DMA_BIDIRECTIONAL);
	n = 1;
	ck_assert_uint_eq(dmaemu_report_count(m, "sync-out-of-range"), n);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), n);
	assert_owner(buf, 256, DMAEMU__DOMAIN_CPU);
	ck_assert(fixture_cpu_sees(buf + 1, 'B', 255));
	dma_sync_single_range_for_device(dev, dma, 255, 2, DMA_BIDIRECTIONAL);
	dma_sync_single_for_device(dev, dma, 257, DMA_BIDIRECTIONAL);
	n += 2;
	ck_assert_uint_eq(dmaemu_report_count(m, "sync-out-of-range"), n);
	assert_owner(buf, 256, DMAEMU__DOMAIN_DEVICE);

	/* Syncs that start past the end, and nothing moves: the handle
	 * dma + 256 is in no mapping (sync-not-mapped); the range variant
	 * names the mapping by its handle, and its offset + size run past
	 * the end (sync-out-of-range: Linux 4.14's
	 * debug_dma_sync_single_range_for_cpu() checks offset + size against
	 * the entry of the handle). */
	dma_sync_single_for_cpu(dev, dma + 256, 1, DMA_BIDIRECTIONAL);
	dma_sync_single_range_for_cpu(dev, dma, 256, 8, DMA_BIDIRECTIONAL);
	ck_assert_uint_eq(dmaemu_report_count(m, "sync-not-mapped"), 1);
	ck_assert_uint_eq(dmaemu_report_count(m, "sync-out-of-range"), n + 1);
	n += 2;
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), n);
	assert_owner(buf, 256, DMAEMU__DOMAIN_DEVICE);

	/* The last byte alone: inside. */
	fixture_dev_fill(dd, dma + 255, 'C', 1);
	dma_sync_single_for_cpu(dev, dma + 255, 1, DMA_BIDIRECTIONAL);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), n);
	assert_owner(buf + 255, 1, DMAEMU__DOMAIN_CPU);
	assert_owner(buf, 192, DMAEMU__DOMAIN_DEVICE);
	ck_assert(fixture_cpu_sees(buf + 255, 'C', 1));
	dma_sync_single_range_for_device(dev, dma, 255, 1, DMA_BIDIRECTIONAL);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), n);
	assert_owner(buf, 256, DMAEMU__DOMAIN_DEVICE);
	ck_assert(fixture_dev_sees(dd, dma + 255, 'C', 1));

	/* Byte 0 was never synced for the CPU: behind swiotlb the
	 * sync_for_device copied the CPU's 'A' over the slot's 'B'. */
	dma_sync_single_for_cpu(dev, dma, 256, DMA_BIDIRECTIONAL);
	ck_assert(fixture_cpu_sees(buf, backend == SWIOTLB ? 'A' : 'B', 1));
	ck_assert(fixture_cpu_sees(buf + 1, 'B', 254));
	ck_assert(fixture_cpu_sees(buf + 255, 'C', 1));
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), n);
	dma_unmap_single(dev, dma, 256, DMA_BIDIRECTIONAL);
	kfree(buf);
	fixture_finish(&m, &dd, n);
}
END_TEST

/*
 * map -> device; sync_for_cpu -> CPU; sync_for_device -> device again;
 * the same for half a mapping (the range variants), and for a
 * scatterlist; unmap -> CPU.
 */
START_TEST(test_ownership_round_trip)
{
	struct scatterlist sg[2];
	uint8_t *buf, *a, *b;
	dma_addr_t dma;
	int n;

	start(_i);
	buf = kmalloc(512, GFP_KERNEL);
	ck_assert_ptr_nonnull(buf);
	fixture_cpu_fill(buf, 'A', 512);
	assert_owner(buf, 512, DMAEMU__DOMAIN_CPU);
	dma = dma_map_single(dev, buf, 512, DMA_BIDIRECTIONAL);
	ck_assert(!dma_mapping_error(dev, dma));
	assert_backend(dma);
	assert_owner(buf, 512, DMAEMU__DOMAIN_DEVICE);
	dma_sync_single_for_cpu(dev, dma, 512, DMA_BIDIRECTIONAL);
	assert_owner(buf, 512, DMAEMU__DOMAIN_CPU);
	dma_sync_single_for_device(dev, dma, 512, DMA_BIDIRECTIONAL);
	assert_owner(buf, 512, DMAEMU__DOMAIN_DEVICE);
	dma_sync_single_range_for_cpu(dev, dma, 256, 256, DMA_BIDIRECTIONAL);
	assert_owner(buf, 256, DMAEMU__DOMAIN_DEVICE);
	assert_owner(buf + 256, 256, DMAEMU__DOMAIN_CPU);
	dma_sync_single_range_for_device(dev, dma, 256, 256, DMA_BIDIRECTIONAL);
	assert_owner(buf, 512, DMAEMU__DOMAIN_DEVICE);
	dma_unmap_single(dev, dma, 512, DMA_BIDIRECTIONAL);
	assert_owner(buf, 512, DMAEMU__DOMAIN_CPU);
	/* A mapping whose last line holds one byte of it moves that line,
	 * and not the next. */
	dma = dma_map_single(dev, buf, 193, DMA_BIDIRECTIONAL);
	ck_assert(!dma_mapping_error(dev, dma));
	assert_owner(buf, 193, DMAEMU__DOMAIN_DEVICE);
	assert_owner(buf + 256, 256, DMAEMU__DOMAIN_CPU);
	dma_sync_single_for_cpu(dev, dma + 128, 65, DMA_BIDIRECTIONAL);
	assert_owner(buf, 128, DMAEMU__DOMAIN_DEVICE);
	assert_owner(buf + 128, 65, DMAEMU__DOMAIN_CPU);
	dma_unmap_single(dev, dma, 193, DMA_BIDIRECTIONAL);
	assert_owner(buf, 512, DMAEMU__DOMAIN_CPU);
	kfree(buf);

	a = kmalloc(256, GFP_KERNEL);
	b = kmalloc(256, GFP_KERNEL);
	ck_assert(a && b);
	sg_init_table(sg, 2);
	sg_set_buf(&sg[0], a, 256);
	sg_set_buf(&sg[1], b, 256);
	n = dma_map_sg(dev, sg, 2, DMA_BIDIRECTIONAL);
	ck_assert_int_ge(n, 1);
	assert_owner(a, 256, DMAEMU__DOMAIN_DEVICE);
	assert_owner(b, 256, DMAEMU__DOMAIN_DEVICE);
	dma_sync_sg_for_cpu(dev, sg, 2, DMA_BIDIRECTIONAL);
	assert_owner(a, 256, DMAEMU__DOMAIN_CPU);
	assert_owner(b, 256, DMAEMU__DOMAIN_CPU);
	dma_sync_sg_for_device(dev, sg, 2, DMA_BIDIRECTIONAL);
	assert_owner(a, 256, DMAEMU__DOMAIN_DEVICE);
	assert_owner(b, 256, DMAEMU__DOMAIN_DEVICE);
	dma_unmap_sg(dev, sg, 2, DMA_BIDIRECTIONAL);
	assert_owner(a, 256, DMAEMU__DOMAIN_CPU);
	assert_owner(b, 256, DMAEMU__DOMAIN_CPU);
	kfree(a);
	kfree(b);
}
END_TEST

/* Live mappings holding the line of @p (the owner byte's count). */
static unsigned int holders_of(const void *p)
{
	return dmaemu__owner_byte(m, virt_to_phys(p)) >> DMAEMU__OWN_HOLD_SHIFT;
}

/*
 * Two mappings share lines of one page: the whole page, and 512 bytes in
 * its middle.  Ending the first leaves the second's lines held once (and
 * every line the CPU's: the unmap has no DMA_ATTR_SKIP_CPU_SYNC); ending
 * the second frees them.  The page-at-a-time paths of the owner map must
 * see that the lines are not all alike.
 */
START_TEST(test_page_shared_lines)
{
	struct page *pg;
	uint8_t *p;
	dma_addr_t whole, part;

	start(_i);
	pg = alloc_pages(GFP_KERNEL, 0);
	ck_assert_ptr_nonnull(pg);
	p = page_address(pg);
	whole = dma_map_single(dev, p, 4096, DMA_TO_DEVICE);
	ck_assert(!dma_mapping_error(dev, whole));
	part = dma_map_single(dev, p + 2560, 512, DMA_TO_DEVICE);
	ck_assert(!dma_mapping_error(dev, part));
	ck_assert_uint_eq(holders_of(p), 1);
	ck_assert_uint_eq(holders_of(p + 2560), 2);
	ck_assert_uint_eq(holders_of(p + 3071), 2);
	ck_assert_uint_eq(holders_of(p + 3072), 1);
	dma_unmap_single(dev, whole, 4096, DMA_TO_DEVICE);
	assert_owner(p, 4096, DMAEMU__DOMAIN_CPU);
	ck_assert_uint_eq(holders_of(p), 0);
	ck_assert_uint_eq(holders_of(p + 2559), 0);
	ck_assert_uint_eq(holders_of(p + 2560), 1);
	ck_assert_uint_eq(holders_of(p + 3071), 1);
	ck_assert_uint_eq(holders_of(p + 3072), 0);
	dma_unmap_single(dev, part, 512, DMA_TO_DEVICE);
	ck_assert_uint_eq(holders_of(p + 2560), 0);
	/* The page mapped again from scratch, then once more over it. */
	whole = dma_map_single(dev, p, 4096, DMA_TO_DEVICE);
	ck_assert(!dma_mapping_error(dev, whole));
	part = dma_map_single(dev, p, 4096, DMA_TO_DEVICE);
	ck_assert(!dma_mapping_error(dev, part));
	ck_assert_uint_eq(holders_of(p + 4095), 2);
	dma_unmap_single(dev, part, 4096, DMA_TO_DEVICE);
	ck_assert_uint_eq(holders_of(p + 4095), 1);
	dma_unmap_single(dev, whole, 4096, DMA_TO_DEVICE);
	ck_assert_uint_eq(holders_of(p + 4095), 0);
	__free_pages(pg, 0);
}
END_TEST

/*
 * dma_unmap_page() undoes dma_map_single() and dma_unmap_single()
 * undoes dma_map_page(), as Linux 4.14 does, and CONFIG_DMA_API_DEBUG
 * reports each ("wrong function": unmap-type-mismatch): the mapping is
 * gone and the lines are the CPU's.
 */
START_TEST(test_unmap_page_single)
{
	struct page *pg;
	uint8_t *buf;
	dma_addr_t dma;

	start(_i);
	buf = kmalloc(256, GFP_KERNEL);
	pg = alloc_pages(GFP_KERNEL, 0);
	ck_assert(buf && pg);
	dma = dma_map_single(dev, buf, 256, DMA_TO_DEVICE);
	ck_assert(!dma_mapping_error(dev, dma));
	dma_unmap_page(dev, dma, 256, DMA_TO_DEVICE);
	ck_assert_uint_eq(dmaemu__mapping_count(dev), 0);
	assert_owner(buf, 256, DMAEMU__DOMAIN_CPU);
	dma = dma_map_page(dev, pg, 0, PAGE_SIZE, DMA_FROM_DEVICE);
	ck_assert(!dma_mapping_error(dev, dma));
	assert_owner(page_address(pg), PAGE_SIZE, DMAEMU__DOMAIN_DEVICE);
	dma_unmap_single(dev, dma, PAGE_SIZE, DMA_FROM_DEVICE);
	ck_assert_uint_eq(dmaemu__mapping_count(dev), 0);
	assert_owner(page_address(pg), PAGE_SIZE, DMAEMU__DOMAIN_CPU);
	ck_assert_uint_eq(dmaemu_report_count(m, "unmap-type-mismatch"), 2);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 2);
	dmaemu_report_reset(m);
	__free_pages(pg, 0);
	kfree(buf);
}
END_TEST

/*
 * Another direction than the map's (CONFIG_DMA_API_DEBUG's "different
 * direction", found by tests/fuzz/fuzz-dma): one sync-direction-mismatch
 * per sync and one unmap-direction-mismatch per unmap, the maintenance following the direction given;
 * a DMA_BIDIRECTIONAL mapping may be synced either way without a report.
 */
START_TEST(test_other_direction)
{
	uint8_t *buf;
	dma_addr_t dma;

	start(_i);
	buf = kmalloc(256, GFP_KERNEL);
	ck_assert_ptr_nonnull(buf);
	dma = dma_map_single(dev, buf, 256, DMA_FROM_DEVICE);
	ck_assert(!dma_mapping_error(dev, dma));
	dma_sync_single_for_cpu(dev, dma, 256, DMA_TO_DEVICE);
	ck_assert_uint_eq(dmaemu_report_count(m, "sync-direction-mismatch"), 1);
	dma_sync_single_for_device(dev, dma, 256, DMA_FROM_DEVICE);
	ck_assert_uint_eq(dmaemu_report_count(m, "sync-direction-mismatch"), 1);
	dma_unmap_single(dev, dma, 256, DMA_TO_DEVICE);
	ck_assert_uint_eq(dmaemu_report_count(m, "unmap-direction-mismatch"),
			  1);
	ck_assert_uint_eq(dmaemu__mapping_count(dev), 0);
	assert_owner(buf, 256, DMAEMU__DOMAIN_CPU);

	dma = dma_map_single(dev, buf, 256, DMA_BIDIRECTIONAL);
	ck_assert(!dma_mapping_error(dev, dma));
	dma_sync_single_for_cpu(dev, dma, 256, DMA_FROM_DEVICE);
	dma_sync_single_for_device(dev, dma, 256, DMA_TO_DEVICE);
	dma_unmap_single(dev, dma, 256, DMA_BIDIRECTIONAL);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 2);
	dmaemu_report_reset(m);
	kfree(buf);
}
END_TEST

/*
 * A NON_CONSISTENT buffer the CPU has written (dirty lines) and the
 * device then writes: dma_cache_sync(DMA_FROM_DEVICE) discards the CPU's
 * copy, so the CPU and DRAM hold the device's data, and nothing is
 * reported (the lines lie inside the range).  Direct backend only: behind
 * an IOMMU such a buffer need not be physically contiguous.
 */
START_TEST(test_cache_sync_from_device)
{
	uint8_t *buf, got[256];
	dma_addr_t h;

	start(_i);
	buf = dma_alloc_attrs(dev, 4096, &h, GFP_KERNEL,
			      DMA_ATTR_NON_CONSISTENT);
	ck_assert_ptr_nonnull(buf);
	fixture_cpu_fill(buf + 64, 'A', 256);
	if (prof != 2)
		ck_assert(fixture_cpu_dirty(m, virt_to_phys(buf + 64)));
	fixture_dev_fill(dd, h + 64, 'B', 256);
	dma_cache_sync(dev, buf + 64, 256, DMA_FROM_DEVICE);
	ck_assert(fixture_cpu_sees(buf + 64, 'B', 256));
	ck_assert_int_eq(dmaemu__mem_read(m, virt_to_phys(buf + 64), got, 256),
			 0);
	ck_assert(fixture_all(got, 'B', 256));
	ck_assert(fixture_dev_sees(dd, h + 64, 'B', 256));
	dma_free_attrs(dev, 4096, buf, h, DMA_ATTR_NON_CONSISTENT);
}
END_TEST

/*
 * The swiotlb backend's own checks of an unmap (docs/dma-backends.md):
 * the dispatcher gives it the recorded address and size of a single
 * mapping, but dma_unmap_sg() takes each entry's dma_address and
 * dma_length from the driver's list, as Linux's does.  A list changed
 * after the map reaches them: one bad-argument each.
 */
START_TEST(test_swiotlb_unmap_sg_changed)
{
	struct dmaemu__swiotlb_stats st;
	struct scatterlist sg[2];
	uint8_t *a, *b;
	uint64_t n = 0;

	start(_i + 3); /* swiotlb=force */
	a = kmalloc(256, GFP_KERNEL);
	b = kmalloc(256, GFP_KERNEL);
	ck_assert(a && b);
	sg_init_table(sg, 2);
	sg_set_buf(&sg[0], a, 256);
	sg_set_buf(&sg[1], b, 256);

	/* Longer than the bounce buffer: the mapping's size is used. */
	ck_assert_int_eq(dma_map_sg(dev, sg, 2, DMA_BIDIRECTIONAL), 2);
	sg[1].dma_length = 300;
	dma_unmap_sg(dev, sg, 2, DMA_BIDIRECTIONAL);
	ck_assert_uint_eq(dmaemu_report_count(m, "bad-argument"), ++n);
	/* Shorter: released whole all the same. */
	ck_assert_int_eq(dma_map_sg(dev, sg, 2, DMA_BIDIRECTIONAL), 2);
	sg[1].dma_length = 100;
	dma_unmap_sg(dev, sg, 2, DMA_BIDIRECTIONAL);
	ck_assert_uint_eq(dmaemu_report_count(m, "bad-argument"), ++n);
	dmaemu__swiotlb_info(m, &st);
	ck_assert_uint_eq(st.used, 0);
	/* Not the start of its bounce buffer: nothing is released, the
	 * slot stays taken until the machine goes. */
	ck_assert_int_eq(dma_map_sg(dev, sg, 2, DMA_BIDIRECTIONAL), 2);
	sg[1].dma_address += 16;
	dma_unmap_sg(dev, sg, 2, DMA_BIDIRECTIONAL);
	ck_assert_uint_eq(dmaemu_report_count(m, "bad-argument"), ++n);
	dmaemu__swiotlb_info(m, &st);
	ck_assert_uint_eq(st.used, 1);
	kfree(a);
	kfree(b);
	fixture_finish(&m, &dd, n);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("dma-sync");
	TCase *tc = tcase_create("dma-sync");

	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_sync_edges, 0, 9);
	tcase_add_loop_test(tc, test_ownership_round_trip, 0, 9);
	tcase_add_loop_test(tc, test_unmap_page_single, 0, 9);
	tcase_add_loop_test(tc, test_page_shared_lines, 0, 9);
	tcase_add_loop_test(tc, test_other_direction, 0, 9);
	/* Profiles with the direct backend (i < 3). */
	tcase_add_loop_test(tc, test_cache_sync_from_device, 0, 3);
	tcase_add_loop_test(tc, test_swiotlb_unmap_sg_changed, 0, 3);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(suite());
}
