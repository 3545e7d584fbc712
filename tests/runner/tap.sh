# tap.sh - TAP helpers for the shell tests (sourced, not run).
#
#   plan N          print the plan
#   skip_all WHY    print "1..0 # SKIP WHY" and exit 0
#   ok DESC         pass;  not_ok DESC  fail;  check DESC CMD...  run CMD
#   done_testing    print the plan at the end and exit with the failures

tap_n=0
tap_failed=0

plan() { echo "1..$1"; }
skip_all() { echo "1..0 # SKIP $*"; exit 0; }
ok() { tap_n=$((tap_n + 1)); echo "ok $tap_n - $*"; }
not_ok() { tap_n=$((tap_n + 1)); tap_failed=$((tap_failed + 1)); echo "not ok $tap_n - $*"; }
skip() { tap_n=$((tap_n + 1)); echo "ok $tap_n - # SKIP $*"; }
diag() { printf '%s\n' "$@" | sed 's/^/# /'; }
check() {
	desc=$1; shift
	if "$@"; then ok "$desc"; else not_ok "$desc"; fi
}
done_testing() {
	echo "1..$tap_n"
	[ "$tap_failed" -eq 0 ]
}
