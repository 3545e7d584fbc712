/* SPDX-License-Identifier: MIT */
/*
 * <linux/netdevice.h> - network devices, the part a NIC driver uses
 * (Linux 4.14, include/linux/netdevice.h, net/core/dev.c).
 *
 * A struct net_device is host memory with the driver's private area after
 * it (netdev_priv()).  register_netdev() gives it a name ("eth%d" numbered
 * per machine) and makes it known to the test's side of the stack
 * (<dmaemu/net.h>), which opens it (ndo_open), sends frames into
 * ndo_start_xmit and collects what the driver passes up.  The machine of
 * a net_device is that of its parent (SET_NETDEV_DEV(), a struct device
 * of an emulated device), or the current one.
 *
 * NAPI follows 4.14's net/core/dev.c: napi_schedule() puts the context
 * on its machine's poll list and raises NET_RX_SOFTIRQ, which the
 * machine's interrupt thread runs after the hard handler, in softirq
 * context (docs/kernel-headers.md): net_rx_action() polls each context
 * with its weight (at most 64) out of a budget of 300 per pass (and two
 * jiffies); a poll that used its whole weight is polled again, one that
 * did not must have called napi_complete_done().  Frames passed up
 * (netif_receive_skb(), napi_gro_receive(), netif_rx()) are read by the
 * stack at that call, through the CPU's cache (so a frame read before its
 * dma_sync_single_for_cpu() or unmap is reported at the driver's line),
 * and freed at the end of the softirq pass, as 4.14 defers its frees.
 */
#ifndef DMAEMU_KERNEL_LINUX_NETDEVICE_H
#define DMAEMU_KERNEL_LINUX_NETDEVICE_H

#include <stdbool.h>
#include <sys/socket.h> /* struct sockaddr: 4.14's <linux/socket.h> */
/* struct ifreq, IFNAMSIZ, IFF_*: 4.14's <uapi/linux/if.h>, whose
 * user-space copy is the C library's <net/if.h> (same layout; the
 * kernel's copy would clash with it in a test that includes both). */
#include <net/if.h>

#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/cache.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/ethtool.h>
#include <linux/interrupt.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/printk.h>
#include <linux/skbuff.h>
#include <linux/spinlock.h>
#include <linux/timer.h>
#include <linux/types.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef IFNAMSIZ
#define IFNAMSIZ 16
#endif
#ifdef MAX_ADDR_LEN
#undef MAX_ADDR_LEN /* the C library's <net/if_arp.h> says 7 */
#endif
#define MAX_ADDR_LEN 32

/* dev->flags (<uapi/linux/if.h>) */
#ifndef IFF_UP
#define IFF_UP 0x1
#define IFF_BROADCAST 0x2
#define IFF_DEBUG 0x4
#define IFF_LOOPBACK 0x8
#define IFF_POINTOPOINT 0x10
#define IFF_NOTRAILERS 0x20
#define IFF_RUNNING 0x40
#define IFF_NOARP 0x80
#define IFF_PROMISC 0x100
#define IFF_ALLMULTI 0x200
#define IFF_MASTER 0x400
#define IFF_SLAVE 0x800
#define IFF_MULTICAST 0x1000
#endif

/* dev->priv_flags (4.14's enum netdev_priv_flags; kept, not acted on). */
enum netdev_priv_flags {
	IFF_802_1Q_VLAN = 1 << 0,
	IFF_EBRIDGE = 1 << 1,
	IFF_BONDING = 1 << 2,
	IFF_ISATAP = 1 << 3,
	IFF_WAN_HDLC = 1 << 4,
	IFF_XMIT_DST_RELEASE = 1 << 5,
	IFF_DONT_BRIDGE = 1 << 6,
	IFF_DISABLE_NETPOLL = 1 << 7,
	IFF_MACVLAN_PORT = 1 << 8,
	IFF_BRIDGE_PORT = 1 << 9,
	IFF_OVS_DATAPATH = 1 << 10,
	IFF_TX_SKB_SHARING = 1 << 11,
	IFF_UNICAST_FLT = 1 << 12,
	IFF_TEAM_PORT = 1 << 13,
	IFF_SUPP_NOFCS = 1 << 14,
	IFF_LIVE_ADDR_CHANGE = 1 << 15,
	IFF_MACVLAN = 1 << 16,
	IFF_XMIT_DST_RELEASE_PERM = 1 << 17,
	IFF_IPVLAN_MASTER = 1 << 18,
	IFF_IPVLAN_SLAVE = 1 << 19,
	IFF_L3MDEV_MASTER = 1 << 20,
	IFF_NO_QUEUE = 1 << 21,
	IFF_OPENVSWITCH = 1 << 22,
	IFF_L3MDEV_SLAVE = 1 << 23,
	IFF_TEAM = 1 << 24,
	IFF_RXFH_CONFIGURED = 1 << 25,
	IFF_PHONY_HEADROOM = 1 << 26,
	IFF_MACSEC = 1 << 27,
};

/* dev->features: a few of 4.14's NETIF_F_* (kept, not acted on). */
typedef u64 netdev_features_t;
#define NETIF_F_SG (1ULL << 0)
#define NETIF_F_IP_CSUM (1ULL << 1)
#define NETIF_F_HW_CSUM (1ULL << 3)
#define NETIF_F_HIGHDMA (1ULL << 5)
#define NETIF_F_RXCSUM (1ULL << 29)
#define NETIF_F_LOOPBACK (1ULL << 31)

/* ndo_start_xmit's return values */
enum netdev_tx {
	NETDEV_TX_OK = 0x00,
	NETDEV_TX_BUSY = 0x10,
};
typedef enum netdev_tx netdev_tx_t;

/* netif_receive_skb() and netif_rx() */
#define NET_RX_SUCCESS 0
#define NET_RX_DROP 1

enum gro_result {
	GRO_MERGED,
	GRO_MERGED_FREE,
	GRO_HELD,
	GRO_NORMAL,
	GRO_DROP,
	GRO_CONSUMED,
};
typedef enum gro_result gro_result_t;

#define NAPI_POLL_WEIGHT 64

/**
 * struct net_device_stats - the counters a driver keeps (dev->stats).
 */
struct net_device_stats {
	unsigned long rx_packets, tx_packets, rx_bytes, tx_bytes;
	unsigned long rx_errors, tx_errors, rx_dropped, tx_dropped;
	unsigned long multicast, collisions;
	unsigned long rx_length_errors, rx_over_errors, rx_crc_errors;
	unsigned long rx_frame_errors, rx_fifo_errors, rx_missed_errors;
	unsigned long tx_aborted_errors, tx_carrier_errors, tx_fifo_errors;
	unsigned long tx_heartbeat_errors, tx_window_errors;
	unsigned long rx_compressed, tx_compressed;
};

/**
 * struct rtnl_link_stats64 - the counters of ndo_get_stats64 (4.14's
 * <uapi/linux/if_link.h>, which <linux/netdevice.h> reaches).
 */
struct rtnl_link_stats64 {
	__u64 rx_packets, tx_packets, rx_bytes, tx_bytes;
	__u64 rx_errors, tx_errors, rx_dropped, tx_dropped;
	__u64 multicast, collisions;
	__u64 rx_length_errors, rx_over_errors, rx_crc_errors;
	__u64 rx_frame_errors, rx_fifo_errors, rx_missed_errors;
	__u64 tx_aborted_errors, tx_carrier_errors, tx_fifo_errors;
	__u64 tx_heartbeat_errors, tx_window_errors;
	__u64 rx_compressed, tx_compressed;
	__u64 rx_nohandler;
};

struct net_device;
struct ifreq;
struct phy_device;

/* ndo_select_queue's fallback: the stack's own queue choice. */
typedef u16 (*select_queue_fallback_t)(struct net_device *dev,
				       struct sk_buff *skb);

/**
 * struct net_device_ops - the driver's operations (4.14's slots that the
 * emulated stack calls; the others exist so that a driver's table
 * compiles, and are never called).
 */
struct net_device_ops {
	int (*ndo_init)(struct net_device *dev);
	void (*ndo_uninit)(struct net_device *dev);
	int (*ndo_open)(struct net_device *dev);
	int (*ndo_stop)(struct net_device *dev);
	netdev_tx_t (*ndo_start_xmit)(struct sk_buff *skb,
				      struct net_device *dev);
	void (*ndo_set_rx_mode)(struct net_device *dev);
	int (*ndo_set_mac_address)(struct net_device *dev, void *addr);
	int (*ndo_validate_addr)(struct net_device *dev);
	int (*ndo_do_ioctl)(struct net_device *dev, struct ifreq *ifr, int cmd);
	int (*ndo_change_mtu)(struct net_device *dev, int new_mtu);
	void (*ndo_tx_timeout)(struct net_device *dev);
	struct net_device_stats *(*ndo_get_stats)(struct net_device *dev);
	void (*ndo_poll_controller)(struct net_device *dev);
	netdev_features_t (*ndo_fix_features)(struct net_device *dev,
					      netdev_features_t features);
	int (*ndo_set_features)(struct net_device *dev,
				netdev_features_t features);
	void (*ndo_get_stats64)(struct net_device *dev,
				struct rtnl_link_stats64 *storage);
	u16 (*ndo_select_queue)(struct net_device *dev, struct sk_buff *skb,
				void *accel_priv,
				select_queue_fallback_t fallback);
	void (*ndo_change_rx_flags)(struct net_device *dev, int flags);
	int (*ndo_vlan_rx_add_vid)(struct net_device *dev, __be16 proto,
				   u16 vid);
	int (*ndo_vlan_rx_kill_vid)(struct net_device *dev, __be16 proto,
				    u16 vid);
};

/**
 * struct netdev_hw_addr - a unicast or multicast address of a device
 * (dev->uc, dev->mc: dev_uc_add(), dev_mc_add()).
 */
struct netdev_hw_addr {
	struct list_head list;
	unsigned char addr[MAX_ADDR_LEN];
	unsigned char type;
	int refcount;
};

/** struct netdev_hw_addr_list - a list of addresses and its length. */
struct netdev_hw_addr_list {
	struct list_head list;
	int count;
};

/* Byte queue limits of a TX queue (counts only: no limit stops it). */
struct dql {
	unsigned int num_queued;
	unsigned int num_completed;
};

/* netdev_queue->state */
enum netdev_queue_state_t {
	__QUEUE_STATE_DRV_XOFF,
	__QUEUE_STATE_STACK_XOFF,
	__QUEUE_STATE_FROZEN,
};

/**
 * struct netdev_queue - a TX queue.
 * @dev:          its device.
 * @state:        __QUEUE_STATE_DRV_XOFF: stopped by the driver.
 * @trans_start:  jiffies of the last ndo_start_xmit() that took a frame
 *                (or of the stop); the watchdog compares it.
 * @dql:          bytes sent and completed (netdev_sent_queue()...).
 * @_xmit_lock:   held around ndo_start_xmit() and ndo_tx_timeout()
 *                (netif_tx_lock()).
 */
struct netdev_queue {
	struct net_device *dev;
	unsigned long state;
	unsigned long trans_start;
	struct dql dql;
	spinlock_t _xmit_lock;
};

/* net_device->state */
enum netdev_state_t {
	__LINK_STATE_START,
	__LINK_STATE_PRESENT,
	__LINK_STATE_NOCARRIER,
	__LINK_STATE_LINKWATCH_PENDING,
	__LINK_STATE_DORMANT,
};

/* napi_struct->state (4.14's order) */
enum {
	NAPI_STATE_SCHED,	 /* poll is scheduled */
	NAPI_STATE_MISSED,	 /* reschedule a napi */
	NAPI_STATE_DISABLE,	 /* disable pending */
	NAPI_STATE_NPSVC,	 /* netpoll: not used */
	NAPI_STATE_HASHED,	 /* in the napi hash: not used */
	NAPI_STATE_NO_BUSY_POLL, /* not used */
	NAPI_STATE_IN_BUSY_POLL, /* not used */
};
#define NAPIF_STATE_SCHED (1UL << NAPI_STATE_SCHED)
#define NAPIF_STATE_MISSED (1UL << NAPI_STATE_MISSED)
#define NAPIF_STATE_DISABLE (1UL << NAPI_STATE_DISABLE)

/**
 * struct napi_struct - a NAPI context.
 * @poll_list: its machine's poll list, while scheduled.
 * @state:     NAPI_STATE_* bits (atomic).
 * @weight:    frames per poll at most.
 * @poll:      the driver's poll function (softirq context).
 * @dev:       its device.
 * @dev_list:  the device's list of contexts.
 * @napi_id:   a number, unique in the process.
 * @dmaemu_*:  the emulated stack's: its machine, a poll in progress,
 *             napi_complete_done() called during it.
 */
struct napi_struct {
	struct list_head poll_list;
	unsigned long state;
	int weight;
	int (*poll)(struct napi_struct *napi, int budget);
	struct net_device *dev;
	struct list_head dev_list;
	unsigned int napi_id;
	void *dmaemu_machine;
	int dmaemu_polling, dmaemu_done;
};

/**
 * struct net_device - a network device (4.14's fields a driver touches).
 * @name:           "eth%d" until register_netdev() numbers it.
 * @dev:            its struct device; @dev.parent is the bus device
 *                  (SET_NETDEV_DEV()).
 * @netdev_ops:     the driver's operations.
 * @ethtool_ops:    kept, never called (<linux/ethtool.h>).
 * @phydev:         kept (4.14's PHY library is not emulated: NULL unless
 *                  the driver's own stub sets it).
 * @uc, @mc:        the unicast and multicast addresses (dev_uc_add(),
 *                  dev_mc_add(); netdev_for_each_mc_addr()).
 * @stats:          the driver's counters (ndo_get_stats or these).
 * @flags:          IFF_UP while open, IFF_BROADCAST|IFF_MULTICAST for
 *                  Ethernet.
 * @features, @hw_features, @vlan_features: kept.
 * @mtu, @min_mtu, @max_mtu: 1500, 68, 1500 for Ethernet.
 * @type, @hard_header_len, @addr_len: ARPHRD_ETHER (1), 14, 6.
 * @irq:            for the driver's use.
 * @watchdog_timeo: the TX watchdog's period (jiffies; 0: 5 s).
 * @tx_queue_len:   kept.
 * @dev_addr:       the hardware address (points into @dmaemu_addr).
 * @perm_addr, @broadcast: the permanent and broadcast addresses.
 * @addr_assign_type: NET_ADDR_PERM, or NET_ADDR_RANDOM after
 *                  eth_hw_addr_random().
 * @state:          __LINK_STATE_* bits (carrier, started).
 * @num_tx_queues, @real_num_tx_queues: TX queues (@_tx).
 * @napi_list:      its NAPI contexts.
 * @watchdog_timer: the TX watchdog (4.14's dev_watchdog()).
 * @dmaemu_*:       the emulated stack's bookkeeping (net/dev.c).
 */
struct net_device {
	char name[IFNAMSIZ];
	unsigned long mem_end, mem_start, base_addr;
	int irq;
	unsigned long state;
	struct list_head napi_list;
	netdev_features_t features, hw_features, wanted_features;
	netdev_features_t vlan_features;
	struct net_device_stats stats;
	atomic_long_t rx_dropped, tx_dropped;
	const struct net_device_ops *netdev_ops;
	const struct ethtool_ops *ethtool_ops;
	struct phy_device *phydev;
	struct netdev_hw_addr_list uc, mc;
	unsigned int flags, priv_flags;
	unsigned short gflags;
	unsigned int mtu, min_mtu, max_mtu;
	unsigned short type;
	unsigned short hard_header_len;
	unsigned short needed_headroom, needed_tailroom;
	unsigned char perm_addr[MAX_ADDR_LEN];
	unsigned char addr_assign_type;
	unsigned char addr_len;
	unsigned char broadcast[MAX_ADDR_LEN];
	unsigned char *dev_addr;
	struct netdev_queue *_tx;
	unsigned int num_tx_queues, real_num_tx_queues;
	unsigned long tx_queue_len;
	int watchdog_timeo;
	struct timer_list watchdog_timer;
	struct device dev;
	/* The emulated stack's. */
	unsigned char dmaemu_addr[MAX_ADDR_LEN];
	void *dmaemu_machine;
	void *dmaemu_stack;
	int dmaemu_registered;
	size_t dmaemu_priv_size;
};

#define NETDEV_ALIGN 32
#define NET_ADDR_PERM 0
#define NET_ADDR_RANDOM 1
#define NET_ADDR_STOLEN 2
#define NET_ADDR_SET 3

/** netdev_priv() - the driver's private area, after the net_device. */
static inline void *netdev_priv(const struct net_device *dev)
{
	return (char *)dev + ALIGN(sizeof(struct net_device), NETDEV_ALIGN);
}

#define SET_NETDEV_DEV(net, pdev) ((net)->dev.parent = (pdev))

/**
 * alloc_netdev_mqs() - a zeroed net_device with @sizeof_priv bytes of
 * private area (host memory), named @name, set up by @setup, with
 * @txqs TX queues (all stopped until the device opens).
 * Return: the device, or NULL (out of memory, @txqs 0: reported).
 */
struct net_device *alloc_netdev_mqs(int sizeof_priv, const char *name,
				    unsigned char name_assign_type,
				    void (*setup)(struct net_device *),
				    unsigned int txqs, unsigned int rxqs);
#define NET_NAME_UNKNOWN 0
#define NET_NAME_ENUM 1
#define alloc_netdev(sizeof_priv, name, name_assign_type, setup) \
	alloc_netdev_mqs(sizeof_priv, name, name_assign_type, setup, 1, 1)
/**
 * free_netdev() - free a net_device that is not registered (a registered
 * one: a bad-argument report, nothing freed); its NAPI contexts are
 * deleted.
 */
void free_netdev(struct net_device *dev);
/**
 * register_netdev() - number the name ("eth%d"), make the device known
 * to the stack (<dmaemu/net.h>).  Return: 0; -EINVAL (no netdev_ops or
 * no ndo_start_xmit, already registered: reported); -EEXIST.
 */
int register_netdev(struct net_device *dev);
/** unregister_netdev() - close it if open (ndo_stop), forget it. */
void unregister_netdev(struct net_device *dev);

/* dev_open()/dev_close(): as the stack's "ip link set up/down". */
int dev_open(struct net_device *dev);
int dev_close(struct net_device *dev);

static inline struct netdev_queue *netdev_get_tx_queue(
	const struct net_device *dev, unsigned int index)
{
	return &dev->_tx[index];
}

/* TX queue flow control, from any context. */
void netif_tx_start_queue(struct netdev_queue *q);
void netif_tx_stop_queue(struct netdev_queue *q);
void netif_tx_wake_queue(struct netdev_queue *q);

static inline bool netif_tx_queue_stopped(const struct netdev_queue *q)
{
	return test_bit(__QUEUE_STATE_DRV_XOFF, &q->state);
}

static inline void netif_start_queue(struct net_device *dev)
{
	netif_tx_start_queue(netdev_get_tx_queue(dev, 0));
}

static inline void netif_stop_queue(struct net_device *dev)
{
	netif_tx_stop_queue(netdev_get_tx_queue(dev, 0));
}

static inline void netif_wake_queue(struct net_device *dev)
{
	netif_tx_wake_queue(netdev_get_tx_queue(dev, 0));
}

static inline bool netif_queue_stopped(const struct net_device *dev)
{
	return netif_tx_queue_stopped(netdev_get_tx_queue(dev, 0));
}

void netif_tx_start_all_queues(struct net_device *dev);
void netif_tx_stop_all_queues(struct net_device *dev);
void netif_tx_wake_all_queues(struct net_device *dev);
#define netif_tx_disable(dev) netif_tx_stop_all_queues(dev)

static inline bool netif_running(const struct net_device *dev)
{
	return test_bit(__LINK_STATE_START, &dev->state);
}

static inline bool netif_carrier_ok(const struct net_device *dev)
{
	return !test_bit(__LINK_STATE_NOCARRIER, &dev->state);
}

static inline void netif_carrier_on(struct net_device *dev)
{
	clear_bit(__LINK_STATE_NOCARRIER, &dev->state);
}

static inline void netif_carrier_off(struct net_device *dev)
{
	set_bit(__LINK_STATE_NOCARRIER, &dev->state);
}

static inline bool netif_device_present(const struct net_device *dev)
{
	return test_bit(__LINK_STATE_PRESENT, &dev->state);
}

static inline void netif_trans_update(struct net_device *dev)
{
	WRITE_ONCE(netdev_get_tx_queue(dev, 0)->trans_start, jiffies);
}

/* The TX lock of every queue (4.14's netif_tx_lock(): queue 0 here). */
static inline void netif_tx_lock(struct net_device *dev)
{
	spin_lock(&netdev_get_tx_queue(dev, 0)->_xmit_lock);
}

static inline void netif_tx_unlock(struct net_device *dev)
{
	spin_unlock(&netdev_get_tx_queue(dev, 0)->_xmit_lock);
}

static inline void netif_tx_lock_bh(struct net_device *dev)
{
	local_bh_disable();
	netif_tx_lock(dev);
}

static inline void netif_tx_unlock_bh(struct net_device *dev)
{
	netif_tx_unlock(dev);
	local_bh_enable();
}

/*
 * Byte queue limits: the bytes handed to the card and completed.  More
 * completed than sent is a kernel-bug report in 4.14 (dql_completed()'s
 * BUG_ON): a bad-argument report here, and the counts are reset.
 */
void netdev_tx_sent_queue(struct netdev_queue *q, unsigned int bytes);
void netdev_tx_completed_queue(struct netdev_queue *q, unsigned int pkts,
			       unsigned int bytes);
void netdev_tx_reset_queue(struct netdev_queue *q);

static inline void netdev_sent_queue(struct net_device *dev, unsigned int bytes)
{
	netdev_tx_sent_queue(netdev_get_tx_queue(dev, 0), bytes);
}

static inline void netdev_completed_queue(struct net_device *dev,
					  unsigned int pkts, unsigned int bytes)
{
	netdev_tx_completed_queue(netdev_get_tx_queue(dev, 0), pkts, bytes);
}

static inline void netdev_reset_queue(struct net_device *dev)
{
	netdev_tx_reset_queue(netdev_get_tx_queue(dev, 0));
}

/* Receive: the frame goes up the stack (see the top of this header). */
int netif_receive_skb(struct sk_buff *skb);
int netif_rx(struct sk_buff *skb);
int netif_rx_ni(struct sk_buff *skb);
gro_result_t napi_gro_receive(struct napi_struct *napi, struct sk_buff *skb);

/* NAPI (4.14's net/core/dev.c). */
/**
 * netif_napi_add() - set up @napi for @dev with @poll; disabled until
 * napi_enable().  A weight above NAPI_POLL_WEIGHT is reported (4.14
 * prints an error) and kept.
 */
void netif_napi_add(struct net_device *dev, struct napi_struct *napi,
		    int (*poll)(struct napi_struct *, int), int weight);
/** netif_napi_del() - take @napi off its device (disabled first). */
void netif_napi_del(struct napi_struct *napi);
/** napi_enable() - allow @napi to be scheduled (it must be disabled). */
void napi_enable(struct napi_struct *napi);
/**
 * napi_disable() - wait until @napi is not scheduled nor polled, and
 * keep it so (may sleep).
 */
void napi_disable(struct napi_struct *napi);
/**
 * napi_schedule_prep() - take @napi's scheduled bit: true when the
 * caller must now call __napi_schedule(); false when it is disabled, or
 * already scheduled (then marked missed: it is polled once more).
 */
bool napi_schedule_prep(struct napi_struct *napi);
/** __napi_schedule() - put @napi on its machine's poll list, raise
 * NET_RX_SOFTIRQ. */
void __napi_schedule(struct napi_struct *napi);
#define __napi_schedule_irqoff(n) __napi_schedule(n)
/**
 * napi_complete_done() - the poll is done (@work_done frames): @napi is
 * no longer scheduled, unless it was missed meanwhile (then it is
 * scheduled again and false returned: keep the interrupts off).
 */
bool napi_complete_done(struct napi_struct *napi, int work_done);

static inline bool napi_schedule(struct napi_struct *n)
{
	if (napi_schedule_prep(n)) {
		__napi_schedule(n);
		return true;
	}
	return false;
}

static inline bool napi_complete(struct napi_struct *n)
{
	return napi_complete_done(n, 0);
}

/** napi_reschedule() - schedule @n again from its poll (4.14). */
static inline bool napi_reschedule(struct napi_struct *n)
{
	if (napi_schedule_prep(n)) {
		__napi_schedule(n);
		return true;
	}
	return false;
}

static inline bool napi_disable_pending(const struct napi_struct *n)
{
	return test_bit(NAPI_STATE_DISABLE, &n->state);
}

static inline void napi_synchronize(const struct napi_struct *n)
{
	while (test_bit(NAPI_STATE_SCHED, &n->state))
		msleep(1);
}

/*
 * The device's unicast and multicast addresses (4.14's
 * net/core/dev_addr_lists.c): what the driver's ndo_set_rx_mode programs
 * into its filter.  The stack above the driver adds them (a test calls
 * dev_mc_add() as a socket joining a group would); adding one already
 * there counts a reference, deleting drops one; each change calls
 * ndo_set_rx_mode while the device is up.  Return: 0, -ENOMEM, -EINVAL
 * (NULL device or address: reported), -ENOENT (not there).
 */
int dev_uc_add(struct net_device *dev, const unsigned char *addr);
int dev_uc_del(struct net_device *dev, const unsigned char *addr);
int dev_mc_add(struct net_device *dev, const unsigned char *addr);
int dev_mc_del(struct net_device *dev, const unsigned char *addr);

#define netdev_hw_addr_list_count(l) ((l)->count)
#define netdev_hw_addr_list_empty(l) (netdev_hw_addr_list_count(l) == 0)
#define netdev_hw_addr_list_for_each(ha, l) \
	list_for_each_entry (ha, &(l)->list, list)
#define netdev_uc_count(dev) netdev_hw_addr_list_count(&(dev)->uc)
#define netdev_uc_empty(dev) netdev_hw_addr_list_empty(&(dev)->uc)
#define netdev_for_each_uc_addr(ha, dev) \
	netdev_hw_addr_list_for_each(ha, &(dev)->uc)
#define netdev_mc_count(dev) netdev_hw_addr_list_count(&(dev)->mc)
#define netdev_mc_empty(dev) netdev_hw_addr_list_empty(&(dev)->mc)
#define netdev_for_each_mc_addr(ha, dev) \
	netdev_hw_addr_list_for_each(ha, &(dev)->mc)

/* Messages: dev_printk() on the parent device, named by the netdev. */
#define netdev_printk(level, ndev, fmt, ...)                            \
	dev_printk(level, (ndev)->dev.parent, "%s: " fmt, (ndev)->name, \
		   ##__VA_ARGS__)
#define netdev_err(ndev, ...) netdev_printk(KERN_ERR, ndev, __VA_ARGS__)
#define netdev_warn(ndev, ...) netdev_printk(KERN_WARNING, ndev, __VA_ARGS__)
#define netdev_notice(ndev, ...) netdev_printk(KERN_NOTICE, ndev, __VA_ARGS__)
#define netdev_info(ndev, ...) netdev_printk(KERN_INFO, ndev, __VA_ARGS__)
#ifdef DEBUG
#define netdev_dbg(ndev, ...) netdev_printk(KERN_DEBUG, ndev, __VA_ARGS__)
#else
#define netdev_dbg(ndev, fmt, ...)                                           \
	do {                                                                 \
		if (0)                                                       \
			netdev_printk(KERN_DEBUG, ndev, fmt, ##__VA_ARGS__); \
	} while (0)
#endif
#define netif_err(priv, type, ndev, ...) netdev_err(ndev, __VA_ARGS__)
#define netif_warn(priv, type, ndev, ...) netdev_warn(ndev, __VA_ARGS__)
#define netif_info(priv, type, ndev, ...) netdev_info(ndev, __VA_ARGS__)
#define netif_dbg(priv, type, ndev, ...) netdev_dbg(ndev, __VA_ARGS__)

#ifdef __cplusplus
}
#endif

#endif
