/* SPDX-License-Identifier: MIT */
/*
 * <linux/init.h> - section markers and initcalls.
 *
 * There are no sections to discard here: __init, __exit and their data
 * forms mark nothing.  module_init() and module_exit() (and the
 * *_initcall() forms) keep a reference to the function, so a static
 * init function is not an unused one; nothing calls it by itself: a test
 * calls the driver's init function, as the module loader would.
 */
#ifndef DMAEMU_KERNEL_LINUX_INIT_H
#define DMAEMU_KERNEL_LINUX_INIT_H

#include <linux/compiler.h>

#define __init
#define __exit
#define __initdata
#define __initconst
#define __exitdata
#define __devinit
#define __devexit
#define __devinitdata
#define __refdata
#define __ref
#define __init_or_module
#define __exit_p(x) x
#define __devexit_p(x) x

typedef int (*initcall_t)(void);
typedef void (*exitcall_t)(void);

#define __dmaemu_initcall(fn, id)                       \
	static initcall_t __dmaemu_initcall_##id##_##fn \
		__attribute__((unused)) = fn
#define early_initcall(fn) __dmaemu_initcall(fn, early)
#define core_initcall(fn) __dmaemu_initcall(fn, core)
#define postcore_initcall(fn) __dmaemu_initcall(fn, postcore)
#define arch_initcall(fn) __dmaemu_initcall(fn, arch)
#define subsys_initcall(fn) __dmaemu_initcall(fn, subsys)
#define fs_initcall(fn) __dmaemu_initcall(fn, fs)
#define device_initcall(fn) __dmaemu_initcall(fn, device)
#define late_initcall(fn) __dmaemu_initcall(fn, late)
#define __initcall(fn) device_initcall(fn)

#ifndef module_init
#define module_init(fn) __dmaemu_initcall(fn, module)
#define module_exit(fn) \
	static exitcall_t __dmaemu_exitcall_##fn __attribute__((unused)) = fn
#endif

/* What Linux 4.14's include chain brings with this header (docs/kernel-headers.md). */
#include <linux/types.h>

#endif
