/* SPDX-License-Identifier: MIT */
/*
 * <dmaemu/sync.h> - time, and the helpers behind the kernel's sleeping
 * primitives.
 *
 * Time.  Emulated time is the host's CLOCK_MONOTONIC, unscaled, counted
 * from the first time the process asks for it: a device timer armed for
 * 1 ms fires after 1 ms of host time, and jiffies advance HZ (1000) times
 * a second, starting 5 minutes before wrapping, as the kernel's do, so a
 * driver that compares jiffies without time_after() is caught early.
 * With sched=lockstep the threads of the machine see its virtual clock
 * instead, which jumps to the next deadline when every thread waits
 * (docs/scheduling.md); code that only uses these calls does not notice.
 *
 * Sleeping.  Wait queues, completions, spinlock_t and struct mutex keep no
 * host object inside them: each waits on one of a fixed set of hashed
 * host mutex/condition-variable pairs (the kernel's bit-waitqueue idea),
 * so they need no destroy, can live in any memory (kmalloc()ed, static,
 * on the stack) and Memcheck, Helgrind, DRD and TSan see ordinary pthread
 * synchronisation.  The two calls below are what wait_event_timeout()
 * expands to; drivers use the kernel names of <linux/wait_bit.h>.
 */
#ifndef DMAEMU_SYNC_H
#define DMAEMU_SYNC_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct wait_queue_head;

/** dmaemu_time_ns() - emulated time: host monotonic ns since the epoch. */
uint64_t dmaemu_time_ns(void);

/** dmaemu_jiffies() - the value of jiffies now (HZ per second). */
unsigned long dmaemu_jiffies(void);

/**
 * dmaemu_waitq_prepare() - start one check of a wait_event() condition.
 * @wq: the wait queue.
 *
 * Return: the queue's wake-up sequence number, to pass to
 * dmaemu_waitq_sleep() if the condition turns out false.
 */
unsigned long dmaemu_waitq_prepare(struct wait_queue_head *wq);

/**
 * dmaemu_waitq_sleep() - sleep until @wq is woken after @seq was read, or
 * @timeout jiffies pass.
 * @wq:      the wait queue.
 * @seq:     what dmaemu_waitq_prepare() returned.
 * @timeout: jiffies; MAX_SCHEDULE_TIMEOUT (LONG_MAX) for no limit.
 *
 * A wake_up() between dmaemu_waitq_prepare() and this call is not lost:
 * the sequence number has moved and the call returns at once.
 *
 * Return: the jiffies left of @timeout (0 when it ran out).
 */
long dmaemu_waitq_sleep(struct wait_queue_head *wq, unsigned long seq,
			long timeout);

#ifdef __cplusplus
}
#endif

#endif
