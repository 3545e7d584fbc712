// SPDX-License-Identifier: MIT
/*
 * check-kernel-basics.c - the kernel personality's basic headers at work
 * (docs/kernel-headers.md): WARN_ON() reports and returns its condition,
 * BUG() reports and aborts, printk() on the machine's log, the macros of
 * <linux/kernel.h>, lists, bit operations, byte order and unaligned
 * access, timers and work items running on the machine's worker thread
 * (softirq and process context), spin_lock_irqsave() making a sleep in
 * its section a sleep-in-atomic report, copy_to_user() and friends,
 * current and schedule_timeout(), MAX_DMA_ADDRESS and cache_line_size().
 */
#include "config.h"

#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <asm/dma.h>
#include <asm/unaligned.h>
#include <linux/bitfield.h>
#include <linux/bitops.h>
#include <linux/bug.h>
#include <linux/cache.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/gfp.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/printk.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/timer.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>

#include <dmaemu/device.h>
#include <dmaemu/machine.h>
#include <dmaemu/report.h>

#include "check-run.h"
#include "fixture.h"
#include "threads.h"

static struct dmaemu_machine *m;

static void setup(void)
{
	m = fixture_machine("profile=arm64:mem=64M");
}

static void teardown(void)
{
	dmaemu_machine_destroy(m);
	m = NULL;
	fixture_teardown();
}

static uint64_t reports(const char *kind)
{
	return dmaemu_report_count(m, kind);
}

/* ---------------------------------------------------------------------- */
/* WARN, BUG, printk                                                      */
/* ---------------------------------------------------------------------- */

static int warn_if_one(int x)
{
	if (WARN_ON(x == 1))
		return -EINVAL;
	return 0;
}

static int warn_once(int x)
{
	return WARN_ON_ONCE(x > 0);
}

START_TEST(test_warn_on)
{
	int i, fired = 0;

	ck_assert_int_eq(warn_if_one(0), 0);
	ck_assert_uint_eq(reports(NULL), 0);
	ck_assert_int_eq(warn_if_one(1), -EINVAL);
	ck_assert_uint_eq(reports("kernel-warning"), 1);
	ck_assert_ptr_nonnull(strstr(fixture_log(), "kernel-warning"));
	ck_assert_ptr_nonnull(strstr(fixture_log(), "x == 1"));
	ck_assert_ptr_nonnull(strstr(fixture_log(), "check-kernel-basics.c"));
	ck_assert_ptr_nonnull(strstr(fixture_log(), "warn_if_one"));
	/* Once per call site, but the condition every time. */
	for (i = 0; i < 3; i++)
		fired += warn_once(1);
	ck_assert_int_eq(fired, 3);
	ck_assert_uint_eq(reports("kernel-warning"), 2);
	ck_assert(WARN(2 > 1, "the ring has %d entries", 7));
	ck_assert_ptr_nonnull(strstr(fixture_log(), "the ring has 7 entries"));
	ck_assert(!WARN(0, "never"));
	ck_assert_uint_eq(reports(NULL), 3);
}
END_TEST

static void bug_if(int x)
{
	BUG_ON(x == 3);
}

START_TEST(test_bug_aborts)
{
	int status;
	pid_t pid = fork();

	ck_assert_int_ne(pid, -1);
	if (!pid) {
		bug_if(2);
		bug_if(3);
		_exit(0); /* not reached */
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFSIGNALED(status));
	ck_assert_int_eq(WTERMSIG(status), SIGABRT);
	ck_assert_ptr_nonnull(strstr(fixture_log(), "kernel-bug"));
	ck_assert_ptr_nonnull(strstr(fixture_log(), "kernel BUG at"));
	ck_assert_ptr_nonnull(strstr(fixture_log(), "bug_if"));
	/* The child's report is not the parent machine's. */
	ck_assert_uint_eq(reports(NULL), 0);
}
END_TEST

START_TEST(test_printk)
{
	static const u8 bytes[20] = {0x41, 0x42, 0x43, 0x00, 0xff};
	const char *log;

	ck_assert_int_eq(printk(KERN_INFO "ring %d ready\n", 42), 17);
	pr_err("lost %s\n", "interrupt");
	pr_debug("debug line %d\n", 5);
	print_hex_dump(KERN_DEBUG, "rx: ", DUMP_PREFIX_OFFSET, 16, 1, bytes,
		       sizeof(bytes), true);
	log = fixture_log();
	ck_assert_ptr_nonnull(strstr(log, "<6>ring 42 ready\n"));
	ck_assert_ptr_nonnull(strstr(log, "<3>lost interrupt\n"));
	/* pr_debug() prints only with DEBUG defined, as in the kernel. */
	ck_assert_ptr_null(strstr(log, "debug line"));
	ck_assert_ptr_nonnull(
		strstr(log, "<7>rx: 00000000: 41 42 43 00 ff 00 00 00 00 00 00 "
			    "00 00 00 00 00  ABC."));
	ck_assert_ptr_nonnull(strstr(log, "<7>rx: 00000010: 00 00 00 00"));
	ck_assert_uint_eq(reports(NULL), 0);
}
END_TEST

/* In tests/api/kernel-debug.c, which defines DEBUG and VERBOSE_DEBUG. */
void kernel_debug_print(struct device *dev, int n);

/*
 * As in Linux 4.14 without dynamic debug: dev_dbg(), dev_vdbg() and
 * pr_debug() print only in a file that defines DEBUG (dev_vdbg() also
 * VERBOSE_DEBUG); this file defines neither.
 */
START_TEST(test_debug_prints)
{
	struct dmaemu_device *dd = dmaemu_device_create(m, "dbg0", NULL, NULL);
	struct device *dev;
	const char *log;

	ck_assert_ptr_nonnull(dd);
	dev = dmaemu_device_to_dev(dd);
	dev_dbg(dev, "quiet dbg %d\n", 1);
	dev_vdbg(dev, "quiet vdbg %d\n", 2);
	pr_debug("quiet pr_debug %d\n", 3);
	dev_info(dev, "info %d\n", 4);
	kernel_debug_print(dev, 5);
	log = fixture_log();
	ck_assert_ptr_null(strstr(log, "quiet"));
	ck_assert_ptr_nonnull(strstr(log, "<6>dbg0: info 4\n"));
	ck_assert_ptr_nonnull(strstr(log, "<7>dbg0: dbg line 5\n"));
	ck_assert_ptr_nonnull(strstr(log, "<7>dbg0: vdbg line 5\n"));
	ck_assert_ptr_nonnull(strstr(log, "<7>pr_debug line 5\n"));
	ck_assert_uint_eq(reports(NULL), 0);
	dmaemu_device_destroy(dd);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* <linux/kernel.h>, lists, bits, byte order                              */
/* ---------------------------------------------------------------------- */

struct outer {
	int a;
	struct list_head node;
	u32 val;
};

START_TEST(test_kernel_macros)
{
	struct outer o = {.val = 9};
	u8 arr[13];
	u64 v = 0x123456789abcdef0ULL;
	int i = 5;

	ck_assert_ptr_eq(container_of(&o.node, struct outer, node), &o);
	ck_assert_uint_eq(ARRAY_SIZE(arr), 13);
	ck_assert_int_eq(min(3, 7), 3);
	ck_assert_int_eq(max(3, 7), 7);
	ck_assert_int_eq(min(i++, 100), 5); /* evaluated once */
	ck_assert_int_eq(i, 6);
	ck_assert_uint_eq(min_t(u8, 0x1ff, 0x20), 0x20);
	ck_assert_uint_eq(max_t(u32, 5, 0xffffffffU), 0xffffffffU);
	ck_assert_int_eq(clamp(15, 0, 10), 10);
	ck_assert_int_eq(clamp(-3, 0, 10), 0);
	ck_assert_uint_eq(round_up(1000, 64), 1024);
	ck_assert_uint_eq(round_down(1000, 64), 960);
	ck_assert_uint_eq(roundup(1000, 300), 1200);
	ck_assert_uint_eq(rounddown(1000, 300), 900);
	ck_assert_uint_eq(ALIGN(4097, 4096), 8192);
	ck_assert(IS_ALIGNED(8192, 4096));
	ck_assert_uint_eq(DIV_ROUND_UP(1514, 256), 6);
	ck_assert_uint_eq(DIV_ROUND_CLOSEST(7, 2), 4);
	ck_assert_uint_eq(BIT(5), 32);
	ck_assert_uint_eq(GENMASK(7, 4), 0xf0);
	ck_assert_uint_eq(GENMASK_ULL(39, 32), 0xff00000000ULL);
	ck_assert_uint_eq(upper_32_bits(v), 0x12345678);
	ck_assert_uint_eq(lower_32_bits(v), 0x9abcdef0);
	ck_assert_int_eq(ilog2(4096), 12);
	ck_assert(is_power_of_2(64) && !is_power_of_2(96));
	ck_assert_uint_eq(roundup_pow_of_two(1500), 2048);
	ck_assert_uint_eq(L1_CACHE_BYTES, 128);
	ck_assert_int_eq(cache_line_size(), 64);
}
END_TEST

START_TEST(test_list)
{
	LIST_HEAD(head);
	LIST_HEAD(other);
	struct outer e[4], *pos, *n;
	int i, seen[4], k = 0;

	ck_assert(list_empty(&head));
	for (i = 0; i < 4; i++) {
		e[i].val = (u32)i;
		list_add_tail(&e[i].node, &head);
	}
	ck_assert(!list_empty(&head));
	ck_assert_ptr_eq(list_first_entry(&head, struct outer, node), &e[0]);
	ck_assert_ptr_eq(list_last_entry(&head, struct outer, node), &e[3]);
	list_for_each_entry (pos, &head, node)
		seen[k++] = (int)pos->val;
	ck_assert_int_eq(k, 4);
	ck_assert(seen[0] == 0 && seen[1] == 1 && seen[2] == 2 && seen[3] == 3);
	/* Delete while walking; move one to another list. */
	list_for_each_entry_safe (pos, n, &head, node)
		if (pos->val == 1)
			list_del(&pos->node);
	ck_assert_ptr_eq(e[1].node.next, LIST_POISON1);
	list_move(&e[3].node, &other);
	ck_assert(list_is_singular(&other));
	list_add(&e[1].node, &head); /* at the front */
	k = 0;
	list_for_each_entry (pos, &head, node)
		seen[k++] = (int)pos->val;
	ck_assert_int_eq(k, 3);
	ck_assert(seen[0] == 1 && seen[1] == 0 && seen[2] == 2);
	list_splice_tail_init(&other, &head);
	ck_assert(list_empty(&other));
	ck_assert_ptr_eq(list_last_entry(&head, struct outer, node), &e[3]);
	list_del_init(&e[0].node);
	ck_assert(list_empty(&e[0].node));
	ck_assert_ptr_eq(list_first_entry_or_null(&other, struct outer, node),
			 NULL);
}
END_TEST

START_TEST(test_bitops)
{
	unsigned long bits[3] = {0};
	unsigned long b, found[4];
	int k = 0;

	set_bit(3, bits);
	set_bit(64, bits);
	__set_bit(130, bits);
	ck_assert(test_bit(3, bits) && test_bit(64, bits) &&
		  test_bit(130, bits));
	ck_assert(!test_bit(4, bits));
	ck_assert_uint_eq(bits[1], 1);
	ck_assert_int_eq(test_and_set_bit(64, bits), 1);
	ck_assert_int_eq(test_and_set_bit(65, bits), 0);
	ck_assert_int_eq(test_and_clear_bit(65, bits), 1);
	ck_assert_int_eq(test_and_clear_bit(65, bits), 0);
	clear_bit(3, bits);
	ck_assert_uint_eq(bits[0], 0);
	change_bit(0, bits);
	ck_assert_uint_eq(bits[0], 1);
	__clear_bit(0, bits);
	for_each_set_bit(b, bits, 192) found[k++] = b;
	ck_assert_int_eq(k, 2);
	ck_assert(found[0] == 64 && found[1] == 130);
	ck_assert_uint_eq(find_first_zero_bit(bits, 192), 0);
	ck_assert_uint_eq(find_next_bit(bits, 100, 65), 100);
	ck_assert_int_eq(ffs(0), 0);
	ck_assert_int_eq(ffs(0x18), 4);
	ck_assert_int_eq(fls(0), 0);
	ck_assert_int_eq(fls(0x18), 5);
	ck_assert_int_eq(fls(0x80000000U), 32);
	ck_assert_int_eq(fls64(1ULL << 40), 41);
	ck_assert_uint_eq(__ffs(0x18), 3);
	ck_assert_uint_eq(__fls(0x18), 4);
	ck_assert_uint_eq(ffz(0xff), 8);
	ck_assert_uint_eq(hweight8(0x1ff), 8);
	ck_assert_uint_eq(hweight32(0xf0f0f0f0), 16);
	ck_assert_uint_eq(hweight64(~0ULL), 64);
	/* Register fields by mask. */
	ck_assert_uint_eq(FIELD_PREP(GENMASK(11, 8), 0x5), 0x500);
	ck_assert_uint_eq(FIELD_GET(GENMASK(11, 8), 0xa5f3UL), 0x5);
	ck_assert_uint_eq(FIELD_MAX(GENMASK(11, 8)), 0xf);
	ck_assert(FIELD_FIT(GENMASK(11, 8), 0xf));
	ck_assert(!FIELD_FIT(GENMASK(11, 8), 0x10));
}
END_TEST

START_TEST(test_byteorder)
{
	u8 buf[16] = {0};
	__le32 le = cpu_to_le32(0x11223344);
	__be32 be = cpu_to_be32(0x11223344);
	__le16 le16 = cpu_to_le16(0xfff0);
	u32 x = 0x01020304;

	memcpy(buf, &le, 4);
	ck_assert(buf[0] == 0x44 && buf[1] == 0x33 && buf[2] == 0x22 &&
		  buf[3] == 0x11);
	memcpy(buf, &be, 4);
	ck_assert(buf[0] == 0x11 && buf[1] == 0x22 && buf[2] == 0x33 &&
		  buf[3] == 0x44);
	ck_assert_uint_eq(le32_to_cpu(le), 0x11223344);
	ck_assert_uint_eq(be32_to_cpu(be), 0x11223344);
	ck_assert_uint_eq(be16_to_cpu(cpu_to_be16(0xabcd)), 0xabcd);
	ck_assert_uint_eq(le64_to_cpu(cpu_to_le64(0x0102030405060708ULL)),
			  0x0102030405060708ULL);
	ck_assert_uint_eq(be64_to_cpu(cpu_to_be64(1)), 1);
	ck_assert_uint_eq(le16_to_cpup(&le16), 0xfff0);
	le16_add_cpu(&le16, 0x20);
	ck_assert_uint_eq(le16_to_cpu(le16), 0x0010);
	ck_assert_uint_eq(swab32(0x11223344), 0x44332211);
	ck_assert_uint_eq(swab16(0x1122), 0x2211);
	cpu_to_be32s(&x);
	memcpy(buf, &x, 4);
	ck_assert(buf[0] == 1 && buf[3] == 4);
}
END_TEST

START_TEST(test_unaligned)
{
	u8 buf[24];
	u32 v32;
	u64 v64;
	int i;

	for (i = 0; i < 24; i++)
		buf[i] = (u8)(i + 1);
	ck_assert_uint_eq(get_unaligned_le32(buf + 1), 0x05040302);
	ck_assert_uint_eq(get_unaligned_be32(buf + 1), 0x02030405);
	ck_assert_uint_eq(get_unaligned_le16(buf + 3), 0x0504);
	ck_assert_uint_eq(get_unaligned_be16(buf + 3), 0x0405);
	ck_assert_uint_eq(get_unaligned_le64(buf + 5), 0x0d0c0b0a09080706ULL);
	put_unaligned_le32(0xa1b2c3d4, buf + 7);
	ck_assert(buf[7] == 0xd4 && buf[8] == 0xc3 && buf[9] == 0xb2 &&
		  buf[10] == 0xa1);
	put_unaligned_be64(0x1122334455667788ULL, buf + 11);
	ck_assert(buf[11] == 0x11 && buf[18] == 0x88);
	put_unaligned_be16(0xbeef, buf + 1);
	ck_assert(buf[1] == 0xbe && buf[2] == 0xef);
	v32 = get_unaligned((u32 *)(void *)(buf + 7));
	ck_assert_uint_eq(v32, get_unaligned_le32(buf + 7));
	put_unaligned((u64)0x0102030405060708ULL, (u64 *)(void *)(buf + 13));
	memcpy(&v64, buf + 13, 8);
	ck_assert_uint_eq(v64, 0x0102030405060708ULL);
	ck_assert_uint_eq(get_unaligned_le24(buf + 7), 0xb2c3d4);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Timers                                                                 */
/* ---------------------------------------------------------------------- */

struct tstate {
	struct timer_list timer;
	struct completion done;
	pthread_t thread;
	int softirq, calls, slept;
	unsigned long fired_at, data;
	counter_t started, finished;
};

static void timer_cb(struct timer_list *t)
{
	struct tstate *s = from_timer(s, t, timer);

	s->thread = pthread_self();
	s->softirq = in_softirq() && !in_irq();
	s->fired_at = jiffies;
	s->calls++;
	complete(&s->done);
}

START_TEST(test_timer_runs_on_worker)
{
	struct tstate s = {0};
	unsigned long armed;

	init_completion(&s.done);
	timer_setup(&s.timer, timer_cb, 0);
	ck_assert(!timer_pending(&s.timer));
	armed = jiffies;
	/* 200 ms: the timer is still pending at the next line even under
	 * DRD on a loaded host. */
	ck_assert_int_eq(mod_timer(&s.timer, armed + HZ / 5), 0);
	ck_assert(timer_pending(&s.timer));
	ck_assert_uint_gt(wait_for_completion_timeout(&s.done, 5 * HZ), 0);
	ck_assert(!pthread_equal(s.thread, pthread_self()));
	ck_assert_int_eq(s.softirq, 1);
	ck_assert(time_after_eq(s.fired_at, armed + HZ / 5));
	ck_assert(!timer_pending(&s.timer));
	ck_assert_int_eq(del_timer_sync(&s.timer), 0);
	ck_assert_int_eq(s.calls, 1);
	ck_assert_uint_eq(reports(NULL), 0);
}
END_TEST

static void old_style_cb(unsigned long data)
{
	struct tstate *s = (struct tstate *)data;

	s->data = data;
	s->calls++;
	complete(&s->done);
}

/* The 4.14 style (setup_timer, data argument); mod_timer of an armed
 * timer moves it; del_timer of an armed timer keeps it from running. */
START_TEST(test_timer_old_style_and_del)
{
	struct tstate s = {0};

	init_completion(&s.done);
	setup_timer(&s.timer, old_style_cb, (unsigned long)&s);
	ck_assert_int_eq(mod_timer(&s.timer, jiffies + 10 * HZ), 0);
	ck_assert_int_eq(mod_timer(&s.timer, jiffies + 5), 1);
	ck_assert_uint_gt(wait_for_completion_timeout(&s.done, 5 * HZ), 0);
	ck_assert_uint_eq(s.data, (unsigned long)&s);
	s.timer.expires = jiffies + 30;
	add_timer(&s.timer);
	ck_assert_int_eq(del_timer(&s.timer), 1);
	ck_assert_int_eq(del_timer(&s.timer), 0);
	msleep(60);
	ck_assert_int_eq(s.calls, 1);
}
END_TEST

static void slow_cb(struct timer_list *t)
{
	struct tstate *s = from_timer(s, t, timer);

	cset(&s->started, 1);
	mdelay(40); /* a busy-wait: allowed in softirq context */
	cset(&s->finished, 1);
}

START_TEST(test_del_timer_sync_waits)
{
	struct tstate s = {0};

	timer_setup(&s.timer, slow_cb, 0);
	mod_timer(&s.timer, jiffies);
	WAIT_UNTIL(cget(&s.started), 5000);
	ck_assert_int_eq(del_timer_sync(&s.timer), 0);
	ck_assert_int_eq(cget(&s.finished), 1);
}
END_TEST

static void sleepy_cb(struct timer_list *t)
{
	struct tstate *s = from_timer(s, t, timer);

	msleep(1); /* a sleep in softirq context: a bug */
	complete(&s->done);
}

START_TEST(test_timer_sleep_in_atomic)
{
	struct tstate s = {0};

	init_completion(&s.done);
	timer_setup(&s.timer, sleepy_cb, 0);
	mod_timer(&s.timer, jiffies + 1);
	ck_assert_uint_gt(wait_for_completion_timeout(&s.done, 5 * HZ), 0);
	del_timer_sync(&s.timer);
	ck_assert_uint_eq(reports("sleep-in-atomic"), 1);
	ck_assert_uint_eq(reports(NULL), 1);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Work items                                                             */
/* ---------------------------------------------------------------------- */

struct wstate {
	struct work_struct work;
	struct delayed_work dwork;
	struct work_struct other;
	struct work_struct gate;
	struct completion done;
	pthread_t thread;
	int process_ctx, calls, flushed;
	counter_t started, finished;
	unsigned long ran_at;
};

static void work_fn(struct work_struct *w)
{
	struct wstate *s = container_of(w, struct wstate, work);

	s->thread = pthread_self();
	s->process_ctx = !in_interrupt() && !in_atomic();
	msleep(2); /* process context may sleep */
	s->calls++;
	complete(&s->done);
}

static struct completion gate;

static void gate_fn(struct work_struct *w)
{
	wait_for_completion(&gate);
}

START_TEST(test_work_runs_on_worker)
{
	struct wstate s = {0};

	init_completion(&s.done);
	INIT_WORK(&s.work, work_fn);
	ck_assert(!work_pending(&s.work));
	ck_assert(schedule_work(&s.work));
	ck_assert_uint_gt(wait_for_completion_timeout(&s.done, 5 * HZ), 0);
	flush_work(&s.work);
	ck_assert(!pthread_equal(s.thread, pthread_self()));
	ck_assert_int_eq(s.process_ctx, 1);
	ck_assert_int_eq(s.calls, 1);
	ck_assert(!work_pending(&s.work));
	/* Queued twice while pending (the worker busy): runs once. */
	INIT_WORK(&s.other, gate_fn);
	init_completion(&gate);
	ck_assert(schedule_work(&s.other));
	ck_assert(schedule_work(&s.work));
	ck_assert(work_pending(&s.work));
	ck_assert(!schedule_work(&s.work));
	complete(&gate);
	flush_work(&s.work);
	ck_assert_int_eq(s.calls, 2);
	ck_assert_uint_eq(reports(NULL), 0);
}
END_TEST

static void dwork_fn(struct work_struct *w)
{
	struct wstate *s =
		container_of(to_delayed_work(w), struct wstate, dwork);

	s->ran_at = jiffies;
	s->calls++;
	complete(&s->done);
}

START_TEST(test_delayed_work)
{
	struct wstate s = {0};
	unsigned long queued;

	init_completion(&s.done);
	INIT_DELAYED_WORK(&s.dwork, dwork_fn);
	queued = jiffies;
	ck_assert(schedule_delayed_work(&s.dwork, 20));
	ck_assert(delayed_work_pending(&s.dwork));
	ck_assert(!schedule_delayed_work(&s.dwork, 1));
	ck_assert_uint_gt(wait_for_completion_timeout(&s.done, 5 * HZ), 0);
	ck_assert(time_after_eq(s.ran_at, queued + 20));
	flush_delayed_work(&s.dwork);
	/* Cancelled before its delay ran out: never runs. */
	ck_assert(schedule_delayed_work(&s.dwork, 50));
	ck_assert(cancel_delayed_work_sync(&s.dwork));
	ck_assert(!delayed_work_pending(&s.dwork));
	msleep(80);
	ck_assert_int_eq(s.calls, 1);
	/* flush_delayed_work() runs the delay out at once. */
	reinit_completion(&s.done);
	ck_assert(queue_delayed_work(system_wq, &s.dwork, 10 * HZ));
	flush_delayed_work(&s.dwork);
	ck_assert_int_eq(s.calls, 2);
	ck_assert_uint_eq(reports(NULL), 0);
}
END_TEST

/* A delayed work item is queued on the worker its timer ran on, even when
 * another machine has become current meanwhile: here that machine's
 * worker is busy, and the item still runs. */
START_TEST(test_delayed_work_two_machines)
{
	struct dmaemu_machine *other;
	struct wstate s = {0}, b = {0};

	init_completion(&s.done);
	INIT_DELAYED_WORK(&s.dwork, dwork_fn);
	ck_assert(schedule_delayed_work(&s.dwork, 30));
	other = fixture_machine("profile=x86");
	init_completion(&gate);
	INIT_WORK(&b.gate, gate_fn);
	schedule_work(&b.gate); /* the other machine's worker waits */
	ck_assert_uint_gt(wait_for_completion_timeout(&s.done, 5 * HZ), 0);
	ck_assert_int_eq(s.calls, 1);
	complete(&gate);
	flush_work(&b.gate);
	dmaemu_machine_destroy(other);
	ck_assert_uint_eq(reports(NULL), 0);
}
END_TEST

static void slow_work_fn(struct work_struct *w)
{
	struct wstate *s = container_of(w, struct wstate, work);

	cset(&s->started, 1);
	msleep(40);
	cset(&s->finished, 1);
}

START_TEST(test_cancel_work_sync_waits)
{
	struct wstate s = {0};

	INIT_WORK(&s.work, slow_work_fn);
	schedule_work(&s.work);
	WAIT_UNTIL(cget(&s.started), 5000);
	/* Running, no longer pending: false, after it returned. */
	ck_assert(!cancel_work_sync(&s.work));
	ck_assert_int_eq(cget(&s.finished), 1);
	/* Pending behind a busy worker: taken off, true, never runs. */
	init_completion(&gate);
	INIT_WORK(&s.other, gate_fn);
	schedule_work(&s.other);
	cset(&s.started, 0);
	schedule_work(&s.work);
	ck_assert(cancel_work_sync(&s.work));
	complete(&gate);
	flush_work(&s.other);
	ck_assert_int_eq(cget(&s.started), 0);
}
END_TEST

static void flushing_fn(struct work_struct *w)
{
	struct wstate *s = container_of(w, struct wstate, work);

	s->flushed = flush_work(&s->other);
	complete(&s->done);
}

static void nop_fn(struct work_struct *w)
{
}

/* One worker cannot wait for itself: a report, no hang. */
START_TEST(test_flush_from_worker)
{
	struct wstate s = {0};

	init_completion(&s.done);
	INIT_WORK(&s.work, flushing_fn);
	INIT_WORK(&s.other, nop_fn);
	/* Both queued before either runs: the worker waits at the gate. */
	init_completion(&gate);
	INIT_WORK(&s.gate, gate_fn);
	schedule_work(&s.gate);
	schedule_work(&s.work);
	schedule_work(&s.other);
	complete(&gate);
	ck_assert_uint_gt(wait_for_completion_timeout(&s.done, 5 * HZ), 0);
	flush_work(&s.other);
	ck_assert_int_eq(s.flushed, 0);
	ck_assert_uint_eq(reports("bad-argument"), 1);
	ck_assert_ptr_nonnull(strstr(fixture_log(), "flush_work()"));
}
END_TEST

static void count_fn(struct work_struct *w)
{
	struct wstate *s = container_of(w, struct wstate, work);

	msleep(5);
	s->calls++;
}

START_TEST(test_own_workqueue)
{
	struct workqueue_struct *wq =
		alloc_workqueue("ring%d", WQ_UNBOUND, 1, 3);
	struct wstate s = {0};

	ck_assert_ptr_nonnull(wq);
	INIT_WORK(&s.work, count_fn);
	ck_assert(queue_work(wq, &s.work));
	flush_workqueue(wq);
	ck_assert_int_eq(s.calls, 1);
	ck_assert(queue_work(wq, &s.work));
	destroy_workqueue(wq); /* flushes first */
	ck_assert_int_eq(s.calls, 2);
	ck_assert_uint_eq(reports(NULL), 0);
}
END_TEST

static void lockstep_work_fn(struct work_struct *w)
{
	struct wstate *s = container_of(w, struct wstate, work);

	msleep(3);
	s->calls++;
	complete(&s->done);
}

/* Under sched=lockstep the worker is a context of the machine's
 * scheduler: timers fire on its virtual clock, and nothing hangs. */
START_TEST(test_lockstep_worker)
{
	struct dmaemu_machine *ls = fixture_machine("sched=lockstep:seed=3");
	struct tstate t = {0};
	struct wstate w = {0};
	unsigned long j0;

	init_completion(&t.done);
	timer_setup(&t.timer, timer_cb, 0);
	j0 = jiffies;
	mod_timer(&t.timer, j0 + 50);
	wait_for_completion(&t.done);
	ck_assert(time_after_eq(t.fired_at, j0 + 50));
	ck_assert_int_eq(t.softirq, 1);
	del_timer_sync(&t.timer);
	init_completion(&w.done);
	INIT_WORK(&w.work, lockstep_work_fn);
	schedule_work(&w.work);
	wait_for_completion(&w.done);
	flush_work(&w.work);
	ck_assert_int_eq(w.calls, 1);
	ck_assert_uint_eq(dmaemu_report_count(ls, NULL), 0);
	dmaemu_machine_destroy(ls);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Locks and the context                                                  */
/* ---------------------------------------------------------------------- */

START_TEST(test_irqsave_sleep_in_atomic)
{
	DEFINE_SPINLOCK(lock);
	unsigned long flags;

	spin_lock_irqsave(&lock, flags);
	ck_assert(irqs_disabled());
	ck_assert(in_atomic());
	msleep(1);
	spin_unlock_irqrestore(&lock, flags);
	ck_assert(!irqs_disabled());
	ck_assert(!in_atomic());
	ck_assert_uint_eq(reports("sleep-in-atomic"), 1);
	ck_assert_ptr_nonnull(strstr(fixture_log(), "msleep"));
	/* The same sleep outside the section is fine. */
	msleep(1);
	ck_assert_uint_eq(reports(NULL), 1);
}
END_TEST

START_TEST(test_sched)
{
	unsigned long t0;
	DEFINE_SPINLOCK(lock);

	ck_assert_int_gt(current->pid, 0);
	ck_assert_int_gt((int)strlen(current->comm), 0);
	ck_assert_ptr_eq(current, get_current());
	/* TASK_RUNNING: returns at once with the timeout. */
	ck_assert_int_eq(schedule_timeout(7), 7);
	t0 = jiffies;
	ck_assert_int_eq(schedule_timeout_uninterruptible(10), 0);
	ck_assert(time_after_eq(jiffies, t0 + 10));
	ck_assert_int_eq(current->state, TASK_RUNNING);
	ck_assert_int_eq(cond_resched(), 0);
	ck_assert_uint_eq(reports(NULL), 0);
	spin_lock(&lock);
	set_current_state(TASK_UNINTERRUPTIBLE);
	schedule_timeout(1);
	spin_unlock(&lock);
	ck_assert_uint_eq(reports("sleep-in-atomic"), 1);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* User copies, memory constants                                          */
/* ---------------------------------------------------------------------- */

START_TEST(test_copy_user)
{
	char user[16] = "user data here!";
	char kbuf[16] = "kernel bytes...";
	char *kmem = kmalloc(16, GFP_KERNEL);
	u32 uval = 0, kval = 0;

	ck_assert_ptr_nonnull(kmem);
	memset(kmem, 'k', 16);
	ck_assert_uint_eq(copy_to_user(user, kbuf, 16), 0);
	ck_assert_int_eq(memcmp(user, "kernel bytes...", 16), 0);
	memcpy(user, "from user space", 16);
	ck_assert_uint_eq(copy_from_user(kbuf, user, 16), 0);
	ck_assert_int_eq(memcmp(kbuf, "from user space", 16), 0);
	/* Bad user pointers: nothing copied, every byte left over. */
	ck_assert_uint_eq(copy_to_user(NULL, kbuf, 16), 16);
	ck_assert_uint_eq(copy_to_user((void *)16, kbuf, 8), 8);
	ck_assert_uint_eq(copy_to_user(kmem, kbuf, 16), 16);
	ck_assert(fixture_all(kmem, 'k', 16));
	ck_assert_uint_eq(copy_from_user(kbuf, NULL, 16), 16);
	ck_assert(fixture_all(kbuf, 0, 16)); /* zeroed, as the kernel does */
	ck_assert(!access_ok(VERIFY_WRITE, kmem, 16));
	ck_assert(access_ok(VERIFY_WRITE, user, 16));
	ck_assert_int_eq(put_user(0xdeadbeef, (u32 *)(void *)user), 0);
	ck_assert_int_eq(get_user(uval, (u32 *)(void *)user), 0);
	ck_assert_uint_eq(uval, 0xdeadbeef);
	ck_assert_int_eq(get_user(kval, (u32 *)NULL), -EFAULT);
	ck_assert_uint_eq(kval, 0);
	ck_assert_uint_eq(clear_user(user, 4), 0);
	ck_assert(fixture_all(user, 0, 4));
	kfree(kmem);
	ck_assert_uint_eq(reports(NULL), 0);
}
END_TEST

/* By default memory starts at 2 GiB: no ZONE_DMA, nothing is below the
 * limit.  With mem_base=0 the first 16 MiB are ZONE_DMA. */
START_TEST(test_max_dma_address)
{
	struct dmaemu_machine *x86;
	struct page *low;
	unsigned long limit;

	ck_assert_uint_eq(MAX_DMA_ADDRESS, 0);
	x86 = fixture_machine("profile=x86:mem_base=0:mem=64M");
	limit = MAX_DMA_ADDRESS;
	low = alloc_pages(GFP_DMA, 0);
	ck_assert_ptr_nonnull(low);
	ck_assert_uint_ne(limit, 0);
	ck_assert_uint_lt(page_to_phys(low), 16UL << 20);
	ck_assert_uint_lt((unsigned long)page_address(low), limit);
	ck_assert_uint_eq(virt_to_phys((void *)(limit - 1)), (16UL << 20) - 1);
	__free_pages(low, 0);
	ck_assert_uint_eq(dmaemu_report_count(x86, NULL), 0);
	dmaemu_machine_destroy(x86);
	ck_assert_uint_eq(reports(NULL), 0);
}
END_TEST

START_TEST(test_cache_line_size)
{
	struct dmaemu_machine *m2 = fixture_machine("cache_line=128");

	ck_assert_int_eq(cache_line_size(), 128);
	dmaemu_machine_destroy(m2);
	ck_assert_int_eq(cache_line_size(), 64);
}
END_TEST

/* The errno values, ERR_PTR() and IS_ERR() come with the DMA API header,
 * as in the kernel. */
START_TEST(test_errno_reachable)
{
	void *p = ERR_PTR(-EPROBE_DEFER);

	ck_assert(IS_ERR(p));
	ck_assert_int_eq(PTR_ERR(p), -517);
	ck_assert_int_eq(ENOTSUPP, 524);
	ck_assert_int_eq(ENOMEM, 12);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("kernel-basics");
	TCase *tc = tcase_create("kernel-basics");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_warn_on);
	tcase_add_test(tc, test_bug_aborts);
	tcase_add_test(tc, test_printk);
	tcase_add_test(tc, test_debug_prints);
	tcase_add_test(tc, test_kernel_macros);
	tcase_add_test(tc, test_list);
	tcase_add_test(tc, test_bitops);
	tcase_add_test(tc, test_byteorder);
	tcase_add_test(tc, test_unaligned);
	tcase_add_test(tc, test_timer_runs_on_worker);
	tcase_add_test(tc, test_timer_old_style_and_del);
	tcase_add_test(tc, test_del_timer_sync_waits);
	tcase_add_test(tc, test_timer_sleep_in_atomic);
	tcase_add_test(tc, test_work_runs_on_worker);
	tcase_add_test(tc, test_delayed_work);
	tcase_add_test(tc, test_delayed_work_two_machines);
	tcase_add_test(tc, test_cancel_work_sync_waits);
	tcase_add_test(tc, test_flush_from_worker);
	tcase_add_test(tc, test_own_workqueue);
	tcase_add_test(tc, test_lockstep_worker);
	tcase_add_test(tc, test_irqsave_sleep_in_atomic);
	tcase_add_test(tc, test_sched);
	tcase_add_test(tc, test_copy_user);
	tcase_add_test(tc, test_max_dma_address);
	tcase_add_test(tc, test_cache_line_size);
	tcase_add_test(tc, test_errno_reachable);
	suite_add_tcase(s, tc);
	return check_run(s);
}
