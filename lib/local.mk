# lib/: the emulated platform (libdmaemu).
#
# Every source of lib/ goes into the convenience library
# lib/libdmaemu-internal.la, which the internal tests link so that they can
# reach dmaemu__ functions.  The installed lib/libdmaemu.la is made from it
# and exports only the public names: everything except the dmaemu__ prefix.

noinst_LTLIBRARIES += lib/libdmaemu-internal.la
lib_libdmaemu_internal_la_SOURCES = \
	lib/dmaemu-private.h \
	lib/machine.c \
	lib/options.c \
	lib/physmem.c \
	lib/lineops.c \
	lib/report.c
lib_libdmaemu_internal_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/lib \
	-I$(top_srcdir)/include/dmaemu/kernel
lib_libdmaemu_internal_la_LIBADD = cachesim/libcachesim.la $(PTHREAD_LIBS)

lib_LTLIBRARIES += lib/libdmaemu.la
lib_libdmaemu_la_SOURCES =
lib_libdmaemu_la_LIBADD = lib/libdmaemu-internal.la
lib_libdmaemu_la_LDFLAGS = -version-info 0:0:0 -no-undefined \
	-export-symbols-regex '^([^d]|d[^m]|dm[^a]|dma[^e]|dmae[^m]|dmaem[^u]|dmaemu[^_]|dmaemu_[^_])'

pkginclude_HEADERS += \
	include/dmaemu/dmaemu.h \
	include/dmaemu/machine.h \
	include/dmaemu/report.h
pkgconfig_DATA += lib/dmaemu.pc
EXTRA_DIST += lib/dmaemu.pc.in lib/mm.h lib/cpu.h docs/options.md

# Flags of the internal tests: they include the private header.
lib_test_cppflags = $(AM_CPPFLAGS) -I$(top_srcdir)/lib \
	-I$(top_srcdir)/include/dmaemu/kernel
lib_test_cflags = $(AM_CFLAGS) $(CHECK_CFLAGS)
lib_test_libs = tests/libcheckrun.la lib/libdmaemu-internal.la $(CHECK_LIBS)

# Unit tests of the core (they link the internal twin of the library).
lib_core_tests = tests/check-machine tests/check-physmem tests/check-lineops \
	tests/check-stripes
check_PROGRAMS += $(lib_core_tests)
TESTS += $(lib_core_tests)
tests_check_machine_SOURCES = tests/check-machine.c
tests_check_machine_CPPFLAGS = $(lib_test_cppflags)
tests_check_machine_CFLAGS = $(lib_test_cflags)
tests_check_machine_LDADD = $(lib_test_libs)
tests_check_physmem_SOURCES = tests/check-physmem.c
tests_check_physmem_CPPFLAGS = $(lib_test_cppflags)
tests_check_physmem_CFLAGS = $(lib_test_cflags)
tests_check_physmem_LDADD = $(lib_test_libs)
tests_check_lineops_SOURCES = tests/check-lineops.c
tests_check_lineops_CPPFLAGS = $(lib_test_cppflags)
tests_check_lineops_CFLAGS = $(lib_test_cflags)
tests_check_lineops_LDADD = $(lib_test_libs)
tests_check_stripes_SOURCES = tests/check-stripes.c
tests_check_stripes_CPPFLAGS = $(lib_test_cppflags)
tests_check_stripes_CFLAGS = $(lib_test_cflags)
tests_check_stripes_LDADD = $(lib_test_libs)

# Benchmark of the line operations (bench_list is in bench/local.mk).
noinst_PROGRAMS += bench/bench-lineops
bench_bench_lineops_SOURCES = bench/bench-lineops.c
bench_bench_lineops_CPPFLAGS = $(lib_test_cppflags)
bench_bench_lineops_LDADD = lib/libdmaemu-internal.la

# ---------------------------------------------------------------------------
# allocators (gfp.c, page_alloc.c, slab.c, context.c, mm.h, kernel headers)
# ---------------------------------------------------------------------------

lib_libdmaemu_internal_la_SOURCES += \
	lib/mm.h \
	lib/gfp.c \
	lib/page_alloc.c \
	lib/slab.c \
	lib/context.c

pkginclude_HEADERS += \
	include/dmaemu/mm.h \
	include/dmaemu/context.h

mm_kerneldir = $(pkgincludedir)/kernel/linux
mm_kernel_HEADERS = \
	include/dmaemu/kernel/linux/gfp.h \
	include/dmaemu/kernel/linux/hardirq.h \
	include/dmaemu/kernel/linux/irqflags.h \
	include/dmaemu/kernel/linux/mm.h \
	include/dmaemu/kernel/linux/mm_types.h \
	include/dmaemu/kernel/linux/mmzone.h \
	include/dmaemu/kernel/linux/preempt.h \
	include/dmaemu/kernel/linux/slab.h

check_PROGRAMS += tests/check-gfp tests/check-page-alloc tests/check-slab
TESTS += tests/check-gfp tests/check-page-alloc tests/check-slab \
	tests/gfp-temporary.sh
EXTRA_DIST += tests/gfp-temporary.sh docs/memory.md

tests_check_gfp_SOURCES = tests/check-gfp.c
tests_check_gfp_CPPFLAGS = $(lib_test_cppflags)
tests_check_gfp_CFLAGS = $(lib_test_cflags)
tests_check_gfp_LDADD = $(lib_test_libs)

tests_check_page_alloc_SOURCES = tests/check-page-alloc.c
tests_check_page_alloc_CPPFLAGS = $(lib_test_cppflags)
tests_check_page_alloc_CFLAGS = $(lib_test_cflags)
tests_check_page_alloc_LDADD = $(lib_test_libs)

tests_check_slab_SOURCES = tests/check-slab.c
tests_check_slab_CPPFLAGS = $(lib_test_cppflags)
tests_check_slab_CFLAGS = $(lib_test_cflags)
tests_check_slab_LDADD = $(lib_test_libs)

# ---------------------------------------------------------------------------
# CPU access (cpu.c, kasan.c, memintrin.c, wc.c, prefetch.c, cpu.h)
# ---------------------------------------------------------------------------

lib_libdmaemu_internal_la_SOURCES += \
	lib/cpu.c \
	lib/kasan.c \
	lib/memintrin.c \
	lib/wc.c \
	lib/prefetch.c

pkginclude_HEADERS += include/dmaemu/cpu.h
cpu_kernel_linuxdir = $(pkgincludedir)/kernel/linux
cpu_kernel_linux_HEADERS = \
	include/dmaemu/kernel/linux/compiler.h \
	include/dmaemu/kernel/linux/io.h
cpu_kernel_asmdir = $(pkgincludedir)/kernel/asm
cpu_kernel_asm_HEADERS = include/dmaemu/kernel/asm/barrier.h
pkgconfig_DATA += lib/dmaemu-instrument.pc
EXTRA_DIST += lib/dmaemu-instrument.pc.in m4/dmaemu_instrument.m4 \
	docs/instrumentation.md

# Instrumented tests are compiled with the instrumentation flags and linked
# with the --wrap flags, against a shared twin of the library that exports
# the internals too: --wrap=memcpy must reach the test's own calls only,
# never the library's (a static library would be wrapped with the test).
check_LTLIBRARIES += lib/libdmaemu-shared.la
lib_libdmaemu_shared_la_SOURCES =
lib_libdmaemu_shared_la_LIBADD = lib/libdmaemu-internal.la
lib_libdmaemu_shared_la_LDFLAGS = -rpath $(abs_builddir)/lib -no-undefined

instr_test_cflags = $(lib_test_cflags) $(INSTRUMENT_CFLAGS)
instr_test_libs = tests/libcheckrun.la lib/libdmaemu-shared.la \
	cachesim/libcachesim.la $(CHECK_LIBS)

check_PROGRAMS += tests/check-uninstrumented
TESTS += tests/check-uninstrumented
tests_check_uninstrumented_SOURCES = tests/check-uninstrumented.c
tests_check_uninstrumented_CPPFLAGS = $(lib_test_cppflags)
tests_check_uninstrumented_CFLAGS = $(lib_test_cflags)
tests_check_uninstrumented_LDADD = $(lib_test_libs)

if HAVE_INSTRUMENT
check_PROGRAMS += tests/check-cpu tests/check-wc
TESTS += tests/check-cpu tests/check-wc
endif
tests_check_cpu_SOURCES = tests/check-cpu.c
tests_check_cpu_CPPFLAGS = $(lib_test_cppflags)
tests_check_cpu_CFLAGS = $(instr_test_cflags)
tests_check_cpu_LDFLAGS = $(INSTRUMENT_LDFLAGS)
tests_check_cpu_LDADD = $(instr_test_libs)

tests_check_wc_SOURCES = tests/check-wc.c
tests_check_wc_CPPFLAGS = $(lib_test_cppflags)
tests_check_wc_CFLAGS = $(instr_test_cflags)
tests_check_wc_LDFLAGS = $(INSTRUMENT_LDFLAGS)
tests_check_wc_LDADD = $(instr_test_libs)

# ---------------------------------------------------------------------------
# DMA allocation side (dma_alloc.c, dma_pool.c, scatterlist.c, dma_mask.c)
# ---------------------------------------------------------------------------

lib_libdmaemu_internal_la_SOURCES += \
	lib/scatterlist.c

pkginclude_HEADERS += include/dmaemu/vma.h

dma_c_tests = tests/check-dma-sg tests/check-dma-alloc tests/check-dma-pool \
	tests/check-dma-mask
check_PROGRAMS += $(dma_c_tests)
TESTS += $(dma_c_tests) tests/removed-api.sh
EXTRA_DIST += tests/removed-api.sh docs/dma-alloc.md

tests_check_dma_sg_SOURCES = tests/check-dma-sg.c
tests_check_dma_sg_CPPFLAGS = $(lib_test_cppflags)
tests_check_dma_sg_CFLAGS = $(lib_test_cflags)
tests_check_dma_sg_LDADD = $(lib_test_libs)
tests_check_dma_alloc_SOURCES = tests/check-dma-alloc.c
tests_check_dma_alloc_CPPFLAGS = $(lib_test_cppflags)
tests_check_dma_alloc_CFLAGS = $(lib_test_cflags)
tests_check_dma_alloc_LDADD = $(lib_test_libs)
tests_check_dma_pool_SOURCES = tests/check-dma-pool.c
tests_check_dma_pool_CPPFLAGS = $(lib_test_cppflags)
tests_check_dma_pool_CFLAGS = $(lib_test_cflags)
tests_check_dma_pool_LDADD = $(lib_test_libs)
tests_check_dma_mask_SOURCES = tests/check-dma-mask.c
tests_check_dma_mask_CPPFLAGS = $(lib_test_cppflags)
tests_check_dma_mask_CFLAGS = $(lib_test_cflags)
tests_check_dma_mask_LDADD = $(lib_test_libs)

# ---------------------------------------------------------------------------
# DMA core (device.c, dma_mapping.c, dma_direct.c, dma_debug.c, ownership.c)
# ---------------------------------------------------------------------------

# The DMA layer links as one unit: the dispatcher calls every backend and
# device destroy calls the allocation side, so the backends' and the
# allocation side's library sources are listed here with the core's.
lib_libdmaemu_internal_la_SOURCES += \
	lib/dma.h \
	lib/device.c \
	lib/dma_mapping.c \
	lib/dma_direct.c \
	lib/dma_debug.c \
	lib/ownership.c \
	lib/swiotlb.c \
	lib/iommu.c \
	lib/dma_alloc.c \
	lib/dma_mask.c \
	lib/dma_pool.c

# Suites of the core (instrumented like driver code where the CPU's view
# of the data is what is tested).
if HAVE_INSTRUMENT
check_PROGRAMS += tests/check-dma-direct
TESTS += tests/check-dma-direct
endif
tests_check_dma_direct_SOURCES = tests/check-dma-direct.c
tests_check_dma_direct_CPPFLAGS = $(lib_test_cppflags)
tests_check_dma_direct_CFLAGS = $(instr_test_cflags)
tests_check_dma_direct_LDFLAGS = $(INSTRUMENT_LDFLAGS)
tests_check_dma_direct_LDADD = $(instr_test_libs)

check_PROGRAMS += tests/check-dma-device tests/check-dma-concurrency
TESTS += tests/check-dma-device tests/check-dma-concurrency
tests_check_dma_device_SOURCES = tests/check-dma-device.c
tests_check_dma_device_CPPFLAGS = $(lib_test_cppflags)
tests_check_dma_device_CFLAGS = $(lib_test_cflags)
tests_check_dma_device_LDADD = $(lib_test_libs)
tests_check_dma_concurrency_SOURCES = tests/check-dma-concurrency.c
tests_check_dma_concurrency_CPPFLAGS = $(lib_test_cppflags)
tests_check_dma_concurrency_CFLAGS = $(lib_test_cflags)
tests_check_dma_concurrency_LDADD = $(lib_test_libs)

# ---------------------------------------------------------------------------
# DMA backends (swiotlb.c, iommu.c; their sources are in the block above)
# ---------------------------------------------------------------------------

check_PROGRAMS += tests/check-dma-swiotlb tests/check-dma-iommu
TESTS += tests/check-dma-swiotlb tests/check-dma-iommu
tests_check_dma_swiotlb_SOURCES = tests/check-dma-swiotlb.c
tests_check_dma_swiotlb_CPPFLAGS = $(lib_test_cppflags)
tests_check_dma_swiotlb_CFLAGS = $(lib_test_cflags)
tests_check_dma_swiotlb_LDADD = $(lib_test_libs)
tests_check_dma_iommu_SOURCES = tests/check-dma-iommu.c
tests_check_dma_iommu_CPPFLAGS = $(lib_test_cppflags)
tests_check_dma_iommu_CFLAGS = $(lib_test_cflags)
tests_check_dma_iommu_LDADD = $(lib_test_libs)
EXTRA_DIST += docs/dma-backends.md

# Benchmark of map+unmap against memcpy (bench_list is in bench/local.mk).
noinst_PROGRAMS += bench/bench-dma
bench_bench_dma_SOURCES = bench/bench-dma.c
bench_bench_dma_CPPFLAGS = $(lib_test_cppflags)
bench_bench_dma_LDADD = lib/libdmaemu-internal.la
EXTRA_DIST += docs/dma-api.md
