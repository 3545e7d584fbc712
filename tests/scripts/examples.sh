#!/bin/sh
# examples.sh - the reference drivers of examples/, built with dmaemu-cc
# (instrumented) like out-of-tree code, run on every profile, with
# sched=threads and sched=lockstep: each must get its data right and make
# no report; the NAPI network driver and the checksum engine's shared
# packet (DMA_ATTR_SKIP_CPU_SYNC) also with swiotlb=force and iommu=1.
# The legacy device runs with its 32-bit and 24-bit masks;
# the display saves its last frame as a PNG file.
. "$top_srcdir/tests/runner/tap.sh"

[ -n "$SANITIZER" ] &&
	skip_all "a --enable-sanitizer=$SANITIZER build cannot run instrumented drivers"
[ -x "$top_builddir/examples/copy-engine/copy-engine" ] ||
	skip_all "examples not built (the compiler cannot instrument driver code)"

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
# run NAME ARGS...: the example NAME with ARGS, under $sched.
run() {
	ex=$1
	shift
	what="$ex $(echo "$*" | sed "s|$tmp/||"), sched=$sched${extra:+, $extra}"
	if DMAEMU_OPTIONS=$opts "$top_builddir/examples/$ex/$ex" "$@" \
		>"$tmp/out" 2>&1; then
		ok "$what: data right, no report"
	else
		not_ok "$what: data right, no report"
		sed 's/^/# /' "$tmp/out"
	fi
}
for sched in threads lockstep; do
	opts=
	[ $sched = lockstep ] && opts=sched=lockstep:seed=7
	for p in arm arm64 x86; do
		for ex in copy-engine nic nic-napi camera checksum legacy; do
			run $ex $p
		done
		run legacy $p 24
		rm -f "$tmp/frame.png"
		run display $p "$tmp/frame.png"
	done
	# The NAPI driver and the checksum engine through the bounce buffers
	# and the IOMMU too.
	base=$opts
	for extra in swiotlb=force iommu=1; do
		opts=${base:+$base:}$extra
		run nic-napi arm64
		run checksum arm64
	done
	opts=${base:+$base:}swiotlb=force
	extra=swiotlb=force
	run checksum x86
	extra=
	opts=$base
done
done_testing
