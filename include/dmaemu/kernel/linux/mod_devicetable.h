/* SPDX-License-Identifier: MIT */
/*
 * <linux/mod_devicetable.h> - the id tables a driver declares (Linux
 * 4.14, include/linux/mod_devicetable.h): struct pci_device_id,
 * struct platform_device_id and struct of_device_id, with 4.14's fields.
 * <linux/pci.h> and <linux/platform_device.h> include it, as in 4.14.
 *
 * The tables are kept (MODULE_DEVICE_TABLE()): PCI matching is the
 * test's job (it passes the entry to probe()), the platform bus matches
 * by driver name, and there is no device tree (of_match_table is never
 * read).
 */
#ifndef DMAEMU_KERNEL_LINUX_MOD_DEVICETABLE_H
#define DMAEMU_KERNEL_LINUX_MOD_DEVICETABLE_H

#include <linux/types.h>

#define PCI_ANY_ID (~0U)

/** struct pci_device_id - a PCI driver's id table entry (PCI_DEVICE()). */
struct pci_device_id {
	u32 vendor, device;
	u32 subvendor, subdevice;
	u32 class, class_mask;
	unsigned long driver_data;
};

#define PLATFORM_NAME_SIZE 20

/** struct platform_device_id - a platform driver's id table entry. */
struct platform_device_id {
	char name[PLATFORM_NAME_SIZE];
	unsigned long driver_data;
};

/** struct of_device_id - a device-tree match table entry (kept only). */
struct of_device_id {
	char name[32];
	char type[32];
	char compatible[128];
	const void *data;
};

#endif
