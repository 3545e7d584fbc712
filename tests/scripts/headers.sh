#!/bin/sh
# headers.sh - a kernel-personality header that has the name of a system
# header the C library includes includes that header first (#include_next),
# so the C library keeps working; every public header compiles on its own.
. "$top_srcdir/tests/runner/tap.sh"

cc=${CC:-cc}
kdir="$top_srcdir/include/dmaemu/kernel"
sysdirs=$(echo | $cc -E -Wp,-v - 2>&1 >/dev/null | sed -n 's/^ \(\/.*\)/\1/p')
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# The system headers the C library's own headers include, as
# tools/gen-kernel-guards.sh found them when it made the guard headers.
reached="$top_builddir/include/dmaemu/kernel-guard/.libc-reached"

# Kernel headers a driver includes whose UAPI namesake is a leaf for the C
# library: the driver must get the kernel's, and no system header of the
# ordinary C library needs the UAPI one (<sys/pci.h>, a PCI-config helper
# for user programs, is the one exception and is no driver's).
may_shadow="linux/pci.h"

found=0
for h in $(cd "$kdir" 2>/dev/null && find . -name '*.h' | sed 's|^\./||' | sort); do
	found=1
	clash=
	for d in $sysdirs; do
		[ -e "$d/$h" ] && clash="$d/$h"
	done
	if [ -n "$clash" ] && echo " $may_shadow " | grep -q " $h "; then
		ok "<$h> replaces the UAPI $clash on purpose (drivers include it)"
	elif [ -z "$clash" ]; then
		ok "<$h> shadows no system header"
	elif [ ! -f "$reached" ]; then
		skip "<$h> shadows $clash: no guard headers built to say whether the C library includes it"
	elif ! grep -qx "$h" "$reached"; then
		ok "<$h> shadows $clash, which no C library header includes"
	elif grep -q "^#include_next <$h>" "$kdir/$h"; then
		ok "<$h> shadows $clash, which the C library includes, and includes it first"
	else
		not_ok "<$h> shadows $clash, which the C library includes, without #include_next <$h>"
	fi
done
[ "$found" = 1 ] || skip "no kernel-personality headers yet"

# The guard headers (include/dmaemu/kernel-guard, generated) stop a build
# with #error by design, and are in the source tree after an in-tree
# build: they are not public headers.
for h in $(cd "$top_srcdir/include" && find dmaemu -path dmaemu/kernel-guard \
	-prune -o -name '*.h' -print | sort); do
	printf '#include <%s>\n#include <%s>\n' "$h" "$h" >"$tmp/t.c"
	if $cc -std=gnu11 -Wall -Werror -I"$top_srcdir/include" -I"$kdir" \
		-I"$top_srcdir/cachesim" -c "$tmp/t.c" -o "$tmp/t.o" \
		>"$tmp/log" 2>&1; then
		ok "<$h> compiles alone and twice"
	else
		not_ok "<$h> compiles alone and twice"
		sed 's/^/# /' "$tmp/log"
	fi
done

# Every public header is installed: some build fragment names it.
mks=$(find "$top_srcdir" -name '*.mk' -not -path '*/_build/*')
for h in $(cd "$top_srcdir" && find include -path include/dmaemu/kernel-guard \
	-prune -o -name '*.h' -print | sort); do
	if cat $mks | grep -q "$h"; then
		ok "$h is installed"
	else
		not_ok "$h is installed (list it in a *_HEADERS variable)"
	fi
done
done_testing
