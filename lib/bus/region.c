// SPDX-License-Identifier: MIT
/*
 * region.c - busy ranges of a machine's physical address space, after
 * 4.14's kernel/resource.c (__request_region(), __release_region(),
 * __devm_request_region()) on iomem_resource: request_mem_region() claims
 * a range, a request that overlaps a busy range fails, release frees the
 * claim of exactly the range requested.
 *
 * Each machine keeps its claims in a list (m->iomem_busy) under this
 * file's lock, a leaf: no report is made and no driver code runs under
 * it.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>

#include <linux/device.h>
#include <linux/ioport.h>

#include "bus/bus.h"

struct dmaemu__iomem_claim {
	struct resource res; /* first: what the driver gets */
	struct dmaemu__iomem_claim *next;
};

static pthread_mutex_t region_lock = PTHREAD_MUTEX_INITIALIZER;

/* Claims [start, start + n) on @m; NULL when it overlaps a claim. */
static struct resource *claim(struct dmaemu_machine *m, resource_size_t start,
			      resource_size_t n, const char *name,
			      const char *fn)
{
	resource_size_t end = start + n - 1;
	struct dmaemu__iomem_claim *r, *nr;

	if (!n || end < start) {
		dmaemu__reportf(m, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"%s(%#" PRIx64 ", %#" PRIx64 ", %s): %s", fn,
				(uint64_t)start, (uint64_t)n,
				name ? name : "NULL",
				n ? "the range wraps around the address space"
				  : "an empty range");
		return NULL;
	}
	nr = dmaemu__calloc(1, sizeof(*nr));
	if (!nr)
		return NULL;
	nr->res.start = start;
	nr->res.end = end;
	nr->res.name = name;
	nr->res.flags = IORESOURCE_MEM | IORESOURCE_BUSY;
	pthread_mutex_lock(&region_lock);
	for (r = m->iomem_busy; r; r = r->next)
		if (start <= r->res.end && r->res.start <= end)
			break;
	if (!r) {
		nr->next = m->iomem_busy;
		m->iomem_busy = nr;
	}
	pthread_mutex_unlock(&region_lock);
	if (r) { /* busy: 4.14 fails the request, silently */
		dmaemu__free(nr);
		return NULL;
	}
	return &nr->res;
}

/* Frees the claim of exactly [start, start + n); false if there is none. */
static bool unclaim(struct dmaemu_machine *m, resource_size_t start,
		    resource_size_t n)
{
	struct dmaemu__iomem_claim **pp, *r = NULL;

	pthread_mutex_lock(&region_lock);
	for (pp = &m->iomem_busy; *pp; pp = &(*pp)->next)
		if ((*pp)->res.start == start &&
		    (*pp)->res.end == start + n - 1) {
			r = *pp;
			*pp = r->next;
			break;
		}
	pthread_mutex_unlock(&region_lock);
	if (!r)
		return false;
	dmaemu__free(r);
	return true;
}

static struct dmaemu_machine *current_or_report(const char *fn)
{
	struct dmaemu_machine *m = dmaemu_machine_current();

	if (!m)
		dmaemu__reportf(NULL, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"%s(): no current machine (create one, or "
				"enter it with dmaemu_machine_enter())",
				fn);
	return m;
}

struct resource *request_mem_region(resource_size_t start, resource_size_t n,
				    const char *name)
{
	DMAEMU__API_CALL(call, "request_mem_region");
	struct dmaemu_machine *m = current_or_report("request_mem_region");

	return m ? claim(m, start, n, name, "request_mem_region") : NULL;
}

void release_mem_region(resource_size_t start, resource_size_t n)
{
	DMAEMU__API_CALL(call, "release_mem_region");
	struct dmaemu_machine *m = current_or_report("release_mem_region");

	if (m && !unclaim(m, start, n))
		dmaemu__reportf(m, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"release_mem_region(%#" PRIx64 ", %#" PRIx64
				"): trying to free a range that was not "
				"requested (request_mem_region() of exactly "
				"this range first)",
				(uint64_t)start, (uint64_t)n);
}

struct devm_region {
	struct dmaemu_machine *m;
	resource_size_t start, n;
};

static void devm_region_release(struct device *dev, void *data)
{
	struct devm_region *d = data;

	(void)dev;
	(void)unclaim(d->m, d->start, d->n);
	dmaemu__free(d);
}

struct resource *devm_request_mem_region(struct device *dev,
					 resource_size_t start,
					 resource_size_t n, const char *name)
{
	DMAEMU__API_CALL(call, "devm_request_mem_region");
	struct dmaemu_machine *m = dev ? dmaemu__dev_machine(dev) : NULL;
	struct devm_region *d;
	struct resource *res;

	if (!m) {
		dmaemu__reportf(
			dmaemu_machine_current(), DMAEMU_REPORT_BAD_ARGUMENT, 0,
			0, "devm_request_mem_region(%s): %s",
			dev ? dev_name(dev) : "NULL",
			dev ? "not a device of a machine" : "NULL device");
		return NULL;
	}
	d = dmaemu__calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	res = claim(m, start, n, name, "devm_request_mem_region");
	if (!res) {
		dmaemu__free(d);
		return NULL;
	}
	d->m = m;
	d->start = start;
	d->n = n;
	if (dmaemu__devres_add(dev, devm_region_release, d)) {
		devm_region_release(dev, d);
		return NULL;
	}
	return res;
}

void dmaemu__iomem_fini(struct dmaemu_machine *m)
{
	struct dmaemu__iomem_claim *r, *next;

	pthread_mutex_lock(&region_lock);
	r = m->iomem_busy;
	m->iomem_busy = NULL;
	pthread_mutex_unlock(&region_lock);
	for (; r; r = next) {
		next = r->next;
		dmaemu__free(r);
	}
}
