# lib/cpu/: the CPU access path, compiler hooks, mem* routing,
# write-combining, prefetch, MMIO accessors.
lib_libdmaemu_internal_la_SOURCES += \
	lib/cpu/cpu.h \
	lib/cpu/cpu.c \
	lib/cpu/kasan.c \
	lib/cpu/memintrin.c \
	lib/cpu/order.c \
	lib/cpu/owncheck.c \
	lib/cpu/prefetch.c \
	lib/cpu/tsan.c \
	lib/cpu/wc.c
