/* SPDX-License-Identifier: MIT */
/*
 * <dmaemu/devices/checksum.h> - the checksum engine model of
 * libdmaemu-devices: it reads a buffer by DMA, computes its CRC-32 and
 * gives the result in a register and, on request, by a DMA write.
 * docs/devices/checksum.md is its data sheet; the names below are the
 * model's, for tests and tools (a driver defines its own, from the data
 * sheet, as drivers do).
 */
#ifndef DMAEMU_DEVICES_CHECKSUM_H
#define DMAEMU_DEVICES_CHECKSUM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct dmaemu_machine;
struct dmaemu_device;

/* Platform device name: a platform_driver of this name probes it. */
#define DMAEMU_CSUM_NAME "dmaemu-checksum"
#define DMAEMU_CSUM_ID_VALUE 0xc5c50001u

/* Registers: 32-bit, little-endian; other widths read 0, writes ignored. */
#define DMAEMU_CSUM_REG_ID 0x00		 /* RO */
#define DMAEMU_CSUM_REG_CMD 0x04	 /* WO (reads 0), doorbell */
#define DMAEMU_CSUM_REG_STATUS 0x08	 /* RO */
#define DMAEMU_CSUM_REG_INT_STATUS 0x0c	 /* RW1C */
#define DMAEMU_CSUM_REG_INT_ENABLE 0x10	 /* RW */
#define DMAEMU_CSUM_REG_SRC_LO 0x14	 /* RW */
#define DMAEMU_CSUM_REG_SRC_HI 0x18	 /* RW */
#define DMAEMU_CSUM_REG_LEN 0x1c	 /* RW */
#define DMAEMU_CSUM_REG_DST_LO 0x20	 /* RW */
#define DMAEMU_CSUM_REG_DST_HI 0x24	 /* RW */
#define DMAEMU_CSUM_REG_RESULT 0x28	 /* RO */
#define DMAEMU_CSUM_REG_ERR_CODE 0x2c	 /* RO */
#define DMAEMU_CSUM_REG_ERR_ADDR_LO 0x30 /* RO */
#define DMAEMU_CSUM_REG_ERR_ADDR_HI 0x34 /* RO */
#define DMAEMU_CSUM_REG_COMPLETED 0x38	 /* RO */
#define DMAEMU_CSUM_MMIO_SIZE 0x40

/* CMD bits. */
#define DMAEMU_CSUM_CMD_START 0x1u	  /* checksum SRC, LEN bytes */
#define DMAEMU_CSUM_CMD_WRITE 0x2u	  /* with START: also DMA-write it */
#define DMAEMU_CSUM_CMD_RESET 0x80000000u /* reset the engine */

#define DMAEMU_CSUM_STATUS_BUSY 0x1u

#define DMAEMU_CSUM_INT_DONE 0x1u
#define DMAEMU_CSUM_INT_ERROR 0x2u

/* Error codes (ERR_CODE). */
#define DMAEMU_CSUM_ERR_LENGTH 1 /* LEN 0 or above DMAEMU_CSUM_MAX_LEN */
#define DMAEMU_CSUM_ERR_SRC 2	 /* the buffer cannot be read */
#define DMAEMU_CSUM_ERR_DST 3	 /* the result cannot be written */
#define DMAEMU_CSUM_ERR_BUSY 4	 /* START while a job runs: ignored */

#define DMAEMU_CSUM_MAX_LEN (16u << 20) /* bytes per job */
#define DMAEMU_CSUM_CHUNK (64u << 10)	/* bytes read per step */

/*
 * The CRC the engine computes: CRC-32 of IEEE 802.3 (polynomial
 * 0x04c11db7, reflected, initial value and final XOR 0xffffffff), the
 * CRC of Ethernet, zlib and gzip.  The CRC of "123456789" is 0xcbf43926.
 */
#define DMAEMU_CSUM_CRC32_CHECK 0xcbf43926u

/**
 * dmaemu_checksum_create() - add a checksum engine to machine @m.
 * @m:    the machine.
 * @name: the device's name (dev_name()).
 *
 * The engine is in its reset state; it is a 64-bit bus master (its driver
 * sets DMA_BIT_MASK(64)).  A registered platform driver named
 * DMAEMU_CSUM_NAME probes it before this returns.  dmaemu_device_destroy() removes it.
 *
 * Return: the device, or NULL with errno set (see dmaemu_device_create()).
 */
struct dmaemu_device *dmaemu_checksum_create(struct dmaemu_machine *m,
					     const char *name);

#ifdef __cplusplus
}
#endif

#endif
