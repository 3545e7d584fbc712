# lib/dma/: the DMA-mapping API, its three backends, the mapping registry,
# allocations, pools, masks, scatterlists.
lib_libdmaemu_internal_la_SOURCES += \
	lib/dma/dma.h \
	lib/dma/backend.h \
	lib/dma/alloc.c \
	lib/dma/api612.c \
	lib/dma/arch.c \
	lib/dma/direct.c \
	lib/dma/iommu.c \
	lib/dma/mapping.c \
	lib/dma/mask.c \
	lib/dma/owncheck.c \
	lib/dma/pool.c \
	lib/dma/registry.c \
	lib/dma/scatterlist.c \
	lib/dma/swiotlb.c
