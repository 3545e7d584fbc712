/* SPDX-License-Identifier: MIT */
/*
 * net.h - the net layer of lib/: the part of a network stack a NIC
 * driver meets (<linux/skbuff.h>, <linux/netdevice.h>,
 * <linux/etherdevice.h>) and the test's side of it (<dmaemu/net.h>).
 *
 *   skbuff.c   sk_buffs: data in kmalloc() memory of a machine, the
 *              live set (double frees), put/push/pull
 *   dev.c      net_devices, TX queues and the watchdog, NAPI and
 *              net_rx_action() (NET_RX_SOFTIRQ), the receive path, the
 *              test's side (dmaemu_net_*)
 *   eth.c      eth_type_trans(), ether_setup(), addresses
 *
 * Locks (leaves, core/core.h): net->lock (a machine's poll list, backlog
 * and deferred frees), each device's stack lock (its received frames and
 * counters), the live set's lock of skbuff.c.  No driver code runs and no
 * report is made under them.
 */
#ifndef DMAEMU_LIB_NET_H
#define DMAEMU_LIB_NET_H

#include <linux/netdevice.h>
#include <linux/skbuff.h>

#include "bus/bus.h"
#include "cpu/cpu.h"

/*
 * The CPU reads (@write false) or writes @len bytes of a frame for the
 * driver call in progress (the stack's copy): through the cache model,
 * reports at the driver's line (the call's caller).
 */
static inline int dmaemu__net_copy(void *dst, const void *src, size_t len,
				   bool write)
{
	const struct dmaemu__call *c = dmaemu__call_current();

	return dmaemu__cpu_copy(dst, src, len, write,
				c ? c->caller : __builtin_return_address(0));
}

/*
 * skbuff.c.  dmaemu__skb_machine(): the machine whose memory holds @skb's
 * buffer.  dmaemu__skb_live(): is @skb an sk_buff not yet freed?
 * dmaemu__skb_free(): free it now, whatever its users count (the stack's
 * end of a frame).
 */
struct dmaemu_machine *dmaemu__skb_machine(const struct sk_buff *skb);
bool dmaemu__skb_live(const struct sk_buff *skb);
/* @p is NULL: a bad-argument report naming @fn, and true. */
bool dmaemu__net_null(const void *p, const char *fn);
struct sk_buff *dmaemu__alloc_skb(struct dmaemu_machine *m, unsigned int size,
				  gfp_t gfp, const char *fn);

/*
 * dev.c.  dmaemu__net_init()/_fini(): machine create/destroy (fini after
 * the interrupt thread stopped: frames still queued are freed).
 * dmaemu__netdev_machine(): the machine of @dev (its parent's, or the
 * one current at alloc).
 */
int dmaemu__net_init(struct dmaemu_machine *m);
void dmaemu__net_fini(struct dmaemu_machine *m);
struct dmaemu_machine *dmaemu__netdev_machine(const struct net_device *dev);

#endif
