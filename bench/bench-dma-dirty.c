// SPDX-License-Identifier: MIT
/*
 * bench-dma-dirty.c - how bench-dma's driver dirties a buffer when it is
 * built like driver code: this file is compiled with the instrumentation
 * flags (bench/local.mk), so each store below calls the store hook first
 * and goes through the cache model, as a dmaemu-cc-built driver's does.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>

#include "dmaemu/cpu.h"

void bench_dirty_instr(void *buf, size_t size, uint8_t v);
void bench_fill_instr(void *dst, const void *src, size_t size);

/* Every byte of @buf (8-byte aligned, @size a multiple of 8) becomes @v. */
void bench_dirty_instr(void *buf, size_t size, uint8_t v)
{
	uint64_t *p = buf, w = v * 0x0101010101010101ULL;
	size_t i;

	for (i = 0; i < size / 8; i++)
		p[i] = w;
}

/*
 * A driver's fill of a buffer it is about to map: a copy into it, routed
 * through the model as a dmaemu-cc-built driver's memcpy() is
 * (dmaemu_cpu_write() runs the same range accesses as the routed memcpy()
 * of memintrin.c: this program links the library statically, where --wrap
 * would route the library's own copies too).
 */
void bench_fill_instr(void *dst, const void *src, size_t size)
{
	dmaemu_cpu_write(dst, src, size);
}
