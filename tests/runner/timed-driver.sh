#!/bin/sh
# timed-driver.sh - the test harness's log driver: runs Automake's TAP
# driver (build-aux/tap-driver.sh) with the arguments it was given, and
# writes the test's wall-clock and CPU seconds (user + system, the test's
# processes and their children) beside its log, in NAME.time:
#
#   WALL CPU NAME
#
# tools/quickstart.sh reads them to print each stage's slowest tests.
# Usage (Makefile.am): LOG_DRIVER = $(SHELL) timed-driver.sh $(SHELL)
# TAP-DRIVER, then the TAP driver's arguments.
sh=$1
tap=$2
shift 2
name= log=
prev=
for a in "$@"; do
	case $prev in
	--test-name) name=$a ;;
	--log-file) log=$a ;;
	esac
	prev=$a
done
t0=$(date +%s.%N)
"$sh" "$tap" "$@"
status=$?
t1=$(date +%s.%N)
[ -n "$log" ] || exit $status
time=${log%.log}.time
# times (in this shell, not in a pipeline's subshell): this shell's user
# and system time, then its children's.
times >"$time"
awk -v wall="$(echo "$t1 $t0" | awk '{ print $1 - $2 }')" -v name="$name" '
	NR == 2 {
		n = split($0, f, /[ \t]+/)
		for (i = 1; i <= n; i++) {
			m = f[i]; sub(/m.*/, "", m)
			s = f[i]; sub(/.*m/, "", s); sub(/s$/, "", s)
			t += m * 60 + s
		}
		printf "%.2f %.2f %s\n", wall, t, name
	}' "$time" >"$time.new" && mv "$time.new" "$time"
exit $status
