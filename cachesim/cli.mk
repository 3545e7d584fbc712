# cachesim/: the `cachesim` trace-replay command.

bin_PROGRAMS += cachesim/cachesim
cachesim_cachesim_SOURCES = cachesim/main.c cachesim/trace.c cachesim/trace.h
cachesim_cachesim_LDADD = cachesim/libcachesim.la
