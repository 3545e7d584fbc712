// SPDX-License-Identifier: MIT
/*
 * skbuff.c - socket buffers (<linux/skbuff.h>), after 4.14's
 * net/core/skbuff.c (__alloc_skb(), __build_skb(), kfree_skb(),
 * skb_put(), skb_push(), skb_pull(), skb_over_panic()).
 *
 * How it works.  The sk_buff is host memory; its buffer is kmalloc()
 * memory of a machine, sized as 4.14 sizes it (SKB_DATA_ALIGN(size) and
 * the room of the shared info after @end), so a driver maps skb->data
 * like any kmalloc() buffer.  The shared info lives in the sk_buff
 * (skb_shinfo()), never in emulated memory: nothing the library writes
 * lands in a line the driver may have mapped.  Every live sk_buff is in
 * a process-wide set (a tsearch() tree under live_lock), so that a
 * double kfree_skb() or a pointer that is no sk_buff is a report, never
 * a read of freed memory.  Accesses to the data by the library (the
 * stack's copy of a frame in and out) go through the CPU model
 * (dmaemu_cpu_read()/dmaemu_cpu_write()) in the driver's call context.
 */
#include "config.h"

#include <errno.h>
#include <search.h>
#include <stdio.h>
#include <stdlib.h>

#include <linux/slab.h>

#include "net/net.h"

static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;
static void *live; /* tsearch() root: the live sk_buffs (live_lock) */

static int cmp_ptr(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;

	return x < y ? -1 : x > y;
}

static bool live_add(struct sk_buff *skb)
{
	void *r;

	dmaemu__lock(&live_lock);
	r = tsearch(skb, &live, cmp_ptr);
	dmaemu__unlock(&live_lock);
	return r != NULL;
}

bool dmaemu__skb_live(const struct sk_buff *skb)
{
	void *r;

	dmaemu__lock(&live_lock);
	r = tfind(skb, &live, cmp_ptr);
	dmaemu__unlock(&live_lock);
	return r != NULL;
}

/* Take @skb out of the set; false when it was not there. */
static bool live_del(const struct sk_buff *skb)
{
	bool found;

	dmaemu__lock(&live_lock);
	found = tfind(skb, &live, cmp_ptr) != NULL;
	if (found)
		tdelete(skb, &live, cmp_ptr);
	dmaemu__unlock(&live_lock);
	return found;
}

bool dmaemu__net_null(const void *p, const char *fn)
{
	if (p)
		return false;
	dmaemu__reportf(NULL, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
			"%s(NULL): NULL argument", fn);
	return true;
}

struct dmaemu_machine *dmaemu__skb_machine(const struct sk_buff *skb)
{
	return skb->dmaemu_machine;
}

#define SHINFO_ROOM SKB_DATA_ALIGN(sizeof(struct skb_shared_info))
#define SKB_TRUESIZE(x) \
	((x) + SKB_DATA_ALIGN(sizeof(struct sk_buff)) + SHINFO_ROOM)

/* An sk_buff around @data (@size bytes before the shared info room). */
static struct sk_buff *wrap(struct dmaemu_machine *m, void *data,
			    unsigned int size)
{
	struct sk_buff *skb = dmaemu__calloc(1, sizeof(*skb));

	if (!skb)
		return NULL;
	skb->head = skb->data = data;
	skb->tail = 0;
	skb->end = size;
	skb->truesize = SKB_TRUESIZE(size);
	atomic_set(&skb->users, 1);
	skb->mac_header = (__u16)~0U;
	skb->transport_header = (__u16)~0U;
	skb->dmaemu_machine = m;
	if (!live_add(skb)) {
		dmaemu__free(skb);
		return NULL;
	}
	return skb;
}

struct sk_buff *dmaemu__alloc_skb(struct dmaemu_machine *m, unsigned int size,
				  gfp_t gfp, const char *fn)
{
	struct sk_buff *skb;
	void *data;

	if (!m) {
		dmaemu__reportf(NULL, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"%s(%u): no machine to allocate from", fn,
				size);
		return NULL;
	}
	if (size > (1u << 30)) {
		dmaemu__reportf(m, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"%s(%u): size too large", fn, size);
		return NULL;
	}
	size = SKB_DATA_ALIGN(size);
	data = dmaemu__kmalloc(m, size + SHINFO_ROOM, gfp & ~__GFP_ZERO, fn);
	if (!data)
		return NULL;
	skb = wrap(m, data, size);
	if (!skb)
		dmaemu__kfree(data, fn);
	return skb;
}

struct sk_buff *alloc_skb(unsigned int size, gfp_t gfp_mask)
{
	DMAEMU__API_CALL(call, "alloc_skb");

	return dmaemu__alloc_skb(dmaemu_machine_current(), size, gfp_mask,
				 "alloc_skb");
}

struct sk_buff *__netdev_alloc_skb(struct net_device *dev, unsigned int len,
				   gfp_t gfp_mask)
{
	DMAEMU__API_CALL(call, "__netdev_alloc_skb");
	struct dmaemu_machine *m =
		dev ? dmaemu__netdev_machine(dev) : dmaemu_machine_current();
	struct sk_buff *skb;

	/* len + the headroom must not wrap to a small size. */
	skb = dmaemu__alloc_skb(m, len > (1u << 30) ? len : len + NET_SKB_PAD,
				gfp_mask, "__netdev_alloc_skb");
	if (!skb)
		return NULL;
	skb_reserve(skb, NET_SKB_PAD);
	skb->dev = dev;
	return skb;
}

struct sk_buff *__napi_alloc_skb(struct napi_struct *napi, unsigned int len,
				 gfp_t gfp_mask)
{
	DMAEMU__API_CALL(call, "__napi_alloc_skb");
	struct net_device *dev = napi ? napi->dev : NULL;
	struct dmaemu_machine *m =
		dev ? dmaemu__netdev_machine(dev) : dmaemu_machine_current();
	struct sk_buff *skb;

	skb = dmaemu__alloc_skb(
		m, len > (1u << 30) ? len : len + NET_SKB_PAD + NET_IP_ALIGN,
		gfp_mask, "__napi_alloc_skb");
	if (!skb)
		return NULL;
	skb_reserve(skb, NET_SKB_PAD + NET_IP_ALIGN);
	skb->dev = dev;
	return skb;
}

struct sk_buff *build_skb(void *data, unsigned int frag_size)
{
	DMAEMU__API_CALL(call, "build_skb");
	struct dmaemu_machine *m = dmaemu_machine_current();
	size_t obj, size;
	struct sk_buff *skb;

	if (!data) {
		dmaemu__reportf(m, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"build_skb(NULL, %u): NULL data", frag_size);
		return NULL;
	}
	obj = ksize(data); /* reports what is not kmalloc() memory */
	if (!obj)
		return NULL;
	size = frag_size ? frag_size : obj;
	if (size > obj || size <= SHINFO_ROOM) {
		dmaemu__reportf(m, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"build_skb(%p, %u): %s", data, frag_size,
				size > obj ? "frag_size larger than the "
					     "kmalloc() object"
					   : "no room for the shared info");
		return NULL;
	}
	skb = wrap(m, data, (unsigned int)(size - SHINFO_ROOM));
	if (skb)
		skb->truesize =
			SKB_TRUESIZE((unsigned int)(size - SHINFO_ROOM));
	return skb;
}

/* The last reference is gone: the buffer and the sk_buff go. */
static void free_skb(struct sk_buff *skb, const char *fn)
{
	(void)live_del(skb);
	dmaemu__kfree(skb->head, fn);
	dmaemu__free(skb);
}

/* Drop a reference of @skb for @fn; reported when it is no live one. */
static void put_skb(struct sk_buff *skb, const char *fn)
{
	if (!skb)
		return;
	if (!dmaemu__skb_live(skb)) {
		dmaemu__reportf(NULL, DMAEMU_REPORT_BAD_ARGUMENT, 0, 0,
				"%s(%p): not a live sk_buff (freed already?)",
				fn, (void *)skb);
		return;
	}
	if (atomic_dec_and_test(&skb->users))
		free_skb(skb, fn);
}

void kfree_skb(struct sk_buff *skb)
{
	DMAEMU__API_CALL(call, "kfree_skb");

	put_skb(skb, "kfree_skb");
}

void consume_skb(struct sk_buff *skb)
{
	DMAEMU__API_CALL(call, "consume_skb");

	put_skb(skb, "consume_skb");
}

void dev_kfree_skb_any(struct sk_buff *skb)
{
	DMAEMU__API_CALL(call, "dev_kfree_skb_any");

	put_skb(skb, "dev_kfree_skb_any");
}

void dev_kfree_skb_irq(struct sk_buff *skb)
{
	DMAEMU__API_CALL(call, "dev_kfree_skb_irq");

	put_skb(skb, "dev_kfree_skb_irq");
}

/* 4.14's skb_panic(): what BUG() does, with the facts. */
static void skb_panic(struct sk_buff *skb, unsigned int sz, const char *msg)
{
	dmaemu__reportf(
		dmaemu__skb_machine(skb), DMAEMU_REPORT_KERNEL_BUG, 0, 0,
		"%s: len:%u put:%u head:%p data:%p tail:%#x end:%#x "
		"dev:%s",
		msg, skb->len, sz, (void *)skb->head, (void *)skb->data,
		skb->tail, skb->end, skb->dev ? skb->dev->name : "<NULL>");
	fflush(NULL);
	abort(); /* the kernel's BUG(): nothing after it runs */
}

void *skb_put(struct sk_buff *skb, unsigned int len)
{
	DMAEMU__API_CALL(call, "skb_put");
	unsigned char *tmp;

	if (dmaemu__net_null(skb, "skb_put"))
		return NULL;
	tmp = skb_tail_pointer(skb);
	if ((uint64_t)skb->tail + len > skb->end)
		skb_panic(skb, len, "skb_over_panic");
	skb->tail += len;
	skb->len += len;
	return tmp;
}

void *skb_put_data(struct sk_buff *skb, const void *data, unsigned int len)
{
	DMAEMU__API_CALL(call, "skb_put_data");
	void *tmp;

	if (dmaemu__net_null(skb, "skb_put_data"))
		return NULL;
	if (!data && len) {
		dmaemu__reportf(
			dmaemu__skb_machine(skb), DMAEMU_REPORT_BAD_ARGUMENT, 0,
			0,
			"skb_put_data(%p, NULL, %u): NULL data; nothing "
			"added",
			(void *)skb, len);
		return NULL;
	}
	if ((uint64_t)skb->tail + len > skb->end)
		skb_panic(skb, len, "skb_over_panic");
	tmp = skb_tail_pointer(skb);
	skb->tail += len;
	skb->len += len;
	(void)dmaemu__net_copy(tmp, data, len, true);
	return tmp;
}

void *skb_push(struct sk_buff *skb, unsigned int len)
{
	DMAEMU__API_CALL(call, "skb_push");

	if (dmaemu__net_null(skb, "skb_push"))
		return NULL;
	if (len > skb_headroom(skb))
		skb_panic(skb, len, "skb_under_panic");
	skb->data -= len;
	skb->len += len;
	return skb->data;
}

void *skb_pull(struct sk_buff *skb, unsigned int len)
{
	DMAEMU__API_CALL(call, "skb_pull");

	if (dmaemu__net_null(skb, "skb_pull") || len > skb->len)
		return NULL;
	skb->len -= len;
	skb->data += len;
	return skb->data;
}

void skb_trim(struct sk_buff *skb, unsigned int len)
{
	DMAEMU__API_CALL(call, "skb_trim");

	if (dmaemu__net_null(skb, "skb_trim"))
		return;
	if (skb->len > len) {
		skb->len = len;
		skb_set_tail_pointer(skb, (int)len);
	}
}
