// SPDX-License-Identifier: MIT
/*
 * main.c - the cachesim command: replay a memory-access trace through a
 * simulated cache hierarchy and print its statistics.
 *
 * How it works: options build a struct cachesim_config (one to three
 * levels); the trace reader (trace.c) decodes records in batches of
 * BATCH; each batch is optionally filtered (--data-only), copied to the
 * conversion outputs (--write-bin, --write-din) and replayed: runs of
 * accesses go to cachesim_access_many(), din labels 4/5/6 to the
 * maintenance calls, label 3 is only counted.  --demo replays a trace generated in memory instead of a
 * file, in phases, and prints what each phase did.
 *
 * Exit status: 0 success, 1 bad or unreadable trace, 2 usage error or
 * impossible geometry, 3 output error (conversion file, standard output,
 * memory).  Every error is one line on stderr starting "cachesim: ".
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cachesim.h"
#include "trace.h"

#define PROG "cachesim"
#define BATCH 4096 /* records decoded and replayed at a time */

/* The din labels of accesses are the simulator's operations. */
_Static_assert((int)TRACE_READ == (int)CACHESIM_READ &&
		       (int)TRACE_WRITE == (int)CACHESIM_WRITE &&
		       (int)TRACE_IFETCH == (int)CACHESIM_IFETCH,
	       "din access labels are enum cachesim_op values");
#define CLI_LEVELS 3

enum exit_code {
	EXIT_OK = 0,
	EXIT_TRACE = 1,
	EXIT_USAGE = 2,
	EXIT_OUTPUT = 3,
};

/* Defaults of the levels below L1 (L1's come from cachesim_config_init). */
static const unsigned int level_default_ways[CLI_LEVELS] = {8, 8, 16};
static const unsigned int level_default_latency[CLI_LEVELS] = {4, 12, 40};
static const char *const level_names[CLI_LEVELS] = {"L1", "L2", "L3"};

/* Options of one level as given on the command line. */
struct level_opts {
	bool size_set;
	bool ways_set;
	bool ways_full; /* -a full: size / line ways */
	bool line_set;
	const char *ways_opt; /* option names, for messages */
	const char *line_opt;
	uint64_t size;
	unsigned int ways;
	unsigned int line;
};

struct opts {
	struct level_opts lvl[CLI_LEVELS];
	enum cachesim_policy policy;
	enum cachesim_write_policy write_policy;
	uint64_t seed;
	bool seed_set;
	enum trace_format format;
	bool data_only;
	bool json;
	bool demo;
	const char *write_bin;
	const char *write_din;
	const char *input; /* NULL: stdin */
};

/* What the replay saw, by record kind. */
struct tally {
	uint64_t kinds[TRACE_NKINDS];
	uint64_t dropped; /* instruction fetches removed by --data-only */
	uint64_t modifies;
};

/* An output of --write-bin / --write-din. */
struct sink {
	const char *path;
	struct trace_writer *w;
};

static struct sink sinks[2];
static unsigned int nsinks;

static void die(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));

/* Print one line "cachesim: ..." and exit; conversion outputs are removed
 * so that a failed run leaves no half-written trace behind. */
static void die(int code, const char *fmt, ...)
{
	char msg[1024];
	unsigned int i;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fflush(stdout);
	fprintf(stderr, PROG ": %s\n", msg);
	for (i = 0; i < nsinks; i++) {
		if (strcmp(sinks[i].path, "-") != 0)
			unlink(sinks[i].path);
	}
	exit(code);
}

/* ------------------------------------------------------------------ */
/* --help                                                              */
/* ------------------------------------------------------------------ */

static const char help_text[] =
	"NAME\n"
	"    cachesim - replay a memory-access trace through a cache "
	"simulator\n"
	"\n"
	"SYNOPSIS\n"
	"    cachesim [OPTION]... [FILE]\n"
	"    cachesim --demo [OPTION]...\n"
	"\n"
	"DESCRIPTION\n"
	"    Reads a trace of memory accesses and cache-maintenance "
	"operations\n"
	"    from FILE (standard input when FILE is absent or -), replays "
	"it\n"
	"    through a simulated hierarchy of one to three cache levels and\n"
	"    prints the statistics of each level.\n"
	"\n"
	"CACHE OPTIONS\n"
	"    -s, --size SIZE       L1 capacity: bytes, or a number with k, m "
	"or g\n"
	"                          (32k, 1m); default 32k\n"
	"    -a, --ways N          L1 associativity; 1 is direct-mapped, "
	"'full' is\n"
	"                          fully associative; default 8\n"
	"    -l, --line BYTES      L1 line size, a power of two >= 4; "
	"default 64\n"
	"    -p, --policy P        replacement policy of every level: lru "
	"(default),\n"
	"                          plru (tree pseudo-LRU), fifo, random\n"
	"        --seed N          seed of the random policy; default 1\n"
	"    -w, --write-policy W  write policy of every level: wb-wa "
	"(write-back,\n"
	"                          write-allocate; default), wt-wa, wt-nwa\n"
	"                          (write-through, no-write-allocate)\n"
	"        --l2-size SIZE    add an L2 of SIZE bytes\n"
	"        --l2-ways N       L2 associativity; default 8\n"
	"        --l2-line BYTES   L2 line size; default the L1 line size\n"
	"        --l3-size SIZE    add an L3 (needs an L2)\n"
	"        --l3-ways N       L3 associativity; default 16\n"
	"        --l3-line BYTES   L3 line size; default the L2 line size\n"
	"    Simulated cycles: a hit costs 4 (L1), 12 (L2) or 40 (L3), memory "
	"100.\n"
	"\n"
	"TRACE OPTIONS\n"
	"    -f, --format F        din, bin or lackey; default: bin if the "
	"input\n"
	"                          starts with the binary magic, lackey if "
	"its\n"
	"                          first line looks like Lackey's, else din\n"
	"        --data-only       drop instruction fetches (din label 2, "
	"Lackey I)\n"
	"        --write-bin OUT   also write the replayed records to OUT in "
	"the\n"
	"                          binary format (- : standard output, and "
	"no\n"
	"                          statistics are printed)\n"
	"        --write-din OUT   the same in din text\n"
	"        --demo            replay a built-in trace (a matrix walked "
	"three\n"
	"                          ways, a copy, a hot loop, DMA maintenance)\n"
	"\n"
	"OUTPUT OPTIONS\n"
	"        --json            one JSON object instead of the table\n"
	"    -h, --help            this text\n"
	"    -V, --version         the version\n"
	"\n"
	"TRACE FORMATS\n"
	"    din     one record per line: LABEL ADDRESS [SIZE]; ADDRESS in "
	"hex with\n"
	"            or without 0x, SIZE in decimal (or 0x hex), default 1.\n"
	"            Labels: 0 read, 1 write, 2 instruction fetch, 3 misc "
	"(counted,\n"
	"            not simulated), 4 clean (write back the dirty lines of\n"
	"            [ADDRESS, ADDRESS+SIZE), keep them), 5 invalidate (drop "
	"them,\n"
	"            discarding dirty data), 6 flush (clean, then "
	"invalidate).\n"
	"            Blank lines and lines starting with # are skipped.\n"
	"    lackey  valgrind --tool=lackey --trace-mem=yes --log-file=OUT: "
	"'I  a,s'\n"
	"            fetch, ' L a,s' load, ' S a,s' store, ' M a,s' modify "
	"(a read\n"
	"            then a write of the same bytes); ==PID== lines are "
	"skipped.\n"
	"    bin     16-byte header (magic CSIMTRC\\0, u16 version 1, u16 "
	"record\n"
	"            size 16, u32 flags 0), then 16-byte records (u64 "
	"address,\n"
	"            u32 size, u8 din label, 3 zero bytes), little-endian.\n"
	"    An access that straddles lines is one access; it misses once if "
	"any\n"
	"    of its lines misses.\n"
	"\n"
	"EXIT STATUS\n"
	"    0 success; 1 unreadable or malformed trace (the message names "
	"the\n"
	"    line, or the record of a bin trace); 2 bad option or impossible\n"
	"    geometry; 3 output error.\n"
	"\n"
	"EXAMPLES\n"
	"    cachesim --demo\n"
	"    cachesim -s 32k -a 8 -l 64 trace.din\n"
	"    cachesim -s 32k --l2-size 1m --json trace.din\n"
	"    valgrind --tool=lackey --trace-mem=yes --log-file=lk.out ./prog\n"
	"    cachesim --data-only lk.out\n"
	"    cachesim --write-bin trace.bin trace.din; cachesim trace.bin\n"
	"\n"
	"    See docs/cachesim.md for the full description.\n";

/* ------------------------------------------------------------------ */
/* Options                                                             */
/* ------------------------------------------------------------------ */

enum {
	OPT_SEED = 256,
	OPT_L2_SIZE,
	OPT_L2_WAYS,
	OPT_L2_LINE,
	OPT_L3_SIZE,
	OPT_L3_WAYS,
	OPT_L3_LINE,
	OPT_DATA_ONLY,
	OPT_WRITE_BIN,
	OPT_WRITE_DIN,
	OPT_JSON,
	OPT_DEMO,
};

static const struct option long_options[] = {
	{"size", required_argument, NULL, 's'},
	{"ways", required_argument, NULL, 'a'},
	{"line", required_argument, NULL, 'l'},
	{"policy", required_argument, NULL, 'p'},
	{"seed", required_argument, NULL, OPT_SEED},
	{"write-policy", required_argument, NULL, 'w'},
	{"l2-size", required_argument, NULL, OPT_L2_SIZE},
	{"l2-ways", required_argument, NULL, OPT_L2_WAYS},
	{"l2-line", required_argument, NULL, OPT_L2_LINE},
	{"l3-size", required_argument, NULL, OPT_L3_SIZE},
	{"l3-ways", required_argument, NULL, OPT_L3_WAYS},
	{"l3-line", required_argument, NULL, OPT_L3_LINE},
	{"format", required_argument, NULL, 'f'},
	{"data-only", no_argument, NULL, OPT_DATA_ONLY},
	{"write-bin", required_argument, NULL, OPT_WRITE_BIN},
	{"write-din", required_argument, NULL, OPT_WRITE_DIN},
	{"json", no_argument, NULL, OPT_JSON},
	{"demo", no_argument, NULL, OPT_DEMO},
	{"help", no_argument, NULL, 'h'},
	{"version", no_argument, NULL, 'V'},
	{NULL, 0, NULL, 0},
};

static const char short_options[] = ":s:a:l:p:w:f:hV";

/* Strict unsigned decimal: digits only, no sign, no overflow past @max. */
static int parse_uint(const char *s, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		if (v > (max - (uint64_t)(*s - '0')) / 10)
			return -1;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*out = v;
	return 0;
}

static void opt_size(struct level_opts *l, const char *name, const char *arg)
{
	if (cachesim_parse_size(arg, &l->size) < 0)
		die(EXIT_USAGE,
		    "bad %s '%s' (expected bytes, or a number with k, m or g)",
		    name, arg);
	l->size_set = true;
}

static void opt_ways(struct level_opts *l, const char *name, const char *arg)
{
	uint64_t v;

	l->ways_opt = name;
	if (strcmp(arg, "full") == 0) {
		l->ways_full = true;
		l->ways_set = true;
		return;
	}
	if (parse_uint(arg, UINT_MAX, &v) < 0 || v == 0)
		die(EXIT_USAGE,
		    "bad %s '%s' (expected a number >= 1 or 'full')", name,
		    arg);
	l->ways = (unsigned int)v;
	l->ways_full = false;
	l->ways_set = true;
}

static void opt_line(struct level_opts *l, const char *name, const char *arg)
{
	uint64_t v;

	l->line_opt = name;
	if (parse_uint(arg, UINT_MAX, &v) < 0 || v == 0)
		die(EXIT_USAGE, "bad %s '%s' (expected a number of bytes)",
		    name, arg);
	l->line = (unsigned int)v;
	l->line_set = true;
}

/*
 * Name the option getopt_long() rejected, as the user typed it.  A long
 * option has advanced optind past itself; a short one is in optopt (a
 * cluster like -xy may not have advanced optind yet).
 */
static void bad_option(int c, int argc, char **argv)
{
	const char *arg = c == ':' ? argv[argc - 1] : argv[optind - 1];
	int len;

	if (arg && strncmp(arg, "--", 2) == 0 &&
	    (optopt == 0 || optopt > 255 || strchr(short_options, optopt))) {
		len = (int)strcspn(arg, "=");
		if (c == ':')
			die(EXIT_USAGE, "option '%.*s' needs a value", len,
			    arg);
		if (optopt && arg[len] == '=')
			die(EXIT_USAGE, "option '%.*s' takes no value", len,
			    arg);
		die(EXIT_USAGE, "unknown option '%s'", arg);
	}
	if (c == ':')
		die(EXIT_USAGE, "option '-%c' needs a value", optopt);
	if (optopt > ' ' && optopt < 127)
		die(EXIT_USAGE, "unknown option '-%c'", optopt);
	die(EXIT_USAGE, "unknown option");
}

static void parse_options(int argc, char **argv, struct opts *o)
{
	int c;

	memset(o, 0, sizeof(*o));
	o->format = TRACE_AUTO;
	opterr = 0;
	while ((c = getopt_long(argc, argv, short_options, long_options,
				NULL)) != -1) {
		switch (c) {
		case 's':
			opt_size(&o->lvl[0], "--size", optarg);
			break;
		case 'a':
			opt_ways(&o->lvl[0], "--ways", optarg);
			break;
		case 'l':
			opt_line(&o->lvl[0], "--line", optarg);
			break;
		case OPT_L2_SIZE:
			opt_size(&o->lvl[1], "--l2-size", optarg);
			break;
		case OPT_L2_WAYS:
			opt_ways(&o->lvl[1], "--l2-ways", optarg);
			break;
		case OPT_L2_LINE:
			opt_line(&o->lvl[1], "--l2-line", optarg);
			break;
		case OPT_L3_SIZE:
			opt_size(&o->lvl[2], "--l3-size", optarg);
			break;
		case OPT_L3_WAYS:
			opt_ways(&o->lvl[2], "--l3-ways", optarg);
			break;
		case OPT_L3_LINE:
			opt_line(&o->lvl[2], "--l3-line", optarg);
			break;
		case 'p':
			if (cachesim_parse_policy(optarg, &o->policy) < 0)
				die(EXIT_USAGE,
				    "unknown --policy '%s' (expected lru, "
				    "plru, "
				    "fifo or random)",
				    optarg);
			break;
		case 'w':
			if (cachesim_parse_write_policy(optarg,
							&o->write_policy) < 0)
				die(EXIT_USAGE,
				    "unknown --write-policy '%s' (expected "
				    "wb-wa, wt-wa or wt-nwa)",
				    optarg);
			break;
		case OPT_SEED:
			if (parse_uint(optarg, UINT64_MAX, &o->seed) < 0)
				die(EXIT_USAGE,
				    "bad --seed '%s' (expected a number)",
				    optarg);
			o->seed_set = true;
			break;
		case 'f':
			if (trace_parse_format(optarg, &o->format) < 0)
				die(EXIT_USAGE,
				    "unknown --format '%s' (expected din, bin "
				    "or lackey)",
				    optarg);
			break;
		case OPT_DATA_ONLY:
			o->data_only = true;
			break;
		case OPT_WRITE_BIN:
			o->write_bin = optarg;
			break;
		case OPT_WRITE_DIN:
			o->write_din = optarg;
			break;
		case OPT_JSON:
			o->json = true;
			break;
		case OPT_DEMO:
			o->demo = true;
			break;
		case 'h':
			fputs(help_text, stdout);
			exit(fflush(stdout) == 0 && !ferror(stdout)
				     ? EXIT_OK
				     : EXIT_OUTPUT);
		case 'V':
			printf(PROG " (" PACKAGE_NAME ") " PACKAGE_VERSION
				    "\n");
			exit(fflush(stdout) == 0 && !ferror(stdout)
				     ? EXIT_OK
				     : EXIT_OUTPUT);
		default:
			bad_option(c, argc, argv);
		}
	}
	if (optind < argc)
		o->input = argv[optind++];
	if (optind < argc)
		die(EXIT_USAGE, "too many arguments ('%s')", argv[optind]);
	if (o->demo && o->input)
		die(EXIT_USAGE, "--demo takes no FILE ('%s')", o->input);
	if (o->write_bin && o->write_din && strcmp(o->write_bin, "-") == 0 &&
	    strcmp(o->write_din, "-") == 0)
		die(EXIT_USAGE,
		    "--write-bin and --write-din cannot both write to "
		    "standard output");
}

/* Turn the options into a configuration; exits on impossible ones. */
static void build_config(const struct opts *o, struct cachesim_config *cfg)
{
	char msg[256];
	unsigned int i, n = 1;

	cachesim_config_init(cfg);
	for (i = 1; i < CLI_LEVELS; i++) {
		const struct level_opts *l = &o->lvl[i];

		if (l->size_set) {
			if (n != i)
				die(EXIT_USAGE, "--l%u-size needs --l%u-size",
				    i + 1, i);
			n++;
			continue;
		}
		if (l->ways_set || l->line_set)
			die(EXIT_USAGE, "%s needs --l%u-size",
			    l->ways_set ? l->ways_opt : l->line_opt, i + 1);
	}
	cfg->nlevels = n;
	for (i = 0; i < n; i++) {
		const struct level_opts *l = &o->lvl[i];
		struct cachesim_level_config *lc = &cfg->level[i];

		lc->name = level_names[i];
		if (i > 0) {
			lc->size = l->size;
			lc->ways = level_default_ways[i];
			lc->line = cfg->level[i - 1].line;
			lc->hit_latency = level_default_latency[i];
		} else if (l->size_set) {
			lc->size = l->size;
		}
		if (l->line_set)
			lc->line = l->line;
		if (l->ways_set)
			lc->ways = l->ways_full ? 0 : l->ways;
		if (l->ways_full) {
			if (lc->line == 0 || lc->size % lc->line != 0 ||
			    lc->size / lc->line > UINT_MAX)
				die(EXIT_USAGE,
				    "%s: %s full: size %" PRIu64
				    " is not a multiple of the %u-byte line",
				    lc->name, l->ways_opt, lc->size, lc->line);
			lc->ways = (unsigned int)(lc->size / lc->line);
		}
		lc->policy = o->policy;
		lc->write_policy = o->write_policy;
	}
	if (o->seed_set)
		cfg->seed = o->seed;
	msg[0] = '\0';
	if (cachesim_config_check(cfg, msg, sizeof(msg)) < 0)
		die(EXIT_USAGE, "%s", msg[0] ? msg : "impossible geometry");
}

/* ------------------------------------------------------------------ */
/* Replay                                                              */
/* ------------------------------------------------------------------ */

/* Remove instruction fetches from @recs in place; return the new count. */
static size_t drop_ifetches(struct trace_record *recs, size_t n,
			    struct tally *t)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		if (recs[i].kind == TRACE_IFETCH) {
			t->dropped++;
			continue;
		}
		recs[k++] = recs[i];
	}
	return k;
}

static void replay(struct cachesim *cs, const struct trace_record *recs,
		   size_t n, struct tally *t)
{
	static struct cachesim_req reqs[BATCH];
	uint64_t writes = 0, fetches = 0, others = 0;
	size_t i, k = 0;

	/*
	 * Accesses go to the simulator in runs, one call each; a maintenance
	 * record ends the run before it, to keep the order of the trace.  The
	 * labels of accesses are enum cachesim_op's values; they are counted
	 * in registers (reads are what is left).
	 */
	for (i = 0; i < n; i++) {
		const struct trace_record *r = &recs[i];

		if (r->kind <= TRACE_IFETCH) {
			writes += r->kind == TRACE_WRITE;
			fetches += r->kind == TRACE_IFETCH;
			reqs[k].addr = r->addr;
			reqs[k].size = r->size;
			reqs[k].op = r->kind;
			k++;
			continue;
		}
		others++;
		t->kinds[r->kind]++;
		cachesim_access_many(cs, reqs, k);
		k = 0;
		switch (r->kind) {
		case TRACE_CLEAN:
			cachesim_clean(cs, r->addr, r->size);
			break;
		case TRACE_INVALIDATE:
			cachesim_invalidate(cs, r->addr, r->size);
			break;
		case TRACE_FLUSH:
			cachesim_clean_invalidate(cs, r->addr, r->size);
			break;
		default: /* TRACE_MISC: counted only */
			break;
		}
	}
	cachesim_access_many(cs, reqs, k);
	t->kinds[TRACE_WRITE] += writes;
	t->kinds[TRACE_IFETCH] += fetches;
	t->kinds[TRACE_READ] += n - writes - fetches - others;
}

/* Filter, convert and replay one batch. */
static void process(struct cachesim *cs, struct trace_record *recs, size_t n,
		    bool data_only, struct tally *t)
{
	char err[600];
	unsigned int i;

	if (data_only)
		n = drop_ifetches(recs, n, t);
	for (i = 0; i < nsinks; i++) {
		if (trace_write(sinks[i].w, recs, n) < 0) {
			snprintf(err, sizeof(err), "%s",
				 trace_writer_error(sinks[i].w));
			die(EXIT_OUTPUT, "%s", err);
		}
	}
	replay(cs, recs, n, t);
}

static void replay_file(struct cachesim *cs, const struct opts *o,
			struct tally *t, char *name, size_t namelen,
			enum trace_format *fmt)
{
	static struct trace_record recs[BATCH];
	struct trace_reader *r;
	char err[600];
	ssize_t n;

	r = trace_open(o->input, o->format, err, sizeof(err));
	if (!r)
		die(EXIT_TRACE, "%s", err);
	while ((n = trace_read(r, recs, BATCH)) > 0)
		process(cs, recs, (size_t)n, o->data_only, t);
	if (n < 0) {
		snprintf(err, sizeof(err), "%s", trace_error(r));
		trace_close(r);
		die(EXIT_TRACE, "%s", err);
	}
	t->modifies = trace_reader_counts(r)->modifies;
	snprintf(name, namelen, "%s", trace_reader_name(r));
	*fmt = trace_reader_format(r);
	trace_close(r);
}

/* ------------------------------------------------------------------ */
/* --demo                                                              */
/* ------------------------------------------------------------------ */

#define DEMO_N 256		  /* matrix of DEMO_N x DEMO_N doubles */
#define DEMO_MATRIX 0x10000000ull /* 512 KiB */
#define DEMO_SRC 0x20000000ull	  /* 256 KiB */
#define DEMO_DST 0x30000000ull	  /* 256 KiB */
#define DEMO_COPY (256u << 10)
#define DEMO_HOT 0x40000000ull /* 16 KiB */
#define DEMO_HOT_SIZE (16u << 10)
#define DEMO_HOT_PASSES 8
#define DEMO_PHASES 6

struct demo_phase {
	const char *title;
	size_t start, end;	  /* records [start, end) */
	struct cachesim_stats l1; /* L1 counters of this phase alone */
};

struct demo {
	struct trace_record *recs;
	size_t n, cap;
	struct demo_phase phase[DEMO_PHASES];
	unsigned int nphases;
};

static void demo_add(struct demo *d, unsigned int kind, uint64_t addr,
		     uint32_t size)
{
	if (d->n == d->cap) {
		size_t cap = d->cap ? d->cap * 2 : 65536;
		struct trace_record *p = realloc(d->recs, cap * sizeof(*p));

		if (!p)
			die(EXIT_OUTPUT, "out of memory");
		d->recs = p;
		d->cap = cap;
	}
	d->recs[d->n].addr = addr;
	d->recs[d->n].size = size;
	d->recs[d->n].kind = (uint8_t)kind;
	d->n++;
}

static void demo_phase(struct demo *d, const char *title)
{
	if (d->nphases)
		d->phase[d->nphases - 1].end = d->n;
	d->phase[d->nphases].title = title;
	d->phase[d->nphases].start = d->n;
	d->nphases++;
}

static uint64_t elem(unsigned int i, unsigned int j)
{
	return DEMO_MATRIX + ((uint64_t)i * DEMO_N + j) * sizeof(double);
}

/* The built-in trace: what a few loops of C would do to memory. */
static void demo_build(struct demo *d)
{
	unsigned int i, j, jb, k, pass;

	demo_phase(d, "row-major sum, 256x256 doubles");
	for (i = 0; i < DEMO_N; i++)
		for (j = 0; j < DEMO_N; j++)
			demo_add(d, TRACE_READ, elem(i, j), 8);

	demo_phase(d, "column-major sum, same matrix");
	for (j = 0; j < DEMO_N; j++)
		for (i = 0; i < DEMO_N; i++)
			demo_add(d, TRACE_READ, elem(i, j), 8);

	demo_phase(d, "column-major, 8 columns a time");
	for (jb = 0; jb < DEMO_N; jb += 8)
		for (i = 0; i < DEMO_N; i++)
			for (j = jb; j < jb + 8; j++)
				demo_add(d, TRACE_READ, elem(i, j), 8);

	demo_phase(d, "copy 256 KiB (read + write)");
	for (k = 0; k < DEMO_COPY; k += 8) {
		demo_add(d, TRACE_READ, DEMO_SRC + k, 8);
		demo_add(d, TRACE_WRITE, DEMO_DST + k, 8);
	}

	demo_phase(d, "hot loop, 8 passes over 16 KiB");
	for (pass = 0; pass < DEMO_HOT_PASSES; pass++)
		for (k = 0; k < DEMO_HOT_SIZE; k += 8)
			demo_add(d, TRACE_READ, DEMO_HOT + k, 8);

	demo_phase(d, "DMA map: clean, invalidate dst");
	demo_add(d, TRACE_CLEAN, DEMO_DST, DEMO_COPY);
	demo_add(d, TRACE_INVALIDATE, DEMO_DST, DEMO_COPY);
	d->phase[d->nphases - 1].end = d->n;
}

static void stats_sub(struct cachesim_stats *a, const struct cachesim_stats *b)
{
	a->accesses -= b->accesses;
	a->reads -= b->reads;
	a->writes -= b->writes;
	a->hits -= b->hits;
	a->misses -= b->misses;
	a->read_misses -= b->read_misses;
	a->write_misses -= b->write_misses;
	a->compulsory_misses -= b->compulsory_misses;
	a->writebacks -= b->writebacks;
	a->evictions -= b->evictions;
	a->maint_ops -= b->maint_ops;
	a->maint_lines -= b->maint_lines;
	a->maint_writebacks -= b->maint_writebacks;
	a->cycles -= b->cycles;
}

static void run_demo(struct cachesim *cs, struct demo *d, struct tally *t)
{
	struct cachesim_stats before, after;
	unsigned int i;
	size_t off, len;

	demo_build(d);
	for (i = 0; i < d->nphases; i++) {
		struct demo_phase *ph = &d->phase[i];

		cachesim_stats(cs, 0, &before);
		for (off = ph->start; off < ph->end; off += len) {
			len = ph->end - off < BATCH ? ph->end - off : BATCH;
			process(cs, d->recs + off, len, false, t);
		}
		cachesim_stats(cs, 0, &after);
		stats_sub(&after, &before);
		ph->l1 = after;
	}
}

/* ------------------------------------------------------------------ */
/* Report: table                                                       */
/* ------------------------------------------------------------------ */

/* "32 KiB", "1 MiB", "100 bytes". */
static const char *human_size(uint64_t v, char *buf, size_t len)
{
	if (v && v % (1ull << 30) == 0)
		snprintf(buf, len, "%" PRIu64 " GiB", v >> 30);
	else if (v && v % (1ull << 20) == 0)
		snprintf(buf, len, "%" PRIu64 " MiB", v >> 20);
	else if (v && v % (1ull << 10) == 0)
		snprintf(buf, len, "%" PRIu64 " KiB", v >> 10);
	else
		snprintf(buf, len, "%" PRIu64 " bytes", v);
	return buf;
}

static void print_geometry(struct cachesim *cs,
			   const struct cachesim_config *cfg)
{
	char sz[32], assoc[48];
	unsigned int i, n = cachesim_levels(cs);

	for (i = 0; i < n; i++) {
		const struct cachesim_level_config *lc =
			cachesim_level_config(cs, i);
		unsigned int sets = cachesim_sets(cs, i);

		if (lc->ways == 1)
			snprintf(assoc, sizeof(assoc), "direct-mapped");
		else if (sets == 1)
			snprintf(assoc, sizeof(assoc),
				 "fully associative (%u ways)", lc->ways);
		else
			snprintf(assoc, sizeof(assoc), "%u-way", lc->ways);
		printf("%s: %s, %s, %u-byte lines, %u set%s, %s, %s, "
		       "hit %u cycles\n",
		       lc->name ? lc->name : level_names[i],
		       human_size(lc->size, sz, sizeof(sz)), assoc, lc->line,
		       sets, sets == 1 ? "" : "s",
		       cachesim_policy_name(lc->policy),
		       cachesim_write_policy_name(lc->write_policy),
		       lc->hit_latency);
	}
	printf("memory: %u cycles", cfg->mem_latency);
	for (i = 0; i < n; i++) {
		if (cachesim_level_config(cs, i)->policy == CACHESIM_RANDOM) {
			printf(", random seed %" PRIu64, cfg->seed);
			break;
		}
	}
	printf("\n");
}

static void print_tally(const char *name, enum trace_format fmt,
			const struct tally *t)
{
	uint64_t total = t->dropped;
	unsigned int k;

	for (k = 0; k < TRACE_NKINDS; k++)
		total += t->kinds[k];
	printf("trace: %s (%s), %" PRIu64 " records: %" PRIu64
	       " reads, %" PRIu64 " writes, %" PRIu64 " fetches",
	       name, trace_format_name(fmt), total, t->kinds[TRACE_READ],
	       t->kinds[TRACE_WRITE], t->kinds[TRACE_IFETCH]);
	if (t->dropped)
		printf(" (%" PRIu64 " dropped by --data-only)", t->dropped);
	if (t->modifies)
		printf(", %" PRIu64 " modifies (each a read and a write)",
		       t->modifies);
	if (t->kinds[TRACE_MISC])
		printf(", %" PRIu64 " misc (not simulated)",
		       t->kinds[TRACE_MISC]);
	if (t->kinds[TRACE_CLEAN] || t->kinds[TRACE_INVALIDATE] ||
	    t->kinds[TRACE_FLUSH])
		printf(", %" PRIu64 " cleans, %" PRIu64 " invalidates, %" PRIu64
		       " flushes",
		       t->kinds[TRACE_CLEAN], t->kinds[TRACE_INVALIDATE],
		       t->kinds[TRACE_FLUSH]);
	printf("\n");
}

static void fmt_rate(uint64_t num, uint64_t den, char *buf, size_t len)
{
	if (den == 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.2f%%", 100.0 * (double)num / (double)den);
}

#define ROW_LABEL "%-20s"
#define ROW_CELL "%15s"

static void print_row(const char *label, const struct cachesim_stats *st,
		      const uint64_t *dirty, unsigned int n, size_t field)
{
	char cell[32];
	unsigned int i;
	uint64_t v;

	printf(ROW_LABEL, label);
	for (i = 0; i < n; i++) {
		if (field == (size_t)-1)
			v = dirty[i];
		else
			memcpy(&v, (const char *)&st[i] + field, sizeof(v));
		snprintf(cell, sizeof(cell), "%" PRIu64, v);
		printf(ROW_CELL, cell);
	}
	printf("\n");
}

static void print_table(struct cachesim *cs)
{
	static const struct {
		const char *label;
		size_t field;
	} rows[] = {
#define ROW(l, f) {l, offsetof(struct cachesim_stats, f)}
		ROW("accesses", accesses),
		ROW("  reads", reads),
		ROW("  writes", writes),
		ROW("hits", hits),
		ROW("misses", misses),
		ROW("  read misses", read_misses),
		ROW("  write misses", write_misses),
		{"miss rate", (size_t)-2},
		ROW("compulsory misses", compulsory_misses),
		ROW("write-backs", writebacks),
		ROW("evictions", evictions),
		ROW("maintenance ops", maint_ops),
		ROW("maintenance lines", maint_lines),
		ROW("maint. write-backs", maint_writebacks),
		{"dirty at end", (size_t)-1},
		ROW("cycles", cycles),
#undef ROW
	};
	struct cachesim_stats st[CACHESIM_MAX_LEVELS];
	uint64_t dirty[CACHESIM_MAX_LEVELS], total_dirty = 0;
	unsigned int i, r, n = cachesim_levels(cs);
	char cell[32];

	for (i = 0; i < n; i++) {
		cachesim_stats(cs, i, &st[i]);
		dirty[i] = cachesim_dirty_lines(cs, i);
		total_dirty += dirty[i];
	}
	printf("\n" ROW_LABEL, "");
	for (i = 0; i < n; i++) {
		const char *name = cachesim_level_config(cs, i)->name;

		printf(ROW_CELL, name ? name : level_names[i]);
	}
	printf("\n");
	for (r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		if (rows[r].field != (size_t)-2) {
			print_row(rows[r].label, st, dirty, n, rows[r].field);
			continue;
		}
		printf(ROW_LABEL, rows[r].label);
		for (i = 0; i < n; i++) {
			fmt_rate(st[i].misses, st[i].accesses, cell,
				 sizeof(cell));
			printf(ROW_CELL, cell);
		}
		printf("\n");
	}
	printf("\ntotal: %" PRIu64
	       " simulated cycles (all levels and memory), %" PRIu64
	       " dirty lines left in the cache\n",
	       cachesim_cycles(cs), total_dirty);
}

static void print_demo(const struct demo *d,
		       const struct cachesim_level_config *l1)
{
	char rate[32];
	unsigned int i;

	printf("\n%-36s %9s %9s %9s %11s\n", "phase", "accesses", "L1 misses",
	       "miss rate", "write-backs");
	for (i = 0; i < d->nphases; i++) {
		const struct demo_phase *ph = &d->phase[i];

		if (ph->l1.accesses == 0) {
			printf("%u. %-33s %9" PRIu64 " ops touched %" PRIu64
			       " lines, wrote back %" PRIu64 "\n",
			       i + 1, ph->title, ph->l1.maint_ops,
			       ph->l1.maint_lines, ph->l1.maint_writebacks);
			continue;
		}
		fmt_rate(ph->l1.misses, ph->l1.accesses, rate, sizeof(rate));
		printf("%u. %-33s %9" PRIu64 " %9" PRIu64 " %9s %11" PRIu64
		       "\n",
		       i + 1, ph->title, ph->l1.accesses, ph->l1.misses, rate,
		       ph->l1.writebacks);
	}
	printf("\nWhat to look for (with the default 32 KiB, 8-way, 64-byte "
	       "L1):\n"
	       "  1-3  a row-major walk uses all %u doubles of each %u-byte "
	       "line it fetches;\n"
	       "       a column walk jumps %u bytes, so every access "
	       "fetches a line that is\n"
	       "       evicted before its neighbours are used; walking a "
	       "line-wide block of\n"
	       "       columns at a time brings the row-major miss rate "
	       "back.\n"
	       "  4    a copy misses once per line of each buffer; "
	       "destination lines are\n"
	       "       dirty, so evicting them costs write-backs.\n"
	       "  5    a working set that fits misses only on its first "
	       "pass.\n"
	       "  6    before a device reads a buffer the CPU wrote, DMA "
	       "mapping cleans it\n"
	       "       (the dirty lines go to memory), then the buffer is "
	       "invalidated.\n",
	       l1->line / 8 ? l1->line / 8 : 1, l1->line,
	       (unsigned int)(DEMO_N * sizeof(double)));
}

/* ------------------------------------------------------------------ */
/* Report: JSON                                                        */
/* ------------------------------------------------------------------ */

static void json_string(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

static void json_stats(const struct cachesim_stats *st)
{
	printf("\"accesses\":%" PRIu64 ",\"reads\":%" PRIu64
	       ",\"writes\":%" PRIu64 ",\"hits\":%" PRIu64
	       ",\"misses\":%" PRIu64 ",\"read_misses\":%" PRIu64
	       ",\"write_misses\":%" PRIu64 ",\"miss_rate\":%.6f"
	       ",\"compulsory_misses\":%" PRIu64 ",\"writebacks\":%" PRIu64
	       ",\"evictions\":%" PRIu64 ",\"maint_ops\":%" PRIu64
	       ",\"maint_lines\":%" PRIu64 ",\"maint_writebacks\":%" PRIu64
	       ",\"cycles\":%" PRIu64,
	       st->accesses, st->reads, st->writes, st->hits, st->misses,
	       st->read_misses, st->write_misses,
	       st->accesses ? (double)st->misses / (double)st->accesses : 0.0,
	       st->compulsory_misses, st->writebacks, st->evictions,
	       st->maint_ops, st->maint_lines, st->maint_writebacks,
	       st->cycles);
}

static void print_json(struct cachesim *cs, const struct cachesim_config *cfg,
		       const char *name, const char *fmt, const struct tally *t,
		       const struct demo *d)
{
	unsigned int i, n = cachesim_levels(cs);
	uint64_t total = t->dropped, dirty_total = 0;
	struct cachesim_stats st;

	for (i = 0; i < TRACE_NKINDS; i++)
		total += t->kinds[i];
	printf("{\"trace\":{\"name\":");
	json_string(name);
	printf(",\"format\":\"%s\",\"records\":%" PRIu64 ",\"reads\":%" PRIu64
	       ",\"writes\":%" PRIu64 ",\"ifetches\":%" PRIu64
	       ",\"ifetches_dropped\":%" PRIu64 ",\"modifies\":%" PRIu64
	       ",\"misc\":%" PRIu64 ",\"cleans\":%" PRIu64
	       ",\"invalidates\":%" PRIu64 ",\"flushes\":%" PRIu64 "}",
	       fmt, total, t->kinds[TRACE_READ], t->kinds[TRACE_WRITE],
	       t->kinds[TRACE_IFETCH], t->dropped, t->modifies,
	       t->kinds[TRACE_MISC], t->kinds[TRACE_CLEAN],
	       t->kinds[TRACE_INVALIDATE], t->kinds[TRACE_FLUSH]);
	if (d) {
		printf(",\"phases\":[");
		for (i = 0; i < d->nphases; i++) {
			printf("%s{\"name\":", i ? "," : "");
			json_string(d->phase[i].title);
			printf(",\"L1\":{");
			json_stats(&d->phase[i].l1);
			printf("}}");
		}
		printf("]");
	}
	printf(",\"memory_latency\":%u,\"seed\":%" PRIu64 ",\"levels\":[",
	       cfg->mem_latency, cfg->seed);
	for (i = 0; i < n; i++) {
		const struct cachesim_level_config *lc =
			cachesim_level_config(cs, i);
		uint64_t dirty = cachesim_dirty_lines(cs, i);

		dirty_total += dirty;
		cachesim_stats(cs, i, &st);
		printf("%s{\"name\":", i ? "," : "");
		json_string(lc->name ? lc->name : level_names[i]);
		printf(",\"size\":%" PRIu64 ",\"ways\":%u,\"line\":%u,"
		       "\"sets\":%u,\"policy\":\"%s\",\"write_policy\":\"%s\","
		       "\"hit_latency\":%u,",
		       lc->size, lc->ways, lc->line, cachesim_sets(cs, i),
		       cachesim_policy_name(lc->policy),
		       cachesim_write_policy_name(lc->write_policy),
		       lc->hit_latency);
		json_stats(&st);
		printf(",\"dirty_at_end\":%" PRIu64 "}", dirty);
	}
	printf("],\"dirty_at_end\":%" PRIu64 ",\"cycles\":%" PRIu64 "}\n",
	       dirty_total, cachesim_cycles(cs));
}

/* ------------------------------------------------------------------ */
/* main                                                                */
/* ------------------------------------------------------------------ */

/*
 * Refuse to convert a trace onto itself: opening the output truncates it
 * before a byte of the input is read.
 */
static void check_not_input(const char *out, const char *opt, const char *input)
{
	struct stat in, st;
	int ret;

	if (strcmp(out, "-") == 0 || stat(out, &st) < 0)
		return;
	if (!input || strcmp(input, "-") == 0)
		ret = fstat(STDIN_FILENO, &in);
	else
		ret = stat(input, &in);
	if (ret == 0 && in.st_dev == st.st_dev && in.st_ino == st.st_ino &&
	    S_ISREG(st.st_mode))
		die(EXIT_USAGE, "%s '%s' would overwrite the input trace", opt,
		    out);
}

static void open_sink(const char *path, enum trace_format fmt)
{
	char err[600];

	sinks[nsinks].w = trace_writer_open(path, fmt, err, sizeof(err));
	if (!sinks[nsinks].w)
		die(EXIT_OUTPUT, "%s", err);
	sinks[nsinks].path = path;
	nsinks++;
}

int main(int argc, char **argv)
{
	struct cachesim_config cfg;
	struct cachesim *cs;
	struct tally t;
	struct demo d = {0};
	enum trace_format fmt = TRACE_DIN;
	bool quiet = false;
	char name[4096], msg[256], err[600];
	unsigned int i;
	struct opts o;

	memset(&t, 0, sizeof(t));
	parse_options(argc, argv, &o);
	build_config(&o, &cfg);
	msg[0] = '\0';
	cs = cachesim_create(&cfg, msg, sizeof(msg));
	if (!cs) {
		if (errno == ENOMEM)
			die(EXIT_OUTPUT, "out of memory");
		die(EXIT_USAGE, "%s", msg[0] ? msg : "impossible geometry");
	}
	if (!o.demo) {
		if (o.write_bin)
			check_not_input(o.write_bin, "--write-bin", o.input);
		if (o.write_din)
			check_not_input(o.write_din, "--write-din", o.input);
	}
	if (o.write_bin) {
		open_sink(o.write_bin, TRACE_BIN);
		quiet |= strcmp(o.write_bin, "-") == 0;
	}
	if (o.write_din) {
		open_sink(o.write_din, TRACE_DIN);
		quiet |= strcmp(o.write_din, "-") == 0;
	}

	if (o.demo) {
		run_demo(cs, &d, &t);
		snprintf(name, sizeof(name), "demo");
	} else {
		replay_file(cs, &o, &t, name, sizeof(name), &fmt);
	}

	for (i = 0; i < nsinks; i++) {
		if (trace_writer_close(sinks[i].w, err, sizeof(err)) < 0) {
			sinks[i].w = NULL;
			die(EXIT_OUTPUT, "%s", err);
		}
		sinks[i].w = NULL;
	}
	nsinks = 0; /* complete: keep the files from now on */

	if (quiet) {
		/* Standard output carries the converted trace. */
	} else if (o.json) {
		print_json(cs, &cfg, name,
			   o.demo ? "demo" : trace_format_name(fmt), &t,
			   o.demo ? &d : NULL);
	} else if (o.demo) {
		uint64_t maint = t.kinds[TRACE_CLEAN] +
				 t.kinds[TRACE_INVALIDATE] +
				 t.kinds[TRACE_FLUSH];

		printf("cachesim --demo: replaying a built-in trace of %zu "
		       "records (%" PRIu64 " data accesses, %" PRIu64
		       " maintenance operations) in %u phases\n",
		       d.n, (uint64_t)d.n - maint, maint, d.nphases);
		print_geometry(cs, &cfg);
		print_demo(&d, cachesim_level_config(cs, 0));
		print_table(cs);
	} else {
		print_tally(name, fmt, &t);
		print_geometry(cs, &cfg);
		print_table(cs);
	}
	free(d.recs);
	cachesim_destroy(cs);
	if (fflush(stdout) != 0 || ferror(stdout))
		die(EXIT_OUTPUT, "write error on standard output: %s",
		    strerror(errno));
	return EXIT_OK;
}
