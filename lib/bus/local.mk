# lib/bus/: devices, devres, device-side DMA.
lib_libdmaemu_internal_la_SOURCES += \
	lib/bus/bus.h \
	lib/bus/device.c \
	lib/bus/translate.c
