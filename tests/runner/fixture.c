// SPDX-License-Identifier: MIT
/*
 * fixture.c - machines for the Check suites, reporting into a log the test
 * reads back, and the CPU's and a device's view of bytes.
 *
 * The log is a temporary file unlinked as soon as it is made, so a test
 * that fails (its process exits in the middle) leaves nothing in /tmp.  A
 * machine needs a path to open, so it is given /proc/self/fd/N, the file's
 * descriptor here: each machine opens the file again, in append mode, and
 * this file keeps its own descriptor for reading from the start.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef HAVE_VALGRIND_MEMCHECK_H
#include <valgrind/memcheck.h>
#endif

#include <dmaemu/cpu.h>
#include <dmaemu/device.h>
#include <dmaemu/machine.h>
#include <dmaemu/report.h>
#include <dmaemu/testing.h>

#include "check-run.h"
#include "fixture.h"

static FILE *log_in; /* the log, open for reading; NULL before the first */

static void log_open(void)
{
	char path[] = "/tmp/dmaemu-check-XXXXXX";
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	unlink(path);
	log_in = fdopen(fd, "r");
	ck_assert_ptr_nonnull(log_in);
}

struct dmaemu_machine *fixture_machine(const char *fmt, ...)
{
	struct dmaemu_machine *m;
	char opts[1024];
	va_list ap;
	int n;

	if (!log_in)
		log_open();
	va_start(ap, fmt);
	n = vsnprintf(opts, sizeof(opts), fmt, ap);
	va_end(ap);
	ck_assert_int_ge(n, 0);
	ck_assert_int_lt(n, sizeof(opts) - 64);
	snprintf(opts + n, sizeof(opts) - (size_t)n,
		 ":log_path=/proc/self/fd/%d", fileno(log_in));
	unsetenv("DMAEMU_OPTIONS");
	m = dmaemu_machine_create(opts);
	ck_assert_msg(m, "dmaemu_machine_create(\"%s\") failed", opts);
	return m;
}

const char *fixture_log(void)
{
	static char buf[1 << 16];
	size_t n;

	ck_assert_ptr_nonnull(log_in);
	rewind(log_in);
	n = fread(buf, 1, sizeof(buf) - 1, log_in);
	buf[n] = '\0';
	return buf;
}

void fixture_log_clear(void)
{
	ck_assert_ptr_nonnull(log_in);
	ck_assert_int_eq(ftruncate(fileno(log_in), 0), 0);
}

void fixture_teardown(void)
{
	if (log_in)
		fclose(log_in);
	log_in = NULL;
}

/*
 * The SUMMARY line of report @r names a driver's line ("file:line in fn",
 * or the dladdr() form "fn+0x2c (prog)"), nothing, or the address its
 * headline names first ("0x80001000+64").
 */
static void summary_check(const struct dmaemu_report *r)
{
	const char *sum = strstr(r->text, "\nSUMMARY: dmaemu: ");
	const char *tail, *eol, *h;
	char addr[32], first[32];
	size_t n;

	if (!sum)
		return; /* cut (DMAEMU_REPORT_TEXT_MAX) */
	tail = sum + strlen("\nSUMMARY: dmaemu: ") + strlen(r->kind_name);
	eol = strchr(tail, '\n');
	n = eol ? (size_t)(eol - tail) : strlen(tail);
	if (!n || memmem(tail, n, " in ", 4) || memmem(tail, n, "+0x", 3))
		return;
	ck_assert_msg(n < sizeof(addr) && sscanf(tail, " %31[0-9a-fx]+", addr),
		      "report %s: SUMMARY names neither a line nor an "
		      "address:\n%s",
		      r->kind_name, r->text);
	h = strstr(r->text, "0x");
	ck_assert_msg(h && h < strchr(r->text, '\n') &&
			      sscanf(h, "%31[0-9a-fx]", first) == 1 &&
			      !strcmp(first, addr),
		      "report %s: the SUMMARY address %s is not the first "
		      "address of the headline:\n%s",
		      r->kind_name, addr, r->text);
}

void fixture_finish(struct dmaemu_machine **m, struct dmaemu_device **dd,
		    uint64_t expected)
{
	struct dmaemu_report r;
	uint64_t n, seq = 0;

	fixture_teardown();
	if (dd && *dd)
		dmaemu_device_destroy(*dd);
	if (dd)
		*dd = NULL;
	if (!*m)
		return;
	while (!dmaemu_report_next(*m, seq, &r)) {
		seq = r.seq;
		summary_check(&r);
	}
	n = dmaemu_report_count(*m, NULL);
	dmaemu_machine_destroy(*m);
	*m = NULL;
	ck_assert_uint_eq(n, expected);
}

/*
 * Byte by byte through volatile: never a memcpy() call, which the
 * instrumented suites' --wrap would route through the model.
 */
static void copy_bytes(void *dst, const void *src, size_t len)
{
	const volatile unsigned char *s = src;
	unsigned char *d = dst;
	size_t i;

	for (i = 0; i < len; i++)
		d[i] = s[i];
}

void fixture_peek(void *dst, const void *src, size_t len)
{
#ifdef HAVE_VALGRIND_MEMCHECK_H
	unsigned char vbits[4096];
	size_t n;

	while (len) {
		n = len < sizeof(vbits) ? len : sizeof(vbits);
		/* 1: Memcheck saved them; the source is made defined. */
		if (VALGRIND_GET_VBITS(src, vbits, n) == 1) {
			VALGRIND_MAKE_MEM_DEFINED(src, n);
			copy_bytes(dst, src, n);
			(void)VALGRIND_SET_VBITS(src, vbits, n);
		} else {
			copy_bytes(dst, src, n);
		}
		dst = (char *)dst + n;
		src = (const char *)src + n;
		len -= n;
	}
#else
	copy_bytes(dst, src, len);
#endif
}

bool fixture_all(const void *p, int c, size_t len)
{
	const uint8_t *b = p;
	size_t i;

	for (i = 0; i < len; i++)
		if (b[i] != (uint8_t)c)
			return false;
	return true;
}

/* A host buffer of @len bytes (never NULL: the test fails instead). */
static uint8_t *buffer(size_t len)
{
	uint8_t *b = malloc(len ? len : 1);

	ck_assert_ptr_nonnull(b);
	return b;
}

void fixture_cpu_fill(void *dst, int c, size_t len)
{
	uint8_t *src = buffer(len);

	memset(src, c, len);
	ck_assert_int_eq(dmaemu_cpu_write(dst, src, len), 0);
	free(src);
}

bool fixture_cpu_sees(const void *src, int c, size_t len)
{
	uint8_t *got = buffer(len);
	bool ok;

	ck_assert_int_eq(dmaemu_cpu_read(got, src, len), 0);
	ok = fixture_all(got, c, len);
	free(got);
	return ok;
}

void fixture_dev_fill(struct dmaemu_device *d, uint64_t addr, int c, size_t len)
{
	uint8_t *src = buffer(len);

	memset(src, c, len);
	ck_assert_int_eq(dmaemu_dma_write(d, addr, src, len), 0);
	free(src);
}

bool fixture_dev_sees(struct dmaemu_device *d, uint64_t addr, int c, size_t len)
{
	uint8_t *got = buffer(len);
	bool ok;

	ck_assert_int_eq(dmaemu_dma_read(d, addr, got, len), 0);
	ok = fixture_all(got, c, len);
	free(got);
	return ok;
}

bool fixture_cpu_dirty(struct dmaemu_machine *m, uint64_t phys)
{
	struct dmaemu_line_state st;

	ck_assert_int_eq(dmaemu_line_state(m, phys, &st), 0);
	return dmaemu_line_mask_weight(st.cpu_dirty) != 0;
}

size_t fixture_mapping_count(struct dmaemu_device *d)
{
	int n = dmaemu_device_mappings(d, NULL, 0);

	ck_assert_int_ge(n, 0);
	return (size_t)n;
}

bool fixture_resident(struct dmaemu_machine *m, uint64_t phys)
{
	struct dmaemu_line_state st;

	ck_assert_int_eq(dmaemu_line_state(m, phys, &st), 0);
	return st.resident;
}

int fixture_profile(struct dmaemu_machine *m)
{
	struct dmaemu_machine_info info;

	ck_assert_int_eq(dmaemu_machine_info(m, &info), 0);
	return info.profile;
}

int fixture_region(const void *p, uint64_t *phys)
{
	struct dmaemu_addr_info ai;

	ck_assert_int_eq(dmaemu_addr_info(p, &ai), 0);
	if (phys && ai.region != DMAEMU_REGION_NONE)
		*phys = ai.phys;
	return ai.region;
}
