/* SPDX-License-Identifier: MIT */
/*
 * <asm/barrier.h> - memory barriers.
 *
 * The ordering parts are C11 fences.  mb(), wmb() and dma_wmb() also drain
 * the write-combining buffers of the current machine: stores through a
 * DMA_ATTR_WRITE_COMBINE mapping reach memory (and devices) only then, or
 * when a buffer is needed for another chunk.  The smp_ barriers order CPUs
 * among themselves and leave the buffers alone.
 *
 * Every barrier that orders accesses to coherent memory against a device
 * (mb, rmb, wmb, the dma_ ones, smp_store_release(), smp_load_acquire())
 * also tells the ordering checks (docs/ordering.md) with
 * dmaemu_cpu_barrier(); the other smp_ barriers do not, as on arm64, where
 * they only order CPUs among themselves (dmb ish).
 */
#ifndef DMAEMU_KERNEL_ASM_BARRIER_H
#define DMAEMU_KERNEL_ASM_BARRIER_H

#include <linux/compiler.h>

#include <dmaemu/cpu.h>

#define mb()                                             \
	do {                                             \
		__atomic_thread_fence(__ATOMIC_SEQ_CST); \
		dmaemu_cpu_flush_wc();                   \
		dmaemu_cpu_barrier(DMAEMU_BARRIER_FULL); \
	} while (0)
#define rmb()                                            \
	do {                                             \
		__atomic_thread_fence(__ATOMIC_ACQUIRE); \
		dmaemu_cpu_barrier(DMAEMU_BARRIER_READ); \
	} while (0)
#define wmb()                                             \
	do {                                              \
		__atomic_thread_fence(__ATOMIC_RELEASE);  \
		dmaemu_cpu_flush_wc();                    \
		dmaemu_cpu_barrier(DMAEMU_BARRIER_WRITE); \
	} while (0)

#define dma_rmb() rmb()
#define dma_wmb() wmb()

#define smp_mb() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#define smp_rmb() __atomic_thread_fence(__ATOMIC_ACQUIRE)
#define smp_wmb() __atomic_thread_fence(__ATOMIC_RELEASE)

#define smp_store_release(p, v)                           \
	do {                                              \
		__atomic_thread_fence(__ATOMIC_RELEASE);  \
		dmaemu_cpu_barrier(DMAEMU_BARRIER_WRITE); \
		WRITE_ONCE(*(p), v);                      \
	} while (0)

#define smp_load_acquire(p)                               \
	__extension__({                                   \
		__typeof__(*(p)) ___p1 = READ_ONCE(*(p)); \
		__atomic_thread_fence(__ATOMIC_ACQUIRE);  \
		dmaemu_cpu_barrier(DMAEMU_BARRIER_READ);  \
		___p1;                                    \
	})

#endif
