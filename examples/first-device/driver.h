/* SPDX-License-Identifier: MIT */
/* driver.h - the inverter's driver, for its users. */
#ifndef DRIVER_H
#define DRIVER_H

#include <linux/platform_device.h>

extern struct platform_driver inv_driver;

/* Write the complement of @len bytes of @src to @dst, by the device.
 * Return: 0, -ENODEV (no inverter bound: none, or its probe failed),
 * -ENOMEM, -EIO (the device failed), -ETIMEDOUT. */
int inv_invert(const void *src, void *dst, size_t len);

#endif
