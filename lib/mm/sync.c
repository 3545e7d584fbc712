// SPDX-License-Identifier: MIT
/*
 * sync.c - the kernel's sleeping and spinning primitives: spinlock_t,
 * struct mutex, wait queues and completions.
 *
 * How it works.  None of these objects holds a host object: a spinlock or
 * a mutex is an owner word, a wait queue a wake-up sequence number, a
 * completion a count.  Each object hashes by its address to one of
 * NBUCKETS host mutex/condition-variable pairs, and is only read or
 * written under its bucket's mutex:
 *
 *        &lock, &wq, &x  --hash-->  bucket[i] = { mutex, cond (monotonic) }
 *
 *   lock     wait on the bucket's cond while the owner word is set, then
 *            set it to the calling thread's token
 *   unlock   clear the owner word, broadcast the cond
 *   wake_up  bump the queue's sequence number, broadcast
 *   wait     sleep while the sequence number is the one read before the
 *            caller evaluated its condition (so no wake-up is lost)
 *
 * Objects sharing a bucket wake each other now and then; every waiter
 * checks its own word again.  Because the objects are plain memory, they
 * need no destroy and may live in kmalloc()ed memory that is freed and
 * reused, and the race detectors see ordinary pthread locking: a driver's
 * data accessed under a spinlock_t is ordered through the bucket mutex.
 *
 * Context: spinlocks disable preemption (atomic context) and the _irq
 * variants interrupts (context.c, which holds off the machine's interrupt
 * thread); mutexes and waits may sleep and check the context first
 * (dmaemu_might_sleep(), a sleep-in-atomic report).
 *
 * Locks: the bucket mutexes are leaves (core/core.h); reports are made
 * after the bucket is released.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <time.h>

#include <linux/completion.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>

#include "mm/mm.h"

#define NBUCKETS 64

static struct bucket {
	pthread_mutex_t lock;
	pthread_cond_t cond;	  /* CLOCK_MONOTONIC */
	struct dmaemu__wake wake; /* for dmaemu__cond_wait_spin() */
} buckets[NBUCKETS];

static pthread_once_t buckets_once = PTHREAD_ONCE_INIT;

static void buckets_init(void)
{
	pthread_condattr_t attr;
	unsigned int i;

	if (pthread_condattr_init(&attr) ||
	    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC))
		abort();
	for (i = 0; i < NBUCKETS; i++) {
		if (dmaemu__mutex_init(&buckets[i].lock) ||
		    pthread_cond_init(&buckets[i].cond, &attr))
			abort();
	}
	pthread_condattr_destroy(&attr);
}

static struct bucket *bucket_of(const void *obj)
{
	uint64_t h = (uint64_t)(uintptr_t)obj * 0x9e3779b97f4a7c15ULL;

	pthread_once(&buckets_once, buckets_init);
	return &buckets[(h >> 32) % NBUCKETS];
}

/* A token naming the calling thread: never 0, unique among live threads. */
static _Thread_local char thread_token;

static unsigned long me(void)
{
	return (unsigned long)(uintptr_t)&thread_token;
}

/*
 * When a wait ends.  Outside lockstep: a CLOCK_MONOTONIC deadline (@ts,
 * when @limit), and for a wait without one the hang watchdog's (@hang_ts,
 * when @hang); in lockstep (@c is the caller's context): emulated time
 * @vns, DMAEMU__SCHED_NONE for no limit (the scheduler has the watchdog).
 */
struct deadline {
	struct dmaemu__sctx *c;
	bool limit, hang;
	struct timespec ts, hang_ts;
	uint64_t vns;
};

/* The deadline @timeout jiffies from now (LONG_MAX or < 0: none). */
static void deadline_of(long timeout, struct deadline *d)
{
	uint64_t ns;

	d->c = dmaemu__sched_enter(NULL);
	d->limit = timeout != LONG_MAX && timeout >= 0;
	d->vns = DMAEMU__SCHED_NONE;
	d->hang = false;
	if (!d->limit) {
		if (!d->c)
			d->hang = dmaemu__hang_deadline(NULL, &d->hang_ts);
		return;
	}
	ns = (uint64_t)timeout * (1000000000ULL / HZ);
	if (d->c) {
		d->vns = dmaemu__sched_time(d->c) + ns;
		return;
	}
	clock_gettime(CLOCK_MONOTONIC, &d->ts);
	ns += (uint64_t)d->ts.tv_nsec;
	d->ts.tv_sec += (time_t)(ns / 1000000000ULL);
	d->ts.tv_nsec = (long)(ns % 1000000000ULL);
}

/* Jiffies left until @d, rounded up (0 when it passed). */
static long jiffies_left(const struct deadline *d)
{
	struct timespec now;
	int64_t ns;
	uint64_t v;

	if (!d->limit)
		return LONG_MAX;
	if (d->c) {
		v = dmaemu__sched_time(d->c);
		ns = v >= d->vns ? 0 : (int64_t)(d->vns - v);
	} else {
		clock_gettime(CLOCK_MONOTONIC, &now);
		ns = (int64_t)(d->ts.tv_sec - now.tv_sec) * 1000000000LL +
		     (d->ts.tv_nsec - now.tv_nsec);
	}
	if (ns <= 0)
		return 0;
	return (long)((ns + (1000000000LL / HZ) - 1) / (1000000000LL / HZ));
}

/*
 * Wait on @b (its lock held) until a wake-up or @d; with @spin, a spin of
 * dmaemu__cond_wait_spin() first (a completion: the end of a hand-off to a
 * device and its interrupt, which usually comes within microseconds; a
 * lock or a wait queue waits for the driver's own pace, where a spin costs
 * the threads that work more than it saves).  In lockstep the wait
 * is the scheduler's, keyed by the bucket, with the bucket unlocked.
 * An untimed wait past the hang watchdog's deadline makes a hung-wait
 * report, once.
 * Return: 0 when woken, -ETIMEDOUT, or -EDEADLK (lockstep deadlock, or
 * the hung-wait report).
 */
static int bucket_wait(struct bucket *b, struct deadline *d, bool spin,
		       const char *what)
{
	int ret;

	if (d->c) {
		dmaemu__unlock(&b->lock);
		ret = dmaemu__sched_wait(d->c, b, d->vns, 0, what);
		dmaemu__lock(&b->lock);
		return ret;
	}
	if (!d->limit && d->hang) {
		ret = spin ? dmaemu__cond_wait_spin(&b->cond, &b->lock,
						    &b->wake, &d->hang_ts)
			   : pthread_cond_timedwait(&b->cond, &b->lock,
						    &d->hang_ts);
		if (ret && ret != ETIMEDOUT)
			abort();
		if (!ret)
			return 0;
		d->hang = false;
		dmaemu__unlock(&b->lock);
		dmaemu__hang_report(NULL, what, false);
		dmaemu__lock(&b->lock);
		return -EDEADLK;
	}
	if (spin)
		ret = dmaemu__cond_wait_spin(&b->cond, &b->lock, &b->wake,
					     d->limit ? &d->ts : NULL);
	else if (d->limit)
		ret = pthread_cond_timedwait(&b->cond, &b->lock, &d->ts);
	else
		ret = pthread_cond_wait(&b->cond, &b->lock);
	if (ret && ret != ETIMEDOUT)
		abort();
	return ret ? -ETIMEDOUT : 0;
}

/*
 * Unlock @b and wake its waiters when @wake: the host threads after the
 * unlock (dmaemu__unlock_wake(); the buckets live as long as the
 * process), a lockstep context under the lock.
 */
static void bucket_unlock_wake(struct bucket *b, bool wake)
{
	if (!wake) {
		dmaemu__unlock(&b->lock);
		return;
	}
	dmaemu__sched_wake(b);
	dmaemu__wake_seq(&b->wake);
	dmaemu__unlock_wake(&b->lock, &b->cond);
}

/* ---------------------------------------------------------------------- */
/* Owner words: spinlock_t and struct mutex                               */
/* ---------------------------------------------------------------------- */

static void owner_lock(unsigned long *owner, const char *what)
{
	struct bucket *b = bucket_of(owner);
	struct deadline d;

	dmaemu__sched_point(NULL, what);
	deadline_of(LONG_MAX, &d);
	d.hang = false; /* a lock has no error path: it waits */
	dmaemu__lock(&b->lock);
	if (*owner == me()) {
		dmaemu__unlock(&b->lock);
		dmaemu__reportf(NULL, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"BUG: %s recursion: %s(%p) by the thread "
				"that holds it (deadlock)",
				what, what, (void *)owner);
		dmaemu__lock(&b->lock);
	}
	while (*owner) {
		/* A lock has no error path: after the deadlock report its
		 * waiter leaves lockstep and waits as the kernel would. */
		if (bucket_wait(b, &d, false, what) == -EDEADLK) {
			dmaemu__sched_detach(d.c);
			d.c = NULL;
		}
	}
	*owner = me();
	dmaemu__unlock(&b->lock);
	/* Taking a lock orders the holder's accesses (cpu/order.c). */
	dmaemu__order_barrier(DMAEMU_BARRIER_FULL);
}

static bool owner_trylock(unsigned long *owner)
{
	struct bucket *b = bucket_of(owner);
	bool ok;

	dmaemu__lock(&b->lock);
	ok = !*owner;
	if (ok)
		*owner = me();
	dmaemu__unlock(&b->lock);
	if (ok)
		dmaemu__order_barrier(DMAEMU_BARRIER_FULL);
	return ok;
}

static bool owner_unlock(unsigned long *owner, const char *what)
{
	struct bucket *b = bucket_of(owner);
	unsigned long was;

	/* Releasing one orders them too. */
	dmaemu__order_barrier(DMAEMU_BARRIER_FULL);
	dmaemu__lock(&b->lock);
	was = *owner;
	if (was == me())
		*owner = 0;
	bucket_unlock_wake(b, was == me());
	if (was != me())
		dmaemu__reportf(NULL, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"%s(%p): %s", what, (void *)owner,
				was ? "held by another thread" : "not locked");
	return was == me();
}

static bool owner_held(unsigned long *owner)
{
	struct bucket *b = bucket_of(owner);
	bool held;

	dmaemu__lock(&b->lock);
	held = *owner != 0;
	dmaemu__unlock(&b->lock);
	return held;
}

/*
 * A NULL object (Linux would oops): a bad-argument report naming @fn, and
 * the caller returns without touching anything.
 */
static bool null_obj(const void *obj, const char *fn)
{
	if (obj)
		return false;
	dmaemu__reportf(NULL, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0, "%s(NULL)", fn);
	return true;
}

void spin_lock_init(spinlock_t *lock)
{
	struct bucket *b = bucket_of(lock);

	if (null_obj(lock, __func__))
		return;
	dmaemu__lock(&b->lock);
	lock->owner = 0;
	dmaemu__unlock(&b->lock);
}

void spin_lock(spinlock_t *lock)
{
	if (null_obj(lock, __func__))
		return;
	dmaemu_preempt_disable();
	owner_lock(&lock->owner, "spin_lock");
}

int spin_trylock(spinlock_t *lock)
{
	if (null_obj(lock, __func__))
		return 0;
	dmaemu_preempt_disable();
	if (owner_trylock(&lock->owner))
		return 1;
	(void)dmaemu_preempt_enable();
	return 0;
}

void spin_unlock(spinlock_t *lock)
{
	if (null_obj(lock, __func__))
		return;
	if (owner_unlock(&lock->owner, "spin_unlock"))
		(void)dmaemu_preempt_enable();
}

bool spin_is_locked(spinlock_t *lock)
{
	if (null_obj(lock, __func__))
		return false;
	return owner_held(&lock->owner);
}

void spin_lock_irq(spinlock_t *lock)
{
	dmaemu_irq_disable();
	spin_lock(lock);
}

void spin_unlock_irq(spinlock_t *lock)
{
	spin_unlock(lock);
	dmaemu_irq_enable();
}

void spin_lock_bh(spinlock_t *lock)
{
	dmaemu_bh_disable();
	spin_lock(lock);
}

void spin_unlock_bh(spinlock_t *lock)
{
	spin_unlock(lock);
	(void)dmaemu_bh_enable();
}

unsigned long _raw_spin_lock_irqsave(spinlock_t *lock)
{
	unsigned long flags = dmaemu_irq_save();

	spin_lock(lock);
	return flags;
}

void spin_unlock_irqrestore(spinlock_t *lock, unsigned long flags)
{
	spin_unlock(lock);
	dmaemu_irq_restore(flags);
}

void mutex_init(struct mutex *lock)
{
	struct bucket *b = bucket_of(lock);

	if (null_obj(lock, __func__))
		return;
	dmaemu__lock(&b->lock);
	lock->owner = 0;
	dmaemu__unlock(&b->lock);
}

void mutex_destroy(struct mutex *lock)
{
	if (null_obj(lock, __func__))
		return;
	if (owner_held(&lock->owner))
		dmaemu__reportf(NULL, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"mutex_destroy(%p): the mutex is locked",
				(void *)lock);
}

void mutex_lock(struct mutex *lock)
{
	if (null_obj(lock, __func__))
		return;
	dmaemu_might_sleep("mutex_lock()");
	owner_lock(&lock->owner, "mutex_lock");
}

int mutex_lock_interruptible(struct mutex *lock)
{
	if (null_obj(lock, __func__))
		return -EINVAL;
	mutex_lock(lock);
	return 0;
}

int mutex_trylock(struct mutex *lock)
{
	if (null_obj(lock, __func__))
		return 0;
	return owner_trylock(&lock->owner);
}

void mutex_unlock(struct mutex *lock)
{
	if (null_obj(lock, __func__))
		return;
	owner_unlock(&lock->owner, "mutex_unlock");
}

bool mutex_is_locked(struct mutex *lock)
{
	if (null_obj(lock, __func__))
		return false;
	return owner_held(&lock->owner);
}

/* ---------------------------------------------------------------------- */
/* Wait queues and completions                                            */
/* ---------------------------------------------------------------------- */

void init_waitqueue_head(wait_queue_head_t *wq)
{
	struct bucket *b = bucket_of(wq);

	if (null_obj(wq, __func__))
		return;
	dmaemu__lock(&b->lock);
	wq->seq = 0;
	dmaemu__unlock(&b->lock);
}

void wake_up(wait_queue_head_t *wq)
{
	struct bucket *b = bucket_of(wq);

	if (null_obj(wq, __func__))
		return;
	/* Like the kernel's wake-ups and completions (a spinlock inside),
	 * waking and being woken order accesses (cpu/order.c). */
	dmaemu__order_barrier(DMAEMU_BARRIER_FULL);
	dmaemu__lock(&b->lock);
	wq->seq++;
	bucket_unlock_wake(b, true);
}

unsigned long dmaemu_waitq_prepare(struct wait_queue_head *wq)
{
	struct bucket *b = bucket_of(wq);
	unsigned long seq;

	if (null_obj(wq, __func__))
		return 0;
	dmaemu__lock(&b->lock);
	seq = wq->seq;
	dmaemu__unlock(&b->lock);
	return seq;
}

long dmaemu_waitq_sleep(struct wait_queue_head *wq, unsigned long seq,
			long timeout)
{
	DMAEMU__API_CALL(call, "wait_event");
	struct bucket *b = bucket_of(wq);
	struct deadline d;
	int ret = 0;

	if (null_obj(wq, __func__))
		return 0;
	if (timeout <= 0)
		return 0;
	deadline_of(timeout, &d);
	dmaemu__lock(&b->lock);
	while (wq->seq == seq && !ret)
		ret = bucket_wait(b, &d, false, "wait_event()");
	dmaemu__unlock(&b->lock);
	dmaemu__order_barrier(DMAEMU_BARRIER_FULL);
	/* A deadlock ends the wait as its timeout would. */
	return ret == -EDEADLK ? 0 : jiffies_left(&d);
}

void init_completion(struct completion *x)
{
	struct bucket *b = bucket_of(x);

	if (null_obj(x, __func__))
		return;
	dmaemu__lock(&b->lock);
	x->done = 0;
	x->wait.seq = 0;
	dmaemu__unlock(&b->lock);
}

void reinit_completion(struct completion *x)
{
	struct bucket *b = bucket_of(x);

	if (null_obj(x, __func__))
		return;
	dmaemu__lock(&b->lock);
	x->done = 0;
	dmaemu__unlock(&b->lock);
}

static void do_complete(struct completion *x, bool all)
{
	struct bucket *b = bucket_of(x);

	if (null_obj(x, all ? "complete_all" : "complete"))
		return;
	dmaemu__order_barrier(DMAEMU_BARRIER_FULL);
	dmaemu__lock(&b->lock);
	if (all)
		x->done = UINT_MAX;
	else if (x->done != UINT_MAX)
		x->done++;
	x->wait.seq++;
	bucket_unlock_wake(b, true);
}

void complete(struct completion *x)
{
	do_complete(x, false);
}

void complete_all(struct completion *x)
{
	do_complete(x, true);
}

/* Wait for @x at most @timeout jiffies.  Return: 0 or the jiffies left. */
static long do_wait(struct completion *x, long timeout, const char *what)
{
	struct bucket *b = bucket_of(x);
	struct deadline d;
	long left = 0;

	if (null_obj(x, what))
		return 0;
	dmaemu_might_sleep(what);
	deadline_of(timeout, &d);
	dmaemu__lock(&b->lock);
	while (!x->done)
		if (bucket_wait(b, &d, true, what))
			break;
	if (x->done) {
		if (x->done != UINT_MAX)
			x->done--;
		left = jiffies_left(&d);
		if (!left)
			left = 1;
	}
	dmaemu__unlock(&b->lock);
	dmaemu__order_barrier(DMAEMU_BARRIER_FULL);
	return left;
}

void wait_for_completion(struct completion *x)
{
	DMAEMU__API_CALL(call, "wait_for_completion");

	(void)do_wait(x, LONG_MAX, "wait_for_completion()");
}

unsigned long wait_for_completion_timeout(struct completion *x,
					  unsigned long timeout)
{
	return (unsigned long)do_wait(
		x, timeout > (unsigned long)LONG_MAX ? LONG_MAX : (long)timeout,
		"wait_for_completion_timeout()");
}

int wait_for_completion_interruptible(struct completion *x)
{
	DMAEMU__API_CALL(call, "wait_for_completion_interruptible");

	if (null_obj(x, __func__))
		return -EINVAL;
	wait_for_completion(x);
	return 0;
}

long wait_for_completion_interruptible_timeout(struct completion *x,
					       unsigned long timeout)
{
	return (long)wait_for_completion_timeout(x, timeout);
}

bool try_wait_for_completion(struct completion *x)
{
	struct bucket *b = bucket_of(x);
	bool ok;

	if (null_obj(x, __func__))
		return false;
	dmaemu__lock(&b->lock);
	ok = x->done != 0;
	if (ok && x->done != UINT_MAX)
		x->done--;
	dmaemu__unlock(&b->lock);
	return ok;
}

bool completion_done(struct completion *x)
{
	struct bucket *b = bucket_of(x);
	bool done;

	if (null_obj(x, __func__))
		return false;
	dmaemu__lock(&b->lock);
	done = x->done != 0;
	dmaemu__unlock(&b->lock);
	return done;
}
