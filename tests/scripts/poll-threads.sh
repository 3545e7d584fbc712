#!/bin/sh
# poll-threads.sh - the polling drivers of poll-prog.c, built
# uninstrumented (tests/scripts/poll-prog) so that the sanitizer builds
# run them too, with sched=threads on every profile: the data right, no
# report, and in a --enable-sanitizer=thread build no ThreadSanitizer
# warning: the device models' DMA is the emulated hardware's, never a data
# race of the program (docs/valgrind.md).  There, two driver threads that
# add to one counter with no lock still make a ThreadSanitizer data race
# at the driver's line.  valgrind-poll.sh runs the instrumented build of
# the same drivers under Helgrind and DRD.
. "$top_srcdir/tests/runner/tap.sh"

prog="$top_builddir/tests/scripts/poll-prog"
[ -x "$prog" ] || skip_all "tests/scripts/poll-prog not built"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
DMAEMU_OPTIONS=
export DMAEMU_OPTIONS

for mode in ce nic; do
	for p in arm arm64 x86; do
		desc="$mode driver polling on $p: data right, no report"
		[ "$SANITIZER" = thread ] && desc="$desc, no data race"
		if "$prog" "$mode" "$p" >"$tmp/out" 2>&1 &&
			! grep -q 'ThreadSanitizer' "$tmp/out"; then
			ok "$desc"
		else
			not_ok "$desc"
			head -60 "$tmp/out" | sed 's/^/# /'
		fi
	done
done

if [ "$SANITIZER" = thread ]; then
	if ! "$prog" race arm64 >"$tmp/out" 2>&1 &&
		grep -q 'WARNING: ThreadSanitizer: data race' "$tmp/out" &&
		grep -q 'count_packets .*poll-prog.c:' "$tmp/out"; then
		ok "two driver threads, one counter, no lock: a data race at the driver's line"
	else
		not_ok "two driver threads, one counter, no lock: a data race at the driver's line"
		head -60 "$tmp/out" | sed 's/^/# /'
	fi
else
	skip "the driver's own race: ThreadSanitizer's (a --enable-sanitizer=thread build)"
fi
done_testing
