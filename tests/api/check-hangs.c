// SPDX-License-Identifier: MIT
/*
 * check-hangs.c - nothing hangs a program silently (docs/scheduling.md,
 * docs/checkers.md): under sched=lockstep emulated time moves while a
 * context stays busy, so timers fire during an interrupt storm and while
 * the network card's generator runs back to back forever; in both
 * scheduling modes an interrupt storm (a handler that returns
 * IRQ_HANDLED without acknowledging its device) is an irq-storm report
 * naming the irq, the handler, the device and the register, and the irq
 * is disabled so that the program ends; every timed wait of the library
 * returns on time against a wedged device, and an untimed one against a
 * silent device ends with a lockstep-deadlock report.
 *
 * Each test runs under the runner's timeout (tcase_set_timeout()): a
 * hang is a failure.  Under Valgrind or a sanitizer (SLOW_HOST), where
 * every scheduling point costs ten to a hundred times more, a busy point
 * costs more emulated time, the sleeps are shorter (SLEEP_MS, WAIT_MS)
 * and the default storm limit is left to the plain run.
 */

/* The driver's sleep during a storm or the generator, and each wait. */
#define SLEEP_MS (SLOW_HOST ? 50U : 200U)
#define WAIT_MS (SLOW_HOST ? 5U : 10U)
/* The storm limit of the storm tests. */
#define STORM (SLOW_HOST ? 200 : 3000)
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#ifdef HAVE_VALGRIND_VALGRIND_H
#include <valgrind/valgrind.h>
#else
#define RUNNING_ON_VALGRIND 0
#endif
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
#define SLOW_HOST 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
#define SLOW_HOST 1
#endif
#endif
#ifndef SLOW_HOST
#define SLOW_HOST RUNNING_ON_VALGRIND
#endif

#include <dmaemu/device.h>
#include <dmaemu/devices/nic.h>
#include <dmaemu/machine.h>
#include <dmaemu/report.h>
#include <dmaemu/sync.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/iopoll.h>
#include <linux/jiffies.h>
#include <linux/wait_bit.h>

#include "check-run.h"

static const char *const scheds[] = {"threads", "lockstep"};

static struct dmaemu_machine *machine(const char *sched, const char *more)
{
	char opts[256];
	struct dmaemu_machine *m;

	/* Under Valgrind a busy lockstep point costs 100 us, not 1 us: a
	 * hundred times fewer points for the same emulated time. */
	snprintf(opts, sizeof(opts),
		 "profile=arm64:sched=%s:seed=3:log_path=/dev/null%s%s%s",
		 sched, SLOW_HOST ? ":sched_step_ns=100000" : "",
		 more[0] ? ":" : "", more);
	m = dmaemu_machine_create(opts);
	ck_assert_ptr_nonnull(m);
	return m;
}

/* The one report of @kind that @m made, in @r. */
static void the_report(struct dmaemu_machine *m, const char *kind,
		       struct dmaemu_report *r)
{
	unsigned int i, n = 0;
	struct dmaemu_report x;

	for (i = 0; !dmaemu_report_get(m, i, &x); i++) {
		if (!strcmp(x.kind_name, kind)) {
			*r = x;
			n++;
		}
	}
	ck_assert_uint_eq(n, 1);
}

/* ---------------------------------------------------------------------- */
/* A device with a level line: CTRL=1 raises it, STATUS (RW1C) lowers it  */
/* ---------------------------------------------------------------------- */

#define REG_STATUS 0x0
#define REG_CTRL 0x4

struct lvl {
	uint32_t status;
};

static uint64_t lvl_read(struct dmaemu_device *dev, uint64_t off,
			 unsigned int size)
{
	struct lvl *l = dmaemu_device_priv(dev);

	(void)size;
	return off == REG_STATUS ? __atomic_load_n(&l->status, __ATOMIC_SEQ_CST)
				 : 0;
}

static void lvl_write(struct dmaemu_device *dev, uint64_t off, uint64_t val,
		      unsigned int size)
{
	struct lvl *l = dmaemu_device_priv(dev);

	(void)size;
	if (off == REG_CTRL && val) {
		__atomic_store_n(&l->status, 1, __ATOMIC_SEQ_CST);
		dmaemu_raise_irq(dev, 0);
	} else if (off == REG_STATUS && (val & 1)) {
		__atomic_store_n(&l->status, 0, __ATOMIC_SEQ_CST);
		dmaemu_lower_irq(dev, 0);
	}
}

static const struct dmaemu_device_ops lvl_ops = {
	.mmio_size = 0x10,
	.mmio_read = lvl_read,
	.mmio_write = lvl_write,
	.nr_irqs = 1,
};

struct drv {
	void __iomem *regs;
	int runs;	/* handler runs */
	int ack_first;	/* acknowledge the first interrupt only */
	int ack_always; /* the fixed handler */
};

/* The buggy handler: says IRQ_HANDLED, never writes STATUS. */
static irqreturn_t storm_irq(int irq, void *arg)
{
	struct drv *d = arg;
	bool ack;

	(void)irq;
	/* counted before the acknowledge, which lets the driver go on */
	ack = __atomic_fetch_add(&d->runs, 1, __ATOMIC_SEQ_CST) == 0
		      ? d->ack_first || d->ack_always
		      : d->ack_always;
	/* One write (two that Clang merges have no line of their own). */
	if (ack)
		writel(1, d->regs + REG_STATUS);
	return IRQ_HANDLED;
}

static struct dmaemu_device *lvl_dev(struct dmaemu_machine *m, struct lvl *l,
				     struct drv *d)
{
	struct dmaemu_device *dev =
		dmaemu_device_create(m, "lvl0", &lvl_ops, l);

	ck_assert_ptr_nonnull(dev);
	d->regs = dmaemu_device_regs(dev);
	ck_assert_int_eq(request_irq((unsigned int)dmaemu_device_irq(dev, 0),
				     storm_irq, 0, "lvl", d),
			 0);
	return dev;
}

/* Raise the line and sleep: the sleep returns, on time. */
static void raise_and_sleep(struct drv *d)
{
	uint64_t t0;

	writel(1, d->regs + REG_CTRL);
	t0 = dmaemu_time_ns();
	msleep(SLEEP_MS);
	ck_assert_uint_ge(dmaemu_time_ns() - t0, SLEEP_MS * 1000000ULL);
}

/* The storm is reported by now: at once under lockstep (the sleep was
 * long enough), soon with threads (the host may be slow, as Valgrind). */
static void storm_seen(struct dmaemu_machine *m)
{
	struct dmaemu_report r;
	unsigned int i;

	/* the report is counted, then kept: wait for it to be kept */
	for (i = 0; i < 2000 && dmaemu_report_get(m, 0, &r); i++)
		msleep(5);
	ck_assert_uint_eq(dmaemu_report_count(m, "irq-storm"), 1);
}

/* A handler that never acknowledges: one irq-storm report at the
 * handler, naming the irq, the device and that no register was
 * written; the line is disabled and the program goes on. */
START_TEST(test_storm_reported)
{
	struct dmaemu_machine *m;
	struct lvl l = {0};
	struct drv d = {0};
	struct dmaemu_device *dev;
	struct dmaemu_report r;
	char irq[32], opt[32];

	snprintf(opt, sizeof(opt), "irq_storm=%d", STORM);
	m = machine(scheds[_i], opt);
	dev = lvl_dev(m, &l, &d);
	raise_and_sleep(&d);
	storm_seen(m);
	the_report(m, "irq-storm", &r);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 1);
	ck_assert_str_eq(r.device, "lvl0");
	ck_assert_ptr_nonnull(strstr(r.where, "storm_irq"));
	ck_assert_ptr_nonnull(strstr(r.where, "check-hangs.c:"));
	snprintf(irq, sizeof(irq), "irq %d:", dmaemu_device_irq(dev, 0));
	ck_assert_ptr_nonnull(strstr(r.text, irq));
	snprintf(opt, sizeof(opt), "'lvl' ran %d times", STORM);
	ck_assert_ptr_nonnull(strstr(r.text, opt));
	ck_assert_ptr_nonnull(strstr(r.text, "line 0 of device lvl0"));
	ck_assert_ptr_nonnull(
		strstr(r.text, "no register of lvl0 was written"));
	free_irq((unsigned int)dmaemu_device_irq(dev, 0), &d);
	ck_assert_int_eq(__atomic_load_n(&d.runs, __ATOMIC_SEQ_CST),
			 STORM); /* disabled at the limit */
	dmaemu_device_destroy(dev);
	dmaemu_machine_destroy(m);
}
END_TEST

/* The handler acknowledged the first interrupt (writing STATUS lowered
 * the line), not the next: the report names that register. */
START_TEST(test_storm_names_register)
{
	struct dmaemu_machine *m;
	struct lvl l = {0};
	struct drv d = {.ack_first = 1};
	struct dmaemu_device *dev;
	struct dmaemu_report r;
	char opt[32];

	snprintf(opt, sizeof(opt), "irq_storm=%d", STORM);
	m = machine(scheds[_i], opt);
	dev = lvl_dev(m, &l, &d);

	writel(1, d.regs + REG_CTRL);
	while (readl(d.regs + REG_STATUS))
		msleep(1);
	raise_and_sleep(&d);
	storm_seen(m);
	the_report(m, "irq-storm", &r);
	ck_assert_ptr_nonnull(strstr(r.where, "storm_irq"));
	ck_assert_msg(strstr(r.text,
			     "did not write register 0x0 of lvl0, whose "
			     "write lowered the line before, at storm_irq"),
		      "%s", r.text);
	free_irq((unsigned int)dmaemu_device_irq(dev, 0), &d);
	ck_assert_int_eq(__atomic_load_n(&d.runs, __ATOMIC_SEQ_CST), STORM + 1);
	dmaemu_device_destroy(dev);
	dmaemu_machine_destroy(m);
}
END_TEST

/* The default limit (100,000 runs, Linux's window) holds too. */
START_TEST(test_storm_default_limit)
{
	struct dmaemu_machine *m = machine(scheds[_i], "");
	struct lvl l = {0};
	struct drv d = {0};
	struct dmaemu_device *dev = lvl_dev(m, &l, &d);
	struct dmaemu_report r;

	if (SLOW_HOST) {
		free_irq((unsigned int)dmaemu_device_irq(dev, 0), &d);
		dmaemu_device_destroy(dev);
		dmaemu_machine_destroy(m);
		return;
	}
	raise_and_sleep(&d);
	storm_seen(m);
	the_report(m, "irq-storm", &r);
	free_irq((unsigned int)dmaemu_device_irq(dev, 0), &d);
	ck_assert_int_eq(__atomic_load_n(&d.runs, __ATOMIC_SEQ_CST), 100000);
	dmaemu_device_destroy(dev);
	dmaemu_machine_destroy(m);
}
END_TEST

/* A handler that acknowledges: the line drops each time, no report,
 * however many interrupts. */
START_TEST(test_no_storm_when_acked)
{
	struct dmaemu_machine *m = machine(scheds[_i], "irq_storm=5");
	struct lvl l = {0};
	struct drv d = {.ack_always = 1};
	struct dmaemu_device *dev = lvl_dev(m, &l, &d);
	int i;

	for (i = 0; i < 20; i++) {
		writel(1, d.regs + REG_CTRL);
		while (readl(d.regs + REG_STATUS))
			msleep(1);
	}
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 0);
	free_irq((unsigned int)dmaemu_device_irq(dev, 0), &d);
	ck_assert_int_eq(__atomic_load_n(&d.runs, __ATOMIC_SEQ_CST), 20);
	dmaemu_device_destroy(dev);
	dmaemu_machine_destroy(m);
}
END_TEST

/* With the detector off (irq_storm=0), the storm goes on, and lockstep's
 * clock still moves: a 5 ms sleep returns at 5 ms, then the driver
 * disables the irq itself. */
START_TEST(test_time_moves_in_storm)
{
	struct dmaemu_machine *m = machine("lockstep", "irq_storm=0");
	struct lvl l = {0};
	struct drv d = {0};
	struct dmaemu_device *dev = lvl_dev(m, &l, &d);
	DECLARE_COMPLETION_ONSTACK(never);
	uint64_t t0;

	writel(1, d.regs + REG_CTRL);
	t0 = dmaemu_time_ns();
	msleep(5);
	ck_assert_uint_eq(dmaemu_time_ns() - t0, 5000000ULL);
	ck_assert_int_gt(__atomic_load_n(&d.runs, __ATOMIC_SEQ_CST), 1000);
	ck_assert_uint_eq(wait_for_completion_timeout(&never, 3), 0);
	/* the storm's points between the two waits cost their steps */
	ck_assert_uint_ge(dmaemu_time_ns() - t0, 8000000ULL);
	ck_assert_uint_lt(dmaemu_time_ns() - t0, 8500000ULL);
	/* A step stops at a deadline that is no multiple of it: the sleep
	 * ends at 2.5 us, and the steps of the storm until the seed picks
	 * cpu0 again are whole microseconds after that. */
	t0 = dmaemu_time_ns();
	ndelay(2500);
	ck_assert_uint_ge(dmaemu_time_ns() - t0, 2500);
	ck_assert_uint_eq((dmaemu_time_ns() - t0 - 2500) % 1000, 0);
	disable_irq((unsigned int)dmaemu_device_irq(dev, 0));
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 0);
	free_irq((unsigned int)dmaemu_device_irq(dev, 0), &d);
	dmaemu_device_destroy(dev);
	dmaemu_machine_destroy(m);
}
END_TEST

/* A loop of waits that are over as they start (ndelay(0)) is busy too:
 * the clock moves under it, so a loop until a time ends. */
START_TEST(test_zero_waits_move_time)
{
	struct dmaemu_machine *m = machine("lockstep", "");
	uint64_t t0 = dmaemu_time_ns();
	unsigned int i;

	for (i = 0; i < 100000 && dmaemu_time_ns() - t0 < 2000000; i++)
		ndelay(0);
	ck_assert_uint_eq(dmaemu_time_ns() - t0, 2000000);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 0);
	dmaemu_machine_destroy(m);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* A device working back to back forever                                  */
/* ---------------------------------------------------------------------- */

/* The generator with an endless count and interval 0: a driver's
 * msleep(200) returns, at 200 ms, and the card has worked meanwhile
 * (50 ms under Valgrind). */
START_TEST(test_nic_back_to_back)
{
	struct dmaemu_machine *m = machine(scheds[_i], "");
	struct dmaemu_device *nic = dmaemu_nic_create(m, "nic0");
	void __iomem *regs;
	uint64_t t0;

	ck_assert_ptr_nonnull(nic);
	regs = dmaemu_device_regs(nic);
	writel(0xffffffff, regs + DMAEMU_NIC_REG_GEN_COUNT);
	writel(0, regs + DMAEMU_NIC_REG_GEN_INTERVAL);
	writel(DMAEMU_NIC_GEN_RUN, regs + DMAEMU_NIC_REG_GEN_CTRL);
	t0 = dmaemu_time_ns();
	msleep(SLEEP_MS);
	ck_assert_uint_ge(dmaemu_time_ns() - t0, SLEEP_MS * 1000000ULL);
	if (!strcmp(scheds[_i], "lockstep"))
		ck_assert_uint_eq(dmaemu_time_ns() - t0, SLEEP_MS * 1000000ULL);
	ck_assert_uint_gt(readl(regs + DMAEMU_NIC_REG_RX_DROPS), 0);
	writel(0, regs + DMAEMU_NIC_REG_GEN_CTRL);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 0);
	dmaemu_device_destroy(nic);
	dmaemu_machine_destroy(m);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Every wait against a wedged device                                     */
/* ---------------------------------------------------------------------- */

/* A wedged device: its status register never says done, and while
 * @busy its thread works back to back (a timer re-armed at 0) forever. */
struct wedged {
	int busy;
	int stuck; /* its run never returns until @release */
	int release;
	unsigned long runs;
	void __iomem *regs;
	struct completion entered; /* the handler runs */
};

static uint64_t wedged_read(struct dmaemu_device *dev, uint64_t off,
			    unsigned int size)
{
	(void)dev;
	(void)off;
	(void)size;
	return 0; /* never done */
}

static void wedged_write(struct dmaemu_device *dev, uint64_t off, uint64_t val,
			 unsigned int size)
{
	struct wedged *w = dmaemu_device_priv(dev);

	(void)val;
	(void)size;
	if (off == 0x8)
		dmaemu_raise_irq(dev, 0);
	else if (off == 0xc)
		dmaemu_lower_irq(dev, 0);
	else if (w->busy || w->stuck)
		dmaemu_device_timer_arm(dev, 0);
}

static void wedged_run(struct dmaemu_device *dev, unsigned int events)
{
	struct wedged *w = dmaemu_device_priv(dev);

	(void)events;
	__atomic_add_fetch(&w->runs, 1, __ATOMIC_RELAXED);
	if (w->stuck)
		complete(&w->entered);
	while (w->stuck && !__atomic_load_n(&w->release, __ATOMIC_SEQ_CST))
		udelay(10); /* ignores dmaemu_device_stopping() */
	if (w->busy && !dmaemu_device_stopping(dev))
		dmaemu_device_timer_arm(dev, 0);
}

static const struct dmaemu_device_ops wedged_ops = {
	.mmio_size = 0x10,
	.mmio_read = wedged_read,
	.mmio_write = wedged_write,
	.run = wedged_run,
	.nr_irqs = 1,
};

static DECLARE_WAIT_QUEUE_HEAD(wq);

static irqreturn_t quiet_irq(int irq, void *arg)
{
	(void)irq;
	(void)arg;
	return IRQ_HANDLED;
}

/* Set by the tests that run under sched=lockstep. */
static bool exact;

/* A wait that asked for @ms returned on time: not before, and under
 * lockstep within a jiffy after (the busy clock's steps stop at the
 * deadline). */
static void on_time(uint64_t t0, unsigned int ms)
{
	uint64_t dt = dmaemu_time_ns() - t0;

	ck_assert_uint_ge(dt, (uint64_t)ms * 1000000ULL);
	if (exact)
		ck_assert_uint_le(dt, (uint64_t)(ms + 1) * 1000000ULL);
}

static void timed_waits(struct dmaemu_machine *m, struct dmaemu_device *dev)
{
	DECLARE_COMPLETION_ONSTACK(done);
	void __iomem *regs = dmaemu_device_regs(dev);
	uint64_t t0;
	u32 v;
	int cond = 0;

	t0 = dmaemu_time_ns();
	ck_assert_uint_eq(wait_for_completion_timeout(&done, WAIT_MS), 0);
	on_time(t0, WAIT_MS);
	t0 = dmaemu_time_ns();
	ck_assert_int_eq(
		wait_for_completion_interruptible_timeout(&done, WAIT_MS), 0);
	on_time(t0, WAIT_MS);
	t0 = dmaemu_time_ns();
	ck_assert_int_eq(wait_event_timeout(wq, READ_ONCE(cond), WAIT_MS), 0);
	on_time(t0, WAIT_MS);
	t0 = dmaemu_time_ns();
	ck_assert_int_eq(
		wait_event_interruptible_timeout(wq, READ_ONCE(cond), WAIT_MS),
		0);
	on_time(t0, WAIT_MS);
	t0 = dmaemu_time_ns();
	msleep(WAIT_MS);
	on_time(t0, WAIT_MS);
	t0 = dmaemu_time_ns();
	ck_assert_int_eq(
		readl_poll_timeout(regs, v, v == 1, 100, WAIT_MS * 1000),
		-ETIMEDOUT);
	on_time(t0, WAIT_MS);
	t0 = dmaemu_time_ns();
	ck_assert_int_eq(readl_poll_timeout(regs, v, v == 1, 0, WAIT_MS * 1000),
			 -ETIMEDOUT);
	on_time(t0, WAIT_MS);
	t0 = dmaemu_time_ns();
	ck_assert_int_eq(
		readl_poll_timeout_atomic(regs, v, v == 1, 0, WAIT_MS * 1000),
		-ETIMEDOUT);
	on_time(t0, WAIT_MS);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 0);
}

/* Every timed wait against a device that works forever returns on
 * time; so do synchronize_irq() and device destroy (which wait for
 * handlers and runs that end). */
START_TEST(test_timed_waits_busy_device)
{
	struct dmaemu_machine *m = machine(scheds[_i], "");
	struct wedged w = {.busy = 1};
	struct dmaemu_device *dev;
	unsigned int irq;

	exact = !strcmp(scheds[_i], "lockstep");
	dev = dmaemu_device_create(m, "wedged0", &wedged_ops, &w);
	ck_assert_ptr_nonnull(dev);
	irq = (unsigned int)dmaemu_device_irq(dev, 0);
	ck_assert_int_eq(request_irq(irq, quiet_irq, 0, "wedged", &w), 0);
	writel(1, dmaemu_device_regs(dev)); /* starts working */
	timed_waits(m, dev);
	ck_assert_uint_gt(__atomic_load_n(&w.runs, __ATOMIC_RELAXED), 1);
	synchronize_irq(irq);
	free_irq(irq, &w);
	dmaemu_device_destroy(dev);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 0);
	dmaemu_machine_destroy(m);
}
END_TEST

/* Untimed waits on a silent device under lockstep end with a
 * lockstep-deadlock report each, and return. */
START_TEST(test_untimed_waits_silent_device)
{
	struct dmaemu_machine *m = machine("lockstep", "");
	struct wedged w = {0};
	struct dmaemu_device *dev;
	DECLARE_COMPLETION_ONSTACK(done);
	int cond = 0;

	exact = true;
	dev = dmaemu_device_create(m, "wedged0", &wedged_ops, &w);
	ck_assert_ptr_nonnull(dev);
	timed_waits(m, dev);
	wait_for_completion(&done);
	ck_assert_uint_eq(dmaemu_report_count(m, "lockstep-deadlock"), 1);
	ck_assert_int_eq(wait_for_completion_interruptible(&done), 0);
	ck_assert_uint_eq(dmaemu_report_count(m, "lockstep-deadlock"), 2);
	wait_event(wq, READ_ONCE(cond));
	ck_assert_uint_eq(dmaemu_report_count(m, "lockstep-deadlock"), 3);
	ck_assert_int_eq(wait_event_interruptible(wq, READ_ONCE(cond)), 0);
	ck_assert_uint_eq(dmaemu_report_count(m, "lockstep-deadlock"), 4);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 4);
	dmaemu_device_destroy(dev);
	dmaemu_machine_destroy(m);
}
END_TEST

/* A handler stuck polling its wedged device until released. */
static irqreturn_t stuck_irq(int irq, void *arg)
{
	struct wedged *w = arg;

	(void)irq;
	complete(&w->entered);
	while (!__atomic_load_n(&w->release, __ATOMIC_SEQ_CST))
		udelay(10);
	writel(1, w->regs + 0xc);
	return IRQ_HANDLED;
}

/* A hung-wait report releases what the wait waits for. */
static void on_report(struct dmaemu_machine *m, const struct dmaemu_report *r,
		      void *arg)
{
	(void)m;
	if (r->kind == DMAEMU_REPORT_HUNG_WAIT)
		__atomic_store_n((int *)arg, 1, __ATOMIC_SEQ_CST);
}

/* The hung-wait report of a wait in @fn, at this file. */
static void hung(struct dmaemu_machine *m, uint64_t n, const char *fn,
		 bool where)
{
	struct dmaemu_report r;
	unsigned int i;

	ck_assert_uint_eq(dmaemu_report_count(m, "hung-wait"), n);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), n);
	for (i = 0; !dmaemu_report_get(m, i, &r); i++)
		;
	ck_assert_int_eq(dmaemu_report_get(m, i - 1, &r), 0);
	ck_assert_str_eq(r.kind_name, "hung-wait");
	ck_assert_msg(strstr(r.text, fn), "%s not in %s", fn, r.text);
	if (where)
		ck_assert_msg(strstr(r.where, "check-hangs.c:"), "where: %s",
			      r.where);
}

/* Untimed waits against a device that works forever (so that lockstep
 * never finds a deadlock): each ends after hang_timeout_ms with a
 * hung-wait report at the driver's line, in both modes, and returns; a
 * device destroy waiting for a run that never ends reports and goes on
 * waiting (here, until the report's callback releases the run). */
START_TEST(test_untimed_waits_busy_device)
{
	/* Emulated ms under lockstep (a busy point costs 100 us under
	 * Valgrind); host ms with threads, with room for a loaded host. */
	bool ls = !strcmp(scheds[_i], "lockstep");
	unsigned int hang_ms =
		ls ? (SLOW_HOST ? 5 : 50) : (SLOW_HOST ? 1000 : 400);
	char opt[32], waited[32];
	struct dmaemu_machine *m;
	struct wedged w = {.busy = 1}, s = {.stuck = 1};
	struct dmaemu_device *dev, *sdev;
	DECLARE_COMPLETION_ONSTACK(done);
	unsigned int irq;
	uint64_t t0;
	int cond = 0;

	exact = ls;
	snprintf(opt, sizeof(opt), "hang_timeout_ms=%u", hang_ms);
	m = machine(scheds[_i], opt);
	dev = dmaemu_device_create(m, "wedged0", &wedged_ops, &w);
	ck_assert_ptr_nonnull(dev);
	w.regs = dmaemu_device_regs(dev);
	init_completion(&w.entered);
	writel(1, w.regs); /* starts working */
	t0 = dmaemu_time_ns();
	wait_for_completion(&done);
	on_time(t0, hang_ms);
	hung(m, 1, "wait_for_completion()", true);
	if (ls) {
		struct dmaemu_report r;

		/* on time to the step, and the report says who ran */
		ck_assert_uint_le(dmaemu_time_ns() - t0,
				  hang_ms * 1000000ULL + 100000);
		ck_assert_int_eq(dmaemu_report_get(m, 0, &r), 0);
		snprintf(waited, sizeof(waited), "cpu0 waited %u ms", hang_ms);
		ck_assert_msg(strstr(r.text, waited), "%s", r.text);
		ck_assert_msg(strstr(r.text, "wedged0"), "%s", r.text);
	}
	ck_assert_int_eq(wait_for_completion_interruptible(&done), 0);
	hung(m, 2, "wait_for_completion()", true);
	wait_event(wq, READ_ONCE(cond));
	hung(m, 3, "wait_event()", true);

	/* synchronize_irq() while the handler polls the device forever */
	irq = (unsigned int)dmaemu_device_irq(dev, 0);
	ck_assert_int_eq(request_irq(irq, stuck_irq, 0, "wedged", &w), 0);
	writel(1, w.regs + 0x8);
	wait_for_completion(&w.entered);
	synchronize_irq(irq);
	hung(m, 4, "synchronize_irq", true);
	__atomic_store_n(&w.release, 1, __ATOMIC_SEQ_CST);
	free_irq(irq, &w);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 4);

	/* device destroy while the model's run never returns */
	sdev = dmaemu_device_create(m, "stuck0", &wedged_ops, &s);
	ck_assert_ptr_nonnull(sdev);
	init_completion(&s.entered);
	writel(1, dmaemu_device_regs(sdev));
	wait_for_completion(&s.entered); /* the run has started */
	ck_assert_int_eq(dmaemu_report_set_callback(m, on_report, &s.release),
			 0);
	dmaemu_device_destroy(sdev);
	hung(m, 5,
	     strcmp(scheds[_i], "lockstep") ? "device destroy" : "thread exit",
	     false);
	dmaemu_device_destroy(dev);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 5);
	dmaemu_machine_destroy(m);
}
END_TEST

/* A slow device: a doorbell arms a 200 ms timer, whose run completes. */
static void slow_run(struct dmaemu_device *dev, unsigned int events)
{
	struct completion *done = dmaemu_device_priv(dev);

	if (events & DMAEMU_DEVICE_DOORBELL)
		dmaemu_device_timer_arm(dev, 200000000);
	if (events & DMAEMU_DEVICE_TIMER)
		complete(done);
}

static const struct dmaemu_device_ops slow_ops = {.run = slow_run};

/* Under lockstep the watchdog counts the time a busy machine moves, not
 * the jumps to a deadline: an untimed wait for a device's 200 ms timer
 * ends at 200 ms with no report, even with hang_timeout_ms=50. */
START_TEST(test_long_timer_no_hang)
{
	struct dmaemu_machine *m = machine("lockstep", "hang_timeout_ms=50");
	DECLARE_COMPLETION_ONSTACK(done);
	struct dmaemu_device *dev =
		dmaemu_device_create(m, "slow0", &slow_ops, &done);
	uint64_t t0;

	ck_assert_ptr_nonnull(dev);
	t0 = dmaemu_time_ns();
	ck_assert_int_eq(dmaemu_device_doorbell(dev), 0);
	wait_for_completion(&done);
	ck_assert_uint_eq(dmaemu_time_ns() - t0, 200000000ULL);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 0);
	dmaemu_device_destroy(dev);
	dmaemu_machine_destroy(m);
}
END_TEST

/* The watchdog off (hang_timeout_ms=0) and the default (120 s) do not
 * end a wait that a device ends, however long it takes in lockstep. */
START_TEST(test_hang_timeout_option)
{
	struct dmaemu_machine *m = machine("lockstep", "hang_timeout_ms=0");
	char v[32];

	ck_assert_int_eq(
		dmaemu_machine_option(m, "hang_timeout_ms", v, sizeof(v)), 0);
	ck_assert_str_eq(v, "0");
	dmaemu_machine_destroy(m);
	m = machine("threads", "");
	ck_assert_int_eq(
		dmaemu_machine_option(m, "hang_timeout_ms", v, sizeof(v)), 0);
	ck_assert_str_eq(v, "120000");
	dmaemu_machine_destroy(m);
	ck_assert_ptr_null(dmaemu_machine_create(
		"hang_timeout_ms=86400001:log_path=/dev/null"));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("hangs");
	TCase *tc = tcase_create("hangs");

	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_storm_reported, 0, 2);
	tcase_add_loop_test(tc, test_storm_names_register, 0, 2);
	tcase_add_loop_test(tc, test_storm_default_limit, 0, 2);
	tcase_add_loop_test(tc, test_no_storm_when_acked, 0, 2);
	tcase_add_test(tc, test_time_moves_in_storm);
	tcase_add_test(tc, test_zero_waits_move_time);
	tcase_add_loop_test(tc, test_nic_back_to_back, 0, 2);
	tcase_add_loop_test(tc, test_timed_waits_busy_device, 0, 2);
	tcase_add_test(tc, test_untimed_waits_silent_device);
	tcase_add_loop_test(tc, test_untimed_waits_busy_device, 0, 2);
	tcase_add_test(tc, test_long_timer_no_hang);
	tcase_add_test(tc, test_hang_timeout_option);
	suite_add_tcase(s, tc);
	return check_run(s);
}
