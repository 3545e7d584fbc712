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

# Add the results of the .trs files of one run to the totals.
passed=0
failed=0
skipped=0
tally() {
	local counts p f s
	counts=$(find . -name '*.trs' -exec cat {} + 2>/dev/null | awk '
		/^:test-result: (PASS|XFAIL)/ { p++ }
		/^:test-result: (FAIL|XPASS|ERROR)/ { f++ }
		/^:test-result: SKIP/ { s++ }
		END { printf "%d %d %d\n", p, f, s }')
	read -r p f s <<<"$counts"
	passed=$((passed + p))
	failed=$((failed + f))
	skipped=$((skipped + s))
	echo "quickstart: $1: $p passed, $f failed, $s skipped"
}

# make check in a sanitizer build of its own: $1 names the run and the
# build directory (_build-$1), $2 is the --enable-sanitizer value.
# run_build NAME CONFIGURE-ARGUMENTS...: make check in another build tree
# (_build-NAME), counted on its own.
run_build() {
	local dir="$top/_build-$1" name=$1 status=0
	shift
	mkdir -p "$dir"
	cd "$dir"
	[ -f Makefile ] || "$top/configure" --enable-werror -q "$@"
	find . -name '*.trs' -delete
	make -j"$(nproc)" check || status=1
	tally "$name make check"
	cd "$build"
	return $status
}

# make check the way most people build an autotools project: configure
# and make in the source tree itself.  In a copy of the tree
# (_build-intree/src; the tree itself keeps its out-of-tree builds), with
# the tests whose verdict depends on where the build is: the script tests
# that read the tree (make print-intree-tests); the Check suites are the
# same programs in any build.
run_intree() {
	local dir="$top/_build-intree" status=0
	rm -rf "$dir"
	mkdir -p "$dir/src"
	tar -C "$top" --exclude='./_build*' --exclude=./.git -cf - . |
		tar -C "$dir/src" -xf -
	cd "$dir/src"
	./configure --enable-werror -q
	if make -j"$(nproc)" >build.log 2>&1; then
		make -j"$(nproc)" check TESTS="$(make -s print-intree-tests)" ||
			status=1
	else
		tail -n 40 build.log
		status=1
	fi
	tally "in-tree make check"
	cd "$build"
	return $status
}

run_tests() {
	local status=0 tool vg_tests
	make -j"$(nproc)" check || status=1
	tally "make check"
	vg_tests=$(make -s print-valgrind-tests)
	for tool in memcheck helgrind drd; do
		find . -name '*.trs' -delete
		make -j"$(nproc)" check-valgrind-$tool TESTS="$vg_tests" ||
			status=1
		tally "valgrind $tool"
	done
	run_build asan --enable-sanitizer=address || status=1
	run_build tsan --enable-sanitizer=thread || status=1
	run_build clang CC=clang || status=1
	run_intree || status=1
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
*)
	echo "usage: $0 tour|test" >&2
	exit 2
	;;
esac
