/* SPDX-License-Identifier: MIT */
/*
 * fixture.h - what the Check suites of the library share: machines whose
 * reports go to a log the test can read, and the CPU's and a device's view
 * of a run of bytes.
 */
#ifndef DMAEMU_TESTS_FIXTURE_H
#define DMAEMU_TESTS_FIXTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct dmaemu_machine;
struct dmaemu_device;

/**
 * fixture_machine() - make a machine for a test, or fail the test.
 * @fmt: its options, printf-style ("profile=%s:mem=16M"); the fixture adds
 *       log_path.  DMAEMU_OPTIONS is cleared first, so the environment
 *       cannot change a test.
 *
 * Every machine made before fixture_teardown() reports into one log: a
 * temporary file, unlinked at once (nothing is left behind when a test
 * fails), which the machines open through /proc/self/fd.
 *
 * Return: the machine (the test destroys it).
 */
struct dmaemu_machine *fixture_machine(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/**
 * fixture_log() - everything reported to the log so far.
 *
 * Return: the text, in a static buffer (64 KiB; a longer log is cut).
 */
const char *fixture_log(void);

/** fixture_log_clear() - empty the log; later reports start it again. */
void fixture_log_clear(void);

/**
 * fixture_teardown() - close the log (the next fixture_machine() opens a
 * new one).  The machines are the test's to destroy.
 */
void fixture_teardown(void);

/**
 * fixture_finish() - the end of a test that counts its reports.
 * @m:        the test's machine (may point to NULL: nothing to check).
 * @dd:       its device, or NULL; destroyed first, so that the reports of
 *            what the device left behind count.
 * @expected: the reports the test made on purpose.
 *
 * Closes the log, destroys *@dd and *@m (setting them to NULL), and fails
 * the test unless the machine made exactly @expected reports in all.
 */
void fixture_finish(struct dmaemu_machine **m, struct dmaemu_device **dd,
		    uint64_t expected);

/**
 * fixture_peek() - copy @len bytes from @src to @dst as they are.
 *
 * For a test that looks at a copy of the model on purpose while it holds
 * stale bytes: under Memcheck those bytes of the CPU copy are undefined
 * (docs/valgrind.md), so reading them directly would be an error.  The
 * copy in @dst is defined; @src keeps its V bits.  A plain memcpy() when
 * not under Memcheck.
 */
void fixture_peek(void *dst, const void *src, size_t len);

/** fixture_all() - are all @len bytes at @p equal to (uint8_t)@c? */
bool fixture_all(const void *p, int c, size_t len);

/**
 * fixture_cpu_fill() - the CPU stores @c in [@dst, +@len), through the
 * model (dmaemu_cpu_write(): the same in instrumented and plain code).
 */
void fixture_cpu_fill(void *dst, int c, size_t len);

/** fixture_cpu_sees() - do the CPU's loads of [@src, +@len), through the
 * model, all give @c? */
bool fixture_cpu_sees(const void *src, int c, size_t len);

/** fixture_dev_fill() - device @d writes @c to bus addresses
 * [@addr, +@len); the write must succeed. */
void fixture_dev_fill(struct dmaemu_device *d, uint64_t addr, int c,
		      size_t len);

/** fixture_dev_sees() - does device @d read @c at all of bus addresses
 * [@addr, +@len)?  The read must succeed. */
bool fixture_dev_sees(struct dmaemu_device *d, uint64_t addr, int c,
		      size_t len);

/** fixture_mapping_count() - live streaming mappings of device @d (the
 * call must succeed). */
size_t fixture_mapping_count(struct dmaemu_device *d);

/** fixture_cpu_dirty() - has the line of @m holding @phys CPU-dirty
 * bytes? */
bool fixture_cpu_dirty(struct dmaemu_machine *m, uint64_t phys);

/** fixture_resident() - is the line of @m holding @phys resident in the
 * CPU cache model (any level)? */
bool fixture_resident(struct dmaemu_machine *m, uint64_t phys);

/** fixture_profile() - the profile of @m (enum dmaemu_profile). */
int fixture_profile(struct dmaemu_machine *m);

/** fixture_region() - the region of host address @p (enum dmaemu_region,
 * DMAEMU_REGION_NONE when not emulated); its physical address in *@phys
 * when @phys is not NULL. */
int fixture_region(const void *p, uint64_t *phys);

#endif
