/* SPDX-License-Identifier: MIT */
/*
 * legacy-driver.h - the reference driver of the legacy block device
 * (docs/devices/legacy.md): what its users call.
 */
#ifndef LEGACY_DRIVER_H
#define LEGACY_DRIVER_H

#include <linux/dma-mapping.h>
#include <linux/platform_device.h>

struct legdrv;

/* The platform driver: register it, then devices are probed. */
extern struct platform_driver legdrv_driver;

/*
 * The device's address width (a module parameter): 32, or 24 for an
 * ISA-style bus master that reaches the first 16 MiB only.  probe() sets
 * the DMA masks to it.
 */
extern int legdrv_dma_bits;

/* The first device bound to the driver, or NULL. */
struct legdrv *legdrv_first(void);

/* The device's struct device, for mapping buffers for it. */
struct device *legdrv_dev(struct legdrv *lg);

/*
 * Run one command (LEG_CMD_*) of @len bytes (1 .. 64 KiB) on bus address
 * @addr, at byte @offset of the store (READ, WRITE) or with the 32-bit
 * @pattern (FILL), and wait for it.  Return: 0; -EIO when the device
 * reported an error; -ETIMEDOUT; -EINVAL for a NULL @lg or an @addr
 * beyond the device's reach.
 */
int legdrv_cmd(struct legdrv *lg, u32 op, dma_addr_t addr, u32 offset, u32 len,
	       u32 pattern);

/*
 * Move @len bytes between the kernel buffer @buf and the store at
 * @offset: legdrv_read() store -> @buf, legdrv_write() @buf -> store.
 * The buffer may lie anywhere: the DMA API bounces what the device cannot
 * reach.  Return: as legdrv_cmd(), or -ENOMEM when @buf cannot be mapped.
 */
int legdrv_read(struct legdrv *lg, void *buf, u32 offset, size_t len);
int legdrv_write(struct legdrv *lg, const void *buf, u32 offset, size_t len);

#define LEG_CMD_READ 1u	 /* store -> memory */
#define LEG_CMD_WRITE 2u /* memory -> store */
#define LEG_CMD_FILL 3u	 /* pattern -> memory */
#define LEG_MAX_LEN (64u << 10)

#endif
