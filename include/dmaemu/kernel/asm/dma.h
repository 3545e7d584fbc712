/* SPDX-License-Identifier: MIT */
/*
 * <asm/dma.h> - the limit of the legacy DMA zone.
 *
 * ZONE_DMA is the memory below 16 MiB on every profile (<linux/mmzone.h>).
 * MAX_DMA_PFN and MAX_DMA32_PFN are its and ZONE_DMA32's page frame
 * limits.  MAX_DMA_ADDRESS is, as in the kernel, a linear-map (virtual)
 * address: the end of ZONE_DMA in the current machine's linear map, so
 * that a buffer below it is in ZONE_DMA.  It is computed at run time
 * (dmaemu_max_dma_address()), since the linear map is where the machine
 * put it; a machine with no memory below 16 MiB has nothing below it (0).
 */
#ifndef DMAEMU_KERNEL_ASM_DMA_H
#define DMAEMU_KERNEL_ASM_DMA_H

#ifdef __cplusplus
extern "C" {
#endif

#define MAX_DMA_PFN ((16UL * 1024 * 1024) >> 12)
#define MAX_DMA32_PFN ((4UL * 1024 * 1024 * 1024) >> 12)

/**
 * dmaemu_max_dma_address() - the linear-map address where the current
 * machine's ZONE_DMA memory ends; 0 when it has none (or there is no
 * current machine).
 */
unsigned long dmaemu_max_dma_address(void);

#define MAX_DMA_ADDRESS dmaemu_max_dma_address()

#ifdef __cplusplus
}
#endif

#endif
