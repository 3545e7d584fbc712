# lib/mm/: GFP flags, the page allocator, kmalloc, execution context.
lib_libdmaemu_internal_la_SOURCES += \
	lib/mm/mm.h \
	lib/mm/context.c \
	lib/mm/gfp.c \
	lib/mm/page_alloc.c \
	lib/mm/slab.c
