#!/bin/sh
# format.sh - every C source and header is formatted as .clang-format says
# (tests/cocci holds inputs for spatch, shaped like kernel call sites).
. "$top_srcdir/tests/runner/tap.sh"

[ -n "$CLANG_FORMAT" ] && command -v "$CLANG_FORMAT" >/dev/null 2>&1 ||
	skip_all "clang-format not found"

cd "$top_srcdir" || exit 1
files=$(find cachesim lib include devices tools tests bench examples fuzz \
	-path tests/cocci -prune -o \( -name '*.c' -o -name '*.h' \) -print \
	2>/dev/null | sort)
[ -n "$files" ] || skip_all "no sources"
for f in $files; do
	if "$CLANG_FORMAT" --dry-run --Werror "$f" >/dev/null 2>&1; then
		ok "$f"
	else
		not_ok "$f is not formatted (run: clang-format -i $f)"
	fi
done
done_testing
