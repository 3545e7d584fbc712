// SPDX-License-Identifier: MIT
/*
 * option-values.c - the value each option named on the command line has
 * on a machine made with "profile=PROFILE" alone, one KEY=VALUE line each
 * (dmaemu_machine_option()).  tests/scripts/man-drift.sh compares them with
 * the defaults dmaemu(7) states; run it with DMAEMU_OPTIONS unset.
 *
 * Usage: option-values PROFILE KEY...
 * Exit status: 0; 1 when the machine cannot be made or a key is unknown
 * (a message on stderr).
 */
#include <stdio.h>

#include <dmaemu/machine.h>

int main(int argc, char **argv)
{
	struct dmaemu_machine *m;
	char opts[64];
	char val[512];
	int i, status = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: option-values PROFILE KEY...\n");
		return 1;
	}
	snprintf(opts, sizeof(opts), "profile=%s", argv[1]);
	m = dmaemu_machine_create(opts);
	if (!m)
		return 1; /* the library said why */
	for (i = 2; i < argc; i++) {
		if (dmaemu_machine_option(m, argv[i], val, sizeof(val)) < 0) {
			fprintf(stderr, "option-values: unknown option '%s'\n",
				argv[i]);
			status = 1;
			continue;
		}
		printf("%s=%s\n", argv[i], val);
	}
	dmaemu_machine_destroy(m);
	return status;
}
