// SPDX-License-Identifier: MIT
/*
 * bench-loops.c - instrumented loads and stores, and routed fills and
 * copies, as ratios to the same work done plain in the same run.
 *
 * The loops are compiled twice from this file: with the instrumentation
 * flags, as dmaemu-cc -O2 builds driver code (bench_*_instr, in one
 * convenience library), and plain (bench_*_plain, in another); the driver
 * below is a third compilation.  Two shapes of driver loop:
 *
 *   vec      over an array of 64-bit words: a fill, a read-back sum, a
 *            read-modify-write; the compiler vectorises all three
 *   scalar   over an array of 32-byte structs chained by an index (each
 *            one names the next, so the compiler cannot vectorise): a
 *            field fill, then a walk that reads, updates and tests fields
 *            of each struct, as a driver walks its rings and contexts
 *
 * Each runs over 16 KiB (half the default 32 KiB model cache) and 256 KiB
 * (eight times it), in emulated memory (kmalloc() of a machine with the
 * default options and cache) for the instrumented build and in host memory
 * for the plain one, best of REPEATS.  The same plain loops also run under
 * valgrind --tool=cachegrind (the bench runs itself again as `bench-loops
 * --plain SHAPE SIZE PASSES`; skipped, saying so, when valgrind cannot be
 * run), and each instrumented slowdown is judged against Cachegrind's.
 *
 * Routed fills and copies: memset(), memcpy() and memmove() of 4 KiB and
 * 1 MiB called from instrumented code (bench_routed_*, which --wrap sends
 * through the model, memintrin.c) into emulated memory the model does not
 * hold (the 4 KiB destination moves through 256 KiB, eight times the
 * cache, so each one is cold again when reused), against glibc's own
 * memcpy() of the same size between two warm host buffers (__real_memcpy:
 * the call this program's objects make to memcpy is routed too).
 *
 * Judged (bench.h format; a baseline is refused, bad-baseline, when it is
 * slower than any undisturbed host runs it: 1.5 ns a word for vec, 8 ns a
 * struct for scalar, and the memcpy floors of bench-dma.c, 8 GB/s at 4 KiB
 * and 4 GB/s at 1 MiB):
 *
 *   loops_scalar_16k, loops_scalar_256k   instrumented / plain: <= 3, <= 5
 *   loops_vec_16k, loops_vec_256k         instrumented / plain: <= 6, <= 10
 *   loops_*_vs_cg                         the slowdown above / Cachegrind's
 *                                         on the plain loop: <= 0.25
 *   routed_memset_4k ... routed_memmove_1m   routed call / glibc memcpy:
 *                                         <= 6 at 4 KiB, <= 3 at 1 MiB
 *
 * Usage: bench-loops [--only NAME]   (NAME: one figure's prefix, such as
 *        loops_vec_16k or routed_memset; the others are not run)
 *        bench-loops --plain SHAPE SIZE PASSES   (what Cachegrind runs)
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct bench_ctx {
	uint32_t next; /* index of the next struct of the walk */
	uint32_t flags;
	uint64_t bytes;
	uint32_t len;
	uint16_t head, tail;
	uint64_t stamp;
};

uint64_t bench_vec_instr(uint64_t *w, size_t n, uint64_t v);
uint64_t bench_vec_plain(uint64_t *w, size_t n, uint64_t v);
uint64_t bench_scalar_instr(struct bench_ctx *c, size_t n, uint64_t v);
uint64_t bench_scalar_plain(struct bench_ctx *c, size_t n, uint64_t v);
void bench_routed_memset(void *dst, size_t len, int c);
void bench_routed_memcpy(void *dst, const void *src, size_t len);
void bench_routed_memmove(void *dst, const void *src, size_t len);

#ifdef BENCH_LOOPS_SUFFIX
#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)

/*
 * Fill, read back, read-modify-write, in blocks of VEC_BLOCK words: a trip
 * count the compiler knows is what GCC's -O2 (its "very cheap" cost
 * model) vectorises; @n is a multiple of it.
 */
#define VEC_BLOCK 64
uint64_t CAT(bench_vec_, BENCH_LOOPS_SUFFIX)(uint64_t *w, size_t n, uint64_t v)
{
	uint64_t sum = 0;
	size_t b, i;

	for (b = 0; b < n; b += VEC_BLOCK)
		for (i = 0; i < VEC_BLOCK; i++)
			w[b + i] = v + i;
	for (b = 0; b < n; b += VEC_BLOCK)
		for (i = 0; i < VEC_BLOCK; i++)
			sum += w[b + i];
	for (b = 0; b < n; b += VEC_BLOCK)
		for (i = 0; i < VEC_BLOCK; i++)
			w[b + i] ^= sum;
	return sum;
}

/*
 * A field fill in index order, then a walk along the chain: each struct
 * names the next, so no two iterations are known independent.
 */
uint64_t CAT(bench_scalar_, BENCH_LOOPS_SUFFIX)(struct bench_ctx *c, size_t n,
						uint64_t v)
{
	uint64_t sum = 0;
	uint32_t i = 0;
	size_t k;

	for (k = 0; k < n; k++) {
		c[k].len = (uint32_t)(v + k) & 0x7ff;
		c[k].stamp = v;
	}
	for (k = 0; k < n; k++) {
		struct bench_ctx *s = &c[i];

		s->bytes += s->len;
		s->flags |= 1u << (k & 7);
		s->head = (uint16_t)(s->tail + 1);
		if (s->flags & 0x80)
			sum += s->stamp ^ s->bytes;
		i = s->next;
	}
	return sum;
}

#ifdef BENCH_LOOPS_ROUTED
void bench_routed_memset(void *dst, size_t len, int c)
{
	memset(dst, c, len);
}

void bench_routed_memcpy(void *dst, const void *src, size_t len)
{
	memcpy(dst, src, len);
}

void bench_routed_memmove(void *dst, const void *src, size_t len)
{
	memmove(dst, src, len);
}
#endif

#else /* the driver */

#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/slab.h>

#include "bench.h"
#include "dmaemu/cpu.h"
#include "dmaemu/machine.h"

#define REPEATS 5
#define WORK (4u << 20) /* bytes a timing walks over, whatever the size */
#define VEC_CEIL_NS 1.5
#define SCALAR_CEIL_NS 8.0
#define FLOOR_4K_GBS 8.0
#define FLOOR_1M_GBS 4.0
#define ROUTED_SPAN (256u << 10)

/* glibc's memcpy(), past --wrap. */
void *__real_memcpy(void *dst, const void *src, size_t len);

static volatile uint64_t sink;
static const char *only; /* --only: the prefix of the figures to run */

static bool wanted(const char *name)
{
	return !only || !strncmp(name, only, strlen(only));
}

enum shape { VEC, SCALAR };

static void init_chain(struct bench_ctx *c, size_t n)
{
	size_t k;

	memset(c, 0, n * sizeof(*c));
	for (k = 0; k < n; k++)
		c[k].next = (uint32_t)((k + 1) % n);
}

/* Best of REPEATS, seconds for @passes passes of @shape over @size bytes at
 * @buf, instrumented or plain. */
static double time_loop(enum shape shape, bool instr, void *buf, size_t size,
			unsigned int passes)
{
	double best = 1e30;
	unsigned int r, p;

	if (shape == SCALAR)
		init_chain(buf, size / sizeof(struct bench_ctx));
	for (r = 0; r < REPEATS; r++) {
		double t0 = bench_now_ns(), t;
		uint64_t s = 0;

		for (p = 0; p < passes; p++) {
			if (shape == VEC)
				s += (instr ? bench_vec_instr
					    : bench_vec_plain)(buf, size / 8,
							       p);
			else
				s += (instr ? bench_scalar_instr
					    : bench_scalar_plain)(
					buf, size / sizeof(struct bench_ctx),
					p);
		}
		t = (bench_now_ns() - t0) * 1e-9;
		sink = s;
		if (t < best)
			best = t;
	}
	return best;
}

/* `bench-loops --plain SHAPE SIZE PASSES`: the baseline alone. */
static int plain_only(const char *shape, size_t size, unsigned int passes)
{
	void *buf = aligned_alloc(4096, size);

	if (!buf)
		return 1;
	printf("%.9f\n", time_loop(strcmp(shape, "vec") ? SCALAR : VEC, false,
				   buf, size, passes));
	free(buf);
	return 0;
}

/* The plain loop's time per pass under Cachegrind, or < 0. */
static double cachegrind_pass(const char *shape, size_t size,
			      unsigned int passes)
{
	char cmd[4096], exe[2048], out[64] = "";
	const char *vg = getenv("VALGRIND");
	ssize_t n;
	FILE *f;
	int status;

	if (!vg || !*vg)
		vg = "valgrind";
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return -1;
	exe[n] = '\0';
	snprintf(cmd, sizeof(cmd),
		 "%s --tool=cachegrind --cache-sim=yes "
		 "--cachegrind-out-file=/dev/null -q '%s' --plain %s %zu %u "
		 "2>/dev/null",
		 vg, exe, shape, size, passes);
	f = popen(cmd, "r");
	if (!f)
		return -1;
	if (!fgets(out, sizeof(out), f))
		out[0] = '\0';
	status = pclose(f);
	if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0 ||
	    !out[0])
		return -1;
	return strtod(out, NULL) / passes;
}

static void loops(struct dmaemu_machine *m, enum shape shape, size_t size,
		  void *emul, void *host)
{
	struct dmaemu_cpu_stats st0, st1;
	const char *sname = shape == VEC ? "vec" : "scalar";
	unsigned int passes = WORK / size, cgp;
	size_t elems =
		shape == VEC ? size / 8 : size / sizeof(struct bench_ctx);
	double plain, instr, cg, per, ceil, slow, target;
	char name[64];
	bool ok;

	snprintf(name, sizeof(name), "loops_%s_%zuk", sname, size >> 10);
	if (!wanted(name))
		return;
	plain = time_loop(shape, false, host, size, passes);
	dmaemu_cpu_stats(m, 0, &st0);
	instr = time_loop(shape, true, emul, size, passes);
	dmaemu_cpu_stats(m, 0, &st1);
	printf("%s: %.1f%% of the model's accesses on the fast path, "
	       "%llu misses\n",
	       name,
	       st1.accesses > st0.accesses
		       ? 100.0 * (double)(st1.fast_hits - st0.fast_hits) /
				 (double)(st1.accesses - st0.accesses)
		       : 0.0,
	       (unsigned long long)(st1.misses - st0.misses));
	per = plain * 1e9 / ((double)passes * (double)elems);
	ceil = shape == VEC ? VEC_CEIL_NS : SCALAR_CEIL_NS;
	ok = per <= ceil;
	slow = instr / plain;
	if (shape == VEC)
		target = size <= (16u << 10) ? 6 : 10;
	else
		target = size <= (16u << 10) ? 3 : 5;
	bench_judge(name, slow, BENCH_LE, target, ok,
		    "baseline: plain %.2f ns per %s (ceiling %.1f); "
		    "instrumented %.2f",
		    per, shape == VEC ? "word" : "struct", ceil,
		    instr * 1e9 / ((double)passes * (double)elems));
	/* Cachegrind is slow: an eighth of the passes, compared per pass. */
	cgp = passes / 8 ? passes / 8 : 1;
	cg = cachegrind_pass(sname, size, cgp);
	snprintf(name, sizeof(name), "loops_%s_%zuk_vs_cg", sname, size >> 10);
	if (cg < 0) {
		printf("%s skipped (valgrind not run)\n", name);
		return;
	}
	bench_judge(name, slow / (cg / (plain / passes)), BENCH_LE, 0.25, ok,
		    "baseline: Cachegrind's slowdown on the plain loop %.1fx",
		    cg / (plain / passes));
}

/* ns per memcpy() of @size between two warm host buffers (bench-dma.c
 * says why they come from one block, @size + 2 KiB apart). */
static double time_memcpy(size_t size, unsigned int iters)
{
	double t[REPEATS], t0;
	unsigned int r, i;
	uint8_t *a, *b;
	void *blk;

	if (posix_memalign(&blk, 4096, 2 * size + 2048))
		abort();
	a = blk;
	b = a + size + 2048;
	memset(a, 1, size);
	memset(b, 2, size);
	for (r = 0; r < REPEATS; r++) {
		t0 = bench_now_ns();
		for (i = 0; i < iters; i++) {
			__real_memcpy(b, a, size);
			__asm__ volatile("" : : "r"(b) : "memory");
			a[i % size]++;
		}
		t[r] = (bench_now_ns() - t0) / iters;
	}
	free(blk);
	return bench_min(t, REPEATS);
}

enum routed { R_MEMSET, R_MEMCPY, R_MEMMOVE };

/* ns per routed call of @size bytes into @span bytes at @emul, each call
 * at the next @size-byte slot (cold in the model when the span exceeds
 * the cache). */
static double time_routed(enum routed op, uint8_t *emul, size_t span,
			  const uint8_t *src, size_t size, unsigned int iters)
{
	double t[REPEATS], t0;
	unsigned int r, i;
	size_t slots = span / size;

	for (r = 0; r < REPEATS; r++) {
		t0 = bench_now_ns();
		for (i = 0; i < iters; i++) {
			uint8_t *d = emul + (i % slots) * size;

			if (op == R_MEMSET)
				bench_routed_memset(d, size, (int)i);
			else if (op == R_MEMCPY)
				bench_routed_memcpy(d, src, size);
			else
				bench_routed_memmove(d, src, size);
		}
		t[r] = (bench_now_ns() - t0) / iters;
	}
	return bench_min(t, REPEATS);
}

static void routed(uint8_t *emul, const uint8_t *src)
{
	static const char *const names[] = {"memset", "memcpy", "memmove"};
	static const struct {
		size_t size;
		unsigned int iters;
		double floor, target;
		const char *tag;
	} sz[] = {
		{4096, 2000, FLOOR_4K_GBS, 6, "4k"},
		{1u << 20, 20, FLOOR_1M_GBS, 3, "1m"},
	};
	unsigned int s, op;

	for (s = 0; s < 2; s++) {
		size_t span =
			sz[s].size < ROUTED_SPAN ? ROUTED_SPAN : sz[s].size;
		double base, gbs;
		char any[32];

		for (op = 0; op < 3; op++) {
			snprintf(any, sizeof(any), "routed_%s_%s", names[op],
				 sz[s].tag);
			if (wanted(any))
				break;
		}
		if (op == 3)
			continue;
		base = time_memcpy(sz[s].size, sz[s].iters * 10);
		gbs = (double)sz[s].size / base;
		for (op = 0; op < 3; op++) {
			double t;
			char name[64];

			snprintf(name, sizeof(name), "routed_%s_%s", names[op],
				 sz[s].tag);
			if (!wanted(name))
				continue;
			t = time_routed((enum routed)op, emul, span, src,
					sz[s].size, sz[s].iters);
			bench_judge(
				name, t / base, BENCH_LE, sz[s].target,
				gbs >= sz[s].floor,
				"baseline: glibc memcpy %.0f ns (%.1f GB/s, "
				"floor %.0f); routed %.0f ns",
				base, gbs, sz[s].floor, t);
		}
	}
}

int main(int argc, char **argv)
{
	struct dmaemu_machine *m;
	void *host, *emul, *src;

	if (argc == 5 && !strcmp(argv[1], "--plain"))
		return plain_only(argv[2], strtoull(argv[3], NULL, 0),
				  (unsigned int)strtoul(argv[4], NULL, 0));
	if (argc == 3 && !strcmp(argv[1], "--only"))
		only = argv[2];
	unsetenv("DMAEMU_OPTIONS");
	m = dmaemu_machine_create("log_path=/dev/null");
	if (!m) {
		fprintf(stderr, "bench-loops: cannot create a machine\n");
		return 1;
	}
	host = aligned_alloc(4096, 1u << 20);
	src = aligned_alloc(4096, 1u << 20);
	emul = kmalloc(1u << 20, GFP_KERNEL);
	if (!host || !emul || !src) {
		fprintf(stderr, "bench-loops: out of memory\n");
		return 1;
	}
	memset(src, 0x5a, 1u << 20);
	loops(m, SCALAR, 16u << 10, emul, host);
	loops(m, SCALAR, 256u << 10, emul, host);
	loops(m, VEC, 16u << 10, emul, host);
	loops(m, VEC, 256u << 10, emul, host);
	routed(emul, src);
	kfree(emul);
	free(host);
	free(src);
	dmaemu_machine_destroy(m);
	return bench_status();
}
#endif
