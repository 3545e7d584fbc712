// SPDX-License-Identifier: MIT
/*
 * irq.c - interrupt lines of devices, the machine's interrupt thread, and
 * the driver side: request_irq() and friends.
 *
 * How it works.  Every interrupt line of every device has a descriptor
 * and a Linux irq number, process-wide (a table indexed from IRQ_BASE;
 * numbers are reused after the device is destroyed).  The line's state
 * lives under its machine's controller lock (ic->lock):
 *
 *   level     asserted (dmaemu_raise_irq .. dmaemu_lower_irq)   level lines
 *   pending   an edge latched, not yet delivered                edge lines
 *   depth     disable_irq() nesting; 0 = enabled
 *   oneshot   a threaded handler runs with IRQF_ONESHOT: masked
 *   action    the handler (one per irq)
 *
 * A descriptor is deliverable when it has an action, depth and oneshot
 * are 0, no hard handler of it runs, and its level is asserted or an edge
 * is pending.  The interrupt thread (one per machine, started by the
 * first request_irq()) loops:
 *
 *   1. wait on ic->cond until some descriptor is deliverable (round
 *      robin over the machine's descriptors);
 *   2. if a thread of the machine has interrupts off (m->irqs_off), look
 *      again, yielding the CPU, up to 16 times, then every 50 us: no
 *      handler starts while interrupts are off;
 *   3. mark it in progress (an edge is consumed), drop the lock, run the
 *      hard handler in hardirq context with interrupts off;
 *   4. retake the lock: IRQ_WAKE_THREAD wakes the threaded handler (its
 *      own thread; IRQF_ONESHOT masks the irq until it returns);
 *      IRQ_NONE 100 times in a row disables the irq (unhandled-irq);
 *      irq_storm runs of the handler of a level line that stayed
 *      asserted through all of them disable it too (irq-storm);
 *      clear in progress, wake synchronize_irq() waiters (ic->sync).
 *
 * A level line still asserted after its handler is simply deliverable
 * again at step 1.  Softirqs (softirq.c) run on the same thread: after
 * each hard handler when one was raised (4.14's irq_exit()), and at step
 * 1 when no irq is deliverable and one is pending (raised by another
 * thread, as 4.14's ksoftirqd would run it), never while m->irqs_off.
 * Linux counts the runs of a handler whose line stays asserted
 * (kernel/irq/spurious.c,
 * note_interrupt(): a window of 100,000 interrupts) only to find the
 * unhandled ones; a handler that says IRQ_HANDLED without acknowledging
 * the device locks a real CPU up in hardirq context until the hard
 * lockup watchdog fires.  Here the storm is found by the same count and
 * ended the way note_interrupt() ends a stuck irq: the report, then
 * depth++ (the line is disabled), so the program goes on.  Which
 * register acknowledges a line is learnt, not declared: a lowering of
 * the line inside a register write of the driver (set_line()) names it.
 *
 * With sched=lockstep, the interrupt thread and each threaded handler's
 * thread are contexts of the machine's scheduler (mm/sched.c): their
 * sleeps are scheduler waits keyed by ic (or the action), every broadcast
 * wakes that key, the start of a delivery is a scheduling point, the
 * interrupts-off gate waits on &m->irqs_off (woken by mm/context.c when
 * the last thread turns interrupts back on), and the threads are joined
 * after a scheduler wait for their exit.
 *
 * Locks: ic->lock and the table lock are leaves (core/core.h): handlers,
 * threaded handlers and reports run with neither held.  A descriptor is
 * freed only by device destroy, after its handlers finished.
 */
#include "config.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <linux/interrupt.h>

#include "bus/bus.h"

#define IRQ_BASE 32	    /* first number handed out, as the GIC's SPIs */
#define NR_IRQS 4096	    /* numbers in the process */
#define UNHANDLED_LIMIT 100 /* IRQ_NONE in a row before "nobody cared" */
#define GATE_POLL_NS 50000  /* re-check of m->irqs_off */
#define GATE_YIELDS 16	    /* looks at m->irqs_off before that */

struct dmaemu__irqc;

/* A requested handler.  Fields below @dev_id: under ic->lock. */
struct irq_action {
	irq_handler_t handler;
	irq_handler_t thread_fn;
	unsigned long flags;
	const char *name;
	void *dev_id;
	const void *site; /* the driver's request_irq() */
	struct dmaemu__irq_desc *desc;
	pthread_t thread;	   /* runs thread_fn (when there is one) */
	struct dmaemu__sctx *sctx; /* its lockstep context, or NULL */
	pthread_cond_t cond;
	bool wake, stop, running;
};

struct dmaemu__irq_desc {
	unsigned int irq;
	struct dmaemu_device *dev;
	unsigned int line;
	bool edge;
	struct dmaemu__irqc *ic;
	/* Under ic->lock: */
	bool level, pending, inprogress, oneshot;
	unsigned int depth;
	unsigned int unhandled;
	/* irq-storm: runs since the line last dropped, the device's
	 * register writes before the first of them, and the last register
	 * write that lowered the line (@acked: there was one). */
	unsigned int storm;
	uint64_t storm_writes;
	bool acked;
	uint64_t ack_off;
	const void *ack_site;
	struct irq_action *action;
};

/**
 * struct dmaemu__irqc - a machine's interrupt controller.
 * @m:       the machine.
 * @lock:    everything below and the descriptors' state (a leaf).
 * @cond:    the interrupt thread waits for work (CLOCK_MONOTONIC).
 * @sync:    handlers finished: synchronize_irq(), free_irq(), destroy.
 * @thread:  the interrupt thread, when @started.
 * @stop:    machine destroy: the thread ends.
 * @desc:    the machine's descriptors (@n of @cap).
 * @next:    where the round robin starts.
 * @wake:    bumped by every wake-up of @cond, @sync or an action's cond,
 *           for the waiters' spin before they sleep
 *           (dmaemu__cond_wait_spin()).
 */
struct dmaemu__irqc {
	struct dmaemu_machine *m;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	pthread_cond_t sync;
	pthread_t thread;
	struct dmaemu__sctx *sctx; /* the thread's lockstep context */
	bool started, stop;
	struct dmaemu__irq_desc **desc;
	size_t n, cap, next;
	struct dmaemu__wake wake;
};

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static struct dmaemu__irq_desc *table[NR_IRQS]; /* table_lock */

/* The descriptor of @irq, or NULL after a report naming @fn. */
static struct dmaemu__irq_desc *desc_of(unsigned int irq, const char *fn)
{
	struct dmaemu__irq_desc *desc = NULL;

	dmaemu__lock(&table_lock);
	if (irq >= IRQ_BASE && irq - IRQ_BASE < NR_IRQS)
		desc = table[irq - IRQ_BASE];
	dmaemu__unlock(&table_lock);
	if (!desc)
		dmaemu__reportf(NULL, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"%s(%u): no such irq (not a line of a live "
				"device)",
				fn, irq);
	return desc;
}

static int cond_init_monotonic(pthread_cond_t *c)
{
	pthread_condattr_t attr;
	int ret = pthread_condattr_init(&attr);

	if (ret)
		return ret;
	ret = pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	if (!ret)
		ret = pthread_cond_init(c, &attr);
	pthread_condattr_destroy(&attr);
	return ret;
}

/* Broadcast @cond and wake the lockstep waits on @key; ic->lock held. */
static void kick(struct dmaemu__irqc *ic, pthread_cond_t *cond, const void *key)
{
	dmaemu__wake_seq(&ic->wake);
	pthread_cond_broadcast(cond);
	dmaemu__sched_wake(key);
}

/*
 * Wait on @cond (ic->lock held) until kicked.  A lockstep context (@c)
 * waits in the scheduler on @key, with ic->lock dropped.  A wait that is
 * not an idle one ends after hang_timeout_ms with a hung-wait report
 * (a DMAEMU__SCHED_KEEP one goes on: the caller waits again).
 * Return: 0, or -EDEADLK (lockstep deadlock, hung wait).
 */
static int ic_sleep(struct dmaemu__irqc *ic, struct dmaemu__sctx *c,
		    pthread_cond_t *cond, const void *key, unsigned int flags,
		    const char *what)
{
	struct timespec ts;
	int ret;

	if (!c && !(flags & DMAEMU__SCHED_IDLE) &&
	    dmaemu__hang_deadline(ic->m, &ts)) {
		if (dmaemu__cond_wait_spin(cond, &ic->lock, &ic->wake, &ts) !=
		    ETIMEDOUT)
			return 0;
		dmaemu__unlock(&ic->lock);
		dmaemu__hang_report(ic->m, what, flags & DMAEMU__SCHED_KEEP);
		dmaemu__lock(&ic->lock);
		return flags & DMAEMU__SCHED_KEEP ? 0 : -EDEADLK;
	}
	if (!c) {
		(void)dmaemu__cond_wait_spin(cond, &ic->lock, &ic->wake, NULL);
		return 0;
	}
	dmaemu__unlock(&ic->lock);
	ret = dmaemu__sched_wait(c, key, DMAEMU__SCHED_NONE, flags, what);
	dmaemu__lock(&ic->lock);
	return ret;
}

/* ---------------------------------------------------------------------- */
/* The interrupt thread                                                   */
/* ---------------------------------------------------------------------- */

static bool deliverable(const struct dmaemu__irq_desc *desc)
{
	return desc->action && !desc->depth && !desc->oneshot &&
	       !desc->inprogress && (desc->edge ? desc->pending : desc->level);
}

/* The next deliverable descriptor, round robin; ic->lock held. */
static struct dmaemu__irq_desc *pick(struct dmaemu__irqc *ic)
{
	size_t i, j;

	for (i = 0; i < ic->n; i++) {
		j = (ic->next + i) % ic->n;
		if (deliverable(ic->desc[j])) {
			ic->next = j + 1;
			return ic->desc[j];
		}
	}
	return NULL;
}

static bool irqs_off(struct dmaemu_machine *m)
{
	return __atomic_load_n(&m->irqs_off, __ATOMIC_SEQ_CST);
}

/*
 * Interrupts are off (ic->lock held): wait until they may be back on.
 * Mostly they come back at the end of a short critical section
 * (spin_unlock_irqrestore()), so the thread first looks again a few
 * times, giving its CPU away, and only then polls every GATE_POLL_NS.
 */
static void gate_wait(struct dmaemu__irqc *ic)
{
	struct timespec ts;
	unsigned int i;
	uint64_t ns;

	if (ic->sctx) {
		(void)ic_sleep(ic, ic->sctx, &ic->cond, &ic->m->irqs_off,
			       DMAEMU__SCHED_IDLE, "irqs off");
		return;
	}
	dmaemu__unlock(&ic->lock);
	for (i = 0; i < GATE_YIELDS && irqs_off(ic->m); i++)
		sched_yield();
	dmaemu__lock(&ic->lock);
	if (!irqs_off(ic->m))
		return;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	ns = (uint64_t)ts.tv_nsec + GATE_POLL_NS;
	ts.tv_sec += (time_t)(ns / 1000000000ULL);
	ts.tv_nsec = (long)(ns % 1000000000ULL);
	pthread_cond_timedwait(&ic->cond, &ic->lock, &ts);
}

/*
 * Where @ac's handler is (@fn) and where it was requested (@req), each
 * 256 bytes, "" when unknown: the places an irq report names.
 */
static void action_where(const struct irq_action *ac, char fn[256],
			 char req[256])
{
	fn[0] = req[0] = '\0';
	if (ac->handler)
		/* A function's address: symbolized as a return address
		 * one byte past it. */
		dmaemu__code_where((const char *)(uintptr_t)ac->handler + 1, fn,
				   256);
	if (ac->site)
		dmaemu__code_where(ac->site, req, 256);
}

/*
 * The unhandled-irq report of @desc, whose handler @ac (which stays until
 * the report is made: device destroy waits for the delivery) returned
 * IRQ_NONE too often.  It names the handler, where it was requested and
 * the driver's last register write to the device, which made it raise
 * the line (the report's place; the handler's when there was none).
 */
static void report_unhandled(struct dmaemu__irqc *ic,
			     struct dmaemu__irq_desc *desc,
			     const struct irq_action *ac)
{
	struct dmaemu__report_info r = {.kind = DMAEMU_REPORT_UNHANDLED_IRQ,
					.device = desc->dev->name};
	char fn[256], req[256], bell[400], where[256];

	action_where(ac, fn, req);
	if (dmaemu__device_last_write(desc->dev, bell, sizeof(bell), where,
				      sizeof(where)))
		r.where = where;
	else if (fn[0])
		r.where = fn;
	dmaemu__report(ic->m, &r,
		       "irq %u: nobody cared: handler '%s' returned "
		       "IRQ_NONE %d times in a row; disabling the irq\n"
		       "    line %u of device %s; handler %s, requested at "
		       "%s%s",
		       desc->irq, ac->name ? ac->name : "", UNHANDLED_LIMIT,
		       desc->line, desc->dev->name,
		       fn[0] ? fn : "(threaded only)", req[0] ? req : "?",
		       bell);
}

/* Run the pending softirqs (ic->lock held, dropped meanwhile). */
static void run_softirqs(struct dmaemu__irqc *ic)
{
	dmaemu__unlock(&ic->lock);
	dmaemu__do_softirq(ic->m);
	dmaemu__lock(&ic->lock);
}

/*
 * The irq-storm report of @desc, whose handler @ac ran @runs times while
 * the line stayed asserted, with @writes register writes to the device
 * meanwhile.  It names the irq, the handler (the report's place), the
 * device and the register: the one that lowered the line before, else
 * the last one written, else none was.
 */
static void report_storm(struct dmaemu__irqc *ic,
			 const struct dmaemu__irq_desc *desc,
			 const struct irq_action *ac, unsigned int runs,
			 uint64_t writes, bool acked, uint64_t ack_off,
			 const void *ack_site)
{
	struct dmaemu__report_info r = {.kind = DMAEMU_REPORT_IRQ_STORM,
					.device = desc->dev->name};
	char fn[256], req[256], ack[256], bell[400], where[256], reg[700];

	ack[0] = '\0';
	action_where(ac, fn, req);
	if (acked && ack_site)
		dmaemu__code_where(ack_site, ack, sizeof(ack));
	r.where = fn[0] ? fn : req[0] ? req : NULL;
	if (acked)
		snprintf(reg, sizeof(reg),
			 "\n    the handler did not write register 0x%llx of "
			 "%s, "
			 "whose write lowered the line before%s%s",
			 (unsigned long long)ack_off, desc->dev->name,
			 ack[0] ? ", at " : "", ack);
	else if (!writes)
		snprintf(reg, sizeof(reg),
			 "\n    no register of %s was written meanwhile: the "
			 "handler must acknowledge the interrupt (write the "
			 "device's status or acknowledge register) so that "
			 "the device lowers the line",
			 desc->dev->name);
	else
		reg[0] = '\0';
	if (writes && dmaemu__device_last_write(desc->dev, bell, sizeof(bell),
						where, sizeof(where)))
		snprintf(reg + strlen(reg), sizeof(reg) - strlen(reg),
			 "\n    %llu register writes to %s meanwhile, none "
			 "of which lowered the line%s",
			 (unsigned long long)writes, desc->dev->name, bell);
	dmaemu__report(ic->m, &r,
		       "irq %u: interrupt storm: handler '%s' ran %u times "
		       "while line %u of device %s stayed asserted; "
		       "disabling the irq\n"
		       "    handler %s, requested at %s%s",
		       desc->irq, ac->name ? ac->name : "", runs, desc->line,
		       desc->dev->name, fn[0] ? fn : "(threaded only)",
		       req[0] ? req : "?", reg);
}

static void *irq_thread(void *arg)
{
	struct dmaemu__irqc *ic = arg;
	struct dmaemu__irq_desc *desc;
	struct irq_action *ac;
	irqreturn_t ret;
	unsigned long flags;
	bool nobody, storm, acked = false, yielded = false;
	unsigned int runs = 0, limit = ic->m->opt.irq_storm;
	uint64_t writes = 0, ack_off = 0;
	const void *ack_site = NULL;

	dmaemu__sched_start(ic->sctx);
	dmaemu__trace_thread("irq", "irq");
	dmaemu__lock(&ic->lock);
	while (!ic->stop) {
		desc = pick(ic);
		if (!desc && dmaemu__softirq_pending(ic->m)) {
			/* Raised from another thread: run them now, as
			 * 4.14's ksoftirqd would. */
			if (irqs_off(ic->m)) {
				gate_wait(ic);
				continue;
			}
			run_softirqs(ic);
			continue;
		}
		if (!desc) {
			(void)ic_sleep(ic, ic->sctx, &ic->cond, ic,
				       DMAEMU__SCHED_IDLE, "irq idle");
			continue;
		}
		if (irqs_off(ic->m)) {
			gate_wait(ic);
			continue;
		}
		if (ic->sctx && !yielded) {
			/* Lockstep: the delivery is a point; look again. */
			dmaemu__unlock(&ic->lock);
			dmaemu__sched_point(ic->m, "irq delivery");
			dmaemu__lock(&ic->lock);
			yielded = true;
			continue;
		}
		yielded = false;
		desc->inprogress = true;
		desc->pending = false;
		if (!desc->edge && !desc->storm++)
			desc->storm_writes = __atomic_load_n(
				&desc->dev->reg_writes, __ATOMIC_RELAXED);
		ac = desc->action;
		dmaemu__unlock(&ic->lock);

		dmaemu__trace(ic->m, DMAEMU__TRACE_IRQ, "irq_handler_entry",
			      "irq=%u name=%s", desc->irq,
			      ac->name ? ac->name : "");
		dmaemu_enter_irq();
		flags = dmaemu_irq_save();
		ret = ac->handler ? ac->handler((int)desc->irq, ac->dev_id)
				  : IRQ_WAKE_THREAD;
		dmaemu_irq_restore(flags);
		(void)dmaemu_exit_irq();
		dmaemu__trace(ic->m, DMAEMU__TRACE_IRQ, "irq_handler_exit",
			      "irq=%u ret=%s", desc->irq,
			      ret & IRQ_WAKE_THREAD ? "wake_thread"
			      : ret & IRQ_HANDLED   ? "handled"
						    : "unhandled");

		nobody = storm = false;
		dmaemu__lock(&ic->lock);
		if ((ret & IRQ_WAKE_THREAD) && ac->thread_fn) {
			ac->wake = true;
			if (ac->flags & IRQF_ONESHOT)
				desc->oneshot = true;
			kick(ic, &ac->cond, ac);
		}
		if (ret == IRQ_NONE && ++desc->unhandled >= UNHANDLED_LIMIT) {
			desc->unhandled = 0;
			desc->depth++;
			nobody = true;
		} else if (ret != IRQ_NONE) {
			desc->unhandled = 0;
		}
		if (!nobody && limit && !desc->edge && desc->level &&
		    desc->storm >= limit) {
			runs = desc->storm;
			writes = __atomic_load_n(&desc->dev->reg_writes,
						 __ATOMIC_RELAXED) -
				 desc->storm_writes;
			acked = desc->acked;
			ack_off = desc->ack_off;
			ack_site = desc->ack_site;
			desc->storm = 0;
			desc->depth++;
			storm = true;
		}
		desc->inprogress = false;
		kick(ic, &ic->sync, ic);
		if (nobody || storm) {
			dmaemu__unlock(&ic->lock);
			if (nobody)
				report_unhandled(ic, desc, ac);
			else
				report_storm(ic, desc, ac, runs, writes, acked,
					     ack_off, ack_site);
			dmaemu__lock(&ic->lock);
		}
		/* irq_exit(): what the handler raised runs now, before the
		 * next hard irq (unless interrupts are off elsewhere). */
		if (dmaemu__softirq_pending(ic->m) && !irqs_off(ic->m))
			run_softirqs(ic);
	}
	dmaemu__unlock(&ic->lock);
	dmaemu__sched_exit(ic->sctx);
	return NULL;
}

/* The threaded handler of @ac: runs thread_fn in process context. */
static void *action_thread(void *arg)
{
	struct irq_action *ac = arg;
	struct dmaemu__irq_desc *desc = ac->desc;
	struct dmaemu__irqc *ic = desc->ic;

	dmaemu__sched_start(ac->sctx);
	dmaemu__lock(&ic->lock);
	for (;;) {
		while (!ac->wake && !ac->stop)
			(void)ic_sleep(ic, ac->sctx, &ac->cond, ac,
				       DMAEMU__SCHED_IDLE, "irq thread idle");
		if (!ac->wake)
			break;
		ac->wake = false;
		ac->running = true;
		dmaemu__unlock(&ic->lock);
		ac->thread_fn((int)desc->irq, ac->dev_id);
		dmaemu__lock(&ic->lock);
		ac->running = false;
		if (desc->oneshot && !ac->wake) {
			desc->oneshot = false;
			kick(ic, &ic->cond, ic);
		}
		kick(ic, &ic->sync, ic);
	}
	dmaemu__unlock(&ic->lock);
	dmaemu__sched_exit(ac->sctx);
	return NULL;
}

/* Start the interrupt thread if it is not running; ic->lock held. */
static int irq_thread_start(struct dmaemu__irqc *ic)
{
	int ret;

	if (ic->started)
		return 0;
	ret = dmaemu__sched_thread_start(ic->m, "irq", &ic->thread, irq_thread,
					 ic, &ic->sctx);
	if (ret)
		return -ret;
	ic->started = true;
	return 0;
}

int dmaemu__irq_kick_softirq(struct dmaemu_machine *m)
{
	struct dmaemu__irqc *ic = m->irqc;
	int ret;

	dmaemu__lock(&ic->lock);
	ret = ic->stop ? 0 : irq_thread_start(ic);
	if (!ret)
		kick(ic, &ic->cond, ic);
	dmaemu__unlock(&ic->lock);
	return ret;
}

bool dmaemu__irq_is_handler_thread(struct dmaemu_machine *m)
{
	struct dmaemu__irqc *ic = m ? m->irqc : NULL;
	bool self = false;
	size_t i;

	if (!ic)
		return false;
	dmaemu__lock(&ic->lock);
	if (ic->started && pthread_equal(ic->thread, pthread_self()))
		self = true;
	for (i = 0; !self && i < ic->n; i++) {
		struct irq_action *ac = ic->desc[i]->action;

		if (ac && ac->thread_fn &&
		    pthread_equal(ac->thread, pthread_self()))
			self = true;
	}
	dmaemu__unlock(&ic->lock);
	return self;
}

/* Is the calling thread running a handler of @desc?  ic->lock held. */
static bool in_own_handler(const struct dmaemu__irq_desc *desc)
{
	const struct dmaemu__irqc *ic = desc->ic;
	const struct irq_action *ac = desc->action;

	if (desc->inprogress && ic->started &&
	    pthread_equal(ic->thread, pthread_self()))
		return true;
	return ac && ac->thread_fn && pthread_equal(ac->thread, pthread_self());
}

/* ---------------------------------------------------------------------- */
/* Machine and device life                                                */
/* ---------------------------------------------------------------------- */

int dmaemu__irq_init(struct dmaemu_machine *m)
{
	struct dmaemu__irqc *ic = dmaemu__calloc(1, sizeof(*ic));
	int ret;

	if (!ic)
		return -ENOMEM;
	ic->m = m;
	ret = dmaemu__mutex_init(&ic->lock);
	if (ret)
		goto out_free;
	ret = cond_init_monotonic(&ic->cond);
	if (ret)
		goto out_mutex;
	ret = cond_init_monotonic(&ic->sync);
	if (ret)
		goto out_cond;
	ret = -dmaemu__softirq_init(m);
	if (ret)
		goto out_sync;
	dmaemu__vg_atomic(&m->irqs_off, sizeof(m->irqs_off));
	m->irqc = ic;
	return 0;

out_sync:
	pthread_cond_destroy(&ic->sync);
out_cond:
	pthread_cond_destroy(&ic->cond);
out_mutex:
	pthread_mutex_destroy(&ic->lock);
out_free:
	dmaemu__free(ic);
	return -ret;
}

void dmaemu__irq_fini(struct dmaemu_machine *m)
{
	struct dmaemu__irqc *ic = m->irqc;

	if (!ic)
		return;
	dmaemu__lock(&ic->lock);
	ic->stop = true;
	kick(ic, &ic->cond, ic);
	dmaemu__unlock(&ic->lock);
	if (ic->started)
		dmaemu__sched_thread_join(ic->thread, &ic->sctx);
	dmaemu__softirq_fini(m);
	pthread_cond_destroy(&ic->sync);
	pthread_cond_destroy(&ic->cond);
	pthread_mutex_destroy(&ic->lock);
	dmaemu__free(ic->desc);
	dmaemu__free(ic);
	m->irqc = NULL;
}

/* Take @desc out of the table and of its controller, and free it. */
static void desc_free(struct dmaemu__irq_desc *desc)
{
	struct dmaemu__irqc *ic = desc->ic;
	size_t i;

	dmaemu__lock(&table_lock);
	if (table[desc->irq - IRQ_BASE] == desc)
		table[desc->irq - IRQ_BASE] = NULL;
	dmaemu__unlock(&table_lock);
	dmaemu__lock(&ic->lock);
	for (i = 0; i < ic->n; i++) {
		if (ic->desc[i] == desc) {
			ic->desc[i] = ic->desc[--ic->n];
			break;
		}
	}
	dmaemu__unlock(&ic->lock);
	dmaemu__free(desc);
}

int dmaemu__irq_device_add(struct dmaemu_device *d)
{
	struct dmaemu__irqc *ic = d->m->irqc;
	unsigned int n = d->ops ? d->ops->nr_irqs : 0, i, k;
	struct dmaemu__irq_desc *desc;

	if (!n)
		return 0;
	d->irq = dmaemu__calloc(n, sizeof(*d->irq));
	if (!d->irq)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		desc = dmaemu__calloc(1, sizeof(*desc));
		if (!desc)
			goto out_free;
		desc->dev = d;
		desc->line = i;
		desc->edge = (d->ops->irq_edge >> i) & 1;
		desc->ic = ic;
		dmaemu__lock(&ic->lock);
		if (ic->n == ic->cap) {
			size_t cap = ic->cap ? 2 * ic->cap : 16;
			void *p = dmaemu__realloc(ic->desc,
						  cap * sizeof(*ic->desc));

			if (!p) {
				dmaemu__unlock(&ic->lock);
				dmaemu__free(desc);
				goto out_free;
			}
			ic->desc = p;
			ic->cap = cap;
		}
		dmaemu__lock(&table_lock);
		for (k = 0; k < NR_IRQS && table[k]; k++)
			;
		if (k < NR_IRQS) {
			table[k] = desc;
			desc->irq = IRQ_BASE + k;
		}
		dmaemu__unlock(&table_lock);
		if (k == NR_IRQS) {
			dmaemu__unlock(&ic->lock);
			dmaemu__free(desc);
			goto out_free;
		}
		ic->desc[ic->n++] = desc;
		dmaemu__unlock(&ic->lock);
		d->irq[i] = desc;
		d->nr_irqs = i + 1;
	}
	return 0;

out_free:
	while (d->nr_irqs)
		desc_free(d->irq[--d->nr_irqs]);
	dmaemu__free(d->irq);
	d->irq = NULL;
	return -ENOMEM;
}

/* Stop and free @ac, which is no longer reachable from its descriptor;
 * ic->lock held, dropped while its thread is joined. */
static void action_free(struct dmaemu__irqc *ic, struct irq_action *ac)
{
	if (ac->thread_fn) {
		ac->stop = true;
		kick(ic, &ac->cond, ac);
		dmaemu__unlock(&ic->lock);
		dmaemu__sched_thread_join(ac->thread, &ac->sctx);
		dmaemu__lock(&ic->lock);
		pthread_cond_destroy(&ac->cond);
	}
	dmaemu__free(ac);
}

/*
 * Remove the action of @desc: wait for its hard handler to finish, stop
 * its thread (a threaded handler in progress finishes), free it.
 * ic->lock held.  Return: the action's name.
 */
static const char *remove_action(struct dmaemu__irq_desc *desc)
{
	struct dmaemu__irqc *ic = desc->ic;
	struct irq_action *ac = desc->action;
	const char *name = ac->name;

	desc->action = NULL;
	/* The action is freed next: a hung handler is waited for. */
	while (desc->inprogress)
		if (ic_sleep(ic, dmaemu__sched_self(ic->m), &ic->sync, ic,
			     DMAEMU__SCHED_KEEP, "free_irq()"))
			break;
	desc->oneshot = false;
	desc->depth = 0;
	action_free(ic, ac);
	return name;
}

void dmaemu__irq_device_release(struct dmaemu_device *d, const char *when)
{
	unsigned int i;

	for (i = 0; i < d->nr_irqs; i++) {
		struct dmaemu__irq_desc *desc = d->irq[i];
		struct dmaemu__irqc *ic = desc->ic;
		const char *name;

		dmaemu__lock(&ic->lock);
		if (!desc->action) {
			dmaemu__unlock(&ic->lock);
			continue;
		}
		name = remove_action(desc);
		dmaemu__unlock(&ic->lock);
		dmaemu__reportf(d->m, DMAEMU_REPORT_LEAKED_IRQ, 0, 0,
				"irq %u (line %u of %s) still has handler "
				"'%s' after %s: free_irq() it; freed now",
				desc->irq, i, d->name, name ? name : "", when);
	}
}

void dmaemu__irq_device_quiesce(struct dmaemu_device *d)
{
	unsigned int i;

	for (i = 0; i < d->nr_irqs; i++) {
		struct dmaemu__irqc *ic = d->irq[i]->ic;

		dmaemu__lock(&ic->lock);
		d->irq[i]->level = false;
		d->irq[i]->pending = false;
		dmaemu__unlock(&ic->lock);
	}
}

void dmaemu__irq_device_del(struct dmaemu_device *d)
{
	unsigned int i;

	dmaemu__irq_device_quiesce(d);
	dmaemu__irq_device_release(d, "the device was destroyed");
	for (i = 0; i < d->nr_irqs; i++)
		desc_free(d->irq[i]);
	dmaemu__free(d->irq);
	d->irq = NULL;
	d->nr_irqs = 0;
}

/* ---------------------------------------------------------------------- */
/* Device side                                                            */
/* ---------------------------------------------------------------------- */

static struct dmaemu__irq_desc *line_of(struct dmaemu_device *d,
					unsigned int line, const char *fn)
{
	struct dmaemu_device *live = dmaemu__device_alive(d) ? d : NULL;

	if (live && line < live->nr_irqs)
		return live->irq[line];
	dmaemu__reportf(live ? live->m : NULL, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
			"%s(%s, %u): %s", fn, live ? live->name : "", line,
			!d	? "NULL device"
			: !live ? "not a live device"
				: "the device has no such interrupt line");
	return NULL;
}

static int set_line(struct dmaemu_device *d, unsigned int line, bool up,
		    const char *fn)
{
	struct dmaemu__irq_desc *desc = line_of(d, line, fn);
	struct dmaemu__irqc *ic;
	const void *site = NULL;
	uint64_t off = 0;
	bool wake, ack;

	if (!desc)
		return -EINVAL;
	ack = !up && dmaemu__device_writing(d, &off, &site);
	/* The interrupt goes behind the device's posted writes (an MSI is
	 * one more posted write): the handler sees what they wrote. */
	if (up)
		dmaemu__pw_drain(d);
	ic = desc->ic;
	if (up)
		DMAEMU__STAT_ADD(&d->stats, irqs, 1);
	dmaemu__trace(ic->m, DMAEMU__TRACE_IRQ, up ? "irq_raise" : "irq_lower",
		      "dev=%s line=%u irq=%u", d->dev.init_name, line,
		      desc->irq);
	dmaemu__lock(&ic->lock);
	/* On an edge line every raise is an edge, lowered or not. */
	if (up && desc->edge)
		desc->pending = true;
	if (!up)
		desc->storm = 0;
	if (ack && desc->level) {
		desc->acked = true;
		desc->ack_off = off;
		desc->ack_site = site;
	}
	desc->level = up;
	wake = deliverable(desc);
	if (wake) {
		dmaemu__sched_wake(ic);
		dmaemu__wake_seq(&ic->wake);
		dmaemu__unlock_wake(&ic->lock, &ic->cond);
	} else {
		dmaemu__unlock(&ic->lock);
	}
	return 0;
}

int dmaemu_raise_irq(struct dmaemu_device *d, unsigned int line)
{
	return set_line(d, line, true, "dmaemu_raise_irq");
}

int dmaemu_lower_irq(struct dmaemu_device *d, unsigned int line)
{
	return set_line(d, line, false, "dmaemu_lower_irq");
}

int dmaemu_device_irq(struct dmaemu_device *d, unsigned int line)
{
	struct dmaemu_device *live = dmaemu__device_alive(d) ? d : NULL;

	if (!live || line >= live->nr_irqs)
		return -EINVAL;
	return (int)live->irq[line]->irq;
}

/* ---------------------------------------------------------------------- */
/* Driver side                                                            */
/* ---------------------------------------------------------------------- */

int request_threaded_irq(unsigned int irq, irq_handler_t handler,
			 irq_handler_t thread_fn, unsigned long flags,
			 const char *name, void *dev_id)
{
	struct dmaemu__irq_desc *desc;
	struct dmaemu__irqc *ic;
	struct irq_action *ac;
	const char *why = NULL;
	int ret;

	dmaemu_might_sleep("request_irq()");
	desc = desc_of(irq, "request_irq");
	if (!desc)
		return -EINVAL;
	ic = desc->ic;
	if (!handler && !thread_fn)
		why = "no handler and no thread_fn";
	else if (!handler && !(flags & IRQF_ONESHOT))
		why = "threaded irq requested with handler=NULL and "
		      "!IRQF_ONESHOT";
	if (why) {
		dmaemu__reportf(ic->m, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"request_irq(%u, '%s'): %s", irq,
				name ? name : "", why);
		return -EINVAL;
	}
	ac = dmaemu__calloc(1, sizeof(*ac));
	if (!ac)
		return -ENOMEM;
	ac->handler = handler;
	ac->thread_fn = thread_fn;
	ac->flags = flags;
	ac->name = name;
	ac->dev_id = dev_id;
	/* request_irq() is always inlined: this is the driver's line. */
	ac->site = __builtin_return_address(0);
	ac->desc = desc;
	if (thread_fn && pthread_cond_init(&ac->cond, NULL)) {
		dmaemu__free(ac);
		return -ENOMEM;
	}

	dmaemu__lock(&ic->lock);
	if (desc->action) {
		const char *other = desc->action->name;

		dmaemu__unlock(&ic->lock);
		dmaemu__reportf(ic->m, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"request_irq(%u, '%s'): the irq has a handler "
				"('%s') already",
				irq, name ? name : "", other ? other : "");
		ret = -EBUSY;
		goto out_free;
	}
	ret = irq_thread_start(ic);
	if (!ret && thread_fn)
		ret = -dmaemu__sched_thread_start(
			ic->m, name ? name : "irq thread", &ac->thread,
			action_thread, ac, &ac->sctx);
	if (ret) {
		dmaemu__unlock(&ic->lock);
		ret = -ENOMEM;
		goto out_free;
	}
	desc->pending = false;
	desc->unhandled = 0;
	desc->oneshot = false;
	desc->depth = (flags & DMAEMU_IRQF_NO_AUTOEN) ? 1 : 0;
	desc->action = ac;
	if (deliverable(desc))
		kick(ic, &ic->cond, ic);
	dmaemu__unlock(&ic->lock);
	return 0;

out_free:
	if (thread_fn)
		pthread_cond_destroy(&ac->cond);
	dmaemu__free(ac);
	return ret;
}

const void *free_irq(unsigned int irq, void *dev_id)
{
	struct dmaemu__irq_desc *desc;
	struct dmaemu__irqc *ic;
	const char *why = NULL;
	const char *name;

	dmaemu_might_sleep("free_irq()");
	desc = desc_of(irq, "free_irq");
	if (!desc)
		return NULL;
	ic = desc->ic;
	dmaemu__lock(&ic->lock);
	if (!desc->action || desc->action->dev_id != dev_id)
		why = "trying to free an irq that has no handler with this "
		      "dev_id (already free?)";
	else if (in_own_handler(desc))
		why = "called from a handler of that irq, which it would "
		      "wait for";
	if (why) {
		dmaemu__unlock(&ic->lock);
		dmaemu__reportf(ic->m, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"free_irq(%u, %p): %s", irq, dev_id, why);
		return NULL;
	}
	name = remove_action(desc);
	dmaemu__unlock(&ic->lock);
	return name;
}

/* Wait for the handlers of @desc; ic->lock held.  Reports a wait on
 * itself (a handler synchronizing its own irq) and returns instead. */
static void wait_handlers(struct dmaemu__irq_desc *desc, const char *fn)
{
	struct dmaemu__irqc *ic = desc->ic;
	struct irq_action *ac;

	if (in_own_handler(desc)) {
		unsigned int irq = desc->irq;

		dmaemu__unlock(&ic->lock);
		dmaemu__reportf(ic->m, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"%s(%u): called from a handler of that irq, "
				"which it would wait for forever "
				"(use disable_irq_nosync())",
				fn, irq);
		dmaemu__lock(&ic->lock);
		return;
	}
	for (;;) {
		ac = desc->action;
		if (!desc->inprogress &&
		    !(ac && ac->thread_fn && (ac->wake || ac->running)))
			break;
		if (ic_sleep(ic, dmaemu__sched_self(ic->m), &ic->sync, ic, 0,
			     fn))
			break;
	}
}

void synchronize_irq(unsigned int irq)
{
	DMAEMU__API_CALL(call, "synchronize_irq");
	struct dmaemu__irq_desc *desc;

	dmaemu_might_sleep("synchronize_irq()");
	desc = desc_of(irq, "synchronize_irq");
	if (!desc)
		return;
	dmaemu__lock(&desc->ic->lock);
	wait_handlers(desc, "synchronize_irq");
	dmaemu__unlock(&desc->ic->lock);
}

void disable_irq_nosync(unsigned int irq)
{
	struct dmaemu__irq_desc *desc = desc_of(irq, "disable_irq_nosync");

	if (!desc)
		return;
	dmaemu__lock(&desc->ic->lock);
	desc->depth++;
	dmaemu__unlock(&desc->ic->lock);
}

void disable_irq(unsigned int irq)
{
	DMAEMU__API_CALL(call, "disable_irq");
	struct dmaemu__irq_desc *desc;

	dmaemu_might_sleep("disable_irq()");
	desc = desc_of(irq, "disable_irq");
	if (!desc)
		return;
	dmaemu__lock(&desc->ic->lock);
	desc->depth++;
	wait_handlers(desc, "disable_irq");
	dmaemu__unlock(&desc->ic->lock);
}

void enable_irq(unsigned int irq)
{
	struct dmaemu__irq_desc *desc = desc_of(irq, "enable_irq");
	bool unbalanced;

	if (!desc)
		return;
	dmaemu__lock(&desc->ic->lock);
	unbalanced = !desc->depth;
	if (!unbalanced && !--desc->depth && deliverable(desc))
		kick(desc->ic, &desc->ic->cond, desc->ic);
	dmaemu__unlock(&desc->ic->lock);
	if (unbalanced)
		dmaemu__reportf(desc->ic->m, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"enable_irq(%u): unbalanced enable (the irq "
				"is not disabled)",
				irq);
}

/* 4.14's kernel/irq/devres.c: the release and match of devm_request_irq()'s
 * resource (<linux/interrupt.h>). */
void devm_irq_release(struct device *dev, void *res)
{
	struct irq_devres *this = res;

	(void)dev;
	if (!this) {
		dmaemu__reportf(NULL, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"devm_irq_release(NULL): no resource");
		return;
	}
	free_irq(this->irq, this->dev_id);
}

int devm_irq_match(struct device *dev, void *res, void *data)
{
	struct irq_devres *this = res, *match = data;

	(void)dev;
	if (!this || !match) {
		dmaemu__reportf(NULL, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"devm_irq_match(): NULL %s",
				this ? "match data" : "resource");
		return 0;
	}
	return this->irq == match->irq && this->dev_id == match->dev_id;
}
