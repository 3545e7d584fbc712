// SPDX-License-Identifier: MIT
/*
 * fuzz-trace.c - cachesim's trace readers (din, bin, lackey).
 *
 * The first byte chooses the format the reader is asked for (auto, din,
 * bin, lackey); the rest is the trace, read from a memfd through its
 * /proc/self/fd path as the command reads a file.  Every record returned
 * must be valid (size >= 1, no wrap-around, a known kind), an error must
 * come with a message, and what was read must survive a round trip: the
 * records written as din and as bin read back identical.
 */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "trace.h"

#define MAX_RECS 4096 /* records kept for the round trip */

static int in_fd = -1, out_fd = -1;
static char in_path[64], out_path[64];
static struct trace_record recs[MAX_RECS], back[MAX_RECS];

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	in_fd = memfd_create("fuzz-trace-in", 0);
	out_fd = memfd_create("fuzz-trace-out", 0);
	if (in_fd < 0 || out_fd < 0)
		abort();
	snprintf(in_path, sizeof(in_path), "/proc/self/fd/%d", in_fd);
	snprintf(out_path, sizeof(out_path), "/proc/self/fd/%d", out_fd);
	return 0;
}

static void check_record(const struct trace_record *r)
{
	if (r->size == 0 || r->kind >= TRACE_NKINDS ||
	    r->addr + (r->size - 1) < r->addr)
		abort();
}

/* Read every record of @path; returns how many were kept in @out. */
static size_t read_all(const char *path, enum trace_format f,
		       struct trace_record *out, bool *failed)
{
	struct trace_record buf[64];
	struct trace_reader *r;
	char err[256] = "";
	size_t kept = 0;
	ssize_t n, i;

	*failed = false;
	r = trace_open(path, f, err, sizeof(err));
	if (!r) {
		if (!err[0])
			abort(); /* a failure without a reason */
		*failed = true;
		return 0;
	}
	if (trace_reader_format(r) == TRACE_AUTO)
		abort();
	while ((n = trace_read(r, buf, 64)) > 0) {
		if (n > 64)
			abort();
		for (i = 0; i < n; i++) {
			check_record(&buf[i]);
			if (kept < MAX_RECS)
				out[kept++] = buf[i];
		}
	}
	if (n < 0) {
		if (!trace_error(r)[0])
			abort();
		*failed = true;
	}
	trace_close(r);
	return kept;
}

static bool same(const struct trace_record *a, const struct trace_record *b,
		 size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (a[i].addr != b[i].addr || a[i].size != b[i].size ||
		    a[i].kind != b[i].kind)
			return false;
	return true;
}

/* Write @n records as @f and read them back: they must be the same. */
static void round_trip(enum trace_format f, size_t n)
{
	struct trace_writer *w;
	char err[256];
	size_t got;
	bool failed;

	if (ftruncate(out_fd, 0) < 0)
		abort();
	w = trace_writer_open(out_path, f, err, sizeof(err));
	if (!w || trace_write(w, recs, n) < 0 ||
	    trace_writer_close(w, err, sizeof(err)) < 0)
		abort();
	got = read_all(out_path, f, back, &failed);
	if (failed || got != n || !same(recs, back, n)) {
		fprintf(stderr, "%s round trip: %zu records, %zu back%s\n",
			trace_format_name(f), n, got,
			failed ? " (failed)" : "");
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum trace_format formats[] = {TRACE_AUTO, TRACE_DIN,
						    TRACE_BIN, TRACE_LACKEY};
	enum trace_format f;
	size_t n;
	bool failed;

	if (size < 1)
		return 0;
	f = formats[data[0] & 3];
	if (ftruncate(in_fd, 0) < 0 ||
	    pwrite(in_fd, data + 1, size - 1, 0) != (ssize_t)(size - 1))
		abort();
	n = read_all(in_path, f, recs, &failed);
	if (n) {
		round_trip(TRACE_DIN, n);
		round_trip(TRACE_BIN, n);
	}
	return 0;
}
