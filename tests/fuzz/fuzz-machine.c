// SPDX-License-Identifier: MIT
/*
 * fuzz-machine.c - one machine with all six device models at once, driven
 * by garbage from the main thread while driver threads run DMA API call
 * sequences of their own and destroy their devices in the middle.
 *
 * How it works.  The first byte chooses the machine (profile arm64, arm or
 * x86; direct, swiotlb=force, iommu=1 or iommu=1:iommu_strict=1;
 * sched=threads or sched=lockstep).  The next two give the length of the
 * programs of two driver threads (dmaemu_thread_create()); the bytes that
 * follow are their programs, then the main thread's.  A missing byte reads
 * as 0, so any input is a complete run.
 *
 * The main thread has the six models (copy engine, network card, checksum
 * engine, legacy, display, camera), each probed by a platform driver of
 * its name that ioremaps the register window and requests the interrupt,
 * and each with a coherent ring (4 KiB) and data buffer (16 KiB).  Its
 * steps, each on the device the step names: writel() of any register
 * (random values, halves of the ring's and buffer's bus addresses, of
 * addresses nothing backs, single bits, all ones), writeb()/writew(),
 * readl(), bytes and words stored into the ring (garbage descriptors), a
 * wait, the model's reset bit, the handler's behaviour (acknowledge and
 * return IRQ_HANDLED; return IRQ_NONE without acknowledging; acknowledge
 * and return IRQ_NONE; and under sched=threads, return IRQ_HANDLED
 * without acknowledging, an interrupt storm), and an early destroy of the
 * device with its buffers still allocated, whatever it is doing and with
 * its interrupts in flight.
 *
 * Each driver thread has a bare device (no model: the thread plays the
 * device with dmaemu_dma_read()/dmaemu_dma_write()) and up to four
 * kmalloc() buffers and one coherent buffer, and makes only valid calls:
 * kmalloc() and a CPU fill, dma_map_single() in any direction, the
 * device's accesses its mapping's direction allows while it owns the
 * buffer, dma_sync_single_for_cpu() and a CPU read, _for_device() (after
 * a CPU write unless DMA_FROM_DEVICE), unmap, kfree(), a coherent
 * allocation the device writes and reads, its free; and one misuse: the
 * device destroyed with its mappings and allocation live (then made
 * again under a new name).
 *
 * Invariants:
 *  - no crash, hang (libFuzzer's -timeout) or sanitizer finding (ASan,
 *    UBSan, LeakSanitizer) whatever the programs did;
 *  - every misuse gets its report: a device destroyed with N streaming
 *    mappings and coherent allocations live gets N leaked-mapping reports
 *    naming it (a model's two buffers; a thread's mappings and its
 *    coherent buffer); a handler that returned IRQ_NONE 100 times in a
 *    row gets an unhandled-irq report naming its device;
 *  - a valid sequence gets no report: no report is made on a driver
 *    thread but the leaked-mapping ones of its destroys (once a destroy
 *    released a DMA_FROM_DEVICE or DMA_BIDIRECTIONAL mapping, the memory
 *    it leaves may hold lines the CPU never took back, and coherence
 *    reports of later users of that memory are the misuse's), and a
 *    device access of a live mapping in the direction it allows
 *    succeeds;
 *  - no report is located inside the library: the driver's code a report
 *    names (@where, "function+0x..") is never a function of libdmaemu;
 *  - the ID register of a live model reads its value after every step.
 * A broken invariant prints what broke and aborts.
 *
 * An interrupt storm under sched=lockstep freezes the emulated clock
 * (the handler's context is always runnable) and is left out unless
 * FUZZ_MACHINE_STORM=1 is set.  FUZZ_MACHINE_TRACE=1 prints each step.
 */
#include "config.h"

#include <pthread.h>
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
#include <dmaemu/report.h>
#include <dmaemu/sched.h>
#include <linux/delay.h>
#include <linux/dma-mapping.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/platform_device.h>
#include <linux/slab.h>

#include "fuzz-input.h"

#define NMODELS 6
#define NWORKERS 2
#define RING_SIZE 4096
#define DATA_SIZE (16u << 10)
#define MAIN_STEPS 96
#define WORKER_STEPS 64
#define NBUFS 4
#define BUF_MAX 2048
#define COH_SIZE 4096
#define UNHANDLED_LIMIT 100 /* docs/checkers.md: "nobody cared" */

#define BAD64 0xdead00000000ull
#define BAD32 0x00010000u
#define REG_INT_STATUS 0x0c
#define REG_INT_ENABLE 0x10

enum irq_mode { IRQ_ACK, IRQ_NONE_NOACK, IRQ_NONE_ACK, IRQ_STORM, IRQ_MODES };

struct model {
	const char *name;
	struct dmaemu_device *(*create)(struct dmaemu_machine *, const char *);
	unsigned int mmio_size;
	uint32_t id;
	unsigned int reset_reg;
	uint32_t reset_val;
	bool dma32;
};

static const struct model models[NMODELS] = {
	{DMAEMU_CE_NAME, dmaemu_copy_engine_create, DMAEMU_CE_MMIO_SIZE,
	 DMAEMU_CE_ID_VALUE, DMAEMU_CE_REG_CTRL, DMAEMU_CE_CTRL_RESET, false},
	{DMAEMU_NIC_NAME, dmaemu_nic_create, DMAEMU_NIC_MMIO_SIZE,
	 DMAEMU_NIC_ID_VALUE, DMAEMU_NIC_REG_CTRL, DMAEMU_NIC_CTRL_RESET,
	 false},
	{DMAEMU_CSUM_NAME, dmaemu_checksum_create, DMAEMU_CSUM_MMIO_SIZE,
	 DMAEMU_CSUM_ID_VALUE, DMAEMU_CSUM_REG_CMD, DMAEMU_CSUM_CMD_RESET,
	 false},
	{DMAEMU_LEGACY_NAME, dmaemu_legacy_create, DMAEMU_LEGACY_MMIO_SIZE,
	 DMAEMU_LEGACY_ID_VALUE, DMAEMU_LEGACY_REG_CMD, DMAEMU_LEGACY_CMD_RESET,
	 true},
	{DMAEMU_DISP_NAME, dmaemu_display_create, DMAEMU_DISP_MMIO_SIZE,
	 DMAEMU_DISP_ID_VALUE, DMAEMU_DISP_REG_CTRL, DMAEMU_DISP_CTRL_RESET,
	 false},
	{DMAEMU_CAM_NAME, dmaemu_camera_create, DMAEMU_CAM_MMIO_SIZE,
	 DMAEMU_CAM_ID_VALUE, DMAEMU_CAM_REG_CTRL, DMAEMU_CAM_CTRL_RESET,
	 false},
};

/* One model on the main thread. */
struct unit {
	const struct model *mod;
	char name[16];
	struct dmaemu_device *d;
	struct device *dev;
	void __iomem *regs;
	int irq;
	bool probed;
	int mode;     /* enum irq_mode (atomic) */
	int none_run; /* IRQ_NONE in a row (irq thread) */
	int none_max; /* the longest such run (atomic) */
	uint8_t *ring, *data;
	dma_addr_t ring_dma, data_dma;
};

struct wbuf {
	uint8_t *p;
	size_t len;
	dma_addr_t dma;
	enum dma_data_direction dir;
	bool mapped, dev_owns;
};

/* One driver thread. */
struct worker {
	int idx;
	struct fuzz_input in;
	struct dmaemu_device *d;
	struct device *dev;
	char name[24];
	unsigned int gen;
	struct wbuf b[NBUFS];
	uint8_t *coh;
	dma_addr_t coh_dma;
	int step;
};

/* What the report callback counts, per device name. */
#define MAX_NAMES 64
struct tally {
	char name[DMAEMU_REPORT_DEVICE_MAX];
	unsigned int leaked, unhandled;
};

struct run {
	struct dmaemu_machine *m;
	struct fuzz_input in;
	bool lockstep, storms;
	struct unit u[NMODELS];
	struct worker w[NWORKERS];
	int step;
	char opts[160];
	pthread_mutex_t lock; /* the tallies and the failure text */
	struct tally t[MAX_NAMES];
	unsigned int ntally;
	char bad[1024]; /* the first broken invariant seen by the callback */
	bool tainted;	/* a destroy left device data under a CPU's line */
};

static struct run run;
static __thread int on_worker; /* 1 + index on a driver thread */
static __thread bool in_destroy;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fail(const char *what, const char *detail)
{
	fprintf(stderr, "fuzz-machine: %s: step %d: %s%s%s\n", run.opts,
		run.step, what, detail ? ": " : "", detail ? detail : "");
	abort();
}

/* ---------------------------------------------------------------------- */
/* Reports                                                                */
/* ---------------------------------------------------------------------- */

static struct tally *tally_of(struct run *r, const char *name)
{
	unsigned int i;

	for (i = 0; i < r->ntally; i++)
		if (!strcmp(r->t[i].name, name))
			return &r->t[i];
	if (r->ntally == MAX_NAMES)
		return NULL;
	snprintf(r->t[r->ntally].name, sizeof(r->t[0].name), "%s", name);
	return &r->t[r->ntally++];
}

/*
 * Is @where inside the library?  It names the driver's code as
 * "function file.c:line" (with debug information) or "function+0x10
 * (/path/prog)", or is a cause a checker gave.  The library's sources are
 * lib/ and cachesim/ of the tree; its functions, built into this target,
 * are also recognised by their dmaemu prefix.
 */
static bool located_in_library(const char *where)
{
	const char *space = strchr(where, ' ');
	const char *colon;

	if (!strncmp(where, "dmaemu", 6) || !strncmp(where, "__dmaemu", 8))
		return true;
	if (!space)
		return false;
	colon = strchr(space + 1, ':');
	if (!colon || strchr(space + 1, ' ') || colon[1] < '0' ||
	    colon[1] > '9')
		return false; /* not "function file:line" */
	return strstr(space, "lib/") || strstr(space, "cachesim/");
}

static void on_report(struct dmaemu_machine *m, const struct dmaemu_report *rep,
		      void *arg)
{
	struct run *r = arg;
	struct tally *t;
	const char *bad = NULL;

	(void)m;
	TRACE("report %s, device '%s', where '%s'\n", rep->kind_name,
	      rep->device, rep->where);
	pthread_mutex_lock(&r->lock);
	if (rep->device[0] && (t = tally_of(r, rep->device))) {
		if (rep->kind == DMAEMU_REPORT_LEAKED_MAPPING)
			t->leaked++;
		else if (rep->kind == DMAEMU_REPORT_UNHANDLED_IRQ)
			t->unhandled++;
	}
	if (rep->where[0] && located_in_library(rep->where))
		bad = "a report located inside the library";
	else if (on_worker &&
		 !(in_destroy && rep->kind == DMAEMU_REPORT_LEAKED_MAPPING) &&
		 !__atomic_load_n(&r->tainted, __ATOMIC_SEQ_CST))
		bad = "a report on a driver thread's valid sequence";
	if (bad && !r->bad[0])
		snprintf(r->bad, sizeof(r->bad), "%s (%s, where '%s'):\n%s",
			 bad, rep->kind_name, rep->where, rep->text);
	pthread_mutex_unlock(&r->lock);
}

static void tally_get(struct run *r, const char *name, unsigned int *leaked,
		      unsigned int *unhandled)
{
	struct tally *t;

	pthread_mutex_lock(&r->lock);
	t = tally_of(r, name);
	*leaked = t ? t->leaked : 0;
	*unhandled = t ? t->unhandled : 0;
	pthread_mutex_unlock(&r->lock);
}

static void check_bad(struct run *r)
{
	char bad[sizeof(r->bad)];

	pthread_mutex_lock(&r->lock);
	memcpy(bad, r->bad, sizeof(bad));
	pthread_mutex_unlock(&r->lock);
	if (bad[0])
		fail("broken invariant", bad);
}

/* ---------------------------------------------------------------------- */
/* The six drivers                                                        */
/* ---------------------------------------------------------------------- */

static irqreturn_t fz_irq(int irq, void *arg)
{
	struct unit *u = arg;
	int mode = __atomic_load_n(&u->mode, __ATOMIC_SEQ_CST);
	uint32_t st = readl(u->regs + REG_INT_STATUS);

	(void)irq;
	if (mode == IRQ_ACK || mode == IRQ_NONE_ACK)
		writel(st, u->regs + REG_INT_STATUS);
	if (mode == IRQ_ACK || mode == IRQ_STORM) {
		u->none_run = 0;
		return IRQ_HANDLED;
	}
	if (++u->none_run > __atomic_load_n(&u->none_max, __ATOMIC_SEQ_CST))
		__atomic_store_n(&u->none_max, u->none_run, __ATOMIC_SEQ_CST);
	return IRQ_NONE;
}

static struct unit *unit_of(struct platform_device *pdev)
{
	int i;

	for (i = 0; i < NMODELS; i++)
		if (!strcmp(pdev->name, models[i].name))
			return &run.u[i];
	return NULL;
}

static int fz_probe(struct platform_device *pdev)
{
	struct unit *u = unit_of(pdev);
	struct resource *res;
	int err;

	if (!u)
		return -ENODEV;
	res = platform_get_resource(pdev, IORESOURCE_MEM, 0);
	if (!res)
		return -ENODEV;
	u->regs = devm_ioremap_resource(&pdev->dev, res);
	if (IS_ERR(u->regs))
		return (int)PTR_ERR(u->regs);
	u->irq = platform_get_irq(pdev, 0);
	if (u->irq < 0)
		return u->irq;
	err = dma_set_mask_and_coherent(&pdev->dev, u->mod->dma32
							    ? DMA_BIT_MASK(32)
							    : DMA_BIT_MASK(64));
	if (err)
		return err;
	err = request_irq((unsigned int)u->irq, fz_irq, 0, u->mod->name, u);
	if (err)
		return err;
	u->dev = &pdev->dev;
	u->probed = true;
	return 0;
}

static int fz_remove(struct platform_device *pdev)
{
	struct unit *u = unit_of(pdev);

	free_irq((unsigned int)u->irq, u);
	u->probed = false;
	return 0;
}

#define DRIVER(n)                                       \
	{                                               \
		.probe = fz_probe, .remove = fz_remove, \
		.driver = {.name = (n)},                \
	}

static struct platform_driver drivers[NMODELS] = {
	DRIVER(DMAEMU_CE_NAME),	  DRIVER(DMAEMU_NIC_NAME),
	DRIVER(DMAEMU_CSUM_NAME), DRIVER(DMAEMU_LEGACY_NAME),
	DRIVER(DMAEMU_DISP_NAME), DRIVER(DMAEMU_CAM_NAME),
};

/* ---------------------------------------------------------------------- */
/* The main thread's steps                                                */
/* ---------------------------------------------------------------------- */

static uint64_t addr(struct run *r, struct unit *u)
{
	uint8_t k = fuzz_get8(&r->in);
	uint16_t off = fuzz_get16(&r->in);

	switch (k % 5) {
	case 0:
		return u->ring_dma + off % RING_SIZE;
	case 1:
		return u->data_dma + off % DATA_SIZE;
	case 2:
		return BAD64 + off;
	case 3:
		return BAD32 + (off & 0xfff);
	default:
		return off;
	}
}

static uint32_t value(struct run *r, struct unit *u)
{
	switch (fuzz_get8(&r->in) % 7) {
	case 0:
		return fuzz_get32(&r->in);
	case 1:
		return (uint32_t)addr(r, u);
	case 2:
		return (uint32_t)(addr(r, u) >> 32);
	case 3:
		return fuzz_get8(&r->in);
	case 4:
		return 1u << (fuzz_get8(&r->in) % 32);
	case 5:
		return 0xffffffffu;
	default:
		return 0;
	}
}

static void unit_up(struct run *r, int i)
{
	struct unit *u = &r->u[i];

	u->mod = &models[i];
	snprintf(u->name, sizeof(u->name), "m%d", i);
	u->d = u->mod->create(r->m, u->name);
	if (!u->d || !u->probed)
		fail("a model was not created and probed", u->mod->name);
	u->ring = dma_alloc_coherent(u->dev, RING_SIZE, &u->ring_dma,
				     GFP_KERNEL | __GFP_ZERO);
	u->data = dma_alloc_coherent(u->dev, DATA_SIZE, &u->data_dma,
				     GFP_KERNEL | __GFP_ZERO);
	if (!u->ring || !u->data)
		fail("no buffers", u->mod->name);
	writel(0xffffffffu, u->regs + REG_INT_ENABLE);
}

/* Destroy @u; @early: with its buffers allocated, as they are. */
static void unit_down(struct run *r, struct unit *u, bool early)
{
	unsigned int leaked0, leaked, unh, want = 0;

	tally_get(r, u->name, &leaked0, &unh);
	if (!early) {
		__atomic_store_n(&u->mode, IRQ_ACK, __ATOMIC_SEQ_CST);
		writel(u->mod->reset_val, u->regs + u->mod->reset_reg);
		dma_free_coherent(u->dev, DATA_SIZE, u->data, u->data_dma);
		dma_free_coherent(u->dev, RING_SIZE, u->ring, u->ring_dma);
	} else {
		want = 2;
	}
	dmaemu_device_destroy(u->d);
	if (u->probed)
		fail("a model was destroyed without remove()", u->mod->name);
	tally_get(r, u->name, &leaked, &unh);
	if (leaked - leaked0 != want) {
		char s[96];

		snprintf(s, sizeof(s), "%s: %u leaked-mapping reports, not %u",
			 u->mod->name, leaked - leaked0, want);
		fail("a destroy with live allocations", s);
	}
	u->d = NULL;
}

static void main_step(struct run *r)
{
	struct unit *u = &r->u[fuzz_get8(&r->in) % NMODELS];
	uint8_t op = fuzz_get8(&r->in);
	unsigned int off;
	uint32_t v;

	if (!u->d)
		return;
	switch (op % 12) {
	case 0:
	case 1:
	case 2:
		off = (fuzz_get8(&r->in) * 4u) % u->mod->mmio_size;
		v = value(r, u);
		TRACE("%s: writel(0x%08x, +0x%02x)\n", u->name, v, off);
		writel(v, u->regs + off);
		break;
	case 3:
		off = fuzz_get8(&r->in) % u->mod->mmio_size;
		v = fuzz_get16(&r->in);
		TRACE("%s: narrow write 0x%04x at +0x%02x\n", u->name, v, off);
		if (off & 1)
			writeb((uint8_t)v, u->regs + off);
		else
			writew((uint16_t)v, u->regs + off);
		break;
	case 4:
		off = (fuzz_get8(&r->in) * 4u) % u->mod->mmio_size;
		TRACE("%s: readl(+0x%02x)\n", u->name, off);
		(void)readl(u->regs + off);
		break;
	case 5: {
		unsigned int o = fuzz_get16(&r->in) % RING_SIZE;
		unsigned int len = fuzz_get8(&r->in) % 64;

		if (len > RING_SIZE - o)
			len = RING_SIZE - o;
		len = (unsigned int)fuzz_take(&r->in, u->ring + o, len);
		TRACE("%s: ring[%u..+%u] = input bytes\n", u->name, o, len);
		break;
	}
	case 6: {
		unsigned int o = (fuzz_get16(&r->in) % RING_SIZE) & ~7u;
		uint64_t a = addr(r, u);

		TRACE("%s: ring[%u] = 0x%llx\n", u->name, o,
		      (unsigned long long)a);
		memcpy(u->ring + o, &a, 8);
		break;
	}
	case 7: {
		unsigned int ms = fuzz_get8(&r->in) % 4;

		TRACE("wait %u ms\n", ms);
		while (ms--)
			msleep(1);
		break;
	}
	case 8:
		TRACE("%s: reset\n", u->name);
		writel(u->mod->reset_val, u->regs + u->mod->reset_reg);
		break;
	case 9:
	case 10: {
		int mode = fuzz_get8(&r->in) % IRQ_MODES;

		if (mode == IRQ_STORM && !r->storms)
			mode = IRQ_NONE_NOACK;
		TRACE("%s: handler mode %d\n", u->name, mode);
		__atomic_store_n(&u->mode, mode, __ATOMIC_SEQ_CST);
		break;
	}
	default:
		TRACE("%s: early destroy\n", u->name);
		unit_down(r, u, true);
		return;
	}
	if (readl(u->regs) != u->mod->id)
		fail("the ID register changed", u->mod->name);
}

/* ---------------------------------------------------------------------- */
/* The driver threads                                                     */
/* ---------------------------------------------------------------------- */

static void fzw_device(struct worker *w)
{
	snprintf(w->name, sizeof(w->name), "w%d.%u", w->idx, w->gen++);
	w->d = dmaemu_device_create(run.m, w->name, NULL, NULL);
	if (!w->d)
		fail("a driver thread's device was not created", w->name);
	w->dev = dmaemu_device_to_dev(w->d);
	if (dma_set_mask_and_coherent(w->dev, DMA_BIT_MASK(64)))
		fail("dma_set_mask_and_coherent() refused 64 bits", w->name);
}

/* The misuse: destroy the device with what is live, expect its reports. */
static void fzw_destroy(struct worker *w)
{
	unsigned int leaked0, leaked, unh, want = 0, i;

	for (i = 0; i < NBUFS; i++) {
		want += w->b[i].mapped;
		/* The device may have written a buffer the CPU never took
		 * back: its lines may hold the CPU's old bytes, which a later
		 * user of the memory writes back over the device's (a
		 * lost-device-write on a valid sequence, the misuse's). */
		if (w->b[i].mapped && w->b[i].dir != DMA_TO_DEVICE)
			__atomic_store_n(&run.tainted, true, __ATOMIC_SEQ_CST);
	}
	want += w->coh != NULL;
	tally_get(&run, w->name, &leaked0, &unh);
	TRACE("%s: destroy with %u live\n", w->name, want);
	in_destroy = true;
	dmaemu_device_destroy(w->d);
	in_destroy = false;
	tally_get(&run, w->name, &leaked, &unh);
	if (leaked - leaked0 != want) {
		char s[96];

		snprintf(s, sizeof(s), "%s: %u leaked-mapping reports, not %u",
			 w->name, leaked - leaked0, want);
		fail("a destroy with live mappings", s);
	}
	/* The destroy released the mappings and the coherent buffer. */
	for (i = 0; i < NBUFS; i++) {
		kfree(w->b[i].p);
		memset(&w->b[i], 0, sizeof(w->b[i]));
	}
	w->coh = NULL;
	fzw_device(w);
}

static void fzw_dev_access(struct worker *w, struct wbuf *b, uint8_t k)
{
	size_t off = fuzz_get16(&w->in) % b->len;
	size_t len = 1 + fuzz_get8(&w->in) % (b->len - off);
	uint8_t tmp[BUF_MAX];
	bool write = b->dir == DMA_FROM_DEVICE ||
		     (b->dir == DMA_BIDIRECTIONAL && (k & 1));
	int err;

	if (write) {
		memset(tmp, k, len);
		err = dmaemu_dma_write(w->d, b->dma + off, tmp, len);
	} else {
		err = dmaemu_dma_read(w->d, b->dma + off, tmp, len);
	}
	TRACE("%s: device %s %zu at +%zu: %d\n", w->name,
	      write ? "write" : "read", len, off, err);
	if (err)
		fail("a device access of a live mapping failed", w->name);
}

static void fzw_step(struct worker *w)
{
	uint8_t op = fuzz_get8(&w->in);
	struct wbuf *b = &w->b[(op >> 4) % NBUFS];
	uint8_t k = fuzz_get8(&w->in);
	uint8_t tmp[BUF_MAX];

	TRACE("%s: op %u on buffer %u (%p)\n", w->name, op % 10,
	      (op >> 4) % NBUFS, (void *)b->p);
	switch (op % 10) {
	case 0: /* kmalloc and fill, or map */
		if (!b->p) {
			/* A whole kmalloc-2048 object, so that no two
			 * buffers share a cache line on any profile (x86's
			 * kmalloc-8 objects would: overlapping-mappings). */
			b->len = 1 + (size_t)fuzz_get16(&w->in) % BUF_MAX;
			b->p = kmalloc(BUF_MAX,
				       k & 1 ? GFP_ATOMIC : GFP_KERNEL);
			if (!b->p)
				fail("kmalloc() failed", w->name);
			memset(b->p, k, b->len);
			TRACE("%s: kmalloc %zu\n", w->name, b->len);
			break;
		}
		/* fall through */
	case 1:
		if (!b->p || b->mapped)
			break;
		b->dir = (enum dma_data_direction)(k % 3);
		b->dma = dma_map_single(w->dev, b->p, b->len, b->dir);
		b->mapped = !dma_mapping_error(w->dev, b->dma);
		b->dev_owns = b->mapped;
		TRACE("%s: map %zu dir %d: %d\n", w->name, b->len, b->dir,
		      b->mapped);
		break;
	case 2:
	case 3:
		if (b->mapped && b->dev_owns)
			fzw_dev_access(w, b, k);
		break;
	case 4:
		if (!b->mapped || !b->dev_owns)
			break;
		TRACE("%s: sync for cpu, read\n", w->name);
		dma_sync_single_for_cpu(w->dev, b->dma, b->len, b->dir);
		b->dev_owns = false;
		memcpy(tmp, b->p, b->len);
		break;
	case 5:
		if (!b->mapped || b->dev_owns)
			break;
		TRACE("%s: write, sync for device\n", w->name);
		if (b->dir != DMA_FROM_DEVICE)
			memset(b->p, k, b->len);
		dma_sync_single_for_device(w->dev, b->dma, b->len, b->dir);
		b->dev_owns = true;
		break;
	case 6:
		if (!b->mapped)
			break;
		TRACE("%s: unmap\n", w->name);
		dma_unmap_single(w->dev, b->dma, b->len, b->dir);
		b->mapped = false;
		if (k & 1)
			memcpy(tmp, b->p, b->len);
		break;
	case 7:
		if (!b->p || b->mapped)
			break;
		TRACE("%s: kfree\n", w->name);
		kfree(b->p);
		b->p = NULL;
		break;
	case 8:
		if (!w->coh) {
			w->coh = dma_alloc_coherent(w->dev, COH_SIZE,
						    &w->coh_dma, GFP_KERNEL);
			TRACE("%s: coherent alloc: %d\n", w->name, !!w->coh);
			if (!w->coh)
				fail("dma_alloc_coherent() failed", w->name);
		} else if (k & 1) {
			unsigned int off = fuzz_get16(&w->in) % COH_SIZE;
			unsigned int len = 1 + k % (COH_SIZE - off);

			memset(tmp, k, len);
			TRACE("%s: coherent device write, read %u\n", w->name,
			      len);
			if (dmaemu_dma_write(w->d, w->coh_dma + off, tmp,
					     len) ||
			    dmaemu_dma_read(w->d, w->coh_dma + off, tmp, len))
				fail("a device access of a coherent buffer "
				     "failed",
				     w->name);
		} else {
			TRACE("%s: coherent free\n", w->name);
			dma_free_coherent(w->dev, COH_SIZE, w->coh, w->coh_dma);
			w->coh = NULL;
		}
		break;
	default:
		if (k % 4 == 0)
			fzw_destroy(w);
		break;
	}
}

static void *fzw_main(void *arg)
{
	struct worker *w = arg;
	unsigned int i;

	on_worker = 1 + w->idx;
	while (w->in.n && w->step < WORKER_STEPS) {
		w->step++;
		fzw_step(w);
	}
	/* The orderly end: every mapping undone, every buffer freed. */
	for (i = 0; i < NBUFS; i++) {
		if (w->b[i].mapped)
			dma_unmap_single(w->dev, w->b[i].dma, w->b[i].len,
					 w->b[i].dir);
		kfree(w->b[i].p);
	}
	if (w->coh)
		dma_free_coherent(w->dev, COH_SIZE, w->coh, w->coh_dma);
	dmaemu_device_destroy(w->d);
	on_worker = 0;
	return NULL;
}

/* ---------------------------------------------------------------------- */
/* The run                                                                */
/* ---------------------------------------------------------------------- */

static void config(struct run *r, uint8_t c)
{
	static const char *const profiles[] = {"arm64", "arm", "x86"};
	static const char *const backends[] = {"", ":swiotlb=force", ":iommu=1",
					       ":iommu=1:iommu_strict=1"};

	r->lockstep = (c / 12) & 1;
	r->storms = !r->lockstep || getenv("FUZZ_MACHINE_STORM");
	snprintf(r->opts, sizeof(r->opts),
		 "profile=%s:mem=32M:swiotlb_size=1M:log_path=/dev/null%s%s",
		 profiles[c % 3], backends[(c / 3) % 4],
		 r->lockstep ? ":sched=lockstep" : "");
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	int i;

	(void)argc;
	(void)argv;
	unsetenv("DMAEMU_OPTIONS");
	fuzz_tracing = getenv("FUZZ_MACHINE_TRACE") != NULL;
	pthread_mutex_init(&run.lock, NULL);
	for (i = 0; i < NMODELS; i++)
		if (platform_driver_register(&drivers[i]))
			abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct run *r = &run;
	struct dmaemu_thread *th[NWORKERS] = {NULL};
	struct fuzz_input in;
	size_t len;
	int i;

	if (size < 1 || size > 2048)
		return -1;
	memset(r->u, 0, sizeof(r->u));
	memset(r->w, 0, sizeof(r->w));
	memset(r->t, 0, sizeof(r->t));
	r->ntally = 0;
	r->bad[0] = '\0';
	r->tainted = false;
	r->step = 0;
	config(r, data[0]);
	in.p = data + 1;
	in.n = size - 1;
	for (i = 0; i < NWORKERS; i++) {
		r->w[i].idx = i;
		len = fuzz_get8(&in);
		r->w[i].in.p = in.p; /* set below, in order */
		r->w[i].in.n = len;
	}
	for (i = 0; i < NWORKERS; i++) {
		len = r->w[i].in.n < in.n ? r->w[i].in.n : in.n;
		r->w[i].in.p = in.p;
		r->w[i].in.n = len;
		in.p += len;
		in.n -= len;
	}
	r->in = in;
	TRACE("%s\n", r->opts);
	r->m = dmaemu_machine_create(r->opts);
	if (!r->m)
		abort();
	if (dmaemu_report_set_callback(r->m, on_report, r))
		abort();
	for (i = 0; i < NMODELS; i++)
		unit_up(r, i);
	for (i = 0; i < NWORKERS; i++) {
		if (!r->w[i].in.n)
			continue;
		fzw_device(&r->w[i]);
		th[i] = dmaemu_thread_create(r->m, NULL, fzw_main, &r->w[i]);
		if (!th[i])
			fail("dmaemu_thread_create() failed", NULL);
	}
	while (r->in.n && r->step < MAIN_STEPS) {
		r->step++;
		main_step(r);
	}
	r->step = -1;
	for (i = 0; i < NWORKERS; i++)
		if (th[i])
			dmaemu_thread_join(th[i]);
	for (i = 0; i < NMODELS; i++)
		if (r->u[i].d)
			unit_down(r, &r->u[i], false);
	/* The machine's destroy joins the interrupt thread: every report
	 * is in. */
	dmaemu_machine_destroy(r->m);
	check_bad(r);
	for (i = 0; i < NMODELS; i++) {
		unsigned int leaked, unh;

		tally_get(r, r->u[i].name, &leaked, &unh);
		if (r->u[i].none_max >= UNHANDLED_LIMIT && !unh)
			fail("IRQ_NONE 100 times in a row and no unhandled-irq "
			     "report",
			     models[i].name);
	}
	return 0;
}
