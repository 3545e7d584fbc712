#!/bin/sh
# fuzz.sh - run the libFuzzer targets of tests/fuzz/ (one TAP line each).
#
# In make check (FUZZ_SECONDS unset): each target replays its seed corpus
# (tests/fuzz/corpus/<target>/) and then runs FUZZ_RUNS more inputs (a few
# seconds), from a fixed seed, so a run is repeatable.  With FUZZ_SECONDS
# (make fuzz): each target runs that long from a random seed and keeps the
# inputs it finds in $top_builddir/tests/fuzz/found/<target>/.  Either way
# the line says how many inputs ran and how fast; a crash, a leak, a
# sanitizer finding or a broken invariant fails the line and leaves the
# input in the log.  Skipped where the targets are not built (FUZZ_TARGETS
# empty: not a clang build with the libFuzzer runtime).
. "$top_srcdir/tests/runner/tap.sh"

[ -n "$FUZZ_TARGETS" ] ||
	skip_all "fuzz targets not built (configure with CC=clang)"
top_srcdir=$(cd "$top_srcdir" && pwd)
top_builddir=$(cd "$top_builddir" && pwd)

tmp=$(mktemp -d "${TMPDIR:-/tmp}/fuzz.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

# Inputs per target in make check: a few seconds each on one core.
runs_for() {
	case $1 in
	fuzz-options) echo 10000 ;;
	fuzz-dma) echo 4000 ;;
	fuzz-devices) echo 500 ;;
	fuzz-machine) echo 300 ;;
	fuzz-trace) echo 20000 ;;
	*) echo 200000 ;;
	esac
}

for t in $FUZZ_TARGETS; do
	name=${t##*/}
	bin=$top_builddir/$t
	seeds=$top_srcdir/tests/fuzz/corpus/$name
	if [ -n "$FUZZ_SECONDS" ]; then
		out=$top_builddir/tests/fuzz/found/$name
		mkdir -p "$out"
		set -- -max_total_time="$FUZZ_SECONDS"
	else
		out=$tmp/$name
		mkdir -p "$out"
		set -- -runs="$(runs_for "$name")" -seed=1
	fi
	"$bin" "$@" -timeout=30 -rss_limit_mb=4096 -print_final_stats=1 \
		-close_fd_mask=1 "$out" "$seeds" >"$tmp/log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$tmp/log")
	speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$tmp/log")
	if [ $rc -eq 0 ] && [ -n "$execs" ]; then
		ok "$name: $execs inputs, $speed exec/s, 0 findings"
	else
		not_ok "$name: exit status $rc"
		tail -n 60 "$tmp/log" | sed "s/^/# /"
	fi
done
done_testing
