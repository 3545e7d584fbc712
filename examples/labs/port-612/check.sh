#!/bin/sh
# check.sh - the port-612 lab, one step a TAP line
# (examples/labs/README.md, "Labs that are scripts").
#
# Usage: check.sh [--profile P]... [--kernel 4.14|6.12]...
#        (default: the profiles and the kernels of lab.conf)
#
# Environment:
#   DMAEMU_CC  the compiler wrapper (default: dmaemu-cc from PATH)
#   SPATCH     Coccinelle's spatch (default: spatch from PATH)
#   COCCI_DIR  the semantic patches (default: cocci/ of the source tree
#              this folder belongs to)
#   LAB_KEEP   a directory: each port is left there as lab-4.14.c and
#              lab-6.12.c, with the programs built (lab-4.14, lab-6.12)
#
# Steps, at each kernel:
#   refuse-K   lab.c, written for Linux 4.13, does not compile at level
#              K, and the compiler's errors name each replacement (at
#              4.14 GFP_TEMPORARY only: DMA_ATTR_NON_CONSISTENT and
#              dma_cache_sync() are the 4.14 API);
#   convert-K  spatch ports it: at 4.14 with cocci/gfp_temporary.cocci
#              (the 4.14 port), at 6.12 with it and then
#              cocci/dma_noncoherent_510.cocci (the 5.10 port), leaving
#              no API that level removed;
#   build-K    the port compiles and links at level K (-DLAB_FIXED,
#              dmaemu-cc --dmaemu-kernel=K);
#   run-K-P    it runs on each profile, on a machine of level K: "data
#              right, 0 reports";
#   forget-K   the port without the descriptor's hand-over to the device
#              (its first sync) is reported on the first of the profiles
#              that is not x86: the engine reads a stale descriptor
#              (stale-device-read).
# Exit status: 0 when every step passed, 1 otherwise, 2 for a bad
# argument.  Without spatch the steps after refuse are skipped
# ("# SKIP"), not failed.

here=$(cd "$(dirname "$0")" && pwd) || exit 1
labs=$(dirname "$here")
cc=${DMAEMU_CC:-dmaemu-cc}
spatch=${SPATCH:-spatch}
cocci=${COCCI_DIR:-$(dirname "$(dirname "$labs")")/cocci}
profiles=
kernels=
while [ $# -gt 0 ]; do
	case $1 in
	--profile | --kernel)
		[ $# -ge 2 ] || { echo "check.sh: $1 needs a value" >&2; exit 2; }
		if [ "$1" = --kernel ]; then
			case $2 in
			4.14 | 6.12) kernels="$kernels $2" ;;
			*) echo "check.sh: unknown kernel '$2' (4.14, 6.12)" >&2; exit 2 ;;
			esac
		else
			profiles="$profiles $2"
		fi
		shift 2
		;;
	*)
		echo "usage: check.sh [--profile arm|arm64|x86]... [--kernel 4.14|6.12]..." >&2
		exit 2
		;;
	esac
done
[ -n "$profiles" ] || profiles=$(. "$here/lab.conf" && echo "$profiles")
[ -n "$kernels" ] || kernels=$(. "$here/lab.conf" && echo "$kernels")

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); failed=1; echo "not ok $n - $*"; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
diag() { sed 's/^/# /'; }
have_spatch=yes
command -v "$spatch" >/dev/null 2>&1 || have_spatch=no

# The compiler's messages, as the kernel-personality headers word them.
gfp='GFP_TEMPORARY was removed in Linux 4.14: use GFP_KERNEL'
attr='DMA_ATTR_NON_CONSISTENT was removed in Linux 5.10: use dma_alloc_noncoherent(dev, size, handle, dir, gfp) and dma_sync_single_for_device()/dma_sync_single_for_cpu() on its handle'
sync='dma_cache_sync() was removed in Linux 5.10: allocate with dma_alloc_noncoherent() and use dma_sync_single_for_device()/dma_sync_single_for_cpu() on its handle'

# refuse K: lab.c at level K, each error that level's headers give.
refuse() {
	k=$1
	log=$tmp/refuse-$k.log
	if $cc --dmaemu-kernel="$k" -c -I"$labs" "$here/lab.c" \
		-o "$tmp/lab.o" >"$log" 2>&1; then
		not_ok "refuse-$k: lab.c compiled at Linux $k"
		diag <"$log"
		return
	fi
	ok "refuse-$k: lab.c (Linux 4.13) does not compile at Linux $k"
	if [ "$k" = 4.14 ]; then
		want=gfp
		# What 4.14 still has must not be refused.
		if grep -E 'error: .*(DMA_ATTR_NON_CONSISTENT|dma_cache_sync)' \
			"$log" >/dev/null; then
			not_ok "refuse-$k: DMA_ATTR_NON_CONSISTENT and dma_cache_sync() are the 4.14 API"
			diag <"$log"
		else
			ok "refuse-$k: DMA_ATTR_NON_CONSISTENT and dma_cache_sync() are the 4.14 API"
		fi
	else
		want="gfp attr sync"
	fi
	for w in $want; do
		eval "msg=\$$w"
		if grep -F "error: $msg" "$log" >/dev/null; then
			ok "refuse-$k: $msg"
		else
			not_ok "refuse-$k: $msg"
			diag <"$log"
		fi
	done
}

# port K: lab.c through the semantic patches of level K, into
# $tmp/lab-K.c; status 0 when spatch ran and left no removed API.
port() {
	k=$1
	out=$tmp/lab-$k.c
	cp "$here/lab.c" "$out"
	patches=gfp_temporary
	[ "$k" = 6.12 ] && patches="$patches dma_noncoherent_510"
	for p in $patches; do
		if [ ! -f "$cocci/$p.cocci" ]; then
			echo "no $cocci/$p.cocci" >>"$tmp/spatch-$k.log"
			return 1
		fi
		"$spatch" --very-quiet -D patch --sp-file "$cocci/$p.cocci" \
			--in-place "$out" >>"$tmp/spatch-$k.log" 2>&1 || return 1
	done
	removed='GFP_TEMPORARY'
	[ "$k" = 6.12 ] && removed='GFP_TEMPORARY|DMA_ATTR_NON_CONSISTENT|dma_cache_sync'
	! grep -v '^[[:space:]]*/\{0,1\}\*' "$out" | grep -E "$removed" >/dev/null
}

for k in $kernels; do
	refuse "$k"
	if [ $have_spatch = no ]; then
		skip "convert-$k" "spatch (Debian package coccinelle) not found"
		skip "build-$k" "spatch (Debian package coccinelle) not found"
		for p in $profiles; do
			skip "run-$k-$p" "spatch (Debian package coccinelle) not found"
		done
		continue
	fi
	if port "$k"; then
		ok "convert-$k: spatch leaves no API Linux $k removed"
		diff -u --label lab.c --label "lab-$k.c" "$here/lab.c" \
			"$tmp/lab-$k.c" | diag
	else
		not_ok "convert-$k: spatch leaves no API Linux $k removed"
		[ -f "$tmp/spatch-$k.log" ] && diag <"$tmp/spatch-$k.log"
	fi
	if $cc --dmaemu-kernel="$k" -g -I"$labs" -DLAB_FIXED \
		-o "$tmp/lab-$k" "$tmp/lab-$k.c" "$labs/lab.c" \
		-ldmaemu-devices >"$tmp/build-$k.log" 2>&1; then
		ok "build-$k: the port compiles and links at Linux $k"
		built=yes
	else
		not_ok "build-$k: the port compiles and links at Linux $k"
		diag <"$tmp/build-$k.log"
		built=no
	fi
	for p in $profiles; do
		want="lab: port-612 fixed on $p: data right, 0 reports"
		if [ $built = yes ] &&
			"$tmp/lab-$k" --profile "$p" >"$tmp/run.log" 2>&1 &&
			grep -Fx "$want" "$tmp/run.log" >/dev/null; then
			ok "run-$k-$p: $want"
		else
			not_ok "run-$k-$p: $want"
			[ -f "$tmp/run.log" ] && diag <"$tmp/run.log"
		fi
	done
	# forget: the statement after the comment that ends "engine to
	# fetch. */" (the descriptor's sync for the device) left out.
	fp=
	for p in $profiles; do
		[ "$p" = x86 ] || { fp=$p; break; }
	done
	if [ -n "$fp" ]; then
		awk 'skip { if (/;[[:space:]]*$/) skip = 0; next }
		     { print }
		     /engine to fetch\. \*\/$/ { skip = 1 }' "$tmp/lab-$k.c" \
			>"$tmp/forget-$k.c"
		if [ $built = yes ] &&
			! cmp -s "$tmp/lab-$k.c" "$tmp/forget-$k.c" &&
			$cc --dmaemu-kernel="$k" -g -I"$labs" -DLAB_FIXED \
				-o "$tmp/forget-$k" "$tmp/forget-$k.c" "$labs/lab.c" \
				-ldmaemu-devices >"$tmp/forget.log" 2>&1 &&
			"$tmp/forget-$k" --profile "$fp" >"$tmp/forget.log" 2>&1 &&
			grep -q '^SUMMARY: dmaemu: stale-device-read .*forget-[0-9.]*\.c:[0-9]* in ' \
				"$tmp/forget.log"; then
			ok "forget-$k: a port without the descriptor's sync is reported on $fp (stale-device-read)"
		else
			not_ok "forget-$k: a port without the descriptor's sync is reported on $fp (stale-device-read)"
			diag <"$tmp/forget.log"
		fi
	fi
	if [ -n "$LAB_KEEP" ] && mkdir -p "$LAB_KEEP"; then
		cp "$tmp/lab-$k.c" "$LAB_KEEP/"
		[ ! -f "$tmp/lab-$k" ] || cp "$tmp/lab-$k" "$LAB_KEEP/"
	fi
done
echo "1..$n"
exit $failed
