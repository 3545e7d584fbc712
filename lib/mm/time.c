// SPDX-License-Identifier: MIT
/*
 * time.c - emulated time, jiffies, delays.
 *
 * Emulated time is the host's CLOCK_MONOTONIC, unscaled, from the first
 * time the process reads it (<dmaemu/sync.h> says why).  jiffies count
 * milliseconds (HZ 1000) from INITIAL_JIFFIES, 5 minutes before the
 * counter wraps, as in the kernel.  Busy-waits (udelay) are allowed in
 * atomic context; sleeps (msleep) check the context first.  Nothing here
 * takes a lock.
 *
 * With sched=lockstep, a context of the machine sees the machine's
 * emulated clock instead (sched.c), which moves only when every context
 * waits; its sleeps and busy-waits are scheduling waits on that clock.
 */
#include "config.h"

#include <errno.h>
#include <time.h>

#include <dmaemu/context.h>
#include <linux/delay.h>
#include <linux/jiffies.h>

#include "mm/mm.h"

#define INITIAL_JIFFIES ((unsigned long)(unsigned int)(-300 * HZ))

static uint64_t epoch; /* set once by time_init() */
static pthread_once_t time_once = PTHREAD_ONCE_INIT;

static uint64_t host_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void time_init(void)
{
	epoch = host_ns();
}

uint64_t dmaemu_time_ns(void)
{
	uint64_t now;

	if (dmaemu__sched_now(&now))
		return now;
	pthread_once(&time_once, time_init);
	return host_ns() - epoch;
}

unsigned long dmaemu_jiffies(void)
{
	return INITIAL_JIFFIES +
	       (unsigned long)(dmaemu_time_ns() / (1000000000ULL / HZ));
}

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = {.tv_sec = (time_t)(ns / 1000000000ULL),
			      .tv_nsec = (long)(ns % 1000000000ULL)};

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

void msleep(unsigned int msecs)
{
	dmaemu_might_sleep("msleep()");
	if (!dmaemu__sched_sleep((uint64_t)msecs * 1000000ULL, "msleep()"))
		return;
	sleep_ns((uint64_t)msecs * 1000000ULL);
}

unsigned long msleep_interruptible(unsigned int msecs)
{
	msleep(msecs);
	return 0;
}

void usleep_range(unsigned long min, unsigned long max)
{
	dmaemu_might_sleep("usleep_range()");
	if (!dmaemu__sched_sleep((uint64_t)(min + (max - min) / 2) * 1000ULL,
				 "usleep_range()"))
		return;
	sleep_ns((uint64_t)(min + (max - min) / 2) * 1000ULL);
}

void ndelay(unsigned long nsecs)
{
	uint64_t end;

	if (!dmaemu__sched_sleep(nsecs, "udelay()"))
		return;
	end = dmaemu_time_ns() + nsecs;
	while (dmaemu_time_ns() < end)
		;
}

void udelay(unsigned long usecs)
{
	ndelay(usecs * 1000UL);
}

void mdelay(unsigned long msecs)
{
	ndelay(msecs * 1000000UL);
}
