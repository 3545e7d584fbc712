// SPDX-License-Identifier: MIT
/*
 * report-query.c - the last reports of a machine, kept for tests to query,
 * and the report callback.
 *
 * How it works.  dmaemu__vreport() prints and counts a report, then hands
 * it here (dmaemu__report_record()) with its text as printed.  The report
 * is copied into a struct dmaemu_report of its own (an entry), numbered
 * and pushed on a ring of the last report_keep entries under report_lock;
 * when the ring is full the oldest entry is dropped and counted:
 *
 *   ring: [ e7 | e8 | e3 | e4 | e5 | e6 ]    keep 6, 8 made, 2 dropped
 *                 ^head (next slot)   ^oldest is at head when full
 *
 * The callback is read under the same lock and called after it is
 * released, with a reference on the entry, so that a clear or a drop on
 * another thread cannot free it while the callback reads it.  An entry is
 * freed when it leaves the ring and no callback holds it.  A count of
 * running callbacks and a condition variable let
 * dmaemu_report_set_callback() wait until the old callback has returned.
 *
 * Memory: nothing until the first report or callback; then the ring's
 * report_keep pointers, and one entry (about 4.5 KiB) per report held.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "core/core.h"

/* One recorded report; ->refs counts the ring and running callbacks. */
struct entry {
	struct dmaemu_report r;
	unsigned int refs;
};

/*
 * The recorded reports of a machine (m->report_rec), made on first use.
 * Everything is protected by m->report_lock.
 */
struct dmaemu__report_rec {
	struct entry **ring;  /* keep slots; NULL until the first report */
	unsigned int keep;    /* slots (the report_keep option) */
	unsigned int head;    /* the next slot to fill */
	unsigned int count;   /* entries held, <= keep */
	dmaemu_report_fn fn;  /* the callback, or NULL */
	void *arg;	      /* its argument */
	unsigned int running; /* callbacks running now, on any thread */
	pthread_cond_t idle;  /* signalled when running drops to 0 */
};

/* The machine whose callback this thread is running, or NULL: a report
 * made inside a callback is not handed to it again, and setting the
 * callback from inside one does not wait for itself. */
static __thread struct dmaemu_machine *in_callback
	__attribute__((tls_model("initial-exec")));

/* The record of @m, made if needed.  report_lock held.  NULL when out of
 * memory. */
static struct dmaemu__report_rec *rec_get(struct dmaemu_machine *m)
{
	struct dmaemu__report_rec *rc = m->report_rec;

	if (rc)
		return rc;
	rc = dmaemu__calloc(1, sizeof(*rc));
	if (!rc)
		return NULL;
	if (pthread_cond_init(&rc->idle, NULL)) {
		dmaemu__free(rc);
		return NULL;
	}
	rc->keep = m->opt.report_keep;
	m->report_rec = rc;
	return rc;
}

/* Drop one reference on @e; free it when it was the last.  report_lock
 * held. */
static void entry_put(struct entry *e)
{
	if (--e->refs == 0)
		dmaemu__free(e);
}

/* The @i-th entry from the oldest.  report_lock held, @i < rc->count. */
static struct entry *ring_at(const struct dmaemu__report_rec *rc,
			     unsigned int i)
{
	return rc->ring[(rc->head + rc->keep - rc->count + i) % rc->keep];
}

/* Put @e on the ring (taking a reference), dropping the oldest entry if
 * full.  report_lock held.  False if @e could not be held. */
static bool ring_push(struct dmaemu_machine *m, struct dmaemu__report_rec *rc,
		      struct entry *e)
{
	if (!rc->keep)
		return false;
	if (!rc->ring) {
		rc->ring = dmaemu__calloc(rc->keep, sizeof(*rc->ring));
		if (!rc->ring)
			return false;
	}
	if (rc->count == rc->keep) {
		entry_put(rc->ring[rc->head]);
		m->report_dropped++;
		rc->count--;
	}
	e->refs++;
	rc->ring[rc->head] = e;
	rc->head = (rc->head + 1) % rc->keep;
	rc->count++;
	return true;
}

/* Copy at most @size - 1 bytes of @s (NULL: none) and a NUL. */
static void copy_str(char *dst, size_t size, const char *s, size_t len)
{
	if (!s)
		len = 0;
	if (len > size - 1)
		len = size - 1;
	memcpy(dst, s ? s : "", len);
	dst[len] = '\0';
}

/* Fill @out from @r and the printed @text. */
static void fill(struct dmaemu_report *out, const struct dmaemu__report_info *r,
		 const char *text, size_t len, const char *where)
{
	unsigned int bits = r->mask ? r->mask_bits : 0, i;

	memset(out, 0, sizeof(*out)); /* all defined: callers may compare */
	out->kind = r->kind;
	out->kind_name = dmaemu_report_kind_name(r->kind);
	out->severity = r->note ? DMAEMU_SEVERITY_NOTE : DMAEMU_SEVERITY_ERROR;
	copy_str(out->device, sizeof(out->device), r->device,
		 r->device ? strlen(r->device) : 0);
	out->phys = r->phys;
	out->size = r->size;
	if (bits > DMAEMU_REPORT_MASK_WORDS * 64)
		bits = 0; /* no line is larger; the mask is not one */
	out->mask_bits = bits;
	for (i = 0; i < (bits + 63) / 64; i++)
		out->mask[i] = r->mask[i];
	copy_str(out->where, sizeof(out->where), where,
		 where ? strlen(where) : 0);
	copy_str(out->text, sizeof(out->text), text, len);
	copy_str(out->made_at, sizeof(out->made_at), r->made_at,
		 r->made_at ? strlen(r->made_at) : 0);
	if (r->last_device) {
		copy_str(out->last_device, sizeof(out->last_device),
			 r->last_device, strlen(r->last_device));
		out->last_dma = r->last_dma;
		out->last_size = r->last_size;
		out->last_write = r->last_write;
	}
}

/**
 * dmaemu__report_record() - record a finished report, then run the
 * callback.
 * @m:     the machine that made it.
 * @r:     its facts.
 * @text:  the report as printed (NULL when it could not be formatted).
 * @len:   bytes of @text.
 * @where: the "at" text as printed, or NULL.
 *
 * Called by dmaemu__vreport() with report_lock released; other locks of
 * the machine may be held (see the lock order in core.h).
 */
void dmaemu__report_record(struct dmaemu_machine *m,
			   const struct dmaemu__report_info *r,
			   const char *text, size_t len, const char *where)
{
	struct dmaemu__report_rec *rc;
	dmaemu_report_fn fn = NULL;
	struct entry *e;
	void *arg = NULL;

	e = dmaemu__malloc(sizeof(*e));
	if (e) {
		fill(&e->r, r, text, len, where);
		e->refs = 1; /* ours, until the callback has run */
	}

	dmaemu__lock(&m->report_lock);
	m->report_seq++;
	rc = rec_get(m);
	if (e) {
		e->r.seq = m->report_seq;
		if (!rc || !ring_push(m, rc, e))
			m->report_dropped++;
	} else {
		m->report_dropped++;
	}
	if (rc && rc->fn && e && in_callback != m) {
		fn = rc->fn;
		arg = rc->arg;
		rc->running++;
	}
	dmaemu__unlock(&m->report_lock);

	if (fn) {
		struct dmaemu_machine *outer = in_callback;

		in_callback = m;
		fn(m, &e->r, arg);
		in_callback = outer;
	}

	dmaemu__lock(&m->report_lock);
	if (fn && --rc->running == 0)
		pthread_cond_broadcast(&rc->idle);
	if (e)
		entry_put(e);
	dmaemu__unlock(&m->report_lock);
}

/**
 * dmaemu__report_rec_fini() - free the recorded reports of @m.  The
 * machine's threads are gone: no callback runs any more.
 */
void dmaemu__report_rec_fini(struct dmaemu_machine *m)
{
	struct dmaemu__report_rec *rc = m->report_rec;
	unsigned int i;

	if (!rc)
		return;
	for (i = 0; i < rc->count; i++)
		entry_put(ring_at(rc, i));
	dmaemu__free(rc->ring);
	pthread_cond_destroy(&rc->idle);
	dmaemu__free(rc);
	m->report_rec = NULL;
}

/* ---------------------------------------------------------------------- */
/* Public calls                                                           */
/* ---------------------------------------------------------------------- */

int dmaemu_report_set_callback(struct dmaemu_machine *m, dmaemu_report_fn fn,
			       void *arg)
{
	struct dmaemu__report_rec *rc;

	if (dmaemu__machine_bad(m, "dmaemu_report_set_callback"))
		return -EINVAL;
	if (!m) {
		dmaemu__reportf(NULL, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"dmaemu_report_set_callback(NULL machine)");
		return -EINVAL;
	}
	dmaemu__lock(&m->report_lock);
	rc = rec_get(m);
	if (!rc) {
		dmaemu__unlock(&m->report_lock);
		return -ENOMEM;
	}
	rc->fn = fn;
	rc->arg = arg;
	/* A callback started before is still running elsewhere: wait, unless
	 * it is this thread's (it would never return). */
	while (rc->running && in_callback != m)
		pthread_cond_wait(&rc->idle, &m->report_lock);
	dmaemu__unlock(&m->report_lock);
	return 0;
}

unsigned int dmaemu_report_kept(struct dmaemu_machine *m)
{
	unsigned int n = 0;

	if (dmaemu__machine_bad(m, "dmaemu_report_kept"))
		return 0;
	if (!m)
		return 0;
	dmaemu__lock(&m->report_lock);
	if (m->report_rec)
		n = m->report_rec->count;
	dmaemu__unlock(&m->report_lock);
	return n;
}

uint64_t dmaemu_report_dropped(struct dmaemu_machine *m)
{
	uint64_t n;

	if (dmaemu__machine_bad(m, "dmaemu_report_dropped"))
		return 0;
	if (!m)
		return 0;
	dmaemu__lock(&m->report_lock);
	n = m->report_dropped;
	dmaemu__unlock(&m->report_lock);
	return n;
}

/* A bad-argument report for a NULL argument of @fn. */
static int bad_null(const char *fn, const char *what)
{
	dmaemu__reportf(NULL, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0, "%s(NULL %s)",
			fn, what);
	return -EINVAL;
}

int dmaemu_report_get(struct dmaemu_machine *m, unsigned int i,
		      struct dmaemu_report *out)
{
	struct dmaemu__report_rec *rc;
	int ret = -ENOENT;

	if (dmaemu__machine_bad(m, "dmaemu_report_get"))
		return -EINVAL;
	if (!m)
		return bad_null("dmaemu_report_get", "machine");
	if (!out) {
		dmaemu__reportf(m, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"dmaemu_report_get(NULL out)");
		return -EINVAL;
	}
	dmaemu__lock(&m->report_lock);
	rc = m->report_rec;
	if (rc && i < rc->count) {
		*out = ring_at(rc, i)->r;
		ret = 0;
	}
	dmaemu__unlock(&m->report_lock);
	return ret;
}

int dmaemu_report_next(struct dmaemu_machine *m, uint64_t after,
		       struct dmaemu_report *out)
{
	struct dmaemu__report_rec *rc;
	unsigned int i;
	int ret = -ENOENT;

	if (dmaemu__machine_bad(m, "dmaemu_report_next"))
		return -EINVAL;
	if (!m)
		return bad_null("dmaemu_report_next", "machine");
	if (!out) {
		dmaemu__reportf(m, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"dmaemu_report_next(NULL out)");
		return -EINVAL;
	}
	dmaemu__lock(&m->report_lock);
	rc = m->report_rec;
	/* Sequence numbers grow from the oldest entry to the newest. */
	for (i = 0; rc && i < rc->count; i++) {
		const struct entry *e = ring_at(rc, i);

		if (e->r.seq > after) {
			*out = e->r;
			ret = 0;
			break;
		}
	}
	dmaemu__unlock(&m->report_lock);
	return ret;
}

void dmaemu_report_clear(struct dmaemu_machine *m)
{
	struct dmaemu__report_rec *rc;
	unsigned int i;

	if (dmaemu__machine_bad(m, "dmaemu_report_clear"))
		return;
	if (!m)
		return;
	dmaemu__lock(&m->report_lock);
	rc = m->report_rec;
	if (rc) {
		for (i = 0; i < rc->count; i++)
			entry_put(ring_at(rc, i));
		rc->count = 0;
		rc->head = 0;
	}
	m->report_dropped = 0;
	dmaemu__report_counters_zero(m);
	dmaemu__unlock(&m->report_lock);
}
