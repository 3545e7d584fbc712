# bench/: benchmarks that print ratios against a baseline measured in the
# same run.  `make bench` builds and runs them all (bench/run.sh), prints a
# table of every target with its verdict (bench/bench.h) and fails on any
# verdict that is not ok.

noinst_PROGRAMS += bench/bench-cachesim
bench_bench_cachesim_SOURCES = bench/bench-cachesim.c
bench_bench_cachesim_LDADD = cachesim/libcachesim.la

EXTRA_DIST += bench/cachesim-cli.sh bench/run.sh bench/bench.h
bench_list = bench/bench-cachesim
bench_list += bench/bench-lineops
bench: $(bench_list) cachesim/cachesim cachesim/gentrace
	@$(SHELL) $(srcdir)/bench/run.sh . $(srcdir)
.PHONY: bench

# bench-hooks: one loop compiled instrumented and plain (bench-hooks.c is
# built three times: the two loops, each in a convenience library with its
# own flags, and the driver).
noinst_LTLIBRARIES += bench/libbenchhooks-instr.la bench/libbenchhooks-plain.la
bench_libbenchhooks_instr_la_SOURCES = bench/bench-hooks.c
bench_libbenchhooks_instr_la_CPPFLAGS = $(AM_CPPFLAGS) \
	-DBENCH_HOOKS_LOOP=bench_loop_instr
bench_libbenchhooks_instr_la_CFLAGS = $(AM_CFLAGS) $(INSTRUMENT_CFLAGS)
bench_libbenchhooks_plain_la_SOURCES = bench/bench-hooks.c
bench_libbenchhooks_plain_la_CPPFLAGS = $(AM_CPPFLAGS) \
	-DBENCH_HOOKS_LOOP=bench_loop_plain
noinst_PROGRAMS += bench/bench-hooks
bench_bench_hooks_SOURCES = bench/bench-hooks.c
bench_bench_hooks_LDADD = bench/libbenchhooks-instr.la \
	bench/libbenchhooks-plain.la lib/libdmaemu-internal.la
bench_list += bench/bench-hooks
bench_list += bench/bench-dma

# Line operations alone, and map+unmap against memcpy; bench-dma's buffer
# is dirtied by uninstrumented code and by a loop built with the
# instrumentation flags (bench-dma-dirty.c, in its own convenience library).
noinst_PROGRAMS += bench/bench-lineops bench/bench-dma
bench_bench_lineops_LDADD = lib/libdmaemu-internal.la
noinst_LTLIBRARIES += bench/libbenchdma-instr.la
bench_libbenchdma_instr_la_SOURCES = bench/bench-dma-dirty.c
bench_libbenchdma_instr_la_CFLAGS = $(AM_CFLAGS) $(INSTRUMENT_CFLAGS)
bench_bench_dma_SOURCES = bench/bench-dma.c
bench_bench_dma_LDADD = bench/libbenchdma-instr.la lib/libdmaemu-internal.la

# The checkers' cost on a receive loop: checks=all against checks=none in
# the same run; the driver's read loop is built with the instrumentation
# flags (bench-checks-read.c, in its own convenience library).
noinst_PROGRAMS += bench/bench-checks
noinst_LTLIBRARIES += bench/libbenchchecks-instr.la
bench_libbenchchecks_instr_la_SOURCES = bench/bench-checks-read.c
bench_libbenchchecks_instr_la_CFLAGS = $(AM_CFLAGS) $(INSTRUMENT_CFLAGS)
bench_bench_checks_SOURCES = bench/bench-checks.c
bench_bench_checks_LDADD = bench/libbenchchecks-instr.la lib/libdmaemu-internal.la
bench_list += bench/bench-checks

# The ordering checks' cost on the copy engine's reference driver:
# ordering=weak against ordering=strong in the same run; the driver is
# built with the instrumentation flags, as driver code is.
noinst_PROGRAMS += bench/bench-ordering
bench_bench_ordering_SOURCES = bench/bench-ordering.c bench/bench-nic.h \
	examples/copy-engine/ce-driver.c examples/copy-engine/ce-driver.h \
	examples/nic/nic-driver.c examples/nic/nic-driver.h
bench_bench_ordering_CPPFLAGS = $(AM_CPPFLAGS) \
	-I$(top_srcdir)/examples/copy-engine -I$(top_srcdir)/examples/nic
bench_bench_ordering_CFLAGS = $(AM_CFLAGS) $(INSTRUMENT_CFLAGS)
bench_bench_ordering_LDFLAGS = $(INSTRUMENT_LDFLAGS)
bench_bench_ordering_LDADD = devices/libdmaemu-devices.la lib/libdmaemu.la
bench_list += bench/bench-ordering

# The devices through their reference drivers (copy engine bandwidth and
# two-engine scaling, the network card's frame rate, the interrupt round
# trip); the drivers are built with the instrumentation flags.
noinst_PROGRAMS += bench/bench-devices
bench_bench_devices_SOURCES = bench/bench-devices.c bench/bench-nic.h \
	examples/copy-engine/ce-driver.c examples/copy-engine/ce-driver.h \
	examples/nic/nic-driver.c examples/nic/nic-driver.h
bench_bench_devices_CPPFLAGS = $(AM_CPPFLAGS) \
	-I$(top_srcdir)/examples/copy-engine -I$(top_srcdir)/examples/nic
bench_bench_devices_CFLAGS = $(AM_CFLAGS) $(INSTRUMENT_CFLAGS)
bench_bench_devices_LDFLAGS = $(INSTRUMENT_LDFLAGS)
bench_bench_devices_LDADD = devices/libdmaemu-devices.la lib/libdmaemu.la
bench_list += bench/bench-devices

# What tracing costs: bench-trace judges tracing on against off in one
# run; bench-trace-out is the same workload against a copy of the library
# with every trace point compiled out (built only for make bench), and
# bench/trace-cost.sh judges tracing off against it.
noinst_PROGRAMS += bench/bench-trace
bench_bench_trace_LDADD = lib/libdmaemu.la
EXTRA_LTLIBRARIES += bench/libdmaemu-traceout.la
bench_libdmaemu_traceout_la_SOURCES = $(lib_libdmaemu_internal_la_SOURCES)
bench_libdmaemu_traceout_la_CPPFLAGS = $(AM_CPPFLAGS) -DDMAEMU__TRACE_OUT
bench_libdmaemu_traceout_la_LIBADD = $(lib_libdmaemu_internal_la_LIBADD)
EXTRA_PROGRAMS += bench/bench-trace-out
bench_bench_trace_out_SOURCES = bench/bench-trace.c
bench_bench_trace_out_CPPFLAGS = $(AM_CPPFLAGS) -DBENCH_TRACE_OUT
bench_bench_trace_out_LDADD = bench/libdmaemu-traceout.la
EXTRA_DIST += bench/trace-cost.sh
bench_list += bench/bench-trace bench/bench-trace-out

# Instrumented loads and stores against the same loops built plain, and
# routed memset/memcpy/memmove against glibc's memcpy (bench-loops.c is
# built three times: the loops, each in a convenience library with its own
# flags, and the driver, linked like a dmaemu-cc program).
noinst_LTLIBRARIES += bench/libbenchloops-instr.la bench/libbenchloops-plain.la
bench_libbenchloops_instr_la_SOURCES = bench/bench-loops.c
bench_libbenchloops_instr_la_CPPFLAGS = $(AM_CPPFLAGS) \
	-DBENCH_LOOPS_SUFFIX=instr -DBENCH_LOOPS_ROUTED
bench_libbenchloops_instr_la_CFLAGS = $(AM_CFLAGS) $(INSTRUMENT_CFLAGS) -O2
bench_libbenchloops_plain_la_SOURCES = bench/bench-loops.c
bench_libbenchloops_plain_la_CPPFLAGS = $(AM_CPPFLAGS) \
	-DBENCH_LOOPS_SUFFIX=plain
bench_libbenchloops_plain_la_CFLAGS = $(AM_CFLAGS) -O2
noinst_PROGRAMS += bench/bench-loops
bench_bench_loops_SOURCES = bench/bench-loops.c
bench_bench_loops_LDFLAGS = $(INSTRUMENT_LDFLAGS)
bench_bench_loops_LDADD = bench/libbenchloops-instr.la \
	bench/libbenchloops-plain.la lib/libdmaemu.la
bench_list += bench/bench-loops
