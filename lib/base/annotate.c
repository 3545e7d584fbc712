// SPDX-License-Identifier: MIT
/*
 * annotate.c - what Valgrind's tools are told (see base.h): Helgrind and
 * DRD, about the model's deliberate races; Memcheck, about the bytes of
 * the CPU copy that are stale.  Without Valgrind's headers every function
 * here is empty; under Valgrind, dmaemu__on_valgrind routes the racy-line
 * calls here, and under Memcheck dmaemu__on_memcheck the marking.
 */
#include "config.h"

#ifdef HAVE_VALGRIND_VALGRIND_H
#include <valgrind/valgrind.h>
#include <valgrind/helgrind.h>
#include <valgrind/drd.h>
#endif
#ifdef HAVE_VALGRIND_MEMCHECK_H
#include <valgrind/memcheck.h>
#endif

#include "base/base.h"

void dmaemu__vg_atomic(void *addr, size_t size)
{
#ifdef HAVE_VALGRIND_VALGRIND_H
	if (!RUNNING_ON_VALGRIND)
		return;
	VALGRIND_HG_DISABLE_CHECKING(addr, size);
	ANNOTATE_BENIGN_RACE_SIZED(addr, size, "accessed with atomics only");
#else
	(void)addr;
	(void)size;
#endif
}

bool dmaemu__on_valgrind;

/*
 * DRD answers its own thread-id request; it also honours Helgrind's
 * "disable checking" (as a suppression of the range, for good), which
 * would hide the driver threads' own races on DMA memory from it.
 */
#ifdef HAVE_VALGRIND_VALGRIND_H
static bool on_drd;
#endif

void dmaemu__vg_line_begin(const void *cpu_line, size_t len)
{
#ifdef HAVE_VALGRIND_VALGRIND_H
	if (!on_drd)
		VALGRIND_HG_DISABLE_CHECKING(cpu_line, len);
	VALGRIND_DO_CLIENT_REQUEST_STMT(VG_USERREQ__DRD_RECORD_LOADS, 0, 0, 0,
					0, 0);
	VALGRIND_DO_CLIENT_REQUEST_STMT(VG_USERREQ__DRD_RECORD_STORES, 0, 0, 0,
					0, 0);
#else
	(void)cpu_line;
	(void)len;
#endif
}

void dmaemu__vg_line_end(const void *cpu_line, size_t len)
{
#ifdef HAVE_VALGRIND_VALGRIND_H
	VALGRIND_DO_CLIENT_REQUEST_STMT(VG_USERREQ__DRD_RECORD_STORES, 1, 0, 0,
					0, 0);
	VALGRIND_DO_CLIENT_REQUEST_STMT(VG_USERREQ__DRD_RECORD_LOADS, 1, 0, 0,
					0, 0);
	/*
	 * Helgrind keeps the line unchecked from now on: its "enable
	 * checking" marks the range as new memory just written by the
	 * calling thread, so the next store of another driver thread would
	 * be blamed on this window.  DRD, which ignores this thread's
	 * accesses only, goes on checking the line.
	 */
	(void)cpu_line;
	(void)len;
#else
	(void)cpu_line;
	(void)len;
#endif
}

bool dmaemu__on_memcheck;

void dmaemu__vg_cpu_open(struct dmaemu__vg_cpu *v, uint8_t *cpu,
			 const uint8_t *mem, const uint8_t *twin, size_t len)
{
	size_t i;

	if (len > DMAEMU__VG_SPAN)
		abort(); /* callers open a line or a page */
	v->cpu = cpu;
	v->mem = mem;
	v->twin = twin;
	v->len = len;
	v->undef = false;
#ifdef HAVE_VALGRIND_MEMCHECK_H
	/* 1 is Memcheck's "done"; anything else leaves the span alone. */
	if (VALGRIND_GET_VBITS(cpu, v->vbits, len) != 1) {
		v->len = 0;
		return;
	}
	for (i = 0; i < len && !v->undef; i++)
		v->undef = v->vbits[i] != 0;
	if (v->undef)
		VALGRIND_MAKE_MEM_DEFINED(cpu, len);
#else
	(void)i;
	v->len = 0;
#endif
}

#ifdef HAVE_VALGRIND_MEMCHECK_H
/*
 * The bytes a device write made stale (bit i of @made) are marked once
 * more with VALGRIND_MAKE_MEM_UNDEFINED, which (unlike setting V bits)
 * records this stack as their origin: with --track-origins=yes, Memcheck's
 * error names the device write that made the byte stale.
 */
static void mark_origin(uint8_t *cpu, const uint64_t *made, size_t len)
{
	size_t i = 0, start;

	while (i < len) {
		if (!((made[i / 64] >> (i % 64)) & 1)) {
			i++;
			continue;
		}
		start = i;
		while (i < len && ((made[i / 64] >> (i % 64)) & 1))
			i++;
		VALGRIND_MAKE_MEM_UNDEFINED(cpu + start, i - start);
	}
}
#endif

void dmaemu__vg_cpu_close(struct dmaemu__vg_cpu *v, bool fresh)
{
	uint64_t made[DMAEMU__VG_SPAN / 64] = {0};
	bool any = false;
	size_t i;

	if (!v->len || (!fresh && !v->undef))
		return; /* nothing was undefined, and nothing becomes so */
	for (i = 0; i < v->len; i++) {
		uint8_t c = v->cpu[i], t = v->twin[i], m = v->mem[i];

		if (fresh && c == t) {
			v->vbits[i] = m != t ? 0xff : 0;
			if (m != t)
				made[i / 64] |= 1ULL << (i % 64);
		} else if (m == t && c == t) {
			v->vbits[i] = 0;
		}
		any |= v->vbits[i] != 0;
	}
#ifdef HAVE_VALGRIND_MEMCHECK_H
	if (any || v->undef)
		(void)VALGRIND_SET_VBITS(v->cpu, v->vbits, v->len);
	if (fresh && any)
		mark_origin(v->cpu, made, v->len);
#else
	(void)any;
	(void)made;
#endif
}

void dmaemu__vg_cpu_define(const void *cpu, size_t len)
{
#ifdef HAVE_VALGRIND_MEMCHECK_H
	VALGRIND_MAKE_MEM_DEFINED(cpu, len);
#else
	(void)cpu;
	(void)len;
#endif
}

static void annotate_once(void)
{
#ifdef HAVE_VALGRIND_VALGRIND_H
	dmaemu__on_valgrind = RUNNING_ON_VALGRIND;
	on_drd = dmaemu__on_valgrind && DRD_GET_VALGRIND_THREADID != 0;
#endif
#ifdef HAVE_VALGRIND_MEMCHECK_H
	{
		/* Only Memcheck answers its own client requests. */
		uint8_t probe = 0, vbits;

		dmaemu__on_memcheck =
			dmaemu__on_valgrind &&
			VALGRIND_GET_VBITS(&probe, &vbits, 1) == 1;
	}
#endif
}

void dmaemu__annotate_init(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, annotate_once);
}
