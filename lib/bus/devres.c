// SPDX-License-Identifier: MIT
/*
 * devres.c - generic managed resources: devres_alloc(), devres_add() and
 * the calls that find, remove and release them, with the semantics of
 * Linux 4.14's drivers/base/devres.c.
 *
 * How it works.  A resource is a node: the device list's record (struct
 * dmaemu__devres, marked generic) followed by the driver's data, one host
 * allocation.  Every node made and not yet freed is on one process-wide
 * list, so a pointer the driver hands back is recognised (or reported)
 * without reading memory in front of it.  devres_add() pushes the record
 * on the device's list, the newest first, next to the devm_* and dmam_*
 * records, so that one walk releases them all in the reverse order of
 * their addition, as release_nodes() does:
 *
 *   device list:  [newest] -> [devm_kzalloc] -> [devres_alloc'd] -> ...
 *                  released first                released last
 *
 * Lookups (devres_find(), _remove(), _destroy(), _release()) search from
 * the newest, considering only generic records with the given release
 * function, and call @match under the device's devres lock, as Linux calls
 * it under its spinlock: a match function must not call devres functions.
 *
 * Locks: node_lock protects the list of nodes and each node's @added; it
 * is a leaf, never held with a device's devres lock.
 */
#include "config.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>

#include <linux/device.h>

#include "bus/bus.h"

struct node {
	struct dmaemu__devres r;    /* first: r.data points at @data */
	struct node *gnext, *gprev; /* every node (node_lock) */
	bool added;		    /* on a device's list (node_lock) */
	_Alignas(max_align_t) unsigned char data[];
};

static pthread_mutex_t node_lock = PTHREAD_MUTEX_INITIALIZER;
static struct node *nodes; /* node_lock */

/* The node whose data is @res, or NULL.  node_lock held. */
static struct node *node_find(const void *res)
{
	struct node *n;

	for (n = nodes; n; n = n->gnext)
		if (n->data == res)
			return n;
	return NULL;
}

static struct node *node_of(struct dmaemu__devres *r)
{
	return (struct node *)((char *)r - offsetof(struct node, r));
}

static void node_unlink(struct node *n)
{
	if (n->gprev)
		n->gprev->gnext = n->gnext;
	else
		nodes = n->gnext;
	if (n->gnext)
		n->gnext->gprev = n->gprev;
}

void dmaemu__devres_free_record(struct dmaemu__devres *r)
{
	struct node *n;

	if (!r)
		return;
	if (!r->generic) {
		dmaemu__free(r);
		return;
	}
	n = node_of(r);
	dmaemu__lock(&node_lock);
	node_unlink(n);
	dmaemu__unlock(&node_lock);
	dmaemu__free(n);
}

void *devres_alloc(dr_release_t release, size_t size, unsigned int gfp)
{
	DMAEMU__API_CALL(call, "devres_alloc");
	struct node *n;

	(void)gfp;
	if (!release) {
		dmaemu__reportf(NULL, DMAEMU_REPORT_BAD_ARGUMENT, 0, size,
				"devres_alloc(NULL, %zu): no release function",
				size);
		return NULL;
	}
	n = dmaemu__calloc(1, sizeof(*n) + size);
	if (!n)
		return NULL;
	n->r.release = release;
	n->r.data = n->data;
	n->r.generic = true;
	dmaemu__lock(&node_lock);
	n->gnext = nodes;
	if (nodes)
		nodes->gprev = n;
	nodes = n;
	dmaemu__unlock(&node_lock);
	return n->data;
}

void devres_free(void *res)
{
	struct node *n;
	const char *why = NULL;

	if (!res)
		return;
	dmaemu__lock(&node_lock);
	n = node_find(res);
	if (!n)
		why = "not a devres_alloc() resource (or freed already)";
	else if (n->added)
		why = "still added to a device: devres_remove() it first";
	else
		node_unlink(n);
	dmaemu__unlock(&node_lock);
	if (why) {
		dmaemu__reportf(NULL, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"devres_free(%p): %s", res, why);
		return;
	}
	dmaemu__free(n);
}

void devres_add(struct device *dev, void *res)
{
	struct node *n;
	const char *why = NULL;

	if (!dmaemu__dev_machine_or_report(dev, "devres_add"))
		return;
	dmaemu__lock(&node_lock);
	n = node_find(res);
	if (!n)
		why = "not a devres_alloc() resource";
	else if (n->added)
		why = "added already";
	else
		n->added = true;
	dmaemu__unlock(&node_lock);
	if (!why && dmaemu__devres_link(dev, &n->r)) {
		why = "the device went away";
		dmaemu__lock(&node_lock);
		n->added = false;
		dmaemu__unlock(&node_lock);
	}
	if (why)
		dmaemu__reportf(
			dmaemu__dev_machine(dev), DMAEMU_REPORT_BAD_ARGUMENT, 0,
			0, "devres_add(%s, %p): %s", dev_name(dev), res, why);
}

/*
 * The newest generic record of @d made with @release that @match accepts;
 * unlinked when @unlink.  Return: it, or NULL.
 */
static struct dmaemu__devres *find(struct device *dev, dr_release_t release,
				   dr_match_t match, void *match_data,
				   bool unlink)
{
	struct dmaemu_device *d = dmaemu__device_of(dev);
	struct dmaemu__devres **pp, *r = NULL;

	if (!d)
		return NULL;
	dmaemu__lock(&d->devres_lock);
	for (pp = &d->devres; *pp; pp = &(*pp)->next) {
		struct dmaemu__devres *c = *pp;

		if (!c->generic || c->release != release)
			continue;
		if (match && !match(dev, c->data, match_data))
			continue;
		r = c;
		if (unlink)
			*pp = c->next;
		break;
	}
	dmaemu__unlock(&d->devres_lock);
	if (r && unlink) {
		dmaemu__lock(&node_lock);
		node_of(r)->added = false;
		dmaemu__unlock(&node_lock);
	}
	return r;
}

void *devres_find(struct device *dev, dr_release_t release, dr_match_t match,
		  void *match_data)
{
	struct dmaemu__devres *r;

	if (!dmaemu__dev_machine_or_report(dev, "devres_find"))
		return NULL;
	r = find(dev, release, match, match_data, false);
	return r ? r->data : NULL;
}

void *devres_get(struct device *dev, void *new_res, dr_match_t match,
		 void *match_data)
{
	struct node *n;
	void *found;

	if (!dmaemu__dev_machine_or_report(dev, "devres_get"))
		return NULL;
	dmaemu__lock(&node_lock);
	n = node_find(new_res);
	dmaemu__unlock(&node_lock);
	if (!n) {
		dmaemu__reportf(dmaemu__dev_machine(dev),
				DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"devres_get(%s, %p): not a devres_alloc() "
				"resource",
				dev_name(dev), new_res);
		return NULL;
	}
	found = devres_find(dev, n->r.release, match, match_data);
	if (found) {
		devres_free(new_res);
		return found;
	}
	devres_add(dev, new_res);
	return new_res;
}

void *devres_remove(struct device *dev, dr_release_t release, dr_match_t match,
		    void *match_data)
{
	struct dmaemu__devres *r;

	if (!dmaemu__dev_machine_or_report(dev, "devres_remove"))
		return NULL;
	r = find(dev, release, match, match_data, true);
	return r ? r->data : NULL;
}

/* devres_destroy() and devres_release(): @run the release or not. */
static int take(struct device *dev, dr_release_t release, dr_match_t match,
		void *match_data, bool run, const char *fn)
{
	struct dmaemu__devres *r;

	if (!dmaemu__dev_machine_or_report(dev, fn))
		return -ENOENT;
	r = find(dev, release, match, match_data, true);
	if (!r) {
		dmaemu__reportf(dmaemu__dev_machine(dev),
				DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"%s(%s): no such resource", fn, dev_name(dev));
		return -ENOENT;
	}
	if (run)
		r->release(dev, r->data);
	dmaemu__devres_free_record(r);
	return 0;
}

int devres_destroy(struct device *dev, dr_release_t release, dr_match_t match,
		   void *match_data)
{
	return take(dev, release, match, match_data, false, "devres_destroy");
}

int devres_release(struct device *dev, dr_release_t release, dr_match_t match,
		   void *match_data)
{
	return take(dev, release, match, match_data, true, "devres_release");
}

int devres_release_all(struct device *dev)
{
	struct dmaemu_device *d = dmaemu__device_of(dev);

	if (!d) {
		dmaemu__dev_machine_or_report(dev, "devres_release_all");
		return -ENODEV;
	}
	return dmaemu__devres_release_all(d);
}
