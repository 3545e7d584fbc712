#!/bin/sh
# valgrind-examples-3.sh - the examples on x86 under a Valgrind
# tool: step 2 of valgrind-examples.sh for the examples it gives to part
# examples3, as a test of its own so that make -j runs the parts side by
# side.
DMAEMU_VALGRIND_PART=examples3
. "$top_srcdir/tests/scripts/valgrind-examples.sh"
