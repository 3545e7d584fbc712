// SPDX-License-Identifier: MIT
/*
 * bench-checks-read.c - how bench-checks' driver reads a received packet
 * when it is built like driver code: this file is compiled with the
 * instrumentation flags (bench/local.mk), so each load below calls the
 * load hook first and goes through the cache model and, unless the
 * machine's coherence checks are off, the ownership check.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>

uint64_t bench_checks_read(const void *buf, size_t size);

/* The sum of the 8-byte words of @buf (8-byte aligned, @size a multiple
 * of 8): every byte is loaded once. */
uint64_t bench_checks_read(const void *buf, size_t size)
{
	const uint64_t *p = buf;
	uint64_t sum = 0;
	size_t i;

	for (i = 0; i < size / 8; i++)
		sum += p[i];
	return sum;
}
