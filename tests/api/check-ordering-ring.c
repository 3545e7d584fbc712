// SPDX-License-Identifier: MIT
/*
 * check-ordering-ring.c - the load side of the ordering model
 * (docs/ordering.md) on a completion ring, in a sweep of lockstep seeds on
 * each profile.  The device completes job j in its ring entry: the result
 * length, then 16 bytes of data, then the status word with DONE; the
 * driver polls the status with READ_ONCE() and then reads the length
 * (READ_ONCE(), or a plain load for odd jobs) and that many bytes of the
 * data (memcpy()).  Built twice: with the
 * dma_rmb() between the status and the rest (check-ordering-ring: no
 * report, right data in every run) and without it
 * (check-ordering-ring-normb, RING_NO_RMB: missing-read-barrier in every
 * run, an error on arm64 and arm, a portability note on x86; on arm64 and
 * arm some seed lets the length or the data load be satisfied before
 * the status load, and the driver reads the previous job's values; x86
 * (TSO) always reads the right ones).  Instrumented, as driver code is:
 * memcpy() goes through the model.  Lockstep only: the driver busy-polls
 * memory the device thread writes, which under sched=threads is a host
 * data race Helgrind and DRD would rightly report.
 */
#include "config.h"

#include <pthread.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_VALGRIND_VALGRIND_H
#include <valgrind/valgrind.h>
#else
#define RUNNING_ON_VALGRIND 0
#endif

#include <asm/barrier.h>
#include <linux/compiler.h>
#include <linux/delay.h>
#include <linux/dma-mapping.h>
#include <linux/io.h>

#include <dmaemu/device.h>
#include <dmaemu/machine.h>
#include <dmaemu/report.h>

#include "check-run.h"

#ifdef RING_NO_RMB
#define BUGGY 1
#else
#define BUGGY 0
#endif

#define ENTRIES 8
#define JOBS 24 /* three rounds of the ring */
#define SEEDS (RUNNING_ON_VALGRIND ? 20 : 100)
#define DONE 0x80000000u
#define REG_KICK 0 /* write j: complete job j */

struct entry {
	uint32_t len;
	uint32_t data[4];
	uint32_t status;
};

/* The device's state (one device at a time). */
static struct {
	dma_addr_t ring_dma;
	uint32_t next, kicked; /* jobs completed, jobs asked for */
	pthread_mutex_t lock;
} cq = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* Bytes of data of job @j (4, 8 or 12: not the same as the job before
 * it in its entry), and its words. */
static uint32_t job_len(uint32_t j)
{
	return 4 * (1 + j % 3);
}

static uint32_t job_word(uint32_t j, unsigned int k)
{
	return j * 16 + k + 1;
}

static void cq_write(struct dmaemu_device *d, uint64_t off, uint64_t val,
		     unsigned int size)
{
	(void)size;
	if (off != REG_KICK)
		return;
	pthread_mutex_lock(&cq.lock);
	cq.kicked = (uint32_t)val + 1;
	pthread_mutex_unlock(&cq.lock);
	dmaemu_device_doorbell(d);
}

/* Complete every job asked for: length, data, then status, in order. */
static void cq_run(struct dmaemu_device *d, unsigned int events)
{
	(void)events;
	for (;;) {
		uint32_t j, v, w[4];
		unsigned int k;
		dma_addr_t e;

		pthread_mutex_lock(&cq.lock);
		j = cq.next;
		if (j >= cq.kicked) {
			pthread_mutex_unlock(&cq.lock);
			return;
		}
		cq.next++;
		pthread_mutex_unlock(&cq.lock);
		e = cq.ring_dma + (j % ENTRIES) * sizeof(struct entry);
		v = job_len(j);
		ck_assert_int_eq(dmaemu_dma_write(d, e, &v, 4), 0);
		for (k = 0; k < 4; k++)
			w[k] = job_word(j, k);
		ck_assert_int_eq(
			dmaemu_dma_write(d, e + offsetof(struct entry, data), w,
					 sizeof(w)),
			0);
		v = DONE | j;
		ck_assert_int_eq(
			dmaemu_dma_write(d, e + offsetof(struct entry, status),
					 &v, 4),
			0);
	}
}

static const struct dmaemu_device_ops cq_ops = {
	.mmio_size = 16,
	.mmio_write = cq_write,
	.run = cq_run,
};

/* Jobs whose length (READ_ONCE(), or a plain load) and whose data
 * (memcpy()) was stale. */
static unsigned int stale_len, stale_plain, stale_data;

/* The driver: job @j, its entry @e.  Return: whether it read right; a
 * wrong value may only be what the entry held before: the previous job's
 * (or 0 in the first round). */
static bool drv_job(struct entry *e, void __iomem *regs, uint32_t j)
{
	uint32_t len, w[4], p = j - ENTRIES;
	bool first = j < ENTRIES, right = true;
	unsigned int k;

	writel(j, regs + REG_KICK);
	while (READ_ONCE(e->status) != (DONE | j))
		udelay(1);
#if !BUGGY
	dma_rmb(); /* the rest of the entry after its status */
#endif
	/* Odd jobs load the length as most drivers do, with a plain load
	 * (which reads the word itself after its hook). */
	len = j & 1 ? e->len : READ_ONCE(e->len);
	if (len != job_len(j)) {
		ck_assert_uint_eq(len, first ? 0 : job_len(p));
		if (j & 1)
			stale_plain++;
		else
			stale_len++;
		return false;
	}
	memcpy(w, e->data, len);
	for (k = 0; k < len / 4; k++) {
		if (w[k] == job_word(j, k))
			continue;
		ck_assert_uint_eq(w[k], first ? 0 : job_word(p, k));
		right = false;
	}
	stale_data += !right;
	return right;
}

/*
 * One run.  Return: the jobs whose length or data was wrong.  Every
 * wrong value is the previous job's of that entry (what the word held
 * before the device's write), never anything else.
 */
static unsigned int ring_run(const char *profile, uint64_t seed,
			     const char *extra)
{
	struct dmaemu_machine *m;
	struct dmaemu_device *d;
	struct dmaemu_report r;
	struct device *dev;
	struct entry *ring;
	unsigned int wrong = 0;
	char opts[160];
	bool strong;
	uint64_t n;
	uint32_t j;

	unsetenv("DMAEMU_OPTIONS");
	snprintf(opts, sizeof(opts),
		 "profile=%s:seed=%llu:sched=lockstep:log_path=/dev/null%s",
		 profile, (unsigned long long)seed, extra);
	m = dmaemu_machine_create(opts);
	ck_assert_ptr_nonnull(m);
	strong = strstr(extra, "ordering=strong") != NULL;
	cq.next = cq.kicked = 0;
	d = dmaemu_device_create(m, "cq0", &cq_ops, NULL);
	ck_assert_ptr_nonnull(d);
	dev = dmaemu_device_to_dev(d);
	ring = dma_alloc_coherent(dev, ENTRIES * sizeof(*ring), &cq.ring_dma,
				  GFP_KERNEL);
	ck_assert_ptr_nonnull(ring);
	for (j = 0; j < JOBS; j++) {
		struct entry *e = &ring[j % ENTRIES];

		if (!drv_job(e, dmaemu_device_regs(d), j)) {
			/* Memory holds the right values: after a barrier,
			 * the driver reads them. */
			dma_rmb();
			ck_assert_uint_eq(READ_ONCE(e->len), job_len(j));
			wrong++;
		}
	}
	dma_free_coherent(dev, ENTRIES * sizeof(*ring), ring, cq.ring_dma);
	dmaemu_device_destroy(d);
	n = dmaemu_report_count(m, "missing-read-barrier");
	if (BUGGY && !strong)
		ck_assert_msg(n >= 1, "%s seed %llu: no missing-read-barrier",
			      profile, (unsigned long long)seed);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), n);
	if (BUGGY && !strong) {
		ck_assert_int_eq(dmaemu_report_get(m, 0, &r), 0);
		ck_assert_str_eq(r.kind_name, "missing-read-barrier");
		ck_assert_int_eq(r.severity, strcmp(profile, "x86")
						     ? DMAEMU_SEVERITY_ERROR
						     : DMAEMU_SEVERITY_NOTE);
		ck_assert_ptr_nonnull(strstr(r.text, "drv_job"));
		ck_assert_ptr_nonnull(strstr(r.text, "fix: dma_rmb()"));
	} else {
		ck_assert_msg(n == 0, "%s seed %llu: %llu missing-read-barrier",
			      profile, (unsigned long long)seed,
			      (unsigned long long)n);
	}
	dmaemu_machine_destroy(m);
	return wrong;
}

static const char *const profiles[] = {"arm64", "arm", "x86"};

/*
 * Every seed reports the buggy driver and none the correct one.  The data:
 * always right with the dma_rmb(), and on x86 (TSO); without it, on arm64
 * and arm, some jobs read a stale length or data, and not all of them
 * (the seed chooses, per word and per device write).
 */
START_TEST(test_sweep)
{
	const char *p = profiles[_i];
	unsigned int wrong = 0, all = 0, w;
	uint64_t seed;

	stale_len = stale_plain = stale_data = 0;
	for (seed = 1; seed <= SEEDS; seed++) {
		w = ring_run(p, seed, "");
		wrong += w;
		all += w == JOBS;
	}
	if (BUGGY && strcmp(p, "x86")) {
		ck_assert_msg(wrong > 0, "%s: no seed read stale data", p);
		ck_assert_msg(all < SEEDS,
			      "%s: every job of every seed read "
			      "stale data",
			      p);
		/* Every accessor returns old words: READ_ONCE(), a plain
		 * load, memcpy(). */
		ck_assert_uint_gt(stale_len, 0);
		ck_assert_uint_gt(stale_plain, 0);
		ck_assert_uint_gt(stale_data, 0);
		fprintf(stderr,
			"# %s: %u of %u jobs read stale data (length %u, "
			"length by a plain load %u, data %u)\n",
			p, wrong, SEEDS * JOBS, stale_len, stale_plain,
			stale_data);
	} else {
		ck_assert_msg(wrong == 0, "%s: %u stale reads", p, wrong);
	}
}
END_TEST

/* The same seed replays: the same jobs read stale data. */
START_TEST(test_replay)
{
	uint64_t seed;

	for (seed = 1; seed <= 4; seed++)
		ck_assert_uint_eq(ring_run("arm64", seed, ""),
				  ring_run("arm64", seed, ""));
}
END_TEST

/* ordering=strong: no record, no report, no stale data. */
START_TEST(test_strong)
{
	uint64_t seed;

	for (seed = 1; seed <= 8; seed++)
		ck_assert_uint_eq(ring_run("arm64", seed, ":ordering=strong"),
				  0);
}
END_TEST

static Suite *suite(void)
{
	Suite *s =
		suite_create(BUGGY ? "ordering-ring-normb" : "ordering-ring");
	TCase *tc = tcase_create("sweep");

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_sweep, 0, 3);
	tcase_add_test(tc, test_replay);
	tcase_add_test(tc, test_strong);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(suite());
}
