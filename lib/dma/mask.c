// SPDX-License-Identifier: MIT
/*
 * dma_mask.c - DMA masks and limits of a device (<linux/dma-mapping.h>).
 *
 * How it works.  A mask is the highest bus address the device can drive
 * (all ones below some bit).  Bus addresses are physical addresses plus
 * the machine's dma_offset (option dma_offset, like a platform whose DRAM
 * appears to devices at another base), so every comparison below is made
 * in bus addresses:
 *
 *   bus 0 ........ dma_offset + lowest DRAM ....... dma_offset + top of DRAM
 *        |<-- mask too small: -EIO -->|<---- mask that reaches some DRAM
 *
 * dma_supported() follows Linux: a mask that cannot reach the lowest page
 * of memory can do no DMA at all (nothing to allocate a coherent buffer
 * from, nowhere to bounce to), so it is refused; any larger mask is fine,
 * since a buffer above the mask is bounced through swiotlb or, with the
 * IOMMU, mapped at an IOVA below it.  dma_get_required_mask() is the
 * smallest all-ones mask that reaches the top of DRAM: the mask a driver
 * needs to avoid bouncing.
 *
 * The functions only read and write the struct device; they take no lock,
 * as in the kernel, where masks are set while probing, before DMA starts.
 */
#include "config.h"

#include <errno.h>

#include <linux/dma-mapping.h>

#include "dma/dma.h"

/* Linux's defaults when a device has no dma_parms. */
#define DEFAULT_MAX_SEG_SIZE 0x10000U
#define DEFAULT_SEG_BOUNDARY 0xffffffffUL

/* Lowest and highest (inclusive) bus addresses of DRAM. */
static void dram_bus_range(struct dmaemu_machine *m, uint64_t *lo, uint64_t *hi)
{
	uint64_t off = m->opt.dma_offset;
	unsigned int i;

	*lo = UINT64_MAX;
	*hi = 0;
	for (i = 0; i < m->nbanks; i++) {
		const struct dmaemu__bank *b = &m->bank[i];

		if (b->phys < *lo)
			*lo = b->phys;
		if (b->phys + b->size - 1 > *hi)
			*hi = b->phys + b->size - 1;
	}
	*lo += off;
	*hi += off;
}

/**
 * dmaemu__dma_mask_supported() - can a device with @mask do DMA on @m?
 * @m:    machine.
 * @mask: a DMA mask (bus addresses).
 *
 * Return: true when the mask reaches the whole lowest page of DRAM.
 */
bool dmaemu__dma_mask_supported(struct dmaemu_machine *m, uint64_t mask)
{
	uint64_t lo, hi;

	dram_bus_range(m, &lo, &hi);
	return lo + DMAEMU__PAGE_SIZE - 1 <= mask;
}

/**
 * dma_supported() - can @dev do DMA with @mask on its machine?
 * @dev:  the device.
 * @mask: the mask.
 *
 * Return: 1 when @mask reaches the lowest page of DRAM, else 0 (also for
 * a bad device, reported).
 */
int dma_supported(struct device *dev, u64 mask)
{
	struct dmaemu_machine *m =
		dmaemu__dev_machine_or_report(dev, "dma_supported");

	return m && dmaemu__dma_mask_supported(m, mask);
}

/**
 * dma_set_mask() - set the streaming DMA mask.
 * @dev:  the device.
 * @mask: the mask.
 *
 * Return: 0; -EIO when @dev has no dma_mask storage or the mask is not
 * supported (dma_supported()), leaving the old mask (a driver retries
 * with a smaller one, as with DMA_BIT_MASK(64) then 32); -EINVAL for a bad
 * device (reported).
 */
int dma_set_mask(struct device *dev, u64 mask)
{
	struct dmaemu_machine *m =
		dmaemu__dev_machine_or_report(dev, "dma_set_mask");

	if (!m)
		return -EINVAL;
	if (!dev->dma_mask || !dmaemu__dma_mask_supported(m, mask))
		return -EIO;
	*dev->dma_mask = mask;
	return 0;
}

/**
 * dma_set_coherent_mask() - set the mask of coherent allocations.
 * @dev:  the device.
 * @mask: the mask; dma_alloc_attrs() takes memory below it (ZONE_DMA for
 *        24 bits or less, ZONE_DMA32 for 32 bits or less).
 *
 * Return: 0; -EIO when the mask is not supported; -EINVAL for a bad
 * device (reported).
 */
int dma_set_coherent_mask(struct device *dev, u64 mask)
{
	struct dmaemu_machine *m =
		dmaemu__dev_machine_or_report(dev, "dma_set_coherent_mask");

	if (!m)
		return -EINVAL;
	if (!dmaemu__dma_mask_supported(m, mask))
		return -EIO;
	dev->coherent_dma_mask = mask;
	return 0;
}

/**
 * dma_set_mask_and_coherent() - set both masks to @mask.
 * @dev:  the device.
 * @mask: the mask.
 *
 * Return: as dma_set_mask(); the coherent mask is only set when the
 * streaming one was.
 */
int dma_set_mask_and_coherent(struct device *dev, u64 mask)
{
	int ret = dma_set_mask(dev, mask);

	if (!ret)
		ret = dma_set_coherent_mask(dev, mask);
	return ret;
}

/**
 * dma_coerce_mask_and_coherent() - make dma_mask point at the coherent
 * mask, then set both.
 * @dev:  the device.
 * @mask: the mask.
 *
 * For devices whose dma_mask pointer was never set up.  Afterwards the two
 * masks are one variable: setting either sets both.
 *
 * Return: as dma_set_mask_and_coherent().
 */
int dma_coerce_mask_and_coherent(struct device *dev, u64 mask)
{
	if (!dmaemu__dev_machine_or_report(dev, "dma_coerce_mask_and_coherent"))
		return -EINVAL;
	dev->dma_mask = &dev->coherent_dma_mask;
	return dma_set_mask_and_coherent(dev, mask);
}

/**
 * dma_get_mask() - the streaming DMA mask.
 * @dev: the device (may be NULL).
 *
 * Return: *@dev->dma_mask, or DMA_BIT_MASK(32) when there is no device,
 * no mask storage or a zero mask, as in Linux.
 */
u64 dma_get_mask(struct device *dev)
{
	if (dev && dev->dma_mask && *dev->dma_mask)
		return *dev->dma_mask;
	return DMA_BIT_MASK(32);
}

/**
 * dma_get_required_mask() - the mask that reaches all of DRAM.
 * @dev: the device.
 *
 * Return: the smallest all-ones mask covering the highest bus address of
 * DRAM (DMA_BIT_MASK(32) on a machine without memory above 4 GiB and
 * without dma_offset); 0 for a bad device (reported).
 */
u64 dma_get_required_mask(struct device *dev)
{
	struct dmaemu_machine *m =
		dmaemu__dev_machine_or_report(dev, "dma_get_required_mask");
	uint64_t lo, hi;

	if (!m)
		return 0;
	dram_bus_range(m, &lo, &hi);
	if (hi >> 63)
		return DMA_BIT_MASK(64);
	return (UINT64_C(1) << (64 - __builtin_clzll(hi))) - 1;
}

/**
 * dma_get_cache_alignment() - the alignment that keeps DMA buffers off
 * each other's cache lines: ARCH_DMA_MINALIGN of the current machine.
 *
 * That is its dma_minalign option, which defaults to its cache line size
 * (and can be set smaller to demonstrate the line-sharing bug).
 *
 * Return: the alignment in bytes; 1 when there is no current machine
 * (Linux's value on an architecture without ARCH_DMA_MINALIGN).
 */
int dma_get_cache_alignment(void)
{
	struct dmaemu_machine *m = dmaemu_machine_current();

	return m ? (int)m->opt.dma_minalign : 1;
}

/**
 * dma_get_max_seg_size() - the longest segment @dev takes.
 * @dev: the device.
 *
 * Return: dma_parms->max_segment_size, or 64 KiB (Linux's default) when
 * the device has no dma_parms or it is 0.
 */
unsigned int dma_get_max_seg_size(struct device *dev)
{
	if (dev && dev->dma_parms && dev->dma_parms->max_segment_size)
		return dev->dma_parms->max_segment_size;
	return DEFAULT_MAX_SEG_SIZE;
}

/**
 * dma_set_max_seg_size() - set the longest segment @dev takes.
 * @dev:  the device.
 * @size: bytes.
 *
 * Return: 0; -EIO when @dev has no dma_parms; -EINVAL for a bad device
 * (reported).
 */
int dma_set_max_seg_size(struct device *dev, unsigned int size)
{
	if (!dmaemu__dev_machine_or_report(dev, "dma_set_max_seg_size"))
		return -EINVAL;
	if (!dev->dma_parms)
		return -EIO;
	dev->dma_parms->max_segment_size = size;
	return 0;
}

/**
 * dma_get_seg_boundary() - the address boundary no segment may cross,
 * as a mask (boundary - 1).
 * @dev: the device.
 *
 * Return: dma_parms->segment_boundary_mask, or 0xffffffff (Linux's
 * default) when the device has no dma_parms or it is 0.
 */
unsigned long dma_get_seg_boundary(struct device *dev)
{
	if (dev && dev->dma_parms && dev->dma_parms->segment_boundary_mask)
		return dev->dma_parms->segment_boundary_mask;
	return DEFAULT_SEG_BOUNDARY;
}

/**
 * dma_set_seg_boundary() - set the segment boundary mask of @dev.
 * @dev:  the device.
 * @mask: boundary - 1, with the boundary a power of two of at least a
 *        page (the mappers rely on it).
 *
 * Return: 0; -EIO when @dev has no dma_parms; -EINVAL (reported) for a bad
 * device or a mask that is not one less than such a power of two.
 */
int dma_set_seg_boundary(struct device *dev, unsigned long mask)
{
	struct dmaemu_machine *m =
		dmaemu__dev_machine_or_report(dev, "dma_set_seg_boundary");

	if (!m)
		return -EINVAL;
	if (!dev->dma_parms)
		return -EIO;
	if ((mask & (mask + 1)) || mask < DMAEMU__PAGE_SIZE - 1) {
		dmaemu__reportf(
			m, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
			"dma_set_seg_boundary: mask %#lx of device %s is "
			"not a power of two (of at least a page) minus 1",
			mask, dev_name(dev));
		return -EINVAL;
	}
	dev->dma_parms->segment_boundary_mask = mask;
	return 0;
}
