// SPDX-License-Identifier: MIT
/*
 * fuzz-size.c - cachesim_parse_size(), the size parser of the cachesim
 * command line ("32k", "0x8000", "1m").
 *
 * The input is the string (cut at its first NUL).  A size it accepts must
 * print back, in decimal and with the largest suffix that divides it, as
 * strings that parse to the same value; one it refuses must leave the
 * output alone.
 */
#include "config.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cachesim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void parses_to(const char *s, uint64_t want)
{
	uint64_t v = 0;

	if (cachesim_parse_size(s, &v) != 0 || v != want) {
		fprintf(stderr, "'%s' does not parse back to %" PRIu64 "\n", s,
			want);
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char suffix[] = "kmgt";
	char s[64], back[64];
	uint64_t v = 0x5a5a5a5a5a5a5a5aULL, scaled;
	int i;

	if (size >= sizeof(s))
		return -1;
	memcpy(s, data, size);
	s[size] = '\0';
	if (cachesim_parse_size(s, &v) != 0) {
		if (v != 0x5a5a5a5a5a5a5a5aULL)
			abort(); /* refused, yet the output was written */
		return 0;
	}
	snprintf(back, sizeof(back), "%" PRIu64, v);
	parses_to(back, v);
	scaled = v;
	for (i = 0; i < 4 && scaled && scaled % 1024 == 0; i++)
		scaled /= 1024;
	if (i) {
		snprintf(back, sizeof(back), "%" PRIu64 "%c", scaled,
			 suffix[i - 1]);
		parses_to(back, v);
	}
	return 0;
}
