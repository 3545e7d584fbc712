/* SPDX-License-Identifier: MIT */
/*
 * <linux/timer.h> - kernel timers (struct timer_list).
 *
 * A timer armed with mod_timer() or add_timer() runs its function once,
 * on the current machine's kernel worker thread (one per machine, started
 * by the first timer or work item; see <linux/workqueue.h>), in softirq
 * context, when jiffies reach its expiry: sleeping there is a
 * sleep-in-atomic report, as in the kernel.  Timers of one machine run
 * one at a time, in expiry order.  del_timer_sync() also waits for a
 * running function to return (unless it is called from that function).
 * Both callback styles work: setup_timer() (4.14: fn(unsigned long data))
 * and timer_setup() (fn(struct timer_list *), with from_timer()).
 *
 * A timer still armed when its machine is destroyed is dropped.
 */
#ifndef DMAEMU_KERNEL_LINUX_TIMER_H
#define DMAEMU_KERNEL_LINUX_TIMER_H

#include <stdbool.h>

#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * struct timer_list - a kernel timer.
 * @entry:    on the machine's list of armed timers (@entry.pprev non-NULL
 *            while armed); under the machine's worker lock.
 * @expires:  the jiffies at which it runs.
 * @function: the 4.14 callback, called with @data.
 * @data:     its argument.
 * @flags:    TIMER_* flags (kept, not used).
 * @dmaemu_callback: the timer_setup() callback, called with the timer
 *            (it wins over @function when set).
 * @dmaemu_worker: the machine's worker it was armed on.
 */
struct timer_list {
	struct hlist_node entry;
	unsigned long expires;
	void (*function)(unsigned long data);
	unsigned long data;
	u32 flags;
	void (*dmaemu_callback)(struct timer_list *timer);
	void *dmaemu_worker;
};

#define TIMER_DEFERRABLE 0x00080000
#define TIMER_PINNED 0x00100000
#define TIMER_IRQSAFE 0x00200000

#define __TIMER_INITIALIZER(_function, _expires, _data, _flags)                \
	{                                                                      \
		.entry = {.next = NULL, .pprev = NULL}, .expires = (_expires), \
		.function = (_function), .data = (_data), .flags = (_flags),   \
		.dmaemu_callback = NULL, .dmaemu_worker = NULL                 \
	}
/* The 4.14 form: DEFINE_TIMER(name, function, expires, data). */
#define DEFINE_TIMER(_name, _function, _expires, _data) \
	struct timer_list _name =                       \
		__TIMER_INITIALIZER(_function, _expires, _data, 0)

static inline void __init_timer(struct timer_list *timer, unsigned int flags)
{
	timer->entry.next = NULL;
	timer->entry.pprev = NULL;
	timer->expires = 0;
	timer->function = NULL;
	timer->data = 0;
	timer->flags = flags;
	timer->dmaemu_callback = NULL;
	timer->dmaemu_worker = NULL;
}

#define init_timer(timer) __init_timer((timer), 0)
#define init_timer_pinned(timer) __init_timer((timer), TIMER_PINNED)
#define init_timer_deferrable(timer) __init_timer((timer), TIMER_DEFERRABLE)
#define init_timer_on_stack(timer) __init_timer((timer), 0)

static inline void __setup_timer(struct timer_list *timer,
				 void (*function)(unsigned long),
				 unsigned long data, unsigned int flags)
{
	__init_timer(timer, flags);
	timer->function = function;
	timer->data = data;
}

#define setup_timer(timer, fn, data) __setup_timer((timer), (fn), (data), 0)
#define setup_timer_on_stack(timer, fn, data) \
	__setup_timer((timer), (fn), (data), 0)
#define setup_deferrable_timer(timer, fn, data) \
	__setup_timer((timer), (fn), (data), TIMER_DEFERRABLE)

static inline void timer_setup(struct timer_list *timer,
			       void (*callback)(struct timer_list *),
			       unsigned int flags)
{
	__init_timer(timer, flags);
	timer->dmaemu_callback = callback;
}

#define timer_setup_on_stack(timer, callback, flags) \
	timer_setup(timer, callback, flags)
#define from_timer(var, callback_timer, timer_fieldname) \
	container_of(callback_timer, __typeof__(*var), timer_fieldname)

static inline void destroy_timer_on_stack(struct timer_list *timer)
{
	(void)timer;
}

/** timer_pending() - is @timer armed (not yet run nor deleted)? */
static inline int timer_pending(const struct timer_list *timer)
{
	return __atomic_load_n(&timer->entry.pprev, __ATOMIC_ACQUIRE) != NULL;
}

/**
 * mod_timer() - arm @timer (again) for @expires jiffies, on the current
 * machine.
 * Return: 1 if it was armed before, else 0.  Without a current machine:
 * 0 and nothing is armed.
 */
int mod_timer(struct timer_list *timer, unsigned long expires);
/** mod_timer_pending() - mod_timer() only if @timer is armed. */
int mod_timer_pending(struct timer_list *timer, unsigned long expires);
/** add_timer() - arm @timer for its @expires (it must not be armed). */
void add_timer(struct timer_list *timer);
/**
 * del_timer() - disarm @timer; a function already running goes on.
 * Return: 1 if it was armed, else 0.
 */
int del_timer(struct timer_list *timer);
/**
 * del_timer_sync() - disarm @timer and wait until its function is not
 * running (called from the function itself, it does not wait).
 * Return: 1 if it was armed, else 0.
 */
int del_timer_sync(struct timer_list *timer);
/** try_to_del_timer_sync() - del_timer() unless the function runs: -1. */
int try_to_del_timer_sync(struct timer_list *timer);

#define del_singleshot_timer_sync(t) del_timer_sync(t)

static inline unsigned long round_jiffies(unsigned long j)
{
	return j;
}

static inline unsigned long round_jiffies_relative(unsigned long j)
{
	return j;
}

#define round_jiffies_up(j) round_jiffies(j)
#define round_jiffies_up_relative(j) round_jiffies_relative(j)

#ifdef __cplusplus
}
#endif

#endif
