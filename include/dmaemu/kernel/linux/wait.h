/* SPDX-License-Identifier: MIT */
/* <linux/wait.h> - wait queues: see <linux/wait_bit.h>. */
#ifndef DMAEMU_KERNEL_LINUX_WAIT_H
#define DMAEMU_KERNEL_LINUX_WAIT_H

#include <linux/wait_bit.h>

#endif
