// SPDX-License-Identifier: MIT
/*
 * bench-cachesim.c - replay speed of the cache simulator.
 *
 * Builds a deterministic trace in memory, then times two loops over it in
 * the same run: merely reading it (the baseline: load and sum every entry)
 * and replaying it through a 32 KiB, 8-way, 64-byte-line, LRU, write-back
 * cache.  Each loop runs REPEATS times and the best time counts, so a
 * neighbour's burst of activity on a shared machine does not decide the
 * figure.  Prints the rates for people, then figures in bench.h's format:
 *
 *   cachesim_replay_maps   replayed accesses per second, millions; target
 *                          >= 75 (issue 2: an absolute rate for this
 *                          2-core host, where Dinero IV does about 15).
 *                          Judged only when the baseline is plausible:
 *                          reading the trace must run at >= 100 M entries
 *                          per second (a sequential 8-byte load and three
 *                          adds an entry, about 1 ns on any current host;
 *                          slower means the run was disturbed, and an
 *                          absolute rate measured then says nothing)
 *   cachesim_read_maps     trace entries read per second, millions (info)
 *   cachesim_replay_vs_read_ratio   (info) replay time / the time of a
 *                          loop that only decodes and sums the trace: the
 *                          simulator's cost per access in units of the
 *                          cheapest possible pass over the same entries,
 *                          not a slowdown of any traced program
 *
 * The trace mixes what a driver loop does: a hot working set of 24 KiB that
 * fits the cache, a sequential stream through a large buffer, and random
 * far accesses that always miss; 30% of the accesses are writes, sizes are
 * 1 to 8 bytes (the odd sizes unaligned, so some straddle two lines).
 *
 * Usage: bench-cachesim [accesses]   (default 10000000)
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench.h"
#include "cachesim.h"

#define DEFAULT_ACCESSES 10000000u
#define REPEATS 5
/* Baseline floor: trace entries read per second, millions (see above). */
#define READ_FLOOR_MAPS 100.0

#define HOT_BASE 0x10000000ull
#define HOT_SIZE (24u * 1024)
#define STREAM_BASE 0x40000000ull
#define STREAM_SIZE (256ull << 20)
#define FAR_BASE 0x100000000ull
#define FAR_SIZE (1ull << 30)

/* Mix, in percent of accesses; the rest are far. */
#define PCT_HOT 75
#define PCT_STREAM 15
#define PCT_WRITE 30

/* One trace entry: address in bits 0-47, size-1 in 48-50, write in 51. */
#define ENT_ADDR(e) ((e) & ((1ull << 48) - 1))
#define ENT_SIZE(e) ((unsigned int)(((e) >> 48) & 7) + 1)
#define ENT_WRITE(e) ((unsigned int)((e) >> 51) & 1)

static uint64_t rng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint64_t *make_trace(size_t n)
{
	uint64_t *t = malloc(n * sizeof(*t));
	uint64_t seed = 42, stream = 0, addr, r;
	unsigned int size, kind;
	size_t i;

	if (!t)
		return NULL;
	for (i = 0; i < n; i++) {
		r = rng_next(&seed);
		kind = (unsigned int)(r % 100);
		size = (unsigned int)((r >> 8) & 7) + 1;
		if (kind < PCT_HOT) {
			addr = HOT_BASE + ((r >> 16) % (HOT_SIZE - 8));
			/* Power-of-two sizes are naturally aligned. */
			if (!(size & (size - 1)))
				addr &= ~(uint64_t)(size - 1);
		} else if (kind < PCT_HOT + PCT_STREAM) {
			addr = STREAM_BASE + stream;
			stream = (stream + size) % STREAM_SIZE;
		} else {
			addr = FAR_BASE + (((r >> 16) % FAR_SIZE) & ~7ull);
		}
		t[i] = addr | (uint64_t)(size - 1) << 48 |
		       (uint64_t)((r >> 40) % 100 < PCT_WRITE) << 51;
	}
	return t;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The baseline: touch every entry the way the replay loop decodes it. */
static uint64_t read_trace(const uint64_t *t, size_t n)
{
	uint64_t sum = 0;
	size_t i;

	for (i = 0; i < n; i++)
		sum += ENT_ADDR(t[i]) + ENT_SIZE(t[i]) + ENT_WRITE(t[i]);
	return sum;
}

static uint64_t replay(struct cachesim *cs, const uint64_t *t, size_t n)
{
	uint64_t sum = 0;
	size_t i;

	for (i = 0; i < n; i++)
		sum += cachesim_access(cs, ENT_ADDR(t[i]), ENT_SIZE(t[i]),
				       ENT_WRITE(t[i]) ? CACHESIM_WRITE
						       : CACHESIM_READ);
	return sum;
}

int main(int argc, char **argv)
{
	size_t n = DEFAULT_ACCESSES;
	struct cachesim_config cfg;
	struct cachesim_stats st;
	struct cachesim *cs;
	double t0, best_read = 1e30, best_replay = 1e30;
	uint64_t *trace, rsum = 0, ssum = 0;
	char msg[256];
	int i;

	if (argc > 1) {
		char *end;

		n = strtoul(argv[1], &end, 0);
		if (*end || !n) {
			fprintf(stderr, "usage: %s [accesses]\n", argv[0]);
			return 2;
		}
	}
	trace = make_trace(n);
	if (!trace) {
		fprintf(stderr,
			"bench-cachesim: out of memory for the trace\n");
		return 1;
	}
	cachesim_config_init(&cfg); /* 32 KiB, 8-way, 64 B, LRU, WB-WA */
	cs = cachesim_create(&cfg, msg, sizeof(msg));
	if (!cs) {
		fprintf(stderr, "bench-cachesim: %s\n", msg);
		free(trace);
		return 1;
	}

	for (i = 0; i < REPEATS; i++) {
		double dt;

		t0 = now();
		rsum += read_trace(trace, n);
		dt = now() - t0;
		best_read = dt < best_read ? dt : best_read;

		cachesim_reset(cs);
		t0 = now();
		ssum += replay(cs, trace, n);
		dt = now() - t0;
		best_replay = dt < best_replay ? dt : best_replay;
	}
	cachesim_stats(cs, 0, &st);

	printf("trace: %zu accesses: %d%% hot %u KiB, %d%% stream, %d%% far; "
	       "%d%% writes; sizes 1-8\n",
	       n, PCT_HOT, HOT_SIZE / 1024, PCT_STREAM,
	       100 - PCT_HOT - PCT_STREAM, PCT_WRITE);
	printf("cache: L1 %" PRIu64 " KiB, %u-way, %u B lines, %s, %s\n",
	       cfg.level[0].size / 1024, cfg.level[0].ways, cfg.level[0].line,
	       cachesim_policy_name(cfg.level[0].policy),
	       cachesim_write_policy_name(cfg.level[0].write_policy));
	printf("L1: %" PRIu64 " hits, %" PRIu64 " misses (%.2f%%), %" PRIu64
	       " compulsory, %" PRIu64 " write-backs, %" PRIu64
	       " dirty at end\n",
	       st.hits, st.misses, 100.0 * (double)st.misses / (double)n,
	       st.compulsory_misses, st.writebacks,
	       cachesim_dirty_lines(cs, 0));
	printf("read:   %8.2f ms  %8.1f M entries/s (best of %d)\n",
	       best_read * 1e3, (double)n / best_read / 1e6, REPEATS);
	printf("replay: %8.2f ms  %8.1f M accesses/s (best of %d)\n",
	       best_replay * 1e3, (double)n / best_replay / 1e6, REPEATS);
	printf("checksums: %" PRIu64 " %" PRIu64 "\n", rsum, ssum);
	bench_judge("cachesim_replay_maps", (double)n / best_replay / 1e6,
		    BENCH_GE, 75,
		    (double)n / best_read / 1e6 >= READ_FLOOR_MAPS,
		    "M accesses/s; baseline: trace read at %.1f M entries/s "
		    "(floor %.0f)",
		    (double)n / best_read / 1e6, READ_FLOOR_MAPS);
	bench_info("cachesim_read_maps", (double)n / best_read / 1e6,
		   "trace entries decoded and summed per second, millions");
	bench_info("cachesim_replay_vs_read_ratio", best_replay / best_read,
		   "replay time / time to merely decode the trace; not a "
		   "program slowdown");

	cachesim_destroy(cs);
	free(trace);
	return bench_status();
}
