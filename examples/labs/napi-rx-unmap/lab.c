// SPDX-License-Identifier: MIT
/*
 * napi-rx-unmap - a received frame passed up the stack before its
 * buffer is unmapped (README.md).
 *
 * The network card's NAPI driver (driver.c) runs under the test's side
 * of the stack (<dmaemu/net.h>) with the card's loopback wire on: each
 * frame sent through ndo_start_xmit comes back on RX, and the NAPI poll
 * hands its buffer to the stack with napi_gro_receive().  The buggy
 * driver unmaps the buffer after that call: the stack has read a buffer
 * the device still owned.
 */
#include <errno.h>
#include <string.h>

#include <dmaemu/devices/nic.h>
#include <dmaemu/device.h>
#include <dmaemu/net.h>
#include <linux/etherdevice.h>
#include <linux/netdevice.h>

#include "driver.h"
#include "lab.h"

#define FRAMES 4

/* Frame @n to @dst: 600 to 1500 bytes, an IPv4 EtherType. */
static size_t make_frame(unsigned int n, const u8 *dst, unsigned char *f)
{
	size_t len = 600 + 300 * n, i;

	memcpy(f, dst, ETH_ALEN);
	memcpy(f + ETH_ALEN, "\x02\x00\x5e\x10\x00\x01", ETH_ALEN);
	f[12] = 0x08;
	f[13] = 0x00;
	for (i = ETH_HLEN; i < len; i++)
		f[i] = (unsigned char)(n * 31 + i * 7);
	return len;
}

int main(int argc, char **argv)
{
	struct lab *lab = lab_start("napi-rx-unmap", argc, argv, NULL);
	static unsigned char want[1500], got[2048];
	struct dmaemu_device *card;
	struct net_device *ndev;
	unsigned int n, right = 0;
	size_t len;
	int ret;

	if (!lab)
		return 2;
	ret = platform_driver_register(&lab_nic_driver);
	if (ret)
		return lab_fail(lab, "platform_driver_register()", ret);
	card = dmaemu_nic_create(lab->m, "nic0"); /* probed: eth0 */
	if (!card)
		return lab_fail(lab, "dmaemu_nic_create()", errno);
	ndev = dmaemu_net_find("eth0");
	if (!ndev) /* the probe failed, and said why */
		return lab_fail(lab, "the driver's probe (no eth0)", ENODEV);
	/* ethtool -K eth0 loopback on; ip link set eth0 up */
	ndev->netdev_ops->ndo_set_features(ndev,
					   ndev->features | NETIF_F_LOOPBACK);
	ret = dmaemu_net_open(ndev);
	if (ret)
		return lab_fail(lab, "dmaemu_net_open() (ndo_open)", ret);
	for (n = 0; n < FRAMES; n++) {
		len = make_frame(n, ndev->dev_addr, want);
		ret = dmaemu_net_xmit(ndev, want, len, false, HZ);
		if (ret)
			return lab_fail(lab, "dmaemu_net_xmit()", ret);
		ret = dmaemu_net_recv(ndev, got, sizeof(got), 5 * HZ, NULL);
		lab_say("frame %u: sent %zu bytes, the stack got %d", n, len,
			ret);
		right += ret == (int)len && !memcmp(got, want, len);
	}
	lab_say("%u of %u frames came up right", right, FRAMES);
	dmaemu_net_close(ndev);
	dmaemu_device_destroy(card);
	platform_driver_unregister(&lab_nic_driver);
	return lab_finish(lab, right == FRAMES);
}
