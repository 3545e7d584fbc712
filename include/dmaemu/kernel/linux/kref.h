/* SPDX-License-Identifier: MIT */
/*
 * <linux/kref.h> - reference counts that call a release function when
 * the last reference goes.  kref_put() returns 1 when it released.
 */
#ifndef DMAEMU_KERNEL_LINUX_KREF_H
#define DMAEMU_KERNEL_LINUX_KREF_H

#include <linux/atomic.h>
#include <linux/bug.h>

struct kref {
	atomic_t refcount;
};

#define KREF_INIT(n)                       \
	{                                  \
		.refcount = ATOMIC_INIT(n) \
	}

static inline void kref_init(struct kref *kref)
{
	atomic_set(&kref->refcount, 1);
}

static inline unsigned int kref_read(const struct kref *kref)
{
	return (unsigned int)atomic_read(&kref->refcount);
}

/* A get of a kref already at 0 is a use after release: WARN. */
static inline void kref_get(struct kref *kref)
{
	WARN_ON_ONCE(atomic_add_return(1, &kref->refcount) < 2);
}

static inline int kref_put(struct kref *kref,
			   void (*release)(struct kref *kref))
{
	if (atomic_sub_return(1, &kref->refcount) == 0) {
		release(kref);
		return 1;
	}
	return 0;
}

static inline int kref_get_unless_zero(struct kref *kref)
{
	int old = atomic_read(&kref->refcount);

	while (old) {
		int seen = atomic_cmpxchg(&kref->refcount, old, old + 1);

		if (seen == old)
			return 1;
		old = seen;
	}
	return 0;
}

/* What Linux 4.14's include chain brings with this header (docs/kernel-headers.md). */
#include <linux/kernel.h>
#include <linux/spinlock.h>

#endif
