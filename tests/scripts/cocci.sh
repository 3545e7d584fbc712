#!/bin/sh
# cocci.sh - the semantic patches in cocci/ rewrite the removed APIs.
#
# Each tests/cocci/NAME.c holds call sites shaped like those of the 4.14
# removals (and of the 5.10 one: DMA_ATTR_NON_CONSISTENT and
# dma_cache_sync()); spatch must turn it into exactly tests/cocci/NAME.res,
# and a second run over the result must change nothing.
. "$top_srcdir/tests/runner/tap.sh"

[ -n "$SPATCH" ] && command -v "$SPATCH" >/dev/null 2>&1 ||
	skip_all "spatch (Debian package coccinelle) not found"

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

run() { # run COCCI INPUT OUTPUT
	"$SPATCH" --very-quiet -D patch --sp-file "$top_srcdir/cocci/$1.cocci" \
		"$2" -o "$3" >"$tmp/log" 2>&1
}

for pair in gfp_temporary:gfp_temporary dma_alloc_noncoherent:noncoherent \
	dma_noncoherent_510:noncoherent_510; do
	cocci=${pair%%:*}
	name=${pair#*:}
	case $name in
	noncoherent_510) removed='DMA_ATTR_NON_CONSISTENT\|dma_cache_sync(' ;;
	*) removed='GFP_TEMPORARY\|_noncoherent(' ;;
	esac
	in="$top_srcdir/tests/cocci/$name.c"
	want="$top_srcdir/tests/cocci/$name.res"
	if run "$cocci" "$in" "$tmp/$name.out" &&
		cmp -s "$want" "$tmp/$name.out"; then
		ok "$cocci.cocci rewrites $name.c"
	else
		not_ok "$cocci.cocci rewrites $name.c"
		diff -u "$want" "$tmp/$name.out" | sed 's/^/# /'
		sed 's/^/# /' "$tmp/log"
	fi
	cp "$tmp/$name.out" "$tmp/$name.again.c"
	if "$SPATCH" --very-quiet -D patch --in-place \
		--sp-file "$top_srcdir/cocci/$cocci.cocci" \
		"$tmp/$name.again.c" >"$tmp/log" 2>&1 &&
		cmp -s "$tmp/$name.out" "$tmp/$name.again.c"; then
		ok "$cocci.cocci leaves converted code alone"
	else
		not_ok "$cocci.cocci leaves converted code alone"
	fi
	if grep -v '^/\*' "$tmp/$name.out" | grep -q "$removed"; then
		not_ok "no removed API left in $name.c"
	else
		ok "no removed API left in $name.c"
	fi
done
done_testing
