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

#endif
