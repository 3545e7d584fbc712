#!/bin/sh
# driver-mutants.sh - the mutation test of the reference drivers
# (tools/driver-mutants.sh): every deletion of a sync, unmap,
# mapping-error check or barrier from the drivers is reported, or listed
# in tools/driver-mutants.known with what it does; and the script's exit
# status tracks that list (a mutant missing from it, an entry that no
# longer holds).
. "$top_srcdir/tests/runner/tap.sh"

[ -n "$SANITIZER" ] &&
	skip_all "a --enable-sanitizer=$SANITIZER build cannot run instrumented drivers"
[ -x "$top_builddir/examples/copy-engine/copy-engine" ] ||
	skip_all "examples not built (the compiler cannot instrument driver code)"
command -v bash >/dev/null && command -v python3 >/dev/null ||
	skip_all "tools/driver-mutants.sh needs bash and python3"

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
script=$top_srcdir/tools/driver-mutants.sh
summary_re='^[0-9][0-9]* mutants, [0-9][0-9]* reported, [0-9][0-9]* unreported behaviour changes, [0-9][0-9]* equivalent'

# Every driver, arm64 and x86, against the known list.
bash "$script" -b "$top_builddir" >"$tmp/all" 2>&1
st=$?
if [ $st = 0 ]; then
	ok "every mutant of the drivers is reported or known"
else
	not_ok "every mutant of the drivers is reported or known (exit status $st)"
	grep -v ' reported ' "$tmp/all" | sed 's/^/# /'
fi
sum=$(grep "$summary_re" "$tmp/all")
rows=$(grep -c -E ' (arm64|x86) +(reported|unreported|equivalent) ' "$tmp/all")
total=${sum%% *}
if [ -n "$sum" ] && [ "$total" = "$rows" ] && [ "$total" -gt 0 ]; then
	ok "the summary counts the table's $rows rows: $sum"
else
	not_ok "the summary counts the table's rows ($rows rows; '$sum')"
fi
# A call named in a string or a comment is not a mutant: wc-doorbell says
# "wmb(): ..." in a lab_say() line right after its wmb().
w=$(grep -c '^examples/labs/wc-doorbell/lab.c:[0-9]* *wmb()' "$tmp/all")
check "one wmb() mutant per profile in wc-doorbell, none from its strings ($w rows)" \
	test "$w" = 2
# A mapping-error check inside a condition becomes 0 and builds: every
# if (dma_mapping_error(...)) of the examples gives a mutant that ran (and
# ce-driver.c's comment naming dma_mapping_error() none).
calls=$(cat "$top_srcdir"/examples/nic/nic-driver.c \
	"$top_srcdir"/examples/copy-engine/ce-driver.c |
	grep -c 'if (dma_mapping_error(')
got=$(grep -c -E '^examples/(nic|copy-engine)/.*dma_mapping_error\(\) +arm64 ' "$tmp/all")
check "each of the $calls dma_mapping_error() calls of the examples ran as a mutant ($got)" \
	test "$got" = "$calls"

# Without the known list, the copy engine's unreported mutants fail it.
grep '^#' "$top_srcdir/tools/driver-mutants.known" >"$tmp/empty"
bash "$script" -b "$top_builddir" -k "$tmp/empty" -p arm64 \
	examples/copy-engine/ce-driver.c >"$tmp/new" 2>&1
st=$?
n=$(grep -c '\[NEW\]' "$tmp/new")
u=$(grep "$summary_re" "$tmp/new" | sed 's/.* reported, \([0-9]*\) unreported.*, \([0-9]*\) equivalent.*/\1 \2/')
if [ $st = 1 ] && [ "$n" -gt 0 ] && [ "$n" = $((${u% *} + ${u#* })) ]; then
	ok "a mutant neither reported nor known fails the run ($n NEW)"
else
	not_ok "a mutant neither reported nor known fails the run (exit status $st, $n NEW, '$u')"
	sed 's/^/# /' "$tmp/new"
fi

# A report the script does not see (log_path sends the reports to a file)
# leaves a changed exit status: the deleted unmaps are then unreported
# behaviour changes, and fail the run.
DRIVER_MUTANTS_OPTIONS=log_path=$tmp/reports bash "$script" -b "$top_builddir" \
	-p arm64 examples/copy-engine/ce-driver.c >"$tmp/unrep" 2>&1
st=$?
n=$(grep -c '^examples/copy-engine/.*dma_unmap_single() *arm64 *unreported .*\[NEW\]' "$tmp/unrep")
if [ $st = 1 ] && [ "$n" -gt 0 ] && [ -s "$tmp/reports" ] &&
	grep -q ' 0 reported, [1-9][0-9]* unreported behaviour changes' "$tmp/unrep"; then
	ok "an unreported behaviour change fails the run ($n unmaps)"
else
	not_ok "an unreported behaviour change fails the run (exit status $st, $n unmaps)"
	sed 's/^/# /' "$tmp/unrep"
fi

# An entry that matches no mutant any more is stale.
cp "$top_srcdir/tools/driver-mutants.known" "$tmp/stale"
echo "examples/copy-engine/ce-driver.c:no_such_function:dma_rmb#1 * equivalent gone" >>"$tmp/stale"
bash "$script" -b "$top_builddir" -k "$tmp/stale" -q -p arm64 \
	examples/copy-engine/ce-driver.c >"$tmp/out" 2>&1
st=$?
if [ $st = 1 ] && grep -q "^STALE: .*no_such_function.* matches no mutant" "$tmp/out"; then
	ok "a known entry that matches no mutant fails the run"
else
	not_ok "a known entry that matches no mutant fails the run (exit status $st)"
	sed 's/^/# /' "$tmp/out"
fi

# A bad entry is a usage error.
echo "examples/nic/nic-driver.c:x:wmb#1 * missing" >"$tmp/bad"
bash "$script" -b "$top_builddir" -k "$tmp/bad" examples/nic/nic-driver.c \
	>"$tmp/out" 2>&1
check "an entry without outcome and reason is refused (exit status 2)" test $? = 2
done_testing
