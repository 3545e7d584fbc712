// SPDX-License-Identifier: MIT
/*
 * vmalloc.c - vmalloc() and friends: memory that is virtually contiguous
 * and physically scattered, outside the linear map, and vmap() of a
 * caller's pages (Linux's mm/vmalloc.c, without the lazy TLB flushing).
 * vfree() of a vmap() area unmaps it and frees nothing, as in Linux (its
 * pages are the caller's); vunmap() of a vmalloc() area is refused.
 *
 * How it works.  Each machine has a vmalloc area, one slot of its host
 * reservation (physmem.c).  vmalloc() takes single pages from the page
 * allocator and maps each one, page by page, side by side in the area:
 * the mapping is of the CPU copy's file, so a vmalloc address and the
 * linear-map address of its page are two host views of the same bytes,
 * as the kernel's vmalloc alias and linear map are two virtual addresses
 * of one physical page.  vmap_phys[] (physmem.c) records which page each
 * area page shows, which is how an address is classified
 * (DMAEMU__REGION_VMALLOC) and how vmalloc_to_page() answers.
 *
 *   vmalloc area   | A0 A1 A2 | guard | B0 | guard | ...
 *                     |  |  |           |
 *   DRAM pages      p7 p2 p9           p4       (any order)
 *
 * Each area is followed by one unmapped guard page, as in Linux, so
 * running off its end faults.  An address is not in the linear map, so
 * virt_to_phys() and dma_map_single() refuse it (bad-argument,
 * map-invalid-memory), as CONFIG_DEBUG_VIRTUAL and DMA API debugging do;
 * a driver maps such a buffer page by page (vmalloc_to_page()).
 *
 * CPU accesses through the area reach the CPU copy, and the CPU layer
 * models them as accesses to the page's lines (cpu.c, DMAEMU__REGION_VMALLOC).
 *
 * Locks: vm->lock protects the area list and the used[] map; it is a
 * leaf except for the page allocator's locks, taken under it.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include <linux/mm.h>
#include <linux/vmalloc.h>

#include "mm/mm.h"

/* One vmalloc() area. */
struct varea {
	struct varea *next;
	size_t first;  /* first page index in the vmalloc slot */
	size_t npages; /* mapped pages (the guard follows) */
	size_t size;   /* bytes asked for */
	bool user;     /* vmalloc_user(): remap_vmalloc_range() may map it */
	bool owned;    /* the pages are the area's, not vmap()'s caller's */
	struct page **pages;
};

struct dmaemu__vmalloc {
	pthread_mutex_t lock;
	uint8_t *used; /* per page of the slot: part of an area or guard */
	size_t npages;
	struct varea *areas;
};

int dmaemu__vmalloc_init(struct dmaemu_machine *m)
{
	struct dmaemu__vmalloc *vm = dmaemu__calloc(1, sizeof(*vm));

	if (!vm)
		return -ENOMEM;
	vm->npages = m->vmap_size >> PAGE_SHIFT;
	vm->used = dmaemu__calloc(vm->npages, 1);
	if (!vm->used || dmaemu__mutex_init(&vm->lock)) {
		dmaemu__free(vm->used);
		dmaemu__free(vm);
		return -ENOMEM;
	}
	m->vmalloc = vm;
	return 0;
}

/* Machine destroy: forget the areas left (the page allocator and the
 * reservation go away right after). */
void dmaemu__vmalloc_fini(struct dmaemu_machine *m)
{
	struct dmaemu__vmalloc *vm = m->vmalloc;
	struct varea *a;

	if (!vm)
		return;
	while ((a = vm->areas)) {
		vm->areas = a->next;
		dmaemu__free(a->pages);
		dmaemu__free(a);
	}
	pthread_mutex_destroy(&vm->lock);
	dmaemu__free(vm->used);
	dmaemu__free(vm);
	m->vmalloc = NULL;
}

/* First fit of @n pages plus a guard.  vm->lock held.  Return: the first
 * page index, or SIZE_MAX when the area is full. */
static size_t find_room(struct dmaemu__vmalloc *vm, size_t n)
{
	size_t i, run = 0;

	for (i = 0; i < vm->npages; i++) {
		run = vm->used[i] ? 0 : run + 1;
		if (run == n + 1)
			return i - n;
	}
	return SIZE_MAX;
}

/* Unmap and free the pages of @a, and give its pages of the slot back.
 * vm->lock held. */
static void area_release(struct dmaemu_machine *m, struct varea *a,
			 size_t mapped)
{
	size_t i;

	for (i = 0; i < a->npages; i++) {
		if (i < mapped)
			dmaemu__vunmap_page(m, a->first + i);
		if (a->pages[i] && a->owned)
			dmaemu__free_pages(m, a->pages[i], 0,
					   DMAEMU__OWNER_VMALLOC, "vfree");
	}
	memset(m->vmalloc->used + a->first, 0, a->npages + 1);
}

static void *do_vmalloc(unsigned long size, gfp_t gfp, bool user,
			const char *caller)
{
	struct dmaemu_machine *m = dmaemu_machine_current();
	struct dmaemu__vmalloc *vm;
	struct varea *a;
	size_t i, first;
	int ret = 0;

	if (!m || !m->vmalloc) {
		dmaemu__reportf(NULL, DMAEMU_REPORT_BAD_ARGUMENT, 0, size,
				"%s(%lu): no current machine", caller, size);
		return NULL;
	}
	vm = m->vmalloc;
	dmaemu__check_sleep(m, gfp, caller);
	if (!size)
		return NULL;
	if (size > m->vmap_size - PAGE_SIZE) {
		/* PAGE_ALIGN() of a size this large would wrap. */
		dmaemu__reportf(m, DMAEMU_REPORT_ALLOC_FAILURE, 0, size,
				"%s(%lu): larger than the vmalloc area (%zu "
				"KiB)",
				caller, size, m->vmap_size >> 10);
		return NULL;
	}
	a = dmaemu__calloc(1, sizeof(*a));
	if (!a)
		return NULL;
	a->npages = PAGE_ALIGN(size) >> PAGE_SHIFT;
	a->size = size;
	a->user = user;
	a->owned = true;
	a->pages = dmaemu__calloc(a->npages, sizeof(*a->pages));
	if (!a->pages) {
		dmaemu__free(a);
		return NULL;
	}
	dmaemu__lock(&vm->lock);
	first = find_room(vm, a->npages);
	if (first == SIZE_MAX) {
		dmaemu__unlock(&vm->lock);
		dmaemu__reportf(m, DMAEMU_REPORT_ALLOC_FAILURE, 0, size,
				"%s(%lu): the vmalloc area (%zu KiB) has no "
				"room left",
				caller, size, m->vmap_size >> 10);
		goto out_free;
	}
	a->first = first;
	memset(vm->used + first, 1, a->npages + 1);
	for (i = 0; i < a->npages; i++) {
		a->pages[i] = dmaemu__alloc_pages(
			m, gfp, 0, UINT64_MAX, DMAEMU__OWNER_VMALLOC, caller);
		if (!a->pages[i])
			break;
		ret = dmaemu__vmap_page(m, first + i, a->pages[i]->phys);
		if (ret) {
			i++; /* its page is allocated, not mapped */
			break;
		}
	}
	if (i < a->npages || ret) {
		area_release(m, a, ret ? i - 1 : i);
		dmaemu__unlock(&vm->lock);
		goto out_free;
	}
	a->next = vm->areas;
	vm->areas = a;
	dmaemu__unlock(&vm->lock);
	return m->vmap + (first << PAGE_SHIFT);

out_free:
	dmaemu__free(a->pages);
	dmaemu__free(a);
	return NULL;
}

void *vmalloc(unsigned long size)
{
	return do_vmalloc(size, GFP_KERNEL | __GFP_HIGHMEM, false, "vmalloc");
}

void *vzalloc(unsigned long size)
{
	return do_vmalloc(size, GFP_KERNEL | __GFP_HIGHMEM | __GFP_ZERO, false,
			  "vzalloc");
}

void *vmalloc_user(unsigned long size)
{
	return do_vmalloc(size, GFP_KERNEL | __GFP_HIGHMEM | __GFP_ZERO, true,
			  "vmalloc_user");
}

void *vmalloc_node(unsigned long size, int node)
{
	(void)node;
	return do_vmalloc(size, GFP_KERNEL | __GFP_HIGHMEM, false,
			  "vmalloc_node");
}

void *vzalloc_node(unsigned long size, int node)
{
	(void)node;
	return do_vmalloc(size, GFP_KERNEL | __GFP_HIGHMEM | __GFP_ZERO, false,
			  "vzalloc_node");
}

void *__vmalloc(unsigned long size, gfp_t gfp_mask, pgprot_t prot)
{
	if (pgprot_val(prot) & (DMAEMU_PGPROT_UNCACHED | DMAEMU_PGPROT_WC)) {
		dmaemu__reportf(dmaemu_machine_current(),
				DMAEMU_REPORT_BAD_ARGUMENT, 0, size,
				"__vmalloc(%lu): only cacheable (PAGE_KERNEL) "
				"vmalloc memory is emulated",
				size);
		return NULL;
	}
	return do_vmalloc(size, gfp_mask, false, "__vmalloc");
}

void *vmalloc_32(unsigned long size)
{
	return do_vmalloc(size, GFP_KERNEL | GFP_DMA32, false, "vmalloc_32");
}

void *vmalloc_32_user(unsigned long size)
{
	return do_vmalloc(size, GFP_KERNEL | GFP_DMA32 | __GFP_ZERO, true,
			  "vmalloc_32_user");
}

/* The area starting at @addr on @m, unlinked when @unlink.  vm->lock
 * held.  Return: it, or NULL. */
static struct varea *area_at(struct dmaemu_machine *m, const void *addr,
			     bool unlink)
{
	struct varea **pp, *a;

	for (pp = &m->vmalloc->areas; (a = *pp); pp = &a->next) {
		if (m->vmap + (a->first << PAGE_SHIFT) ==
		    (const uint8_t *)addr) {
			if (unlink)
				*pp = a->next;
			return a;
		}
	}
	return NULL;
}

/* The machine whose vmalloc slot holds @addr, or NULL. */
static struct dmaemu_machine *vmalloc_machine(const void *addr)
{
	struct dmaemu_machine *m;

	if (!dmaemu__in_span(addr))
		return NULL;
	m = dmaemu__machine_of_addr(addr);
	if (!m || !m->vmalloc || (const uint8_t *)addr < m->vmap ||
	    (const uint8_t *)addr >= m->vmap + m->vmap_size)
		return NULL;
	return m;
}

void vfree(const void *addr)
{
	struct dmaemu_machine *m;
	struct varea *a = NULL;

	if (!addr)
		return;
	m = vmalloc_machine(addr);
	if (m) {
		dmaemu__lock(&m->vmalloc->lock);
		a = area_at(m, addr, true);
		if (a)
			area_release(m, a, a->npages);
		dmaemu__unlock(&m->vmalloc->lock);
	}
	if (!a) {
		dmaemu__reportf(m, DMAEMU_REPORT_BAD_FREE, 0, 0,
				"vfree(%p): not the start of a live vmalloc() "
				"area (never allocated, freed already, or "
				"kmalloc() memory: kfree() it)",
				addr);
		return;
	}
	dmaemu__free(a->pages);
	dmaemu__free(a);
}

void *vmap(struct page **pages, unsigned int count, unsigned long flags,
	   pgprot_t prot)
{
	struct dmaemu_machine *m = dmaemu_machine_current();
	struct dmaemu__vmalloc *vm = m ? m->vmalloc : NULL;
	const char *why = NULL;
	struct varea *a;
	size_t i, first;

	(void)flags;
	if (!vm)
		why = "no current machine";
	else if (!pages || !count)
		why = "no pages";
	else if (pgprot_val(prot) & (DMAEMU_PGPROT_UNCACHED | DMAEMU_PGPROT_WC))
		why = "only cacheable (PAGE_KERNEL) mappings are emulated";
	for (i = 0; !why && i < count; i++)
		if (!pages[i] || !dmaemu__phys_to_page(m, pages[i]->phys))
			why = "a page that is not DRAM of the machine";
	if (why) {
		dmaemu__reportf(m, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"vmap(%u pages): %s", count, why);
		return NULL;
	}
	a = dmaemu__calloc(1, sizeof(*a));
	if (!a)
		return NULL;
	a->npages = count;
	a->size = (size_t)count << PAGE_SHIFT;
	a->pages = dmaemu__calloc(count, sizeof(*a->pages));
	if (!a->pages) {
		dmaemu__free(a);
		return NULL;
	}
	dmaemu__lock(&vm->lock);
	first = find_room(vm, count);
	if (first == SIZE_MAX) {
		dmaemu__unlock(&vm->lock);
		dmaemu__reportf(m, DMAEMU_REPORT_ALLOC_FAILURE, 0, a->size,
				"vmap(%u pages): the vmalloc area has no room "
				"left",
				count);
		dmaemu__free(a->pages);
		dmaemu__free(a);
		return NULL;
	}
	a->first = first;
	memset(vm->used + first, 1, count + 1);
	for (i = 0; i < count; i++) {
		a->pages[i] = pages[i];
		if (dmaemu__vmap_page(m, first + i, pages[i]->phys))
			break;
	}
	if (i < count) {
		area_release(m, a, i);
		dmaemu__unlock(&vm->lock);
		dmaemu__free(a->pages);
		dmaemu__free(a);
		return NULL;
	}
	a->next = vm->areas;
	vm->areas = a;
	dmaemu__unlock(&vm->lock);
	return m->vmap + (first << PAGE_SHIFT);
}

void vunmap(const void *addr)
{
	struct dmaemu_machine *m;
	struct varea *a = NULL;
	bool wrong = false;

	if (!addr)
		return;
	m = vmalloc_machine(addr);
	if (m) {
		dmaemu__lock(&m->vmalloc->lock);
		a = area_at(m, addr, false);
		/* vunmap() of a vmalloc() area would leak its pages. */
		wrong = a && a->owned;
		if (a && !wrong) {
			area_at(m, addr, true);
			area_release(m, a, a->npages);
		}
		dmaemu__unlock(&m->vmalloc->lock);
	}
	if (!a || wrong) {
		dmaemu__reportf(m, DMAEMU_REPORT_BAD_FREE, 0, 0,
				"vunmap(%p): %s", addr,
				wrong ? "a vmalloc() area: vfree() it"
				      : "not the start of a live vmap() area");
		return;
	}
	dmaemu__free(a->pages);
	dmaemu__free(a);
}

bool is_vmalloc_addr(const void *x)
{
	return vmalloc_machine(x) != NULL;
}

struct page *vmalloc_to_page(const void *addr)
{
	struct dmaemu__where w;

	if (!dmaemu__classify(addr, &w) || w.region != DMAEMU__REGION_VMALLOC) {
		if (!vmalloc_machine(addr))
			dmaemu__reportf(w.m, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
					"vmalloc_to_page(%p): not a vmalloc() "
					"address",
					addr);
		return NULL; /* a hole of the area: no page, as in Linux */
	}
	return dmaemu__phys_to_page(w.m, w.phys & ~(uint64_t)(PAGE_SIZE - 1));
}

unsigned long vmalloc_to_pfn(const void *addr)
{
	struct page *page = vmalloc_to_page(addr);

	return page ? page_to_pfn(page) : 0;
}

/**
 * dmaemu__vmalloc_user_page() - for remap_vmalloc_range(): the page at
 * byte @off of the vmalloc_user() area starting at @addr.
 * @size: receives the area's size in pages (may be NULL).
 * Return: the page; NULL when @addr does not start such an area or @off
 * is past its end; *@why then says which.
 */
struct page *dmaemu__vmalloc_user_page(struct dmaemu_machine *m,
				       const void *addr, size_t off,
				       size_t *npages, const char **why)
{
	struct page *p = NULL;
	struct varea *a;

	dmaemu__lock(&m->vmalloc->lock);
	a = area_at(m, addr, false);
	if (!a)
		*why = "not the start of a live vmalloc() area";
	else if (!a->user)
		*why = "the area was not made by vmalloc_user() or "
		       "vmalloc_32_user() (Linux requires VM_USERMAP)";
	else if ((off >> PAGE_SHIFT) >= a->npages)
		*why = "the range runs past the end of the area";
	else
		p = a->pages[off >> PAGE_SHIFT];
	if (a && npages)
		*npages = a->npages;
	dmaemu__unlock(&m->vmalloc->lock);
	return p;
}
