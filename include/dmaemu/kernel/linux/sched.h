/* SPDX-License-Identifier: MIT */
/*
 * <linux/sched.h> - the calling task.
 *
 * Each host thread is a task: current is its struct task_struct (its
 * comm is the thread's name, pid the thread id).  set_current_state()
 * records a state; schedule_timeout() sleeps the timeout when the state
 * is not TASK_RUNNING (a sleep: in atomic context it is a sleep-in-atomic
 * report) and returns 0, or returns the timeout at once in TASK_RUNNING,
 * as in the kernel.  Nothing wakes a sleeping task early here
 * (wake_up_process() is not provided): a driver waiting for an event
 * uses a wait queue or a completion.  schedule_timeout() with
 * MAX_SCHEDULE_TIMEOUT would sleep forever: it is a bad-argument report
 * and returns at once.  cond_resched() and schedule() (with a
 * state of TASK_RUNNING) may sleep: they check the context.
 */
#ifndef DMAEMU_KERNEL_LINUX_SCHED_H
#define DMAEMU_KERNEL_LINUX_SCHED_H

#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/types.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TASK_RUNNING 0x0000
#define TASK_INTERRUPTIBLE 0x0001
#define TASK_UNINTERRUPTIBLE 0x0002
#define TASK_KILLABLE (0x0100 | TASK_UNINTERRUPTIBLE)
#define TASK_IDLE (0x0400 | TASK_UNINTERRUPTIBLE)
#define TASK_NORMAL (TASK_INTERRUPTIBLE | TASK_UNINTERRUPTIBLE)
#define TASK_COMM_LEN 16

/**
 * struct task_struct - a task: one host thread.
 * @state: what set_current_state() set.
 * @pid:   the thread's id.
 * @comm:  the thread's name.
 */
struct task_struct {
	volatile long state;
	pid_t pid;
	char comm[TASK_COMM_LEN];
};

/** get_current() - the calling thread's task. */
struct task_struct *get_current(void);
#define current get_current()

#define __set_current_state(s) (current->state = (s))
#define set_current_state(s)                             \
	do {                                             \
		current->state = (s);                    \
		__atomic_thread_fence(__ATOMIC_SEQ_CST); \
	} while (0)

/**
 * schedule_timeout() - sleep @timeout jiffies unless the state is
 * TASK_RUNNING; the state is TASK_RUNNING after.
 * Return: 0 when it slept the timeout out, @timeout in TASK_RUNNING.
 */
long schedule_timeout(long timeout);
long schedule_timeout_interruptible(long timeout);
long schedule_timeout_killable(long timeout);
long schedule_timeout_uninterruptible(long timeout);
long schedule_timeout_idle(long timeout);
/** schedule() - give the CPU up (a host yield) in TASK_RUNNING. */
void schedule(void);
/** cond_resched() - a point where the task may sleep.  Return: 0. */
int cond_resched(void);
/** yield() - give the CPU up for a moment (a host yield). */
void yield(void);

static inline int signal_pending(struct task_struct *p)
{
	(void)p;
	return 0;
}

static inline int fatal_signal_pending(struct task_struct *p)
{
	(void)p;
	return 0;
}

static inline pid_t task_pid_nr(struct task_struct *tsk)
{
	return tsk->pid;
}

#ifdef __cplusplus
}
#endif

/* What Linux 4.14's include chain brings with this header (docs/kernel-headers.md). */
#include <linux/atomic.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/timer.h>
#include <linux/wait.h>

#endif
