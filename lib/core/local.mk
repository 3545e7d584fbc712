# lib/core/: the machine struct, options, the machine registry, reports
# and the symbolization of their code addresses (libdw).
lib_libdmaemu_internal_la_SOURCES += \
	lib/core/core.h \
	lib/core/klog.c \
	lib/core/options.c \
	lib/core/machines.c \
	lib/core/report.c \
	lib/core/report-query.c \
	lib/core/fault.c \
	lib/core/trace.c \
	lib/core/suppress.c \
	lib/core/symbolize.c
