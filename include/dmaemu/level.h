/* SPDX-License-Identifier: MIT */
/*
 * <dmaemu/level.h> - which Linux DMA API the kernel-personality headers
 * give: the API level of the driver code.
 *
 * DMAEMU_KERNEL is 414 (Linux 4.14, the default) or 612 (Linux 6.12).
 * `dmaemu-cc --dmaemu-kernel=6.12` defines it; a build without the
 * wrapper passes -DDMAEMU_KERNEL=612 itself.  Another value stops the
 * build.  The machine has its own level, the option kernel= (4.14 by
 * default): the headers decide what compiles, the machine what the calls
 * do.  A program built at one level whose machine is at the other is
 * refused by dmaemu_machine_create(), with a message naming both.
 *
 * How the library learns the headers' level: every translation unit that
 * includes a kernel-personality header of the DMA API (<linux/gfp.h>,
 * <linux/dma-mapping.h>, ...) defines a weak marker,
 * dmaemu_kernel_headers_414 or dmaemu_kernel_headers_612; the library
 * looks for both.  A program that defines neither (one that calls only
 * the <dmaemu/...> API) may create a machine at either level.
 *
 * Code that includes the kernel headers without being driver code of one
 * level (a device model shipped in a library that programs of both levels
 * link, as libdmaemu-devices is) defines DMAEMU_NO_LEVEL_MARKER before
 * including them: it then carries no marker, and the level is the
 * driver's alone.
 */
#ifndef DMAEMU_LEVEL_H
#define DMAEMU_LEVEL_H

#ifndef DMAEMU_KERNEL
#define DMAEMU_KERNEL 414
#endif

#if DMAEMU_KERNEL != 414 && DMAEMU_KERNEL != 612
#error "DMAEMU_KERNEL must be 414 (Linux 4.14) or 612 (Linux 6.12)"
#endif

/*
 * The library's own sources define no marker (lib/local.mk), nor do the
 * device models of libdmaemu-devices (devices/local.mk).
 */
#if !defined(DMAEMU__LIBRARY) && !defined(DMAEMU_NO_LEVEL_MARKER)
#ifdef __cplusplus
extern "C" {
#endif
#if DMAEMU_KERNEL == 612
extern const int dmaemu_kernel_headers_612;
__attribute__((weak, used)) const int dmaemu_kernel_headers_612 = 612;
#else
extern const int dmaemu_kernel_headers_414;
__attribute__((weak, used)) const int dmaemu_kernel_headers_414 = 414;
#endif
#ifdef __cplusplus
}
#endif
#endif

#endif
