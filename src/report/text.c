/* text.c: the report a person reads, like a lab notebook: the machine, the conditions, and per
 * experiment its question, what it runs, an aligned table with units, where the time went, the
 * checks and the notes. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "wtg/conditions.h"
#include "wtg/experiment.h"
#include "wtg/report.h"
#include "writers.h"
#include "wtg/paired.h"
#include "wtg/util.h"
#include "wtg/whyhere.h"

#define WIDTH 100	/* wrap prose here at most */
#define NARROW 40	/* the narrowest page a report is laid out for */
#define GAP 2		/* spaces between table columns */

/* --wide: tables whole however wide, prose at WIDTH (wtg_report_set_wide). */
static bool wide_tables;
/* The page the report being written is laid out for: its columns (a table wider is folded), and
 * where prose wraps. Set by wtg_text_begin from the file it writes to. */
static _Thread_local int page = 80, prose = 80;

void wtg_report_set_wide(bool wide)
{
	wide_tables = wide;
}

/* The columns of the terminal f is, from $COLUMNS or the terminal itself; 80 when f is no terminal. */
static int page_width(FILE *f)
{
	int fd = fileno(f);
	if (fd < 0 || !isatty(fd))
		return 80;
	const char *env = getenv("COLUMNS");
	char *end;
	long n = env && *env ? strtol(env, &end, 10) : 0;
	if (n > 0 && n < 10000 && !*end)
		return n < NARROW ? NARROW : (int)n;
	struct winsize ws;
	if (ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col < NARROW ? NARROW : ws.ws_col;
	return 80;
}

/* A table cell, column name or unit stays on its line and drives no terminal: tabs and line breaks
 * as spaces, the rest escaped (wtg_escape_dup), whole. A copy to free; NULL when memory runs out. */
static char *flat(const char *s)
{
	char *spaced = strdup(s ? s : "");
	if (!spaced)
		return NULL;
	for (char *p = spaced; *p; p++)
		if (*p == '\t' || *p == '\n')
			*p = ' ';
	char *out = wtg_escape_dup(spaced);
	free(spaced);
	return out;
}

static void pad(FILE *f, int n)
{
	for (; n > 0; n--)
		putc(' ', f);
}

/* One table line is assembled in memory so that trailing blanks can be cut. */
struct line {
	char *buf;
	size_t len, cap;
};

static void line_put(struct line *l, const char *s, size_t n)
{
	if (l->len + n + 1 > l->cap) {
		size_t cap = (l->len + n + 1) * 2;
		char *b = realloc(l->buf, cap);
		if (!b)
			return;
		l->buf = b;
		l->cap = cap;
	}
	memcpy(l->buf + l->len, s, n);
	l->len += n;
	l->buf[l->len] = '\0';
}

static void line_pad(struct line *l, int n)
{
	for (; n > 0; n--)
		line_put(l, " ", 1);
}

static void cell(struct line *l, const char *s, int width, bool right)
{
	int w = wtg_text_width(s);
	if (right)
		line_pad(l, width - w);
	line_put(l, s, strlen(s));
	if (!right)
		line_pad(l, width - w);
}

static void line_flush(FILE *f, struct line *l)
{
	while (l->len > 0 && l->buf[l->len - 1] == ' ')
		l->len--;
	if (l->len)
		fwrite(l->buf, 1, l->len, f);
	putc('\n', f);
	l->len = 0;
}

/* Prose as wrap lays it out: blanks and tabs as one space between words, none at the start or end
 * of a line; line breaks kept; any other control character, C1 control or byte that is not UTF-8
 * in its escaped form (wtg_escape_char; a backslash stays one, so text escaped before stays as it
 * is). Returns a copy to free, or NULL. */
static char *normalize(const char *s)
{
	char *out = malloc(strlen(s ? s : "") * 4 + 1);
	size_t n = 0;
	if (!out)
		return NULL;
	bool blank = false;
	while (s && *s) {
		char c = *s;
		if (c == '\n' || c == ' ' || c == '\t') {
			if (c == '\n')
				out[n++] = '\n';
			blank = c != '\n' && n > 0 && out[n - 1] != '\n';
			s++;
			continue;
		}
		if (blank)
			out[n++] = ' ';
		blank = false;
		size_t used = 1;
		if (c == '\\')
			out[n++] = c;
		else
			n += wtg_escape_char(s, out + n, &used);
		s += used;
	}
	out[n] = '\0';
	return out;
}

/* Write text after a prefix already printed (`col` columns wide), breaking at spaces before the
 * prose width and starting each further line with `indent` spaces. Line breaks in the text are kept;
 * on a page narrower than WIDTH a word longer than a line (a path) is broken too. */
static void wrap(FILE *f, int col, int indent, const char *s)
{
	char *text = normalize(s);
	const char *p = text ? text : "";
	for (int width = prose - col;; width = prose - indent) {
		const char *next;
		size_t n = wtg_wrap_next(p, width, prose < WIDTH, &next);
		fwrite(p, 1, n, f);
		/* a line break ends the text: one more (empty) line, as the text asks */
		if (!*next && !(next > p + n && next[-1] == '\n'))
			break;
		putc('\n', f);
		pad(f, indent);
		p = next;
	}
	putc('\n', f);
	free(text);
}

/* Insert thousands separators into the integer part of a formatted number, in place. */
static void group_digits(char *buf, size_t len)
{
	char *p = buf;
	if (*p == '-')
		p++;
	size_t digits = strspn(p, "0123456789");
	if (digits <= 3)
		return;
	size_t commas = (digits - 1) / 3;
	size_t total = strlen(buf);
	if (total + commas + 1 > len)
		return;
	/* move from the end so nothing is overwritten before it is copied */
	char *src = buf + total, *dst = buf + total + commas;
	char *int_end = p + digits;
	while (src >= int_end)
		*dst-- = *src--;
	size_t n = 0;
	while (src >= p) {
		*dst-- = *src--;
		if (++n % 3 == 0 && src >= p)
			*dst-- = ',';
	}
}

void wtg_report_fmt_value(char *buf, size_t len, const struct wtg_value *v, const struct wtg_column *col,
			  bool group)
{
	int dec = col->decimals < 0 ? 0 : col->decimals > 9 ? 9 : col->decimals;
	/* at least three significant figures, so a small value and its interval stay apart */
	if (v->type == WTG_T_REAL && isfinite(v->r) && v->r != 0) {
		int need = 2 - (int)floor(log10(fabs(v->r)));
		dec = need > dec ? (need > 9 ? 9 : need) : dec;
	}
	switch (v->type) {
	case WTG_T_INT:
		snprintf(buf, len, "%" PRId64, v->i);
		break;
	case WTG_T_REAL:
		if (isnan(v->r)) {
			wtg_strlcpy(buf, "n/a", len);
			return;
		}
		if (isinf(v->r)) {
			wtg_strlcpy(buf, v->r > 0 ? "inf" : "-inf", len);
			return;
		}
		snprintf(buf, len, "%.*f", dec, v->r);
		break;
	case WTG_T_TEXT:
		wtg_strlcpy(buf, v->s ? v->s : "", len);
		return;
	default:
		wtg_strlcpy(buf, "n/a", len);
		return;
	}
	if (group)
		group_digits(buf, len);
}

static double magnitude(const struct wtg_value *v)
{
	if (v->type == WTG_T_INT)
		return fabs((double)v->i);
	if (v->type == WTG_T_REAL && isfinite(v->r))
		return fabs(v->r);
	return 0;
}

static bool same_cond(const struct wtg_cond_snapshot *a, const struct wtg_cond_snapshot *b)
{
	return a->burners == b->burners && a->policy == b->policy && a->io == b->io;
}

static void fmt_cond(char *buf, size_t len, const struct wtg_cond_snapshot *c)
{
	const char *pol = wtg_report_policy_name(c->policy);
	char burn[32];
	if (c->burners > 0)
		snprintf(burn, sizeof burn, "burners %d", c->burners);
	else
		wtg_strlcpy(burn, "no burners", sizeof burn);
	snprintf(buf, len, "%s, %s, %s", burn, pol ? pol : "policy ?", wtg_iomode_name(c->io));
}

/* What a table's cell shows, escaped (a copy to free, NULL when memory runs out): row -2 the column's
 * name, -1 its unit in brackets, else the value (own column c) or the row's conditions (c < 0). */
static char *cell_text(const struct wtg_table *t, const struct wtg_column *col, int c, int r, bool group)
{
	char buf[512];
	if (r == -2)
		return flat(col->name);
	if (r == -1) {
		if (!col->unit || !col->unit[0])
			return flat("");
		char *u = flat(col->unit), *out = u ? malloc(strlen(u) + 3) : NULL;
		if (out)
			sprintf(out, "[%s]", u);
		free(u);
		return out;
	}
	const struct wtg_value *v = c >= 0 ? &t->rows[r].v[c] : NULL;
	if (v && v->type == WTG_T_TEXT)
		return flat(v->s ? v->s : "");	/* whole, however long */
	if (v)
		wtg_report_fmt_value(buf, sizeof buf, v, col, group);
	else
		fmt_cond(buf, sizeof buf, &t->rows[r].cond);
	return flat(buf);
}

/* A table's cells as text: rows -2 (names) and -1 (units) then the rows, nc to a row; the
 * widest cell of each column; the columns. */
struct grid {
	char **cells;
	const int *width;
	const struct wtg_column *const *cols;
	int nr, nc;
};

static const char *grid_cell(const struct grid *g, int r, int c)
{
	const char *s = g->cells[(size_t)(r + 2) * (size_t)g->nc + (size_t)c];
	return s ? s : "?";
}

/* Columns a part of a table takes: the indent, then columns c0 .. c1 - 1 GAP apart. */
static int span(const struct grid *g, int c0, int c1)
{
	int w = GAP;
	for (int c = c0; c < c1; c++)
		w += g->width[c] + (c > c0 ? GAP : 0);
	return w;
}

/* The key columns 0 .. key - 1, then columns c0 .. c1 - 1, every row: numbers align right, text
 * left. */
static void write_part(FILE *f, const struct grid *g, int key, int c0, int c1)
{
	struct line l = { NULL, 0, 0 };
	for (int r = -2; r < g->nr; r++) {
		line_pad(&l, GAP);
		for (int k = 0; k < key + c1 - c0; k++) {
			int c = k < key ? k : c0 + k - key;
			if (k)
				line_pad(&l, GAP);
			cell(&l, grid_cell(g, r, c), g->width[c], g->cols[c]->type != WTG_T_TEXT);
		}
		line_flush(f, &l);
	}
	free(l.buf);
}

/* The table in "name [unit]: value" lines, a block per row under its key's values: for a table
 * whose columns do not fit the page even one beside the key. */
static void write_blocks(FILE *f, const struct grid *g, int key)
{
	int nw = 0;
	for (int c = key; c < g->nc; c++) {
		const char *u = grid_cell(g, -1, c);
		int w = wtg_text_width(grid_cell(g, -2, c)) + (*u ? 1 + wtg_text_width(u) : 0);
		nw = w > nw ? w : nw;
	}
	if (nw > prose / 2)
		nw = prose / 2;
	for (int r = 0; r < g->nr; r++) {
		if (r)
			putc('\n', f);
		struct line l = { NULL, 0, 0 };
		for (int c = 0; c < key; c++) {
			line_put(&l, c ? ", " : "  ", 2);
			line_put(&l, grid_cell(g, r, c), strlen(grid_cell(g, r, c)));
		}
		if (l.buf) {
			fputs("  ", f);
			wrap(f, 2, 4, l.buf + 2);
		}
		free(l.buf);
		for (int c = key; c < g->nc; c++) {
			const char *n = grid_cell(g, -2, c), *u = grid_cell(g, -1, c);
			fprintf(f, "    %s%s%s:", n, *u ? " " : "", u);
			int w = wtg_text_width(n) + (*u ? 1 + wtg_text_width(u) : 0);
			pad(f, w < nw ? nw - w + 1 : 1);
			wrap(f, 4 + (w > nw ? w : nw) + 2, 6, grid_cell(g, r, c));
		}
	}
}

/* A table wider than the page: the rows' key (its first `key` columns), then as many columns as
 * fit beside it, and again below for the columns left; rows as blocks of "name: value" when one
 * column will not fit beside the key. */
static void fold(FILE *f, const struct grid *g, int key)
{
	bool fits = span(g, 0, key) <= page / 2;
	for (int c = key; c < g->nc && fits; c++)
		fits = span(g, 0, key) + GAP + g->width[c] <= page;
	if (!fits) {
		write_blocks(f, g, key);
		return;
	}
	for (int c0 = key, part = 0; c0 < g->nc; part++) {
		int c1 = c0 + 1;
		while (c1 < g->nc && span(g, 0, key) + GAP + span(g, c0, c1 + 1) - GAP <= page)
			c1++;
		if (part)
			putc('\n', f);
		write_part(f, g, key, c0, c1);
		c0 = c1;
	}
}

/* The table: names, units in brackets, then the rows. A "conditions" column is added when the
 * conditions changed between rows, so a reader sees which rows ran under what. */
static void write_table(FILE *f, const struct wtg_table *t)
{
	int nr = t->nrows;
	bool cond_col = false;
	for (int r = 1; r < nr; r++)
		if (!same_cond(&t->rows[r].cond, &t->rows[0].cond))
			cond_col = true;
	int own = t->ncols < 0 ? 0 : t->ncols > WTG_MAX_COLS ? WTG_MAX_COLS : t->ncols;
	int nc = own + (cond_col ? 1 : 0);
	if (nc <= 0)
		return;
	static const struct wtg_column cond_column = { "conditions", "", WTG_T_TEXT, 0 };
	const struct wtg_column *cols[WTG_MAX_COLS + 1];
	for (int c = 0; c < own; c++)
		cols[c] = &t->cols[c];
	if (cond_col)
		cols[own] = &cond_column;

	/* rows -2 and -1 are the header: the names, then the units in brackets */
	size_t ncells = (size_t)(nr + 2) * (size_t)nc;
	char **cells = calloc(ncells + 1, sizeof *cells);
	int *width = calloc((size_t)nc, sizeof *width);
	if (!cells || !width) {
		free(cells);
		free(width);
		fputs("  (out of memory formatting the table)\n", f);
		return;
	}
	for (int c = 0; c < nc; c++) {
		bool group = false;
		for (int r = 0; r < nr && c < own; r++)
			if (magnitude(&t->rows[r].v[c]) >= 10000)
				group = true;
		for (int r = -2; r < nr; r++) {
			char *txt = cell_text(t, cols[c], c < own ? c : -1, r, group);
			cells[(size_t)(r + 2) * (size_t)nc + (size_t)c] = txt;
			if (txt && wtg_text_width(txt) > width[c])
				width[c] = wtg_text_width(txt);
		}
	}
	struct grid g = { cells, width, cols, nr, nc };
	if (wide_tables || span(&g, 0, nc) <= page)
		write_part(f, &g, 0, 0, nc);
	else
		fold(f, &g, wtg_report_key_columns(t) < nc ? wtg_report_key_columns(t) : 1);
	for (size_t i = 0; i < ncells; i++)
		free(cells[i]);
	free(cells);
	free(width);
}

static void fmt_ms(char *buf, size_t len, double ms)
{
	snprintf(buf, len, "%.1f", ms);
	group_digits(buf, len);
}

static void fmt_count(char *buf, size_t len, int64_t v)
{
	wtg_fmt_thousands(buf, len, v);
}

/* Where the time went for the whole run: the probe the worker bracketed around it. */
static void write_total(FILE *f, const struct wtg_table *t)
{
	if (!t->has_total)
		return;
	const struct wtg_probe_result *p = &t->total;
	char wall[32], user[32], sys[32], minf[32], majf[32], vol[32], inv[32], cpus[512];
	fmt_ms(wall, sizeof wall, p->wall_ms);
	fmt_ms(user, sizeof user, p->user_ms);
	fmt_ms(sys, sizeof sys, p->sys_ms);
	fmt_count(minf, sizeof minf, p->minflt);
	fmt_count(majf, sizeof majf, p->majflt);
	fmt_count(vol, sizeof vol, p->vcsw);
	fmt_count(inv, sizeof inv, p->ivcsw);
	wtg_probe_cpus_str(p->cpus_seen, cpus, sizeof cpus);
	char head[160];
	int h = snprintf(head, sizeof head, "wall %s ms, user %s ms, sys %s ms", wall, user, sys);
	if (p->threads > 1 && h > 0 && (size_t)h < sizeof head)
		snprintf(head + h, sizeof head - (size_t)h, " (%d threads)", p->threads);
	fputs("  where the time went: ", f);
	wrap(f, 23, 4, head);
	char line[1024];
	int o = snprintf(line, sizeof line,
			 "faults %s minor, %s major; switches %s voluntary, %s involuntary; CPUs %s; ",
			 minf, majf, vol, inv, cpus);
	if (o < 0 || (size_t)o >= sizeof line)
		o = (int)strlen(line);
	char m[32];
	if (p->migrations >= 0) {
		fmt_count(m, sizeof m, p->migrations);
		o += snprintf(line + o, sizeof line - (size_t)o, "%s migration%s", m,
			      p->migrations == 1 ? "" : "s");
	} else {
		o += snprintf(line + o, sizeof line - (size_t)o, "migrations n/a");
	}
	if (p->instructions >= 0 && p->cycles > 0 && (size_t)o < sizeof line) {
		char ins[32], cyc[32];
		fmt_count(ins, sizeof ins, p->instructions);
		fmt_count(cyc, sizeof cyc, p->cycles);
		snprintf(line + o, sizeof line - (size_t)o, "; %s instructions, %s cycles (IPC %.2f)",
			 ins, cyc, (double)p->instructions / (double)p->cycles);
	}
	fputs("    ", f);
	wrap(f, 4, 4, line);
}

static void write_status(FILE *f, const struct wtg_table *t)
{
	switch ((int)t->state) {
	case WTG_IDLE:
		fputs("  not run\n", f);
		break;
	case WTG_RUNNING:
		fprintf(f, "  still running: step %d of %d%s%s\n", t->progress.step, t->progress.nsteps,
			t->progress.label[0] ? ", " : "", t->progress.label);
		break;
	case WTG_FAILED:
		fputs("  FAILED: ", f);
		wrap(f, 10, 10, t->error[0] ? t->error : "no cause recorded");
		break;
	case WTG_STOPPED:
		fputs("  cancelled: ", f);
		wrap(f, 13, 13, t->error[0] ? t->error
					    : "stopped before the end; the rows above are complete");
		break;
	case WTG_DONE:
		if (t->error[0]) {
			fputs("  error: ", f);
			wrap(f, 9, 9, t->error);
		}
		break;
	}
}

/* A paired run's headline figures, arm B against arm A; or why the run was not paired. */
static void write_paired(FILE *f, const struct wtg_table *t)
{
	struct wtg_paired_entry pe[WTG_MAX_HEADLINES];
	int n = wtg_paired_entries(t, pe, WTG_MAX_HEADLINES);
	const char *skipped = wtg_paired_skipped(t);
	if (skipped) {
		fputs("  paired: no: ", f);
		wrap(f, 14, 14, skipped);
	}
	for (int i = 0; i < n; i++) {
		char line[512], ratio[160];
		wtg_paired_fmt(&pe[i], ratio, sizeof ratio);
		snprintf(line, sizeof line, "%s, B %s A: %s (A %.4g, B %.4g %s)", pe[i].figure,
			 pe[i].s.difference ? "-" : "/", ratio, pe[i].a, pe[i].b, pe[i].unit);
		fputs("  paired: ", f);
		wrap(f, 10, 10, line);
	}
}

void wtg_text_table(FILE *f, const struct wtg_report_meta *m, const struct wtg_table *t, int n)
{
	(void)n;
	const struct wtg_experiment *e = t->exp;
	char head[512];
	snprintf(head, sizeof head, "== %s: %s ==", e ? e->name : "?", e ? e->question : "");
	putc('\n', f);
	wrap(f, 0, 3, head);
	if (e && e->runs) {
		char buf[512];
		fputs("runs: ", f);
		wrap(f, 6, 6, wtg_experiment_runs(e, m->quick, buf, sizeof buf));
	}
	putc('\n', f);
	if (t->nrows > 0)
		write_table(f, t);
	else if (t->state == WTG_DONE)
		fputs("  (no rows)\n", f);
	if (t->nrows > 0 || t->has_total)
		putc('\n', f);
	write_total(f, t);
	write_paired(f, t);
	char state[384];
	wtg_report_machine_state(state, sizeof state, t);
	if (state[0]) {
		fputs("  machine while it ran: ", f);
		wrap(f, 25, 25, state);
	}
	char why[512];
	if (e && wtg_why_here(e, t, wtg_report_machine_of(m, t), why, sizeof why) > 0) {
		fputs("  why here: ", f);
		wrap(f, 12, 12, why);
	}
	for (int i = 0; i < t->nchecks; i++) {
		const struct wtg_check *c = &t->checks[i];
		fputs(c->status == WTG_CHECK_OK ? "  ok      " : c->status == WTG_CHECK_WARN ? "  warn    " : "  FAILED  ", f);
		char *name = flat(c->name);
		const char *d = c->detail ? c->detail : "";
		char *buf = name ? malloc(strlen(name) + strlen(d) + 3) : NULL;
		if (buf)
			sprintf(buf, "%s: %s", name, d);
		wrap(f, 10, 10, buf ? buf : "(out of memory)");
		free(buf);
		free(name);
	}
	for (int i = 0; i < t->nnotes; i++) {
		fputs("  note: ", f);
		wrap(f, 8, 8, t->notes[i]);
	}
	write_status(f, t);
}

void wtg_report_wrap(FILE *f, int col, int indent, const char *s)
{
	int keep_page = page, keep_prose = prose;
	page = page_width(f);
	prose = page > WIDTH ? WIDTH : page;
	wrap(f, col, indent, s);
	page = keep_page;
	prose = keep_prose;
}

/* One line of a key/value block: the key, then the value wrapped at column 16. */
static void kv(void *arg, const char *key, const char *value)
{
	FILE *f = arg;
	fprintf(f, "  %-14s", key);
	wrap(f, 16, 16, value);
}

void wtg_text_begin(FILE *f, const struct wtg_report_meta *m)
{
	page = page_width(f);
	prose = wide_tables || page > WIDTH ? WIDTH : page;
	fprintf(f, "wtg %s: where the time goes\n\n", PACKAGE_VERSION);
	fputs("machine\n", f);
	wtg_report_items(m, WTG_BLOCK_MACHINE, kv, f);
	fputs("data file\n", f);
	wtg_report_items(m, WTG_BLOCK_DATAFILE, kv, f);
	fputs("conditions\n", f);
	wtg_report_items(m, WTG_BLOCK_CONDITIONS, kv, f);
}

void wtg_text_end(FILE *f, const struct wtg_report_meta *m, int n)
{
	(void)n;
	putc('\n', f);
	wtg_report_summary_line(f, m);
}
