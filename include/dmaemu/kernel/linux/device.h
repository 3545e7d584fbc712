/* SPDX-License-Identifier: MIT */
/*
 * <linux/device.h> - the struct device that drivers pass to the DMA API.
 *
 * A struct device belongs to an emulated device (<dmaemu/device.h>), and
 * through it to a machine: either the one dmaemu_device_create() made (a
 * platform device's), or one embedded in the caller's own bus structure
 * (a struct pci_dev, a driver's private device) and tied to an emulated
 * device with dmaemu_device_bind().  Drivers read and set the DMA fields
 * as in the kernel; the fields named dmaemu_* belong to the emulator.
 * The DMA API given a struct device tied to nothing reports bad-argument
 * and fails the call.
 *
 * Lifetime: device_initialize() gives a struct device one reference;
 * get_device() and put_device() count them, and the last put_device()
 * runs the managed resources' releases (devres) and then @release, as
 * Linux's device_release() does.
 */
#ifndef DMAEMU_KERNEL_LINUX_DEVICE_H
#define DMAEMU_KERNEL_LINUX_DEVICE_H

#include <stdint.h>

#include <dmaemu/ktypes.h>

#ifdef __cplusplus
extern "C" {
#endif

struct dmaemu_device;

/**
 * struct device_dma_parameters - limits of the device's DMA engine.
 * @max_segment_size:      longest scatterlist segment it takes (64 KiB by
 *                         default, as in Linux).
 * @segment_boundary_mask: a segment may not cross an address boundary of
 *                         (mask + 1) bytes (default 0xffffffff).
 */
struct device_dma_parameters {
	unsigned int max_segment_size;
	unsigned long segment_boundary_mask;
};

/**
 * struct device - a device as the DMA API sees it.
 * @init_name:         name given at creation (also dev_name()); a bound
 *                     struct device left without one gets the emulated
 *                     device's until it is untied.
 * @parent:            the device this one hangs below (NULL: none); kept,
 *                     not interpreted.
 * @platform_data:     board data for the driver (dev_get_platdata()).
 * @dma_mask:          streaming DMA mask; points at @dmaemu_dma_mask until a
 *                     driver points it elsewhere.
 * @coherent_dma_mask: mask for coherent allocations.
 * @dma_parms:         segment limits; points at @dmaemu_dma_parms.
 * @driver_data:       for dev_get_drvdata()/dev_set_drvdata().
 * @release:           called by the last put_device() (Linux's
 *                     device_release()).
 * @dmaemu:            the emulated device this struct belongs to (NULL:
 *                     none).
 * @dmaemu_refs:       the reference count of get_device()/put_device().
 * @dmaemu_dma_mask:   storage for the default @dma_mask.
 * @dmaemu_dma_parms:  storage for the default @dma_parms.
 */
struct device_node;

struct device {
	const char *init_name;
	struct device *parent;
	void *platform_data;
	u64 *dma_mask;
	u64 coherent_dma_mask;
	struct device_dma_parameters *dma_parms;
	void *driver_data;
	void (*release)(struct device *dev);
	struct device_node *of_node;
	struct dmaemu_device *dmaemu;
	int dmaemu_refs;
	u64 dmaemu_dma_mask;
	struct device_dma_parameters dmaemu_dma_parms;
};

/**
 * struct device_driver - what a bus matches devices against.
 * @name: the driver's name (the platform bus matches it with the model's).
 * @owner, @of_match_table: 4.14's, kept (no modules, no device tree).
 */
struct module;
struct of_device_id;
struct device_driver {
	const char *name;
	struct module *owner;
	const struct of_device_id *of_match_table;
};

/* A power management event (4.14's <linux/pm.h>; no transitions here). */
typedef struct pm_message {
	int event;
} pm_message_t;

struct resource;

/**
 * device_initialize() - prepare a struct device the caller embeds in its
 * own structure: one reference (get_device()/put_device()).  The caller
 * zeroes it first (as the kernel's callers kzalloc() it) and sets
 * @release; dmaemu_device_bind() ties it to an emulated device.
 */
void device_initialize(struct device *dev);

/**
 * get_device() - take a reference to @dev.
 * Return: @dev (NULL stays NULL).
 */
struct device *get_device(struct device *dev);

/**
 * put_device() - drop a reference to @dev.  The last one unties @dev from
 * its emulated device (dmaemu_device_unbind(): managed resources
 * released, live mappings reported) and calls @dev->release; a device
 * without @release is reported (bad-argument), as Linux warns.  A put of
 * a device whose count is 0 already, or of the struct device
 * dmaemu_device_create() made (the emulated device owns its last
 * reference), is reported and does nothing.
 */
void put_device(struct device *dev);

/*
 * Generic managed resources (drivers/base/devres.c).  A resource is
 * allocated with devres_alloc() (zeroed host memory: not DMA-able; map
 * devm_kzalloc() memory instead), added to a device with devres_add(),
 * and released, newest first, when the device is unbound, destroyed or
 * put for the last time; @release(dev, res) runs first, then the memory
 * is freed.  A device must be tied to an emulated device to take one.
 */
typedef void (*dr_release_t)(struct device *dev, void *res);
typedef int (*dr_match_t)(struct device *dev, void *res, void *match_data);

/**
 * devres_alloc() - allocate a resource of @size bytes, zeroed.
 * Return: its data, or NULL (out of host memory; a NULL @release is
 * reported as bad-argument).
 */
void *devres_alloc(dr_release_t release, size_t size, unsigned int gfp);
/** devres_free() - free a resource never added (or removed again). */
void devres_free(void *res);
/** devres_add() - register @res with @dev (released after the newer). */
void devres_add(struct device *dev, void *res);
/**
 * devres_find() - the newest resource of @dev made with @release for
 * which @match (NULL: any) returns nonzero.  Return: its data, or NULL.
 */
void *devres_find(struct device *dev, dr_release_t release, dr_match_t match,
		  void *match_data);
/**
 * devres_get() - devres_find() for @new_res's release; when there is
 * none, add @new_res.  Return: the resource found (@new_res is then
 * freed) or @new_res.
 */
void *devres_get(struct device *dev, void *new_res, dr_match_t match,
		 void *match_data);
/** devres_remove() - unregister what devres_find() finds, without
 * releasing or freeing it.  Return: its data, or NULL. */
void *devres_remove(struct device *dev, dr_release_t release, dr_match_t match,
		    void *match_data);
/** devres_destroy() - devres_remove() then devres_free(), no release.
 * Return: 0, or -ENOENT (reported, as Linux warns). */
int devres_destroy(struct device *dev, dr_release_t release, dr_match_t match,
		   void *match_data);
/** devres_release() - devres_remove(), @release, devres_free().
 * Return: 0, or -ENOENT (reported, as Linux warns). */
int devres_release(struct device *dev, dr_release_t release, dr_match_t match,
		   void *match_data);
/**
 * devres_release_all() - release every managed resource of @dev, newest
 * first (devres_alloc()ed ones, devm_*, dmam_*), as the driver core does
 * when a driver is unbound.  Return: how many; -ENODEV when @dev is not
 * tied to an emulated device.
 */
int devres_release_all(struct device *dev);

/**
 * devm_kmalloc() - kmalloc() that is freed when the driver is unbound from
 * @dev (or @dev is destroyed).
 * Return: the memory, or NULL (an alloc-failure report; a bad-argument
 * report when @dev is not an emulated device).
 */
void *devm_kmalloc(struct device *dev, size_t size, unsigned int gfp);
/** devm_kzalloc() - devm_kmalloc(), zeroed. */
void *devm_kzalloc(struct device *dev, size_t size, unsigned int gfp);
/** devm_kfree() - free what devm_kmalloc() gave now. */
void devm_kfree(struct device *dev, const void *p);
/**
 * devm_ioremap_resource() - ioremap() a IORESOURCE_MEM resource of @dev.
 * Return: the __iomem cookie, or ERR_PTR(-EINVAL) (no resource, not
 * memory) or ERR_PTR(-ENOMEM) (no register window there: a report), with a
 * dev_err() message as in Linux.  Check it with IS_ERR() (<linux/err.h>).
 */
void *devm_ioremap_resource(struct device *dev, struct resource *res);

/** dev_name() - the device's name. */
static inline const char *dev_name(const struct device *dev)
{
	return dev->init_name;
}

/** dev_get_platdata() - the board data given to the driver. */
static inline void *dev_get_platdata(const struct device *dev)
{
	return dev->platform_data;
}

static inline void *dev_get_drvdata(const struct device *dev)
{
	return dev->driver_data;
}

static inline void dev_set_drvdata(struct device *dev, void *data)
{
	dev->driver_data = data;
}

/**
 * dev_printk() - print a kernel log line for @dev, as "<level>name: text",
 * on the machine's log (stderr or the log_path option).
 * @level: KERN_ERR and friends.
 */
void dev_printk(const char *level, const struct device *dev, const char *fmt,
		...) __attribute__((format(printf, 3, 4)));

#define KERN_EMERG "<0>"
#define KERN_ALERT "<1>"
#define KERN_CRIT "<2>"
#define KERN_ERR "<3>"
#define KERN_WARNING "<4>"
#define KERN_NOTICE "<5>"
#define KERN_INFO "<6>"
#define KERN_DEBUG "<7>"

#define dev_emerg(dev, ...) dev_printk(KERN_EMERG, dev, __VA_ARGS__)
#define dev_alert(dev, ...) dev_printk(KERN_ALERT, dev, __VA_ARGS__)
#define dev_crit(dev, ...) dev_printk(KERN_CRIT, dev, __VA_ARGS__)
#define dev_err(dev, ...) dev_printk(KERN_ERR, dev, __VA_ARGS__)
#define dev_warn(dev, ...) dev_printk(KERN_WARNING, dev, __VA_ARGS__)
#define dev_notice(dev, ...) dev_printk(KERN_NOTICE, dev, __VA_ARGS__)
#define dev_info(dev, ...) dev_printk(KERN_INFO, dev, __VA_ARGS__)
/*
 * As in Linux 4.14 without dynamic debug: dev_dbg() prints only in a file
 * that defines DEBUG before including this header, dev_vdbg() only with
 * VERBOSE_DEBUG too; otherwise they print nothing, and the compiler still
 * checks the format against the arguments.
 */
#define dmaemu_dev_no_printk(dev, ...)                            \
	do {                                                      \
		if (0)                                            \
			dev_printk(KERN_DEBUG, dev, __VA_ARGS__); \
	} while (0)
#ifdef DEBUG
#define dev_dbg(dev, ...) dev_printk(KERN_DEBUG, dev, __VA_ARGS__)
#else
#define dev_dbg(dev, ...) dmaemu_dev_no_printk(dev, __VA_ARGS__)
#endif
#ifdef VERBOSE_DEBUG
#define dev_vdbg dev_dbg
#else
#define dev_vdbg(dev, ...) dmaemu_dev_no_printk(dev, __VA_ARGS__)
#endif

/*
 * The _ratelimited forms print every time, as pr_err_ratelimited() and
 * friends (<linux/printk.h>).
 */
#define dev_emerg_ratelimited dev_emerg
#define dev_alert_ratelimited dev_alert
#define dev_crit_ratelimited dev_crit
#define dev_err_ratelimited dev_err
#define dev_warn_ratelimited dev_warn
#define dev_notice_ratelimited dev_notice
#define dev_info_ratelimited dev_info
#define dev_dbg_ratelimited dev_dbg

/** devm_kmalloc_array() - devm_kmalloc() of @n elements of @size bytes
 * (NULL when the product overflows, as in 4.14). */
static inline void *devm_kmalloc_array(struct device *dev, size_t n,
				       size_t size, unsigned int flags)
{
	if (size != 0 && n > SIZE_MAX / size)
		return NULL;
	return devm_kmalloc(dev, n * size, flags);
}

/** devm_kcalloc() - devm_kzalloc() of @n elements of @size bytes. */
static inline void *devm_kcalloc(struct device *dev, size_t n, size_t size,
				 unsigned int flags)
{
	if (size != 0 && n > SIZE_MAX / size)
		return NULL;
	return devm_kzalloc(dev, n * size, flags);
}

/*
 * module_driver() - 4.14's helper behind module_platform_driver() and
 * friends: an init function that registers @__driver and an exit
 * function that unregisters it, given to module_init()/module_exit()
 * (which keep them: nothing calls them, the test registers the driver).
 */
#define module_driver(__driver, __register, __unregister, ...) \
	static int __init __driver##_init(void)                \
	{                                                      \
		return __register(&(__driver), ##__VA_ARGS__); \
	}                                                      \
	module_init(__driver##_init);                          \
	static void __exit __driver##_exit(void)               \
	{                                                      \
		__unregister(&(__driver), ##__VA_ARGS__);      \
	}                                                      \
	module_exit(__driver##_exit);

#ifdef __cplusplus
}
#endif

/* What Linux 4.14's include chain brings with this header (docs/kernel-headers.md). */
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/err.h>
#include <linux/gfp.h>
#include <linux/init.h>
#include <linux/ioport.h>
#include <linux/kernel.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#endif
