// SPDX-License-Identifier: MIT
/*
 * poll-prog.c - correct drivers that poll what a device writes, built with
 * dmaemu-cc (instrumented) by valgrind-poll.sh, which runs them under
 * Helgrind, DRD and Memcheck, and by library-sites.sh, which runs them on
 * every profile and backend; built uninstrumented as tests/scripts/
 * poll-prog for poll-threads.sh, which runs them in the sanitizer builds
 * (ThreadSanitizer).  The machine runs with sched=threads: the device
 * models run on their own threads, free.
 *
 *   ce PROFILE     the copy engine copies messages into a mailbox in
 *                  coherent memory; the driver polls the descriptor's
 *                  status word with READ_ONCE(), then dma_rmb(), and reads
 *                  the message with READ_ONCE() and memcpy()
 *   nic PROFILE    the network card's traffic generator fills receive
 *                  buffers, halves of pages of a page pool (mapped whole,
 *                  DMA_BIDIRECTIONAL, DMA_ATTR_SKIP_CPU_SYNC; each half
 *                  handed to the card with
 *                  dma_sync_single_range_for_device()); the driver polls
 *                  each RX descriptor's status with READ_ONCE(), then
 *                  dma_rmb(), syncs the half for the CPU, checks the frame
 *                  and gives the half back
 *   race PROFILE   two driver threads add to one counter of the driver's
 *                  with no lock: a data race of the program, which the
 *                  tools must still see
 *   race-dma PROFILE  the same counter in memory from kzalloc() (emulated
 *                  memory, whose lines the model fills and writes back):
 *                  DRD must still see the race
 *
 * Exit status 0 when the data is right and the machine made no report.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include <asm/barrier.h>
#include <dmaemu/device.h>
#include <dmaemu/devices/copy-engine.h>
#include <dmaemu/devices/nic.h>
#include <dmaemu/machine.h>
#include <dmaemu/report.h>
#include <linux/delay.h>
#include <linux/dma-mapping.h>
#include <linux/io.h>
#include <linux/mm.h>
#include <linux/slab.h>

#define POLLS 1000000 /* give up after this many polls */

/* ---------------------------------------------------------------------- */
/* The copy engine (docs/devices/copy-engine.md)                          */
/* ---------------------------------------------------------------------- */

#define CE_CTRL 0x04
#define CE_RING_LO 0x14
#define CE_RING_HI 0x18
#define CE_RING_SIZE 0x1c
#define CE_TAIL 0x24
#define CE_CTRL_ENABLE 0x1
#define CE_CTRL_RESET 0x80000000
#define CE_OP_COPY 1
#define CE_DESC_DONE 0x1
#define CE_DESC_ERROR 0x2
#define CE_RING_N 8
#define CE_ROUNDS 24

struct ce_desc {
	u32 ctrl;
	u32 len;
	u64 src;
	u64 dst;
	u32 status; /* written back by the engine, after the data */
	u32 cookie;
};

struct msg {
	u32 len;
	char text[60];
};

static int run_ce(struct dmaemu_machine *m)
{
	struct dmaemu_device *ce = dmaemu_copy_engine_create(m, "ce0");
	struct device *dev = ce ? dmaemu_device_to_dev(ce) : NULL;
	void __iomem *regs = ce ? dmaemu_device_regs(ce) : NULL;
	dma_addr_t ring_dma, mb_dma, src_dma;
	struct ce_desc *ring;
	struct msg *mb, *src;
	char out[sizeof(mb->text) + 1];
	int bad = 0;
	u32 k;

	if (!ce)
		return 1;
	ring = dma_alloc_coherent(dev, CE_RING_N * sizeof(*ring), &ring_dma,
				  GFP_KERNEL);
	mb = dma_alloc_coherent(dev, sizeof(*mb), &mb_dma, GFP_KERNEL);
	src = dma_alloc_coherent(dev, sizeof(*src), &src_dma, GFP_KERNEL);
	if (!ring || !mb || !src)
		return 1;
	writel(CE_CTRL_RESET, regs + CE_CTRL);
	writel(lower_32_bits(ring_dma), regs + CE_RING_LO);
	writel(upper_32_bits(ring_dma), regs + CE_RING_HI);
	writel(CE_RING_N, regs + CE_RING_SIZE);
	writel(CE_CTRL_ENABLE, regs + CE_CTRL);

	for (k = 0; k < CE_ROUNDS; k++) {
		struct ce_desc *d = &ring[k % CE_RING_N];
		u32 status = 0, len;
		int i;

		src->len = (u32)snprintf(src->text, sizeof(src->text),
					 "message %u from the engine", k);
		d->ctrl = CE_OP_COPY;
		d->len = sizeof(*src);
		d->src = src_dma;
		d->dst = mb_dma;
		d->status = 0;
		d->cookie = k;
		writel(k + 1, regs + CE_TAIL); /* the descriptor first */
		for (i = 0; i < POLLS; i++) {
			status = READ_ONCE(d->status);
			if (status & CE_DESC_DONE)
				break;
			udelay(1);
		}
		if (!(status & CE_DESC_DONE) || (status & CE_DESC_ERROR)) {
			fprintf(stderr, "ce: descriptor %u: status 0x%x\n", k,
				status);
			return 1;
		}
		dma_rmb(); /* the message after the status */
		len = READ_ONCE(mb->len);
		if (len >= sizeof(out))
			return 1;
		memcpy(out, mb->text, len);
		out[len] = '\0';
		if (len != src->len || strcmp(out, src->text))
			bad++;
	}
	printf("ce: %u messages, %d wrong\n", k, bad);
	writel(0, regs + CE_CTRL);
	dma_free_coherent(dev, sizeof(*src), src, src_dma);
	dma_free_coherent(dev, sizeof(*mb), mb, mb_dma);
	dma_free_coherent(dev, CE_RING_N * sizeof(*ring), ring, ring_dma);
	dmaemu_device_destroy(ce);
	return bad != 0;
}

/* ---------------------------------------------------------------------- */
/* The network card (docs/devices/nic.md)                                 */
/* ---------------------------------------------------------------------- */

#define NIC_RING_N 8 /* descriptors: halves of NIC_PAGES pages */
#define NIC_PAGES (NIC_RING_N / 2)
#define NIC_FRAMES 32
#define NIC_SEED 25
#define NIC_HALF 2048

struct nic_desc {
	__le64 addr;
	__le32 len;
	__le32 status;
	u8 reserved[48];
};

struct nic_rx {
	struct device *dev;
	struct nic_desc *ring;
	struct page *page[NIC_PAGES];
	dma_addr_t page_dma[NIC_PAGES];
};

/* Hand half @i of the pool to the card, as page_pool's DMA sync does. */
static void nic_give(struct nic_rx *rx, unsigned int i)
{
	struct nic_desc *d = &rx->ring[i];
	dma_addr_t dma = rx->page_dma[i / 2];
	size_t off = (i % 2) * NIC_HALF;

	dma_sync_single_range_for_device(rx->dev, dma, off, NIC_HALF,
					 DMA_BIDIRECTIONAL);
	d->addr = cpu_to_le64(dma + off);
	d->len = cpu_to_le32(NIC_HALF);
	dma_wmb(); /* the address and length before OWN */
	WRITE_ONCE(d->status, cpu_to_le32(DMAEMU_NIC_DESC_OWN));
}

static int run_nic(struct dmaemu_machine *m)
{
	struct dmaemu_device *nic = dmaemu_nic_create(m, "eth0");
	void __iomem *regs = nic ? dmaemu_device_regs(nic) : NULL;
	struct nic_rx rx = {.dev = nic ? dmaemu_device_to_dev(nic) : NULL};
	u8 want[DMAEMU_NIC_GEN_MAX];
	dma_addr_t ring_dma;
	u32 k, head = 0;
	int bad = 0, i;

	if (!nic)
		return 1;
	rx.ring = dma_alloc_coherent(rx.dev, NIC_RING_N * sizeof(*rx.ring),
				     &ring_dma, GFP_KERNEL);
	if (!rx.ring)
		return 1;
	writel(DMAEMU_NIC_CTRL_RESET, regs + DMAEMU_NIC_REG_CTRL);
	for (i = 0; i < NIC_PAGES; i++) {
		rx.page[i] = alloc_pages(GFP_KERNEL, 0);
		if (!rx.page[i])
			return 1;
		rx.page_dma[i] = dma_map_page_attrs(
			rx.dev, rx.page[i], 0, PAGE_SIZE, DMA_BIDIRECTIONAL,
			DMA_ATTR_SKIP_CPU_SYNC);
		if (dma_mapping_error(rx.dev, rx.page_dma[i]))
			return 1;
	}
	for (i = 0; i < NIC_RING_N; i++)
		nic_give(&rx, (unsigned int)i);
	writel(lower_32_bits(ring_dma), regs + DMAEMU_NIC_REG_RX_RING_LO);
	writel(upper_32_bits(ring_dma), regs + DMAEMU_NIC_REG_RX_RING_HI);
	writel(NIC_RING_N, regs + DMAEMU_NIC_REG_RX_SIZE);
	writel(NIC_RING_N - 1, regs + DMAEMU_NIC_REG_RX_TAIL);
	writel(DMAEMU_NIC_CTRL_RX_EN, regs + DMAEMU_NIC_REG_CTRL);
	writel(NIC_SEED, regs + DMAEMU_NIC_REG_GEN_SEED);
	writel(NIC_FRAMES, regs + DMAEMU_NIC_REG_GEN_COUNT);
	/* A frame every 100 us: the card writes while the driver polls. */
	writel(100000, regs + DMAEMU_NIC_REG_GEN_INTERVAL);
	writel(DMAEMU_NIC_GEN_RUN, regs + DMAEMU_NIC_REG_GEN_CTRL);

	/* Frames dropped while the ring was full are not received: the
	 * frames received are a subsequence of the generated ones. */
	for (k = 0; k < NIC_FRAMES && head < NIC_FRAMES;) {
		unsigned int slot = head % NIC_RING_N;
		struct nic_desc *d = &rx.ring[slot];
		const u8 *data = (const u8 *)page_address(rx.page[slot / 2]) +
				 (slot % 2) * NIC_HALF;
		u32 status = 0, len, gen;
		int polls;

		/* Memory only, as a busy poll does; the registers now and
		 * then, to see whether the generator is done. */
		for (polls = 1; polls <= POLLS; polls++) {
			status = le32_to_cpu(READ_ONCE(d->status));
			if (!(status & DMAEMU_NIC_DESC_OWN))
				break;
			udelay(1);
			if (!(polls % 4096) &&
			    !readl(regs + DMAEMU_NIC_REG_GEN_CTRL) &&
			    readl(regs + DMAEMU_NIC_REG_RX_FRAMES) == head)
				break; /* the generator is done */
		}
		if (status & DMAEMU_NIC_DESC_OWN)
			break;
		dma_rmb(); /* the frame after the status */
		len = status & DMAEMU_NIC_DESC_LEN_MASK;
		dma_sync_single_range_for_cpu(rx.dev, rx.page_dma[slot / 2],
					      (slot % 2) * NIC_HALF, NIC_HALF,
					      DMA_BIDIRECTIONAL);
		for (gen = k; gen < NIC_FRAMES; gen++)
			if (dmaemu_nic_gen_frame(NIC_SEED, gen, want) == len &&
			    !memcmp(data, want, len))
				break;
		if ((status & DMAEMU_NIC_DESC_ERR) || gen == NIC_FRAMES)
			bad++;
		k = gen + 1;
		nic_give(&rx, slot);
		head++;
		writel((head + NIC_RING_N - 1) % NIC_RING_N,
		       regs + DMAEMU_NIC_REG_RX_TAIL);
	}
	printf("nic: %u frames received, %d wrong\n", head, bad);
	writel(0, regs + DMAEMU_NIC_REG_GEN_CTRL);
	writel(DMAEMU_NIC_CTRL_RESET, regs + DMAEMU_NIC_REG_CTRL);
	for (i = 0; i < NIC_PAGES; i++) {
		dma_unmap_page_attrs(rx.dev, rx.page_dma[i], PAGE_SIZE,
				     DMA_BIDIRECTIONAL, DMA_ATTR_SKIP_CPU_SYNC);
		__free_pages(rx.page[i], 0);
	}
	dma_free_coherent(rx.dev, NIC_RING_N * sizeof(*rx.ring), rx.ring,
			  ring_dma);
	dmaemu_device_destroy(nic);
	return bad != 0 || head == 0;
}

/* ---------------------------------------------------------------------- */
/* A driver's own race                                                    */
/* ---------------------------------------------------------------------- */

/* The driver's statistics: a global of the driver's (host memory), or
 * kzalloc()'d (emulated memory). */
struct stats {
	unsigned long packets; /* no lock: the bug */
};
static struct stats host_stats, *stats = &host_stats;

static int ready; /* both threads are counting (atomic) */

/*
 * Count with the other thread: each waits for the other to start (an
 * atomic flag, which is no synchronisation to the tools) and yields
 * after every addition, so that the two interleave.
 */
static void *count_packets(void *arg)
{
	int i;

	(void)arg;
	__atomic_add_fetch(&ready, 1, __ATOMIC_RELAXED);
	while (__atomic_load_n(&ready, __ATOMIC_RELAXED) < 2)
		sched_yield();
	for (i = 0; i < 200; i++) {
		stats->packets++;
		sched_yield();
	}
	return NULL;
}

static int run_race(bool dma_memory)
{
	pthread_t t;

	if (dma_memory) {
		stats = kzalloc(sizeof(*stats), GFP_KERNEL);
		if (!stats) {
			fprintf(stderr, "poll-prog: kzalloc() failed\n");
			return 2;
		}
	}
	if (pthread_create(&t, NULL, count_packets, NULL))
		return 1;
	count_packets(NULL);
	pthread_join(t, NULL);
	printf("race: %lu packets counted\n", stats->packets);
	if (dma_memory)
		kfree(stats);
	return 0;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	const char *profile = argc > 2 ? argv[2] : "arm64";
	struct dmaemu_machine *m;
	char opts[128];
	int ret;

	snprintf(opts, sizeof(opts), "profile=%s:sched=threads", profile);
	m = dmaemu_machine_create(opts);
	if (!m) {
		perror("poll-prog: dmaemu_machine_create()");
		return 2;
	}
	if (!strcmp(mode, "ce")) {
		ret = run_ce(m);
	} else if (!strcmp(mode, "nic")) {
		ret = run_nic(m);
	} else if (!strcmp(mode, "race")) {
		ret = run_race(false);
	} else if (!strcmp(mode, "race-dma")) {
		ret = run_race(true);
	} else {
		fprintf(stderr, "usage: %s ce|nic|race|race-dma [PROFILE]\n",
			argv[0]);
		ret = 2;
	}
	if (dmaemu_report_count(m, NULL))
		ret = 1;
	dmaemu_machine_destroy(m);
	return ret;
}
