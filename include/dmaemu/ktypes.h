/* SPDX-License-Identifier: MIT */
/*
 * <dmaemu/ktypes.h> - the kernel's scalar types for the kernel-personality
 * headers.
 *
 * The kernel keeps these in <linux/types.h>, which dmaemu provides too
 * (on top of the system's UAPI header of that name, which the C library
 * includes); the kernel-personality headers that need only u32,
 * dma_addr_t and friends include this small one.  Repeating an identical typedef is valid C11,
 * so other headers may define the same names the same way.
 */
#ifndef DMAEMU_KTYPES_H
#define DMAEMU_KTYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

/* Physical and bus addresses are 64-bit, as on arm64 and x86-64. */
typedef uint64_t phys_addr_t;
typedef uint64_t dma_addr_t;
typedef uint64_t resource_size_t;

#endif
