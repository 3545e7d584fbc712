#!/bin/sh
# readme.sh - the example in README.md builds with dmaemu-cc and behaves as
# the README says: on arm64 and arm the peek while the device owns the
# buffer is a cpu-access-device-owned report and the read without a sync
# is stale and reported; on x86 (snooping devices) the data is right and
# both reads are cpu-access-device-owned reports.
# Each report names the driver's line (the example is built with -g).
. "$top_srcdir/tests/runner/tap.sh"

[ -z "$SANITIZER" ] ||
	skip_all "dmaemu-cc cannot build instrumented driver code in this" \
		"--enable-sanitizer=$SANITIZER build (the compilers do not" \
		"combine the instrumentation of driver code with -fsanitize=$SANITIZER)"

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cc="$top_builddir/tools/dmaemu-cc"

awk '/^```c$/ { f = 1; next } f && /^```$/ { exit } f' \
	"$top_srcdir/README.md" >"$tmp/rx.c"
check "README has a C example" grep -q dmaemu_dma_write "$tmp/rx.c"

run() { # run PROFILE: build and run the example with that profile
	sed "s/profile=arm64/profile=$1/" "$tmp/rx.c" >"$tmp/rx-$1.c"
	"$cc" -g "$tmp/rx-$1.c" -o "$tmp/rx-$1" >"$tmp/cc-$1.log" 2>&1 &&
		"$tmp/rx-$1" >"$tmp/out-$1" 2>"$tmp/err-$1"
}

if run arm64; then
	ok "example builds and runs (arm64)"
else
	not_ok "example builds and runs (arm64)"
	sed 's/^/# /' "$tmp/cc-arm64.log" "$tmp/err-arm64" 2>/dev/null
fi
check "arm64: stale read without the sync" grep -qx 'no sync: 0' "$tmp/out-arm64"
check "arm64: fresh data after the sync" grep -qx 'synced: hello' "$tmp/out-arm64"
check "arm64: two reports, the peek and the stale read" \
	test "$(grep -c '^SUMMARY: dmaemu: stale-cpu-read ' "$tmp/err-arm64")" = 1 -a \
	"$(grep -c '^SUMMARY: dmaemu: cpu-access-device-owned ' "$tmp/err-arm64")" = 1 -a \
	"$(grep -c '^SUMMARY: ' "$tmp/err-arm64")" = 2
# The report names the line of the stale read (the example is built with
# -g); the console block of the README shows the same lines, for the
# example saved as rx.c.
l=$(grep -n 'bug: stale, and reported' "$tmp/rx.c" | cut -d: -f1)
check "arm64: the report names the line of the read" grep -qxF \
	"SUMMARY: dmaemu: stale-cpu-read $tmp/rx-arm64.c:$l in main" \
	"$tmp/err-arm64"
for line in 'before: 0' 'no sync: 0' 'synced: hello' "    at main rx.c:$l" \
	"SUMMARY: dmaemu: stale-cpu-read rx.c:$l in main"; do
	check "README shows '$line'" grep -qxF "$line" "$top_srcdir/README.md"
done

if run arm; then
	ok "example builds and runs (arm)"
else
	not_ok "example builds and runs (arm)"
fi
check "arm: stale read without the sync" grep -qx 'no sync: 0' "$tmp/out-arm"
check "arm: two reports, the peek and the stale read" \
	test "$(grep -c '^SUMMARY: dmaemu: stale-cpu-read ' "$tmp/err-arm")" = 1 -a \
	"$(grep -c '^SUMMARY: dmaemu: cpu-access-device-owned ' "$tmp/err-arm")" = 1 -a \
	"$(grep -c '^SUMMARY: ' "$tmp/err-arm")" = 2

if run x86; then
	ok "example builds and runs (x86)"
else
	not_ok "example builds and runs (x86)"
fi
check "x86: the device's data without the sync" grep -qx 'no sync: 104' "$tmp/out-x86"
check "x86: both reads reported as cpu-access-device-owned, nothing else" \
	test "$(grep -c '^SUMMARY: dmaemu: cpu-access-device-owned ' "$tmp/err-x86")" = 2 -a \
	"$(grep -c '^SUMMARY: ' "$tmp/err-x86")" = 2
done_testing
