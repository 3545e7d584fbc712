/* SPDX-License-Identifier: MIT */
/*
 * <linux/ktime.h> - ktime_t, nanoseconds of emulated time.
 *
 * ktime_get() and its monotonic relatives read the emulated clock
 * (<dmaemu/sync.h>: the host's monotonic clock, or the machine's virtual
 * clock under sched=lockstep), the clock jiffies count too.
 * ktime_get_real() is the same clock: emulated time has no wall clock.
 */
#ifndef DMAEMU_KERNEL_LINUX_KTIME_H
#define DMAEMU_KERNEL_LINUX_KTIME_H

#include <linux/jiffies.h>
#include <linux/time64.h>
#include <linux/types.h>

#include <dmaemu/sync.h>

#define KTIME_MAX ((s64) ~((u64)1 << 63))
#define KTIME_SEC_MAX (KTIME_MAX / NSEC_PER_SEC)

static inline ktime_t ktime_set(const s64 secs, const unsigned long nsecs)
{
	if (secs >= KTIME_SEC_MAX)
		return KTIME_MAX;
	return secs * NSEC_PER_SEC + (s64)nsecs;
}

#define ktime_add(a, b) ((a) + (b))
#define ktime_sub(a, b) ((a) - (b))
#define ktime_add_ns(kt, nsval) ((kt) + (s64)(nsval))
#define ktime_sub_ns(kt, nsval) ((kt) - (s64)(nsval))
#define ktime_add_us(kt, usec) ((kt) + (s64)(usec)*NSEC_PER_USEC)
#define ktime_add_ms(kt, msec) ((kt) + (s64)(msec)*NSEC_PER_MSEC)
#define ktime_sub_us(kt, usec) ((kt) - (s64)(usec)*NSEC_PER_USEC)
#define ktime_to_ns(kt) ((s64)(kt))
#define ns_to_ktime(ns) ((ktime_t)(ns))
#define ktime_to_us(kt) ((s64)(kt) / NSEC_PER_USEC)
#define ktime_to_ms(kt) ((s64)(kt) / NSEC_PER_MSEC)
#define us_to_ktime(us) ((ktime_t)(us)*NSEC_PER_USEC)
#define ms_to_ktime(ms) ((ktime_t)(ms)*NSEC_PER_MSEC)

static inline int ktime_compare(const ktime_t cmp1, const ktime_t cmp2)
{
	return cmp1 < cmp2 ? -1 : cmp1 > cmp2 ? 1 : 0;
}

static inline bool ktime_after(const ktime_t cmp1, const ktime_t cmp2)
{
	return ktime_compare(cmp1, cmp2) > 0;
}

static inline bool ktime_before(const ktime_t cmp1, const ktime_t cmp2)
{
	return ktime_compare(cmp1, cmp2) < 0;
}

static inline s64 ktime_us_delta(const ktime_t later, const ktime_t earlier)
{
	return ktime_to_us(ktime_sub(later, earlier));
}

static inline s64 ktime_ms_delta(const ktime_t later, const ktime_t earlier)
{
	return ktime_to_ms(ktime_sub(later, earlier));
}

static inline ktime_t ktime_get(void)
{
	return (ktime_t)dmaemu_time_ns();
}

static inline u64 ktime_get_ns(void)
{
	return dmaemu_time_ns();
}

#define ktime_get_raw() ktime_get()
#define ktime_get_boottime() ktime_get()
#define ktime_get_real() ktime_get()
#define ktime_get_raw_ns() ktime_get_ns()
#define ktime_get_boot_ns() ktime_get_ns()
#define ktime_get_real_ns() ktime_get_ns()
#define ktime_get_mono_fast_ns() ktime_get_ns()

static inline time64_t ktime_get_seconds(void)
{
	return (time64_t)(dmaemu_time_ns() / NSEC_PER_SEC);
}

static inline struct timespec64 ktime_to_timespec64(const ktime_t kt)
{
	struct timespec64 ts = {kt / NSEC_PER_SEC, (long)(kt % NSEC_PER_SEC)};

	return ts;
}

static inline void ktime_get_ts64(struct timespec64 *ts)
{
	*ts = ktime_to_timespec64(ktime_get());
}

/* What Linux 4.14's include chain brings with this header (docs/kernel-headers.md). */
#include <linux/kernel.h>

#endif
