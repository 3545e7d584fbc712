/* SPDX-License-Identifier: MIT */
/*
 * <linux/moduleparam.h> - module parameters.  Nothing sets them here: the
 * variable keeps its initial value unless the test assigns it.  Each
 * macro keeps a reference to the variable, so a static parameter is not
 * an unused one.
 */
#ifndef DMAEMU_KERNEL_LINUX_MODULEPARAM_H
#define DMAEMU_KERNEL_LINUX_MODULEPARAM_H

#include <linux/init.h>
#include <linux/stringify.h>
#include <linux/types.h>

#define __dmaemu_param_ref(name, var)                  \
	static const void *const __dmaemu_param_##name \
		__attribute__((unused)) = &(var)

#define module_param(name, type, perm) __dmaemu_param_ref(name, name)
#define module_param_named(name, value, type, perm) \
	__dmaemu_param_ref(name, value)
#define module_param_unsafe(name, type, perm) __dmaemu_param_ref(name, name)
#define module_param_array(name, type, nump, perm) \
	__dmaemu_param_ref(name, name)
#define module_param_array_named(name, array, type, nump, perm) \
	__dmaemu_param_ref(name, array)
#define module_param_string(name, string, len, perm) \
	__dmaemu_param_ref(name, string)
#define core_param(name, var, type, perm) __dmaemu_param_ref(name, var)
#define MODULE_PARM_DESC(parm, desc) _Static_assert(1, desc)

/* What Linux 4.14's include chain brings with this header (docs/kernel-headers.md). */
#include <linux/kernel.h>

#endif
