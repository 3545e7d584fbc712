/* SPDX-License-Identifier: MIT */
/*
 * <dmaemu/devices/camera.h> - the streaming camera: a producer that fills
 * a ring of driver-given buffers with frames of a seeded pattern, one per
 * period of emulated time.  Data sheet: docs/devices/camera.md.
 */
#ifndef DMAEMU_DEVICES_CAMERA_H
#define DMAEMU_DEVICES_CAMERA_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct dmaemu_machine;
struct dmaemu_device;

/* Platform device name: a platform_driver of this name probes it. */
#define DMAEMU_CAM_NAME "dmaemu-camera"
#define DMAEMU_CAM_ID_VALUE 0xca3e0001u

/* Registers: 32-bit, little-endian; other widths read 0, writes ignored. */
#define DMAEMU_CAM_REG_ID 0x00		/* RO */
#define DMAEMU_CAM_REG_CTRL 0x04	/* RW */
#define DMAEMU_CAM_REG_STATUS 0x08	/* RO */
#define DMAEMU_CAM_REG_INT_STATUS 0x0c	/* RW1C */
#define DMAEMU_CAM_REG_INT_ENABLE 0x10	/* RW */
#define DMAEMU_CAM_REG_FRAME_SIZE 0x14	/* RW, bytes */
#define DMAEMU_CAM_REG_PERIOD_US 0x18	/* RW, emulated microseconds */
#define DMAEMU_CAM_REG_SEED 0x1c	/* RW, the pattern's seed */
#define DMAEMU_CAM_REG_QUEUE 0x20	/* WO: give buffer n to the camera */
#define DMAEMU_CAM_REG_DONE 0x24	/* RW1C: bit n, buffer n has a frame */
#define DMAEMU_CAM_REG_FRAMES 0x28	/* RO: frames written */
#define DMAEMU_CAM_REG_DROPPED 0x2c	/* RO: frames with no buffer queued */
#define DMAEMU_CAM_REG_ERR_ADDR_LO 0x30 /* RO */
#define DMAEMU_CAM_REG_ERR_ADDR_HI 0x34 /* RO */
/* Buffer n's bus address, n < DMAEMU_CAM_MAX_BUFS: RW. */
#define DMAEMU_CAM_REG_BUF_LO(n) (0x40 + 8 * (n))
#define DMAEMU_CAM_REG_BUF_HI(n) (0x44 + 8 * (n))
#define DMAEMU_CAM_MMIO_SIZE 0x80

#define DMAEMU_CAM_MAX_BUFS 8

/* CTRL bits. */
#define DMAEMU_CAM_CTRL_ENABLE 0x1u	  /* stream */
#define DMAEMU_CAM_CTRL_RESET 0x80000000u /* reset the camera (reads 0) */

#define DMAEMU_CAM_STATUS_RUNNING 0x1u

/* INT_STATUS / INT_ENABLE bits; the interrupt is line 0, level. */
#define DMAEMU_CAM_INT_FRAME 0x1u /* a buffer got a frame (DONE) */
#define DMAEMU_CAM_INT_ERROR 0x2u /* a frame could not be written */
#define DMAEMU_CAM_INT_DROP 0x4u  /* a period passed with no buffer */

/* FRAME_SIZE limits: a multiple of 4 in [MIN, MAX]. */
#define DMAEMU_CAM_MIN_FRAME 16u
#define DMAEMU_CAM_MAX_FRAME (4u << 20)
#define DMAEMU_CAM_CHUNK (64u << 10) /* bytes written per DMA call */

/*
 * A frame: a 16-byte header, written last, then the pattern.  Header
 * words (little-endian): DMAEMU_CAM_MAGIC, the frame's sequence number
 * (0, 1, ...), FRAME_SIZE, the buffer's index.
 */
#define DMAEMU_CAM_MAGIC 0x4d415246u /* "FRAM" */
#define DMAEMU_CAM_HEADER 16u

/**
 * dmaemu_camera_pattern() - byte @off (>= DMAEMU_CAM_HEADER) of frame
 * @seq under pattern seed @seed, for checking what the camera wrote.
 */
static inline uint8_t dmaemu_camera_pattern(uint32_t seed, uint32_t seq,
					    size_t off)
{
	uint32_t x = seed * 0x9e3779b1u ^ seq * 0x85ebca6bu ^
		     (uint32_t)(off >> 2) * 0xc2b2ae35u;

	x ^= x >> 15;
	x *= 0x2c1b3c6du;
	x ^= x >> 12;
	return (uint8_t)(x >> (8 * (off & 3)));
}

/**
 * dmaemu_camera_create() - add a camera to machine @m.
 * @m:    the machine.
 * @name: the device's name (dev_name()).
 *
 * The camera is in its reset state; it is a 64-bit bus master.  A
 * registered platform driver named DMAEMU_CAM_NAME probes it before this
 * returns.  dmaemu_device_destroy() removes it.
 *
 * Return: the device, or NULL with errno set (see dmaemu_device_create()).
 */
struct dmaemu_device *dmaemu_camera_create(struct dmaemu_machine *m,
					   const char *name);

#ifdef __cplusplus
}
#endif

#endif
