// SPDX-License-Identifier: MIT
/*
 * trace.c - trace readers (din, lackey, bin) and writers (din, bin).
 *
 * How it works: a reader owns one big buffer (TRACE_BUF bytes) filled with
 * read(2).  Text formats are parsed only up to the last newline in the
 * buffer, so every line handed to a parser ends in '\n' and the parsers
 * need no bounds checks (the newline is the sentinel).  The partial line
 * left over is moved to the front before the next read.  At end of file a
 * last line without its newline gets one appended (the buffer has a spare
 * byte for it).
 *
 *   buf: [ consumed | complete lines ... '\n' | partial line | free ]
 *                   ^pos                      ^lim            ^end
 *
 * A regular file (named, or standard input redirected from one) is not
 * read but mapped whole, privately, as if one read(2) had filled a buffer
 * of its size and hit the end of file: the same parsers then run over the
 * page cache with no copy and no refill.  The mapping reserves one page
 * more than the file (anonymous, zero) and is writable copy-on-write, so
 * the final newline can be supplied in place.  A pipe, a terminal or a
 * file that cannot be mapped is read as above.
 *
 * Numbers are parsed by hand (table-driven hex) rather than with sscanf or
 * strtoull: the command must replay tens of millions of lines a second.
 * Binary records are decoded byte by byte, so the format is little-endian
 * on every host.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trace.h"

#define TRACE_BUF (1u << 20) /* read buffer */
#define TRACE_MAX_LINE 4096  /* longest text line accepted */
#define TOKEN_MAX 24	     /* characters of a bad token quoted in messages */
#define likely(x) __builtin_expect(!!(x), 1)
#define TRACE_PAD 32 /* zero bytes after the buffer: word loads may overrun */

struct trace_reader {
	int fd;
	bool close_fd;
	bool eof;    /* read(2) returned 0, or the file is mapped */
	bool failed; /* sticky: an error was reported */
	enum trace_format format;
	unsigned char *buf; /* TRACE_BUF + 1 bytes: room for a final '\n' */
			    /* then TRACE_PAD zero bytes */
	size_t map_len;	    /* bytes mapped at buf (0: buf is malloc()ed) */
	size_t pos;	    /* first unparsed byte */
	size_t lim;	    /* one past the last '\n' of the buffer (text) */
	size_t end;	    /* one past the last byte read */
	uint64_t lineno;    /* number of the line at pos (text) */
	struct trace_counts counts;
	char *name;
	char err[512];
};

struct trace_writer {
	int fd;
	bool close_fd;
	bool failed;
	enum trace_format format;
	unsigned char *buf;
	size_t len;
	char *name;
	char err[512];
};

static const char *const format_names[] = {
	[TRACE_AUTO] = "auto",
	[TRACE_DIN] = "din",
	[TRACE_BIN] = "bin",
	[TRACE_LACKEY] = "lackey",
};

static const char *const kind_names[TRACE_NKINDS] = {
	[TRACE_READ] = "read",	   [TRACE_WRITE] = "write",
	[TRACE_IFETCH] = "ifetch", [TRACE_MISC] = "misc",
	[TRACE_CLEAN] = "clean",   [TRACE_INVALIDATE] = "invalidate",
	[TRACE_FLUSH] = "flush",
};

/*
 * Digit values for hex parsing: 0..15 for [0-9a-fA-F], 0xff otherwise.
 * Filled once by init_hexval(); a constant initialiser would need 256
 * entries spelled out.
 */
static unsigned char hexval[256];
static bool hexval_ready;

static void init_hexval(void)
{
	unsigned int c;

	if (hexval_ready)
		return;
	hexval_ready = true;
	for (c = 0; c < 256; c++)
		hexval[c] = 0xff;
	for (c = 0; c < 10; c++)
		hexval['0' + c] = (unsigned char)c;
	for (c = 0; c < 6; c++) {
		hexval['a' + c] = (unsigned char)(10 + c);
		hexval['A' + c] = (unsigned char)(10 + c);
	}
}

const char *trace_format_name(enum trace_format f)
{
	if ((unsigned int)f < sizeof(format_names) / sizeof(format_names[0]))
		return format_names[f];
	return "?";
}

int trace_parse_format(const char *s, enum trace_format *f)
{
	unsigned int i;

	for (i = 0; i < sizeof(format_names) / sizeof(format_names[0]); i++) {
		if (strcmp(s, format_names[i]) == 0) {
			*f = (enum trace_format)i;
			return 0;
		}
	}
	return -1;
}

const char *trace_kind_name(unsigned int kind)
{
	return kind < TRACE_NKINDS ? kind_names[kind] : "?";
}

/* ------------------------------------------------------------------ */
/* Reader: plumbing                                                    */
/* ------------------------------------------------------------------ */

static void rerr(struct trace_reader *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Record a message prefixed with the reader's name and current line. */
static void rerr(struct trace_reader *r, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (r->format == TRACE_BIN)
		n = snprintf(r->err, sizeof(r->err),
			     "%s: record %llu: ", r->name,
			     (unsigned long long)r->counts.records + 1);
	else
		n = snprintf(r->err, sizeof(r->err), "%s:%llu: ", r->name,
			     (unsigned long long)r->lineno);
	if (n < 0 || (size_t)n >= sizeof(r->err))
		n = 0;
	va_start(ap, fmt);
	vsnprintf(r->err + n, sizeof(r->err) - (size_t)n, fmt, ap);
	va_end(ap);
	r->failed = true;
}

static bool is_blank(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/*
 * Quote the token starting at @p (up to a blank, a newline or TOKEN_MAX
 * characters) into @out, escaping what is not printable ASCII.
 */
static const char *quote_token(const unsigned char *p, char *out, size_t len)
{
	size_t o = 0;
	unsigned int i;

	for (i = 0; i < TOKEN_MAX && p[i] != '\n' && !is_blank(p[i]); i++) {
		if (o + 5 >= len)
			break;
		if (p[i] >= 0x20 && p[i] < 0x7f && p[i] != '\'')
			out[o++] = (char)p[i];
		else
			o += (size_t)snprintf(out + o, len - o, "\\x%02x",
					      p[i]);
	}
	if (i == TOKEN_MAX && p[i] != '\n' && !is_blank(p[i]) && o + 4 < len) {
		memcpy(out + o, "...", 3);
		o += 3;
	}
	out[o] = '\0';
	return out;
}

/*
 * Map @r->fd when it is a regular file read from its start: buf then holds
 * the whole file, end is its size and eof is set.  Return true when mapped;
 * false leaves @r untouched, to be read with read(2).
 */
static bool map_input(struct trace_reader *r)
{
	long page = sysconf(_SC_PAGESIZE);
	struct stat st;
	size_t size, len, tail;
	void *area, *file;

	if (page <= 0 || fstat(r->fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_size <= 0 || lseek(r->fd, 0, SEEK_CUR) != 0)
		return false;
	if ((uint64_t)st.st_size > SIZE_MAX - 2 * (size_t)page)
		return false;
	size = (size_t)st.st_size;
	/* The file's pages, then at least one zero page for the sentinel. */
	len = (size / (size_t)page + 2) * (size_t)page;
	area = mmap(NULL, len, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (area == MAP_FAILED)
		return false;
	file = mmap(area, size, PROT_READ,
		    MAP_PRIVATE | MAP_FIXED | MAP_POPULATE, r->fd, 0);
	tail = size / (size_t)page * (size_t)page;
	if (file == MAP_FAILED ||
	    (tail < size && mprotect((char *)area + tail, (size_t)page,
				     PROT_READ | PROT_WRITE) < 0)) {
		munmap(area, len);
		return false;
	}
	free(r->buf);
	r->buf = area;
	r->map_len = len;
	r->end = size;
	r->eof = true;
	return true;
}

/* Read more bytes after [pos, end); returns -1 on a read error. */
static int refill(struct trace_reader *r)
{
	ssize_t n;

	if (r->pos > 0) {
		memmove(r->buf, r->buf + r->pos, r->end - r->pos);
		r->end -= r->pos;
		r->pos = 0;
		r->lim = 0; /* only called once every complete line is parsed */
	}
	while (r->end < TRACE_BUF && !r->eof) {
		n = read(r->fd, r->buf + r->end, TRACE_BUF - r->end);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			snprintf(r->err, sizeof(r->err), "%s: read error: %s",
				 r->name, strerror(errno));
			r->failed = true;
			return -1;
		}
		if (n == 0)
			r->eof = true;
		r->end += (size_t)n;
		/* Parse what arrived rather than wait to fill 1 MiB. */
		if (r->end - r->pos >= 65536 || r->format == TRACE_BIN)
			break;
	}
	return 0;
}

/*
 * Make [pos, lim) hold at least one complete line.  Return 1 when it does,
 * 0 at the end of the input, -1 on error.
 */
static int next_lines(struct trace_reader *r)
{
	unsigned char *nl;

	for (;;) {
		nl = memrchr(r->buf + r->pos, '\n', r->end - r->pos);
		if (nl) {
			r->lim = (size_t)(nl - r->buf) + 1;
			return 1;
		}
		if (r->end - r->pos > TRACE_MAX_LINE) {
			rerr(r, "line too long (more than %u bytes)",
			     TRACE_MAX_LINE);
			return -1;
		}
		if (r->eof) {
			if (r->end == r->pos)
				return 0;
			/* Last line without a newline: supply one. */
			r->buf[r->end++] = '\n';
			continue;
		}
		if (refill(r) < 0)
			return -1;
	}
}

/* ------------------------------------------------------------------ */
/* din                                                                 */
/* ------------------------------------------------------------------ */

/*
 * Parse a hexadecimal number at *pp (optional 0x).  Leaves *pp after the
 * digits.  Return 0, or -1 if there is no digit or it overflows 64 bits.
 */
static inline int parse_hex(const unsigned char **pp, uint64_t *out)
{
	const unsigned char *p = *pp;
	uint64_t v = 0;
	unsigned int d;

	if (p[0] == '0' && (p[1] | 0x20) == 'x' && hexval[p[2]] < 16)
		p += 2;
	if (hexval[*p] >= 16)
		return -1;
	while ((d = hexval[*p]) < 16) {
		if (v >> 60)
			return -1;
		v = v << 4 | d;
		p++;
	}
	*pp = p;
	*out = v;
	return 0;
}

/* Parse a size: decimal, or hex with 0x; 1 .. UINT32_MAX. */
static inline int parse_size(const unsigned char **pp, uint32_t *out)
{
	const unsigned char *p = *pp;
	uint64_t v = 0;

	if (p[0] == '0' && (p[1] | 0x20) == 'x') {
		if (parse_hex(&p, &v) < 0)
			return -1;
	} else {
		if (*p < '0' || *p > '9')
			return -1;
		while (*p >= '0' && *p <= '9') {
			v = v * 10 + (uint64_t)(*p - '0');
			if (v > UINT32_MAX)
				return -1;
			p++;
		}
	}
	if (v == 0 || v > UINT32_MAX)
		return -1;
	*pp = p;
	*out = (uint32_t)v;
	return 0;
}

static int check_wrap(struct trace_reader *r, uint64_t addr, uint32_t size)
{
	if (addr + (size - 1) < addr) {
		rerr(r, "%u bytes at 0x%llx wrap around the address space",
		     size, (unsigned long long)addr);
		return -1;
	}
	return 0;
}

/*
 * The same limit whether or not the whole line happened to fit in the
 * buffer: @end is one past the line's newline.
 */
static inline bool line_too_long(struct trace_reader *r,
				 const unsigned char *end)
{
	if ((size_t)(end - (r->buf + r->pos)) <= TRACE_MAX_LINE + 1)
		return false;
	rerr(r, "line too long (more than %u bytes)", TRACE_MAX_LINE);
	return true;
}

/* Skip to the start of the next line. */
static inline const unsigned char *skip_line(const unsigned char *p)
{
	while (*p != '\n')
		p++;
	return p + 1;
}

/*
 * The canonical din line, "K HEX DEC\n" (one blank each, an address of 1 to
 * 16 hex digits without 0x, a decimal size), is decoded by din_fast() with
 * word arithmetic: the address is found, checked and converted 8 digits at
 * a time, without a branch per digit.  Any other line, well-formed or not,
 * is left to the general parser below, which alone reports errors, so the
 * fast path changes no result and no message.
 *
 * Bytes are loaded 8 at a time starting inside the line; the loads may run
 * past its newline, into the next lines or the zero padding after the data
 * (TRACE_PAD bytes after the read buffer, a whole page after a mapping),
 * but only bytes before the newline decide anything.
 */
#define ONES 0x0101010101010101ull
#define HIGHS 0x8080808080808080ull

static inline uint64_t load64(const unsigned char *p)
{
	uint64_t x;

	memcpy(&x, p, sizeof(x));
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	x = __builtin_bswap64(x);
#endif
	return x; /* the byte at p is the least significant */
}

/* A mask of the bytes of @x below 0x30 (blanks, newline): exact up to the
 * first such byte, which is all din_fast() uses. */
static inline uint64_t below_digits(uint64_t x)
{
	return (x - 0x30 * ONES) & ~x & HIGHS;
}

/*
 * The high bit of each byte of @x that is not a hex digit.  Exact for the
 * bytes below the first one >= 0x80 (the sums carry only upwards).
 */
static inline uint64_t not_hex(uint64_t x)
{
	uint64_t t = x | 0x20 * ONES; /* 'A'-'F' to 'a'-'f'; digits unchanged */
	uint64_t digit = ~(t + 0x46 * ONES);			 /* t <= '9' */
	uint64_t alpha = (t + 0x1f * ONES) & ~(t + 0x19 * ONES); /* 'a'-'f' */

	/* Bytes below 0x30 never reach here (they end the token). */
	return (~(digit | alpha) | x) & HIGHS;
}

/* The 8 hex digits of @x (first digit in the low byte) as a number. */
static inline uint64_t hex8(uint64_t x)
{
	uint64_t v = (x & 0x0f * ONES) + 9 * ((x >> 6) & ONES);

	v = __builtin_bswap64(v); /* the first digit most significant */
	v = (v | v >> 4) & 0x00ff00ff00ff00ffull;
	v = (v | v >> 8) & 0x0000ffff0000ffffull;
	return (v | v >> 16) & 0xffffffffull;
}

/*
 * Decode the canonical line at @p into @rec.  Return a pointer past its
 * newline, or NULL to let the general parser take the line.
 */
static inline const unsigned char *din_fast(const unsigned char *p,
					    struct trace_record *rec)
{
	unsigned int label = (unsigned int)(p[0] - '0');
	uint64_t x1, x2, m, bad, addr;
	unsigned int len, shift;
	uint32_t size;

	if (label >= TRACE_NKINDS || p[1] != ' ')
		return NULL;
	p += 2;
	x1 = load64(p);
	m = below_digits(x1);
	if (m) {
		len = (unsigned int)__builtin_ctzll(m) >> 3;
		if (len == 0)
			return NULL;
		shift = 64 - 8 * len;
		bad = not_hex(x1) << shift;
		addr = hex8(x1 << shift);
	} else {
		x2 = load64(p + 8);
		m = below_digits(x2);
		if (!m)
			return NULL; /* 16 digits or more: leading zeros? */
		len = 8 + ((unsigned int)__builtin_ctzll(m) >> 3);
		shift = 64 - 8 * (len - 8);
		bad = not_hex(x1) | (shift < 64 ? not_hex(x2) << shift : 0);
		addr = hex8(x1);
		if (shift < 64)
			addr = addr << 4 * (len - 8) | hex8(x2 << shift);
	}
	if (bad)
		return NULL;
	p += len;
	if (*p != ' ' || p[1] < '1' || p[1] > '9')
		return NULL;
	p++;
	size = (uint32_t)(*p++ - '0');
	if (*p != '\n') { /* up to 9 digits: below 2^32, no overflow check */
		unsigned int digits = 1;

		while (*p >= '0' && *p <= '9' && digits < 9) {
			size = size * 10 + (uint32_t)(*p++ - '0');
			digits++;
		}
		if (*p != '\n')
			return NULL;
	}
	/* No wrap: 15 digits are below 2^60, 9 below 2^30. */
	rec->addr = addr;
	rec->size = size;
	rec->kind = (uint8_t)label;
	return p + 1;
}

static ssize_t din_read(struct trace_reader *r, struct trace_record *recs,
			size_t max)
{
	const unsigned char *p, *tok;
	char q[TOKEN_MAX * 4 + 8];
	size_t n = 0;
	unsigned int label;
	uint64_t addr;
	uint32_t size;
	int more;

	while (n < max) {
		if (r->pos == r->lim) {
			more = next_lines(r);
			if (more <= 0)
				return more < 0 ? -1 : (ssize_t)n;
		}
		p = r->buf + r->pos;
		tok = din_fast(p, &recs[n]);
		if (likely(tok)) {
			n++;
			r->pos = (size_t)(tok - r->buf);
			r->lineno++;
			continue;
		}
		while (is_blank(*p))
			p++;
		if (*p == '\n' || *p == '#') {
			p = skip_line(p);
			goto next;
		}
		tok = p;
		label = (unsigned int)(*p - '0');
		if (label >= TRACE_NKINDS || !is_blank(p[1])) {
			if (label < TRACE_NKINDS && p[1] == '\n')
				rerr(r, "missing address after label %u",
				     label);
			else
				rerr(r, "unknown label '%s'",
				     quote_token(tok, q, sizeof(q)));
			return -1;
		}
		p += 2;
		while (is_blank(*p))
			p++;
		if (*p == '\n') {
			rerr(r, "missing address after label %u", label);
			return -1;
		}
		tok = p;
		if (parse_hex(&p, &addr) < 0 || (!is_blank(*p) && *p != '\n')) {
			rerr(r, "bad address '%s'",
			     quote_token(tok, q, sizeof(q)));
			return -1;
		}
		while (is_blank(*p))
			p++;
		size = 1;
		if (*p != '\n') {
			tok = p;
			if (parse_size(&p, &size) < 0 ||
			    (!is_blank(*p) && *p != '\n')) {
				rerr(r, "bad size '%s'",
				     quote_token(tok, q, sizeof(q)));
				return -1;
			}
			while (is_blank(*p))
				p++;
			if (*p != '\n') {
				rerr(r, "unexpected '%s' after the size",
				     quote_token(p, q, sizeof(q)));
				return -1;
			}
			if (check_wrap(r, addr, size) < 0)
				return -1;
		}
		p++;
		recs[n].addr = addr;
		recs[n].size = size;
		recs[n].kind = (uint8_t)label;
		n++;
	next:
		if (line_too_long(r, p))
			return -1;
		r->pos = (size_t)(p - r->buf);
		r->lineno++;
	}
	return (ssize_t)n;
}

/* ------------------------------------------------------------------ */
/* Lackey                                                              */
/* ------------------------------------------------------------------ */

static ssize_t lackey_read(struct trace_reader *r, struct trace_record *recs,
			   size_t max)
{
	const unsigned char *p, *tok;
	char q[TOKEN_MAX * 4 + 8];
	size_t n = 0;
	unsigned int kind;
	bool modify;
	uint64_t addr, v;
	uint32_t size;
	int more;

	while (n + 2 <= max) {
		if (r->pos == r->lim) {
			more = next_lines(r);
			if (more <= 0)
				return more < 0 ? -1 : (ssize_t)n;
		}
		p = r->buf + r->pos;
		modify = false;
		if (p[0] == 'I' && p[1] == ' ' && p[2] == ' ') {
			kind = TRACE_IFETCH;
		} else if (p[0] == ' ' && p[2] == ' ' &&
			   (p[1] == 'L' || p[1] == 'S' || p[1] == 'M')) {
			kind = p[1] == 'S' ? TRACE_WRITE : TRACE_READ;
			modify = p[1] == 'M';
		} else if ((p[0] == '=' && p[1] == '=') ||
			   (p[0] == '-' && p[1] == '-') ||
			   (p[0] == '*' && p[1] == '*') || p[0] == '\n') {
			/* Valgrind's own messages, or an empty line. */
			p = skip_line(p);
			goto next;
		} else {
			rerr(r, "not a Lackey line: '%s'",
			     quote_token(p, q, sizeof(q)));
			return -1;
		}
		p += 3;
		tok = p;
		if (hexval[*p] >= 16 || parse_hex(&p, &addr) < 0 || *p != ',') {
			rerr(r, "bad address '%s'",
			     quote_token(tok, q, sizeof(q)));
			return -1;
		}
		p++;
		tok = p;
		v = 0;
		if (*p < '0' || *p > '9') {
			rerr(r, "bad size '%s'",
			     quote_token(tok, q, sizeof(q)));
			return -1;
		}
		while (*p >= '0' && *p <= '9' && v <= UINT32_MAX)
			v = v * 10 + (uint64_t)(*p++ - '0');
		while (is_blank(*p))
			p++;
		if (v == 0 || v > UINT32_MAX || *p != '\n') {
			rerr(r, "bad size '%s'",
			     quote_token(tok, q, sizeof(q)));
			return -1;
		}
		size = (uint32_t)v;
		if (check_wrap(r, addr, size) < 0)
			return -1;
		p++;
		recs[n].addr = addr;
		recs[n].size = size;
		recs[n].kind = (uint8_t)kind;
		n++;
		if (modify) {
			recs[n] = recs[n - 1];
			recs[n].kind = TRACE_WRITE;
			n++;
			r->counts.modifies++;
		}
	next:
		if (line_too_long(r, p))
			return -1;
		r->pos = (size_t)(p - r->buf);
		r->lineno++;
	}
	return (ssize_t)n;
}

/* ------------------------------------------------------------------ */
/* bin                                                                 */
/* ------------------------------------------------------------------ */

static uint16_t get16(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t get32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static uint64_t get64(const unsigned char *p)
{
	return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32;
}

static void put32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

static void put64(unsigned char *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

/* Check the 16-byte header at pos and consume it. */
static int bin_header(struct trace_reader *r)
{
	const unsigned char *h = r->buf + r->pos;
	size_t have = r->end - r->pos;
	unsigned int v;

	if (have < TRACE_BIN_HEADER_SIZE) {
		if (have >= sizeof(TRACE_BIN_MAGIC) &&
		    memcmp(h, TRACE_BIN_MAGIC, sizeof(TRACE_BIN_MAGIC)) == 0)
			snprintf(r->err, sizeof(r->err),
				 "%s: truncated header (%zu of %u bytes)",
				 r->name, have, TRACE_BIN_HEADER_SIZE);
		else
			snprintf(r->err, sizeof(r->err),
				 "%s: not a cachesim binary trace (%s)",
				 r->name, have ? "bad magic" : "empty file");
		return -1;
	}
	if (memcmp(h, TRACE_BIN_MAGIC, sizeof(TRACE_BIN_MAGIC)) != 0) {
		snprintf(r->err, sizeof(r->err),
			 "%s: not a cachesim binary trace (bad magic)",
			 r->name);
		return -1;
	}
	v = get16(h + 8);
	if (v != TRACE_BIN_VERSION) {
		snprintf(r->err, sizeof(r->err),
			 "%s: unsupported binary trace version %u (this "
			 "cachesim reads version %u)",
			 r->name, v, TRACE_BIN_VERSION);
		return -1;
	}
	v = get16(h + 10);
	if (v != TRACE_BIN_RECORD_SIZE) {
		snprintf(r->err, sizeof(r->err),
			 "%s: bad record size %u in header (expected %u)",
			 r->name, v, TRACE_BIN_RECORD_SIZE);
		return -1;
	}
	v = get32(h + 12);
	if (v != 0) {
		snprintf(r->err, sizeof(r->err),
			 "%s: unknown header flags 0x%x", r->name, v);
		return -1;
	}
	r->pos += TRACE_BIN_HEADER_SIZE;
	return 0;
}

static ssize_t bin_read(struct trace_reader *r, struct trace_record *recs,
			size_t max)
{
	const unsigned char *p;
	size_t n = 0, avail;
	uint64_t addr;
	uint32_t size;
	unsigned int kind;

	while (n < max) {
		avail = r->end - r->pos;
		if (avail < TRACE_BIN_RECORD_SIZE) {
			if (r->eof) {
				if (avail == 0)
					break;
				rerr(r, "truncated (%zu of %u bytes)", avail,
				     TRACE_BIN_RECORD_SIZE);
				return -1;
			}
			if (n > 0)
				break;
			if (refill(r) < 0)
				return -1;
			continue;
		}
		p = r->buf + r->pos;
		addr = get64(p);
		size = get32(p + 8);
		kind = p[12];
		if (kind >= TRACE_NKINDS) {
			rerr(r, "unknown kind %u", kind);
			return -1;
		}
		if (p[13] | p[14] | p[15]) {
			rerr(r, "reserved bytes are not zero");
			return -1;
		}
		if (size == 0) {
			rerr(r, "size 0");
			return -1;
		}
		if (check_wrap(r, addr, size) < 0)
			return -1;
		recs[n].addr = addr;
		recs[n].size = size;
		recs[n].kind = (uint8_t)kind;
		n++;
		r->counts.records++;
		r->pos += TRACE_BIN_RECORD_SIZE;
	}
	return (ssize_t)n;
}

/* ------------------------------------------------------------------ */
/* Reader: API                                                         */
/* ------------------------------------------------------------------ */

static void free_buf(struct trace_reader *r)
{
	if (r->map_len)
		munmap(r->buf, r->map_len);
	else
		free(r->buf);
}

/* Guess the format from the first bytes (already in the buffer). */
static enum trace_format sniff(const struct trace_reader *r)
{
	const unsigned char *p = r->buf + r->pos;
	size_t have = r->end - r->pos;

	if (have >= sizeof(TRACE_BIN_MAGIC) &&
	    memcmp(p, TRACE_BIN_MAGIC, sizeof(TRACE_BIN_MAGIC)) == 0)
		return TRACE_BIN;
	if (have >= 3 &&
	    ((p[0] == '=' && p[1] == '=') || (p[0] == '-' && p[1] == '-') ||
	     (p[0] == 'I' && p[1] == ' ' && p[2] == ' ') ||
	     (p[0] == ' ' && p[2] == ' ' &&
	      (p[1] == 'L' || p[1] == 'S' || p[1] == 'M'))))
		return TRACE_LACKEY;
	return TRACE_DIN;
}

struct trace_reader *trace_open(const char *path, enum trace_format format,
				char *err, size_t errlen)
{
	struct trace_reader *r;
	bool is_stdin = !path || strcmp(path, "-") == 0;

	init_hexval();
	r = calloc(1, sizeof(*r));
	if (!r)
		goto out_nomem;
	r->name = strdup(is_stdin ? "<stdin>" : path);
	r->buf = calloc(1, TRACE_BUF + 1 + TRACE_PAD);
	if (!r->name || !r->buf)
		goto out_free;
	r->lineno = 1;
	r->format = format;
	if (is_stdin) {
		r->fd = STDIN_FILENO;
	} else {
		r->fd = open(path, O_RDONLY | O_CLOEXEC);
		if (r->fd < 0) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			goto out_free_quiet;
		}
		r->close_fd = true;
	}
	map_input(r);
	/* The first bytes decide the format and hold the bin header. */
	while (r->end < TRACE_BIN_HEADER_SIZE && !r->eof) {
		if (refill(r) < 0) {
			snprintf(err, errlen, "%s", r->err);
			goto out_close;
		}
	}
	if (r->format == TRACE_AUTO)
		r->format = sniff(r);
	if (r->format == TRACE_BIN && bin_header(r) < 0) {
		snprintf(err, errlen, "%s", r->err);
		goto out_close;
	}
	if (r->format != TRACE_BIN)
		r->lim = r->pos; /* no complete line known yet */
	return r;

out_close:
	if (r->close_fd)
		close(r->fd);
out_free_quiet:
	free_buf(r);
	free(r->name);
	free(r);
	return NULL;
out_free:
	free(r->buf);
	free(r->name);
	free(r);
out_nomem:
	snprintf(err, errlen, "%s: %s", is_stdin ? "<stdin>" : path,
		 strerror(ENOMEM));
	return NULL;
}

ssize_t trace_read(struct trace_reader *r, struct trace_record *recs,
		   size_t max)
{
	ssize_t n;

	if (r->failed)
		return -1;
	if (max < 2) {
		snprintf(r->err, sizeof(r->err), "%s: buffer too small",
			 r->name);
		r->failed = true;
		return -1;
	}
	switch (r->format) {
	case TRACE_BIN:
		return bin_read(r, recs, max); /* counts records itself */
	case TRACE_LACKEY:
		n = lackey_read(r, recs, max);
		break;
	default:
		n = din_read(r, recs, max);
		break;
	}
	if (n > 0)
		r->counts.records += (uint64_t)n;
	r->counts.lines = r->lineno - 1; /* the parsers only bump lineno */
	return n;
}

const char *trace_error(const struct trace_reader *r)
{
	return r->err;
}

enum trace_format trace_reader_format(const struct trace_reader *r)
{
	return r->format;
}

const char *trace_reader_name(const struct trace_reader *r)
{
	return r->name;
}

const struct trace_counts *trace_reader_counts(const struct trace_reader *r)
{
	return &r->counts;
}

void trace_close(struct trace_reader *r)
{
	if (!r)
		return;
	if (r->close_fd)
		close(r->fd);
	free_buf(r);
	free(r->name);
	free(r);
}

/* ------------------------------------------------------------------ */
/* Writer                                                              */
/* ------------------------------------------------------------------ */

#define WRITE_BUF (1u << 20)
#define DIN_LINE_MAX 32 /* "6 " + 16 hex + " " + 10 digits + "\n" */

static int wflush(struct trace_writer *w)
{
	size_t off = 0;
	ssize_t n;

	if (w->failed)
		return -1;
	while (off < w->len) {
		n = write(w->fd, w->buf + off, w->len - off);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			snprintf(w->err, sizeof(w->err), "%s: write error: %s",
				 w->name, strerror(errno));
			w->failed = true;
			return -1;
		}
		off += (size_t)n;
	}
	w->len = 0;
	return 0;
}

struct trace_writer *trace_writer_open(const char *path,
				       enum trace_format format, char *err,
				       size_t errlen)
{
	struct trace_writer *w;
	bool is_stdout = strcmp(path, "-") == 0;

	if (format != TRACE_DIN && format != TRACE_BIN) {
		snprintf(err, errlen, "%s: cannot write %s traces", path,
			 trace_format_name(format));
		return NULL;
	}
	w = calloc(1, sizeof(*w));
	if (!w)
		goto out_nomem;
	w->name = strdup(is_stdout ? "<stdout>" : path);
	w->buf = malloc(WRITE_BUF);
	if (!w->name || !w->buf)
		goto out_free;
	w->format = format;
	if (is_stdout) {
		w->fd = STDOUT_FILENO;
	} else {
		w->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
			     0666);
		if (w->fd < 0) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			free(w->buf);
			free(w->name);
			free(w);
			return NULL;
		}
		w->close_fd = true;
	}
	if (format == TRACE_BIN) {
		unsigned char *h = w->buf;

		memcpy(h, TRACE_BIN_MAGIC, sizeof(TRACE_BIN_MAGIC));
		h[8] = TRACE_BIN_VERSION;
		h[9] = 0;
		h[10] = TRACE_BIN_RECORD_SIZE;
		h[11] = 0;
		put32(h + 12, 0);
		w->len = TRACE_BIN_HEADER_SIZE;
	}
	return w;

out_free:
	free(w->buf);
	free(w->name);
	free(w);
out_nomem:
	snprintf(err, errlen, "%s: %s", path, strerror(ENOMEM));
	return NULL;
}

/* Append "K ADDR SIZE\n" without printf: conversions are the hot path. */
static size_t din_format(unsigned char *o, const struct trace_record *rec)
{
	static const char hex[] = "0123456789abcdef";
	unsigned char tmp[20];
	size_t len = 0, i;
	uint64_t a = rec->addr;
	uint32_t s = rec->size;

	o[len++] = (unsigned char)('0' + rec->kind);
	o[len++] = ' ';
	i = 0;
	do {
		tmp[i++] = (unsigned char)hex[a & 15];
		a >>= 4;
	} while (a);
	while (i)
		o[len++] = tmp[--i];
	o[len++] = ' ';
	i = 0;
	do {
		tmp[i++] = (unsigned char)('0' + s % 10);
		s /= 10;
	} while (s);
	while (i)
		o[len++] = tmp[--i];
	o[len++] = '\n';
	return len;
}

int trace_write(struct trace_writer *w, const struct trace_record *recs,
		size_t n)
{
	unsigned char *o;
	size_t i;

	if (w->failed)
		return -1;
	for (i = 0; i < n; i++) {
		if (w->len + DIN_LINE_MAX > WRITE_BUF && wflush(w) < 0)
			return -1;
		o = w->buf + w->len;
		if (w->format == TRACE_DIN) {
			w->len += din_format(o, &recs[i]);
			continue;
		}
		put64(o, recs[i].addr);
		put32(o + 8, recs[i].size);
		o[12] = recs[i].kind;
		o[13] = o[14] = o[15] = 0;
		w->len += TRACE_BIN_RECORD_SIZE;
	}
	return 0;
}

const char *trace_writer_error(const struct trace_writer *w)
{
	return w->err;
}

int trace_writer_close(struct trace_writer *w, char *err, size_t errlen)
{
	int ret;

	ret = wflush(w);
	if (w->close_fd && close(w->fd) < 0 && ret == 0) {
		snprintf(w->err, sizeof(w->err), "%s: write error: %s", w->name,
			 strerror(errno));
		ret = -1;
	}
	if (ret < 0)
		snprintf(err, errlen, "%s", w->err);
	free(w->buf);
	free(w->name);
	free(w);
	return ret;
}
