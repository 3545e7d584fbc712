#!/bin/sh
# docs.sh - the documentation stands alone: no file of the project points
# to a design document the project does not ship, and every link of a
# Markdown page to another file of the tree, and every docs/... name in
# the docs, the manual pages, the code and the tests, names a file that
# is there.  (install.sh checks that docs/ is installed.)
. "$top_srcdir/tests/runner/tap.sh"

cd "$top_srcdir" || exit 1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# The files of the project: its sources, not a build's outputs.
find . \( -name '_build*' -o -name .git -o -name autom4te.cache \
	-o -path ./include/dmaemu/kernel-guard \) -prune -o -type f \
	\( -name '*.md' -o -name '*.[ch]' -o -name '*.in' -o -name '*.sh' \
	-o -name '*.mk' -o -name '*.ac' -o -name 'Makefile.am' \) -print |
	sed 's|^\./||' | sort >"$tmp/files"
check "the project's files are found ($(wc -l <"$tmp/files"))" \
	[ "$(wc -l <"$tmp/files")" -gt 100 ]

# A design document of the project's own history, not shipped.
xargs grep -l 'DESIGN[.]md' <"$tmp/files" >"$tmp/design" 2>/dev/null
if [ -s "$tmp/design" ]; then
	not_ok "no file points to a design document (DESIGN[.]md) the project lacks"
	sed 's/^/# /' "$tmp/design"
else
	ok "no file points to a design document (DESIGN[.]md) the project lacks"
fi

# Relative links of the Markdown pages: [text](path) and
# [text](path#anchor), to a file or folder that is there.
: >"$tmp/badlinks"
for f in $(grep '\.md$' "$tmp/files"); do
	d=$(dirname "$f")
	grep -o '\](\([^)#:]*\)[)#]' "$f" | sed 's/^](//; s/[)#]$//' |
		while read -r l; do
			[ -z "$l" ] || [ -e "$d/$l" ] || echo "$f: $l"
		done >>"$tmp/badlinks"
done
if [ -s "$tmp/badlinks" ]; then
	not_ok "every relative link of a Markdown page names a file of the tree"
	sed 's/^/# /' "$tmp/badlinks"
else
	ok "every relative link of a Markdown page names a file of the tree"
fi

# docs/NAME.md wherever it is named: in the docs, the manual pages, the
# code, the tests.
xargs grep -oh 'docs/[a-z0-9/-]*[a-z0-9]\.md' <"$tmp/files" 2>/dev/null |
	sort -u >"$tmp/named"
check "docs/ pages are named ($(wc -l <"$tmp/named"))" [ -s "$tmp/named" ]
while read -r n; do
	[ -f "$n" ] || echo "$n"
done <"$tmp/named" >"$tmp/missing"
if [ -s "$tmp/missing" ]; then
	not_ok "every docs/... page named in the project is there"
	sed 's/^/# missing: /' "$tmp/missing"
else
	ok "every docs/... page named in the project is there"
fi

# The model every page builds on is one page of docs/.
check "docs/model.md explains the three copies" \
	grep -q '^## Three copies of each byte' docs/model.md
done_testing
