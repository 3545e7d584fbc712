/* SPDX-License-Identifier: MIT */
/*
 * <dmaemu/machine.h> - create and destroy emulated machines.
 */
#ifndef DMAEMU_MACHINE_H
#define DMAEMU_MACHINE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct dmaemu_machine;

/**
 * dmaemu_machine_create() - build an emulated machine.
 * @options: "key=value:key=value" (see docs/options.md), or NULL for the
 *           defaults.
 *
 * Options are applied in this order, later ones winning: the defaults,
 * @options, then the environment variable DMAEMU_OPTIONS (whoever runs the
 * program has the last word, as with ASAN_OPTIONS); a key DMAEMU_OPTIONS
 * sets to another value than @options makes one line on the report
 * stream.  The new machine becomes the current machine
 * (dmaemu_machine_current()).
 *
 * Return: the machine, or NULL when an option is unknown or malformed (a
 * one-line message naming the key is printed on stderr) or host memory
 * could not be reserved.
 */
struct dmaemu_machine *dmaemu_machine_create(const char *options);

/**
 * dmaemu_machine_destroy() - free a machine and everything it owns.
 * @m: the machine (NULL is ignored).
 *
 * If @m is the current machine, the most recently created machine still
 * alive becomes current (or none).
 */
void dmaemu_machine_destroy(struct dmaemu_machine *m);

/**
 * dmaemu_machine_set_current() - choose the machine that kernel calls
 * without a device argument (kmalloc, alloc_pages, ...) use.
 * @m: a live machine, or NULL for none.
 *
 * The current machine is process-wide, not per thread.
 */
void dmaemu_machine_set_current(struct dmaemu_machine *m);

/** dmaemu_machine_current() - the current machine, or NULL. */
struct dmaemu_machine *dmaemu_machine_current(void);

/**
 * dmaemu_machine_option() - the value of option @key of @m, as text.
 * @buf, @len: where to write it.
 * Return: 0, or -ENOENT for an unknown key.
 */
int dmaemu_machine_option(struct dmaemu_machine *m, const char *key, char *buf,
			  size_t len);

#ifdef __cplusplus
}
#endif

#endif
