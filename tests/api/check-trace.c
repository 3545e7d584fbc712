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
#include <linux/slab.h>

#include "check-run.h"
#include "fixture.h"

#define MAXEV 64

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char seen[MAXEV][320];
static unsigned int nseen;

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
	pthread_mutex_unlock(&lock);
}

static void reset(void)
{
	pthread_mutex_lock(&lock);
	nseen = 0;
	pthread_mutex_unlock(&lock);
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
	unsigned int meta = 0, inst = 0, n = 0;
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
	while (fgets(line, sizeof(line), f)) {
		size_t len = strlen(line);

		ck_assert_msg(line[0] == '{' && len > 3 &&
				      !strcmp(line + len - 3, "},\n"),
			      "%s", line);
		meta += !!strstr(line, "\"ph\":\"M\"");
		inst += !!strstr(line, "\"ph\":\"i\"");
		if (strstr(line, "\"name\":\"dma_map_single\""))
			ck_assert_ptr_nonnull(
				strstr(line, "\"cat\":\"dma\",\"ph\":\"i\","
					     "\"s\":\"t\",\"ts\":"));
		n++;
	}
	fclose(f);
	unlink(path);
	ck_assert_uint_eq(meta, 1); /* drv-1's thread_name */
	ck_assert_uint_eq(inst, 2); /* map, unmap */
	ck_assert_uint_eq(n, 3);
}
END_TEST

START_TEST(test_bad_options)
{
	ck_assert_ptr_null(dmaemu_machine_create("trace_format=xml"));
	ck_assert_ptr_null(dmaemu_machine_create("trace_events=dma,foo"));
	ck_assert_ptr_null(dmaemu_machine_create("trace_events="));
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
	tcase_add_test(tc, test_groups);
	tcase_add_test(tc, test_text_file);
	tcase_add_test(tc, test_json_file);
	tcase_add_test(tc, test_bad_options);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(trace_suite());
}
