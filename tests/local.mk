# tests/: the shared Check runner and fixtures, and the test lists of every
# module.  A program lists tests/libcheckrun.la before the library the
# fixtures call (it is an archive: the linker must see it first).

check_LTLIBRARIES += tests/libcheckrun.la
tests_libcheckrun_la_SOURCES = tests/check-run.c tests/check-run.h \
	tests/fixture.c tests/fixture.h
tests_libcheckrun_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/lib \
	-I$(top_srcdir)/include/dmaemu/kernel
tests_libcheckrun_la_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_libcheckrun_la_LIBADD = $(CHECK_LIBS)

EXTRA_DIST += tests/tap.sh

# Source formatting (kernel style, .clang-format).
TESTS += tests/format.sh
EXTRA_DIST += tests/format.sh

# Semantic patches for the APIs removed in Linux 4.14.
TESTS += tests/cocci.sh
EXTRA_DIST += tests/cocci.sh tests/cocci/gfp_temporary.c \
	tests/cocci/gfp_temporary.res tests/cocci/noncoherent.c \
	tests/cocci/noncoherent.res cocci/gfp_temporary.cocci \
	cocci/dma_alloc_noncoherent.cocci

# Public and kernel-personality headers: no shadowing, self-contained.
TESTS += tests/headers.sh
EXTRA_DIST += tests/headers.sh

# The README's example behaves as the README says.
TESTS += tests/readme.sh
EXTRA_DIST += tests/readme.sh

# The exported symbols of libdmaemu are its public API.
TESTS += tests/symbols.sh
EXTRA_DIST += tests/symbols.sh
