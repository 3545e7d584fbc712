// SPDX-License-Identifier: MIT
/*
 * display.c - the display controller: scans a framebuffer out of memory
 * by DMA on each FLIP, written from the public device-model API only.
 * Its data sheet is docs/devices/display.md.
 *
 * How it works.
 *
 *   driver                          model (its own thread: disp_run)
 *   ------                          --------------------------------
 *   draw into the framebuffer
 *   FB, WIDTH, HEIGHT, STRIDE,
 *   FORMAT registers
 *   writel(1, FLIP) ------------->   1. check FORMAT, WIDTH, HEIGHT, STRIDE
 *        (doorbell: the geometry     2. read the frame one row at a time
 *         is latched, STATUS.BUSY)      (dmaemu_dma_read of WIDTH * bpp
 *                                       bytes at FB + y * STRIDE); between
 *                                       rows: give up on reset/destroy
 *                                    3. the rows read become the last
 *                                       frame (swap of two host buffers);
 *                                       FRAMES++, CRC
 *                                    4. BUSY off, INT_STATUS.VBLANK
 *   handler: INT_STATUS <----------- line 0 (level) = INT_STATUS & ENABLE
 *
 *   dmaemu_display_last_frame()   copy of the last frame's pixels
 *   dmaemu_display_save_png()     the last frame as a PNG file (libpng)
 *
 * The controller reads memory as every bus master does: DRAM on arm and
 * arm64 (bytes still in the CPU's cache or write-combining buffers are not
 * there yet), the cache too on x86.  Reading row by row is what makes a
 * frame torn rather than simply old: each row is what memory held when
 * that row was fetched.
 *
 * A bad format or geometry, or a row that cannot be read, drops the frame
 * with INT_STATUS.ERROR, ERR_CODE and ERR_ADDR (the library reports
 * dma-fault or iommu-fault for a bad address); the last whole frame stays
 * and the controller stays usable.  A FLIP while disabled or while a
 * frame is scanned is refused the same way and changes nothing else.
 *
 * Locking: reg_lock (one for the library) protects the list of live
 * displays, which the functions taking a struct dmaemu_device * search so
 * that a device that is not a display, or no longer live, is refused; it
 * is taken before a display's own lock.  d->lock protects every register,
 * the latched geometry and the last frame; it is dropped around DMA and
 * held while the interrupt line is raised or lowered.  The scan buffer
 * belongs to the run thread (and to reset, which runs while the thread is
 * held off).  CTRL.RESET calls dmaemu_device_reset() without d->lock.
 */
#include <errno.h>
#include <png.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <dmaemu/device.h>
#include <dmaemu/devices/display.h>

struct geom {
	uint64_t fb;
	uint32_t width, height, stride, format;
};

struct disp {
	pthread_mutex_t lock;
	struct dmaemu_device *dev; /* set once at creation */
	struct disp *next;	   /* in the list of displays, under reg_lock */
	/* Registers. */
	uint32_t ctrl, status, int_status, int_enable;
	uint32_t width, height, stride, format, err_code, frames, crc;
	uint64_t fb, err_addr;
	/* The frame latched by FLIP (STATUS.BUSY). */
	struct geom job;
	/* The last frame scanned whole: @last_len bytes at @last. */
	bool have_last;
	struct dmaemu_display_frame last_info;
	uint8_t *last;
	size_t last_cap, last_len;
	/* The frame being scanned: the run thread's own. */
	uint8_t *scan;
	size_t scan_cap;
};

static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static struct disp *displays; /* under reg_lock */

/* CRC-32 of IEEE 802.3 (reflected 0xedb88320, initial value and final
 * XOR all ones), by a table made once. */
static uint32_t crc_table[256];
static pthread_once_t crc_once = PTHREAD_ONCE_INIT;

static void crc_init(void)
{
	uint32_t i, c;
	int k;

	for (i = 0; i < 256; i++) {
		for (c = i, k = 0; k < 8; k++)
			c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
		crc_table[i] = c;
	}
}

static uint32_t crc32_ieee(const uint8_t *p, size_t n)
{
	uint32_t crc = 0xffffffffu;

	pthread_once(&crc_once, crc_init);
	while (n--)
		crc = crc_table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

/* Bytes per pixel of @format, 0 for an unknown one. */
static uint32_t format_bpp(uint32_t format)
{
	switch (format) {
	case DMAEMU_DISP_FMT_XRGB8888:
		return 4;
	case DMAEMU_DISP_FMT_RGB565:
		return 2;
	}
	return 0;
}

/* The interrupt line follows INT_STATUS & INT_ENABLE.  Lock held. */
static void update_irq(struct dmaemu_device *dev, struct disp *d)
{
	if (d->int_status & d->int_enable)
		dmaemu_raise_irq(dev, 0);
	else
		dmaemu_lower_irq(dev, 0);
}

static void set_error(struct disp *d, uint32_t code, uint64_t addr)
{
	d->int_status |= DMAEMU_DISP_INT_ERROR;
	d->err_code = code;
	d->err_addr = addr;
}

/* Check the latched geometry.  Return: 0, or the error code. */
static uint32_t check_job(const struct geom *g)
{
	uint32_t bpp = format_bpp(g->format);
	uint64_t span;

	if (!bpp)
		return DMAEMU_DISP_ERR_FORMAT;
	if (!g->width || g->width > DMAEMU_DISP_MAX_WIDTH || !g->height ||
	    g->height > DMAEMU_DISP_MAX_HEIGHT ||
	    g->stride > DMAEMU_DISP_MAX_STRIDE || g->stride < g->width * bpp)
		return DMAEMU_DISP_ERR_GEOMETRY;
	/* The last byte of the frame must not wrap around the bus. */
	span = (uint64_t)(g->height - 1) * g->stride + g->width * bpp;
	if (g->fb + span < g->fb)
		return DMAEMU_DISP_ERR_FETCH;
	return 0;
}

/* Make the scan buffer hold @len bytes.  Run thread or reset only. */
static bool scan_reserve(struct disp *d, size_t len)
{
	uint8_t *p;

	if (d->scan_cap >= len)
		return true;
	p = realloc(d->scan, len);
	if (!p)
		return false;
	d->scan = p;
	d->scan_cap = len;
	return true;
}

/*
 * Scan the latched frame.  Lock held; dropped around the DMA.
 * Return: false when a reset or destroy stopped it (nothing is signalled).
 */
static bool scan_frame(struct dmaemu_device *dev, struct disp *d)
{
	struct geom g = d->job;
	uint32_t code = check_job(&g), bpp = format_bpp(g.format), y;
	size_t row = (size_t)g.width * bpp, len = row * g.height;
	uint8_t *swap;
	uint32_t crc;

	if (code) {
		set_error(d, code, g.fb);
		return true;
	}
	if (!scan_reserve(d, len)) {
		set_error(d, DMAEMU_DISP_ERR_NOMEM, g.fb);
		return true;
	}
	pthread_mutex_unlock(&d->lock);
	for (y = 0; y < g.height; y++) {
		uint64_t addr = g.fb + (uint64_t)y * g.stride;

		if (dmaemu_device_stopping(dev)) {
			pthread_mutex_lock(&d->lock);
			return false;
		}
		if (dmaemu_dma_read(dev, addr, d->scan + y * row, row)) {
			pthread_mutex_lock(&d->lock);
			set_error(d, DMAEMU_DISP_ERR_FETCH, addr);
			return true;
		}
	}
	crc = crc32_ieee(d->scan, len); /* the run thread's own buffer */
	pthread_mutex_lock(&d->lock);
	/* The rows become the last frame; its old buffer scans the next. */
	swap = d->last;
	d->last = d->scan;
	d->scan = swap;
	len = d->last_cap;
	d->last_cap = d->scan_cap;
	d->scan_cap = len;
	d->last_len = row * g.height;
	d->frames++;
	d->crc = crc;
	d->have_last = true;
	d->last_info = (struct dmaemu_display_frame){
		.seq = d->frames,
		.width = g.width,
		.height = g.height,
		.format = g.format,
		.bpp = bpp,
		.fb = g.fb,
	};
	d->int_status |= DMAEMU_DISP_INT_VBLANK;
	return true;
}

static void disp_run(struct dmaemu_device *dev, unsigned int events)
{
	struct disp *d = dmaemu_device_priv(dev);

	(void)events;
	pthread_mutex_lock(&d->lock);
	if ((d->status & DMAEMU_DISP_STATUS_BUSY) && scan_frame(dev, d))
		d->status &= ~DMAEMU_DISP_STATUS_BUSY;
	update_irq(dev, d);
	pthread_mutex_unlock(&d->lock);
}

/* Reset values; lock held.  The buffers stay allocated for reuse. */
static void reset_regs(struct disp *d)
{
	d->ctrl = d->status = d->int_status = d->int_enable = 0;
	d->width = d->height = d->stride = d->format = 0;
	d->err_code = d->frames = d->crc = 0;
	d->fb = d->err_addr = 0;
	memset(&d->job, 0, sizeof(d->job));
	d->have_last = false;
	memset(&d->last_info, 0, sizeof(d->last_info));
	d->last_len = 0;
}

static void disp_reset(struct dmaemu_device *dev)
{
	struct disp *d = dmaemu_device_priv(dev);

	pthread_mutex_lock(&d->lock);
	reset_regs(d);
	update_irq(dev, d);
	pthread_mutex_unlock(&d->lock);
}

static uint64_t disp_read(struct dmaemu_device *dev, uint64_t off,
			  unsigned int size)
{
	struct disp *d = dmaemu_device_priv(dev);
	uint32_t v = 0;

	if (size != 4)
		return 0;
	pthread_mutex_lock(&d->lock);
	switch (off) {
	case DMAEMU_DISP_REG_ID:
		v = DMAEMU_DISP_ID_VALUE;
		break;
	case DMAEMU_DISP_REG_CTRL:
		v = d->ctrl;
		break;
	case DMAEMU_DISP_REG_STATUS:
		v = d->status;
		break;
	case DMAEMU_DISP_REG_INT_STATUS:
		v = d->int_status;
		break;
	case DMAEMU_DISP_REG_INT_ENABLE:
		v = d->int_enable;
		break;
	case DMAEMU_DISP_REG_FB_LO:
		v = (uint32_t)d->fb;
		break;
	case DMAEMU_DISP_REG_FB_HI:
		v = (uint32_t)(d->fb >> 32);
		break;
	case DMAEMU_DISP_REG_WIDTH:
		v = d->width;
		break;
	case DMAEMU_DISP_REG_HEIGHT:
		v = d->height;
		break;
	case DMAEMU_DISP_REG_STRIDE:
		v = d->stride;
		break;
	case DMAEMU_DISP_REG_FORMAT:
		v = d->format;
		break;
	case DMAEMU_DISP_REG_ERR_CODE:
		v = d->err_code;
		break;
	case DMAEMU_DISP_REG_ERR_ADDR_LO:
		v = (uint32_t)d->err_addr;
		break;
	case DMAEMU_DISP_REG_ERR_ADDR_HI:
		v = (uint32_t)(d->err_addr >> 32);
		break;
	case DMAEMU_DISP_REG_FRAMES:
		v = d->frames;
		break;
	case DMAEMU_DISP_REG_CRC:
		v = d->crc;
		break;
	}
	pthread_mutex_unlock(&d->lock);
	return v;
}

/* FLIP: latch a frame, or refuse it.  Lock held.
 * Return: true when the controller's thread must be woken. */
static bool flip(struct dmaemu_device *dev, struct disp *d, uint32_t v)
{
	if (!(v & 1))
		return false;
	if (!(d->ctrl & DMAEMU_DISP_CTRL_ENABLE)) {
		set_error(d, DMAEMU_DISP_ERR_DISABLED, d->fb);
		update_irq(dev, d);
		return false;
	}
	if (d->status & DMAEMU_DISP_STATUS_BUSY) {
		set_error(d, DMAEMU_DISP_ERR_BUSY, d->fb);
		update_irq(dev, d);
		return false;
	}
	d->job = (struct geom){
		.fb = d->fb,
		.width = d->width,
		.height = d->height,
		.stride = d->stride,
		.format = d->format,
	};
	d->status |= DMAEMU_DISP_STATUS_BUSY;
	return true;
}

static void disp_write(struct dmaemu_device *dev, uint64_t off, uint64_t val,
		       unsigned int size)
{
	struct disp *d = dmaemu_device_priv(dev);
	uint32_t v = (uint32_t)val;
	bool ring = false;

	if (size != 4)
		return;
	if (off == DMAEMU_DISP_REG_CTRL && (v & DMAEMU_DISP_CTRL_RESET)) {
		dmaemu_device_reset(dev); /* waits for disp_run: no lock */
		return;
	}
	pthread_mutex_lock(&d->lock);
	switch (off) {
	case DMAEMU_DISP_REG_CTRL:
		d->ctrl = v & DMAEMU_DISP_CTRL_ENABLE;
		break;
	case DMAEMU_DISP_REG_FLIP:
		ring = flip(dev, d, v);
		break;
	case DMAEMU_DISP_REG_INT_STATUS:
		d->int_status &= ~v;
		update_irq(dev, d);
		break;
	case DMAEMU_DISP_REG_INT_ENABLE:
		d->int_enable =
			v & (DMAEMU_DISP_INT_VBLANK | DMAEMU_DISP_INT_ERROR);
		update_irq(dev, d);
		break;
	case DMAEMU_DISP_REG_FB_LO:
		d->fb = (d->fb & ~0xffffffffULL) | v;
		break;
	case DMAEMU_DISP_REG_FB_HI:
		d->fb = (d->fb & 0xffffffffULL) | (uint64_t)v << 32;
		break;
	case DMAEMU_DISP_REG_WIDTH:
		d->width = v;
		break;
	case DMAEMU_DISP_REG_HEIGHT:
		d->height = v;
		break;
	case DMAEMU_DISP_REG_STRIDE:
		d->stride = v;
		break;
	case DMAEMU_DISP_REG_FORMAT:
		d->format = v;
		break;
	}
	pthread_mutex_unlock(&d->lock);
	if (ring)
		dmaemu_device_doorbell(dev);
}

static void disp_release(struct dmaemu_device *dev)
{
	struct disp *d = dmaemu_device_priv(dev), **pp;

	pthread_mutex_lock(&reg_lock);
	for (pp = &displays; *pp; pp = &(*pp)->next) {
		if (*pp == d) {
			*pp = d->next;
			break;
		}
	}
	pthread_mutex_unlock(&reg_lock);
	pthread_mutex_destroy(&d->lock);
	free(d->scan);
	free(d->last);
	free(d);
}

static const struct dmaemu_device_ops disp_ops = {
	.name = DMAEMU_DISP_NAME,
	.mmio_size = DMAEMU_DISP_MMIO_SIZE,
	.mmio_read = disp_read,
	.mmio_write = disp_write,
	.run = disp_run,
	.reset = disp_reset,
	.release = disp_release,
	.nr_irqs = 1,
};

struct dmaemu_device *dmaemu_display_create(struct dmaemu_machine *m,
					    const char *name)
{
	struct dmaemu_device *dev;
	struct disp *d;
	int err;

	d = calloc(1, sizeof(*d));
	if (!d) {
		errno = ENOMEM;
		return NULL;
	}
	err = pthread_mutex_init(&d->lock, NULL);
	if (err) {
		free(d);
		errno = err;
		return NULL;
	}
	reset_regs(d);
	dev = dmaemu_device_create(m, name, &disp_ops, d);
	if (!dev) {
		err = errno;
		pthread_mutex_destroy(&d->lock);
		free(d);
		errno = err;
		return NULL;
	}
	pthread_mutex_lock(&reg_lock);
	d->dev = dev;
	d->next = displays;
	displays = d;
	pthread_mutex_unlock(&reg_lock);
	return dev;
}

/* ---------------------------------------------------------------------- */
/* The last frame, for tests and tools                                    */
/* ---------------------------------------------------------------------- */

/* The live display @dev, locked (reg_lock and its lock), or NULL. */
static struct disp *get_display(struct dmaemu_device *dev)
{
	struct disp *d;

	if (!dev)
		return NULL;
	pthread_mutex_lock(&reg_lock);
	for (d = displays; d; d = d->next)
		if (d->dev == dev)
			break;
	if (!d) {
		pthread_mutex_unlock(&reg_lock);
		return NULL;
	}
	pthread_mutex_lock(&d->lock);
	return d;
}

static void put_display(struct disp *d)
{
	pthread_mutex_unlock(&d->lock);
	pthread_mutex_unlock(&reg_lock);
}

long dmaemu_display_last_frame(struct dmaemu_device *dev,
			       struct dmaemu_display_frame *info, void *buf,
			       size_t size)
{
	struct disp *d = get_display(dev);
	long ret;

	if (!d)
		return -EINVAL;
	if (size && !buf) {
		put_display(d);
		return -EINVAL;
	}
	if (!d->have_last) {
		put_display(d);
		return -ENODATA;
	}
	if (info)
		*info = d->last_info;
	ret = (long)d->last_len;
	if (size && size < d->last_len)
		ret = -ENOSPC;
	else if (size && buf)
		memcpy(buf, d->last, d->last_len);
	put_display(d);
	return ret;
}

/* One pixel of @f at @p as 8-bit R, G, B. */
static void to_rgb(const struct dmaemu_display_frame *f, const uint8_t *p,
		   uint8_t *rgb)
{
	uint32_t v, r, g, b;

	if (f->format == DMAEMU_DISP_FMT_XRGB8888) {
		rgb[0] = p[2];
		rgb[1] = p[1];
		rgb[2] = p[0];
		return;
	}
	v = (uint32_t)p[0] | (uint32_t)p[1] << 8;
	r = (v >> 11) & 0x1f;
	g = (v >> 5) & 0x3f;
	b = v & 0x1f;
	rgb[0] = (uint8_t)(r << 3 | r >> 2);
	rgb[1] = (uint8_t)(g << 2 | g >> 4);
	rgb[2] = (uint8_t)(b << 3 | b >> 2);
}

int dmaemu_display_save_png(struct dmaemu_device *dev, const char *path)
{
	struct dmaemu_display_frame f;
	png_image img;
	uint8_t *rgb;
	size_t i, n;
	struct disp *d;
	int ok;

	if (!path)
		return -EINVAL;
	d = get_display(dev);
	if (!d)
		return -EINVAL;
	if (!d->have_last) {
		put_display(d);
		return -ENODATA;
	}
	f = d->last_info;
	n = (size_t)f.width * f.height;
	rgb = malloc(n * 3);
	if (!rgb) {
		put_display(d);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		to_rgb(&f, d->last + i * f.bpp, rgb + i * 3);
	put_display(d);

	/* libpng's simplified API: no setjmp, failures come back as 0. */
	memset(&img, 0, sizeof(img));
	img.version = PNG_IMAGE_VERSION;
	img.width = f.width;
	img.height = f.height;
	img.format = PNG_FORMAT_RGB;
	ok = png_image_write_to_file(&img, path, 0, rgb,
				     (png_int_32)(f.width * 3), NULL);
	png_image_free(&img);
	free(rgb);
	return ok ? 0 : -EIO;
}
