# bench/: benchmarks that print ratios against a baseline measured in the
# same run.  `make bench` builds and runs them all.

noinst_PROGRAMS += bench/bench-cachesim
bench_bench_cachesim_SOURCES = bench/bench-cachesim.c
bench_bench_cachesim_LDADD = cachesim/libcachesim.la

EXTRA_DIST += bench/cachesim-cli.sh
bench_list = bench/bench-cachesim
bench_list += bench/bench-lineops
bench: $(bench_list) cachesim/cachesim cachesim/gentrace
	@for b in $(bench_list); do echo "== $$b"; ./$$b || exit 1; done
	@echo "== bench/cachesim-cli.sh"
	@$(SHELL) $(srcdir)/bench/cachesim-cli.sh .
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

# Line operations alone, and map+unmap against memcpy.
noinst_PROGRAMS += bench/bench-lineops bench/bench-dma
bench_bench_lineops_LDADD = lib/libdmaemu-internal.la
bench_bench_dma_LDADD = lib/libdmaemu-internal.la
