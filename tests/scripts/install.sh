#!/bin/sh
# install.sh - `make install DESTDIR=...` from this build tree installs
# what the project promises, and it works from there:
#   - every manual page (man/*.in) in its section, fully substituted,
#     rendered by groff (and man -l) without a warning, found by man -w;
#   - the documentation (docs/, README.md) under $docdir, with every
#     docs/... file a manual page names;
#   - every public header at its place; the pkg-config files; a program
#     using <dmaemu/testing.h>, the kernel personality, a device model and
#     libcachesim builds with `pkg-config --cflags --libs` against the
#     staged install and runs on its libraries;
#   - the installed dmaemu-cc (compiling, then linking) and the flags of
#     pkg-config dmaemu-instrument build an instrumented program that runs
#     on the installed library and shows its stale read (not in a
#     sanitizer build, whose dmaemu-cc refuses);
#   - cachesim, and dmaemu-lab with the labs it runs once the tree has
#     the runner;
# then `make uninstall` leaves nothing but empty directories.
. "$top_srcdir/tests/runner/tap.sh"

top_srcdir=$(cd "$top_srcdir" && pwd)
top_builddir=$(cd "$top_builddir" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/install.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
# Physical, as dmaemu-cc finds a staged installation by its own path.
dest=$(cd "$tmp" && pwd -P)/dest
unset DMAEMU_OPTIONS

# The sub-make runs on its own, not as part of the make check that runs
# this test (no jobserver, no command-line variables of that make).
submake() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u MAKEOVERRIDES \
		make -C "$top_builddir" "$@"
}

# The installation directories, as make expands them.
eval "$(submake -s print-install-dirs)" || {
	echo "Bail out! make print-install-dirs failed"
	exit 1
}
[ -n "$mandir" ] && [ -n "$includedir" ] || {
	echo "Bail out! make print-install-dirs gave no directories"
	exit 1
}

if submake install DESTDIR="$dest" >"$tmp/install.log" 2>&1; then
	ok "make install DESTDIR=..."
else
	not_ok "make install DESTDIR=..."
	tail -n 20 "$tmp/install.log" | sed 's/^/# /'
	done_testing
	exit 1
fi

# ---------------------------------------------------------------------
# Manual pages.

pages=$(cd "$top_srcdir/man" && ls *.[1-9].in | sed 's/\.in$//')
check "the tree has manual pages" [ -n "$pages" ]
have_man=no
command -v man >/dev/null 2>&1 && have_man=yes
have_groff=no
command -v groff >/dev/null 2>&1 && have_groff=yes
for p in $pages; do
	sec=${p##*.}
	f=$dest$mandir/man$sec/$p
	if [ ! -f "$f" ]; then
		not_ok "$p installed in $mandir/man$sec"
		continue
	fi
	ok "$p installed in $mandir/man$sec"
	if grep -n '@[A-Za-z_]*@' "$f" >"$tmp/subst"; then
		not_ok "$p: every @VARIABLE@ substituted"
		sed 's/^/# /' "$tmp/subst"
	else
		ok "$p: every @VARIABLE@ substituted"
	fi
	if [ $have_groff = no ]; then
		skip "$p: groff -man -ww (groff is not installed)"
	elif groff -t -man -ww -z "$f" >"$tmp/groff" 2>&1 && [ ! -s "$tmp/groff" ]; then
		ok "$p: groff -man -ww renders it without a warning"
	else
		not_ok "$p: groff -man -ww renders it without a warning"
		sed 's/^/# /' "$tmp/groff"
	fi
	if [ $have_man = yes ]; then
		if MANWIDTH=80 man --warnings -l "$f" >"$tmp/out" 2>"$tmp/err" &&
			[ ! -s "$tmp/err" ] && [ -s "$tmp/out" ]; then
			ok "$p: man -l renders it without a warning"
		else
			not_ok "$p: man -l renders it without a warning"
			sed 's/^/# /' "$tmp/err"
		fi
		name=${p%.*}
		w=$(MANPATH=$dest$mandir man -w "$sec" "$name" 2>&1)
		check "$p: MANPATH=$mandir man -w $sec $name finds it" \
			[ "$w" = "$f" ]
	else
		skip "$p: man -l (man is not installed)"
	fi
done

# ---------------------------------------------------------------------
# The documentation: docs/ and the README under $docdir, laid out as in
# the source tree, and every docs/... file a manual page names is there.

check "docdir is known" [ -n "$docdir" ]
for f in README.md $(cd "$top_srcdir" && find docs -type f | sort); do
	check "$f installed in $docdir" cmp -s "$top_srcdir/$f" "$dest$docdir/$f"
done
for p in $pages; do
	sec=${p##*.}
	for f in $(sed 's/\\-/-/g' "$dest$mandir/man$sec/$p" 2>/dev/null |
		grep -o 'docs/[a-z0-9/-]*\.md' | sort -u); do
		check "$p names $f: installed" test -f "$dest$docdir/$f"
	done
	check "$p: where the documentation is installed" \
		grep -qF "$docdir" "$dest$mandir/man$sec/$p"
done

# ---------------------------------------------------------------------
# Headers and pkg-config.

missing=
for h in $(cd "$top_srcdir/include" && find . -name '*.h' | sed 's|^\./||'); do
	[ -f "$dest$includedir/$h" ] || missing="$missing $h"
done
[ -f "$dest$includedir/cachesim/cachesim.h" ] ||
	missing="$missing cachesim/cachesim.h"
if [ -z "$missing" ]; then
	ok "every header of include/ (and cachesim.h) installed in $includedir"
else
	not_ok "every header of include/ (and cachesim.h) installed in $includedir"
	diag "missing:$missing"
fi
check "the guard headers installed in $includedir/dmaemu/kernel-guard" \
	[ -f "$dest$includedir/dmaemu/kernel-guard/linux/phy.h" ]
for pc in dmaemu dmaemu-instrument dmaemu-devices cachesim; do
	check "$pc.pc installed in $pkgconfigdir" [ -f "$dest$pkgconfigdir/$pc.pc" ]
done
for b in cachesim dmaemu-cc; do
	check "$b installed in $bindir" [ -x "$dest$bindir/$b" ]
done
# A staged installation's libraries find each other through
# LD_LIBRARY_PATH only (their RUNPATH is the final $libdir).
if LD_LIBRARY_PATH=$dest$libdir "$dest$bindir/cachesim" --version >"$tmp/out" 2>&1; then
	ok "the installed cachesim runs ($(cat "$tmp/out"))"
else
	not_ok "the installed cachesim runs"
	sed 's/^/# /' "$tmp/out"
fi

# A sanitizer build's libraries need the sanitizer's runtime in the
# program that links them.
case $SANITIZER in
address) sflags="-fsanitize=address,undefined" ;;
thread) sflags="-fsanitize=thread" ;;
*) sflags= ;;
esac

cat >"$tmp/use.c" <<'EOF'
#include <stdio.h>

#include <cachesim.h>
#include <dmaemu/device.h>
#include <dmaemu/devices/copy-engine.h>
#include <dmaemu/dmaemu.h>
#include <dmaemu/testing.h>
#include <linux/dma-mapping.h>
#include <linux/slab.h>

int main(void)
{
	struct dmaemu_machine *m = dmaemu_machine_create("profile=arm:cache_ways=2");
	struct dmaemu_cache_level_info ci;
	struct cachesim_config cfg;
	struct cachesim *cs;
	struct dmaemu_device *ce;
	struct device *dev;
	dma_addr_t dma;
	char *buf;

	if (!m || dmaemu_cache_level_info(m, 0, &ci) || ci.ways != 2)
		return 2;
	ce = dmaemu_copy_engine_create(m, "ce0");
	if (!ce)
		return 3;
	dev = dmaemu_device_to_dev(ce);
	buf = kmalloc(256, GFP_KERNEL);
	if (!buf)
		return 4;
	dma = dma_map_single(dev, buf, 256, DMA_TO_DEVICE);
	if (dma_mapping_error(dev, dma))
		return 5;
	dma_unmap_single(dev, dma, 256, DMA_TO_DEVICE);
	kfree(buf);
	dmaemu_device_destroy(ce);
	if (dmaemu_report_count(m, NULL) != 0)
		return 6;
	dmaemu_machine_destroy(m);
	cachesim_config_init(&cfg);
	cs = cachesim_create(&cfg, NULL, 0);
	if (!cs || cachesim_access(cs, 0x1000, 4, CACHESIM_READ) != 1 ||
	    cachesim_access(cs, 0x1000, 4, CACHESIM_READ) != 0)
		return 7;
	cachesim_destroy(cs);
	puts("installed: ok");
	return 0;
}
EOF
pkgconf() {
	# The staged install first, then the system's own .pc files (the
	# libraries dmaemu requires, such as libdw).
	PKG_CONFIG_PATH=$dest$pkgconfigdir \
		PKG_CONFIG_LIBDIR=$dest$pkgconfigdir:$(pkg-config --variable pc_path pkg-config) \
		PKG_CONFIG_SYSROOT_DIR=$dest pkg-config "$@"
}
if ! command -v pkg-config >/dev/null 2>&1; then
	skip "a program built with pkg-config against the install (no pkg-config)"
elif flags=$(pkgconf --cflags --libs dmaemu-devices dmaemu cachesim 2>"$tmp/err"); then
	ok "pkg-config --cflags --libs dmaemu-devices dmaemu cachesim"
	case " $flags " in
	*" -I$dest$includedir "*) ok "pkg-config points into the install ($flags)" ;;
	*) not_ok "pkg-config points into the install ($flags)" ;;
	esac
	# Each installed header compiles alone from the install (one that
	# includes a header left out of the install fails); but the guard
	# headers, whose job is to stop a build.
	bad=
	for h in $(cd "$dest$includedir" && find dmaemu cachesim -name '*.h' \
		-not -path 'dmaemu/kernel-guard/*' | sort); do
		printf '#include <%s>\n' "$h" >"$tmp/h.c"
		# shellcheck disable=SC2086
		${CC:-cc} -std=gnu11 -Wall -Werror \
			$(pkgconf --cflags dmaemu cachesim) -c "$tmp/h.c" \
			-o "$tmp/h.o" >"$tmp/h.log" 2>&1 || bad="$bad $h"
	done
	if [ -z "$bad" ]; then
		ok "every installed header compiles alone from the install"
	else
		not_ok "every installed header compiles alone from the install"
		diag "failed:$bad"
	fi
	# Word splitting of $flags and $sflags is intended.
	# shellcheck disable=SC2086
	if ${CC:-cc} -std=gnu11 -Wall -Wextra -Werror $sflags -o "$tmp/use" \
		"$tmp/use.c" $flags >"$tmp/cc.log" 2>&1; then
		ok "a program using the public headers builds from the install"
		if LD_LIBRARY_PATH=$dest$libdir "$tmp/use" >"$tmp/out" 2>&1 &&
			grep -qx 'installed: ok' "$tmp/out"; then
			ok "it runs on the installed libraries"
		else
			not_ok "it runs on the installed libraries"
			sed 's/^/# /' "$tmp/out"
		fi
	else
		not_ok "a program using the public headers builds from the install"
		sed 's/^/# /' "$tmp/cc.log"
		skip "it runs on the installed libraries"
	fi
else
	not_ok "pkg-config --cflags --libs dmaemu-devices dmaemu cachesim"
	sed 's/^/# /' "$tmp/err"
fi

# ---------------------------------------------------------------------
# dmaemu-cc from the install.

cat >"$tmp/rx.c" <<'EOF'
#include <stdio.h>

#include <dmaemu/device.h>
#include <dmaemu/machine.h>
#include <linux/dma-mapping.h>
#include <linux/slab.h>

int main(void)
{
	struct dmaemu_machine *m = dmaemu_machine_create("profile=arm64");
	struct dmaemu_device *nic = dmaemu_device_create(m, "nic0", NULL, NULL);
	struct device *dev = dmaemu_device_to_dev(nic);
	char *buf = kzalloc(64, GFP_KERNEL);
	dma_addr_t dma;

	dma = dma_map_single(dev, buf, 64, DMA_FROM_DEVICE);
	if (dma_mapping_error(dev, dma))
		return 1;
	printf("before: %d\n", buf[0]);
	dmaemu_dma_write(nic, dma, "hi", 3);
	printf("no sync: %d\n", buf[0]);
	dma_sync_single_for_cpu(dev, dma, 64, DMA_FROM_DEVICE);
	printf("synced: %s\n", buf);
	dma_unmap_single(dev, dma, 64, DMA_FROM_DEVICE);
	kfree(buf);
	dmaemu_device_destroy(nic);
	dmaemu_machine_destroy(m);
	return 0;
}
EOF
# rx_behaves HOW PROG: the program runs on the installed libraries and
# shows its stale read.
rx_behaves() {
	LD_LIBRARY_PATH=$dest$libdir "$2" >"$tmp/out" 2>"$tmp/err"
	check "$1: it runs" [ $? -eq 0 ]
	check "$1: it reads stale data without the sync" \
		grep -qx 'no sync: 0' "$tmp/out"
	check "$1: it reads the device's data after the sync" \
		grep -qx 'synced: hi' "$tmp/out"
	# The model saw the loads: the one after the device's write, without
	# the sync, is a stale-cpu-read (both are reads of a buffer the
	# device owns, too: the ownership checks may report them).
	check "$1: the read without the sync is one stale-cpu-read report" \
		test "$(grep -c '^SUMMARY: dmaemu: stale-cpu-read ' "$tmp/err")" = 1
}

dcc=$dest$bindir/dmaemu-cc
if [ -n "$SANITIZER" ]; then
	skip "the installed dmaemu-cc: a --enable-sanitizer=$SANITIZER build cannot run instrumented code"
elif ! "$dcc" --dmaemu-show -c x.c | grep -q DMAEMU_INSTRUMENTED; then
	skip "the installed dmaemu-cc: this build has no instrumentation flags"
else
	# Every -I and -L of the command is a directory of the install.
	"$dcc" --dmaemu-show -o rx rx.c | tr ' ' '\n' | grep -e '^-[IL]' |
		sort -u >"$tmp/show"
	printf '%s\n' "-I$dest$includedir" "-I$dest$includedir/dmaemu/kernel" \
		"-I$dest$includedir/dmaemu/kernel-guard" "-L$dest$libdir" |
		sort >"$tmp/want"
	if cmp -s "$tmp/show" "$tmp/want"; then
		ok "the installed dmaemu-cc uses the installed headers and libraries"
	else
		not_ok "the installed dmaemu-cc uses the installed headers and libraries"
		sed 's/^/# /' "$tmp/show"
	fi
	# A kernel header of a subsystem dmaemu does not emulate stops the
	# build with its line (docs/kernel-headers.md).
	printf '#include <linux/phy.h>\n' >"$tmp/skb.c"
	"$dcc" -c -o "$tmp/skb.o" "$tmp/skb.c" >"$tmp/skb.log" 2>&1
	check "the installed dmaemu-cc stops at <linux/phy.h>, naming the networking stack" \
		grep -q "<linux/phy.h> is part of the networking stack" "$tmp/skb.log"
	# Compiled, then linked, as a makefile would.
	if "$dcc" -g -O1 -c -o "$tmp/rx.o" "$tmp/rx.c" >"$tmp/cc.log" 2>&1 &&
		"$dcc" -g -o "$tmp/rx" "$tmp/rx.o" -ldmaemu-devices \
			>>"$tmp/cc.log" 2>&1; then
		ok "the installed dmaemu-cc compiles and links an instrumented program"
		rx_behaves "dmaemu-cc" "$tmp/rx"
		if command -v readelf >/dev/null 2>&1; then
			rp=$(readelf -d "$tmp/rx" | sed -n 's/.*(R[UN]*PATH).*\[\(.*\)\]/\1/p')
			check "dmaemu-cc: the rpath is the installed library's directory ($rp)" \
				[ "$rp" = "$dest$libdir" ]
		else
			skip "dmaemu-cc: the rpath (no readelf)"
		fi
	else
		not_ok "the installed dmaemu-cc compiles and links an instrumented program"
		sed 's/^/# /' "$tmp/cc.log"
	fi
	# The same with the flags of pkg-config dmaemu-instrument.
	case $(${CC:-cc} --version 2>/dev/null | sed -n 1p) in
	*clang*) iflags=$(pkgconf --variable=clang_cflags dmaemu-instrument) ;;
	*) iflags=$(pkgconf --cflags dmaemu-instrument) ;;
	esac
	# -rpath-link: libdmaemu's own RUNPATH, where the linker looks for
	# libcachesim, is the final $libdir, not the staged one.
	# shellcheck disable=SC2086
	if ${CC:-cc} -g $iflags $(pkgconf --cflags dmaemu) -o "$tmp/rx-pc" \
		"$tmp/rx.c" $(pkgconf --libs dmaemu-instrument) \
		-Wl,-rpath-link,"$dest$libdir" >"$tmp/cc.log" 2>&1; then
		ok "pkg-config dmaemu-instrument builds an instrumented program"
		rx_behaves "pkg-config dmaemu-instrument" "$tmp/rx-pc"
	else
		not_ok "pkg-config dmaemu-instrument builds an instrumented program"
		sed 's/^/# /' "$tmp/cc.log"
	fi
fi

# ---------------------------------------------------------------------
# dmaemu-lab and the labs it runs, once the tree has the runner.

labs=$(cd "$top_srcdir/examples/labs" 2>/dev/null &&
	for d in */; do [ -f "$d/lab.conf" ] && echo "${d%/}"; done)
if [ ! -f "$top_srcdir/tools/dmaemu-lab.in" ]; then
	skip "dmaemu-lab and the labs: no lab runner in this tree"
elif [ -z "$labs" ]; then
	check "dmaemu-lab installed in $bindir" [ -x "$dest$bindir/dmaemu-lab" ]
	skip "the labs: none in this tree"
else
	check "dmaemu-lab installed in $bindir" [ -x "$dest$bindir/dmaemu-lab" ]
	missing=
	for f in lab.h lab.c; do
		[ -f "$dest$pkgdatadir/labs/$f" ] || missing="$missing $f"
	done
	for l in $labs; do
		for f in $(cd "$top_srcdir/examples/labs/$l" && ls); do
			[ -f "$dest$pkgdatadir/labs/$l/$f" ] || missing="$missing $l/$f"
		done
	done
	if [ -z "$missing" ]; then
		ok "every lab's files installed in $pkgdatadir/labs"
	else
		not_ok "every lab's files installed in $pkgdatadir/labs"
		diag "missing:$missing"
	fi
	# The script labs port with the semantic patches: all of them.
	missing=
	for f in "$top_srcdir"/cocci/*.cocci; do
		[ -f "$dest$pkgdatadir/cocci/${f##*/}" ] ||
			missing="$missing ${f##*/}"
	done
	if [ -z "$missing" ]; then
		ok "every semantic patch of cocci/ installed in $pkgdatadir/cocci"
	else
		not_ok "every semantic patch of cocci/ installed in $pkgdatadir/cocci"
		diag "missing:$missing"
	fi
fi

# ---------------------------------------------------------------------
# Uninstall.

if submake uninstall DESTDIR="$dest" >"$tmp/uninstall.log" 2>&1; then
	ok "make uninstall DESTDIR=..."
else
	not_ok "make uninstall DESTDIR=..."
	tail -n 20 "$tmp/uninstall.log" | sed 's/^/# /'
fi
left=$(find "$dest" ! -type d)
if [ -z "$left" ]; then
	ok "make uninstall leaves only empty directories"
else
	not_ok "make uninstall leaves only empty directories"
	diag "left:" $left
fi
done_testing
