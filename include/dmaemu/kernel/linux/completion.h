/* SPDX-License-Identifier: MIT */
/*
 * <linux/completion.h> - completions: "this happened", counted.
 *
 * complete() may be called from any context (an interrupt handler
 * typically); each complete() lets one wait through, complete_all() lets
 * every present and future wait through until reinit_completion().  The
 * waits may sleep: from atomic context they are a sleep-in-atomic report.
 * A completion holds no host object (see <dmaemu/sync.h>): it needs no
 * destroy and may be freed once no one waits on it.
 */
#ifndef DMAEMU_KERNEL_LINUX_COMPLETION_H
#define DMAEMU_KERNEL_LINUX_COMPLETION_H

#include <stdbool.h>

#include <linux/wait_bit.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * struct completion - a completion.
 * @done: complete() calls not yet consumed (UINT_MAX after
 *        complete_all()); under the library's lock.
 * @wait: where the waiters sleep.
 */
struct completion {
	unsigned int done;
	wait_queue_head_t wait;
};

#define COMPLETION_INITIALIZER(work) \
	{                            \
		0,                   \
		{                    \
			0            \
		}                    \
	}
#define DECLARE_COMPLETION(work) \
	struct completion work = COMPLETION_INITIALIZER(work)
#define DECLARE_COMPLETION_ONSTACK(work) DECLARE_COMPLETION(work)

/** init_completion() - make @x not done (before anyone uses it). */
void init_completion(struct completion *x);
/** reinit_completion() - make @x not done again (no waiter may be left). */
void reinit_completion(struct completion *x);
/** complete() - let one waiter of @x through (any context). */
void complete(struct completion *x);
/** complete_all() - let every waiter of @x through, until reinit. */
void complete_all(struct completion *x);
/** wait_for_completion() - sleep until @x is completed (may sleep). */
void wait_for_completion(struct completion *x);
/**
 * wait_for_completion_timeout() - sleep until @x is completed or
 * @timeout jiffies pass (may sleep).
 * Return: 0 on timeout, else the jiffies left (at least 1).
 */
unsigned long wait_for_completion_timeout(struct completion *x,
					  unsigned long timeout);
/** wait_for_completion_interruptible() - as wait_for_completion(); 0. */
int wait_for_completion_interruptible(struct completion *x);
/** wait_for_completion_interruptible_timeout() - as the _timeout one. */
long wait_for_completion_interruptible_timeout(struct completion *x,
					       unsigned long timeout);
/** try_wait_for_completion() - consume a completion if there is one. */
bool try_wait_for_completion(struct completion *x);
/** completion_done() - would a wait on @x go through now? */
bool completion_done(struct completion *x);

#ifdef __cplusplus
}
#endif

/* What Linux 4.14's include chain brings with this header (docs/kernel-headers.md). */
#include <linux/wait.h>

#endif
