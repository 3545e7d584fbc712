// SPDX-License-Identifier: MIT
/*
 * check-dma-mask.c - DMA masks and limits: the defaults, dma_supported()
 * against where DRAM lies (and dma_offset), each setter and its errors,
 * dma_coerce_mask_and_coherent(), dma_get_required_mask(),
 * dma_get_cache_alignment(), segment size and boundary.
 *
 * Masks behave the same on every profile; only the machine's layout
 * matters, so the tests vary the layout instead.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/dma-mapping.h>

#include <dmaemu/device.h>
#include <dmaemu/machine.h>
#include <dmaemu/mm.h>
#include <dmaemu/report.h>
#include <dmaemu/testing.h>

#include "check-run.h"

#include "fixture.h"

static struct dmaemu_machine *m;
static struct dmaemu_device *ddev;
static struct device *dev;
static uint64_t expected;

static void mk(const char *opts)
{
	m = fixture_machine("mem=16M%s%s", opts ? ":" : "", opts ? opts : "");
	ddev = dmaemu_device_create(m, "dev0", NULL, NULL);
	ck_assert_ptr_nonnull(ddev);
	dev = dmaemu_device_to_dev(ddev);
	expected = 0;
}

static void setup(void)
{
	mk(NULL);
}

static void teardown(void)
{
	fixture_finish(&m, &ddev, expected);
}

static void remake(const char *opts)
{
	dmaemu_device_destroy(ddev);
	ddev = NULL;
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), expected);
	dmaemu_machine_destroy(m);
	mk(opts);
}

/* Linux's defaults for a new device. */
START_TEST(test_defaults)
{
	ck_assert_ptr_nonnull(dev->dma_mask);
	ck_assert_uint_eq(dma_get_mask(dev), DMA_BIT_MASK(32));
	ck_assert_uint_eq(dev->coherent_dma_mask, DMA_BIT_MASK(32));
	ck_assert_uint_eq(dma_get_max_seg_size(dev), 65536);
	ck_assert_uint_eq(dma_get_seg_boundary(dev), 0xffffffffUL);
	/* No device, no mask storage, or a zero mask: 32 bits. */
	ck_assert_uint_eq(dma_get_mask(NULL), DMA_BIT_MASK(32));
	*dev->dma_mask = 0;
	ck_assert_uint_eq(dma_get_mask(dev), DMA_BIT_MASK(32));
	dev->dma_mask = NULL;
	ck_assert_uint_eq(dma_get_mask(dev), DMA_BIT_MASK(32));
	ck_assert_uint_eq(DMA_BIT_MASK(64), UINT64_MAX);
	ck_assert_uint_eq(DMA_BIT_MASK(24), 0xffffff);
}
END_TEST

/*
 * DRAM at 0x80000000 (the default): a mask must reach it.  31 bits stop
 * just below; 32 bits reach it; 64 bits reach everything.
 */
START_TEST(test_set_mask)
{
	ck_assert_int_eq(dma_supported(dev, DMA_BIT_MASK(31)), 0);
	ck_assert_int_eq(dma_supported(dev, DMA_BIT_MASK(24)), 0);
	ck_assert_int_eq(dma_supported(dev, DMA_BIT_MASK(32)), 1);
	ck_assert_int_eq(dma_supported(dev, DMA_BIT_MASK(64)), 1);
	/* The whole first page must be reachable. */
	ck_assert_int_eq(dma_supported(dev, 0x80000ffeULL), 0);
	ck_assert_int_eq(dma_supported(dev, 0x80000fffULL), 1);

	ck_assert_int_eq(dma_set_mask(dev, DMA_BIT_MASK(64)), 0);
	ck_assert_uint_eq(dma_get_mask(dev), DMA_BIT_MASK(64));
	ck_assert_uint_eq(dev->coherent_dma_mask, DMA_BIT_MASK(32));
	/* Refused: the old mask stays. */
	ck_assert_int_eq(dma_set_mask(dev, DMA_BIT_MASK(31)), -EIO);
	ck_assert_uint_eq(dma_get_mask(dev), DMA_BIT_MASK(64));
	ck_assert_int_eq(dma_set_coherent_mask(dev, DMA_BIT_MASK(24)), -EIO);
	ck_assert_uint_eq(dev->coherent_dma_mask, DMA_BIT_MASK(32));
	ck_assert_int_eq(dma_set_coherent_mask(dev, DMA_BIT_MASK(40)), 0);
	ck_assert_uint_eq(dev->coherent_dma_mask, DMA_BIT_MASK(40));

	ck_assert_int_eq(dma_set_mask_and_coherent(dev, DMA_BIT_MASK(36)), 0);
	ck_assert_uint_eq(dma_get_mask(dev), DMA_BIT_MASK(36));
	ck_assert_uint_eq(dev->coherent_dma_mask, DMA_BIT_MASK(36));
	ck_assert_int_eq(dma_set_mask_and_coherent(dev, DMA_BIT_MASK(30)),
			 -EIO);
	ck_assert_uint_eq(dma_get_mask(dev), DMA_BIT_MASK(36));
	ck_assert_uint_eq(dev->coherent_dma_mask, DMA_BIT_MASK(36));
	/* Refusals are answers, not misuse: nothing reported. */
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 0);
}
END_TEST

/* DRAM from 1 MiB: a 24-bit mask (ISA-style) is fine, 20 bits are not. */
START_TEST(test_low_memory)
{
	remake("mem_base=0x100000");
	ck_assert_int_eq(dma_set_mask_and_coherent(dev, DMA_BIT_MASK(24)), 0);
	ck_assert_int_eq(dma_set_mask(dev, DMA_BIT_MASK(20)), -EIO);
	ck_assert_int_eq(dma_supported(dev, 0x100fffULL), 1);
	ck_assert_int_eq(dma_supported(dev, 0x100ffeULL), 0);
	ck_assert_uint_eq(dma_get_mask(dev), DMA_BIT_MASK(24));
}
END_TEST

/* Without mask storage dma_set_mask() is -EIO; coercing points dma_mask
 * at coherent_dma_mask, after which the two are one. */
START_TEST(test_coerce)
{
	dev->dma_mask = NULL;
	ck_assert_int_eq(dma_set_mask(dev, DMA_BIT_MASK(32)), -EIO);
	ck_assert_int_eq(dma_set_mask_and_coherent(dev, DMA_BIT_MASK(40)),
			 -EIO);
	ck_assert_uint_eq(dev->coherent_dma_mask, DMA_BIT_MASK(32));

	ck_assert_int_eq(dma_coerce_mask_and_coherent(dev, DMA_BIT_MASK(40)),
			 0);
	ck_assert_ptr_eq(dev->dma_mask, &dev->coherent_dma_mask);
	ck_assert_uint_eq(dma_get_mask(dev), DMA_BIT_MASK(40));
	ck_assert_int_eq(dma_set_mask(dev, DMA_BIT_MASK(33)), 0);
	ck_assert_uint_eq(dev->coherent_dma_mask, DMA_BIT_MASK(33));
	ck_assert_int_eq(dma_coerce_mask_and_coherent(dev, DMA_BIT_MASK(16)),
			 -EIO);
	ck_assert_uint_eq(dma_get_mask(dev), DMA_BIT_MASK(33));
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 0);
}
END_TEST

/* The smallest all-ones mask reaching the top of DRAM, per layout. */
static const struct {
	const char *opts;
	u64 mask;
} required[] = {
	{"mem=16M", DMA_BIT_MASK(32)},			 /* top 0x80ffffff */
	{"mem=16M:mem_base=0x100000", DMA_BIT_MASK(25)}, /* 0x010fffff */
	{"mem=8M:mem_base=0x1000000", DMA_BIT_MASK(25)}, /* 0x017fffff */
	{"mem=16M:highmem=16M", DMA_BIT_MASK(33)},	 /* 0x100ffffff */
	{"mem=16M:highmem=16M:highmem_base=0x800000000", DMA_BIT_MASK(36)},
};

START_TEST(test_required_mask)
{
	remake(required[_i].opts);
	ck_assert_uint_eq(dma_get_required_mask(dev), required[_i].mask);
	/* The required mask is always supported. */
	ck_assert_int_eq(dma_set_mask(dev, dma_get_required_mask(dev)), 0);
}
END_TEST

/* dma_offset moves DRAM in bus space: masks are bus addresses. */
START_TEST(test_dma_offset)
{
	remake("mem_base=0x100000:dma_offset=0x80000000");
	ck_assert_int_eq(dma_set_mask(dev, DMA_BIT_MASK(24)), -EIO);
	ck_assert_int_eq(dma_set_mask(dev, DMA_BIT_MASK(31)), -EIO);
	ck_assert_int_eq(dma_set_mask(dev, DMA_BIT_MASK(32)), 0);
	ck_assert_uint_eq(dma_get_required_mask(dev), DMA_BIT_MASK(32));
}
END_TEST

/* ARCH_DMA_MINALIGN of the current machine: its line size by default. */
START_TEST(test_cache_alignment)
{
	/* ARCH_DMA_MINALIGN of Linux 4.14: 128 on arm64 whatever the line,
	 * the line on arm, none (1) on x86. */
	ck_assert_int_eq(dma_get_cache_alignment(), 128);
	remake("cache_line=32:cache_size=16K");
	ck_assert_int_eq(dma_get_cache_alignment(), 128);
	remake("cache_line=256:cache_size=64K");
	ck_assert_int_eq(dma_get_cache_alignment(), 256);
	remake("profile=arm");
	ck_assert_int_eq(dma_get_cache_alignment(), 64);
	remake("profile=x86");
	ck_assert_int_eq(dma_get_cache_alignment(), 1);
	remake("profile=x86:dma_minalign=16");
	ck_assert_int_eq(dma_get_cache_alignment(), 16);
	remake("profile=arm:cache_line=32:cache_size=16K");
	ck_assert_int_eq(dma_get_cache_alignment(), 32);
}
END_TEST

START_TEST(test_segments)
{
	ck_assert_int_eq(dma_set_max_seg_size(dev, 1 << 20), 0);
	ck_assert_uint_eq(dma_get_max_seg_size(dev), 1 << 20);
	ck_assert_int_eq(dma_set_seg_boundary(dev, 0xffff), 0);
	ck_assert_uint_eq(dma_get_seg_boundary(dev), 0xffff);
	ck_assert_int_eq(dma_set_seg_boundary(dev, ~0UL), 0);
	ck_assert_uint_eq(dma_get_seg_boundary(dev), ~0UL);

	/* A boundary mask must be 2^n - 1, at least a page. */
	ck_assert_int_eq(dma_set_seg_boundary(dev, 0x10000), -EINVAL);
	ck_assert_int_eq(dma_set_seg_boundary(dev, 0x7ff), -EINVAL);
	ck_assert_uint_eq(dma_get_seg_boundary(dev), ~0UL);
	ck_assert_uint_eq(dmaemu_report_count(m, "bad-argument"), 2);

	/* No dma_parms: the setters fail, the getters give the defaults. */
	dev->dma_parms = NULL;
	ck_assert_int_eq(dma_set_max_seg_size(dev, 4096), -EIO);
	ck_assert_int_eq(dma_set_seg_boundary(dev, 0xfff), -EIO);
	ck_assert_uint_eq(dma_get_max_seg_size(dev), 65536);
	ck_assert_uint_eq(dma_get_seg_boundary(dev), 0xffffffffUL);
	expected = 2;
}
END_TEST

/* A NULL or foreign device is a bad-argument report and an error. */
START_TEST(test_bad_device)
{
	struct device fake;

	memset(&fake, 0, sizeof(fake));
	ck_assert_int_eq(dma_set_mask(NULL, DMA_BIT_MASK(32)), -EINVAL);
	ck_assert_int_eq(dma_set_coherent_mask(&fake, DMA_BIT_MASK(32)),
			 -EINVAL);
	ck_assert_int_eq(dma_supported(NULL, DMA_BIT_MASK(32)), 0);
	ck_assert_int_eq(dma_coerce_mask_and_coherent(&fake, 0), -EINVAL);
	ck_assert_uint_eq(dma_get_required_mask(NULL), 0);
	ck_assert_int_eq(dma_set_max_seg_size(NULL, 1), -EINVAL);
	ck_assert_uint_eq(dmaemu_report_count(m, "bad-argument"), 6);
	expected = 6;
}
END_TEST

static Suite *mask_suite(void)
{
	Suite *s = suite_create("dma-mask");
	TCase *tc = tcase_create("masks");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_defaults);
	tcase_add_test(tc, test_set_mask);
	tcase_add_test(tc, test_low_memory);
	tcase_add_test(tc, test_coerce);
	tcase_add_loop_test(tc, test_required_mask, 0,
			    sizeof(required) / sizeof(required[0]));
	tcase_add_test(tc, test_dma_offset);
	tcase_add_test(tc, test_cache_alignment);
	tcase_add_test(tc, test_segments);
	tcase_add_test(tc, test_bad_device);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(mask_suite());
}
