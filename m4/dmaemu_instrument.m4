# dmaemu_instrument.m4 - the compiler flags of instrumented driver code.
#
# DMAEMU_INSTRUMENT_FLAGS
#
# Driver code is built with a sanitizer's instrumentation in call mode:
# every load and store calls a function that libdmaemu provides.  Clang
# uses its kernel-address-sanitizer (__asan_{load,store}N_noabort());
# GCC, which checks only the first access to an address in a basic block
# with that one (the store of a read-modify-write is lost), its
# thread-sanitizer, given to the compiler proper only so that no runtime
# is linked (__tsan_{read,write}N()).  The spellings:
#
#   INSTRUMENT_GCC_CFLAGS     GCC's spelling
#   INSTRUMENT_CLANG_CFLAGS   Clang's spelling
#   INSTRUMENT_CFLAGS         the spelling for $CC (empty if $CC takes
#                             neither; the instrumented tests then skip)
#   INSTRUMENT_LDFLAGS        link flags routing the program's memcpy,
#                             memset, memmove, memcmp calls to the model
#   INSTRUMENT_CC_KIND        gcc or clang
#
# and the conditional HAVE_INSTRUMENT.  See docs/instrumentation.md.
AC_DEFUN([DMAEMU_INSTRUMENT_FLAGS], [
INSTRUMENT_GCC_CFLAGS="-Wp,-fsanitize=thread,--param=tsan-instrument-func-entry-exit=0,-Wno-tsan -fno-builtin-memcpy -fno-builtin-memmove -fno-builtin-memset -fno-builtin-memcmp -fno-builtin-mempcpy -fno-optimize-sibling-calls -fno-plt -DDMAEMU_INSTRUMENTED=1"
INSTRUMENT_CLANG_CFLAGS="-fsanitize=kernel-address -mllvm -asan-instrumentation-with-call-threshold=0 -mllvm -asan-stack=0 -mllvm -asan-globals=0 -mllvm -asan-opt-same-temp=0 -fno-plt -DDMAEMU_INSTRUMENTED=1"
INSTRUMENT_LDFLAGS="-Wl,--wrap=memcpy,--wrap=memmove,--wrap=memset,--wrap=memcmp,--wrap=bcmp,--wrap=mempcpy,--wrap=__memcpy_chk,--wrap=__memmove_chk,--wrap=__memset_chk"
AC_CACHE_CHECK([whether $CC is Clang], [dmaemu_cv_cc_is_clang],
	[AC_COMPILE_IFELSE([AC_LANG_PROGRAM([], [[
#ifndef __clang__
#error not clang
#endif
]])], [dmaemu_cv_cc_is_clang=yes], [dmaemu_cv_cc_is_clang=no])])
AS_IF([test "x$dmaemu_cv_cc_is_clang" = xyes],
	[INSTRUMENT_CC_KIND=clang; dmaemu_iflags=$INSTRUMENT_CLANG_CFLAGS],
	[INSTRUMENT_CC_KIND=gcc; dmaemu_iflags=$INSTRUMENT_GCC_CFLAGS])
AX_CHECK_COMPILE_FLAG([$dmaemu_iflags], [INSTRUMENT_CFLAGS=$dmaemu_iflags],
	[INSTRUMENT_CFLAGS=
	 AC_MSG_WARN([$CC cannot instrument driver code (no kernel-address or thread sanitizer): instrumented tests will be skipped])],
	[-Werror])
AC_SUBST([INSTRUMENT_GCC_CFLAGS])
AC_SUBST([INSTRUMENT_CLANG_CFLAGS])
AC_SUBST([INSTRUMENT_CFLAGS])
AC_SUBST([INSTRUMENT_LDFLAGS])
AC_SUBST([INSTRUMENT_CC_KIND])
AM_CONDITIONAL([HAVE_INSTRUMENT], [test -n "$INSTRUMENT_CFLAGS"])
])
