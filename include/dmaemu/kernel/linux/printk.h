/* SPDX-License-Identifier: MIT */
/*
 * <linux/printk.h> - the kernel log.
 *
 * printk() writes one line on the current machine's log (stderr, or the
 * file of the log_path option), under the lock reports are printed with,
 * so lines of several threads and reports never mix.  A leading
 * KERN_<LEVEL> ("<3>") is kept, as dev_printk() keeps it; without a
 * current machine the line goes to stderr.  pr_debug() and pr_devel()
 * print nothing unless DEBUG is defined before the header, as in the
 * kernel without dynamic debug; their arguments are still checked.
 * The _ratelimited and _once forms print at most once per call site
 * (once), or every time (ratelimited: the kernel's limit needs a burst of
 * messages to matter, which tests do not make).
 */
#ifndef DMAEMU_KERNEL_LINUX_PRINTK_H
#define DMAEMU_KERNEL_LINUX_PRINTK_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define KERN_SOH "\001"
#define KERN_EMERG "<0>"
#define KERN_ALERT "<1>"
#define KERN_CRIT "<2>"
#define KERN_ERR "<3>"
#define KERN_WARNING "<4>"
#define KERN_NOTICE "<5>"
#define KERN_INFO "<6>"
#define KERN_DEBUG "<7>"
#define KERN_DEFAULT ""
#define KERN_CONT ""

#define LOGLEVEL_EMERG 0
#define LOGLEVEL_ALERT 1
#define LOGLEVEL_CRIT 2
#define LOGLEVEL_ERR 3
#define LOGLEVEL_WARNING 4
#define LOGLEVEL_NOTICE 5
#define LOGLEVEL_INFO 6
#define LOGLEVEL_DEBUG 7

/**
 * printk() - print a line on the current machine's log.
 * Return: the number of characters of the message.
 */
int printk(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/** vprintk() - printk() with a va_list. */
int vprintk(const char *fmt, va_list args)
	__attribute__((format(printf, 1, 0)));

#ifndef pr_fmt
#define pr_fmt(fmt) fmt
#endif

/* Arguments are checked by the compiler, nothing is printed. */
#define no_printk(fmt, ...)                         \
	__extension__({                             \
		if (0)                              \
			printk(fmt, ##__VA_ARGS__); \
		0;                                  \
	})

#define pr_emerg(fmt, ...) printk(KERN_EMERG pr_fmt(fmt), ##__VA_ARGS__)
#define pr_alert(fmt, ...) printk(KERN_ALERT pr_fmt(fmt), ##__VA_ARGS__)
#define pr_crit(fmt, ...) printk(KERN_CRIT pr_fmt(fmt), ##__VA_ARGS__)
#define pr_err(fmt, ...) printk(KERN_ERR pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warning(fmt, ...) printk(KERN_WARNING pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn pr_warning
#define pr_notice(fmt, ...) printk(KERN_NOTICE pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info(fmt, ...) printk(KERN_INFO pr_fmt(fmt), ##__VA_ARGS__)
#define pr_cont(fmt, ...) printk(KERN_CONT fmt, ##__VA_ARGS__)
#ifdef DEBUG
#define pr_devel(fmt, ...) printk(KERN_DEBUG pr_fmt(fmt), ##__VA_ARGS__)
#define pr_debug(fmt, ...) printk(KERN_DEBUG pr_fmt(fmt), ##__VA_ARGS__)
#else
#define pr_devel(fmt, ...) no_printk(KERN_DEBUG pr_fmt(fmt), ##__VA_ARGS__)
#define pr_debug(fmt, ...) no_printk(KERN_DEBUG pr_fmt(fmt), ##__VA_ARGS__)
#endif

#define printk_once(fmt, ...)                                 \
	__extension__({                                       \
		static bool __print_once;                     \
		if (!__atomic_exchange_n(&__print_once, true, \
					 __ATOMIC_RELAXED))   \
			printk(fmt, ##__VA_ARGS__);           \
		0;                                            \
	})
#define pr_emerg_once(fmt, ...) \
	printk_once(KERN_EMERG pr_fmt(fmt), ##__VA_ARGS__)
#define pr_err_once(fmt, ...) printk_once(KERN_ERR pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn_once(fmt, ...) \
	printk_once(KERN_WARNING pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info_once(fmt, ...) printk_once(KERN_INFO pr_fmt(fmt), ##__VA_ARGS__)
#define printk_ratelimited printk
#define pr_err_ratelimited pr_err
#define pr_warn_ratelimited pr_warn
#define pr_info_ratelimited pr_info
#define pr_debug_ratelimited pr_debug
#define printk_ratelimit() 1

#define DUMP_PREFIX_NONE 0
#define DUMP_PREFIX_ADDRESS 1
#define DUMP_PREFIX_OFFSET 2

/**
 * print_hex_dump() - print @len bytes of @buf, @rowsize (16 or 32) per
 * line in groups of @groupsize bytes, each line behind @level and
 * @prefix_str, with the offset or address as @prefix_type says, and the
 * bytes as text too when @ascii.
 */
void print_hex_dump(const char *level, const char *prefix_str, int prefix_type,
		    int rowsize, int groupsize, const void *buf, size_t len,
		    bool ascii);

static inline void print_hex_dump_bytes(const char *prefix_str, int prefix_type,
					const void *buf, size_t len)
{
	print_hex_dump(KERN_DEBUG, prefix_str, prefix_type, 16, 1, buf, len,
		       true);
}

/** dump_stack() - print the calling thread's stack on the log. */
void dump_stack(void);

#ifdef __cplusplus
}
#endif

/* What Linux 4.14's include chain brings with this header (docs/kernel-headers.md). */
#include <linux/cache.h>
#include <linux/types.h>

#endif
