#!/bin/sh
# run.sh - `make bench`: run every bench, then print one table of every
# judged target (the lines in bench.h's format: name value target verdict)
# and exit non-zero when any verdict is not ok, when a bench could not run,
# or when a bench judged nothing.
#
# Usage: run.sh BUILDDIR SRCDIR   (from the build directory)
set -u
b=${1:-.}
s=${2:-.}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
benches="bench/bench-cachesim bench/bench-lineops bench/bench-hooks
bench/bench-loops bench/bench-dma bench/bench-checks bench/bench-ordering bench/bench-devices
bench/trace-cost.sh
bench/cachesim-cli.sh"
verdict_re='^[A-Za-z0-9_]+ [-+0-9.eE]+ (<=|<|>=)[-+0-9.eE]+ (ok|MISS|bad-baseline|host-busy)( |$)'
broken=
for name in $benches; do
	echo "== $name"
	case $name in
	*.sh) sh "$s/$name" "$b" >"$tmp/out" 2>&1 ;;
	*) "$b/$name" >"$tmp/out" 2>&1 ;;
	esac
	rc=$?
	cat "$tmp/out"
	short=${name#bench/}
	grep -E "$verdict_re" "$tmp/out" |
		awk -v b="$short" '{ print b, $1, $2, $3, $4 }' >"$tmp/v"
	if [ "$rc" -ne 0 ] && [ "$rc" -ne 2 ]; then
		broken="$broken $short(exit $rc)"
	elif [ ! -s "$tmp/v" ]; then
		broken="$broken $short(no verdict)"
	fi
	cat "$tmp/v" >>"$tmp/all"
done
touch "$tmp/all"
echo
echo "== summary: every target of make bench"
awk -v broken="$broken" '
BEGIN { printf "%-18s %-28s %10s %8s  %s\n", "bench", "figure", "value",
	"target", "verdict" }
{
	printf "%-18s %-28s %10s %8s  %s\n", $1, $2, $3, $4, $5
	n[$5]++; total++
}
END {
	printf "%d targets: %d ok, %d MISS, %d bad-baseline, %d host-busy",
		total, n["ok"], n["MISS"], n["bad-baseline"], n["host-busy"]
	if (broken != "")
		printf "; benches that did not run or judge nothing:%s", broken
	printf "\n"
	exit (total == n["ok"] && broken == "") ? 0 : 1
}' "$tmp/all"
