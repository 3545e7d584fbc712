// SPDX-License-Identifier: MIT
/*
 * symbolize.c - code addresses in source terms, for reports: the function,
 * source file and line of a return address (with the functions inlined
 * there), and the stack of return addresses above a driver's line.
 *
 * How it works.  One libdwfl session per process (elfutils) knows the
 * modules mapped in the process, from /proc/self/maps, and reads each
 * module's DWARF the first time an address in it is looked up (the
 * program's own, or a separate debug file found by build ID).  A lookup,
 * of the call instruction just before a return address, goes:
 *
 *   1. the module holding the address (the module list is read again once
 *      when none does: a library dlopen()ed since);
 *   2. its compile unit (by the address ranges table, or by each unit's
 *      ranges where there is no such table), and the unit's line table:
 *      file and line of the address;
 *   3. the scopes of the compile unit around it, innermost first: every
 *      inlined subroutine is a frame of its own, whose caller's line is
 *      the inlined instance's call site (DW_AT_call_file, _call_line), up
 *      to the enclosing subprogram.
 *
 *   pc -> module -> CU -> scopes:  inlined peek()      file:line of pc
 *                                  inlined rx_poll()   peek's call site
 *                                  subprogram napi()   rx_poll's call site
 *
 * An address with no line information gives no frame: the caller falls
 * back to what dladdr() knows (report.c).  File names are printed as the
 * compiler was given them: the compilation directory is taken off the
 * front of a path that starts with it.
 *
 * libdw is not thread-safe on one session, and reports come from any
 * thread (driver, interrupt and device threads): one mutex, sym_lock,
 * serialises every use of the session.  It is a leaf of the lock order
 * (core.h): it may be taken with any lock of the library held, and nothing
 * is taken under it.  The session is made on first use and ended by a
 * destructor at exit (nothing stays allocated for Memcheck); a report
 * made after that, by a thread still running, falls back to dladdr().
 *
 * A buggy driver repeats its mistake at the same lines, and a scope walk
 * costs tens of microseconds (a hundred times that under Valgrind): the
 * frames of the last SYM_CACHE addresses looked up are kept, by address,
 * and a repeated lookup copies them.  The cache goes with the session (a
 * module list read again empties it: an address may now be another
 * module's).
 *
 * The stack above a driver's line is unwound with glibc's backtrace()
 * (the unwind tables every module has on x86-64 and arm64), from inside
 * the report, and searched for the line's return address.
 */
#include "config.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <execinfo.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/core.h"

/* Serialises every use of the session (a leaf lock: see above). */
static pthread_mutex_t sym_lock = PTHREAD_MUTEX_INITIALIZER;
static Dwfl *session;	    /* under sym_lock */
static bool session_failed; /* under sym_lock: no session can be made */
static bool session_ended;  /* under sym_lock: the process is exiting */

/* A looked-up address and its frames (all of them up to SYM_FRAMES). */
struct sym_entry {
	Dwarf_Addr pc;
	unsigned int n;
	struct dmaemu__frame f[];
};

#define SYM_CACHE 256 /* entries, direct-mapped by address */
#define SYM_FRAMES 16 /* frames kept per address; deeper asks bypass */
static struct sym_entry *sym_cache[SYM_CACHE]; /* under sym_lock */

static void cache_clear(void)
{
	unsigned int i;

	for (i = 0; i < SYM_CACHE; i++) {
		free(sym_cache[i]);
		sym_cache[i] = NULL;
	}
}

static struct sym_entry **cache_slot(Dwarf_Addr pc)
{
	uint64_t h = (uint64_t)pc * 0x9e3779b97f4a7c15ull;

	return &sym_cache[h >> 56];
}

/*
 * Modules are the files mapped in the process; a module without DWARF of
 * its own is looked up by build ID under /usr/lib/debug/.build-id (where
 * Debian's -dbgsym packages install), never through debuginfod: a report
 * does not wait on the network.
 */
static const Dwfl_Callbacks callbacks = {
	.find_elf = dwfl_linux_proc_find_elf,
	.find_debuginfo = dwfl_build_id_find_debuginfo,
};

/* (Re)read the module list of the process.  Return: 0, or -1. */
static int report_modules(Dwfl *d)
{
	int ret;

	cache_clear();
	dwfl_report_begin(d);
	ret = dwfl_linux_proc_report(d, getpid());
	if (dwfl_report_end(d, NULL, NULL) != 0)
		ret = -1;
	return ret ? -1 : 0;
}

/* The session, made on first use.  sym_lock held. */
static Dwfl *get_session(void)
{
	if (session || session_failed || session_ended)
		return session;
	session = dwfl_begin(&callbacks);
	if (session && report_modules(session)) {
		dwfl_end(session);
		session = NULL;
	}
	session_failed = !session;
	return session;
}

__attribute__((destructor)) static void end_session(void)
{
	dmaemu__lock(&sym_lock);
	if (session)
		dwfl_end(session);
	session = NULL;
	session_ended = true;
	cache_clear();
	dmaemu__unlock(&sym_lock);
}

/* The name of @die, from its abstract origin or specification if need be. */
static const char *die_name(Dwarf_Die *die)
{
	Dwarf_Attribute attr;

	return dwarf_formstring(dwarf_attr_integrate(die, DW_AT_name, &attr));
}

/* @file as the compiler was given it: relative to @comp_dir when in it. */
static const char *as_compiled(const char *file, const char *comp_dir)
{
	size_t n;

	if (!file || !comp_dir)
		return file;
	n = strlen(comp_dir);
	if (n && !strncmp(file, comp_dir, n) && file[n] == '/')
		return file + n + 1;
	return file;
}

static void set_frame(struct dmaemu__frame *f, const char *fn, const char *file,
		      unsigned int line)
{
	snprintf(f->fn, sizeof(f->fn), "%s", fn ? fn : "??");
	snprintf(f->file, sizeof(f->file), "%s", file ? file : "??");
	f->line = line;
}

/*
 * The compile unit of @pc in @mod (*@bias: the module's load bias).  The
 * address ranges table (.debug_aranges) finds it when there is one; Clang
 * writes none, so the units are searched by their own ranges then.
 */
static Dwarf_Die *find_cu(Dwfl_Module *mod, Dwarf_Addr pc, Dwarf_Addr *bias)
{
	Dwarf_Die *cu = dwfl_module_addrdie(mod, pc, bias);

	if (cu)
		return cu;
	while ((cu = dwfl_module_nextcu(mod, cu, bias)))
		if (dwarf_haspc(cu, pc - *bias) > 0)
			return cu;
	return NULL;
}

/*
 * The frames of @pc (an address inside an instruction) in @mod, innermost
 * first.  sym_lock held.  Return: frames filled, 0 without line info.
 */
static unsigned int lookup(Dwfl_Module *mod, Dwarf_Addr pc,
			   struct dmaemu__frame *f, unsigned int max)
{
	Dwarf_Files *files = NULL;
	Dwarf_Die *cu, *scopes = NULL;
	Dwarf_Attribute attr;
	Dwarf_Addr bias = 0;
	Dwarf_Line *ln;
	const char *file, *comp_dir, *fn;
	unsigned int k = 0;
	int lineno = 0, n, i;
	size_t nfiles;

	cu = find_cu(mod, pc, &bias);
	ln = cu ? dwarf_getsrc_die(cu, pc - bias) : NULL;
	if (!ln)
		return 0;
	file = dwarf_linesrc(ln, NULL, NULL);
	if (!file || dwarf_lineno(ln, &lineno) || lineno <= 0)
		return 0;
	comp_dir = dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &attr));
	n = dwarf_getscopes(cu, pc - bias, &scopes);
	if (dwarf_getsrcfiles(cu, &files, &nfiles))
		files = NULL;

	for (i = 0; i < n && k < max; i++) {
		Dwarf_Die *s = &scopes[i], *outer;
		int tag = dwarf_tag(s);
		Dwarf_Word idx, cl;

		if (tag != DW_TAG_subprogram &&
		    tag != DW_TAG_inlined_subroutine)
			continue;
		set_frame(&f[k++], die_name(s), as_compiled(file, comp_dir),
			  (unsigned int)lineno);
		if (tag == DW_TAG_subprogram)
			break;
		/* The caller's line is where this instance was inlined. */
		if (dwarf_formudata(dwarf_attr(s, DW_AT_call_file, &attr),
				    &idx) ||
		    dwarf_formudata(dwarf_attr(s, DW_AT_call_line, &attr),
				    &cl) ||
		    !files)
			break;
		file = dwarf_filesrc(files, idx, NULL, NULL);
		lineno = (int)cl;
		/* The scopes past an inlined instance are those of its
		 * abstract definition: go on with those of the instance. */
		n = dwarf_getscopes_die(s, &outer);
		free(scopes);
		scopes = n > 0 ? outer : NULL;
		i = 0;
	}
	free(scopes); /* malloc()ed by libdw */
	if (k)
		return k;
	/* Line information but no scope (assembly): the symbol's name. */
	fn = dwfl_module_addrname(mod, pc);
	set_frame(&f[0], fn, as_compiled(file, comp_dir), (unsigned int)lineno);
	return 1;
}

/* Lookups made since the process started (dmaemu__symbolize_count()). */
static uint64_t lookups;

uint64_t dmaemu__symbolize_count(void)
{
	return __atomic_load_n(&lookups, __ATOMIC_RELAXED);
}

/**
 * dmaemu__symbolize() - the source frames of a return address.
 * @ret: a return address (the call before it is looked up), or the
 *       address of an instruction plus one.
 * @f:   receives up to @max frames, innermost first: the function the
 *       call is in, then, where that function was inlined, the functions
 *       it was inlined into, with the lines of the inlined calls.
 * @max: size of @f (at least 1).
 *
 * Thread-safe; the first call of the process reads the module list, the
 * first lookup in a module reads its DWARF.
 *
 * Return: the number of frames filled, 0 when @ret has no line
 * information (no debug info, or not in any module).
 */
unsigned int dmaemu__symbolize(const void *ret, struct dmaemu__frame *f,
			       unsigned int max)
{
	Dwarf_Addr pc = (Dwarf_Addr)(uintptr_t)ret - 1;
	struct sym_entry **slot;
	Dwfl_Module *mod;
	unsigned int n = 0;
	Dwfl *d;

	__atomic_fetch_add(&lookups, 1, __ATOMIC_RELAXED);
	if (!ret || !max)
		return 0;
	dmaemu__lock(&sym_lock);
	d = get_session();
	slot = d && max <= SYM_FRAMES ? cache_slot(pc) : NULL;
	if (slot && *slot && (*slot)->pc == pc) {
		n = (*slot)->n < max ? (*slot)->n : max;
		memcpy(f, (*slot)->f, n * sizeof(*f));
	} else if (d) {
		struct dmaemu__frame all[SYM_FRAMES];
		struct sym_entry *e;

		mod = dwfl_addrmodule(d, pc);
		/* A library loaded since the list was read. */
		if (!mod && !report_modules(d))
			mod = dwfl_addrmodule(d, pc);
		if (mod && !slot) {
			n = lookup(mod, pc, f, max);
		} else if (mod) {
			n = lookup(mod, pc, all, SYM_FRAMES);
			e = malloc(sizeof(*e) + n * sizeof(*all));
			if (e) {
				e->pc = pc;
				e->n = n;
				memcpy(e->f, all, n * sizeof(*all));
				free(*slot);
				*slot = e;
			}
			n = n < max ? n : max;
			memcpy(f, all, n * sizeof(*f));
		}
	}
	dmaemu__unlock(&sym_lock);
	return n;
}

/**
 * dmaemu__stack_above() - the return addresses of the calling thread's
 * stack from a driver's line outwards.
 * @site: a return address into the code that made the access or call.
 * @pcs:  receives the return addresses of the frames that called the
 *        function holding @site, innermost first.
 * @max:  size of @pcs.
 *
 * The stack is unwound with backtrace() (the unwind tables of every
 * module) and searched for @site.
 *
 * Return: the number of addresses stored; 0 when @site is not on the
 * current stack (a report on behalf of an earlier call).
 */
unsigned int dmaemu__stack_above(const void *site, const void **pcs,
				 unsigned int max)
{
	void *stack[64];
	int n, i;
	unsigned int k = 0;

	if (!site)
		return 0;
	n = backtrace(stack, 64);
	for (i = 0; i < n && stack[i] != site; i++)
		;
	for (i++; i < n && k < max; i++)
		pcs[k++] = stack[i];
	return k;
}
