// SPDX-License-Identifier: MIT
/*
 * machines.c - the registry of live machines and the current machine.
 *
 * How it works.
 * The registry is a fixed array of live machines plus the bounding span
 * [dmaemu__span_lo, dmaemu__span_hi) of their host reservations.  The
 * instrumentation asks "is this address emulated?" on every load and store
 * of driver code, so that question must not take a lock: the span and the
 * array slots are read with atomic loads, and written only under
 * registry_lock, in an order that keeps lock-free readers safe:
 *
 *   add:     publish the slot, then widen the span;
 *   remove:  narrow the span, then clear the slot.
 *
 * A reader that passes the span check therefore always finds a machine
 * whose reservation holds the address, or none if the address belongs to a
 * machine that is being created or destroyed (using memory of a machine
 * while destroying it is a caller bug anyway).  Most addresses a driver
 * touches (stack, globals, malloc) are outside the span and cost two
 * compares.
 *
 * The current machine (used by kernel calls without a device: kmalloc,
 * alloc_pages) is the most recently created one, or the one chosen with
 * dmaemu_machine_set_current(); when it is destroyed, the most recently
 * created machine still alive takes over.
 */
#include "config.h"

#include <errno.h>

#include "core/core.h"

uintptr_t dmaemu__span_lo = UINTPTR_MAX;
uintptr_t dmaemu__span_hi;

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
/* Live machines; read with atomic loads, written under registry_lock. */
static struct dmaemu_machine *registry[DMAEMU__MAX_MACHINES];
/* Slots [0, registry_used) may be live (atomic; written under the lock). */
static unsigned int registry_used;
static uint64_t registry_seq;	       /* under registry_lock */
static struct dmaemu_machine *current; /* atomic */

/**
 * dmaemu__machine_of_addr() - the live machine whose reservation holds
 * @addr, or NULL.  Lock-free; see the comment at the top of this file.
 */
struct dmaemu_machine *dmaemu__machine_of_addr(const void *addr)
{
	uintptr_t a = (uintptr_t)addr;
	unsigned int i, n = __atomic_load_n(&registry_used, __ATOMIC_ACQUIRE);

	for (i = 0; i < n; i++) {
		struct dmaemu_machine *m =
			__atomic_load_n(&registry[i], __ATOMIC_ACQUIRE);

		if (m && a - (uintptr_t)m->resv < m->resv_size)
			return m;
	}
	return NULL;
}

/* Recompute the span over the live machines except @skip.  Lock held. */
static void update_span(const struct dmaemu_machine *skip)
{
	uintptr_t lo = UINTPTR_MAX, hi = 0;
	unsigned int i;

	for (i = 0; i < registry_used; i++) {
		const struct dmaemu_machine *m = registry[i];

		if (!m || m == skip)
			continue;
		if ((uintptr_t)m->resv < lo)
			lo = (uintptr_t)m->resv;
		if ((uintptr_t)m->resv + m->resv_size > hi)
			hi = (uintptr_t)m->resv + m->resv_size;
	}
	__atomic_store_n(&dmaemu__span_lo, lo, __ATOMIC_RELEASE);
	__atomic_store_n(&dmaemu__span_hi, hi, __ATOMIC_RELEASE);
}

int dmaemu__machine_register(struct dmaemu_machine *m)
{
	unsigned int i;

	dmaemu__vg_atomic(&dmaemu__span_lo, sizeof(dmaemu__span_lo));
	dmaemu__vg_atomic(&dmaemu__span_hi, sizeof(dmaemu__span_hi));
	dmaemu__lock(&registry_lock);
	for (i = 0; i < DMAEMU__MAX_MACHINES && registry[i]; i++)
		;
	if (i == DMAEMU__MAX_MACHINES) {
		dmaemu__unlock(&registry_lock);
		return -EMFILE;
	}
	m->reg_index = i;
	m->seq = ++registry_seq;
	__atomic_store_n(&registry[i], m, __ATOMIC_RELEASE);
	if (i >= registry_used)
		__atomic_store_n(&registry_used, i + 1, __ATOMIC_RELEASE);
	update_span(NULL);
	__atomic_store_n(&current, m, __ATOMIC_RELEASE);
	dmaemu__unlock(&registry_lock);
	return 0;
}

void dmaemu__machine_unregister(struct dmaemu_machine *m)
{
	struct dmaemu_machine *next = NULL;
	unsigned int i;

	dmaemu__lock(&registry_lock);
	update_span(m);
	__atomic_store_n(&registry[m->reg_index], NULL, __ATOMIC_RELEASE);
	while (registry_used && !registry[registry_used - 1])
		__atomic_store_n(&registry_used, registry_used - 1,
				 __ATOMIC_RELEASE);
	if (__atomic_load_n(&current, __ATOMIC_ACQUIRE) == m) {
		for (i = 0; i < registry_used; i++)
			if (registry[i] &&
			    (!next || registry[i]->seq > next->seq))
				next = registry[i];
		__atomic_store_n(&current, next, __ATOMIC_RELEASE);
	}
	dmaemu__unlock(&registry_lock);
}

bool dmaemu__machine_live(const struct dmaemu_machine *m)
{
	unsigned int i, n = __atomic_load_n(&registry_used, __ATOMIC_ACQUIRE);

	for (i = 0; i < n; i++)
		if (__atomic_load_n(&registry[i], __ATOMIC_ACQUIRE) == m)
			return true;
	return false;
}

bool dmaemu__machine_bad(const struct dmaemu_machine *m, const char *fn)
{
	if (!m || dmaemu__machine_live(m))
		return false;
	dmaemu__reportf(NULL, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
			"%s: %p is not a live machine (destroyed, or not made "
			"by dmaemu_machine_create())",
			fn, (const void *)m);
	return true;
}

void dmaemu_machine_set_current(struct dmaemu_machine *m)
{
	/* Only a live machine (or none) can become current. */
	if (dmaemu__machine_bad(m, "dmaemu_machine_set_current"))
		return;
	dmaemu__lock(&registry_lock);
	if (!m || dmaemu__machine_live(m))
		__atomic_store_n(&current, m, __ATOMIC_RELEASE);
	dmaemu__unlock(&registry_lock);
}

struct dmaemu_machine *dmaemu_machine_current(void)
{
	return __atomic_load_n(&current, __ATOMIC_ACQUIRE);
}
