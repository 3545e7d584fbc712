// SPDX-License-Identifier: MIT
/*
 * task.c - the calling task (current), the scheduler calls drivers make
 * (schedule_timeout(), cond_resched()), and the kernel's memory constants
 * that depend on the machine (MAX_DMA_ADDRESS, cache_line_size()).
 *
 * How it works.  Each host thread has a thread-local struct task_struct,
 * filled on first use (the thread's name and id).  schedule_timeout()
 * sleeps as msleep() does (time.c): a sleep, so the context is checked
 * first, and under sched=lockstep a scheduler wait on the machine's
 * clock.  Nothing here takes a lock.
 */
#include "config.h"

#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <asm/dma.h>
#include <linux/cache.h>
#include <linux/delay.h>
#include <linux/sched.h>

#include "mm/mm.h"

static _Thread_local struct task_struct task;
static _Thread_local bool task_ready;

struct task_struct *get_current(void)
{
	if (!task_ready) {
		task.state = TASK_RUNNING;
		task.pid = (pid_t)syscall(SYS_gettid);
		if (pthread_getname_np(pthread_self(), task.comm,
				       sizeof(task.comm)))
			strcpy(task.comm, "dmaemu");
		task_ready = true;
	}
	return &task;
}

long schedule_timeout(long timeout)
{
	struct task_struct *t = get_current();
	unsigned long ms;

	if (t->state == TASK_RUNNING) {
		/* Nothing to wait for: the kernel returns at once too. */
		dmaemu_might_sleep("schedule_timeout()");
		return timeout < 0 ? 0 : timeout;
	}
	t->state = TASK_RUNNING;
	if (timeout == MAX_SCHEDULE_TIMEOUT || timeout < 0) {
		dmaemu__reportf(NULL, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"schedule_timeout(%ld): nothing wakes a task "
				"here (no wake_up_process()); wait on a wait "
				"queue or a completion instead",
				timeout);
		return timeout < 0 ? 0 : timeout;
	}
	/* One jiffy is one millisecond (HZ 1000). */
	ms = jiffies_to_msecs((unsigned long)timeout);
	msleep((unsigned int)ms);
	return 0;
}

long schedule_timeout_interruptible(long timeout)
{
	set_current_state(TASK_INTERRUPTIBLE);
	return schedule_timeout(timeout);
}

long schedule_timeout_killable(long timeout)
{
	set_current_state(TASK_KILLABLE);
	return schedule_timeout(timeout);
}

long schedule_timeout_uninterruptible(long timeout)
{
	set_current_state(TASK_UNINTERRUPTIBLE);
	return schedule_timeout(timeout);
}

long schedule_timeout_idle(long timeout)
{
	set_current_state(TASK_IDLE);
	return schedule_timeout(timeout);
}

void schedule(void)
{
	struct task_struct *t = get_current();

	dmaemu_might_sleep("schedule()");
	if (t->state != TASK_RUNNING) {
		t->state = TASK_RUNNING;
		dmaemu__reportf(NULL, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"schedule() in a sleeping state: nothing wakes "
				"a task here (no wake_up_process()); wait on a "
				"wait queue or a completion instead");
		return;
	}
	dmaemu__sched_point(NULL, "schedule()");
	sched_yield();
}

int cond_resched(void)
{
	dmaemu_might_sleep("cond_resched()");
	return 0;
}

void yield(void)
{
	dmaemu__sched_point(NULL, "yield()");
	sched_yield();
}

unsigned long dmaemu_max_dma_address(void)
{
	struct dmaemu_machine *m = dmaemu_machine_current();
	const uint64_t limit = (uint64_t)MAX_DMA_PFN << DMAEMU__PAGE_SHIFT;
	unsigned int i;

	if (!m)
		return 0;
	for (i = 0; i < m->nbanks; i++) {
		const struct dmaemu__bank *b = &m->bank[i];
		uint64_t end = b->phys + b->size;

		if (b->phys >= limit)
			continue;
		if (end > limit)
			end = limit;
		return (unsigned long)(uintptr_t)(b->cpu + (end - b->phys));
	}
	return 0;
}

int cache_line_size(void)
{
	struct dmaemu_machine *m = dmaemu_machine_current();

	return m ? (int)m->line : L1_CACHE_BYTES;
}
