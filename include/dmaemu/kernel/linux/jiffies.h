/* SPDX-License-Identifier: MIT */
/*
 * <linux/jiffies.h> - the tick counter.
 *
 * HZ is 1000: one jiffy is one millisecond of emulated time, which is the
 * host's monotonic clock (see <dmaemu/sync.h>).  jiffies is read with
 * dmaemu_jiffies(); like the kernel's it starts 5 minutes before it wraps,
 * so compare it with time_after() and friends only.
 */
#ifndef DMAEMU_KERNEL_LINUX_JIFFIES_H
#define DMAEMU_KERNEL_LINUX_JIFFIES_H

#include <limits.h>

#include <dmaemu/sync.h>

#define HZ 1000
#define MAX_JIFFY_OFFSET ((LONG_MAX >> 1) - 1)
#ifndef MAX_SCHEDULE_TIMEOUT
#define MAX_SCHEDULE_TIMEOUT LONG_MAX
#endif

/* An rvalue: jiffies cannot be assigned, only read. */
#define jiffies (dmaemu_jiffies())

#define time_after(a, b) ((long)((b) - (a)) < 0)
#define time_before(a, b) time_after(b, a)
#define time_after_eq(a, b) ((long)((a) - (b)) >= 0)
#define time_before_eq(a, b) time_after_eq(b, a)
#define time_is_before_jiffies(a) time_after(jiffies, a)
#define time_is_after_jiffies(a) time_before(jiffies, a)

static inline unsigned int jiffies_to_msecs(const unsigned long j)
{
	return (unsigned int)(j * (1000 / HZ));
}

static inline unsigned int jiffies_to_usecs(const unsigned long j)
{
	return (unsigned int)(j * (1000000 / HZ));
}

/* Rounded up, as the kernel's: a timeout never expires early. */
static inline unsigned long msecs_to_jiffies(const unsigned int m)
{
	return ((unsigned long)m * HZ + 999) / 1000;
}

static inline unsigned long usecs_to_jiffies(const unsigned int u)
{
	return ((unsigned long)u * HZ + 999999) / 1000000;
}

static inline unsigned long nsecs_to_jiffies(unsigned long long n)
{
	return (unsigned long)((n + 999999ULL) / 1000000ULL);
}

static inline unsigned long long jiffies_to_nsecs(const unsigned long j)
{
	return (unsigned long long)j * 1000000ULL;
}

#define jiffies_64 ((unsigned long long)jiffies)
#define get_jiffies_64() ((unsigned long long)jiffies)

/* What Linux 4.14's include chain brings with this header (docs/kernel-headers.md). */
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/time64.h>
#include <linux/types.h>

#endif
