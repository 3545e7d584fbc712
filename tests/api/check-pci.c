// SPDX-License-Identifier: MIT
/*
 * check-pci.c - struct pci_dev and the 4.14 <linux/pci-dma-compat.h>
 * wrappers.
 *
 *   - dmaemu_pci_dev_bind(): what pci_setup_device() would set (masks,
 *     BAR 0 on the register window, irq), pci_iomap() reaching the
 *     model's registers, the harmless enable/master/regions calls;
 *   - every pci_* DMA wrapper against its dma_* equivalent: one script
 *     run twice on fresh machines, once through each name, must give the
 *     same data and the same reports (kind, address, size), and the
 *     reports must name this file's function (the driver's call site);
 *   - pci_alloc_consistent() allocates with GFP_ATOMIC (no sleep-in-atomic
 *     report under a spinlock, where dma_alloc_coherent(GFP_KERNEL) has
 *     one);
 *   - a driver-shaped test written after the ring set-up of 4.14 PCI NIC
 *     drivers (8139too, pcnet32, e100): probe enables the device, sets
 *     the 32-bit masks, maps BAR 0, allocates the descriptor ring with
 *     pci_zalloc_consistent() and maps each receive buffer with
 *     pci_map_single(PCI_DMA_FROMDEVICE) checked by
 *     pci_dma_mapping_error(); the test plays the NIC (descriptor and
 *     packet DMA, little-endian descriptors); the poll loop syncs each
 *     buffer for the CPU, reads it and gives it back; remove unmaps and
 *     frees everything, and the device holds nothing afterwards.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <asm/barrier.h>
#include <asm/byteorder.h>
#include <linux/compiler.h>
#include <linux/dma-mapping.h>
#include <linux/io.h>
#include <linux/kernel.h>
#include <linux/pci.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include <dmaemu/cpu.h>
#include <dmaemu/device.h>
#include <dmaemu/machine.h>
#include <dmaemu/report.h>
#include <dmaemu/testing.h>

#include "check-run.h"
#include "fixture.h"

static const char *const configs[] = {
	"profile=arm",	       "profile=arm64",
	"profile=x86",	       "profile=arm64:swiotlb=force",
	"profile=arm:iommu=1",
};
#define NCONFIGS (sizeof(configs) / sizeof(configs[0]))

static struct dmaemu_machine *m;
static struct dmaemu_device *dd;
static uint64_t expected;

/* ---- a small NIC model: a doorbell register and one interrupt line ---- */

#define REG_ID 0x00
#define REG_RING 0x08
#define REG_DOORBELL 0x10

static uint32_t reg_ring, doorbells;

static uint64_t nic_read(struct dmaemu_device *d, uint64_t off,
			 unsigned int size)
{
	(void)d;
	(void)size;
	return off == REG_ID ? 0x8139 : off == REG_RING ? reg_ring : 0;
}

static void nic_write(struct dmaemu_device *d, uint64_t off, uint64_t val,
		      unsigned int size)
{
	(void)d;
	(void)size;
	if (off == REG_RING)
		reg_ring = (uint32_t)val;
	else if (off == REG_DOORBELL)
		doorbells++;
}

static const struct dmaemu_device_ops nic_ops = {
	.mmio_size = 256,
	.mmio_read = nic_read,
	.mmio_write = nic_write,
	.nr_irqs = 1,
};

static void make(const char *opts)
{
	m = fixture_machine("mem=16M:%s", opts);
	dd = dmaemu_device_create(m, "nic0", &nic_ops, NULL);
	ck_assert_ptr_nonnull(dd);
	expected = 0;
	reg_ring = 0;
	doorbells = 0;
}

static void teardown(void)
{
	fixture_finish(&m, &dd, expected);
}

static uint64_t count(const char *kind)
{
	return dmaemu_report_count(m, kind);
}

/* ---------------------------------------------------------------------- */

START_TEST(test_pci_dev_setup)
{
	struct pci_dev pdev;
	void __iomem *regs;
	uint64_t before;

	make("profile=arm64");
	memset(&pdev, 0, sizeof(pdev));
	pdev.vendor = 0x10ec;
	pdev.device = 0x8139;
	pdev.devfn = PCI_DEVFN(3, 0);
	ck_assert_int_eq(dmaemu_pci_dev_bind(dd, &pdev), 0);
	ck_assert_ptr_eq(dmaemu_dev_to_device(&pdev.dev), dd);
	ck_assert_ptr_eq(to_pci_dev(dmaemu_device_to_dev(dd)), &pdev);
	ck_assert_str_eq(pci_name(&pdev), "nic0");
	ck_assert_uint_eq(PCI_SLOT(pdev.devfn), 3);
	ck_assert_uint_eq(pdev.bus->number, 0);
	ck_assert_ptr_eq(pdev.dev.dma_mask, &pdev.dma_mask);
	ck_assert_uint_eq(pdev.dma_mask, DMA_BIT_MASK(32));
	ck_assert_uint_eq(pdev.dev.coherent_dma_mask, DMA_BIT_MASK(32));
	ck_assert_int_eq((int)pdev.irq, dmaemu_device_irq(dd, 0));
	ck_assert_uint_eq(pci_resource_len(&pdev, 0), 256);
	ck_assert_uint_ne(pci_resource_start(&pdev, 0), 0);
	ck_assert(pci_resource_flags(&pdev, 0) & IORESOURCE_MEM);
	ck_assert_uint_eq(pci_resource_len(&pdev, 1), 0);

	ck_assert_int_eq(pci_enable_device(&pdev), 0);
	ck_assert(pci_is_enabled(&pdev));
	pci_set_master(&pdev);
	ck_assert(pdev.dmaemu_master);
	ck_assert_int_eq(pci_request_regions(&pdev, "nic"), 0);
	pci_set_drvdata(&pdev, &reg_ring);
	ck_assert_ptr_eq(pci_get_drvdata(&pdev), &reg_ring);
	ck_assert_ptr_null(pci_iomap(&pdev, 1, 0));
	regs = pci_iomap(&pdev, 0, 0);
	ck_assert_ptr_nonnull(regs);
	ck_assert_ptr_eq(regs, dmaemu_device_regs(dd));
	ck_assert_uint_eq(readl(regs + REG_ID), 0x8139);
	writel(0x1234, regs + REG_RING);
	ck_assert_uint_eq(reg_ring, 0x1234);
	pci_iounmap(&pdev, regs);
	pci_release_regions(&pdev);
	pci_clear_master(&pdev);
	pci_disable_device(&pdev);
	ck_assert(!pci_is_enabled(&pdev));

	/* Masks through the PCI names land in the pci_dev. */
	ck_assert_int_eq(pci_set_dma_mask(&pdev, DMA_BIT_MASK(64)), 0);
	ck_assert_uint_eq(pdev.dma_mask, DMA_BIT_MASK(64));
	ck_assert_int_eq(pci_set_consistent_dma_mask(&pdev, DMA_BIT_MASK(64)),
			 0);
	ck_assert_uint_eq(pdev.dev.coherent_dma_mask, DMA_BIT_MASK(64));
	ck_assert(pci_dma_supported(&pdev, DMA_BIT_MASK(32)));
	ck_assert_int_eq(pci_set_dma_max_seg_size(&pdev, 4096), 0);
	ck_assert_uint_eq(dma_get_max_seg_size(&pdev.dev), 4096);

	/* A NULL pci_dev: a bad-argument report, not a crash. */
	before = count("bad-argument");
	ck_assert_uint_eq(pci_map_single(NULL, &before, 8, PCI_DMA_TODEVICE),
			  DMA_MAPPING_ERROR);
	ck_assert_int_eq(dmaemu_pci_dev_bind(dd, NULL), -EINVAL);
	ck_assert_uint_eq(count("bad-argument") - before, 2);
	expected += 2;
	ck_assert_int_eq(dmaemu_device_unbind(&pdev.dev), 0);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Each pci_* wrapper against its dma_* equivalent                        */
/* ---------------------------------------------------------------------- */

/* What one run of the script saw: data read back and the reports. */
struct transcript {
	uint8_t data[6][64];
	int nents;
	unsigned int nreports;
	struct {
		enum dmaemu_report_kind kind;
		uint64_t phys, size;
		int site_ok;
	} rep[16];
};

#define OP(pci, dma) (use_pci ? (pci) : (dma))

/*
 * The script: every wrapper once, correct calls and then misuse (each
 * misuse is one report).  A driver's function: its reports must name it.
 */
static __attribute__((noinline)) void run_script(bool use_pci,
						 struct pci_dev *pdev,
						 struct transcript *t)
{
	struct device *dev = &pdev->dev;
	struct scatterlist sg[2];
	struct page *page;
	uint8_t *buf, *coh, *zc, pat[64];
	dma_addr_t h, hp, hc, hz;
	int n;

	buf = kmalloc(512, GFP_KERNEL);
	page = alloc_page(GFP_KERNEL);
	memset(pat, 0xc3, sizeof(pat));

	/* consistent memory */
	coh = OP(pci_alloc_consistent(pdev, 4096, &hc),
		 dma_alloc_coherent(dev, 4096, &hc, GFP_ATOMIC));
	zc = OP(pci_zalloc_consistent(pdev, 8192, &hz),
		dma_zalloc_coherent(dev, 8192, &hz, GFP_ATOMIC));
	ck_assert_ptr_nonnull(coh);
	ck_assert_ptr_nonnull(zc);
	dmaemu_dma_write(dd, hc, pat, 64);
	dmaemu_cpu_read(t->data[0], coh, 64);
	dmaemu_cpu_read(t->data[1], zc + 4000, 64);

	/* single: device writes, CPU reads after sync */
	h = OP(pci_map_single(pdev, buf, 256, PCI_DMA_FROMDEVICE),
	       dma_map_single(dev, buf, 256, DMA_FROM_DEVICE));
	ck_assert(
		!OP(pci_dma_mapping_error(pdev, h), dma_mapping_error(dev, h)));
	dmaemu_dma_write(dd, h, pat, 64);
	OP(pci_dma_sync_single_for_cpu(pdev, h, 256, PCI_DMA_FROMDEVICE),
	   dma_sync_single_for_cpu(dev, h, 256, DMA_FROM_DEVICE));
	dmaemu_cpu_read(t->data[2], buf, 64);
	OP(pci_dma_sync_single_for_device(pdev, h, 256, PCI_DMA_FROMDEVICE),
	   dma_sync_single_for_device(dev, h, 256, DMA_FROM_DEVICE));
	/* misuse: unmap with another size (unmap-size-mismatch) */
	OP(pci_unmap_single(pdev, h, 128, PCI_DMA_FROMDEVICE),
	   dma_unmap_single(dev, h, 128, DMA_FROM_DEVICE));

	/* page: the CPU writes, the device reads */
	fixture_cpu_fill(page_address(page), 0x5e, 128);
	hp = OP(pci_map_page(pdev, page, 64, 64, PCI_DMA_TODEVICE),
		dma_map_page(dev, page, 64, 64, DMA_TO_DEVICE));
	ck_assert(!OP(pci_dma_mapping_error(pdev, hp),
		      dma_mapping_error(dev, hp)));
	dmaemu_dma_read(dd, hp, t->data[3], 64);
	/* misuse: a sync with another direction, then an unmap with
	 * another direction */
	OP(pci_dma_sync_single_for_cpu(pdev, hp, 64, PCI_DMA_FROMDEVICE),
	   dma_sync_single_for_cpu(dev, hp, 64, DMA_FROM_DEVICE));
	OP(pci_unmap_page(pdev, hp, 64, PCI_DMA_BIDIRECTIONAL),
	   dma_unmap_page(dev, hp, 64, DMA_BIDIRECTIONAL));

	/* scatterlist, bidirectional */
	sg_init_table(sg, 2);
	sg_set_buf(&sg[0], buf + 256, 64);
	sg_set_buf(&sg[1], buf + 384, 64);
	n = OP(pci_map_sg(pdev, sg, 2, PCI_DMA_BIDIRECTIONAL),
	       dma_map_sg(dev, sg, 2, DMA_BIDIRECTIONAL));
	t->nents = n;
	ck_assert_int_ge(n, 1);
	dmaemu_dma_write(dd, sg_dma_address(&sg[0]), pat, 64);
	OP(pci_dma_sync_sg_for_cpu(pdev, sg, 2, PCI_DMA_BIDIRECTIONAL),
	   dma_sync_sg_for_cpu(dev, sg, 2, DMA_BIDIRECTIONAL));
	dmaemu_cpu_read(t->data[4], buf + 256, 64);
	OP(pci_dma_sync_sg_for_device(pdev, sg, 2, PCI_DMA_BIDIRECTIONAL),
	   dma_sync_sg_for_device(dev, sg, 2, DMA_BIDIRECTIONAL));
	/* misuse: unmap with another entry count */
	OP(pci_unmap_sg(pdev, sg, 1, PCI_DMA_BIDIRECTIONAL),
	   dma_unmap_sg(dev, sg, 1, DMA_BIDIRECTIONAL));

	/* misuse: free consistent memory with another size */
	OP(pci_free_consistent(pdev, 2048, coh, hc),
	   dma_free_coherent(dev, 2048, coh, hc));
	OP(pci_free_consistent(pdev, 4096, coh, hc),
	   dma_free_coherent(dev, 4096, coh, hc));
	OP(pci_free_consistent(pdev, 8192, zc, hz),
	   dma_free_coherent(dev, 8192, zc, hz));
	dmaemu_cpu_read(t->data[5], buf + 448, 64);
	__free_page(page);
	kfree(buf);
}

static void record(struct transcript *t)
{
	struct dmaemu_report r;
	uint64_t seq = 0;

	t->nreports = 0;
	while (!dmaemu_report_next(m, seq, &r) && t->nreports < 16) {
		t->rep[t->nreports].kind = r.kind;
		t->rep[t->nreports].phys = r.phys;
		t->rep[t->nreports].size = r.size;
		t->rep[t->nreports].site_ok =
			strstr(r.where, "run_script") != NULL;
		t->nreports++;
		seq = r.seq;
	}
}

static void one_run(const char *opts, bool use_pci, struct transcript *t)
{
	struct pci_dev pdev;

	make(opts);
	memset(&pdev, 0, sizeof(pdev));
	ck_assert_int_eq(dmaemu_pci_dev_bind(dd, &pdev), 0);
	memset(t, 0, sizeof(*t));
	run_script(use_pci, &pdev, t);
	record(t);
	ck_assert_int_eq(dmaemu_device_unbind(&pdev.dev), 0);
	expected = count(NULL);
	fixture_finish(&m, &dd, expected);
}

START_TEST(test_wrappers_match_dma_api)
{
	struct transcript a, b;
	unsigned int i;

	one_run(configs[_i], false, &a);
	one_run(configs[_i], true, &b);
	/* unmap-size mismatch; sync-direction mismatch and a sync for the CPU
	 * of a to-device mapping (one call); unmap-direction and sg
	 * entry-count mismatches; a free with another size */
	ck_assert_uint_eq(a.nreports, 6);
	ck_assert_uint_eq(b.nreports, a.nreports);
	for (i = 0; i < a.nreports; i++) {
		ck_assert_int_eq(b.rep[i].kind, a.rep[i].kind);
		ck_assert_uint_eq(b.rep[i].phys, a.rep[i].phys);
		ck_assert_uint_eq(b.rep[i].size, a.rep[i].size);
		/* Both name the driver's function, not a wrapper. */
		ck_assert_msg(a.rep[i].site_ok && b.rep[i].site_ok,
			      "report %u does not name run_script()", i);
	}
	ck_assert_int_eq(b.nents, a.nents);
	ck_assert_mem_eq(b.data, a.data, sizeof(a.data));
	/* And the data is what the device and CPU wrote. */
	ck_assert(fixture_all(a.data[0], 0xc3, 64));
	ck_assert(fixture_all(a.data[1], 0, 64));
	ck_assert(fixture_all(a.data[2], 0xc3, 64));
	ck_assert(fixture_all(a.data[3], 0x5e, 64));
	ck_assert(fixture_all(a.data[4], 0xc3, 64));
}
END_TEST

/* The pci_pool names of 4.14 are the DMA pools on &pdev->dev. */
START_TEST(test_pci_pool)
{
	struct pci_dev pdev;
	struct pci_pool *pool;
	dma_addr_t h;
	uint8_t *blk, got[32];

	make("profile=arm");
	memset(&pdev, 0, sizeof(pdev));
	ck_assert_int_eq(dmaemu_pci_dev_bind(dd, &pdev), 0);
	pool = pci_pool_create("cmd", &pdev, 32, 16, 0);
	ck_assert_ptr_nonnull(pool);
	blk = pci_pool_zalloc(pool, GFP_KERNEL, &h);
	ck_assert_ptr_nonnull(blk);
	ck_assert(fixture_all(blk, 0, 32));
	ck_assert_uint_eq(h & 15, 0);
	fixture_cpu_fill(blk, 0x6d, 32);
	ck_assert_int_eq(dmaemu_dma_read(dd, h, got, 32), 0);
	ck_assert(fixture_all(got, 0x6d, 32));
	pci_pool_free(pool, blk, h);
	blk = pci_pool_alloc(pool, GFP_KERNEL, &h);
	ck_assert_ptr_nonnull(blk);
	pci_pool_free(pool, blk, h);
	pci_pool_destroy(pool);
	ck_assert_int_eq(dmaemu_device_unbind(&pdev.dev), 0);
}
END_TEST

/* pci_alloc_consistent() is GFP_ATOMIC, as in 4.14. */
START_TEST(test_alloc_consistent_atomic)
{
	struct pci_dev pdev;
	DEFINE_SPINLOCK(lock);
	unsigned long flags;
	dma_addr_t h1, h2;
	void *a, *b;

	make("profile=arm64");
	memset(&pdev, 0, sizeof(pdev));
	ck_assert_int_eq(dmaemu_pci_dev_bind(dd, &pdev), 0);
	spin_lock_irqsave(&lock, flags);
	a = pci_alloc_consistent(&pdev, 4096, &h1);
	ck_assert_uint_eq(count("sleep-in-atomic"), 0);
	b = dma_alloc_coherent(&pdev.dev, 4096, &h2, GFP_KERNEL);
	ck_assert_uint_eq(count("sleep-in-atomic"), 1);
	spin_unlock_irqrestore(&lock, flags);
	expected = 1;
	pci_free_consistent(&pdev, 4096, a, h1);
	dma_free_coherent(&pdev.dev, 4096, b, h2);
	ck_assert_int_eq(dmaemu_device_unbind(&pdev.dev), 0);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* A PCI NIC driver's ring set-up, poll and teardown                      */
/* ---------------------------------------------------------------------- */

#define RX_RING 8
#define RX_BUF 1536
#define DESC_OWN 0x8000 /* the NIC owns the descriptor */

/* A receive descriptor as the NIC reads it: little-endian. */
struct rx_desc {
	__le32 addr;
	__le16 len;
	__le16 status;
};

struct card {
	struct pci_dev pdev; /* what the PCI core hands the driver */
	void __iomem *regs;
	struct rx_desc *ring;
	dma_addr_t ring_dma;
	void *rx_buf[RX_RING];
	dma_addr_t rx_dma[RX_RING];
	unsigned int cur;
	unsigned int got;
	uint8_t last[64];
};

static int card_open(struct card *c)
{
	struct pci_dev *pdev = &c->pdev;
	int i;

	c->ring = pci_zalloc_consistent(pdev, RX_RING * sizeof(*c->ring),
					&c->ring_dma);
	if (!c->ring)
		return -ENOMEM;
	for (i = 0; i < RX_RING; i++) {
		c->rx_buf[i] = kmalloc(RX_BUF, GFP_KERNEL);
		if (!c->rx_buf[i])
			goto err;
		c->rx_dma[i] = pci_map_single(pdev, c->rx_buf[i], RX_BUF,
					      PCI_DMA_FROMDEVICE);
		if (pci_dma_mapping_error(pdev, c->rx_dma[i])) {
			kfree(c->rx_buf[i]);
			c->rx_buf[i] = NULL;
			goto err;
		}
		c->ring[i].addr = cpu_to_le32(lower_32_bits(c->rx_dma[i]));
		c->ring[i].len = cpu_to_le16(RX_BUF);
		wmb();
		c->ring[i].status = cpu_to_le16(DESC_OWN);
	}
	writel((uint32_t)c->ring_dma, c->regs + REG_RING);
	return 0;
err:
	while (--i >= 0) {
		pci_unmap_single(pdev, c->rx_dma[i], RX_BUF,
				 PCI_DMA_FROMDEVICE);
		kfree(c->rx_buf[i]);
	}
	pci_free_consistent(pdev, RX_RING * sizeof(*c->ring), c->ring,
			    c->ring_dma);
	return -ENOMEM;
}

static int card_probe(struct card *c)
{
	struct pci_dev *pdev = &c->pdev;
	int err;

	err = pci_enable_device(pdev);
	if (err)
		return err;
	err = pci_request_regions(pdev, "card");
	if (err)
		goto out_disable;
	pci_set_master(pdev);
	if (pci_set_dma_mask(pdev, DMA_BIT_MASK(32)) ||
	    pci_set_consistent_dma_mask(pdev, DMA_BIT_MASK(32))) {
		err = -EIO;
		goto out_regions;
	}
	c->regs = pci_iomap(pdev, 0, 0);
	if (!c->regs) {
		err = -EIO;
		goto out_regions;
	}
	pci_set_drvdata(pdev, c);
	err = card_open(c);
	if (err)
		goto out_unmap;
	return 0;
out_unmap:
	pci_iounmap(pdev, c->regs);
out_regions:
	pci_release_regions(pdev);
out_disable:
	pci_disable_device(pdev);
	return err;
}

/* The poll loop: descriptors the NIC gave back, in ring order. */
static void card_poll(struct card *c)
{
	struct pci_dev *pdev = &c->pdev;

	for (;;) {
		struct rx_desc *d = &c->ring[c->cur];
		unsigned int len;

		if (le16_to_cpu(READ_ONCE(d->status)) & DESC_OWN)
			break;
		dma_rmb();
		len = le16_to_cpu(d->len);
		pci_dma_sync_single_for_cpu(pdev, c->rx_dma[c->cur], len,
					    PCI_DMA_FROMDEVICE);
		dmaemu_cpu_read(c->last, c->rx_buf[c->cur],
				len < 64 ? len : 64);
		pci_dma_sync_single_for_device(pdev, c->rx_dma[c->cur], len,
					       PCI_DMA_FROMDEVICE);
		d->len = cpu_to_le16(RX_BUF);
		wmb();
		d->status = cpu_to_le16(DESC_OWN);
		c->got++;
		c->cur = (c->cur + 1) % RX_RING;
	}
	writel(1, c->regs + REG_DOORBELL);
}

static void card_remove(struct card *c)
{
	struct pci_dev *pdev = &c->pdev;
	int i;

	for (i = 0; i < RX_RING; i++) {
		pci_unmap_single(pdev, c->rx_dma[i], RX_BUF,
				 PCI_DMA_FROMDEVICE);
		kfree(c->rx_buf[i]);
	}
	pci_free_consistent(pdev, RX_RING * sizeof(*c->ring), c->ring,
			    c->ring_dma);
	pci_iounmap(pdev, c->regs);
	pci_release_regions(pdev);
	pci_disable_device(pdev);
}

/* The NIC receives one frame of @len bytes of @byte into its next
 * descriptor: descriptor read, packet DMA, descriptor write-back. */
static void nic_receive(unsigned int *next, uint8_t byte, unsigned int len)
{
	struct rx_desc d;
	uint8_t frame[RX_BUF];
	dma_addr_t at = reg_ring + *next * sizeof(d);

	ck_assert_int_eq(dmaemu_dma_read(dd, at, &d, sizeof(d)), 0);
	ck_assert(le16_to_cpu(d.status) & DESC_OWN);
	memset(frame, byte, len);
	ck_assert_int_eq(dmaemu_dma_write(dd, le32_to_cpu(d.addr), frame, len),
			 0);
	d.len = cpu_to_le16((uint16_t)len);
	d.status = 0;
	ck_assert_int_eq(dmaemu_dma_write(dd, at, &d, sizeof(d)), 0);
	*next = (*next + 1) % RX_RING;
}

START_TEST(test_nic_ring)
{
	struct dmaemu_device_dma_info info;
	struct card *c;
	unsigned int next = 0, i;

	make(configs[_i]);
	c = kzalloc(sizeof(*c), GFP_KERNEL);
	ck_assert_ptr_nonnull(c);
	c->pdev.vendor = 0x10ec;
	c->pdev.device = 0x8139;
	ck_assert_int_eq(dmaemu_pci_dev_bind(dd, &c->pdev), 0);
	ck_assert_int_eq(card_probe(c), 0);
	ck_assert_uint_eq(reg_ring, (uint32_t)c->ring_dma);
	ck_assert_int_eq(dmaemu_device_dma_info(dd, &info), 0);
	ck_assert_uint_eq(info.mappings, RX_RING);

	/* Twelve frames: the ring wraps. */
	for (i = 0; i < 12; i++) {
		nic_receive(&next, (uint8_t)(0x40 + i), 60 + i);
		card_poll(c);
		ck_assert_uint_eq(c->got, i + 1);
		ck_assert_msg(fixture_all(c->last, 0x40 + i, 60),
			      "frame %u: %#x %#x", i, c->last[0], c->last[59]);
	}
	ck_assert_uint_eq(doorbells, 12);
	card_remove(c);
	ck_assert_int_eq(dmaemu_device_dma_info(dd, &info), 0);
	ck_assert_uint_eq(info.mappings, 0);
	ck_assert_int_eq(dmaemu_device_unbind(&c->pdev.dev), 0);
	kfree(c);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("pci");
	TCase *tc = tcase_create("pci");

	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_pci_dev_setup);
	tcase_add_loop_test(tc, test_wrappers_match_dma_api, 0, (int)NCONFIGS);
	tcase_add_test(tc, test_alloc_consistent_atomic);
	tcase_add_test(tc, test_pci_pool);
	tcase_add_loop_test(tc, test_nic_ring, 0, (int)NCONFIGS);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(suite());
}
