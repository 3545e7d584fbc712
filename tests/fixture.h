/* SPDX-License-Identifier: MIT */
/*
 * fixture.h - what the Check suites of the library share: machines whose
 * reports go to a log the test can read.
 */
#ifndef DMAEMU_TESTS_FIXTURE_H
#define DMAEMU_TESTS_FIXTURE_H

struct dmaemu_machine;

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

#endif
