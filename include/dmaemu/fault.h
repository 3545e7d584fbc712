/* SPDX-License-Identifier: MIT */
/*
 * <dmaemu/fault.h> - make the kernel calls a driver makes fail on demand,
 * to test its error paths.
 *
 * Modelled on Linux's fault-injection framework
 * (Documentation/fault-injection/fault-injection.txt): each fault point
 * has the attributes interval, probability, space and times, set with a
 * machine option in the boot-parameter form "interval,probability,space,
 * times" (failslab=1,100,0,-1), or at run time with dmaemu_fault_set(); and
 * a thread can ask for its n-th call at any point to fail, as writing n to
 * /proc/self/fail-nth does.  See docs/options.md.
 */
#ifndef DMAEMU_FAULT_H
#define DMAEMU_FAULT_H

#ifdef __cplusplus
extern "C" {
#endif

struct dmaemu_machine;

/**
 * enum dmaemu_fault_point - where a failure can be injected; each is the
 * machine option of the same name.
 * @DMAEMU_FAULT_SLAB:       failslab: kmalloc() and its family, up to
 *                           KMALLOC_MAX_CACHE_SIZE (larger ones come from
 *                           the page allocator, as in Linux), devm_kmalloc()
 *                           and kmem_cache_alloc(): they return NULL.
 * @DMAEMU_FAULT_PAGE_ALLOC: fail_page_alloc: alloc_pages(),
 *                           __get_free_pages(), get_zeroed_page(),
 *                           alloc_pages_exact() and large kmalloc(): NULL.
 * @DMAEMU_FAULT_DMA_ALLOC:  fail_dma_alloc: dma_alloc_attrs() and the calls
 *                           built on it (dma_alloc_coherent(),
 *                           dma_alloc_wc(), dmam_alloc_*()): NULL.
 * @DMAEMU_FAULT_DMA_MAP:    fail_dma_map: dma_map_single/page_attrs() and
 *                           dma_map_resource() return the mapping-error
 *                           cookie (dma_mapping_error() is true),
 *                           dma_map_sg_attrs() returns 0.
 * @DMAEMU_FAULT_DMA_POOL:   fail_dma_pool: dma_pool_alloc() and
 *                           dma_pool_zalloc(): NULL.
 * @DMAEMU_FAULT_NPOINTS:    the number of points.
 */
enum dmaemu_fault_point {
	DMAEMU_FAULT_SLAB,
	DMAEMU_FAULT_PAGE_ALLOC,
	DMAEMU_FAULT_DMA_ALLOC,
	DMAEMU_FAULT_DMA_MAP,
	DMAEMU_FAULT_DMA_POOL,
	DMAEMU_FAULT_NPOINTS,
};

/**
 * dmaemu_fault_set() - change a fault point's attributes at run time.
 * @m:     the machine.
 * @point: the point.
 * @spec:  "interval,probability,space,times" as the option takes it, or
 *         "off".  Its counters (interval, space) start again.
 *
 * Return: 0, or -EINVAL (a bad point or spec: a report says why).
 */
int dmaemu_fault_set(struct dmaemu_machine *m, enum dmaemu_fault_point point,
		     const char *spec);

/**
 * dmaemu_fault_injected() - how many failures @point has injected on @m
 * since the machine was made (dmaemu_fail_nth() failures included).
 * Return: the count (0 for a bad point or a NULL machine).
 */
unsigned long dmaemu_fault_injected(const struct dmaemu_machine *m,
				    enum dmaemu_fault_point point);

/**
 * dmaemu_fail_nth() - make the calling thread's @n-th call at any fault
 * point fail (1: the next one), whatever the points' attributes; 0 turns
 * it off.  As Linux's /proc/self/task/<tid>/fail-nth.  Calling it with
 * n = 1, 2, 3, ... around a driver's probe until dmaemu_fail_nth_left()
 * is no longer 0 afterwards fails each of its allocations and mappings in
 * turn.
 */
void dmaemu_fail_nth(unsigned int n);

/**
 * dmaemu_fail_nth_left() - the calls left before the thread's requested
 * failure; 0 once it has happened (or none was requested).
 */
unsigned int dmaemu_fail_nth_left(void);

#ifdef __cplusplus
}
#endif

#endif /* DMAEMU_FAULT_H */
