/* SPDX-License-Identifier: MIT */
/*
 * <linux/scatterlist.h> - scatter/gather lists, as in Linux 4.14.
 *
 * An entry names a page, an offset and a length; @page_link keeps the page
 * pointer with two flag bits in its low bits: SG_CHAIN (the entry points
 * to the next array) and SG_END (last entry).  After dma_map_sg() the
 * dma_address/dma_length of the first N entries describe the N DMA
 * segments, which may be fewer than the entries when an IOMMU merged them.
 */
#ifndef DMAEMU_KERNEL_LINUX_SCATTERLIST_H
#define DMAEMU_KERNEL_LINUX_SCATTERLIST_H

#include <string.h>

#include <dmaemu/ktypes.h>
#include <linux/gfp.h>
#include <linux/mm.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * struct scatterlist - one entry.
 * @page_link:   page pointer | SG_CHAIN | SG_END.
 * @offset:      byte offset in the page.
 * @length:      bytes.
 * @dma_address: bus address of the segment (after mapping).
 * @dma_length:  bytes of the segment (after mapping).
 */
struct scatterlist {
	unsigned long page_link;
	unsigned int offset;
	unsigned int length;
	dma_addr_t dma_address;
	unsigned int dma_length;
};

/**
 * struct sg_table - a list made by sg_alloc_table().
 * @sgl:        the first entry.
 * @nents:      entries mapped (set by the driver to dma_map_sg()'s result).
 * @orig_nents: entries allocated.
 */
struct sg_table {
	struct scatterlist *sgl;
	unsigned int nents;
	unsigned int orig_nents;
};

#define SG_CHAIN 0x01UL
#define SG_END 0x02UL
#define SG_PAGE_LINK_MASK (SG_CHAIN | SG_END)

/* Entries per chunk sg_alloc_table() allocates (one slot chains on). */
#define SG_MAX_SINGLE_ALLOC (PAGE_SIZE / sizeof(struct scatterlist))

#define sg_is_chain(sg) ((sg)->page_link & SG_CHAIN)
#define sg_is_last(sg) ((sg)->page_link & SG_END)
#define sg_chain_ptr(sg) \
	((struct scatterlist *)((sg)->page_link & ~SG_PAGE_LINK_MASK))

#define sg_dma_address(sg) ((sg)->dma_address)
#define sg_dma_len(sg) ((sg)->dma_length)

/** sg_page() - the page of entry @sg. */
static inline struct page *sg_page(struct scatterlist *sg)
{
	return (struct page *)(sg->page_link & ~SG_PAGE_LINK_MASK);
}

/** sg_assign_page() - set the page, keeping the flag bits. */
static inline void sg_assign_page(struct scatterlist *sg, struct page *page)
{
	sg->page_link =
		(sg->page_link & SG_PAGE_LINK_MASK) | (unsigned long)page;
}

/** sg_set_page() - point @sg at @len bytes at @offset in @page. */
static inline void sg_set_page(struct scatterlist *sg, struct page *page,
			       unsigned int len, unsigned int offset)
{
	sg_assign_page(sg, page);
	sg->offset = offset;
	sg->length = len;
}

/** sg_set_buf() - point @sg at a linear-map buffer. */
static inline void sg_set_buf(struct scatterlist *sg, const void *buf,
			      unsigned int buflen)
{
	sg_set_page(sg, virt_to_page(buf), buflen, offset_in_page(buf));
}

/** sg_virt() - the linear-map address of @sg's data. */
static inline void *sg_virt(struct scatterlist *sg)
{
	return (char *)page_address(sg_page(sg)) + sg->offset;
}

/** sg_phys() - the physical address of @sg's data. */
static inline phys_addr_t sg_phys(struct scatterlist *sg)
{
	return page_to_phys(sg_page(sg)) + sg->offset;
}

/** sg_mark_end() - make @sg the last entry. */
static inline void sg_mark_end(struct scatterlist *sg)
{
	sg->page_link |= SG_END;
	sg->page_link &= ~SG_CHAIN;
}

/** sg_unmark_end() - @sg is no longer the last entry. */
static inline void sg_unmark_end(struct scatterlist *sg)
{
	sg->page_link &= ~SG_END;
}

/**
 * sg_chain() - link the last slot of @prv (of @prv_nents slots) to @sgl.
 * The last slot of @prv holds the link and no data.
 */
static inline void sg_chain(struct scatterlist *prv, unsigned int prv_nents,
			    struct scatterlist *sgl)
{
	prv[prv_nents - 1].offset = 0;
	prv[prv_nents - 1].length = 0;
	prv[prv_nents - 1].page_link =
		((unsigned long)sgl | SG_CHAIN) & ~SG_END;
}

/** sg_next() - the entry after @sg, or NULL after the last. */
static inline struct scatterlist *sg_next(struct scatterlist *sg)
{
	if (sg_is_last(sg))
		return NULL;
	sg++;
	if (sg_is_chain(sg))
		sg = sg_chain_ptr(sg);
	return sg;
}

#define for_each_sg(sglist, sg, nr, __i) \
	for (__i = 0, sg = (sglist); __i < (nr); __i++, sg = sg_next(sg))

/** sg_init_table() - zero @nents entries and mark the last one. */
static inline void sg_init_table(struct scatterlist *sgl, unsigned int nents)
{
	memset(sgl, 0, sizeof(*sgl) * nents);
	sg_mark_end(&sgl[nents - 1]);
}

/** sg_init_one() - a one-entry list for @buf. */
static inline void sg_init_one(struct scatterlist *sg, const void *buf,
			       unsigned int buflen)
{
	sg_init_table(sg, 1);
	sg_set_buf(sg, buf, buflen);
}

/** sg_nents() - entries in the list starting at @sg (following chains). */
int sg_nents(struct scatterlist *sg);

/** sg_last() - the last of @nents entries. */
struct scatterlist *sg_last(struct scatterlist *s, unsigned int nents);

/**
 * sg_alloc_table() - allocate a list of @nents entries (chained in chunks
 * of SG_MAX_SINGLE_ALLOC).
 * Return: 0, -ENOMEM (the table is left freeable), -EINVAL for 0 entries.
 */
int sg_alloc_table(struct sg_table *table, unsigned int nents, gfp_t gfp_mask);

/** sg_free_table() - free what sg_alloc_table() allocated. */
void sg_free_table(struct sg_table *table);

/**
 * sg_alloc_table_from_pages() - a list over @n_pages pages, merging
 * physically contiguous ones.  Return: 0 or -ENOMEM.
 */
int sg_alloc_table_from_pages(struct sg_table *sgt, struct page **pages,
			      unsigned int n_pages, unsigned int offset,
			      unsigned long size, gfp_t gfp_mask);

/**
 * sg_copy_from_buffer() - copy @buflen bytes of @buf into the list.
 * Return: bytes copied.
 */
size_t sg_copy_from_buffer(struct scatterlist *sgl, unsigned int nents,
			   const void *buf, size_t buflen);

/** sg_copy_to_buffer() - copy the list's bytes out.  Return: bytes copied. */
size_t sg_copy_to_buffer(struct scatterlist *sgl, unsigned int nents, void *buf,
			 size_t buflen);

#ifdef __cplusplus
}
#endif

/* What Linux 4.14's include chain brings with this header (docs/kernel-headers.md). */
#include <linux/bug.h>
#include <linux/io.h>
#include <linux/string.h>
#include <linux/types.h>

#endif
