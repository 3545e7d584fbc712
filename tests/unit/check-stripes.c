// SPDX-License-Identifier: MIT
/*
 * check-stripes.c - a device thread writes MEM through dmaemu__mem_write()
 * while the CPU thread runs line operations over the same lines.  The
 * stripe locks must make this free of host data races: the test is meant
 * to run under Helgrind and DRD (make check-valgrind) as well as natively.
 */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "check-run.h"
#include "dma/dma.h"

#define NPAGES 4
#define ROUNDS 200

struct writer {
	struct dmaemu_machine *m;
	uint64_t base;
	unsigned int rounds;
	int errors;
	int lost; /* reads that did not give back what it had just written */
};

/* The device writes 96 bytes at these offsets of its NPAGES pages. */
#define DEV_CHUNK 96
#define DEV_FIRST 40
#define DEV_STEP 1000
#define DEV_READ (DMAEMU__PAGE_SIZE - 10) /* 20 bytes inside chunk 4 */

static void *device_thread(void *arg)
{
	struct writer *d = arg;
	uint8_t buf[DEV_CHUNK];
	unsigned int r, off, i;

	for (r = 0; r < d->rounds; r++) {
		memset(buf, (int)(r & 0xff), sizeof(buf));
		/* Unaligned chunks, some crossing a page boundary. */
		for (off = DEV_FIRST;
		     off + sizeof(buf) < NPAGES * DMAEMU__PAGE_SIZE;
		     off += DEV_STEP)
			if (dmaemu__mem_write(d->m, d->base + off, buf,
					      sizeof(buf)))
				d->errors++;
		memset(buf, 0, sizeof(buf));
		if (dmaemu__mem_read(d->m, d->base + DEV_READ, buf, 20))
			d->errors++;
		/* Nothing else writes these lines' DRAM (test below). */
		for (i = 0; i < 20; i++)
			if (buf[i] != (uint8_t)r)
				d->lost++;
	}
	return NULL;
}

START_TEST(test_device_vs_lineops)
{
	struct dmaemu_machine *m = dmaemu_machine_create("mem=16M:"
							 "log_path=/dev/null");
	struct writer dev;
	pthread_t t;
	uint64_t base, lp, len = NPAGES * DMAEMU__PAGE_SIZE, i;
	static uint8_t dev_line[NPAGES * DMAEMU__PAGE_SIZE / 16];
	static uint8_t want[NPAGES * DMAEMU__PAGE_SIZE];  /* MEM's shadow */
	static uint8_t cwant[NPAGES * DMAEMU__PAGE_SIZE]; /* the CPU's */
	unsigned int r, off;
	uint8_t *cpu, *mem;

	ck_assert_ptr_nonnull(m);
	base = m->bank[0].phys + 0x4000;
	cpu = dmaemu__phys_cpu(m, base);
	mem = dmaemu__phys_mem(m, base);
	/*
	 * The CPU dirties bytes only in lines the device never writes, so
	 * what DRAM must hold at the end is known: the device's last round
	 * in its chunks, and in the CPU's lines the shadow (want[]) of what
	 * each line operation wrote back.  No line operation may write a
	 * line that has no CPU-dirty byte, or the device's data is lost.
	 */
	memset(dev_line, 0, sizeof(dev_line));
	memset(want, 0, sizeof(want));
	memset(cwant, 0, sizeof(cwant));
	for (off = DEV_FIRST; off + DEV_CHUNK < len; off += DEV_STEP)
		for (i = off / m->line; i <= (off + DEV_CHUNK - 1) / m->line;
		     i++)
			dev_line[i] = 1;
	dev.m = m;
	dev.base = base;
	dev.rounds = ROUNDS;
	dev.errors = 0;
	dev.lost = 0;
	ck_assert_int_eq(pthread_create(&t, NULL, device_thread, &dev), 0);

	for (r = 0; r < ROUNDS; r++) {
		uint64_t p = (r * 67) % len, first, last;

		/* The CPU dirties a byte (its own copy: no lock needed, this
		 * thread is the only CPU), in a line of its own. */
		while (dev_line[p / m->line])
			p = (p + m->line) % len;
		cpu[p] = cwant[p] = (uint8_t)(r | 1);
		switch (r % 4) {
		case 0:
			dmaemu__range_clean(m, base, len);
			break;
		case 1:
			/* Whole lines 1 ... len / line - 2: CPU = MEM, the
			 * CPU's bytes there are dropped. */
			dmaemu__range_invalidate(m, base + 100, len - 200);
			first = 100 / m->line * m->line;
			last = (len - 100 + m->line - 1) / m->line * m->line;
			for (i = first; i < last; i++)
				if (!dev_line[i / m->line])
					cwant[i] = want[i];
			break;
		case 2:
			dmaemu__range_clean_invalidate(m, base, len);
			break;
		case 3:
			for (lp = base; lp < base + len; lp += m->line) {
				pthread_mutex_t *s = dmaemu__stripe_of(m, lp);

				dmaemu__lock(s);
				dmaemu__line_fill(m, lp);
				dmaemu__unlock(s);
			}
			break;
		}
		/* Everything but an invalidate writes the CPU's lines back. */
		if (r % 4 != 1)
			for (i = 0; i < len; i++)
				if (!dev_line[i / m->line])
					want[i] = cwant[i];
	}
	ck_assert_int_eq(pthread_join(t, NULL), 0);
	ck_assert_int_eq(dev.errors, 0);
	ck_assert_int_eq(dev.lost, 0);

	/* Quiet now: DRAM holds the shadow, and after an invalidate the
	 * CPU sees exactly DRAM. */
	dmaemu__range_clean_invalidate(m, base, len);
	for (i = 0; i < len; i++)
		if (!dev_line[i / m->line])
			want[i] = cwant[i];
	for (off = DEV_FIRST; off + DEV_CHUNK < len; off += DEV_STEP)
		memset(want + off, (ROUNDS - 1) & 0xff, DEV_CHUNK);
	for (i = 0; i < len; i++)
		ck_assert_msg(mem[i] == want[i],
			      "byte %llu (%s line): MEM %#x, want %#x",
			      (unsigned long long)i,
			      dev_line[i / m->line] ? "a device" : "the CPU's",
			      mem[i], want[i]);
	ck_assert_mem_eq(dmaemu__phys_cpu(m, base), dmaemu__phys_mem(m, base),
			 len);
	ck_assert_mem_eq(dmaemu__phys_twin(m, base), dmaemu__phys_mem(m, base),
			 len);
	dmaemu_machine_destroy(m);
}
END_TEST

/* Two device threads on overlapping pages: stripes alone order them. */
START_TEST(test_two_devices)
{
	struct dmaemu_machine *m = dmaemu_machine_create("mem=16M:"
							 "log_path=/dev/null");
	struct writer a, b;
	pthread_t ta, tb;

	ck_assert_ptr_nonnull(m);
	a.m = b.m = m;
	a.base = m->bank[0].phys + 0x8000;
	b.base = a.base + DMAEMU__PAGE_SIZE;
	a.rounds = b.rounds = ROUNDS / 2;
	a.errors = b.errors = 0;
	a.lost = b.lost = 0;
	ck_assert_int_eq(pthread_create(&ta, NULL, device_thread, &a), 0);
	ck_assert_int_eq(pthread_create(&tb, NULL, device_thread, &b), 0);
	dmaemu__range_invalidate(m, a.base, 2 * NPAGES * DMAEMU__PAGE_SIZE);
	ck_assert_int_eq(pthread_join(ta, NULL), 0);
	ck_assert_int_eq(pthread_join(tb, NULL), 0);
	ck_assert_int_eq(a.errors + b.errors, 0);
	ck_assert_int_eq(a.lost + b.lost, 0);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 0);
	dmaemu_machine_destroy(m);
}
END_TEST

static Suite *stripes_suite(void)
{
	Suite *s = suite_create("stripes");
	TCase *tc = tcase_create("stripes");

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_device_vs_lineops);
	tcase_add_test(tc, test_two_devices);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	unsetenv("DMAEMU_OPTIONS");
	return check_run(stripes_suite());
}
