// SPDX-License-Identifier: MIT
/*
 * check-clean-paths.c - every way lineops.c writes lines back gives the
 * same data and the same reports: for 64-byte lines the default (the
 * AVX-512 pass on hosts that have it, else AVX2), the AVX2 pass, the SSE2
 * pass and the per-line loop, forced with dmaemu__clean_path; and the per-line loop for 32- and
 * 128-byte lines.  A range of lines of four kinds (fully dirty over device
 * bytes, clean with device bytes, dirty in part with and without device
 * bytes) crossing a page boundary is written back, and each copy of each
 * line is compared with what docs/model.md says.  The same switch chooses
 * how lines are reloaded (an invalidate): the AVX2 pass or the per-line
 * loop, checked the same way; and how a device's read copies MEM while it
 * asks whether the CPU holds any of the bytes dirty.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "check-run.h"
#include "dma/dma.h"
#include "fixture.h"

/* One run: a line size and, for 64-byte lines, the path forced. */
static const struct {
	unsigned int line;
	enum dmaemu__clean_path path;
	const char *opts;
} runs[] = {
	{64, DMAEMU__CLEAN_AUTO, ""},
	{64, DMAEMU__CLEAN_AVX2, ""},
	{64, DMAEMU__CLEAN_SSE2, ""},
	{64, DMAEMU__CLEAN_GENERIC, ""},
	{32, DMAEMU__CLEAN_AUTO, ":cache_size=8k"},
	{128, DMAEMU__CLEAN_AUTO, ""},
};

static void teardown(void)
{
	dmaemu__clean_path = DMAEMU__CLEAN_AUTO;
	fixture_teardown();
}

/* The CPU's value of byte @i of line @j (never 0, never the device's;
 * different in each 16-byte part of a line). */
static uint8_t cpu_value(unsigned int j, unsigned int i)
{
	return (uint8_t)(0x20 + (j * 7 + i) % 0x60);
}

/* The CPU writes bytes [@lo, @hi) of the line at @cpu. */
static void cpu_write(uint8_t *cpu, unsigned int j, unsigned int lo,
		      unsigned int hi)
{
	unsigned int i;

	for (i = lo; i < hi; i++)
		cpu[i] = cpu_value(j, i);
}

#define DEV_CLEAN 0xd0 /* device bytes in a clean line */
#define DEV_MIXED 0xd1 /* device bytes in a partly dirty line: lost */
#define DEV_FULL 0xd2  /* device bytes in a fully dirty line: overwritten */

/*
 * Line @j of the range is of kind j % 4:
 *   0  fully dirty (the CPU wrote every byte), the device wrote 8 bytes
 *      before: the CPU's line is written, no report
 *   1  clean, the device wrote bytes 3-9: nothing is written, they stay
 *   2  the CPU wrote the first half, the device the last byte: the whole
 *      line is written, the device's byte is lost (one report)
 *   3  the CPU wrote the second half: the whole line is written, no report
 */
static void prepare(struct dmaemu_machine *m, uint64_t base, unsigned int n)
{
	unsigned int line = m->line, j;

	for (j = 0; j < n; j++) {
		uint64_t lp = base + (uint64_t)j * line;
		uint8_t *cpu = dmaemu__phys_cpu(m, lp), dev[16];

		switch (j % 4) {
		case 0:
			memset(dev, DEV_FULL, 8);
			ck_assert_int_eq(dmaemu__mem_write(m, lp + 4, dev, 8),
					 0);
			cpu_write(cpu, j, 0, line);
			break;
		case 1:
			memset(dev, DEV_CLEAN, 7);
			ck_assert_int_eq(dmaemu__mem_write(m, lp + 3, dev, 7),
					 0);
			break;
		case 2:
			cpu_write(cpu, j, 0, line / 2);
			dev[0] = DEV_MIXED;
			ck_assert_int_eq(
				dmaemu__mem_write(m, lp + line - 1, dev, 1), 0);
			break;
		case 3:
			cpu_write(cpu, j, line / 2, line);
			break;
		}
	}
}

/*
 * Each copy of each line holds what the clean must have left; with
 * @reloaded, the CPU took a fresh copy of the clean lines (kind 1) after.
 */
static void verify(struct dmaemu_machine *m, uint64_t base, unsigned int n,
		   bool reloaded)
{
	unsigned int line = m->line, j, i;

	for (j = 0; j < n; j++) {
		uint64_t lp = base + (uint64_t)j * line;
		uint8_t cpu[DMAEMU__MAX_LINE];
		const uint8_t *mem = dmaemu__phys_mem(m, lp);
		const uint8_t *twin = dmaemu__phys_twin(m, lp);

		/* The kind-1 lines' CPU copies are stale, on purpose. */
		fixture_peek(cpu, dmaemu__phys_cpu(m, lp), line);
		for (i = 0; i < line; i++) {
			uint8_t want_cpu = 0, want_mem;

			switch (j % 4) {
			case 0:
				want_cpu = cpu_value(j, i);
				break;
			case 2:
				want_cpu = i < line / 2 ? cpu_value(j, i) : 0;
				break;
			case 3:
				want_cpu = i >= line / 2 ? cpu_value(j, i) : 0;
				break;
			}
			want_mem = want_cpu;
			if (j % 4 == 1 && i >= 3 && i < 10) {
				want_mem = DEV_CLEAN;
				if (reloaded)
					want_cpu = DEV_CLEAN;
			}
			ck_assert_msg(cpu[i] == want_cpu &&
					      twin[i] == want_cpu &&
					      mem[i] == want_mem,
				      "line %u (kind %u) byte %u: CPU %#x TWIN "
				      "%#x MEM %#x, want CPU = TWIN = %#x, MEM "
				      "%#x",
				      j, j % 4, i, cpu[i], twin[i], mem[i],
				      want_cpu, want_mem);
		}
	}
}

/*
 * Range maintenance: a range that starts one line into a page and crosses
 * two page boundaries (range_op() works a page at a time).
 */
START_TEST(test_range_clean)
{
	struct dmaemu_machine *m;
	unsigned int n;
	uint64_t base;

	dmaemu__clean_path = runs[_i].path;
	m = fixture_machine("mem=16M:cache_line=%u%s", runs[_i].line,
			    runs[_i].opts);
	ck_assert_uint_eq(m->line, runs[_i].line);
	base = m->bank[0].phys + 0x10000 + m->line;
	n = (unsigned int)(2 * DMAEMU__PAGE_SIZE / m->line + 6);
	prepare(m, base, n);
	dmaemu__range_clean(m, base, (uint64_t)n * m->line);
	verify(m, base, n, false);
	ck_assert_uint_eq(dmaemu_report_count(m, "lost-device-write"),
			  (n + 1) / 4);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), (n + 1) / 4);

	/* Nothing is dirty now: a second clean changes nothing. */
	dmaemu__range_clean(m, base, (uint64_t)n * m->line);
	verify(m, base, n, false);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), (n + 1) / 4);
	dmaemu_machine_destroy(m);
}
END_TEST

/*
 * Lines whose CPU copy equals TWIN, by kind j % 4 of line j, over a page
 * and a few lines (the model holds them all: no two evict each other):
 *   0  the model holds it dirty, the device wrote byte j % line: the
 *      clean writes the line back over it (one lost-device-write)
 *   1  the model holds it dirty, no device byte: nothing to report
 *   2  the model holds it clean, the device wrote byte j % line: left alone
 *   3  not in the model: left alone
 * Then the model holds the dirty ones clean: a second clean changes
 * nothing.  Through the page's word of the model's map (64-byte lines,
 * 128-byte ones) or a question a line (32-byte lines: 128 to a page).
 */
START_TEST(test_range_clean_model_dirty)
{
	struct dmaemu_machine *m;
	unsigned int n, j, k, lost = 0;
	uint64_t base;

	dmaemu__clean_path = runs[_i].path;
	m = fixture_machine("mem=16M:cache_line=%u%s", runs[_i].line,
			    runs[_i].opts);
	base = m->bank[0].phys + 0x30000 + 2 * m->line;
	n = (unsigned int)(DMAEMU__PAGE_SIZE / m->line + 5);
	for (j = 0; j < n; j++) {
		uint64_t lp = base + (uint64_t)j * m->line;
		uint8_t dev = DEV_MIXED;

		if (j % 4 < 3) {
			dmaemu__lock(&m->cache_lock);
			cachesim_access(m->cache, lp + 1, 1,
					j % 4 == 2 ? CACHESIM_READ
						   : CACHESIM_WRITE);
			dmaemu__unlock(&m->cache_lock);
		}
		if (j % 2 == 0)
			ck_assert_int_eq(
				dmaemu__mem_write(m, lp + j % m->line, &dev, 1),
				0);
		lost += j % 4 == 0;
	}
	for (k = 0; k < 2; k++) {
		dmaemu__range_clean(m, base, (uint64_t)n * m->line);
		for (j = 0; j < n; j++) {
			uint64_t lp = base + (uint64_t)j * m->line;
			uint8_t want = j % 4 == 2 ? DEV_MIXED : 0, cpu;

			fixture_peek(&cpu,
				     dmaemu__phys_cpu(m, lp) + j % m->line, 1);
			ck_assert_msg(
				dmaemu__phys_mem(m, lp)[j % m->line] == want &&
					dmaemu__phys_twin(m, lp)[j % m->line] ==
						0 &&
					cpu == 0,
				"clean %u, line %u (kind %u): MEM %#x, "
				"want %#x",
				k, j, j % 4,
				dmaemu__phys_mem(m, lp)[j % m->line], want);
		}
		ck_assert_uint_eq(dmaemu_report_count(m, "lost-device-write"),
				  lost);
		ck_assert_uint_eq(dmaemu_report_count(m, NULL), lost);
	}
	dmaemu_machine_destroy(m);
}
END_TEST

/* The single-line operations share the paths: even lines are cleaned,
 * odd ones cleaned and invalidated, one by one. */
START_TEST(test_line_clean)
{
	struct dmaemu_machine *m;
	unsigned int n = 8, j;
	uint64_t base;

	dmaemu__clean_path = runs[_i].path;
	m = fixture_machine("mem=16M:cache_line=%u%s", runs[_i].line,
			    runs[_i].opts);
	base = m->bank[0].phys + 0x20000;
	prepare(m, base, n);
	for (j = 0; j < n; j++) {
		uint64_t lp = base + (uint64_t)j * m->line;
		pthread_mutex_t *s = dmaemu__stripe_of(m, lp);

		dmaemu__lock(s);
		if (j & 1)
			dmaemu__line_clean_invalidate(m, lp);
		else
			dmaemu__line_clean(m, lp);
		dmaemu__unlock(s);
	}
	/* Odd lines were invalidated too: kind 1 shows the device's bytes. */
	verify(m, base, n, true);
	ck_assert_uint_eq(dmaemu_report_count(m, "lost-device-write"), n / 4);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), n / 4);
	dmaemu_machine_destroy(m);
}
END_TEST

/*
 * Invalidate (the reload paths, chosen by the same switch): the range of
 * test_range_clean, 10 bytes short at each end.  Every line ends with CPU
 * = TWIN = MEM, MEM untouched; the CPU's bytes discarded outside the range
 * (the first line's, and the last one's when they reach its last 10
 * bytes) are each one lost-cpu-write.
 */
START_TEST(test_range_invalidate)
{
	static const uint8_t dirty_end[4] = {1, 0, 0, 1}; /* kind 0, 3 */
	struct dmaemu_machine *m;
	unsigned int n, j, i, line;
	uint64_t base;

	dmaemu__clean_path = runs[_i].path;
	m = fixture_machine("mem=16M:cache_line=%u%s", runs[_i].line,
			    runs[_i].opts);
	line = m->line;
	base = m->bank[0].phys + 0x30000 + line;
	n = (unsigned int)(2 * DMAEMU__PAGE_SIZE / line + 8);
	prepare(m, base, n);
	dmaemu__range_invalidate(m, base + 10, (uint64_t)n * line - 20);
	for (j = 0; j < n; j++) {
		uint64_t lp = base + (uint64_t)j * line;
		const uint8_t *mem = dmaemu__phys_mem(m, lp);
		const uint8_t *twin = dmaemu__phys_twin(m, lp);
		uint8_t cpu[DMAEMU__MAX_LINE];

		fixture_peek(cpu, dmaemu__phys_cpu(m, lp), line);
		for (i = 0; i < line; i++) {
			uint8_t want = 0;

			if (j % 4 == 0 && i >= 4 && i < 12)
				want = DEV_FULL;
			else if (j % 4 == 1 && i >= 3 && i < 10)
				want = DEV_CLEAN;
			else if (j % 4 == 2 && i == line - 1)
				want = DEV_MIXED;
			ck_assert_msg(cpu[i] == want && twin[i] == want &&
					      mem[i] == want,
				      "line %u (kind %u) byte %u: CPU %#x TWIN "
				      "%#x MEM %#x, want all %#x",
				      j, j % 4, i, cpu[i], twin[i], mem[i],
				      want);
		}
	}
	ck_assert_uint_eq(dmaemu_report_count(m, "lost-cpu-write"),
			  1u + dirty_end[(n - 1) % 4]);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL),
			  1u + dirty_end[(n - 1) % 4]);
	dmaemu_machine_destroy(m);
}
END_TEST

/*
 * A device's read (dmaemu__mem_read_clean()): @buf gets MEM whatever the
 * CPU holds, and the answer is "clean" exactly when no byte of the span is
 * CPU-dirty, for a dirty byte at the start, at a vector's edges, at the
 * end of the vector part and in the tail of a span that starts and ends
 * inside lines.  Under Memcheck the answer is always "maybe dirty".
 */
START_TEST(test_device_read)
{
	static const size_t at[] = {0, 31, 32, 63, 64, 1000, 4031, 4032, 4040};
	static uint8_t buf[DMAEMU__PAGE_SIZE];
	struct dmaemu_machine *m;
	pthread_mutex_t *stripe;
	uint8_t dev[DMAEMU__PAGE_SIZE];
	size_t len = DMAEMU__PAGE_SIZE - 48, i, k;
	uint64_t phys;
	uint8_t *cpu;
	bool clean;

	dmaemu__clean_path = runs[_i].path;
	m = fixture_machine("mem=16M:cache_line=%u%s", runs[_i].line,
			    runs[_i].opts);
	phys = m->bank[0].phys + 0x40000 + 40;
	cpu = dmaemu__phys_cpu(m, phys);
	for (i = 0; i < len; i++)
		dev[i] = (uint8_t)(0x80 + i % 97);
	ck_assert_int_eq(dmaemu__mem_write(m, phys, dev, len), 0);
	stripe = dmaemu__stripe_of(m, phys);
	for (k = 0; k <= sizeof(at) / sizeof(at[0]); k++) {
		bool dirty = k < sizeof(at) / sizeof(at[0]);

		ck_assert_uint_lt(dirty ? at[k] : 0, len);
		if (dirty)
			cpu[at[k]] = 0x11; /* TWIN holds 0 */
		memset(buf, 0, sizeof(buf));
		dmaemu__lock(stripe);
		clean = dmaemu__mem_read_clean(m, phys, buf, len);
		dmaemu__unlock(stripe);
		ck_assert_msg(!memcmp(buf, dev, len),
			      "dirty byte %zu: the read is not MEM",
			      dirty ? at[k] : 0);
		ck_assert_msg(clean == (!dirty && !dmaemu__on_memcheck),
			      "dirty byte %zu%s: read says %s",
			      dirty ? at[k] : 0, dirty ? "" : " (none)",
			      clean ? "clean" : "dirty");
		if (dirty)
			cpu[at[k]] = 0;
	}
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 0);
	dmaemu_machine_destroy(m);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("clean-paths");
	TCase *tc = tcase_create("clean-paths");
	int nruns = (int)(sizeof(runs) / sizeof(runs[0]));

	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_range_clean, 0, nruns);
	tcase_add_loop_test(tc, test_line_clean, 0, nruns);
	tcase_add_loop_test(tc, test_range_invalidate, 0, nruns);
	tcase_add_loop_test(tc, test_device_read, 0, nruns);
	tcase_add_loop_test(tc, test_range_clean_model_dirty, 0, nruns);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(suite());
}
