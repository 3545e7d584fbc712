/* SPDX-License-Identifier: MIT */
/*
 * <linux/mutex.h> - sleeping locks.
 *
 * mutex_lock() may sleep: from atomic context (a hard handler, a spinlock
 * held, interrupts off) it is a sleep-in-atomic report, then it locks
 * anyway.  As in the kernel, the thread that locked must unlock (else a
 * bad-argument report and nothing happens), and locking a mutex the
 * thread holds is a report and a deadlock.  A struct mutex holds no host
 * object (see <dmaemu/sync.h>); mutex_destroy() only checks that it is
 * not held.
 */
#ifndef DMAEMU_KERNEL_LINUX_MUTEX_H
#define DMAEMU_KERNEL_LINUX_MUTEX_H

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * struct mutex - a sleeping lock.
 * @owner: the holding thread's token, 0 when free; under the library's
 *         lock.
 */
struct mutex {
	unsigned long owner;
};

#define __MUTEX_INITIALIZER(name) \
	{                         \
		0                 \
	}
#define DEFINE_MUTEX(name) struct mutex name = __MUTEX_INITIALIZER(name)

/** mutex_init() - make @lock free (before anyone uses it). */
void mutex_init(struct mutex *lock);
/** mutex_destroy() - @lock is no longer used; a report if it is held. */
void mutex_destroy(struct mutex *lock);
/** mutex_lock() - take @lock, sleeping while another thread holds it. */
void mutex_lock(struct mutex *lock);
/** mutex_lock_interruptible() - mutex_lock(); nothing interrupts: 0. */
int mutex_lock_interruptible(struct mutex *lock);
/** mutex_trylock() - take @lock if free.  Return: 1 if taken, else 0. */
int mutex_trylock(struct mutex *lock);
/** mutex_unlock() - release @lock (held by the calling thread). */
void mutex_unlock(struct mutex *lock);
/** mutex_is_locked() - is @lock held by some thread? */
bool mutex_is_locked(struct mutex *lock);

/* Nothing kills a task here: these are mutex_lock(). */
#define mutex_lock_killable(lock) mutex_lock_interruptible(lock)
#define mutex_lock_nested(lock, subclass) mutex_lock(lock)
#define mutex_lock_interruptible_nested(lock, subclass) \
	mutex_lock_interruptible(lock)
#define mutex_lock_io(lock) mutex_lock(lock)

#ifdef __cplusplus
}
#endif

/* What Linux 4.14's include chain brings with this header (docs/kernel-headers.md). */
#include <linux/atomic.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/types.h>

#endif
