// SPDX-License-Identifier: MIT
/*
 * lab.c - the shared part of the lab programs (lab.h): arguments, the
 * machine, the cache-line pictures (the library's printer,
 * <dmaemu/seeing.h>) and the result line.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dmaemu/level.h>
#include <dmaemu/report.h>
#include <dmaemu/seeing.h>
#include <dmaemu/testing.h>

#include "lab.h"

/*
 * A lab built at the Linux 6.12 level (dmaemu-cc --dmaemu-kernel=6.12,
 * as dmaemu-lab run --kernel 6.12 builds it) runs on a machine of that
 * level: the machine's level must be the headers' (<dmaemu/level.h>).
 */
#if DMAEMU_KERNEL == 612
#define LAB_LEVEL_OPTION ":kernel=6.12"
#else
#define LAB_LEVEL_OPTION ""
#endif

static void usage(const char *name)
{
	fprintf(stderr,
		"usage: %s [--profile arm|arm64|x86] [--seed N] "
		"[--options STR]\n",
		name);
}

struct lab *lab_start(const char *name, int argc, char **argv,
		      const char *extra)
{
	const char *profile = "arm64", *more = NULL;
	unsigned long long seed = 1;
	char opts[512];
	struct lab *lab;
	int i;

	/*
	 * Reports go to stderr as they happen; with stdout line-buffered,
	 * they land between the lines that led to them even when both go to
	 * one pipe (dmaemu-lab).
	 */
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 1; i < argc; i += 2) { /* each option takes a value */
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		char *end;

		if (!strcmp(a, "--profile") && v) {
			profile = v;
		} else if (!strcmp(a, "--seed") && v) {
			seed = strtoull(v, &end, 0);
			if (!*v || *end) {
				fprintf(stderr, "%s: bad seed '%s'\n", name, v);
				return NULL;
			}
		} else if (!strcmp(a, "--options") && v) {
			more = v;
		} else {
			usage(name);
			return NULL;
		}
	}
	if (strcmp(profile, "arm") && strcmp(profile, "arm64") &&
	    strcmp(profile, "x86")) {
		fprintf(stderr, "%s: unknown profile '%s' (arm, arm64, x86)\n",
			name, profile);
		return NULL;
	}
	snprintf(opts, sizeof(opts), "profile=%s:seed=%llu%s%s%s%s%s", profile,
		 seed, LAB_LEVEL_OPTION, extra ? ":" : "", extra ? extra : "",
		 more ? ":" : "", more ? more : "");
	lab = calloc(1, sizeof(*lab));
	if (!lab) {
		fprintf(stderr, "%s: calloc(): %s\n", name, strerror(errno));
		return NULL;
	}
	lab->name = name;
	lab->profile = profile;
	lab->seed = seed;
	lab->m = dmaemu_machine_create(opts);
	if (!lab->m) {
		fprintf(stderr, "%s: dmaemu_machine_create(\"%s\"): %s\n", name,
			opts, strerror(errno));
		free(lab);
		return NULL;
	}
	printf("lab %s (%s variant) on %s, seed %llu%s\n", name, LAB_VARIANT,
	       profile, seed, DMAEMU_KERNEL == 612 ? ", Linux 6.12" : "");
	return lab;
}

void lab_say(const char *fmt, ...)
{
	va_list ap;

	fputs("    ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
}

/* DMAEMU_LAB_COLOR=never|always, else the library's choice (a terminal,
 * NO_COLOR unset); NO_COLOR wins over "always". */
static int colour_mode(void)
{
	const char *c = getenv("DMAEMU_LAB_COLOR");

	if (getenv("NO_COLOR") || (c && !strcmp(c, "never")))
		return DMAEMU_COLOUR_NEVER;
	if (c && !strcmp(c, "always"))
		return DMAEMU_COLOUR_ALWAYS;
	return DMAEMU_COLOUR_AUTO;
}

/*
 * With DMAEMU_LAB_SVG=DIR, each picture is also written as
 * DIR/NAME-VARIANT-N.svg (N counting the pictures from 1), so the buggy
 * and the fixed variant's pictures can be set side by side.
 */
static void write_svg(struct lab *lab, uint64_t phys, size_t len,
		      const char *title)
{
	const char *dir = getenv("DMAEMU_LAB_SVG");
	char path[4096];
	FILE *f;

	if (!dir || !*dir)
		return;
	snprintf(path, sizeof(path), "%s/%s-%s-%u.svg", dir, lab->name,
		 LAB_VARIANT, ++lab->pictures);
	f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "%s: cannot write %s\n", lab->name, path);
		return;
	}
	if (dmaemu_line_map_svg(lab->m, phys, len, title, f) < 0)
		fprintf(stderr, "%s: cannot draw %s\n", lab->name, path);
	if (fclose(f))
		fprintf(stderr, "%s: cannot write %s\n", lab->name, path);
}

void lab_show(struct lab *lab, const void *addr, size_t len, const char *title)
{
	struct dmaemu_addr_info ai;

	fflush(stdout);
	printf("\n  %s\n", title);
	if (dmaemu_addr_info(addr, &ai) || ai.machine != lab->m ||
	    ai.region == DMAEMU_REGION_NONE ||
	    ai.region == DMAEMU_REGION_MMIO || !len) {
		printf("    (not memory of this machine)\n\n");
		return;
	}
	fflush(stdout);
	if (dmaemu_line_map_print(lab->m, ai.phys, len, stdout, colour_mode()) <
	    0)
		printf("    (cannot draw these lines)\n");
	write_svg(lab, ai.phys, len, title);
	putchar('\n');
	fflush(stdout);
}

int lab_fail(const struct lab *lab, const char *call, int err)
{
	fprintf(stderr, "%s: %s: %s\n", lab->name, call,
		strerror(err < 0 ? -err : err));
	return 2;
}

int lab_finish(struct lab *lab, bool data_ok)
{
	unsigned long long n = dmaemu_report_count(lab->m, NULL);

	fflush(stdout);
	fflush(stderr);
	printf("lab: %s %s on %s: %s, %llu report%s\n", lab->name, LAB_VARIANT,
	       lab->profile, data_ok ? "data right" : "data WRONG", n,
	       n == 1 ? "" : "s");
	dmaemu_machine_destroy(lab->m);
	free(lab);
	return 0;
}
