/* SPDX-License-Identifier: MIT */
/*
 * <linux/uaccess.h> - copies between kernel memory and user memory.
 *
 * The process's own memory outside the emulated machines stands for user
 * space.  access_ok() refuses the first page (NULL and near it), a range
 * that wraps around, and an address in a machine's linear map (kernel
 * memory handed over as a user pointer): then copy_to_user() and
 * copy_from_user() copy nothing and return @n, the bytes not copied,
 * which the driver turns into -EFAULT, as in the kernel.  Otherwise they
 * copy (in instrumented code the kernel side of the copy goes through the
 * cache model, as any memcpy()) and return 0.  A user pointer that is not
 * mapped at all still faults here: the host has no exception table.
 */
#ifndef DMAEMU_KERNEL_LINUX_UACCESS_H
#define DMAEMU_KERNEL_LINUX_UACCESS_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/sched.h>
#include <linux/types.h>

#ifdef __cplusplus
extern "C" {
#endif

#define VERIFY_READ 0
#define VERIFY_WRITE 1

/* In a machine's linear map? (<linux/mm.h>) */
bool virt_addr_valid(const void *addr);

static inline bool __dmaemu_access_ok(const void *addr, unsigned long size)
{
	uintptr_t a = (uintptr_t)addr;

	if (!size)
		return true;
	if (a < 4096 || a + size < a)
		return false;
	return !virt_addr_valid(addr) &&
	       !virt_addr_valid((const char *)addr + size - 1);
}

/* The 4.14 form, with the VERIFY_ type. */
#define access_ok(type, addr, size) \
	__dmaemu_access_ok((const void *)(addr), (unsigned long)(size))

static inline unsigned long __must_check copy_to_user(void __user *to,
						      const void *from,
						      unsigned long n)
{
	if (!__dmaemu_access_ok(to, n))
		return n;
	memcpy(to, from, n);
	return 0;
}

static inline unsigned long __must_check copy_from_user(void *to,
							const void __user *from,
							unsigned long n)
{
	if (!__dmaemu_access_ok(from, n)) {
		memset(to, 0, n);
		return n;
	}
	memcpy(to, from, n);
	return 0;
}

#define __copy_to_user(to, from, n) copy_to_user(to, from, n)
#define __copy_from_user(to, from, n) copy_from_user(to, from, n)
#define raw_copy_to_user(to, from, n) copy_to_user(to, from, n)
#define raw_copy_from_user(to, from, n) copy_from_user(to, from, n)

static inline unsigned long __must_check clear_user(void __user *to,
						    unsigned long n)
{
	if (!__dmaemu_access_ok(to, n))
		return n;
	memset(to, 0, n);
	return 0;
}

/* put_user()/get_user(): one value; 0 or -EFAULT. */
#define put_user(x, ptr)                                                      \
	__extension__({                                                       \
		__typeof__(*(ptr)) __pu_val = (x);                            \
		copy_to_user((ptr), &__pu_val, sizeof(*(ptr))) ? -EFAULT : 0; \
	})
#define get_user(x, ptr)                                                 \
	__extension__({                                                  \
		__typeof__(*(ptr)) __gu_val;                             \
		int __gu_err =                                           \
			copy_from_user(&__gu_val, (ptr), sizeof(*(ptr))) \
				? -EFAULT                                \
				: 0;                                     \
		(x) = __gu_val;                                          \
		__gu_err;                                                \
	})
#define __put_user(x, ptr) put_user(x, ptr)
#define __get_user(x, ptr) get_user(x, ptr)

/* Copy a string from user space; its length, or -EFAULT. */
static inline long strncpy_from_user(char *dst, const char __user *src,
				     long count)
{
	long i;

	for (i = 0; i < count; i++) {
		if (!__dmaemu_access_ok(src + i, 1))
			return -EFAULT;
		dst[i] = src[i];
		if (!dst[i])
			return i;
	}
	return count;
}

#ifdef __cplusplus
}
#endif

#endif
