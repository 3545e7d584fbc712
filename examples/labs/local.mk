# examples/labs/: the coherence labs that dmaemu-lab runs (tools/).  Every
# folder examples/labs/NAME/ with a lab.conf is a lab; the rules below
# take the folders as they find them, so a new lab needs no line here.
# Installed under $(pkgdatadir)/labs with the shared lab.h and lab.c;
# tests/scripts/labs.sh runs them in make check.

labsdir = $(pkgdatadir)/labs
dist_labs_DATA = examples/labs/README.md examples/labs/lab.h \
	examples/labs/lab.c
EXTRA_DIST += examples/labs/local.mk

# Each rule walks the lab folders and, in each, every regular file but
# editor and build leftovers.
labs_skip = *~ | *.o | *.orig | *.rej
install-data-local: install-labs
install-labs:
	@for d in $(srcdir)/examples/labs/*/; do \
	  d=$${d%/}; test -f "$$d/lab.conf" || continue; \
	  n=$${d##*/}; \
	  $(MKDIR_P) "$(DESTDIR)$(labsdir)/$$n" || exit 1; \
	  for f in "$$d"/*; do \
	    test -f "$$f" || continue; \
	    case $$f in $(labs_skip)) continue ;; esac; \
	    echo " $(INSTALL_DATA) $$f '$(DESTDIR)$(labsdir)/$$n'"; \
	    $(INSTALL_DATA) "$$f" "$(DESTDIR)$(labsdir)/$$n" || exit 1; \
	  done; \
	done

uninstall-local: uninstall-labs
uninstall-labs:
	@for d in $(srcdir)/examples/labs/*/; do \
	  d=$${d%/}; test -f "$$d/lab.conf" || continue; \
	  n=$${d##*/}; \
	  for f in "$$d"/*; do \
	    test -f "$$f" || continue; \
	    case $$f in $(labs_skip)) continue ;; esac; \
	    echo " rm -f '$(DESTDIR)$(labsdir)/$$n/$${f##*/}'"; \
	    rm -f "$(DESTDIR)$(labsdir)/$$n/$${f##*/}"; \
	  done; \
	  rmdir "$(DESTDIR)$(labsdir)/$$n" 2>/dev/null || :; \
	done

dist-hook: dist-labs
dist-labs:
	@for d in $(srcdir)/examples/labs/*/; do \
	  d=$${d%/}; test -f "$$d/lab.conf" || continue; \
	  n=$${d##*/}; \
	  $(MKDIR_P) "$(distdir)/examples/labs/$$n" || exit 1; \
	  for f in "$$d"/*; do \
	    test -f "$$f" || continue; \
	    case $$f in $(labs_skip)) continue ;; esac; \
	    cp -p "$$f" "$(distdir)/examples/labs/$$n/" || exit 1; \
	  done; \
	done

.PHONY: install-labs uninstall-labs dist-labs

# The semantic patches the removed-apis and port-612 labs apply (their
# check.sh finds them in $(pkgdatadir)/cocci once installed); distributed
# by tests/.
coccidir = $(pkgdatadir)/cocci
cocci_DATA = cocci/gfp_temporary.cocci cocci/dma_alloc_noncoherent.cocci \
	cocci/dma_noncoherent_510.cocci
