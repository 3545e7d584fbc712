/* SPDX-License-Identifier: MIT */
/*
 * <dmaemu/net.h> - the test's side of the network stack: what the kernel
 * above a NIC driver does with the net_device it registered.
 *
 * A test brings a registered net_device up (dmaemu_net_open(): the
 * driver's ndo_open, then the TX watchdog), sends frames into the
 * driver's ndo_start_xmit (dmaemu_net_xmit(), as dev_queue_xmit() does:
 * bottom halves off, the queue's xmit lock held, waiting while the driver
 * keeps the queue stopped), collects the frames the driver passed up with
 * netif_receive_skb(), napi_gro_receive() or netif_rx() (dmaemu_net_recv(),
 * with the bytes the stack read through the CPU's cache when the driver
 * handed the frame over), and brings it down (dmaemu_net_close():
 * ndo_stop).  While the device is up, the watchdog (4.14's dev_watchdog(),
 * a kernel timer every watchdog_timeo) calls ndo_tx_timeout when a TX
 * queue has stayed stopped longer than watchdog_timeo since the last
 * frame the driver took.  See docs/kernel-headers.md.
 */
#ifndef DMAEMU_NET_H
#define DMAEMU_NET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct net_device;

/**
 * dmaemu_net_open() - bring @dev up, as "ip link set up": ndo_open, then
 * IFF_UP, the TX queues started, the watchdog armed.
 * Return: 0; ndo_open's error; -EINVAL (not registered: reported);
 * 0 when already up.
 */
int dmaemu_net_open(struct net_device *dev);

/**
 * dmaemu_net_close() - bring @dev down: the watchdog stopped, the queues
 * stopped, ndo_stop.  Return: 0; -EINVAL (not registered: reported).
 */
int dmaemu_net_close(struct net_device *dev);

/**
 * dmaemu_net_xmit() - the stack sends a frame of @len bytes: copied (by
 * the CPU, through its cache) into a new sk_buff of @dev's machine with
 * NET_SKB_PAD of headroom, skb->protocol from its EtherType, handed to
 * ndo_start_xmit in process context with bottom halves off and the TX
 * queue's xmit lock held (a sleep there is a sleep-in-atomic report).
 * @more: skb->xmit_more (another frame follows at once).
 * @timeout: jiffies to wait while the queue is stopped (or the driver
 *          answers NETDEV_TX_BUSY: the stack requeues and tries again).
 *
 * Return: 0 when the driver took the frame (it owns the sk_buff);
 * -EBUSY when the queue stayed stopped for @timeout (the frame is
 * dropped); -ENETDOWN when @dev is not up; -EINVAL (NULL, @len 0 or
 * above 65535, not registered: reported); -ENOMEM.
 */
int dmaemu_net_xmit(struct net_device *dev, const void *frame, size_t len,
		    bool more, unsigned long timeout);

/**
 * struct dmaemu_net_rxinfo - how a frame came up.
 * @len:       its length from the Ethernet header (or skb->data) on.
 * @protocol:  skb->protocol, host order (eth_type_trans()'s result).
 * @pkt_type:  skb->pkt_type (PACKET_HOST ...).
 * @ip_summed: skb->ip_summed.
 * @softirq:   passed up in softirq context (a NAPI poll, or netif_rx()'s
 *             backlog).
 * @how:       "napi_gro_receive", "netif_receive_skb" or "netif_rx".
 */
struct dmaemu_net_rxinfo {
	size_t len;
	uint16_t protocol;
	uint8_t pkt_type;
	uint8_t ip_summed;
	bool softirq;
	const char *how;
};

/**
 * dmaemu_net_recv() - the next frame @dev passed up, waiting up to
 * @timeout jiffies for one.  At most @size bytes go to @buf; @info (may
 * be NULL) describes the frame.
 * Return: the frame's length; -ETIMEDOUT; -EINVAL (not registered).
 */
int dmaemu_net_recv(struct net_device *dev, void *buf, size_t size,
		    unsigned long timeout, struct dmaemu_net_rxinfo *info);

/**
 * struct dmaemu_net_stats - the stack's counters of one device.
 * @tx_frames:  frames ndo_start_xmit took.
 * @tx_busy:    NETDEV_TX_BUSY answers.
 * @tx_dropped: frames dropped because the queue stayed stopped.
 * @rx_frames, @rx_bytes: frames passed up, and their bytes.
 * @rx_queued:  of those, not yet taken by dmaemu_net_recv().
 * @tx_timeouts: ndo_tx_timeout calls by the watchdog.
 * @napi_polls: polls of the device's NAPI contexts.
 */
struct dmaemu_net_stats {
	uint64_t tx_frames, tx_busy, tx_dropped;
	uint64_t rx_frames, rx_bytes, rx_queued;
	uint64_t tx_timeouts, napi_polls;
};

/** dmaemu_net_stats() - fill @st.  Return: 0, or -EINVAL. */
int dmaemu_net_stats(struct net_device *dev, struct dmaemu_net_stats *st);

/**
 * dmaemu_net_find() - the registered device named @name ("eth0") on the
 * current machine, or NULL (a NULL @name is a bad-argument report).
 */
struct net_device *dmaemu_net_find(const char *name);

#ifdef __cplusplus
}
#endif

#endif
