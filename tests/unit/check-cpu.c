// SPDX-License-Identifier: MIT
/*
 * check-cpu.c - CPU accesses of instrumented code reach the model.
 *
 * This file is compiled with the instrumentation flags (and linked with
 * the --wrap flags), like driver code: every load and store below calls
 * the hooks.  Physical memory is used through the machine's views
 * directly, so that each test knows exactly which lines it touches; the
 * cache is small (8 sets of 2 ways of 64 bytes) so that sets fill quickly.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/compiler.h>
#include <linux/io.h>

#include "check-run.h"
#include "dma/dma.h"
#include "dmaemu/cpu.h"
#include "fixture.h"

#define BASE 0x80100000ULL /* a line-aligned physical address */
#define LINE 64
#define SET_STRIDE 512 /* 8 sets of 64 bytes: same set every 512 bytes */

static struct dmaemu_machine *m;

/* Sizes the compiler cannot see, so that mem* calls stay calls. */
static volatile size_t n16 = 16, n100 = 100, n128 = 128, n192 = 192;

typedef uint32_t u32_unaligned __attribute__((aligned(1)));

static struct dmaemu_machine *make(const char *extra)
{
	return fixture_machine(
		"mem=16M:cache_size=1024:cache_ways=2:cache_line=64%s%s",
		extra ? ":" : "", extra ? extra : "");
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

/* The linear map (cacheable) and MEM (the uncached alias) of @phys. */
static uint8_t *lin(uint64_t phys)
{
	return dmaemu__phys_cpu(m, phys);
}

static uint8_t *mem(uint64_t phys)
{
	return dmaemu__phys_mem(m, phys);
}

static struct dmaemu_cpu_stats stats(void)
{
	struct dmaemu_cpu_stats st;

	ck_assert_int_eq(dmaemu_cpu_stats(m, 0, &st), 0);
	return st;
}

static uint64_t stale_reports(void)
{
	return dmaemu_report_count(m, "stale-cpu-read");
}

static uint32_t load32(uint64_t phys)
{
	return *(volatile uint32_t *)lin(phys);
}

static void store32(uint64_t phys, uint32_t v)
{
	*(volatile uint32_t *)lin(phys) = v;
}

/* A device writes memory: the machine core's device path. */
static void dev_write(uint64_t phys, const void *buf, size_t len)
{
	ck_assert_int_eq(dmaemu__mem_write(m, phys, buf, len), 0);
}

/* ---------------------------------------------------------------------- */

START_TEST(test_miss_then_hits)
{
	struct dmaemu_cpu_stats st;
	int i;

	for (i = 0; i < 101; i++)
		load32(BASE + 4 * (i % 16));
	st = stats();
	ck_assert_uint_eq(st.accesses, 101);
	ck_assert_uint_eq(st.reads, 101);
	ck_assert_uint_eq(st.misses, 1);
	ck_assert_uint_eq(st.hits, 100);
	ck_assert_uint_eq(st.fills, 1);
	/* After the first miss, the line is this thread's fast-path line. */
	ck_assert_uint_ge(st.fast_hits, 99);
	ck_assert(dmaemu__cpu_resident(m, BASE));
	ck_assert(!dmaemu__cpu_resident(m, BASE + LINE));
}
END_TEST

START_TEST(test_load_fills_fresh_data)
{
	static const uint8_t data[4] = {0x11, 0x22, 0x33, 0x44};
	uint32_t want;

	/* The line is not resident: the load takes memory's data. */
	dev_write(BASE, data, sizeof(data));
	memcpy(&want, data, sizeof(want));
	ck_assert_uint_eq(load32(BASE), want);
	ck_assert_uint_eq(stale_reports(), 0);
	ck_assert_uint_eq(memcmp(lin(BASE), data, 4), 0);
	ck_assert_uint_eq(stats().fills, 1);
}
END_TEST

START_TEST(test_stale_read_reported)
{
	static const uint8_t data[4] = {0x11, 0x22, 0x33, 0x44};
	const char *log;

	ck_assert_uint_eq(load32(BASE), 0); /* resident now */
	dev_write(BASE, data, sizeof(data));
	/* The CPU reads its old copy, and the read is reported. */
	ck_assert_uint_eq(load32(BASE), 0);
	ck_assert_uint_eq(stale_reports(), 1);
	ck_assert_uint_eq(stats().stale_reads, 1);
	log = fixture_log();
	ck_assert_ptr_nonnull(strstr(log, "stale-cpu-read: read of 4 bytes"));
	ck_assert_ptr_nonnull(strstr(log, "bytes 0-3 of line 0x80100000"));
	/* Bytes the device did not change read fine. */
	ck_assert_uint_eq(load32(BASE + 8), 0);
	ck_assert_uint_eq(stale_reports(), 1);
	/* Each stale load is one report. */
	load32(BASE);
	ck_assert_uint_eq(stale_reports(), 2);
}
END_TEST

START_TEST(test_stale_read_direct_mem)
{
	/* Memory written behind the model's back, then announced. */
	ck_assert_uint_eq(load32(BASE + 16), 0);
	mem(BASE + 18)[0] = 0x5a;
	dmaemu__mem_changed();
	ck_assert_uint_eq(load32(BASE + 16), 0);
	ck_assert_uint_eq(stale_reports(), 1);
	ck_assert_uint_eq(load32(BASE + 20), 0);
	ck_assert_uint_eq(stale_reports(), 1);
}
END_TEST

START_TEST(test_invalidate_ends_fast_path)
{
	load32(BASE);
	load32(BASE);
	ck_assert_uint_eq(stats().misses, 1);
	dmaemu__range_invalidate(m, BASE, LINE);
	ck_assert(!dmaemu__cpu_resident(m, BASE));
	load32(BASE);
	ck_assert_uint_eq(stats().misses, 2);
	ck_assert(dmaemu__cpu_resident(m, BASE));
}
END_TEST

/*
 * A clean of lines the model does not hold leaves every fast-path entry
 * valid (lineops.c skips the generation bump: no entry can name such a
 * line); a clean of the entry's own line ends it, so the next store marks
 * the line dirty in the model again.
 */
/* What uninstrumented code does: stores the model never sees. */
static __attribute__((no_sanitize_address, no_sanitize_thread)) void plain_fill(
	uint8_t *p, uint8_t v, size_t n)
{
	volatile uint8_t *q = p;

	while (n--)
		*q++ = v;
}

START_TEST(test_clean_ends_fast_path_of_held_lines_only)
{
	struct dmaemu_cpu_stats st;

	store32(BASE, 1);
	store32(BASE + 4, 2);
	ck_assert_uint_eq(stats().fast_hits, 1);
	/* Written by uninstrumented code: dirty, never in the model. */
	plain_fill(lin(BASE + 64 * LINE), 0x5a, 4 * LINE);
	ck_assert(!dmaemu__cpu_resident(m, BASE + 64 * LINE));
	dmaemu__range_clean(m, BASE + 64 * LINE, 4 * LINE);
	ck_assert_uint_eq(mem(BASE + 64 * LINE)[3 * LINE], 0x5a);
	store32(BASE + 8, 3);
	ck_assert_uint_eq(stats().fast_hits, 2);
	ck_assert(cachesim_dirty(m->cache, 0, BASE));

	dmaemu__range_clean(m, BASE, LINE);
	ck_assert(!cachesim_dirty(m->cache, 0, BASE));
	ck_assert_uint_eq(*(uint32_t *)mem(BASE + 8), 3);
	store32(BASE + 12, 4);
	st = stats();
	ck_assert_uint_eq(st.fast_hits, 2);
	ck_assert(cachesim_dirty(m->cache, 0, BASE));
	ck_assert_uint_eq(st.writes, 4);
	ck_assert_uint_eq(st.write_misses, 1);
}
END_TEST

START_TEST(test_store_marks_dirty)
{
	uint64_t dirty[DMAEMU__MASK_WORDS], changed[DMAEMU__MASK_WORDS];
	struct dmaemu_cpu_stats st;

	store32(BASE + 8, 0xdeadbeef);
	ck_assert(dmaemu__cpu_resident(m, BASE));
	ck_assert(cachesim_dirty(m->cache, 0, BASE));
	dmaemu__line_masks(m, BASE, dirty, changed);
	ck_assert_uint_eq(dirty[0], 0xf00);
	ck_assert_uint_eq(changed[0], 0);
	/* Memory has not seen it. */
	ck_assert_uint_eq(*(uint32_t *)mem(BASE + 8), 0);
	/* The second store hits a dirty line: the fast path. */
	store32(BASE + 12, 1);
	st = stats();
	ck_assert_uint_eq(st.writes, 2);
	ck_assert_uint_eq(st.write_misses, 1);
	ck_assert_uint_eq(st.fast_hits, 1);
}
END_TEST

START_TEST(test_store_after_load_goes_dirty)
{
	load32(BASE);
	ck_assert(!cachesim_dirty(m->cache, 0, BASE));
	store32(BASE, 7);
	ck_assert(cachesim_dirty(m->cache, 0, BASE));
	ck_assert_uint_eq(stats().writes, 1);
}
END_TEST

START_TEST(test_eviction_writes_back)
{
	struct dmaemu_cpu_stats st;

	store32(BASE, 0x12345678);
	/* Two more lines of the same set (2 ways): the oldest leaves. */
	load32(BASE + SET_STRIDE);
	load32(BASE + 2 * SET_STRIDE);
	ck_assert(!dmaemu__cpu_resident(m, BASE));
	ck_assert_uint_eq(*(uint32_t *)mem(BASE), 0x12345678);
	st = stats();
	ck_assert_uint_eq(st.evictions, 1);
	ck_assert_uint_eq(st.writebacks, 1);
	/* Reloading takes the written-back data, fresh. */
	ck_assert_uint_eq(load32(BASE), 0x12345678);
	ck_assert_uint_eq(stale_reports(), 0);
}
END_TEST

/*
 * The fast path holds several lines, and its hits count in the replacement
 * order: A and B fill the two ways of a set, A is hit again (a fast hit:
 * B was touched last), so the next line of the set evicts B, not A.
 */
START_TEST(test_fast_hits_keep_lru_order)
{
	struct dmaemu_cpu_stats st;
	uint64_t fast;

	load32(BASE);
	load32(BASE + SET_STRIDE);
	fast = stats().fast_hits;
	load32(BASE + 4);
	ck_assert_uint_eq(stats().fast_hits, fast + 1);
	load32(BASE + 2 * SET_STRIDE);
	ck_assert(dmaemu__cpu_resident(m, BASE));
	ck_assert(!dmaemu__cpu_resident(m, BASE + SET_STRIDE));
	st = stats();
	ck_assert_uint_eq(st.misses, 3);
	ck_assert_uint_eq(st.evictions, 1);
}
END_TEST

/*
 * Hits replayed in the order of each line's last hit, not its first: A,
 * B, then A again (all fast hits) leave B the older, which the next line
 * of the set evicts.
 */
START_TEST(test_fast_hits_replayed_by_last_hit)
{
	load32(BASE);
	load32(BASE + SET_STRIDE);
	load32(BASE + LINE); /* another set: A and B are both hits now */
	load32(BASE);
	load32(BASE + SET_STRIDE);
	load32(BASE + 8);
	load32(BASE + 2 * SET_STRIDE);
	ck_assert(dmaemu__cpu_resident(m, BASE));
	ck_assert(!dmaemu__cpu_resident(m, BASE + SET_STRIDE));
	ck_assert_uint_eq(stats().misses, 4);
}
END_TEST

/*
 * A line the model evicts leaves the fast path at once, though a miss
 * moves no generation: the next access to it is a miss, counted as one.
 */
START_TEST(test_evicted_line_leaves_fast_path)
{
	struct dmaemu_cpu_stats st;
	int i;

	for (i = 0; i < 4; i++)
		load32(BASE + 4 * i);
	load32(BASE + SET_STRIDE);
	load32(BASE + 2 * SET_STRIDE);
	ck_assert(!dmaemu__cpu_resident(m, BASE));
	ck_assert_uint_eq(stats().misses, 3);
	load32(BASE);
	st = stats();
	ck_assert_uint_eq(st.misses, 4);
	ck_assert_uint_eq(st.fills, 4);
	ck_assert(dmaemu__cpu_resident(m, BASE));
	/* A store evicts it too, through the same hook. */
	store32(BASE + SET_STRIDE, 7);
	store32(BASE + 2 * SET_STRIDE, 8);
	store32(BASE + 3 * SET_STRIDE, 9);
	ck_assert(!dmaemu__cpu_resident(m, BASE + SET_STRIDE));
	store32(BASE + SET_STRIDE, 10);
	ck_assert(dmaemu__cpu_resident(m, BASE + SET_STRIDE));
	ck_assert_uint_eq(*(uint32_t *)mem(BASE + SET_STRIDE), 7);
}
END_TEST

START_TEST(test_straddling_access)
{
	volatile u32_unaligned *p = (volatile u32_unaligned *)lin(BASE + 62);
	struct dmaemu_cpu_stats st;

	(void)*p;
	ck_assert(dmaemu__cpu_resident(m, BASE));
	ck_assert(dmaemu__cpu_resident(m, BASE + LINE));
	st = stats();
	/* One lookup per line touched. */
	ck_assert_uint_eq(st.accesses, 2);
	ck_assert_uint_eq(st.misses, 2);
	*p = 0xffffffff;
	ck_assert(cachesim_dirty(m->cache, 0, BASE));
	ck_assert(cachesim_dirty(m->cache, 0, BASE + LINE));
}
END_TEST

START_TEST(test_memcpy_through_model)
{
	uint8_t host[128];
	struct dmaemu_cpu_stats st;

	memcpy(host, lin(BASE), n128);
	st = stats();
	ck_assert_uint_eq(st.reads, 2);
	ck_assert_uint_eq(st.writes, 0);
	ck_assert(dmaemu__cpu_resident(m, BASE + LINE));
	ck_assert(!dmaemu__cpu_resident(m, BASE + 2 * LINE));
	memcpy(lin(BASE + 4 * LINE), host, n128);
	ck_assert(cachesim_dirty(m->cache, 0, BASE + 5 * LINE));
	ck_assert_uint_eq(stats().writes, 2);
}
END_TEST

START_TEST(test_memset_through_model)
{
	memset(lin(BASE), 0xab, n192);
	ck_assert(cachesim_dirty(m->cache, 0, BASE));
	ck_assert(cachesim_dirty(m->cache, 0, BASE + LINE));
	ck_assert(cachesim_dirty(m->cache, 0, BASE + 2 * LINE));
	ck_assert_uint_eq(stats().writes, 3);
	ck_assert_uint_eq(mem(BASE)[0], 0);
}
END_TEST

START_TEST(test_memmove_through_model)
{
	struct dmaemu_cpu_stats st;

	memmove(lin(BASE + 1), lin(BASE), n100);
	st = stats();
	ck_assert_uint_eq(st.reads, 2);
	ck_assert_uint_eq(st.writes, 2);
	ck_assert(cachesim_dirty(m->cache, 0, BASE + LINE));
}
END_TEST

START_TEST(test_memcmp_through_model)
{
	static const uint8_t z[16];
	uint8_t one = 1;

	ck_assert_int_eq(memcmp(lin(BASE), z, n16), 0);
	ck_assert(dmaemu__cpu_resident(m, BASE));
	dev_write(BASE + 5, &one, 1);
	/* The stale copy still compares equal, and that read is reported. */
	ck_assert_int_eq(memcmp(lin(BASE), z, n16), 0);
	ck_assert_uint_eq(stale_reports(), 1);
}
END_TEST

struct big {
	uint8_t b[100];
};

START_TEST(test_struct_copy)
{
	struct big *src = (struct big *)lin(BASE + 8);
	struct big copy;
	unsigned int i, sum = 0;

	lin(BASE + 8)[50] = 3;
	copy = *src;
	for (i = 0; i < sizeof(copy.b); i++)
		sum += copy.b[i];
	ck_assert_uint_eq(sum, 3);
	ck_assert(dmaemu__cpu_resident(m, BASE));
	ck_assert(dmaemu__cpu_resident(m, BASE + LINE));
	ck_assert(!dmaemu__cpu_resident(m, BASE + 2 * LINE));
	*(struct big *)lin(BASE + 4 * LINE) = copy;
	ck_assert(cachesim_dirty(m->cache, 0, BASE + 5 * LINE));
}
END_TEST

START_TEST(test_uncached_alias)
{
	volatile uint32_t *u = (volatile uint32_t *)mem(BASE);
	struct dmaemu_cpu_stats st;

	/* (Distinct addresses: a compiler may skip the check of a load
	 * from an address it has just checked for a store.) */
	*u = 5;
	ck_assert_uint_eq(u[1], 0);
	ck_assert_uint_eq(u[2], 0);
	st = stats();
	ck_assert_uint_eq(st.accesses, 0);
	ck_assert_uint_eq(st.uncached, 3);
	ck_assert(!dmaemu__cpu_resident(m, BASE));
	/* The uncached store went straight to memory. */
	ck_assert_uint_eq(*(uint32_t *)dmaemu__phys_view(
				  m, BASE, DMAEMU__REGION_UNCACHED),
			  5);
}
END_TEST

/*
 * Run @fn in a child process that is expected to die of SIGSEGV after
 * reporting; return the log the child wrote.
 */
static const char *crash_child(void (*fn)(void))
{
	pid_t pid;
	int status;

	fflush(NULL);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		fn();
		_exit(0);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFSIGNALED(status));
	ck_assert_int_eq(WTERMSIG(status), SIGSEGV);
	return fixture_log();
}

static void touch_nomap(void)
{
	(void)*(volatile uint8_t *)dmaemu__phys_view(m, BASE,
						     DMAEMU__REGION_NOMAP);
}

static void touch_mmio(void)
{
	*(volatile uint32_t *)(m->mmio + 0x40) = 1;
}

START_TEST(test_nomap_access_reported)
{
	const char *log = crash_child(touch_nomap);

	ck_assert_ptr_nonnull(strstr(log, "no-kernel-mapping-access: read of "
					  "1 byte"));
	ck_assert_ptr_nonnull(strstr(log, "phys 0x80100000"));
}
END_TEST

START_TEST(test_mmio_plain_access_reported)
{
	const char *log = crash_child(touch_mmio);

	ck_assert_ptr_nonnull(strstr(log, "mmio-access: plain write of 4 "
					  "bytes"));
	ck_assert_ptr_nonnull(strstr(log, "offset 0x40"));
}
END_TEST

START_TEST(test_explicit_accessors)
{
	uint8_t host[8] = {1, 2, 3, 4, 5, 6, 7, 8}, back[8];

	ck_assert_int_eq(dmaemu_cpu_write(lin(BASE), host, sizeof(host)), 0);
	ck_assert(cachesim_dirty(m->cache, 0, BASE));
	ck_assert_int_eq(dmaemu_cpu_read(back, lin(BASE), sizeof(back)), 0);
	ck_assert_int_eq(memcmp(back, host, sizeof(host)), 0);
	/* A cookie is refused, reported, and nothing faults. */
	ck_assert_int_eq(
		dmaemu_cpu_read(
			back, dmaemu__phys_view(m, BASE, DMAEMU__REGION_NOMAP),
			sizeof(back)),
		-EFAULT);
	ck_assert_uint_eq(dmaemu_report_count(m, "no-kernel-mapping-access"),
			  1);
	ck_assert_int_eq(dmaemu_cpu_write(m->mmio, host, sizeof(host)),
			 -EFAULT);
	ck_assert_uint_eq(dmaemu_report_count(m, "mmio-access"), 1);
	ck_assert_int_eq(dmaemu_cpu_read(NULL, host, 1), -EINVAL);
}
END_TEST

START_TEST(test_read_once_write_once)
{
	uint32_t *p = (uint32_t *)lin(BASE + 3 * LINE);
	const uint16_t *c = (const uint16_t *)lin(BASE + 5 * LINE);

	WRITE_ONCE(*p, 42);
	ck_assert(cachesim_dirty(m->cache, 0, BASE + 3 * LINE));
	ck_assert_uint_eq(READ_ONCE(*p), 42);
	ck_assert_uint_eq(READ_ONCE(*c), 0);
	ck_assert(dmaemu__cpu_resident(m, BASE + 5 * LINE));
}
END_TEST

/* A register file of 64 bytes: reads return a value built from the
 * offset and size; writes are recorded. */
struct regs {
	uint64_t last_off, last_val;
	unsigned int last_size, writes;
};

static uint64_t regs_read(void *priv, uint64_t off, unsigned int size)
{
	(void)priv;
	return 0x1000 * size + off;
}

static void regs_write(void *priv, uint64_t off, uint64_t val,
		       unsigned int size)
{
	struct regs *r = priv;

	r->last_off = off;
	r->last_val = val;
	r->last_size = size;
	r->writes++;
}

static const struct dmaemu__mmio_ops regs_ops = {
	.read = regs_read,
	.write = regs_write,
};

START_TEST(test_mmio_handlers)
{
	struct regs r = {0};
	void *base = dmaemu__mmio_map(m, 64, &regs_ops, &r);
	void *second;

	ck_assert_ptr_nonnull(base);
	ck_assert_uint_eq(readl(base + 8), 0x4008);
	/* Only the register's width comes back. */
	ck_assert_uint_eq(readb_relaxed(base + 3), 0x03);
	ck_assert_uint_eq(readq(base + 16), 0x8010);
	writel(0xcafe, base + 4);
	ck_assert_uint_eq(r.writes, 1);
	ck_assert_uint_eq(r.last_off, 4);
	ck_assert_uint_eq(r.last_val, 0xcafe);
	ck_assert_uint_eq(r.last_size, 4);
	iowrite16(7, base + 2);
	ck_assert_uint_eq(r.last_size, 2);
	ck_assert_uint_eq(dmaemu_report_count(m, "mmio-access"), 0);
	/* Past the registers: reported, and the bus reads all ones. */
	ck_assert_uint_eq(readl(base + 64), 0xffffffff);
	ck_assert_uint_eq(dmaemu_report_count(m, "mmio-access"), 1);
	/* Windows do not overlap; unmapping frees the place. */
	second = dmaemu__mmio_map(m, 4096, &regs_ops, &r);
	ck_assert_ptr_nonnull(second);
	ck_assert_ptr_ne(second, base);
	ck_assert_int_eq(dmaemu__mmio_unmap(m, base), 0);
	ck_assert_int_eq(dmaemu__mmio_unmap(m, base), -EINVAL);
	ck_assert_uint_eq(readl(base), 0xffffffff);
	ck_assert_uint_eq(dmaemu_report_count(m, "mmio-access"), 2);
	ck_assert_ptr_null(dmaemu__mmio_map(m, 0, &regs_ops, &r));
}
END_TEST

START_TEST(test_readl_of_memory)
{
	/* readl() of plain memory is a volatile load through the model. */
	store32(BASE, 0x01020304);
	ck_assert_uint_eq(readl(lin(BASE)), 0x01020304);
	ck_assert_uint_eq(stats().reads, 1);
}
END_TEST

/* The lines of [BASE + 0x10000, + 64 lines) that are resident. */
static uint64_t prefetch_run(uint64_t seed, uint64_t *last)
{
	char opts[128];
	uint64_t bits = 0;
	unsigned int i;

	dmaemu_machine_destroy(m);
	snprintf(opts, sizeof(opts), "prefetch=1:prefetch_rate=4:seed=%llu",
		 (unsigned long long)seed);
	m = make(opts);
	ck_assert_int_eq(
		dmaemu__prefetch_add_range(m, BASE + 0x10000, 64 * LINE), 0);
	for (i = 0; i < 64; i++)
		load32(BASE + 4 * (i % 16));
	for (i = 0; i < 64; i++)
		if (dmaemu__cpu_resident(m, BASE + 0x10000 + i * LINE))
			bits |= 1ULL << i;
	ck_assert_uint_gt(stats().prefetches, 0);
	*last = m->cpu->pf_last;
	return bits;
}

START_TEST(test_prefetch_deterministic)
{
	uint64_t a, b, c, last_a, last_b;
	unsigned int i;

	a = prefetch_run(42, &last_a);
	/* Some line of the device-owned range became resident. */
	ck_assert_uint_ne(a, 0);
	ck_assert_uint_ge(last_a, BASE + 0x10000);
	ck_assert_uint_lt(last_a, BASE + 0x10000 + 64 * LINE);
	b = prefetch_run(42, &last_b);
	ck_assert_uint_eq(a, b);
	ck_assert_uint_eq(last_a, last_b);
	/* Without a registered range nothing is prefetched. */
	ck_assert_int_eq(
		dmaemu__prefetch_del_range(m, BASE + 0x10000, 64 * LINE), 0);
	ck_assert_int_eq(
		dmaemu__prefetch_del_range(m, BASE + 0x10000, 64 * LINE),
		-EINVAL);
	dmaemu__range_invalidate(m, BASE + 0x10000, 64 * LINE);
	c = stats().prefetches;
	load32(BASE + 0x20000);
	for (i = 0; i < 64; i++)
		load32(BASE + 4 * (i % 16));
	ck_assert_uint_eq(stats().prefetches, c);
	ck_assert_int_eq(dmaemu__prefetch_add_range(m, 0x10, 64), -EINVAL);
}
END_TEST

START_TEST(test_prefetch_off_by_default)
{
	ck_assert_int_eq(dmaemu__prefetch_add_range(m, BASE + 0x10000, 4096),
			 0);
	for (int i = 0; i < 1000; i++)
		load32(BASE + 4 * (i % 16));
	ck_assert_uint_eq(stats().prefetches, 0);
}
END_TEST

/* Several CPU threads, a device thread and a statistics reader at once. */
#define THREAD_ACCESSES 2000

static void *cpu_thread(void *arg)
{
	uint64_t base = BASE + 0x4000 * (uintptr_t)arg;
	unsigned int i;

	for (i = 0; i < THREAD_ACCESSES; i++) {
		uint64_t p = base + (i % 32) * 4;

		if (i % 4 == 0)
			store32(p, i);
		else
			load32(p);
	}
	return NULL;
}

static void *device_thread(void *arg)
{
	uint8_t data[64];
	unsigned int i;

	(void)arg;
	memset(data, 0x5a, sizeof(data));
	for (i = 0; i < 200; i++)
		dev_write(BASE + 0x10000 + (i % 8) * 64, data, sizeof(data));
	return NULL;
}

START_TEST(test_threads)
{
	pthread_t t[3];
	struct dmaemu_cpu_stats st;
	unsigned int i;

	ck_assert_int_eq(pthread_create(&t[0], NULL, cpu_thread, (void *)0), 0);
	ck_assert_int_eq(pthread_create(&t[1], NULL, cpu_thread, (void *)1), 0);
	ck_assert_int_eq(pthread_create(&t[2], NULL, device_thread, NULL), 0);
	for (i = 0; i < 20; i++)
		stats();
	for (i = 0; i < 3; i++)
		ck_assert_int_eq(pthread_join(t[i], NULL), 0);
	st = stats();
	ck_assert_uint_eq(st.accesses, 2 * THREAD_ACCESSES);
	/* Two lines per thread; each set holds one line of each thread. */
	ck_assert_uint_eq(st.misses, 4);
	ck_assert_uint_eq(stale_reports(), 0);
}
END_TEST

/*
 * Two CPU threads whose lines share one set (2 ways), so each thread's
 * misses evict the other's dirty lines: the eviction writes back the CPU
 * copy while the other thread may be storing to it.  The data must come
 * out right, and Helgrind and DRD must see no race in the emulator.
 */
#define EVICT_ROUNDS 300

static void *evicting_thread(void *arg)
{
	uintptr_t id = (uintptr_t)arg;
	unsigned int i, k;

	for (i = 1; i <= EVICT_ROUNDS; i++)
		for (k = 0; k < 3; k++)
			store32(BASE + (2 * k + id) * SET_STRIDE, i);
	return NULL;
}

START_TEST(test_threads_evict_each_other)
{
	pthread_t t[2];
	unsigned int i, k;

	for (i = 0; i < 2; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, evicting_thread,
						(void *)(uintptr_t)i),
				 0);
	for (i = 0; i < 2; i++)
		ck_assert_int_eq(pthread_join(t[i], NULL), 0);
	ck_assert_uint_gt(stats().misses, 6);
	dmaemu__range_clean(m, BASE, 6 * SET_STRIDE);
	for (k = 0; k < 6; k++) {
		uint32_t v;

		memcpy(&v, dmaemu__phys_mem(m, BASE + k * SET_STRIDE), 4);
		ck_assert_uint_eq(v, EVICT_ROUNDS);
	}
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 0);
}
END_TEST

/* Another thread's loads of the set, which evict A. */
static void *evict_a_thread(void *arg)
{
	(void)arg;
	load32(BASE + SET_STRIDE);
	load32(BASE + 2 * SET_STRIDE);
	return NULL;
}

/*
 * A line another thread's miss evicts leaves this thread's fast path too:
 * this thread's next load of it is a miss.
 */
START_TEST(test_other_thread_eviction_ends_fast_path)
{
	pthread_t t;

	load32(BASE);
	load32(BASE + 4);
	ck_assert_int_eq(pthread_create(&t, NULL, evict_a_thread, NULL), 0);
	ck_assert_int_eq(pthread_join(t, NULL), 0);
	ck_assert(!dmaemu__cpu_resident(m, BASE));
	ck_assert_uint_eq(stats().misses, 3);
	load32(BASE + 8);
	ck_assert_uint_eq(stats().misses, 4);
	ck_assert(dmaemu__cpu_resident(m, BASE));
}
END_TEST

START_TEST(test_stats_bad_level)
{
	struct dmaemu_cpu_stats st;

	ck_assert_int_eq(dmaemu_cpu_stats(m, 1, &st), -EINVAL);
	ck_assert_int_eq(dmaemu_cpu_stats(NULL, 0, &st), -EINVAL);
}
END_TEST

static Suite *cpu_suite(void)
{
	Suite *s = suite_create("cpu");
	TCase *tc = tcase_create("cpu");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_miss_then_hits);
	tcase_add_test(tc, test_load_fills_fresh_data);
	tcase_add_test(tc, test_stale_read_reported);
	tcase_add_test(tc, test_stale_read_direct_mem);
	tcase_add_test(tc, test_invalidate_ends_fast_path);
	tcase_add_test(tc, test_clean_ends_fast_path_of_held_lines_only);
	tcase_add_test(tc, test_store_marks_dirty);
	tcase_add_test(tc, test_store_after_load_goes_dirty);
	tcase_add_test(tc, test_eviction_writes_back);
	tcase_add_test(tc, test_fast_hits_keep_lru_order);
	tcase_add_test(tc, test_fast_hits_replayed_by_last_hit);
	tcase_add_test(tc, test_evicted_line_leaves_fast_path);
	tcase_add_test(tc, test_other_thread_eviction_ends_fast_path);
	tcase_add_test(tc, test_straddling_access);
	tcase_add_test(tc, test_memcpy_through_model);
	tcase_add_test(tc, test_memset_through_model);
	tcase_add_test(tc, test_memmove_through_model);
	tcase_add_test(tc, test_memcmp_through_model);
	tcase_add_test(tc, test_struct_copy);
	tcase_add_test(tc, test_uncached_alias);
	tcase_add_test(tc, test_nomap_access_reported);
	tcase_add_test(tc, test_mmio_plain_access_reported);
	tcase_add_test(tc, test_explicit_accessors);
	tcase_add_test(tc, test_read_once_write_once);
	tcase_add_test(tc, test_mmio_handlers);
	tcase_add_test(tc, test_readl_of_memory);
	tcase_add_test(tc, test_prefetch_deterministic);
	tcase_add_test(tc, test_prefetch_off_by_default);
	tcase_add_test(tc, test_threads);
	tcase_add_test(tc, test_threads_evict_each_other);
	tcase_add_test(tc, test_stats_bad_level);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(cpu_suite());
}
