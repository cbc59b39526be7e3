/* bars.c: horizontal labelled bars with values and units. The threads view marks ideal scaling (the
 * 1-thread figure times N); signed values (compare's paired differences) grow both ways from a zero
 * line, with a confidence interval drawn as brackets where the table gives one. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui_internal.h"

/* A bar growing left from x_right (exclusive) over frac of width cells, in half cells. */
static void left_bar(WINDOW *w, int y, int x_right, int width, double frac, attr_t a,
		     const struct tui_look *l)
{
	long halves = lround(frac * width * 2);
	if (halves < 1)
		halves = 1;
	int full = (int)(halves / 2);
	tui_repeat(w, y, x_right - full, full, a, l->g->hbar[8]);
	if (halves % 2 && full < width)
		tui_put(w, y, x_right - full - 1, 1, a, l->g->lhalf);
}

/* The column of a signed value: left of the zero line over half cells, right of it over the rest. */
static int signed_col(double x, double scale, int zc, int half, int bw)
{
	if (x < 0)
		return zc - (int)lround(-x / scale * half);
	return zc + (int)lround(x / scale * (bw - half - 1));
}

/* Under the bars: the ideal-scaling key, the signed scale with the CI key, the ratio of two bars. */
static void bars_notes(const struct tui_view *v, const struct wtg_lay_bars *lb, int y, int end, int lw, int bw,
		       int vw)
{
	const struct tui_look *l = v->look;
	WINDOW *w = v->w;
	const struct wtg_lay_bar *b = lb->b;
	int bx = v->x + lw + 1, zc = bx + (lb->neg ? bw / 2 : 0);
	if (lb->ideal && y < end) {
		char idl[64], key[160], parts[48] = "";
		tui_fmt_value(idl, sizeof idl, lb->base, lb->unit);
		if (lb->ideal_parts)
			snprintf(parts, sizeof parts, "%s parts/whole on %d row%s", l->g->times, lb->ideal_parts,
				 lb->ideal_parts == 1 ? "" : "s");
		snprintf(key, sizeof key, "%s ideal scaling: %s (1 thread) %s %s%s", l->g->ideal, idl, l->g->times,
			 lb->ideal_capped ? "min(N, CPUs)" : "N", isnan(lb->base) ? " (waiting for the 1-thread row)" : "");
		const int room = v->wd - lw - 1;
		/* the rows whose ideal carries their parts' gain: on the key's line where it fits, else below */
		if (parts[0] && tui_width(key) + 2 + tui_width(parts) <= room) {
			tui_printf(w, y++, bx, room, tui_attr(l, TR_WARN), "%s, %s", key, parts);
		} else {
			tui_put(w, y++, bx, room, tui_attr(l, TR_WARN), key);
			if (parts[0] && y < end)
				tui_printf(w, y++, bx, room, tui_attr(l, TR_WARN), "  %s", parts);
		}
	}
	if (lb->neg && y < end) {
		char lo[32], hi[32];
		tui_fmt_value(lo, sizeof lo, -lb->scale, lb->unit);
		tui_fmt_value(hi, sizeof hi, lb->scale, lb->unit);
		tui_put(w, y, bx, lw, tui_attr(l, TR_DIM), lo);
		tui_put(w, y, zc, 1, tui_attr(l, TR_DIM), "0");
		tui_put(w, y, bx + bw - tui_width(hi), bw, tui_attr(l, TR_DIM), hi);
		if (lb->has_ci)
			tui_put(w, y, bx + bw + 1, vw, tui_attr(l, TR_WARN), "[ ] 95% CI");
		y++;
	} else if (lb->has_ci && y < end) {
		tui_put(w, y++, bx, bw, tui_attr(l, TR_WARN), "[ ] 95% CI of the median");
	}
	if (lb->busy && y < end)
		tui_printf(w, y++, bx, v->wd - lw - 1, tui_attr(l, TR_WARN), "%s: samples waited for a CPU", TUI_BUSY_TAG);
	if (lb->mixed && y < end) {
		/* a key changed the conditions during the run: which colour is which */
		int x = bx;
		for (int k = 0; k < lb->ngroups && x < v->x + v->wd; k++) {
			attr_t a = tui_attr(l, (enum tui_role)(TR_S1 + k));
			x += tui_put(w, y, x, v->x + v->wd - x, a | A_BOLD, l->g->fill[k]);
			x += tui_printf(w, y, x, v->x + v->wd - x, A_NORMAL, " %s  ", lb->groups[k]);
		}
		tui_put(w, y++, x, v->x + v->wd - x, tui_attr(l, TR_DIM), "(conditions changed during the run)");
	}
	if (lb->n == 2 && b[0].run < 0 && !lb->neg && b[0].x > 0 && b[1].x > 0 && y < end) {
		int hi = b[0].x >= b[1].x ? 0 : 1;
		char ratio[32];
		tui_fmt_num(ratio, sizeof ratio, b[hi].x / b[1 - hi].x);
		tui_printf(w, y++, bx, v->wd - lw - 1, A_BOLD, "%s / %s = %s%s", b[hi].label, b[1 - hi].label,
			   ratio, l->g->times);
	}
}

/* The column where a bar of value x (>= 0) from bx over bw columns ends. */
static int bar_col(double x, double scale, int bx, int bw)
{
	int c = (int)lround(x / scale * bw) - 1;
	return bx + (c < 0 ? 0 : c > bw - 1 ? bw - 1 : c);
}

/* The runs of a view as one set of bars: one run's, or several runs' grouped by label, each bar's
 * value led by its run's mark; the legend of the runs on the view's first line. */
static int runs_bars(struct tui_view *v, struct wtg_lay_bars *lb, bool *faded)
{
	const struct wtg_table *t[WTG_LAY_MAX_RUNS];
	const char *label[WTG_LAY_MAX_RUNS];
	int n = tui_view_runs(v, t, label, faded);
	if (n == 1)
		return wtg_lay_bars_build(lb, v->t, v->e);
	if (wtg_lay_bars_build_runs(lb, t, n, v->e) < 0)
		return -1;
	for (int i = 0; i < lb->n; i++) {
		struct wtg_lay_bar *b = &lb->b[i];
		char val[sizeof b->value + 8];
		snprintf(val, sizeof val, "%s %s", tui_run_marker(v->look, b->run), b->value);
		wtg_strlcpy(b->value, val, sizeof b->value);
	}
	int x = v->x;
	for (int k = 0; k < n && x < v->x + v->wd; k++) {
		attr_t a = tui_attr(v->look, tui_run_role(k, faded[k]));
		x += tui_put(v->w, v->y, x, v->x + v->wd - x, a | A_BOLD, tui_run_marker(v->look, k));
		x += tui_printf(v->w, v->y, x, v->x + v->wd - x, a, " %s   ", label[k]);
	}
	v->y++;
	v->h--;
	return 0;
}

/* where the bars go: their column and width, the scale, the zero line when values are signed */
struct bar_geom {
	int bx, bw, half, zc;
	double scale;
	bool neg;
};

/* one bar, 1-3 lines thick from line y: the bar, its ideal mark and its CI whiskers (on the middle line) */
static void draw_bar(const struct tui_view *v, const struct wtg_lay_bar *b, const bool *faded,
		     const struct bar_geom *g, int y, int thick)
{
	const struct tui_look *l = v->look;
	WINDOW *w = v->w;
	int mid = y + thick / 2, bx = g->bx, bw = g->bw, half = g->half, zc = g->zc;
	double scale = g->scale;
	bool neg = g->neg;
	enum tui_role role = b->run >= 0     ? tui_run_role(b->run, faded[b->run])
			     : b->group >= 0 ? (enum tui_role)(TR_S1 + b->group)
					     : TR_BAR;
	attr_t a = tui_attr(l, role);
	for (int yy = y; yy < y + thick; yy++) {
		if (!neg) {
			if (b->x > 0)
				tui_hbar(w, yy, bx, bw, b->x / scale, a, l);
		} else {
			tui_put(w, yy, zc, 1, tui_attr(l, TR_AXIS), l->g->ax_v);
			if (b->x > 0)
				tui_hbar(w, yy, zc + 1, bw - half - 1, b->x / scale, a, l);
			else if (b->x < 0)
				left_bar(w, yy, zc, half, -b->x / scale, a, l);
		}
		if (b->ideal > 0) {
			if (b->ideal <= scale) {
				int c = (int)lround(b->ideal / scale * bw) - 1;
				tui_put(w, yy, bx + (c < 0 ? 0 : c), 1, tui_attr(l, TR_WARN), l->g->ideal);
			} else {
				tui_put(w, yy, bx + bw - 1, 1, tui_attr(l, TR_WARN), l->g->right);
			}
		}
	}
	if (!isnan(b->ci_lo) && !isnan(b->ci_hi)) {
		/* the 95% CI as whiskers on the bar's middle line */
		attr_t wa = tui_attr(l, TR_WARN) | A_BOLD;
		int ka = neg ? signed_col(b->ci_lo, scale, zc, half, bw) : bar_col(b->ci_lo, scale, bx, bw);
		int kb = neg ? signed_col(b->ci_hi, scale, zc, half, bw) : bar_col(b->ci_hi, scale, bx, bw);
		tui_put(w, mid, ka, 1, wa, ka == kb ? "|" : "[");
		if (kb != ka)
			tui_put(w, mid, kb, 1, wa, "]");
	}
}

void tui_bars_draw(const struct tui_view *in)
{
	struct tui_view vv = *in, *v = &vv;
	const struct wtg_table *t = v->t;
	const struct tui_look *l = v->look;
	WINDOW *w = v->w;
	struct wtg_lay_bars lb;
	bool faded[WTG_LAY_MAX_RUNS];
	if (runs_bars(v, &lb, faded) < 0)
		return;
	const struct wtg_lay_bar *b = lb.b;
	int n = lb.n;
	double scale = lb.scale;
	bool neg = lb.neg;
	int lw = 1, vw = 1;
	for (int r = 0; r < n; r++) {
		int a = tui_width(b[r].label), c = tui_width(b[r].value);
		lw = a > lw ? a : lw;
		vw = c > vw ? c : vw;
	}
	if (lb.busy)	/* room for the tag after a busy bar's value */
		vw += 1 + tui_width(TUI_BUSY_TAG);
	if (lw > v->wd / 3)
		lw = v->wd / 3;
	int bw = v->wd - lw - vw - 3;
	if (bw < 4) {
		vw = v->wd - lw - 7;
		bw = 4;
	}

	/* the rows that fit (the latest ones), then the rows in words underneath as room allows */
	int extra_lines = (lb.ideal ? 1 : 0) + (n == 2 && b[0].run < 0 && !neg ? 1 : 0) + (neg ? 1 : 0) +
			  (lb.mixed ? 1 : 0) + (lb.busy ? 1 : 0);
	int words = v->h - n - extra_lines;
	if (words > t->nrows)
		words = t->nrows;
	if (words < 1)
		words = v->h - extra_lines >= 4 ? 1 : 0;
	for (int i = 0; i < words; i++) {
		char buf[512];
		tui_row_words(buf, sizeof buf, t, t->nrows - words + i, -1);
		tui_put_clip(w, v->y + v->h - words + i, v->x, v->wd, A_NORMAL, l, buf);
	}
	int room = v->h - extra_lines - words;
	int first = n > room ? n - room : 0, last = n;
	int y = v->y;
	if (first > 0 && room > 1) {
		/* a long table: the latest rows, or those Up scrolled back to; a line says which */
		first++;
		int back = v->scroll < first ? v->scroll : first;
		first -= back;
		last -= back;
		tui_printf(w, y++, v->x, v->wd, tui_attr(l, TR_DIM), "bars %d-%d of %d (Up/Down scroll)", first + 1,
			   last, n);
	}
	int bx = v->x + lw + 1;
	int half = neg ? bw / 2 : 0, zc = bx + half;	/* signed: the zero line's column */
	int end = v->y + v->h - words;
	/* with room to spare (a tall terminal in front of a class) bars get thicker, up to three lines,
	 * with a blank line between them; label, value and marks stay on the middle line */
	int shown = last - first, per = shown > 0 ? (end - y - extra_lines) / shown : 1;
	int thick = per >= 3 ? (per - 1 > 3 ? 3 : per - 1) : 1, gap = per >= 3 ? 1 : 0;
	int drawn = 0;
	for (int r = first; r < last && y + thick <= end; r++, y += thick + gap, drawn++) {
		int mid = y + thick / 2;
		int lx = v->x + lw - tui_width(b[r].label);
		tui_put_clip(w, mid, lx < v->x ? v->x : lx, lw, A_BOLD, l, b[r].label);
		struct bar_geom g = {.bx = bx, .bw = bw, .half = half, .zc = zc, .scale = scale, .neg = neg};
		draw_bar(v, &b[r], faded, &g, y, thick);
		int used = tui_put(w, mid, bx + bw + 1, vw, A_BOLD, b[r].value);
		if (b[r].busy)
			tui_put(w, mid, bx + bw + 2 + used, vw - used - 1, tui_attr(l, TR_WARN), TUI_BUSY_TAG);
	}
	if (drawn)
		y -= gap;	/* no blank line after the last bar */
	bars_notes(v, &lb, y, end, lw, bw, vw);
	wtg_lay_bars_free(&lb);
}
