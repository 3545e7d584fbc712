/* SPDX-License-Identifier: MIT */
/*
 * <linux/mm.h> - pages and the linear map.
 *
 * Emulated DRAM has a linear map: one host address per physical address,
 * cacheable (the CPU's view).  kmalloc() and the page allocator return
 * linear-map addresses, and these helpers convert between them, struct
 * page and physical addresses as the kernel's do.  Converting an address
 * outside the linear map (stack, heap, an uncached alias) is a
 * bad-argument report.
 */
#ifndef DMAEMU_KERNEL_LINUX_MM_H
#define DMAEMU_KERNEL_LINUX_MM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/gfp.h>
#include <linux/mm_types.h>
#include <linux/mmzone.h>

#ifdef __cplusplus
extern "C" {
#endif

/* <sys/user.h> defines the same values; do not fight over them. */
#ifndef PAGE_SHIFT
#define PAGE_SHIFT 12
#endif
#ifndef PAGE_SIZE
#define PAGE_SIZE (1UL << PAGE_SHIFT)
#endif
#ifndef PAGE_MASK
#define PAGE_MASK (~(PAGE_SIZE - 1))
#endif

#define PAGE_ALIGN(addr) (((addr) + PAGE_SIZE - 1) & PAGE_MASK)
#define offset_in_page(p) ((unsigned long)(p) & ~PAGE_MASK)

/**
 * get_order() - the smallest order whose block holds @size bytes.
 *
 * As in the kernel, @size 0 gives a nonsense order (52): do not ask.
 */
static inline int get_order(unsigned long size)
{
	int order = 0;

	size = (size - 1) >> PAGE_SHIFT;
	while (size) {
		order++;
		size >>= 1;
	}
	return order;
}

/** page_to_phys() - the physical address of @page. */
static inline phys_addr_t page_to_phys(const struct page *page)
{
	return page->phys;
}

/** page_to_pfn() - the page frame number of @page. */
static inline unsigned long page_to_pfn(const struct page *page)
{
	return (unsigned long)(page->phys >> PAGE_SHIFT);
}

#define nth_page(page, n) ((page) + (n))

/** page_address() - the linear-map address of @page. */
void *page_address(const struct page *page);
#define page_to_virt(page) page_address(page)
#define lowmem_page_address(page) page_address(page)

/**
 * virt_to_page() - the page holding linear-map address @addr.
 * Return: the page, or NULL (and a bad-argument report) when @addr is not
 * in the linear map.
 */
struct page *virt_to_page(const void *addr);

/** virt_addr_valid() - is @addr in the linear map of a machine? */
bool virt_addr_valid(const void *addr);

/**
 * pfn_to_page() - the page of frame @pfn of the current machine.
 * Return: the page, or NULL (and a bad-argument report) when @pfn is not
 * DRAM.
 */
struct page *pfn_to_page(unsigned long pfn);

/** pfn_valid() - is @pfn a page of DRAM of the current machine? */
bool pfn_valid(unsigned long pfn);

/**
 * virt_to_phys() - the physical address of linear-map address @address.
 * Return: the address, or (phys_addr_t)-1 with a bad-argument report when
 * @address is not in the linear map (the kernel would return garbage).
 */
phys_addr_t virt_to_phys(const volatile void *address);

/**
 * phys_to_virt() - the linear-map address of physical address @address.
 * Return: the address, or NULL with a bad-argument report when @address
 * is not DRAM of the current machine.
 */
void *phys_to_virt(phys_addr_t address);

#define __pa(x) virt_to_phys((const void *)(x))
#define __va(x) phys_to_virt((phys_addr_t)(x))

/** is_vmalloc_addr() - is @x in a machine's vmalloc area? */
bool is_vmalloc_addr(const void *x);

/* Memory types of user mappings (remap_pfn_range()). */
#define pgprot_noncached(prot)                            \
	__pgprot((pgprot_val(prot) & ~DMAEMU_PGPROT_WC) | \
		 DMAEMU_PGPROT_UNCACHED)
#define pgprot_writecombine(prot)                               \
	__pgprot((pgprot_val(prot) & ~DMAEMU_PGPROT_UNCACHED) | \
		 DMAEMU_PGPROT_WC)
#define PAGE_SHARED __pgprot(0)
#define PAGE_KERNEL __pgprot(0)

/**
 * remap_pfn_range() - map physical pages [@pfn, +@size) into @vma at user
 * address @addr (inside the area), as a driver's mmap handler does.
 * @prot: cacheable (the user sees the CPU's view, the same bytes as the
 *        linear map), or pgprot_noncached()/pgprot_writecombine() (the
 *        user sees DRAM itself on arm and arm64; on x86 every view is
 *        coherent and the CPU's).
 *
 * See struct vm_area_struct: the first call moves the area to a host
 * mapping; dmaemu_vma_unmap() (<dmaemu/vma.h>) removes it.  Adds VM_IO,
 * VM_PFNMAP, VM_DONTEXPAND and VM_DONTDUMP to @vma->vm_flags.
 *
 * Return: 0; -EINVAL with a bad-argument report for a range outside the
 * area or not whole pages, or pages that are not DRAM of the current
 * machine (registers cannot be mapped to user space here); -ENOMEM when
 * the host mapping failed.
 */
int remap_pfn_range(struct vm_area_struct *vma, unsigned long addr,
		    unsigned long pfn, unsigned long size, pgprot_t prot);

/**
 * split_page() - turn an allocation of 2^@order pages into 2^@order
 * allocations of one page each, to be freed one by one.
 */
void split_page(struct page *page, unsigned int order);

#ifdef __cplusplus
}
#endif

/* What Linux 4.14's include chain brings with this header (docs/kernel-headers.md). */
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/types.h>

#endif
