/* SPDX-License-Identifier: MIT */
/*
 * <linux/bug.h> - BUG(), WARN() and the build-time checks.
 *
 * WARN_ON(cond) and its family make a kernel-warning report on the
 * current machine (the condition or message, file:line and the stack) and
 * return the condition's truth, so "if (WARN_ON(x)) return -EINVAL;"
 * works as in the kernel.  The _ONCE variants report the first time their
 * call site fires only, and still return the condition every time.
 *
 * BUG() and BUG_ON(cond) make a kernel-bug report, then abort the
 * process: in the kernel the task dies there and the code after BUG() is
 * never run, and drivers rely on it (a BUG() in a switch's default needs
 * no return after it).  halt_on_error= makes no difference to them.
 *
 * BUILD_BUG_ON() and friends fail the compilation, as the kernel's do.
 */
#ifndef DMAEMU_KERNEL_LINUX_BUG_H
#define DMAEMU_KERNEL_LINUX_BUG_H

#include <stdbool.h>

#include <linux/build_bug.h>
#include <linux/compiler.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * dmaemu_warn() - what WARN_ON() and WARN() call when they fire: a
 * kernel-warning report on the current machine ("WARNING: at file:line
 * func()" and the message), or a line on stderr when there is no machine.
 * @file: __FILE__ of the call site.
 * @line: __LINE__ of the call site.
 * @func: __func__ of the call site.
 * @fmt:  the message (printf format), or NULL for none.
 */
void dmaemu_warn(const char *file, int line, const char *func, const char *fmt,
		 ...) __attribute__((format(printf, 4, 5)));

/**
 * dmaemu_bug() - what BUG() calls: a kernel-bug report ("kernel BUG at
 * file:line!"), then abort().
 */
void dmaemu_bug(const char *file, int line, const char *func)
	__attribute__((noreturn));

#define BUG() dmaemu_bug(__FILE__, __LINE__, __func__)
#define BUG_ON(condition)                \
	do {                             \
		if (unlikely(condition)) \
			BUG();           \
	} while (0)

#define __WARN() dmaemu_warn(__FILE__, __LINE__, __func__, NULL)
#define __WARN_printf(...) \
	dmaemu_warn(__FILE__, __LINE__, __func__, __VA_ARGS__)

#define WARN_ON(condition)                                              \
	__extension__({                                                 \
		int __ret_warn_on = !!(condition);                      \
		if (unlikely(__ret_warn_on))                            \
			dmaemu_warn(__FILE__, __LINE__, __func__, "%s", \
				    #condition);                        \
		unlikely(__ret_warn_on);                                \
	})

#define WARN(condition, ...)                        \
	__extension__({                             \
		int __ret_warn_on = !!(condition);  \
		if (unlikely(__ret_warn_on))        \
			__WARN_printf(__VA_ARGS__); \
		unlikely(__ret_warn_on);            \
	})

#define WARN_TAINT(condition, taint, ...) WARN(condition, __VA_ARGS__)

#define WARN_ON_ONCE(condition)                                              \
	__extension__({                                                      \
		static bool __warned;                                        \
		int __ret_warn_once = !!(condition);                         \
		if (unlikely(__ret_warn_once) &&                             \
		    !__atomic_exchange_n(&__warned, true, __ATOMIC_RELAXED)) \
			dmaemu_warn(__FILE__, __LINE__, __func__, "%s",      \
				    #condition);                             \
		unlikely(__ret_warn_once);                                   \
	})

#define WARN_ONCE(condition, ...)                                            \
	__extension__({                                                      \
		static bool __warned;                                        \
		int __ret_warn_once = !!(condition);                         \
		if (unlikely(__ret_warn_once) &&                             \
		    !__atomic_exchange_n(&__warned, true, __ATOMIC_RELAXED)) \
			__WARN_printf(__VA_ARGS__);                          \
		unlikely(__ret_warn_once);                                   \
	})

#define WARN_TAINT_ONCE(condition, taint, ...) WARN_ONCE(condition, __VA_ARGS__)

#define WARN_ON_SMP(x) WARN_ON(x)

#ifdef __cplusplus
}
#endif

/* What Linux 4.14's include chain brings with this header (docs/kernel-headers.md). */
#include <linux/kernel.h>

#endif
