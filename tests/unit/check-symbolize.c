// SPDX-License-Identifier: MIT
/*
 * check-symbolize.c - code addresses in source terms (core/symbolize.c)
 * and the places reports name (core/report.c): a return address gives its
 * function, file and line, with the functions inlined there; the stack
 * above a site is found; a report made in an access site names the
 * access's line, inside an API call too; reports made at once from
 * several threads all name their own lines.  The suite is built with -g
 * (tests/local.mk): its own debug information is what it reads.  File
 * names are compared with __FILE__, the path the compiler was given.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "check-run.h"
#include "core/core.h"
#include "dmaemu/cpu.h"
#include "dmaemu/device.h"
#include "fixture.h"

#include <linux/dma-mapping.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>

#define NTHREADS 4
#define NREPORTS 8 /* per thread */

static void teardown(void)
{
	fixture_teardown();
}

/* The return address of this call: an address on the caller's line. */
static __attribute__((noinline)) const void *here(void)
{
	const void *ra = __builtin_return_address(0);

	__asm__ volatile("" : : "r"(ra) : "memory");
	return ra;
}

/* Does the log have @s? */
static bool logged(const char *s)
{
	return strstr(fixture_log(), s) != NULL;
}

START_TEST(test_function_file_line)
{
	struct dmaemu__frame f[4];
	const void *ra;
	char want[512], got[512];
	int line;

	ra = (line = __LINE__, here());
	ck_assert_uint_ge(dmaemu__symbolize(ra, f, 4), 1);
	ck_assert_str_eq(f[0].fn, "test_function_file_line_fn");
	ck_assert_str_eq(f[0].file, __FILE__);
	ck_assert_uint_eq(f[0].line, line);
	/* The "at" form of reports and "mapping made at". */
	dmaemu__code_where(ra, got, sizeof(got));
	snprintf(want, sizeof(want), "test_function_file_line_fn %s:%d",
		 __FILE__, line);
	ck_assert_str_eq(got, want);
}
END_TEST

/* An inlined function holding the call of here(), and where it is. */
static inline __attribute__((always_inline)) const void *inlined(int *line)
{
	return (*line = __LINE__, here());
}

static __attribute__((noinline)) const void *outer(int *l_in, int *l_out)
{
	const void *ra = (*l_out = __LINE__, inlined(l_in));

	__asm__ volatile("" : : "r"(ra) : "memory");
	return ra;
}

START_TEST(test_inlined_frames)
{
	struct dmaemu__frame f[4];
	int l_in = 0, l_out = 0;
	const void *ra = outer(&l_in, &l_out);
	unsigned int n = dmaemu__symbolize(ra, f, 4);

	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(f[0].fn, "inlined");
	ck_assert_uint_eq(f[0].line, l_in);
	ck_assert_str_eq(f[1].fn, "outer");
	ck_assert_str_eq(f[1].file, __FILE__);
	ck_assert_uint_eq(f[1].line, l_out);
	/* A frame buffer of one: the innermost only. */
	ck_assert_uint_eq(dmaemu__symbolize(ra, f, 1), 1);
	ck_assert_str_eq(f[0].fn, "inlined");
}
END_TEST

/*
 * A repeated lookup (a driver repeating its mistake) gives the same frames
 * as the first, also after hundreds of other addresses were looked up
 * (symbolize.c keeps the last ones), and a frame buffer deeper than what
 * is kept per address still gets every frame.
 */
static void same_frames(const struct dmaemu__frame *a,
			const struct dmaemu__frame *b, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		ck_assert_str_eq(a[i].fn, b[i].fn);
		ck_assert_str_eq(a[i].file, b[i].file);
		ck_assert_uint_eq(a[i].line, b[i].line);
	}
}

START_TEST(test_repeat)
{
	struct dmaemu__frame a[4], b[20], c[4];
	int l_in = 0, l_out = 0;
	const void *ra = outer(&l_in, &l_out);
	const char *text = (const char *)(uintptr_t)&outer;
	uint64_t before;
	unsigned int i, n;

	n = dmaemu__symbolize(ra, a, 4);
	ck_assert_uint_eq(n, 2);
	/* Each of 600 addresses (hundreds of lines, more than the cache
	 * holds): what a kept lookup answers is what a lookup too deep to
	 * be kept answers. */
	for (i = 0; i < 600; i++) {
		unsigned int k = dmaemu__symbolize(text + 1 + i, b, 20);

		ck_assert_uint_eq(dmaemu__symbolize(text + 1 + i, c, 4),
				  k < 4 ? k : 4);
		same_frames(b, c, k < 4 ? k : 4);
	}
	before = dmaemu__symbolize_count();
	ck_assert_uint_eq(dmaemu__symbolize(ra, b, 2), 2);
	ck_assert_uint_eq(dmaemu__symbolize_count(), before + 1);
	same_frames(a, b, 2);
	ck_assert_uint_eq(dmaemu__symbolize(ra, b, 20), 2);
	same_frames(a, b, 2);
	ck_assert_uint_eq(dmaemu__symbolize(ra, b, 4), 2);
	same_frames(a, b, 2);
	ck_assert_uint_eq(dmaemu__symbolize(ra, b, 1), 1);
	ck_assert_str_eq(b[0].fn, "inlined");
	ck_assert_uint_eq(b[0].line, l_in);
}
END_TEST

START_TEST(test_no_line_information)
{
	struct dmaemu__frame f;
	char buf[256];

	/* Not in any module. */
	ck_assert_uint_eq(dmaemu__symbolize((const void *)64, &f, 1), 0);
	ck_assert_uint_eq(dmaemu__symbolize(NULL, &f, 1), 0);
	dmaemu__code_where(NULL, buf, sizeof(buf));
	ck_assert_str_eq(buf, "(nil)");
}
END_TEST

/* The stack above the line in caller() that called this function. */
static __attribute__((noinline)) unsigned int stack_of_caller(const void **pcs,
							      unsigned int max)
{
	unsigned int n =
		dmaemu__stack_above(__builtin_return_address(0), pcs, max);

	__asm__ volatile("" : : "r"(n) : "memory");
	return n;
}

static __attribute__((noinline)) unsigned int caller(const void **pcs,
						     unsigned int max)
{
	unsigned int n = stack_of_caller(pcs, max);

	__asm__ volatile("" : : "r"(n) : "memory");
	return n;
}

START_TEST(test_stack_above)
{
	struct dmaemu__frame f;
	const void *pcs[4];
	unsigned int n;
	int line;

	n = (line = __LINE__, caller(pcs, 4));
	ck_assert_uint_ge(n, 1);
	/* The first frame above caller() is this test, at the call. */
	ck_assert_uint_eq(dmaemu__symbolize(pcs[0], &f, 1), 1);
	ck_assert_str_eq(f.fn, "test_stack_above_fn");
	ck_assert_uint_eq(f.line, line);
	/* At most @max, and nothing for a site not on the stack. */
	ck_assert_uint_eq(caller(pcs, 1), 1);
	ck_assert_uint_eq(dmaemu__stack_above((const void *)64, pcs, 4), 0);
}
END_TEST

/*
 * A report made by the CPU layer (an explicit accessor refusing a
 * NO_KERNEL_MAPPING cookie) names the accessor's caller; inside an API
 * call's context too, where it is the innermost.
 */
START_TEST(test_access_site)
{
	struct dmaemu_machine *m = fixture_machine("profile=arm64");
	struct dmaemu_device *d = dmaemu_device_create(m, "d0", NULL, NULL);
	struct device *dev = dmaemu_device_to_dev(d);
	struct dmaemu__call call;
	dma_addr_t h;
	void *cookie;
	char want[512];
	uint8_t b;
	int l_read, l_call;

	cookie = dma_alloc_attrs(dev, 4096, &h, GFP_KERNEL,
				 DMA_ATTR_NO_KERNEL_MAPPING);
	ck_assert_ptr_nonnull(cookie);
	ck_assert_int_eq((l_read = __LINE__, dmaemu_cpu_read(&b, cookie, 1)),
			 -EFAULT);
	snprintf(want, sizeof(want), "    at test_access_site_fn %s:%d\n",
		 __FILE__, l_read);
	ck_assert_msg(logged(want), "%s", fixture_log());
	snprintf(want, sizeof(want),
		 "\nSUMMARY: dmaemu: no-kernel-mapping-access %s:%d in "
		 "test_access_site_fn\n",
		 __FILE__, l_read);
	ck_assert_msg(logged(want), "%s", fixture_log());

	/* Inside a call context: the access is the innermost site. */
	fixture_log_clear();
	dmaemu__call_enter(&call, "dma_test_call", (l_call = __LINE__, here()));
	ck_assert_int_eq((l_read = __LINE__, dmaemu_cpu_read(&b, cookie, 1)),
			 -EFAULT);
	snprintf(want, sizeof(want),
		 "no-kernel-mapping-access %s:%d in test_access_site_fn\n",
		 __FILE__, l_read);
	ck_assert_msg(logged(want), "%s", fixture_log());
	ck_assert_msg(!logged("in dma_test_call()"), "%s", fixture_log());
	/* Out of the access, a report names the call and its caller. */
	fixture_log_clear();
	dmaemu__reportf(m, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0, "a misuse");
	dmaemu__call_leave(&call);
	snprintf(want, sizeof(want),
		 "    at test_access_site_fn %s:%d, in dma_test_call()\n",
		 __FILE__, l_call);
	ck_assert_msg(logged(want), "%s", fixture_log());

	dma_free_attrs(dev, 4096, cookie, h, DMA_ATTR_NO_KERNEL_MAPPING);
	fixture_finish(&m, &d, 3);
}
END_TEST

/* Reports from several threads at once, each naming its own line. */
struct worker {
	struct dmaemu_machine *m;
	int line;
	char where[512]; /* what dmaemu__code_where() said every time */
	bool same;
};

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct dmaemu__call c;
	char where[512];
	int i;

	w->same = true;
	for (i = 0; i < NREPORTS; i++) {
		const void *site = (w->line = __LINE__, here());

		dmaemu__code_where(site, where, sizeof(where));
		if (i == 0)
			memcpy(w->where, where, sizeof(where));
		else if (strcmp(where, w->where))
			w->same = false;
		dmaemu__call_enter(&c, NULL, site);
		dmaemu__reportf(w->m, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"from a thread");
		dmaemu__call_leave(&c);
	}
	return NULL;
}

/*
 * _i 0: report_fold=0, every report printed with its line; 1: folded,
 * one printed, and the fold table counts all of them though four threads
 * report at once.
 */
START_TEST(test_threads)
{
	struct dmaemu_machine *m =
		fixture_machine("profile=arm64%s", _i ? "" : ":report_fold=0");
	struct worker w[NTHREADS];
	pthread_t t[NTHREADS];
	const char *p;
	char want[512];
	int i, n = 0;

	for (i = 0; i < NTHREADS; i++) {
		memset(&w[i], 0, sizeof(w[i]));
		w[i].m = m;
		ck_assert_int_eq(
			pthread_create(&t[i], NULL, worker_main, &w[i]), 0);
	}
	for (i = 0; i < NTHREADS; i++)
		ck_assert_int_eq(pthread_join(t[i], NULL), 0);
	snprintf(want, sizeof(want),
		 "SUMMARY: dmaemu: bad-argument %s:%d in worker_main\n",
		 __FILE__, w[0].line);
	for (p = fixture_log(); (p = strstr(p, want)); p++)
		n++;
	ck_assert_int_eq(n, _i ? 1 : NTHREADS * NREPORTS);
	snprintf(want, sizeof(want), "worker_main %s:%d", __FILE__, w[0].line);
	for (i = 0; i < NTHREADS; i++) {
		ck_assert(w[i].same);
		ck_assert_str_eq(w[i].where, want);
	}
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), NTHREADS * NREPORTS);
	dmaemu_machine_destroy(m);
	snprintf(want, sizeof(want),
		 "dmaemu: ERROR SUMMARY: %d reports of 1 kind: %d printed, %d "
		 "folded",
		 NTHREADS * NREPORTS, _i ? 1 : NTHREADS * NREPORTS,
		 _i ? NTHREADS * NREPORTS - 1 : 0);
	ck_assert_ptr_nonnull(strstr(fixture_log(), want));
	snprintf(want, sizeof(want),
		 "dmaemu:   %d bad-argument at 1 driver line, first at %s:%d "
		 "in worker_main: ",
		 NTHREADS * NREPORTS, __FILE__, w[0].line);
	ck_assert_ptr_nonnull(strstr(fixture_log(), want));
}
END_TEST

/*
 * A correct driver's DMA calls make no symbol lookup: where a mapping was
 * made is formatted only when a report prints it (a lookup costs
 * microseconds; map+unmap of 4 KiB costs a few hundred nanoseconds).
 * _i: arm64, x86, arm64 with swiotlb=force, arm64 with iommu=1.
 */
START_TEST(test_no_lookup_without_report)
{
	static const char *const opts[] = {"profile=arm64", "profile=x86",
					   "profile=arm64:swiotlb=force",
					   "profile=arm64:iommu=1"};
	struct dmaemu_machine *m;
	struct dmaemu_device *d;
	struct scatterlist sg[2];
	struct device *dev;
	uint8_t *buf, *coh;
	dma_addr_t dma, h;
	uint64_t before;
	int i, n;

	m = fixture_machine("%s:mem=32M", opts[_i]);
	d = dmaemu_device_create(m, "dev0", NULL, NULL);
	ck_assert_ptr_nonnull(d);
	dev = dmaemu_device_to_dev(d);
	buf = kmalloc(8192, GFP_KERNEL);
	ck_assert_ptr_nonnull(buf);
	before = dmaemu__symbolize_count();
	for (i = 0; i < 20; i++) {
		dma = dma_map_single(dev, buf, 4096, DMA_FROM_DEVICE);
		ck_assert(!dma_mapping_error(dev, dma));
		ck_assert_int_eq(dmaemu_dma_write(d, dma, "x", 1), 0);
		dma_sync_single_for_cpu(dev, dma, 4096, DMA_FROM_DEVICE);
		dma_sync_single_for_device(dev, dma, 4096, DMA_FROM_DEVICE);
		dma_unmap_single(dev, dma, 4096, DMA_FROM_DEVICE);

		dma = dma_map_single(dev, buf, 4096, DMA_TO_DEVICE);
		ck_assert(!dma_mapping_error(dev, dma));
		ck_assert_int_eq(dmaemu_dma_read(d, dma, &n, 1), 0);
		dma_unmap_single(dev, dma, 4096, DMA_TO_DEVICE);

		sg_init_table(sg, 2);
		sg_set_buf(&sg[0], buf, 4096);
		sg_set_buf(&sg[1], buf + 4096, 4096);
		n = dma_map_sg(dev, sg, 2, DMA_BIDIRECTIONAL);
		ck_assert_int_ge(n, 1);
		dma_sync_sg_for_cpu(dev, sg, 2, DMA_BIDIRECTIONAL);
		dma_sync_sg_for_device(dev, sg, 2, DMA_BIDIRECTIONAL);
		dma_unmap_sg(dev, sg, 2, DMA_BIDIRECTIONAL);

		coh = dma_alloc_coherent(dev, 4096, &h, GFP_KERNEL);
		ck_assert_ptr_nonnull(coh);
		dma_free_coherent(dev, 4096, coh, h);
	}
	ck_assert_uint_eq(dmaemu__symbolize_count(), before);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 0);
	kfree(buf);
	dmaemu_device_destroy(d);
	dmaemu_machine_destroy(m);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("symbolize");
	TCase *tc = tcase_create("symbolize");

	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_function_file_line);
	tcase_add_test(tc, test_inlined_frames);
	tcase_add_test(tc, test_repeat);
	tcase_add_test(tc, test_no_line_information);
	tcase_add_test(tc, test_stack_above);
	tcase_add_test(tc, test_access_site);
	tcase_add_loop_test(tc, test_threads, 0, 2);
	tcase_add_loop_test(tc, test_no_lookup_without_report, 0, 4);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(suite());
}
