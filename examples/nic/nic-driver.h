/* SPDX-License-Identifier: MIT */
/*
 * nic-driver.h - the reference driver of the network card
 * (docs/devices/nic.md): what its users call, in place of a network stack.
 */
#ifndef NIC_DRIVER_H
#define NIC_DRIVER_H

#include <stdbool.h>

#include <linux/dma-mapping.h>
#include <linux/platform_device.h>

struct nicdrv;

/* The platform driver: register it, then cards are probed. */
extern struct platform_driver nicdrv_driver;

/* The first card bound to the driver, or NULL. */
struct nicdrv *nicdrv_first(void);

/*
 * Send one frame of @len bytes (copied: the caller keeps @data).  Sleeps
 * while the TX ring is full.
 * Return: 0 once queued; -EINVAL for a bad @len (0 or above 2048);
 * -ENOMEM when out of memory or the buffer cannot be mapped; -ETIMEDOUT
 * when the ring stayed full.
 */
int nicdrv_xmit(struct nicdrv *nd, const void *data, size_t len);

/*
 * nicdrv_xmit() for a batch, as a network stack passes skb->xmit_more:
 * with @more, another frame follows at once, and the doorbell waits for
 * it (it is rung anyway when the ring is full).  The last frame of a
 * batch must have @more false, or it may stay queued.
 */
int nicdrv_xmit_more(struct nicdrv *nd, const void *data, size_t len,
		     bool more);

/*
 * Receive the next frame into @buf (at most @size bytes copied), waiting
 * up to @timeout jiffies.
 * Return: the frame's length; -EIO when the card marked that descriptor
 * as failed (it is recycled, try again); -ETIMEDOUT.
 */
int nicdrv_recv(struct nicdrv *nd, void *buf, size_t size,
		unsigned long timeout);

/* Turn the card's loopback wire on or off (TX frames come back on RX). */
void nicdrv_set_loopback(struct nicdrv *nd, bool on);

/* Set the card's interrupt coalescing: one TX_DONE per @tx frames sent,
 * one RX_DONE per @rx frames received (0 and 1: every frame). */
void nicdrv_set_coalesce(struct nicdrv *nd, unsigned int tx, unsigned int rx);

/* Counters of the driver. */
struct nicdrv_stats {
	unsigned long irqs;    /* interrupts taken */
	unsigned long tx_done; /* TX descriptors cleaned */
	unsigned long tx_errors, rx_errors;
};
void nicdrv_get_stats(struct nicdrv *nd, struct nicdrv_stats *st);

#endif
