# bench/: benchmarks that print ratios against a baseline measured in the
# same run.  `make bench` builds and runs them all.

noinst_PROGRAMS += bench/bench-cachesim
bench_bench_cachesim_SOURCES = bench/bench-cachesim.c
bench_bench_cachesim_LDADD = cachesim/libcachesim.la

bench_list = bench/bench-cachesim
bench: $(bench_list)
	@for b in $(bench_list); do echo "== $$b"; ./$$b || exit 1; done
.PHONY: bench
