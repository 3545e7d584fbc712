/* SPDX-License-Identifier: MIT */
/*
 * trace.h - reading and writing memory-access traces (the cachesim command).
 *
 * A trace is a sequence of records: an access (read, write, instruction
 * fetch) or a cache-maintenance operation (clean, invalidate, flush) on an
 * address range.  Three input formats are understood, two can be written:
 *
 * din (text, read and written): Dinero IV's "label address [size]", one
 * record per line.  The label is one digit (enum trace_kind), the address is
 * hexadecimal with or without 0x, the size is decimal (or hex with 0x) and
 * defaults to 1.  Fields are separated by blanks; blank lines and lines
 * whose first non-blank character is '#' are skipped.
 *
 * lackey (text, read only): the output of
 * "valgrind --tool=lackey --trace-mem=yes": "I  addr,size" (instruction
 * fetch), " L addr,size" (load), " S addr,size" (store), " M addr,size"
 * (modify: returned as a read record followed by a write record of the same
 * bytes).  Valgrind's own lines ("==PID==", "--PID--", "**PID**") are
 * skipped.
 *
 * bin (binary, read and written), version 1; every integer little-endian:
 *
 *   header, 16 bytes
 *     offset 0   8 bytes  magic "CSIMTRC\0" (43 53 49 4d 54 52 43 00)
 *     offset 8   u16      version, 1
 *     offset 10  u16      record size, 16
 *     offset 12  u32      flags, 0 (reserved; readers reject other values)
 *   then any number of records, 16 bytes each
 *     offset 0   u64      address
 *     offset 8   u32      size in bytes, >= 1
 *     offset 12  u8       kind, the din label (0..6)
 *     offset 13  3 bytes  reserved, 0
 *
 * A Lackey modify is stored as two records (read, write), so a converted
 * trace replays exactly like its source.
 */
#ifndef CACHESIM_TRACE_H
#define CACHESIM_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/** enum trace_format - encoding of a trace file. */
enum trace_format {
	TRACE_AUTO = 0, /* reading: sniff bin magic / Lackey lines, else din */
	TRACE_DIN,
	TRACE_BIN,
	TRACE_LACKEY,
};

/** enum trace_kind - what a record does; the values are the din labels. */
enum trace_kind {
	TRACE_READ = 0,
	TRACE_WRITE = 1,
	TRACE_IFETCH = 2,
	TRACE_MISC = 3,	 /* counted, not simulated */
	TRACE_CLEAN = 4, /* write back the range's dirty lines, keep them */
	TRACE_INVALIDATE = 5, /* drop the range's lines, discarding dirt */
	TRACE_FLUSH = 6,      /* clean, then invalidate */
	TRACE_NKINDS
};

#define TRACE_BIN_MAGIC "CSIMTRC" /* plus its terminating NUL: 8 bytes */
#define TRACE_BIN_VERSION 1
#define TRACE_BIN_HEADER_SIZE 16
#define TRACE_BIN_RECORD_SIZE 16

/**
 * struct trace_record - one access or maintenance operation.
 * @addr: first byte address.
 * @size: bytes covered, >= 1; @addr + @size - 1 never wraps around.
 * @kind: an enum trace_kind.
 */
struct trace_record {
	uint64_t addr;
	uint32_t size;
	uint8_t kind;
};

/**
 * struct trace_counts - what a reader has consumed so far.
 * @lines:    text lines consumed (din, lackey); 0 for bin.
 * @records:  records returned.
 * @modifies: Lackey modifies (each returned as a read and a write).
 */
struct trace_counts {
	uint64_t lines;
	uint64_t records;
	uint64_t modifies;
};

struct trace_reader;
struct trace_writer;

/**
 * trace_open() - open a trace for reading.
 * @path:   file name; NULL or "-" reads standard input.
 * @format: the encoding, or TRACE_AUTO to detect it from the first bytes.
 * @err:    buffer for a one-line reason on failure ("NAME: reason").
 * @errlen: size of @err.
 *
 * Return: the reader, or NULL (unreadable file, bad bin header, no memory).
 */
struct trace_reader *trace_open(const char *path, enum trace_format format,
				char *err, size_t errlen);

/**
 * trace_read() - decode the next records.
 * @r:    reader.
 * @recs: array to fill.
 * @max:  capacity of @recs, >= 2 (a Lackey modify needs two).
 *
 * Return: the number of records stored (> 0), 0 at the end of the trace, or
 * -1 on malformed input or a read error; trace_error() then says where
 * ("NAME:LINE: reason" for text, "NAME: record N: reason" for bin).
 */
ssize_t trace_read(struct trace_reader *r, struct trace_record *recs,
		   size_t max);

/** trace_error() - the message of the last failure of @r. */
const char *trace_error(const struct trace_reader *r);

/** trace_reader_format() - the format being read (never TRACE_AUTO). */
enum trace_format trace_reader_format(const struct trace_reader *r);

/** trace_reader_name() - the name used in messages ("<stdin>" for stdin). */
const char *trace_reader_name(const struct trace_reader *r);

/** trace_reader_counts() - what has been consumed so far. */
const struct trace_counts *trace_reader_counts(const struct trace_reader *r);

/** trace_close() - free @r and close its file (NULL is ignored). */
void trace_close(struct trace_reader *r);

/**
 * trace_writer_open() - create a trace file.
 * @path:   file name; "-" writes standard output.
 * @format: TRACE_DIN or TRACE_BIN.
 * @err:    buffer for a one-line reason on failure.
 * @errlen: size of @err.
 *
 * Return: the writer (the bin header is already buffered), or NULL.
 */
struct trace_writer *trace_writer_open(const char *path,
				       enum trace_format format, char *err,
				       size_t errlen);

/**
 * trace_write() - append records.
 * Return: 0, or -1 on a write error (see trace_writer_error()).
 */
int trace_write(struct trace_writer *w, const struct trace_record *recs,
		size_t n);

/** trace_writer_error() - the message of the last failure of @w. */
const char *trace_writer_error(const struct trace_writer *w);

/**
 * trace_writer_close() - flush, close and free @w.
 * @err:    buffer for a one-line reason on failure.
 * @errlen: size of @err.
 * Return: 0, or -1 if buffered data could not be written.
 */
int trace_writer_close(struct trace_writer *w, char *err, size_t errlen);

/** trace_format_name() - "auto", "din", "bin" or "lackey". */
const char *trace_format_name(enum trace_format f);

/** trace_parse_format() - a name back to its value; -1 if unknown. */
int trace_parse_format(const char *s, enum trace_format *f);

/** trace_kind_name() - "read", "write", ... for each enum trace_kind. */
const char *trace_kind_name(unsigned int kind);

#endif /* CACHESIM_TRACE_H */
