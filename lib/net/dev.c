// SPDX-License-Identifier: MIT
/*
 * dev.c - network devices, NAPI and the test's side of the stack
 * (<linux/netdevice.h>, <dmaemu/net.h>), after 4.14's net/core/dev.c
 * (register_netdevice(), __dev_open(), __dev_close_many(),
 * napi_schedule_prep(), __napi_schedule(), napi_complete_done(),
 * napi_disable(), napi_poll(), net_rx_action()) and
 * net/sched/sch_generic.c (dev_watchdog()).
 *
 * How it works.  Each machine has a net state (m->net): its poll list of
 * scheduled NAPI contexts, the sk_buffs passed up and not yet freed, the
 * registered devices.  NET_RX_SOFTIRQ's action, net_rx_action(), runs on
 * the machine's interrupt thread (bus/softirq.c):
 *
 *   1. take the poll list; for each context, call its poll with its
 *      weight (if still scheduled); a poll that used its whole weight
 *      goes to the end of the list again (or is completed, when a
 *      napi_disable() waits), one that did less must have called
 *      napi_complete_done() (otherwise it is reported: it would never be
 *      polled again);
 *   2. stop when the budget (300 frames) or two jiffies are spent; what
 *      is left goes back on the list, and the vector is raised again;
 *   3. free the sk_buffs passed up meanwhile (4.14's deferred frees).
 *
 * Receiving (netif_receive_skb(), napi_gro_receive(), netif_rx()) is
 * the stack taking the frame: its bytes are copied, through the CPU
 * model and in the driver's call context (so a read of a buffer the
 * device still owns, or of stale lines, is reported at the driver's
 * line), to a host queue of the device that dmaemu_net_recv() reads.
 * Sending (dmaemu_net_xmit()) builds an sk_buff and calls ndo_start_xmit
 * as dev_queue_xmit() does.  While a device is up, its watchdog (a kernel
 * timer, bus/kwork.c) calls ndo_tx_timeout when a stopped queue took no
 * frame for watchdog_timeo.
 *
 * Locks (leaves): net->lock (poll list, deferred frees, device list,
 * names); each device's st->lock (its frames and counters).  Driver code
 * (ndo_*, poll) runs with none held.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <asm/byteorder.h>
#include <dmaemu/net.h>
#include <linux/etherdevice.h>
#include <linux/jiffies.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/timer.h>

#include "net/net.h"

#define NETDEV_BUDGET 300
#define NETDEV_BUDGET_JIFFIES 2 /* netdev_budget_usecs at HZ 1000 */
#define DEFAULT_WATCHDOG (5 * HZ)

struct dmaemu__net {
	struct dmaemu_machine *m;
	pthread_mutex_t lock;
	struct list_head poll_list; /* napi_struct.poll_list */
	struct sk_buff *to_free;    /* via skb->next */
	struct list_head devs;	    /* struct netstack.node */
	unsigned int next_name;	    /* eth%d */
};

/* A frame the stack took. */
struct rxframe {
	struct rxframe *next;
	struct dmaemu_net_rxinfo info;
	unsigned char bytes[];
};

/* The stack's state of a registered device (dev->dmaemu_stack). */
struct netstack {
	struct net_device *dev;
	struct list_head node; /* net->devs */
	pthread_mutex_t lock;  /* below */
	struct rxframe *head, **tail;
	struct dmaemu_net_stats st;
};

static unsigned int napi_ids; /* atomic */

static int stack_close(struct net_device *dev);

static void net_rx_action(struct dmaemu_machine *m);

int dmaemu__net_init(struct dmaemu_machine *m)
{
	struct dmaemu__net *net = dmaemu__calloc(1, sizeof(*net));
	int ret;

	if (!net)
		return -ENOMEM;
	ret = dmaemu__mutex_init(&net->lock);
	if (ret) {
		dmaemu__free(net);
		return -ret;
	}
	net->m = m;
	INIT_LIST_HEAD(&net->poll_list);
	INIT_LIST_HEAD(&net->devs);
	dmaemu__open_softirq(NET_RX_SOFTIRQ, net_rx_action);
	m->net = net;
	return 0;
}

/* Free the sk_buffs passed up since the last pass. */
static void flush_frees(struct dmaemu__net *net)
{
	struct sk_buff *skb, *next;

	dmaemu__lock(&net->lock);
	skb = net->to_free;
	net->to_free = NULL;
	dmaemu__unlock(&net->lock);
	for (; skb; skb = next) {
		next = skb->next;
		skb->next = NULL;
		kfree_skb(skb);
	}
}

void dmaemu__net_fini(struct dmaemu_machine *m)
{
	struct dmaemu__net *net = m->net;

	if (!net)
		return;
	flush_frees(net);
	pthread_mutex_destroy(&net->lock);
	dmaemu__free(net);
	m->net = NULL;
}

struct dmaemu_machine *dmaemu__netdev_machine(const struct net_device *dev)
{
	const struct device *parent = dev->dev.parent;

	if (parent && parent->dmaemu) {
		struct dmaemu_machine *m = dmaemu__dev_machine(parent);

		if (m)
			return m;
	}
	return dev->dmaemu_machine;
}

static struct dmaemu__net *net_of(const struct net_device *dev)
{
	struct dmaemu_machine *m = dmaemu__netdev_machine(dev);

	return m && dmaemu__machine_live(m) ? m->net : NULL;
}

/* ---------------------------------------------------------------------- */
/* Devices                                                                */
/* ---------------------------------------------------------------------- */

struct net_device *alloc_netdev_mqs(int sizeof_priv, const char *name,
				    unsigned char name_assign_type,
				    void (*setup)(struct net_device *),
				    unsigned int txqs, unsigned int rxqs)
{
	DMAEMU__API_CALL(call, "alloc_netdev_mqs");
	size_t head = ALIGN(sizeof(struct net_device), NETDEV_ALIGN);
	struct net_device *dev;
	unsigned int i;

	(void)name_assign_type;
	(void)rxqs;
	if (sizeof_priv < 0 || !txqs || txqs > 4096 || !name) {
		dmaemu__reportf(dmaemu_machine_current(),
				DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"alloc_netdev_mqs(%d, %s, txqs %u): %s",
				sizeof_priv, name ? name : "NULL", txqs,
				!name		  ? "no name"
				: sizeof_priv < 0 ? "negative private size"
						  : "bad number of TX queues");
		return NULL;
	}
	dev = dmaemu__calloc(1, head + (size_t)sizeof_priv);
	if (!dev)
		return NULL;
	dev->_tx = dmaemu__calloc(txqs, sizeof(*dev->_tx));
	if (!dev->_tx) {
		dmaemu__free(dev);
		return NULL;
	}
	for (i = 0; i < txqs; i++) {
		dev->_tx[i].dev = dev;
		spin_lock_init(&dev->_tx[i]._xmit_lock);
	}
	dev->num_tx_queues = dev->real_num_tx_queues = txqs;
	snprintf(dev->name, sizeof(dev->name), "%s", name);
	dev->dev_addr = dev->dmaemu_addr;
	INIT_LIST_HEAD(&dev->napi_list);
	INIT_LIST_HEAD(&dev->uc.list);
	INIT_LIST_HEAD(&dev->mc.list);
	dev->dmaemu_machine = dmaemu_machine_current();
	dev->dmaemu_priv_size = (size_t)sizeof_priv;
	if (setup)
		setup(dev);
	return dev;
}

static void addr_list_flush(struct netdev_hw_addr_list *l)
{
	struct netdev_hw_addr *ha, *tmp;

	list_for_each_entry_safe (ha, tmp, &l->list, list) {
		list_del(&ha->list);
		dmaemu__free(ha);
	}
	l->count = 0;
}

void free_netdev(struct net_device *dev)
{
	DMAEMU__API_CALL(call, "free_netdev");
	struct napi_struct *n, *tmp;

	if (!dev)
		return;
	if (dev->dmaemu_registered) {
		dmaemu__reportf(dmaemu__netdev_machine(dev),
				DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"free_netdev(%s): the device is still "
				"registered: unregister_netdev() it first; "
				"not freed",
				dev->name);
		return;
	}
	list_for_each_entry_safe (n, tmp, &dev->napi_list, dev_list)
		netif_napi_del(n);
	addr_list_flush(&dev->uc);
	addr_list_flush(&dev->mc);
	dmaemu__free(dev->_tx);
	dmaemu__free(dev);
}

/*
 * The functions that call into the driver (ndo_*) make their checks and
 * reports in a call context of their own (a block with
 * DMAEMU__API_CALL()) and leave it before the driver runs: the driver's
 * own calls then name the driver's lines, not the stack's caller.
 */
int register_netdev(struct net_device *dev)
{
	struct dmaemu__net *net;
	struct netstack *st, *o;
	const char *why = NULL;
	char *pct;
	int ret;

	{
		DMAEMU__API_CALL(call, "register_netdev");

		dmaemu_might_sleep("register_netdev()");
		net = dev ? net_of(dev) : NULL;
		if (!dev)
			why = "NULL device";
		else if (!net)
			why = "no machine (no parent device tied to one, and "
			      "no current machine at alloc_netdev())";
		else if (dev->dmaemu_registered)
			why = "registered already";
		else if (!dev->netdev_ops || !dev->netdev_ops->ndo_start_xmit)
			why = "no netdev_ops->ndo_start_xmit";
		if (why) {
			dmaemu__reportf(net ? net->m : dmaemu_machine_current(),
					DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
					"register_netdev(%s): %s",
					dev ? dev->name : "", why);
			return -EINVAL;
		}
	}
	st = dmaemu__calloc(1, sizeof(*st));
	if (!st)
		return -ENOMEM;
	ret = dmaemu__mutex_init(&st->lock);
	if (ret) {
		dmaemu__free(st);
		return -ENOMEM;
	}
	st->dev = dev;
	st->tail = &st->head;
	if (dev->netdev_ops->ndo_init) {
		ret = dev->netdev_ops->ndo_init(dev);
		if (ret)
			goto out_free;
	}
	dmaemu__lock(&net->lock);
	pct = strstr(dev->name, "%d");
	if (pct) {
		char name[IFNAMSIZ];

		snprintf(name, sizeof(name), "%.*s%u%s", (int)(pct - dev->name),
			 dev->name, net->next_name++, pct + 2);
		snprintf(dev->name, sizeof(dev->name), "%s", name);
	}
	list_for_each_entry (o, &net->devs, node) {
		if (!strcmp(o->dev->name, dev->name)) {
			dmaemu__unlock(&net->lock);
			ret = -EEXIST;
			goto out_uninit;
		}
	}
	list_add_tail(&st->node, &net->devs);
	dev->dmaemu_stack = st;
	dev->dmaemu_registered = 1;
	set_bit(__LINK_STATE_PRESENT, &dev->state);
	dmaemu__unlock(&net->lock);
	return 0;

out_uninit:
	if (dev->netdev_ops->ndo_uninit)
		dev->netdev_ops->ndo_uninit(dev);
out_free:
	pthread_mutex_destroy(&st->lock);
	dmaemu__free(st);
	return ret;
}

void unregister_netdev(struct net_device *dev)
{
	struct dmaemu__net *net;
	struct netstack *st;
	struct rxframe *f;

	{
		DMAEMU__API_CALL(call, "unregister_netdev");

		dmaemu_might_sleep("unregister_netdev()");
		if (!dev || !dev->dmaemu_registered) {
			dmaemu__reportf(dev ? dmaemu__netdev_machine(dev)
					    : NULL,
					DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
					"unregister_netdev(%s): not registered",
					dev ? dev->name : "NULL");
			return;
		}
	}
	stack_close(dev);
	if (dev->netdev_ops->ndo_uninit)
		dev->netdev_ops->ndo_uninit(dev);
	st = dev->dmaemu_stack;
	net = net_of(dev);
	if (net) {
		dmaemu__lock(&net->lock);
		list_del(&st->node);
		dmaemu__unlock(&net->lock);
	}
	clear_bit(__LINK_STATE_PRESENT, &dev->state);
	dev->dmaemu_registered = 0;
	dev->dmaemu_stack = NULL;
	while ((f = st->head)) {
		st->head = f->next;
		dmaemu__free(f);
	}
	pthread_mutex_destroy(&st->lock);
	dmaemu__free(st);
}

/* 4.14's dev_watchdog(): a stopped queue that took nothing for
 * watchdog_timeo means the card is stuck: ndo_tx_timeout. */
static void dev_watchdog(struct timer_list *t)
{
	struct net_device *dev = from_timer(dev, t, watchdog_timer);
	struct netstack *st = dev->dmaemu_stack;
	bool timedout = false;
	unsigned int i;

	if (!netif_running(dev) || !netif_carrier_ok(dev) ||
	    !netif_device_present(dev))
		return;
	netif_tx_lock(dev);
	for (i = 0; i < dev->num_tx_queues; i++) {
		struct netdev_queue *q = netdev_get_tx_queue(dev, i);

		if (netif_tx_queue_stopped(q) &&
		    time_after(jiffies,
			       READ_ONCE(q->trans_start) +
				       (unsigned long)dev->watchdog_timeo)) {
			timedout = true;
			break;
		}
	}
	if (timedout) {
		dev->netdev_ops->ndo_tx_timeout(dev);
		dmaemu__lock(&st->lock);
		st->st.tx_timeouts++;
		dmaemu__unlock(&st->lock);
	}
	netif_tx_unlock(dev);
	mod_timer(&dev->watchdog_timer,
		  jiffies + (unsigned long)dev->watchdog_timeo);
}

static int stack_open(struct net_device *dev)
{
	unsigned int i;
	int ret;

	if (netif_running(dev))
		return 0;
	if (dev->netdev_ops->ndo_validate_addr) {
		ret = dev->netdev_ops->ndo_validate_addr(dev);
		if (ret)
			return ret;
	}
	if (dev->netdev_ops->ndo_open) {
		ret = dev->netdev_ops->ndo_open(dev);
		if (ret)
			return ret;
	}
	set_bit(__LINK_STATE_START, &dev->state);
	dev->flags |= IFF_UP;
	if (dev->netdev_ops->ndo_set_rx_mode)
		dev->netdev_ops->ndo_set_rx_mode(dev);
	for (i = 0; i < dev->num_tx_queues; i++)
		WRITE_ONCE(dev->_tx[i].trans_start, jiffies);
	if (dev->netdev_ops->ndo_tx_timeout) {
		if (dev->watchdog_timeo <= 0)
			dev->watchdog_timeo = DEFAULT_WATCHDOG;
		timer_setup(&dev->watchdog_timer, dev_watchdog, 0);
		mod_timer(&dev->watchdog_timer,
			  jiffies + (unsigned long)dev->watchdog_timeo);
	}
	return 0;
}

static int stack_close(struct net_device *dev)
{
	unsigned int i;

	if (!netif_running(dev))
		return 0;
	clear_bit(__LINK_STATE_START, &dev->state);
	if (dev->netdev_ops->ndo_tx_timeout)
		del_timer_sync(&dev->watchdog_timer);
	/* An xmit in progress finishes (it holds the queue's lock). */
	for (i = 0; i < dev->num_tx_queues; i++) {
		spin_lock_bh(&dev->_tx[i]._xmit_lock);
		spin_unlock_bh(&dev->_tx[i]._xmit_lock);
	}
	if (dev->netdev_ops->ndo_stop)
		dev->netdev_ops->ndo_stop(dev);
	dev->flags &= ~IFF_UP;
	return 0;
}

static bool check_registered(struct net_device *dev, const char *fn)
{
	if (dev && dev->dmaemu_registered)
		return true;
	dmaemu__reportf(dev ? dmaemu__netdev_machine(dev)
			    : dmaemu_machine_current(),
			DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
			"%s(%s): not a registered net_device", fn,
			dev ? dev->name : "NULL");
	return false;
}

int dev_open(struct net_device *dev)
{
	{
		DMAEMU__API_CALL(call, "dev_open");

		dmaemu_might_sleep("dev_open()");
		if (!check_registered(dev, "dev_open"))
			return -EINVAL;
	}
	return stack_open(dev);
}

int dev_close(struct net_device *dev)
{
	{
		DMAEMU__API_CALL(call, "dev_close");

		dmaemu_might_sleep("dev_close()");
		if (!check_registered(dev, "dev_close"))
			return -EINVAL;
	}
	return stack_close(dev);
}

int dmaemu_net_open(struct net_device *dev)
{
	{
		DMAEMU__API_CALL(call, "dmaemu_net_open");

		if (!check_registered(dev, "dmaemu_net_open"))
			return -EINVAL;
	}
	return stack_open(dev);
}

int dmaemu_net_close(struct net_device *dev)
{
	{
		DMAEMU__API_CALL(call, "dmaemu_net_close");

		if (!check_registered(dev, "dmaemu_net_close"))
			return -EINVAL;
	}
	return stack_close(dev);
}

/* ---------------------------------------------------------------------- */
/* TX queues                                                              */
/* ---------------------------------------------------------------------- */

void netif_tx_start_queue(struct netdev_queue *q)
{
	DMAEMU__API_CALL(call, "netif_tx_start_queue");

	if (dmaemu__net_null(q, "netif_tx_start_queue"))
		return;
	clear_bit(__QUEUE_STATE_DRV_XOFF, &q->state);
}

void netif_tx_stop_queue(struct netdev_queue *q)
{
	DMAEMU__API_CALL(call, "netif_tx_stop_queue");

	if (dmaemu__net_null(q, "netif_tx_stop_queue"))
		return;
	set_bit(__QUEUE_STATE_DRV_XOFF, &q->state);
}

void netif_tx_wake_queue(struct netdev_queue *q)
{
	DMAEMU__API_CALL(call, "netif_tx_wake_queue");

	if (dmaemu__net_null(q, "netif_tx_wake_queue"))
		return;
	clear_bit(__QUEUE_STATE_DRV_XOFF, &q->state);
}

void netif_tx_start_all_queues(struct net_device *dev)
{
	DMAEMU__API_CALL(call, "netif_tx_start_all_queues");
	unsigned int i;

	if (dmaemu__net_null(dev, "netif_tx_start_all_queues"))
		return;
	for (i = 0; i < dev->num_tx_queues; i++)
		netif_tx_start_queue(&dev->_tx[i]);
}

void netif_tx_stop_all_queues(struct net_device *dev)
{
	DMAEMU__API_CALL(call, "netif_tx_stop_all_queues");
	unsigned int i;

	if (dmaemu__net_null(dev, "netif_tx_stop_all_queues"))
		return;
	for (i = 0; i < dev->num_tx_queues; i++)
		netif_tx_stop_queue(&dev->_tx[i]);
}

void netif_tx_wake_all_queues(struct net_device *dev)
{
	DMAEMU__API_CALL(call, "netif_tx_wake_all_queues");
	unsigned int i;

	if (dmaemu__net_null(dev, "netif_tx_wake_all_queues"))
		return;
	for (i = 0; i < dev->num_tx_queues; i++)
		netif_tx_wake_queue(&dev->_tx[i]);
}

void netdev_tx_sent_queue(struct netdev_queue *q, unsigned int bytes)
{
	DMAEMU__API_CALL(call, "netdev_tx_sent_queue");

	if (dmaemu__net_null(q, "netdev_tx_sent_queue"))
		return;
	__atomic_add_fetch(&q->dql.num_queued, bytes, __ATOMIC_RELAXED);
}

void netdev_tx_completed_queue(struct netdev_queue *q, unsigned int pkts,
			       unsigned int bytes)
{
	DMAEMU__API_CALL(call, "netdev_completed_queue");
	unsigned int queued, done;

	(void)pkts;
	if (dmaemu__net_null(q, "netdev_tx_completed_queue"))
		return;
	queued = __atomic_load_n(&q->dql.num_queued, __ATOMIC_RELAXED);
	done = __atomic_load_n(&q->dql.num_completed, __ATOMIC_RELAXED);
	if (bytes > queued - done) {
		dmaemu__reportf(dmaemu__netdev_machine(q->dev),
				DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"netdev_completed_queue(%s, %u bytes): only "
				"%u bytes were sent and not completed (4.14's "
				"dql_completed() BUG()s); the counts are reset",
				q->dev->name, bytes, queued - done);
		netdev_tx_reset_queue(q);
		return;
	}
	__atomic_add_fetch(&q->dql.num_completed, bytes, __ATOMIC_RELAXED);
}

void netdev_tx_reset_queue(struct netdev_queue *q)
{
	DMAEMU__API_CALL(call, "netdev_tx_reset_queue");

	if (dmaemu__net_null(q, "netdev_tx_reset_queue"))
		return;
	__atomic_store_n(&q->dql.num_queued, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&q->dql.num_completed, 0, __ATOMIC_RELAXED);
}

/* ---------------------------------------------------------------------- */
/* The stack sends                                                        */
/* ---------------------------------------------------------------------- */

int dmaemu_net_xmit(struct net_device *dev, const void *frame, size_t len,
		    bool more, unsigned long timeout)
{
	unsigned long deadline = jiffies + timeout;
	struct netdev_queue *q;
	struct netstack *st;
	struct sk_buff *skb;
	netdev_tx_t rc;

	{
		DMAEMU__API_CALL(call, "dmaemu_net_xmit");

		if (!check_registered(dev, "dmaemu_net_xmit"))
			return -EINVAL;
		if (!frame || !len || len > 65535) {
			dmaemu__reportf(
				dmaemu__netdev_machine(dev),
				DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"dmaemu_net_xmit(%s, %p, %zu): bad frame",
				dev->name, frame, len);
			return -EINVAL;
		}
		if (!netif_running(dev))
			return -ENETDOWN;
		st = dev->dmaemu_stack;
		skb = __netdev_alloc_skb(dev, (unsigned int)len, GFP_KERNEL);
		if (!skb)
			return -ENOMEM;
		(void)skb_put_data(skb, frame, (unsigned int)len);
	}
	if (len >= ETH_HLEN)
		memcpy(&skb->protocol, (const char *)frame + 12, 2);
	skb_reset_mac_header(skb);
	skb->xmit_more = more;
	q = netdev_get_tx_queue(dev, 0);
	for (;;) {
		/* dev_queue_xmit(): bottom halves off, the queue's lock. */
		spin_lock_bh(&q->_xmit_lock);
		if (!netif_running(dev)) {
			spin_unlock_bh(&q->_xmit_lock);
			kfree_skb(skb);
			return -ENETDOWN;
		}
		if (!netif_tx_queue_stopped(q)) {
			rc = dev->netdev_ops->ndo_start_xmit(skb, dev);
			if (rc == NETDEV_TX_OK)
				WRITE_ONCE(q->trans_start, jiffies);
			spin_unlock_bh(&q->_xmit_lock);
			dmaemu__lock(&st->lock);
			if (rc == NETDEV_TX_OK)
				st->st.tx_frames++;
			else
				st->st.tx_busy++;
			dmaemu__unlock(&st->lock);
			if (rc == NETDEV_TX_OK)
				return 0;
		} else {
			spin_unlock_bh(&q->_xmit_lock);
		}
		/* Stopped, or busy: the stack holds the frame and tries
		 * again when the driver wakes the queue. */
		if (time_after(jiffies, deadline))
			break;
		msleep(1);
	}
	kfree_skb(skb);
	dmaemu__lock(&st->lock);
	st->st.tx_dropped++;
	dmaemu__unlock(&st->lock);
	return -EBUSY;
}

/* ---------------------------------------------------------------------- */
/* The stack receives                                                     */
/* ---------------------------------------------------------------------- */

/* Free @skb at the end of its machine's softirq pass (4.14 defers the
 * frees of frames passed up to __kfree_skb_flush()). */
static void defer_free(struct dmaemu__net *net, struct sk_buff *skb)
{
	dmaemu__lock(&net->lock);
	skb->next = net->to_free;
	net->to_free = skb;
	dmaemu__unlock(&net->lock);
}

/*
 * The stack takes @skb (passed up by @how): its bytes from the mac
 * header on, read by the CPU now (the caller's call context names the
 * driver's line), go to the device's queue; the sk_buff is freed at the
 * end of the softirq pass (now, outside softirq context, from the
 * interrupt thread or not).  Return: NET_RX_SUCCESS or NET_RX_DROP.
 */
static int take(struct sk_buff *skb, const char *how)
{
	struct net_device *dev;
	struct dmaemu__net *net;
	struct netstack *st;
	struct rxframe *f;
	unsigned char *start;
	size_t n;

	if (!skb || !dmaemu__skb_live(skb)) {
		dmaemu__reportf(NULL, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"%s(%p): not a live sk_buff", how, (void *)skb);
		return NET_RX_DROP;
	}
	dev = skb->dev;
	if (!dev || !dev->dmaemu_registered) {
		dmaemu__reportf(dmaemu__skb_machine(skb),
				DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"%s(%p): skb->dev is %s (eth_type_trans() "
				"sets it); the frame is dropped",
				how, (void *)skb,
				dev ? "not a registered device" : "NULL");
		kfree_skb(skb);
		return NET_RX_DROP;
	}
	net = net_of(dev);
	st = dev->dmaemu_stack;
	start = skb->data;
	if (skb_mac_header_was_set(skb) && skb_mac_header(skb) <= skb->data)
		start = skb_mac_header(skb);
	n = (size_t)(skb->data - start) + skb->len;
	f = dmaemu__malloc(sizeof(*f) + n);
	if (f) {
		f->next = NULL;
		(void)dmaemu__net_copy(f->bytes, start, n, false);
		f->info.len = n;
		f->info.protocol = be16_to_cpu(skb->protocol);
		f->info.pkt_type = skb->pkt_type;
		f->info.ip_summed = skb->ip_summed;
		/* netif_rx() frames go through the backlog, in softirq
		 * context, whatever the caller's. */
		f->info.softirq =
			!strcmp(how, "netif_rx") || (in_softirq() && !in_irq());
		f->info.how = how;
		dmaemu__lock(&st->lock);
		*st->tail = f;
		st->tail = &f->next;
		st->st.rx_frames++;
		st->st.rx_bytes += n;
		st->st.rx_queued++;
		dmaemu__unlock(&st->lock);
	}
	if (net && in_interrupt()) {
		defer_free(net, skb);
		if (!in_softirq())
			/* From a hard handler (netif_rx()): the pass that
			 * frees it runs after the handler. */
			(void)dmaemu__raise_softirq(net->m, NET_RX_SOFTIRQ);
	} else {
		kfree_skb(skb);
	}
	return f ? NET_RX_SUCCESS : NET_RX_DROP;
}

int netif_receive_skb(struct sk_buff *skb)
{
	DMAEMU__API_CALL(call, "netif_receive_skb");

	return take(skb, "netif_receive_skb");
}

gro_result_t napi_gro_receive(struct napi_struct *napi, struct sk_buff *skb)
{
	DMAEMU__API_CALL(call, "napi_gro_receive");

	(void)napi;
	return take(skb, "napi_gro_receive") == NET_RX_SUCCESS ? GRO_NORMAL
							       : GRO_DROP;
}

int netif_rx(struct sk_buff *skb)
{
	DMAEMU__API_CALL(call, "netif_rx");

	return take(skb, "netif_rx");
}

int netif_rx_ni(struct sk_buff *skb)
{
	DMAEMU__API_CALL(call, "netif_rx_ni");

	return take(skb, "netif_rx");
}

int dmaemu_net_recv(struct net_device *dev, void *buf, size_t size,
		    unsigned long timeout, struct dmaemu_net_rxinfo *info)
{
	DMAEMU__API_CALL(call, "dmaemu_net_recv");
	unsigned long deadline = jiffies + timeout;
	struct netstack *st;
	struct rxframe *f;
	int len;

	if (!check_registered(dev, "dmaemu_net_recv"))
		return -EINVAL;
	st = dev->dmaemu_stack;
	for (;;) {
		dmaemu__lock(&st->lock);
		f = st->head;
		if (f) {
			st->head = f->next;
			if (!st->head)
				st->tail = &st->head;
			st->st.rx_queued--;
		}
		dmaemu__unlock(&st->lock);
		if (f)
			break;
		if (time_after(jiffies, deadline))
			return -ETIMEDOUT;
		msleep(1);
	}
	if (buf)
		memcpy(buf, f->bytes, f->info.len < size ? f->info.len : size);
	if (info)
		*info = f->info;
	len = (int)f->info.len;
	dmaemu__free(f);
	return len;
}

int dmaemu_net_stats(struct net_device *dev, struct dmaemu_net_stats *st)
{
	DMAEMU__API_CALL(call, "dmaemu_net_stats");
	struct netstack *s;

	if (!st || !check_registered(dev, "dmaemu_net_stats"))
		return -EINVAL;
	s = dev->dmaemu_stack;
	dmaemu__lock(&s->lock);
	*st = s->st;
	dmaemu__unlock(&s->lock);
	return 0;
}

struct net_device *dmaemu_net_find(const char *name)
{
	struct dmaemu_machine *m = dmaemu_machine_current();
	struct net_device *dev = NULL;
	struct netstack *st;

	if (!m || !name) {
		dmaemu__reportf(m, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"dmaemu_net_find(%s): %s", name ? name : "NULL",
				m ? "NULL name" : "no current machine");
		return NULL;
	}
	dmaemu__lock(&m->net->lock);
	list_for_each_entry (st, &m->net->devs, node) {
		if (!strcmp(st->dev->name, name)) {
			dev = st->dev;
			break;
		}
	}
	dmaemu__unlock(&m->net->lock);
	return dev;
}

/* ---------------------------------------------------------------------- */
/* NAPI                                                                   */
/* ---------------------------------------------------------------------- */

static unsigned long nstate(const struct napi_struct *n)
{
	return __atomic_load_n(&n->state, __ATOMIC_SEQ_CST);
}

static bool nstate_cas(struct napi_struct *n, unsigned long *old,
		       unsigned long new)
{
	return __atomic_compare_exchange_n(&n->state, old, new, false,
					   __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}

void netif_napi_add(struct net_device *dev, struct napi_struct *napi,
		    int (*poll)(struct napi_struct *, int), int weight)
{
	DMAEMU__API_CALL(call, "netif_napi_add");

	if (!dev || !napi || !poll || weight <= 0) {
		dmaemu__reportf(dev ? dmaemu__netdev_machine(dev)
				    : dmaemu_machine_current(),
				DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"netif_napi_add(%s, %p, weight %d): %s",
				dev ? dev->name : "NULL", (void *)napi, weight,
				!dev	? "NULL device"
				: !napi ? "NULL napi"
				: !poll ? "no poll function"
					: "weight must be positive");
		return;
	}
	INIT_LIST_HEAD(&napi->poll_list);
	if (weight > NAPI_POLL_WEIGHT)
		printk(KERN_ERR "netif_napi_add() called with weight %d on "
				"device %s\n",
		       weight, dev->name);
	napi->weight = weight;
	napi->poll = poll;
	napi->dev = dev;
	napi->dmaemu_machine = dmaemu__netdev_machine(dev);
	napi->dmaemu_polling = napi->dmaemu_done = 0;
	napi->napi_id = __atomic_add_fetch(&napi_ids, 1, __ATOMIC_RELAXED);
	/* Disabled until napi_enable(), as in 4.14. */
	__atomic_store_n(&napi->state, NAPIF_STATE_SCHED, __ATOMIC_SEQ_CST);
	list_add(&napi->dev_list, &dev->napi_list);
}

void netif_napi_del(struct napi_struct *napi)
{
	DMAEMU__API_CALL(call, "netif_napi_del");

	if (dmaemu__net_null(napi, "netif_napi_del"))
		return;
	list_del_init(&napi->dev_list);
}

void napi_enable(struct napi_struct *n)
{
	DMAEMU__API_CALL(call, "napi_enable");

	if (dmaemu__net_null(n, "napi_enable"))
		return;
	if (!(nstate(n) & NAPIF_STATE_SCHED)) {
		dmaemu__reportf(n->dmaemu_machine, DMAEMU_REPORT_BAD_ARGUMENT,
				0, 0,
				"napi_enable(%p): the context is enabled "
				"already (4.14 BUG()s)",
				(void *)n);
		return;
	}
	__atomic_and_fetch(&n->state, ~NAPIF_STATE_SCHED, __ATOMIC_SEQ_CST);
}

/* Disabled or stuck: scheduled, not on the poll list, not being polled
 * (nothing will clear its scheduled bit).  Under net->lock. */
static bool napi_parked(const struct napi_struct *n)
{
	return (nstate(n) & NAPIF_STATE_SCHED) && list_empty(&n->poll_list) &&
	       !__atomic_load_n(&n->dmaemu_polling, __ATOMIC_SEQ_CST);
}

void napi_disable(struct napi_struct *n)
{
	DMAEMU__API_CALL(call, "napi_disable");
	struct dmaemu_machine *m;
	struct dmaemu__net *net;
	int looks = 0;

	if (dmaemu__net_null(n, "napi_disable"))
		return;
	m = n->dmaemu_machine;
	net = m && dmaemu__machine_live(m) ? m->net : NULL;
	dmaemu_might_sleep("napi_disable()");
	__atomic_or_fetch(&n->state, NAPIF_STATE_DISABLE, __ATOMIC_SEQ_CST);
	while (__atomic_fetch_or(&n->state, NAPIF_STATE_SCHED,
				 __ATOMIC_SEQ_CST) &
	       NAPIF_STATE_SCHED) {
		bool parked = false;

		if (net) {
			dmaemu__lock(&net->lock);
			parked = napi_parked(n);
			dmaemu__unlock(&net->lock);
		}
		/* Twice in a row, a millisecond apart: not a schedule
		 * caught between its two steps. */
		if (parked && ++looks >= 2) {
			dmaemu__reportf(m, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
					"napi_disable(%p): the context is "
					"disabled already (or its poll never "
					"completed it): 4.14 would wait "
					"forever here",
					(void *)n);
			break;
		}
		if (!parked)
			looks = 0;
		msleep(1);
	}
	__atomic_and_fetch(&n->state, ~NAPIF_STATE_DISABLE, __ATOMIC_SEQ_CST);
}

bool napi_schedule_prep(struct napi_struct *n)
{
	DMAEMU__API_CALL(call, "napi_schedule_prep");
	unsigned long val, new;

	if (dmaemu__net_null(n, "napi_schedule_prep"))
		return false;
	val = nstate(n);
	do {
		if (val & NAPIF_STATE_DISABLE)
			return false;
		new = val | NAPIF_STATE_SCHED;
		/* Scheduled already: mark it missed, so that the poll's
		 * napi_complete_done() schedules it again. */
		if (val & NAPIF_STATE_SCHED)
			new |= NAPIF_STATE_MISSED;
	} while (!nstate_cas(n, &val, new));
	return !(val & NAPIF_STATE_SCHED);
}

void __napi_schedule(struct napi_struct *n)
{
	DMAEMU__API_CALL(call, "__napi_schedule");
	struct dmaemu_machine *m = n ? n->dmaemu_machine : NULL;

	if (!m || !dmaemu__machine_live(m)) {
		dmaemu__reportf(NULL, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"__napi_schedule(%p): not a context of a live "
				"machine (netif_napi_add()?)",
				(void *)n);
		return;
	}
	dmaemu__lock(&m->net->lock);
	if (list_empty(&n->poll_list))
		list_add_tail(&n->poll_list, &m->net->poll_list);
	dmaemu__unlock(&m->net->lock);
	if (dmaemu__raise_softirq(m, NET_RX_SOFTIRQ))
		dmaemu__reportf(m, DMAEMU_REPORT_ALLOC_FAILURE, 0, 0,
				"__napi_schedule: the interrupt thread cannot "
				"start");
}

bool napi_complete_done(struct napi_struct *n, int work_done)
{
	unsigned long val, new;

	(void)work_done;
	{
		DMAEMU__API_CALL(call, "napi_complete_done");

		if (dmaemu__net_null(n, "napi_complete_done"))
			return false;
	}
	val = nstate(n);
	__atomic_store_n(&n->dmaemu_done, 1, __ATOMIC_SEQ_CST);
	do {
		if (!(val & NAPIF_STATE_SCHED)) {
			dmaemu__reportf(n->dmaemu_machine,
					DMAEMU_REPORT_KERNEL_WARNING, 0, 0,
					"napi_complete_done(%p): the context "
					"is not scheduled (4.14 WARNs)",
					(void *)n);
			return false;
		}
		new = val & ~(NAPIF_STATE_MISSED | NAPIF_STATE_SCHED);
		if (val & NAPIF_STATE_MISSED)
			new |= NAPIF_STATE_SCHED;
	} while (!nstate_cas(n, &val, new));
	if (val & NAPIF_STATE_MISSED) {
		__napi_schedule(n);
		return false;
	}
	return true;
}

/* The driver's poll function, as "name file:line", for reports. */
static void poll_where(const struct napi_struct *n, char *buf, size_t size)
{
	buf[0] = '\0';
	dmaemu__code_where((const char *)(uintptr_t)n->poll + 1, buf, size);
}

/* 4.14's napi_poll(): poll @n once; a context that used its weight goes
 * on @repoll.  Return: the frames it did. */
static int napi_poll(struct dmaemu__net *net, struct napi_struct *n,
		     struct list_head *repoll)
{
	int work = 0, weight = n->weight;
	char where[256];

	if (nstate(n) & NAPIF_STATE_SCHED) {
		struct netstack *st = n->dev->dmaemu_stack;

		__atomic_store_n(&n->dmaemu_done, 0, __ATOMIC_SEQ_CST);
		__atomic_store_n(&n->dmaemu_polling, 1, __ATOMIC_SEQ_CST);
		work = n->poll(n, weight);
		__atomic_store_n(&n->dmaemu_polling, 0, __ATOMIC_SEQ_CST);
		if (st) {
			dmaemu__lock(&st->lock);
			st->st.napi_polls++;
			dmaemu__unlock(&st->lock);
		}
	} else {
		return 0;
	}
	if (work > weight) {
		poll_where(n, where, sizeof(where));
		dmaemu__reportf(net->m, DMAEMU_REPORT_KERNEL_WARNING, 0, 0,
				"NAPI poll %s returned %d, more than its "
				"budget %d (4.14: \"exceeded budget in poll\")",
				where, work, weight);
	}
	if (work < weight) {
		if (!__atomic_load_n(&n->dmaemu_done, __ATOMIC_SEQ_CST)) {
			poll_where(n, where, sizeof(where));
			dmaemu__reportf(net->m, DMAEMU_REPORT_BAD_ARGUMENT, 0,
					0,
					"NAPI poll %s of %s did %d of its "
					"budget %d and did not call "
					"napi_complete_done(): the context "
					"stays scheduled and is never polled "
					"again",
					where, n->dev->name, work, weight);
		}
		return work;
	}
	if (__atomic_load_n(&n->dmaemu_done, __ATOMIC_SEQ_CST)) {
		poll_where(n, where, sizeof(where));
		dmaemu__reportf(net->m, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"NAPI poll %s of %s used its whole budget %d "
				"and called napi_complete_done(): a driver "
				"that used the whole budget must leave the "
				"context scheduled (net_rx_action() polls it "
				"again)",
				where, n->dev->name, weight);
		return work;
	}
	if (napi_disable_pending(n)) {
		napi_complete(n);
		return work;
	}
	dmaemu__lock(&net->lock);
	list_add_tail(&n->poll_list, repoll);
	dmaemu__unlock(&net->lock);
	return work;
}

/* 4.14's net_rx_action(): NET_RX_SOFTIRQ on the interrupt thread. */
static void net_rx_action(struct dmaemu_machine *m)
{
	struct dmaemu__net *net = m->net;
	unsigned long time_limit = jiffies + NETDEV_BUDGET_JIFFIES;
	int budget = NETDEV_BUDGET;
	LIST_HEAD(list);
	LIST_HEAD(repoll);
	bool again;

	dmaemu__lock(&net->lock);
	list_splice_init(&net->poll_list, &list);
	dmaemu__unlock(&net->lock);
	for (;;) {
		struct napi_struct *n;

		dmaemu__lock(&net->lock);
		if (list_empty(&list)) {
			dmaemu__unlock(&net->lock);
			break;
		}
		n = list_first_entry(&list, struct napi_struct, poll_list);
		list_del_init(&n->poll_list);
		dmaemu__unlock(&net->lock);
		budget -= napi_poll(net, n, &repoll);
		if (budget <= 0 || time_after_eq(jiffies, time_limit))
			break;
	}
	dmaemu__lock(&net->lock);
	list_splice_tail_init(&net->poll_list, &list);
	list_splice_tail(&repoll, &list);
	list_splice(&list, &net->poll_list);
	again = !list_empty(&net->poll_list);
	dmaemu__unlock(&net->lock);
	if (again)
		(void)dmaemu__raise_softirq(m, NET_RX_SOFTIRQ);
	flush_frees(net);
}

/*
 * The address lists, after 4.14's net/core/dev_addr_lists.c
 * (__hw_addr_add_ex(), __hw_addr_del_ex(), __dev_set_rx_mode()): an
 * address already there gains a reference, one whose last reference
 * goes is removed; a change reaches the driver's filter through
 * ndo_set_rx_mode while the device is up.
 */
#define NETDEV_HW_ADDR_T_UNICAST 3
#define NETDEV_HW_ADDR_T_MULTICAST 4

static int addr_list_change(struct net_device *dev, const unsigned char *addr,
			    bool add, bool mc, bool *changed)
{
	struct netdev_hw_addr_list *l = mc ? &dev->mc : &dev->uc;
	struct netdev_hw_addr *ha, *found = NULL;
	unsigned char type =
		mc ? NETDEV_HW_ADDR_T_MULTICAST : NETDEV_HW_ADDR_T_UNICAST;
	size_t len = dev->addr_len ? dev->addr_len : ETH_ALEN;

	if (len > MAX_ADDR_LEN)
		len = MAX_ADDR_LEN;
	list_for_each_entry (ha, &l->list, list)
		if (ha->type == type && !memcmp(ha->addr, addr, len)) {
			found = ha;
			break;
		}
	if (add && found) {
		found->refcount++;
	} else if (add) {
		ha = dmaemu__calloc(1, sizeof(*ha));
		if (!ha)
			return -ENOMEM;
		memcpy(ha->addr, addr, len);
		ha->type = type;
		ha->refcount = 1;
		list_add_tail(&ha->list, &l->list);
		l->count++;
		*changed = true;
	} else if (!found) {
		return -ENOENT;
	} else if (--found->refcount == 0) {
		list_del(&found->list);
		dmaemu__free(found);
		l->count--;
		*changed = true;
	}
	return 0;
}

/* 4.14's __dev_set_rx_mode(): the driver programs its filter (it runs
 * outside the stack's call context). */
static void addr_set_rx_mode(struct net_device *dev)
{
	if ((dev->flags & IFF_UP) && dev->netdev_ops &&
	    dev->netdev_ops->ndo_set_rx_mode)
		dev->netdev_ops->ndo_set_rx_mode(dev);
}

#define ADDR_FN(name, add, mc)                                                \
	int name(struct net_device *dev, const unsigned char *addr)           \
	{                                                                     \
		bool changed = false;                                         \
		int ret;                                                      \
		{                                                             \
			DMAEMU__API_CALL(call, #name);                        \
			if (dmaemu__net_null(dev, #name) ||                   \
			    dmaemu__net_null(addr, #name))                    \
				return -EINVAL;                               \
			ret = addr_list_change(dev, addr, add, mc, &changed); \
		}                                                             \
		if (changed)                                                  \
			addr_set_rx_mode(dev);                                \
		return ret;                                                   \
	}

ADDR_FN(dev_uc_add, true, false)
ADDR_FN(dev_uc_del, false, false)
ADDR_FN(dev_mc_add, true, true)
ADDR_FN(dev_mc_del, false, true)
