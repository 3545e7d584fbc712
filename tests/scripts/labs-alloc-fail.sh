#!/bin/sh
# labs-alloc-fail.sh - every lab of examples/labs/ under host allocation
# failure: each lab is built (its fixed variant, with dmaemu-cc as
# dmaemu-lab builds it) and run with DMAEMU_ALLOC_FAIL=N (the N-th host
# allocation of the process and every later one fail) for N = 1, 2, ...
# until a run no longer reaches the N-th allocation.  A run must end by
# itself (no signal, no hang: 60 s) and, when it stops early (a non-zero
# exit status), say which call failed and why: a line "LAB: CALL(...):
# error" from lab_fail() or lab_start() (examples/labs/lab.h).  One TAP
# line per lab with the failure points it went through.  Labs of
# kind="script" (removed-apis: its program is meant not to build) are
# left out.  To keep the time small, N goes one by one up to 16 and then
# by steps of 7; LABS_ALLOC_FAIL_STEP=k tries every k-th N throughout.
. "$top_srcdir/tests/runner/tap.sh"

[ -n "$SANITIZER" ] &&
	skip_all "a --enable-sanitizer=$SANITIZER build cannot run instrumented labs"
case $DMAEMU_VALGRIND_TOOL in
'') ;;
*) skip_all "the labs' sweep runs in make check only" ;;
esac
cc=$top_builddir/tools/dmaemu-cc
[ -x "$cc" ] && [ -x "$top_builddir/examples/copy-engine/copy-engine" ] ||
	skip_all "examples not built (the compiler cannot instrument driver code)"

labs=$top_srcdir/examples/labs
tmp=$(mktemp -d "${TMPDIR:-/tmp}/labs-alloc-fail.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
DMAEMU_OPTIONS=
export DMAEMU_OPTIONS
total=0

next_n() {
	if [ -n "$LABS_ALLOC_FAIL_STEP" ]; then
		echo $(($1 + LABS_ALLOC_FAIL_STEP))
	elif [ "$1" -lt 16 ]; then
		echo $(($1 + 1))
	else
		echo $(($1 + 7))
	fi
}

for d in "$labs"/*/; do
	d=${d%/}
	name=${d##*/}
	[ -f "$d/lab.conf" ] || continue
	grep -q '^kind="script"' "$d/lab.conf" && continue
	libs=$(sed -n 's/^libs="\([^"]*\)".*/\1/p' "$d/lab.conf")
	# Word splitting of $libs is intended.
	# shellcheck disable=SC2086
	if ! "$cc" -g -O1 -DLAB_FIXED -I"$labs" -I"$d" "$d"/*.c "$labs/lab.c" \
		$libs -o "$tmp/$name" >"$tmp/cc.log" 2>&1; then
		not_ok "$name: does not build"
		sed 's/^/# /' "$tmp/cc.log" | tail -20
		continue
	fi
	n=1
	points=0
	stopped=0
	last=0
	bad=
	while :; do
		DMAEMU_ALLOC_FAIL=$n timeout 60 "$tmp/$name" >"$tmp/out" 2>&1
		rc=$?
		if ! grep -q "^dmaemu: DMAEMU_ALLOC_FAIL: host allocation $n " \
			"$tmp/out"; then
			[ $rc -eq 0 ] ||
				bad="N=$n: exit status $rc with no failure made"
			break
		fi
		points=$((points + 1))
		last=$n
		if [ $rc -ge 124 ]; then
			bad="N=$n: exit status $rc (a signal or a hang)"
		elif grep -qE 'Sanitizer|runtime error' "$tmp/out"; then
			bad="N=$n: a sanitizer finding"
		elif [ $rc -ne 0 ]; then
			stopped=$((stopped + 1))
			grep -q "^$name: .*): " "$tmp/out" ||
				bad="N=$n: exit status $rc and no call named"
		fi
		[ -z "$bad" ] || break
		n=$(next_n $n)
		if [ $n -gt 100000 ]; then
			bad="still failing at N=$n"
			break
		fi
	done
	total=$((total + points))
	[ $points -gt 0 ] || [ -n "$bad" ] || bad="not one failure point reached"
	if [ -z "$bad" ]; then
		ok "$name: $points failure points (N = 1 .. $last), $stopped stopped early, each naming the call that failed"
	else
		not_ok "$name: $bad"
		tail -n 20 "$tmp/out" | sed "s/^/# /"
	fi
done
echo "# $total failure points in all"
done_testing
