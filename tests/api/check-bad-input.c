// SPDX-License-Identifier: MIT
/*
 * check-bad-input.c - bad input to every exported function of libdmaemu:
 * NULL and foreign pointers (memory the library did not hand out, a
 * struct device it did not make), destroyed objects (a machine and a
 * device after their destroy), sizes of 0 and SIZE_MAX, address ranges
 * that wrap, and sleeping calls in interrupt context.  Each must give a
 * clear error return or a report, never a crash (each entry runs in its
 * own process, so a crash fails that entry only).
 *
 * The table has one entry per exported function; test_table_complete
 * reads the library's dynamic symbols (nm -D) and fails for a function
 * that has no entry, so new API gets one.  A function that takes nothing
 * that could be wrong has an entry with the reason.
 *
 * The macros of an entry:
 *   REP(stmt)        stmt makes at least one report
 *   RET(expr, want)  expr returns want (an error value)
 *   REP(RET(expr, want))  both
 *   QUIET(stmt)      legal by contract (kfree(NULL)): no report
 *   SILENT(stmt)     no crash, but no report or error either (a gap)
 */
#include "config.h"

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dmaemu/context.h>
#include <dmaemu/cpu.h>
#include <dmaemu/device.h>
#include <dmaemu/fault.h>
#include <dmaemu/machine.h>
#include <dmaemu/mm.h>
#include <dmaemu/net.h>
#include <dmaemu/report.h>
#include <dmaemu/sched.h>
#include <dmaemu/seeing.h>
#include <dmaemu/sync.h>
#include <dmaemu/testing.h>
#include <dmaemu/trace.h>
#include <dmaemu/vma.h>
#include <asm/dma.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/dmapool.h>
#include <linux/etherdevice.h>
#include <linux/gfp.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/jiffies.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/clk.h>
#include <linux/hrtimer.h>
#include <linux/mii.h>
#include <linux/netdevice.h>
#include <linux/pci.h>
#include <linux/platform_device.h>
#include <linux/printk.h>
#include <linux/scatterlist.h>
#include <linux/skbuff.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/timer.h>
#include <linux/vmalloc.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include "check-run.h"

/* What every entry gets. */
static struct dmaemu_machine *m;      /* live, current */
static struct dmaemu_device *d;	      /* live, on m */
static struct device *dev;	      /* d's */
static struct dmaemu_machine *dead_m; /* destroyed */
static struct dmaemu_device *dead_d;  /* destroyed */
static struct device fdev;	      /* foreign: not made by the library */
static char host[256] __attribute__((aligned(64))); /* foreign memory */

static uint64_t nrep(void)
{
	return dmaemu_report_count(m, NULL);
}

#define REP(stmt)                                                       \
	do {                                                            \
		uint64_t _b = nrep();                                   \
		stmt;                                                   \
		ck_assert_msg(nrep() > _b, "no report for: %s", #stmt); \
	} while (0)
#define RET(expr, want)                                                \
	do {                                                           \
		long long _r = (long long)(expr);                      \
		ck_assert_msg(_r == (long long)(want),                 \
			      "%s returned %lld, not %lld", #expr, _r, \
			      (long long)(want));                      \
	} while (0)
#define QUIET(stmt)                                                     \
	do {                                                            \
		uint64_t _b = nrep();                                   \
		stmt;                                                   \
		ck_assert_msg(nrep() == _b, "a report for: %s", #stmt); \
	} while (0)
/* No crash, and today neither a report nor an error: a gap, listed in
 * docs/reliability.md ("Silent on bad input"). */
#define SILENT(stmt) stmt
#define PNULL(expr) RET((uintptr_t)(expr), 0)
#define DMAERR (~(dma_addr_t)0)
/* SIZE_MAX, hidden from the compiler's object-size warnings. */
static volatile size_t size_max = SIZE_MAX;
#define BIG ((size_t)size_max)

static void setup(void)
{
	struct dmaemu_device *x;

	unsetenv("DMAEMU_OPTIONS");
	dead_m = dmaemu_machine_create("mem=16M:log_path=/dev/null");
	ck_assert_ptr_nonnull(dead_m);
	m = dmaemu_machine_create("mem=16M:log_path=/dev/null");
	ck_assert_ptr_nonnull(m);
	/* The destroyed machine and device are destroyed last, and no entry
	 * makes a machine or a device before it uses them: their addresses
	 * are not those of live ones. */
	d = dmaemu_device_create(m, "bad0", NULL, NULL);
	ck_assert_ptr_nonnull(d);
	dev = dmaemu_device_to_dev(d);
	x = dmaemu_device_create(m, "dead0", NULL, NULL);
	ck_assert_ptr_nonnull(x);
	dmaemu_device_destroy(x);
	dead_d = x;
	dmaemu_machine_destroy(dead_m);
	dmaemu_machine_set_current(m);
	memset(&fdev, 0, sizeof(fdev));
	dmaemu_report_clear(m);
}

static void teardown(void)
{
	dmaemu_device_destroy(d);
	dmaemu_machine_destroy(m);
	m = NULL;
}

static void *kbuf(size_t n)
{
	void *p = kmalloc(n, GFP_KERNEL);

	ck_assert_ptr_nonnull(p);
	return p;
}

/* ---------------------------------------------------------------------- */
/* The entries                                                            */
/* ---------------------------------------------------------------------- */

static void *thread_fn(void *arg)
{
	return arg;
}

static irqreturn_t irq_fn(int irq, void *data)
{
	(void)irq;
	(void)data;
	return IRQ_NONE;
}

/* Page allocator */
static void e___free_pages(void)
{
	struct page *pg = alloc_pages(GFP_KERNEL, 0);

	REP(__free_pages(NULL, 0));
	REP(__free_pages((struct page *)(void *)host, 0));
	__free_pages(pg, 0);
	REP(__free_pages(pg, 0)); /* twice */
}
static void e___get_free_pages(void)
{
	RET(__get_free_pages(GFP_KERNEL, 64), 0);
	RET(__get_free_pages(GFP_KERNEL, UINT_MAX), 0);
}
static void e_alloc_pages(void)
{
	PNULL(alloc_pages(GFP_KERNEL, 64));
	PNULL(alloc_pages(GFP_KERNEL, UINT_MAX));
}
static void e_alloc_pages_exact(void)
{
	PNULL(alloc_pages_exact(BIG, GFP_KERNEL));
}
static void e_alloc_pages_node(void)
{
	PNULL(alloc_pages_node(0, GFP_KERNEL, UINT_MAX));
	PNULL(alloc_pages_node(INT_MAX, GFP_KERNEL, UINT_MAX));
}
static void e_free_pages(void)
{
	QUIET(free_pages(0, 0));
	REP(free_pages((unsigned long)host, 0));
	REP(free_pages(~0UL, 3));
}
static void e_free_pages_exact(void)
{
	void *p = alloc_pages_exact(5000, GFP_KERNEL);

	SILENT(free_pages_exact(NULL, 4096));
	REP(free_pages_exact(host, 4096));
	free_pages_exact(p, 5000);
	REP(free_pages_exact(p, 5000));
}
static void e_get_zeroed_page(void)
{
	unsigned long p;

	/* gfp is the only input: unknown bits are reported. */
	REP(p = get_zeroed_page(0xffffffffu));
	if (p)
		free_page(p);
}
static void e_split_page(void)
{
	REP(split_page(NULL, 1));
	REP(split_page((struct page *)(void *)host, 1));
}
static void e_page_address(void)
{
	PNULL(page_address(NULL));
	PNULL(page_address((struct page *)(void *)host));
}
static void e_pfn_to_page(void)
{
	PNULL(pfn_to_page(~0UL));
}
static void e_pfn_valid(void)
{
	RET(pfn_valid(~0UL), 0);
	RET(pfn_valid(0), 0);
}
static void e_virt_to_page(void)
{
	PNULL(virt_to_page(NULL));
	PNULL(virt_to_page(host));
}
static void e_virt_to_phys(void)
{
	REP(virt_to_phys(NULL));
	REP(virt_to_phys(host));
}
static void e_phys_to_virt(void)
{
	PNULL(phys_to_virt(~(phys_addr_t)0));
}
static void e_virt_addr_valid(void)
{
	RET(virt_addr_valid(NULL), 0);
	RET(virt_addr_valid(host), 0);
}

/* Slab */
static void e_kmalloc(void)
{
	PNULL(kmalloc(BIG, GFP_KERNEL));
	QUIET(kfree(kmalloc(0, GFP_KERNEL))); /* ZERO_SIZE_PTR */
}
static void e_kzalloc(void)
{
	PNULL(kzalloc(BIG, GFP_KERNEL));
}
static void e_kcalloc(void)
{
	PNULL(kcalloc(BIG, 2, GFP_KERNEL));
	PNULL(kcalloc(2, BIG, GFP_KERNEL));
}
static void e_kmalloc_array(void)
{
	PNULL(kmalloc_array(BIG / 2 + 2, 2, GFP_KERNEL));
}
static void e_kmalloc_node(void)
{
	PNULL(kmalloc_node(BIG, GFP_KERNEL, INT_MAX));
}
static void e_kvmalloc(void)
{
	PNULL(kvmalloc(BIG, GFP_KERNEL));
}
static void e_kvzalloc(void)
{
	PNULL(kvzalloc(BIG, GFP_KERNEL));
}
static void e_kvmalloc_array(void)
{
	PNULL(kvmalloc_array(BIG, BIG, GFP_KERNEL));
}
static void e_kfree(void)
{
	void *p = kbuf(32);

	QUIET(kfree(NULL));
	REP(kfree(host));
	REP(kfree((char *)p + 1));
	kfree(p);
	REP(kfree(p));
}
static void e_kzfree(void)
{
	void *p = kbuf(32);

	QUIET(kzfree(NULL));
	REP(kzfree(host));
	kzfree(p);
	REP(kzfree(p));
}
static void e_kvfree(void)
{
	void *p = kvmalloc(32, GFP_KERNEL);

	QUIET(kvfree(NULL));
	REP(kvfree(host));
	kvfree(p);
	REP(kvfree(p));
}
static void e_ksize(void)
{
	void *p = kbuf(32);

	RET(ksize(NULL), 0);
	RET(ksize(host), 0);
	kfree(p);
	RET(ksize(p), 0);
}
static void e_krealloc(void)
{
	void *p = kbuf(32);

	PNULL(krealloc(p, BIG, GFP_KERNEL)); /* p stays */
	PNULL(krealloc(host, 64, GFP_KERNEL));
	kfree(p);
	PNULL(krealloc(p, 64, GFP_KERNEL));
}
static void e_kmemdup(void)
{
	PNULL(kmemdup(host, BIG, GFP_KERNEL));
	PNULL(kmemdup(NULL, 16, GFP_KERNEL));
}
static void e_kstrdup(void)
{
	QUIET(PNULL(kstrdup(NULL, GFP_KERNEL)));
}
static void e_kstrndup(void)
{
	char *s;

	QUIET(PNULL(kstrndup(NULL, 4, GFP_KERNEL)));
	s = kstrndup("abc", BIG, GFP_KERNEL);
	ck_assert_str_eq(s, "abc");
	kfree(s);
}
static void e_kasprintf(void)
{
	REP(PNULL(kasprintf(GFP_KERNEL, NULL)));
}
/* NULL formats on purpose: no format attribute, no literal. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
static char *call_kvasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = kvasprintf(GFP_KERNEL, fmt, ap);
	va_end(ap);
	return s;
}
#pragma GCC diagnostic pop
static void e_kvasprintf(void)
{
	REP(PNULL(call_kvasprintf(NULL)));
}

/* devres */
static void e_devm_kmalloc(void)
{
	PNULL(devm_kmalloc(NULL, 16, GFP_KERNEL));
	PNULL(devm_kmalloc(&fdev, 16, GFP_KERNEL));
	PNULL(devm_kmalloc(dev, BIG, GFP_KERNEL));
}
static void e_devm_kzalloc(void)
{
	PNULL(devm_kzalloc(NULL, 16, GFP_KERNEL));
	PNULL(devm_kzalloc(&fdev, 16, GFP_KERNEL));
	PNULL(devm_kzalloc(dev, BIG, GFP_KERNEL));
}
static void e_devm_kfree(void)
{
	void *p = kbuf(16);

	REP(devm_kfree(NULL, p));
	REP(devm_kfree(&fdev, p));
	REP(devm_kfree(dev, p)); /* not a devm allocation */
	REP(devm_kfree(dev, host));
	kfree(p);
}
static void e_devm_ioremap_resource(void)
{
	struct resource r = {.start = 10, .end = 5, .flags = IORESOURCE_MEM};

	ck_assert(IS_ERR(devm_ioremap_resource(dev, NULL)));
	ck_assert(IS_ERR(devm_ioremap_resource(NULL, &r)));
	ck_assert(IS_ERR(devm_ioremap_resource(dev, &r)));
}

/* ioremap */
static void e_ioremap(void)
{
	PNULL(ioremap(~(phys_addr_t)0 - 10, 4096)); /* wraps */
	PNULL(ioremap(0x1000, 0));
}
static void e_ioremap_nocache(void)
{
	PNULL(ioremap_nocache(~(phys_addr_t)0 - 10, BIG));
}
static void e_ioremap_wc(void)
{
	PNULL(ioremap_wc(~(phys_addr_t)0 - 10, BIG));
}
static void e_iounmap(void)
{
	QUIET(iounmap(NULL));
	REP(iounmap(host));
}

/* DMA: allocation */
static void e_dma_alloc_attrs(void)
{
	dma_addr_t h;

	PNULL(dma_alloc_attrs(NULL, 64, &h, GFP_KERNEL, 0));
	PNULL(dma_alloc_attrs(&fdev, 64, &h, GFP_KERNEL, 0));
	PNULL(dma_alloc_attrs(dev, 0, &h, GFP_KERNEL, 0));
	PNULL(dma_alloc_attrs(dev, BIG, &h, GFP_KERNEL, 0));
	PNULL(dma_alloc_attrs(dev, 64, NULL, GFP_KERNEL, 0));
	PNULL(dma_alloc_attrs(dmaemu_device_to_dev(dead_d), 64, &h, GFP_KERNEL,
			      0));
}
static void e_dma_free_attrs(void)
{
	dma_addr_t h;
	void *p = dma_alloc_coherent(dev, 64, &h, GFP_KERNEL);

	REP(dma_free_attrs(NULL, 64, p, h, 0));
	REP(dma_free_attrs(&fdev, 64, p, h, 0));
	REP(dma_free_attrs(dev, 64, host, h, 0));
	REP(dma_free_attrs(dev, BIG, p, h, 0));
	dma_free_attrs(dev, 64, p, h, 0);
	REP(dma_free_attrs(dev, 64, p, h, 0));
}
static void e_dmam_alloc_attrs(void)
{
	dma_addr_t h;

	PNULL(dmam_alloc_attrs(NULL, 64, &h, GFP_KERNEL, 0));
	PNULL(dmam_alloc_attrs(&fdev, 64, &h, GFP_KERNEL, 0));
	PNULL(dmam_alloc_attrs(dev, BIG, &h, GFP_KERNEL, 0));
}
static void e_dmam_alloc_coherent(void)
{
	dma_addr_t h;

	PNULL(dmam_alloc_coherent(NULL, 64, &h, GFP_KERNEL));
	PNULL(dmam_alloc_coherent(dev, 64, NULL, GFP_KERNEL));
	PNULL(dmam_alloc_coherent(dev, BIG, &h, GFP_KERNEL));
}
static void e_dmam_free_coherent(void)
{
	dma_addr_t h;
	void *p = dma_alloc_coherent(dev, 64, &h, GFP_KERNEL);

	REP(dmam_free_coherent(NULL, 64, p, h));
	REP(dmam_free_coherent(dev, 64, p, h)); /* not managed */
	REP(dmam_free_coherent(dev, 64, host, 0));
	dma_free_coherent(dev, 64, p, h);
}
static void e_dma_mmap_attrs(void)
{
	struct vm_area_struct vma;

	memset(&vma, 0, sizeof(vma));
	ck_assert_int_lt(dma_mmap_attrs(NULL, &vma, host, 0, 64, 0), 0);
	ck_assert_int_lt(dma_mmap_attrs(dev, NULL, host, 0, 64, 0), 0);
	ck_assert_int_lt(dma_mmap_attrs(dev, &vma, host, 0, 64, 0), 0);
}
static void e_dma_get_sgtable_attrs(void)
{
	struct sg_table t;

	ck_assert_int_lt(dma_get_sgtable_attrs(NULL, &t, host, 0, 64, 0), 0);
	ck_assert_int_lt(dma_get_sgtable_attrs(dev, NULL, host, 0, 64, 0), 0);
	ck_assert_int_lt(dma_get_sgtable_attrs(dev, &t, host, 0, 64, 0), 0);
}
static void e_dma_cache_sync(void)
{
	REP(dma_cache_sync(NULL, host, 64, DMA_TO_DEVICE));
	REP(dma_cache_sync(dev, NULL, BIG, DMA_TO_DEVICE));
}

/*
 * DMA: the calls of the Linux 6.12 level.  This suite is built at 4.14,
 * where <linux/dma-mapping.h> makes each name a compile error; a program
 * that declares them itself reaches the library, which refuses each on a
 * kernel=4.14 machine with a report (and on any machine for a NULL
 * device).
 */
#undef dma_alloc_noncoherent
#undef dma_free_noncoherent
#undef dma_alloc_pages
#undef dma_free_pages
#undef dma_mmap_pages
#undef dma_alloc_noncontiguous
#undef dma_free_noncontiguous
#undef dma_vmap_noncontiguous
#undef dma_vunmap_noncontiguous
#undef dma_mmap_noncontiguous
#undef dma_map_sgtable
#undef dma_unmap_sgtable
#undef dma_sync_sgtable_for_cpu
#undef dma_sync_sgtable_for_device
#undef dma_need_sync
#undef dma_max_mapping_size
#undef dma_opt_mapping_size
void *dma_alloc_noncoherent(struct device *dev, size_t size,
			    dma_addr_t *dma_handle, enum dma_data_direction dir,
			    gfp_t gfp);
void dma_free_noncoherent(struct device *dev, size_t size, void *vaddr,
			  dma_addr_t dma_handle, enum dma_data_direction dir);
struct page *dma_alloc_pages(struct device *dev, size_t size,
			     dma_addr_t *dma_handle,
			     enum dma_data_direction dir, gfp_t gfp);
void dma_free_pages(struct device *dev, size_t size, struct page *page,
		    dma_addr_t dma_handle, enum dma_data_direction dir);
int dma_mmap_pages(struct device *dev, struct vm_area_struct *vma, size_t size,
		   struct page *page);
struct sg_table *dma_alloc_noncontiguous(struct device *dev, size_t size,
					 enum dma_data_direction dir, gfp_t gfp,
					 unsigned long attrs);
void dma_free_noncontiguous(struct device *dev, size_t size,
			    struct sg_table *sgt, enum dma_data_direction dir);
void *dma_vmap_noncontiguous(struct device *dev, size_t size,
			     struct sg_table *sgt);
void dma_vunmap_noncontiguous(struct device *dev, void *vaddr);
int dma_mmap_noncontiguous(struct device *dev, struct vm_area_struct *vma,
			   size_t size, struct sg_table *sgt);
int dma_map_sgtable(struct device *dev, struct sg_table *sgt,
		    enum dma_data_direction dir, unsigned long attrs);
void dma_unmap_sgtable(struct device *dev, struct sg_table *sgt,
		       enum dma_data_direction dir, unsigned long attrs);
void dma_sync_sgtable_for_cpu(struct device *dev, struct sg_table *sgt,
			      enum dma_data_direction dir);
void dma_sync_sgtable_for_device(struct device *dev, struct sg_table *sgt,
				 enum dma_data_direction dir);
bool dma_need_sync(struct device *dev, dma_addr_t dma_addr);
size_t dma_max_mapping_size(struct device *dev);
size_t dma_opt_mapping_size(struct device *dev);

static void e_dma_alloc_noncoherent(void)
{
	dma_addr_t h;

	REP(RET(dma_alloc_noncoherent(NULL, 64, &h, DMA_TO_DEVICE, GFP_KERNEL),
		NULL));
	REP(RET(dma_alloc_noncoherent(dev, 64, &h, DMA_TO_DEVICE, GFP_KERNEL),
		NULL));
}
static void e_dma_free_noncoherent(void)
{
	REP(dma_free_noncoherent(NULL, 64, host, 0, DMA_TO_DEVICE));
	REP(dma_free_noncoherent(dev, 64, host, 0, DMA_TO_DEVICE));
}
static void e_dma_alloc_pages(void)
{
	dma_addr_t h;

	REP(RET(dma_alloc_pages(dev, BIG, &h, DMA_NONE, GFP_KERNEL), NULL));
	REP(RET(dma_alloc_pages(dev, 64, &h, DMA_TO_DEVICE, GFP_KERNEL), NULL));
}
static void e_dma_free_pages(void)
{
	REP(dma_free_pages(dev, 64, NULL, 0, DMA_TO_DEVICE));
}
static void e_dma_mmap_pages(void)
{
	struct vm_area_struct vma = {.vm_end = 4096};

	REP(RET(dma_mmap_pages(dev, &vma, 64, NULL), -EINVAL));
	REP(RET(dma_mmap_pages(NULL, NULL, 64, NULL), -EINVAL));
}
static void e_dma_alloc_noncontiguous(void)
{
	REP(RET(dma_alloc_noncontiguous(dev, 64, DMA_TO_DEVICE, GFP_KERNEL, 0),
		NULL));
}
static void e_dma_free_noncontiguous(void)
{
	REP(dma_free_noncontiguous(dev, 64, NULL, DMA_TO_DEVICE));
}
static void e_dma_vmap_noncontiguous(void)
{
	REP(RET(dma_vmap_noncontiguous(dev, 64, NULL), NULL));
}
static void e_dma_vunmap_noncontiguous(void)
{
	REP(dma_vunmap_noncontiguous(dev, host));
}
static void e_dma_mmap_noncontiguous(void)
{
	REP(RET(dma_mmap_noncontiguous(dev, NULL, 64, NULL), -EINVAL));
}
static void e_dma_map_sgtable(void)
{
	REP(RET(dma_map_sgtable(dev, NULL, DMA_TO_DEVICE, 0), -EINVAL));
	REP(RET(dma_map_sgtable(NULL, NULL, DMA_TO_DEVICE, 0), -EINVAL));
}
static void e_dma_unmap_sgtable(void)
{
	REP(dma_unmap_sgtable(dev, NULL, DMA_TO_DEVICE, 0));
}
static void e_dma_sync_sgtable_for_cpu(void)
{
	REP(dma_sync_sgtable_for_cpu(dev, NULL, DMA_FROM_DEVICE));
}
static void e_dma_sync_sgtable_for_device(void)
{
	REP(dma_sync_sgtable_for_device(dev, NULL, DMA_TO_DEVICE));
}
static void e_dma_need_sync(void)
{
	REP(RET(dma_need_sync(dev, 0), true));
	REP(RET(dma_need_sync(NULL, 0), true));
}
static void e_dma_max_mapping_size(void)
{
	REP(RET(dma_max_mapping_size(dev), SIZE_MAX));
}
static void e_dma_opt_mapping_size(void)
{
	REP(RET(dma_opt_mapping_size(dev), SIZE_MAX));
}

/* DMA: masks and parameters */
static void e_dma_set_mask(void)
{
	RET(dma_set_mask(NULL, DMA_BIT_MASK(32)), -EINVAL);
	ck_assert_int_ne(dma_set_mask(&fdev, DMA_BIT_MASK(32)), 0);
	RET(dma_set_mask(dev, 0), -EIO);
}
static void e_dma_set_coherent_mask(void)
{
	ck_assert_int_ne(dma_set_coherent_mask(NULL, DMA_BIT_MASK(32)), 0);
	ck_assert_int_ne(dma_set_coherent_mask(&fdev, DMA_BIT_MASK(32)), 0);
	RET(dma_set_coherent_mask(dev, 0), -EIO);
}
static void e_dma_set_mask_and_coherent(void)
{
	ck_assert_int_ne(dma_set_mask_and_coherent(NULL, DMA_BIT_MASK(32)), 0);
	RET(dma_set_mask_and_coherent(dev, 0), -EIO);
}
static void e_dma_coerce_mask_and_coherent(void)
{
	ck_assert_int_ne(dma_coerce_mask_and_coherent(NULL, DMA_BIT_MASK(32)),
			 0);
	RET(dma_coerce_mask_and_coherent(dev, 0), -EIO);
}
static void e_dma_supported(void)
{
	RET(dma_supported(NULL, DMA_BIT_MASK(32)), 0);
	RET(dma_supported(dev, 0), 0);
}
static void e_dma_get_mask(void)
{
	/* Linux gives DMA_BIT_MASK(32) for a device without a mask. */
	QUIET(RET(dma_get_mask(NULL), DMA_BIT_MASK(32)));
	QUIET(RET(dma_get_mask(&fdev), DMA_BIT_MASK(32)));
}
static void e_dma_get_required_mask(void)
{
	REP(dma_get_required_mask(NULL));
}
static void e_dma_get_max_seg_size(void)
{
	SILENT((void)dma_get_max_seg_size(NULL));
}
static void e_dma_set_max_seg_size(void)
{
	ck_assert_int_ne(dma_set_max_seg_size(NULL, 4096), 0);
	ck_assert_int_ne(dma_set_max_seg_size(&fdev, 4096), 0);
}
static void e_dma_get_seg_boundary(void)
{
	SILENT((void)dma_get_seg_boundary(NULL));
}
static void e_dma_set_seg_boundary(void)
{
	ck_assert_int_ne(dma_set_seg_boundary(NULL, 0xfff), 0);
}

/* DMA: streaming mappings */
static void e_dma_map_single_attrs(void)
{
	char *p = kbuf(64);

	RET(dma_map_single_attrs(NULL, p, 64, DMA_TO_DEVICE, 0), DMAERR);
	RET(dma_map_single_attrs(&fdev, p, 64, DMA_TO_DEVICE, 0), DMAERR);
	RET(dma_map_single_attrs(dev, NULL, 64, DMA_TO_DEVICE, 0), DMAERR);
	RET(dma_map_single_attrs(dev, host, 64, DMA_TO_DEVICE, 0), DMAERR);
	RET(dma_map_single_attrs(dev, p, 0, DMA_TO_DEVICE, 0), DMAERR);
	RET(dma_map_single_attrs(dev, p, BIG, DMA_TO_DEVICE, 0), DMAERR);
	RET(dma_map_single_attrs(dev, p, 64, DMA_NONE, 0), DMAERR);
	RET(dma_map_single_attrs(dev, p, 64, (enum dma_data_direction)77, 0),
	    DMAERR);
	RET(dma_map_single_attrs(dmaemu_device_to_dev(dead_d), p, 64,
				 DMA_TO_DEVICE, 0),
	    DMAERR);
	kfree(p);
}
static void e_dma_map_page_attrs(void)
{
	struct page *pg = alloc_pages(GFP_KERNEL, 0);

	RET(dma_map_page_attrs(NULL, pg, 0, 64, DMA_TO_DEVICE, 0), DMAERR);
	RET(dma_map_page_attrs(dev, NULL, 0, 64, DMA_TO_DEVICE, 0), DMAERR);
	RET(dma_map_page_attrs(dev, (struct page *)(void *)host, 0, 64,
			       DMA_TO_DEVICE, 0),
	    DMAERR);
	RET(dma_map_page_attrs(dev, pg, BIG, 64, DMA_TO_DEVICE, 0),
	    DMAERR); /* wraps */
	RET(dma_map_page_attrs(dev, pg, 0, BIG, DMA_TO_DEVICE, 0), DMAERR);
	RET(dma_map_page_attrs(dev, pg, 0, 0, DMA_TO_DEVICE, 0), DMAERR);
	__free_pages(pg, 0);
}
static void e_dma_map_resource(void)
{
	RET(dma_map_resource(NULL, 0x1000, 64, DMA_TO_DEVICE, 0), DMAERR);
	RET(dma_map_resource(dev, ~(phys_addr_t)0 - 4, 64, DMA_TO_DEVICE, 0),
	    DMAERR);
	RET(dma_map_resource(dev, 0x1000, 0, DMA_TO_DEVICE, 0), DMAERR);
}
static void e_dma_mapping_error(void)
{
	/* Any address is an answer; NULL devices are reported. */
	RET(dma_mapping_error(dev, DMAERR), 1);
	REP(dma_mapping_error(NULL, 0x1000));
}
static void e_dma_unmap_single_attrs(void)
{
	char *p = kbuf(64);
	dma_addr_t a = dma_map_single(dev, p, 64, DMA_TO_DEVICE);

	REP(dma_unmap_single_attrs(NULL, a, 64, DMA_TO_DEVICE, 0));
	REP(dma_unmap_single_attrs(&fdev, a, 64, DMA_TO_DEVICE, 0));
	REP(dma_unmap_single_attrs(dev, 0x12345, 64, DMA_TO_DEVICE, 0));
	REP(dma_unmap_single_attrs(dev, a, BIG, DMA_TO_DEVICE, 0));
	REP(dma_unmap_single_attrs(dev, a, 0, DMA_TO_DEVICE, 0));
	REP(dma_unmap_single_attrs(dev, DMAERR, 64, DMA_TO_DEVICE, 0));
	dma_unmap_single(dev, a, 64, DMA_TO_DEVICE);
	REP(dma_unmap_single(dev, a, 64, DMA_TO_DEVICE)); /* twice */
	kfree(p);
}
static void e_dma_unmap_page_attrs(void)
{
	REP(dma_unmap_page_attrs(NULL, 0x1000, 64, DMA_TO_DEVICE, 0));
	REP(dma_unmap_page_attrs(dev, ~(dma_addr_t)0 - 4, 64, DMA_TO_DEVICE,
				 0));
}
static void e_dma_unmap_resource(void)
{
	REP(dma_unmap_resource(NULL, 0x1000, 64, DMA_TO_DEVICE, 0));
	REP(dma_unmap_resource(dev, ~(dma_addr_t)0 - 4, 64, DMA_TO_DEVICE, 0));
}
static void e_dma_sync_single_for_cpu(void)
{
	REP(dma_sync_single_for_cpu(NULL, 0x1000, 64, DMA_FROM_DEVICE));
	REP(dma_sync_single_for_cpu(dev, ~(dma_addr_t)0 - 4, BIG,
				    DMA_FROM_DEVICE));
}
static void e_dma_sync_single_for_device(void)
{
	REP(dma_sync_single_for_device(NULL, 0x1000, 64, DMA_TO_DEVICE));
	REP(dma_sync_single_for_device(dev, ~(dma_addr_t)0 - 4, BIG,
				       DMA_TO_DEVICE));
}
static void e_dma_sync_single_range_for_cpu(void)
{
	char *p = kbuf(64);
	dma_addr_t a = dma_map_single(dev, p, 64, DMA_FROM_DEVICE);

	REP(dma_sync_single_range_for_cpu(NULL, a, 0, 64, DMA_FROM_DEVICE));
	REP(dma_sync_single_range_for_cpu(dev, a, ULONG_MAX, 64,
					  DMA_FROM_DEVICE)); /* wraps */
	REP(dma_sync_single_range_for_cpu(dev, a, 8, BIG, DMA_FROM_DEVICE));
	dma_unmap_single(dev, a, 64, DMA_FROM_DEVICE);
	kfree(p);
}
static void e_dma_sync_single_range_for_device(void)
{
	char *p = kbuf(64);
	dma_addr_t a = dma_map_single(dev, p, 64, DMA_TO_DEVICE);

	REP(dma_sync_single_range_for_device(NULL, a, 0, 64, DMA_TO_DEVICE));
	REP(dma_sync_single_range_for_device(dev, a, ULONG_MAX, 64,
					     DMA_TO_DEVICE));
	REP(dma_sync_single_range_for_device(dev, a, 8, BIG, DMA_TO_DEVICE));
	dma_unmap_single(dev, a, 64, DMA_TO_DEVICE);
	kfree(p);
}
static void e_dma_map_sg_attrs(void)
{
	struct scatterlist sg[2];

	sg_init_table(sg, 2);
	sg_set_buf(&sg[0], host, 64);
	sg_set_buf(&sg[1], host + 64, 64);
	RET(dma_map_sg_attrs(NULL, sg, 2, DMA_TO_DEVICE, 0), 0);
	RET(dma_map_sg_attrs(dev, NULL, 2, DMA_TO_DEVICE, 0), 0);
	RET(dma_map_sg_attrs(dev, sg, 0, DMA_TO_DEVICE, 0), 0);
	RET(dma_map_sg_attrs(dev, sg, -1, DMA_TO_DEVICE, 0), 0);
	RET(dma_map_sg_attrs(dev, sg, 2, DMA_TO_DEVICE, 0), 0); /* host */
}
static void e_dma_unmap_sg_attrs(void)
{
	struct scatterlist sg[1];

	sg_init_table(sg, 1);
	REP(dma_unmap_sg_attrs(NULL, sg, 1, DMA_TO_DEVICE, 0));
	REP(dma_unmap_sg_attrs(dev, NULL, 1, DMA_TO_DEVICE, 0));
	REP(dma_unmap_sg_attrs(dev, sg, 1, DMA_TO_DEVICE,
			       0)); /* never mapped */
}
static void e_dma_sync_sg_for_cpu(void)
{
	struct scatterlist sg[1];

	sg_init_table(sg, 1);
	REP(dma_sync_sg_for_cpu(NULL, sg, 1, DMA_FROM_DEVICE));
	REP(dma_sync_sg_for_cpu(dev, NULL, 1, DMA_FROM_DEVICE));
	REP(dma_sync_sg_for_cpu(dev, sg, 1, DMA_FROM_DEVICE));
}
static void e_dma_sync_sg_for_device(void)
{
	struct scatterlist sg[1];

	sg_init_table(sg, 1);
	REP(dma_sync_sg_for_device(NULL, sg, 1, DMA_TO_DEVICE));
	REP(dma_sync_sg_for_device(dev, NULL, 1, DMA_TO_DEVICE));
	REP(dma_sync_sg_for_device(dev, sg, 1, DMA_TO_DEVICE));
}

/* DMA pools */
static void e_dma_pool_create(void)
{
	PNULL(dma_pool_create("p", NULL, 64, 8, 0));
	PNULL(dma_pool_create("p", &fdev, 64, 8, 0));
	PNULL(dma_pool_create("p", dev, 0, 8, 0));
	PNULL(dma_pool_create("p", dev, BIG, 8, 0));
	PNULL(dma_pool_create("p", dev, 64, 3, 0)); /* not a power of 2 */
	SILENT(dma_pool_destroy(dma_pool_create(NULL, dev, 64, 8, 0)));
}
static void e_dmam_pool_create(void)
{
	PNULL(dmam_pool_create("p", NULL, 64, 8, 0));
	PNULL(dmam_pool_create("p", dev, BIG, 8, 0));
}
static void e_dma_pool_destroy(void)
{
	struct dma_pool *p = dma_pool_create("p", dev, 64, 8, 0);

	QUIET(dma_pool_destroy(NULL));
	dma_pool_destroy(p);
	REP(dma_pool_destroy(p));
	REP(dma_pool_destroy((struct dma_pool *)(void *)host));
}
static void e_dmam_pool_destroy(void)
{
	struct dma_pool *p = dma_pool_create("p", dev, 64, 8, 0);

	QUIET(dmam_pool_destroy(NULL));
	REP(dmam_pool_destroy(p)); /* not managed: destroyed anyway */
	REP(dmam_pool_destroy((struct dma_pool *)(void *)host));
}
static void e_dma_pool_alloc(void)
{
	struct dma_pool *p = dma_pool_create("p", dev, 64, 8, 0);
	dma_addr_t h;

	PNULL(dma_pool_alloc(NULL, GFP_KERNEL, &h));
	PNULL(dma_pool_alloc((struct dma_pool *)(void *)host, GFP_KERNEL, &h));
	PNULL(dma_pool_alloc(p, GFP_KERNEL, NULL));
	dma_pool_destroy(p);
	PNULL(dma_pool_alloc(p, GFP_KERNEL, &h));
}
static void e_dma_pool_zalloc(void)
{
	dma_addr_t h;

	PNULL(dma_pool_zalloc(NULL, GFP_KERNEL, &h));
}
static void e_dma_pool_free(void)
{
	struct dma_pool *p = dma_pool_create("p", dev, 64, 8, 0);
	dma_addr_t h;
	void *b = dma_pool_alloc(p, GFP_KERNEL, &h);

	REP(dma_pool_free(NULL, b, h));
	REP(dma_pool_free(p, host, h));
	REP(dma_pool_free(p, b, h + 8));
	dma_pool_free(p, b, h);
	REP(dma_pool_free(p, b, h));
	dma_pool_destroy(p);
	REP(dma_pool_free(p, b, h));
}

/* Scatterlists */
static void e_sg_alloc_table(void)
{
	struct sg_table t;

	RET(sg_alloc_table(NULL, 4, GFP_KERNEL), -EINVAL);
	RET(sg_alloc_table(&t, 0, GFP_KERNEL), -EINVAL);
	/* UINT_MAX entries is not tried: it runs for minutes (a gap). */
}
static void e_sg_alloc_table_from_pages(void)
{
	struct sg_table t;
	struct page *pg = NULL;

	RET(sg_alloc_table_from_pages(NULL, &pg, 1, 0, 64, GFP_KERNEL),
	    -EINVAL);
	ck_assert_int_lt(
		sg_alloc_table_from_pages(&t, NULL, 1, 0, 64, GFP_KERNEL), 0);
	RET(sg_alloc_table_from_pages(&t, &pg, 0, 0, 64, GFP_KERNEL), -EINVAL);
	ck_assert_int_lt(
		sg_alloc_table_from_pages(&t, &pg, 1, 0, 64, GFP_KERNEL), 0);
}
static void e_sg_free_table(void)
{
	struct sg_table t;

	memset(&t, 0, sizeof(t));
	QUIET(sg_free_table(&t)); /* never allocated, zeroed: nothing */
	SILENT(sg_free_table(NULL));
}
static void e_sg_copy_from_buffer(void)
{
	struct scatterlist sg[1];

	sg_init_table(sg, 1);
	RET(sg_copy_from_buffer(NULL, 1, host, 64), 0);
	RET(sg_copy_from_buffer(sg, 1, host, 0), 0);
	RET(sg_copy_from_buffer(sg, 1, NULL, 64), 0);
}
static void e_sg_copy_to_buffer(void)
{
	struct scatterlist sg[1];

	sg_init_table(sg, 1);
	RET(sg_copy_to_buffer(NULL, 1, host, 64), 0);
	RET(sg_copy_to_buffer(sg, 1, NULL, 64), 0);
}
static void e_sg_last(void)
{
	PNULL(sg_last(NULL, 3));
}
static void e_sg_nents(void)
{
	RET(sg_nents(NULL), 0);
}

/* Interrupts */
static void e_request_threaded_irq(void)
{
	ck_assert_int_lt(
		request_threaded_irq(100000, irq_fn, NULL, 0, "x", NULL), 0);
	ck_assert_int_lt(
		request_threaded_irq((unsigned int)dmaemu_device_irq(d, 0),
				     NULL, NULL, 0, "x", NULL),
		0);
}
static void e_free_irq(void)
{
	PNULL(free_irq(100000, NULL));
	PNULL(free_irq((unsigned int)dmaemu_device_irq(d, 0), host));
}
static void e_disable_irq(void)
{
	REP(disable_irq(100000));
}
static void e_disable_irq_nosync(void)
{
	REP(disable_irq_nosync(100000));
}
static void e_enable_irq(void)
{
	REP(enable_irq(100000));
	REP(enable_irq((unsigned int)dmaemu_device_irq(d, 0))); /* unbalanced */
}
static void e_synchronize_irq(void)
{
	REP(synchronize_irq(100000));
}
static void e_platform_get_irq(void)
{
	ck_assert_int_lt(platform_get_irq(NULL, 0), 0);
}
static void e_platform_get_resource(void)
{
	PNULL(platform_get_resource(NULL, IORESOURCE_MEM, 0));
}
static void e_platform_driver_register(void)
{
	ck_assert_int_lt(platform_driver_register(NULL), 0);
}
static void e_platform_driver_unregister(void)
{
	static struct platform_driver never;

	REP(platform_driver_unregister(NULL));
	REP(platform_driver_unregister(&never));
}

/* Locks */
static void e_spin_lock_init(void)
{
	REP(spin_lock_init(NULL));
}
static void e_spin_lock(void)
{
	REP(spin_lock(NULL));
}
static void e_spin_lock_bh(void)
{
	REP(spin_lock_bh(NULL));
}
static void e_spin_lock_irq(void)
{
	REP(spin_lock_irq(NULL));
	REP(spin_unlock_irq(NULL)); /* interrupts on again */
}
static void e__raw_spin_lock_irqsave(void)
{
	unsigned long flags = 0;

	REP(flags = _raw_spin_lock_irqsave(NULL));
	REP(spin_unlock_irqrestore(NULL, flags));
}
static void e_spin_trylock(void)
{
	RET(spin_trylock(NULL), 0);
}
static void e_spin_is_locked(void)
{
	RET(spin_is_locked(NULL), 0);
}
static void e_spin_unlock(void)
{
	DEFINE_SPINLOCK(l);

	REP(spin_unlock(NULL));
	REP(spin_unlock(&l)); /* not held */
}
static void e_spin_unlock_bh(void)
{
	DEFINE_SPINLOCK(l);

	REP(spin_unlock_bh(NULL));
	REP(spin_unlock_bh(&l));
}
static void e_spin_unlock_irq(void)
{
	DEFINE_SPINLOCK(l);

	REP(spin_unlock_irq(NULL));
	REP(spin_unlock_irq(&l));
}
static void e_spin_unlock_irqrestore(void)
{
	DEFINE_SPINLOCK(l);

	REP(spin_unlock_irqrestore(NULL, 0));
	REP(spin_unlock_irqrestore(&l, 0));
}
static void e_mutex_init(void)
{
	REP(mutex_init(NULL));
}
static void e_mutex_destroy(void)
{
	struct mutex mx;

	REP(mutex_destroy(NULL));
	mutex_init(&mx);
	mutex_lock(&mx);
	REP(mutex_destroy(&mx)); /* held */
	mutex_unlock(&mx);
	mutex_destroy(&mx);
}
static void e_mutex_lock(void)
{
	struct mutex mx;

	REP(mutex_lock(NULL));
	mutex_init(&mx);
	dmaemu_enter_irq();
	REP(mutex_lock(&mx)); /* sleeps in interrupt context */
	mutex_unlock(&mx);
	dmaemu_exit_irq();
	mutex_destroy(&mx);
}
static void e_mutex_lock_interruptible(void)
{
	ck_assert_int_ne(mutex_lock_interruptible(NULL), 0);
}
static void e_mutex_trylock(void)
{
	RET(mutex_trylock(NULL), 0);
}
static void e_mutex_unlock(void)
{
	struct mutex mx;

	REP(mutex_unlock(NULL));
	mutex_init(&mx);
	REP(mutex_unlock(&mx)); /* not held */
	mutex_destroy(&mx);
}
static void e_mutex_is_locked(void)
{
	RET(mutex_is_locked(NULL), 0);
}

/* Completions and wait queues */
static void e_init_completion(void)
{
	REP(init_completion(NULL));
}
static void e_reinit_completion(void)
{
	REP(reinit_completion(NULL));
}
static void e_complete(void)
{
	REP(complete(NULL));
}
static void e_complete_all(void)
{
	REP(complete_all(NULL));
}
static void e_completion_done(void)
{
	RET(completion_done(NULL), 0);
}
static void e_try_wait_for_completion(void)
{
	RET(try_wait_for_completion(NULL), 0);
}
static void e_wait_for_completion(void)
{
	struct completion c;

	REP(wait_for_completion(NULL));
	init_completion(&c);
	complete(&c);
	dmaemu_enter_irq();
	REP(wait_for_completion(&c)); /* may sleep, in an interrupt */
	dmaemu_exit_irq();
}
static void e_wait_for_completion_interruptible(void)
{
	ck_assert_int_ne(wait_for_completion_interruptible(NULL), 0);
}
static void e_wait_for_completion_timeout(void)
{
	RET(wait_for_completion_timeout(NULL, 1), 0);
}
static void e_wait_for_completion_interruptible_timeout(void)
{
	ck_assert_int_le(wait_for_completion_interruptible_timeout(NULL, 1), 0);
}
static void e_init_waitqueue_head(void)
{
	REP(init_waitqueue_head(NULL));
}
static void e_wake_up(void)
{
	REP(wake_up(NULL));
}
static void e_dmaemu_waitq_prepare(void)
{
	REP(dmaemu_waitq_prepare(NULL));
}
static void e_dmaemu_waitq_sleep(void)
{
	REP(dmaemu_waitq_sleep(NULL, 0, 1));
}

/* Timers and work */
static void e_add_timer(void)
{
	REP(add_timer(NULL));
}
static void e_mod_timer(void)
{
	REP(mod_timer(NULL, jiffies));
}
static void e_mod_timer_pending(void)
{
	RET(mod_timer_pending(NULL, jiffies), 0);
}
static void e_del_timer(void)
{
	RET(del_timer(NULL), 0);
}
static void e_del_timer_sync(void)
{
	RET(del_timer_sync(NULL), 0);
}
static void e_try_to_del_timer_sync(void)
{
	ck_assert_int_le(try_to_del_timer_sync(NULL), 0);
}
static void e_delayed_work_timer_fn(void)
{
	REP(delayed_work_timer_fn(0));
}
static void e_alloc_workqueue(void)
{
	SILENT(destroy_workqueue(alloc_workqueue(NULL, 0, 1)));
}
static void e_destroy_workqueue(void)
{
	SILENT(destroy_workqueue(NULL));
}
static void e_queue_work(void)
{
	struct work_struct w;

	memset(&w, 0, sizeof(w));
	INIT_WORK(&w, NULL);
	RET(queue_work(system_wq, NULL), 0);
}
static void e_queue_delayed_work(void)
{
	RET(queue_delayed_work(system_wq, NULL, 1), 0);
}
static void e_mod_delayed_work(void)
{
	RET(mod_delayed_work(system_wq, NULL, 1), 0);
}
static void e_cancel_work_sync(void)
{
	RET(cancel_work_sync(NULL), 0);
}
static void e_cancel_delayed_work(void)
{
	RET(cancel_delayed_work(NULL), 0);
}
static void e_cancel_delayed_work_sync(void)
{
	RET(cancel_delayed_work_sync(NULL), 0);
}
static void e_flush_work(void)
{
	RET(flush_work(NULL), 0);
}
static void e_flush_delayed_work(void)
{
	RET(flush_delayed_work(NULL), 0);
}
static void e_flush_workqueue(void)
{
	SILENT(flush_workqueue(NULL));
}
static void e_drain_workqueue(void)
{
	SILENT(drain_workqueue(NULL));
}

/* Sleeping and delays: 0 is legal; sleeping in interrupt context is not. */
static void e_msleep(void)
{
	QUIET(msleep(0));
	dmaemu_enter_irq();
	REP(msleep(0));
	dmaemu_exit_irq();
}
static void e_msleep_interruptible(void)
{
	dmaemu_enter_irq();
	REP(msleep_interruptible(0));
	dmaemu_exit_irq();
}
static void e_usleep_range(void)
{
	dmaemu_enter_irq();
	REP(usleep_range(0, 0));
	dmaemu_exit_irq();
	SILENT(usleep_range(10, 5)); /* max below min */
}
static void e_schedule(void)
{
	dmaemu_enter_irq();
	REP(schedule());
	dmaemu_exit_irq();
}
static void e_schedule_timeout(void)
{
	RET(schedule_timeout(-5), 0);
}
static void e_schedule_timeout_idle(void)
{
	RET(schedule_timeout_idle(-5), 0);
}
static void e_schedule_timeout_interruptible(void)
{
	RET(schedule_timeout_interruptible(-5), 0);
}
static void e_schedule_timeout_killable(void)
{
	RET(schedule_timeout_killable(-5), 0);
}
static void e_schedule_timeout_uninterruptible(void)
{
	RET(schedule_timeout_uninterruptible(-5), 0);
}
static void e_cond_resched(void)
{
	dmaemu_enter_irq();
	REP(cond_resched());
	dmaemu_exit_irq();
}
static void e_yield(void)
{
	dmaemu_enter_irq();
	SILENT(yield());
	dmaemu_exit_irq();
}
static void e_mdelay(void)
{
	QUIET(mdelay(0));
}
static void e_udelay(void)
{
	QUIET(udelay(0));
}
static void e_ndelay(void)
{
	QUIET(ndelay(0));
}

/* printk */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
static int call_vprintk(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vprintk(fmt, ap);
	va_end(ap);
	return n;
}
#pragma GCC diagnostic pop
static void e_printk(void)
{
	RET(printk(NULL), 0);
}
static void e_vprintk(void)
{
	RET(call_vprintk(NULL), 0);
}
static void e_dev_printk(void)
{
	QUIET(dev_printk(KERN_INFO, NULL, "no device\n"));
	REP(dev_printk(KERN_INFO, dev, NULL));
	QUIET(dev_printk(NULL, dev, "no level\n"));
}
static void e_print_hex_dump(void)
{
	SILENT(print_hex_dump(KERN_INFO, "", DUMP_PREFIX_NONE, 16, 1, NULL, 64,
			      false));
	QUIET(print_hex_dump(KERN_INFO, "", DUMP_PREFIX_NONE, 16, 1, host, 0,
			     false));
}
static void e_dmaemu_warn(void)
{
	REP(dmaemu_warn(NULL, 0, NULL, NULL));
}

/* The machine */
static void e_dmaemu_machine_create(void)
{
	errno = 0;
	RET((uintptr_t)dmaemu_machine_create("profile=nonsense"), 0);
	ck_assert_int_eq(errno, EINVAL);
	RET((uintptr_t)dmaemu_machine_create("mem=99999999999999999999"), 0);
	dmaemu_machine_set_current(m);
}
static void e_dmaemu_machine_destroy(void)
{
	QUIET(dmaemu_machine_destroy(NULL));
	REP(dmaemu_machine_destroy(dead_m));
	REP(dmaemu_machine_destroy((struct dmaemu_machine *)(void *)host));
}
static void e_dmaemu_machine_set_current(void)
{
	REP(dmaemu_machine_set_current(dead_m));
	ck_assert_ptr_eq(dmaemu_machine_current(), m);
	REP(dmaemu_machine_set_current((struct dmaemu_machine *)(void *)host));
	ck_assert_ptr_eq(dmaemu_machine_current(), m);
}
static void e_dmaemu_machine_current(void)
{
	/* No argument: after set_current(NULL) it is NULL. */
	dmaemu_machine_set_current(NULL);
	ck_assert_ptr_null(dmaemu_machine_current());
	dmaemu_machine_set_current(m);
}
static void e_dmaemu_machine_info(void)
{
	struct dmaemu_machine_info i;

	ck_assert_int_lt(dmaemu_machine_info(NULL, &i), 0);
	ck_assert_int_lt(dmaemu_machine_info(m, NULL), 0);
	ck_assert_int_lt(dmaemu_machine_info(dead_m, &i), 0);
}
static void e_dmaemu_machine_option(void)
{
	char b[8];

	ck_assert_int_lt(dmaemu_machine_option(NULL, "mem", b, 8), 0);
	ck_assert_int_lt(dmaemu_machine_option(m, "nonsense", b, 8), 0);
	ck_assert_int_lt(dmaemu_machine_option(m, NULL, b, 8), 0);
	ck_assert_int_lt(dmaemu_machine_option(m, "mem", b, 0), 0);
	ck_assert_int_lt(dmaemu_machine_option(m, "mem", NULL, 8), 0);
	ck_assert_int_lt(dmaemu_machine_option(dead_m, "mem", b, 8), 0);
}
static void e_dmaemu_thread_create(void)
{
	errno = 0;
	PNULL(dmaemu_thread_create(NULL, "t", thread_fn, NULL));
	ck_assert_int_eq(errno, EINVAL);
	PNULL(dmaemu_thread_create(m, "t", NULL, NULL));
	PNULL(dmaemu_thread_create(dead_m, "t", thread_fn, NULL));
}
static void e_dmaemu_thread_join(void)
{
	PNULL(dmaemu_thread_join(NULL));
}
static void e_dmaemu_sched_fingerprint(void)
{
	uint64_t pts;

	RET(dmaemu_sched_fingerprint(NULL, &pts), 0);
	RET(dmaemu_sched_fingerprint(dead_m, &pts), 0);
}
static void e_dmaemu_sched_set_trace(void)
{
	ck_assert_int_lt(dmaemu_sched_set_trace(NULL, NULL, NULL), 0);
	ck_assert_int_lt(dmaemu_sched_set_trace(dead_m, NULL, NULL), 0);
}

/* Devices */
static void e_dmaemu_device_create(void)
{
	PNULL(dmaemu_device_create(NULL, "x", NULL, NULL));
	PNULL(dmaemu_device_create(dead_m, "x", NULL, NULL));
	PNULL(dmaemu_device_create(m, NULL, NULL, NULL));
}
static void e_dmaemu_device_destroy(void)
{
	QUIET(dmaemu_device_destroy(NULL));
	REP(dmaemu_device_destroy(dead_d));
	REP(dmaemu_device_destroy((struct dmaemu_device *)(void *)host));
}
static void e_dmaemu_device_to_dev(void)
{
	PNULL(dmaemu_device_to_dev(NULL));
	PNULL(dmaemu_device_to_dev(dead_d));
}
static void e_dmaemu_dev_to_device(void)
{
	PNULL(dmaemu_dev_to_device(NULL));
	PNULL(dmaemu_dev_to_device(&fdev));
}
static void e_dmaemu_device_machine(void)
{
	PNULL(dmaemu_device_machine(NULL));
	PNULL(dmaemu_device_machine(dead_d));
}
static void e_dmaemu_device_name(void)
{
	PNULL(dmaemu_device_name(NULL));
	PNULL(dmaemu_device_name(dead_d));
}
static void e_dmaemu_device_priv(void)
{
	PNULL(dmaemu_device_priv(NULL));
	PNULL(dmaemu_device_priv(dead_d));
}
static void e_dmaemu_device_regs(void)
{
	PNULL(dmaemu_device_regs(NULL));
	PNULL(dmaemu_device_regs(dead_d));
}
static void e_dmaemu_device_irq(void)
{
	ck_assert_int_lt(dmaemu_device_irq(NULL, 0), 0);
	ck_assert_int_lt(dmaemu_device_irq(dead_d, 0), 0);
	ck_assert_int_lt(dmaemu_device_irq(d, UINT_MAX), 0);
}
static void e_dmaemu_raise_irq(void)
{
	ck_assert_int_lt(dmaemu_raise_irq(NULL, 0), 0);
	ck_assert_int_lt(dmaemu_raise_irq(dead_d, 0), 0);
	ck_assert_int_lt(dmaemu_raise_irq(d, UINT_MAX), 0);
}
static void e_dmaemu_lower_irq(void)
{
	ck_assert_int_lt(dmaemu_lower_irq(NULL, 0), 0);
	ck_assert_int_lt(dmaemu_lower_irq(d, UINT_MAX), 0);
}
static void e_dmaemu_device_doorbell(void)
{
	ck_assert_int_lt(dmaemu_device_doorbell(NULL), 0);
	ck_assert_int_lt(dmaemu_device_doorbell(dead_d), 0);
}
static void e_dmaemu_device_reset(void)
{
	ck_assert_int_lt(dmaemu_device_reset(NULL), 0);
	ck_assert_int_lt(dmaemu_device_reset(dead_d), 0);
}
static void e_dmaemu_device_stopping(void)
{
	RET(dmaemu_device_stopping(NULL), 0);
	(void)dmaemu_device_stopping(dead_d);
}
static void e_dmaemu_device_timer_arm(void)
{
	ck_assert_int_lt(dmaemu_device_timer_arm(NULL, 1), 0);
	ck_assert_int_lt(dmaemu_device_timer_arm(dead_d, 1), 0);
}
static void e_dmaemu_device_timer_cancel(void)
{
	ck_assert_int_lt(dmaemu_device_timer_cancel(NULL), 0);
	ck_assert_int_lt(dmaemu_device_timer_cancel(dead_d), 0);
}
static void e_dmaemu_device_set_privileged(void)
{
	ck_assert_int_lt(dmaemu_device_set_privileged(NULL, true), 0);
	ck_assert_int_lt(dmaemu_device_set_privileged(dead_d, true), 0);
}
static void e_dmaemu_device_dma_info(void)
{
	struct dmaemu_device_dma_info i;

	ck_assert_int_lt(dmaemu_device_dma_info(NULL, &i), 0);
	ck_assert_int_lt(dmaemu_device_dma_info(d, NULL), 0);
	ck_assert_int_lt(dmaemu_device_dma_info(dead_d, &i), 0);
}
static void e_dmaemu_device_mapping_find(void)
{
	struct dmaemu_mapping_info i;

	ck_assert_int_lt(dmaemu_device_mapping_find(NULL, 0, 1, &i), 0);
	ck_assert_int_lt(dmaemu_device_mapping_find(dead_d, 0, 1, &i), 0);
	ck_assert_int_lt(dmaemu_device_mapping_find(d, ~0ULL - 1, BIG, &i), 0);
}
static void e_dmaemu_device_mappings(void)
{
	struct dmaemu_mapping_info i;

	ck_assert_int_lt(dmaemu_device_mappings(NULL, &i, 1), 0);
	ck_assert_int_lt(dmaemu_device_mappings(dead_d, &i, 1), 0);
	RET(dmaemu_device_mappings(d, NULL, 0), 0);
}
static void e_dmaemu_device_allocation_find(void)
{
	struct dmaemu_allocation_info i;

	ck_assert_int_lt(dmaemu_device_allocation_find(NULL, NULL, 0, 1, &i),
			 0);
	ck_assert_int_lt(dmaemu_device_allocation_find(dead_d, NULL, 0, 1, &i),
			 0);
	ck_assert_int_lt(
		dmaemu_device_allocation_find(d, host, ~0ULL - 1, BIG, &i), 0);
}
static void e_dmaemu_dma_read(void)
{
	char b[16];

	ck_assert_int_lt(dmaemu_dma_read(NULL, 0, b, 16), 0);
	ck_assert_int_lt(dmaemu_dma_read(dead_d, 0, b, 16), 0);
	ck_assert_int_lt(dmaemu_dma_read(d, ~(dma_addr_t)0 - 4, b, 16), 0);
	ck_assert_int_lt(dmaemu_dma_read(d, 0x1000, NULL, 16), 0);
	ck_assert_int_lt(dmaemu_dma_read(d, 0x1000, b, BIG), 0);
}
static void e_dmaemu_dma_write(void)
{
	char b[16] = {0};

	ck_assert_int_lt(dmaemu_dma_write(NULL, 0, b, 16), 0);
	ck_assert_int_lt(dmaemu_dma_write(dead_d, 0, b, 16), 0);
	ck_assert_int_lt(dmaemu_dma_write(d, ~(dma_addr_t)0 - 4, b, 16), 0);
	ck_assert_int_lt(dmaemu_dma_write(d, 0x1000, NULL, 16), 0);
	ck_assert_int_lt(dmaemu_dma_write(d, 0x1000, b, BIG), 0);
}
static void e_dmaemu_iommu_info(void)
{
	struct dmaemu_iommu_info i;

	ck_assert_int_lt(dmaemu_iommu_info(NULL, &i), 0);
	ck_assert_int_lt(dmaemu_iommu_info(dead_d, &i), 0);
	ck_assert_int_lt(dmaemu_iommu_info(d, NULL), 0);
}
static void e_dmaemu_iommu_iova_to_phys(void)
{
	uint64_t p;

	ck_assert_int_lt(dmaemu_iommu_iova_to_phys(NULL, 0, &p), 0);
	ck_assert_int_lt(dmaemu_iommu_iova_to_phys(dead_d, 0, &p), 0);
	ck_assert_int_lt(dmaemu_iommu_iova_to_phys(d, ~0ULL, &p), 0);
}

/* MMIO */
static void e_dmaemu_mmio_read(void)
{
	REP(RET(dmaemu_mmio_read(NULL, 4, 0), ~0ULL));
	REP(RET(dmaemu_mmio_read((char *)(uintptr_t)0x10, 4, 0), ~0ULL));
	QUIET(dmaemu_mmio_read(host, 4, 0)); /* memory: a volatile load */
	RET(dmaemu_mmio_read(host, 3, 0), ~0ULL);
}
static void e_dmaemu_mmio_write(void)
{
	REP(dmaemu_mmio_write(NULL, 1, 4, 0));
	REP(dmaemu_mmio_write((char *)(uintptr_t)0x10, 1, 4, 0));
	QUIET(dmaemu_mmio_write(host, 1, 4, 0)); /* memory: a volatile store */
}

/* CPU accesses and the cache */
static void e_dmaemu_cpu_read(void)
{
	char b[16];
	char *p = kbuf(16);

	ck_assert_int_lt(dmaemu_cpu_read(NULL, p, 16), 0);
	ck_assert_int_lt(dmaemu_cpu_read(b, NULL, 16), 0);
	ck_assert_int_lt(dmaemu_cpu_read(b, p, BIG), 0);
	RET(dmaemu_cpu_read(b, p, 0), 0);
	kfree(p);
}
static void e_dmaemu_cpu_write(void)
{
	char b[16] = {0};
	char *p = kbuf(16);

	ck_assert_int_lt(dmaemu_cpu_write(NULL, b, 16), 0);
	ck_assert_int_lt(dmaemu_cpu_write(p, NULL, 16), 0);
	ck_assert_int_lt(dmaemu_cpu_write(p, b, BIG), 0);
	kfree(p);
}
static void e_dmaemu_cpu_access(void)
{
	/* The hook of instrumented code: memory outside the machine is the
	 * host's, not checked. */
	QUIET(dmaemu_cpu_access(NULL, 8, 0));
	QUIET(dmaemu_cpu_access(host, 8, 1));
	QUIET(dmaemu_cpu_access(host, 0, 1));
	QUIET(dmaemu_cpu_access((void *)~(uintptr_t)0, BIG, 1));
}
static void e_dmaemu_cpu_read_once(void)
{
	uint32_t v = 1;

	/* A NULL pointer or a wrapping range: a report, and 0. */
	REP(dmaemu_cpu_read_once(NULL, &v, 4));
	ck_assert_uint_eq(v, 0);
	REP(dmaemu_cpu_read_once(host, NULL, 4));
	REP(dmaemu_cpu_read_once((void *)~(uintptr_t)0, &v, 4));
	/* Foreign memory is the host's: read, not checked. */
	memcpy(host, "\x11\x22\x33\x44", 4);
	QUIET(dmaemu_cpu_read_once(host, &v, 4));
	ck_assert_uint_eq(v, 0x44332211u);
	QUIET(dmaemu_cpu_read_once(host, &v, 0));
}
static void e_dmaemu_cpu_barrier(void)
{
	SILENT(dmaemu_cpu_barrier(UINT_MAX));
}
static void e_dmaemu_cpu_flush_wc(void)
{
	/* No argument. */
	QUIET(dmaemu_cpu_flush_wc());
}
static void e_dmaemu_cpu_stats(void)
{
	struct dmaemu_cpu_stats st;

	ck_assert_int_lt(dmaemu_cpu_stats(NULL, 1, &st), 0);
	ck_assert_int_lt(dmaemu_cpu_stats(dead_m, 1, &st), 0);
	ck_assert_int_lt(dmaemu_cpu_stats(m, UINT_MAX, &st), 0);
	ck_assert_int_lt(dmaemu_cpu_stats(m, 1, NULL), 0);
}
static void e_dmaemu_cache_clean(void)
{
	ck_assert_int_lt(dmaemu_cache_clean(NULL, 0, 64), 0);
	ck_assert_int_lt(dmaemu_cache_clean(dead_m, 0, 64), 0);
	ck_assert_int_lt(dmaemu_cache_clean(m, ~0ULL - 4, 64), 0);
	ck_assert_int_lt(dmaemu_cache_clean(m, 0, BIG), 0);
}
static void e_dmaemu_cache_invalidate(void)
{
	ck_assert_int_lt(dmaemu_cache_invalidate(NULL, 0, 64), 0);
	ck_assert_int_lt(dmaemu_cache_invalidate(m, ~0ULL - 4, 64), 0);
}
static void e_dmaemu_cache_clean_invalidate(void)
{
	ck_assert_int_lt(dmaemu_cache_clean_invalidate(NULL, 0, 64), 0);
	ck_assert_int_lt(dmaemu_cache_clean_invalidate(m, ~0ULL - 4, 64), 0);
}
static void e_dmaemu_cache_level_info(void)
{
	struct dmaemu_cache_level_info i;

	ck_assert_int_lt(dmaemu_cache_level_info(NULL, 1, &i), 0);
	ck_assert_int_lt(dmaemu_cache_level_info(m, UINT_MAX, &i), 0);
	ck_assert_int_lt(dmaemu_cache_level_info(m, 1, NULL), 0);
}
static void e_dmaemu_line_state(void)
{
	struct dmaemu_line_state st;

	ck_assert_int_lt(dmaemu_line_state(NULL, 0, &st), 0);
	ck_assert_int_lt(dmaemu_line_state(m, ~0ULL, &st), 0);
	ck_assert_int_lt(dmaemu_line_state(m, 0, NULL), 0);
}
static void e_dmaemu_line_mask_test(void)
{
	uint64_t mask[4] = {0};

	RET(dmaemu_line_mask_test(NULL, 0), 0);
	RET(dmaemu_line_mask_test(mask, UINT_MAX), 0);
}
static void e_dmaemu_line_mask_weight(void)
{
	RET(dmaemu_line_mask_weight(NULL), 0);
}
static void e_dmaemu_wc_pending(void)
{
	ck_assert_int_lt(dmaemu_wc_pending(NULL, 0, 64), 0);
	SILENT((void)dmaemu_wc_pending(m, ~0ULL - 4, 64));
}
static void e_dmaemu_prefetch_info(void)
{
	struct dmaemu_prefetch_info i;

	ck_assert_int_lt(dmaemu_prefetch_info(NULL, &i), 0);
	ck_assert_int_lt(dmaemu_prefetch_info(m, NULL), 0);
}
static void e_dmaemu_dram_read(void)
{
	char b[16];

	ck_assert_int_lt(dmaemu_dram_read(NULL, 0, b, 16), 0);
	ck_assert_int_lt(dmaemu_dram_read(dead_m, 0, b, 16), 0);
	ck_assert_int_lt(dmaemu_dram_read(m, ~0ULL - 4, b, 16), 0);
	ck_assert_int_lt(dmaemu_dram_read(m, 0, NULL, 16), 0);
	ck_assert_int_lt(dmaemu_dram_read(m, 0, b, BIG), 0);
}
static void e_dmaemu_dram_write(void)
{
	char b[16] = {0};

	ck_assert_int_lt(dmaemu_dram_write(NULL, 0, b, 16), 0);
	ck_assert_int_lt(dmaemu_dram_write(m, ~0ULL - 4, b, 16), 0);
	ck_assert_int_lt(dmaemu_dram_write(m, 0, NULL, 16), 0);
	ck_assert_int_lt(dmaemu_dram_write(m, 0, b, BIG), 0);
}
static void e_dmaemu_phys_view(void)
{
	PNULL(dmaemu_phys_view(NULL, 0, 0));
	PNULL(dmaemu_phys_view(m, ~0ULL, 0));
	PNULL(dmaemu_phys_view(m, 0, INT_MAX));
}
static void e_dmaemu_addr_info(void)
{
	struct dmaemu_addr_info i;

	/* Host memory, NULL included, is described as such. */
	QUIET(dmaemu_addr_info(NULL, &i));
	QUIET(dmaemu_addr_info(host, &i));
	ck_assert_int_lt(dmaemu_addr_info(host, NULL), 0);
}

/* Memory statistics */
static void e_dmaemu_mm_stats(void)
{
	struct dmaemu_mm_stats st;

	ck_assert_int_lt(dmaemu_mm_stats(NULL, &st), 0);
	ck_assert_int_lt(dmaemu_mm_stats(dead_m, &st), 0);
	ck_assert_int_lt(dmaemu_mm_stats(m, NULL), 0);
}
static void e_dmaemu_swiotlb_info(void)
{
	struct dmaemu_swiotlb_info i;

	ck_assert_int_lt(dmaemu_swiotlb_info(NULL, &i), 0);
	ck_assert_int_lt(dmaemu_swiotlb_info(m, NULL), 0);
}
static void e_dmaemu_zone_info(void)
{
	struct dmaemu_zone_info i;

	ck_assert_int_lt(dmaemu_zone_info(NULL, 0, &i), 0);
	ck_assert_int_lt(dmaemu_zone_info(m, 99, &i), 0);
	ck_assert_int_lt(dmaemu_zone_info(m, -1, &i), 0);
	ck_assert_int_lt(dmaemu_zone_info(m, 0, NULL), 0);
}
static void e_dmaemu_zone_name(void)
{
	PNULL(dmaemu_zone_name(-1));
	PNULL(dmaemu_zone_name(INT_MAX));
}
static void e_dmaemu_migratetype_name(void)
{
	PNULL(dmaemu_migratetype_name(-1));
	PNULL(dmaemu_migratetype_name(INT_MAX));
}
static void e_dmaemu_buddyinfo(void)
{
	unsigned long c[DMAEMU_MAX_ORDER];

	ck_assert_int_lt(dmaemu_buddyinfo(NULL, 0, c), 0);
	ck_assert_int_lt(dmaemu_buddyinfo(m, 99, c), 0);
	ck_assert_int_lt(dmaemu_buddyinfo(m, 0, NULL), 0);
}
static void e_dmaemu_buddyinfo_format(void)
{
	char b[8];

	ck_assert_int_lt(dmaemu_buddyinfo_format(NULL, b, 8), 0);
	ck_assert_int_lt(dmaemu_buddyinfo_format(m, NULL, 8), 0);
	ck_assert_int_ge(dmaemu_buddyinfo_format(m, b, 0), 0); /* snprintf */
}
static void e_dmaemu_pageblocks(void)
{
	unsigned long c[DMAEMU_MIGRATE_TYPES];

	ck_assert_int_lt(dmaemu_pageblocks(NULL, 0, c), 0);
	ck_assert_int_lt(dmaemu_pageblocks(m, 99, c), 0);
	ck_assert_int_lt(dmaemu_pageblocks(m, 0, NULL), 0);
}
static void e_dmaemu_pageblock_migratetype(void)
{
	ck_assert_int_lt(dmaemu_pageblock_migratetype(NULL, 0), 0);
	ck_assert_int_lt(dmaemu_pageblock_migratetype(m, ~0ULL), 0);
}
static void e_dmaemu_pagetypeinfo(void)
{
	unsigned long c[DMAEMU_MAX_ORDER];

	ck_assert_int_lt(dmaemu_pagetypeinfo(NULL, 0, 0, c), 0);
	ck_assert_int_lt(dmaemu_pagetypeinfo(m, 0, 99, c), 0);
	ck_assert_int_lt(dmaemu_pagetypeinfo(m, 0, 0, NULL), 0);
}
static void e_dmaemu_pagetypeinfo_format(void)
{
	char b[8];

	ck_assert_int_lt(dmaemu_pagetypeinfo_format(NULL, b, 8), 0);
	ck_assert_int_lt(dmaemu_pagetypeinfo_format(m, NULL, 8), 0);
}
static void e_dmaemu_gfp_format(void)
{
	char b[4];

	ck_assert_int_ge(dmaemu_gfp_format(~0u, b, sizeof(b)), 4);
	ck_assert_int_lt(dmaemu_gfp_format(0, NULL, 8), 0);
}
static void e_dmaemu_gfp_parse(void)
{
	unsigned int f;

	ck_assert_int_lt(dmaemu_gfp_parse("NOT_A_FLAG", &f), 0);
	ck_assert_int_lt(dmaemu_gfp_parse(NULL, &f), 0);
	ck_assert_int_lt(dmaemu_gfp_parse("GFP_KERNEL", NULL), 0);
}
static void e_dmaemu_max_dma_address(void)
{
	/* No argument; with no current machine it is still an answer. */
	dmaemu_machine_set_current(NULL);
	(void)dmaemu_max_dma_address();
	dmaemu_machine_set_current(m);
}
static void e_dmaemu_vma_unmap(void)
{
	struct vm_area_struct vma;

	memset(&vma, 0, sizeof(vma));
	SILENT(dmaemu_vma_unmap(NULL));
	SILENT(dmaemu_vma_unmap(&vma)); /* never mapped */
}

/* Reports */
static void e_dmaemu_report_count(void)
{
	RET(dmaemu_report_count(dead_m, NULL), 0);
	RET(dmaemu_report_count(m, "no-such-kind"), 0);
}
static void e_dmaemu_report_clear(void)
{
	REP(dmaemu_report_clear(dead_m));
}
static void e_dmaemu_report_reset(void)
{
	REP(dmaemu_report_reset(dead_m));
}
static void e_dmaemu_report_dropped(void)
{
	RET(dmaemu_report_dropped(dead_m), 0);
}
static void e_dmaemu_report_kept(void)
{
	RET(dmaemu_report_kept(dead_m), 0);
}
static void e_dmaemu_report_get(void)
{
	struct dmaemu_report r;

	ck_assert_int_lt(dmaemu_report_get(NULL, 0, &r), 0);
	ck_assert_int_lt(dmaemu_report_get(m, UINT_MAX, &r), 0);
	ck_assert_int_lt(dmaemu_report_get(m, 0, NULL), 0);
}
static void e_dmaemu_report_next(void)
{
	struct dmaemu_report r;

	ck_assert_int_lt(dmaemu_report_next(NULL, 0, &r), 0);
	ck_assert_int_lt(dmaemu_report_next(m, UINT64_MAX, &r), 0);
	ck_assert_int_lt(dmaemu_report_next(m, 0, NULL), 0);
}
static void e_dmaemu_report_kind_name(void)
{
	/* A name for an unknown kind ("unknown"), never NULL. */
	ck_assert_ptr_nonnull(
		dmaemu_report_kind_name((enum dmaemu_report_kind) - 1));
	ck_assert_ptr_nonnull(
		dmaemu_report_kind_name((enum dmaemu_report_kind)INT_MAX));
}
static void e_dmaemu_report_set_callback(void)
{
	ck_assert_int_lt(dmaemu_report_set_callback(NULL, NULL, NULL), 0);
	ck_assert_int_lt(dmaemu_report_set_callback(dead_m, NULL, NULL), 0);
}
static void e_dmaemu_report_suppressed(void)
{
	RET(dmaemu_report_suppressed(dead_m, NULL), 0);
	RET(dmaemu_report_suppressed(m, "no-such-kind"), 0);
}

/* Tracing */
static void e_dmaemu_trace_start(void)
{
	ck_assert_int_lt(dmaemu_trace_start(NULL, NULL), 0);
	ck_assert_int_lt(dmaemu_trace_start(dead_m, NULL), 0);
	ck_assert_int_lt(dmaemu_trace_start(m, "no-such-group"), 0);
}
static void e_dmaemu_trace_stop(void)
{
	SILENT(dmaemu_trace_stop(NULL));
	REP(dmaemu_trace_stop(dead_m));
	QUIET(dmaemu_trace_stop(m)); /* not started: nothing */
}
static void e_dmaemu_trace_set_callback(void)
{
	SILENT(dmaemu_trace_set_callback(NULL, NULL, NULL));
	REP(dmaemu_trace_set_callback(dead_m, NULL, NULL));
}

/* Fault injection */
static void e_dmaemu_fault_set(void)
{
	ck_assert_int_lt(dmaemu_fault_set(NULL, DMAEMU_FAULT_SLAB, "1"), 0);
	ck_assert_int_lt(dmaemu_fault_set(m, (enum dmaemu_fault_point)99, "1"),
			 0);
	ck_assert_int_lt(dmaemu_fault_set(m, DMAEMU_FAULT_SLAB, "garbage"), 0);
	ck_assert_int_lt(dmaemu_fault_set(dead_m, DMAEMU_FAULT_SLAB, "1"), 0);
}
static void e_dmaemu_fault_injected(void)
{
	RET(dmaemu_fault_injected(NULL, DMAEMU_FAULT_SLAB), 0);
	RET(dmaemu_fault_injected(m, (enum dmaemu_fault_point)99), 0);
}
static void e_dmaemu_fail_nth(void)
{
	/* Any n is a request (0 turns it off). */
	dmaemu_fail_nth(UINT_MAX);
	dmaemu_fail_nth(0);
	RET(dmaemu_fail_nth_left(), 0);
}
static void e_dmaemu_fail_nth_left(void)
{
	RET(dmaemu_fail_nth_left(), 0);
}

/* Contexts: unbalanced exits are errors. */
static void e_dmaemu_enter_irq(void)
{
	dmaemu_enter_irq();
	ck_assert(in_irq());
	RET(dmaemu_exit_irq(), 0);
}
static void e_dmaemu_exit_irq(void)
{
	ck_assert_int_lt(dmaemu_exit_irq(), 0);
}
static void e_dmaemu_enter_softirq(void)
{
	dmaemu_enter_softirq();
	RET(dmaemu_exit_softirq(), 0);
}
static void e_dmaemu_exit_softirq(void)
{
	ck_assert_int_lt(dmaemu_exit_softirq(), 0);
}
static void e_dmaemu_bh_disable(void)
{
	dmaemu_bh_disable();
	RET(dmaemu_bh_enable(), 0);
}
static void e_dmaemu_bh_enable(void)
{
	ck_assert_int_lt(dmaemu_bh_enable(), 0);
}
static void e_dmaemu_preempt_disable(void)
{
	dmaemu_preempt_disable();
	RET(dmaemu_preempt_count(), 1);
	RET(dmaemu_preempt_enable(), 0);
}
static void e_dmaemu_preempt_enable(void)
{
	ck_assert_int_lt(dmaemu_preempt_enable(), 0);
}
static void e_dmaemu_preempt_count(void)
{
	RET(dmaemu_preempt_count(), 0);
}
/* Interrupts disabled on one machine, enabled again after it is
 * destroyed: the thread's count must not touch the freed machine
 * (Memcheck and ASan saw a read of freed memory before the fix). */
static void e_dmaemu_irq_disable(void)
{
	struct dmaemu_machine *m2 = dmaemu_machine_create("log_path=/dev/null");

	ck_assert_ptr_nonnull(m2);
	dmaemu_irq_disable();
	ck_assert(dmaemu_irqs_disabled());
	dmaemu_machine_destroy(m2);
	dmaemu_machine_set_current(m);
	QUIET(dmaemu_irq_enable());
	ck_assert(!dmaemu_irqs_disabled());
}
static void e_dmaemu_irq_enable(void)
{
	/* Enabling enabled interrupts is legal (local_irq_enable()). */
	QUIET(dmaemu_irq_enable());
}
static void e_dmaemu_irq_save(void)
{
	unsigned long f = dmaemu_irq_save();

	ck_assert(dmaemu_irqs_disabled());
	dmaemu_irq_restore(f);
	ck_assert(!dmaemu_irqs_disabled());
}
static void e_dmaemu_irq_restore(void)
{
	QUIET(dmaemu_irq_restore(0));
	ck_assert(!dmaemu_irqs_disabled());
}
static void e_dmaemu_irqs_disabled(void)
{
	RET(dmaemu_irqs_disabled(), 0);
}
static void e_dmaemu_might_sleep(void)
{
	QUIET(dmaemu_might_sleep(NULL));
	dmaemu_enter_irq();
	REP(dmaemu_might_sleep(NULL));
	dmaemu_exit_irq();
}
static void e_dmaemu_jiffies(void)
{
	dmaemu_machine_set_current(NULL);
	(void)dmaemu_jiffies();
	dmaemu_machine_set_current(m);
}
static void e_dmaemu_time_ns(void)
{
	dmaemu_machine_set_current(NULL);
	(void)dmaemu_time_ns();
	dmaemu_machine_set_current(m);
}

/* The linker's --wrap targets: the string functions of instrumented code.
 * Size 0 with NULL is what the C library tolerates in practice; host
 * memory is passed through. */
void *__wrap_memcpy(void *, const void *, size_t);
void *__wrap_memmove(void *, const void *, size_t);
void *__wrap_memset(void *, int, size_t);
void *__wrap_mempcpy(void *, const void *, size_t);
int __wrap_memcmp(const void *, const void *, size_t);
int __wrap_bcmp(const void *, const void *, size_t);
void *__wrap___memcpy_chk(void *, const void *, size_t, size_t);
void *__wrap___memmove_chk(void *, const void *, size_t, size_t);
void *__wrap___memset_chk(void *, int, size_t, size_t);
static void e___wrap_memcpy(void)
{
	QUIET(__wrap_memcpy(host, host + 128, 0));
	QUIET(__wrap_memcpy(host, host + 128, 64));
}
static void e___wrap_memmove(void)
{
	QUIET(__wrap_memmove(host, host + 8, 64));
}
static void e___wrap_memset(void)
{
	QUIET(__wrap_memset(host, 0, 0));
}
static void e___wrap_mempcpy(void)
{
	ck_assert_ptr_eq(__wrap_mempcpy(host, host + 128, 4), host + 4);
}
static void e___wrap_memcmp(void)
{
	RET(__wrap_memcmp(NULL, NULL, 0), 0);
}
static void e___wrap_bcmp(void)
{
	RET(__wrap_bcmp(NULL, NULL, 0), 0);
}
/* The _FORTIFY_SOURCE entry points: a length beyond the destination's
 * size aborts, by the C library's contract ("buffer overflow detected"),
 * so only lengths within it are passed here. */
static void e___wrap___memcpy_chk(void)
{
	QUIET(__wrap___memcpy_chk(host, host + 128, 0, 0));
	QUIET(__wrap___memcpy_chk(host, host + 128, 64, 128));
}
static void e___wrap___memmove_chk(void)
{
	/* Not overlapping: Valgrind takes glibc's __memmove_chk, an alias of
	 * __memcpy_chk, for the latter and would report the overlap. */
	QUIET(__wrap___memmove_chk(host, host + 128, 64, 128));
}
static void e___wrap___memset_chk(void)
{
	QUIET(__wrap___memset_chk(host, 0, 64, 64));
}

/* No argument at all (or none that can be wrong). */
/* Embedded struct device, devres, PCI */
static void e_device_initialize(void)
{
	SILENT(device_initialize(NULL));
}
static void e_get_device(void)
{
	PNULL(get_device(NULL));
	REP(get_device(&fdev));
}
static void e_put_device(void)
{
	QUIET(put_device(NULL));
	REP(put_device(&fdev));
}
static void e_dmaemu_device_bind(void)
{
	REP(RET(dmaemu_device_bind(NULL, &fdev), -EINVAL));
	REP(RET(dmaemu_device_bind(dead_d, &fdev), -EINVAL));
	REP(RET(dmaemu_device_bind(d, NULL), -EINVAL));
}
static void e_dmaemu_device_unbind(void)
{
	REP(RET(dmaemu_device_unbind(NULL), -EINVAL));
	REP(RET(dmaemu_device_unbind(&fdev), -EINVAL));
}
static void e_dmaemu_pci_dev_bind(void)
{
	REP(RET(dmaemu_pci_dev_bind(NULL, NULL), -EINVAL));
	REP(RET(dmaemu_pci_dev_bind(dead_d, NULL), -EINVAL));
	REP(RET(dmaemu_pci_dev_bind(d, NULL), -EINVAL));
}
static void e_devres_alloc(void)
{
	PNULL(devres_alloc(NULL, 16, GFP_KERNEL));
}
static void e_devres_free(void)
{
	QUIET(devres_free(NULL));
}
static void e_devres_add(void)
{
	REP(devres_add(NULL, NULL));
	REP(devres_add(&fdev, NULL));
	REP(devres_add(dev, NULL));
}
static void e_devres_find(void)
{
	REP(PNULL(devres_find(&fdev, NULL, NULL, NULL)));
	PNULL(devres_find(dev, NULL, NULL, NULL));
}
static void e_devres_get(void)
{
	REP(PNULL(devres_get(&fdev, NULL, NULL, NULL)));
}
static void e_devres_remove(void)
{
	REP(PNULL(devres_remove(&fdev, NULL, NULL, NULL)));
}
static void e_devres_destroy(void)
{
	ck_assert_int_ne(devres_destroy(&fdev, NULL, NULL, NULL), 0);
}
static void e_devres_release(void)
{
	ck_assert_int_ne(devres_release(&fdev, NULL, NULL, NULL), 0);
}
static void e_devres_release_all(void)
{
	REP(ck_assert_int_lt(devres_release_all(&fdev), 0));
}

/* Device timing and posted writes */
static void e_dmaemu_dma_drain(void)
{
	REP(RET(dmaemu_dma_drain(NULL), -EINVAL));
	REP(RET(dmaemu_dma_drain(dead_d), -EINVAL));
}
static void e_dmaemu_device_set_timing(void)
{
	REP(RET(dmaemu_device_set_timing(NULL, NULL), -EINVAL));
	REP(RET(dmaemu_device_set_timing(dead_d, NULL), -EINVAL));
}
static void e_dmaemu_device_set_options(void)
{
	REP(RET(dmaemu_device_set_options(NULL, "latency=1us"), -EINVAL));
	REP(RET(dmaemu_device_set_options(d, NULL), -EINVAL));
	REP(RET(dmaemu_device_set_options(d, "latency=banana"), -EINVAL));
	REP(RET(dmaemu_device_set_options(d, "nope=1"), -EINVAL));
}

/* Seeing it */
static void e_dmaemu_line_map_print(void)
{
	ck_assert_int_lt(dmaemu_line_map_print(NULL, 0, 64, stderr, 0), 0);
	ck_assert_int_lt(dmaemu_line_map_print(dead_m, 0, 64, stderr, 0), 0);
	ck_assert_int_lt(dmaemu_line_map_print(m, 0x80000000, 0, stderr, 0), 0);
	ck_assert_int_lt(dmaemu_line_map_print(m, 0x80000000, 64, NULL, 0), 0);
	ck_assert_int_lt(dmaemu_line_map_print(m, ~0ULL - 8, 64, stderr, 0), 0);
	ck_assert_int_lt(dmaemu_line_map_print(m, 0x80000000, BIG, stderr, 0),
			 0);
}
static void e_dmaemu_line_map_svg(void)
{
	ck_assert_int_lt(dmaemu_line_map_svg(NULL, 0, 64, "t", stderr), 0);
	ck_assert_int_lt(dmaemu_line_map_svg(dead_m, 0, 64, "t", stderr), 0);
	ck_assert_int_lt(dmaemu_line_map_svg(m, 0x80000000, 64, "t", NULL), 0);
	ck_assert_int_lt(dmaemu_line_map_svg(m, ~0ULL - 8, 64, "t", stderr), 0);
}
static void e_dmaemu_machine_dump(void)
{
	ck_assert_int_lt(dmaemu_machine_dump(NULL, stderr), 0);
	ck_assert_int_lt(dmaemu_machine_dump(dead_m, stderr), 0);
	ck_assert_int_lt(dmaemu_machine_dump(m, NULL), 0);
}
static void e_dmaemu_machine_stats(void)
{
	struct dmaemu_machine_stats st;

	ck_assert_int_lt(dmaemu_machine_stats(NULL, &st), 0);
	ck_assert_int_lt(dmaemu_machine_stats(dead_m, &st), 0);
	ck_assert_int_lt(dmaemu_machine_stats(m, NULL), 0);
}
static void e_dmaemu_machine_stats_print(void)
{
	ck_assert_int_lt(dmaemu_machine_stats_print(NULL, stderr), 0);
	ck_assert_int_lt(dmaemu_machine_stats_print(dead_m, stderr), 0);
	ck_assert_int_lt(dmaemu_machine_stats_print(m, NULL), 0);
}
static void e_dmaemu_device_stats(void)
{
	struct dmaemu_device_stats st;

	ck_assert_int_lt(dmaemu_device_stats(NULL, &st), 0);
	ck_assert_int_lt(dmaemu_device_stats(dead_d, &st), 0);
	ck_assert_int_lt(dmaemu_device_stats(d, NULL), 0);
}

/* vmalloc and mmap handlers */
static void e_vmalloc(void)
{
	QUIET(PNULL(vmalloc(0)));
	PNULL(vmalloc(ULONG_MAX));
}
static void e_vzalloc(void)
{
	PNULL(vzalloc(ULONG_MAX));
}
static void e_vmalloc_user(void)
{
	PNULL(vmalloc_user(ULONG_MAX));
}
static void e_vmalloc_32(void)
{
	PNULL(vmalloc_32(ULONG_MAX));
}
static void e_vmalloc_32_user(void)
{
	PNULL(vmalloc_32_user(ULONG_MAX));
}
static void e_vmalloc_node(void)
{
	PNULL(vmalloc_node(ULONG_MAX, 0));
}
static void e_vzalloc_node(void)
{
	PNULL(vzalloc_node(ULONG_MAX, 0));
}
static void e___vmalloc(void)
{
	PNULL(__vmalloc(ULONG_MAX, GFP_KERNEL, PAGE_KERNEL));
}
static void e_vfree(void)
{
	QUIET(vfree(NULL));
	REP(vfree(host));
}
static void e_vmap(void)
{
	PNULL(vmap(NULL, 1, 0, PAGE_KERNEL));
}
static void e_vunmap(void)
{
	QUIET(vunmap(NULL));
	REP(vunmap(host));
}
static void e_vmalloc_to_page(void)
{
	PNULL(vmalloc_to_page(NULL));
	PNULL(vmalloc_to_page(host));
}
static void e_vmalloc_to_pfn(void)
{
	RET(vmalloc_to_pfn(NULL), 0);
	RET(vmalloc_to_pfn(host), 0);
}
static void e_is_vmalloc_addr(void)
{
	RET(is_vmalloc_addr(NULL), 0);
	RET(is_vmalloc_addr(host), 0);
}
static void e_remap_pfn_range(void)
{
	struct vm_area_struct vma;

	memset(&vma, 0, sizeof(vma));
	ck_assert_int_lt(remap_pfn_range(NULL, 0, 0, 4096, PAGE_KERNEL), 0);
	ck_assert_int_lt(remap_pfn_range(&vma, 0, 0, 4096, PAGE_KERNEL), 0);
}
static void e_remap_vmalloc_range(void)
{
	struct vm_area_struct vma;

	memset(&vma, 0, sizeof(vma));
	ck_assert_int_lt(remap_vmalloc_range(NULL, NULL, 0), 0);
	ck_assert_int_lt(remap_vmalloc_range(&vma, host, 0), 0);
}

/* Networking: sk_buffs */
static struct sk_buff *skbuf(unsigned int n)
{
	struct sk_buff *skb = alloc_skb(n, GFP_KERNEL);

	ck_assert_ptr_nonnull(skb);
	return skb;
}
static void e_alloc_skb(void)
{
	REP(PNULL(alloc_skb(UINT_MAX, GFP_KERNEL)));
	dmaemu_machine_set_current(NULL);
	PNULL(alloc_skb(64, GFP_KERNEL)); /* no machine: reported nowhere */
	dmaemu_machine_set_current(m);
}
static void e___netdev_alloc_skb(void)
{
	/* len + NET_SKB_PAD must not wrap to a small buffer. */
	REP(PNULL(__netdev_alloc_skb(NULL, UINT_MAX, GFP_KERNEL)));
	REP(PNULL(__netdev_alloc_skb(NULL, UINT_MAX - 16, GFP_KERNEL)));
}
static void e___napi_alloc_skb(void)
{
	REP(PNULL(__napi_alloc_skb(NULL, UINT_MAX, GFP_KERNEL)));
	REP(PNULL(__napi_alloc_skb(NULL, UINT_MAX - 16, GFP_KERNEL)));
}
static void e_build_skb(void)
{
	void *p = kbuf(64);

	REP(PNULL(build_skb(NULL, 0)));
	REP(PNULL(build_skb(host, 0)));
	REP(PNULL(build_skb(p, 4096))); /* larger than the object */
	REP(PNULL(build_skb(p, 8)));	/* no room for the shared info */
	kfree(p);
	REP(PNULL(build_skb(p, 0))); /* freed */
}
/* A free of an sk_buff: NULL is legal, a foreign pointer and a second
 * free are reported. */
#define SKB_FREE_ENTRY(f)                               \
	static void e_##f(void)                         \
	{                                               \
		struct sk_buff *skb = skbuf(64);        \
                                                        \
		QUIET(f(NULL));                         \
		REP(f((struct sk_buff *)(void *)host)); \
		QUIET(f(skb));                          \
		REP(f(skb)); /* twice */                \
	}
SKB_FREE_ENTRY(kfree_skb)
SKB_FREE_ENTRY(consume_skb)
SKB_FREE_ENTRY(dev_kfree_skb_any)
SKB_FREE_ENTRY(dev_kfree_skb_irq)
static void e_skb_put(void)
{
	REP(PNULL(skb_put(NULL, 4)));
	/* Past the end: 4.14's skb_over_panic() BUG()s; a kernel-bug report
	 * and abort() (check-net: test_skb_over_panic). */
}
static void e_skb_put_data(void)
{
	struct sk_buff *skb = skbuf(64);

	REP(PNULL(skb_put_data(NULL, host, 4)));
	REP(PNULL(skb_put_data(skb, NULL, 4)));
	RET(skb->len, 0);
	kfree_skb(skb);
}
static void e_skb_push(void)
{
	REP(PNULL(skb_push(NULL, 4)));
	/* Past the head: skb_under_panic(), as skb_put(). */
}
static void e_skb_pull(void)
{
	struct sk_buff *skb = skbuf(64);

	REP(PNULL(skb_pull(NULL, 4)));
	skb_put(skb, 10);
	QUIET(PNULL(skb_pull(skb, 11))); /* more than len: NULL, as 4.14 */
	QUIET(PNULL(skb_pull(skb, UINT_MAX)));
	RET(skb->len, 10);
	kfree_skb(skb);
}
static void e_skb_trim(void)
{
	struct sk_buff *skb = skbuf(64);

	REP(skb_trim(NULL, 0));
	skb_put(skb, 10);
	QUIET(skb_trim(skb, UINT_MAX)); /* longer than len: nothing */
	RET(skb->len, 10);
	kfree_skb(skb);
}

/* Networking: devices */
static struct net_device *ndev(void)
{
	struct net_device *nd = alloc_etherdev(0);

	ck_assert_ptr_nonnull(nd);
	return nd;
}
static void e_alloc_netdev_mqs(void)
{
	REP(PNULL(alloc_netdev_mqs(-1, "x%d", 0, ether_setup, 1, 1)));
	REP(PNULL(alloc_netdev_mqs(0, NULL, 0, ether_setup, 1, 1)));
	REP(PNULL(alloc_netdev_mqs(0, "x%d", 0, ether_setup, 0, 1)));
	REP(PNULL(alloc_netdev_mqs(0, "x%d", 0, NULL, UINT_MAX, 1)));
}
static void e_alloc_etherdev_mqs(void)
{
	REP(PNULL(alloc_etherdev_mqs(-1, 1, 1)));
	REP(PNULL(alloc_etherdev_mqs(0, 0, 0)));
}
static void e_free_netdev(void)
{
	QUIET(free_netdev(NULL));
}
static void e_register_netdev(void)
{
	struct net_device *nd = ndev();

	REP(RET(register_netdev(NULL), -EINVAL));
	REP(RET(register_netdev(nd), -EINVAL)); /* no netdev_ops */
	free_netdev(nd);
}
static void e_unregister_netdev(void)
{
	struct net_device *nd = ndev();

	REP(unregister_netdev(NULL));
	REP(unregister_netdev(nd)); /* never registered */
	free_netdev(nd);
}
/* A call that wants a registered device: NULL and an unregistered one
 * are reported, -EINVAL. */
#define NETDEV_ENTRY(f, ...)                            \
	static void e_##f(void)                         \
	{                                               \
		struct net_device *nd = ndev();         \
                                                        \
		REP(RET(f(NULL __VA_ARGS__), -EINVAL)); \
		REP(RET(f(nd __VA_ARGS__), -EINVAL));   \
		free_netdev(nd);                        \
	}
NETDEV_ENTRY(dev_open)
NETDEV_ENTRY(dev_close)
NETDEV_ENTRY(dmaemu_net_open)
NETDEV_ENTRY(dmaemu_net_close)
NETDEV_ENTRY(dmaemu_net_xmit, , host, 64, false, 1)
NETDEV_ENTRY(dmaemu_net_recv, , host, sizeof(host), 1, NULL)
static void e_dmaemu_net_stats(void)
{
	struct dmaemu_net_stats st;
	struct net_device *nd = ndev();

	REP(RET(dmaemu_net_stats(NULL, &st), -EINVAL));
	REP(RET(dmaemu_net_stats(nd, &st), -EINVAL));
	RET(dmaemu_net_stats(nd, NULL), -EINVAL);
	free_netdev(nd);
}
static void e_dmaemu_net_find(void)
{
	REP(PNULL(dmaemu_net_find(NULL)));
	QUIET(PNULL(dmaemu_net_find("nosuch0"))); /* not found: legal */
	dmaemu_machine_set_current(NULL);
	PNULL(dmaemu_net_find("eth0"));
	dmaemu_machine_set_current(m);
}
/* A TX queue call: NULL is reported. */
#define TXQ_ENTRY(f, ...)                 \
	static void e_##f(void)           \
	{                                 \
		REP(f(NULL __VA_ARGS__)); \
	}
TXQ_ENTRY(netif_tx_start_queue)
TXQ_ENTRY(netif_tx_stop_queue)
TXQ_ENTRY(netif_tx_wake_queue)
TXQ_ENTRY(netif_tx_start_all_queues)
TXQ_ENTRY(netif_tx_stop_all_queues)
TXQ_ENTRY(netif_tx_wake_all_queues)
TXQ_ENTRY(netdev_tx_sent_queue, , 64)
TXQ_ENTRY(netdev_tx_reset_queue)
static void e_netdev_tx_completed_queue(void)
{
	struct net_device *nd = ndev();
	struct netdev_queue *q = netdev_get_tx_queue(nd, 0);

	REP(netdev_tx_completed_queue(NULL, 1, 64));
	netdev_tx_sent_queue(q, 64);
	REP(netdev_tx_completed_queue(q, 2, 128)); /* more than was sent */
	REP(netdev_tx_completed_queue(q, 1, UINT_MAX));
	free_netdev(nd);
}
/* The stack takes a frame: NULL, a foreign pointer and an sk_buff with
 * no registered device are dropped and reported. */
#define RX_ENTRY(call, drop)                                               \
	static void e_##call(void)                                         \
	{                                                                  \
		struct sk_buff *skb = skbuf(64);                           \
                                                                           \
		REP(RET(RX_##call(NULL), drop));                           \
		REP(RET(RX_##call((struct sk_buff *)(void *)host), drop)); \
		skb_put(skb, ETH_HLEN);                                    \
		REP(RET(RX_##call(skb), drop)); /* no skb->dev; freed */   \
		REP(kfree_skb(skb));                                       \
	}
#define RX_netif_receive_skb(s) netif_receive_skb(s)
#define RX_netif_rx(s) netif_rx(s)
#define RX_netif_rx_ni(s) netif_rx_ni(s)
#define RX_napi_gro_receive(s) napi_gro_receive(NULL, s)
RX_ENTRY(netif_receive_skb, NET_RX_DROP)
RX_ENTRY(netif_rx, NET_RX_DROP)
RX_ENTRY(netif_rx_ni, NET_RX_DROP)
RX_ENTRY(napi_gro_receive, GRO_DROP)

/* High-resolution timers: NULL, not initialized, no function */
static void e_hrtimer_init(void)
{
	REP(hrtimer_init(NULL, CLOCK_MONOTONIC, HRTIMER_MODE_REL));
}
static void e_hrtimer_start_range_ns(void)
{
	struct hrtimer h;

	memset(&h, 0, sizeof(h));
	REP(hrtimer_start_range_ns(NULL, 1000, 0, HRTIMER_MODE_REL));
	REP(hrtimer_start_range_ns(&h, 1000, 0, HRTIMER_MODE_REL));
	hrtimer_init(&h, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	REP(hrtimer_start_range_ns(&h, 1000, 0, HRTIMER_MODE_REL));
	ck_assert(!hrtimer_active(&h));
}
static void e_hrtimer_try_to_cancel(void)
{
	REP(RET(hrtimer_try_to_cancel(NULL), 0));
}
static void e_hrtimer_cancel(void)
{
	REP(RET(hrtimer_cancel(NULL), 0));
}
static void e_hrtimer_forward(void)
{
	struct hrtimer h;

	REP(RET(hrtimer_forward(NULL, 0, 1000), 0));
	hrtimer_init(&h, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	REP(RET(hrtimer_forward(&h, 5000000, 0), 0));
}

/* Busy register ranges */
static void e_request_mem_region(void)
{
	REP(PNULL(request_mem_region(0x1000, 0, "x")));
	REP(PNULL(request_mem_region(~(resource_size_t)0, 2, "x")));
}
static void e_release_mem_region(void)
{
	REP(release_mem_region(0x1000, 0x10)); /* never requested */
}
static void e_devm_request_mem_region(void)
{
	REP(PNULL(devm_request_mem_region(NULL, 0x1000, 0x10, "x")));
	REP(PNULL(devm_request_mem_region(&fdev, 0x1000, 0x10, "x")));
	REP(PNULL(devm_request_mem_region(dev, 0x1000, 0, "x")));
}

/* Clocks: a clock of no device, error pointers, unbalanced counts (a
 * NULL clock is the optional clock: legal) */
static struct clk *bad_clk(void)
{
	return (struct clk *)&fdev; /* not a clock */
}
static void e_clk_get(void)
{
	REP(RET(PTR_ERR(clk_get(NULL, "x")), -EINVAL));
	REP(RET(PTR_ERR(clk_get(&fdev, NULL)), -EINVAL));
}
static void e_devm_clk_get(void)
{
	REP(RET(PTR_ERR(devm_clk_get(NULL, NULL)), -EINVAL));
	REP(RET(PTR_ERR(devm_clk_get(&fdev, NULL)), -EINVAL));
}
static void e_clk_put(void)
{
	QUIET(clk_put(NULL));
	REP(clk_put(ERR_PTR(-ENOENT)));
	REP(clk_put(bad_clk()));
}
static void e_devm_clk_put(void)
{
	struct clk *c = clk_get(dev, NULL);

	QUIET(devm_clk_put(dev, NULL));
	REP(devm_clk_put(dev, ERR_PTR(-ENOENT)));
	REP(devm_clk_put(dev, c)); /* not a devm_clk_get() clock */
	clk_put(c);
}
static void e_clk_prepare(void)
{
	QUIET(RET(clk_prepare(NULL), 0));
	REP(RET(clk_prepare(ERR_PTR(-ENOENT)), -EINVAL));
	REP(RET(clk_prepare(bad_clk()), -EINVAL));
}
static void e_clk_unprepare(void)
{
	struct clk *c = clk_get(dev, NULL);

	REP(clk_unprepare(c)); /* not prepared */
	REP(clk_unprepare(ERR_PTR(-ENOENT)));
	clk_put(c);
}
static void e_clk_enable(void)
{
	struct clk *c = clk_get(dev, NULL);

	REP(RET(clk_enable(c), -ESHUTDOWN)); /* not prepared */
	REP(RET(clk_enable(ERR_PTR(-ENOENT)), -EINVAL));
	clk_put(c);
}
static void e_clk_disable(void)
{
	struct clk *c = clk_get(dev, NULL);

	REP(clk_disable(c)); /* not enabled */
	REP(clk_disable(ERR_PTR(-ENOENT)));
	clk_put(c);
}
static void e_clk_prepare_enable(void)
{
	REP(RET(clk_prepare_enable(ERR_PTR(-ENOENT)), -EINVAL));
	REP(RET(clk_prepare_enable(bad_clk()), -EINVAL));
}
static void e_clk_disable_unprepare(void)
{
	struct clk *c = clk_get(dev, NULL);

	REP(clk_disable_unprepare(c)); /* neither enabled nor prepared */
	REP(clk_disable_unprepare(ERR_PTR(-ENOENT)));
	clk_put(c);
}
static void e_clk_get_rate(void)
{
	REP(RET(clk_get_rate(ERR_PTR(-ENOENT)), 0));
}
static void e_clk_set_rate(void)
{
	REP(RET(clk_set_rate(ERR_PTR(-ENOENT), 1), -EINVAL));
}
static void e_clk_round_rate(void)
{
	REP(RET(clk_round_rate(ERR_PTR(-ENOENT), 1), -EINVAL));
}

/* Networking: the MII library (an interface without callbacks, NULL
 * structures) */
static int bad_mdio_read(struct net_device *nd, int phy, int reg)
{
	(void)nd;
	(void)phy;
	(void)reg;
	return 0;
}
static void bad_mdio_write(struct net_device *nd, int phy, int reg, int v)
{
	(void)nd;
	(void)phy;
	(void)reg;
	(void)v;
}
static struct mii_if_info mii_nocb, mii_ok = {
					    .mdio_read = bad_mdio_read,
					    .mdio_write = bad_mdio_write,
					    .phy_id_mask = 0x1f,
					    .reg_num_mask = 0x1f,
};
static void e_mii_link_ok(void)
{
	REP(RET(mii_link_ok(NULL), 0));
	REP(RET(mii_link_ok(&mii_nocb), 0));
}
static void e_mii_nway_restart(void)
{
	REP(RET(mii_nway_restart(NULL), -EINVAL));
	REP(RET(mii_nway_restart(&mii_nocb), -EINVAL));
}
static void e_mii_ethtool_gset(void)
{
	struct ethtool_cmd c;

	REP(RET(mii_ethtool_gset(NULL, &c), -EINVAL));
	REP(RET(mii_ethtool_gset(&mii_ok, NULL), -EINVAL));
}
static void e_mii_ethtool_sset(void)
{
	struct ethtool_cmd c = {0};

	REP(RET(mii_ethtool_sset(NULL, &c), -EINVAL));
	REP(RET(mii_ethtool_sset(&mii_ok, NULL), -EINVAL));
	RET(mii_ethtool_sset(&mii_ok, &c), -EINVAL); /* speed 0 */
}
static void e_mii_ethtool_get_link_ksettings(void)
{
	struct ethtool_link_ksettings k;

	REP(mii_ethtool_get_link_ksettings(NULL, &k));
	REP(mii_ethtool_get_link_ksettings(&mii_ok, NULL));
}
static void e_mii_ethtool_set_link_ksettings(void)
{
	struct ethtool_link_ksettings k;

	memset(&k, 0, sizeof(k));
	REP(RET(mii_ethtool_set_link_ksettings(NULL, &k), -EINVAL));
	REP(RET(mii_ethtool_set_link_ksettings(&mii_ok, NULL), -EINVAL));
}
static void e_mii_check_gmii_support(void)
{
	REP(RET(mii_check_gmii_support(NULL), 0));
}
static void e_mii_check_link(void)
{
	REP(mii_check_link(NULL));
	REP(mii_check_link(&mii_ok)); /* no net_device */
}
static void e_mii_check_media(void)
{
	REP(RET(mii_check_media(NULL, 1, 1), 0));
	REP(RET(mii_check_media(&mii_ok, 1, 1), 0)); /* no net_device */
}
static void e_generic_mii_ioctl(void)
{
	struct mii_ioctl_data io = {0};
	unsigned int chg = 7;

	REP(RET(generic_mii_ioctl(NULL, &io, SIOCGMIIREG, &chg), -EINVAL));
	ck_assert_uint_eq(chg, 0);
	REP(RET(generic_mii_ioctl(&mii_ok, NULL, SIOCGMIIREG, NULL), -EINVAL));
	RET(generic_mii_ioctl(&mii_ok, &io, 0x1234, NULL), -EOPNOTSUPP);
}

/* Networking: Ethernet */
static void e_eth_type_trans(void)
{
	struct net_device *nd = ndev();
	struct sk_buff *skb = skbuf(64);

	REP(RET(eth_type_trans(NULL, nd), 0));
	REP(RET(eth_type_trans(skb, NULL), 0));
	skb_put(skb, ETH_HLEN - 1);
	REP(RET(eth_type_trans(skb, nd), 0)); /* shorter than a header */
	kfree_skb(skb);
	free_netdev(nd);
}
static void e_ether_setup(void)
{
	REP(ether_setup(NULL));
}
static void e_eth_validate_addr(void)
{
	struct net_device *nd = ndev();

	REP(RET(eth_validate_addr(NULL), -EINVAL));
	/* All zeroes, then multicast: not a valid address. */
	QUIET(RET(eth_validate_addr(nd), -EADDRNOTAVAIL));
	nd->dev_addr[0] = 0x01;
	QUIET(RET(eth_validate_addr(nd), -EADDRNOTAVAIL));
	free_netdev(nd);
}
static void e_eth_mac_addr(void)
{
	struct net_device *nd = ndev();
	unsigned char sa[16] = {0};

	REP(RET(eth_mac_addr(NULL, sa), -EINVAL));
	RET(eth_mac_addr(nd, NULL), -EADDRNOTAVAIL);
	RET(eth_mac_addr(nd, sa), -EADDRNOTAVAIL); /* zero */
	sa[2] = 0xff;
	RET(eth_mac_addr(nd, sa), -EADDRNOTAVAIL); /* multicast */
	free_netdev(nd);
}
static void e_eth_random_addr(void)
{
	REP(eth_random_addr(NULL));
}
static void e_dev_mc_add(void)
{
	struct net_device *nd = ndev();
	static const unsigned char a[6] = {0x01, 0, 0x5e, 0, 0, 1};

	REP(RET(dev_mc_add(NULL, a), -EINVAL));
	REP(RET(dev_mc_add(nd, NULL), -EINVAL));
	free_netdev(nd);
}
static void e_dev_mc_del(void)
{
	struct net_device *nd = ndev();
	static const unsigned char a[6] = {0x01, 0, 0x5e, 0, 0, 1};

	REP(RET(dev_mc_del(NULL, a), -EINVAL));
	REP(RET(dev_mc_del(nd, NULL), -EINVAL));
	QUIET(RET(dev_mc_del(nd, a), -ENOENT));
	free_netdev(nd);
}
static void e_dev_uc_add(void)
{
	struct net_device *nd = ndev();

	REP(RET(dev_uc_add(NULL, nd->dev_addr), -EINVAL));
	REP(RET(dev_uc_add(nd, NULL), -EINVAL));
	free_netdev(nd);
}
static void e_dev_uc_del(void)
{
	struct net_device *nd = ndev();

	REP(RET(dev_uc_del(NULL, nd->dev_addr), -EINVAL));
	REP(RET(dev_uc_del(nd, NULL), -EINVAL));
	QUIET(RET(dev_uc_del(nd, nd->dev_addr), -ENOENT));
	free_netdev(nd);
}
static void e_ethtool_op_get_link(void)
{
	REP(RET(ethtool_op_get_link(NULL), 0));
}
static void e_ethtool_op_get_ts_info(void)
{
	struct net_device *nd = ndev();
	struct ethtool_ts_info ts;

	REP(RET(ethtool_op_get_ts_info(NULL, &ts), -EINVAL));
	REP(RET(ethtool_op_get_ts_info(nd, NULL), -EINVAL));
	free_netdev(nd);
}
static void e_devm_ioremap(void)
{
	REP(PNULL(devm_ioremap(NULL, 0x1000, 4)));
	REP(PNULL(devm_ioremap(dev, 0x1000, 4))); /* no window there */
}
static void e_devm_ioremap_nocache(void)
{
	REP(PNULL(devm_ioremap_nocache(NULL, 0x1000, 4)));
}
static void e_devm_ioremap_wc(void)
{
	REP(PNULL(devm_ioremap_wc(NULL, 0x1000, 4)));
}
static void e_devm_iounmap(void)
{
	int x;

	REP(devm_iounmap(NULL, (void __iomem *)&x)); /* not a cookie */
	QUIET(devm_iounmap(NULL, NULL));
}
static void e_platform_driver_probe(void)
{
	static struct platform_driver drv = {.driver = {.name = "none"}};

	REP(RET(platform_driver_probe(NULL, NULL), -EINVAL));
	REP(RET(platform_driver_probe(&drv, NULL), -EINVAL));
}
static void e_devm_irq_release(void)
{
	REP(devm_irq_release(NULL, NULL));
}
static void e_devm_irq_match(void)
{
	struct irq_devres r = {0, NULL};

	REP(RET(devm_irq_match(NULL, NULL, &r), 0));
	REP(RET(devm_irq_match(NULL, &r, NULL), 0));
}

/* Networking: NAPI */
static int napi_poll_fn(struct napi_struct *n, int budget)
{
	(void)n;
	(void)budget;
	return 0;
}
static void e_netif_napi_add(void)
{
	struct net_device *nd = ndev();
	struct napi_struct n;

	memset(&n, 0, sizeof(n));
	REP(netif_napi_add(NULL, &n, napi_poll_fn, 64));
	REP(netif_napi_add(nd, NULL, napi_poll_fn, 64));
	REP(netif_napi_add(nd, &n, NULL, 64));
	REP(netif_napi_add(nd, &n, napi_poll_fn, 0));
	REP(netif_napi_add(nd, &n, napi_poll_fn, INT_MIN));
	free_netdev(nd);
}
static void e_netif_napi_del(void)
{
	REP(netif_napi_del(NULL));
}
static void e_napi_enable(void)
{
	struct net_device *nd = ndev();
	struct napi_struct n;

	REP(napi_enable(NULL));
	memset(&n, 0, sizeof(n));
	netif_napi_add(nd, &n, napi_poll_fn, 64);
	napi_enable(&n);
	REP(napi_enable(&n)); /* enabled already */
	napi_disable(&n);
	free_netdev(nd);
}
static void e_napi_disable(void)
{
	struct net_device *nd = ndev();
	struct napi_struct n;

	REP(napi_disable(NULL));
	memset(&n, 0, sizeof(n));
	netif_napi_add(nd, &n, napi_poll_fn, 64);
	REP(napi_disable(&n)); /* never enabled: would wait forever */
	free_netdev(nd);
}
static void e_napi_schedule_prep(void)
{
	REP(RET(napi_schedule_prep(NULL), false));
}
static void e___napi_schedule(void)
{
	struct napi_struct n;

	memset(&n, 0, sizeof(n));
	REP(__napi_schedule(NULL));
	REP(__napi_schedule(&n)); /* never added */
}
static void e_napi_complete_done(void)
{
	struct napi_struct n;

	memset(&n, 0, sizeof(n));
	REP(RET(napi_complete_done(NULL, 0), false));
	REP(RET(napi_complete_done(&n, 0), false)); /* not scheduled */
}

/* Tasklets */
static void tasklet_fn(unsigned long data)
{
	(void)data;
}
static void e_tasklet_init(void)
{
	struct tasklet_struct t;

	REP(tasklet_init(NULL, tasklet_fn, 0));
	REP(tasklet_init(&t, NULL, 0));
}
static void e_tasklet_schedule(void)
{
	struct tasklet_struct t;

	tasklet_init(&t, tasklet_fn, 0);
	REP(tasklet_schedule(NULL));
	dmaemu_machine_set_current(NULL);
	tasklet_schedule(&t); /* no machine: reported nowhere, not run */
	dmaemu_machine_set_current(m);
	RET(t.state, 0);
}
static void e_tasklet_hi_schedule(void)
{
	REP(tasklet_hi_schedule(NULL));
}
static void e_tasklet_disable(void)
{
	REP(tasklet_disable(NULL));
}
static void e_tasklet_disable_nosync(void)
{
	REP(tasklet_disable_nosync(NULL));
}
static void e_tasklet_enable(void)
{
	struct tasklet_struct t;

	tasklet_init(&t, tasklet_fn, 0);
	REP(tasklet_enable(NULL));
	REP(tasklet_enable(&t)); /* not disabled */
	tasklet_kill(&t);
}
static void e_tasklet_kill(void)
{
	struct tasklet_struct t;

	tasklet_init(&t, tasklet_fn, 0);
	REP(tasklet_kill(NULL));
	QUIET(tasklet_kill(&t)); /* never scheduled: nothing to wait for */
	dmaemu_enter_irq();
	REP(tasklet_kill(&t)); /* from interrupt context */
	dmaemu_exit_irq();
	tasklet_disable(&t);
	tasklet_schedule(&t);
	REP(tasklet_kill(&t)); /* scheduled and disabled: never runs */
	tasklet_enable(&t);
}

static void e_none(void)
{
}

/* ---------------------------------------------------------------------- */
/* The table                                                              */
/* ---------------------------------------------------------------------- */

struct entry {
	const char *name;
	void (*fn)(void);
	const char *reason; /* for e_none: why nothing can be wrong */
};

#define E(f)                    \
	{                       \
#f, e_##f, NULL \
	}
#define NONE(f, why)            \
	{                       \
#f, e_none, why \
	}

static const struct entry table[] = {
	E(__vmalloc),
	E(device_initialize),
	E(devres_add),
	E(devres_alloc),
	E(devres_destroy),
	E(devres_find),
	E(devres_free),
	E(devres_get),
	E(devres_release),
	E(devres_release_all),
	E(devres_remove),
	E(dmaemu_device_bind),
	E(dmaemu_device_set_options),
	E(dmaemu_device_set_timing),
	E(dmaemu_device_stats),
	E(dmaemu_device_unbind),
	E(dmaemu_dma_drain),
	E(dmaemu_line_map_print),
	E(dmaemu_line_map_svg),
	E(dmaemu_machine_dump),
	E(dmaemu_machine_stats),
	E(dmaemu_machine_stats_print),
	E(dmaemu_pci_dev_bind),
	E(get_device),
	E(is_vmalloc_addr),
	E(put_device),
	E(remap_pfn_range),
	E(remap_vmalloc_range),
	E(vfree),
	E(vmalloc),
	E(vmalloc_32),
	E(vmalloc_32_user),
	E(vmalloc_node),
	E(vmalloc_to_page),
	E(vmalloc_to_pfn),
	E(vmalloc_user),
	E(vmap),
	E(vunmap),
	E(vzalloc),
	E(vzalloc_node),
	E(__free_pages),
	E(__get_free_pages),
	E(alloc_pages),
	E(alloc_pages_exact),
	E(alloc_pages_node),
	E(free_pages),
	E(free_pages_exact),
	E(get_zeroed_page),
	E(split_page),
	E(page_address),
	E(pfn_to_page),
	E(pfn_valid),
	E(virt_to_page),
	E(virt_to_phys),
	E(phys_to_virt),
	E(virt_addr_valid),
	E(kmalloc),
	E(kzalloc),
	E(kcalloc),
	E(kmalloc_array),
	E(kmalloc_node),
	E(kvmalloc),
	E(kvzalloc),
	E(kvmalloc_array),
	E(kfree),
	E(kzfree),
	E(kvfree),
	E(ksize),
	E(krealloc),
	E(kmemdup),
	E(kstrdup),
	E(kstrndup),
	E(kasprintf),
	E(kvasprintf),
	E(devm_kmalloc),
	E(devm_kzalloc),
	E(devm_kfree),
	E(devm_ioremap_resource),
	E(ioremap),
	E(ioremap_nocache),
	E(ioremap_wc),
	E(iounmap),
	E(dma_alloc_attrs),
	E(dma_free_attrs),
	E(dmam_alloc_attrs),
	E(dmam_alloc_coherent),
	E(dmam_free_coherent),
	E(dma_mmap_attrs),
	E(dma_get_sgtable_attrs),
	E(dma_cache_sync),
	E(dma_alloc_noncoherent),
	E(dma_free_noncoherent),
	E(dma_alloc_pages),
	E(dma_free_pages),
	E(dma_mmap_pages),
	E(dma_alloc_noncontiguous),
	E(dma_free_noncontiguous),
	E(dma_vmap_noncontiguous),
	E(dma_vunmap_noncontiguous),
	E(dma_mmap_noncontiguous),
	E(dma_map_sgtable),
	E(dma_unmap_sgtable),
	E(dma_sync_sgtable_for_cpu),
	E(dma_sync_sgtable_for_device),
	E(dma_need_sync),
	E(dma_max_mapping_size),
	E(dma_opt_mapping_size),
	E(dma_set_mask),
	E(dma_set_coherent_mask),
	E(dma_set_mask_and_coherent),
	E(dma_coerce_mask_and_coherent),
	E(dma_supported),
	E(dma_get_mask),
	E(dma_get_required_mask),
	E(dma_get_max_seg_size),
	E(dma_set_max_seg_size),
	E(dma_get_seg_boundary),
	E(dma_set_seg_boundary),
	E(dma_map_single_attrs),
	E(dma_map_page_attrs),
	E(dma_map_resource),
	E(dma_mapping_error),
	E(dma_unmap_single_attrs),
	E(dma_unmap_page_attrs),
	E(dma_unmap_resource),
	E(dma_sync_single_for_cpu),
	E(dma_sync_single_for_device),
	E(dma_sync_single_range_for_cpu),
	E(dma_sync_single_range_for_device),
	E(dma_map_sg_attrs),
	E(dma_unmap_sg_attrs),
	E(dma_sync_sg_for_cpu),
	E(dma_sync_sg_for_device),
	E(dma_pool_create),
	E(dmam_pool_create),
	E(dma_pool_destroy),
	E(dmam_pool_destroy),
	E(dma_pool_alloc),
	E(dma_pool_zalloc),
	E(dma_pool_free),
	E(sg_alloc_table),
	E(sg_alloc_table_from_pages),
	E(sg_free_table),
	E(sg_copy_from_buffer),
	E(sg_copy_to_buffer),
	E(sg_last),
	E(sg_nents),
	E(request_threaded_irq),
	E(free_irq),
	E(disable_irq),
	E(disable_irq_nosync),
	E(enable_irq),
	E(synchronize_irq),
	E(platform_get_irq),
	E(platform_get_resource),
	E(platform_driver_register),
	E(platform_driver_unregister),
	E(spin_lock_init),
	E(spin_lock),
	E(spin_lock_bh),
	E(spin_lock_irq),
	E(_raw_spin_lock_irqsave),
	E(spin_trylock),
	E(spin_is_locked),
	E(spin_unlock),
	E(spin_unlock_bh),
	E(spin_unlock_irq),
	E(spin_unlock_irqrestore),
	E(mutex_init),
	E(mutex_destroy),
	E(mutex_lock),
	E(mutex_lock_interruptible),
	E(mutex_trylock),
	E(mutex_unlock),
	E(mutex_is_locked),
	E(init_completion),
	E(reinit_completion),
	E(complete),
	E(complete_all),
	E(completion_done),
	E(try_wait_for_completion),
	E(wait_for_completion),
	E(wait_for_completion_interruptible),
	E(wait_for_completion_timeout),
	E(wait_for_completion_interruptible_timeout),
	E(init_waitqueue_head),
	E(wake_up),
	E(dmaemu_waitq_prepare),
	E(dmaemu_waitq_sleep),
	E(add_timer),
	E(mod_timer),
	E(mod_timer_pending),
	E(del_timer),
	E(del_timer_sync),
	E(try_to_del_timer_sync),
	E(delayed_work_timer_fn),
	E(alloc_workqueue),
	E(destroy_workqueue),
	E(queue_work),
	E(queue_delayed_work),
	E(mod_delayed_work),
	E(cancel_work_sync),
	E(cancel_delayed_work),
	E(cancel_delayed_work_sync),
	E(flush_work),
	E(flush_delayed_work),
	E(flush_workqueue),
	E(drain_workqueue),
	E(msleep),
	E(msleep_interruptible),
	E(usleep_range),
	E(schedule),
	E(schedule_timeout),
	E(schedule_timeout_idle),
	E(schedule_timeout_interruptible),
	E(schedule_timeout_killable),
	E(schedule_timeout_uninterruptible),
	E(cond_resched),
	E(yield),
	E(mdelay),
	E(udelay),
	E(ndelay),
	E(printk),
	E(vprintk),
	E(dev_printk),
	E(print_hex_dump),
	E(dmaemu_warn),
	NONE(dmaemu_bug, "BUG(): a kernel-bug report, then abort() by "
			 "contract (it never returns)"),
	NONE(dump_stack, "no argument"),
	NONE(get_current, "no argument"),
	NONE(cache_line_size, "no argument"),
	NONE(dma_get_cache_alignment, "no argument"),
	E(dmaemu_machine_create),
	E(dmaemu_machine_destroy),
	E(dmaemu_machine_set_current),
	E(dmaemu_machine_current),
	E(dmaemu_machine_info),
	E(dmaemu_machine_option),
	E(dmaemu_thread_create),
	E(dmaemu_thread_join),
	E(dmaemu_sched_fingerprint),
	E(dmaemu_sched_set_trace),
	E(dmaemu_device_create),
	E(dmaemu_device_destroy),
	E(dmaemu_device_to_dev),
	E(dmaemu_dev_to_device),
	E(dmaemu_device_machine),
	E(dmaemu_device_name),
	E(dmaemu_device_priv),
	E(dmaemu_device_regs),
	E(dmaemu_device_irq),
	E(dmaemu_raise_irq),
	E(dmaemu_lower_irq),
	E(dmaemu_device_doorbell),
	E(dmaemu_device_reset),
	E(dmaemu_device_stopping),
	E(dmaemu_device_timer_arm),
	E(dmaemu_device_timer_cancel),
	E(dmaemu_device_set_privileged),
	E(dmaemu_device_dma_info),
	E(dmaemu_device_mapping_find),
	E(dmaemu_device_mappings),
	E(dmaemu_device_allocation_find),
	E(dmaemu_dma_read),
	E(dmaemu_dma_write),
	E(dmaemu_iommu_info),
	E(dmaemu_iommu_iova_to_phys),
	E(dmaemu_mmio_read),
	E(dmaemu_mmio_write),
	E(dmaemu_cpu_read),
	E(dmaemu_cpu_write),
	E(dmaemu_cpu_access),
	E(dmaemu_cpu_read_once),
	E(dmaemu_cpu_barrier),
	E(dmaemu_cpu_flush_wc),
	E(dmaemu_cpu_stats),
	E(dmaemu_cache_clean),
	E(dmaemu_cache_invalidate),
	E(dmaemu_cache_clean_invalidate),
	E(dmaemu_cache_level_info),
	E(dmaemu_line_state),
	E(dmaemu_line_mask_test),
	E(dmaemu_line_mask_weight),
	E(dmaemu_wc_pending),
	E(dmaemu_prefetch_info),
	E(dmaemu_dram_read),
	E(dmaemu_dram_write),
	E(dmaemu_phys_view),
	E(dmaemu_addr_info),
	E(dmaemu_mm_stats),
	E(dmaemu_swiotlb_info),
	E(dmaemu_zone_info),
	E(dmaemu_zone_name),
	E(dmaemu_migratetype_name),
	E(dmaemu_buddyinfo),
	E(dmaemu_buddyinfo_format),
	E(dmaemu_pageblocks),
	E(dmaemu_pageblock_migratetype),
	E(dmaemu_pagetypeinfo),
	E(dmaemu_pagetypeinfo_format),
	E(dmaemu_gfp_format),
	E(dmaemu_gfp_parse),
	E(dmaemu_max_dma_address),
	E(dmaemu_vma_unmap),
	E(dmaemu_report_count),
	E(dmaemu_report_clear),
	E(dmaemu_report_reset),
	E(dmaemu_report_dropped),
	E(dmaemu_report_kept),
	E(dmaemu_report_get),
	E(dmaemu_report_next),
	E(dmaemu_report_kind_name),
	E(dmaemu_report_set_callback),
	E(dmaemu_report_suppressed),
	E(dmaemu_trace_start),
	E(dmaemu_trace_stop),
	E(dmaemu_trace_set_callback),
	E(dmaemu_fault_set),
	E(dmaemu_fault_injected),
	E(dmaemu_fail_nth),
	E(dmaemu_fail_nth_left),
	E(dmaemu_enter_irq),
	E(dmaemu_exit_irq),
	E(dmaemu_enter_softirq),
	E(dmaemu_exit_softirq),
	E(dmaemu_bh_disable),
	E(dmaemu_bh_enable),
	E(dmaemu_preempt_disable),
	E(dmaemu_preempt_enable),
	E(dmaemu_preempt_count),
	E(dmaemu_irq_disable),
	E(dmaemu_irq_enable),
	E(dmaemu_irq_save),
	E(dmaemu_irq_restore),
	E(dmaemu_irqs_disabled),
	E(dmaemu_might_sleep),
	E(dmaemu_jiffies),
	E(dmaemu_time_ns),
	E(__wrap_memcpy),
	E(__wrap_memmove),
	E(__wrap_memset),
	E(__wrap_mempcpy),
	E(__wrap_memcmp),
	E(__wrap_bcmp),
	E(__wrap___memcpy_chk),
	E(__wrap___memmove_chk),
	E(__wrap___memset_chk),
	E(__napi_alloc_skb),
	E(__napi_schedule),
	E(__netdev_alloc_skb),
	E(alloc_etherdev_mqs),
	E(alloc_netdev_mqs),
	E(alloc_skb),
	E(build_skb),
	E(consume_skb),
	E(dev_close),
	E(dev_kfree_skb_any),
	E(dev_kfree_skb_irq),
	E(dev_open),
	E(dmaemu_net_close),
	E(dmaemu_net_find),
	E(dmaemu_net_open),
	E(dmaemu_net_recv),
	E(dmaemu_net_stats),
	E(dmaemu_net_xmit),
	E(eth_mac_addr),
	E(eth_random_addr),
	E(dev_mc_add),
	E(dev_mc_del),
	E(dev_uc_add),
	E(dev_uc_del),
	E(ethtool_op_get_link),
	E(ethtool_op_get_ts_info),
	E(devm_irq_release),
	E(platform_driver_probe),
	E(devm_ioremap),
	E(devm_ioremap_nocache),
	E(devm_ioremap_wc),
	E(devm_iounmap),
	E(devm_irq_match),
	E(eth_type_trans),
	E(request_mem_region),
	E(hrtimer_init),
	E(hrtimer_start_range_ns),
	E(hrtimer_try_to_cancel),
	E(hrtimer_cancel),
	E(hrtimer_forward),
	E(release_mem_region),
	E(devm_request_mem_region),
	E(clk_disable),
	E(clk_disable_unprepare),
	E(clk_enable),
	E(clk_get),
	E(clk_get_rate),
	E(clk_prepare),
	E(clk_prepare_enable),
	E(clk_put),
	E(clk_round_rate),
	E(clk_set_rate),
	E(clk_unprepare),
	E(devm_clk_get),
	E(devm_clk_put),
	E(generic_mii_ioctl),
	E(mii_check_gmii_support),
	E(mii_check_link),
	E(mii_check_media),
	E(mii_ethtool_get_link_ksettings),
	E(mii_ethtool_gset),
	E(mii_ethtool_set_link_ksettings),
	E(mii_ethtool_sset),
	E(mii_link_ok),
	E(mii_nway_restart),
	E(eth_validate_addr),
	E(ether_setup),
	E(free_netdev),
	E(kfree_skb),
	E(napi_complete_done),
	E(napi_disable),
	E(napi_enable),
	E(napi_gro_receive),
	E(napi_schedule_prep),
	E(netdev_tx_completed_queue),
	E(netdev_tx_reset_queue),
	E(netdev_tx_sent_queue),
	E(netif_napi_add),
	E(netif_napi_del),
	E(netif_receive_skb),
	E(netif_rx),
	E(netif_rx_ni),
	E(netif_tx_start_all_queues),
	E(netif_tx_start_queue),
	E(netif_tx_stop_all_queues),
	E(netif_tx_stop_queue),
	E(netif_tx_wake_all_queues),
	E(netif_tx_wake_queue),
	E(register_netdev),
	E(skb_pull),
	E(skb_push),
	E(skb_put),
	E(skb_put_data),
	E(skb_trim),
	E(tasklet_disable),
	E(tasklet_disable_nosync),
	E(tasklet_enable),
	E(tasklet_hi_schedule),
	E(tasklet_init),
	E(tasklet_kill),
	E(tasklet_schedule),
	E(unregister_netdev),
};

#define NENTRIES ((int)(sizeof(table) / sizeof(table[0])))

START_TEST(test_entry)
{
	const struct entry *e = &table[_i];

	if (e->reason) {
		ck_assert_str_ne(e->reason, "");
		return;
	}
	e->fn();
}
END_TEST

/* Every exported function has an entry but the compilers' hooks (__asan_,
 * __tsan_): they run before an access the program makes itself, of any
 * address; one of memory outside every machine returns at once. */
START_TEST(test_table_complete)
{
	char cmd[4200], line[512], sym[256], type;
	char missing[2048] = "";
	Dl_info info;
	FILE *p;
	int i, n = 0;

	ck_assert(dladdr((void *)dma_map_single_attrs, &info));
	ck_assert_ptr_nonnull(info.dli_fname);
	snprintf(cmd, sizeof(cmd), "nm -D --defined-only '%s'", info.dli_fname);
	p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	while (fgets(line, sizeof(line), p)) {
		if (sscanf(line, "%*s %c %255s", &type, sym) != 2 ||
		    (type != 'T' && type != 'W') ||
		    !strncmp(sym, "__asan_", 7) || !strncmp(sym, "__tsan_", 7))
			continue;
		n++;
		for (i = 0; i < NENTRIES; i++)
			if (!strcmp(table[i].name, sym))
				break;
		if (i == NENTRIES &&
		    strlen(missing) + strlen(sym) + 2 < sizeof(missing)) {
			strcat(missing, " ");
			strcat(missing, sym);
		}
	}
	ck_assert_int_eq(pclose(p), 0);
	ck_assert_msg(n > 100, "nm listed %d functions", n);
	ck_assert_msg(!missing[0], "exported but not in the table:%s", missing);
	printf("# %d exported functions, %d table entries\n", n, NENTRIES);
	fflush(stdout);
}
END_TEST

/* One test case per entry, named after the function, so that a TAP line
 * names it. */
static Suite *suite(void)
{
	Suite *s = suite_create("bad-input");
	TCase *tc;
	int i;

	for (i = 0; i < NENTRIES; i++) {
		tc = tcase_create(table[i].name);
		tcase_add_checked_fixture(tc, setup, teardown);
		tcase_set_timeout(tc, 60);
		tcase_add_loop_test(tc, test_entry, i, i + 1);
		suite_add_tcase(s, tc);
	}
	tc = tcase_create("table");
	tcase_add_test(tc, test_table_complete);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(suite());
}
