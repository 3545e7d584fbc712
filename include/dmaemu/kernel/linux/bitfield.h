/* SPDX-License-Identifier: MIT */
/*
 * <linux/bitfield.h> - fields of registers and descriptors named by their
 * mask: FIELD_PREP(mask, val) puts @val in place, FIELD_GET(mask, reg)
 * takes it out, FIELD_FIT() says whether @val fits, FIELD_MAX() is the
 * largest value.  @mask must be a non-zero constant, as in the kernel.
 */
#ifndef DMAEMU_KERNEL_LINUX_BITFIELD_H
#define DMAEMU_KERNEL_LINUX_BITFIELD_H

#include <linux/bug.h>
#include <linux/types.h>

#define __bf_shf(x) (__builtin_ffsll(x) - 1)

#define FIELD_MAX(_mask) ((__typeof__(_mask))((_mask) >> __bf_shf(_mask)))
#define FIELD_FIT(_mask, _val) \
	(!((((__typeof__(_mask))(_val)) << __bf_shf(_mask)) & ~(_mask)))
#define FIELD_PREP(_mask, _val)                 \
	((void)BUILD_BUG_ON_ZERO((_mask) == 0), \
	 (((__typeof__(_mask))(_val) << __bf_shf(_mask)) & (_mask)))
#define FIELD_GET(_mask, _reg)                  \
	((void)BUILD_BUG_ON_ZERO((_mask) == 0), \
	 (__typeof__(_mask))(((_reg) & (_mask)) >> __bf_shf(_mask)))

#endif
