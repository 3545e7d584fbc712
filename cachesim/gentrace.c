// SPDX-License-Identifier: MIT
/*
 * gentrace.c - write a deterministic synthetic trace (din or bin) for
 * measuring the cachesim command.
 *
 * How it works: each record picks one of three streams with a seeded
 * generator: 60% go to a hot 24 KiB working set (mostly L1 hits with the
 * default 32 KiB L1), 25% walk sequentially through 64 MiB (one miss per
 * line), 15% land anywhere in 1 GiB (almost always misses).  30% of the
 * records are writes.  Every access is 8 bytes, 8-byte aligned.  The same
 * arguments always give the same bytes.
 *
 *   gentrace [-f din|bin] [-n RECORDS] [-s SEED] [-o OUT]
 */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace.h"

#define HOT_BASE 0x10000000ull
#define HOT_SIZE (24u << 10)
#define STREAM_BASE 0x40000000ull
#define STREAM_SIZE (64u << 20)
#define FAR_BASE 0x80000000ull
#define FAR_SIZE (1ull << 30)
#define CHUNK 4096

/* splitmix64: small, fast, and good enough to pick addresses. */
static uint64_t next_rand(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static int usage(const char *msg)
{
	fprintf(stderr, "gentrace: %s\n", msg);
	fprintf(stderr, "usage: gentrace [-f din|bin] [-n RECORDS] [-s SEED] "
			"[-o OUT]\n");
	return 2;
}

static int parse_u64(const char *s, uint64_t *out)
{
	char *end;

	if (!*s || *s == '-')
		return -1;
	*out = strtoull(s, &end, 0);
	return *end ? -1 : 0;
}

int main(int argc, char **argv)
{
	static struct trace_record recs[CHUNK];
	enum trace_format fmt = TRACE_DIN;
	uint64_t n = 10000000, seed = 1, done, r, pick, stream = 0;
	const char *out = "-";
	struct trace_writer *w;
	char err[600];
	size_t k;
	int c;

	while ((c = getopt(argc, argv, "f:n:s:o:")) != -1) {
		switch (c) {
		case 'f':
			if (trace_parse_format(optarg, &fmt) < 0 ||
			    (fmt != TRACE_DIN && fmt != TRACE_BIN))
				return usage("-f takes din or bin");
			break;
		case 'n':
			if (parse_u64(optarg, &n) < 0)
				return usage("-n takes a number of records");
			break;
		case 's':
			if (parse_u64(optarg, &seed) < 0)
				return usage("-s takes a number");
			break;
		case 'o':
			out = optarg;
			break;
		default:
			return usage("unknown option");
		}
	}
	if (optind != argc)
		return usage("no arguments expected");

	w = trace_writer_open(out, fmt, err, sizeof(err));
	if (!w) {
		fprintf(stderr, "gentrace: %s\n", err);
		return 1;
	}
	for (done = 0; done < n; done += k) {
		for (k = 0; k < CHUNK && done + k < n; k++) {
			r = next_rand(&seed);
			pick = r % 100;
			if (pick < 60) {
				recs[k].addr = HOT_BASE +
					       ((r >> 8) % (HOT_SIZE / 8)) * 8;
			} else if (pick < 85) {
				recs[k].addr = STREAM_BASE + stream;
				stream = (stream + 8) % STREAM_SIZE;
			} else {
				recs[k].addr = FAR_BASE +
					       ((r >> 8) % (FAR_SIZE / 8)) * 8;
			}
			recs[k].size = 8;
			recs[k].kind =
				(r >> 40) % 100 < 30 ? TRACE_WRITE : TRACE_READ;
		}
		if (trace_write(w, recs, k) < 0) {
			fprintf(stderr, "gentrace: %s\n",
				trace_writer_error(w));
			trace_writer_close(w, err, sizeof(err));
			return 1;
		}
	}
	if (trace_writer_close(w, err, sizeof(err)) < 0) {
		fprintf(stderr, "gentrace: %s\n", err);
		return 1;
	}
	return 0;
}
