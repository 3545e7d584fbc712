# devices/: device models (libdmaemu-devices), built from the public
# headers only (no -I lib: a model sees what an out-of-tree one would) and
# linking the installed library.  Each model has docs/devices/<name>.md.
# The models serve drivers of either API level: they carry no level
# marker (DMAEMU_NO_LEVEL_MARKER, <dmaemu/level.h>), or every program
# linked with them would be a 4.14 one.

lib_LTLIBRARIES += devices/libdmaemu-devices.la
devices_libdmaemu_devices_la_SOURCES = devices/copy-engine.c devices/nic.c \
	devices/checksum.c devices/legacy.c devices/display.c \
	devices/camera.c
# DMAEMU_NO_LEVEL_MARKER: the models serve drivers of both API levels
# (<dmaemu/level.h>); legacy.c's kernel headers must not tie them to 4.14.
devices_libdmaemu_devices_la_CPPFLAGS = -I$(top_srcdir)/include \
	-I$(top_srcdir)/include/dmaemu/kernel -DDMAEMU_NO_LEVEL_MARKER \
	$(LIBPNG_CFLAGS)
devices_libdmaemu_devices_la_LIBADD = lib/libdmaemu.la $(LIBPNG_LIBS) \
	$(PTHREAD_LIBS)
devices_libdmaemu_devices_la_LDFLAGS = -version-info 0:0:0 -no-undefined

pkgconfig_DATA += devices/dmaemu-devices.pc
EXTRA_DIST += devices/dmaemu-devices.pc.in docs/devices/copy-engine.md \
	docs/devices/nic.md docs/devices/checksum.md docs/devices/legacy.md \
	docs/devices/display.md docs/devices/camera.md docs/devices.md
