// SPDX-License-Identifier: MIT
/*
 * sched.c - the lockstep scheduler (sched=lockstep): the threads of a
 * machine run one at a time, and the machine's seed chooses which one
 * runs at every scheduling point.
 *
 * How it works.  Each thread that runs in the machine is a context
 * (struct dmaemu__sctx): the thread that created the machine (context 0),
 * the device threads, the interrupt thread and threaded handlers (made by
 * the thread that starts them, so their order is the program's), and any
 * other thread that joins at its first scheduling point.  Exactly one
 * context holds the turn (s->running); the others sleep on their own
 * condition variable until they are given it:
 *
 *   point (MMIO, DMA, irq delivery, device run, lock)
 *        the holder stays runnable; pick() draws the next holder among
 *        the runnable contexts (itself included) from the seeded PRNG
 *   wait (completion, wait queue, lock contention, sleep, device idle)
 *        the holder blocks on a key (the address of what it waits on)
 *        with an optional deadline in emulated time, and pick() runs
 *   wake (complete, wake_up, unlock, doorbell, raise, ...)
 *        every context blocked on the key becomes runnable; nothing
 *        switches until the waker's next point or wait
 *
 *   pick():  1. contexts whose deadline passed become runnable (timeout)
 *            2. runnable ones: draw one
 *            3. none, a deadline somewhere: emulated time jumps to the
 *               nearest one, back to 1
 *            4. none, no deadline, some wait that is not an idle wait
 *               (a device or the interrupt thread waiting for work):
 *               deadlock: those waits return -EDEADLK (the first to
 *               resume makes a lockstep-deadlock report), back to 2
 *            5. else nobody runs until a wake from outside
 *
 *   An untimed wait that is not an idle wait also has a hang deadline
 *   (@hang_at): hang_timeout_ms of the time the busy clock moves (the
 *   steps of busy_step(), s->busy_ns), not of the jumps of step 3, so
 *   that neither a deadlock (still step 4) nor a long timer elsewhere
 *   ends it; past it, the wait ends with a hung-wait report (a context
 *   always runnable keeps the machine from ever deadlocking, and the
 *   wait would never end).
 *
 * Emulated time of a lockstep machine is s->now: it jumps at step 3,
 * and it also moves while contexts stay busy: every scheduling point
 * (and every wait that is over as it starts) past the first BUSY_FREE
 * since the machine last had nobody runnable costs sched_step_ns, never
 * past the nearest deadline (busy_step()).  Hardware does not stop its
 * clock while a CPU spins or a device works back to back; without this
 * a context that is always runnable (an interrupt storm, a device timer
 * re-armed with delay 0) would freeze every timer of the machine.  The
 * same program with the same seed still sees the same times.
 *
 * The contexts of a thread are found through a small thread-local table
 * of (scheduler id, context): scheduler ids are never reused, so an entry
 * of a destroyed machine never matches.  Wakes come from any layer and
 * do not know the machine: they go through the list of live schedulers.
 *
 * Locks: reg_lock, then a scheduler's s->lock; both are leaves (wakes are
 * made with bucket, device-thread and interrupt-controller locks held).
 * Waits and points are entered with no lock of the library held.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <dmaemu/sched.h>

#include "mm/mm.h"

#define TLS_SLOTS 8
/* Points of a busy stretch that cost no time: a driver's short exchange
 * with a device between two waits keeps exact times. */
#define BUSY_FREE 1000
/* c->result of a wait whose hang deadline passed (never returned). */
#define HUNG (-ETIME)

enum ctx_state { CTX_RUNNABLE, CTX_BLOCKED, CTX_DONE };

/**
 * struct dmaemu__sctx - a context.  Fields under s->lock but @s, @id,
 * @name (immutable).
 * @cond:     the thread sleeps here until it holds the turn.
 * @key:      what a blocked context waits on.
 * @deadline: emulated ns when its wait times out (DMAEMU__SCHED_NONE).
 * @idle:     the wait is a wait for work: not part of a deadlock.
 * @result:   how the last wait ended (0, -ETIMEDOUT, -EDEADLK).
 * @what:     the last wait, for the deadlock report.
 * @hang_at:  s->busy_ns at which an untimed wait is hung
 *            (DMAEMU__SCHED_NONE: never).
 * @since:    when the wait began.
 */
struct dmaemu__sctx {
	struct dmaemu__sched *s;
	unsigned int id;
	char name[40];
	pthread_cond_t cond;
	enum ctx_state state;
	const void *key;
	uint64_t deadline;
	bool idle;
	int result;
	const char *what;
	uint64_t hang_at, since;
	struct dmaemu__sctx *next;
};

/**
 * struct dmaemu__sched - a machine's scheduler.
 * @id:       process-unique, never reused.
 * @lock:     everything below (a leaf).
 * @ctx:      the contexts, in the order they were made.
 * @running:  the context holding the turn, or NULL.
 * @rng:      xorshift64* state, from the seed.
 * @now:      emulated time, ns (written under @lock, read atomically).
 * @points:   scheduling points so far; @hash: their fingerprint.
 * @busy:     points since pick() last found nobody runnable.
 * @step:     emulated ns a busy point costs (sched_step_ns).
 * @busy_ns:  emulated ns the busy steps moved the clock, in all.
 * @report:   a deadlock to report by the first waiter that resumes.
 */
struct dmaemu__sched {
	struct dmaemu_machine *m;
	uint64_t id;
	pthread_mutex_t lock;
	struct dmaemu__sctx *ctx;
	struct dmaemu__sctx *running;
	unsigned int nctx;
	uint64_t rng;
	uint64_t now;
	uint64_t points, hash;
	uint64_t busy;
	uint64_t step;
	uint64_t busy_ns;
	uint64_t hang_ns; /* hang_timeout_ms, in ns (0: off) */
	bool report;
	char blocked[256];
	dmaemu_sched_trace_fn trace;
	void *trace_arg;
	struct dmaemu__sched *reg_next;
};

static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static struct dmaemu__sched *reg_head; /* reg_lock */
static uint64_t reg_ids;	       /* reg_lock */
static unsigned int reg_live;	       /* atomic: the fast path */

static _Thread_local struct {
	uint64_t sid;
	struct dmaemu__sctx *c;
} tls[TLS_SLOTS];
/* A thread the library started for a machine in sched=threads: it never
 * joins another machine's lockstep by itself. */
static _Thread_local bool no_join;

/* ---------------------------------------------------------------------- */
/* Contexts of this thread                                                */
/* ---------------------------------------------------------------------- */

static struct dmaemu__sctx *ctx_of(const struct dmaemu__sched *s)
{
	unsigned int i;

	for (i = 0; i < TLS_SLOTS; i++)
		if (tls[i].c && tls[i].sid == s->id)
			return tls[i].c;
	return NULL;
}

static bool sched_live(uint64_t sid)
{
	const struct dmaemu__sched *s;
	bool live = false;

	dmaemu__lock(&reg_lock);
	for (s = reg_head; s && !live; s = s->reg_next)
		live = s->id == sid;
	dmaemu__unlock(&reg_lock);
	return live;
}

/* Remember @c as this thread's context of its scheduler. */
static bool tls_add(struct dmaemu__sctx *c)
{
	unsigned int i;

	for (i = 0; i < TLS_SLOTS; i++)
		if (!tls[i].c || !sched_live(tls[i].sid))
			break;
	if (i == TLS_SLOTS)
		return false;
	tls[i].sid = c->s->id;
	tls[i].c = c;
	return true;
}

static void tls_del(const struct dmaemu__sctx *c)
{
	unsigned int i;

	for (i = 0; i < TLS_SLOTS; i++)
		if (tls[i].c == c)
			tls[i].c = NULL;
}

static struct dmaemu__sched *sched_of(struct dmaemu_machine *m)
{
	if (!__atomic_load_n(&reg_live, __ATOMIC_ACQUIRE))
		return NULL;
	if (!m)
		m = dmaemu_machine_current();
	return m ? m->sched : NULL;
}

/* ---------------------------------------------------------------------- */
/* Choosing who runs (s->lock held)                                       */
/* ---------------------------------------------------------------------- */

static uint64_t next_rand(struct dmaemu__sched *s)
{
	s->rng ^= s->rng >> 12;
	s->rng ^= s->rng << 25;
	s->rng ^= s->rng >> 27;
	return s->rng * 0x2545f4914f6cdd1dULL;
}

static void make_runnable(struct dmaemu__sctx *c, int result)
{
	c->state = CTX_RUNNABLE;
	c->result = result;
	c->key = NULL;
}

/* Mark the waits of the deadlock and describe them in s->blocked. */
static void break_deadlock(struct dmaemu__sched *s)
{
	struct dmaemu__sctx *c;
	size_t n = 0;

	s->blocked[0] = '\0';
	for (c = s->ctx; c; c = c->next) {
		if (c->state != CTX_BLOCKED || c->idle)
			continue;
		if (n < sizeof(s->blocked))
			n += (size_t)snprintf(
				s->blocked + n, sizeof(s->blocked) - n,
				"%s%s in %s", n ? ", " : "", c->name, c->what);
		make_runnable(c, -EDEADLK);
	}
	s->report = true;
}

/* The next holder of the turn (steps 1-5 of the comment at the top). */
static struct dmaemu__sctx *pick(struct dmaemu__sched *s)
{
	struct dmaemu__sctx *c;
	uint64_t dl, r;
	unsigned int n;
	bool stuck;

	for (;;) {
		n = 0;
		dl = DMAEMU__SCHED_NONE;
		stuck = false;
		for (c = s->ctx; c; c = c->next) {
			if (c->state == CTX_BLOCKED && c->deadline <= s->now)
				make_runnable(c, -ETIMEDOUT);
			else if (c->state == CTX_BLOCKED &&
				 c->hang_at <= s->busy_ns)
				make_runnable(c, HUNG);
			if (c->state == CTX_RUNNABLE) {
				n++;
			} else if (c->state == CTX_BLOCKED) {
				if (c->deadline < dl)
					dl = c->deadline;
				stuck |= !c->idle;
			}
		}
		if (n) {
			r = next_rand(s) % n;
			for (c = s->ctx; c; c = c->next)
				if (c->state == CTX_RUNNABLE && !r--)
					return c;
		}
		s->busy = 0; /* nobody runnable: the stretch ends */
		if (dl != DMAEMU__SCHED_NONE) {
			__atomic_store_n(&s->now, dl, __ATOMIC_RELAXED);
			continue;
		}
		if (!stuck)
			return NULL;
		break_deadlock(s);
	}
}

/* Describe, for a hung-wait report of @me, what the others do. */
static void list_contexts(const struct dmaemu__sched *s,
			  const struct dmaemu__sctx *me, char *buf, size_t len)
{
	const struct dmaemu__sctx *c;
	size_t n = 0;

	buf[0] = '\0';
	for (c = s->ctx; c && n < len; c = c->next) {
		if (c == me || c->state == CTX_DONE)
			continue;
		if (c->state == CTX_RUNNABLE)
			n += (size_t)snprintf(buf + n, len - n, "%s%s runnable",
					      n ? ", " : "", c->name);
		else
			n += (size_t)snprintf(buf + n, len - n, "%s%s in %s",
					      n ? ", " : "", c->name, c->what);
	}
}

/*
 * One more point of a busy stretch: past BUSY_FREE of them, it moves the
 * clock by s->step, up to the nearest deadline (a timer fires at its
 * time, not a step late).
 */
static void busy_step(struct dmaemu__sched *s)
{
	const struct dmaemu__sctx *c;
	uint64_t now = s->now, dl = DMAEMU__SCHED_NONE, to;

	if (++s->busy <= BUSY_FREE || !s->step)
		return;
	for (c = s->ctx; c; c = c->next)
		if (c->state == CTX_BLOCKED && c->deadline < dl)
			dl = c->deadline;
	to = now + s->step < now ? DMAEMU__SCHED_NONE - 1 : now + s->step;
	if (dl != DMAEMU__SCHED_NONE && dl > now && dl < to)
		to = dl;
	if (dl != DMAEMU__SCHED_NONE && dl <= now)
		to = now; /* due already: pick() wakes it */
	s->busy_ns += to - now;
	__atomic_store_n(&s->now, to, __ATOMIC_RELAXED);
}

/* Give the turn to the next holder (@me gives it up). */
static void run_next(struct dmaemu__sched *s, struct dmaemu__sctx *me)
{
	struct dmaemu__sctx *n = pick(s);

	s->running = n;
	if (n && n != me)
		pthread_cond_signal(&n->cond);
}

static void wait_turn(struct dmaemu__sched *s, struct dmaemu__sctx *me)
{
	while (s->running != me)
		pthread_cond_wait(&me->cond, &s->lock);
}

/* Count a point of @c into the fingerprint.  Return: the trace hook. */
static dmaemu_sched_trace_fn note(struct dmaemu__sched *s,
				  const struct dmaemu__sctx *c,
				  const char *what)
{
	uint64_t h = 0xcbf29ce484222325ULL ^ c->id;
	const char *p;

	for (p = what; *p; p++)
		h = (h ^ (unsigned char)*p) * 0x100000001b3ULL;
	s->hash = (s->hash ^ h) * 0x9e3779b97f4a7c15ULL + s->points;
	s->points++;
	return s->trace;
}

/* Call the trace hook, if any, for @c at @what (s->lock held on entry
 * and on return, dropped around the call). */
static void trace(struct dmaemu__sched *s, const struct dmaemu__sctx *c,
		  const char *what)
{
	dmaemu_sched_trace_fn fn = note(s, c, what);
	void *arg = s->trace_arg;

	if (!fn)
		return;
	dmaemu__unlock(&s->lock);
	fn(arg, c->id, c->name, what);
	dmaemu__lock(&s->lock);
}

/* Wake the contexts blocked on @key; start one if nobody runs. */
static void wake_locked(struct dmaemu__sched *s, const void *key)
{
	struct dmaemu__sctx *c;
	bool any = false;

	for (c = s->ctx; c; c = c->next) {
		if (c->state == CTX_BLOCKED && c->key == key) {
			make_runnable(c, 0);
			any = true;
		}
	}
	if (any && !s->running)
		run_next(s, NULL);
}

/* ---------------------------------------------------------------------- */
/* Contexts                                                               */
/* ---------------------------------------------------------------------- */

static struct dmaemu__sctx *ctx_new(struct dmaemu__sched *s, const char *name)
{
	struct dmaemu__sctx *c = dmaemu__calloc(1, sizeof(*c));
	struct dmaemu__sctx **pp;

	if (!c)
		return NULL;
	if (pthread_cond_init(&c->cond, NULL)) {
		dmaemu__free(c);
		return NULL;
	}
	c->s = s;
	c->state = CTX_RUNNABLE;
	c->deadline = DMAEMU__SCHED_NONE;
	c->hang_at = DMAEMU__SCHED_NONE;
	c->what = "";
	dmaemu__lock(&s->lock);
	c->id = s->nctx++;
	if (name)
		snprintf(c->name, sizeof(c->name), "%s", name);
	else
		snprintf(c->name, sizeof(c->name), "thread%u", c->id);
	for (pp = &s->ctx; *pp; pp = &(*pp)->next)
		;
	*pp = c;
	dmaemu__unlock(&s->lock);
	return c;
}

static void ctx_free(struct dmaemu__sctx *c)
{
	pthread_cond_destroy(&c->cond);
	dmaemu__free(c);
}

bool dmaemu__sched_on(void)
{
	return __atomic_load_n(&reg_live, __ATOMIC_ACQUIRE) != 0;
}

/*
 * The calling thread's context for a call that names no machine (a lock,
 * a wait, a sleep, the time): of the current machine if it has one there,
 * else of the machine it is a context of (an interrupt thread running a
 * handler while another machine is current).
 */
static struct dmaemu__sctx *ctx_any(struct dmaemu__sched *cur)
{
	struct dmaemu__sctx *c = cur ? ctx_of(cur) : NULL;
	unsigned int i;

	for (i = 0; !c && i < TLS_SLOTS; i++)
		if (tls[i].c && sched_live(tls[i].sid))
			c = tls[i].c;
	return c;
}

struct dmaemu__sctx *dmaemu__sched_self(struct dmaemu_machine *m)
{
	struct dmaemu__sched *s = sched_of(m);

	if (!__atomic_load_n(&reg_live, __ATOMIC_ACQUIRE))
		return NULL;
	if (!m)
		return ctx_any(s);
	return s ? ctx_of(s) : NULL;
}

/*
 * A thread that joined by itself leaves when it ends: its contexts exit
 * (a thread key's destructor), so the turn it may hold moves on.
 */
static pthread_key_t leave_key;
static pthread_once_t leave_once = PTHREAD_ONCE_INIT;

static void leave_all(void *unused)
{
	unsigned int i;

	(void)unused;
	for (i = 0; i < TLS_SLOTS; i++)
		if (tls[i].c && sched_live(tls[i].sid))
			dmaemu__sched_exit(tls[i].c);
}

static void leave_init(void)
{
	if (pthread_key_create(&leave_key, leave_all))
		abort();
}

struct dmaemu__sctx *dmaemu__sched_enter(struct dmaemu_machine *m)
{
	struct dmaemu__sched *s = sched_of(m);
	struct dmaemu__sctx *c;

	if (!__atomic_load_n(&reg_live, __ATOMIC_ACQUIRE))
		return NULL;
	c = m ? (s ? ctx_of(s) : NULL) : ctx_any(s);
	if (c || no_join || !s)
		return c;
	c = ctx_new(s, NULL);
	if (!c)
		return NULL; /* no memory: this thread runs free */
	if (!tls_add(c)) {
		dmaemu__sched_forget(c);
		return NULL;
	}
	pthread_once(&leave_once, leave_init);
	(void)pthread_setspecific(leave_key, c);
	dmaemu__lock(&s->lock);
	if (!s->running)
		s->running = c;
	wait_turn(s, c);
	dmaemu__unlock(&s->lock);
	return c;
}

struct dmaemu__sctx *dmaemu__sched_spawn(struct dmaemu_machine *m,
					 const char *name)
{
	struct dmaemu__sched *s = m ? m->sched : NULL;
	struct dmaemu__sctx *c;

	if (!s)
		return NULL;
	c = ctx_new(s, name);
	if (!c)
		return NULL;
	dmaemu__lock(&s->lock);
	if (!s->running)
		run_next(s, NULL);
	dmaemu__unlock(&s->lock);
	return c;
}

void dmaemu__sched_start(struct dmaemu__sctx *c)
{
	no_join = true;
	if (!c)
		return;
	if (!tls_add(c))
		abort(); /* a new thread has every slot free */
	dmaemu__lock(&c->s->lock);
	wait_turn(c->s, c);
	dmaemu__unlock(&c->s->lock);
}

void dmaemu__sched_exit(struct dmaemu__sctx *c)
{
	struct dmaemu__sched *s;

	if (!c)
		return;
	s = c->s;
	dmaemu__lock(&s->lock);
	trace(s, c, "exit");
	c->state = CTX_DONE;
	wake_locked(s, c);
	if (s->running == c)
		run_next(s, c);
	dmaemu__unlock(&s->lock);
	tls_del(c);
}

void dmaemu__sched_detach(struct dmaemu__sctx *c)
{
	dmaemu__sched_exit(c);
}

void dmaemu__sched_join(struct dmaemu__sctx *c)
{
	struct dmaemu__sctx *me;
	bool done;

	if (!c)
		return;
	me = ctx_of(c->s);
	if (!me)
		return;
	for (;;) {
		dmaemu__lock(&c->s->lock);
		done = c->state == CTX_DONE;
		dmaemu__unlock(&c->s->lock);
		if (done || dmaemu__sched_wait(me, c, DMAEMU__SCHED_NONE,
					       DMAEMU__SCHED_KEEP,
					       "thread exit") == -EDEADLK)
			return;
	}
}

int dmaemu__sched_thread_start(struct dmaemu_machine *m, const char *name,
			       pthread_t *tid, void *(*fn)(void *), void *arg,
			       struct dmaemu__sctx **sctx)
{
	int ret;

	*sctx = NULL;
	if (m->sched) {
		*sctx = dmaemu__sched_spawn(m, name);
		if (!*sctx)
			return ENOMEM;
	}
	ret = dmaemu__pthread_create(tid, NULL, fn, arg);
	if (ret) {
		dmaemu__sched_forget(*sctx);
		*sctx = NULL;
	}
	return ret;
}

void dmaemu__sched_thread_join(pthread_t tid, struct dmaemu__sctx **sctx)
{
	dmaemu__sched_join(*sctx);
	pthread_join(tid, NULL);
	dmaemu__sched_forget(*sctx);
	*sctx = NULL;
}

void dmaemu__sched_forget(struct dmaemu__sctx *c)
{
	struct dmaemu__sched *s;
	struct dmaemu__sctx **pp;

	if (!c)
		return;
	s = c->s;
	dmaemu__lock(&s->lock);
	for (pp = &s->ctx; *pp && *pp != c; pp = &(*pp)->next)
		;
	if (*pp)
		*pp = c->next;
	if (s->running == c)
		run_next(s, NULL);
	dmaemu__unlock(&s->lock);
	ctx_free(c);
}

/* ---------------------------------------------------------------------- */
/* Points, waits, wakes, time                                             */
/* ---------------------------------------------------------------------- */

void dmaemu__sched_point(struct dmaemu_machine *m, const char *what)
{
	struct dmaemu__sctx *c = dmaemu__sched_enter(m);
	struct dmaemu__sched *s;

	if (!c)
		return;
	s = c->s;
	dmaemu__lock(&s->lock);
	trace(s, c, what);
	busy_step(s);
	run_next(s, c);
	wait_turn(s, c);
	dmaemu__unlock(&s->lock);
}

int dmaemu__sched_wait(struct dmaemu__sctx *c, const void *key,
		       uint64_t deadline, unsigned int flags, const char *what)
{
	struct dmaemu__sched *s = c->s;
	char blocked[sizeof(s->blocked)];
	uint64_t waited;
	bool report, hung;
	int ret;

	dmaemu__lock(&s->lock);
	trace(s, c, what);
	if (deadline <= s->now)
		busy_step(s); /* over as it starts: busy, not waiting */
	c->since = s->now;
again:
	c->state = CTX_BLOCKED;
	c->key = key;
	c->deadline = deadline;
	c->idle = flags & DMAEMU__SCHED_IDLE;
	c->what = what;
	if (deadline == DMAEMU__SCHED_NONE && !c->idle && s->hang_ns)
		c->hang_at = s->busy_ns + s->hang_ns < s->busy_ns
				     ? DMAEMU__SCHED_NONE - 1
				     : s->busy_ns + s->hang_ns;
	run_next(s, c);
	wait_turn(s, c);
	ret = c->result;
	c->deadline = DMAEMU__SCHED_NONE;
	c->hang_at = DMAEMU__SCHED_NONE;
	hung = ret == HUNG;
	if (hung) {
		waited = s->now - c->since;
		list_contexts(s, c, blocked, sizeof(blocked));
		dmaemu__unlock(&s->lock);
		dmaemu__reportf(
			s->m, DMAEMU_REPORT_HUNG_WAIT, 0, 0,
			"hung wait: %s waited %llu ms of emulated time in %s "
			"(hang_timeout_ms=%u) while the machine stayed busy "
			"(%s); %s",
			c->name, (unsigned long long)(waited / 1000000), what,
			s->m->opt.hang_timeout_ms, blocked,
			flags & DMAEMU__SCHED_KEEP
				? "the wait has no error path and goes on"
				: "the wait returns as if it had timed out");
		dmaemu__lock(&s->lock);
		if (flags & DMAEMU__SCHED_KEEP)
			goto again;
		ret = -EDEADLK;
	}
	report = !hung && ret == -EDEADLK && s->report;
	if (report) {
		s->report = false;
		memcpy(blocked, s->blocked, sizeof(blocked));
	}
	dmaemu__unlock(&s->lock);
	if (report)
		dmaemu__reportf(
			s->m, DMAEMU_REPORT_LOCKSTEP_DEADLOCK, 0, 0,
			"lockstep deadlock: every context of the machine "
			"is blocked and no timer is armed (%s); the "
			"waits return their timeout or error",
			blocked);
	return ret;
}

void dmaemu__sched_wake(const void *key)
{
	struct dmaemu__sched *s;

	if (!__atomic_load_n(&reg_live, __ATOMIC_ACQUIRE))
		return;
	dmaemu__lock(&reg_lock);
	for (s = reg_head; s; s = s->reg_next) {
		dmaemu__lock(&s->lock);
		wake_locked(s, key);
		dmaemu__unlock(&s->lock);
	}
	dmaemu__unlock(&reg_lock);
}

uint64_t dmaemu__sched_time(struct dmaemu__sctx *c)
{
	return __atomic_load_n(&c->s->now, __ATOMIC_RELAXED);
}

bool dmaemu__sched_now(uint64_t *ns)
{
	struct dmaemu__sctx *c = dmaemu__sched_self(NULL);

	if (!c)
		return false;
	*ns = dmaemu__sched_time(c);
	return true;
}

bool dmaemu__sched_machine_now(struct dmaemu_machine *m, uint64_t *ns)
{
	if (!m || !m->sched)
		return false;
	*ns = __atomic_load_n(&m->sched->now, __ATOMIC_RELAXED);
	return true;
}

int dmaemu__sched_sleep(uint64_t ns, const char *what)
{
	struct dmaemu__sctx *c = dmaemu__sched_enter(NULL);
	uint64_t now;

	if (!c)
		return -ENOSYS;
	now = dmaemu__sched_time(c);
	ns = ns > DMAEMU__SCHED_NONE - 1 - now ? DMAEMU__SCHED_NONE - 1
					       : now + ns;
	(void)dmaemu__sched_wait(c, c, ns, 0, what);
	return 0;
}

bool dmaemu__hang_deadline(struct dmaemu_machine *m, struct timespec *ts)
{
	uint64_t ns;

	if (!m)
		m = dmaemu_machine_current();
	if (!m || !m->opt.hang_timeout_ms)
		return false;
	clock_gettime(CLOCK_MONOTONIC, ts);
	ns = (uint64_t)ts->tv_nsec +
	     (uint64_t)m->opt.hang_timeout_ms * 1000000ULL;
	ts->tv_sec += (time_t)(ns / 1000000000ULL);
	ts->tv_nsec = (long)(ns % 1000000000ULL);
	return true;
}

void dmaemu__hang_report(struct dmaemu_machine *m, const char *what, bool keep)
{
	if (!m)
		m = dmaemu_machine_current();
	if (!m)
		return;
	dmaemu__reportf(m, DMAEMU_REPORT_HUNG_WAIT, 0, 0,
			"hung wait: a thread waited more than %u ms in %s "
			"(hang_timeout_ms) for something that never came; %s",
			m->opt.hang_timeout_ms, what,
			keep ? "the wait has no error path and goes on"
			     : "the wait returns as if it had timed out");
}

/* ---------------------------------------------------------------------- */
/* Machine life, and the public calls                                     */
/* ---------------------------------------------------------------------- */

int dmaemu__sched_init(struct dmaemu_machine *m)
{
	struct dmaemu__sched *s;
	struct dmaemu__sctx *c;
	int ret;

	if (!m->opt.lockstep)
		return 0;
	s = dmaemu__calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	ret = dmaemu__mutex_init(&s->lock);
	if (ret) {
		dmaemu__free(s);
		return -ret;
	}
	s->m = m;
	s->step = m->opt.sched_step_ns;
	s->hang_ns = (uint64_t)m->opt.hang_timeout_ms * 1000000ULL;
	/* xorshift needs a non-zero state; mix the seed so 1, 2, 3 differ
	 * from the first draw on. */
	s->rng = (m->opt.seed + 1) * 0x9e3779b97f4a7c15ULL;
	s->rng ^= s->rng >> 31;
	if (!s->rng)
		s->rng = 1;
	dmaemu__lock(&reg_lock);
	s->id = ++reg_ids;
	dmaemu__unlock(&reg_lock);
	c = ctx_new(s, "cpu0");
	if (!c || !tls_add(c)) {
		if (c)
			ctx_free(c);
		pthread_mutex_destroy(&s->lock);
		dmaemu__free(s);
		return -ENOMEM;
	}
	s->running = c;
	m->sched = s;
	dmaemu__lock(&reg_lock);
	s->reg_next = reg_head;
	reg_head = s;
	__atomic_add_fetch(&reg_live, 1, __ATOMIC_RELEASE);
	dmaemu__unlock(&reg_lock);
	return 0;
}

void dmaemu__sched_fini(struct dmaemu_machine *m)
{
	struct dmaemu__sched *s = m->sched, **pp;
	struct dmaemu__sctx *c;

	if (!s)
		return;
	dmaemu__lock(&reg_lock);
	for (pp = &reg_head; *pp != s; pp = &(*pp)->reg_next)
		;
	*pp = s->reg_next;
	__atomic_sub_fetch(&reg_live, 1, __ATOMIC_RELEASE);
	dmaemu__unlock(&reg_lock);
	m->sched = NULL;
	while ((c = s->ctx)) {
		s->ctx = c->next;
		tls_del(c);
		ctx_free(c);
	}
	pthread_mutex_destroy(&s->lock);
	dmaemu__free(s);
}

/**
 * struct dmaemu_thread - a driver thread started by dmaemu_thread_create().
 * @tid: the host thread;  @c: its context (NULL: sched=threads).
 */
struct dmaemu_thread {
	pthread_t tid;
	struct dmaemu__sctx *c;
	void *(*fn)(void *);
	void *arg;
};

static void *thread_main(void *p)
{
	struct dmaemu_thread *t = p;
	void *ret;

	if (t->c) {
		dmaemu__sched_start(t->c);
		pthread_once(&leave_once, leave_init);
	}
	ret = t->fn(t->arg);
	dmaemu__sched_exit(t->c);
	return ret;
}

struct dmaemu_thread *dmaemu_thread_create(struct dmaemu_machine *m,
					   const char *name,
					   void *(*fn)(void *), void *arg)
{
	struct dmaemu_thread *t;

	if (dmaemu__machine_bad(m, "dmaemu_thread_create"))
		return NULL;
	if (!m || !fn) {
		dmaemu__reportf(m, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"dmaemu_thread_create(): %s",
				m ? "NULL function" : "NULL machine");
		errno = EINVAL;
		return NULL;
	}
	t = dmaemu__calloc(1, sizeof(*t));
	if (!t) {
		errno = ENOMEM;
		return NULL;
	}
	t->fn = fn;
	t->arg = arg;
	errno = dmaemu__sched_thread_start(m, name, &t->tid, thread_main, t,
					   &t->c);
	if (errno) {
		dmaemu__free(t);
		return NULL;
	}
	return t;
}

void *dmaemu_thread_join(struct dmaemu_thread *t)
{
	void *ret = NULL;

	if (!t)
		return NULL;
	dmaemu__sched_join(t->c);
	pthread_join(t->tid, &ret);
	dmaemu__sched_forget(t->c);
	dmaemu__free(t);
	return ret;
}

static struct dmaemu__sched *public_sched(struct dmaemu_machine *m,
					  const char *fn)
{
	if (m && m->sched)
		return m->sched;
	dmaemu__reportf(m, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0, "%s(): %s", fn,
			m ? "the machine is not in lockstep (sched=lockstep)"
			  : "NULL machine");
	return NULL;
}

int dmaemu_sched_set_trace(struct dmaemu_machine *m, dmaemu_sched_trace_fn fn,
			   void *arg)
{
	struct dmaemu__sched *s;

	if (dmaemu__machine_bad(m, "dmaemu_sched_set_trace"))
		return -EINVAL;
	s = public_sched(m, "dmaemu_sched_set_trace");
	if (!s)
		return -EINVAL;
	dmaemu__lock(&s->lock);
	s->trace = fn;
	s->trace_arg = arg;
	dmaemu__unlock(&s->lock);
	return 0;
}

uint64_t dmaemu_sched_fingerprint(struct dmaemu_machine *m, uint64_t *points)
{
	struct dmaemu__sched *s;
	uint64_t h = 0, n = 0;

	if (dmaemu__machine_bad(m, "dmaemu_sched_fingerprint"))
		return 0;
	s = m ? m->sched : NULL;
	if (s) {
		dmaemu__lock(&s->lock);
		h = s->hash;
		n = s->points;
		dmaemu__unlock(&s->lock);
	}
	if (points)
		*points = n;
	return h;
}
