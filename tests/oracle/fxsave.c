// SPDX-License-Identifier: MIT
/*
 * fxsave.c - oracle program for Cachegrind's one size rule: accesses made
 * by Valgrind "dirty helpers" (here FXSAVE, which stores the FPU state)
 * are shortened to 16 bytes by Cachegrind, while Lackey reports their full
 * size.  The program saves the FPU state into 64 areas of 512 bytes, four
 * times, then reads one byte of every line of the areas: with the full
 * size the later reads of an area's second and third lines hit, with the
 * shortened one they miss, so a wrong rule changes the counts.  Other
 * architectures do plain 16-byte stores instead.
 */
#include <stdio.h>
#include <string.h>

#define AREAS 64
#define AREA 512

static unsigned char area[AREAS][AREA] __attribute__((aligned(64)));

static void save(unsigned char *p)
{
#if defined(__x86_64__) || defined(__i386__)
	__asm__ volatile("fxsave %0" : "=m"(*(unsigned char(*)[AREA])p));
#else
	memset(p, 0x5a, 16);
#endif
}

int main(void)
{
	unsigned int r, i, j;
	long sum = 0;

	for (r = 0; r < 4; r++)
		for (i = 0; i < AREAS; i++)
			save(area[i]);
	for (i = 0; i < AREAS; i++)
		for (j = 0; j < AREA; j += 64)
			sum += area[i][j];
	printf("fxsave: %ld\n", sum);
	return 0;
}
