/* SPDX-License-Identifier: MIT */
/*
 * bench-nic.h - the network card's reference driver moving frames through
 * the card's loopback, for the benches that time it (bench-devices,
 * bench-ordering).  Include it once, after bench.h, in a program built
 * with examples/nic/nic-driver.c.
 */
#ifndef DMAEMU_BENCH_NIC_H
#define DMAEMU_BENCH_NIC_H

#include <stdint.h>
#include <string.h>

#include <dmaemu/device.h>
#include <dmaemu/devices/nic.h>
#include <dmaemu/machine.h>
#include <dmaemu/report.h>
#include <linux/jiffies.h>

#include "nic-driver.h"

#define BENCH_NIC_LEN 64      /* bytes a frame */
#define BENCH_NIC_INFLIGHT 48 /* fewer than the card's 63 RX buffers */
#define BENCH_NIC_BATCH 16    /* frames a doorbell */

/*
 * bench_nic_pps() - frames per second of @frames 64-byte frames sent and
 * received through the loopback of a card on a machine made with @opts,
 * with TX and RX interrupt coalescing @coal; each frame's contents are
 * checked.  The frames go out BENCH_NIC_BATCH at a time, one doorbell
 * each batch (nicdrv_xmit_more()), and the oldest come back while the
 * card works on the newest, BENCH_NIC_INFLIGHT at most in flight.  The machine's report count is added to *@reports.
 * Return: the rate, or -1 on an error or a wrong frame.
 */
static double bench_nic_pps(const char *opts, unsigned int coal,
			    unsigned int frames, uint64_t *reports)
{
	struct dmaemu_machine *m = dmaemu_machine_create(opts);
	unsigned char want[BENCH_NIC_LEN], got[2048];
	unsigned int sent = 0, recvd = 0, n;
	struct dmaemu_device *card;
	struct nicdrv *nd;
	double t0, pps = -1;

	if (!m)
		return -1;
	if (platform_driver_register(&nicdrv_driver))
		goto out_m;
	card = dmaemu_nic_create(m, "nic0");
	nd = card ? dev_get_drvdata(dmaemu_device_to_dev(card)) : NULL;
	if (!nd)
		goto out;
	nicdrv_set_loopback(nd, true);
	nicdrv_set_coalesce(nd, coal, coal);
	t0 = bench_now_ns();
	while (recvd < frames) {
		/* A batch of frames, one doorbell... */
		for (n = 0; n < BENCH_NIC_BATCH && sent < frames; n++, sent++) {
			memset(want, (int)sent, sizeof(want));
			if (nicdrv_xmit_more(nd, want, sizeof(want),
					     n + 1 < BENCH_NIC_BATCH &&
						     sent + 1 < frames))
				goto out;
		}
		/* ...while the card works on it, the oldest come back. */
		for (; recvd < sent &&
		       (sent == frames ||
			sent - recvd > BENCH_NIC_INFLIGHT - BENCH_NIC_BATCH);
		     recvd++)
			if (nicdrv_recv(nd, got, sizeof(got), 10 * HZ) !=
				    BENCH_NIC_LEN ||
			    got[0] != (unsigned char)recvd ||
			    got[BENCH_NIC_LEN - 1] != (unsigned char)recvd)
				goto out;
	}
	pps = frames / ((bench_now_ns() - t0) * 1e-9);
out:
	if (card)
		dmaemu_device_destroy(card);
	platform_driver_unregister(&nicdrv_driver);
out_m:
	*reports += dmaemu_report_count(m, NULL);
	dmaemu_machine_destroy(m);
	return pps;
}

#endif
