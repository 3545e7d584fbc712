/* SPDX-License-Identifier: MIT */
/*
 * base.h - the lowest layer of lib/: what every other layer may use and
 * that knows nothing of machines.  See docs/architecture.md for the layers.
 *
 *   lock.c      mutexes of the library (error-checking unless NDEBUG)
 *   annotate.c  Helgrind/DRD annotations (TSan's are inline below) and
 *               Memcheck's view of the CPU copy's stale bytes
 *   alloc.c     the one host allocator of lib/ (can fail on request)
 *   sbuf.c      a bounded text buffer for reports and descriptions
 *
 * Nothing here takes a lock of the machine (see the lock order in
 * core/core.h); the allocator's failure counter is an atomic.
 */
#ifndef DMAEMU_LIB_BASE_H
#define DMAEMU_LIB_BASE_H

#include <pthread.h>
#include <sys/types.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* ---------------------------------------------------------------------- */
/* Mutexes (lock.c)                                                       */
/* ---------------------------------------------------------------------- */

/* Mutexes: error-checking unless NDEBUG; a failing lock is a broken
 * invariant and aborts.  dmaemu__mutex_init() returns 0 or a positive
 * pthreads error number.  A lock found held spins a little before it
 * sleeps (dmaemu__lock_contended(), lock.c). */
int dmaemu__mutex_init(pthread_mutex_t *mu);
void dmaemu__lock_contended(pthread_mutex_t *mu);
void dmaemu__unlock_wake(pthread_mutex_t *mu, pthread_cond_t *cond);
/* What the waiters of one condition variable share for
 * dmaemu__cond_wait_spin(): @seq, bumped by every wake-up (atomic); @miss,
 * the spins in a row that ended without one (under the mutex). */
struct dmaemu__wake {
	unsigned int seq;
	unsigned int miss;
};
struct timespec;
int dmaemu__cond_wait_spin(pthread_cond_t *cond, pthread_mutex_t *mu,
			   struct dmaemu__wake *w,
			   const struct timespec *abstime);
/* A wake-up for the spinning waiters of dmaemu__cond_wait_spin(), made
 * with the waiters' mutex held, before the broadcast. */
static inline void dmaemu__wake_seq(struct dmaemu__wake *w)
{
	__atomic_fetch_add(&w->seq, 1, __ATOMIC_RELEASE);
}
static inline void dmaemu__lock(pthread_mutex_t *mu)
{
	if (__builtin_expect(pthread_mutex_trylock(mu) != 0, 0))
		dmaemu__lock_contended(mu);
}
static inline void dmaemu__unlock(pthread_mutex_t *mu)
{
	if (pthread_mutex_unlock(mu))
		abort();
}

/* Add one to a counter that one thread writes and any thread reads. */
static inline __attribute__((always_inline)) void dmaemu__count(uint64_t *c)
{
	__atomic_store_n(c, __atomic_load_n(c, __ATOMIC_RELAXED) + 1,
			 __ATOMIC_RELAXED);
}

/* ---------------------------------------------------------------------- */
/* Host memory (alloc.c)                                                  */
/* ---------------------------------------------------------------------- */

/*
 * Every host allocation of lib/ goes through these, so that one place can
 * make them fail: dmaemu__alloc_fail_after(n) makes the allocation n calls
 * from now (1 = the next one) and every one after it fail with ENOMEM until
 * dmaemu__alloc_fail_after(0).  dmaemu__alloc_calls() counts the calls
 * made so far (for a test that fails each allocation in turn).
 */
void *dmaemu__malloc(size_t size);
void *dmaemu__calloc(size_t n, size_t size);
void *dmaemu__realloc(void *p, size_t size);
char *dmaemu__strdup(const char *s);
void dmaemu__free(void *p);
void dmaemu__alloc_fail_after(uint64_t n);
uint64_t dmaemu__alloc_calls(void);

/*
 * The other host allocations, counted and failed with the malloc family:
 * an mmap() that makes a mapping (MAP_FAILED, errno ENOMEM), memfd_create()
 * (-1, ENOMEM) and pthread_create() (EAGAIN, as for want of resources).
 * dmaemu__alloc_failed(kind) counts the failures made of each kind;
 * dmaemu__alloc_hit_kind() is the kind of the call that failed first since
 * the last dmaemu__alloc_fail_after() (-1 while none did).
 */
enum dmaemu__alloc_kind {
	DMAEMU__ALLOC_MALLOC,
	DMAEMU__ALLOC_MMAP,
	DMAEMU__ALLOC_MEMFD,
	DMAEMU__ALLOC_THREAD,
	DMAEMU__ALLOC_KINDS
};
void *dmaemu__mmap(void *addr, size_t len, int prot, int flags, int fd,
		   off_t off);
int dmaemu__memfd_create(const char *name, unsigned int flags);
int dmaemu__pthread_create(pthread_t *t, const pthread_attr_t *attr,
			   void *(*fn)(void *), void *arg);
uint64_t dmaemu__alloc_failed(enum dmaemu__alloc_kind kind);
int dmaemu__alloc_hit_kind(void);

/* ---------------------------------------------------------------------- */
/* Text (sbuf.c)                                                          */
/* ---------------------------------------------------------------------- */

/* A bounded text buffer that counts what it could not hold (snprintf). */
struct dmaemu__sbuf {
	char *buf;
	size_t len;
	size_t pos; /* characters produced so far, stored or not */
};
void dmaemu__sbuf_init(struct dmaemu__sbuf *b, char *buf, size_t len);
void dmaemu__sbuf_printf(struct dmaemu__sbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void dmaemu__sbuf_vprintf(struct dmaemu__sbuf *b, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
/* The length of the whole text, clamped to INT_MAX. */
int dmaemu__sbuf_result(const struct dmaemu__sbuf *b);

/* ---------------------------------------------------------------------- */
/* Race-detector annotations (annotate.c)                                 */
/* ---------------------------------------------------------------------- */

/* Mark benign for Helgrind/DRD a word only accessed with atomics. */
void dmaemu__vg_atomic(void *addr, size_t size);

/*
 * The model's whole-line work on the CPU copy (fill, the stale check, the
 * write-back of an evicted line) races by design with plain stores other
 * driver threads make to the same line: one emulated cache serves every
 * thread, so one thread's miss can evict a line another is writing.  The
 * outcome is still exact (a store that lands after the write-back leaves
 * CPU != TWIN: the bytes stay CPU-dirty and are written back later), but
 * Helgrind and DRD would blame the emulator.  Between begin and end this
 * thread's accesses are not recorded (DRD); Helgrind stops checking the
 * line's CPU copy from begin on, for good (see dmaemu__vg_line_end()), so
 * races between driver threads on DMA memory are DRD's to find.  Free
 * when not under Valgrind.  dmaemu__on_valgrind is set by
 * dmaemu__annotate_init(), which every machine create calls.
 */
extern bool dmaemu__on_valgrind __attribute__((visibility("hidden")));
void dmaemu__annotate_init(void);
void dmaemu__vg_line_begin(const void *cpu_line, size_t len);
void dmaemu__vg_line_end(const void *cpu_line, size_t len);

/*
 * Built with TSan (--enable-sanitizer=thread), the same race is declared
 * to TSan with the dynamic annotations of its runtime: between begin and
 * end this thread's reads and writes are neither recorded nor checked.
 * TSan has no per-range ignore, so the model's MEM and TWIN accesses in
 * the section go unchecked too; they are made under the line's stripe
 * lock, a discipline TSan still checks on every other path to them.
 */
#if defined(__SANITIZE_THREAD__)
#define DMAEMU__TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define DMAEMU__TSAN 1
#endif
#endif
#ifdef DMAEMU__TSAN
void AnnotateIgnoreReadsBegin(const char *file, int line);
void AnnotateIgnoreReadsEnd(const char *file, int line);
void AnnotateIgnoreWritesBegin(const char *file, int line);
void AnnotateIgnoreWritesEnd(const char *file, int line);
#endif

static inline void dmaemu__racy_line_begin(const void *cpu_line, size_t len)
{
#ifdef DMAEMU__TSAN
	AnnotateIgnoreReadsBegin(__FILE__, __LINE__);
	AnnotateIgnoreWritesBegin(__FILE__, __LINE__);
#endif
	if (__builtin_expect(dmaemu__on_valgrind, 0))
		dmaemu__vg_line_begin(cpu_line, len);
}

static inline void dmaemu__racy_line_end(const void *cpu_line, size_t len)
{
	if (__builtin_expect(dmaemu__on_valgrind, 0))
		dmaemu__vg_line_end(cpu_line, len);
#ifdef DMAEMU__TSAN
	AnnotateIgnoreWritesEnd(__FILE__, __LINE__);
	AnnotateIgnoreReadsEnd(__FILE__, __LINE__);
#endif
}

/* ---------------------------------------------------------------------- */
/* Memcheck: stale bytes of the CPU copy (annotate.c)                     */
/* ---------------------------------------------------------------------- */

/*
 * Under Memcheck, a byte of the CPU copy (the linear map) is undefined
 * while it is stale: a device changed the byte in memory (MEM != TWIN),
 * the CPU has not written it (CPU == TWIN) and the CPU's copy has not been
 * refreshed since (fill, invalidate) nor had its stale read reported by
 * the cache model.  Uninstrumented driver code that uses such a byte then
 * gets Memcheck's "uninitialised value" error at its own line.
 *
 * The library reads the CPU copy itself (masks, write-backs): a line
 * operation on a span opens it (the V bits are saved and the span made
 * defined, so the library's compares and copies are clean), works, and
 * closes it, which sets the V bits from the copies as they are now.
 * dmaemu__on_memcheck is set by dmaemu__annotate_init(); every function
 * below is free when it is false, and empty without Valgrind's headers.
 */
#define DMAEMU__VG_SPAN 4096 /* the largest span opened at once */

struct dmaemu__vg_cpu {
	uint8_t *cpu;			/* the span's CPU copy */
	const uint8_t *mem, *twin;	/* and its MEM and TWIN */
	size_t len;			/* bytes, at most DMAEMU__VG_SPAN */
	bool undef;			/* some byte was undefined at open */
	uint8_t vbits[DMAEMU__VG_SPAN]; /* saved V bits (1 = undefined) */
};

extern bool dmaemu__on_memcheck __attribute__((visibility("hidden")));
void dmaemu__vg_cpu_open(struct dmaemu__vg_cpu *v, uint8_t *cpu,
			 const uint8_t *mem, const uint8_t *twin, size_t len);
/*
 * @fresh: the span's MEM was just written by a device: every byte with
 * CPU == TWIN becomes undefined where MEM != TWIN and defined elsewhere.
 * Otherwise (after a line operation) a byte keeps the V bits saved at
 * open while it is still device-changed or CPU-dirty, and is defined
 * once the copies agree (refreshed or written back).  CPU-dirty bytes
 * keep their V bits either way: they are the driver's own.
 */
void dmaemu__vg_cpu_close(struct dmaemu__vg_cpu *v, bool fresh);
/* The bytes at @cpu are no longer stale for Memcheck (a reported read). */
void dmaemu__vg_cpu_define(const void *cpu, size_t len);

#endif /* DMAEMU_LIB_BASE_H */
