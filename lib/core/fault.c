// SPDX-License-Identifier: MIT
/*
 * fault.c - fault injection: the kernel calls a driver makes fail on
 * demand, so that its error paths run (<dmaemu/fault.h>).
 *
 * How it works.  Each fault point (failslab, fail_page_alloc,
 * fail_dma_alloc, fail_dma_map, fail_dma_pool) has the attributes of
 * Linux's struct fault_attr, from the machine option of its name or from
 * dmaemu_fault_set().  The public entry points of those calls ask
 * dmaemu__should_fail() before doing anything, which decides as Linux's
 * should_fail() (lib/fault-inject.c) does, in this order:
 *
 *   1. the thread asked for its n-th call to fail (dmaemu_fail_nth()):
 *      count down, fail at 0, and decide nothing else;
 *   2. the point is off, or its probability is 0, or times is 0: succeed;
 *   3. space: while more bytes are left than this call asks for, take
 *      them off and succeed;
 *   4. interval > 1: only every interval-th call may fail;
 *   5. probability: fail when a draw in 0..99 of the point's generator
 *      (seeded from the machine's seed) is below it;
 *   6. fail, and count times down unless it is -1.
 *
 * Only the driver's calls are points: the library's own allocations (the
 * swiotlb pool, a coherent buffer's pages) never fail by injection.  An
 * injected failure is no report (the driver did nothing wrong); with
 * fail_verbose=1 (the default) it is one line on the machine's log naming
 * the call and the driver's line, as Linux prints FAULT_INJECTION lines.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"

static const char *const point_names[DMAEMU_FAULT_NPOINTS] = {
	[DMAEMU_FAULT_SLAB] = "failslab",
	[DMAEMU_FAULT_PAGE_ALLOC] = "fail_page_alloc",
	[DMAEMU_FAULT_DMA_ALLOC] = "fail_dma_alloc",
	[DMAEMU_FAULT_DMA_MAP] = "fail_dma_map",
	[DMAEMU_FAULT_DMA_POOL] = "fail_dma_pool",
};

/* Calls left before this thread's requested failure (0: none asked). */
static __thread unsigned int fail_nth
	__attribute__((tls_model("initial-exec")));

static uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/*
 * "off", or "interval,probability,space,times" as Linux's boot parameters
 * take them (setup_fault_attr()): interval >= 1 (0 is taken as 1, as
 * Linux's test "interval > 1" does), probability 0..100, space >= 0,
 * times >= -1.
 */
int dmaemu__fault_parse(const char *s, struct dmaemu__fault_attr *a)
{
	unsigned long interval, probability;
	long space, times;
	char end;

	if (!strcmp(s, "off")) {
		memset(a, 0, sizeof(*a));
		return 0;
	}
	if (sscanf(s, "%lu,%lu,%ld,%ld%c", &interval, &probability, &space,
		   &times, &end) != 4)
		return -EINVAL;
	if (s[0] == '-' || strchr(s, ' ') || probability > 100 || space < 0 ||
	    times < -1 || interval > 1000000000UL)
		return -EINVAL;
	a->on = true;
	a->interval = interval ? interval : 1;
	a->probability = probability;
	a->space = space;
	a->times = times;
	return 0;
}

void dmaemu__fault_format(const struct dmaemu__fault_attr *a, char *buf,
			  size_t len)
{
	if (!a->on)
		snprintf(buf, len, "off");
	else
		snprintf(buf, len, "%lu,%lu,%ld,%ld", a->interval,
			 a->probability, a->space, a->times);
}

static void restart(struct dmaemu_machine *m, unsigned int p)
{
	m->fault_calls[p] = 0;
	m->fault_rng[p] = m->opt.seed ^ (0x5851f42d4c957f2dULL * (p + 1));
}

static void update_any(struct dmaemu_machine *m)
{
	unsigned int p;
	int any = 0;

	for (p = 0; p < DMAEMU_FAULT_NPOINTS; p++)
		any |= m->fault[p].on;
	__atomic_store_n(&m->fault_any, any, __ATOMIC_RELAXED);
}

/* The points' attributes from the options (fault_lock is made with the
 * machine's other locks). */
void dmaemu__fault_init(struct dmaemu_machine *m)
{
	unsigned int p;

	for (p = 0; p < DMAEMU_FAULT_NPOINTS; p++) {
		m->fault[p] = m->opt.fail[p];
		m->fault_injected[p] = 0;
		restart(m, p);
	}
	update_any(m);
}

/* Decide under fault_lock; *@why gets the attributes for the log line. */
static bool decide(struct dmaemu_machine *m, unsigned int p, size_t size,
		   char *why, size_t whylen)
{
	struct dmaemu__fault_attr *a = &m->fault[p];

	if (!a->on || !a->probability || !a->times)
		return false;
	if (a->space > 0 && (uint64_t)a->space > size) {
		a->space -= (long)size;
		return false;
	}
	if (a->interval > 1 && ++m->fault_calls[p] % a->interval)
		return false;
	if (splitmix64(&m->fault_rng[p]) % 100 >= a->probability)
		return false;
	if (a->times > 0)
		a->times--;
	snprintf(why, whylen,
		 "%s: interval %lu, probability %lu, space %ld, times %ld "
		 "left",
		 point_names[p], a->interval, a->probability, a->space,
		 a->times);
	return true;
}

bool dmaemu__should_fail(struct dmaemu_machine *m,
			 enum dmaemu_fault_point point, size_t size,
			 const char *what)
{
	const struct dmaemu__call *call;
	char why[160], site[400] = "";
	bool fail = false;
	FILE *out;

	if (!m || (unsigned int)point >= DMAEMU_FAULT_NPOINTS)
		return false;
	if (fail_nth) {
		if (--fail_nth)
			return false;
		snprintf(why, sizeof(why), "%s, by dmaemu_fail_nth()",
			 point_names[point]);
		fail = true;
	} else if (!__atomic_load_n(&m->fault_any, __ATOMIC_RELAXED)) {
		return false;
	}
	dmaemu__lock(&m->fault_lock);
	if (!fail)
		fail = decide(m, point, size, why, sizeof(why));
	if (fail)
		m->fault_injected[point]++;
	dmaemu__unlock(&m->fault_lock);
	if (!fail || !m->opt.fail_verbose)
		return fail;
	call = dmaemu__call_current();
	if (call && call->caller) {
		strcpy(site, " at ");
		dmaemu__code_where(call->caller, site + 4, sizeof(site) - 4);
	}
	dmaemu__lock(&m->report_lock);
	out = m->log ? m->log : stderr;
	fprintf(out, "FAULT_INJECTION: forcing a failure: %s%s (%s)\n", what,
		site, why);
	fflush(out);
	dmaemu__unlock(&m->report_lock);
	return true;
}

int dmaemu_fault_set(struct dmaemu_machine *m, enum dmaemu_fault_point point,
		     const char *spec)
{
	struct dmaemu__fault_attr a;

	if (dmaemu__machine_bad(m, "dmaemu_fault_set"))
		return -EINVAL;
	if (!m)
		return -EINVAL;
	if ((unsigned int)point >= DMAEMU_FAULT_NPOINTS) {
		dmaemu__reportf(m, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"dmaemu_fault_set: no fault point %d",
				(int)point);
		return -EINVAL;
	}
	if (!spec || dmaemu__fault_parse(spec, &a) < 0) {
		dmaemu__reportf(m, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"dmaemu_fault_set(%s, \"%s\"): expected off "
				"or interval,probability,space,times "
				"(probability 0-100, space >= 0, times >= -1)",
				point_names[point], spec ? spec : "(null)");
		return -EINVAL;
	}
	dmaemu__lock(&m->fault_lock);
	m->fault[point] = a;
	restart(m, point);
	update_any(m);
	dmaemu__unlock(&m->fault_lock);
	return 0;
}

unsigned long dmaemu_fault_injected(const struct dmaemu_machine *m,
				    enum dmaemu_fault_point point)
{
	struct dmaemu_machine *mm = (struct dmaemu_machine *)m;
	unsigned long n;

	if (dmaemu__machine_bad(m, "dmaemu_fault_injected"))
		return 0;
	if (!m || (unsigned int)point >= DMAEMU_FAULT_NPOINTS)
		return 0;
	dmaemu__lock(&mm->fault_lock);
	n = mm->fault_injected[point];
	dmaemu__unlock(&mm->fault_lock);
	return n;
}

void dmaemu_fail_nth(unsigned int n)
{
	fail_nth = n;
}

unsigned int dmaemu_fail_nth_left(void)
{
	return fail_nth;
}
