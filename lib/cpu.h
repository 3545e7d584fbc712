/* SPDX-License-Identifier: MIT */
/*
 * cpu.h - how CPU accesses reach the model (instrumentation hooks, the
 * cache access path, write-combining buffers, prefetch).
 * Included by dmaemu-private.h only.
 */
#ifndef DMAEMU_CPU_H
#define DMAEMU_CPU_H

struct dmaemu_machine;

/* cpu.c / wc.c: called by machine create/destroy. */
int dmaemu__cpu_init(struct dmaemu_machine *m);
void dmaemu__cpu_fini(struct dmaemu_machine *m);
int dmaemu__wc_init(struct dmaemu_machine *m);
void dmaemu__wc_fini(struct dmaemu_machine *m);

#endif
