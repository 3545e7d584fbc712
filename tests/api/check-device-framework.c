// SPDX-License-Identifier: MIT
/*
 * check-device-framework.c - the device framework through the public
 * headers only (linked against lib/libdmaemu.la): model threads woken by
 * doorbells and timers, reset and shutdown, level and edge interrupts,
 * masking, interrupts held off by a spinlock taken with interrupts off,
 * hardirq context, threaded handlers, the platform bus, the kernel's
 * sleeping primitives, and bad arguments reported instead of crashing.
 *
 * The test model: registers 0x0 DOORBELL (a write rings the doorbell),
 * 0x4 RUNS (calls of run so far); run counts its calls and the events it
 * was given, and in "busy" mode works until dmaemu_device_stopping().
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include <dmaemu/context.h>
#include <dmaemu/device.h>
#include <dmaemu/machine.h>
#include <dmaemu/report.h>
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/jiffies.h>
#include <linux/mutex.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include "check-run.h"
#include "threads.h"

#define REG_DOORBELL 0x0
#define REG_RUNS 0x4

/* Wait up to 10 s (Valgrind is slow) for @cond, polling every ms. */
#define WAIT_FOR(cond) WAIT_UNTIL(cond, 10000)

struct tdev {
	counter_t runs, doorbells, timers, resets, stopped_early;
	counter_t busy;	   /* run works until stopping */
	counter_t in_run;  /* run is running */
	uint64_t timer_ns; /* run arms the timer once, when non-zero */
};

static uint64_t tdev_read(struct dmaemu_device *dev, uint64_t off,
			  unsigned int size)
{
	struct tdev *t = dmaemu_device_priv(dev);

	return off == REG_RUNS ? (uint64_t)cget(&t->runs) : 0;
}

static void tdev_write(struct dmaemu_device *dev, uint64_t off, uint64_t val,
		       unsigned int size)
{
	if (off == REG_DOORBELL)
		dmaemu_device_doorbell(dev);
}

static void tdev_run(struct dmaemu_device *dev, unsigned int events)
{
	struct tdev *t = dmaemu_device_priv(dev);

	cset(&t->in_run, 1);
	cinc(&t->runs);
	if (events & DMAEMU_DEVICE_DOORBELL)
		cinc(&t->doorbells);
	if (events & DMAEMU_DEVICE_TIMER)
		cinc(&t->timers);
	if (t->timer_ns && (events & DMAEMU_DEVICE_DOORBELL))
		dmaemu_device_timer_arm(dev, t->timer_ns);
	while (cget(&t->busy)) {
		if (dmaemu_device_stopping(dev)) {
			cinc(&t->stopped_early);
			break;
		}
		udelay(50);
	}
	cset(&t->in_run, 0);
}

static void tdev_reset(struct dmaemu_device *dev)
{
	struct tdev *t = dmaemu_device_priv(dev);

	cinc(&t->resets);
	cset(&t->busy, 0);
}

static const struct dmaemu_device_ops tdev_ops = {
	.mmio_size = 8,
	.mmio_read = tdev_read,
	.mmio_write = tdev_write,
	.run = tdev_run,
	.reset = tdev_reset,
	.nr_irqs = 2,
	.irq_edge = 0x2, /* line 0 level, line 1 edge */
};

static struct dmaemu_machine *machine(void)
{
	struct dmaemu_machine *m =
		dmaemu_machine_create("profile=arm64:log_path=/dev/null");

	ck_assert_ptr_nonnull(m);
	return m;
}

static uint64_t reports(struct dmaemu_machine *m, const char *kind)
{
	return dmaemu_report_count(m, kind);
}

/* ---------------------------------------------------------------------- */
/* Threads                                                                */
/* ---------------------------------------------------------------------- */

/* A register write rings the doorbell: run is called on another thread. */
START_TEST(test_doorbell)
{
	struct dmaemu_machine *m = machine();
	struct tdev t = {0};
	struct dmaemu_device *d = dmaemu_device_create(m, "t0", &tdev_ops, &t);
	void *regs;
	int i;

	ck_assert_ptr_nonnull(d);
	regs = dmaemu_device_regs(d);
	ck_assert_int_eq(cget(&t.runs), 0);
	writel(1, regs + REG_DOORBELL);
	WAIT_FOR(cget(&t.doorbells) == 1);
	/* Every doorbell is seen; those during a run merge into one call. */
	for (i = 0; i < 20; i++)
		writel(1, regs + REG_DOORBELL);
	WAIT_FOR(cget(&t.in_run) == 0 && cget(&t.runs) >= 2);
	ck_assert_int_le(cget(&t.runs), 21);
	ck_assert_uint_ge(readl(regs + REG_RUNS), 2);
	ck_assert_int_eq(cget(&t.timers), 0);
	dmaemu_device_destroy(d);
	ck_assert_uint_eq(reports(m, NULL), 0);
	dmaemu_machine_destroy(m);
}
END_TEST

/* The model's timer wakes run after the delay, in emulated time. */
START_TEST(test_timer)
{
	struct dmaemu_machine *m = machine();
	struct tdev t = {.timer_ns = 20000000}; /* 20 ms */
	struct dmaemu_device *d = dmaemu_device_create(m, "t0", &tdev_ops, &t);
	uint64_t t0;

	ck_assert_ptr_nonnull(d);
	t0 = dmaemu_time_ns();
	ck_assert_int_eq(dmaemu_device_doorbell(d), 0);
	WAIT_FOR(cget(&t.timers) == 1);
	ck_assert_uint_ge(dmaemu_time_ns() - t0, 20000000);

	/* A cancelled timer does not fire. */
	ck_assert_int_eq(dmaemu_device_timer_arm(d, 30000000), 0);
	ck_assert_int_eq(dmaemu_device_timer_cancel(d), 1);
	ck_assert_int_eq(dmaemu_device_timer_cancel(d), 0);
	msleep(60);
	ck_assert_int_eq(cget(&t.timers), 1);
	dmaemu_device_destroy(d);
	ck_assert_uint_eq(reports(m, NULL), 0);
	dmaemu_machine_destroy(m);
}
END_TEST

/* Reset waits for a run in progress (which sees stopping), calls reset. */
START_TEST(test_reset_mid_run)
{
	struct dmaemu_machine *m = machine();
	struct tdev t = {0};
	struct dmaemu_device *d = dmaemu_device_create(m, "t0", &tdev_ops, &t);

	ck_assert_ptr_nonnull(d);
	cset(&t.busy, 1);
	dmaemu_device_doorbell(d);
	WAIT_FOR(cget(&t.in_run) == 1);
	ck_assert(!dmaemu_device_stopping(d));
	ck_assert_int_eq(dmaemu_device_reset(d), 0);
	ck_assert_int_eq(cget(&t.in_run), 0);
	ck_assert_int_eq(cget(&t.stopped_early), 1);
	ck_assert_int_eq(cget(&t.resets), 1);
	ck_assert(!dmaemu_device_stopping(d));
	/* The thread works again after the reset. */
	dmaemu_device_doorbell(d);
	WAIT_FOR(cget(&t.runs) == 2);
	dmaemu_device_destroy(d);
	ck_assert_uint_eq(reports(m, NULL), 0);
	dmaemu_machine_destroy(m);
}
END_TEST

static counter_t shut_irqs;

static irqreturn_t count_irq(int irq, void *dev_id)
{
	cinc(dev_id);
	return IRQ_HANDLED;
}

/*
 * Destroy with work pending: a run in progress, a doorbell queued, the
 * timer armed, a level irq asserted with its handler still requested.
 * The thread stops, the handler left is a leaked-irq report, and the
 * machine's interrupt thread stops at machine destroy.
 */
START_TEST(test_shutdown_pending)
{
	struct dmaemu_machine *m = machine();
	struct tdev t = {0};
	struct dmaemu_device *d = dmaemu_device_create(m, "t0", &tdev_ops, &t);
	int irq;

	ck_assert_ptr_nonnull(d);
	irq = dmaemu_device_irq(d, 1);
	ck_assert_int_gt(irq, 0);
	cset(&shut_irqs, 0);
	ck_assert_int_eq(
		request_irq((unsigned int)irq, count_irq, 0, "t0", &shut_irqs),
		0);
	cset(&t.busy, 1);
	dmaemu_device_doorbell(d);
	WAIT_FOR(cget(&t.in_run) == 1);
	dmaemu_device_doorbell(d);
	dmaemu_device_timer_arm(d, 1000000000);
	dmaemu_raise_irq(d, 0);
	dmaemu_raise_irq(d, 1);
	dmaemu_device_destroy(d);
	ck_assert_int_eq(cget(&t.stopped_early), 1);
	ck_assert_int_eq(cget(&t.in_run), 0);
	ck_assert_uint_eq(reports(m, "leaked-irq"), 1);
	ck_assert_uint_eq(reports(m, NULL), 1);
	dmaemu_machine_destroy(m);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Interrupts                                                             */
/* ---------------------------------------------------------------------- */

/*
 * Managed interrupts (4.14's kernel/irq/devres.c): the handler runs, the
 * device's managed resources free it (then the line can be requested
 * again), devm_free_irq() frees it now, a devm_free_irq() of an irq that
 * is not managed warns as 4.14 does and still frees it, and a device
 * destroyed with its managed irq leaves no leaked-irq report.
 */
static counter_t devm_irqs;

START_TEST(test_devm_irq)
{
	struct dmaemu_machine *m = machine();
	struct tdev t = {0};
	struct dmaemu_device *d = dmaemu_device_create(m, "t0", &tdev_ops, &t);
	struct device *dev;
	unsigned int irq;

	ck_assert_ptr_nonnull(d);
	dev = dmaemu_device_to_dev(d);
	irq = (unsigned int)dmaemu_device_irq(d, 1); /* edge */
	cset(&devm_irqs, 0);
	ck_assert_int_eq(
		devm_request_irq(dev, irq, count_irq, 0, NULL, &devm_irqs), 0);
	dmaemu_raise_irq(d, 1);
	WAIT_FOR(cget(&devm_irqs) == 1);
	/* Taken: a second request is -EBUSY (and reported). */
	ck_assert_int_eq(request_irq(irq, count_irq, 0, "t0", &t), -EBUSY);
	ck_assert_uint_eq(reports(m, NULL), 1);
	ck_assert_int_eq(devres_release_all(dev), 1);
	ck_assert_int_eq(request_irq(irq, count_irq, 0, "t0", &t), 0);
	ck_assert_ptr_nonnull(free_irq(irq, &t));

	ck_assert_int_eq(
		devm_request_irq(dev, irq, count_irq, 0, "t0", &devm_irqs), 0);
	devm_free_irq(dev, irq, &devm_irqs);
	ck_assert_int_eq(devres_release_all(dev), 0); /* nothing left */
	ck_assert_int_eq(request_irq(irq, count_irq, 0, "t0", &t), 0);
	ck_assert_uint_eq(reports(m, NULL), 1);
	/* Not managed: 4.14's warning (and devres_destroy()'s report of
	 * the missing resource); the handler is freed all the same. */
	devm_free_irq(dev, irq, &t);
	ck_assert_uint_eq(reports(m, "kernel-warning"), 1);
	ck_assert_uint_eq(reports(m, "bad-argument"), 2);
	ck_assert_int_eq(request_irq(irq, count_irq, 0, "t0", &t), 0);
	ck_assert_ptr_nonnull(free_irq(irq, &t));

	ck_assert_int_eq(
		devm_request_irq(dev, irq, count_irq, 0, "t0", &devm_irqs), 0);
	dmaemu_device_destroy(d); /* freed by its managed resource */
	ck_assert_uint_eq(reports(m, "leaked-irq"), 0);
	ck_assert_uint_eq(reports(m, NULL), 3);
	dmaemu_machine_destroy(m);
}
END_TEST

struct irqctx {
	struct dmaemu_device *d;
	counter_t calls;
	counter_t lower;	/* the handler lowers line 0 */
	counter_t in_irq_ok;	/* in_irq() && irqs_disabled() held */
	counter_t alloc_kernel; /* the handler calls kmalloc(GFP_KERNEL) */
	struct completion done;
};

static irqreturn_t level_handler(int irq, void *dev_id)
{
	struct irqctx *c = dev_id;

	if (in_irq() && in_interrupt() && in_atomic() && irqs_disabled())
		cinc(&c->in_irq_ok);
	if (cget(&c->alloc_kernel)) {
		kfree(kmalloc(32, GFP_KERNEL));
		kfree(kmalloc(32, GFP_ATOMIC));
	}
	cinc(&c->calls);
	if (cget(&c->lower))
		dmaemu_lower_irq(c->d, 0);
	complete(&c->done);
	return IRQ_HANDLED;
}

static void irqctx_init(struct irqctx *c, struct dmaemu_device *d)
{
	memset(c, 0, sizeof(*c));
	c->d = d;
	init_completion(&c->done);
}

/* A level line: the handler runs in hardirq context, and again while the
 * line stays up; lowering it in the handler stops it. */
START_TEST(test_level_irq)
{
	struct dmaemu_machine *m = machine();
	struct tdev t = {0};
	struct dmaemu_device *d = dmaemu_device_create(m, "t0", &tdev_ops, &t);
	struct irqctx c;
	unsigned int irq;

	ck_assert_ptr_nonnull(d);
	irqctx_init(&c, d);
	irq = (unsigned int)dmaemu_device_irq(d, 0);
	ck_assert_int_eq(request_irq(irq, level_handler, 0, "lvl", &c), 0);

	cset(&c.lower, 1);
	dmaemu_raise_irq(d, 0);
	ck_assert_uint_gt(wait_for_completion_timeout(&c.done, 10 * HZ), 0);
	synchronize_irq(irq);
	ck_assert_int_eq(cget(&c.calls), 1);
	ck_assert_int_eq(cget(&c.in_irq_ok), 1);

	/* Held up: the handler runs again and again until lowered. */
	cset(&c.lower, 0);
	dmaemu_raise_irq(d, 0);
	WAIT_FOR(cget(&c.calls) >= 5);
	dmaemu_lower_irq(d, 0);
	synchronize_irq(irq);
	ck_assert_int_eq(cget(&c.calls), cget(&c.in_irq_ok));
	ck_assert_str_eq((const char *)free_irq(irq, &c), "lvl");
	dmaemu_device_destroy(d);
	ck_assert_uint_eq(reports(m, NULL), 0);
	dmaemu_machine_destroy(m);
}
END_TEST

/* An edge line: one handler call per edge; edges while masked are latched
 * into one interrupt, delivered at enable_irq(). */
START_TEST(test_edge_irq_masked)
{
	struct dmaemu_machine *m = machine();
	struct tdev t = {0};
	struct dmaemu_device *d = dmaemu_device_create(m, "t0", &tdev_ops, &t);
	struct irqctx c;
	unsigned int irq;
	int i;

	ck_assert_ptr_nonnull(d);
	irqctx_init(&c, d);
	irq = (unsigned int)dmaemu_device_irq(d, 1);
	ck_assert_int_eq(request_irq(irq, level_handler, 0, "edge", &c), 0);
	for (i = 1; i <= 3; i++) {
		dmaemu_raise_irq(d, 1);
		ck_assert_uint_gt(wait_for_completion_timeout(&c.done, 10 * HZ),
				  0);
		synchronize_irq(irq);
		ck_assert_int_eq(cget(&c.calls), i);
	}
	/* The edge line stays "up" without a lower: no more calls. */
	msleep(20);
	ck_assert_int_eq(cget(&c.calls), 3);

	disable_irq(irq);
	disable_irq(irq); /* nests */
	dmaemu_raise_irq(d, 1);
	dmaemu_raise_irq(d, 1);
	dmaemu_lower_irq(d, 1);
	dmaemu_raise_irq(d, 1);
	msleep(20);
	ck_assert_int_eq(cget(&c.calls), 3);
	enable_irq(irq);
	msleep(20);
	ck_assert_int_eq(cget(&c.calls), 3);
	enable_irq(irq);
	ck_assert_uint_gt(wait_for_completion_timeout(&c.done, 10 * HZ), 0);
	synchronize_irq(irq);
	msleep(20);
	ck_assert_int_eq(cget(&c.calls), 4);

	disable_irq_nosync(irq);
	enable_irq(irq);
	free_irq(irq, &c);
	dmaemu_device_destroy(d);
	ck_assert_uint_eq(reports(m, NULL), 0);
	dmaemu_machine_destroy(m);
}
END_TEST

static DEFINE_SPINLOCK(shared_lock);
static counter_t in_section;
static counter_t overlaps;

static irqreturn_t locking_handler(int irq, void *dev_id)
{
	struct irqctx *c = dev_id;
	unsigned long flags;

	if (cget(&in_section))
		cinc(&overlaps);
	spin_lock_irqsave(&shared_lock, flags);
	cinc(&c->calls);
	spin_unlock_irqrestore(&shared_lock, flags);
	dmaemu_lower_irq(c->d, 0);
	return IRQ_HANDLED;
}

/* While a thread holds a spinlock with interrupts off, no handler starts
 * on its machine; it runs once the lock is released. */
START_TEST(test_irqsave_holds_off)
{
	struct dmaemu_machine *m = machine();
	struct tdev t = {0};
	struct dmaemu_device *d = dmaemu_device_create(m, "t0", &tdev_ops, &t);
	struct irqctx c;
	unsigned long flags;
	unsigned int irq;
	int round;

	ck_assert_ptr_nonnull(d);
	irqctx_init(&c, d);
	irq = (unsigned int)dmaemu_device_irq(d, 0);
	ck_assert_int_eq(request_irq(irq, locking_handler, 0, "lk", &c), 0);
	for (round = 1; round <= 3; round++) {
		spin_lock_irqsave(&shared_lock, flags);
		cset(&in_section, 1);
		ck_assert(irqs_disabled());
		ck_assert(in_atomic());
		dmaemu_raise_irq(d, 0);
		mdelay(10); /* busy: sleeping here would be a report */
		ck_assert_int_eq(cget(&c.calls), round - 1);
		cset(&in_section, 0);
		spin_unlock_irqrestore(&shared_lock, flags);
		ck_assert(!irqs_disabled());
		WAIT_FOR(cget(&c.calls) == round);
	}
	/* local_irq_save() alone holds delivery off too. */
	local_irq_save(flags);
	dmaemu_raise_irq(d, 0);
	mdelay(10);
	ck_assert_int_eq(cget(&c.calls), 3);
	local_irq_restore(flags);
	WAIT_FOR(cget(&c.calls) == 4);
	ck_assert_int_eq(cget(&overlaps), 0);
	free_irq(irq, &c);
	dmaemu_device_destroy(d);
	ck_assert_uint_eq(reports(m, NULL), 0);
	dmaemu_machine_destroy(m);
}
END_TEST

/* kmalloc(GFP_KERNEL) in a hard handler is sleep-in-atomic; GFP_ATOMIC
 * is fine. */
START_TEST(test_sleep_in_hardirq)
{
	struct dmaemu_machine *m = machine();
	struct tdev t = {0};
	struct dmaemu_device *d = dmaemu_device_create(m, "t0", &tdev_ops, &t);
	struct irqctx c;
	unsigned int irq;

	ck_assert_ptr_nonnull(d);
	irqctx_init(&c, d);
	cset(&c.lower, 1);
	cset(&c.alloc_kernel, 1);
	irq = (unsigned int)dmaemu_device_irq(d, 0);
	ck_assert_int_eq(request_irq(irq, level_handler, 0, "slp", &c), 0);
	dmaemu_raise_irq(d, 0);
	ck_assert_uint_gt(wait_for_completion_timeout(&c.done, 10 * HZ), 0);
	synchronize_irq(irq);
	ck_assert_uint_eq(reports(m, "sleep-in-atomic"), 1);
	ck_assert_uint_eq(reports(m, NULL), 1);
	free_irq(irq, &c);
	dmaemu_device_destroy(d);
	dmaemu_machine_destroy(m);
}
END_TEST

struct thr {
	struct dmaemu_device *d;
	counter_t hard, threaded, ctx_ok;
	struct mutex lock;
	struct completion done;
};

static irqreturn_t thr_hard(int irq, void *dev_id)
{
	struct thr *t = dev_id;

	cinc(&t->hard);
	dmaemu_lower_irq(t->d, 0);
	return IRQ_WAKE_THREAD;
}

static irqreturn_t thr_fn(int irq, void *dev_id)
{
	struct thr *t = dev_id;
	void *p;

	/* Process context: sleeping is allowed. */
	if (!in_interrupt() && !in_atomic() && !irqs_disabled())
		cinc(&t->ctx_ok);
	mutex_lock(&t->lock);
	p = kmalloc(64, GFP_KERNEL);
	msleep(1);
	kfree(p);
	mutex_unlock(&t->lock);
	cinc(&t->threaded);
	complete(&t->done);
	return IRQ_HANDLED;
}

/* Threaded handlers: after the hard handler, or alone with ONESHOT. */
START_TEST(test_threaded_irq)
{
	struct dmaemu_machine *m = machine();
	struct tdev td = {0};
	struct dmaemu_device *d = dmaemu_device_create(m, "t0", &tdev_ops, &td);
	struct thr t = {.d = d};
	unsigned int irq;

	ck_assert_ptr_nonnull(d);
	mutex_init(&t.lock);
	init_completion(&t.done);
	irq = (unsigned int)dmaemu_device_irq(d, 0);
	ck_assert_int_eq(
		request_threaded_irq(irq, thr_hard, thr_fn, 0, "thr", &t), 0);
	dmaemu_raise_irq(d, 0);
	ck_assert_uint_gt(wait_for_completion_timeout(&t.done, 10 * HZ), 0);
	synchronize_irq(irq);
	ck_assert_int_eq(cget(&t.hard), 1);
	ck_assert_int_eq(cget(&t.threaded), 1);
	ck_assert_int_eq(cget(&t.ctx_ok), 1);
	free_irq(irq, &t);

	/* No hard handler: IRQF_ONESHOT masks the edge line meanwhile. */
	irq = (unsigned int)dmaemu_device_irq(d, 1);
	ck_assert_int_eq(request_threaded_irq(irq, NULL, thr_fn, IRQF_ONESHOT,
					      "thr1", &t),
			 0);
	dmaemu_raise_irq(d, 1);
	ck_assert_uint_gt(wait_for_completion_timeout(&t.done, 10 * HZ), 0);
	synchronize_irq(irq);
	ck_assert_int_eq(cget(&t.threaded), 2);
	free_irq(irq, &t);
	mutex_destroy(&t.lock);
	dmaemu_device_destroy(d);
	ck_assert_uint_eq(reports(m, NULL), 0);
	dmaemu_machine_destroy(m);
}
END_TEST

static irqreturn_t none_handler(int irq, void *dev_id)
{
	cinc(dev_id);
	return IRQ_NONE;
}

/* A handler that never claims its level interrupt: "nobody cared". */
START_TEST(test_unhandled_irq)
{
	struct dmaemu_machine *m = machine();
	struct tdev t = {0};
	struct dmaemu_device *d = dmaemu_device_create(m, "t0", &tdev_ops, &t);
	counter_t calls = {0};
	unsigned int irq;

	ck_assert_ptr_nonnull(d);
	irq = (unsigned int)dmaemu_device_irq(d, 0);
	ck_assert_int_eq(request_irq(irq, none_handler, 0, "none", &calls), 0);
	dmaemu_raise_irq(d, 0);
	WAIT_FOR(reports(m, "unhandled-irq") == 1);
	synchronize_irq(irq);
	msleep(10);
	ck_assert_int_eq(cget(&calls), 100);
	free_irq(irq, &calls);
	dmaemu_device_destroy(d);
	ck_assert_uint_eq(reports(m, NULL), 1);
	dmaemu_machine_destroy(m);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Kernel primitives                                                      */
/* ---------------------------------------------------------------------- */

static DECLARE_WAIT_QUEUE_HEAD(wq);
static counter_t flag;

static void *waker(void *arg)
{
	msleep(5);
	cset(&flag, 1);
	wake_up(&wq);
	complete(arg);
	return NULL;
}

START_TEST(test_wait_primitives)
{
	struct dmaemu_machine *m = machine();
	struct completion x;
	unsigned long t0 = jiffies;
	long left;
	pthread_t th;
	DEFINE_MUTEX(mu);

	init_completion(&x);
	/* Time outs. */
	ck_assert_uint_eq(wait_for_completion_timeout(&x, msecs_to_jiffies(5)),
			  0);
	ck_assert(time_after_eq(jiffies, t0 + 5));
	cset(&flag, 0);
	ck_assert_int_eq(wait_event_timeout(wq, cget(&flag), 3), 0);
	/* A waker on another thread. */
	ck_assert_int_eq(pthread_create(&th, NULL, waker, &x), 0);
	left = wait_event_timeout(wq, cget(&flag), 10 * HZ);
	/* Woken by wake_up() 5 ms in, not by the time out (which also finds
	 * the condition true). */
	ck_assert_int_gt(left, 5 * HZ);
	wait_for_completion(&x);
	ck_assert(!completion_done(&x));
	complete(&x);
	ck_assert(completion_done(&x));
	ck_assert(try_wait_for_completion(&x));
	ck_assert(!try_wait_for_completion(&x));
	complete_all(&x);
	wait_for_completion(&x);
	wait_for_completion(&x);
	reinit_completion(&x);
	ck_assert(!completion_done(&x));
	pthread_join(th, NULL);

	/* atomic_t, on one thread. */
	{
		atomic_t a = ATOMIC_INIT(5);

		atomic_inc(&a);
		ck_assert_int_eq(atomic_read(&a), 6);
		ck_assert_int_eq(atomic_add_return(4, &a), 10);
		ck_assert_int_eq(atomic_cmpxchg(&a, 10, 1), 10);
		ck_assert(atomic_dec_and_test(&a));
		ck_assert_int_eq(atomic_xchg(&a, 3), 0);
		atomic_set(&a, -1);
		ck_assert(atomic_inc_and_test(&a));
	}

	/* Mutexes and spinlocks. */
	ck_assert_int_eq(mutex_trylock(&mu), 1);
	ck_assert(mutex_is_locked(&mu));
	ck_assert_int_eq(mutex_trylock(&mu), 0);
	mutex_unlock(&mu);
	ck_assert(!mutex_is_locked(&mu));
	spin_lock(&shared_lock);
	ck_assert(spin_is_locked(&shared_lock));
	ck_assert(in_atomic());
	spin_unlock(&shared_lock);
	ck_assert(!in_atomic());
	ck_assert_uint_eq(reports(m, NULL), 0);

	/* Sleeping with a spinlock held is reported. */
	spin_lock(&shared_lock);
	msleep(1);
	mutex_lock(&mu);
	mutex_unlock(&mu);
	spin_unlock(&shared_lock);
	ck_assert_uint_eq(reports(m, "sleep-in-atomic"), 2);
	/* Unlocking what is not held is reported, and nothing else. */
	mutex_unlock(&mu);
	spin_unlock(&shared_lock);
	ck_assert_uint_eq(reports(m, "bad-argument"), 2);
	ck_assert(!in_atomic());
	dmaemu_machine_destroy(m);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Platform bus                                                           */
/* ---------------------------------------------------------------------- */

struct pdrv_state {
	int probes, removes, fail;
	void __iomem *regs;
	int irq;
	resource_size_t mem_size;
	void *devm;
};
static struct pdrv_state ps;

static int tdrv_probe(struct platform_device *pdev)
{
	struct resource *res;

	ps.probes++;
	res = platform_get_resource(pdev, IORESOURCE_MEM, 0);
	if (!res)
		return -ENODEV;
	ps.mem_size = resource_size(res);
	ps.regs = devm_ioremap_resource(&pdev->dev, res);
	if (IS_ERR(ps.regs))
		return (int)PTR_ERR(ps.regs);
	/* devm_ioremap() and its forms give the same cookie. */
	if (devm_ioremap(&pdev->dev, res->start, resource_size(res)) !=
		    ps.regs ||
	    devm_ioremap_nocache(&pdev->dev, res->start + 4, 4) !=
		    ps.regs + 4 ||
	    devm_ioremap_wc(&pdev->dev, res->start, 4) != ps.regs)
		return -EFAULT;
	ps.irq = platform_get_irq(pdev, 1);
	if (ps.irq < 0)
		return ps.irq;
	ps.devm = devm_kzalloc(&pdev->dev, 128, GFP_KERNEL);
	if (!ps.devm)
		return -ENOMEM;
	platform_set_drvdata(pdev, &ps);
	return ps.fail ? -EIO : 0;
}

static int tdrv_remove(struct platform_device *pdev)
{
	ck_assert_ptr_eq(platform_get_drvdata(pdev), &ps);
	ps.removes++;
	return 0;
}

static struct platform_driver tdrv = {
	.probe = tdrv_probe,
	.remove = tdrv_remove,
	.driver = {.name = "test-model"},
};

static const struct dmaemu_device_ops named_ops = {
	.mmio_size = 8,
	.mmio_read = tdev_read,
	.mmio_write = tdev_write,
	.run = tdev_run,
	.nr_irqs = 2,
	.name = "test-model",
};

START_TEST(test_platform_bus)
{
	struct dmaemu_machine *m = machine();
	struct tdev t = {0};
	struct dmaemu_device *d, *e;

	memset(&ps, 0, sizeof(ps));
	d = dmaemu_device_create(m, "t0", &named_ops, &t);
	ck_assert_ptr_nonnull(d);
	/* Registering probes the device that exists. */
	ck_assert_int_eq(platform_driver_register(&tdrv), 0);
	ck_assert_int_eq(ps.probes, 1);
	ck_assert_int_eq(ps.mem_size, 8);
	ck_assert_int_eq(ps.irq, dmaemu_device_irq(d, 1));
	ck_assert_ptr_eq(ps.regs, dmaemu_device_regs(d));
	writel(1, ps.regs + REG_DOORBELL);
	WAIT_FOR(cget(&t.doorbells) == 1);
	/* A device made later is probed at create. */
	e = dmaemu_device_create(m, "t1", &named_ops, &t);
	ck_assert_ptr_nonnull(e);
	ck_assert_int_eq(ps.probes, 2);
	dmaemu_device_destroy(e);
	ck_assert_int_eq(ps.removes, 1);
	/* Unregister removes; devm memory is freed then. */
	platform_driver_unregister(&tdrv);
	ck_assert_int_eq(ps.removes, 2);
	/* A failing probe leaves the device unbound, devm memory freed. */
	ps.fail = 1;
	ck_assert_int_eq(platform_driver_register(&tdrv), 0);
	ck_assert_int_eq(ps.probes, 3);
	ck_assert_int_eq(platform_driver_register(&tdrv), -EBUSY);
	platform_driver_unregister(&tdrv);
	ck_assert_int_eq(ps.removes, 2);
	ck_assert_uint_eq(reports(m, "bad-argument"), 1);
	/* platform_driver_probe(): the device there now, none made later. */
	ps.fail = 0;
	ck_assert_int_eq(platform_driver_probe(&tdrv, tdrv_probe), 0);
	ck_assert_int_eq(ps.probes, 4);
	e = dmaemu_device_create(m, "t1", &named_ops, &t);
	ck_assert_ptr_nonnull(e);
	ck_assert_int_eq(ps.probes, 4);
	dmaemu_device_destroy(e);
	platform_driver_unregister(&tdrv);
	ck_assert_int_eq(ps.removes, 3);
	/* Nothing to bind: -ENODEV, and the driver is not registered. */
	ps.fail = 1;
	ck_assert_int_eq(platform_driver_probe(&tdrv, tdrv_probe), -ENODEV);
	ck_assert_int_eq(ps.probes, 5);
	ps.fail = 0;
	ck_assert_int_eq(platform_driver_register(&tdrv), 0); /* not -EBUSY */
	ck_assert_int_eq(ps.probes, 6);
	platform_driver_unregister(&tdrv);
	ck_assert_int_eq(platform_driver_probe(NULL, tdrv_probe), -EINVAL);
	ck_assert_uint_eq(reports(m, "bad-argument"), 2);
	/* ioremap of what no device claims fails with a report. */
	ck_assert_ptr_null(ioremap(0x1000, 4));
	ck_assert_uint_eq(reports(m, "mmio-access"), 1);
	dmaemu_device_destroy(d);
	ck_assert_uint_eq(reports(m, NULL), 3);
	dmaemu_machine_destroy(m);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Bad arguments                                                          */
/* ---------------------------------------------------------------------- */

static const struct dmaemu_device_ops norun_ops = {.nr_irqs = 1};
static const struct dmaemu_device_ops too_many_irqs = {.nr_irqs = 33};

START_TEST(test_bad_arguments)
{
	struct dmaemu_machine *m = machine();
	struct tdev t = {0};
	struct dmaemu_device *d = dmaemu_device_create(m, "t0", &tdev_ops, &t);
	struct dmaemu_device *n = dmaemu_device_create(m, "n0", &norun_ops, 0);
	counter_t calls = {0};
	unsigned int irq;
	uint64_t bad = 0;

	ck_assert_ptr_nonnull(d);
	ck_assert_ptr_nonnull(n);
	irq = (unsigned int)dmaemu_device_irq(d, 0);

	ck_assert_ptr_null(dmaemu_device_create(m, "x", &too_many_irqs, 0));
	bad++;
	ck_assert_int_eq(dmaemu_raise_irq(NULL, 0), -EINVAL);
	ck_assert_int_eq(dmaemu_raise_irq(d, 2), -EINVAL);
	ck_assert_int_eq(dmaemu_lower_irq(d, 7), -EINVAL);
	ck_assert_int_eq(dmaemu_device_doorbell(n), -EINVAL);
	ck_assert_int_eq(dmaemu_device_timer_arm(n, 1), -EINVAL);
	ck_assert_int_eq(dmaemu_device_reset(NULL), -EINVAL);
	bad += 6;
	ck_assert_int_eq(dmaemu_device_irq(d, 2), -EINVAL);
	ck_assert(!dmaemu_device_stopping(NULL));

	ck_assert_int_eq(request_irq(9999, count_irq, 0, "x", &calls), -EINVAL);
	ck_assert_int_eq(request_threaded_irq(irq, NULL, NULL, 0, "x", &calls),
			 -EINVAL);
	ck_assert_int_eq(
		request_threaded_irq(irq, NULL, none_handler, 0, "x", &calls),
		-EINVAL);
	bad += 3;
	ck_assert_int_eq(request_irq(irq, count_irq, 0, "x", &calls), 0);
	ck_assert_int_eq(request_irq(irq, count_irq, 0, "y", &calls), -EBUSY);
	ck_assert_ptr_null(free_irq(irq, &t)); /* wrong dev_id */
	enable_irq(irq);		       /* unbalanced */
	bad += 3;
	ck_assert_str_eq((const char *)free_irq(irq, &calls), "x");
	ck_assert_ptr_null(free_irq(irq, &calls)); /* already free */
	disable_irq(12345);
	synchronize_irq(0);
	bad += 3;
	ck_assert_int_eq(platform_driver_register(NULL), -EINVAL);
	bad++;
	ck_assert_uint_eq(reports(m, "bad-argument"), bad);
	ck_assert_uint_eq(reports(m, NULL), bad);
	dmaemu_device_destroy(n);
	dmaemu_device_destroy(d);
	dmaemu_machine_destroy(m);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("device-framework");
	TCase *tc = tcase_create("threads");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_doorbell);
	tcase_add_test(tc, test_timer);
	tcase_add_test(tc, test_reset_mid_run);
	tcase_add_test(tc, test_shutdown_pending);
	suite_add_tcase(s, tc);
	tc = tcase_create("irq");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_level_irq);
	tcase_add_test(tc, test_edge_irq_masked);
	tcase_add_test(tc, test_irqsave_holds_off);
	tcase_add_test(tc, test_sleep_in_hardirq);
	tcase_add_test(tc, test_threaded_irq);
	tcase_add_test(tc, test_unhandled_irq);
	suite_add_tcase(s, tc);
	tc = tcase_create("kernel");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_wait_primitives);
	tcase_add_test(tc, test_platform_bus);
	tcase_add_test(tc, test_bad_arguments);
	tcase_add_test(tc, test_devm_irq);
	suite_add_tcase(s, tc);
	return check_run(s);
}
