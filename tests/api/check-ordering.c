// SPDX-License-Identifier: MIT
/*
 * check-ordering.c - ordering between the CPU and devices on coherent
 * memory (docs/ordering.md): missing-write-barrier and
 * missing-read-barrier on a bare device, each case where the barriers are
 * right and nothing is reported, the x86 portability notes, and the
 * options ordering= and portability_notes=.
 *
 * The test thread plays both sides: the driver, with READ_ONCE(),
 * WRITE_ONCE() and the barrier macros on a dma_alloc_coherent() buffer,
 * and the device, with dmaemu_dma_read()/dmaemu_dma_write() and a
 * register window whose writes are the doorbell.  The checks go by the
 * order of events, so one thread shows them as well as two.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <asm/barrier.h>
#include <linux/compiler.h>
#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/io.h>
#include <linux/spinlock.h>

#include <dmaemu/device.h>
#include <dmaemu/machine.h>
#include <dmaemu/report.h>

#include "check-run.h"
#include "fixture.h"

#define OWN 0x80000000u

static struct dmaemu_machine *m;
static struct dmaemu_device *dd;
static struct device *dev;
static uint32_t *ring; /* coherent: word 0 addr, 1 status, 2 len, 3 done */
static dma_addr_t ring_dma;
static void __iomem *regs;
static uint64_t expected;

static void doorbell(struct dmaemu_device *d, uint64_t off, uint64_t val,
		     unsigned int size)
{
	(void)d;
	(void)off;
	(void)val;
	(void)size;
}

static uint64_t regs_read(struct dmaemu_device *d, uint64_t off,
			  unsigned int size)
{
	(void)d;
	(void)off;
	(void)size;
	return 0;
}

static const struct dmaemu_device_ops ops = {
	.mmio_size = 64,
	.mmio_read = regs_read,
	.mmio_write = doorbell,
	.name = "ring",
};

static void make(const char *opts)
{
	m = fixture_machine("mem=16M%s%s", opts ? ":" : "", opts ? opts : "");
	dd = dmaemu_device_create(m, "dev0", &ops, NULL);
	ck_assert_ptr_nonnull(dd);
	dev = dmaemu_device_to_dev(dd);
	regs = dmaemu_device_regs(dd);
	ring = dma_alloc_coherent(dev, 4096, &ring_dma, GFP_KERNEL);
	ck_assert_ptr_nonnull(ring);
	expected = 0;
}

static void teardown(void)
{
	if (ring)
		dma_free_coherent(dev, 4096, ring, ring_dma);
	ring = NULL;
	fixture_finish(&m, &dd, expected);
}

/* The device reads word @i (and @n words from there). */
static void dev_read(unsigned int i, unsigned int n)
{
	uint32_t buf[8];

	ck_assert_int_eq(dmaemu_dma_read(dd, ring_dma + 4 * i, buf, 4 * n), 0);
}

/* The word @i as the device reads it. */
static uint32_t dev_word(unsigned int i)
{
	uint32_t v;

	ck_assert_int_eq(dmaemu_dma_read(dd, ring_dma + 4 * i, &v, 4), 0);
	return v;
}

static void dev_write(unsigned int i, uint32_t v)
{
	ck_assert_int_eq(dmaemu_dma_write(dd, ring_dma + 4 * i, &v, 4), 0);
}

static void expect(const char *kind, uint64_t n)
{
	expected += n;
	ck_assert_uint_eq(dmaemu_report_count(m, kind), n);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), expected);
}

/* The newest recorded report. */
static struct dmaemu_report *last(void)
{
	static struct dmaemu_report r;
	unsigned int n = dmaemu_report_kept(m);

	ck_assert_uint_gt(n, 0);
	ck_assert_int_eq(dmaemu_report_get(m, n - 1, &r), 0);
	return &r;
}

/* The driver fills a descriptor: address, then the OWN bit. */
static void fill_no_barrier(void)
{
	WRITE_ONCE(ring[0], 0x1000);
	WRITE_ONCE(ring[1], OWN);
}

/* ---------------------------------------------------------------------- */
/* missing-write-barrier                                                  */
/* ---------------------------------------------------------------------- */

START_TEST(test_write_one_read)
{
	struct dmaemu_report *r;

	make(NULL);
	fill_no_barrier();
	dev_read(0, 2); /* the whole descriptor at once */
	expect("missing-write-barrier", 1);
	r = last();
	ck_assert_int_eq(r->severity, DMAEMU_SEVERITY_ERROR);
	ck_assert_ptr_nonnull(strstr(r->text, "==ERROR: dmaemu: "
					      "missing-write-barrier"));
	ck_assert_ptr_nonnull(strstr(r->text, "fix: dma_wmb() between the "
					      "two stores"));
	ck_assert_ptr_nonnull(strstr(r->text, "first store at "));
	ck_assert_ptr_nonnull(strstr(r->text, "device dev0 read of 8 bytes"));
	/* The report names the second store's line: here, not the
	 * WRITE_ONCE() inlined there. */
	ck_assert_ptr_nonnull(strstr(r->where, "check-ordering.c"));
	ck_assert_ptr_nonnull(
		strstr(r->text, "first store at fill_no_barrier"));
}
END_TEST

START_TEST(test_write_two_reads)
{
	make(NULL);
	fill_no_barrier();
	dev_read(1, 1); /* B: the OWN bit */
	expect("missing-write-barrier", 0);
	dev_read(0, 1); /* A, stored before B with no barrier */
	expect("missing-write-barrier", 1);
}
END_TEST

/* Whatever happens after, the finding is made at the device's read: a
 * barrier the CPU makes later does not hide it. */
START_TEST(test_write_late_barrier)
{
	make(NULL);
	fill_no_barrier();
	dev_read(1, 1);
	wmb();
	dev_read(0, 1);
	expect("missing-write-barrier", 1);
}
END_TEST

START_TEST(test_write_dma_wmb)
{
	make(NULL);
	WRITE_ONCE(ring[0], 0x1000);
	dma_wmb();
	WRITE_ONCE(ring[1], OWN);
	dev_read(1, 1);
	dev_read(0, 1);
	dev_read(0, 2);
	expect("missing-write-barrier", 0);
}
END_TEST

START_TEST(test_write_store_release)
{
	make(NULL);
	WRITE_ONCE(ring[0], 0x1000);
	smp_store_release(&ring[1], OWN);
	dev_read(0, 2);
	expect("missing-write-barrier", 0);
}
END_TEST

/* writel() has a wmb() first: the descriptor reaches the device before
 * the doorbell, whatever the order between its own stores. */
START_TEST(test_write_writel_doorbell)
{
	make(NULL);
	fill_no_barrier();
	writel(1, regs);
	dev_read(0, 2);
	dev_read(1, 1);
	dev_read(0, 1);
	expect("missing-write-barrier", 0);
}
END_TEST

START_TEST(test_write_relaxed_doorbell)
{
	struct dmaemu_report *r;

	make(NULL);
	WRITE_ONCE(ring[0], 0x1000);
	dma_wmb();
	WRITE_ONCE(ring[1], OWN);
	writel_relaxed(1, regs);
	dev_read(0, 2);
	expect("missing-write-barrier", 1);
	r = last();
	ck_assert_ptr_nonnull(strstr(r->text, "relaxed doorbell"));
	ck_assert_ptr_nonnull(strstr(r->text, "fix: wmb() between the store "
					      "and the doorbell"));
}
END_TEST

START_TEST(test_write_wmb_relaxed_doorbell)
{
	make(NULL);
	WRITE_ONCE(ring[0], 0x1000);
	dma_wmb();
	WRITE_ONCE(ring[1], OWN);
	wmb();
	writel_relaxed(1, regs);
	dev_read(0, 2);
	expect("missing-write-barrier", 0);
}
END_TEST

/*
 * Two descriptors, each rung with its own writel_relaxed(), no barrier in
 * between: the second descriptor's stores come after the first doorbell
 * but before the second, in the same write generation.  The device reads
 * the second one after the second doorbell: those stores are not ordered
 * before that doorbell.  With a wmb() before each doorbell, nothing.
 */
START_TEST(test_write_second_relaxed_doorbell)
{
	struct dmaemu_report *r;
	int barrier;

	for (barrier = 0; barrier < 2; barrier++) {
		make(NULL);
		WRITE_ONCE(ring[0], 0x1000);
		WRITE_ONCE(ring[1], OWN);
		if (barrier)
			wmb();
		writel_relaxed(1, regs);
		WRITE_ONCE(ring[4], 0x2000);
		WRITE_ONCE(ring[5], OWN);
		if (barrier)
			wmb();
		writel_relaxed(2, regs);
		dev_read(4, 2);
		expect("missing-write-barrier", barrier ? 0 : 1);
		if (!barrier) {
			r = last();
			ck_assert_ptr_nonnull(
				strstr(r->text, "relaxed doorbell"));
			ck_assert_ptr_nonnull(
				strstr(r->text, "fix: wmb() between the store "
						"and the doorbell"));
			ck_assert_ptr_nonnull(
				strstr(r->where, "check-ordering.c"));
		}
		teardown();
	}
	make(NULL);
}
END_TEST

/* mb() orders stores as wmb() does (it is both barriers). */
START_TEST(test_write_mb)
{
	make(NULL);
	WRITE_ONCE(ring[0], 0x1000);
	mb();
	WRITE_ONCE(ring[1], OWN);
	dev_read(1, 1);
	dev_read(0, 1);
	dev_read(0, 2);
	expect("missing-write-barrier", 0);
}
END_TEST

/* Stores the device never reads need no order. */
START_TEST(test_write_never_read)
{
	make(NULL);
	fill_no_barrier();
	WRITE_ONCE(ring[8], 1);
	WRITE_ONCE(ring[9], 2);
	dev_read(9, 1);
	dev_read(16, 4);
	expect("missing-write-barrier", 0);
}
END_TEST

/* A store the device wrote over since is not the CPU's any more. */
START_TEST(test_write_device_overwrote)
{
	make(NULL);
	fill_no_barrier();
	dev_write(0, 7);
	dev_read(1, 1);
	dev_read(0, 1);
	expect("missing-write-barrier", 0);
}
END_TEST

/* A lock released after the stores orders them for whoever rings the
 * doorbell after taking it. */
START_TEST(test_write_lock_orders)
{
	static DEFINE_SPINLOCK(lock);

	make(NULL);
	spin_lock(&lock);
	fill_no_barrier();
	spin_unlock(&lock);
	dev_read(1, 1);
	dev_read(0, 1);
	expect("missing-write-barrier", 0);
}
END_TEST

/*
 * The data: on arm64 a store with no barrier before a later one the
 * device sees may not have drained when the device reads it; the seed
 * decides.  Over a sweep of seeds some reads get the old address with
 * the new OWN bit, some the new address; every one is reported.  With
 * dma_wmb(), and on x86 (TSO), no seed gives the old address.
 */
static unsigned int old_addr_seeds(const char *profile, bool barrier,
				   unsigned int seeds)
{
	unsigned int seed, old = 0;
	uint32_t v[2];
	char opts[64];

	for (seed = 1; seed <= seeds; seed++) {
		snprintf(opts, sizeof(opts), "profile=%s:seed=%u", profile,
			 seed);
		make(opts);
		WRITE_ONCE(ring[0], 0x1000);
		if (barrier)
			dma_wmb();
		WRITE_ONCE(ring[1], OWN);
		ck_assert_int_eq(dmaemu_dma_read(dd, ring_dma, v, sizeof(v)),
				 0);
		ck_assert_uint_eq(v[1], OWN);
		ck_assert(v[0] == 0x1000 || v[0] == 0);
		old += v[0] == 0;
		expect("missing-write-barrier", barrier ? 0 : 1);
		teardown();
	}
	return old;
}

/*
 * A barrier made after the device saw B drains A: the device's read of A
 * is still the finding (the order was wrong), but in no seed does it get
 * A's old value, which is memory's no more.  Without that barrier some
 * seed does.
 */
START_TEST(test_data_drained_late)
{
	unsigned int seed, old[2] = {0, 0};
	int barrier;
	char opts[32];

	for (barrier = 0; barrier < 2; barrier++) {
		for (seed = 1; seed <= 32; seed++) {
			snprintf(opts, sizeof(opts), "seed=%u", seed);
			make(opts);
			fill_no_barrier();
			dev_read(1, 1);
			if (barrier)
				wmb();
			old[barrier] += dev_word(0) != 0x1000;
			expect("missing-write-barrier", 1);
			teardown();
		}
	}
	ck_assert_uint_gt(old[0], 0);
	ck_assert_uint_eq(old[1], 0);
	make(NULL);
}
END_TEST

START_TEST(test_data_effect)
{
	unsigned int old = old_addr_seeds("arm64", false, 32), seed;
	char opts[32];
	uint32_t v[2];

	ck_assert_uint_gt(old, 0);
	ck_assert_uint_lt(old, 32);
	ck_assert_uint_eq(old_addr_seeds("arm64", true, 32), 0);
	ck_assert_uint_eq(old_addr_seeds("x86", false, 32), 0);
	/* A barrier drains the stores: the device gets them, in any seed. */
	for (seed = 1; seed <= 8; seed++) {
		snprintf(opts, sizeof(opts), "seed=%u", seed);
		make(opts);
		fill_no_barrier();
		wmb();
		ck_assert_int_eq(dmaemu_dma_read(dd, ring_dma, v, sizeof(v)),
				 0);
		ck_assert_uint_eq(v[0], 0x1000);
		expect("missing-write-barrier", 0);
		teardown();
	}
	make(NULL);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* missing-read-barrier                                                   */
/* ---------------------------------------------------------------------- */

/* The device completes a descriptor: its length, then the done word. */
static void complete_desc(void)
{
	dev_write(2, 60);
	dev_write(3, 1);
}

START_TEST(test_read_no_barrier)
{
	struct dmaemu_report *r;
	uint32_t done, len;

	make(NULL);
	rmb(); /* what came before is old */
	complete_desc();
	done = READ_ONCE(ring[3]);
	len = READ_ONCE(ring[2]);
	ck_assert_uint_eq(done, 1);
	/* The second load may have been satisfied first (the seed). */
	ck_assert(len == 60 || len == 0);
	expect("missing-read-barrier", 1);
	r = last();
	ck_assert_int_eq(r->severity, DMAEMU_SEVERITY_ERROR);
	ck_assert_ptr_nonnull(strstr(r->text, "fix: dma_rmb() between the "
					      "two loads"));
	ck_assert_ptr_nonnull(strstr(r->text, "first load at "));
	ck_assert_ptr_nonnull(strstr(r->where, "check-ordering.c"));
}
END_TEST

/*
 * Loads that are findings at two lines of the driver are two reports, each
 * at its line: READ_ONCE() is inlined from one line of <linux/compiler.h>,
 * and the report and its repeat key name the driver's line, not that one.
 * The same line again (a loop) is one report, its repeats counted.
 */
START_TEST(test_read_sites)
{
	char first[256];
	unsigned int i;

	make(NULL);
	rmb();
	complete_desc();
	(void)READ_ONCE(ring[3]);
	(void)READ_ONCE(ring[2]);
	expect("missing-read-barrier", 1);
	snprintf(first, sizeof(first), "%s", last()->where);
	ck_assert_ptr_nonnull(strstr(first, "check-ordering.c"));
	(void)READ_ONCE(ring[2]);
	ck_assert_uint_eq(dmaemu_report_count(m, "missing-read-barrier"), 2);
	expected++;
	ck_assert_ptr_nonnull(strstr(last()->where, "check-ordering.c"));
	ck_assert_str_ne(last()->where, first);
	for (i = 0; i < 3; i++)
		(void)READ_ONCE(ring[2]);
	ck_assert_uint_eq(dmaemu_report_count(m, "missing-read-barrier"), 3);
	expected++;
	/* At destroy, one summary line for the loop's line, which names no
	 * mapping (coherent memory has none). */
	dma_free_coherent(dev, 4096, ring, ring_dma);
	ring = NULL;
	dmaemu_device_destroy(dd);
	dd = NULL;
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), expected);
	dmaemu_machine_destroy(m);
	m = NULL;
	ck_assert_ptr_nonnull(strstr(
		fixture_log(), "3 missing-read-barrier at 3 driver lines, "
			       "first at "));
	ck_assert_ptr_nonnull(
		strstr(fixture_log(), " in test_read_sites_fn: "));
	ck_assert_ptr_nonnull(strstr(fixture_log(),
				     "; 2 repeats at the same line and mapping "
				     "not reported (report_repeats=1)\n"));
	ck_assert_ptr_null(strstr(fixture_log(), "over 1 mapping"));
}
END_TEST

/*
 * The data: on arm64 and arm, the length load with no read barrier after
 * the done load may have been satisfied first; the seed decides, and it
 * then returns what the word held before the device wrote it.  Over a
 * sweep some seeds read the old length, some the new; every run is
 * reported.  With dma_rmb(), on x86 (TSO) and with ordering=strong, no
 * seed reads the old one.  Return: the seeds that read it.
 */
static unsigned int old_len_seeds(const char *opts, bool barrier,
				  unsigned int seeds)
{
	unsigned int seed, old = 0;
	uint32_t done, len;
	char o[96];

	for (seed = 1; seed <= seeds; seed++) {
		snprintf(o, sizeof(o), "%s:seed=%u", opts, seed);
		make(o);
		WRITE_ONCE(ring[2], 7); /* the length before */
		rmb();
		complete_desc();
		done = READ_ONCE(ring[3]);
		if (barrier)
			dma_rmb();
		len = READ_ONCE(ring[2]);
		ck_assert_uint_eq(done, 1);
		ck_assert(len == 60 || len == 7);
		old += len == 7;
		/* The device reads memory, not the CPU's early view of it. */
		ck_assert_uint_eq(dev_word(2), 60);
		/* Memory holds the new length: after a barrier, every seed
		 * reads it. */
		rmb();
		ck_assert_uint_eq(READ_ONCE(ring[2]), 60);
		expect("missing-read-barrier",
		       barrier || strstr(opts, "strong") ? 0 : 1);
		teardown();
	}
	return old;
}

START_TEST(test_read_data_effect)
{
	unsigned int old = old_len_seeds("profile=arm64", false, 32);
	unsigned int again;

	ck_assert_uint_gt(old, 0);
	ck_assert_uint_lt(old, 32);
	ck_assert_uint_gt(old_len_seeds("profile=arm", false, 32), 0);
	ck_assert_uint_eq(old_len_seeds("profile=arm64", true, 32), 0);
	ck_assert_uint_eq(old_len_seeds("profile=x86", false, 32), 0);
	ck_assert_uint_eq(
		old_len_seeds("profile=arm64:ordering=strong", false, 32), 0);
	/* A seed replays: the same seeds read the old length again. */
	again = old_len_seeds("profile=arm64", false, 32);
	ck_assert_uint_eq(again, old);
	make(NULL);
}
END_TEST

START_TEST(test_read_dma_rmb)
{
	uint32_t done;

	make(NULL);
	complete_desc();
	done = READ_ONCE(ring[3]);
	dma_rmb();
	if (done)
		ck_assert_uint_eq(READ_ONCE(ring[2]), 60);
	expect("missing-read-barrier", 0);
}
END_TEST

START_TEST(test_read_load_acquire)
{
	make(NULL);
	complete_desc();
	ck_assert_uint_eq(smp_load_acquire(&ring[3]), 1);
	ck_assert_uint_eq(READ_ONCE(ring[2]), 60);
	expect("missing-read-barrier", 0);
}
END_TEST

/* A polling loop: re-reads of the status are fine, and so is the rest
 * after a barrier. */
START_TEST(test_read_polling)
{
	unsigned int i;

	make(NULL);
	for (i = 0; i < 3; i++) {
		ck_assert_uint_eq(READ_ONCE(ring[3]), 0);
		rmb();
	}
	complete_desc();
	while (!READ_ONCE(ring[3]))
		;
	ck_assert_uint_eq(READ_ONCE(ring[3]), 1);
	dma_rmb();
	ck_assert_uint_eq(READ_ONCE(ring[2]), 60);
	expect("missing-read-barrier", 0);
}
END_TEST

/* Read in the order the device wrote: nothing can be older. */
START_TEST(test_read_in_order)
{
	make(NULL);
	complete_desc();
	ck_assert_uint_eq(READ_ONCE(ring[2]), 60);
	ck_assert_uint_eq(READ_ONCE(ring[3]), 1);
	expect("missing-read-barrier", 0);
}
END_TEST

/* A word the device wrote before the last read barrier is not older. */
START_TEST(test_read_written_before_barrier)
{
	make(NULL);
	dev_write(2, 60);
	rmb();
	dev_write(3, 1);
	ck_assert_uint_eq(READ_ONCE(ring[3]), 1);
	ck_assert_uint_eq(READ_ONCE(ring[2]), 60);
	expect("missing-read-barrier", 0);
}
END_TEST

/* A non-relaxed readl() has a read barrier after it. */
START_TEST(test_read_readl)
{
	make(NULL);
	complete_desc();
	ck_assert_uint_eq(READ_ONCE(ring[3]), 1);
	(void)readl(regs);
	ck_assert_uint_eq(READ_ONCE(ring[2]), 60);
	expect("missing-read-barrier", 0);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Profiles and options                                                   */
/* ---------------------------------------------------------------------- */

START_TEST(test_x86_notes)
{
	struct dmaemu_report *r;
	uint32_t v;

	make("profile=x86:exitcode=3");
	fill_no_barrier();
	dev_read(0, 2);
	expect("missing-write-barrier", 1);
	ck_assert_int_eq(last()->severity, DMAEMU_SEVERITY_NOTE);
	rmb();
	complete_desc();
	(void)READ_ONCE(ring[3]);
	v = READ_ONCE(ring[2]);
	expect("missing-read-barrier", 1);
	r = last();
	ck_assert_int_eq(r->severity, DMAEMU_SEVERITY_NOTE);
	ck_assert_ptr_nonnull(strstr(r->text, "==NOTE: dmaemu: "
					      "missing-read-barrier"));
	ck_assert_ptr_nonnull(strstr(r->text, "correct on x86 (TSO), broken "
					      "on arm64"));
	/* The data is right on x86, in the load that is the finding too. */
	ck_assert_uint_eq(v, 60);
}
END_TEST

START_TEST(test_x86_notes_off)
{
	make("profile=x86:portability_notes=0");
	fill_no_barrier();
	dev_read(0, 2);
	rmb();
	complete_desc();
	(void)READ_ONCE(ring[3]);
	(void)READ_ONCE(ring[2]);
	expect(NULL, 0);
}
END_TEST

START_TEST(test_arm_errors)
{
	make("profile=arm");
	fill_no_barrier();
	dev_read(0, 2);
	expect("missing-write-barrier", 1);
	ck_assert_int_eq(last()->severity, DMAEMU_SEVERITY_ERROR);
}
END_TEST

START_TEST(test_ordering_strong)
{
	char buf[16];

	make("ordering=strong");
	ck_assert_int_eq(dmaemu_machine_option(m, "ordering", buf, sizeof(buf)),
			 0);
	ck_assert_str_eq(buf, "strong");
	fill_no_barrier();
	dev_read(0, 2);
	rmb();
	complete_desc();
	(void)READ_ONCE(ring[3]);
	(void)READ_ONCE(ring[2]);
	expect(NULL, 0);
}
END_TEST

START_TEST(test_option_values)
{
	struct dmaemu_machine *x;
	char buf[16];

	unsetenv("DMAEMU_OPTIONS");
	x = dmaemu_machine_create("mem=16M:ordering=tso");
	ck_assert_ptr_null(x);
	x = dmaemu_machine_create("mem=16M:portability_notes=maybe");
	ck_assert_ptr_null(x);
	x = dmaemu_machine_create("mem=16M");
	ck_assert_ptr_nonnull(x);
	ck_assert_int_eq(dmaemu_machine_option(x, "ordering", buf, sizeof(buf)),
			 0);
	ck_assert_str_eq(buf, "weak");
	ck_assert_int_eq(
		dmaemu_machine_option(x, "portability_notes", buf, sizeof(buf)),
		0);
	ck_assert_str_eq(buf, "1");
	dmaemu_machine_destroy(x);
}
END_TEST

/* Repeats of one finding at one line are counted, printed once. */
START_TEST(test_repeats)
{
	unsigned int i;

	make(NULL);
	for (i = 0; i < 5; i++) {
		fill_no_barrier();
		dev_read(0, 2);
	}
	ck_assert_uint_eq(dmaemu_report_count(m, "missing-write-barrier"), 1);
	expected = 1;
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("ordering");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, test_write_one_read);
	tcase_add_test(tc, test_write_two_reads);
	tcase_add_test(tc, test_write_late_barrier);
	tcase_add_test(tc, test_write_dma_wmb);
	tcase_add_test(tc, test_write_store_release);
	tcase_add_test(tc, test_write_writel_doorbell);
	tcase_add_test(tc, test_write_relaxed_doorbell);
	tcase_add_test(tc, test_write_wmb_relaxed_doorbell);
	tcase_add_test(tc, test_write_second_relaxed_doorbell);
	tcase_add_test(tc, test_write_mb);
	tcase_add_test(tc, test_write_never_read);
	tcase_add_test(tc, test_write_device_overwrote);
	tcase_add_test(tc, test_write_lock_orders);
	tcase_add_test(tc, test_data_effect);
	tcase_add_test(tc, test_data_drained_late);
	tcase_add_test(tc, test_read_no_barrier);
	tcase_add_test(tc, test_read_sites);
	tcase_add_test(tc, test_read_data_effect);
	tcase_add_test(tc, test_read_dma_rmb);
	tcase_add_test(tc, test_read_load_acquire);
	tcase_add_test(tc, test_read_polling);
	tcase_add_test(tc, test_read_in_order);
	tcase_add_test(tc, test_read_written_before_barrier);
	tcase_add_test(tc, test_read_readl);
	tcase_add_test(tc, test_x86_notes);
	tcase_add_test(tc, test_x86_notes_off);
	tcase_add_test(tc, test_arm_errors);
	tcase_add_test(tc, test_ordering_strong);
	tcase_add_test(tc, test_option_values);
	tcase_add_test(tc, test_repeats);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(suite());
}
