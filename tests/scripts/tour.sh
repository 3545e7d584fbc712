#!/bin/sh
# tour.sh - the quick start's tour (tools/tour.sh) shows what the README
# says: first the lab tour (every lab, buggy then fixed, its report, the
# pictures of cache lines, a table); then stale data and its report on
# arm64, the device's data on x86, the copy engine's driver right on every
# profile, the cache simulator's demo; and no temporary folder left when
# its reader stops early.
. "$top_srcdir/tests/runner/tap.sh"

[ -z "$SANITIZER" ] ||
	skip_all "a --enable-sanitizer=$SANITIZER build cannot build instrumented driver code"
[ -x "$top_builddir/examples/copy-engine/copy-engine" ] ||
	skip_all "examples not built (the compiler cannot instrument driver code)"

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
out=$tmp/out
if DMAEMU_OPTIONS= sh "$top_srcdir/tools/tour.sh" "$top_builddir" \
	>"$out" 2>&1; then
	ok "the tour runs"
else
	not_ok "the tour runs"
	sed 's/^/# /' "$out" | tail -20
fi
# Its parts, each checked on its own.
sed -n '/^== 1\. /,/^== 2\. /p' "$out" >"$tmp/labs"
sed -n '/^== 2\. /,/^== 3\. /p' "$out" >"$tmp/readme"
sed -n '/^== 3\. /,$p' "$out" >"$tmp/rest"

n=0
for d in "$top_srcdir"/examples/labs/*/; do
	[ -f "$d/lab.conf" ] || continue
	l=$(basename "$d")
	n=$((n + 1))
	if grep -q '^kind="script"' "$d/lab.conf"; then
		check "labs: $l, a script lab, run" \
			grep -q -- "-- $l, 4.13 and converted variant, on " "$tmp/labs"
	else
		check "labs: $l buggy and fixed" sh -c \
			"grep -q -- '-- $l, buggy variant, on ' '$tmp/labs' &&
			 grep -q -- '-- $l, fixed variant, on ' '$tmp/labs'"
	fi
	check "labs: $l in the table, as expected" \
		grep -Eq "^  $l +[a-z0-9]+ .* yes\$" "$tmp/labs"
done
check "labs: every lab" test "$n" -gt 0 -a \
	"$(grep -c '^== Lab [0-9]* of ' "$tmp/labs")" = "$n"
check "labs: the pictures of cache lines" \
	grep -q 'byte: . same  c CPU-dirty' "$tmp/labs"
check "labs: rx-stale's stale read is reported" \
	grep -q '^    SUMMARY: dmaemu: stale-cpu-read ' "$tmp/labs"
check "labs: every one as expected" \
	grep -q '^Every buggy variant made its expected reports' "$tmp/labs"
check "arm64: stale read without the sync" grep -q '^    no sync: 0$' \
	"$tmp/readme"
check "arm64: the stale read is reported, at its line of rx.c" \
	grep -qE '^    SUMMARY: dmaemu: stale-cpu-read rx\.c:[0-9]+ in main$' \
	"$tmp/readme"
check "x86: the device's data" grep -q '^    no sync: 104$' "$tmp/readme"
check "the copy engine's driver is right on every profile" \
	test "$(grep -c 'data right, no report' "$tmp/rest")" = 3
check "the cache simulator's demo runs" \
	grep -q 'cachesim --demo: replaying' "$tmp/rest"

# A reader that stops early (tools/tour.sh | head): no temporary folder
# is left, neither the tour's nor dmaemu-lab's.
mkdir "$tmp/t"
pipe_default=
env --default-signal=PIPE true 2>/dev/null && pipe_default="env --default-signal=PIPE"
TMPDIR=$tmp/t DMAEMU_OPTIONS= $pipe_default sh "$top_srcdir/tools/tour.sh" \
	"$top_builddir" 2>/dev/null | head -n 3 >/dev/null
check "tour.sh | head: no temporary folder left" \
	[ -z "$(ls -A "$tmp/t")" ]
done_testing
