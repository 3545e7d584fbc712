# lib/bus/: devices, devres, device-side DMA, bus address translation and
# the IOMMU, device threads, interrupts, the platform bus.
lib_libdmaemu_internal_la_SOURCES += \
	lib/bus/bus.h \
	lib/bus/clk.c \
	lib/bus/device.c \
	lib/bus/hrtimer.c \
	lib/bus/devres.c \
	lib/bus/iommu.c \
	lib/bus/irq.c \
	lib/bus/kwork.c \
	lib/bus/pci.c \
	lib/bus/platform.c \
	lib/bus/region.c \
	lib/bus/softirq.c \
	lib/bus/thread.c \
	lib/bus/translate.c
