# lib/: the emulated platform (libdmaemu), one folder per layer, lowest
# first (docs/architecture.md).  Each layer's local.mk adds its sources to
# the convenience library lib/libdmaemu-internal.la, which the white-box
# tests link so that they can reach dmaemu__ functions.  The installed
# lib/libdmaemu.la is made from it and exports only the public names:
# everything except the dmaemu__ prefix.

noinst_LTLIBRARIES += lib/libdmaemu-internal.la
lib_libdmaemu_internal_la_SOURCES = lib/machine.c lib/testing.c
lib_libdmaemu_internal_la_LIBADD = cachesim/libcachesim.la $(LIBDW_LIBS) \
	$(PTHREAD_LIBS)
# The kernel-personality headers that lib/ includes define no marker of
# the driver code's API level in the library (<dmaemu/level.h>).
lib_libdmaemu_internal_la_CPPFLAGS = $(AM_CPPFLAGS) -DDMAEMU__LIBRARY

include $(srcdir)/lib/base/local.mk
include $(srcdir)/lib/core/local.mk
include $(srcdir)/lib/mem/local.mk
include $(srcdir)/lib/cpu/local.mk
include $(srcdir)/lib/mm/local.mk
include $(srcdir)/lib/bus/local.mk
include $(srcdir)/lib/dma/local.mk
include $(srcdir)/lib/net/local.mk
# The pictures, the dump and the statistics (<dmaemu/seeing.h>): top layer,
# off every hot path.
lib_libdmaemu_internal_la_SOURCES += lib/linemap.c lib/dump.c lib/stats.c

lib_LTLIBRARIES += lib/libdmaemu.la
lib_libdmaemu_la_SOURCES =
lib_libdmaemu_la_LIBADD = lib/libdmaemu-internal.la
lib_libdmaemu_la_LDFLAGS = -version-info 0:0:0 -no-undefined \
	-export-symbols-regex '^([^d]|d[^m]|dm[^a]|dma[^e]|dmae[^m]|dmaem[^u]|dmaemu[^_]|dmaemu_[^_])'

# Instrumented tests are linked with the --wrap flags against a shared twin
# of the library that exports the internals too: --wrap=memcpy must reach
# the test's own calls only, never the library's (a static library would
# be wrapped with the test).
check_LTLIBRARIES += lib/libdmaemu-shared.la
lib_libdmaemu_shared_la_SOURCES =
lib_libdmaemu_shared_la_LIBADD = lib/libdmaemu-internal.la
lib_libdmaemu_shared_la_LDFLAGS = -rpath $(abs_builddir)/lib -no-undefined

pkgconfig_DATA += lib/dmaemu.pc lib/dmaemu-instrument.pc
EXTRA_DIST += lib/dmaemu.pc.in lib/dmaemu-instrument.pc.in \
	m4/dmaemu_instrument.m4
