// SPDX-License-Identifier: MIT
/*
 * check-device-embed.c - a struct device that lives in the caller's own
 * structure, as drivers pass &pdev->dev: dmaemu_device_bind() ties it to
 * an emulated device, and then the whole DMA API (allocations, streaming
 * maps, syncs, scatterlists, pools, masks), device DMA and devres work
 * through it on every profile and backend (direct, swiotlb=force,
 * iommu=1); a struct device never tied, or untied, is a bad-argument
 * report; get_device()/put_device() run the release at the last put;
 * generic devres releases newest first, as drivers/base/devres.c does.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <linux/compiler.h>
#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/dmapool.h>
#include <linux/platform_device.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>

#include <dmaemu/cpu.h>
#include <dmaemu/device.h>
#include <dmaemu/machine.h>
#include <dmaemu/report.h>
#include <dmaemu/testing.h>

#include "check-run.h"
#include "fixture.h"

/* A driver's own device structure, with the struct device inside. */
struct my_card {
	int id;
	struct device dev;
	u64 mask_storage;
	int released;
};

static const char *const configs[] = {
	"profile=arm",
	"profile=arm64",
	"profile=x86",
	"profile=arm64:swiotlb=force",
	"profile=arm:iommu=1",
	"profile=x86:iommu=1",
	"profile=arm64:iommu=1:iommu_strict=1",
};
#define NCONFIGS (sizeof(configs) / sizeof(configs[0]))

static struct dmaemu_machine *m;
static struct dmaemu_device *dd;
static uint64_t expected;

static void make(const char *opts)
{
	m = fixture_machine("mem=16M:%s", opts);
	dd = dmaemu_device_create(m, "card0", NULL, NULL);
	ck_assert_ptr_nonnull(dd);
	expected = 0;
}

static void teardown(void)
{
	fixture_finish(&m, &dd, expected);
}

static void expect(const char *kind, uint64_t n, uint64_t before)
{
	ck_assert_uint_eq(dmaemu_report_count(m, kind) - before, n);
	expected += n;
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), expected);
}

static uint64_t count(const char *kind)
{
	return dmaemu_report_count(m, kind);
}

static void card_release(struct device *dev)
{
	struct my_card *c = container_of(dev, struct my_card, dev);

	c->released++;
}

/* ---------------------------------------------------------------------- */

/* Every DMA path through the embedded struct device, on each config. */
START_TEST(test_whole_api_through_embedded)
{
	struct my_card card;
	struct dma_pool *pool;
	struct scatterlist sg[3];
	dma_addr_t h, hc, hp;
	uint8_t *buf, *coh, *blk, tmp[64];
	int i, n;

	make(configs[_i]);
	memset(&card, 0, sizeof(card));
	card.dev.release = card_release;
	device_initialize(&card.dev);
	ck_assert_int_eq(dmaemu_device_bind(dd, &card.dev), 0);
	ck_assert_ptr_eq(dmaemu_dev_to_device(&card.dev), dd);
	ck_assert_ptr_eq(dmaemu_device_to_dev(dd), &card.dev);
	ck_assert_ptr_eq(card.dev.dmaemu, dd);
	ck_assert_str_eq(dev_name(&card.dev), "card0");
	/* The defaults of a created device, in the caller's struct. */
	ck_assert_ptr_eq(card.dev.dma_mask, &card.dev.dmaemu_dma_mask);
	ck_assert_uint_eq(*card.dev.dma_mask, DMA_BIT_MASK(32));
	ck_assert_uint_eq(card.dev.coherent_dma_mask, DMA_BIT_MASK(32));
	ck_assert_uint_eq(dma_get_max_seg_size(&card.dev), 65536);

	/* The driver points dma_mask at its own storage, as PCI does. */
	card.dev.dma_mask = &card.mask_storage;
	ck_assert_int_eq(dma_set_mask_and_coherent(&card.dev, DMA_BIT_MASK(32)),
			 0);
	ck_assert_uint_eq(card.mask_storage, DMA_BIT_MASK(32));
	ck_assert_uint_eq(dma_get_mask(&card.dev), DMA_BIT_MASK(32));

	/* Streaming: the device writes, the CPU reads after unmap. */
	buf = kmalloc(256, GFP_KERNEL);
	ck_assert_ptr_nonnull(buf);
	h = dma_map_single(&card.dev, buf, 256, DMA_FROM_DEVICE);
	ck_assert(!dma_mapping_error(&card.dev, h));
	memset(tmp, 0x5a, sizeof(tmp));
	ck_assert_int_eq(dmaemu_dma_write(dd, h + 64, tmp, 64), 0);
	dma_sync_single_for_cpu(&card.dev, h, 256, DMA_FROM_DEVICE);
	memset(tmp, 0, sizeof(tmp));
	dmaemu_cpu_read(tmp, buf + 64, 64);
	ck_assert(fixture_all(tmp, 0x5a, 64));
	dma_sync_single_for_device(&card.dev, h, 256, DMA_FROM_DEVICE);
	dma_unmap_single(&card.dev, h, 256, DMA_FROM_DEVICE);

	/* Coherent memory: the CPU writes, the device reads. */
	coh = dma_alloc_coherent(&card.dev, 4096, &hc, GFP_KERNEL);
	ck_assert_ptr_nonnull(coh);
	fixture_cpu_fill(coh, 0x33, 128);
	ck_assert_int_eq(dmaemu_dma_read(dd, hc, tmp, 64), 0);
	ck_assert(fixture_all(tmp, 0x33, 64));

	/* A scatterlist of three pieces, to the device. */
	sg_init_table(sg, 3);
	for (i = 0; i < 3; i++) {
		fixture_cpu_fill(buf + 64 * i, 0x10 + i, 64);
		sg_set_buf(&sg[i], buf + 64 * i, 64);
	}
	n = dma_map_sg(&card.dev, sg, 3, DMA_TO_DEVICE);
	ck_assert_int_ge(n, 1);
	ck_assert_int_eq(dmaemu_dma_read(dd, sg_dma_address(&sg[0]), tmp, 64),
			 0);
	ck_assert(fixture_all(tmp, 0x10, 64));
	dma_unmap_sg(&card.dev, sg, 3, DMA_TO_DEVICE);

	/* A pool on the embedded device. */
	pool = dma_pool_create("ring", &card.dev, 64, 64, 0);
	ck_assert_ptr_nonnull(pool);
	blk = dma_pool_alloc(pool, GFP_KERNEL, &hp);
	ck_assert_ptr_nonnull(blk);
	fixture_cpu_fill(blk, 0x77, 64);
	ck_assert_int_eq(dmaemu_dma_read(dd, hp, tmp, 64), 0);
	ck_assert(fixture_all(tmp, 0x77, 64));
	dma_pool_free(pool, blk, hp);
	dma_pool_destroy(pool);

	/* A leak is found through the embedded device at unbind. */
	h = dma_map_single(&card.dev, buf, 64, DMA_TO_DEVICE);
	ck_assert(!dma_mapping_error(&card.dev, h));
	dma_free_coherent(&card.dev, 4096, coh, hc);
	ck_assert_uint_eq(count(NULL), 0);
	ck_assert_int_eq(dmaemu_device_unbind(&card.dev), 0);
	expect("leaked-mapping", 1, 0);
	ck_assert_ptr_null(card.dev.dmaemu);
	ck_assert_ptr_eq(dmaemu_device_to_dev(dd), (void *)dd);
	kfree(buf);
	/* Untied, the struct device is refused again. */
	ck_assert_uint_eq(dma_map_single(&card.dev, tmp, 8, DMA_TO_DEVICE),
			  DMA_MAPPING_ERROR);
	expect("bad-argument", 1, 0);
	put_device(&card.dev);
	ck_assert_int_eq(card.released, 1);
}
END_TEST

/* A struct device tied to nothing is a bad-argument report everywhere. */
START_TEST(test_untied_reported)
{
	struct my_card card;
	struct dmaemu_report r;
	dma_addr_t h;
	uint8_t *buf;
	struct device *own;
	uint64_t before;

	make("profile=arm64");
	memset(&card, 0, sizeof(card));
	device_initialize(&card.dev);
	buf = kmalloc(64, GFP_KERNEL);
	before = count("bad-argument");
	ck_assert_uint_eq(dma_map_single(&card.dev, buf, 64, DMA_TO_DEVICE),
			  DMA_MAPPING_ERROR);
	ck_assert_ptr_null(dma_alloc_coherent(&card.dev, 4096, &h, GFP_KERNEL));
	ck_assert_int_eq(dma_set_mask(&card.dev, DMA_BIT_MASK(32)), -EINVAL);
	ck_assert_ptr_null(devm_kzalloc(&card.dev, 32, GFP_KERNEL));
	ck_assert_ptr_null(dmaemu_dev_to_device(&card.dev));
	expect("bad-argument", 4, before);
	ck_assert_int_eq(dmaemu_report_get(m, dmaemu_report_kept(m) - 1, &r),
			 0);
	ck_assert_ptr_nonnull(strstr(r.text, "dmaemu_device_bind()"));

	/* The device's own struct device is retired while another is bound. */
	own = dmaemu_device_to_dev(dd);
	ck_assert_int_eq(dmaemu_device_bind(dd, &card.dev), 0);
	ck_assert_ptr_null(dmaemu_dev_to_device(own));
	before = count("bad-argument");
	ck_assert_uint_eq(dma_map_single(own, buf, 64, DMA_TO_DEVICE),
			  DMA_MAPPING_ERROR);
	expect("bad-argument", 1, before);
	ck_assert_int_eq(dmaemu_report_get(m, dmaemu_report_kept(m) - 1, &r),
			 0);
	ck_assert_ptr_nonnull(strstr(r.text, "replaced"));
	/* Binding twice, or binding a bound struct: refused. */
	before = count("bad-argument");
	ck_assert_int_eq(dmaemu_device_bind(dd, &card.dev), -EINVAL);
	ck_assert_int_eq(dmaemu_device_unbind(own), -EINVAL);
	ck_assert_int_eq(dmaemu_device_bind(NULL, &card.dev), -EINVAL);
	expect("bad-argument", 3, before);
	ck_assert_int_eq(dmaemu_device_unbind(&card.dev), 0);
	ck_assert_ptr_eq(dmaemu_dev_to_device(own), dd);
	kfree(buf);
}
END_TEST

/* A device with DMA state or a bound platform driver cannot be bound. */
START_TEST(test_bind_busy)
{
	struct my_card card;
	dma_addr_t h;
	void *p;
	uint64_t before;

	make("profile=arm");
	memset(&card, 0, sizeof(card));
	p = dma_alloc_coherent(dmaemu_device_to_dev(dd), 4096, &h, GFP_KERNEL);
	ck_assert_ptr_nonnull(p);
	before = count("bad-argument");
	ck_assert_int_eq(dmaemu_device_bind(dd, &card.dev), -EBUSY);
	expect("bad-argument", 1, before);
	dma_free_coherent(dmaemu_device_to_dev(dd), 4096, p, h);
	ck_assert_int_eq(dmaemu_device_bind(dd, &card.dev), 0);
	/* The caller's struct takes devm memory, released at unbind. */
	ck_assert_ptr_nonnull(devm_kzalloc(&card.dev, 100, GFP_KERNEL));
	ck_assert_int_eq(dmaemu_device_unbind(&card.dev), 0);
	ck_assert_uint_eq(count(NULL), expected);
}
END_TEST

/* get_device()/put_device(): the release runs at the last put only. */
START_TEST(test_refcount_release)
{
	struct my_card card;
	struct device *own;
	uint64_t before;

	make("profile=x86");
	memset(&card, 0, sizeof(card));
	card.dev.release = card_release;
	card.dev.platform_data = &card.id;
	card.dev.parent = dmaemu_device_to_dev(dd);
	device_initialize(&card.dev);
	ck_assert_ptr_eq(dev_get_platdata(&card.dev), &card.id);
	ck_assert_int_eq(dmaemu_device_bind(dd, &card.dev), 0);
	ck_assert_ptr_eq(get_device(&card.dev), &card.dev);
	ck_assert_ptr_null(get_device(NULL));
	put_device(&card.dev);
	ck_assert_int_eq(card.released, 0);
	ck_assert_ptr_eq(dmaemu_dev_to_device(&card.dev), dd);
	/* The last put unties it (devm memory freed) and releases it. */
	ck_assert_ptr_nonnull(devm_kmalloc(&card.dev, 64, GFP_KERNEL));
	put_device(&card.dev);
	ck_assert_int_eq(card.released, 1);
	ck_assert_ptr_null(dmaemu_dev_to_device(&card.dev));
	ck_assert_ptr_null(card.dev.dmaemu);
	/* One put too many: reported, no second release. */
	before = count("bad-argument");
	put_device(&card.dev);
	ck_assert_int_eq(card.released, 1);
	/* The created device's own reference is not the driver's. */
	own = dmaemu_device_to_dev(dd);
	get_device(own);
	put_device(own);
	put_device(own);
	ck_assert_ptr_eq(dmaemu_dev_to_device(own), dd);
	/* No release function at the last put: reported, as Linux warns. */
	memset(&card, 0, sizeof(card));
	device_initialize(&card.dev);
	put_device(&card.dev);
	expect("bad-argument", 3, before);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Generic devres                                                         */
/* ---------------------------------------------------------------------- */

static int order[16], norder;

static void rel_a(struct device *dev, void *res)
{
	(void)dev;
	order[norder++] = *(int *)res;
}

static void rel_b(struct device *dev, void *res)
{
	(void)dev;
	order[norder++] = 100 + *(int *)res;
}

static int match_val(struct device *dev, void *res, void *data)
{
	(void)dev;
	return *(int *)res == *(int *)data;
}

static int *add_res(struct device *dev, dr_release_t rel, int v)
{
	int *p = devres_alloc(rel, sizeof(int), GFP_KERNEL);

	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(*p, 0); /* zeroed */
	*p = v;
	devres_add(dev, p);
	return p;
}

START_TEST(test_devres_order)
{
	struct my_card card;
	int *p, *q, key, n;
	uint64_t before;

	make("profile=arm64");
	memset(&card, 0, sizeof(card));
	ck_assert_int_eq(dmaemu_device_bind(dd, &card.dev), 0);
	norder = 0;
	add_res(&card.dev, rel_a, 1);
	add_res(&card.dev, rel_b, 2);
	add_res(&card.dev, rel_a, 3);
	ck_assert_ptr_nonnull(devm_kzalloc(&card.dev, 16, GFP_KERNEL));
	add_res(&card.dev, rel_a, 4);

	/* Find: the newest of a release function, or the one matched. */
	p = devres_find(&card.dev, rel_a, NULL, NULL);
	ck_assert_int_eq(*p, 4);
	key = 1;
	p = devres_find(&card.dev, rel_a, match_val, &key);
	ck_assert_int_eq(*p, 1);
	key = 2;
	ck_assert_ptr_null(devres_find(&card.dev, rel_a, match_val, &key));

	/* Remove gives it back unreleased; it can be added again. */
	key = 3;
	q = devres_remove(&card.dev, rel_a, match_val, &key);
	ck_assert_int_eq(*q, 3);
	ck_assert_ptr_null(devres_find(&card.dev, rel_a, match_val, &key));
	devres_add(&card.dev, q); /* now the newest */
	/* Release one now: its release runs at once. */
	key = 1;
	ck_assert_int_eq(devres_release(&card.dev, rel_a, match_val, &key), 0);
	ck_assert_int_eq(norder, 1);
	ck_assert_int_eq(order[0], 1);
	/* Destroy one: freed without release. */
	key = 4;
	ck_assert_int_eq(devres_destroy(&card.dev, rel_a, match_val, &key), 0);
	ck_assert_int_eq(norder, 1);
	/* devres_get() finds the existing one, freeing the new. */
	p = devres_alloc(rel_b, sizeof(int), GFP_KERNEL);
	q = devres_get(&card.dev, p, NULL, NULL);
	ck_assert_int_eq(*q, 2);

	/* Misuse: reported, not fatal. */
	before = count("bad-argument");
	ck_assert_int_eq(devres_destroy(&card.dev, rel_a, match_val, &key),
			 -ENOENT);
	devres_free(q); /* still added */
	devres_add(&card.dev, q);
	devres_free(&key); /* never a devres */
	ck_assert_ptr_null(devres_alloc(NULL, 8, GFP_KERNEL));
	expect("bad-argument", 5, before);

	/* Release all: newest first (3, the devm memory, then 2). */
	norder = 0;
	n = devres_release_all(&card.dev);
	ck_assert_int_eq(n, 3);
	ck_assert_int_eq(norder, 2);
	ck_assert_int_eq(order[0], 3);
	ck_assert_int_eq(order[1], 102);
	ck_assert_int_eq(devres_release_all(&card.dev), 0);

	/* A never-added resource is freed by its owner. */
	p = devres_alloc(rel_a, 8, GFP_KERNEL);
	devres_free(p);
	ck_assert_int_eq(dmaemu_device_unbind(&card.dev), 0);
	before = count("bad-argument");
	ck_assert_int_eq(devres_release_all(&card.dev), -ENODEV);
	expect("bad-argument", 1, before);
}
END_TEST

/* Devres of a destroyed device run at destroy, newest first. */
START_TEST(test_devres_at_destroy)
{
	struct my_card card;

	make("profile=arm");
	memset(&card, 0, sizeof(card));
	ck_assert_int_eq(dmaemu_device_bind(dd, &card.dev), 0);
	norder = 0;
	add_res(&card.dev, rel_a, 7);
	add_res(&card.dev, rel_b, 8);
	dmaemu_device_destroy(dd);
	dd = NULL;
	ck_assert_int_eq(norder, 2);
	ck_assert_int_eq(order[0], 108);
	ck_assert_int_eq(order[1], 7);
	ck_assert_ptr_null(card.dev.dmaemu);
	ck_assert_ptr_null(dmaemu_dev_to_device(&card.dev));
}
END_TEST

/* ---------------------------------------------------------------------- */
/* A platform driver that ties a child device of its own in probe()       */
/* ---------------------------------------------------------------------- */

static struct my_card child;
static struct dmaemu_device *child_hw;

static int parent_probe(struct platform_device *pdev)
{
	memset(&child, 0, sizeof(child));
	child.dev.parent = &pdev->dev;
	child.dev.release = card_release;
	device_initialize(&child.dev);
	return dmaemu_device_bind(child_hw, &child.dev);
}

static int parent_remove(struct platform_device *pdev)
{
	(void)pdev;
	put_device(&child.dev);
	return 0;
}

static struct platform_driver parent_drv = {
	.probe = parent_probe,
	.remove = parent_remove,
	.driver = {.name = "parent-model"},
};

static const struct dmaemu_device_ops parent_ops = {.name = "parent-model"};

START_TEST(test_bind_in_probe)
{
	struct dmaemu_device *parent;
	dma_addr_t h;
	void *p;

	make("profile=arm64");
	child_hw = dd;
	parent = dmaemu_device_create(m, "parent0", &parent_ops, NULL);
	ck_assert_ptr_nonnull(parent);
	ck_assert_int_eq(platform_driver_register(&parent_drv), 0);
	ck_assert_ptr_eq(dmaemu_dev_to_device(&child.dev), dd);
	ck_assert_ptr_eq(child.dev.parent, dmaemu_device_to_dev(parent));
	p = dma_alloc_coherent(&child.dev, 4096, &h, GFP_KERNEL);
	ck_assert_ptr_nonnull(p);
	dma_free_coherent(&child.dev, 4096, p, h);
	/* remove() puts the child: untied and released under the bind
	 * lock that remove() runs with. */
	platform_driver_unregister(&parent_drv);
	ck_assert_int_eq(child.released, 1);
	ck_assert_ptr_null(dmaemu_dev_to_device(&child.dev));
	dmaemu_device_destroy(parent);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("device-embed");
	TCase *tc = tcase_create("embed");

	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_whole_api_through_embedded, 0,
			    (int)NCONFIGS);
	tcase_add_test(tc, test_untied_reported);
	tcase_add_test(tc, test_bind_busy);
	tcase_add_test(tc, test_refcount_release);
	tcase_add_test(tc, test_devres_order);
	tcase_add_test(tc, test_devres_at_destroy);
	tcase_add_test(tc, test_bind_in_probe);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(suite());
}
