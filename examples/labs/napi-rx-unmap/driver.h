/* SPDX-License-Identifier: MIT */
/* driver.h - the lab's network driver: a platform driver that registers
 * eth0 with the stack. */
#ifndef LAB_NIC_DRIVER_H
#define LAB_NIC_DRIVER_H

#include <linux/platform_device.h>

extern struct platform_driver lab_nic_driver;

#endif
