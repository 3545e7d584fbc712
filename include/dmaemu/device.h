/* SPDX-License-Identifier: MIT */
/*
 * <dmaemu/device.h> - emulated devices as DMA masters.
 *
 * A device belongs to one machine.  Drivers see it as a struct device
 * (dmaemu_device_to_dev()) or, when its model has a name, as a platform
 * device their platform_driver probes (<linux/platform_device.h>), and its
 * registers as an __iomem window (dmaemu_device_regs(), ioremap() or
 * devm_ioremap_resource(), accessed with readl()/writel()).  Device models
 * and tests act as the hardware through the register handlers of struct
 * dmaemu_device_ops, the model's own thread (ops->run, woken by doorbells
 * and timers), interrupt lines (dmaemu_raise_irq()), and
 * dmaemu_dma_read()/dmaemu_dma_write(), which see memory the way a bus
 * master does: through the IOMMU when there is one, from DRAM (MEM) on
 * non-coherent profiles, snooping the CPU cache on x86.
 *
 * Threads.  Register handlers run on the driver's thread that made the
 * access.  ops->run runs on the device's own thread, one call at a time,
 * each time a doorbell rang or the model's timer expired; the thread
 * sleeps in between and is stopped and joined by dmaemu_device_destroy().
 * A model keeps its registers under its own lock (a pthread mutex), which
 * it may hold while calling any function of this header except
 * dmaemu_device_reset() and dmaemu_device_destroy().
 *
 * Interrupts.  A model has ops->nr_irqs lines, each level-triggered
 * (asserted from dmaemu_raise_irq() until dmaemu_lower_irq(): the handler
 * runs again as long as the line stays up) or edge-triggered (each
 * dmaemu_raise_irq() is one edge, latched until delivered; several edges
 * before delivery make one interrupt, as on hardware).  Each line has a
 * Linux irq number (dmaemu_device_irq(), platform_get_irq()); handlers
 * requested with request_irq() run on the machine's interrupt thread (see
 * <linux/interrupt.h>).
 *
 * Faults.  A model reports DMA errors the way hardware does: it sets a
 * status bit and raises its interrupt.  dmaemu_dma_read()/_write() fail
 * cleanly (-EFAULT, with a dma-fault or iommu-fault report) on a bad
 * address, whatever a driver programmed, and never crash the process.
 *
 * This header is all a device model needs: a model written out of tree
 * includes it and links the installed library, nothing private.
 */
#ifndef DMAEMU_DEVICE_H
#define DMAEMU_DEVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <dmaemu/ktypes.h>

#ifdef __cplusplus
extern "C" {
#endif

struct device;
struct dmaemu_machine;
struct dmaemu_device;

/* Why ops->run was called (a bit mask). */
#define DMAEMU_DEVICE_DOORBELL 0x1u /* dmaemu_device_doorbell() */
#define DMAEMU_DEVICE_TIMER 0x2u    /* the model's timer expired */

/* Interrupt lines per device. */
#define DMAEMU_DEVICE_MAX_IRQS 32

/**
 * struct dmaemu_device_ops - behaviour of a device model.
 * @mmio_size:  bytes of the device's register window (0: none).  The
 *              window is placed in the machine's MMIO space when the
 *              device is created; dmaemu_device_regs() gives its base.
 * @mmio_read:  a driver's readb/w/l/q() at byte offset @off of the window,
 *              @size 1, 2, 4 or 8: return the register's value (the
 *              accessor truncates it to @size bytes).  Runs on the
 *              driver's thread, with no lock of the machine held, so it
 *              may call dmaemu_dma_read()/dmaemu_dma_write().  NULL: the
 *              window is write-only; a read is reported (mmio-access) and
 *              gives all ones.
 * @mmio_write: a driver's writeb/w/l/q() of @val at @off, as @mmio_read.
 *              NULL: the window is read-only; a write is reported.
 * @release:    called by dmaemu_device_destroy() after the emulator has
 *              stopped the device's thread, released its interrupt lines,
 *              mappings and allocations and removed the register window;
 *              frees the model's private data.  May be NULL.
 * @name:       the model's name on the platform bus ("copy-engine"): a
 *              platform_driver whose driver.name is the same probes the
 *              device.  NULL: the device is not on the platform bus.
 * @run:        the device's work, on its own thread: called each time
 *              the thread is woken, @events telling by what
 *              (DMAEMU_DEVICE_DOORBELL, DMAEMU_DEVICE_TIMER; wake-ups that
 *              come while a call runs are merged into the next call).  It
 *              must return when the work at hand is done, and should
 *              check dmaemu_device_stopping() between steps of a long one
 *              (a reset or a destroy waits for it to return).  NULL: no
 *              thread.
 * @reset:      bring the model's state to its reset values; called by
 *              dmaemu_device_reset() on the caller's thread while @run is
 *              held off.  May be NULL.
 * @nr_irqs:    interrupt lines (0 to DMAEMU_DEVICE_MAX_IRQS).
 * @irq_edge:   bit n set: line n is edge-triggered; clear: level.
 *
 * Every member is optional; a window needs at least one handler.
 */
struct dmaemu_device_ops {
	size_t mmio_size;
	uint64_t (*mmio_read)(struct dmaemu_device *dev, uint64_t off,
			      unsigned int size);
	void (*mmio_write)(struct dmaemu_device *dev, uint64_t off,
			   uint64_t val, unsigned int size);
	void (*release)(struct dmaemu_device *dev);
	const char *name;
	void (*run)(struct dmaemu_device *dev, unsigned int events);
	void (*reset)(struct dmaemu_device *dev);
	unsigned int nr_irqs;
	uint32_t irq_edge;
};

/**
 * dmaemu_device_create() - add a device to machine @m.
 * @m:    the machine.
 * @name: device name, copied (dev_name(), reports).
 * @ops:  the model, or NULL for a bare device that a test or program drives
 *        by hand with dmaemu_dma_read()/dmaemu_dma_write().
 * @priv: the model's private data (dmaemu_device_priv()).
 *
 * The device starts with 32-bit streaming and coherent DMA masks, 64 KiB
 * maximum segments and a 4 GiB segment boundary, as in Linux.
 *
 * When @ops has a run op, the device's thread starts; when it has a
 * name, the device joins the platform bus and a registered platform
 * driver of that name probes it before this returns.
 *
 * Return: the device, or NULL with a bad-argument report (@m or @name
 * NULL, name in use on @m, @ops with @mmio_size but no register handler,
 * handlers without @mmio_size, more than DMAEMU_DEVICE_MAX_IRQS lines or
 * edge bits beyond them) and errno EINVAL or EEXIST; NULL with errno
 * ENOMEM when out of host memory, MMIO space or irq numbers.
 */
struct dmaemu_device *dmaemu_device_create(struct dmaemu_machine *m,
					   const char *name,
					   const struct dmaemu_device_ops *ops,
					   void *priv);

/**
 * dmaemu_device_destroy() - release a device.
 * @dev: the device (NULL is ignored).
 *
 * In order: a bound platform driver is removed (its remove() runs); the
 * device's thread is stopped (a run in progress finishes) and joined;
 * its interrupt lines are lowered, latched edges dropped and handlers in
 * progress waited for; handlers still requested on its lines are reported
 * (leaked-irq) and freed; managed (devm_*, dmam_*) resources are released
 * silently, as devres does; streaming mappings and allocations still live
 * are reported (leaked-mapping, one report each) and released; then
 * ops->release runs.  Calling it from the device's own thread or from an
 * interrupt handler is a bad-argument report and does nothing.
 */
void dmaemu_device_destroy(struct dmaemu_device *dev);

/**
 * dmaemu_device_to_dev() - the struct device drivers pass to the API: the
 * one dmaemu_device_bind() tied to @dev, else the device's own.
 */
struct device *dmaemu_device_to_dev(struct dmaemu_device *dev);

/**
 * dmaemu_dev_to_device() - back from a struct device (NULL if foreign,
 * never tied, untied again, or the device's own while another is bound).
 */
struct dmaemu_device *dmaemu_dev_to_device(const struct device *dev);

/**
 * dmaemu_device_bind() - make @dev, a struct device embedded in the
 * caller's own structure (a struct pci_dev, a driver's private device),
 * the struct device of emulated device @d, as a bus driver registering
 * the device would.
 * @d:   a live device that no platform driver is bound to and that holds
 *       no DMA state yet (mappings, allocations, pools, managed
 *       resources): bind before the driver uses it.
 * @dev: zeroed or device_initialize()d; its memory must stay valid until
 *       dmaemu_device_unbind(), the last put_device() or the destroy of
 *       @d, whichever comes first.
 *
 * From then on the DMA API, devres, dev_printk() and
 * dmaemu_device_to_dev() use @dev, and the struct device @d had before is
 * no longer one of a device (a call with it is a bad-argument report).
 * Fields left 0 get the defaults of dmaemu_device_create(): @dma_mask
 * points at 32-bit storage, @coherent_dma_mask 32 bits, @dma_parms 64 KiB
 * segments and a 4 GiB boundary; @init_name the device's name; a
 * reference count of 0 becomes 1 (device_initialize()).
 *
 * Return: 0; -EINVAL with a bad-argument report when @d is not live or
 * @dev is NULL or already a device's; -EBUSY with a bad-argument report
 * when @d is bound to another struct device or to a platform driver, or
 * holds DMA state.
 */
int dmaemu_device_bind(struct dmaemu_device *d, struct device *dev);

/**
 * dmaemu_device_unbind() - untie @dev from its emulated device, as the
 * bus removing the device would: its managed resources are released
 * (newest first), interrupt handlers still requested, streaming mappings
 * and allocations still live are reported and released (as at
 * dmaemu_device_destroy()), and the emulated device gets its own struct
 * device back.
 *
 * Return: 0; -EINVAL with a bad-argument report when @dev is not bound.
 */
int dmaemu_device_unbind(struct device *dev);

struct pci_dev;

/**
 * dmaemu_pci_dev_bind() - set up @pdev as the PCI core would for emulated
 * device @d, and bind &@pdev->dev to @d (dmaemu_device_bind()).
 * @d:    the device (the same conditions as dmaemu_device_bind()).
 * @pdev: zeroed by the caller, who may have filled @vendor, @device,
 *        @subsystem_*, @class, @revision, @devfn and @dev.init_name.
 *
 * Sets: @bus (bus 0), @dma_mask 32 bits with @dev.dma_mask pointing at it
 * and @dev.coherent_dma_mask 32 bits (pci_setup_device()'s defaults),
 * resource[0] an IORESOURCE_MEM BAR on @d's register window when it has
 * one (pci_resource_start(), pci_iomap()), @irq the number of @d's
 * interrupt line 0 when it has one.  Untie with
 * dmaemu_device_unbind(&pdev->dev).
 *
 * Return: as dmaemu_device_bind(); -EINVAL for a NULL @pdev.
 */
int dmaemu_pci_dev_bind(struct dmaemu_device *d, struct pci_dev *pdev);

/** dmaemu_device_priv() - the @priv given at creation. */
void *dmaemu_device_priv(const struct dmaemu_device *dev);

/** dmaemu_device_machine() - the machine @dev belongs to. */
struct dmaemu_machine *dmaemu_device_machine(const struct dmaemu_device *dev);

/** dmaemu_device_name() - the device's name. */
const char *dmaemu_device_name(const struct dmaemu_device *dev);

/**
 * dmaemu_device_regs() - the device's register window, as a driver's
 * ioremap() of it would give: pass it (plus a register's offset) to
 * readl()/writel() and friends.  A plain load or store there is an
 * mmio-access report, as on hardware it would be a bus error.
 * @dev: the device.
 *
 * Return: the window's base, or NULL when @dev is not a live device or its
 * model has no registers (@mmio_size 0).
 */
void *dmaemu_device_regs(struct dmaemu_device *dev);

/**
 * dmaemu_device_set_privileged() - make the device's DMA accesses
 * privileged, or unprivileged (the default).
 * @dev:        the device.
 * @privileged: true for privileged accesses.
 *
 * With the IOMMU on (option iommu=1), mappings made with
 * DMA_ATTR_PRIVILEGED are reachable by privileged accesses only: an
 * unprivileged access to one is an iommu-fault.  Without the IOMMU the
 * flag has no effect.
 *
 * Return: 0; -EINVAL for a NULL @dev; -ENOMEM when out of host memory.
 */
int dmaemu_device_set_privileged(struct dmaemu_device *dev, bool privileged);

/**
 * dmaemu_device_doorbell() - wake the device's thread: ops->run is called
 * (again) with DMAEMU_DEVICE_DOORBELL.  Models call it from the register
 * handler of a register that is a doorbell on their hardware; any thread
 * may call it, the device's own included.
 * @dev: the device.
 *
 * Return: 0; -EINVAL with a bad-argument report when @dev is not live or
 * its model has no run op.
 */
int dmaemu_device_doorbell(struct dmaemu_device *dev);

/**
 * dmaemu_device_timer_arm() - arm the model's timer: ops->run is called
 * with DMAEMU_DEVICE_TIMER once @delay_ns of emulated time (host monotonic
 * time, see <dmaemu/sync.h>) have passed.  One timer per device: arming
 * it again moves it.
 * @dev:      the device.
 * @delay_ns: from now.
 *
 * Return: 0; -EINVAL with a bad-argument report as for the doorbell.
 */
int dmaemu_device_timer_arm(struct dmaemu_device *dev, uint64_t delay_ns);

/**
 * dmaemu_device_timer_cancel() - disarm the model's timer.
 * Return: 1 if it was armed, 0 if not; -EINVAL as for the doorbell.
 */
int dmaemu_device_timer_cancel(struct dmaemu_device *dev);

/**
 * dmaemu_device_stopping() - should ops->run give up the work at hand?
 * True while a reset or destroy of @dev waits for run to return; a model
 * checks it between the chunks of a long transfer.  False for a device
 * that is not live.
 */
bool dmaemu_device_stopping(struct dmaemu_device *dev);

/**
 * dmaemu_device_reset() - reset the device, as its reset register would.
 * @dev: the device.
 *
 * 1. holds the device's thread off, waiting for a run in progress to
 *    return (run sees dmaemu_device_stopping());
 * 2. drops pending doorbells and disarms the timer;
 * 3. lowers every interrupt line and forgets latched edges;
 * 4. calls ops->reset (on the calling thread);
 * 5. lets the thread run again.
 * A model's register handler may call it (with the model's lock not
 * held); so may run itself (steps 1 and 5 are then skipped).
 *
 * Return: 0; -EINVAL with a bad-argument report when @dev is not live.
 */
int dmaemu_device_reset(struct dmaemu_device *dev);

/**
 * dmaemu_device_irq() - the Linux irq number of interrupt line @line, as
 * platform_get_irq() gives it to a driver.
 * Return: the number (> 0); -EINVAL when @dev is not live or has no line
 * @line.
 */
int dmaemu_device_irq(struct dmaemu_device *dev, unsigned int line);

/**
 * dmaemu_raise_irq() - the device asserts interrupt line @line.
 * @dev:  the device.
 * @line: 0 .. ops->nr_irqs - 1.
 *
 * Level line: asserted until dmaemu_lower_irq(); its handler runs, and
 * runs again after returning while the line stays asserted.  Edge line:
 * one edge, latched until the interrupt thread delivers it.  Nothing runs
 * while no handler is requested or the irq is disabled; an asserted level
 * or a latched edge is delivered once that changes.  Any thread may call
 * it, with the model's lock held.
 *
 * Return: 0; -EINVAL with a bad-argument report for a device that is not
 * live or a line it does not have.
 */
int dmaemu_raise_irq(struct dmaemu_device *dev, unsigned int line);

/**
 * dmaemu_lower_irq() - the device deasserts line @line (level lines; on
 * an edge line it only ends the edge).  Return: as dmaemu_raise_irq().
 */
int dmaemu_lower_irq(struct dmaemu_device *dev, unsigned int line);

/**
 * dmaemu_dma_read() - the device reads @len bytes at bus address @addr.
 * @dev:  the device.
 * @addr: bus (DMA) address, as the driver programmed it.
 * @buf:  where the bytes go.
 * @len:  number of bytes.
 *
 * Translates through the IOMMU when on (permissions by direction), reads
 * DRAM (non-coherent profiles) or snoops the cache (x86: CPU-dirty lines
 * are cleaned first), and tells the checkers.
 *
 * Return: 0; -EFAULT with a report when any byte is outside DRAM, not
 * mapped in the IOMMU, or not readable by the device (@buf is then
 * untouched); -EINVAL for a NULL argument.
 */
int dmaemu_dma_read(struct dmaemu_device *dev, dma_addr_t addr, void *buf,
		    size_t len);

/**
 * dmaemu_dma_write() - the device writes @len bytes at bus address @addr.
 *
 * As dmaemu_dma_read(), the other way: on non-coherent profiles the bytes
 * land in DRAM only (the CPU's cached copy goes stale: device-changed
 * bytes); on x86 the CPU's copy is updated too.
 *
 * Return: 0; -EFAULT with a report when any byte is outside DRAM, not
 * mapped, or not writable by the device (nothing is written); -EINVAL for
 * a NULL argument.
 */
int dmaemu_dma_write(struct dmaemu_device *dev, dma_addr_t addr,
		     const void *buf, size_t len);

/**
 * dmaemu_dma_drain() - the device waits for its posted writes: every
 * write of @dev still in its posted-write queue lands, oldest first.
 * @dev: the device.
 *
 * Device writes to memory carrying DMA_ATTR_WEAK_ORDERING (and, with the
 * option posted_writes=relaxed, every write not to DMA_ATTR_WRITE_BARRIER
 * memory) are posted: they land later and possibly out of order, as the
 * machine's seed decides (docs/ordering.md, "Device writes").  The queue
 * drains by itself where hardware pushes posted writes ahead: a driver's
 * read of the device's registers, dmaemu_raise_irq(), the end of each
 * ops->run call, a write to DMA_ATTR_WRITE_BARRIER memory, a read that
 * may not pass them, reset and destroy.  A model calls this where its
 * hardware has a write fence.
 *
 * Return: the number of writes that landed (0 or more); -EINVAL with a
 * bad-argument report when @dev is not live.
 */
int dmaemu_dma_drain(struct dmaemu_device *dev);

/**
 * struct dmaemu_device_timing - how long the device's DMA takes, in
 * emulated time.
 * @latency_ns: per dmaemu_dma_read()/dmaemu_dma_write() call.
 * @bandwidth:  bytes per second (0: no cap): a call of n bytes takes
 *              n * 10^9 / @bandwidth ns more.
 * @jitter_ns:  up to this much more per call, chosen by the machine's
 *              seed, the device's name and the call's number, so a run
 *              replays with the same seed.
 *
 * The calling thread (the model's) spends the time before the data
 * moves: with sched=lockstep it waits on the machine's emulated clock,
 * so the run stays deterministic; with sched=threads it sleeps on the
 * host's clock.  All zero (the default): no wait.  Limits, so that one
 * call costs a bounded host time: @latency_ns and @jitter_ns at most
 * 10 ms (10000000) each, @bandwidth 0 or at least 1 MB/s (1000000).
 */
struct dmaemu_device_timing {
	uint64_t latency_ns;
	uint64_t bandwidth;
	uint64_t jitter_ns;
};

/**
 * dmaemu_device_set_timing() - set @dev's timing knobs.
 * @dev: the device.
 * @t:   the knobs (NULL: all zero).
 *
 * Return: 0; -EINVAL with a bad-argument report when @dev is not live
 * or a knob is beyond its limit (struct dmaemu_device_timing), and
 * nothing changes.
 */
int dmaemu_device_set_timing(struct dmaemu_device *dev,
			     const struct dmaemu_device_timing *t);

/**
 * dmaemu_device_set_options() - set @dev's timing knobs from a string.
 * @dev:  the device.
 * @opts: "key=value" items separated by ':' or ',': latency=, jitter=
 *        (a number with a unit ns, us, ms or s; no unit: ns) and
 *        bandwidth= (bytes per second, with an optional k, M or G:
 *        10^3, 10^6, 10^9); keys not given keep their value; "off"
 *        sets all three to zero.  A device starts with the machine's
 *        device_timing= option (the same syntax; default off).
 *
 * Return: 0; -EINVAL with a bad-argument report (naming the item) for
 * an unknown key, a bad number or unit, a value beyond its limit (struct
 * dmaemu_device_timing), or a @dev that is not live, and then nothing is
 * changed.
 */
int dmaemu_device_set_options(struct dmaemu_device *dev, const char *opts);

#ifdef __cplusplus
}
#endif

#endif
