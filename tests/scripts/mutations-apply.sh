#!/bin/sh
# mutations-apply.sh - every line of tools/mutations.txt still applies: its
# pattern matches exactly once in the file it names.  A refactoring that
# moves the code a mutation targets otherwise leaves `make mutate` failing
# unnoticed until someone runs it.  The last step feeds the checker a list
# with a pattern that matches nothing and expects it refused, so this test
# cannot pass by checking nothing.
. "$top_srcdir/tests/runner/tap.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 not found"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
mutate="$top_srcdir/tools/mutate.sh"

plan 2
if out=$("$mutate" -n 2>&1); then
	ok "every mutation of tools/mutations.txt applies: $(echo "$out" | tail -n 1)"
else
	echo "$out" | grep NOT-APPLIED | sed 's/^/# /'
	not_ok "some mutations no longer apply"
fi

printf 'gone @@ lib/mem/physmem.c @@ physmem @@ no such text in physmem @@ x\n' \
	>"$tmp/list"
if "$mutate" -n -l "$tmp/list" >"$tmp/out" 2>&1; then
	not_ok "a mutation whose pattern matches nothing is refused"
else
	grep -q NOT-APPLIED "$tmp/out" &&
		ok "a mutation whose pattern matches nothing is refused" ||
		not_ok "a mutation whose pattern matches nothing is refused (no NOT-APPLIED line)"
fi
