// SPDX-License-Identifier: MIT
/*
 * bench-devices.c - the threaded devices at work, through their reference
 * drivers built with the instrumentation flags (as driver code is), on an
 * arm64 machine with every check on:
 *
 *   ce_bw_vs_memcpy   the copy engine moving 64 MiB in 1 MiB descriptors
 *                     (cedrv_memcpy(): map, doorbell, the device's copy,
 *                     interrupt, unmap), as a fraction of host memcpy()'s
 *                     bandwidth on 64 MiB measured in the same run;
 *                     target >= 0.40.
 *   ce_two_engines    two engines driven from two driver threads against
 *                     one engine from one thread, throughput ratio;
 *                     target >= 1.6.
 *   memcpy_two_threads  (informational) the same pattern with host
 *                     memcpy(): two threads at once against one, the
 *                     ceiling of ce_two_engines on this host.
 *   nic_pps           100,000 64-byte frames sent and received through the
 *                     card's loopback with RX and TX interrupt coalescing
 *                     of 16 (bench-nic.h: batches of 16 frames a doorbell,
 *                     48 in flight); target >= 500,000 frames/s.  The same
 *                     with one interrupt per frame is printed beside it.
 *   nic_cpu_ns_per_frame  the CPU time of that run, every thread's
 *                     (getrusage(RUSAGE_SELF): the driver's, the card's and
 *                     the interrupt thread's), per frame; target <= 2000
 *                     ns.  The same with one interrupt per frame beside it.
 *   irq_round_trip    doorbell -> device thread -> interrupt handler ->
 *                     completion for a 64-byte fill descriptor, median,
 *                     against a bare condition-variable round trip between
 *                     two host threads (a pthread hand-off there and back)
 *                     measured in the same run; target <= 1.5 times it.
 *                     A bare spin-then-futex round trip (each side spins
 *                     up to 20 us, yielding its CPU every 32 looks, then
 *                     sleeps on a futex, as the library's waiters do) is
 *                     printed beside it.
 *   host_scaling      (informational) what the host gives two threads of
 *                     pure arithmetic against one, measured before and
 *                     after the runs (the lesser counts).  Below 1.8 the
 *                     host was busy: every figure of several threads
 *                     (ce_two_engines, nic_pps, nic_cpu_ns_per_frame,
 *                     irq_round_trip) prints host-busy instead of a
 *                     verdict (bench.h).
 *
 * BENCH_DEVICES=ce in the environment runs the copy engine's figures alone
 * (the network card's runs take most of the time), BENCH_DEVICES=nic the
 * network card's alone: for profiling.
 */
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/dma-mapping.h>
#include <linux/jiffies.h>
#include <linux/slab.h>

#include <dmaemu/device.h>
#include <dmaemu/devices/copy-engine.h>
#include <dmaemu/devices/nic.h>
#include <dmaemu/machine.h>
#include <dmaemu/report.h>
#include <dmaemu/sched.h>

#include "bench.h"
#include "ce-driver.h"
#include "bench-nic.h"

#define MIB (1024 * 1024)
#define CE_BUFS 64  /* 64 MiB in 1 MiB descriptors */
#define TWO_BUFS 16 /* per engine in the two-engine race */
#define REPS 3
#define FRAMES 100000
#define RT_N 2001

static const char opts[] = "profile=arm64:mem=512M:log_path=/dev/null";

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *t, unsigned int n)
{
	qsort(t, n, sizeof(*t), cmp_double);
	return t[n / 2];
}

/* ---- the copy engine ---------------------------------------------- */

struct ce_job {
	struct cedrv *ce;
	void *src[CE_BUFS], *dst[CE_BUFS];
	unsigned int n;
	int err;
};

static void *ce_worker(void *arg)
{
	struct ce_job *j = arg;
	unsigned int i;

	for (i = 0; i < j->n && !j->err; i++)
		j->err = cedrv_memcpy(j->ce, j->dst[i], j->src[i], MIB);
	return NULL;
}

static int ce_buffers(struct ce_job *j, unsigned int n, uint8_t seed)
{
	unsigned int i;

	j->n = n;
	for (i = 0; i < n; i++) {
		j->src[i] = kmalloc(MIB, GFP_KERNEL);
		j->dst[i] = kmalloc(MIB, GFP_KERNEL);
		if (!j->src[i] || !j->dst[i])
			return -1;
		memset(j->src[i], (int)(seed + i), MIB);
		memset(j->dst[i], 0, MIB); /* touched, as a reused buffer */
	}
	return 0;
}

static int ce_check(const struct ce_job *j)
{
	unsigned int i;

	for (i = 0; i < j->n; i++)
		if (memcmp(j->dst[i], j->src[i], MIB))
			return -1;
	return j->err ? -1 : 0;
}

static void ce_free(struct ce_job *j)
{
	unsigned int i;

	for (i = 0; i < j->n; i++) {
		kfree(j->src[i]);
		kfree(j->dst[i]);
	}
}

static struct cedrv *ce_of(struct dmaemu_device *d)
{
	return d ? dev_get_drvdata(dmaemu_device_to_dev(d)) : NULL;
}

/*
 * One machine with two engines: the time of 64 MiB through one engine
 * (@one_ns), of TWO_BUFS MiB through one engine, and of TWO_BUFS MiB
 * through each of two engines at once (@par_ns), and the round-trip
 * times of RT_N fill descriptors (@rt).  Return: 0, or -1 on any error.
 */
static int ce_round(double *one_ns, double *seq_ns, double *par_ns, double *rt,
		    uint64_t *reports)
{
	struct dmaemu_machine *m = dmaemu_machine_create(opts);
	struct dmaemu_device *d0 = NULL, *d1 = NULL;
	struct ce_job *big = NULL, *a = NULL, *b = NULL;
	struct dmaemu_thread *t0, *t1;
	struct cedrv *ce0, *ce1;
	void *ring = NULL;
	dma_addr_t ring_dma;
	double t;
	int ret = -1;
	unsigned int i;

	if (!m)
		return -1;
	if (platform_driver_register(&cedrv_driver))
		goto out_m;
	d0 = dmaemu_copy_engine_create(m, "ce0");
	d1 = dmaemu_copy_engine_create(m, "ce1");
	ce0 = ce_of(d0);
	ce1 = ce_of(d1);
	big = calloc(1, sizeof(*big));
	a = calloc(1, sizeof(*a));
	b = calloc(1, sizeof(*b));
	if (!ce0 || !ce1 || !big || !a || !b)
		goto out;
	if (ce_buffers(big, CE_BUFS, 1) || ce_buffers(a, TWO_BUFS, 2) ||
	    ce_buffers(b, TWO_BUFS, 3))
		goto out;

	big->ce = ce0;
	ce_worker(big); /* the first pass touches the machine's pages */
	t = bench_now_ns();
	ce_worker(big);
	*one_ns = bench_now_ns() - t;
	if (ce_check(big))
		goto out;

	a->ce = ce0;
	ce_worker(a);
	b->ce = ce1;
	ce_worker(b);
	t = bench_now_ns();
	ce_worker(a);
	*seq_ns = bench_now_ns() - t;
	if (ce_check(a))
		goto out;

	memset(a->dst[0], 0, MIB);
	memset(b->dst[0], 0, MIB);
	t = bench_now_ns();
	t0 = dmaemu_thread_create(m, "drv-a", ce_worker, a);
	t1 = dmaemu_thread_create(m, "drv-b", ce_worker, b);
	if (t0)
		dmaemu_thread_join(t0);
	if (t1)
		dmaemu_thread_join(t1);
	*par_ns = bench_now_ns() - t;
	if (!t0 || !t1 || ce_check(a) || ce_check(b))
		goto out;

	ring = dma_alloc_coherent(dmaemu_device_to_dev(d0), 64, &ring_dma,
				  GFP_KERNEL);
	if (!ring)
		goto out;
	for (i = 0; i < RT_N; i++) {
		t = bench_now_ns();
		if (cedrv_run(ce0, CE_OP_FILL, i, ring_dma, 64))
			goto out;
		rt[i] = bench_now_ns() - t;
	}
	ret = 0;
out:
	if (ring)
		dma_free_coherent(dmaemu_device_to_dev(d0), 64, ring, ring_dma);
	if (big)
		ce_free(big);
	if (a)
		ce_free(a);
	if (b)
		ce_free(b);
	free(big);
	free(a);
	free(b);
	if (d1)
		dmaemu_device_destroy(d1);
	if (d0)
		dmaemu_device_destroy(d0);
	platform_driver_unregister(&cedrv_driver);
out_m:
	*reports += dmaemu_report_count(m, NULL);
	dmaemu_machine_destroy(m);
	return ret;
}

/* Host memcpy() of 64 MiB between two touched buffers: ns, best of 3. */
static double memcpy_ns(void)
{
	size_t len = (size_t)CE_BUFS * MIB;
	char *src = malloc(len), *dst = malloc(len);
	double best = -1, t;
	unsigned int r;

	if (!src || !dst)
		goto out;
	memset(src, 0x5a, len);
	memset(dst, 0, len);
	for (r = 0; r < 3; r++) {
		t = bench_now_ns();
		memcpy(dst, src, len);
		t = bench_now_ns() - t;
		if (best < 0 || t < best)
			best = t;
	}
	if (memcmp(dst, src, len))
		best = -1;
out:
	free(src);
	free(dst);
	return best;
}

/* ---- a bare condition-variable round trip ------------------------- */

static struct {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	unsigned int ping, pong;
	int stop;
} pp = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, 0};

static void *ponger(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&pp.lock);
	for (;;) {
		while (pp.ping == pp.pong && !pp.stop)
			pthread_cond_wait(&pp.cond, &pp.lock);
		if (pp.stop)
			break;
		pp.pong = pp.ping;
		pthread_cond_broadcast(&pp.cond);
	}
	pthread_mutex_unlock(&pp.lock);
	return NULL;
}

/* ---- a bare spin-then-futex round trip ---------------------------- */

#define FX_SPIN_NS 20000 /* as the library's waiters (lib/base/lock.c) */

/* A hand-off word: bumped by the waker; @sleepers are in FUTEX_WAIT. */
struct fx_word {
	unsigned int seq;
	unsigned int sleepers;
};

static struct fx_word fx_ping, fx_pong;
static int fx_stop;

static void fx_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
	__asm__ __volatile__("yield" ::: "memory");
#endif
}

/* Wait until @w->seq is no longer @old: spin up to FX_SPIN_NS, then
 * sleep on the futex. */
static void fx_wait(struct fx_word *w, unsigned int old)
{
	double end = bench_now_ns() + FX_SPIN_NS;
	unsigned int i = 0;

	while (__atomic_load_n(&w->seq, __ATOMIC_ACQUIRE) == old) {
		if (++i % 32) {
			fx_relax();
			continue;
		}
		if (bench_now_ns() < end) {
			sched_yield(); /* as the library's waiters */
			continue;
		}
		__atomic_add_fetch(&w->sleepers, 1, __ATOMIC_SEQ_CST);
		syscall(SYS_futex, &w->seq, FUTEX_WAIT_PRIVATE, old, NULL, NULL,
			0);
		__atomic_sub_fetch(&w->sleepers, 1, __ATOMIC_SEQ_CST);
	}
}

/* Bump @w->seq; the futex wake only when someone sleeps. */
static void fx_wake(struct fx_word *w)
{
	__atomic_add_fetch(&w->seq, 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&w->sleepers, __ATOMIC_SEQ_CST))
		syscall(SYS_futex, &w->seq, FUTEX_WAKE_PRIVATE, INT_MAX, NULL,
			NULL, 0);
}

static void *fx_ponger(void *arg)
{
	unsigned int seen = 0;

	(void)arg;
	for (;;) {
		fx_wait(&fx_ping, seen);
		seen = __atomic_load_n(&fx_ping.seq, __ATOMIC_ACQUIRE);
		if (__atomic_load_n(&fx_stop, __ATOMIC_ACQUIRE))
			break;
		fx_wake(&fx_pong);
	}
	return NULL;
}

/* Median ns of RT_N spin-then-futex ping-pongs; -1 when the thread
 * cannot start. */
static double futex_rt(void)
{
	static double t[RT_N];
	unsigned int i, pong;
	pthread_t th;
	double t0;

	if (pthread_create(&th, NULL, fx_ponger, NULL))
		return -1;
	for (i = 0; i < RT_N; i++) {
		t0 = bench_now_ns();
		pong = __atomic_load_n(&fx_pong.seq, __ATOMIC_ACQUIRE);
		fx_wake(&fx_ping);
		fx_wait(&fx_pong, pong);
		t[i] = bench_now_ns() - t0;
	}
	__atomic_store_n(&fx_stop, 1, __ATOMIC_RELEASE);
	fx_wake(&fx_ping);
	pthread_join(th, NULL);
	return median(t, RT_N);
}

/* One thread's share of memcpy_scaling(): TWO_BUFS MiB, 1 MiB a call. */
struct mc_job {
	char *src, *dst;
};

static void *mc_worker(void *arg)
{
	struct mc_job *j = arg;
	unsigned int i;

	for (i = 0; i < TWO_BUFS; i++)
		memcpy(j->dst + (size_t)i * MIB, j->src + (size_t)i * MIB, MIB);
	return NULL;
}

/*
 * What the host gives two threads of memcpy() at once: TWO_BUFS MiB
 * copied by each of two threads, against the same by one thread, as a
 * throughput ratio (best of 3 of each) - the ceiling of ce_two_engines on
 * this host, whose engines copy in the same pattern.  -1 on failure.
 */
static double memcpy_scaling(void)
{
	size_t len = (size_t)TWO_BUFS * MIB;
	struct mc_job j[2];
	double seq = -1, par = -1, t;
	unsigned int r, k;
	pthread_t th;
	bool ok = true;

	for (k = 0; k < 2; k++) {
		j[k].src = malloc(len);
		j[k].dst = malloc(len);
		if (j[k].src)
			memset(j[k].src, 0x5a + k, len);
		if (j[k].dst)
			memset(j[k].dst, 0, len);
		ok = ok && j[k].src && j[k].dst;
	}
	for (r = 0; ok && r < 3; r++) {
		t = bench_now_ns();
		mc_worker(&j[0]);
		t = bench_now_ns() - t;
		if (seq < 0 || t < seq)
			seq = t;
		t = bench_now_ns();
		if (pthread_create(&th, NULL, mc_worker, &j[1])) {
			ok = false;
			break;
		}
		mc_worker(&j[0]);
		pthread_join(th, NULL);
		t = bench_now_ns() - t;
		if (par < 0 || t < par)
			par = t;
	}
	for (k = 0; k < 2; k++) {
		ok = ok && !memcmp(j[k].dst, j[k].src, len);
		free(j[k].src);
		free(j[k].dst);
	}
	return ok && par > 0 ? 2 * seq / par : -1;
}

/* Median ns of RT_N ping-pongs; -1 when the thread cannot start. */
static double condvar_rt(void)
{
	static double t[RT_N];
	pthread_t th;
	unsigned int i;
	double t0;

	if (pthread_create(&th, NULL, ponger, NULL))
		return -1;
	for (i = 0; i < RT_N; i++) {
		t0 = bench_now_ns();
		pthread_mutex_lock(&pp.lock);
		pp.ping++;
		pthread_cond_broadcast(&pp.cond);
		while (pp.pong != pp.ping)
			pthread_cond_wait(&pp.cond, &pp.lock);
		pthread_mutex_unlock(&pp.lock);
		t[i] = bench_now_ns() - t0;
	}
	pthread_mutex_lock(&pp.lock);
	pp.stop = 1;
	pthread_cond_broadcast(&pp.cond);
	pthread_mutex_unlock(&pp.lock);
	pthread_join(th, NULL);
	return median(t, RT_N);
}

/* bench_nic_pps() and the CPU time it took, every thread's, per frame. */
static double nic_run(unsigned int coal, double *cpu_ns, uint64_t *reports)
{
	struct rusage a, b;
	double pps;

	getrusage(RUSAGE_SELF, &a);
	pps = bench_nic_pps(opts, coal, FRAMES, reports);
	getrusage(RUSAGE_SELF, &b);
	*cpu_ns = ((double)(b.ru_utime.tv_sec - a.ru_utime.tv_sec) * 1e9 +
		   (double)(b.ru_utime.tv_usec - a.ru_utime.tv_usec) * 1e3 +
		   (double)(b.ru_stime.tv_sec - a.ru_stime.tv_sec) * 1e9 +
		   (double)(b.ru_stime.tv_usec - a.ru_stime.tv_usec) * 1e3) /
		  FRAMES;
	return pps;
}

int main(void)
{
	static double rt[RT_N], rts[REPS];
	double one[REPS], seq[REPS], par[REPS], pps16[REPS], pps1[REPS];
	double cpu16[REPS], cpu1[REPS];
	double mc, mc2, ce1, cseq, cpar, p16, p1, c16, c1, rtmed, cv, fx;
	double host, host2;
	uint64_t reports = 0;
	unsigned int r;
	const char *only = getenv("BENCH_DEVICES");
	bool ce_only = only && !strcmp(only, "ce");
	bool nic_only = only && !strcmp(only, "nic");

	unsetenv("DMAEMU_OPTIONS");
	host = bench_host_scaling();
	mc = memcpy_ns();
	mc2 = memcpy_scaling();
	cv = condvar_rt();
	fx = futex_rt();
	for (r = 0; r < REPS; r++) {
		if (!nic_only &&
		    ce_round(&one[r], &seq[r], &par[r], rt, &reports)) {
			fprintf(stderr, "bench-devices: a copy-engine run "
					"failed\n");
			return 1;
		}
		rts[r] = median(rt, RT_N);
		if (ce_only)
			continue;
		pps16[r] = nic_run(16, &cpu16[r], &reports);
		pps1[r] = nic_run(1, &cpu1[r], &reports);
		if (pps16[r] < 0 || pps1[r] < 0) {
			fprintf(stderr, "bench-devices: a network-card run "
					"failed\n");
			return 1;
		}
	}
	if (reports) {
		fprintf(stderr, "bench-devices: the drivers were reported\n");
		return 1;
	}
	host2 = bench_host_scaling();
	if (host2 < host)
		host = host2;
	if (nic_only) {
		bench_info("host_scaling", host,
			   "two threads of arithmetic against one");
		bench_judge_mt("nic_pps", bench_max(pps16, REPS), BENCH_GE,
			       500000, true, host,
			       "coalescing 16; %.0f with one "
			       "interrupt per frame",
			       bench_max(pps1, REPS));
		bench_judge_mt("nic_cpu_ns_per_frame", bench_min(cpu16, REPS),
			       BENCH_LE, 2000, true, host,
			       "coalescing 16; "
			       "%.0f ns with one interrupt per frame",
			       bench_min(cpu1, REPS));
		return bench_status();
	}
	ce1 = bench_min(one, REPS);
	cseq = bench_min(seq, REPS);
	cpar = bench_min(par, REPS);
	rtmed = bench_min(rts, REPS);
	p16 = ce_only ? 0 : bench_max(pps16, REPS);
	p1 = ce_only ? 0 : bench_max(pps1, REPS);
	c16 = ce_only ? 0 : bench_min(cpu16, REPS);
	c1 = ce_only ? 0 : bench_min(cpu1, REPS);

	bench_info("host_scaling", host,
		   "two threads of arithmetic against one, the lesser of "
		   "before and after; below %.1f the figures of several "
		   "threads are not judged (host-busy)",
		   BENCH_HOST_SCALING_MIN);
	/* memcpy() of 64 MiB below 2 GB/s or above 200 GB/s is no memcpy. */
	bench_judge("ce_bw_vs_memcpy", mc / ce1, BENCH_GE, 0.40,
		    mc > 64.0 * MIB / 200 && mc < 64.0 * MIB / 2,
		    "copy engine %.2f GB/s over 64 MiB in 1 MiB descriptors; "
		    "baseline memcpy %.2f GB/s",
		    64.0 * MIB / ce1, 64.0 * MIB / mc);
	bench_judge_mt("ce_two_engines", 2 * cseq / cpar, BENCH_GE, 1.6,
		       cseq > 0, host,
		       "two engines %.2f GB/s from two threads; baseline one "
		       "engine %.2f GB/s",
		       2.0 * TWO_BUFS * MIB / cpar,
		       1.0 * TWO_BUFS * MIB / cseq);
	bench_info("memcpy_two_threads", mc2,
		   "host memcpy() of %d MiB by each of two threads at once "
		   "against one thread: the ceiling of ce_two_engines here",
		   TWO_BUFS);
	if (!ce_only) {
		bench_judge_mt("nic_pps", p16, BENCH_GE, 500000, p1 > 0, host,
			       "64-byte frames/s through the loopback, "
			       "coalescing 16; %.0f frames/s with one "
			       "interrupt per frame",
			       p1);
		bench_info("nic_pps_no_coalescing", p1,
			   "64-byte frames/s, one interrupt per frame");
		bench_judge_mt("nic_cpu_ns_per_frame", c16, BENCH_LE, 2000,
			       c16 > 0, host,
			       "CPU time of every thread per 64-byte frame, "
			       "coalescing 16; %.0f ns with one interrupt "
			       "per frame",
			       c1);
	}
	bench_judge_mt("irq_round_trip_vs_condvar", cv > 0 ? rtmed / cv : 0,
		       BENCH_LE, 1.5, cv > 0 && fx > 0, host,
		       "doorbell to completion of a 64-byte fill %.0f ns, "
		       "median; baseline a bare condition-variable round "
		       "trip %.0f ns; a bare spin-then-futex one %.0f ns",
		       rtmed, cv, fx);
	bench_info("irq_round_trip_ns", rtmed,
		   "doorbell to completion of a 64-byte fill, median");
	return bench_status();
}
