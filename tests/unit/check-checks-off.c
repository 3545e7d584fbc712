// SPDX-License-Identifier: MIT
/*
 * check-checks-off.c - checks= turns the coherence checks off, not just
 * their reports (docs/options.md, "Report policy"): the ownership check
 * of device accesses and CPU accesses, the stale-device-read search and
 * the noting of the CPU's stores into a mapped buffer leave no trace (the last ownership result, dmaemu__own_last(), which
 * the checks set before they report), whereas a suppressed report's
 * check was made; and the family of every report kind.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check-run.h"
#include "dma/dma.h"
#include "dmaemu/cpu.h"
#include "dmaemu/device.h"
#include "fixture.h"

#include <linux/dma-mapping.h>
#include <linux/slab.h>

/* The device writes a mapped buffer the CPU owns and wrote:
 * device-access-cpu-owned when the check is made. */
static void device_writes_cpu_owned(struct dmaemu_device *dd)
{
	struct device *dev = dmaemu_device_to_dev(dd);
	uint8_t *buf = kmalloc(256, GFP_KERNEL), data[8] = {7};
	dma_addr_t h;

	ck_assert_ptr_nonnull(buf);
	h = dma_map_single(dev, buf, 256, DMA_FROM_DEVICE);
	ck_assert(!dma_mapping_error(dev, h));
	dma_sync_single_for_cpu(dev, h, 256, DMA_FROM_DEVICE);
	buf[0] = 9; /* the CPU writes it: the line is not given back */
	ck_assert_int_eq(dmaemu_dma_write(dd, h, data, 8), 0);
	dma_unmap_single(dev, h, 256, DMA_FROM_DEVICE);
	kfree(buf);
}

/* The CPU dirties DMA_ATTR_NON_CONSISTENT memory and the device reads
 * it with no dma_cache_sync(): stale-device-read when the search is
 * made. */
static void device_reads_dirty(struct dmaemu_device *dd)
{
	const unsigned long nc = DMA_ATTR_NON_CONSISTENT;
	struct device *dev = dmaemu_device_to_dev(dd);
	dma_addr_t h;
	uint8_t *buf = dma_alloc_attrs(dev, 4096, &h, GFP_KERNEL, nc);
	uint8_t data[64];

	ck_assert_ptr_nonnull(buf);
	memset(data, 0x5a, sizeof(data));
	ck_assert_int_eq(dmaemu_cpu_write(buf, data, 64), 0);
	ck_assert_int_eq(dmaemu_dma_read(dd, h, data, 64), 0);
	dma_free_attrs(dev, 4096, buf, h, nc);
}

/* The CPU reads a buffer the device owns: cpu-access-device-owned. */
static void cpu_reads_device_owned(struct dmaemu_device *dd)
{
	struct device *dev = dmaemu_device_to_dev(dd);
	uint8_t *buf = kmalloc(256, GFP_KERNEL), back[8];
	dma_addr_t h;

	ck_assert_ptr_nonnull(buf);
	h = dma_map_single(dev, buf, 256, DMA_FROM_DEVICE);
	ck_assert(!dma_mapping_error(dev, h));
	ck_assert_int_eq(dmaemu_cpu_read(back, buf, 8), 0);
	dma_unmap_single(dev, h, 256, DMA_FROM_DEVICE);
	kfree(buf);
}

/* The CPU stores into a received buffer it owns, then gives it back for
 * DMA_FROM_DEVICE: lost-cpu-write when the stores were noted. */
static void cpu_store_recycled(struct dmaemu_device *dd)
{
	struct device *dev = dmaemu_device_to_dev(dd);
	uint8_t *buf = kmalloc(256, GFP_KERNEL), zero[4] = {0};
	dma_addr_t h;

	ck_assert_ptr_nonnull(buf);
	h = dma_map_single(dev, buf, 256, DMA_FROM_DEVICE);
	ck_assert(!dma_mapping_error(dev, h));
	dma_sync_single_for_cpu(dev, h, 256, DMA_FROM_DEVICE);
	ck_assert_int_eq(dmaemu_cpu_write(buf + 8, zero, 4), 0);
	dma_sync_single_for_device(dev, h, 256, DMA_FROM_DEVICE);
	dma_unmap_single(dev, h, 256, DMA_FROM_DEVICE);
	kfree(buf);
}

typedef void access_fn(struct dmaemu_device *dd);

static const struct {
	access_fn *fn;
	enum dmaemu_report_kind kind;
} accesses[] = {
	{device_writes_cpu_owned, DMAEMU_REPORT_DEVICE_ACCESS_CPU_OWNED},
	{device_reads_dirty, DMAEMU_REPORT_STALE_DEVICE_READ},
	{cpu_reads_device_owned, DMAEMU_REPORT_CPU_ACCESS_DEVICE_OWNED},
	{cpu_store_recycled, DMAEMU_REPORT_LOST_CPU_WRITE},
};

/* @opts: the checks are made (own_last names the kind) or not; and the
 * report counted, suppressed or neither. */
static void run_access(unsigned int i, const char *opts, bool made,
		       bool counted)
{
	struct dmaemu_machine *m =
		fixture_machine("profile=arm64:mem=16M%s", opts);
	struct dmaemu_device *dd = dmaemu_device_create(m, "dev0", NULL, NULL);
	const char *kind = dmaemu_report_kind_name(accesses[i].kind);
	struct dmaemu__own_last last;

	ck_assert_ptr_nonnull(dd);
	ck_assert_int_eq(dmaemu__own_last(m, &last), -ENOENT);
	accesses[i].fn(dd);
	if (made) {
		ck_assert_int_eq(dmaemu__own_last(m, &last), 0);
		ck_assert_int_eq(last.kind, accesses[i].kind);
	} else {
		ck_assert_int_eq(dmaemu__own_last(m, &last), -ENOENT);
	}
	ck_assert_uint_eq(dmaemu_report_count(m, kind), counted ? 1 : 0);
	ck_assert_uint_eq(dmaemu_report_suppressed(m, kind),
			  made && !counted ? 1 : 0);
	fixture_finish(&m, &dd, counted ? 1 : 0);
}

START_TEST(test_checks_all)
{
	run_access((unsigned int)_i, "", true, true);
}
END_TEST

START_TEST(test_checks_off)
{
	run_access((unsigned int)_i, ":checks=-coherence", false, false);
	run_access((unsigned int)_i, ":checks=none", false, false);
	run_access((unsigned int)_i, ":checks=api,platform", false, false);
}
END_TEST

/* A suppression keeps the report quiet; the check was made. */
START_TEST(test_suppressed)
{
	char path[256], opts[300];
	FILE *f;
	int fd;

	snprintf(path, sizeof(path), "%s/checks-off-XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "kind:%s\n", dmaemu_report_kind_name(accesses[_i].kind));
	fclose(f);
	snprintf(opts, sizeof(opts), ":suppressions=%s", path);
	run_access((unsigned int)_i, opts, true, false);
	unlink(path);
}
END_TEST

/*
 * A device read of a buffer nobody mapped: with the coherence checks on
 * it is refused (device-access-unmapped), suppressed or not; off, it
 * lands as it would on a bus with no IOMMU, with no report.
 */
START_TEST(test_unmapped)
{
	const char *kind = "device-access-unmapped";
	char path[256], o[300];
	struct dmaemu_machine *m;
	struct dmaemu_device *dd;
	uint8_t *buf, data[64];
	FILE *f;
	int fd;

	snprintf(path, sizeof(path), "%s/checks-off-XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "kind:%s\n", kind);
	fclose(f);
	snprintf(o, sizeof(o), "%s%s",
		 _i == 0   ? ""
		 : _i == 1 ? ":checks=-coherence"
			   : ":suppressions=",
		 _i == 2 ? path : "");
	m = fixture_machine("profile=arm64:mem=16M%s", o);
	dd = dmaemu_device_create(m, "dev0", NULL, NULL);
	ck_assert_ptr_nonnull(dd);
	buf = kmalloc(64, GFP_KERNEL);
	ck_assert_ptr_nonnull(buf);
	ck_assert_int_eq(dmaemu_dma_read(dd, virt_to_phys(buf), data, 64),
			 _i == 1 ? 0 : -EFAULT);
	ck_assert_uint_eq(dmaemu_report_count(m, kind), _i == 0);
	ck_assert_uint_eq(dmaemu_report_suppressed(m, kind), _i == 2);
	kfree(buf);
	unlink(path);
	fixture_finish(&m, &dd, _i == 0);
}
END_TEST

/* The family of every kind: the table's, and api for every other. */
START_TEST(test_families)
{
	static const char *const coherence[] = {
		"stale-cpu-read",
		"lost-device-write",
		"lost-cpu-write",
		"cpu-access-device-owned",
		"device-access-cpu-owned",
		"stale-device-read",
		"wc-pending-read",
		"device-access-unmapped",
		"device-write-to-device-mapping",
		"missing-write-barrier",
		"missing-read-barrier",
		"shared-line-store",
	};
	static const char *const platform[] = {
		"sleep-in-atomic", "mmio-access", "leaked-irq",
		"unhandled-irq",   "irq-storm",	  "kernel-warning",
	};
	static const char *const errors[] = {
		"bad-argument",	   "alloc-failure", "bad-free",
		"pool-corruption", "pool-busy",	    "swiotlb-full",
		"iommu-fault",	   "dma-fault",	    "lockstep-deadlock",
		"kernel-bug",	   "hung-wait",
	};
	unsigned int k, i, n[DMAEMU__CHECK_NFAMILIES + 1] = {0};

	for (k = 0; k < DMAEMU_REPORT_NKINDS; k++) {
		const char *name = dmaemu_report_kind_name(k);
		enum dmaemu__check_family want = DMAEMU__CHECK_API;

		for (i = 0; i < sizeof(coherence) / sizeof(coherence[0]); i++)
			if (!strcmp(name, coherence[i]))
				want = DMAEMU__CHECK_COHERENCE;
		for (i = 0; i < sizeof(platform) / sizeof(platform[0]); i++)
			if (!strcmp(name, platform[i]))
				want = DMAEMU__CHECK_PLATFORM;
		for (i = 0; i < sizeof(errors) / sizeof(errors[0]); i++)
			if (!strcmp(name, errors[i]))
				want = DMAEMU__CHECK_ERRORS;
		ck_assert_msg(dmaemu__check_family_of(k) == want, "%s", name);
		n[want]++;
	}
	/* Every name above is a kind. */
	ck_assert_uint_eq(n[DMAEMU__CHECK_COHERENCE], 12);
	ck_assert_uint_eq(n[DMAEMU__CHECK_PLATFORM], 6);
	ck_assert_uint_eq(n[DMAEMU__CHECK_ERRORS], 11);
	ck_assert_uint_ge(n[DMAEMU__CHECK_API], 1);
	ck_assert_str_eq(dmaemu__check_family_name(DMAEMU__CHECK_API), "api");
	ck_assert_ptr_null(dmaemu__check_family_name(DMAEMU__CHECK_NFAMILIES));
}
END_TEST

static Suite *checks_off_suite(void)
{
	Suite *s = suite_create("checks-off");
	TCase *tc = tcase_create("checks-off");
	int n = (int)(sizeof(accesses) / sizeof(accesses[0]));

	tcase_add_checked_fixture(tc, NULL, fixture_teardown);
	tcase_add_loop_test(tc, test_checks_all, 0, n);
	tcase_add_loop_test(tc, test_checks_off, 0, n);
	tcase_add_loop_test(tc, test_suppressed, 0, n);
	tcase_add_test(tc, test_families);
	tcase_add_loop_test(tc, test_unmapped, 0, 3);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(checks_off_suite());
}
