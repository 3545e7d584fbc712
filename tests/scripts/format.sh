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
# One clang-format for every file (a process per file took a minute): a
# file it would change is named in its diagnostics, "FILE:LINE:COL: error:".
bad=$("$CLANG_FORMAT" --dry-run --Werror --ferror-limit=1 $files 2>&1 >/dev/null)
status=$?
violations=$(printf '%s\n' "$bad" |
	sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: error: .*/\1/p' | sort -u)
if [ $status -ne 0 ] && [ -z "$violations" ]; then
	not_ok "clang-format ran (status $status)"
	printf '%s\n' "$bad" | head -20 | sed 's/^/# /'
fi
for f in $files; do
	if printf '%s\n' "$violations" | grep -qxF "$f"; then
		not_ok "$f is not formatted (run: clang-format -i $f)"
	else
		ok "$f"
	fi
done
done_testing
