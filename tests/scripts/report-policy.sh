#!/bin/sh
# report-policy.sh - the report policy options on a driver built like any
# other (docs/options.md, "Report policy"): tests/scripts/report-site-prog.c
# built with dmaemu-cc -g, run with DMAEMU_OPTIONS set to suppressions
# files whose fun: and src: rules match its frames (the "at" line and the
# stack above it, inlined functions included), report_limit, verbosity
# and checks.  The lines are found by the program's "site: NAME" markers.
. "$top_srcdir/tests/runner/tap.sh"

[ -z "$SANITIZER" ] ||
	skip_all "dmaemu-cc cannot build instrumented driver code in this" \
		"--enable-sanitizer=$SANITIZER build"
cc="$top_builddir/tools/dmaemu-cc"
[ -x "$cc" ] || skip_all "tools/dmaemu-cc not built"

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
src="$top_srcdir/tests/scripts/report-site-prog.c"
line() {
	grep -n "/\* site: $1 \*/" "$src" | cut -d: -f1
}
l_main=$(line main)
l_peek=$(line peek)
l_memcpy=$(line memcpy)
l_unmap=$(line unmap)

if "$cc" -g "$src" -o "$tmp/prog" >"$tmp/cc.out" 2>&1; then
	ok "the program builds with dmaemu-cc -g"
else
	not_ok "the program builds with dmaemu-cc -g"
	sed 's/^/# /' "$tmp/cc.out"
	done_testing
	exit
fi

# run NAME OPTIONS: run the program with DMAEMU_OPTIONS=OPTIONS; its
# reports in $tmp/NAME.err, its exit status in $status.
run() {
	DMAEMU_OPTIONS=$2 "$tmp/prog" >"$tmp/$1.out" 2>"$tmp/$1.err"
	status=$?
}
# supp NAME RULES...: a suppressions file $tmp/NAME.supp, one rule a
# argument.
supp() {
	f="$tmp/$1.supp"
	shift
	printf '%s\n' "# made by report-policy.sh" "$@" >"$f"
}
# count NAME PATTERN: lines of $tmp/NAME.err matching the ERE.
count() {
	grep -cE -- "$2" "$tmp/$1.err"
}

run all ""
n_all=$(count all '^SUMMARY: dmaemu: ')
n_stale=$(count all '^SUMMARY: dmaemu: stale-cpu-read ')
check "without options: every bug reported ($n_all reports, $n_stale stale reads)" \
	test "$status" -eq 0 -a "$n_stale" -eq 3 -a "$n_all" -gt 4
check "without options: the stale read in peek" test "$(count all \
	"^SUMMARY: dmaemu: stale-cpu-read $src:$l_peek in peek$")" -eq 1

# fun: the function of the "at" line.
supp peek fun:peek
run peek "suppressions=$tmp/peek.supp"
n=$(count peek '^SUMMARY: dmaemu: ')
check "fun:peek: no report at peek, the others stay" \
	test "$status" -eq 0 -a "$(count peek ' in peek$')" -eq 0 \
	-a "$n" -eq $((n_all - $(count all ' in peek$')))
check "fun:peek: destroy says how many and by which rule" \
	grep -qxF "==$(sed -n 's/^==\([0-9]*\)==.*/\1/p' "$tmp/peek.err" |
		head -n 1)==dmaemu:   $((n_all - n)) by $tmp/peek.supp:2: fun:peek" \
	"$tmp/peek.err"

# fun: a function of the stack above it (rx_poll calls the inlined peek).
supp rx fun:rx_poll
run rx "suppressions=$tmp/rx.supp"
check "fun:rx_poll: the reports in the inlined peek go too" \
	test "$(count rx ' in peek$')" -eq 0 -a \
	"$(count rx "^SUMMARY: dmaemu: stale-cpu-read $src:$l_main in main$")" -eq 1

# src: every frame of the program's file.
supp src 'src:*report-site-prog.c'
run src "suppressions=$tmp/src.supp"
check "src:*report-site-prog.c: every report of the program" \
	test "$status" -eq 0 -a "$(count src '^SUMMARY: ')" -eq 0 \
	-a "$(count src 'ERROR')" -eq 0
check "src: destroy sums them up" grep -qE \
	"^==[0-9]+==dmaemu: suppressions=$tmp/src.supp: $n_all reports suppressed$" \
	"$tmp/src.err"
supp other 'src:*other-file.c' 'fun:no_such_function'
run other "suppressions=$tmp/other.supp"
check "rules matching none of its frames: nothing suppressed" \
	test "$(count other '^SUMMARY: ')" -eq "$n_all" \
	-a "$(count other 'suppressed')" -eq 0

# kind:, alone and with src:.
supp kind kind:stale-cpu-read
run kind "suppressions=$tmp/kind.supp"
check "kind:stale-cpu-read: the stale reads only" \
	test "$(count kind '^SUMMARY: dmaemu: stale-cpu-read')" -eq 0 \
	-a "$(count kind '^SUMMARY: ')" -eq $((n_all - n_stale))
supp both 'kind:stale-cpu-read src:*other-file.c'
run both "suppressions=$tmp/both.supp"
check "kind: with a src: that does not match: nothing suppressed" \
	test "$(count both '^SUMMARY: ')" -eq "$n_all"

# A bad line: the machine is not made; the message names file and line.
supp bad 'kind:stale-cpu-read' 'fun'
run bad "suppressions=$tmp/bad.supp"
check "a bad line: machine create fails" test "$status" -eq 1
check "a bad line: the message names the file and the line" \
	grep -qxF "dmaemu: DMAEMU_OPTIONS: suppressions file $tmp/bad.supp:3: 'fun' is not TYPE:GLOB (kind:, fun: or src:)" \
	"$tmp/bad.err"

# report_limit: two printed, the rest counted.
run limit report_limit=2
check "report_limit=2: two reports printed" \
	test "$(count limit '^SUMMARY: ')" -eq 2 -a "$(count limit '==ERROR: ')" -eq 2
check "report_limit=2: the final line" grep -qE \
	"^==[0-9]+==dmaemu: report_limit=2: $((n_all - 2)) more reports counted and not printed$" \
	"$tmp/limit.err"

# verbosity.
run v0 verbosity=0
check "verbosity=0: every report, headline and SUMMARY only" \
	test "$(count v0 '^SUMMARY: ')" -eq "$n_all" -a \
	"$(count v0 '^    ')" -eq 0 -a \
	"$(count v0 '^==[0-9]+==ERROR: ')" -eq "$n_all"
check "verbosity=0: the SUMMARY still names the line" test "$(count v0 \
	"^SUMMARY: dmaemu: stale-cpu-read $src:$l_memcpy in main$")" -eq 1
run v2 verbosity=2
check "verbosity=2: the same reports, at least as long" \
	test "$(count v2 '^SUMMARY: ')" -eq "$n_all" -a \
	"$(wc -l <"$tmp/v2.err")" -ge "$(wc -l <"$tmp/all.err")"

# checks.
run nocoh checks=-coherence
check "checks=-coherence: only the double unmap is left" \
	test "$status" -eq 0 -a "$(count nocoh '^SUMMARY: ')" -eq 1 -a \
	"$(count nocoh "^SUMMARY: dmaemu: [a-z-]+ $src:$l_unmap in main$")" -eq 1
run noapi checks=-api
check "checks=-api: all but the double unmap" \
	test "$(count noapi '^SUMMARY: ')" -eq $((n_all - 1)) -a \
	"$(count noapi ":$l_unmap in main$")" -eq 0
run none checks=none
check "checks=none: no report" test "$status" -eq 0 -a \
	"$(count none '^SUMMARY: ')" -eq 0
done_testing
