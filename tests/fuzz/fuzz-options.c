// SPDX-License-Identifier: MIT
/*
 * fuzz-options.c - option strings through dmaemu_machine_create(), split
 * between the program's string and DMAEMU_OPTIONS.
 *
 * The input is the program's option string, then optionally a NUL and
 * the value of DMAEMU_OPTIONS (cut at the next NUL); DMAEMU_OPTIONS is
 * unset when the input has no NUL.  Every documented key
 * (docs/options.md) can appear in either.  Paths (log_path, trace,
 * suppressions) are kept inside a private directory the target works in:
 * an input whose path names a directory (a '/' in the value) is skipped
 * unless the value is /dev/null; the files an input creates there are
 * removed after it, but for "supp", a suppressions file with one rule
 * that the target writes at start.
 *
 * Invariants:
 *  - a bad string gives NULL with errno set, never a crash or a leak
 *    (ASan's leak checker runs at the end of every fuzzing session);
 *  - the split does not matter: DMAEMU_OPTIONS applies after the
 *    program's string, so the two parts build a machine exactly when
 *    their join "STRING:ENV" given alone does, and the same machine;
 *  - a good machine prints back (dmaemu_machine_option() of every
 *    documented key) as a string that builds the same machine again: the
 *    same value for every key.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <dmaemu/machine.h>

#define OPTS_MAX 512

/* Every key of docs/options.md. */
static const char *const keys[] = {
	"profile",
	"mem",
	"mem_base",
	"highmem",
	"highmem_base",
	"cache_size",
	"cache_ways",
	"cache_line",
	"cache_policy",
	"dma_minalign",
	"wc_buffers",
	"wc_size",
	"prefetch",
	"prefetch_rate",
	"stats",
	"seed",
	"sched",
	"halt_on_error",
	"exitcode",
	"report_repeats",
	"report_fold",
	"log_stable",
	"report_limit",
	"help",
	"verbosity",
	"ordering",
	"portability_notes",
	"posted_writes",
	"device_timing",
	"checks",
	"suppressions",
	"log_path",
	"unmap_history",
	"report_keep",
	"iommu",
	"swiotlb",
	"swiotlb_size",
	"dma_offset",
	"map_policy",
	"iommu_strict",
	"failslab",
	"fail_page_alloc",
	"fail_dma_alloc",
	"fail_dma_pool",
	"fail_dma_map",
	"fail_verbose",
	"trace",
	"trace_format",
	"trace_events",
	"trace_buffer",
};
#define NKEYS (sizeof(keys) / sizeof(keys[0]))
#define VAL_MAX 300 /* a path is < 256 bytes */

static char workdir[64];
static int home = -1; /* the directory the target started in */

/* Abort where libFuzzer was started, so its artifact lands there. */
static void die(void)
{
	if (home >= 0 && fchdir(home) != 0)
		fputs("fuzz-options: cannot go back\n", stderr);
	abort();
}

/* Into the working directory, and back: libFuzzer's own files (the
 * corpus, artifacts) stay relative to where it was started. */
static void into_workdir(void)
{
	if (chdir(workdir))
		abort();
}

static void back_home(void)
{
	if (fchdir(home))
		abort();
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void clean_workdir(void);

/* At exit: the working directory goes. */
static void remove_workdir(void)
{
	clean_workdir();
	if (*workdir) {
		char supp[96];

		snprintf(supp, sizeof(supp), "%s/supp", workdir);
		unlink(supp);
		rmdir(workdir);
	}
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	FILE *f;

	(void)argc;
	(void)argv;
	unsetenv("DMAEMU_OPTIONS");
	snprintf(workdir, sizeof(workdir), "%s/fuzz-options.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	home = open(".", O_RDONLY | O_DIRECTORY);
	if (home < 0 || strlen(workdir) >= sizeof(workdir) - 1 ||
	    !mkdtemp(workdir))
		die();
	into_workdir();
	f = fopen("supp", "w");
	if (!f || fputs("{\n  one\n  kind:stale-cpu-read\n}\n", f) < 0 ||
	    fclose(f))
		die();
	back_home();
	atexit(remove_workdir);
	return 0;
}

/* Remove what the last input created in the working directory. */
static void clean_workdir(void)
{
	DIR *d = opendir(workdir);
	struct dirent *e;

	if (!d)
		die();
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
		    strcmp(e->d_name, "supp"))
			unlinkat(dirfd(d), e->d_name, 0);
	closedir(d);
}

/* Does @s give a path key a value outside the working directory? */
static bool path_outside(const char *s)
{
	static const char *const pk[] = {
		"log_path=", "trace=", "suppressions="};
	size_t i;
	const char *p;

	for (i = 0; i < sizeof(pk) / sizeof(pk[0]); i++) {
		for (p = strstr(s, pk[i]); p; p = strstr(p + 1, pk[i])) {
			const char *v = p + strlen(pk[i]);
			size_t n = strcspn(v, ":");

			if (memchr(v, '/', n) &&
			    !(n == 9 && !strncmp(v, "/dev/null", 9)))
				return true;
		}
	}
	return false;
}

/* The value of every key of @m, in *@vals, and as one option string. */
static void print_back(struct dmaemu_machine *m, char vals[][VAL_MAX], char *s,
		       size_t len)
{
	size_t i, o = 0;
	int n;

	for (i = 0; i < NKEYS; i++) {
		if (dmaemu_machine_option(m, keys[i], vals[i], VAL_MAX) != 0) {
			fprintf(stderr, "fuzz-options: key %s unknown\n",
				keys[i]);
			die(); /* a documented key the machine does not know */
		}
		n = snprintf(s + o, len - o, "%s%s=%s", i ? ":" : "", keys[i],
			     vals[i]);
		if (n < 0 || (size_t)n >= len - o)
			die();
		o += (size_t)n;
	}
}

static void compare(const char *what, const char *opts, const char *env,
		    char a[][VAL_MAX], char b[][VAL_MAX])
{
	size_t i;

	for (i = 0; i < NKEYS; i++) {
		if (strcmp(a[i], b[i]) != 0) {
			fprintf(stderr,
				"fuzz-options: '%s' with DMAEMU_OPTIONS '%s': "
				"%s: %s '%s' then '%s'\n",
				opts, env ? env : "(unset)", what, keys[i],
				a[i], b[i]);
			die();
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char a[NKEYS][VAL_MAX], b[NKEYS][VAL_MAX];
	static char again[NKEYS * (VAL_MAX + 24)];
	char opts[OPTS_MAX + 1], joined[OPTS_MAX + 2];
	const char *env = NULL;
	struct dmaemu_machine *m, *m2;
	int err;

	if (size > OPTS_MAX)
		return -1; /* not added to the corpus */
	memcpy(opts, data, size);
	opts[size] = '\0';
	if (strlen(opts) < size)
		env = opts + strlen(opts) + 1; /* cut at its own NUL */
	if (path_outside(opts) || (env && path_outside(env)))
		return -1;
	snprintf(joined, sizeof(joined), "%s:%s", opts, env ? env : "");

	into_workdir();
	if (env)
		setenv("DMAEMU_OPTIONS", env, 1);
	errno = 0;
	m = dmaemu_machine_create(opts);
	err = errno;
	unsetenv("DMAEMU_OPTIONS");
	if (!m && err == 0)
		die(); /* NULL without a reason */

	/* The same options in one string. */
	errno = 0;
	m2 = dmaemu_machine_create(joined);
	if (!m2 && errno == 0)
		die();
	if (!m != !m2) {
		fprintf(stderr,
			"fuzz-options: '%s' with DMAEMU_OPTIONS '%s' %s, "
			"'%s' %s\n",
			opts, env ? env : "(unset)",
			m ? "builds a machine" : "is refused", joined,
			m2 ? "builds one" : "is refused");
		die();
	}
	if (!m) {
		back_home();
		clean_workdir();
		return 0;
	}
	print_back(m, a, again, sizeof(again));
	dmaemu_machine_destroy(m);
	print_back(m2, b, again, sizeof(again));
	dmaemu_machine_destroy(m2);
	compare("split and joined", opts, env, a, b);

	/* What it prints must build the same machine. */
	m2 = dmaemu_machine_create(again);
	if (!m2) {
		back_home();
		fprintf(stderr,
			"fuzz-options: '%s' with DMAEMU_OPTIONS '%s' built a "
			"machine that prints as '%s', which is refused\n",
			opts, env ? env : "(unset)", again);
		die();
	}
	print_back(m2, b, again, sizeof(again));
	dmaemu_machine_destroy(m2);
	back_home();
	compare("printed back", opts, env, a, b);
	clean_workdir();
	return 0;
}
