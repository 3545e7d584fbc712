// SPDX-License-Identifier: MIT
/*
 * main.c - a machine, the inverter, its driver: one job, checked.
 *
 *   usage: first-device [arm|arm64|x86]
 *
 *   dmaemu-cc --dmaemu-uninstrumented -c inverter.c
 *   dmaemu-cc -o first-device main.c driver.c inverter.o
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <dmaemu/machine.h>
#include <dmaemu/report.h>
#include <linux/slab.h>

#include "driver.h"
#include "inverter.h"

int main(int argc, char **argv)
{
	char opts[64];
	struct dmaemu_machine *m;
	struct dmaemu_device *dev;
	unsigned char *src, *dst;
	int i, ret, wrong = 0;
	unsigned long long reports;

	snprintf(opts, sizeof(opts), "profile=%s",
		 argc > 1 ? argv[1] : "arm64");
	m = dmaemu_machine_create(opts);
	if (!m) {
		perror("first-device: dmaemu_machine_create()");
		return 2;
	}
	ret = platform_driver_register(&inv_driver);
	if (ret) {
		fprintf(stderr,
			"first-device: platform_driver_register(): %s\n",
			strerror(-ret));
		return 2;
	}
	dev = inverter_create(m, "inv0"); /* inv_probe() runs here */
	if (!dev) {
		perror("first-device: inverter_create()");
		return 2;
	}
	src = kmalloc(INV_MAX_LEN, GFP_KERNEL);
	dst = kmalloc(INV_MAX_LEN, GFP_KERNEL);
	if (!src || !dst) {
		fprintf(stderr, "first-device: kmalloc(): %s\n",
			strerror(ENOMEM));
		return 2;
	}
	for (i = 0; i < INV_MAX_LEN; i++)
		src[i] = (unsigned char)i;

	ret = inv_invert(src, dst, INV_MAX_LEN);
	if (ret)
		fprintf(stderr, "first-device: inv_invert(): %s\n",
			strerror(-ret));
	for (i = 0; i < INV_MAX_LEN; i++)
		wrong += dst[i] != (unsigned char)~i;

	kfree(dst);
	kfree(src);
	dmaemu_device_destroy(dev); /* inv_remove() runs here */
	platform_driver_unregister(&inv_driver);
	reports = dmaemu_report_count(m, NULL);
	dmaemu_machine_destroy(m);
	printf("inverted: %d, wrong bytes: %d, reports: %llu\n", ret, wrong,
	       reports);
	return ret || wrong || reports;
}
