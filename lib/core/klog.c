// SPDX-License-Identifier: MIT
/*
 * klog.c - the kernel log and the kernel's own assertions: printk(),
 * print_hex_dump(), dump_stack(), and what WARN() and BUG() call.
 *
 * How it works.  A log line is formatted completely first, then written
 * with one fprintf() under the machine's report lock, on the stream
 * reports use (stderr, or the log_path file), so that log lines, reports
 * and dev_printk() lines of several threads never mix.  With no current
 * machine a line goes to stderr, as dev_printk() does for an unknown
 * device.
 *
 * WARN() is a kernel-warning report and BUG() a kernel-bug report, made
 * as an API call of the driver's line (so the report's "at" line is the
 * WARN_ON() and the stack above it is the driver's); BUG() then aborts,
 * because the code after a kernel BUG() never runs.
 */
#include "config.h"

#include <execinfo.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bug.h>
#include <linux/printk.h>

#include "core/core.h"

#define LOG_LINE_MAX 1024

/* Write @msg (a whole line, its newline added when missing) on the log. */
static void log_write(struct dmaemu_machine *m, const char *msg)
{
	size_t n = strlen(msg);
	const char *nl = n && msg[n - 1] == '\n' ? "" : "\n";
	FILE *out;

	if (!m) {
		fprintf(stderr, "%s%s", msg, nl);
		return;
	}
	dmaemu__lock(&m->report_lock);
	out = m->log ? m->log : stderr;
	fprintf(out, "%s%s", msg, nl);
	fflush(out);
	dmaemu__unlock(&m->report_lock);
}

int vprintk(const char *fmt, va_list args)
{
	char msg[LOG_LINE_MAX];
	int n;

	if (!fmt)
		return 0;
	n = vsnprintf(msg, sizeof(msg), fmt, args);
	log_write(dmaemu_machine_current(), msg);
	return n < 0 ? 0 : n;
}

int printk(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vprintk(fmt, ap);
	va_end(ap);
	return n;
}

void print_hex_dump(const char *level, const char *prefix_str, int prefix_type,
		    int rowsize, int groupsize, const void *buf, size_t len,
		    bool ascii)
{
	const unsigned char *p = buf;
	struct dmaemu_machine *m = dmaemu_machine_current();
	char line[LOG_LINE_MAX];
	size_t off, i, n, at;

	if (rowsize != 16 && rowsize != 32)
		rowsize = 16;
	if (groupsize != 1 && groupsize != 2 && groupsize != 4 &&
	    groupsize != 8)
		groupsize = 1;
	if (!p)
		len = 0;
	for (off = 0; off < len; off += (size_t)rowsize) {
		n = len - off < (size_t)rowsize ? len - off : (size_t)rowsize;
		at = (size_t)snprintf(line, sizeof(line), "%s%s",
				      level ? level : "",
				      prefix_str ? prefix_str : "");
		if (prefix_type == DUMP_PREFIX_ADDRESS)
			at += (size_t)snprintf(line + at, sizeof(line) - at,
					       "%p: ", (const void *)(p + off));
		else if (prefix_type == DUMP_PREFIX_OFFSET)
			at += (size_t)snprintf(line + at, sizeof(line) - at,
					       "%08zx: ", off);
		/* Groups in the CPU's order, as the kernel prints them. */
		for (i = 0; i + (size_t)groupsize <= n;
		     i += (size_t)groupsize) {
			unsigned long long v = 0;

			memcpy(&v, p + off + i, (size_t)groupsize);
			at += (size_t)snprintf(line + at, sizeof(line) - at,
					       "%s%0*llx", i ? " " : "",
					       groupsize * 2, v);
		}
		if (ascii) {
			at += (size_t)snprintf(line + at, sizeof(line) - at,
					       "  ");
			for (i = 0; i < n && at + 1 < sizeof(line); i++) {
				unsigned char c = p[off + i];

				line[at++] =
					c >= 0x20 && c < 0x7f ? (char)c : '.';
			}
			line[at] = '\0';
		}
		log_write(m, line);
	}
}

void dump_stack(void)
{
	struct dmaemu_machine *m = dmaemu_machine_current();
	void *pcs[32];
	char **names;
	int n, i;

	n = backtrace(pcs, 32);
	names = backtrace_symbols(pcs, n);
	log_write(m, "Call Trace:");
	/* Frame 0 is this function. */
	for (i = 1; i < n; i++) {
		char line[LOG_LINE_MAX];

		snprintf(line, sizeof(line), " %s", names ? names[i] : "?");
		log_write(m, line);
	}
	free(names);
}

void dmaemu_warn(const char *file, int line, const char *func, const char *fmt,
		 ...)
{
	DMAEMU__API_CALL(call, "WARN");
	char msg[LOG_LINE_MAX] = "";
	va_list ap;

	if (fmt) {
		va_start(ap, fmt);
		vsnprintf(msg, sizeof(msg), fmt, ap);
		va_end(ap);
	}
	if (!dmaemu_machine_current()) {
		fprintf(stderr, "WARNING: at %s:%d %s()%s%s\n",
			file ? file : "?", line, func ? func : "?",
			msg[0] ? ": " : "", msg);
		return;
	}
	dmaemu__reportf(NULL, DMAEMU_REPORT_KERNEL_WARNING, 0, 0,
			"WARNING: at %s:%d %s()%s%s", file ? file : "?", line,
			func ? func : "?", msg[0] ? ": " : "", msg);
}

void dmaemu_bug(const char *file, int line, const char *func)
{
	DMAEMU__API_CALL(call, "BUG");

	if (!dmaemu_machine_current())
		fprintf(stderr, "kernel BUG at %s:%d in %s()!\n",
			file ? file : "?", line, func ? func : "?");
	else
		dmaemu__reportf(NULL, DMAEMU_REPORT_KERNEL_BUG, 0, 0,
				"kernel BUG at %s:%d in %s()!",
				file ? file : "?", line, func ? func : "?");
	fflush(NULL);
	/* The kernel kills the task here: nothing after BUG() may run. */
	abort();
}
