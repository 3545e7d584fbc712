/* SPDX-License-Identifier: MIT */
/*
 * <linux/mm_types.h> - struct page, one per page of emulated DRAM.
 *
 * The array of struct page of each bank lives in host memory outside the
 * emulated DRAM, so neither driver code nor a device can corrupt it.
 * physmem.c fills @phys and @bank once; page_alloc.c and slab.c own the
 * other fields, under the allocator locks.
 */
#ifndef DMAEMU_KERNEL_LINUX_MM_TYPES_H
#define DMAEMU_KERNEL_LINUX_MM_TYPES_H

#include <stdint.h>

typedef uint64_t phys_addr_t;

struct page {
	unsigned long flags; /* allocator state bits (lib/mm.h) */
	unsigned int order;  /* buddy order of a free or allocated head page */
	int refcount;	     /* 1 on the head of a live allocation, else 0 */
	uint64_t phys;	     /* physical address of the page */
	void *bank;	     /* the struct dmaemu_bank holding it */
	struct page *next, *prev; /* free-list links */
	void *priv;		  /* kmalloc: the slab or large allocation */
};

/* Page protection bits of a mapping, kept opaque as in the kernel. */
typedef struct {
	unsigned long pgprot;
} pgprot_t;
#define pgprot_val(x) ((x).pgprot)
#define __pgprot(x) ((pgprot_t){(x)})

/* vm_flags bits (Linux 4.14 values). */
#define VM_READ 0x00000001UL
#define VM_WRITE 0x00000002UL
#define VM_EXEC 0x00000004UL
#define VM_SHARED 0x00000008UL
#define VM_PFNMAP 0x00000400UL
#define VM_IO 0x00004000UL
#define VM_DONTEXPAND 0x00040000UL
#define VM_DONTDUMP 0x04000000UL

struct dmaemu_vma;

/**
 * struct vm_area_struct - a "user" mapping, as dma_mmap_attrs() fills it.
 * @vm_start:     first user address.  The driver passes the size it wants
 *                as @vm_end - @vm_start (any @vm_start, usually 0);
 *                dma_mmap_attrs() makes a host mapping and moves both ends
 *                to it, so a "user" thread reads and writes the buffer
 *                through (void *)@vm_start.  (In the kernel the mapping
 *                already exists and only gets its pages.)
 * @vm_end:       one past the last user address.
 * @vm_pgoff:     offset into the buffer, in pages.
 * @vm_page_prot: protection the driver asks for; left as given.
 * @vm_flags:     VM_* bits; dma_mmap_attrs() adds VM_IO, VM_PFNMAP,
 *                VM_DONTEXPAND and VM_DONTDUMP as remap_pfn_range() does.
 * @dmaemu:       the emulator's record of the host mapping (NULL until
 *                mapped); released by dmaemu_vma_unmap() (<dmaemu/vma.h>).
 */
struct vm_area_struct {
	unsigned long vm_start;
	unsigned long vm_end;
	unsigned long vm_pgoff;
	pgprot_t vm_page_prot;
	unsigned long vm_flags;
	struct dmaemu_vma *dmaemu;
};

/** vma_pages() - the size of @vma in pages. */
static inline unsigned long vma_pages(const struct vm_area_struct *vma)
{
	return (vma->vm_end - vma->vm_start) >> 12; /* PAGE_SHIFT */
}

#endif
