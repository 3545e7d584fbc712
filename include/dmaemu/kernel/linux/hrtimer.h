/* SPDX-License-Identifier: MIT */
/*
 * <linux/hrtimer.h> - high-resolution timers (Linux 4.14,
 * include/linux/hrtimer.h and kernel/time/hrtimer.c), as 4.14 runs them
 * without high-resolution mode (CONFIG_HIGH_RES_TIMERS off, or a clock
 * event device that cannot do one-shot): expiries are looked at on each
 * tick, so hrtimer_resolution is the tick (TICK_NSEC, 1 ms at HZ 1000)
 * and a timer runs at the first tick at or after its expiry, its function
 * in hardirq context (4.14's hrtimer_run_queues() from the tick's
 * interrupt).
 *
 * Each hrtimer rides on a struct timer_list of the machine's kernel
 * worker (<linux/timer.h>): the worker's tick runs the function inside an
 * interrupt context of its own (in_irq() is true: a sleep there is a
 * sleep-in-atomic report).  The function's HRTIMER_RESTART re-arms the
 * timer at its expiry as the function left it (hrtimer_forward_now() moves
 * it past now by whole intervals and returns how many).  Times are the
 * machine's emulated clock (ktime_get()); every clock id is that clock.
 * hrtimer_cancel() waits for a running function, as 4.14's does.
 */
#ifndef DMAEMU_KERNEL_LINUX_HRTIMER_H
#define DMAEMU_KERNEL_LINUX_HRTIMER_H

#include <time.h> /* clockid_t, CLOCK_MONOTONIC */

#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/timer.h>
#include <linux/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The resolution: the tick (no high-resolution mode). */
#define hrtimer_resolution ((unsigned int)(NSEC_PER_SEC / HZ))

enum hrtimer_mode {
	HRTIMER_MODE_ABS = 0x0,	   /* the time is absolute */
	HRTIMER_MODE_REL = 0x1,	   /* the time is relative to now */
	HRTIMER_MODE_PINNED = 0x2, /* on this CPU (kept; one worker) */
	HRTIMER_MODE_ABS_PINNED = 0x2,
	HRTIMER_MODE_REL_PINNED = 0x3,
};

enum hrtimer_restart {
	HRTIMER_NORESTART, /* the timer is done */
	HRTIMER_RESTART,   /* run it again at its (forwarded) expiry */
};

/**
 * struct hrtimer - a high-resolution timer (4.14's names).
 * @function:     called at expiry, in hardirq context.
 * @_softexpires: the expiry (4.14: the soft one; no slack here).
 * @dmaemu_timer: the kernel-worker timer that carries it.
 * @dmaemu_clock: the clock id given to hrtimer_init() (kept).
 * @dmaemu_running: the function is running (atomic).
 * @dmaemu_inited: hrtimer_init() was called.
 */
struct hrtimer {
	enum hrtimer_restart (*function)(struct hrtimer *);
	ktime_t _softexpires;
	struct timer_list dmaemu_timer;
	clockid_t dmaemu_clock;
	int dmaemu_running;
	bool dmaemu_inited;
};

/** hrtimer_init() - prepare @timer (set ->function after, as 4.14). */
void hrtimer_init(struct hrtimer *timer, clockid_t which_clock,
		  enum hrtimer_mode mode);
/** hrtimer_start_range_ns() - arm @timer at @tim (absolute or relative
 * per @mode); @delta_ns, the slack, is not used (the tick is coarser). */
void hrtimer_start_range_ns(struct hrtimer *timer, ktime_t tim, u64 delta_ns,
			    const enum hrtimer_mode mode);
/** hrtimer_try_to_cancel() - 1: disarmed, 0: was not armed, -1: its
 * function is running (not waited for). */
int hrtimer_try_to_cancel(struct hrtimer *timer);
/** hrtimer_cancel() - disarm and wait for a running function; 1 when it
 * was armed. */
int hrtimer_cancel(struct hrtimer *timer);
/** hrtimer_forward() - move the expiry past @now by whole @interval
 * steps; the number of steps (0 when it is already after @now). */
u64 hrtimer_forward(struct hrtimer *timer, ktime_t now, ktime_t interval);

static inline void hrtimer_start(struct hrtimer *timer, ktime_t tim,
				 const enum hrtimer_mode mode)
{
	hrtimer_start_range_ns(timer, tim, 0, mode);
}

static inline u64 hrtimer_forward_now(struct hrtimer *timer, ktime_t interval)
{
	return hrtimer_forward(timer, ktime_get(), interval);
}

static inline ktime_t hrtimer_cb_get_time(struct hrtimer *timer)
{
	(void)timer;
	return ktime_get();
}

static inline ktime_t hrtimer_get_expires(const struct hrtimer *timer)
{
	return timer->_softexpires;
}

static inline s64 hrtimer_get_expires_ns(const struct hrtimer *timer)
{
	return timer->_softexpires;
}

static inline void hrtimer_set_expires(struct hrtimer *timer, ktime_t time)
{
	timer->_softexpires = time;
}

static inline void hrtimer_add_expires_ns(struct hrtimer *timer, u64 ns)
{
	timer->_softexpires += (s64)ns;
}

static inline ktime_t hrtimer_get_remaining(const struct hrtimer *timer)
{
	return timer->_softexpires - ktime_get();
}

/** hrtimer_is_queued() - armed, its function not yet started. */
static inline bool hrtimer_is_queued(struct hrtimer *timer)
{
	return timer_pending(&timer->dmaemu_timer);
}

static inline bool hrtimer_callback_running(struct hrtimer *timer)
{
	return __atomic_load_n(&timer->dmaemu_running, __ATOMIC_ACQUIRE);
}

/** hrtimer_active() - armed, or its function running. */
static inline bool hrtimer_active(const struct hrtimer *timer)
{
	return timer_pending(&timer->dmaemu_timer) ||
	       __atomic_load_n(&timer->dmaemu_running, __ATOMIC_ACQUIRE);
}

#ifdef __cplusplus
}
#endif

#endif /* DMAEMU_KERNEL_LINUX_HRTIMER_H */
