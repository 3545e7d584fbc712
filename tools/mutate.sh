#!/usr/bin/env bash
# mutate.sh - mutation testing: does the test suite notice when the code
# is wrong?
#
#   tools/mutate.sh [-l LIST] [-j JOBS] [-n] [-k] [ID...]
#
#   -l LIST  the mutation list (default: tools/mutations.txt; its header
#            describes the format)
#   -j JOBS  parallel make jobs (default: the number of CPUs)
#   -n       only check that every mutation applies (each pattern matches
#            exactly once); no build
#   -k       keep the scratch directory
#   ID...    run only these mutations (default: all)
#
# How it works.  The tracked files of this tree, as they are in the working
# tree (uncommitted edits included), are copied to a scratch directory
# ($MUTATE_DIR, or a new one under $TMPDIR), configured and built once, and
# the suites that the list names are run once unmutated: they must pass.
# Then, one mutation at a time: apply the one change to its file, rebuild,
# run the mutation's suites (make check TESTS=..., building only those
# programs), put the file back.  Each mutation ends as one of
#
#   KILLED       a suite failed (or timed out): the tests noticed
#   SURVIVED     every suite passed: a missing test, or an equivalent
#                mutation not marked as one
#   EQUIVALENT   survived, and the list marks it equivalent (with a reason)
#   UNEXPECTED   killed although marked equivalent: remove the mark
#   NOT-APPLIED  its pattern does not match exactly once (the code moved):
#                an error, the list must be fixed
#   BUILD-FAILED the mutated tree does not compile: an error in the list
#
# and the run ends with a score line.  Exit status: 0 when every mutation
# was killed or is a marked equivalent; 1 otherwise; 2 for a usage or
# setup error (the unmutated suites fail, no list).  MUTATE_TIMEOUT (in
# seconds, default 600) bounds each suite run; a timeout counts as killed.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
list=$top/tools/mutations.txt
jobs=$(nproc 2>/dev/null || echo 2)
check_only=0
keep=0
while getopts "l:j:nk" opt; do
	case $opt in
	l) list=$OPTARG ;;
	j) jobs=$OPTARG ;;
	n) check_only=1 ;;
	k) keep=1 ;;
	*)
		sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
		exit 2
		;;
	esac
done
shift $((OPTIND - 1))
[ -f "$list" ] || {
	echo "mutate: no mutation list $list" >&2
	exit 2
}
command -v python3 >/dev/null || {
	echo "mutate: needs python3 (to parse the list)" >&2
	exit 2
}

scratch=${MUTATE_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/dmaemu-mutate.XXXXXX")}
mkdir -p "$scratch"
cleanup() { [ "$keep" = 1 ] || rm -rf "$scratch"; }
trap cleanup EXIT

# The list, parsed and checked against the source tree: one mutation a
# line of "mutate.tsv" (id, equivalent, file, tests), its find and replace
# texts in find.N / repl.N.  Also checks that each pattern matches once.
helper=$scratch/mutate.py
cat >"$helper" <<'EOF'
import os, re, sys

def unescape(s):
    out, i = [], 0
    while i < len(s):
        if s[i] == '\\' and i + 1 < len(s):
            out.append({'n': '\n', 't': '\t', '\\': '\\'}.get(s[i + 1], '\\' + s[i + 1]))
            i += 2
        else:
            out.append(s[i])
            i += 1
    return ''.join(out)

def parse(path):
    muts, ids = [], set()
    for no, line in enumerate(open(path), 1):
        if not line.strip() or line.lstrip().startswith('#'):
            continue
        f = [x.strip() for x in line.rstrip('\n').split(' @@ ')]
        if len(f) != 5:
            sys.exit('%s:%d: want 5 fields separated by " @@ ", got %d' % (path, no, len(f)))
        mid, fname, suites, find, repl = f
        equiv = mid.startswith('=')
        mid = mid.lstrip('=')
        if not re.match(r'^[A-Za-z0-9._-]+$', mid) or mid in ids:
            sys.exit('%s:%d: bad or repeated id %r' % (path, no, mid))
        ids.add(mid)
        tests = []
        for s in suites.split():
            tests.append(s if '/' in s else 'tests/unit/check-' + s)
        muts.append(dict(id=mid, equiv=equiv, file=fname, tests=tests,
                         find=find, repl=repl, line=no))
    return muts

def matches(m, text):
    if m['find'].startswith('re:'):
        return list(re.finditer(unescape(m['find'][3:]), text, re.M))
    pat = unescape(m['find'])
    n, at = [], text.find(pat)
    while at >= 0:
        n.append(at)
        at = text.find(pat, at + 1)
    return n

def apply(m, text):
    if m['find'].startswith('re:'):
        return re.sub(unescape(m['find'][3:]), unescape(m['repl']), text, count=1, flags=re.M)
    return text.replace(unescape(m['find']), unescape(m['repl']), 1)

cmd, listpath, src = sys.argv[1:4]
muts = parse(listpath)
if cmd == 'plan':
    out, listname = sys.argv[4:6]
    want = set(sys.argv[6:])
    if want - {m['id'] for m in muts}:
        sys.exit('no such mutation: ' + ' '.join(sorted(want - {m['id'] for m in muts})))
    with open(os.path.join(out, 'mutate.tsv'), 'w') as t:
        for k, m in enumerate(muts):
            if want and m['id'] not in want:
                continue
            for test in m['tests']:
                # A test built from another's source (check-ordering-
                # ring-normb) is named in tests/local.mk.
                if not (os.path.isfile(os.path.join(src, test + '.c')) or
                        os.path.isfile(os.path.join(src, test)) or
                        re.search(r'(^|\s)' + re.escape(test) + r'(\s|$)',
                                  open(os.path.join(src, 'tests', 'local.mk')).read())):
                    sys.exit('%s:%d: %s: no test %s in the tree' %
                             (listname, m['line'], m['id'], test))
            path = os.path.join(src, m['file'])
            n = len(matches(m, open(path).read())) if os.path.isfile(path) else 0
            t.write('%d\t%s\t%d\t%s\t%s\t%d\t%d\n' % (k, m['id'], m['equiv'], m['file'],
                                                     ' '.join(m['tests']), n, m['line']))
elif cmd == 'apply':
    m = muts[int(sys.argv[4])]
    path = os.path.join(src, m['file'])
    text = open(path).read()
    if len(matches(m, text)) != 1:
        sys.exit(1)
    new = apply(m, text)
    if new == text:
        sys.exit('mutation %s changes nothing' % m['id'])
    open(path, 'w').write(new)
EOF

# 1. A copy of the tracked files.
src=$scratch/src
if [ ! -d "$src" ]; then
	mkdir -p "$src"
	# The tracked files when the tree is a git checkout of its own (not
	# a copy of the tree inside another checkout, whose git knows none
	# of its files).
	if [ "$(git -C "$top" rev-parse --show-toplevel 2>/dev/null)" = \
		"$(cd "$top" && pwd -P)" ]; then
		(cd "$top" && git ls-files -z | while IFS= read -r -d '' f; do
			[ -e "$f" ] && printf '%s\0' "$f"
		done | tar --null -T - -cf -) | tar -C "$src" -xf -
	else
		# A release tarball: everything but build trees.
		(cd "$top" && tar --exclude='./_build*' --exclude=./autom4te.cache \
			-cf - .) | tar -C "$src" -xf -
	fi
fi

# The list as it is now: editing tools/mutations.txt during a run cannot
# shift the mutations under it.
list_name=${list#"$top"/}
cp "$list" "$scratch/mutations.txt"
list=$scratch/mutations.txt
python3 "$helper" plan "$list" "$src" "$scratch" "$list_name" "$@" || exit 2
total=$(wc -l <"$scratch/mutate.tsv")
echo "mutate: $total mutations from $list_name, scratch $scratch"

not_applied=0
while IFS=$'\t' read -r k id equiv file tests n line; do
	if [ "$n" != 1 ]; then
		echo "NOT-APPLIED  $id ($file): the pattern matches $n times," \
			"not once ($list_name:$line)" >&2
		not_applied=$((not_applied + 1))
	fi
done <"$scratch/mutate.tsv"
if [ "$check_only" = 1 ]; then
	echo "mutate: $((total - not_applied)) of $total apply"
	[ "$not_applied" = 0 ]
	exit $?
fi

# 2. Configure and build once; the suites must pass unmutated.
build=$scratch/build
mkdir -p "$build"
log=$scratch/log
(
	cd "$src" &&
		{ [ -x configure ] || autoreconf -fi >"$log.autoreconf" 2>&1; } &&
		cd "$build" &&
		{ [ -f Makefile ] || "$src/configure" -q >"$log.configure" 2>&1; } &&
		make -j"$jobs" >"$log.build" 2>&1
) || {
	echo "mutate: the unmutated tree does not build (logs: $log.*)" >&2
	keep=1
	exit 2
}

# run_tests TESTS...: build just these programs, run them.  Return: 0
# when all pass, 1 when a test failed or timed out, 2 when the programs
# did not build (no test ran: the mutation cannot be judged).
run_tests() {
	local progs=() t status
	for t in "$@"; do
		case $t in *.sh) ;; *) progs+=("$t") ;; esac
	done
	(cd "$build" && make -j"$jobs" "${progs[@]}" >>"$log.run" 2>&1) \
		</dev/null || return 2
	(cd "$build" && timeout "${MUTATE_TIMEOUT:-600}" make -j"$jobs" check \
		TESTS="$*" check_PROGRAMS="${progs[*]}" >>"$log.run" 2>&1) \
		</dev/null
	status=$?
	[ $status = 0 ] && return 0
	# A timeout (124) or a test failure.  Anything else that stopped
	# make check before the harness's summary is not a test's verdict.
	[ $status = 124 ] && return 1
	grep -Eq '^# (FAIL|ERROR): +[1-9]' "$log.run" && return 1
	return 2
}

all_tests=$(cut -f5 "$scratch/mutate.tsv" | tr ' ' '\n' | sort -u | tr '\n' ' ')
: >"$log.run"
if ! run_tests $all_tests; then
	echo "mutate: the suites fail without any mutation: $all_tests" \
		"(log: $log.run)" >&2
	keep=1
	exit 2
fi
echo "mutate: unmutated, these pass: $all_tests"

# 3. One mutation at a time.
killed=0 survived=0 equivalent=0 unexpected=0 broken=0
survivors=
while IFS=$'\t' read -r k id equiv file tests n line; do
	[ "$n" = 1 ] || continue
	cp -p "$src/$file" "$scratch/orig"
	if ! python3 "$helper" apply "$list" "$src" "$k"; then
		echo "NOT-APPLIED  $id ($file, $list_name:$line)" >&2
		not_applied=$((not_applied + 1))
		continue
	fi
	: >"$log.run"
	start=$(date +%s)
	if ! (cd "$build" && make -j"$jobs" >"$log.run" 2>&1); then
		result=BUILD-FAILED
		broken=$((broken + 1))
		cp "$log.run" "$scratch/build-failed.$id.log"
	elif run_tests $tests; status=$?; [ $status = 2 ]; then
		result=BUILD-FAILED
		broken=$((broken + 1))
		cp "$log.run" "$scratch/build-failed.$id.log"
	elif [ $status = 0 ]; then
		if [ "$equiv" = 1 ]; then
			result=EQUIVALENT
			equivalent=$((equivalent + 1))
		else
			result=SURVIVED
			survived=$((survived + 1))
			survivors="$survivors $id"
		fi
	else
		if [ "$equiv" = 1 ]; then
			result=UNEXPECTED
			unexpected=$((unexpected + 1))
		else
			result=KILLED
		fi
		killed=$((killed + 1))
	fi
	# Put the file back with a new time stamp: the next build redoes it.
	cp "$scratch/orig" "$src/$file"
	touch "$src/$file"
	printf '%-12s %-32s %-24s %3ss  %s\n' "$result" "$id" "$file" \
		$(($(date +%s) - start)) "$tests"
done <"$scratch/mutate.tsv"

judged=$((total - not_applied - broken - equivalent))
echo "mutation score: $killed/$judged killed; $survived survived," \
	"$equivalent equivalent, $unexpected marked equivalent but killed," \
	"$not_applied not applied, $broken did not build"
[ -z "$survivors" ] || echo "survivors:$survivors"
[ "$survived" = 0 ] && [ "$unexpected" = 0 ] && [ "$not_applied" = 0 ] &&
	[ "$broken" = 0 ]
