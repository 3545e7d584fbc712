// SPDX-License-Identifier: MIT
/*
 * fuzz-dma.c - DMA API programs: bytes decoded into a sequence of calls.
 *
 * How it works.  The first byte chooses the machine (profile, backend,
 * prefetcher, map policy, cache size, dma_offset; see config()).  Then
 * each step is an opcode byte and its operands (a missing byte reads as
 * 0): allocations (kmalloc, pages, dma_alloc_attrs with any attribute
 * bits), frees (right, wrong and double), map/unmap/sync of singles and
 * pages with any offset, size, direction and device, device reads and
 * writes (dmaemu_dma_read/write) inside a mapping or anywhere, CPU reads
 * and writes through the explicit accessors or plain memcpy, and draining
 * the write-combining buffers, alone or with a write barrier.  The
 * program runs uninstrumented (ASan and the kernel-address instrumentation
 * cannot share a program), so plain memcpy is the CPU copy the model does
 * not see (docs/instrumentation.md).
 *
 * A shadow model keeps, for every byte of every buffer, the value the CPU
 * must read and the value the device must read, each only while the
 * semantics make it determinate:
 *
 *   CPU write              cpu := v            dev := ?  (in a cache line)
 *   map TO/BIDI            dev := cpu
 *   map FROM               cpu := ?, dev := ?
 *   device write (owned)   dev := v            cpu := ?
 *   sync_for_cpu FROM/BIDI cpu := dev          (unmap too)
 *   sync_for_device TO/BI  dev := cpu
 *   sync_for_device FROM   cpu := ?
 *   coherent (uncached)    one view: cpu = dev = v
 *   write-combining        pending until dmaemu_cpu_flush_wc() or a
 *                          write barrier
 *
 * With ordering=weak (the default) on arm and arm64, a CPU store to
 * coherent memory stays unordered until a write barrier (dma_wmb(),
 * wmb()) or a device write over it (docs/ordering.md): a device read that
 * is reported as missing-write-barrier may see the value from before it,
 * so the bytes of such stores are not compared in that read; a read with
 * no such report must see them.  On x86 the data is always right.  A
 * device write to DMA_ATTR_WEAK_ORDERING memory may be posted
 * (posted_writes=ordered, the default; docs/ordering.md, "Device
 * writes"): it lands within a few further DMA calls of its device, so
 * until the device is drained the CPU's view of those bytes is unknown,
 * and so is a CPU store over them (the landing may overwrite it); the
 * device reads its own writes.  Before freeing such memory the program
 * drains the device (dmaemu_dma_drain()), as a driver quiesces its
 * device before freeing what the device writes.  A map
 * with DMA_ATTR_SKIP_CPU_SYNC over lines that may be dirty leaves what
 * either side reads there to the cache (an eviction, or the clean of an
 * edge line at a sync, may write the CPU's line over the device's data).
 *
 * Anything outside the rules (an access by the side that does not own
 * the buffer, two live mappings of one buffer, a partial sync, wrong
 * arguments to unmap) makes the buffer's bytes unknown; what can reach
 * other buffers (a device write that is not inside one owned mapping and
 * succeeds, a free of a mapped buffer, a double free) turns the checks off
 * for the rest of the input ("chaos").  Every read of a known byte is
 * compared, and every misuse the program makes on purpose must give an
 * error return or a report.  A mismatch or a missing report aborts.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dmaemu/cpu.h>
#include <dmaemu/device.h>
#include <dmaemu/machine.h>
#include <dmaemu/report.h>
#include <dmaemu/testing.h>
#include <asm/barrier.h>
#include <linux/dma-mapping.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include "fuzz-input.h"

#define NSLOTS 8
#define NMAPS 8
#define NDEVS 2
#define MAX_KMALLOC 8192
#define MAX_COHERENT 16384
#define MAX_ACCESS 512
#define LINE 128 /* the largest line (dma_minalign of arm64) */

/* Shadow flags per byte. */
#define CK 0x1	  /* the CPU must read cv[] */
#define DK 0x2	  /* the device must read dv[] */
#define PEND 0x4  /* a write-combined store of cv[] not yet drained */
#define UNORD 0x8 /* a CPU store not yet ordered by a write barrier */
/* A device write to WEAK_ORDERING memory that may not have landed yet:
 * the CPU may see what was there before, and a CPU store there may be
 * overwritten when it lands. */
#define POSTED 0x10

enum slot_kind { S_NONE, S_KMALLOC, S_PAGES, S_COHERENT };

/* How the CPU sees a coherent allocation. */
enum coh_view {
	V_ONE,	  /* uncached or snooped: one view */
	V_WC,	  /* write-combining alias */
	V_NOMAP,  /* a cookie: no CPU access */
	V_UNSURE, /* non-consistent on a non-coherent profile: unchecked */
};

struct slot {
	enum slot_kind kind;
	uint8_t *cpu;
	size_t size;
	unsigned int order;    /* S_PAGES */
	dma_addr_t handle;     /* S_COHERENT */
	unsigned long attrs;   /* S_COHERENT */
	enum coh_view view;    /* S_COHERENT */
	int dev;	       /* S_COHERENT */
	int maps;	       /* live mappings of the buffer */
	uint8_t *cv, *dv, *fl; /* the shadow */
};

struct map {
	bool live;
	bool dev_owns;
	bool page; /* dma_map_page() */
	bool amb;  /* another mapping had the same bus address: which one an
		    * unmap or a sync finds is the registry's choice */
	int slot, dev, dir;
	size_t off, len;
	dma_addr_t dma;
	unsigned long attrs;
};

struct run {
	struct fuzz_input in;
	int profile; /* 0 arm64, 1 arm, 2 x86 */
	bool iommu;
	bool chaos;
	bool unordered_read; /* the device read was a missing-write-barrier */
	struct dmaemu_machine *m;
	struct dmaemu_device *d[NDEVS];
	struct slot s[NSLOTS];
	struct map mp[NMAPS];
	void *freed_kmalloc; /* last pointer given to kfree() */
	char opts[256];	     /* the machine's options, for messages */
	uint8_t buf[MAX_COHERENT];
};

/* FUZZ_DMA_TRACE=1 in the environment prints every step (to replay one). */

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	unsetenv("DMAEMU_OPTIONS");
	fuzz_tracing = getenv("FUZZ_DMA_TRACE") != NULL;
	return 0;
}

static void fail(struct run *r, const char *what, size_t i, unsigned int got,
		 unsigned int want)
{
	fprintf(stderr,
		"fuzz-dma: %s: %s: byte %zu is 0x%02x, expected 0x%02x\n",
		r->opts, what, i, got, want);
	abort();
}

/* ---------------------------------------------------------------------- */
/* Shadow                                                                 */
/* ---------------------------------------------------------------------- */

static void forget(struct slot *s, size_t off, size_t len, unsigned int bits)
{
	size_t i;

	for (i = off; i < off + len; i++)
		s->fl[i] &= (uint8_t)~bits;
}

static void taint(struct slot *s)
{
	forget(s, 0, s->size, CK | DK | PEND);
}

static bool dev_owned_map(struct run *r, int slot)
{
	int i;

	for (i = 0; i < NMAPS; i++)
		if (r->mp[i].live && r->mp[i].slot == slot && r->mp[i].dev_owns)
			return true;
	return false;
}

static bool slot_has_pending(const struct slot *s)
{
	size_t i;

	for (i = 0; i < s->size; i++)
		if (s->fl[i] & PEND)
			return true;
	return false;
}

static bool slot_has_posted(const struct slot *s)
{
	size_t i;

	for (i = 0; i < s->size; i++)
		if (s->fl[i] & POSTED)
			return true;
	return false;
}

static bool shadow_new(struct slot *s, size_t size)
{
	s->cv = calloc(1, size);
	s->dv = calloc(1, size);
	s->fl = calloc(1, size);
	s->size = size;
	return s->cv && s->dv && s->fl;
}

static void shadow_free(struct slot *s)
{
	free(s->cv);
	free(s->dv);
	free(s->fl);
	memset(s, 0, sizeof(*s));
}

/* The bytes @got read by @side ("cpu"/"device") at [@off, +@len). */
static void compare(struct run *r, struct slot *s, size_t off, size_t len,
		    const uint8_t *got, bool dev)
{
	size_t i;

	if (r->chaos)
		return;
	for (i = 0; i < len; i++) {
		uint8_t f = s->fl[off + i];

		if (dev && (f & UNORD) && r->unordered_read)
			continue; /* reported: may be the value before */
		if (dev && (f & DK) && got[i] != s->dv[off + i])
			fail(r, "device read", off + i, got[i], s->dv[off + i]);
		if (!dev && (f & CK) && got[i] != s->cv[off + i])
			fail(r, "cpu read", off + i, got[i], s->cv[off + i]);
	}
}

/* A misuse made on purpose: it must have failed or been reported. */
static void expect(struct run *r, uint64_t before, bool failed,
		   const char *what)
{
	if (failed || dmaemu_report_count(r->m, NULL) > before)
		return;
	fprintf(stderr, "fuzz-dma: %s: %s: neither an error nor a report\n",
		r->opts, what);
	abort();
}

/* ---------------------------------------------------------------------- */
/* The machine                                                            */
/* ---------------------------------------------------------------------- */

static void config(struct run *r, uint8_t c, char *o, size_t len)
{
	static const char *const profiles[] = {"arm64", "arm", "x86", "arm64"};
	static const char *const backends[] = {"", ":swiotlb=force", ":iommu=1",
					       ":iommu=1:iommu_strict=1"};

	r->profile = (c & 3) == 3 ? 0 : c & 3;
	r->iommu = ((c >> 2) & 3) >= 2;
	snprintf(o, len,
		 "profile=%s:mem=16M:swiotlb_size=256K:log_path=/dev/null"
		 ":report_repeats=0%s%s%s%s%s",
		 profiles[c & 3], backends[(c >> 2) & 3],
		 c & 0x10 ? ":prefetch=1:prefetch_rate=4" : "",
		 (c & 0x20) && r->profile == 0 ? ":map_policy=5.19" : "",
		 c & 0x40 ? ":cache_size=1K" : "",
		 c & 0x80 ? ":dma_offset=0x10000000" : "");
}

/* ---------------------------------------------------------------------- */
/* Steps                                                                  */
/* ---------------------------------------------------------------------- */

static struct device *dev_of(struct run *r, int i)
{
	return dmaemu_device_to_dev(r->d[i]);
}

static int free_slot(struct run *r)
{
	int i;

	for (i = 0; i < NSLOTS; i++)
		if (r->s[i].kind == S_NONE)
			return i;
	return -1;
}

static void op_kmalloc(struct run *r)
{
	static const gfp_t gfps[] = {GFP_KERNEL, GFP_ATOMIC, GFP_DMA,
				     GFP_KERNEL | __GFP_ZERO};
	size_t size = (size_t)(fuzz_get16(&r->in) % MAX_KMALLOC) + 1;
	unsigned int g = fuzz_get8(&r->in) & 3;
	int i = free_slot(r);
	struct slot *s;
	void *p;

	if (i < 0)
		return;
	s = &r->s[i];
	p = kmalloc(size, gfps[g]);
	if (!p)
		return;
	if (!shadow_new(s, size))
		abort();
	s->kind = S_KMALLOC;
	s->cpu = p;
	TRACE("slot %d = kmalloc(%zu, %u) = %p\n", i, size, g, p);
	if (g == 3) /* zeroed by CPU stores */
		memset(s->fl, CK, size);
}

static void op_pages(struct run *r)
{
	unsigned int order = fuzz_get8(&r->in) % 3;
	int i = free_slot(r);
	unsigned long a;

	if (i < 0)
		return;
	a = __get_free_pages(GFP_KERNEL, order);
	if (!a)
		return;
	if (!shadow_new(&r->s[i], PAGE_SIZE << order))
		abort();
	r->s[i].kind = S_PAGES;
	r->s[i].order = order;
	r->s[i].cpu = (uint8_t *)a;
	TRACE("slot %d = pages(order %u)\n", i, order);
}

static enum coh_view coh_view(struct run *r, unsigned long attrs)
{
	if (attrs & DMA_ATTR_NO_KERNEL_MAPPING)
		return V_NOMAP;
	if (r->profile == 2)
		return V_ONE; /* x86 ignores WC and NON_CONSISTENT */
	if (attrs & DMA_ATTR_WRITE_COMBINE)
		return V_WC;
	if (attrs & DMA_ATTR_NON_CONSISTENT)
		return V_UNSURE;
	return V_ONE;
}

static void op_coherent(struct run *r)
{
	size_t size = (size_t)(fuzz_get16(&r->in) % MAX_COHERENT) + 1;
	unsigned long attrs = fuzz_get16(&r->in) & 0x7ff; /* bit 10: unknown */
	int dev = fuzz_get8(&r->in) % NDEVS, i = free_slot(r);
	uint64_t before = dmaemu_report_count(r->m, NULL);
	struct slot *s;
	dma_addr_t h = 0;
	void *p;

	if (i < 0)
		return;
	s = &r->s[i];
	p = dma_alloc_attrs(dev_of(r, dev), size, &h, GFP_KERNEL, attrs);
	if (attrs & (1UL << 10)) {
		expect(r, before, !p, "dma_alloc_attrs(unknown attribute)");
		if (p)
			abort(); /* documented: NULL */
	}
	if (!p)
		return;
	if (!shadow_new(s, size))
		abort();
	s->kind = S_COHERENT;
	s->cpu = p;
	s->handle = h;
	s->attrs = attrs;
	s->dev = dev;
	s->view = coh_view(r, attrs);
	TRACE("slot %d = dma_alloc_attrs(dev%d, %zu, attrs 0x%lx)\n", i, dev,
	      size, attrs);
	/* Always zeroed, in DRAM or by the CPU and cleaned. */
	if (s->view != V_UNSURE)
		memset(s->fl, s->view == V_NOMAP ? DK : CK | DK, size);
}

static void op_free(struct run *r)
{
	unsigned int i = fuzz_get8(&r->in) % NSLOTS,
		     how = fuzz_get8(&r->in) & 7;
	struct slot *s = &r->s[i];
	uint64_t before = dmaemu_report_count(r->m, NULL);

	TRACE("free slot %u (how %u)\n", i, how);
	if (s->kind == S_NONE) {
		/* A double kfree(): it may free someone else's buffer. */
		if (how == 7 && r->freed_kmalloc) {
			r->chaos = true;
			kfree(r->freed_kmalloc);
			r->freed_kmalloc = NULL;
		}
		return;
	}
	if (s->maps) {
		int j;

		r->chaos = true; /* freed while mapped */
		for (j = 0; j < NMAPS; j++)
			if (r->mp[j].slot == (int)i)
				r->mp[j].slot = -1;
	}
	switch (s->kind) {
	case S_KMALLOC:
		kfree(s->cpu);
		r->freed_kmalloc = s->cpu;
		break;
	case S_PAGES:
		if (how == 6 && s->order) {
			/* Wrong order: reported, freed with the right one. */
			free_pages((unsigned long)s->cpu, s->order - 1);
			expect(r, before, false, "free_pages(wrong order)");
		} else {
			free_pages((unsigned long)s->cpu, s->order);
		}
		break;
	case S_COHERENT:
		if (slot_has_posted(s)) {
			/* The driver quiesces the device first: its posted
			 * writes land (in every buffer of the device). */
			int j;

			if (dmaemu_dma_drain(r->d[s->dev]) < 0)
				abort();
			for (j = 0; j < NSLOTS; j++)
				if (r->s[j].kind == S_COHERENT &&
				    r->s[j].dev == s->dev)
					forget(&r->s[j], 0, r->s[j].size,
					       POSTED);
		}
		if (how == 6) {
			/* DMA_ATTR_NO_KERNEL_MAPPING missing or extra (the
			 * one attribute 4.14 needs repeated): nothing is
			 * freed. */
			dma_free_attrs(dev_of(r, s->dev), s->size, s->cpu,
				       s->handle,
				       s->attrs ^ DMA_ATTR_NO_KERNEL_MAPPING);
			expect(r, before, false, "dma_free_attrs(attrs)");
			before = dmaemu_report_count(r->m, NULL);
		} else if (how == 5 && s->size > 1) {
			dma_free_attrs(dev_of(r, s->dev), s->size - 1, s->cpu,
				       s->handle, s->attrs);
			expect(r, before, false, "dma_free_attrs(size)");
			before = dmaemu_report_count(r->m, NULL);
		}
		dma_free_attrs(dev_of(r, s->dev), s->size, s->cpu, s->handle,
			       s->attrs);
		if (how == 4) {
			before = dmaemu_report_count(r->m, NULL);
			dma_free_attrs(dev_of(r, s->dev), s->size, s->cpu,
				       s->handle, s->attrs);
			expect(r, before, false, "double dma_free_attrs()");
		}
		break;
	default:
		break;
	}
	shadow_free(s);
}

static int free_map(struct run *r)
{
	int i;

	for (i = 0; i < NMAPS; i++)
		if (!r->mp[i].live)
			return i;
	return -1;
}

/* The rules at a map, a sync or an unmap of the whole of @mp. */
static void to_device(struct slot *s, const struct map *mp)
{
	size_t i;

	for (i = mp->off; i < mp->off + mp->len; i++) {
		s->dv[i] = s->cv[i];
		s->fl[i] =
			(uint8_t)((s->fl[i] & ~DK) | (s->fl[i] & CK ? DK : 0));
	}
}

static void to_cpu(struct slot *s, const struct map *mp)
{
	size_t i;

	for (i = mp->off; i < mp->off + mp->len; i++) {
		s->cv[i] = s->dv[i];
		s->fl[i] =
			(uint8_t)((s->fl[i] & ~CK) | (s->fl[i] & DK ? CK : 0));
	}
}

/* May the cache lines of [@off, +@len) hold CPU stores memory does not
 * have?  Only where every byte is known alike to both sides (the last
 * owner's clean: a map or sync for the device) are they clean: a byte the
 * CPU wrote since, or one of a new allocation (whose lines may hold the
 * stores of the memory's previous user), may be dirty. */
static bool cpu_dirty(const struct slot *s, size_t off, size_t len)
{
	size_t i = off & ~(size_t)(LINE - 1), end = off + len;

	end = (end + LINE - 1) & ~(size_t)(LINE - 1);
	if (end > s->size)
		end = s->size;
	for (; i < end; i++)
		if ((s->fl[i] & (CK | DK)) != (CK | DK))
			return true;
	return false;
}

static void op_map(struct run *r, bool page)
{
	unsigned int si = fuzz_get8(&r->in) % NSLOTS,
		     dev = fuzz_get8(&r->in) % NDEVS;
	unsigned int dir = fuzz_get8(&r->in) & 3, fl = fuzz_get8(&r->in);
	size_t off = fuzz_get16(&r->in), len = (size_t)fuzz_get16(&r->in) + 1;
	unsigned long attrs = fl & 1 ? DMA_ATTR_SKIP_CPU_SYNC : 0;
	struct slot *s = &r->s[si];
	uint64_t before = dmaemu_report_count(r->m, NULL);
	int i, mi = free_map(r);
	struct map *mp;
	dma_addr_t dma;
	bool bad;

	if (mi < 0 || s->kind == S_NONE)
		return;
	if (s->kind == S_COHERENT && !(fl & 0x80))
		return;	    /* mapping coherent memory: only now and then */
	if (!(fl & 0x40)) { /* inside the buffer */
		off %= s->size;
		len = (len - 1) % (s->size - off) + 1;
	}
	bad = off + len > s->size || dir == DMA_NONE || s->kind == S_COHERENT;
	if (page)
		dma = dma_map_page_attrs(dev_of(r, dev),
					 virt_to_page(s->cpu + off),
					 offset_in_page(s->cpu + off), len,
					 (enum dma_data_direction)dir, attrs);
	else
		dma = dma_map_single_attrs(dev_of(r, dev), s->cpu + off, len,
					   (enum dma_data_direction)dir, attrs);
	TRACE("map%s slot %u [%zu, +%zu) dev%u dir %u attrs 0x%lx: %s\n",
	      page ? "_page" : "", si, off, len, dev, dir, attrs,
	      dma_mapping_error(dev_of(r, dev), dma) ? "error" : "ok");
	if (dma_mapping_error(dev_of(r, dev), dma)) {
		if (dir == DMA_NONE || s->kind == S_COHERENT)
			expect(r, before, true, "map");
		return;
	}
	if (dir == DMA_NONE)
		expect(r, before, false, "map(DMA_NONE)");
	if (bad) {
		/* Past the end, or not linear memory: anything goes now. */
		r->chaos = true;
	}
	mp = &r->mp[mi];
	*mp = (struct map){.live = true,
			   .dev_owns = true,
			   .page = page,
			   .slot = (int)si,
			   .dev = (int)dev,
			   .dir = (int)dir,
			   .off = off,
			   .len = len,
			   .dma = dma,
			   .attrs = attrs};
	if (bad) {
		mp->off = 0;
		mp->len = 0;
	}
	for (i = 0; i < NMAPS; i++) {
		if (i != mi && r->mp[i].live && r->mp[i].dev == mp->dev &&
		    r->mp[i].dma == dma) {
			r->mp[i].amb = true;
			mp->amb = true;
		}
	}
	if (++s->maps > 1 || slot_has_pending(s)) {
		taint(s);
		return;
	}
	if (bad)
		return;
	if (attrs && cpu_dirty(s, off, len)) {
		/* SKIP_CPU_SYNC over lines that may be dirty: an eviction
		 * or the edge lines' clean at a sync may write them back
		 * over the device's data (docs/dma-api.md), so what either
		 * side reads there is the cache's choice. */
		mp->amb = true;
		taint(s);
		return;
	}
	if (attrs || dir == DMA_FROM_DEVICE)
		forget(s, off, len, CK | DK);
	else
		to_device(s, mp);
}

static bool shared_dma(struct run *r, unsigned int mi)
{
	return r->mp[mi].amb;
}

/* The buffer of @mp, or NULL once it was freed under the mapping. */
static struct slot *slot_of(struct run *r, const struct map *mp)
{
	return mp->slot >= 0 ? &r->s[mp->slot] : NULL;
}

static void op_unmap(struct run *r)
{
	unsigned int mi = fuzz_get8(&r->in) % NMAPS,
		     how = fuzz_get8(&r->in) & 15;
	struct map *mp = &r->mp[mi];
	struct slot *s = slot_of(r, mp);
	struct dmaemu_mapping_info info;
	uint64_t before = dmaemu_report_count(r->m, NULL);
	struct device *dev;
	size_t len;
	int dir;

	if (!mp->live)
		return;
	TRACE("unmap map %u (how %u)\n", mi, how);
	if (mp->amb)
		r->chaos = true; /* which mapping goes is the registry's pick */
	dev = dev_of(r, mp->dev);
	len = mp->len ? mp->len : 1;
	dir = mp->dir;
	if (how == 15)
		dir = dir == DMA_TO_DEVICE ? DMA_FROM_DEVICE : DMA_TO_DEVICE;
	if (how == 14)
		len++;
	if (!mp->len) {
		/* A map that went wrong on purpose: size unknown here. */
		r->chaos = true;
	}
	if (mp->page)
		dma_unmap_page_attrs(dev, mp->dma, len,
				     (enum dma_data_direction)dir, mp->attrs);
	else
		dma_unmap_single_attrs(dev, mp->dma, len,
				       (enum dma_data_direction)dir, mp->attrs);
	if (how >= 14 && mp->len) {
		/* Another mapping at the same address may be the one taken. */
		if (!shared_dma(r, mi))
			expect(r, before, false,
			       "unmap(wrong size or direction)");
		if (s)
			taint(s);
		if (dmaemu_device_mapping_find(r->d[mp->dev], mp->dma, 1,
					       &info) == 0 &&
		    info.dma == mp->dma)
			return; /* still live: unmap it later */
	} else if (s && s->maps == 1 && mp->dev_owns && mp->len) {
		if (mp->attrs)
			forget(s, mp->off, mp->len, CK);
		else if (mp->dir != DMA_TO_DEVICE)
			to_cpu(s, mp);
	} else if (s && s->maps == 1 && mp->len && mp->dir != DMA_TO_DEVICE) {
		/* Owned by the CPU: the unmap's invalidate drops its stores. */
		forget(s, mp->off, mp->len, CK);
	} else if (s && s->maps > 1) {
		taint(s);
	}
	if (s) {
		forget(s, 0, s->size, DK); /* no device view any more */
		s->maps--;
	}
	mp->live = false;
}

static void op_sync(struct run *r, bool for_cpu)
{
	unsigned int mi = fuzz_get8(&r->in) % NMAPS, how = fuzz_get8(&r->in);
	struct map *mp = &r->mp[mi];
	struct slot *s = slot_of(r, mp);
	uint64_t before = dmaemu_report_count(r->m, NULL);
	size_t off = 0, len = mp->len;
	struct device *dev;
	int dir;

	if (!mp->live || !mp->len)
		return;
	dev = dev_of(r, mp->dev);
	dir = mp->dir;
	if ((how & 15) == 15)
		dir = dir == DMA_TO_DEVICE ? DMA_FROM_DEVICE : DMA_TO_DEVICE;
	if ((how & 15) == 14) { /* a part of the mapping */
		off = (how >> 4) % len;
		len -= off;
		if (len > 1)
			len--;
	}
	if ((how & 15) == 13)
		len++; /* past the end */
	TRACE("sync_for_%s map %u [%zu, +%zu) dir %d\n",
	      for_cpu ? "cpu" : "device", mi, off, len, dir);
	if (for_cpu)
		dma_sync_single_range_for_cpu(dev, mp->dma, off, len,
					      (enum dma_data_direction)dir);
	else
		dma_sync_single_range_for_device(dev, mp->dma, off, len,
						 (enum dma_data_direction)dir);
	if (!s)
		return;
	if (((how & 15) == 15 && mp->dir != DMA_BIDIRECTIONAL) ||
	    (how & 15) == 13) {
		if (!shared_dma(r, mi)) /* else another may be the one found */
			expect(r, before, false,
			       "sync(wrong direction or size)");
		taint(s);
		return;
	}
	if ((how & 15) == 15) { /* either direction is a BIDIRECTIONAL's */
		taint(s);
		return;
	}
	if (mp->amb)
		r->chaos = true;
	if ((how & 15) == 14 || s->maps > 1 || mp->amb) {
		taint(s);
		return;
	}
	if (for_cpu) {
		if (mp->dev_owns && mp->dir != DMA_TO_DEVICE)
			to_cpu(s, mp);
		else if (!mp->dev_owns)
			forget(s, mp->off, mp->len, CK); /* re-invalidated */
		mp->dev_owns = false;
	} else {
		if (mp->dir != DMA_FROM_DEVICE)
			to_device(s, mp);
		else
			forget(s, mp->off, mp->len, CK);
		mp->dev_owns = true;
	}
}

/*
 * Where a device access goes: inside a live mapping of its device, inside
 * a coherent buffer of its device, or (now and then) anywhere.
 */
static void op_dev(struct run *r, bool write)
{
	unsigned int dev = fuzz_get8(&r->in) % NDEVS, t = fuzz_get8(&r->in),
		     pat = fuzz_get8(&r->in);
	size_t off = fuzz_get16(&r->in),
	       len = (size_t)(fuzz_get16(&r->in) % MAX_ACCESS) + 1, i;
	struct slot *s = NULL;
	struct map *mp = NULL;
	dma_addr_t addr;
	size_t soff = 0;
	uint64_t mwb = dmaemu_report_count(r->m, "missing-write-barrier");
	int rc;

	if (t & 0x80) { /* wild: a bus address near one of ours, or not */
		addr = (dma_addr_t)off << (t & 0x1f);
		if (t & 0x40 && r->mp[t & 7].live)
			addr = r->mp[t & 7].dma + r->mp[t & 7].len - 1;
	} else if (t & 0x40) {
		s = &r->s[t % NSLOTS];
		if (s->kind != S_COHERENT || (int)dev != s->dev)
			return;
		off %= s->size;
		len = (len - 1) % (s->size - off) + 1;
		addr = s->handle + off;
		soff = off;
	} else {
		mp = &r->mp[t % NMAPS];
		if (!mp->live || !mp->len || (int)dev != mp->dev)
			return;
		s = slot_of(r, mp);
		off %= mp->len;
		len = (len - 1) % (mp->len - off) + 1;
		addr = mp->dma + off;
		soff = mp->off + off;
		if (!s)
			s = NULL;
	}
	for (i = 0; i < len; i++)
		r->buf[i] = (uint8_t)(pat + i * 7);
	if (write)
		rc = dmaemu_dma_write(r->d[dev], addr, r->buf, len);
	else
		rc = dmaemu_dma_read(r->d[dev], addr, r->buf, len);
	TRACE("dev%u %s 0x%llx +%zu (slot off %zu): %d\n", dev,
	      write ? "write" : "read", (unsigned long long)addr, len, soff,
	      rc);
	if (rc != 0 && rc != -EFAULT)
		abort();
	r->unordered_read =
		dmaemu_report_count(r->m, "missing-write-barrier") > mwb;
	if (rc)
		return;
	if (!s) {
		if (write)
			r->chaos = true;
		return;
	}
	if (!write) {
		if (!mp || (mp->dev_owns && !mp->amb))
			compare(r, s, soff, len, r->buf, true);
		return;
	}
	if (mp && (!mp->dev_owns || s->maps > 1 || mp->amb)) {
		taint(s);
		return;
	}
	if (!mp && slot_has_pending(s)) {
		taint(s);
		return;
	}
	if (s->kind == S_COHERENT && s->view == V_UNSURE)
		return;
	for (i = 0; i < len; i++) {
		s->dv[soff + i] = r->buf[i];
		s->fl[soff + i] &=
			(uint8_t)~UNORD; /* the store is overwritten */
		if (s->kind == S_COHERENT &&
		    (s->attrs & DMA_ATTR_WEAK_ORDERING)) {
			/* Posted: the device reads it, the CPU may not yet. */
			s->fl[soff + i] = (uint8_t)((s->fl[soff + i] & ~CK) |
						    DK | POSTED);
		} else if (s->kind == S_COHERENT) { /* one view */
			s->cv[soff + i] = r->buf[i];
			if (s->view != V_NOMAP)
				s->fl[soff + i] |= CK;
			s->fl[soff + i] |= DK;
		} else {
			s->fl[soff + i] =
				(uint8_t)((s->fl[soff + i] & ~CK) | DK);
		}
	}
}

static void op_cpu(struct run *r, bool write)
{
	unsigned int si = fuzz_get8(&r->in) % NSLOTS, how = fuzz_get8(&r->in),
		     pat = fuzz_get8(&r->in);
	size_t off = fuzz_get16(&r->in),
	       len = (size_t)(fuzz_get16(&r->in) % MAX_ACCESS) + 1, i;
	struct slot *s = &r->s[si];
	uint64_t before = dmaemu_report_count(r->m, NULL);
	bool plain = how & 1;
	int rc = 0;

	if (s->kind == S_NONE)
		return;
	off %= s->size;
	len = (len - 1) % (s->size - off) + 1;
	TRACE("cpu %s%s slot %u [%zu, +%zu)\n", plain ? "plain " : "",
	      write ? "write" : "read", si, off, len);
	if (s->kind == S_COHERENT && s->view == V_NOMAP) {
		/* Any access is reported; a plain one would fault. */
		if (write)
			rc = dmaemu_cpu_write(s->cpu + off, r->buf, len);
		else
			rc = dmaemu_cpu_read(r->buf, s->cpu + off, len);
		if (rc != -EFAULT)
			abort();
		expect(r, before, true, "access to a NO_KERNEL_MAPPING cookie");
		return;
	}
	if (!write) {
		if (plain)
			memcpy(r->buf, s->cpu + off, len);
		else if (dmaemu_cpu_read(r->buf, s->cpu + off, len))
			abort();
		if (!dev_owned_map(r, (int)si) && s->maps <= 1)
			compare(r, s, off, len, r->buf, false);
		return;
	}
	for (i = 0; i < len; i++)
		r->buf[i] = (uint8_t)(pat + i * 13);
	if (plain)
		memcpy(s->cpu + off, r->buf, len);
	else if (dmaemu_cpu_write(s->cpu + off, r->buf, len))
		abort();
	if (dev_owned_map(r, (int)si) || s->maps > 1) {
		taint(s);
		return;
	}
	if (s->kind == S_COHERENT && s->view == V_UNSURE)
		return;
	if (s->kind == S_COHERENT && s->view == V_WC && plain) {
		taint(s); /* behind the write-combining model's back */
		return;
	}
	for (i = 0; i < len; i++) {
		uint8_t *f = &s->fl[off + i];

		s->cv[off + i] = r->buf[i];
		s->dv[off + i] = r->buf[i];
		if (s->kind == S_COHERENT && r->profile != 2 && !plain)
			*f |= UNORD; /* until a write barrier */
		if (s->kind != S_COHERENT)
			*f = (uint8_t)((*f & ~DK) | CK);
		else if (s->view == V_WC)
			*f = (uint8_t)((*f & ~(CK | DK)) | PEND);
		else if (plain && r->profile == 2)
			*f = (uint8_t)((*f & ~DK) | CK); /* unseen store */
		else
			*f |= CK | DK;
		if (*f & POSTED) /* a posted device write may land over it */
			*f &= (uint8_t) ~(CK | DK);
	}
}

/* Drain the write-combining buffers, alone or with a write barrier
 * (dma_wmb(), wmb()), which also orders every store made so far. */
static void op_barrier(struct run *r)
{
	unsigned int k = fuzz_get8(&r->in) % 3;
	int i;
	size_t j;

	TRACE("%s\n", k == 0 ? "flush_wc" : k == 1 ? "dma_wmb" : "wmb");
	if (k == 0)
		dmaemu_cpu_flush_wc();
	else if (k == 1)
		dma_wmb();
	else
		wmb();
	for (i = 0; i < NSLOTS; i++) {
		struct slot *s = &r->s[i];

		if (s->kind != S_COHERENT)
			continue;
		for (j = 0; j < s->size; j++) {
			if (k)
				s->fl[j] &= (uint8_t)~UNORD;
			if (s->view == V_WC && (s->fl[j] & PEND))
				s->fl[j] =
					(uint8_t)((s->fl[j] & UNORD) | CK | DK);
		}
	}
}

/* ---------------------------------------------------------------------- */
/* The program                                                            */
/* ---------------------------------------------------------------------- */

static void teardown(struct run *r)
{
	int i;

	for (i = 0; i < NSLOTS; i++) {
		struct slot *s = &r->s[i];

		if (s->kind == S_KMALLOC && !r->chaos)
			kfree(s->cpu);
		else if (s->kind == S_PAGES && !r->chaos)
			free_pages((unsigned long)s->cpu, s->order);
		else if (s->kind == S_COHERENT)
			dma_free_attrs(dev_of(r, s->dev), s->size, s->cpu,
				       s->handle, s->attrs);
		shadow_free(s);
	}
	/* Live mappings are reported and released here. */
	for (i = 0; i < NDEVS; i++)
		dmaemu_device_destroy(r->d[i]);
	dmaemu_machine_destroy(r->m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct run run;
	struct run *r = &run;
	char name[8];
	int i, steps = 0;

	if (size < 1 || size > 4096)
		return -1;
	memset(r, 0, sizeof(*r));
	r->in.p = data + 1;
	r->in.n = size - 1;
	config(r, data[0], r->opts, sizeof(r->opts));
	r->m = dmaemu_machine_create(r->opts);
	if (!r->m)
		abort();
	for (i = 0; i < NDEVS; i++) {
		snprintf(name, sizeof(name), "dev%d", i);
		r->d[i] = dmaemu_device_create(r->m, name, NULL, NULL);
		if (!r->d[i])
			abort();
	}
	if (dma_set_mask_and_coherent(dev_of(r, 1), DMA_BIT_MASK(64)))
		abort();
	while (r->in.n && steps++ < 256) {
		switch (fuzz_get8(&r->in) % 14) {
		case 0:
			op_kmalloc(r);
			break;
		case 1:
			op_pages(r);
			break;
		case 2:
			op_coherent(r);
			break;
		case 3:
			op_free(r);
			break;
		case 4:
			op_map(r, false);
			break;
		case 5:
			op_map(r, true);
			break;
		case 6:
			op_unmap(r);
			break;
		case 7:
			op_sync(r, true);
			break;
		case 8:
			op_sync(r, false);
			break;
		case 9:
			op_dev(r, true);
			break;
		case 10:
			op_dev(r, false);
			break;
		case 11:
			op_cpu(r, true);
			break;
		case 12:
			op_cpu(r, false);
			break;
		default:
			op_barrier(r);
			break;
		}
	}
	teardown(r);
	return 0;
}
