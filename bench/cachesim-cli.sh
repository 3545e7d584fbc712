#!/bin/sh
# cachesim-cli.sh - the `cachesim` command replaying a 10-million-access
# din trace (the mix of bench-cachesim: hot 24 KiB set, sequential stream,
# random far accesses, 30% writes) through a 32 KiB, 8-way, 64-byte LRU
# write-back cache, against merely reading the same file in the same run.
#
# Usage: cachesim-cli.sh [BUILDDIR]   (prints `name value` lines)
set -eu
b=${1:-.}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=10000000
"$b/cachesim/gentrace" -f din -n $n -o "$tmp/t.din"

now() { date +%s.%N; }
best() { # best TIME of 3 runs of COMMAND
	bst=
	for _ in 1 2 3; do
		t0=$(now)
		"$@" >/dev/null
		t1=$(now)
		bst=$(echo "$t0 $t1 ${bst:-1e9}" |
			awk '{ d = $2 - $1; print (d < $3 ? d : $3) }')
	done
	echo "$bst"
}
read_s=$(best cat "$tmp/t.din")
wc_s=$(best wc -l "$tmp/t.din")
replay_s=$(best "$b/cachesim/cachesim" -s 32k -a 8 -l 64 -p lru "$tmp/t.din")
bytes=$(wc -c <"$tmp/t.din")
awk -v n=$n -v sz="$bytes" -v r="$read_s" -v w="$wc_s" -v p="$replay_s" 'BEGIN {
	printf "cachesim_cli_din_bytes %d\n", sz
	printf "cachesim_cli_read_s %.3f\n", r
	printf "cachesim_cli_wc_s %.3f\n", w
	printf "cachesim_cli_replay_s %.3f\n", p
	printf "cachesim_cli_maps %.1f (target >= 25)\n", n / p / 1e6
	printf "cachesim_cli_vs_wc_ratio %.1f\n", p / w
}'
