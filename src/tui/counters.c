/* counters.c: large numbers per case with the derivations a reader wants (faults per page, pages per
 * fault, ns per fault from a difference, cold/warm ratios), each computed from the rows' own
 * columns. A few cases stand side by side, one column each; more cases become a table, one line
 * per row. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui_internal.h"

static const struct {
	const char *col, *name;
} friendly[] = {
	{ "ms", "time" },
	{ "minflt", "minor faults" },
	{ "majflt", "major faults" },
	{ "gbps", "throughput" },
	{ "ns_per_fault", "time per fault" },
	{ "vcsw", "voluntary switches" },
	{ "ivcsw", "involuntary switches" },
};

/* Experiments whose per-fault time is derived here from two cases (they don't report it). */
static const char *const fault_difference[] = { "mmap" };

static void metric_name(char *buf, size_t len, const char *col)
{
	for (size_t i = 0; i < WTG_ARRAY_LEN(friendly); i++)
		if (strcmp(friendly[i].col, col) == 0) {
			wtg_strlcpy(buf, friendly[i].name, len);
			return;
		}
	wtg_strlcpy(buf, col, len);
	for (char *p = buf; *p; p++)
		if (*p == '_')
			*p = ' ';
}

#define MAX_METRICS 24
#define MAX_CASES 16
#define CELL 40

/* What is shown: one metric per line (measured, then derived), one value per case. */
struct grid {
	int ncases, first;		/* rows first .. first + ncases - 1 */
	char head[MAX_CASES][64];
	int nm;
	char name[MAX_METRICS][48];
	char unit[MAX_METRICS][16];	/* for the table's header */
	bool derived[MAX_METRICS];
	char cell[MAX_METRICS][MAX_CASES][CELL];	/* with unit, for the side-by-side layout */
	char bare[MAX_METRICS][MAX_CASES][CELL];	/* without, for the table */
};

static int add_metric(struct grid *g, const char *name, const char *unit, bool derived)
{
	if (g->nm >= MAX_METRICS)
		return -1;
	int m = g->nm++;
	wtg_strlcpy(g->name[m], name, sizeof g->name[m]);
	wtg_strlcpy(g->unit[m], unit, sizeof g->unit[m]);
	g->derived[m] = derived;
	for (int k = 0; k < MAX_CASES; k++)
		g->cell[m][k][0] = g->bare[m][k][0] = '\0';
	return m;
}

static void set_cell(struct grid *g, int m, int k, double v, const char *unit)
{
	if (m < 0)
		return;
	tui_fmt_value(g->cell[m][k], CELL, v, unit);
	double ts = tui_time_scale(unit);
	if (isnan(v))
		snprintf(g->bare[m][k], CELL, "n/a");
	else if (ts > 0 || strcmp(unit, "GB/s") == 0 || strcmp(unit, "%") == 0)
		tui_fmt_num(g->bare[m][k], CELL, v);	/* the header carries the unit */
	else
		tui_fmt_value(g->bare[m][k], CELL, v, unit);
}

static bool label_has(const struct wtg_table *t, int r, const char *word)
{
	for (int c = 0; c < t->ncols; c++)
		if (t->rows[r].v[c].type == WTG_T_TEXT && strstr(t->rows[r].v[c].s, word))
			return true;
	return false;
}

/* The row whose label is row r's with `from` replaced by `to` ("cold read" -> "warm read"), or -1. */
static int partner(const struct wtg_table *t, int r, const char *from, const char *to)
{
	char want[128] = "", lab[128];
	tui_row_label(lab, sizeof lab, t, r, NULL, 0);
	char *p = strstr(lab, from);
	if (!p)
		return -1;
	snprintf(want, sizeof want, "%.*s%s%s", (int)(p - lab), lab, to, p + strlen(from));
	for (int q = 0; q < t->nrows; q++) {
		tui_row_label(lab, sizeof lab, t, q, NULL, 0);
		if (q != r && strcmp(lab, want) == 0)
			return q;
	}
	return -1;
}

static void build(struct grid *g, const struct tui_view *v)
{
	const struct wtg_table *t = v->t;
	int n = t->nrows;
	g->ncases = n < MAX_CASES ? n : MAX_CASES;
	g->first = n - g->ncases;
	bool labels = false;
	for (int c = 0; c < t->ncols; c++)
		labels = labels || t->cols[c].type == WTG_T_TEXT;
	/* without a text label, a repetition counter names the cases */
	static const char *const counters[] = { "rep", "run", "trial", "pass" };
	int rc = -1;
	for (size_t i = 0; i < WTG_ARRAY_LEN(counters) && rc < 0; i++)
		rc = wtg_table_col(t, counters[i]);
	for (int k = 0; k < g->ncases; k++) {
		if (labels)
			tui_row_label(g->head[k], sizeof g->head[k], t, g->first + k, NULL, 0);
		else if (rc >= 0)
			snprintf(g->head[k], sizeof g->head[k], "%s %.0f", t->cols[rc].name,
				 wtg_table_num(t, g->first + k, rc));
		else
			snprintf(g->head[k], sizeof g->head[k], "row %d", g->first + k + 1);
	}
	for (int c = 0; c < t->ncols; c++) {
		if (t->cols[c].type == WTG_T_TEXT || (c == rc && !labels))
			continue;
		char nm[48];
		const char *unit = t->cols[c].unit ? t->cols[c].unit : "";
		metric_name(nm, sizeof nm, t->cols[c].name);
		int m = add_metric(g, nm, unit, false);
		for (int k = 0; k < g->ncases; k++)
			set_cell(g, m, k, wtg_table_num(t, g->first + k, c), unit);
	}
	/* derived here unless the experiment reports them */
	int cmin = wtg_table_col(t, "minflt"), cpages = wtg_table_col(t, "pages");
	if (cmin >= 0 && cpages >= 0) {
		int a = -1, b = -1;
		if (wtg_table_col(t, "faults_per_page") < 0)
			a = add_metric(g, "faults per page", "", true);
		bool own = wtg_table_col(t, "pages_per_fault") >= 0;
		for (int k = 0; k < g->ncases; k++) {
			double f = wtg_table_num(t, g->first + k, cmin);
			double p = wtg_table_num(t, g->first + k, cpages);
			set_cell(g, a, k, p > 0 ? f / p : NAN, "");
			/* Linux maps around a fault: fewer faults than pages */
			if (f > 0 && f < p && b < 0 && !own)
				b = add_metric(g, "pages per fault", "", true);
		}
		for (int k = 0; k < g->ncases && b >= 0; k++) {
			double f = wtg_table_num(t, g->first + k, cmin);
			double p = wtg_table_num(t, g->first + k, cpages);
			set_cell(g, b, k, f > 0 ? p / f : NAN, "");
		}
	}
}

/* Figures under the grid; returns how many. */
static int figures(const struct tui_view *v, char fig[][256], int max)
{
	const struct wtg_table *t = v->t;
	const struct tui_look *l = v->look;
	int nfig = 0;
	int cmin = wtg_table_col(t, "minflt"), cms = wtg_table_col(t, "ms");
	bool by_difference = false;
	for (size_t i = 0; i < WTG_ARRAY_LEN(fault_difference); i++)
		by_difference = by_difference || strcmp(v->e->name, fault_difference[i]) == 0;
	if (by_difference && wtg_table_col(t, "ns_per_fault") < 0 && cmin >= 0 && cms >= 0 && t->nrows >= 2) {
		int a = 0, b = 0;	/* most and fewest faults */
		for (int r = 0; r < t->nrows; r++) {
			if (wtg_table_num(t, r, cmin) > wtg_table_num(t, a, cmin))
				a = r;
			if (wtg_table_num(t, r, cmin) < wtg_table_num(t, b, cmin))
				b = r;
		}
		double df = wtg_table_num(t, a, cmin) - wtg_table_num(t, b, cmin);
		double dt = wtg_table_num(t, a, cms) - wtg_table_num(t, b, cms);
		if (df > 0 && !isnan(dt) && nfig < max) {
			char ns[48], ta[48], tb[48], fa[32], fb[32];
			tui_fmt_value(ns, sizeof ns, dt * 1e6 / df, "ns");
			tui_fmt_value(ta, sizeof ta, wtg_table_num(t, a, cms), "ms");
			tui_fmt_value(tb, sizeof tb, wtg_table_num(t, b, cms), "ms");
			wtg_fmt_thousands(fa, sizeof fa, (int64_t)wtg_table_num(t, a, cmin));
			wtg_fmt_thousands(fb, sizeof fb, (int64_t)wtg_table_num(t, b, cmin));
			snprintf(fig[nfig++], 256, "per fault: %s = (%s %s %s) / (%s %s %s faults)", ns, ta,
				 l->g->dash, tb, fa, l->g->dash, fb);
		}
	}
	/* each "cold X" against its "warm X" */
	if (cms >= 0) {
		char line[256] = "";
		int o = 0;
		int cmaj = wtg_table_col(t, "majflt");
		for (int r = 0; r < t->nrows; r++) {
			if (!label_has(t, r, "cold"))
				continue;
			int w = partner(t, r, "cold", "warm");
			if (w < 0 || !(wtg_table_num(t, w, cms) > 0))
				continue;
			char lab[64], ratio[32], maj[64] = "";
			tui_row_label(lab, sizeof lab, t, r, NULL, 0);
			tui_fmt_num(ratio, sizeof ratio, wtg_table_num(t, r, cms) / wtg_table_num(t, w, cms));
			if (cmaj >= 0)
				snprintf(maj, sizeof maj, " (%.0f vs %.0f major faults)",
					 wtg_table_num(t, r, cmaj), wtg_table_num(t, w, cmaj));
			o += snprintf(line + o, sizeof line - (size_t)o, "%s%s / warm: %s%s%s", o ? "; " : "",
				      lab, ratio, l->g->times, maj);
			if (o >= (int)sizeof line)
				break;
		}
		if (o > 0 && nfig < max)
			snprintf(fig[nfig++], 256, "%s", line);
	}
	return nfig;
}

/* Side by side: metric names, then one right-aligned column per case with a two-line header.
 * Returns false when it does not fit. */
static bool draw_side_by_side(const struct tui_view *v, const struct grid *g, int rows)
{
	const struct tui_look *l = v->look;
	WINDOW *w = v->w;
	int mw = 0, cw = 10;
	for (int m = 0; m < g->nm; m++) {
		int x = tui_width(g->name[m]) + 2;
		mw = x > mw ? x : mw;
		for (int k = 0; k < g->ncases; k++) {
			x = tui_width(g->cell[m][k]) + 3;
			cw = x > cw ? x : cw;
		}
	}
	for (int k = 0; k < g->ncases; k++) {
		/* a header may take two lines */
		int x = (tui_width(g->head[k]) + 1) / 2 + 3;
		cw = x > cw ? x : cw;
	}
	if (g->ncases > 5 || mw + g->ncases * cw > v->wd || rows < 4)
		return false;
	if (cw < 16 && mw + g->ncases * 16 <= v->wd)
		cw = 16;
	int y = v->y;
	int hl = 1;
	for (int k = 0; k < g->ncases; k++)
		if (tui_width(g->head[k]) > cw - 1)
			hl = 2;
	for (int k = 0; k < g->ncases; k++) {
		int right = v->x + mw + (k + 1) * cw;
		char lines[2][64];
		int nl = 0;
		if (tui_width(g->head[k]) <= cw - 1 || hl == 1) {
			wtg_strlcpy(lines[nl++], g->head[k], sizeof lines[0]);
		} else {
			/* break at the last space that leaves the first part short enough */
			const char *h = g->head[k];
			int cut = -1;
			for (int i = 0; h[i]; i++)
				if (h[i] == ' ' && i <= cw - 1)
					cut = i;
			if (cut < 0)
				cut = cw - 1 < (int)strlen(h) ? cw - 1 : (int)strlen(h);
			snprintf(lines[0], sizeof lines[0], "%.*s", cut, h);
			snprintf(lines[1], sizeof lines[1], "%s", h + cut + (h[cut] == ' '));
			nl = 2;
		}
		for (int i = 0; i < nl; i++) {
			int lw = tui_width(lines[i]);
			if (lw > cw - 1)
				lw = cw - 1;
			tui_put_clip(w, y + (hl - nl) + i, right - lw, cw - 1, tui_attr(l, TR_TITLE), l,
				     lines[i]);
		}
	}
	y += hl;
	int fit = rows - hl;
	int more = g->nm > fit ? g->nm - fit + 1 : 0;	/* the last line then says how many are hidden */
	for (int m = 0; m < g->nm - more && y < v->y + rows; m++, y++) {
		attr_t na = g->derived[m] ? tui_attr(l, TR_TITLE) : tui_attr(l, TR_DIM);
		tui_put(w, y, v->x, mw - 1, na, g->name[m]);
		for (int k = 0; k < g->ncases; k++) {
			int cwid = tui_width(g->cell[m][k]);
			int right = v->x + mw + (k + 1) * cw;
			tui_put(w, y, right - cwid, cw, A_BOLD | (g->derived[m] ? tui_attr(l, TR_TITLE) : 0),
				g->cell[m][k]);
		}
	}
	if (more)
		tui_printf(w, y, v->x, v->wd, tui_attr(l, TR_DIM), "%s %d more (s saves every column)",
			   l->g->ellipsis, more);
	return true;
}

/* A table: one line per case (the latest that fit), one column per metric that fits. */
static void draw_table(const struct tui_view *v, const struct grid *g, int rows)
{
	const struct tui_look *l = v->look;
	WINDOW *w = v->w;
	int lw = 4;
	for (int k = 0; k < g->ncases; k++) {
		int x = tui_width(g->head[k]) + 2;
		lw = x > lw ? x : lw;
	}
	if (lw > v->wd / 3)
		lw = v->wd / 3;
	int x = v->x + lw;
	int shown = g->ncases < rows - 2 ? g->ncases : rows - 2;
	if (shown < 1)
		return;
	int from = g->ncases - shown;
	for (int m = 0; m < g->nm; m++) {
		int cw = tui_width(g->name[m]);
		int uw = tui_width(g->unit[m]);
		cw = uw > cw ? uw : cw;
		for (int k = from; k < g->ncases; k++) {
			int cwid = tui_width(g->bare[m][k]);
			cw = cwid > cw ? cwid : cw;
		}
		cw += 2;
		if (x + cw > v->x + v->wd)
			break;	/* the rest do not fit */
		attr_t ha = g->derived[m] ? tui_attr(l, TR_TITLE) : tui_attr(l, TR_DIM) | A_BOLD;
		tui_put(w, v->y, x + cw - tui_width(g->name[m]), cw, ha, g->name[m]);
		tui_put(w, v->y + 1, x + cw - tui_width(g->unit[m]), cw, tui_attr(l, TR_DIM), g->unit[m]);
		for (int k = from; k < g->ncases; k++)
			tui_put(w, v->y + 2 + k - from, x + cw - tui_width(g->bare[m][k]), cw,
				A_BOLD | (g->derived[m] ? tui_attr(l, TR_TITLE) : 0), g->bare[m][k]);
		x += cw;
	}
	for (int k = from; k < g->ncases; k++)
		tui_put_clip(w, v->y + 2 + k - from, v->x, lw - 1, tui_attr(l, TR_TITLE), l, g->head[k]);
}

void tui_counters_draw(const struct tui_view *v)
{
	if (v->t->nrows == 0)
		return;
	struct grid *g = calloc(1, sizeof *g);
	if (!g)
		return;
	build(g, v);
	char fig[3][256];
	int nfig = figures(v, fig, v->h > 6 ? 3 : 1);
	int rows = v->h - nfig - (nfig ? 1 : 0);
	if (!draw_side_by_side(v, g, rows))
		draw_table(v, g, rows);
	for (int i = 0; i < nfig; i++)
		tui_put_clip(v->w, v->y + v->h - nfig + i, v->x, v->wd, tui_attr(v->look, TR_TITLE), v->look,
			     fig[i]);
	free(g);
}
