/* SPDX-License-Identifier: MIT */
/*
 * <dmaemu/sched.h> - the lockstep scheduler of a machine, seen from tests.
 *
 * With the option sched=lockstep, the threads of a machine (driver
 * threads, the interrupt thread, threaded handlers, device threads) run
 * one at a time, and the machine's seed chooses which one runs at each
 * scheduling point (docs/scheduling.md).  These calls let a test or a lab
 * see the interleaving that a seed produced: the sequence of (context,
 * point) pairs, or a fingerprint of it.  With sched=threads they report
 * nothing.
 */
#ifndef DMAEMU_SCHED_H
#define DMAEMU_SCHED_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct dmaemu_machine;

/**
 * typedef dmaemu_sched_trace_fn - called at every scheduling point.
 * @arg:   what dmaemu_sched_set_trace() was given.
 * @ctx:   the context at the point: 0 for the thread that created the
 *         machine, then 1, 2, ... in the order contexts joined.
 * @name:  the context's name ("cpu0", "dev:ce0", "irq", ...).
 * @point: the point ("mmio-write", "dma-read", "wait_for_completion()",
 *         ...).
 *
 * Called by the context itself, while it holds the turn, so calls never
 * overlap; it must not call into the machine.
 */
typedef void (*dmaemu_sched_trace_fn)(void *arg, unsigned int ctx,
				      const char *name, const char *point);

/**
 * dmaemu_sched_set_trace() - call @fn at every scheduling point of @m.
 * @m:   a machine made with sched=lockstep.
 * @fn:  the callback, or NULL to stop.
 * @arg: passed to @fn.
 *
 * Return: 0, or -EINVAL when @m is NULL or not in lockstep (a
 * bad-argument report).
 */
int dmaemu_sched_set_trace(struct dmaemu_machine *m, dmaemu_sched_trace_fn fn,
			   void *arg);

/**
 * dmaemu_sched_fingerprint() - a hash of the interleaving so far.
 * @m:      a machine made with sched=lockstep.
 * @points: if not NULL, receives the number of scheduling points so far.
 *
 * Two runs of one program with the same seed give the same fingerprint
 * and count at the same moment; a different interleaving almost surely
 * gives another fingerprint.
 *
 * Return: the fingerprint; 0 (and *@points 0) when @m is NULL or not in
 * lockstep.
 */
uint64_t dmaemu_sched_fingerprint(struct dmaemu_machine *m, uint64_t *points);

struct dmaemu_thread;

/**
 * dmaemu_thread_create() - start a driver thread that runs in @m.
 * @m:    the machine.
 * @name: the thread's context name in traces (NULL: "threadN").
 * @fn:   what the thread runs; @arg: its argument.
 *
 * With sched=lockstep the thread is a context of @m from this call on,
 * so the moment it first runs is the seed's choice, as for the machine's
 * own threads (a thread made with pthread_create() joins only at its
 * first scheduling point, at a moment the host chooses).  With
 * sched=threads it is a plain thread.
 *
 * Return: the thread, for dmaemu_thread_join(); NULL with errno ENOMEM
 * or EAGAIN, or EINVAL after a bad-argument report (@m or @fn NULL).
 */
struct dmaemu_thread *dmaemu_thread_create(struct dmaemu_machine *m,
					   const char *name,
					   void *(*fn)(void *), void *arg);

/**
 * dmaemu_thread_join() - wait for @t to end, and free it.
 *
 * In lockstep the wait is a scheduling wait (the caller gives up its
 * turn until @t has returned), so call it instead of pthread_join().
 * Return: what @t's function returned.
 */
void *dmaemu_thread_join(struct dmaemu_thread *t);

#ifdef __cplusplus
}
#endif

#endif
