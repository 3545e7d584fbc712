#!/bin/sh
# valgrind-examples-2.sh - the examples on arm64 under a Valgrind
# tool: step 2 of valgrind-examples.sh for the examples it gives to part
# examples2, as a test of its own so that make -j runs the parts side by
# side.
DMAEMU_VALGRIND_PART=examples2
. "$top_srcdir/tests/scripts/valgrind-examples.sh"
