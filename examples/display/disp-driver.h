/* SPDX-License-Identifier: MIT */
/*
 * disp-driver.h - the reference driver of the display controller
 * (docs/devices/display.md): what its users call, in place of DRM.
 */
#ifndef DISP_DRIVER_H
#define DISP_DRIVER_H

#include <linux/dma-mapping.h>
#include <linux/platform_device.h>

struct dispdrv;

/* The platform driver: register it, then controllers are probed. */
extern struct platform_driver dispdrv_driver;

/* The mode: XRGB8888, DISP_WIDTH x DISP_HEIGHT, rows packed. */
#define DISP_WIDTH 160
#define DISP_HEIGHT 120
#define DISP_STRIDE (DISP_WIDTH * 4)
#define DISP_FB_SIZE (DISP_STRIDE * DISP_HEIGHT)

/* The first controller bound to the driver, or NULL. */
struct dispdrv *dispdrv_first(void);

/*
 * The framebuffer to draw the next frame in: write-combining memory, the
 * one not on screen (double buffering).  Write it only: reads of
 * write-combining memory are uncached and slow.
 */
u32 *dispdrv_back(struct dispdrv *dd);

/*
 * Show the back buffer: scan it out and wait for its vblank; it becomes
 * the front buffer and the other one the back.  *@crc gets the CRC-32
 * the controller computed of the frame it scanned (its bytes in memory
 * order, rows packed).  Return: 0; -EIO when the controller reported an
 * error; -ETIMEDOUT; -EINVAL for a NULL @dd.
 */
int dispdrv_flip(struct dispdrv *dd, u32 *crc);

/* Vblank interrupts taken so far. */
unsigned long dispdrv_vblanks(struct dispdrv *dd);

#endif
