/* SPDX-License-Identifier: MIT */
/*
 * <linux/stat.h> - file mode bits, as drivers use them in module_param()
 * and sysfs permissions (S_IRUGO | S_IWUSR).
 *
 * The UAPI header of that name, which the C library's <sys/stat.h>
 * includes, comes first (#include_next); the mode bits themselves
 * (S_IRUSR, S_IWUSR, S_IFMT, ...) are the C library's <sys/stat.h> (the
 * UAPI header leaves them to it), and this header adds Linux 4.14's
 * kernel names: S_IRWXUGO, S_IALLUGO, S_IRUGO, S_IWUGO, S_IXUGO.
 * 4.14's struct kstat belongs to the VFS, which dmaemu does not emulate.
 */
#ifndef DMAEMU_KERNEL_LINUX_STAT_H
#define DMAEMU_KERNEL_LINUX_STAT_H

#if defined(__has_include_next)
#if __has_include_next(<linux/stat.h>)
#include_next <linux/stat.h>
#endif
#endif

#include <sys/stat.h>

#include <linux/types.h>

#define S_IRWXUGO (S_IRWXU | S_IRWXG | S_IRWXO)
#define S_IALLUGO (S_ISUID | S_ISGID | S_ISVTX | S_IRWXUGO)
#define S_IRUGO (S_IRUSR | S_IRGRP | S_IROTH)
#define S_IWUGO (S_IWUSR | S_IWGRP | S_IWOTH)
#define S_IXUGO (S_IXUSR | S_IXGRP | S_IXOTH)

#endif
