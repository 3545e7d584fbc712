// SPDX-License-Identifier: MIT
/*
 * annotate.c - what Helgrind and DRD are told about the model's deliberate
 * races (see base.h).  Without Valgrind's headers every function here is
 * empty; under Valgrind, dmaemu__on_valgrind routes the racy-line calls
 * here.
 */
#include "config.h"

#ifdef HAVE_VALGRIND_VALGRIND_H
#include <valgrind/valgrind.h>
#include <valgrind/helgrind.h>
#include <valgrind/drd.h>
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

void dmaemu__vg_line_begin(const void *cpu_line, size_t len)
{
#ifdef HAVE_VALGRIND_VALGRIND_H
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

static void annotate_once(void)
{
#ifdef HAVE_VALGRIND_VALGRIND_H
	dmaemu__on_valgrind = RUNNING_ON_VALGRIND;
#endif
}

void dmaemu__annotate_init(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, annotate_once);
}
