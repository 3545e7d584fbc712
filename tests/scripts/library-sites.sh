#!/bin/sh
# library-sites.sh - the library's own work is never blamed on a driver,
# nor a driver's bug on the library.  Every example (examples/*/), the
# polling drivers of tests/scripts/poll-prog.c and both variants of every
# lab (examples/labs/*/) run on every profile (arm, arm64, x86) through
# every backend (direct, swiotlb=force, iommu=1):
#
#   - no report, of any program, may name a site inside the library
#     (lib/, devices/, cachesim/, or an address in libdmaemu*.so): a
#     bounce copy, a device model's data path or a routed mem* function
#     that the library calls is not the driver's access;
#   - the examples, the polling drivers and the labs' fixed variants are
#     correct drivers: they make no report at all.
#
# Whether the data comes out right is examples.sh's and labs.sh's to
# check, on the backend each program is written for: some check what
# their backend does (the legacy example that its buffers bounce), and a
# buffer shared with DMA_ATTR_SKIP_CPU_SYNC is not copied into a second
# bounce buffer under swiotlb=force, as in Linux.  The buggy variants' own
# reports are labs.sh's to check; here only their sites count.  One run per
# configuration, with the programs' own scheduling.
. "$top_srcdir/tests/runner/tap.sh"

[ -n "$SANITIZER" ] &&
	skip_all "a --enable-sanitizer=$SANITIZER build cannot run instrumented drivers"
[ -x "$top_builddir/examples/copy-engine/copy-engine" ] ||
	skip_all "examples not built (the compiler has no kernel-address-sanitizer)"

cc="$top_builddir/tools/dmaemu-cc"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
profiles="arm arm64 x86"
backends="direct swiotlb=force iommu=1"

# A site inside the library: a source file of lib/, devices/ or cachesim/
# (as the compiler named it: relative to the build folder or absolute), or
# an address in one of the library's shared objects (no debug info).
libsite='[ /(](lib|devices|cachesim)/([a-z_-]+/)*[a-z0-9_-]+\.[ch]:[0-9]|libdmaemu[a-z-]*\.so'

# library_site OUT: the SUMMARY lines of OUT that name the library.
library_site() {
	grep '^SUMMARY: dmaemu: ' "$1" | grep -E -- "$libsite"
}

# run WHAT CORRECT PROGRAM ARGS...: PROGRAM on each backend.  Every run:
# no report inside the library; CORRECT=yes: no report at all.
run() {
	what=$1 correct=$2
	shift 2
	for b in $backends; do
		opts=
		[ "$b" = direct ] || opts=$b
		desc="$what, $b"
		DMAEMU_OPTIONS=$opts "$@" >"$tmp/out" 2>&1
		if library_site "$tmp/out" >"$tmp/lib"; then
			not_ok "$desc: a report inside the library"
			sed 's/^/# /' "$tmp/lib"
			grep -A12 'ERROR: dmaemu\|NOTE: dmaemu' "$tmp/out" |
				head -40 | sed 's/^/# /'
		elif [ "$correct" != yes ]; then
			ok "$desc: no report inside the library"
		elif grep -q '^SUMMARY: dmaemu: ' "$tmp/out"; then
			not_ok "$desc: a correct driver, no report"
			grep -A12 'ERROR: dmaemu\|NOTE: dmaemu' "$tmp/out" |
				head -40 | sed 's/^/# /'
		else
			ok "$desc: a correct driver, no report"
		fi
	done
}

# 1. The examples (as examples.sh runs them; the legacy device with its
#    24-bit mask too).
for p in $profiles; do
	for ex in copy-engine nic camera checksum legacy first-device; do
		run "example $ex on $p" yes "$top_builddir/examples/$ex/$ex" "$p"
	done
	run "example legacy 24 on $p" yes \
		"$top_builddir/examples/legacy/legacy" "$p" 24
	run "example display on $p" yes \
		"$top_builddir/examples/display/display" "$p" "$tmp/frame.png"
done

# 2. The polling drivers of valgrind-poll.sh: a page pool's receive pages
#    on the network card (DMA_BIDIRECTIONAL, DMA_ATTR_SKIP_CPU_SYNC, each
#    half synced for the card while the card owns the page: under
#    swiotlb=force, bounce copies of pages the device owns) and the copy
#    engine.
prog="$tmp/poll-prog"
if CC=$CC "$cc" -g -o "$prog" "$top_srcdir/tests/scripts/poll-prog.c" \
	-ldmaemu-devices -lpthread >"$prog.build" 2>&1; then
	for p in $profiles; do
		run "poll-prog nic on $p" yes "$prog" nic "$p"
		run "poll-prog ce on $p" yes "$prog" ce "$p"
	done
else
	not_ok "poll-prog.c builds"
	sed 's/^/# /' "$prog.build"
fi

# lab_conf DIR VAR: the setting VAR of the lab in DIR (read in a subshell).
lab_conf() {
	(
		eval "$2="
		# shellcheck disable=SC1090,SC1091
		. "$1/lab.conf" && eval "printf '%s' \"\$$2\""
	)
}

# 3. The labs, both variants, built as valgrind-examples.sh builds them.
labs=0
for dir in "$top_srcdir"/examples/labs/*/; do
	[ -f "$dir/lab.conf" ] || continue
	lab=$(basename "$dir")
	[ "$(lab_conf "$dir" kind)" = script ] && continue
	libs=$(lab_conf "$dir" libs)
	labs=$((labs + 1))
	for variant in buggy fixed; do
		flags=
		correct=no
		if [ $variant = fixed ]; then
			flags=-DLAB_FIXED
			correct=yes
		fi
		prog="$tmp/$lab-$variant"
		# shellcheck disable=SC2086
		if ! CC=$CC "$cc" -g $flags -I"$top_srcdir/examples/labs" \
			-o "$prog" "$dir"/*.c "$top_srcdir/examples/labs/lab.c" \
			-ldmaemu-devices $libs >"$prog.build" 2>&1; then
			not_ok "lab $lab ($variant) builds"
			sed 's/^/# /' "$prog.build"
			continue
		fi
		for p in $profiles; do
			run "lab $lab ($variant) on $p" $correct "$prog" \
				--profile "$p"
		done
	done
done
[ $labs -gt 0 ] || not_ok "no labs found in $top_srcdir/examples/labs"

# 4. The pattern finds a library site, as the report prints it.
printf 'SUMMARY: dmaemu: cpu-access-device-owned ../lib/dma/swiotlb.c:486 in bounce\n' >"$tmp/s"
check "a SUMMARY at lib/dma/swiotlb.c counts as inside the library" \
	sh -c "grep -Eq -- '$libsite' '$tmp/s'"
printf 'SUMMARY: dmaemu: cpu-access-device-owned ../examples/labs/bounce/lab.c:149 in main\n' >"$tmp/s"
check "a SUMMARY at examples/labs/bounce/lab.c does not" \
	sh -c "! grep -E -- '$libsite' '$tmp/s'"
done_testing
