#!/bin/sh
# log-stable.sh - replays compare byte for byte (docs/scheduling.md): a
# buggy ring driver (the rx-stale lab, whose card runs on its own thread)
# run twice under sched=lockstep with one seed and log_stable=1 prints the
# same reports and the same trace, with no PID and no host address; the
# same two runs without log_stable differ.
. "$top_srcdir/tests/runner/tap.sh"

[ -z "$SANITIZER" ] ||
	skip_all "dmaemu-cc cannot build instrumented driver code in this" \
		"--enable-sanitizer=$SANITIZER build"
cc="$top_builddir/tools/dmaemu-cc"
[ -x "$cc" ] || skip_all "tools/dmaemu-cc not built"

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
labs="$top_srcdir/examples/labs"
if "$cc" -g -O1 -I"$labs" -I"$labs/rx-stale" -o "$tmp/rx" \
	"$labs/rx-stale"/*.c "$labs/lab.c" -ldmaemu-devices \
	>"$tmp/cc.out" 2>&1; then
	ok "the rx-stale lab builds with dmaemu-cc"
else
	not_ok "the rx-stale lab builds with dmaemu-cc"
	sed 's/^/# /' "$tmp/cc.out"
	done_testing
	exit
fi

# run NAME OPTIONS: the program's output (reports included) in
# $tmp/NAME.out, its trace in $tmp/NAME.trace.
run() {
	DMAEMU_OPTIONS="profile=arm64:sched=lockstep:trace=$tmp/$1.trace:trace_events=all:$2" \
		"$tmp/rx" >"$tmp/$1.out" 2>&1
}

stable="seed=7:log_stable=1:report_fold=0:verbosity=2"
run a "$stable"
run b "$stable"
check "log_stable=1: the reports are made" \
	grep -q '^==dmaemu==ERROR: dmaemu: stale-cpu-read: ' "$tmp/a.out"
check "log_stable=1: the exit summary" \
	grep -q '^==dmaemu==dmaemu: ERROR SUMMARY: ' "$tmp/a.out"
check "log_stable=1: no PID" sh -c "! grep -Eq '==[0-9]+==' '$tmp/a.out'"
check "log_stable=1: host addresses as emulated ones" \
	grep -q 'read of 64 bytes at \[phys 0x8000[0-9a-f]*\]' "$tmp/a.out"
check "log_stable=1: two runs of one seed print the same" \
	cmp "$tmp/a.out" "$tmp/b.out"
check "log_stable=1: and trace the same" \
	cmp "$tmp/a.trace" "$tmp/b.trace"
check "log_stable=1: the report events in the trace, one line each" \
	test "$(grep -c ': report: kind=' "$tmp/a.trace")" -eq \
	"$(grep -c '^SUMMARY: dmaemu: ' "$tmp/a.out")"
check "the trace: every line an event (no raw newline in a report's)" \
	sh -c "! grep -Evq '^ *[a-z0-9-]+ \\[[a-z]+\\] [0-9]+\\.[0-9]{6}: [a-z_]+: ' '$tmp/a.trace'"

run c "seed=7:report_fold=0:verbosity=2"
run d "seed=7:report_fold=0:verbosity=2"
check "without log_stable: the PID is printed" \
	grep -Eq '^==[0-9]+==ERROR: dmaemu: ' "$tmp/c.out"
check "without log_stable: two runs differ" \
	sh -c "! cmp -s '$tmp/c.out' '$tmp/d.out'"
done_testing
