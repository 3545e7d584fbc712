// SPDX-License-Identifier: MIT
/*
 * check-dma-device.c - emulated devices: creation and names, the struct
 * device defaults, stale pointers, the order of device destroy (devres
 * itself is tests/unit/check-devres.c), dev_printk(), devices left at machine destroy, and
 * device-side DMA on each profile (snooping on x86, write-combining
 * buffers, translation through the IOMMU).
 *
 * The CPU side uses the explicit accessors of <dmaemu/cpu.h>.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/slab.h>

#include <dmaemu/cpu.h>
#include <dmaemu/device.h>
#include <dmaemu/machine.h>
#include <dmaemu/report.h>
#include <dmaemu/testing.h>

#include "check-run.h"
#include "fixture.h"

#define LINE 64

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

/* ---------------------------------------------------------------------- */

START_TEST(test_create_and_defaults)
{
	struct dmaemu_device *a, *b;
	struct device *dev;
	uint64_t before;
	int priv;

	make(NULL);
	a = dmaemu_device_create(m, "nic0", NULL, &priv);
	ck_assert_ptr_nonnull(a);
	dev = dmaemu_device_to_dev(a);
	ck_assert_ptr_nonnull(dev);
	ck_assert_ptr_eq(dmaemu_dev_to_device(dev), a);
	ck_assert_ptr_eq(dmaemu_device_priv(a), &priv);
	ck_assert_ptr_eq(dmaemu_device_machine(a), m);
	ck_assert_str_eq(dmaemu_device_name(a), "nic0");
	ck_assert_str_eq(dev_name(dev), "nic0");
	ck_assert_ptr_eq(dev->dmaemu, a);
	/* Linux's defaults. */
	ck_assert_ptr_eq(dev->dma_mask, &dev->dmaemu_dma_mask);
	ck_assert_uint_eq(*dev->dma_mask, 0xffffffffULL);
	ck_assert_uint_eq(dev->coherent_dma_mask, 0xffffffffULL);
	ck_assert_ptr_eq(dev->dma_parms, &dev->dmaemu_dma_parms);
	ck_assert_uint_eq(dev->dma_parms->max_segment_size, 65536);
	ck_assert_uint_eq(dev->dma_parms->segment_boundary_mask, 0xffffffffUL);
	ck_assert_ptr_eq(dmaemu_device_machine(dmaemu_dev_to_device(dev)), m);

	/* Names are unique per machine; bad arguments. */
	before = dmaemu_report_count(m, "bad-argument");
	ck_assert_ptr_null(dmaemu_device_create(m, "nic0", NULL, NULL));
	ck_assert_int_eq(errno, EEXIST);
	ck_assert_ptr_null(dmaemu_device_create(m, NULL, NULL, NULL));
	ck_assert_ptr_null(dmaemu_device_create(m, "", NULL, NULL));
	ck_assert_ptr_null(dmaemu_device_create(NULL, "x", NULL, NULL));
	expect("bad-argument", 4, before); /* NULL machine: the current one */
	b = dmaemu_device_create(m, "nic1", NULL, NULL);
	ck_assert_ptr_nonnull(b);

	/* A struct device that is not a device's. */
	{
		struct device fake;

		memset(&fake, 0, sizeof(fake));
		ck_assert_ptr_null(dmaemu_dev_to_device(&fake));
		ck_assert_ptr_null(
			dmaemu_device_machine(dmaemu_dev_to_device(&fake)));
		ck_assert_ptr_null(dmaemu_dev_to_device(NULL));
	}
	dmaemu_device_destroy(a);
	dmaemu_device_destroy(b);
	dmaemu_device_destroy(NULL);
}
END_TEST

START_TEST(test_stale_pointer)
{
	struct dmaemu_device *a;
	struct device *dev;
	uint64_t before;
	uint8_t tmp[8];

	make(NULL);
	a = dmaemu_device_create(m, "gone", NULL, NULL);
	dev = dmaemu_device_to_dev(a);
	dmaemu_device_destroy(a);
	/* Never read through: the pointers are only compared. */
	ck_assert_ptr_null(dmaemu_dev_to_device(dev));
	ck_assert_ptr_null(dmaemu_device_to_dev(a));
	ck_assert_ptr_null(dmaemu_device_name(a));
	ck_assert_ptr_null(dmaemu_device_machine(a));
	before = dmaemu_report_count(m, "bad-argument");
	dmaemu_device_destroy(a);
	ck_assert_int_eq(dmaemu_dma_read(a, 0x80000000, tmp, 8), -EINVAL);
	ck_assert_uint_eq(dma_map_single(dev, tmp, 8, DMA_TO_DEVICE),
			  DMA_MAPPING_ERROR);
	expect("bad-argument", 3, before);
	/* A name can be used again once its device is gone. */
	a = dmaemu_device_create(m, "gone", NULL, NULL);
	ck_assert_ptr_nonnull(a);
	dmaemu_device_destroy(a);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* The order of destroy (devres itself: tests/unit/check-devres.c)        */
/* ---------------------------------------------------------------------- */

static int order[8], norder;
static uint64_t leaks_at_release;

static void model_release(struct dmaemu_device *d)
{
	leaks_at_release =
		dmaemu_report_count(dmaemu_device_machine(d), "leaked-mapping");
	order[norder++] = 100;
}

static const struct dmaemu_device_ops model_ops = {.release = model_release};

/* Devices left at machine destroy are destroyed there, leaks reported. */
START_TEST(test_machine_destroy_releases_devices)
{
	struct dmaemu_device *d;
	struct device *dev;
	uint8_t *buf;

	make(NULL);
	norder = 0;
	d = dmaemu_device_create(m, "left", &model_ops, NULL);
	dev = dmaemu_device_to_dev(d);
	buf = kmalloc(128, GFP_KERNEL);
	ck_assert(!dma_mapping_error(
		dev, dma_map_single(dev, buf, 128, DMA_FROM_DEVICE)));
	ck_assert(!dma_mapping_error(
		dev, dma_map_single(dev, buf, 64, DMA_TO_DEVICE)));
	dmaemu_machine_destroy(m);
	m = NULL;
	ck_assert_int_eq(norder, 1);
	ck_assert_uint_eq(leaks_at_release, 2);
	ck_assert_ptr_nonnull(strstr(fixture_log(), "SUMMARY: dmaemu: "
						    "leaked-mapping"));
	ck_assert_ptr_null(dmaemu_dev_to_device(dev));
}
END_TEST

START_TEST(test_dev_printk)
{
	struct dmaemu_device *d;
	struct device *dev;

	make(NULL);
	d = dmaemu_device_create(m, "eth0", NULL, NULL);
	dev = dmaemu_device_to_dev(d);
	dev_err(dev, "link down after %d retries", 3);
	dev_info(dev, "ring %s\n", "ready");
	ck_assert_str_eq(fixture_log(), "<3>eth0: link down after 3 retries\n"
					"<6>eth0: ring ready\n");
	/* Printing is no report. */
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 0);
	dmaemu_device_destroy(d);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Device-side DMA                                                        */
/* ---------------------------------------------------------------------- */

static unsigned int dirty_bytes(uint64_t lp, unsigned int *changed)
{
	struct dmaemu_line_state st;

	ck_assert_int_eq(dmaemu_line_state(m, lp, &st), 0);
	*changed = dmaemu_line_mask_weight(st.dev_changed);
	return dmaemu_line_mask_weight(st.cpu_dirty);
}

/*
 * Without any mapping (the device model reads and writes where it is
 * told): on x86 the device reads the CPU's dirty data and its writes reach
 * the CPU's copy; on arm/arm64 it reads and writes DRAM only.
 */
START_TEST(test_snoop_by_profile)
{
	static const char *const profiles[] = {"profile=arm", "profile=arm64",
					       "profile=x86"};
	struct dmaemu_device *d;
	uint8_t *buf, in[LINE], out[LINE], cpu[LINE];
	uint64_t phys;
	dma_addr_t h;
	unsigned int changed;
	bool x86 = _i == 2;

	make(profiles[_i]);
	d = dmaemu_device_create(m, "dev0", NULL, NULL);
	/* Cacheable memory the device may reach, with no owner: the
	 * driver makes every sync (DMA_ATTR_NON_CONSISTENT). */
	buf = dma_alloc_attrs(dmaemu_device_to_dev(d), 4096, &h, GFP_KERNEL,
			      DMA_ATTR_NON_CONSISTENT);
	ck_assert_ptr_nonnull(buf);
	phys = virt_to_phys(buf);
	ck_assert_uint_eq(h, phys);
	memset(in, 'B', sizeof(in));
	ck_assert_int_eq(dmaemu_cpu_write(buf, in, LINE), 0);
	ck_assert_uint_eq(dirty_bytes(phys, &changed), LINE);

	ck_assert_int_eq(dmaemu_dma_read(d, phys, out, LINE), 0);
	ck_assert_int_eq(out[0], x86 ? 'B' : 0);
	/* arm, arm64: the device read bytes the CPU never cleaned. */
	ck_assert_uint_eq(dmaemu_report_count(m, "stale-device-read"),
			  x86 ? 0 : 1);
	if (!x86)
		expected += 1;
	ck_assert_uint_eq(dirty_bytes(phys, &changed), x86 ? 0 : LINE);

	memset(in, 'D', sizeof(in));
	ck_assert_int_eq(dmaemu_dma_write(d, phys, in, LINE), 0);
	/* The CPU copy itself (what uninstrumented code reads). */
	memcpy(cpu, dmaemu_phys_view(m, phys, DMAEMU_REGION_LINEAR), LINE);
	ck_assert_int_eq(cpu[0], x86 ? 'D' : 'B');
	dirty_bytes(phys, &changed);
	ck_assert_uint_eq(changed, x86 ? 0 : LINE);
	ck_assert_int_eq(fixture_resident(m, phys), !x86);
	ck_assert_int_eq(dmaemu_cpu_read(out, buf, LINE), 0);
	ck_assert_int_eq(out[0], x86 ? 'D' : 'B');
	if (!x86) /* the stale read, and the device's data still in DRAM */
		expected += 1;
	ck_assert_uint_eq(dmaemu_report_count(m, "stale-cpu-read"),
			  x86 ? 0 : 1);
	dma_free_attrs(dmaemu_device_to_dev(d), 4096, buf, h,
		       DMA_ATTR_NON_CONSISTENT);
	dmaemu_device_destroy(d);
}
END_TEST

/* Write-combined bytes wait in their buffer: the device does not see them
 * until a barrier drains it, and a device write over them loses to the
 * drain, as a buffer draining later would. */
START_TEST(test_device_vs_write_combining)
{
	struct dmaemu_device *d;
	struct device *dev;
	uint8_t *wc, in[16], out[16];
	dma_addr_t h;

	make("profile=arm64");
	d = dmaemu_device_create(m, "fb0", NULL, NULL);
	dev = dmaemu_device_to_dev(d);
	wc = dma_alloc_wc(dev, 4096, &h, GFP_KERNEL);
	ck_assert_ptr_nonnull(wc);
	memset(in, 'W', sizeof(in));
	ck_assert_int_eq(dmaemu_cpu_write(wc, in, 16), 0);
	ck_assert_int_eq(dmaemu_dma_read(d, h, out, 16), 0);
	ck_assert_int_eq(out[0], 0); /* pending, not visible */
	expect("wc-pending-read", 1, 0);
	memset(in, 'V', sizeof(in));
	ck_assert_int_eq(dmaemu_dma_write(d, h + 8, in, 16), 0);
	ck_assert_int_eq(dmaemu_dma_read(d, h, out, 16), 0);
	ck_assert_int_eq(out[0], 0);
	ck_assert_int_eq(out[8], 'V');
	expect("wc-pending-read", 1, 1); /* bytes 0-7 still pending */
	dmaemu_cpu_flush_wc();
	ck_assert_int_eq(dmaemu_dma_read(d, h, out, 16), 0);
	ck_assert_int_eq(out[0], 'W');
	ck_assert_int_eq(out[8], 'W'); /* the drain landed after the device */
	ck_assert_int_eq(out[15], 'W');
	ck_assert_int_eq(dmaemu_dma_read(d, h + 16, out, 8), 0);
	ck_assert_int_eq(out[0], 'V'); /* beyond the CPU's bytes */
	dma_free_wc(dev, 4096, wc, h);
	dmaemu_device_destroy(d);
}
END_TEST

/* With iommu=1 device accesses are translated by the IOMMU: a write into a
 * TO_DEVICE mapping faults and writes nothing. */
START_TEST(test_device_access_through_iommu)
{
	struct dmaemu_device *d;
	struct device *dev;
	uint8_t *buf, in[64], out[64];
	uint64_t before;
	dma_addr_t dma;

	make("iommu=1");
	d = dmaemu_device_create(m, "dev0", NULL, NULL);
	dev = dmaemu_device_to_dev(d);
	buf = kmalloc(64, GFP_KERNEL);
	memset(in, 'T', sizeof(in));
	ck_assert_int_eq(dmaemu_cpu_write(buf, in, 64), 0);
	dma = dma_map_single(dev, buf, 64, DMA_TO_DEVICE);
	ck_assert(!dma_mapping_error(dev, dma));
	ck_assert_uint_ne(dma, virt_to_phys(buf));
	ck_assert_int_eq(dmaemu_dma_read(d, dma, out, 64), 0);
	ck_assert_int_eq(out[0], 'T');
	memset(in, 'X', sizeof(in));
	before = dmaemu_report_count(m, "iommu-fault");
	ck_assert_int_eq(dmaemu_dma_write(d, dma, in, 64), -EFAULT);
	expect("iommu-fault", 1, before);
	ck_assert_int_eq(dmaemu_dma_read(d, dma, out, 64), 0);
	ck_assert_int_eq(out[0], 'T');
	/* The physical address means nothing to the device now. */
	before = dmaemu_report_count(m, "iommu-fault");
	ck_assert_int_eq(dmaemu_dma_read(d, virt_to_phys(buf), out, 8),
			 -EFAULT);
	expect("iommu-fault", 1, before);
	dma_unmap_single(dev, dma, 64, DMA_TO_DEVICE);
	dmaemu_device_destroy(d);
	kfree(buf);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("dma-device");
	TCase *tc = tcase_create("device");

	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, test_create_and_defaults);
	tcase_add_test(tc, test_stale_pointer);
	tcase_add_test(tc, test_machine_destroy_releases_devices);
	tcase_add_test(tc, test_dev_printk);
	tcase_add_loop_test(tc, test_snoop_by_profile, 0, 3);
	tcase_add_test(tc, test_device_vs_write_combining);
	tcase_add_test(tc, test_device_access_through_iommu);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(suite());
}
