/* SPDX-License-Identifier: MIT */
/* <linux/irqreturn.h> - irqreturn_t: see <linux/interrupt.h>. */
#ifndef DMAEMU_KERNEL_LINUX_IRQRETURN_H
#define DMAEMU_KERNEL_LINUX_IRQRETURN_H

#include <linux/interrupt.h>

#endif
