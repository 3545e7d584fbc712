// SPDX-License-Identifier: MIT
/*
 * check-slab.c - kmalloc() and friends: size classes, alignment to the
 * DMA minimum alignment under several machine options, ksize(), krealloc(),
 * overflow checks, ZERO_SIZE_PTR, string helpers, bad frees, bookkeeping
 * kept out of emulated memory, and no leaks.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/gfp.h>
#include <linux/hardirq.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include <dmaemu/machine.h>
#include <dmaemu/mm.h>
#include <dmaemu/report.h>
#include <dmaemu/testing.h>

#include "check-run.h"
#include "fixture.h"

static struct dmaemu_machine *m;

/* A machine with @opts; reports go to the fixture's log. */
static void mk(const char *opts)
{
	m = fixture_machine("%s", opts);
}

static void done(void)
{
	dmaemu_machine_destroy(m);
	m = NULL;
	fixture_teardown();
}

static void setup(void)
{
}

static uint64_t reports(const char *kind)
{
	return dmaemu_report_count(m, kind);
}

static struct dmaemu_mm_stats stats(void)
{
	struct dmaemu_mm_stats st;

	ck_assert_int_eq(dmaemu_mm_stats(m, &st), 0);
	return st;
}

/*
 * @p as an object of its whole size class.  <linux/slab.h> declares
 * kmalloc() and friends with alloc_size, so to the compiler the bytes past
 * the size asked for are out of bounds (UBSan's object-size check and
 * _FORTIFY_SOURCE stop there) though ksize() counts them; krealloc() to
 * ksize() returns the same object, declared with its full size, which is
 * how kernel code may use the slack.
 */
static void *whole(void *p)
{
	void *w = krealloc(p, ksize(p), GFP_KERNEL);

	ck_assert_ptr_eq(w, p);
	return w;
}

static bool all_bytes(const void *p, int c, size_t n)
{
	const unsigned char *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		if (b[i] != c)
			return false;
	return true;
}

/* ---------------------------------------------------------------------- */
/* Size classes and alignment                                             */
/* ---------------------------------------------------------------------- */

struct sizing {
	size_t ask, got;
};

static void ck_sizes(const struct sizing *s, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		void *p = kmalloc(s[i].ask, GFP_KERNEL);

		ck_assert_ptr_nonnull(p);
		ck_assert_msg(ksize(p) == s[i].got,
			      "kmalloc(%zu): ksize %zu, want %zu", s[i].ask,
			      ksize(p), s[i].got);
		kfree(p);
	}
}

START_TEST(test_classes_default)
{
	static const struct sizing s[] = {
		{1, 128},     {64, 128},     {65, 128},	       {128, 128},
		{129, 256},   {192, 256},    {193, 256},       {257, 512},
		{513, 1024},  {1025, 2048},  {2049, 4096},     {4097, 8192},
		{8192, 8192}, {8193, 16384}, {100000, 131072},
	};
	struct dmaemu_mm_stats st;
	void *p[5];
	int i;

	/* arm64 defaults: ARCH_DMA_MINALIGN 128 as in Linux 4.14, so there
	 * are no kmalloc-64 or kmalloc-192 caches (KMALLOC_MIN_SIZE 128). */
	mk("mem=16m");
	ck_sizes(s, (int)(sizeof(s) / sizeof(s[0])));
	p[0] = kmalloc_node(100, GFP_KERNEL, 0);
	ck_assert_uint_eq(ksize(p[0]), 128);
	kfree(p[0]);
	/* kmalloc-8192 slabs are order 3: four objects each. */
	for (i = 0; i < 4; i++)
		p[i] = kmalloc(8192, GFP_KERNEL);
	ck_assert_uint_eq(stats().slabs, 1);
	p[4] = kmalloc(8000, GFP_KERNEL);
	st = stats();
	ck_assert_uint_eq(st.slabs, 2);
	ck_assert_uint_eq(st.kmalloc_objects, 5);
	ck_assert_uint_eq(st.kmalloc_bytes, 5 * 8192);
	ck_assert_uint_eq(st.pages_free, 4096 - 16);
	for (i = 0; i < 5; i++)
		kfree(p[i]);
	st = stats();
	ck_assert_uint_eq(st.slabs, 0);
	ck_assert_uint_eq(st.kmalloc_objects, 0);
	ck_assert_uint_eq(st.pages_free, 4096);
	ck_assert_uint_eq(reports(NULL), 0);
}
END_TEST

struct align_case {
	const char *opts;
	unsigned int align;
	struct sizing s[4];
};

static const struct align_case align_cases[] = {
	{"mem=16m:dma_minalign=8", 8, {{1, 8}, {9, 16}, {65, 96}, {129, 192}}},
	{"mem=16m:dma_minalign=1", 8, {{1, 8}, {17, 32}, {90, 96}, {97, 128}}},
	{"profile=arm:mem=16m:cache_line=32",
	 32,
	 {{1, 32}, {33, 64}, {65, 96}, {97, 128}}},
	/* The profiles' own ARCH_DMA_MINALIGN (Linux 4.14). */
	{"mem=16m", 128, {{1, 128}, {129, 256}, {257, 512}, {8000, 8192}}},
	{"profile=arm:mem=16m", 64, {{1, 64}, {65, 128}, {129, 192}}},
	{"profile=x86:mem=16m", 8, {{1, 8}, {9, 16}, {65, 96}, {129, 192}}},
	{"mem=16m:cache_line=64:dma_minalign=32",
	 32,
	 {{1, 32}, {40, 64}, {65, 96}, {193, 256}}},
	{"mem=16m:dma_minalign=128",
	 128,
	 {{1, 128}, {129, 256}, {257, 512}, {8000, 8192}}},
	{"mem=16m:cache_line=128", 128, {{1, 128}, {129, 256}, {130, 256}}},
	{"mem=16m:dma_minalign=4096", 4096, {{1, 4096}, {4097, 8192}}},
};

static int cmp_ptr(const void *a, const void *b)
{
	uintptr_t x = *(const uintptr_t *)a, y = *(const uintptr_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Every object starts on a multiple of the DMA minimum alignment and no
 * two objects share an aligned unit, so a buffer can be mapped for DMA
 * without sharing a cache line with its neighbours.
 */
START_TEST(test_alignment)
{
	const struct align_case *c = &align_cases[_i];
	enum { N = 300 };
	uintptr_t p[N];
	uint64_t x = 12345;
	int i, k;

	mk(c->opts);
	for (k = 0; k < 4 && c->s[k].ask; k++)
		ck_sizes(&c->s[k], 1);
	for (i = 0; i < N; i++) {
		size_t size;

		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		size = 1 + (size_t)(x >> 33) % 3000;
		p[i] = (uintptr_t)kmalloc(size, GFP_KERNEL);
		ck_assert_uint_ne(p[i], 0);
		ck_assert_msg(p[i] % c->align == 0, "%s: kmalloc(%zu) at %#lx",
			      c->opts, size, (unsigned long)p[i]);
		ck_assert_uint_eq(ksize((void *)p[i]) % c->align, 0);
		ck_assert_uint_ge(ksize((void *)p[i]), size);
	}
	qsort(p, N, sizeof(p[0]), cmp_ptr);
	for (i = 1; i < N; i++)
		ck_assert_uint_ge(p[i], p[i - 1] + ksize((void *)p[i - 1]));
	for (i = 0; i < N; i++)
		kfree((void *)p[i]);
	ck_assert_uint_eq(stats().kmalloc_objects, 0);
	ck_assert_uint_eq(stats().pages_free, 4096);
	ck_assert_uint_eq(reports(NULL), 0);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Contents                                                               */
/* ---------------------------------------------------------------------- */

START_TEST(test_zeroing)
{
	void *keep, *p, *q;
	size_t i;

	mk("mem=16m");
	keep = kmalloc(100, GFP_KERNEL); /* keeps the slab alive */
	p = whole(kmalloc(100, GFP_KERNEL));
	memset(p, 0xab, ksize(p));
	kfree(p);
	q = whole(kmalloc(100, GFP_KERNEL));
	ck_assert_ptr_eq(q, p); /* the same object, not zeroed */
	ck_assert(all_bytes(q, 0xab, ksize(q)));
	kfree(q);
	q = whole(kzalloc(100, GFP_KERNEL));
	ck_assert_ptr_eq(q, p);
	ck_assert(all_bytes(q, 0, ksize(q))); /* the whole object */
	memset(q, 0xab, ksize(q));
	kfree(q);
	q = whole(kmalloc(100, GFP_KERNEL | __GFP_ZERO));
	ck_assert(all_bytes(q, 0, ksize(q)));
	memset(q, 0xab, ksize(q));
	kfree(q);
	q = whole(kcalloc(10, 10, GFP_KERNEL));
	ck_assert(all_bytes(q, 0, ksize(q)));
	memset(q, 0xcd, ksize(q));
	kzfree(q); /* zeroes, then frees */
	ck_assert(all_bytes(p, 0, 128));
	kfree(keep);

	p = kmalloc(20000, GFP_KERNEL);
	memset(p, 0x11, 20000);
	kfree(p);
	q = whole(kzalloc(20000, GFP_KERNEL));
	ck_assert_ptr_eq(q, p);
	ck_assert(all_bytes(q, 0, ksize(q)));
	kfree(q);

	q = kvzalloc(300, GFP_KERNEL);
	for (i = 0; i < 300; i++)
		ck_assert_int_eq(((unsigned char *)q)[i], 0);
	kvfree(q);
	q = kvmalloc(300, GFP_KERNEL);
	ck_assert_uint_eq(ksize(q), 512);
	kvfree(q);
	ck_assert_uint_eq(stats().kmalloc_objects, 0);
	ck_assert_uint_eq(reports(NULL), 0);
}
END_TEST

/* Hidden from the compiler, which would warn about the constants. */
static volatile size_t huge = SIZE_MAX / 2;

START_TEST(test_overflow)
{
	size_t half = huge, max = huge * 2 + 1;
	void *p, *big[2];

	mk("mem=16m");
	p = kmalloc_array(10, 8, GFP_KERNEL);
	ck_assert_uint_eq(ksize(p), 128);
	kfree(p);
	ck_assert_ptr_null(kmalloc_array(half, 4, GFP_KERNEL));
	ck_assert_uint_eq(reports("alloc-failure"), 1);
	ck_assert_ptr_nonnull(strstr(fixture_log(), "kmalloc_array("));
	ck_assert_ptr_nonnull(strstr(fixture_log(), "overflows size_t"));
	ck_assert_ptr_null(kcalloc(4, half, GFP_KERNEL));
	ck_assert_uint_eq(reports("alloc-failure"), 2);
	ck_assert_ptr_null(kvmalloc_array(max, max, GFP_KERNEL));
	ck_assert_uint_eq(reports("alloc-failure"), 3);
	ck_assert_ptr_null(kmalloc_array(half, 4, GFP_KERNEL | __GFP_NOWARN));
	ck_assert_uint_eq(reports("alloc-failure"), 3);

	ck_assert_ptr_null(kmalloc(KMALLOC_MAX_SIZE + 1, GFP_KERNEL));
	ck_assert_uint_eq(reports("alloc-failure"), 4);
	ck_assert_ptr_nonnull(strstr(fixture_log(),
				     "larger than "
				     "KMALLOC_MAX_SIZE (4194304)"));
	p = kmalloc(KMALLOC_MAX_SIZE, GFP_KERNEL);
	ck_assert_ptr_nonnull(p);
	kfree(p);
	/* Memory exhausted: the page allocator's report names kmalloc.  Three
	 * of the four 4 MiB blocks fit above the 128-page watermark. */
	big[0] = kmalloc(KMALLOC_MAX_SIZE, GFP_KERNEL);
	big[1] = kmalloc(KMALLOC_MAX_SIZE, GFP_KERNEL);
	p = kmalloc(KMALLOC_MAX_SIZE, GFP_KERNEL);
	ck_assert(big[0] && big[1] && p);
	ck_assert_ptr_null(kmalloc(3 << 20, GFP_KERNEL));
	ck_assert_uint_eq(reports("alloc-failure"), 5);
	ck_assert_ptr_nonnull(strstr(fixture_log(),
				     "kmalloc: page allocation failure: "
				     "order:10, mode:0x14040c0"
				     "(GFP_KERNEL|__GFP_COMP)"));
	kfree(big[0]);
	kfree(big[1]);
	kfree(p);
	ck_assert_uint_eq(reports(NULL), 5);
}
END_TEST

START_TEST(test_krealloc)
{
	char *p, *q, *r;
	int i;

	mk("mem=16m:dma_minalign=64"); /* 64-byte objects */
	p = kmalloc(10, GFP_KERNEL);
	memcpy(p, "0123456789", 10);
	q = krealloc(p, 40, GFP_KERNEL); /* still fits in its class */
	ck_assert_ptr_eq(q, p);
	r = krealloc(p, 1000, GFP_KERNEL);
	ck_assert_ptr_ne(r, p);
	ck_assert_int_eq(memcmp(r, "0123456789", 10), 0);
	ck_assert_uint_eq(ksize(r), 1024);
	ck_assert_uint_eq(stats().kmalloc_objects, 1); /* p was freed */
	for (i = 0; i < 1000; i++)
		r[i] = (char)i;
	q = krealloc(r, 100000, GFP_KERNEL);
	for (i = 0; i < 1000; i++)
		ck_assert_int_eq(q[i], (char)i);
	ck_assert_uint_eq(stats().kmalloc_objects, 1);
	r = krealloc(q, 0, GFP_KERNEL);
	ck_assert_ptr_eq(r, ZERO_SIZE_PTR);
	ck_assert_uint_eq(stats().kmalloc_objects, 0);
	p = krealloc(NULL, 50, GFP_KERNEL);
	ck_assert_uint_eq(ksize(p), 64);
	kfree(p);
	ck_assert_uint_eq(reports(NULL), 0);

	/* Not an object: refused, nothing freed. */
	ck_assert_ptr_null(krealloc(&i, 100, GFP_KERNEL));
	ck_assert_uint_eq(reports("bad-argument"), 1);
	ck_assert_uint_eq(stats().kmalloc_objects, 0);
}
END_TEST

START_TEST(test_zero_size)
{
	mk("mem=16m");
	ck_assert_ptr_eq(kmalloc(0, GFP_KERNEL), ZERO_SIZE_PTR);
	ck_assert_ptr_eq(kzalloc(0, GFP_KERNEL), ZERO_SIZE_PTR);
	ck_assert_ptr_eq(kcalloc(0, 8, GFP_KERNEL), ZERO_SIZE_PTR);
	ck_assert_uint_eq(ksize(ZERO_SIZE_PTR), 0);
	ck_assert_uint_eq(ksize(NULL), 0);
	ck_assert(ZERO_OR_NULL_PTR(ZERO_SIZE_PTR));
	ck_assert(ZERO_OR_NULL_PTR(NULL));
	kfree(ZERO_SIZE_PTR);
	kfree(NULL);
	kzfree(NULL);
	ck_assert_uint_eq(stats().kmalloc_objects, 0);
	ck_assert_uint_eq(reports(NULL), 0);
}
END_TEST

static char *vfmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *vfmt(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = kvasprintf(GFP_KERNEL, fmt, ap);
	va_end(ap);
	return s;
}

START_TEST(test_strings)
{
	char src[300], *s;
	void *d;
	int i;

	mk("mem=16m");
	s = kstrdup("hello", GFP_KERNEL);
	ck_assert_str_eq(s, "hello");
	ck_assert(virt_addr_valid(s));
	/* The copy was a CPU store through the cache model. */
	ck_assert(fixture_resident(m, virt_to_phys(s)));
	kfree(s);
	s = kstrndup("hello world", 5, GFP_KERNEL);
	ck_assert_str_eq(s, "hello");
	kfree(s);
	s = kstrndup("hi", 5, GFP_KERNEL);
	ck_assert_str_eq(s, "hi");
	kfree(s);
	ck_assert_ptr_null(kstrdup(NULL, GFP_KERNEL));
	ck_assert_ptr_null(kstrndup(NULL, 3, GFP_KERNEL));
	for (i = 0; i < 300; i++)
		src[i] = (char)(i * 7);
	d = kmemdup(src, sizeof(src), GFP_KERNEL);
	ck_assert_int_eq(memcmp(d, src, sizeof(src)), 0);
	ck_assert_uint_eq(ksize(d), 512);
	kfree(d);
	s = kasprintf(GFP_KERNEL, "%s-%d", "eth", 7);
	ck_assert_str_eq(s, "eth-7");
	kfree(s);
	s = vfmt("%05x|%c", 0xbeef, 'z');
	ck_assert_str_eq(s, "0beef|z");
	kfree(s);
	s = kasprintf(GFP_KERNEL, "%10000d", 1); /* a large object */
	ck_assert_uint_eq(strlen(s), 10000);
	ck_assert_uint_eq(ksize(s), 16384);
	kfree(s);
	ck_assert_uint_eq(stats().kmalloc_objects, 0);
	ck_assert_uint_eq(reports(NULL), 0);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Bad frees                                                              */
/* ---------------------------------------------------------------------- */

START_TEST(test_bad_kfree)
{
	struct dmaemu_mm_stats before;
	char *keep, *p, *big;
	unsigned long page;
	int local;

	mk("mem=16m:dma_minalign=64"); /* 64-byte objects */
	keep = kmalloc(64, GFP_KERNEL);
	p = kmalloc(64, GFP_KERNEL);
	big = kmalloc(20000, GFP_KERNEL);
	page = __get_free_page(GFP_KERNEL);
	before = stats();

	kfree(&local);
	ck_assert_uint_eq(reports("bad-free"), 1);
	ck_assert_ptr_nonnull(strstr(fixture_log(), "kfree("));
	ck_assert_ptr_nonnull(strstr(fixture_log(), "not emulated memory"));

	kfree(p + 1);
	ck_assert_uint_eq(reports("bad-free"), 2);
	ck_assert_ptr_nonnull(strstr(fixture_log(),
				     "is 1 bytes into the 64-byte "
				     "kmalloc object"));

	kfree(big + PAGE_SIZE);
	ck_assert_uint_eq(reports("bad-free"), 3);
	ck_assert_ptr_nonnull(strstr(fixture_log(),
				     "is 4096 bytes into the "
				     "32768-byte kmalloc object"));

	kfree((void *)page);
	ck_assert_uint_eq(reports("bad-free"), 4);
	ck_assert_ptr_nonnull(strstr(fixture_log(),
				     "is not kmalloc memory: it is page 0 of "
				     "an order-0 block"));

	kfree(dmaemu_phys_view(m, virt_to_phys(p), DMAEMU_REGION_UNCACHED));
	ck_assert_uint_eq(reports("bad-free"), 5);
	ck_assert_ptr_nonnull(strstr(fixture_log(), "the uncached alias"));

	ck_assert_uint_eq(ksize(&local), 0);
	ck_assert_uint_eq(reports("bad-argument"), 1);

	/* Nothing was freed by any of those. */
	ck_assert_uint_eq(stats().kmalloc_objects, before.kmalloc_objects);
	ck_assert_uint_eq(stats().pages_free, before.pages_free);

	kfree(p);
	kfree(p);
	ck_assert_uint_eq(reports("bad-free"), 6);
	ck_assert_ptr_nonnull(strstr(fixture_log(), "already free (double "
						    "free?)"));
	kzfree(p);
	ck_assert_uint_eq(reports("bad-free"), 7);

	kfree(keep);
	/* The slab is gone now: the double free is found in the pages. */
	kfree(keep);
	ck_assert_uint_eq(reports("bad-free"), 8);
	ck_assert_ptr_nonnull(strstr(fixture_log(), "free block of order"));
	kfree(big);
	free_page(page);
	ck_assert_uint_eq(stats().kmalloc_objects, 0);
	ck_assert_uint_eq(stats().pages_free, 4096);
	ck_assert_uint_eq(reports(NULL), 9);
}
END_TEST

START_TEST(test_bad_flags)
{
	void *p;

	mk("mem_base=0x100000:mem=64m");
	p = kmalloc(100, GFP_KERNEL | GFP_DMA);
	ck_assert_uint_lt(virt_to_phys(p), 16 << 20);
	kfree(p);
	p = kmalloc(100, GFP_KERNEL);
	ck_assert_uint_ge(virt_to_phys(p), 16 << 20);
	kfree(p);
	ck_assert_ptr_null(kmalloc(100, GFP_KERNEL | GFP_DMA32));
	ck_assert_uint_eq(reports("bad-argument"), 1);
	ck_assert_ptr_nonnull(strstr(fixture_log(),
				     "kmalloc(100, "
				     "GFP_KERNEL|GFP_DMA32): "
				     "__GFP_DMA32 and __GFP_HIGHMEM "
				     "are invalid for kmalloc"));
	ck_assert_ptr_null(kzalloc(100, GFP_HIGHUSER));
	ck_assert_uint_eq(reports("bad-argument"), 2);
	ck_assert_uint_eq(reports(NULL), 2);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Bookkeeping                                                            */
/* ---------------------------------------------------------------------- */

/*
 * Driver code (or a device) may scribble over every byte of a slab: the
 * free lists live in host memory, so kfree() still works.
 */
START_TEST(test_metadata_outside)
{
	void *obj[64];
	uint8_t *slab;
	int i;

	mk("mem=16m:dma_minalign=64"); /* 64-byte objects */
	for (i = 0; i < 64; i++)
		obj[i] = kmalloc(64, GFP_KERNEL);
	ck_assert_uint_eq(stats().slabs, 1); /* 64 objects in one page */
	slab = page_address(virt_to_page(obj[0]));
	memset(slab, 0xff, PAGE_SIZE);
	dmaemu_dram_write(m, virt_to_phys(slab), slab, PAGE_SIZE);
	for (i = 0; i < 64; i += 2)
		kfree(obj[i]);
	for (i = 0; i < 64; i += 2)
		ck_assert_ptr_eq(kmalloc(64, GFP_KERNEL), obj[i]);
	for (i = 0; i < 64; i++)
		kfree(obj[i]);
	ck_assert_uint_eq(stats().slabs, 0);
	ck_assert_uint_eq(stats().pages_free, 4096);
	ck_assert_uint_eq(reports(NULL), 0);
}
END_TEST

START_TEST(test_sleep_in_atomic)
{
	void *p, *q;

	mk("mem=16m");
	irq_enter();
	p = kmalloc(32, GFP_KERNEL);
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(reports("sleep-in-atomic"), 1);
	ck_assert_ptr_nonnull(
		strstr(fixture_log(), "kmalloc(GFP_KERNEL) may sleep"));
	q = kzalloc(32, GFP_ATOMIC);
	ck_assert_uint_eq(reports("sleep-in-atomic"), 1);
	kfree(q);
	kfree(p); /* kfree never sleeps */
	irq_exit();
	ck_assert_uint_eq(reports(NULL), 1);
}
END_TEST

START_TEST(test_no_machine)
{
	mk("mem=4m");
	dmaemu_machine_set_current(NULL);
	ck_assert_ptr_null(kmalloc(10, GFP_KERNEL));
	ck_assert_ptr_null(kstrdup("x", GFP_KERNEL));
	dmaemu_machine_set_current(m);
	ck_assert_uint_eq(reports(NULL), 0);
}
END_TEST

/* Destroying a machine with live objects frees all of its bookkeeping
 * (Memcheck would see any host leak). */
START_TEST(test_destroy_with_live_objects)
{
	int i;

	mk("mem=16m");
	for (i = 0; i < 2000; i++)
		ck_assert_ptr_nonnull(
			kmalloc((size_t)(i % 700) * 13 + 1, GFP_KERNEL));
	for (i = 0; i < 5; i++)
		ck_assert_ptr_nonnull(kmalloc(50000, GFP_KERNEL));
	ck_assert_uint_eq(stats().kmalloc_objects, 2005);
}
END_TEST

struct worker {
	int id;
	int errors;
};

static void *churn(void *arg)
{
	struct worker *w = arg;
	uint64_t x = (uint64_t)w->id * 0x9e3779b97f4a7c15ULL + 7;
	unsigned char *held[32] = {0};
	size_t size[32] = {0};
	int i, k;

	for (i = 0; i < 4000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		k = (int)(x % 32);
		if (held[k]) {
			if (!all_bytes(held[k], w->id, size[k]))
				w->errors++;
			kfree(held[k]);
			held[k] = NULL;
		} else {
			size[k] = 1 + (size_t)(x >> 20) % (x & 1 ? 300 : 12000);
			held[k] = kmalloc(size[k], GFP_KERNEL);
			if (held[k])
				memset(held[k], w->id, size[k]);
		}
	}
	for (k = 0; k < 32; k++)
		kfree(held[k]);
	return NULL;
}

START_TEST(test_threads)
{
	struct worker w[4];
	pthread_t t[4];
	int i;

	mk("mem=16m");
	for (i = 0; i < 4; i++) {
		w[i].id = i + 1;
		w[i].errors = 0;
		ck_assert_int_eq(pthread_create(&t[i], NULL, churn, &w[i]), 0);
	}
	for (i = 0; i < 4; i++) {
		ck_assert_int_eq(pthread_join(t[i], NULL), 0);
		ck_assert_int_eq(w[i].errors, 0);
	}
	ck_assert_uint_eq(stats().kmalloc_objects, 0);
	ck_assert_uint_eq(stats().slabs, 0);
	ck_assert_uint_eq(stats().pages_free, 4096);
	ck_assert_uint_eq(reports(NULL), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("slab");
	TCase *tc = tcase_create("slab");

	tcase_add_checked_fixture(tc, setup, done);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_classes_default);
	tcase_add_loop_test(
		tc, test_alignment, 0,
		(int)(sizeof(align_cases) / sizeof(align_cases[0])));
	tcase_add_test(tc, test_zeroing);
	tcase_add_test(tc, test_overflow);
	tcase_add_test(tc, test_krealloc);
	tcase_add_test(tc, test_zero_size);
	tcase_add_test(tc, test_strings);
	tcase_add_test(tc, test_bad_kfree);
	tcase_add_test(tc, test_bad_flags);
	tcase_add_test(tc, test_metadata_outside);
	tcase_add_test(tc, test_sleep_in_atomic);
	tcase_add_test(tc, test_no_machine);
	tcase_add_test(tc, test_destroy_with_live_objects);
	tcase_add_test(tc, test_threads);
	suite_add_tcase(s, tc);
	return check_run(s);
}
