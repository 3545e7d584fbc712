/* SPDX-License-Identifier: MIT */
/*
 * rx.h - the receive path of a small network driver: a ring of receive
 * buffers mapped for the device, and the calls that hand a received frame
 * to the stack.  This is the code the suite in test-rx.c tests.
 */
#ifndef RX_H
#define RX_H

#include <stddef.h>

#include <linux/device.h>
#include <linux/types.h>

struct rx_ring;

/* Up to @n buffers of @size bytes, each mapped DMA_FROM_DEVICE for @dev.
 * NULL when out of memory or when a mapping fails (nothing is left). */
struct rx_ring *rx_open(struct device *dev, unsigned int n, size_t size);

/* The bus address the device writes buffer @i at. */
dma_addr_t rx_buffer_dma(const struct rx_ring *r, unsigned int i);

/* The CPU's pointer to buffer @i (for tests and the stack). */
void *rx_buffer(const struct rx_ring *r, unsigned int i);

/* The device wrote a frame of @len bytes into buffer @i: copy it to @out
 * and give the buffer back to the device.  Return: @len, or -EINVAL. */
long rx_receive(struct rx_ring *r, unsigned int i, void *out, size_t len);

/* As rx_receive(), with the "fast path" for frames of at most 64 bytes
 * that somebody added: it skips the sync.  Wrong on a non-coherent
 * machine, which test-rx.c shows. */
long rx_receive_small(struct rx_ring *r, unsigned int i, void *out, size_t len);

/* Unmap and free everything. */
void rx_close(struct rx_ring *r);

#endif
