/* SPDX-License-Identifier: MIT */
/* <asm/uaccess.h> - see <linux/uaccess.h>. */
#ifndef DMAEMU_KERNEL_ASM_UACCESS_H
#define DMAEMU_KERNEL_ASM_UACCESS_H

#include <linux/uaccess.h>

#endif
