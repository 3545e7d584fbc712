// SPDX-License-Identifier: MIT
/*
 * check-machine.c - machines: options (every key, every kind of bad value,
 * DMAEMU_OPTIONS precedence), several machines, the current machine, the
 * registry, exitcode and halt_on_error, the exit summary, and reports
 * that are never cut (log and trace).
 */
#include "config.h"

/* A white-box suite, compiled as the library is: no API-level marker
 * (<dmaemu/level.h>), so it may create machines at either level. */
#define DMAEMU__LIBRARY 1

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check-run.h"
#include "dma/dma.h"

/* Run dmaemu_machine_create(@opts) with stderr captured into @msg. */
static struct dmaemu_machine *create_captured(const char *opts, char *msg,
					      size_t len)
{
	struct dmaemu_machine *m;
	FILE *tmp = tmpfile();
	int saved, n;

	ck_assert_ptr_nonnull(tmp);
	fflush(stderr);
	saved = dup(2);
	ck_assert_int_ge(saved, 0);
	ck_assert_int_ge(dup2(fileno(tmp), 2), 0);
	m = dmaemu_machine_create(opts);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	n = (int)fread(msg, 1, len - 1, tmp);
	msg[n > 0 ? n : 0] = '\0';
	fclose(tmp);
	return m;
}

static int count_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static void expect_option(struct dmaemu_machine *m, const char *key,
			  const char *want)
{
	char buf[300];

	ck_assert_int_eq(dmaemu_machine_option(m, key, buf, sizeof(buf)), 0);
	ck_assert_msg(!strcmp(buf, want), "%s is '%s', expected '%s'", key, buf,
		      want);
}

/*
 * DMAEMU_OPTIONS=@value, through putenv() and a static buffer: setenv()
 * copies are never freed by glibc, which Memcheck would count as leaks.
 */
static void set_env(const char *value)
{
	static char env[256];

	snprintf(env, sizeof(env), "DMAEMU_OPTIONS=%s", value);
	ck_assert_int_eq(putenv(env), 0);
}

static void setup(void)
{
	unsetenv("DMAEMU_OPTIONS");
}

START_TEST(test_defaults)
{
	struct dmaemu_machine *m = dmaemu_machine_create(NULL);
	char buf[8];

	ck_assert_ptr_nonnull(m);
	expect_option(m, "profile", "arm64");
	expect_option(m, "mem", "256M");
	expect_option(m, "mem_base", "0x80000000");
	expect_option(m, "highmem", "0");
	expect_option(m, "highmem_base", "0x100000000");
	expect_option(m, "cache_size", "32K");
	expect_option(m, "cache_ways", "4");
	expect_option(m, "cache_line", "64");
	expect_option(m, "cache_policy", "lru");
	expect_option(m, "dma_minalign", "128"); /* arm64 4.14 */
	expect_option(m, "wc_buffers", "4");
	expect_option(m, "wc_size", "64");
	expect_option(m, "prefetch", "0");
	expect_option(m, "prefetch_rate", "256");
	expect_option(m, "seed", "1");
	expect_option(m, "halt_on_error", "0");
	expect_option(m, "exitcode", "0");
	expect_option(m, "log_path", "");
	ck_assert_int_eq(dmaemu_machine_option(m, "nope", buf, sizeof(buf)),
			 -ENOENT);
	ck_assert_uint_eq(m->nbanks, 1);
	ck_assert_uint_eq(m->bank[0].phys, 0x80000000ULL);
	ck_assert_uint_eq(m->bank[0].size, 256ULL << 20);
	ck_assert_uint_eq(m->line, 64);
	dmaemu_machine_destroy(m);
}
END_TEST

START_TEST(test_every_key)
{
	char path[] = "/tmp/dmaemu-check-machine-XXXXXX";
	char opts[512];
	struct dmaemu_machine *m;
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	close(fd);
	snprintf(opts, sizeof(opts),
		 "profile=arm:mem=64m:mem_base=0x100000:highmem=32M:"
		 "highmem_base=0x200000000:cache_size=16k:cache_ways=2:"
		 "cache_line=32:cache_policy=plru:dma_minalign=128:"
		 "wc_buffers=8:wc_size=128:prefetch=1:prefetch_rate=10:"
		 "seed=0xdead:halt_on_error=0:exitcode=3:log_path=%s",
		 path);
	m = dmaemu_machine_create(opts);
	ck_assert_ptr_nonnull(m);
	expect_option(m, "profile", "arm");
	expect_option(m, "mem", "64M");
	expect_option(m, "mem_base", "0x100000");
	expect_option(m, "highmem", "32M");
	expect_option(m, "highmem_base", "0x200000000");
	expect_option(m, "cache_size", "16K");
	expect_option(m, "cache_ways", "2");
	expect_option(m, "cache_line", "32");
	expect_option(m, "cache_policy", "plru");
	expect_option(m, "dma_minalign", "128");
	expect_option(m, "wc_buffers", "8");
	expect_option(m, "wc_size", "128");
	expect_option(m, "prefetch", "1");
	expect_option(m, "prefetch_rate", "10");
	expect_option(m, "seed", "57005");
	expect_option(m, "halt_on_error", "0");
	expect_option(m, "exitcode", "3");
	expect_option(m, "log_path", path);
	ck_assert_uint_eq(m->nbanks, 2);
	ck_assert_uint_eq(m->bank[1].phys, 0x200000000ULL);
	ck_assert_uint_eq(m->bank[1].size, 32ULL << 20);
	ck_assert_uint_eq(m->line, 32);
	ck_assert_uint_eq(m->line_shift, 5);
	ck_assert_ptr_nonnull(m->log);
	dmaemu_machine_destroy(m);
	unlink(path);
}
END_TEST

/* Every spelling of a boolean (docs/options.md). */
START_TEST(test_bool_spellings)
{
	static const char *const spell[] = {"1", "on",	"true",	 "yes",
					    "0", "off", "false", "no"};
	char opts[64];
	unsigned int i;

	for (i = 0; i < 8; i++) {
		struct dmaemu_machine *m;

		snprintf(opts, sizeof(opts), "mem=16M:prefetch=%s", spell[i]);
		m = dmaemu_machine_create(opts);
		ck_assert_msg(m, "%s refused", opts);
		expect_option(m, "prefetch", i < 4 ? "1" : "0");
		dmaemu_machine_destroy(m);
	}
}
END_TEST

START_TEST(test_profile_defaults)
{
	struct dmaemu_machine *m = dmaemu_machine_create("profile=x86:mem=16M");

	ck_assert_ptr_nonnull(m);
	expect_option(m, "cache_ways", "8");
	dmaemu_machine_destroy(m);
	/* An explicit value beats the profile's default, in any order. */
	m = dmaemu_machine_create("cache_ways=2:profile=x86:mem=16M");
	ck_assert_ptr_nonnull(m);
	expect_option(m, "cache_ways", "2");
	dmaemu_machine_destroy(m);
	m = dmaemu_machine_create("cache_line=128:profile=arm:mem=16M");
	ck_assert_ptr_nonnull(m);
	expect_option(m, "dma_minalign", "128");
	expect_option(m, "cache_size", "32K");
	dmaemu_machine_destroy(m);
}
END_TEST

/* Each bad string and the key its message must name. */
static const struct {
	const char *opts;
	const char *key;
} bad[] = {
	{"profile=sparc", "profile"},
	{"profile=", "profile"},
	{"mem=abc", "mem"},
	{"mem=12q", "mem"},
	{"mem=-1", "mem"},
	{"mem=4097", "mem"}, /* not a page multiple */
	{"mem=5G", "mem"},   /* more than 4 GiB */
	{"mem=0", "mem"},
	{"mem=3G", "mem"}, /* 0x80000000 + 3G crosses 4 GiB */
	{"mem=99999999999999999999999", "mem"},
	{"mem_base=0x123", "mem_base"},
	{"mem_base=0xzz", "mem_base"},
	{"mem_base=0x", "mem_base"},
	{"mem_base=0xF0000000:mem=512M", "mem"},
	{"highmem=1000", "highmem"},
	{"highmem_base=0x80000000", "highmem_base"},
	{"highmem_base=0x100000001", "highmem_base"},
	{"cache_size=100", "cache_size"},
	{"cache_size=48k:cache_ways=4", "cache_size"},
	{"cache_size=1G", "cache_size"},
	{"cache_ways=0", "cache_ways"},
	{"cache_ways=65", "cache_ways"},
	{"cache_ways=3:cache_size=12k:cache_policy=plru", "cache_ways"},
	{"cache_line=48", "cache_line"},
	{"cache_line=8", "cache_line"},
	{"cache_line=512", "cache_line"},
	{"cache_policy=mru", "cache_policy"},
	{"dma_minalign=3", "dma_minalign"},
	{"dma_minalign=8192", "dma_minalign"},
	{"wc_buffers=0", "wc_buffers"},
	{"wc_size=100", "wc_size"},
	{"prefetch=2", "prefetch"},
	{"prefetch=maybe", "prefetch"},
	{"prefetch_rate=0", "prefetch_rate"},
	{"seed=x", "seed"},
	{"halt_on_error=yesplease", "halt_on_error"},
	{"exitcode=256", "exitcode"},
	{"exitcode=-1", "exitcode"},
};

START_TEST(test_bad_values)
{
	char msg[1024], want[64];
	struct dmaemu_machine *m;

	m = create_captured(bad[_i].opts, msg, sizeof(msg));
	ck_assert_msg(!m, "'%s' was accepted", bad[_i].opts);
	ck_assert_msg(count_lines(msg) == 1, "'%s': not one line: %s",
		      bad[_i].opts, msg);
	ck_assert_msg(!strncmp(msg, "dmaemu: options: bad value '", 28),
		      "'%s': %s", bad[_i].opts, msg);
	snprintf(want, sizeof(want), " for '%s'", bad[_i].key);
	ck_assert_msg(strstr(msg, want), "'%s' does not name %s: %s",
		      bad[_i].opts, bad[_i].key, msg);
}
END_TEST

START_TEST(test_bad_syntax)
{
	struct dmaemu__options o;
	char msg[1024], longpath[400];
	struct dmaemu_machine *m;

	m = create_captured("foo=1", msg, sizeof(msg));
	ck_assert_ptr_null(m);
	ck_assert_str_eq(msg, "dmaemu: options: unknown option 'foo' (help=1 "
			      "lists the options)\n");

	m = create_captured("mem", msg, sizeof(msg));
	ck_assert_ptr_null(m);
	ck_assert_msg(strstr(msg, "'mem'") && count_lines(msg) == 1, "%s", msg);

	m = create_captured("mem=abc", msg, sizeof(msg));
	ck_assert_ptr_null(m);
	ck_assert_msg(
		!strncmp(msg, "dmaemu: options: bad value 'abc' for 'mem'", 42),
		"%s", msg);

	memset(longpath, 'a', sizeof(longpath));
	memcpy(longpath, "log_path=/", 10);
	longpath[sizeof(longpath) - 1] = '\0';
	m = create_captured(longpath, msg, sizeof(msg));
	ck_assert_ptr_null(m);
	ck_assert_msg(strstr(msg, "for 'log_path' (path too long)"), "%s", msg);

	m = create_captured("log_path=/nonexistent-dir/x.log", msg,
			    sizeof(msg));
	ck_assert_ptr_null(m);
	ck_assert_msg(strstr(msg, "dmaemu: options: cannot open log_path") &&
			      count_lines(msg) == 1,
		      "%s", msg);

	/* Empty items are allowed (a trailing ':'), an empty string too. */
	m = create_captured("seed=2:mem=16M::", msg, sizeof(msg));
	ck_assert_ptr_nonnull(m);
	ck_assert_str_eq(msg, "");
	expect_option(m, "seed", "2");
	dmaemu_machine_destroy(m);
	ck_assert_int_eq(
		dmaemu__options_build(&o, NULL, "", NULL, msg, sizeof(msg)), 0);
	ck_assert_uint_eq(o.mem, 256ULL << 20);
}
END_TEST

START_TEST(test_env_precedence)
{
	char msg[1024];
	struct dmaemu_machine *m;

	/* The environment wins over the program's string, as ASAN_OPTIONS
	 * wins over a program's compiled-in defaults... */
	set_env("mem=64M:seed=5:cache_policy=fifo");
	m = create_captured("seed=7:mem=64M:cache_ways=8", msg, sizeof(msg));
	ck_assert_ptr_nonnull(m);
	expect_option(m, "mem", "64M");
	expect_option(m, "seed", "5");
	expect_option(m, "cache_policy", "fifo");
	expect_option(m, "cache_ways", "8");
	ck_assert_str_eq(dmaemu__option_origin(&m->opt, "seed"),
			 "DMAEMU_OPTIONS");
	ck_assert_str_eq(dmaemu__option_origin(&m->opt, "cache_ways"),
			 "options");
	dmaemu_machine_destroy(m);
	/* ...and says so in one line, naming only the keys both set to
	 * different values (mem is 64M in both). */
	ck_assert_msg(count_lines(msg) == 1 &&
			      strstr(msg, "==dmaemu: DMAEMU_OPTIONS overrides "
					  "the program's options: seed=5 (the "
					  "program's: 7)\n"),
		      "%s", msg);

	/* Values compare as the machine reads them: 65536 is 64K. */
	set_env("cache_size=64K:seed=0x7");
	m = create_captured("cache_size=65536:seed=7", msg, sizeof(msg));
	ck_assert_ptr_nonnull(m);
	ck_assert_str_eq(msg, "");
	dmaemu_machine_destroy(m);

	/* Several keys: one line all the same. */
	set_env("seed=5:profile=x86:checks=api");
	m = create_captured("profile=arm:seed=7:checks=-api", msg, sizeof(msg));
	ck_assert_ptr_nonnull(m);
	expect_option(m, "profile", "x86");
	expect_option(m, "checks", "api");
	dmaemu_machine_destroy(m);
	ck_assert_msg(count_lines(msg) == 1 &&
			      strstr(msg, "overrides the program's options: "
					  "profile=x86 (the program's: arm), "
					  "seed=5 (the program's: 7), "
					  "checks=api (the program's: "
					  "coherence,platform)\n"),
		      "%s", msg);

	/* Nothing from the program: nothing to say. */
	set_env("seed=5");
	m = create_captured(NULL, msg, sizeof(msg));
	ck_assert_ptr_nonnull(m);
	ck_assert_str_eq(msg, "");
	expect_option(m, "seed", "5");
	dmaemu_machine_destroy(m);

	/* The line goes where the reports go. */
	{
		char path[] = "/tmp/dmaemu-check-machine-XXXXXX";
		char opts[300], buf[512];
		int fd = mkstemp(path);
		ssize_t n;

		ck_assert_int_ge(fd, 0);
		snprintf(opts, sizeof(opts), "log_path=%s:seed=9", path);
		m = create_captured(opts, msg, sizeof(msg));
		ck_assert_ptr_nonnull(m);
		dmaemu_machine_destroy(m);
		ck_assert_str_eq(msg, "");
		n = read(fd, buf, sizeof(buf) - 1);
		buf[n > 0 ? n : 0] = '\0';
		ck_assert_msg(strstr(buf, "seed=5 (the program's: 9)"), "%s",
			      buf);
		close(fd);
		unlink(path);
	}

	set_env("foo=1");
	m = create_captured("seed=1", msg, sizeof(msg));
	ck_assert_ptr_null(m);
	ck_assert_str_eq(msg, "dmaemu: DMAEMU_OPTIONS: unknown option 'foo' "
			      "(help=1 lists the options)\n");

	set_env("mem=xyz");
	m = create_captured(NULL, msg, sizeof(msg));
	ck_assert_ptr_null(m);
	ck_assert_msg(!strncmp(msg,
			       "dmaemu: DMAEMU_OPTIONS: bad value 'xyz' for "
			       "'mem'",
			       49),
		      "%s", msg);

	/* A conflict between stages blames the later one, the
	 * environment... */
	set_env("mem=2M");
	m = create_captured("mem_base=0xFFF00000", msg, sizeof(msg));
	ck_assert_ptr_null(m);
	ck_assert_msg(strstr(msg, "dmaemu: DMAEMU_OPTIONS: bad value '2M' for "
				  "'mem'"),
		      "%s", msg);
	/* ...only the program's string: it is named... */
	unsetenv("DMAEMU_OPTIONS");
	m = create_captured("mem_base=0xFFF00000", msg, sizeof(msg));
	ck_assert_ptr_null(m);
	ck_assert_msg(strstr(msg, "dmaemu: options: bad value "
				  "'0xfff00000' for 'mem_base'"),
		      "%s", msg);
	/* ...and the environment can repair what the program set. */
	set_env("mem=1M");
	m = create_captured("mem_base=0xFFF00000", msg, sizeof(msg));
	ck_assert_ptr_nonnull(m);
	expect_option(m, "mem_base", "0xfff00000");
	expect_option(m, "mem", "1M");
	dmaemu_machine_destroy(m);
	unsetenv("DMAEMU_OPTIONS");
}
END_TEST

/* A key or a value that is a typing error away from a known one. */
static const struct {
	const char *opts, *msg;
} typos[] = {
	{"cache_lines=64", "unknown option 'cache_lines' (did you mean "
			   "'cache_line'?)"},
	{"Seed=3", "unknown option 'Seed' (did you mean 'seed'?)"},
	{"halt_on_eror=1", "unknown option 'halt_on_eror' (did you mean "
			   "'halt_on_error'?)"},
	{"swiotbl=force", "unknown option 'swiotbl' (did you mean "
			  "'swiotlb'?)"},
	{"frobnicate=1", "unknown option 'frobnicate' (help=1 lists the "
			 "options)"},
	{"profile=arm46", "bad value 'arm46' for 'profile' (expected arm, "
			  "arm64 or x86; did you mean 'arm64'?)"},
	{"profile=X86", "(expected arm, arm64 or x86; did you mean 'x86'?)"},
	{"profile=sparc", "bad value 'sparc' for 'profile' (expected arm, "
			  "arm64 or x86)"},
	{"sched=lockstpe", "(expected threads or lockstep; did you mean "
			   "'lockstep'?)"},
	{"swiotlb=forced", "did you mean 'force'?)"},
	{"cache_policy=lur", "did you mean 'lru'?)"},
	{"prefetch=ture", "bad value 'ture' for 'prefetch' (expected 0 or 1 "
			  "(off or on, false or true, no or yes); did you "
			  "mean 'true'?)"},
	{"prefetch=2", "for 'prefetch' (expected 0 or 1 (off or on, false or "
		       "true, no or yes))"},
	{"checks=-coherance,api", "did you mean '-coherence,api'?)"},
	{"checks=+platfrom", "did you mean '+platform'?)"},
	{"checks=-coherence,bogus", "each may have - or + before it)"},
	{"trace_events=dma,devices", "did you mean 'dma,device'?)"},
	{"mem=64MB", "bad value '64MB' for 'mem' (not a number; did you mean "
		     "'64M'?)"},
	{"cache_size=64KiB", "did you mean '64K'?)"},
	{"mem=64GB", "bad value '64GB' for 'mem' (not a number)"},
};

START_TEST(test_did_you_mean)
{
	char msg[1024];
	struct dmaemu_machine *m;

	m = create_captured(typos[_i].opts, msg, sizeof(msg));
	ck_assert_msg(!m, "'%s' was accepted", typos[_i].opts);
	ck_assert_msg(count_lines(msg) == 1 && strstr(msg, typos[_i].msg) &&
			      strstr(msg, ")\n"),
		      "'%s': %s", typos[_i].opts, msg);
	ck_assert_msg(!strncmp(msg, "dmaemu: options: ", 17), "%s", msg);
}
END_TEST

/* help=1: every key of the table, its default and what it does. */
START_TEST(test_help)
{
	char *msg = malloc(16384), *p, line[256];
	struct dmaemu_machine *m;
	unsigned int n = 0;

	ck_assert_ptr_nonnull(msg);
	set_env("help=1:seed=3");
	m = create_captured("profile=x86:cache_line=64", msg, 16384);
	ck_assert_ptr_nonnull(m);
	expect_option(m, "help", "1");
	unsetenv("DMAEMU_OPTIONS");
	ck_assert_msg(strstr(msg, "KEY=DEFAULT (profile=x86)"), "%s", msg);
	/* The defaults of the machine's profile... */
	ck_assert_msg(strstr(msg, "\n    cache_ways=8 "), "%s", msg);
	ck_assert_msg(strstr(msg, "\n    dma_minalign=1 "), "%s", msg);
	ck_assert_msg(strstr(msg, "\n    mem=256M "), "%s", msg);
	/* ...what was set to something else, and by whom; a key set to its
	 * default says nothing more. */
	ck_assert_msg(strstr(msg, "\n    seed=1 ") &&
			      strstr(msg, " [DMAEMU_OPTIONS: 3]\n"),
		      "%s", msg);
	ck_assert_msg(strstr(msg, "\n    cache_line=64 ") &&
			      !strstr(msg, "[options: 64]"),
		      "%s", msg);
	/* A line per key, each with a meaning. */
	for (p = msg; (p = strstr(p, "\n    ")); p++) {
		char key[64], val[200], *eq;

		ck_assert(sscanf(p + 5, "%255[^\n]", line) == 1);
		eq = strchr(line, '=');
		ck_assert_msg(
			eq && sscanf(line, "%63[a-z0-9_]=%199s", key, val) >= 1,
			"%s", line);
		ck_assert_msg(strlen(line) > 26 && line[25] != ' ' &&
				      !strstr(line, "(see docs/options.md)"),
			      "no meaning: %s", line);
		ck_assert_msg(!dmaemu_machine_option(m, key, val, sizeof(val)),
			      "help names an unknown key: %s", line);
		n++;
	}
	/* man-drift.sh holds the list to the table of options.c. */
	ck_assert_uint_ge(n, 40);
	dmaemu_machine_destroy(m);
	free(msg);
}
END_TEST

START_TEST(test_several_machines)
{
	struct dmaemu_machine *a, *b, *c;
	struct dmaemu__where w;

	ck_assert_ptr_null(dmaemu_machine_current());
	a = dmaemu_machine_create("mem=16M");
	ck_assert_ptr_eq(dmaemu_machine_current(), a);
	b = dmaemu_machine_create("mem=16M");
	ck_assert_ptr_eq(dmaemu_machine_current(), b);
	c = dmaemu_machine_create("mem=16M");
	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	ck_assert_ptr_nonnull(c);
	ck_assert_ptr_eq(dmaemu_machine_current(), c);

	/* Each address belongs to its own machine. */
	ck_assert(dmaemu__classify(a->bank[0].cpu + 100, &w));
	ck_assert_ptr_eq(w.m, a);
	ck_assert(dmaemu__classify(b->bank[0].cpu + 100, &w));
	ck_assert_ptr_eq(w.m, b);
	ck_assert(dmaemu__classify(c->bank[0].mem, &w));
	ck_assert_ptr_eq(w.m, c);

	dmaemu_machine_set_current(a);
	ck_assert_ptr_eq(dmaemu_machine_current(), a);
	dmaemu_machine_destroy(c); /* not current: nothing changes */
	ck_assert_ptr_eq(dmaemu_machine_current(), a);
	dmaemu_machine_destroy(a); /* current: the newest survivor takes over */
	ck_assert_ptr_eq(dmaemu_machine_current(), b);
	dmaemu_machine_set_current(NULL);
	ck_assert_ptr_null(dmaemu_machine_current());
	c = dmaemu_machine_create("mem=16M");
	ck_assert_ptr_eq(dmaemu_machine_current(), c);
	dmaemu_machine_destroy(c);
	ck_assert_ptr_eq(dmaemu_machine_current(), b);
	dmaemu_machine_destroy(b);
	ck_assert_ptr_null(dmaemu_machine_current());
	dmaemu_machine_destroy(NULL);
}
END_TEST

START_TEST(test_destroy_unregisters)
{
	struct dmaemu_machine *m = dmaemu_machine_create("mem=16M");
	uint8_t *cpu, *mmio;
	struct dmaemu__where w;

	ck_assert_ptr_nonnull(m);
	cpu = m->bank[0].cpu;
	mmio = m->mmio;
	ck_assert(dmaemu__in_span(cpu));
	ck_assert_ptr_eq(dmaemu__machine_of_addr(mmio), m);
	dmaemu_machine_destroy(m);
	/* No machine left: the span is empty, nothing classifies. */
	ck_assert(!dmaemu__in_span(cpu));
	ck_assert(!dmaemu__classify(cpu, &w));
	ck_assert_ptr_null(w.m);
	ck_assert_ptr_null(dmaemu__machine_of_addr(mmio));
}
END_TEST

/* Make one report on a new machine in a child; return its wait status. */
static int child_report(const char *opts, bool report)
{
	pid_t pid;
	int status;

	fflush(NULL);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct dmaemu_machine *m = dmaemu_machine_create(opts);
		struct dmaemu__report_info r = {
			.kind = DMAEMU_REPORT_BAD_ARGUMENT,
		};

		if (!m)
			_exit(99);
		if (report)
			dmaemu__report(m, &r, "test report");
		dmaemu_machine_destroy(m);
		exit(0); /* normal exit: atexit handlers run */
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	return status;
}

START_TEST(test_exitcode)
{
	int st;

	st = child_report("mem=16M:exitcode=7:log_path=/dev/null", true);
	ck_assert(WIFEXITED(st));
	ck_assert_int_eq(WEXITSTATUS(st), 7);
	st = child_report("mem=16M:exitcode=7:log_path=/dev/null", false);
	ck_assert(WIFEXITED(st));
	ck_assert_int_eq(WEXITSTATUS(st), 0);
	st = child_report("mem=16M:log_path=/dev/null", true);
	ck_assert(WIFEXITED(st));
	ck_assert_int_eq(WEXITSTATUS(st), 0);
}
END_TEST

START_TEST(test_halt_on_error)
{
	int st;

	st = child_report("mem=16M:halt_on_error=1:log_path=/dev/null", true);
	ck_assert(WIFSIGNALED(st));
	ck_assert_int_eq(WTERMSIG(st), SIGABRT);
	st = child_report("mem=16M:halt_on_error=1:log_path=/dev/null", false);
	ck_assert(WIFEXITED(st));
	ck_assert_int_eq(WEXITSTATUS(st), 0);
}
END_TEST

START_TEST(test_report_counts)
{
	struct dmaemu_machine *m =
		dmaemu_machine_create("mem=16M:log_path=/dev/null");
	struct dmaemu__report_info r = {.kind = DMAEMU_REPORT_BAD_FREE};
	unsigned int k;

	ck_assert_ptr_nonnull(m);
	dmaemu__report(m, &r, "one");
	dmaemu__report(m, &r, "two");
	r.kind = DMAEMU_REPORT_STALE_CPU_READ;
	dmaemu__report(m, &r, "three");
	ck_assert_uint_eq(dmaemu_report_count(m, "bad-free"), 2);
	ck_assert_uint_eq(dmaemu_report_count(m, "stale-cpu-read"), 1);
	ck_assert_uint_eq(dmaemu_report_count(m, "lost-cpu-write"), 0);
	ck_assert_uint_eq(dmaemu_report_count(m, "no-such-kind"), 0);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 3);
	for (k = 0; k < DMAEMU_REPORT_NKINDS; k++)
		ck_assert_str_ne(dmaemu_report_kind_name(k), "?");
	ck_assert_str_eq(dmaemu_report_kind_name(DMAEMU_REPORT_NKINDS), "?");
	dmaemu_report_reset(m);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 0);
	ck_assert_uint_eq(dmaemu_report_count(m, "bad-free"), 0);
	dmaemu_machine_destroy(m);
}
END_TEST

/* The whole of file @path, allocated (the caller frees it). */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	ck_assert_int_ge(n, 0);
	rewind(f);
	buf = malloc((size_t)n + 1);
	ck_assert_ptr_nonnull(buf);
	ck_assert_uint_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/*
 * In a child, a machine with @opts (and its log in @log) makes @n reports
 * (a note when @note), is destroyed, and the child exits normally.
 * Return: its wait status.
 */
static int child_summary(const char *opts, const char *log, int n, bool note)
{
	char full[512];
	pid_t pid;
	int status;

	snprintf(full, sizeof(full), "mem=16M:log_path=%s%s%s", log,
		 opts[0] ? ":" : "", opts);
	fflush(NULL);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct dmaemu_machine *m = dmaemu_machine_create(full);
		struct dmaemu__report_info r = {
			.kind = DMAEMU_REPORT_BAD_FREE,
			.note = note,
		};
		int i;

		if (!m)
			_exit(99);
		for (i = 0; i < n; i++)
			dmaemu__report(m, &r, "test report %d", i);
		dmaemu_machine_destroy(m);
		exit(0); /* normal exit: atexit handlers run */
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	return status;
}

/*
 * The exit summary at machine destroy, when reports were made: the kinds,
 * their counts and first places; with exitcode=N, that the process exits
 * with N, which it does.  No report: no summary, exit status 0.
 */
START_TEST(test_exit_summary)
{
	char path[] = "/tmp/dmaemu-check-summary-XXXXXX";
	int fd = mkstemp(path), st;
	char *log;

	ck_assert_int_ge(fd, 0);
	close(fd);
	st = child_summary("exitcode=7", path, 3, false);
	ck_assert(WIFEXITED(st));
	ck_assert_int_eq(WEXITSTATUS(st), 7);
	log = slurp(path);
	ck_assert_ptr_nonnull(strstr(log, "dmaemu: ERROR SUMMARY: 3 reports of "
					  "1 kind: 3 printed, 0 folded\n"));
	ck_assert_ptr_nonnull(strstr(log, "dmaemu:   3 bad-free, no driver "
					  "line: 3 printed, 0 folded\n"));
	ck_assert_ptr_nonnull(strstr(log, "dmaemu: exitcode=7: the process "
					  "exits with status 7 at its normal "
					  "exit\n"));
	/* The summary comes last, after the reports. */
	ck_assert(strstr(log, "ERROR SUMMARY") >
		  strstr(log, "SUMMARY: dmaemu: bad-free"));
	free(log);

	/* Without exitcode: the summary, and the status left alone. */
	ck_assert_int_eq(truncate(path, 0), 0);
	st = child_summary("", path, 1, false);
	ck_assert(WIFEXITED(st));
	ck_assert_int_eq(WEXITSTATUS(st), 0);
	log = slurp(path);
	ck_assert_ptr_nonnull(strstr(log, "dmaemu: ERROR SUMMARY: 1 report of "
					  "1 kind: 1 printed, 0 folded\n"));
	ck_assert_ptr_null(strstr(log, "exitcode"));
	free(log);

	/* A portability note is counted, and sets no exit status. */
	ck_assert_int_eq(truncate(path, 0), 0);
	st = child_summary("exitcode=7", path, 1, true);
	ck_assert(WIFEXITED(st));
	ck_assert_int_eq(WEXITSTATUS(st), 0);
	log = slurp(path);
	ck_assert_ptr_nonnull(
		strstr(log, "dmaemu: ERROR SUMMARY: 1 report of 1 kind: 1 "
			    "printed, 0 folded; 1 of them portability note\n"));
	ck_assert_ptr_null(strstr(log, "exitcode"));
	free(log);

	/* No report: nothing at all. */
	ck_assert_int_eq(truncate(path, 0), 0);
	st = child_summary("exitcode=7", path, 0, false);
	ck_assert(WIFEXITED(st));
	ck_assert_int_eq(WEXITSTATUS(st), 0);
	log = slurp(path);
	ck_assert_str_eq(log, "");
	free(log);
	unlink(path);
}
END_TEST

/*
 * A report is never cut: a headline of 6000 bytes is printed whole, with
 * its SUMMARY line after it, and the recorded text holds the first
 * DMAEMU_REPORT_TEXT_MAX - 1 bytes.  The report trace event (text form)
 * is one line, newlines and quotes escaped, never cut.
 */
START_TEST(test_long_report)
{
	char path[] = "/tmp/dmaemu-check-long-XXXXXX";
	char trace[] = "/tmp/dmaemu-check-trace-XXXXXX";
	char opts[256], *head, *log, *line;
	struct dmaemu__report_info r = {.kind = DMAEMU_REPORT_BAD_FREE};
	struct dmaemu_machine *m;
	struct dmaemu_report rec;
	int fd = mkstemp(path), tfd = mkstemp(trace);
	const size_t n = 6000;

	ck_assert_int_ge(fd, 0);
	ck_assert_int_ge(tfd, 0);
	close(fd);
	close(tfd);
	head = malloc(n + 1);
	ck_assert_ptr_nonnull(head);
	memset(head, 'x', n);
	memcpy(head + n - 4, "END.", 4);
	head[n] = '\0';
	snprintf(opts, sizeof(opts),
		 "mem=16M:log_path=%s:trace=%s:trace_events=report", path,
		 trace);
	m = dmaemu_machine_create(opts);
	ck_assert_ptr_nonnull(m);
	dmaemu__report(m, &r, "%s", head);
	dmaemu__report(m, &r, "first line \"quoted\"\n    second line %s",
		       head);
	ck_assert_int_eq(dmaemu_report_get(m, 0, &rec), 0);
	ck_assert_uint_eq(strlen(rec.text), DMAEMU_REPORT_TEXT_MAX - 1);
	ck_assert_ptr_nonnull(strstr(rec.text, "ERROR: dmaemu: bad-free: xxx"));
	dmaemu_machine_destroy(m);

	log = slurp(path);
	line = strstr(log, "xxxxEND.\nSUMMARY: dmaemu: bad-free\n");
	ck_assert_ptr_nonnull(line);
	ck_assert_ptr_nonnull(strstr(line + 1, "xxxxEND.\nSUMMARY: dmaemu: "
					       "bad-free\n"));
	ck_assert_ptr_nonnull(strstr(log, "first line \"quoted\"\n    second "
					  "line xxx"));
	free(log);

	log = slurp(trace);
	ck_assert_int_eq(count_lines(log), 2);
	line = strstr(log, "report: kind=bad-free");
	ck_assert_ptr_nonnull(line);
	ck_assert_ptr_nonnull(strstr(line, "xxxxEND.\"\n"));
	ck_assert_ptr_nonnull(strstr(log, "text=\"first line \\\"quoted\\\""
					  "\\n    second line xxx"));
	ck_assert_ptr_nonnull(
		strstr(strstr(log, "first line"), "xxxxEND.\"\n"));
	free(log);
	free(head);
	unlink(path);
	unlink(trace);
}
END_TEST

/*
 * kernel=: 4.14 by default; 6.12 makes Linux 6.12's arm64 map (always a
 * clean: map_policy=5.19) the arm64 default, and refuses map_policy=4.14
 * there; other profiles keep their maintenance.
 */
static struct dmaemu__options m_opt;

START_TEST(test_kernel_level)
{
	struct dmaemu_machine *m;
	char err[512];
	FILE *f;

	m = dmaemu_machine_create(NULL);
	ck_assert_ptr_nonnull(m);
	expect_option(m, "kernel", "4.14");
	expect_option(m, "map_policy", "4.14");
	ck_assert(!m->opt.map_clean);
	dmaemu_machine_destroy(m);
	m = dmaemu_machine_create("kernel=6.12");
	ck_assert_ptr_nonnull(m);
	expect_option(m, "kernel", "6.12");
	expect_option(m, "map_policy", "5.19");
	ck_assert(m->opt.map_clean);
	dmaemu_machine_destroy(m);
	m = dmaemu_machine_create("kernel=6.12:map_policy=5.19");
	ck_assert_ptr_nonnull(m);
	dmaemu_machine_destroy(m);
	m = dmaemu_machine_create("kernel=6.12:profile=arm");
	ck_assert_ptr_nonnull(m);
	expect_option(m, "map_policy", "4.14");
	dmaemu_machine_destroy(m);
	m = dmaemu_machine_create("kernel=6.12:profile=x86");
	ck_assert_ptr_nonnull(m);
	dmaemu_machine_destroy(m);

	/* map_policy=4.14 is not 6.12's arm64; kernel=5.10 is no level. */
	f = freopen("/dev/null", "w", stderr);
	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_null(
		dmaemu_machine_create("kernel=6.12:map_policy=4.14"));
	ck_assert_ptr_null(dmaemu_machine_create("kernel=5.10"));
	ck_assert_int_eq(dmaemu__options_build(&m_opt, NULL,
					       "kernel=6.12:map_policy=4.14",
					       NULL, err, sizeof(err)),
			 -EINVAL);
	ck_assert_str_eq(err, "options: bad value '4.14' for 'map_policy' "
			      "(kernel=6.12's arm64 map always cleans: "
			      "map_policy=4.14 needs kernel=4.14)");
	ck_assert_int_eq(dmaemu__options_build(&m_opt, NULL, "kernel=5.10",
					       NULL, err, sizeof(err)),
			 -EINVAL);
	ck_assert_str_eq(err, "options: bad value '5.10' for 'kernel' "
			      "(expected 4.14 or 6.12)");
}
END_TEST

static Suite *machine_suite(void)
{
	Suite *s = suite_create("machine");
	TCase *tc = tcase_create("machine");

	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_defaults);
	tcase_add_test(tc, test_every_key);
	tcase_add_test(tc, test_kernel_level);
	tcase_add_test(tc, test_bool_spellings);
	tcase_add_test(tc, test_profile_defaults);
	tcase_add_loop_test(tc, test_bad_values, 0,
			    (int)(sizeof(bad) / sizeof(bad[0])));
	tcase_add_test(tc, test_bad_syntax);
	tcase_add_test(tc, test_env_precedence);
	tcase_add_loop_test(tc, test_did_you_mean, 0,
			    (int)(sizeof(typos) / sizeof(typos[0])));
	tcase_add_test(tc, test_help);
	tcase_add_test(tc, test_several_machines);
	tcase_add_test(tc, test_destroy_unregisters);
	tcase_add_test(tc, test_exitcode);
	tcase_add_test(tc, test_halt_on_error);
	tcase_add_test(tc, test_report_counts);
	tcase_add_test(tc, test_exit_summary);
	tcase_add_test(tc, test_long_report);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(machine_suite());
}
