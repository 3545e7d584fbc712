/* SPDX-License-Identifier: MIT */
/*
 * ce-driver.h - the reference driver of the copy engine
 * (docs/devices/copy-engine.md): what its users call.
 */
#ifndef CE_DRIVER_H
#define CE_DRIVER_H

#include <linux/dma-mapping.h>
#include <linux/platform_device.h>

struct cedrv;

/* The platform driver: register it, then engines are probed. */
extern struct platform_driver cedrv_driver;

/* The first engine bound to the driver, or NULL. */
struct cedrv *cedrv_first(void);

/*
 * Queue one descriptor (@op: CE_OP_COPY from @src, or CE_OP_FILL with the
 * 32-bit pattern @src) of @len bytes to bus address @dst, and wait for it.
 * The engine checks @op and @len (a bad one is its error, not ours).
 * Return: 0; -EIO when the engine reported an error for it (or halted);
 * -ETIMEDOUT; -EINVAL for a NULL @ce.
 */
int cedrv_run(struct cedrv *ce, u32 op, u64 src, dma_addr_t dst, u32 len);

/* memcpy() and a 32-bit memset() by the engine, between kernel buffers
 * (kmalloc()ed or pages: the linear map).  Return: as cedrv_run(), or
 * -ENOMEM when a buffer cannot be mapped. */
int cedrv_memcpy(struct cedrv *ce, void *dst, const void *src, size_t len);
int cedrv_memset32(struct cedrv *ce, void *dst, u32 pattern, size_t len);

/* Interrupts taken so far. */
unsigned long cedrv_irqs(struct cedrv *ce);

#define CE_OP_COPY 1u
#define CE_OP_FILL 2u

#endif
