/* SPDX-License-Identifier: MIT */
/* <linux/stringify.h> - a macro argument as a string, after expansion. */
#ifndef DMAEMU_KERNEL_LINUX_STRINGIFY_H
#define DMAEMU_KERNEL_LINUX_STRINGIFY_H

#define __stringify_1(x...) #x
#define __stringify(x...) __stringify_1(x)

#endif
