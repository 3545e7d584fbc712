// SPDX-License-Identifier: MIT
/*
 * check-display.c - the display controller model (libdmaemu-devices) from
 * the public headers only: registers, a scan-out that gives exactly the
 * framebuffer's pixels (both formats, a stride wider than a row), the
 * vblank interrupt after each frame, the PNG file (its signature and
 * header read byte by byte, its pixels decoded with libpng), errors (bad
 * format and geometry, a row the bus cannot reach, FLIP while disabled or
 * busy) that raise the interrupt and leave the controller usable, the
 * calls' bad arguments, reset, and destroy during a scan.
 */
#include "config.h"

#include <errno.h>
#include <png.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <dmaemu/device.h>
#include <dmaemu/devices/display.h>
#include <dmaemu/machine.h>
#include <dmaemu/report.h>
#include <linux/dma-mapping.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/slab.h>

#include "check-run.h"
#include "threads.h"

#define WAIT_FOR(cond) WAIT_UNTIL(cond, 20000)

static const char *const profiles[] = {"arm", "arm64", "x86"};

struct disp {
	struct dmaemu_machine *m;
	struct dmaemu_device *d;
	struct device *dev;
	uint8_t *regs;
	unsigned int irq;
	counter_t irqs;
	counter_t seen; /* INT_STATUS bits the handler acknowledged */
};

static irqreturn_t disp_irq(int irq, void *data)
{
	struct disp *e = data;
	uint32_t st = readl(e->regs + DMAEMU_DISP_REG_INT_STATUS);

	(void)irq;
	if (!st)
		return IRQ_NONE;
	writel(st, e->regs + DMAEMU_DISP_REG_INT_STATUS);
	cset(&e->seen, cget(&e->seen) | (int)st);
	cinc(&e->irqs);
	return IRQ_HANDLED;
}

static void disp_open_opts(struct disp *e, const char *opts)
{
	memset(e, 0, sizeof(*e));
	e->m = dmaemu_machine_create(opts);
	ck_assert_ptr_nonnull(e->m);
	e->d = dmaemu_display_create(e->m, "disp0");
	ck_assert_ptr_nonnull(e->d);
	e->dev = dmaemu_device_to_dev(e->d);
	e->regs = dmaemu_device_regs(e->d);
	ck_assert_int_eq(dma_set_mask_and_coherent(e->dev, DMA_BIT_MASK(64)),
			 0);
	ck_assert_uint_eq(readl(e->regs + DMAEMU_DISP_REG_ID),
			  DMAEMU_DISP_ID_VALUE);
	e->irq = (unsigned int)dmaemu_device_irq(e->d, 0);
	ck_assert_int_eq(request_irq(e->irq, disp_irq, 0, "disp0", e), 0);
	writel(DMAEMU_DISP_INT_VBLANK | DMAEMU_DISP_INT_ERROR,
	       e->regs + DMAEMU_DISP_REG_INT_ENABLE);
	writel(DMAEMU_DISP_CTRL_ENABLE, e->regs + DMAEMU_DISP_REG_CTRL);
}

static void disp_open(struct disp *e, const char *profile)
{
	char opts[96];

	snprintf(opts, sizeof(opts), "profile=%s:log_path=/dev/null", profile);
	disp_open_opts(e, opts);
}

static void disp_close(struct disp *e, uint64_t reports)
{
	writel(DMAEMU_DISP_CTRL_RESET, e->regs + DMAEMU_DISP_REG_CTRL);
	free_irq(e->irq, e);
	dmaemu_device_destroy(e->d);
	ck_assert_uint_eq(dmaemu_report_count(e->m, NULL), reports);
	dmaemu_machine_destroy(e->m);
}

static uint32_t reg(struct disp *e, unsigned int off)
{
	return readl(e->regs + off);
}

static void set_mode(struct disp *e, uint64_t fb, uint32_t w, uint32_t h,
		     uint32_t stride, uint32_t format)
{
	writel((uint32_t)fb, e->regs + DMAEMU_DISP_REG_FB_LO);
	writel((uint32_t)(fb >> 32), e->regs + DMAEMU_DISP_REG_FB_HI);
	writel(w, e->regs + DMAEMU_DISP_REG_WIDTH);
	writel(h, e->regs + DMAEMU_DISP_REG_HEIGHT);
	writel(stride, e->regs + DMAEMU_DISP_REG_STRIDE);
	writel(format, e->regs + DMAEMU_DISP_REG_FORMAT);
}

/* FLIP and wait for the interrupt; return the INT_STATUS bits seen. */
static uint32_t flip(struct disp *e)
{
	int before = cget(&e->irqs);

	cset(&e->seen, 0);
	writel(1, e->regs + DMAEMU_DISP_REG_FLIP);
	WAIT_FOR(cget(&e->irqs) > before &&
		 !(reg(e, DMAEMU_DISP_REG_STATUS) & DMAEMU_DISP_STATUS_BUSY));
	return (uint32_t)cget(&e->seen);
}

/* A pixel value that differs at every position and frame; the X byte of
 * XRGB8888 (bits 24-31), which the PNG must ignore, is not 0. */
static uint32_t pixel(uint32_t x, uint32_t y, uint32_t frame)
{
	return ((x * 0x010307u + y * 0x0b0d11u + frame * 0x5a3c1fu) &
		0xffffffu) |
	       0xa5000000u;
}

/* Fill a framebuffer: pixels from pixel(), padding bytes 0xee. */
static void draw(uint8_t *fb, uint32_t w, uint32_t h, uint32_t stride,
		 uint32_t bpp, uint32_t frame)
{
	uint32_t x, y;

	memset(fb, 0xee, (size_t)stride * h);
	for (y = 0; y < h; y++)
		for (x = 0; x < w; x++) {
			uint32_t v = pixel(x, y, frame);

			memcpy(fb + (size_t)y * stride + x * bpp, &v, bpp);
		}
}

/* CRC-32 of IEEE 802.3, bit by bit: what the CRC register must hold. */
static uint32_t crc32_bits(const uint8_t *p, size_t n)
{
	uint32_t crc = 0xffffffffu;
	int k;

	while (n--) {
		crc ^= *p++;
		for (k = 0; k < 8; k++)
			crc = crc >> 1 ^ (0xedb88320u & -(crc & 1));
	}
	return ~crc;
}

/* The frame as the controller must have read it: rows packed. */
static uint8_t *packed(const uint8_t *fb, uint32_t w, uint32_t h,
		       uint32_t stride, uint32_t bpp)
{
	uint8_t *p = malloc((size_t)w * h * bpp);
	uint32_t y;

	ck_assert_ptr_nonnull(p);
	for (y = 0; y < h; y++)
		memcpy(p + (size_t)y * w * bpp, fb + (size_t)y * stride,
		       (size_t)w * bpp);
	return p;
}

static void check_last(struct disp *e, const uint8_t *want, uint32_t w,
		       uint32_t h, uint32_t bpp, uint32_t format, uint64_t fb,
		       uint32_t seq)
{
	struct dmaemu_display_frame f;
	size_t len = (size_t)w * h * bpp;
	uint8_t *got = malloc(len);

	ck_assert_ptr_nonnull(got);
	memset(&f, 0, sizeof(f));
	ck_assert_int_eq(dmaemu_display_last_frame(e->d, &f, NULL, 0),
			 (long)len);
	ck_assert_int_eq(dmaemu_display_last_frame(e->d, &f, got, len),
			 (long)len);
	ck_assert_uint_eq(f.seq, seq);
	ck_assert_uint_eq(f.width, w);
	ck_assert_uint_eq(f.height, h);
	ck_assert_uint_eq(f.format, format);
	ck_assert_uint_eq(f.bpp, bpp);
	ck_assert_uint_eq(f.fb, fb);
	ck_assert(!memcmp(got, want, len));
	free(got);
}

#define W 37
#define H 23

/* _i: profile (0-2) x format (XRGB8888, RGB565).  A scan-out gives the
 * framebuffer's pixels exactly, without the padding of the stride; the
 * next frame replaces it and the vblank interrupt comes after each. */
START_TEST(test_scanout)
{
	uint32_t format =
		_i / 3 ? DMAEMU_DISP_FMT_RGB565 : DMAEMU_DISP_FMT_XRGB8888;
	uint32_t bpp = format == DMAEMU_DISP_FMT_RGB565 ? 2 : 4;
	uint32_t stride = W * bpp + 24, frame;
	struct disp e;
	dma_addr_t dma;
	uint8_t *fb, *want;

	disp_open(&e, profiles[_i % 3]);
	fb = dma_alloc_coherent(e.dev, (size_t)stride * H, &dma, GFP_KERNEL);
	ck_assert_ptr_nonnull(fb);
	set_mode(&e, dma, W, H, stride, format);
	ck_assert_int_eq(dmaemu_display_last_frame(e.d, NULL, NULL, 0),
			 -ENODATA);
	for (frame = 1; frame <= 3; frame++) {
		draw(fb, W, H, stride, bpp, frame);
		ck_assert_uint_eq(flip(&e), DMAEMU_DISP_INT_VBLANK);
		ck_assert_uint_eq(cget(&e.irqs), frame);
		ck_assert_uint_eq(reg(&e, DMAEMU_DISP_REG_FRAMES), frame);
		want = packed(fb, W, H, stride, bpp);
		check_last(&e, want, W, H, bpp, format, dma, frame);
		ck_assert_uint_eq(reg(&e, DMAEMU_DISP_REG_CRC),
				  crc32_bits(want, (size_t)W * H * bpp));
		free(want);
	}
	ck_assert_uint_eq(reg(&e, DMAEMU_DISP_REG_ERR_CODE), 0);
	dma_free_coherent(e.dev, (size_t)stride * H, fb, dma);
	disp_close(&e, 0);
}
END_TEST

/* A streaming framebuffer, mapped TO_DEVICE as a driver would after
 * drawing (the CPU's writes reach memory through the map's clean). */
START_TEST(test_scanout_streaming)
{
	const uint32_t w = 64, h = 32, stride = w * 4;
	struct disp e;
	dma_addr_t dma;
	uint8_t *fb, *want;

	disp_open(&e, "arm64");
	fb = kmalloc((size_t)stride * h, GFP_KERNEL);
	ck_assert_ptr_nonnull(fb);
	draw(fb, w, h, stride, 4, 9);
	dma = dma_map_single(e.dev, fb, (size_t)stride * h, DMA_TO_DEVICE);
	ck_assert(!dma_mapping_error(e.dev, dma));
	set_mode(&e, dma, w, h, stride, DMAEMU_DISP_FMT_XRGB8888);
	ck_assert_uint_eq(flip(&e), DMAEMU_DISP_INT_VBLANK);
	want = packed(fb, w, h, stride, 4);
	check_last(&e, want, w, h, 4, DMAEMU_DISP_FMT_XRGB8888, dma, 1);
	free(want);
	dma_unmap_single(e.dev, dma, (size_t)stride * h, DMA_TO_DEVICE);
	kfree(fb);
	disp_close(&e, 0);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* PNG                                                                    */
/* ---------------------------------------------------------------------- */

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

/* The 8-bit RGB the PNG must hold for pixel(x, y, frame) in @format. */
static void want_rgb(uint32_t x, uint32_t y, uint32_t frame, uint32_t format,
		     uint8_t *rgb)
{
	uint32_t v = pixel(x, y, frame);

	if (format == DMAEMU_DISP_FMT_XRGB8888) {
		rgb[0] = (uint8_t)(v >> 16);
		rgb[1] = (uint8_t)(v >> 8);
		rgb[2] = (uint8_t)v;
	} else {
		/* 5-6-5 bits, each widened by repeating its top bits:
		 * 0 -> 0, 31 -> 255, 63 -> 255. */
		uint32_t r = (v >> 11) & 31, g = (v >> 5) & 63, b = v & 31;

		rgb[0] = (uint8_t)(r * 8 + r / 4);
		rgb[1] = (uint8_t)(g * 4 + g / 16);
		rgb[2] = (uint8_t)(b * 8 + b / 4);
	}
}

/* _i: format.  The file starts with the PNG signature and an IHDR of the
 * frame's size, 8-bit RGB; libpng decodes it to the frame's colours. */
START_TEST(test_png)
{
	uint32_t format =
		_i ? DMAEMU_DISP_FMT_RGB565 : DMAEMU_DISP_FMT_XRGB8888;
	uint32_t bpp = _i ? 2 : 4, stride = W * bpp, x, y;
	static const uint8_t sig[8] = {0x89, 'P',  'N',	 'G',
				       '\r', '\n', 0x1a, '\n'};
	char path[] = "/tmp/check-display-XXXXXX";
	uint8_t head[33], *rgb, want[3];
	png_image img;
	struct disp e;
	dma_addr_t dma;
	uint8_t *fb;
	FILE *f;
	int fd;

	disp_open(&e, "arm64");
	fb = dma_alloc_coherent(e.dev, (size_t)stride * H, &dma, GFP_KERNEL);
	ck_assert_ptr_nonnull(fb);
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert_int_eq(dmaemu_display_save_png(e.d, path), -ENODATA);
	draw(fb, W, H, stride, bpp, 5);
	set_mode(&e, dma, W, H, stride, format);
	ck_assert_uint_eq(flip(&e), DMAEMU_DISP_INT_VBLANK);
	ck_assert_int_eq(dmaemu_display_save_png(e.d, path), 0);

	f = fopen(path, "rb");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fread(head, 1, sizeof(head), f), sizeof(head));
	fclose(f);
	ck_assert(!memcmp(head, sig, sizeof(sig)));
	ck_assert_uint_eq(be32(head + 8), 13); /* IHDR's length */
	ck_assert(!memcmp(head + 12, "IHDR", 4));
	ck_assert_uint_eq(be32(head + 16), W);
	ck_assert_uint_eq(be32(head + 20), H);
	ck_assert_uint_eq(head[24], 8); /* bit depth */
	ck_assert_uint_eq(head[25], 2); /* colour type: RGB */

	memset(&img, 0, sizeof(img));
	img.version = PNG_IMAGE_VERSION;
	ck_assert(png_image_begin_read_from_file(&img, path));
	ck_assert_uint_eq(img.width, W);
	ck_assert_uint_eq(img.height, H);
	img.format = PNG_FORMAT_RGB;
	rgb = malloc(PNG_IMAGE_SIZE(img));
	ck_assert_ptr_nonnull(rgb);
	ck_assert(png_image_finish_read(&img, NULL, rgb, 0, NULL));
	for (y = 0; y < H; y++)
		for (x = 0; x < W; x++) {
			want_rgb(x, y, 5, format, want);
			ck_assert_msg(!memcmp(rgb + (y * W + x) * 3, want, 3),
				      "pixel %u,%u", x, y);
		}
	free(rgb);
	png_image_free(&img);

	/* A file that cannot be made; a NULL path. */
	ck_assert_int_eq(dmaemu_display_save_png(e.d, "/nonexistent/dir/f.png"),
			 -EIO);
	ck_assert_int_eq(dmaemu_display_save_png(e.d, NULL), -EINVAL);
	unlink(path);
	dma_free_coherent(e.dev, (size_t)stride * H, fb, dma);
	disp_close(&e, 0);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Errors                                                                 */
/* ---------------------------------------------------------------------- */

/* Flip a bad mode: ERROR with @code and @addr, nothing scanned. */
static void bad_flip(struct disp *e, uint32_t code, uint64_t addr)
{
	uint32_t frames = reg(e, DMAEMU_DISP_REG_FRAMES);

	ck_assert_uint_eq(flip(e), DMAEMU_DISP_INT_ERROR);
	ck_assert_uint_eq(reg(e, DMAEMU_DISP_REG_ERR_CODE), code);
	ck_assert_uint_eq(reg(e, DMAEMU_DISP_REG_ERR_ADDR_LO), (uint32_t)addr);
	ck_assert_uint_eq(reg(e, DMAEMU_DISP_REG_ERR_ADDR_HI),
			  (uint32_t)(addr >> 32));
	ck_assert_uint_eq(reg(e, DMAEMU_DISP_REG_FRAMES), frames);
}

/* _i: profile.  Each error raises ERROR with its code and address, keeps
 * the last good frame, and the next good FLIP works. */
START_TEST(test_errors)
{
	const uint32_t w = 16, h = 8, stride = w * 4;
	const uint32_t fmt = DMAEMU_DISP_FMT_XRGB8888;
	uint64_t wrap = 0xffffffffffffff00ULL;
	struct disp e;
	dma_addr_t dma;
	uint8_t *fb, *want;

	disp_open(&e, profiles[_i]);
	fb = dma_alloc_coherent(e.dev, (size_t)stride * h, &dma, GFP_KERNEL);
	ck_assert_ptr_nonnull(fb);
	draw(fb, w, h, stride, 4, 1);
	want = packed(fb, w, h, stride, 4);
	set_mode(&e, dma, w, h, stride, fmt);
	ck_assert_uint_eq(flip(&e), DMAEMU_DISP_INT_VBLANK);

	set_mode(&e, dma, w, h, stride, 0);
	bad_flip(&e, DMAEMU_DISP_ERR_FORMAT, dma);
	set_mode(&e, dma, w, h, stride, 77);
	bad_flip(&e, DMAEMU_DISP_ERR_FORMAT, dma);
	set_mode(&e, dma, 0, h, stride, fmt);
	bad_flip(&e, DMAEMU_DISP_ERR_GEOMETRY, dma);
	set_mode(&e, dma, w, 0, stride, fmt);
	bad_flip(&e, DMAEMU_DISP_ERR_GEOMETRY, dma);
	set_mode(&e, dma, DMAEMU_DISP_MAX_WIDTH + 1, h, 65536, fmt);
	bad_flip(&e, DMAEMU_DISP_ERR_GEOMETRY, dma);
	set_mode(&e, dma, w, DMAEMU_DISP_MAX_HEIGHT + 1, stride, fmt);
	bad_flip(&e, DMAEMU_DISP_ERR_GEOMETRY, dma);
	set_mode(&e, dma, w, h, stride - 1, fmt); /* rows overlap */
	bad_flip(&e, DMAEMU_DISP_ERR_GEOMETRY, dma);
	set_mode(&e, dma, w, h, DMAEMU_DISP_MAX_STRIDE + 4, fmt);
	bad_flip(&e, DMAEMU_DISP_ERR_GEOMETRY, dma);
	/* A frame that would wrap around the bus: nothing is read. */
	set_mode(&e, wrap, w, h, stride, fmt);
	bad_flip(&e, DMAEMU_DISP_ERR_FETCH, wrap);
	ck_assert_uint_eq(dmaemu_report_count(e.m, NULL), 0);
	/* A framebuffer outside DRAM: the first row fails. */
	set_mode(&e, 0x10, w, h, stride, fmt);
	bad_flip(&e, DMAEMU_DISP_ERR_FETCH, 0x10);
	ck_assert_uint_eq(dmaemu_report_count(e.m, "dma-fault"), 1);
	/* The last whole frame is still the first one. */
	check_last(&e, want, w, h, 4, fmt, dma, 1);

	/* FLIP while disabled. */
	set_mode(&e, dma, w, h, stride, fmt);
	writel(0, e.regs + DMAEMU_DISP_REG_CTRL);
	bad_flip(&e, DMAEMU_DISP_ERR_DISABLED, dma);

	/* Still usable. */
	writel(DMAEMU_DISP_CTRL_ENABLE, e.regs + DMAEMU_DISP_REG_CTRL);
	ck_assert_uint_eq(flip(&e), DMAEMU_DISP_INT_VBLANK);
	ck_assert_uint_eq(reg(&e, DMAEMU_DISP_REG_FRAMES), 2);
	check_last(&e, want, w, h, 4, fmt, dma, 2);
	free(want);
	dma_free_coherent(e.dev, (size_t)stride * h, fb, dma);
	disp_close(&e, 1);
}
END_TEST

/* With the IOMMU, a framebuffer mapped for two rows of four: row 2 is
 * not mapped, the frame is dropped and ERR_ADDR names that row. */
START_TEST(test_fetch_error_mid_frame)
{
	const uint32_t w = 1024, stride = 4096;
	struct disp e;
	dma_addr_t dma;
	uint8_t *fb;

	disp_open_opts(&e, "profile=arm64:iommu=1:log_path=/dev/null");
	fb = kmalloc(2 * stride, GFP_KERNEL);
	ck_assert_ptr_nonnull(fb);
	dma = dma_map_single(e.dev, fb, 2 * stride, DMA_TO_DEVICE);
	ck_assert(!dma_mapping_error(e.dev, dma));
	set_mode(&e, dma, w, 4, stride, DMAEMU_DISP_FMT_XRGB8888);
	bad_flip(&e, DMAEMU_DISP_ERR_FETCH, dma + 2 * stride);
	ck_assert_uint_eq(dmaemu_report_count(e.m, "iommu-fault"), 1);
	ck_assert_int_eq(dmaemu_display_last_frame(e.d, NULL, NULL, 0),
			 -ENODATA);
	set_mode(&e, dma, w, 2, stride, DMAEMU_DISP_FMT_XRGB8888);
	ck_assert_uint_eq(flip(&e), DMAEMU_DISP_INT_VBLANK);
	dma_unmap_single(e.dev, dma, 2 * stride, DMA_TO_DEVICE);
	kfree(fb);
	disp_close(&e, 1);
}
END_TEST

/* The calls refuse what is not a live display; a small buffer. */
START_TEST(test_bad_arguments)
{
	struct dmaemu_display_frame f;
	struct dmaemu_device *bare, *gone;
	struct disp e;
	dma_addr_t dma;
	uint8_t *fb, small[8];

	disp_open(&e, "arm64");
	ck_assert_int_eq(dmaemu_display_last_frame(NULL, NULL, NULL, 0),
			 -EINVAL);
	ck_assert_int_eq(dmaemu_display_save_png(NULL, "/tmp/x.png"), -EINVAL);
	bare = dmaemu_device_create(e.m, "bare", NULL, NULL);
	ck_assert_ptr_nonnull(bare);
	ck_assert_int_eq(dmaemu_display_last_frame(bare, &f, NULL, 0), -EINVAL);
	ck_assert_int_eq(dmaemu_display_save_png(bare, "/tmp/x.png"), -EINVAL);
	dmaemu_device_destroy(bare);
	gone = dmaemu_display_create(e.m, "disp1");
	ck_assert_ptr_nonnull(gone);
	dmaemu_device_destroy(gone);
	ck_assert_int_eq(dmaemu_display_last_frame(gone, &f, NULL, 0), -EINVAL);

	fb = dma_alloc_coherent(e.dev, 4096, &dma, GFP_KERNEL);
	ck_assert_ptr_nonnull(fb);
	set_mode(&e, dma, 4, 4, 16, DMAEMU_DISP_FMT_XRGB8888);
	ck_assert_uint_eq(flip(&e), DMAEMU_DISP_INT_VBLANK);
	memset(small, 0x77, sizeof(small));
	memset(&f, 0, sizeof(f));
	ck_assert_int_eq(
		dmaemu_display_last_frame(e.d, &f, small, sizeof(small)),
		-ENOSPC);
	ck_assert_uint_eq(f.width, 4); /* info filled, buffer untouched */
	ck_assert_uint_eq(small[0], 0x77);
	ck_assert_int_eq(dmaemu_display_last_frame(e.d, &f, NULL, 64), -EINVAL);
	dma_free_coherent(e.dev, 4096, fb, dma);
	disp_close(&e, 0);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Registers, interrupts, reset                                           */
/* ---------------------------------------------------------------------- */

/* Reset values; 64-bit FB; only CTRL.ENABLE and the two interrupt bits
 * are kept; other widths read 0 and are ignored; FLIP reads 0. */
START_TEST(test_registers)
{
	struct disp e;

	disp_open(&e, "arm64");
	ck_assert_uint_eq(reg(&e, DMAEMU_DISP_REG_CTRL),
			  DMAEMU_DISP_CTRL_ENABLE);
	writel(0xffffffff & ~DMAEMU_DISP_CTRL_RESET,
	       e.regs + DMAEMU_DISP_REG_CTRL);
	ck_assert_uint_eq(reg(&e, DMAEMU_DISP_REG_CTRL),
			  DMAEMU_DISP_CTRL_ENABLE);
	writel(0xffffffff, e.regs + DMAEMU_DISP_REG_INT_ENABLE);
	ck_assert_uint_eq(reg(&e, DMAEMU_DISP_REG_INT_ENABLE),
			  DMAEMU_DISP_INT_VBLANK | DMAEMU_DISP_INT_ERROR);
	set_mode(&e, 0x123456789abcULL, 640, 480, 2560, DMAEMU_DISP_FMT_RGB565);
	ck_assert_uint_eq(reg(&e, DMAEMU_DISP_REG_FB_LO), 0x56789abc);
	ck_assert_uint_eq(reg(&e, DMAEMU_DISP_REG_FB_HI), 0x1234);
	ck_assert_uint_eq(reg(&e, DMAEMU_DISP_REG_WIDTH), 640);
	ck_assert_uint_eq(reg(&e, DMAEMU_DISP_REG_HEIGHT), 480);
	ck_assert_uint_eq(reg(&e, DMAEMU_DISP_REG_STRIDE), 2560);
	ck_assert_uint_eq(reg(&e, DMAEMU_DISP_REG_FORMAT),
			  DMAEMU_DISP_FMT_RGB565);
	ck_assert_uint_eq(reg(&e, DMAEMU_DISP_REG_FLIP), 0);
	ck_assert_uint_eq(reg(&e, DMAEMU_DISP_REG_STATUS), 0);
	ck_assert_uint_eq(reg(&e, DMAEMU_DISP_REG_FRAMES), 0);
	ck_assert_uint_eq(reg(&e, DMAEMU_DISP_REG_CRC), 0);
	ck_assert_uint_eq(reg(&e, DMAEMU_DISP_REG_CRC + 4), 0);
	writew(0x55, e.regs + DMAEMU_DISP_REG_WIDTH);
	ck_assert_uint_eq(reg(&e, DMAEMU_DISP_REG_WIDTH), 640);
	ck_assert_uint_eq(readw(e.regs + DMAEMU_DISP_REG_ID), 0);
	/* FLIP with bit 0 clear does nothing. */
	writel(2, e.regs + DMAEMU_DISP_REG_FLIP);
	ck_assert_uint_eq(reg(&e, DMAEMU_DISP_REG_STATUS), 0);
	ck_assert_uint_eq(reg(&e, DMAEMU_DISP_REG_INT_STATUS), 0);

	writel(DMAEMU_DISP_CTRL_RESET, e.regs + DMAEMU_DISP_REG_CTRL);
	ck_assert_uint_eq(reg(&e, DMAEMU_DISP_REG_CTRL), 0);
	ck_assert_uint_eq(reg(&e, DMAEMU_DISP_REG_INT_ENABLE), 0);
	ck_assert_uint_eq(reg(&e, DMAEMU_DISP_REG_FB_LO), 0);
	ck_assert_uint_eq(reg(&e, DMAEMU_DISP_REG_FB_HI), 0);
	ck_assert_uint_eq(reg(&e, DMAEMU_DISP_REG_WIDTH), 0);
	ck_assert_uint_eq(reg(&e, DMAEMU_DISP_REG_HEIGHT), 0);
	ck_assert_uint_eq(reg(&e, DMAEMU_DISP_REG_STRIDE), 0);
	ck_assert_uint_eq(reg(&e, DMAEMU_DISP_REG_FORMAT), 0);
	disp_close(&e, 0);
}
END_TEST

/* The interrupt: with INT_ENABLE clear no handler runs but VBLANK is
 * latched; enabling it then delivers it; one interrupt per frame. */
START_TEST(test_vblank_irq)
{
	const uint32_t w = 8, h = 8, stride = 32;
	struct disp e;
	dma_addr_t dma;
	uint8_t *fb;

	disp_open(&e, "arm64");
	fb = dma_alloc_coherent(e.dev, 4096, &dma, GFP_KERNEL);
	ck_assert_ptr_nonnull(fb);
	set_mode(&e, dma, w, h, stride, DMAEMU_DISP_FMT_XRGB8888);
	writel(0, e.regs + DMAEMU_DISP_REG_INT_ENABLE);
	writel(1, e.regs + DMAEMU_DISP_REG_FLIP);
	WAIT_FOR(reg(&e, DMAEMU_DISP_REG_FRAMES) == 1 &&
		 !(reg(&e, DMAEMU_DISP_REG_STATUS) & DMAEMU_DISP_STATUS_BUSY));
	msleep(5);
	ck_assert_int_eq(cget(&e.irqs), 0);
	ck_assert_uint_eq(reg(&e, DMAEMU_DISP_REG_INT_STATUS),
			  DMAEMU_DISP_INT_VBLANK);
	writel(DMAEMU_DISP_INT_VBLANK, e.regs + DMAEMU_DISP_REG_INT_ENABLE);
	WAIT_FOR(cget(&e.irqs) == 1);
	ck_assert_uint_eq(reg(&e, DMAEMU_DISP_REG_INT_STATUS), 0);
	ck_assert_uint_eq(flip(&e), DMAEMU_DISP_INT_VBLANK);
	ck_assert_uint_eq(flip(&e), DMAEMU_DISP_INT_VBLANK);
	ck_assert_int_eq(cget(&e.irqs), 3);
	ck_assert_uint_eq(reg(&e, DMAEMU_DISP_REG_FRAMES), 3);
	dma_free_coherent(e.dev, 4096, fb, dma);
	disp_close(&e, 0);
}
END_TEST

#define BIG_W DMAEMU_DISP_MAX_WIDTH
#define BIG_H (DMAEMU_DISP_MAX_HEIGHT / 2)
#define BIG_STRIDE (BIG_W * 2)
#define BIG_LEN ((size_t)BIG_STRIDE * BIG_H) /* 4 MiB of RGB565 */

/* FLIP while a large frame is scanned is refused with ERR_BUSY and does
 * not disturb it; clearing ENABLE does not stop it; reset during a scan
 * drops it and clears everything. */
START_TEST(test_busy_and_reset)
{
	uint32_t frames;
	struct disp e;
	dma_addr_t dma;
	uint8_t *fb;

	disp_open(&e, "arm64");
	fb = dma_alloc_coherent(e.dev, BIG_LEN, &dma, GFP_KERNEL);
	ck_assert_ptr_nonnull(fb);
	memset(fb, 0x5c, BIG_LEN);
	set_mode(&e, dma, BIG_W, BIG_H, BIG_STRIDE, DMAEMU_DISP_FMT_RGB565);
	writel(1, e.regs + DMAEMU_DISP_REG_FLIP);
	/* 1024 rows take far longer than a register write: the second FLIP
	 * comes during the scan and is refused.  (Should the frame be done
	 * first, it is a second frame.) */
	writel(1, e.regs + DMAEMU_DISP_REG_FLIP);
	WAIT_FOR(reg(&e, DMAEMU_DISP_REG_FRAMES) >= 1 &&
		 !(reg(&e, DMAEMU_DISP_REG_STATUS) & DMAEMU_DISP_STATUS_BUSY));
	if (reg(&e, DMAEMU_DISP_REG_FRAMES) == 1) {
		WAIT_FOR(cget(&e.seen) & DMAEMU_DISP_INT_ERROR);
		ck_assert_uint_eq(reg(&e, DMAEMU_DISP_REG_ERR_CODE),
				  DMAEMU_DISP_ERR_BUSY);
	} else {
		ck_assert_uint_eq(reg(&e, DMAEMU_DISP_REG_FRAMES), 2);
		ck_assert_uint_eq(reg(&e, DMAEMU_DISP_REG_ERR_CODE), 0);
	}
	ck_assert_int_eq(dmaemu_display_last_frame(e.d, NULL, NULL, 0),
			 (long)(BIG_W * BIG_H * 2));

	/* Clearing CTRL.ENABLE does not stop a frame already started. */
	frames = reg(&e, DMAEMU_DISP_REG_FRAMES);
	writel(1, e.regs + DMAEMU_DISP_REG_FLIP);
	writel(0, e.regs + DMAEMU_DISP_REG_CTRL);
	WAIT_FOR(reg(&e, DMAEMU_DISP_REG_FRAMES) == frames + 1 &&
		 !(reg(&e, DMAEMU_DISP_REG_STATUS) & DMAEMU_DISP_STATUS_BUSY));
	ck_assert_uint_eq(reg(&e, DMAEMU_DISP_REG_CTRL), 0);
	writel(DMAEMU_DISP_CTRL_ENABLE, e.regs + DMAEMU_DISP_REG_CTRL);

	/* Reset: whatever it caught, the controller ends idle, with no
	 * frame and every register at its reset value. */
	writel(1, e.regs + DMAEMU_DISP_REG_FLIP);
	writel(DMAEMU_DISP_CTRL_RESET, e.regs + DMAEMU_DISP_REG_CTRL);
	ck_assert_uint_eq(reg(&e, DMAEMU_DISP_REG_STATUS), 0);
	ck_assert_uint_eq(reg(&e, DMAEMU_DISP_REG_FRAMES), 0);
	ck_assert_uint_eq(reg(&e, DMAEMU_DISP_REG_CRC), 0);
	ck_assert_uint_eq(reg(&e, DMAEMU_DISP_REG_INT_STATUS), 0);
	ck_assert_uint_eq(reg(&e, DMAEMU_DISP_REG_ERR_CODE), 0);
	ck_assert_uint_eq(reg(&e, DMAEMU_DISP_REG_CTRL), 0);
	ck_assert_int_eq(dmaemu_display_last_frame(e.d, NULL, NULL, 0),
			 -ENODATA);
	dma_free_coherent(e.dev, BIG_LEN, fb, dma);
	disp_close(&e, 0);
}
END_TEST

/* Destroy while a frame is scanned: the scan stops, nothing leaks.  The
 * framebuffer is managed: the destroy frees it once the scan-out has
 * stopped. */
START_TEST(test_destroy_during_scan)
{
	struct dmaemu_machine *m;
	struct dmaemu_device *d;
	dma_addr_t dma;
	uint8_t *regs, *fb;

	m = dmaemu_machine_create("profile=arm64:log_path=/dev/null");
	ck_assert_ptr_nonnull(m);
	d = dmaemu_display_create(m, "disp0");
	ck_assert_ptr_nonnull(d);
	fb = dmam_alloc_coherent(dmaemu_device_to_dev(d), BIG_LEN, &dma,
				 GFP_KERNEL);
	ck_assert_ptr_nonnull(fb);
	regs = dmaemu_device_regs(d);
	writel((uint32_t)dma, regs + DMAEMU_DISP_REG_FB_LO);
	writel((uint32_t)(dma >> 32), regs + DMAEMU_DISP_REG_FB_HI);
	writel(BIG_W, regs + DMAEMU_DISP_REG_WIDTH);
	writel(BIG_H, regs + DMAEMU_DISP_REG_HEIGHT);
	writel(BIG_STRIDE, regs + DMAEMU_DISP_REG_STRIDE);
	writel(DMAEMU_DISP_FMT_RGB565, regs + DMAEMU_DISP_REG_FORMAT);
	writel(DMAEMU_DISP_CTRL_ENABLE, regs + DMAEMU_DISP_REG_CTRL);
	writel(1, regs + DMAEMU_DISP_REG_FLIP);
	dmaemu_device_destroy(d);
	ck_assert_int_eq(dmaemu_display_last_frame(d, NULL, NULL, 0), -EINVAL);
	ck_assert_uint_eq(dmaemu_report_count(m, NULL), 0);
	dmaemu_machine_destroy(m);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("display");
	TCase *tc = tcase_create("scan-out");

	tcase_set_timeout(tc, 300);
	tcase_add_loop_test(tc, test_scanout, 0, 6);
	tcase_add_test(tc, test_scanout_streaming);
	tcase_add_loop_test(tc, test_png, 0, 2);
	suite_add_tcase(s, tc);
	tc = tcase_create("errors");
	tcase_set_timeout(tc, 300);
	tcase_add_loop_test(tc, test_errors, 0, 3);
	tcase_add_test(tc, test_fetch_error_mid_frame);
	tcase_add_test(tc, test_bad_arguments);
	suite_add_tcase(s, tc);
	tc = tcase_create("control");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_registers);
	tcase_add_test(tc, test_vblank_irq);
	tcase_add_test(tc, test_busy_and_reset);
	tcase_add_test(tc, test_destroy_during_scan);
	suite_add_tcase(s, tc);
	return check_run(s);
}
