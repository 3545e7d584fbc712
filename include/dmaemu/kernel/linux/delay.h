/* SPDX-License-Identifier: MIT */
/*
 * <linux/delay.h> - waiting for a while.
 *
 * udelay(), ndelay() and mdelay() busy-wait on the emulated clock (host
 * monotonic time) and are allowed in atomic context.  msleep(),
 * msleep_interruptible(), ssleep() and usleep_range() sleep the calling
 * thread and may sleep: in atomic context (a handler, a spinlock held,
 * interrupts off) they are a sleep-in-atomic report, then sleep anyway.
 */
#ifndef DMAEMU_KERNEL_LINUX_DELAY_H
#define DMAEMU_KERNEL_LINUX_DELAY_H

#ifdef __cplusplus
extern "C" {
#endif

/** msleep() - sleep at least @msecs milliseconds (may sleep). */
void msleep(unsigned int msecs);
/** msleep_interruptible() - msleep(); nothing interrupts it: returns 0. */
unsigned long msleep_interruptible(unsigned int msecs);
/** usleep_range() - sleep between @min and @max microseconds (may sleep). */
void usleep_range(unsigned long min, unsigned long max);
/** ndelay() - busy-wait @nsecs nanoseconds (atomic context is fine). */
void ndelay(unsigned long nsecs);
/** udelay() - busy-wait @usecs microseconds (atomic context is fine). */
void udelay(unsigned long usecs);
/** mdelay() - busy-wait @msecs milliseconds (atomic context is fine). */
void mdelay(unsigned long msecs);

static inline void ssleep(unsigned int seconds)
{
	msleep(seconds * 1000);
}

#ifdef __cplusplus
}
#endif

/* What Linux 4.14's include chain brings with this header (docs/kernel-headers.md). */
#include <linux/kernel.h>

#endif
