#!/bin/sh
# examples-612.sh - the reference drivers of examples/ at the Linux 6.12
# API level: they use only calls that both levels have, so each is built
# again with dmaemu-cc --dmaemu-kernel=6.12 and run on every profile on a
# kernel=6.12 machine (DMAEMU_OPTIONS), where it must get its data right
# and make no report, as examples.sh runs them at 4.14; the NAPI driver
# and the checksum engine also behind swiotlb=force and iommu=1 on arm64.
# A program built at 6.12 on a 4.14 machine is refused (the build is at
# 6.12 indeed), and the list of examples is examples/local.mk's.
. "$top_srcdir/tests/runner/tap.sh"

[ -n "$SANITIZER" ] &&
	skip_all "a --enable-sanitizer=$SANITIZER build cannot run instrumented drivers"
[ -x "$top_builddir/examples/copy-engine/copy-engine" ] ||
	skip_all "examples not built (the compiler cannot instrument driver code)"

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
unset DMAEMU_OPTIONS
ex=$top_srcdir/examples
cc="$top_builddir/tools/dmaemu-cc --dmaemu-kernel=6.12"

# Each example as examples/local.mk builds it: NAME and its sources.
names="copy-engine nic nic-napi camera checksum legacy display first-device"
srcs() {
	case $1 in
	copy-engine) echo "$ex/copy-engine/main.c $ex/copy-engine/ce-driver.c" ;;
	nic) echo "$ex/nic/main.c $ex/nic/nic-driver.c" ;;
	nic-napi) echo "$ex/nic-napi/main.c $ex/nic-napi/nic-napi-driver.c" ;;
	camera) echo "$ex/camera/main.c $ex/camera/cam-driver.c" ;;
	checksum) echo "-I$ex/copy-engine $ex/checksum/main.c $ex/checksum/cs-driver.c $ex/copy-engine/ce-driver.c" ;;
	legacy) echo "$ex/legacy/main.c $ex/legacy/legacy-driver.c" ;;
	display) echo "$ex/display/main.c $ex/display/disp-driver.c" ;;
	first-device) echo "$ex/first-device/main.c $ex/first-device/driver.c $tmp/inverter.o" ;;
	esac
}
mk=$(sed -n '/^example_progs =/,/[^\\]$/p' "$ex/local.mk" |
	tr -s ' \\\t\n' '\n' | sed -n 's|^examples/[^/]*/||p' | sort | tr '\n' ' ')
check "every example of examples/local.mk is built here ($mk)" \
	test "$mk" = "$(echo $names | tr ' ' '\n' | sort | tr '\n' ' ')"

# The device model of first-device is built as models are, uninstrumented.
$top_builddir/tools/dmaemu-cc --dmaemu-kernel=6.12 --dmaemu-uninstrumented \
	-g -O1 -c -o "$tmp/inverter.o" "$ex/first-device/inverter.c" \
	>"$tmp/cc.log" 2>&1 || sed 's/^/# /' "$tmp/cc.log"
for n in $names; do
	# Word splitting of $cc and of the sources is intended.
	# shellcheck disable=SC2046,SC2086
	if $cc ${WARN_CFLAGS:-} -Werror -g -O1 -o "$tmp/$n" $(srcs $n) \
		-ldmaemu-devices >"$tmp/cc.log" 2>&1; then
		ok "$n: builds at Linux 6.12"
	else
		not_ok "$n: builds at Linux 6.12"
		sed 's/^/# /' "$tmp/cc.log" | head -20
	fi
done

# run NAME ARGS...: the 6.12 build of NAME on a kernel=6.12 machine.
run() {
	n=$1
	shift
	what="$n $(echo "$*" | sed "s|$tmp/||")${extra:+, $extra}"
	if [ -x "$tmp/$n" ] &&
		DMAEMU_OPTIONS=kernel=6.12${extra:+:$extra} "$tmp/$n" "$@" \
			>"$tmp/out" 2>&1; then
		ok "$what at 6.12: data right, no report"
	else
		not_ok "$what at 6.12: data right, no report"
		sed 's/^/# /' "$tmp/out" | tail -30
	fi
}
extra=
for p in arm arm64 x86; do
	for n in copy-engine nic nic-napi camera checksum legacy first-device; do
		run $n $p
	done
	run legacy $p 24
	run display $p "$tmp/frame.png"
done
for extra in swiotlb=force iommu=1; do
	run nic-napi arm64
	run checksum arm64
done
extra=

# The builds are at 6.12: on a machine of the default level, refused.
"$tmp/copy-engine" arm64 >"$tmp/out" 2>&1
st=$?
check "a 6.12 build on a kernel=4.14 machine is refused (exit $st)" \
	sh -c "[ $st != 0 ] && grep -q 'built with the Linux 6.12 kernel headers' '$tmp/out'"
done_testing
