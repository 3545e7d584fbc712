/* SPDX-License-Identifier: MIT */
/*
 * nic-napi-driver.h - the network card's NAPI driver: a platform driver
 * whose probe registers a net_device (eth0, eth1, ...) with the stack.
 */
#ifndef NIC_NAPI_DRIVER_H
#define NIC_NAPI_DRIVER_H

#include <linux/platform_device.h>

extern struct platform_driver nic_napi_driver;

#endif
