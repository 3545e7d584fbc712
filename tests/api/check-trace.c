// SPDX-License-Identifier: MIT
/*
 * check-trace.c - trace events (<dmaemu/trace.h>, trace=, trace_format=,
 * trace_events=): the events of each group with their fields, in order,
 * on the thread that made them; the groups a list turns on and no other;
 * tracing started and stopped around a region; the text file's lines in
 * the ftrace form; the JSON file's records; bad options and lists.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>
#include <dmaemu/device.h>
#include <dmaemu/machine.h>
#include <dmaemu/report.h>
#include <dmaemu/trace.h>
#include <linux/dma-mapping.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>

#include "check-run.h"
#include "fixture.h"

#define MAXEV 64

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char seen[MAXEV][320];
static unsigned int nseen;
/* Cache events counted past MAXEV: evictions of dirty lines, the
 * write-backs evictions made. */
static unsigned int nevict, nevict_wb;

static void record(struct dmaemu_machine *m,
		   const struct dmaemu_trace_event *ev, void *arg)
{
	(void)m;
	(void)arg;
	pthread_mutex_lock(&lock);
	if (nseen < MAXEV)
		snprintf(seen[nseen], sizeof(seen[0]), "%s/%s %s [%s] %s",
			 ev->group, ev->name, ev->thread, ev->ctx, ev->args);
	nseen++;
	nevict +=
		!strcmp(ev->name, "cache_evict") && strstr(ev->args, "dirty=1");
	nevict_wb += !strcmp(ev->name, "cache_writeback") &&
		     strstr(ev->args, "cause=evict");
	pthread_mutex_unlock(&lock);
}

static void reset(void)
{
	pthread_mutex_lock(&lock);
	nseen = 0;
	nevict = nevict_wb = 0;
	pthread_mutex_unlock(&lock);
}

/* Events from @from on that start with @prefix and contain @text. */
static unsigned int count(unsigned int from, const char *prefix,
			  const char *text)
{
	unsigned int i, n = 0;

	for (i = from; i < nseen && i < MAXEV; i++)
		n += !strncmp(seen[i], prefix, strlen(prefix)) &&
		     strstr(seen[i], text);
	return n;
}

/* The index of the first event from @from that starts with @prefix. */
static int find(unsigned int from, const char *prefix)
{
	unsigned int i;

	for (i = from; i < nseen && i < MAXEV; i++)
		if (!strncmp(seen[i], prefix, strlen(prefix)))
			return (int)i;
	return -1;
}

/* A driver's round trip: map, the device writes, sync, read, unmap. */
static void round_trip(struct device *dev, struct dmaemu_device *dd)
{
	char *buf = kmalloc(256, GFP_KERNEL);
	static const char msg[] = "hello";
	dma_addr_t d;

	ck_assert_ptr_nonnull(buf);
	d = dma_map_single(dev, buf, 256, DMA_FROM_DEVICE);
	ck_assert(!dma_mapping_error(dev, d));
	ck_assert_int_eq(dmaemu_dma_write(dd, d + 16, msg, sizeof(msg)), 0);
	dma_unmap_single(dev, d, 256, DMA_FROM_DEVICE);
	kfree(buf);
}

START_TEST(test_callback_events)
{
	struct dmaemu_machine *m =
		fixture_machine("profile=%s", _i ? "x86" : "arm64");
	struct dmaemu_device *dd = dmaemu_device_create(m, "tr0", NULL, NULL);
	struct device *dev = dmaemu_device_to_dev(dd);
	int a, b, c, k;

	reset();
	dmaemu_trace_set_callback(m, record, NULL);
	ck_assert_int_eq(dmaemu_trace_start(m, "all"), 0);
	round_trip(dev, dd);
	dmaemu_trace_stop(m);
	k = find(0, "alloc/kmalloc drv-");
	a = find(0, "dma/dma_map_single drv-");
	b = find(0, "device/dma_write drv-");
	c = find(0, "dma/dma_unmap_single drv-");
	ck_assert_msg(k >= 0 && k < a && a < b && b < c,
		      "order kmalloc %d map %d write %d unmap %d", k, a, b, c);
	ck_assert_ptr_nonnull(strstr(seen[k], "[cpu] call=kmalloc phys=0x"));
	ck_assert_ptr_nonnull(strstr(seen[k], "bytes_req=256 gfp=GFP_KERNEL"));
	ck_assert_ptr_nonnull(strstr(seen[a], "dev=tr0 dir=DMA_FROM_DEVICE"));
	ck_assert_ptr_nonnull(strstr(seen[a], "len=256 attrs=0x0 backend="));
	ck_assert_ptr_nonnull(strstr(seen[b], "dev=tr0 addr=0x"));
	ck_assert_ptr_nonnull(strstr(seen[b], "len=6"));
	ck_assert_ptr_null(strstr(seen[b], "error"));
	/* Stopped: nothing more. */
	nseen = 0;
	round_trip(dev, dd);
	ck_assert_uint_eq(nseen, 0);
	fixture_finish(&m, &dd, 0);
}
END_TEST

/* A scatterlist mapped, synced both ways and unmapped, and a
 * NON_CONSISTENT buffer's dma_cache_sync(): each call is an event of the
 * dma group, in order. */
START_TEST(test_sg_and_cache_sync_events)
{
	struct dmaemu_machine *m = fixture_machine("profile=arm64");
	struct dmaemu_device *dd = dmaemu_device_create(m, "tr0", NULL, NULL);
	struct device *dev = dmaemu_device_to_dev(dd);
	const unsigned long nc = DMA_ATTR_NON_CONSISTENT;
	struct scatterlist sg[2];
	char *a = kmalloc(128, GFP_KERNEL), *b = kmalloc(128, GFP_KERNEL);
	int e[5], i;
	dma_addr_t h;
	void *p;

	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	p = dma_alloc_attrs(dev, 4096, &h, GFP_KERNEL, nc);
	ck_assert_ptr_nonnull(p);
	sg_init_table(sg, 2);
	sg_set_buf(&sg[0], a, 128);
	sg_set_buf(&sg[1], b, 128);
	reset();
	dmaemu_trace_set_callback(m, record, NULL);
	ck_assert_int_eq(dmaemu_trace_start(m, "dma"), 0);
	ck_assert_int_eq(dma_map_sg(dev, sg, 2, DMA_BIDIRECTIONAL), 2);
	dma_sync_sg_for_cpu(dev, sg, 2, DMA_BIDIRECTIONAL);
	dma_sync_sg_for_device(dev, sg, 2, DMA_BIDIRECTIONAL);
	dma_unmap_sg(dev, sg, 2, DMA_BIDIRECTIONAL);
	dma_cache_sync(dev, p, 64, DMA_TO_DEVICE);
	dmaemu_trace_stop(m);
	e[0] = find(0, "dma/dma_map_sg drv-");
	e[1] = find(0, "dma/dma_sync_sg_for_cpu drv-");
	e[2] = find(0, "dma/dma_sync_sg_for_device drv-");
	e[3] = find(0, "dma/dma_unmap_sg drv-");
	e[4] = find(0, "dma/dma_cache_sync drv-");
	for (i = 0; i < 5; i++)
		ck_assert_msg(e[i] >= 0 && (!i || e[i] > e[i - 1]),
			      "event %d at %d", i, e[i]);
	ck_assert_ptr_nonnull(
		strstr(seen[e[1]], "dev=tr0 dir=DMA_BIDIRECTIONAL nents=2"));
	ck_assert_ptr_nonnull(strstr(seen[e[3]], "nents=2 dma=0x"));
	ck_assert_ptr_nonnull(strstr(seen[e[4]], "dir=DMA_TO_DEVICE phys=0x"));
	ck_assert_ptr_nonnull(strstr(seen[e[4]], "len=64"));
	dma_free_attrs(dev, 4096, p, h, nc);
	kfree(b);
	kfree(a);
	fixture_finish(&m, &dd, 0);
}
END_TEST

START_TEST(test_groups)
{
	struct dmaemu_machine *m =
		fixture_machine("trace_events=device,report");
	struct dmaemu_device *dd = dmaemu_device_create(m, "tr0", NULL, NULL);
	struct device *dev = dmaemu_device_to_dev(dd);
	unsigned int i;
	char opt[64];
	int r;

	ck_assert_int_eq(
		dmaemu_machine_option(m, "trace_events", opt, sizeof(opt)), 0);
	ck_assert_str_eq(opt, "device,report");
	reset();
	dmaemu_trace_set_callback(m, record, NULL);
	/* NULL: the option's groups. */
	ck_assert_int_eq(dmaemu_trace_start(m, NULL), 0);
	round_trip(dev, dd);
	/* A refused device access is traced with its error, and its
	 * report is an event too. */
	ck_assert_int_eq(dmaemu_dma_write(dd, 0x10, "x", 1), -EFAULT);
	dmaemu_trace_stop(m);
	for (i = 0; i < nseen && i < MAXEV; i++)
		ck_assert_msg(!strncmp(seen[i], "device/", 7) ||
				      !strncmp(seen[i], "report/", 7),
			      "%s", seen[i]);
	ck_assert_int_ge(find(0, "device/dma_write"), 0);
	r = find(0, "report/report");
	ck_assert_int_ge(r, 0);
	ck_assert_ptr_nonnull(strstr(seen[r], "kind="));
	/* The access is traced when it returns, after its report. */
	ck_assert_int_eq(find((unsigned int)r, "device/dma_write"), r + 1);
	ck_assert_ptr_nonnull(strstr(seen[r + 1], "addr=0x10 len=1"));
	ck_assert_ptr_nonnull(strstr(seen[r + 1], "error=EFAULT"));
	/* A bad list is refused with a report; tracing stays off. */
	ck_assert_int_eq(dmaemu_trace_start(m, "dma,bogus"), -EINVAL);
	ck_assert_int_eq(dmaemu_trace_start(NULL, "all"), -EINVAL);
	fixture_finish(&m, &dd, 2);
}
END_TEST

START_TEST(test_text_file)
{
	char path[] = "/tmp/check-trace-XXXXXX", line[512];
	struct dmaemu_machine *m;
	struct dmaemu_device *dd;
	unsigned int lines = 0, maps = 0;
	FILE *f;
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	close(fd);
	m = fixture_machine("trace=%s:trace_events=dma,device", path);
	dd = dmaemu_device_create(m, "tr0", NULL, NULL);
	round_trip(dmaemu_device_to_dev(dd), dd);
	fixture_finish(&m, &dd, 0);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f)) {
		char thread[64], ctx[8], name[64];
		unsigned long s, us;

		/* "           drv-1 [cpu] 0.000123: dma_write: dev=..." */
		ck_assert_msg(sscanf(line, "%63s [%7[^]]] %lu.%6lu: %63[^:]: ",
				     thread, ctx, &s, &us, name) == 5,
			      "%s", line);
		ck_assert_msg(line[16] == ' ' && line[17] == '[', "%s", line);
		maps += !strcmp(name, "dma_map_single");
		lines++;
	}
	fclose(f);
	unlink(path);
	ck_assert_uint_eq(maps, 1);
	ck_assert_uint_eq(lines, 3); /* map, dma_write, unmap */
}
END_TEST

START_TEST(test_json_file)
{
	char path[] = "/tmp/check-trace-XXXXXX", line[1024];
	struct dmaemu_machine *m;
	struct dmaemu_device *dd;
	unsigned int meta = 0, inst = 0, own = 0, ctr = 0, n = 0;
	FILE *f;
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	close(fd);
	m = fixture_machine("trace=%s:trace_format=json:trace_events=dma",
			    path);
	dd = dmaemu_device_create(m, "tr0", NULL, NULL);
	round_trip(dmaemu_device_to_dev(dd), dd);
	fixture_finish(&m, &dd, 0);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(line, sizeof(line), f));
	ck_assert_str_eq(line, "[\n");
	while (fgets(line, sizeof(line), f) && strcmp(line, "]\n")) {
		size_t len = strlen(line);

		/* Records end with a comma but the last, then the bracket. */
		ck_assert_msg(
			line[0] == '{' && len > 3 &&
				(!strcmp(line + len - 3, "},\n") || n == 5),
			"%s", line);
		if (n == 5)
			ck_assert_msg(!strcmp(line + len - 2, "}\n"), "%s",
				      line);
		meta += !!strstr(line, "\"ph\":\"M\"");
		inst += !!strstr(line, "\"ph\":\"i\"");
		own += !!strstr(line, "\"cat\":\"ownership\"");
		ctr += !!strstr(line, "\"ph\":\"C\"");
		if (strstr(line, "\"name\":\"dma_map_single\""))
			ck_assert_ptr_nonnull(
				strstr(line, "\"cat\":\"dma\",\"ph\":\"i\","
					     "\"s\":\"t\",\"ts\":"));
		n++;
	}
	ck_assert_str_eq(line, "]\n");
	ck_assert_ptr_null(fgets(line, sizeof(line), f));
	fclose(f);
	unlink(path);
	ck_assert_uint_eq(meta, 1); /* drv-1's thread_name */
	ck_assert_uint_eq(inst, 2); /* map, unmap */
	ck_assert_uint_eq(own, 2);  /* the buffer's span: begin, end */
	ck_assert_uint_eq(ctr, 1);  /* dirty lines, once: it stays 0 */
	ck_assert_uint_eq(n, 6);
}
END_TEST

/*
 * The cache group: off by default (trace_events not given), on when
 * named; the fills of a buffer the CPU writes, the write-back of each of
 * its lines by the clean of an arm64 TO_DEVICE map and the clean's
 * counts; evictions of dirty lines with their write-backs.
 */
START_TEST(test_cache_events)
{
	struct dmaemu_machine *m =
		fixture_machine("profile=arm64:cache_size=4k:cache_ways=8");
	struct dmaemu_device *dd = dmaemu_device_create(m, "tr0", NULL, NULL);
	struct device *dev = dmaemu_device_to_dev(dd);
	char opt[64], *buf, *fresh, *big;
	dma_addr_t d;
	int c;

	ck_assert_int_eq(
		dmaemu_machine_option(m, "trace_events", opt, sizeof(opt)), 0);
	ck_assert_str_eq(opt, "default");
	buf = kmalloc(256, GFP_KERNEL);
	big = kmalloc(8192, GFP_KERNEL);
	ck_assert_ptr_nonnull(buf);
	ck_assert_ptr_nonnull(big);
	reset();
	dmaemu_trace_set_callback(m, record, NULL);
	ck_assert_int_eq(dmaemu_trace_start(m, NULL), 0);
	fixture_cpu_fill(buf, 0x5a, 256);
	d = dma_map_single(dev, buf, 256, DMA_TO_DEVICE);
	ck_assert(!dma_mapping_error(dev, d));
	dma_unmap_single(dev, d, 256, DMA_TO_DEVICE);
	dmaemu_trace_stop(m);
	ck_assert_int_lt(find(0, "cache/"), 0);
	ck_assert_int_ge(find(0, "dma/dma_map_single"), 0);

	/* Four fresh lines: four fills, four write-backs by the clean. */
	fresh = kmalloc(256, GFP_KERNEL);
	ck_assert_ptr_nonnull(fresh);
	ck_assert_int_eq(((uintptr_t)fresh) % 64, 0);
	reset();
	ck_assert_int_eq(dmaemu_trace_start(m, "cache,dma"), 0);
	fixture_cpu_fill(fresh, 0x33, 256);
	d = dma_map_single(dev, fresh, 256, DMA_TO_DEVICE);
	ck_assert(!dma_mapping_error(dev, d));
	dmaemu_trace_stop(m);
	ck_assert_uint_eq(count(0, "cache/cache_fill drv-", "from=mem"), 4);
	ck_assert_uint_eq(count(0, "cache/cache_writeback drv-",
				"dirty_bytes=64 cause=clean"),
			  4);
	c = find(0, "cache/cache_clean drv-");
	ck_assert_int_ge(c, 0);
	ck_assert_ptr_nonnull(
		strstr(seen[c], "len=256 lines=4 resident=4 written=4"));
	/* Before the map's own event, which follows its maintenance. */
	ck_assert_int_gt(find(0, "dma/dma_map_single"), c);
	dma_unmap_single(dev, d, 256, DMA_TO_DEVICE);

	/* 8 KiB written through a 4 KiB cache: its first 64 lines are
	 * evicted dirty, each written back (the clean lines that were
	 * there go without one). */
	reset();
	ck_assert_int_eq(dmaemu_trace_start(m, "cache"), 0);
	fixture_cpu_fill(big, 0x11, 8192);
	dmaemu_trace_stop(m);
	ck_assert_uint_eq(nevict, 64);
	ck_assert_uint_eq(nevict_wb, 64);
	ck_assert_int_eq(find(0, "cache/cache_fill drv-"), 0);
	ck_assert_uint_ge(count(0, "cache/cache_fill", "from=mem"), 56);
	kfree(buf);
	kfree(fresh);
	kfree(big);
	fixture_finish(&m, &dd, 0);
}
END_TEST

/* The ids of the spans a JSON trace opens and closes, matched. */
struct spans {
	unsigned long open[32];
	unsigned int nopen, begins, ends, closed, counters_dirty,
		counters_swiotlb;
};

static void span_line(struct spans *sp, const char *line)
{
	const char *id = strstr(line, "\"id\":\"");
	unsigned long v;
	unsigned int i;

	if (strstr(line, "\"ph\":\"C\"")) {
		sp->counters_dirty += !!strstr(line, "\"dirty lines\"");
		sp->counters_swiotlb += !!strstr(line, "\"swiotlb slots\"");
		return;
	}
	if (!strstr(line, "\"cat\":\"ownership\""))
		return;
	ck_assert_ptr_nonnull(id);
	v = strtoul(id + 6, NULL, 16);
	if (strstr(line, "\"ph\":\"b\"")) {
		for (i = 0; i < sp->nopen; i++)
			ck_assert_msg(sp->open[i] != v, "%s", line);
		ck_assert_uint_lt(sp->nopen, 32);
		sp->open[sp->nopen++] = v;
		sp->begins++;
		return;
	}
	ck_assert_ptr_nonnull(strstr(line, "\"ph\":\"e\""));
	for (i = 0; i < sp->nopen && sp->open[i] != v; i++)
		;
	ck_assert_msg(i < sp->nopen, "an end without its begin: %s", line);
	sp->open[i] = sp->open[--sp->nopen];
	sp->ends++;
	sp->closed += !!strstr(line, "\"closed\":");
}

/*
 * Ownership spans of the JSON form: device at map, cpu after a sync for
 * the CPU, device again after one for the device, ended at unmap; a
 * mapping live when tracing stops is closed then; one leaked by its
 * device ends at the device's release; every begin has its end.  The
 * counters of dirty lines and bounce slots.
 */
START_TEST(test_json_spans)
{
	char path[] = "/tmp/check-trace-XXXXXX", line[1024];
	struct dmaemu_machine *m;
	struct dmaemu_device *dd;
	struct device *dev;
	struct spans sp = {{0}, 0, 0, 0, 0, 0, 0};
	char *a, *b, *c;
	dma_addr_t da, db, dc;
	FILE *f;
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	close(fd);
	m = fixture_machine("trace=%s:trace_format=json:trace_events=dma:"
			    "profile=arm64:swiotlb=force",
			    path);
	dd = dmaemu_device_create(m, "tr0", NULL, NULL);
	dev = dmaemu_device_to_dev(dd);
	a = kmalloc(256, GFP_KERNEL);
	b = kmalloc(256, GFP_KERNEL);
	c = kmalloc(256, GFP_KERNEL);
	ck_assert(a && b && c);
	fixture_cpu_fill(a, 1, 256);
	da = dma_map_single(dev, a, 256, DMA_BIDIRECTIONAL);
	ck_assert(!dma_mapping_error(dev, da));
	dma_sync_single_for_cpu(dev, da, 256, DMA_BIDIRECTIONAL);
	dma_sync_single_for_cpu(dev, da, 256, DMA_BIDIRECTIONAL);
	dma_sync_single_for_device(dev, da, 256, DMA_BIDIRECTIONAL);
	db = dma_map_single(dev, b, 256, DMA_TO_DEVICE);
	ck_assert(!dma_mapping_error(dev, db));
	dma_unmap_single(dev, da, 256, DMA_BIDIRECTIONAL);
	dmaemu_trace_stop(m); /* closes b's span */
	dma_unmap_single(dev, db, 256, DMA_TO_DEVICE);
	ck_assert_int_eq(dmaemu_trace_start(m, NULL), 0);
	dc = dma_map_single(dev, c, 256, DMA_FROM_DEVICE);
	ck_assert(!dma_mapping_error(dev, dc));
	/* c stays mapped: its device's release reports and ends it. */
	fixture_finish(&m, &dd, 1);
	kfree(a);
	kfree(b);
	kfree(c);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f))
		span_line(&sp, line);
	fclose(f);
	unlink(path);
	ck_assert_uint_eq(sp.nopen, 0);
	/* a: device, cpu (the second sync changes nothing), device;
	 * b: device; c: device. */
	ck_assert_uint_eq(sp.begins, 5);
	ck_assert_uint_eq(sp.ends, 5);
	ck_assert_uint_eq(sp.closed, 1);
	ck_assert_uint_ge(sp.counters_dirty, 1);
	ck_assert_uint_ge(sp.counters_swiotlb, 2);
}
END_TEST

/*
 * trace_buffer=: a buffer too small for the run keeps the first events,
 * drops the rest and says how many, in the trace and on the log; the
 * events kept and dropped add up to those made.
 */
START_TEST(test_buffer_drops)
{
	char path[] = "/tmp/check-trace-XXXXXX", line[1024], want[128];
	struct dmaemu_machine *m;
	struct dmaemu_device *dd;
	unsigned long dropped = 0;
	unsigned int kept = 0, notes = 0, i, first_map = 0;
	const char *p;
	FILE *f;
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	close(fd);
	m = fixture_machine("trace=%s:trace_buffer=600", path);
	dd = dmaemu_device_create(m, "tr0", NULL, NULL);
	reset();
	dmaemu_trace_set_callback(m, record, NULL);
	for (i = 0; i < 5; i++)
		round_trip(dmaemu_device_to_dev(dd), dd);
	/* Nothing is written before the stop. */
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_null(fgets(line, sizeof(line), f));
	fclose(f);
	dmaemu_trace_stop(m);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f)) {
		p = strstr(line, ": trace_dropped: events=");
		if (p) {
			dropped = strtoul(p + 24, NULL, 10);
			notes++;
			ck_assert_ptr_nonnull(strstr(line, " buffer=600"));
			continue;
		}
		if (!kept)
			first_map = !!strstr(line, ": kmalloc: ");
		kept++;
	}
	fclose(f);
	unlink(path);
	ck_assert_uint_eq(notes, 1);
	ck_assert_uint_gt(dropped, 0);
	ck_assert_uint_gt(kept, 0);
	ck_assert_uint_eq(first_map, 1); /* the first events are kept */
	ck_assert_uint_eq(kept + dropped, nseen);
	snprintf(want, sizeof(want), " dropped %lu events (", dropped);
	ck_assert_msg(strstr(fixture_log(), want), "%s", fixture_log());
	ck_assert_ptr_nonnull(strstr(fixture_log(), "trace_buffer=600"));
	fixture_finish(&m, &dd, 0);
}
END_TEST

START_TEST(test_bad_options)
{
	ck_assert_ptr_null(dmaemu_machine_create("trace_format=xml"));
	ck_assert_ptr_null(dmaemu_machine_create("trace_events=dma,foo"));
	ck_assert_ptr_null(dmaemu_machine_create("trace_events="));
	ck_assert_ptr_null(dmaemu_machine_create("trace_buffer=2g"));
	ck_assert_ptr_null(
		dmaemu_machine_create("trace=/nonexistent-dir/x/trace"));
}
END_TEST

static Suite *trace_suite(void)
{
	Suite *s = suite_create("trace");
	TCase *tc = tcase_create("trace");

	tcase_add_checked_fixture(tc, NULL, fixture_teardown);
	tcase_add_loop_test(tc, test_callback_events, 0, 2);
	tcase_add_test(tc, test_sg_and_cache_sync_events);
	tcase_add_test(tc, test_groups);
	tcase_add_test(tc, test_text_file);
	tcase_add_test(tc, test_json_file);
	tcase_add_test(tc, test_cache_events);
	tcase_add_test(tc, test_json_spans);
	tcase_add_test(tc, test_buffer_drops);
	tcase_add_test(tc, test_bad_options);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(trace_suite());
}
