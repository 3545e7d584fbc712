// SPDX-License-Identifier: MIT
/*
 * softirq.c - softirqs of a machine, and tasklets (<linux/interrupt.h>).
 *
 * How it works (after 4.14's kernel/softirq.c: raise_softirq(),
 * __do_softirq(), tasklet_action(), tasklet_kill()).  A machine has one
 * CPU taking interrupts, its interrupt thread (irq.c).  A softirq vector
 * raised sets a bit of s->pending (an atomic) and kicks that thread,
 * which runs the pending vectors in softirq context, lowest number first:
 *
 *   - right after each hard handler (4.14's irq_exit() -> invoke_softirq());
 *   - when it finds no irq to deliver and a vector pending (a tasklet or
 *     a NAPI context scheduled from process context: 4.14's ksoftirqd);
 *   - never while a thread of the machine has interrupts off.
 *
 * A pass takes the pending bits (and clears them) and runs each vector's
 * action once; what is raised meanwhile runs at the next pass, after the
 * interrupt thread has looked for a hard irq again.
 *
 * Tasklets: two FIFO lists (HI_SOFTIRQ, TASKLET_SOFTIRQ) through
 * t->next, under s->lock.  The action takes its whole list, and for each
 * tasklet sets TASKLET_STATE_RUN, then if its count is 0 clears
 * TASKLET_STATE_SCHED and calls it (so it may schedule itself again);
 * a disabled one goes back to the list.  Unlike 4.14, which raises the
 * vector again and spins in ksoftirqd until the tasklet is enabled,
 * nothing is raised for a disabled tasklet: tasklet_enable() raises both
 * tasklet vectors when the count reaches 0.  After each call, waiters in
 * tasklet_kill() and tasklet_disable() (s->done) look again.
 *
 * With sched=lockstep the waits for s->done are scheduler waits keyed by
 * &s->done, and each broadcast wakes that key.
 *
 * Locks: s->lock is a leaf (core/core.h): no tasklet runs and no report
 * is made under it.
 */
#include "config.h"

#include <errno.h>

#include <linux/interrupt.h>

#include "bus/bus.h"

struct dmaemu__softirq {
	struct dmaemu_machine *m;
	unsigned int pending;			   /* raised vectors (atomic) */
	pthread_mutex_t lock;			   /* the lists below */
	pthread_cond_t done;			   /* a tasklet returned */
	struct tasklet_struct *head[2], **tail[2]; /* [0] HI, [1] TASKLET */
};

static dmaemu__softirq_action_t actions[NR_SOFTIRQS]; /* atomics */

static void tasklet_action(struct dmaemu_machine *m, int list);

static void hi_action(struct dmaemu_machine *m)
{
	tasklet_action(m, 0);
}

static void normal_action(struct dmaemu_machine *m)
{
	tasklet_action(m, 1);
}

int dmaemu__softirq_init(struct dmaemu_machine *m)
{
	struct dmaemu__softirq *s = dmaemu__calloc(1, sizeof(*s));
	int ret;

	if (!s)
		return -ENOMEM;
	s->m = m;
	ret = dmaemu__mutex_init(&s->lock);
	if (ret)
		goto out_free;
	ret = pthread_cond_init(&s->done, NULL);
	if (ret)
		goto out_mutex;
	s->tail[0] = &s->head[0];
	s->tail[1] = &s->head[1];
	dmaemu__vg_atomic(&s->pending, sizeof(s->pending));
	dmaemu__open_softirq(HI_SOFTIRQ, hi_action);
	dmaemu__open_softirq(TASKLET_SOFTIRQ, normal_action);
	m->softirq = s;
	return 0;

out_mutex:
	pthread_mutex_destroy(&s->lock);
out_free:
	dmaemu__free(s);
	return -ret;
}

void dmaemu__softirq_fini(struct dmaemu_machine *m)
{
	struct dmaemu__softirq *s = m->softirq;
	struct tasklet_struct *t;
	int i;

	if (!s)
		return;
	/* The interrupt thread is gone: tasklets still scheduled are
	 * dropped (and no longer scheduled). */
	for (i = 0; i < 2; i++) {
		while ((t = s->head[i])) {
			s->head[i] = t->next;
			t->next = NULL;
			__atomic_and_fetch(&t->state,
					   ~(1UL << TASKLET_STATE_SCHED),
					   __ATOMIC_SEQ_CST);
		}
	}
	pthread_cond_destroy(&s->done);
	pthread_mutex_destroy(&s->lock);
	dmaemu__free(s);
	m->softirq = NULL;
}

void dmaemu__open_softirq(int nr, dmaemu__softirq_action_t action)
{
	__atomic_store_n(&actions[nr], action, __ATOMIC_RELEASE);
}

int dmaemu__raise_softirq(struct dmaemu_machine *m, int nr)
{
	__atomic_or_fetch(&m->softirq->pending, 1u << nr, __ATOMIC_SEQ_CST);
	return dmaemu__irq_kick_softirq(m);
}

bool dmaemu__softirq_pending(struct dmaemu_machine *m)
{
	return __atomic_load_n(&m->softirq->pending, __ATOMIC_SEQ_CST) != 0;
}

void dmaemu__do_softirq(struct dmaemu_machine *m)
{
	unsigned int pending, nr;
	dmaemu__softirq_action_t action;

	pending =
		__atomic_exchange_n(&m->softirq->pending, 0, __ATOMIC_SEQ_CST);
	if (!pending)
		return;
	dmaemu_enter_softirq();
	for (nr = 0; nr < NR_SOFTIRQS; nr++) {
		if (!(pending & (1u << nr)))
			continue;
		action = __atomic_load_n(&actions[nr], __ATOMIC_ACQUIRE);
		if (action) {
			dmaemu__trace(m, DMAEMU__TRACE_IRQ, "softirq_entry",
				      "vec=%u", nr);
			action(m);
			dmaemu__trace(m, DMAEMU__TRACE_IRQ, "softirq_exit",
				      "vec=%u", nr);
		}
	}
	(void)dmaemu_exit_softirq();
}

/* ---------------------------------------------------------------------- */
/* Tasklets                                                               */
/* ---------------------------------------------------------------------- */

#define SCHED_BIT (1UL << TASKLET_STATE_SCHED)
#define RUN_BIT (1UL << TASKLET_STATE_RUN)

/* @t is NULL: a bad-argument report naming @fn, and true. */
static bool null_tasklet(const struct tasklet_struct *t, const char *fn)
{
	if (t)
		return false;
	dmaemu__reportf(NULL, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
			"%s(NULL): NULL tasklet", fn);
	return true;
}

static unsigned long tstate(const struct tasklet_struct *t)
{
	return __atomic_load_n(&t->state, __ATOMIC_SEQ_CST);
}

static void broadcast_done(struct dmaemu__softirq *s)
{
	dmaemu__lock(&s->lock);
	pthread_cond_broadcast(&s->done);
	dmaemu__sched_wake(&s->done);
	dmaemu__unlock(&s->lock);
}

/* Wait (s->lock held) until a tasklet returns. */
static void wait_done(struct dmaemu__softirq *s, const char *what)
{
	struct dmaemu__sctx *c = dmaemu__sched_self(s->m);

	if (!c) {
		pthread_cond_wait(&s->done, &s->lock);
		return;
	}
	dmaemu__unlock(&s->lock);
	(void)dmaemu__sched_wait(c, &s->done, DMAEMU__SCHED_NONE, 0, what);
	dmaemu__lock(&s->lock);
}

static void tasklet_action(struct dmaemu_machine *m, int i)
{
	struct dmaemu__softirq *s = m->softirq;
	struct tasklet_struct *list, *t;

	dmaemu__lock(&s->lock);
	list = s->head[i];
	s->head[i] = NULL;
	s->tail[i] = &s->head[i];
	dmaemu__unlock(&s->lock);

	while ((t = list)) {
		list = t->next;
		__atomic_or_fetch(&t->state, RUN_BIT, __ATOMIC_SEQ_CST);
		if (!atomic_read(&t->count)) {
			/* Unscheduled before the call: it may schedule
			 * itself again. */
			__atomic_and_fetch(&t->state, ~SCHED_BIT,
					   __ATOMIC_SEQ_CST);
			t->func(t->data);
			__atomic_and_fetch(&t->state, ~RUN_BIT,
					   __ATOMIC_SEQ_CST);
			broadcast_done(s);
			continue;
		}
		__atomic_and_fetch(&t->state, ~RUN_BIT, __ATOMIC_SEQ_CST);
		/* Disabled: back on the list, run after tasklet_enable(). */
		dmaemu__lock(&s->lock);
		t->next = NULL;
		*s->tail[i] = t;
		s->tail[i] = &t->next;
		dmaemu__unlock(&s->lock);
		broadcast_done(s);
	}
}

void tasklet_init(struct tasklet_struct *t, void (*func)(unsigned long),
		  unsigned long data)
{
	DMAEMU__API_CALL(call, "tasklet_init");

	if (null_tasklet(t, "tasklet_init"))
		return;
	if (!func)
		dmaemu__reportf(NULL, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"tasklet_init(%p, NULL): no function: "
				"scheduling it would call NULL",
				(void *)t);
	t->next = NULL;
	t->state = 0;
	atomic_set(&t->count, 0);
	t->func = func;
	t->data = data;
	t->dmaemu_machine = NULL;
}

static void schedule_on(struct tasklet_struct *t, int i, const char *fn)
{
	struct dmaemu_machine *m = dmaemu_machine_current();
	struct dmaemu__softirq *s;

	if (!t || !m) {
		dmaemu__reportf(m, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"%s(%p): %s", fn, (void *)t,
				t ? "no current machine to run it on"
				  : "NULL tasklet");
		return;
	}
	if (__atomic_fetch_or(&t->state, SCHED_BIT, __ATOMIC_SEQ_CST) &
	    SCHED_BIT)
		return; /* already scheduled */
	s = m->softirq;
	dmaemu__lock(&s->lock);
	__atomic_store_n(&t->dmaemu_machine, m, __ATOMIC_RELEASE);
	t->next = NULL;
	*s->tail[i] = t;
	s->tail[i] = &t->next;
	dmaemu__unlock(&s->lock);
	if (dmaemu__raise_softirq(m, i ? TASKLET_SOFTIRQ : HI_SOFTIRQ))
		dmaemu__reportf(m, DMAEMU_REPORT_ALLOC_FAILURE, 0, 0,
				"%s: the interrupt thread cannot start", fn);
}

void tasklet_schedule(struct tasklet_struct *t)
{
	schedule_on(t, 1, "tasklet_schedule");
}

void tasklet_hi_schedule(struct tasklet_struct *t)
{
	schedule_on(t, 0, "tasklet_hi_schedule");
}

void tasklet_disable_nosync(struct tasklet_struct *t)
{
	DMAEMU__API_CALL(call, "tasklet_disable_nosync");

	if (null_tasklet(t, "tasklet_disable_nosync"))
		return;
	atomic_inc(&t->count);
}

/* The machine @t was scheduled on, if still live. */
static struct dmaemu_machine *tasklet_machine(struct tasklet_struct *t)
{
	struct dmaemu_machine *m =
		__atomic_load_n(&t->dmaemu_machine, __ATOMIC_ACQUIRE);

	return m && dmaemu__machine_live(m) ? m : NULL;
}

void tasklet_disable(struct tasklet_struct *t)
{
	struct dmaemu_machine *m;
	struct dmaemu__softirq *s;

	{
		DMAEMU__API_CALL(call, "tasklet_disable");

		if (null_tasklet(t, "tasklet_disable"))
			return;
	}
	tasklet_disable_nosync(t);
	m = tasklet_machine(t);
	/* Its own function disabling it: it is running, and stays so. */
	if (!m || ((preempt_count() & SOFTIRQ_MASK) &&
		   dmaemu__irq_is_handler_thread(m)))
		return;
	s = m->softirq;
	dmaemu__lock(&s->lock);
	while (tstate(t) & RUN_BIT)
		wait_done(s, "tasklet_disable()");
	dmaemu__unlock(&s->lock);
}

void tasklet_enable(struct tasklet_struct *t)
{
	DMAEMU__API_CALL(call, "tasklet_enable");
	struct dmaemu_machine *m;
	int left;

	if (null_tasklet(t, "tasklet_enable"))
		return;
	left = atomic_dec_return(&t->count);
	if (left < 0) {
		atomic_inc(&t->count);
		dmaemu__reportf(dmaemu_machine_current(),
				DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"tasklet_enable(%p): unbalanced enable (the "
				"tasklet is not disabled)",
				(void *)t);
		return;
	}
	m = tasklet_machine(t);
	if (!left && m && (tstate(t) & SCHED_BIT)) {
		(void)dmaemu__raise_softirq(m, HI_SOFTIRQ);
		(void)dmaemu__raise_softirq(m, TASKLET_SOFTIRQ);
	}
}

/* Take @t off its machine's lists, if it is there; s->lock held. */
static bool unlink_tasklet(struct dmaemu__softirq *s, struct tasklet_struct *t)
{
	struct tasklet_struct **pp;
	int i;

	for (i = 0; i < 2; i++) {
		for (pp = &s->head[i]; *pp; pp = &(*pp)->next) {
			if (*pp != t)
				continue;
			*pp = t->next;
			if (s->tail[i] == &t->next)
				s->tail[i] = pp;
			t->next = NULL;
			return true;
		}
	}
	return false;
}

void tasklet_kill(struct tasklet_struct *t)
{
	struct dmaemu_machine *m;
	struct dmaemu__softirq *s;
	bool stuck = false;

	{
		DMAEMU__API_CALL(call, "tasklet_kill");

		if (null_tasklet(t, "tasklet_kill"))
			return;
	}
	m = tasklet_machine(t);
	if (in_interrupt()) {
		dmaemu__reportf(m ? m : dmaemu_machine_current(),
				DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"tasklet_kill(%p): attempt to kill a tasklet "
				"from interrupt context, where it could wait "
				"for itself; not waiting",
				(void *)t);
		return;
	}
	dmaemu_might_sleep("tasklet_kill()");
	if (!m)
		return; /* never scheduled: nothing to wait for */
	s = m->softirq;
	dmaemu__lock(&s->lock);
	for (;;) {
		unsigned long st = tstate(t);

		if (!(st & (SCHED_BIT | RUN_BIT)))
			break;
		if (!(st & RUN_BIT) && atomic_read(&t->count)) {
			/* Scheduled and disabled: it would never run. */
			(void)unlink_tasklet(s, t);
			__atomic_and_fetch(&t->state, ~SCHED_BIT,
					   __ATOMIC_SEQ_CST);
			stuck = true;
			break;
		}
		wait_done(s, "tasklet_kill()");
	}
	dmaemu__unlock(&s->lock);
	if (stuck)
		dmaemu__reportf(m, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"tasklet_kill(%p): the tasklet is scheduled "
				"and disabled, so it would never run and this "
				"would wait forever; unscheduled it",
				(void *)t);
}
