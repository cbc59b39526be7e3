/* counters.c: large numbers per row (one column per case) with the derivations a reader wants:
 * faults per page, pages per fault, ns per fault from a difference, cold/warm ratio, and
 * differences from a control row. Every derivation is computed from the row's own columns. */
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
	{ "bytes", "bytes" },
};

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

#define MAX_LINES 24
#define MAX_CASES 8

struct grid {
	int ncases, first;		/* rows shown: first .. first + ncases - 1 */
	char head[MAX_CASES][64];
	int nlines;
	char name[MAX_LINES][48];
	char cell[MAX_LINES][MAX_CASES][48];
	enum tui_role role[MAX_LINES];
};

static void add_line(struct grid *g, const char *name, enum tui_role role)
{
	if (g->nlines >= MAX_LINES)
		return;
	wtg_strlcpy(g->name[g->nlines], name, sizeof g->name[0]);
	for (int k = 0; k < MAX_CASES; k++)
		g->cell[g->nlines][k][0] = '\0';
	g->role[g->nlines++] = role;
}

static bool label_has(const struct wtg_table *t, int r, const char *word)
{
	for (int c = 0; c < t->ncols; c++)
		if (t->rows[r].v[c].type == WTG_T_TEXT && strstr(t->rows[r].v[c].s, word))
			return true;
	return false;
}

void tui_counters_draw(const struct tui_view *v)
{
	const struct wtg_table *t = v->t;
	const struct tui_look *l = v->look;
	WINDOW *w = v->w;
	struct grid *g = calloc(1, sizeof *g);
	if (!g || t->nrows == 0) {
		free(g);
		return;
	}
	int n = t->nrows;
	g->ncases = n < MAX_CASES ? n : MAX_CASES;
	g->first = n - g->ncases;
	int label_cols = 0;
	for (int k = 0; k < g->ncases; k++)
		tui_row_label(g->head[k], sizeof g->head[k], t, g->first + k, NULL, 0);
	for (int c = 0; c < t->ncols; c++)
		if (t->cols[c].type == WTG_T_TEXT)
			label_cols++;
	if (label_cols == 0)
		for (int k = 0; k < g->ncases; k++)
			snprintf(g->head[k], sizeof g->head[k], "row %d", g->first + k + 1);

	/* the measured columns */
	for (int c = 0; c < t->ncols; c++) {
		if (t->cols[c].type == WTG_T_TEXT)
			continue;
		char nm[48];
		metric_name(nm, sizeof nm, t->cols[c].name);
		add_line(g, nm, TR_NORMAL);
		for (int k = 0; k < g->ncases; k++)
			tui_fmt_value(g->cell[g->nlines - 1][k], sizeof g->cell[0][0],
				      wtg_table_num(t, g->first + k, c), t->cols[c].unit);
	}

	/* derivations from the row's own columns */
	int cmin = wtg_table_col(t, "minflt"), cpages = wtg_table_col(t, "pages"), cms = wtg_table_col(t, "ms");
	int cnsf = wtg_table_col(t, "ns_per_fault");
	if (cmin >= 0 && cpages >= 0) {
		add_line(g, "faults per page", TR_TITLE);
		int a = g->nlines - 1;
		add_line(g, "pages per fault", TR_TITLE);
		int b = g->nlines - 1;
		for (int k = 0; k < g->ncases; k++) {
			double f = wtg_table_num(t, g->first + k, cmin), p = wtg_table_num(t, g->first + k, cpages);
			tui_fmt_value(g->cell[a][k], sizeof g->cell[0][0], p > 0 ? f / p : NAN, "");
			tui_fmt_value(g->cell[b][k], sizeof g->cell[0][0], f > 0 ? p / f : NAN, "");
		}
	}
	if (cmin >= 0 && cms < 0 && n >= 2) {
		/* counting only: each case against the first one, the control */
		char nm[96];
		snprintf(nm, sizeof nm, "minor above %.30s", g->head[0]);
		add_line(g, nm, TR_TITLE);
		double base = wtg_table_num(t, g->first, cmin);
		for (int k = 0; k < g->ncases; k++) {
			double d = wtg_table_num(t, g->first + k, cmin) - base;
			if (k == 0)
				wtg_strlcpy(g->cell[g->nlines - 1][k], l->g->dash, sizeof g->cell[0][0]);
			else
				snprintf(g->cell[g->nlines - 1][k], sizeof g->cell[0][0], "%+.0f", d);
		}
	}

	/* single figures under the grid */
	char fig[3][256];
	int nfig = 0;
	if (cmin >= 0 && cms >= 0 && cnsf < 0 && n >= 2) {
		int a = 0, b = 0;	/* most and fewest faults */
		for (int r = 0; r < n; r++) {
			if (wtg_table_num(t, r, cmin) > wtg_table_num(t, a, cmin))
				a = r;
			if (wtg_table_num(t, r, cmin) < wtg_table_num(t, b, cmin))
				b = r;
		}
		double df = wtg_table_num(t, a, cmin) - wtg_table_num(t, b, cmin);
		double dt = wtg_table_num(t, a, cms) - wtg_table_num(t, b, cms);
		/* only when the cases differ by enough faults for the difference to mean something */
		if (df >= 100 && !isnan(dt)) {
			char ns[48], ta[48], tb[48], fa[32], fb[32];
			tui_fmt_value(ns, sizeof ns, dt * 1e6 / df, "ns");
			tui_fmt_value(ta, sizeof ta, wtg_table_num(t, a, cms), "ms");
			tui_fmt_value(tb, sizeof tb, wtg_table_num(t, b, cms), "ms");
			wtg_fmt_thousands(fa, sizeof fa, (int64_t)wtg_table_num(t, a, cmin));
			wtg_fmt_thousands(fb, sizeof fb, (int64_t)wtg_table_num(t, b, cmin));
			snprintf(fig[nfig++], sizeof fig[0], "per fault: %s = (%s %s %s) / (%s %s %s faults)", ns, ta,
				 l->g->dash, tb, fa, l->g->dash, fb);
		}
	}
	int rc = -1, rw = -1;
	for (int r = 0; r < n; r++) {
		if (label_has(t, r, "cold"))
			rc = r;
		if (label_has(t, r, "warm"))
			rw = r;
	}
	if (rc >= 0 && rw >= 0 && cms >= 0 && wtg_table_num(t, rw, cms) > 0) {
		char ratio[32];
		tui_fmt_num(ratio, sizeof ratio, wtg_table_num(t, rc, cms) / wtg_table_num(t, rw, cms));
		int cmaj = wtg_table_col(t, "majflt");
		char maj[96] = "";
		if (cmaj >= 0)
			snprintf(maj, sizeof maj, ", major faults %.0f cold vs %.0f warm", wtg_table_num(t, rc, cmaj),
				 wtg_table_num(t, rw, cmaj));
		snprintf(fig[nfig++], sizeof fig[0], "cold / warm = %s%s the time%s", ratio, l->g->times, maj);
	}

	/* lay out: metric names, then one column per case */
	int mw = 0;
	for (int i = 0; i < g->nlines; i++) {
		int x = tui_width(g->name[i]);
		mw = x > mw ? x : mw;
	}
	mw += 2;
	int cwid = 10;
	for (int k = 0; k < g->ncases; k++) {
		int x = tui_width(g->head[k]) + 2;
		cwid = x > cwid ? x : cwid;
		for (int i = 0; i < g->nlines; i++) {
			x = tui_width(g->cell[i][k]) + 2;
			cwid = x > cwid ? x : cwid;
		}
	}
	if (mw > v->wd / 3)
		mw = v->wd / 3;
	if (mw + g->ncases * cwid > v->wd)
		cwid = (v->wd - mw) / g->ncases;
	int room = v->h - nfig - (nfig ? 1 : 0);
	int y = v->y;
	if (room > 0) {
		for (int k = 0; k < g->ncases; k++) {
			int wd = tui_width(g->head[k]);
			int x = v->x + mw + (k + 1) * cwid - wd;
			tui_put(w, y, x < v->x + mw + k * cwid ? v->x + mw + k * cwid : x, cwid, tui_attr(l, TR_TITLE),
				g->head[k]);
		}
		y++;
	}
	for (int i = 0; i < g->nlines && y < v->y + room; i++, y++) {
		tui_put(w, y, v->x, mw - 1, i < g->nlines && g->role[i] == TR_TITLE ? tui_attr(l, TR_DIM) | A_BOLD
										      : tui_attr(l, TR_DIM), g->name[i]);
		for (int k = 0; k < g->ncases; k++) {
			int wd = tui_width(g->cell[i][k]);
			int x = v->x + mw + (k + 1) * cwid - wd;
			tui_put(w, y, x, cwid, A_BOLD | (g->role[i] == TR_TITLE ? tui_attr(l, TR_TITLE) : 0),
				g->cell[i][k]);
		}
	}
	y = v->y + v->h - nfig;
	for (int i = 0; i < nfig; i++)
		tui_put(w, y + i, v->x, v->wd, tui_attr(l, TR_TITLE), fig[i]);
	free(g);
}
