# cachesim/: the `cachesim` trace-replay command, its trace generator and
# their tests.

bin_PROGRAMS += cachesim/cachesim
cachesim_cachesim_SOURCES = cachesim/main.c cachesim/trace.c cachesim/trace.h
cachesim_cachesim_LDADD = cachesim/libcachesim.la

# Deterministic synthetic traces (din or bin) for measuring the command.
noinst_PROGRAMS += cachesim/gentrace
cachesim_gentrace_SOURCES = cachesim/gentrace.c cachesim/trace.c \
	cachesim/trace.h
cachesim_gentrace_LDADD =
EXTRA_DIST += docs/cachesim.md
