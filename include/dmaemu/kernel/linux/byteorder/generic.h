/* SPDX-License-Identifier: MIT */
/* <linux/byteorder/generic.h> - the conversions of <asm/byteorder.h>. */
#ifndef DMAEMU_KERNEL_LINUX_BYTEORDER_GENERIC_H
#define DMAEMU_KERNEL_LINUX_BYTEORDER_GENERIC_H

#include <asm/byteorder.h>

#endif
