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
};

static void *device_thread(void *arg)
{
	struct writer *d = arg;
	uint8_t buf[96];
	unsigned int r, off;

	for (r = 0; r < d->rounds; r++) {
		memset(buf, (int)(r & 0xff), sizeof(buf));
		/* Unaligned chunks, some crossing a page boundary. */
		for (off = 40; off + sizeof(buf) < NPAGES * DMAEMU__PAGE_SIZE;
		     off += 1000)
			if (dmaemu__mem_write(d->m, d->base + off, buf,
					      sizeof(buf)))
				d->errors++;
		if (dmaemu__mem_read(d->m, d->base + DMAEMU__PAGE_SIZE - 10,
				     buf, 20))
			d->errors++;
	}
	return NULL;
}

START_TEST(test_device_vs_lineops)
{
	struct dmaemu_machine *m = dmaemu_machine_create("mem=16M:"
							 "log_path=/dev/null");
	struct writer dev;
	pthread_t t;
	uint64_t base, lp, len = NPAGES * DMAEMU__PAGE_SIZE;
	unsigned int r;

	ck_assert_ptr_nonnull(m);
	base = m->bank[0].phys + 0x4000;
	dev.m = m;
	dev.base = base;
	dev.rounds = ROUNDS;
	dev.errors = 0;
	ck_assert_int_eq(pthread_create(&t, NULL, device_thread, &dev), 0);

	for (r = 0; r < ROUNDS; r++) {
		uint8_t *cpu = dmaemu__phys_cpu(m, base);

		/* The CPU dirties a few bytes (its own copy: no lock needed,
		 * this thread is the only CPU). */
		cpu[(r * 67) % len] = (uint8_t)r;
		switch (r % 4) {
		case 0:
			dmaemu__range_clean(m, base, len);
			break;
		case 1:
			dmaemu__range_invalidate(m, base + 100, len - 200);
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
	}
	ck_assert_int_eq(pthread_join(t, NULL), 0);
	ck_assert_int_eq(dev.errors, 0);

	/* Quiet now: after an invalidate the CPU sees exactly MEM. */
	dmaemu__range_clean_invalidate(m, base, len);
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
	ck_assert_int_eq(pthread_create(&ta, NULL, device_thread, &a), 0);
	ck_assert_int_eq(pthread_create(&tb, NULL, device_thread, &b), 0);
	dmaemu__range_invalidate(m, a.base, 2 * NPAGES * DMAEMU__PAGE_SIZE);
	ck_assert_int_eq(pthread_join(ta, NULL), 0);
	ck_assert_int_eq(pthread_join(tb, NULL), 0);
	ck_assert_int_eq(a.errors + b.errors, 0);
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
