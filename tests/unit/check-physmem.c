// SPDX-License-Identifier: MIT
/*
 * check-physmem.c - the host views of emulated DRAM: aliasing, protection,
 * classification, banks, struct page, device copies, and laziness (a big
 * machine costs host memory only for what it touches).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <linux/dma-mapping.h>
#include <linux/mm_types.h>

#include "check-run.h"
#include "dma/dma.h"
#include "dmaemu/device.h"
#include "fixture.h"

#ifdef HAVE_VALGRIND_VALGRIND_H
#include <valgrind/valgrind.h>
#else
#define RUNNING_ON_VALGRIND 0
#endif

static struct dmaemu_machine *m;

static void setup(void)
{
	unsetenv("DMAEMU_OPTIONS");
	m = dmaemu_machine_create("mem=16M:highmem=8M:log_path=/dev/null");
	ck_assert_ptr_nonnull(m);
}

static void teardown(void)
{
	dmaemu_machine_destroy(m);
	m = NULL;
}

/* The permissions ("rw-p", "---p", ...) of the host mapping holding @p. */
static void perms_of(const void *p, char perms[5])
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	uintptr_t a = (uintptr_t)p;

	ck_assert_ptr_nonnull(f);
	strcpy(perms, "????");
	while (fgets(line, sizeof(line), f)) {
		uintptr_t lo, hi;
		char pr[5];

		if (sscanf(line, "%" SCNxPTR "-%" SCNxPTR " %4s", &lo, &hi,
			   pr) != 3)
			continue;
		if (a >= lo && a < hi) {
			memcpy(perms, pr, 5);
			break;
		}
	}
	fclose(f);
}

START_TEST(test_views_alias)
{
	struct dmaemu__bank *b = &m->bank[0];
	uint64_t phys = b->phys + 0x3000;
	uint8_t *mem = dmaemu__phys_mem(m, phys);
	uint8_t *cpu = dmaemu__phys_cpu(m, phys);
	uint8_t *twin = dmaemu__phys_twin(m, phys);
	uint8_t *wc = dmaemu__phys_view(m, phys, DMAEMU__REGION_WC);

	ck_assert_ptr_eq(mem, b->mem + 0x3000);
	ck_assert_ptr_eq(cpu, b->cpu + 0x3000);
	ck_assert_ptr_eq(twin, b->twin + 0x3000);
	ck_assert_ptr_eq(wc, b->wc + 0x3000);
	/* All copies start out equal (zero). */
	ck_assert_int_eq(mem[0] | cpu[0] | twin[0] | wc[0], 0);

	/* The uncached alias is MEM; the CPU copy does not see it. */
	mem[5] = 0x5a;
	ck_assert_int_eq(wc[5], 0x5a);
	ck_assert_int_eq(cpu[5], 0);
	ck_assert_int_eq(twin[5], 0);
	/* The WC alias is the same memory. */
	wc[6] = 0xa5;
	ck_assert_int_eq(mem[6], 0xa5);
	ck_assert_int_eq(cpu[6], 0);
	/* The CPU copy is private to the CPU. */
	cpu[7] = 0x77;
	ck_assert_int_eq(mem[7], 0);
	ck_assert_int_eq(twin[7], 0);

	ck_assert_ptr_null(dmaemu__phys_mem(m, b->phys - 1));
	ck_assert_ptr_null(dmaemu__phys_cpu(m, b->phys + b->size));
	ck_assert_ptr_null(dmaemu__phys_view(m, phys, DMAEMU__REGION_MMIO));
}
END_TEST

/*
 * The hardware's aliases: MEM and the CPU copy once more, outside the
 * reservation (classify knows nothing of them), the same bytes at other
 * addresses, in every bank.  Under Memcheck the devices use the drivers'
 * views.
 */
START_TEST(test_device_aliases)
{
	unsigned int i;

	for (i = 0; i < m->nbanks; i++) {
		struct dmaemu__bank *b = &m->bank[i];
		uint64_t phys = b->phys + b->size - 0x1000;
		uint8_t *mem = dmaemu__phys_mem(m, phys);
		uint8_t *cpu = dmaemu__phys_cpu(m, phys);
		uint8_t *dmem = dmaemu__phys_dev_mem(m, phys);
		uint8_t *dcpu = dmaemu__phys_dev_cpu(m, phys);
		struct dmaemu__where w;

		ck_assert_ptr_nonnull(dmem);
		ck_assert_ptr_nonnull(dcpu);
		if (dmaemu__on_memcheck) {
			ck_assert_ptr_eq(dmem, mem);
			ck_assert_ptr_eq(dcpu, cpu);
			continue;
		}
		ck_assert_ptr_ne(dmem, mem);
		ck_assert_ptr_ne(dcpu, cpu);
		ck_assert(!dmaemu__classify(dmem, &w));
		ck_assert(!dmaemu__classify(dcpu, &w));
		dmem[3] = 0x3c;
		ck_assert_int_eq(mem[3], 0x3c);
		ck_assert_int_eq(cpu[3], 0);
		cpu[4] = 0x4d;
		ck_assert_int_eq(dcpu[4], 0x4d);
		ck_assert_int_eq(dmem[4], 0);
	}
	ck_assert_ptr_null(dmaemu__phys_dev_mem(m, m->bank[0].phys - 1));
	ck_assert_ptr_null(dmaemu__phys_dev_cpu(m, m->bank[0].phys - 1));
}
END_TEST

/*
 * A device's reads and writes of DRAM go through the aliases, never the
 * drivers' views: with the page's MEM and CPU-copy views made read-only,
 * a device writes a coherent buffer and reads it back, snooped (x86) or
 * not (arm64); a write through a driver's view would fault.
 */
START_TEST(test_device_uses_aliases)
{
	static const char *const profiles[] = {
		"profile=arm64:log_path=/dev/null",
		"profile=x86:log_path=/dev/null"};
	struct dmaemu_machine *mm;
	struct dmaemu_device *dd;
	uint8_t *mem, *cpu, got[64];
	dma_addr_t dma;
	uint64_t phys;
	void *buf;

	if (dmaemu__on_memcheck)
		return; /* the devices use the drivers' views there */
	mm = dmaemu_machine_create(profiles[_i]);
	ck_assert_ptr_nonnull(mm);
	dd = dmaemu_device_create(mm, "dev0", NULL, NULL);
	ck_assert_ptr_nonnull(dd);
	buf = dma_alloc_coherent(dmaemu_device_to_dev(dd), 4096, &dma,
				 GFP_KERNEL);
	ck_assert_ptr_nonnull(buf);
	phys = dma; /* the direct backend: bus address = physical */
	mem = dmaemu__phys_mem(mm, phys);
	cpu = dmaemu__phys_cpu(mm, phys);
	ck_assert_int_eq(mprotect(mem, 4096, PROT_READ), 0);
	ck_assert_int_eq(mprotect(cpu, 4096, PROT_READ), 0);
	fixture_dev_fill(dd, dma, 0x6b, 64);
	ck_assert_int_eq(dmaemu_dma_read(dd, dma, got, sizeof(got)), 0);
	ck_assert_int_eq(mprotect(mem, 4096, PROT_READ | PROT_WRITE), 0);
	ck_assert_int_eq(mprotect(cpu, 4096, PROT_READ | PROT_WRITE), 0);
	ck_assert(fixture_all(got, 0x6b, sizeof(got)));
	ck_assert(fixture_all(mem, 0x6b, 64));
	dma_free_coherent(dmaemu_device_to_dev(dd), 4096, buf, dma);
	dmaemu_device_destroy(dd);
	ck_assert_uint_eq(dmaemu_report_count(mm, NULL), 0);
	dmaemu_machine_destroy(mm);
}
END_TEST

START_TEST(test_protection)
{
	char p[5];

	/* The CPU copy is shared: vmalloc() maps its pages a second time. */
	perms_of(m->bank[0].cpu, p);
	ck_assert_str_eq(p, "rw-s");
	perms_of(m->bank[0].twin + 4096, p);
	ck_assert_str_eq(p, "rw-p");
	perms_of(m->bank[0].mem, p);
	ck_assert_str_eq(p, "rw-s");
	perms_of(m->bank[0].wc, p);
	ck_assert_str_eq(p, "rw-s");
	perms_of(m->bank[0].nomap, p);
	ck_assert_str_eq(p, "---p");
	perms_of(m->bank[1].nomap + m->bank[1].size - 1, p);
	ck_assert_str_eq(p, "---p");
	perms_of(m->mmio, p);
	ck_assert_str_eq(p, "---p");
	perms_of(m->mmio + m->mmio_size - 1, p);
	ck_assert_str_eq(p, "---p");
	/* The guard after the linear map. */
	perms_of(m->bank[0].cpu + m->bank[0].size, p);
	ck_assert_str_eq(p, "---p");
	/* The vmalloc area, empty: inaccessible, and no address of it is
	 * a view until vmalloc() maps a page there. */
	perms_of(m->vmap, p);
	ck_assert_str_eq(p, "---p");
	{
		struct dmaemu__where w;

		ck_assert(!dmaemu__classify(m->vmap, &w));
		ck_assert_ptr_eq(w.m, m);
	}
}
END_TEST

static void expect_where(const void *addr, enum dmaemu__region region,
			 struct dmaemu__bank *bank, uint64_t phys)
{
	struct dmaemu__where w;

	ck_assert_msg(dmaemu__classify(addr, &w), "%p not classified", addr);
	ck_assert_int_eq(w.region, region);
	ck_assert_ptr_eq(w.m, m);
	ck_assert_ptr_eq(w.bank, bank);
	ck_assert_uint_eq(w.phys, phys);
}

START_TEST(test_classify)
{
	struct dmaemu__bank *lo = &m->bank[0], *hi = &m->bank[1];
	struct dmaemu__where w;
	int local;

	expect_where(lo->cpu, DMAEMU__REGION_LINEAR, lo, lo->phys);
	expect_where(lo->cpu + lo->size - 1, DMAEMU__REGION_LINEAR, lo,
		     lo->phys + lo->size - 1);
	expect_where(lo->mem + 64, DMAEMU__REGION_UNCACHED, lo, lo->phys + 64);
	expect_where(lo->wc + 128, DMAEMU__REGION_WC, lo, lo->phys + 128);
	expect_where(lo->nomap + 4096, DMAEMU__REGION_NOMAP, lo,
		     lo->phys + 4096);
	expect_where(lo->twin + 8, DMAEMU__REGION_TWIN, lo, lo->phys + 8);
	expect_where(hi->cpu + 12345, DMAEMU__REGION_LINEAR, hi,
		     hi->phys + 12345);
	expect_where(hi->mem, DMAEMU__REGION_UNCACHED, hi, hi->phys);
	expect_where(hi->twin + hi->size - 1, DMAEMU__REGION_TWIN, hi,
		     hi->phys + hi->size - 1);
	expect_where(m->mmio + 0x100, DMAEMU__REGION_MMIO, NULL, 0x100);

	/* Guards belong to the machine but are no region. */
	ck_assert(!dmaemu__classify(lo->cpu + lo->size, &w));
	ck_assert_int_eq(w.region, DMAEMU__REGION_NONE);
	ck_assert_ptr_eq(w.m, m);
	ck_assert(!dmaemu__classify(m->mmio + m->mmio_size, &w));
	ck_assert_ptr_eq(w.m, m);
	/* Ordinary memory is nothing. */
	ck_assert(!dmaemu__classify(&local, &w));
	ck_assert_int_eq(w.region, DMAEMU__REGION_NONE);
	ck_assert_ptr_null(w.m);
	ck_assert(!dmaemu__classify(setup, &w));
	ck_assert(!dmaemu__classify(NULL, &w));
	ck_assert(!dmaemu__classify(m->resv - 1, &w));
	ck_assert(!dmaemu__classify(m->resv + m->resv_size, &w));
	ck_assert_ptr_eq(dmaemu__machine_of_addr(lo->wc), m);
	/* A view that starts past its slot's base has nothing before it. */
	ck_assert(!dmaemu__classify(lo->twin - 1, &w));
	ck_assert_ptr_eq(w.m, m);
	ck_assert(!dmaemu__classify(hi->mem - 64, &w));
}
END_TEST

/*
 * The copies a line clean reads and writes (CPU, TWIN, MEM) of one
 * physical byte lie at host addresses that differ in bits 12 to 27: at
 * equal bits there, a host with a linear-address-tagged L1 (AMD Zen's
 * utags, Intel's 4 KiB store-forwarding alias) keeps evicting or stalling
 * one copy for another, which made a 4 KiB clean four times slower.
 */
static void views_skewed(struct dmaemu_machine *mm)
{
	static const uint64_t bits = ((1ULL << 28) - 1) & ~4095ULL;
	unsigned int i;

	for (i = 0; i < mm->nbanks; i++) {
		struct dmaemu__bank *b = &mm->bank[i];
		uintptr_t v[4] = {(uintptr_t)b->cpu, (uintptr_t)b->twin,
				  (uintptr_t)b->mem, (uintptr_t)b->wc};
		unsigned int x, y;

		for (x = 0; x < 4; x++)
			for (y = x + 1; y < 4; y++)
				ck_assert_msg((v[x] ^ v[y]) & bits,
					      "bank %u views %u and %u alias",
					      i, x, y);
	}
}

/* The fixture's small banks, and the default 256 MiB, whose slots (512
 * MiB) start at addresses equal in bits 12-27: only the skew tells its
 * views apart there. */
START_TEST(test_views_skewed)
{
	struct dmaemu_machine *big =
		dmaemu_machine_create("mem=256M:log_path=/dev/null");

	ck_assert_ptr_nonnull(big);
	views_skewed(m);
	views_skewed(big);
	dmaemu_machine_destroy(big);
}
END_TEST

START_TEST(test_banks)
{
	struct dmaemu__bank *lo = &m->bank[0], *hi = &m->bank[1];

	ck_assert_uint_eq(m->nbanks, 2);
	ck_assert_uint_eq(lo->phys, 0x80000000ULL);
	ck_assert_uint_eq(hi->phys, 0x100000000ULL);
	ck_assert_ptr_eq(dmaemu__bank_of_phys(m, lo->phys, 1), lo);
	ck_assert_ptr_eq(dmaemu__bank_of_phys(m, lo->phys, lo->size), lo);
	ck_assert_ptr_eq(dmaemu__bank_of_phys(m, lo->phys + lo->size - 1, 0),
			 lo);
	ck_assert_ptr_null(dmaemu__bank_of_phys(m, lo->phys, lo->size + 1));
	ck_assert_ptr_null(dmaemu__bank_of_phys(m, lo->phys - 4096, 8192));
	ck_assert_ptr_null(dmaemu__bank_of_phys(m, lo->phys + lo->size, 1));
	ck_assert_ptr_eq(dmaemu__bank_of_phys(m, hi->phys + 100, 100), hi);
	ck_assert_ptr_null(dmaemu__bank_of_phys(m, hi->phys + hi->size - 1, 2));
	ck_assert_ptr_null(dmaemu__bank_of_phys(m, 0, 1));
	ck_assert_ptr_null(dmaemu__bank_of_phys(m, UINT64_MAX, 1));
	ck_assert_ptr_null(dmaemu__bank_of_phys(m, lo->phys + 8, UINT64_MAX));
}
END_TEST

START_TEST(test_struct_page)
{
	unsigned int i;

	for (i = 0; i < m->nbanks; i++) {
		struct dmaemu__bank *b = &m->bank[i];
		uint64_t n = b->size / DMAEMU__PAGE_SIZE;

		ck_assert_ptr_nonnull(b->pages);
		ck_assert_uint_eq(b->pages[0].phys, b->phys);
		ck_assert_ptr_eq(b->pages[0].bank, b);
		ck_assert_uint_eq(b->pages[n - 1].phys,
				  b->phys + b->size - DMAEMU__PAGE_SIZE);
		ck_assert_ptr_eq(b->pages[n - 1].bank, b);
	}
}
END_TEST

START_TEST(test_mem_copy)
{
	uint64_t phys = m->bank[0].phys + 4096 - 10; /* crosses a page */
	uint8_t in[100], out[100];
	unsigned int i;

	for (i = 0; i < sizeof(in); i++)
		in[i] = (uint8_t)(i * 7 + 1);
	ck_assert_int_eq(dmaemu__mem_write(m, phys, in, sizeof(in)), 0);
	ck_assert_mem_eq(dmaemu__phys_mem(m, phys), in, sizeof(in));
	/* A device write reaches MEM only (the CPU's copy is now stale). */
	fixture_peek(out, dmaemu__phys_cpu(m, phys), 1);
	ck_assert_int_eq(out[0], 0);
	ck_assert_int_eq(dmaemu__phys_twin(m, phys)[0], 0);
	ck_assert_int_eq(dmaemu__mem_read(m, phys, out, sizeof(out)), 0);
	ck_assert_mem_eq(out, in, sizeof(in));
	ck_assert_int_eq(dmaemu__mem_write(m, phys, in, 0), 0);

	ck_assert_int_eq(dmaemu__mem_write(m, m->bank[0].phys - 1, in, 2),
			 -EFAULT);
	ck_assert_int_eq(
		dmaemu__mem_read(m, m->bank[1].phys + m->bank[1].size - 50, out,
				 sizeof(out)),
		-EFAULT);
	ck_assert_int_eq(dmaemu__mem_read(m, 0x1000, out, 1), -EFAULT);
}
END_TEST

/* Resident set size of this process, in bytes. */
static uint64_t vm_rss(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	uint64_t kb = 0;

	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmRSS: %" SCNu64, &kb) == 1)
			break;
	fclose(f);
	ck_assert_uint_gt(kb, 0);
	return kb << 10;
}

/*
 * TSan keeps about 4.5 bytes of shadow per byte of application memory
 * touched; the test touches three copies of 16 MiB (CPU, MEM, TWIN), so
 * under TSan its RSS grows by some 250 MiB more.  The bound allows 8 bytes
 * per byte touched: an eager 1 GiB machine (three copies) would still be
 * far above it.
 */
#if defined(__SANITIZE_THREAD__)
#define TSAN_SHADOW_PER_BYTE 8
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define TSAN_SHADOW_PER_BYTE 8
#endif
#endif
#ifndef TSAN_SHADOW_PER_BYTE
#define TSAN_SHADOW_PER_BYTE 0
#endif

START_TEST(test_lazy)
{
	const uint64_t touched = 16ULL << 20;
	const uint64_t tsan_shadow = TSAN_SHADOW_PER_BYTE * 3 * touched;
	struct dmaemu_machine *big;
	uint64_t before, after, phys;

	before = vm_rss();
	/*
	 * Under Valgrind the RSS says nothing about dmaemu, and Helgrind
	 * gives every mapped byte shadow state (about 3 GiB for 1 GiB of
	 * DRAM): a smaller machine still runs the same code.
	 */
	big = dmaemu_machine_create(RUNNING_ON_VALGRIND
					    ? "mem=64M:log_path=/dev/null"
					    : "mem=1G:log_path=/dev/null");
	ck_assert_ptr_nonnull(big);
	phys = big->bank[0].phys + big->bank[0].size / 4;

	/* Through the linear map (the CPU copy)... */
	memset(dmaemu__phys_cpu(big, phys), 0x3c, touched);
	/* ...and through line operations (MEM and TWIN). */
	dmaemu__range_clean(big, phys, touched);
	ck_assert_int_eq(dmaemu__phys_mem(big, phys + touched - 1)[0], 0x3c);
	dmaemu__range_invalidate(big, phys, touched);

	after = vm_rss();
	fprintf(stderr,
		"# mem=%" PRIu64 "M machine, 16 MiB touched: RSS grew by "
		"%" PRIu64 " MiB\n",
		big->bank[0].size >> 20, (after - before) >> 20);
	/* Valgrind's own shadow memory grows with touched memory too. */
	if (!RUNNING_ON_VALGRIND)
		ck_assert_uint_lt(after - before, (100ULL << 20) + tsan_shadow);
	ck_assert_uint_eq(dmaemu_report_count(big, NULL), 0);
	dmaemu_machine_destroy(big);
}
END_TEST

static Suite *physmem_suite(void)
{
	Suite *s = suite_create("physmem");
	TCase *tc = tcase_create("physmem");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_views_alias);
	tcase_add_test(tc, test_device_aliases);
	tcase_add_loop_test(tc, test_device_uses_aliases, 0, 2);
	tcase_add_test(tc, test_protection);
	tcase_add_test(tc, test_classify);
	tcase_add_test(tc, test_views_skewed);
	tcase_add_test(tc, test_banks);
	tcase_add_test(tc, test_struct_page);
	tcase_add_test(tc, test_mem_copy);
	tcase_add_test(tc, test_lazy);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(physmem_suite());
}
