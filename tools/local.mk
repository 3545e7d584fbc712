# tools/: dmaemu-cc, the compiler wrapper for instrumented driver code.

bin_SCRIPTS += tools/dmaemu-cc
EXTRA_DIST += tools/dmaemu-cc.in


# make mutate: mutation testing (tools/mutate.sh, the list in
# tools/mutations.txt).  Not part of make check: it rebuilds and reruns
# suites once per mutation, which takes many minutes.
EXTRA_DIST += tools/mutate.sh tools/mutations.txt
mutate:
	$(SHELL) $(srcdir)/tools/mutate.sh $(MUTATE_FLAGS)
.PHONY: mutate
