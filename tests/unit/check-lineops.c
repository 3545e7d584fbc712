// SPDX-License-Identifier: MIT
/*
 * check-lineops.c - line operations on the three copies, byte-exact: the
 * masks, the lost-device-write and lost-cpu-write reports, range
 * maintenance with partial edge lines, the eviction hook, and the printed
 * form of reports.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check-run.h"
#include "dma/dma.h"
#include "fixture.h"

static struct dmaemu_machine *m;

#define LINE0 0x80001000ULL /* a line-aligned physical address */

static struct dmaemu_machine *make(const char *extra)
{
	return fixture_machine("mem=16M%s%s", extra ? ":" : "",
			       extra ? extra : "");
}

static void setup(void)
{
	m = make(NULL);
}

static void teardown(void)
{
	dmaemu_machine_destroy(m);
	m = NULL;
	fixture_teardown();
}

static int count_substr(const char *s, const char *sub)
{
	int n = 0;

	while ((s = strstr(s, sub))) {
		n++;
		s += strlen(sub);
	}
	return n;
}

static uint8_t *cpu(uint64_t phys)
{
	return dmaemu__phys_cpu(m, phys);
}

static uint8_t *mem(uint64_t phys)
{
	return dmaemu__phys_mem(m, phys);
}

static uint8_t *twin(uint64_t phys)
{
	return dmaemu__phys_twin(m, phys);
}

static void dev_write(uint64_t phys, uint8_t v, size_t len)
{
	uint8_t buf[256];

	memset(buf, v, len);
	ck_assert_int_eq(dmaemu__mem_write(m, phys, buf, len), 0);
}

/* Run a locked line operation as lib/ callers do. */
static void clean(uint64_t lp)
{
	dmaemu__lock(dmaemu__stripe_of(m, lp));
	dmaemu__line_clean(m, lp);
	dmaemu__unlock(dmaemu__stripe_of(m, lp));
}

static void inval(uint64_t lp, uint64_t lo, uint64_t hi)
{
	dmaemu__lock(dmaemu__stripe_of(m, lp));
	dmaemu__line_invalidate(m, lp, lo, hi);
	dmaemu__unlock(dmaemu__stripe_of(m, lp));
}

static void fill(uint64_t lp)
{
	dmaemu__lock(dmaemu__stripe_of(m, lp));
	dmaemu__line_fill(m, lp);
	dmaemu__unlock(dmaemu__stripe_of(m, lp));
}

static void masks(uint64_t lp, uint64_t *dirty, uint64_t *changed)
{
	dmaemu__lock(dmaemu__stripe_of(m, lp));
	dmaemu__line_masks(m, lp, dirty, changed);
	dmaemu__unlock(dmaemu__stripe_of(m, lp));
}

START_TEST(test_clean_lost_device_write)
{
	uint64_t d[DMAEMU__MASK_WORDS], c[DMAEMU__MASK_WORDS];
	const char *log;
	char want[512];
	unsigned int i;

	memset(cpu(LINE0 + 8), 0xaa, 8); /* CPU writes bytes 8-15 */
	dev_write(LINE0, 0x11, 4);	 /* device writes bytes 0-3 */
	masks(LINE0, d, c);
	ck_assert_uint_eq(d[0], 0xff00);
	ck_assert_uint_eq(c[0], 0xf);

	clean(LINE0);
	ck_assert_uint_eq(dmaemu_report_count(m, "lost-device-write"), 1);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 1);
	/* The whole line was written: the device's bytes are gone. */
	for (i = 0; i < 4; i++)
		ck_assert_int_eq(mem(LINE0)[i], 0);
	for (i = 8; i < 16; i++)
		ck_assert_int_eq(mem(LINE0)[i], 0xaa);
	ck_assert_mem_eq(twin(LINE0), cpu(LINE0), 64);
	ck_assert_mem_eq(mem(LINE0), cpu(LINE0), 64);
	masks(LINE0, d, c);
	ck_assert_uint_eq(d[0], 0);
	ck_assert_uint_eq(c[0], 0);

	log = fixture_log();
	snprintf(want, sizeof(want),
		 "==%d==ERROR: dmaemu: lost-device-write: clean of line "
		 "0x80001000 overwrote 4 bytes written by the device\n"
		 "    bytes 0-3 of line 0x80001000 (mask 0x000000000000000f)\n"
		 "    values of 4 bytes from phys 0x80001000:\n"
		 "      the CPU wrote back      00 00 00 00\n"
		 "      the device had written  11 11 11 11\n"
		 "SUMMARY: dmaemu: lost-device-write 0x80001000+4\n",
		 (int)getpid());
	ck_assert_str_eq(log, want);
}
END_TEST

START_TEST(test_clean_no_report)
{
	uint64_t d[DMAEMU__MASK_WORDS], c[DMAEMU__MASK_WORDS];
	unsigned int i;

	/* A line without CPU-dirty bytes is not written back. */
	dev_write(LINE0 + 60, 0x22, 4);
	clean(LINE0);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 0);
	for (i = 60; i < 64; i++)
		ck_assert_int_eq(mem(LINE0)[i], 0x22);
	masks(LINE0, d, c);
	ck_assert_uint_eq(c[0], 0xfULL << 60);

	/* Bytes both sides wrote: the CPU's write wins, nothing is lost. */
	memset(cpu(LINE0 + 60), 0x33, 4);
	clean(LINE0);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 0);
	for (i = 60; i < 64; i++)
		ck_assert_int_eq(mem(LINE0)[i], 0x33);
	ck_assert_str_eq(fixture_log(), "");
}
END_TEST

START_TEST(test_report_runs)
{
	const char *log;

	cpu(LINE0 + 20)[0] = 1;
	dev_write(LINE0, 0x44, 4);
	dev_write(LINE0 + 8, 0x44, 4);
	dev_write(LINE0 + 63, 0x44, 1);
	clean(LINE0);
	ck_assert_uint_eq(dmaemu_report_count(m, "lost-device-write"), 1);
	log = fixture_log();
	ck_assert_msg(strstr(log,
			     "overwrote 9 bytes written by the device\n"
			     "    bytes 0-3, 8-11, 63 of line 0x80001000 "
			     "(mask 0x8000000000000f0f)\n"
			     "    values of 12 bytes from phys 0x80001000 "
			     "(.. = not concerned):\n"
			     "      the CPU wrote back      00 00 00 00 .. "
			     ".. .. .. 00 00 00 00\n"
			     "      the device had written  44 44 44 44 .. "
			     ".. .. .. 44 44 44 44\n"
			     "SUMMARY: dmaemu: lost-device-write "
			     "0x80001000+64\n"),
		      "%s", log);
	ck_assert_int_eq(count_substr(log, "SUMMARY:"), 1);
}
END_TEST

START_TEST(test_invalidate_lost_cpu_write)
{
	uint64_t lp = LINE0 + 64;
	const char *log;
	unsigned int i;

	memset(cpu(lp), 0x55, 64);    /* CPU writes the whole line */
	dev_write(lp + 16, 0x66, 16); /* device writes 16-31 */
	inval(lp, lp + 16, lp + 48);  /* the buffer is bytes 16-47 */
	ck_assert_uint_eq(dmaemu_report_count(m, "lost-cpu-write"), 1);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 1);
	/* CPU = TWIN = MEM afterwards. */
	ck_assert_mem_eq(cpu(lp), mem(lp), 64);
	ck_assert_mem_eq(twin(lp), mem(lp), 64);
	for (i = 16; i < 32; i++)
		ck_assert_int_eq(cpu(lp)[i], 0x66);
	ck_assert_int_eq(cpu(lp)[0], 0);
	log = fixture_log();
	ck_assert_msg(strstr(log, "ERROR: dmaemu: lost-cpu-write: invalidate "
				  "of line 0x80001040 discarded 32 bytes"),
		      "%s", log);
	ck_assert_msg(strstr(log,
			     "    bytes 0-15, 48-63 of line 0x80001040 "
			     "(mask 0xffff00000000ffff)\n"
			     "    values of 16 bytes from phys 0x80001040:\n"
			     "      the CPU had written  55 55 55 55 55 55 "
			     "55 55 55 55 55 55 55 55 55 55\n"
			     "      memory holds         00 00 00 00 00 00 "
			     "00 00 00 00 00 00 00 00 00 00\n"
			     "SUMMARY: dmaemu: lost-cpu-write "
			     "0x80001040+64\n"),
		      "%s", log);
}
END_TEST

START_TEST(test_invalidate_inside)
{
	memset(cpu(LINE0 + 16), 0x55, 32);
	dev_write(LINE0 + 16, 0x66, 8);
	inval(LINE0, LINE0 + 16, LINE0 + 48);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 0);
	ck_assert_mem_eq(cpu(LINE0), mem(LINE0), 64);
	ck_assert_int_eq(cpu(LINE0 + 16)[0], 0x66);
	ck_assert_int_eq(cpu(LINE0 + 24)[0], 0);
	/* A whole-line range never reports. */
	memset(cpu(LINE0), 0x12, 64);
	inval(LINE0, LINE0, LINE0 + 64);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 0);
	ck_assert_int_eq(cpu(LINE0)[0], 0);
}
END_TEST

START_TEST(test_fill)
{
	uint64_t d[DMAEMU__MASK_WORDS], c[DMAEMU__MASK_WORDS];

	dev_write(LINE0 + 4, 0x77, 30);
	fill(LINE0);
	ck_assert_mem_eq(cpu(LINE0), mem(LINE0), 64);
	ck_assert_mem_eq(twin(LINE0), mem(LINE0), 64);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 0);

	/* A dirty line is written back before the fill. */
	cpu(LINE0)[0] = 0x99;
	dev_write(LINE0 + 40, 0x88, 1);
	masks(LINE0, d, c);
	ck_assert_uint_eq(d[0], 1);
	ck_assert_uint_eq(c[0], 1ULL << 40);
	fill(LINE0);
	ck_assert_int_eq(mem(LINE0)[0], 0x99);
	ck_assert_int_eq(cpu(LINE0)[0], 0x99);
	ck_assert_int_eq(mem(LINE0 + 40)[0], 0); /* lost */
	ck_assert_uint_eq(dmaemu_report_count(m, "lost-device-write"), 1);
	ck_assert_mem_eq(cpu(LINE0), mem(LINE0), 64);
}
END_TEST

START_TEST(test_clean_invalidate)
{
	memset(cpu(LINE0), 0x10, 8);
	dev_write(LINE0 + 32, 0x20, 8);
	dmaemu__lock(dmaemu__stripe_of(m, LINE0));
	dmaemu__line_clean_invalidate(m, LINE0);
	dmaemu__unlock(dmaemu__stripe_of(m, LINE0));
	ck_assert_uint_eq(dmaemu_report_count(m, "lost-device-write"), 1);
	ck_assert_uint_eq(dmaemu_report_count(m, "lost-cpu-write"), 0);
	ck_assert_int_eq(mem(LINE0)[0], 0x10);
	ck_assert_int_eq(mem(LINE0 + 32)[0], 0);
	ck_assert_mem_eq(cpu(LINE0), mem(LINE0), 64);

	/* Not dirty: the device's data survives and the CPU now sees it. */
	dev_write(LINE0 + 32, 0x20, 8);
	dmaemu__range_clean_invalidate(m, LINE0 + 32, 8);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 1);
	ck_assert_int_eq(cpu(LINE0 + 32)[0], 0x20);
}
END_TEST

START_TEST(test_range_edges)
{
	/* [LINE0 + 16, LINE0 + 112): part of line 0 and of line 1. */
	const uint64_t lo = LINE0 + 16, len = 96;
	const char *log;

	cpu(LINE0)[0] = 1;	 /* outside, line 0: lost */
	cpu(LINE0 + 20)[0] = 1;	 /* inside */
	cpu(LINE0 + 64)[0] = 1;	 /* inside, line 1 */
	cpu(LINE0 + 127)[0] = 1; /* outside, line 1: lost */
	cpu(LINE0 + 128)[0] = 1; /* line 2, not maintained */
	dmaemu__range_invalidate(m, lo, len);
	ck_assert_uint_eq(dmaemu_report_count(m, "lost-cpu-write"), 2);
	log = fixture_log();
	ck_assert_msg(strstr(log, "    byte 0 of line 0x80001000 "
				  "(mask 0x0000000000000001)\n"
				  "    values of 1 byte from phys 0x80001000:\n"
				  "      the CPU had written  01\n"
				  "      memory holds         00\n"
				  "SUMMARY: dmaemu: lost-cpu-write "
				  "0x80001000+1\n"),
		      "%s", log);
	ck_assert_msg(strstr(log, "    byte 63 of line 0x80001040 "
				  "(mask 0x8000000000000000)\n"
				  "    values of 1 byte from phys 0x8000107f:\n"
				  "      the CPU had written  01\n"
				  "      memory holds         00\n"
				  "SUMMARY: dmaemu: lost-cpu-write "
				  "0x8000107f+1\n"),
		      "%s", log);
	ck_assert_int_eq(cpu(LINE0 + 20)[0], 0);
	ck_assert_int_eq(cpu(LINE0 + 128)[0], 1); /* untouched */

	/* Clean writes whole edge lines, including bytes outside. */
	cpu(LINE0)[1] = 2;
	dmaemu__range_clean(m, LINE0 + 60, 2);
	ck_assert_int_eq(mem(LINE0)[1], 2);
	ck_assert_int_eq(mem(LINE0 + 128)[0], 0);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 2);
}
END_TEST

START_TEST(test_range_pages)
{
	const uint64_t base = LINE0 + 0x10000, len = 5 * DMAEMU__PAGE_SIZE + 64;
	uint64_t i;

	for (i = 0; i < len; i++)
		cpu(base)[i] = (uint8_t)(i * 13 + 5);
	dmaemu__range_clean(m, base, len);
	ck_assert_mem_eq(mem(base), cpu(base), len);
	ck_assert_mem_eq(twin(base), cpu(base), len);
	for (i = 0; i < len; i += 512)
		dev_write(base + i, 0xee, 3);
	dmaemu__range_invalidate(m, base, len);
	ck_assert_mem_eq(cpu(base), mem(base), len);
	ck_assert_int_eq(cpu(base + 512)[2], 0xee);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 0);
	dmaemu__range_clean(m, base, 0); /* nothing */
}
END_TEST

START_TEST(test_range_bad)
{
	dmaemu__range_clean(m, 0x1000, 64);
	dmaemu__range_invalidate(m, m->bank[0].phys + m->bank[0].size - 8, 16);
	dmaemu__range_clean_invalidate(m, UINT64_MAX - 8, 100);
	ck_assert_uint_eq(dmaemu_report_count(m, "bad-argument"), 3);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 3);
}
END_TEST

/* Random data: masks agree with a byte-by-byte reference. */
START_TEST(test_masks_random)
{
	unsigned int seed = 12345, round, i;

	for (round = 0; round < 200; round++) {
		uint64_t lp = LINE0 + 64 * (round % 32);
		uint64_t d[DMAEMU__MASK_WORDS], c[DMAEMU__MASK_WORDS];
		uint64_t rd = 0, rc = 0, lost = 0;
		uint8_t was_cpu[64], was_mem[64], was_twin[64];

		for (i = 0; i < 64; i++) {
			unsigned int r = (unsigned int)rand_r(&seed);

			twin(lp)[i] = (uint8_t)r;
			cpu(lp)[i] = (uint8_t)((r >> 8) % 4 ? r : r >> 16);
			mem(lp)[i] = (uint8_t)((r >> 10) % 3 ? r : r >> 20);
			if (cpu(lp)[i] != twin(lp)[i])
				rd |= 1ULL << i;
			if (mem(lp)[i] != twin(lp)[i])
				rc |= 1ULL << i;
		}
		masks(lp, d, c);
		ck_assert_uint_eq(d[0], rd);
		ck_assert_uint_eq(c[0], rc);
		lost = rd ? rc & ~rd : 0;
		memcpy(was_cpu, cpu(lp), 64);
		memcpy(was_mem, mem(lp), 64);
		memcpy(was_twin, twin(lp), 64);
		dmaemu_report_reset(m);
		clean(lp);
		ck_assert_uint_eq(dmaemu_report_count(m, NULL), lost ? 1 : 0);
		/* Dirty: MEM = TWIN = CPU, the CPU's data.  Else untouched. */
		ck_assert_mem_eq(cpu(lp), was_cpu, 64);
		ck_assert_mem_eq(mem(lp), rd ? was_cpu : was_mem, 64);
		ck_assert_mem_eq(twin(lp), rd ? was_cpu : was_twin, 64);
	}
}
END_TEST

START_TEST(test_evict_writes_back)
{
	/* One set of four ways: the fifth line evicts the first. */
	struct dmaemu_machine *small = make("cache_size=256:cache_ways=4");
	uint64_t a = small->bank[0].phys + 0x2000;
	uint8_t *c = dmaemu__phys_cpu(small, a);
	uint8_t *mm = dmaemu__phys_mem(small, a);
	unsigned int i;

	dmaemu__lock(&small->cache_lock);
	c[3] = 0x42;
	cachesim_access(small->cache, a + 3, 1, CACHESIM_WRITE);
	for (i = 1; i <= 3; i++)
		cachesim_access(small->cache, a + 64 * i, 1, CACHESIM_READ);
	ck_assert_int_eq(mm[3], 0);
	cachesim_access(small->cache, a + 64 * 4, 1, CACHESIM_READ);
	dmaemu__unlock(&small->cache_lock);
	ck_assert_int_eq(mm[3], 0x42);
	ck_assert_int_eq(dmaemu__phys_twin(small, a)[3], 0x42);
	dmaemu_machine_destroy(small);
}
END_TEST

/*
 * An eviction that writes a line back over bytes a device wrote is a
 * lost-device-write named as an eviction: the access the report points
 * at is the one that needed the room (a load, often), not a clean.
 */
START_TEST(test_evict_lost_device_write)
{
	struct dmaemu_machine *small = make("cache_size=256:cache_ways=4");
	uint64_t a = small->bank[0].phys + 0x2000;
	uint8_t *c = dmaemu__phys_cpu(small, a);
	uint8_t v = 0x77;
	struct dmaemu_report r;
	unsigned int i;

	dmaemu__lock(&small->cache_lock);
	c[3] = 0x42;
	cachesim_access(small->cache, a + 3, 1, CACHESIM_WRITE);
	dmaemu__unlock(&small->cache_lock);
	ck_assert_int_eq(dmaemu__mem_write(small, a + 9, &v, 1), 0);
	dmaemu__lock(&small->cache_lock);
	for (i = 1; i <= 4; i++)
		cachesim_access(small->cache, a + 64 * i, 1, CACHESIM_READ);
	dmaemu__unlock(&small->cache_lock);
	ck_assert_int_eq(dmaemu__phys_mem(small, a)[9], 0);
	ck_assert_uint_eq(dmaemu_report_count(small, "lost-device-write"), 1);
	ck_assert_int_eq(dmaemu_report_next(small, 0, &r), 0);
	ck_assert_msg(strstr(r.text, "lost-device-write: eviction (a "
				     "write-back to make room in the cache) "
				     "of line "),
		      "%s", r.text);
	dmaemu_machine_destroy(small);
}
END_TEST

START_TEST(test_range_clean_model_dirty)
{
	/*
	 * A store of the value a byte already held dirties its line in the
	 * model although no byte differs: a range clean writes that line
	 * back all the same, over the byte a device wrote meanwhile (a
	 * lost-device-write), whether the range is smaller than the model
	 * (a lookup per line) or larger (one walk of the model).  A line
	 * the model holds clean is left alone.
	 */
	static const uint64_t len[] = {4096, 1 << 20};
	unsigned int i;

	for (i = 0; i < 2; i++) {
		uint64_t a = LINE0 + 0x40000 * i + 0x240, b = a + 0x80;

		dmaemu__lock(&m->cache_lock);
		cachesim_access(m->cache, a + 5, 1, CACHESIM_WRITE);
		cachesim_access(m->cache, b, 1, CACHESIM_READ);
		dmaemu__unlock(&m->cache_lock);
		dev_write(a + 9, 0x77, 1);
		dev_write(b + 9, 0x77, 1);
		dmaemu__range_clean(m, a & ~(len[i] - 1), len[i]);
		ck_assert_uint_eq(dmaemu_report_count(m, "lost-device-write"),
				  i + 1);
		ck_assert_int_eq(mem(a + 9)[0], 0);
		ck_assert_int_eq(mem(b + 9)[0], 0x77);
		ck_assert_int_eq(twin(b + 9)[0], 0);
	}
}
END_TEST

START_TEST(test_other_line_sizes)
{
	struct dmaemu_machine *save = m;
	const char *log;

	m = make("cache_line=128");
	memset(cpu(LINE0), 1, 1);
	dev_write(LINE0 + 64, 0x9, 2);
	dev_write(LINE0 + 126, 0x9, 2);
	clean(LINE0);
	ck_assert_uint_eq(dmaemu_report_count(m, "lost-device-write"), 1);
	log = fixture_log();
	ck_assert_msg(strstr(log, "    bytes 64-65, 126-127 of line "
				  "0x80001000 (mask 0xc000000000000003"
				  "0000000000000000)\n"),
		      "%s", log);
	dmaemu_machine_destroy(m);
	fixture_log_clear();

	m = make("cache_line=32:cache_size=8k");
	memset(cpu(LINE0 + 32), 1, 1);
	dev_write(LINE0 + 32 + 31, 0x9, 1);
	dev_write(LINE0 + 64, 0x9, 1); /* next line: not involved */
	dmaemu__range_clean(m, LINE0 + 32, 1);
	ck_assert_uint_eq(dmaemu_report_count(m, "lost-device-write"), 1);
	log = fixture_log();
	ck_assert_msg(strstr(log, "    byte 31 of line 0x80001020 "
				  "(mask 0x80000000)\n"),
		      "%s", log);
	ck_assert_int_eq(mem(LINE0 + 64)[0], 0x9);
	dmaemu_machine_destroy(m);
	m = save;
}
END_TEST

static Suite *lineops_suite(void)
{
	Suite *s = suite_create("lineops");
	TCase *tc = tcase_create("lineops");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_clean_lost_device_write);
	tcase_add_test(tc, test_clean_no_report);
	tcase_add_test(tc, test_report_runs);
	tcase_add_test(tc, test_invalidate_lost_cpu_write);
	tcase_add_test(tc, test_invalidate_inside);
	tcase_add_test(tc, test_fill);
	tcase_add_test(tc, test_clean_invalidate);
	tcase_add_test(tc, test_range_edges);
	tcase_add_test(tc, test_range_pages);
	tcase_add_test(tc, test_range_bad);
	tcase_add_test(tc, test_masks_random);
	tcase_add_test(tc, test_evict_writes_back);
	tcase_add_test(tc, test_evict_lost_device_write);
	tcase_add_test(tc, test_range_clean_model_dirty);
	tcase_add_test(tc, test_other_line_sizes);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(lineops_suite());
}
