/* SPDX-License-Identifier: MIT */
/*
 * <linux/irqflags.h> - turning interrupts off and on for this CPU, which
 * here is the calling thread (see <dmaemu/context.h>).
 */
#ifndef DMAEMU_KERNEL_LINUX_IRQFLAGS_H
#define DMAEMU_KERNEL_LINUX_IRQFLAGS_H

#include <dmaemu/context.h>

#define local_irq_disable() dmaemu_irq_disable()
#define local_irq_enable() dmaemu_irq_enable()
#define local_irq_save(flags)                \
	do {                                 \
		(flags) = dmaemu_irq_save(); \
	} while (0)
#define local_irq_restore(flags) dmaemu_irq_restore(flags)
#define irqs_disabled() dmaemu_irqs_disabled()

#define local_bh_disable() dmaemu_bh_disable()
#define local_bh_enable() ((void)dmaemu_bh_enable())

#endif
