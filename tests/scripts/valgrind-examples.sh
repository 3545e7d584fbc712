#!/bin/sh
# valgrind-examples.sh - the example programs (examples/*/) and every lab
# (examples/labs/*/, both variants) under a Valgrind tool, with no error
# from Valgrind (docs/valgrind.md).  DMAEMU_VALGRIND_TOOL names the tool:
# `make check-valgrind-<tool>` sets it (and DMAEMU_VALGRIND_CMD, the
# Valgrind command line of that run: Makefile.am); a plain `make check`
# skips this test.
#
#   memcheck          every example and lab variant on every profile it
#                     runs on (the examples: arm, arm64, x86)
#   helgrind, drd     the programs with a device on its own thread: the
#                     examples on every profile, the labs with a device
#                     model on their first profile
#
# The labs are run by valgrind-labs-1.sh, -2.sh and -3.sh, a third of them
# each (DMAEMU_VALGRIND_PART=labsN, then this script), and the examples on
# arm64 and on x86 by valgrind-examples-2.sh and -3.sh (parts examples2
# and examples3), so that make -j runs them side by side: this script
# alone runs step 1 and the examples on arm (DMAEMU_VALGRIND_PART=examples,
# the default).
#
# A lab's buggy variant makes dmaemu reports on purpose: they are not
# Valgrind errors.  A run passes when Valgrind counts no error and the
# program ran to its end (an example's status is 0; a lab prints its result
# line).  The first step runs a program with a deliberate error of the
# tool's kind (an uninitialised value, or a data race) the same way, and
# passes only when that run fails.
. "$top_srcdir/tests/runner/tap.sh"

tool=$DMAEMU_VALGRIND_TOOL
[ -n "$tool" ] ||
	skip_all "run by make check-valgrind (DMAEMU_VALGRIND_TOOL names the tool)"
case $tool in
memcheck | helgrind | drd) ;;
*) skip_all "no runs under Valgrind's $tool" ;;
esac
[ -z "$SANITIZER" ] ||
	skip_all "Valgrind cannot run a --enable-sanitizer=$SANITIZER build"
[ -n "$VALGRIND" ] && "$VALGRIND" --version >/dev/null 2>&1 ||
	skip_all "valgrind not found"
[ -x "$top_builddir/examples/copy-engine/copy-engine" ] ||
	skip_all "examples not built (the compiler cannot instrument driver code)"

part=${DMAEMU_VALGRIND_PART:-examples}
case $part in
examples | examples[23] | labs[123]) ;;
*) echo "Bail out! DMAEMU_VALGRIND_PART=$part: examples, examples2, examples3 or labs1..labs3"; exit 1 ;;
esac
vg=${DMAEMU_VALGRIND_CMD:-"$VALGRIND --tool=$tool --error-exitcode=1 \
--num-callers=30 --suppressions=$top_srcdir/tests/valgrind.supp"}
cc="$top_builddir/tools/dmaemu-cc"
diag "Valgrind: $vg"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# vg_run LOG PROGRAM ARGS...: run under the tool, Valgrind's log in LOG,
# the program's output in LOG.out.  Fails on a Valgrind error or when the
# program fails.
vg_run() {
	log=$1
	shift
	# Word splitting of the command line is intended.
	# shellcheck disable=SC2086
	$vg --log-file="$log" "$@" >"$log.out" 2>&1 &&
		grep -q 'ERROR SUMMARY: 0 errors' "$log"
}

# show LOG: Valgrind's errors and the end of the program's output.
show() {
	grep -v '^==[0-9]*== *$' "$1" | head -60 | sed 's/^/# /'
	tail -15 "$1.out" | sed 's/^/# out: /'
}

if [ "$part" = examples ]; then
# 1. A deliberate error makes a run fail.
case $tool in
memcheck)
	cat >"$tmp/bad.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
int main(void)
{
	int *p = malloc(sizeof(*p));

	if (!p)
		return 2;
	if (*p == 42) /* uninitialised */
		puts("42");
	free(p);
	return 0;
}
EOF
	kind="use of uninitialised memory"
	;;
*)
	cat >"$tmp/bad.c" <<'EOF'
#include <pthread.h>
static int counter;
static void *bump(void *arg)
{
	(void)arg;
	counter++; /* no lock */
	return NULL;
}
int main(void)
{
	pthread_t t;

	if (pthread_create(&t, NULL, bump, NULL))
		return 2;
	counter++;
	pthread_join(t, NULL);
	return counter == 2 ? 0 : 0;
}
EOF
	kind="data race"
	;;
esac
if ! CC=$CC "$cc" -g -O0 -o "$tmp/bad" "$tmp/bad.c" >"$tmp/bad.build" 2>&1; then
	not_ok "$tool: a program with a deliberate $kind builds"
	sed 's/^/# /' "$tmp/bad.build"
elif vg_run "$tmp/bad.vg" "$tmp/bad"; then
	not_ok "$tool: a deliberate $kind fails the run"
	show "$tmp/bad.vg"
else
	ok "$tool: a deliberate $kind fails the run"
fi

fi

# 2. The examples: each must get its data right with no report, on arm
# (part examples), arm64 (examples2) and x86 (examples3).
case $part in
examples) profile=arm ;;
examples2) profile=arm64 ;;
examples3) profile=x86 ;;
*) profile= ;;
esac
if [ -n "$profile" ]; then
for dir in "$top_srcdir"/examples/*/; do
	ex=$(basename "$dir")
	[ "$ex" = labs ] && continue
	prog="$top_builddir/examples/$ex/$ex"
	if [ -f "$dir/Makefile" ]; then
		# A user's project with its own Makefile, built against an
		# installed dmaemu by its own test (check-driver-tests.sh).
		skip "$tool: example $ex is built by its own Makefile"
		continue
	fi
	if [ ! -x "$prog" ]; then
		not_ok "$tool: example $ex is built (examples/local.mk)"
		continue
	fi
	p=$profile
	if DMAEMU_OPTIONS= vg_run "$tmp/$ex-$p.vg" "$prog" "$p"; then
		ok "$tool: example $ex on $p"
	else
		not_ok "$tool: example $ex on $p"
		show "$tmp/$ex-$p.vg"
	fi
done
fi

# lab_conf DIR VAR DEFAULT: the setting VAR of the lab in DIR (its lab.conf
# read in a subshell, so that it sets nothing here), DEFAULT when unset.
lab_conf() {
	(
		eval "$2=\$3"
		# shellcheck disable=SC1090,SC1091
		. "$1/lab.conf" && eval "printf '%s' \"\$$2\""
	)
}

# 3. The labs, found by folder (examples/labs/README.md): the N-th lab of
# the list in the part labs((N-1) mod 3 + 1).
if [ -n "$profile" ]; then
	done_testing
	exit
fi
index=0
for dir in "$top_srcdir"/examples/labs/*/; do
	[ -f "$dir/lab.conf" ] || continue
	index=$((index + 1))
	[ "labs$(((index - 1) % 3 + 1))" = "$part" ] || continue
	lab=$(basename "$dir")
	device=$(lab_conf "$dir" device '')
	libs=$(lab_conf "$dir" libs '')
	profiles=$(lab_conf "$dir" profiles arm64)
	# A Memcheck error that is the buggy variant's bug itself (lab.conf's
	# memcheck_buggy: the text Memcheck prints): that run must fail with
	# it, and still reach its result line.
	expect_vg=$(lab_conf "$dir" memcheck_buggy '')
	if [ "$(lab_conf "$dir" kind '')" = script ]; then
		skip "$tool: lab $lab is a script (its check.sh builds what it runs)"
		continue
	fi
	if [ "$tool" != memcheck ]; then
		if [ -z "$device" ]; then
			skip "$tool: lab $lab has no device thread"
			continue
		fi
		profiles=${profiles%% *}
	fi
	for variant in buggy fixed; do
		flags=
		[ $variant = fixed ] && flags=-DLAB_FIXED
		prog="$tmp/$lab-$variant"
		# shellcheck disable=SC2086
		if ! CC=$CC "$cc" -g $flags -I"$top_srcdir/examples/labs" \
			-o "$prog" "$dir"/*.c "$top_srcdir/examples/labs/lab.c" \
			-ldmaemu-devices $libs >"$prog.build" 2>&1; then
			not_ok "$tool: lab $lab ($variant) builds"
			sed 's/^/# /' "$prog.build"
			continue
		fi
		for p in $profiles; do
			log="$tmp/$lab-$variant-$p.vg"
			if [ "$tool" = memcheck ] && [ $variant = buggy ] &&
				[ -n "$expect_vg" ]; then
				if ! DMAEMU_OPTIONS= vg_run "$log" "$prog" \
					--profile "$p" &&
					grep -q "== $expect_vg" "$log" &&
					grep -q "^lab: [^ ]* $variant on $p: " "$log.out"; then
					ok "$tool: lab $lab ($variant) on $p: Memcheck sees its bug ($expect_vg)"
				else
					not_ok "$tool: lab $lab ($variant) on $p: Memcheck sees its bug ($expect_vg)"
					show "$log"
				fi
				continue
			fi
			if DMAEMU_OPTIONS= vg_run "$log" "$prog" --profile "$p" &&
				grep -q "^lab: [^ ]* $variant on $p: " "$log.out"; then
				ok "$tool: lab $lab ($variant) on $p"
			else
				not_ok "$tool: lab $lab ($variant) on $p"
				show "$log"
			fi
		done
	done
done
done_testing
