#!/bin/sh
# api-public.sh - the API suites (tests/api/), the runner they share
# (tests/runner/), the device models (devices/) and the examples
# (examples/) use the installed headers only: no private header of lib/
# ("core/core.h", "dma/dma.h", ...), no internal dmaemu__ name, no field of
# a private struct.  What tests need to look inside the model is
# <dmaemu/testing.h>.
. "$top_srcdir/tests/runner/tap.sh"

layers="base core mem cpu mm bus dma net check"
files=$(cd "$top_srcdir" && ls tests/api/*.c tests/runner/*.c tests/runner/*.h \
	devices/*.c examples/*/*.c examples/*/*.h include/dmaemu/devices/*.h \
	2>/dev/null)
[ -n "$files" ] || skip_all "no API suites"
for f in $files; do
	bad=
	for l in $layers; do
		grep -q "#include *\"$l/$l\\.h\"" "$top_srcdir/$f" &&
			bad="$bad $l/$l.h"
	done
	grep -q 'dmaemu__\|DMAEMU__' "$top_srcdir/$f" && bad="$bad dmaemu__names"
	if [ -z "$bad" ]; then
		ok "$f uses public headers only"
	else
		not_ok "$f uses public headers only (found:$bad)"
		grep -n 'dmaemu__\|DMAEMU__\|#include *"[a-z]*/[a-z]*\.h"' \
			"$top_srcdir/$f" | head -5 | sed 's/^/# /'
	fi
done
done_testing
