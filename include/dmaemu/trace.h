/* SPDX-License-Identifier: MIT */
/*
 * <dmaemu/trace.h> - trace events: what the driver, the devices and the
 * interrupt thread did, in time order, as text modelled on ftrace's or as
 * a Chrome trace-event file that Perfetto and chrome://tracing open.
 *
 * The machine options trace=FILE, trace_format=text|json and
 * trace_events=GROUPS start tracing at create (docs/tracing.md); the
 * calls below turn groups on and off around a region of a program and
 * hand each event to a test's callback.
 */
#ifndef DMAEMU_TRACE_H
#define DMAEMU_TRACE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct dmaemu_machine;

/**
 * struct dmaemu_trace_event - one event, as a callback sees it.
 * @group:  its group: "alloc", "dma", "device", "mmio", "irq", "report".
 * @name:   the event ("dma_map_single", "dma_write", "irq_raise", ...).
 * @ts_ns:  emulated time (dmaemu_time_ns(): virtual with sched=lockstep).
 * @thread: the thread that made it: "drv-1" (driver threads, numbered in
 *          the order of their first event), "nic0-dev" (a device's
 *          thread), "irq" (the interrupt thread).
 * @ctx:    "cpu", "dev" or "irq".
 * @args:   its fields, "key=value" separated by spaces.
 * The strings live only during the call.
 */
struct dmaemu_trace_event {
	const char *group;
	const char *name;
	uint64_t ts_ns;
	const char *thread;
	const char *ctx;
	const char *args;
};

typedef void (*dmaemu_trace_fn)(struct dmaemu_machine *m,
				const struct dmaemu_trace_event *ev, void *arg);

/**
 * dmaemu_trace_start() - trace the event groups @events from now on.
 * @m:      the machine.
 * @events: a comma list of groups (as trace_events= takes it), "all", or
 *          NULL for the option's value.
 *
 * Events go to the trace= file, if the machine has one, and to the
 * callback, if one is set.
 * Return: 0, or -EINVAL (a bad list: a report names it).
 */
int dmaemu_trace_start(struct dmaemu_machine *m, const char *events);

/** dmaemu_trace_stop() - trace nothing from now on (the file stays open). */
void dmaemu_trace_stop(struct dmaemu_machine *m);

/**
 * dmaemu_trace_set_callback() - call @fn for each event traced from now on
 * (NULL: none).  It runs on the thread that made the event, maybe with
 * locks of the library held (a report's event), so it may not call the
 * library.
 */
void dmaemu_trace_set_callback(struct dmaemu_machine *m, dmaemu_trace_fn fn,
			       void *arg);

#ifdef __cplusplus
}
#endif

#endif /* DMAEMU_TRACE_H */
