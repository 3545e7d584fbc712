// SPDX-License-Identifier: MIT
/*
 * device.c - emulated devices: their struct device, managed resources,
 * dev_printk(), and device-side DMA (dmaemu_dma_read/write).
 *
 * How it works.  A device is a struct dmaemu_device whose first member is
 * the struct device drivers pass to the DMA API.  Every API call starts
 * from that pointer, which may be NULL, foreign, or left over from a
 * destroyed device, so it is checked against the set of live devices
 * before anything reads through it:
 *
 *   live set    an open-addressing hash of struct device pointers, under a
 *               read-write lock (lookups share it)
 *   hint        per thread, the last device found live and the value of
 *               the global removal generation then; while neither changed
 *               the device is still live, and the lookup costs two loads
 *
 * Device DMA.  dmaemu_dma_read() and dmaemu_dma_write() see memory the way
 * a bus master does:
 *
 *   1. translate the whole bus range first (translate.c: the IOMMU's
 *      page-table walk when iommu=1, else dma_offset), into physically
 *      contiguous pieces; any fault (reported by the translation) fails
 *      the access with nothing transferred; then the bus clients admit
 *      it (the DMA layer refuses, the same way, an access that reaches
 *      bytes no live mapping or coherent allocation of the device
 *      covers: device-access-unmapped);
 *   2. move the data, a page at a time under that page's stripe lock:
 *        arm, arm64  the device reads and writes MEM only: its writes
 *                    become device-changed bytes (MEM != TWIN) for the
 *                    CPU's cached copy, its reads miss CPU-dirty bytes;
 *        x86         devices snoop: before a read the touched lines are
 *                    cleaned (the device gets CPU-dirty bytes); before a
 *                    write they are cleaned and invalidated, and the
 *                    write then lands in MEM and the CPU's copy alike
 *                    (write-invalidate, so the CPU's next access misses
 *                    and sees the new data; code that is not instrumented
 *                    sees it too);
 *      bytes pending in write-combining buffers are invisible to device
 *      reads, and a device write over them is ordered before their drain
 *      (wc.c);
 *   3. tell the bus clients (the DMA layer's registry) which range was
 *      touched.
 *
 * Device create numbers the interrupt lines (irq.c) before the device is
 * live, then starts the model's thread (thread.c) and puts the device on
 * the platform bus (platform.c), which may probe a driver at once.
 *
 * Device destroy releases, in order: the platform driver (remove()), the
 * model's thread (stopped and joined), the interrupt lines (pending ones
 * dropped, handlers in progress waited for, handlers still requested
 * reported), managed resources (devres, newest first: dmam_* buffers and
 * pools, silently), what the bus clients hold (the DMA layer reports and
 * releases streaming mappings and allocations still live, then its IOVA
 * space), the IOMMU domain (iommu.c: the page table), then the model
 * (ops->release).  Only then does the device leave the live set.
 *
 * Posted writes and timing: see "The posted-write queue" below.
 *
 * Locks: each device's pw_lock is held while its posted writes land, so
 * the device access's own locks (stripes, the clients', the report lock)
 * nest inside it; a model's lock may be held when it is taken.  The live
 * set's lock and each device's devres lock are leaves;
 * m->lock (order 1) protects the machine's list of devices and is taken
 * before the live set's lock when a device is added.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <linux/device.h>
#include <linux/dma-mapping.h>

#include "bus/bus.h"

/* ---------------------------------------------------------------------- */
/* The set of live devices                                                */
/* ---------------------------------------------------------------------- */

#define TOMBSTONE ((const struct device *)1)

/*
 * One entry of the live set: a struct device pointer and its emulated
 * device.  @retired: @dev is the device's own struct device while another
 * one is bound (dmaemu_device_bind()): the device is live, but that
 * pointer is no longer one of a device.
 */
struct live_ent {
	const struct device *dev;
	struct dmaemu_device *d;
	bool retired;
};

static pthread_rwlock_t live_lock = PTHREAD_RWLOCK_INITIALIZER;
static struct live_ent *live;		   /* live_cap slots; live_lock */
static size_t live_cap, live_n, live_used; /* used: live + tombstones */
/* Bumped when an entry leaves or changes (bus.h reads it too). */
uint64_t dmaemu__live_gen;

/* This thread's last look-up (bus.h's inline check reads it first). */
__thread struct dmaemu__live_hint dmaemu__live_hint;

static pthread_once_t live_once = PTHREAD_ONCE_INIT;

static void live_init(void)
{
	dmaemu__vg_atomic(&dmaemu__live_gen, sizeof(dmaemu__live_gen));
}

static size_t live_slot(const struct device *dev, size_t cap)
{
	uint64_t h = (uint64_t)(uintptr_t)dev * 0x9e3779b97f4a7c15ULL;

	return (size_t)(h >> 32) & (cap - 1);
}

/* The entry of @dev, or NULL.  live_lock held (either way). */
static struct live_ent *live_find(const struct device *dev)
{
	size_t i, n;

	if (!live_cap)
		return NULL;
	for (i = live_slot(dev, live_cap), n = 0; n < live_cap;
	     i = (i + 1) & (live_cap - 1), n++) {
		if (live[i].dev == dev)
			return &live[i];
		if (!live[i].dev)
			return NULL;
	}
	return NULL;
}

/* Rebuild at @cap slots without tombstones.  Write lock held. */
static int live_rehash(size_t cap)
{
	struct live_ent *t = dmaemu__calloc(cap, sizeof(*t));
	size_t i, j;

	if (!t)
		return -ENOMEM;
	for (i = 0; i < live_cap; i++) {
		if (!live[i].dev || live[i].dev == TOMBSTONE)
			continue;
		for (j = live_slot(live[i].dev, cap); t[j].dev;
		     j = (j + 1) & (cap - 1))
			;
		t[j] = live[i];
	}
	dmaemu__free(live);
	live = t;
	live_cap = cap;
	live_used = live_n;
	return 0;
}

/* Add (@dev, @d).  Write lock held.  Return: 0 or -ENOMEM. */
static int live_add_locked(const struct device *dev, struct dmaemu_device *d)
{
	size_t i;
	int ret;

	/* Keep at least half the slots empty so probes stay short. */
	if (2 * (live_used + 1) > live_cap) {
		size_t cap = live_cap ? live_cap : 16;

		while (4 * (live_n + 1) > cap)
			cap *= 2;
		ret = live_rehash(cap);
		if (ret)
			return ret;
	}
	for (i = live_slot(dev, live_cap);
	     live[i].dev && live[i].dev != TOMBSTONE;
	     i = (i + 1) & (live_cap - 1))
		;
	if (!live[i].dev)
		live_used++;
	live[i].dev = dev;
	live[i].d = d;
	live[i].retired = false;
	live_n++;
	return 0;
}

static int live_add(const struct device *dev, struct dmaemu_device *d)
{
	int ret;

	pthread_once(&live_once, live_init);
	pthread_rwlock_wrlock(&live_lock);
	ret = live_add_locked(dev, d);
	pthread_rwlock_unlock(&live_lock);
	return ret;
}

/* Remove @dev's entry.  Write lock held. */
static void live_del_locked(const struct device *dev)
{
	struct live_ent *e = live_find(dev);

	if (e) {
		e->dev = TOMBSTONE;
		e->d = NULL;
		live_n--;
	}
	if (!live_n) {
		dmaemu__free(live);
		live = NULL;
		live_cap = live_used = 0;
	}
	/* Every thread's hint is now stale. */
	__atomic_add_fetch(&dmaemu__live_gen, 1, __ATOMIC_RELEASE);
}

/*
 * Look @dev up; never reads *@dev.  Return: its entry's device (with
 * *@retired), or NULL when @dev is in no entry.
 */
static struct dmaemu_device *live_lookup(const struct device *dev,
					 bool *retired)
{
	struct live_ent *e;
	struct dmaemu_device *d = NULL;
	uint64_t gen;

	if (!dev)
		return NULL;
	gen = __atomic_load_n(&dmaemu__live_gen, __ATOMIC_ACQUIRE);
	if (dmaemu__live_hint.dev == dev && dmaemu__live_hint.gen == gen) {
		*retired = dmaemu__live_hint.retired;
		return dmaemu__live_hint.d;
	}
	pthread_rwlock_rdlock(&live_lock);
	e = live_find(dev);
	if (e) {
		d = e->d;
		*retired = e->retired;
	}
	pthread_rwlock_unlock(&live_lock);
	if (d) {
		dmaemu__live_hint.dev = dev;
		dmaemu__live_hint.d = d;
		dmaemu__live_hint.retired = *retired;
		dmaemu__live_hint.gen = gen;
	}
	return d;
}

/**
 * dmaemu__device_alive() - is @d a live device?  Never reads *@d (a
 * device's own struct device stays in the live set while it lives, bound
 * or not).
 */
bool dmaemu__device_alive(const struct dmaemu_device *d)
{
	bool retired = false;

	return d && live_lookup(&d->dev, &retired) == d;
}

/**
 * dmaemu__device_of() - the emulated device of @dev, checked.
 * Return: the device, or NULL when @dev is NULL or not the struct device
 * of a live device.
 */
struct dmaemu_device *dmaemu__device_of(const struct device *dev)
{
	bool retired = false;
	struct dmaemu_device *d = live_lookup(dev, &retired);

	return retired ? NULL : d;
}

void *dmaemu__device_data(const struct device *dev, enum dmaemu__bus_slot slot)
{
	struct dmaemu_device *d = dmaemu__device_of(dev);

	return d ? d->data[slot] : NULL;
}

void dmaemu__bus_attach(struct dmaemu_machine *m, enum dmaemu__bus_slot slot,
			const struct dmaemu__bus_client *c)
{
	m->bus_client[slot] = c;
}

/* Free the clients' state of @d from slot @n - 1 down. */
static void clients_free(struct dmaemu_device *d, unsigned int n)
{
	while (n-- > 0) {
		const struct dmaemu__bus_client *c = d->m->bus_client[n];

		if (c && c->free)
			c->free(d->data[n]);
		d->data[n] = NULL;
	}
}

/* Make every client's state of @d.  Return: 0 or a negative errno. */
static int clients_add(struct dmaemu_device *d)
{
	unsigned int i;
	int ret;

	for (i = 0; i < DMAEMU__BUS_NSLOTS; i++) {
		const struct dmaemu__bus_client *c = d->m->bus_client[i];

		if (!c || !c->add)
			continue;
		ret = c->add(dmaemu__devp(d), &d->data[i]);
		if (ret) {
			clients_free(d, i);
			return ret;
		}
	}
	return 0;
}

static void clients_release(struct dmaemu_device *d)
{
	unsigned int i = DMAEMU__BUS_NSLOTS;

	while (i-- > 0) {
		const struct dmaemu__bus_client *c = d->m->bus_client[i];

		if (c && c->release)
			c->release(dmaemu__devp(d), d->data[i]);
	}
}

static void clients_access(struct dmaemu_device *d, dma_addr_t dma,
			   uint64_t phys, size_t len, bool write, bool stale)
{
	unsigned int i;

	for (i = 0; i < DMAEMU__BUS_NSLOTS; i++) {
		const struct dmaemu__bus_client *c = d->m->bus_client[i];

		if (c && c->access)
			c->access(dmaemu__devp(d), d->data[i], dma, phys, len,
				  write, stale);
	}
}

/* May @d's access go on?  0, or the first client's refusal. */
static int clients_admit(struct dmaemu_device *d, dma_addr_t dma, size_t len,
			 bool write)
{
	unsigned int i;
	int ret;

	for (i = 0; i < DMAEMU__BUS_NSLOTS; i++) {
		const struct dmaemu__bus_client *c = d->m->bus_client[i];

		if (c && c->admit) {
			ret = c->admit(&d->dev, d->data[i], dma, len, write);
			if (ret)
				return ret;
		}
	}
	return 0;
}

struct dmaemu_machine *dmaemu__dev_machine(const struct device *dev)
{
	struct dmaemu_device *d = dmaemu__device_of(dev);

	return d ? d->m : NULL;
}

/**
 * dmaemu__dev_machine_or_report() - the machine of @dev, for the entry
 * points of the DMA API.
 * @dev: the device the caller passed.
 * @fn:  the entry point, for the report ("dma_set_mask").
 *
 * Return: the machine, or NULL after a bad-argument report on the current
 * machine (a NULL device, or a struct device that no live
 * dmaemu_device_create() made).
 */
struct dmaemu_machine *dmaemu__dev_machine_or_report_slow(struct device *dev,
							  const char *fn)
{
	struct dmaemu_machine *m = dmaemu__dev_machine(dev);
	bool retired = false;
	struct dmaemu_device *d;

	if (m)
		return m;
	d = live_lookup(dev, &retired);
	if (!dev)
		dmaemu__reportf(NULL, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"%s: NULL device", fn);
	else if (d)
		dmaemu__reportf(d->m, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"%s: the own struct device of %s, which "
				"dmaemu_device_bind() replaced: pass the "
				"bound one",
				fn, d->name);
	else
		dmaemu__reportf(NULL, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"%s: %p is not the struct device of a live "
				"emulated device (never tied to one with "
				"dmaemu_device_bind(), untied, or destroyed)",
				fn, (const void *)dev);
	return NULL;
}

/* ---------------------------------------------------------------------- */
/* Create, destroy, accessors                                             */
/* ---------------------------------------------------------------------- */

/* The register window calls the model's handlers (cpu.h's MMIO ops). */
static uint64_t regs_read(void *priv, uint64_t off, unsigned int size)
{
	struct dmaemu_device *d = priv;
	uint64_t v;

	/* A read completion pushes the device's posted writes ahead of it
	 * (PCI ordering): what the register says has landed, has. */
	dmaemu__pw_drain(d);
	v = d->ops->mmio_read(d, off, size);

	dmaemu__trace(d->m, DMAEMU__TRACE_MMIO, "mmio_read",
		      "dev=%s off=0x%" PRIx64 " size=%u val=0x%" PRIx64,
		      d->dev.init_name, off, size, v);
	dmaemu__sched_point(d->m, "mmio read");
	return v;
}

/* The register write this thread is in (regs_write()), if any. */
static _Thread_local struct {
	const struct dmaemu_device *d;
	uint64_t off;
	const void *site;
} writing;

bool dmaemu__device_writing(const struct dmaemu_device *d, uint64_t *off,
			    const void **site)
{
	if (!d || writing.d != d)
		return false;
	*off = writing.off;
	*site = writing.site;
	return true;
}

static void regs_write(void *priv, uint64_t off, uint64_t val,
		       unsigned int size)
{
	struct dmaemu_device *d = priv;
	const void *site = dmaemu__mmio_write_site();
	__typeof__(writing) outer = writing;

	if (site) {
		__atomic_store_n(&d->reg_off, off, __ATOMIC_RELAXED);
		__atomic_store_n(&d->reg_val, val, __ATOMIC_RELAXED);
		__atomic_store_n(&d->reg_site, site, __ATOMIC_RELEASE);
	}

	dmaemu__trace(d->m, DMAEMU__TRACE_MMIO, "mmio_write",
		      "dev=%s off=0x%" PRIx64 " size=%u val=0x%" PRIx64,
		      d->dev.init_name, off, size, val);
	__atomic_add_fetch(&d->reg_writes, 1, __ATOMIC_RELAXED);
	writing.d = d;
	writing.off = off;
	writing.site = site;
	d->ops->mmio_write(d, off, val, size);
	writing = outer;
	dmaemu__sched_point(d->m, "mmio write");
}

bool dmaemu__device_last_write(struct dmaemu_device *d, char *buf, size_t len,
			       char *where, size_t wlen)
{
	const void *site = __atomic_load_n(&d->reg_site, __ATOMIC_ACQUIRE);

	buf[0] = '\0';
	where[0] = '\0';
	if (!site)
		return false;
	dmaemu__code_where(site, where, wlen);
	snprintf(buf, len,
		 "\n    the driver's last register write to %s: 0x%llx at "
		 "offset 0x%llx, at %s",
		 d->name,
		 (unsigned long long)__atomic_load_n(&d->reg_val,
						     __ATOMIC_RELAXED),
		 (unsigned long long)__atomic_load_n(&d->reg_off,
						     __ATOMIC_RELAXED),
		 where);
	return true;
}

void dmaemu__bus_explain(struct device *dev, dma_addr_t dma, unsigned int what,
			 char *buf, size_t len, char *made_at, size_t mlen)
{
	struct dmaemu_device *d = dev ? dev->dmaemu : NULL;
	unsigned int i;
	size_t at;

	buf[0] = '\0';
	made_at[0] = '\0';
	if (!d)
		return;
	for (i = 0; i < DMAEMU__BUS_NSLOTS; i++) {
		const struct dmaemu__bus_client *c = d->m->bus_client[i];

		at = strlen(buf);
		if (c && c->explain && at + 1 < len)
			c->explain(dev, d->data[i], dma, what, buf + at,
				   len - at, made_at[0] ? NULL : made_at, mlen);
	}
}

void dmaemu__bus_fault_facts(struct device *dev, dma_addr_t addr, bool explain,
			     struct dmaemu__fault_facts *f)
{
	struct dmaemu_device *d = dev ? dev->dmaemu : NULL;
	const void *site;
	size_t at;

	f->text[0] = f->where[0] = f->made_at[0] = '\0';
	if (explain)
		dmaemu__bus_explain(dev, addr, DMAEMU__EXPLAIN_FAULT, f->text,
				    sizeof(f->text), f->made_at,
				    sizeof(f->made_at));
	at = strlen(f->text);
	if (d &&
	    dmaemu__device_last_write(d, f->text + at, sizeof(f->text) - at,
				      f->where, sizeof(f->where)))
		return;
	site = dmaemu__access_site();
	if (site)
		dmaemu__code_where(site, f->where, sizeof(f->where));
}

void dmaemu__bus_fault_fields(const struct dmaemu__fault_facts *f,
			      struct dmaemu__report_info *r)
{
	r->where = f->where[0] ? f->where : NULL;
	r->made_at = f->made_at[0] ? f->made_at : NULL;
}

/* A model's ops are usable: a window has a handler, handlers a window. */
static const char *bad_ops(const struct dmaemu_device_ops *ops)
{
	bool handlers = ops && (ops->mmio_read || ops->mmio_write);

	if (ops && ops->mmio_size && !handlers)
		return "ops->mmio_size without mmio_read or mmio_write";
	if (handlers && !ops->mmio_size)
		return "register handlers without ops->mmio_size";
	if (ops && ops->nr_irqs > DMAEMU_DEVICE_MAX_IRQS)
		return "ops->nr_irqs above DMAEMU_DEVICE_MAX_IRQS";
	if (ops && ops->nr_irqs < 32 && (ops->irq_edge >> ops->nr_irqs))
		return "ops->irq_edge names lines beyond ops->nr_irqs";
	if (ops && ops->reset && !ops->run && !handlers)
		return "ops->reset on a model with neither run nor registers";
	return NULL;
}

/* Place the register window of @d; 0 or -ENOMEM (MMIO space full). */
static int regs_map(struct dmaemu_device *d)
{
	static const struct dmaemu__mmio_ops rd = {.read = regs_read};
	static const struct dmaemu__mmio_ops wr = {.write = regs_write};
	static const struct dmaemu__mmio_ops rw = {.read = regs_read,
						   .write = regs_write};
	const struct dmaemu__mmio_ops *ops;

	if (!d->ops || !d->ops->mmio_size)
		return 0;
	ops = !d->ops->mmio_write ? &rd : !d->ops->mmio_read ? &wr : &rw;
	d->regs = dmaemu__mmio_map(d->m, d->ops->mmio_size, ops, d);
	return d->regs ? 0 : -ENOMEM;
}

void *dmaemu_device_regs(struct dmaemu_device *d)
{
	return dmaemu__device_alive(d) ? d->regs : NULL;
}

/* Whether @t makes device accesses take time. */
static int timing_any(const struct dmaemu_device_timing *t)
{
	return t->latency_ns || t->jitter_ns || t->bandwidth;
}

struct dmaemu_device *dmaemu_device_create(struct dmaemu_machine *m,
					   const char *name,
					   const struct dmaemu_device_ops *ops,
					   void *priv)
{
	struct dmaemu_device *d, *o;
	int err = ENOMEM;

	const char *why = !m		    ? "NULL machine"
			  : !name || !*name ? "no device name"
					    : bad_ops(ops);

	if (dmaemu__machine_bad(m, "dmaemu_device_create")) {
		errno = EINVAL;
		return NULL;
	}
	if (why) {
		dmaemu__reportf(m, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"dmaemu_device_create(%s): %s",
				name && *name ? name : "", why);
		errno = EINVAL;
		return NULL;
	}
	d = dmaemu__calloc(1, sizeof(*d));
	if (!d)
		goto out;
	d->name = dmaemu__strdup(name);
	if (!d->name)
		goto out_free;
	if (dmaemu__mutex_init(&d->devres_lock))
		goto out_name;
	if (dmaemu__mutex_init(&d->pw_lock))
		goto out_devres;
	d->m = m;
	d->ops = ops;
	d->priv = priv;
	d->timing = m->opt.device_timing; /* device_timing= */
	d->timed = timing_any(&d->timing);
	d->devp = &d->dev;
	dmaemu__vg_atomic(&d->timed, sizeof(d->timed));
	dmaemu__vg_atomic(&d->t_seq, sizeof(d->t_seq));
	dmaemu__vg_atomic(&d->devp, sizeof(d->devp));
	dmaemu__vg_atomic(&d->stats, sizeof(d->stats));
	dmaemu__vg_atomic(&d->reg_site, sizeof(d->reg_site));
	dmaemu__vg_atomic(&d->reg_off, sizeof(d->reg_off));
	dmaemu__vg_atomic(&d->reg_val, sizeof(d->reg_val));
	dmaemu__vg_atomic(&d->reg_writes, sizeof(d->reg_writes));
	d->dev.init_name = d->name;
	d->dev.dmaemu_refs = 1;
	d->dev.dmaemu = d;
	/* Linux's defaults: 32-bit masks, 64 KiB segments, 4 GiB boundary. */
	d->dev.dmaemu_dma_mask = DMA_BIT_MASK(32);
	d->dev.dma_mask = &d->dev.dmaemu_dma_mask;
	d->dev.coherent_dma_mask = DMA_BIT_MASK(32);
	d->dev.dmaemu_dma_parms.max_segment_size = 65536;
	d->dev.dmaemu_dma_parms.segment_boundary_mask = 0xffffffffUL;
	d->dev.dma_parms = &d->dev.dmaemu_dma_parms;
	if (regs_map(d))
		goto out_mutex;
	if (clients_add(d))
		goto out_regs;
	if (dmaemu__irq_device_add(d))
		goto out_clients;

	dmaemu__lock(&m->lock);
	for (o = m->devices; o; o = o->next)
		if (!strcmp(o->name, name))
			break;
	if (o || live_add(&d->dev, d)) {
		dmaemu__unlock(&m->lock);
		if (o) {
			dmaemu__reportf(
				m, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"dmaemu_device_create(): a device named "
				"'%s' exists on this machine",
				name);
			err = EEXIST;
		}
		goto out_irqs;
	}
	d->next = m->devices;
	m->devices = d;
	dmaemu__unlock(&m->lock);
	/* Live now: the model's thread may use it, and a driver probe it. */
	if (dmaemu__thread_start(d) || dmaemu__platform_add(d)) {
		/* As on every other failure, @priv stays the caller's. */
		d->keep_priv = true;
		dmaemu_device_destroy(d);
		errno = ENOMEM;
		return NULL;
	}
	return d;

out_irqs:
	dmaemu__irq_device_del(d);
out_clients:
	clients_free(d, DMAEMU__BUS_NSLOTS);
out_regs:
	if (d->regs)
		dmaemu__mmio_unmap(m, d->regs);
out_mutex:
	pthread_mutex_destroy(&d->pw_lock);
out_devres:
	pthread_mutex_destroy(&d->devres_lock);
out_name:
	dmaemu__free(d->name);
out_free:
	dmaemu__free(d);
out:
	errno = err;
	return NULL;
}

/* Run the managed releases, newest first.  Return: how many. */
int dmaemu__devres_release_all(struct dmaemu_device *d)
{
	struct dmaemu__devres *r;
	int n = 0;

	for (;;) {
		dmaemu__lock(&d->devres_lock);
		r = d->devres;
		if (r)
			d->devres = r->next;
		dmaemu__unlock(&d->devres_lock);
		if (!r)
			break;
		r->release(dmaemu__devp(d), r->data);
		dmaemu__devres_free_record(r);
		n++;
	}
	return n;
}

void dmaemu_device_destroy(struct dmaemu_device *d)
{
	struct dmaemu__stats_gone *gone;
	struct dmaemu_device **pp;
	struct dmaemu_machine *m;

	if (!d)
		return;
	if (!dmaemu__device_alive(d)) {
		dmaemu__reportf(NULL, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"dmaemu_device_destroy(%p): not a live "
				"device (destroyed already?)",
				(void *)d);
		return;
	}
	m = d->m;
	if (dmaemu__thread_is_self(d) || dmaemu__irq_is_handler_thread(m)) {
		dmaemu__reportf(m, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"dmaemu_device_destroy(%s): called from %s, "
				"which the destroy would wait for",
				d->name,
				dmaemu__thread_is_self(d)
					? "the device's own thread"
					: "an interrupt handler");
		return;
	}
	/* Writes still posted land while the driver's buffers live. */
	dmaemu__pw_drain(d);
	dmaemu__platform_del(d);
	dmaemu__thread_stop(d);
	dmaemu__pw_drain(d);
	/* Managed resources first, as unbind: a devm_request_irq()'s release
	 * frees its handler before the handlers left are leaked-irq. */
	dmaemu__devres_release_all(d);
	dmaemu__irq_device_del(d);
	clients_release(d);
	dmaemu__iommu_device_release(dmaemu__devp(d));
	if (d->regs)
		dmaemu__mmio_unmap(m, d->regs);
	if (d->ops && d->ops->release && !d->keep_priv)
		d->ops->release(d);

	gone = m->opt.stats ? dmaemu__calloc(1, sizeof(*gone)) : NULL;
	if (gone) {
		snprintf(gone->name, sizeof(gone->name), "%s",
			 d->name ? d->name : "?");
		dmaemu__dev_stats_read(&gone->st, &d->stats);
	}
	dmaemu__lock(&m->lock);
	for (pp = &m->devices; *pp; pp = &(*pp)->next) {
		if (*pp == d) {
			*pp = d->next;
			break;
		}
	}
	pthread_rwlock_wrlock(&live_lock);
	if (dmaemu__devp(d) != &d->dev) {
		live_del_locked(dmaemu__devp(d));
		dmaemu__devp(d)->dmaemu = NULL;
		if (dmaemu__devp(d)->init_name == d->name)
			dmaemu__devp(d)->init_name = NULL;
	}
	live_del_locked(&d->dev);
	pthread_rwlock_unlock(&live_lock);
	if (gone) {
		gone->next = m->stats_gone;
		m->stats_gone = gone;
	}
	dmaemu__unlock(&m->lock);

	clients_free(d, DMAEMU__BUS_NSLOTS);
	dmaemu__order_forget_device(m, d);
	dmaemu__free(d->pw);
	pthread_mutex_destroy(&d->pw_lock);
	pthread_mutex_destroy(&d->devres_lock);
	dmaemu__free(d->name);
	dmaemu__free(d);
}

/**
 * dmaemu__devices_fini() - machine destroy: destroy the devices left,
 * then free the line ownership maps.
 */
void dmaemu__devices_fini(struct dmaemu_machine *m)
{
	struct dmaemu_device *d;

	for (;;) {
		dmaemu__lock(&m->lock);
		d = m->devices;
		dmaemu__unlock(&m->lock);
		if (!d)
			break;
		dmaemu_device_destroy(d);
	}
	while (m->stats_gone) {
		struct dmaemu__stats_gone *g = m->stats_gone;

		m->stats_gone = g->next;
		dmaemu__free(g);
	}
}

struct device *dmaemu_device_to_dev(struct dmaemu_device *d)
{
	return dmaemu__device_alive(d) ? dmaemu__devp(d) : NULL;
}

struct dmaemu_device *dmaemu_dev_to_device(const struct device *dev)
{
	return dmaemu__device_of(dev);
}

void *dmaemu_device_priv(const struct dmaemu_device *d)
{
	return dmaemu__device_alive(d) ? d->priv : NULL;
}

struct dmaemu_machine *dmaemu_device_machine(const struct dmaemu_device *d)
{
	return dmaemu__device_alive(d) ? d->m : NULL;
}

const char *dmaemu_device_name(const struct dmaemu_device *d)
{
	return dmaemu__device_alive(d) ? d->name : NULL;
}

/* ---------------------------------------------------------------------- */
/* A struct device of the caller's: bind, unbind, references              */
/* ---------------------------------------------------------------------- */

/* Why @d cannot take another struct device now (NULL: it can).  Platform
 * bind lock held. */
static const char *bind_busy(struct dmaemu_device *d)
{
	unsigned int i;
	bool res;

	if (dmaemu__devp(d) != &d->dev)
		return "it is bound to another struct device already";
	if (d->drv)
		return "a platform driver is bound to it";
	dmaemu__lock(&d->devres_lock);
	res = d->devres != NULL;
	dmaemu__unlock(&d->devres_lock);
	if (res)
		return "it holds managed resources";
	for (i = 0; i < DMAEMU__BUS_NSLOTS; i++) {
		const struct dmaemu__bus_client *c = d->m->bus_client[i];

		if (c && c->busy && c->busy(&d->dev, d->data[i]))
			return "it holds DMA state (mappings or allocations)";
	}
	if (dmaemu__iommu_get_domain(d->m, &d->dev, false))
		return "it has an IOMMU domain already";
	return NULL;
}

int dmaemu_device_bind(struct dmaemu_device *d, struct device *dev)
{
	struct dmaemu_device *o;
	struct live_ent *e;
	const char *why = NULL;
	bool retired = false, locked;
	int err = -EBUSY;

	if (!dmaemu__device_alive(d) || !dev) {
		dmaemu__reportf(dmaemu__device_alive(d) ? d->m : NULL,
				DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"dmaemu_device_bind(%p, %p): %s", (void *)d,
				(void *)dev,
				!dev ? "NULL struct device"
				     : "not a live emulated device");
		return -EINVAL;
	}
	locked = dmaemu__platform_lock();
	o = live_lookup(dev, &retired);
	if (o) {
		why = "the struct device is a device's already";
		err = -EINVAL;
	} else {
		why = bind_busy(d);
	}
	if (why) {
		dmaemu__platform_unlock(locked);
		dmaemu__reportf(d->m, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"dmaemu_device_bind(%s): %s", d->name, why);
		return err;
	}
	/* The defaults dmaemu_device_create() gives, where the bus left 0. */
	if (!dev->dma_mask) {
		dev->dmaemu_dma_mask = DMA_BIT_MASK(32);
		dev->dma_mask = &dev->dmaemu_dma_mask;
	}
	if (!dev->coherent_dma_mask)
		dev->coherent_dma_mask = DMA_BIT_MASK(32);
	if (!dev->dma_parms) {
		dev->dmaemu_dma_parms.max_segment_size = 65536;
		dev->dmaemu_dma_parms.segment_boundary_mask = 0xffffffffUL;
		dev->dma_parms = &dev->dmaemu_dma_parms;
	}
	if (!dev->init_name)
		dev->init_name = d->name;
	if (!__atomic_load_n(&dev->dmaemu_refs, __ATOMIC_RELAXED))
		__atomic_store_n(&dev->dmaemu_refs, 1, __ATOMIC_RELAXED);
	dev->dmaemu = d;

	pthread_rwlock_wrlock(&live_lock);
	err = live_add_locked(dev, d);
	if (!err) {
		e = live_find(&d->dev);
		e->retired = true;
		__atomic_store_n(&d->devp, dev, __ATOMIC_RELEASE);
		__atomic_add_fetch(&dmaemu__live_gen, 1, __ATOMIC_RELEASE);
	}
	pthread_rwlock_unlock(&live_lock);
	dmaemu__platform_unlock(locked);
	if (err)
		dev->dmaemu = NULL;
	return err;
}

int dmaemu_device_unbind(struct device *dev)
{
	struct dmaemu_device *d = dmaemu__device_of(dev);
	struct live_ent *e;
	bool locked;

	if (!d || dev == &d->dev) {
		dmaemu__reportf(d ? d->m : NULL, DMAEMU_REPORT_BAD_ARGUMENT, 0,
				0,
				"dmaemu_device_unbind(%p): not a struct device "
				"that dmaemu_device_bind() tied",
				(void *)dev);
		return -EINVAL;
	}
	if (dmaemu__thread_is_self(d) || dmaemu__irq_is_handler_thread(d->m)) {
		dmaemu__reportf(d->m, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"dmaemu_device_unbind(%s): called from the "
				"device's thread or an interrupt handler",
				d->name);
		return -EINVAL;
	}
	locked = dmaemu__platform_lock();
	/* As the driver core unbinding a driver and the bus removing the
	 * device: devres, then what the driver left. */
	dmaemu__devres_release_all(d);
	dmaemu__irq_device_release(d, "dmaemu_device_unbind()");
	clients_release(d);
	dmaemu__iommu_device_release(dev);
	pthread_rwlock_wrlock(&live_lock);
	live_del_locked(dev);
	e = live_find(&d->dev);
	if (e)
		e->retired = false;
	__atomic_store_n(&d->devp, &d->dev, __ATOMIC_RELEASE);
	pthread_rwlock_unlock(&live_lock);
	dev->dmaemu = NULL;
	if (dev->init_name == d->name) /* the name goes with the device */
		dev->init_name = NULL;
	dmaemu__platform_unlock(locked);
	return 0;
}

void device_initialize(struct device *dev)
{
	if (!dev) {
		dmaemu__reportf(NULL, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"device_initialize(NULL)");
		return;
	}
	__atomic_store_n(&dev->dmaemu_refs, 1, __ATOMIC_RELAXED);
}

struct device *get_device(struct device *dev)
{
	if (!dev)
		return NULL;
	/* Linux's kobject_get() warns about a kobject never initialized. */
	if (!__atomic_fetch_add(&dev->dmaemu_refs, 1, __ATOMIC_RELAXED))
		dmaemu__reportf(NULL, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"get_device(%p): a struct device never "
				"initialized (device_initialize() or "
				"dmaemu_device_bind() first)",
				(void *)dev);
	return dev;
}

void put_device(struct device *dev)
{
	struct dmaemu_device *d;
	bool retired = false, own;
	int refs;

	if (!dev)
		return;
	d = live_lookup(dev, &retired);
	own = d && dev == &d->dev;
	refs = __atomic_load_n(&dev->dmaemu_refs, __ATOMIC_RELAXED);
	do {
		if (refs <= (own ? 1 : 0)) {
			dmaemu__reportf(
				d ? d->m : NULL, DMAEMU_REPORT_BAD_ARGUMENT, 0,
				0, "put_device(%s): %s",
				dev->init_name ? dev->init_name : "?",
				own ? "the last reference belongs to the "
				      "emulated device (a put without its "
				      "get_device())"
				    : "no reference left (a put without its "
				      "get_device(), or device_initialize() "
				      "never called)");
			return;
		}
	} while (!__atomic_compare_exchange_n(&dev->dmaemu_refs, &refs,
					      refs - 1, false, __ATOMIC_ACQ_REL,
					      __ATOMIC_RELAXED));
	if (refs > 1)
		return;
	/* Linux's device_release(): devres first, then the release. */
	if (d && !retired)
		dmaemu_device_unbind(dev);
	if (dev->release)
		dev->release(dev);
	else
		dmaemu__reportf(d ? d->m : NULL, DMAEMU_REPORT_BAD_ARGUMENT, 0,
				0,
				"put_device(%s): the last reference is gone "
				"and the device has no release() function "
				"(Linux warns: it is broken and must be fixed)",
				dev->init_name ? dev->init_name : "?");
}

/* ---------------------------------------------------------------------- */
/* Managed resources                                                      */
/* ---------------------------------------------------------------------- */

int dmaemu__devres_add(struct device *dev, dmaemu__devres_fn release,
		       void *data)
{
	struct dmaemu_device *d = dmaemu__device_of(dev);
	struct dmaemu__devres *r;

	if (!d || !release)
		return -EINVAL;
	r = dmaemu__malloc(sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->release = release;
	r->data = data;
	r->generic = false;
	dmaemu__lock(&d->devres_lock);
	r->next = d->devres;
	d->devres = r;
	dmaemu__unlock(&d->devres_lock);
	return 0;
}

int dmaemu__devres_link(struct device *dev, struct dmaemu__devres *r)
{
	struct dmaemu_device *d = dmaemu__device_of(dev);

	if (!d)
		return -EINVAL;
	dmaemu__lock(&d->devres_lock);
	r->next = d->devres;
	d->devres = r;
	dmaemu__unlock(&d->devres_lock);
	return 0;
}

/* Unlink (@release, @data) from @dev's list.  Return: it, or NULL. */
static struct dmaemu__devres *devres_unlink(struct device *dev,
					    dmaemu__devres_fn release,
					    void *data)
{
	struct dmaemu_device *d = dmaemu__device_of(dev);
	struct dmaemu__devres **pp, *r = NULL;

	if (!d)
		return NULL;
	dmaemu__lock(&d->devres_lock);
	for (pp = &d->devres; *pp; pp = &(*pp)->next) {
		if ((*pp)->release == release && (*pp)->data == data) {
			r = *pp;
			*pp = r->next;
			break;
		}
	}
	dmaemu__unlock(&d->devres_lock);
	return r;
}

int dmaemu__devres_remove(struct device *dev, dmaemu__devres_fn release,
			  void *data)
{
	struct dmaemu__devres *r = devres_unlink(dev, release, data);

	dmaemu__devres_free_record(r);
	return r ? 0 : -ENOENT;
}

int dmaemu__devres_release(struct device *dev, dmaemu__devres_fn release,
			   void *data)
{
	struct dmaemu__devres *r = devres_unlink(dev, release, data);

	if (!r)
		return -ENOENT;
	r->release(dev, r->data);
	dmaemu__devres_free_record(r);
	return 0;
}

/* ---------------------------------------------------------------------- */
/* dev_printk                                                             */
/* ---------------------------------------------------------------------- */

void dev_printk(const char *level, const struct device *dev, const char *fmt,
		...)
{
	struct dmaemu_machine *m = dmaemu__dev_machine(dev);
	char msg[1024];
	size_t n;
	va_list ap;
	FILE *out;

	if (!fmt) {
		/* Not passed on: a NULL format is undefined for vsnprintf(). */
		dmaemu__reportf(m, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"dev_printk(NULL format)");
		return;
	}
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	n = strlen(msg);
	if (!m) {
		fprintf(stderr, "%s(%s device *): %s%s", level ? level : "",
			dev ? "unknown" : "NULL", msg,
			n && msg[n - 1] == '\n' ? "" : "\n");
		return;
	}
	dmaemu__lock(&m->report_lock);
	out = m->log ? m->log : stderr;
	fprintf(out, "%s%s: %s%s", level ? level : "", dev->init_name, msg,
		n && msg[n - 1] == '\n' ? "" : "\n");
	fflush(out);
	dmaemu__unlock(&m->report_lock);
}

/* ---------------------------------------------------------------------- */
/* Device-side DMA                                                        */
/* ---------------------------------------------------------------------- */

/* A physically contiguous piece of a device access. */
struct piece {
	dma_addr_t dma;
	uint64_t phys;
	size_t len;
};

#define PIECES_ON_STACK 8

/*
 * Translate [@addr, @addr + @len) into pieces.  Return: the number of
 * pieces (in *@out, which is @stack or a malloc()ed array), or a negative
 * errno after the backend's report.
 */
static long translate(struct dmaemu_device *d, dma_addr_t addr, size_t len,
		      bool write, struct piece *stack, struct piece **out)
{
	struct piece *p = stack, *bigger;
	size_t cap = PIECES_ON_STACK, n = 0, done = 0;

	while (done < len) {
		uint64_t phys;
		size_t contig = 0;
		int ret;

		ret = dmaemu__bus_translate(dmaemu__devp(d), addr + done,
					    len - done, write, &phys, &contig);
		if (ret || !contig) {
			if (p != stack)
				dmaemu__free(p);
			return ret ? ret : -EFAULT;
		}
		if (n == cap) {
			bigger = dmaemu__malloc(2 * cap * sizeof(*p));
			if (!bigger) {
				if (p != stack)
					dmaemu__free(p);
				return -ENOMEM;
			}
			memcpy(bigger, p, n * sizeof(*p));
			if (p != stack)
				dmaemu__free(p);
			p = bigger;
			cap *= 2;
		}
		p[n].dma = addr + done;
		p[n].phys = phys;
		p[n].len = contig;
		n++;
		done += contig;
	}
	*out = p;
	return (long)n;
}

/*
 * The bytes of a device read that the CPU had dirty (CPU != TWIN: written
 * and never cleaned), on a profile whose devices do not snoop: the device
 * read what memory held before the CPU's write (stale-device-read).
 */
struct stale_read {
	uint64_t lo, hi; /* first and last + 1 dirty byte (physical) */
	size_t bytes;
	unsigned int lines;
	uint64_t last_line;
	/* The first dirty bytes from @lo on (to the end of its span): the
	 * CPU's copy and what the device read. */
	unsigned int nval;
	uint8_t val[2][DMAEMU__REPORT_VALS];
};

/* Note the CPU-dirty bytes of [@phys, +@len), one page at most, whose
 * stripe lock is held: called when dmaemu__mem_read_clean() could not say
 * the span is clean (always under Memcheck, whose span this opens). */
static void note_dirty_plain(struct dmaemu_machine *m, uint64_t phys,
			     size_t len, struct stale_read *st)
{
	const uint8_t *cpu = dmaemu__phys_dev_cpu(m, phys);
	const uint8_t *twin = dmaemu__phys_twin(m, phys);
	size_t i;

	dmaemu__racy_line_begin(cpu, len);
	if (memcmp(cpu, twin, len)) {
		for (i = 0; i < len; i++) {
			uint64_t p = phys + i, l = p >> m->line_shift;

			if (cpu[i] == twin[i])
				continue;
			if (!st->bytes) {
				const uint8_t *mem = dmaemu__phys_mem(m, p);

				st->lo = p;
				st->nval = len - i < DMAEMU__REPORT_VALS
						   ? (unsigned int)(len - i)
						   : DMAEMU__REPORT_VALS;
				memcpy(st->val[0], cpu + i, st->nval);
				memcpy(st->val[1], mem, st->nval);
			}
			st->hi = p + 1;
			st->bytes++;
			if (st->lines == 0 || l != st->last_line)
				st->lines++;
			st->last_line = l;
		}
	}
	dmaemu__racy_line_end(cpu, len);
}

/* Under Memcheck the CPU copy's stale bytes are undefined (base.h): the
 * compare runs with the span opened, as the line operations do. */
static __attribute__((noinline)) void note_dirty_memcheck(
	struct dmaemu_machine *m, uint64_t phys, size_t len,
	struct stale_read *st)
{
	struct dmaemu__vg_cpu vg;

	dmaemu__vg_cpu_open(&vg, dmaemu__phys_cpu(m, phys),
			    dmaemu__phys_mem(m, phys),
			    dmaemu__phys_twin(m, phys), len);
	note_dirty_plain(m, phys, len, st);
	dmaemu__vg_cpu_close(&vg, false);
}

static void note_dirty(struct dmaemu_machine *m, uint64_t phys, size_t len,
		       struct stale_read *st)
{
	if (__builtin_expect(dmaemu__on_memcheck, 0))
		note_dirty_memcheck(m, phys, len, st);
	else
		note_dirty_plain(m, phys, len, st);
}

/* The stale-device-read report of device @d's read at bus address @addr.
 */
static void report_stale_read(struct dmaemu_device *d, dma_addr_t addr,
			      size_t len, const struct stale_read *st)
{
	struct dmaemu_machine *m = d->m;
	struct dmaemu__owner_info o;
	struct dmaemu__own_last last;
	struct dmaemu__report_info r;
	char fix[400], call[160], where[256], owner[200], range[128];
	char alloc[700], alloc_made[320], stored[300], slot[400] = "";
	char slot_made[320] = "";
	const void *site, *store;
	bool mapped = dmaemu__owner_find(m, st->lo, st->hi, &o);

	memset(&last, 0, sizeof(last));
	last.kind = DMAEMU_REPORT_STALE_DEVICE_READ;
	last.lo = st->lo;
	last.hi = st->hi;
	last.bytes = st->bytes;
	last.lines = st->lines;
	last.dma = mapped ? o.dma : 0;
	site = dmaemu__access_site();
	last.repeat =
		!dmaemu__report_first(m, last.kind, site, d->name, last.dma);
	dmaemu__own_set_last(m, &last);
	if (last.repeat)
		return;
	if (!mapped)
		dmaemu__bus_explain(dmaemu__devp(d), addr, DMAEMU__EXPLAIN_SLOT,
				    slot, sizeof(slot), slot_made,
				    sizeof(slot_made));
	if (mapped) {
		dmaemu__own_sync_call(&o, false, call, sizeof(call));
		snprintf(owner, sizeof(owner),
			 "%s %s mapping of device %s: dma 0x%llx, %zu bytes",
			 o.dir_name, o.sg ? "scatterlist" : "streaming",
			 o.device, (unsigned long long)o.dma, o.size);
		snprintf(fix, sizeof(fix),
			 "write the buffer before it is mapped, or call %s "
			 "after the CPU's last write",
			 call);
	} else if (slot[0]) {
		/* A bounce slot of a DMA_ATTR_SKIP_CPU_SYNC map. */
		snprintf(owner, sizeof(owner),
			 "a swiotlb bounce slot of a streaming mapping made "
			 "with DMA_ATTR_SKIP_CPU_SYNC");
		snprintf(fix, sizeof(fix), "%s", slot);
	} else {
		snprintf(owner, sizeof(owner), "no live streaming mapping");
		snprintf(fix, sizeof(fix), "%s",
			 m->opt.k612
				 ? "clean after the CPU's last write: "
				   "dma_sync_single_for_device(dev, handle, "
				   "size, DMA_TO_DEVICE) for a "
				   "dma_alloc_noncoherent() buffer"
				 : "clean after the CPU's last write: "
				   "dma_cache_sync(dev, vaddr, size, "
				   "DMA_TO_DEVICE) for a "
				   "DMA_ATTR_NON_CONSISTENT buffer");
	}
	/* The store that was never cleaned (the first stale line's), and
	 * the coherent allocation (DMA_ATTR_NON_CONSISTENT) read when no
	 * streaming mapping holds the bytes. */
	stored[0] = alloc[0] = alloc_made[0] = '\0';
	store = dmaemu__store_site_of(m, st->lo & ~(uint64_t)(m->line - 1));
	if (store) {
		char w[256];

		dmaemu__code_where(store, w, sizeof(w));
		snprintf(
			stored, sizeof(stored),
			"\n    the CPU's last store to line 0x%llx: at %s",
			(unsigned long long)(st->lo & ~(uint64_t)(m->line - 1)),
			w);
	}
	if (!mapped && !slot[0])
		dmaemu__bus_explain(dmaemu__devp(d), addr,
				    DMAEMU__EXPLAIN_ALLOC, alloc, sizeof(alloc),
				    alloc_made, sizeof(alloc_made));
	memset(&r, 0, sizeof(r));
	r.kind = last.kind;
	r.phys = st->lo;
	r.size = st->bytes;
	if (site) {
		dmaemu__code_where(site, where, sizeof(where));
		r.where = where;
	}
	dmaemu__own_range_text(&last, range, sizeof(range));
	r.device = d->name;
	r.nval = st->nval;
	memcpy(r.val, st->val, sizeof(r.val));
	r.val_name[0] = "the CPU's copy";
	r.val_name[1] = "the device read";
	if (mapped)
		dmaemu__owner_report_fields(&o, &r);
	else if (slot_made[0])
		r.made_at = slot_made;
	else if (alloc_made[0])
		r.made_at = alloc_made;
	dmaemu__report(m, &r,
		       "device %s read of %zu byte%s at dma 0x%llx: %zu of "
		       "them the CPU wrote and never cleaned, so the device "
		       "read what memory held before (%s); fix: %s%s\n"
		       "    %s%s%s%s",
		       d->name, len, len == 1 ? "" : "s",
		       (unsigned long long)addr, st->bytes, owner, fix, stored,
		       range, mapped ? "; mapping made by " : "",
		       mapped ? dmaemu__owner_made_at(&o) : "", alloc);
}

/*
 * The wc-pending-read report of device @d's read at bus address @addr
 * (landing at @phys): it names the doorbell, the driver's last register
 * write, where the missing barrier goes (else the code that made the
 * access).
 */
static void report_wc_pending(struct dmaemu_device *d, dma_addr_t addr,
			      uint64_t phys, size_t len, size_t old)
{
	struct dmaemu__report_info r = {.kind = DMAEMU_REPORT_WC_PENDING_READ,
					.phys = phys,
					.size = len,
					.device = d->name};
	struct dmaemu__fault_facts *f = dmaemu__malloc(sizeof(*f));

	if (f) {
		dmaemu__bus_fault_facts(dmaemu__devp(d), addr, false, f);
		r.where = f->where[0] ? f->where : NULL;
	}
	dmaemu__report(d->m, &r,
		       "device %s read of %zu bytes at dma 0x%llx: %zu of "
		       "them are still in the CPU's write-combining buffers, "
		       "so the device read what memory held before; fix: "
		       "wmb() (or a writel(), which has one) between the "
		       "CPU's last store and the doorbell%s",
		       d->name, len, (unsigned long long)addr, old,
		       f ? f->text : "");
	dmaemu__free(f);
}

/*
 * Move @len bytes between @buf and DRAM at @phys, a page at a time under
 * the page's stripe lock.  @write: into DRAM (and, with @snoop, into the
 * CPU's copy too, the lines having been invalidated just before).  @st:
 * for a read on a profile that does not snoop, gathers the CPU-dirty
 * bytes read (NULL: not looked for).
 */
static void move_data(struct dmaemu_machine *m, uint64_t phys, uint8_t *buf,
		      size_t len, bool write, bool snoop, struct stale_read *st,
		      size_t *wc_old)
{
	uint8_t *mem = dmaemu__phys_dev_mem(m, phys);
	uint8_t *cpu = snoop ? dmaemu__phys_dev_cpu(m, phys) : NULL;
	uint8_t *twin = snoop ? dmaemu__phys_twin(m, phys) : NULL;

	while (len) {
		size_t chunk =
			DMAEMU__PAGE_SIZE - (phys & (DMAEMU__PAGE_SIZE - 1));
		pthread_mutex_t *stripe = dmaemu__stripe_of(m, phys);

		if (chunk > len)
			chunk = len;
		dmaemu__lock(stripe);
		if (write) {
			dmaemu__wc_device_write(m, phys, chunk);
			memcpy(mem, buf, chunk);
			if (snoop) {
				memcpy(cpu, buf, chunk);
				memcpy(twin, buf, chunk);
			}
			dmaemu__mem_vg_written(m, phys, chunk);
		} else if (st) {
			/* One pass copies and says whether any byte is
			 * CPU-dirty; only then are they looked for. */
			bool clean =
				dmaemu__mem_read_clean(m, phys, buf, chunk);

			*wc_old += dmaemu__wc_device_view(m, phys, buf, chunk);
			if (!clean)
				note_dirty(m, phys, chunk, st);
		} else {
			memcpy(buf, mem, chunk);
			*wc_old += dmaemu__wc_device_view(m, phys, buf, chunk);
		}
		dmaemu__unlock(stripe);
		phys += chunk;
		buf += chunk;
		mem += chunk;
		if (snoop) {
			cpu += chunk;
			twin += chunk;
		}
		len -= chunk;
	}
}

static int device_access(struct dmaemu_device *d, dma_addr_t addr, void *buf,
			 size_t len, bool write, const char *fn)
{
	struct piece stack[PIECES_ON_STACK], *p = NULL;
	struct stale_read st;
	struct dmaemu_machine *m;
	size_t wc_old = 0;
	bool x86, coherence;
	long n, i;
	uint8_t *b = buf;

	if (!dmaemu__device_alive(d)) {
		dmaemu__reportf(NULL, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"%s(): %s", fn,
				d ? "not a live device" : "NULL device");
		return -EINVAL;
	}
	m = d->m;
	if (!len)
		return 0;
	if (!buf) {
		dmaemu__reportf(m, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"%s(%s, 0x%llx, NULL, %zu): NULL buffer", fn,
				d->name, (unsigned long long)addr, len);
		return -EINVAL;
	}
	if (addr + len - 1 < addr) {
		struct dmaemu__report_info r = {.kind = DMAEMU_REPORT_DMA_FAULT,
						.device = d->name};
		char bell[400], where[256];

		if (dmaemu__device_last_write(d, bell, sizeof(bell), where,
					      sizeof(where)))
			r.where = where;
		dmaemu__report(m, &r,
			       "device %s: %s of %zu bytes at bus address "
			       "0x%llx wraps around the bus address space%s",
			       d->name, write ? "write" : "read", len,
			       (unsigned long long)addr, bell);
		return -EFAULT;
	}
	n = translate(d, addr, len, write, stack, &p);
	if (n < 0)
		return n == -ENOMEM ? -ENOMEM : -EFAULT;

	x86 = m->opt.profile == DMAEMU__PROFILE_X86;
	/* checks=-coherence: no stale-device-read search, no ownership
	 * check by the clients, no refusal of an access that reaches no
	 * mapping (it lands, as it would on a bus without an IOMMU). */
	coherence = dmaemu__checks_on(m, DMAEMU__CHECK_COHERENCE);
	if (coherence && clients_admit(d, addr, len, write)) {
		if (p != stack)
			dmaemu__free(p);
		return -EFAULT;
	}
	memset(&st, 0, sizeof(st));
	/* What the words held before, for a CPU load satisfied early (and
	 * the device's values back where such a load left old ones). */
	for (i = 0; !x86 && i < n; i++)
		dmaemu__order_device_before(m, p[i].phys, p[i].len, write);
	for (i = 0; i < n; i++) {
		if (x86 && write)
			dmaemu__range_clean_invalidate(m, p[i].phys, p[i].len);
		else if (x86)
			dmaemu__range_clean(m, p[i].phys, p[i].len);
		move_data(m, p[i].phys, b, p[i].len, write, x86 && write,
			  x86 || write || !coherence ? NULL : &st, &wc_old);
		b += p[i].len;
	}
	if (write) /* MEM changed under every CPU fast-path entry (cpu.c) */
		dmaemu__mem_changed();
	/* Ordering against the CPU's stores and loads (cpu/order.c); a
	 * read may get old values of stores not yet drained. */
	for (i = 0, b = buf; i < n; b += p[i].len, i++)
		dmaemu__order_device(m, d, d->name, p[i].dma, p[i].phys, b,
				     p[i].len, write);
	/* One report for the whole read, then the clients (the ownership
	 * check has nothing to add to it). */
	if (st.bytes)
		report_stale_read(d, addr, len, &st);
	if (wc_old)
		report_wc_pending(d, addr, p[0].phys, len, wc_old);
	for (i = 0; i < n; i++)
		clients_access(d, p[i].dma, p[i].phys, p[i].len, write,
			       st.bytes != 0 || !coherence);
	if (p != stack)
		dmaemu__free(p);
	return 0;
}

/* Lockstep: each device DMA call is a scheduling point. */
static void dma_point(struct dmaemu_device *d, const char *what)
{
	struct dmaemu_device *dev;

	if (!dmaemu__sched_on())
		return;
	dev = dmaemu__device_alive(d) ? d : NULL;
	if (dev)
		dmaemu__sched_point(dev->m, what);
}

/* The device-group trace event of an access (its result: 0 or -errno). */
static void trace_access(struct dmaemu_device *d, const char *name,
			 dma_addr_t addr, size_t len, int ret)
{
	struct dmaemu_device *dev = dmaemu__device_of(d ? &d->dev : NULL);

	if (dev && dmaemu__tracing(dev->m, DMAEMU__TRACE_DEVICE))
		dmaemu__trace(dev->m, DMAEMU__TRACE_DEVICE, name,
			      "dev=%s addr=0x%" PRIx64 " len=%zu%s",
			      dev->dev.init_name, (uint64_t)addr, len,
			      ret == -EFAULT   ? " error=EFAULT"
			      : ret == -EINVAL ? " error=EINVAL"
			      : ret	       ? " error"
					       : "");
}

/* ---------------------------------------------------------------------- */
/* The posted-write queue and the timing knobs                            */
/* ---------------------------------------------------------------------- */

/*
 * How it works.  A device write that may pass earlier writes (to memory
 * with DMA_ATTR_WEAK_ORDERING; with posted_writes=relaxed, any write but
 * one to DMA_ATTR_WRITE_BARRIER memory) is checked (translated and
 * admitted, so a bad address fails the call at once) and then posted: a
 * copy of its bytes waits in the device's queue for a number of later
 * device DMA calls (0 to PW_MAX_WAIT) that the seed chooses per write.
 * After each device DMA call the writes whose wait is over land, oldest
 * first, and the others count down.  So a write with wait 0 lands at the
 * end of its own call, before older writes still waiting: it passed them.
 *
 *   dma_write(data)   weak, wait 2   queue: data(2)
 *   dma_write(status) weak, wait 0   queue: data(1)      status landed
 *      ... a driver polling status now sees it before data ...
 *   dma_read(desc)    weak           queue: data(0)  ->  data lands
 *
 * A write that may not pass (the default, PCI's ordering) first lands
 * every write before it; so does a write to DMA_ATTR_WRITE_BARRIER memory
 * (DMA-attributes.txt: it "forces all pending DMA writes to complete").
 * A read lands the queue first unless every byte it reads carries
 * WEAK_ORDERING (reads may then pass writes) and it reads none of the
 * bytes still posted: a device always reads its own writes.  A write over
 * bytes still posted lands the queue first, so two writes to one byte
 * never swap.  The queue also drains where hardware pushes posted writes:
 * a register read (its completion), dmaemu_raise_irq() (an MSI is a
 * posted write behind the others), the end of each run, reset, destroy,
 * and dmaemu_dma_drain().  It holds PW_MAX writes; one more lands the
 * oldest.  ordering=strong turns posting off.
 */
#define PW_MAX 16
#define PW_MAX_WAIT 3

struct dmaemu__posted {
	dma_addr_t dma;
	size_t len;
	unsigned int wait; /* device DMA calls left before it lands */
	uint8_t *data;
};

static uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* The seed's choice number @seq of device @d for @what (a salt): the
 * same in every run with that seed, whatever the host's timing. */
static uint64_t dev_choice(const struct dmaemu_device *d, uint64_t what,
			   uint64_t seq)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	const char *c;

	for (c = d->name; *c; c++)
		h = (h ^ (uint8_t)*c) * 0x100000001b3ULL;
	return mix64(d->m->opt.seed ^ mix64(h ^ what) ^
		     (seq * 0x9e3779b97f4a7c15ULL));
}

/* The DMA_ATTR_* bits of [@dma, +@len) (the clients' order op). */
static void range_attrs(struct dmaemu_device *d, dma_addr_t dma, size_t len,
			bool write, unsigned long *any, unsigned long *all)
{
	unsigned int i;

	*any = 0;
	*all = 0;
	for (i = 0; i < DMAEMU__BUS_NSLOTS; i++) {
		const struct dmaemu__bus_client *c = d->m->bus_client[i];

		if (c && c->order) {
			c->order(&d->dev, d->data[i], dma, len, write, any,
				 all);
			return;
		}
	}
}

/* Set while a posted write lands (dmaemu__dma_landing()). */
static __thread bool landing;

bool dmaemu__dma_landing(void)
{
	return landing;
}

/* Land posted write @i of @d (then forget it).  pw_lock held. */
static void pw_land(struct dmaemu_device *d, unsigned int i)
{
	struct dmaemu__posted e = d->pw[i];

	memmove(&d->pw[i], &d->pw[i + 1], (d->pw_n - i - 1) * sizeof(e));
	d->pw_n--;
	/* A fault now (the driver unmapped the buffer while the write was
	 * posted) is reported by the access; the device has moved on. */
	landing = true;
	device_access(d, e.dma, e.data, e.len, true, "dmaemu_dma_write");
	landing = false;
	dmaemu__trace(d->m, DMAEMU__TRACE_DEVICE, "dma_write_landed",
		      "dev=%s addr=0x%" PRIx64 " len=%zu", d->name,
		      (uint64_t)e.dma, e.len);
	dmaemu__free(e.data);
}

/* Land every posted write, oldest first.  pw_lock held. */
static unsigned int pw_flush(struct dmaemu_device *d)
{
	unsigned int n = d->pw_n;

	while (d->pw_n)
		pw_land(d, 0);
	return n;
}

/* After a device DMA call: land the writes whose wait is over, count the
 * others down.  pw_lock held. */
static void pw_tick(struct dmaemu_device *d)
{
	unsigned int i = 0;

	while (i < d->pw_n) {
		if (!d->pw[i].wait) {
			pw_land(d, i);
			continue;
		}
		d->pw[i].wait--;
		i++;
	}
}

/* Does [@dma, +@len) touch a write still posted?  pw_lock held. */
static bool pw_overlaps(const struct dmaemu_device *d, dma_addr_t dma,
			size_t len)
{
	unsigned int i;

	for (i = 0; i < d->pw_n; i++)
		if (dma < d->pw[i].dma + d->pw[i].len &&
		    d->pw[i].dma < dma + len)
			return true;
	return false;
}

/* May writes of @d be posted at all on its machine? */
static bool pw_on(const struct dmaemu_device *d)
{
	return !d->m->opt.ordering_strong;
}

void dmaemu__pw_drain(struct dmaemu_device *d)
{
	dmaemu__lock(&d->pw_lock);
	pw_flush(d);
	dmaemu__unlock(&d->pw_lock);
}

bool dmaemu__pw_pending(struct dmaemu_device *d)
{
	bool n;

	dmaemu__lock(&d->pw_lock);
	n = d->pw_n != 0;
	dmaemu__unlock(&d->pw_lock);
	return n;
}

int dmaemu_dma_drain(struct dmaemu_device *d)
{
	unsigned int n;

	if (!dmaemu__device_alive(d)) {
		dmaemu__reportf(NULL, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"dmaemu_dma_drain(): %s",
				d ? "not a live device" : "NULL device");
		return -EINVAL;
	}
	dmaemu__lock(&d->pw_lock);
	n = pw_flush(d);
	dmaemu__unlock(&d->pw_lock);
	return (int)n;
}

/*
 * Check a write that is about to be posted as device_access() would
 * (bad arguments, translation, the clients' admission), moving nothing.
 * Return: 0 or what device_access() would return.
 */
static int pw_check(struct dmaemu_device *d, dma_addr_t addr, size_t len)
{
	struct piece stack[PIECES_ON_STACK], *p = NULL;
	long n;
	int ret = 0;

	if (addr + len - 1 < addr)
		return device_access(d, addr, stack, len, true,
				     "dmaemu_dma_write");
	n = translate(d, addr, len, true, stack, &p);
	if (n < 0)
		return n == -ENOMEM ? -ENOMEM : -EFAULT;
	if (dmaemu__checks_on(d->m, DMAEMU__CHECK_COHERENCE) &&
	    clients_admit(d, addr, len, true))
		ret = -EFAULT;
	if (p != stack)
		dmaemu__free(p);
	return ret;
}

/* Post a write of @d (pw_lock held).  Return: 0 or a negative errno. */
static int pw_post(struct dmaemu_device *d, dma_addr_t addr, const void *buf,
		   size_t len)
{
	struct dmaemu__posted *e;
	uint8_t *copy;
	int ret = pw_check(d, addr, len);

	if (ret)
		return ret;
	copy = dmaemu__malloc(len);
	if (!copy)
		return -ENOMEM;
	if (!d->pw) {
		d->pw = dmaemu__calloc(PW_MAX, sizeof(*d->pw));
		if (!d->pw) {
			dmaemu__free(copy);
			return -ENOMEM;
		}
	}
	if (d->pw_n == PW_MAX)
		pw_land(d, 0);
	memcpy(copy, buf, len);
	e = &d->pw[d->pw_n++];
	e->dma = addr;
	e->len = len;
	e->data = copy;
	e->wait = (unsigned int)(dev_choice(d, 0x706f7374 /* "post" */,
					    d->pw_seq) %
				 (PW_MAX_WAIT + 1));
	return 0;
}

/*
 * The time a device access of @len bytes takes (the timing knobs), spent
 * by the calling thread before the data moves: on the lockstep clock when
 * the caller is a context of a lockstep machine, else on the host's.
 */
static void spend_time(struct dmaemu_device *d, size_t len)
{
	struct dmaemu_device_timing t;
	uint64_t ns, seq;

	/* Every access takes a number, timed or not; the knobs, under the
	 * lock, only when some is set (most devices have none). */
	seq = __atomic_fetch_add(&d->t_seq, 1, __ATOMIC_RELAXED);
	if (!__atomic_load_n(&d->timed, __ATOMIC_ACQUIRE))
		return;
	dmaemu__lock(&d->pw_lock);
	t = d->timing;
	dmaemu__unlock(&d->pw_lock);
	ns = t.latency_ns;
	if (t.bandwidth)
		ns += (uint64_t)(((unsigned __int128)len * 1000000000ULL +
				  t.bandwidth - 1) /
				 t.bandwidth);
	if (t.jitter_ns)
		ns += dev_choice(d, 0x6a6974 /* "jit" */, seq) %
		      (t.jitter_ns + 1);
	if (!ns)
		return;
	if (dmaemu__sched_sleep(ns, "device busy") == -ENOSYS) {
		struct timespec ts = {.tv_sec = (time_t)(ns / 1000000000ULL),
				      .tv_nsec = (long)(ns % 1000000000ULL)};

		while (nanosleep(&ts, &ts) && errno == EINTR)
			;
	}
}

static int dma_write(struct dmaemu_device *d, dma_addr_t addr, const void *buf,
		     size_t len)
{
	unsigned long any, all;
	bool post;
	int ret;

	if (!d || !dmaemu__device_alive(d) || !len || !buf || !pw_on(d))
		return device_access(d, addr, (void *)(uintptr_t)buf, len, true,
				     "dmaemu_dma_write");
	dmaemu__lock(&d->pw_lock);
	range_attrs(d, addr, len, true, &any, &all);
	if (any & DMA_ATTR_WRITE_BARRIER)
		post = false;
	else if (d->m->opt.posted_relaxed)
		post = true;
	else
		post = (all & DMA_ATTR_WEAK_ORDERING) != 0;
	if (!post || pw_overlaps(d, addr, len))
		pw_flush(d);
	if (post)
		ret = pw_post(d, addr, buf, len);
	else
		ret = device_access(d, addr, (void *)(uintptr_t)buf, len, true,
				    "dmaemu_dma_write");
	d->pw_seq++;
	pw_tick(d);
	dmaemu__unlock(&d->pw_lock);
	return ret;
}

static int dma_read(struct dmaemu_device *d, dma_addr_t addr, void *buf,
		    size_t len)
{
	unsigned long any, all;
	int ret;

	if (!d || !dmaemu__device_alive(d) || !len || !buf || !pw_on(d))
		return device_access(d, addr, buf, len, false,
				     "dmaemu_dma_read");
	dmaemu__lock(&d->pw_lock);
	if (d->pw_n) {
		range_attrs(d, addr, len, false, &any, &all);
		if (!(all & DMA_ATTR_WEAK_ORDERING) ||
		    pw_overlaps(d, addr, len))
			pw_flush(d);
	}
	ret = device_access(d, addr, buf, len, false, "dmaemu_dma_read");
	pw_tick(d);
	dmaemu__unlock(&d->pw_lock);
	return ret;
}

int dmaemu_device_set_timing(struct dmaemu_device *d,
			     const struct dmaemu_device_timing *t)
{
	static const struct dmaemu_device_timing zero;

	if (!dmaemu__device_alive(d)) {
		dmaemu__reportf(NULL, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"dmaemu_device_set_timing(): %s",
				d ? "not a live device" : "NULL device");
		return -EINVAL;
	}
	if (!t)
		t = &zero;
	if (dmaemu__timing_check(t)) {
		dmaemu__reportf(d->m, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"dmaemu_device_set_timing(%s): latency %" PRIu64
				" ns, jitter %" PRIu64 " ns, bandwidth %" PRIu64
				": %s; nothing changed",
				d->name, t->latency_ns, t->jitter_ns,
				t->bandwidth, DMAEMU__TIMING_LIMITS);
		return -EINVAL;
	}
	dmaemu__lock(&d->pw_lock);
	d->timing = *t;
	__atomic_store_n(&d->timed, timing_any(t), __ATOMIC_RELEASE);
	dmaemu__unlock(&d->pw_lock);
	return 0;
}

int dmaemu_device_set_options(struct dmaemu_device *d, const char *opts)
{
	struct dmaemu_device_timing t;
	const char *bad = NULL;

	if (!d || !dmaemu__device_alive(d) || !opts) {
		dmaemu__reportf(dmaemu__device_alive(d) ? d->m : NULL,
				DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"dmaemu_device_set_options(): %s",
				!d			   ? "NULL device"
				: !dmaemu__device_alive(d) ? "not a live device"
							   : "NULL options");
		return -EINVAL;
	}
	dmaemu__lock(&d->pw_lock);
	t = d->timing;
	dmaemu__unlock(&d->pw_lock);
	switch (dmaemu__timing_parse(opts, &t, &bad)) {
	case 0:
		break;
	case -ERANGE:
		dmaemu__reportf(d->m, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"dmaemu_device_set_options(%s): '%.*s' is "
				"beyond its limit (%s)",
				d->name, (int)strcspn(bad, ":,"), bad,
				DMAEMU__TIMING_LIMITS);
		return -EINVAL;
	default:
		dmaemu__reportf(d->m, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"dmaemu_device_set_options(%s): bad item "
				"'%.*s' (expected latency=TIME, jitter=TIME "
				"with TIME a number and ns, us, ms or s, or "
				"bandwidth=BYTES per second with k, M or G)",
				d->name, (int)strcspn(bad, ":,"), bad);
		return -EINVAL;
	}
	return dmaemu_device_set_timing(d, &t);
}

int dmaemu_dma_read(struct dmaemu_device *d, dma_addr_t addr, void *buf,
		    size_t len)
{
	int ret;

	dma_point(d, "dma read");
	if (dmaemu__device_alive(d))
		spend_time(d, len);
	ret = dma_read(d, addr, buf, len);
	if (!ret) {
		DMAEMU__STAT_ADD(&d->stats, dev_reads, 1);
		DMAEMU__STAT_ADD(&d->stats, dev_bytes_read, len);
	}
	trace_access(d, "dma_read", addr, len, ret);
	return ret;
}

int dmaemu_dma_write(struct dmaemu_device *d, dma_addr_t addr, const void *buf,
		     size_t len)
{
	int ret;

	dma_point(d, "dma write");
	if (dmaemu__device_alive(d))
		spend_time(d, len);
	ret = dma_write(d, addr, buf, len);
	if (!ret) {
		DMAEMU__STAT_ADD(&d->stats, dev_writes, 1);
		DMAEMU__STAT_ADD(&d->stats, dev_bytes_written, len);
	}
	trace_access(d, "dma_write", addr, len, ret);
	return ret;
}
