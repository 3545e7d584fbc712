// SPDX-License-Identifier: MIT
/*
 * race - a copy-engine driver reuses its staging buffer for the next
 * message right after ringing the doorbell, before the engine has
 * completed the descriptor that reads it.  Whether the engine copies the
 * old message or the new one depends on who runs first: the lab runs the
 * driver under sched=lockstep, tries seed after seed until one
 * interleaving loses the message, and replays that seed to show the same
 * wrong bytes in the same order of events.
 */
#include <errno.h> /* the kernel's <linux/errno.h> is the system's */
#include <stdio.h>
#include <string.h>

#include <dmaemu/devices/copy-engine.h>
#include <dmaemu/device.h>
#include <dmaemu/report.h>
#include <dmaemu/sched.h>
#include <linux/completion.h>
#include <linux/dma-mapping.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/spinlock.h>

#include "lab.h"

/* The copy engine's registers and descriptor (docs/devices/copy-engine.md). */
#define CE_CTRL 0x04
#define CE_INT_STATUS 0x0c
#define CE_INT_ENABLE 0x10
#define CE_RING_LO 0x14
#define CE_RING_HI 0x18
#define CE_RING_SIZE 0x1c
#define CE_TAIL 0x24
#define CE_COMPLETED 0x38
#define CE_CTRL_ENABLE 0x1
#define CE_CTRL_RESET 0x80000000
#define CE_INT_DONE 0x1
#define CE_OP_COPY 1
#define CE_DESC_IRQ 0x100

struct ce_desc {
	u32 ctrl;   /* +0  opcode, IRQ flag */
	u32 len;    /* +4 */
	u64 src;    /* +8  bus address */
	u64 dst;    /* +16 bus address */
	u32 status; /* +24 written back by the engine */
	u32 cookie; /* +28 */
};

#define RING_N 4
#define MSG 48	  /* bytes of a message */
#define SWEEP 8	  /* seeds tried */
#define EVENTS 24 /* events shown of the replay */

/* The driver's state; ring, stage and out in coherent memory. */
struct drv {
	struct device *dev;
	void __iomem *regs;
	spinlock_t lock; /* tail, sent */
	unsigned int tail, sent;
	struct completion done; /* one per interrupt */
	struct ce_desc *ring;
	u8 *stage; /* the staging buffer each message is built in */
	u8 *out;   /* where the engine copies message i: out + i * MSG */
	dma_addr_t ring_dma, stage_dma, out_dma;
};

static irqreturn_t ce_irq(int irq, void *arg)
{
	struct drv *drv = arg;
	u32 st = readl(drv->regs + CE_INT_STATUS);

	(void)irq;
	if (!st)
		return IRQ_NONE;
	writel(st, drv->regs + CE_INT_STATUS);
	complete(&drv->done);
	return IRQ_HANDLED;
}

/* Queue "copy the staging buffer to slot @i" and ring the doorbell. */
static void submit(struct drv *drv, unsigned int i)
{
	struct ce_desc *d;
	unsigned long flags;

	spin_lock_irqsave(&drv->lock, flags);
	d = &drv->ring[drv->tail];
	d->ctrl = CE_OP_COPY | CE_DESC_IRQ;
	d->len = MSG;
	d->src = drv->stage_dma;
	d->dst = drv->out_dma + i * MSG;
	d->status = 0;
	d->cookie = i;
	drv->tail = (drv->tail + 1) % RING_N;
	writel(drv->tail, drv->regs + CE_TAIL); /* doorbell */
	spin_unlock_irqrestore(&drv->lock, flags);
}

/* Count a message as sent. */
static void account(struct drv *drv)
{
	unsigned long flags;

	spin_lock_irqsave(&drv->lock, flags);
	drv->sent++;
	spin_unlock_irqrestore(&drv->lock, flags);
}

static void build(struct drv *drv, char c)
{
	memset(drv->stage, c, MSG);
	snprintf((char *)drv->stage, MSG, "message %c ", c);
}

/* What one run of the driver left in the two slots. */
struct result {
	u8 out[2 * MSG];
	bool ok;
	uint64_t fingerprint, points;
	unsigned int n;	     /* events recorded */
	char ev[EVENTS][48]; /* "ctx: point" */
};

static void record(void *arg, unsigned int ctx, const char *name,
		   const char *point)
{
	struct result *r = arg;

	(void)ctx;
	if (r->n < EVENTS)
		snprintf(r->ev[r->n++], sizeof(r->ev[0]), "%-8s %s", name,
			 point);
}

/* Send messages A and B through the engine on a lockstep machine made
 * with @seed; @r gets what arrived.  Return: 0, or -1 on a setup failure. */
static int run(const struct lab *lab, unsigned long long seed, struct result *r)
{
	char opts[128];
	struct dmaemu_machine *m;
	struct dmaemu_device *ce;
	struct drv drv = {0};
	unsigned int n;
	int irq, ret = -1;

	/* At the level the lab was built at (lab_start() does the same). */
	snprintf(opts, sizeof(opts), "profile=%s:seed=%llu:sched=lockstep%s",
		 lab->profile, seed,
		 DMAEMU_KERNEL == 612 ? ":kernel=6.12" : "");
	m = dmaemu_machine_create(opts);
	if (!m) {
		lab_fail(lab, "dmaemu_machine_create()", errno);
		return -1;
	}
	memset(r, 0, sizeof(*r));
	ce = dmaemu_copy_engine_create(m, "ce0");
	if (!ce) {
		lab_fail(lab, "dmaemu_copy_engine_create()", errno);
		goto out_machine;
	}
	drv.dev = dmaemu_device_to_dev(ce);
	drv.regs = dmaemu_device_regs(ce);
	spin_lock_init(&drv.lock);
	init_completion(&drv.done);
	drv.ring = dma_alloc_coherent(drv.dev, RING_N * sizeof(*drv.ring),
				      &drv.ring_dma, GFP_KERNEL);
	drv.stage =
		dma_alloc_coherent(drv.dev, MSG, &drv.stage_dma, GFP_KERNEL);
	drv.out =
		dma_alloc_coherent(drv.dev, 2 * MSG, &drv.out_dma, GFP_KERNEL);
	if (!drv.ring || !drv.stage || !drv.out) {
		lab_fail(lab, "dma_alloc_coherent()", -ENOMEM);
		goto out_device;
	}
	irq = dmaemu_device_irq(ce, 0);
	if (irq < 0) {
		lab_fail(lab, "dmaemu_device_irq()", irq);
		goto out_device;
	}
	ret = request_irq(irq, ce_irq, 0, "race", &drv);
	if (ret) {
		lab_fail(lab, "request_irq()", ret);
		ret = -1;
		goto out_device;
	}
	memset(drv.out, 0, 2 * MSG);
	writel(lower_32_bits(drv.ring_dma), drv.regs + CE_RING_LO);
	writel(upper_32_bits(drv.ring_dma), drv.regs + CE_RING_HI);
	writel(RING_N, drv.regs + CE_RING_SIZE);
	writel(CE_INT_DONE, drv.regs + CE_INT_ENABLE);
	writel(CE_CTRL_ENABLE, drv.regs + CE_CTRL);

	/* From here on, the events are the lab's story. */
	dmaemu_sched_set_trace(m, record, r);
	build(&drv, 'A');
	submit(&drv, 0);
	account(&drv);
#ifdef LAB_FIXED
	/* FIX: the staging buffer belongs to the engine until descriptor 0
	 * has completed: wait for its interrupt before building the next
	 * message in it. */
	wait_for_completion(&drv.done);
#endif
	build(&drv, 'B'); /* the bug: the engine may not have read A yet */
	submit(&drv, 1);
	account(&drv);
	while ((n = readl(drv.regs + CE_COMPLETED)) < 2)
		if (!wait_for_completion_timeout(&drv.done,
						 msecs_to_jiffies(1000)))
			break;
	dmaemu_sched_set_trace(m, NULL, NULL);
	r->fingerprint = dmaemu_sched_fingerprint(m, &r->points);
	memcpy(r->out, drv.out, 2 * MSG);
	r->ok = n >= 2 && r->out[8] == 'A' && r->out[MSG + 8] == 'B';
	writel(0, drv.regs + CE_INT_ENABLE);
	writel(CE_CTRL_RESET, drv.regs + CE_CTRL);
	free_irq(irq, &drv);
	ret = 0;
out_device:
	if (drv.out)
		dma_free_coherent(drv.dev, 2 * MSG, drv.out, drv.out_dma);
	if (drv.stage)
		dma_free_coherent(drv.dev, MSG, drv.stage, drv.stage_dma);
	if (drv.ring)
		dma_free_coherent(drv.dev, RING_N * sizeof(*drv.ring), drv.ring,
				  drv.ring_dma);
	dmaemu_device_destroy(ce);
out_machine:
	if (dmaemu_report_count(m, NULL)) {
		if (!ret)
			fprintf(stderr,
				"%s: seed %llu: the run made reports (above)\n",
				lab->name, seed);
		ret = -1;
	}
	dmaemu_machine_destroy(m);
	return ret;
}

static void say_slots(const struct result *r)
{
	lab_say("  slot 0: \"%.*s\"", 10, (const char *)r->out);
	lab_say("  slot 1: \"%.*s\"", 10, (const char *)r->out + MSG);
}

int main(int argc, char **argv)
{
	struct lab *lab = lab_start("race", argc, argv, "sched=lockstep");
	static struct result r, again;
	unsigned long long seed, bad = 0;
	unsigned int i, wrong = 0;
	bool found = false, same;

	if (!lab)
		return 2;
	lab_say("each run: build message A in the staging buffer, submit it,"
		" build B in the same buffer, submit it");
	for (i = 0; i < SWEEP; i++) {
		seed = lab->seed + i;
		if (run(lab, seed, &r))
			return 2;
		lab_say("seed %-3llu slot 0 \"%.9s\"  %s", seed,
			(const char *)r.out, r.ok ? "right" : "WRONG");
		if (!r.ok) {
			wrong++;
			if (!found)
				bad = seed;
			found = true;
		}
	}
	if (!found) {
		lab_say("%u seeds, every message arrived as built", SWEEP);
		return lab_finish(lab, true);
	}
	lab_say("%u of %u seeds lost message A; the first is seed %llu", wrong,
		SWEEP, bad);
	if (run(lab, bad, &r) || run(lab, bad, &again))
		return 2;
	same = !memcmp(r.out, again.out, sizeof(r.out)) &&
	       r.fingerprint == again.fingerprint && r.points == again.points;
	lab_say("replaying seed %llu twice:", bad);
	say_slots(&r);
	lab_say("  %llu scheduling points, fingerprint %016llx; the second "
		"replay: %s",
		(unsigned long long)r.points, (unsigned long long)r.fingerprint,
		same ? "the same bytes, the same events" : "DIFFERENT");
	lab_say("the first events from the submit of message A on:");
	for (i = 0; i < r.n; i++)
		lab_say("  %2u  %s", i, r.ev[i]);
	return lab_finish(lab, false);
}
