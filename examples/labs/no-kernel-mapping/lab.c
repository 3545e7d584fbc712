// SPDX-License-Identifier: MIT
/*
 * no-kernel-mapping - a capture driver allocates its frame buffer with
 * DMA_ATTR_NO_KERNEL_MAPPING (the kernel never needs to touch the pixels;
 * user space maps them) and then treats it as an ordinary coherent buffer:
 * it reads the frame header through the cookie and frees it without the
 * attribute.
 */
#include <errno.h> /* the kernel's <linux/errno.h> is the system's */
#include <setjmp.h>
#include <signal.h>
#include <string.h>

#include <dmaemu/device.h>
#include <dmaemu/vma.h>
#include <linux/dma-mapping.h>
#include <linux/mm.h>

#include "lab.h"

#define FRAME_SIZE (2 * PAGE_SIZE)
#define ATTRS DMA_ATTR_NO_KERNEL_MAPPING
#define MAGIC 0x46524d31 /* "FRM1": the header the camera writes */

struct frame_hdr {
	u32 magic;
	u32 seq;
	u32 width, height;
};

#ifndef LAB_FIXED
static sigjmp_buf oops;

static void on_fault(int sig)
{
	(void)sig;
	siglongjmp(oops, 1);
}

/* The bug: a plain load through the cookie.  It faults (the window has no
 * memory); the lab catches the fault so that it can finish its story. */
static bool read_header(const void *frame, struct frame_hdr *h)
{
	struct sigaction sa = {.sa_handler = on_fault}, old;
	volatile bool ok = false;

	sigaction(SIGSEGV, &sa, &old);
	if (!sigsetjmp(oops, 1)) {
		*h = *(const struct frame_hdr *)frame;
		ok = true;
	} else {
		lab_say("fault at %p: nothing is mapped behind the cookie",
			frame);
	}
	sigaction(SIGSEGV, &old, NULL);
	return ok;
}
#endif

int main(int argc, char **argv)
{
	struct lab *lab = lab_start("no-kernel-mapping", argc, argv, NULL);
	const struct frame_hdr sent = {MAGIC, 1, 640, 480};
	struct frame_hdr got = {0};
	struct dmaemu_device *cam;
	struct device *dev;
	dma_addr_t h;
	void *frame;
	bool ok;

	if (!lab)
		return 2;
	cam = dmaemu_device_create(lab->m, "cam0", NULL, NULL);
	if (!cam)
		return lab_fail(lab, "dmaemu_device_create()", errno);
	dev = dmaemu_device_to_dev(cam);
	frame = dma_alloc_attrs(dev, FRAME_SIZE, &h, GFP_KERNEL, ATTRS);
	if (!frame)
		return lab_fail(lab, "dma_alloc_attrs()", -ENOMEM);
	lab_say("frame buffer: cookie %p, bus address 0x%llx", frame,
		(unsigned long long)h);
	lab_show(lab, frame, sizeof(sent), "the frame's first line");

	/* The camera captures a frame: header first. */
	dmaemu_dma_write(cam, h, &sent, sizeof(sent));
	lab_show(lab, frame, sizeof(sent), "the camera wrote the header");

#ifdef LAB_FIXED
	{
		/* FIX: the cookie is not an address.  The pixels are for user
		 * space: dma_mmap_attrs() (with the same attribute) gives the
		 * "user" a view of the buffer, and the header is read there. */
		struct vm_area_struct vma = {.vm_start = 0,
					     .vm_end = FRAME_SIZE};

		int err =
			dma_mmap_attrs(dev, &vma, frame, h, FRAME_SIZE, ATTRS);

		if (err)
			return lab_fail(lab, "dma_mmap_attrs()", err);
		lab_say("user view at 0x%lx", vma.vm_start);
		memcpy(&got, (const void *)vma.vm_start, sizeof(got));
		dmaemu_vma_unmap(&vma);
	}
#else
	read_header(frame, &got);
#endif
	ok = !memcmp(&got, &sent, sizeof(sent));
	lab_say("header: magic 0x%08x, frame %u, %ux%u", got.magic, got.seq,
		got.width, got.height);

#ifdef LAB_FIXED
	/* FIX: free with the attribute it was allocated with. */
	dma_free_attrs(dev, FRAME_SIZE, frame, h, ATTRS);
#else
	dma_free_coherent(dev, FRAME_SIZE, frame, h);
#endif
	dmaemu_device_destroy(cam);
	return lab_finish(lab, ok);
}
