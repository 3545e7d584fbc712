# tests/fuzz/: libFuzzer targets (docs/reliability.md).  Built only when
# configure found that $CC can build them (HAVE_FUZZ: clang with
# -fsanitize=fuzzer).  They link a twin of the library made from the same
# sources with coverage and ASan+UBSan (libdmaemu-fuzz); the twin leaves
# out the kernel-address hooks, which are ASan's own entry points
# (DMAEMU_SANITIZER, as in a sanitizer build).
#
# make check runs each target over its seed corpus and then for a bounded
# number of inputs (tests/scripts/fuzz.sh, FUZZ_RUNS); make fuzz runs each
# for FUZZ_SECONDS seconds, keeping what it finds in tests/fuzz/found/.

fuzz_targets = tests/fuzz/fuzz-options tests/fuzz/fuzz-trace \
	tests/fuzz/fuzz-size tests/fuzz/fuzz-dma tests/fuzz/fuzz-devices \
	tests/fuzz/fuzz-machine
fuzz_cflags = $(AM_CFLAGS) $(FUZZ_CFLAGS)
fuzz_cppflags = $(AM_CPPFLAGS) -DDMAEMU_SANITIZER='"address"'

if HAVE_FUZZ
check_LTLIBRARIES += tests/fuzz/libdmaemu-fuzz.la
check_PROGRAMS += $(fuzz_targets)
AM_TESTS_ENVIRONMENT += FUZZ_TARGETS='$(fuzz_targets)'; export FUZZ_TARGETS;
endif
tests_fuzz_libdmaemu_fuzz_la_SOURCES = $(lib_libdmaemu_internal_la_SOURCES) \
	cachesim/cachesim.c cachesim/cachesim.h
tests_fuzz_libdmaemu_fuzz_la_CPPFLAGS = $(fuzz_cppflags)
tests_fuzz_libdmaemu_fuzz_la_CFLAGS = $(fuzz_cflags)
tests_fuzz_libdmaemu_fuzz_la_LIBADD = $(LIBDW_LIBS) $(PTHREAD_LIBS)

tests_fuzz_fuzz_options_SOURCES = tests/fuzz/fuzz-options.c
tests_fuzz_fuzz_options_CPPFLAGS = $(fuzz_cppflags)
tests_fuzz_fuzz_options_CFLAGS = $(fuzz_cflags)
tests_fuzz_fuzz_options_LDFLAGS = $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_options_LDADD = tests/fuzz/libdmaemu-fuzz.la

tests_fuzz_fuzz_trace_SOURCES = tests/fuzz/fuzz-trace.c cachesim/trace.c \
	cachesim/trace.h
tests_fuzz_fuzz_trace_CPPFLAGS = $(fuzz_cppflags)
tests_fuzz_fuzz_trace_CFLAGS = $(fuzz_cflags)
tests_fuzz_fuzz_trace_LDFLAGS = $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_trace_LDADD =

tests_fuzz_fuzz_size_SOURCES = tests/fuzz/fuzz-size.c
tests_fuzz_fuzz_size_CPPFLAGS = $(fuzz_cppflags)
tests_fuzz_fuzz_size_CFLAGS = $(fuzz_cflags)
tests_fuzz_fuzz_size_LDFLAGS = $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_size_LDADD = tests/fuzz/libdmaemu-fuzz.la

tests_fuzz_fuzz_dma_SOURCES = tests/fuzz/fuzz-dma.c tests/fuzz/fuzz-input.h
tests_fuzz_fuzz_dma_CPPFLAGS = $(fuzz_cppflags)
tests_fuzz_fuzz_dma_CFLAGS = $(fuzz_cflags)
tests_fuzz_fuzz_dma_LDFLAGS = $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_dma_LDADD = tests/fuzz/libdmaemu-fuzz.la

# The device models are built into the target with the same flags as the
# library twin (coverage, ASan+UBSan), from the public headers as always.
tests_fuzz_fuzz_devices_SOURCES = tests/fuzz/fuzz-devices.c tests/fuzz/fuzz-input.h \
	$(devices_libdmaemu_devices_la_SOURCES)
tests_fuzz_fuzz_devices_CPPFLAGS = $(fuzz_cppflags) $(LIBPNG_CFLAGS)
tests_fuzz_fuzz_devices_CFLAGS = $(fuzz_cflags)
tests_fuzz_fuzz_devices_LDFLAGS = $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_devices_LDADD = tests/fuzz/libdmaemu-fuzz.la $(LIBPNG_LIBS)

tests_fuzz_fuzz_machine_SOURCES = tests/fuzz/fuzz-machine.c tests/fuzz/fuzz-input.h \
	$(devices_libdmaemu_devices_la_SOURCES)
tests_fuzz_fuzz_machine_CPPFLAGS = $(fuzz_cppflags) $(LIBPNG_CFLAGS)
tests_fuzz_fuzz_machine_CFLAGS = $(fuzz_cflags)
tests_fuzz_fuzz_machine_LDFLAGS = $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_machine_LDADD = tests/fuzz/libdmaemu-fuzz.la $(LIBPNG_LIBS)

TESTS += tests/scripts/fuzz.sh
EXTRA_DIST += tests/scripts/fuzz.sh tests/fuzz/corpus

# make fuzz: every target for FUZZ_SECONDS seconds (default 60).
FUZZ_SECONDS = 60
fuzz:
if HAVE_FUZZ
	$(AM_V_at)$(MAKE) $(AM_MAKEFLAGS) $(fuzz_targets)
	$(AM_V_at)top_srcdir='$(top_srcdir)' top_builddir='$(top_builddir)' \
	FUZZ_TARGETS='$(fuzz_targets)' FUZZ_SECONDS='$(FUZZ_SECONDS)' \
	$(SHELL) $(top_srcdir)/tests/scripts/fuzz.sh
else
	@echo "make fuzz: the fuzz targets are not built here: configure with CC=clang (and its libFuzzer runtime)" >&2; exit 1
endif
.PHONY: fuzz
