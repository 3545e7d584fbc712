#!/bin/sh
# tour.sh - a first look at dmaemu, run from a build tree:
#
#   tools/tour.sh BUILDDIR
#
# 1. the lab tour (dmaemu-lab tour, examples/labs/): every lab's driver
#    with its bug and then with its fix, on arm64, with the reports and
#    the pictures of the buffers' cache lines, and a table at the end;
# then a second, smaller tour:
# 2. the README's receive path, which forgets dma_sync_single_for_cpu(),
#    built with dmaemu-cc and run on an arm64 machine (stale data and the
#    report that explains it) and on an x86 one (snooping devices hide the
#    bug);
# 3. a correct driver: the copy engine's reference driver (examples/), a
#    device on its own thread with a descriptor ring and interrupts, on
#    every profile, with no report;
# 4. the cache simulator underneath, replaying a built-in trace.
#
# Exits non-zero when a lab did not behave as its lab.conf says or a step
# failed.
set -eu

build=${1:?usage: tour.sh BUILDDIR}
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$build" && pwd)
cc="$build/tools/dmaemu-cc"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

say() { printf '\n== %s\n\n' "$*"; }

# The tour runs in a subshell: a reader that stops reading (tour.sh |
# head) ends it with SIGPIPE, silently, and this shell, which writes
# nothing more, still removes $tmp.
tour() {
	# Driver code needs the instrumentation: a build whose compiler has none
	# builds no examples (examples/local.mk).
	instrumented=no
	[ -x "$build/examples/copy-engine/copy-engine" ] && instrumented=yes

	labs_status=0
	say "1. The labs (dmaemu-lab tour)"
	if [ $instrumented = yes ]; then
		"$build/tools/dmaemu-lab" tour || labs_status=$?
		cat <<-'EOF'

	Each lab on its own: dmaemu-lab list, dmaemu-lab explain LAB,
	dmaemu-lab run LAB [--fixed] [--profile arm|arm64|x86] (tools/dmaemu-lab
	in the build tree).
	EOF
	else
		echo "    (not run: this build has no instrumented examples)"
	fi

	printf '\nThe rest is a second, smaller tour: what the labs stand on.\n'
	say "2. A receive path that forgets dma_sync_single_for_cpu() (README.md)"
	awk '/^```c$/ { f = 1; next } f && /^```$/ { exit } f' \
		"$top/README.md" >"$tmp/rx.c"
	sed 's/^/    /' "$tmp/rx.c" | sed -n '/int main/,/^    }/p'
	(cd "$tmp" && "$cc" -g rx.c -o rx)
	echo
	echo "On profile=arm64 (Linux 4.14's cache maintenance, devices do not snoop):"
	echo
	DMAEMU_OPTIONS= stdbuf -o0 "$tmp/rx" 2>&1 | sed 's/^/    /'
	cat <<-'EOF'

	The CPU read the buffer while the device owned it, so its cache kept the
	old byte: without the sync it reads 0, not 'h', and dmaemu says which
	bytes are stale, at the moment of the read, on which line of rx.c, and
	which call was missing.
	EOF
	sed 's/profile=arm64/profile=x86/' "$tmp/rx.c" >"$tmp/rx86.c"
	(cd "$tmp" && "$cc" -g rx86.c -o rx86)
	echo
	echo "The same program on profile=x86 (devices snoop the CPU's cache):"
	echo
	DMAEMU_OPTIONS= stdbuf -o0 "$tmp/rx86" 2>&1 | sed 's/^/    /'
	cat <<-'EOF'

	On x86 the read sees the device's data (104 is 'h') even without the sync:
	the bug is still there, and an ARM board would show it.
	EOF

	say "3. A correct driver: the copy engine (examples/copy-engine)"
	ce="$build/examples/copy-engine/copy-engine"
	if [ -x "$ce" ]; then
		for p in arm arm64 x86; do
			printf '    %-6s ' "$p:"
			if DMAEMU_OPTIONS= "$ce" "$p" >"$tmp/ce.out" 2>&1; then
				echo "data right, no report"
			else
				echo "FAILED"
				sed 's/^/        /' "$tmp/ce.out"
			fi
		done
		echo
		echo "Its data sheet is docs/devices/copy-engine.md."
	else
		echo "    (not built: this build has no instrumented examples)"
	fi

	say "4. The cache simulator underneath (cachesim --demo)"
	"$build/cachesim/cachesim" --demo | sed 's/^/    /'

	cat <<-'EOF'

	Next: README.md (how to build driver code with dmaemu-cc), docs/ (the
	manuals), tests/api/check-fidelity.c (what Linux 4.14 does to the bytes).
	EOF
	exit $labs_status
}

(tour)
