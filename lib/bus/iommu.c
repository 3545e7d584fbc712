// SPDX-License-Identifier: MIT
/*
 * iommu.c - the IOMMU: a domain per device with its page table, page
 * permissions and privilege, the page-table walk that translates device
 * accesses, and faults; as Linux 4.14's IOMMU drivers with their page
 * tables: io-pgtable-arm.c behind an SMMU (profiles arm, arm64) and
 * intel-iommu.c (profile x86, Intel VT-d).  The IOVA allocator and the DMA
 * ops on top of it are the DMA layer's (dma/iommu.c, as dma-iommu.c).
 *
 * How it works.  Each device behind the IOMMU has a domain, made at its
 * first mapping (or by dmaemu_device_set_privileged()) and freed at device
 * destroy, after the bus clients gave back what the device held:
 *
 *   page table  four levels of 512 entries over the 36-bit page number of
 *               a 48-bit IOVA, like an ARM LPAE or VT-d table; a leaf
 *               entry holds the physical page, the permission bits and a
 *               tag the mapper chose (what the page belongs to, for fault
 *               reports):
 *
 *     63                              12  7     4    3     2     1    0
 *     [ physical page                  ][  tag  ][PRIV][WRITE][READ][V]
 *
 *   privilege   whether the device's accesses are privileged
 *               (dmaemu_device_set_privileged(); unprivileged by default)
 *   cookie      the DMA layer's state of the domain (its IOVA space), as
 *               Linux's iommu_dma_cookie: set and taken by the DMA layer,
 *               never looked into here
 *
 * dmaemu__iommu_domain_map() and _unmap() are iommu_map() and
 * iommu_unmap(); dmaemu__iommu_domain_run() and dmaemu__iommu_iova_to_phys()
 * are iommu_iova_to_phys() (the first also says how far the physical
 * pages run on contiguously).
 *
 * Permissions are what the 4.14 driver writes into its table (table_bits()):
 *
 *   requested (dma_info_to_prot(), arm's __dma_info_to_prot()):
 *     DMA_TO_DEVICE IOMMU_READ, DMA_FROM_DEVICE IOMMU_WRITE,
 *     DMA_BIDIRECTIONAL both, DMA_ATTR_PRIVILEGED adds IOMMU_PRIV;
 *   arm, arm64  arm_lpae_prot_to_pte(), stage 1: the only permission bit
 *               is AP_RDONLY, set for READ without WRITE; so every valid
 *               entry is readable: a FROM_DEVICE page is read/write, a
 *               TO_DEVICE page read-only; IOMMU_PRIV is kept (no AP_UNPRIV);
 *   x86         __intel_map_single(), intel_map_sg(): DMA_PTE_READ for
 *               TO_DEVICE and BIDIRECTIONAL (and for FROM_DEVICE only on a
 *               unit without zero-length-read support, cap_zlr(); ours has
 *               it), DMA_PTE_WRITE for FROM_DEVICE and BIDIRECTIONAL: a
 *               FROM_DEVICE page is write-only; the attributes are not
 *               looked at, so DMA_ATTR_PRIVILEGED changes nothing;
 *   iommu_strict=1  the requested bits as they are, on every profile:
 *               write-only FROM_DEVICE pages and privileged-only pages
 *               everywhere (stricter than 4.14 on arm, arm64 and x86).
 *
 * A device access (dmaemu__iommu_translate(), the bus translation of
 * dmaemu_dma_read/write with iommu=1) to an unmapped page or without the
 * permission is an iommu-fault report and -EFAULT / -EPERM; the report
 * names what the page belongs to through the machine's owner hook, which
 * the DMA layer installs (dmaemu__iommu_set_owner_fn()).
 *
 * Locking.  iommu->lock protects the list of domains; d->lock everything
 * in a domain.  Both are leaves: nothing else is taken while one is held
 * (the DMA layer calls in with none of its locks held), so the bus
 * translation may be called with any lock of the machine held.  Reports
 * are made after d->lock is dropped.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bus/bus.h"

#define IOVA_SHIFT DMAEMU__PAGE_SHIFT
#define IOVA_PAGE (1ULL << IOVA_SHIFT)
#define PFN_END (1ULL << (DMAEMU__IOMMU_IOVA_BITS - IOVA_SHIFT))

#define PT_BITS 9
#define PT_SIZE (1U << PT_BITS)
#define PT_LEVELS 4

#define PTE_VALID 0x1ULL
#define PTE_READ 0x2ULL
#define PTE_WRITE 0x4ULL
#define PTE_PRIV 0x8ULL
#define PTE_TAG_SHIFT 4
#define PTE_TAG_MASK ((1U << DMAEMU__IOMMU_TAG_BITS) - 1)
#define PTE_PHYS (~(IOVA_PAGE - 1))

/**
 * struct dmaemu__iommu_domain - the IOMMU context of one device.
 * @dev:        the device.
 * @m:          its machine.
 * @lock:       protects everything below.
 * @privileged: the device's accesses are privileged.
 * @root:       the page table's top level (NULL until the first mapping).
 * @cookie:     the DMA layer's state of the domain (NULL: none yet).
 * @pages:      pages mapped.  @faults: faults.
 * @tables:     page-table pages (statistics).
 * @next:       the machine's list of domains (iommu->lock).
 */
struct dmaemu__iommu_domain {
	struct device *dev;
	struct dmaemu_machine *m;
	pthread_mutex_t lock;
	bool privileged;
	void **root;
	void *cookie;
	uint64_t pages, faults, tables;
	struct dmaemu__iommu_domain *next;
};

/* The IOMMU of a machine: its domains, under @lock. */
struct dmaemu__iommu {
	pthread_mutex_t lock;
	struct dmaemu__iommu_domain *domains;
};

static const char *dev_label(const struct device *dev)
{
	return dev->init_name ? dev->init_name : "?";
}

/* ---------------------------------------------------------------------- */
/* Page table                                                             */
/* ---------------------------------------------------------------------- */

static unsigned int pt_index(uint64_t pfn, unsigned int level)
{
	return (unsigned int)(pfn >> (PT_BITS * (PT_LEVELS - 1 - level))) &
	       (PT_SIZE - 1);
}

/*
 * The leaf entry of @pfn; with @make, missing tables are made.  Return:
 * NULL when absent (or out of host memory with @make).  d->lock held.
 */
static uint64_t *pte_of(struct dmaemu__iommu_domain *d, uint64_t pfn, bool make)
{
	void **t;
	unsigned int level;

	if (!d->root) {
		if (!make)
			return NULL;
		d->root = dmaemu__calloc(PT_SIZE, sizeof(void *));
		if (!d->root)
			return NULL;
		d->tables++;
	}
	t = d->root;
	for (level = 0; level < PT_LEVELS - 1; level++) {
		void **next = t[pt_index(pfn, level)];

		if (!next) {
			if (!make)
				return NULL;
			/* Leaves are uint64_t entries, tables pointers:
			 * both 8 bytes. */
			next = dmaemu__calloc(PT_SIZE, sizeof(void *));
			if (!next)
				return NULL;
			t[pt_index(pfn, level)] = next;
			d->tables++;
		}
		t = next;
	}
	return (uint64_t *)t + pt_index(pfn, PT_LEVELS - 1);
}

static uint64_t pte_get(struct dmaemu__iommu_domain *d, uint64_t pfn)
{
	uint64_t *p = pfn < PFN_END ? pte_of(d, pfn, false) : NULL;

	return p ? *p : 0;
}

static void pt_free(void **t, unsigned int level)
{
	unsigned int i;

	if (!t)
		return;
	if (level < PT_LEVELS - 1)
		for (i = 0; i < PT_SIZE; i++)
			pt_free(t[i], level + 1);
	dmaemu__free(t);
}

/* Clear the entries of [@lo, @lo + @n).  d->lock held. */
static void pt_clear(struct dmaemu__iommu_domain *d, uint64_t lo, uint64_t n)
{
	uint64_t i;

	for (i = 0; i < n; i++) {
		uint64_t *p = pte_of(d, lo + i, false);

		if (p && (*p & PTE_VALID)) {
			*p = 0;
			d->pages--;
		}
	}
}

/* Set the entry of @pfn to @val (a valid entry).  d->lock held.  Return:
 * false when out of host memory for a table. */
static bool pte_set(struct dmaemu__iommu_domain *d, uint64_t pfn, uint64_t val)
{
	uint64_t *p = pte_of(d, pfn, true);

	if (!p)
		return false;
	if (!(*p & PTE_VALID))
		d->pages++;
	*p = val;
	return true;
}

/*
 * What the 4.14 driver writes into its page table for the requested
 * @prot (PTE_READ, PTE_WRITE, PTE_PRIV); see the top of the file.
 */
static uint64_t table_bits(const struct dmaemu_machine *m, uint64_t prot)
{
	if (m->opt.iommu_strict || !(prot & (PTE_READ | PTE_WRITE)))
		return prot;
	if (m->opt.profile == DMAEMU__PROFILE_X86)
		/* __intel_map_single(), intel_map_sg(): DMA_PTE_READ and
		 * DMA_PTE_WRITE by direction (a ZLR-capable unit); attrs,
		 * and so IOMMU_PRIV, are not looked at. */
		return prot & (PTE_READ | PTE_WRITE);
	/* arm_lpae_prot_to_pte(), stage 1: AP_RDONLY for READ without
	 * WRITE; nothing can take the read away from a valid entry. */
	return prot | PTE_READ;
}

/* What an access needs of an entry (pte_check()). */
enum access {
	ACC_READ,  /* a device read */
	ACC_WRITE, /* a device write */
	ACC_ANY,   /* the kernel's look-up: a valid entry */
};

/* Is @pte usable for @acc?  0, or the error of the fault. */
static int pte_check(uint64_t pte, enum access acc, bool privileged)
{
	if (!(pte & PTE_VALID))
		return -EFAULT;
	if (acc == ACC_ANY)
		return 0;
	if (!(pte & (acc == ACC_WRITE ? PTE_WRITE : PTE_READ)))
		return -EPERM;
	if ((pte & PTE_PRIV) && !privileged)
		return -EPERM;
	return 0;
}

/*
 * How many bytes from @addr (at most @len) the pages from the one of
 * @first on map contiguously and usably for @acc; @first (the entry of
 * @addr's page) is usable.  *@phys: the physical address of @addr.
 * d->lock held.
 */
static size_t pt_run(struct dmaemu__iommu_domain *d, uint64_t first,
		     dma_addr_t addr, size_t len, enum access acc,
		     uint64_t *phys)
{
	uint64_t p = (first & PTE_PHYS) + (addr & (IOVA_PAGE - 1));
	size_t run = IOVA_PAGE - (addr & (IOVA_PAGE - 1));

	if (run > len)
		run = len;
	/* Further pages join while usable and physically contiguous; a
	 * page that is not usable is the next call's (for a device access,
	 * the next call's fault). */
	while (run < len) {
		uint64_t next = pte_get(d, (addr + run) >> IOVA_SHIFT);

		if (pte_check(next, acc, d->privileged) ||
		    (next & PTE_PHYS) != p + run)
			break;
		run += len - run < IOVA_PAGE ? len - run : IOVA_PAGE;
	}
	*phys = p;
	return run;
}

/* ---------------------------------------------------------------------- */
/* Domains                                                                */
/* ---------------------------------------------------------------------- */

static struct dmaemu__iommu *iommu_state(struct dmaemu_machine *m)
{
	struct dmaemu__iommu *io = __atomic_load_n(&m->iommu, __ATOMIC_ACQUIRE);

	if (io)
		return io;
	dmaemu__lock(&m->lock);
	io = m->iommu;
	if (!io) {
		io = dmaemu__calloc(1, sizeof(*io));
		if (io && dmaemu__mutex_init(&io->lock)) {
			dmaemu__free(io);
			io = NULL;
		}
		if (io) {
			/* Readers that found @io without m->lock take
			 * io->lock first: this pair orders them after the
			 * set-up. */
			dmaemu__lock(&io->lock);
			dmaemu__unlock(&io->lock);
			dmaemu__vg_atomic(&m->iommu, sizeof(m->iommu));
			__atomic_store_n(&m->iommu, io, __ATOMIC_RELEASE);
		}
	}
	dmaemu__unlock(&m->lock);
	return io;
}

/* Free @d, which is off the list and has no users left. */
static void domain_free(struct dmaemu__iommu_domain *d)
{
	/* The DMA layer takes its cookie back at device release, before
	 * the domain goes (dmaemu__iommu_device_release()). */
	if (d->cookie)
		abort();
	pt_free(d->root, 0);
	pthread_mutex_destroy(&d->lock);
	dmaemu__free(d);
}

/**
 * dmaemu__iommu_get_domain() - the domain of @dev (iommu_get_domain_for_dev()).
 * @m:    @dev's machine.
 * @dev:  a live device.
 * @make: make it when missing.
 *
 * The domain lives until @dev is destroyed.
 *
 * Return: the domain; NULL when there is none (or out of host memory).
 */
struct dmaemu__iommu_domain *dmaemu__iommu_get_domain(struct dmaemu_machine *m,
						      struct device *dev,
						      bool make)
{
	struct dmaemu__iommu *io =
		make ? iommu_state(m)
		     : __atomic_load_n(&m->iommu, __ATOMIC_ACQUIRE);
	struct dmaemu__iommu_domain *d;

	if (!io)
		return NULL;
	dmaemu__lock(&io->lock);
	for (d = io->domains; d; d = d->next)
		if (d->dev == dev)
			break;
	if (d || !make)
		goto out;
	d = dmaemu__calloc(1, sizeof(*d));
	if (!d || dmaemu__mutex_init(&d->lock)) {
		dmaemu__free(d);
		d = NULL;
		goto out;
	}
	d->dev = dev;
	d->m = m;
	/* Order users that find @d under io->lock and then take d->lock
	 * after the set-up above. */
	dmaemu__lock(&d->lock);
	dmaemu__unlock(&d->lock);
	d->next = io->domains;
	io->domains = d;
out:
	dmaemu__unlock(&io->lock);
	return d;
}

/**
 * dmaemu__iommu_domain_map() - map [@iova, +@size) to the physically
 * contiguous [@phys, +@size), as iommu_map().
 * @d:    the domain.
 * @iova: first bus address (page-aligned).
 * @phys: first physical address (page-aligned).
 * @size: bytes, a whole number of pages.
 * @prot: the permissions requested, DMAEMU__IOMMU_READ, _WRITE, _PRIV;
 *        the entries keep what the page-table format can express.
 * @tag:  what the pages belong to (DMAEMU__IOMMU_TAG_BITS bits), for the
 *        owner hook of fault reports.
 *
 * Pages mapped already are overwritten.
 *
 * Return: 0; -ENOMEM (out of host memory for a table) or -ERANGE (beyond
 * the IOVA space), with nothing of the range mapped.
 */
int dmaemu__iommu_domain_map(struct dmaemu__iommu_domain *d, dma_addr_t iova,
			     uint64_t phys, size_t size, int prot,
			     unsigned int tag)
{
	uint64_t lo = iova >> IOVA_SHIFT, n = size >> IOVA_SHIFT, i, bits = 0;

	if (lo >= PFN_END || n > PFN_END - lo)
		return -ERANGE;
	if (prot & DMAEMU__IOMMU_READ)
		bits |= PTE_READ;
	if (prot & DMAEMU__IOMMU_WRITE)
		bits |= PTE_WRITE;
	if (prot & DMAEMU__IOMMU_PRIV)
		bits |= PTE_PRIV;
	bits = table_bits(d->m, bits) | PTE_VALID |
	       ((uint64_t)(tag & PTE_TAG_MASK) << PTE_TAG_SHIFT);
	phys &= PTE_PHYS;
	dmaemu__lock(&d->lock);
	for (i = 0; i < n; i++) {
		if (!pte_set(d, lo + i, (phys + (i << IOVA_SHIFT)) | bits)) {
			pt_clear(d, lo, i);
			dmaemu__unlock(&d->lock);
			return -ENOMEM;
		}
	}
	dmaemu__unlock(&d->lock);
	return 0;
}

/**
 * dmaemu__iommu_domain_unmap() - unmap the pages of [@iova, +@size), as
 * iommu_unmap(); pages not mapped are left alone.
 */
void dmaemu__iommu_domain_unmap(struct dmaemu__iommu_domain *d, dma_addr_t iova,
				size_t size)
{
	uint64_t lo = iova >> IOVA_SHIFT;
	uint64_t n =
		((iova & (IOVA_PAGE - 1)) + size + IOVA_PAGE - 1) >> IOVA_SHIFT;

	if (lo >= PFN_END)
		return;
	if (n > PFN_END - lo)
		n = PFN_END - lo;
	dmaemu__lock(&d->lock);
	pt_clear(d, lo, n);
	dmaemu__unlock(&d->lock);
}

/**
 * dmaemu__iommu_domain_run() - what @iova maps to, and for how long the
 * mapping stays physically contiguous (iommu_iova_to_phys() over a range).
 * @d:    the domain.
 * @iova: a bus address.
 * @len:  bytes wanted from @iova.
 * @phys: the physical address of @iova.
 *
 * Return: how many bytes from @iova (at most @len) are mapped to
 * [*@phys, +that); 0 when @iova's page is not mapped (or @len is 0).
 */
size_t dmaemu__iommu_domain_run(struct dmaemu__iommu_domain *d, dma_addr_t iova,
				size_t len, uint64_t *phys)
{
	uint64_t pte;
	size_t run = 0;

	if (!len)
		return 0;
	dmaemu__lock(&d->lock);
	pte = pte_get(d, iova >> IOVA_SHIFT);
	if (pte & PTE_VALID)
		run = pt_run(d, pte, iova, len, ACC_ANY, phys);
	dmaemu__unlock(&d->lock);
	return run;
}

/**
 * dmaemu__iommu_cookie() - the DMA layer's state of @d, or NULL (as
 * domain->iova_cookie).
 */
void *dmaemu__iommu_cookie(struct dmaemu__iommu_domain *d)
{
	void *c;

	dmaemu__lock(&d->lock);
	c = d->cookie;
	dmaemu__unlock(&d->lock);
	return c;
}

/**
 * dmaemu__iommu_set_cookie() - set the DMA layer's state of @d to @c
 * unless another thread set one first.
 *
 * Return: the cookie in place: @c, or the one set first (the caller frees
 * its @c).
 */
void *dmaemu__iommu_set_cookie(struct dmaemu__iommu_domain *d, void *c)
{
	dmaemu__lock(&d->lock);
	if (!d->cookie)
		d->cookie = c;
	c = d->cookie;
	dmaemu__unlock(&d->lock);
	return c;
}

/**
 * dmaemu__iommu_take_cookie() - take the DMA layer's state of @d away
 * (device release).  Return: it, or NULL when there was none.
 */
void *dmaemu__iommu_take_cookie(struct dmaemu__iommu_domain *d)
{
	void *c;

	dmaemu__lock(&d->lock);
	c = d->cookie;
	d->cookie = NULL;
	dmaemu__unlock(&d->lock);
	return c;
}

/**
 * dmaemu__iommu_domain_info() - the page table's side of @d's statistics.
 */
void dmaemu__iommu_domain_info(struct dmaemu__iommu_domain *d,
			       struct dmaemu__iommu_pt_stats *st)
{
	dmaemu__lock(&d->lock);
	st->pages = d->pages;
	st->faults = d->faults;
	st->tables = d->tables;
	st->privileged = d->privileged;
	dmaemu__unlock(&d->lock);
}

/**
 * dmaemu_device_set_privileged() - make @dev's DMA accesses privileged (or
 * not): with the IOMMU on, only privileged accesses reach mappings made
 * with DMA_ATTR_PRIVILEGED.
 *
 * Return: 0; -EINVAL for a NULL device; -ENOMEM.
 */
int dmaemu_device_set_privileged(struct dmaemu_device *ddev, bool privileged)
{
	struct dmaemu__iommu_domain *d;
	struct dmaemu_machine *m;

	if (!ddev)
		return -EINVAL;
	/* A device that is not live: reported by dmaemu_device_machine(). */
	m = dmaemu_device_machine(ddev);
	if (!m)
		return -EINVAL;
	d = dmaemu__iommu_get_domain(m, dmaemu_device_to_dev(ddev), true);
	if (!d)
		return -ENOMEM;
	dmaemu__lock(&d->lock);
	d->privileged = privileged;
	dmaemu__unlock(&d->lock);
	return 0;
}

/* ---------------------------------------------------------------------- */
/* Device side                                                            */
/* ---------------------------------------------------------------------- */

/**
 * dmaemu__iommu_set_owner_fn() - install the hook that names, in fault
 * reports, what a page with a given tag belongs to (machine create,
 * before any device exists).
 */
void dmaemu__iommu_set_owner_fn(struct dmaemu_machine *m,
				dmaemu__iommu_owner_fn fn)
{
	m->iommu_owner = fn;
}

static int fault(struct dmaemu_machine *m, struct device *dev,
		 struct dmaemu__iommu_domain *d, dma_addr_t addr, size_t len,
		 bool write, uint64_t pte, int err)
{
	struct dmaemu__report_info r = {.kind = DMAEMU_REPORT_IOMMU_FAULT,
					.device = dev_label(dev)};
	const char *acc = write ? "write" : "read";
	uint64_t phys = (pte & PTE_PHYS) + (addr & (IOVA_PAGE - 1));
	unsigned int tag = (unsigned int)(pte >> PTE_TAG_SHIFT) & PTE_TAG_MASK;
	/* The mapping once there (unmapped), the driver's line. */
	struct dmaemu__fault_facts *f = dmaemu__malloc(sizeof(*f));
	const char *facts = "";
	char what[160];

	if (d) {
		dmaemu__lock(&d->lock);
		d->faults++;
		dmaemu__unlock(&d->lock);
	}
	if (f) {
		dmaemu__bus_fault_facts(dev, addr, !(pte & PTE_VALID), f);
		dmaemu__bus_fault_fields(f, &r);
		facts = f->text;
	}
	if (!(pte & PTE_VALID)) {
		dmaemu__report(m, &r,
			       "device %s %s of %zu bytes at IOVA 0x%llx: the "
			       "page is not mapped (never mapped, or unmapped "
			       "already); the access is blocked%s",
			       dev_label(dev), acc, len,
			       (unsigned long long)addr, facts);
		dmaemu__free(f);
		return err;
	}
	if (m->iommu_owner)
		m->iommu_owner(tag, what, sizeof(what));
	else
		snprintf(what, sizeof(what), "a mapping");
	r.phys = phys;
	r.size = len;
	if (!(pte & (write ? PTE_WRITE : PTE_READ)))
		dmaemu__report(
			m, &r,
			"device %s %s of %zu bytes at IOVA 0x%llx "
			"(phys 0x%llx): the page belongs to %s, mapped "
			"%s only%s; the access is blocked%s",
			dev_label(dev), acc, len, (unsigned long long)addr,
			(unsigned long long)phys, what,
			(pte & PTE_READ)
				? "IOMMU_READ: the device may read it"
				: "IOMMU_WRITE: the device may write it",
			(pte & PTE_READ) ? ""
			: m->opt.iommu_strict
				? " (iommu_strict=1; 4.14 on an arm SMMU "
				  "would allow the read)"
				: " (as VT-d maps DMA_FROM_DEVICE)",
			facts);
	else
		dmaemu__report(m, &r,
			       "device %s %s of %zu bytes at IOVA 0x%llx "
			       "(phys 0x%llx): the page belongs to %s made "
			       "with DMA_ATTR_PRIVILEGED and the device's "
			       "accesses are unprivileged; the access is "
			       "blocked%s",
			       dev_label(dev), acc, len,
			       (unsigned long long)addr,
			       (unsigned long long)phys, what, facts);
	dmaemu__free(f);
	return err;
}

/**
 * dmaemu__iommu_translate() - the bus translation of a machine with the
 * IOMMU on (see dmaemu__bus_translate() in bus.h): the page-table walk of
 * @dev's domain, with the permission and privilege checks.
 *
 * Return: 0; -EFAULT (unmapped) or -EPERM (permission, privilege) after
 * an iommu-fault report.
 */
int dmaemu__iommu_translate(struct dmaemu_machine *m, struct device *dev,
			    dma_addr_t addr, size_t len, bool write,
			    uint64_t *phys, size_t *contig)
{
	struct dmaemu__iommu_domain *d =
		dmaemu__iommu_get_domain(m, dev, false);
	enum access acc = write ? ACC_WRITE : ACC_READ;
	uint64_t pte = 0;
	int err;

	if (!d || !len || addr + len - 1 < addr)
		return fault(m, dev, d, addr, len, write, 0, -EFAULT);
	dmaemu__lock(&d->lock);
	pte = pte_get(d, addr >> IOVA_SHIFT);
	err = pte_check(pte, acc, d->privileged);
	if (err) {
		dmaemu__unlock(&d->lock);
		return fault(m, dev, d, addr, len, write, pte, err);
	}
	*contig = pt_run(d, pte, addr, len, acc, phys);
	dmaemu__unlock(&d->lock);
	return 0;
}

/**
 * dmaemu__iommu_iova_to_phys() - what the IOMMU maps @iova of @dev to, as
 * iommu_iova_to_phys().  Return: the physical address, or UINT64_MAX.
 */
uint64_t dmaemu__iommu_iova_to_phys(struct device *dev, dma_addr_t iova)
{
	struct dmaemu_machine *m = dev ? dmaemu__dev_machine(dev) : NULL;
	struct dmaemu__iommu_domain *d =
		m ? dmaemu__iommu_get_domain(m, dev, false) : NULL;
	uint64_t phys;

	if (!d || !dmaemu__iommu_domain_run(d, iova, 1, &phys))
		return UINT64_MAX;
	return phys;
}

/* ---------------------------------------------------------------------- */
/* Teardown                                                               */
/* ---------------------------------------------------------------------- */

/**
 * dmaemu__iommu_device_release() - forget @dev's domain (device destroy,
 * after the bus clients gave back what the device held, the DMA layer's
 * cookie included).
 */
void dmaemu__iommu_device_release(struct device *dev)
{
	struct dmaemu_machine *m = dev ? dmaemu__dev_machine(dev) : NULL;
	struct dmaemu__iommu *io =
		m ? __atomic_load_n(&m->iommu, __ATOMIC_ACQUIRE) : NULL;
	struct dmaemu__iommu_domain **pp, *d = NULL;

	if (!io)
		return;
	dmaemu__lock(&io->lock);
	for (pp = &io->domains; *pp; pp = &(*pp)->next) {
		if ((*pp)->dev == dev) {
			d = *pp;
			*pp = d->next;
			break;
		}
	}
	dmaemu__unlock(&io->lock);
	if (d) {
		/* Taken once so the free follows every user's unlock. */
		dmaemu__lock(&d->lock);
		dmaemu__unlock(&d->lock);
		domain_free(d);
	}
}

/** dmaemu__iommu_fini() - free @m's IOMMU state (machine destroy). */
void dmaemu__iommu_fini(struct dmaemu_machine *m)
{
	struct dmaemu__iommu *io = m->iommu;
	struct dmaemu__iommu_domain *d, *next;

	if (!io)
		return;
	for (d = io->domains; d; d = next) {
		next = d->next;
		domain_free(d);
	}
	pthread_mutex_destroy(&io->lock);
	dmaemu__free(io);
	m->iommu = NULL;
}
