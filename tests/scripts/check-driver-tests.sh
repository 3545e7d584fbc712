#!/bin/sh
# check-driver-tests.sh - the example Check suite of a driver
# (examples/check-driver-tests/) builds and passes against an installed
# dmaemu, the way a user builds it: dmaemu is installed into a temporary
# directory (make install DESTDIR=...), and the example's own Makefile
# finds it through pkg-config (PKG_CONFIG_PATH and PKG_CONFIG_SYSROOT_DIR,
# the variables for a staged install) and the installed dmaemu-cc.  The
# test that fails on purpose (RX_DEMO_FAILURE=1) must fail alone, with the
# report's text, in Check's fork and no-fork modes.
. "$top_srcdir/tests/runner/tap.sh"

[ -n "$SANITIZER" ] &&
	skip_all "a --enable-sanitizer=$SANITIZER build cannot run instrumented drivers"
[ -x "$top_builddir/examples/copy-engine/copy-engine" ] ||
	skip_all "examples not built (the compiler cannot instrument driver code)"
command -v pkg-config >/dev/null 2>&1 || skip_all "pkg-config not found"
pkg-config --exists check || skip_all "Check has no pkg-config file"

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
stage=$tmp/stage

# MAKEFLAGS of the make running the tests would hand this one its jobs.
if env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL ${MAKE:-make} -C "$top_builddir" \
	install DESTDIR="$stage" >"$tmp/install.log" 2>&1; then
	ok "make install DESTDIR=<tmp>"
else
	not_ok "make install DESTDIR=<tmp>"
	tail -20 "$tmp/install.log" | sed 's/^/# /'
	done_testing
	exit
fi
pcdir=$(dirname "$(find "$stage" -name dmaemu.pc | head -1)")
cc_wrapper=$(find "$stage" -name dmaemu-cc -type f | head -1)
libdir=$(dirname "$(find "$stage" -name 'libdmaemu.so' | head -1)")
check "the install has dmaemu.pc, dmaemu-cc, libdmaemu.so and <dmaemu/check.h>" \
	test -f "$pcdir/dmaemu.pc" -a -x "$cc_wrapper" -a -d "$libdir" -a \
	-n "$(find "$stage" -path '*/include/dmaemu/check.h')"

# Installed with DESTDIR, dmaemu-cc finds its headers and library from
# where it is, not from the prefix configure gave.
check "the staged dmaemu-cc uses the staged headers" \
	sh -c "'$cc_wrapper' --dmaemu-show -c x.c | grep -q -- '-I$stage/[^ ]*/include/dmaemu/kernel'"

mkdir "$tmp/ex"
cp "$top_srcdir"/examples/check-driver-tests/Makefile \
	"$top_srcdir"/examples/check-driver-tests/*.c \
	"$top_srcdir"/examples/check-driver-tests/*.h "$tmp/ex/" || exit 1
chmod -R u+w "$tmp/ex"

PKG_CONFIG_PATH=$pcdir
PKG_CONFIG_SYSROOT_DIR=$stage
LD_LIBRARY_PATH=$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PKG_CONFIG_PATH PKG_CONFIG_SYSROOT_DIR LD_LIBRARY_PATH
unset DMAEMU_OPTIONS CK_FORK CK_RUN_CASE CK_RUN_SUITE CK_VERBOSITY

if env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL ${MAKE:-make} -C "$tmp/ex" \
	DMAEMU_CC="$cc_wrapper" CC="${CC:-cc}" test-rx >"$tmp/build.log" 2>&1; then
	ok "the example builds with pkg-config and dmaemu-cc"
else
	not_ok "the example builds with pkg-config and dmaemu-cc"
	sed 's/^/# /' "$tmp/build.log"
	done_testing
	exit
fi
# Nothing of the source or build tree was used.  The staged install's
# paths are left out first: they may lie inside the source tree (make
# distcheck installs into a folder of it).
src=$(cd "$top_srcdir" && pwd -P)
build=$(cd "$top_builddir" && pwd -P)
stage_p=$(cd "$stage" && pwd -P)
sed -e "s|$stage_p[^ ]*||g" -e "s|$stage[^ ]*||g" "$tmp/build.log" \
	>"$tmp/build-rest.log"
if grep -q -e "$src" -e "$build" "$tmp/build-rest.log"; then
	not_ok "the build uses the install only"
	grep -e "$src" -e "$build" "$tmp/build-rest.log" | sed 's/^/# /'
else
	ok "the build uses the install only"
fi
if command -v ldd >/dev/null 2>&1; then
	check "test-rx loads the installed libdmaemu" \
		sh -c "ldd '$tmp/ex/test-rx' | grep 'libdmaemu\\.so.*$stage' >/dev/null"
fi

for fork in yes no; do
	CK_FORK=$fork "$tmp/ex/test-rx" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 0 ] &&
		grep -q '^100%: Checks: 6, Failures: 0, Errors: 0' "$tmp/out"; then
		ok "CK_FORK=$fork: the 6 tests pass"
	else
		not_ok "CK_FORK=$fork: the 6 tests pass (exit $rc)"
		sed 's/^/# /' "$tmp/out"
	fi
	# The expected reports were printed (the stale read; the 3 leaks of
	# one ring, made at one driver line, as one report and the exit
	# summary's count of them).
	check "CK_FORK=$fork: the asserted reports were printed" \
		test "$(grep -c '^SUMMARY: dmaemu: stale-cpu-read' "$tmp/err")" = 1 -a \
		"$(grep -c '^SUMMARY: dmaemu: leaked-mapping' "$tmp/err")" = 1
	check "CK_FORK=$fork: the exit summary counts the 3 leaks" \
		grep -Eq 'dmaemu: +3 leaked-mapping at 1 driver line, .*: 1 printed, 2 folded' "$tmp/err"

	RX_DEMO_FAILURE=1 CK_FORK=$fork "$tmp/ex/test-rx" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -ne 0 ] &&
		grep -q '^85%: Checks: 7, Failures: 1, Errors: 0' "$tmp/out" &&
		grep -q ':F:arm64:test_demo_failure:.*dmaemu reported an error' \
			"$tmp/out" &&
		grep -q '^==[0-9]*==ERROR: dmaemu: cpu-access-device-owned: read of 64 bytes' \
			"$tmp/out" &&
		grep -q '^SUMMARY: dmaemu: cpu-access-device-owned' "$tmp/out"; then
		ok "CK_FORK=$fork: test_demo_failure alone fails, quoting the report"
	else
		not_ok "CK_FORK=$fork: test_demo_failure alone fails, quoting the report (exit $rc)"
		sed 's/^/# /' "$tmp/out"
	fi
done
done_testing
