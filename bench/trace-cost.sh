#!/bin/sh
# trace-cost.sh - does tracing off cost anything measurable?  Runs
# bench-trace (the library as built) and bench-trace-out (the same
# workload against a copy of the library with every trace point compiled
# out) alternately, takes the best of each, and judges trace_off_vs_out
# (at most 1.03) in bench.h's format.  Also passes on bench-trace's own
# figures (trace_on_ratio).
#
# Usage: trace-cost.sh BUILDDIR
set -u
b=${1:-.}
runs=5
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
i=0
while [ $i -lt $runs ]; do
	"$b/bench/bench-trace" >"$tmp/on.$i" || status=$?
	"$b/bench/bench-trace-out" >"$tmp/out.$i" || status=$?
	i=$((i + 1))
done
if [ "$status" -ne 0 ] && [ "$status" -ne 2 ]; then
	cat "$tmp"/on.* "$tmp"/out.*
	echo "trace-cost.sh: a bench could not run (exit $status)" >&2
	exit 1
fi
# The best (lowest) of each figure over the runs.
best() {
	awk -v n="$1" '$1 == n && (best == "" || $2 + 0 < best + 0) { best = $2 }
		END { print best }' "$tmp"/$2.*
}
offns=$(best trace_off_ns on)
outns=$(best trace_out_ns out)
ratio=$(best trace_on_ratio on)
grep -h '^trace_on_ratio ' "$tmp"/on.* | sort -k2 -n | head -1
echo "trace_off_ns $offns - info  # best of $runs runs"
echo "trace_out_ns $outns - info  # best of $runs runs, trace points compiled out"
awk -v off="$offns" -v out="$outns" -v r="$ratio" 'BEGIN {
	ok = out > 1000 && out < 1e8
	v = off / out
	verdict = !ok ? "bad-baseline" : v <= 1.03 ? "ok" : "MISS"
	printf "trace_off_vs_out %.3f <=1.03 %s  # tracing off %.0f ns an iteration; baseline trace points compiled out %.0f ns\n", v, verdict, off, out
	exit (verdict == "ok" && r <= 1.5) ? 0 : 2
}'
