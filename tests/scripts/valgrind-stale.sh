#!/bin/sh
# valgrind-stale.sh - under Memcheck, the bytes of the CPU's copy that a
# device changed and the CPU has not re-read are undefined (docs/valgrind.md).
# tests/scripts/valgrind-rx.c reads a received packet without
# dma_sync_single_for_cpu(); built uninstrumented (dmaemu-cc
# --dmaemu-uninstrumented) its branch on the stale byte is a Memcheck error
# at the line marked STALE-USE; with the sync (-DFIXED) there is none; on
# x86 (snooping devices) the CPU's copy is the device's data and there is
# none either; built instrumented, the cache model reports the stale read
# and Memcheck stays quiet.  With --track-origins=yes the error's origin is
# the device's write.
. "$top_srcdir/tests/runner/tap.sh"

[ -n "$VALGRIND" ] && "$VALGRIND" --version >/dev/null 2>&1 ||
	skip_all "valgrind not found"
[ -z "$SANITIZER" ] ||
	skip_all "Valgrind cannot run a --enable-sanitizer=$SANITIZER build"

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
src="$top_srcdir/tests/scripts/valgrind-rx.c"
line=$(grep -n '/\* STALE-USE \*/' "$src" | cut -d: -f1)
check "the marker line is found" test -n "$line"

build() { # build NAME [dmaemu-cc arguments...]
	name=$1
	shift
	# DWARF 4: Valgrind 3.19 cannot read all of Clang 14's DWARF 5.
	if "$top_builddir/tools/dmaemu-cc" "$@" -gdwarf-4 -O0 -o "$tmp/$name" \
		"$src" >"$tmp/$name.build" 2>&1; then
		ok "$name builds"
	else
		not_ok "$name builds"
		sed 's/^/# /' "$tmp/$name.build"
	fi
}

# memcheck NAME PROFILE: run under Memcheck; the status is Valgrind's.
memcheck() {
	"$VALGRIND" --tool=memcheck --error-exitcode=1 --num-callers=30 \
		--suppressions="$top_srcdir/tests/valgrind.supp" \
		--log-file="$tmp/$1-$2.vg" "$tmp/$1" "$2" \
		>"$tmp/$1-$2.out" 2>"$tmp/$1-$2.err"
}

show() { # show FILE...: the files as TAP comments
	for f in "$@"; do
		[ -f "$f" ] && sed 's/^/# /' "$f"
	done
}

# The first stack frame of the first error is the program's marked line.
first_frame() {
	sed -n '/depends on uninitialised value/{n;p;q}' "$1"
}

build buggy --dmaemu-uninstrumented
build fixed --dmaemu-uninstrumented -DFIXED

# Valgrind 3.19 cannot read the DWARF 5 that Clang 14 writes by default:
# in such a build (the library itself compiled that way) there are no
# source lines to check.
memcheck buggy arm64
if grep -qE 'unhandled dwarf2|debuginfo reader' "$tmp/buggy-arm64.vg"; then
	skip "this Valgrind cannot read the debug information of this build" \
		"($(grep -m1 -E 'unhandled dwarf2|debuginfo reader' \
			"$tmp/buggy-arm64.vg"))"
	done_testing
	exit 0
fi

for p in arm64 arm; do
	if memcheck buggy $p; then
		not_ok "uninstrumented, $p: Memcheck reports the stale read"
		show "$tmp/buggy-$p.vg"
	else
		ok "uninstrumented, $p: Memcheck reports the stale read"
	fi
	case $(first_frame "$tmp/buggy-$p.vg") in
	*"main ("*"valgrind-rx.c:$line)")
		ok "uninstrumented, $p: the error is at valgrind-rx.c:$line" ;;
	*)
		not_ok "uninstrumented, $p: the error is at valgrind-rx.c:$line"
		show "$tmp/buggy-$p.vg" ;;
	esac
	check "uninstrumented, $p: exactly one Memcheck error" \
		grep -q 'ERROR SUMMARY: 1 errors from 1 contexts' \
		"$tmp/buggy-$p.vg"
	check "uninstrumented, $p: the stale data was read" \
		grep -qx 'received nothing' "$tmp/buggy-$p.out"
	# Instrumented code would get the model's report here.
	check "uninstrumented, $p: the model saw no access" \
		test "$(grep -c '^SUMMARY: dmaemu: ' "$tmp/buggy-$p.err")" = 0

	if memcheck fixed $p; then
		ok "uninstrumented, $p: no Memcheck error with the sync"
	else
		not_ok "uninstrumented, $p: no Memcheck error with the sync"
		show "$tmp/fixed-$p.vg"
	fi
	check "uninstrumented, $p: the sync gives the packet" \
		grep -qx 'received: hello' "$tmp/fixed-$p.out"
done

# With --track-origins=yes, the origin is the device's write.
wline=$(grep -n 'dmaemu_dma_write(nic' "$src" | cut -d: -f1)
"$VALGRIND" --tool=memcheck --track-origins=yes --num-callers=30 \
	--log-file="$tmp/origin.vg" "$tmp/buggy" arm64 >/dev/null 2>&1
if grep -q 'created by a client request' "$tmp/origin.vg" &&
	sed -n '/created by a client request/,/^==[0-9]*== *$/p' \
		"$tmp/origin.vg" | grep -q "main (.*valgrind-rx.c:$wline)"; then
	ok "uninstrumented: the origin is the device write at line $wline"
else
	not_ok "uninstrumented: the origin is the device write at line $wline"
	show "$tmp/origin.vg"
fi

# Snooping devices update the CPU's copy: nothing is stale on x86.
if memcheck buggy x86; then
	ok "uninstrumented, x86: no Memcheck error (devices snoop)"
else
	not_ok "uninstrumented, x86: no Memcheck error (devices snoop)"
	show "$tmp/buggy-x86.vg"
fi
check "uninstrumented, x86: the packet without the sync" \
	grep -qx 'received: hello' "$tmp/buggy-x86.out"

# Instrumented: the model reports the read and redefines the bytes read.
if [ -z "$(CC=$CC "$top_builddir/tools/dmaemu-cc" --dmaemu-show -c x.c |
	grep DMAEMU_INSTRUMENTED)" ]; then
	skip "instrumented: this build has no instrumentation flags"
else
	build instrumented
	if memcheck instrumented arm64; then
		ok "instrumented, arm64: no Memcheck error"
	else
		not_ok "instrumented, arm64: no Memcheck error"
		show "$tmp/instrumented-arm64.vg"
	fi
	check "instrumented, arm64: the model reports the stale read" \
		test "$(grep -c '^SUMMARY: dmaemu: stale-cpu-read ' \
			"$tmp/instrumented-arm64.err")" = 1
fi

# The rx-stale lab's README: its buggy variant built without the
# instrumentation gets a Memcheck error in ping(), at the memcmp() of the
# frame (README's line: the one with "!memcmp(got, want"), and its fixed
# variant none.
lab="$top_srcdir/examples/labs"
l=$(grep -n '!memcmp(got, want' "$lab/rx-stale/lab.c" | cut -d: -f1)
for v in buggy fixed; do
	def=
	[ $v = fixed ] && def=-DLAB_FIXED
	# shellcheck disable=SC2086
	if ! "$top_builddir/tools/dmaemu-cc" --dmaemu-uninstrumented $def \
		-gdwarf-4 -O1 -I"$lab" -o "$tmp/rx-stale-$v" \
		"$lab/rx-stale/lab.c" "$lab/lab.c" -ldmaemu-devices \
		>"$tmp/rx-stale-$v.build" 2>&1; then
		not_ok "rx-stale $v, uninstrumented, builds"
		show "$tmp/rx-stale-$v.build"
		continue
	fi
	DMAEMU_LAB_COLOR=never "$VALGRIND" --tool=memcheck --error-exitcode=1 \
		--suppressions="$top_srcdir/tests/valgrind.supp" \
		--log-file="$tmp/rx-stale-$v.vg" "$tmp/rx-stale-$v" \
		>"$tmp/rx-stale-$v.out" 2>&1
	st=$?
	if [ $v = buggy ]; then
		check "rx-stale buggy, uninstrumented: Memcheck flags ping() at lab.c:$l" \
			grep -qE "(at|by) 0x[0-9A-F]+: ping \\((.*/)?lab.c:$l\\)" "$tmp/rx-stale-$v.vg"
	else
		check "rx-stale fixed, uninstrumented: no Memcheck error" test "$st" = 0
	fi
done
done_testing
