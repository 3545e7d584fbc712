# lib/mem/: physical memory, the three copies, line operations, ownership.
lib_libdmaemu_internal_la_SOURCES += \
	lib/mem/mem.h \
	lib/mem/lineops.c \
	lib/mem/ownership.c \
	lib/mem/physmem.c
