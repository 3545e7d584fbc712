#!/bin/sh
# check.sh - the removed-apis lab, one step a TAP line
# (examples/labs/README.md, "Labs that are scripts").
#
# Usage: check.sh [--profile P]... [--kernel 4.14]
#        (default: the profiles of lab.conf; 4.14 is the lab's only
#        level, the one a Linux 4.13 driver is ported to)
#
# Environment:
#   DMAEMU_CC  the compiler wrapper (default: dmaemu-cc from PATH)
#   SPATCH     Coccinelle's spatch (default: spatch from PATH)
#   COCCI_DIR  the semantic patches (default: cocci/ of the source tree
#              this folder belongs to)
#   LAB_KEEP   a directory: the converted lab.c is left there as
#              lab-converted.c, with the programs built
#
# Steps:
#   refuse   lab.c, written for Linux 4.13, does not compile, and the
#            compiler's errors name each replacement;
#   convert  spatch with every cocci/*.cocci rewrites it, leaving no
#            removed API;
#   build    the converted file compiles and links (-DLAB_FIXED);
#   run      it runs on each profile: "data right, 0 reports".
# Exit status: 0 when every step passed, 1 otherwise.  Without spatch the
# last three steps are skipped ("# SKIP"), not failed.

here=$(cd "$(dirname "$0")" && pwd) || exit 1
labs=$(dirname "$here")
cc=${DMAEMU_CC:-dmaemu-cc}
spatch=${SPATCH:-spatch}
cocci=${COCCI_DIR:-$(dirname "$(dirname "$labs")")/cocci}
profiles=
while [ $# -gt 0 ]; do
	case $1 in
	--profile)
		[ $# -ge 2 ] || { echo "check.sh: --profile needs a value" >&2; exit 2; }
		profiles="$profiles $2"
		shift 2
		;;
	--kernel)
		[ "$2" = 4.14 ] || { echo "check.sh: this lab runs at Linux 4.14 only, not '$2'" >&2; exit 2; }
		shift 2
		;;
	*)
		echo "usage: check.sh [--profile arm|arm64|x86]... [--kernel 4.14]" >&2
		exit 2
		;;
	esac
done
if [ -z "$profiles" ]; then
	profiles=$(. "$here/lab.conf" && echo "$profiles")
fi

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); failed=1; echo "not ok $n - $*"; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
diag() { sed 's/^/# /'; }

# refuse: each message, exactly as the kernel-personality headers word it.
if $cc -c -I"$labs" "$here/lab.c" -o "$tmp/lab.o" >"$tmp/refuse.log" 2>&1; then
	not_ok "refuse: lab.c compiled"
else
	ok "refuse: lab.c (Linux 4.13) does not compile"
fi
for msg in \
	'GFP_TEMPORARY was removed in Linux 4.14: use GFP_KERNEL' \
	'dma_alloc_noncoherent() was removed in Linux 4.14: use dma_alloc_attrs(..., DMA_ATTR_NON_CONSISTENT)' \
	'dma_free_noncoherent() was removed in Linux 4.14: use dma_free_attrs(..., DMA_ATTR_NON_CONSISTENT)'; do
	if grep -F "error: $msg" "$tmp/refuse.log" >/dev/null; then
		ok "refuse: $msg"
	else
		not_ok "refuse: $msg"
		diag <"$tmp/refuse.log"
	fi
done

steps="convert build"
for p in $profiles; do
	steps="$steps run-$p"
done
if ! command -v "$spatch" >/dev/null 2>&1; then
	for s in $steps; do
		skip "$s" "spatch (Debian package coccinelle) not found"
	done
	echo "1..$n"
	exit $failed
fi

# convert: every semantic patch of the project's 4.14 port, in name order
# (not the 5.10 one, dma_noncoherent_510.cocci, which ports a 4.14 driver
# on to the 6.12 level: this lab stays at 4.14); then no line of code
# (comments aside) names a removed API.
conv="$tmp/lab-converted.c"
cp "$here/lab.c" "$conv"
done_ok=yes
for f in "$cocci"/*.cocci; do
	[ -f "$f" ] || { done_ok=no; echo "no semantic patch in $cocci" >"$tmp/spatch.log"; break; }
	case $f in *_510.cocci) continue ;; esac
	if ! "$spatch" --very-quiet -D patch --sp-file "$f" --in-place "$conv" \
		>>"$tmp/spatch.log" 2>&1; then
		done_ok=no
	fi
done
if [ $done_ok = yes ] &&
	! grep -v '^[[:space:]]*/\{0,1\}\*' "$conv" |
		grep -E 'GFP_TEMPORARY|dma_(alloc|free)_noncoherent' >/dev/null &&
	! cmp -s "$here/lab.c" "$conv"; then
	ok "convert: spatch with cocci/*.cocci leaves no removed API"
	diff -u --label lab.c --label lab-converted.c "$here/lab.c" "$conv" | diag
else
	not_ok "convert: spatch with cocci/*.cocci leaves no removed API"
	diag <"$tmp/spatch.log"
fi

# build: the converted driver, as the fixed variant of the lab.
if $cc -g -I"$labs" -DLAB_FIXED -o "$tmp/lab" "$conv" "$labs/lab.c" \
	-ldmaemu-devices >"$tmp/build.log" 2>&1; then
	ok "build: the converted driver compiles and links"
	built=yes
else
	not_ok "build: the converted driver compiles and links"
	diag <"$tmp/build.log"
	built=no
fi

# run: the lab's result line on each profile.
for p in $profiles; do
	want="lab: removed-apis fixed on $p: data right, 0 reports"
	if [ $built = yes ] && "$tmp/lab" --profile "$p" >"$tmp/run.log" 2>&1 &&
		grep -Fx "$want" "$tmp/run.log" >/dev/null; then
		ok "run-$p: $want"
	else
		not_ok "run-$p: $want"
		[ -f "$tmp/run.log" ] && diag <"$tmp/run.log"
	fi
done

if [ -n "$LAB_KEEP" ]; then
	mkdir -p "$LAB_KEEP" && cp "$conv" "$LAB_KEEP/" &&
		{ [ ! -f "$tmp/lab" ] || cp "$tmp/lab" "$LAB_KEEP/lab-converted"; }
fi
echo "1..$n"
exit $failed
