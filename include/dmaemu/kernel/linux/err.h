/* SPDX-License-Identifier: MIT */
/*
 * <linux/err.h> - error codes carried in pointers, as the kernel does:
 * the last 4095 addresses are -MAX_ERRNO..-1.  It includes
 * <linux/errno.h>, as the kernel's does.
 */
#ifndef DMAEMU_KERNEL_LINUX_ERR_H
#define DMAEMU_KERNEL_LINUX_ERR_H

#include <stdbool.h>
#include <stdint.h>

#include <linux/errno.h>

#define MAX_ERRNO 4095
#define IS_ERR_VALUE(x) ((unsigned long)(x) >= (unsigned long)-MAX_ERRNO)

static inline void *ERR_PTR(long error)
{
	return (void *)(intptr_t)error;
}

static inline long PTR_ERR(const void *ptr)
{
	return (long)(intptr_t)ptr;
}

static inline bool IS_ERR(const void *ptr)
{
	return IS_ERR_VALUE((uintptr_t)ptr);
}

static inline bool IS_ERR_OR_NULL(const void *ptr)
{
	return !ptr || IS_ERR_VALUE((uintptr_t)ptr);
}

static inline int PTR_ERR_OR_ZERO(const void *ptr)
{
	return IS_ERR(ptr) ? (int)PTR_ERR(ptr) : 0;
}

/* What Linux 4.14's include chain brings with this header (docs/kernel-headers.md). */
#include <linux/compiler.h>
#include <linux/types.h>

#endif
