// SPDX-License-Identifier: MIT
/*
 * check-dma-alloc.c - dma_alloc_attrs() and dma_free_attrs() with each
 * attribute, on every profile where the behaviour differs: which view the
 * CPU gets, what each side sees after each access, the cache line states,
 * zeroing, zones from the coherent mask, the frees that must be refused,
 * managed (dmam_*) buffers, dma_mmap_attrs() user views and
 * dma_get_sgtable_attrs().
 *
 * The CPU side uses the explicit accessors of <dmaemu/cpu.h> (what
 * instrumented code does on every load and store), the device side
 * dmaemu_dma_read()/dmaemu_dma_write() on a bare device.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/dma-mapping.h>
#include <linux/mm.h>
#include <linux/preempt.h>
#include <linux/scatterlist.h>

#ifdef HAVE_VALGRIND_VALGRIND_H
#include <valgrind/valgrind.h>
#else
#define RUNNING_ON_VALGRIND 0
#endif

#include <dmaemu/cpu.h>
#include <dmaemu/device.h>
#include <dmaemu/machine.h>
#include <dmaemu/mm.h>
#include <dmaemu/report.h>
#include <dmaemu/testing.h>
#include <dmaemu/vma.h>

#include "check-run.h"
#include "fixture.h"

static struct dmaemu_machine *m;
static struct dmaemu_device *ddev;
static struct device *dev;
static uint64_t expected; /* reports the test expects in all */

static const char *const profiles[] = {"arm", "arm64", "x86"};

static void mk(const char *opts)
{
	m = fixture_machine("mem=16M:%s", opts);
	ddev = dmaemu_device_create(m, "dev0", NULL, NULL);
	ck_assert_ptr_nonnull(ddev);
	dev = dmaemu_device_to_dev(ddev);
	expected = 0;
}

static void mk_profile(const char *profile, const char *extra)
{
	char opts[256];

	snprintf(opts, sizeof(opts), "profile=%s%s%s", profile,
		 extra ? ":" : "", extra ? extra : "");
	mk(opts);
}

/* Every test ends here: nothing reported but what it expected. */
static void teardown(void)
{
	fixture_finish(&m, &ddev, expected);
}

static bool is_x86(void)
{
	return fixture_profile(m) == DMAEMU_PROFILE_X86;
}

static uint64_t count(const char *kind)
{
	return dmaemu_report_count(m, kind);
}

static int region_of(const void *p, uint64_t *phys)
{
	return fixture_region(p, phys);
}

static uint64_t dirty_mask(uint64_t line_phys)
{
	struct dmaemu_line_state st;

	ck_assert_int_eq(dmaemu_line_state(m, line_phys, &st), 0);
	return st.cpu_dirty[0];
}

/* No line of [phys, +len) is resident in the cache model. */
static bool none_resident(uint64_t phys, size_t len)
{
	struct dmaemu_machine_info info;
	uint64_t p;

	ck_assert_int_eq(dmaemu_machine_info(m, &info), 0);
	for (p = phys; p < phys + len; p += info.line_size)
		if (fixture_resident(m, p))
			return false;
	return true;
}

/* Dirty a page through the linear map, as a previous kmalloc user would
 * have, and free it: the next allocation will likely get it. */
static uint64_t leave_dirty_page(void)
{
	struct page *p = alloc_pages(GFP_KERNEL, 0);
	uint64_t phys;

	ck_assert_ptr_nonnull(p);
	phys = page_to_phys(p);
	fixture_cpu_fill(page_address(p), 0xee, 256);
	__free_pages(p, 0);
	return phys;
}

/* ---------------------------------------------------------------------- */
/* Default (coherent) allocations                                         */
/* ---------------------------------------------------------------------- */

/*
 * arm/arm64: the uncached alias; a CPU write is in DRAM at once, a device
 * write visible at once, no line ever resident, and the linear map's old
 * dirty lines were dropped (they would be written back over the buffer).
 * x86: the cacheable linear map; devices snoop, so both sides agree too.
 */
START_TEST(test_coherent)
{
	uint64_t phys, old;
	dma_addr_t h;
	uint8_t *p;

	mk_profile(profiles[_i], NULL);
	old = leave_dirty_page();
	p = dma_alloc_coherent(dev, 8192, &h, GFP_KERNEL);
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(region_of(p, &phys), is_x86()
						      ? DMAEMU_REGION_LINEAR
						      : DMAEMU_REGION_UNCACHED);
	ck_assert_uint_eq(h, phys);
	ck_assert_uint_eq(phys % PAGE_SIZE, 0);
	ck_assert_uint_le(phys + 8192 - 1, DMA_BIT_MASK(32));
	ck_assert(fixture_cpu_sees(p, 0, 4096) &&
		  fixture_cpu_sees(p + 4096, 0, 4096));
	ck_assert(fixture_dev_sees(ddev, h, 0, 4096) &&
		  fixture_dev_sees(ddev, h + 4096, 0, 4096));
	if (!is_x86()) {
		/* No dirty line of the old user is left to be written back
		 * over the buffer. */
		ck_assert(phys <= old && old < phys + 8192);
		ck_assert_uint_eq(dirty_mask(old), 0);
		ck_assert(none_resident(phys, 8192));
	}

	/* CPU writes, the device reads. */
	fixture_cpu_fill(p + 64, 0x11, 64);
	if (!is_x86()) {
		ck_assert_uint_eq(
			((uint8_t *)dmaemu_phys_view(
				m, phys + 64, DMAEMU_REGION_UNCACHED))[0],
			0x11);
		ck_assert(none_resident(phys, 8192));
	} else {
		ck_assert(fixture_resident(m, phys + 64));
		ck_assert_uint_eq(dirty_mask(phys + 64), UINT64_MAX);
	}
	ck_assert(fixture_dev_sees(ddev, h + 64, 0x11, 64));

	/* The device writes, the CPU reads, with no sync at all. */
	fixture_dev_fill(ddev, h + 4096, 0x22, 128);
	ck_assert(fixture_cpu_sees(p + 4096, 0x22, 128));
	if (!is_x86())
		ck_assert(none_resident(phys, 8192));
	dma_free_coherent(dev, 8192, p, h);
}
END_TEST

/* dma_zalloc_coherent() and any GFP flags: always zeroed, whatever the
 * previous user left, in every view. */
START_TEST(test_zeroed)
{
	static const unsigned long attrs[] = {0, DMA_ATTR_NON_CONSISTENT,
					      DMA_ATTR_WRITE_COMBINE,
					      DMA_ATTR_NO_KERNEL_MAPPING};
	unsigned int i;

	mk_profile(profiles[_i], NULL);
	for (i = 0; i < 4; i++) {
		struct page *pg = alloc_pages(GFP_KERNEL, 1);
		uint8_t *p;
		dma_addr_t h;

		/* Garbage in DRAM and in the CPU's copy. */
		ck_assert_ptr_nonnull(pg);
		fixture_cpu_fill(page_address(pg), 0x5c, 4096);
		ck_assert_int_eq(dmaemu_cache_clean(m, page_to_phys(pg), 4096),
				 0);
		fixture_cpu_fill((uint8_t *)page_address(pg) + 4096, 0x6d,
				 4096);
		__free_pages(pg, 1);

		p = dma_alloc_attrs(dev, 8000, &h, GFP_KERNEL, attrs[i]);
		ck_assert_ptr_nonnull(p);
		ck_assert_uint_eq(h, page_to_phys(pg));
		ck_assert(fixture_dev_sees(ddev, h, 0, 4096) &&
			  fixture_dev_sees(ddev, h + 4096, 0, 4096));
		if (attrs[i] != DMA_ATTR_NO_KERNEL_MAPPING)
			ck_assert(fixture_cpu_sees(p, 0, 4096) &&
				  fixture_cpu_sees(p + 4096, 0, 3904));
		dma_free_attrs(dev, 8000, p, h, attrs[i]);
	}
	/* dma_zalloc_coherent() is the same call with __GFP_ZERO. */
	{
		dma_addr_t h;
		uint8_t *p = dma_zalloc_coherent(dev, 100, &h, GFP_ATOMIC);

		ck_assert_ptr_nonnull(p);
		ck_assert(fixture_cpu_sees(p, 0, 100));
		dma_free_coherent(dev, 100, p, h);
	}
}
END_TEST

/*
 * A coherent buffer the CPU saw only through an uncached, write-combining
 * or no kernel mapping, written by its device and freed: the page's next
 * user reads what DRAM holds.  The cacheable alias never held those lines,
 * so the bytes the next user did not write come from memory, even when it
 * wrote other bytes of the line where the cache model could not see it
 * (uninstrumented code).  The soak found it: a network card's TX copy
 * kmalloc()ed in a freed result page was a stale-cpu-read at the four
 * bytes the checksum engine had written there.
 */
START_TEST(test_freed_coherent_reused)
{
	static const unsigned long attrs[] = {0, DMA_ATTR_WRITE_COMBINE,
					      DMA_ATTR_NO_KERNEL_MAPPING};
	static const uint8_t crc[4] = {0xde, 0xad, 0xbe, 0xef};
	unsigned int i;

	mk_profile(profiles[_i], NULL);
	for (i = 0; i < 3; i++) {
		struct page *pg = alloc_pages(GFP_KERNEL, 0);
		uint8_t *p, *q, got[4];
		dma_addr_t h;

		ck_assert_ptr_nonnull(pg);
		q = page_address(pg);
		memset(q, 0x5c, 4096); /* uninstrumented: the CPU's copy */
		ck_assert_int_eq(dmaemu_cache_clean(m, page_to_phys(pg), 4096),
				 0);
		__free_pages(pg, 0);
		p = dma_alloc_attrs(dev, 4096, &h, GFP_KERNEL, attrs[i]);
		ck_assert_ptr_nonnull(p);
		ck_assert_uint_eq(h, page_to_phys(pg));
		ck_assert_int_eq(dmaemu_dma_write(ddev, h, crc, 4), 0);
		dma_free_attrs(dev, 4096, p, h, attrs[i]);

		pg = alloc_pages(GFP_KERNEL, 0);
		ck_assert_ptr_eq(page_address(pg), q);
		memset(q + 4, 0x5c, 60); /* the old bytes again: not dirty */
		q[10] = 0x77;		 /* a byte that is */
		ck_assert_int_eq(dmaemu_cpu_read(got, q, 4), 0);
		ck_assert_msg(!memcmp(got, crc, 4),
			      "attrs %lu: read %02x%02x%02x%02x", attrs[i],
			      got[0], got[1], got[2], got[3]);
		__free_pages(pg, 0);
	}
}
END_TEST

/*
 * Zones follow the coherent mask: with DRAM from 1 MiB to 33 MiB, a
 * 24-bit mask gets ZONE_DMA (below 16 MiB), a 32-bit one ZONE_DMA32, a
 * 25-bit one memory below 32 MiB; a mask below DRAM is refused.
 */
START_TEST(test_zone_from_mask)
{
	dma_addr_t h;
	uint8_t *p;
	unsigned int i;

	mk("profile=arm64:mem=32M:mem_base=0x100000");
	p = dma_alloc_coherent(dev, 16384, &h, GFP_KERNEL);
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_ge(h, 16 << 20); /* ZONE_DMA32 first */
	dma_free_coherent(dev, 16384, p, h);

	ck_assert_int_eq(dma_set_coherent_mask(dev, DMA_BIT_MASK(24)), 0);
	for (i = 0; i < 4; i++) {
		p = dma_alloc_coherent(dev, 16384, &h, GFP_KERNEL | GFP_DMA32);
		ck_assert_ptr_nonnull(p);
		ck_assert_uint_le(h + 16384 - 1, DMA_BIT_MASK(24));
		ck_assert_uint_ge(h, 0x100000);
		dma_free_coherent(dev, 16384, p, h);
	}

	ck_assert_int_eq(dma_set_coherent_mask(dev, DMA_BIT_MASK(25)), 0);
	p = dma_alloc_coherent(dev, 1 << 20, &h, GFP_KERNEL);
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_le(h + (1 << 20) - 1, DMA_BIT_MASK(25));
	dma_free_coherent(dev, 1 << 20, p, h);

	/* Below DRAM: dma_set_coherent_mask() refuses; forced, the
	 * allocation fails with a report. */
	ck_assert_int_eq(dma_set_coherent_mask(dev, DMA_BIT_MASK(20)), -EIO);
	ck_assert_uint_eq(dev->coherent_dma_mask, DMA_BIT_MASK(25));
	dev->coherent_dma_mask = DMA_BIT_MASK(20);
	ck_assert_ptr_null(dma_alloc_coherent(dev, 4096, &h, GFP_KERNEL));
	ck_assert_uint_eq(count("bad-argument"), 1);
	expected = 1;
}
END_TEST

/* ---------------------------------------------------------------------- */
/* DMA_ATTR_NON_CONSISTENT                                                */
/* ---------------------------------------------------------------------- */

/*
 * Cacheable memory whose syncs belong to the driver.  On arm/arm64 a
 * device write is invisible to a CPU holding the line until
 * dma_cache_sync(FROM_DEVICE) (or sync_for_cpu on the handle), and a CPU
 * write invisible to the device until dma_cache_sync(TO_DEVICE).  x86
 * snoops: both are visible at once.
 */
START_TEST(test_non_consistent)
{
	const unsigned long nc = DMA_ATTR_NON_CONSISTENT;
	uint64_t phys;
	dma_addr_t h;
	uint8_t *p;

	mk_profile(profiles[_i], NULL);
	p = dma_alloc_attrs(dev, 4096, &h, GFP_KERNEL, nc);
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(region_of(p, &phys), DMAEMU_REGION_LINEAR);
	ck_assert_uint_eq(h, phys);
	ck_assert_uint_eq(dirty_mask(phys), 0); /* zeroed and cleaned */
	ck_assert(fixture_dev_sees(ddev, h, 0, 4096));

	/* Device writes line 0 behind the CPU's resident copy. */
	ck_assert(fixture_cpu_sees(p, 0, 64));
	ck_assert(fixture_resident(m, phys));
	fixture_dev_fill(ddev, h, 0x33, 64);
	if (is_x86()) {
		ck_assert(fixture_cpu_sees(p, 0x33, 64));
	} else {
		ck_assert(fixture_cpu_sees(p, 0, 64)); /* stale */
		ck_assert_uint_eq(count("stale-cpu-read"), 1);
		dma_cache_sync(dev, p, 64, DMA_FROM_DEVICE);
		ck_assert(!fixture_resident(m, phys));
		ck_assert(fixture_cpu_sees(p, 0x33, 64));
		expected = 1;
	}

	/* The same through the handle: sync_for_cpu. */
	ck_assert(fixture_cpu_sees(p + 128, 0, 64));
	fixture_dev_fill(ddev, h + 128, 0x44, 64);
	if (!is_x86()) {
		dma_sync_single_for_cpu(dev, h + 128, 64, DMA_FROM_DEVICE);
		ck_assert(!fixture_resident(m, phys + 128));
	}
	ck_assert(fixture_cpu_sees(p + 128, 0x44, 64));

	/* CPU writes line 4; the device sees it after a clean only. */
	fixture_cpu_fill(p + 256, 0x55, 64);
	ck_assert_uint_eq(dirty_mask(phys + 256), UINT64_MAX);
	if (is_x86()) {
		ck_assert(fixture_dev_sees(ddev, h + 256, 0x55, 64));
	} else {
		/* The device reads old memory: stale-device-read, naming
		 * dma_cache_sync() (no streaming mapping holds the bytes). */
		ck_assert(fixture_dev_sees(ddev, h + 256, 0, 64));
		ck_assert_uint_eq(count("stale-device-read"), 1);
		ck_assert_ptr_nonnull(strstr(fixture_log(), "dma_cache_sync("));
		expected++;
		dma_cache_sync(dev, p + 256, 64, DMA_TO_DEVICE);
		ck_assert_uint_eq(dirty_mask(phys + 256), 0);
		ck_assert(fixture_dev_sees(ddev, h + 256, 0x55, 64));
	}
	ck_assert_uint_eq(count(NULL), expected);
	dma_free_attrs(dev, 4096, p, h, nc);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* DMA_ATTR_WRITE_COMBINE                                                 */
/* ---------------------------------------------------------------------- */

/* Stores wait in write-combining buffers: the device sees them after a
 * barrier (wmb() drains the buffers), on every profile. */
START_TEST(test_write_combine)
{
	uint64_t phys, before;
	dma_addr_t h;
	uint8_t *p;

	mk_profile(profiles[_i], NULL);
	p = dma_alloc_wc(dev, 4096, &h, GFP_KERNEL);
	ck_assert_ptr_nonnull(p);
	if (_i == 2) {
		/* x86 (Linux 4.14) ignores the attribute: write-back memory,
		 * coherent, no store held back. */
		ck_assert_int_eq(region_of(p, &phys), DMAEMU_REGION_LINEAR);
		ck_assert_uint_eq(h, phys);
		fixture_cpu_fill(p + 8, 0x66, 8);
		ck_assert_uint_eq(dmaemu_wc_pending(m, phys, 4096), 0);
		ck_assert(fixture_dev_sees(ddev, h + 8, 0x66, 8));
		dma_free_wc(dev, 4096, p, h);
		return;
	}
	ck_assert_int_eq(region_of(p, &phys), DMAEMU_REGION_WC);
	ck_assert_uint_eq(h, phys);
	ck_assert(fixture_cpu_sees(p, 0, 4096));

	fixture_cpu_fill(p + 8, 0x66, 8);
	ck_assert_uint_eq(dmaemu_wc_pending(m, phys + 8, 8), 8);
	ck_assert(fixture_cpu_sees(p + 8, 0x66, 8)); /* store forwarding */
	ck_assert(none_resident(phys, 4096));
	before = count(NULL);
	ck_assert(fixture_dev_sees(ddev, h + 8, 0, 8)); /* not yet */
	expected = count(NULL) - before; /* the checker may say so */
	dmaemu_cpu_flush_wc();		 /* wmb() */
	ck_assert_uint_eq(dmaemu_wc_pending(m, phys, 4096), 0);
	ck_assert(fixture_dev_sees(ddev, h + 8, 0x66, 8));
	ck_assert(none_resident(phys, 4096));
	/* Freed with the same attribute by dma_free_wc(). */
	dma_free_wc(dev, 4096, p, h);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* DMA_ATTR_NO_KERNEL_MAPPING                                             */
/* ---------------------------------------------------------------------- */

/* The cookie is not memory: an explicit access is refused with a report,
 * a plain access (instrumented) is reported and then faults. */
START_TEST(test_nomap_cookie)
{
	const unsigned long nkm = DMA_ATTR_NO_KERNEL_MAPPING;
	uint8_t buf[4];
	uint64_t phys;
	dma_addr_t h;
	uint8_t *p;
	pid_t pid;
	int status;

	mk_profile(profiles[_i], NULL);
	p = dma_alloc_attrs(dev, 8192, &h, GFP_KERNEL, nkm);
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(region_of(p, &phys), DMAEMU_REGION_NOMAP);
	ck_assert_uint_eq(h, phys);
	ck_assert(fixture_dev_sees(ddev, h, 0, 4096));
	ck_assert(none_resident(phys, 8192));

	ck_assert_int_eq(dmaemu_cpu_read(buf, p + 4, 4), -EFAULT);
	ck_assert_uint_eq(count("no-kernel-mapping-access"), 1);

	/* The fault itself, in a child (not under Valgrind, which would
	 * count the deliberate SIGSEGV as an error). */
	if (RUNNING_ON_VALGRIND)
		goto out;
	fflush(NULL);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		/* Die of the fault, not in a sanitizer's SIGSEGV handler. */
		signal(SIGSEGV, SIG_DFL);
		/* What instrumented code does for *(int *)p: hook, load. */
		dmaemu_cpu_access(p, 4, 0);
		status = *(volatile int *)p;
		_exit(status == 12345 ? 3 : 2);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFSIGNALED(status));
	ck_assert_int_eq(WTERMSIG(status), SIGSEGV);
	/* The child's report is in the shared log. */
	ck_assert_ptr_nonnull(strstr(fixture_log(), "no-kernel-mapping-access: "
						    "read of 4 bytes"));
out:
	dma_free_attrs(dev, 8192, p, h, nkm);
	expected = 1;
}
END_TEST

/* Free and mmap must repeat the attribute; without it nothing happens. */
START_TEST(test_nomap_repeat_attr)
{
	const unsigned long nkm = DMA_ATTR_NO_KERNEL_MAPPING;
	struct vm_area_struct vma = {.vm_end = 4096};
	struct dmaemu_mm_stats before, after;
	dma_addr_t h;
	uint8_t *p;

	mk_profile(profiles[_i], NULL);
	p = dma_alloc_attrs(dev, 4096, &h, GFP_KERNEL, nkm);
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(dmaemu_mm_stats(m, &before), 0);

	dma_free_coherent(dev, 4096, p, h);
	ck_assert_uint_eq(count("missing-attribute"), 1);
	ck_assert_int_eq(dmaemu_mm_stats(m, &after), 0);
	ck_assert_uint_eq(after.pages_free, before.pages_free);

	ck_assert_int_eq(dma_mmap_coherent(dev, &vma, p, h, 4096), -EINVAL);
	ck_assert_uint_eq(count("missing-attribute"), 2);
	ck_assert_uint_eq(vma.vm_start, 0);
	ck_assert_ptr_null(vma.dmaemu);

	/* A WRITE_COMBINE buffer freed with NO_KERNEL_MAPPING, which it
	 * never had, is refused; freed without WRITE_COMBINE it is freed, as
	 * in Linux 4.14, where only NO_KERNEL_MAPPING changes what a free
	 * does. */
	{
		dma_addr_t h2;
		void *wc = dma_alloc_wc(dev, 4096, &h2, GFP_KERNEL);

		ck_assert_ptr_nonnull(wc);
		dma_free_attrs(dev, 4096, wc, h2, DMA_ATTR_WRITE_COMBINE | nkm);
		ck_assert_uint_eq(count("bad-free"), 1);
		dma_free_coherent(dev, 4096, wc, h2);
		ck_assert_uint_eq(count("missing-attribute"), 2);
	}

	/* Still live: the right free works, with no new report. */
	dma_free_attrs(dev, 4096, p, h, nkm);
	ck_assert_int_eq(dmaemu_mm_stats(m, &after), 0);
	ck_assert_uint_eq(after.pages_free, before.pages_free + 1);
	ck_assert_uint_eq(count(NULL), 3);
	expected = 3;
}
END_TEST

/* The newest report of the machine. */
static void last_report(struct dmaemu_report *r)
{
	ck_assert_uint_gt(dmaemu_report_kept(m), 0);
	ck_assert_int_eq(dmaemu_report_get(m, dmaemu_report_kept(m) - 1, r), 0);
}

/*
 * Which attributes a call must repeat, as in Linux 4.14: free and
 * get_sgtable depend on NO_KERNEL_MAPPING only (arm's __arm_dma_free(),
 * __iommu_get_pages()), so a dma_alloc_wc() buffer is described by a
 * plain dma_get_sgtable() (DRM's CMA helpers do this) and freed without
 * WRITE_COMBINE; a refused call's report names the buffer's physical
 * address.  Run on every profile, and with the IOMMU.
 */
START_TEST(test_repeat_attrs_as_4_14)
{
	struct dmaemu_allocation_info ai;
	struct dmaemu_report r;
	struct sg_table sgt;
	struct scatterlist *sg;
	unsigned int i, total = 0;
	dma_addr_t h;
	void *p;

	mk_profile(profiles[_i % 3], _i >= 3 ? "iommu=1" : NULL);
	/* get_sgtable of a write-combined buffer, attrs 0 */
	p = dma_alloc_wc(dev, 3 * 4096, &h, GFP_KERNEL);
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(
		dmaemu_device_allocation_find(ddev, p, 0, 3 * 4096, &ai), 0);
	ck_assert_int_eq(dma_get_sgtable(dev, &sgt, p, h, 3 * 4096), 0);
	for_each_sg (sgt.sgl, sg, sgt.orig_nents, i)
		total += sg->length;
	ck_assert_uint_eq(total, 3 * 4096);
	ck_assert_uint_eq(sg_phys(sgt.sgl), ai.phys);
	sg_free_table(&sgt);
	/* freed without WRITE_COMBINE: freed, nothing reported */
	dma_free_attrs(dev, 3 * 4096, p, h, 0);
	ck_assert_int_eq(dmaemu_device_allocation_find(ddev, NULL, h, 1, &ai),
			 -ENOENT);
	p = dma_alloc_attrs(dev, 4096, &h, GFP_KERNEL, DMA_ATTR_NON_CONSISTENT);
	ck_assert_ptr_nonnull(p);
	dma_free_coherent(dev, 4096, p, h);
	ck_assert_uint_eq(count(NULL), 0);

	/* NO_KERNEL_MAPPING must be repeated; the reports name the buffer */
	p = dma_alloc_attrs(dev, 4096, &h, GFP_KERNEL,
			    DMA_ATTR_NO_KERNEL_MAPPING);
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(dmaemu_device_allocation_find(ddev, NULL, h, 1, &ai),
			 0);
	ck_assert_uint_ne(ai.phys, 0);
	ck_assert_int_eq(dma_get_sgtable(dev, &sgt, p, h, 4096), -EINVAL);
	last_report(&r);
	ck_assert_str_eq(r.kind_name, "missing-attribute");
	ck_assert_uint_eq(r.phys, ai.phys);
	dma_free_attrs(dev, 4096, p, h, 0);
	last_report(&r);
	ck_assert_str_eq(r.kind_name, "missing-attribute");
	ck_assert_uint_eq(r.phys, ai.phys);
	dma_free_attrs(dev, 2048, p, h, DMA_ATTR_NO_KERNEL_MAPPING);
	last_report(&r);
	ck_assert_str_eq(r.kind_name, "unmap-size-mismatch");
	ck_assert_uint_eq(r.phys, ai.phys);
	ck_assert_uint_eq(count(NULL), 3);
	dma_free_attrs(dev, 4096, p, h, DMA_ATTR_NO_KERNEL_MAPPING);
	expected = 3;
}
END_TEST

/*
 * The main use of NO_KERNEL_MAPPING: a device fills the buffer and a
 * "user" thread reads it through dma_mmap_attrs(); a user write reaches
 * the device too.  Areas that do not fit are -ENXIO.
 */
START_TEST(test_mmap_nomap)
{
	const unsigned long nkm = DMA_ATTR_NO_KERNEL_MAPPING;
	struct vm_area_struct vma = {.vm_start = 0, .vm_end = 8192};
	dma_addr_t h;
	uint8_t *p, *user;

	mk_profile(profiles[_i], NULL);
	p = dma_alloc_attrs(dev, 3 * 4096, &h, GFP_KERNEL, nkm);
	ck_assert_ptr_nonnull(p);

	vma.vm_pgoff = 1;
	ck_assert_int_eq(dma_mmap_attrs(dev, &vma, p, h, 3 * 4096, nkm), 0);
	user = (uint8_t *)vma.vm_start;
	ck_assert_ptr_nonnull(user);
	ck_assert_uint_eq(vma.vm_end - vma.vm_start, 8192);
	ck_assert_uint_eq(vma.vm_flags & (VM_IO | VM_DONTEXPAND),
			  VM_IO | VM_DONTEXPAND);
	ck_assert_int_eq(region_of(user, NULL), DMAEMU_REGION_NONE);

	/* Frame data from the device, seen at once by the user. */
	fixture_dev_fill(ddev, h + 4096 + 100, 0x77, 200);
	ck_assert_uint_eq(user[100], 0x77);
	ck_assert_uint_eq(user[299], 0x77);
	ck_assert_uint_eq(user[300], 0);
	fixture_dev_fill(ddev, h + 2 * 4096, 0x78, 16);
	ck_assert_uint_eq(user[4096 + 15], 0x78);
	/* The user writes; the device reads it. */
	memset(user + 4096 + 512, 0x79, 32);
	ck_assert(fixture_dev_sees(ddev, h + 2 * 4096 + 512, 0x79, 32));

	/* Mapping a mapped area again is refused. */
	ck_assert_int_eq(dma_mmap_attrs(dev, &vma, p, h, 3 * 4096, nkm),
			 -EINVAL);
	ck_assert_uint_eq(count("bad-argument"), 1);
	dmaemu_vma_unmap(&vma);
	ck_assert_ptr_null(vma.dmaemu);
	ck_assert_uint_eq(vma.vm_start, 0);
	ck_assert_uint_eq(vma.vm_end, 8192);

	/* Past the end: offset 2 + 2 pages, offset 3. */
	vma.vm_pgoff = 2;
	ck_assert_int_eq(dma_mmap_attrs(dev, &vma, p, h, 3 * 4096, nkm),
			 -ENXIO);
	vma.vm_pgoff = 3;
	vma.vm_end = 4096;
	ck_assert_int_eq(dma_mmap_attrs(dev, &vma, p, h, 3 * 4096, nkm),
			 -ENXIO);
	ck_assert_ptr_null(vma.dmaemu);
	/* The last page alone fits. */
	vma.vm_pgoff = 2;
	ck_assert_int_eq(dma_mmap_attrs(dev, &vma, p, h, 3 * 4096, nkm), 0);
	ck_assert_uint_eq(((uint8_t *)vma.vm_start)[15], 0x78);
	dmaemu_vma_unmap(&vma);
	dma_free_attrs(dev, 3 * 4096, p, h, nkm);
	expected = 1;
}
END_TEST

/* A coherent (and a write-combining) buffer mapped for the user: what the
 * kernel wrote before is there, and both sides see each other's writes. */
START_TEST(test_mmap_coherent)
{
	struct vm_area_struct vma = {.vm_end = 4096};
	dma_addr_t h, hw;
	uint8_t *p, *wc, *user;

	mk_profile(profiles[_i], NULL);
	p = dma_alloc_coherent(dev, 4096, &h, GFP_KERNEL);
	ck_assert_ptr_nonnull(p);
	fixture_cpu_fill(p, 0x12, 64);
	ck_assert_int_eq(dma_mmap_coherent(dev, &vma, p, h, 4096), 0);
	user = (uint8_t *)vma.vm_start;
	ck_assert_uint_eq(user[0], 0x12);
	ck_assert_uint_eq(user[63], 0x12);
	fixture_dev_fill(ddev, h + 64, 0x13, 8);
	ck_assert_uint_eq(user[64], 0x13);
	dmaemu_vma_unmap(&vma);
	dma_free_coherent(dev, 4096, p, h);

	wc = dma_alloc_wc(dev, 4096, &hw, GFP_KERNEL);
	ck_assert_ptr_nonnull(wc);
	vma.vm_end = 4096;
	ck_assert_int_eq(dma_mmap_wc(dev, &vma, wc, hw, 4096), 0);
	user = (uint8_t *)vma.vm_start;
	user[5] = 0x14; /* the user view is uncached */
	ck_assert(fixture_dev_sees(ddev, hw + 5, 0x14, 1));
	ck_assert(fixture_cpu_sees(wc + 5, 0x14, 1));
	dmaemu_vma_unmap(&vma);
	dma_free_wc(dev, 4096, wc, hw);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Frees, arguments, failures                                             */
/* ---------------------------------------------------------------------- */

/*
 * Each wrong free is one report and frees nothing (Linux 4.14's
 * check_unmap() on dma_free_coherent()): another size, a handle or device
 * the allocation does not have, a double free (unmap-not-mapped), the
 * right handle with another CPU address.
 */
START_TEST(test_bad_frees)
{
	struct dmaemu_mm_stats before, after;
	struct dmaemu_device *other =
		dmaemu_device_create(m, "dev1", NULL, NULL);
	dma_addr_t h;
	uint8_t *p;

	ck_assert_ptr_nonnull(other);
	p = dma_alloc_coherent(dev, 8192, &h, GFP_KERNEL);
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(dmaemu_mm_stats(m, &before), 0);

	dma_free_coherent(dev, 4096, p, h); /* size */
	ck_assert_uint_eq(count("unmap-size-mismatch"), 1);
	dma_free_coherent(dev, 8192, p, h + 4096); /* handle */
	ck_assert_uint_eq(count("unmap-not-mapped"), 1);
	dma_free_coherent(dev, 8192, p + 4096, h + 4096); /* not the start */
	ck_assert_uint_eq(count("unmap-not-mapped"), 2);
	dma_free_coherent(dmaemu_device_to_dev(other), 8192, p, h);
	ck_assert_uint_eq(count("unmap-not-mapped"), 3);
	dma_free_coherent(dev, 8192, p + 4096, h); /* CPU address */
	ck_assert_uint_eq(count("free-cpu-address-mismatch"), 1);
	ck_assert_uint_eq(count(NULL), 5);
	ck_assert_int_eq(dmaemu_mm_stats(m, &after), 0);
	ck_assert_uint_eq(after.pages_free, before.pages_free);

	dma_free_coherent(dev, 8192, p, h);
	dma_free_coherent(dev, 8192, p, h); /* double free */
	ck_assert_uint_eq(count("unmap-not-mapped"), 4);
	ck_assert_int_eq(dmaemu_mm_stats(m, &after), 0);
	ck_assert_uint_eq(after.pages_free, before.pages_free + 2);
	dma_free_coherent(dev, 8192, NULL, 0); /* a no-op, as in Linux */
	ck_assert_uint_eq(count(NULL), 6);
	dmaemu_device_destroy(other);
	expected = 6;
}
END_TEST

START_TEST(test_bad_args)
{
	struct device fake;
	dma_addr_t h;

	memset(&fake, 0, sizeof(fake));
	ck_assert_ptr_null(dma_alloc_coherent(NULL, 4096, &h, GFP_KERNEL));
	ck_assert_ptr_null(dma_alloc_coherent(&fake, 4096, &h, GFP_KERNEL));
	ck_assert_ptr_null(dma_alloc_coherent(dev, 0, &h, GFP_KERNEL));
	ck_assert_ptr_null(dma_alloc_coherent(dev, 4096, NULL, GFP_KERNEL));
	ck_assert_ptr_null(
		dma_alloc_attrs(dev, 4096, &h, GFP_KERNEL, 1UL << 12));
	ck_assert_uint_eq(count("bad-argument"), 5);
	ck_assert_ptr_nonnull(strstr(fixture_log(), "unknown attribute bits"));
	expected = 5;
}
END_TEST

/* An allocation the page allocator cannot serve: reported, unless
 * DMA_ATTR_NO_WARN (or __GFP_NOWARN) says the driver copes. */
START_TEST(test_no_warn)
{
	dma_addr_t h;

	ck_assert_ptr_null(dma_alloc_coherent(dev, 8 << 20, &h, GFP_KERNEL));
	ck_assert_uint_eq(count("alloc-failure"), 1);
	ck_assert_ptr_null(dma_alloc_attrs(dev, 8 << 20, &h, GFP_KERNEL,
					   DMA_ATTR_NO_WARN));
	ck_assert_ptr_null(dma_alloc_coherent(dev, 8 << 20, &h,
					      GFP_KERNEL | __GFP_NOWARN));
	ck_assert_uint_eq(count(NULL), 1);
	expected = 1;
}
END_TEST

/* GFP_KERNEL may sleep: not from atomic context (GFP_ATOMIC may). */
START_TEST(test_atomic_context)
{
	dma_addr_t h, h2;
	void *p, *q;

	preempt_disable();
	p = dma_alloc_coherent(dev, 4096, &h, GFP_KERNEL);
	ck_assert_uint_eq(count("sleep-in-atomic"), 1);
	q = dma_alloc_coherent(dev, 4096, &h2, GFP_ATOMIC);
	preempt_enable();
	ck_assert(p && q);
	ck_assert_uint_eq(count(NULL), 1);
	dma_free_coherent(dev, 4096, p, h);
	dma_free_coherent(dev, 4096, q, h2);
	expected = 1;
}
END_TEST

/* dma_offset: the handle is the physical address plus the offset, and
 * the device reaches the buffer there. */
START_TEST(test_dma_offset)
{
	uint64_t phys;
	dma_addr_t h;
	uint8_t *p;

	mk_profile(profiles[_i], "dma_offset=0x40000000");
	p = dma_alloc_coherent(dev, 4096, &h, GFP_KERNEL);
	ck_assert_ptr_nonnull(p);
	region_of(p, &phys);
	ck_assert_uint_eq(h, phys + 0x40000000);
	fixture_cpu_fill(p, 0x31, 16);
	ck_assert(fixture_dev_sees(ddev, h, 0x31, 16));
	dma_free_coherent(dev, 4096, p, h);
	/* Bus addresses above 4 GiB: a 32-bit coherent mask reaches no
	 * memory (DRAM at 0x80000000 + 2 GiB offset). */
	dmaemu_device_destroy(ddev);
	ddev = NULL;
	dmaemu_machine_destroy(m);
	m = NULL;
	fixture_teardown();
	mk_profile(profiles[_i], "dma_offset=0x80000000");
	ck_assert_ptr_null(dma_alloc_coherent(dev, 4096, &h, GFP_KERNEL));
	ck_assert_uint_eq(count("bad-argument"), 1);
	ck_assert_int_eq(dma_set_coherent_mask(dev, DMA_BIT_MASK(33)), 0);
	p = dma_alloc_coherent(dev, 4096, &h, GFP_KERNEL);
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_ge(h, 1ULL << 32);
	dma_free_coherent(dev, 4096, p, h);
	expected = 1;
}
END_TEST

/* Attributes that only matter elsewhere are accepted and remembered. */
START_TEST(test_other_attrs)
{
	const unsigned long attrs =
		DMA_ATTR_WRITE_BARRIER | DMA_ATTR_WEAK_ORDERING |
		DMA_ATTR_FORCE_CONTIGUOUS | DMA_ATTR_ALLOC_SINGLE_PAGES |
		DMA_ATTR_PRIVILEGED | DMA_ATTR_SKIP_CPU_SYNC;
	struct dmaemu_allocation_info info;
	dma_addr_t h;
	uint8_t *p;

	mk_profile(profiles[_i], NULL);
	p = dma_alloc_attrs(dev, 3 * 4096, &h, GFP_KERNEL, attrs);
	ck_assert_ptr_nonnull(p);
	/* No IOMMU: one contiguous block whatever the hints say. */
	ck_assert_int_eq(dmaemu_device_allocation_find(ddev, NULL, h + 4096,
						       8192, &info),
			 0);
	ck_assert_ptr_eq(info.cpu_addr, p);
	ck_assert_uint_eq(info.attrs, attrs);
	ck_assert(info.contiguous);
	ck_assert_int_eq(
		dmaemu_device_allocation_find(ddev, p + 100, 0, 10, &info), 0);
	ck_assert_int_eq(dmaemu_device_allocation_find(ddev, NULL, h + 8192,
						       4097, &info),
			 -ENOENT);
	dma_free_attrs(dev, 3 * 4096, p, h, 0);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Managed buffers and leaks                                              */
/* ---------------------------------------------------------------------- */

START_TEST(test_dmam)
{
	struct dmaemu_mm_stats before, after;
	dma_addr_t h1, h2, h3;
	void *a, *b, *c;

	ck_assert_int_eq(dmaemu_mm_stats(m, &before), 0);
	a = dmam_alloc_coherent(dev, 4096, &h1, GFP_KERNEL);
	b = dmam_alloc_attrs(dev, 8192, &h2, GFP_KERNEL,
			     DMA_ATTR_NO_KERNEL_MAPPING);
	c = dmam_alloc_coherent(dev, 100, &h3, GFP_KERNEL);
	ck_assert(a && b && c);
	dmam_free_coherent(dev, 100, c, h3);
	/* A managed buffer freed with dma_free_attrs() is fine too. */
	dma_free_coherent(dev, 4096, a, h1);
	a = dmam_alloc_coherent(dev, 4096, &h1, GFP_KERNEL);
	ck_assert_ptr_nonnull(a);
	dmaemu_device_destroy(ddev);
	ddev = NULL;
	ck_assert_uint_eq(count(NULL), 0);
	ck_assert_int_eq(dmaemu_mm_stats(m, &after), 0);
	ck_assert_uint_eq(after.pages_free, before.pages_free);
}
END_TEST

/* A buffer still allocated at device destroy: one leaked-mapping report,
 * and the memory comes back. */
START_TEST(test_leak_at_destroy)
{
	struct dmaemu_mm_stats before, after;
	dma_addr_t h;

	ck_assert_int_eq(dmaemu_mm_stats(m, &before), 0);
	ck_assert_ptr_nonnull(dma_alloc_coherent(dev, 4096, &h, GFP_KERNEL));
	ck_assert_ptr_nonnull(dmam_alloc_coherent(dev, 4096, &h, GFP_KERNEL));
	dmaemu_device_destroy(ddev);
	ddev = NULL;
	ck_assert_uint_eq(count("leaked-mapping"), 1);
	ck_assert_ptr_nonnull(
		strstr(fixture_log(), "dma_alloc_attrs(4096 bytes"));
	ck_assert_int_eq(dmaemu_mm_stats(m, &after), 0);
	ck_assert_uint_eq(after.pages_free, before.pages_free);
	expected = 1;
}
END_TEST

/* ---------------------------------------------------------------------- */
/* dma_get_sgtable_attrs                                                  */
/* ---------------------------------------------------------------------- */

START_TEST(test_get_sgtable)
{
	struct sg_table sgt;
	uint64_t phys;
	dma_addr_t h;
	uint8_t *p;

	p = dma_alloc_attrs(dev, 3 * 4096 + 5, &h, GFP_KERNEL,
			    DMA_ATTR_NO_KERNEL_MAPPING);
	ck_assert_ptr_nonnull(p);
	region_of(p, &phys);
	ck_assert_int_eq(dma_get_sgtable_attrs(dev, &sgt, p, h, 3 * 4096 + 5,
					       DMA_ATTR_NO_KERNEL_MAPPING),
			 0);
	ck_assert_uint_eq(sgt.orig_nents, 1);
	ck_assert_uint_eq(sg_phys(sgt.sgl), phys);
	ck_assert_uint_eq(sgt.sgl->length, 4 * 4096);
	sg_free_table(&sgt);
	/* The cookie needs its attribute here too. */
	ck_assert_int_eq(dma_get_sgtable(dev, &sgt, p, h, 3 * 4096 + 5),
			 -EINVAL);
	ck_assert_uint_eq(count("missing-attribute"), 1);
	dma_free_attrs(dev, 3 * 4096 + 5, p, h, DMA_ATTR_NO_KERNEL_MAPPING);
	expected = 1;
}
END_TEST

/* ---------------------------------------------------------------------- */
/* IOMMU: scattered pages                                                 */
/* ---------------------------------------------------------------------- */

/*
 * With iommu=1, ALLOC_SINGLE_PAGES builds the buffer from order-0 pages:
 * physically scattered (the allocator is fragmented on purpose), one run
 * of IOVA for the device, a stitched uncached kernel view on arm/arm64.
 * FORCE_CONTIGUOUS gets one block.
 */
START_TEST(test_single_pages_iommu)
{
	const unsigned long sp = DMA_ATTR_ALLOC_SINGLE_PAGES;
	struct vm_area_struct vma = {.vm_end = 3 * 4096};
	struct page *hold[8];
	struct sg_table sgt;
	dma_addr_t h, hc;
	uint8_t *p, *c;
	unsigned int i;

	mk_profile(profiles[_i], "iommu=1");
	/* Take 8 pages and give back every other one: free memory is now
	 * full of single pages that are not adjacent. */
	for (i = 0; i < 8; i++) {
		hold[i] = alloc_pages(GFP_KERNEL, 0);
		ck_assert_ptr_nonnull(hold[i]);
	}
	for (i = 0; i < 8; i += 2)
		__free_pages(hold[i], 0);

	p = dma_alloc_attrs(dev, 4 * 4096, &h, GFP_KERNEL, sp);
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(dma_get_sgtable_attrs(dev, &sgt, p, h, 4 * 4096, sp),
			 0);
	if (is_x86()) {
		ck_assert_uint_eq(sgt.orig_nents, 1);
	} else {
		ck_assert_uint_gt(sgt.orig_nents, 1);
		ck_assert_int_eq(region_of(p, NULL), DMAEMU_REGION_NONE);
		/* The device sees one run of IOVA over the pages. */
		fixture_cpu_fill(p + 4096 - 8, 0x21, 16);
		ck_assert(fixture_dev_sees(ddev, h + 4096 - 8, 0x21, 16));
		fixture_dev_fill(ddev, h + 3 * 4096 - 4, 0x22, 8);
		ck_assert(fixture_cpu_sees(p + 3 * 4096 - 4, 0x22, 8));
	}
	sg_free_table(&sgt);

	/* A user view of pages 1..3 stitches the same pages. */
	vma.vm_pgoff = 1;
	ck_assert_int_eq(dma_mmap_attrs(dev, &vma, p, h, 4 * 4096, sp), 0);
	fixture_dev_fill(ddev, h + 2 * 4096 - 2, 0x23, 4);
	ck_assert_uint_eq(((uint8_t *)vma.vm_start)[4096 - 2], 0x23);
	ck_assert_uint_eq(((uint8_t *)vma.vm_start)[4096 + 1], 0x23);
	dmaemu_vma_unmap(&vma);

	c = dma_alloc_attrs(dev, 4 * 4096, &hc, GFP_KERNEL,
			    sp | DMA_ATTR_FORCE_CONTIGUOUS);
	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq(dma_get_sgtable_attrs(dev, &sgt, c, hc, 4 * 4096, 0),
			 0);
	ck_assert_uint_eq(sgt.orig_nents, 1);
	sg_free_table(&sgt);
	dma_free_attrs(dev, 4 * 4096, c, hc, 0);
	dma_free_attrs(dev, 4 * 4096, p, h, sp);
	for (i = 1; i < 8; i += 2)
		__free_pages(hold[i], 0);
}
END_TEST

/*
 * DMA_ATTR_PRIVILEGED reaches the IOMMU mapping: an unprivileged device
 * access faults (and changes nothing), a privileged one goes through.
 */
START_TEST(test_privileged_iommu)
{
	const uint8_t data[4] = {1, 2, 3, 4};
	dma_addr_t h, hn;
	uint8_t *p, *n;

	mk("profile=arm64:iommu=1");
	p = dma_alloc_attrs(dev, 4096, &h, GFP_KERNEL, DMA_ATTR_PRIVILEGED);
	n = dma_alloc_coherent(dev, 4096, &hn, GFP_KERNEL);
	ck_assert(p && n);
	ck_assert_int_eq(dmaemu_dma_write(ddev, h, data, 4), -EFAULT);
	ck_assert_uint_eq(count("iommu-fault"), 1);
	ck_assert(fixture_cpu_sees(p, 0, 4));
	ck_assert_int_eq(dmaemu_dma_write(ddev, hn, data, 4), 0);
	ck_assert_int_eq(dmaemu_device_set_privileged(ddev, true), 0);
	ck_assert_int_eq(dmaemu_dma_write(ddev, h, data, 4), 0);
	ck_assert_mem_eq(p, data, 4);
	ck_assert_uint_eq(count(NULL), 1);
	dma_free_attrs(dev, 4096, p, h, DMA_ATTR_PRIVILEGED);
	dma_free_coherent(dev, 4096, n, hn);
	expected = 1;
}
END_TEST

/*
 * With iommu=1 a coherent allocation's IOVA respects the coherent mask,
 * not the streaming one, as the kernel's iommu_dma_alloc() does.
 */
START_TEST(test_iommu_coherent_mask)
{
	dma_addr_t h;
	uint8_t *p;

	mk("profile=arm64:iommu=1");
	ck_assert_int_eq(dma_set_mask(dev, DMA_BIT_MASK(64)), 0);
	ck_assert_uint_eq(dev->coherent_dma_mask, DMA_BIT_MASK(32));
	p = dma_alloc_coherent(dev, 8192, &h, GFP_KERNEL);
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_le(h + 8192 - 1, DMA_BIT_MASK(32));
	dma_free_coherent(dev, 8192, p, h);
	ck_assert_uint_eq(count(NULL), 0);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Threads                                                                */
/* ---------------------------------------------------------------------- */

static void *alloc_loop(void *arg)
{
	unsigned int i, seed = (unsigned int)(uintptr_t)arg;

	for (i = 0; i < 200; i++) {
		size_t size = 100 + (rand_r(&seed) % 3) * 4096;
		unsigned long attrs =
			(rand_r(&seed) & 1) ? DMA_ATTR_NON_CONSISTENT : 0;
		dma_addr_t h;
		uint8_t *p = dma_alloc_attrs(dev, size, &h, GFP_KERNEL, attrs);

		if (!p)
			return (void *)1;
		if (dmaemu_dma_write(ddev, h, &seed, sizeof(seed)))
			return (void *)2;
		dma_free_attrs(dev, size, p, h, attrs);
	}
	return NULL;
}

START_TEST(test_threads)
{
	pthread_t t[4];
	unsigned int i;
	void *ret;

	for (i = 0; i < 4; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, alloc_loop,
						(void *)(uintptr_t)(i + 1)),
				 0);
	for (i = 0; i < 4; i++) {
		ck_assert_int_eq(pthread_join(t[i], &ret), 0);
		ck_assert_ptr_null(ret);
	}
}
END_TEST

static void setup_default(void)
{
	mk("profile=arm64");
}

static Suite *alloc_suite(void)
{
	Suite *s = suite_create("dma-alloc");
	TCase *tc = tcase_create("per-profile");
	TCase *tc1 = tcase_create("arm64");

	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_loop_test(tc, test_coherent, 0, 3);
	tcase_add_loop_test(tc, test_zeroed, 0, 3);
	tcase_add_loop_test(tc, test_freed_coherent_reused, 0, 3);
	tcase_add_test(tc, test_zone_from_mask);
	tcase_add_loop_test(tc, test_non_consistent, 0, 3);
	tcase_add_loop_test(tc, test_write_combine, 0, 3);
	tcase_add_loop_test(tc, test_nomap_cookie, 0, 3);
	tcase_add_loop_test(tc, test_nomap_repeat_attr, 0, 3);
	tcase_add_loop_test(tc, test_repeat_attrs_as_4_14, 0, 6);
	tcase_add_loop_test(tc, test_mmap_nomap, 0, 3);
	tcase_add_loop_test(tc, test_mmap_coherent, 0, 3);
	tcase_add_loop_test(tc, test_other_attrs, 0, 3);
	tcase_add_loop_test(tc, test_dma_offset, 0, 3);
	tcase_add_loop_test(tc, test_single_pages_iommu, 0, 3);
	tcase_add_test(tc, test_privileged_iommu);
	tcase_add_test(tc, test_iommu_coherent_mask);
	suite_add_tcase(s, tc);

	tcase_add_checked_fixture(tc1, setup_default, teardown);
	tcase_add_test(tc1, test_bad_frees);
	tcase_add_test(tc1, test_bad_args);
	tcase_add_test(tc1, test_no_warn);
	tcase_add_test(tc1, test_atomic_context);
	tcase_add_test(tc1, test_dmam);
	tcase_add_test(tc1, test_leak_at_destroy);
	tcase_add_test(tc1, test_get_sgtable);
	tcase_add_test(tc1, test_threads);
	suite_add_tcase(s, tc1);
	return s;
}

int main(void)
{
	return check_run(alloc_suite());
}
