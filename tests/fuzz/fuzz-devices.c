// SPDX-License-Identifier: MIT
/*
 * fuzz-devices.c - device programs: bytes decoded into register writes and
 * descriptor ring contents for one of the models of libdmaemu-devices.
 *
 * How it works.  The first byte chooses the model (copy engine, network
 * card, checksum engine, legacy 32-bit device, display, camera) and the
 * machine (profile, backend, scheduling mode).  A platform driver of the
 * model's name probes the device as a driver would: it ioremaps the
 * register window of the device's memory resource and requests its
 * interrupt line, with a handler that acknowledges every INT_STATUS bit.
 * Three buffers give the program addresses worth writing: a coherent
 * "ring" (4 KiB), a coherent data buffer (64 KiB) and a kmalloc() buffer
 * the program maps and unmaps (DMA_BIDIRECTIONAL).  Then each step is an
 * opcode byte and its operands (a missing byte reads as 0):
 *
 *   writel of any register (random values, halves of those buffers' bus
 *   addresses plus an offset, of addresses no memory backs, bits,
 *   all-ones), writeb/writew at any offset, readl of any register, bytes
 *   and 32/64-bit words (addresses again) stored into the ring, a wait,
 *   the model's reset bit, and a map, unmap or sync of the kmalloc buffer
 *   (so the device may use a mapping that is gone).
 *
 * Invariants: no crash, hang (libFuzzer's -timeout) or sanitizer finding
 * (ASan, UBSan, LeakSanitizer) whatever the program did; the ID register
 * reads the model's value at every step (writes to it are ignored); and
 * after the program, a reset followed by a job whose memory no mapping
 * backs must make the device raise its error interrupt and, for models with
 * an ERR_CODE register, set a non-zero error code: the device stays usable
 * and explains a fault after any history.  The device and the machine are
 * then destroyed, which must leave no thread, memory or mapping behind.
 * A broken invariant prints the step and aborts.
 * FUZZ_DEVICES_TRACE=1 in the environment prints each step.
 */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dmaemu/device.h>
#include <dmaemu/devices/camera.h>
#include <dmaemu/devices/checksum.h>
#include <dmaemu/devices/copy-engine.h>
#include <dmaemu/devices/display.h>
#include <dmaemu/devices/legacy.h>
#include <dmaemu/devices/nic.h>
#include <dmaemu/machine.h>
#include <linux/delay.h>
#include <linux/dma-mapping.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/platform_device.h>
#include <linux/slab.h>

#include "fuzz-input.h"

#define RING_SIZE 4096
#define DATA_SIZE (64u << 10)
#define STREAM_SIZE 8192
#define MAX_STEPS 64
#define PROBE_MS 5000 /* the error interrupt must come within this */

/* Bus addresses no memory backs (RAM is mem_base 0x80000000 + 16M) and
 * no IOVA allocator hands out here (it works down from the mask). */
#define BAD64 0xdead00000000ull
#define BAD32 0x00010000u

#define REG_INT_STATUS 0x0c /* the same in every model */
#define REG_INT_ENABLE 0x10

struct run;

struct model {
	const char *name; /* platform driver name */
	struct dmaemu_device *(*create)(struct dmaemu_machine *, const char *);
	unsigned int mmio_size;
	uint32_t id;
	uint32_t int_error;	/* INT_STATUS bits meaning an error */
	int err_code;		/* ERR_CODE register, -1 without one */
	unsigned int reset_reg; /* writing reset_val there resets */
	uint32_t reset_val;
	bool dma32; /* a 32-bit bus master */
	void (*bad_job)(struct run *r);
};

struct run {
	struct fuzz_input in;
	const struct model *mod;
	struct dmaemu_machine *m;
	struct dmaemu_device *d;
	struct device *dev;
	void __iomem *regs; /* from the driver's ioremap */
	int irq;
	bool probed;
	uint32_t seen; /* INT_STATUS bits the handler acknowledged (atomic) */
	uint8_t *ring, *data, *stream;
	dma_addr_t ring_dma, data_dma, stream_dma;
	bool mapped;
	int step;
	char opts[160];
};

static struct run run;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fail(struct run *r, const char *what, uint32_t got)
{
	fprintf(stderr, "fuzz-devices: %s on %s: step %d: %s (0x%08x)\n",
		r->mod->name, r->opts, r->step, what, got);
	abort();
}

/* ---------------------------------------------------------------------- */
/* The driver                                                             */
/* ---------------------------------------------------------------------- */

static irqreturn_t fz_irq(int irq, void *data)
{
	struct run *r = data;
	uint32_t st = readl(r->regs + REG_INT_STATUS);

	(void)irq;
	if (!st)
		return IRQ_NONE;
	writel(st, r->regs + REG_INT_STATUS);
	__atomic_fetch_or(&r->seen, st, __ATOMIC_SEQ_CST);
	return IRQ_HANDLED;
}

static int fz_probe(struct platform_device *pdev)
{
	struct run *r = &run;
	struct resource *res;
	int err;

	res = platform_get_resource(pdev, IORESOURCE_MEM, 0);
	if (!res)
		return -ENODEV;
	r->regs = devm_ioremap_resource(&pdev->dev, res);
	if (IS_ERR(r->regs))
		return (int)PTR_ERR(r->regs);
	r->irq = platform_get_irq(pdev, 0);
	if (r->irq < 0)
		return r->irq;
	err = dma_set_mask_and_coherent(&pdev->dev, r->mod->dma32
							    ? DMA_BIT_MASK(32)
							    : DMA_BIT_MASK(64));
	if (err)
		return err;
	err = request_irq((unsigned int)r->irq, fz_irq, 0, r->mod->name, r);
	if (err)
		return err;
	r->dev = &pdev->dev;
	r->probed = true;
	return 0;
}

static int fz_remove(struct platform_device *pdev)
{
	struct run *r = &run;

	(void)pdev;
	free_irq((unsigned int)r->irq, r);
	r->probed = false;
	return 0;
}

#define DRIVER(n)                                       \
	{                                               \
		.probe = fz_probe, .remove = fz_remove, \
		.driver = {.name = (n)},                \
	}

static struct platform_driver drivers[] = {
	DRIVER(DMAEMU_CE_NAME),	  DRIVER(DMAEMU_NIC_NAME),
	DRIVER(DMAEMU_CSUM_NAME), DRIVER(DMAEMU_LEGACY_NAME),
	DRIVER(DMAEMU_DISP_NAME), DRIVER(DMAEMU_CAM_NAME),
};

/* ---------------------------------------------------------------------- */
/* Jobs that must fail                                                    */
/* ---------------------------------------------------------------------- */

static void w(struct run *r, unsigned int off, uint32_t v)
{
	writel(v, r->regs + off);
}

/* A ring whose base no memory backs: the descriptor fetch fails. */
static void bad_ce(struct run *r)
{
	w(r, DMAEMU_CE_REG_RING_LO, (uint32_t)BAD64);
	w(r, DMAEMU_CE_REG_RING_HI, (uint32_t)(BAD64 >> 32));
	w(r, DMAEMU_CE_REG_RING_SIZE, 4);
	w(r, DMAEMU_CE_REG_CTRL, DMAEMU_CE_CTRL_ENABLE);
	w(r, DMAEMU_CE_REG_TAIL, 1);
}

static void bad_nic(struct run *r)
{
	w(r, DMAEMU_NIC_REG_TX_RING_LO, (uint32_t)BAD64);
	w(r, DMAEMU_NIC_REG_TX_RING_HI, (uint32_t)(BAD64 >> 32));
	w(r, DMAEMU_NIC_REG_TX_SIZE, 4);
	w(r, DMAEMU_NIC_REG_CTRL, DMAEMU_NIC_CTRL_TX_EN);
	w(r, DMAEMU_NIC_REG_TX_TAIL, 1);
}

static void bad_csum(struct run *r)
{
	w(r, DMAEMU_CSUM_REG_SRC_LO, (uint32_t)BAD64);
	w(r, DMAEMU_CSUM_REG_SRC_HI, (uint32_t)(BAD64 >> 32));
	w(r, DMAEMU_CSUM_REG_LEN, 64);
	w(r, DMAEMU_CSUM_REG_CMD, DMAEMU_CSUM_CMD_START);
}

/* READ: the device writes memory at an address beyond the machine's. */
static void bad_legacy(struct run *r)
{
	w(r, DMAEMU_LEGACY_REG_ADDR, BAD32);
	w(r, DMAEMU_LEGACY_REG_LEN, 64);
	w(r, DMAEMU_LEGACY_REG_OFFSET, 0);
	w(r, DMAEMU_LEGACY_REG_CMD, DMAEMU_LEGACY_CMD_READ);
}

static void bad_disp(struct run *r)
{
	w(r, DMAEMU_DISP_REG_FB_LO, (uint32_t)BAD64);
	w(r, DMAEMU_DISP_REG_FB_HI, (uint32_t)(BAD64 >> 32));
	w(r, DMAEMU_DISP_REG_WIDTH, 16);
	w(r, DMAEMU_DISP_REG_HEIGHT, 4);
	w(r, DMAEMU_DISP_REG_STRIDE, 64);
	w(r, DMAEMU_DISP_REG_FORMAT, DMAEMU_DISP_FMT_XRGB8888);
	w(r, DMAEMU_DISP_REG_CTRL, DMAEMU_DISP_CTRL_ENABLE);
	w(r, DMAEMU_DISP_REG_FLIP, 1);
}

static void bad_cam(struct run *r)
{
	w(r, DMAEMU_CAM_REG_FRAME_SIZE, 64);
	w(r, DMAEMU_CAM_REG_PERIOD_US, 10);
	w(r, DMAEMU_CAM_REG_BUF_LO(0), (uint32_t)BAD64);
	w(r, DMAEMU_CAM_REG_BUF_HI(0), (uint32_t)(BAD64 >> 32));
	w(r, DMAEMU_CAM_REG_QUEUE, 0);
	w(r, DMAEMU_CAM_REG_CTRL, DMAEMU_CAM_CTRL_ENABLE);
}

static const struct model models[] = {
	{DMAEMU_CE_NAME, dmaemu_copy_engine_create, DMAEMU_CE_MMIO_SIZE,
	 DMAEMU_CE_ID_VALUE, DMAEMU_CE_INT_ERROR, DMAEMU_CE_REG_ERR_CODE,
	 DMAEMU_CE_REG_CTRL, DMAEMU_CE_CTRL_RESET, false, bad_ce},
	{DMAEMU_NIC_NAME, dmaemu_nic_create, DMAEMU_NIC_MMIO_SIZE,
	 DMAEMU_NIC_ID_VALUE, DMAEMU_NIC_INT_TX_ERR | DMAEMU_NIC_INT_RX_ERR,
	 DMAEMU_NIC_REG_ERR_CODE, DMAEMU_NIC_REG_CTRL, DMAEMU_NIC_CTRL_RESET,
	 false, bad_nic},
	{DMAEMU_CSUM_NAME, dmaemu_checksum_create, DMAEMU_CSUM_MMIO_SIZE,
	 DMAEMU_CSUM_ID_VALUE, DMAEMU_CSUM_INT_ERROR, DMAEMU_CSUM_REG_ERR_CODE,
	 DMAEMU_CSUM_REG_CMD, DMAEMU_CSUM_CMD_RESET, false, bad_csum},
	{DMAEMU_LEGACY_NAME, dmaemu_legacy_create, DMAEMU_LEGACY_MMIO_SIZE,
	 DMAEMU_LEGACY_ID_VALUE, DMAEMU_LEGACY_INT_ERROR,
	 DMAEMU_LEGACY_REG_ERR_CODE, DMAEMU_LEGACY_REG_CMD,
	 DMAEMU_LEGACY_CMD_RESET, true, bad_legacy},
	{DMAEMU_DISP_NAME, dmaemu_display_create, DMAEMU_DISP_MMIO_SIZE,
	 DMAEMU_DISP_ID_VALUE, DMAEMU_DISP_INT_ERROR, DMAEMU_DISP_REG_ERR_CODE,
	 DMAEMU_DISP_REG_CTRL, DMAEMU_DISP_CTRL_RESET, false, bad_disp},
	{DMAEMU_CAM_NAME, dmaemu_camera_create, DMAEMU_CAM_MMIO_SIZE,
	 DMAEMU_CAM_ID_VALUE, DMAEMU_CAM_INT_ERROR, -1, DMAEMU_CAM_REG_CTRL,
	 DMAEMU_CAM_CTRL_RESET, false, bad_cam},
};
#define NMODELS (sizeof(models) / sizeof(models[0]))

/* ---------------------------------------------------------------------- */
/* Steps                                                                  */
/* ---------------------------------------------------------------------- */

/* An address worth giving the device: a buffer's plus an offset, or one
 * no memory backs. */
static uint64_t addr(struct run *r)
{
	uint8_t k = fuzz_get8(&r->in);
	uint16_t off = fuzz_get16(&r->in);

	switch (k % 6) {
	case 0:
		return r->ring_dma + off % RING_SIZE;
	case 1:
		return r->data_dma + off % DATA_SIZE;
	case 2:
		return r->mapped ? r->stream_dma + off % STREAM_SIZE : BAD64;
	case 3:
		return BAD64 + off;
	case 4:
		return BAD32 + (off & 0xfff);
	default:
		return off;
	}
}

static uint32_t value(struct run *r)
{
	switch (fuzz_get8(&r->in) % 8) {
	case 0:
		return fuzz_get32(&r->in);
	case 1:
		return (uint32_t)addr(r);
	case 2:
		return (uint32_t)(addr(r) >> 32);
	case 3:
		return fuzz_get8(&r->in);
	case 4:
		return 1u << (fuzz_get8(&r->in) % 32);
	case 5:
		return 0xffffffffu;
	case 6:
		return 0;
	default:
		return fuzz_get16(&r->in);
	}
}

static void check_id(struct run *r)
{
	uint32_t id = readl(r->regs);

	if (id != r->mod->id)
		fail(r, "the ID register changed", id);
}

static void op_writel(struct run *r)
{
	unsigned int off = (fuzz_get8(&r->in) * 4u) % r->mod->mmio_size;
	uint32_t v = value(r);

	TRACE("  writel(0x%08x, +0x%02x)\n", v, off);
	writel(v, r->regs + off);
}

static void op_narrow(struct run *r)
{
	unsigned int off = fuzz_get8(&r->in) % r->mod->mmio_size;
	uint16_t v = fuzz_get16(&r->in);

	TRACE("  narrow write 0x%04x at +0x%02x\n", v, off);
	if (off & 1)
		writeb((uint8_t)v, r->regs + off);
	else
		writew(v, r->regs + off);
}

static void op_readl(struct run *r)
{
	unsigned int off = (fuzz_get8(&r->in) * 4u) % r->mod->mmio_size;

	TRACE("  readl(+0x%02x) = 0x%08x\n", off, readl(r->regs + off));
	(void)readl(r->regs + off);
}

static void op_ring_bytes(struct run *r)
{
	unsigned int off = fuzz_get16(&r->in) % RING_SIZE;
	unsigned int len = fuzz_get8(&r->in) % 64;

	if (len > RING_SIZE - off)
		len = RING_SIZE - off;
	len = (unsigned int)fuzz_take(&r->in, r->ring + off, len);
	TRACE("  ring[%u..+%u] = input bytes\n", off, len);
}

static void op_ring_word(struct run *r, bool wide)
{
	unsigned int off = fuzz_get16(&r->in) % RING_SIZE;

	if (wide) {
		uint64_t v = addr(r);

		off &= ~7u;
		TRACE("  ring[%u] = 0x%llx\n", off, (unsigned long long)v);
		memcpy(r->ring + off, &v, 8);
	} else {
		uint32_t v = value(r);

		off &= ~3u;
		TRACE("  ring[%u] = 0x%08x\n", off, v);
		memcpy(r->ring + off, &v, 4);
	}
}

static void op_wait(struct run *r)
{
	unsigned int ms = fuzz_get8(&r->in) % 4;

	TRACE("  wait %u ms\n", ms);
	while (ms--)
		msleep(1);
}

static void op_reset(struct run *r)
{
	TRACE("  reset\n");
	writel(r->mod->reset_val, r->regs + r->mod->reset_reg);
}

static void op_stream(struct run *r)
{
	uint8_t k = fuzz_get8(&r->in);

	if (!r->mapped) {
		r->stream_dma = dma_map_single(r->dev, r->stream, STREAM_SIZE,
					       DMA_BIDIRECTIONAL);
		r->mapped = !dma_mapping_error(r->dev, r->stream_dma);
		TRACE("  map: %d\n", r->mapped);
	} else if (k & 1) {
		TRACE("  unmap\n");
		dma_unmap_single(r->dev, r->stream_dma, STREAM_SIZE,
				 DMA_BIDIRECTIONAL);
		r->mapped = false;
	} else if (k & 2) {
		TRACE("  sync for cpu\n");
		dma_sync_single_for_cpu(r->dev, r->stream_dma, STREAM_SIZE,
					DMA_BIDIRECTIONAL);
	} else {
		TRACE("  sync for device\n");
		dma_sync_single_for_device(r->dev, r->stream_dma, STREAM_SIZE,
					   DMA_BIDIRECTIONAL);
	}
}

/* After any program: reset, a job that must fail, its error interrupt. */
static void error_probe(struct run *r)
{
	uint32_t st = 0;
	int ms;

	r->step = -1;
	op_reset(r);
	writel(0xffffffffu, r->regs + REG_INT_STATUS);
	/*
	 * The reset lowered the line, but a handler that read INT_STATUS
	 * before it may still be running and add the program's last bits
	 * to seen: wait for it (as a driver's remove does), or the probe
	 * takes an error of the program's job for the probe job's and reads
	 * ERR_CODE before the probe job set it.
	 */
	synchronize_irq((unsigned int)r->irq);
	__atomic_store_n(&r->seen, 0, __ATOMIC_SEQ_CST);
	writel(r->mod->int_error, r->regs + REG_INT_ENABLE);
	check_id(r);
	r->mod->bad_job(r);
	for (ms = 0; ms < PROBE_MS; ms++) {
		st = __atomic_load_n(&r->seen, __ATOMIC_SEQ_CST);
		if (st & r->mod->int_error)
			break;
		msleep(1);
	}
	if (!(st & r->mod->int_error))
		fail(r, "no error interrupt for a job on unbacked memory", st);
	if (r->mod->err_code >= 0) {
		uint32_t code = readl(r->regs + r->mod->err_code);

		if (!code)
			fail(r, "error interrupt with ERR_CODE 0", code);
	}
	op_reset(r);
}

static void config(struct run *r, uint8_t c)
{
	static const char *const profiles[] = {"arm64", "arm", "x86"};
	static const char *const backends[] = {"", ":swiotlb=force", ":iommu=1",
					       ":iommu=1:iommu_strict=1"};

	r->mod = &models[c % NMODELS];
	c = (uint8_t)(c / NMODELS); /* 0 .. 42 */
	snprintf(r->opts, sizeof(r->opts),
		 "profile=%s:mem=16M:swiotlb_size=256K:log_path=/dev/null%s%s",
		 profiles[c % 3], backends[(c / 3) % 4],
		 (c / 12) & 1 ? ":sched=lockstep" : "");
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	size_t i;

	(void)argc;
	(void)argv;
	unsetenv("DMAEMU_OPTIONS");
	fuzz_tracing = getenv("FUZZ_DEVICES_TRACE") != NULL;
	for (i = 0; i < NMODELS; i++)
		if (platform_driver_register(&drivers[i]))
			abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct run *r = &run;

	if (size < 1 || size > 1024)
		return -1;
	memset(r, 0, sizeof(*r));
	r->in.p = data + 1;
	r->in.n = size - 1;
	config(r, data[0]);
	TRACE("%s on %s\n", r->mod->name, r->opts);
	r->m = dmaemu_machine_create(r->opts);
	if (!r->m)
		abort();
	r->d = r->mod->create(r->m, "fz0");
	if (!r->d || !r->probed)
		fail(r, "the device was not created and probed", 0);
	r->ring = dma_alloc_coherent(r->dev, RING_SIZE, &r->ring_dma,
				     GFP_KERNEL | __GFP_ZERO);
	r->data = dma_alloc_coherent(r->dev, DATA_SIZE, &r->data_dma,
				     GFP_KERNEL | __GFP_ZERO);
	r->stream = kzalloc(STREAM_SIZE, GFP_KERNEL);
	if (!r->ring || !r->data || !r->stream)
		fail(r, "no buffers", 0);
	writel(0xffffffffu, r->regs + REG_INT_ENABLE);
	while (r->in.n && r->step < MAX_STEPS) {
		r->step++;
		switch (fuzz_get8(&r->in) % 10) {
		case 0:
		case 1:
			op_writel(r);
			break;
		case 2:
			op_narrow(r);
			break;
		case 3:
			op_readl(r);
			break;
		case 4:
			op_ring_bytes(r);
			break;
		case 5:
			op_ring_word(r, false);
			break;
		case 6:
			op_ring_word(r, true);
			break;
		case 7:
			op_wait(r);
			break;
		case 8:
			op_reset(r);
			break;
		default:
			op_stream(r);
			break;
		}
		check_id(r);
	}
	error_probe(r);
	if (r->mapped)
		dma_unmap_single(r->dev, r->stream_dma, STREAM_SIZE,
				 DMA_BIDIRECTIONAL);
	kfree(r->stream);
	dma_free_coherent(r->dev, DATA_SIZE, r->data, r->data_dma);
	dma_free_coherent(r->dev, RING_SIZE, r->ring, r->ring_dma);
	dmaemu_device_destroy(r->d);
	if (r->probed)
		fail(r, "the device was destroyed without remove()", 0);
	dmaemu_machine_destroy(r->m);
	return 0;
}
