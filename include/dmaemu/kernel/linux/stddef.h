/* SPDX-License-Identifier: MIT */
/*
 * <linux/stddef.h> - NULL, offsetof(), true and false, offsetofend().
 *
 * The UAPI header of that name (reached by the C library's headers)
 * comes first (#include_next); then, as Linux 4.14's header gives them,
 * NULL and offsetof() (the C library's <stddef.h>), true and false
 * (<stdbool.h>: the kernel's enum has the same values), and
 * offsetofend().
 */
#ifndef DMAEMU_KERNEL_LINUX_STDDEF_H
#define DMAEMU_KERNEL_LINUX_STDDEF_H

#if defined(__has_include_next)
#if __has_include_next(<linux/stddef.h>)
#include_next <linux/stddef.h>
#endif
#endif

#include <stdbool.h>
#include <stddef.h>

#ifndef offsetofend
#define offsetofend(t, m) (offsetof(t, m) + sizeof(((t *)0)->m))
#endif

#endif
