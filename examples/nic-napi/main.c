// SPDX-License-Identifier: MIT
/*
 * main.c - the network card's NAPI driver at work under the test's side
 * of the stack (<dmaemu/net.h>): a machine with one card, the driver
 * probing it and registering eth0, loopback on (as "ethtool -K eth0
 * loopback on"), the device brought up, 600 Ethernet frames of 60 to
 * 1514 bytes sent through ndo_start_xmit in batches (skb->xmit_more) and
 * received back through the NAPI poll, compared byte for byte, then the
 * device brought down and removed.  Prints what it checked and how many
 * reports the machine made; exits 0 only when the data is right and
 * there were none.
 *
 *   usage: nic-napi [arm|arm64|x86]      (default arm64; more machine
 *                                         options in DMAEMU_OPTIONS)
 *
 * Build it as any program outside the dmaemu tree would:
 *   dmaemu-cc -o nic-napi main.c nic-napi-driver.c -ldmaemu-devices
 */
#include <stdio.h>
#include <string.h>

#include <dmaemu/device.h>
#include <dmaemu/devices/nic.h>
#include <dmaemu/machine.h>
#include <dmaemu/net.h>
#include <dmaemu/report.h>
#include <linux/etherdevice.h>
#include <linux/netdevice.h>

#include "nic-napi-driver.h"

#define FRAMES 600
#define BATCH 48 /* in flight at once: fewer than the 127 RX buffers */
#define ETH_P_LOCAL 0x88b5 /* IEEE 802 local experimental EtherType */

static int failures;

static void check(int ok, const char *what)
{
	printf("%s: %s\n", ok ? "ok" : "FAILED", what);
	failures += !ok;
}

/* Frame @n to @dst: its length (60 .. 1514, small and large) and bytes. */
static size_t make_frame(unsigned int n, const u8 *dst, unsigned char *f)
{
	size_t len = 60 + (n * 677u) % 1455, i;

	memcpy(f, dst, ETH_ALEN);
	memcpy(f + ETH_ALEN, "\x02\x00\x5e\x10\x00\x01", ETH_ALEN);
	f[12] = ETH_P_LOCAL >> 8;
	f[13] = ETH_P_LOCAL & 0xff;
	for (i = ETH_HLEN; i < len; i++)
		f[i] = (unsigned char)(n * 31 + i * 7 + (i >> 8));
	return len;
}

static int loopback(struct net_device *ndev)
{
	static unsigned char want[1514], got[2048];
	unsigned int sent = 0, recvd = 0, n, small = 0;
	struct dmaemu_net_rxinfo info;
	size_t len;
	int ret;

	while (recvd < FRAMES) {
		for (n = 0; n < BATCH && sent < FRAMES; n++, sent++) {
			len = make_frame(sent, ndev->dev_addr, want);
			ret = dmaemu_net_xmit(
				ndev, want, len,
				n + 1 < BATCH && sent + 1 < FRAMES, 10 * HZ);
			if (ret) {
				printf("frame %u: xmit %d\n", sent, ret);
				return 0;
			}
		}
		for (; recvd < sent; recvd++) {
			len = make_frame(recvd, ndev->dev_addr, want);
			ret = dmaemu_net_recv(ndev, got, sizeof(got), 10 * HZ,
					      &info);
			if (ret != (int)len || memcmp(got, want, len) ||
			    info.protocol != ETH_P_LOCAL ||
			    info.pkt_type != PACKET_HOST || !info.softirq) {
				printf("frame %u: %d bytes, want %zu\n", recvd,
				       ret, len);
				return 0;
			}
			small += len <= 256;
		}
	}
	return small > 0 && small < FRAMES;
}

int main(int argc, char **argv)
{
	const char *profile = argc > 1 ? argv[1] : "arm64";
	struct dmaemu_net_stats st;
	struct net_device *ndev;
	struct dmaemu_machine *m;
	struct dmaemu_device *card;
	uint64_t reports;
	char opts[64];
	int ret;

	snprintf(opts, sizeof(opts), "profile=%s", profile);
	m = dmaemu_machine_create(opts);
	if (!m) {
		perror("nic-napi: dmaemu_machine_create()");
		return 2;
	}
	ret = platform_driver_register(&nic_napi_driver);
	if (ret) {
		fprintf(stderr, "nic-napi: platform_driver_register(): %s\n",
			strerror(-ret));
		return 2;
	}
	card = dmaemu_nic_create(m, "nic0"); /* probed here */
	ndev = dmaemu_net_find("eth0");
	check(card && ndev, "the driver probed the card and registered eth0");
	if (!ndev)
		return 1;
	check(is_valid_ether_addr(ndev->dev_addr), "eth0 has a valid address");

	/* ethtool -K eth0 loopback on */
	ndev->netdev_ops->ndo_set_features(ndev,
					   ndev->features | NETIF_F_LOOPBACK);
	check(dmaemu_net_open(ndev) == 0, "eth0 is up (ndo_open)");
	check(loopback(ndev),
	      "600 frames of 60 to 1514 bytes out and back (copied and "
	      "passed up)");
	dmaemu_net_stats(ndev, &st);
	check(st.tx_frames == FRAMES && st.rx_frames == FRAMES &&
		      !st.tx_dropped && !st.tx_timeouts && st.napi_polls > 0,
	      "the stack's counters: every frame each way, NAPI polls, no "
	      "drop, no TX timeout");
	check(ndev->stats.tx_packets == FRAMES &&
		      ndev->stats.rx_packets == FRAMES &&
		      !ndev->stats.tx_errors && !ndev->stats.rx_errors &&
		      !ndev->stats.rx_dropped,
	      "the driver's counters agree, no errors");
	check(dmaemu_net_close(ndev) == 0, "eth0 is down (ndo_stop)");

	dmaemu_device_destroy(card); /* remove(): unregister, free */
	platform_driver_unregister(&nic_napi_driver);
	reports = dmaemu_report_count(m, NULL);
	printf("profile %s: %llu reports\n", profile,
	       (unsigned long long)reports);
	dmaemu_machine_destroy(m);
	return failures || reports ? 1 : 0;
}
