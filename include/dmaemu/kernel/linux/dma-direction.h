/* SPDX-License-Identifier: MIT */
/*
 * <linux/dma-direction.h> - which way data moves in a DMA mapping.
 */
#ifndef DMAEMU_KERNEL_LINUX_DMA_DIRECTION_H
#define DMAEMU_KERNEL_LINUX_DMA_DIRECTION_H

/**
 * enum dma_data_direction - direction of a streaming mapping.
 * @DMA_BIDIRECTIONAL: the device may read and write the buffer.
 * @DMA_TO_DEVICE:     the device reads what the CPU wrote.
 * @DMA_FROM_DEVICE:   the device writes what the CPU will read.
 * @DMA_NONE:          for debugging only; never valid for a mapping.
 */
enum dma_data_direction {
	DMA_BIDIRECTIONAL = 0,
	DMA_TO_DEVICE = 1,
	DMA_FROM_DEVICE = 2,
	DMA_NONE = 3,
};

/** valid_dma_direction() - is @dir one a mapping may use? */
static inline int valid_dma_direction(int dir)
{
	return dir == DMA_BIDIRECTIONAL || dir == DMA_TO_DEVICE ||
	       dir == DMA_FROM_DEVICE;
}

#endif
