#!/bin/sh
# labs.sh - every lab of examples/labs/ through dmaemu-lab, from the build
# tree: on each profile its lab.conf lists, at each Linux level of its
# kernels= (--kernel 6.12), the buggy variant makes the
# reports and gets the data that lab.conf says, the fixed one makes no
# report and gets the data right (skip-cpu-sync's also behind
# swiotlb=force); what each README quotes of a report is
# what the lab prints (lab-levels.sh checks the levels themselves).  Then
# the runner itself: list, explain, the tour
# (its primer, each lab's introduction, its table, 100 columns), colour,
# and clear errors for bad input, a lab
# that does not compile and a lab that does not behave as its lab.conf
# says.
. "$top_srcdir/tests/runner/tap.sh"
. "$top_srcdir/tests/runner/lab-run.sh"

# said: the SUMMARY lines and the kinds of the ERROR lines of a report
# on stdin, wherever they start on their line, with the numbers of
# lines, addresses and sizes and the folders of paths left out: the form
# of the report, not this run's values.
said() {
	sed -n -e 's/^.*\(SUMMARY: dmaemu: .*\)$/\1/p' \
		-e 's/^.*\(ERROR: dmaemu: [a-z0-9-]*\):.*$/\1/p' |
		sed -e 's|[^ ]*/||g' -e 's/0x[0-9a-f]*/0xN/g' \
			-e 's/:[0-9][0-9]*/:N/g' -e 's/+[0-9][0-9]*/+N/g' |
		sort -u
}

# 1. Every lab, both variants, every profile of its lab.conf.
names=
for d in "$labs"/*/; do
	[ -f "$d/lab.conf" ] || continue
	n=$(basename "$d")
	names="$names $n"
	profiles=$(
		. "$d/lab.conf"
		echo "$profiles"
	)
	[ -n "$profiles" ] || not_ok "$n: lab.conf lists no profiles"
	# A script lab runs every level it lists at once.
	kernels=$(
		kernels=
		. "$d/lab.conf"
		echo "${kernels:-4.14}"
	)
	grep -q '^kind="script"' "$d/lab.conf" && kernels=4.14
	: >"$tmp/said.$n"
	for k in $kernels; do
		at='' flag=''
		[ "$k" = 6.12 ] && at=' at 6.12' flag='--kernel 6.12'
		for p in $profiles; do
			# shellcheck disable=SC2086
			run_ok "$n buggy on $p$at: as lab.conf expects" run "$n" \
				--profile "$p" $flag
			said <"$tmp/out" >>"$tmp/said.$n"
			# shellcheck disable=SC2086
			run_ok "$n fixed on $p$at: no report, data right" run "$n" \
				--fixed --profile "$p" $flag
		done
	done
	# skip-cpu-sync's fixed variant behind swiotlb too: its second
	# mapping's bounce buffer is synced for the device, not left unfilled.
	if [ "$n" = skip-cpu-sync ]; then
		for p in arm64 x86; do
			run_ok "$n fixed on $p, swiotlb=force: no report, data right" \
				run "$n" --fixed --profile "$p" --options swiotlb=force
			run_ok "$n fixed on $p at 6.12, swiotlb=force: no report, data right" \
				run "$n" --fixed --profile "$p" --kernel 6.12 \
				--options swiotlb=force
		done
		# Behind swiotlb on x86 the buggy variant's second map leaves
		# its slot unfilled at 4.14; 6.12's swiotlb copies into the slot
		# at every map, and the data is right (README.md).
		run_fails "$n buggy on x86, swiotlb=force: the slot not filled" 1 \
			"NOT as expected: an unexpected stale-device-read report; data wrong" \
			run "$n" --profile x86 --options swiotlb=force
		run_ok "$n buggy on x86 at 6.12, swiotlb=force: the map's copy fills the slot" \
			run "$n" --profile x86 --kernel 6.12 --options swiotlb=force
		check "$n buggy on x86 at 6.12, swiotlb=force: data right, no report" \
			grep -q 'lab: skip-cpu-sync buggy on x86: data right, 0 reports' \
			"$tmp/out"
	fi
	# What the README quotes of a report is what the lab prints: each
	# SUMMARY line, in the form of today, and each kind of an ERROR line.
	said <"$d/README.md" >"$tmp/quoted.$n"
	while read -r q; do
		check "$n: README.md quotes '$q' as the lab prints it" \
			grep -qxF -- "$q" "$tmp/said.$n"
	done <"$tmp/quoted.$n"
	if grep -q '^kind="script"' "$d/lab.conf"; then
		check "$n: a script lab with its steps" \
			sh -c "grep -q '^script=' '$d/lab.conf'"
	else
		check "$n: lab.c, its fixes marked /* FIX: */" \
			sh -c "test -f '$d/lab.c' && cat '$d'/*.c | grep -q '/\* FIX: '"
	fi
	check "$n: README.md" test -s "$d/README.md"
done
[ -n "$names" ] || not_ok "no labs found in $labs"

# 2. list, explain.
"$lab" list >"$tmp/list" 2>&1
check "list: one line a lab" \
	test "$(wc -l <"$tmp/list")" -eq "$(echo $names | wc -w)"
for n in $names; do
	check "list: $n with its title" grep -q "^$n  *[^ ]" "$tmp/list"
done
run_ok "explain rx-stale" explain rx-stale
check "explain prints the README" cmp -s "$tmp/out" "$labs/rx-stale/README.md"

# 3. The tour: every lab, a table, exit 0; plain with --no-color.
run_ok "tour: every lab as expected" tour --no-color
cp "$tmp/out" "$tmp/tour"
for n in $names; do
	check "tour: $n in the table" \
		grep -Eq "^  $n +[a-z0-9]+ +.* yes\$" "$tmp/tour"
done
check "tour: the picture of cache lines" \
	grep -q 'byte: . same  c CPU-dirty' "$tmp/tour"
check "tour: rx-stale's report" \
	grep -q '^    SUMMARY: dmaemu: stale-cpu-read ' "$tmp/tour"
esc=$(printf '\033')
check "tour --no-color: no escape sequences" \
	sh -c "! grep -q '$esc' '$tmp/tour'"
check "tour: every line fits 100 columns" \
	sh -c "! awk 'length > 100 { print \"# \" length \": \" \$0; bad = 1 }
		END { exit !bad }' '$tmp/tour'"
check "tour: it opens with how to read it" \
	sh -c "head -n 1 '$tmp/tour' | grep -q '^== How to read the tour\$'"
sed -n '1,/^== Lab 1 of /p' "$tmp/tour" >"$tmp/primer"
for w in MEM CPU TWIN 'c  CPU-dirty' 'd  device-changed' '!  both' \
	'$ column' 'R+D'; do
	check "tour: the primer explains $w" grep -qF -- "$w" "$tmp/primer"
done
# Each lab's introduction: its README's first paragraph of prose, not a
# heading: its first line, after the lab's heading and a blank line.
for n in $names; do
	intro=$(awk -v h="^== Lab [0-9]+ of [0-9]+: $n: " '
		$0 ~ h { on = 1; next }
		on && /^$/ { getline; sub(/^  /, ""); print; exit }' "$tmp/tour")
	check "tour: $n's introduction is prose of its README" \
		sh -c 'case $1 in ""|"#"*) exit 1 ;; esac
		       grep -qxF -- "$1" "$2"' sh "$intro" "$labs/$n/README.md"
done

# 4. Colour on a terminal (script(1) gives one), none with NO_COLOR.
if command -v script >/dev/null 2>&1; then
	TERM=xterm script -qec "'$lab' run rx-stale" /dev/null \
		>"$tmp/tty" 2>&1 </dev/null
	check "colour on a terminal: the runner and the pictures" \
		grep -q "$esc\[" "$tmp/tty"
	NO_COLOR=1 TERM=xterm script -qec "'$lab' run rx-stale" /dev/null \
		>"$tmp/tty" 2>&1 </dev/null
	check "NO_COLOR: no colour on a terminal" \
		sh -c "! grep -q '$esc\[' '$tmp/tty'"
else
	skip "colour: no script(1)"
	skip "NO_COLOR: no script(1)"
fi

# 4b. --svg: each picture as an SVG file, before (buggy) and after the fix
# (fixed).  rx-stale's fourth picture is the line after the driver read
# frame 4: one stale device-changed byte in the buggy variant, none once
# the fix invalidates.
run_ok "run --svg: buggy" run rx-stale --no-color --svg "$tmp/svg"
run_ok "run --svg: fixed" run rx-stale --fixed --no-color --svg "$tmp/svg"
for v in buggy fixed; do
	for i in 1 2 3 4; do
		check "--svg: rx-stale-$v-$i.svg written" \
			sh -c "head -c 200 '$tmp/svg/rx-stale-$v-$i.svg' | grep -q '<svg '"
	done
done
if command -v xmllint >/dev/null 2>&1; then
	check "--svg: well-formed XML" xmllint --noout "$tmp"/svg/*.svg
else
	skip "--svg: well-formed XML: no xmllint"
fi
check "--svg: buggy, after the read: the stale byte" \
	test "$(grep -c 'data-state="d"' "$tmp/svg/rx-stale-buggy-4.svg")" -eq 1
check "--svg: fixed, after the read: nothing stale" \
	test "$(grep -c 'data-state="d"' "$tmp/svg/rx-stale-fixed-4.svg")" -eq 0
check "--svg: the picture's title is the lab's heading" \
	grep -q '<title>after the driver has read it:</title>' \
	"$tmp/svg/rx-stale-fixed-4.svg"
run_fails "--svg without a value" 2 "--svg needs a value" run rx-stale --svg

# 5. Bad input: a message and a non-zero exit.
run_fails "unknown lab" 2 "no lab 'no-such-lab'" run no-such-lab
run_fails "unknown profile" 2 "unknown profile 'sparc'" run rx-stale \
	--profile sparc
run_fails "bad seed" 2 "bad seed 'x'" run rx-stale --seed x
run_fails "unknown option" 2 "unknown option '--frobnicate'" run \
	rx-stale --frobnicate
run_fails "unknown command" 2 "unknown command 'jump'" jump
run_fails "explain an unknown lab" 2 "no lab 'nope'" explain nope

# 6. Labs that do not build or do not behave as lab.conf says (in a
# folder of their own: DMAEMU_LAB_DIR).
mkdir -p "$tmp/labs/broken" "$tmp/labs/wrong-kind" "$tmp/labs/missing-kind" \
	"$tmp/labs/wrong-data"
cp "$labs/lab.h" "$labs/lab.c" "$tmp/labs/"
cp "$labs/rx-stale/lab.conf" "$tmp/labs/broken/"
printf 'int main(void) { return undeclared; }\n' >"$tmp/labs/broken/lab.c"
for n in wrong-kind missing-kind; do
	sed 's/"rx-stale"/"'$n'"/' "$labs/rx-stale/lab.c" >"$tmp/labs/$n/lab.c"
done
sed 's/^expect_arm64=.*/expect_arm64=""/' "$labs/rx-stale/lab.conf" \
	>"$tmp/labs/wrong-kind/lab.conf"
sed 's/^expect_arm64="\(.*\)"/expect_arm64="\1 lost-cpu-write"/' \
	"$labs/rx-stale/lab.conf" >"$tmp/labs/missing-kind/lab.conf"
sed 's/"tx-stale"/"wrong-data"/' "$labs/tx-stale/lab.c" \
	>"$tmp/labs/wrong-data/lab.c"
sed 's/^data_arm64=.*/data_arm64="right"/' "$labs/tx-stale/lab.conf" \
	>"$tmp/labs/wrong-data/lab.conf"
mkdir -p "$tmp/labs/bad-conf" "$tmp/labs/sneaky"
cp "$labs/tx-stale/lab.c" "$tmp/labs/bad-conf/"
sed 's/^profiles=.*/profiles="arm64 sparc"/' "$labs/tx-stale/lab.conf" \
	>"$tmp/labs/bad-conf/lab.conf"
sed 's/"tx-stale"/"sneaky"/' "$labs/tx-stale/lab.c" >"$tmp/labs/sneaky/lab.c"
{
	cat "$labs/tx-stale/lab.conf"
	echo 'cc=/bin/false labs=/nonexistent tmp=/nonexistent name=x'
} >"$tmp/labs/sneaky/lab.conf"
# A lab whose buggy variant must not compile (build_buggy=fails): the
# fixed one is tx-stale, the buggy one uses GFP_TEMPORARY.
for n in no-build no-build-msg; do
	mkdir -p "$tmp/labs/$n"
	{
		printf '#ifndef LAB_FIXED\n#include <linux/gfp.h>\n'
		printf 'static int flags = GFP_TEMPORARY;\n#endif\n'
		sed 's/"tx-stale"/"'$n'"/' "$labs/tx-stale/lab.c"
	} >"$tmp/labs/$n/lab.c"
done
{
	grep -v '^expect_\|^data_' "$labs/tx-stale/lab.conf"
	echo 'build_buggy="fails"'
	echo 'build_message="use GFP_KERNEL"'
} >"$tmp/labs/no-build/lab.conf"
{
	cat "$labs/tx-stale/lab.conf"
	echo 'build_buggy="fails"'
	echo 'build_message="use GFP_ATOMIC"'
} >"$tmp/labs/no-build-msg/lab.conf"
mkdir -p "$tmp/labs/builds"
sed 's/"tx-stale"/"builds"/' "$labs/tx-stale/lab.c" >"$tmp/labs/builds/lab.c"
cp "$tmp/labs/no-build/lab.conf" "$tmp/labs/builds/"
DMAEMU_LAB_DIR="$tmp/labs"
export DMAEMU_LAB_DIR
run_ok "build_buggy=fails: the buggy variant does not compile, as expected" \
	run no-build
check "build_buggy=fails: the compiler's message is shown" \
	grep -q 'GFP_TEMPORARY was removed in Linux 4.14' "$tmp/out"
run_ok "build_buggy=fails: the fixed variant builds and runs" run no-build \
	--fixed
run_fails "build_buggy=fails: the compiler must say build_message" 1 \
	"NOT as expected: the compiler did not say \"use GFP_ATOMIC\"" run \
	no-build-msg
run_fails "build_buggy=fails: a buggy variant that compiles" 1 \
	"NOT as expected: it compiles, and lab.conf says it does not" run \
	builds
run_fails "a lab.conf with an unknown profile" 2 \
	"bad-conf/lab.conf: unknown profile 'sparc'" run bad-conf
run_ok "a lab.conf cannot change the runner's own variables" run sneaky
run_fails "a lab that does not compile" 1 \
	"the buggy variant of broken does not compile" run broken
run_fails "a report lab.conf does not list" 1 \
	"an unexpected stale-cpu-read report" run wrong-kind
run_fails "a report lab.conf lists that does not come" 1 \
	"NOT as expected: no lost-cpu-write report" run missing-kind
run_fails "data other than lab.conf says" 1 \
	"NOT as expected: data wrong, expected right" run wrong-data
run_fails "the tour fails when one lab does" 1 \
	"7 of 9 labs did not behave as expected" tour --no-color
check "the tour's table says which" \
	grep -Eq "^  broken +arm64 +buggy: does not compile .* NO\$" "$tmp/out"
check "the tour goes on past a bad lab.conf" \
	grep -Eq "^  bad-conf +- +bad lab.conf .* NO\$" "$tmp/out"
check "the tour runs the good one" grep -Eq "^  sneaky +arm64 .* yes\$" \
	"$tmp/out"

# 7. DMAEMU_LAB_CACHE: a program is built once for its sources, flags,
# headers and libraries, and taken from the cache after that.
cache=$tmp/cache
mkdir -p "$tmp/labs/cached"
cp "$labs/tx-stale/lab.conf" "$tmp/labs/cached/"
sed 's/"tx-stale"/"cached"/' "$labs/tx-stale/lab.c" >"$tmp/labs/cached/lab.c"
entries() { find "$cache" -mindepth 1 -maxdepth 1 ! -name '.*' | wc -l; }
DMAEMU_LAB_CACHE=$cache
export DMAEMU_LAB_CACHE
run_ok "cache: a lab builds into an empty cache" run cached
check "cache: one program kept" test "$(entries)" = 1
run_ok "cache: the same variant on another profile" run cached \
	--profile x86
check "cache: still one program (no build for the profile)" \
	test "$(entries)" = 1
prog=$(find "$cache" -mindepth 2 -name prog)
printf '#!/bin/sh\necho "from the cache"\nexit 3\n' >"$prog"
run_fails "cache: the kept program is the one that runs" 1 "from the cache" \
	run cached
echo '/* changed */' >>"$tmp/labs/cached/lab.c"
run_ok "cache: a changed source builds again" run cached
check "cache: a second program kept" test "$(entries)" = 2
run_ok "cache: the fixed variant is a program of its own" run cached --fixed
check "cache: a third program kept" test "$(entries)" = 3
run_fails "cache: a failed build is not kept" 1 \
	"the buggy variant of broken does not compile" run broken
check "cache: nothing kept for it" test "$(entries)" = 3
unset DMAEMU_LAB_CACHE

# 8. sweep: one build, every seed of the range or of a shard, N at a
# time; the first seed that did not behave, with the command that
# replays it.  The lab "seeded" gets its data wrong when its seed is a
# multiple of 7.
mkdir -p "$tmp/labs/seeded"
cp "$labs/tx-stale/lab.conf" "$tmp/labs/seeded/"
cat >"$tmp/labs/seeded/lab.c" <<'EOF'
#include <stdio.h>
#include "lab.h"
int main(int argc, char **argv)
{
	struct lab *lab = lab_start("seeded", argc, argv, NULL);

	if (!lab)
		return 2;
	printf("seed %llu\n", lab->seed);
	return lab_finish(lab, lab->seed % 7 != 0);
}
EOF
run_ok "sweep: a fixed variant right on every seed" sweep seeded --fixed \
	--seeds 8-13 -j 3
check "sweep: says how many seeds ran, none wrong" grep -q \
	"^dmaemu-lab: sweep of seeded fixed on arm64, seeds 8-13 (shard 1/1, -j 3): 6 seeds, 0 not as expected" \
	"$tmp/out"
run_fails "sweep: the first seed that is not as expected, and its replay" 1 \
	"replay: dmaemu-lab run seeded --fixed --profile x86 --seed 14\$" \
	sweep seeded --fixed --profile x86 --seeds 10-30 -j 2
check "sweep: how many were not" grep -q "21 seeds, 3 not as expected" \
	"$tmp/out"
check "sweep: why the first was not" grep -q \
	"first: seed 14: data wrong, expected right" "$tmp/out"
run_fails "sweep: a shard runs its seeds only (11, 14, ..., 29)" 1 \
	"seeds 10-30 \\(shard 2/3, -j 1\\): 7 seeds, 1 not as expected" \
	sweep seeded --fixed --seeds 10-30 --shard 2/3 -j 1
check "sweep: the shard's bad seed" grep -q "first: seed 14: " "$tmp/out"
run_fails "sweep: another shard has other bad seeds" 1 \
	"first: seed 21: " sweep seeded --fixed --seeds 10-30 --shard 3/3
run_fails "sweep: bad seeds" 2 "bad seeds '5-1'" sweep seeded --seeds 5-1
run_fails "sweep: bad shard" 2 "bad shard '4/3'" sweep seeded --shard 4/3
run_fails "sweep: bad -j" 2 "bad -j '0'" sweep seeded -j 0
done_testing
