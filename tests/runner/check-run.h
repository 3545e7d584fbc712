/* SPDX-License-Identifier: MIT */
/*
 * check-run.h - the one runner every Check suite of dmaemu uses.
 */
#ifndef DMAEMU_TESTS_CHECK_RUN_H
#define DMAEMU_TESTS_CHECK_RUN_H

#include <check.h>

/**
 * check_run() - run @s and print TAP on standard output.
 * @s: the suite (owned by the runner afterwards).
 *
 * Each test function becomes one TAP line, so the automake harness shows
 * one PASS/FAIL line per test.  Under Valgrind the tests run in the main
 * process (CK_FORK=no), so Memcheck attributes leaks to the test that made
 * them; CK_FORK in the environment still wins.
 *
 * Return: the process exit status (0 when every test passed).
 */
int check_run(Suite *s);

/**
 * check_skip_instrumented() - report @s skipped as a whole.
 * @s: the suite (freed).
 *
 * For the suites of instrumented driver code in a sanitizer build
 * (--enable-sanitizer): the compilers cannot combine the instrumentation
 * of driver code with ASan or TSan, so such a suite is built
 * uninstrumented (with DMAEMU_INSTRUMENT_SKIPPED) and check_run() stands
 * for this function: it prints the TAP plan "1..0 # SKIP" with the reason.
 *
 * Return: EXIT_SUCCESS (a skipped TAP program exits 0).
 */
int check_skip_instrumented(Suite *s);

#ifdef DMAEMU_INSTRUMENT_SKIPPED
#define check_run(s) check_skip_instrumented(s)
#endif

#endif
