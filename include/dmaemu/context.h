/* SPDX-License-Identifier: MIT */
/*
 * <dmaemu/context.h> - the execution context of the calling thread:
 * process context, interrupt (hardirq), softirq, preemption or interrupts
 * disabled.
 *
 * Each host thread has its own context, kept like the kernel's preempt
 * count: bits 0-7 count preempt_disable(), bits 8-15 softirq, bits 16-19
 * hardirq nesting.  A thread that may not sleep (in_atomic() or interrupts
 * disabled) and asks for something that may sleep, such as a GFP_KERNEL
 * allocation, gets a sleep-in-atomic report; the call still proceeds, as in
 * a kernel with CONFIG_DEBUG_ATOMIC_SLEEP.  The machine's interrupt thread
 * runs handlers between dmaemu_enter_irq() and dmaemu_exit_irq().
 */
#ifndef DMAEMU_CONTEXT_H
#define DMAEMU_CONTEXT_H

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DMAEMU_PREEMPT_OFFSET 0x1u
#define DMAEMU_SOFTIRQ_OFFSET 0x100u
#define DMAEMU_HARDIRQ_OFFSET 0x10000u
#define DMAEMU_PREEMPT_MASK 0xffu
#define DMAEMU_SOFTIRQ_MASK 0xff00u
#define DMAEMU_HARDIRQ_MASK 0xf0000u

/** dmaemu_preempt_count() - the calling thread's preempt count. */
unsigned int dmaemu_preempt_count(void);

/** dmaemu_enter_irq() - the calling thread starts an interrupt handler. */
void dmaemu_enter_irq(void);
/**
 * dmaemu_exit_irq() - the interrupt handler of dmaemu_enter_irq() is done.
 * Return: 0, or -EINVAL (and a bad-argument report on the current machine)
 * when the thread is not in an interrupt handler.
 */
int dmaemu_exit_irq(void);

/** dmaemu_enter_softirq() - the calling thread starts softirq work. */
void dmaemu_enter_softirq(void);
/** dmaemu_exit_softirq() - as dmaemu_exit_irq(), for softirq work. */
int dmaemu_exit_softirq(void);

/** dmaemu_preempt_disable() - preemption off (nests). */
void dmaemu_preempt_disable(void);
/**
 * dmaemu_preempt_enable() - undo one dmaemu_preempt_disable().
 * Return: 0, or -EINVAL (and a bad-argument report) when unbalanced.
 */
int dmaemu_preempt_enable(void);
/** dmaemu_bh_disable() - softirqs off (local_bh_disable(); nests). */
void dmaemu_bh_disable(void);
/**
 * dmaemu_bh_enable() - undo one dmaemu_bh_disable().
 * Return: 0, or -EINVAL (and a bad-argument report) when unbalanced.
 */
int dmaemu_bh_enable(void);

/** dmaemu_irq_disable() - interrupts off for the calling thread. */
void dmaemu_irq_disable(void);
/** dmaemu_irq_enable() - interrupts on for the calling thread. */
void dmaemu_irq_enable(void);
/** dmaemu_irq_save() - interrupts off; returns the previous state. */
unsigned long dmaemu_irq_save(void);
/** dmaemu_irq_restore() - go back to the state dmaemu_irq_save() returned. */
void dmaemu_irq_restore(unsigned long flags);
/** dmaemu_irqs_disabled() - are interrupts off for the calling thread? */
bool dmaemu_irqs_disabled(void);

/**
 * dmaemu_might_sleep() - the calling thread is about to do something that
 * may sleep.
 * @what: what it is ("mutex_lock"), for the report.
 *
 * In atomic context or with interrupts disabled, this is a sleep-in-atomic
 * report on the current machine ("BUG: sleeping function called from
 * invalid context").
 *
 * Return: true when the context allows sleeping.
 */
bool dmaemu_might_sleep(const char *what);

#ifdef __cplusplus
}
#endif

#endif
