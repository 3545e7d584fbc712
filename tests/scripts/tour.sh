#!/bin/sh
# tour.sh - the quick start's tour (tools/tour.sh) shows what the README
# says: stale data and its report on arm64, the device's data on x86, the
# copy engine's driver right on every profile, the cache simulator's demo.
. "$top_srcdir/tests/runner/tap.sh"

[ -z "$SANITIZER" ] ||
	skip_all "a --enable-sanitizer=$SANITIZER build cannot build instrumented driver code"
[ -x "$top_builddir/examples/copy-engine/copy-engine" ] ||
	skip_all "examples not built (the compiler has no kernel-address-sanitizer)"

out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT
if sh "$top_srcdir/tools/tour.sh" "$top_builddir" >"$out" 2>&1; then
	ok "the tour runs"
else
	not_ok "the tour runs"
	sed 's/^/# /' "$out" | tail -20
fi
check "arm64: stale read without the sync" grep -q '^    no sync: 0$' "$out"
check "arm64: the stale read is reported, at its line of rx.c" \
	grep -qE '^    SUMMARY: dmaemu: stale-cpu-read rx\.c:[0-9]+ in main$' "$out"
check "x86: the device's data" grep -q '^    no sync: 104$' "$out"
check "the copy engine's driver is right on every profile" \
	test "$(grep -c 'data right, no report' "$out")" = 3
check "the cache simulator's demo runs" grep -q 'cachesim --demo: replaying' "$out"
done_testing
