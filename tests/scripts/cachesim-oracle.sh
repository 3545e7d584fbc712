#!/bin/sh
# cachesim-oracle.sh - Cachegrind as the oracle of the cache model.
#
# Each program of tests/oracle/ is compiled with -O1 and run twice under
# Valgrind: once with Lackey (--trace-mem=yes), which prints every data
# access, and once with Cachegrind simulating a D1 geometry.  The Lackey
# trace replayed through `cachesim --data-only` with the same geometry
# must give Cachegrind's counts exactly:
#
#   D1mr == read_misses     D1mw == write_misses
#   Dr   == reads           Dw   == writes - modifies
#
# The rules that make the counts comparable (docs/cachesim.md explains
# them): both tools see the same guest accesses, ld.so and libc start-up
# included; Cachegrind counts a modify as one read (cachesim replays it as
# a read then a write of the same bytes, and the write always hits, so the
# misses agree and only the write count differs, by the modifies);
# Cachegrind looks up every line an access touches and counts one miss if
# any misses, as cachesim does; Cachegrind is LRU, write-allocate.
# Cachegrind shortens accesses made by Valgrind "dirty helpers" (XSAVE,
# FXSAVE, ...) to 16 bytes; plain loads and stores are at most 32 bytes
# (AVX), so any Lackey access longer than 32 bytes is shortened to 16 here
# too (tests/oracle/fxsave.c checks that rule: without it the counts
# differ).
#
# Programs are linked statically.  Dynamically linked, the two runs differ
# in two loads: ld.so's generic strcspn() reads the LD_PRELOAD string that
# Valgrind sets a whole aligned word at a time and indexes a table with
# the bytes past its NUL, which are the kernel's AT_RANDOM bytes, new at
# every run.  If static linking is impossible, the programs are linked
# with -z now (no lazy-binding resolver, the usual user of XSAVE) and the
# misses may differ by up to $dyn_tolerance, which the test then allows.
. "$top_srcdir/tests/runner/tap.sh"

[ -n "$VALGRIND" ] && command -v "$VALGRIND" >/dev/null 2>&1 ||
	skip_all "valgrind not found"

top_srcdir=$(cd "$top_srcdir" && pwd)
top_builddir=$(cd "$top_builddir" && pwd)
CS=$top_builddir/cachesim/cachesim
CC=${CC:-cc}
if [ ! -x "$CS" ]; then
	echo "Bail out! cachesim/cachesim is not built"
	exit 1
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/cachesim-oracle.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

# Misses that may differ when the programs cannot be linked statically:
# two loads at random addresses, each a miss at most plus one later miss
# of the line it evicted.
dyn_tolerance=4

# absdiff A B: |A - B|
absdiff() {
	if [ "$1" -ge "$2" ]; then echo $(($1 - $2)); else echo $(($2 - $1)); fi
}

# D1 geometries (size,ways,line) checked for every program.  Lines are at
# least 32 bytes: Cachegrind cannot simulate an access spanning 3 lines.
geometries="32768,8,64 4096,2,32 8192,1,64"
# Cachegrind needs I1 and LL too; they do not influence D1.
cg_other="--I1=32768,8,64 --LL=8388608,16,64"

# cg_get EVENT FILE: an event's total from a cachegrind.out file.
cg_get() {
	awk -v ev="$1" '
		/^events:/ { for (i = 2; i <= NF; i++) name[i] = $i }
		/^summary:/ { for (i = 2; i <= NF; i++) if (name[i] == ev) print $i }
	' "$2"
}

# jget KEY FILE: a numeric field of L1 in a JSON report; trace.KEY for a
# field of the trace object.
jget() {
	case $1 in
	trace.*) sed 's/^{"trace":{//; s/}.*//' "$2" ;;
	*) sed 's/.*"levels":\[{//; s/}.*//' "$2" ;;
	esac | tr ',' '\n' | sed -n "s/^\"${1#trace.}\":\([0-9]*\)\$/\1/p"
}

for prog in transpose listwalk stride fxsave; do
	src=$top_srcdir/tests/oracle/$prog.c
	exe=$tmp/$prog
	tol=0
	if ! $CC -O1 -static -o "$exe" "$src" 2>"$tmp/cc.err"; then
		tol=$dyn_tolerance
		if ! $CC -O1 -Wl,-z,now -o "$exe" "$src" 2>"$tmp/cc.err"; then
			not_ok "$prog: compile with $CC -O1"
			diag "$(cat "$tmp/cc.err")"
			continue
		fi
		diag "$prog: cannot link statically: misses may differ by $tol"
	fi

	"$VALGRIND" --tool=lackey --trace-mem=yes --log-file="$tmp/$prog.lk" \
		"$exe" >"$tmp/$prog.out1" 2>&1
	rc=$?
	if [ "$rc" != 0 ] || ! grep -q '^ L ' "$tmp/$prog.lk"; then
		not_ok "$prog: Lackey trace"
		diag "exit $rc" "$(tail -5 "$tmp/$prog.lk")"
		continue
	fi

	# Cachegrind's clamp of long (dirty helper) accesses, and a count of
	# the accesses that straddle a 64-byte line, for the record.
	awk -v clamp="$tmp/clamped" -v strad="$tmp/straddles" '
		function low(h, n, i) {
			h = tolower(substr(h, length(h) - 1))
			n = 0
			for (i = 1; i <= length(h); i++)
				n = n * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1
			return n
		}
		/^ [LSM] / {
			split($2, f, ",")
			if (f[2] + 0 > 32) {
				nclamp++
				$0 = " " $1 " " f[1] ",16"
			} else if (low(f[1]) % 64 + f[2] > 64) {
				nstrad++
			}
		}
		{ print }
		END { print nclamp + 0 >clamp; print nstrad + 0 >strad }
	' "$tmp/$prog.lk" >"$tmp/$prog.trace"
	diag "$prog: $(cat "$tmp/straddles") accesses straddle 64-byte lines, $(cat "$tmp/clamped") longer than 32 bytes shortened to 16"
	if [ "$prog" = fxsave ]; then
		# Without long accesses the rule would go untested.
		case $(uname -m) in
		x86_64 | i?86)
			check "fxsave: Lackey reports the long FXSAVE stores" \
				test "$(cat "$tmp/clamped")" -ge 256
			;;
		esac
	fi

	for geo in $geometries; do
		size=${geo%%,*}
		rest=${geo#*,}
		ways=${rest%%,*}
		line=${rest#*,}
		cgout=$tmp/$prog.$size.$ways.$line.cg
		"$VALGRIND" --tool=cachegrind --cache-sim=yes --D1="$geo" \
			$cg_other --cachegrind-out-file="$cgout" \
			--log-file="$tmp/cg.log" "$exe" >"$tmp/$prog.out2" 2>&1
		rc=$?
		if [ "$rc" != 0 ] || ! cmp -s "$tmp/$prog.out1" "$tmp/$prog.out2"; then
			not_ok "$prog: Cachegrind run, D1 $geo (same output as under Lackey)"
			diag "exit $rc" "$(tail -5 "$tmp/cg.log")"
			continue
		fi
		"$CS" --data-only -f lackey --json -s "$size" -a "$ways" -l "$line" \
			"$tmp/$prog.trace" >"$tmp/cs.json" 2>"$tmp/cs.err"
		rc=$?
		dr=$(cg_get Dr "$cgout")
		dw=$(cg_get Dw "$cgout")
		d1mr=$(cg_get D1mr "$cgout")
		d1mw=$(cg_get D1mw "$cgout")
		reads=$(jget reads "$tmp/cs.json")
		writes=$(jget writes "$tmp/cs.json")
		modifies=$(jget trace.modifies "$tmp/cs.json")
		rmiss=$(jget read_misses "$tmp/cs.json")
		wmiss=$(jget write_misses "$tmp/cs.json")
		desc="$prog, D1 $geo: Cachegrind D1mr $d1mr D1mw $d1mw, cachesim $rmiss $wmiss"
		[ "$tol" = 0 ] || desc="$desc (within $tol)"
		if [ "$rc" = 0 ] && [ -n "$d1mr" ] && [ -n "$rmiss" ] &&
			[ "$(absdiff "$d1mr" "$rmiss")" -le "$tol" ] &&
			[ "$(absdiff "$d1mw" "$wmiss")" -le "$tol" ] &&
			[ "$dr" = "$reads" ] &&
			[ "$dw" = "$((writes - modifies))" ] &&
			[ "$((d1mr + d1mw))" -gt 100 ]; then
			ok "$desc"
		else
			not_ok "$desc"
			diag "cachesim exit $rc: $(cat "$tmp/cs.err")" \
				"Cachegrind Dr $dr Dw $dw D1mr $d1mr D1mw $d1mw" \
				"cachesim reads $reads writes $writes modifies $modifies read_misses $rmiss write_misses $wmiss"
		fi
	done
	rm -f "$tmp/$prog.lk" "$tmp/$prog.trace"
done

done_testing
