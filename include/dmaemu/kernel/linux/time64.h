/* SPDX-License-Identifier: MIT */
/* <linux/time64.h> - time units and struct timespec64. */
#ifndef DMAEMU_KERNEL_LINUX_TIME64_H
#define DMAEMU_KERNEL_LINUX_TIME64_H

#include <linux/types.h>

#define MSEC_PER_SEC 1000L
#define USEC_PER_MSEC 1000L
#define NSEC_PER_USEC 1000L
#define NSEC_PER_MSEC 1000000L
#define USEC_PER_SEC 1000000L
#define NSEC_PER_SEC 1000000000L
#define FSEC_PER_SEC 1000000000000000LL

typedef s64 time64_t;

struct timespec64 {
	time64_t tv_sec;
	long tv_nsec;
};

/* What Linux 4.14's include chain brings with this header (docs/kernel-headers.md). */
#include <linux/math64.h>

#endif
