# lib/mm/: GFP flags, the page allocator, kmalloc, execution context,
# the kernel's locks, wait queues and completions, time and delays.
lib_libdmaemu_internal_la_SOURCES += \
	lib/mm/mm.h \
	lib/mm/context.c \
	lib/mm/gfp.c \
	lib/mm/page_alloc.c \
	lib/mm/sched.c \
	lib/mm/slab.c \
	lib/mm/sync.c \
	lib/mm/task.c \
	lib/mm/time.c \
	lib/mm/remap.c \
	lib/mm/vmalloc.c
