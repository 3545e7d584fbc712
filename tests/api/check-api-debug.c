// SPDX-License-Identifier: MIT
/*
 * check-api-debug.c - the DMA API debugging checks (Linux 4.14's
 * CONFIG_DMA_API_DEBUG, lib/dma-debug.c), one report kind each: for every
 * kind a small driver program makes the mistake once and must get exactly
 * one report of that kind, at the address the kind names (the mapping's
 * first byte, the shared line, or 0 when there is no such memory), naming
 * where the mapping was made; its corrected twin must get no report at
 * all.  Every program runs on arm64 and x86 with the direct backend, and
 * on arm64 behind swiotlb=force and iommu=1, since the checks must not
 * depend on the backend.
 */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <linux/dma-mapping.h>
#include <linux/dmapool.h>
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

static const char *const configs[] = {
	"profile=arm64",
	"profile=x86",
	"profile=arm64:swiotlb=force",
	"profile=arm64:iommu=1",
};
#define NCONFIGS (int)(sizeof(configs) / sizeof(configs[0]))

static struct dmaemu_machine *m;
static struct dmaemu_device *dd;
static struct device *dev;
static uint64_t want_phys; /* the address the report must name */

static uint64_t phys_of(const void *p)
{
	uint64_t phys = 0;

	ck_assert_int_eq(fixture_region(p, &phys), DMAEMU_REGION_LINEAR);
	return phys;
}

static uint8_t *buffer(size_t size)
{
	uint8_t *b = kmalloc(size, GFP_KERNEL);

	ck_assert_ptr_nonnull(b);
	return b;
}

/* A mapping whose error the driver checks, as a correct driver does. */
static dma_addr_t map(void *p, size_t size, enum dma_data_direction dir,
		      unsigned long attrs)
{
	dma_addr_t h = dma_map_single_attrs(dev, p, size, dir, attrs);

	ck_assert(!dma_mapping_error(dev, h));
	return h;
}

static void two_entries(struct scatterlist *sg, uint8_t *b)
{
	sg_init_table(sg, 2);
	sg_set_buf(&sg[0], b, 128);
	sg_set_buf(&sg[1], b + 256, 128);
}

/* ---------------------------------------------------------------------- */
/* The programs: @bug makes the mistake, !@bug is the corrected twin      */
/* ---------------------------------------------------------------------- */

static void map_stack(bool bug)
{
	uint8_t stack_buf[256], *b = buffer(256);
	dma_addr_t h;

	h = dma_map_single(dev, bug ? stack_buf : b, 256, DMA_TO_DEVICE);
	if (!dma_mapping_error(dev, h))
		dma_unmap_single(dev, h, 256, DMA_TO_DEVICE);
	kfree(b);
	want_phys = 0;
}

/* A ring slot reset to DMA_MAPPING_ERROR after its unmap, unmapped again. */
static void unmap_error_cookie(bool bug)
{
	uint8_t *b = buffer(256);
	dma_addr_t h = map(b, 256, DMA_TO_DEVICE, 0);

	dma_unmap_single(dev, h, 256, DMA_TO_DEVICE);
	h = DMA_MAPPING_ERROR;
	if (bug || !dma_mapping_error(dev, h))
		dma_unmap_single(dev, h, 256, DMA_TO_DEVICE);
	kfree(b);
	want_phys = 0;
}

static void unmap_twice(bool bug)
{
	uint8_t *b = buffer(256);
	dma_addr_t h = map(b, 256, DMA_TO_DEVICE, 0);

	dma_unmap_single(dev, h, 256, DMA_TO_DEVICE);
	if (bug)
		dma_unmap_single(dev, h, 256, DMA_TO_DEVICE);
	kfree(b);
	want_phys = 0;
}

static void unmap_other_size(bool bug)
{
	uint8_t *b = buffer(256);
	dma_addr_t h = map(b, 256, DMA_TO_DEVICE, 0);

	dma_unmap_single(dev, h, bug ? 128 : 256, DMA_TO_DEVICE);
	want_phys = phys_of(b);
	kfree(b);
}

static void unmap_single_as_page(bool bug)
{
	uint8_t *b = buffer(256);
	dma_addr_t h = map(b, 256, DMA_TO_DEVICE, 0);

	if (bug)
		dma_unmap_page(dev, h, 256, DMA_TO_DEVICE);
	else
		dma_unmap_single(dev, h, 256, DMA_TO_DEVICE);
	want_phys = phys_of(b);
	kfree(b);
}

static void unmap_coherent(bool bug)
{
	dma_addr_t h;
	void *c = dma_alloc_coherent(dev, 4096, &h, GFP_KERNEL);

	ck_assert_ptr_nonnull(c);
	if (bug)
		dma_unmap_single(dev, h, 4096, DMA_TO_DEVICE); /* nothing */
	dma_free_coherent(dev, 4096, c, h);
	want_phys = UINT64_MAX; /* the allocation's first byte */
}

static void free_streaming(bool bug)
{
	uint8_t *b = buffer(256);
	dma_addr_t h = map(b, 256, DMA_TO_DEVICE, 0);

	if (bug) /* nothing is freed */
		dma_free_coherent(dev, 256, b, h);
	dma_unmap_single(dev, h, 256, DMA_TO_DEVICE);
	kfree(b);
	want_phys = 0;
}

static void free_other_cpu_address(bool bug)
{
	struct dmaemu_allocation_info ai;
	dma_addr_t h;
	uint8_t *c = dma_alloc_coherent(dev, 4096, &h, GFP_KERNEL);

	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq(dmaemu_device_allocation_find(dd, c, 0, 4096, &ai), 0);
	if (bug) /* nothing is freed */
		dma_free_coherent(dev, 4096, c + 64, h);
	dma_free_coherent(dev, 4096, c, h);
	/* The report names the allocation at that bus address. */
	want_phys = ai.phys;
}

static void unmap_sg_other_count(bool bug)
{
	struct scatterlist sg[2];
	uint8_t *b = buffer(512);

	two_entries(sg, b);
	ck_assert_int_gt(dma_map_sg(dev, sg, 2, DMA_TO_DEVICE), 0);
	dma_unmap_sg(dev, sg, bug ? 1 : 2, DMA_TO_DEVICE);
	want_phys = phys_of(b);
	kfree(b);
}

static void unmap_other_direction(bool bug)
{
	uint8_t *b = buffer(256);
	dma_addr_t h = map(b, 256, DMA_TO_DEVICE, 0);

	dma_unmap_single(dev, h, 256, bug ? DMA_BIDIRECTIONAL : DMA_TO_DEVICE);
	want_phys = phys_of(b);
	kfree(b);
}

static void unmap_unchecked(bool bug)
{
	uint8_t *b = buffer(256);
	dma_addr_t h = dma_map_single(dev, b, 256, DMA_TO_DEVICE);

	if (!bug)
		ck_assert(!dma_mapping_error(dev, h));
	dma_unmap_single(dev, h, 256, DMA_TO_DEVICE);
	want_phys = phys_of(b);
	kfree(b);
}

static void sync_after_unmap(bool bug)
{
	uint8_t *b = buffer(256);
	dma_addr_t h = map(b, 256, DMA_FROM_DEVICE, 0);

	if (!bug)
		dma_sync_single_for_cpu(dev, h, 256, DMA_FROM_DEVICE);
	dma_unmap_single(dev, h, 256, DMA_FROM_DEVICE);
	if (bug)
		dma_sync_single_for_cpu(dev, h, 256, DMA_FROM_DEVICE);
	kfree(b);
	want_phys = 0;
}

static void sync_past_end(bool bug)
{
	uint8_t *b = buffer(512);
	dma_addr_t h = map(b, 256, DMA_FROM_DEVICE, 0);

	dma_sync_single_for_cpu(dev, h, bug ? 257 : 256, DMA_FROM_DEVICE);
	dma_unmap_single(dev, h, 256, DMA_FROM_DEVICE);
	want_phys = phys_of(b);
	kfree(b);
}

/*
 * The buffer mapped twice (the second map skips the CPU sync, so sharing
 * the lines is fine): on the direct backend both handles are equal, and
 * the longer mapping covers the byte past the end of the shorter one.
 * The sync names the shorter mapping's handle: it runs past its end
 * whatever else covers the byte.
 */
static void sync_past_end_covered(bool bug)
{
	uint8_t *b = buffer(2048);
	dma_addr_t h = map(b, 771, DMA_FROM_DEVICE, 0);
	dma_addr_t h2 = map(b, 1024, DMA_FROM_DEVICE, DMA_ATTR_SKIP_CPU_SYNC);

	dma_sync_single_for_cpu(dev, h, bug ? 772 : 771, DMA_FROM_DEVICE);
	/* The unmaps too go by the handle and the size: the shorter one
	 * first, though the longer one is the most recent. */
	dma_unmap_single(dev, h, 771, DMA_FROM_DEVICE);
	dma_unmap_single_attrs(dev, h2, 1024, DMA_FROM_DEVICE,
			       DMA_ATTR_SKIP_CPU_SYNC);
	want_phys = phys_of(b);
	kfree(b);
}

/* A _range_ sync whose offset starts past the end of the handle's
 * mapping, in the next buffer's mapping (on the direct backend, at the
 * next bus address): reported, nothing synced. */
static void sync_range_past_end(bool bug)
{
	uint8_t *b = buffer(2048);
	dma_addr_t h = map(b, 768, DMA_FROM_DEVICE, 0);
	dma_addr_t h2 = map(b + 768, 256, DMA_FROM_DEVICE, 0);

	dma_sync_single_range_for_cpu(dev, h, bug ? 768 : 752, 16,
				      DMA_FROM_DEVICE);
	dma_unmap_single(dev, h2, 256, DMA_FROM_DEVICE);
	dma_unmap_single(dev, h, 768, DMA_FROM_DEVICE);
	want_phys = phys_of(b) + 768;
	kfree(b);
}

static void sync_other_direction(bool bug)
{
	uint8_t *b = buffer(256);
	dma_addr_t h = map(b, 256, DMA_FROM_DEVICE, 0);

	dma_sync_single_for_cpu(dev, h, 256,
				bug ? DMA_TO_DEVICE : DMA_FROM_DEVICE);
	dma_unmap_single(dev, h, 256, DMA_FROM_DEVICE);
	want_phys = phys_of(b);
	kfree(b);
}

/* Linux 4.14 reports another direction as well: two reports. */
static void sync_to_device_for_cpu(bool bug)
{
	uint8_t *b = buffer(256);
	dma_addr_t h = map(b, 256, DMA_TO_DEVICE, 0);

	dma_sync_single_for_cpu(dev, h, 256,
				bug ? DMA_FROM_DEVICE : DMA_TO_DEVICE);
	dma_sync_single_for_device(dev, h, 256, DMA_TO_DEVICE);
	dma_unmap_single(dev, h, 256, DMA_TO_DEVICE);
	want_phys = phys_of(b);
	kfree(b);
}

static void sync_from_device_for_device(bool bug)
{
	uint8_t *b = buffer(256);
	dma_addr_t h = map(b, 256, DMA_FROM_DEVICE, 0);

	dma_sync_single_for_cpu(dev, h, 256, DMA_FROM_DEVICE);
	dma_sync_single_for_device(dev, h, 256,
				   bug ? DMA_TO_DEVICE : DMA_FROM_DEVICE);
	dma_unmap_single(dev, h, 256, DMA_FROM_DEVICE);
	want_phys = phys_of(b);
	kfree(b);
}

/* The right count and the wrong direction: one report, of the direction
 * only (the count is not questioned when it is right). */
static void unmap_sg_other_direction(bool bug)
{
	struct scatterlist sg[2];
	uint8_t *b = buffer(512);

	two_entries(sg, b);
	ck_assert_int_gt(dma_map_sg(dev, sg, 2, DMA_TO_DEVICE), 0);
	dma_unmap_sg(dev, sg, 2, bug ? DMA_BIDIRECTIONAL : DMA_TO_DEVICE);
	want_phys = phys_of(b);
	kfree(b);
}

static void sync_sg_other_count(bool bug)
{
	struct scatterlist sg[2];
	uint8_t *b = buffer(512);

	two_entries(sg, b);
	ck_assert_int_gt(dma_map_sg(dev, sg, 2, DMA_FROM_DEVICE), 0);
	dma_sync_sg_for_cpu(dev, sg, bug ? 1 : 2, DMA_FROM_DEVICE);
	dma_unmap_sg(dev, sg, 2, DMA_FROM_DEVICE);
	want_phys = phys_of(b);
	kfree(b);
}

/* Two receive buffers in one cache line; the twin puts the second one
 * in a line of its own (kmalloc-256 objects start a line). */
static void overlap(bool bug)
{
	uint8_t *b = buffer(256);
	dma_addr_t h1 = map(b, 32, DMA_FROM_DEVICE, 0);
	dma_addr_t h2 = map(b + (bug ? 32 : 128), 32, DMA_FROM_DEVICE, 0);

	dma_unmap_single(dev, h2, 32, DMA_FROM_DEVICE);
	dma_unmap_single(dev, h1, 32, DMA_FROM_DEVICE);
	want_phys = phys_of(b);
	kfree(b);
}

/* A receive buffer mapped inside a larger one: the larger one's lines
 * 8-23 are two groups of eight, the first held by no mapping, the second
 * by the small one from its first line, which the report names.  The twin
 * maps the larger buffer elsewhere in the allocation. */
static void overlap_wide(bool bug)
{
	uint8_t *b = buffer(4096);
	dma_addr_t h1 = map(b + 1024, 256, DMA_FROM_DEVICE, 0);
	dma_addr_t h2 = map(b + (bug ? 512 : 2048), 1024, DMA_FROM_DEVICE, 0);

	dma_unmap_single(dev, h2, 1024, DMA_FROM_DEVICE);
	dma_unmap_single(dev, h1, 256, DMA_FROM_DEVICE);
	want_phys = phys_of(b) + 1024;
	kfree(b);
}

/* Sharing a line is fine when the second map skips the CPU sync, or
 * when one of them is DMA_TO_DEVICE: the twin of this one is overlap's
 * buggy program with the attribute. */
static void overlap_shared(bool bug)
{
	uint8_t *b = buffer(256);
	dma_addr_t h1 = map(b, 32, DMA_FROM_DEVICE, 0);
	dma_addr_t h2 = map(b + 32, 32, DMA_FROM_DEVICE,
			    bug ? 0 : DMA_ATTR_SKIP_CPU_SYNC);
	dma_addr_t h3 = map(b + 64, 64, DMA_TO_DEVICE, 0);

	dma_unmap_single(dev, h3, 64, DMA_TO_DEVICE);
	dma_unmap_single_attrs(dev, h2, 32, DMA_FROM_DEVICE,
			       bug ? 0 : DMA_ATTR_SKIP_CPU_SYNC);
	dma_unmap_single(dev, h1, 32, DMA_FROM_DEVICE);
	want_phys = phys_of(b);
	kfree(b);
}

static void kfree_mapped(bool bug)
{
	uint8_t *b = buffer(256);
	dma_addr_t h = map(b, 256, DMA_TO_DEVICE, 0);

	want_phys = phys_of(b);
	if (bug)
		kfree(b);
	dma_unmap_single(dev, h, 256, DMA_TO_DEVICE);
	if (!bug)
		kfree(b);
}

/* A header kept by the CPU, the payload after it mapped: the whole
 * object is freed. */
static void kfree_tail_mapped(bool bug)
{
	uint8_t *b = buffer(256);
	dma_addr_t h = map(b + 128, 128, DMA_TO_DEVICE, 0);

	want_phys = phys_of(b) + 128;
	if (bug)
		kfree(b);
	dma_unmap_single(dev, h, 128, DMA_TO_DEVICE);
	if (!bug)
		kfree(b);
}

static void free_page_mapped(bool bug)
{
	struct page *page = alloc_page(GFP_KERNEL);
	dma_addr_t h;

	ck_assert_ptr_nonnull(page);
	h = dma_map_page(dev, page, 0, PAGE_SIZE, DMA_TO_DEVICE);
	ck_assert(!dma_mapping_error(dev, h));
	want_phys = phys_of(page_address(page));
	if (bug)
		__free_page(page);
	dma_unmap_page(dev, h, PAGE_SIZE, DMA_TO_DEVICE);
	if (!bug)
		__free_page(page);
}

/* A mapping still live when its device goes away (Linux 4.14:
 * dma_debug_device_change(), "DMA-API: device driver has pending DMA
 * allocations while released from device"). */
static void leak_at_release(bool bug)
{
	uint8_t *b = buffer(256);
	dma_addr_t h = map(b, 256, DMA_FROM_DEVICE, 0);

	want_phys = UINT64_MAX; /* any nonzero address */
	if (!bug)
		dma_unmap_single(dev, h, 256, DMA_FROM_DEVICE);
	dmaemu_device_destroy(dd);
	dd = NULL;
	kfree(b);
}

/* ---------------------------------------------------------------------- */
/* The table                                                              */
/* ---------------------------------------------------------------------- */

struct api_case {
	const char *kind;
	void (*run)(bool bug);
	unsigned int reports; /* of every kind, by the buggy program */
	bool names_mapping;   /* the report says where it was made */
};

static const struct api_case cases[] = {
	{"map-invalid-memory", map_stack, 1, false},
	{"unmap-invalid-address", unmap_error_cookie, 1, false},
	{"unmap-not-mapped", unmap_twice, 1, false},
	{"unmap-size-mismatch", unmap_other_size, 1, true},
	{"unmap-type-mismatch", unmap_single_as_page, 1, true},
	{"unmap-type-mismatch", unmap_coherent, 1, false},
	{"unmap-type-mismatch", free_streaming, 1, false},
	{"free-cpu-address-mismatch", free_other_cpu_address, 1, false},
	{"unmap-sg-count-mismatch", unmap_sg_other_count, 1, true},
	{"unmap-direction-mismatch", unmap_other_direction, 1, true},
	{"unmap-direction-mismatch", unmap_sg_other_direction, 1, true},
	{"mapping-error-not-checked", unmap_unchecked, 1, true},
	{"sync-not-mapped", sync_after_unmap, 1, false},
	{"sync-out-of-range", sync_past_end, 1, true},
	{"sync-out-of-range", sync_past_end_covered, 1, true},
	{"sync-out-of-range", sync_range_past_end, 1, true},
	{"sync-direction-mismatch", sync_other_direction, 1, true},
	{"sync-for-cpu-of-to-device-mapping", sync_to_device_for_cpu, 2, true},
	{"sync-for-device-of-from-device-mapping", sync_from_device_for_device,
	 2, true},
	{"sync-sg-count-mismatch", sync_sg_other_count, 1, true},
	{"overlapping-mappings", overlap, 1, true},
	{"overlapping-mappings", overlap_shared, 1, true},
	{"overlapping-mappings", overlap_wide, 1, true},
	{"free-of-mapped-memory", kfree_mapped, 1, true},
	{"free-of-mapped-memory", kfree_tail_mapped, 1, true},
	{"free-of-mapped-memory", free_page_mapped, 1, true},
	{"leaked-mapping", leak_at_release, 1, true},
};
#define NCASES (int)(sizeof(cases) / sizeof(cases[0]))

static void start(const char *opts)
{
	m = fixture_machine("mem=16M:%s", opts);
	dd = dmaemu_device_create(m, "dev0", NULL, NULL);
	ck_assert_ptr_nonnull(dd);
	dev = dmaemu_device_to_dev(dd);
	ck_assert_int_eq(dma_set_mask_and_coherent(dev, DMA_BIT_MASK(64)), 0);
}

/* The one report of @kind @m made, into @r. */
static void the_report(const char *kind, struct dmaemu_report *r)
{
	uint64_t seq = 0;
	int found = 0;
	struct dmaemu_report x;

	while (!dmaemu_report_next(m, seq, &x)) {
		seq = x.seq;
		if (!strcmp(x.kind_name, kind)) {
			*r = x;
			found++;
		}
	}
	ck_assert_int_eq(found, 1);
}

START_TEST(test_buggy)
{
	const struct api_case *c = &cases[_i / NCONFIGS];
	struct dmaemu_report r;

	start(configs[_i % NCONFIGS]);
	c->run(true);
	ck_assert_msg(
		dmaemu_report_count(m, c->kind) == 1,
		"%s on %s: %llu reports of %s", c->kind, configs[_i % NCONFIGS],
		(unsigned long long)dmaemu_report_count(m, c->kind), c->kind);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), c->reports);
	the_report(c->kind, &r);
	if (want_phys != UINT64_MAX)
		ck_assert_uint_eq(r.phys, want_phys);
	else
		ck_assert_uint_ne(r.phys, 0);
	/* Made inside the driver's call (the frees of mm/ included): its
	 * site is named. */
	ck_assert_str_ne(r.where, "");
	if (!strcmp(c->kind, "free-of-mapped-memory")) {
		ck_assert(strstr(r.text, "kfree of ") ||
			  strstr(r.text, "__free_pages of "));
		/* The mapping it names, as a field too. */
		ck_assert_ptr_nonnull(strstr(r.made_at, "() called from "));
	}
	if (c->names_mapping)
		ck_assert_ptr_nonnull(strstr(r.text, "called from"));
	fixture_finish(&m, &dd, c->reports);
}
END_TEST

START_TEST(test_fixed)
{
	const struct api_case *c = &cases[_i / NCONFIGS];

	start(configs[_i % NCONFIGS]);
	c->run(false);
	ck_assert_msg(dmaemu_report_count(m, NULL) == 0,
		      "the twin of %s on %s: %llu reports", c->kind,
		      configs[_i % NCONFIGS],
		      (unsigned long long)dmaemu_report_count(m, NULL));
	fixture_finish(&m, &dd, 0);
}
END_TEST

/* Every kind of the DMA API debugging checks has its program. */
START_TEST(test_every_kind)
{
	static const char *const kinds[] = {
		"map-invalid-memory",
		"unmap-invalid-address",
		"unmap-not-mapped",
		"unmap-size-mismatch",
		"unmap-type-mismatch",
		"free-cpu-address-mismatch",
		"unmap-sg-count-mismatch",
		"unmap-direction-mismatch",
		"mapping-error-not-checked",
		"sync-not-mapped",
		"sync-out-of-range",
		"sync-direction-mismatch",
		"sync-for-cpu-of-to-device-mapping",
		"sync-for-device-of-from-device-mapping",
		"sync-sg-count-mismatch",
		"overlapping-mappings",
		"free-of-mapped-memory",
	};
	unsigned int k, i, n = 0;

	for (k = 0; k < DMAEMU_REPORT_NKINDS; k++)
		for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
			n += !strcmp(dmaemu_report_kind_name(k), kinds[i]);
	ck_assert_uint_eq(n, sizeof(kinds) / sizeof(kinds[0]));
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		bool have = false;
		int c;

		for (c = 0; c < NCASES; c++)
			have |= !strcmp(cases[c].kind, kinds[i]);
		ck_assert_msg(have, "no program for %s", kinds[i]);
	}
}
END_TEST

/*
 * dma_pool_free() of a block under a live streaming mapping (reported
 * where the block is freed, with the mapping named).  Only where
 * a pool's memory is the cacheable linear map (x86) can a driver map it
 * with dma_map_single(); elsewhere that map is map-invalid-memory.
 */
START_TEST(test_pool_free_mapped)
{
	const bool bug = _i;
	struct dma_pool *pool;
	dma_addr_t ph, h;
	void *blk;

	start("profile=x86");
	pool = dma_pool_create("blocks", dev, 256, 64, 0);
	ck_assert_ptr_nonnull(pool);
	blk = dma_pool_alloc(pool, GFP_KERNEL, &ph);
	ck_assert_ptr_nonnull(blk);
	h = map(blk, 256, DMA_TO_DEVICE, 0);
	if (bug)
		dma_pool_free(pool, blk, ph);
	dma_unmap_single(dev, h, 256, DMA_TO_DEVICE);
	if (!bug)
		dma_pool_free(pool, blk, ph);
	/* The pool's poisoning of the freed block is a CPU write into the
	 * device's buffer besides. */
	ck_assert_uint_eq(dmaemu_report_count(m, "free-of-mapped-memory"), bug);
	ck_assert_uint_eq(dmaemu_report_count(m, "cpu-access-device-owned"),
			  bug);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 2 * bug);
	dma_pool_destroy(pool);
	fixture_finish(&m, &dd, 2 * bug);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("api-debug");
	TCase *tc = tcase_create("api-debug");

	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_buggy, 0, NCASES * NCONFIGS);
	tcase_add_loop_test(tc, test_fixed, 0, NCASES * NCONFIGS);
	tcase_add_test(tc, test_every_kind);
	tcase_add_loop_test(tc, test_pool_free_mapped, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(suite());
}
