#!/bin/sh
# dmaemu-cc.sh - the command line of dmaemu-cc as dmaemu-cc(1) describes
# it, with `echo` standing in for the compiler so that the command it
# would run can be read: what it adds when compiling and when linking,
# --dmaemu-show, --dmaemu-uninstrumented, $CC with arguments, DMAEMU_CC_KIND,
# DMAEMU_CC_UNINSTALLED, a moved installation, the compiler's exit status,
# the refusal of a sanitizer build, --dmaemu-help and --dmaemu-version.  (tests/scripts/install.sh runs the installed one.)
. "$top_srcdir/tests/runner/tap.sh"

top_builddir=$(cd "$top_builddir" && pwd)
dcc=$top_builddir/tools/dmaemu-cc
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dmaemu-cc.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
unset DMAEMU_CC_KIND DMAEMU_CC_UNINSTALLED

# run ARGS...: dmaemu-cc's stdout in out, stderr in err, status in rc.
run() {
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}
has() { grep -q -e "$1" "$tmp/out"; }

if [ -n "$SANITIZER" ]; then
	run env CC=echo "$dcc" -c x.c
	check "a --enable-sanitizer build's dmaemu-cc refuses: status 2" [ "$rc" = 2 ]
	check "... and says why" grep -q "enable-sanitizer=$SANITIZER" "$tmp/err"
	check "... and runs nothing" [ ! -s "$tmp/out" ]
	run env CC=echo "$dcc" --dmaemu-show -c x.c
	check "... even with --dmaemu-show" [ "$rc" = 2 ]
	run env CC=echo "$dcc" --dmaemu-uninstrumented -c x.c
	check "... but builds with --dmaemu-uninstrumented" [ "$rc" = 0 ]
	check "... with the headers, without instrumentation" sh -c \
		"grep -q -e '-I.*/include/dmaemu/kernel' '$tmp/out' &&
		 ! grep -q DMAEMU_INSTRUMENTED '$tmp/out'"
	done_testing
	exit
fi

gcc_flags=$(sed -n 's/^gcc_flags="\(.*\)"$/\1/p' "$dcc")
# The source tree as configure spelled it (maybe with a "..").
src=$(sed -n 's/^abs_top_srcdir="\(.*\)"$/\1/p' "$dcc")
[ -n "$gcc_flags" ] ||
	skip_all "this build has no instrumentation flags (the compiler has no sanitizer to instrument with)"

# Compiling: headers and flags, nothing of the link.
run env CC=echo "$dcc" -O2 -c x.c -o x.o
check "compile: status 0" [ "$rc" = 0 ]
check "compile: the source tree's headers" \
	has "-I$src/include -I$src/include/dmaemu/kernel"
check "compile: the instrumentation flags" has "DMAEMU_INSTRUMENTED=1"
check "compile: the arguments in their place" has " -O2 -c x.c -o x.o"
check "compile: the guard headers after the arguments" \
	has " -O2 -c x.c -o x.o -I$top_builddir/include/dmaemu/kernel-guard"
check "compile: no --wrap, no -ldmaemu" sh -c "! grep -q -e '--wrap\|-ldmaemu' '$tmp/out'"
for a in -S -E -M -MM; do
	run env CC=echo "$dcc" $a x.c
	check "$a: nothing of the link" sh -c "! grep -q -e '--wrap\|-ldmaemu' '$tmp/out'"
done

check "compile, GCC: its thread-sanitizer, for the compiler proper only" \
	has " -Wp,-fsanitize=thread,--param=tsan-instrument-func-entry-exit=0,"
run env CC=echo DMAEMU_CC_KIND=clang "$dcc" -O2 -c x.c -o x.o
check "compile, Clang: its kernel-address-sanitizer, every access" \
	has " -fsanitize=kernel-address .*-asan-opt-same-temp=0"
# GCC's flag reaches the compiler proper through -Wp: a compile that
# preprocesses apart would leave the code uninstrumented.
for a in -save-temps -save-temps=obj -no-integrated-cpp x.i; do
	run env CC=echo DMAEMU_CC_KIND=gcc "$dcc" -c "$a" x.c
	check "GCC, $a: refused (status 2), runs nothing" \
		sh -c "[ $rc = 2 ] && [ ! -s '$tmp/out' ]"
	check "GCC, $a: says why" grep -q "uninstrumented" "$tmp/err"
	run env CC=echo DMAEMU_CC_KIND=clang "$dcc" -c "$a" x.c
	check "Clang, $a: accepted" [ "$rc" = 0 ]
done
run env CC=echo DMAEMU_CC_KIND=gcc "$dcc" --dmaemu-uninstrumented -c -save-temps x.c
check "GCC, -save-temps, uninstrumented: accepted" [ "$rc" = 0 ]

# Linking: the --wrap flags and the libraries, after the arguments.
run env CC=echo "$dcc" -o prog x.o -lm
check "link: the --wrap flags" has "--wrap=memcpy"
check "link: -ldmaemu -lpthread, after the arguments" \
	has "x\.o -lm .*-ldmaemu -lpthread"
check "link: the build tree's library, with an rpath" \
	has "-L$top_builddir/lib/.libs .*-Wl,-rpath,$top_builddir/lib/.libs"

# --dmaemu-show prints the command and runs nothing.
run env CC=false "$dcc" --dmaemu-show -c x.c
check "--dmaemu-show: status 0 (the compiler, false, does not run)" [ "$rc" = 0 ]
check "--dmaemu-show: prints the command" has "^false -I.* -c x\.c"
run env CC=echo "$dcc" -c x.c --dmaemu-show
check "--dmaemu-show is only an option before the compiler's arguments" \
	has "-c x\.c --dmaemu-show"

# --dmaemu-uninstrumented: headers and library, no instrumentation, no
# --wrap; with --dmaemu-show in either order.
run env CC=echo "$dcc" --dmaemu-uninstrumented -o prog x.c
check "--dmaemu-uninstrumented: the headers and -ldmaemu" \
	has "-I$src/include .* -ldmaemu -lpthread"
check "--dmaemu-uninstrumented: no instrumentation, no --wrap" \
	sh -c "! grep -q -e 'DMAEMU_INSTRUMENTED\|--wrap' '$tmp/out'"
run env CC=false "$dcc" --dmaemu-uninstrumented --dmaemu-show -c x.c
check "--dmaemu-uninstrumented --dmaemu-show: shown, not run" \
	sh -c "[ $rc = 0 ] && grep -q '^false -I' '$tmp/out' && ! grep -q DMAEMU_INSTRUMENTED '$tmp/out'"

# The compiler's status is dmaemu-cc's.
run env CC=false "$dcc" -c x.c
check "the compiler's exit status (false: 1)" [ "$rc" = 1 ]

# $CC may carry arguments.
run env CC="echo --my-flag" "$dcc" -c x.c
check "CC with arguments: kept in front" has "^--my-flag -I"

# DMAEMU_CC_KIND chooses the spelling; anything else is refused.
run env CC=echo DMAEMU_CC_KIND=clang "$dcc" -c x.c
check "DMAEMU_CC_KIND=clang: Clang's spelling (-mllvm)" has "-mllvm"
run env CC=echo DMAEMU_CC_KIND=gcc "$dcc" -c x.c
check "DMAEMU_CC_KIND=gcc: GCC's spelling (--param)" has "--param"
run env CC=echo DMAEMU_CC_KIND=icc "$dcc" -c x.c
check "DMAEMU_CC_KIND=icc: status 2" [ "$rc" = 2 ]
check "DMAEMU_CC_KIND=icc: a message saying so" grep -q "DMAEMU_CC_KIND must be gcc or clang" "$tmp/err"
check "DMAEMU_CC_KIND=icc: runs nothing" [ ! -s "$tmp/out" ]

# Without DMAEMU_CC_KIND, the first line of $CC --version decides.
cat >"$tmp/fakeclang" <<'EOF'
#!/bin/sh
[ "$1" = --version ] && { echo "Debian clang version 14.0.6"; exit 0; }
echo "$@"
EOF
chmod +x "$tmp/fakeclang"
run env CC="$tmp/fakeclang" "$dcc" -c x.c
check "a compiler whose --version says clang gets Clang's spelling" has "-mllvm"

# A copy outside the build tree is an installed one, unless
# DMAEMU_CC_UNINSTALLED is set.
cp "$dcc" "$tmp/dmaemu-cc"
run env CC=echo "$tmp/dmaemu-cc" -c x.c
check "a copy elsewhere uses the installed headers" \
	sh -c "! grep -q -e '-I$src/include' '$tmp/out'"
run env CC=echo DMAEMU_CC_UNINSTALLED=1 "$tmp/dmaemu-cc" -c x.c
check "DMAEMU_CC_UNINSTALLED=1: the source tree's headers" \
	has "-I$src/include "

# An installation moved elsewhere (PREFIX/bin/dmaemu-cc next to
# PREFIX/include/dmaemu) is found from the script's place; checked with
# configure's default layout of the prefix.
if grep -qx 'exec_prefix="${prefix}"' "$dcc" &&
	grep -qx 'includedir="${prefix}/include"' "$dcc" &&
	grep -qx 'libdir="${exec_prefix}/lib"' "$dcc"; then
	moved=$(cd "$tmp" && pwd -P)/moved
	mkdir -p "$moved/bin" "$moved/include/dmaemu"
	cp "$dcc" "$moved/bin/dmaemu-cc"
	run env CC=echo "$moved/bin/dmaemu-cc" -o prog x.o
	check "a moved installation: its headers" has "-I$moved/include "
	check "a moved installation: its libraries, with an rpath" \
		has "-L$moved/lib .*-Wl,-rpath,$moved/lib "
else
	skip "a moved installation: the build has another layout than PREFIX/include, PREFIX/lib"
fi

# Its own help and version; --help and --version stay the compiler's.
# yes CONDITION...: "yes" when the command succeeds, else "no".
yes() { if "$@"; then echo yes; else echo no; fi; }
version=$("$top_builddir/cachesim/cachesim" --version | sed 's/.* //')
run env CC=echo "$dcc" --dmaemu-help
check "--dmaemu-help: status 0, on stdout only" \
	[ "$rc:$(yes test -s "$tmp/err")" = 0:no ]
check "--dmaemu-help: the usage and every --dmaemu- option" sh -c \
	"grep -q '^usage: dmaemu-cc ' '$tmp/out' &&
	 grep -q -e '--dmaemu-show ' '$tmp/out' &&
	 grep -q -e '--dmaemu-uninstrumented ' '$tmp/out' &&
	 grep -q -e '--dmaemu-version ' '$tmp/out'"
run env CC=echo "$dcc" --dmaemu-version
check "--dmaemu-version: 'dmaemu-cc (dmaemu) $version', status 0" \
	[ "$rc:$(cat "$tmp/out")" = "0:dmaemu-cc (dmaemu) $version" ]
run env CC=echo "$dcc" --help
check "--help is the compiler's" [ "$rc:$(yes has '^-I.* --help ')" = 0:yes ]
run env CC=echo "$dcc" --version
check "--version is the compiler's" \
	[ "$rc:$(yes has '^-I.* --version ')" = 0:yes ]
run env CC=echo "$dcc" --dmaemu-shwo -c x.c
check "an unknown --dmaemu option: status 2, named, nothing run" \
	[ "$rc:$(yes grep -q "unknown option '--dmaemu-shwo'" "$tmp/err"):$(yes test -s "$tmp/out")" = 2:yes:no ]
done_testing
