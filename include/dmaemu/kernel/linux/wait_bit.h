/* SPDX-License-Identifier: MIT */
/*
 * <linux/wait_bit.h> - wait queues: the API of the kernel's <linux/wait.h>.
 *
 * <linux/wait.h> includes this header, as do <linux/completion.h> and
 * <linux/interrupt.h>.
 *
 * A wait queue is a wake-up sequence number.  wait_event_timeout()
 * evaluates its condition with no lock of the library held (so the
 * condition may take the driver's own locks), and sleeps only while no
 * wake_up() came after the evaluation started: a driver that makes the
 * condition true and then calls wake_up() never loses the wake-up, as in
 * the kernel.  The condition is the driver's memory: read it with
 * READ_ONCE(), atomic_read() or under a lock, as in the kernel.
 * Nothing is interruptible here: the _interruptible variants behave as
 * the plain ones and never return -ERESTARTSYS.
 *
 * Waiting may sleep: from atomic context it is a sleep-in-atomic report.
 */
#ifndef DMAEMU_KERNEL_LINUX_WAIT_BIT_H
#define DMAEMU_KERNEL_LINUX_WAIT_BIT_H

#include <linux/jiffies.h>
#include <linux/preempt.h>

#include <dmaemu/sync.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * struct wait_queue_head - a wait queue.
 * @seq: wake-ups so far; the library reads and writes it under its lock.
 */
struct wait_queue_head {
	unsigned long seq;
};
typedef struct wait_queue_head wait_queue_head_t;

#define __WAIT_QUEUE_HEAD_INITIALIZER(name) \
	{                                   \
		0                           \
	}
#define DECLARE_WAIT_QUEUE_HEAD(name) \
	wait_queue_head_t name = __WAIT_QUEUE_HEAD_INITIALIZER(name)

/** init_waitqueue_head() - make @wq empty (before anyone uses it). */
void init_waitqueue_head(wait_queue_head_t *wq);

/** wake_up() - wake every thread waiting on @wq (any context). */
void wake_up(wait_queue_head_t *wq);
#define wake_up_all(wq) wake_up(wq)
#define wake_up_interruptible(wq) wake_up(wq)
#define wake_up_interruptible_all(wq) wake_up(wq)

/**
 * wait_event_timeout() - sleep until @condition is true or @timeout
 * jiffies pass.
 *
 * Return: 0 if @condition is false when the timeout elapsed, 1 if it is
 * true then, or the jiffies left (at least 1) if it became true before.
 */
#define wait_event_timeout(wq, condition, timeout)                       \
	__extension__({                                                  \
		long __ret = (long)(timeout);                            \
		unsigned long __seq;                                     \
		might_sleep();                                           \
		for (;;) {                                               \
			__seq = dmaemu_waitq_prepare(&(wq));             \
			if (condition) {                                 \
				if (!__ret)                              \
					__ret = 1;                       \
				break;                                   \
			}                                                \
			if (!__ret)                                      \
				break;                                   \
			__ret = dmaemu_waitq_sleep(&(wq), __seq, __ret); \
		}                                                        \
		__ret;                                                   \
	})

/** wait_event() - sleep until @condition is true. */
#define wait_event(wq, condition)                                              \
	do {                                                                   \
		(void)wait_event_timeout(wq, condition, MAX_SCHEDULE_TIMEOUT); \
	} while (0)

#define wait_event_interruptible(wq, condition) \
	__extension__({                         \
		wait_event(wq, condition);      \
		0;                              \
	})
#define wait_event_interruptible_timeout(wq, condition, timeout) \
	wait_event_timeout(wq, condition, timeout)

#ifdef __cplusplus
}
#endif

/* What Linux 4.14's include chain brings with this header (docs/kernel-headers.md). */
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/spinlock.h>

#endif
