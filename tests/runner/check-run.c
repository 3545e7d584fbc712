// SPDX-License-Identifier: MIT
/*
 * check-run.c - shared Check runner: TAP on stdout, no fork under Valgrind.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "check-run.h"

#ifdef HAVE_VALGRIND_VALGRIND_H
#include <valgrind/valgrind.h>
#else
#define RUNNING_ON_VALGRIND 0
#endif

int check_run(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_set_tap(sr, "-");
	if (RUNNING_ON_VALGRIND && !getenv("CK_FORK"))
		srunner_set_fork_status(sr, CK_NOFORK);
	srunner_run_all(sr, CK_SILENT);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#ifdef DMAEMU_SANITIZER
#define SKIP_WHY                                                           \
	"instrumented driver code cannot be built in this"                 \
	" --enable-sanitizer=" DMAEMU_SANITIZER " build (the compilers do" \
	" not combine the instrumentation of driver code with "            \
	"-fsanitize=" DMAEMU_SANITIZER ")"
#else
#define SKIP_WHY "built without the instrumentation flags"
#endif

int check_skip_instrumented(Suite *s)
{
	/* Check has no call that frees a suite; a runner frees its own. */
	srunner_free(srunner_create(s));
	printf("1..0 # SKIP %s\n", SKIP_WHY);
	return EXIT_SUCCESS;
}
