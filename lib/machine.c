// SPDX-License-Identifier: MIT
/*
 * machine.c - create and destroy machines: the only file that builds and
 * tears down every layer of lib/.
 *
 * How it works.  A machine is built in a fixed order and torn down in the
 * reverse one:
 *
 *   options -> report stream -> physical memory -> cache model
 *           -> page allocator -> kmalloc -> write-combining -> CPU access
 *           -> interrupt controller -> registry
 *
 * Destroy starts with the devices (their threads stop, their drivers are
 * removed, their leaks reported) and then stops the interrupt thread.
 *
 * The registry of live machines is core/machines.c.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dma/dma.h"
#include "net/net.h"
#include "dmaemu/sync.h"
#include "dmaemu/seeing.h"

/* The machine's mutexes, in one place so that create and destroy agree. */
static int init_mutexes(struct dmaemu_machine *m)
{
	int ret;
	unsigned int i;

	ret = dmaemu__mutex_init(&m->lock);
	if (ret)
		goto out;
	ret = dmaemu__mutex_init(&m->cache_lock);
	if (ret)
		goto out_lock;
	ret = dmaemu__mutex_init(&m->wc_lock);
	if (ret)
		goto out_cache_lock;
	ret = dmaemu__mutex_init(&m->report_lock);
	if (ret)
		goto out_wc_lock;
	ret = dmaemu__mutex_init(&m->fault_lock);
	if (ret)
		goto out_report_lock;
	for (i = 0; i < DMAEMU__NSTRIPES; i++) {
		ret = dmaemu__mutex_init(&m->stripe[i]);
		if (ret)
			goto out_stripes;
	}
	return 0;

out_stripes:
	while (i-- > 0)
		pthread_mutex_destroy(&m->stripe[i]);
	pthread_mutex_destroy(&m->fault_lock);
out_report_lock:
	pthread_mutex_destroy(&m->report_lock);
out_wc_lock:
	pthread_mutex_destroy(&m->wc_lock);
out_cache_lock:
	pthread_mutex_destroy(&m->cache_lock);
out_lock:
	pthread_mutex_destroy(&m->lock);
out:
	return -ret;
}

static void destroy_mutexes(struct dmaemu_machine *m)
{
	unsigned int i;

	for (i = 0; i < DMAEMU__NSTRIPES; i++)
		pthread_mutex_destroy(&m->stripe[i]);
	pthread_mutex_destroy(&m->fault_lock);
	pthread_mutex_destroy(&m->report_lock);
	pthread_mutex_destroy(&m->wc_lock);
	pthread_mutex_destroy(&m->cache_lock);
	pthread_mutex_destroy(&m->lock);
}

/* The CPU data cache, as the options describe it. */
static int create_cache(struct dmaemu_machine *m, char *err, size_t errlen)
{
	struct cachesim_config cfg;
	unsigned int i;
	char msg[256];

	cachesim_config_init(&cfg);
	cfg.nlevels = 1;
	cfg.level[0].name = "L1D";
	cfg.level[0].size = m->opt.cache_size;
	cfg.level[0].ways = m->opt.cache_ways;
	cfg.level[0].line = m->opt.cache_line;
	cfg.level[0].policy = m->opt.cache_policy;
	cfg.level[0].write_policy = CACHESIM_WB_WA;
	cfg.seed = m->opt.seed;
	m->cache = cachesim_create(&cfg, msg, sizeof(msg));
	if (!m->cache) {
		int e = errno ? errno : ENOMEM;

		snprintf(err, errlen, "options: bad cache geometry: %s",
			 e == EINVAL ? msg : strerror(e));
		return -e;
	}
	dmaemu__cpu_set_evict_hook(m);
	/*
	 * The banks' lines in address order, so that a map's clean of the
	 * model costs a few word operations per page (cachesim_track()).  A
	 * bank too large for the maps is simply not tracked: its cleans
	 * search the sets, with the same results.
	 */
	for (i = 0; i < m->nbanks; i++) {
		int r = cachesim_track(m->cache, m->bank[i].phys,
				       m->bank[i].size);

		if (r == -ENOMEM) {
			cachesim_destroy(m->cache);
			m->cache = NULL;
			return r;
		}
	}
	return 0;
}

/*
 * On the report stream, once it is open: the line saying which keys
 * DMAEMU_OPTIONS took over from the program (@note), and with help=1 the
 * list of options.
 */
static void say_options(struct dmaemu_machine *m, const char *note)
{
	FILE *out = m->log ? m->log : stderr;
	char pre[DMAEMU__LOG_PREFIX];

	if (note)
		fprintf(out, "%sdmaemu: %s\n", dmaemu__log_prefix(m, pre),
			note);
	if (m->opt.help)
		dmaemu__options_help(&m->opt, out);
	fflush(out);
}

struct dmaemu_machine *dmaemu_machine_create(const char *options)
{
	struct dmaemu_machine *m;
	char err[512] = "", *note = NULL;
	int ret;

	dmaemu__annotate_init();
	m = dmaemu__calloc(1, sizeof(*m));
	if (!m) {
		errno = ENOMEM;
		return NULL;
	}
	m->reg_index = DMAEMU__MAX_MACHINES;
	ret = dmaemu__options_build(&m->opt, getenv("DMAEMU_OPTIONS"), options,
				    &note, err, sizeof(err));
	if (!ret)
		ret = dmaemu__options_level(&m->opt, err, sizeof(err));
	if (ret < 0)
		goto out_free;
	m->line = m->opt.cache_line;
	m->line_shift = (unsigned int)__builtin_ctz(m->line);

	ret = init_mutexes(m);
	if (ret < 0)
		goto out_free;
	dmaemu__fault_init(m);
	ret = dmaemu__report_init(m, err, sizeof(err));
	if (ret < 0)
		goto out_mutexes;
	say_options(m, note);
	dmaemu__free(note);
	note = NULL;
	m->trace_clock = dmaemu_time_ns;
	ret = dmaemu__trace_init(m, err, sizeof(err));
	if (ret < 0)
		goto out_report;
	ret = dmaemu__physmem_init(m);
	if (ret < 0)
		goto out_physmem;
	ret = create_cache(m, err, sizeof(err));
	if (ret < 0)
		goto out_physmem;
	ret = dmaemu__palloc_init(m);
	if (ret < 0)
		goto out_cache;
	ret = dmaemu__slab_init(m);
	if (ret < 0)
		goto out_palloc;
	ret = dmaemu__vmalloc_init(m);
	if (ret < 0)
		goto out_slab;
	ret = dmaemu__wc_init(m);
	if (ret < 0)
		goto out_vmalloc;
	ret = dmaemu__cpu_init(m);
	if (ret < 0)
		goto out_wc;
	dmaemu__dma_init(m);
	ret = dmaemu__sched_init(m);
	if (ret < 0)
		goto out_cpu;
	ret = dmaemu__irq_init(m);
	if (ret < 0)
		goto out_sched;
	ret = dmaemu__kwork_init(m);
	if (ret < 0)
		goto out_irq;
	ret = dmaemu__net_init(m);
	if (ret < 0)
		goto out_kwork;
	ret = dmaemu__machine_register(m);
	if (ret < 0)
		goto out_net;
	return m;

out_net:
	dmaemu__net_fini(m);
out_kwork:
	dmaemu__kwork_fini(m);
out_irq:
	dmaemu__irq_fini(m);
out_sched:
	dmaemu__sched_fini(m);
out_cpu:
	dmaemu__cpu_fini(m);
out_wc:
	dmaemu__wc_fini(m);
out_vmalloc:
	dmaemu__vmalloc_fini(m);
out_slab:
	dmaemu__slab_fini(m);
out_palloc:
	dmaemu__palloc_fini(m);
out_cache:
	cachesim_destroy(m->cache);
out_physmem:
	dmaemu__physmem_fini(m);
	dmaemu__trace_fini(m);
out_report:
	dmaemu__report_fini(m);
out_mutexes:
	destroy_mutexes(m);
out_free:
	/* Only option and log_path problems are the caller's to fix. */
	if (err[0])
		fprintf(stderr, "dmaemu: %s\n", err);
	dmaemu__free(note);
	dmaemu__free(m);
	errno = -ret;
	return NULL;
}

void dmaemu_machine_destroy(struct dmaemu_machine *m)
{
	if (dmaemu__machine_bad(m, "dmaemu_machine_destroy"))
		return;
	if (!m)
		return;
	if (m->opt.stats) { /* on the report stream, while all is there */
		FILE *f = m->log ? m->log : stderr;

		dmaemu_machine_stats_print(m, f);
		fflush(f);
	}
	dmaemu__devices_fini(m); /* reports their leaks: the machine is whole */
	dmaemu__kwork_fini(m);	 /* the kernel worker: drivers are gone */
	dmaemu__irq_fini(m);	 /* the interrupt thread, now idle */
	dmaemu__net_fini(m);	 /* frames passed up and not yet freed */
	dmaemu__iomem_fini(m);	 /* ranges requested and never released */
	dmaemu__sched_fini(m);	 /* every other context has exited */
	dmaemu__owner_fini(m);
	dmaemu__machine_unregister(m);
	dmaemu__iommu_fini(m);
	dmaemu__swiotlb_fini(m); /* its pool goes back to the page allocator */
	dmaemu__cpu_fini(m);
	dmaemu__wc_fini(m);
	dmaemu__vmalloc_fini(m);
	dmaemu__slab_fini(m);
	dmaemu__palloc_fini(m);
	cachesim_destroy(m->cache);
	dmaemu__physmem_fini(m);
	dmaemu__trace_fini(m);
	dmaemu__report_fini(m);
	destroy_mutexes(m);
	dmaemu__free(m);
}
