// SPDX-License-Identifier: MIT
/*
 * kwork.c - the kernel worker of a machine: struct timer_list timers and
 * work items (<linux/timer.h>, <linux/workqueue.h>).
 *
 * How it works.  Each machine has one worker: a lock, the armed timers
 * (an hlist through timer->entry, in no order), the queued work items (a
 * FIFO through work->entry), and a host thread started by the first
 * mod_timer() or queue_work().  The thread loops:
 *
 *   1. a timer whose expiry has come (jiffies >= expires; the earliest
 *      first)?  unlink it (timer_pending() false), run its function in
 *      softirq context with the lock dropped;
 *   2. else a queued work item?  dequeue it, clear its pending bit (so
 *      the function may queue it again), run its function in process
 *      context with the lock dropped;
 *   3. else sleep until the earliest expiry, or until kicked.
 *
 * While a function runs, running_timer or running_work names it; when it
 * returns, waiters on "done" (del_timer_sync(), flush_work(),
 * cancel_work_sync()) look again.  Only pointers are compared after a
 * function returns: it may have freed its timer or work item.  A call
 * that would wait for the worker from the worker thread itself (a work
 * function flushing another item) could never return with one worker:
 * it is a bad-argument report and returns without waiting.
 *
 * With sched=lockstep the worker thread is a context of the machine's
 * scheduler (mm/sched.c): its sleeps are scheduler waits keyed by the
 * worker (with the next expiry as the deadline, in emulated time), the
 * waits for "done" are scheduler waits of the waiting context, and every
 * broadcast wakes the key too.
 *
 * Locks: kw->lock is a leaf (core/core.h): no function runs and no report
 * is made under it.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <dmaemu/context.h>
#include <linux/jiffies.h>
#include <linux/timer.h>
#include <linux/workqueue.h>

#include "bus/bus.h"

struct dmaemu__kwork {
	struct dmaemu_machine *m;
	pthread_mutex_t lock;
	pthread_cond_t cond; /* the thread sleeps here (CLOCK_MONOTONIC) */
	pthread_cond_t done; /* a function returned */
	pthread_t thread;
	struct dmaemu__sctx *sctx; /* the thread's lockstep context */
	bool started, stop;
	struct hlist_head timers;
	struct list_head works;
	struct timer_list *running_timer;
	struct work_struct *running_work;
};

/**
 * struct workqueue_struct - a workqueue: a name for the machine's worker.
 * @name: as alloc_workqueue() formatted it.
 */
struct workqueue_struct {
	char name[32];
};

static struct workqueue_struct system_wqs[7] = {
	{"events"},
	{"events_highpri"},
	{"events_long"},
	{"events_unbound"},
	{"events_freezable"},
	{"events_power_efficient"},
	{"events_freezable_power_efficient"},
};
struct workqueue_struct *system_wq = &system_wqs[0];
struct workqueue_struct *system_highpri_wq = &system_wqs[1];
struct workqueue_struct *system_long_wq = &system_wqs[2];
struct workqueue_struct *system_unbound_wq = &system_wqs[3];
struct workqueue_struct *system_freezable_wq = &system_wqs[4];
struct workqueue_struct *system_power_efficient_wq = &system_wqs[5];
struct workqueue_struct *system_freezable_power_efficient_wq = &system_wqs[6];

/* ---------------------------------------------------------------------- */
/* Lists (plain stores: the library is not instrumented)                  */
/* ---------------------------------------------------------------------- */

static bool timer_linked(const struct timer_list *t)
{
	return __atomic_load_n(&t->entry.pprev, __ATOMIC_ACQUIRE) != NULL;
}

static void timer_link(struct dmaemu__kwork *kw, struct timer_list *t)
{
	struct hlist_node *first = kw->timers.first;

	t->entry.next = first;
	if (first)
		first->pprev = &t->entry.next;
	kw->timers.first = &t->entry;
	__atomic_store_n(&t->entry.pprev, &kw->timers.first, __ATOMIC_RELEASE);
}

static void timer_unlink(struct timer_list *t)
{
	struct hlist_node *next = t->entry.next;

	*t->entry.pprev = next;
	if (next)
		next->pprev = t->entry.pprev;
	t->entry.next = NULL;
	__atomic_store_n(&t->entry.pprev, NULL, __ATOMIC_RELEASE);
}

static bool work_queued(const struct work_struct *w)
{
	return w->entry.next != &w->entry && w->entry.next != NULL;
}

static void work_enqueue(struct dmaemu__kwork *kw, struct work_struct *w)
{
	struct list_head *tail = kw->works.prev;

	w->entry.next = &kw->works;
	w->entry.prev = tail;
	tail->next = &w->entry;
	kw->works.prev = &w->entry;
}

static void work_dequeue(struct work_struct *w)
{
	w->entry.prev->next = w->entry.next;
	w->entry.next->prev = w->entry.prev;
	w->entry.next = &w->entry;
	w->entry.prev = &w->entry;
}

/* ---------------------------------------------------------------------- */
/* Sleeping and waking                                                    */
/* ---------------------------------------------------------------------- */

static void kick(struct dmaemu__kwork *kw)
{
	pthread_cond_broadcast(&kw->cond);
	dmaemu__sched_wake(kw);
}

static void kick_done(struct dmaemu__kwork *kw)
{
	pthread_cond_broadcast(&kw->done);
	dmaemu__sched_wake(&kw->done);
}

static bool on_worker(const struct dmaemu__kwork *kw)
{
	return kw->started && pthread_equal(kw->thread, pthread_self());
}

/* Wait (kw->lock held) until a function returns. */
static void wait_done(struct dmaemu__kwork *kw, const char *what)
{
	struct dmaemu__sctx *c = dmaemu__sched_self(kw->m);

	if (!c) {
		pthread_cond_wait(&kw->done, &kw->lock);
		return;
	}
	dmaemu__unlock(&kw->lock);
	(void)dmaemu__sched_wait(c, &kw->done, DMAEMU__SCHED_NONE, 0, what);
	dmaemu__lock(&kw->lock);
}

/* The worker thread sleeps (kw->lock held) @ms milliseconds at most
 * (0: until kicked). */
static void worker_sleep(struct dmaemu__kwork *kw, unsigned long ms)
{
	struct timespec ts;
	uint64_t ns;

	if (kw->sctx) {
		uint64_t deadline = DMAEMU__SCHED_NONE;

		if (ms)
			deadline = dmaemu__sched_time(kw->sctx) +
				   (uint64_t)ms * 1000000ULL;
		dmaemu__unlock(&kw->lock);
		(void)dmaemu__sched_wait(kw->sctx, kw, deadline,
					 DMAEMU__SCHED_IDLE, "kworker idle");
		dmaemu__lock(&kw->lock);
		return;
	}
	if (!ms) {
		pthread_cond_wait(&kw->cond, &kw->lock);
		return;
	}
	clock_gettime(CLOCK_MONOTONIC, &ts);
	ns = (uint64_t)ts.tv_nsec + (uint64_t)ms * 1000000ULL;
	ts.tv_sec += (time_t)(ns / 1000000000ULL);
	ts.tv_nsec = (long)(ns % 1000000000ULL);
	pthread_cond_timedwait(&kw->cond, &kw->lock, &ts);
}

/* ---------------------------------------------------------------------- */
/* The worker thread                                                      */
/* ---------------------------------------------------------------------- */

/* The armed timer with the earliest expiry, or NULL; kw->lock held. */
static struct timer_list *earliest(struct dmaemu__kwork *kw)
{
	struct timer_list *best = NULL;
	struct hlist_node *n;

	for (n = kw->timers.first; n; n = n->next) {
		struct timer_list *t = hlist_entry(n, struct timer_list, entry);

		if (!best || time_before(t->expires, best->expires))
			best = t;
	}
	return best;
}

static void run_timer(struct dmaemu__kwork *kw, struct timer_list *t)
{
	void (*callback)(struct timer_list *) = t->dmaemu_callback;
	void (*function)(unsigned long) = t->function;
	unsigned long data = t->data;

	timer_unlink(t);
	kw->running_timer = t;
	dmaemu__unlock(&kw->lock);
	dmaemu_enter_softirq();
	if (callback)
		callback(t);
	else if (function)
		function(data);
	(void)dmaemu_exit_softirq();
	dmaemu__lock(&kw->lock);
	kw->running_timer = NULL;
	kick_done(kw);
}

static void run_work(struct dmaemu__kwork *kw, struct work_struct *w)
{
	work_func_t func = w->func;

	work_dequeue(w);
	clear_bit(WORK_STRUCT_PENDING_BIT, &w->data);
	kw->running_work = w;
	dmaemu__unlock(&kw->lock);
	if (func)
		func(w);
	dmaemu__lock(&kw->lock);
	kw->running_work = NULL;
	kick_done(kw);
}

static void *worker(void *arg)
{
	struct dmaemu__kwork *kw = arg;
	struct timer_list *t;
	unsigned long now;

	dmaemu__sched_start(kw->sctx);
	dmaemu__lock(&kw->lock);
	while (!kw->stop) {
		now = dmaemu_jiffies();
		t = earliest(kw);
		if (t && time_after_eq(now, t->expires)) {
			run_timer(kw, t);
			continue;
		}
		if (kw->works.next != &kw->works) {
			run_work(kw, list_entry(kw->works.next,
						struct work_struct, entry));
			continue;
		}
		worker_sleep(kw, t ? t->expires - now : 0);
	}
	dmaemu__unlock(&kw->lock);
	dmaemu__sched_exit(kw->sctx);
	return NULL;
}

/* Start the thread if it is not running.  Return: 0 or a negative errno. */
static int worker_start(struct dmaemu__kwork *kw)
{
	int ret = 0;

	dmaemu__lock(&kw->lock);
	if (kw->started || kw->stop)
		goto out;
	ret = -dmaemu__sched_thread_start(kw->m, "kworker", &kw->thread, worker,
					  kw, &kw->sctx);
	if (ret)
		goto out;
	kw->started = true;
out:
	dmaemu__unlock(&kw->lock);
	return ret;
}

/* The current machine's worker, its thread running; NULL (after a report
 * when there is a machine) when there is none. */
static struct dmaemu__kwork *current_worker(const char *caller)
{
	struct dmaemu_machine *m = dmaemu_machine_current();
	int ret;

	if (!m || !m->kwork)
		return NULL;
	ret = worker_start(m->kwork);
	if (ret) {
		dmaemu__reportf(m, DMAEMU_REPORT_ALLOC_FAILURE, 0, 0,
				"%s: the kernel worker thread cannot start "
				"(%s)",
				caller, strerror(-ret));
		return NULL;
	}
	return m->kwork;
}

static void report_self_wait(struct dmaemu__kwork *kw, const char *what)
{
	dmaemu__reportf(kw->m, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
			"%s from a timer or work function: there is one kernel "
			"worker per machine, which would wait for itself; "
			"not waiting",
			what);
}

/* ---------------------------------------------------------------------- */
/* Timers                                                                 */
/* ---------------------------------------------------------------------- */

static struct dmaemu__kwork *timer_worker(const struct timer_list *t)
{
	return __atomic_load_n((void *const *)&t->dmaemu_worker,
			       __ATOMIC_ACQUIRE);
}

/* Disarm @t on its worker.  Return: 1 if it was armed. */
static int timer_disarm(struct dmaemu__kwork *kw, struct timer_list *t)
{
	int ret = 0;

	dmaemu__lock(&kw->lock);
	if (timer_linked(t)) {
		timer_unlink(t);
		ret = 1;
	}
	dmaemu__unlock(&kw->lock);
	return ret;
}

static int timer_arm(struct timer_list *t, unsigned long expires,
		     bool pending_only, const char *caller)
{
	struct dmaemu__kwork *kw, *old;
	int ret = 0;

	if (!t) {
		dmaemu__reportf(NULL, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"%s(NULL)", caller);
		return 0;
	}
	kw = current_worker(caller);
	if (!kw)
		return 0;
	/* timer_pending() reads pprev with no lock: an atomic, which
	 * Helgrind and DRD do not model. */
	dmaemu__vg_atomic(&t->entry.pprev, sizeof(t->entry.pprev));
	dmaemu__vg_atomic(&t->dmaemu_worker, sizeof(t->dmaemu_worker));
	/* A timer armed on another machine's worker leaves it first. */
	old = timer_worker(t);
	if (old && old != kw)
		ret = timer_disarm(old, t);
	dmaemu__lock(&kw->lock);
	if (timer_linked(t)) {
		timer_unlink(t);
		ret = 1;
	}
	if (!pending_only || ret) {
		t->expires = expires;
		__atomic_store_n(&t->dmaemu_worker, (void *)kw,
				 __ATOMIC_RELEASE);
		timer_link(kw, t);
		kick(kw);
	}
	dmaemu__unlock(&kw->lock);
	return ret;
}

int mod_timer(struct timer_list *timer, unsigned long expires)
{
	return timer_arm(timer, expires, false, "mod_timer");
}

int mod_timer_pending(struct timer_list *timer, unsigned long expires)
{
	return timer_arm(timer, expires, true, "mod_timer_pending");
}

void add_timer(struct timer_list *timer)
{
	if (timer && timer_pending(timer)) {
		dmaemu__reportf(NULL, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"add_timer() of a timer already armed");
		return;
	}
	(void)timer_arm(timer, timer ? timer->expires : 0, false, "add_timer");
}

int del_timer(struct timer_list *timer)
{
	struct dmaemu__kwork *kw = timer ? timer_worker(timer) : NULL;

	return kw ? timer_disarm(kw, timer) : 0;
}

int try_to_del_timer_sync(struct timer_list *timer)
{
	struct dmaemu__kwork *kw = timer ? timer_worker(timer) : NULL;
	int ret = 0;

	if (!kw)
		return 0;
	dmaemu__lock(&kw->lock);
	if (kw->running_timer == timer && !on_worker(kw)) {
		ret = -1;
	} else if (timer_linked(timer)) {
		timer_unlink(timer);
		ret = 1;
	}
	dmaemu__unlock(&kw->lock);
	return ret;
}

int del_timer_sync(struct timer_list *timer)
{
	struct dmaemu__kwork *kw = timer ? timer_worker(timer) : NULL;
	int ret = 0;

	if (!kw)
		return 0;
	dmaemu__lock(&kw->lock);
	if (timer_linked(timer)) {
		timer_unlink(timer);
		ret = 1;
	}
	/* Called by the function itself: it is running, not waited for. */
	while (kw->running_timer == timer && !on_worker(kw))
		wait_done(kw, "del_timer_sync()");
	dmaemu__unlock(&kw->lock);
	return ret;
}

/* ---------------------------------------------------------------------- */
/* Work items                                                             */
/* ---------------------------------------------------------------------- */

/* Put @w (pending bit set by the caller) on the current worker. */
static bool work_put_on(struct dmaemu__kwork *kw, struct work_struct *w)
{
	if (!kw) {
		clear_bit(WORK_STRUCT_PENDING_BIT, &w->data);
		return false;
	}
	dmaemu__lock(&kw->lock);
	__atomic_store_n(&w->dmaemu_worker, (void *)kw, __ATOMIC_RELEASE);
	work_enqueue(kw, w);
	kick(kw);
	dmaemu__unlock(&kw->lock);
	return true;
}

static bool work_put(struct work_struct *w, const char *caller)
{
	return work_put_on(current_worker(caller), w);
}

/* The pending bit and the worker pointer are atomics, which Helgrind and
 * DRD do not model. */
static void mark_work(struct work_struct *w)
{
	dmaemu__vg_atomic(&w->data, sizeof(w->data));
	dmaemu__vg_atomic(&w->dmaemu_worker, sizeof(w->dmaemu_worker));
}

bool queue_work(struct workqueue_struct *wq, struct work_struct *work)
{
	(void)wq;
	if (!work) {
		dmaemu__reportf(NULL, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"queue_work(NULL work)");
		return false;
	}
	mark_work(work);
	if (test_and_set_bit(WORK_STRUCT_PENDING_BIT, &work->data))
		return false;
	return work_put(work, "queue_work");
}

void delayed_work_timer_fn(unsigned long data)
{
	struct delayed_work *dwork = (struct delayed_work *)data;

	if (!dwork) {
		dmaemu__reportf(NULL, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"delayed_work_timer_fn(0): no delayed work");
		return;
	}
	/* Pending since queue_delayed_work(): only the queueing is left, on
	 * the worker the timer ran on (the current machine may be another
	 * one by now). */
	(void)work_put_on(timer_worker(&dwork->timer), &dwork->work);
}

bool queue_delayed_work(struct workqueue_struct *wq, struct delayed_work *dwork,
			unsigned long delay)
{
	if (!dwork) {
		dmaemu__reportf(NULL, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"queue_delayed_work(NULL work)");
		return false;
	}
	mark_work(&dwork->work);
	if (test_and_set_bit(WORK_STRUCT_PENDING_BIT, &dwork->work.data))
		return false;
	dwork->wq = wq;
	if (!delay)
		return work_put(&dwork->work, "queue_delayed_work");
	if (!current_worker("queue_delayed_work")) {
		clear_bit(WORK_STRUCT_PENDING_BIT, &dwork->work.data);
		return false;
	}
	(void)timer_arm(&dwork->timer, dmaemu_jiffies() + delay, false,
			"queue_delayed_work");
	return true;
}

/*
 * Take @w off its worker's queue.  Return: true if it was queued (its
 * pending bit is then cleared).
 */
static bool work_unqueue(struct work_struct *w)
{
	struct dmaemu__kwork *kw = __atomic_load_n(
		(void *const *)&w->dmaemu_worker, __ATOMIC_ACQUIRE);
	bool ret = false;

	if (!kw)
		return false;
	dmaemu__lock(&kw->lock);
	if (work_queued(w)) {
		work_dequeue(w);
		clear_bit(WORK_STRUCT_PENDING_BIT, &w->data);
		ret = true;
	}
	dmaemu__unlock(&kw->lock);
	return ret;
}

/* Wait until @w is neither queued nor running.  Return: true if it
 * waited for something. */
static bool work_wait(struct work_struct *w, const char *what)
{
	struct dmaemu__kwork *kw = __atomic_load_n(
		(void *const *)&w->dmaemu_worker, __ATOMIC_ACQUIRE);
	bool waited = false;

	if (!kw)
		return false;
	dmaemu__lock(&kw->lock);
	if (on_worker(kw) && (work_queued(w) || kw->running_work == w)) {
		dmaemu__unlock(&kw->lock);
		report_self_wait(kw, what);
		return false;
	}
	while (work_queued(w) || kw->running_work == w) {
		waited = true;
		wait_done(kw, what);
	}
	dmaemu__unlock(&kw->lock);
	return waited;
}

bool flush_work(struct work_struct *work)
{
	return work ? work_wait(work, "flush_work()") : false;
}

bool cancel_work_sync(struct work_struct *work)
{
	bool ret;

	if (!work)
		return false;
	ret = work_unqueue(work);
	(void)work_wait(work, "cancel_work_sync()");
	return ret;
}

bool cancel_delayed_work(struct delayed_work *dwork)
{
	if (!dwork)
		return false;
	if (del_timer(&dwork->timer)) {
		clear_bit(WORK_STRUCT_PENDING_BIT, &dwork->work.data);
		return true;
	}
	return work_unqueue(&dwork->work);
}

bool cancel_delayed_work_sync(struct delayed_work *dwork)
{
	bool ret;

	if (!dwork)
		return false;
	ret = del_timer_sync(&dwork->timer) != 0;
	if (ret)
		clear_bit(WORK_STRUCT_PENDING_BIT, &dwork->work.data);
	return cancel_work_sync(&dwork->work) || ret;
}

bool mod_delayed_work(struct workqueue_struct *wq, struct delayed_work *dwork,
		      unsigned long delay)
{
	bool ret = cancel_delayed_work(dwork);

	(void)queue_delayed_work(wq, dwork, delay);
	return ret;
}

bool flush_delayed_work(struct delayed_work *dwork)
{
	if (!dwork)
		return false;
	/* Run the delay out: queue the work now. */
	if (del_timer_sync(&dwork->timer))
		(void)work_put_on(timer_worker(&dwork->timer), &dwork->work);
	return flush_work(&dwork->work);
}

void flush_workqueue(struct workqueue_struct *wq)
{
	struct dmaemu_machine *m = dmaemu_machine_current();
	struct dmaemu__kwork *kw = m ? m->kwork : NULL;
	struct work_struct *last;

	(void)wq;
	if (!kw)
		return;
	dmaemu__lock(&kw->lock);
	if (kw->works.prev == &kw->works && !kw->running_work) {
		dmaemu__unlock(&kw->lock);
		return;
	}
	if (on_worker(kw)) {
		dmaemu__unlock(&kw->lock);
		report_self_wait(kw, "flush_workqueue()");
		return;
	}
	/* Everything queued now has run once the last one has. */
	last = kw->works.prev != &kw->works
		       ? list_entry(kw->works.prev, struct work_struct, entry)
		       : kw->running_work;
	while (work_queued(last) || kw->running_work == last)
		wait_done(kw, "flush_workqueue()");
	dmaemu__unlock(&kw->lock);
}

void drain_workqueue(struct workqueue_struct *wq)
{
	flush_workqueue(wq);
}

struct workqueue_struct *alloc_workqueue(const char *fmt, unsigned int flags,
					 int max_active, ...)
{
	struct workqueue_struct *wq = dmaemu__calloc(1, sizeof(*wq));
	va_list ap;

	(void)flags;
	(void)max_active;
	if (!wq)
		return NULL;
	if (fmt) {
		va_start(ap, max_active);
		vsnprintf(wq->name, sizeof(wq->name), fmt, ap);
		va_end(ap);
	}
	return wq;
}

void destroy_workqueue(struct workqueue_struct *wq)
{
	if (!wq)
		return;
	flush_workqueue(wq);
	if (wq >= system_wqs && wq < system_wqs + 7) {
		dmaemu__reportf(NULL, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"destroy_workqueue() of the system workqueue "
				"'%s'",
				wq->name);
		return;
	}
	dmaemu__free(wq);
}

/* ---------------------------------------------------------------------- */
/* Machine life                                                           */
/* ---------------------------------------------------------------------- */

int dmaemu__kwork_init(struct dmaemu_machine *m)
{
	struct dmaemu__kwork *kw = dmaemu__calloc(1, sizeof(*kw));
	pthread_condattr_t attr;
	int ret;

	if (!kw)
		return -ENOMEM;
	kw->m = m;
	kw->works.next = &kw->works;
	kw->works.prev = &kw->works;
	ret = dmaemu__mutex_init(&kw->lock);
	if (ret)
		goto out_free;
	ret = pthread_condattr_init(&attr);
	if (ret)
		goto out_mutex;
	ret = pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	if (!ret)
		ret = pthread_cond_init(&kw->cond, &attr);
	pthread_condattr_destroy(&attr);
	if (ret)
		goto out_mutex;
	ret = pthread_cond_init(&kw->done, NULL);
	if (ret)
		goto out_cond;
	m->kwork = kw;
	return 0;

out_cond:
	pthread_cond_destroy(&kw->cond);
out_mutex:
	pthread_mutex_destroy(&kw->lock);
out_free:
	dmaemu__free(kw);
	return -ret;
}

void dmaemu__kwork_fini(struct dmaemu_machine *m)
{
	struct dmaemu__kwork *kw = m->kwork;

	if (!kw)
		return;
	dmaemu__lock(&kw->lock);
	kw->stop = true;
	kick(kw);
	dmaemu__unlock(&kw->lock);
	if (kw->started)
		dmaemu__sched_thread_join(kw->thread, &kw->sctx);
	/* What is still armed or queued is the driver's memory, perhaps
	 * freed already: it is dropped without a look. */
	pthread_cond_destroy(&kw->done);
	pthread_cond_destroy(&kw->cond);
	pthread_mutex_destroy(&kw->lock);
	dmaemu__free(kw);
	m->kwork = NULL;
}
