#!/usr/bin/env bash
# driver-mutants.sh - mutation test of the reference drivers: does dmaemu
# report it when a driver leaves out a sync, an unmap, a mapping-error
# check or a barrier?
#
#   tools/driver-mutants.sh [-b BUILDDIR] [-p PROFILES] [-l SEEDS]
#                           [-k KNOWN] [-q] [-v] [FILE...]
#
#   -b BUILDDIR  the build tree (its tools/dmaemu-cc builds the mutants;
#                default: the current directory when it has one, else
#                _build of the source tree)
#   -p PROFILES  the profiles to run each mutant on (default "arm64 x86")
#   -l SEEDS     also run each mutant with sched=lockstep and each of
#                these seeds (e.g. "1 2 3"; default: none)
#   -k KNOWN     the list of mutants known not to be reported (default:
#                tools/driver-mutants.known; its header gives the format)
#   -q           the summary and the mutants that fail only, no table
#   -v           also list the deletions in code the build leaves out
#   FILE...      mutate only these driver files (paths from the source
#                tree's top, e.g. examples/nic/nic-driver.c; default: all)
#
# The drivers: the reference drivers of examples/ (nic, copy-engine,
# checksum, legacy, display: each driver file with its main.c; the main.c
# of checksum and legacy too, which share a buffer between two devices
# and hand a bounced buffer back and forth with syncs), and the C files of every lab of
# examples/labs/ that is built (not kind=script), with -DLAB_FIXED: the
# fixed variant, which must get its data right without a report.
#
# A mutant deletes one call of dma_sync_*(), dma_unmap_*(),
# dma_mapping_error(), wmb(), dma_wmb(), rmb(), dma_rmb() or mb(): a call
# that is a statement becomes ((void)0), a call inside an expression (if
# (dma_mapping_error(...))) becomes 0.  A mutant whose preprocessed code
# is the driver's own (the call is in an #ifdef block the build leaves
# out) is not counted.  Each mutant is built with dmaemu-cc as
# examples/local.mk and dmaemu-lab build the drivers, run on each profile
# (with the default options; and once per -l seed with sched=lockstep),
# and classified, per profile:
#
#   reported    a run printed a report (SUMMARY: dmaemu: KIND)
#   unreported  a run's behaviour changed (wrong data, a failure exit, a
#               crash or a timeout) with no report
#   equivalent  no run changed and none reported
#
# (unreported wins over reported: a race that one run reports and another
# does not is a gap).  The table gives file:line, the deleted call, the
# profile, the outcome and the report kinds; the summary line counts the
# (mutant, profile) pairs: "N mutants, R reported, U unreported behaviour
# changes, E equivalent".
#
# Exit status: 0 when every pair is reported or is listed in KNOWN with
# its outcome; 1 when one is not (NEW), or a KNOWN entry no longer holds
# (STALE: the outcome changed, or the mutant is gone); 2 for a usage or
# setup error (an unmutated driver that does not build or is not clean).
# DRIVER_MUTANTS_TIMEOUT (seconds, default 60) bounds each run; a timeout
# is a behaviour change.  DRIVER_MUTANTS_OPTIONS gives every run machine
# options (DMAEMU_OPTIONS, docs/options.md; e.g. swiotlb=force): a driver
# that is not clean with them unmutated is then left out, with a message.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
build=
profiles="arm64 x86"
seeds=
known=$top/tools/driver-mutants.known
quiet=0
verbose=0
usage() {
	sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
	exit 2
}
while getopts "b:p:l:k:qvh" opt; do
	case $opt in
	b) build=$OPTARG ;;
	p) profiles=$OPTARG ;;
	l) seeds=$OPTARG ;;
	k) known=$OPTARG ;;
	q) quiet=1 ;;
	v) verbose=1 ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
die() {
	echo "driver-mutants: $*" >&2
	exit 2
}
if [ -z "$build" ]; then
	if [ -x tools/dmaemu-cc ]; then build=.; else build=$top/_build; fi
fi
cc=$(cd "$build" 2>/dev/null && pwd)/tools/dmaemu-cc
[ -x "$cc" ] || die "no dmaemu-cc in $build/tools (build the tree first, or -b)"
[ -f "$known" ] || die "no list of known mutants $known"
command -v python3 >/dev/null || die "needs python3 (to find the calls)"
for p in $profiles; do
	case $p in arm | arm64 | x86) ;; *) die "unknown profile '$p'" ;; esac
done
for s in $seeds; do
	case $s in '' | *[!0-9]*) die "a seed is a number, not '$s'" ;; esac
done
limit=${DRIVER_MUTANTS_TIMEOUT:-60}
run_with=
command -v timeout >/dev/null 2>&1 && run_with="timeout $limit"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/driver-mutants.XXXXXX") || die "no temporary directory"
trap 'rm -rf "$tmp"' EXIT
trap 'rm -rf "$tmp"; exit 130' INT TERM

# The mutation helper: `list FILE` prints one line per call that can be
# deleted (ID, line, call, tab-separated; ID is FUNCTION:CALL#N, the Nth
# call of that name in the function, which stays put when lines move);
# `apply FILE N OUT` writes FILE with the Nth of them deleted to OUT.
# Comments, strings and preprocessor lines are not code: a call named in
# them is not a call.
cat >"$tmp/mutate.py" <<'EOF'
import re, sys

CALLS = re.compile(r'\b(dma_sync_\w+|dma_unmap_\w+|dma_mapping_error|'
                   r'dma_wmb|dma_rmb|wmb|rmb|mb)\s*\(')
NOT_NAMES = {'if', 'for', 'while', 'switch', 'return', 'sizeof',
             '__attribute__', 'defined'}

def mask(src):
    """src with comments, string and character literals and preprocessor
    lines blanked (newlines kept), so offsets and lines stay the same."""
    out = list(src)
    i, n, bol = 0, len(src), True
    def blank(a, b):
        for k in range(a, b):
            if out[k] != '\n':
                out[k] = ' '
    while i < n:
        c = src[i]
        if bol and c == '#':
            j = i
            while j < n and not (src[j] == '\n' and src[j - 1] != '\\'):
                j += 1
            blank(i, j)
            i = j
            continue
        if c == '\n':
            bol = True
            i += 1
            continue
        if not c.isspace():
            bol = False
        if src.startswith('//', i):
            j = src.find('\n', i)
            j = n if j < 0 else j
            blank(i, j)
            i = j
        elif src.startswith('/*', i):
            j = src.find('*/', i + 2)
            j = n if j < 0 else j + 2
            blank(i, j)
            i = j
        elif c in '"\'':
            j = i + 1
            while j < n and src[j] != c:
                j += 2 if src[j] == '\\' else 1
            blank(i + 1, j)
            i = j + 1
        else:
            i += 1
    return ''.join(out)

def functions(m):
    """(start, end, name) of each top-level brace block that follows a
    declarator with a name and parameters."""
    res, depth, seg_start = [], 0, 0
    for k, c in enumerate(m):
        if c == '{':
            if depth == 0:
                name = None
                for mm in re.finditer(r'\b([A-Za-z_]\w*)\s*\(', m[seg_start:k]):
                    if mm.group(1) not in NOT_NAMES:
                        name = mm.group(1)
                        break
                start = k
            depth += 1
        elif c == '}':
            depth -= 1
            if depth == 0:
                res.append((start, k, name or '-'))
                seg_start = k + 1
        elif c == ';' and depth == 0:
            seg_start = k + 1
    return res

def calls(src):
    m = mask(src)
    funcs = functions(m)
    seen, res = {}, []
    for mm in CALLS.finditer(m):
        name = mm.group(1)
        # the matching parenthesis
        depth, k = 0, mm.end() - 1
        while k < len(m):
            if m[k] == '(':
                depth += 1
            elif m[k] == ')':
                depth -= 1
                if depth == 0:
                    break
            k += 1
        end = k + 1
        before = m[:mm.start()].rstrip()
        after = m[end:].lstrip()
        stmt = after.startswith(';') and (
            before == '' or before[-1] in ';{}):' or
            re.search(r'\b(else|do)$', before) is not None)
        fn = '-'
        for a, b, f in funcs:
            if a < mm.start() < b:
                fn = f
        key = (fn, name)
        seen[key] = seen.get(key, 0) + 1
        line = src.count('\n', 0, mm.start()) + 1
        res.append(('%s:%s#%d' % (fn, name, seen[key]), line, name,
                    mm.start(), end, stmt))
    return res

cmd, path = sys.argv[1], sys.argv[2]
src = open(path).read()
cs = calls(src)
if cmd == 'list':
    for c in cs:
        print('%s\t%d\t%s' % c[:3])
elif cmd == 'apply':
    _, _, _, a, b, stmt = cs[int(sys.argv[3]) - 1]
    # keep the newlines of a call that spans lines: lines do not move
    repl = '((void)0)' if stmt else '0'
    repl += '\n' * src.count('\n', a, b)
    open(sys.argv[4], 'w').write(src[:a] + repl + src[b:])
EOF

# ---------------------------------------------------------------------
# The drivers: for each, NAME|KIND|FILE TO MUTATE|OTHER SOURCES|FLAGS|LIBS
# (KIND example: run as PROG PROFILE, exit 0 when right and no report;
# lab: run as PROG --profile P --seed 1, its result line says the data).

targets=()
targets+=("nic|example|examples/nic/nic-driver.c|examples/nic/main.c||-ldmaemu-devices")
targets+=("copy-engine|example|examples/copy-engine/ce-driver.c|examples/copy-engine/main.c||-ldmaemu-devices")
targets+=("checksum|example|examples/checksum/cs-driver.c|examples/checksum/main.c examples/copy-engine/ce-driver.c|-I$top/examples/copy-engine|-ldmaemu-devices")
targets+=("checksum-main|example|examples/checksum/main.c|examples/checksum/cs-driver.c examples/copy-engine/ce-driver.c|-I$top/examples/copy-engine|-ldmaemu-devices")
targets+=("legacy|example|examples/legacy/legacy-driver.c|examples/legacy/main.c||-ldmaemu-devices")
targets+=("legacy-main|example|examples/legacy/main.c|examples/legacy/legacy-driver.c||-ldmaemu-devices")
targets+=("display|example|examples/display/disp-driver.c|examples/display/main.c||-ldmaemu-devices")
for d in "$top"/examples/labs/*/; do
	d=${d%/}
	n=${d##*/}
	if [ ! -f "$d/lab.conf" ] || [ ! -f "$d/lab.c" ]; then continue; fi
	libs=$(
		kind='' libs=''
		# shellcheck disable=SC1091
		. "$d/lab.conf" >/dev/null 2>&1
		[ "$kind" = script ] && exit 1
		printf '%s' "$libs"
	) || continue
	# Every C file of the lab is mutated, with the others built beside it.
	for f in "$d"/*.c; do
		others=examples/labs/lab.c
		for g in "$d"/*.c; do
			[ "$g" = "$f" ] || others="$others examples/labs/$n/${g##*/}"
		done
		b=${f##*/}
		targets+=("$n|lab|examples/labs/$n/$b|$others|-DLAB_FIXED -I$top/examples/labs|$libs")
	done
done
if [ $# -gt 0 ]; then
	sel=()
	for f in "$@"; do
		found=
		for t in "${targets[@]}"; do
			IFS='|' read -r _ _ file _ _ _ <<<"$t"
			[ "$file" = "${f#./}" ] && sel+=("$t") found=1
		done
		[ -n "$found" ] || die "'$f' is not one of the drivers"
	done
	targets=("${sel[@]}")
fi

# build TARGET-FIELDS SOURCE OUT: the driver with SOURCE as its mutated
# file; the compiler's messages in OUT.log.
build() {
	# Word splitting of the flags and libraries is intended.
	# shellcheck disable=SC2086
	"$cc" -g -O1 -Wall -Wextra $flags -I"$top/$(dirname "$file")" \
		-o "$3" "$2" $others $libs >"$3.log" 2>&1
}

# execute PROG PROFILE [SEED]: run it, its output in $tmp/out; sets
# kinds (the report kinds) and changed (yes when the data was wrong, the
# exit status not 0 or no result line).
execute() {
	local opts=${DRIVER_MUTANTS_OPTIONS-}
	[ -n "${3-}" ] && opts="${opts:+$opts:}sched=lockstep:seed=$3"
	if [ "$drv" = example ]; then
		DMAEMU_OPTIONS=$opts $run_with "$1" "$2" >"$tmp/out" 2>&1 </dev/null
	else
		DMAEMU_OPTIONS=$opts DMAEMU_LAB_COLOR=never $run_with "$1" \
			--profile "$2" --seed "${3:-1}" >"$tmp/out" 2>&1 </dev/null
	fi
	st=$?
	why=
	kinds=$(sed -n 's/^SUMMARY: dmaemu: \([a-z0-9-]*\).*/\1/p' "$tmp/out" |
		sort -u | tr '\n' ' ' | sed 's/ $//')
	changed=no
	[ "$st" = 0 ] || changed=yes
	if [ "$drv" = lab ] &&
		! grep -q "^lab: $name fixed on $2: data right, " "$tmp/out"; then
		changed=yes
	fi
	if [ "$st" != 0 ]; then
		why="exit status $st"
		[ "$st" = 124 ] && [ -n "$run_with" ] && why="timed out after ${limit}s"
	fi
}

runs() {
	echo "-"
	for s in $target_seeds; do echo "$s"; done
}

# ---------------------------------------------------------------------
# The known list: ID PROFILE OUTCOME REASON, ID as FILE:FUNCTION:CALL#N.

declare -A want reason used
while read -r id prof out rest; do
	case $id in '' | '#'*) continue ;; esac
	case $out in unreported | equivalent) ;; *)
		die "$known: '$id $prof': the outcome must be unreported or equivalent, not '$out'" ;;
	esac
	[ -n "$rest" ] || die "$known: '$id $prof': no reason"
	want["$id $prof"]=$out
	reason["$id $prof"]=$rest
done <"$known"

rows=$tmp/rows
: >"$rows"
total=0 nrep=0 nunrep=0 nequiv=0 bad=0
declare -A ran_files
[ $quiet = 1 ] ||
	printf '%-36s %-26s %-6s %-11s %s\n' "file:line" "deleted call" profile outcome \
		"report kinds  [known list]"
for t in "${targets[@]}"; do
	IFS='|' read -r name drv file others flags libs <<<"$t"
	ran_files["$file"]=1
	src=$top/$file
	others=$(for o in $others; do printf '%s ' "$top/$o"; done)
	mkdir -p "$tmp/$name"
	base=$tmp/$name/base
	build "$t" "$src" "$base" ||
		{ cat "$base.log" >&2; die "$file does not build unmutated"; }
	# The driver must be clean unmutated; with a lockstep seed under
	# which it is not, its mutants run without the lockstep runs; with
	# DRIVER_MUTANTS_OPTIONS under which it is not, they do not run.
	target_seeds=$seeds
	skip=
	for p in $profiles; do
		for s in - $target_seeds; do
			[ "$s" = - ] && s=
			execute "$base" "$p" "$s"
			[ -z "$kinds" ] && [ $changed = no ] && continue
			if [ -z "$s" ] && [ -n "${DRIVER_MUTANTS_OPTIONS-}" ]; then
				echo "driver-mutants: $file on $p with $DRIVER_MUTANTS_OPTIONS: not clean" \
					"unmutated${kinds:+ ($kinds)}${why:+ ($why)}; its mutants do not run" >&2
				skip=1
				break 2
			elif [ -z "$s" ]; then
				sed 's/^/  /' "$tmp/out" >&2
				die "$file on $p: not clean unmutated${kinds:+ ($kinds)}${why:+ ($why)}"
			fi
			echo "driver-mutants: $file on $p, sched=lockstep seed $s: not clean" \
				"unmutated${kinds:+ ($kinds)}${why:+ ($why)}; its mutants run without sched=lockstep" >&2
			target_seeds=
			break
		done
	done
	if [ -n "$skip" ]; then
		unset 'ran_files[$file]'
		continue
	fi
	# shellcheck disable=SC2086
	"$cc" -E $flags -I"$top/$(dirname "$file")" "$src" 2>/dev/null |
		grep -v '^#' >"$base.i"
	python3 "$tmp/mutate.py" list "$src" >"$tmp/$name/calls" ||
		die "cannot read the calls of $file"
	k=0
	while IFS=$'\t' read -r id line call; do
		k=$((k + 1))
		mut=$tmp/$name/$(basename "$file")
		python3 "$tmp/mutate.py" apply "$src" "$k" "$mut" ||
			die "cannot delete call $k of $file"
		# shellcheck disable=SC2086
		"$cc" -E $flags -I"$top/$(dirname "$file")" "$mut" 2>/dev/null |
			grep -v '^#' >"$mut.i"
		if cmp -s "$base.i" "$mut.i"; then
			[ $verbose = 1 ] &&
				printf '%-36s %-26s %-6s %s\n' "$file:$line" "$call()" - "not built"
			continue
		fi
		if ! build "$t" "$mut" "$tmp/$name/mutant"; then
			sed 's/^/  /' "$tmp/$name/mutant.log" >&2
			echo "driver-mutants: $file:$line: the mutant without $call() does not build" >&2
			bad=1
			continue
		fi
		for p in $profiles; do
			outcome=equivalent all_kinds='' why=''
			for s in $(runs); do
				[ "$s" = - ] && s=
				execute "$tmp/$name/mutant" "$p" "$s"
				all_kinds="$all_kinds $kinds"
				if [ -z "$kinds" ] && [ $changed = yes ]; then
					outcome=unreported
				elif [ -n "$kinds" ] && [ $outcome = equivalent ]; then
					outcome=reported
				fi
			done
			all_kinds=$(echo "$all_kinds" | tr ' ' '\n' | sed '/^$/d' | sort -u |
				tr '\n' ' ' | sed 's/ $//')
			total=$((total + 1))
			case $outcome in
			reported) nrep=$((nrep + 1)) ;;
			unreported) nunrep=$((nunrep + 1)) ;;
			equivalent) nequiv=$((nequiv + 1)) ;;
			esac
			key="$file:$id $p"
			[ -n "${want[$key]+x}" ] || key="$file:$id *"
			mark='' fails=no
			if [ -n "${want[$key]+x}" ]; then
				used["$key"]=1
				if [ "${want[$key]}" != $outcome ]; then
					mark="STALE: known as ${want[$key]}"
					fails=yes
				else
					mark="known: ${reason[$key]}"
				fi
			elif [ $outcome != reported ]; then
				mark="NEW"
				fails=yes
			fi
			[ $fails = yes ] && bad=1
			row=$(printf '%-36s %-26s %-6s %-11s %s' "$file:$line" "$call()" "$p" \
				"$outcome" "${all_kinds:--}${mark:+  [$mark]}")
			echo "$row" >>"$rows"
			if [ $quiet = 0 ]; then
				echo "$row"
			elif [ $fails = yes ]; then
				echo "$row  ($file:$id${why:+; $why})"
			fi
		done
	done <"$tmp/$name/calls"
done

# Entries of the known list for a file and profile that ran but for no
# mutant: the code moved or changed, the entry must go.
for key in "${!want[@]}"; do
	[ -n "${used[$key]+x}" ] && continue
	id=${key% *} prof=${key##* }
	f=${id%%:*}
	[ -n "${ran_files[$f]+x}" ] || continue
	[ "$prof" = '*' ] || [[ " $profiles " == *" $prof "* ]] || continue
	echo "STALE: $known: '$key' matches no mutant"
	bad=1
done

echo "$total mutants, $nrep reported, $nunrep unreported behaviour changes, $nequiv equivalent" \
	"(mutant and profile pairs; profiles: $profiles${seeds:+; lockstep seeds: $seeds})"
exit $bad
