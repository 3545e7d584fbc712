// SPDX-License-Identifier: MIT
/*
 * hrtimer.c - high-resolution timers (<linux/hrtimer.h>) on the kernel
 * worker's timers, as 4.14's kernel/time/hrtimer.c runs them without
 * high-resolution mode: at the first tick at or after the expiry, the
 * function in hardirq context, HRTIMER_RESTART re-arming at the expiry the
 * function left (hrtimer_forward()).
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include <dmaemu/context.h>
#include <linux/hrtimer.h>
#include <linux/kernel.h>

#include "bus/bus.h"

#define TICK_NS ((s64)(NSEC_PER_SEC / HZ))

static bool usable(const char *fn, const struct hrtimer *timer)
{
	const char *why = !timer ? "NULL hrtimer"
			  : !timer->dmaemu_inited
				  ? "not initialized (hrtimer_init() "
				    "first)"
				  : NULL;

	if (!why)
		return true;
	dmaemu__reportf(dmaemu_machine_current(), DMAEMU_REPORT_BAD_ARGUMENT, 0,
			0, "%s(%p): %s", fn, (const void *)timer, why);
	return false;
}

/* Arms the carrier at the first tick at or after the expiry. */
static void arm(struct hrtimer *timer)
{
	s64 left = timer->_softexpires - ktime_get();
	unsigned long ticks =
		left <= 0 ? 0 : (unsigned long)((left + TICK_NS - 1) / TICK_NS);

	mod_timer(&timer->dmaemu_timer, jiffies + ticks);
}

static void tick(struct timer_list *t)
{
	struct hrtimer *timer = container_of(t, struct hrtimer, dmaemu_timer);
	enum hrtimer_restart r;

	/* The tick the carrier fired on may start before the expiry (a
	 * jiffy's start is not the expiry's): wait for the next one. */
	if (ktime_get() < timer->_softexpires) {
		arm(timer);
		return;
	}
	__atomic_store_n(&timer->dmaemu_running, 1, __ATOMIC_RELEASE);
	dmaemu_enter_irq(); /* 4.14: hrtimer_run_queues(), from the tick */
	r = timer->function ? timer->function(timer) : HRTIMER_NORESTART;
	(void)dmaemu_exit_irq();
	if (r == HRTIMER_RESTART && !timer_pending(t))
		arm(timer);
	__atomic_store_n(&timer->dmaemu_running, 0, __ATOMIC_RELEASE);
}

void hrtimer_init(struct hrtimer *timer, clockid_t which_clock,
		  enum hrtimer_mode mode)
{
	DMAEMU__API_CALL(call, "hrtimer_init");

	(void)mode;
	if (!timer) {
		dmaemu__reportf(dmaemu_machine_current(),
				DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"hrtimer_init(NULL): NULL hrtimer");
		return;
	}
	memset(timer, 0, sizeof(*timer));
	timer_setup(&timer->dmaemu_timer, tick, 0);
	timer->dmaemu_clock = which_clock;
	timer->dmaemu_inited = true;
	dmaemu__vg_atomic(&timer->dmaemu_running,
			  sizeof(timer->dmaemu_running));
}

void hrtimer_start_range_ns(struct hrtimer *timer, ktime_t tim, u64 delta_ns,
			    const enum hrtimer_mode mode)
{
	DMAEMU__API_CALL(call, "hrtimer_start_range_ns");

	(void)delta_ns;
	if (!usable("hrtimer_start", timer))
		return;
	if (!timer->function) {
		dmaemu__reportf(dmaemu_machine_current(),
				DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"hrtimer_start(%p): no function (set "
				"->function after hrtimer_init())",
				(void *)timer);
		return;
	}
	timer->_softexpires = mode & HRTIMER_MODE_REL ? ktime_get() + tim : tim;
	arm(timer);
}

int hrtimer_try_to_cancel(struct hrtimer *timer)
{
	DMAEMU__API_CALL(call, "hrtimer_try_to_cancel");

	if (!usable("hrtimer_try_to_cancel", timer))
		return 0;
	if (del_timer(&timer->dmaemu_timer))
		return 1;
	return hrtimer_callback_running(timer) ? -1 : 0;
}

int hrtimer_cancel(struct hrtimer *timer)
{
	DMAEMU__API_CALL(call, "hrtimer_cancel");

	if (!usable("hrtimer_cancel", timer))
		return 0;
	/* The carrier's sync delete waits for a running function; a restart
	 * it made is deleted by the next round. */
	for (int armed = 0;;) {
		armed |= del_timer_sync(&timer->dmaemu_timer);
		if (!timer_pending(&timer->dmaemu_timer))
			return armed;
	}
}

u64 hrtimer_forward(struct hrtimer *timer, ktime_t now, ktime_t interval)
{
	DMAEMU__API_CALL(call, "hrtimer_forward");
	s64 delta;
	u64 n;

	if (!usable("hrtimer_forward", timer))
		return 0;
	if (interval <= 0) {
		dmaemu__reportf(dmaemu_machine_current(),
				DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"hrtimer_forward(%p): interval %lld ns",
				(void *)timer, (long long)interval);
		return 0;
	}
	delta = now - timer->_softexpires;
	if (delta < 0)
		return 0;
	/* 4.14: below the resolution, step by the resolution. */
	if (interval < TICK_NS)
		interval = TICK_NS;
	n = (u64)(delta / interval) + 1;
	timer->_softexpires += (s64)n * interval;
	return n;
}
