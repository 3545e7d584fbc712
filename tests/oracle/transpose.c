// SPDX-License-Identifier: MIT
/*
 * transpose.c - oracle program: transpose a 128x128 matrix of doubles
 * twice, first naively (the writes stride by a whole row, 1 KiB, so they
 * thrash the sets they fall in) and then in 8x8 blocks (each line is used
 * whole before it leaves).  Prints a checksum so nothing is optimised away.
 */
#include <stdio.h>

#define N 128
#define B 8

static double a[N][N], b[N][N], c[N][N];

int main(void)
{
	double sum = 0;
	int i, j, ib, jb;

	for (i = 0; i < N; i++)
		for (j = 0; j < N; j++)
			a[i][j] = i * N + j;

	for (i = 0; i < N; i++)
		for (j = 0; j < N; j++)
			b[j][i] = a[i][j];

	for (ib = 0; ib < N; ib += B)
		for (jb = 0; jb < N; jb += B)
			for (i = ib; i < ib + B; i++)
				for (j = jb; j < jb + B; j++)
					c[j][i] = b[i][j];

	for (i = 0; i < N; i++)
		sum += c[i][(i * 7) % N] + a[(i * 7) % N][i];
	printf("transpose: %.1f\n", sum);
	return 0;
}
