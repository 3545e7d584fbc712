/* SPDX-License-Identifier: MIT */
/* inverter.h - the inverter device: its registers and its model. */
#ifndef INVERTER_H
#define INVERTER_H

#include <dmaemu/device.h>

#define INV_SRC 0x00	/* bus address to read, low 32 bits (then high) */
#define INV_DST 0x08	/* bus address to write, low 32 bits (then high) */
#define INV_LEN 0x10	/* bytes, 1 .. INV_MAX_LEN */
#define INV_START 0x14	/* write 1: invert LEN bytes from SRC to DST */
#define INV_STATUS 0x18 /* bit 0 DONE, bit 1 ERROR; write 1s to clear */
#define INV_DONE 0x1
#define INV_ERROR 0x2
#define INV_MAX_LEN 4096

/* Add an inverter named @name to @m; "inverter" drivers probe it. */
struct dmaemu_device *inverter_create(struct dmaemu_machine *m,
				      const char *name);

#endif
