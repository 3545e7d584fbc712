// SPDX-License-Identifier: MIT
/*
 * wc-display - a display driver draws a frame into a write-combining
 * framebuffer (dma_alloc_wc()) and starts the scan-out with
 * writel_relaxed(), without wmb(): the last pixels it drew are still in
 * the CPU's write-combining buffers when the controller reads the frame,
 * so the frame on the screen is torn.  The frame the controller scanned is
 * saved as a PNG file (README.md says where).
 */
#include <errno.h> /* the kernel's <linux/errno.h> is the system's */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <asm/barrier.h>
#include <dmaemu/device.h>
#include <dmaemu/devices/display.h>
#include <dmaemu/testing.h>
#include <linux/completion.h>
#include <linux/dma-mapping.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/jiffies.h>

#include "lab.h"

/* The display controller's registers (docs/devices/display.md). */
#define DC_CTRL 0x04
#define DC_INT_STATUS 0x0c
#define DC_INT_ENABLE 0x10
#define DC_FB_LO 0x14
#define DC_FB_HI 0x18
#define DC_WIDTH 0x1c
#define DC_HEIGHT 0x20
#define DC_STRIDE 0x24
#define DC_FORMAT 0x28
#define DC_FLIP 0x2c
#define DC_FRAMES 0x3c
#define DC_CTRL_ENABLE 0x1
#define DC_CTRL_RESET 0x80000000
#define DC_INT_VBLANK 0x1
#define DC_FMT_XRGB8888 1

#define WIDTH 64
#define HEIGHT 48
#define STRIDE (WIDTH * 4)
#define FB_SIZE (STRIDE * HEIGHT)

struct fbdev {
	void __iomem *regs;
	u32 *fb; /* write-combining */
	dma_addr_t fb_dma;
	struct completion vblank;
};

static irqreturn_t fb_irq(int irq, void *data)
{
	struct fbdev *f = data;
	u32 st = readl(f->regs + DC_INT_STATUS);

	(void)irq;
	if (!st)
		return IRQ_NONE;
	writel(st, f->regs + DC_INT_STATUS);
	if (st & DC_INT_VBLANK)
		complete(&f->vblank);
	return IRQ_HANDLED;
}

/* Frame 1: dark blue, a lighter border.  Frame 2: a green-to-yellow
 * gradient with a white diagonal.  Any two colours that differ will do. */
static u32 frame_pixel(int frame, int x, int y)
{
	if (frame == 1)
		return (x == 0 || y == 0 || x == WIDTH - 1 || y == HEIGHT - 1)
			       ? 0x4060c0
			       : 0x102060;
	if (x == y || x == y + 16)
		return 0xffffff;
	return (u32)(x * 4) << 16 | 0xa000 | (u32)(y * 2);
}

/* Draw @frame pixel by pixel, row after row, as a software renderer does. */
static void draw(struct fbdev *f, int frame)
{
	int x, y;

	for (y = 0; y < HEIGHT; y++)
		for (x = 0; x < WIDTH; x++)
			f->fb[y * WIDTH + x] = frame_pixel(frame, x, y);
}

/* What the CPU still holds back of the framebuffer. */
static long pending(struct lab *lab, struct fbdev *f)
{
	struct dmaemu_addr_info ai;

	if (dmaemu_addr_info(f->fb, &ai))
		return -1;
	return dmaemu_wc_pending(lab->m, ai.phys, FB_SIZE);
}

static bool wait_vblank(struct fbdev *f)
{
	return wait_for_completion_timeout(&f->vblank,
					   msecs_to_jiffies(5000)) != 0;
}

/*
 * Compare what the controller scanned with frame 2; print each row with
 * pixels that are not frame 2's.  Return: true when the frame is whole.
 */
static bool compare(const u32 *got)
{
	int x, y, torn = 0, old = 0;

	for (y = 0; y < HEIGHT; y++) {
		int first = -1, last = -1, n = 0;

		for (x = 0; x < WIDTH; x++) {
			if (got[y * WIDTH + x] == frame_pixel(2, x, y))
				continue;
			if (first < 0)
				first = x;
			last = x;
			n++;
			if (got[y * WIDTH + x] == frame_pixel(1, x, y))
				old++;
		}
		if (n) {
			lab_say("row %2d: %d pixels torn, x %d..%d", y, n,
				first, last);
			torn += n;
		}
	}
	if (torn)
		lab_say("%d of %d pixels are not the frame drawn; %d of them "
			"are the previous frame's",
			torn, WIDTH * HEIGHT, old);
	else
		lab_say("every pixel is the frame drawn");
	return !torn;
}

/* The size of the file at @path, or -1. */
static long file_size(const char *path)
{
	FILE *f = fopen(path, "rb");
	long n = -1;

	if (f && !fseek(f, 0, SEEK_END))
		n = ftell(f);
	if (f)
		fclose(f);
	return n;
}

/*
 * The frame the controller scanned, as a PNG file in DMAEMU_LAB_PNG_DIR.
 * Without it, the file is written in a folder of its own under TMPDIR (or
 * /tmp), checked and removed with its folder: a run leaves no file behind
 * that nobody asked for.
 */
static void save(struct lab *lab, struct dmaemu_device *dc)
{
	const char *dir = getenv("DMAEMU_LAB_PNG_DIR");
	char tmpdir[512] = "", path[1024];
	long size;
	int err;

	if (!dir || !*dir) {
		const char *t = getenv("TMPDIR");

		snprintf(tmpdir, sizeof(tmpdir), "%s/wc-display.XXXXXX",
			 t && *t ? t : "/tmp");
		if (!mkdtemp(tmpdir)) {
			lab_say("could not make a folder for the frame's PNG "
				"file (%s)",
				tmpdir);
			return;
		}
		dir = tmpdir;
	}
	snprintf(path, sizeof(path), "%s/wc-display-%s-%s.png", dir,
		 LAB_VARIANT, lab->profile);
	err = dmaemu_display_save_png(dc, path);
	size = err ? -1 : file_size(path);
	if (err)
		lab_say("could not write %s (error %d)", path, err);
	else if (tmpdir[0])
		lab_say("the frame the controller scanned makes a PNG file of "
			"%ld bytes (DMAEMU_LAB_PNG_DIR=DIR keeps it)",
			size);
	else
		lab_say("the frame the controller scanned: %s", path);
	if (tmpdir[0]) {
		remove(path);
		remove(tmpdir);
	}
}

int main(int argc, char **argv)
{
	struct lab *lab = lab_start("wc-display", argc, argv, NULL);
	struct dmaemu_device *dc;
	struct device *dev;
	struct fbdev f;
	u32 *got;
	long n;
	int irq, ret;
	bool ok;

	if (!lab)
		return 2;
	dc = dmaemu_display_create(lab->m, "disp0");
	if (!dc)
		return lab_fail(lab, "dmaemu_display_create()", errno);
	dev = dmaemu_device_to_dev(dc);
	f.regs = dmaemu_device_regs(dc);
	init_completion(&f.vblank);
	ret = dma_set_mask_and_coherent(dev, DMA_BIT_MASK(64));
	if (ret)
		return lab_fail(lab, "dma_set_mask_and_coherent()", ret);
	f.fb = dma_alloc_wc(dev, FB_SIZE, &f.fb_dma, GFP_KERNEL);
	if (!f.fb)
		return lab_fail(lab, "dma_alloc_wc()", -ENOMEM);
	got = malloc(FB_SIZE);
	if (!got)
		return lab_fail(lab, "malloc()", errno);
	irq = dmaemu_device_irq(dc, 0);
	if (irq < 0)
		return lab_fail(lab, "dmaemu_device_irq()", irq);
	ret = request_irq((unsigned int)irq, fb_irq, 0, "disp0", &f);
	if (ret)
		return lab_fail(lab, "request_irq()", ret);
	writel(DC_CTRL_RESET, f.regs + DC_CTRL);
	writel(DC_INT_VBLANK, f.regs + DC_INT_ENABLE);
	writel(lower_32_bits(f.fb_dma), f.regs + DC_FB_LO);
	writel(upper_32_bits(f.fb_dma), f.regs + DC_FB_HI);
	writel(WIDTH, f.regs + DC_WIDTH);
	writel(HEIGHT, f.regs + DC_HEIGHT);
	writel(STRIDE, f.regs + DC_STRIDE);
	writel(DC_FMT_XRGB8888, f.regs + DC_FORMAT);
	writel(DC_CTRL_ENABLE, f.regs + DC_CTRL);

	/* Frame 1, flipped with writel(): its barrier drains the buffers. */
	draw(&f, 1);
	writel(1, f.regs + DC_FLIP);
	if (!wait_vblank(&f))
		return lab_fail(lab, "wait_vblank(frame 1)", -ETIMEDOUT);
	lab_say("frame 1 (blue) is on the screen: %u frame(s) scanned",
		readl(f.regs + DC_FRAMES));

	/* Frame 2, drawn over it in the same framebuffer. */
	draw(&f, 2);
	lab_say("frame 2 (green, white diagonal) drawn: %d bytes, %ld of "
		"them still in the write-combining buffers",
		FB_SIZE, pending(lab, &f));
#ifdef LAB_FIXED
	/* FIX: wmb() drains the write-combining buffers, so the whole frame
	 * is in memory before the controller is told to scan it.  (writel()
	 * would do the same on arm and arm64: it starts with a wmb().) */
	wmb();
	lab_say("wmb(): %ld bytes pending now", pending(lab, &f));
#endif
	writel_relaxed(1, f.regs + DC_FLIP); /* scan out frame 2 */
	if (!wait_vblank(&f))
		return lab_fail(lab, "wait_vblank(frame 2)", -ETIMEDOUT);
	lab_say("vblank: %u frames scanned", readl(f.regs + DC_FRAMES));

	n = dmaemu_display_last_frame(dc, NULL, got, FB_SIZE);
	ok = n == FB_SIZE && compare(got);
	save(lab, dc);

	writel(0, f.regs + DC_INT_ENABLE);
	writel(DC_CTRL_RESET, f.regs + DC_CTRL);
	free_irq((unsigned int)irq, &f);
	dma_free_wc(dev, FB_SIZE, f.fb, f.fb_dma);
	free(got);
	dmaemu_device_destroy(dc);
	return lab_finish(lab, ok);
}
