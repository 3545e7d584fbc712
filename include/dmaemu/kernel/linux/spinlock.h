/* SPDX-License-Identifier: MIT */
/*
 * <linux/spinlock.h> - spinlocks.
 *
 * A spinlock_t excludes every other thread of the process that takes the
 * same lock: driver threads, the machine's interrupt thread (where hard
 * handlers run), threaded handlers and timers.  Holding one is atomic
 * context, as in the kernel (preemption off): sleeping there, for
 * instance kmalloc(GFP_KERNEL), msleep() or mutex_lock(), is a
 * sleep-in-atomic report.
 *
 * The _irq and _irqsave variants also turn interrupts off for the calling
 * thread, and while any thread of a machine has interrupts off, its
 * interrupt thread starts no handler: so a handler never runs at the same
 * time as a section holding a lock it shares with the handler with
 * interrupts off, and (since handlers run on another host thread, like an
 * interrupt taken on another CPU) a handler that takes a lock a thread
 * holds waits for it instead of deadlocking.
 *
 * A spinlock_t holds no host object (see <dmaemu/sync.h>): no destroy is
 * needed.  A thread taking a spinlock it already holds gets a
 * bad-argument report ("spinlock recursion"), then deadlocks as the
 * kernel would; unlocking a lock the thread does not hold is a report and
 * does nothing.
 */
#ifndef DMAEMU_KERNEL_LINUX_SPINLOCK_H
#define DMAEMU_KERNEL_LINUX_SPINLOCK_H

#include <stdbool.h>

#include <linux/bug.h>
#include <linux/irqflags.h>
#include <linux/preempt.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * typedef spinlock_t - a spinlock.
 * @owner: the holding thread's token, 0 when free; under the library's
 *         lock.
 */
typedef struct spinlock {
	unsigned long owner;
} spinlock_t;

#define __SPIN_LOCK_UNLOCKED(name) \
	{                          \
		0                  \
	}
#define DEFINE_SPINLOCK(x) spinlock_t x = __SPIN_LOCK_UNLOCKED(x)

/** spin_lock_init() - make @lock free (before anyone uses it). */
void spin_lock_init(spinlock_t *lock);
/** spin_lock() - take @lock, preemption off. */
void spin_lock(spinlock_t *lock);
/** spin_unlock() - release @lock, preemption back on. */
void spin_unlock(spinlock_t *lock);
/** spin_trylock() - take @lock if free.  Return: 1 if taken, else 0. */
int spin_trylock(spinlock_t *lock);
/** spin_is_locked() - is @lock held by some thread? */
bool spin_is_locked(spinlock_t *lock);
/** spin_lock_irq() - interrupts off, then spin_lock(). */
void spin_lock_irq(spinlock_t *lock);
/** spin_unlock_irq() - spin_unlock(), then interrupts on. */
void spin_unlock_irq(spinlock_t *lock);
/** spin_lock_bh() - bottom halves off, then spin_lock(). */
void spin_lock_bh(spinlock_t *lock);
/** spin_unlock_bh() - spin_unlock(), then bottom halves on. */
void spin_unlock_bh(spinlock_t *lock);
/**
 * _raw_spin_lock_irqsave() - what spin_lock_irqsave() calls: interrupts
 * off, then spin_lock().
 * Return: the interrupt state before, for spin_unlock_irqrestore().
 */
unsigned long _raw_spin_lock_irqsave(spinlock_t *lock);
/** spin_unlock_irqrestore() - spin_unlock(), then interrupts as @flags. */
void spin_unlock_irqrestore(spinlock_t *lock, unsigned long flags);

#define spin_lock_irqsave(lock, flags)                  \
	do {                                            \
		(flags) = _raw_spin_lock_irqsave(lock); \
	} while (0)

/*
 * raw_spinlock_t is a spinlock_t (there is no preemptible kind), and
 * rwlock_t too: readers exclude each other as well as writers, which is
 * correct, only less concurrent.
 */
typedef spinlock_t raw_spinlock_t;
typedef spinlock_t rwlock_t;
#define __RAW_SPIN_LOCK_UNLOCKED(name) __SPIN_LOCK_UNLOCKED(name)
#define DEFINE_RAW_SPINLOCK(x) raw_spinlock_t x = __SPIN_LOCK_UNLOCKED(x)
#define __RW_LOCK_UNLOCKED(name) __SPIN_LOCK_UNLOCKED(name)
#define DEFINE_RWLOCK(x) rwlock_t x = __SPIN_LOCK_UNLOCKED(x)

#define raw_spin_lock_init(l) spin_lock_init(l)
#define raw_spin_lock(l) spin_lock(l)
#define raw_spin_unlock(l) spin_unlock(l)
#define raw_spin_trylock(l) spin_trylock(l)
#define raw_spin_lock_irq(l) spin_lock_irq(l)
#define raw_spin_unlock_irq(l) spin_unlock_irq(l)
#define raw_spin_lock_irqsave(l, f) spin_lock_irqsave(l, f)
#define raw_spin_unlock_irqrestore(l, f) spin_unlock_irqrestore(l, f)

#define rwlock_init(l) spin_lock_init(l)
#define read_lock(l) spin_lock(l)
#define read_unlock(l) spin_unlock(l)
#define write_lock(l) spin_lock(l)
#define write_unlock(l) spin_unlock(l)
#define read_lock_irq(l) spin_lock_irq(l)
#define read_unlock_irq(l) spin_unlock_irq(l)
#define write_lock_irq(l) spin_lock_irq(l)
#define write_unlock_irq(l) spin_unlock_irq(l)
#define read_lock_bh(l) spin_lock_bh(l)
#define read_unlock_bh(l) spin_unlock_bh(l)
#define write_lock_bh(l) spin_lock_bh(l)
#define write_unlock_bh(l) spin_unlock_bh(l)
#define read_lock_irqsave(l, f) spin_lock_irqsave(l, f)
#define read_unlock_irqrestore(l, f) spin_unlock_irqrestore(l, f)
#define write_lock_irqsave(l, f) spin_lock_irqsave(l, f)
#define write_unlock_irqrestore(l, f) spin_unlock_irqrestore(l, f)

/* Lock classes of lockdep: there is one class per lock here. */
#define spin_lock_nested(l, subclass) spin_lock(l)
#define spin_lock_irqsave_nested(l, f, subclass) spin_lock_irqsave(l, f)
#define spin_trylock_irqsave(l, f)            \
	__extension__({                       \
		local_irq_save(f);            \
		spin_trylock(l) ? 1 : ({      \
			local_irq_restore(f); \
			0;                    \
		});                           \
	})
#define assert_spin_locked(l) WARN_ON_ONCE(!spin_is_locked(l))
#define lockdep_assert_held(l) ((void)(l))
#define lockdep_set_class(l, key) ((void)(l))

#ifdef __cplusplus
}
#endif

/* What Linux 4.14's include chain brings with this header (docs/kernel-headers.md). */
#include <linux/atomic.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/types.h>

#endif
