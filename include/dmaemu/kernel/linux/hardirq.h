/* SPDX-License-Identifier: MIT */
/*
 * <linux/hardirq.h> - entering and leaving interrupt context.
 */
#ifndef DMAEMU_KERNEL_LINUX_HARDIRQ_H
#define DMAEMU_KERNEL_LINUX_HARDIRQ_H

#include <linux/preempt.h>

#define irq_enter() dmaemu_enter_irq()
#define irq_exit() ((void)dmaemu_exit_irq())

#endif
