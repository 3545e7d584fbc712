#!/bin/sh
# valgrind-poll.sh - drivers that poll what a device writes
# (tests/scripts/poll-prog.c) under a Valgrind tool, with sched=threads:
# the device models' accesses to memory are the emulated hardware's, never
# a data race of the program, so a correct driver polling a status word
# with READ_ONCE() and dma_rmb(), on the copy engine and on the network
# card, gets no Helgrind, DRD or Memcheck error (docs/valgrind.md).  A
# driver whose two threads add to one counter with no lock still gets its
# data race reported by Helgrind and DRD, at the driver's line; with the
# counter in kzalloc()'d memory, by DRD (Helgrind stops checking a line
# of emulated memory once the model has filled it: docs/valgrind.md).
#
# DMAEMU_VALGRIND_TOOL names the tool: `make check-valgrind-<tool>` sets
# it (and DMAEMU_VALGRIND_CMD, its Valgrind command line); a plain `make
# check` skips this test.
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
	skip_all "examples not built (the compiler has no kernel-address-sanitizer)"

vg=${DMAEMU_VALGRIND_CMD:-"$VALGRIND --tool=$tool --error-exitcode=1 \
--num-callers=30 --suppressions=$top_srcdir/tests/valgrind.supp"}
diag "Valgrind: $vg"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
prog="$tmp/poll-prog"

if ! CC=$CC "$top_builddir/tools/dmaemu-cc" -g -o "$prog" \
	"$top_srcdir/tests/scripts/poll-prog.c" -ldmaemu-devices -lpthread \
	>"$tmp/build" 2>&1; then
	not_ok "poll-prog.c builds with dmaemu-cc"
	sed 's/^/# /' "$tmp/build"
	done_testing
	exit
fi

# vg_run LOG ARGS...: the program under the tool, Valgrind's log in LOG,
# the program's output in LOG.out.  Fails on a Valgrind error or when the
# program fails.
vg_run() {
	log=$1
	shift
	# Word splitting of the command line is intended.
	# shellcheck disable=SC2086
	DMAEMU_OPTIONS= $vg --log-file="$log" "$prog" "$@" >"$log.out" 2>&1 &&
		grep -q 'ERROR SUMMARY: 0 errors' "$log"
}

show() {
	grep -v '^==[0-9]*== *$' "$1" | head -60 | sed 's/^/# /'
	tail -15 "$1.out" | sed 's/^/# out: /'
}

# 1. The polling drivers: no error, data right.  arm64's coherent memory
#    is uncached (the driver polls MEM), x86's is cached (the card snoops:
#    its writes reach the CPU's copy too).
for mode in ce nic; do
	for p in arm64 x86; do
		log="$tmp/$mode-$p.vg"
		if vg_run "$log" "$mode" "$p"; then
			ok "$tool: $mode driver polling on $p: no error"
		else
			not_ok "$tool: $mode driver polling on $p: no error"
			show "$log"
		fi
	done
done

# 2. The driver's own race is still one, at the driver's line.
case $tool in
helgrind) race='Possible data race' ;;
drd) race='Conflicting (load|store)' ;;
*) race= ;;
esac
if [ -n "$race" ]; then
	log="$tmp/race.vg"
	if ! vg_run "$log" race arm64 && grep -Eq "$race" "$log" &&
		grep -q 'count_packets (poll-prog.c:' "$log"; then
		ok "$tool: two driver threads, one counter, no lock: a data race at the driver's line"
	else
		not_ok "$tool: two driver threads, one counter, no lock: a data race at the driver's line"
		show "$log"
	fi
fi
if [ "$tool" = drd ]; then
	log="$tmp/race-dma.vg"
	if ! vg_run "$log" race-dma arm64 && grep -Eq "$race" "$log" &&
		grep -q 'count_packets (poll-prog.c:' "$log"; then
		ok "$tool: the counter in kzalloc()'d memory: a data race at the driver's line"
	else
		not_ok "$tool: the counter in kzalloc()'d memory: a data race at the driver's line"
		show "$log"
	fi
fi
done_testing
