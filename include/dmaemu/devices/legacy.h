/* SPDX-License-Identifier: MIT */
/*
 * <dmaemu/devices/legacy.h> - the legacy block device model of
 * libdmaemu-devices: a DMA engine with 32-bit address registers that moves
 * blocks between memory and its own store.  It cannot reach memory above
 * 4 GiB, so the DMA API bounces such buffers through swiotlb.
 * docs/devices/legacy.md is its data sheet; the names below are the
 * model's, for tests and tools (a driver defines its own, from the data
 * sheet, as drivers do).
 */
#ifndef DMAEMU_DEVICES_LEGACY_H
#define DMAEMU_DEVICES_LEGACY_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct dmaemu_machine;
struct dmaemu_device;

/* Platform device name: a platform_driver of this name probes it. */
#define DMAEMU_LEGACY_NAME "dmaemu-legacy"
#define DMAEMU_LEGACY_ID_VALUE 0x1e9a0001u

/* Registers: 32-bit, little-endian; other widths read 0, writes ignored. */
#define DMAEMU_LEGACY_REG_ID 0x00	  /* RO */
#define DMAEMU_LEGACY_REG_CMD 0x04	  /* WO (reads 0), doorbell */
#define DMAEMU_LEGACY_REG_STATUS 0x08	  /* RO */
#define DMAEMU_LEGACY_REG_INT_STATUS 0x0c /* RW1C */
#define DMAEMU_LEGACY_REG_INT_ENABLE 0x10 /* RW */
#define DMAEMU_LEGACY_REG_ADDR 0x14	  /* RW: bus address, 32 bits */
#define DMAEMU_LEGACY_REG_LEN 0x18	  /* RW */
#define DMAEMU_LEGACY_REG_OFFSET 0x1c	  /* RW: byte offset in the store */
#define DMAEMU_LEGACY_REG_PATTERN 0x20	  /* RW */
#define DMAEMU_LEGACY_REG_ERR_CODE 0x24	  /* RO */
#define DMAEMU_LEGACY_REG_ERR_ADDR 0x28	  /* RO */
#define DMAEMU_LEGACY_REG_COMPLETED 0x2c  /* RO */
#define DMAEMU_LEGACY_MMIO_SIZE 0x30

/* CMD: opcode in bits 0-3, or RESET. */
#define DMAEMU_LEGACY_CMD_READ 1u  /* store -> memory (device writes) */
#define DMAEMU_LEGACY_CMD_WRITE 2u /* memory -> store (device reads) */
#define DMAEMU_LEGACY_CMD_FILL 3u  /* PATTERN -> memory (device writes) */
#define DMAEMU_LEGACY_CMD_OP_MASK 0xfu
#define DMAEMU_LEGACY_CMD_RESET 0x80000000u

#define DMAEMU_LEGACY_STATUS_BUSY 0x1u

#define DMAEMU_LEGACY_INT_DONE 0x1u
#define DMAEMU_LEGACY_INT_ERROR 0x2u

/* Error codes (ERR_CODE). */
#define DMAEMU_LEGACY_ERR_OPCODE 1 /* unknown opcode */
#define DMAEMU_LEGACY_ERR_LENGTH 2 /* LEN 0 or above DMAEMU_LEGACY_MAX_LEN */
#define DMAEMU_LEGACY_ERR_RANGE 3  /* OFFSET + LEN beyond the store */
#define DMAEMU_LEGACY_ERR_DMA 4	   /* the memory cannot be read/written */
#define DMAEMU_LEGACY_ERR_BUSY 5   /* a command while one runs: ignored */

#define DMAEMU_LEGACY_MAX_LEN (64u << 10)   /* bytes per command */
#define DMAEMU_LEGACY_STORE_SIZE (1u << 20) /* bytes of the store */

/**
 * dmaemu_legacy_create() - add a legacy block device to machine @m.
 * @m:    the machine.
 * @name: the device's name (dev_name()).
 *
 * The device is in its reset state, its store all zeros, and its
 * streaming and coherent DMA masks are set to 32 bits (DMA_BIT_MASK(32)):
 * its address register has 32 bits.  A registered platform driver named
 * DMAEMU_LEGACY_NAME probes it before this returns (the masks start at 32
 * bits, see dmaemu_device_create()); masks it left wider are narrowed to
 * 32 bits after the probe, narrower ones (DMA_BIT_MASK(24), an ISA-style
 * part) are kept.
 * dmaemu_device_destroy() removes it.
 *
 * Return: the device, or NULL with errno set (see dmaemu_device_create()).
 */
struct dmaemu_device *dmaemu_legacy_create(struct dmaemu_machine *m,
					   const char *name);

#ifdef __cplusplus
}
#endif

#endif
