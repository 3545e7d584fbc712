#!/bin/sh
# lab-levels.sh - dmaemu-lab at the two Linux API levels (--kernel,
# lab.conf's kernels=, expect_P_612 and data_P_612; examples/labs/README.md,
# "Levels"): shared-cacheline at 6.12 on arm64 gets its packet through a
# bounce slot and its store is still reported, with the whole of its fix,
# while at 4.14 the packet is lost; a script lab at one level runs that
# level's steps only; a lab at a level it does not list, an unknown
# level, a lab.conf with a bad level or a bad data_P_612 are clear errors;
# at 6.12 the _612 expectations are the ones that count, also in a sweep,
# whose replay names the level.  labs.sh runs every lab at every level it
# lists.
. "$top_srcdir/tests/runner/tap.sh"
. "$top_srcdir/tests/runner/lab-run.sh"

# 1. The levels (--kernel).  shared-cacheline at 6.12: arm64 bounces the
# small map through swiotlb (the data survives, the store is reported
# with the whole of its fix), arm still loses the packet.
run_ok "shared-cacheline at 6.12 on arm64: as lab.conf expects" run \
	shared-cacheline --kernel 6.12 --no-color
check "shared-cacheline at 6.12 on arm64: the verdict names the level" \
	grep -q "^dmaemu-lab: shared-cacheline buggy on arm64 at Linux 6.12: as expected (data right, shared-line-store)\$" "$tmp/out"
check "shared-cacheline at 6.12 on arm64: the device writes a bounce buffer" \
	grep -q "the device writes at dma 0x[0-9a-f]*, the buffer is at 0x[0-9a-f]*: a bounce buffer\$" "$tmp/out"
check "shared-cacheline at 6.12 on arm64: the fix names the bounce, whole" \
	grep -q "^    fix: .*dma_kmalloc_needs_bounce(), which hides the bug)\$" "$tmp/out"
check "shared-cacheline at 6.12 on arm64: the program says its level" \
	grep -q "^lab shared-cacheline (buggy variant) on arm64, seed 1, Linux 6.12\$" "$tmp/out"
run_ok "shared-cacheline at 6.12 on arm: as lab.conf expects" run \
	shared-cacheline --kernel 6.12 --profile arm --no-color
check "shared-cacheline at 6.12 on arm: no bounce, the packet lost" \
	sh -c "grep -q 'as expected (data WRONG, lost-device-write shared-line-store)' '$tmp/out' &&
		! grep -q 'bounce' '$tmp/out'"
run_ok "shared-cacheline at 4.14 on arm64: as lab.conf expects" run \
	shared-cacheline --kernel 4.14 --no-color
check "shared-cacheline at 4.14 on arm64: the packet lost, no bounce" \
	sh -c "grep -q 'as expected (data WRONG, lost-device-write shared-line-store)' '$tmp/out' &&
		! grep -q 'bounce' '$tmp/out'"
run_ok "port-612 at 6.12 only: as expected" run port-612 --kernel 6.12 \
	--profile arm
check "port-612 at 6.12 only: the 6.12 steps, none of 4.14" \
	sh -c "grep -q '^ok [0-9]* - run-6.12-arm: ' '$tmp/out' &&
		! grep -q -- '-4.14' '$tmp/out'"
run_ok "port-612 at 4.14 only: as expected" run port-612 --kernel 4.14 \
	--profile x86
check "port-612 at 4.14 only: the 4.14 steps, none of 6.12" \
	sh -c "grep -q '^ok [0-9]* - run-4.14-x86: ' '$tmp/out' &&
		! grep -q -- '-6.12' '$tmp/out'"
run_ok "removed-apis at 4.14, its level" run removed-apis --kernel 4.14 \
	--profile x86
run_fails "a lab at a level it does not list" 2 \
	"removed-apis does not run at Linux 6.12 \\(its kernels: 4.14\\)" run \
	removed-apis --kernel 6.12
run_fails "a lab without kernels= runs at 4.14 only" 2 \
	"non-consistent does not run at Linux 6.12 \\(its kernels: 4.14\\)" \
	run non-consistent --kernel 6.12
run_fails "an unknown kernel" 2 "unknown kernel '5.4' \\(4.14 6.12\\)" run \
	rx-stale --kernel 5.4
run_fails "--kernel without a value" 2 "--kernel needs a value" run \
	rx-stale --kernel
run_fails "sweep: a lab at a level it does not list" 2 \
	"non-consistent does not run at Linux 6.12" sweep non-consistent \
	--kernel 6.12

# 2. lab.conf's levels: kernels= must name known levels; at 6.12,
# expect_P_612 and data_P_612 are what the buggy variant is held to.
# (Labs of their own, in a folder of their own: DMAEMU_LAB_DIR.)
mkdir -p "$tmp/labs"
cp "$labs/lab.h" "$labs/lab.c" "$tmp/labs/"
for n in bad-kernels wrong-612 bad-data-612; do
	mkdir -p "$tmp/labs/$n"
	sed 's/"shared-cacheline"/"'$n'"/' "$labs/shared-cacheline/lab.c" \
		>"$tmp/labs/$n/lab.c"
done
sed 's/^kernels=.*/kernels="4.14 5.4"/' "$labs/shared-cacheline/lab.conf" \
	>"$tmp/labs/bad-kernels/lab.conf"
sed 's/^data_arm64_612=.*/data_arm64_612="wrong"/' \
	"$labs/shared-cacheline/lab.conf" >"$tmp/labs/wrong-612/lab.conf"
sed 's/^data_arm64_612=.*/data_arm64_612="lost"/' \
	"$labs/shared-cacheline/lab.conf" >"$tmp/labs/bad-data-612/lab.conf"
DMAEMU_LAB_DIR="$tmp/labs"
export DMAEMU_LAB_DIR
run_fails "a lab.conf with an unknown kernel" 2 \
	"bad-kernels/lab.conf: unknown kernel '5.4' in kernels=" run bad-kernels
run_fails "at 6.12, data_P_612 is what the buggy variant is held to" 1 \
	"wrong-612 buggy on arm64 at Linux 6.12: NOT as expected: data right, expected wrong" \
	run wrong-612 --kernel 6.12
run_ok "at 4.14, data_P_612 does not count" run wrong-612
run_fails "a lab.conf with a bad data_P_612" 2 \
	"data_arm64_612 must be right or wrong, not 'lost'" run bad-data-612
run_fails "sweep at 6.12: the replay names the level" 1 \
	"replay: dmaemu-lab run wrong-612 --kernel 6.12 --profile arm64 --seed 3\$" \
	sweep wrong-612 --kernel 6.12 --seeds 3-4 -j 1
check "sweep at 6.12: says the level" grep -q \
	"^dmaemu-lab: sweep of wrong-612 buggy on arm64 at Linux 6.12, seeds 3-4" \
	"$tmp/out"

done_testing
