// SPDX-License-Identifier: MIT
/*
 * stride.c - oracle program: memset a 256 KiB buffer, read it with strides
 * of 64, 256 and 4096 bytes, increment every 16th int in place (Lackey's
 * "M"), and do 8-byte loads and stores that straddle two cache lines (at
 * 4 bytes before each 64-byte boundary), which is where Cachegrind's
 * "one access, one miss if either line misses" rule shows.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define SIZE (256 * 1024)

static unsigned char buf[SIZE] __attribute__((aligned(64)));

int main(void)
{
	static const unsigned int strides[] = {64, 256, 4096};
	uint64_t sum = 0, v;
	unsigned int s, i, off;
	int32_t *words = (int32_t *)buf;

	memset(buf, 1, sizeof(buf));

	for (s = 0; s < sizeof(strides) / sizeof(strides[0]); s++)
		for (off = 0; off < strides[s]; off += 64 * 9)
			for (i = off; i < SIZE; i += strides[s])
				sum += buf[i];

	for (i = 0; i < SIZE / 4; i += 16)
		words[i] += 3;

	for (i = 64; i < SIZE; i += 64) {
		memcpy(&v, buf + i - 4, sizeof(v));
		sum += v;
	}
	for (i = 128; i < SIZE; i += 128) {
		v = i;
		memcpy(buf + i - 4, &v, sizeof(v));
	}
	for (i = 0; i < SIZE; i += 4096)
		sum += buf[i + 60];

	printf("stride: %llu\n", (unsigned long long)sum);
	return 0;
}
