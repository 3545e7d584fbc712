// SPDX-License-Identifier: MIT
/*
 * rmw-prog.c - read-modify-write stores into a buffer the device owns,
 * built with dmaemu-cc by tests/scripts/rmw.sh with GCC and Clang at each
 * optimisation level.  Each form below is the only bug of its own
 * mapping: the CPU changes a DMA_TO_DEVICE buffer after dma_map_single()
 * handed it to the device.  Its load is harmless (the device only reads
 * the buffer), its store is a cpu-access-device-owned report at the line
 * of the form, which ends with a marker comment "rmw: NAME" that the test
 * looks for.  A compiler that checks only the first access to an address
 * (the load) leaves the store unseen: no report at all.
 *
 * Three stores of other shapes follow the same way: a struct copy, an
 * atomic fetch-or (what set_bit() is), a field of a packed struct.  The
 * results are then checked (a hook must not change what the code
 * computes).
 *
 * After the forms, two checks of what the store does to the line:
 *
 *   lost     a 48-byte DMA_FROM_DEVICE buffer and a counter in one
 *            cache line; the CPU counts (an RMW store into the line,
 *            its own bytes), the device writes the buffer, the unmap's
 *            maintenance writes the dirty line back over the device's
 *            bytes on arm and arm64: the lost-device-write report names
 *            the RMW as the CPU's last store to the line ("rmw: lost"),
 *            not the kzalloc() that a store the model never saw leaves
 *            named;
 *   picture  a line read, then changed by an RMW:
 *            dmaemu_line_map_print() shows it "R+D" (the test looks for
 *            the line).
 *
 * With --fixed, the correct twin: every store is made before the map
 * (the CPU is done with the buffer when it hands it over): no report.
 *
 * Usage: rmw-prog [--fixed] OPTIONS...  (one machine per options string,
 * in turn; "== OPTIONS" on stderr before each machine's reports).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <dmaemu/device.h>
#include <dmaemu/seeing.h>
#include <dmaemu/machine.h>
#include <linux/bits.h>
#include <linux/dma-mapping.h>
#include <linux/slab.h>

struct hdr {
	uint32_t seq;
	uint32_t flags;
	uint16_t len;
	uint16_t csum;
	uint64_t cookie;
};

struct desc {
	uint64_t addr;
	uint32_t len;
	uint32_t status;
};

/* The forms; noinline, so that each is its own function at every level,
 * and the arguments come from the caller (nothing folds to a constant). */
#define FORM __attribute__((noinline)) static void

FORM form_xor(uint8_t *buf, int i, uint8_t x)
{
	buf[i] ^= x; /* rmw: xor */
}

FORM form_inc(struct hdr *hdr)
{
	hdr->seq++; /* rmw: inc */
}

FORM form_or(struct hdr *hdr)
{
	hdr->flags |= BIT(3); /* rmw: or */
}

FORM form_add(uint16_t *p, int n)
{
	*p += n; /* rmw: add */
}

FORM form_ring(struct desc *ring, int i)
{
	ring[i].status &= ~1u; /* rmw: ring */
}

FORM form_shift(struct hdr *hdr)
{
	hdr->cookie <<= 1; /* rmw: shift */
}

FORM form_preinc(uint32_t *cnt)
{
	++*cnt; /* rmw: preinc */
}

/* Not an RMW, but the other stores of odd shapes: a whole struct (GCC
 * checks it as a range), an atomic RMW (GCC leaves the operation to the
 * hook), a field of a packed struct (an unaligned access). */
FORM form_copy(struct hdr *dst, const struct hdr *src)
{
	*dst = *src; /* rmw: copy */
}

FORM form_atomic(unsigned long *word)
{
	__atomic_fetch_or(word, 8UL, __ATOMIC_RELAXED); /* rmw: atomic */
}

struct __attribute__((packed)) wire {
	uint8_t type;
	uint32_t len;
};

FORM form_packed(struct wire *w, uint32_t n)
{
	w->len += n; /* rmw: packed */
}

/* A load, then a store of the same field, in one basic block. */
FORM form_split(struct hdr *hdr)
{
	uint32_t v = hdr->flags;

	hdr->flags = v | 1; /* rmw: split */
}

/* The lost-device-write check: a receive buffer sharing its line with a
 * counter (no ____cacheline_aligned), whose RMW is the CPU's last store. */
struct rx_slot {
	uint8_t frame[48];
	uint32_t pad[3];
	uint32_t count;
};

FORM form_lost(struct rx_slot *rx)
{
	rx->count++; /* rmw: lost */
}

/* The picture check: a read, then an RMW, of a line the CPU owns. */
__attribute__((noinline)) static uint32_t read_seq(const struct hdr *hdr)
{
	return hdr->seq;
}

FORM form_picture(struct hdr *hdr)
{
	hdr->len += 2; /* rmw: picture */
}

enum {
	XOR,
	INC,
	OR,
	ADD,
	RING,
	SHIFT,
	PREINC,
	SPLIT,
	COPY,
	ATOMIC,
	PACKED,
	NFORMS
};

/* The correct twin (--fixed): every store before the map. */
static bool fixed;

static void forms(void **buf)
{
	static const struct hdr tmpl = {.seq = 7, .len = 60, .cookie = 9};

	form_xor(buf[XOR], 5, 0x5a);
	form_inc(buf[INC]);
	form_or(buf[OR]);
	form_add((uint16_t *)buf[ADD] + 3, 7);
	form_ring(buf[RING], 2);
	form_shift(buf[SHIFT]);
	form_preinc((uint32_t *)buf[PREINC] + 9);
	form_split(buf[SPLIT]);
	form_copy(buf[COPY], &tmpl);
	form_atomic(buf[ATOMIC]);
	form_packed((struct wire *)((uint8_t *)buf[PACKED] + 1), 5);
}

/* Values before the forms, so that each form's result differs from it. */
static void init(void **buf)
{
	((uint8_t *)buf[XOR])[5] = 0x0f;
	((struct hdr *)buf[INC])->seq = 41;
	((struct hdr *)buf[OR])->flags = 0x10;
	((uint16_t *)buf[ADD])[3] = 100;
	((struct desc *)buf[RING])[2].status = 0xff;
	((struct hdr *)buf[SHIFT])->cookie = 0x21;
	((uint32_t *)buf[PREINC])[9] = 9;
	((struct hdr *)buf[SPLIT])->flags = 0x10;
	((struct wire *)((uint8_t *)buf[PACKED] + 1))->len = 1000;
}

/* What the forms must have left (the hooks must not change the data):
 * 0, or the name of the first form whose result is wrong. */
static const char *verify(void **buf)
{
	const struct hdr *c = buf[COPY];

	if (((uint8_t *)buf[XOR])[5] != 0x55)
		return "xor";
	if (((struct hdr *)buf[INC])->seq != 42)
		return "inc";
	if (((struct hdr *)buf[OR])->flags != 0x18)
		return "or";
	if (((uint16_t *)buf[ADD])[3] != 107)
		return "add";
	if (((struct desc *)buf[RING])[2].status != 0xfe)
		return "ring";
	if (((struct hdr *)buf[SHIFT])->cookie != 0x42)
		return "shift";
	if (((uint32_t *)buf[PREINC])[9] != 10)
		return "preinc";
	if (((struct hdr *)buf[SPLIT])->flags != 0x11)
		return "split";
	if (c->seq != 7 || c->len != 60 || c->cookie != 9)
		return "copy";
	if (*(unsigned long *)buf[ATOMIC] != 8)
		return "atomic";
	if (((struct wire *)((uint8_t *)buf[PACKED] + 1))->len != 1005)
		return "packed";
	return NULL;
}

static int run(const char *opts)
{
	struct dmaemu_machine *m = dmaemu_machine_create(opts);
	struct dmaemu_device *dd;
	struct device *dev;
	void *buf[NFORMS];
	dma_addr_t dma[NFORMS];
	static const uint8_t frame[48] = {0x45, 0x00, 0x00, 0x30};
	struct rx_slot *rx;
	dma_addr_t rd;
	const char *bad;
	struct hdr *h;
	int i;

	if (!m)
		return 1;
	dd = dmaemu_device_create(m, "dev0", NULL, NULL);
	dev = dmaemu_device_to_dev(dd);
	for (i = 0; i < NFORMS; i++) {
		buf[i] = kzalloc(256, GFP_KERNEL);
		if (!buf[i])
			return 1;
	}
	init(buf);
	if (fixed)
		forms(buf);
	for (i = 0; i < NFORMS; i++) {
		dma[i] = dma_map_single(dev, buf[i], 256, DMA_TO_DEVICE);
		if (dma_mapping_error(dev, dma[i]))
			return 1;
	}
	if (!fixed)
		forms(buf);
	/* Reads of DMA_TO_DEVICE buffers: harmless, and not reported. */
	bad = verify(buf);
	if (bad) {
		fprintf(stderr, "rmw-prog: %s: wrong result\n", bad);
		return 1;
	}
	for (i = 0; i < NFORMS; i++) {
		dma_unmap_single(dev, dma[i], 256, DMA_TO_DEVICE);
		kfree(buf[i]);
	}

	/* lost: the CPU's RMW, the device's write, the unmap. */
	rx = kzalloc(sizeof(*rx), GFP_KERNEL);
	if (!rx)
		return 1;
	if (fixed)
		form_lost(rx);
	rd = dma_map_single(dev, rx->frame, sizeof(rx->frame), DMA_FROM_DEVICE);
	if (dma_mapping_error(dev, rd))
		return 1;
	if (!fixed)
		form_lost(rx);
	dmaemu_dma_write(dd, rd, frame, sizeof(frame));
	dma_unmap_single(dev, rd, sizeof(rx->frame), DMA_FROM_DEVICE);
	kfree(rx);

	/* picture: read the line, then change it by an RMW. */
	h = kmalloc(64, GFP_KERNEL); /* not written: a clean line */
	if (!h)
		return 1;
	fprintf(stderr, "-- picture %#llx\n",
		(unsigned long long)virt_to_phys(h));
	if (read_seq(h) == 0x5a5a5a5a)
		return 1;
	form_picture(h);
	dmaemu_line_map_print(m, virt_to_phys(h), 64, stderr,
			      DMAEMU_COLOUR_NEVER);
	kfree(h);
	dmaemu_device_destroy(dd);
	dmaemu_machine_destroy(m);
	return 0;
}

int main(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--fixed")) {
			fixed = true;
			continue;
		}
		fprintf(stderr, "== %s\n", argv[i]);
		if (run(argv[i]))
			return 1;
	}
	return 0;
}
