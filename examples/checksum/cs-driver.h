/* SPDX-License-Identifier: MIT */
/*
 * cs-driver.h - the reference driver of the checksum engine
 * (docs/devices/checksum.md): what its users call.
 */
#ifndef CS_DRIVER_H
#define CS_DRIVER_H

#include <linux/dma-mapping.h>
#include <linux/platform_device.h>

struct csdrv;

/* The platform driver: register it, then engines are probed. */
extern struct platform_driver csdrv_driver;

/* The first engine bound to the driver, or NULL. */
struct csdrv *csdrv_first(void);

/* The engine's struct device, for mapping buffers for it. */
struct device *csdrv_dev(struct csdrv *cs);

/*
 * Start the CRC-32 of @len bytes at bus address @src (mapped for this
 * engine by the caller), and return at once; csdrv_wait() gives the
 * result.  One job at a time: csdrv_start() holds the engine until
 * csdrv_wait() returns.  Return: 0; -EINVAL for a NULL @cs or a @len of 0
 * or above 16 MiB.
 */
int csdrv_start(struct csdrv *cs, dma_addr_t src, size_t len);

/*
 * Wait for the job started, and give its CRC-32 in *@crc.
 * Return: 0; -EIO when the engine reported an error; -ETIMEDOUT.
 */
int csdrv_wait(struct csdrv *cs, u32 *crc);

/*
 * The CRC-32 of the kernel buffer @buf: map it for the engine with @attrs
 * (DMA_ATTR_SKIP_CPU_SYNC when another device's mapping of it did the
 * cache work already), checksum it, unmap it.  Return: as csdrv_wait(),
 * -EINVAL as csdrv_start(), or -ENOMEM when @buf cannot be mapped.
 */
int csdrv_crc32(struct csdrv *cs, const void *buf, size_t len,
		unsigned long attrs, u32 *crc);

#endif
