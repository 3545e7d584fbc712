#!/bin/sh
# gfp-temporary.sh - GFP_TEMPORARY, removed in Linux 4.14, is a compile
# error that names the replacement, with $CC and with clang, at -O0 and -O2,
# in a function and at file scope; GFP_KERNEL compiles.
. "$top_srcdir/tests/runner/tap.sh"

cc=${CC:-cc}
kdir="$top_srcdir/include/dmaemu/kernel"
msg='GFP_TEMPORARY was removed in Linux 4.14: use GFP_KERNEL'
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/temporary.c" <<'EOT'
#include <linux/slab.h>

void *get_buffer(void);
void *get_buffer(void)
{
	return kmalloc(64, GFP_TEMPORARY | __GFP_NOWARN);
}
EOT
cat >"$tmp/filescope.c" <<'EOT'
#include <linux/gfp.h>

const gfp_t default_gfp = GFP_TEMPORARY;
EOT
cat >"$tmp/kernel.c" <<'EOT'
#include <linux/slab.h>

const gfp_t default_gfp = GFP_KERNEL;
void *get_buffer(void);
void *get_buffer(void)
{
	return kmalloc(64, GFP_KERNEL | __GFP_NOWARN);
}
EOT

compile() { # compile COMPILER FILE OPT
	$1 -std=gnu11 $3 -Wall -I"$top_srcdir/include" -I"$kdir" \
		-c "$tmp/$2" -o "$tmp/out.o" >"$tmp/log" 2>&1
}

# The compile fails and the message names the replacement.
rejects() { # rejects COMPILER FILE OPT
	if compile "$1" "$2" "$3"; then
		diag "$1 $3 compiled $2"
		return 1
	fi
	grep -F "$msg" "$tmp/log" >/dev/null && return 0
	sed 's/^/# /' "$tmp/log"
	return 1
}

compilers=$cc
if command -v clang >/dev/null 2>&1; then
	case $($cc --version 2>/dev/null) in
	*clang*) ;;
	*) compilers="$compilers clang" ;;
	esac
fi

for c in $compilers; do
	for opt in -O0 -O2; do
		check "$c $opt: GFP_TEMPORARY in a function is an error naming GFP_KERNEL" \
			rejects "$c" temporary.c "$opt"
		check "$c $opt: GFP_TEMPORARY at file scope is an error naming GFP_KERNEL" \
			rejects "$c" filescope.c "$opt"
		check "$c $opt: GFP_KERNEL compiles" compile "$c" kernel.c "$opt"
	done
done
command -v clang >/dev/null 2>&1 || skip "clang not installed"
done_testing
