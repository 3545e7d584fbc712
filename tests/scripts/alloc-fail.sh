#!/bin/sh
# alloc-fail.sh - whole programs under host allocation failure, as SQLite's
# OOM tests run: each example program of examples/ (the reference drivers
# and first-device) runs with the library failing its N-th host allocation
# (malloc family, mmap, memfd_create, pthread_create) in two modes:
# DMAEMU_ALLOC_FAIL=N (that one and every later one) and
# DMAEMU_ALLOC_FAIL_NTH=N (that one only, as Linux's fail-nth: the
# program's recovery runs on), for N = 1, 2, ... until a run no longer
# reaches the N-th allocation (the library's "host allocation N (...)
# fails" line is missing).  Every run must end by itself (no signal, no
# hang: 60 s), with no sanitizer finding, and either succeed or fail with
# something said (the program's message naming the call that failed, a
# FAILED line or the library's report) besides that line.  One TAP line
# per program and mode with the failure points exercised.  Leaks of the
# library under the same failures are check-alloc-fail's to find
# (LeakSanitizer, Memcheck): these programs do not free on their own
# error paths.  To keep the time small, N goes one by one up to 32 and
# then by steps of 5; ALLOC_FAIL_STEP=k tries every k-th N throughout.
#
# Under make check-valgrind-memcheck (DMAEMU_VALGRIND_TOOL=memcheck) the
# sweep gives way to a sample under Memcheck: N = 1, 9 and 40 of each
# program in both modes, which must end with no Memcheck error (leaks are
# not counted, as above); the other Valgrind tools skip the test.
. "$top_srcdir/tests/runner/tap.sh"

case $DMAEMU_VALGRIND_TOOL in
'' | memcheck) ;;
*) skip_all "the sweep runs in make check, its sample under Memcheck" ;;
esac

progs=
for p in examples/first-device/first-device examples/copy-engine/copy-engine \
	examples/nic/nic examples/checksum/checksum examples/camera/camera \
	examples/display/display examples/legacy/legacy; do
	[ -x "$top_builddir/$p" ] && progs="$progs $p"
done
[ -n "$progs" ] ||
	skip_all "the example programs are not built here (sanitizer build)"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/alloc-fail.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
total=0

if [ "$DMAEMU_VALGRIND_TOOL" = memcheck ]; then
	[ -z "$SANITIZER" ] ||
		skip_all "Valgrind cannot run a --enable-sanitizer=$SANITIZER build"
	[ -n "$VALGRIND" ] && "$VALGRIND" --version >/dev/null 2>&1 ||
		skip_all "valgrind not found"
	for p in $progs; do
		for var in DMAEMU_ALLOC_FAIL DMAEMU_ALLOC_FAIL_NTH; do
			bad=
			for n in 1 9 40; do
				env "$var=$n" timeout 300 "$VALGRIND" \
					--tool=memcheck --error-exitcode=99 \
					--leak-check=no --num-callers=30 \
					--suppressions="$top_srcdir/tests/valgrind.supp" \
					--log-file="$tmp/vg" "$top_builddir/$p" \
					>"$tmp/out" 2>&1
				rc=$?
				if [ $rc -eq 99 ] ||
					! grep -q 'ERROR SUMMARY: 0 errors' "$tmp/vg"; then
					bad="$var=$n: Memcheck errors"
				elif [ $rc -ge 124 ]; then
					bad="$var=$n: exit status $rc (a signal or a hang)"
				fi
				[ -z "$bad" ] || break
			done
			if [ -z "$bad" ]; then
				ok "${p##*/}, $var=1, 9, 40 under Memcheck: no error"
			else
				not_ok "${p##*/}: $bad"
				grep -v '^==[0-9]*== *$' "$tmp/vg" | head -40 |
					sed 's/^/# /'
			fi
		done
	done
	done_testing
	exit
fi

next_n() {
	if [ -n "$ALLOC_FAIL_STEP" ]; then
		echo $(($1 + ALLOC_FAIL_STEP))
	elif [ "$1" -lt 32 ]; then
		echo $(($1 + 1))
	else
		echo $(($1 + 5))
	fi
}

for p in $progs; do
	for var in DMAEMU_ALLOC_FAIL DMAEMU_ALLOC_FAIL_NTH; do
		n=1
		points=0
		passed=0
		last=0
		bad=
		while :; do
			env "$var=$n" timeout 60 "$top_builddir/$p" \
				>"$tmp/out" 2>&1
			rc=$?
			if ! grep -q "^dmaemu: $var: host allocation $n " \
				"$tmp/out"; then
				[ $rc -eq 0 ] ||
					bad="$var=$n: exit status $rc with no failure made"
				break
			fi
			points=$((points + 1))
			[ $rc -ne 0 ] || passed=$((passed + 1))
			last=$n
			if [ $rc -ge 124 ]; then
				bad="$var=$n: exit status $rc (a signal or a hang)"
			elif grep -qE 'Sanitizer|runtime error' "$tmp/out"; then
				bad="$var=$n: a sanitizer finding"
			elif [ $rc -ne 0 ] &&
				[ "$(grep -cv "^dmaemu: $var:" "$tmp/out")" -eq 0 ]; then
				bad="$var=$n: exit status $rc and nothing said"
			fi
			[ -z "$bad" ] || break
			n=$(next_n $n)
			if [ $n -gt 100000 ]; then
				bad="$var: still failing at N=$n"
				break
			fi
		done
		total=$((total + points))
		[ $points -gt 0 ] || [ -n "$bad" ] ||
			bad="$var: not one failure point reached"
		if [ -z "$bad" ]; then
			ok "${p##*/}, $var: $points failure points (N = 1 .. $last), $passed of them recovered, no crash, no hang, none silent"
		else
			not_ok "${p##*/}: $bad"
			tail -n 30 "$tmp/out" | sed "s/^/# /"
		fi
	done
done
echo "# $total failure points in all"
done_testing
