// SPDX-License-Identifier: MIT
/*
 * scatterlist.c - the out-of-line scatterlist helpers of <linux/scatterlist.h>.
 *
 * How it works.  A list is one or more arrays of struct scatterlist.  When
 * a list does not fit in one chunk of SG_MAX_SINGLE_ALLOC entries, the last
 * slot of each full chunk is a chain link (SG_CHAIN) to the next chunk, as
 * sg_alloc_table() builds it:
 *
 *   chunk 0 (128 slots)            chunk 1 (128 slots)        chunk 2
 *   [e0][e1] ... [e126][link] ---> [e127] ... [e253][link] -> [e254]..[eN|END]
 *
 * so a list of n entries takes n + (chunks - 1) slots, and orig_nents
 * counts entries, not slots.  Freeing walks the same way, taking the link
 * of each full chunk before freeing it.
 *
 * Where the arrays live.  The kernel takes them from kmalloc, but a
 * scatterlist is CPU-only metadata that no device ever reads (a device
 * sees the dma_address/dma_length the driver copies into its own
 * descriptors), so here they are host memory (calloc): they stay out of
 * the cache model and out of emulated DRAM, and the GFP flags only matter
 * for the sleeping-context check of the caller's allocations elsewhere.
 *
 * Copies.  sg_copy_from_buffer() and sg_copy_to_buffer() copy as the CPU
 * would, through the model: every line of the entries' linear-map data is
 * loaded or stored through the CPU access path (as dmaemu_cpu_write()
 * does), so a copy out of a buffer the device changed behind the CPU's back
 * is a stale read, exactly as an instrumented memcpy would be, reported at
 * the driver's call of sg_copy_*(), not inside the library.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/scatterlist.h>

#include "dma/dma.h"
#include "dmaemu/cpu.h"

/**
 * sg_nents() - the number of entries in a list.
 * @sg: the first entry (NULL gives 0).
 *
 * Follows chain links until the entry marked SG_END.  Cost: O(entries).
 *
 * Return: the count.
 */
int sg_nents(struct scatterlist *sg)
{
	int nents;

	for (nents = 0; sg; sg = sg_next(sg))
		nents++;
	return nents;
}

/**
 * sg_last() - the last of @nents entries.
 * @s:     the first entry.
 * @nents: entries in the list.
 *
 * Return: the entry; when the list ends before @nents entries, or its
 * @nents-th entry is not marked as the end, a bad-argument report (Linux
 * would BUG()) and the last entry actually reached (NULL for an empty or
 * NULL list).
 */
struct scatterlist *sg_last(struct scatterlist *s, unsigned int nents)
{
	struct scatterlist *ret = NULL;
	unsigned int i;

	for (i = 0; s && i < nents; i++) {
		ret = s;
		s = sg_next(s);
	}
	if (i < nents || (ret && !sg_is_last(ret)))
		dmaemu__reportf(NULL, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"sg_last: the list has %s %u entries",
				i < nents ? "fewer than" : "more than", nents);
	return ret;
}

/* ---------------------------------------------------------------------- */
/* Tables                                                                 */
/* ---------------------------------------------------------------------- */

/**
 * sg_free_table() - free the arrays of a table made by sg_alloc_table().
 * @table: the table (a table whose @sgl is NULL is left alone).
 *
 * Cost: O(chunks).
 */
void sg_free_table(struct sg_table *table)
{
	struct scatterlist *sgl, *next;
	unsigned int left;

	if (!table || !table->sgl)
		return;
	sgl = table->sgl;
	left = table->orig_nents;
	while (sgl) {
		if (left > SG_MAX_SINGLE_ALLOC) {
			/* A full chunk: its last slot links to the next. */
			next = sg_chain_ptr(&sgl[SG_MAX_SINGLE_ALLOC - 1]);
			left -= SG_MAX_SINGLE_ALLOC - 1;
		} else {
			next = NULL;
			left = 0;
		}
		dmaemu__free(sgl);
		sgl = next;
	}
	table->sgl = NULL;
	table->nents = 0;
	table->orig_nents = 0;
}

/**
 * sg_alloc_table() - allocate a list of @nents entries.
 * @table:    filled in (sgl, nents = orig_nents = @nents).
 * @nents:    entries wanted.
 * @gfp_mask: GFP flags (the arrays are host memory; see the top comment).
 *
 * Entries are zeroed and the last is marked as the end; lists longer than
 * SG_MAX_SINGLE_ALLOC are chained in chunks of that many slots.
 *
 * Return: 0; -EINVAL for 0 entries or a NULL @table; -ENOMEM when host
 * memory ran out (nothing stays allocated).
 */
int sg_alloc_table(struct sg_table *table, unsigned int nents, gfp_t gfp_mask)
{
	struct scatterlist *prv = NULL;
	unsigned int left = nents;

	(void)gfp_mask;
	if (!table) {
		dmaemu__reportf(NULL, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"sg_alloc_table: NULL table");
		return -EINVAL;
	}
	memset(table, 0, sizeof(*table));
	if (!nents)
		return -EINVAL;
	do {
		unsigned int slots = left, used = left;
		struct scatterlist *sg;

		if (slots > SG_MAX_SINGLE_ALLOC) {
			slots = SG_MAX_SINGLE_ALLOC;
			used = slots - 1; /* the last slot is the link */
		}
		sg = dmaemu__calloc(slots, sizeof(*sg));
		if (!sg) {
			/*
			 * Make the table describe exactly what exists: the
			 * previous chunk becomes the last, unchained.
			 */
			if (prv) {
				table->orig_nents++;
				sg_mark_end(&prv[SG_MAX_SINGLE_ALLOC - 1]);
			}
			sg_free_table(table);
			return -ENOMEM;
		}
		sg_init_table(sg, slots);
		table->orig_nents += used;
		if (prv)
			sg_chain(prv, SG_MAX_SINGLE_ALLOC, sg);
		else
			table->sgl = sg;
		left -= used;
		if (!left)
			sg_mark_end(&sg[used - 1]);
		prv = sg;
	} while (left);
	table->nents = table->orig_nents;
	return 0;
}

/* Pages in one entry at most: its length is 32 bits (page-aligned). */
#define SG_MAX_RUN_PAGES ((unsigned int)(UINT32_MAX & PAGE_MASK) >> PAGE_SHIFT)

/*
 * The end (exclusive index) of the run of physically contiguous pages
 * that starts at @cur.
 */
static unsigned int run_end(struct page **pages, unsigned int n_pages,
			    unsigned int cur)
{
	unsigned int j = cur + 1;

	while (j < n_pages && j - cur < SG_MAX_RUN_PAGES &&
	       pages[j - 1]->phys + PAGE_SIZE == pages[j]->phys)
		j++;
	return j;
}

/**
 * sg_alloc_table_from_pages() - a list over an array of pages.
 * @sgt:      the table to fill.
 * @pages:    @n_pages pages, in order.
 * @n_pages:  count.
 * @offset:   where the data starts in the first page (< PAGE_SIZE).
 * @size:     bytes of data (at most @n_pages pages minus @offset).
 * @gfp_mask: as sg_alloc_table().
 *
 * Runs of physically contiguous pages become one entry each, so three
 * pages of which the first two are adjacent give two entries.
 *
 * Return: 0; -EINVAL (reported) for a NULL argument, no pages, an offset
 * or size that does not fit; -ENOMEM.
 */
int sg_alloc_table_from_pages(struct sg_table *sgt, struct page **pages,
			      unsigned int n_pages, unsigned int offset,
			      unsigned long size, gfp_t gfp_mask)
{
	unsigned int chunks = 0, i, cur;
	struct scatterlist *s;
	int ret;

	if (!sgt || !pages || !n_pages || offset >= PAGE_SIZE || !size ||
	    size > (unsigned long)n_pages * PAGE_SIZE - offset) {
		dmaemu__reportf(NULL, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"sg_alloc_table_from_pages: bad arguments "
				"(%u pages, offset %u, size %lu)",
				n_pages, offset, size);
		return -EINVAL;
	}
	for (i = 0; i < n_pages; i++) {
		if (!pages[i]) {
			dmaemu__reportf(NULL, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
					"sg_alloc_table_from_pages: page %u is "
					"NULL",
					i);
			return -EINVAL;
		}
	}
	for (cur = 0; cur < n_pages; cur = run_end(pages, n_pages, cur))
		chunks++;
	ret = sg_alloc_table(sgt, chunks, gfp_mask);
	if (ret)
		return ret;

	cur = 0;
	for (s = sgt->sgl; s; s = sg_next(s)) {
		unsigned int j = run_end(pages, n_pages, cur);
		unsigned long run;

		run = ((unsigned long)(j - cur) << PAGE_SHIFT) - offset;
		sg_set_page(s, pages[cur],
			    (unsigned int)(size < run ? size : run), offset);
		size -= size < run ? size : run;
		offset = 0;
		cur = j;
	}
	return 0;
}

/* ---------------------------------------------------------------------- */
/* Copies                                                                 */
/* ---------------------------------------------------------------------- */

/*
 * Copy between @buf and the data of at most @nents entries, the CPU doing
 * the copy for the driver's call at @site (the line its reports name).
 * Stops at the end of the list, of @buflen, or at an entry that cannot be
 * copied (reported).  Return: bytes copied.
 */
static size_t copy_buffer(struct scatterlist *sgl, unsigned int nents,
			  void *buf, size_t buflen, bool to_buffer,
			  const void *site)
{
	const char *fn =
		to_buffer ? "sg_copy_to_buffer" : "sg_copy_from_buffer";
	struct scatterlist *sg;
	size_t done = 0;
	unsigned int i;

	if (!buf && buflen) {
		dmaemu__reportf(NULL, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"%s: NULL buffer", fn);
		return 0;
	}
	for (i = 0, sg = sgl; sg && i < nents && done < buflen;
	     i++, sg = sg_next(sg)) {
		size_t n = sg->length;
		struct page *page = sg_page(sg);
		uint8_t *data;
		int ret;

		if (!n)
			continue;
		if (!page) {
			dmaemu__reportf(NULL, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
					"%s: entry %u has no page", fn, i);
			break;
		}
		if (n > buflen - done)
			n = buflen - done;
		data = (uint8_t *)dmaemu__page_address(page) + sg->offset;
		if (to_buffer)
			ret = dmaemu__cpu_copy_at((uint8_t *)buf + done, data,
						  n, false, site);
		else
			ret = dmaemu__cpu_copy_at(data, (uint8_t *)buf + done,
						  n, true, site);
		if (ret)
			break;
		done += n;
	}
	return done;
}

/**
 * sg_copy_from_buffer() - copy a linear buffer into a list.
 * @sgl:    the list.
 * @nents:  entries to use at most.
 * @buf:    source.
 * @buflen: bytes.
 *
 * The CPU stores into the entries' data through the cache model.
 *
 * Return: bytes copied (less than @buflen when the entries are shorter).
 */
size_t sg_copy_from_buffer(struct scatterlist *sgl, unsigned int nents,
			   const void *buf, size_t buflen)
{
	return copy_buffer(sgl, nents, (void *)(uintptr_t)buf, buflen, false,
			   __builtin_return_address(0));
}

/**
 * sg_copy_to_buffer() - copy the data of a list into a linear buffer.
 * @sgl:    the list.
 * @nents:  entries to use at most.
 * @buf:    destination.
 * @buflen: bytes.
 *
 * The CPU loads the entries' data through the cache model (a load of
 * device-changed bytes of a resident line is a stale-cpu-read report).
 *
 * Return: bytes copied.
 */
size_t sg_copy_to_buffer(struct scatterlist *sgl, unsigned int nents, void *buf,
			 size_t buflen)
{
	return copy_buffer(sgl, nents, buf, buflen, true,
			   __builtin_return_address(0));
}
