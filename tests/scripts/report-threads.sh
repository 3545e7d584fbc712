#!/bin/sh
# report-threads.sh - two driver threads making the same ownership report
# at once (tests/api/check-report-repeats.c, its "threads" case) under
# Helgrind: the repeat bookkeeping they share races on nothing.  A plain
# run of that case checks the counts; a race that loses no count there is
# still a race, which Helgrind sees in every run, whatever the timing.
. "$top_srcdir/tests/runner/tap.sh"

[ -z "$SANITIZER" ] ||
	skip_all "Valgrind cannot run a --enable-sanitizer=$SANITIZER build"
[ -n "$VALGRIND" ] && "$VALGRIND" --version >/dev/null 2>&1 ||
	skip_all "valgrind not found"
prog="$top_builddir/tests/api/check-report-repeats"
[ -x "$prog" ] ||
	skip_all "tests/api/check-report-repeats not built (no instrumentation)"

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
# CK_FORK=no: Valgrind follows the test itself, not a child.
if CK_FORK=no CK_RUN_CASE=threads \
	"$top_builddir/libtool" --mode=execute "$VALGRIND" --tool=helgrind \
	--error-exitcode=1 --num-callers=30 \
	--suppressions="$top_srcdir/tests/valgrind.supp" \
	--log-file="$tmp/vg" "$prog" >"$tmp/out" 2>&1; then
	ok "two threads reporting at once: no Helgrind error"
elif grep -q "debuginfo reader.*\|Possibly corrupted debuginfo" "$tmp/vg" &&
	grep -q "I can't recover" "$tmp/vg"; then
	# Valgrind 3.19 cannot read all of Clang 14's DWARF 5 (a build
	# with CC=clang and its default -g): it gives up before the test.
	skip "two threads reporting at once: this Valgrind cannot read the program's debug information (build with -gdwarf-4)"
else
	not_ok "two threads reporting at once: no Helgrind error"
	sed 's/^/# /' "$tmp/out" "$tmp/vg" | head -80
fi
done_testing
