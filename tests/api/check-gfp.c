// SPDX-License-Identifier: MIT
/*
 * check-gfp.c - GFP flag values (Linux 4.14), their names, and parsing.
 *
 * The expected numbers are the ones Linux 4.14 prints in allocation
 * failure and OOM reports ("gfp_mask=0x14000c0(GFP_KERNEL)"), so a wrong
 * bit in <linux/gfp.h> fails here, not only a wrong name.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/gfp.h>

#include <dmaemu/device.h>
#include <dmaemu/machine.h>
#include <dmaemu/mm.h>
#include <dmaemu/report.h>
#include <dmaemu/testing.h>

#include "check-run.h"

struct named {
	gfp_t flags;
	unsigned int value; /* as Linux 4.14 defines it */
	const char *name;
	const char
		*printed; /* an alias prints as the first name: NULL = name */
};

/* Every name; each prints as itself alone, aliases as the first name. */
static const struct named names[] = {
	{GFP_TRANSHUGE, 0x4342ca, "GFP_TRANSHUGE", NULL},
	{GFP_TRANSHUGE_LIGHT, 0x342ca, "GFP_TRANSHUGE_LIGHT", NULL},
	{GFP_HIGHUSER_MOVABLE, 0x14200ca, "GFP_HIGHUSER_MOVABLE", NULL},
	{GFP_HIGHUSER, 0x14200c2, "GFP_HIGHUSER", NULL},
	{GFP_USER, 0x14200c0, "GFP_USER", NULL},
	{GFP_KERNEL_ACCOUNT, 0x15000c0, "GFP_KERNEL_ACCOUNT", NULL},
	{GFP_KERNEL, 0x14000c0, "GFP_KERNEL", NULL},
	{GFP_NOFS, 0x1400040, "GFP_NOFS", NULL},
	{GFP_ATOMIC, 0x1080020, "GFP_ATOMIC", NULL},
	{GFP_NOIO, 0x1400000, "GFP_NOIO", NULL},
	{GFP_NOWAIT, 0x1000000, "GFP_NOWAIT", NULL},
	{GFP_DMA, 0x1, "GFP_DMA", NULL},
	{__GFP_HIGHMEM, 0x2, "__GFP_HIGHMEM", NULL},
	{GFP_DMA32, 0x4, "GFP_DMA32", NULL},
	{__GFP_MOVABLE, 0x8, "__GFP_MOVABLE", NULL},
	{__GFP_RECLAIMABLE, 0x10, "__GFP_RECLAIMABLE", NULL},
	{__GFP_HIGH, 0x20, "__GFP_HIGH", NULL},
	{__GFP_IO, 0x40, "__GFP_IO", NULL},
	{__GFP_FS, 0x80, "__GFP_FS", NULL},
	{__GFP_COLD, 0x100, "__GFP_COLD", NULL},
	{__GFP_NOWARN, 0x200, "__GFP_NOWARN", NULL},
	{__GFP_RETRY_MAYFAIL, 0x400, "__GFP_RETRY_MAYFAIL", NULL},
	{__GFP_NOFAIL, 0x800, "__GFP_NOFAIL", NULL},
	{__GFP_NORETRY, 0x1000, "__GFP_NORETRY", NULL},
	{__GFP_MEMALLOC, 0x2000, "__GFP_MEMALLOC", NULL},
	{__GFP_COMP, 0x4000, "__GFP_COMP", NULL},
	{__GFP_ZERO, 0x8000, "__GFP_ZERO", NULL},
	{__GFP_NOMEMALLOC, 0x10000, "__GFP_NOMEMALLOC", NULL},
	{__GFP_HARDWALL, 0x20000, "__GFP_HARDWALL", NULL},
	{__GFP_THISNODE, 0x40000, "__GFP_THISNODE", NULL},
	{__GFP_ATOMIC, 0x80000, "__GFP_ATOMIC", NULL},
	{__GFP_ACCOUNT, 0x100000, "__GFP_ACCOUNT", NULL},
	{__GFP_NOTRACK, 0x200000, "__GFP_NOTRACK", NULL},
	{__GFP_DIRECT_RECLAIM, 0x400000, "__GFP_DIRECT_RECLAIM", NULL},
	{__GFP_WRITE, 0x800000, "__GFP_WRITE", NULL},
	{__GFP_KSWAPD_RECLAIM, 0x1000000, "__GFP_KSWAPD_RECLAIM", "GFP_NOWAIT"},
	{__GFP_DMA, 0x1, "__GFP_DMA", "GFP_DMA"},
	{__GFP_DMA32, 0x4, "__GFP_DMA32", "GFP_DMA32"},
	{__GFP_NOTRACK_FALSE_POSITIVE, 0x200000, "__GFP_NOTRACK_FALSE_POSITIVE",
	 "__GFP_NOTRACK"},
	{__GFP_NOLOCKDEP, 0x2000000, "__GFP_NOLOCKDEP", NULL},
	{__GFP_RECLAIM, 0x1400000, "__GFP_RECLAIM", "GFP_NOIO"},
};

#define NNAMES (sizeof(names) / sizeof(names[0]))

static const char *fmt(gfp_t flags)
{
	static char buf[512];
	int n = dmaemu_gfp_format(flags, buf, sizeof(buf));

	ck_assert_int_eq(n, (int)strlen(buf));
	return buf;
}

START_TEST(test_values)
{
	size_t i;

	for (i = 0; i < NNAMES; i++)
		ck_assert_msg(names[i].flags == names[i].value,
			      "%s is %#x, Linux 4.14 has %#x", names[i].name,
			      names[i].flags, names[i].value);
	ck_assert_uint_eq(__GFP_BITS_SHIFT, 26);
	ck_assert_uint_eq(GFP_ZONEMASK, 0xf);
}
END_TEST

START_TEST(test_names_alone)
{
	size_t i;

	for (i = 0; i < NNAMES; i++)
		ck_assert_str_eq(fmt(names[i].flags), names[i].printed
							      ? names[i].printed
							      : names[i].name);
}
END_TEST

START_TEST(test_combinations)
{
	ck_assert_str_eq(fmt(GFP_KERNEL | __GFP_ZERO), "GFP_KERNEL|__GFP_ZERO");
	ck_assert_str_eq(fmt(GFP_ATOMIC | __GFP_NOWARN),
			 "GFP_ATOMIC|__GFP_NOWARN");
	ck_assert_str_eq(fmt(GFP_KERNEL | GFP_DMA32), "GFP_KERNEL|GFP_DMA32");
	ck_assert_str_eq(fmt(GFP_KERNEL | GFP_DMA), "GFP_KERNEL|GFP_DMA");
	ck_assert_str_eq(fmt(GFP_NOWAIT | __GFP_NOWARN),
			 "GFP_NOWAIT|__GFP_NOWARN");
	ck_assert_str_eq(fmt(GFP_TRANSHUGE | __GFP_THISNODE),
			 "GFP_TRANSHUGE|__GFP_THISNODE");
	ck_assert_str_eq(fmt(GFP_KERNEL | __GFP_NOWARN | __GFP_NORETRY),
			 "GFP_KERNEL|__GFP_NOWARN|__GFP_NORETRY");
	ck_assert_str_eq(fmt(GFP_KERNEL | __GFP_RECLAIMABLE),
			 "GFP_KERNEL|__GFP_RECLAIMABLE");
	ck_assert_str_eq(fmt(GFP_USER | __GFP_ACCOUNT),
			 "GFP_USER|__GFP_ACCOUNT");
	/* Widest first: GFP_NOFS is inside, GFP_ATOMIC lost its kswapd bit. */
	ck_assert_str_eq(fmt(GFP_ATOMIC | __GFP_DIRECT_RECLAIM | __GFP_IO),
			 "GFP_NOFS|__GFP_HIGH|__GFP_ATOMIC");
	ck_assert_str_eq(fmt(__GFP_HIGH | __GFP_ATOMIC),
			 "__GFP_HIGH|__GFP_ATOMIC");
	ck_assert_str_eq(fmt(__GFP_IO | __GFP_FS), "__GFP_IO|__GFP_FS");
	ck_assert_str_eq(fmt(GFP_HIGHUSER | __GFP_ZERO | __GFP_COMP),
			 "GFP_HIGHUSER|__GFP_COMP|__GFP_ZERO");
}
END_TEST

START_TEST(test_zero_and_unknown)
{
	ck_assert_str_eq(fmt(0), "0");
	ck_assert_str_eq(fmt(1u << 27), "0x8000000");
	ck_assert_str_eq(fmt(GFP_KERNEL | (1u << 30)), "GFP_KERNEL|0x40000000");
	ck_assert_str_eq(fmt(__GFP_ZERO | (3u << 28)), "__GFP_ZERO|0x30000000");
}
END_TEST

START_TEST(test_truncation)
{
	char small[8];
	int full = (int)strlen("GFP_KERNEL|__GFP_ZERO");

	memset(small, 'x', sizeof(small));
	ck_assert_int_eq(dmaemu_gfp_format(GFP_KERNEL | __GFP_ZERO, small,
					   sizeof(small)),
			 full);
	ck_assert_str_eq(small, "GFP_KER");
	ck_assert_int_eq(dmaemu_gfp_format(GFP_KERNEL | __GFP_ZERO, NULL, 0),
			 full);
	ck_assert_int_eq(dmaemu_gfp_format(GFP_KERNEL, NULL, 4), -EINVAL);
	small[0] = 'x';
	ck_assert_int_eq(dmaemu_gfp_format(GFP_KERNEL, small, 1), 10);
	ck_assert_int_eq(small[0], '\0');
}
END_TEST

START_TEST(test_parse)
{
	unsigned int f = 0;
	size_t i;

	for (i = 0; i < NNAMES; i++) {
		ck_assert_int_eq(dmaemu_gfp_parse(names[i].name, &f), 0);
		ck_assert_uint_eq(f, names[i].value);
	}
	ck_assert_int_eq(dmaemu_gfp_parse("GFP_KERNEL | __GFP_ZERO", &f), 0);
	ck_assert_uint_eq(f, GFP_KERNEL | __GFP_ZERO);
	ck_assert_int_eq(dmaemu_gfp_parse("GFP_ATOMIC|0x200", &f), 0);
	ck_assert_uint_eq(f, GFP_ATOMIC | __GFP_NOWARN);
	ck_assert_int_eq(dmaemu_gfp_parse("0", &f), 0);
	ck_assert_uint_eq(f, 0);

	f = 1234;
	ck_assert_int_eq(dmaemu_gfp_parse("GFP_TEMPORARY", &f), -EINVAL);
	ck_assert_int_eq(dmaemu_gfp_parse("GFP_KERNEL|", &f), -EINVAL);
	ck_assert_int_eq(dmaemu_gfp_parse("", &f), -EINVAL);
	ck_assert_int_eq(dmaemu_gfp_parse("gfp_kernel", &f), -EINVAL);
	ck_assert_int_eq(dmaemu_gfp_parse("0x1g", &f), -EINVAL);
	ck_assert_int_eq(dmaemu_gfp_parse("0x100000000", &f), -EINVAL);
	ck_assert_int_eq(dmaemu_gfp_parse(NULL, &f), -EINVAL);
	ck_assert_int_eq(dmaemu_gfp_parse("GFP_KERNEL", NULL), -EINVAL);
	ck_assert_uint_eq(f, 1234); /* untouched on error */
}
END_TEST

/* format() then parse() gives the flags back, whatever bits are set. */
START_TEST(test_round_trip)
{
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	char buf[512];
	int i;

	for (i = 0; i < 5000; i++) {
		unsigned int flags, back = 0;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		flags = (unsigned int)x &
			(i % 2 ? 0xffffffffu : __GFP_BITS_MASK);
		dmaemu_gfp_format(flags, buf, sizeof(buf));
		ck_assert_int_eq(dmaemu_gfp_parse(buf, &back), 0);
		ck_assert_msg(back == flags, "%#x printed as %s parsed as %#x",
			      flags, buf, back);
	}
}
END_TEST

START_TEST(test_helpers)
{
	ck_assert(gfpflags_allow_blocking(GFP_KERNEL));
	ck_assert(gfpflags_allow_blocking(GFP_NOIO));
	ck_assert(gfpflags_allow_blocking(GFP_TRANSHUGE));
	ck_assert(!gfpflags_allow_blocking(GFP_ATOMIC));
	ck_assert(!gfpflags_allow_blocking(GFP_NOWAIT));
	ck_assert(!gfpflags_allow_blocking(GFP_TRANSHUGE_LIGHT));

	ck_assert_int_eq(gfpflags_to_migratetype(GFP_KERNEL),
			 MIGRATE_UNMOVABLE);
	ck_assert_int_eq(gfpflags_to_migratetype(GFP_HIGHUSER_MOVABLE),
			 MIGRATE_MOVABLE);
	ck_assert_int_eq(
		gfpflags_to_migratetype(GFP_KERNEL | __GFP_RECLAIMABLE),
		MIGRATE_RECLAIMABLE);

	ck_assert_int_eq(gfp_zone(GFP_KERNEL), ZONE_NORMAL);
	ck_assert_int_eq(gfp_zone(GFP_KERNEL | GFP_DMA), ZONE_DMA);
	ck_assert_int_eq(gfp_zone(GFP_KERNEL | GFP_DMA32), ZONE_DMA32);
	ck_assert_int_eq(gfp_zone(GFP_HIGHUSER_MOVABLE), ZONE_NORMAL);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("gfp");
	TCase *tc = tcase_create("gfp");

	tcase_add_test(tc, test_values);
	tcase_add_test(tc, test_names_alone);
	tcase_add_test(tc, test_combinations);
	tcase_add_test(tc, test_zero_and_unknown);
	tcase_add_test(tc, test_truncation);
	tcase_add_test(tc, test_parse);
	tcase_add_test(tc, test_round_trip);
	tcase_add_test(tc, test_helpers);
	suite_add_tcase(s, tc);
	return check_run(s);
}
