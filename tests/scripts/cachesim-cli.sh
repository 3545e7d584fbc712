#!/bin/sh
# cachesim-cli.sh - the contract of the cachesim command: every option,
# the three trace formats, the JSON keys and hand-checked values on tiny
# traces (tests/data/*.din explain each expected number), every error
# message with its exit code, standard input and --demo.
. "$top_srcdir/tests/runner/tap.sh"

top_srcdir=$(cd "$top_srcdir" && pwd)
top_builddir=$(cd "$top_builddir" && pwd)
CS=$top_builddir/cachesim/cachesim
GEN=$top_builddir/cachesim/gentrace
DATA=$top_srcdir/tests/data
if [ ! -x "$CS" ] || [ ! -x "$GEN" ]; then
	echo "Bail out! cachesim/cachesim or cachesim/gentrace is not built"
	exit 1
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/cachesim-cli.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
# Messages name files as given: work where relative names are short.
cd "$tmp" || exit 1

# run ARGS...: cachesim's stdout in out, stderr in err, status in rc.
run() {
	"$CS" "$@" >out 2>err
	rc=$?
}

# run_piped FILE ARGS...: run with FILE on standard input through a pipe.
run_piped() {
	pipe_in=$1
	shift
	cat "$pipe_in" | "$CS" "$@" >out 2>err
	rc=$?
}

# jget KEY [FILE]: a value of the JSON report.  KEY is L<n>.<field>,
# trace.<field> or a top-level field (dirty_at_end, cycles, seed).
jget() {
	# The key is taken apart before the pipeline: each part of a
	# pipeline runs in its own subshell.
	case $1 in
	L[1-4].* | trace.*) k=${1#*.} ;;
	*) k=$1 ;;
	esac
	case $1 in
	L[1-4].*)
		i=${1%%.*}
		sed 's/.*"levels":\[{//; s/}\],"dirty_at_end".*//; s/},{/\n/g' \
			"${2:-out}" | sed -n "${i#L}p"
		;;
	trace.*)
		sed 's/^{"trace":{//; s/}.*//' "${2:-out}"
		;;
	*)
		sed 's/^{"trace":{[^}]*}//; s/"phases":\[.*\],"memory_latency"/"memory_latency"/; s/"levels":\[.*\]//' \
			"${2:-out}"
		;;
	esac | tr ',' '\n' | tr -d '{}' |
		sed -n "s/^\"$k\":\"\{0,1\}\([^\"]*\)\"\{0,1\}\$/\1/p" | head -n 1
}

# expect_json DESC KEY=VALUE...: the last run succeeded and printed these.
expect_json() {
	desc=$1
	shift
	bad=
	for a; do
		k=${a%%=*}
		v=${a#*=}
		got=$(jget "$k")
		[ "$got" = "$v" ] || bad="$bad $k=$got (want $v)"
	done
	if [ "$rc" = 0 ] && [ -z "$bad" ] && [ ! -s err ]; then
		ok "$desc"
	else
		not_ok "$desc"
		diag "exit $rc;$bad" "$(cat err)"
	fi
}

# expect_error DESC STATUS MESSAGE ARGS...: exactly one line on stderr,
# nothing on stdout, that exit status.
expect_error() {
	desc=$1
	want_rc=$2
	want=$3
	shift 3
	${runner:-run} "$@"
	got=$(cat err)
	if [ "$rc" = "$want_rc" ] && [ "$got" = "$want" ] &&
		[ "$(wc -l <err)" -eq 1 ] && [ ! -s out ]; then
		ok "$desc"
	else
		not_ok "$desc"
		diag "exit $rc (want $want_rc)" "got:  $got" "want: $want"
	fi
}

# expect_error_in DESC STATUS MESSAGE ARGS...: expect_error with the file
# in on standard input, given twice: redirected (a regular file, which
# cachesim maps) and through a pipe (which it reads); both must fail alike.
expect_error_in() {
	in_desc=$1
	in_rc=$2
	in_msg=$3
	shift 3
	expect_error "$in_desc (mapped)" "$in_rc" "$in_msg" "$@" <in
	runner="run_piped in"
	expect_error "$in_desc (piped)" "$in_rc" "$in_msg" "$@"
	runner=
}

# levels FILE: the part of a JSON report that depends on the replay only.
levels() {
	sed 's/.*"levels"://' "$1"
}

same_levels() {
	desc=$1
	if [ "$(levels "$2")" = "$(levels "$3")" ] && [ -n "$(levels "$2")" ]; then
		ok "$desc"
	else
		not_ok "$desc"
		diag "$(levels "$2")" "$(levels "$3")"
	fi
}

cp "$DATA"/*.din "$DATA"/lackey.out .

# --- help, version -----------------------------------------------------
run --help
missing=
for o in NAME SYNOPSIS DESCRIPTION "EXIT STATUS" EXAMPLES --size --ways \
	--line --policy --seed --write-policy --l2-size --l2-ways --l2-line \
	--l3-size --l3-ways --l3-line --format --data-only --write-bin \
	--write-din --demo --json --help --version; do
	grep -q -e "$o" out || missing="$missing $o"
done
if [ "$rc" = 0 ] && [ -z "$missing" ] && [ ! -s err ]; then
	ok "--help documents every option"
else
	not_ok "--help documents every option"
	diag "exit $rc, missing:$missing"
fi
long=$(awk 'length > 79' out | wc -l)
check "--help fits 80 columns" test "$long" -eq 0
run -h
check "-h is --help" test "$rc" = 0 -a "$(grep -c SYNOPSIS out)" = 1
run --version
check "--version" grep -q '^cachesim (dmaemu) [0-9]' out

# --- the table ---------------------------------------------------------
run nine-lines.din
if [ "$rc" = 0 ] &&
	grep -q '^trace: nine-lines.din (din), 18 records: 15 reads, 3 writes, 0 fetches$' out &&
	grep -q '^L1: 32 KiB, 8-way, 64-byte lines, 64 sets, lru, wb-wa, hit 4 cycles$' out &&
	grep -q '^memory: 100 cycles$' out &&
	grep -Eq '^misses +16$' out && grep -Eq '^  read misses +15$' out &&
	grep -Eq '^  write misses +1$' out && grep -Eq '^miss rate +88\.89%$' out &&
	grep -Eq '^compulsory misses +15$' out && grep -Eq '^write-backs +1$' out &&
	grep -Eq '^evictions +8$' out && grep -Eq '^dirty at end +2$' out &&
	grep -Eq '^cycles +72$' out &&
	grep -q '^total: 1772 simulated cycles (all levels and memory), 2 dirty lines left in the cache$' out; then
	ok "table: nine lines in one 8-way set"
else
	not_ok "table: nine lines in one 8-way set"
	diag "$(cat out err)"
fi

# --- JSON: keys and hand-checked values ----------------------------------
run --json nine-lines.din
missing=
for k in name accesses reads writes hits misses read_misses write_misses \
	miss_rate compulsory_misses writebacks evictions maint_ops \
	maint_lines maint_writebacks dirty_at_end cycles size ways line sets \
	policy write_policy hit_latency; do
	grep -q "\"levels\":\[{.*\"$k\":" out || missing="$missing $k"
done
grep -q '^{"trace":{.*},"memory_latency":.*"levels":\[{"name":"L1",.*}\],"dirty_at_end":[0-9]*,"cycles":[0-9]*}$' out ||
	missing="$missing (overall shape)"
check "--json: one object with every key${missing:+ (missing:$missing)}" \
	test -z "$missing" -a "$(wc -l <out)" -eq 1
if command -v python3 >/dev/null 2>&1; then
	check "--json parses as JSON" python3 -c 'import json,sys; json.load(open("out"))'
else
	skip "python3 not found: JSON syntax not checked"
fi
expect_json "nine lines in one set: LRU evicts the first, one dirty write-back" \
	trace.name=nine-lines.din trace.format=din trace.records=18 \
	L1.name=L1 L1.size=32768 L1.ways=8 L1.line=64 L1.sets=64 \
	L1.policy=lru L1.write_policy=wb-wa L1.accesses=18 L1.reads=15 \
	L1.writes=3 L1.hits=2 L1.misses=16 L1.read_misses=15 \
	L1.write_misses=1 L1.miss_rate=0.888889 L1.compulsory_misses=15 \
	L1.writebacks=1 L1.evictions=8 L1.maint_ops=0 L1.dirty_at_end=2 \
	L1.cycles=72 dirty_at_end=2 cycles=1772

run --json maint.din
expect_json "labels 4 clean, 5 invalidate, 6 flush, 3 misc" \
	trace.records=10 trace.misc=1 trace.cleans=1 trace.invalidates=1 \
	trace.flushes=1 L1.accesses=6 L1.reads=2 L1.writes=4 L1.misses=4 \
	L1.read_misses=2 L1.write_misses=2 L1.maint_ops=3 L1.maint_lines=6 \
	L1.maint_writebacks=3 L1.writebacks=0 L1.dirty_at_end=0

run --json small.din
expect_json "din spellings: 0x, tabs, CRLF, default size, straddle, comments" \
	trace.records=18 trace.reads=8 trace.writes=4 trace.ifetches=2 \
	trace.misc=1 L1.accesses=14 L1.reads=10 L1.writes=4 L1.misses=7 \
	L1.read_misses=6 L1.write_misses=1 L1.compulsory_misses=6 \
	L1.maint_lines=4 L1.maint_writebacks=1 L1.dirty_at_end=2

run --json --data-only small.din
expect_json "--data-only drops din label 2" trace.records=18 \
	trace.ifetches=0 trace.ifetches_dropped=2 L1.accesses=12 \
	L1.reads=8 L1.misses=6

# --- geometry options ----------------------------------------------------
run --json -s 64k -a 4 -l 32 nine-lines.din
expect_json "-s 64k -a 4 -l 32" L1.size=65536 L1.ways=4 L1.line=32 \
	L1.sets=512 L1.accesses=18
run --json --size=64k --ways=4 --line=32 nine-lines.din
expect_json "--size= --ways= --line=" L1.size=65536 L1.ways=4 L1.line=32
run --json -s 1m nine-lines.din
expect_json "-s 1m" L1.size=1048576 L1.sets=2048
run --json -s32k -a8 -l64 nine-lines.din
expect_json "short options with attached values" L1.size=32768 L1.misses=16
run --json -s 32768 nine-lines.din
expect_json "-s in bytes" L1.size=32768
run --json -s 4k -l 64 -a full nine-lines.din
expect_json "-a full: one set of 64 ways, nothing evicted" L1.ways=64 \
	L1.sets=1 L1.misses=15 L1.evictions=0 L1.hits=3
run --json -a 1 nine-lines.din
expect_json "-a 1: direct-mapped, 8 of the lines share a set with another" \
	L1.ways=1 L1.sets=512 L1.misses=16 L1.evictions=8 L1.writebacks=2 \
	L1.dirty_at_end=1

# --- policies ----------------------------------------------------------
run --json policy.din
expect_json "lru (default): 10 misses" L1.policy=lru L1.misses=10 L1.hits=2
run --json -p fifo policy.din
expect_json "-p fifo: 11 misses" L1.policy=fifo L1.misses=11
run --json --policy plru policy.din
expect_json "-p plru: 9 misses" L1.policy=plru L1.misses=9
run --json -p lru policy.din
expect_json "-p lru: 10 misses" L1.misses=10
"$GEN" -n 20000 -s 7 -o mix.din
run --json -p random --seed 5 -s 4k mix.din
cp out random5a
run --json -p random --seed 5 -s 4k mix.din
if [ "$rc" = 0 ] && cmp -s out random5a &&
	[ "$(jget seed)" = 5 ] && [ "$(jget L1.policy)" = random ]; then
	ok "-p random --seed 5: same seed, same result"
else
	not_ok "-p random --seed 5: same seed, same result"
fi
seen=
for s in 1 2 3 4 5 6; do
	run --json -p random --seed $s -s 4k mix.din
	seen="$seen $(jget L1.misses)"
done
distinct=$(echo $seen | tr ' ' '\n' | sort -u | wc -l)
check "--seed changes the random victims (misses:$seen)" test "$distinct" -gt 1

# --- write policies ----------------------------------------------------
run --json -w wt-wa nine-lines.din
expect_json "-w wt-wa: no dirty lines, no write-backs" \
	L1.write_policy=wt-wa L1.misses=16 L1.evictions=8 L1.writebacks=0 \
	L1.dirty_at_end=0 dirty_at_end=0
run --json --write-policy wt-nwa nine-lines.din
expect_json "-w wt-nwa: the write miss does not allocate" \
	L1.write_policy=wt-nwa L1.write_misses=1 L1.evictions=7 \
	L1.writebacks=0 L1.dirty_at_end=0
run --json -w wb-wa nine-lines.din
expect_json "-w wb-wa" L1.write_policy=wb-wa L1.writebacks=1

# --- more levels --------------------------------------------------------
run --json --l2-size 64k nine-lines.din
expect_json "--l2-size: L2 defaults to 8 ways and the L1 line; sees L1's misses" \
	L2.name=L2 L2.size=65536 L2.ways=8 L2.line=64 L2.sets=128 \
	L2.hit_latency=12 L2.misses=15 L2.compulsory_misses=15 \
	L2.policy=lru L1.misses=16
run --json -l 32 --l2-size 64k --l2-ways 4 --l3-size 1m nine-lines.din
expect_json "--l2-ways, --l3-size: L3 defaults to 16 ways, lines follow L1" \
	L1.line=32 L2.ways=4 L2.line=32 L3.name=L3 L3.size=1048576 \
	L3.ways=16 L3.line=32 L3.hit_latency=40
run --json --l2-size 128k --l2-line 128 --l3-size 2m --l3-ways 8 \
	--l3-line 256 -p fifo -w wt-wa nine-lines.din
expect_json "--l2-line, --l3-ways, --l3-line; -p and -w apply to all levels" \
	L2.line=128 L3.line=256 L3.ways=8 L2.policy=fifo L3.policy=fifo \
	L3.write_policy=wt-wa
run nine-lines.din --l2-size 256k
if [ "$rc" = 0 ] && grep -q '^L2: 256 KiB, 8-way, 64-byte lines, 512 sets, lru, wb-wa, hit 12 cycles$' out &&
	grep -Eq '^ +L1 +L2$' out; then
	ok "table has one column per level"
else
	not_ok "table has one column per level"
fi

# --- Lackey --------------------------------------------------------------
run --json -f lackey lackey.out
expect_json "-f lackey: I fetches, L, S, M (a read then a write), == lines skipped" \
	trace.format=lackey trace.records=11 trace.reads=3 trace.writes=3 \
	trace.ifetches=5 trace.modifies=1 L1.accesses=11 L1.reads=8 \
	L1.writes=3 L1.misses=4
run --json --data-only lackey.out
expect_json "Lackey detected without -f; --data-only; a straddling load misses once" \
	trace.format=lackey trace.ifetches_dropped=5 L1.accesses=6 \
	L1.reads=3 L1.writes=3 L1.misses=3 L1.read_misses=2 \
	L1.write_misses=1 L1.dirty_at_end=2

# --- standard input -----------------------------------------------------
run --json nine-lines.din
cp out file.json
run --json <nine-lines.din
cp out stdin.json
same_levels "no FILE reads standard input" file.json stdin.json
check "standard input is named <stdin>" test "$(jget trace.name stdin.json)" = "<stdin>"
run --json - <nine-lines.din
same_levels "FILE - reads standard input" file.json out
run --json --data-only <lackey.out
expect_json "Lackey on standard input" trace.format=lackey L1.misses=3
run --json </dev/null
expect_json "empty input: zero records" trace.records=0 L1.accesses=0 \
	L1.miss_rate=0.000000

# A regular file is mapped, a pipe is read in 1 MiB blocks: the same
# records either way, over many blocks, with or without a final newline,
# whatever the size of the file against the page.
"$GEN" -n 200000 -s 5 -o big.din
run --json -p plru big.din
cp out mapped.json
run_piped big.din --json -p plru
same_levels "200000 records: a mapped file and a pipe replay identically" \
	mapped.json out
run_piped big.din --write-din - -
check "200000 records read through a pipe convert back byte for byte" \
	cmp out big.din
page=$(getconf PAGESIZE 2>/dev/null || echo 4096)
for len in $((page - 1)) $page $((page + 1)) $((2 * page)); do
	# LEN bytes: lines "0 1000 8" padded with blanks so that the last
	# line has no newline and ends exactly at byte LEN.
	awk -v len="$len" 'BEGIN {
		for (n = 0; len - n > 17; n += 9)
			printf "0 1000 8\n"
		last = "1 1000 4"
		while (len - n > length(last))
			last = last " "
		printf "%s", last
	}' >edge.din
	want=$(($(wc -l <edge.din) + 1))
	run --json edge.din
	expect_json "no final newline, $len bytes (page $page), mapped" \
		trace.records=$want trace.writes=1
	run_piped edge.din --json
	expect_json "no final newline, $len bytes, through a pipe" \
		trace.records=$want trace.writes=1
done

# Every spelling of a record the din reader accepts, against its canonical
# form (the common form is decoded by a fast path, the others by the
# general parser: both must give the same records).
tab=$(printf '\t')
cr=$(printf '\r')
printf '%s\n' '0 10 8' '1 0x10 8' '  2 10 8' "0${tab}10${tab}8" '0 10 08' \
	'1 10 8 ' '0 10' '2 0X1f 0x10' '0 00000000000000000010 8' \
	'1 ABCDEF 8' '0 aBcDeF01 8' '1 fedcba9876543210 8' \
	'0 123456789abcdef 8' '1 123456789 4000000000' '0 1 1234567890' \
	'# a comment' '' "0 10 8${cr}" '0 ffffffffffffff00 256' >spell.din
printf '%s\n' '0 10 8' '1 10 8' '2 10 8' '0 10 8' '0 10 8' '1 10 8' \
	'0 10 1' '2 1f 16' '0 10 8' '1 abcdef 8' '0 abcdef01 8' \
	'1 fedcba9876543210 8' '0 123456789abcdef 8' \
	'1 123456789 4000000000' '0 1 1234567890' '0 10 8' \
	'0 ffffffffffffff00 256' >spell.want
run --write-din - spell.din
check "din spellings: the same records as their canonical forms" \
	cmp out spell.want

# --- the binary format ----------------------------------------------------
printf '0 1000 8\n1 0x20 4\n' >two.din
run --write-bin two.bin two.din
printf 'CSIMTRC\000\001\000\020\000\000\000\000\000' >want.bin
printf '\000\020\000\000\000\000\000\000\010\000\000\000\000\000\000\000' >>want.bin
printf '\040\000\000\000\000\000\000\000\004\000\000\000\001\000\000\000' >>want.bin
check "--write-bin writes the documented layout byte for byte" cmp two.bin want.bin

run --json small.din
cp out din.json
run --json --write-bin small.bin small.din
same_levels "--write-bin still prints the statistics" din.json out
run --json -f bin small.bin
same_levels "bin round trip: small.din and its bin give the same results" \
	din.json out
run --json small.bin
expect_json "bin detected without -f" trace.format=bin trace.records=18 \
	trace.misc=1 trace.cleans=1

"$GEN" -n 50000 -s 3 -o gen.din
"$GEN" -n 50000 -s 3 -f bin -o gen.bin
run --write-bin conv.bin gen.din
check "gentrace -f bin equals cachesim --write-bin of its din" cmp gen.bin conv.bin
run --write-din back.din gen.bin
check "--write-din of the bin gives the din back" cmp gen.din back.din
run --json -p plru -s 8k --l2-size 64k gen.din
cp out gendin.json
run --json -p plru -s 8k --l2-size 64k gen.bin
same_levels "50000 records: din and bin replay identically" gendin.json out
run --write-bin - gen.din
if [ "$rc" = 0 ] && cmp -s out gen.bin; then
	ok "--write-bin -: the trace on stdout, no statistics"
else
	not_ok "--write-bin -: the trace on stdout, no statistics"
fi
run --write-din - -f bin <gen.bin
check "--write-din - from a bin on stdin" cmp out gen.din
run --json --write-bin lk.bin --write-din lk.din --data-only lackey.out
cp out lk.json
run --json lk.bin
same_levels "Lackey to bin: modifies stored as read + write replay the same" \
	lk.json out
run --json lk.din
same_levels "Lackey to din, both outputs at once" lk.json out

# --- --demo ------------------------------------------------------------
run --demo
if [ "$rc" = 0 ] &&
	grep -q '^cachesim --demo: replaying a built-in trace of 278530 records (278528 data accesses, 2 maintenance operations) in 6 phases$' out &&
	grep -q '^L1: 32 KiB, 8-way, 64-byte lines, 64 sets, lru, wb-wa, hit 4 cycles$' out &&
	grep -Eq '^1\. row-major sum.* 65536 +8192 +12\.50%' out &&
	grep -Eq '^2\. column-major sum.* 65536 +65536 +100\.00%' out &&
	grep -Eq '^3\. column-major, 8 columns.* 65536 +8192 +12\.50%' out &&
	grep -Eq '^accesses +278528$' out; then
	ok "--demo: header, geometry, phases and table"
else
	not_ok "--demo: header, geometry, phases and table"
	diag "$(head -20 out)" "$(cat err)"
fi
run --demo -s 64k -a 16 --l2-size 512k
check "--demo takes the geometry options" \
	grep -q '^L1: 64 KiB, 16-way, 64-byte lines, 64 sets' out
run --demo --json
expect_json "--demo --json" trace.name=demo trace.format=demo \
	L1.accesses=278528 L1.maint_ops=2
check "--demo --json lists the phases" grep -q '"phases":\[{"name":"row-major sum' out
cp out demo.json
run --demo --write-din demo.din --write-bin demo.bin
run --json demo.din
same_levels "--demo --write-din: the demo trace replays the same from a file" \
	demo.json out
run --json demo.bin
same_levels "--demo --write-bin, replayed" demo.json out

# --- errors in the trace: exit 1, file:line ------------------------------
printf '0 10\n9 20\n' >bad.din
expect_error "unknown label, file:line" 1 \
	"cachesim: bad.din:2: unknown label '9'" bad.din
printf '0 10\n# c\n\n12 20\n' >in
expect_error_in "unknown label on stdin" 1 \
	"cachesim: <stdin>:4: unknown label '12'"
printf 'R 10\n' >in
expect_error_in "label that is not a digit" 1 \
	"cachesim: <stdin>:1: unknown label 'R'"
printf '0 10\n1\n' >in
expect_error_in "missing address" 1 \
	"cachesim: <stdin>:2: missing address after label 1"
printf '0   \n' >in
expect_error_in "missing address after blanks" 1 \
	"cachesim: <stdin>:1: missing address after label 0"
printf '0 xyz 4\n' >in
expect_error_in "bad address" 1 \
	"cachesim: <stdin>:1: bad address 'xyz'"
printf '0 0x\n' >in
expect_error_in "0x without digits" 1 \
	"cachesim: <stdin>:1: bad address '0x'"
printf '0 12345678901234567\n' >in
expect_error_in "address over 64 bits" 1 \
	"cachesim: <stdin>:1: bad address '12345678901234567'"
printf '0 10g\n' >in
expect_error_in "address with a bad digit" 1 \
	"cachesim: <stdin>:1: bad address '10g'"
printf '0 10 8\n0 1z 8\n' >in
expect_error_in "a bad digit in a line of the common form" 1 \
	"cachesim: <stdin>:2: bad address '1z'"
printf '0 10 8\n1 123456789abcdeg 8\n' >in
expect_error_in "a bad digit among 15" 1 \
	"cachesim: <stdin>:2: bad address '123456789abcdeg'"
printf '0 10 abc\n' >in
expect_error_in "bad size" 1 \
	"cachesim: <stdin>:1: bad size 'abc'"
printf '0 10 0\n' >in
expect_error_in "size 0" 1 \
	"cachesim: <stdin>:1: bad size '0'"
printf '0 10 4294967296\n' >in
expect_error_in "size over 32 bits" 1 \
	"cachesim: <stdin>:1: bad size '4294967296'"
printf '0 10 4 5\n' >in
expect_error_in "a fourth field" 1 \
	"cachesim: <stdin>:1: unexpected '5' after the size"
printf '0 ffffffffffffffff 2\n' >in
expect_error_in "access wrapping around" 1 \
	"cachesim: <stdin>:1: 2 bytes at 0xffffffffffffffff wrap around the address space"
printf '0 1\001\n' >in
expect_error_in "control byte quoted" 1 \
	"cachesim: <stdin>:1: bad address '1\\x01'"
awk 'BEGIN { printf "0 10\n0 "; for (i = 0; i < 5000; i++) printf "0"; printf "\n" }' >in
expect_error_in "line too long" 1 \
	"cachesim: <stdin>:2: line too long (more than 4096 bytes)"
printf 'I  0400,4\n L 10,x\n' >in
expect_error_in "Lackey: bad size" 1 \
	"cachesim: <stdin>:2: bad size 'x'"
printf ' L 10\n' >in
expect_error_in "Lackey: no comma" 1 \
	"cachesim: <stdin>:1: bad address '10'"
printf '==1== hi\nhello\n' >in
expect_error_in "Lackey: foreign line" 1 \
	"cachesim: <stdin>:2: not a Lackey line: 'hello'"
printf '0 10\n' >in
expect_error_in "-f lackey on a din trace" 1 \
	"cachesim: <stdin>:1: not a Lackey line: '0'" -f lackey
printf '0 10 8\n' >in
expect_error_in "-f bin on text: bad magic" 1 \
	"cachesim: <stdin>: not a cachesim binary trace (bad magic)" -f bin
: >in
expect_error_in "-f bin on empty input" 1 \
	"cachesim: <stdin>: not a cachesim binary trace (empty file)" -f bin
printf 'CSIMTRC\000\001\000' >in
expect_error_in "bin: truncated header" 1 \
	"cachesim: <stdin>: truncated header (10 of 16 bytes)"
printf 'CSIMTRC\000\002\000\020\000\000\000\000\000' >in
expect_error_in "bin: unsupported version" 1 \
	"cachesim: <stdin>: unsupported binary trace version 2 (this cachesim reads version 1)"
printf 'CSIMTRC\000\001\000\030\000\000\000\000\000' >in
expect_error_in "bin: bad record size" 1 \
	"cachesim: <stdin>: bad record size 24 in header (expected 16)"
printf 'CSIMTRC\000\001\000\020\000\001\000\000\000' >in
expect_error_in "bin: unknown flags" 1 \
	"cachesim: <stdin>: unknown header flags 0x1"
{ cat two.bin; printf '\001\002\003\004\005'; } >trunc.bin
expect_error "bin: truncated record" 1 \
	"cachesim: trunc.bin: record 3: truncated (5 of 16 bytes)" trunc.bin
{ cat two.bin; printf '\000\000\000\000\000\000\000\000\010\000\000\000\011\000\000\000'; } >kind.bin
expect_error "bin: unknown kind" 1 \
	"cachesim: kind.bin: record 3: unknown kind 9" kind.bin
{ cat two.bin; printf '\000\000\000\000\000\000\000\000\010\000\000\000\001\000\001\000'; } >resv.bin
expect_error "bin: reserved bytes" 1 \
	"cachesim: resv.bin: record 3: reserved bytes are not zero" resv.bin
{ cat two.bin; printf '\000\000\000\000\000\000\000\000\000\000\000\000\001\000\000\000'; } >zero.bin
expect_error "bin: size 0" 1 "cachesim: zero.bin: record 3: size 0" zero.bin
expect_error "unreadable file" 1 \
	"cachesim: no-such.din: No such file or directory" no-such.din
expect_error "a directory is not a trace" 1 \
	"cachesim: .: read error: Is a directory" .
run --write-bin partial.bin bad.din
check "a failed conversion leaves no output file" test "$rc" = 1 -a ! -e partial.bin

# --- usage errors: exit 2 ------------------------------------------------
expect_error "bad --size" 2 \
	"cachesim: bad --size '12q' (expected bytes, or a number with k, m or g)" \
	-s 12q nine-lines.din
expect_error "bad --l2-size" 2 \
	"cachesim: bad --l2-size 'big' (expected bytes, or a number with k, m or g)" \
	--l2-size big nine-lines.din
expect_error "bad --ways" 2 \
	"cachesim: bad --ways 'x' (expected a number >= 1 or 'full')" -a x
expect_error "--ways 0" 2 \
	"cachesim: bad --ways '0' (expected a number >= 1 or 'full')" -a 0
expect_error "negative --l3-ways" 2 \
	"cachesim: bad --l3-ways '-4' (expected a number >= 1 or 'full')" \
	--l2-size 1m --l3-size 4m --l3-ways -4
expect_error "bad --line" 2 \
	"cachesim: bad --line '64b' (expected a number of bytes)" -l 64b
expect_error "bad --l2-line" 2 \
	"cachesim: bad --l2-line '' (expected a number of bytes)" --l2-line ''
expect_error "unknown --policy" 2 \
	"cachesim: unknown --policy 'mru' (expected lru, plru, fifo or random)" \
	-p mru
expect_error "unknown --write-policy" 2 \
	"cachesim: unknown --write-policy 'wb' (expected wb-wa, wt-wa or wt-nwa)" \
	-w wb
expect_error "unknown --format" 2 \
	"cachesim: unknown --format 'csv' (expected din, bin or lackey)" -f csv
expect_error "bad --seed" 2 "cachesim: bad --seed '-1' (expected a number)" \
	--seed -1
expect_error "--seed over 64 bits" 2 \
	"cachesim: bad --seed '18446744073709551616' (expected a number)" \
	--seed 18446744073709551616
expect_error "unknown long option" 2 "cachesim: unknown option '--bogus'" \
	--bogus
expect_error "unknown short option" 2 "cachesim: unknown option '-x'" -x
expect_error "missing value, long" 2 "cachesim: option '--size' needs a value" \
	--size
expect_error "missing value, short" 2 "cachesim: option '-a' needs a value" \
	nine-lines.din -a
expect_error "value given to a flag" 2 \
	"cachesim: option '--json' takes no value" --json=yes
expect_error "two files" 2 "cachesim: too many arguments ('b.din')" a.din b.din
expect_error "--demo with a file" 2 \
	"cachesim: --demo takes no FILE ('x.din')" --demo x.din
expect_error "--l2-ways without --l2-size" 2 \
	"cachesim: --l2-ways needs --l2-size" --l2-ways 4
expect_error "--l3-line without --l3-size" 2 \
	"cachesim: --l3-line needs --l3-size" --l2-size 1m --l3-line 64
expect_error "--l3-size without --l2-size" 2 \
	"cachesim: --l3-size needs --l2-size" --l3-size 4m
expect_error "both conversions on stdout" 2 \
	"cachesim: --write-bin and --write-din cannot both write to standard output" \
	--write-bin - --write-din -
cp nine-lines.din self.din
expect_error "--write-bin onto the input" 2 \
	"cachesim: --write-bin 'self.din' would overwrite the input trace" \
	--write-bin self.din self.din
expect_error "--write-din onto standard input" 2 \
	"cachesim: --write-din 'self.din' would overwrite the input trace" \
	--write-din self.din <self.din
check "the input survives" cmp self.din nine-lines.din
expect_error "-a full with a size that is not a whole number of lines" 2 \
	"cachesim: L1: --ways full: size 1000 is not a multiple of the 64-byte line" \
	-s 1000 -a full

# --- impossible geometry: exit 2, the library's reason -------------------
expect_error "size not a multiple of ways * line" 2 \
	"cachesim: L1: size 1000 is not a multiple of ways * line = 512" -s 1000
expect_error "line not a power of two" 2 \
	"cachesim: L1: line size 48 is not a power of two >= 4" -l 48
expect_error "sets not a power of two" 2 \
	"cachesim: L1: number of sets 3 (size / (ways * line)) is not a power of two" \
	-s 12k -a 64
expect_error "more ways than lines" 2 \
	"cachesim: L1: ways 1024 is more than the 512 lines of 32768 bytes" \
	-a 1024
expect_error "plru needs power-of-two ways" 2 \
	"cachesim: L1: plru needs a power-of-two number of ways, not 6" \
	-s 24k -a 6 -p plru
expect_error "the message names the level" 2 \
	"cachesim: L2: line size 3 is not a power of two >= 4" \
	--l2-size 1m --l2-line 3

# --- output errors: exit 3 -------------------------------------------------
expect_error "--write-bin into a missing directory" 3 \
	"cachesim: no-dir/x.bin: No such file or directory" \
	--write-bin no-dir/x.bin nine-lines.din
if [ -w /dev/full ]; then
	"$CS" --demo >/dev/full 2>err
	rc=$?
	if [ "$rc" = 3 ] && [ "$(cat err)" = \
		"cachesim: write error on standard output: No space left on device" ]; then
		ok "standard output full: exit 3"
	else
		not_ok "standard output full: exit 3"
		diag "exit $rc: $(cat err)"
	fi
else
	skip "/dev/full not available"
fi

done_testing
