#!/bin/sh
# examples.sh - the reference drivers of examples/, built with dmaemu-cc
# (instrumented) like out-of-tree code, run on every profile: each must
# get its data right and make no report.
. "$top_srcdir/tests/runner/tap.sh"

[ -n "$SANITIZER" ] &&
	skip_all "a --enable-sanitizer=$SANITIZER build cannot run instrumented drivers"
[ -x "$top_builddir/examples/copy-engine/copy-engine" ] ||
	skip_all "examples not built (the compiler has no kernel-address-sanitizer)"

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
for ex in copy-engine nic camera; do
	prog="$top_builddir/examples/$ex/$ex"
	for p in arm arm64 x86; do
		if DMAEMU_OPTIONS= "$prog" "$p" >"$tmp/out" 2>&1; then
			ok "$ex on $p: data right, no report"
		else
			not_ok "$ex on $p: data right, no report"
			sed 's/^/# /' "$tmp/out"
		fi
	done
done
done_testing
