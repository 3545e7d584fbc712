/* SPDX-License-Identifier: MIT */
/*
 * <linux/skbuff.h> - socket buffers, the part a network driver uses
 * (Linux 4.14, include/linux/skbuff.h and net/core/skbuff.c).
 *
 * An sk_buff is host memory; its data buffer (skb->head) is kmalloc()
 * memory of the emulated machine, in the linear map, so that
 * dma_map_single(dev, skb->data, len, dir) is an ordinary streaming
 * mapping, with the cache model and every check.  The buffer is laid out
 * as 4.14 lays it out on a 64-bit machine:
 *
 *   head         data              tail             end
 *    |-headroom-|----- len --------|---tailroom-----|shared info room|
 *
 * @tail and @end are offsets from @head (sk_buff_data_t, as in 4.14 with
 * NET_SKBUFF_DATA_USES_OFFSET): use skb_tail_pointer() and
 * skb_end_pointer().  The room 4.14 keeps past @end for struct
 * skb_shared_info is kept (so sizes and truesize are 4.14's), but the
 * shared info itself lives in the sk_buff, in host memory: skb_shinfo()
 * points there.  There are no fragments: skb_shinfo(skb)->nr_frags is
 * always 0 and data_len 0, so the whole frame is linear (skb_headlen() ==
 * len) and a driver's fragment loop maps nothing.  No clones, no
 * sharing: skb_get() and users exist for the stack's reference counting.
 */
#ifndef DMAEMU_KERNEL_LINUX_SKBUFF_H
#define DMAEMU_KERNEL_LINUX_SKBUFF_H

#include <stdbool.h>
#include <string.h>

#include <linux/atomic.h>
#include <linux/bug.h>
#include <linux/cache.h>
#include <linux/dma-mapping.h>
#include <linux/gfp.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/spinlock.h>
#include <linux/types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct net_device;
struct napi_struct;

typedef unsigned int sk_buff_data_t;

/* ip_summed */
#define CHECKSUM_NONE 0
#define CHECKSUM_UNNECESSARY 1
#define CHECKSUM_COMPLETE 2
#define CHECKSUM_PARTIAL 3

/* pkt_type (<uapi/linux/if_packet.h>) */
#ifndef PACKET_HOST
#define PACKET_HOST 0
#define PACKET_BROADCAST 1
#define PACKET_MULTICAST 2
#define PACKET_OTHERHOST 3
#endif

/* 4.14: max(32, L1_CACHE_BYTES), so 128 here (as on 4.14's arm64). */
#define NET_SKB_PAD (L1_CACHE_BYTES > 32 ? L1_CACHE_BYTES : 32)
#define NET_IP_ALIGN 2
#define MAX_SKB_FRAGS 17

#define SKB_DATA_ALIGN(x) \
	(((x) + (SMP_CACHE_BYTES - 1)) & ~(SMP_CACHE_BYTES - 1))

/* A page fragment (4.14's skb_frag_t).  Never used: nr_frags is 0. */
typedef struct skb_frag_struct {
	struct {
		struct page *p;
	} page;
	__u32 page_offset;
	__u32 size;
} skb_frag_t;

static inline unsigned int skb_frag_size(const skb_frag_t *frag)
{
	return frag->size;
}

static inline struct page *skb_frag_page(const skb_frag_t *frag)
{
	return frag->page.p;
}

static inline void *skb_frag_address(const skb_frag_t *frag)
{
	return (char *)page_address(skb_frag_page(frag)) + frag->page_offset;
}

static inline dma_addr_t skb_frag_dma_map(struct device *dev,
					  const skb_frag_t *frag, size_t offset,
					  size_t size,
					  enum dma_data_direction dir)
{
	return dma_map_page(dev, skb_frag_page(frag),
			    frag->page_offset + offset, size, dir);
}

/* skb_shinfo(skb)->tx_flags */
#define SKBTX_HW_TSTAMP (1 << 0)
#define SKBTX_SW_TSTAMP (1 << 1)
#define SKBTX_IN_PROGRESS (1 << 2)

/**
 * struct skb_shared_info - 4.14's fields a driver reads.
 * @nr_frags: always 0 (no fragments).
 * @tx_flags: time-stamping requests (none are made).
 * @gso_size, @gso_segs, @gso_type: 0 (no segmentation offload).
 * @frags: never filled.
 */
struct skb_shared_info {
	unsigned char nr_frags;
	__u8 tx_flags;
	unsigned short gso_size;
	unsigned short gso_segs;
	unsigned int gso_type;
	skb_frag_t frags[MAX_SKB_FRAGS];
};

/**
 * struct sk_buff - a socket buffer (4.14's names).
 * @next, @prev: for sk_buff_head lists.
 * @dev:         the device it arrived on or leaves by.
 * @len:         bytes of data (all linear: @data_len is 0).
 * @data_len:    0.
 * @mac_len:     length of the link-layer header.
 * @truesize:    the buffer's size plus the sk_buff's.
 * @users:       references (kfree_skb() frees at 0).
 * @protocol:    the frame's EtherType, network order (eth_type_trans()).
 * @ip_summed:   CHECKSUM_NONE and friends.
 * @csum, @csum_start, @csum_offset: 4.14's checksum fields (the stack
 *               never asks for CHECKSUM_PARTIAL: no offloads; a driver
 *               or test may set them, skb_copy_and_csum_dev() honours
 *               them).
 * @pkt_type:    PACKET_HOST and friends (eth_type_trans()).
 * @xmit_more:   ndo_start_xmit(): more frames follow at once.
 * @queue_mapping: the TX queue.
 * @priority, @mark, @hash, @vlan_tci: kept, unused.
 * @mac_header, @network_header, @transport_header: offsets from @head
 *               (0xffff: not set).
 * @cb:          the layer's private area (48 bytes).
 * @head, @data: the buffer and the first byte of data (emulated memory).
 * @tail, @end:  offsets from @head.
 * @dmaemu_shinfo: what skb_shinfo() points at.
 * @dmaemu_machine: the machine whose memory holds @head.
 */
struct sk_buff {
	struct sk_buff *next;
	struct sk_buff *prev;
	struct net_device *dev;
	unsigned int len, data_len;
	__u16 mac_len, hdr_len;
	unsigned int truesize;
	atomic_t users;
	__be16 protocol;
	__u8 ip_summed;
	union {
		__wsum csum;
		struct {
			__u16 csum_start;
			__u16 csum_offset;
		};
	};
	__u8 pkt_type;
	__u8 xmit_more;
	__u16 queue_mapping;
	__u32 priority;
	__u32 mark;
	__u32 hash;
	__u16 vlan_tci;
	__u16 mac_header, network_header, transport_header;
	char cb[48] __aligned(8);
	unsigned char *head, *data;
	sk_buff_data_t tail, end;
	struct skb_shared_info dmaemu_shinfo;
	void *dmaemu_machine;
};

/** struct sk_buff_head - a list of sk_buffs with its lock. */
struct sk_buff_head {
	struct sk_buff *next;
	struct sk_buff *prev;
	__u32 qlen;
	spinlock_t lock;
};

#define skb_shinfo(skb) (&(skb)->dmaemu_shinfo)

/** skb_reserve() - @len bytes of headroom (an empty buffer only). */
static inline void skb_reserve(struct sk_buff *skb, int len)
{
	skb->data += len;
	skb->tail += (sk_buff_data_t)len;
}

/**
 * alloc_skb() - an sk_buff with @size bytes of buffer (no headroom)
 * from the current machine, or NULL (out of memory, or no machine: a
 * bad-argument report).  GFP_KERNEL in atomic context is a
 * sleep-in-atomic report.
 */
struct sk_buff *alloc_skb(unsigned int size, gfp_t gfp_mask);
/**
 * __netdev_alloc_skb() - alloc_skb() of @len + NET_SKB_PAD on @dev's
 * machine, with NET_SKB_PAD of headroom reserved and skb->dev = @dev.
 */
struct sk_buff *__netdev_alloc_skb(struct net_device *dev, unsigned int len,
				   gfp_t gfp_mask);
#define netdev_alloc_skb(dev, len) __netdev_alloc_skb(dev, len, GFP_ATOMIC)
#define dev_alloc_skb(len) netdev_alloc_skb(NULL, len)
/** netdev_alloc_skb_ip_align() - NET_IP_ALIGN more of headroom (so the
 * IP header after a 14-byte Ethernet header is 4-byte aligned). */
static inline struct sk_buff *netdev_alloc_skb_ip_align(struct net_device *dev,
							unsigned int length)
{
	struct sk_buff *skb =
		__netdev_alloc_skb(dev, length + NET_IP_ALIGN, GFP_ATOMIC);

	if (NET_IP_ALIGN && skb)
		skb_reserve(skb, NET_IP_ALIGN);
	return skb;
}
#define __dev_alloc_skb(len, gfp) __netdev_alloc_skb(NULL, len, gfp)
/**
 * __napi_alloc_skb() - as __netdev_alloc_skb() for @napi's device, with
 * NET_SKB_PAD + NET_IP_ALIGN of headroom; from a NAPI poll.
 */
struct sk_buff *__napi_alloc_skb(struct napi_struct *napi, unsigned int len,
				 gfp_t gfp_mask);
#define napi_alloc_skb(napi, len) __napi_alloc_skb(napi, len, GFP_ATOMIC)
/**
 * build_skb() - an sk_buff around @data, a kmalloc() buffer of
 * @frag_size bytes (0: its kmalloc size) that includes the shared info
 * room at its end (SKB_DATA_ALIGN(sizeof(struct skb_shared_info))).
 * The sk_buff owns @data from then on (kfree_skb() frees it).  @data not
 * kmalloc() memory of a machine, or too small: a bad-argument report and
 * NULL.
 */
struct sk_buff *build_skb(void *data, unsigned int frag_size);

/**
 * kfree_skb() - drop a reference; at the last one free the buffer and
 * the sk_buff.  NULL: nothing.  A freed or unknown pointer: a
 * bad-argument report (double free).  Freeing a buffer a live mapping
 * holds is the free-of-mapped-memory report of kfree().
 */
void kfree_skb(struct sk_buff *skb);
/** consume_skb() - kfree_skb() of a frame that was used, not dropped. */
void consume_skb(struct sk_buff *skb);
#define dev_kfree_skb(skb) consume_skb(skb)
/** dev_kfree_skb_any() - free from any context (as dev_kfree_skb()). */
void dev_kfree_skb_any(struct sk_buff *skb);
/** dev_kfree_skb_irq() - free from hard-irq context (as dev_kfree_skb()). */
void dev_kfree_skb_irq(struct sk_buff *skb);
#define napi_consume_skb(skb, budget) dev_kfree_skb_any(skb)

static inline struct sk_buff *skb_get(struct sk_buff *skb)
{
	atomic_inc(&skb->users);
	return skb;
}

static inline unsigned char *skb_tail_pointer(const struct sk_buff *skb)
{
	return skb->head + skb->tail;
}

static inline unsigned char *skb_end_pointer(const struct sk_buff *skb)
{
	return skb->head + skb->end;
}

static inline unsigned int skb_end_offset(const struct sk_buff *skb)
{
	return skb->end;
}

static inline void skb_reset_tail_pointer(struct sk_buff *skb)
{
	skb->tail = (sk_buff_data_t)(skb->data - skb->head);
}

static inline void skb_set_tail_pointer(struct sk_buff *skb, const int offset)
{
	skb_reset_tail_pointer(skb);
	skb->tail += (sk_buff_data_t)offset;
}

static inline unsigned int skb_headlen(const struct sk_buff *skb)
{
	return skb->len - skb->data_len;
}

static inline bool skb_is_nonlinear(const struct sk_buff *skb)
{
	return skb->data_len != 0;
}

static inline unsigned int skb_headroom(const struct sk_buff *skb)
{
	return (unsigned int)(skb->data - skb->head);
}

static inline int skb_tailroom(const struct sk_buff *skb)
{
	return skb_is_nonlinear(skb) ? 0 : (int)(skb->end - skb->tail);
}

/**
 * skb_put() - add @len bytes of data at the tail; returns where they go.
 * Past the end: a kernel-bug report ("skb_over_panic"), then abort(), as
 * 4.14's BUG().
 */
void *skb_put(struct sk_buff *skb, unsigned int len);
/** skb_put_data() - skb_put() and copy @len bytes from @data there. */
void *skb_put_data(struct sk_buff *skb, const void *data, unsigned int len);
/** skb_push() - add @len bytes at the front; before the head: as skb_put. */
void *skb_push(struct sk_buff *skb, unsigned int len);
/** skb_pull() - remove @len bytes from the front; NULL if len is less. */
void *skb_pull(struct sk_buff *skb, unsigned int len);
/** skb_trim() - cut the data to @len bytes (no effect if shorter). */
void skb_trim(struct sk_buff *skb, unsigned int len);

static inline void *__skb_put(struct sk_buff *skb, unsigned int len)
{
	return skb_put(skb, len);
}

static inline void *__skb_pull(struct sk_buff *skb, unsigned int len)
{
	return skb_pull(skb, len);
}

static inline void skb_copy_to_linear_data(struct sk_buff *skb,
					   const void *from,
					   const unsigned int len)
{
	memcpy(skb->data, from, len);
}

static inline void skb_copy_to_linear_data_offset(struct sk_buff *skb,
						  const int offset,
						  const void *from,
						  const unsigned int len)
{
	memcpy(skb->data + offset, from, len);
}

static inline void skb_copy_from_linear_data(const struct sk_buff *skb,
					     void *to, const unsigned int len)
{
	memcpy(to, skb->data, len);
}

/** skb_checksum_none_assert() - ip_summed must be CHECKSUM_NONE. */
static inline void skb_checksum_none_assert(const struct sk_buff *skb)
{
	WARN_ON(skb->ip_summed != CHECKSUM_NONE);
}

/** skb_tx_timestamp() - no software time stamps are requested: nothing. */
static inline void skb_tx_timestamp(struct sk_buff *skb)
{
	(void)skb;
}

/* The header offsets. */
static inline unsigned char *skb_mac_header(const struct sk_buff *skb)
{
	return skb->head + skb->mac_header;
}

static inline int skb_mac_header_was_set(const struct sk_buff *skb)
{
	return skb->mac_header != (__u16)~0U;
}

static inline void skb_reset_mac_header(struct sk_buff *skb)
{
	skb->mac_header = (__u16)(skb->data - skb->head);
}

static inline void skb_set_mac_header(struct sk_buff *skb, const int offset)
{
	skb_reset_mac_header(skb);
	skb->mac_header += (__u16)offset;
}

static inline unsigned char *skb_network_header(const struct sk_buff *skb)
{
	return skb->head + skb->network_header;
}

static inline void skb_reset_network_header(struct sk_buff *skb)
{
	skb->network_header = (__u16)(skb->data - skb->head);
}

static inline unsigned char *skb_transport_header(const struct sk_buff *skb)
{
	return skb->head + skb->transport_header;
}

static inline void skb_reset_transport_header(struct sk_buff *skb)
{
	skb->transport_header = (__u16)(skb->data - skb->head);
}

static inline void skb_set_network_header(struct sk_buff *skb, const int offset)
{
	skb_reset_network_header(skb);
	skb->network_header += (__u16)offset;
}

static inline void skb_set_transport_header(struct sk_buff *skb,
					    const int offset)
{
	skb_reset_transport_header(skb);
	skb->transport_header += (__u16)offset;
}

static inline int skb_transport_header_was_set(const struct sk_buff *skb)
{
	return skb->transport_header != (__u16)~0U;
}

/* Offsets from skb->data (negative for a header already pulled). */
static inline int skb_mac_offset(const struct sk_buff *skb)
{
	return (int)(skb_mac_header(skb) - skb->data);
}

static inline int skb_network_offset(const struct sk_buff *skb)
{
	return (int)(skb_network_header(skb) - skb->data);
}

static inline int skb_transport_offset(const struct sk_buff *skb)
{
	return (int)(skb_transport_header(skb) - skb->data);
}

static inline u32 skb_network_header_len(const struct sk_buff *skb)
{
	return (u32)(skb->transport_header - skb->network_header);
}

static inline void skb_record_rx_queue(struct sk_buff *skb, u16 rx_queue)
{
	skb->queue_mapping = (u16)(rx_queue + 1);
}

static inline u16 skb_get_queue_mapping(const struct sk_buff *skb)
{
	return skb->queue_mapping;
}

/* sk_buff_head lists (the locked forms take the list's lock). */
static inline void skb_queue_head_init(struct sk_buff_head *list)
{
	spin_lock_init(&list->lock);
	list->prev = list->next = (struct sk_buff *)list;
	list->qlen = 0;
}

static inline void __skb_queue_head_init(struct sk_buff_head *list)
{
	list->prev = list->next = (struct sk_buff *)list;
	list->qlen = 0;
}

static inline __u32 skb_queue_len(const struct sk_buff_head *list)
{
	return list->qlen;
}

static inline int skb_queue_empty(const struct sk_buff_head *list)
{
	return list->next == (const struct sk_buff *)list;
}

static inline struct sk_buff *skb_peek(const struct sk_buff_head *list)
{
	struct sk_buff *skb = list->next;

	return skb == (const struct sk_buff *)list ? NULL : skb;
}

static inline void __skb_queue_tail(struct sk_buff_head *list,
				    struct sk_buff *skb)
{
	struct sk_buff *prev = list->prev;

	skb->next = (struct sk_buff *)list;
	skb->prev = prev;
	prev->next = skb;
	list->prev = skb;
	list->qlen++;
}

static inline void __skb_unlink(struct sk_buff *skb, struct sk_buff_head *list)
{
	struct sk_buff *next = skb->next, *prev = skb->prev;

	list->qlen--;
	next->prev = prev;
	prev->next = next;
	skb->next = skb->prev = NULL;
}

static inline struct sk_buff *__skb_dequeue(struct sk_buff_head *list)
{
	struct sk_buff *skb = skb_peek(list);

	if (skb)
		__skb_unlink(skb, list);
	return skb;
}

static inline void skb_queue_tail(struct sk_buff_head *list,
				  struct sk_buff *skb)
{
	unsigned long flags;

	spin_lock_irqsave(&list->lock, flags);
	__skb_queue_tail(list, skb);
	spin_unlock_irqrestore(&list->lock, flags);
}

static inline struct sk_buff *skb_dequeue(struct sk_buff_head *list)
{
	unsigned long flags;
	struct sk_buff *skb;

	spin_lock_irqsave(&list->lock, flags);
	skb = __skb_dequeue(list);
	spin_unlock_irqrestore(&list->lock, flags);
	return skb;
}

static inline void __skb_queue_purge(struct sk_buff_head *list)
{
	struct sk_buff *skb;

	while ((skb = __skb_dequeue(list)))
		kfree_skb(skb);
}

static inline void skb_queue_purge(struct sk_buff_head *list)
{
	struct sk_buff *skb;

	while ((skb = skb_dequeue(list)))
		kfree_skb(skb);
}

#define skb_queue_walk(queue, skb)                                  \
	for (skb = (queue)->next; skb != (struct sk_buff *)(queue); \
	     skb = skb->next)

/*
 * Checksums (4.14's lib/checksum.c and net/core/skbuff.c): the Internet
 * one's-complement sum, inline so that the bytes summed are the driver's
 * own reads.
 */
static inline __wsum dmaemu_csum_partial(const void *buf, int len, __wsum sum)
{
	const unsigned char *p = (const unsigned char *)buf;
	u64 acc = sum;
	u16 w;

	for (; len > 1; len -= 2, p += 2) {
		memcpy(&w, p, 2);
		acc += w;
	}
	if (len > 0) {
		w = 0;
		memcpy(&w, p, 1);
		acc += w;
	}
	while (acc >> 32)
		acc = (acc & 0xffffffffU) + (acc >> 32);
	return (__wsum)acc;
}

/** csum_fold() - fold a 32-bit partial sum to the 16-bit checksum. */
static inline __sum16 csum_fold(__wsum csum)
{
	u32 sum = csum;

	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return (__sum16)~sum;
}

/** skb_checksum_start_offset() - where CHECKSUM_PARTIAL's sum starts,
 * from skb->data. */
static inline int skb_checksum_start_offset(const struct sk_buff *skb)
{
	return skb->csum_start - (int)skb_headroom(skb);
}

/**
 * skb_copy_and_csum_dev() - copy the frame to @to (a driver's bounce or
 * descriptor buffer) and, for CHECKSUM_PARTIAL, store the checksum of
 * the bytes from csum_start at csum_start + csum_offset of the copy, as
 * a device without checksum offload needs (4.14's net/core/skbuff.c).
 */
static inline void skb_copy_and_csum_dev(const struct sk_buff *skb, u8 *to)
{
	unsigned int csstart;
	__wsum csum = 0;

	if (skb->ip_summed == CHECKSUM_PARTIAL)
		csstart = (unsigned int)skb_checksum_start_offset(skb);
	else
		csstart = skb_headlen(skb);
	BUG_ON(csstart > skb_headlen(skb));
	memcpy(to, skb->data, skb->len);
	if (csstart != skb->len)
		csum = dmaemu_csum_partial(to + csstart,
					   (int)(skb->len - csstart), 0);
	if (skb->ip_summed == CHECKSUM_PARTIAL) {
		__sum16 folded = csum_fold(csum);

		memcpy(to + csstart + skb->csum_offset, &folded,
		       sizeof(folded));
	}
}

/*
 * 4.14's <linux/net.h> (which <linux/skbuff.h> reaches): net_ratelimit()
 * and the net_*_ratelimited() messages.  As pr_err_ratelimited()
 * (<linux/printk.h>), every message prints: net_ratelimit() is 1.
 */
static inline int net_ratelimit(void)
{
	return 1;
}
#define net_ratelimited_function(function, ...) \
	do {                                    \
		if (net_ratelimit())            \
			function(__VA_ARGS__);  \
	} while (0)
#define net_emerg_ratelimited(fmt, ...) \
	net_ratelimited_function(pr_emerg, fmt, ##__VA_ARGS__)
#define net_alert_ratelimited(fmt, ...) \
	net_ratelimited_function(pr_alert, fmt, ##__VA_ARGS__)
#define net_crit_ratelimited(fmt, ...) \
	net_ratelimited_function(pr_crit, fmt, ##__VA_ARGS__)
#define net_err_ratelimited(fmt, ...) \
	net_ratelimited_function(pr_err, fmt, ##__VA_ARGS__)
#define net_notice_ratelimited(fmt, ...) \
	net_ratelimited_function(pr_notice, fmt, ##__VA_ARGS__)
#define net_warn_ratelimited(fmt, ...) \
	net_ratelimited_function(pr_warn, fmt, ##__VA_ARGS__)
#define net_info_ratelimited(fmt, ...) \
	net_ratelimited_function(pr_info, fmt, ##__VA_ARGS__)
#define net_dbg_ratelimited(fmt, ...) \
	net_ratelimited_function(pr_debug, fmt, ##__VA_ARGS__)

#ifdef __cplusplus
}
#endif

#endif
