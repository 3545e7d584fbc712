#!/usr/bin/env bash
# quickstart.sh - set up a Debian machine for dmaemu, build it, and run
# either the lab tour or the full test suite.
#
#   tools/quickstart.sh tour    install, build, run the tour (tools/tour.sh):
#                               the lab tour (dmaemu-lab tour from the
#                               build tree), then a smaller tour of the
#                               README's example, a reference driver and
#                               the cache simulator
#   tools/quickstart.sh test    install, build, run make check, the
#                               Valgrind runs (Memcheck, Helgrind, DRD),
#                               and make check again in an ASan+UBSan, a
#                               TSan and a Clang build (_build-asan,
#                               _build-tsan, _build-clang), and the script
#                               tests in an in-tree build of a copy of
#                               the tree (_build-intree)
#
# Ends the test run with one line "N passed, N failed" totalled over every
# test log of every run.  Set DMAEMU_NO_APT=1 to skip the package step.
set -euo pipefail

cd "$(dirname "$0")/.."
top=$(pwd)
build="$top/_build"
mode=${1:-tour}

packages=(
	build-essential autoconf automake libtool pkgconf autoconf-archive
	check libsubunit-dev libbsd-dev libdw-dev valgrind clang libclang-rt-14-dev
	clang-format coccinelle libpng-dev
	python3 libxml2-utils
	groff-base man-db
)

install_packages() {
	[ "${DMAEMU_NO_APT:-0}" = 1 ] && return 0
	local missing=() p
	for p in "${packages[@]}"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
			grep -q 'install ok installed' || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	local sudo=
	[ "$(id -u)" -eq 0 ] || sudo=sudo
	echo "quickstart: installing ${missing[*]}"
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
		--no-install-recommends "${missing[@]}" >/dev/null
}

build_tree() {
	[ -x "$top/configure" ] || (cd "$top" && autoreconf -fi)
	mkdir -p "$build"
	cd "$build"
	[ -f Makefile ] || "$top/configure" --enable-valgrind --enable-werror -q
	if ! make -j"$(nproc)" >build.log 2>&1; then
		tail -n 40 build.log
		echo "quickstart: the build failed (whole log: $build/build.log)" >&2
		return 1
	fi
}

# The test command's stages, in two lanes that share the jobs of one
# `make -j` (its jobserver), so that one lane's long last test leaves no
# core idle:
#
#   tree     in _build, one after the other (they share its test logs):
#            make check; the compiled suites, the examples and the labs
#            under Memcheck, Helgrind and DRD
#   builds   make check in an ASan+UBSan, a TSan and a Clang build
#            (_build-asan, _build-tsan, _build-clang), without the tests
#            that run in the plain build only (make print-rebuild-tests);
#            then the script tests in an in-tree build of a copy of the
#            tree (_build-intree)
#
# Each stage leaves a line "NAME|PASSED|FAILED|SKIPPED|STATUS|SECONDS" in
# $results; the totals are summed from them at the end.
results="$build/stages"

# stage NAME COMMAND...: run COMMAND (a make check) in the current build
# tree, with its old test results removed first; record what its .trs
# files say, make's status and the time it took.
stage() {
	local name=$1 st=0 t0 counts
	shift
	t0=$(date +%s)
	find . \( -name '*.trs' -o -name '*.time' \) -delete
	"$@" || st=$?
	counts=$(find . -name '*.trs' -exec cat {} + 2>/dev/null | awk '
		/^:test-result: (PASS|XFAIL)/ { p++ }
		/^:test-result: (FAIL|XPASS|ERROR)/ { f++ }
		/^:test-result: SKIP/ { s++ }
		END { printf "%d|%d|%d\n", p, f, s }')
	echo "$name|$counts|$st|$(($(date +%s) - t0))" >>"$results/$lane"
	# Each test's "WALL CPU NAME" (tests/runner/timed-driver.sh): the
	# stage's CPU seconds and its slowest tests, kept for the end.
	find . -name '*.time' -exec cat {} + 2>/dev/null | sort -rn >"$results/times-$name"
	awk -v stage="$name" '
		{ cpu += $2 }
		NR <= 5 { slow = slow sprintf("%s%s %.0f s", NR > 1 ? ", " : "", $3, $1) }
		END { printf "quickstart: %s: %.0f CPU-s in the tests; slowest: %s\n", stage, cpu, slow }' \
		"$results/times-$name" >>"$results/slowest"
	# What failed, by name, with the failing lines of its log: kept for
	# the end of the run, where a CI log's tail shows it.
	find . -name '*.trs' -exec grep -l -E '^:test-result: (FAIL|XPASS|ERROR)' {} + 2>/dev/null |
		sort | while read -r trs; do
		echo "quickstart: $name: FAILED ${trs%.trs}"
		grep -E '^(FAIL|ERROR|XPASS|not ok)|:[0-9]+:[EF]:' "${trs%.trs}.log" 2>/dev/null |
			head -n 8 | sed 's/^/    /'
	done >>"$results/failures" || true
	echo "quickstart: $name: ${counts//|/ } (status $st, $(($(date +%s) - t0)) s)"
}

# other_build NAME CONFIGURE-ARGUMENTS...: make check in another build
# tree, _build-NAME, of every test but those that run in the plain build
# only (make print-rebuild-tests).
other_build() {
	local dir="$top/_build-$1" name=$1
	shift
	mkdir -p "$dir"
	cd "$dir"
	[ -f Makefile ] || "$top/configure" --enable-werror -q "$@"
	stage "$name make check" make check \
		TESTS="$(make -s print-rebuild-tests)"
}

# lane NAME: one lane's stages, one after the other; its make calls
# take their jobs from the jobserver of the make that started the lane.
run_lane() {
	lane=$1
	: >"$results/$lane"
	case $lane in
	tree)
		cd "$build"
		stage "make check" make check
		# Memcheck runs every suite; Helgrind and DRD those that
		# start threads (Makefile.am, print-valgrind-thread-tests).
		stage "valgrind memcheck" make check-valgrind-memcheck \
			TESTS="$(make -s print-valgrind-tests)"
		local tool
		for tool in helgrind drd; do
			stage "valgrind $tool" make check-valgrind-$tool \
				TESTS="$(make -s print-valgrind-thread-tests)"
		done
		;;
	builds)
		other_build asan --enable-sanitizer=address
		other_build tsan --enable-sanitizer=thread
		# DWARF 4: Valgrind 3.19 cannot read all of Clang 14's DWARF 5.
		other_build clang CC=clang CFLAGS="-g -O2 -gdwarf-4"
		intree_build
		;;
	esac
}

# make check the way most people build an autotools project: configure
# and make in the source tree itself.  In a copy of the tree
# (_build-intree/src; the tree itself keeps its out-of-tree builds), with
# the tests whose verdict depends on where the build is: the script tests
# that read the tree (make print-intree-tests); the Check suites are the
# same programs in any build.
intree_build() {
	local dir="$top/_build-intree"
	rm -rf "$dir"
	mkdir -p "$dir/src"
	tar -C "$top" --exclude='./_build*' --exclude=./.git -cf - . |
		tar -C "$dir/src" -xf -
	cd "$dir/src"
	./configure --enable-werror -q
	stage "in-tree make check" make check \
		TESTS="$(make -s print-intree-tests)"
}

run_tests() {
	local t0 status=0 name p f s st secs passed=0 failed=0 skipped=0
	t0=$(date +%s)
	rm -rf "$results"
	mkdir -p "$results"
	# The builds lane speaks into a log of its own, shown when it ends.
	printf 'all: tree builds\ntree:\n\t+@%s lane tree\nbuilds:\n\t+@%s lane builds >%s 2>&1\n' \
		"$top/tools/quickstart.sh" "$top/tools/quickstart.sh" \
		"$results/builds.log" |
		make -k -j"$(nproc)" -f - || status=1
	cat "$results/builds.log"
	echo
	for lane in tree builds; do
		[ -s "$results/$lane" ] || {
			echo "quickstart: the $lane lane recorded nothing"
			status=1
		}
		while IFS='|' read -r name p f s st secs; do
			printf 'quickstart: %s: %d passed, %d failed, %d skipped (%d s)\n' \
				"$name" "$p" "$f" "$s" "$secs"
			passed=$((passed + p))
			failed=$((failed + f))
			skipped=$((skipped + s))
			[ "$st" = 0 ] || status=1
		done <"$results/$lane"
	done
	[ "$failed" = 0 ] || status=1
	[ -s "$results/slowest" ] && cat "$results/slowest"
	[ -s "$results/failures" ] && cat "$results/failures"
	echo "quickstart: the test command took $(($(date +%s) - t0)) s"
	echo "$passed passed, $failed failed, $skipped skipped"
	return $status
}

case "$mode" in
tour)
	install_packages
	build_tree
	make -j"$(nproc)" examples/copy-engine/copy-engine >>build.log 2>&1 ||
		true # the tour says when a build has no instrumented examples
	"$top/tools/tour.sh" "$build"
	;;
test)
	install_packages
	build_tree
	run_tests
	;;
lane)
	# A lane of run_tests(), started by its make.
	run_lane "$2"
	;;
*)
	echo "usage: $0 tour|test" >&2
	exit 2
	;;
esac
