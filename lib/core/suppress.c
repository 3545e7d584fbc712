// SPDX-License-Identifier: MIT
/*
 * suppress.c - the suppressions file of a machine (option suppressions=):
 * rules that keep known reports quiet, the way the sanitizers' suppression
 * files do.
 *
 * The file.  One rule a line; blank lines and lines whose first non-blank
 * character is # are skipped, and a term starting with # ends its line.
 * A rule is one or more terms separated by blanks, all of which must
 * match for the rule to match a report:
 *
 *   kind:GLOB   the report's kind ("stale-cpu-read", "lost-*"); a GLOB
 *               that matches no kind is an error
 *   fun:GLOB    a function the report names: the "at" line and the "by"
 *               lines of its stack, or, for a report that names no code,
 *               the stack of the thread that made it outside the library
 *   src:GLOB    a source file the same frames name, as the compiler was
 *               given it (a "*" matches "/" too: src:*nic.c matches
 *               examples/nic/nic.c)
 *
 * GLOB is fnmatch(3)'s: *, ? and [...].  A frame without line information
 * has a function (the dynamic symbol dladdr() finds) and no file.
 *
 *   # the test provokes these on purpose
 *   kind:lost-cpu-write
 *   kind:stale-cpu-read fun:rx_poll
 *   src:*third_party*
 *
 * A bad line makes machine create fail, the message naming the file and
 * the line.  The rules are immutable once read; each one's match count is
 * kept under the report lock (report.c) for the summary at destroy.
 */
#include "config.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/core.h"

#define MAX_TERMS 4

enum term_type { TERM_KIND, TERM_FUN, TERM_SRC };

static const char *const term_names[] = {
	[TERM_KIND] = "kind",
	[TERM_FUN] = "fun",
	[TERM_SRC] = "src",
};

struct term {
	enum term_type type;
	char *glob;
};

struct rule {
	unsigned int line;
	unsigned int nterms;
	struct term term[MAX_TERMS];
	char *text; /* the terms as written, for the summary */
	uint64_t count;
};

struct dmaemu__supp {
	unsigned int nrules;
	bool frames; /* some rule has a fun: or src: term */
	struct rule *rule;
};

static void free_rules(struct dmaemu__supp *s)
{
	unsigned int i, j;

	for (i = 0; i < s->nrules; i++) {
		for (j = 0; j < s->rule[i].nterms; j++)
			dmaemu__free(s->rule[i].term[j].glob);
		dmaemu__free(s->rule[i].text);
	}
	dmaemu__free(s->rule);
	dmaemu__free(s);
}

/* Does @glob match a kind name? */
static bool matches_a_kind(const char *glob)
{
	unsigned int k;

	for (k = 0; k < DMAEMU_REPORT_NKINDS; k++)
		if (!fnmatch(glob, dmaemu_report_kind_name(k), 0))
			return true;
	return false;
}

/*
 * Parse one line into @r.  Return: 0 (@r->nterms is 0 for a line without
 * a rule), -EINVAL with @why set, or -ENOMEM.
 */
static int parse_line(char *line, struct rule *r, char *why, size_t whylen)
{
	char *save = NULL, *tok, *colon;
	size_t tlen = 0;

	line[strcspn(line, "\r\n")] = '\0';
	r->nterms = 0;
	for (tok = strtok_r(line, " \t", &save); tok && tok[0] != '#';
	     tok = strtok_r(NULL, " \t", &save)) {
		struct term *t;
		unsigned int i;

		colon = strchr(tok, ':');
		if (!colon) {
			snprintf(why, whylen,
				 "'%s' is not TYPE:GLOB (kind:, fun: or src:)",
				 tok);
			return -EINVAL;
		}
		for (i = 0; i <= TERM_SRC; i++)
			if (strlen(term_names[i]) == (size_t)(colon - tok) &&
			    !memcmp(tok, term_names[i], (size_t)(colon - tok)))
				break;
		if (i > TERM_SRC) {
			snprintf(why, whylen,
				 "unknown rule type '%.*s' in '%s' (expected "
				 "kind:, fun: or src:)",
				 (int)(colon - tok), tok, tok);
			return -EINVAL;
		}
		if (!colon[1]) {
			snprintf(why, whylen, "empty pattern in '%s'", tok);
			return -EINVAL;
		}
		if (i == TERM_KIND && !matches_a_kind(colon + 1)) {
			snprintf(why, whylen, "'%s' matches no report kind",
				 tok);
			return -EINVAL;
		}
		if (r->nterms == MAX_TERMS) {
			snprintf(why, whylen, "more than %d terms in a rule",
				 MAX_TERMS);
			return -EINVAL;
		}
		t = &r->term[r->nterms];
		t->type = (enum term_type)i;
		t->glob = dmaemu__strdup(colon + 1);
		if (!t->glob)
			return -ENOMEM;
		r->nterms++;
		/* The text: the terms joined by one space. */
		{
			size_t n = strlen(tok);
			char *text = dmaemu__realloc(r->text, tlen + n + 2);

			if (!text)
				return -ENOMEM;
			r->text = text;
			if (tlen)
				text[tlen++] = ' ';
			memcpy(text + tlen, tok, n + 1);
			tlen += n;
		}
	}
	return 0;
}

/**
 * dmaemu__supp_load() - read the machine's suppressions file, if any.
 * @m:      machine with its options set; m->supp is set (NULL: no file).
 * @err:    receives "options: suppressions file F:N: why" for a bad line,
 *          or why the file cannot be read.
 * @errlen: size of @err.
 *
 * Return: 0, -EINVAL for a bad line, -ENOMEM, or the errno of fopen().
 */
int dmaemu__supp_load(struct dmaemu_machine *m, char *err, size_t errlen)
{
	const char *path = m->opt.suppressions;
	const char *origin = dmaemu__option_origin(&m->opt, "suppressions");
	struct dmaemu__supp *s;
	char *line = NULL, why[512];
	size_t cap = 0, n = 0;
	unsigned int lineno = 0;
	FILE *f;
	int ret = 0;

	m->supp = NULL;
	if (!path[0])
		return 0;
	f = fopen(path, "re");
	if (!f) {
		ret = -errno;
		snprintf(err, errlen,
			 "%s: cannot open suppressions file '%s': %s", origin,
			 path, strerror(-ret));
		return ret;
	}
	s = dmaemu__calloc(1, sizeof(*s));
	if (!s) {
		fclose(f);
		return -ENOMEM;
	}
	while (getline(&line, &cap, f) >= 0) {
		struct rule r;

		lineno++;
		memset(&r, 0, sizeof(r));
		ret = parse_line(line, &r, why, sizeof(why));
		if (!ret && r.nterms && n == s->nrules) {
			size_t more = n ? 2 * n : 8;
			struct rule *bigger = dmaemu__realloc(
				s->rule, more * sizeof(*bigger));

			if (bigger) {
				s->rule = bigger;
				n = more;
			} else {
				ret = -ENOMEM;
			}
		}
		if (ret || !r.nterms) {
			unsigned int j;

			for (j = 0; j < r.nterms; j++)
				dmaemu__free(r.term[j].glob);
			dmaemu__free(r.text);
			if (ret == -EINVAL)
				snprintf(err, errlen,
					 "%s: suppressions file %s:%u: %s",
					 origin, path, lineno, why);
			if (ret)
				break;
			continue;
		}
		r.line = lineno;
		for (unsigned int j = 0; j < r.nterms; j++)
			if (r.term[j].type != TERM_KIND)
				s->frames = true;
		s->rule[s->nrules++] = r;
	}
	if (!ret && ferror(f)) {
		ret = -EIO;
		snprintf(err, errlen, "%s: cannot read suppressions file '%s'",
			 origin, path);
	}
	free(line); /* getline()'s, from the C library's malloc() */
	fclose(f);
	if (ret) {
		free_rules(s);
		return ret;
	}
	m->supp = s;
	return 0;
}

/** dmaemu__supp_fini() - free the rules of @m. */
void dmaemu__supp_fini(struct dmaemu_machine *m)
{
	if (m->supp)
		free_rules(m->supp);
	m->supp = NULL;
}

/** dmaemu__supp_frames() - does a rule of @m look at the frames? */
bool dmaemu__supp_frames(const struct dmaemu_machine *m)
{
	return m->supp && m->supp->frames;
}

static bool term_matches(const struct term *t, enum dmaemu_report_kind kind,
			 const struct dmaemu__frame *f, unsigned int nf)
{
	unsigned int i;

	if (t->type == TERM_KIND)
		return !fnmatch(t->glob, dmaemu_report_kind_name(kind), 0);
	for (i = 0; i < nf; i++) {
		const char *s = t->type == TERM_FUN ? f[i].fn : f[i].file;

		if (s[0] && !fnmatch(t->glob, s, 0))
			return true;
	}
	return false;
}

/**
 * dmaemu__supp_match() - the first rule of @m that matches a report.
 * @m:    the machine.
 * @kind: the report's kind.
 * @f:    the frames the report names (function and file; see above).
 * @nf:   how many.
 *
 * Return: the rule's index, or -1 when none matches (or there is no
 * file).  Thread-safe: the rules do not change.
 */
int dmaemu__supp_match(const struct dmaemu_machine *m,
		       enum dmaemu_report_kind kind,
		       const struct dmaemu__frame *f, unsigned int nf)
{
	const struct dmaemu__supp *s = m->supp;
	unsigned int i, j;

	if (!s)
		return -1;
	for (i = 0; i < s->nrules; i++) {
		for (j = 0; j < s->rule[i].nterms; j++)
			if (!term_matches(&s->rule[i].term[j], kind, f, nf))
				break;
		if (j == s->rule[i].nterms)
			return (int)i;
	}
	return -1;
}

/** dmaemu__supp_count() - one more match of rule @i (report lock held). */
void dmaemu__supp_count(struct dmaemu_machine *m, int i)
{
	m->supp->rule[i].count++;
}

/**
 * dmaemu__supp_summary() - at machine destroy, what the rules matched:
 *   ==PID==dmaemu: suppressions=F: 5 reports suppressed
 *   ==PID==dmaemu:   3 by F:2: kind:stale-cpu-read fun:rx_poll
 * nothing when no rule matched.  Report lock held.
 * @m:   the machine.
 * @out: the report stream.
 */
void dmaemu__supp_summary(struct dmaemu_machine *m, FILE *out)
{
	const struct dmaemu__supp *s = m->supp;
	char pre[DMAEMU__LOG_PREFIX];
	uint64_t total = 0;
	unsigned int i;

	if (!s)
		return;
	dmaemu__log_prefix(m, pre);
	for (i = 0; i < s->nrules; i++)
		total += s->rule[i].count;
	if (!total)
		return;
	fprintf(out, "%sdmaemu: suppressions=%s: %llu report%s suppressed\n",
		pre, m->opt.suppressions, (unsigned long long)total,
		total == 1 ? "" : "s");
	for (i = 0; i < s->nrules; i++)
		if (s->rule[i].count)
			fprintf(out, "%sdmaemu:   %llu by %s:%u: %s\n", pre,
				(unsigned long long)s->rule[i].count,
				m->opt.suppressions, s->rule[i].line,
				s->rule[i].text);
}
