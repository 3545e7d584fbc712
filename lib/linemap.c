// SPDX-License-Identifier: MIT
/*
 * linemap.c - <dmaemu/seeing.h>: cache-line maps of a range of DRAM, as a
 * terminal picture and as SVG.
 *
 * How it works.  Both forms walk the range a line at a time and classify
 * each byte from one snapshot of the line (dmaemu_line_state(): residency,
 * CPU-dirty and device-changed masks, owner) plus the write-combining
 * buffers' pending bytes:
 *
 *	byte state	CPU-dirty  device-changed  WC pending
 *	'.' same	    0            0              0
 *	'c' cpu		    1            0              0
 *	'd' device	    0            1              0
 *	'!' both	    1            1              0
 *	'w' wc		    -            -              1
 *
 * and the $ column says whether the CPU cache holds the line: '-' no, 'R'
 * resident, 'R+D' resident and dirty.
 * The text form prints one character a byte; the SVG form one cell a
 * byte, coloured by the same letter.  Nothing here changes the model.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dma/dma.h"
#include "dmaemu/seeing.h"
#include "dmaemu/testing.h"

/* One classified line: the snapshot and a letter a byte. */
struct map_line {
	struct dmaemu_line_state st;
	char byte[DMAEMU_LINE_MAX];
	unsigned int count[5]; /* by state_letters[] */
};

static const char state_letters[] = ".cd!w";
/* ANSI colours of the text form, by state_letters[]. */
static const char *const state_ansi[] = {"", "\033[30;43m", "\033[30;46m",
					 "\033[97;41m", "\033[97;45m"};
/* Fills of the SVG form, by state_letters[]. */
static const char *const state_fill[] = {"#e4e4e4", "#f2c200", "#20b8c8",
					 "#e02828", "#9050d0"};
static const char *const state_name[] = {"same", "CPU-dirty", "device-changed",
					 "both", "write-combining"};

static int letter_index(char c)
{
	const char *p = strchr(state_letters, c);

	return p && c ? (int)(p - state_letters) : -1;
}

/* Arguments shared by both forms. */
static int check_args(struct dmaemu_machine *m, uint64_t phys, size_t len,
		      FILE *f, const char *fn)
{
	if (dmaemu__machine_bad(m, fn))
		return -EINVAL;
	if (!m || !f || !len) {
		dmaemu__reportf(m, DMAEMU_REPORT_BAD_ARGUMENT, phys, len,
				"%s: %s", fn,
				!m   ? "NULL machine"
				: !f ? "NULL stream"
				     : "empty range");
		return -EINVAL;
	}
	if (phys + len < phys || !dmaemu__bank_of_phys(m, phys, len)) {
		dmaemu__reportf(m, DMAEMU_REPORT_BAD_ARGUMENT, phys, len,
				"%s: 0x%llx+%zu is not DRAM of the machine", fn,
				(unsigned long long)phys, len);
		return -EFAULT;
	}
	return 0;
}

/* Classify the line holding @p; bytes outside [@lo, @hi) are ' '. */
static int classify(struct dmaemu_machine *m, uint64_t p, uint64_t lo,
		    uint64_t hi, struct map_line *ml)
{
	unsigned int i;
	bool wc;
	int ret;

	ret = dmaemu_line_state(m, p, &ml->st);
	if (ret)
		return ret;
	memset(ml->count, 0, sizeof(ml->count));
	wc = dmaemu__wc_pending(m, ml->st.phys, ml->st.line_size) > 0;
	for (i = 0; i < ml->st.line_size; i++) {
		uint64_t b = ml->st.phys + i;
		bool c = dmaemu_line_mask_test(ml->st.cpu_dirty, i);
		bool d = dmaemu_line_mask_test(ml->st.dev_changed, i);
		char ch = c && d ? '!' : c ? 'c' : d ? 'd' : '.';

		if (wc && dmaemu__wc_pending(m, b, 1))
			ch = 'w';
		if (b < lo || b >= hi) {
			ml->byte[i] = ' ';
			continue;
		}
		ml->byte[i] = ch;
		ml->count[letter_index(ch)]++;
	}
	return 0;
}

static const char *owner_name(const struct dmaemu_line_state *st)
{
	return st->owner == DMAEMU_OWNER_DEVICE ? "device" : "cpu";
}

/*
 * A line with CPU-dirty bytes is held dirty, whatever the cache model's
 * bits say: stores the model did not see (code that is not instrumented)
 * left them, and the model treats such a line as resident and dirty (it
 * is never refilled over them, and a write-back writes them).
 */
static bool cpu_dirty_any(const struct dmaemu_line_state *st)
{
	unsigned int k;

	for (k = 0; k < DMAEMU_LINE_MASK_WORDS; k++)
		if (st->cpu_dirty[k])
			return true;
	return false;
}

static const char *cached_name(const struct dmaemu_line_state *st)
{
	if (cpu_dirty_any(st))
		return "R+D";
	return st->resident ? (st->dirty_levels ? "R+D" : "R") : "-";
}

static const char *resident_name(const struct dmaemu_line_state *st)
{
	return st->resident || cpu_dirty_any(st) ? "resident" : "not cached";
}

static bool colour_wanted(FILE *f, int colour)
{
	const char *term = getenv("TERM");

	if (colour != DMAEMU_COLOUR_AUTO)
		return colour == DMAEMU_COLOUR_ALWAYS;
	if (getenv("NO_COLOR"))
		return false;
	return isatty(fileno(f)) && term && strcmp(term, "dumb");
}

int dmaemu_line_map_print(struct dmaemu_machine *m, uint64_t phys, size_t len,
			  FILE *f, int colour)
{
	DMAEMU__API_CALL(call, __func__);
	struct map_line ml;
	uint64_t p, end = phys + len;
	bool paint;
	int ret, n = 0;

	ret = check_args(m, phys, len, f, __func__);
	if (ret)
		return ret;
	if (colour < DMAEMU_COLOUR_AUTO || colour > DMAEMU_COLOUR_ALWAYS) {
		dmaemu__reportf(m, DMAEMU_REPORT_BAD_ARGUMENT, phys, len,
				"%s: unknown colour mode %d", __func__, colour);
		return -EINVAL;
	}
	paint = colour_wanted(f, colour);
	/* The legend, under 100 columns: the bytes' key on the columns'
	 * line, the $ column's under it. */
	fprintf(f,
		"    %-11s %-6s %-3s byte: . same  c CPU-dirty  d "
		"device-changed  ! both  w write-combining\n"
		"    %-18s $: - not cached  R cached  R+D cached and dirty\n",
		"line", "owner", "$", "");
	for (p = phys; p < end; p = ml.st.phys + ml.st.line_size, n++) {
		unsigned int i;

		ret = classify(m, p, phys, end, &ml);
		if (ret)
			return ret;
		fprintf(f, "    0x%09llx %-6s %-3s ",
			(unsigned long long)ml.st.phys, owner_name(&ml.st),
			cached_name(&ml.st));
		for (i = 0; i < ml.st.line_size; i++) {
			char ch = ml.byte[i];

			if (paint && ch != '.' && ch != ' ')
				fprintf(f, "%s%c\033[0m",
					state_ansi[letter_index(ch)], ch);
			else
				fputc(ch, f);
		}
		fputc('\n', f);
	}
	return n;
}

/* ---------------------------------------------------------------------- */
/* SVG                                                                    */
/* ---------------------------------------------------------------------- */

/* Geometry of the SVG form, in user units (pixels). */
#define CELL_W 9
#define CELL_H 16
#define LABEL_W 190
#define TOP 44
#define MARGIN 8
#define LEGEND_STEP 130
#define LEGEND_W (5 * LEGEND_STEP)

static void put_escaped(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '&':
			fputs("&amp;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		default:
			/* XML 1.0 allows no other control characters. */
			if ((unsigned char)*s < 0x20 && *s != '\t' &&
			    *s != '\n')
				fputc('?', f);
			else
				fputc(*s, f);
		}
	}
}

int dmaemu_line_map_svg(struct dmaemu_machine *m, uint64_t phys, size_t len,
			const char *title, FILE *f)
{
	DMAEMU__API_CALL(call, __func__);
	struct map_line ml;
	uint64_t p, end = phys + len;
	unsigned int line, lines, width, height, i, y;
	int ret, n = 0;

	ret = check_args(m, phys, len, f, __func__);
	if (ret)
		return ret;
	line = m->line;
	lines = (unsigned int)(((end + line - 1) / line) - phys / line);
	width = 2 * MARGIN + LABEL_W + line * CELL_W;
	if (width < 2 * MARGIN + LEGEND_W)
		width = 2 * MARGIN + LEGEND_W;
	height = TOP + lines * CELL_H + 3 * CELL_H + MARGIN;
	fprintf(f,
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%u\" "
		"height=\"%u\" viewBox=\"0 0 %u %u\" "
		"font-family=\"monospace\" font-size=\"12\">\n",
		width, height, width, height);
	fprintf(f, "<title>");
	put_escaped(f, title ? title : "cache lines");
	fprintf(f, "</title>\n");
	fprintf(f,
		"<rect x=\"0\" y=\"0\" width=\"%u\" height=\"%u\" "
		"fill=\"#ffffff\"/>\n",
		width, height);
	if (title) {
		fprintf(f, "<text x=\"%u\" y=\"%u\" font-weight=\"bold\">",
			MARGIN, MARGIN + 12);
		put_escaped(f, title);
		fprintf(f, "</text>\n");
	}
	fprintf(f,
		"<text x=\"%u\" y=\"%u\">line        owner  $</text>\n"
		"<text x=\"%u\" y=\"%u\">bytes 0..%u</text>\n",
		MARGIN, TOP - 6, MARGIN + LABEL_W, TOP - 6, line - 1);
	for (p = phys, y = TOP; p < end;
	     p = ml.st.phys + ml.st.line_size, y += CELL_H, n++) {
		ret = classify(m, p, phys, end, &ml);
		if (ret)
			return ret;
		fprintf(f,
			"<g class=\"line\" data-phys=\"0x%llx\" "
			"data-owner=\"%s\" data-cached=\"%s\">\n"
			"<title>0x%llx: owner %s, %s, %u same, %u CPU-dirty, "
			"%u device-changed, %u both, %u write-combining"
			"</title>\n",
			(unsigned long long)ml.st.phys, owner_name(&ml.st),
			cached_name(&ml.st), (unsigned long long)ml.st.phys,
			owner_name(&ml.st), resident_name(&ml.st), ml.count[0],
			ml.count[1], ml.count[2], ml.count[3], ml.count[4]);
		fprintf(f, "<text x=\"%u\" y=\"%u\">0x%09llx %-6s %s</text>\n",
			MARGIN, y + CELL_H - 4, (unsigned long long)ml.st.phys,
			owner_name(&ml.st), cached_name(&ml.st));
		for (i = 0; i < ml.st.line_size; i++) {
			int k = letter_index(ml.byte[i]);

			if (k < 0)
				continue; /* outside the range: no cell */
			fprintf(f,
				"<rect x=\"%u\" y=\"%u\" width=\"%u\" "
				"height=\"%u\" fill=\"%s\" "
				"data-state=\"%c\"/>\n",
				MARGIN + LABEL_W + i * CELL_W, y + 1,
				CELL_W - 1, CELL_H - 2, state_fill[k],
				ml.byte[i]);
		}
		fprintf(f, "</g>\n");
	}
	/* The legend: one swatch a state, with its letter and name. */
	y += CELL_H / 2;
	for (i = 0; i < 5; i++) {
		unsigned int x = MARGIN + i * LEGEND_STEP;

		fprintf(f,
			"<rect x=\"%u\" y=\"%u\" width=\"%u\" height=\"%u\" "
			"fill=\"%s\"/><text x=\"%u\" y=\"%u\">%c %s</text>\n",
			x, y, CELL_W - 1, CELL_H - 2, state_fill[i],
			x + CELL_W + 3, y + CELL_H - 4, state_letters[i],
			state_name[i]);
	}
	/* And the $ column's key. */
	fprintf(f,
		"<text x=\"%u\" y=\"%u\">$: - not cached  R cached  R+D "
		"cached and dirty</text>\n",
		MARGIN, y + 2 * CELL_H - 4);
	fprintf(f, "</svg>\n");
	if (ferror(f))
		return -EIO;
	return n;
}
