#!/bin/sh
# report-driver-line.sh - the reports a device's own accesses make name the
# driver's lines (docs/checkers.md, "What a report names"):
# tests/scripts/report-driver-line-prog.c, built with dmaemu-cc -g, runs
# one bug per scenario on a DMA engine modelled with its own thread, and
# each report must name the lines of the program's "site: NAME" marker
# comments: the mapping unmapped 12 unmaps ago and its unmap (with the
# default unmap_history, and behind the IOMMU), "no live or recently
# unmapped mapping covers them" past a short history (no guess), the live
# mapping a 64-bit address cut to 32 bits aliases, the driver's register
# write that handed the device the address or made it raise an interrupt,
# the CPU's store a stale device read missed, the allocation of a
# bounce buffer that DMA_ATTR_SKIP_CPU_SYNC left unfilled, the allocation of a
# DMA_ATTR_NON_CONSISTENT buffer and of a leaked one.  The fixed twin makes
# no report.  Every report of every run has a SUMMARY line that names a
# driver's line, or the address the headline names first.
. "$top_srcdir/tests/runner/tap.sh"

[ -z "$SANITIZER" ] ||
	skip_all "dmaemu-cc cannot build instrumented driver code in this" \
		"--enable-sanitizer=$SANITIZER build"
cc="$(cd "$top_builddir" && pwd)/tools/dmaemu-cc"
[ -x "$cc" ] || skip_all "tools/dmaemu-cc not built"

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
# Built from a copy named drv.c: the reports name "drv.c:LINE", short
# enough that no report line is cut.
src="$top_srcdir/tests/scripts/report-driver-line-prog.c"
cp "$src" "$tmp/drv.c" || exit 1

# line NAME: the line of the marker comment "site: NAME".
line() {
	grep -n "/\* site: $1 \*/" "$src" | cut -d: -f1
}
for s in bell handler map unmap map_cut bell_cut alloc store store_map \
	request bell_irq leak map_over map_skip; do
	eval "l_$s=\$(line $s)"
	eval "v=\$l_$s"
	[ -n "$v" ] || { not_ok "the program has its marker $s"; done_testing; }
done
ok "the program has its markers"

if (cd "$tmp" && "$cc" -g drv.c -o prog) >"$tmp/cc.out" 2>&1; then
	ok "builds with dmaemu-cc -g"
else
	not_ok "builds with dmaemu-cc -g"
	sed 's/^/# /' "$tmp/cc.out"
	done_testing
	exit 1
fi

# run SCENARIO: its reports into $tmp/SCENARIO.err.
run() {
	env -u DMAEMU_OPTIONS "$tmp/prog" "$1" >"$tmp/$1.out" 2>"$tmp/$1.err"
	check "$1: runs" test $? -eq 0
}

# has SCENARIO TEXT: a report of the run has TEXT.
has() {
	if grep -qF -- "$2" "$tmp/$1.err"; then
		return 0
	fi
	diag "no '$2' in:"
	sed 's/^/    /' "$tmp/$1.err" | diag "$(cat)"
	return 1
}
hasnt() {
	! grep -qF -- "$2" "$tmp/$1.err"
}
# count SCENARIO KIND: reports of KIND.
count() {
	grep -c "^SUMMARY: dmaemu: $2 " "$tmp/$1.err"
}

map_made="made by dma_map_single_attrs() called from late drv.c:$l_map"
unmapped="which was unmapped since by dma_unmap_single_attrs() called from late drv.c:$l_unmap"
bell="the driver's last register write to eng0: 0x1 at offset 0xc, at start_dma drv.c:$l_bell"

# A device reads a buffer unmapped 12 unmaps ago (more than the 8 an older
# history kept): the report names that mapping and its unmap.
run late
check "late: one report" test "$(grep -c '^SUMMARY: ' "$tmp/late.err")" = 1
check "late: device-access-unmapped" test "$(count late device-access-unmapped)" = 1
check "late: names the mapping's map" has late "$map_made"
check "late: and its unmap" has late "$map_made, $unmapped"
check "late: SUMMARY names the map" has late \
	"SUMMARY: dmaemu: device-access-unmapped drv.c:$l_map in late"
check "late: guesses no neighbour" hasnt late "start of"

# A history of exactly the 12 unmaps still has the first.
run edge
check "edge: names the mapping and its unmap" has edge "$map_made, $unmapped"

# An overrun of a live mapping is no guess: named with no history at all.
run overrun
check "overrun: device-access-unmapped" test "$(count overrun device-access-unmapped)" = 1
check "overrun: names the mapping overrun" has overrun \
	"64 bytes past the end of the DMA_TO_DEVICE streaming mapping"
check "overrun: where it was made" has overrun \
	"made by dma_map_single_attrs() called from overrun drv.c:$l_map_over"
check "overrun: says nothing of a history" hasnt overrun "unmap_history"

# Past a history of 4: it says it does not know, and names the register
# write that handed the device the address.
run forgot
check "forgot: device-access-unmapped" test "$(count forgot device-access-unmapped)" = 1
check "forgot: says nothing remembered covers them" has forgot \
	"no live or recently unmapped mapping covers them (the device's last 4 unmaps and frees are remembered: option unmap_history)"
check "forgot: blames no live mapping" hasnt forgot " the end of "
check "forgot: nor the neighbour" hasnt forgot "start of"
check "forgot: names the register write" has forgot "$bell"
check "forgot: SUMMARY names the register write" has forgot \
	"SUMMARY: dmaemu: device-access-unmapped drv.c:$l_bell in start_dma"

run fixed
check "fixed: no report" test "$(grep -c '^SUMMARY: ' "$tmp/fixed.err")" = 0

# Behind the IOMMU: an iommu-fault naming the mapping, its unmap and the
# register write.
run iommu
check "iommu: iommu-fault" test "$(count iommu iommu-fault)" = 1
check "iommu: names the mapping and its unmap" has iommu \
	"$map_made, $unmapped"
check "iommu: names the register write" has iommu "$bell"
check "iommu: SUMMARY names the map" has iommu \
	"SUMMARY: dmaemu: iommu-fault drv.c:$l_map in late"

# A 64-bit bus address through the low register only.
run cut
check "cut: dma-fault" test "$(count cut dma-fault)" = 1
check "cut: names the live mapping it is cut from" has cut \
	"is the bus address 0x180000000 cut to its low 32 bits"
check "cut: where that mapping was made" has cut \
	"made by dma_map_single_attrs() called from cut drv.c:$l_map_cut"
check "cut: names the register write" has cut \
	"the driver's last register write to eng0: 0x1 at offset 0xc, at cut drv.c:$l_bell_cut"

run wrap
check "wrap: dma-fault" test "$(count wrap dma-fault)" = 1
check "wrap: SUMMARY names the register write" has wrap \
	"SUMMARY: dmaemu: dma-fault drv.c:$l_bell in start_dma"

# Behind swiotlb=force, the read of a bounce slot that a map with
# DMA_ATTR_SKIP_CPU_SYNC left unfilled; the fixed twin syncs it.
run skip-bounce
check "skip-bounce: one report" test "$(grep -c '^SUMMARY: ' "$tmp/skip-bounce.err")" = 1
check "skip-bounce: stale-device-read" test "$(count skip-bounce stale-device-read)" = 1
check "skip-bounce: says the bounce buffer was never filled" has skip-bounce \
	"64 of them lie in a swiotlb bounce buffer that nothing filled"
check "skip-bounce: SUMMARY names the map" has skip-bounce \
	"SUMMARY: dmaemu: stale-device-read drv.c:$l_map_skip in skip_bounce"
run skip-bounce-fixed
check "skip-bounce-fixed: no report" test "$(grep -c '^SUMMARY: ' "$tmp/skip-bounce-fixed.err")" = 0
# The bytes the device wrote into such a buffer are its own to read back.
run skip-bounce-write
check "skip-bounce-write: no report" test "$(grep -c '^SUMMARY: ' "$tmp/skip-bounce-write.err")" = 0

# Stale device reads: the CPU's store never cleaned, the allocation.
run stale
check "stale: stale-device-read" test "$(count stale stale-device-read)" = 1
check "stale: names the CPU's store" has stale \
	": at stale drv.c:$l_store"
check "stale: SUMMARY names the allocation" has stale \
	"SUMMARY: dmaemu: stale-device-read drv.c:$l_alloc in stale"
run stale-map
check "stale-map: stale-device-read" test "$(count stale-map stale-device-read)" = 1
check "stale-map: names the CPU's store" has stale-map \
	"the CPU's last store to line 0x80000000: at stale_map drv.c:$l_store_map"

run leak
check "leak: leaked-mapping" test "$(count leak leaked-mapping)" = 1
check "leak: SUMMARY names the allocation" has leak \
	"SUMMARY: dmaemu: leaked-mapping drv.c:$l_leak in leak"

run irq
check "irq: unhandled-irq" test "$(count irq unhandled-irq)" = 1
check "irq: names the handler and its request" has irq \
	"handler bad_handler drv.c:$l_handler, requested at unclaimed drv.c:$l_request"
check "irq: SUMMARY names the register write" has irq \
	"SUMMARY: dmaemu: unhandled-irq drv.c:$l_bell_irq in unclaimed"

# Every report of every run: its SUMMARY line names a driver's line, or
# the address its headline names first.
bad=$(awk '
	/^==[0-9]+==(ERROR|NOTE): dmaemu: / {
		head = $0
		first = ""
		if (match(head, /0x[0-9a-f]+/))
			first = substr(head, RSTART, RLENGTH)
	}
	/^SUMMARY: dmaemu: / {
		n++
		last = $NF
		if ($0 ~ /:[0-9]+ in [^ ]+$/)
			next
		if (last ~ /^0x[0-9a-f]+\+[0-9]+$/) {
			sub(/\+.*/, "", last)
			if (last == first)
				next
		}
		print FILENAME ": " $0 " (headline: " head ")"
	}
	END { if (!n) print "no report at all" }' "$tmp"/*.err)
if [ -z "$bad" ]; then
	ok "every SUMMARY names a driver's line or the headline's address"
else
	not_ok "every SUMMARY names a driver's line or the headline's address"
	diag "$bad"
fi
done_testing
