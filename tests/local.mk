# tests/: every test of the project.
#   runner/   the shared Check runner, the fixtures, tap.sh (libcheckrun)
#   unit/     white-box Check suites of lib/'s layers (private headers)
#   api/      Check suites that use the installed headers only
#   scripts/  script tests (TAP), with their inputs in data/, oracle/,
#             cocci/
# A Check suite is one line: tests/<kind>/check-NAME.c is built with the
# defaults of Makefile.am (AM_CPPFLAGS; LDADD: the runner and the library
# that exports the public names only); white-box suites, instrumented
# suites and those linking something else say more.  A program lists
# libcheckrun.la before the library the fixtures call (it is an archive:
# the linker must see it first).

check_LTLIBRARIES += tests/runner/libcheckrun.la
tests_runner_libcheckrun_la_SOURCES = tests/runner/check-run.c \
	tests/runner/check-run.h tests/runner/fixture.c \
	tests/runner/fixture.h tests/runner/threads.h
tests_runner_libcheckrun_la_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_runner_libcheckrun_la_LIBADD = $(CHECK_LIBS)
EXTRA_DIST += tests/runner/tap.sh tests/runner/timed-driver.sh \
	tests/runner/lab-run.sh
# Driver programs two suites share (check-fidelity, check-fidelity-612).
EXTRA_DIST += tests/api/handover-cases.h

# White-box suites, plain C.
unit_tests = \
	tests/unit/check-machine \
	tests/unit/check-physmem \
	tests/unit/check-lineops \
	tests/unit/check-clean-paths \
	tests/unit/check-stripes \
	tests/unit/check-lock \
	tests/unit/check-page-alloc \
	tests/unit/check-devres \
	tests/unit/check-dma-swiotlb \
	tests/unit/check-dma-iommu \
	tests/unit/check-dma-sync \
	tests/unit/check-seed \
	tests/unit/check-alloc-fail \
	tests/unit/check-symbolize \
	tests/unit/check-checks-off
check_PROGRAMS += $(unit_tests)
TESTS += $(unit_tests)
unit_libs = tests/runner/libcheckrun.la lib/libdmaemu-internal.la $(CHECK_LIBS)
tests_unit_check_machine_LDADD = $(unit_libs)
tests_unit_check_physmem_LDADD = $(unit_libs)
tests_unit_check_lineops_LDADD = $(unit_libs)
tests_unit_check_stripes_LDADD = $(unit_libs)
tests_unit_check_lock_LDADD = $(unit_libs)
tests_unit_check_page_alloc_LDADD = $(unit_libs)
tests_unit_check_devres_LDADD = $(unit_libs)
tests_unit_check_dma_swiotlb_LDADD = $(unit_libs)
tests_unit_check_dma_iommu_LDADD = $(unit_libs)
tests_unit_check_clean_paths_LDADD = $(unit_libs)
tests_unit_check_dma_sync_LDADD = $(unit_libs)
tests_unit_check_seed_LDADD = $(unit_libs)
tests_unit_check_alloc_fail_LDADD = $(unit_libs)
tests_unit_check_checks_off_LDADD = $(unit_libs)
# Built with debug information whatever CFLAGS say: it is what it reads.
tests_unit_check_symbolize_CFLAGS = $(AM_CFLAGS) -g
tests_unit_check_symbolize_LDADD = $(unit_libs)

# Suites compiled like driver code (instrumented): the CPU's view of the
# data is what they test.  They link the shared twin (lib/local.mk).
instr_cflags = $(AM_CFLAGS) $(CHECK_CFLAGS) $(INSTRUMENT_CFLAGS)
instr_libs = tests/runner/libcheckrun.la lib/libdmaemu-shared.la \
	cachesim/libcachesim.la $(CHECK_LIBS)
if HAVE_INSTRUMENT
instr_tests = \
	tests/unit/check-cpu \
	tests/unit/check-wc \
	tests/unit/check-ownership
check_PROGRAMS += $(instr_tests)
TESTS += $(instr_tests)
endif
tests_unit_check_cpu_CFLAGS = $(instr_cflags)
tests_unit_check_cpu_LDFLAGS = $(INSTRUMENT_LDFLAGS)
tests_unit_check_cpu_LDADD = $(instr_libs)
tests_unit_check_wc_CFLAGS = $(instr_cflags)
tests_unit_check_wc_LDFLAGS = $(INSTRUMENT_LDFLAGS)
tests_unit_check_wc_LDADD = $(instr_libs)
tests_unit_check_ownership_CFLAGS = $(instr_cflags)
tests_unit_check_ownership_LDFLAGS = $(INSTRUMENT_LDFLAGS)
tests_unit_check_ownership_LDADD = $(instr_libs)

# Suites of public APIs: the installed headers only (<dmaemu/*.h>, the
# kernel personality, <dmaemu/testing.h> to look inside the model),
# linked with the library that exports the public names only, so they
# prove the headers are enough; tests/scripts/api-public.sh also checks
# that they and the runner include no private header.
api_tests = \
	tests/api/check-testing \
	tests/api/check-device-model \
	tests/api/check-device-framework \
	tests/api/check-gfp \
	tests/api/check-dma-mask \
	tests/api/check-dma-concurrency \
	tests/api/check-dma-sg \
	tests/api/check-dma-pool \
	tests/api/check-dma-device \
	tests/api/check-slab \
	tests/api/check-kernel-basics \
	tests/api/check-softirq \
	tests/api/check-net \
	tests/api/check-dma-alloc \
	tests/api/check-uninstrumented \
	tests/api/check-report-query \
	tests/api/check-report-policy \
	tests/api/check-fault \
	tests/api/check-trace \
	tests/api/check-seeing \
	tests/api/check-check-helpers \
	tests/api/check-sweep \
	tests/api/check-api-debug \
	tests/api/check-coherence-misuse \
	tests/api/check-ordering \
	tests/api/check-device-embed \
	tests/api/check-pci \
	tests/api/check-vmalloc \
	tests/api/check-device-order \
	tests/api/check-bad-input
check_PROGRAMS += $(api_tests)
TESTS += $(api_tests)


# Public-API suites compiled like driver code (instrumented).
if HAVE_INSTRUMENT
api_instr_tests = \
	tests/api/check-dma-direct \
	tests/api/check-fidelity \
	tests/api/check-fidelity-612 \
	tests/api/check-shared-line \
	tests/api/check-report-repeats
check_PROGRAMS += $(api_instr_tests)
TESTS += $(api_instr_tests)
endif
tests_api_check_dma_direct_CFLAGS = $(instr_cflags)
tests_api_check_dma_direct_LDFLAGS = $(INSTRUMENT_LDFLAGS)
tests_api_check_fidelity_CFLAGS = $(instr_cflags)
tests_api_check_fidelity_LDFLAGS = $(INSTRUMENT_LDFLAGS)
# The Linux 6.12 API level: the file defines DMAEMU_KERNEL itself.
tests_api_check_fidelity_612_CFLAGS = $(instr_cflags)
tests_api_check_fidelity_612_LDFLAGS = $(INSTRUMENT_LDFLAGS)
tests_api_check_fidelity_612_LDADD = devices/libdmaemu-devices.la $(LDADD)
tests_api_check_shared_line_CFLAGS = $(instr_cflags)
tests_api_check_shared_line_LDFLAGS = $(INSTRUMENT_LDFLAGS)
tests_api_check_report_repeats_CFLAGS = $(instr_cflags)
tests_api_check_report_repeats_LDFLAGS = $(INSTRUMENT_LDFLAGS)

# The copy engine with its reference driver (examples/copy-engine), built
# uninstrumented here so that the sanitizer builds run it too.
check_PROGRAMS += tests/api/check-copy-engine
TESTS += tests/api/check-copy-engine
tests_api_check_copy_engine_SOURCES = tests/api/check-copy-engine.c \
	examples/copy-engine/ce-driver.c examples/copy-engine/ce-driver.h
tests_api_check_copy_engine_CPPFLAGS = $(AM_CPPFLAGS) \
	-I$(top_srcdir)/examples/copy-engine
tests_api_check_copy_engine_LDADD = tests/runner/libcheckrun.la \
	devices/libdmaemu-devices.la lib/libdmaemu.la $(CHECK_LIBS)
# sched=lockstep, with the copy engine's reference driver.
# The ordering checks on the copy engine's reference driver with a relaxed
# doorbell, with and without the wmb() before it (docs/ordering.md).
# Instrumented, as driver code is: the checks follow its plain stores.
if HAVE_INSTRUMENT
check_PROGRAMS += tests/api/check-ordering-ce tests/api/check-ordering-ce-nowmb
TESTS += tests/api/check-ordering-ce tests/api/check-ordering-ce-nowmb
check_PROGRAMS += tests/api/check-ordering-ring tests/api/check-ordering-ring-normb
TESTS += tests/api/check-ordering-ring tests/api/check-ordering-ring-normb
endif
tests_api_check_ordering_ce_CFLAGS = $(instr_cflags)
tests_api_check_ordering_ce_LDFLAGS = $(INSTRUMENT_LDFLAGS)
tests_api_check_ordering_ce_nowmb_CFLAGS = $(instr_cflags)
tests_api_check_ordering_ce_nowmb_LDFLAGS = $(INSTRUMENT_LDFLAGS)
tests_api_check_ordering_ce_SOURCES = tests/api/check-ordering-drivers.c \
	examples/copy-engine/ce-driver.c examples/copy-engine/ce-driver.h
tests_api_check_ordering_ce_CPPFLAGS = $(AM_CPPFLAGS) \
	-I$(top_srcdir)/examples/copy-engine -DCE_RELAXED_DOORBELL
tests_api_check_ordering_ce_LDADD = tests/runner/libcheckrun.la \
	devices/libdmaemu-devices.la lib/libdmaemu.la $(CHECK_LIBS)
# The load side on a completion ring, with and without its dma_rmb().
tests_api_check_ordering_ring_CFLAGS = $(instr_cflags)
tests_api_check_ordering_ring_LDFLAGS = $(INSTRUMENT_LDFLAGS)
tests_api_check_ordering_ring_normb_SOURCES = tests/api/check-ordering-ring.c
tests_api_check_ordering_ring_normb_CPPFLAGS = $(AM_CPPFLAGS) -DRING_NO_RMB
tests_api_check_ordering_ring_normb_CFLAGS = $(instr_cflags)
tests_api_check_ordering_ring_normb_LDFLAGS = $(INSTRUMENT_LDFLAGS)
tests_api_check_ordering_ce_nowmb_SOURCES = \
	$(tests_api_check_ordering_ce_SOURCES)
tests_api_check_ordering_ce_nowmb_CPPFLAGS = \
	$(tests_api_check_ordering_ce_CPPFLAGS) -DCE_NO_DOORBELL_WMB
tests_api_check_ordering_ce_nowmb_LDADD = $(tests_api_check_ordering_ce_LDADD)
# The same with the network card's driver and its TX doorbell.
if HAVE_INSTRUMENT
check_PROGRAMS += tests/api/check-ordering-nic tests/api/check-ordering-nic-nowmb
TESTS += tests/api/check-ordering-nic tests/api/check-ordering-nic-nowmb
endif
tests_api_check_ordering_nic_SOURCES = tests/api/check-ordering-nic.c \
	examples/nic/nic-driver.c examples/nic/nic-driver.h
tests_api_check_ordering_nic_CPPFLAGS = $(AM_CPPFLAGS) \
	-I$(top_srcdir)/examples/nic -DNIC_RELAXED_DOORBELL
tests_api_check_ordering_nic_CFLAGS = $(instr_cflags)
tests_api_check_ordering_nic_LDFLAGS = $(INSTRUMENT_LDFLAGS)
tests_api_check_ordering_nic_LDADD = $(tests_api_check_ordering_ce_LDADD)
tests_api_check_ordering_nic_nowmb_SOURCES = \
	$(tests_api_check_ordering_nic_SOURCES)
tests_api_check_ordering_nic_nowmb_CPPFLAGS = \
	$(tests_api_check_ordering_nic_CPPFLAGS) -DNIC_NO_DOORBELL_WMB
tests_api_check_ordering_nic_nowmb_CFLAGS = $(instr_cflags)
tests_api_check_ordering_nic_nowmb_LDFLAGS = $(INSTRUMENT_LDFLAGS)
tests_api_check_ordering_nic_nowmb_LDADD = $(tests_api_check_ordering_ce_LDADD)

check_PROGRAMS += tests/api/check-lockstep
TESTS += tests/api/check-lockstep
tests_api_check_lockstep_SOURCES = tests/api/check-lockstep.c \
	examples/copy-engine/ce-driver.c examples/copy-engine/ce-driver.h
tests_api_check_lockstep_CPPFLAGS = $(AM_CPPFLAGS) \
	-I$(top_srcdir)/examples/copy-engine
tests_api_check_lockstep_LDADD = tests/runner/libcheckrun.la \
	devices/libdmaemu-devices.la lib/libdmaemu.la $(CHECK_LIBS) -lpthread
# Nothing hangs silently: interrupt storms, devices working back to back,
# every wait against a wedged device (docs/scheduling.md).
check_PROGRAMS += tests/api/check-hangs
TESTS += tests/api/check-hangs
tests_api_check_hangs_SOURCES = tests/api/check-hangs.c
tests_api_check_hangs_LDADD = tests/runner/libcheckrun.la \
	devices/libdmaemu-devices.la lib/libdmaemu.la $(CHECK_LIBS) -lpthread
# The soak (docs/reliability.md): driver threads and devices on every
# profile, backend and scheduling mode, every byte checked; a few rounds
# here, make stress runs it for STRESS_SECONDS.
check_PROGRAMS += tests/api/check-soak
TESTS += tests/api/check-soak
tests_api_check_soak_SOURCES = tests/api/check-soak.c \
	examples/copy-engine/ce-driver.c examples/copy-engine/ce-driver.h \
	examples/nic/nic-driver.c examples/nic/nic-driver.h
tests_api_check_soak_CPPFLAGS = $(AM_CPPFLAGS) \
	-I$(top_srcdir)/examples/copy-engine -I$(top_srcdir)/examples/nic
tests_api_check_soak_LDADD = tests/runner/libcheckrun.la \
	devices/libdmaemu-devices.la lib/libdmaemu.la $(CHECK_LIBS)
STRESS_SECONDS = 180
stress: tests/api/check-soak
	$(AM_V_at)SOAK_SECONDS='$(STRESS_SECONDS)' tests/api/check-soak \
		>stress.log; st=$$?; awk '{ print } \
	/^# .* transfers/ { n += $$8; b += $$10; s += $$12; l += $$14 } \
	END { printf "# total: %.0f transfers, %.0f bytes, %.1f s, %.0f lost\n", \
		n, b, s, l }' stress.log; exit $$st
CLEANFILES += stress.log
.PHONY: stress
# The network card with its reference driver (examples/nic), the same way.
check_PROGRAMS += tests/api/check-nic
TESTS += tests/api/check-nic
tests_api_check_nic_SOURCES = tests/api/check-nic.c \
	examples/nic/nic-driver.c examples/nic/nic-driver.h
tests_api_check_nic_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/examples/nic
tests_api_check_nic_LDADD = tests/runner/libcheckrun.la \
	devices/libdmaemu-devices.la lib/libdmaemu.la $(CHECK_LIBS)
# The checksum engine and the legacy block device, driven at the register
# level.
check_PROGRAMS += tests/api/check-checksum tests/api/check-legacy
TESTS += tests/api/check-checksum tests/api/check-legacy
tests_api_check_checksum_LDADD = tests/runner/libcheckrun.la \
	devices/libdmaemu-devices.la lib/libdmaemu.la $(CHECK_LIBS)
tests_api_check_legacy_LDADD = tests/runner/libcheckrun.la \
	devices/libdmaemu-devices.la lib/libdmaemu.la $(CHECK_LIBS)
# The streaming camera, driven at the register level, its frames read
# through dma_mmap_attrs() views.
check_PROGRAMS += tests/api/check-camera
TESTS += tests/api/check-camera
tests_api_check_camera_LDADD = tests/runner/libcheckrun.la \
	devices/libdmaemu-devices.la lib/libdmaemu.la $(CHECK_LIBS)
# The display controller, driven at the register level; its PNG files are
# read back with libpng.
check_PROGRAMS += tests/api/check-display
TESTS += tests/api/check-display
tests_api_check_display_CPPFLAGS = $(AM_CPPFLAGS) $(LIBPNG_CFLAGS)
tests_api_check_display_LDADD = tests/runner/libcheckrun.la \
	devices/libdmaemu-devices.la lib/libdmaemu.la $(LIBPNG_LIBS) \
	$(CHECK_LIBS)
check_PROGRAMS += tests/api/check-cachesim
TESTS += tests/api/check-cachesim
tests_api_check_cachesim_LDADD = tests/runner/libcheckrun.la \
	cachesim/libcachesim.la $(CHECK_LIBS)

# Script tests.
script_tests = \
	tests/scripts/format.sh \
	tests/scripts/cocci.sh \
	tests/scripts/headers.sh \
	tests/scripts/kernel-headers.sh \
	tests/scripts/api-public.sh \
	tests/scripts/readme.sh \
	tests/scripts/docs.sh \
	tests/scripts/tour.sh \
	tests/scripts/symbols.sh \
	tests/scripts/layers.sh \
	tests/scripts/mutations-apply.sh \
	tests/scripts/gfp-temporary.sh \
	tests/scripts/removed-api.sh \
	tests/scripts/kernel-level.sh \
	tests/scripts/hooks-gcc-clang.sh \
	tests/scripts/report-site.sh \
	tests/scripts/report-driver-line.sh \
	tests/scripts/rmw.sh \
	tests/scripts/report-policy.sh \
	tests/scripts/log-stable.sh \
	tests/scripts/cachesim-cli.sh \
	tests/scripts/cachesim-oracle.sh \
	tests/scripts/examples.sh \
	tests/scripts/examples-612.sh \
	tests/scripts/devices-doc.sh \
	tests/scripts/alloc-fail.sh \
	tests/scripts/labs-alloc-fail.sh \
	tests/scripts/trace.sh \
	tests/scripts/check-driver-tests.sh \
	tests/scripts/labs.sh \
	tests/scripts/lab-levels.sh \
	tests/scripts/library-sites.sh \
	tests/scripts/lab-cli.sh \
	tests/scripts/valgrind-stale.sh \
	tests/scripts/report-threads.sh \
	tests/scripts/valgrind-examples.sh \
	tests/scripts/valgrind-examples-2.sh \
	tests/scripts/valgrind-examples-3.sh \
	tests/scripts/valgrind-labs-1.sh \
	tests/scripts/valgrind-labs-2.sh \
	tests/scripts/valgrind-labs-3.sh \
	tests/scripts/valgrind-poll.sh \
	tests/scripts/poll-threads.sh \
	tests/scripts/single-thread.sh \
	tests/scripts/driver-mutants.sh
TESTS += $(script_tests)
# The Check suites that start no thread (tests/scripts/single-thread.sh
# proves it): Memcheck runs them, Helgrind and DRD do not, since a data
# race needs two threads (and a lock-order inversion is ThreadSanitizer's
# to find, in the --enable-sanitizer=thread build, which runs them all).
valgrind_single_thread_tests = \
	tests/api/check-api-debug tests/api/check-cachesim \
	tests/api/check-coherence-misuse tests/api/check-device-embed \
	tests/api/check-device-model tests/api/check-dma-device \
	tests/api/check-dma-direct tests/api/check-dma-mask \
	tests/api/check-dma-sg tests/api/check-fault tests/api/check-fidelity \
	tests/api/check-gfp tests/api/check-ordering tests/api/check-pci \
	tests/api/check-report-policy tests/api/check-seeing \
	tests/api/check-sweep tests/api/check-testing tests/api/check-trace \
	tests/api/check-vmalloc tests/unit/check-checks-off \
	tests/unit/check-clean-paths tests/unit/check-devres \
	tests/unit/check-dma-sync tests/unit/check-lineops \
	tests/unit/check-machine tests/unit/check-ownership \
	tests/unit/check-physmem tests/unit/check-seed tests/unit/check-wc
AM_TESTS_ENVIRONMENT += \
	DMAEMU_SINGLE_THREAD_TESTS='$(valgrind_single_thread_tests)'; \
	export DMAEMU_SINGLE_THREAD_TESTS;
# labs.sh builds the labs with the project's warnings, as errors.
AM_TESTS_ENVIRONMENT += WARN_CFLAGS='$(WARN_CFLAGS)'; export WARN_CFLAGS;
# Every dmaemu-lab of a test run (labs.sh, tour.sh) builds a lab variant
# once and takes it from this cache after that (tools/dmaemu-lab.in).
AM_TESTS_ENVIRONMENT += DMAEMU_LAB_CACHE='$(abs_top_builddir)/tests/lab-cache'; \
	export DMAEMU_LAB_CACHE;
clean-local: clean-lab-cache
clean-lab-cache:
	-rm -rf tests/lab-cache
.PHONY: clean-lab-cache
EXTRA_DIST += $(script_tests) tests/scripts/hooks-prog.c \
	tests/scripts/valgrind-rx.c \
	tests/scripts/report-site-prog.c \
	tests/scripts/report-driver-line-prog.c \
	tests/scripts/rmw-prog.c \
	tests/cocci/gfp_temporary.c tests/cocci/gfp_temporary.res \
	tests/cocci/noncoherent.c tests/cocci/noncoherent.res \
	tests/cocci/noncoherent_510.c tests/cocci/noncoherent_510.res \
	cocci/gfp_temporary.cocci cocci/dma_alloc_noncoherent.cocci \
	cocci/dma_noncoherent_510.cocci \
	tests/data/nine-lines.din tests/data/small.din tests/data/maint.din \
	tests/data/lackey.out tests/data/policy.din \
	tests/oracle/transpose.c tests/oracle/listwalk.c \
	tests/oracle/stride.c tests/oracle/fxsave.c

# What the test command (tools/quickstart.sh) runs in the plain build only:
# the tests that read the source tree alone, and those whose verdict does
# not depend on the compiler or sanitizer the library was built with (the
# cache simulator against Cachegrind, the mutants of the drivers, the
# tour).  The ASan, TSan and Clang builds run every other test.
once_tests = \
	tests/scripts/format.sh \
	tests/scripts/cocci.sh \
	tests/scripts/api-public.sh \
	tests/scripts/layers.sh \
	tests/scripts/mutations-apply.sh \
	tests/scripts/man-drift.sh \
	tests/scripts/cachesim-oracle.sh \
	tests/scripts/driver-mutants.sh \
	tests/scripts/tour.sh
print-rebuild-tests:
	@echo $(filter-out $(once_tests),$(TESTS))
.PHONY: print-rebuild-tests

# The manual pages and the installation: man-drift.sh holds the pages to
# the code, dmaemu-cc.sh the compiler wrapper to its page, install.sh
# stages an installation and uses it.
install_tests = \
	tests/scripts/man-drift.sh \
	tests/scripts/dmaemu-cc.sh \
	tests/scripts/install.sh
TESTS += $(install_tests)
EXTRA_DIST += $(install_tests) tests/scripts/option-values.c

# The polling drivers, uninstrumented (poll-threads.sh), so that the
# sanitizer builds run them too; valgrind-poll.sh and library-sites.sh
# build them with dmaemu-cc.
check_PROGRAMS += tests/scripts/poll-prog
tests_scripts_poll_prog_LDADD = devices/libdmaemu-devices.la \
	lib/libdmaemu.la -lpthread

# man-drift.sh compares dmaemu(7) with the options' values on each
# profile, which this program prints.
check_PROGRAMS += tests/scripts/option-values
tests_scripts_option_values_LDADD = lib/libdmaemu.la

# The tests that run make install (install.sh, check-driver-tests.sh):
# libtool relinks libdmaemu in place in lib/.libs for a moment while it
# installs it, so they run after every other test of the run, so that
# none loads a half-written library, and one after the other.
staging_logs = tests/scripts/check-driver-tests.log tests/scripts/install.log
tests/scripts/check-driver-tests.log: \
	$(filter-out $(staging_logs),$(TEST_LOGS))
tests/scripts/install.log: $(filter-out $(staging_logs),$(TEST_LOGS)) \
	$(filter tests/scripts/check-driver-tests.log,$(TEST_LOGS))

# The tests whose verdict depends on where the build tree is: the script
# tests that read the source tree, which an in-tree build fills with
# generated files (tools/quickstart.sh runs them in an in-tree build).
# The Check suites, the labs, the Valgrind runs and the script tests that
# check only what programs do (the cache simulator, allocation failures,
# read-modify-write stores, threads) are the same programs in any build.
intree_tests = $(filter-out tests/scripts/labs.sh \
	tests/scripts/lab-levels.sh tests/scripts/tour.sh \
	tests/scripts/examples.sh tests/scripts/examples-612.sh \
	tests/scripts/valgrind-%.sh \
	tests/scripts/driver-mutants.sh tests/scripts/cachesim-oracle.sh \
	tests/scripts/cachesim-cli.sh tests/scripts/alloc-fail.sh \
	tests/scripts/labs-alloc-fail.sh \
	tests/scripts/rmw.sh tests/scripts/poll-threads.sh \
	tests/scripts/report-threads.sh,$(script_tests)) $(install_tests)
print-intree-tests:
	@echo $(intree_tests)
.PHONY: print-intree-tests

# install.sh stages an installation and needs to know where each part goes.
print-install-dirs:
	@echo "prefix='$(prefix)'; bindir='$(bindir)'; libdir='$(libdir)';" \
		"includedir='$(includedir)'; mandir='$(mandir)';" \
		"pkgdatadir='$(pkgdatadir)'; pkgconfigdir='$(pkgconfigdir)';" \
		"docdir='$(docdir)'"
.PHONY: print-install-dirs

include $(srcdir)/tests/fuzz/local.mk
# Reports must name run_script() by its debug information.
tests_api_check_pci_CFLAGS = $(AM_CFLAGS) -g

# Include chains and API level of the kernel headers
# (docs/kernel-headers.md): what 4.14's chain makes reachable through each
# header, the names newer than 4.14, the host's UAPI headers a driver may
# reach.
script_tests += tests/scripts/kernel-chains.sh
# tools/real-sources.sh: the table of which sources under a directory
# compile with dmaemu's headers alone (docs/kernel-headers.md).
script_tests += tests/scripts/real-sources.sh
EXTRA_DIST += tests/data/kernel-chains-4.14.txt tests/data/kernel-names.txt \
	tests/data/kernel-newer-names.txt
# A second file with DEBUG and VERBOSE_DEBUG defined (dev_dbg(), dev_vdbg()).
tests_api_check_kernel_basics_SOURCES = tests/api/check-kernel-basics.c \
	tests/api/kernel-debug.c
