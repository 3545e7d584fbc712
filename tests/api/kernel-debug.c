// SPDX-License-Identifier: MIT
/*
 * kernel-debug.c - dev_dbg(), dev_vdbg() and pr_debug() in a file that
 * defines DEBUG and VERBOSE_DEBUG before its includes, as a driver asks
 * for its debug lines; check-kernel-basics.c, which defines neither, calls
 * kernel_debug_print() and checks that these lines, and only these, are
 * printed (docs/kernel-headers.md).
 */
#define DEBUG 1
#define VERBOSE_DEBUG 1

#include <linux/device.h>
#include <linux/printk.h>

void kernel_debug_print(struct device *dev, int n);

void kernel_debug_print(struct device *dev, int n)
{
	dev_dbg(dev, "dbg line %d\n", n);
	dev_vdbg(dev, "vdbg line %d\n", n);
	pr_debug("pr_debug line %d\n", n);
}
