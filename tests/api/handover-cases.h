/* SPDX-License-Identifier: MIT */
/*
 * handover-cases.h - two receive drivers' mistakes that the checkers must
 * name whatever the architecture's cache maintenance makes of them, for
 * check-fidelity.c (Linux 4.14, and map_policy=5.19) and
 * check-fidelity-612.c (kernel=6.12): included after the suite's m, dd,
 * dev (a machine and its device), compiled like driver code.
 *
 *  - rx-recycle: the CPU clears a header in a DMA_FROM_DEVICE buffer it
 *    owns and gives the buffer back with dma_sync_single_for_device():
 *    lost-cpu-write at the sync, on every profile and level (4.14's arm
 *    and arm64 invalidate the store, arm64 since 5.19 cleans it to
 *    memory, x86 keeps it).  The twin maps DMA_BIDIRECTIONAL.
 *  - rx-stale: the CPU reads a kzalloc()'d DMA_FROM_DEVICE buffer the
 *    device wrote, without dma_sync_single_for_cpu():
 *    cpu-access-device-owned at the read on every profile and level, and
 *    stale-cpu-read as well where the map cleaned and kept the line in
 *    the cache (arm64 since 5.19).  The twin syncs first.
 */
#ifndef HANDOVER_CASES_H
#define HANDOVER_CASES_H

#include <stdio.h>
#include <string.h>

/* The reports after *@seq: how many there are, how many of them are of
 * @kind; each of @kind must name line @line of this file and say @what. */
static unsigned int hc_reports(uint64_t *seq, const char *kind, int line,
			       const char *what, unsigned int *of_kind)
{
	struct dmaemu_report r;
	unsigned int n = 0;
	char at[64];

	snprintf(at, sizeof(at), "handover-cases.h:%d ", line);
	*of_kind = 0;
	while (!dmaemu_report_next(m, *seq, &r)) {
		*seq = r.seq;
		n++;
		if (strcmp(r.kind_name, kind))
			continue;
		ck_assert_msg(strstr(r.text, at) && strstr(r.text, what),
			      "not at %s or without '%s': %s", at, what,
			      r.text);
		(*of_kind)++;
	}
	return n;
}

/* rx-recycle.  Return: the cleared header reached the CPU's next look. */
static bool hc_recycle(bool bug, int *line)
{
	enum dma_data_direction dir = bug ? DMA_FROM_DEVICE : DMA_BIDIRECTIONAL;
	uint8_t *b = kmalloc(256, GFP_KERNEL);
	uint8_t frame[256];
	dma_addr_t h;
	bool right;

	ck_assert_ptr_nonnull(b);
	h = dma_map_single(dev, b, 256, dir);
	ck_assert(!dma_mapping_error(dev, h));
	ck_assert_int_eq(
		dmaemu_dma_write(dd, h, memset(frame, 'D', sizeof(frame)), 256),
		0);
	dma_sync_single_for_cpu(dev, h, 256, dir);
	memset(b, 0, 4); /* the slot is empty again */
	*line = __LINE__ + 1;
	dma_sync_single_for_device(dev, h, 256, dir);
	dma_sync_single_for_cpu(dev, h, 256, dir);
	right = !b[0] && !b[1] && !b[2] && !b[3] && b[4] == 'D';
	dma_unmap_single(dev, h, 256, dir);
	kfree(b);
	return right;
}

/* rx-stale.  Return: the CPU read the device's frame. */
static bool hc_rx_read(bool bug, int *line)
{
	uint8_t *b = kzalloc(256, GFP_KERNEL);
	uint8_t frame[64], out[64];
	dma_addr_t h;
	bool right;

	ck_assert_ptr_nonnull(b);
	h = dma_map_single(dev, b, 256, DMA_FROM_DEVICE);
	ck_assert(!dma_mapping_error(dev, h));
	ck_assert_int_eq(
		dmaemu_dma_write(dd, h, memset(frame, 'D', sizeof(frame)), 64),
		0);
	if (!bug)
		dma_sync_single_for_cpu(dev, h, 256, DMA_FROM_DEVICE);
	*line = __LINE__ + 1;
	memcpy(out, b, sizeof(out));
	right = !memcmp(out, frame, sizeof(out));
	dma_unmap_single(dev, h, 256, DMA_FROM_DEVICE);
	kfree(b);
	return right;
}

#endif
