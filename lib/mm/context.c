// SPDX-License-Identifier: MIT
/*
 * context.c - the execution context of each host thread.
 *
 * How it works: a thread-local preempt count laid out like the kernel's
 * (preempt-disable depth in bits 0-7, softirq in 8-15, hardirq in 16-19)
 * and a thread-local "interrupts off" flag.  in_atomic() is "count != 0".
 * Allocations that may sleep (__GFP_DIRECT_RECLAIM, as in GFP_KERNEL) check
 * it and make a sleep-in-atomic report when the thread may not sleep, then
 * go on, as a kernel with CONFIG_DEBUG_ATOMIC_SLEEP does: the report is
 * the bug, not the allocation.  A thread that turns interrupts off outside
 * a handler counts in the current machine's m->irqs_off (an atomic), and
 * the machine's interrupt thread starts no handler while it is non-zero.
 * Nothing here takes a lock.
 */
#include <errno.h>
#include <stdio.h>

#include <linux/gfp.h>

#include "mm/mm.h"
#include "dmaemu/context.h"

static _Thread_local unsigned int preempt_count;
static _Thread_local bool irqs_off;
/* The machine whose m->irqs_off this thread's disable counted in. */
static _Thread_local struct dmaemu_machine *irqs_off_m;

/*
 * Interrupts go off (@off) or on for this thread.  Outside a handler, the
 * thread stands for the CPU the machine's interrupt thread interrupts: it
 * counts in the current machine's m->irqs_off, which holds off the start
 * of handlers (bus/irq.c); the interrupt thread itself, in hardirq
 * context, does not count.
 */
static void set_irqs_off(bool off)
{
	if (off && !irqs_off && !(preempt_count & DMAEMU_HARDIRQ_MASK)) {
		irqs_off_m = dmaemu_machine_current();
		if (irqs_off_m)
			__atomic_add_fetch(&irqs_off_m->irqs_off, 1,
					   __ATOMIC_SEQ_CST);
	} else if (!off && irqs_off && irqs_off_m &&
		   dmaemu__machine_live(irqs_off_m)) {
		/* The last one on: a lockstep interrupt thread may go on.
		 * (A machine destroyed since the disable has nothing left to
		 * count in.) */
		if (!__atomic_sub_fetch(&irqs_off_m->irqs_off, 1,
					__ATOMIC_SEQ_CST))
			dmaemu__sched_wake(&irqs_off_m->irqs_off);
		irqs_off_m = NULL;
	} else if (!off) {
		irqs_off_m = NULL;
	}
	irqs_off = off;
}

unsigned int dmaemu_preempt_count(void)
{
	return preempt_count;
}

static void report_unbalanced(const char *what)
{
	dmaemu__reportf(NULL, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
			"%s() without a matching enter/disable on this thread",
			what);
}

/* Take @offset off the count if the field under @mask holds it. */
static int count_sub(unsigned int offset, unsigned int mask, const char *what)
{
	if ((preempt_count & mask) < offset) {
		report_unbalanced(what);
		return -EINVAL;
	}
	preempt_count -= offset;
	return 0;
}

void dmaemu_enter_irq(void)
{
	preempt_count += DMAEMU_HARDIRQ_OFFSET;
}

int dmaemu_exit_irq(void)
{
	return count_sub(DMAEMU_HARDIRQ_OFFSET, DMAEMU_HARDIRQ_MASK,
			 "dmaemu_exit_irq");
}

void dmaemu_enter_softirq(void)
{
	preempt_count += DMAEMU_SOFTIRQ_OFFSET;
}

int dmaemu_exit_softirq(void)
{
	return count_sub(DMAEMU_SOFTIRQ_OFFSET, DMAEMU_SOFTIRQ_MASK,
			 "dmaemu_exit_softirq");
}

void dmaemu_preempt_disable(void)
{
	preempt_count += DMAEMU_PREEMPT_OFFSET;
}

int dmaemu_preempt_enable(void)
{
	return count_sub(DMAEMU_PREEMPT_OFFSET, DMAEMU_PREEMPT_MASK,
			 "preempt_enable");
}

/* local_bh_disable() counts twice the softirq offset, as the kernel's. */
void dmaemu_bh_disable(void)
{
	preempt_count += 2 * DMAEMU_SOFTIRQ_OFFSET;
}

int dmaemu_bh_enable(void)
{
	return count_sub(2 * DMAEMU_SOFTIRQ_OFFSET, DMAEMU_SOFTIRQ_MASK,
			 "local_bh_enable");
}

void dmaemu_irq_disable(void)
{
	set_irqs_off(true);
}

void dmaemu_irq_enable(void)
{
	set_irqs_off(false);
}

unsigned long dmaemu_irq_save(void)
{
	unsigned long flags = irqs_off;

	set_irqs_off(true);
	return flags;
}

void dmaemu_irq_restore(unsigned long flags)
{
	set_irqs_off(flags != 0);
}

bool dmaemu_irqs_disabled(void)
{
	return irqs_off;
}

static const char *context_name(void)
{
	if (preempt_count & DMAEMU_HARDIRQ_MASK)
		return "an interrupt handler";
	if (preempt_count & DMAEMU_SOFTIRQ_MASK)
		return "softirq context or with bottom halves disabled";
	if (preempt_count & DMAEMU_PREEMPT_MASK)
		return "a preempt-disabled section (spinlock held?)";
	return "a section with interrupts disabled";
}

static bool check_context(struct dmaemu_machine *m, const char *what)
{
	if (!preempt_count && !irqs_off)
		return true;
	if (m)
		dmaemu__reportf(m, DMAEMU_REPORT_SLEEP_IN_ATOMIC, 0, 0,
				"BUG: sleeping function called from invalid "
				"context: %s in %s (in_atomic(): %d, "
				"irqs_disabled(): %d, preempt_count: %#x)",
				what, context_name(), preempt_count != 0,
				irqs_off, preempt_count);
	return false;
}

bool dmaemu_might_sleep(const char *what)
{
	return check_context(dmaemu_machine_current(),
			     what ? what : "might_sleep()");
}

bool dmaemu__check_sleep(struct dmaemu_machine *m, unsigned int gfp,
			 const char *caller)
{
	char names[256], what[320];

	if (!gfpflags_allow_blocking(gfp) || (!preempt_count && !irqs_off))
		return true;
	dmaemu_gfp_format(gfp, names, sizeof(names));
	snprintf(what, sizeof(what), "%s(%s) may sleep; use GFP_ATOMIC here",
		 caller, names);
	return check_context(m, what);
}
