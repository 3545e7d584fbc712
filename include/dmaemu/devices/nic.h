/* SPDX-License-Identifier: MIT */
/*
 * <dmaemu/devices/nic.h> - the network card model of libdmaemu-devices:
 * TX and RX descriptor rings, a loopback wire, a seeded traffic
 * generator, statistics.  docs/devices/nic.md is its data sheet; the names
 * below are the model's, for tests and tools (a driver defines its own,
 * from the data sheet, as drivers do).
 */
#ifndef DMAEMU_DEVICES_NIC_H
#define DMAEMU_DEVICES_NIC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct dmaemu_machine;
struct dmaemu_device;

/* Platform device name: a platform_driver of this name probes it. */
#define DMAEMU_NIC_NAME "dmaemu-nic"
#define DMAEMU_NIC_ID_VALUE 0x4e1c0001u

/* Registers: 32-bit, little-endian; other widths read 0, writes ignored. */
#define DMAEMU_NIC_REG_ID 0x00		/* RO */
#define DMAEMU_NIC_REG_CTRL 0x04	/* RW */
#define DMAEMU_NIC_REG_STATUS 0x08	/* RO */
#define DMAEMU_NIC_REG_INT_STATUS 0x0c	/* RW1C */
#define DMAEMU_NIC_REG_INT_ENABLE 0x10	/* RW */
#define DMAEMU_NIC_REG_COALESCE 0x14	/* RW */
#define DMAEMU_NIC_REG_ERR_CODE 0x18	/* RO */
#define DMAEMU_NIC_REG_ERR_ADDR_LO 0x1c /* RO */
#define DMAEMU_NIC_REG_ERR_ADDR_HI 0x20 /* RO */
#define DMAEMU_NIC_REG_TX_RING_LO 0x28	/* RW */
#define DMAEMU_NIC_REG_TX_RING_HI 0x2c	/* RW */
#define DMAEMU_NIC_REG_TX_SIZE 0x30	/* RW */
#define DMAEMU_NIC_REG_TX_HEAD 0x34	/* RO */
#define DMAEMU_NIC_REG_TX_TAIL 0x38	/* RW, doorbell */
#define DMAEMU_NIC_REG_RX_RING_LO 0x40	/* RW */
#define DMAEMU_NIC_REG_RX_RING_HI 0x44	/* RW */
#define DMAEMU_NIC_REG_RX_SIZE 0x48	/* RW */
#define DMAEMU_NIC_REG_RX_HEAD 0x4c	/* RO */
#define DMAEMU_NIC_REG_RX_TAIL 0x50	/* RW */
#define DMAEMU_NIC_REG_TX_FRAMES 0x60	/* RO statistics, wrap at 2^32 */
#define DMAEMU_NIC_REG_TX_BYTES 0x64
#define DMAEMU_NIC_REG_RX_FRAMES 0x68
#define DMAEMU_NIC_REG_RX_BYTES 0x6c
#define DMAEMU_NIC_REG_RX_DROPS 0x70
#define DMAEMU_NIC_REG_ERRORS 0x74
#define DMAEMU_NIC_REG_GEN_CTRL 0x80	 /* RW */
#define DMAEMU_NIC_REG_GEN_SEED 0x84	 /* RW */
#define DMAEMU_NIC_REG_GEN_COUNT 0x88	 /* RW: frames left */
#define DMAEMU_NIC_REG_GEN_INTERVAL 0x8c /* RW: ns between frames */
#define DMAEMU_NIC_MMIO_SIZE 0x100

#define DMAEMU_NIC_CTRL_TX_EN 0x1u
#define DMAEMU_NIC_CTRL_RX_EN 0x2u
#define DMAEMU_NIC_CTRL_LOOPBACK 0x4u
#define DMAEMU_NIC_CTRL_RX_DUP 0x8u /* each frame into two RX buffers */
#define DMAEMU_NIC_CTRL_RESET 0x80000000u

#define DMAEMU_NIC_STATUS_TX_HALTED 0x1u
#define DMAEMU_NIC_STATUS_RX_HALTED 0x2u

#define DMAEMU_NIC_INT_TX_DONE 0x1u
#define DMAEMU_NIC_INT_RX_DONE 0x2u
#define DMAEMU_NIC_INT_TX_ERR 0x4u
#define DMAEMU_NIC_INT_RX_ERR 0x8u
#define DMAEMU_NIC_INT_RX_NOBUF 0x10u /* a frame dropped: no descriptor */
#define DMAEMU_NIC_INT_ALL 0x1fu

#define DMAEMU_NIC_GEN_RUN 0x1u

/* Error codes (ERR_CODE, and bits 16-23 of a descriptor's status). */
#define DMAEMU_NIC_ERR_FETCH 1	   /* descriptor read failed: halted */
#define DMAEMU_NIC_ERR_WRITEBACK 2 /* status write failed: halted */
#define DMAEMU_NIC_ERR_RING 3	   /* bad ring base or size: halted */
#define DMAEMU_NIC_ERR_DESC 4	   /* not OWNed by the card, or bad len */
#define DMAEMU_NIC_ERR_BUF 5	   /* buffer read (TX) or write (RX) failed */
#define DMAEMU_NIC_ERR_TOO_LONG 6  /* RX frame longer than the buffer */

/* Descriptors (TX and RX alike): 64 bytes (16 used), little-endian,
 * 64-aligned: one per cache line. */
#define DMAEMU_NIC_DESC_SIZE 64
#define DMAEMU_NIC_DESC_ADDR 0x00 /* u64: buffer bus address */
#define DMAEMU_NIC_DESC_LEN 0x08  /* u32: TX frame / RX buffer bytes */
#define DMAEMU_NIC_DESC_STATUS \
	0x0c /* u32: OWN by the driver, then
				       written back by the card */

#define DMAEMU_NIC_DESC_OWN 0x80000000u /* the card owns it */
#define DMAEMU_NIC_DESC_ERR 0x40000000u
#define DMAEMU_NIC_DESC_DUP 0x20000000u /* RX: second copy of a frame */
#define DMAEMU_NIC_DESC_CODE_SHIFT 16
#define DMAEMU_NIC_DESC_CODE_MASK 0x00ff0000u
#define DMAEMU_NIC_DESC_LEN_MASK 0x0000ffffu

#define DMAEMU_NIC_MAX_FRAME 2048u /* bytes */
#define DMAEMU_NIC_MAX_RING 4096   /* descriptors */
#define DMAEMU_NIC_GEN_MIN 60u	   /* generated frame lengths */
#define DMAEMU_NIC_GEN_MAX 1514u
#define DMAEMU_NIC_GEN_BURST 16 /* frames per step at GEN_INTERVAL 0 */

/**
 * dmaemu_nic_create() - add a network card to machine @m.
 * @m:    the machine.
 * @name: the device's name (dev_name()).
 *
 * The card is in its reset state; a registered platform driver named
 * DMAEMU_NIC_NAME probes it before this returns.  dmaemu_device_destroy()
 * removes it.
 *
 * Return: the device, or NULL with errno set (see dmaemu_device_create()).
 */
struct dmaemu_device *dmaemu_nic_create(struct dmaemu_machine *m,
					const char *name);

/**
 * dmaemu_nic_gen_frame() - frame number @index of the traffic generator
 * started with seed @seed, as the card injects it (data sheet, section 6).
 * @seed:  GEN_SEED.
 * @index: 0 for the first frame after GEN_CTRL.RUN was set.
 * @buf:   at least DMAEMU_NIC_GEN_MAX bytes.
 *
 * Return: the frame's length, DMAEMU_NIC_GEN_MIN .. DMAEMU_NIC_GEN_MAX.
 */
size_t dmaemu_nic_gen_frame(uint32_t seed, uint32_t index, uint8_t *buf);

#ifdef __cplusplus
}
#endif

#endif
