/* SPDX-License-Identifier: MIT */
/*
 * bus.h - the bus layer of lib/: emulated devices (struct device), their
 * managed resources, and device-side DMA (dmaemu_dma_read/write).
 *
 *   device.c     devices, devres, clients, device-side DMA, dev_printk
 *   translate.c  bus address translation (dma_offset, or a translator)
 */
#ifndef DMAEMU_LIB_BUS_H
#define DMAEMU_LIB_BUS_H

#include <dmaemu/device.h>
#include <dmaemu/ktypes.h>

#include "mm/mm.h"

struct device;

/* The machine and the emulated device of a struct device (NULL: foreign,
 * reported as bad-argument by the caller). */
struct dmaemu_machine *dmaemu__dev_machine(const struct device *dev);
/* The same, making that bad-argument report ("@fn: NULL device") itself. */
struct dmaemu_machine *dmaemu__dev_machine_or_report(struct device *dev,
						     const char *fn);

/* ---------------------------------------------------------------------- */
/* Clients: how higher layers hang per-device work on the bus              */
/* ---------------------------------------------------------------------- */

/*
 * The bus knows nothing of what is built on it.  A higher layer that keeps
 * per-device state or must see device events registers a client for a
 * machine (dmaemu__bus_attach(), from machine create, before any device
 * exists), in the slot its layer owns.  Clients are called in slot order
 * on device create and after each device access, and in reverse slot order
 * on device destroy.  Every slot is optional, and so is every op.
 *
 * @add:     device create: make the client's state of @dev in *@data.
 *           Return: 0 or a negative errno (the create fails, the clients
 *           added before are freed).
 * @release: device destroy, after the managed resources: give back what
 *           @dev still holds (a leak is the client's to report).
 * @free:    device destroy, last (or a failed create): free @data.
 * @access:  after a device DMA access, once per physically contiguous
 *           piece [@phys, +@len) at bus address @dma.
 */
struct dmaemu__bus_client {
	int (*add)(struct device *dev, void **data);
	void (*release)(struct device *dev, void *data);
	void (*free)(void *data);
	void (*access)(struct device *dev, void *data, dma_addr_t dma,
		       uint64_t phys, size_t len, bool write);
};
enum dmaemu__bus_slot {
	DMAEMU__BUS_DMA = 0, /* dma/: the registry of live mappings */
	DMAEMU__BUS_NSLOTS
};
void dmaemu__bus_attach(struct dmaemu_machine *m, enum dmaemu__bus_slot slot,
			const struct dmaemu__bus_client *c);
/* The state client @slot made for live device @dev (NULL if none). */
void *dmaemu__device_data(const struct device *dev, enum dmaemu__bus_slot slot);

/*
 * Bus address translation.  Without a translator a bus address is the
 * physical address plus the machine's dma_offset, and only DRAM answers.
 * An IOMMU installs its page-table walk as the machine's translator
 * (dmaemu__bus_set_translator(), at machine create).
 *
 * dmaemu__bus_translate(): the device access of @len bytes at @addr (@write:
 * a write) starts at physical *@phys and is contiguous for *@contig bytes
 * (<= @len).  Return: 0, -EFAULT (unmapped, not DRAM) or -EPERM
 * (permission), after a report.
 * dmaemu__dma_offset(): bus minus physical address without an IOMMU.
 */
typedef int (*dmaemu__bus_xlate_fn)(struct device *dev, dma_addr_t addr,
				    size_t len, bool write, uint64_t *phys,
				    size_t *contig);
void dmaemu__bus_set_translator(struct dmaemu_machine *m,
				dmaemu__bus_xlate_fn fn);
int dmaemu__bus_translate(struct device *dev, dma_addr_t addr, size_t len,
			  bool write, uint64_t *phys, size_t *contig);
uint64_t dmaemu__dma_offset(const struct dmaemu_machine *m);

/*
 * device.c.  dmaemu__device_of(): the emulated device of @dev, or NULL
 * when @dev is not a live device (checked without touching *@dev, so a
 * stale pointer is safe).  dmaemu__devices_fini(): machine destroy,
 * first of all: destroys the devices left (their clients report leaks).
 *
 * Managed resources (devres), for the dmam_* calls: dmaemu__devres_add()
 * registers @release(@dev, @data), run when the device is destroyed, the
 * newest first, before leaked mappings are looked for (so they are not
 * leaks); 0 or -ENOMEM/-EINVAL.  dmaemu__devres_remove() forgets one
 * without running it; dmaemu__devres_release() forgets and runs it; both
 * 0 or -ENOENT when (@release, @data) is not registered for @dev.
 */
typedef void (*dmaemu__devres_fn)(struct device *dev, void *data);
struct dmaemu_device *dmaemu__device_of(const struct device *dev);
void dmaemu__devices_fini(struct dmaemu_machine *m);
int dmaemu__devres_add(struct device *dev, dmaemu__devres_fn release,
		       void *data);
int dmaemu__devres_remove(struct device *dev, dmaemu__devres_fn release,
			  void *data);
int dmaemu__devres_release(struct device *dev, dmaemu__devres_fn release,
			   void *data);

#endif /* DMAEMU_LIB_BUS_H */
