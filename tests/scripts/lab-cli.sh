#!/bin/sh
# lab-cli.sh - dmaemu-lab behaves like the command-line tools users know:
# --help on stdout with status 0, --version, a bad command line on stderr
# with status 2; no temporary folder left behind when its reader stops
# reading (dmaemu-lab run LAB | head) and no file in the temporary
# folder that nobody asked for (the display lab's PNG file goes to
# DMAEMU_LAB_PNG_DIR, or is removed); DMAEMU_OPTIONS reaches the labs,
# and run's --profile wins over it.
. "$top_srcdir/tests/runner/tap.sh"

[ -n "$SANITIZER" ] &&
	skip_all "a --enable-sanitizer=$SANITIZER build cannot run instrumented labs"
[ -x "$top_builddir/examples/copy-engine/copy-engine" ] ||
	skip_all "examples not built (the compiler has no kernel-address-sanitizer)"

lab="$top_builddir/tools/dmaemu-lab"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
unset DMAEMU_OPTIONS DMAEMU_LAB_DIR DMAEMU_LAB_PNG_DIR DMAEMU_LAB_SVG NO_COLOR
# A reader that stops reading ends a writer with SIGPIPE, unless the
# signal was ignored when the test started.
pipe_default=
env --default-signal=PIPE true 2>/dev/null && pipe_default="env --default-signal=PIPE"
# yes COMMAND...: "yes" when it succeeds, else "no".
yes() { if "$@"; then echo yes; else echo no; fi; }
# left DIR: what is left in DIR, on one line.
left() { (cd "$1" && ls -A | tr '\n' ' '); }

version=$("$top_builddir/cachesim/cachesim" --version | sed 's/.* //')
"$lab" --help >"$tmp/out" 2>"$tmp/err"
st=$?
check "--help: status 0, nothing on stderr" [ "$st:$(yes test -s "$tmp/err")" = 0:no ]
for c in list explain run tour; do
	check "--help: names the command $c" grep -q "^  $c " "$tmp/out"
done
check "--help: names --version" grep -q -e "^  --version " "$tmp/out"
out=$("$lab" --version 2>&1)
st=$?
check "--version: 'dmaemu-lab (dmaemu) $version', status 0" \
	[ "$st:$out" = "0:dmaemu-lab (dmaemu) $version" ]
"$lab" frobnicate >"$tmp/out" 2>"$tmp/err"
st=$?
check "an unknown command: status 2, the usage on stderr, nothing on stdout" \
	[ "$st:$(yes grep -q '^usage: dmaemu-lab' "$tmp/err"):$(yes test -s "$tmp/out")" = 2:yes:no ]
"$lab" >"$tmp/out" 2>"$tmp/err"
st=$?
check "no command: status 2, the usage on stderr" \
	[ "$st:$(yes grep -q '^usage: dmaemu-lab' "$tmp/err")" = 2:yes ]

# A reader that stops early: the temporary folder goes all the same.  The
# reader is gone before the writes that matter: run writes once the lab
# is built and run, tour after its first lines and the first build.
mkdir "$tmp/t"
TMPDIR=$tmp/t $pipe_default "$lab" run tx-stale --no-color | true
check "run LAB | true: no temporary folder left ($(left "$tmp/t"))" [ -z "$(left "$tmp/t")" ]
TMPDIR=$tmp/t $pipe_default "$lab" tour --no-color | head -n 2 >"$tmp/head"
check "tour | head: the first lines came" grep -q '^== How to read the tour' "$tmp/head"
check "tour | head: no temporary folder left ($(left "$tmp/t"))" [ -z "$(left "$tmp/t")" ]

# The display lab's PNG file: removed unless a folder is named.
TMPDIR=$tmp/t "$lab" run wc-display --fixed --no-color >"$tmp/out" 2>&1
st=$?
check "wc-display: as expected" [ "$st" = 0 ]
check "wc-display: the frame made a PNG file, checked" \
	grep -q 'the frame the controller scanned makes a PNG file of [1-9][0-9]* bytes' "$tmp/out"
check "wc-display: nothing left in TMPDIR ($(left "$tmp/t"))" [ -z "$(left "$tmp/t")" ]
mkdir "$tmp/png"
TMPDIR=$tmp/t DMAEMU_LAB_PNG_DIR=$tmp/png "$lab" run wc-display --fixed \
	--no-color >"$tmp/out" 2>&1
check "wc-display, DMAEMU_LAB_PNG_DIR: the PNG file is there" \
	[ -s "$tmp/png/wc-display-fixed-arm64.png" ]
check "wc-display, DMAEMU_LAB_PNG_DIR: the lab names it" \
	grep -q "the frame the controller scanned: $tmp/png/wc-display-fixed-arm64.png" "$tmp/out"

# DMAEMU_OPTIONS wins over a lab's own options (docs/options.md), and
# the command line over DMAEMU_OPTIONS: on arm64, tx-stale's data is wrong
# and reported, on x86 right.
DMAEMU_OPTIONS=profile=x86:seed=4 "$lab" run tx-stale --profile arm64 \
	--no-color >"$tmp/out" 2>&1
st=$?
check "DMAEMU_OPTIONS=profile=x86, --profile arm64: an arm64 run, as expected" \
	[ "$st:$(yes grep -q 'data WRONG' "$tmp/out")" = 0:yes ]
check "... with no line about the environment overriding" \
	[ "$(yes grep -q 'DMAEMU_OPTIONS overrides' "$tmp/out")" = no ]
DMAEMU_OPTIONS=help=1 "$lab" run tx-stale --no-color >"$tmp/out" 2>&1
check "DMAEMU_OPTIONS reaches the lab program (help=1)" \
	grep -q '^    cache_line=64 ' "$tmp/out"
done_testing
