// SPDX-License-Identifier: MIT
/*
 * translate.c - bus address translation: what physical memory a device
 * access at a bus address reaches.
 *
 * Without an IOMMU a bus address is the physical address plus the
 * machine's dma_offset (option dma_offset, a platform whose DRAM sits at
 * another address on the bus than for the CPU), and only DRAM answers:
 * peer-to-peer DMA into another device's registers (a dma_map_resource()
 * target) is not modelled, so a device access there is a dma-fault like
 * any address outside DRAM.  With the IOMMU on (iommu=1), its page-table
 * walk (iommu.c) answers instead.
 */
#include "config.h"

#include <errno.h>

#include <linux/device.h>

#include "bus/bus.h"

uint64_t dmaemu__dma_offset(const struct dmaemu_machine *m)
{
	return m->opt.dma_offset;
}

static int offset_translate(struct dmaemu_machine *m, struct device *dev,
			    dma_addr_t addr, size_t len, bool write,
			    uint64_t *phys, size_t *contig)
{
	struct dmaemu__bank *b;
	uint64_t p, left;

	p = addr - m->opt.dma_offset;
	b = addr >= m->opt.dma_offset ? dmaemu__bank_of_phys(m, p, 1) : NULL;
	if (!b) {
		struct dmaemu__report_info r = {.kind = DMAEMU_REPORT_DMA_FAULT,
						.phys = p,
						.size = len,
						.device = dev_name(dev)};
		struct dmaemu__fault_facts *f = dmaemu__malloc(sizeof(*f));

		if (f) {
			dmaemu__bus_fault_facts(dev, addr, true, f);
			dmaemu__bus_fault_fields(f, &r);
		}
		dmaemu__report(
			m, &r,
			"device %s: %s of %zu byte%s at bus address "
			"0x%llx: physical address 0x%llx is not DRAM%s%s",
			dev_name(dev), write ? "write" : "read", len,
			len == 1 ? "" : "s", (unsigned long long)addr,
			(unsigned long long)p,
			addr < m->opt.dma_offset
				? " (below the bus offset dma_offset)"
				: "",
			f ? f->text : "");
		dmaemu__free(f);
		return -EFAULT;
	}
	left = b->size - (p - b->phys);
	*phys = p;
	*contig = len < left ? len : (size_t)left;
	return 0;
}

int dmaemu__bus_translate(struct device *dev, dma_addr_t addr, size_t len,
			  bool write, uint64_t *phys, size_t *contig)
{
	struct dmaemu_machine *m = dmaemu__dev_machine(dev);

	if (!m)
		return -EFAULT;
	if (m->opt.iommu)
		return dmaemu__iommu_translate(m, dev, addr, len, write, phys,
					       contig);
	return offset_translate(m, dev, addr, len, write, phys, contig);
}
