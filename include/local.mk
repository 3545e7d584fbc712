# include/: the DMA layer's public and kernel-personality headers (the
# headers of lib/'s other parts are listed in lib/local.mk beside their
# sources).

pkginclude_HEADERS += \
	include/dmaemu/device.h \
	include/dmaemu/ktypes.h

dma_kernel_linuxdir = $(pkgincludedir)/kernel/linux
dma_kernel_linux_HEADERS = \
	include/dmaemu/kernel/linux/device.h \
	include/dmaemu/kernel/linux/dma-direction.h \
	include/dmaemu/kernel/linux/dma-mapping.h \
	include/dmaemu/kernel/linux/dmapool.h \
	include/dmaemu/kernel/linux/scatterlist.h
