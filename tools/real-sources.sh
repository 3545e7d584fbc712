#!/bin/sh
# real-sources.sh - compile every C source under the given directories with
# dmaemu-cc, against dmaemu's kernel headers alone, and print a table:
# file, result, first error (docs/kernel-headers.md, "Real driver
# sources").  For sources dmaemu cannot ship, such as a kernel tree's
# drivers/net/ethernet: the count of those that compile, and what stops
# the others, is reproduced on the user's own copy.
#
# Usage: real-sources.sh [--level=4.14|6.12] [--cc=COMPILER]
#                        [--dmaemu-cc=PATH] DIR... [-- COMPILER-ARGS...]
#
#   --level=VERSION   the API level of the headers (dmaemu-cc
#                     --dmaemu-kernel=VERSION; default 4.14)
#   --cc=COMPILER     the compiler dmaemu-cc runs (its CC; default: CC or
#                     cc)
#   --dmaemu-cc=PATH  the wrapper (default: DMAEMU_CC, or dmaemu-cc found
#                     in PATH)
#   -- ARGS           more compiler arguments for every file (-DDEBUG, a
#                     folder of stubs with -I: the table then counts with
#                     them)
#
# Each file is compiled alone, as `dmaemu-cc -std=gnu11 -c`, from its own
# folder (its quoted includes resolve there); no folder of the tree is
# added.  The table has one line per file, sorted, tab-separated:
#   FILE <TAB> compiles|fails <TAB> FIRST ERROR (file:line: message)
# and ends with "N of M compile".  Exit status: 0 when every file was
# tried (whatever the results), 1 when no C source was found, 2 on a
# usage error.

usage() {
	sed -n '/^# Usage:/,/^# Each file/{/^# Each file/d; s/^# \{0,1\}//; p; }' "$0"
}

level=4.14
dcc=${DMAEMU_CC:-}
cc=${CC:-cc}
dirs=
while [ $# -gt 0 ]; do
	case $1 in
	--level=4.14 | --level=6.12) level=${1#--level=} ;;
	--level=*)
		echo "real-sources.sh: unknown level '${1#--level=}'" \
			"(expected 4.14 or 6.12)" >&2
		exit 2
		;;
	--cc=*) cc=${1#--cc=} ;;
	--dmaemu-cc=*) dcc=${1#--dmaemu-cc=} ;;
	-h | --help)
		usage
		exit 0
		;;
	--)
		shift
		break
		;;
	-*)
		echo "real-sources.sh: unknown option '$1'" >&2
		usage >&2
		exit 2
		;;
	*)
		if [ ! -d "$1" ]; then
			echo "real-sources.sh: '$1' is not a directory" >&2
			exit 2
		fi
		dirs="$dirs
$1"
		;;
	esac
	shift
done
if [ -z "$dirs" ]; then
	echo "real-sources.sh: no directory given" >&2
	usage >&2
	exit 2
fi
if [ -z "$dcc" ]; then
	dcc=$(command -v dmaemu-cc 2>/dev/null) || {
		echo "real-sources.sh: dmaemu-cc not found: give --dmaemu-cc=PATH" >&2
		exit 2
	}
fi
case $dcc in
/*) ;;
*/*) dcc=$(cd "$(dirname "$dcc")" && pwd)/$(basename "$dcc") ;;
esac
if [ ! -x "$dcc" ]; then
	echo "real-sources.sh: '$dcc' is not an executable dmaemu-cc" >&2
	exit 2
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/realsrc.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

# The files, each once, sorted (a newline-separated list: names with
# spaces work, names with newlines are not supported).
echo "$dirs" | while IFS= read -r d; do
	[ -n "$d" ] && find "$d" -type f -name '*.c'
done | sort -u >"$tmp/files"
total=$(wc -l <"$tmp/files")
if [ "$total" -eq 0 ]; then
	echo "real-sources.sh: no C source under the given directories" >&2
	exit 1
fi

# first_error BASE: the first error of the log on stdin as "BASE:LINE:
# message": its own line when it is in the file, else the file's line
# whose #include led to it; a guard's message without its advice.
first_error() {
	awk -v base="$1" '
		function inc_line(s,    i, rest) {
			i = index(s, " " base ":")
			if (!i)
				return ""
			rest = substr(s, i + 1)
			sub(/:[^0-9].*$/, "", rest)
			sub(/:$/, "", rest)
			return rest
		}
		/In file included from|^ +from / {
			l = inc_line($0)
			if (l != "" && chain == "")
				chain = l
			next
		}
		/(fatal )?error:/ {
			msg = $0
			sub(/^.*(fatal )?error: (#error )?/, "", msg)
			sub(/^"/, "", msg); sub(/"$/, "", msg)
			sub(/: put a stub .*$/, "", msg)
			loc = $0
			sub(/: (fatal )?error:.*$/, "", loc)
			n = split(loc, p, ":")
			if (p[1] == base)
				where = base ":" p[2]
			else if (chain != "")
				where = chain
			else
				where = loc
			print where ": " msg
			found = 1
			exit
		}
		{ if (first == "") first = $0 }
		END { if (!found && first != "") print first }'
}

printf 'file\tresult\tfirst error\n'
ok=0
while IFS= read -r f; do
	dir=$(dirname "$f")
	base=$(basename "$f")
	if (cd "$dir" && CC=$cc "$dcc" --dmaemu-kernel="$level" -std=gnu11 \
		-c -o "$tmp/out.o" "$base" "$@") >"$tmp/log" 2>&1; then
		ok=$((ok + 1))
		printf '%s\tcompiles\t\n' "$f"
	else
		first=$(first_error "$base" <"$tmp/log")
		printf '%s\tfails\t%s\n' "$f" "$first"
	fi
done <"$tmp/files"
echo "$ok of $total compile (dmaemu-cc --dmaemu-kernel=$level, CC=$cc)"
exit 0
