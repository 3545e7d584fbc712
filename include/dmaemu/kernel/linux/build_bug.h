/* SPDX-License-Identifier: MIT */
/*
 * <linux/build_bug.h> - conditions checked by the compiler.  Each fails
 * the build when its constant condition is true, as the kernel's do.
 */
#ifndef DMAEMU_KERNEL_LINUX_BUILD_BUG_H
#define DMAEMU_KERNEL_LINUX_BUILD_BUG_H

/* 0, or a compile error (a negative bit-field width) when @e is true. */
#define BUILD_BUG_ON_ZERO(e) ((int)(sizeof(struct { int : (-!!(e)); })))
#define BUILD_BUG_ON_NULL(e) ((void *)sizeof(struct { int : (-!!(e)); }))
#define BUILD_BUG_ON_INVALID(e) ((void)(sizeof((long)(e))))
#define BUILD_BUG_ON_MSG(cond, msg) _Static_assert(!(cond), msg)
#define BUILD_BUG_ON(condition) ((void)BUILD_BUG_ON_ZERO(condition))
#define BUILD_BUG_ON_NOT_POWER_OF_2(n) \
	BUILD_BUG_ON((n) == 0 || (((n) & ((n)-1)) != 0))
#define BUILD_BUG() BUILD_BUG_ON_MSG(1, "BUILD_BUG failed")

#endif
