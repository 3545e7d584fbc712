// SPDX-License-Identifier: MIT
/*
 * gfp.c - GFP flags by name.
 *
 * How it works: one X-macro list holds every name, widest combination
 * first and single bits last.  Formatting walks the list once and prints
 * each entry whose bits are all still present, removing them, so the
 * combinations a driver wrote come out as written (GFP_KERNEL|__GFP_ZERO)
 * and nothing is printed twice.  What no entry covers is printed as one
 * hexadecimal number.  Parsing accepts the same names and numbers.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/gfp.h>

#include "mm/mm.h"
#include "dmaemu/mm.h"

/*
 * The order matters: an entry must come before every entry whose bits are
 * a subset of its own (GFP_ATOMIC before GFP_NOWAIT, GFP_KERNEL before
 * GFP_NOFS before GFP_NOIO).  Bits with two names print as the first one
 * in the list (__GFP_KSWAPD_RECLAIM alone prints "GFP_NOWAIT", as in the
 * kernel's tracepoints).
 */
#define GFP_NAMES(X)            \
	X(GFP_TRANSHUGE)        \
	X(GFP_TRANSHUGE_LIGHT)  \
	X(GFP_HIGHUSER_MOVABLE) \
	X(GFP_HIGHUSER)         \
	X(GFP_USER)             \
	X(GFP_KERNEL_ACCOUNT)   \
	X(GFP_KERNEL)           \
	X(GFP_NOFS)             \
	X(GFP_ATOMIC)           \
	X(GFP_NOIO)             \
	X(GFP_NOWAIT)           \
	X(GFP_DMA)              \
	X(__GFP_HIGHMEM)        \
	X(GFP_DMA32)            \
	X(__GFP_HIGH)           \
	X(__GFP_ATOMIC)         \
	X(__GFP_IO)             \
	X(__GFP_FS)             \
	X(__GFP_COLD)           \
	X(__GFP_NOWARN)         \
	X(__GFP_RETRY_MAYFAIL)  \
	X(__GFP_NOFAIL)         \
	X(__GFP_NORETRY)        \
	X(__GFP_MEMALLOC)       \
	X(__GFP_COMP)           \
	X(__GFP_ZERO)           \
	X(__GFP_NOMEMALLOC)     \
	X(__GFP_HARDWALL)       \
	X(__GFP_THISNODE)       \
	X(__GFP_RECLAIMABLE)    \
	X(__GFP_MOVABLE)        \
	X(__GFP_ACCOUNT)        \
	X(__GFP_NOTRACK)        \
	X(__GFP_WRITE)          \
	X(__GFP_DIRECT_RECLAIM) \
	X(__GFP_KSWAPD_RECLAIM) \
	X(__GFP_NOLOCKDEP)

/* Other names of the same bits, accepted by dmaemu_gfp_parse() only. */
#define GFP_ALIASES(X)                  \
	X(__GFP_DMA)                    \
	X(__GFP_DMA32)                  \
	X(__GFP_NOTRACK_FALSE_POSITIVE) \
	X(__GFP_RECLAIM)

struct gfp_name {
	gfp_t mask;
	const char *name;
};

static const struct gfp_name gfp_names[] = {
#define GFP_NAME_ENTRY(flag) {flag, #flag},
	GFP_NAMES(GFP_NAME_ENTRY)};

static const struct gfp_name gfp_aliases[] = {GFP_ALIASES(GFP_NAME_ENTRY)
#undef GFP_NAME_ENTRY
};

#define NNAMES (sizeof(gfp_names) / sizeof(gfp_names[0]))
#define NALIASES (sizeof(gfp_aliases) / sizeof(gfp_aliases[0]))

/* ---------------------------------------------------------------------- */
/* Formatting and parsing                                                 */
/* ---------------------------------------------------------------------- */

int dmaemu_gfp_format(unsigned int flags, char *buf, size_t len)
{
	struct dmaemu__sbuf b;
	const char *sep = "";
	gfp_t left = flags;
	size_t i;

	if (!buf && len)
		return -EINVAL;
	dmaemu__sbuf_init(&b, buf, len);
	if (!flags) {
		dmaemu__sbuf_printf(&b, "0");
		return dmaemu__sbuf_result(&b);
	}
	for (i = 0; i < NNAMES && left; i++) {
		if ((left & gfp_names[i].mask) != gfp_names[i].mask)
			continue;
		dmaemu__sbuf_printf(&b, "%s%s", sep, gfp_names[i].name);
		left &= ~gfp_names[i].mask;
		sep = "|";
	}
	if (left)
		dmaemu__sbuf_printf(&b, "%s%#x", sep, left);
	return dmaemu__sbuf_result(&b);
}

static int parse_one(const char *s, size_t n, gfp_t *out)
{
	char tmp[64];
	unsigned long v;
	char *end;
	size_t i;

	if (n == 0 || n >= sizeof(tmp))
		return -EINVAL;
	memcpy(tmp, s, n);
	tmp[n] = '\0';
	for (i = 0; i < NNAMES; i++) {
		if (!strcmp(tmp, gfp_names[i].name)) {
			*out = gfp_names[i].mask;
			return 0;
		}
	}
	for (i = 0; i < NALIASES; i++) {
		if (!strcmp(tmp, gfp_aliases[i].name)) {
			*out = gfp_aliases[i].mask;
			return 0;
		}
	}
	if (tmp[0] < '0' || tmp[0] > '9')
		return -EINVAL;
	errno = 0;
	v = strtoul(tmp, &end, 0);
	if (errno || *end || v > UINT_MAX)
		return -EINVAL;
	*out = (gfp_t)v;
	return 0;
}

int dmaemu_gfp_parse(const char *s, unsigned int *flags)
{
	gfp_t acc = 0;

	if (!s || !flags)
		return -EINVAL;
	for (;;) {
		const char *bar = strchr(s, '|');
		size_t n = bar ? (size_t)(bar - s) : strlen(s);
		gfp_t one;

		while (n && (*s == ' ' || *s == '\t')) {
			s++;
			n--;
		}
		while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
			n--;
		if (parse_one(s, n, &one))
			return -EINVAL;
		acc |= one;
		if (!bar)
			break;
		s = bar + 1;
	}
	*flags = acc;
	return 0;
}
