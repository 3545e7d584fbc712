# man/: the manual pages.  Each page is written in man(7) roff as
# man/NAME.SECTION.in; make fills in the version and the installation
# directories (make, not configure: configure's @includedir@ is the
# unexpanded "${prefix}/include", and make expands it).
# tests/scripts/man-drift.sh keeps the pages true to the code, and
# tests/scripts/install.sh checks that they install and render cleanly.

man_pages = man/dmaemu-cc.1 man/cachesim.1 man/dmaemu-lab.1 man/dmaemu.7
nodist_man_MANS = $(man_pages)
EXTRA_DIST += $(man_pages:=.in)
CLEANFILES += $(man_pages)

man_subst = sed -e 's|@PACKAGE[@]|$(PACKAGE)|g' \
	-e 's|@VERSION[@]|$(VERSION)|g' \
	-e 's|@bindir[@]|$(bindir)|g' \
	-e 's|@includedir[@]|$(includedir)|g' \
	-e 's|@libdir[@]|$(libdir)|g' \
	-e 's|@pkgdatadir[@]|$(pkgdatadir)|g' \
	-e 's|@docdir[@]|$(docdir)|g'

$(man_pages): Makefile
	@$(MKDIR_P) man
	$(AM_V_GEN)$(man_subst) $(srcdir)/$@.in >$@.tmp && mv -f $@.tmp $@
man/dmaemu-cc.1: $(srcdir)/man/dmaemu-cc.1.in
man/cachesim.1: $(srcdir)/man/cachesim.1.in
man/dmaemu-lab.1: $(srcdir)/man/dmaemu-lab.1.in
man/dmaemu.7: $(srcdir)/man/dmaemu.7.in
