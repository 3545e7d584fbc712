/* SPDX-License-Identifier: MIT */
/*
 * <asm/irq.h> - NR_IRQS, the size of the irq number space: the numbers
 * request_irq() takes are handed out from 32 up to it (docs/devices.md).
 */
#ifndef DMAEMU_KERNEL_ASM_IRQ_H
#define DMAEMU_KERNEL_ASM_IRQ_H

#define NR_IRQS 4096

static inline int irq_canonicalize(int irq)
{
	return irq;
}

#endif
