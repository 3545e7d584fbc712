// SPDX-License-Identifier: MIT
/*
 * check-device-order.c - device-side ordering and timing
 * (docs/ordering.md, "Device writes"; docs/devices.md, "Timing"): the
 * posted-write queue under DMA_ATTR_WEAK_ORDERING, DMA_ATTR_WRITE_BARRIER
 * and posted_writes=relaxed, where it drains, and the timing knobs
 * (latency, bandwidth, jitter) on the lockstep clock.
 *
 * The test thread plays both sides: the device, with dmaemu_dma_write()
 * and dmaemu_dma_read() on a bare device, and the driver, which reads
 * the buffers through the CPU model (status word first, dma_rmb(), then
 * the data, as a correct driver does).
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <asm/barrier.h>
#include <linux/compiler.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/io.h>
#include <linux/slab.h>

#include <dmaemu/device.h>
#include <dmaemu/machine.h>
#include <dmaemu/report.h>
#include <dmaemu/sync.h>

#include "check-run.h"
#include "fixture.h"

#define SEEDS 48
#define DATA_OFF 256
#define DATA_LEN 64

static struct dmaemu_machine *m;
static struct dmaemu_device *dd;
static struct device *dev;
static uint64_t expected;

static uint64_t regs_read(struct dmaemu_device *d, uint64_t off,
			  unsigned int size)
{
	(void)d;
	(void)off;
	(void)size;
	return 0x5a;
}

static const struct dmaemu_device_ops reg_ops = {
	.mmio_size = 16,
	.mmio_read = regs_read,
	.nr_irqs = 1,
};

/* A buffer of the test's device. */
struct buf {
	uint8_t *cpu;
	dma_addr_t dma;
	unsigned long attrs;
};

static void make(const char *opts, uint64_t seed,
		 const struct dmaemu_device_ops *ops)
{
	m = fixture_machine("mem=16M:seed=%llu%s%s", (unsigned long long)seed,
			    opts ? ":" : "", opts ? opts : "");
	dd = dmaemu_device_create(m, "dev0", ops, NULL);
	ck_assert_ptr_nonnull(dd);
	dev = dmaemu_device_to_dev(dd);
	expected = 0;
}

static void buf_alloc(struct buf *b, unsigned long attrs)
{
	b->attrs = attrs;
	b->cpu = dma_alloc_attrs(dev, 4096, &b->dma, GFP_KERNEL, attrs);
	ck_assert_ptr_nonnull(b->cpu);
}

static void buf_free(struct buf *b)
{
	dma_free_attrs(dev, 4096, b->cpu, b->dma, b->attrs);
	b->cpu = NULL;
}

static void finish(void)
{
	fixture_finish(&m, &dd, expected);
}

/* The driver's check of what landed: dma_rmb() and then the loads, so
 * the ordering checks have nothing to say of the test's own reads. */
static bool sees(const void *p, int c, size_t len)
{
	dma_rmb();
	return fixture_cpu_sees(p, c, len);
}

static void dev_fill(dma_addr_t a, int c, size_t len)
{
	uint8_t v[DATA_LEN];

	ck_assert_uint_le(len, sizeof(v));
	memset(v, c, len);
	ck_assert_int_eq(dmaemu_dma_write(dd, a, v, len), 0);
}

/*
 * The device writes DATA_LEN bytes of 0xab to @data, then 1 to the status
 * byte of @status; the driver then reads the status and, after dma_rmb(),
 * the data.  Return: true when it saw the status without the data (out of
 * order).  Every write has landed when this returns.
 */
static bool data_then_status(struct buf *data, struct buf *status)
{
	bool seen_status, seen_data;

	dev_fill(data->dma + DATA_OFF, 0xab, DATA_LEN);
	dev_fill(status->dma, 1, 1);
	seen_status = sees(status->cpu, 1, 1);
	dma_rmb();
	seen_data = sees(data->cpu + DATA_OFF, 0xab, DATA_LEN);
	ck_assert_int_ge(dmaemu_dma_drain(dd), 0);
	ck_assert(sees(status->cpu, 1, 1));
	ck_assert(sees(data->cpu + DATA_OFF, 0xab, DATA_LEN));
	return seen_status && !seen_data;
}

/*
 * Run data_then_status() under SEEDS seeds from @first_seed, data in a
 * buffer with @data_attrs, status in one with @status_attrs (the same
 * buffer when they are equal).  Return: bit i set when seed
 * @first_seed + i showed the status first.
 */
static uint64_t sweep(const char *opts, unsigned long data_attrs,
		      unsigned long status_attrs, uint64_t first_seed)
{
	uint64_t out = 0;
	uint64_t seed;

	for (seed = first_seed; seed < first_seed + SEEDS; seed++) {
		struct buf data, status;
		bool one = data_attrs == status_attrs;

		make(opts, seed, NULL);
		buf_alloc(&data, data_attrs);
		if (!one)
			buf_alloc(&status, status_attrs);
		if (data_then_status(&data, one ? &data : &status))
			out |= 1ULL << (seed - first_seed);
		if (!one)
			buf_free(&status);
		buf_free(&data);
		finish();
	}
	return out;
}

/* ---------------------------------------------------------------------- */
/* The posted-write queue                                                 */
/* ---------------------------------------------------------------------- */

START_TEST(test_weak_reorders)
{
	unsigned int n = (unsigned int)__builtin_popcountll(
		sweep(NULL, DMA_ATTR_WEAK_ORDERING, DMA_ATTR_WEAK_ORDERING, 1));

	/* Some seeds, not all: the order is the seed's choice. */
	ck_assert_uint_gt(n, 0);
	ck_assert_uint_lt(n, SEEDS);
}
END_TEST

/* The seed decides: the same seeds give the same runs again, other
 * seeds others. */
START_TEST(test_weak_replays)
{
	uint64_t a =
		sweep(NULL, DMA_ATTR_WEAK_ORDERING, DMA_ATTR_WEAK_ORDERING, 1);

	ck_assert_uint_eq(a, sweep(NULL, DMA_ATTR_WEAK_ORDERING,
				   DMA_ATTR_WEAK_ORDERING, 1));
	ck_assert_uint_ne(a, sweep(NULL, DMA_ATTR_WEAK_ORDERING,
				   DMA_ATTR_WEAK_ORDERING, 1000));
}
END_TEST

START_TEST(test_default_in_order)
{
	ck_assert_uint_eq(sweep(NULL, 0, 0, 1), 0);
	/* A default write does not pass earlier weak ones (PCI ordering). */
	ck_assert_uint_eq(sweep(NULL, DMA_ATTR_WEAK_ORDERING, 0, 1), 0);
}
END_TEST

START_TEST(test_write_barrier)
{
	ck_assert_uint_eq(sweep(NULL, DMA_ATTR_WEAK_ORDERING,
				DMA_ATTR_WEAK_ORDERING | DMA_ATTR_WRITE_BARRIER,
				1),
			  0);
	ck_assert_uint_eq(
		sweep(NULL, DMA_ATTR_WEAK_ORDERING, DMA_ATTR_WRITE_BARRIER, 1),
		0);
	ck_assert_uint_eq(
		sweep(NULL, DMA_ATTR_WEAK_ORDERING | DMA_ATTR_WRITE_BARRIER,
		      DMA_ATTR_WEAK_ORDERING | DMA_ATTR_WRITE_BARRIER, 1),
		0);
}
END_TEST

START_TEST(test_relaxed)
{
	unsigned int n = (unsigned int)__builtin_popcountll(
		sweep("posted_writes=relaxed", 0, 0, 1));

	ck_assert_uint_gt(n, 0);
	ck_assert_uint_lt(n, SEEDS);
	ck_assert_uint_eq(
		sweep("posted_writes=relaxed", 0, DMA_ATTR_WRITE_BARRIER, 1),
		0);
}
END_TEST

START_TEST(test_ordering_strong)
{
	ck_assert_uint_eq(sweep("ordering=strong", DMA_ATTR_WEAK_ORDERING,
				DMA_ATTR_WEAK_ORDERING, 1),
			  0);
	ck_assert_uint_eq(
		sweep("ordering=strong:posted_writes=relaxed", 0, 0, 1), 0);
}
END_TEST

START_TEST(test_streaming_weak)
{
	/* The attribute of a streaming mapping counts as well. */
	unsigned int out = 0;
	uint64_t seed;

	for (seed = 1; seed <= SEEDS; seed++) {
		uint8_t *p;
		dma_addr_t h;
		bool seen_status, seen_data;

		make(NULL, seed, NULL);
		p = kmalloc(4096, GFP_KERNEL);
		ck_assert_ptr_nonnull(p);
		h = dma_map_single_attrs(dev, p, 4096, DMA_FROM_DEVICE,
					 DMA_ATTR_WEAK_ORDERING);
		ck_assert(!dma_mapping_error(dev, h));
		dev_fill(h + DATA_OFF, 0xab, DATA_LEN);
		dev_fill(h, 1, 1);
		dma_sync_single_for_cpu(dev, h, 4096, DMA_FROM_DEVICE);
		seen_status = sees(p, 1, 1);
		seen_data = sees(p + DATA_OFF, 0xab, DATA_LEN);
		out += seen_status && !seen_data;
		/* The data lands after dma_sync_single_for_cpu(): a device
		 * write to a CPU-owned buffer, which the checks report. */
		ck_assert_int_ge(dmaemu_dma_drain(dd), 0);
		expected = dmaemu_report_count(m, "device-access-cpu-owned");
		if (seen_status && !seen_data)
			ck_assert_uint_ge(expected, 1);
		ck_assert_uint_eq(dmaemu_report_count(m, NULL), expected);
		dma_unmap_single_attrs(dev, h, 4096, DMA_FROM_DEVICE,
				       DMA_ATTR_WEAK_ORDERING);
		kfree(p);
		finish();
	}
	ck_assert_uint_gt(out, 0);
}
END_TEST

/* A device read of bytes it wrote sees them, whatever the seed. */
START_TEST(test_read_own_write)
{
	uint64_t seed;

	for (seed = 1; seed <= SEEDS; seed++) {
		struct buf b;
		uint8_t r[DATA_LEN];
		unsigned int i;

		make(NULL, seed, NULL);
		buf_alloc(&b, DMA_ATTR_WEAK_ORDERING);
		/* right after each write: part of it, then a word it
		 * overwrote straddling bytes nobody wrote */
		for (i = 0; i < 8; i++) {
			dev_fill(b.dma + 64 * i, 0x10 + (int)i, 64);
			ck_assert_int_eq(
				dmaemu_dma_read(dd, b.dma + 64 * i + 8, r, 16),
				0);
			ck_assert(fixture_all(r, 0x10 + (int)i, 16));
			dev_fill(b.dma + 1024, 0x30 + (int)i, 8);
			ck_assert_int_eq(
				dmaemu_dma_read(dd, b.dma + 1020, r, 8), 0);
			ck_assert(fixture_all(r, 0, 4));
			ck_assert(fixture_all(r + 4, 0x30 + (int)i, 4));
		}
		buf_free(&b);
		finish();
	}
}
END_TEST

/*
 * Reads may pass writes in WEAK_ORDERING memory, not elsewhere: after a
 * weak write, a read of other weak bytes leaves it posted in some seed; a
 * read of default memory lands it in every seed.
 */
START_TEST(test_read_passes_write)
{
	unsigned int passed = 0;
	uint64_t seed;

	for (seed = 1; seed <= SEEDS; seed++) {
		struct buf w, plain;
		uint8_t r[8];

		make(NULL, seed, NULL);
		buf_alloc(&w, DMA_ATTR_WEAK_ORDERING);
		buf_alloc(&plain, 0);
		dev_fill(w.dma + DATA_OFF, 0xcd, 8);
		ck_assert_int_eq(dmaemu_dma_read(dd, w.dma + 2048, r, 8), 0);
		passed += !sees(w.cpu + DATA_OFF, 0xcd, 8);
		ck_assert_int_eq(dmaemu_dma_read(dd, plain.dma, r, 8), 0);
		ck_assert(sees(w.cpu + DATA_OFF, 0xcd, 8));
		buf_free(&plain);
		buf_free(&w);
		finish();
	}
	ck_assert_uint_gt(passed, 0);
}
END_TEST

/* A register read and an interrupt push the posted writes ahead. */
START_TEST(test_drain_points)
{
	uint64_t seed;

	for (seed = 1; seed <= SEEDS; seed++) {
		struct buf b;
		void __iomem *regs;

		make(NULL, seed, &reg_ops);
		regs = dmaemu_device_regs(dd);
		buf_alloc(&b, DMA_ATTR_WEAK_ORDERING);
		dev_fill(b.dma + DATA_OFF, 0xab, DATA_LEN);
		dev_fill(b.dma, 1, 1);
		ck_assert_uint_eq(readl(regs), 0x5a);
		ck_assert(sees(b.cpu + DATA_OFF, 0xab, DATA_LEN));
		ck_assert(sees(b.cpu, 1, 1));

		dev_fill(b.dma + DATA_OFF, 0xcd, DATA_LEN);
		dev_fill(b.dma, 2, 1);
		ck_assert_int_eq(dmaemu_raise_irq(dd, 0), 0);
		ck_assert(sees(b.cpu + DATA_OFF, 0xcd, DATA_LEN));
		ck_assert(sees(b.cpu, 2, 1));
		ck_assert_int_eq(dmaemu_lower_irq(dd, 0), 0);

		dev_fill(b.dma + DATA_OFF, 0xef, DATA_LEN);
		ck_assert_int_eq(dmaemu_device_reset(dd), 0);
		ck_assert(sees(b.cpu + DATA_OFF, 0xef, DATA_LEN));
		ck_assert_int_eq(dmaemu_dma_drain(dd), 0);
		buf_free(&b);
		finish();
	}
}
END_TEST

/* Many posted writes: the queue stays bounded, every byte lands right. */
START_TEST(test_many_writes)
{
	struct buf b;
	unsigned int i;
	int n;

	make(NULL, 3, NULL);
	buf_alloc(&b, DMA_ATTR_WEAK_ORDERING);
	for (i = 0; i < 256; i++)
		dev_fill(b.dma + 16 * i, (int)i, 16);
	n = dmaemu_dma_drain(dd);
	ck_assert_int_ge(n, 0);
	ck_assert_int_le(n, 16);
	for (i = 0; i < 256; i++)
		ck_assert(sees(b.cpu + 16 * i, (int)i, 16));
	buf_free(&b);
	finish();
}
END_TEST

/* A bad address fails the posted write at once, with its report. */
START_TEST(test_posted_fault)
{
	struct buf b;
	uint8_t v[8] = {0};

	make(NULL, 1, NULL);
	buf_alloc(&b, DMA_ATTR_WEAK_ORDERING);
	ck_assert_int_eq(dmaemu_dma_write(dd, b.dma + 4096, v, 8), -EFAULT);
	expected = dmaemu_report_count(m, NULL);
	ck_assert_uint_ge(expected, 1);
	ck_assert_int_eq(dmaemu_dma_drain(dd), 0);
	ck_assert_int_eq(dmaemu_dma_drain(NULL), -EINVAL);
	expected++;
	buf_free(&b);
	finish();
}
END_TEST

START_TEST(test_option_values)
{
	struct dmaemu_machine *x = dmaemu_machine_create("posted_writes=maybe");

	ck_assert_ptr_null(x);
	x = dmaemu_machine_create("posted_writes=relaxed");
	ck_assert_ptr_nonnull(x);
	dmaemu_machine_destroy(x);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Timing                                                                 */
/* ---------------------------------------------------------------------- */

/* Emulated ns one device write of @len bytes takes. */
static uint64_t timed_write(struct buf *b, size_t len)
{
	static uint8_t big[1 << 16];
	uint64_t t0 = dmaemu_time_ns();

	ck_assert_uint_le(len, sizeof(big));
	ck_assert_int_eq(dmaemu_dma_write(dd, b->dma, big, len), 0);
	return dmaemu_time_ns() - t0;
}

START_TEST(test_bandwidth)
{
	struct dmaemu_device_timing t = {.bandwidth = 1000000000};
	struct buf b;

	make("sched=lockstep", 1, NULL);
	buf_alloc(&b, 0);
	ck_assert_uint_eq(timed_write(&b, 4096), 0);
	ck_assert_int_eq(dmaemu_device_set_timing(dd, &t), 0);
	/* N bytes at B bytes/s: N / B seconds. */
	ck_assert_uint_eq(timed_write(&b, 4096), 4096);
	ck_assert_uint_eq(timed_write(&b, 1000), 1000);
	t.bandwidth = 250000000; /* 4 ns a byte */
	ck_assert_int_eq(dmaemu_device_set_timing(dd, &t), 0);
	ck_assert_uint_eq(timed_write(&b, 4096), 4 * 4096);
	ck_assert_int_eq(dmaemu_device_set_options(dd, "latency=2us"), 0);
	ck_assert_uint_eq(timed_write(&b, 100), 2000 + 400);
	ck_assert_int_eq(dmaemu_device_set_options(dd, "bandwidth=2G,"
						       "latency=0"),
			 0);
	ck_assert_uint_eq(timed_write(&b, 4096), 2048);
	ck_assert_int_eq(dmaemu_device_set_timing(dd, NULL), 0);
	ck_assert_uint_eq(timed_write(&b, 4096), 0);
	buf_free(&b);
	finish();
}
END_TEST

/* The times of 32 writes with jitter=1us under @seed, summed into a
 * fingerprint; each lies in [latency, latency + jitter]. */
static uint64_t jitter_run(uint64_t seed, uint64_t *sum)
{
	struct buf b;
	uint64_t fp = 0;
	unsigned int i;

	make("sched=lockstep", seed, NULL);
	buf_alloc(&b, 0);
	ck_assert_int_eq(dmaemu_device_set_options(dd, "latency=500ns:"
						       "jitter=1us"),
			 0);
	*sum = 0;
	for (i = 0; i < 32; i++) {
		uint64_t ns = timed_write(&b, 8);

		ck_assert_uint_ge(ns, 500);
		ck_assert_uint_le(ns, 1500);
		*sum += ns;
		fp = fp * 1000003 + ns;
	}
	buf_free(&b);
	finish();
	return fp;
}

START_TEST(test_jitter)
{
	uint64_t s1, s1b, s2;
	uint64_t a = jitter_run(1, &s1), b = jitter_run(1, &s1b),
		 c = jitter_run(2, &s2);

	ck_assert_uint_eq(a, b);
	ck_assert_uint_eq(s1, s1b);
	ck_assert_uint_ne(a, c);
	/* Jitter really varies: not all at one end. */
	ck_assert_uint_gt(s1, 32 * 500);
	ck_assert_uint_lt(s1, 32 * 1500);
}
END_TEST

/*
 * device_timing= gives every new device its knobs: the copy of a machine
 * made with it takes the same emulated time as one set by hand, the
 * option reads back, a device can change its own, and bad values refuse
 * the machine.
 */
START_TEST(test_machine_timing)
{
	char val[96];
	struct buf b;

	make("sched=lockstep:device_timing=latency=2us,bandwidth=1G", 1, NULL);
	ck_assert_int_eq(
		dmaemu_machine_option(m, "device_timing", val, sizeof(val)), 0);
	ck_assert_str_eq(val, "latency=2000ns,bandwidth=1000000000");
	buf_alloc(&b, 0);
	ck_assert_uint_eq(timed_write(&b, 4096), 2000 + 4096);
	ck_assert_int_eq(dmaemu_device_set_options(dd, "latency=0"), 0);
	ck_assert_uint_eq(timed_write(&b, 4096), 4096);
	ck_assert_int_eq(dmaemu_device_set_options(dd, "off"), 0);
	ck_assert_uint_eq(timed_write(&b, 4096), 0);
	buf_free(&b);
	finish();

	make("sched=lockstep:device_timing=off", 1, NULL);
	ck_assert_int_eq(
		dmaemu_machine_option(m, "device_timing", val, sizeof(val)), 0);
	ck_assert_str_eq(val, "off");
	buf_alloc(&b, 0);
	ck_assert_uint_eq(timed_write(&b, 4096), 0);
	buf_free(&b);
	finish();

	ck_assert_ptr_null(dmaemu_machine_create("device_timing=latency=2x"));
	ck_assert_ptr_null(dmaemu_machine_create("device_timing=speed=1"));
	ck_assert_ptr_null(dmaemu_machine_create("device_timing=jitter"));
	/* Limits: each DMA call would sleep that long on the host. */
	ck_assert_ptr_null(dmaemu_machine_create("device_timing=jitter=199s"));
	ck_assert_ptr_null(
		dmaemu_machine_create("device_timing=latency=2147483648us"));
	ck_assert_ptr_null(
		dmaemu_machine_create("device_timing=latency=10000001ns"));
	ck_assert_ptr_null(
		dmaemu_machine_create("device_timing=bandwidth=999999"));
	make("device_timing=latency=10ms,jitter=10ms,bandwidth=1M", 1, NULL);
	ck_assert_int_eq(
		dmaemu_machine_option(m, "device_timing", val, sizeof(val)), 0);
	ck_assert_str_eq(val, "latency=10000000ns,bandwidth=1000000,"
			      "jitter=10000000ns");
	finish();
}
END_TEST

START_TEST(test_bad_options)
{
	static const char *const bad[] = {
		"latency",
		"latency=",
		"latency=5x",
		"speed=1",
		"jitter=-1",
		"bandwidth=1T",
		"latency=99999999999999999999s",
		"jitter=199s",
		"latency=2147483648us",
		"latency=10ms:jitter=11ms",
		"bandwidth=999k",
	};
	struct dmaemu_device_timing t = {.latency_ns = 7};
	struct dmaemu_device_timing big[] = {
		{.latency_ns = 10000001},
		{.jitter_ns = 199000000000ull},
		{.bandwidth = 999999},
	};
	unsigned int i;

	make(NULL, 1, NULL);
	ck_assert_int_eq(dmaemu_device_set_timing(dd, &t), 0);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_int_eq(dmaemu_device_set_options(dd, bad[i]),
				 -EINVAL);
		expected++;
		ck_assert_uint_eq(dmaemu_report_count(m, "bad-argument"),
				  expected);
	}
	for (i = 0; i < sizeof(big) / sizeof(big[0]); i++) {
		ck_assert_int_eq(dmaemu_device_set_timing(dd, &big[i]),
				 -EINVAL);
		expected++;
		ck_assert_uint_eq(dmaemu_report_count(m, "bad-argument"),
				  expected);
	}
	/* nothing changed: a good partial string keeps latency */
	ck_assert_int_eq(dmaemu_device_set_options(dd, "latency=7:jitter=0"),
			 0);
	ck_assert_int_eq(dmaemu_device_set_options(NULL, "latency=1"), -EINVAL);
	ck_assert_int_eq(dmaemu_device_set_options(dd, NULL), -EINVAL);
	ck_assert_int_eq(dmaemu_device_set_timing(NULL, &t), -EINVAL);
	/* (NULL-device reports go to the current machine, if any) */
	ck_assert_uint_ge(dmaemu_report_count(m, NULL), expected + 1);
	expected = dmaemu_report_count(m, NULL);
	finish();
}
END_TEST

/* ---------------------------------------------------------------------- */
/* A device thread in lockstep                                            */
/* ---------------------------------------------------------------------- */

/*
 * The streaming model: a write to register 0 rings the doorbell; run then
 * writes CHUNKS chunks of 0xab to the data buffer, one DMA call each,
 * and 1 to the status byte.
 */
#define CHUNKS 8
#define CHUNK 4096

struct stream {
	dma_addr_t data, status;
};

static void stream_write(struct dmaemu_device *d, uint64_t off, uint64_t val,
			 unsigned int size)
{
	(void)off;
	(void)val;
	(void)size;
	dmaemu_device_doorbell(d);
}

static void stream_run(struct dmaemu_device *d, unsigned int events)
{
	static uint8_t chunk[CHUNK];
	struct stream *st = dmaemu_device_priv(d);
	uint8_t one = 1;
	unsigned int i;

	(void)events;
	memset(chunk, 0xab, sizeof(chunk));
	for (i = 0; i < CHUNKS; i++)
		dmaemu_dma_write(d, st->data + i * CHUNK, chunk, CHUNK);
	dmaemu_dma_write(d, st->status, &one, 1);
}

static const struct dmaemu_device_ops stream_ops = {
	.mmio_size = 16,
	.mmio_read = regs_read,
	.mmio_write = stream_write,
	.run = stream_run,
};

/* What the polling driver saw. */
struct seen {
	bool partial;	   /* some chunks there, not all */
	bool status_first; /* the status without all the data */
	uint64_t done_ns;  /* when it saw the status, from the doorbell */
};

/*
 * One lockstep run: the driver rings the doorbell and polls (udelay(1)
 * between polls, as a driver does) until the status is set.
 */
static void stream_once(uint64_t seed, unsigned long attrs, const char *timing,
			struct seen *out)
{
	struct stream st;
	struct buf b;
	void __iomem *regs;
	uint64_t t0;

	m = fixture_machine("mem=16M:sched=lockstep:seed=%llu",
			    (unsigned long long)seed);
	dd = dmaemu_device_create(m, "stream0", &stream_ops, &st);
	ck_assert_ptr_nonnull(dd);
	dev = dmaemu_device_to_dev(dd);
	expected = 0;
	if (timing)
		ck_assert_int_eq(dmaemu_device_set_options(dd, timing), 0);
	b.attrs = attrs;
	b.cpu = dma_alloc_attrs(dev, (CHUNKS + 1) * CHUNK, &b.dma, GFP_KERNEL,
				attrs);
	ck_assert_ptr_nonnull(b.cpu);
	st.data = b.dma + CHUNK;
	st.status = b.dma;
	memset(out, 0, sizeof(*out));
	regs = dmaemu_device_regs(dd);
	t0 = dmaemu_time_ns();
	writel(1, regs);
	for (;;) {
		bool status = sees(b.cpu, 1, 1);
		bool first = sees(b.cpu + CHUNK, 0xab, CHUNK);
		bool last = sees(b.cpu + CHUNKS * CHUNK, 0xab, CHUNK);

		if (first != last)
			out->partial = true;
		if (status) {
			out->status_first = !first || !last;
			out->done_ns = dmaemu_time_ns() - t0;
			break;
		}
		udelay(1);
	}
	/* A register read pushes the rest: everything is there after it
	 * (freeing the buffer before would let the data land in freed
	 * memory, which the checks report). */
	ck_assert_uint_eq(readl(regs), 0x5a);
	ck_assert(sees(b.cpu + CHUNK, 0xab, CHUNKS * CHUNK));
	dma_free_attrs(dev, (CHUNKS + 1) * CHUNK, b.cpu, b.dma, attrs);
	finish();
}

/* A long transfer yields between its chunks: a driver sees it part done. */
START_TEST(test_partial_transfer)
{
	unsigned int partial = 0, status_first = 0;
	struct seen a, again;
	uint64_t seed;

	for (seed = 1; seed <= 16; seed++) {
		stream_once(seed, 0, NULL, &a);
		partial += a.partial;
		status_first += a.status_first;
		stream_once(seed, 0, NULL, &again);
		ck_assert_int_eq(a.partial, again.partial);
		ck_assert_uint_eq(a.done_ns, again.done_ns);
	}
	ck_assert_uint_gt(partial, 0);
	ck_assert_uint_eq(status_first, 0);
}
END_TEST

/* With a bandwidth cap the chunks arrive at their emulated times. */
START_TEST(test_partial_bandwidth)
{
	struct seen a;
	uint64_t seed;

	for (seed = 1; seed <= 4; seed++) {
		stream_once(seed, 0, "bandwidth=1G", &a);
		ck_assert(a.partial);
		ck_assert(!a.status_first);
		ck_assert_uint_ge(a.done_ns, CHUNKS * CHUNK + 1);
		ck_assert_uint_lt(a.done_ns, CHUNKS * CHUNK + 1 + 20000);
	}
}
END_TEST

/* A polling driver sees the status before the data in some seeds when
 * the buffer is WEAK_ORDERING, never when the status is WRITE_BARRIER. */
START_TEST(test_lockstep_weak)
{
	unsigned int first = 0;
	struct seen a;
	uint64_t seed;

	for (seed = 1; seed <= 24; seed++) {
		stream_once(seed, DMA_ATTR_WEAK_ORDERING, NULL, &a);
		first += a.status_first;
	}
	ck_assert_uint_gt(first, 0);
	for (seed = 1; seed <= 24; seed++) {
		stream_once(seed,
			    DMA_ATTR_WEAK_ORDERING | DMA_ATTR_WRITE_BARRIER,
			    NULL, &a);
		ck_assert(!a.status_first);
	}
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("device-order");
	TCase *tc = tcase_create("posted");
	TCase *tt = tcase_create("timing");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_weak_reorders);
	tcase_add_test(tc, test_weak_replays);
	tcase_add_test(tc, test_default_in_order);
	tcase_add_test(tc, test_write_barrier);
	tcase_add_test(tc, test_relaxed);
	tcase_add_test(tc, test_ordering_strong);
	tcase_add_test(tc, test_streaming_weak);
	tcase_add_test(tc, test_read_own_write);
	tcase_add_test(tc, test_read_passes_write);
	tcase_add_test(tc, test_drain_points);
	tcase_add_test(tc, test_many_writes);
	tcase_add_test(tc, test_posted_fault);
	tcase_add_test(tc, test_option_values);
	suite_add_tcase(s, tc);
	tcase_add_test(tt, test_bandwidth);
	tcase_add_test(tt, test_jitter);
	tcase_add_test(tt, test_bad_options);
	tcase_add_test(tt, test_machine_timing);
	tcase_add_test(tt, test_partial_transfer);
	tcase_add_test(tt, test_partial_bandwidth);
	tcase_add_test(tt, test_lockstep_weak);
	tcase_set_timeout(tt, 120);
	suite_add_tcase(s, tt);
	return s;
}

int main(void)
{
	return check_run(suite());
}
