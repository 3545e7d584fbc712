#!/bin/sh
# rmw.sh - every store of a read-modify-write reaches the model as a
# store, with its own site: tests/scripts/rmw-prog.c, built with dmaemu-cc
# and -g under GCC and Clang at -O0, -O1, -O2 and -Os, runs its forms
# (buf[i] ^= x, hdr->seq++, hdr->flags |= BIT(3), *p += n, a ring
# descriptor's field &= ~1, a 64-bit <<=, ++*p, a load then a store of one
# field; and a struct copy, an atomic fetch-or, a packed field's +=) on
# every profile and backend in one process, and checks their results.  For each build and
# form, on every configuration: one report, cpu-access-device-owned, a
# write, naming the line of the form.  Then the store's effects: on arm
# and arm64 (direct and IOMMU backends) the lost-device-write of a line
# shared with a counter names the counter's RMW as the CPU's last store,
# and the picture of a line read and then changed by an RMW shows R+D.
# The correct twin (--fixed: the stores before the map) makes no report.
# A compiler that checks an address once per basic block (GCC's
# kernel-address instrumentation) loses the stores: no report at all.
# The Clang builds are skipped when clang is missing, the GCC ones when
# gcc is.
. "$top_srcdir/tests/runner/tap.sh"

[ -z "$SANITIZER" ] ||
	skip_all "dmaemu-cc cannot build instrumented driver code in this" \
		"--enable-sanitizer=$SANITIZER build (its hooks are left out)"
cc_wrapper="$top_builddir/tools/dmaemu-cc"
[ -x "$cc_wrapper" ] || skip_all "tools/dmaemu-cc not built"
"$cc_wrapper" --dmaemu-show -c x.c | grep -q DMAEMU_INSTRUMENTED ||
	skip_all "this build has no instrumentation flags"

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
# The file as the compiler is given it is the file the reports name.
src="$top_srcdir/tests/scripts/rmw-prog.c"

forms="xor inc or add ring shift preinc split copy atomic packed"
configs=
for p in arm arm64 x86; do
	configs="$configs profile=$p profile=$p:swiotlb=force"
	configs="$configs profile=$p:iommu=1"
done

# check_msg DESC MESSAGE COMMAND...: check, with MESSAGE as the diagnosis.
check_msg() {
	desc=$1
	msg=$2
	shift 2
	if "$@"; then
		ok "$desc"
	else
		not_ok "$desc"
		diag "$msg"
	fi
}

# line NAME: the line of the marker comment "rmw: NAME".
line() {
	grep -n "/\* rmw: $1 \*/" "$src" | cut -d: -f1
}
for f in $forms lost picture; do
	if [ -z "$(line "$f")" ]; then
		echo "Bail out! rmw-prog.c has no marker 'rmw: $f'"
		exit 1
	fi
done

# One record a report or picture, from a run's stderr:
#   CONFIG|KIND|write or read or -|SUMMARY place|last store or -
#   CONFIG|picture|the $ column
records() {
	awk '
	/^== / { cfg = substr($0, 4); next }
	/^==[0-9]+==ERROR: dmaemu: / {
		rw = "-"
		if ($0 ~ /: write of /) rw = "write"
		else if ($0 ~ /: read of /) rw = "read"
		last = "-"
		next
	}
	/^    the CPU.s last store to the line: at / {
		last = substr($0, index($0, " at ") + 4); next
	}
	/^SUMMARY: dmaemu: / {
		print cfg "|" $3 "|" rw "|" $4 " " $5 " " $6 "|" last; next
	}
	/^-- picture / { pic = 1; next }
	pic && /^    0x/ { print cfg "|picture|" $3; pic = 0 }
	' "$1"
}

# run NAME CC LEVEL: build, run both twins, check.
run() {
	name=$1
	if ! CC=$2 "$cc_wrapper" -g "$3" -Wall -Werror -o "$tmp/$name" \
		"$src" >"$tmp/$name.cc" 2>&1; then
		not_ok "$name: builds with dmaemu-cc -g $3"
		sed 's/^/# /' "$tmp/$name.cc"
		return
	fi
	# shellcheck disable=SC2086
	env -u DMAEMU_OPTIONS "$tmp/$name" $configs >/dev/null \
		2>"$tmp/$name.err"
	check "$name: runs on every configuration" test $? -eq 0
	records "$tmp/$name.err" >"$tmp/$name.rec"

	for f in $forms; do
		l=$(line "$f")
		bad=
		for c in $configs; do
			n=$(grep -c "^$c|[^|]*|[^|]*|$src:$l " "$tmp/$name.rec")
			grep -qxF "$c|cpu-access-device-owned|write|$src:$l in form_$f|-" \
				"$tmp/$name.rec" && [ "$n" = 1 ] || bad="$bad $c"
		done
		check_msg "$name: $f: one cpu-access-device-owned write at its line" \
			"on:$bad" test -z "$bad"
	done

	l=$(line lost)
	bad=
	for c in $configs; do
		case $c in
		profile=x86* | *swiotlb=force)
			! grep -q "^$c|lost-device-write|" "$tmp/$name.rec" ||
				bad="$bad $c"
			;;
		*)
			grep -q "^$c|lost-device-write|-|.*|form_lost $src:$l$" \
				"$tmp/$name.rec" || bad="$bad $c"
			;;
		esac
	done
	check_msg "$name: lost-device-write names the RMW as the last store" \
		"on:$bad" test -z "$bad"

	bad=
	for c in $configs; do
		grep -qxF "$c|picture|R+D" "$tmp/$name.rec" || bad="$bad $c"
	done
	check_msg "$name: a line read, then changed by an RMW, shows R+D" \
		"on:$bad" test -z "$bad"

	# shellcheck disable=SC2086
	env -u DMAEMU_OPTIONS "$tmp/$name" --fixed $configs >/dev/null \
		2>"$tmp/$name.fixed"
	check "$name: the correct twin runs" test $? -eq 0
	check_msg "$name: the correct twin makes no report" \
		"$(grep -m3 '^SUMMARY' "$tmp/$name.fixed")" \
		test "$(grep -c '^SUMMARY' "$tmp/$name.fixed")" = 0
}

for cc in gcc clang; do
	if ! command -v $cc >/dev/null 2>&1; then
		skip "$cc not found"
		continue
	fi
	for o in -O0 -O1 -O2 -Os; do
		run "$cc$o" $cc $o
	done
done
done_testing
