// SPDX-License-Identifier: MIT
/*
 * check-lockstep.c - sched=lockstep (docs/scheduling.md): the copy engine
 * with its reference driver (examples/copy-engine) gets its data right on
 * every profile; the same seed gives the same sequence of (context,
 * point) pairs run after run, and different seeds different ones;
 * emulated time jumps to the next deadline when every context waits; a
 * wait nobody can end is a lockstep-deadlock report and returns; a
 * thread the machine does not know joins at its first point.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <dmaemu/device.h>
#include <dmaemu/devices/copy-engine.h>
#include <dmaemu/machine.h>
#include <dmaemu/report.h>
#include <dmaemu/sched.h>
#include <dmaemu/sync.h>
#include <linux/compiler.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/wait_bit.h>

#include "ce-driver.h"
#include "check-run.h"

static const char *const profiles[] = {"arm", "arm64", "x86"};

static struct dmaemu_machine *machine(const char *profile, uint64_t seed)
{
	char opts[128];
	struct dmaemu_machine *m;

	snprintf(opts, sizeof(opts),
		 "profile=%s:seed=%llu:sched=lockstep:log_path=/dev/null",
		 profile, (unsigned long long)seed);
	m = dmaemu_machine_create(opts);
	ck_assert_ptr_nonnull(m);
	return m;
}

static uint64_t host_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* ---------------------------------------------------------------------- */
/* The interleaving a run produced                                        */
/* ---------------------------------------------------------------------- */

#define MAXREC 20000

struct rec {
	size_t n;
	unsigned int ctx[MAXREC];
	const char *point[MAXREC]; /* string literals of the library */
	unsigned int nctx;	   /* highest context id seen + 1 */
};

static void record(void *arg, unsigned int ctx, const char *name,
		   const char *point)
{
	struct rec *r = arg;

	(void)name;
	if (r->n < MAXREC) {
		r->ctx[r->n] = ctx;
		r->point[r->n] = point;
		r->n++;
	}
	if (ctx + 1 > r->nctx)
		r->nctx = ctx + 1;
}

#define LEN (200 * 1024 + 12) /* four chunks and a bit */

/*
 * Bind the reference driver to a copy engine of a lockstep machine, copy
 * LEN bytes and fill them, check the bytes, tear down.  Return: the
 * machine's fingerprint at the end; @r (if not NULL) gets the points.
 */
static uint64_t ce_run(const char *profile, uint64_t seed, struct rec *r)
{
	struct dmaemu_machine *m = machine(profile, seed);
	struct dmaemu_device *d;
	struct cedrv *ce;
	uint8_t *src, *dst;
	uint64_t fp, points;
	size_t i;

	if (r)
		ck_assert_int_eq(dmaemu_sched_set_trace(m, record, r), 0);
	ck_assert_int_eq(platform_driver_register(&cedrv_driver), 0);
	d = dmaemu_copy_engine_create(m, "ce0");
	ck_assert_ptr_nonnull(d);
	ce = cedrv_first();
	ck_assert_ptr_nonnull(ce);
	src = kmalloc(LEN, GFP_KERNEL);
	dst = kmalloc(LEN, GFP_KERNEL);
	ck_assert_ptr_nonnull(src);
	ck_assert_ptr_nonnull(dst);
	for (i = 0; i < LEN; i++) {
		src[i] = (uint8_t)(i * 13 + (i >> 9));
		dst[i] = 0x5a;
	}
	ck_assert_int_eq(cedrv_memcpy(ce, dst, src, LEN), 0);
	ck_assert(!memcmp(dst, src, LEN));
	ck_assert_int_eq(cedrv_memset32(ce, dst, 0x01020304, LEN - 12), 0);
	ck_assert_uint_eq(((uint32_t *)(void *)dst)[17], 0x01020304);
	ck_assert(!memcmp(dst + LEN - 12, src + LEN - 12, 12));
	ck_assert_uint_ge(cedrv_irqs(ce), 2);
	kfree(dst);
	kfree(src);
	dmaemu_device_destroy(d);
	platform_driver_unregister(&cedrv_driver);
	fp = dmaemu_sched_fingerprint(m, &points);
	ck_assert_uint_gt(points, 10);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 0);
	dmaemu_machine_destroy(m);
	return fp;
}

/* The reference driver (interrupt handler, completion, spinlock) and the
 * engine's thread run in lockstep on every profile. */
START_TEST(test_copy_engine)
{
	static struct rec r;
	bool dev = false, irq = false;
	size_t i;

	memset(&r, 0, sizeof(r));
	ce_run(profiles[_i], 1, &r);
	ck_assert_uint_gt(r.n, 10);
	ck_assert_uint_ge(r.nctx, 3); /* cpu0, the device, the irq thread */
	for (i = 0; i < r.n; i++) {
		dev |= !strcmp(r.point[i], "dma read");
		irq |= !strcmp(r.point[i], "irq delivery");
	}
	ck_assert(dev);
	ck_assert(irq);
}
END_TEST

/* Same seed, same program: the same (context, point) sequence. */
START_TEST(test_same_seed_same_interleaving)
{
	static struct rec a, b;
	uint64_t fa, fb;
	size_t i;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	fa = ce_run("arm64", 42, &a);
	fb = ce_run("arm64", 42, &b);
	ck_assert_uint_eq(a.n, b.n);
	ck_assert_uint_lt(a.n, MAXREC);
	for (i = 0; i < a.n; i++) {
		ck_assert_uint_eq(a.ctx[i], b.ctx[i]);
		ck_assert_str_eq(a.point[i], b.point[i]);
	}
	ck_assert_uint_eq(fa, fb);
	ck_assert_uint_ne(fa, 0);
}
END_TEST

/* Different seeds choose differently. */
START_TEST(test_seeds_differ)
{
	uint64_t fp[6];
	unsigned int i, distinct = 1, j;

	for (i = 0; i < 6; i++)
		fp[i] = ce_run("arm64", 100 + i, NULL);
	for (i = 1; i < 6; i++) {
		for (j = 0; j < i && fp[j] != fp[i]; j++)
			;
		distinct += j == i;
	}
	ck_assert_uint_ge(distinct, 3);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Time                                                                   */
/* ---------------------------------------------------------------------- */

/* Every context waits: emulated time jumps to the nearest deadline, at
 * once in host time, by exactly what the waits asked. */
START_TEST(test_time_jumps)
{
	struct dmaemu_machine *m = machine("arm64", 1);
	DECLARE_COMPLETION_ONSTACK(never);
	uint64_t t0, h0;
	unsigned long j0;

	t0 = dmaemu_time_ns();
	j0 = jiffies;
	h0 = host_ms();
	msleep(5000);
	ck_assert_uint_eq(dmaemu_time_ns() - t0, 5000000000ULL);
	ck_assert_uint_eq(jiffies - j0, 5000);
	ck_assert_uint_eq(wait_for_completion_timeout(&never, 250), 0);
	ck_assert_uint_eq(jiffies - j0, 5250);
	udelay(7);
	ck_assert_uint_eq(dmaemu_time_ns() - t0, 5250007000ULL);
	ck_assert_uint_lt(host_ms() - h0, 2000); /* no host sleep */
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 0);
	dmaemu_machine_destroy(m);
}
END_TEST

struct sleeper {
	struct dmaemu_machine *m;
	unsigned int ms;
	struct completion done;
	uint64_t woke; /* emulated ns */
};

static void *sleeper_main(void *arg)
{
	struct sleeper *s = arg;

	msleep(s->ms); /* joins the machine's lockstep here */
	s->woke = dmaemu_time_ns();
	complete(&s->done);
	return NULL;
}

/* Driver threads started with dmaemu_thread_create() are contexts from
 * the start: two sleepers wake in deadline order, at their deadlines. */
START_TEST(test_driver_threads)
{
	struct dmaemu_machine *m = machine("arm64", 3);
	struct sleeper a = {.m = m, .ms = 30}, b = {.m = m, .ms = 10};
	struct dmaemu_thread *ta, *tb;
	uint64_t t0 = dmaemu_time_ns();

	init_completion(&a.done);
	init_completion(&b.done);
	ta = dmaemu_thread_create(m, "a", sleeper_main, &a);
	tb = dmaemu_thread_create(m, "b", sleeper_main, &b);
	ck_assert_ptr_nonnull(ta);
	ck_assert_ptr_nonnull(tb);
	wait_for_completion(&a.done);
	wait_for_completion(&b.done);
	ck_assert_uint_eq(a.woke - t0, 30000000ULL);
	ck_assert_uint_eq(b.woke - t0, 10000000ULL);
	ck_assert_ptr_null(dmaemu_thread_join(ta));
	ck_assert_ptr_null(dmaemu_thread_join(tb));
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 0);
	dmaemu_machine_destroy(m);
}
END_TEST

static void note_ctx(void *arg, unsigned int ctx, const char *name,
		     const char *point)
{
	(void)ctx;
	(void)point;
	if (!strcmp(name, "thread1"))
		__atomic_store_n((int *)arg, 1, __ATOMIC_RELAXED);
}

/* A thread made with pthread_create() joins at its first point (here
 * msleep()) as context "thread1". */
START_TEST(test_thread_joins)
{
	struct dmaemu_machine *m = machine("arm64", 5);
	struct sleeper a = {.m = m, .ms = 10};
	pthread_t ta;
	uint64_t h0 = host_ms();
	int seen = 0;

	ck_assert_int_eq(dmaemu_sched_set_trace(m, note_ctx, &seen), 0);
	init_completion(&a.done);
	ck_assert_int_eq(pthread_create(&ta, NULL, sleeper_main, &a), 0);
	/* Until it has joined, each wait jumps 1 s of emulated time. */
	while (!wait_for_completion_timeout(&a.done, 1000))
		ck_assert_uint_lt(host_ms() - h0, 60000);
	ck_assert_int_eq(pthread_join(ta, NULL), 0);
	ck_assert_int_eq(__atomic_load_n(&seen, __ATOMIC_RELAXED), 1);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 0);
	dmaemu_machine_destroy(m);
}
END_TEST

static DEFINE_MUTEX(big);
static int order[4], norder;

static void *holder_main(void *arg)
{
	(void)arg;
	mutex_lock(&big);
	order[norder++] = 1;
	msleep(20); /* the other thread runs, and waits for the mutex */
	order[norder++] = 2;
	mutex_unlock(&big);
	return NULL;
}

static void *taker_main(void *arg)
{
	uint64_t *when = arg;

	msleep(1); /* the holder has the mutex by now */
	mutex_lock(&big);
	*when = dmaemu_time_ns();
	order[norder++] = 3;
	mutex_unlock(&big);
	return NULL;
}

/* Contention on a kernel lock is a wait: the taker sleeps until the
 * holder's unlock, at the holder's emulated time. */
START_TEST(test_lock_contention)
{
	struct dmaemu_machine *m = machine("arm", 11);
	struct dmaemu_thread *h, *t;
	uint64_t t0 = dmaemu_time_ns(), when = 0;

	norder = 0;
	h = dmaemu_thread_create(m, "holder", holder_main, NULL);
	t = dmaemu_thread_create(m, "taker", taker_main, &when);
	ck_assert_ptr_nonnull(h);
	ck_assert_ptr_nonnull(t);
	dmaemu_thread_join(t);
	dmaemu_thread_join(h);
	ck_assert_int_eq(norder, 3);
	ck_assert_int_eq(order[0], 1);
	ck_assert_int_eq(order[1], 2);
	ck_assert_int_eq(order[2], 3);
	ck_assert_uint_eq(when - t0, 20000000ULL);
	ck_assert_ptr_null(dmaemu_thread_create(m, "x", NULL, NULL));
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_uint_eq(dmaemu_report_count(m, "bad-argument"), 1);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 1);
	dmaemu_machine_destroy(m);
}
END_TEST

/* A model whose run arms its timer on a doorbell and, when busy, works
 * until it is told to stop. */
struct tmodel {
	uint64_t timer_ns;
	uint64_t fired_at; /* emulated time of the timer's run */
	int busy, in_run, stopped;
	struct completion done; /* the timer fired; run started */
};

static void tmodel_run(struct dmaemu_device *dev, unsigned int events)
{
	struct tmodel *t = dmaemu_device_priv(dev);

	if (events & DMAEMU_DEVICE_TIMER) {
		t->fired_at = dmaemu_time_ns();
		complete(&t->done);
	}
	if ((events & DMAEMU_DEVICE_DOORBELL) && t->timer_ns)
		dmaemu_device_timer_arm(dev, t->timer_ns);
	if (!t->busy)
		return;
	WRITE_ONCE(t->in_run, 1);
	complete(&t->done);
	while (!dmaemu_device_stopping(dev))
		udelay(50);
	t->stopped = 1;
	WRITE_ONCE(t->in_run, 0);
}

static const struct dmaemu_device_ops tmodel_ops = {.run = tmodel_run};

/* A device timer fires at its deadline of emulated time; a cancelled
 * one does not fire. */
START_TEST(test_device_timer)
{
	struct dmaemu_machine *m = machine("arm64", 4);
	struct tmodel t = {.timer_ns = 20000000};
	struct dmaemu_device *d;
	uint64_t t0;

	init_completion(&t.done);
	d = dmaemu_device_create(m, "t0", &tmodel_ops, &t);
	ck_assert_ptr_nonnull(d);
	t0 = dmaemu_time_ns();
	ck_assert_int_eq(dmaemu_device_doorbell(d), 0);
	wait_for_completion(&t.done);
	ck_assert_uint_eq(t.fired_at - t0, 20000000ULL);
	ck_assert_uint_eq(dmaemu_time_ns() - t0, 20000000ULL);
	ck_assert_int_eq(dmaemu_device_timer_arm(d, 30000000), 0);
	ck_assert_int_eq(dmaemu_device_timer_cancel(d), 1);
	ck_assert_uint_eq(wait_for_completion_timeout(&t.done, 60), 0);
	ck_assert_uint_eq(dmaemu_time_ns() - t0, 80000000ULL);
	dmaemu_device_destroy(d);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 0);
	dmaemu_machine_destroy(m);
}
END_TEST

/* Reset waits (a scheduling wait) for a run in progress, which sees
 * stopping and returns. */
START_TEST(test_reset_mid_run)
{
	struct dmaemu_machine *m = machine("x86", 6);
	struct tmodel t = {.busy = 1};
	struct dmaemu_device *d;

	init_completion(&t.done);
	d = dmaemu_device_create(m, "t0", &tmodel_ops, &t);
	ck_assert_ptr_nonnull(d);
	ck_assert_int_eq(dmaemu_device_doorbell(d), 0);
	wait_for_completion(&t.done);
	ck_assert_int_eq(READ_ONCE(t.in_run), 1);
	ck_assert_int_eq(dmaemu_device_reset(d), 0);
	ck_assert_int_eq(READ_ONCE(t.in_run), 0);
	ck_assert_int_eq(t.stopped, 1);
	dmaemu_device_destroy(d);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 0);
	dmaemu_machine_destroy(m);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Deadlock                                                               */
/* ---------------------------------------------------------------------- */

static DECLARE_WAIT_QUEUE_HEAD(wq);
static int flag;

static void *stuck_main(void *arg)
{
	struct completion *never = arg;

	mutex_lock(&big);
	wait_for_completion(never); /* ended by the deadlock */
	mutex_unlock(&big);
	return NULL;
}

/* A deadlock through a lock: the completion's wait returns, the lock's
 * waiter leaves lockstep and gets the lock when it is unlocked. */
START_TEST(test_lock_deadlock)
{
	struct dmaemu_machine *m = machine("arm64", 2);
	DECLARE_COMPLETION_ONSTACK(never);
	struct dmaemu_thread *t;

	t = dmaemu_thread_create(m, "stuck", stuck_main, &never);
	ck_assert_ptr_nonnull(t);
	msleep(1); /* "stuck" holds the mutex by now */
	mutex_lock(&big);
	ck_assert(mutex_is_locked(&big));
	mutex_unlock(&big);
	ck_assert_uint_eq(dmaemu_report_count(m, "lockstep-deadlock"), 1);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 1);
	dmaemu_thread_join(t);
	dmaemu_machine_destroy(m);
}
END_TEST

/* Nobody will complete it and no timer is armed: reported, and the wait
 * returns (its timeout path) instead of hanging. */
START_TEST(test_deadlock_reported)
{
	struct dmaemu_machine *m = machine(profiles[_i], 1);
	struct dmaemu_device *d = dmaemu_copy_engine_create(m, "ce0");
	DECLARE_COMPLETION_ONSTACK(never);
	static struct dmaemu_report r;
	long ret;

	ck_assert_ptr_nonnull(d);
	/* The engine's thread waits for a doorbell: an idle wait. */
	wait_for_completion(&never);
	ck_assert_uint_eq(dmaemu_report_count(m, "lockstep-deadlock"), 1);
	ck_assert_int_eq(dmaemu_report_get(m, 0, &r), 0);
	ck_assert_ptr_nonnull(
		strstr(r.text, "(cpu0 in wait_for_completion())"));
	ck_assert(!completion_done(&never));
	ret = wait_event_timeout(wq, READ_ONCE(flag), MAX_SCHEDULE_TIMEOUT);
	ck_assert_int_eq(ret, 0);
	ck_assert_uint_eq(dmaemu_report_count(m, "lockstep-deadlock"), 2);
	/* A wait with a deadline is no deadlock: time jumps instead. */
	ck_assert_uint_eq(wait_for_completion_timeout(&never, 10), 0);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 2);
	dmaemu_device_destroy(d);
	dmaemu_machine_destroy(m);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* The option                                                             */
/* ---------------------------------------------------------------------- */

START_TEST(test_option)
{
	struct dmaemu_machine *m;
	char buf[32];
	uint64_t points = 7;

	ck_assert_ptr_null(dmaemu_machine_create("sched=sometimes"));
	m = dmaemu_machine_create("log_path=/dev/null");
	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq(dmaemu_machine_option(m, "sched", buf, sizeof(buf)),
			 0);
	ck_assert_str_eq(buf, "threads");
	ck_assert_int_eq(dmaemu_sched_set_trace(m, record, NULL), -EINVAL);
	ck_assert_uint_eq(dmaemu_report_count(m, "bad-argument"), 1);
	ck_assert_uint_eq(dmaemu_sched_fingerprint(m, &points), 0);
	ck_assert_uint_eq(points, 0);
	dmaemu_machine_destroy(m);
	m = machine("x86", 9);
	ck_assert_int_eq(dmaemu_machine_option(m, "sched", buf, sizeof(buf)),
			 0);
	ck_assert_str_eq(buf, "lockstep");
	dmaemu_machine_destroy(m);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("lockstep");
	TCase *tc = tcase_create("lockstep");

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_option);
	tcase_add_loop_test(tc, test_copy_engine, 0, 3);
	tcase_add_test(tc, test_same_seed_same_interleaving);
	tcase_add_test(tc, test_seeds_differ);
	tcase_add_test(tc, test_time_jumps);
	tcase_add_test(tc, test_driver_threads);
	tcase_add_test(tc, test_thread_joins);
	tcase_add_test(tc, test_lock_contention);
	tcase_add_test(tc, test_lock_deadlock);
	tcase_add_test(tc, test_device_timer);
	tcase_add_test(tc, test_reset_mid_run);
	tcase_add_loop_test(tc, test_deadlock_reported, 0, 3);
	suite_add_tcase(s, tc);
	return check_run(s);
}
