# tools/: dmaemu-cc, the compiler wrapper for instrumented driver code.

bin_SCRIPTS += tools/dmaemu-cc
EXTRA_DIST += tools/dmaemu-cc.in

# The same program built with dmaemu-cc under GCC and under Clang.
TESTS += tests/hooks-gcc-clang.sh
EXTRA_DIST += tests/hooks-gcc-clang.sh tests/hooks-prog.c
