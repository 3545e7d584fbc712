# cachesim/: the `cachesim` trace-replay command, its trace generator and
# their tests.

bin_PROGRAMS += cachesim/cachesim
cachesim_cachesim_SOURCES = cachesim/main.c cachesim/trace.c cachesim/trace.h
cachesim_cachesim_LDADD = cachesim/libcachesim.la

# Deterministic synthetic traces (din or bin) for measuring the command.
noinst_PROGRAMS += cachesim/gentrace
cachesim_gentrace_SOURCES = cachesim/gentrace.c cachesim/trace.c \
	cachesim/trace.h

# The command's contract (options, formats, messages, exit codes), and the
# oracle: the same programs replayed from a Lackey trace must give
# Cachegrind's D1 counts.
TESTS += tests/cachesim-cli.sh tests/cachesim-oracle.sh
EXTRA_DIST += tests/cachesim-cli.sh tests/cachesim-oracle.sh \
	tests/data/nine-lines.din tests/data/small.din \
	tests/data/maint.din tests/data/lackey.out \
	tests/oracle/transpose.c tests/oracle/listwalk.c \
	tests/oracle/stride.c tests/oracle/fxsave.c \
	tests/data/policy.din docs/cachesim.md
