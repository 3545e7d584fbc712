# examples/: reference drivers, built the way a program outside the tree
# builds driver code: with tools/dmaemu-cc (instrumented), linking the
# installed-style libraries.  `make check` runs them on each profile
# (tests/scripts/examples.sh).  A sanitizer build cannot run instrumented
# code (dmaemu-cc refuses): the examples are not built and the test skips.

copy_engine_srcs = $(srcdir)/examples/copy-engine/main.c \
	$(srcdir)/examples/copy-engine/ce-driver.c
EXTRA_DIST += $(copy_engine_srcs) examples/copy-engine/ce-driver.h

nic_srcs = $(srcdir)/examples/nic/main.c $(srcdir)/examples/nic/nic-driver.c
EXTRA_DIST += $(nic_srcs) examples/nic/nic-driver.h

# The network card again, with a Linux 4.14 NAPI driver under the test's
# side of the network stack (<dmaemu/net.h>).
nic_napi_srcs = $(srcdir)/examples/nic-napi/main.c \
	$(srcdir)/examples/nic-napi/nic-napi-driver.c
EXTRA_DIST += $(nic_napi_srcs) examples/nic-napi/nic-napi-driver.h

camera_srcs = $(srcdir)/examples/camera/main.c \
	$(srcdir)/examples/camera/cam-driver.c
EXTRA_DIST += $(camera_srcs) examples/camera/cam-driver.h

checksum_srcs = $(srcdir)/examples/checksum/main.c \
	$(srcdir)/examples/checksum/cs-driver.c \
	$(srcdir)/examples/copy-engine/ce-driver.c
EXTRA_DIST += $(srcdir)/examples/checksum/main.c \
	$(srcdir)/examples/checksum/cs-driver.c examples/checksum/cs-driver.h

legacy_srcs = $(srcdir)/examples/legacy/main.c \
	$(srcdir)/examples/legacy/legacy-driver.c
EXTRA_DIST += $(legacy_srcs) examples/legacy/legacy-driver.h

display_srcs = $(srcdir)/examples/display/main.c \
	$(srcdir)/examples/display/disp-driver.c
EXTRA_DIST += $(display_srcs) examples/display/disp-driver.h

# docs/devices.md's example: a device model of its own (built
# uninstrumented, as models are) and its driver (instrumented).
first_device_srcs = $(srcdir)/examples/first-device/main.c \
	$(srcdir)/examples/first-device/driver.c
EXTRA_DIST += $(first_device_srcs) examples/first-device/driver.h \
	examples/first-device/inverter.c examples/first-device/inverter.h

example_progs = examples/copy-engine/copy-engine examples/nic/nic \
	examples/nic-napi/nic-napi \
	examples/camera/camera examples/checksum/checksum \
	examples/legacy/legacy examples/display/display \
	examples/first-device/first-device
if HAVE_INSTRUMENT
if !SANITIZER_BUILD
check_SCRIPTS += $(example_progs)
endif
endif
CLEANFILES += $(example_progs) examples/first-device/inverter.o

examples/copy-engine/copy-engine: $(copy_engine_srcs) \
		$(srcdir)/examples/copy-engine/ce-driver.h tools/dmaemu-cc \
		lib/libdmaemu.la devices/libdmaemu-devices.la
	@$(MKDIR_P) examples/copy-engine
	$(AM_V_CCLD)CC='$(CC)' $(SHELL) tools/dmaemu-cc $(WARN_CFLAGS) -g -O1 \
		-o $@ $(copy_engine_srcs) -ldmaemu-devices

examples/nic/nic: $(nic_srcs) $(srcdir)/examples/nic/nic-driver.h \
		tools/dmaemu-cc lib/libdmaemu.la devices/libdmaemu-devices.la
	@$(MKDIR_P) examples/nic
	$(AM_V_CCLD)CC='$(CC)' $(SHELL) tools/dmaemu-cc $(WARN_CFLAGS) -g -O1 \
		-o $@ $(nic_srcs) -ldmaemu-devices

examples/nic-napi/nic-napi: $(nic_napi_srcs) \
		$(srcdir)/examples/nic-napi/nic-napi-driver.h tools/dmaemu-cc \
		lib/libdmaemu.la devices/libdmaemu-devices.la
	@$(MKDIR_P) examples/nic-napi
	$(AM_V_CCLD)CC='$(CC)' $(SHELL) tools/dmaemu-cc $(WARN_CFLAGS) -g -O1 \
		-o $@ $(nic_napi_srcs) -ldmaemu-devices

examples/camera/camera: $(camera_srcs) $(srcdir)/examples/camera/cam-driver.h \
		tools/dmaemu-cc lib/libdmaemu.la devices/libdmaemu-devices.la
	@$(MKDIR_P) examples/camera
	$(AM_V_CCLD)CC='$(CC)' $(SHELL) tools/dmaemu-cc $(WARN_CFLAGS) -g -O1 \
		-o $@ $(camera_srcs) -ldmaemu-devices

examples/checksum/checksum: $(checksum_srcs) \
		$(srcdir)/examples/checksum/cs-driver.h \
		$(srcdir)/examples/copy-engine/ce-driver.h tools/dmaemu-cc \
		lib/libdmaemu.la devices/libdmaemu-devices.la
	@$(MKDIR_P) examples/checksum
	$(AM_V_CCLD)CC='$(CC)' $(SHELL) tools/dmaemu-cc $(WARN_CFLAGS) -g -O1 \
		-I$(srcdir)/examples/copy-engine -o $@ $(checksum_srcs) \
		-ldmaemu-devices

examples/legacy/legacy: $(legacy_srcs) \
		$(srcdir)/examples/legacy/legacy-driver.h tools/dmaemu-cc \
		lib/libdmaemu.la devices/libdmaemu-devices.la
	@$(MKDIR_P) examples/legacy
	$(AM_V_CCLD)CC='$(CC)' $(SHELL) tools/dmaemu-cc $(WARN_CFLAGS) -g -O1 \
		-o $@ $(legacy_srcs) -ldmaemu-devices

examples/display/display: $(display_srcs) \
		$(srcdir)/examples/display/disp-driver.h tools/dmaemu-cc \
		lib/libdmaemu.la devices/libdmaemu-devices.la
	@$(MKDIR_P) examples/display
	$(AM_V_CCLD)CC='$(CC)' $(SHELL) tools/dmaemu-cc $(WARN_CFLAGS) -g -O1 \
		-o $@ $(display_srcs) -ldmaemu-devices

examples/first-device/inverter.o: \
		$(srcdir)/examples/first-device/inverter.c \
		$(srcdir)/examples/first-device/inverter.h tools/dmaemu-cc
	@$(MKDIR_P) examples/first-device
	$(AM_V_CC)CC='$(CC)' $(SHELL) tools/dmaemu-cc \
		--dmaemu-uninstrumented $(WARN_CFLAGS) -g -O1 -c -o $@ \
		$(srcdir)/examples/first-device/inverter.c

examples/first-device/first-device: $(first_device_srcs) \
		$(srcdir)/examples/first-device/driver.h \
		$(srcdir)/examples/first-device/inverter.h \
		examples/first-device/inverter.o tools/dmaemu-cc \
		lib/libdmaemu.la
	$(AM_V_CCLD)CC='$(CC)' $(SHELL) tools/dmaemu-cc $(WARN_CFLAGS) -g -O1 \
		-o $@ $(first_device_srcs) examples/first-device/inverter.o

# A user's Check suite of a driver, built against an installed dmaemu by
# its own Makefile (tests/scripts/check-driver-tests.sh).
EXTRA_DIST += examples/check-driver-tests/Makefile \
	examples/check-driver-tests/README.md \
	examples/check-driver-tests/rx.c examples/check-driver-tests/rx.h \
	examples/check-driver-tests/test-rx.c

include $(srcdir)/examples/labs/local.mk
