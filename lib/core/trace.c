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
 * With trace_buffer=, the record goes to the thread's own buffer instead
 * (its lock only; a record that does not fit is dropped and counted), and
 * the buffers are drained at stop and destroy in the order the records
 * were made (a sequence number each), followed by a trace_dropped record
 * per thread that dropped some (the log says it too).
 *
 * The JSON form also has ownership spans ("b"/"e" records, category
 * "ownership", one id a mapping: dmaemu__trace_owner()) and counters ("C"
 * records: dmaemu__trace_counter()).  The spans open are listed under
 * trace_lock, so that every begin gets its end: spans still open when the
 * dma group is turned off or the machine destroyed are ended then.
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

#ifdef DMAEMU__TRACE_OUT
#undef dmaemu__trace
#undef dmaemu__tracing
#undef dmaemu__tracing_json
#endif

static const char *const group_names[DMAEMU__TRACE_NGROUPS] = {
	"alloc", "dma", "device", "mmio", "irq", "report", "cache",
};

/*
 * A thread's buffer (trace_buffer=): records of [seq (8 bytes), length
 * (4 bytes), the text], appended by the thread under its own lock and
 * drained by dmaemu__trace_flush() under trace_lock and that lock.  A
 * record that does not fit is dropped and counted.
 */
struct dmaemu__trace_buf {
	pthread_mutex_t lock;
	struct dmaemu__trace_buf *next; /* m->trace_bufs, under trace_lock */
	char name[40];			/* the thread's, for its JSON track */
	const char *ctx;
	unsigned int tid;
	bool named;		/* its thread_name record is written */
	size_t used, cap;	/* bytes of @data */
	uint64_t dropped;	/* records dropped since the last flush */
	uint64_t dropped_bytes; /* and their bytes */
	uint64_t last_ts;	/* of the last record made, kept or not */
	unsigned char data[];
};

#define REC_HDR 12 /* seq and length */

/* An open ownership span of the JSON form. */
struct dmaemu__trace_span {
	uint64_t id;
	const char *owner;
	char label[96];
};

struct trace_thread {
	char name[40];
	const char *ctx;
	unsigned int id;    /* 0 until the first event */
	uint64_t json_seen; /* bit: thread_name written for machine seq & 63 */
	uint64_t buf_seq;   /* machine (its seq + 1) of @buf */
	struct dmaemu__trace_buf *buf;
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
 * "all", "default" (all but cache), "none", or a comma list of group
 * names.  Return: the mask, or -1.
 */
int dmaemu__trace_parse(const char *s, unsigned int *mask)
{
	unsigned int set = 0, g;
	const char *p = s;

	if (!strcmp(s, "all")) {
		*mask = DMAEMU__TRACE_ALL;
		return 0;
	}
	if (!strcmp(s, "default")) {
		*mask = DMAEMU__TRACE_DEFAULT;
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
	if (mask == DMAEMU__TRACE_ALL || mask == DMAEMU__TRACE_DEFAULT ||
	    !mask) {
		snprintf(buf, len, "%s",
			 mask == DMAEMU__TRACE_ALL	 ? "all"
			 : mask == DMAEMU__TRACE_DEFAULT ? "default"
							 : "none");
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
	/* Atomics without a lock (Helgrind and DRD do not model them). */
	dmaemu__vg_atomic(&m->trace_seq, sizeof(m->trace_seq));
	dmaemu__vg_atomic(&m->trace_events, sizeof(m->trace_events));
	dmaemu__vg_atomic(&m->trace_fn, sizeof(m->trace_fn));
	return 0;
}

/* ---------------------------------------------------------------------- */
/* Formatting                                                             */
/* ---------------------------------------------------------------------- */

/* A record being built: text that never overflows @cap (cut short). */
struct rec {
	char *p;
	size_t n, cap;
};

static void rec_add(struct rec *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void rec_add(struct rec *r, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (r->n >= r->cap)
		return;
	va_start(ap, fmt);
	k = vsnprintf(r->p + r->n, r->cap - r->n, fmt, ap);
	va_end(ap);
	if (k > 0)
		r->n += (size_t)k < r->cap - r->n ? (size_t)k
						  : r->cap - r->n - 1;
}

/* @s as a JSON string body (quotes and controls escaped), leaving @keep
 * bytes of room for what must follow. */
static void rec_json_str(struct rec *r, const char *s, size_t keep)
{
	for (; *s && r->n + keep + 7 < r->cap; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			rec_add(r, "\\%c", c);
		else if (c < 0x20)
			rec_add(r, "\\u%04x", c);
		else
			r->p[r->n++] = (char)c;
	}
	r->p[r->n] = '\0';
}

static void rec_ts(struct rec *r, uint64_t ts)
{
	rec_add(r, "\"ts\":%" PRIu64 ".%03" PRIu64, ts / 1000U, ts % 1000U);
}

/* The JSON thread_name record of a track. */
static void rec_thread_name(struct rec *r, unsigned int tid, const char *name)
{
	rec_add(r,
		"{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,"
		"\"tid\":%u,\"args\":{\"name\":\"",
		tid);
	rec_json_str(r, name, 8);
	rec_add(r, "\"}},\n");
}

/* One event as a line of the text form or an object of the JSON form. */
static void format_event(struct dmaemu_machine *m,
			 const struct dmaemu_trace_event *ev, struct rec *r)
{
	if (!m->opt.trace_json) {
		const char *a;

		rec_add(r,
			"%16s [%s] %" PRIu64 ".%06" PRIu64 ": %s: ", ev->thread,
			ev->ctx, (uint64_t)(ev->ts_ns / 1000000000U),
			(uint64_t)((ev->ts_ns / 1000U) % 1000000U), ev->name);
		/* One event, one line: a control character is escaped. */
		for (a = ev->args; *a && r->n + 6 < r->cap; a++) {
			unsigned char c = (unsigned char)*a;

			if (c == '\n')
				rec_add(r, "\\n");
			else if (c < 0x20)
				rec_add(r, "\\x%02x", c);
			else
				r->p[r->n++] = (char)c;
		}
		r->p[r->n] = '\0';
		if (r->n + 1 >= r->cap)
			r->n = r->cap - 2;
		r->p[r->n++] = '\n';
		r->p[r->n] = '\0';
		return;
	}
	rec_add(r, "{\"name\":\"%s\",\"cat\":\"%s\",\"ph\":\"i\",\"s\":\"%s\",",
		ev->name, ev->group, strcmp(ev->group, "report") ? "t" : "g");
	rec_ts(r, ev->ts_ns);
	rec_add(r,
		",\"pid\":1,\"tid\":%u,\"args\":{\"ctx\":\"%s\",\"fields\":\"",
		self.id, ev->ctx);
	rec_json_str(r, ev->args, 8);
	rec_add(r, "\"}},\n");
}

/* ---------------------------------------------------------------------- */
/* Writing: at once, or through the thread's buffer                       */
/* ---------------------------------------------------------------------- */

/* This thread's buffer for @m (trace_lock held if @locked), or NULL. */
static struct dmaemu__trace_buf *my_buf(struct dmaemu_machine *m, bool locked)
{
	struct dmaemu__trace_buf *b;
	size_t cap = (size_t)m->opt.trace_buffer;

	if (self.buf_seq == m->seq + 1)
		return self.buf;
	b = dmaemu__calloc(1, sizeof(*b) + cap);
	if (!b)
		return NULL;
	if (dmaemu__mutex_init(&b->lock)) {
		dmaemu__free(b);
		return NULL;
	}
	snprintf(b->name, sizeof(b->name), "%s", self.name);
	b->ctx = self.ctx;
	b->tid = self.id;
	b->cap = cap;
	if (!locked)
		dmaemu__lock(&m->trace_lock);
	b->next = m->trace_bufs;
	m->trace_bufs = b;
	if (!locked)
		dmaemu__unlock(&m->trace_lock);
	self.buf = b;
	self.buf_seq = m->seq + 1;
	return b;
}

/*
 * Write record @r to the file now, trace_lock held, after this thread's
 * JSON thread_name record if the file has none yet.
 */
static void write_now(struct dmaemu_machine *m, const struct rec *r)
{
	uint64_t bit = 1ULL << (m->seq & 63);
	bool named;

	if (!m->trace_file)
		return;
	if (self.buf_seq == m->seq + 1) { /* its buffer names its track */
		named = self.buf->named;
		self.buf->named = true;
	} else {
		named = self.json_seen & bit;
		self.json_seen |= bit;
	}
	if (m->opt.trace_json && !named) {
		char meta[160];
		struct rec mr = {meta, 0, sizeof(meta)};

		rec_thread_name(&mr, self.id, self.name);
		fwrite(meta, 1, mr.n, m->trace_file);
	}
	fwrite(r->p, 1, r->n, m->trace_file);
	fflush(m->trace_file);
}

/*
 * Put record @r (made at @ts) in the trace file: at once (trace_lock
 * held if @locked), or in this thread's buffer.  Return: false when the
 * buffer dropped it.
 */
static bool emit(struct dmaemu_machine *m, const struct rec *r, uint64_t ts,
		 bool locked)
{
	struct dmaemu__trace_buf *b;
	uint64_t seq;
	uint32_t len = (uint32_t)r->n;
	bool kept = true;

	if (!m->opt.trace_buffer) {
		if (!locked)
			dmaemu__lock(&m->trace_lock);
		write_now(m, r);
		if (!locked)
			dmaemu__unlock(&m->trace_lock);
		return true;
	}
	if (!m->trace_file)
		return true;
	/* Lock order: trace_lock, then a buffer's lock. */
	b = my_buf(m, locked);
	if (!b)
		return false;
	seq = __atomic_fetch_add(&m->trace_seq, 1, __ATOMIC_RELAXED);
	dmaemu__lock(&b->lock);
	b->last_ts = ts;
	if (b->cap - b->used < REC_HDR + (size_t)len) {
		b->dropped++;
		b->dropped_bytes += len;
		kept = false;
	} else {
		memcpy(b->data + b->used, &seq, 8);
		memcpy(b->data + b->used + 8, &len, 4);
		memcpy(b->data + b->used + REC_HDR, r->p, len);
		b->used += REC_HDR + len;
	}
	dmaemu__unlock(&b->lock);
	return kept;
}

struct flushed {
	uint64_t seq;
	const unsigned char *p;
	uint32_t len;
};

static int by_seq(const void *a, const void *b)
{
	const struct flushed *x = a, *y = b;

	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The log line saying what a thread's buffer dropped (no lock held). */
static void log_dropped(struct dmaemu_machine *m, const char *thread,
			uint64_t n, uint64_t bytes)
{
	FILE *out;

	dmaemu__lock(&m->report_lock);
	out = m->log ? m->log : stderr;
	fprintf(out,
		"dmaemu: trace: thread %s dropped %" PRIu64 " event%s (%" PRIu64
		" bytes): its trace_buffer=%" PRIu64 " was full\n",
		thread, n, n == 1 ? "" : "s", bytes,
		(uint64_t)m->opt.trace_buffer);
	fflush(out);
	dmaemu__unlock(&m->report_lock);
}

struct drop_note {
	char thread[40];
	uint64_t n, bytes;
};

/*
 * Drain every buffer, trace_lock held: records in the order they were
 * made (seq), a thread's JSON track named before its first record, and
 * a trace_dropped event for each thread that dropped some.  Returns the
 * notes for the log (malloc()ed, *@nnotes of them), written by the
 * caller once the lock is dropped.
 */
static struct drop_note *flush_locked(struct dmaemu_machine *m, size_t *nnotes)
{
	struct dmaemu__trace_buf *b;
	struct flushed *all = NULL;
	struct drop_note *notes = NULL;
	size_t n = 0, cap = 0, nb = 0, i, off;
	FILE *f = m->trace_file;

	*nnotes = 0;
	for (b = m->trace_bufs; b; b = b->next) {
		dmaemu__lock(&b->lock);
		nb++;
		for (off = 0; off < b->used;) {
			struct flushed x;

			memcpy(&x.seq, b->data + off, 8);
			memcpy(&x.len, b->data + off + 8, 4);
			x.p = b->data + off + REC_HDR;
			off += REC_HDR + x.len;
			if (n == cap) {
				size_t nc = cap ? 2 * cap : 256;
				struct flushed *na =
					dmaemu__realloc(all, nc * sizeof(*all));

				if (!na)
					break;
				all = na;
				cap = nc;
			}
			all[n++] = x;
		}
	}
	/* Every buffer is locked now: nothing moves while it is written. */
	if (n)
		qsort(all, n, sizeof(*all), by_seq);
	if (f && m->opt.trace_json) {
		for (b = m->trace_bufs; b; b = b->next) {
			char meta[160];
			struct rec mr = {meta, 0, sizeof(meta)};

			if (b->named || (!b->used && !b->dropped))
				continue;
			b->named = true;
			rec_thread_name(&mr, b->tid, b->name);
			fwrite(meta, 1, mr.n, f);
		}
	}
	for (i = 0; f && i < n; i++)
		fwrite(all[i].p, 1, all[i].len, f);
	if (nb)
		notes = dmaemu__calloc(nb, sizeof(*notes));
	for (b = m->trace_bufs; b; b = b->next) {
		if (b->dropped && f) {
			char line[320];
			struct rec r = {line, 0, sizeof(line)};
			struct dmaemu_trace_event ev = {
				"trace", "trace_dropped", b->last_ts,
				b->name, b->ctx,	  NULL};
			char args[160];

			snprintf(args, sizeof(args),
				 "events=%" PRIu64 " bytes=%" PRIu64
				 " buffer=%" PRIu64,
				 b->dropped, b->dropped_bytes,
				 (uint64_t)m->opt.trace_buffer);
			ev.args = args;
			if (m->opt.trace_json) {
				rec_add(&r,
					"{\"name\":\"trace_dropped\",\"cat\":"
					"\"trace\",\"ph\":\"i\",\"s\":\"t\",");
				rec_ts(&r, b->last_ts);
				rec_add(&r,
					",\"pid\":1,\"tid\":%u,\"args\":{"
					"\"ctx\":\"%s\",\"fields\":\"%s\"}},\n",
					b->tid, b->ctx, args);
			} else {
				format_event(m, &ev, &r);
			}
			fwrite(line, 1, r.n, f);
			m->trace_dropped += b->dropped;
			if (notes) {
				snprintf(notes[*nnotes].thread,
					 sizeof(notes[0].thread), "%s",
					 b->name);
				notes[*nnotes].n = b->dropped;
				notes[*nnotes].bytes = b->dropped_bytes;
				(*nnotes)++;
			}
		}
		b->used = 0;
		b->dropped = 0;
		b->dropped_bytes = 0;
		dmaemu__unlock(&b->lock);
	}
	if (f)
		fflush(f);
	dmaemu__free(all);
	return notes;
}

static void write_notes(struct dmaemu_machine *m, struct drop_note *notes,
			size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		log_dropped(m, notes[i].thread, notes[i].n, notes[i].bytes);
	dmaemu__free(notes);
}

void dmaemu__trace_flush(struct dmaemu_machine *m)
{
	struct drop_note *notes;
	size_t n;

	if (!m->opt.trace_buffer)
		return;
	dmaemu__lock(&m->trace_lock);
	notes = flush_locked(m, &n);
	dmaemu__unlock(&m->trace_lock);
	write_notes(m, notes, n);
}

/* ---------------------------------------------------------------------- */
/* Ownership spans and counters (the JSON form)                           */
/* ---------------------------------------------------------------------- */

static uint64_t now(struct dmaemu_machine *m)
{
	return m->trace_clock ? m->trace_clock() : 0;
}

/*
 * A "b" or "e" record of span @sp, trace_lock held; written at once when
 * @why says why it is closed early.  Return: false when dropped.
 */
static bool span_record(struct dmaemu_machine *m,
			const struct dmaemu__trace_span *sp, bool begin,
			const char *why)
{
	char line[512];
	struct rec r = {line, 0, sizeof(line)};
	uint64_t ts = now(m);

	name_self();
	rec_add(&r, "{\"name\":\"%s ", sp->owner);
	rec_json_str(&r, sp->label, 200);
	rec_add(&r,
		"\",\"cat\":\"ownership\",\"ph\":\"%s\",\"id\":\"0x%" PRIx64
		"\",",
		begin ? "b" : "e", sp->id);
	rec_ts(&r, ts);
	rec_add(&r, ",\"pid\":1,\"tid\":%u,\"args\":{\"owner\":\"%s\"", self.id,
		sp->owner);
	if (why)
		rec_add(&r, ",\"closed\":\"%s\"", why);
	rec_add(&r, "}},\n");
	if (!why)
		return emit(m, &r, ts, true);
	write_now(m, &r);
	return true;
}

/*
 * End every open span (@why: said in its args), trace_lock held, the
 * buffers flushed: these records go to the file at once.
 */
static void close_spans(struct dmaemu_machine *m, const char *why)
{
	size_t i;

	for (i = 0; i < m->trace_nspans; i++)
		span_record(m, &m->trace_spans[i], false, why);
	m->trace_nspans = 0;
}

uint64_t dmaemu__trace_new_id(struct dmaemu_machine *m)
{
	uint64_t id;

	if (!dmaemu__tracing_json(m, DMAEMU__TRACE_DMA))
		return 0;
	dmaemu__lock(&m->trace_lock);
	id = ++m->trace_next_id;
	dmaemu__unlock(&m->trace_lock);
	return id;
}

void dmaemu__trace_owner(struct dmaemu_machine *m, uint64_t id,
			 const char *owner, const char *label)
{
	struct dmaemu__trace_span *sp = NULL;
	size_t i;

	if (!id)
		return;
	dmaemu__lock(&m->trace_lock);
	for (i = 0; i < m->trace_nspans; i++) {
		if (m->trace_spans[i].id == id) {
			sp = &m->trace_spans[i];
			break;
		}
	}
	if (sp && owner && !strcmp(sp->owner, owner))
		goto out;
	/* An end the buffer dropped leaves the span open: it is closed at
	 * stop or destroy, so that every begin has its end. */
	if (sp) {
		if (!span_record(m, sp, false, NULL))
			goto out;
		*sp = m->trace_spans[--m->trace_nspans];
	}
	/* Spans begin while the dma group is traced (a stop closes them). */
	if (!owner || !dmaemu__tracing_json(m, DMAEMU__TRACE_DMA))
		goto out;
	if (m->trace_nspans == m->trace_spans_cap) {
		size_t nc = m->trace_spans_cap ? 2 * m->trace_spans_cap : 64;
		struct dmaemu__trace_span *na =
			dmaemu__realloc(m->trace_spans, nc * sizeof(*na));

		if (!na)
			goto out;
		m->trace_spans = na;
		m->trace_spans_cap = nc;
	}
	sp = &m->trace_spans[m->trace_nspans];
	sp->id = id;
	sp->owner = owner;
	snprintf(sp->label, sizeof(sp->label), "%s", label ? label : "");
	if (span_record(m, sp, true, NULL))
		m->trace_nspans++;
out:
	dmaemu__unlock(&m->trace_lock);
}

void dmaemu__trace_counter(struct dmaemu_machine *m, unsigned int ctr,
			   const char *name, const char *args)
{
	char line[512];
	struct rec r = {line, 0, sizeof(line)};
	uint64_t ts;

	if (ctr >= DMAEMU__TRACE_NCTRS ||
	    !dmaemu__tracing_json(m, DMAEMU__TRACE_DMA))
		return;
	ts = now(m);
	dmaemu__lock(&m->trace_lock);
	if (!strcmp(m->trace_ctr_last[ctr], args))
		goto out;
	snprintf(m->trace_ctr_last[ctr], sizeof(m->trace_ctr_last[0]), "%s",
		 args);
	name_self();
	rec_add(&r, "{\"name\":\"%s\",\"cat\":\"dma\",\"ph\":\"C\",", name);
	rec_ts(&r, ts);
	rec_add(&r, ",\"pid\":1,\"tid\":%u,\"args\":{%s}},\n", self.id, args);
	emit(m, &r, ts, true);
out:
	dmaemu__unlock(&m->trace_lock);
}

/*
 * End the JSON form's array, so that the file is strict JSON
 * (python3 -m json.tool reads it): every record ends with ",\n", so the
 * last one's comma gives way to the closing bracket.  A file that cannot
 * seek (a pipe) gets the bracket after the comma, which the trace-event
 * readers (Perfetto, chrome://tracing) take as they take a file with no
 * bracket at all.
 */
static void close_array(FILE *f)
{
	long end;

	fflush(f);
	end = ftell(f);
	if (end > 2 && !fseek(f, end - 2, SEEK_SET))
		fputs("\n]\n", f);
	else
		fputs("]\n", f);
}

void dmaemu__trace_fini(struct dmaemu_machine *m)
{
	struct dmaemu__trace_buf *b, *bn;
	struct drop_note *notes = NULL;
	size_t n = 0;

	__atomic_store_n(&m->trace_mask, 0, __ATOMIC_RELAXED);
	dmaemu__lock(&m->trace_lock);
	if (m->opt.trace_buffer)
		notes = flush_locked(m, &n);
	/* After the buffers: these are the last records. */
	close_spans(m, "machine destroyed");
	dmaemu__unlock(&m->trace_lock);
	write_notes(m, notes, n);
	for (b = m->trace_bufs; b; b = bn) {
		bn = b->next;
		pthread_mutex_destroy(&b->lock);
		dmaemu__free(b);
	}
	m->trace_bufs = NULL;
	dmaemu__free(m->trace_spans);
	m->trace_spans = NULL;
	if (m->trace_file) {
		if (m->opt.trace_json)
			close_array(m->trace_file);
		fclose(m->trace_file);
		m->trace_file = NULL;
	}
	pthread_mutex_destroy(&m->trace_lock);
}

/* ---------------------------------------------------------------------- */
/* Events                                                                 */
/* ---------------------------------------------------------------------- */

void dmaemu__trace(struct dmaemu_machine *m, unsigned int group,
		   const char *name, const char *fmt, ...)
{
	struct dmaemu_trace_event ev;
	dmaemu_trace_fn fn;
	char sargs[512], sline[1536], *args = sargs, *line = sline;
	struct rec r = {sline, 0, sizeof(sline)};
	va_list ap;
	void *arg;
	int n;

	if (!m || !(__atomic_load_n(&m->trace_mask, __ATOMIC_RELAXED) &
		    (1U << group)))
		return;
	name_self();
	va_start(ap, fmt);
	n = vsnprintf(sargs, sizeof(sargs), fmt, ap);
	va_end(ap);
	/* An event is never cut (a report's text can be long): the fields
	 * and the record go to the heap when the stack's buffers are short
	 * (JSON escapes a byte in at most six). */
	if (n >= (int)sizeof(sargs)) {
		args = dmaemu__malloc((size_t)n + 1);
		if (args) {
			va_start(ap, fmt);
			vsnprintf(args, (size_t)n + 1, fmt, ap);
			va_end(ap);
		} else {
			args = sargs;
		}
	}
	if (strlen(args) * 6 + 512 > sizeof(sline)) {
		line = dmaemu__malloc(strlen(args) * 6 + 512);
		if (line)
			r = (struct rec){line, 0, strlen(args) * 6 + 512};
		else
			line = sline;
	}
	ev.group = group_names[group];
	ev.name = name;
	ev.ts_ns = now(m);
	ev.thread = self.name;
	ev.ctx = self.ctx;
	ev.args = args;
	if (m->trace_file) {
		format_event(m, &ev, &r);
		emit(m, &r, ev.ts_ns, false);
	}
	__atomic_fetch_add(&m->trace_events, 1, __ATOMIC_RELAXED);
	fn = __atomic_load_n(&m->trace_fn, __ATOMIC_ACQUIRE);
	if (fn) {
		dmaemu__lock(&m->trace_lock);
		fn = m->trace_fn;
		arg = m->trace_arg;
		dmaemu__unlock(&m->trace_lock);
		if (fn)
			fn(m, &ev, arg);
	}
	if (args != sargs)
		dmaemu__free(args);
	if (line != sline)
		dmaemu__free(line);
}

/*
 * Tracing changes to @mask: when the dma group goes, the buffers are
 * flushed and the open spans end after their records.
 */
static void set_mask(struct dmaemu_machine *m, unsigned int mask)
{
	__atomic_store_n(&m->trace_mask, mask, __ATOMIC_RELAXED);
	if (mask & (1U << DMAEMU__TRACE_DMA))
		return;
	dmaemu__trace_flush(m);
	dmaemu__lock(&m->trace_lock);
	close_spans(m, "tracing stopped");
	dmaemu__unlock(&m->trace_lock);
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
				"default, none or a comma list of alloc, dma, "
				"device, mmio, irq, report, cache",
				events);
		return -EINVAL;
	}
	set_mask(m, mask);
	return 0;
}

void dmaemu_trace_stop(struct dmaemu_machine *m)
{
	if (dmaemu__machine_bad(m, "dmaemu_trace_stop"))
		return;
	if (!m)
		return;
	set_mask(m, 0); /* flushes */
}

void dmaemu_trace_set_callback(struct dmaemu_machine *m, dmaemu_trace_fn fn,
			       void *arg)
{
	if (dmaemu__machine_bad(m, "dmaemu_trace_set_callback"))
		return;
	if (!m)
		return;
	dmaemu__lock(&m->trace_lock);
	m->trace_arg = arg;
	__atomic_store_n(&m->trace_fn, fn, __ATOMIC_RELEASE);
	dmaemu__unlock(&m->trace_lock);
}
