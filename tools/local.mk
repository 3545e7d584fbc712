# tools/: dmaemu-cc, the compiler wrapper for instrumented driver code,
# and dmaemu-lab, the lab runner (examples/labs/).

bin_SCRIPTS += tools/dmaemu-cc
EXTRA_DIST += tools/dmaemu-cc.in

# dmaemu-lab names installation directories, which are only final at make
# time (make prefix=... install), so make writes it, not configure.
bin_SCRIPTS += tools/dmaemu-lab
EXTRA_DIST += tools/dmaemu-lab.in
CLEANFILES += tools/dmaemu-lab
tools/dmaemu-lab: $(srcdir)/tools/dmaemu-lab.in Makefile
	@$(MKDIR_P) tools
	$(AM_V_GEN)sed -e 's|@pkgdatadir[@]|$(pkgdatadir)|g' \
		-e 's|@bindir[@]|$(bindir)|g' \
		-e 's|@abs_top_srcdir[@]|$(abs_top_srcdir)|g' \
		-e 's|@abs_top_builddir[@]|$(abs_top_builddir)|g' \
		$(srcdir)/tools/dmaemu-lab.in >$@.tmp && \
	chmod +x $@.tmp && mv -f $@.tmp $@


# make mutate: mutation testing (tools/mutate.sh, the list in
# tools/mutations.txt).  Not part of make check: it rebuilds and reruns
# suites once per mutation, which takes many minutes.
EXTRA_DIST += tools/mutate.sh tools/mutations.txt
mutate:
	$(SHELL) $(srcdir)/tools/mutate.sh $(MUTATE_FLAGS)
.PHONY: mutate
