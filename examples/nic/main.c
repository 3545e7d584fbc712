// SPDX-License-Identifier: MIT
/*
 * main.c - the network card's reference driver at work: a machine with
 * one card, the driver probing it, frames of varied sizes sent through the
 * loopback wire and compared byte for byte as they come back, and
 * teardown.  Prints what it checked and how many reports the machine
 * made; exits 0 only when the data is right and there were none.
 *
 *   usage: nic [arm|arm64|x86]      (default arm64)
 *
 * Build it as any program outside the dmaemu tree would:
 *   dmaemu-cc -o nic main.c nic-driver.c -ldmaemu-devices
 */
#include <stdio.h>
#include <string.h>

#include <dmaemu/devices/nic.h>
#include <dmaemu/device.h>
#include <dmaemu/machine.h>
#include <dmaemu/report.h>
#include <linux/jiffies.h>

#include "nic-driver.h"

#define FRAMES 300
#define BATCH 40 /* in flight at once: fewer than the 63 RX buffers */

static int failures;

static void check(int ok, const char *what)
{
	printf("%s: %s\n", ok ? "ok" : "FAILED", what);
	failures += !ok;
}

/* Frame @n: its length (1 .. 2048, varied) and contents. */
static size_t make_frame(unsigned int n, unsigned char *f)
{
	size_t len = 1 + (n * 677u) % 2048, i;

	for (i = 0; i < len; i++)
		f[i] = (unsigned char)(n * 31 + i * 7 + (i >> 8));
	return len;
}

static int loopback(struct nicdrv *nd)
{
	static unsigned char want[2048], got[2048];
	unsigned int sent = 0, recvd = 0, n;
	int len;

	while (recvd < FRAMES) {
		for (n = 0; n < BATCH && sent < FRAMES; n++, sent++)
			if (nicdrv_xmit(nd, want, make_frame(sent, want)))
				return 0;
		for (; recvd < sent; recvd++) {
			size_t l = make_frame(recvd, want);

			len = nicdrv_recv(nd, got, sizeof(got), 10 * HZ);
			if (len != (int)l || memcmp(got, want, l)) {
				printf("frame %u: %d bytes, want %zu\n", recvd,
				       len, l);
				return 0;
			}
		}
	}
	return 1;
}

int main(int argc, char **argv)
{
	const char *profile = argc > 1 ? argv[1] : "arm64";
	struct nicdrv_stats st;
	struct dmaemu_machine *m;
	struct dmaemu_device *card;
	struct nicdrv *nd;
	uint64_t reports;
	char opts[64];
	int ret;

	snprintf(opts, sizeof(opts), "profile=%s", profile);
	m = dmaemu_machine_create(opts);
	if (!m) {
		perror("nic: dmaemu_machine_create()");
		return 2;
	}
	ret = platform_driver_register(&nicdrv_driver);
	if (ret) {
		fprintf(stderr, "nic: platform_driver_register(): %s\n",
			strerror(-ret));
		return 2;
	}
	card = dmaemu_nic_create(m, "eth0"); /* probed here */
	nd = nicdrv_first();
	check(card && nd, "the driver probed the card");
	if (!nd)
		return 1;

	nicdrv_set_loopback(nd, true);
	check(loopback(nd), "300 frames of 1 to 2048 bytes through loopback");
	nicdrv_get_stats(nd, &st);
	check(st.tx_done > 0 && st.irqs > 0 && !st.tx_errors && !st.rx_errors,
	      "TX cleaned by the interrupt handler, no errors");

	dmaemu_device_destroy(card); /* remove() runs */
	platform_driver_unregister(&nicdrv_driver);
	reports = dmaemu_report_count(m, NULL);
	printf("profile %s: %llu reports\n", profile,
	       (unsigned long long)reports);
	dmaemu_machine_destroy(m);
	return failures || reports ? 1 : 0;
}
