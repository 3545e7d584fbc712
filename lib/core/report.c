// SPDX-License-Identifier: MIT
/*
 * report.c - the one path every checker reports through.
 *
 * How it works.  A report is formatted completely into a buffer that
 * grows as it needs, so that no report is ever cut (headline, byte runs,
 * the values of the first bytes, optional cause, one SUMMARY line), then,
 * under the
 * report lock, counted by kind and written to the machine's stream with a
 * single write, so reports from several threads never interleave:
 *
 *   ==4242==ERROR: dmaemu: lost-device-write: clean of line 0x80001000 ...
 *       bytes 0-3 of line 0x80001000 (mask 0x000000000000000f)
 *   SUMMARY: dmaemu: lost-device-write 0x80001000+4
 *
 * A report made while a driver's API call is in progress on the thread
 * (dmaemu__call_enter(), DMAEMU__API_CALL()), or while the CPU layer
 * handles an access of driver code (DMAEMU__ACCESS_SITE()), names the
 * driver's line, the way the sanitizers do:
 *
 *   ==4242==ERROR: dmaemu: stale-cpu-read: read of 4 bytes at ...
 *       bytes 0-3 of line 0x80021040 (mask 0x000000000000000f)
 *       at rx_poll examples/nic/nic.c:88
 *       by nic_napi examples/nic/nic.c:120
 *       by main examples/nic/nic.c:301
 *   SUMMARY: dmaemu: stale-cpu-read examples/nic/nic.c:88 in rx_poll
 *
 * The "at" line is the driver's line (", in dma_unmap_single_attrs()"
 * added for an API call whose name the headline does not start with);
 * the "by" lines are the stack above it, functions inlined there first,
 * up to STACK_LINES lines and no further than main; the SUMMARY line
 * points there instead of at a physical range (on a device model's
 * thread, at the driver's line where the mapping concerned was made:
 * device_side_summary()).  Function, file and line
 * come from the debug information (symbolize.c); without it a frame is
 * "rx_poll+0x2c (/path/prog)" as dladdr() knows it.  Under Valgrind the
 * "by" lines give way to Valgrind's own stack printing
 * (VALGRIND_PRINTF_BACKTRACE, on Valgrind's log), between the "at" line
 * and the SUMMARY.  The context is thread-local, so a report made deep in
 * the memory model during a dma_unmap_*() names the unmap's caller, and
 * device threads (which make no API calls) never inherit a driver's
 * context.
 *
 * Policy, in the order a report meets it (docs/options.md):
 *
 *   checks=       the kind's family (api, coherence, platform; errors are
 *                 none) is off: the report is dropped before any work
 *   format        headline, details, site and stack, SUMMARY; the frames
 *                 named are noted for the suppressions; log_stable=1
 *                 writes host addresses as emulated ones, and no PID
 *   suppressions= a rule matches: counted as suppressed, nothing else
 *   count         dmaemu_report_count()
 *   report_fold=  a report of the kind and driver line of an earlier one
 *                 is folded: counted in the exit summary, not printed
 *   report_limit= past N printed reports, counted as not printed
 *   verbosity=    0 prints the headline and the SUMMARY line only; 2 adds
 *                 the stack of the reporting thread where the report names
 *                 no driver's call, and a deeper stack where it does
 *   print, record, callback, trace (the "report" event, on one line)
 *   exitcode=, halt_on_error=
 *
 * halt_on_error=1 aborts after the first report is printed.  exitcode=N
 * makes the process exit status N at normal exit if any report was made:
 * an atexit() handler, installed when a machine with exitcode is created,
 * flushes stdio and calls _exit(N).  The library itself never exits.
 * Machine destroy (dmaemu__report_fini()) prints how many reports
 * report_limit kept back, what each suppression rule matched, and, when
 * any report was made, the exit summary (fold_summary()).
 */
#include "config.h"

#include <ctype.h>
#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <execinfo.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

#ifdef HAVE_VALGRIND_VALGRIND_H
#include <valgrind/valgrind.h>
#endif

#include "core/core.h"

static const char *const report_kind_names[] = {
#define DMAEMU_X_NAME(id, name) [DMAEMU_REPORT_##id] = name,
	DMAEMU_REPORT_KINDS(DMAEMU_X_NAME)
#undef DMAEMU_X_NAME
};

const char *dmaemu_report_kind_name(enum dmaemu_report_kind kind)
{
	if ((unsigned int)kind >= DMAEMU_REPORT_NKINDS)
		return "?";
	return report_kind_names[kind];
}

/* ---------------------------------------------------------------------- */
/* Check families (checks=)                                               */
/* ---------------------------------------------------------------------- */

static const char *const family_names[DMAEMU__CHECK_NFAMILIES] = {
	[DMAEMU__CHECK_API] = "api",
	[DMAEMU__CHECK_COHERENCE] = "coherence",
	[DMAEMU__CHECK_PLATFORM] = "platform",
};

/*
 * The family of each kind.  A kind not named here is an API-debugging
 * kind (DMAEMU__CHECK_API is 0): the DMA API's misuse checks (unmap,
 * sync, map and free of mappings, leaks, attributes) need no entry, so
 * the kinds they are split into fall in their family by themselves.  A
 * new kind of another family gets its line here.
 */
static const unsigned char kind_family[DMAEMU_REPORT_NKINDS] = {
	/* The coherence sanitizer: what the CPU and the device access. */
	[DMAEMU_REPORT_LOST_DEVICE_WRITE] = DMAEMU__CHECK_COHERENCE,
	[DMAEMU_REPORT_LOST_CPU_WRITE] = DMAEMU__CHECK_COHERENCE,
	[DMAEMU_REPORT_STALE_CPU_READ] = DMAEMU__CHECK_COHERENCE,
	[DMAEMU_REPORT_CPU_ACCESS_DEVICE_OWNED] = DMAEMU__CHECK_COHERENCE,
	[DMAEMU_REPORT_DEVICE_ACCESS_CPU_OWNED] = DMAEMU__CHECK_COHERENCE,
	[DMAEMU_REPORT_STALE_DEVICE_READ] = DMAEMU__CHECK_COHERENCE,
	[DMAEMU_REPORT_WC_PENDING_READ] = DMAEMU__CHECK_COHERENCE,
	[DMAEMU_REPORT_DEVICE_ACCESS_UNMAPPED] = DMAEMU__CHECK_COHERENCE,
	[DMAEMU_REPORT_DEVICE_WRITE_TO_DEVICE_MAPPING] =
		DMAEMU__CHECK_COHERENCE,
	[DMAEMU_REPORT_MISSING_WRITE_BARRIER] = DMAEMU__CHECK_COHERENCE,
	[DMAEMU_REPORT_MISSING_READ_BARRIER] = DMAEMU__CHECK_COHERENCE,
	[DMAEMU_REPORT_SHARED_LINE_STORE] = DMAEMU__CHECK_COHERENCE,
	/* The kernel's other rules: contexts, interrupts, MMIO. */
	[DMAEMU_REPORT_SLEEP_IN_ATOMIC] = DMAEMU__CHECK_PLATFORM,
	[DMAEMU_REPORT_MMIO_ACCESS] = DMAEMU__CHECK_PLATFORM,
	[DMAEMU_REPORT_LEAKED_IRQ] = DMAEMU__CHECK_PLATFORM,
	[DMAEMU_REPORT_UNHANDLED_IRQ] = DMAEMU__CHECK_PLATFORM,
	[DMAEMU_REPORT_IRQ_STORM] = DMAEMU__CHECK_PLATFORM,
	[DMAEMU_REPORT_KERNEL_WARNING] = DMAEMU__CHECK_PLATFORM,
	/* Errors: a call that fails, a fault, a resource exhausted. */
	[DMAEMU_REPORT_BAD_ARGUMENT] = DMAEMU__CHECK_ERRORS,
	[DMAEMU_REPORT_ALLOC_FAILURE] = DMAEMU__CHECK_ERRORS,
	[DMAEMU_REPORT_BAD_FREE] = DMAEMU__CHECK_ERRORS,
	[DMAEMU_REPORT_POOL_CORRUPTION] = DMAEMU__CHECK_ERRORS,
	[DMAEMU_REPORT_POOL_BUSY] = DMAEMU__CHECK_ERRORS,
	[DMAEMU_REPORT_SWIOTLB_FULL] = DMAEMU__CHECK_ERRORS,
	[DMAEMU_REPORT_IOMMU_FAULT] = DMAEMU__CHECK_ERRORS,
	[DMAEMU_REPORT_DMA_FAULT] = DMAEMU__CHECK_ERRORS,
	[DMAEMU_REPORT_LOCKSTEP_DEADLOCK] = DMAEMU__CHECK_ERRORS,
	[DMAEMU_REPORT_HUNG_WAIT] = DMAEMU__CHECK_ERRORS,
	[DMAEMU_REPORT_KERNEL_BUG] = DMAEMU__CHECK_ERRORS,
};

const char *dmaemu__check_family_name(unsigned int family)
{
	return family < DMAEMU__CHECK_NFAMILIES ? family_names[family] : NULL;
}

enum dmaemu__check_family dmaemu__check_family_of(enum dmaemu_report_kind kind)
{
	if ((unsigned int)kind >= DMAEMU_REPORT_NKINDS)
		return DMAEMU__CHECK_ERRORS;
	return (enum dmaemu__check_family)kind_family[kind];
}

/* Exit status chosen by the exitcode option once a report was made. */
static int exit_status;
static pthread_once_t exit_once = PTHREAD_ONCE_INIT;

static void exit_handler(void)
{
	int code = __atomic_load_n(&exit_status, __ATOMIC_ACQUIRE);

	if (code) {
		fflush(NULL);
		_exit(code);
	}
}

static void install_exit_handler(void)
{
	atexit(exit_handler);
}

static void fold_summary(struct dmaemu_machine *m, FILE *out);
static void fold_free(struct dmaemu_machine *m);

/**
 * dmaemu__report_init() - open the machine's report stream.
 * @m:      machine with its options set.
 * @err:    receives a message when log_path cannot be opened, or the
 *          suppressions file cannot be read or has a bad line.
 * @errlen: size of @err.
 *
 * Return: 0, or a negative errno (fopen()'s, -EINVAL for a bad line of the
 * suppressions file, -ENOMEM).
 */
int dmaemu__report_init(struct dmaemu_machine *m, char *err, size_t errlen)
{
	int ret;

	m->log = NULL;
	m->fold = NULL;
	if (m->opt.log_path[0]) {
		m->log = fopen(m->opt.log_path, "ae");
		if (!m->log) {
			int e = errno;

			snprintf(err, errlen,
				 "%s: cannot open log_path '%s': %s",
				 dmaemu__option_origin(&m->opt, "log_path"),
				 m->opt.log_path, strerror(e));
			return -e;
		}
	}
	ret = dmaemu__supp_load(m, err, errlen);
	if (ret < 0) {
		if (m->log)
			fclose(m->log);
		m->log = NULL;
		return ret;
	}
	if (m->opt.exitcode)
		pthread_once(&exit_once, install_exit_handler);
	return 0;
}

/*
 * Machine destroy: how many reports report_limit kept back, what the
 * suppressions matched, and the exit summary; then close the stream.
 */
void dmaemu__report_fini(struct dmaemu_machine *m)
{
	FILE *out = m->log ? m->log : stderr;
	char pre[DMAEMU__LOG_PREFIX];

	dmaemu__lock(&m->report_lock);
	if (m->report_unprinted)
		fprintf(out,
			"%sdmaemu: report_limit=%u: %llu more report%s "
			"counted and not printed\n",
			dmaemu__log_prefix(m, pre), m->opt.report_limit,
			(unsigned long long)m->report_unprinted,
			m->report_unprinted == 1 ? "" : "s");
	dmaemu__supp_summary(m, out);
	fold_summary(m, out);
	fflush(out);
	fold_free(m);
	dmaemu__unlock(&m->report_lock);
	dmaemu__supp_fini(m);
	dmaemu__report_rec_fini(m);
	if (m->log)
		fclose(m->log);
	m->log = NULL;
}

/* ---------------------------------------------------------------------- */
/* Call-site context                                                      */
/* ---------------------------------------------------------------------- */

/* The innermost API call or access site in progress on this thread
 * (initial-exec: the library is linked, never dlopen()ed, and the access
 * stays a load). */
static __thread const struct dmaemu__call *cur_call
	__attribute__((tls_model("initial-exec")));

/**
 * dmaemu__call_start() - make @c the current call; DMAEMU__API_CALL()'s
 * initialiser.
 * @c:      the context variable being initialised (becomes current).
 * @fn:     the API function's name; NULL for an access site (core.h) or a
 *          report on behalf of an earlier call, whose @caller is kept.
 * @caller: the driver's return address.
 *
 * Return: the value @c is initialised with.
 */
struct dmaemu__call dmaemu__call_start(struct dmaemu__call *c, const char *fn,
				       const void *caller)
{
	struct dmaemu__call v = {.fn = fn, .caller = caller, .outer = cur_call};

	/* An API function the library calls for the driver (dma_pool_alloc()
	 * allocating a page with dma_alloc_coherent()) has the library as
	 * its caller: the driver's line is still the outer call's. */
	if (cur_call && fn)
		v.caller = cur_call->caller;

	cur_call = c;
	return v;
}

/**
 * dmaemu__call_enter() - enter call context @c (its storage must live
 * until dmaemu__call_leave(@c)).
 * @c:      the context.
 * @fn:     the API function's name.
 * @caller: the driver's return address.
 */
void dmaemu__call_enter(struct dmaemu__call *c, const char *fn,
			const void *caller)
{
	*c = dmaemu__call_start(c, fn, caller);
}

/**
 * dmaemu__call_leave() - leave @c: the call it was inside becomes current
 * again.  Contexts are left in the reverse order of entry.
 * @c: the context.
 */
void dmaemu__call_leave(struct dmaemu__call *c)
{
	cur_call = c->outer;
}

const struct dmaemu__call *dmaemu__call_current(void)
{
	return cur_call;
}

/* Source frames of one address (functions inlined into each other). */
#define INLINE_FRAMES 8

/*
 * @addr as dladdr() knows it: "fn+0x2c (/path/prog)", or
 * "/path/prog+0x1234" when the function has no dynamic symbol (addr2line
 * resolves it).  Return: the symbol's name, or NULL.
 */
static const char *dl_where(const void *addr, char *buf, size_t len)
{
	Dl_info info;

	if (!addr || !dladdr(addr, &info) || !info.dli_fname) {
		snprintf(buf, len, "%p", addr);
		return NULL;
	}
	if (info.dli_sname && info.dli_saddr) {
		snprintf(buf, len, "%s+%#lx (%s)", info.dli_sname,
			 (unsigned long)((const char *)addr -
					 (const char *)info.dli_saddr),
			 info.dli_fname);
		return info.dli_sname;
	}
	snprintf(buf, len, "%s+%#lx", info.dli_fname,
		 (unsigned long)((const char *)addr -
				 (const char *)info.dli_fbase));
	return NULL;
}

/**
 * dmaemu__code_where() - describe a code address for a report.
 * @addr: a return address (NULL gives "(nil)").
 * @buf:  receives "fn file:line" from the debug information: the
 *        innermost function where calls were inlined that is not in the
 *        kernel personality's headers (READ_ONCE(), the inline DMA API
 *        wrappers), so the driver's line is named; or without debug
 *        information the dladdr() form "fn+0x2c (/path/prog)" or
 *        "/path/prog+0x1234".
 * @len:  size of @buf.
 */
void dmaemu__code_where(const void *addr, char *buf, size_t len)
{
	struct dmaemu__frame f[INLINE_FRAMES];
	unsigned int n = dmaemu__symbolize(addr, f, INLINE_FRAMES), i;

	if (!n) {
		dl_where(addr, buf, len);
		return;
	}
	for (i = 0; i < n - 1 && strstr(f[i].file, "dmaemu/kernel/"); i++)
		;
	snprintf(buf, len, "%s %s:%u", f[i].fn, f[i].file, f[i].line);
}

/* ---------------------------------------------------------------------- */
/* Formatting                                                             */
/* ---------------------------------------------------------------------- */

/* Most "by" lines of a report's stack (at verbosity=2: DEEP_LINES), and
 * source frames of one address. */
#define STACK_LINES 8
#define DEEP_LINES 32
/* Frames a report names, kept for the suppressions. */
#define NAMED_FRAMES (DEEP_LINES + INLINE_FRAMES)

/*
 * A report being formatted: a text buffer that grows as the report needs
 * (a report is never cut: only when memory runs out does it end where the
 * buffer did), where its headline ends and its SUMMARY line starts, room
 * for the frames of the stack, and the frames it names (function and
 * file, for the suppressions).
 */
struct text {
	char *buf;
	size_t len, cap;
	size_t head;		/* offset past the headline's first line */
	size_t summary;		/* offset of the SUMMARY line */
	bool placed;		/* the SUMMARY line names the driver's code */
	unsigned int max_lines; /* "by" lines at most */
	bool note;		/* keep the frames named in named[] */
	unsigned int nnamed;
	struct dmaemu__frame frames[INLINE_FRAMES];
	const void *pcs[DEEP_LINES];
	struct dmaemu__frame named[NAMED_FRAMES];
};

#define TEXT_START 1024 /* bytes of a report's buffer to start with */

/* Keep a frame the report names (function, file) for the suppressions. */
static void note_frame(struct text *t, const char *fn, const char *file)
{
	struct dmaemu__frame *f;

	if (!t->note || t->nnamed == NAMED_FRAMES)
		return;
	f = &t->named[t->nnamed++];
	snprintf(f->fn, sizeof(f->fn), "%s", fn ? fn : "");
	snprintf(f->file, sizeof(f->file), "%s", file ? file : "");
	f->line = 0;
}

static void add(struct text *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void add(struct text *t, const char *fmt, ...)
{
	va_list ap, aq;
	size_t room;
	int n;

	if (!t->buf)
		return;
	room = t->cap - t->len;
	va_start(ap, fmt);
	va_copy(aq, ap);
	n = vsnprintf(t->buf + t->len, room, fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n >= room) {
		size_t cap = t->cap;
		char *p;

		while (cap - t->len <= (size_t)n)
			cap *= 2;
		p = dmaemu__realloc(t->buf, cap);
		if (p) {
			t->buf = p;
			t->cap = cap;
			room = cap - t->len;
			n = vsnprintf(t->buf + t->len, room, fmt, aq);
		} else {
			n = (int)room - 1; /* out of memory: cut */
		}
	}
	va_end(aq);
	if (n > 0)
		t->len += (size_t)n;
}

/* The text of @fmt and @ap, allocated (NULL when memory runs out). */
static __attribute__((format(printf, 1, 0))) char *vtext(const char *fmt,
							 va_list ap)
{
	va_list aq;
	char *p;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0)
		return NULL;
	p = dmaemu__malloc((size_t)n + 1);
	if (p)
		vsnprintf(p, (size_t)n + 1, fmt, ap);
	return p;
}

static bool bit(const uint64_t *mask, unsigned int i)
{
	return (mask[i / 64] >> (i % 64)) & 1;
}

/* "bytes 0-3, 8-11 of line 0x80001000 (mask 0x0000000000000f0f)" */
static void add_mask(struct text *t, const struct dmaemu__report_info *r)
{
	unsigned int i, n = 0, bits = r->mask_bits, nib;
	uint64_t line = r->phys & ~((uint64_t)bits - 1);
	bool first = true;

	for (i = 0; i < bits; i++)
		n += bit(r->mask, i);
	add(t, "    %s ", n == 1 ? "byte" : "bytes");
	for (i = 0; i < bits;) {
		unsigned int j;

		if (!bit(r->mask, i)) {
			i++;
			continue;
		}
		for (j = i; j + 1 < bits && bit(r->mask, j + 1); j++)
			;
		if (j == i)
			add(t, "%s%u", first ? "" : ", ", i);
		else
			add(t, "%s%u-%u", first ? "" : ", ", i, j);
		first = false;
		i = j + 1;
	}
	add(t, " of line 0x%llx (mask 0x", (unsigned long long)line);
	for (nib = (bits + 3) / 4; nib-- > 0;)
		add(t, "%x",
		    (unsigned int)(r->mask[nib / 16] >> ((nib % 16) * 4)) &
			    0xf);
	add(t, ")\n");
}

/*
 * The values of the first bytes of the range (->nval of them from
 * ->phys), as KCSAN shows old and new values:
 *
 *     values of 8 bytes from phys 0x80021040 (.. = not concerned):
 *       the CPU read  00 00 .. 00 00 00 00 00
 *       memory holds  41 41 .. 41 41 41 41 41
 *
 * (up to the last byte concerned, DMAEMU__REPORT_VALS at most).
 */
static void add_values(struct text *t, const struct dmaemu__report_info *r)
{
	uint64_t line =
		r->mask_bits ? r->phys & ~((uint64_t)r->mask_bits - 1) : 0;
	size_t w0 = strlen(r->val_name[0]), w1 = strlen(r->val_name[1]);
	int w = (int)(w0 > w1 ? w0 : w1);
	uint8_t val[2][DMAEMU__REPORT_VALS];
	unsigned int nval =
		r->nval < DMAEMU__REPORT_VALS ? r->nval : DMAEMU__REPORT_VALS;
	bool some_out = false;
	unsigned int i, k;

	/* Stale bytes of the CPU copy are undefined for Memcheck (that is
	 * how it reports a stale read): the copies shown here are not. */
	memcpy(val, r->val, sizeof(val));
	dmaemu__vg_cpu_define(val, sizeof(val));
	/* Up to the last byte concerned; the others between show "..". */
	for (i = nval; i > 1 && r->mask; i--) {
		uint64_t b = r->phys + i - 1 - line;

		if (b < r->mask_bits && bit(r->mask, (unsigned int)b))
			break;
	}
	nval = i;
	for (i = 0; i < nval && r->mask; i++) {
		uint64_t b = r->phys + i - line;

		if (b >= r->mask_bits || !bit(r->mask, (unsigned int)b))
			some_out = true;
	}
	add(t, "    values of %u byte%s from phys 0x%llx%s:\n", nval,
	    nval == 1 ? "" : "s", (unsigned long long)r->phys,
	    some_out ? " (.. = not concerned)" : "");
	for (k = 0; k < 2; k++) {
		add(t, "      %-*s ", w, r->val_name[k]);
		for (i = 0; i < nval; i++) {
			uint64_t b = r->phys + i - line;

			if (r->mask && (b >= r->mask_bits ||
					!bit(r->mask, (unsigned int)b)))
				add(t, " ..");
			else
				add(t, " %02x", val[k][i]);
		}
		add(t, "\n");
	}
}

/* Stacks of reports are Valgrind's to print when the process runs on it. */
static bool on_valgrind(void)
{
#ifdef HAVE_VALGRIND_VALGRIND_H
	return RUNNING_ON_VALGRIND != 0;
#else
	return false;
#endif
}

/* Valgrind's stack of the thread making the report, on Valgrind's log. */
static void vg_backtrace(const char *kind)
{
#ifdef HAVE_VALGRIND_VALGRIND_H
	if (on_valgrind())
		VALGRIND_PRINTF_BACKTRACE("dmaemu: %s: the report was made "
					  "here:\n",
					  kind);
#else
	(void)kind;
#endif
}

/* Is @fn the C library's start, below main (where stacks stop)? */
static bool below_main(const char *fn)
{
	return fn && !strncmp(fn, "__libc_start", 12);
}

/* Is @fn where a stack stops: main, or below it? */
static bool stack_end(const char *fn)
{
	return fn && (!strcmp(fn, "main") || below_main(fn));
}

/*
 * "    by fn file:line" lines for return address @pc (one per source
 * frame, the functions inlined there first), while *@lines < the report's
 * most; printed when @print, noted for the suppressions in any case.
 * Return: true when the stack ends here (main was reached, or the next
 * frame is below it).
 */
static bool add_by(struct text *t, const void *pc, unsigned int *lines,
		   bool print)
{
	struct dmaemu__frame *f = t->frames;
	unsigned int n = dmaemu__symbolize(pc, f, INLINE_FRAMES), i;
	char buf[512];
	const char *fn;

	if (!n) {
		fn = dl_where(pc, buf, sizeof(buf));
		if (below_main(fn))
			return true;
		if (print)
			add(t, "    by %s\n", buf);
		note_frame(t, fn, NULL);
		++*lines;
		return stack_end(fn);
	}
	for (i = 0; i < n && *lines < t->max_lines; i++, ++*lines) {
		if (below_main(f[i].fn))
			return true;
		if (print)
			add(t, "    by %s %s:%u\n", f[i].fn, f[i].file,
			    f[i].line);
		note_frame(t, f[i].fn, f[i].file);
		if (stack_end(f[i].fn))
			return true;
	}
	return false;
}

/*
 * The lines of a report made at @site, a return address into driver code
 * (the caller of an API function, or the code that made a CPU access):
 * the "at" line (", in @in_fn()" when not NULL), the stack above it, and
 * the SUMMARY line.  Under Valgrind the stack is left to Valgrind (it is
 * still walked when the suppressions look at frames).
 */
static void add_site(struct text *t, const char *kind, const void *site,
		     const char *in_fn)
{
	struct dmaemu__frame *f = t->frames;
	unsigned int n = dmaemu__symbolize(site, f, INLINE_FRAMES), i, k;
	unsigned int lines = 0;
	bool print = !on_valgrind();
	const char *fn;
	char sum[512];
	bool end = false;

	if (n) {
		add(t, "    at %s %s:%u", f[0].fn, f[0].file, f[0].line);
		snprintf(sum, sizeof(sum), "%.255s:%u in %.127s", f[0].file,
			 f[0].line, f[0].fn);
		note_frame(t, f[0].fn, f[0].file);
		end = stack_end(f[0].fn);
	} else {
		fn = dl_where(site, sum, sizeof(sum));
		note_frame(t, fn, NULL);
		end = stack_end(fn);
		add(t, "    at %s", sum);
	}
	if (in_fn)
		add(t, ", in %s()\n", in_fn);
	else
		add(t, "\n");
	if (print || t->note) {
		/* The functions inlined at the site, then the callers. */
		for (i = 1; i < n && !end && lines < t->max_lines;
		     i++, lines++) {
			if (print)
				add(t, "    by %s %s:%u\n", f[i].fn, f[i].file,
				    f[i].line);
			note_frame(t, f[i].fn, f[i].file);
			end = stack_end(f[i].fn);
		}
		k = end ? 0 : dmaemu__stack_above(site, t->pcs, t->max_lines);
		for (i = 0; i < k && !end && lines < t->max_lines; i++)
			end = add_by(t, t->pcs[i], &lines, print);
	}
	t->summary = t->len;
	add(t, "SUMMARY: dmaemu: %s %s\n", kind, sum);
}

/*
 * The stack of the thread making a report that names no driver's call:
 * the return addresses outside the library, from the innermost; printed
 * (at verbosity=2, a line "    stack:" first) when @print, noted when
 * the suppressions look at frames.  With the library linked into the
 * program every frame is "inside", and there is no such stack.
 */
static void add_thread_stack(struct text *t, bool print)
{
	void *stack[64];
	Dl_info self, info;
	unsigned int lines = 0;
	int n, i;

	if (!dladdr((void *)(uintptr_t)add_thread_stack, &self))
		return;
	n = backtrace(stack, 64);
	for (i = 0; i < n; i++)
		if (!dladdr(stack[i], &info) ||
		    info.dli_fbase != self.dli_fbase)
			break;
	if (i == n)
		return;
	if (print && on_valgrind()) {
		print = false; /* Valgrind prints it (vg_backtrace()) */
		if (!t->note)
			return;
	}
	if (print)
		add(t, "    stack:\n");
	/* backtrace() gives return addresses, as the "by" lines want. */
	for (; i < n && lines < t->max_lines; i++)
		if (add_by(t, stack[i], &lines, print))
			break;
}

/*
 * The frame named by a report's ->where: "fn file:line", as
 * dmaemu__code_where() writes it, or its dladdr() form "fn+0x2c (prog)";
 * nothing for a cause given in other words.
 */
static void note_where(struct text *t, const char *where)
{
	const char *sp = strchr(where, ' '), *plus;
	char fn[128], file[256];
	size_t n;

	if (!t->note || !sp || sp == where)
		return;
	n = (size_t)(sp - where);
	if (!strchr(sp + 1, ' ') && strchr(sp + 1, ':') && sp[1] != '(') {
		const char *colon = strrchr(sp + 1, ':');

		snprintf(fn, sizeof(fn), "%.*s", (int)n, where);
		snprintf(file, sizeof(file), "%.*s", (int)(colon - sp - 1),
			 sp + 1);
		note_frame(t, fn, file);
		return;
	}
	plus = memchr(where, '+', n);
	if (plus && sp[1] == '(') {
		snprintf(fn, sizeof(fn), "%.*s", (int)(plus - where), where);
		note_frame(t, fn, NULL);
	}
}

/*
 * The SUMMARY line of a report whose place was given as text (->where):
 * "fn file:line", as dmaemu__code_where() writes it, becomes the
 * sanitizers' "file:line in fn"; any other text is printed as it is.
 */
static void add_where_summary(struct text *t, const char *kind,
			      const char *where)
{
	const char *sp = strchr(where, ' ');

	t->summary = t->len;
	if (sp && sp > where && !strchr(sp + 1, ' ') && strchr(sp + 1, ':') &&
	    sp[1] != '(') {
		add(t, "SUMMARY: dmaemu: %s %s in %.*s\n", kind, sp + 1,
		    (int)(sp - where), where);
		return;
	}
	add(t, "SUMMARY: dmaemu: %s %s\n", kind, where);
}

/*
 * The "at" text of a formatted report, for the recorded report: the
 * report's own ->where, else what follows "    at " in @t, else NULL.
 */
static const char *at_text(const struct dmaemu__report_info *r,
			   const struct text *t, char *buf, size_t len)
{
	const char *at, *eol;
	size_t n;

	if (r->where)
		return r->where;
	at = t ? strstr(t->buf, "\n    at ") : NULL;
	if (!at)
		return NULL;
	at += strlen("\n    at ");
	eol = strchr(at, '\n');
	n = eol ? (size_t)(eol - at) : strlen(at);
	if (n >= len)
		n = len - 1;
	memcpy(buf, at, n);
	buf[n] = '\0';
	return buf;
}

/*
 * What the SUMMARY line of a report with ->where names.  A report made on
 * a device model's thread has the model's code as its place; the driver's
 * line that matters is where the mapping the report is about was made
 * (->made_at, "dma_map_single_attrs() called from tx_map drv.c:41"), so
 * the SUMMARY names that one, as sanitizers name the user's frame.
 */
static const char *device_side_summary(const struct dmaemu__report_info *r)
{
	static const char from[] = " called from ";
	const char *caller;

	if (!r->made_at || !dmaemu__on_device_thread())
		return r->where;
	caller = strstr(r->made_at, from);
	return caller && caller[sizeof(from) - 1] ? caller + sizeof(from) - 1
						  : r->where;
}

/* Format the report of @r into @t at @m's verbosity (see the top). */
static void format(struct dmaemu_machine *m, struct text *t,
		   const struct dmaemu__report_info *r, const char *kind,
		   const char *head, const void *site, const char *in_fn)
{
	unsigned int v = m->opt.verbosity;
	char pre[DMAEMU__LOG_PREFIX];

	t->len = 0;
	t->nnamed = 0;
	t->placed = false;
	t->note = dmaemu__supp_frames(m);
	t->max_lines = v >= 2 ? DEEP_LINES : STACK_LINES;
	add(t, "%s%s: dmaemu: %s: %s\n", dmaemu__log_prefix(m, pre),
	    r->note ? "NOTE" : "ERROR", kind, head);
	t->head = strchr(t->buf, '\n')
			  ? (size_t)(strchr(t->buf, '\n') - t->buf + 1)
			  : t->len;
	if (r->mask && r->mask_bits)
		add_mask(t, r);
	if (r->nval && r->val_name[0] && r->val_name[1])
		add_values(t, r);
	t->placed = r->where || site;
	if (r->where) {
		add(t, "    at %s\n", r->where);
		note_where(t, r->where);
		if (v >= 2) {
			/* Printed only: the report's frame is ->where's, at
			 * every verbosity. */
			bool note = t->note;

			t->note = false;
			add_thread_stack(t, true);
			t->note = note;
		}
		add_where_summary(t, kind, device_side_summary(r));
	} else if (site) {
		add_site(t, kind, site, in_fn);
	} else {
		if (v >= 2 || t->note)
			add_thread_stack(t, v >= 2);
		t->summary = t->len;
		if (r->size)
			add(t, "SUMMARY: dmaemu: %s 0x%llx+%llu\n", kind,
			    (unsigned long long)r->phys,
			    (unsigned long long)r->size);
		else
			add(t, "SUMMARY: dmaemu: %s\n", kind);
	}
	if (v == 0 && t->summary > t->head) {
		/* The headline and the SUMMARY line only. */
		memmove(t->buf + t->head, t->buf + t->summary,
			t->len - t->summary + 1);
		t->len -= t->summary - t->head;
		t->summary = t->head;
	}
}

/* ---------------------------------------------------------------------- */
/* log_stable=: the report stream without PID and host addresses          */
/* ---------------------------------------------------------------------- */

const char *dmaemu__log_prefix(const struct dmaemu_machine *m, char *buf)
{
	if (m && m->opt.log_stable)
		snprintf(buf, DMAEMU__LOG_PREFIX, "==dmaemu==");
	else
		snprintf(buf, DMAEMU__LOG_PREFIX, "==%d==", (int)getpid());
	return buf;
}

/* Names of the views of emulated memory, for stable_addr(). */
static const char *const view_names[] = {
	[DMAEMU__REGION_LINEAR] = "phys",
	[DMAEMU__REGION_UNCACHED] = "uncached phys",
	[DMAEMU__REGION_WC] = "wc phys",
	[DMAEMU__REGION_NOMAP] = "no-kernel-mapping phys",
	[DMAEMU__REGION_MMIO] = "mmio +",
	[DMAEMU__REGION_TWIN] = "twin phys",
	[DMAEMU__REGION_VMALLOC] = "vmalloc phys",
};

/*
 * The emulated address that host address @v of @m's views stands for,
 * written into @buf ("[phys 0x80021040]", "[mmio +0x40]"); false when @v
 * is in none of them.
 */
static bool stable_addr(const struct dmaemu_machine *m, uint64_t v, char *buf,
			size_t len)
{
	const struct dmaemu__slot *s;
	uint64_t off, in, phys;

	if (!m->resv || v < (uintptr_t)m->resv ||
	    v - (uintptr_t)m->resv >= m->resv_size)
		return false;
	off = v - (uintptr_t)m->resv;
	if ((off >> m->slot_shift) >= m->nslots)
		return false;
	s = &m->slot[off >> m->slot_shift];
	in = off & (((uint64_t)1 << m->slot_shift) - 1);
	if (s->region == DMAEMU__REGION_MMIO) {
		phys = in;
	} else if (s->region == DMAEMU__REGION_VMALLOC) {
		phys = __atomic_load_n(&m->vmap_phys[in >> DMAEMU__PAGE_SHIFT],
				       __ATOMIC_ACQUIRE);
		if (!phys)
			return false;
		phys += in & (DMAEMU__PAGE_SIZE - 1);
	} else {
		in -= s->skew;
		if (!s->bank || in >= s->bank->size)
			return false;
		phys = s->bank->phys + in;
	}
	if ((unsigned int)s->region >=
		    sizeof(view_names) / sizeof(view_names[0]) ||
	    !view_names[s->region])
		return false;
	snprintf(buf, len, "[%s%s0x%llx]", view_names[s->region],
		 s->region == DMAEMU__REGION_MMIO ? "" : " ",
		 (unsigned long long)phys);
	return true;
}

/* Is @v a physical address of one of @m's banks?  Such a number stays as
 * it is: under AddressSanitizer the low physical addresses of the banks
 * lie inside the mapping of its shadow memory. */
static bool bank_phys(const struct dmaemu_machine *m, uint64_t v)
{
	unsigned int i;

	for (i = 0; i < m->nbanks; i++)
		if (v >= m->bank[i].phys &&
		    v - m->bank[i].phys < m->bank[i].size)
			return true;
	return false;
}

/* Is @v inside a mapping of this process (/proc/self/maps)? */
static bool host_mapped(uint64_t v)
{
	unsigned long long lo, hi;
	bool in = false;
	char line[512];
	FILE *f;

	f = fopen("/proc/self/maps", "re");
	if (!f)
		return false;
	while (!in && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx-%llx", &lo, &hi) == 2 && v >= lo &&
		    v < hi)
			in = true;
		/* The rest of a long line (a long path). */
		while (!strchr(line, '\n') && fgets(line, sizeof(line), f))
			;
	}
	fclose(f);
	return in;
}

/*
 * log_stable=1: @s with every host address written as what it stands for
 * in the emulated machine, so that two runs of one seed under
 * sched=lockstep print the same text: an address in one of the machine's
 * views of memory becomes its emulated address ("[phys 0x80021040]"), any
 * other address of the process (a driver's structure on the host heap, a
 * stack) "[host]".  Numbers that are no host address (physical and bus
 * addresses, offsets) stay, and so does every number inside one of the
 * machine's banks of physical memory.  Return: the new text, allocated; NULL when
 * memory runs out.
 */
static char *stable_text(const struct dmaemu_machine *m, const char *s)
{
	struct text t = {.cap = strlen(s) + 64};
	const char *p = s;

	t.buf = dmaemu__malloc(t.cap);
	if (!t.buf)
		return NULL;
	t.buf[0] = '\0';
	while (*p) {
		const char *q = p;
		unsigned long long v = 0;
		char addr[64];
		size_t n;

		if (p[0] != '0' || p[1] != 'x' ||
		    (p > s &&
		     (isalnum((unsigned char)p[-1]) || p[-1] == '+'))) {
			n = strcspn(p + 1, "0") + 1;
			add(&t, "%.*s", (int)n, p);
			p += n;
			continue;
		}
		for (q = p + 2; isxdigit((unsigned char)*q); q++)
			v = v * 16 +
			    (unsigned long long)(isdigit((unsigned char)*q)
							 ? *q - '0'
							 : (tolower((
								    unsigned char)*q) -
							    'a' + 10));
		if (q - p > 2 && q - p <= 18 &&
		    stable_addr(m, v, addr, sizeof(addr)))
			add(&t, "%s", addr);
		else if (q - p > 2 && q - p <= 18 && v >= 0x10000 &&
			 !bank_phys(m, v) && host_mapped(v))
			add(&t, "[host]");
		else
			add(&t, "%.*s", (int)(q - p), p);
		p = q;
	}
	return t.buf;
}

/* ---------------------------------------------------------------------- */
/* Folding and the exit summary                                           */
/* ---------------------------------------------------------------------- */

/*
 * report_fold=1 prints the first report of a kind at a place of the
 * driver's code (the SUMMARY line's "file:line in fn", or the device
 * model's place with the driver's mapping line: what the SUMMARY line
 * names) and folds the later ones: they are counted, recorded, handed to
 * the callback, traced, and they set the exit status, like every report;
 * they are only not printed.  A report whose SUMMARY names no code (a
 * physical range, or nothing) is always printed.
 *
 * One entry per (kind, place), in the order of their first reports; each
 * counts its reports, those printed, and the distinct mappings they were
 * about (device and bus address, MAX_MAPS at most), with report_fold=0
 * too, for the exit summary that machine destroy prints when any report
 * was made.  Everything here is under report_lock.
 */
#define MAX_KEYS 4096 /* places; past that, every report prints */
#define MAX_MAPS 4096 /* mappings told apart per place */

struct fold_key {
	enum dmaemu_report_kind kind;
	uint64_t hash; /* of the place */
	char *place;   /* "nic.c:302 in nicdrv_recv" */
	uint64_t made; /* reports made */
	uint64_t printed;
	uint64_t *maps; /* hashes of (device, bus address), unordered */
	unsigned int nmaps, mapcap;
};

struct dmaemu__fold {
	struct fold_key *key;
	unsigned int n, cap;
	uint64_t made[DMAEMU_REPORT_NKINDS];  /* every report, folded or not */
	uint64_t notes[DMAEMU_REPORT_NKINDS]; /* of which notes */
	uint64_t printed[DMAEMU_REPORT_NKINDS]; /* printed */
	uint64_t folded[DMAEMU_REPORT_NKINDS];	/* not printed: folded */
	uint64_t repeats[DMAEMU_REPORT_NKINDS]; /* the checkers' own */
	char *first[DMAEMU_REPORT_NKINDS];	/* the first SUMMARY's place */
};

static uint64_t hash_text(uint64_t h, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ (uint8_t)s[i]) * 0x100000001b3ULL;
	return h;
}

static struct dmaemu__fold *fold_of(struct dmaemu_machine *m)
{
	if (!m->fold)
		m->fold = dmaemu__calloc(1, sizeof(*m->fold));
	return m->fold;
}

/* Count the mapping @id in @k, among the first MAX_MAPS. */
static void fold_map(struct fold_key *k, uint64_t id)
{
	unsigned int i;

	for (i = 0; i < k->nmaps; i++)
		if (k->maps[i] == id)
			return;
	if (k->nmaps == k->mapcap) {
		unsigned int cap = k->mapcap ? k->mapcap * 2 : 16;
		uint64_t *p;

		if (cap > MAX_MAPS)
			return;
		p = dmaemu__realloc(k->maps, cap * sizeof(*p));
		if (!p)
			return;
		k->maps = p;
		k->mapcap = cap;
	}
	k->maps[k->nmaps++] = id;
}

/*
 * Count report @r of @kind_name, whose formatted text is @t (NULL: none),
 * and say whether it is to be printed (report lock held).
 */
static bool fold_note(struct dmaemu_machine *m,
		      const struct dmaemu__report_info *r, const struct text *t)
{
	struct dmaemu__fold *f = fold_of(m);
	const char *place = NULL, *eol;
	struct fold_key *k = NULL;
	size_t plen = 0, klen;
	uint64_t h;
	unsigned int i;

	if (!f)
		return true;
	f->made[r->kind]++;
	if (r->note)
		f->notes[r->kind]++;
	if (t && t->buf && t->summary < t->len) {
		const char *sum = t->buf + t->summary;

		/* "SUMMARY: dmaemu: <kind> <place>" */
		eol = strchr(sum, '\n');
		klen = strlen("SUMMARY: dmaemu: ") +
		       strlen(dmaemu_report_kind_name(r->kind)) + 1;
		if (eol && (size_t)(eol - sum) > klen) {
			place = sum + klen;
			plen = (size_t)(eol - place);
		}
		if (place && !f->first[r->kind]) {
			f->first[r->kind] = dmaemu__malloc(plen + 1);
			if (f->first[r->kind])
				snprintf(f->first[r->kind], plen + 1, "%s",
					 place);
		}
		if (!t->placed)
			place = NULL;
	}
	if (!place) {
		f->printed[r->kind]++;
		return true;
	}
	h = hash_text(0xcbf29ce484222325ULL + (uint64_t)r->kind, place, plen);
	for (i = 0; i < f->n; i++)
		if (f->key[i].hash == h && f->key[i].kind == r->kind &&
		    !strncmp(f->key[i].place, place, plen) &&
		    !f->key[i].place[plen]) {
			k = &f->key[i];
			break;
		}
	if (!k && f->n < MAX_KEYS) {
		if (f->n == f->cap) {
			unsigned int cap = f->cap ? f->cap * 2 : 16;
			struct fold_key *p =
				dmaemu__realloc(f->key, cap * sizeof(*p));

			if (p) {
				f->key = p;
				f->cap = cap;
			}
		}
		if (f->n < f->cap) {
			k = &f->key[f->n];
			memset(k, 0, sizeof(*k));
			k->place = dmaemu__malloc(plen + 1);
			if (k->place) {
				memcpy(k->place, place, plen);
				k->place[plen] = '\0';
				k->kind = r->kind;
				k->hash = h;
				f->n++;
			} else {
				k = NULL;
			}
		}
	}
	if (!k) {
		f->printed[r->kind]++;
		return true;
	}
	k->made++;
	if (r->map_device)
		fold_map(k, hash_text(hash_text(0xcbf29ce484222325ULL,
						r->map_device,
						strlen(r->map_device)),
				      (const char *)&r->map_dma,
				      sizeof(r->map_dma)));
	if (k->made > 1 && m->opt.report_fold) {
		f->folded[r->kind]++;
		return false;
	}
	k->printed++;
	f->printed[r->kind]++;
	return true;
}

/* A printed report that report_limit then held back. */
static void fold_unprint(struct dmaemu_machine *m, enum dmaemu_report_kind kind)
{
	if (m->fold && m->fold->printed[kind])
		m->fold->printed[kind]--;
}

void dmaemu__report_repeats_add(struct dmaemu_machine *m,
				enum dmaemu_report_kind kind, uint64_t n)
{
	struct dmaemu__fold *f;

	if ((unsigned int)kind >= DMAEMU_REPORT_NKINDS || !n)
		return;
	dmaemu__lock(&m->report_lock);
	f = fold_of(m);
	if (f)
		f->repeats[kind] += n;
	dmaemu__unlock(&m->report_lock);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The distinct mappings the places of @kind counted (a mapping reported
 * at two lines counts once); 0 when memory runs out. */
static unsigned int kind_maps(const struct dmaemu__fold *f,
			      enum dmaemu_report_kind kind)
{
	unsigned int j, n = 0, distinct = 0;
	uint64_t *all;

	for (j = 0; j < f->n; j++)
		if (f->key[j].kind == kind)
			n += f->key[j].nmaps;
	if (!n)
		return 0;
	all = dmaemu__malloc(n * sizeof(*all));
	if (!all)
		return 0;
	n = 0;
	for (j = 0; j < f->n; j++)
		if (f->key[j].kind == kind) {
			memcpy(all + n, f->key[j].maps,
			       f->key[j].nmaps * sizeof(*all));
			n += f->key[j].nmaps;
		}
	qsort(all, n, sizeof(*all), cmp_u64);
	for (j = 0; j < n; j++)
		distinct += !j || all[j] != all[j - 1];
	dmaemu__free(all);
	return distinct;
}

/*
 * The exit summary, as Valgrind's ERROR SUMMARY (report lock held):
 *
 *   ==4242==dmaemu: ERROR SUMMARY: 64 reports of 1 kind: 1 printed, 63 folded (report_fold=0 prints each)
 *   ==4242==dmaemu:   64 cpu-access-device-owned at 1 driver line, first at nic.c:302 in nicdrv_recv: 1 printed, 63 folded, over 64 mappings
 *   ==4242==dmaemu: exitcode=3: the process exits with status 3
 */
static void fold_summary(struct dmaemu_machine *m, FILE *out)
{
	struct dmaemu__fold *f = m->fold;
	uint64_t total = 0, printed = 0, folded = 0, notes = 0, errors;
	unsigned int kinds = 0, i, j;
	char pre[DMAEMU__LOG_PREFIX];

	if (!f)
		return;
	for (i = 0; i < DMAEMU_REPORT_NKINDS; i++) {
		total += f->made[i];
		printed += f->printed[i];
		folded += f->folded[i];
		notes += f->notes[i];
		kinds += f->made[i] != 0;
	}
	if (!total)
		return;
	dmaemu__log_prefix(m, pre);
	fprintf(out,
		"%sdmaemu: ERROR SUMMARY: %llu report%s of %u kind%s: %llu "
		"printed, %llu folded%s",
		pre, (unsigned long long)total, total == 1 ? "" : "s", kinds,
		kinds == 1 ? "" : "s", (unsigned long long)printed,
		(unsigned long long)folded,
		folded ? " (report_fold=0 prints each)" : "");
	if (m->report_unprinted)
		fprintf(out, ", %llu past report_limit",
			(unsigned long long)m->report_unprinted);
	if (notes)
		fprintf(out, "; %llu of them portability note%s",
			(unsigned long long)notes, notes == 1 ? "" : "s");
	fputc('\n', out);
	for (i = 0; i < DMAEMU_REPORT_NKINDS; i++) {
		const struct fold_key *first = NULL;
		unsigned int places = 0, maps = 0;

		if (!f->made[i])
			continue;
		bool full = false;

		for (j = 0; j < f->n; j++) {
			if (f->key[j].kind != (enum dmaemu_report_kind)i)
				continue;
			if (!first)
				first = &f->key[j];
			places++;
			full |= f->key[j].nmaps >= MAX_MAPS;
		}
		maps = kind_maps(f, (enum dmaemu_report_kind)i);
		fprintf(out, "%sdmaemu:   %llu %s", pre,
			(unsigned long long)f->made[i],
			dmaemu_report_kind_name((enum dmaemu_report_kind)i));
		if (first)
			fprintf(out, " at %u driver line%s, first at %s",
				places, places == 1 ? "" : "s", first->place);
		else if (f->first[i])
			fprintf(out, ", first at %s", f->first[i]);
		else
			fprintf(out, ", no driver line");
		fprintf(out, ": %llu printed, %llu folded",
			(unsigned long long)f->printed[i],
			(unsigned long long)f->folded[i]);
		if (maps)
			fprintf(out, ", over %u mapping%s%s", maps,
				maps == 1 ? "" : "s", full ? " or more" : "");
		if (f->repeats[i])
			fprintf(out,
				"; %llu repeat%s at the same line and mapping "
				"not reported (report_repeats=%u)",
				(unsigned long long)f->repeats[i],
				f->repeats[i] == 1 ? "" : "s",
				m->opt.report_repeats);
		fputc('\n', out);
	}
	errors = total - notes;
	if (m->opt.exitcode && errors)
		fprintf(out,
			"%sdmaemu: exitcode=%d: the process exits with status "
			"%d at its normal exit\n",
			pre, m->opt.exitcode, m->opt.exitcode);
}

static void fold_free(struct dmaemu_machine *m)
{
	struct dmaemu__fold *f = m->fold;
	unsigned int i;

	if (!f)
		return;
	for (i = 0; i < f->n; i++) {
		dmaemu__free(f->key[i].place);
		dmaemu__free(f->key[i].maps);
	}
	for (i = 0; i < DMAEMU_REPORT_NKINDS; i++)
		dmaemu__free(f->first[i]);
	dmaemu__free(f->key);
	dmaemu__free(f);
	m->fold = NULL;
}

/*
 * The headline as the trace's "text" field: one line, with the newlines,
 * quotes and backslashes of the report escaped (\\n, \\", \\\\).
 * Return: allocated; NULL when memory runs out.
 */
static char *trace_text(const char *head)
{
	struct text t = {.cap = strlen(head) * 2 + 16};
	const char *p;

	t.buf = dmaemu__malloc(t.cap);
	if (!t.buf)
		return NULL;
	t.buf[0] = '\0';
	for (p = head; *p; p++) {
		if (*p == '\n')
			add(&t, "\\n");
		else if (*p == '"' || *p == '\\')
			add(&t, "\\%c", *p);
		else if ((unsigned char)*p < 0x20)
			add(&t, "\\x%02x", (unsigned char)*p);
		else
			add(&t, "%c", *p);
	}
	return t.buf;
}

/*
 * log_stable=1: the formatted report @t with its host addresses written
 * as stable_text() writes them (the stack's frames without debug
 * information too), its part up to the SUMMARY line and the SUMMARY line
 * each on its own, so that ->summary still points at the latter.  Left
 * as it was when memory runs out.
 */
static void stable_report(const struct dmaemu_machine *m, struct text *t)
{
	char c = t->buf[t->summary], *a, *b;
	size_t na, nb;

	t->buf[t->summary] = '\0';
	a = stable_text(m, t->buf);
	t->buf[t->summary] = c;
	b = stable_text(m, t->buf + t->summary);
	if (a && b) {
		char *p;

		na = strlen(a);
		nb = strlen(b);
		p = dmaemu__realloc(a, na + nb + 1);
		if (p) {
			memcpy(p + na, b, nb + 1);
			dmaemu__free(t->buf);
			t->buf = p;
			t->len = na + nb;
			t->cap = na + nb + 1;
			t->summary = na;
			a = NULL;
		}
	}
	dmaemu__free(a);
	dmaemu__free(b);
}

/**
 * dmaemu__vreport() - report an error found by a checker.
 * @m:   machine; NULL means the current one (no report when there is none,
 *       as for a misuse seen before any machine exists).
 * @r:   what and where; ->mask (if any) covers the line holding ->phys and
 *       has ->mask_bits bits (the line size).
 * @fmt: the headline, after "<kind>: " (any length).
 * @ap:  its arguments.
 *
 * Thread-safe.  Applies the policy in the order given at the top of this
 * file: a report of a family that is off is dropped first; a suppressed
 * one is only counted as such; the others are counted, printed (stderr or
 * log_path) unless report_fold or report_limit says no, recorded, traced,
 * and then exitcode and halt_on_error apply.
 */
void dmaemu__vreport(struct dmaemu_machine *m,
		     const struct dmaemu__report_info *r, const char *fmt,
		     va_list ap)
{
	const char *kind = dmaemu_report_kind_name(r->kind);
	const struct dmaemu__call *call = cur_call;
	enum dmaemu__check_family fam;
	const char *in_fn = NULL, *at;
	const void *site = NULL;
	char *head, *stable, *esc, where[256];
	bool print = false;
	struct text *t;
	int rule;

	if (!m)
		m = dmaemu_machine_current();
	if (!m)
		return;
	if ((unsigned int)r->kind >= DMAEMU_REPORT_NKINDS)
		abort();
	fam = dmaemu__check_family_of(r->kind);
	if (fam != DMAEMU__CHECK_ERRORS && !dmaemu__checks_on(m, fam))
		return;
	head = vtext(fmt, ap);
	if (head && m->opt.log_stable) {
		stable = stable_text(m, head);
		dmaemu__free(head);
		head = stable;
	}
	if (!r->where && call) {
		site = call->caller;
		/* The dispatcher's headlines start with the call already. */
		if (call->fn && head &&
		    strncmp(head, call->fn, strlen(call->fn)))
			in_fn = call->fn;
	}

	/* 4 KiB would be a lot of stack for a hook called on any thread. */
	t = dmaemu__malloc(sizeof(*t));
	if (t) {
		t->cap = TEXT_START;
		t->buf = dmaemu__malloc(t->cap);
		if (!t->buf) {
			dmaemu__free(t);
			t = NULL;
		}
	}
	if (t) {
		format(m, t, r, kind, head ? head : "(out of memory)", site,
		       in_fn);
		if (m->opt.log_stable)
			stable_report(m, t);
	}
	/* What the recorded report names, taken before verbosity=0 drops
	 * the "at" line: the report's own ->where, else its "at" text. */
	at = at_text(r, t, where, sizeof(where));
	rule = dmaemu__supp_match(m, r->kind, t ? t->named : NULL,
				  t ? t->nnamed : 0);

	dmaemu__lock(&m->report_lock);
	if (rule >= 0) {
		m->report_suppressed[r->kind]++;
		dmaemu__supp_count(m, rule);
		dmaemu__unlock(&m->report_lock);
		if (t)
			dmaemu__free(t->buf);
		dmaemu__free(t);
		dmaemu__free(head);
		return;
	}
	m->report_counts[r->kind]++;
	m->report_total++;
	if (fold_note(m, r, t)) {
		if (m->opt.report_limit &&
		    m->report_printed >= m->opt.report_limit) {
			m->report_unprinted++;
			fold_unprint(m, r->kind);
		} else if (t) {
			print = true;
		}
	}
	if (print) {
		FILE *out = m->log ? m->log : stderr;

		m->report_printed++;
		fwrite(t->buf, 1, t->summary, out);
		fflush(out);
		if (site || m->opt.verbosity >= 2)
			vg_backtrace(kind);
		fwrite(t->buf + t->summary, 1, t->len - t->summary, out);
		fflush(out);
	}
	dmaemu__unlock(&m->report_lock);
	dmaemu__report_record(m, r, t ? t->buf : NULL, t ? t->len : 0, at);
	if (t)
		dmaemu__free(t->buf);
	dmaemu__free(t);
	esc = head ? trace_text(head) : NULL;
	dmaemu__trace(
		m, DMAEMU__TRACE_REPORT, "report",
		"kind=%s phys=0x%" PRIx64 " len=%zu at=\"%s\" text=\"%s\"",
		kind, r->phys, (size_t)r->size, at ? at : "", esc ? esc : "");
	dmaemu__free(esc);
	dmaemu__free(head);

	if (r->note) /* a portability note is not an error here */
		return;
	if (m->opt.exitcode)
		__atomic_store_n(&exit_status, m->opt.exitcode,
				 __ATOMIC_RELEASE);
	if (m->opt.halt_on_error)
		abort();
}

/** dmaemu__report() - dmaemu__vreport() with its arguments in line. */
void dmaemu__report(struct dmaemu_machine *m,
		    const struct dmaemu__report_info *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	dmaemu__vreport(m, r, fmt, ap);
	va_end(ap);
}

/**
 * dmaemu__reportf() - report with no byte mask and no cause: the form of
 * most misuse reports.
 * @m:    machine; NULL means the current one, as for dmaemu__vreport().
 * @kind: the report kind.
 * @phys: first byte concerned (0 if none).
 * @size: bytes concerned (0: the SUMMARY line names no range).
 * @fmt:  the headline, after "<kind>: ".
 */
void dmaemu__reportf(struct dmaemu_machine *m, enum dmaemu_report_kind kind,
		     uint64_t phys, uint64_t size, const char *fmt, ...)
{
	struct dmaemu__report_info r = {
		.kind = kind, .phys = phys, .size = size};
	va_list ap;

	va_start(ap, fmt);
	dmaemu__vreport(m, &r, fmt, ap);
	va_end(ap);
}

/* The count of @kind (NULL: all) in @counts, report lock held. */
static uint64_t count_of(const uint64_t *counts, const char *kind)
{
	uint64_t n = 0;
	unsigned int i;

	for (i = 0; i < DMAEMU_REPORT_NKINDS; i++)
		if (!kind || !strcmp(kind, report_kind_names[i]))
			n += counts[i];
	return n;
}

uint64_t dmaemu_report_count(struct dmaemu_machine *m, const char *kind)
{
	uint64_t n;

	if (dmaemu__machine_bad(m, "dmaemu_report_count"))
		return 0;
	if (!m)
		return 0;
	dmaemu__lock(&m->report_lock);
	n = kind ? count_of(m->report_counts, kind) : m->report_total;
	dmaemu__unlock(&m->report_lock);
	return n;
}

uint64_t dmaemu_report_suppressed(struct dmaemu_machine *m, const char *kind)
{
	uint64_t n;

	if (dmaemu__machine_bad(m, "dmaemu_report_suppressed"))
		return 0;
	if (!m)
		return 0;
	dmaemu__lock(&m->report_lock);
	n = count_of(m->report_suppressed, kind);
	dmaemu__unlock(&m->report_lock);
	return n;
}

void dmaemu__report_counters_zero(struct dmaemu_machine *m)
{
	memset(m->report_counts, 0, sizeof(m->report_counts));
	memset(m->report_suppressed, 0, sizeof(m->report_suppressed));
	m->report_total = 0;
}

void dmaemu_report_reset(struct dmaemu_machine *m)
{
	if (dmaemu__machine_bad(m, "dmaemu_report_reset"))
		return;
	if (!m)
		return;
	dmaemu__lock(&m->report_lock);
	dmaemu__report_counters_zero(m);
	dmaemu__unlock(&m->report_lock);
}
