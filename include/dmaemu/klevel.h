/* SPDX-License-Identifier: MIT */
/*
 * <dmaemu/klevel.h> - the Linux API level of the kernel-personality headers.
 *
 * DMAEMU_KERNEL_LEVEL is 414 (Linux 4.14) unless the compilation defines
 * it.  A name Linux added after 4.14 (IRQF_NO_AUTOEN, sizeof_field(), ...:
 * tests/data/kernel-newer-names.txt) is defined only above that level, so
 * a 4.14 driver that uses one fails to compile as it would on 4.14.  The
 * emulator's own code uses the DMAEMU_ spelling of such a name.
 */
#ifndef DMAEMU_KLEVEL_H
#define DMAEMU_KLEVEL_H

#ifndef DMAEMU_KERNEL_LEVEL
#define DMAEMU_KERNEL_LEVEL 414
#endif

#endif
