#!/bin/sh
# hooks-gcc-clang.sh - the same program (tests/scripts/hooks-prog.c) built with
# dmaemu-cc under GCC and under Clang sees the same stale read and leaves
# the same cache statistics: both compilers' instrumentation reaches the
# model the same way, and both builds' reports name the same line (the
# program is built with -g: GCC's and Clang's debug information are read
# alike).  The Clang half is skipped when clang is missing.
. "$top_srcdir/tests/runner/tap.sh"

cc_wrapper="$top_builddir/tools/dmaemu-cc"
lib="$top_builddir/lib/.libs/libdmaemu.so"
[ -z "$SANITIZER" ] ||
	skip_all "dmaemu-cc cannot build instrumented driver code in this" \
		"--enable-sanitizer=$SANITIZER build (the compilers do not" \
		"combine the instrumentation of driver code with -fsanitize=$SANITIZER)"
[ -x "$cc_wrapper" ] || skip_all "tools/dmaemu-cc not built"
[ -f "$lib" ] || skip_all "libdmaemu.so not built"
nm -D "$lib" | grep -q ' T dmaemu_dma_write$' ||
	skip_all "libdmaemu has no DMA layer (dmaemu_dma_write) yet"

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
src="$top_srcdir/tests/scripts/hooks-prog.c"
# The line of the stale read, which the reports name (built with -g).
read_line=$(grep -n '^	stale = words\[0\];$' "$src" | cut -d: -f1)

# Build and run with compiler $1; the output goes to $tmp/$1.out (stdout)
# and $tmp/$1.err (the reports, without the process id).
build_run() {
	if ! CC=$1 "$cc_wrapper" -g -O2 -Wall -Werror -o "$tmp/prog-$1" \
		"$src" >"$tmp/$1.build" 2>&1; then
		not_ok "$1: hooks-prog builds with dmaemu-cc"
		sed 's/^/# /' "$tmp/$1.build"
		return 1
	fi
	ok "$1: hooks-prog builds with dmaemu-cc"
	if nm "$tmp/prog-$1" | grep -q ' U __asan_init\| U __asan_report'; then
		not_ok "$1: no sanitizer runtime needed"
	else
		ok "$1: no sanitizer runtime needed"
	fi
	env -u DMAEMU_OPTIONS "$tmp/prog-$1" >"$tmp/$1.out" 2>"$tmp/$1.raw"
	status=$?
	sed 's/^==[0-9]*==/==PID==/' "$tmp/$1.raw" >"$tmp/$1.err"
	check "$1: hooks-prog runs" [ "$status" -eq 0 ]
	check "$1: one stale read reported" \
		grep -q '^reports stale-cpu-read 1 ' "$tmp/$1.out"
	check "$1: the report names the read" \
		grep -q 'stale-cpu-read: read of 4 bytes' "$tmp/$1.err"
	check "$1: the report names the line of the read" grep -qxF \
		"SUMMARY: dmaemu: stale-cpu-read $src:$read_line in main" \
		"$tmp/$1.err"
	check "$1: the CPU read its stale copy" \
		grep -q '^stale word 0x00000000 ' "$tmp/$1.out"
	sed 's/^/# /' "$tmp/$1.out"
}

build_run gcc
if command -v clang >/dev/null 2>&1; then
	build_run clang
	if cmp -s "$tmp/gcc.out" "$tmp/clang.out"; then
		ok "gcc and clang: same statistics and reports"
	else
		not_ok "gcc and clang: same statistics and reports"
		diff "$tmp/gcc.out" "$tmp/clang.out" | sed 's/^/# /'
	fi
	# Report text, minus addresses of host memory.
	sed 's/ at 0x[0-9a-f]* / at ADDR /' "$tmp/gcc.err" >"$tmp/gcc.rep"
	sed 's/ at 0x[0-9a-f]* / at ADDR /' "$tmp/clang.err" >"$tmp/clang.rep"
	check "gcc and clang: same report text" \
		cmp -s "$tmp/gcc.rep" "$tmp/clang.rep"
else
	skip "clang not found"
fi
done_testing
