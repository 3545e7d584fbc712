// SPDX-License-Identifier: MIT
/*
 * test-rx.c - Check unit tests of the receive path in rx.c, on an
 * emulated arm64 machine whose CPU cache is not coherent with DMA.
 *
 * The test plays the network card: a bare device (no model, no thread)
 * whose DMA writes the test makes with dmaemu_dma_write().  Each test runs
 * on a fresh machine (dmaemu_ck_setup()); dmaemu_ck_teardown() destroys
 * it and fails the test if any report was made that the test did not
 * assert.
 *
 * Set RX_DEMO_FAILURE=1 to add a test that fails on purpose, to see what
 * a report looks like in a failed test.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <dmaemu/check.h>
#include <dmaemu/device.h>
#include <linux/dma-mapping.h>

#include "rx.h"

static struct dmaemu_device *nic;

static void setup_arm64(void)
{
	dmaemu_ck_setup("profile=arm64:mem=16M");
	nic = dmaemu_device_create(dmaemu_ck_machine(), "nic0", NULL, NULL);
	ck_assert_ptr_nonnull(nic);
}

static void setup_x86(void)
{
	dmaemu_ck_setup("profile=x86:mem=16M");
	nic = dmaemu_device_create(dmaemu_ck_machine(), "nic0", NULL, NULL);
	ck_assert_ptr_nonnull(nic);
}

/* The card writes a frame of @len bytes of @c into buffer @i. */
static void card_writes(struct rx_ring *r, unsigned int i, int c, size_t len)
{
	uint8_t frame[1536];

	memset(frame, c, len);
	ck_assert_int_eq(dmaemu_dma_write(nic, rx_buffer_dma(r, i), frame, len),
			 0);
}

static int all(const uint8_t *p, int c, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (p[i] != (uint8_t)c)
			return 0;
	return 1;
}

/* Frames of every size come out right, twice in the same buffer, and the
 * checker has nothing to say. */
START_TEST(test_receive)
{
	struct rx_ring *r = rx_open(dmaemu_device_to_dev(nic), 4, 1536);
	uint8_t out[1536];

	ck_assert_ptr_nonnull(r);
	card_writes(r, 0, 0xa1, 60);
	ck_assert_int_eq(rx_receive(r, 0, out, 60), 60);
	ck_assert(all(out, 0xa1, 60));
	card_writes(r, 0, 0xa2, 1514);
	ck_assert_int_eq(rx_receive(r, 0, out, 1514), 1514);
	ck_assert(all(out, 0xa2, 1514));
	dmaemu_ck_assert_no_reports();
	rx_close(r);
}
END_TEST

/* Bad arguments are refused before any DMA call. */
START_TEST(test_receive_bad_index)
{
	struct rx_ring *r = rx_open(dmaemu_device_to_dev(nic), 2, 256);
	uint8_t out[512];

	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(rx_receive(r, 2, out, 16), -EINVAL);
	ck_assert_int_eq(rx_receive(r, 0, out, 512), -EINVAL);
	rx_close(r);
}
END_TEST

/* The fast path for small frames skips dma_sync_single_for_cpu(): the
 * second frame in a buffer is read from the CPU's stale cached copy of
 * the first.  The checker reports it, in that buffer. */
START_TEST(test_small_frame_is_stale)
{
	struct rx_ring *r = rx_open(dmaemu_device_to_dev(nic), 1, 256);
	uint8_t out[64];

	ck_assert_ptr_nonnull(r);
	card_writes(r, 0, 0x11, 64);
	ck_assert_int_eq(rx_receive_small(r, 0, out, 64), 64);
	ck_assert(all(out, 0x11, 64)); /* the line was not cached yet */
	/* Right by luck: the buffer is still the device's. */
	dmaemu_ck_assert_report_in(DMAEMU_REPORT_CPU_ACCESS_DEVICE_OWNED,
				   rx_buffer(r, 0), 64);
	dmaemu_ck_assert_no_reports();

	card_writes(r, 0, 0x22, 64);
	ck_assert_int_eq(rx_receive_small(r, 0, out, 64), 64);
	ck_assert(all(out, 0x11, 64)); /* stale: the old frame */
	dmaemu_ck_assert_report_in(DMAEMU_REPORT_STALE_CPU_READ,
				   rx_buffer(r, 0), 64);
	dmaemu_ck_assert_no_reports();
	rx_close(r);
}
END_TEST

/* On x86 the device snoops the cache: the same code gets the right data,
 * and the checker still names the reads of a buffer the device owns. */
START_TEST(test_small_frame_x86)
{
	struct rx_ring *r = rx_open(dmaemu_device_to_dev(nic), 1, 256);
	uint8_t out[64];

	ck_assert_ptr_nonnull(r);
	card_writes(r, 0, 0x11, 64);
	ck_assert_int_eq(rx_receive_small(r, 0, out, 64), 64);
	card_writes(r, 0, 0x22, 64);
	ck_assert_int_eq(rx_receive_small(r, 0, out, 64), 64);
	ck_assert(all(out, 0x22, 64));
	dmaemu_ck_assert_report_in(DMAEMU_REPORT_CPU_ACCESS_DEVICE_OWNED,
				   rx_buffer(r, 0), 64);
	dmaemu_ck_assert_no_reports();
	rx_close(r);
}
END_TEST

/* A ring never closed: destroying the device reports each live mapping. */
START_TEST(test_leak_is_reported)
{
	struct rx_ring *r = rx_open(dmaemu_device_to_dev(nic), 3, 256);

	ck_assert_ptr_nonnull(r);
	dmaemu_device_destroy(nic);
	nic = NULL;
	dmaemu_ck_assert_reports(DMAEMU_REPORT_LEAKED_MAPPING, 3);
	/* The driver's memory is the machine's: freed with it. */
}
END_TEST

/* With fail-on-report, the first report fails the test, quoting it. */
START_TEST(test_demo_failure)
{
	struct rx_ring *r = rx_open(dmaemu_device_to_dev(nic), 1, 256);
	uint8_t out[64];

	dmaemu_ck_fail_on_report(true);
	ck_assert_ptr_nonnull(r);
	card_writes(r, 0, 0x11, 64);
	rx_receive_small(r, 0, out, 64);
	card_writes(r, 0, 0x22, 64);
	rx_receive_small(r, 0, out, 64);
	dmaemu_ck_checkpoint(); /* fails here, quoting the first report */
	rx_close(r);
}
END_TEST

static Suite *rx_suite(void)
{
	Suite *s = suite_create("rx");
	TCase *tc = tcase_create("arm64");
	TCase *x86 = tcase_create("x86");

	tcase_add_checked_fixture(tc, setup_arm64, dmaemu_ck_teardown);
	tcase_add_test(tc, test_receive);
	tcase_add_test(tc, test_receive_bad_index);
	tcase_add_test(tc, test_small_frame_is_stale);
	tcase_add_test(tc, test_leak_is_reported);
	if (getenv("RX_DEMO_FAILURE"))
		tcase_add_test(tc, test_demo_failure);
	suite_add_tcase(s, tc);

	tcase_add_checked_fixture(x86, setup_x86, dmaemu_ck_teardown);
	tcase_add_test(x86, test_receive);
	tcase_add_test(x86, test_small_frame_x86);
	suite_add_tcase(s, x86);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(rx_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
