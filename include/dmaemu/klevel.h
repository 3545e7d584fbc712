/* SPDX-License-Identifier: MIT */
/*
 * <dmaemu/klevel.h> - the Linux API level of the kernel-personality
 * headers' basics.
 *
 * DMAEMU_KERNEL_LEVEL is the level <dmaemu/level.h> selects (DMAEMU_KERNEL:
 * 414, Linux 4.14, by default; 612 with dmaemu-cc --dmaemu-kernel=6.12).
 * A name Linux added after 4.14 (IRQF_NO_AUTOEN, sizeof_field(), ...:
 * tests/data/kernel-newer-names.txt) is defined only above 4.14, so a 4.14
 * driver that uses one fails to compile as it would on 4.14.  The
 * emulator's own code uses the DMAEMU_ spelling of such a name.
 */
#ifndef DMAEMU_KLEVEL_H
#define DMAEMU_KLEVEL_H

/* Not <dmaemu/level.h> itself: a basics header marks no level. */
#ifndef DMAEMU_KERNEL_LEVEL
#if defined(DMAEMU_KERNEL) && DMAEMU_KERNEL == 612
#define DMAEMU_KERNEL_LEVEL 612
#else
#define DMAEMU_KERNEL_LEVEL 414
#endif
#endif

#endif
