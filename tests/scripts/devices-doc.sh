#!/bin/sh
# devices-doc.sh - docs/devices.md's example (examples/first-device: a
# device model, its driver, a program using both): the page shows the
# files as they are, and the program, built as the page says, gets its
# data right with no report on every profile and scheduling mode; without
# its unmap of the destination the driver is caught.
. "$top_srcdir/tests/runner/tap.sh"

[ -n "$SANITIZER" ] &&
	skip_all "a --enable-sanitizer=$SANITIZER build cannot run instrumented drivers"
prog=$top_builddir/examples/first-device/first-device
[ -x "$prog" ] ||
	skip_all "examples not built (the compiler cannot instrument driver code)"

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
doc=$top_srcdir/docs/devices.md
dir=$top_srcdir/examples/first-device

# A block of the page follows a line "<!-- examples/first-device/FILE -->".
for f in inverter.h inverter.c driver.h driver.c main.c; do
	awk -v want="<!-- examples/first-device/$f -->" '
		$0 == want { at = 1; next }
		at == 1 && /^```c$/ { at = 2; next }
		at == 2 && /^```$/ { exit }
		at == 2' "$doc" >"$tmp/$f"
	check "docs/devices.md shows $f as it is" cmp -s "$tmp/$f" "$dir/$f"
done

for sched in threads lockstep; do
	opts=
	[ $sched = lockstep ] && opts=sched=lockstep:seed=3
	for p in arm arm64 x86; do
		out=$(DMAEMU_OPTIONS=$opts "$prog" $p 2>&1)
		check "first-device on $p, sched=$sched: data right, no report" \
			test "$out" = "inverted: 0, wrong bytes: 0, reports: 0"
	done
done

# The driver without the unmap of the buffer the device wrote: on arm64
# the CPU reads stale bytes, and dmaemu says so.
cc="$top_builddir/tools/dmaemu-cc"
sed '/dma_unmap_single(inv->dev, d, len, DMA_FROM_DEVICE);/d' \
	"$dir/driver.c" >"$tmp/driver.c"
check "the mutant driver lost one line" \
	test "$(($(wc -l <"$dir/driver.c") - $(wc -l <"$tmp/driver.c")))" = 1
if "$cc" --dmaemu-uninstrumented -c -o "$tmp/inverter.o" "$dir/inverter.c" \
	>"$tmp/cc.log" 2>&1 &&
	"$cc" -I"$dir" -o "$tmp/mutant" "$dir/main.c" "$tmp/driver.c" \
		"$tmp/inverter.o" >>"$tmp/cc.log" 2>&1; then
	ok "the example builds as main.c says"
else
	not_ok "the example builds as main.c says"
	sed 's/^/# /' "$tmp/cc.log"
fi
"$tmp/mutant" arm64 >"$tmp/out" 2>&1
st=$?
check "without the unmap: a failure exit and a report" \
	test $st != 0 -a "$(grep -c '^SUMMARY: dmaemu: ' "$tmp/out")" -gt 0
done_testing
