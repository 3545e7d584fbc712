/* SPDX-License-Identifier: MIT */
/*
 * <linux/irq.h> - interrupt line types, and <linux/interrupt.h>.  The
 * emulated interrupt controller has no irq_chip for drivers to program:
 * a line's trigger is the device model's (docs/devices.md).
 */
#ifndef DMAEMU_KERNEL_LINUX_IRQ_H
#define DMAEMU_KERNEL_LINUX_IRQ_H

#include <linux/interrupt.h>

#define IRQ_TYPE_NONE 0x00000000
#define IRQ_TYPE_EDGE_RISING 0x00000001
#define IRQ_TYPE_EDGE_FALLING 0x00000002
#define IRQ_TYPE_EDGE_BOTH (IRQ_TYPE_EDGE_FALLING | IRQ_TYPE_EDGE_RISING)
#define IRQ_TYPE_LEVEL_HIGH 0x00000004
#define IRQ_TYPE_LEVEL_LOW 0x00000008
#define IRQ_TYPE_LEVEL_MASK (IRQ_TYPE_LEVEL_LOW | IRQ_TYPE_LEVEL_HIGH)
#define IRQ_TYPE_SENSE_MASK 0x0000000f

/* What Linux 4.14's include chain brings with this header (docs/kernel-headers.md). */
#include <linux/cache.h>
#include <linux/errno.h>
#include <linux/gfp.h>
#include <linux/io.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/wait.h>

#endif
