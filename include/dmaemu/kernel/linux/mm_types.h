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

/*
 * The memory type of a user mapping, the only part of a pgprot_t the
 * emulator reads (remap_pfn_range()): cacheable unless one of these is
 * set by pgprot_noncached() or pgprot_writecombine() (<linux/mm.h>).
 */
#define DMAEMU_PGPROT_UNCACHED 0x100000000UL
#define DMAEMU_PGPROT_WC 0x200000000UL

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
struct vm_area_struct;
struct vm_fault;

/**
 * struct vm_operations_struct - what a driver's mmap handler may hang on a
 * vma.  @close runs when the "user" mapping goes (dmaemu_vma_unmap());
 * @open and @fault are kept for code that sets them and never called
 * (there is no fork and no demand paging).
 */
struct vm_operations_struct {
	void (*open)(struct vm_area_struct *area);
	void (*close)(struct vm_area_struct *area);
	int (*fault)(struct vm_fault *vmf);
};

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
 * @vm_flags:     VM_* bits; dma_mmap_attrs() and remap_pfn_range() add
 *                VM_IO, VM_PFNMAP, VM_DONTEXPAND and VM_DONTDUMP.
 * @vm_ops:       the driver's operations (@close runs at unmap).
 * @vm_private_data: the driver's.
 * @dmaemu:       the emulator's record of the host mapping (NULL until
 *                mapped); released by dmaemu_vma_unmap() (<dmaemu/vma.h>).
 *
 * The same holds for remap_pfn_range() and remap_vmalloc_range()
 * (<linux/mm.h>, <linux/vmalloc.h>): the first call of an mmap handler
 * moves the area to a host mapping of its size (an address it is given
 * relative to the old @vm_start moves with it) and fills the range asked;
 * later calls fill more of it.
 */
struct vm_area_struct {
	unsigned long vm_start;
	unsigned long vm_end;
	unsigned long vm_pgoff;
	pgprot_t vm_page_prot;
	unsigned long vm_flags;
	const struct vm_operations_struct *vm_ops;
	void *vm_private_data;
	struct dmaemu_vma *dmaemu;
};

/** vma_pages() - the size of @vma in pages. */
static inline unsigned long vma_pages(const struct vm_area_struct *vma)
{
	return (vma->vm_end - vma->vm_start) >> 12; /* PAGE_SHIFT */
}

/* What Linux 4.14's include chain brings with this header (docs/kernel-headers.md). */
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/types.h>

#endif
