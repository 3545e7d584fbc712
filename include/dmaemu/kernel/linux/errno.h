/* SPDX-License-Identifier: MIT */
/*
 * <linux/errno.h> - error numbers.
 *
 * The system's <linux/errno.h> gives the values user space sees (EINVAL,
 * ENOMEM, EIO, ...): they are the kernel's, and the C library's <errno.h>
 * includes this name for them, so it is included first.  Then the codes
 * the kernel keeps to itself (never returned to user space), with the
 * kernel's values: ERESTARTSYS, EPROBE_DEFER, ENOTSUPP and friends.
 * <linux/err.h>, and so <linux/dma-mapping.h>, include this header, as in
 * the kernel.
 */
#ifndef DMAEMU_KERNEL_LINUX_ERRNO_H
#define DMAEMU_KERNEL_LINUX_ERRNO_H

#if defined(__has_include_next)
#if __has_include_next(<linux/errno.h>)
#include_next <linux/errno.h>
#else
#include <errno.h>
#endif
#else
#include <errno.h>
#endif

#define ERESTARTSYS 512
#define ERESTARTNOINTR 513
#define ERESTARTNOHAND 514
#define ENOIOCTLCMD 515
#define ERESTART_RESTARTBLOCK 516
#define EPROBE_DEFER 517
#define EOPENSTALE 518
#define EBADHANDLE 521
#define ENOTSYNC 522
#define EBADCOOKIE 523
#define ENOTSUPP 524
#define ETOOSMALL 525
#define ESERVERFAULT 526
#define EBADTYPE 527
#define EJUKEBOX 528
#define EIOCBQUEUED 529

#endif
