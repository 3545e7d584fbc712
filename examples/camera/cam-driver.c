// SPDX-License-Identifier: MIT
/*
 * cam-driver.c - a Linux-style platform driver for the streaming camera,
 * written from its data sheet (docs/devices/camera.md): probe maps the
 * registers and requests the interrupt; start allocates the frame buffers
 * with DMA_ATTR_NO_KERNEL_MAPPING (the driver never touches a pixel: the
 * pointers it gets are cookies for dma_mmap_attrs() and dma_free_attrs()),
 * queues them and enables the stream; the interrupt handler collects the
 * filled buffers and wakes the reader; remove quiesces the camera first.
 */
#include <errno.h> /* the kernel's <linux/errno.h> is the system's */

#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/err.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/jiffies.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/wait.h>

#include "cam-driver.h"

/* Registers (data sheet, section 2). */
#define CAM_ID 0x00
#define CAM_CTRL 0x04
#define CAM_INT_STATUS 0x0c
#define CAM_INT_ENABLE 0x10
#define CAM_FRAME_SIZE 0x14
#define CAM_PERIOD_US 0x18
#define CAM_SEED 0x1c
#define CAM_QUEUE 0x20
#define CAM_DONE 0x24
#define CAM_BUF_LO(n) (0x40 + 8 * (n))
#define CAM_BUF_HI(n) (0x44 + 8 * (n))

#define CAM_ID_VALUE 0xca3e0001
#define CAM_CTRL_ENABLE 0x1
#define CAM_CTRL_RESET 0x80000000
#define CAM_INT_FRAME 0x1
#define CAM_INT_ERROR 0x2

#define NOMAP DMA_ATTR_NO_KERNEL_MAPPING

struct camdrv {
	struct device *dev;
	void __iomem *regs;
	int irq;
	spinlock_t lock;      /* protects ready, error */
	u32 ready;	      /* buffers filled, not dequeued yet */
	bool error;	      /* the camera stopped on an error */
	wait_queue_head_t wq; /* dqbuf waits here */
	unsigned int next; /* the buffer the camera fills next (ring order) */
	bool streaming;
	u32 size;
	void *cookie[CAMDRV_NBUF];
	dma_addr_t dma[CAMDRV_NBUF];
};

static struct camdrv *first; /* the first camera bound (demo lookup) */

struct camdrv *camdrv_first(void)
{
	return first;
}

static irqreturn_t cam_irq(int irq, void *data)
{
	struct camdrv *cam = data;
	u32 st = readl(cam->regs + CAM_INT_STATUS);
	u32 done;

	(void)irq;
	if (!st)
		return IRQ_NONE;
	writel(st, cam->regs + CAM_INT_STATUS);
	done = readl(cam->regs + CAM_DONE);
	writel(done, cam->regs + CAM_DONE);
	spin_lock(&cam->lock);
	cam->ready |= done;
	if (st & CAM_INT_ERROR)
		cam->error = true;
	spin_unlock(&cam->lock);
	wake_up(&cam->wq);
	return IRQ_HANDLED;
}

static void free_buffers(struct camdrv *cam)
{
	unsigned int n;

	for (n = 0; n < CAMDRV_NBUF; n++) {
		if (cam->cookie[n])
			dma_free_attrs(cam->dev, cam->size, cam->cookie[n],
				       cam->dma[n], NOMAP);
		cam->cookie[n] = NULL;
	}
}

int camdrv_start(struct camdrv *cam, u32 frame_size, u32 period_us, u32 seed)
{
	unsigned int n;

	if (cam->streaming)
		return -EBUSY;
	cam->size = frame_size;
	for (n = 0; n < CAMDRV_NBUF; n++) {
		cam->cookie[n] = dma_alloc_attrs(
			cam->dev, frame_size, &cam->dma[n], GFP_KERNEL, NOMAP);
		if (!cam->cookie[n]) {
			free_buffers(cam);
			return -ENOMEM;
		}
		writel(lower_32_bits(cam->dma[n]), cam->regs + CAM_BUF_LO(n));
		writel(upper_32_bits(cam->dma[n]), cam->regs + CAM_BUF_HI(n));
	}
	cam->ready = 0;
	cam->next = 0;
	cam->error = false;
	writel(frame_size, cam->regs + CAM_FRAME_SIZE);
	writel(period_us, cam->regs + CAM_PERIOD_US);
	writel(seed, cam->regs + CAM_SEED);
	writel(CAM_INT_FRAME | CAM_INT_ERROR, cam->regs + CAM_INT_ENABLE);
	for (n = 0; n < CAMDRV_NBUF; n++)
		writel(n, cam->regs + CAM_QUEUE);
	writel(CAM_CTRL_ENABLE, cam->regs + CAM_CTRL);
	cam->streaming = true;
	return 0;
}

/* Take the next filled buffer in the camera's ring order (it fills the
 * queued buffers in that order), if it is ready.  Return: its index, or
 * -1. */
static int take_ready(struct camdrv *cam, bool *error)
{
	unsigned long flags;
	int n = -1;

	spin_lock_irqsave(&cam->lock, flags);
	if (cam->ready & (1u << cam->next)) {
		n = (int)cam->next;
		cam->ready &= ~(1u << n);
		cam->next = (cam->next + 1) % CAMDRV_NBUF;
	}
	*error = cam->error;
	spin_unlock_irqrestore(&cam->lock, flags);
	return n;
}

int camdrv_dqbuf(struct camdrv *cam, unsigned int *n, unsigned int timeout_ms)
{
	bool error = false;
	int got = -1;

	wait_event_timeout(cam->wq,
			   (got = take_ready(cam, &error)) >= 0 || error,
			   msecs_to_jiffies(timeout_ms));
	if (got >= 0) {
		*n = (unsigned int)got;
		return 0;
	}
	return error ? -EIO : -ETIMEDOUT;
}

void camdrv_qbuf(struct camdrv *cam, unsigned int n)
{
	if (n < CAMDRV_NBUF)
		writel(n, cam->regs + CAM_QUEUE);
}

int camdrv_mmap(struct camdrv *cam, unsigned int n, struct vm_area_struct *vma)
{
	if (n >= CAMDRV_NBUF || !cam->cookie[n])
		return -EINVAL;
	return dma_mmap_attrs(cam->dev, vma, cam->cookie[n], cam->dma[n],
			      cam->size, NOMAP);
}

void camdrv_stop(struct camdrv *cam)
{
	if (!cam->streaming)
		return;
	/* Stop the DMA before the buffers go. */
	writel(CAM_CTRL_RESET, cam->regs + CAM_CTRL);
	synchronize_irq((unsigned int)cam->irq);
	free_buffers(cam);
	cam->streaming = false;
}

static int cam_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct resource *res;
	struct camdrv *cam;
	int ret;

	cam = devm_kzalloc(dev, sizeof(*cam), GFP_KERNEL);
	if (!cam)
		return -ENOMEM;
	cam->dev = dev;
	res = platform_get_resource(pdev, IORESOURCE_MEM, 0);
	cam->regs = devm_ioremap_resource(dev, res);
	if (IS_ERR(cam->regs))
		return (int)PTR_ERR(cam->regs);
	if (readl(cam->regs + CAM_ID) != CAM_ID_VALUE) {
		dev_err(dev, "not a camera\n");
		return -ENODEV;
	}
	cam->irq = platform_get_irq(pdev, 0);
	if (cam->irq < 0)
		return cam->irq;
	ret = dma_set_mask_and_coherent(dev, DMA_BIT_MASK(64));
	if (ret)
		return ret;
	spin_lock_init(&cam->lock);
	init_waitqueue_head(&cam->wq);
	writel(CAM_CTRL_RESET, cam->regs + CAM_CTRL);
	ret = request_irq((unsigned int)cam->irq, cam_irq, 0, dev_name(dev),
			  cam);
	if (ret)
		return ret;
	platform_set_drvdata(pdev, cam);
	if (!first)
		first = cam;
	return 0;
}

static int cam_remove(struct platform_device *pdev)
{
	struct camdrv *cam = platform_get_drvdata(pdev);

	camdrv_stop(cam);
	free_irq((unsigned int)cam->irq, cam);
	if (first == cam)
		first = NULL;
	return 0;
}

struct platform_driver camdrv_driver = {
	.probe = cam_probe,
	.remove = cam_remove,
	.driver = {.name = "dmaemu-camera"},
};
