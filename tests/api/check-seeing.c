// SPDX-License-Identifier: MIT
/*
 * check-seeing.c - <dmaemu/seeing.h>: the cache-line maps (exact text of
 * a known state, colour, the SVG form's structure and content), the
 * machine dump (each section names what a known sequence of calls left)
 * and bad arguments (a report and an error each).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/dma-mapping.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>

#include <dmaemu/cpu.h>
#include <dmaemu/device.h>
#include <dmaemu/machine.h>
#include <dmaemu/report.h>
#include <dmaemu/seeing.h>
#include <dmaemu/testing.h>

#include "check-run.h"
#include "fixture.h"

static struct dmaemu_machine *m;
static struct dmaemu_device *dd;
static struct device *dev;
static uint64_t expected; /* reports the test made on purpose */

/* A memory stream the tests read back. */
static char *out_buf;
static size_t out_len;
static FILE *out;

static void make(const char *opts)
{
	m = fixture_machine("mem=16M:%s", opts);
	dd = dmaemu_device_create(m, "dev0", NULL, NULL);
	ck_assert_ptr_nonnull(dd);
	dev = dmaemu_device_to_dev(dd);
	expected = 0;
	out = open_memstream(&out_buf, &out_len);
	ck_assert_ptr_nonnull(out);
}

/* What was written to the stream since make() or the last call. */
static char *copy; /* output()'s last answer */

static char *output(void)
{
	ck_assert_int_eq(fflush(out), 0);
	free(copy);
	copy = strndup(out_buf, out_len);
	ck_assert_ptr_nonnull(copy);
	rewind(out);
	out_len = 0;
	out_buf[0] = '\0';
	return copy;
}

static void teardown(void)
{
	free(copy);
	copy = NULL;
	if (out) {
		fclose(out);
		free(out_buf);
		out = NULL;
		out_buf = NULL;
	}
	fixture_finish(&m, &dd, expected);
	expected = 0;
}

static uint64_t bad_args(void)
{
	return dmaemu_report_count(m, "bad-argument");
}

static void one_bad_argument(uint64_t before)
{
	ck_assert_uint_eq(bad_args(), before + 1);
	expected++;
}

/* A line-aligned kmalloc buffer, clean and resident, holding 0. */
static uint8_t *clean_buffer(size_t len)
{
	uint8_t *buf = kmalloc(len, GFP_KERNEL);
	uint64_t phys;

	ck_assert_ptr_nonnull(buf);
	phys = virt_to_phys(buf);
	ck_assert_uint_eq(phys % 64, 0);
	ck_assert_int_eq(dmaemu_cache_invalidate(m, phys, len), 0);
	fixture_cpu_fill(buf, 0, len);
	ck_assert_int_eq(dmaemu_cache_clean(m, phys, len), 0);
	return buf;
}

/* Occurrences of @needle in @hay. */
static unsigned int count_of(const char *hay, const char *needle)
{
	unsigned int n = 0;

	for (hay = strstr(hay, needle); hay; hay = strstr(hay + 1, needle))
		n++;
	return n;
}

/*
 * The known state of two lines at @buf (arm64, 64-byte lines):
 *   line 0: bytes 0-3 CPU-dirty, 4-7 both, 8-11 device-changed; CPU-owned
 *   line 1: clean, mapped for the device (SKIP_CPU_SYNC: masks untouched)
 */
static dma_addr_t known_state(uint8_t *buf)
{
	static const uint8_t dev_bytes[8] = {9, 9, 9, 9, 9, 9, 9, 9};
	uint64_t phys = virt_to_phys(buf);
	dma_addr_t dma;

	fixture_cpu_fill(buf, 0x11, 8);
	ck_assert_int_eq(dmaemu_dram_write(m, phys + 4, dev_bytes, 8), 0);
	dma = dma_map_single_attrs(dev, buf + 64, 64, DMA_TO_DEVICE,
				   DMA_ATTR_SKIP_CPU_SYNC);
	ck_assert(!dma_mapping_error(dev, dma));
	return dma;
}

START_TEST(test_line_map_text)
{
	static const char header[] =
		"    line        owner  $   byte: . same  c CPU-dirty  "
		"d device-changed  ! both  w write-combining\n"
		"                       $: - not cached  R cached  R+D cached "
		"and dirty\n";
	char want[1024], row0[65], row1[65];
	uint8_t *buf;
	uint64_t phys;
	dma_addr_t dma;

	make("profile=arm64");
	buf = clean_buffer(128);
	phys = virt_to_phys(buf);
	dma = known_state(buf);

	/* Bytes 2..101 of the two lines: the edges are outside. */
	memset(row0, '.', 64);
	memcpy(row0, "  cc!!!!dddd", 12);
	row0[64] = '\0';
	memset(row1, ' ', 64);
	memset(row1, '.', 38);
	row1[64] = '\0';
	snprintf(want, sizeof(want),
		 "%s    0x%09llx cpu    R+D %s\n    0x%09llx device R   %s\n",
		 header, (unsigned long long)phys, row0,
		 (unsigned long long)phys + 64, row1);
	ck_assert_int_eq(dmaemu_line_map_print(m, phys + 2, 100, out,
					       DMAEMU_COLOUR_NEVER),
			 2);
	ck_assert_str_eq(output(), want);

	/* A memory stream is no terminal: automatic colour is plain. */
	ck_assert_int_eq(dmaemu_line_map_print(m, phys + 2, 100, out,
					       DMAEMU_COLOUR_AUTO),
			 2);
	ck_assert_str_eq(output(), want);

	/* Forced colour paints each state, never the '.' bytes. */
	ck_assert_int_eq(
		dmaemu_line_map_print(m, phys, 64, out, DMAEMU_COLOUR_ALWAYS),
		1);
	{
		char *s = output();

		ck_assert_uint_eq(count_of(s, "\033[30;43mc\033[0m"), 4);
		ck_assert_uint_eq(count_of(s, "\033[97;41m!\033[0m"), 4);
		ck_assert_uint_eq(count_of(s, "\033[30;46md\033[0m"), 4);
		ck_assert_uint_eq(count_of(s, "\033["), 12 * 2);
	}

	/* After the fix (a clean of the first line), nothing to say but the
	 * device-changed bytes the clean overwrote: lost, reported. */
	ck_assert_int_eq(dmaemu_cache_clean(m, phys, 64), 0);
	expected = dmaemu_report_count(m, NULL);
	ck_assert_int_eq(
		dmaemu_line_map_print(m, phys, 64, out, DMAEMU_COLOUR_NEVER),
		1);
	memset(row0, '.', 64);
	snprintf(want, sizeof(want), "%s    0x%09llx cpu    R   %s\n", header,
		 (unsigned long long)phys, row0);
	ck_assert_str_eq(output(), want);

	dma_unmap_single_attrs(dev, dma, 64, DMA_TO_DEVICE,
			       DMA_ATTR_SKIP_CPU_SYNC);
	kfree(buf);
	teardown();
}
END_TEST

/*
 * A line whose CPU-dirty bytes the cache model never saw stored (code
 * that is not instrumented, as this suite is): the model's dirty bit is
 * clear, but the line is dirty (a write-back writes those bytes), and the
 * picture says R+D, resident or not.
 */
START_TEST(test_line_map_unseen_store)
{
	struct dmaemu_line_state st;
	char want[512], row[65];
	volatile uint8_t *v;
	uint8_t *buf;
	uint64_t phys;
	char *s;
	int pass;

	make("profile=arm64");
	buf = clean_buffer(64);
	phys = virt_to_phys(buf);
	v = buf;
	for (pass = 0; pass < 2; pass++) {
		/* pass 1: the line left the cache first */
		if (pass)
			ck_assert_int_eq(dmaemu_cache_clean(m, phys, 64), 0);
		if (pass)
			ck_assert_int_eq(dmaemu_cache_invalidate(m, phys, 64),
					 0);
		v[5] = (uint8_t)(v[5] ^ 0x5a); /* unseen by the model */
		ck_assert_int_eq(dmaemu_line_state(m, phys, &st), 0);
		ck_assert_uint_eq(st.dirty_levels, 0);
		ck_assert(st.resident == !pass);
		ck_assert(dmaemu_line_mask_test(st.cpu_dirty, 5));
		ck_assert_int_eq(dmaemu_line_map_print(m, phys, 64, out,
						       DMAEMU_COLOUR_NEVER),
				 1);
		memset(row, '.', 64);
		row[5] = 'c';
		row[64] = '\0';
		snprintf(want, sizeof(want), "    0x%09llx cpu    R+D %s\n",
			 (unsigned long long)phys, row);
		ck_assert_ptr_nonnull(strstr(output(), want));
		ck_assert_int_eq(dmaemu_line_map_svg(m, phys, 64, NULL, out),
				 1);
		s = output();
		ck_assert_ptr_nonnull(strstr(s, "data-cached=\"R+D\""));
		ck_assert_ptr_nonnull(strstr(s, ": owner cpu, resident, "));
	}
	kfree(buf);
	teardown();
}
END_TEST

/* An uncached line the CPU never took: not resident, 'w' where the
 * write-combining buffers hold bytes. */
START_TEST(test_line_map_wc)
{
	char want[512], row[65];
	dma_addr_t h;
	uint8_t *p;

	make("profile=arm64");
	p = dma_alloc_wc(dev, 4096, &h, GFP_KERNEL);
	ck_assert_ptr_nonnull(p);
	fixture_cpu_fill(p + 8, 0x66, 8);
	ck_assert_int_eq(
		dmaemu_line_map_print(m, h, 64, out, DMAEMU_COLOUR_NEVER), 1);
	memset(row, '.', 64);
	memset(row + 8, 'w', 8);
	row[64] = '\0';
	snprintf(want, sizeof(want), "    0x%09llx cpu    -   %s\n",
		 (unsigned long long)h, row);
	ck_assert_ptr_nonnull(strstr(output(), want));
	expected = dmaemu_report_count(m, NULL);
	dmaemu_cpu_flush_wc();
	ck_assert_int_eq(
		dmaemu_line_map_print(m, h, 64, out, DMAEMU_COLOUR_NEVER), 1);
	ck_assert_ptr_null(strchr(strchr(output(), '\n') + 1, 'w'));
	dma_free_wc(dev, 4096, p, h);
	teardown();
}
END_TEST

START_TEST(test_line_map_svg)
{
	char *s, want[256], path[] = "/tmp/check-seeing-XXXXXX";
	uint8_t *buf;
	uint64_t phys;
	dma_addr_t dma;
	FILE *f;
	int fd;

	make("profile=arm64");
	buf = clean_buffer(128);
	phys = virt_to_phys(buf);
	dma = known_state(buf);
	ck_assert_int_eq(dmaemu_line_map_svg(m, phys + 2, 100,
					     "rx <before> & \"after\"", out),
			 2);
	s = output();
	ck_assert(!strncmp(
		s, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg ", 44));
	ck_assert_uint_eq(strlen(s) > 7, 1);
	ck_assert_str_eq(s + strlen(s) - 7, "</svg>\n");
	/* One cell a byte of the range, by state; the legend has its own. */
	ck_assert_uint_eq(count_of(s, "data-state=\"c\""), 2);
	ck_assert_uint_eq(count_of(s, "data-state=\"!\""), 4);
	ck_assert_uint_eq(count_of(s, "data-state=\"d\""), 4);
	ck_assert_uint_eq(count_of(s, "data-state=\".\""), 100 - 10);
	ck_assert_uint_eq(count_of(s, "data-state=\"w\""), 0);
	ck_assert_uint_eq(count_of(s, "<g class=\"line\""), 2);
	ck_assert_uint_eq(count_of(s, "<g "), count_of(s, "</g>"));
	/* The legend has the $ column's key too, inside the picture. */
	{
		const char *k = strstr(s, ">$: - not cached  R cached  R+D "
					  "cached and dirty</text>");
		unsigned int h = 0, y = 0;

		ck_assert_ptr_nonnull(k);
		while (k > s && strncmp(k, " y=\"", 4))
			k--;
		ck_assert_int_eq(sscanf(k, " y=\"%u\"", &y), 1);
		ck_assert_int_eq(
			sscanf(strstr(s, "height=\""), "height=\"%u\"", &h), 1);
		ck_assert_msg(y <= h, "the $ key at y %u, height %u", y, h);
	}
	/* The title is escaped, the rows say what the text form says. */
	ck_assert_ptr_nonnull(
		strstr(s, "rx &lt;before&gt; &amp; &quot;after&quot;"));
	ck_assert_ptr_null(strstr(s, "<before>"));
	snprintf(want, sizeof(want),
		 "<title>0x%llx: owner cpu, resident, 52 same, 2 CPU-dirty, "
		 "4 device-changed, 4 both, 0 write-combining</title>",
		 (unsigned long long)phys);
	ck_assert_ptr_nonnull(strstr(s, want));
	snprintf(want, sizeof(want),
		 "data-phys=\"0x%llx\" data-owner=\"device\"",
		 (unsigned long long)phys + 64);
	ck_assert_ptr_nonnull(strstr(s, want));

	/* Well-formed XML, when xmllint is there to say so. */
	if (!system("command -v xmllint >/dev/null 2>&1")) {
		char cmd[128];

		fd = mkstemp(path);
		ck_assert_int_ge(fd, 0);
		f = fdopen(fd, "w");
		ck_assert_ptr_nonnull(f);
		ck_assert_int_eq(dmaemu_line_map_svg(m, phys, 128, "a&b", f),
				 2);
		ck_assert_int_eq(fclose(f), 0);
		snprintf(cmd, sizeof(cmd), "xmllint --noout %s", path);
		ck_assert_int_eq(system(cmd), 0);
		unlink(path);
	}
	dma_unmap_single_attrs(dev, dma, 64, DMA_TO_DEVICE,
			       DMA_ATTR_SKIP_CPU_SYNC);
	kfree(buf);
	teardown();
}
END_TEST

START_TEST(test_line_map_bad_arguments)
{
	uint64_t before, phys;
	uint8_t *buf;

	make("profile=arm64");
	buf = clean_buffer(64);
	phys = virt_to_phys(buf);
	before = bad_args();
	ck_assert_int_eq(dmaemu_line_map_print(m, phys, 64, NULL, 0), -EINVAL);
	one_bad_argument(before);
	before = bad_args();
	ck_assert_int_eq(dmaemu_line_map_print(m, phys, 0, out, 0), -EINVAL);
	one_bad_argument(before);
	before = bad_args();
	ck_assert_int_eq(dmaemu_line_map_print(m, phys, 64, out, 7), -EINVAL);
	one_bad_argument(before);
	before = bad_args();
	ck_assert_int_eq(dmaemu_line_map_print(m, 0x1000, 64, out, 0), -EFAULT);
	one_bad_argument(before);
	before = bad_args();
	ck_assert_int_eq(dmaemu_line_map_svg(m, phys, 64, NULL, NULL), -EINVAL);
	one_bad_argument(before);
	before = bad_args();
	ck_assert_int_eq(dmaemu_line_map_svg(m, UINT64_MAX - 8, 64, NULL, out),
			 -EFAULT);
	one_bad_argument(before);
	/* A NULL machine: reported on the current one, this test's. */
	before = bad_args();
	ck_assert_int_eq(dmaemu_line_map_print(NULL, phys, 64, out, 0),
			 -EINVAL);
	one_bad_argument(before);
	before = bad_args();
	ck_assert_int_eq(dmaemu_machine_dump(NULL, out), -EINVAL);
	one_bad_argument(before);
	before = bad_args();
	ck_assert_int_eq(dmaemu_machine_dump(m, NULL), -EINVAL);
	one_bad_argument(before);
	/* Nothing was written for the refused calls. */
	ck_assert_str_eq(output(), "");
	kfree(buf);
	teardown();
}
END_TEST

/* ---------------------------------------------------------------------- */
/* The machine dump                                                       */
/* ---------------------------------------------------------------------- */

/* The dump of a machine with one mapping, a coherent and a write-combining
 * allocation: direct (0), swiotlb=force (1), iommu=1 (2). */
static const char *const dump_opts[] = {"profile=arm64",
					"profile=arm64:swiotlb=force",
					"profile=arm64:iommu=1"};
static const char *const dump_backend[] = {"direct", "swiotlb", "iommu"};

START_TEST(test_dump)
{
	char want[512], *s;
	dma_addr_t dma, hc, hw;
	struct dmaemu_allocation_info ai;
	uint8_t *buf, *wc;
	void *coh;

	make(dump_opts[_i]);
	buf = kmalloc(256, GFP_KERNEL);
	ck_assert_ptr_nonnull(buf);
	dma = dma_map_single(dev, buf, 256, DMA_FROM_DEVICE);
	ck_assert(!dma_mapping_error(dev, dma));
	coh = dma_alloc_coherent(dev, 8192, &hc, GFP_KERNEL);
	ck_assert_ptr_nonnull(coh);
	wc = dma_alloc_wc(dev, 4096, &hw, GFP_KERNEL);
	ck_assert_ptr_nonnull(wc);
	fixture_cpu_fill(wc + 16, 0x5a, 12);
	ck_assert_int_eq(dmaemu_device_allocation_find(dd, wc, 0, 1, &ai), 0);

	ck_assert_int_eq(dmaemu_machine_dump(m, out), 0);
	s = output();
	snprintf(want, sizeof(want),
		 "machine: profile arm64, line 64, iommu %s, swiotlb=force "
		 "%s\ndram:\n  bank 0: 0x080000000-0x081000000 (16384 KiB)\n"
		 "zones:\n  ",
		 _i == 2 ? "on" : "off", _i == 1 ? "on" : "off");
	ck_assert(!strncmp(s, want, strlen(want)));
	ck_assert_ptr_nonnull(strstr(s, " kmalloc objects ("));
	ck_assert_ptr_nonnull(
		strstr(s, "\ndevices:\n  dev0: 1 mapping, 2 coherent "
			  "allocations\n"));
	snprintf(want, sizeof(want),
		 "    map single   dma 0x%09llx phys 0x%09llx size 256 "
		 "DMA_FROM_DEVICE %s owner device\n      made by "
		 "dma_map_single_attrs at ",
		 (unsigned long long)dma, (unsigned long long)virt_to_phys(buf),
		 dump_backend[_i]);
	ck_assert_ptr_nonnull(strstr(s, want));
	/* Where it was made: this test's function. */
	ck_assert_ptr_nonnull(strstr(s, "test_dump"));
	snprintf(want, sizeof(want), "    alloc dma 0x%09llx ",
		 (unsigned long long)hc);
	ck_assert_ptr_nonnull(strstr(s, want));
	ck_assert_ptr_nonnull(strstr(s, " size 8192 uncached"));
	ck_assert_ptr_nonnull(
		strstr(s, " size 4096 write-combining attrs 0x4\n"));
	if (_i == 1)
		ck_assert_ptr_nonnull(
			strstr(s, "\nswiotlb: 1 of 2048 slots in use, 1 maps, "
				  "0 refused, "));
	else
		ck_assert_ptr_nonnull(strstr(s, "\nswiotlb: not made\n"));
	if (_i == 2)
		ck_assert_ptr_nonnull(
			strstr(s, "    iommu: 4 pages mapped in 3 ranges, 0 "
				  "faults, "));
	else
		ck_assert_ptr_null(strstr(s, "iommu:"));
	snprintf(want, sizeof(want),
		 "write-combining: 1 buffer pending\n  chunk 0x%09llx: 12 "
		 "bytes\n",
		 (unsigned long long)((ai.phys + 16) & ~63ULL));
	ck_assert_ptr_nonnull(strstr(s, want));

	/* Undone, the mapping and allocations leave the dump. */
	expected = dmaemu_report_count(m, NULL);
	dmaemu_cpu_flush_wc();
	dma_unmap_single(dev, dma, 256, DMA_FROM_DEVICE);
	dma_free_coherent(dev, 8192, coh, hc);
	dma_free_wc(dev, 4096, wc, hw);
	kfree(buf);
	ck_assert_int_eq(dmaemu_machine_dump(m, out), 0);
	s = output();
	ck_assert_ptr_nonnull(
		strstr(s, "\ndevices:\n  dev0: 0 mappings, 0 coherent "
			  "allocations\n"));
	ck_assert_ptr_nonnull(
		strstr(s, "write-combining: 0 buffers pending\n"));
	ck_assert_ptr_null(strstr(s, "    map "));
	teardown();
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Statistics                                                             */
/* ---------------------------------------------------------------------- */

/* The backends of test_stats: direct, swiotlb=force, iommu=1, on arm64
 * (maintenance) and x86 (none). */
static const char *const stats_opts[] = {
	"profile=arm64", "profile=arm64:swiotlb=force", "profile=arm64:iommu=1",
	"profile=x86",	 "profile=x86:swiotlb=force",	"profile=x86:iommu=1",
};

/*
 * A known sequence: a 4096-byte TO_DEVICE mapping the device reads 100
 * bytes of, synced for the CPU and back, unmapped; a 256-byte FROM_DEVICE
 * mapping the device writes, unmapped.  Every counter has one value that
 * only counting right gives.
 */
START_TEST(test_stats)
{
	static const uint8_t pkt[256] = {1};
	struct dmaemu_device_stats ds;
	struct dmaemu_machine_stats ms;
	bool arm = _i < 3, bounce = _i % 3 == 1, iommu = _i % 3 == 2;
	uint8_t *tx, *rx, got[100];
	dma_addr_t dtx, drx;

	make(stats_opts[_i]);
	tx = kmalloc(4096, GFP_KERNEL);
	rx = kmalloc(256, GFP_KERNEL);
	ck_assert_ptr_nonnull(tx);
	ck_assert_ptr_nonnull(rx);
	ck_assert_int_eq(dmaemu_device_stats(dd, &ds), 0);
	ck_assert_uint_eq(ds.maps + ds.syncs_for_cpu + ds.bytes_cleaned, 0);

	dtx = dma_map_single(dev, tx, 4096, DMA_TO_DEVICE);
	ck_assert(!dma_mapping_error(dev, dtx));
	ck_assert_int_eq(dmaemu_dma_read(dd, dtx + 8, got, 100), 0);
	dma_sync_single_for_cpu(dev, dtx, 4096, DMA_TO_DEVICE);
	dma_sync_single_for_device(dev, dtx, 4096, DMA_TO_DEVICE);
	drx = dma_map_single(dev, rx, 256, DMA_FROM_DEVICE);
	ck_assert(!dma_mapping_error(dev, drx));

	ck_assert_int_eq(dmaemu_device_stats(dd, &ds), 0);
	ck_assert_uint_eq(ds.maps, 2);
	ck_assert_uint_eq(ds.live_mappings, 2);
	ck_assert_uint_eq(ds.iommu_pages, iommu ? 2 : 0);
	ck_assert_int_eq(dmaemu_dma_write(dd, drx, pkt, 256), 0);
	{
		/* Per mapping: the accesses and bytes of each. */
		struct dmaemu_mapping_info mi;

		ck_assert_int_eq(dmaemu_device_mapping_find(dd, dtx, 1, &mi),
				 0);
		ck_assert_uint_eq(mi.dev_reads, 1);
		ck_assert_uint_eq(mi.dev_bytes_read, 100);
		ck_assert_uint_eq(mi.dev_writes + mi.dev_bytes_written, 0);
		ck_assert_int_eq(dmaemu_device_mapping_find(dd, drx, 1, &mi),
				 0);
		ck_assert_uint_eq(mi.dev_writes, 1);
		ck_assert_uint_eq(mi.dev_bytes_written, 256);
		ck_assert_uint_eq(mi.dev_reads + mi.dev_bytes_read, 0);
		/* Its map's maintenance: FROM_DEVICE invalidates (arm),
		 * bounces nothing out; no sync yet. */
		ck_assert_uint_eq(mi.syncs_for_device + mi.syncs_for_cpu, 0);
		ck_assert_uint_eq(mi.bytes_cleaned, 0);
		ck_assert_uint_eq(mi.bytes_invalidated, arm ? 256 : 0);
		ck_assert_uint_eq(mi.bytes_bounced, 0);
		/* The TO_DEVICE one: map and sync_for_device clean and
		 * bounce out, its sync_for_cpu neither. */
		ck_assert_int_eq(dmaemu_device_mapping_find(dd, dtx, 1, &mi),
				 0);
		ck_assert_uint_eq(mi.syncs_for_device, 1);
		ck_assert_uint_eq(mi.syncs_for_cpu, 1);
		ck_assert_uint_eq(mi.bytes_cleaned, arm ? 2 * 4096 : 0);
		ck_assert_uint_eq(mi.bytes_invalidated, 0);
		ck_assert_uint_eq(mi.bytes_bounced, bounce ? 2 * 4096 : 0);
		/* The dump shows the same. */
		ck_assert_int_eq(dmaemu_machine_dump(m, out), 0);
		snprintf((char *)got, sizeof(got),
			 "syncs 1 for device, 1 for cpu; %d bytes cleaned, 0 "
			 "invalidated, %d bounced; device 1 reads",
			 arm ? 2 * 4096 : 0, bounce ? 2 * 4096 : 0);
		ck_assert_msg(strstr(output(), (char *)got), "%s\n%s",
			      (char *)got, copy);
	}
	dma_unmap_single(dev, dtx, 4096, DMA_TO_DEVICE);
	dma_unmap_single(dev, drx, 256, DMA_FROM_DEVICE);

	ck_assert_int_eq(dmaemu_device_stats(dd, &ds), 0);
	ck_assert_uint_eq(ds.maps, 2);
	ck_assert_uint_eq(ds.unmaps, 2);
	ck_assert_uint_eq(ds.live_mappings, 0);
	ck_assert_uint_eq(ds.iommu_pages, 0);
	ck_assert_uint_eq(ds.syncs_for_cpu, 1);
	ck_assert_uint_eq(ds.syncs_for_device, 1);
	ck_assert_uint_eq(ds.bytes_mapped, 4096 + 256);
	/* arm64: map and sync_for_device of TO_DEVICE clean, FROM_DEVICE's
	 * map and unmap invalidate; x86 does no maintenance. */
	ck_assert_uint_eq(ds.bytes_cleaned, arm ? 2 * 4096 : 0);
	ck_assert_uint_eq(ds.bytes_invalidated, arm ? 2 * 256 : 0);
	/* swiotlb: TO_DEVICE copies out at map and sync_for_device,
	 * FROM_DEVICE copies back at unmap. */
	ck_assert_uint_eq(ds.bytes_bounced, bounce ? 2 * 4096 + 256 : 0);
	ck_assert_uint_eq(ds.dev_reads, 1);
	ck_assert_uint_eq(ds.dev_bytes_read, 100);
	ck_assert_uint_eq(ds.dev_writes, 1);
	ck_assert_uint_eq(ds.dev_bytes_written, 256);
	ck_assert_uint_eq(ds.irqs, 0);

	ck_assert_int_eq(dmaemu_machine_stats(m, &ms), 0);
	ck_assert_uint_eq(ms.cache_levels, 1);
	ck_assert_uint_eq(ms.devices, 1);
	ck_assert_uint_eq(ms.kmalloc_objects, 2);
	ck_assert_uint_eq(ms.swiotlb_maps, bounce ? 2 : 0);
	ck_assert_uint_eq(ms.swiotlb_bounced, ds.bytes_bounced);
	ck_assert_uint_eq(ms.swiotlb_used, 0);
	ck_assert_uint_ge(ms.pages_total, ms.pages_free);
	ck_assert_uint_gt(ms.zone_allocs, 0);
	/* The maintenance of the maps shows in the cache model's counts. */
	if (arm)
		ck_assert_uint_gt(ms.cache[0].maint_ops, 0);
	kfree(tx);
	kfree(rx);
	teardown();
}
END_TEST

/* A scatterlist counts once as a map and once as an unmap, its bytes
 * added up (arm64, direct: the TO_DEVICE map cleans each entry). */
START_TEST(test_stats_sg)
{
	struct dmaemu_device_stats ds;
	struct scatterlist sg[2];
	uint8_t *a, *b;

	make("profile=arm64");
	a = kmalloc(512, GFP_KERNEL);
	b = kmalloc(1024, GFP_KERNEL);
	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	sg_init_table(sg, 2);
	sg_set_buf(&sg[0], a, 512);
	sg_set_buf(&sg[1], b, 1024);
	ck_assert_int_eq(dma_map_sg(dev, sg, 2, DMA_TO_DEVICE), 2);
	dma_sync_sg_for_cpu(dev, sg, 2, DMA_TO_DEVICE);
	dma_sync_sg_for_device(dev, sg, 2, DMA_TO_DEVICE);
	ck_assert_int_eq(dmaemu_device_stats(dd, &ds), 0);
	ck_assert_uint_eq(ds.maps, 1);
	ck_assert_uint_eq(ds.live_mappings, 2);
	{
		/* Per mapping: the list's counts are in segment 0. */
		struct dmaemu_mapping_info mi;

		ck_assert_int_eq(dmaemu_device_mapping_find(
					 dd, sg_dma_address(&sg[0]), 1, &mi),
				 0);
		ck_assert_int_eq(mi.sg_segment, 0);
		ck_assert_uint_eq(mi.syncs_for_device, 1);
		ck_assert_uint_eq(mi.syncs_for_cpu, 1);
		ck_assert_uint_eq(mi.bytes_cleaned, 2 * 1536);
		ck_assert_int_eq(dmaemu_device_mapping_find(
					 dd, sg_dma_address(&sg[1]), 1, &mi),
				 0);
		ck_assert_int_eq(mi.sg_segment, 1);
		ck_assert_uint_eq(mi.syncs_for_device + mi.bytes_cleaned, 0);
	}
	dma_unmap_sg(dev, sg, 2, DMA_TO_DEVICE);
	ck_assert_int_eq(dmaemu_device_stats(dd, &ds), 0);
	ck_assert_uint_eq(ds.maps, 1);
	ck_assert_uint_eq(ds.unmaps, 1);
	ck_assert_uint_eq(ds.live_mappings, 0);
	ck_assert_uint_eq(ds.bytes_mapped, 1536);
	ck_assert_uint_eq(ds.syncs_for_cpu, 1);
	ck_assert_uint_eq(ds.syncs_for_device, 1);
	ck_assert_uint_eq(ds.bytes_cleaned, 2 * 1536);
	ck_assert_uint_eq(ds.bytes_invalidated, 0);
	kfree(a);
	kfree(b);
	teardown();
}
END_TEST

/* Interrupts, per device; a device destroyed keeps its line in the
 * summary with stats=1. */
START_TEST(test_stats_irqs_and_summary)
{
	static const struct dmaemu_device_ops irq_ops = {.nr_irqs = 1};
	struct dmaemu_device_stats ds;
	struct dmaemu_device *d2;
	uint64_t before;
	char *s;

	make("profile=arm64:stats=1");
	d2 = dmaemu_device_create(m, "irq0", &irq_ops, NULL);
	ck_assert_ptr_nonnull(d2);
	ck_assert_int_eq(dmaemu_raise_irq(d2, 0), 0);
	ck_assert_int_eq(dmaemu_lower_irq(d2, 0), 0);
	ck_assert_int_eq(dmaemu_raise_irq(d2, 0), 0);
	ck_assert_int_eq(dmaemu_lower_irq(d2, 0), 0);
	ck_assert_int_eq(dmaemu_device_stats(d2, &ds), 0);
	ck_assert_uint_eq(ds.irqs, 2);
	ck_assert_int_eq(dmaemu_device_stats(dd, &ds), 0);
	ck_assert_uint_eq(ds.irqs, 0);
	dmaemu_device_destroy(d2);

	before = bad_args();
	ck_assert_int_eq(dmaemu_device_stats(d2, &ds), -EINVAL);
	one_bad_argument(before);
	before = bad_args();
	ck_assert_int_eq(dmaemu_device_stats(dd, NULL), -EINVAL);
	one_bad_argument(before);
	before = bad_args();
	ck_assert_int_eq(dmaemu_machine_stats(m, NULL), -EINVAL);
	one_bad_argument(before);
	before = bad_args();
	ck_assert_int_eq(dmaemu_machine_stats_print(m, NULL), -EINVAL);
	one_bad_argument(before);

	ck_assert_int_eq(dmaemu_machine_stats_print(m, out), 0);
	s = output();
	ck_assert(!strncmp(s, "dmaemu stats: L1: ", 18));
	ck_assert_ptr_nonnull(strstr(
		s, "\ndmaemu stats: device irq0 (destroyed): 0 maps (0 bytes), "
		   "0 unmaps, 0 syncs for device, 0 for cpu; 0 bytes "
		   "cleaned, 0 invalidated, 0 bounced; 0 iommu pages; "
		   "device 0 reads (0 bytes), 0 writes (0 bytes); 2 irqs\n"));
	ck_assert_ptr_nonnull(strstr(s, "\ndmaemu stats: device dev0: 0 maps"));
	ck_assert_ptr_nonnull(strstr(s, "\ndmaemu stats: swiotlb: 0 of 0 "));
	ck_assert_ptr_nonnull(strstr(s, "\ndmaemu stats: slab: "));
	ck_assert_ptr_nonnull(strstr(s, "\ndmaemu stats: pages: "));
	{
		char want[64];

		snprintf(want, sizeof(want), "\ndmaemu stats: %llu reports\n",
			 (unsigned long long)dmaemu_report_count(m, NULL));
		ck_assert_ptr_nonnull(strstr(s, want));
	}
	teardown();
}
END_TEST

/* stats=1: the summary on the report stream at machine destroy, with a
 * device destroyed before; stats=0 (the default): nothing. */
START_TEST(test_stats_option)
{
	char path[] = "/tmp/check-seeing-log-XXXXXX", opts[128], text[4096];
	struct dmaemu_machine *m2;
	struct dmaemu_device *d2;
	size_t n;
	FILE *f;
	int fd, k;

	for (k = 0; k < 2; k++) {
		fd = mkstemp(path);
		ck_assert_int_ge(fd, 0);
		close(fd);
		snprintf(opts, sizeof(opts),
			 "profile=arm64:mem=16M:stats=%d:log_path=%s", !k,
			 path);
		m2 = dmaemu_machine_create(opts);
		ck_assert_ptr_nonnull(m2);
		d2 = dmaemu_device_create(m2, "gone0", NULL, NULL);
		ck_assert_ptr_nonnull(d2);
		dmaemu_device_destroy(d2);
		ck_assert_ptr_nonnull(
			dmaemu_device_create(m2, "live0", NULL, NULL));
		dmaemu_machine_destroy(m2);
		f = fopen(path, "r");
		ck_assert_ptr_nonnull(f);
		n = fread(text, 1, sizeof(text) - 1, f);
		text[n] = '\0';
		fclose(f);
		unlink(path);
		strcpy(path, "/tmp/check-seeing-log-XXXXXX");
		if (k) {
			ck_assert_ptr_null(strstr(text, "dmaemu stats:"));
			continue;
		}
		ck_assert_ptr_nonnull(strstr(text, "dmaemu stats: L1: "));
		ck_assert_ptr_nonnull(strstr(
			text, "\ndmaemu stats: device gone0 (destroyed): "
			      "0 maps"));
		ck_assert_ptr_nonnull(
			strstr(text, "\ndmaemu stats: device live0: 0 maps"));
		ck_assert_ptr_nonnull(
			strstr(text, "\ndmaemu stats: 0 reports\n"));
	}
}
END_TEST

static Suite *seeing_suite(void)
{
	Suite *s = suite_create("seeing");
	TCase *tc = tcase_create("seeing");

	tcase_add_test(tc, test_line_map_text);
	tcase_add_test(tc, test_line_map_wc);
	tcase_add_test(tc, test_line_map_unseen_store);
	tcase_add_test(tc, test_line_map_svg);
	tcase_add_test(tc, test_line_map_bad_arguments);
	tcase_add_loop_test(tc, test_dump, 0, 3);
	tcase_add_loop_test(tc, test_stats, 0, 6);
	tcase_add_test(tc, test_stats_sg);
	tcase_add_test(tc, test_stats_irqs_and_summary);
	tcase_add_test(tc, test_stats_option);
	tcase_add_checked_fixture(tc, NULL, teardown);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(seeing_suite());
}
