# include/: every installed header of libdmaemu, in one place.
#   <dmaemu/*.h>          the emulator's public API
#   <dmaemu/kernel/...>   the kernel personality (the -I that dmaemu-cc and
#                         pkg-config dmaemu-instrument add)

pkginclude_HEADERS += \
	include/dmaemu/check.h \
	include/dmaemu/context.h \
	include/dmaemu/cpu.h \
	include/dmaemu/device.h \
	include/dmaemu/dmaemu.h \
	include/dmaemu/ktypes.h \
	include/dmaemu/machine.h \
	include/dmaemu/mm.h \
	include/dmaemu/report.h \
	include/dmaemu/sched.h \
	include/dmaemu/testing.h \
	include/dmaemu/sync.h \
	include/dmaemu/vma.h

kernel_linuxdir = $(pkgincludedir)/kernel/linux
kernel_linux_HEADERS = \
	include/dmaemu/kernel/linux/atomic.h \
	include/dmaemu/kernel/linux/compiler.h \
	include/dmaemu/kernel/linux/completion.h \
	include/dmaemu/kernel/linux/delay.h \
	include/dmaemu/kernel/linux/device.h \
	include/dmaemu/kernel/linux/dma-direction.h \
	include/dmaemu/kernel/linux/dma-mapping.h \
	include/dmaemu/kernel/linux/dmapool.h \
	include/dmaemu/kernel/linux/err.h \
	include/dmaemu/kernel/linux/gfp.h \
	include/dmaemu/kernel/linux/hardirq.h \
	include/dmaemu/kernel/linux/interrupt.h \
	include/dmaemu/kernel/linux/io.h \
	include/dmaemu/kernel/linux/ioport.h \
	include/dmaemu/kernel/linux/irqflags.h \
	include/dmaemu/kernel/linux/jiffies.h \
	include/dmaemu/kernel/linux/mm.h \
	include/dmaemu/kernel/linux/mm_types.h \
	include/dmaemu/kernel/linux/mmzone.h \
	include/dmaemu/kernel/linux/mutex.h \
	include/dmaemu/kernel/linux/pci-dma-compat.h \
	include/dmaemu/kernel/linux/pci.h \
	include/dmaemu/kernel/linux/platform_device.h \
	include/dmaemu/kernel/linux/preempt.h \
	include/dmaemu/kernel/linux/scatterlist.h \
	include/dmaemu/kernel/linux/slab.h \
	include/dmaemu/kernel/linux/spinlock.h \
	include/dmaemu/kernel/linux/vmalloc.h \
	include/dmaemu/kernel/linux/wait_bit.h

kernel_asmdir = $(pkgincludedir)/kernel/asm
kernel_asm_HEADERS = include/dmaemu/kernel/asm/barrier.h

devicesdir = $(pkgincludedir)/devices
devices_HEADERS = include/dmaemu/devices/copy-engine.h \
	include/dmaemu/devices/nic.h include/dmaemu/devices/checksum.h \
	include/dmaemu/devices/legacy.h include/dmaemu/devices/display.h
