// SPDX-License-Identifier: MIT
/*
 * machine.c - create and destroy machines; the registry of live machines;
 * the current machine.
 *
 * How it works.  A machine is built in a fixed order and torn down in the
 * reverse one:
 *
 *   options -> report stream -> physical memory -> cache model
 *           -> page allocator -> kmalloc -> write-combining -> CPU access
 *           -> registry
 *
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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmaemu-private.h"

uintptr_t dmaemu__span_lo = UINTPTR_MAX;
uintptr_t dmaemu__span_hi;

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
/* Live machines; read with atomic loads, written under registry_lock. */
static struct dmaemu_machine *registry[DMAEMU_MAX_MACHINES];
/* Slots [0, registry_used) may be live (atomic; written under the lock). */
static unsigned int registry_used;
static uint64_t registry_seq;	       /* under registry_lock */
static struct dmaemu_machine *current; /* atomic */

/**
 * dmaemu__mutex_init() - initialise a mutex of the library.
 * @mu: the mutex.
 *
 * Error-checking (relocking or unlocking a mutex one does not hold fails,
 * and dmaemu__lock() aborts) unless NDEBUG is defined.
 *
 * Return: 0, or a positive error number from pthreads.
 */
int dmaemu__mutex_init(pthread_mutex_t *mu)
{
#ifdef NDEBUG
	return pthread_mutex_init(mu, NULL);
#else
	pthread_mutexattr_t a;
	int ret;

	ret = pthread_mutexattr_init(&a);
	if (ret)
		return ret;
	ret = pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK);
	if (!ret)
		ret = pthread_mutex_init(mu, &a);
	pthread_mutexattr_destroy(&a);
	return ret;
#endif
}

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

static int registry_add(struct dmaemu_machine *m)
{
	unsigned int i;

	dmaemu__lock(&registry_lock);
	for (i = 0; i < DMAEMU_MAX_MACHINES && registry[i]; i++)
		;
	if (i == DMAEMU_MAX_MACHINES) {
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

static void registry_remove(struct dmaemu_machine *m)
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

void dmaemu_machine_set_current(struct dmaemu_machine *m)
{
	dmaemu__lock(&registry_lock);
	/* Only a live machine (or none) can become current. */
	if (!m ||
	    (m->reg_index < DMAEMU_MAX_MACHINES && registry[m->reg_index] == m))
		__atomic_store_n(&current, m, __ATOMIC_RELEASE);
	dmaemu__unlock(&registry_lock);
}

struct dmaemu_machine *dmaemu_machine_current(void)
{
	return __atomic_load_n(&current, __ATOMIC_ACQUIRE);
}

/* The machine's mutexes, in one place so that create and destroy agree. */
static int init_mutexes(struct dmaemu_machine *m)
{
	int ret;
	unsigned int i;

	ret = dmaemu__mutex_init(&m->lock);
	if (ret)
		goto out;
	ret = dmaemu__mutex_init(&m->cache_lock);
	if (ret)
		goto out_lock;
	ret = dmaemu__mutex_init(&m->wc_lock);
	if (ret)
		goto out_cache_lock;
	ret = dmaemu__mutex_init(&m->report_lock);
	if (ret)
		goto out_wc_lock;
	for (i = 0; i < DMAEMU_NSTRIPES; i++) {
		ret = dmaemu__mutex_init(&m->stripe[i]);
		if (ret)
			goto out_stripes;
	}
	return 0;

out_stripes:
	while (i-- > 0)
		pthread_mutex_destroy(&m->stripe[i]);
	pthread_mutex_destroy(&m->report_lock);
out_wc_lock:
	pthread_mutex_destroy(&m->wc_lock);
out_cache_lock:
	pthread_mutex_destroy(&m->cache_lock);
out_lock:
	pthread_mutex_destroy(&m->lock);
out:
	return -ret;
}

static void destroy_mutexes(struct dmaemu_machine *m)
{
	unsigned int i;

	for (i = 0; i < DMAEMU_NSTRIPES; i++)
		pthread_mutex_destroy(&m->stripe[i]);
	pthread_mutex_destroy(&m->report_lock);
	pthread_mutex_destroy(&m->wc_lock);
	pthread_mutex_destroy(&m->cache_lock);
	pthread_mutex_destroy(&m->lock);
}

/* The CPU data cache, as the options describe it. */
static int create_cache(struct dmaemu_machine *m, char *err, size_t errlen)
{
	struct cachesim_config cfg;
	char msg[256];

	cachesim_config_init(&cfg);
	cfg.nlevels = 1;
	cfg.level[0].name = "L1D";
	cfg.level[0].size = m->opt.cache_size;
	cfg.level[0].ways = m->opt.cache_ways;
	cfg.level[0].line = m->opt.cache_line;
	cfg.level[0].policy = m->opt.cache_policy;
	cfg.level[0].write_policy = CACHESIM_WB_WA;
	cfg.seed = m->opt.seed;
	m->cache = cachesim_create(&cfg, msg, sizeof(msg));
	if (!m->cache) {
		int e = errno ? errno : ENOMEM;

		snprintf(err, errlen, "options: bad cache geometry: %s",
			 e == EINVAL ? msg : strerror(e));
		return -e;
	}
	cachesim_set_evict_hook(m->cache, dmaemu__evict_hook, m);
	return 0;
}

struct dmaemu_machine *dmaemu_machine_create(const char *options)
{
	struct dmaemu_machine *m;
	char err[512] = "";
	int ret;

	m = calloc(1, sizeof(*m));
	if (!m) {
		errno = ENOMEM;
		return NULL;
	}
	m->reg_index = DMAEMU_MAX_MACHINES;
	ret = dmaemu__options_build(&m->opt, getenv("DMAEMU_OPTIONS"), options,
				    err, sizeof(err));
	if (ret < 0)
		goto out_free;
	m->line = m->opt.cache_line;
	m->line_shift = (unsigned int)__builtin_ctz(m->line);

	ret = init_mutexes(m);
	if (ret < 0)
		goto out_free;
	ret = dmaemu__report_init(m, err, sizeof(err));
	if (ret < 0)
		goto out_mutexes;
	ret = dmaemu__physmem_init(m);
	if (ret < 0)
		goto out_physmem;
	ret = create_cache(m, err, sizeof(err));
	if (ret < 0)
		goto out_physmem;
	ret = dmaemu__palloc_init(m);
	if (ret < 0)
		goto out_cache;
	ret = dmaemu__slab_init(m);
	if (ret < 0)
		goto out_palloc;
	ret = dmaemu__wc_init(m);
	if (ret < 0)
		goto out_slab;
	ret = dmaemu__cpu_init(m);
	if (ret < 0)
		goto out_wc;
	ret = registry_add(m);
	if (ret < 0)
		goto out_cpu;
	return m;

out_cpu:
	dmaemu__cpu_fini(m);
out_wc:
	dmaemu__wc_fini(m);
out_slab:
	dmaemu__slab_fini(m);
out_palloc:
	dmaemu__palloc_fini(m);
out_cache:
	cachesim_destroy(m->cache);
out_physmem:
	dmaemu__physmem_fini(m);
	dmaemu__report_fini(m);
out_mutexes:
	destroy_mutexes(m);
out_free:
	/* Only option and log_path problems are the caller's to fix. */
	if (err[0])
		fprintf(stderr, "dmaemu: %s\n", err);
	free(m);
	errno = -ret;
	return NULL;
}

void dmaemu_machine_destroy(struct dmaemu_machine *m)
{
	if (!m)
		return;
	dmaemu__devices_fini(m); /* reports their leaks: the machine is whole */
	registry_remove(m);
	dmaemu__iommu_fini(m);
	dmaemu__swiotlb_fini(m); /* its pool goes back to the page allocator */
	dmaemu__cpu_fini(m);
	dmaemu__wc_fini(m);
	dmaemu__slab_fini(m);
	dmaemu__palloc_fini(m);
	cachesim_destroy(m->cache);
	dmaemu__physmem_fini(m);
	dmaemu__report_fini(m);
	destroy_mutexes(m);
	free(m);
}
