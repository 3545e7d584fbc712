/* SPDX-License-Identifier: MIT */
/*
 * fuzz-input.h - how the fuzz targets read their input: bytes taken in
 * order, little-endian, zeros once the input is used up (so any input is a
 * complete program), and a trace of the steps when the target's
 * environment variable asks for one (to replay a finding by hand).
 */
#ifndef DMAEMU_FUZZ_INPUT_H
#define DMAEMU_FUZZ_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct fuzz_input {
	const uint8_t *p;
	size_t n; /* bytes left */
};

static inline uint8_t fuzz_get8(struct fuzz_input *in)
{
	if (!in->n)
		return 0;
	in->n--;
	return *in->p++;
}

static inline uint16_t fuzz_get16(struct fuzz_input *in)
{
	uint16_t v = fuzz_get8(in);

	return (uint16_t)(v | fuzz_get8(in) << 8);
}

static inline uint32_t fuzz_get32(struct fuzz_input *in)
{
	uint32_t v = fuzz_get16(in);

	return v | (uint32_t)fuzz_get16(in) << 16;
}

/* Copy up to @len bytes of the input to @dst; returns how many. */
static inline size_t fuzz_take(struct fuzz_input *in, void *dst, size_t len)
{
	if (len > in->n)
		len = in->n;
	memcpy(dst, in->p, len);
	in->p += len;
	in->n -= len;
	return len;
}

/* Set from the target's environment variable at initialisation. */
static bool fuzz_tracing;
#define TRACE(...)                                    \
	do {                                          \
		if (fuzz_tracing)                     \
			fprintf(stderr, __VA_ARGS__); \
	} while (0)

#endif
