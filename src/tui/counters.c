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

/* Under a grid whose cases are columns: which of them had samples that waited for a CPU. */
static void busy_line(const struct tui_view *v, const struct wtg_lay_grid *g, int y, int end)
{
	char line[512];
	int o = 0;
	for (int k = 0; k < g->ncases && o < (int)sizeof line; k++)
		if (g->busy[k])
			o += snprintf(line + o, sizeof line - (size_t)o, "%s%s", o ? ", " : "", g->head[k]);
	if (o > 0 && y < end)
		tui_printf(v->w, y, v->x, v->wd, tui_attr(v->look, TR_WARN), "%s: samples of %s waited for a CPU",
			   TUI_BUSY_TAG, line);
}

/* Side by side: metric names, then one right-aligned column per case with a two-line header.
 * Returns false when it does not fit. */
static bool draw_side_by_side(const struct tui_view *v, const struct wtg_lay_grid *g, int rows)
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
	else
		busy_line(v, g, y, v->y + rows);
	return true;
}

/* A table: one line per case (the latest that fit), one column per metric that fits. */
static void draw_table(const struct tui_view *v, const struct wtg_lay_grid *g, int rows)
{
	const struct tui_look *l = v->look;
	WINDOW *w = v->w;
	int lw = 4;
	bool busy = false;
	for (int k = 0; k < g->ncases; k++) {
		int x = tui_width(g->head[k]) + 2 + (g->busy[k] ? 1 + (int)strlen(TUI_BUSY_TAG) : 0);
		lw = x > lw ? x : lw;
		busy = busy || g->busy[k];
	}
	if (lw > v->wd / 3)
		lw = v->wd / 3;
	int x = v->x + lw;
	int shown = g->ncases < rows - 2 ? g->ncases : rows - 2;
	if (busy && shown < rows - 2)	/* a line under the rows says what the tag means */
		tui_printf(w, v->y + 2 + shown, v->x, v->wd, tui_attr(l, TR_WARN), "%s: samples waited for a CPU",
			   TUI_BUSY_TAG);
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
	for (int k = from; k < g->ncases; k++) {
		int tag = g->busy[k] ? 1 + (int)strlen(TUI_BUSY_TAG) : 0;
		int used = tui_put_clip(w, v->y + 2 + k - from, v->x, lw - 1 - tag, tui_attr(l, TR_TITLE), l, g->head[k]);
		if (tag)
			tui_put(w, v->y + 2 + k - from, v->x + used + 1, tag, tui_attr(l, TR_WARN), TUI_BUSY_TAG);
	}
}

void tui_counters_draw(const struct tui_view *v)
{
	if (v->t->nrows == 0)
		return;
	const struct wtg_table *t[WTG_LAY_MAX_RUNS];
	const char *label[WTG_LAY_MAX_RUNS];
	bool faded[WTG_LAY_MAX_RUNS];
	int n = tui_view_runs(v, t, label, faded);
	struct wtg_lay_grid *g = calloc((size_t)n + 1, sizeof *g);
	if (!g)
		return;
	if (n == 1) {
		wtg_lay_grid_build(g, v->t);
	} else {	/* a column per case and run */
		for (int k = 0; k < n; k++)
			wtg_lay_grid_build(&g[k + 1], t[k]);
		wtg_lay_grid_merge(g, g + 1, label, n, v->look->g->sep);
	}
	char fig[3][256];
	int nfig = wtg_lay_counter_figures(v->t, v->e, fig, v->h > 6 ? 3 : 1, v->look->g->dash, v->look->g->times);
	int rows = v->h - nfig - (nfig ? 1 : 0);
	if (!draw_side_by_side(v, g, rows))
		draw_table(v, g, rows);
	for (int i = 0; i < nfig; i++)
		tui_put_clip(v->w, v->y + v->h - nfig + i, v->x, v->wd, tui_attr(v->look, TR_TITLE), v->look,
			     fig[i]);
	free(g);
}
