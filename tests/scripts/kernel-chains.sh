#!/bin/sh
# kernel-chains.sh - each kernel header dmaemu provides gives what Linux
# 4.14's header of that name gives through its include chain
# (docs/kernel-headers.md, "Include chains"):
#   - for every provided header, a generated program that includes only
#     that header and uses the sample of names 4.14 makes reachable through
#     it (tests/data/kernel-chains-4.14.txt, used as
#     tests/data/kernel-names.txt says) compiles with dmaemu-cc, by GCC
#     and by Clang when present, with -Wall -Werror;
#   - every provided header has a row, every name of the table says how it
#     is used;
#   - the names newer than 4.14 that the 4.14 level does not define
#     (tests/data/kernel-newer-names.txt) are not defined after including
#     every header;
#   - no kernel header reaches a host header under linux/ unless dmaemu's
#     header of that name includes it (#include_next) or
#     docs/kernel-headers.md lists it ("The host's UAPI headers a driver
#     reaches"): neither a driver's own #include (the names the C library
#     reaches have no guard) nor one of dmaemu's headers.
. "$top_srcdir/tests/runner/tap.sh"

top_builddir=$(cd "$top_builddir" && pwd)
dcc=$top_builddir/tools/dmaemu-cc
kdir=$top_srcdir/include/dmaemu/kernel
chains=$top_srcdir/tests/data/kernel-chains-4.14.txt
names=$top_srcdir/tests/data/kernel-names.txt
newer=$top_srcdir/tests/data/kernel-newer-names.txt
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kchains.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
unset DMAEMU_CC_KIND DMAEMU_CC_UNINSTALLED
[ -f "$top_builddir/include/dmaemu/kernel-guard/.count" ] ||
	skip_all "no guard headers built"
mode=
[ -n "$SANITIZER" ] && mode=--dmaemu-uninstrumented

# The table with its groups expanded: "header name name ..." per line.
awk -F '\t' '
	/^#/ || NF < 2 { next }
	{ n = split($2, w, " "); line[++nl] = $1; body[nl] = $2 }
	substr($1, 1, 1) == "@" { grp[$1] = $2 }
	function expand(s, depth,    i, n, w, out) {
		n = split(s, w, " ")
		out = ""
		for (i = 1; i <= n; i++) {
			if (substr(w[i], 1, 1) == "@") {
				if (!(w[i] in grp) || depth > 20) {
					print "unknown-group:" w[i] > "/dev/stderr"
					continue
				}
				out = out " " expand(grp[w[i]], depth + 1)
			} else
				out = out " " w[i]
		}
		return out
	}
	END {
		for (i = 1; i <= nl; i++) {
			if (substr(line[i], 1, 1) == "@")
				continue
			n = split(expand(body[i], 0), w, " ")
			delete seen
			out = line[i]
			for (j = 1; j <= n; j++)
				if (!(w[j] in seen)) {
					seen[w[j]] = 1
					out = out " " w[j]
				}
			print out
		}
	}' "$chains" >"$tmp/rows" 2>"$tmp/rows.err"
if [ -s "$tmp/rows.err" ]; then
	not_ok "the table's groups are all defined"
	sed 's/^/# /' "$tmp/rows.err"
else
	ok "the table's groups are all defined"
fi

# Every name of the table says how it is used.
missing=$(cut -d' ' -f2- "$tmp/rows" | tr ' ' '\n' | sort -u |
	awk -F '\t' 'NR == FNR { if (!/^#/) have[$1] = 1; next }
		$1 != "" && !($1 in have) { printf "%s ", $1 }' "$names" -)
if [ -z "$missing" ]; then
	ok "every name of the table is in kernel-names.txt"
else
	not_ok "every name of the table is in kernel-names.txt (missing: $missing)"
fi

headers=$(cd "$kdir" && find . -name '*.h' | sed 's|^\./||' | sort)
for h in $headers; do
	grep -q "^$h " "$tmp/rows" || not_ok "<$h> has a row in kernel-chains-4.14.txt"
done

# gen HEADER NAMES...: the program for one row (one awk for all names).
gen() {
	awk -F '\t' -v row="$*" '
		/^#/ || NF < 2 { next }
		{ use[$1] = $2 }
		END {
			n = split(row, w, " ")
			printf "#include <%s>\n", w[1]
			for (i = 2; i <= n; i++) {
				s = use[w[i]]
				if (substr(s, 1, 6) == "@file ")
					printf "/* %s */\n%s\n", w[i], substr(s, 7)
				else
					printf "/* %s */\nvoid chain_use_%d(void);\nvoid chain_use_%d(void)\n{\n\t%s\n}\n", w[i], i, i, s
			}
		}' "$names"
}

ccs=
for c in gcc clang; do
	if command -v $c >/dev/null 2>&1; then
		ccs="$ccs $c"
	else
		skip "$c: not installed"
	fi
done
while read -r h rest; do
	[ -e "$kdir/$h" ] || {
		not_ok "<$h> of the table is a header dmaemu provides"
		continue
	}
	f=$tmp/$(echo "$h" | tr '/.' '__').c
	# shellcheck disable=SC2086
	gen "$h" $rest >"$f"
	count=$(echo $rest | wc -w)
	for c in $ccs; do
		if CC=$c "$dcc" $mode -std=gnu11 -Wall -Werror -c -fsyntax-only \
			"$f" >"$tmp/log" 2>&1; then
			ok "$c: <$h> alone gives the $count names 4.14's chain gives"
		else
			not_ok "$c: <$h> alone gives the $count names 4.14's chain gives"
			grep 'error' "$tmp/log" | sed 's/^/# /' | head -15
		fi
	done
done <"$tmp/rows"

# Names newer than 4.14: not defined at the 4.14 level, whatever header
# brings them.
for h in $headers; do
	printf '#include <%s>\n' "$h"
done >"$tmp/all.c"
grep -v '^#' "$newer" | while IFS='	' read -r n since; do
	[ -n "$n" ] || continue
	printf '#if defined(%s)\n#error "%s (Linux %s) is defined at the 4.14 level"\n#endif\n' \
		"$n" "$n" "$since"
done >>"$tmp/all.c"
n=$(grep -cv '^#' "$newer")
if "$dcc" $mode -std=gnu11 -c -fsyntax-only "$tmp/all.c" >"$tmp/log" 2>&1; then
	ok "the $n names newer than 4.14 are not defined at the 4.14 level"
else
	not_ok "the $n names newer than 4.14 are not defined at the 4.14 level"
	grep 'error' "$tmp/log" | sed 's/^/# /' | head -20
fi
# ... and the check sees one when it is there.
printf '#include <linux/kernel.h>\n#define IRQF_NO_AUTOEN 1\n#if defined(IRQF_NO_AUTOEN)\n#error defined\n#endif\n' \
	>"$tmp/n.c"
check "the check fails on a defined name" \
	sh -c "! '$dcc' $mode -c -fsyntax-only '$tmp/n.c' 2>/dev/null"

# The host's headers under linux/ that docs/kernel-headers.md lets a
# driver reach, each with its reason.
doc=$top_srcdir/docs/kernel-headers.md
awk '/^### The host.s UAPI headers a driver reaches/ { on = 1; next }
	on && /^#/ { on = 0 }
	on' "$doc" | grep -o '`linux/[a-z0-9_/-]*\.h`' | tr -d '`' | sort -u \
	>"$tmp/listed"
check "docs/kernel-headers.md lists the host headers a driver may reach" \
	[ -s "$tmp/listed" ]
sysdirs=$(echo | ${CC:-cc} -E -Wp,-v - 2>&1 >/dev/null |
	sed -n 's/^ \(\/.*\)/\1/p')
# allowed NAME: listed, or the host half of a dmaemu header that includes
# it with #include_next.
allowed() {
	grep -qx "$1" "$tmp/listed" && return 0
	[ -e "$kdir/$1" ] && grep -q "^#include_next <$1>" "$kdir/$1"
}
# A driver's own #include of a name the C library reaches (no guard).
reached="$top_builddir/include/dmaemu/kernel-guard/.libc-reached"
bad=
for n in $(grep '^linux/' "$reached"); do
	[ -e "$kdir/$n" ] && continue
	grep -qx "$n" "$tmp/listed" || bad="$bad $n"
done
if [ -z "$bad" ]; then
	ok "every unguarded host linux/ header is dmaemu's or a listed choice"
else
	not_ok "every unguarded host linux/ header is dmaemu's or a listed choice (not:$bad)"
fi
# What dmaemu's headers reach, header by header (-H names every file).
bad=
for h in $headers; do
	printf '#include <%s>\n' "$h" >"$tmp/h.c"
	"$dcc" $mode -std=gnu11 -E -H "$tmp/h.c" -o /dev/null 2>"$tmp/h.log" ||
		bad="$bad <$h>:does-not-compile"
	for d in $sysdirs; do
		sed -n "s|^\.* $d/\(linux/.*\.h\)\$|\1|p" "$tmp/h.log"
	done | sort -u >"$tmp/h.host"
	while read -r n; do
		allowed "$n" || bad="$bad <$h>:$n"
	done <"$tmp/h.host"
done
if [ -z "$bad" ]; then
	ok "no kernel header reaches a host linux/ header that is not its own half or listed"
else
	not_ok "no kernel header reaches a host linux/ header that is not its own half or listed (found:$bad)"
fi
# <linux/if_ether.h> and <linux/stat.h> are dmaemu's, the host's behind.
for h in linux/if_ether.h linux/stat.h linux/stddef.h; do
	printf '#include <%s>\n' "$h" >"$tmp/h.c"
	"$dcc" $mode -E -H "$tmp/h.c" -o /dev/null 2>"$tmp/h.log"
	first=$(grep -m1 "/$h\$" "$tmp/h.log")
	case $first in
	". "*/include/dmaemu/kernel/$h)
		ok "<$h> is dmaemu's" ;;
	*)
		not_ok "<$h> is dmaemu's (first found: $first)" ;;
	esac
done
done_testing
