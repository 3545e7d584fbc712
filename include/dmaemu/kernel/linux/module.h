/* SPDX-License-Identifier: MIT */
/*
 * <linux/module.h> - what a module declares about itself.  There is no
 * module loader: MODULE_LICENSE() and the other descriptions are checked
 * string literals and make nothing; MODULE_DEVICE_TABLE() keeps a
 * reference to the table; try_module_get() always succeeds.  See
 * <linux/init.h> for module_init() and module_exit().
 */
#ifndef DMAEMU_KERNEL_LINUX_MODULE_H
#define DMAEMU_KERNEL_LINUX_MODULE_H

#include <dmaemu/klevel.h>

#include <stdbool.h>

#include <linux/export.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/stringify.h>
#include <linux/types.h>

#define MODULE_LICENSE(x) _Static_assert(1, x)
#define MODULE_AUTHOR(x) _Static_assert(1, x)
#define MODULE_DESCRIPTION(x) _Static_assert(1, x)
#define MODULE_VERSION(x) _Static_assert(1, x)
#define MODULE_ALIAS(x) _Static_assert(1, x)
#define MODULE_FIRMWARE(x) _Static_assert(1, x)
#define MODULE_INFO(tag, info) _Static_assert(1, info)
#define MODULE_SOFTDEP(x) _Static_assert(1, x)
#if DMAEMU_KERNEL_LEVEL > 414 /* Linux 5.4's (<dmaemu/klevel.h>) */
#define MODULE_IMPORT_NS(ns) _Static_assert(1, #ns)
#endif
#define MODULE_DEVICE_TABLE(type, name)                            \
	static const void *const __dmaemu_devtable_##type##_##name \
		__attribute__((unused)) = &(name)

static inline bool try_module_get(struct module *module)
{
	(void)module;
	return true;
}

static inline void module_put(struct module *module)
{
	(void)module;
}

#define __module_get(module) ((void)(module))

/* What Linux 4.14's include chain brings with this header (docs/kernel-headers.md). */
#include <linux/err.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

#endif
