/* SPDX-License-Identifier: MIT */
/*
 * <dmaemu/seeing.h> - pictures and summaries of a machine for people:
 * cache-line maps of a buffer (a terminal picture and an SVG file), a
 * dump of the machine's state, and statistics (docs/seeing.md).
 *
 * Everything here reads state the model keeps anyway (the same snapshots
 * as <dmaemu/testing.h>) and changes nothing.  A NULL machine or stream,
 * or a range that is not DRAM of the machine, is a bad-argument report
 * and a negative errno; no call crashes on bad input.
 */
#ifndef DMAEMU_SEEING_H
#define DMAEMU_SEEING_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

struct dmaemu_machine;
struct dmaemu_device;

/* ---------------------------------------------------------------------- */
/* Cache-line maps                                                        */
/* ---------------------------------------------------------------------- */

/* Colour of a terminal picture (dmaemu_line_map_print()). */
enum dmaemu_colour {
	/* ANSI colour when the stream is a terminal, NO_COLOR is not set
	 * and TERM is not "dumb"; plain characters otherwise. */
	DMAEMU_COLOUR_AUTO = 0,
	DMAEMU_COLOUR_NEVER,
	DMAEMU_COLOUR_ALWAYS,
};

/**
 * dmaemu_line_map_print() - draw the cache lines of DRAM range [@phys,
 * @phys + @len) of @m on @f, one row a line:
 *
 *     line        owner  $   bytes of the line: . same  c CPU-dirty ...
 *     0x080001000 device R   ....ccccdddd!!!!wwww
 *
 * owner is "cpu" or "device"; $ is "-" (not cached), "R" (resident) or
 * "R+D" (resident, dirty in the model); then one character a byte: '.'
 * the CPU's copy and memory agree, 'c' CPU-dirty (the CPU's copy is newer
 * than memory), 'd' device-changed (memory is newer than the CPU's copy),
 * '!' both, 'w' waiting in a write-combining buffer (shown over the
 * others), ' ' outside the range.  Every row starts with four spaces.
 * @m:      the machine.
 * @phys:   physical address of DRAM.
 * @len:    bytes (at least 1).
 * @f:      the stream.
 * @colour: enum dmaemu_colour.
 *
 * Cost: one dmaemu_line_state() and one look at the write-combining
 * buffers a line.
 *
 * Return: the number of lines drawn; -EINVAL (bad-argument report) for a
 * NULL @m or @f, a zero @len or an unknown @colour; -EFAULT (bad-argument
 * report) when the range is not inside one bank of DRAM of @m.
 */
int dmaemu_line_map_print(struct dmaemu_machine *m, uint64_t phys, size_t len,
			  FILE *f, int colour);

/**
 * dmaemu_line_map_svg() - the same picture as dmaemu_line_map_print(), as
 * a stand-alone SVG document written to @f: a row of cells a line, one
 * cell a byte of the range coloured by its state (the same letters name
 * the colours in the legend), the line's address, owner and residency on
 * its left, a tooltip (<title>) per row with the counts of each state.
 * @m:     the machine.
 * @phys:  physical address of DRAM.
 * @len:   bytes (at least 1).
 * @title: heading of the picture (NULL: none); XML-escaped.
 * @f:     the stream.
 *
 * Return: as dmaemu_line_map_print(); -EIO when writing @f failed.
 */
int dmaemu_line_map_svg(struct dmaemu_machine *m, uint64_t phys, size_t len,
			const char *title, FILE *f);

/* ---------------------------------------------------------------------- */
/* The machine's state                                                    */
/* ---------------------------------------------------------------------- */

/**
 * dmaemu_machine_dump() - write the state of @m to @f for debugging:
 * options that shape it, DRAM banks and the page allocator's zones (free
 * pages), the slab caches, every device with its live streaming mappings
 * (bus and physical address, size, direction, backend, owner of the
 * first line, where the mapping was made) and coherent allocations, its
 * IOMMU domain (mapped pages, ranges), the swiotlb pool (slots in use)
 * and the bytes waiting in write-combining buffers.
 * @m: the machine.
 * @f: the stream.
 *
 * The format is for people and may change; each section starts with a
 * line of its own ("devices:", "swiotlb:", ...).  Each part is a snapshot
 * under its own lock, so a machine whose devices are running may show
 * the parts at slightly different moments.
 *
 * Return: 0; -EINVAL (bad-argument report) for a NULL argument; -EIO when
 * writing @f failed.
 */
int dmaemu_machine_dump(struct dmaemu_machine *m, FILE *f);

#ifdef __cplusplus
}
#endif

#endif
