// SPDX-License-Identifier: MIT
/*
 * trace.c - trace events (<dmaemu/trace.h>, docs/tracing.md).
 *
 * How it works.  The layers call dmaemu__trace() at their events with a
 * group bit; m->trace_mask (read without a lock) says which groups are
 * on, so an event of a group that is off costs a load and a test.  An
 * event that is on is formatted once (its fields as "key=value" text),
 * stamped with emulated time (the clock the top layer installs:
 * dmaemu_time_ns(), virtual under sched=lockstep, so that two lockstep
 * runs with one seed give the same trace) and the calling thread's name,
 * then written under trace_lock (a leaf) to the trace= file, as one
 * ftrace-style line
 *
 *         nic0-dev [dev] 0.001234: dma_write: dev=nic0 addr=0x80021000 len=1514
 *
 * or as one object of a Chrome trace-event array (trace_format=json: an
 * instant event on the thread's track, with the fields as its args, and
 * a thread_name record the first time a thread appears; the array is
 * left open, which the format allows, so a trace cut short by a crash
 * still loads), and handed to the test's callback.
 *
 * Threads: a device's thread and the interrupt thread name themselves
 * (dmaemu__trace_thread()); any other thread is a driver thread, "drv-N"
 * with N in the order of their first event.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"

static const char *const group_names[DMAEMU__TRACE_NGROUPS] = {
	"alloc", "dma", "device", "mmio", "irq", "report",
};

struct trace_thread {
	char name[40];
	const char *ctx;
	unsigned int id;    /* 0 until the first event */
	uint64_t json_seen; /* bit: thread_name written for machine seq & 63 */
};

static __thread struct trace_thread self
	__attribute__((tls_model("initial-exec")));
static unsigned int next_driver = 1;
static unsigned int next_id = 1;

const char *dmaemu__trace_group_name(unsigned int g)
{
	return g < DMAEMU__TRACE_NGROUPS ? group_names[g] : NULL;
}

void dmaemu__trace_thread(const char *name, const char *ctx)
{
	snprintf(self.name, sizeof(self.name), "%s", name);
	self.ctx = ctx;
	self.id = __atomic_fetch_add(&next_id, 1, __ATOMIC_RELAXED);
}

bool dmaemu__on_device_thread(void)
{
	return self.ctx && !strcmp(self.ctx, "dev");
}

static void name_self(void)
{
	if (self.id)
		return;
	snprintf(self.name, sizeof(self.name), "drv-%u",
		 __atomic_fetch_add(&next_driver, 1, __ATOMIC_RELAXED));
	self.ctx = "cpu";
	self.id = __atomic_fetch_add(&next_id, 1, __ATOMIC_RELAXED);
}

/*
 * "all", or a comma list of group names.  Return: the mask, or -1.
 */
int dmaemu__trace_parse(const char *s, unsigned int *mask)
{
	unsigned int set = 0, g;
	const char *p = s;

	if (!strcmp(s, "all")) {
		*mask = DMAEMU__TRACE_ALL;
		return 0;
	}
	if (!strcmp(s, "none")) {
		*mask = 0;
		return 0;
	}
	for (;;) {
		size_t n = strcspn(p, ",");

		for (g = 0; g < DMAEMU__TRACE_NGROUPS; g++)
			if (strlen(group_names[g]) == n &&
			    !memcmp(p, group_names[g], n))
				break;
		if (!n || g == DMAEMU__TRACE_NGROUPS)
			return -EINVAL;
		set |= 1U << g;
		p += n;
		if (!*p)
			break;
		p++;
	}
	*mask = set;
	return 0;
}

void dmaemu__trace_format_groups(unsigned int mask, char *buf, size_t len)
{
	unsigned int g;
	size_t n = 0;

	mask &= DMAEMU__TRACE_ALL;
	if (mask == DMAEMU__TRACE_ALL || !mask) {
		snprintf(buf, len, "%s", mask ? "all" : "none");
		return;
	}
	buf[0] = '\0';
	for (g = 0; g < DMAEMU__TRACE_NGROUPS; g++) {
		if (!(mask & (1U << g)) || n >= len)
			continue;
		n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? "," : "",
				      group_names[g]);
	}
}

int dmaemu__trace_init(struct dmaemu_machine *m, char *err, size_t errlen)
{
	int ret = dmaemu__mutex_init(&m->trace_lock);

	if (ret)
		return -ret;
	m->trace_file = NULL;
	if (m->opt.trace[0]) {
		m->trace_file = fopen(m->opt.trace, "we");
		if (!m->trace_file) {
			ret = -errno;
			snprintf(err, errlen, "trace: cannot open '%s': %s",
				 m->opt.trace, strerror(errno));
			pthread_mutex_destroy(&m->trace_lock);
			return ret;
		}
		if (m->opt.trace_json)
			fputs("[\n", m->trace_file);
		__atomic_store_n(&m->trace_mask, m->opt.trace_events,
				 __ATOMIC_RELAXED);
	}
	return 0;
}

void dmaemu__trace_fini(struct dmaemu_machine *m)
{
	__atomic_store_n(&m->trace_mask, 0, __ATOMIC_RELAXED);
	if (m->trace_file) {
		fclose(m->trace_file);
		m->trace_file = NULL;
	}
	pthread_mutex_destroy(&m->trace_lock);
}

/* Write @s as a JSON string body (quotes and controls escaped). */
static void json_str(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
}

static void write_event(struct dmaemu_machine *m,
			const struct dmaemu_trace_event *ev)
{
	FILE *f = m->trace_file;
	uint64_t bit = 1ULL << (m->seq & 63);

	if (!m->opt.trace_json) {
		fprintf(f, "%16s [%s] %" PRIu64 ".%06" PRIu64 ": %s: %s\n",
			ev->thread, ev->ctx,
			(uint64_t)(ev->ts_ns / 1000000000U),
			(uint64_t)((ev->ts_ns / 1000U) % 1000000U), ev->name,
			ev->args);
		return;
	}
	if (!(self.json_seen & bit)) {
		self.json_seen |= bit;
		fprintf(f,
			"{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,"
			"\"tid\":%u,\"args\":{\"name\":\"",
			self.id);
		json_str(f, ev->thread);
		fputs("\"}},\n", f);
	}
	fprintf(f,
		"{\"name\":\"%s\",\"cat\":\"%s\",\"ph\":\"i\",\"s\":\"%s\","
		"\"ts\":%" PRIu64 ".%03" PRIu64 ",\"pid\":1,\"tid\":%u,"
		"\"args\":{\"ctx\":\"%s\",\"fields\":\"",
		ev->name, ev->group, strcmp(ev->group, "report") ? "t" : "g",
		(uint64_t)(ev->ts_ns / 1000U), (uint64_t)(ev->ts_ns % 1000U),
		self.id, ev->ctx);
	json_str(f, ev->args);
	fputs("\"}},\n", f);
}

void dmaemu__trace(struct dmaemu_machine *m, unsigned int group,
		   const char *name, const char *fmt, ...)
{
	struct dmaemu_trace_event ev;
	dmaemu_trace_fn fn;
	char args[512];
	va_list ap;
	void *arg;

	if (!m || !(__atomic_load_n(&m->trace_mask, __ATOMIC_RELAXED) &
		    (1U << group)))
		return;
	name_self();
	va_start(ap, fmt);
	vsnprintf(args, sizeof(args), fmt, ap);
	va_end(ap);
	ev.group = group_names[group];
	ev.name = name;
	ev.ts_ns = m->trace_clock ? m->trace_clock() : 0;
	ev.thread = self.name;
	ev.ctx = self.ctx;
	ev.args = args;
	dmaemu__lock(&m->trace_lock);
	if (m->trace_file) {
		write_event(m, &ev);
		fflush(m->trace_file);
	}
	fn = m->trace_fn;
	arg = m->trace_arg;
	m->trace_events++;
	dmaemu__unlock(&m->trace_lock);
	if (fn)
		fn(m, &ev, arg);
}

int dmaemu_trace_start(struct dmaemu_machine *m, const char *events)
{
	unsigned int mask;

	if (dmaemu__machine_bad(m, "dmaemu_trace_start"))
		return -EINVAL;
	mask = m ? m->opt.trace_events : 0;
	if (!m)
		return -EINVAL;
	if (events && dmaemu__trace_parse(events, &mask) < 0) {
		dmaemu__reportf(m, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"dmaemu_trace_start(\"%s\"): expected all, "
				"none or a comma list of alloc, dma, device, "
				"mmio, irq, report",
				events);
		return -EINVAL;
	}
	__atomic_store_n(&m->trace_mask, mask, __ATOMIC_RELAXED);
	return 0;
}

void dmaemu_trace_stop(struct dmaemu_machine *m)
{
	if (dmaemu__machine_bad(m, "dmaemu_trace_stop"))
		return;
	if (m)
		__atomic_store_n(&m->trace_mask, 0, __ATOMIC_RELAXED);
}

void dmaemu_trace_set_callback(struct dmaemu_machine *m, dmaemu_trace_fn fn,
			       void *arg)
{
	if (dmaemu__machine_bad(m, "dmaemu_trace_set_callback"))
		return;
	if (!m)
		return;
	dmaemu__lock(&m->trace_lock);
	m->trace_fn = fn;
	m->trace_arg = arg;
	dmaemu__unlock(&m->trace_lock);
}
