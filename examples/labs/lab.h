/* SPDX-License-Identifier: MIT */
/*
 * lab.h - what every lab program shares (examples/labs/README.md).
 *
 * A lab is one driver program with a bug, built twice by dmaemu-lab:
 * as is (the buggy variant) and with -DLAB_FIXED (the fixed one).  The
 * program takes the same arguments in every lab:
 *
 *   LAB [--profile arm|arm64|x86] [--seed N] [--options STR]
 *
 * and ends with one line that dmaemu-lab and the tests read:
 *
 *   lab: NAME VARIANT on PROFILE: data right|data WRONG, N reports
 */
#ifndef DMAEMU_LAB_H
#define DMAEMU_LAB_H

#include <stdbool.h>
#include <stddef.h>

#include <dmaemu/machine.h>

#ifdef LAB_FIXED
#define LAB_VARIANT "fixed"
#else
#define LAB_VARIANT "buggy"
#endif

struct lab {
	struct dmaemu_machine *m;
	const char *name;    /* the lab's name */
	const char *profile; /* arm, arm64 (the default) or x86 */
	unsigned long long seed;
	unsigned int pictures; /* lab_show() calls so far */
};

/*
 * lab_start() - parse the arguments and create the machine with
 * "profile=P:seed=N", then @extra (the lab's own options, or NULL), then
 * what --options gave.  Prints a clear message and returns NULL on a bad
 * argument or when the machine cannot be made.
 */
struct lab *lab_start(const char *name, int argc, char **argv,
		      const char *extra);

/*
 * lab_show() - draw the cache lines of the @len bytes at @addr (an address
 * of the machine's memory in any view) under the heading @title: one row a
 * line, with where it is cached, its owner and, per byte, whether the
 * CPU's copy is dirty, the device changed memory since the CPU's copy
 * was taken, or the bytes wait in a write-combining buffer
 * (dmaemu_line_map_print()).  Colour when stdout is a terminal (or
 * DMAEMU_LAB_COLOR=always) unless NO_COLOR is set or
 * DMAEMU_LAB_COLOR=never.  With DMAEMU_LAB_SVG=DIR the picture is also
 * written to DIR/NAME-VARIANT-N.svg, N counting the pictures from 1.
 */
void lab_show(struct lab *lab, const void *addr, size_t len, const char *title);

/* lab_say() - print one line of the lab's story ("    ..."), printf-style. */
void lab_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * lab_fail() - say on stderr that the call @call failed with the error
 * @err (an errno value, positive or negative as kernel calls return it),
 * "NAME: CALL: error text", and return 2: the exit status of a lab that
 * could not run to its end, so "return lab_fail(lab, "kzalloc()",
 * -ENOMEM);" ends main().  Every early exit of a lab goes through it.
 */
int lab_fail(const struct lab *lab, const char *call, int err);

/*
 * lab_finish() - print the result line (data right or wrong, the number
 * of reports), destroy the machine and free @lab.
 * Return: the program's exit status: 0 when the program ran to the end
 * (whether or not the data was right: the buggy variant is meant to get
 * it wrong), so "return lab_finish(lab, ok);" ends main().
 */
int lab_finish(struct lab *lab, bool data_ok);

#endif
