// SPDX-License-Identifier: MIT
/*
 * remap.c - "user" mappings made by a driver's mmap handler:
 * remap_pfn_range() and remap_vmalloc_range() (Linux's mm/memory.c and
 * mm/vmalloc.c).
 *
 * How it works.  There is no user process: the user view is a host
 * mapping that a test ("user" thread) reads and writes through
 * (void *)vma->vm_start.  The first call for a vma reserves a host range
 * of the vma's size (PROT_NONE) and moves vm_start/vm_end there; each call
 * then maps its pages into that range from the file behind the memory it
 * wants:
 *
 *   cacheable prot          the CPU copy (the same bytes as the linear
 *                           map and vmalloc views): the user sees what
 *                           the CPU sees, cached data included
 *   pgprot_noncached() or   DRAM itself (MEM) on arm and arm64, as an
 *   pgprot_writecombine()   uncached user mapping sees it (write
 *                           combining is not modelled for user stores)
 *   any, on x86             the CPU copy: every view is coherent there
 *
 * dmaemu_vma_unmap() (dma/alloc.c) calls vm_ops->close and removes the
 * host mapping.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <sys/mman.h>

#include <linux/mm.h>
#include <linux/vmalloc.h>

#include "dmaemu/vma.h"
#include "mm/mm.h"

#define USER_FLAGS (VM_IO | VM_PFNMAP | VM_DONTEXPAND | VM_DONTDUMP)

/*
 * Give @vma its host range if it has none yet, moving *@addr (relative to
 * the old vm_start) with it.  Return: 0 or -ENOMEM.
 */
static int user_range(struct vm_area_struct *vma, unsigned long *addr)
{
	size_t len = vma->vm_end - vma->vm_start;
	struct dmaemu_vma *map;
	void *base;

	if (vma->dmaemu)
		return 0;
	map = dmaemu__calloc(1, sizeof(*map));
	if (!map)
		return -ENOMEM;
	base = dmaemu__mmap(NULL, len, PROT_NONE,
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (base == MAP_FAILED) {
		dmaemu__free(map);
		return -ENOMEM;
	}
	map->addr = base;
	map->len = len;
	map->orig_start = vma->vm_start;
	vma->dmaemu = map;
	*addr = *addr - vma->vm_start + (unsigned long)base;
	vma->vm_start = (unsigned long)base;
	vma->vm_end = vma->vm_start + len;
	return 0;
}

/* Map [@phys, +@size) at user address @addr of @vma (inside its host
 * range).  Return: 0, or -EINVAL when the range is not in one bank, or
 * -ENOMEM. */
static int map_user(struct dmaemu_machine *m, struct vm_area_struct *vma,
		    unsigned long addr, uint64_t phys, size_t size, bool cached)
{
	uint64_t off;
	int fd;

	if (!dmaemu__bank_of_phys(m, phys, size))
		return -EINVAL;
	if (m->opt.profile == DMAEMU__PROFILE_X86)
		cached = true;
	fd = cached ? dmaemu__cpu_fd(m, phys, &off)
		    : dmaemu__mem_fd(m, phys, &off);
	if (fd < 0)
		return -EINVAL;
	/* An uncached view must not miss what the CPU wrote before. */
	if (!cached)
		dmaemu__range_clean(m, phys, size);
	if (dmaemu__mmap((void *)addr, size, PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_FIXED, fd, (off_t)off) == MAP_FAILED)
		return -ENOMEM;
	vma->vm_flags |= USER_FLAGS;
	return 0;
}

/* The checks both calls share.  Return: NULL, or why @vma and the range
 * [@addr, +@size) (relative to vm_start as given) are refused. */
static const char *bad_range(const struct vm_area_struct *vma,
			     unsigned long addr, unsigned long size)
{
	if (!vma)
		return "NULL vma";
	if (vma->vm_end <= vma->vm_start ||
	    ((vma->vm_end - vma->vm_start) & ~PAGE_MASK))
		return "the vma is empty or not whole pages";
	if (!size || (size & ~PAGE_MASK) || (addr & ~PAGE_MASK))
		return "the range is empty or not whole pages";
	if (addr < vma->vm_start || addr >= vma->vm_end ||
	    size > vma->vm_end - addr)
		return "the range is not inside the vma";
	return NULL;
}

int remap_pfn_range(struct vm_area_struct *vma, unsigned long addr,
		    unsigned long pfn, unsigned long size, pgprot_t prot)
{
	DMAEMU__API_CALL(call, "remap_pfn_range");
	struct dmaemu_machine *m = dmaemu_machine_current();
	uint64_t phys = (uint64_t)pfn << PAGE_SHIFT;
	const char *why = bad_range(vma, addr, size);
	bool cached = !(pgprot_val(prot) &
			(DMAEMU_PGPROT_UNCACHED | DMAEMU_PGPROT_WC));
	int ret;

	if (!why && !m)
		why = "no current machine";
	if (!why && !dmaemu__bank_of_phys(m, phys, size))
		why = "the pages are not DRAM of the current machine "
		      "(registers cannot be mapped to user space here)";
	if (why) {
		dmaemu__reportf(m, DMAEMU_REPORT_BAD_ARGUMENT, m ? phys : 0,
				size,
				"remap_pfn_range(addr 0x%lx, pfn 0x%lx, %lu "
				"bytes): %s",
				addr, pfn, size, why);
		return -EINVAL;
	}
	ret = user_range(vma, &addr);
	if (!ret)
		ret = map_user(m, vma, addr, phys, size, cached);
	return ret;
}

int remap_vmalloc_range(struct vm_area_struct *vma, void *addr,
			unsigned long pgoff)
{
	DMAEMU__API_CALL(call, "remap_vmalloc_range");
	struct dmaemu__where w;
	struct dmaemu_machine *m;
	unsigned long uaddr, len, off;
	const char *why;
	size_t npages;
	int ret;

	why = bad_range(vma, vma ? vma->vm_start : 0,
			vma ? vma->vm_end - vma->vm_start : 0);
	m = !why && dmaemu__classify(addr, &w) &&
			    w.region == DMAEMU__REGION_VMALLOC
		    ? w.m
		    : NULL;
	if (!why && !m)
		why = "not the start of a live vmalloc() area";
	if (!why && pgoff > (SIZE_MAX >> PAGE_SHIFT) / 2)
		why = "pgoff is past any area";
	len = vma && !why ? vma->vm_end - vma->vm_start : 0;
	/* Every page must exist before anything is mapped. */
	for (off = 0; !why && off < len; off += PAGE_SIZE)
		if (!dmaemu__vmalloc_user_page(m, addr,
					       (pgoff << PAGE_SHIFT) + off,
					       &npages, &why))
			break;
	if (off < len || why) {
		dmaemu__reportf(m, DMAEMU_REPORT_BAD_ARGUMENT, 0, len,
				"remap_vmalloc_range(%p, pgoff %lu, %lu "
				"bytes): %s",
				addr, pgoff, len, why ? why : "?");
		return -EINVAL;
	}
	uaddr = vma->vm_start;
	ret = user_range(vma, &uaddr);
	for (off = 0; !ret && off < len; off += PAGE_SIZE) {
		struct page *p = dmaemu__vmalloc_user_page(
			m, addr, (pgoff << PAGE_SHIFT) + off, NULL, &why);

		ret = p ? map_user(m, vma, uaddr + off, p->phys, PAGE_SIZE,
				   true)
			: -EINVAL;
	}
	/* vm_insert_page() makes no PFN map: as Linux, only these two. */
	vma->vm_flags &= ~(VM_IO | VM_PFNMAP);
	vma->vm_flags |= VM_DONTEXPAND | VM_DONTDUMP;
	return ret;
}
