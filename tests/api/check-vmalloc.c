// SPDX-License-Identifier: MIT
/*
 * check-vmalloc.c - vmalloc() memory and "user" mappings made by mmap
 * handlers written as for the kernel.
 *
 *   - vmalloc()/vzalloc() memory is outside the linear map: a
 *     dma_map_single() of it is exactly one map-invalid-memory report and
 *     fails; virt_to_page() refuses it; vmalloc_to_page() gives the real
 *     DRAM pages, whose linear-map view shows the same bytes, so a
 *     scatterlist built page by page (as drivers do) carries the data to
 *     and from a device, on every profile and backend;
 *   - vfree() of anything else is a bad-free report;
 *   - an mmap handler with remap_pfn_range() (cacheable and
 *     pgprot_noncached()), one with dma_mmap_coherent(), and one with
 *     remap_vmalloc_range(): the "user" reads and writes through the
 *     mapping and sees what the kernel and the device wrote; vm_ops->close
 *     runs at unmap.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <linux/dma-mapping.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include <dmaemu/cpu.h>
#include <dmaemu/device.h>
#include <dmaemu/machine.h>
#include <dmaemu/report.h>
#include <dmaemu/testing.h>
#include <dmaemu/vma.h>

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
static struct device *dev;
static uint64_t expected;

static void make(const char *opts)
{
	m = fixture_machine("mem=16M:%s", opts);
	dd = dmaemu_device_create(m, "dev0", NULL, NULL);
	ck_assert_ptr_nonnull(dd);
	dev = dmaemu_device_to_dev(dd);
	expected = 0;
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
/* vmalloc memory                                                         */
/* ---------------------------------------------------------------------- */

/* Mapping a vmalloc buffer as one: exactly one map-invalid-memory. */
START_TEST(test_vmalloc_wrongly_mapped)
{
	struct dmaemu_report r;
	struct dmaemu_addr_info ai;
	uint8_t *v;
	dma_addr_t h;

	make(configs[_i]);
	v = vmalloc(3 * PAGE_SIZE);
	ck_assert_ptr_nonnull(v);
	ck_assert(is_vmalloc_addr(v));
	ck_assert(is_vmalloc_addr(v + 3 * PAGE_SIZE - 1));
	ck_assert_int_eq(dmaemu_addr_info(v, &ai), 0);
	ck_assert_int_eq(ai.region, DMAEMU_REGION_VMALLOC);
	h = dma_map_single(dev, v, 3 * PAGE_SIZE, DMA_TO_DEVICE);
	ck_assert_uint_eq(h, DMA_MAPPING_ERROR);
	ck_assert_uint_eq(count("map-invalid-memory"), 1);
	ck_assert_uint_eq(count(NULL), 1);
	ck_assert_int_eq(dmaemu_report_get(m, 0, &r), 0);
	ck_assert_ptr_nonnull(strstr(r.text, "vmalloc() memory"));
	ck_assert_ptr_nonnull(strstr(r.text, "vmalloc_to_page()"));
	/* Nor is it in the linear map for the page helpers. */
	ck_assert_ptr_null(virt_to_page(v));
	ck_assert_uint_eq(count("bad-argument"), 1);
	vfree(v);
	expected = 2;
}
END_TEST

/* A scatterlist built with vmalloc_to_page(), both directions. */
START_TEST(test_vmalloc_sg)
{
	enum { NPAGES = 4, SIZE = NPAGES * PAGE_SIZE - 100 };
	struct scatterlist sg[NPAGES];
	struct scatterlist *s;
	uint8_t *v, buf[PAGE_SIZE];
	unsigned int off;
	int i;
	int n;

	make(configs[_i]);
	v = vzalloc(SIZE);
	ck_assert_ptr_nonnull(v);
	ck_assert(fixture_all(v, 0, SIZE));
	for (i = 0; i < SIZE; i++)
		v[i] = (uint8_t)(i * 7 + 1);
	/* Each page: the real page, and its linear-map view aliases. */
	for (i = 0; i < NPAGES; i++) {
		struct page *p = vmalloc_to_page(v + i * PAGE_SIZE + 5);
		uint8_t *lin;

		ck_assert_ptr_nonnull(p);
		lin = page_address(p);
		ck_assert_ptr_ne(lin, v + i * PAGE_SIZE);
		ck_assert_int_eq(lin[5], v[i * PAGE_SIZE + 5]);
		ck_assert_uint_eq(vmalloc_to_pfn(v + i * PAGE_SIZE),
				  page_to_pfn(p));
	}
	/* To the device, page by page, as a driver builds it. */
	sg_init_table(sg, NPAGES);
	for (i = 0, off = 0; i < NPAGES; i++, off += PAGE_SIZE)
		sg_set_page(&sg[i], vmalloc_to_page(v + off),
			    i == NPAGES - 1 ? SIZE - off : PAGE_SIZE, 0);
	n = dma_map_sg(dev, sg, NPAGES, DMA_TO_DEVICE);
	ck_assert_int_ge(n, 1);
	off = 0;
	for_each_sg (sg, s, n, i) {
		uint8_t got[PAGE_SIZE * NPAGES];
		unsigned int k;

		ck_assert_uint_le(sg_dma_len(s), sizeof(got));
		ck_assert_int_eq(dmaemu_dma_read(dd, sg_dma_address(s), got,
						 sg_dma_len(s)),
				 0);
		for (k = 0; k < sg_dma_len(s); k++)
			ck_assert_uint_eq(got[k], (uint8_t)((off + k) * 7 + 1));
		off += sg_dma_len(s);
	}
	ck_assert_uint_eq(off, SIZE);
	dma_unmap_sg(dev, sg, NPAGES, DMA_TO_DEVICE);

	/* From the device into page 2; the CPU reads it through v. */
	n = dma_map_sg(dev, sg, NPAGES, DMA_FROM_DEVICE);
	ck_assert_int_ge(n, 1);
	memset(buf, 0xab, sizeof(buf));
	/* Byte 2 * PAGE_SIZE of the list, in whichever segment holds it
	 * (an IOMMU may have merged entries). */
	off = 0;
	for_each_sg (sg, s, n, i) {
		if (2 * PAGE_SIZE < off + sg_dma_len(s)) {
			ck_assert_int_eq(
				dmaemu_dma_write(dd,
						 sg_dma_address(s) +
							 (2 * PAGE_SIZE - off),
						 buf, PAGE_SIZE),
				0);
			break;
		}
		off += sg_dma_len(s);
	}
	ck_assert_int_lt(i, n);
	dma_unmap_sg(dev, sg, NPAGES, DMA_FROM_DEVICE);
	memset(buf, 0, sizeof(buf));
	dmaemu_cpu_read(buf, v + 2 * PAGE_SIZE, PAGE_SIZE);
	ck_assert(fixture_all(buf, 0xab, PAGE_SIZE));
	vfree(v);
}
END_TEST

/*
 * The cache model sees CPU accesses through a vmalloc address as through
 * the linear map: a load of a resident line whose DRAM changed under it
 * is a stale-cpu-read (arm, arm64), whichever view it goes through.
 */
START_TEST(test_vmalloc_stale_read)
{
	uint8_t *v, *lin, tmp[8], dev_bytes[8];
	struct dmaemu_report r;
	uint64_t phys;

	make(configs[_i]);
	v = vzalloc(PAGE_SIZE);
	ck_assert_ptr_nonnull(v);
	lin = page_address(vmalloc_to_page(v));
	phys = page_to_phys(vmalloc_to_page(v));
	/* The CPU reads the line through the vmalloc view: resident. */
	ck_assert_int_eq(dmaemu_cpu_read(tmp, v + 128, 8), 0);
	ck_assert(fixture_all(tmp, 0, 8));
	/* Behind its back, DRAM changes (no sync, no invalidate). */
	memset(dev_bytes, 0xee, sizeof(dev_bytes));
	ck_assert_int_eq(dmaemu_dram_write(m, phys + 128, dev_bytes, 8), 0);
	ck_assert_int_eq(dmaemu_cpu_read(tmp, v + 128, 8), 0);
	ck_assert(fixture_all(tmp, 0, 8)); /* the cache's stale copy */
	ck_assert_uint_eq(count("stale-cpu-read"), 1);
	ck_assert_int_eq(dmaemu_report_get(m, 0, &r), 0);
	ck_assert_uint_eq(r.phys & ~63ULL, phys + 128);
	/* The linear view of the same line is the same line. */
	ck_assert_int_eq(dmaemu_cpu_read(tmp, lin + 128, 8), 0);
	ck_assert(fixture_all(tmp, 0, 8));
	ck_assert_uint_eq(count("stale-cpu-read"), 2);
	vfree(v);
	expected = 2;
}
END_TEST

/* vmap() of scattered pages: one contiguous view; vunmap() keeps them. */
START_TEST(test_vmap)
{
	struct page *pages[3], *spare;
	uint8_t *v;
	uint64_t before;
	int i;

	make(configs[_i % 3]);
	for (i = 0; i < 3; i++) {
		pages[i] = alloc_page(GFP_KERNEL);
		ck_assert_ptr_nonnull(pages[i]);
		fixture_cpu_fill(page_address(pages[i]), 0x30 + i, PAGE_SIZE);
	}
	/* Out of order, so the view is certainly not the linear map. */
	spare = pages[0];
	pages[0] = pages[2];
	pages[2] = spare;
	v = vmap(pages, 3, VM_MAP, PAGE_KERNEL);
	ck_assert_ptr_nonnull(v);
	ck_assert(is_vmalloc_addr(v));
	ck_assert(fixture_all(v, 0x32, PAGE_SIZE));
	ck_assert(fixture_all(v + PAGE_SIZE, 0x31, PAGE_SIZE));
	ck_assert(fixture_all(v + 2 * PAGE_SIZE, 0x30, PAGE_SIZE));
	ck_assert_ptr_eq(vmalloc_to_page(v + PAGE_SIZE + 9), pages[1]);
	v[2 * PAGE_SIZE + 1] = 0x7e;
	ck_assert_uint_eq(((uint8_t *)page_address(pages[2]))[1], 0x7e);

	before = count("bad-argument");
	ck_assert_ptr_null(
		vmap(pages, 3, VM_MAP, pgprot_writecombine(PAGE_KERNEL)));
	ck_assert_ptr_null(vmap(NULL, 3, VM_MAP, PAGE_KERNEL));
	ck_assert_uint_eq(count("bad-argument") - before, 2);
	vunmap(v);
	ck_assert_ptr_null(vmalloc_to_page(v));
	/* The pages are still the caller's. */
	ck_assert_uint_eq(((uint8_t *)page_address(pages[2]))[1], 0x7e);
	/* vunmap() of a vmalloc() area: refused. */
	v = vmalloc(PAGE_SIZE);
	vunmap(v);
	ck_assert_uint_eq(count("bad-free"), 1);
	vfree(v);
	for (i = 0; i < 3; i++)
		__free_page(pages[i]);
	expected = 3;
}
END_TEST

START_TEST(test_vmalloc_misuse)
{
	uint8_t *k, *v, *w;
	uint64_t before;

	make("profile=arm64");
	k = kmalloc(64, GFP_KERNEL);
	v = vmalloc(PAGE_SIZE);
	ck_assert(!is_vmalloc_addr(k));
	ck_assert(!is_vmalloc_addr(&before));
	ck_assert(is_vmalloc_addr(v));
	vfree(NULL);
	before = count("bad-free");
	vfree(k);      /* kmalloc memory */
	vfree(v + 64); /* not the start */
	ck_assert_uint_eq(count("bad-free") - before, 2);
	ck_assert_ptr_null(vmalloc_to_page(k));
	ck_assert_uint_eq(count("bad-argument"), 1);
	ck_assert_ptr_null(vmalloc(0));
	/* A guard page follows each area: the next area does not touch. */
	w = vmalloc(PAGE_SIZE);
	ck_assert_ptr_nonnull(w);
	ck_assert(w < v || w >= v + 2 * PAGE_SIZE);
	vfree(v);
	ck_assert(is_vmalloc_addr(v)); /* the area, not a live allocation */
	ck_assert_ptr_null(vmalloc_to_page(v));
	vfree(v); /* twice */
	ck_assert_uint_eq(count("bad-free") - before, 3);
	vfree(w);
	kfree(k);
	expected = 4;
}
END_TEST

/* ---------------------------------------------------------------------- */
/* mmap handlers                                                          */
/* ---------------------------------------------------------------------- */

static int closed;

static void drv_vma_close(struct vm_area_struct *vma)
{
	ck_assert_ptr_nonnull(vma->vm_private_data);
	closed++;
}

static const struct vm_operations_struct drv_vm_ops = {
	.close = drv_vma_close,
};

/* The driver's buffer for the remap_pfn_range() handler. */
static struct page *drv_pages;

/* A driver's mmap handler, as a character device would have it. */
static int drv_mmap_pfn(void *filp, struct vm_area_struct *vma)
{
	unsigned long size = vma->vm_end - vma->vm_start;

	(void)filp;
	if (vma->vm_pgoff + (size >> PAGE_SHIFT) > 2)
		return -EINVAL;
	vma->vm_ops = &drv_vm_ops;
	vma->vm_private_data = drv_pages;
	return remap_pfn_range(vma, vma->vm_start,
			       page_to_pfn(drv_pages) + vma->vm_pgoff, size,
			       vma->vm_page_prot);
}

START_TEST(test_mmap_remap_pfn_range)
{
	struct vm_area_struct vma, vu, bad;
	uint8_t *kern, *user, tmp[16];
	dma_addr_t h;
	uint64_t before;

	make(configs[_i % 3]);
	closed = 0;
	drv_pages = alloc_pages(GFP_KERNEL, 1);
	ck_assert_ptr_nonnull(drv_pages);
	kern = page_address(drv_pages);
	fixture_cpu_fill(kern, 0x11, 2 * PAGE_SIZE);

	/* Cacheable: the user sees the CPU's view, both ways. */
	memset(&vma, 0, sizeof(vma));
	vma.vm_end = 2 * PAGE_SIZE;
	ck_assert_int_eq(drv_mmap_pfn(NULL, &vma), 0);
	ck_assert_uint_ne(vma.vm_start, 0);
	ck_assert_uint_eq(vma.vm_end - vma.vm_start, 2 * PAGE_SIZE);
	ck_assert(vma.vm_flags & VM_PFNMAP);
	ck_assert(vma.vm_flags & VM_IO);
	user = (uint8_t *)vma.vm_start;
	ck_assert(fixture_all(user, 0x11, 2 * PAGE_SIZE));
	user[PAGE_SIZE + 3] = 0x77;
	ck_assert_uint_eq(kern[PAGE_SIZE + 3], 0x77);

	/* Page 1 only, uncached: the user sees DRAM; a device write shows
	 * at once, while the CPU's cached view needs its sync. */
	memset(&vu, 0, sizeof(vu));
	vu.vm_end = PAGE_SIZE;
	vu.vm_pgoff = 1;
	vu.vm_page_prot = pgprot_noncached(vu.vm_page_prot);
	ck_assert_int_eq(drv_mmap_pfn(NULL, &vu), 0);
	user = (uint8_t *)vu.vm_start;
	ck_assert_uint_eq(user[3], 0x77); /* cleaned before the map */
	h = dma_map_single(dev, kern + PAGE_SIZE, 16, DMA_FROM_DEVICE);
	ck_assert(!dma_mapping_error(dev, h));
	memset(tmp, 0x99, sizeof(tmp));
	ck_assert_int_eq(dmaemu_dma_write(dd, h, tmp, 16), 0);
	ck_assert_uint_eq(user[0], 0x99);
	dma_unmap_single(dev, h, 16, DMA_FROM_DEVICE);
	ck_assert_uint_eq(kern[PAGE_SIZE], 0x99);

	/* Out of the buffer: the handler's own -EINVAL; a range outside
	 * the vma: reported. */
	memset(&bad, 0, sizeof(bad));
	bad.vm_end = 2 * PAGE_SIZE;
	bad.vm_pgoff = 1;
	ck_assert_int_eq(drv_mmap_pfn(NULL, &bad), -EINVAL);
	before = count("bad-argument");
	bad.vm_pgoff = 0;
	ck_assert_int_eq(remap_pfn_range(&bad, PAGE_SIZE,
					 page_to_pfn(drv_pages), 2 * PAGE_SIZE,
					 bad.vm_page_prot),
			 -EINVAL);
	ck_assert_uint_eq(count("bad-argument") - before, 1);
	ck_assert_ptr_null(bad.dmaemu);

	/* A handler that maps page by page, the second page first, into a
	 * vma that does not start at 0: the first call moves the area, an
	 * address relative to the old start moves with it, the second call
	 * uses the new start. */
	{
		struct vm_area_struct vp;
		unsigned long old_start = 0x40000000UL;

		memset(&vp, 0, sizeof(vp));
		vp.vm_start = old_start;
		vp.vm_end = old_start + 2 * PAGE_SIZE;
		ck_assert_int_eq(remap_pfn_range(&vp, old_start + PAGE_SIZE,
						 page_to_pfn(drv_pages) + 1,
						 PAGE_SIZE, vp.vm_page_prot),
				 0);
		ck_assert_uint_ne(vp.vm_start, old_start);
		ck_assert_int_eq(remap_pfn_range(&vp, vp.vm_start,
						 page_to_pfn(drv_pages),
						 PAGE_SIZE, vp.vm_page_prot),
				 0);
		user = (uint8_t *)vp.vm_start;
		ck_assert_uint_eq(user[0], kern[0]);
		ck_assert_uint_eq(user[PAGE_SIZE], 0x99);
		dmaemu_vma_unmap(&vp);
		ck_assert_uint_eq(vp.vm_start, old_start);
	}

	dmaemu_vma_unmap(&vma);
	dmaemu_vma_unmap(&vu);
	ck_assert_int_eq(closed, 2);
	ck_assert_uint_eq(vma.vm_start, 0);
	__free_pages(drv_pages, 1);
	expected = 1;
}
END_TEST

/* A driver's mmap handler for its coherent buffer. */
static void *coh_buf;
static dma_addr_t coh_dma;

static int drv_mmap_coherent(void *filp, struct vm_area_struct *vma)
{
	(void)filp;
	vma->vm_ops = &drv_vm_ops;
	vma->vm_private_data = coh_buf;
	return dma_mmap_coherent(dev, vma, coh_buf, coh_dma,
				 vma->vm_end - vma->vm_start);
}

START_TEST(test_mmap_dma_coherent)
{
	struct vm_area_struct vma;
	uint8_t frame[256], *user;

	make(configs[_i % 3]);
	closed = 0;
	coh_buf = dma_alloc_coherent(dev, 2 * PAGE_SIZE, &coh_dma, GFP_KERNEL);
	ck_assert_ptr_nonnull(coh_buf);
	memset(&vma, 0, sizeof(vma));
	vma.vm_end = 2 * PAGE_SIZE;
	ck_assert_int_eq(drv_mmap_coherent(NULL, &vma), 0);
	user = (uint8_t *)vma.vm_start;
	/* The device fills a frame; the user reads it with no sync. */
	memset(frame, 0x3c, sizeof(frame));
	ck_assert_int_eq(
		dmaemu_dma_write(dd, coh_dma + PAGE_SIZE, frame, sizeof(frame)),
		0);
	ck_assert(fixture_all(user + PAGE_SIZE, 0x3c, sizeof(frame)));
	/* And what the user writes, the device reads. */
	user[10] = 0x5a;
	ck_assert_int_eq(dmaemu_dma_read(dd, coh_dma, frame, 16), 0);
	ck_assert_uint_eq(frame[10], 0x5a);
	dmaemu_vma_unmap(&vma);
	ck_assert_int_eq(closed, 1);
	dma_free_coherent(dev, 2 * PAGE_SIZE, coh_buf, coh_dma);
}
END_TEST

/* remap_vmalloc_range(): only vmalloc_user() areas, as in Linux. */
START_TEST(test_mmap_vmalloc)
{
	struct vm_area_struct vma;
	uint8_t *v, *plain, *user;
	uint64_t before;

	make(configs[_i % 3]);
	v = vmalloc_user(3 * PAGE_SIZE);
	ck_assert_ptr_nonnull(v);
	ck_assert(fixture_all(v, 0, 3 * PAGE_SIZE));
	memset(v + PAGE_SIZE, 0x42, 2 * PAGE_SIZE);
	memset(&vma, 0, sizeof(vma));
	vma.vm_end = 2 * PAGE_SIZE;
	ck_assert_int_eq(remap_vmalloc_range(&vma, v, 1), 0);
	user = (uint8_t *)vma.vm_start;
	ck_assert(fixture_all(user, 0x42, 2 * PAGE_SIZE));
	user[7] = 0x24;
	ck_assert_uint_eq(v[PAGE_SIZE + 7], 0x24);
	ck_assert(vma.vm_flags & VM_DONTEXPAND);
	ck_assert(!(vma.vm_flags & VM_PFNMAP));
	dmaemu_vma_unmap(&vma);

	/* Past the end, or a plain vmalloc(): refused and reported. */
	plain = vmalloc(PAGE_SIZE);
	before = count("bad-argument");
	memset(&vma, 0, sizeof(vma));
	vma.vm_end = 2 * PAGE_SIZE;
	ck_assert_int_eq(remap_vmalloc_range(&vma, v, 2), -EINVAL);
	ck_assert_int_eq(remap_vmalloc_range(&vma, plain, 0), -EINVAL);
	ck_assert_uint_eq(count("bad-argument") - before, 2);
	ck_assert_ptr_null(vma.dmaemu);
	vfree(plain);
	vfree(v);
	expected = 2;
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("vmalloc");
	TCase *tc = tcase_create("vmalloc");

	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_vmalloc_wrongly_mapped, 0, (int)NCONFIGS);
	tcase_add_loop_test(tc, test_vmalloc_sg, 0, (int)NCONFIGS);
	tcase_add_test(tc, test_vmalloc_misuse);
	tcase_add_loop_test(tc, test_vmap, 0, 3);
	tcase_add_loop_test(tc, test_vmalloc_stale_read, 0, 2);
	tcase_add_loop_test(tc, test_mmap_remap_pfn_range, 0, 3);
	tcase_add_loop_test(tc, test_mmap_dma_coherent, 0, 3);
	tcase_add_loop_test(tc, test_mmap_vmalloc, 0, 3);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(suite());
}
