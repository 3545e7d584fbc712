/* SPDX-License-Identifier: MIT */
/*
 * bus.h - the bus layer of lib/: emulated devices (struct device), their
 * managed resources, and device-side DMA (dmaemu_dma_read/write).
 *
 *   device.c     devices, devres, clients, device-side DMA, dev_printk,
 *                dmaemu_device_bind(), get_device()/put_device()
 *   devres.c     generic managed resources (devres_alloc() and friends)
 *   pci.c        struct pci_dev: dmaemu_pci_dev_init(), BARs
 *   translate.c  bus address translation (dma_offset, or the IOMMU)
 *   iommu.c      the IOMMU: domains, page tables, permissions, privilege,
 *                the page-table walk, faults
 *   thread.c     each device model's thread: doorbells, timers, reset
 *   irq.c        interrupt lines, the machine's interrupt thread,
 *                request_irq() and friends
 *   softirq.c    softirq vectors run by the interrupt thread, tasklets
 *   kwork.c      the kernel worker: timer_list timers and work items
 *   platform.c   the platform bus: drivers, probe/remove, resources,
 *                ioremap(), devm_*
 */
#ifndef DMAEMU_LIB_BUS_H
#define DMAEMU_LIB_BUS_H

#include <dmaemu/device.h>
#include <dmaemu/ktypes.h>
#include <linux/platform_device.h>

#include "mm/mm.h"

struct device;
struct dmaemu__devres;
struct dmaemu__devthread;
struct dmaemu__irq_desc;
struct dmaemu__posted;

/* The bus clients' slots (see below). */
enum dmaemu__bus_slot {
	DMAEMU__BUS_DMA = 0, /* dma/: the registry of live mappings */
	DMAEMU__BUS_NSLOTS
};

/**
 * struct dmaemu_device - an emulated device.
 * @dev:         the device's own struct device; first, so that a pointer
 *               to one is a pointer to the other.
 * @pdev:        the same device seen by the platform bus: its first member
 *               is @dev (platform.c fills the rest when @ops->name is set).
 * @devp:        the struct device of the DMA API: &@dev, or the caller's
 *               own one tied by dmaemu_device_bind() (written under the
 *               live set's write lock, with nothing of the device's DMA
 *               state live).
 * @m:           the machine.
 * @ops:         the model (NULL for a bare device).
 * @priv:        the model's data.
 * @name:        copy of the name (@dev.init_name points at it).
 * @next:        the machine's list of devices (m->lock).
 * @devres_lock: protects @devres (a leaf).
 * @devres:      managed resources, newest first (released LIFO).
 * @data:        each bus client's state of the device.
 * @regs:        the register window (NULL: none).
 * @thr:         the model's thread (thread.c; NULL without ops->run).
 * @nr_irqs:     interrupt lines (ops->nr_irqs).
 * @irq:         their descriptors (irq.c), @nr_irqs of them.
 * @drv:         the platform driver bound (platform.c's bind lock).
 * @plat_next:   the platform bus's list of devices (bind lock).
 * @pw_lock:     protects @pw, @pw_n and @pw_seq, and is held while posted
 *               writes land, so that they land in the order chosen (taken
 *               after the model's lock; the clients' locks, stripes and
 *               the report lock nest inside it).
 * @pw:          the posted-write queue (device.c), @pw_n entries, oldest
 *               first; allocated at the first posted write.
 * @pw_seq:      device writes issued so far (the seed's choices key).
 * @timing:      the timing knobs (dmaemu_device_set_timing()); @pw_lock.
 * @t_seq:       device accesses timed so far (the jitter's key); atomic.
 * @timed:       whether @timing has a knob set (atomic; written under
 *               @pw_lock): accesses of a device without one take no lock.
 */
struct dmaemu_device {
	union {
		struct device dev;
		struct platform_device pdev;
	};
	struct device *devp;
	struct dmaemu_machine *m;
	const struct dmaemu_device_ops *ops;
	void *priv;
	bool keep_priv; /* create failed: ops->release must not run */
	char *name;
	struct dmaemu_device *next;
	pthread_mutex_t devres_lock;
	struct dmaemu__devres *devres;
	void *data[DMAEMU__BUS_NSLOTS];
	void *regs;
	struct dmaemu__devthread *thr;
	unsigned int nr_irqs;
	struct dmaemu__irq_desc **irq;
	struct platform_driver *drv;
	struct dmaemu_device *plat_next;
	pthread_mutex_t pw_lock;
	struct dmaemu__posted *pw;
	unsigned int pw_n;
	uint64_t pw_seq;
	struct dmaemu_device_timing timing;
	uint64_t t_seq;
	int timed;
	/* The driver's last register write (regs_write()): the code address
	 * of its writel(), the register's offset and the value; atomics,
	 * written by the driver's threads, read by the reports. */
	const void *reg_site;
	uint64_t reg_off, reg_val;
	uint64_t reg_writes; /* register writes so far (atomic) */
	char stats_pad0[DMAEMU__STATS_PAD];
	struct dmaemu__dev_stats stats; /* atomics (core/core.h) */
	char stats_pad1[DMAEMU__STATS_PAD];
};

/*
 * The statistics of live device @dev: its emulated device's, through the
 * struct device's link to it (a struct embedded in the caller's structure
 * and bound to the device has it too).  A struct device with no device
 * counts into a sink nobody reads.
 */
static inline struct dmaemu__dev_stats *dmaemu__dev_stats(struct device *dev)
{
	static struct dmaemu__dev_stats sink;

	return dev && dev->dmaemu ? &dev->dmaemu->stats : &sink;
}

/* @d's struct device of the DMA API now (d->devp, read atomically: a
 * device thread may read it while dmaemu_device_bind() changes it). */
static inline struct device *dmaemu__devp(const struct dmaemu_device *d)
{
	return __atomic_load_n(&d->devp, __ATOMIC_ACQUIRE);
}

/* The machine and the emulated device of a struct device (NULL: foreign,
 * reported as bad-argument by the caller). */
struct dmaemu_machine *dmaemu__dev_machine(const struct device *dev);
/*
 * The same, making that bad-argument report ("@fn: NULL device") itself.
 * Every call of the DMA API starts here, and a driver calls it with the
 * same device again and again: this thread's last look-up (device.c's
 * table, checked against its generation) answers inline, the table only
 * when it does not.
 */
struct dmaemu__live_hint {
	const struct device *dev;
	struct dmaemu_device *d;
	bool retired;
	uint64_t gen;
};
extern __thread struct dmaemu__live_hint dmaemu__live_hint
	__attribute__((tls_model("initial-exec"), visibility("hidden")));
extern uint64_t dmaemu__live_gen __attribute__((visibility("hidden")));
struct dmaemu_machine *dmaemu__dev_machine_or_report_slow(struct device *dev,
							  const char *fn);
static inline struct dmaemu_machine *dmaemu__dev_machine_or_report(
	struct device *dev, const char *fn)
{
	const struct dmaemu__live_hint *h = &dmaemu__live_hint;

	if (dev && h->dev == dev && !h->retired &&
	    h->gen == __atomic_load_n(&dmaemu__live_gen, __ATOMIC_ACQUIRE))
		return h->d->m;
	return dmaemu__dev_machine_or_report_slow(dev, fn);
}

/* ---------------------------------------------------------------------- */
/* Clients: how higher layers hang per-device work on the bus              */
/* ---------------------------------------------------------------------- */

/*
 * The bus knows nothing of what is built on it.  A higher layer that keeps
 * per-device state or must see device events registers a client for a
 * machine (dmaemu__bus_attach(), from machine create, before any device
 * exists), in the slot its layer owns.  Clients are called in slot order
 * on device create and after each device access, and in reverse slot order
 * on device destroy.  Every slot is optional, and so is every op.
 *
 * @add:     device create: make the client's state of @dev in *@data.
 *           Return: 0 or a negative errno (the create fails, the clients
 *           added before are freed).
 * @release: device destroy, after the managed resources: give back what
 *           @dev still holds (a leak is the client's to report).
 * @free:    device destroy, last (or a failed create): free @data.
 * @access:  after a device DMA access, once per physically contiguous
 *           piece [@phys, +@len) at bus address @dma; @stale: a checker
 *           has nothing to add, because the bus reported the access as a
 *           stale-device-read (it read bytes the CPU had dirty) or the
 *           machine's coherence checks are off (checks=-coherence).
 * @admit:   before a device DMA access moves any data (after the bus
 *           translated it), with the machine's coherence checks on: 0
 *           lets it go on; a negative errno refuses it (nothing is
 *           transferred and the device gets the error), after the
 *           client's report.
 * @busy:    does the client hold state of @dev that names it (mappings,
 *           allocations, pools)?  dmaemu_device_bind() refuses then.
 * @order:   the posted-write queue asks which DMA_ATTR_* bits the bus
 *           range [@dma, +@len) carries: *@any, those of some byte,
 *           *@all, those of every byte (0 for bytes in no live range).
 */
struct dmaemu__bus_client {
	int (*add)(struct device *dev, void **data);
	bool (*busy)(struct device *dev, void *data);
	void (*release)(struct device *dev, void *data);
	void (*free)(void *data);
	void (*access)(struct device *dev, void *data, dma_addr_t dma,
		       uint64_t phys, size_t len, bool write, bool stale);
	int (*admit)(struct device *dev, void *data, dma_addr_t dma, size_t len,
		     bool write);
	void (*order)(struct device *dev, void *data, dma_addr_t dma,
		      size_t len, bool write, unsigned long *any,
		      unsigned long *all);
	void (*explain)(struct device *dev, void *data, dma_addr_t dma,
			unsigned int what, char *buf, size_t len, char *made_at,
			size_t mlen);
};
void dmaemu__bus_attach(struct dmaemu_machine *m, enum dmaemu__bus_slot slot,
			const struct dmaemu__bus_client *c);
/*
 * What the clients know of bus address @dma of @dev, for a report of the
 * bus (the client's explain; @what says what is asked): lines of text
 * ("\n    ...") into @buf, and into @made_at the driver's line where the
 * mapping or allocation they name was made ("" when none).
 *   DMAEMU__EXPLAIN_FAULT  a fault at @dma: the mapping unmapped there
 *                          and its unmap (option unmap_history), or that
 *                          none is remembered; the live mapping @dma is a
 *                          cut address of (a 64-bit address through a
 *                          32-bit register)
 *   DMAEMU__EXPLAIN_ALLOC  the live coherent allocation holding @dma
 *   DMAEMU__EXPLAIN_SLOT   the live streaming mapping made with
 *                          DMA_ATTR_SKIP_CPU_SYNC whose swiotlb bounce
 *                          slot holds @dma: into @buf, not a line but
 *                          the fix of a device read of the slot's bytes
 *                          the CPU never cleaned ("" when none)
 */
#define DMAEMU__EXPLAIN_FAULT 0x1
#define DMAEMU__EXPLAIN_ALLOC 0x2
#define DMAEMU__EXPLAIN_SLOT 0x4
void dmaemu__bus_explain(struct device *dev, dma_addr_t dma, unsigned int what,
			 char *buf, size_t len, char *made_at, size_t mlen);
/*
 * dmaemu__device_last_write() - the driver's last register write to @d
 * (its writel(), or any register write), which is how a driver hands a
 * device an address or makes it raise an interrupt: a line for a report
 * ("\n    ...") into @buf and its place ("fn file:line") into @where.
 * Return: false, both empty, when the driver wrote no register of @d.
 */
bool dmaemu__device_last_write(struct dmaemu_device *d, char *buf, size_t len,
			       char *where, size_t wlen);
/*
 * dmaemu__device_writing() - is the calling thread inside a register
 * write to @d (its model's mmio_write)?  Then @off is the register and
 * @site the driver's writel() (NULL when unknown).  The interrupt
 * controller learns so which register lowers a line.
 */
bool dmaemu__device_writing(const struct dmaemu_device *d, uint64_t *off,
			    const void **site);
/*
 * dmaemu__bus_fault_facts() - what a report of a fault of a device access
 * at bus address @addr of @dev (dma-fault, iommu-fault) says besides its
 * headline: with @explain, the clients' explain lines
 * (DMAEMU__EXPLAIN_FAULT); the
 * driver's last register write to the device, in @f->text; in @f->where
 * the driver's line the report points at (that register write, else the
 * first code outside the library on this thread's stack; "" when none);
 * in @f->made_at where the mapping named was made ("" when none).
 */
struct dmaemu__fault_facts {
	char text[1400];
	char where[256];
	char made_at[320];
};
void dmaemu__bus_fault_facts(struct device *dev, dma_addr_t addr, bool explain,
			     struct dmaemu__fault_facts *f);
/* Fill @r's where and made_at from @f (left NULL where @f has none). */
void dmaemu__bus_fault_fields(const struct dmaemu__fault_facts *f,
			      struct dmaemu__report_info *r);
/* The state client @slot made for live device @dev (NULL if none). */
void *dmaemu__device_data(const struct device *dev, enum dmaemu__bus_slot slot);
/* Is the calling thread landing a posted write, one the device made
 * before the buffer's last handover to the CPU perhaps (device.c)? */
bool dmaemu__dma_landing(void);
/*
 * The same for a @dev the caller has already found live in this call (the
 * DMA API's entry checks, dmaemu__dev_machine()): no second look-up in
 * the set of live devices.
 */
static inline void *dmaemu__live_device_data(const struct device *dev,
					     enum dmaemu__bus_slot slot)
{
	return dev->dmaemu->data[slot];
}

/*
 * Bus address translation (translate.c).  Without the IOMMU a bus address
 * is the physical address plus the machine's dma_offset, and only DRAM
 * answers; with iommu=1 the IOMMU's page-table walk answers
 * (dmaemu__iommu_translate()).
 *
 * dmaemu__bus_translate(): the device access of @len bytes at @addr (@write:
 * a write) starts at physical *@phys and is contiguous for *@contig bytes
 * (<= @len).  Return: 0, -EFAULT (unmapped, not DRAM) or -EPERM
 * (permission), after a report.
 * dmaemu__dma_offset(): bus minus physical address without an IOMMU.
 */
int dmaemu__bus_translate(struct device *dev, dma_addr_t addr, size_t len,
			  bool write, uint64_t *phys, size_t *contig);
uint64_t dmaemu__dma_offset(const struct dmaemu_machine *m);

/* ---------------------------------------------------------------------- */
/* The IOMMU (iommu.c)                                                     */
/* ---------------------------------------------------------------------- */

/*
 * The IOMMU as Linux's IOMMU drivers and their page tables (intel-iommu.c,
 * io-pgtable-arm.c): a domain per device with its page table, privilege
 * and fault count, made at the first mapping or
 * dmaemu_device_set_privileged() and freed at device destroy
 * (dmaemu__iommu_device_release(), after the bus clients' release).  The
 * DMA layer (dma/iommu.c, as dma-iommu.c) allocates IOVAs and maps them
 * here; its state of a domain is the domain's cookie.  Every function may
 * be called with no lock of the library held or with any; the IOMMU's
 * locks are leaves.
 *
 * Permissions requested of a mapping (IOMMU_READ, IOMMU_WRITE,
 * IOMMU_PRIV); the page table keeps what its format can express: VT-d on
 * x86 (dmaemu__iommu_is_vtd()), an SMMU's LPAE stage 1 on arm and arm64,
 * all of them with iommu_strict=1.  The IOVA space is
 * DMAEMU__IOMMU_IOVA_BITS wide.  A tag of DMAEMU__IOMMU_TAG_BITS bits,
 * chosen by the mapper, is kept with each page; a fault report asks the
 * machine's owner hook (installed by the DMA layer at machine create) to
 * name what the page with that tag belongs to ("a DMA_TO_DEVICE streaming
 * mapping").
 */
#define DMAEMU__IOMMU_READ 0x1
#define DMAEMU__IOMMU_WRITE 0x2
#define DMAEMU__IOMMU_PRIV 0x4
#define DMAEMU__IOMMU_IOVA_BITS 48
#define DMAEMU__IOMMU_TAG_BITS 4

struct dmaemu__iommu_domain;

/* The IOMMU behaves as Intel VT-d (intel-iommu.c), not as an SMMU. */
static inline bool dmaemu__iommu_is_vtd(const struct dmaemu_machine *m)
{
	return m->opt.profile == DMAEMU__PROFILE_X86 && !m->opt.iommu_strict;
}

typedef void (*dmaemu__iommu_owner_fn)(unsigned int tag, char *buf, size_t len);
void dmaemu__iommu_set_owner_fn(struct dmaemu_machine *m,
				dmaemu__iommu_owner_fn fn);

struct dmaemu__iommu_domain *dmaemu__iommu_get_domain(struct dmaemu_machine *m,
						      struct device *dev,
						      bool make);
int dmaemu__iommu_domain_map(struct dmaemu__iommu_domain *d, dma_addr_t iova,
			     uint64_t phys, size_t size, int prot,
			     unsigned int tag);
void dmaemu__iommu_domain_unmap(struct dmaemu__iommu_domain *d, dma_addr_t iova,
				size_t size);
size_t dmaemu__iommu_domain_run(struct dmaemu__iommu_domain *d, dma_addr_t iova,
				size_t len, uint64_t *phys);
/* The DMA layer's state of a domain (iommu_dma_cookie). */
void *dmaemu__iommu_cookie(struct dmaemu__iommu_domain *d);
void *dmaemu__iommu_set_cookie(struct dmaemu__iommu_domain *d, void *c);
void *dmaemu__iommu_take_cookie(struct dmaemu__iommu_domain *d);

/**
 * struct dmaemu__iommu_pt_stats - the page table's side of a domain
 * (dmaemu__iommu_domain_info()).
 * @pages:      IOVA pages mapped.
 * @faults:     device accesses refused.
 * @tables:     page-table pages.
 * @privileged: the device's accesses are privileged.
 */
struct dmaemu__iommu_pt_stats {
	uint64_t pages, faults, tables;
	bool privileged;
};
void dmaemu__iommu_domain_info(struct dmaemu__iommu_domain *d,
			       struct dmaemu__iommu_pt_stats *st);

int dmaemu__iommu_translate(struct dmaemu_machine *m, struct device *dev,
			    dma_addr_t addr, size_t len, bool write,
			    uint64_t *phys, size_t *contig);
/* What @iova of @dev maps to (iommu_iova_to_phys()), or UINT64_MAX. */
uint64_t dmaemu__iommu_iova_to_phys(struct device *dev, dma_addr_t iova);
/* Device destroy, after the bus clients' release: free @dev's domain. */
void dmaemu__iommu_device_release(struct device *dev);
/* Machine destroy: free the IOMMU's state. */
void dmaemu__iommu_fini(struct dmaemu_machine *m);

/*
 * device.c.  dmaemu__device_of(): the emulated device of @dev, or NULL
 * when @dev is not a live device (checked without touching *@dev, so a
 * stale pointer is safe).  dmaemu__devices_fini(): machine destroy,
 * first of all: destroys the devices left (their clients report leaks).
 *
 * Managed resources (devres), for the dmam_* calls: dmaemu__devres_add()
 * registers @release(@dev, @data), run when the device is destroyed, the
 * newest first, before leaked mappings are looked for (so they are not
 * leaks); 0 or -ENOMEM/-EINVAL.  dmaemu__devres_remove() forgets one
 * without running it; dmaemu__devres_release() forgets and runs it; both
 * 0 or -ENOENT when (@release, @data) is not registered for @dev.
 */
typedef void (*dmaemu__devres_fn)(struct device *dev, void *data);
/*
 * One managed resource, on its device's list (newest first, under
 * devres_lock).  @generic: the record is the head of a devres_alloc()
 * node (devres.c), @data its payload: freeing the record frees both.
 */
struct dmaemu__devres {
	dmaemu__devres_fn release;
	void *data;
	struct dmaemu__devres *next;
	bool generic;
};
struct dmaemu_device *dmaemu__device_of(const struct device *dev);
/* Is @d a live device?  Never reads *@d. */
bool dmaemu__device_alive(const struct dmaemu_device *d);
/* devres.c: free the record of a resource being released (the node of a
 * devres_alloc()ed one). */
void dmaemu__devres_free_record(struct dmaemu__devres *r);
/* Link @r (a generic record) on @dev's list; 0 or -EINVAL. */
int dmaemu__devres_link(struct device *dev, struct dmaemu__devres *r);
void dmaemu__devices_fini(struct dmaemu_machine *m);
/* Frees the busy ranges request_mem_region() left (bus/region.c): machine
 * destroy, after the devices (their managed ranges are released then). */
void dmaemu__iomem_fini(struct dmaemu_machine *m);
int dmaemu__devres_add(struct device *dev, dmaemu__devres_fn release,
		       void *data);
int dmaemu__devres_remove(struct device *dev, dmaemu__devres_fn release,
			  void *data);
int dmaemu__devres_release(struct device *dev, dmaemu__devres_fn release,
			   void *data);
/*
 * The posted-write queue (device.c): dmaemu__pw_drain() lands every
 * write of @d still posted, oldest first; called where hardware pushes
 * posted writes ahead (a register read, an interrupt, the end of a run,
 * reset and destroy).  No lock of the library held; the model's may be.
 */
void dmaemu__pw_drain(struct dmaemu_device *d);
/* Are writes of @d posted still? */
bool dmaemu__pw_pending(struct dmaemu_device *d);
/* Run every managed release of @d, newest first (driver unbind, destroy). */
int dmaemu__devres_release_all(struct dmaemu_device *d);

/*
 * thread.c.  dmaemu__thread_start(): at create, once the device is live,
 * when the model has a run op; 0 or a negative errno.
 * dmaemu__thread_stop(): at destroy: stop and join the thread (a run in
 * progress finishes first).  dmaemu__thread_is_self(): is the calling
 * thread @d's own?
 */
int dmaemu__thread_start(struct dmaemu_device *d);
void dmaemu__thread_stop(struct dmaemu_device *d);
bool dmaemu__thread_is_self(const struct dmaemu_device *d);

/*
 * irq.c.  dmaemu__irq_init()/_fini(): machine create/destroy (fini stops
 * the interrupt thread; every device is gone by then).
 * dmaemu__irq_device_add(): at create, before the device is live: number
 * its ops->nr_irqs lines; 0 or -ENOMEM/-ENOSPC.
 * dmaemu__irq_device_release(): driver unbind and destroy: a handler
 * still requested on a line of @d is a leaked-irq report (@when says
 * after what) and is freed.  dmaemu__irq_device_quiesce(): reset: lower
 * every line of @d and forget latched edges.  dmaemu__irq_device_del():
 * destroy, last: quiesce, release, wait for handlers in progress, free.
 * dmaemu__irq_is_handler_thread(): does the calling thread run handlers
 * of @m (the interrupt thread or a threaded handler's thread)?
 */
/*
 * kwork.c.  dmaemu__kwork_init()/_fini(): machine create/destroy (fini
 * after the devices are gone, since a driver's remove may cancel its
 * timers and work: it stops the worker thread and drops what is still
 * armed or queued); init returns 0 or -ENOMEM.
 */
int dmaemu__kwork_init(struct dmaemu_machine *m);
void dmaemu__kwork_fini(struct dmaemu_machine *m);

int dmaemu__irq_init(struct dmaemu_machine *m);
void dmaemu__irq_fini(struct dmaemu_machine *m);
int dmaemu__irq_device_add(struct dmaemu_device *d);
void dmaemu__irq_device_release(struct dmaemu_device *d, const char *when);
void dmaemu__irq_device_quiesce(struct dmaemu_device *d);
void dmaemu__irq_device_del(struct dmaemu_device *d);
bool dmaemu__irq_is_handler_thread(struct dmaemu_machine *m);
/* Start the interrupt thread of @m if needed and have it look at the
 * pending softirqs; 0 or -ENOMEM (the thread cannot start). */
int dmaemu__irq_kick_softirq(struct dmaemu_machine *m);

/*
 * softirq.c.  dmaemu__softirq_init()/_fini(): with the interrupt
 * controller (fini after its thread stopped: scheduled tasklets are
 * dropped); init returns 0 or -ENOMEM.  dmaemu__open_softirq(): the
 * action of vector @nr (process-wide; each layer opens its own).
 * dmaemu__raise_softirq(): mark @nr pending on @m and kick the interrupt
 * thread; 0 or -ENOMEM.  dmaemu__softirq_pending(): anything raised?
 * dmaemu__do_softirq(): the interrupt thread runs the pending vectors in
 * softirq context.
 */
typedef void (*dmaemu__softirq_action_t)(struct dmaemu_machine *m);
int dmaemu__softirq_init(struct dmaemu_machine *m);
void dmaemu__softirq_fini(struct dmaemu_machine *m);
void dmaemu__open_softirq(int nr, dmaemu__softirq_action_t action);
int dmaemu__raise_softirq(struct dmaemu_machine *m, int nr);
bool dmaemu__softirq_pending(struct dmaemu_machine *m);
void dmaemu__do_softirq(struct dmaemu_machine *m);

/*
 * platform.c.  dmaemu__platform_add(): at create, last: a device whose
 * model has a name joins the platform bus and is probed by a matching
 * driver; 0 or -ENOMEM.  dmaemu__platform_del(): at destroy, first: the
 * driver is unbound (remove()), the device leaves the bus.
 */
int dmaemu__platform_add(struct dmaemu_device *d);
void dmaemu__platform_del(struct dmaemu_device *d);
/* Hold off binding and unbinding of platform drivers (the bind lock,
 * outermost): dmaemu_device_bind() and _unbind() run under it.  Return:
 * whether it was taken (false: the calling thread holds it already, in a
 * driver's probe() or remove()); pass that to the unlock. */
bool dmaemu__platform_lock(void);
void dmaemu__platform_unlock(bool taken);
/* The physical address of @d's register window; 0: none. */
uint64_t dmaemu__regs_phys(const struct dmaemu_device *d);

#endif /* DMAEMU_LIB_BUS_H */
