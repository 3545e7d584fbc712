# lib/base/: locks, race-detector annotations, the host allocator, text.
lib_libdmaemu_internal_la_SOURCES += \
	lib/base/base.h \
	lib/base/alloc.c \
	lib/base/annotate.c \
	lib/base/lock.c \
	lib/base/sbuf.c
