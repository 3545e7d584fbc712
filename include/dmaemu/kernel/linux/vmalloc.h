/* SPDX-License-Identifier: MIT */
/*
 * <linux/vmalloc.h> - virtually contiguous memory.
 *
 * vmalloc() memory is made of single pages of emulated DRAM, in any
 * physical order, mapped side by side in the machine's vmalloc area (not
 * the linear map).  It is cacheable: the same bytes the CPU sees through
 * the linear map of each page.  It is not DMA-able as one buffer:
 * dma_map_single() of it is a map-invalid-memory report, as DMA API
 * debugging gives; map its pages instead (vmalloc_to_page(), then
 * dma_map_page() or a scatterlist).  CPU accesses through the vmalloc
 * area are modelled as through the linear map (docs/memory.md).  Each
 * function uses the current machine (<dmaemu/machine.h>).
 */
#ifndef DMAEMU_KERNEL_LINUX_VMALLOC_H
#define DMAEMU_KERNEL_LINUX_VMALLOC_H

#include <stdbool.h>

#include <linux/mm.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * vmalloc() - @size bytes (whole pages), not zeroed; may sleep.
 * Return: the address, or NULL (@size 0; an alloc-failure report when
 * pages or room in the area run out).
 */
void *vmalloc(unsigned long size);
/** vzalloc() - vmalloc(), zeroed. */
void *vzalloc(unsigned long size);
/** vmalloc_user() - vzalloc() that remap_vmalloc_range() may map to user
 * space (VM_USERMAP). */
void *vmalloc_user(unsigned long size);
/** vmalloc_32() - vmalloc() from 32-bit addressable pages (ZONE_DMA32). */
void *vmalloc_32(unsigned long size);
/** vmalloc_32_user() - vmalloc_user() from 32-bit addressable pages. */
void *vmalloc_32_user(unsigned long size);
/** vmalloc_node(), vzalloc_node() - vmalloc(), vzalloc() (one node). */
void *vmalloc_node(unsigned long size, int node);
void *vzalloc_node(unsigned long size, int node);
/**
 * __vmalloc() - vmalloc() with the caller's GFP flags; @prot must be
 * cacheable (PAGE_KERNEL): other protections are a bad-argument report.
 */
void *__vmalloc(unsigned long size, gfp_t gfp_mask, pgprot_t prot);
/**
 * vfree() - free what the vmalloc() family returned (NULL: nothing); of a
 * vmap() area, unmap it only (its pages are the caller's).  Any other
 * pointer is a bad-free report.
 */
void vfree(const void *addr);

/* vmap() flags (Linux 4.14 values; kept, not interpreted). */
#define VM_IOREMAP 0x00000001
#define VM_ALLOC 0x00000002
#define VM_MAP 0x00000004
#define VM_USERMAP 0x00000008

/**
 * vmap() - map @count pages of the caller side by side in the vmalloc
 * area, cacheable (@prot PAGE_KERNEL; others are a bad-argument report).
 * Return: the address, or NULL (a report).
 */
void *vmap(struct page **pages, unsigned int count, unsigned long flags,
	   pgprot_t prot);
/** vunmap() - remove a vmap() mapping; the pages stay the caller's. */
void vunmap(const void *addr);

/**
 * vmalloc_to_page() - the DRAM page behind vmalloc address @addr.
 * Return: the page; NULL for a hole of the vmalloc area, and NULL with a
 * bad-argument report for an address outside it.
 */
struct page *vmalloc_to_page(const void *addr);
/** vmalloc_to_pfn() - its page frame number (0 when there is none). */
unsigned long vmalloc_to_pfn(const void *addr);

/**
 * remap_vmalloc_range() - map a vmalloc_user() area into @vma ("user"
 * view), from page @pgoff of the area, for the whole of @vma.
 * Return: 0; -EINVAL with a bad-argument report when @addr does not start
 * a vmalloc_user() area or @vma runs past its end.
 */
int remap_vmalloc_range(struct vm_area_struct *vma, void *addr,
			unsigned long pgoff);

#ifdef __cplusplus
}
#endif

/* What Linux 4.14's include chain brings with this header (docs/kernel-headers.md). */
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/spinlock.h>

#endif
