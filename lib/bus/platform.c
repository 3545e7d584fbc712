// SPDX-License-Identifier: MIT
/*
 * platform.c - the platform bus: platform drivers, probe and remove,
 * resources, ioremap(), and the devm_* helpers drivers use in probe().
 *
 * How it works.  Every device whose model has a name (ops->name) is on
 * one process-wide list of platform devices; registered drivers are on
 * another.  A driver and a device match when driver.name equals the
 * model's name.  Binding (probe) and unbinding (remove, then the device's
 * managed resources, then the check for handlers left requested) happen
 * under one process-wide bind lock, outermost of the lock order: driver
 * code runs under it, and may take any other lock.
 *
 * Physical addresses of registers.  Each machine's MMIO window (cpu.c)
 * gets a physical base that no DRAM bank uses (mmio_phys()): 0x1c000000
 * as on Arm's Versatile Express, else the first 16 MiB-aligned place after
 * the low bank, else after the high bank.  A device's IORESOURCE_MEM is
 * that base plus its window's offset, and ioremap() of an address inside
 * a device's window returns the window's cookie.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include <linux/device.h>
#include <linux/err.h>
#include <linux/gfp.h>
#include <linux/io.h>
#include <linux/platform_device.h>

#include "bus/bus.h"

/* A registered driver. */
struct drv_node {
	struct platform_driver *drv;
	struct drv_node *next;
	bool probed_once; /* platform_driver_probe(): no later device */
};

static pthread_mutex_t bind_lock = PTHREAD_MUTEX_INITIALIZER;
static struct drv_node *drivers;      /* bind_lock */
static struct dmaemu_device *devices; /* bind_lock, by d->plat_next */
/* The calling thread holds bind_lock (driver code in probe()/remove()
 * may bind or put a struct device of its own: dmaemu__platform_lock()
 * must not take it again). */
static __thread bool bind_held;

static void bind_take(void)
{
	dmaemu__lock(&bind_lock);
	bind_held = true;
}

static void bind_drop(void)
{
	bind_held = false;
	dmaemu__unlock(&bind_lock);
}

#define MMIO_ALIGN (16ULL << 20)

static bool overlaps(uint64_t a, uint64_t alen, uint64_t b, uint64_t blen)
{
	return a < b + blen && b < a + alen;
}

/* The physical base of @m's MMIO window (see the comment on top). */
static uint64_t mmio_phys(const struct dmaemu_machine *m)
{
	uint64_t cand[3], len = m->mmio_size;
	unsigned int i, b, c = 0;

	cand[c++] = 0x1c000000ULL;
	for (b = 0; b < m->nbanks; b++)
		cand[c++] =
			(m->bank[b].phys + m->bank[b].size + MMIO_ALIGN - 1) &
			~(MMIO_ALIGN - 1);
	for (i = 0; i < c; i++) {
		for (b = 0; b < m->nbanks; b++)
			if (overlaps(cand[i], len, m->bank[b].phys,
				     m->bank[b].size))
				break;
		if (b == m->nbanks)
			return cand[i];
	}
	return cand[c - 1];
}

/* ---------------------------------------------------------------------- */
/* ioremap                                                                */
/* ---------------------------------------------------------------------- */

/* The cookie of [@phys, +@size) on @m, or NULL after a report (@fn). */
static void *remap(struct dmaemu_machine *m, phys_addr_t phys, size_t size,
		   const char *fn)
{
	uint64_t base = mmio_phys(m), off;
	struct dmaemu_device *d;
	void *cookie = NULL;

	if (size && phys >= base && phys - base < m->mmio_size) {
		off = phys - base;
		dmaemu__lock(&m->lock);
		for (d = m->devices; d; d = d->next) {
			uint64_t start;

			if (!d->regs)
				continue;
			start = (uint64_t)((uint8_t *)d->regs - m->mmio);
			if (off >= start && off - start < d->ops->mmio_size &&
			    size <= d->ops->mmio_size - (off - start)) {
				cookie = m->mmio + off;
				break;
			}
		}
		dmaemu__unlock(&m->lock);
	}
	if (!cookie)
		dmaemu__reportf(m, DMAEMU_REPORT_MMIO_ACCESS, phys, size,
				"%s(0x%" PRIx64 ", %zu): no device claims "
				"that range (register windows start at "
				"0x%" PRIx64 ")",
				fn, (uint64_t)phys, size, base);
	return cookie;
}

void __iomem *ioremap(phys_addr_t offset, size_t size)
{
	struct dmaemu_machine *m = dmaemu_machine_current();

	return m ? remap(m, offset, size, "ioremap") : NULL;
}

void __iomem *ioremap_nocache(phys_addr_t offset, size_t size)
{
	struct dmaemu_machine *m = dmaemu_machine_current();

	return m ? remap(m, offset, size, "ioremap_nocache") : NULL;
}

void __iomem *ioremap_wc(phys_addr_t offset, size_t size)
{
	struct dmaemu_machine *m = dmaemu_machine_current();

	return m ? remap(m, offset, size, "ioremap_wc") : NULL;
}

void iounmap(volatile void __iomem *addr)
{
	struct dmaemu__where w;

	if (!addr)
		return;
	if (!dmaemu__classify((const void *)addr, &w) ||
	    w.region != DMAEMU__REGION_MMIO)
		dmaemu__reportf(w.m, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"iounmap(%p): not an ioremap() cookie",
				(const void *)addr);
}

/* ---------------------------------------------------------------------- */
/* devm_*                                                                 */
/* ---------------------------------------------------------------------- */

static void devm_kfree_release(struct device *dev, void *data)
{
	(void)dev;
	dmaemu__kfree(data, "devm_kfree");
}

void *devm_kmalloc(struct device *dev, size_t size, unsigned int gfp)
{
	DMAEMU__API_CALL(call, "devm_kmalloc");
	struct dmaemu_machine *m =
		dmaemu__dev_machine_or_report(dev, "devm_kmalloc");
	void *p;

	if (!m)
		return NULL;
	dmaemu__check_sleep(m, gfp, "devm_kmalloc");
	p = dmaemu__kmalloc(m, size, gfp, "devm_kmalloc");
	if (p && dmaemu__devres_add(dev, devm_kfree_release, p)) {
		dmaemu__kfree(p, "devm_kmalloc");
		p = NULL;
	}
	return p;
}

void *devm_kzalloc(struct device *dev, size_t size, unsigned int gfp)
{
	return devm_kmalloc(dev, size, gfp | __GFP_ZERO);
}

void devm_kfree(struct device *dev, const void *p)
{
	if (dmaemu__devres_release(dev, devm_kfree_release, (void *)p))
		dmaemu__reportf(dmaemu__dev_machine(dev),
				DMAEMU_REPORT_BAD_FREE, 0, 0,
				"devm_kfree(%s, %p): not a devm_kmalloc() "
				"allocation of this device",
				dev ? dev_name(dev) : "NULL", p);
}

void __iomem *devm_ioremap_resource(struct device *dev, struct resource *res)
{
	struct dmaemu_device *d = dmaemu__device_of(dev);
	void *p;

	if (!d) {
		dmaemu__reportf(NULL, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"devm_ioremap_resource(): %s",
				dev ? "not a live device" : "NULL device");
		return ERR_PTR(-EINVAL);
	}
	if (!res || resource_type(res) != IORESOURCE_MEM) {
		dev_err(dev, "invalid resource\n");
		return ERR_PTR(-EINVAL);
	}
	p = remap(d->m, res->start, resource_size(res),
		  "devm_ioremap_resource");
	if (!p) {
		dev_err(dev, "ioremap failed for resource %#" PRIx64 "\n",
			(uint64_t)res->start);
		return ERR_PTR(-ENOMEM);
	}
	return p;
}

/*
 * 4.14's lib/devres.c devm_ioremap() and its forms: ioremap() on @dev's
 * machine; the cookie lives as long as the device's register window, so
 * nothing is left to unmap at unbind, and devm_iounmap() is iounmap().
 */
static void __iomem *devm_remap(struct device *dev, resource_size_t offset,
				resource_size_t size, const char *fn)
{
	struct dmaemu_device *d = dmaemu__device_of(dev);

	if (!d) {
		dmaemu__reportf(NULL, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"%s(): %s", fn,
				dev ? "not a live device" : "NULL device");
		return NULL;
	}
	return remap(d->m, offset, size, fn);
}

void __iomem *devm_ioremap(struct device *dev, resource_size_t offset,
			   resource_size_t size)
{
	return devm_remap(dev, offset, size, "devm_ioremap");
}

void __iomem *devm_ioremap_nocache(struct device *dev, resource_size_t offset,
				   resource_size_t size)
{
	return devm_remap(dev, offset, size, "devm_ioremap_nocache");
}

void __iomem *devm_ioremap_wc(struct device *dev, resource_size_t offset,
			      resource_size_t size)
{
	return devm_remap(dev, offset, size, "devm_ioremap_wc");
}

void devm_iounmap(struct device *dev, void __iomem *addr)
{
	(void)dev;
	iounmap(addr);
}

/* ---------------------------------------------------------------------- */
/* Resources                                                              */
/* ---------------------------------------------------------------------- */

struct resource *platform_get_resource(struct platform_device *pdev,
				       unsigned int type, unsigned int num)
{
	u32 i;

	if (!pdev)
		return NULL;
	for (i = 0; i < pdev->num_resources; i++) {
		struct resource *r = &pdev->resource[i];

		if (resource_type(r) == type && num-- == 0)
			return r;
	}
	return NULL;
}

int platform_get_irq(struct platform_device *pdev, unsigned int num)
{
	struct resource *r = platform_get_resource(pdev, IORESOURCE_IRQ, num);

	if (!r) {
		if (pdev)
			dev_err(&pdev->dev, "IRQ index %u not found\n", num);
		return -ENXIO;
	}
	return (int)r->start;
}

/**
 * dmaemu__regs_phys() - the physical address of @d's register window (its
 * IORESOURCE_MEM), or 0 when it has none.
 */
uint64_t dmaemu__regs_phys(const struct dmaemu_device *d)
{
	if (!d->regs)
		return 0;
	return mmio_phys(d->m) + (uint64_t)((uint8_t *)d->regs - d->m->mmio);
}

/* Fill @d's platform device: name, resources.  0 or -ENOMEM. */
static int make_resources(struct dmaemu_device *d)
{
	struct platform_device *pdev = &d->pdev;
	unsigned int n = 0, i;
	struct resource *r;

	r = dmaemu__calloc(1 + d->nr_irqs, sizeof(*r));
	if (!r)
		return -ENOMEM;
	if (d->regs) {
		r[n].start = dmaemu__regs_phys(d);
		r[n].end = r[n].start + d->ops->mmio_size - 1;
		r[n].name = d->name;
		r[n].flags = IORESOURCE_MEM;
		n++;
	}
	for (i = 0; i < d->nr_irqs; i++, n++) {
		r[n].start = r[n].end =
			(resource_size_t)dmaemu_device_irq(d, i);
		r[n].name = d->name;
		r[n].flags = IORESOURCE_IRQ;
	}
	pdev->name = d->ops->name;
	pdev->id = PLATFORM_DEVID_NONE;
	pdev->num_resources = n;
	pdev->resource = r;
	return 0;
}

/* ---------------------------------------------------------------------- */
/* Binding                                                                */
/* ---------------------------------------------------------------------- */

/* Undo what a bound driver left: devres, then handlers.  bind_lock held. */
static void cleanup(struct dmaemu_device *d, const char *when)
{
	dmaemu__devres_release_all(d);
	dmaemu__irq_device_release(d, when);
	dev_set_drvdata(&d->dev, NULL);
}

/* Probe @d with @drv.  bind_lock held. */
static void probe(struct dmaemu_device *d, struct platform_driver *drv)
{
	int ret;

	d->drv = drv;
	ret = drv->probe(&d->pdev);
	if (ret) {
		d->drv = NULL;
		cleanup(d, "a failed probe()");
	}
}

/* Unbind @d from its driver.  bind_lock held. */
static void unbind(struct dmaemu_device *d)
{
	struct platform_driver *drv = d->drv;

	if (drv->remove)
		drv->remove(&d->pdev);
	d->drv = NULL;
	cleanup(d, "remove()");
}

/* A device whose struct device is the caller's (dmaemu_device_bind())
 * is on another bus: no platform driver probes it. */
static bool matches(const struct dmaemu_device *d,
		    const struct platform_driver *drv)
{
	return dmaemu__devp(d) == &d->dev &&
	       !strcmp(d->ops->name, drv->driver.name);
}

bool dmaemu__platform_lock(void)
{
	if (bind_held)
		return false;
	bind_take();
	return true;
}

void dmaemu__platform_unlock(bool taken)
{
	if (taken)
		bind_drop();
}

int dmaemu__platform_add(struct dmaemu_device *d)
{
	struct drv_node *n;
	int ret;

	if (!d->ops || !d->ops->name)
		return 0;
	ret = make_resources(d);
	if (ret)
		return ret;
	bind_take();
	d->plat_next = devices;
	devices = d;
	for (n = drivers; n; n = n->next) {
		if (!n->probed_once && matches(d, n->drv)) {
			probe(d, n->drv);
			break;
		}
	}
	bind_drop();
	return 0;
}

void dmaemu__platform_del(struct dmaemu_device *d)
{
	struct dmaemu_device **pp;

	if (!d->pdev.resource)
		return;
	bind_take();
	if (d->drv)
		unbind(d);
	for (pp = &devices; *pp; pp = &(*pp)->plat_next) {
		if (*pp == d) {
			*pp = d->plat_next;
			break;
		}
	}
	bind_drop();
	dmaemu__free(d->pdev.resource);
	d->pdev.resource = NULL;
	d->pdev.num_resources = 0;
}

int platform_driver_register(struct platform_driver *drv)
{
	struct dmaemu_device *d;
	struct drv_node *n;

	if (!drv || !drv->probe || !drv->driver.name) {
		dmaemu__reportf(NULL, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"platform_driver_register(): %s",
				!drv ? "NULL driver"
				: !drv->probe
					? "the driver has no probe()"
					: "the driver has no driver.name");
		return -EINVAL;
	}
	n = dmaemu__malloc(sizeof(*n));
	if (!n)
		return -ENOMEM;
	bind_take();
	for (struct drv_node *o = drivers; o; o = o->next) {
		if (o->drv == drv) {
			bind_drop();
			dmaemu__free(n);
			dmaemu__reportf(NULL, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
					"platform_driver_register(%s): "
					"registered already",
					drv->driver.name);
			return -EBUSY;
		}
	}
	n->drv = drv;
	n->next = drivers;
	n->probed_once = false;
	drivers = n;
	for (d = devices; d; d = d->plat_next)
		if (!d->drv && matches(d, drv))
			probe(d, drv);
	bind_drop();
	return 0;
}

/*
 * 4.14's __platform_driver_probe(): register @drv with @probe, bind the
 * devices there now, and none created later (4.14 makes later probes
 * fail); with no device bound, unregister and return -ENODEV.
 */
int platform_driver_probe(struct platform_driver *drv,
			  int (*probe_fn)(struct platform_device *))
{
	struct dmaemu_device *d;
	struct drv_node *n;
	bool bound = false;
	int ret;

	if (!drv || !probe_fn) {
		dmaemu__reportf(NULL, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"platform_driver_probe(): %s",
				!drv ? "NULL driver" : "NULL probe");
		return -EINVAL;
	}
	drv->probe = probe_fn;
	ret = platform_driver_register(drv);
	if (ret)
		return ret;
	bind_take();
	for (n = drivers; n; n = n->next)
		if (n->drv == drv)
			n->probed_once = true;
	for (d = devices; d; d = d->plat_next)
		if (d->drv == drv)
			bound = true;
	bind_drop();
	if (bound)
		return 0;
	platform_driver_unregister(drv);
	return -ENODEV;
}

void platform_driver_unregister(struct platform_driver *drv)
{
	struct drv_node **pp, *n = NULL;
	struct dmaemu_device *d;

	bind_take();
	for (pp = &drivers; *pp; pp = &(*pp)->next) {
		if ((*pp)->drv == drv) {
			n = *pp;
			*pp = n->next;
			break;
		}
	}
	if (n)
		for (d = devices; d; d = d->plat_next)
			if (d->drv == drv)
				unbind(d);
	bind_drop();
	if (!n)
		dmaemu__reportf(NULL, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"platform_driver_unregister(%s): not "
				"registered",
				drv && drv->driver.name ? drv->driver.name
							: "");
	dmaemu__free(n);
}
