/* SPDX-License-Identifier: MIT */
/*
 * <dmaemu/devices/copy-engine.h> - the copy engine model of
 * libdmaemu-devices: a DMA engine that runs copy and fill commands from a
 * descriptor ring.  docs/devices/copy-engine.md is its data sheet; the
 * names below are the model's, for tests and tools (a driver defines its
 * own, from the data sheet, as drivers do).
 */
#ifndef DMAEMU_DEVICES_COPY_ENGINE_H
#define DMAEMU_DEVICES_COPY_ENGINE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct dmaemu_machine;
struct dmaemu_device;

/* Platform device name: a platform_driver of this name probes it. */
#define DMAEMU_CE_NAME "dmaemu-copy-engine"
#define DMAEMU_CE_ID_VALUE 0xce0c0001u

/* Registers: 32-bit, little-endian; other widths read 0, writes ignored. */
#define DMAEMU_CE_REG_ID 0x00	       /* RO */
#define DMAEMU_CE_REG_CTRL 0x04	       /* RW */
#define DMAEMU_CE_REG_STATUS 0x08      /* RO */
#define DMAEMU_CE_REG_INT_STATUS 0x0c  /* RW1C */
#define DMAEMU_CE_REG_INT_ENABLE 0x10  /* RW */
#define DMAEMU_CE_REG_RING_LO 0x14     /* RW */
#define DMAEMU_CE_REG_RING_HI 0x18     /* RW */
#define DMAEMU_CE_REG_RING_SIZE 0x1c   /* RW */
#define DMAEMU_CE_REG_HEAD 0x20	       /* RO */
#define DMAEMU_CE_REG_TAIL 0x24	       /* RW, doorbell */
#define DMAEMU_CE_REG_COALESCE 0x28    /* RW */
#define DMAEMU_CE_REG_ERR_CODE 0x2c    /* RO */
#define DMAEMU_CE_REG_ERR_ADDR_LO 0x30 /* RO */
#define DMAEMU_CE_REG_ERR_ADDR_HI 0x34 /* RO */
#define DMAEMU_CE_REG_COMPLETED 0x38   /* RO */
#define DMAEMU_CE_MMIO_SIZE 0x40

#define DMAEMU_CE_CTRL_ENABLE 0x1u
#define DMAEMU_CE_CTRL_PAUSE 0x2u
#define DMAEMU_CE_CTRL_RESET 0x80000000u

#define DMAEMU_CE_STATUS_BUSY 0x1u
#define DMAEMU_CE_STATUS_PAUSED 0x2u
#define DMAEMU_CE_STATUS_HALTED 0x4u

#define DMAEMU_CE_INT_DONE 0x1u
#define DMAEMU_CE_INT_ERROR 0x2u

/* Error codes (ERR_CODE, and bits 8-15 of a descriptor's status). */
#define DMAEMU_CE_ERR_FETCH 1	  /* descriptor read failed: halted */
#define DMAEMU_CE_ERR_WRITEBACK 2 /* status write failed: halted */
#define DMAEMU_CE_ERR_RING 3	  /* bad ring base or size: halted */
#define DMAEMU_CE_ERR_OPCODE 4	  /* unknown opcode */
#define DMAEMU_CE_ERR_LENGTH 5	  /* length 0 or above the maximum */
#define DMAEMU_CE_ERR_SRC 6	  /* source read failed */
#define DMAEMU_CE_ERR_DST 7	  /* destination write failed */

/* Descriptors: 32 bytes, little-endian, 32-byte aligned. */
#define DMAEMU_CE_DESC_SIZE 32
#define DMAEMU_CE_DESC_CTRL 0x00   /* u32: opcode bits 0-7, IRQ bit 8 */
#define DMAEMU_CE_DESC_LEN 0x04	   /* u32: bytes */
#define DMAEMU_CE_DESC_SRC 0x08	   /* u64: source, or the fill pattern */
#define DMAEMU_CE_DESC_DST 0x10	   /* u64: destination */
#define DMAEMU_CE_DESC_STATUS 0x18 /* u32: written back by the engine */
#define DMAEMU_CE_DESC_COOKIE 0x1c /* u32: the driver's, untouched */

#define DMAEMU_CE_OP_COPY 1u
#define DMAEMU_CE_OP_FILL 2u
#define DMAEMU_CE_DESC_IRQ 0x100u

#define DMAEMU_CE_DESC_DONE 0x1u
#define DMAEMU_CE_DESC_ERROR 0x2u
#define DMAEMU_CE_DESC_CODE_SHIFT 8

#define DMAEMU_CE_MAX_LEN (16u << 20) /* bytes per descriptor */
#define DMAEMU_CE_CHUNK (64u << 10)   /* bytes moved per step */
#define DMAEMU_CE_MAX_RING 4096	      /* descriptors */

/**
 * dmaemu_copy_engine_create() - add a copy engine to machine @m.
 * @m:    the machine.
 * @name: the device's name (dev_name()).
 *
 * The engine is in its reset state; a registered platform driver named
 * DMAEMU_CE_NAME probes it before this returns.  dmaemu_device_destroy()
 * removes it.
 *
 * Return: the device, or NULL with errno set (see dmaemu_device_create()).
 */
struct dmaemu_device *dmaemu_copy_engine_create(struct dmaemu_machine *m,
						const char *name);

#ifdef __cplusplus
}
#endif

#endif
