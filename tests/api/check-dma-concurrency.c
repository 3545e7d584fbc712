// SPDX-License-Identifier: MIT
/*
 * check-dma-concurrency.c - eight driver threads map, sync and unmap
 * their own buffers on one device while a device thread serves their DMA
 * requests; every byte each side reads is checked.  Meant to be free of
 * host data races under Helgrind and DRD (the Valgrind runs include it),
 * so the loop counts stay small.
 *
 * One round of a driver thread:
 *   CPU writes pattern P          (explicit accessor: through the model)
 *   map BIDIRECTIONAL             (clean: the device can read P)
 *   device: read, check P, write Q
 *   sync_for_cpu, CPU reads Q     (invalidate: the CPU sees Q)
 *   sync_for_device, unmap
 * The device thread takes requests from a queue (mutex + condition
 * variable) and answers each with a done flag; the API calls of the
 * driver threads run concurrently with each other and with the device's
 * DMA into other threads' buffers.
 */
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_VALGRIND_VALGRIND_H
#include <valgrind/valgrind.h>
#else
#define RUNNING_ON_VALGRIND 0
#endif

#include <linux/dma-mapping.h>
#include <linux/slab.h>

#include <dmaemu/cpu.h>
#include <dmaemu/device.h>
#include <dmaemu/machine.h>
#include <dmaemu/mm.h>
#include <dmaemu/report.h>
#include <dmaemu/testing.h>

#include "check-run.h"
#include "fixture.h"

#define NTHREADS 8
#define BUFSZ 256

struct request {
	dma_addr_t dma;
	uint8_t expect, write; /* the byte the device must read, then write */
	bool pending, done, ok;
	struct request *next;
};

static struct {
	pthread_mutex_t lock;
	pthread_cond_t work, done;
	struct request *head;
	bool stop;
} q = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER,
       PTHREAD_COND_INITIALIZER, NULL, false};

static struct dmaemu_machine *m;
static struct dmaemu_device *dd;
static struct device *dev;
static unsigned int rounds;

static void *device_thread(void *arg)
{
	uint8_t buf[BUFSZ];
	struct request *r;
	unsigned int i;
	bool ok;

	(void)arg;
	pthread_mutex_lock(&q.lock);
	for (;;) {
		while (!q.head && !q.stop)
			pthread_cond_wait(&q.work, &q.lock);
		if (!q.head)
			break;
		r = q.head;
		q.head = r->next;
		pthread_mutex_unlock(&q.lock);

		ok = !dmaemu_dma_read(dd, r->dma, buf, BUFSZ);
		for (i = 0; i < BUFSZ; i++)
			ok &= buf[i] == r->expect;
		memset(buf, r->write, BUFSZ);
		ok &= !dmaemu_dma_write(dd, r->dma, buf, BUFSZ);

		pthread_mutex_lock(&q.lock);
		r->ok = ok;
		r->done = true;
		pthread_cond_broadcast(&q.done);
	}
	pthread_mutex_unlock(&q.lock);
	return NULL;
}

/* Ask the device and wait for it. */
static bool device_round(struct request *r)
{
	pthread_mutex_lock(&q.lock);
	r->done = false;
	r->next = q.head;
	q.head = r;
	pthread_cond_signal(&q.work);
	while (!r->done)
		pthread_cond_wait(&q.done, &q.lock);
	pthread_mutex_unlock(&q.lock);
	return r->ok;
}

struct driver {
	unsigned int id;
	uint8_t *buf;
	unsigned int errors;
};

static void *driver_thread(void *arg)
{
	struct driver *d = arg;
	struct request r;
	uint8_t pat[BUFSZ], got[BUFSZ];
	unsigned int n, i;

	memset(&r, 0, sizeof(r));
	for (n = 0; n < rounds; n++) {
		uint8_t p = (uint8_t)(d->id * 31 + n * 2 + 1);
		dma_addr_t dma;

		memset(pat, p, BUFSZ);
		if (dmaemu_cpu_write(d->buf, pat, BUFSZ))
			d->errors++;
		dma = dma_map_single(dev, d->buf, BUFSZ, DMA_BIDIRECTIONAL);
		if (dma_mapping_error(dev, dma)) {
			d->errors++;
			continue;
		}
		r.dma = dma;
		r.expect = p;
		r.write = (uint8_t)(p + 1);
		if (!device_round(&r))
			d->errors++;
		dma_sync_single_for_cpu(dev, dma, BUFSZ, DMA_BIDIRECTIONAL);
		if (dmaemu_cpu_read(got, d->buf, BUFSZ))
			d->errors++;
		for (i = 0; i < BUFSZ; i++)
			if (got[i] != (uint8_t)(p + 1))
				break;
		if (i < BUFSZ)
			d->errors++;
		dma_sync_single_for_device(dev, dma, BUFSZ, DMA_BIDIRECTIONAL);
		dma_unmap_single(dev, dma, BUFSZ, DMA_BIDIRECTIONAL);
	}
	return NULL;
}

START_TEST(test_threads_map_sync_unmap)
{
	static const char *const profiles[] = {"arm", "arm64", "x86"};
	struct driver drv[NTHREADS];
	pthread_t dt, t[NTHREADS];
	char opts[128];
	unsigned int i;

	unsetenv("DMAEMU_OPTIONS");
	rounds = RUNNING_ON_VALGRIND ? 6 : 200;
	snprintf(opts, sizeof(opts), "profile=%s:mem=8M:log_path=/dev/null",
		 profiles[_i]);
	m = dmaemu_machine_create(opts);
	ck_assert_ptr_nonnull(m);
	dd = dmaemu_device_create(m, "dev0", NULL, NULL);
	dev = dmaemu_device_to_dev(dd);
	q.stop = false;
	q.head = NULL;
	for (i = 0; i < NTHREADS; i++) {
		drv[i].id = i;
		drv[i].errors = 0;
		drv[i].buf = kmalloc(BUFSZ, GFP_KERNEL);
		ck_assert_ptr_nonnull(drv[i].buf);
	}
	ck_assert_int_eq(pthread_create(&dt, NULL, device_thread, NULL), 0);
	for (i = 0; i < NTHREADS; i++)
		ck_assert_int_eq(
			pthread_create(&t[i], NULL, driver_thread, &drv[i]), 0);
	for (i = 0; i < NTHREADS; i++)
		pthread_join(t[i], NULL);
	pthread_mutex_lock(&q.lock);
	q.stop = true;
	pthread_cond_broadcast(&q.work);
	pthread_mutex_unlock(&q.lock);
	pthread_join(dt, NULL);

	for (i = 0; i < NTHREADS; i++) {
		ck_assert_uint_eq(drv[i].errors, 0);
		kfree(drv[i].buf);
	}
	ck_assert_uint_eq(fixture_mapping_count(dd), 0);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 0);
	dmaemu_device_destroy(dd);
	dmaemu_machine_destroy(m);
	m = NULL;
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("dma-concurrency");
	TCase *tc = tcase_create("threads");

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_threads_map_sync_unmap, 0, 3);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(suite());
}
