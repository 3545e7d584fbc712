/* SPDX-License-Identifier: MIT */
/*
 * <linux/circ_buf.h> - indexes of a ring whose size is a power of two
 * (Linux 4.14, include/linux/circ_buf.h): CIRC_CNT() (entries between
 * tail and head), CIRC_SPACE() (free entries, one kept empty),
 * CIRC_CNT_TO_END(), CIRC_SPACE_TO_END() (the same, up to the end of the
 * array), and struct circ_buf.
 */
#ifndef DMAEMU_KERNEL_LINUX_CIRC_BUF_H
#define DMAEMU_KERNEL_LINUX_CIRC_BUF_H

struct circ_buf {
	char *buf;
	int head;
	int tail;
};

/* Entries from tail up to head. */
#define CIRC_CNT(head, tail, size) (((head) - (tail)) & ((size)-1))

/* Free entries, 0..size-1: one entry stays free so that a full ring
 * and an empty one differ. */
#define CIRC_SPACE(head, tail, size) CIRC_CNT((tail), ((head) + 1), (size))

/* The entries from tail that lie before the end of the array. */
#define CIRC_CNT_TO_END(head, tail, size)            \
	({                                           \
		int end = (size) - (tail);           \
		int n = ((head) + end) & ((size)-1); \
		n < end ? n : end;                   \
	})

/* The free entries from head that lie before the end of the array. */
#define CIRC_SPACE_TO_END(head, tail, size)          \
	({                                           \
		int end = (size)-1 - (head);         \
		int n = (end + (tail)) & ((size)-1); \
		n <= end ? n : end + 1;              \
	})

#endif
