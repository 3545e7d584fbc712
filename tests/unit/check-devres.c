// SPDX-License-Identifier: MIT
/*
 * check-devres.c - the bus layer's managed resources (devres, private to
 * lib/: what the dmam_* calls hang on a device): add, remove, release, and
 * where they run in device destroy: newest first, before leaked mappings
 * are looked for, the device model's release last.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/slab.h>

#include "check-run.h"
#include "dma/dma.h"
#include "dmaemu/device.h"
#include "fixture.h"

static struct dmaemu_machine *m;
static uint64_t expected;

static void make(const char *extra)
{
	m = fixture_machine("mem=16M%s%s", extra ? ":" : "",
			    extra ? extra : "");
	expected = 0;
}

static void teardown(void)
{
	fixture_finish(&m, NULL, expected);
}

static void expect(const char *kind, uint64_t n, uint64_t before)
{
	ck_assert_uint_eq(dmaemu_report_count(m, kind) - before, n);
	expected += n;
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), expected);
}

static int order[8], norder;
static size_t live_at_release[8];
static uint64_t leaks_at_release;

static void rel(struct device *dev, void *data)
{
	live_at_release[norder] = dmaemu__mapping_count(dev);
	order[norder++] = (int)(intptr_t)data;
}

static void model_release(struct dmaemu_device *d)
{
	leaks_at_release =
		dmaemu_report_count(dmaemu_device_machine(d), "leaked-mapping");
	order[norder++] = 100;
}

static const struct dmaemu_device_ops model_ops = {.release = model_release};

START_TEST(test_devres_and_destroy_order)
{
	struct dmaemu_device *d;
	struct device *dev;
	uint64_t before;
	uint8_t *buf;

	make(NULL);
	norder = 0;
	d = dmaemu_device_create(m, "dev0", &model_ops, NULL);
	dev = dmaemu_device_to_dev(d);
	ck_assert_int_eq(dmaemu__devres_add(dev, rel, (void *)1), 0);
	ck_assert_int_eq(dmaemu__devres_add(dev, rel, (void *)2), 0);
	ck_assert_int_eq(dmaemu__devres_add(dev, rel, (void *)3), 0);
	ck_assert_int_eq(dmaemu__devres_add(dev, rel, (void *)4), 0);
	ck_assert_int_eq(dmaemu__devres_add(NULL, rel, NULL), -EINVAL);
	/* Forget 2 without running it; run 3 now. */
	ck_assert_int_eq(dmaemu__devres_remove(dev, rel, (void *)2), 0);
	ck_assert_int_eq(dmaemu__devres_remove(dev, rel, (void *)2), -ENOENT);
	ck_assert_int_eq(dmaemu__devres_release(dev, rel, (void *)3), 0);
	ck_assert_int_eq(dmaemu__devres_release(dev, rel, (void *)9), -ENOENT);
	ck_assert_int_eq(norder, 1);
	ck_assert_int_eq(order[0], 3);

	buf = kmalloc(64, GFP_KERNEL);
	ck_assert(!dma_mapping_error(
		dev, dma_map_single(dev, buf, 64, DMA_TO_DEVICE)));
	before = dmaemu_report_count(m, "leaked-mapping");
	dmaemu_device_destroy(d);
	/* devres newest first, before the leaks; the model last. */
	ck_assert_int_eq(norder, 4);
	ck_assert_int_eq(order[1], 4);
	ck_assert_int_eq(order[2], 1);
	ck_assert_int_eq(order[3], 100);
	ck_assert_uint_eq(live_at_release[1], 1);
	ck_assert_uint_eq(live_at_release[2], 1);
	ck_assert_uint_eq(leaks_at_release, before + 1);
	expect("leaked-mapping", 1, before);
	ck_assert_ptr_nonnull(strstr(fixture_log(),
				     "leaked-mapping: device dev0 "
				     "released with a live single "
				     "mapping: 64 bytes "
				     "DMA_TO_DEVICE"));
	kfree(buf);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("devres");
	TCase *tc = tcase_create("devres");

	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, test_devres_and_destroy_order);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(suite());
}
