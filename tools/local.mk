# tools/: dmaemu-cc, the compiler wrapper for instrumented driver code.

bin_SCRIPTS += tools/dmaemu-cc
EXTRA_DIST += tools/dmaemu-cc.in

