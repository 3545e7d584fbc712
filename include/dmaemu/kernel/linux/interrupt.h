/* SPDX-License-Identifier: MIT */
/*
 * <linux/interrupt.h> - interrupt handlers.
 *
 * Each machine has one interrupt thread, started by the first
 * request_irq() on it; it stands for the CPU that takes the machine's
 * interrupts.  It delivers an irq when its line is asserted (level) or has
 * a latched edge, a handler is requested, the irq is enabled, its threaded
 * handler is not running with IRQF_ONESHOT, and no thread of the machine
 * has interrupts off (local_irq_save(), spin_lock_irqsave(), ...: while
 * one has, no handler starts).  The hard handler runs on that thread in
 * hardirq context with interrupts off: in_irq() and in_interrupt() are
 * true there, and what may sleep (kmalloc(GFP_KERNEL), mutex_lock(),
 * msleep(), wait_for_completion()) is a sleep-in-atomic report.  A level
 * irq whose line is still asserted when the handler returns is delivered
 * again.  A handler that returns IRQ_NONE 100 times in a row is an
 * unhandled-irq report ("nobody cared") and its irq is disabled.
 *
 * Threaded handlers (request_threaded_irq() with a thread_fn) run on a
 * thread of their own per irq, in process context (they may sleep),
 * after the hard handler returned IRQ_WAKE_THREAD (a NULL hard handler
 * always does; it requires IRQF_ONESHOT).  With IRQF_ONESHOT the irq is
 * masked from then until thread_fn returns.  Wake-ups that come while
 * thread_fn runs make it run once more.
 *
 * One handler per irq (IRQF_SHARED is accepted but a second request of
 * an irq is -EBUSY).  request_irq(), free_irq(), disable_irq() and
 * synchronize_irq() may sleep; disable_irq_nosync(), enable_irq() may be
 * called from any context.
 */
#ifndef DMAEMU_KERNEL_LINUX_INTERRUPT_H
#define DMAEMU_KERNEL_LINUX_INTERRUPT_H

#include <dmaemu/klevel.h>

#include <stddef.h>

#include <linux/hardirq.h>
#include <linux/irqflags.h>
#include <linux/wait_bit.h>
#include <linux/atomic.h>

#ifdef __cplusplus
extern "C" {
#endif

enum irqreturn {
	IRQ_NONE = 0,
	IRQ_HANDLED = 1 << 0,
	IRQ_WAKE_THREAD = 1 << 1,
};
typedef enum irqreturn irqreturn_t;
#define IRQ_RETVAL(x) ((x) ? IRQ_HANDLED : IRQ_NONE)

typedef irqreturn_t (*irq_handler_t)(int irq, void *dev_id);

#define IRQF_TRIGGER_NONE 0x00000000
#define IRQF_TRIGGER_RISING 0x00000001
#define IRQF_TRIGGER_FALLING 0x00000002
#define IRQF_TRIGGER_HIGH 0x00000004
#define IRQF_TRIGGER_LOW 0x00000008
#define IRQF_SHARED 0x00000080
#define IRQF_ONESHOT 0x00002000
/* Linux 5.12's IRQF_NO_AUTOEN: not at the 4.14 level (<dmaemu/klevel.h>). */
#define DMAEMU_IRQF_NO_AUTOEN 0x00080000
#if DMAEMU_KERNEL_LEVEL > 414
#define IRQF_NO_AUTOEN DMAEMU_IRQF_NO_AUTOEN
#endif

/**
 * request_threaded_irq() - install the handlers of @irq.
 * @irq:       the irq number (platform_get_irq()).
 * @handler:   hard handler (interrupt thread, hardirq context), or NULL
 *             to only wake @thread_fn (needs IRQF_ONESHOT).
 * @thread_fn: threaded handler (its own thread, process context), or NULL.
 * @flags:     IRQF_ONESHOT, IRQF_NO_AUTOEN (start disabled: Linux 5.12, not at the 4.14 level); trigger
 *             flags are accepted and ignored (the model's wiring rules).
 * @name:      for reports; kept, not copied.
 * @dev_id:    passed to the handlers; free_irq() needs it.
 *
 * Return: 0; -EINVAL with a bad-argument report (unknown irq, no handler
 * at all, NULL @handler without IRQF_ONESHOT); -EBUSY with a report when
 * @irq has a handler; -ENOMEM.
 */
int request_threaded_irq(unsigned int irq, irq_handler_t handler,
			 irq_handler_t thread_fn, unsigned long flags,
			 const char *name, void *dev_id);

/** request_irq() - request_threaded_irq() without a threaded handler
 * (always inlined: an unhandled-irq report names the driver's line). */
static inline __attribute__((always_inline)) int request_irq(
	unsigned int irq, irq_handler_t handler, unsigned long flags,
	const char *name, void *dev_id)
{
	return request_threaded_irq(irq, handler, NULL, flags, name, dev_id);
}

/**
 * free_irq() - remove the handlers of @irq installed with @dev_id, after
 * waiting for a hard or threaded handler in progress.
 * Return: the @name given at request, or NULL with a bad-argument report
 * when no such handler is installed (or when called from that handler).
 */
const void *free_irq(unsigned int irq, void *dev_id);

/** disable_irq_nosync() - mask @irq (nests); do not wait. */
void disable_irq_nosync(unsigned int irq);
/** disable_irq() - mask @irq (nests) and wait for its handlers to finish. */
void disable_irq(unsigned int irq);
/**
 * enable_irq() - undo one disable; at depth 0 an asserted level or a
 * latched edge is delivered.  Unbalanced: a bad-argument report.
 */
void enable_irq(unsigned int irq);
/** synchronize_irq() - wait until no handler of @irq runs or is woken. */
void synchronize_irq(unsigned int irq);

/*
 * Softirqs and tasklets, as 4.14's kernel/softirq.c: a softirq raised
 * (a tasklet scheduled, a NAPI context scheduled) runs on the machine's
 * interrupt thread, in softirq context (in_softirq() and in_interrupt()
 * true, in_irq() false; interrupts on), right after the hard handler that
 * raised it returns (irq_exit()), or as soon as that thread is idle when
 * it was raised from another thread (4.14's ksoftirqd).  What may sleep
 * is a sleep-in-atomic report there.  Vectors run in 4.14's order:
 * HI_SOFTIRQ, then NET_TX_SOFTIRQ, NET_RX_SOFTIRQ, then TASKLET_SOFTIRQ.
 */
enum {
	HI_SOFTIRQ = 0,
	TIMER_SOFTIRQ,
	NET_TX_SOFTIRQ,
	NET_RX_SOFTIRQ,
	BLOCK_SOFTIRQ,
	IRQ_POLL_SOFTIRQ,
	TASKLET_SOFTIRQ,
	SCHED_SOFTIRQ,
	HRTIMER_SOFTIRQ,
	RCU_SOFTIRQ,
	NR_SOFTIRQS
};

/**
 * struct tasklet_struct - a tasklet (4.14's fields).
 * @next:  the list it is scheduled on.
 * @state: TASKLET_STATE_SCHED (scheduled, not yet run) and
 *         TASKLET_STATE_RUN (its function runs), atomic bits.
 * @count: tasklet_disable() depth; it runs only at 0.
 * @func:  the function, called with @data in softirq context.
 * @data:  its argument.
 * @dmaemu_machine: the machine it was last scheduled on (the current one
 *         at tasklet_schedule()).
 */
struct tasklet_struct {
	struct tasklet_struct *next;
	unsigned long state;
	atomic_t count;
	void (*func)(unsigned long data);
	unsigned long data;
	void *dmaemu_machine;
};

enum {
	TASKLET_STATE_SCHED, /* scheduled for execution */
	TASKLET_STATE_RUN    /* running */
};

#define DECLARE_TASKLET(name, _func, _data)                    \
	struct tasklet_struct name = {.next = NULL,            \
				      .state = 0,              \
				      .count = ATOMIC_INIT(0), \
				      .func = (_func),         \
				      .data = (_data),         \
				      .dmaemu_machine = NULL}
#define DECLARE_TASKLET_DISABLED(name, _func, _data)           \
	struct tasklet_struct name = {.next = NULL,            \
				      .state = 0,              \
				      .count = ATOMIC_INIT(1), \
				      .func = (_func),         \
				      .data = (_data),         \
				      .dmaemu_machine = NULL}

/** tasklet_init() - set up @t to call @func(@data); enabled, idle. */
void tasklet_init(struct tasklet_struct *t, void (*func)(unsigned long),
		  unsigned long data);
/**
 * tasklet_schedule() - run @t once on the current machine's interrupt
 * thread (TASKLET_SOFTIRQ).  Scheduling it again before it ran does
 * nothing; while it runs, it runs once more.  A disabled tasklet stays
 * scheduled until tasklet_enable().  No current machine: a bad-argument
 * report, nothing scheduled.
 */
void tasklet_schedule(struct tasklet_struct *t);
/** tasklet_hi_schedule() - as tasklet_schedule(), on HI_SOFTIRQ (first). */
void tasklet_hi_schedule(struct tasklet_struct *t);
/** tasklet_disable_nosync() - @t does not run until tasklet_enable(). */
void tasklet_disable_nosync(struct tasklet_struct *t);
/**
 * tasklet_disable() - tasklet_disable_nosync(), then wait until @t's
 * function is not running (may sleep, unless called from @t itself).
 */
void tasklet_disable(struct tasklet_struct *t);
/**
 * tasklet_enable() - undo one disable; at 0 a scheduled @t runs.
 * Unbalanced: a bad-argument report.
 */
void tasklet_enable(struct tasklet_struct *t);
/**
 * tasklet_kill() - wait until @t is neither scheduled nor running (may
 * sleep).  From interrupt context, where it would wait for itself, or
 * on a tasklet both scheduled and disabled, which would never run: a
 * bad-argument report, and it returns (the latter unscheduled).
 */
void tasklet_kill(struct tasklet_struct *t);

#ifdef __cplusplus
}
#endif

/* What Linux 4.14's include chain brings with this header (docs/kernel-headers.md). */
#include <linux/atomic.h>
#include <linux/bug.h>
#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/kref.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/workqueue.h>

/*
 * Managed interrupts (4.14's kernel/irq/devres.c): devm_request_irq()
 * and devm_request_threaded_irq() request @irq and add a managed resource
 * to @dev whose release frees it when the driver is unbound (or the
 * device destroyed, or devres_release_all()); devm_free_irq() frees it
 * now (a WARN, as in 4.14, when @dev has no such resource).  A NULL
 * @devname is dev_name(@dev).  Inline, so that the request's place is
 * the driver's line.  Return: request_threaded_irq()'s, or -ENOMEM.
 */
#ifdef __cplusplus
extern "C" {
#endif
struct irq_devres {
	unsigned int irq;
	void *dev_id;
};
/* The managed resource's release (free_irq()) and match (irq, dev_id). */
void devm_irq_release(struct device *dev, void *res);
int devm_irq_match(struct device *dev, void *res, void *data);
#ifdef __cplusplus
}
#endif

static inline __attribute__((always_inline)) int devm_request_threaded_irq(
	struct device *dev, unsigned int irq, irq_handler_t handler,
	irq_handler_t thread_fn, unsigned long irqflags, const char *devname,
	void *dev_id)
{
	struct irq_devres *dr;
	int rc;

	dr = (struct irq_devres *)devres_alloc(devm_irq_release, sizeof(*dr),
					       GFP_KERNEL);
	if (!dr)
		return -ENOMEM;
	if (!devname && dev)
		devname = dev_name(dev);
	rc = request_threaded_irq(irq, handler, thread_fn, irqflags, devname,
				  dev_id);
	if (rc) {
		devres_free(dr);
		return rc;
	}
	dr->irq = irq;
	dr->dev_id = dev_id;
	devres_add(dev, dr);
	return 0;
}

static inline __attribute__((always_inline)) int devm_request_irq(
	struct device *dev, unsigned int irq, irq_handler_t handler,
	unsigned long irqflags, const char *devname, void *dev_id)
{
	return devm_request_threaded_irq(dev, irq, handler, NULL, irqflags,
					 devname, dev_id);
}

static inline void devm_free_irq(struct device *dev, unsigned int irq,
				 void *dev_id)
{
	struct irq_devres match_data = {irq, dev_id};

	WARN_ON(devres_destroy(dev, devm_irq_release, devm_irq_match,
			       &match_data));
	free_irq(irq, dev_id);
}

#endif
