// SPDX-License-Identifier: MIT
/*
 * main.c - the display controller's reference driver at work: a machine
 * with one controller, the driver probing it, frames drawn into
 * write-combining framebuffers and flipped, each scanned frame compared
 * with what was drawn, the last one saved as a PNG file, and teardown.
 * Prints what it checked and how many reports the machine made; exits 0
 * only when every frame is right and there were none.
 *
 *   usage: display [arm|arm64|x86] [FILE.png]     (default arm64, no file)
 *
 * Build it as any program outside the dmaemu tree would:
 *   dmaemu-cc -o display main.c disp-driver.c -ldmaemu-devices
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <dmaemu/device.h>
#include <dmaemu/devices/display.h>
#include <dmaemu/machine.h>
#include <dmaemu/report.h>
#include <linux/slab.h>

#include "disp-driver.h"

#define FRAMES 6

static int failures;

static void check(int ok, const char *what)
{
	printf("%s: %s\n", ok ? "ok" : "FAILED", what);
	failures += !ok;
}

/* Pixel (x, y) of frame @n: a gradient and a bar that moves. */
static u32 pixel(unsigned int n, unsigned int x, unsigned int y)
{
	if (x / 8 == n * 3 % (DISP_WIDTH / 8))
		return 0xffffff;
	return (x * 255 / DISP_WIDTH) << 16 | (y * 255 / DISP_HEIGHT) << 8 |
	       (n * 40 & 0xff);
}

/* CRC-32 of IEEE 802.3, bit by bit: what the controller must get. */
static u32 crc32_ref(const u8 *p, size_t n)
{
	u32 crc = 0xffffffff;
	int k;

	while (n--) {
		crc ^= *p++;
		for (k = 0; k < 8; k++)
			crc = crc >> 1 ^ (0xedb88320 & -(crc & 1));
	}
	return ~crc;
}

/* Did the controller scan frame @n whole, every pixel? */
static int scanned_ok(struct dmaemu_device *d, u32 *got, unsigned int n)
{
	struct dmaemu_display_frame info;
	unsigned int x, y;

	if (dmaemu_display_last_frame(d, &info, got, DISP_FB_SIZE) !=
		    DISP_FB_SIZE ||
	    info.width != DISP_WIDTH || info.height != DISP_HEIGHT)
		return 0;
	for (y = 0; y < DISP_HEIGHT; y++)
		for (x = 0; x < DISP_WIDTH; x++)
			if ((got[y * DISP_WIDTH + x] & 0xffffff) !=
			    pixel(n, x, y))
				return 0;
	return 1;
}

static int is_png(const char *path)
{
	static const u8 sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
	u8 head[8] = {0};
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f)
		return 0;
	n = fread(head, 1, sizeof(head), f);
	fclose(f);
	return n == sizeof(head) && !memcmp(head, sig, sizeof(sig));
}

int main(int argc, char **argv)
{
	const char *profile = argc > 1 ? argv[1] : "arm64";
	struct dmaemu_machine *m;
	struct dmaemu_device *disp;
	struct dispdrv *dd;
	unsigned int n, x, y;
	uint64_t reports;
	char opts[64];
	u32 *fb, *got, *drawn, crc;
	int ok = 1, crc_ok = 1, ret;

	snprintf(opts, sizeof(opts), "profile=%s", profile);
	m = dmaemu_machine_create(opts);
	if (!m) {
		perror("display: dmaemu_machine_create()");
		return 2;
	}
	ret = platform_driver_register(&dispdrv_driver);
	if (ret) {
		fprintf(stderr, "display: platform_driver_register(): %s\n",
			strerror(-ret));
		return 2;
	}
	disp = dmaemu_display_create(m, "disp0"); /* probed here */
	dd = dispdrv_first();
	check(disp && dd, "the driver probed the controller");
	got = kmalloc(DISP_FB_SIZE, GFP_KERNEL);
	drawn = kmalloc(DISP_FB_SIZE, GFP_KERNEL);
	if (dd && (!got || !drawn))
		fprintf(stderr, "display: kmalloc(): %s\n", strerror(ENOMEM));
	if (!dd || !got || !drawn)
		return 1;

	for (n = 0; n < FRAMES; n++) {
		/* A copy in ordinary memory for the CRC: write-combining
		 * memory is for writing only. */
		fb = dispdrv_back(dd);
		for (y = 0; y < DISP_HEIGHT; y++)
			for (x = 0; x < DISP_WIDTH; x++)
				fb[y * DISP_WIDTH + x] =
					drawn[y * DISP_WIDTH + x] =
						pixel(n, x, y);
		if (dispdrv_flip(dd, &crc) || !scanned_ok(disp, got, n)) {
			ok = 0;
			break;
		}
		crc_ok &= crc == crc32_ref((const u8 *)drawn, DISP_FB_SIZE);
	}
	check(ok, "6 frames drawn in write-combining memory, scanned whole");
	check(ok && crc_ok, "the controller's CRC of each frame is the CRC of "
			    "what was drawn");
	check(dispdrv_vblanks(dd) == FRAMES, "one vblank per frame");
	if (argc > 2)
		check(!dmaemu_display_save_png(disp, argv[2]) &&
			      is_png(argv[2]),
		      "the last frame saved as a PNG file");

	kfree(drawn);
	kfree(got);
	dmaemu_device_destroy(disp); /* remove() runs */
	platform_driver_unregister(&dispdrv_driver);
	reports = dmaemu_report_count(m, NULL);
	printf("profile %s: %llu reports\n", profile,
	       (unsigned long long)reports);
	dmaemu_machine_destroy(m);
	return failures || reports ? 1 : 0;
}
