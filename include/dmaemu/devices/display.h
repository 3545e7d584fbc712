/* SPDX-License-Identifier: MIT */
/*
 * <dmaemu/devices/display.h> - the display controller model of
 * libdmaemu-devices: on each FLIP it scans a framebuffer out of memory by
 * DMA, row by row, keeps the frame it scanned and raises its vblank
 * interrupt.  Tests and tools can read that frame's pixels or save it as a
 * PNG file.  docs/devices/display.md is its data sheet; the register names
 * below are the model's, for tests and tools (a driver defines its own,
 * from the data sheet, as drivers do).
 */
#ifndef DMAEMU_DEVICES_DISPLAY_H
#define DMAEMU_DEVICES_DISPLAY_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct dmaemu_machine;
struct dmaemu_device;

/* Platform device name: a platform_driver of this name probes it. */
#define DMAEMU_DISP_NAME "dmaemu-display"
#define DMAEMU_DISP_ID_VALUE 0xd1590001u

/* Registers: 32-bit, little-endian; other widths read 0, writes ignored. */
#define DMAEMU_DISP_REG_ID 0x00		 /* RO */
#define DMAEMU_DISP_REG_CTRL 0x04	 /* RW */
#define DMAEMU_DISP_REG_STATUS 0x08	 /* RO */
#define DMAEMU_DISP_REG_INT_STATUS 0x0c	 /* RW1C */
#define DMAEMU_DISP_REG_INT_ENABLE 0x10	 /* RW */
#define DMAEMU_DISP_REG_FB_LO 0x14	 /* RW */
#define DMAEMU_DISP_REG_FB_HI 0x18	 /* RW */
#define DMAEMU_DISP_REG_WIDTH 0x1c	 /* RW */
#define DMAEMU_DISP_REG_HEIGHT 0x20	 /* RW */
#define DMAEMU_DISP_REG_STRIDE 0x24	 /* RW */
#define DMAEMU_DISP_REG_FORMAT 0x28	 /* RW */
#define DMAEMU_DISP_REG_FLIP 0x2c	 /* WO (reads 0), doorbell */
#define DMAEMU_DISP_REG_ERR_CODE 0x30	 /* RO */
#define DMAEMU_DISP_REG_ERR_ADDR_LO 0x34 /* RO */
#define DMAEMU_DISP_REG_ERR_ADDR_HI 0x38 /* RO */
#define DMAEMU_DISP_REG_FRAMES 0x3c	 /* RO */
#define DMAEMU_DISP_REG_CRC 0x40	 /* RO: CRC-32 of the last frame */
#define DMAEMU_DISP_MMIO_SIZE 0x48

/* CTRL bits. */
#define DMAEMU_DISP_CTRL_ENABLE 0x1u	   /* scan-out allowed */
#define DMAEMU_DISP_CTRL_RESET 0x80000000u /* reset (reads 0) */

#define DMAEMU_DISP_STATUS_BUSY 0x1u /* a frame is being scanned */

#define DMAEMU_DISP_INT_VBLANK 0x1u /* a frame was scanned out */
#define DMAEMU_DISP_INT_ERROR 0x2u

/* Pixel formats (FORMAT), named as Linux's DRM_FORMAT_* are. */
#define DMAEMU_DISP_FMT_XRGB8888 1 /* 32 bits: 0xXXRRGGBB, little-endian */
#define DMAEMU_DISP_FMT_RGB565 2   /* 16 bits: R 15-11, G 10-5, B 4-0 */

/* Error codes (ERR_CODE). */
#define DMAEMU_DISP_ERR_FORMAT 1   /* FORMAT is not a known format */
#define DMAEMU_DISP_ERR_GEOMETRY 2 /* WIDTH, HEIGHT or STRIDE out of range */
#define DMAEMU_DISP_ERR_FETCH 3	   /* a row of the framebuffer unreadable */
#define DMAEMU_DISP_ERR_BUSY 4	   /* FLIP while a frame is scanned */
#define DMAEMU_DISP_ERR_DISABLED 5 /* FLIP with CTRL.ENABLE clear */
#define DMAEMU_DISP_ERR_NOMEM 6	   /* no host memory for the frame */

#define DMAEMU_DISP_MAX_WIDTH 2048
#define DMAEMU_DISP_MAX_HEIGHT 2048
#define DMAEMU_DISP_MAX_STRIDE 65536 /* bytes */

/**
 * struct dmaemu_display_frame - what a display scanned out last.
 * @seq:    its number: FRAMES after it was scanned (1 for the first frame
 *          since creation or reset).
 * @width:  pixels per row.
 * @height: rows.
 * @format: DMAEMU_DISP_FMT_*.
 * @bpp:    bytes per pixel (4 or 2).
 * @fb:     the bus address it was scanned from.
 */
struct dmaemu_display_frame {
	uint32_t seq;
	uint32_t width;
	uint32_t height;
	uint32_t format;
	uint32_t bpp;
	uint64_t fb;
};

/**
 * dmaemu_display_create() - add a display controller to machine @m.
 * @m:    the machine.
 * @name: the device's name (dev_name()).
 *
 * The controller is in its reset state (disabled, no frame scanned); it
 * is a 64-bit bus master (its driver sets DMA_BIT_MASK(64)).  A registered
 * platform driver named DMAEMU_DISP_NAME probes it before this returns.
 * dmaemu_device_destroy() removes it.
 *
 * Return: the device, or NULL with errno set (see dmaemu_device_create()).
 */
struct dmaemu_device *dmaemu_display_create(struct dmaemu_machine *m,
					    const char *name);

/**
 * dmaemu_display_last_frame() - the pixels of the frame @dev scanned out
 * last, as it read them from memory.
 * @dev:  a display made by dmaemu_display_create().
 * @info: filled in with the frame's geometry (may be NULL).
 * @buf:  where the pixels go: @height rows of @width * @bpp bytes each, in
 *        the frame's format, with no padding between rows (may be NULL
 *        when @size is 0, to learn the size).
 * @size: bytes at @buf.
 *
 * A frame whose scan-out failed (ERR_FETCH) or was stopped by a reset is
 * not a frame: the last whole one stays.  Thread-safe; may be called while
 * the display scans the next frame (it gives the previous one, whole).
 *
 * Return: the frame's size in bytes (@buf filled when @size is at least
 * that); -ENOSPC when @size is not 0 but too small (@info filled, @buf
 * untouched); -ENODATA when no frame was scanned since creation or reset;
 * -EINVAL when @dev is NULL or not a live display, or @buf is NULL with
 * @size not 0.
 */
long dmaemu_display_last_frame(struct dmaemu_device *dev,
			       struct dmaemu_display_frame *info, void *buf,
			       size_t size);

/**
 * dmaemu_display_save_png() - write the frame @dev scanned out last to
 * the file @path as a PNG image (8-bit RGB, the frame's width and height;
 * RGB565 pixels are widened to 8 bits per channel by replicating their
 * top bits).
 * @dev:  a display made by dmaemu_display_create().
 * @path: the file; created or truncated.
 *
 * Return: 0; -ENODATA when no frame was scanned since creation or reset;
 * -EINVAL when @dev is NULL or not a live display, or @path is NULL; -EIO
 * when the file cannot be written (errno may tell more); -ENOMEM when out
 * of host memory.
 */
int dmaemu_display_save_png(struct dmaemu_device *dev, const char *path);

#ifdef __cplusplus
}
#endif

#endif
