/* SPDX-License-Identifier: MIT */
/*
 * <linux/time.h> - time units and the C library's time types (struct
 * timespec, struct timeval), with the kernel's struct timespec64.
 */
#ifndef DMAEMU_KERNEL_LINUX_TIME_H
#define DMAEMU_KERNEL_LINUX_TIME_H

#include <sys/time.h>
#include <time.h>

#include <linux/time64.h>

/* What Linux 4.14's include chain brings with this header (docs/kernel-headers.md). */
#include <linux/cache.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/spinlock.h>

#endif
