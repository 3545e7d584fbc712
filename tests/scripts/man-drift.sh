#!/bin/sh
# man-drift.sh - the manual pages say what the code does:
#   dmaemu(7)     lists every key of the option table of lib/core/options.c
#                 (and no other) with its default on the default profile,
#                 as help=1 prints them,
#                 a table of the defaults that differ between the profiles
#                 (all of them, right on every profile), option strings
#                 of its examples that make a machine, the library's own
#                 error lines, and every report kind of
#                 include/dmaemu/report.h (and no other);
#   cachesim(1)   lists exactly the options `cachesim --help` prints,
#                 spelled the same way, and the --version line;
#   dmaemu-cc(1)  the --dmaemu-* options and the environment variables
#                 tools/dmaemu-cc.in reads;
#   dmaemu-lab(1) the lab.conf fields of examples/labs/README.md and, when
#                 the runner is there, the environment variables it reads
#                 and the commands and options its usage prints.
. "$top_srcdir/tests/runner/tap.sh"

top_srcdir=$(cd "$top_srcdir" && pwd)
top_builddir=$(cd "$top_builddir" && pwd)
man=$top_srcdir/man
tmp=$(mktemp -d "${TMPDIR:-/tmp}/man-drift.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
unset DMAEMU_OPTIONS

# section FILE NAME: the lines of section .SH NAME of a page.
section() {
	awk -v name="$2" '
		/^\.SH / { s = $0; sub(/^\.SH +"?/, "", s); sub(/"$/, "", s)
			   on = (s == name); next }
		on' "$1"
}

# tags: the tag line of every .TP of the page on stdin, as text: the font
# macros' arguments joined as roff joins them (.B with spaces, the
# alternating ones without), fonts dropped, \- made -.
tags() {
	awk 'function args(l,   out, i, c, q, n) {
		out = ""; q = 0; n = 0
		for (i = 1; i <= length(l); i++) {
			c = substr(l, i, 1)
			if (c == "\"") { q = !q; continue }
			if (c == " " && !q) { n++; continue }
			if (n && out != "") out = out sep
			n = 0
			out = out c
		}
		return out
	}
	tp {
		if ($0 ~ /^\.(B|I) /) { sep = " "; sub(/^\.[BI] /, ""); print args($0) }
		else if ($0 ~ /^\.[BIR][BIR] /) { sep = ""; sub(/^\.[BIR][BIR] /, ""); print args($0) }
		else print
		tp = 0
	}
	/^\.TP/ { tp = 1 }' |
		sed -e 's/\\f[BIRP]//g' -e 's/\\-/-/g'
}

# same DESC WANT GOT: two sorted lists (files) are equal; the differences
# as diagnostics.
same() {
	if cmp -s "$2" "$3"; then
		ok "$1"
	else
		not_ok "$1"
		comm -23 "$2" "$3" | sed 's/^/# missing from the page: /'
		comm -13 "$2" "$3" | sed 's/^/# on the page only: /'
	fi
}

# ---------------------------------------------------------------------
# dmaemu(7) and the option table.

opts_c=$top_srcdir/lib/core/options.c
page7=$man/dmaemu.7.in

# The keys: the first string of each entry [K_...] = {"name", ...} of
# keys[] (clang-format may break the line after the =).
awk '/^static const struct opt_key keys\[/ { on = 1; next }
     on && /^};/ { exit }
     on { printf "%s ", $0 }' "$opts_c" |
	sed 's/\[K_[A-Z0-9_]*\][[:space:]]*=[[:space:]]*{[[:space:]]*"\([^"]*\)"/\n@\1\n/g' |
	sed -n 's/^@//p' | sort >"$tmp/keys"
nkeys=$(awk '/^enum \{/ { on = 1; next } on && /K_NKEYS/ { exit }
	on && /^[[:space:]]*K_[A-Z0-9_]*,/ { n++ } END { print n + 0 }' "$opts_c")
check "options.c: the key names of keys[] are read ($nkeys keys)" \
	[ "$nkeys" -gt 0 -a "$(wc -l <"$tmp/keys")" -eq "$nkeys" ]

section "$page7" OPTIONS | tags | sed -n 's/^\([a-z0-9_]*\)=\(.*\)$/\1 \2/p' |
	sort >"$tmp/tagged"
cut -d' ' -f1 "$tmp/tagged" >"$tmp/tagkeys"
same "dmaemu(7) OPTIONS lists every key of lib/core/options.c, and no other" \
	"$tmp/keys" "$tmp/tagkeys"

vals=$top_builddir/tests/scripts/option-values
if [ ! -x "$vals" ]; then
	not_ok "tests/scripts/option-values is built"
else
	profiles=$(sed -n 's/^[[:space:]]*\[DMAEMU__PROFILE_[A-Z0-9]*\] = "\([a-z0-9]*\)",/\1/p' \
		"$opts_c" | tr '\n' ' ' | sed 's/ $//')
	for p in $profiles; do
		"$vals" "$p" $(cat "$tmp/keys") >"$tmp/values.$p" 2>&1 ||
			not_ok "option-values $p: $(head -n 1 "$tmp/values.$p")"
	done
	# The tags give the default on the default profile (arm64); a tag
	# "key=<italic placeholder>" stands for an empty value.
	sed -n 's/^\([a-z0-9_]*\)=\(.*\)$/\1 \2/p' "$tmp/values.arm64" |
		sort >"$tmp/defaults"
	# A tag in bold is KEY=DEFAULT; KEY=<italic placeholder> (.BI) stands
	# for an empty default.
	section "$page7" OPTIONS | awk 'tp { print; tp = 0 } /^\.TP/ { tp = 1 }' |
		sed -n -e 's/^\.B \([a-z0-9_]*\)=\([^ ]*\)$/\1 \2/p' \
			-e 's/^\.BI \([a-z0-9_]*\)= .*/\1 /p' |
		sed 's/\\-/-/g' | sort >"$tmp/stated"
	same "dmaemu(7) states the default of every key on arm64" \
		"$tmp/defaults" "$tmp/stated"
	# help=1 prints the same keys with the same defaults, each with
	# what it does.
	DMAEMU_OPTIONS=help=1 "$vals" arm64 >"$tmp/help" 2>&1
	sed -n 's/^    \([a-z0-9_]*\)=\([^ ]*\)  *[^ ].*$/\1 \2/p' "$tmp/help" |
		sort >"$tmp/helped"
	same "help=1 lists every key with its default on arm64 and a meaning" \
		"$tmp/defaults" "$tmp/helped"

	# The table of PROFILES: "option<TAB>arm<TAB>arm64<TAB>x86" then one
	# row per key whose default differs between the profiles.
	section "$page7" PROFILES | awk '/^\.TS/ { on = 1; next }
		/^\.TE/ { on = 0 } on && /\t/' >"$tmp/table"
	header=$(head -n 1 "$tmp/table" | cut -f2- | tr '\t' ' ')
	check "dmaemu(7) PROFILES table has a column per profile ($profiles)" \
		[ -n "$profiles" ] && [ "$header" = "$profiles" ]
	: >"$tmp/differ"
	for k in $(grep -v '^profile$' "$tmp/keys"); do
		n=$(for p in $profiles; do grep "^$k=" "$tmp/values.$p"; done |
			sort -u | wc -l)
		[ "$n" -gt 1 ] && echo "$k" >>"$tmp/differ"
	done
	tail -n +2 "$tmp/table" | cut -f1 | sort >"$tmp/rows"
	same "dmaemu(7) PROFILES table has every key (but profile) whose default differs between profiles" \
		"$tmp/differ" "$tmp/rows"
	col=2
	for p in $profiles; do
		tail -n +2 "$tmp/table" | cut -f1,$col | tr '\t' '=' |
			sort >"$tmp/tbl.$p"
		grep -F -x -f "$tmp/tbl.$p" "$tmp/values.$p" | sort >"$tmp/match.$p"
		same "dmaemu(7) PROFILES table: the defaults on $p" \
			"$tmp/tbl.$p" "$tmp/match.$p"
		col=$((col + 1))
	done
fi

# The option strings of EXAMPLES make a machine; the error lines quoted
# under OPTIONS are the library's, word for word.
if [ -x "$vals" ]; then
	section "$page7" EXAMPLES | sed -n 's/^DMAEMU_OPTIONS=\([^ ]*\) .*/\1/p' |
		sed 's/\\-/-/g' >"$tmp/examples"
	check "dmaemu(7) EXAMPLES set DMAEMU_OPTIONS" [ -s "$tmp/examples" ]
	while read -r o; do
		# A log file of an example goes to the test's directory.
		o=$(echo "$o" | sed "s|log_path=/tmp/|log_path=$tmp/|")
		if DMAEMU_OPTIONS=$o "$vals" arm64 seed >"$tmp/out" 2>&1; then
			ok "dmaemu(7) example DMAEMU_OPTIONS=$o makes a machine"
		else
			not_ok "dmaemu(7) example DMAEMU_OPTIONS=$o makes a machine"
			sed 's/^/# /' "$tmp/out"
		fi
	done <"$tmp/examples"
	section "$page7" OPTIONS | sed -n 's/^dmaemu: .*/&/p' |
		sed -e 's/\\(aq/'"'"'/g' -e 's/\\-/-/g' >"$tmp/errors"
	check "dmaemu(7) OPTIONS quotes error lines" [ -s "$tmp/errors" ]
	while read -r line; do
		kv=$(echo "$line" | sed -n \
			-e "s/.*unknown option '\([^']*\)'.*/\1=1/p" \
			-e "s/.*bad value '\([^']*\)' for '\([^']*\)'.*/\2=\1/p")
		case $line in
		"dmaemu: DMAEMU_OPTIONS: "*)
			DMAEMU_OPTIONS=$kv "$vals" arm64 seed >"$tmp/out" 2>&1 ;;
		*) "$vals" "arm64:$kv" seed >"$tmp/out" 2>&1 ;;
		esac
		if [ -n "$kv" ] && grep -qxF "$line" "$tmp/out"; then
			ok "dmaemu(7): '$line' is the library's message"
		else
			not_ok "dmaemu(7): '$line' is the library's message"
			sed 's/^/# got: /' "$tmp/out"
		fi
	done <"$tmp/errors"
fi

# The report kinds: X(ID, "name") of DMAEMU_REPORT_KINDS.
sed -n 's/^[[:space:]]*X([A-Z0-9_]*, *"\([a-z0-9-]*\)").*/\1/p' \
	"$top_srcdir/include/dmaemu/report.h" | sort >"$tmp/kinds"
nx=$(grep -c '^[[:space:]]*X(' "$top_srcdir/include/dmaemu/report.h")
check "report.h: the kinds are read ($nx)" \
	[ "$nx" -gt 0 -a "$(wc -l <"$tmp/kinds")" -eq "$nx" ]
section "$page7" REPORTS | tags | grep -x '[a-z0-9-]*' |
	sort >"$tmp/pkinds"
same "dmaemu(7) REPORTS lists every kind of include/dmaemu/report.h, and no other" \
	"$tmp/kinds" "$tmp/pkinds"

# ---------------------------------------------------------------------
# cachesim(1) and cachesim --help.

cs=$top_builddir/cachesim/cachesim
if [ ! -x "$cs" ]; then
	not_ok "cachesim/cachesim is built"
else
	# An option line of the help: 4 to 8 spaces, the option, two spaces
	# or more, its meaning.
	"$cs" --help | sed -n 's/^ \{4,8\}\(-\{1,2\}[A-Za-z].*\)$/\1/p' |
		sed 's/  .*//' | sort >"$tmp/csopts"
	check "cachesim --help lists options ($(wc -l <"$tmp/csopts"))" \
		[ -s "$tmp/csopts" ]
	section "$man/cachesim.1.in" OPTIONS | tags | grep '^-' |
		sort >"$tmp/csman"
	same "cachesim(1) OPTIONS are those of cachesim --help, spelled the same" \
		"$tmp/csopts" "$tmp/csman"
	v=$("$cs" --version)
	if [ -f "$top_builddir/man/cachesim.1" ] &&
		sed 's/\\-/-/g' "$top_builddir/man/cachesim.1" | grep -qF "$v"; then
		ok "cachesim(1) shows the --version line '$v'"
	else
		not_ok "cachesim(1) shows the --version line '$v'"
	fi
fi

# ---------------------------------------------------------------------
# dmaemu-cc(1) and tools/dmaemu-cc.in.

ccin=$top_srcdir/tools/dmaemu-cc.in
pagecc=$man/dmaemu-cc.1.in
grep -o -e '--dmaemu-[a-z-]*' "$ccin" | sort -u >"$tmp/ccopts"
section "$pagecc" OPTIONS | tags | sort -u >"$tmp/ccmanopts"
check "dmaemu-cc.in has --dmaemu- options" [ -s "$tmp/ccopts" ]
same "dmaemu-cc(1) OPTIONS: the --dmaemu- options of dmaemu-cc.in" \
	"$tmp/ccopts" "$tmp/ccmanopts"
grep -v '^[[:space:]]*#' "$ccin" | grep -o '\${\{0,1\}[A-Z][A-Z0-9_]*' |
	tr -d '${' | sort -u >"$tmp/ccenv"
section "$pagecc" ENVIRONMENT | tags | sort -u >"$tmp/ccmanenv"
check "dmaemu-cc.in reads environment variables" [ -s "$tmp/ccenv" ]
same "dmaemu-cc(1) ENVIRONMENT: the variables dmaemu-cc.in reads" \
	"$tmp/ccenv" "$tmp/ccmanenv"

# ---------------------------------------------------------------------
# dmaemu-lab(1), examples/labs/README.md and the runner.

pagelab=$man/dmaemu-lab.1.in
# The lab.conf block of the README: indented "name=" lines; expect_<p>
# and data_<p> (and their _612 forms) stand for one field each.
readme=$top_srcdir/examples/labs/README.md
if [ -f "$readme" ]; then
	sed -n 's/^ \{4,\}\([a-z_0-9]*\)=.*/\1/p' "$readme" |
		sed 's/_\(arm\|arm64\|x86\)\(_612\)\{0,1\}$/_/' | sort -u >"$tmp/conf"
	section "$pagelab" FILES | awk 'tp { print; tp = 0 } /^\.TP/ { tp = 1 }' |
		sed -n -e 's/^\.BI \([a-z_0-9]*\)=\{0,1\} .*/\1/p' \
			-e 's/^\.B \([a-z_0-9]*\)=.*/\1/p' | sort -u >"$tmp/manconf"
	check "examples/labs/README.md describes lab.conf fields" [ -s "$tmp/conf" ]
	comm -23 "$tmp/conf" "$tmp/manconf" >"$tmp/confmissing"
	if [ -s "$tmp/conf" ] && [ ! -s "$tmp/confmissing" ]; then
		ok "dmaemu-lab(1) FILES: every lab.conf field of examples/labs/README.md"
	else
		not_ok "dmaemu-lab(1) FILES: every lab.conf field of examples/labs/README.md"
		sed 's/^/# missing from the page: /' "$tmp/confmissing"
	fi
else
	skip "examples/labs/README.md is not in this tree"
fi

labin=$top_srcdir/tools/dmaemu-lab.in
if [ -f "$labin" ]; then
	grep -v '^[[:space:]]*#' "$labin" |
		grep -o 'DMAEMU_LAB_[A-Z0-9_]*\|NO_COLOR' | sort -u >"$tmp/labenv"
	section "$pagelab" ENVIRONMENT | tags | sort -u >"$tmp/labmanenv"
	comm -23 "$tmp/labenv" "$tmp/labmanenv" >"$tmp/envmissing"
	if [ ! -s "$tmp/envmissing" ]; then
		ok "dmaemu-lab(1) ENVIRONMENT: the variables dmaemu-lab.in reads"
	else
		not_ok "dmaemu-lab(1) ENVIRONMENT: the variables dmaemu-lab.in reads"
		sed 's/^/# missing from the page: /' "$tmp/envmissing"
	fi
else
	skip "tools/dmaemu-lab.in is not in this tree"
fi
lab=$top_builddir/tools/dmaemu-lab
if [ -x "$lab" ]; then
	"$lab" --help >"$tmp/labusage" 2>&1
	sed -n 's/^.*dmaemu-lab \([a-z][a-z]*\).*/\1/p' "$tmp/labusage" |
		sort -u >"$tmp/labcmds"
	grep -o -E '(^|[[ |])--?[a-z][a-z-]*' "$tmp/labusage" |
		sed 's/^[[ |]*//' | sort -u >"$tmp/labopts"
	section "$pagelab" COMMANDS | tags | sed 's/ .*//' | sort -u \
		>"$tmp/labmancmds"
	section "$pagelab" OPTIONS | tags | sed 's/ .*//' | sort -u \
		>"$tmp/labmanopts"
	check "dmaemu-lab usage lists commands" [ -s "$tmp/labcmds" ]
	same "dmaemu-lab(1) COMMANDS: those of dmaemu-lab's usage" \
		"$tmp/labcmds" "$tmp/labmancmds"
	same "dmaemu-lab(1) OPTIONS: those of dmaemu-lab's usage" \
		"$tmp/labopts" "$tmp/labmanopts"
else
	skip "tools/dmaemu-lab is not built in this tree"
fi
done_testing
