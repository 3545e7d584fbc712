// SPDX-License-Identifier: MIT
/*
 * options.c - the options of a machine.
 *
 * How it works: one table, keys[], describes every option (name, type,
 * where it lives in struct dmaemu__options, range, constraints).  Parsing,
 * validation and dmaemu_machine_option() are all driven by that table, so
 * a key cannot be parsed one way and printed another.
 *
 * A machine's options are built in stages, later stages winning:
 *
 *   defaults  ->  the string given to create()  ->  DMAEMU_OPTIONS
 *
 * as with the sanitizers, whose environment variable wins over what a
 * program compiles in: whoever runs the program has the last word.  A key
 * the environment sets to another value than the string makes one line
 * at create (override_note()).
 *
 * Each stage is "key=value:key=value".  A key set by a stage remembers that
 * stage's name (its origin), so that an error found only once every stage
 * has been applied (a bank crossing 4 GiB because of mem and mem_base
 * together) still names where the offending value came from.  Keys not set
 * by any stage take the profile's default at the end (the cache geometry
 * differs between profiles).
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"

#define SZ_1M (1ULL << 20)
#define SZ_4G (1ULL << 32)
/* Physical addresses stay below 2^48, as on arm64 with 48-bit PAs. */
#define PHYS_LIMIT (1ULL << 48)

enum opt_type {
	OPT_PROFILE, /* enum dmaemu__profile by name */
	OPT_POLICY,  /* enum cachesim_policy by name */
	OPT_SIZE,    /* uint64_t, k/m/g/t suffixes */
	OPT_ADDR,    /* uint64_t, printed in hex */
	OPT_UINT,    /* unsigned int, k/m suffixes allowed */
	OPT_U64,     /* uint64_t, plain number */
	OPT_INT,     /* int */
	OPT_BOOL,    /* 0|1 (also off|on, false|true, no|yes) */
	OPT_PATH,    /* char[DMAEMU__OPT_PATH_MAX] */
	OPT_PAIR,    /* bool spelled by two names: names[0] false, [1] true */
	OPT_CHECKS,  /* unsigned int: a set of check families, as a list */
	OPT_FAULT,   /* struct dmaemu__fault_attr: off or i,p,s,t (fault.c) */
	OPT_TRACE,   /* unsigned int: a set of trace groups, as a list */
	OPT_TIMING,  /* struct dmaemu_device_timing: off or a comma list */
};

#define F_POW2 0x1 /* value must be a power of two */
#define F_PAGE 0x2 /* value must be a multiple of the page size */

struct opt_key {
	const char *name;
	enum opt_type type;
	size_t off;
	uint64_t min, max;
	unsigned int flags;
	/* OPT_PAIR: the false name, the true name, the error message. */
	const char *names[3];
};

#define OFF(field) offsetof(struct dmaemu__options, field)

/* Indexes into keys[], for the cross-key checks. */
enum {
	K_PROFILE,
	K_MEM,
	K_MEM_BASE,
	K_HIGHMEM,
	K_HIGHMEM_BASE,
	K_CACHE_SIZE,
	K_CACHE_WAYS,
	K_CACHE_LINE,
	K_CACHE_POLICY,
	K_DMA_MINALIGN,
	K_WC_BUFFERS,
	K_WC_SIZE,
	K_PREFETCH,
	K_STATS,
	K_PREFETCH_RATE,
	K_SEED,
	K_HALT_ON_ERROR,
	K_EXITCODE,
	K_REPORT_REPEATS,
	K_LOG_PATH,
	K_IOMMU,
	K_SWIOTLB,
	K_SWIOTLB_SIZE,
	K_DMA_OFFSET,
	K_MAP_POLICY,
	K_IOMMU_STRICT,
	K_REPORT_KEEP,
	K_SCHED,
	K_SUPPRESSIONS,
	K_REPORT_LIMIT,
	K_VERBOSITY,
	K_HELP,
	K_CHECKS,
	K_FAILSLAB,
	K_FAIL_PAGE_ALLOC,
	K_FAIL_DMA_ALLOC,
	K_FAIL_DMA_MAP,
	K_FAIL_DMA_POOL,
	K_FAIL_VERBOSE,
	K_TRACE,
	K_TRACE_FORMAT,
	K_TRACE_EVENTS,
	K_TRACE_BUFFER,
	K_ORDERING,
	K_PORTABILITY_NOTES,
	K_POSTED_WRITES,
	K_DEVICE_TIMING,
	K_REPORT_FOLD,
	K_LOG_STABLE,
	K_UNMAP_HISTORY,
	K_KERNEL,
	K_IRQ_STORM,
	K_SCHED_STEP,
	K_HANG_TIMEOUT,
	K_NKEYS
};

_Static_assert(K_NKEYS <= DMAEMU__OPT_MAXKEYS, "set_by[] is too small");

static const struct opt_key keys[K_NKEYS] = {
	[K_PROFILE] = {"profile", OPT_PROFILE, OFF(profile), 0, 0, 0, {NULL}},
	[K_MEM] = {"mem", OPT_SIZE, OFF(mem), SZ_1M, SZ_4G, F_PAGE, {NULL}},
	[K_MEM_BASE] = {"mem_base",
			OPT_ADDR,
			OFF(mem_base),
			0,
			SZ_4G - SZ_1M,
			F_PAGE,
			{NULL}},
	[K_HIGHMEM] = {"highmem",
		       OPT_SIZE,
		       OFF(highmem),
		       0,
		       64ULL << 30,
		       F_PAGE,
		       {NULL}},
	[K_HIGHMEM_BASE] = {"highmem_base",
			    OPT_ADDR,
			    OFF(highmem_base),
			    SZ_4G,
			    PHYS_LIMIT - SZ_1M,
			    F_PAGE,
			    {NULL}},
	[K_CACHE_SIZE] = {"cache_size",
			  OPT_SIZE,
			  OFF(cache_size),
			  256,
			  64ULL << 20,
			  0,
			  {NULL}},
	[K_CACHE_WAYS] =
		{"cache_ways", OPT_UINT, OFF(cache_ways), 1, 64, 0, {NULL}},
	[K_CACHE_LINE] = {"cache_line",
			  OPT_UINT,
			  OFF(cache_line),
			  16,
			  DMAEMU__MAX_LINE,
			  F_POW2,
			  {NULL}},
	[K_CACHE_POLICY] = {"cache_policy",
			    OPT_POLICY,
			    OFF(cache_policy),
			    0,
			    0,
			    0,
			    {NULL}},
	[K_DMA_MINALIGN] = {"dma_minalign",
			    OPT_UINT,
			    OFF(dma_minalign),
			    1,
			    DMAEMU__PAGE_SIZE,
			    F_POW2,
			    {NULL}},
	[K_WC_BUFFERS] =
		{"wc_buffers", OPT_UINT, OFF(wc_buffers), 1, 64, 0, {NULL}},
	[K_WC_SIZE] = {"wc_size",
		       OPT_UINT,
		       OFF(wc_size),
		       8,
		       DMAEMU__PAGE_SIZE,
		       F_POW2,
		       {NULL}},
	[K_PREFETCH] = {"prefetch", OPT_BOOL, OFF(prefetch), 0, 1, 0, {NULL}},
	[K_STATS] = {"stats", OPT_BOOL, OFF(stats), 0, 1, 0, {NULL}},
	[K_PREFETCH_RATE] = {"prefetch_rate",
			     OPT_UINT,
			     OFF(prefetch_rate),
			     1,
			     1U << 30,
			     0,
			     {NULL}},
	[K_SEED] = {"seed", OPT_U64, OFF(seed), 0, UINT64_MAX, 0, {NULL}},
	[K_HALT_ON_ERROR] = {"halt_on_error",
			     OPT_BOOL,
			     OFF(halt_on_error),
			     0,
			     1,
			     0,
			     {NULL}},
	[K_EXITCODE] = {"exitcode", OPT_INT, OFF(exitcode), 0, 255, 0, {NULL}},
	[K_REPORT_REPEATS] = {"report_repeats",
			      OPT_UINT,
			      OFF(report_repeats),
			      0,
			      1U << 30,
			      0,
			      {NULL}},
	[K_LOG_PATH] = {"log_path", OPT_PATH, OFF(log_path), 0, 0, 0, {NULL}},
	[K_IOMMU] = {"iommu", OPT_BOOL, OFF(iommu), 0, 1, 0, {NULL}},
	[K_SWIOTLB] = {"swiotlb",
		       OPT_PAIR,
		       OFF(swiotlb_force),
		       0,
		       1,
		       0,
		       {"normal", "force", "expected normal or force"}},
	[K_SWIOTLB_SIZE] = {"swiotlb_size",
			    OPT_SIZE,
			    OFF(swiotlb_size),
			    256 << 10,
			    256ULL << 20,
			    F_PAGE,
			    {NULL}},
	[K_DMA_OFFSET] = {"dma_offset",
			  OPT_ADDR,
			  OFF(dma_offset),
			  0,
			  PHYS_LIMIT,
			  F_PAGE,
			  {NULL}},
	[K_MAP_POLICY] = {"map_policy",
			  OPT_PAIR,
			  OFF(map_clean),
			  0,
			  1,
			  0,
			  {"4.14", "5.19", "expected 4.14 or 5.19"}},
	[K_IOMMU_STRICT] =
		{"iommu_strict", OPT_BOOL, OFF(iommu_strict), 0, 1, 0, {NULL}},
	[K_REPORT_KEEP] = {"report_keep",
			   OPT_UINT,
			   OFF(report_keep),
			   0,
			   65536,
			   0,
			   {NULL}},
	[K_SCHED] = {"sched",
		     OPT_PAIR,
		     OFF(lockstep),
		     0,
		     1,
		     0,
		     {"threads", "lockstep", "expected threads or lockstep"}},
	[K_SUPPRESSIONS] =
		{"suppressions", OPT_PATH, OFF(suppressions), 0, 0, 0, {NULL}},
	[K_REPORT_LIMIT] = {"report_limit",
			    OPT_UINT,
			    OFF(report_limit),
			    0,
			    1U << 30,
			    0,
			    {NULL}},
	[K_VERBOSITY] =
		{"verbosity", OPT_UINT, OFF(verbosity), 0, 2, 0, {NULL}},
	[K_HELP] = {"help", OPT_BOOL, OFF(help), 0, 1, 0, {NULL}},
	[K_CHECKS] = {"checks", OPT_CHECKS, OFF(checks), 0, 0, 0, {NULL}},
	[K_FAILSLAB] = {"failslab",
			OPT_FAULT,
			OFF(fail[DMAEMU_FAULT_SLAB]),
			0,
			0,
			0,
			{NULL}},
	[K_FAIL_PAGE_ALLOC] = {"fail_page_alloc",
			       OPT_FAULT,
			       OFF(fail[DMAEMU_FAULT_PAGE_ALLOC]),
			       0,
			       0,
			       0,
			       {NULL}},
	[K_FAIL_DMA_ALLOC] = {"fail_dma_alloc",
			      OPT_FAULT,
			      OFF(fail[DMAEMU_FAULT_DMA_ALLOC]),
			      0,
			      0,
			      0,
			      {NULL}},
	[K_FAIL_DMA_MAP] = {"fail_dma_map",
			    OPT_FAULT,
			    OFF(fail[DMAEMU_FAULT_DMA_MAP]),
			    0,
			    0,
			    0,
			    {NULL}},
	[K_FAIL_DMA_POOL] = {"fail_dma_pool",
			     OPT_FAULT,
			     OFF(fail[DMAEMU_FAULT_DMA_POOL]),
			     0,
			     0,
			     0,
			     {NULL}},
	[K_FAIL_VERBOSE] =
		{"fail_verbose", OPT_BOOL, OFF(fail_verbose), 0, 1, 0, {NULL}},
	[K_TRACE] = {"trace", OPT_PATH, OFF(trace), 0, 0, 0, {NULL}},
	[K_TRACE_FORMAT] = {"trace_format",
			    OPT_PAIR,
			    OFF(trace_json),
			    0,
			    1,
			    0,
			    {"text", "json", "expected text or json"}},
	[K_TRACE_EVENTS] =
		{"trace_events", OPT_TRACE, OFF(trace_events), 0, 0, 0, {NULL}},
	[K_TRACE_BUFFER] = {"trace_buffer",
			    OPT_UINT,
			    OFF(trace_buffer),
			    0,
			    1ULL << 30,
			    0,
			    {NULL}},
	[K_ORDERING] = {"ordering",
			OPT_PAIR,
			OFF(ordering_strong),
			0,
			1,
			0,
			{"weak", "strong", "expected weak or strong"}},
	[K_PORTABILITY_NOTES] = {"portability_notes",
				 OPT_BOOL,
				 OFF(portability_notes),
				 0,
				 1,
				 0,
				 {NULL}},
	[K_POSTED_WRITES] = {"posted_writes",
			     OPT_PAIR,
			     OFF(posted_relaxed),
			     0,
			     1,
			     0,
			     {"ordered", "relaxed",
			      "expected ordered or relaxed"}},
	[K_DEVICE_TIMING] = {"device_timing",
			     OPT_TIMING,
			     OFF(device_timing),
			     0,
			     0,
			     0,
			     {NULL}},
	[K_REPORT_FOLD] =
		{"report_fold", OPT_BOOL, OFF(report_fold), 0, 1, 0, {NULL}},
	[K_LOG_STABLE] =
		{"log_stable", OPT_BOOL, OFF(log_stable), 0, 1, 0, {NULL}},
	[K_UNMAP_HISTORY] = {"unmap_history",
			     OPT_UINT,
			     OFF(unmap_history),
			     0,
			     1U << 20,
			     0,
			     {NULL}},
	[K_KERNEL] = {"kernel",
		      OPT_PAIR,
		      OFF(k612),
		      0,
		      1,
		      0,
		      {"4.14", "6.12", "expected 4.14 or 6.12"}},
	[K_IRQ_STORM] =
		{"irq_storm", OPT_UINT, OFF(irq_storm), 0, 1U << 30, 0, {NULL}},
	[K_SCHED_STEP] = {"sched_step_ns",
			  OPT_UINT,
			  OFF(sched_step_ns),
			  0,
			  1000000,
			  0,
			  {NULL}},
	[K_HANG_TIMEOUT] = {"hang_timeout_ms",
			    OPT_UINT,
			    OFF(hang_timeout_ms),
			    0,
			    86400000,
			    0,
			    {NULL}},
};

/* What each key means, one line each: help=1 prints it. */
static const char *const key_help[K_NKEYS] = {
	[K_PROFILE] = "platform: coherence, cache maintenance, cache defaults",
	[K_MEM] = "size of the low bank of DRAM",
	[K_MEM_BASE] = "physical address of the low bank",
	[K_HIGHMEM] = "size of a second bank above 4 GiB (0: none)",
	[K_HIGHMEM_BASE] = "physical address of the high bank",
	[K_CACHE_SIZE] = "capacity of the L1 data cache",
	[K_CACHE_WAYS] = "associativity of the L1 data cache",
	[K_CACHE_LINE] = "line size: the unit of every cache maintenance",
	[K_CACHE_POLICY] = "replacement policy: lru, plru, fifo or random",
	[K_DMA_MINALIGN] = "ARCH_DMA_MINALIGN: kmalloc's alignment",
	[K_WC_BUFFERS] = "number of write-combining buffers",
	[K_WC_SIZE] = "bytes per write-combining buffer",
	[K_PREFETCH] = "speculative prefetch of device-owned lines",
	[K_STATS] = "print the statistics when the machine is destroyed",
	[K_PREFETCH_RATE] = "one CPU access in N may prefetch",
	[K_SEED] = "seed of every random choice (lockstep, faults, ...)",
	[K_HALT_ON_ERROR] = "abort() right after the first report",
	[K_EXITCODE] = "exit status of a process that made a report (0: off)",
	[K_REPORT_REPEATS] =
		"reports printed per kind, site and mapping (0: all)",
	[K_LOG_PATH] = "append reports to this file instead of stderr",
	[K_IOMMU] = "streaming and coherent DMA through the IOMMU",
	[K_SWIOTLB] = "force: bounce every streaming mapping",
	[K_SWIOTLB_SIZE] = "size of the swiotlb bounce pool",
	[K_DMA_OFFSET] = "bus address = physical + dma_offset (no IOMMU)",
	[K_MAP_POLICY] =
		"arm64 map for the device: 4.14 invalidates, 5.19 cleans",
	[K_IOMMU_STRICT] = "IOMMU checks stricter than Linux 4.14",
	[K_REPORT_KEEP] = "reports kept for dmaemu_report_get() (0: none)",
	[K_SCHED] = "threads run free, or lockstep: one at a time, seeded",
	[K_SUPPRESSIONS] = "a file of rules: reports not to print",
	[K_REPORT_LIMIT] = "print at most N reports, count the others (0: all)",
	[K_VERBOSITY] = "0: headline and SUMMARY; 1: stacks; 2: everything",
	[K_HELP] = "print this list when a machine is created",
	[K_CHECKS] = "check families: all, none, api, coherence, platform",
	[K_FAILSLAB] = "make kmalloc() fail: interval,probability,space,times",
	[K_FAIL_PAGE_ALLOC] = "make alloc_pages() fail, as failslab",
	[K_FAIL_DMA_ALLOC] = "make dma_alloc_attrs() fail, as failslab",
	[K_FAIL_DMA_MAP] = "make the dma_map_*() calls fail, as failslab",
	[K_FAIL_DMA_POOL] = "make dma_pool_alloc() fail, as failslab",
	[K_FAIL_VERBOSE] = "a FAULT_INJECTION line per injected failure",
	[K_TRACE] = "write trace events to this file",
	[K_TRACE_FORMAT] = "text (ftrace-style lines) or json (Perfetto)",
	[K_TRACE_EVENTS] = "groups traced: all, default, none or a list",
	[K_TRACE_BUFFER] = "bytes of each thread's trace buffer (0: none)",
	[K_ORDERING] = "weak: the barrier checks run; strong: they do not",
	[K_PORTABILITY_NOTES] = "x86: ordering findings as portability notes",
	[K_POSTED_WRITES] = "relaxed: device writes may pass earlier ones",
	[K_DEVICE_TIMING] = "each device's latency=, jitter=, bandwidth=",
	[K_REPORT_FOLD] = "print the first report of a kind at a driver line",
	[K_LOG_STABLE] = "no PID, no host address: replays compare equal",
	[K_UNMAP_HISTORY] = "unmaps and frees each device remembers",
	[K_KERNEL] = "DMA API level: Linux 4.14 or 6.12 (as the headers)",
	[K_IRQ_STORM] =
		"handler runs with the line up before irq-storm (0: off)",
	[K_SCHED_STEP] = "lockstep: emulated ns a busy scheduling point costs",
	[K_HANG_TIMEOUT] =
		"an untimed wait longer than this is hung-wait (0: off)",
};

static const char *const profile_names[] = {
	[DMAEMU__PROFILE_ARM] = "arm",
	[DMAEMU__PROFILE_ARM64] = "arm64",
	[DMAEMU__PROFILE_X86] = "x86",
};

const char *dmaemu__profile_name(enum dmaemu__profile p)
{
	if ((unsigned int)p > DMAEMU__PROFILE_X86)
		return "?";
	return profile_names[p];
}

static const struct opt_key *find_key(const char *name, size_t len)
{
	unsigned int i;

	for (i = 0; i < K_NKEYS; i++)
		if (strlen(keys[i].name) == len &&
		    !memcmp(keys[i].name, name, len))
			return &keys[i];
	return NULL;
}

static void *field(struct dmaemu__options *o, const struct opt_key *k)
{
	return (char *)o + k->off;
}

static const void *cfield(const struct dmaemu__options *o,
			  const struct opt_key *k)
{
	return (const char *)o + k->off;
}

static int parse_bool(const char *s, uint64_t *out)
{
	if (!strcmp(s, "1") || !strcmp(s, "on") || !strcmp(s, "true") ||
	    !strcmp(s, "yes"))
		*out = 1;
	else if (!strcmp(s, "0") || !strcmp(s, "off") || !strcmp(s, "false") ||
		 !strcmp(s, "no"))
		*out = 0;
	else
		return -EINVAL;
	return 0;
}

static bool is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

/* Format a size the way it can be parsed back: "256M", "32K", "1000". */
static void format_size(uint64_t v, char *buf, size_t len)
{
	static const char units[] = "TGMK";
	unsigned int i;

	for (i = 0; i < 4 && v; i++) {
		unsigned int shift = 40 - 10 * i;

		if (!(v & ((1ULL << shift) - 1))) {
			snprintf(buf, len, "%" PRIu64 "%c", v >> shift,
				 units[i]);
			return;
		}
	}
	snprintf(buf, len, "%" PRIu64, v);
}

/* "all", "none", or the families that are on: "api,platform". */
static void format_checks(unsigned int set, char *buf, size_t len)
{
	unsigned int f;
	size_t n = 0;

	set &= DMAEMU__CHECKS_ALL;
	if (set == DMAEMU__CHECKS_ALL || !set) {
		snprintf(buf, len, "%s", set ? "all" : "none");
		return;
	}
	buf[0] = '\0';
	for (f = 0; f < DMAEMU__CHECK_NFAMILIES; f++) {
		if (!(set & (1U << f)) || n >= len)
			continue;
		n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? "," : "",
				      dmaemu__check_family_name(f));
	}
}

/*
 * checks=: a comma list of items applied left to right.  An item is all,
 * none or a family's name, with an optional - (turn off) or + (turn on)
 * before it.  A list whose first item has no sign sets the families from
 * nothing ("coherence,api": those two); one that starts with a sign
 * changes the default, every family on ("-coherence").
 */
static int parse_checks(const char *val, unsigned int *out)
{
	unsigned int set = DMAEMU__CHECKS_ALL, bits, f;
	const char *p = val;
	bool first = true;

	for (;;) {
		size_t n = strcspn(p, ",");
		char sign = 0;

		if (n && (*p == '-' || *p == '+')) {
			sign = *p++;
			n--;
		}
		if (!n)
			return -EINVAL;
		if (n == 3 && !memcmp(p, "all", 3)) {
			bits = DMAEMU__CHECKS_ALL;
		} else if (n == 4 && !memcmp(p, "none", 4)) {
			bits = 0;
		} else {
			for (f = 0; f < DMAEMU__CHECK_NFAMILIES; f++) {
				const char *name = dmaemu__check_family_name(f);

				if (strlen(name) == n && !memcmp(p, name, n))
					break;
			}
			if (f == DMAEMU__CHECK_NFAMILIES)
				return -EINVAL;
			bits = 1U << f;
		}
		if (first && !sign)
			set = 0;
		if (sign == '-')
			set &= ~bits;
		else
			set |= bits;
		first = false;
		p += n;
		if (!*p)
			break;
		p++; /* the comma */
	}
	*out = set;
	return 0;
}

static void format_value(const struct dmaemu__options *o,
			 const struct opt_key *k, char *buf, size_t len)
{
	const void *f = cfield(o, k);

	switch (k->type) {
	case OPT_PROFILE:
		snprintf(
			buf, len, "%s",
			dmaemu__profile_name(*(const enum dmaemu__profile *)f));
		break;
	case OPT_POLICY:
		snprintf(
			buf, len, "%s",
			cachesim_policy_name(*(const enum cachesim_policy *)f));
		break;
	case OPT_SIZE:
		format_size(*(const uint64_t *)f, buf, len);
		break;
	case OPT_ADDR:
		snprintf(buf, len, "0x%" PRIx64, *(const uint64_t *)f);
		break;
	case OPT_UINT:
		snprintf(buf, len, "%u", *(const unsigned int *)f);
		break;
	case OPT_U64:
		snprintf(buf, len, "%" PRIu64, *(const uint64_t *)f);
		break;
	case OPT_INT:
		snprintf(buf, len, "%d", *(const int *)f);
		break;
	case OPT_BOOL:
		snprintf(buf, len, "%d", *(const bool *)f ? 1 : 0);
		break;
	case OPT_PATH:
		snprintf(buf, len, "%s", (const char *)f);
		break;
	case OPT_PAIR:
		snprintf(buf, len, "%s", k->names[*(const bool *)f]);
		break;
	case OPT_CHECKS:
		format_checks(*(const unsigned int *)f, buf, len);
		break;
	case OPT_FAULT:
		dmaemu__fault_format((const struct dmaemu__fault_attr *)f, buf,
				     len);
		break;
	case OPT_TRACE:
		dmaemu__trace_format_groups(*(const unsigned int *)f, buf, len);
		break;
	case OPT_TIMING:
		dmaemu__timing_format((const struct dmaemu_device_timing *)f,
				      buf, len);
		break;
	}
}

static void set_err(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/*
 * Parse @val for @k and store it.  Return: 0, or -EINVAL with @why set to a
 * short reason.
 */
static int set_value(struct dmaemu__options *o, const struct opt_key *k,
		     const char *val, const char **why)
{
	void *f = field(o, k);
	uint64_t v = 0;
	int ret = 0;

	*why = NULL;
	switch (k->type) {
	case OPT_PROFILE: {
		unsigned int i;

		for (i = 0; i <= DMAEMU__PROFILE_X86; i++) {
			if (!strcmp(val, profile_names[i])) {
				*(enum dmaemu__profile *)f =
					(enum dmaemu__profile)i;
				return 0;
			}
		}
		*why = "expected arm, arm64 or x86";
		return -EINVAL;
	}
	case OPT_POLICY: {
		enum cachesim_policy p;

		if (cachesim_parse_policy(val, &p) < 0) {
			*why = "expected lru, plru, fifo or random";
			return -EINVAL;
		}
		*(enum cachesim_policy *)f = p;
		return 0;
	}
	case OPT_PAIR:
		if (strcmp(val, k->names[0]) && strcmp(val, k->names[1])) {
			*why = k->names[2];
			return -EINVAL;
		}
		*(bool *)f = !strcmp(val, k->names[1]);
		return 0;
	case OPT_CHECKS:
		if (parse_checks(val, (unsigned int *)f) < 0) {
			*why = "expected all, none or families api, coherence, "
			       "platform, comma-separated, each may have - or "
			       "+ before it";
			return -EINVAL;
		}
		return 0;
	case OPT_FAULT:
		if (dmaemu__fault_parse(val, (struct dmaemu__fault_attr *)f) <
		    0) {
			*why = "expected off or interval,probability,space,"
			       "times (probability 0-100, space >= 0, times "
			       ">= -1), as Linux's failslab= boot parameter";
			return -EINVAL;
		}
		return 0;
	case OPT_TRACE:
		if (dmaemu__trace_parse(val, (unsigned int *)f) < 0) {
			*why = "expected all, default, none or a comma list "
			       "of alloc, dma, device, mmio, irq, report, "
			       "cache";
			return -EINVAL;
		}
		return 0;
	case OPT_TIMING:
		switch (dmaemu__timing_parse(
			val, (struct dmaemu_device_timing *)f, NULL)) {
		case 0:
			return 0;
		case -ERANGE:
			*why = DMAEMU__TIMING_LIMITS;
			return -EINVAL;
		default:
			*why = "expected off or a comma list of latency=TIME, "
			       "jitter=TIME (TIME: a number with ns, us, ms "
			       "or s) and bandwidth=BYTES per second (with k, "
			       "M or G)";
			return -EINVAL;
		}
	case OPT_PATH:
		if (strlen(val) >= DMAEMU__OPT_PATH_MAX) {
			*why = "path too long";
			return -EINVAL;
		}
		strcpy((char *)f, val);
		return 0;
	case OPT_BOOL:
		ret = parse_bool(val, &v);
		break;
	case OPT_SIZE:
	case OPT_UINT:
		ret = cachesim_parse_u64(
			val, CACHESIM_PARSE_HEX | CACHESIM_PARSE_SUFFIX, &v);
		break;
	case OPT_ADDR:
	case OPT_U64:
	case OPT_INT:
		ret = cachesim_parse_u64(val, CACHESIM_PARSE_HEX, &v);
		break;
	}
	if (ret < 0 && k->type == OPT_BOOL) {
		*why = "expected 0 or 1 (off or on, false or true, no or yes)";
		return -EINVAL;
	}
	if (ret < 0) {
		*why = ret == -ERANGE ? "number too large" : "not a number";
		return -EINVAL;
	}
	if (v < k->min || v > k->max) {
		*why = "out of range";
		return -EINVAL;
	}
	if ((k->flags & F_POW2) && !is_pow2(v)) {
		*why = "not a power of two";
		return -EINVAL;
	}
	if ((k->flags & F_PAGE) && (v & (DMAEMU__PAGE_SIZE - 1))) {
		*why = "not a multiple of the page size (4K)";
		return -EINVAL;
	}
	switch (k->type) {
	case OPT_SIZE:
	case OPT_ADDR:
	case OPT_U64:
		*(uint64_t *)f = v;
		break;
	case OPT_UINT:
		*(unsigned int *)f = (unsigned int)v;
		break;
	case OPT_INT:
		*(int *)f = (int)v;
		break;
	case OPT_BOOL:
		*(bool *)f = v != 0;
		break;
	default:
		break;
	}
	return 0;
}

/* ---------------------------------------------------------------------- */
/* "did you mean": the nearest known key or value                          */

#define WORD_MAX 32 /* longer words are never compared */

/*
 * The optimal string alignment distance of @a (@na chars) and @b: the
 * edits (insert, delete, replace, swap two neighbours) that make one the
 * other, ignoring case.  UINT_MAX when either is longer than WORD_MAX.
 */
static unsigned int distance(const char *a, size_t na, const char *b)
{
	unsigned int d[WORD_MAX + 1][WORD_MAX + 1];
	size_t nb = strlen(b), i, j;

	if (na > WORD_MAX || nb > WORD_MAX)
		return UINT_MAX;
	for (i = 0; i <= na; i++)
		d[i][0] = (unsigned int)i;
	for (j = 0; j <= nb; j++)
		d[0][j] = (unsigned int)j;
	for (i = 1; i <= na; i++) {
		for (j = 1; j <= nb; j++) {
			unsigned int cost = tolower((unsigned char)a[i - 1]) !=
					    tolower((unsigned char)b[j - 1]);
			unsigned int v = d[i - 1][j - 1] + cost;

			if (d[i - 1][j] + 1 < v)
				v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	}
	return d[na][nb];
}

/*
 * The word of @words (NULL-terminated) nearest @s (@n chars), when it is
 * near enough to be a typing error: one edit in a short word, a third of
 * the letters in a longer one.  Single letters are not guessed at.
 */
static const char *nearest(const char *s, size_t n, const char *const *words)
{
	const char *best = NULL;
	unsigned int bd = UINT_MAX, limit;
	size_t i, len;

	if (n < 2)
		return NULL;
	for (i = 0; words[i]; i++) {
		unsigned int d = distance(s, n, words[i]);

		if (d < bd) {
			bd = d;
			best = words[i];
		}
	}
	if (!best)
		return NULL;
	len = strlen(best) > n ? strlen(best) : n;
	limit = len >= 6 ? (unsigned int)(len / 3) : 1;
	return bd <= limit ? best : NULL;
}

static const char *nearest_key(const char *s, size_t n)
{
	const char *names[K_NKEYS + 1];
	unsigned int i;

	for (i = 0; i < K_NKEYS; i++)
		names[i] = keys[i].name;
	names[K_NKEYS] = NULL;
	return nearest(s, n, names);
}

/*
 * Correct each item of the comma list @val that is not one of @words,
 * keeping a - or + before it when @signs: the corrected list in @buf.
 * Return: true when every item was known or could be corrected.
 */
static bool fix_list(const char *val, const char *const *words, bool signs,
		     char *buf, size_t len)
{
	const char *p = val;
	size_t out = 0;

	for (;;) {
		size_t n = strcspn(p, ","), i;
		const char *w = NULL;
		int sign = 0;

		if (signs && n && (*p == '-' || *p == '+')) {
			sign = *p++;
			n--;
		}
		for (i = 0; words[i] && !w; i++)
			if (strlen(words[i]) == n && !memcmp(words[i], p, n))
				w = words[i];
		if (!w)
			w = nearest(p, n, words);
		if (!w)
			return false;
		out += (size_t)snprintf(buf + out, out < len ? len - out : 0,
					"%s%s%s", out ? "," : "",
					sign ? (sign == '-' ? "-" : "+") : "",
					w);
		p += n;
		if (!*p)
			break;
		p++;
	}
	return out < len;
}

/*
 * A value of @k near @val that parses, for "did you mean" (in @buf).
 * Words are corrected (profile=arm46, sched=lockstpe, checks=-coherance);
 * a size spelled with a unit of bytes loses it (mem=64MB, mem=64MiB).
 */
static bool suggest_value(const struct opt_key *k, const char *val, char *buf,
			  size_t len)
{
	static const char *const bools[] = {"0",    "1",  "off", "on", "false",
					    "true", "no", "yes", NULL};
	static const char *const policies[] = {"lru", "plru", "fifo", "random",
					       NULL};
	const char *words[DMAEMU__CHECK_NFAMILIES + DMAEMU__TRACE_NGROUPS + 4];
	struct dmaemu__options scratch;
	const char *why, *w = NULL;
	size_t n = strlen(val);
	unsigned int i, nw = 0;

	switch (k->type) {
	case OPT_PROFILE:
		for (i = 0; i <= DMAEMU__PROFILE_X86; i++)
			words[nw++] = profile_names[i];
		words[nw] = NULL;
		w = nearest(val, n, words);
		break;
	case OPT_POLICY:
		w = nearest(val, n, policies);
		break;
	case OPT_PAIR:
		words[0] = k->names[0];
		words[1] = k->names[1];
		words[2] = NULL;
		w = nearest(val, n, words);
		break;
	case OPT_BOOL:
		w = nearest(val, n, bools);
		break;
	case OPT_CHECKS:
		words[nw++] = "all";
		words[nw++] = "none";
		for (i = 0; i < DMAEMU__CHECK_NFAMILIES; i++)
			words[nw++] = dmaemu__check_family_name(i);
		words[nw] = NULL;
		if (!fix_list(val, words, true, buf, len))
			return false;
		break;
	case OPT_TRACE:
		words[nw++] = "all";
		words[nw++] = "default";
		words[nw++] = "none";
		for (i = 0; i < DMAEMU__TRACE_NGROUPS; i++)
			words[nw++] = dmaemu__trace_group_name(i);
		words[nw] = NULL;
		if (!fix_list(val, words, false, buf, len))
			return false;
		break;
	case OPT_SIZE:
	case OPT_UINT:
		if (n > 2 && !strcmp(val + n - 2, "iB"))
			n -= 2;
		else if (n > 1 && (val[n - 1] == 'B' || val[n - 1] == 'b'))
			n--;
		else
			return false;
		if (n >= len)
			return false;
		memcpy(buf, val, n);
		buf[n] = '\0';
		break;
	default:
		return false;
	}
	if (w)
		snprintf(buf, len, "%s", w);
	else if (k->type != OPT_CHECKS && k->type != OPT_TRACE &&
		 k->type != OPT_SIZE && k->type != OPT_UINT)
		return false;
	dmaemu__options_defaults(&scratch);
	return strcmp(buf, val) && set_value(&scratch, k, buf, &why) == 0;
}

/**
 * dmaemu__options_defaults() - the options of a machine nobody configured.
 * @o: options to fill.
 *
 * The profile-dependent keys get the arm64 values here; they are replaced
 * by the chosen profile's values in dmaemu__options_finish() unless set.
 */
void dmaemu__options_defaults(struct dmaemu__options *o)
{
	memset(o, 0, sizeof(*o));
	o->profile = DMAEMU__PROFILE_ARM64;
	o->mem_base = 0x80000000ULL;
	o->mem = 256ULL << 20;
	o->highmem_base = SZ_4G;
	o->highmem = 0;
	o->cache_size = 32 << 10;
	o->cache_ways = 4;
	o->cache_line = 64;
	o->cache_policy = CACHESIM_LRU;
	o->dma_minalign = 0;
	o->wc_buffers = 4;
	o->wc_size = 64;
	o->prefetch = false;
	o->stats = false;
	o->prefetch_rate = 256;
	o->seed = 1;
	o->halt_on_error = false;
	o->exitcode = 0;
	o->report_repeats = 1;
	o->log_path[0] = '\0';
	o->iommu = false;
	o->swiotlb_force = false;
	o->map_clean = false;
	o->iommu_strict = false;
	o->swiotlb_size = 4ULL << 20;
	o->dma_offset = 0;
	o->report_keep = 256;
	o->suppressions[0] = '\0';
	o->report_limit = 0;
	o->verbosity = 1;
	o->checks = DMAEMU__CHECKS_ALL;
	o->fail_verbose = true;
	o->trace_events = DMAEMU__TRACE_DEFAULT;
	o->trace_buffer = 0;
	o->ordering_strong = false;
	o->portability_notes = true;
	o->posted_relaxed = false;
	o->report_fold = true;
	o->irq_storm = 100000;
	o->sched_step_ns = 1000;
	o->hang_timeout_ms = 120000;
	o->log_stable = false;
	o->unmap_history = 1024;
}

/**
 * dmaemu__options_parse() - apply one "key=value:key=value" stage.
 * @o:      options to update.
 * @s:      the string; NULL or "" change nothing; empty items are skipped.
 * @origin: name of the stage for messages ("DMAEMU_OPTIONS", "options");
 *          must be a string that outlives @o (a literal).
 * @err:    on error, receives "<origin>: unknown option 'foo'" or
 *          "<origin>: bad value 'x' for 'mem' (reason)".
 * @errlen: size of @err.
 *
 * Return: 0, or -EINVAL (@o may then be partly updated).
 */
int dmaemu__options_parse(struct dmaemu__options *o, const char *s,
			  const char *origin, char *err, size_t errlen)
{
	char *copy, *item, *save = NULL;
	int ret = 0;

	if (!s || !*s)
		return 0;
	copy = dmaemu__strdup(s);
	if (!copy) {
		set_err(err, errlen, "%s: out of memory", origin);
		return -ENOMEM;
	}
	for (item = strtok_r(copy, ":", &save); item;
	     item = strtok_r(NULL, ":", &save)) {
		const char *eq = strchr(item, '='), *why;
		const struct opt_key *k;

		if (!eq) {
			set_err(err, errlen,
				"%s: option '%s' has no value (key=value)",
				origin, item);
			ret = -EINVAL;
			break;
		}
		k = find_key(item, (size_t)(eq - item));
		if (!k) {
			const char *near =
				nearest_key(item, (size_t)(eq - item));

			if (near)
				set_err(err, errlen,
					"%s: unknown option '%.*s' (did you "
					"mean '%s'?)",
					origin, (int)(eq - item), item, near);
			else
				set_err(err, errlen,
					"%s: unknown option '%.*s' (help=1 "
					"lists the options)",
					origin, (int)(eq - item), item);
			ret = -EINVAL;
			break;
		}
		if (set_value(o, k, eq + 1, &why) < 0) {
			char near[128];

			if (suggest_value(k, eq + 1, near, sizeof(near)))
				set_err(err, errlen,
					"%s: bad value '%s' for '%s' (%s; did "
					"you mean '%s'?)",
					origin, eq + 1, k->name, why, near);
			else
				set_err(err, errlen,
					"%s: bad value '%s' for '%s' (%s)",
					origin, eq + 1, k->name, why);
			ret = -EINVAL;
			break;
		}
		o->set_by[k - keys] = origin;
	}
	dmaemu__free(copy);
	return ret;
}

static int bad_combo(const struct dmaemu__options *o, unsigned int key,
		     char *err, size_t errlen, const char *why)
{
	char val[64];

	format_value(o, &keys[key], val, sizeof(val));
	set_err(err, errlen, "%s: bad value '%s' for '%s' (%s)",
		o->set_by[key] ? o->set_by[key] : "defaults", val,
		keys[key].name, why);
	return -EINVAL;
}

/* Of two keys that conflict, blame the one set last (the later stage). */
static unsigned int blame(const struct dmaemu__options *o, unsigned int a,
			  unsigned int b)
{
	if (!o->set_by[a])
		return b;
	if (!o->set_by[b])
		return a;
	/* DMAEMU_OPTIONS is applied after "options" (the argument). */
	if (!strcmp(o->set_by[b], "DMAEMU_OPTIONS") &&
	    strcmp(o->set_by[a], "DMAEMU_OPTIONS"))
		return b;
	return a;
}

/* ARCH_DMA_MINALIGN of the profile (see dmaemu__options_finish()). */
static unsigned int profile_minalign(const struct dmaemu__options *o)
{
	switch (o->profile) {
	case DMAEMU__PROFILE_ARM64:
		return o->cache_line > 128 ? o->cache_line : 128;
	case DMAEMU__PROFILE_X86:
		return 1;
	default:
		return o->cache_line;
	}
}

/**
 * dmaemu__options_finish() - apply profile defaults, check the whole set.
 * @o:      options after every stage.
 * @err:    receives a message naming the key and its origin.
 * @errlen: size of @err.
 *
 * Profile defaults: arm and arm64 have a 32 KiB 4-way L1 data cache with
 * 64-byte lines (Cortex-A7/A15/A53/A55 class); x86 a 32 KiB 8-way one.
 * dma_minalign defaults to each profile's ARCH_DMA_MINALIGN in Linux 4.14:
 * arm64 128 (arch/arm64/include/asm/cache.h, whatever the line size, or
 * the line size when it is larger), arm the line size (L1_CACHE_BYTES,
 * arch/arm/include/asm/cache.h), x86 none: 1, so dma_get_cache_alignment()
 * is 1 and the smallest kmalloc object is 8 (ARCH_KMALLOC_MINALIGN).
 *
 * Return: 0, or -EINVAL.
 */
int dmaemu__options_finish(struct dmaemu__options *o, char *err, size_t errlen)
{
	uint64_t sets;

	if (!o->set_by[K_CACHE_WAYS])
		o->cache_ways = o->profile == DMAEMU__PROFILE_X86 ? 8 : 4;
	if (!o->set_by[K_DMA_MINALIGN])
		o->dma_minalign = profile_minalign(o);

	if (o->map_clean && o->profile != DMAEMU__PROFILE_ARM64)
		return bad_combo(o, K_MAP_POLICY, err, errlen,
				 "map_policy applies to profile=arm64 only");
	/*
	 * Linux 6.12's arm64 arch_sync_dma_for_device() cleans for every
	 * direction (since 5.19): at kernel=6.12 that is the only policy.
	 */
	if (o->k612 && o->profile == DMAEMU__PROFILE_ARM64) {
		if (o->set_by[K_MAP_POLICY] && !o->map_clean)
			return bad_combo(o, K_MAP_POLICY, err, errlen,
					 "kernel=6.12's arm64 map always "
					 "cleans: map_policy=4.14 needs "
					 "kernel=4.14");
		o->map_clean = true;
	}
	/*
	 * kmalloc()'s alignment: ARCH_DMA_MINALIGN in 4.14; 8 on 6.12's
	 * arm64 (ARCH_KMALLOC_MINALIGN since 6.5, with the small buffers
	 * that may share a line bounced: dma_kmalloc_needs_bounce()).
	 */
	o->kmalloc_minalign = o->k612 && o->profile == DMAEMU__PROFILE_ARM64
				      ? 8
				      : o->dma_minalign;
	if (o->iommu_strict && !o->iommu)
		return bad_combo(o, K_IOMMU_STRICT, err, errlen,
				 "iommu_strict needs iommu=1");
	if (o->mem_base + o->mem > SZ_4G)
		return bad_combo(o, blame(o, K_MEM, K_MEM_BASE), err, errlen,
				 "the low bank must end at or below 4 GiB");
	if (o->highmem && o->highmem_base + o->highmem > PHYS_LIMIT)
		return bad_combo(o, blame(o, K_HIGHMEM, K_HIGHMEM_BASE), err,
				 errlen, "the high bank must end below 2^48");
	if (o->cache_size < (uint64_t)o->cache_ways * o->cache_line)
		return bad_combo(o, blame(o, K_CACHE_SIZE, K_CACHE_WAYS), err,
				 errlen, "smaller than one set (ways * line)");
	sets = o->cache_size / ((uint64_t)o->cache_ways * o->cache_line);
	if (sets * o->cache_ways * o->cache_line != o->cache_size ||
	    !is_pow2(sets))
		return bad_combo(o, blame(o, K_CACHE_SIZE, K_CACHE_WAYS), err,
				 errlen,
				 "size / (ways * line) must be a power of two");
	if (o->cache_policy == CACHESIM_PLRU && !is_pow2(o->cache_ways))
		return bad_combo(o, K_CACHE_WAYS, err, errlen,
				 "plru needs a power-of-two number of ways");
	return 0;
}

/*
 * The one line that says which keys DMAEMU_OPTIONS took over from the
 * program's string (@prog: the options after that string alone) with a
 * different value, in @buf (NULL, 0: only measure).  Return: its length,
 * 0 when there are none.
 */
static size_t override_note(const struct dmaemu__options *o,
			    const struct dmaemu__options *prog, char *buf,
			    size_t len)
{
	size_t n = 0;
	unsigned int i;

	for (i = 0; i < K_NKEYS; i++) {
		char was[DMAEMU__OPT_PATH_MAX + 64], now[sizeof(was)];

		if (!o->set_by[i] || strcmp(o->set_by[i], "DMAEMU_OPTIONS") ||
		    !prog->set_by[i])
			continue;
		format_value(prog, &keys[i], was, sizeof(was));
		format_value(o, &keys[i], now, sizeof(now));
		if (!strcmp(was, now))
			continue;
		n += (size_t)snprintf(buf ? buf + n : NULL,
				      n < len ? len - n : 0,
				      "%s %s=%s (the program's: %s)",
				      n ? ","
					: "DMAEMU_OPTIONS overrides the "
					  "program's options:",
				      keys[i].name, now, was);
	}
	return n;
}

/*
 * The markers of the driver code's API level (<dmaemu/level.h>): each
 * translation unit built with the kernel-personality headers defines the
 * one of its level.  Weak references: a program built without them
 * defines neither.
 */
extern const int dmaemu_kernel_headers_414 __attribute__((weak));
extern const int dmaemu_kernel_headers_612 __attribute__((weak));

/**
 * dmaemu__options_level() - do the program's headers and the machine
 * agree on the Linux API level?
 * @o:      the machine's options, built.
 * @err:    receives a message naming both levels.
 * @errlen: size of @err.
 *
 * Return: 0, or -EINVAL when the program was built with the headers of
 * the other level (or of both).
 */
int dmaemu__options_level(const struct dmaemu__options *o, char *err,
			  size_t errlen)
{
	bool h414 = &dmaemu_kernel_headers_414 != NULL;
	bool h612 = &dmaemu_kernel_headers_612 != NULL;
	const char *mach = o->k612 ? "6.12" : "4.14";
	const char *by = !o->set_by[K_KERNEL] ? "the default"
			 : !strcmp(o->set_by[K_KERNEL], "options")
				 ? "the program's options"
				 : o->set_by[K_KERNEL];

	if (h414 && h612) {
		set_err(err, errlen,
			"the program mixes code built with the Linux 4.14 "
			"kernel headers and code built with the Linux 6.12 "
			"ones (DMAEMU_KERNEL=612, dmaemu-cc "
			"--dmaemu-kernel=6.12): build all of it at one level");
		return -EINVAL;
	}
	if ((h612 && !o->k612) || (h414 && o->k612)) {
		const char *hdr = h612 ? "6.12" : "4.14";

		set_err(err, errlen,
			"the program was built with the Linux %s kernel "
			"headers (%s) but the machine is kernel=%s (%s): "
			"create the machine with kernel=%s, or build the "
			"program at %s",
			hdr,
			h612 ? "DMAEMU_KERNEL=612, dmaemu-cc "
			       "--dmaemu-kernel=6.12"
			     : "the default, DMAEMU_KERNEL=414",
			mach, by, hdr, mach);
		return -EINVAL;
	}
	return 0;
}

/**
 * dmaemu__options_build() - every stage, in order, then the checks.
 * @o:      options to build.
 * @env:    the value of DMAEMU_OPTIONS, or NULL.
 * @str:    the string given to dmaemu_machine_create(), or NULL.
 * @note:   NULL, or receives a line to print (without a prefix) when
 *          DMAEMU_OPTIONS sets a key to another value than @str does:
 *          "DMAEMU_OPTIONS overrides the program's options: seed=5 (the
 *          program's: 7)", allocated (dmaemu__free() it); NULL when there
 *          is nothing to say.
 * @err:    receives a one-line message (without the "dmaemu: " prefix).
 * @errlen: size of @err.
 *
 * The environment comes last and wins, as ASAN_OPTIONS wins over the
 * defaults a program compiles in: whoever runs the program has the last
 * word.
 *
 * Return: 0, -EINVAL for a bad option, -ENOMEM.
 */
int dmaemu__options_build(struct dmaemu__options *o, const char *env,
			  const char *str, char **note, char *err,
			  size_t errlen)
{
	struct dmaemu__options *prog = NULL;
	int ret;

	if (note)
		*note = NULL;
	dmaemu__options_defaults(o);
	ret = dmaemu__options_parse(o, str, "options", err, errlen);
	if (!ret && note && env && *env) {
		prog = dmaemu__malloc(sizeof(*prog));
		if (!prog) {
			set_err(err, errlen, "options: out of memory");
			return -ENOMEM;
		}
		*prog = *o;
	}
	if (!ret)
		ret = dmaemu__options_parse(o, env, "DMAEMU_OPTIONS", err,
					    errlen);
	if (!ret)
		ret = dmaemu__options_finish(o, err, errlen);
	if (!ret && prog) {
		size_t n = override_note(o, prog, NULL, 0);

		if (n) {
			*note = dmaemu__malloc(n + 1);
			if (*note)
				override_note(o, prog, *note, n + 1);
			else
				ret = -ENOMEM;
		}
	}
	dmaemu__free(prog);
	return ret;
}

/**
 * dmaemu__options_help() - help=1: every key, its default and its meaning.
 * @o: the options of the machine; the defaults shown are those of its
 *     profile, and a key set to another value says so.
 * @f: the stream.
 */
void dmaemu__options_help(const struct dmaemu__options *o, FILE *f)
{
	struct dmaemu__options d;
	char err[128];
	unsigned int i;

	dmaemu__options_defaults(&d);
	d.profile = o->profile;
	d.set_by[K_PROFILE] = o->set_by[K_PROFILE];
	dmaemu__options_finish(&d, err, sizeof(err));
	fprintf(f,
		"dmaemu: the options, KEY=DEFAULT (profile=%s) and what "
		"each does; set them in\n"
		"dmaemu: DMAEMU_OPTIONS, which wins, or the string given to "
		"dmaemu_machine_create()\n"
		"dmaemu: (docs/options.md, dmaemu(7)):\n",
		dmaemu__profile_name(o->profile));
	for (i = 0; i < K_NKEYS; i++) {
		char def[DMAEMU__OPT_PATH_MAX + 64], now[sizeof(def)];
		char kv[sizeof(def) + 32];

		format_value(&d, &keys[i], def, sizeof(def));
		format_value(o, &keys[i], now, sizeof(now));
		snprintf(kv, sizeof(kv), "%s=%s", keys[i].name, def);
		fprintf(f, "    %-24s %s", kv,
			key_help[i] ? key_help[i] : "(see docs/options.md)");
		if (o->set_by[i] && strcmp(def, now))
			fprintf(f, " [%s: %s]", o->set_by[i], now);
		fputc('\n', f);
	}
}

/** dmaemu__option_origin() - the stage that set @key ("defaults" if none). */
const char *dmaemu__option_origin(const struct dmaemu__options *o,
				  const char *key)
{
	const struct opt_key *k = find_key(key, strlen(key));

	if (!k || !o->set_by[k - keys])
		return "defaults";
	return o->set_by[k - keys];
}

int dmaemu_machine_option(struct dmaemu_machine *m, const char *key, char *buf,
			  size_t len)
{
	const struct opt_key *k;

	if (dmaemu__machine_bad(m, "dmaemu_machine_option"))
		return -EINVAL;
	if (!m || !key || !buf || !len)
		return -EINVAL;
	k = find_key(key, strlen(key));
	if (!k)
		return -ENOENT;
	format_value(&m->opt, k, buf, len);
	return 0;
}

/* ---------------------------------------------------------------------- */
/* Device timing: device_timing= and dmaemu_device_set_options()           */

struct unit {
	const char *name;
	uint64_t factor;
};

static const struct unit time_units[] = {
	{"ns", 1}, {"us", 1000}, {"ms", 1000000}, {"s", 1000000000}, {NULL, 0}};
static const struct unit rate_units[] = {
	{"k", 1000}, {"M", 1000000}, {"G", 1000000000}, {NULL, 0}};

/* Parse @v (@n chars) as a number with one of @units, or none.
 * Return: 0, or -EINVAL (no digits, an unknown unit, an overflow). */
static int parse_num_unit(const char *v, size_t n, const struct unit *units,
			  uint64_t *out)
{
	uint64_t x = 0;
	size_t i = 0, k;

	if (!n || v[0] < '0' || v[0] > '9')
		return -EINVAL;
	for (; i < n && v[i] >= '0' && v[i] <= '9'; i++) {
		if (x > (UINT64_MAX - 9) / 10)
			return -EINVAL;
		x = 10 * x + (uint64_t)(v[i] - '0');
	}
	if (i == n) {
		*out = x;
		return 0;
	}
	for (k = 0; units[k].name; k++) {
		if (strlen(units[k].name) == n - i &&
		    !strncmp(v + i, units[k].name, n - i)) {
			if (x && units[k].factor > UINT64_MAX / x)
				return -EINVAL;
			*out = x * units[k].factor;
			return 0;
		}
	}
	return -EINVAL;
}

/**
 * dmaemu__timing_check() - are @t's knobs within their limits?
 *
 * Each DMA call of a device costs latency + len / bandwidth + jitter,
 * slept on the host under sched=threads: latency and jitter are at most
 * DMAEMU__TIMING_MAX_NS each, and a bandwidth cap is at least
 * DMAEMU__TIMING_MIN_BANDWIDTH bytes per second (0: no cap), so that one
 * call of a page costs at most about 24 ms of host time.
 * Return: 0, or -ERANGE.
 */
int dmaemu__timing_check(const struct dmaemu_device_timing *t)
{
	if (t->latency_ns > DMAEMU__TIMING_MAX_NS ||
	    t->jitter_ns > DMAEMU__TIMING_MAX_NS ||
	    (t->bandwidth && t->bandwidth < DMAEMU__TIMING_MIN_BANDWIDTH))
		return -ERANGE;
	return 0;
}

/**
 * dmaemu__timing_parse() - parse timing knobs into @t.
 * @s:   "off", or items key=value separated by ',' or ':': latency=TIME,
 *       jitter=TIME, bandwidth=RATE; keys not given keep @t's value.
 * @t:   updated only when the whole string parses.
 * @bad: NULL, or set to the first bad item (its length up to the next
 *       separator) on an error.
 *
 * Return: 0; -EINVAL (a bad item); -ERANGE (an item beyond its limit,
 * dmaemu__timing_check()).
 */
int dmaemu__timing_parse(const char *s, struct dmaemu_device_timing *t,
			 const char **bad)
{
	struct dmaemu_device_timing v = *t;
	const char *p = s;

	if (!strcmp(s, "off")) {
		memset(t, 0, sizeof(*t));
		return 0;
	}
	while (*p) {
		size_t n = strcspn(p, ":,"), k;
		const char *eq = memchr(p, '=', n);
		const struct unit *u = time_units;
		uint64_t *dst = NULL;

		if (n) {
			k = eq ? (size_t)(eq - p) : n;
			if (k == 7 && !strncmp(p, "latency", k))
				dst = &v.latency_ns;
			else if (k == 6 && !strncmp(p, "jitter", k))
				dst = &v.jitter_ns;
			else if (k == 9 && !strncmp(p, "bandwidth", k)) {
				dst = &v.bandwidth;
				u = rate_units;
			}
			if (!eq || !dst ||
			    parse_num_unit(eq + 1, n - k - 1, u, dst)) {
				if (bad)
					*bad = p;
				return -EINVAL;
			}
			if (dmaemu__timing_check(&v)) {
				if (bad)
					*bad = p;
				return -ERANGE;
			}
		}
		p += n;
		if (*p)
			p++;
	}
	*t = v;
	return 0;
}

/* "off", or the knobs that are set, as dmaemu__timing_parse() reads them
 * back: "latency=2000ns,jitter=200ns". */
void dmaemu__timing_format(const struct dmaemu_device_timing *t, char *buf,
			   size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	if (t->latency_ns)
		n += (size_t)snprintf(buf + n, n < len ? len - n : 0,
				      "latency=%" PRIu64 "ns", t->latency_ns);
	if (t->bandwidth)
		n += (size_t)snprintf(buf + n, n < len ? len - n : 0,
				      "%sbandwidth=%" PRIu64, n ? "," : "",
				      t->bandwidth);
	if (t->jitter_ns)
		n += (size_t)snprintf(buf + n, n < len ? len - n : 0,
				      "%sjitter=%" PRIu64 "ns", n ? "," : "",
				      t->jitter_ns);
	if (!n)
		snprintf(buf, len, "off");
}
