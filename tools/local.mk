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
		-e 's|@VERSION[@]|$(VERSION)|g' \
		-e 's|@abs_top_srcdir[@]|$(abs_top_srcdir)|g' \
		-e 's|@abs_top_builddir[@]|$(abs_top_builddir)|g' \
		$(srcdir)/tools/dmaemu-lab.in >$@.tmp && \
	chmod +x $@.tmp && mv -f $@.tmp $@


# make mutate: mutation testing (tools/mutate.sh, the list in
# tools/mutations.txt).  Not part of make check: it rebuilds and reruns
# suites once per mutation, which takes many minutes.
EXTRA_DIST += tools/mutate.sh tools/mutations.txt

# tools/real-sources.sh: compile every C source under a directory with
# dmaemu-cc and print which compile, and the first error of the others
# (docs/kernel-headers.md, "Real driver sources").
EXTRA_DIST += tools/real-sources.sh
mutate:
	$(SHELL) $(srcdir)/tools/mutate.sh $(MUTATE_FLAGS)
.PHONY: mutate

# make driver-mutants: the mutation test of the reference drivers
# (tools/driver-mutants.sh; docs/checkers.md, "The reference drivers'
# mutants"): deletes each sync, unmap, mapping-error check and barrier of
# the examples' drivers and the labs' fixed variants, one at a time, and
# says which deletions a report catches.  DRIVER_MUTANTS_FLAGS passes
# options (e.g. -p "arm arm64 x86" -l "1 2 3" for lockstep seeds).  make
# check runs it too, on arm64 and x86 (tests/scripts/driver-mutants.sh).
EXTRA_DIST += tools/driver-mutants.sh tools/driver-mutants.known
driver-mutants: tools/dmaemu-cc lib/libdmaemu.la devices/libdmaemu-devices.la
	bash $(srcdir)/tools/driver-mutants.sh -b . $(DRIVER_MUTANTS_FLAGS)
.PHONY: driver-mutants
