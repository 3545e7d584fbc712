# cachesim/: the standalone cache simulator library (libcachesim).

lib_LTLIBRARIES += cachesim/libcachesim.la
cachesim_libcachesim_la_SOURCES = cachesim/cachesim.c cachesim/cachesim.h
cachesim_libcachesim_la_LDFLAGS = -version-info 0:0:0 -no-undefined
cachesim_includedir = $(includedir)/cachesim
cachesim_include_HEADERS = cachesim/cachesim.h
pkgconfig_DATA += cachesim/cachesim.pc
EXTRA_DIST += cachesim/cachesim.pc.in

include $(srcdir)/cachesim/cli.mk
