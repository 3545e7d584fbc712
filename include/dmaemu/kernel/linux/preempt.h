/* SPDX-License-Identifier: MIT */
/*
 * <linux/preempt.h> - the preempt count and the context tests.
 *
 * Each host thread has its own count (see <dmaemu/context.h>): the machine's
 * interrupt thread is in hardirq context while it runs a handler; every
 * other thread starts in process context.
 */
#ifndef DMAEMU_KERNEL_LINUX_PREEMPT_H
#define DMAEMU_KERNEL_LINUX_PREEMPT_H

#include <dmaemu/context.h>

#define PREEMPT_OFFSET DMAEMU_PREEMPT_OFFSET
#define SOFTIRQ_OFFSET DMAEMU_SOFTIRQ_OFFSET
#define HARDIRQ_OFFSET DMAEMU_HARDIRQ_OFFSET
#define PREEMPT_MASK DMAEMU_PREEMPT_MASK
#define SOFTIRQ_MASK DMAEMU_SOFTIRQ_MASK
#define HARDIRQ_MASK DMAEMU_HARDIRQ_MASK

#define preempt_count() dmaemu_preempt_count()
#define hardirq_count() (preempt_count() & HARDIRQ_MASK)
#define softirq_count() (preempt_count() & SOFTIRQ_MASK)
#define irq_count() (preempt_count() & (HARDIRQ_MASK | SOFTIRQ_MASK))

#define in_irq() (hardirq_count() != 0)
#define in_softirq() (softirq_count() != 0)
#define in_interrupt() (irq_count() != 0)
#define in_task() (!in_interrupt())
/* Any preempt count at all means the thread may not sleep. */
#define in_atomic() (preempt_count() != 0)

#define preempt_disable() dmaemu_preempt_disable()
#define preempt_enable() ((void)dmaemu_preempt_enable())
#define preempt_enable_no_resched() preempt_enable()

/*
 * might_sleep() lives in <linux/kernel.h> in the kernel; that name is the
 * system's, so it is here.
 */
#define might_sleep() ((void)dmaemu_might_sleep(__func__))

/* What Linux 4.14's include chain brings with this header (docs/kernel-headers.md). */
#include <linux/list.h>
#include <linux/types.h>

#endif
