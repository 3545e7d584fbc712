// SPDX-License-Identifier: MIT
/*
 * report-driver-line-prog.c - a driver with one bug per scenario, each
 * leaving a report that must name the driver's lines, built with
 * dmaemu-cc by tests/scripts/report-driver-line.sh.  The lines a report
 * must name end with a marker comment, "site: NAME", which the test looks
 * for (no line number is written in the test).
 *
 * The device is a small DMA engine modelled here, as a test or a user
 * would write one: registers for a bus address and a length, and a
 * command register whose write is the doorbell; the engine's thread
 * (ops->run) moves the data, so every device access is made on the
 * device's thread, where only the driver's register writes say which
 * code gave the device its address.
 *
 *   late      the device reads a buffer unmapped 12 unmaps ago
 *   edge      the same with unmap_history=12: just remembered
 *   forgot    the same with unmap_history=4: nobody remembers it
 *   overrun   a read past the end of a live mapping, with no history
 *   fixed     the same with the buffer still mapped: no report
 *   iommu     the same behind the IOMMU (iommu=1): an iommu-fault
 *   cut       a 64-bit bus address given through the 32-bit low
 *             register only (dma_offset puts DRAM above 4 GiB)
 *   wrap      an address and length that wrap the bus address space
 *   stale     a DMA_ATTR_NON_CONSISTENT buffer written, never cleaned
 *   stale-map a store into a DMA_TO_DEVICE buffer after its map
 *   leak      a coherent allocation never freed
 *   irq       an interrupt handler that never claims the interrupt
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <dmaemu/device.h>
#include <dmaemu/machine.h>
#include <dmaemu/report.h>
#include <linux/dma-mapping.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/slab.h>

#define REG_ADDR_LO 0x00
#define REG_ADDR_HI 0x04
#define REG_LEN 0x08
#define REG_CMD 0x0c /* the doorbell: 1 read, 2 write, 3 raise the irq */
#define REG_DONE 0x10
#define TO_DEV DMA_TO_DEVICE

struct engine {
	uint64_t addr;
	uint32_t len, cmd, done;
};

static uint64_t eng_read(struct dmaemu_device *d, uint64_t off,
			 unsigned int size)
{
	struct engine *e = dmaemu_device_priv(d);

	(void)size;
	return off == REG_DONE ? __atomic_load_n(&e->done, __ATOMIC_ACQUIRE)
			       : 0;
}

static void eng_write(struct dmaemu_device *d, uint64_t off, uint64_t val,
		      unsigned int size)
{
	struct engine *e = dmaemu_device_priv(d);

	(void)size;
	switch (off) {
	case REG_ADDR_LO:
		e->addr = (e->addr & ~0xffffffffULL) | (uint32_t)val;
		break;
	case REG_ADDR_HI:
		e->addr = (e->addr & 0xffffffffULL) | val << 32;
		break;
	case REG_LEN:
		e->len = (uint32_t)val;
		break;
	case REG_CMD:
		__atomic_store_n(&e->cmd, (uint32_t)val, __ATOMIC_RELEASE);
		dmaemu_device_doorbell(d);
		break;
	}
}

static void eng_run(struct dmaemu_device *d, unsigned int events)
{
	struct engine *e = dmaemu_device_priv(d);
	uint32_t cmd = __atomic_exchange_n(&e->cmd, 0, __ATOMIC_ACQ_REL);
	uint8_t buf[256];

	(void)events;
	if (!cmd)
		return;
	if (cmd == 1)
		dmaemu_dma_read(d, e->addr, buf,
				e->len < sizeof(buf) ? e->len : sizeof(buf));
	else if (cmd == 2) {
		memset(buf, 0x5a, sizeof(buf));
		dmaemu_dma_write(d, e->addr, buf,
				 e->len < sizeof(buf) ? e->len : sizeof(buf));
	} else if (cmd == 3)
		dmaemu_raise_irq(d, 0);
	__atomic_add_fetch(&e->done, 1, __ATOMIC_RELEASE);
}

static const struct dmaemu_device_ops eng_ops = {
	.mmio_size = 0x20,
	.mmio_read = eng_read,
	.mmio_write = eng_write,
	.run = eng_run,
	.nr_irqs = 1,
};

static struct dmaemu_machine *m;
static void __iomem *regs;
static uint32_t issued;

/* Wait for the engine to finish the command just issued. */
static void wait_done(void)
{
	issued++;
	while (readl(regs + REG_DONE) != issued)
		usleep(100);
}

/* The driver hands the engine a full 64-bit address. */
static void start_dma(dma_addr_t addr, uint32_t len, uint32_t cmd)
{
	writel(lower_32_bits(addr), regs + REG_ADDR_LO);
	writel(upper_32_bits(addr), regs + REG_ADDR_HI);
	writel(len, regs + REG_LEN);
	writel(cmd, regs + REG_CMD); /* site: bell */
	wait_done();
}

static irqreturn_t bad_handler(int irq, void *p)
{ /* site: handler */
	(void)irq;
	(void)p;
	return IRQ_NONE; /* the engine's interrupt is never claimed */
}

/* late, forgot, fixed, iommu: a buffer the device reads after its unmap. */
static void late(struct device *dev, const char *how)
{
	char *big = kzalloc(8192, GFP_KERNEL);
	dma_addr_t first, live, h;
	int i;

	first = dma_map_single(dev, big, 64, DMA_TO_DEVICE); /* site: map */
	if (dma_mapping_error(dev, first))
		return;
	live = dma_map_single(dev, big + 4096, 64, DMA_TO_DEVICE);
	if (dma_mapping_error(dev, live))
		return;
	if (strcmp(how, "fixed"))
		dma_unmap_single(dev, first, 64, TO_DEV); /* site: unmap */
	/* Eleven more unmaps. */
	for (i = 0; i < 11; i++) {
		h = dma_map_single(dev, big + 256 + 128 * i, 64, DMA_TO_DEVICE);
		if (dma_mapping_error(dev, h))
			return;
		dma_unmap_single(dev, h, 64, DMA_TO_DEVICE);
	}
	start_dma(first, 64, 1);
	if (!strcmp(how, "fixed"))
		dma_unmap_single(dev, first, 64, DMA_TO_DEVICE);
	dma_unmap_single(dev, live, 64, DMA_TO_DEVICE);
	kfree(big);
}

/* overrun: the device reads 128 bytes of a 64-byte mapping, after an
 * unmap that no history keeps. */
static void overrun(struct device *dev)
{
	char *buf = kzalloc(256, GFP_KERNEL);
	dma_addr_t h = dma_map_single(dev, buf + 128, 64, TO_DEV);

	if (dma_mapping_error(dev, h))
		return;
	dma_unmap_single(dev, h, 64, TO_DEV);
	h = dma_map_single(dev, buf, 64, TO_DEV); /* site: map_over */
	if (dma_mapping_error(dev, h))
		return;
	start_dma(h, 128, 1);
	dma_unmap_single(dev, h, 64, TO_DEV);
	kfree(buf);
}

/* cut: the driver writes the low half of the address only. */
static void cut(struct device *dev)
{
	char *buf = kzalloc(256, GFP_KERNEL);
	dma_addr_t h;

	h = dma_map_single(dev, buf, 256, TO_DEV); /* site: map_cut */
	if (dma_mapping_error(dev, h))
		return;
	writel(lower_32_bits(h), regs + REG_ADDR_LO);
	writel(256, regs + REG_LEN);
	writel(1, regs + REG_CMD); /* site: bell_cut */
	wait_done();
	dma_unmap_single(dev, h, 256, DMA_TO_DEVICE);
	kfree(buf);
}

/* stale: written by the CPU, never given to the device with
 * dma_cache_sync(). */
static void stale(struct device *dev)
{
	dma_addr_t h;
	char *buf = dma_alloc_attrs(dev, 4096, &h, GFP_KERNEL, /* site: alloc */
				    DMA_ATTR_NON_CONSISTENT);

	if (!buf)
		return;
	buf[5] = 1; /* site: store */
	start_dma(h, 64, 1);
	dma_free_attrs(dev, 4096, buf, h, DMA_ATTR_NON_CONSISTENT);
}

/* stale-map: a store after the map, no dma_sync_single_for_device(). */
static void stale_map(struct device *dev)
{
	char *buf = kzalloc(256, GFP_KERNEL);
	dma_addr_t h = dma_map_single(dev, buf, 256, DMA_TO_DEVICE);

	if (dma_mapping_error(dev, h))
		return;
	buf[9] = 1; /* site: store_map */
	start_dma(h, 64, 1);
	dma_unmap_single(dev, h, 256, DMA_TO_DEVICE);
	kfree(buf);
}

/* skip-bounce: behind swiotlb=force, a second mapping of a buffer made
 * with DMA_ATTR_SKIP_CPU_SYNC gets a bounce slot nothing filled; the fixed
 * twin (skip-bounce-fixed) syncs it for the device. */
static void skip_bounce(struct device *dev, bool fixed)
{
	char *buf = kzalloc(256, GFP_KERNEL);
	dma_addr_t h, h2;

	if (!buf)
		return;
	memset(buf, 0x77, 256);
	h = dma_map_single(dev, buf, 256, TO_DEV);
	if (dma_mapping_error(dev, h))
		return;
	h2 = dma_map_single_attrs(dev, buf, 256, TO_DEV, /* site: map_skip */
				  DMA_ATTR_SKIP_CPU_SYNC);
	if (dma_mapping_error(dev, h2))
		return;
	if (fixed)
		dma_sync_single_for_device(dev, h2, 256, TO_DEV);
	start_dma(h, 64, 1);
	start_dma(h2, 64, 1);
	dma_unmap_single_attrs(dev, h2, 256, TO_DEV, DMA_ATTR_SKIP_CPU_SYNC);
	dma_unmap_single(dev, h, 256, TO_DEV);
	kfree(buf);
}

/* skip-bounce-write: a DMA_BIDIRECTIONAL map with DMA_ATTR_SKIP_CPU_SYNC
 * that the device writes before it reads: it reads its own bytes. */
static void skip_bounce_write(struct device *dev)
{
	char *buf = kzalloc(256, GFP_KERNEL);
	dma_addr_t h;

	if (!buf)
		return;
	h = dma_map_single_attrs(dev, buf, 256, DMA_BIDIRECTIONAL,
				 DMA_ATTR_SKIP_CPU_SYNC);
	if (dma_mapping_error(dev, h))
		return;
	start_dma(h, 64, 2);
	start_dma(h, 64, 1);
	dma_unmap_single(dev, h, 256, DMA_BIDIRECTIONAL);
	kfree(buf);
}

/* irq: the engine raises its level interrupt; nobody claims it. */
static void unclaimed(struct dmaemu_device *eng)
{
	int irq = dmaemu_device_irq(eng, 0);
	int tries = 0;

	if (request_irq(irq, bad_handler, 0, "eng", eng)) /* site: request */
		return;
	writel(3, regs + REG_CMD); /* site: bell_irq */
	wait_done();
	while (!dmaemu_report_count(m, "unhandled-irq") && tries++ < 20000)
		usleep(100);
	free_irq(irq, eng);
}

/* leak: a coherent allocation never freed. */
static void leak(struct device *dev)
{
	dma_addr_t h;
	void *p;

	p = dma_alloc_coherent(dev, 4096, &h, GFP_KERNEL); /* site: leak */
	(void)p;
}

int main(int argc, char **argv)
{
	const char *how = argc > 1 ? argv[1] : "late";
	char opts[128];
	struct engine e;
	struct dmaemu_device *eng;
	struct device *dev;

	snprintf(opts, sizeof(opts), "profile=arm64:%s",
		 !strcmp(how, "forgot")		    ? "unmap_history=4"
		 : !strcmp(how, "edge")		    ? "unmap_history=12"
		 : !strcmp(how, "overrun")	    ? "unmap_history=0"
		 : !strcmp(how, "iommu")	    ? "iommu=1"
		 : !strcmp(how, "cut")		    ? "dma_offset=0x100000000"
		 : !strncmp(how, "skip-bounce", 11) ? "swiotlb=force"
						    : "");
	m = dmaemu_machine_create(opts);
	if (!m)
		return 1;
	memset(&e, 0, sizeof(e));
	eng = dmaemu_device_create(m, "eng0", &eng_ops, &e);
	if (!eng)
		return 1;
	dev = dmaemu_device_to_dev(eng);
	regs = dmaemu_device_regs(eng);
	if (dma_set_mask_and_coherent(dev, DMA_BIT_MASK(64)))
		return 1;
	if (!strcmp(how, "cut"))
		cut(dev);
	else if (!strcmp(how, "wrap"))
		start_dma(~0ULL - 63, 128, 1);
	else if (!strcmp(how, "stale"))
		stale(dev);
	else if (!strcmp(how, "stale-map"))
		stale_map(dev);
	else if (!strcmp(how, "overrun"))
		overrun(dev);
	else if (!strcmp(how, "leak"))
		leak(dev);
	else if (!strcmp(how, "irq"))
		unclaimed(eng);
	else if (!strcmp(how, "skip-bounce-write"))
		skip_bounce_write(dev);
	else if (!strncmp(how, "skip-bounce", 11))
		skip_bounce(dev, !strcmp(how, "skip-bounce-fixed"));
	else
		late(dev, how);
	dmaemu_device_destroy(eng);
	dmaemu_machine_destroy(m);
	return 0;
}
