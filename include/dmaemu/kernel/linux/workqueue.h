/* SPDX-License-Identifier: MIT */
/*
 * <linux/workqueue.h> - work items run later in process context.
 *
 * Every work item queued while a machine is current runs on that
 * machine's kernel worker thread, a real host thread in process context
 * (it may sleep), one item at a time in queueing order, whatever
 * workqueue it was queued on: system_wq and the others, and those of
 * alloc_workqueue(), are names for that one worker (as an ordered
 * workqueue would be).  Timers run on the same thread (<linux/timer.h>).
 * As in the kernel, a work item is pending from queue_work() until its
 * function starts, and queueing a pending item does nothing (false);
 * delayed work waits on a timer first.  flush_work() and
 * cancel_work_sync() wait for the function to return.  Waiting for a
 * work item or a timer from the worker thread itself (a work function
 * flushing another item) would never end with one worker: it is a
 * bad-argument report and returns without waiting.
 */
#ifndef DMAEMU_KERNEL_LINUX_WORKQUEUE_H
#define DMAEMU_KERNEL_LINUX_WORKQUEUE_H

#include <stdbool.h>

#include <linux/bitops.h>
#include <linux/list.h>
#include <linux/timer.h>
#include <linux/types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct work_struct;
typedef void (*work_func_t)(struct work_struct *work);

/* Bit 0 of work_struct.data: queued (or its delay timer armed). */
#define WORK_STRUCT_PENDING_BIT 0

/**
 * struct work_struct - a work item.
 * @data:  WORK_STRUCT_PENDING_BIT (atomic bit operations).
 * @entry: on the worker's queue; under the worker's lock.
 * @func:  what runs.
 * @dmaemu_worker: the machine's worker it was queued on.
 */
struct work_struct {
	unsigned long data;
	struct list_head entry;
	work_func_t func;
	void *dmaemu_worker;
};

struct workqueue_struct;

/**
 * struct delayed_work - a work item queued when its timer expires.
 * @work:  the work item.
 * @timer: the delay.
 * @wq:    the workqueue to queue it on.
 * @cpu:   kept, not used.
 */
struct delayed_work {
	struct work_struct work;
	struct timer_list timer;
	struct workqueue_struct *wq;
	int cpu;
};

/** delayed_work_timer_fn() - the delay timer's function: queue the work. */
void delayed_work_timer_fn(unsigned long data);

#define __WORK_INITIALIZER(n, f)                                           \
	{                                                                  \
		.data = 0, .entry = {&(n).entry, &(n).entry}, .func = (f), \
		.dmaemu_worker = NULL                                      \
	}
#define DECLARE_WORK(n, f) struct work_struct n = __WORK_INITIALIZER(n, f)
#define DECLARE_DELAYED_WORK(n, f)                                     \
	struct delayed_work n = {                                      \
		.work = __WORK_INITIALIZER((n).work, (f)),             \
		.timer = __TIMER_INITIALIZER(delayed_work_timer_fn, 0, \
					     (unsigned long)&(n), 0),  \
		.wq = NULL,                                            \
		.cpu = 0}

static inline void INIT_WORK(struct work_struct *work, work_func_t func)
{
	work->data = 0;
	INIT_LIST_HEAD(&work->entry);
	work->func = func;
	work->dmaemu_worker = NULL;
}

#define INIT_WORK_ONSTACK(work, func) INIT_WORK(work, func)
#define PREPARE_WORK(work, f) ((work)->func = (f))

static inline void INIT_DELAYED_WORK(struct delayed_work *dwork,
				     work_func_t func)
{
	INIT_WORK(&dwork->work, func);
	__setup_timer(&dwork->timer, delayed_work_timer_fn,
		      (unsigned long)dwork, TIMER_IRQSAFE);
	dwork->wq = NULL;
	dwork->cpu = 0;
}

#define INIT_DEFERRABLE_WORK(dwork, func) INIT_DELAYED_WORK(dwork, func)
#define INIT_DELAYED_WORK_ONSTACK(dwork, func) INIT_DELAYED_WORK(dwork, func)
#define destroy_work_on_stack(work) ((void)(work))
#define destroy_delayed_work_on_stack(work) ((void)(work))

static inline struct delayed_work *to_delayed_work(struct work_struct *work)
{
	return container_of(work, struct delayed_work, work);
}

#define work_pending(work) test_bit(WORK_STRUCT_PENDING_BIT, &(work)->data)
#define delayed_work_pending(w) work_pending(&(w)->work)

/* alloc_workqueue() flags: kept, not used (there is one worker). */
enum {
	WQ_UNBOUND = 1 << 1,
	WQ_FREEZABLE = 1 << 2,
	WQ_MEM_RECLAIM = 1 << 3,
	WQ_HIGHPRI = 1 << 4,
	WQ_CPU_INTENSIVE = 1 << 5,
	WQ_SYSFS = 1 << 6,
	WQ_POWER_EFFICIENT = 1 << 7,
	__WQ_ORDERED = 1 << 17,
	WQ_MAX_ACTIVE = 512,
	WQ_DFL_ACTIVE = WQ_MAX_ACTIVE / 2,
};

extern struct workqueue_struct *system_wq;
extern struct workqueue_struct *system_highpri_wq;
extern struct workqueue_struct *system_long_wq;
extern struct workqueue_struct *system_unbound_wq;
extern struct workqueue_struct *system_freezable_wq;
extern struct workqueue_struct *system_power_efficient_wq;
extern struct workqueue_struct *system_freezable_power_efficient_wq;

/**
 * alloc_workqueue() - a workqueue named by @fmt (printf).
 * Return: it, or NULL when out of host memory.
 */
struct workqueue_struct *alloc_workqueue(const char *fmt, unsigned int flags,
					 int max_active, ...)
	__attribute__((format(printf, 1, 4)));
#define alloc_ordered_workqueue(fmt, flags, ...)                     \
	alloc_workqueue(fmt, WQ_UNBOUND | __WQ_ORDERED | (flags), 1, \
			##__VA_ARGS__)
#define create_workqueue(name) alloc_workqueue("%s", WQ_MEM_RECLAIM, 1, (name))
#define create_freezable_workqueue(name) \
	alloc_workqueue("%s", WQ_FREEZABLE | WQ_UNBOUND, 1, (name))
#define create_singlethread_workqueue(name) \
	alloc_ordered_workqueue("%s", WQ_MEM_RECLAIM, name)
/** destroy_workqueue() - flush_workqueue(), then free @wq. */
void destroy_workqueue(struct workqueue_struct *wq);

/**
 * queue_work() - queue @work on @wq (on the current machine's worker).
 * Return: false if it was already pending (nothing done), else true.
 */
bool queue_work(struct workqueue_struct *wq, struct work_struct *work);
#define queue_work_on(cpu, wq, work) queue_work(wq, work)
/**
 * queue_delayed_work() - queue @dwork on @wq after @delay jiffies.
 * Return: false if it was already pending, else true.
 */
bool queue_delayed_work(struct workqueue_struct *wq, struct delayed_work *dwork,
			unsigned long delay);
#define queue_delayed_work_on(cpu, wq, dwork, delay) \
	queue_delayed_work(wq, dwork, delay)
/**
 * mod_delayed_work() - queue @dwork after @delay, or change the delay of
 * a pending one.  Return: true if it was pending.
 */
bool mod_delayed_work(struct workqueue_struct *wq, struct delayed_work *dwork,
		      unsigned long delay);
/**
 * flush_work() - wait until @work is neither pending nor running.
 * Return: true if it waited.
 */
bool flush_work(struct work_struct *work);
/** flush_delayed_work() - run a delayed item's delay out, then flush. */
bool flush_delayed_work(struct delayed_work *dwork);
/**
 * cancel_work_sync() - take @work off the queue and wait for a running
 * function to return.  Return: true if it was pending.
 */
bool cancel_work_sync(struct work_struct *work);
/** cancel_delayed_work() - disarm or dequeue @dwork.  Return: was pending. */
bool cancel_delayed_work(struct delayed_work *dwork);
/** cancel_delayed_work_sync() - cancel_delayed_work(), then wait. */
bool cancel_delayed_work_sync(struct delayed_work *dwork);
/** flush_workqueue() - wait until every item queued on the worker ran. */
void flush_workqueue(struct workqueue_struct *wq);
/** drain_workqueue() - flush_workqueue(). */
void drain_workqueue(struct workqueue_struct *wq);

static inline bool schedule_work(struct work_struct *work)
{
	return queue_work(system_wq, work);
}

static inline bool schedule_delayed_work(struct delayed_work *dwork,
					 unsigned long delay)
{
	return queue_delayed_work(system_wq, dwork, delay);
}

static inline void flush_scheduled_work(void)
{
	flush_workqueue(system_wq);
}

#define schedule_work_on(cpu, work) schedule_work(work)
#define schedule_delayed_work_on(cpu, dwork, delay) \
	schedule_delayed_work(dwork, delay)

#ifdef __cplusplus
}
#endif

#endif
