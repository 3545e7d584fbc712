/* SPDX-License-Identifier: MIT */
/*
 * cam-driver.h - the reference driver of the streaming camera
 * (docs/devices/camera.md): what its users call, in the manner of a V4L2
 * capture driver's buffer queue (start, dequeue, mmap, queue, stop).
 */
#ifndef CAM_DRIVER_H
#define CAM_DRIVER_H

#include <linux/mm.h>
#include <linux/platform_device.h>

struct camdrv;

#define CAMDRV_NBUF 4

/* The platform driver: register it, then cameras are probed. */
extern struct platform_driver camdrv_driver;

/* The first camera bound to the driver, or NULL. */
struct camdrv *camdrv_first(void);

/*
 * Allocate CAMDRV_NBUF buffers of @frame_size bytes the CPU never maps
 * (DMA_ATTR_NO_KERNEL_MAPPING), give them all to the camera and start the
 * stream: a frame every @period_us, pattern seed @seed.
 * Return: 0; -ENOMEM; -EBUSY when streaming already.
 */
int camdrv_start(struct camdrv *cam, u32 frame_size, u32 period_us, u32 seed);

/* Wait up to @timeout_ms for a filled buffer; its index in *@n.
 * Return: 0; -ETIMEDOUT; -EIO after a camera error. */
int camdrv_dqbuf(struct camdrv *cam, unsigned int *n, unsigned int timeout_ms);

/* Give buffer @n back to the camera. */
void camdrv_qbuf(struct camdrv *cam, unsigned int n);

/* The driver's mmap of buffer @n for a user: dma_mmap_attrs() into @vma
 * (its vm_start, vm_end and vm_pgoff as the caller set them).
 * Return: 0 or what dma_mmap_attrs() returned; -EINVAL for a bad @n. */
int camdrv_mmap(struct camdrv *cam, unsigned int n, struct vm_area_struct *vma);

/* Stop the stream and free the buffers (user views must be gone). */
void camdrv_stop(struct camdrv *cam);

#endif
