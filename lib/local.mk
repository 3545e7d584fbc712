# lib/: the emulated platform (libdmaemu).
#
# Every source of lib/ goes into the convenience library
# lib/libdmaemu-internal.la, which the internal tests link so that they can
# reach dmaemu__ functions.  The installed lib/libdmaemu.la is made from it
# and exports only the public names: everything except the dmaemu__ prefix.

noinst_LTLIBRARIES += lib/libdmaemu-internal.la
lib_libdmaemu_internal_la_SOURCES = \
	lib/dmaemu-private.h \
	lib/machine.c \
	lib/options.c \
	lib/physmem.c \
	lib/lineops.c \
	lib/report.c
lib_libdmaemu_internal_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/lib \
	-I$(top_srcdir)/include/dmaemu/kernel
lib_libdmaemu_internal_la_LIBADD = cachesim/libcachesim.la $(PTHREAD_LIBS)

lib_LTLIBRARIES += lib/libdmaemu.la
lib_libdmaemu_la_SOURCES =
lib_libdmaemu_la_LIBADD = lib/libdmaemu-internal.la
lib_libdmaemu_la_LDFLAGS = -version-info 0:0:0 -no-undefined \
	-export-symbols-regex '^([^d]|d[^m]|dm[^a]|dma[^e]|dmae[^m]|dmaem[^u]|dmaemu[^_]|dmaemu_[^_])'

pkginclude_HEADERS += \
	include/dmaemu/dmaemu.h \
	include/dmaemu/machine.h \
	include/dmaemu/report.h
pkgconfig_DATA += lib/dmaemu.pc
EXTRA_DIST += lib/dmaemu.pc.in lib/mm.h lib/cpu.h

# Flags of the internal tests: they include the private header.
lib_test_cppflags = $(AM_CPPFLAGS) -I$(top_srcdir)/lib \
	-I$(top_srcdir)/include/dmaemu/kernel
lib_test_cflags = $(AM_CFLAGS) $(CHECK_CFLAGS)
lib_test_libs = lib/libdmaemu-internal.la tests/libcheckrun.la $(CHECK_LIBS)

# ---------------------------------------------------------------------------
# allocators (gfp.c, page_alloc.c, slab.c, context.c, mm.h, kernel headers)
# ---------------------------------------------------------------------------

# ---------------------------------------------------------------------------
# CPU access (cpu.c, kasan.c, memintrin.c, wc.c, prefetch.c, cpu.h)
# ---------------------------------------------------------------------------
