// SPDX-License-Identifier: MIT
/*
 * main.c - the camera's reference driver at work: a machine with one
 * camera, the driver probing it, a stream of frames into buffers the CPU
 * never maps, a "user" reading each frame through its dma_mmap_attrs()
 * view and giving the buffer back, and teardown.  Prints what it checked
 * and how many reports the machine made; exits 0 only when every frame is
 * right and there were none.
 *
 *   usage: camera [arm|arm64|x86]      (default arm64)
 *
 * Build it as any program outside the dmaemu tree would:
 *   dmaemu-cc -o camera main.c cam-driver.c -ldmaemu-devices
 */
#include <stdio.h>
#include <string.h>

#include <dmaemu/device.h>
#include <dmaemu/devices/camera.h>
#include <dmaemu/machine.h>
#include <dmaemu/report.h>
#include <dmaemu/vma.h>

#include "cam-driver.h"

#define FRAME_SIZE 16384
#define FRAMES 16
#define SEED 42

static int failures;

static void check(int ok, const char *what)
{
	printf("%s: %s\n", ok ? "ok" : "FAILED", what);
	failures += !ok;
}

static u32 le32(const u8 *p)
{
	return (u32)p[0] | (u32)p[1] << 8 | (u32)p[2] << 16 | (u32)p[3] << 24;
}

/* Is the frame in @u frame @seq of buffer @n, header and every byte? */
static int frame_ok(const u8 *u, u32 seq, unsigned int n)
{
	size_t i;

	if (le32(u) != DMAEMU_CAM_MAGIC || le32(u + 4) != seq ||
	    le32(u + 8) != FRAME_SIZE || le32(u + 12) != n)
		return 0;
	for (i = DMAEMU_CAM_HEADER; i < FRAME_SIZE; i++)
		if (u[i] != dmaemu_camera_pattern(SEED, seq, i))
			return 0;
	return 1;
}

int main(int argc, char **argv)
{
	const char *profile = argc > 1 ? argv[1] : "arm64";
	struct vm_area_struct vma[CAMDRV_NBUF];
	struct dmaemu_machine *m;
	struct dmaemu_device *camera;
	struct camdrv *cam;
	unsigned int n, mapped = 0;
	uint64_t reports;
	char opts[64];
	int ok = 1, ret;
	u32 seq;

	snprintf(opts, sizeof(opts), "profile=%s", profile);
	m = dmaemu_machine_create(opts);
	if (!m) {
		perror("camera: dmaemu_machine_create()");
		return 2;
	}
	ret = platform_driver_register(&camdrv_driver);
	if (ret) {
		fprintf(stderr, "camera: platform_driver_register(): %s\n",
			strerror(-ret));
		return 2;
	}
	camera = dmaemu_camera_create(m, "cam0"); /* probed here */
	cam = camdrv_first();
	check(camera && cam, "the driver probed the camera");
	if (!cam)
		return 1;
	check(!camdrv_start(cam, FRAME_SIZE, 500, SEED), "stream started");

	/* The user maps every buffer once, as a capture program does. */
	memset(vma, 0, sizeof(vma));
	for (n = 0; n < CAMDRV_NBUF; n++) {
		vma[n].vm_end = FRAME_SIZE;
		mapped += !camdrv_mmap(cam, n, &vma[n]);
	}
	check(mapped == CAMDRV_NBUF, "every buffer mapped for the user");

	for (seq = 0; seq < FRAMES && mapped == CAMDRV_NBUF; seq++) {
		if (camdrv_dqbuf(cam, &n, 5000)) {
			ok = 0;
			break;
		}
		ok &= frame_ok((const u8 *)vma[n].vm_start, seq, n);
		camdrv_qbuf(cam, n);
	}
	check(ok, "16 frames, in order, every byte right");

	for (n = 0; n < CAMDRV_NBUF; n++)
		dmaemu_vma_unmap(&vma[n]);
	camdrv_stop(cam);
	dmaemu_device_destroy(camera); /* remove() runs */
	platform_driver_unregister(&camdrv_driver);
	reports = dmaemu_report_count(m, NULL);
	printf("profile %s: %llu reports\n", profile,
	       (unsigned long long)reports);
	dmaemu_machine_destroy(m);
	return failures || reports ? 1 : 0;
}
