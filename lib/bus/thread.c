// SPDX-License-Identifier: MIT
/*
 * thread.c - each device model's own thread: doorbells, the model's
 * timer, reset and shutdown.
 *
 * How it works.  A model with a run op gets a thread at create.  The
 * thread sleeps on its condition variable until there is something to do,
 * then calls run once with what woke it, and sleeps again:
 *
 *            doorbell()          timer deadline passed
 *                 \                  /
 *                  v                v
 *   sleep --> events != 0 && !hold ---> in_run = 1; ops->run(dev, events)
 *     ^                                          |
 *     +------------------------------------------+  in_run = 0, broadcast
 *
 *   reset:    hold++ (stopping), wait for !in_run, drop events and the
 *             timer, quiesce the irq lines, ops->reset(), hold--
 *   destroy:  stop = 1 (stopping), wake, join
 *
 * Wake-ups that arrive while run runs are merged into the next call; a
 * doorbell then wakes nobody (nor one that finds a doorbell not yet taken,
 * whose thread was woken for it already).
 * dmaemu_device_stopping() reads an atomic copy of "hold or stop" so a run
 * in a long transfer can give up at a chunk boundary without a lock.
 * The timer is a deadline on the host's monotonic clock (emulated time,
 * <dmaemu/sync.h>); the thread sleeps with pthread_cond_timedwait() on
 * that clock.
 *
 * With sched=lockstep the thread is a context of the machine's scheduler
 * (mm/sched.c): its sleep is a scheduler wait keyed by t (an idle wait,
 * with the timer's deadline in emulated time), every wake-up above wakes
 * that key too, the start of run is a scheduling point, and destroy waits
 * for the thread's exit as a scheduler wait before joining it.
 *
 * Locks: t->lock is a leaf (core/core.h): models call doorbell() and the
 * timer calls with their own lock held, and run is called without it.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <time.h>

#include "bus/bus.h"

/**
 * struct dmaemu__devthread - a device's thread.
 * @tid:      the thread.
 * @lock:     protects every field below but @stopping (a leaf).
 * @cond:     the thread sleeps here; reset and destroy wait here for
 *            !@in_run (CLOCK_MONOTONIC).
 * @events:   DMAEMU_DEVICE_* not yet handed to run.
 * @armed:    the timer is armed, for @deadline.
 * @deadline: CLOCK_MONOTONIC time of the timer.
 * @hold:     resets in progress: run is not called while non-zero.
 * @stop:     destroy: the thread ends.
 * @in_run:   run is being called.
 * @stopping: atomic copy of (@hold || @stop) for dmaemu_device_stopping().
 * @sctx:     the thread's lockstep context (NULL: sched=threads).
 * @vdeadline: the timer in the machine's emulated time (lockstep).
 * @wake:     bumped by every wake-up, for the waits' spin before they
 *            sleep (dmaemu__cond_wait_spin()).
 */
struct dmaemu__devthread {
	pthread_t tid;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	unsigned int events;
	bool armed;
	struct timespec deadline;
	unsigned int hold;
	bool stop;
	bool in_run;
	int stopping;
	struct dmaemu__sctx *sctx;
	uint64_t vdeadline;
	struct dmaemu__wake wake;
};

static bool ts_passed(const struct dmaemu__devthread *t)
{
	const struct timespec *ts = &t->deadline;
	struct timespec now;

	if (t->sctx)
		return dmaemu__sched_time(t->sctx) >= t->vdeadline;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec > ts->tv_sec ||
	       (now.tv_sec == ts->tv_sec && now.tv_nsec >= ts->tv_nsec);
}

/* Wake the thread, and whoever waits for it to leave run; t->lock held. */
static void kick(struct dmaemu__devthread *t)
{
	dmaemu__wake_seq(&t->wake);
	pthread_cond_broadcast(&t->cond);
	dmaemu__sched_wake(t);
}

/*
 * Sleep on t->cond (t->lock held) until kicked, or the timer's deadline
 * when @timed.  In lockstep, the calling thread's scheduler wait (@c):
 * the device thread's is an idle wait.
 */
static void sleep_on(struct dmaemu__devthread *t, struct dmaemu__sctx *c,
		     bool timed, unsigned int flags, const char *what)
{
	struct timespec ts;

	if (c) {
		dmaemu__unlock(&t->lock);
		(void)dmaemu__sched_wait(
			c, t, timed ? t->vdeadline : DMAEMU__SCHED_NONE, flags,
			what);
		dmaemu__lock(&t->lock);
	} else if (timed) {
		(void)dmaemu__cond_wait_spin(&t->cond, &t->lock, &t->wake,
					     &t->deadline);
	} else if ((flags & DMAEMU__SCHED_KEEP) &&
		   dmaemu__hang_deadline(NULL, &ts)) {
		/* No error path: a hung-wait report, and the caller's loop
		 * waits again. */
		if (pthread_cond_timedwait(&t->cond, &t->lock, &ts) ==
		    ETIMEDOUT) {
			dmaemu__unlock(&t->lock);
			dmaemu__hang_report(NULL, what, true);
			dmaemu__lock(&t->lock);
		}
	} else {
		(void)dmaemu__cond_wait_spin(&t->cond, &t->lock, &t->wake,
					     NULL);
	}
}

/* Keep t->stopping in step; t->lock held. */
static void update_stopping(struct dmaemu__devthread *t)
{
	__atomic_store_n(&t->stopping, t->hold || t->stop, __ATOMIC_RELEASE);
}

static void *device_thread(void *arg)
{
	struct dmaemu_device *d = arg;
	struct dmaemu__devthread *t = d->thr;
	unsigned int ev;

	char name[40];

	snprintf(name, sizeof(name), "%s-dev", d->dev.init_name);
	dmaemu__trace_thread(name, "dev");
	dmaemu__sched_start(t->sctx);
	dmaemu__lock(&t->lock);
	while (!t->stop) {
		ev = 0;
		if (!t->hold) {
			ev = t->events;
			if (t->armed && ts_passed(t)) {
				t->armed = false;
				ev |= DMAEMU_DEVICE_TIMER;
			}
		}
		if (!ev) {
			sleep_on(t, t->sctx, t->armed && !t->hold,
				 DMAEMU__SCHED_IDLE, "device idle");
			continue;
		}
		t->events = 0;
		t->in_run = true;
		dmaemu__unlock(&t->lock);
		if (t->sctx)
			dmaemu__sched_point(d->m, "device run");
		d->ops->run(d, ev);
		/* The work done is in memory before the thread sleeps.  In
		 * lockstep, writes still posted land a microsecond of
		 * emulated time after the run, not with it, so a driver
		 * polling with udelay() may look in between. */
		if (t->sctx && dmaemu__pw_pending(d))
			dmaemu__sched_sleep(1000, "posted writes");
		dmaemu__pw_drain(d);
		dmaemu__lock(&t->lock);
		t->in_run = false;
		kick(t);
	}
	dmaemu__unlock(&t->lock);
	dmaemu__sched_exit(t->sctx);
	return NULL;
}

int dmaemu__thread_start(struct dmaemu_device *d)
{
	struct dmaemu__devthread *t;
	pthread_condattr_t attr;
	char name[40];
	int ret;

	if (!d->ops || !d->ops->run)
		return 0;
	t = dmaemu__calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	ret = dmaemu__mutex_init(&t->lock);
	if (ret)
		goto out_free;
	ret = pthread_condattr_init(&attr);
	if (ret)
		goto out_mutex;
	ret = pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	if (!ret)
		ret = pthread_cond_init(&t->cond, &attr);
	pthread_condattr_destroy(&attr);
	if (ret)
		goto out_mutex;
	dmaemu__vg_atomic(&t->stopping, sizeof(t->stopping));
	d->thr = t;
	snprintf(name, sizeof(name), "dev:%s", d->name);
	ret = dmaemu__sched_thread_start(d->m, name, &t->tid, device_thread, d,
					 &t->sctx);
	if (ret)
		goto out_cond;
	return 0;

out_cond:
	d->thr = NULL;
	pthread_cond_destroy(&t->cond);
out_mutex:
	pthread_mutex_destroy(&t->lock);
out_free:
	dmaemu__free(t);
	return -ret;
}

void dmaemu__thread_stop(struct dmaemu_device *d)
{
	struct dmaemu__devthread *t = d->thr;

	if (!t)
		return;
	dmaemu__lock(&t->lock);
	t->stop = true;
	update_stopping(t);
	kick(t);
	/* Outside lockstep, a run that never ends is reported by the hang
	 * watchdog here, before the join (in lockstep, the join's wait). */
	while (!t->sctx && t->in_run && !pthread_equal(t->tid, pthread_self()))
		sleep_on(t, NULL, false, DMAEMU__SCHED_KEEP, "device destroy");
	dmaemu__unlock(&t->lock);
	dmaemu__sched_thread_join(t->tid, &t->sctx);
	d->thr = NULL;
	pthread_cond_destroy(&t->cond);
	pthread_mutex_destroy(&t->lock);
	dmaemu__free(t);
}

bool dmaemu__thread_is_self(const struct dmaemu_device *d)
{
	return d->thr && pthread_equal(d->thr->tid, pthread_self());
}

/* @d is live and has a thread, else a report naming @fn.  Return: t. */
static struct dmaemu__devthread *thread_of(struct dmaemu_device *d,
					   const char *fn)
{
	struct dmaemu_device *live = dmaemu__device_alive(d) ? d : NULL;

	if (live && live->thr)
		return live->thr;
	dmaemu__reportf(live ? live->m : NULL, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
			"%s(%s): %s", fn, live ? live->name : "",
			!d	? "NULL device"
			: !live ? "not a live device"
				: "the model has no run op (no thread)");
	return NULL;
}

int dmaemu_device_doorbell(struct dmaemu_device *d)
{
	struct dmaemu__devthread *t = thread_of(d, "dmaemu_device_doorbell");
	bool wake;

	if (!t)
		return -EINVAL;
	dmaemu__lock(&t->lock);
	/* A thread in run, or kicked for a doorbell it has not taken yet,
	 * looks at t->events before it sleeps: no need to wake it. */
	wake = !t->in_run && !(t->events & DMAEMU_DEVICE_DOORBELL);
	t->events |= DMAEMU_DEVICE_DOORBELL;
	if (wake) {
		dmaemu__sched_wake(t);
		dmaemu__wake_seq(&t->wake);
		dmaemu__unlock_wake(&t->lock, &t->cond);
	} else {
		dmaemu__unlock(&t->lock);
	}
	return 0;
}

int dmaemu_device_timer_arm(struct dmaemu_device *d, uint64_t delay_ns)
{
	struct dmaemu__devthread *t = thread_of(d, "dmaemu_device_timer_arm");
	struct timespec ts;
	uint64_t ns, vnow = 0;

	if (!t)
		return -EINVAL;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	(void)dmaemu__sched_machine_now(d->m, &vnow);
	if (delay_ns > (1ULL << 62))
		delay_ns = 1ULL << 62;
	ns = (uint64_t)ts.tv_nsec + delay_ns;
	ts.tv_sec += (time_t)(ns / 1000000000ULL);
	ts.tv_nsec = (long)(ns % 1000000000ULL);
	dmaemu__lock(&t->lock);
	t->deadline = ts;
	t->vdeadline = vnow + delay_ns;
	t->armed = true;
	kick(t);
	dmaemu__unlock(&t->lock);
	return 0;
}

int dmaemu_device_timer_cancel(struct dmaemu_device *d)
{
	struct dmaemu__devthread *t =
		thread_of(d, "dmaemu_device_timer_cancel");
	bool was;

	if (!t)
		return -EINVAL;
	dmaemu__lock(&t->lock);
	was = t->armed;
	t->armed = false;
	dmaemu__unlock(&t->lock);
	return was;
}

bool dmaemu_device_stopping(struct dmaemu_device *d)
{
	struct dmaemu_device *live = dmaemu__device_alive(d) ? d : NULL;

	return live && live->thr &&
	       __atomic_load_n(&live->thr->stopping, __ATOMIC_ACQUIRE);
}

int dmaemu_device_reset(struct dmaemu_device *d)
{
	struct dmaemu_device *live = dmaemu__device_alive(d) ? d : NULL;
	struct dmaemu__devthread *t;
	bool self;

	if (!live) {
		dmaemu__reportf(NULL, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"dmaemu_device_reset(): %s",
				d ? "not a live device" : "NULL device");
		return -EINVAL;
	}
	t = d->thr;
	self = dmaemu__thread_is_self(d);
	if (t) {
		struct dmaemu__sctx *c = dmaemu__sched_enter(d->m);

		dmaemu__lock(&t->lock);
		if (!self) {
			t->hold++;
			update_stopping(t);
			while (t->in_run)
				sleep_on(t, c, false, DMAEMU__SCHED_KEEP,
					 "device reset");
		}
		t->events = 0;
		t->armed = false;
		dmaemu__unlock(&t->lock);
	}
	dmaemu__irq_device_quiesce(d);
	dmaemu__pw_drain(d);
	if (d->ops && d->ops->reset)
		d->ops->reset(d);
	if (t && !self) {
		dmaemu__lock(&t->lock);
		t->hold--;
		update_stopping(t);
		kick(t);
		dmaemu__unlock(&t->lock);
	}
	return 0;
}
