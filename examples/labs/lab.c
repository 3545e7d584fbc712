// SPDX-License-Identifier: MIT
/*
 * lab.c - the shared part of the lab programs (lab.h): arguments, the
 * machine, the cache-line pictures and the result line.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <dmaemu/report.h>
#include <dmaemu/testing.h>

#include "lab.h"

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
	snprintf(opts, sizeof(opts), "profile=%s:seed=%llu%s%s%s%s", profile,
		 seed, extra ? ":" : "", extra ? extra : "", more ? ":" : "",
		 more ? more : "");
	lab = calloc(1, sizeof(*lab));
	if (!lab)
		return NULL;
	lab->name = name;
	lab->profile = profile;
	lab->seed = seed;
	lab->m = dmaemu_machine_create(opts);
	if (!lab->m) {
		fprintf(stderr, "%s: cannot create a machine with '%s'\n", name,
			opts);
		free(lab);
		return NULL;
	}
	printf("lab %s (%s variant) on %s, seed %llu\n", name, LAB_VARIANT,
	       profile, seed);
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

static bool use_colour(void)
{
	const char *c = getenv("DMAEMU_LAB_COLOR"), *term = getenv("TERM");

	if (c && !strcmp(c, "never"))
		return false;
	if (getenv("NO_COLOR"))
		return false;
	if (c && !strcmp(c, "always"))
		return true;
	return isatty(STDOUT_FILENO) && term && strcmp(term, "dumb");
}

/*
 * One byte of the picture: '.' nothing to say, 'c' CPU-dirty (its copy is
 * newer than memory), 'd' device-changed (memory is newer than the CPU's
 * copy), '!' both.  Bytes outside the buffer are ' '.
 */
static void show_line(const struct dmaemu_line_state *st, uint64_t lo,
		      uint64_t hi, bool colour)
{
	static const char *const paint[] = {['.'] = "",
					    ['c'] = "\033[30;43m",
					    ['d'] = "\033[30;46m",
					    ['!'] = "\033[97;41m"};
	unsigned int i;

	printf("    0x%09llx %-6s %-3s ", (unsigned long long)st->phys,
	       st->owner == DMAEMU_OWNER_DEVICE ? "device" : "cpu",
	       st->resident ? (st->dirty_levels ? "R+D" : "R") : "-");
	for (i = 0; i < st->line_size; i++) {
		uint64_t p = st->phys + i;
		bool c = dmaemu_line_mask_test(st->cpu_dirty, i);
		bool d = dmaemu_line_mask_test(st->dev_changed, i);
		char ch = c && d ? '!' : c ? 'c' : d ? 'd' : '.';

		if (p < lo || p >= hi)
			ch = ' ';
		if (colour && ch != '.' && ch != ' ')
			printf("%s%c\033[0m", paint[(int)ch], ch);
		else
			putchar(ch);
	}
	putchar('\n');
}

void lab_show(struct lab *lab, const void *addr, size_t len, const char *title)
{
	struct dmaemu_addr_info ai;
	struct dmaemu_line_state st;
	bool colour = use_colour();
	uint64_t p, end;

	fflush(stdout);
	printf("\n  %s\n", title);
	if (dmaemu_addr_info(addr, &ai) || ai.machine != lab->m ||
	    ai.region == DMAEMU_REGION_NONE ||
	    ai.region == DMAEMU_REGION_MMIO || !len) {
		printf("    (not memory of this machine)\n\n");
		return;
	}
	end = ai.phys + len;
	printf("    %-11s %-6s %-3s bytes of the line: . same  c CPU-dirty"
	       "  d device-changed  ! both\n",
	       "line", "owner", "$");
	for (p = ai.phys; p < end; p = st.phys + st.line_size) {
		if (dmaemu_line_state(lab->m, p, &st))
			break;
		show_line(&st, ai.phys, end, colour);
	}
	putchar('\n');
	fflush(stdout);
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
