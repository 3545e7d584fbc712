// SPDX-License-Identifier: MIT
/*
 * physmem.c - emulated DRAM: banks, the host views of each bank, address
 * classification and the struct page arrays.
 *
 * How it works.  Each bank of emulated DRAM has three host copies (MEM,
 * CPU, TWIN; see docs/model.md) and is seen through several host views
 * (the mapping types of 2.2).  All views of one machine live in ONE host
 * reservation, cut into equal slots of 2^slot_shift bytes:
 *
 *   resv                                                          resv_size
 *   | bank0: LINEAR | UNCACHED | WC | NOMAP | TWIN | bank1: ... | MMIO |
 *     (CPU copy)     (MEM)      (MEM  (PROT_  (anon)               (PROT_
 *      anon          memfd)     again) NONE)                        NONE)
 *
 * A slot is the power of two at or above twice the largest bank (plus the
 * views' skews, below), so the upper part of every slot is a PROT_NONE
 * guard: running off the end of the linear map faults instead of writing
 * into another view.  Each view starts at a small skew into its slot.  MEM is a
 * memfd mapped shared, which lets the same pages appear a second time as
 * the write-combining alias; the MEM view itself doubles as the uncached
 * alias.  The CPU copy is a second memfd mapped shared, so that vmalloc()
 * can map its pages again, scattered pages side by side, in the vmalloc
 * slot (one slot before the MMIO window): classify finds their physical
 * addresses in vmap_phys.  TWIN is a private anonymous mapping.  Everything is
 * MAP_NORESERVE and starts zero-filled, so untouched memory costs no host
 * memory and the three copies start out equal.
 *
 * Classifying a host address is then one subtraction and compare (is it in
 * this machine's reservation?), one shift (which slot?) and one compare
 * (below the bank size, or in the guard?).
 *
 * The hardware's aliases.  MEM and the CPU copy are mapped once more each,
 * outside the reservation (dev_mem, dev_cpu): a device's reads and writes
 * of DRAM, and the model's copies that stand for the hardware, go through
 * them.  Helgrind, DRD and TSan know memory by its address, so the device
 * thread's copy into a descriptor and the driver's READ_ONCE() of it
 * through the uncached view are two unrelated addresses to them: the
 * emulated hardware's accesses are never a data race of the program,
 * while two driver threads that share a word of emulated memory without a
 * lock still are.  Under Memcheck the devices use the drivers' views,
 * whose bytes' definedness is what Memcheck checks.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/mm_types.h>

#include "mem/mem.h"

/* Views in slot order inside one bank's area. */
static const enum dmaemu__region bank_views[DMAEMU__VIEWS_PER_BANK] = {
	DMAEMU__REGION_LINEAR, DMAEMU__REGION_UNCACHED, DMAEMU__REGION_WC,
	DMAEMU__REGION_NOMAP,  DMAEMU__REGION_TWIN,
};

static unsigned int ilog2_ceil(uint64_t v)
{
	unsigned int s = 0;

	while ((1ULL << s) < v)
		s++;
	return s;
}

static uint8_t *slot_base(struct dmaemu_machine *m, unsigned int i)
{
	return m->resv + ((size_t)i << m->slot_shift);
}

/*
 * Each view starts a little past its slot's base, at an offset of its
 * own: the CPU, TWIN and MEM copies of a line that a clean reads and
 * writes together then differ in address bits 12-27.  At equal bits there
 * (slots are powers of two), hosts whose L1 tags lines by a hash of the
 * linear address (AMD Zen) or whose store forwarding compares bits 0-11
 * (4 KiB aliasing) evicted or stalled one copy for another: a 4 KiB clean
 * cost four times as much.  Bits 12 and 16 (68 KiB) change from one view
 * to the next.
 */
#define VIEW_SKEW 0x11000ULL

static uint64_t view_skew(unsigned int v)
{
	return (uint64_t)v * VIEW_SKEW;
}

/* Map the memfd-backed or anonymous views of bank @b at slots @first... */
static int map_bank(struct dmaemu_machine *m, struct dmaemu__bank *b,
		    unsigned int first, unsigned int index)
{
	char name[32];
	unsigned int v;
	uint64_t p, npages = b->size >> DMAEMU__PAGE_SHIFT;

	snprintf(name, sizeof(name), "dmaemu-bank%u", index);
	b->memfd = dmaemu__memfd_create(name, MFD_CLOEXEC);
	if (b->memfd < 0)
		return -errno;
	if (ftruncate(b->memfd, (off_t)b->size) < 0)
		return -errno;
	snprintf(name, sizeof(name), "dmaemu-cpu%u", index);
	b->cpufd = dmaemu__memfd_create(name, MFD_CLOEXEC);
	if (b->cpufd < 0)
		return -errno;
	if (ftruncate(b->cpufd, (off_t)b->size) < 0)
		return -errno;

	for (v = 0; v < DMAEMU__VIEWS_PER_BANK; v++) {
		uint8_t *base = slot_base(m, first + v) + view_skew(v);
		void *p2 = base;

		m->slot[first + v].skew = view_skew(v);
		m->slot[first + v].region = bank_views[v];
		m->slot[first + v].bank = b;
		switch (bank_views[v]) {
		case DMAEMU__REGION_LINEAR:
			p2 = dmaemu__mmap(base, b->size, PROT_READ | PROT_WRITE,
					  MAP_SHARED | MAP_FIXED |
						  MAP_NORESERVE,
					  b->cpufd, 0);
			break;
		case DMAEMU__REGION_TWIN:
			p2 = dmaemu__mmap(base, b->size, PROT_READ | PROT_WRITE,
					  MAP_PRIVATE | MAP_ANONYMOUS |
						  MAP_FIXED | MAP_NORESERVE,
					  -1, 0);
			break;
		case DMAEMU__REGION_UNCACHED:
		case DMAEMU__REGION_WC:
			p2 = dmaemu__mmap(base, b->size, PROT_READ | PROT_WRITE,
					  MAP_SHARED | MAP_FIXED, b->memfd, 0);
			break;
		default:
			/* NOMAP: the reservation's PROT_NONE stays. */
			break;
		}
		if (p2 == MAP_FAILED)
			return -errno;
		switch (bank_views[v]) {
		case DMAEMU__REGION_LINEAR:
			b->cpu = base;
			break;
		case DMAEMU__REGION_UNCACHED:
			b->mem = base;
			break;
		case DMAEMU__REGION_WC:
			b->wc = base;
			break;
		case DMAEMU__REGION_NOMAP:
			b->nomap = base;
			break;
		case DMAEMU__REGION_TWIN:
			b->twin = base;
			break;
		default:
			break;
		}
	}

	/* The hardware's aliases of MEM and of the CPU copy (above). */
	b->dev_mem = dmaemu__mmap(NULL, b->size, PROT_READ | PROT_WRITE,
				  MAP_SHARED | MAP_NORESERVE, b->memfd, 0);
	if (b->dev_mem == MAP_FAILED) {
		b->dev_mem = NULL;
		return -errno;
	}
	b->dev_cpu = dmaemu__mmap(NULL, b->size, PROT_READ | PROT_WRITE,
				  MAP_SHARED | MAP_NORESERVE, b->cpufd, 0);
	if (b->dev_cpu == MAP_FAILED) {
		b->dev_cpu = NULL;
		return -errno;
	}

	/* Outside emulated DRAM, so neither drivers nor devices reach it. */
	b->pages = dmaemu__calloc(npages, sizeof(*b->pages));
	if (!b->pages)
		return -ENOMEM;
	for (p = 0; p < npages; p++) {
		b->pages[p].phys = b->phys + (p << DMAEMU__PAGE_SHIFT);
		b->pages[p].bank = b;
	}
	return 0;
}

/**
 * dmaemu__physmem_init() - reserve and map every view of every bank.
 * @m: machine with its options set.
 *
 * Return: 0, or a negative errno from the host (ENOMEM: no address space).
 * On failure, dmaemu__physmem_fini() undoes what was done.
 */
int dmaemu__physmem_init(struct dmaemu_machine *m)
{
	const struct dmaemu__options *o = &m->opt;
	uint64_t biggest = DMAEMU__MMIO_SIZE;
	unsigned int i;
	void *r;
	int ret;

	dmaemu__vg_atomic(&dmaemu__mem_gen, sizeof(dmaemu__mem_gen));
	dmaemu__vg_atomic(&dmaemu__mem_dgen, sizeof(dmaemu__mem_dgen));
	for (i = 0; i < DMAEMU__MAX_BANKS; i++)
		m->bank[i].memfd = m->bank[i].cpufd = -1;
	m->nbanks = 0;
	m->bank[m->nbanks].phys = o->mem_base;
	m->bank[m->nbanks++].size = o->mem;
	if (o->highmem) {
		m->bank[m->nbanks].phys = o->highmem_base;
		m->bank[m->nbanks++].size = o->highmem;
	}
	for (i = 0; i < m->nbanks; i++)
		if (m->bank[i].size > biggest)
			biggest = m->bank[i].size;

	/* Banks are at least 1 MiB (mem >= 1M): the skews (at most 4 *
	 * 68 KiB) leave a guard in every slot. */
	m->slot_shift = ilog2_ceil(biggest) + 1;
	m->nslots = m->nbanks * DMAEMU__VIEWS_PER_BANK + 2;
	m->resv_size = (size_t)m->nslots << m->slot_shift;
	r = dmaemu__mmap(NULL, m->resv_size, PROT_NONE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (r == MAP_FAILED) {
		m->resv = NULL;
		return -errno;
	}
	m->resv = r;

	for (i = 0; i < m->nbanks; i++) {
		ret = map_bank(m, &m->bank[i], i * DMAEMU__VIEWS_PER_BANK, i);
		if (ret < 0)
			return ret;
	}
	/* The vmalloc area: PROT_NONE until vmalloc() maps pages there. */
	m->slot[m->nslots - 2].region = DMAEMU__REGION_VMALLOC;
	m->slot[m->nslots - 2].bank = NULL;
	m->vmap = slot_base(m, m->nslots - 2);
	m->vmap_size = (size_t)1 << m->slot_shift;
	m->vmap_phys = dmaemu__calloc(m->vmap_size >> DMAEMU__PAGE_SHIFT,
				      sizeof(*m->vmap_phys));
	if (!m->vmap_phys)
		return -ENOMEM;
	m->slot[m->nslots - 1].region = DMAEMU__REGION_MMIO;
	m->slot[m->nslots - 1].bank = NULL;
	m->mmio = slot_base(m, m->nslots - 1);
	m->mmio_size = DMAEMU__MMIO_SIZE;
	if (dmaemu__store_sites_init(m))
		return -ENOMEM;
	return dmaemu__owner_stores_init(m);
}

/**
 * dmaemu__physmem_fini() - unmap the views, free the struct page arrays.
 * @m: machine (physmem may be partly initialised).
 */
void dmaemu__physmem_fini(struct dmaemu_machine *m)
{
	unsigned int i;

	dmaemu__owner_stores_fini(m);
	dmaemu__store_sites_fini(m);
	for (i = 0; i < DMAEMU__MAX_BANKS; i++) {
		struct dmaemu__bank *b = &m->bank[i];

		dmaemu__free(b->pages);
		b->pages = NULL;
		if (b->memfd >= 0)
			close(b->memfd);
		if (b->cpufd >= 0)
			close(b->cpufd);
		b->memfd = b->cpufd = -1;
		if (b->dev_mem)
			munmap(b->dev_mem, b->size);
		if (b->dev_cpu)
			munmap(b->dev_cpu, b->size);
		b->mem = b->cpu = b->twin = b->wc = b->nomap = NULL;
		b->dev_mem = b->dev_cpu = NULL;
	}
	dmaemu__free(m->vmap_phys);
	m->vmap_phys = NULL;
	m->vmap = NULL;
	if (m->resv)
		munmap(m->resv, m->resv_size);
	m->resv = NULL;
	m->mmio = NULL;
}

/**
 * dmaemu__classify() - what a host address is.
 * @addr: any address.
 * @w:    result; for addresses outside every machine only ->region is set
 *        (DMAEMU__REGION_NONE).
 *
 * Cost: two compares for an address outside every machine's reservation;
 * otherwise a scan of the live machines (usually one) and a shift.
 *
 * Return: true when @addr is inside a view of a machine.  An address in a
 * guard or an unused part of the MMIO window returns false, with ->m set.
 */
bool dmaemu__classify(const void *addr, struct dmaemu__where *w)
{
	struct dmaemu_machine *m;
	const struct dmaemu__slot *s;
	uintptr_t off;
	uint64_t in;

	w->region = DMAEMU__REGION_NONE;
	w->m = NULL;
	w->bank = NULL;
	w->phys = 0;
	if (!dmaemu__in_span(addr))
		return false;
	m = dmaemu__machine_of_addr(addr);
	if (!m)
		return false;
	w->m = m;
	off = (uintptr_t)addr - (uintptr_t)m->resv;
	s = &m->slot[off >> m->slot_shift];
	in = off & (((uintptr_t)1 << m->slot_shift) - 1);
	if (s->region == DMAEMU__REGION_MMIO) {
		if (in >= m->mmio_size)
			return false;
		w->region = DMAEMU__REGION_MMIO;
		w->phys = in;
		return true;
	}
	if (s->region == DMAEMU__REGION_VMALLOC) {
		uint64_t phys =
			__atomic_load_n(&m->vmap_phys[in >> DMAEMU__PAGE_SHIFT],
					__ATOMIC_ACQUIRE);

		if (!phys)
			return false;
		w->region = DMAEMU__REGION_VMALLOC;
		w->phys = phys + (in & (DMAEMU__PAGE_SIZE - 1));
		w->bank = dmaemu__bank_of_phys(m, w->phys, 1);
		return true;
	}
	in -= s->skew; /* below the skew: wraps, above any bank size */
	if (!s->bank || in >= s->bank->size)
		return false;
	w->region = s->region;
	w->bank = s->bank;
	w->phys = s->bank->phys + in;
	return true;
}

uint8_t *dmaemu__phys_view(struct dmaemu_machine *m, uint64_t phys,
			   enum dmaemu__region view)
{
	struct dmaemu__bank *b = dmaemu__bank_of_phys(m, phys, 1);
	uint64_t off;

	if (!b)
		return NULL;
	off = phys - b->phys;
	switch (view) {
	case DMAEMU__REGION_LINEAR:
		return b->cpu + off;
	case DMAEMU__REGION_UNCACHED:
		return b->mem + off;
	case DMAEMU__REGION_WC:
		return b->wc + off;
	case DMAEMU__REGION_NOMAP:
		return b->nomap + off;
	case DMAEMU__REGION_TWIN:
		return b->twin + off;
	default:
		return NULL;
	}
}

uint8_t *dmaemu__phys_mem(struct dmaemu_machine *m, uint64_t phys)
{
	return dmaemu__phys_view(m, phys, DMAEMU__REGION_UNCACHED);
}

uint8_t *dmaemu__phys_cpu(struct dmaemu_machine *m, uint64_t phys)
{
	return dmaemu__phys_view(m, phys, DMAEMU__REGION_LINEAR);
}

uint8_t *dmaemu__phys_twin(struct dmaemu_machine *m, uint64_t phys)
{
	return dmaemu__phys_view(m, phys, DMAEMU__REGION_TWIN);
}

/* Under Memcheck, the views drivers use: their bytes' definedness is
 * what Memcheck checks (base.h), and it keeps it per address. */
uint8_t *dmaemu__phys_dev_mem(struct dmaemu_machine *m, uint64_t phys)
{
	struct dmaemu__bank *b = dmaemu__bank_of_phys(m, phys, 1);

	if (!b)
		return NULL;
	return (dmaemu__on_memcheck ? b->mem : b->dev_mem) + (phys - b->phys);
}

uint8_t *dmaemu__phys_dev_cpu(struct dmaemu_machine *m, uint64_t phys)
{
	struct dmaemu__bank *b = dmaemu__bank_of_phys(m, phys, 1);

	if (!b)
		return NULL;
	return (dmaemu__on_memcheck ? b->cpu : b->dev_cpu) + (phys - b->phys);
}

/**
 * dmaemu__vmap_page() - map DRAM page @phys of the CPU copy at page @idx
 * of the vmalloc area (a view of the same host pages as the linear map).
 * The caller owns page @idx (mm/vmalloc.c's lock).
 * Return: 0, -EINVAL (not DRAM, outside the area), or -errno of dmaemu__mmap().
 */
int dmaemu__vmap_page(struct dmaemu_machine *m, size_t idx, uint64_t phys)
{
	struct dmaemu__bank *b =
		dmaemu__bank_of_phys(m, phys, DMAEMU__PAGE_SIZE);
	uint8_t *at = m->vmap + (idx << DMAEMU__PAGE_SHIFT);

	if (!b || (phys & (DMAEMU__PAGE_SIZE - 1)) ||
	    idx >= m->vmap_size >> DMAEMU__PAGE_SHIFT)
		return -EINVAL;
	if (dmaemu__mmap(at, DMAEMU__PAGE_SIZE, PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_FIXED, b->cpufd,
			 (off_t)(phys - b->phys)) == MAP_FAILED)
		return -errno;
	__atomic_store_n(&m->vmap_phys[idx], phys, __ATOMIC_RELEASE);
	/* No CPU fast-path entry may outlive what an address shows. */
	dmaemu__mem_residency_changed();
	return 0;
}

/** dmaemu__vunmap_page() - make page @idx of the vmalloc area a hole again. */
void dmaemu__vunmap_page(struct dmaemu_machine *m, size_t idx)
{
	uint8_t *at = m->vmap + (idx << DMAEMU__PAGE_SHIFT);

	__atomic_store_n(&m->vmap_phys[idx], 0, __ATOMIC_RELEASE);
	dmaemu__mem_residency_changed();
	/* Not counted as a host allocation: it takes a page away. */
	mmap(at, DMAEMU__PAGE_SIZE, PROT_NONE,
	     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0);
}

/**
 * dmaemu__cpu_fd() - the file behind the CPU copy of the bank holding
 * @phys, and @phys's offset in it (for user views of cacheable memory).
 * Return: the descriptor, or -1 when @phys is not DRAM.
 */
int dmaemu__cpu_fd(struct dmaemu_machine *m, uint64_t phys, uint64_t *off)
{
	struct dmaemu__bank *b = dmaemu__bank_of_phys(m, phys, 1);

	if (!b)
		return -1;
	*off = phys - b->phys;
	return b->cpufd;
}

/** dmaemu__mem_fd() - the same for MEM (uncached user views). */
int dmaemu__mem_fd(struct dmaemu_machine *m, uint64_t phys, uint64_t *off)
{
	struct dmaemu__bank *b = dmaemu__bank_of_phys(m, phys, 1);

	if (!b)
		return -1;
	*off = phys - b->phys;
	return b->memfd;
}
