# include/: every installed header of libdmaemu, in one place.
#   <dmaemu/*.h>          the emulator's public API
#   <dmaemu/kernel/...>   the kernel personality (the -I that dmaemu-cc and
#                         pkg-config dmaemu-instrument add)

pkginclude_HEADERS += \
	include/dmaemu/check.h \
	include/dmaemu/context.h \
	include/dmaemu/cpu.h \
	include/dmaemu/device.h \
	include/dmaemu/dmaemu.h \
	include/dmaemu/fault.h \
	include/dmaemu/klevel.h \
	include/dmaemu/ktypes.h \
	include/dmaemu/level.h \
	include/dmaemu/machine.h \
	include/dmaemu/mm.h \
	include/dmaemu/net.h \
	include/dmaemu/report.h \
	include/dmaemu/sched.h \
	include/dmaemu/seeing.h \
	include/dmaemu/sweep.h \
	include/dmaemu/testing.h \
	include/dmaemu/trace.h \
	include/dmaemu/sync.h \
	include/dmaemu/vma.h

kernel_linuxdir = $(pkgincludedir)/kernel/linux
kernel_linux_HEADERS = \
	include/dmaemu/kernel/linux/atomic.h \
	include/dmaemu/kernel/linux/bitfield.h \
	include/dmaemu/kernel/linux/bitops.h \
	include/dmaemu/kernel/linux/bitrev.h \
	include/dmaemu/kernel/linux/bits.h \
	include/dmaemu/kernel/linux/bug.h \
	include/dmaemu/kernel/linux/build_bug.h \
	include/dmaemu/kernel/linux/cache.h \
	include/dmaemu/kernel/linux/circ_buf.h \
	include/dmaemu/kernel/linux/clk.h \
	include/dmaemu/kernel/linux/compiler.h \
	include/dmaemu/kernel/linux/completion.h \
	include/dmaemu/kernel/linux/crc32.h \
	include/dmaemu/kernel/linux/crc32c.h \
	include/dmaemu/kernel/linux/delay.h \
	include/dmaemu/kernel/linux/device.h \
	include/dmaemu/kernel/linux/dma-direction.h \
	include/dmaemu/kernel/linux/dma-mapping.h \
	include/dmaemu/kernel/linux/dmapool.h \
	include/dmaemu/kernel/linux/err.h \
	include/dmaemu/kernel/linux/errno.h \
	include/dmaemu/kernel/linux/etherdevice.h \
	include/dmaemu/kernel/linux/ethtool.h \
	include/dmaemu/kernel/linux/export.h \
	include/dmaemu/kernel/linux/gfp.h \
	include/dmaemu/kernel/linux/hardirq.h \
	include/dmaemu/kernel/linux/hrtimer.h \
	include/dmaemu/kernel/linux/if_ether.h \
	include/dmaemu/kernel/linux/in.h \
	include/dmaemu/kernel/linux/init.h \
	include/dmaemu/kernel/linux/interrupt.h \
	include/dmaemu/kernel/linux/io-64-nonatomic-lo-hi.h \
	include/dmaemu/kernel/linux/io.h \
	include/dmaemu/kernel/linux/iopoll.h \
	include/dmaemu/kernel/linux/ioport.h \
	include/dmaemu/kernel/linux/ip.h \
	include/dmaemu/kernel/linux/ipv6.h \
	include/dmaemu/kernel/linux/irq.h \
	include/dmaemu/kernel/linux/irqreturn.h \
	include/dmaemu/kernel/linux/irqflags.h \
	include/dmaemu/kernel/linux/jiffies.h \
	include/dmaemu/kernel/linux/kconfig.h \
	include/dmaemu/kernel/linux/kernel.h \
	include/dmaemu/kernel/linux/kref.h \
	include/dmaemu/kernel/linux/ktime.h \
	include/dmaemu/kernel/linux/list.h \
	include/dmaemu/kernel/linux/log2.h \
	include/dmaemu/kernel/linux/math64.h \
	include/dmaemu/kernel/linux/mii.h \
	include/dmaemu/kernel/linux/mm.h \
	include/dmaemu/kernel/linux/mm_types.h \
	include/dmaemu/kernel/linux/mmzone.h \
	include/dmaemu/kernel/linux/mod_devicetable.h \
	include/dmaemu/kernel/linux/module.h \
	include/dmaemu/kernel/linux/moduleparam.h \
	include/dmaemu/kernel/linux/mutex.h \
	include/dmaemu/kernel/linux/netdevice.h \
	include/dmaemu/kernel/linux/of.h \
	include/dmaemu/kernel/linux/of_address.h \
	include/dmaemu/kernel/linux/of_device.h \
	include/dmaemu/kernel/linux/of_irq.h \
	include/dmaemu/kernel/linux/of_net.h \
	include/dmaemu/kernel/linux/of_platform.h \
	include/dmaemu/kernel/linux/pci-dma-compat.h \
	include/dmaemu/kernel/linux/pci.h \
	include/dmaemu/kernel/linux/platform_device.h \
	include/dmaemu/kernel/linux/prefetch.h \
	include/dmaemu/kernel/linux/preempt.h \
	include/dmaemu/kernel/linux/printk.h \
	include/dmaemu/kernel/linux/scatterlist.h \
	include/dmaemu/kernel/linux/sched.h \
	include/dmaemu/kernel/linux/sizes.h \
	include/dmaemu/kernel/linux/skbuff.h \
	include/dmaemu/kernel/linux/slab.h \
	include/dmaemu/kernel/linux/spinlock.h \
	include/dmaemu/kernel/linux/stat.h \
	include/dmaemu/kernel/linux/stddef.h \
	include/dmaemu/kernel/linux/string.h \
	include/dmaemu/kernel/linux/stringify.h \
	include/dmaemu/kernel/linux/swab.h \
	include/dmaemu/kernel/linux/tcp.h \
	include/dmaemu/kernel/linux/time.h \
	include/dmaemu/kernel/linux/time64.h \
	include/dmaemu/kernel/linux/timer.h \
	include/dmaemu/kernel/linux/types.h \
	include/dmaemu/kernel/linux/uaccess.h \
	include/dmaemu/kernel/linux/udp.h \
	include/dmaemu/kernel/linux/vmalloc.h \
	include/dmaemu/kernel/linux/wait.h \
	include/dmaemu/kernel/linux/wait_bit.h \
	include/dmaemu/kernel/linux/workqueue.h

kernel_asmdir = $(pkgincludedir)/kernel/asm
kernel_asm_HEADERS = \
	include/dmaemu/kernel/asm/barrier.h \
	include/dmaemu/kernel/asm/byteorder.h \
	include/dmaemu/kernel/asm/cache.h \
	include/dmaemu/kernel/asm/dma.h \
	include/dmaemu/kernel/asm/io.h \
	include/dmaemu/kernel/asm/irq.h \
	include/dmaemu/kernel/asm/uaccess.h \
	include/dmaemu/kernel/asm/unaligned.h

kernel_linux_byteorderdir = $(pkgincludedir)/kernel/linux/byteorder
kernel_linux_byteorder_HEADERS = \
	include/dmaemu/kernel/linux/byteorder/generic.h

devicesdir = $(pkgincludedir)/devices
devices_HEADERS = include/dmaemu/devices/copy-engine.h \
	include/dmaemu/devices/nic.h include/dmaemu/devices/checksum.h \
	include/dmaemu/devices/camera.h \
	include/dmaemu/devices/legacy.h include/dmaemu/devices/display.h

# The guard headers: for every kernel header name dmaemu does not provide
# that would otherwise resolve to the host's user-space header, one that
# stops the build with a clear line (tools/gen-kernel-guards.sh,
# docs/kernel-headers.md).  Generated for the compiler configure found,
# installed under $(pkgincludedir)/kernel-guard; dmaemu-cc and
# pkg-config dmaemu put the folder after dmaemu's headers.
kernel_guard = include/dmaemu/kernel-guard
EXTRA_DIST += tools/gen-kernel-guards.sh tools/kernel-subsystems.txt
all-local: $(kernel_guard)/.count
$(kernel_guard)/.count: $(srcdir)/tools/gen-kernel-guards.sh \
		$(srcdir)/tools/kernel-subsystems.txt $(kernel_linux_HEADERS) \
		$(kernel_asm_HEADERS) $(kernel_linux_byteorder_HEADERS)
	$(AM_V_GEN)CC="$(CC)" $(SHELL) $(srcdir)/tools/gen-kernel-guards.sh \
		$(srcdir) $(kernel_guard)
install-data-local: install-kernel-guard
install-kernel-guard: $(kernel_guard)/.count
	$(MKDIR_P) "$(DESTDIR)$(pkgincludedir)/kernel-guard"
	cd $(kernel_guard) && find . -name '*.h' | while read -r f; do \
		$(MKDIR_P) "$(DESTDIR)$(pkgincludedir)/kernel-guard/$${f%/*}" && \
		$(INSTALL_DATA) "$$f" \
			"$(DESTDIR)$(pkgincludedir)/kernel-guard/$$f" || exit 1; \
	done
uninstall-local: uninstall-kernel-guard
uninstall-kernel-guard:
	rm -rf "$(DESTDIR)$(pkgincludedir)/kernel-guard"
clean-local: clean-kernel-guard
clean-kernel-guard:
	rm -rf $(kernel_guard)
.PHONY: install-kernel-guard uninstall-kernel-guard clean-kernel-guard
