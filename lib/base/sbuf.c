// SPDX-License-Identifier: MIT
/*
 * sbuf.c - a bounded text buffer: printf into a fixed array, counting what
 * did not fit, so that callers can return snprintf's length.
 */
#include "config.h"

#include <limits.h>

#include "base/base.h"

void dmaemu__sbuf_init(struct dmaemu__sbuf *b, char *buf, size_t len)
{
	b->buf = buf;
	b->len = buf ? len : 0;
	b->pos = 0;
	if (b->len)
		b->buf[0] = '\0';
}

void dmaemu__sbuf_vprintf(struct dmaemu__sbuf *b, const char *fmt, va_list ap)
{
	size_t room = b->pos < b->len ? b->len - b->pos : 0;
	int n;

	n = vsnprintf(room ? b->buf + b->pos : NULL, room, fmt, ap);
	if (n > 0)
		b->pos += (size_t)n;
}

void dmaemu__sbuf_printf(struct dmaemu__sbuf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	dmaemu__sbuf_vprintf(b, fmt, ap);
	va_end(ap);
}

int dmaemu__sbuf_result(const struct dmaemu__sbuf *b)
{
	return b->pos > INT_MAX ? INT_MAX : (int)b->pos;
}
