// SPDX-License-Identifier: MIT
/*
 * listwalk.c - oracle program: link 8192 nodes of a static pool (448 KiB)
 * in a shuffled order, then walk the list four times, incrementing each
 * node's counter (a read-modify-write: Lackey's "M").  A pointer chase
 * touches a new line at almost every step.  The shuffle uses a fixed LCG,
 * so every run touches the same addresses.
 */
#include <stdio.h>

#define NODES 8192
#define WALKS 4

struct node {
	struct node *next;
	long count;
	long pad[5]; /* 56 bytes: nodes do not line up with cache lines */
};

static struct node pool[NODES];
static unsigned int order[NODES];

static unsigned int lcg(unsigned int *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 8;
}

int main(void)
{
	unsigned int i, j, t, seed = 42;
	struct node *n;
	long total = 0;
	int w;

	for (i = 0; i < NODES; i++)
		order[i] = i;
	for (i = NODES - 1; i > 0; i--) {
		j = lcg(&seed) % (i + 1);
		t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	for (i = 0; i + 1 < NODES; i++)
		pool[order[i]].next = &pool[order[i + 1]];
	pool[order[NODES - 1]].next = NULL;

	for (w = 0; w < WALKS; w++)
		for (n = &pool[order[0]]; n; n = n->next)
			n->count += w + 1;

	for (i = 0; i < NODES; i += 97)
		total += pool[i].count;
	printf("listwalk: %ld\n", total);
	return 0;
}
