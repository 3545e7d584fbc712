#!/bin/sh
# alloc-fail.sh - whole programs under host allocation failure, as SQLite's
# OOM tests run: each reference driver program of examples/ runs with
# DMAEMU_ALLOC_FAIL=N (the library fails its N-th host allocation - malloc
# family, mmap, memfd_create, pthread_create - and every later one), for
# N = 1, 2, ... until a run no longer reaches the N-th allocation (the
# library's "DMAEMU_ALLOC_FAIL: host allocation N (...) fails" line is
# missing).  Every run must end by itself (no signal, no hang: 60 s), with
# no sanitizer finding, and either succeed or fail with something said
# (the program's FAILED line or the library's report) besides that line.
# One TAP line per program with the failure points exercised.  Leaks of
# the library under the same failures are check-alloc-fail's to find
# (LeakSanitizer, Memcheck): these programs do not free on their own
# error paths.  ALLOC_FAIL_STEP=k tries every k-th N (default 1).
. "$top_srcdir/tests/runner/tap.sh"

progs=
for p in examples/copy-engine/copy-engine examples/nic/nic \
	examples/camera/camera; do
	[ -x "$top_builddir/$p" ] && progs="$progs $p"
done
[ -n "$progs" ] ||
	skip_all "the example programs are not built here (sanitizer build)"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/alloc-fail.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
step=${ALLOC_FAIL_STEP:-1}
total=0

for p in $progs; do
	n=1
	points=0
	bad=
	while :; do
		DMAEMU_ALLOC_FAIL=$n timeout 60 "$top_builddir/$p" \
			>"$tmp/out" 2>&1
		rc=$?
		if ! grep -q '^dmaemu: DMAEMU_ALLOC_FAIL: host allocation' \
			"$tmp/out"; then
			[ $rc -eq 0 ] ||
				bad="N=$n: exit status $rc with no failure made"
			break
		fi
		points=$((points + 1))
		if [ $rc -ge 124 ]; then
			bad="N=$n: exit status $rc (a signal or a hang)"
		elif grep -qE 'Sanitizer|runtime error' "$tmp/out"; then
			bad="N=$n: a sanitizer finding"
		elif [ $rc -ne 0 ] &&
			[ "$(grep -cv '^dmaemu: DMAEMU_ALLOC_FAIL:' "$tmp/out")" -eq 0 ]; then
			bad="N=$n: exit status $rc and nothing said"
		fi
		[ -z "$bad" ] || break
		n=$((n + step))
		if [ $n -gt 100000 ]; then
			bad="still failing at N=$n"
			break
		fi
	done
	total=$((total + points))
	if [ -z "$bad" ]; then
		ok "${p##*/}: $points failure points (N = 1 .. $((n - step)), step $step), no crash, no hang"
	else
		not_ok "${p##*/}: $bad"
		tail -n 30 "$tmp/out" | sed "s/^/# /"
	fi
done
echo "# $total failure points in all"
done_testing
