# lab-run.sh - what the script tests of dmaemu-lab share (labs.sh,
# lab-levels.sh): sourced after tap.sh; skips where labs cannot run, sets
# $lab, $labs and $tmp (removed at exit), the labs' default options and
# warnings, and the helpers run_ok and run_fails.

[ -n "$SANITIZER" ] &&
	skip_all "a --enable-sanitizer=$SANITIZER build cannot run instrumented labs"
[ -x "$top_builddir/examples/copy-engine/copy-engine" ] ||
	skip_all "examples not built (the compiler cannot instrument driver code)"

lab="$top_builddir/tools/dmaemu-lab"
labs="$top_srcdir/examples/labs"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
# The labs' expectations hold for the default options only.
DMAEMU_OPTIONS=
# The project's warnings (configure's WARN_CFLAGS), as errors.
DMAEMU_LAB_CFLAGS="${WARN_CFLAGS:-} -Werror"
export DMAEMU_OPTIONS DMAEMU_LAB_CFLAGS
unset DMAEMU_LAB_DIR NO_COLOR
# run_ok DESC ARGS...: dmaemu-lab ARGS exits 0.
run_ok() {
	desc=$1
	shift
	if "$lab" "$@" >"$tmp/out" 2>&1; then
		ok "$desc"
	else
		not_ok "$desc"
		sed 's/^/# /' "$tmp/out" | tail -40
	fi
}

# run_fails DESC STATUS PATTERN ARGS...: dmaemu-lab ARGS exits STATUS and
# says PATTERN (a grep -E pattern).
run_fails() {
	desc=$1 want=$2 pat=$3
	shift 3
	"$lab" "$@" >"$tmp/out" 2>&1
	st=$?
	if [ "$st" = "$want" ] && grep -Eq -- "$pat" "$tmp/out"; then
		ok "$desc"
	else
		not_ok "$desc (exit $st, want $want and /$pat/)"
		sed 's/^/# /' "$tmp/out" | tail -20
	fi
}
