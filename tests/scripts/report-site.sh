#!/bin/sh
# report-site.sh - reports name the driver's line, the sanitizer way
# (docs/dma-api.md, "Where a report points"): tests/scripts/report-site-prog.c
# built with dmaemu-cc -g gives SUMMARY lines "<file>:<line> in <function>"
# for stale reads found by the load hook, inside an inlined function (with
# the stack above it) and through the routed memcpy, and for an API misuse
# (a double unmap); built without -g, the dladdr() form; run under
# Valgrind, the stack is Valgrind's own.  The expected lines are those of
# the program's "site: NAME" marker comments.
. "$top_srcdir/tests/runner/tap.sh"

[ -z "$SANITIZER" ] ||
	skip_all "dmaemu-cc cannot build instrumented driver code in this" \
		"--enable-sanitizer=$SANITIZER build (the compilers do not" \
		"combine the instrumentation of driver code with -fsanitize=$SANITIZER)"
cc="$top_builddir/tools/dmaemu-cc"
[ -x "$cc" ] || skip_all "tools/dmaemu-cc not built"

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
# The file as the compiler is given it is the file the reports name.
src="$top_srcdir/tests/scripts/report-site-prog.c"

# line NAME: the line of the marker comment "site: NAME".
line() {
	grep -n "/\* site: $1 \*/" "$src" | cut -d: -f1
}
l_main=$(line main)
l_peek=$(line peek)
l_rx_poll=$(line rx_poll)
l_call=$(line call)
l_memcpy=$(line memcpy)
l_unmap=$(line unmap)
check "the program has its six markers" \
	test -n "$l_main" -a -n "$l_peek" -a -n "$l_rx_poll" -a -n "$l_call" \
	-a -n "$l_memcpy" -a -n "$l_unmap"

# build NAME FLAGS...: build the program as $tmp/NAME; run it, reports to
# $tmp/NAME.err.
build() {
	name=$1
	shift
	if "$cc" "$@" "$src" -o "$tmp/$name" >"$tmp/$name.cc" 2>&1; then
		ok "$name: builds with dmaemu-cc $*"
	else
		not_ok "$name: builds with dmaemu-cc $*"
		sed 's/^/# /' "$tmp/$name.cc"
		return 1
	fi
	env -u DMAEMU_OPTIONS "$tmp/$name" >"$tmp/$name.out" 2>"$tmp/$name.err"
	check "$name: runs" test $? -eq 0
}

# has FILE LINE: FILE has LINE, whole.
has() {
	if grep -qxF -- "$2" "$1"; then
		return 0
	fi
	diag "no line '$2' in:"
	sed 's/^/    /' "$1" | diag "$(cat)"
	return 1
}

build debug -g
err="$tmp/debug.err"
# Four reports of the program's bugs (the peeks at device-owned buffers
# are cpu-access-device-owned reports besides).
check "four reports" test "$(grep -cE \
	'^SUMMARY: dmaemu: (stale-cpu-read|unmap-not-mapped) ' "$err")" = 4
check "stale read in main: SUMMARY names its line" has "$err" \
	"SUMMARY: dmaemu: stale-cpu-read $src:$l_main in main"
check "stale read in main: at line" has "$err" "    at main $src:$l_main"
check "stale read in an inlined function: SUMMARY names its line" \
	has "$err" "SUMMARY: dmaemu: stale-cpu-read $src:$l_peek in peek"
check "inlined function: the function it is inlined into" \
	has "$err" "    by rx_poll $src:$l_rx_poll"
check "inlined function: the caller's line, from the stack" \
	has "$err" "    by main $src:$l_call"
check "the stack stops at main" \
	test "$(grep -c '^    by ' "$err")" = 2
check "stale read by memcpy: SUMMARY names the call" has "$err" \
	"SUMMARY: dmaemu: stale-cpu-read $src:$l_memcpy in main"
check "double unmap: SUMMARY names the second unmap" has "$err" \
	"SUMMARY: dmaemu: unmap-not-mapped $src:$l_unmap in main"
check "double unmap: at line" has "$err" "    at main $src:$l_unmap"

# Without debug information: "fn+0x2c (/path)" or "/path/prog+0x1234".
build nodebug
err="$tmp/nodebug.err"
check "no -g: four reports" test "$(grep -cE \
	'^SUMMARY: dmaemu: (stale-cpu-read|unmap-not-mapped) ' "$err")" = 4
check "no -g: every SUMMARY in the dladdr() form" test "$(grep -cE \
	'^SUMMARY: dmaemu: [a-z-]+ [^ ]+\+0x[0-9a-f]+( \(.*\))?$' "$err")" = \
	"$(grep -c '^SUMMARY: ' "$err")"
check "no -g: no file:line" test "$(grep -c 'report-site-prog\.c:' "$err")" = 0
check "no -g: the at line is the SUMMARY's place" test "$(awk '
	/^    at / { at = substr($0, 8) }
	/^SUMMARY: dmaemu: stale-cpu-read / {
		print (substr($0, 33) == at) ? "same" : "differs"; exit }' \
	"$err")" = same

# Under Valgrind (Memcheck), the stack is Valgrind's; the rest is the same.
if [ -z "$VALGRIND" ]; then
	skip "valgrind not found"
else
	# DWARF 4: Valgrind 3.19 reads Clang 14's default DWARF 5 only in
	# part, and silently (no inlined frames, other file names).
	build vgdebug -g -gdwarf-4
	env -u DMAEMU_OPTIONS "$VALGRIND" -q --error-exitcode=9 \
		--leak-check=full --errors-for-leak-kinds=definite \
		"$tmp/vgdebug" >"$tmp/vg.out" 2>"$tmp/vg.err"
	status=$?
fi
if [ -n "$VALGRIND" ] && grep -q 'debuginfo reader' "$tmp/vg.err"; then
	# Valgrind 3.19 cannot read Clang 14's DWARF 5 (DW_FORM_addrx...).
	skip "valgrind: this Valgrind cannot read the debug information" \
		"of this build ($(grep -m1 'debuginfo reader' "$tmp/vg.err"))"
elif [ -n "$VALGRIND" ]; then
	check "valgrind: runs clean (Memcheck)" test "$status" -eq 0
	check "valgrind: same SUMMARY lines" test "$(grep '^SUMMARY: ' \
		"$tmp/vg.err")" = "$(grep '^SUMMARY: ' "$tmp/debug.err")"
	check "valgrind: Valgrind prints each report's stack" test "$(grep -cE \
		'^\*\*[0-9]+\*\* dmaemu: [a-z-]+: the report was made here:$' \
		"$tmp/vg.err")" = "$(grep -c '^SUMMARY: ' "$tmp/vg.err")"
	# Valgrind names the file as the debug information does: with Clang,
	# with its directory.
	base=${src##*/}
	check "valgrind: its stack reaches the stale read in main" grep -qE \
		"^==[0-9]+==    by 0x[0-9A-F]+: main \\((.*/)?$base:$l_main\\)$" \
		"$tmp/vg.err"
	check "valgrind: its stack has the inlined function" grep -qE \
		"^==[0-9]+==    by 0x[0-9A-F]+: peek \\((.*/)?$base:$l_peek\\)$" \
		"$tmp/vg.err"
	check "valgrind: no stack lines of dmaemu's own" \
		test "$(grep -c '^    by ' "$tmp/vg.err")" = 0
fi
done_testing
