// SPDX-License-Identifier: MIT
/*
 * check-coherence-misuse.c - the coherence sanitizer's kinds, one small
 * driver program each: the buggy program must get exactly the report the
 * configuration calls for (its kind, the first physical byte and the
 * number of bytes it names, or the byte mask of the line), and its
 * corrected twin none, on every profile (arm, arm64, x86) and behind
 * swiotlb=force and iommu=1.  Where the bug does no harm on a
 * configuration the buggy program must get no report there either (a
 * device read of bytes the CPU never cleaned on x86, which snoops), and
 * where something else stops it first the program must get that report
 * (the IOMMU refuses a device write to a DMA_TO_DEVICE mapping:
 * iommu-fault).
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <asm/barrier.h>
#include <linux/dma-mapping.h>
#include <linux/gfp.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>

#include <dmaemu/cpu.h>
#include <dmaemu/device.h>
#include <dmaemu/machine.h>
#include <dmaemu/report.h>
#include <dmaemu/testing.h>

#include "check-run.h"
#include "fixture.h"

static const char *const configs[] = {
	"profile=arm",
	"profile=arm64",
	"profile=x86",
	"profile=arm64:swiotlb=force",
	"profile=x86:swiotlb=force",
	"profile=arm64:iommu=1",
	"profile=x86:iommu=1",
};
#define NCONFIGS (int)(sizeof(configs) / sizeof(configs[0]))

static struct dmaemu_machine *m;
static struct dmaemu_device *dd;
static struct device *dev;
static const char *cfg;

/* What the buggy program must be told (set by the program). */
static struct {
	const char *kind; /* NULL: no report on this configuration */
	const char *also; /* the kind of a report made before it (NULL: none) */
	uint64_t phys;	  /* first byte named; 0: not checked */
	uint64_t size;	  /* bytes named; 0: not checked */
	uint64_t mask;	  /* word 0 of the byte mask; 0: not checked */
	const char *text; /* a phrase of the report; NULL: not checked */
	bool made;	  /* ->made_at names the driver's map or alloc */
	uint64_t last_dma, last_size; /* the device's last access (0: none) */
} want;

static bool x86(void)
{
	return strstr(cfg, "x86") != NULL;
}

static bool iommu(void)
{
	return strstr(cfg, "iommu=1") != NULL;
}

static uint64_t phys_of(const void *p)
{
	uint64_t phys = 0;

	ck_assert_int_ne(fixture_region(p, &phys), DMAEMU_REGION_NONE);
	return phys;
}

static uint8_t *buffer(size_t size)
{
	uint8_t *b = kmalloc(size, GFP_KERNEL);

	ck_assert_ptr_nonnull(b);
	ck_assert_uint_eq(phys_of(b) % 64, 0);
	return b;
}

static dma_addr_t map(void *p, size_t size, enum dma_data_direction dir)
{
	dma_addr_t h = dma_map_single(dev, p, size, dir);

	ck_assert(!dma_mapping_error(dev, h));
	return h;
}

/* The bus address's physical byte where no IOMMU translates it. */
static uint64_t bus_phys(dma_addr_t h)
{
	return iommu() ? 0 : (uint64_t)h;
}

/* ---------------------------------------------------------------------- */
/* The programs                                                           */
/* ---------------------------------------------------------------------- */

/* A device writes 4 bytes past the end of its receive buffer. */
static void device_past_end(bool bug)
{
	uint8_t *b = buffer(256), pkt[104];
	dma_addr_t h = map(b, 100, DMA_FROM_DEVICE);
	int ret;

	memset(pkt, 'D', sizeof(pkt));
	ret = dmaemu_dma_write(dd, h, pkt, bug ? 104 : 100);
	ck_assert_int_eq(ret, bug ? -EFAULT : 0);
	dma_unmap_single(dev, h, 100, DMA_FROM_DEVICE);
	/* Refused: nothing landed, not even the 100 mapped bytes. */
	if (bug)
		ck_assert(!fixture_cpu_sees(b, 'D', 100));
	want.kind = "device-access-unmapped";
	want.phys = iommu() ? phys_of(b) + 100 : bus_phys(h) + 100;
	want.size = 4;
	want.text = "4 bytes past the end of the DMA_FROM_DEVICE streaming "
		    "mapping";
	want.made = true;
	kfree(b);
}

/* A device reads a buffer after the driver unmapped it. */
static void device_after_unmap(bool bug)
{
	uint8_t *b = buffer(256), got[64];
	dma_addr_t h = map(b, 256, DMA_TO_DEVICE);

	if (!bug)
		ck_assert_int_eq(dmaemu_dma_read(dd, h, got, 64), 0);
	dma_unmap_single(dev, h, 256, DMA_TO_DEVICE);
	if (bug)
		ck_assert_int_eq(dmaemu_dma_read(dd, h, got, 64), -EFAULT);
	/* Behind an IOMMU the page is gone from the page table. */
	want.kind = iommu() ? "iommu-fault" : "device-access-unmapped";
	want.phys = iommu() ? 0 : bus_phys(h);
	want.size = iommu() ? 0 : 64;
	/* Behind an IOMMU too, the mapping and its unmap are named. */
	want.text = "which was unmapped since by "
		    "dma_unmap_single_attrs() called from";
	kfree(b);
}

/* A device reads a descriptor past the end of a coherent ring (of whole
 * pages: the device may reach all of them). */
static void device_past_coherent(bool bug)
{
	dma_addr_t h;
	uint8_t *ring = dma_alloc_coherent(dev, 4000, &h, GFP_KERNEL), got[32];

	ck_assert_ptr_nonnull(ring);
	ck_assert_int_eq(dmaemu_dma_read(dd, h + (bug ? 4080 : 4064), got, 32),
			 bug ? -EFAULT : 0);
	dma_free_coherent(dev, 4000, ring, h);
	/* Behind an IOMMU the next page is not in the page table. */
	want.kind = iommu() ? "iommu-fault" : "device-access-unmapped";
	want.phys = bus_phys(h) ? bus_phys(h) + 4096 : 0;
	want.size = iommu() ? 0 : 16;
	want.text = iommu() ? NULL
			    : "16 bytes past the end of the coherent "
			      "allocation";
}

/* A device reads a coherent ring after the driver freed it. */
static void device_after_free(bool bug)
{
	dma_addr_t h;
	uint8_t *ring = dma_alloc_coherent(dev, 4096, &h, GFP_KERNEL), got[32];

	ck_assert_ptr_nonnull(ring);
	if (!bug)
		ck_assert_int_eq(dmaemu_dma_read(dd, h + 64, got, 32), 0);
	dma_free_coherent(dev, 4096, ring, h);
	if (bug)
		ck_assert_int_eq(dmaemu_dma_read(dd, h + 64, got, 32), -EFAULT);
	want.kind = iommu() ? "iommu-fault" : "device-access-unmapped";
	want.phys = bus_phys(h) ? bus_phys(h) + 64 : 0;
	want.size = iommu() ? 0 : 32;
	want.text = "which was freed since by dma_free_attrs() called from";
}

/* A device writes into a buffer mapped DMA_TO_DEVICE. */
static void device_writes_to_device(bool bug)
{
	uint8_t *b = buffer(256), st[16];
	dma_addr_t h = map(b, 256, bug ? DMA_TO_DEVICE : DMA_BIDIRECTIONAL);

	/* The device reads the buffer, then writes a status into it. */
	ck_assert_int_eq(dmaemu_dma_read(dd, h, st, 16), 0);
	memset(st, 'S', sizeof(st));
	ck_assert_int_eq(dmaemu_dma_write(dd, h + 32, st, 16),
			 bug && iommu() ? -EFAULT : 0);
	dma_unmap_single(dev, h, 256, bug ? DMA_TO_DEVICE : DMA_BIDIRECTIONAL);
	want.kind = iommu() ? "iommu-fault" : "device-write-to-device-mapping";
	want.phys = iommu() ? 0 : bus_phys(h) + 32;
	want.size = iommu() ? 0 : 16;
	want.made = !iommu();
	want.last_dma = iommu() ? 0 : h; /* the device's read before */
	want.last_size = iommu() ? 0 : 16;
	kfree(b);
}

/* The CPU reads a receive buffer before dma_sync_single_for_cpu(). */
static void cpu_reads_device_owned(bool bug)
{
	uint8_t *b = buffer(256), got[8];
	dma_addr_t h = map(b, 256, DMA_FROM_DEVICE);

	fixture_dev_fill(dd, h, 'D', 256);
	if (!bug)
		dma_sync_single_for_cpu(dev, h, 256, DMA_FROM_DEVICE);
	ck_assert_int_eq(dmaemu_cpu_read(got, b + 64, 8), 0);
	dma_unmap_single(dev, h, 256, DMA_FROM_DEVICE);
	want.kind = "cpu-access-device-owned";
	want.phys = phys_of(b) + 64;
	want.size = 8;
	want.made = true;
	want.last_dma = h; /* the device's fill */
	want.last_size = 256;
	kfree(b);
}

/* The 4.14 DMA-API-HOWTO's receive handler: the header read after
 * dma_sync_single_for_cpu(), the buffer given back to the card without
 * dma_sync_single_for_device(), the next frame written, synced and read:
 * silent in both variants (the fixed one syncs for the device anyway). */
static void howto_give_back_silent(bool bug)
{
	uint8_t *b = buffer(256), got[8];
	dma_addr_t h = map(b, 256, DMA_FROM_DEVICE);

	fixture_dev_fill(dd, h, 'A', 256);
	dma_sync_single_for_cpu(dev, h, 256, DMA_FROM_DEVICE);
	ck_assert(fixture_cpu_sees(b, 'A', 8));
	if (!bug)
		dma_sync_single_for_device(dev, h, 256, DMA_FROM_DEVICE);
	fixture_dev_fill(dd, h, 'B', 256);
	dma_sync_single_for_cpu(dev, h, 256, DMA_FROM_DEVICE);
	ck_assert_int_eq(dmaemu_cpu_read(got, b + 200, 8), 0);
	ck_assert_int_eq(got[0], 'B');
	dma_unmap_single(dev, h, 256, DMA_FROM_DEVICE);
	kfree(b);
}

/* The device writes a buffer the CPU took back, wrote and never gave
 * again.  (One the CPU only read may go back without a sync, as in the
 * DMA-API-HOWTO: "the CPU only read it" below.) */
static void device_writes_cpu_owned(bool bug)
{
	uint8_t *b = buffer(256);
	dma_addr_t h = map(b, 256, DMA_BIDIRECTIONAL);

	dma_sync_single_for_cpu(dev, h, 256, DMA_BIDIRECTIONAL);
	fixture_cpu_fill(b + 64, 'C', 8); /* the CPU writes it */
	if (!bug)
		dma_sync_single_for_device(dev, h, 256, DMA_BIDIRECTIONAL);
	fixture_dev_fill(dd, h + 64, 'D', 8);
	dma_unmap_single(dev, h, 256, DMA_BIDIRECTIONAL);
	want.kind = "device-access-cpu-owned";
	want.phys = phys_of(b) + 64;
	want.size = 8;
	want.made = true;
	kfree(b);
}

/* The device reads NON_CONSISTENT memory the CPU wrote and never
 * cleaned (no dma_cache_sync(DMA_TO_DEVICE)). */
static void device_reads_dirty(bool bug)
{
	const unsigned long nc = DMA_ATTR_NON_CONSISTENT;
	dma_addr_t h;
	uint8_t *p = dma_alloc_attrs(dev, 4096, &h, GFP_KERNEL, nc), got[128];

	ck_assert_ptr_nonnull(p);
	fixture_cpu_fill(p + 64, 'C', 8);
	if (!bug)
		dma_cache_sync(dev, p, 128, DMA_TO_DEVICE);
	ck_assert_int_eq(dmaemu_dma_read(dd, h, got, 128), 0);
	want.kind = x86() ? NULL : "stale-device-read";
	want.phys = phys_of(p) + 64;
	want.size = 8;
	/* The store never cleaned, and the allocation (made_at). */
	want.text = "the CPU's last store to line 0x";
	want.made = true;
	dma_free_attrs(dev, 4096, p, h, nc);
}

/* The CPU reads NON_CONSISTENT memory the device wrote, from a line it
 * had cached, with no dma_cache_sync(DMA_FROM_DEVICE). */
static void cpu_reads_stale(bool bug)
{
	const unsigned long nc = DMA_ATTR_NON_CONSISTENT;
	dma_addr_t h;
	uint8_t *p = dma_alloc_attrs(dev, 4096, &h, GFP_KERNEL, nc), got[8];

	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(dmaemu_cpu_read(got, p + 64, 8), 0);
	fixture_dev_fill(dd, h + 66, 'D', 4);
	if (!bug)
		dma_cache_sync(dev, p + 64, 64, DMA_FROM_DEVICE);
	ck_assert_int_eq(dmaemu_cpu_read(got, p + 64, 8), 0);
	want.kind = x86() ? NULL : "stale-cpu-read";
	want.phys = phys_of(p) + 66; /* the first stale byte */
	want.mask = 0x3c;	     /* bytes 2-5 of its line */
	dma_free_attrs(dev, 4096, p, h, nc);
}

/*
 * The CPU reads a DMA_BIDIRECTIONAL buffer from a line it cached before it
 * gave the buffer back (that sync cleans: the line stays cached), after the
 * device wrote it, with no dma_sync_single_for_cpu(): a stale read where
 * the CPU's cache is not snooped, a read of a device-owned buffer where
 * it is (x86) or where the device wrote a bounce slot (swiotlb).  Either
 * report names the mapping and the device's write.
 */
static void cpu_reads_stale_mapping(bool bug)
{
	uint8_t *b = buffer(256), got[8];
	dma_addr_t h = map(b, 256, DMA_BIDIRECTIONAL);
	bool stale = !x86() && !strstr(cfg, "swiotlb");

	dma_sync_single_for_cpu(dev, h, 256, DMA_BIDIRECTIONAL);
	ck_assert_int_eq(dmaemu_cpu_read(got, b + 64, 8), 0);
	dma_sync_single_for_device(dev, h, 256, DMA_BIDIRECTIONAL);
	fixture_dev_fill(dd, h + 66, 'D', 4);
	if (!bug)
		dma_sync_single_for_cpu(dev, h, 256, DMA_BIDIRECTIONAL);
	ck_assert_int_eq(dmaemu_cpu_read(got, b + 64, 8), 0);
	/* Right only where the device wrote the CPU's line, or was synced. */
	ck_assert_int_eq(got[2] == 'D',
			 !bug || (x86() && !strstr(cfg, "swiotlb")));
	dma_unmap_single(dev, h, 256, DMA_BIDIRECTIONAL);
	want.kind = stale ? "stale-cpu-read" : "cpu-access-device-owned";
	want.phys = phys_of(b) + (stale ? 66 : 64);
	want.size = stale ? 4 : 8;
	want.mask = stale ? 0x3c : 0; /* bytes 2-5 of the line */
	want.made = true;
	want.last_dma = h + 66; /* the device's write */
	want.last_size = 4;
	kfree(b);
}

/*
 * A receive buffer that shares its first line with a CPU field the CPU
 * writes while the device owns the buffer: a shared-line-store at the
 * store (a portability note on x86), then the unmap's write-back of that
 * line puts the CPU's old copy of the buffer's first bytes over the
 * device's (lost-device-write).  The twin puts the buffer on a line of
 * its own.  Behind swiotlb the device wrote a bounce slot, copied over
 * the buffer at unmap: the data survives there, and the store is still
 * reported (the sharing is the driver's, the bounce hides it).
 */
static void shared_line(bool bug)
{
	uint8_t *area = buffer(256), *rx = area + (bug ? 16 : 64);
	dma_addr_t h = map(rx, 128, DMA_FROM_DEVICE);

	fixture_cpu_fill(area, 'C', 16);
	fixture_dev_fill(dd, h, 'D', 128);
	dma_unmap_single(dev, h, 128, DMA_FROM_DEVICE);
	if (strstr(cfg, "swiotlb") || x86()) {
		want.kind = "shared-line-store";
		want.phys = phys_of(area);
		want.mask = 0xffff; /* bytes 0-15: the CPU's */
		want.made = true;
	} else {
		want.also = "shared-line-store";
		want.kind = "lost-device-write";
		want.phys = phys_of(area) + 16;
		want.mask = 0xffffffffffff0000ULL; /* bytes 16-63 */
		want.text = "the CPU's last store to the line: at "
			    "fixture_cpu_fill";
	}
	kfree(area);
}

/*
 * The same sharing, the device first: the map invalidated the line, so
 * the CPU's store fills it with the device's bytes and the unmap's
 * write-back loses nothing in this run (silent before shared-line-store);
 * an eviction at any moment between them would.  One report, at the
 * store.
 */
static void shared_line_device_first(bool bug)
{
	uint8_t *area = buffer(256), *rx = area + (bug ? 16 : 64);
	dma_addr_t h = map(rx, 128, DMA_FROM_DEVICE);

	fixture_dev_fill(dd, h, 'D', 128);
	fixture_cpu_fill(area, 'C', 16);
	dma_unmap_single(dev, h, 128, DMA_FROM_DEVICE);
	ck_assert(fixture_cpu_sees(rx, 'D', 128));
	ck_assert(fixture_cpu_sees(area, 'C', 16));
	want.kind = "shared-line-store";
	want.phys = phys_of(area);
	want.size = 16;
	want.mask = 0xffff; /* bytes 0-15: the CPU's */
	want.text = "fix: ____cacheline_aligned on the buffer";
	want.made = true;
	want.last_dma = h; /* the device's write */
	want.last_size = 128;
	kfree(area);
}

/*
 * The CPU writes a flag beside a NON_CONSISTENT buffer's first bytes, in
 * the same line, then invalidates the buffer's part of the line
 * (dma_cache_sync(DMA_FROM_DEVICE) of 16 bytes): the flag is thrown away.
 * The twin keeps the flag on a line of its own.
 */
static void invalidate_shared_line(bool bug)
{
	const unsigned long nc = DMA_ATTR_NON_CONSISTENT;
	dma_addr_t h;
	uint8_t *p = dma_alloc_attrs(dev, 4096, &h, GFP_KERNEL, nc);
	uint8_t *flag = p + (bug ? 40 : 64);

	ck_assert_ptr_nonnull(p);
	fixture_cpu_fill(flag, 'F', 1);
	dma_cache_sync(dev, p, 16, DMA_FROM_DEVICE);
	want.kind = x86() ? NULL : "lost-cpu-write";
	want.phys = phys_of(p) + 40;
	want.mask = 1ULL << 40;
	want.text = "the CPU's last store to the line: at fixture_cpu_fill";
	dma_free_attrs(dev, 4096, p, h, nc);
}

/*
 * Receive recycle: the driver takes a received frame (sync_for_cpu),
 * clears a marker word in it so that it can tell the next frame, and
 * gives the buffer back with dma_sync_single_for_device(DMA_FROM_DEVICE).
 * That sync invalidates on arm and arm64: the marker is thrown away (and
 * on every profile the device owns the buffer's contents).  The twin maps
 * the buffer DMA_BIDIRECTIONAL, whose sync_for_device writes it back.
 */
static void rx_recycle_store(bool bug)
{
	enum dma_data_direction dir = bug ? DMA_FROM_DEVICE : DMA_BIDIRECTIONAL;
	uint8_t *b = buffer(256);
	dma_addr_t h = map(b, 256, dir);

	fixture_dev_fill(dd, h, 'D', 256);
	dma_sync_single_for_cpu(dev, h, 256, dir);
	ck_assert(fixture_cpu_sees(b, 'D', 256));
	/* The marker, two words: the second store hits a line the first
	 * brought into the CPU's cache dirty. */
	fixture_cpu_fill(b + 8, 0, 4);
	fixture_cpu_fill(b + 12, 0, 4);
	dma_sync_single_for_device(dev, h, 256, dir);
	fixture_dev_fill(dd, h + 64, 'E', 64);
	dma_sync_single_for_cpu(dev, h, 256, dir);
	dma_unmap_single(dev, h, 256, dir);
	want.kind = "lost-cpu-write";
	want.phys = phys_of(b) + 8;
	want.size = 8;
	want.mask = 0xffULL << 8;
	want.text = "stored at fixture_cpu_fill";
	want.made = true;
	want.last_dma = h; /* the device's frame before the store */
	want.last_size = 256;
	kfree(b);
}

/*
 * The same recycle with a scatterlist: a store into the second entry
 * between dma_sync_sg_for_cpu() and dma_sync_sg_for_device() of
 * DMA_FROM_DEVICE.  The twin maps the list DMA_BIDIRECTIONAL.
 */
static void rx_recycle_sg(bool bug)
{
	enum dma_data_direction dir = bug ? DMA_FROM_DEVICE : DMA_BIDIRECTIONAL;
	uint8_t *b = buffer(1024);
	struct scatterlist sg[2];

	sg_init_table(sg, 2);
	sg_set_buf(&sg[0], b, 256);
	sg_set_buf(&sg[1], b + 512, 256);
	ck_assert_int_gt(dma_map_sg(dev, sg, 2, dir), 0);
	dma_sync_sg_for_cpu(dev, sg, 2, dir);
	fixture_cpu_fill(b + 512 + 130, 0, 2);
	dma_sync_sg_for_device(dev, sg, 2, dir);
	dma_unmap_sg(dev, sg, 2, dir);
	want.kind = "lost-cpu-write";
	want.phys = phys_of(b) + 512 + 130;
	want.size = 2;
	want.mask = 0x3ULL << 2; /* bytes 2-3 of the entry's third line */
	want.text = "dma_sync_sg_for_device(DMA_FROM_DEVICE) invalidates 2 "
		    "bytes";
	want.made = true;
	kfree(b);
}

/*
 * A DMA_BIDIRECTIONAL buffer the CPU takes back with sync_for_cpu, writes,
 * then unmaps: the unmap invalidates on arm and arm64, the CPU's bytes
 * are thrown away.  The twin writes after the unmap.
 */
static void store_before_unmap(bool bug)
{
	uint8_t *b = buffer(256);
	dma_addr_t h = map(b, 256, DMA_BIDIRECTIONAL);

	fixture_dev_fill(dd, h, 'D', 128);
	dma_sync_single_for_cpu(dev, h, 256, DMA_BIDIRECTIONAL);
	if (bug)
		fixture_cpu_fill(b + 80, 'C', 8);
	dma_unmap_single(dev, h, 256, DMA_BIDIRECTIONAL);
	if (!bug)
		fixture_cpu_fill(b + 80, 'C', 8);
	want.kind = "lost-cpu-write";
	want.phys = phys_of(b) + 80;
	want.size = 8;
	want.mask = 0xffULL << 16; /* bytes 16-23 of the second line */
	want.text = "make the stores after dma_unmap_single_attrs()";
	want.made = true;
	want.last_dma = h;
	want.last_size = 128;
	kfree(b);
}

/*
 * A DMA_BIDIRECTIONAL buffer the CPU takes back with sync_for_cpu and
 * writes a field of, then syncs for the CPU again (to look at the
 * device's next frame) without giving it back first: the second sync
 * invalidates on arm and arm64, and the CPU's bytes are thrown away.  The
 * twin gives the buffer back with sync_for_device between, which writes
 * the field back; the device then writes another part of it.
 */
static void second_sync_for_cpu(bool bug)
{
	uint8_t *b = buffer(256);
	dma_addr_t h = map(b, 256, DMA_BIDIRECTIONAL);

	fixture_dev_fill(dd, h, 'D', 256);
	dma_sync_single_for_cpu(dev, h, 256, DMA_BIDIRECTIONAL);
	fixture_cpu_fill(b + 136, 'C', 8);
	if (!bug) {
		dma_sync_single_for_device(dev, h, 256, DMA_BIDIRECTIONAL);
		fixture_dev_fill(dd, h + 192, 'E', 64);
	}
	dma_sync_single_for_cpu(dev, h, 256, DMA_BIDIRECTIONAL);
	if (!bug)
		ck_assert(fixture_cpu_sees(b + 136, 'C', 8));
	dma_unmap_single(dev, h, 256, DMA_BIDIRECTIONAL);
	want.kind = "lost-cpu-write";
	want.phys = phys_of(b) + 136;
	want.size = 8;
	want.mask = 0xffULL << 8; /* bytes 8-15 of the third line */
	want.text = "fix: make the stores after the last "
		    "dma_sync_single_for_cpu(";
	want.made = true;
	want.last_dma = h;
	want.last_size = 256;
	kfree(b);
}

/*
 * Right, not loud: a DMA_BIDIRECTIONAL buffer unmapped with
 * DMA_ATTR_SKIP_CPU_SYNC after the CPU wrote it keeps the CPU's bytes
 * (the unmap does no maintenance), on every profile.  The "bug" variant
 * writes more of it.
 */
static void skip_sync_unmap_silent(bool bug)
{
	uint8_t *b = buffer(256);
	dma_addr_t h = map(b, 256, DMA_BIDIRECTIONAL);

	fixture_dev_fill(dd, h, 'D', 256);
	dma_sync_single_for_cpu(dev, h, 256, DMA_BIDIRECTIONAL);
	fixture_cpu_fill(b + 80, 'C', bug ? 100 : 8);
	dma_unmap_single_attrs(dev, h, 256, DMA_BIDIRECTIONAL,
			       DMA_ATTR_SKIP_CPU_SYNC);
	ck_assert(fixture_cpu_sees(b + 80, 'C', bug ? 100 : 8));
	kfree(b);
}

/*
 * Right, not loud: a kzalloc()'d receive buffer (the CPU's zeros are
 * thrown away by the map's invalidate on arm, and nobody needs them), a
 * device that writes part of it, a header the CPU writes after the unmap,
 * and a buffer reused over two map/unmap cycles.  Both variants are
 * silent: the "bug" one only writes more bytes before the map.
 */
static void kzalloc_rx_silent(bool bug)
{
	uint8_t *b = kzalloc(512, GFP_KERNEL);
	dma_addr_t h;
	int round;

	ck_assert_ptr_nonnull(b);
	for (round = 0; round < 2; round++) {
		fixture_cpu_fill(b, 'Z', bug ? 512 : 16);
		h = map(b, 512, DMA_FROM_DEVICE);
		fixture_dev_fill(dd, h + 32, 'D', 100);
		dma_sync_single_for_cpu(dev, h, 512, DMA_FROM_DEVICE);
		ck_assert(fixture_cpu_sees(b + 32, 'D', 100));
		dma_sync_single_for_device(dev, h, 512, DMA_FROM_DEVICE);
		fixture_dev_fill(dd, h + 32, 'E', 100);
		dma_unmap_single(dev, h, 512, DMA_FROM_DEVICE);
		ck_assert(fixture_cpu_sees(b + 32, 'E', 100));
		fixture_cpu_fill(b, 'H', 8);
	}
	want.kind = NULL;
	kfree(b);
}

/* The device reads a write-combined descriptor with no wmb() between the
 * CPU's stores and the doorbell. */
static void wc_no_barrier(bool bug)
{
	dma_addr_t h;
	uint8_t *p = dma_alloc_wc(dev, 4096, &h, GFP_KERNEL), got[16];

	ck_assert_ptr_nonnull(p);
	fixture_cpu_fill(p + 32, 'W', 16);
	if (!bug)
		wmb();
	ck_assert_int_eq(dmaemu_dma_read(dd, h + 32, got, 16), 0);
	want.kind = x86() ? NULL : "wc-pending-read";
	want.phys = bus_phys(h) ? bus_phys(h) + 32 : 0;
	want.size = 16;
	dma_free_wc(dev, 4096, p, h);
}

/* The CPU reads a DMA_ATTR_NO_KERNEL_MAPPING cookie. */
static void nomap_read(bool bug)
{
	const unsigned long nkm = DMA_ATTR_NO_KERNEL_MAPPING;
	dma_addr_t h;
	uint8_t *p = dma_alloc_attrs(dev, 4096, &h, GFP_KERNEL, nkm), got[4];

	ck_assert_ptr_nonnull(p);
	if (bug)
		ck_assert_int_eq(dmaemu_cpu_read(got, p + 4, 4), -EFAULT);
	else
		ck_assert_int_eq(dmaemu_dma_read(dd, h + 4, got, 4), 0);
	want.kind = "no-kernel-mapping-access";
	dma_free_attrs(dev, 4096, p, h, nkm);
}

/* ---------------------------------------------------------------------- */
/* The table                                                              */
/* ---------------------------------------------------------------------- */

struct misuse_case {
	const char *name;
	void (*run)(bool bug);
};

static const struct misuse_case cases[] = {
	{"device past the end of a mapping", device_past_end},
	{"device after the unmap", device_after_unmap},
	{"device past a coherent allocation", device_past_coherent},
	{"device after the free", device_after_free},
	{"device writes a DMA_TO_DEVICE mapping", device_writes_to_device},
	{"CPU reads a device-owned buffer", cpu_reads_device_owned},
	{"device writes a CPU-owned buffer", device_writes_cpu_owned},
	{"the CPU only read it (DMA-API-HOWTO)", howto_give_back_silent},
	{"device reads bytes never cleaned", device_reads_dirty},
	{"CPU reads a stale line", cpu_reads_stale},
	{"CPU reads a stale line of a mapping", cpu_reads_stale_mapping},
	{"a line shared with CPU data", shared_line},
	{"a line shared, the device first", shared_line_device_first},
	{"an invalidate of part of a line", invalidate_shared_line},
	{"a store into a recycled receive buffer", rx_recycle_store},
	{"a store into a recycled scatterlist", rx_recycle_sg},
	{"a store before a DMA_BIDIRECTIONAL unmap", store_before_unmap},
	{"a store between two syncs for the CPU", second_sync_for_cpu},
	{"a store before an unmap that skips the sync", skip_sync_unmap_silent},
	{"a kzalloc()'d receive buffer", kzalloc_rx_silent},
	{"write-combined stores without wmb()", wc_no_barrier},
	{"CPU reads a NO_KERNEL_MAPPING cookie", nomap_read},
};
#define NCASES (int)(sizeof(cases) / sizeof(cases[0]))

static void start(int i)
{
	cfg = configs[i];
	memset(&want, 0, sizeof(want));
	m = fixture_machine("mem=16M:%s", cfg);
	dd = dmaemu_device_create(m, "dev0", NULL, NULL);
	ck_assert_ptr_nonnull(dd);
	dev = dmaemu_device_to_dev(dd);
	ck_assert_int_eq(dma_set_mask_and_coherent(dev, DMA_BIT_MASK(64)), 0);
}

START_TEST(test_buggy)
{
	const struct misuse_case *c = &cases[_i / NCONFIGS];
	uint64_t n = 0, seq = 0;
	struct dmaemu_report r, x;

	start(_i % NCONFIGS);
	c->run(true);
	while (!dmaemu_report_next(m, seq, &x)) {
		seq = x.seq;
		r = x;
		n++;
	}
	ck_assert_msg(n == (uint64_t)(want.kind != NULL) + (want.also != NULL),
		      "%s on %s: %llu reports", c->name, cfg,
		      (unsigned long long)n);
	if (want.also) {
		ck_assert_int_eq(dmaemu_report_next(m, 0, &x), 0);
		ck_assert_msg(!strcmp(x.kind_name, want.also),
			      "%s on %s: first %s, not %s", c->name, cfg,
			      x.kind_name, want.also);
	}
	if (want.kind) {
		ck_assert_msg(!strcmp(r.kind_name, want.kind),
			      "%s on %s: %s, not %s", c->name, cfg, r.kind_name,
			      want.kind);
		if (want.phys)
			ck_assert_uint_eq(r.phys, want.phys);
		if (want.size)
			ck_assert_uint_eq(r.size, want.size);
		if (want.mask) {
			ck_assert_uint_eq(r.mask_bits, 64);
			ck_assert_uint_eq(r.mask[0], want.mask);
			ck_assert_uint_eq(r.phys & ~63ULL, want.phys & ~63ULL);
		}
		if (want.text)
			ck_assert_msg(strstr(r.text, want.text), "%s: %s",
				      want.text, r.text);
		if (want.made)
			ck_assert_msg(strstr(r.made_at, "() called from "),
				      "made_at: '%s'", r.made_at);
		if (want.last_size) {
			ck_assert_str_eq(r.last_device, "dev0");
			ck_assert_uint_eq(r.last_dma, want.last_dma);
			ck_assert_uint_eq(r.last_size, want.last_size);
		}
	}
	fixture_finish(&m, &dd, n);
}
END_TEST

START_TEST(test_fixed)
{
	const struct misuse_case *c = &cases[_i / NCONFIGS];

	start(_i % NCONFIGS);
	c->run(false);
	ck_assert_msg(dmaemu_report_count(m, NULL) == 0,
		      "the twin of %s on %s: %llu reports", c->name, cfg,
		      (unsigned long long)dmaemu_report_count(m, NULL));
	fixture_finish(&m, &dd, 0);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("coherence-misuse");
	TCase *tc = tcase_create("coherence-misuse");

	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_buggy, 0, NCASES * NCONFIGS);
	tcase_add_loop_test(tc, test_fixed, 0, NCASES * NCONFIGS);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(suite());
}
