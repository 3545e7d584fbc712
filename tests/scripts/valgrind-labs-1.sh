#!/bin/sh
# valgrind-labs-1.sh - a third of the labs under a Valgrind tool: step 3 of
# valgrind-examples.sh for the labs it gives to part labs1, as a test of
# its own so that make -j runs the thirds side by side.
DMAEMU_VALGRIND_PART=labs1
. "$top_srcdir/tests/scripts/valgrind-examples.sh"
