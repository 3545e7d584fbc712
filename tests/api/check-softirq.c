// SPDX-License-Identifier: MIT
/*
 * check-softirq.c - softirqs and tasklets (<linux/interrupt.h>,
 * docs/kernel-headers.md): a tasklet scheduled by a hard handler runs
 * after it, on the interrupt thread, in softirq context; one scheduled
 * from process context runs there too; HI tasklets run first; a
 * disabled tasklet waits for tasklet_enable(); tasklet_kill() waits for
 * a running tasklet; a sleep in a tasklet is a sleep-in-atomic report;
 * misuse is a bad-argument report; lockstep scheduling runs them too.
 */
#include "config.h"

#include <pthread.h>
#include <string.h>

#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/interrupt.h>
#include <linux/jiffies.h>
#include <linux/slab.h>

#include <dmaemu/device.h>
#include <dmaemu/machine.h>
#include <dmaemu/report.h>

#include "check-run.h"
#include "fixture.h"
#include "threads.h"

static const struct dmaemu_device_ops bare_ops = {
	.nr_irqs = 1, /* level */
};

static struct dmaemu_machine *m;
static struct dmaemu_device *d;
static unsigned int irq;

static void setup_with(const char *opts)
{
	m = fixture_machine("%s", opts);
	d = dmaemu_device_create(m, "t0", &bare_ops, NULL);
	ck_assert_ptr_nonnull(d);
	irq = (unsigned int)dmaemu_device_irq(d, 0);
}

static void setup(void)
{
	setup_with("profile=arm64:mem=64M");
}

static void teardown(void)
{
	if (d)
		dmaemu_device_destroy(d);
	d = NULL;
	if (m)
		dmaemu_machine_destroy(m);
	m = NULL;
	fixture_teardown();
}

static uint64_t reports(const char *kind)
{
	return dmaemu_report_count(m, kind);
}

/* What happened, in order: one letter per event. */
struct trace {
	spinlock_t lock;
	char seq[32];
	unsigned int n;
	pthread_t handler_thread, tasklet_thread;
	int tasklet_ctx_ok; /* in_softirq(), in_interrupt(), !in_irq() */
	int runs;
	struct completion done;
	struct tasklet_struct t, hi;
};

static struct trace tr;

static void note(char c)
{
	unsigned long flags;

	spin_lock_irqsave(&tr.lock, flags);
	if (tr.n < sizeof(tr.seq) - 1)
		tr.seq[tr.n++] = c;
	spin_unlock_irqrestore(&tr.lock, flags);
}

static void trace_init(void)
{
	memset(&tr, 0, sizeof(tr));
	spin_lock_init(&tr.lock);
	init_completion(&tr.done);
}

static void tasklet_fn(unsigned long data)
{
	tr.tasklet_thread = pthread_self();
	tr.tasklet_ctx_ok = in_softirq() && in_interrupt() && !in_irq() &&
			    !irqs_disabled() && in_atomic();
	tr.runs++;
	note((char)data);
	complete(&tr.done);
}

/* The hard handler: lowers the line, schedules the tasklets, and makes
 * sure they do not run before it returns. */
static irqreturn_t handler(int irq_, void *dev_id)
{
	tr.handler_thread = pthread_self();
	dmaemu_lower_irq(d, 0);
	note('H');
	tasklet_schedule(&tr.t);
	tasklet_hi_schedule(&tr.hi);
	mdelay(5); /* a tasklet running now would be seen before 'h' */
	note('h');
	return IRQ_HANDLED;
}

/* Scheduled from a hard handler: after it, on the same thread, in softirq
 * context; the HI tasklet first. */
START_TEST(test_after_hard_handler)
{
	trace_init();
	tasklet_init(&tr.t, tasklet_fn, 'T');
	tasklet_init(&tr.hi, tasklet_fn, 'I');
	ck_assert_int_eq(request_irq(irq, handler, 0, "t0", NULL), 0);
	dmaemu_raise_irq(d, 0);
	ck_assert_uint_gt(wait_for_completion_timeout(&tr.done, 5 * HZ), 0);
	ck_assert_uint_gt(wait_for_completion_timeout(&tr.done, 5 * HZ), 0);
	tasklet_kill(&tr.t);
	tasklet_kill(&tr.hi);
	ck_assert_str_eq(tr.seq, "HhIT");
	ck_assert(pthread_equal(tr.handler_thread, tr.tasklet_thread));
	ck_assert_int_eq(tr.tasklet_ctx_ok, 1);
	free_irq(irq, NULL);
	ck_assert_uint_eq(reports(NULL), 0);
}
END_TEST

/* Scheduled from process context, with no handler requested: it runs on
 * the interrupt thread in softirq context. */
START_TEST(test_from_process_context)
{
	trace_init();
	tasklet_init(&tr.t, tasklet_fn, 'T');
	tasklet_schedule(&tr.t);
	ck_assert_uint_gt(wait_for_completion_timeout(&tr.done, 5 * HZ), 0);
	tasklet_kill(&tr.t);
	ck_assert(!pthread_equal(tr.tasklet_thread, pthread_self()));
	ck_assert_int_eq(tr.tasklet_ctx_ok, 1);
	ck_assert_int_eq(tr.runs, 1);
	ck_assert_uint_eq(reports(NULL), 0);
}
END_TEST

static DECLARE_TASKLET(declared, tasklet_fn, 'D');

/* Disabled: scheduling it (three times) runs nothing until the enable,
 * which runs it once; DECLARE_TASKLET() makes an enabled tasklet. */
START_TEST(test_disable_defers)
{
	trace_init();
	tasklet_disable(&declared);
	tasklet_schedule(&declared);
	tasklet_schedule(&declared);
	tasklet_hi_schedule(&declared);
	msleep(30);
	ck_assert_int_eq(tr.runs, 0);
	ck_assert(__atomic_load_n(&declared.state, __ATOMIC_SEQ_CST) &
		  (1UL << TASKLET_STATE_SCHED));
	tasklet_enable(&declared);
	ck_assert_uint_gt(wait_for_completion_timeout(&tr.done, 5 * HZ), 0);
	tasklet_kill(&declared);
	ck_assert_int_eq(tr.runs, 1);
	ck_assert_str_eq(tr.seq, "D");
	ck_assert_uint_eq(reports(NULL), 0);
}
END_TEST

static counter_t started, finished;

static void slow_fn(unsigned long data)
{
	cset(&started, 1);
	mdelay(60);
	cset(&finished, 1);
}

/* tasklet_kill() and tasklet_disable() wait for a running tasklet. */
START_TEST(test_kill_waits)
{
	struct tasklet_struct t;

	tasklet_init(&t, slow_fn, 0);
	cset(&started, 0);
	cset(&finished, 0);
	tasklet_schedule(&t);
	WAIT_UNTIL(cget(&started), 5000);
	tasklet_kill(&t);
	ck_assert_int_eq(cget(&finished), 1);
	ck_assert_uint_eq(t.state, 0);

	cset(&started, 0);
	cset(&finished, 0);
	tasklet_schedule(&t);
	WAIT_UNTIL(cget(&started), 5000);
	tasklet_disable(&t);
	ck_assert_int_eq(cget(&finished), 1);
	tasklet_enable(&t);
	tasklet_kill(&t);
	ck_assert_uint_eq(reports(NULL), 0);
}
END_TEST

static void again_fn(unsigned long data)
{
	struct tasklet_struct *t = (struct tasklet_struct *)data;

	if (++tr.runs < 3)
		tasklet_schedule(t); /* unscheduled before the call */
	else
		complete(&tr.done);
}

START_TEST(test_reschedules_itself)
{
	struct tasklet_struct t;

	trace_init();
	tasklet_init(&t, again_fn, (unsigned long)&t);
	tasklet_schedule(&t);
	ck_assert_uint_gt(wait_for_completion_timeout(&tr.done, 5 * HZ), 0);
	tasklet_kill(&t);
	ck_assert_int_eq(tr.runs, 3);
	ck_assert_uint_eq(reports(NULL), 0);
}
END_TEST

static void sleepy_fn(unsigned long data)
{
	msleep(1);			/* a sleep in softirq context: a bug */
	kfree(kmalloc(16, GFP_KERNEL)); /* another one */
	kfree(kmalloc(16, GFP_ATOMIC)); /* fine */
	complete(&tr.done);
}

START_TEST(test_sleep_in_tasklet)
{
	struct tasklet_struct t;

	trace_init();
	tasklet_init(&t, sleepy_fn, 0);
	tasklet_schedule(&t);
	ck_assert_uint_gt(wait_for_completion_timeout(&tr.done, 5 * HZ), 0);
	tasklet_kill(&t);
	ck_assert_uint_eq(reports("sleep-in-atomic"), 2);
	ck_assert_uint_eq(reports(NULL), 2);
	ck_assert_ptr_nonnull(strstr(fixture_log(), "softirq context"));
	ck_assert_ptr_nonnull(strstr(fixture_log(), "msleep"));
}
END_TEST

static void killer_fn(unsigned long data)
{
	tasklet_kill((struct tasklet_struct *)data); /* waits for itself */
	complete(&tr.done);
}

/* Misuse: kill from a tasklet, kill of a disabled scheduled tasklet
 * (it would never run), an unbalanced enable. */
START_TEST(test_misuse)
{
	struct tasklet_struct t, u;

	trace_init();
	tasklet_init(&t, killer_fn, (unsigned long)&t);
	tasklet_schedule(&t);
	ck_assert_uint_gt(wait_for_completion_timeout(&tr.done, 5 * HZ), 0);
	tasklet_kill(&t);
	ck_assert_uint_eq(reports("bad-argument"), 1);
	ck_assert_ptr_nonnull(strstr(fixture_log(), "interrupt context"));

	tasklet_init(&u, tasklet_fn, 'U');
	tasklet_disable(&u);
	tasklet_schedule(&u);
	tasklet_kill(&u);
	ck_assert_uint_eq(reports("bad-argument"), 2);
	ck_assert_ptr_nonnull(strstr(fixture_log(), "never run"));
	ck_assert_uint_eq(u.state, 0);
	tasklet_enable(&u);
	msleep(20);
	ck_assert_int_eq(tr.runs, 0); /* unscheduled by the kill */
	tasklet_enable(&u);
	ck_assert_uint_eq(reports("bad-argument"), 3);
	ck_assert_ptr_nonnull(strstr(fixture_log(), "unbalanced"));
	ck_assert_uint_eq(reports(NULL), 3);
}
END_TEST

/* sched=lockstep: the tasklet of a handler runs, nothing hangs. */
START_TEST(test_lockstep)
{
	teardown();
	setup_with("profile=arm:sched=lockstep:seed=5");
	trace_init();
	tasklet_init(&tr.t, tasklet_fn, 'T');
	tasklet_init(&tr.hi, tasklet_fn, 'I');
	ck_assert_int_eq(request_irq(irq, handler, 0, "t0", NULL), 0);
	dmaemu_raise_irq(d, 0);
	wait_for_completion(&tr.done);
	wait_for_completion(&tr.done);
	tasklet_kill(&tr.t);
	tasklet_kill(&tr.hi);
	ck_assert_str_eq(tr.seq, "HhIT");
	free_irq(irq, NULL);
	ck_assert_uint_eq(reports(NULL), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("softirq");
	TCase *tc = tcase_create("tasklets");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_after_hard_handler);
	tcase_add_test(tc, test_from_process_context);
	tcase_add_test(tc, test_disable_defers);
	tcase_add_test(tc, test_kill_waits);
	tcase_add_test(tc, test_reschedules_itself);
	tcase_add_test(tc, test_sleep_in_tasklet);
	tcase_add_test(tc, test_misuse);
	tcase_add_test(tc, test_lockstep);
	suite_add_tcase(s, tc);
	return check_run(s);
}
