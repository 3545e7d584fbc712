// SPDX-License-Identifier: MIT
/*
 * check-shared-line.c - shared-line-store: a CPU store into a cache line
 * that a live DMA_FROM_DEVICE or DMA_BIDIRECTIONAL mapping covers in part
 * is reported at the store, every time, whatever the order of the store
 * and the device's write: the CPU first, the device first, every seed of
 * sched=lockstep and every run of sched=threads, on arm and arm64 (an
 * error) and on x86 (a portability note).  A driver whose buffer has its
 * lines to itself gets nothing.  Compiled like driver code
 * (instrumented): the stores below are plain C.
 */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <linux/cache.h>
#include <linux/completion.h>
#include <linux/dma-mapping.h>
#include <linux/gfp.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include <dmaemu/device.h>
#include <dmaemu/machine.h>
#include <dmaemu/report.h>
#include <dmaemu/testing.h>

#include "check-run.h"
#include "fixture.h"

#define RX_LEN 24

static const char *const profiles[] = {"arm", "arm64", "x86"};
#define NPROFILES 3

static const uint8_t packet[RX_LEN] = "packet from the wire!!!";

/* The driver's queue: a counter and the receive buffer in one line. */
struct rxq {
	u32 posted;
	u8 buf[RX_LEN];
	u32 drops;
};

static struct dmaemu_machine *m;
static struct dmaemu_device *dd;
static struct device *dev;

static void start(const char *opts)
{
	m = fixture_machine("mem=16M:dma_minalign=8:%s", opts);
	dd = dmaemu_device_create(m, "nic0", NULL, NULL);
	ck_assert_ptr_nonnull(dd);
	dev = dmaemu_device_to_dev(dd);
	ck_assert_int_eq(dma_set_mask_and_coherent(dev, DMA_BIT_MASK(64)), 0);
}

static bool is_x86(const char *p)
{
	return !strcmp(p, "x86");
}

static dma_addr_t map(void *p, size_t len, enum dma_data_direction dir)
{
	dma_addr_t h = dma_map_single(dev, p, len, dir);

	ck_assert(!dma_mapping_error(dev, h));
	return h;
}

static uint64_t phys_of(const void *p)
{
	uint64_t phys = 0;

	ck_assert_int_ne(fixture_region(p, &phys), DMAEMU_REGION_NONE);
	return phys;
}

/* A store, and its source line in @ln: the line a report must name. */
#define STORE(lv, v, ln)         \
	do {                     \
		(lv) = (v);      \
		(ln) = __LINE__; \
	} while (0)
#define STORE_AT(expr, ln)       \
	do {                     \
		(expr);          \
		(ln) = __LINE__; \
	} while (0)

/* "check-shared-line.c:LINE" */
static const char *at_line(int line)
{
	static char buf[64];

	snprintf(buf, sizeof(buf), "check-shared-line.c:%d", line);
	return buf;
}

/*
 * The reports of @m so far: exactly @n of kind @kind; the first of them
 * (if any) is returned in @out.
 */
static unsigned int reports_of(const char *kind, struct dmaemu_report *out)
{
	struct dmaemu_report r;
	uint64_t seq = 0;
	unsigned int n = 0;

	while (!dmaemu_report_next(m, seq, &r)) {
		seq = r.seq;
		if (strcmp(r.kind_name, kind))
			continue;
		if (!n++ && out)
			*out = r;
	}
	return n;
}

/* The one shared-line-store of the run: at @line, about the 4 bytes of
 * @field, a note on x86 and an error elsewhere. */
static void assert_store_report(const char *profile, const void *field,
				int line)
{
	struct dmaemu_report r;
	uint64_t p = phys_of(field);

	ck_assert_uint_eq(reports_of("shared-line-store", &r), 1);
	ck_assert_msg(strstr(r.where, at_line(line)), "where: %s (want %s)",
		      r.where, at_line(line));
	ck_assert_uint_eq(r.phys, p);
	ck_assert_uint_eq(r.size, 4);
	ck_assert_uint_eq(r.mask_bits, 64);
	ck_assert_uint_eq(r.mask[0], 0xfULL << (p & 63));
	ck_assert_int_eq(r.severity, is_x86(profile) ? DMAEMU_SEVERITY_NOTE
						     : DMAEMU_SEVERITY_ERROR);
	ck_assert_msg(strstr(r.made_at, "dma_map_single_attrs() called from"),
		      "made_at: %s", r.made_at);
	ck_assert_msg(strstr(r.text, "fix: ____cacheline_aligned on the "
				     "buffer, or its own allocation"),
		      "%s", r.text);
	ck_assert_msg(strstr(r.text, is_x86(profile) ? "correct on x86"
						     : "shares cache line"),
		      "%s", r.text);
}

/* ---------------------------------------------------------------------- */
/* The two orders, by hand                                                */
/* ---------------------------------------------------------------------- */

/*
 * The CPU stores first, then the device writes: on arm and arm64 the
 * unmap's clean of the line puts the CPU's stale copy of the buffer over
 * the packet, which is also a lost-device-write (at the unmap: the data
 * is lost there).  x86 snoops: the data is right.
 */
START_TEST(test_cpu_first)
{
	const char *p = profiles[_i];
	struct rxq *q;
	dma_addr_t h;
	int line;

	start(p[0] == 'x' ? "profile=x86"
	      : p[4]	  ? "profile=arm64"
			  : "profile=arm");
	q = kzalloc(sizeof(*q), GFP_KERNEL);
	ck_assert_ptr_nonnull(q);
	h = map(q->buf, RX_LEN, DMA_FROM_DEVICE);
	STORE(q->posted, 1, line);
	ck_assert_int_eq(dmaemu_dma_write(dd, h, packet, RX_LEN), 0);
	dma_unmap_single(dev, h, RX_LEN, DMA_FROM_DEVICE);
	ck_assert_int_eq(!memcmp(q->buf, packet, RX_LEN), is_x86(p));
	assert_store_report(p, &q->posted, line);
	ck_assert_uint_eq(reports_of("lost-device-write", NULL), !is_x86(p));
	kfree(q);
	fixture_finish(&m, &dd, is_x86(p) ? 1 : 2);
}
END_TEST

/*
 * The device writes first.  DMA_FROM_DEVICE: the map invalidated the
 * line, so the CPU's store fills it with the packet and this run loses
 * nothing (before this check it was silent); on hardware the line may
 * have been in the cache before the device's write (a prefetch, a read of
 * the counter) and written back after it.  DMA_BIDIRECTIONAL: the map
 * only cleaned, the line stayed in the cache with the buffer's old bytes,
 * and the store dirties it: on arm and arm64 the unmap's clean loses the
 * packet, a lost-device-write at the unmap.  Either way one report at the
 * store.
 */
START_TEST(test_device_first)
{
	const char *p = profiles[_i % NPROFILES];
	enum dma_data_direction dir =
		_i < NPROFILES ? DMA_FROM_DEVICE : DMA_BIDIRECTIONAL;
	bool lost = dir == DMA_BIDIRECTIONAL && !is_x86(p);
	struct rxq *q;
	dma_addr_t h;
	int line;

	start(p[0] == 'x' ? "profile=x86"
	      : p[4]	  ? "profile=arm64"
			  : "profile=arm");
	q = kzalloc(sizeof(*q), GFP_KERNEL);
	ck_assert_ptr_nonnull(q);
	h = map(q->buf, RX_LEN, dir);
	ck_assert_int_eq(dmaemu_dma_write(dd, h, packet, RX_LEN), 0);
	STORE(q->drops, 7, line);
	dma_unmap_single(dev, h, RX_LEN, dir);
	ck_assert_int_eq(!memcmp(q->buf, packet, RX_LEN), !lost);
	ck_assert_uint_eq(q->drops, 7);
	assert_store_report(p, &q->drops, line);
	ck_assert_uint_eq(reports_of("lost-device-write", NULL), lost);
	kfree(q);
	fixture_finish(&m, &dd, 1 + lost);
}
END_TEST

/*
 * One report per mapping and store site: a loop storing the counter is
 * one report (its repeats counted), a second site is a second report, and
 * so is the same site beside another mapping.  The routed memset() of
 * instrumented code is a store like any other.
 */
START_TEST(test_one_per_site)
{
	struct rxq *q, *q2;
	dma_addr_t h, h2;
	volatile size_t four = 4;
	int i, line_loop = 0, line_memset;

	start("profile=arm64");
	/* A line each (a 32-byte object may share its line). */
	q = kzalloc(64, GFP_KERNEL);
	q2 = kzalloc(64, GFP_KERNEL);
	ck_assert_ptr_nonnull(q);
	ck_assert_ptr_nonnull(q2);
	ck_assert_uint_ne(phys_of(q) >> 6, phys_of(q2) >> 6);
	h = map(q->buf, RX_LEN, DMA_FROM_DEVICE);
	for (i = 0; i < 2; i++) {
		struct rxq *t = i ? q2 : q;
		int k;

		if (i)
			h2 = map(q2->buf, RX_LEN, DMA_FROM_DEVICE);
		for (k = 0; k < 5; k++) {
			STORE(t->posted, (u32)k, line_loop);
		}
	}
	/* Each mapping's first store: printed; the 4 others: counted. */
	ck_assert_uint_eq(dmaemu_report_count(m, "shared-line-store"), 2);
	STORE_AT(memset(&q->drops, 0, four), line_memset);
	ck_assert_uint_eq(dmaemu_report_count(m, "shared-line-store"), 3);
	{
		struct dmaemu_report r;
		uint64_t seq = 0;
		unsigned int n = 0;

		while (!dmaemu_report_next(m, seq, &r)) {
			seq = r.seq;
			ck_assert(strstr(
				r.where,
				at_line(n < 2 ? line_loop : line_memset)));
			n++;
		}
		ck_assert_uint_eq(n, 3);
	}
	dma_unmap_single(dev, h2, RX_LEN, DMA_FROM_DEVICE);
	dma_unmap_single(dev, h, RX_LEN, DMA_FROM_DEVICE);
	/* Back to the CPU: the same stores are the driver's business. */
	q->posted = 9;
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 3);
	kfree(q2);
	kfree(q);
	fixture_finish(&m, &dd, 3);
}
END_TEST

/* A scatterlist entry shares its line as a single mapping does. */
START_TEST(test_scatterlist)
{
	struct scatterlist sg;
	struct dmaemu_report r;
	struct rxq *q;
	int line;

	start("profile=arm64");
	q = kzalloc(sizeof(*q), GFP_KERNEL);
	ck_assert_ptr_nonnull(q);
	sg_init_one(&sg, q->buf, RX_LEN);
	ck_assert_int_eq(dma_map_sg(dev, &sg, 1, DMA_FROM_DEVICE), 1);
	STORE(q->posted, 1, line);
	dma_unmap_sg(dev, &sg, 1, DMA_FROM_DEVICE);
	ck_assert_uint_eq(reports_of("shared-line-store", &r), 1);
	ck_assert_msg(strstr(r.where, at_line(line)), "where: %s", r.where);
	ck_assert_msg(strstr(r.made_at, "dma_map_sg_attrs() called from"),
		      "made_at: %s", r.made_at);
	kfree(q);
	fixture_finish(&m, &dd, 1);
}
END_TEST

/*
 * One access, one report: a store over both the counter and the first
 * bytes of the buffer is a store into a device-owned buffer
 * (cpu-access-device-owned), not also a shared-line-store.  A load of the
 * counter is nothing.
 */
START_TEST(test_store_over_both)
{
	struct rxq *q;
	dma_addr_t h;

	start("profile=arm");
	q = kzalloc(sizeof(*q), GFP_KERNEL);
	ck_assert_ptr_nonnull(q);
	h = map(q->buf, RX_LEN, DMA_FROM_DEVICE);
	/* A load beside the buffer is harmless (a clean line is never
	 * written back). */
	ck_assert_uint_eq(*(volatile u32 *)&q->posted, 0);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 0);
	*(volatile uint64_t *)(void *)q = 0; /* posted and buf[0..3] */
	ck_assert_uint_eq(reports_of("cpu-access-device-owned", NULL), 1);
	ck_assert_uint_eq(reports_of("shared-line-store", NULL), 0);
	dma_unmap_single(dev, h, RX_LEN, DMA_FROM_DEVICE);
	kfree(q);
	fixture_finish(&m, &dd, 1);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Correct drivers, and sharing that is harmless                          */
/* ---------------------------------------------------------------------- */

/* The buffer on lines of its own, two ways; a DMA_TO_DEVICE buffer
 * sharing a line (the device only reads it: a write-back carries the
 * bytes it reads); a bounced mapping (the device writes a bounce slot). */
struct rxq_aligned {
	u32 posted;
	u8 buf[RX_LEN] ____cacheline_aligned;
	u8 pad[64 - RX_LEN]; /* nothing after the buffer in its line */
};

START_TEST(test_correct)
{
	const char *p = profiles[_i];
	char opts[64];
	struct rxq_aligned *a;
	struct rxq *q;
	u8 *buf;
	dma_addr_t h;
	int order;

	snprintf(opts, sizeof(opts), "profile=%s", p);
	start(opts);
	for (order = 0; order < 2; order++) {
		/* ____cacheline_aligned. */
		a = kzalloc(sizeof(*a), GFP_KERNEL);
		ck_assert_ptr_nonnull(a);
		h = map(a->buf, RX_LEN, DMA_FROM_DEVICE);
		if (order)
			a->posted = 1;
		ck_assert_int_eq(dmaemu_dma_write(dd, h, packet, RX_LEN), 0);
		a->posted = 2;
		dma_unmap_single(dev, h, RX_LEN, DMA_FROM_DEVICE);
		ck_assert(!memcmp(a->buf, packet, RX_LEN));
		kfree(a);
		/* A separate allocation of whole lines. */
		q = kzalloc(sizeof(*q), GFP_KERNEL);
		buf = kzalloc(64, GFP_KERNEL);
		ck_assert_ptr_nonnull(q);
		ck_assert_ptr_nonnull(buf);
		h = map(buf, RX_LEN, DMA_BIDIRECTIONAL);
		if (order)
			q->posted = 1;
		ck_assert_int_eq(dmaemu_dma_write(dd, h, packet, RX_LEN), 0);
		q->posted = 2;
		dma_unmap_single(dev, h, RX_LEN, DMA_BIDIRECTIONAL);
		ck_assert(!memcmp(buf, packet, RX_LEN));
		kfree(buf);
		kfree(q);
	}
	/* DMA_TO_DEVICE: the counter shares the line of what the device
	 * reads; its write-back puts the same bytes back. */
	q = kzalloc(sizeof(*q), GFP_KERNEL);
	ck_assert_ptr_nonnull(q);
	memcpy(q->buf, packet, RX_LEN);
	h = map(q->buf, RX_LEN, DMA_TO_DEVICE);
	q->posted = 3;
	dma_unmap_single(dev, h, RX_LEN, DMA_TO_DEVICE);
	kfree(q);
	fixture_finish(&m, &dd, 0);
}
END_TEST

/*
 * The profiles' own ARCH_DMA_MINALIGN (dma_minalign's default, 128 on
 * arm64, the line on arm) gives every kmalloc() object lines of its own:
 * a counter allocated apart never shares the buffer's line.  It protects
 * the start of an allocation only: a buffer inside a struct still shares.
 */
START_TEST(test_default_minalign)
{
	u32 *count;
	u8 *buf;
	struct rxq *q;
	dma_addr_t h;
	int line;

	m = fixture_machine("mem=16M:profile=%s", _i ? "arm" : "arm64");
	dd = dmaemu_device_create(m, "nic0", NULL, NULL);
	ck_assert_ptr_nonnull(dd);
	dev = dmaemu_device_to_dev(dd);
	ck_assert_int_eq(dma_set_mask_and_coherent(dev, DMA_BIT_MASK(64)), 0);
	buf = kzalloc(RX_LEN, GFP_KERNEL);
	count = kzalloc(sizeof(*count), GFP_KERNEL);
	q = kzalloc(sizeof(*q), GFP_KERNEL);
	ck_assert_ptr_nonnull(buf);
	ck_assert_ptr_nonnull(count);
	ck_assert_ptr_nonnull(q);
	h = map(buf, RX_LEN, DMA_FROM_DEVICE);
	*count = 1;
	dma_unmap_single(dev, h, RX_LEN, DMA_FROM_DEVICE);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 0);
	h = map(q->buf, RX_LEN, DMA_FROM_DEVICE);
	STORE(q->posted, 1, line);
	dma_unmap_single(dev, h, RX_LEN, DMA_FROM_DEVICE);
	assert_store_report("arm", &q->posted, line);
	kfree(q);
	kfree(count);
	kfree(buf);
	fixture_finish(&m, &dd, 1);
}
END_TEST

/*
 * Behind swiotlb=force the device writes a bounce slot, so the data is
 * right here; the layout is still the driver's bug wherever the buffer is
 * not bounced, so the store is reported all the same (an error on arm
 * and arm64, a note on x86), saying the bounce hides it, and the device's
 * bytes arrive whole.
 */
START_TEST(test_bounced)
{
	const char *p = profiles[_i];
	char opts[64];
	struct dmaemu_report r;
	struct rxq *q;
	dma_addr_t h;
	int line;

	snprintf(opts, sizeof(opts), "profile=%s:swiotlb=force", p);
	start(opts);
	q = kzalloc(sizeof(*q), GFP_KERNEL);
	ck_assert_ptr_nonnull(q);
	h = map(q->buf, RX_LEN, DMA_FROM_DEVICE);
	ck_assert_int_eq(dmaemu_dma_write(dd, h, packet, RX_LEN), 0);
	STORE(q->posted, 1, line);
	dma_unmap_single(dev, h, RX_LEN, DMA_FROM_DEVICE);
	ck_assert(!memcmp(q->buf, packet, RX_LEN));
	assert_store_report(p, &q->posted, line);
	ck_assert_uint_eq(reports_of("shared-line-store", &r), 1);
	ck_assert_msg(strstr(r.text, is_x86(p) ? "correct on x86"
					       : "the map bouncing through "
						 "swiotlb"),
		      "%s", r.text);
	ck_assert_ptr_nonnull(strstr(r.text, "swiotlb backend"));
	kfree(q);
	fixture_finish(&m, &dd, 1);
}
END_TEST

/* With portability_notes=0, x86 says nothing; nor does a machine without
 * the coherence checks. */
START_TEST(test_harmless_configs)
{
	static const char *const cfgs[] = {
		"profile=x86:portability_notes=0",
		"profile=arm64:checks=-coherence",
	};
	struct rxq *q;
	dma_addr_t h;

	start(cfgs[_i]);
	q = kzalloc(sizeof(*q), GFP_KERNEL);
	ck_assert_ptr_nonnull(q);
	h = map(q->buf, RX_LEN, DMA_FROM_DEVICE);
	q->posted = 1;
	ck_assert_int_eq(dmaemu_dma_write(dd, h, packet, RX_LEN), 0);
	q->drops = 1;
	dma_unmap_single(dev, h, RX_LEN, DMA_FROM_DEVICE);
	ck_assert(!memcmp(q->buf, packet, RX_LEN) || _i == 1);
	kfree(q);
	fixture_finish(&m, &dd, 0);
}
END_TEST

/*
 * x86's kmalloc() packs small objects into one line (no
 * ARCH_DMA_MINALIGN): a store into another object that shares the
 * buffer's line is no portability bug (arm's kmalloc() would part the
 * two objects), so no note.  The same layout inside one object is.
 */
START_TEST(test_x86_other_object)
{
	u8 *buf, *other;
	dma_addr_t h;

	m = fixture_machine("mem=16M:profile=x86");
	dd = dmaemu_device_create(m, "nic0", NULL, NULL);
	ck_assert_ptr_nonnull(dd);
	dev = dmaemu_device_to_dev(dd);
	ck_assert_int_eq(dma_set_mask_and_coherent(dev, DMA_BIT_MASK(64)), 0);
	buf = kzalloc(16, GFP_KERNEL);
	other = kzalloc(16, GFP_KERNEL);
	ck_assert_ptr_nonnull(buf);
	ck_assert_ptr_nonnull(other);
	ck_assert_uint_eq(phys_of(buf) >> 6, phys_of(other) >> 6);
	h = map(buf, 16, DMA_FROM_DEVICE);
	other[0] = 1;
	dma_unmap_single(dev, h, 16, DMA_FROM_DEVICE);
	kfree(other);
	kfree(buf);
	fixture_finish(&m, &dd, 0);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Stores the hooks do not see                                            */
/* ---------------------------------------------------------------------- */

/* What uninstrumented code does: a store the model never sees. */
static __attribute__((no_sanitize_address, no_sanitize_thread, noinline)) void
plain_store(u32 *p, u32 v)
{
	*(volatile u32 *)p = v;
}

/*
 * An uninstrumented store beside the buffer while the device owns it is
 * found at the next call that gives the line back to the CPU (the unmap,
 * or a sync_for_cpu): the line is dirty in the CPU's copy and the cache
 * model never saw the store.  When that call's clean loses the device's
 * bytes, its lost-device-write is the one report at that line of the
 * driver.  x86 keeps no record of what the CPU stored after the map (no
 * clean at map), and a store while the CPU owns the buffer is the
 * driver's right.
 */
START_TEST(test_uninstrumented)
{
	const bool arm = _i == 1;
	struct dmaemu_report r;
	struct rxq *q;
	dma_addr_t h;
	int line;

	start(arm ? "profile=arm" : "profile=arm64");
	q = kzalloc(sizeof(*q), GFP_KERNEL);
	ck_assert_ptr_nonnull(q);

	/* 1. Nothing of the device in the line: reported at the unmap. */
	h = map(q->buf, RX_LEN, DMA_FROM_DEVICE);
	/* Every byte changes: dirtiness is CPU != TWIN, byte by byte. */
	plain_store(&q->posted, 0x01010101);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 0);
	STORE_AT(dma_unmap_single(dev, h, RX_LEN, DMA_FROM_DEVICE), line);
	ck_assert_uint_eq(reports_of("shared-line-store", &r), 1);
	ck_assert_msg(strstr(r.where, at_line(line)), "where: %s", r.where);
	ck_assert_uint_eq(r.phys, phys_of(&q->posted));
	ck_assert_uint_eq(r.size, 4);
	ck_assert_uint_eq(r.mask[0], 0xfULL << (phys_of(q) & 63));
	ck_assert_msg(strstr(r.text, "stored by code the hooks do not see"),
		      "%s", r.text);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 1);

	/* 2. The same at a sync_for_cpu, of a DMA_BIDIRECTIONAL mapping;
	 *    the unmap after it finds the line clean. */
	h = map(q->buf, RX_LEN, DMA_BIDIRECTIONAL);
	plain_store(&q->drops, 1);
	STORE_AT(dma_sync_single_for_cpu(dev, h, RX_LEN, DMA_BIDIRECTIONAL),
		 line);
	ck_assert_uint_eq(dmaemu_report_count(m, "shared-line-store"), 2);
	dma_unmap_single(dev, h, RX_LEN, DMA_BIDIRECTIONAL);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 2);

	/* 3. The device wrote the line: the unmap's clean loses its bytes,
	 *    one report there, lost-device-write. */
	h = map(q->buf, RX_LEN, DMA_FROM_DEVICE);
	plain_store(&q->posted, 2);
	ck_assert_int_eq(dmaemu_dma_write(dd, h, packet, RX_LEN), 0);
	dma_unmap_single(dev, h, RX_LEN, DMA_FROM_DEVICE);
	ck_assert_uint_eq(dmaemu_report_count(m, "lost-device-write"), 1);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 3);

	/* 4. Stores while the CPU owns the buffer: nothing, even at a
	 *    second sync_for_cpu. */
	h = map(q->buf, RX_LEN, DMA_FROM_DEVICE);
	dma_sync_single_for_cpu(dev, h, RX_LEN, DMA_FROM_DEVICE);
	plain_store(&q->posted, 0x03030303);
	dma_sync_single_for_cpu(dev, h, RX_LEN, DMA_FROM_DEVICE);
	dma_sync_single_for_device(dev, h, RX_LEN, DMA_FROM_DEVICE);
	ck_assert_int_eq(dmaemu_dma_write(dd, h, packet, RX_LEN), 0);
	dma_unmap_single(dev, h, RX_LEN, DMA_FROM_DEVICE);
	ck_assert(!memcmp(q->buf, packet, RX_LEN));
	ck_assert_uint_eq(q->posted, 0x03030303);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 3);
	kfree(q);
	fixture_finish(&m, &dd, 3);
}
END_TEST

/*
 * A store made before the map is no bug: the map's clean writes it back
 * on arm and arm64.  Where the map cleans nothing (x86, a
 * DMA_ATTR_SKIP_CPU_SYNC map) the line stays dirty with it, and the
 * unmap must not take it for a store made while the device owned the
 * line.
 */
START_TEST(test_uninstrumented_silent)
{
	static const char *const cfgs[] = {"profile=x86", "profile=arm64",
					   "profile=arm64"};
	unsigned long attrs = _i == 2 ? DMA_ATTR_SKIP_CPU_SYNC : 0;
	struct rxq *q;
	dma_addr_t h;

	start(cfgs[_i]);
	q = kzalloc(sizeof(*q), GFP_KERNEL);
	ck_assert_ptr_nonnull(q);
	/* kzalloc()'s zeros written back: the model holds the line clean,
	 * and only the CPU's copy says what the store below did. */
	ck_assert_int_eq(dmaemu_cache_clean(m, phys_of(q) & ~63ULL, 64), 0);
	plain_store(&q->posted, 0x01010101);
	ck_assert(fixture_cpu_dirty(m, phys_of(q)));
	h = dma_map_single_attrs(dev, q->buf, RX_LEN, DMA_FROM_DEVICE, attrs);
	ck_assert(!dma_mapping_error(dev, h));
	dma_unmap_single_attrs(dev, h, RX_LEN, DMA_FROM_DEVICE, attrs);
	ck_assert_uint_eq(q->posted, 0x01010101);
	kfree(q);
	fixture_finish(&m, &dd, 0);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* A device on its own thread: lockstep seeds, free-running threads       */
/* ---------------------------------------------------------------------- */

struct rxdev {
	dma_addr_t dma;
	int wrote; /* dmaemu_dma_write()'s return */
	struct completion done;
};

/* The device's thread: the packet lands when the doorbell is seen. */
static void rxdev_run(struct dmaemu_device *d, unsigned int events)
{
	struct rxdev *x = dmaemu_device_priv(d);

	if (!(events & DMAEMU_DEVICE_DOORBELL))
		return;
	x->wrote = dmaemu_dma_write(d, x->dma, packet, RX_LEN);
	complete(&x->done);
}

static const struct dmaemu_device_ops rxdev_ops = {
	.run = rxdev_run,
};

/*
 * Post the buffer, ring, count the post under a lock (a scheduling point:
 * the seed decides whether the device writes before or after the store),
 * wait, unmap.  Return: whether the packet arrived intact; *@line: the
 * store's line.
 */
static bool threaded_run(const char *opts, int *line)
{
	struct dmaemu_device *d;
	static struct rxdev x;
	spinlock_t lock;
	struct rxq *q;
	bool ok;

	m = fixture_machine("mem=16M:dma_minalign=8:%s", opts);
	init_completion(&x.done);
	spin_lock_init(&lock);
	x.wrote = -1;
	d = dmaemu_device_create(m, "rx0", &rxdev_ops, &x);
	ck_assert_ptr_nonnull(d);
	dev = dmaemu_device_to_dev(d);
	ck_assert_int_eq(dma_set_mask_and_coherent(dev, DMA_BIT_MASK(64)), 0);
	q = kzalloc(sizeof(*q), GFP_KERNEL);
	ck_assert_ptr_nonnull(q);
	x.dma = map(q->buf, RX_LEN, DMA_FROM_DEVICE);
	ck_assert_int_eq(dmaemu_device_doorbell(d), 0);
	spin_lock(&lock);
	STORE(q->posted, 1, *line);
	spin_unlock(&lock);
	wait_for_completion(&x.done);
	ck_assert_int_eq(x.wrote, 0);
	dma_unmap_single(dev, x.dma, RX_LEN, DMA_FROM_DEVICE);
	ok = !memcmp(q->buf, packet, RX_LEN);
	assert_store_report(strstr(opts, "x86") ? "x86" : "arm", &q->posted,
			    *line);
	ck_assert_uint_eq(reports_of("lost-device-write", NULL), !ok);
	kfree(q);
	dd = d;
	fixture_finish(&m, &dd, ok ? 1 : 2);
	return ok;
}

/* Every seed: one report at the store, whichever side went first; the
 * seeds give both orders (the data is lost in some runs only). */
START_TEST(test_lockstep_seeds)
{
	unsigned int seed, lost = 0, kept = 0;
	char opts[96];
	int line;

	for (seed = 1; seed <= 16; seed++) {
		snprintf(opts, sizeof(opts),
			 "profile=%s:sched=lockstep:seed=%u",
			 _i ? "arm" : "arm64", seed);
		if (threaded_run(opts, &line))
			kept++;
		else
			lost++;
	}
	ck_assert_uint_gt(lost, 0);
	ck_assert_uint_gt(kept, 0);
}
END_TEST

/* x86 under lockstep: a note in every run, never data lost. */
START_TEST(test_lockstep_x86)
{
	unsigned int seed;
	char opts[96];
	int line;

	for (seed = 1; seed <= 4; seed++) {
		snprintf(opts, sizeof(opts),
			 "profile=x86:sched=lockstep:seed=%u", seed);
		ck_assert(threaded_run(opts, &line));
	}
}
END_TEST

/* Free-running threads: whatever the host's timing, every run. */
START_TEST(test_threads)
{
	int run, line;

	for (run = 0; run < 10; run++)
		threaded_run("profile=arm64:sched=threads", &line);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("shared-line");
	TCase *tc = tcase_create("shared-line");

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_cpu_first, 0, NPROFILES);
	tcase_add_loop_test(tc, test_device_first, 0, 2 * NPROFILES);
	tcase_add_test(tc, test_one_per_site);
	tcase_add_test(tc, test_scatterlist);
	tcase_add_test(tc, test_store_over_both);
	tcase_add_loop_test(tc, test_correct, 0, NPROFILES);
	tcase_add_loop_test(tc, test_default_minalign, 0, 2);
	tcase_add_loop_test(tc, test_bounced, 0, NPROFILES);
	tcase_add_loop_test(tc, test_harmless_configs, 0, 2);
	tcase_add_test(tc, test_x86_other_object);
	tcase_add_loop_test(tc, test_uninstrumented, 0, 2);
	tcase_add_loop_test(tc, test_uninstrumented_silent, 0, 3);
	tcase_add_loop_test(tc, test_lockstep_seeds, 0, 2);
	tcase_add_test(tc, test_lockstep_x86);
	tcase_add_test(tc, test_threads);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(suite());
}
