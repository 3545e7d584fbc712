// SPDX-License-Identifier: MIT
/*
 * fuzz-options.c - option strings through dmaemu_machine_create().
 *
 * The input is the option string (cut at its first NUL).  A bad string
 * must give NULL with errno set, never a crash or a leak (ASan's leak
 * checker runs at the end of every fuzzing session).  A good one must
 * print back (dmaemu_machine_option()) as a string that builds the same
 * machine again: the same value for every key.
 *
 * Inputs naming log_path are skipped: the fuzzer would create files
 * wherever the string says.  DMAEMU_OPTIONS is cleared once, so the
 * environment cannot change what an input does.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dmaemu/machine.h>

#define MAX_INPUT 512

/* Every key of docs/options.md but log_path. */
static const char *const keys[] = {
	"profile",	"mem",		 "mem_base",	 "highmem",
	"highmem_base", "cache_size",	 "cache_ways",	 "cache_line",
	"cache_policy", "dma_minalign",	 "wc_buffers",	 "wc_size",
	"prefetch",	"prefetch_rate", "seed",	 "halt_on_error",
	"exitcode",	"iommu",	 "swiotlb",	 "swiotlb_size",
	"dma_offset",	"map_policy",	 "iommu_strict",
};
#define NKEYS (sizeof(keys) / sizeof(keys[0]))

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	unsetenv("DMAEMU_OPTIONS");
	return 0;
}

/* The value of every key of @m, in *@vals, and as one option string. */
static void print_back(struct dmaemu_machine *m, char vals[][64], char *s,
		       size_t len)
{
	size_t i, o = 0;
	int n;

	for (i = 0; i < NKEYS; i++) {
		if (dmaemu_machine_option(m, keys[i], vals[i], 64) != 0)
			abort(); /* a documented key the machine does not know */
		n = snprintf(s + o, len - o, "%s%s=%s", i ? ":" : "", keys[i],
			     vals[i]);
		if (n < 0 || (size_t)n >= len - o)
			abort();
		o += (size_t)n;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char a[NKEYS][64], b[NKEYS][64];
	char opts[MAX_INPUT + 1], again[NKEYS * 80];
	struct dmaemu_machine *m, *m2;
	size_t i;

	if (size > MAX_INPUT)
		return -1; /* not added to the corpus */
	memcpy(opts, data, size);
	opts[size] = '\0';
	if (strstr(opts, "log_path"))
		return -1;

	errno = 0;
	m = dmaemu_machine_create(opts);
	if (!m) {
		if (errno == 0)
			abort(); /* NULL without a reason */
		return 0;
	}
	print_back(m, a, again, sizeof(again));
	dmaemu_machine_destroy(m);

	/* What it prints must build the same machine. */
	m2 = dmaemu_machine_create(again);
	if (!m2) {
		fprintf(stderr,
			"'%s' built a machine that prints as '%s', "
			"which is refused\n",
			opts, again);
		abort();
	}
	print_back(m2, b, again, sizeof(again));
	dmaemu_machine_destroy(m2);
	for (i = 0; i < NKEYS; i++) {
		if (strcmp(a[i], b[i]) != 0) {
			fprintf(stderr, "%s: '%s' then '%s'\n", keys[i], a[i],
				b[i]);
			abort();
		}
	}
	return 0;
}
