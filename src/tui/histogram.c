/* histogram.c: distributions of raw samples (t->series): bins on a linear or log scale, the median,
 * p90 and p99 marked and labelled, up to three distributions stacked on one x axis, and the rows'
 * figures underneath. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wtg/stats.h"
#include "tui_internal.h"

#define MAX_DIST 3

struct dist {
	const struct wtg_series *s;
	double *sorted;
	size_t n;
	double min, med, p90, p99, max;
	int *bins;
	int peak;
};

static const enum tui_role dist_role[MAX_DIST] = { TR_S1, TR_S2, TR_S3 };

/* Column of value x on the chart's scale. */
static int col_of(double x, double lo, double hi, bool log, int cells)
{
	double f;
	if (log)
		f = x > 0 ? (log2(x) - log2(lo)) / (log2(hi) - log2(lo)) : 0;
	else
		f = hi > lo ? (x - lo) / (hi - lo) : 0;
	long c = (long)floor(f * cells);
	if (c < 0)
		c = 0;
	if (c > cells - 1)
		c = cells - 1;
	return (int)c;
}

/* The row whose label column names this series, or -1. */
static int row_for(const struct wtg_table *t, const char *name)
{
	for (int r = 0; r < t->nrows; r++)
		for (int c = 0; c < t->ncols; c++)
			if (t->rows[r].v[c].type == WTG_T_TEXT && strcmp(t->rows[r].v[c].s, name) == 0)
				return r;
	return -1;
}

static double row_num(const struct wtg_table *t, int r, const char *col, double fallback)
{
	int c = wtg_table_col(t, col);
	double v = r >= 0 && c >= 0 ? wtg_table_num(t, r, c) : NAN;
	return isnan(v) ? fallback : v;
}

/* One line of figures per distribution: the row's when there is one, else computed here. */
static void figures(char *buf, size_t len, const struct wtg_table *t, const struct dist *d,
		    const struct tui_look *l)
{
	int r = row_for(t, d->s->name);
	const char *u = d->s->unit;
	/* the rows carry ns; the samples carry their own unit */
	double k = tui_time_scale(u) > 0 ? tui_time_scale(u) : 1;
	const char *ru = tui_time_scale(u) > 0 ? "ns" : u;
	char med[32], lo[32], hi[32], p90[32], p99[32], mx[32];
	tui_fmt_value(med, sizeof med, row_num(t, r, "median_ns", d->med * k), ru);
	tui_fmt_value(p90, sizeof p90, row_num(t, r, "p90_ns", d->p90 * k), ru);
	tui_fmt_value(p99, sizeof p99, row_num(t, r, "p99_ns", d->p99 * k), ru);
	tui_fmt_value(mx, sizeof mx, row_num(t, r, "max_ns", d->max * k), ru);
	double cl = row_num(t, r, "ci_low_ns", NAN), ch = row_num(t, r, "ci_high_ns", NAN);
	char ci[80] = "";
	if (!isnan(cl) && !isnan(ch)) {
		tui_fmt_value(lo, sizeof lo, cl, ru);
		tui_fmt_value(hi, sizeof hi, ch, ru);
		snprintf(ci, sizeof ci, " [%s%s%s]", lo, l->g->dash, hi);
	}
	char drift[48] = "";
	double dp = row_num(t, r, "drift_pct", NAN);
	if (!isnan(dp))
		snprintf(drift, sizeof drift, ", drift %+.1f%%", dp);
	snprintf(buf, len, "%s: n %zu, median %s%s, p90 %s, p99 %s, max %s%s", d->s->name, d->n, med, ci, p90,
		 p99, mx, drift);
}

static void draw_ticks(const struct tui_view *v, int y, int x0, int cw, double lo, double hi, bool log,
		       bool zeros, const char *unit)
{
	const struct tui_look *l = v->look;
	attr_t ax = tui_attr(l, TR_AXIS);
	tui_repeat(v->w, y, x0, cw, ax, l->g->ax_h);
	double ticks[32];
	int nt = 0;
	if (log) {
		nt = tui_log_ticks(lo, hi, cw, 8, false, ticks, 32);
	} else {
		double raw = (hi - lo) / (cw / 9.0 > 1 ? cw / 9.0 : 1);
		double e = pow(10, floor(log10(raw))), step = 10 * e;
		if (raw <= e)
			step = e;
		else if (raw <= 2 * e)
			step = 2 * e;
		else if (raw <= 5 * e)
			step = 5 * e;
		for (double t = ceil(lo / step) * step; t <= hi + step * 1e-9 && nt < 32; t += step)
			ticks[nt++] = t;
	}
	int free_from = v->x;
	if (zeros) {
		tui_put(v->w, y + 1, x0, 1, ax, "0");
		free_from = x0 + 2;
	}
	for (int i = 0; i < nt; i++) {
		int c = col_of(ticks[i], lo, hi, log, cw);
		tui_put(v->w, y, x0 + c, 1, ax, l->g->ax_xtick);
		char t[32];
		tui_fmt_tick_time(t, sizeof t, ticks[i], unit);
		int n = tui_width(t), sx = x0 + c - n / 2;
		if (sx + n > v->x + v->wd)
			sx = v->x + v->wd - n;
		if (sx < free_from)
			continue;
		tui_put(v->w, y + 1, sx, n, ax, t);
		free_from = sx + n + 1;
	}
}

static bool span_free(const char *used, int n, int a, int b)
{
	if (a < 0 || b > n)
		return false;
	for (int j = a; j < b; j++)
		if (used[j])
			return false;
	return true;
}

/* Where label i (len columns) starts with its caret at c: right of it (side 0) or left (side 1). */
static int label_start(int c, int len, int side)
{
	return side == 0 ? c + 1 : c - len;
}

/* Carets for the median, p90 and p99 on the row under a band, and their labels: each on its own,
 * right or left of its caret, when all three fit; else percentiles too close to label one by one
 * share a label ("median/p90") beside their group. */
static void draw_marks(const struct tui_view *v, int y, int x0, int cw, const int *cols, attr_t a)
{
	static const char *const names[3] = { "median", "p90", "p99" };
	char used[512];
	int n = cw < (int)sizeof used ? cw : (int)sizeof used;
	for (int i = 0; i < 3; i++)
		tui_put(v->w, y, x0 + cols[i], 1, a | A_BOLD, v->look->g->pmark);
	/* all three on their own: try every choice of sides, rightmost preferred */
	for (int combo = 0; combo < 8; combo++) {
		memset(used, 0, sizeof used);
		for (int i = 0; i < 3; i++)
			if (cols[i] >= 0 && cols[i] < n)
				used[cols[i]] = 1;
		bool ok = true;
		int st[3];
		for (int i = 0; i < 3 && ok; i++) {
			int len = (int)strlen(names[i]);
			bool left = (combo >> i) & 1;
			st[i] = label_start(cols[i], len, left);
			int gap = left ? st[i] - 1 : st[i] + len;	/* the far side keeps a blank */
			ok = st[i] >= 0 && st[i] + len <= n && span_free(used, n, st[i], st[i] + len) &&
			     (gap < 0 || gap >= n || !used[gap]);
			if (ok)
				memset(used + st[i], 1, (size_t)len);
		}
		if (!ok)
			continue;
		for (int i = 0; i < 3; i++)
			tui_put(v->w, y, x0 + st[i], (int)strlen(names[i]), a, names[i]);
		return;
	}
	memset(used, 0, sizeof used);
	for (int i = 0; i < 3; i++)
		if (cols[i] >= 0 && cols[i] < n)
			used[cols[i]] = 1;
	for (int i = 0; i < 3;) {
		int j = i;	/* the group is i..j */
		while (j + 1 < 3 && cols[j + 1] - cols[j] <= (int)strlen(names[j]) + 1)
			j++;
		char lab[32] = "";
		for (int k = i; k <= j; k++)
			snprintf(lab + strlen(lab), sizeof lab - strlen(lab), "%s%s", k > i ? "/" : "",
				 names[k]);
		int len = (int)strlen(lab), s = -1;
		if (span_free(used, n, cols[j] + 1, cols[j] + 1 + len) &&
		    (cols[j] + 1 + len >= n || !used[cols[j] + 1 + len]))
			s = cols[j] + 1;
		else if (span_free(used, n, cols[i] - len, cols[i]) &&
			 (cols[i] - len - 1 < 0 || !used[cols[i] - len - 1]))
			s = cols[i] - len;
		if (s >= 0) {
			tui_put(v->w, y, x0 + s, len, a, lab);
			memset(used + s, 1, (size_t)len);
		}
		i = j + 1;
	}
}

void tui_hist_draw(const struct tui_view *v)
{
	const struct wtg_table *t = v->t;
	const struct tui_look *l = v->look;
	WINDOW *w = v->w;
	struct dist d[MAX_DIST];
	int nd = 0;
	memset(d, 0, sizeof d);
	/* one scale: the distributions in the first one's unit (fault counts beside times stay out) */
	for (int i = 0; i < t->nseries && nd < MAX_DIST; i++) {
		const struct wtg_series *s = &t->series[i];
		if (s->n == 0 || (nd > 0 && strcmp(s->unit, d[0].s->unit) != 0))
			continue;
		d[nd].s = s;
		d[nd].sorted = malloc(s->n * sizeof *d[nd].sorted);
		if (!d[nd].sorted)
			break;
		memcpy(d[nd].sorted, s->v, s->n * sizeof *s->v);
		wtg_sort(d[nd].sorted, s->n);
		d[nd].n = s->n;
		d[nd].min = d[nd].sorted[0];
		d[nd].max = d[nd].sorted[s->n - 1];
		d[nd].med = wtg_quantile_sorted(d[nd].sorted, s->n, 0.5);
		d[nd].p90 = wtg_quantile_sorted(d[nd].sorted, s->n, 0.9);
		d[nd].p99 = wtg_quantile_sorted(d[nd].sorted, s->n, 0.99);
		nd++;
	}
	if (nd == 0) {
		/* rows without samples still say what they measured */
		int n = t->nrows < v->h ? t->nrows : v->h;
		for (int i = 0; i < n; i++) {
			char buf[512];
			tui_row_words(buf, sizeof buf, t, t->nrows - n + i, -1);
			tui_put(w, v->y + i, v->x, v->wd, A_NORMAL, buf);
		}
		return;
	}

	/* figures underneath: one line per distribution, and the p99 ratio of two */
	int nfig = nd + (nd == 2 ? 1 : 0);
	if (nfig > v->h - 5)
		nfig = v->h - 5 > 0 ? v->h - 5 : 0;
	int fy = v->y + v->h - nfig;
	/* overlaid without colour, each distribution fills with its own glyph, in whole cells */
	int body = v->h - nfig - 2;	/* minus the x axis and its labels */
	bool stacked = nd == 1 || body / nd >= 4;
	bool own_fill = !stacked && (!l->color || l->g->vbar[1] == NULL);
	const char *const *key = own_fill ? l->g->fill : l->g->marker;
	for (int i = 0; i < nfig && i < nd; i++) {
		char buf[512];
		figures(buf, sizeof buf, t, &d[i], l);
		int o = tui_put(w, fy + i, v->x, v->wd, tui_attr(l, dist_role[i]) | A_BOLD, key[i]);
		tui_put(w, fy + i, v->x + o + 1, v->wd - o - 1, A_NORMAL, buf);
	}
	if (nd == 2 && nfig == 3 && d[0].p99 > 0) {
		char r[32];
		tui_fmt_num(r, sizeof r, d[1].p99 / d[0].p99);
		tui_printf(w, fy + 2, v->x, v->wd, A_BOLD, "p99 %s / %s = %s%s", d[1].s->name, d[0].s->name,
			   r, l->g->times);
	}

	/* one shared scale */
	double lo = INFINITY, lo_pos = INFINITY, hi = -INFINITY;
	bool zeros = false;
	for (int i = 0; i < nd; i++) {
		lo = fmin(lo, d[i].min);
		hi = fmax(hi, d[i].max);
		for (size_t k = 0; k < d[i].n; k++)
			if (d[i].sorted[k] > 0) {
				lo_pos = fmin(lo_pos, d[i].sorted[k]);
				break;
			}
	}
	bool log = tui_wants_log(lo_pos, hi);
	if (log) {
		zeros = lo <= 0;
		lo = lo_pos;
	}
	if (!(hi > lo))
		hi = log ? lo * 2 : lo + 1;

	int maxname = 0;
	for (int i = 0; i < nd; i++) {
		int n = tui_width(d[i].s->name) + 1;
		maxname = n > maxname ? n : maxname;
	}
	/* several distributions: stacked bands when each gets 3 rows and a row of marks, else one chart
	 * with the distributions overlaid (the shorter bar in front) and a row of marks each */
	int margin = nd == 1 ? 0 : stacked ? (maxname < 24 ? maxname : 24) : 2;
	int x0 = v->x + margin, cw = v->wd - margin;
	int band = stacked ? body / nd : body;
	int nmarks = stacked ? (band >= 3 ? 1 : 0) : (body - nd >= 2 ? nd : 0);
	int bh = band - nmarks;
	if (cw < 10 || bh < 1)
		goto out;
	size_t maxn = 0;
	for (int i = 0; i < nd; i++)
		maxn = d[i].n > maxn ? d[i].n : maxn;
	int nb = tui_bin_count(maxn, cw);
	double *edges = malloc((size_t)(nb + 1) * sizeof *edges);
	if (!edges)
		goto out;
	tui_bin_edges(lo, hi, nb, log, edges);
	bool eighths = l->g->vbar[1] != NULL && !own_fill;
	int units = eighths ? 8 : 1;
	int pc[MAX_DIST][3];
	long *hgt = calloc((size_t)nd * (size_t)cw, sizeof *hgt);	/* bar height of each column, units */
	if (!hgt) {
		free(edges);
		goto out;
	}
	for (int i = 0; i < nd; i++) {
		d[i].bins = calloc((size_t)nb, sizeof *d[i].bins);
		if (!d[i].bins)
			continue;
		for (size_t k = 0; k < d[i].n; k++) {
			int b = tui_bin_of(d[i].sorted[k], edges, nb);
			if (++d[i].bins[b] > d[i].peak)
				d[i].peak = d[i].bins[b];
		}
		pc[i][0] = col_of(d[i].med, lo, hi, log, cw);
		pc[i][1] = col_of(d[i].p90, lo, hi, log, cw);
		pc[i][2] = col_of(d[i].p99, lo, hi, log, cw);
		for (int c = 0; c < cw; c++) {
			int b = (int)((long)c * nb / cw);
			long h = d[i].peak ? lround((double)d[i].bins[b] / d[i].peak * bh * units) : 0;
			if (d[i].bins[b] > 0 && h < 1)
				h = 1;	/* a bin with samples never looks empty */
			hgt[(size_t)i * (size_t)cw + (size_t)c] = h;
		}
	}
	for (int i = 0; i < nd && stacked; i++) {
		int top = v->y + i * band;
		if (nd > 1)
			tui_put_clip(w, top + (bh - 1) / 2, v->x, margin - 1,
				     tui_attr(l, dist_role[i]) | A_BOLD, l, d[i].s->name);
		attr_t a = tui_attr(l, dist_role[i]);
		for (int c = 0; c < cw; c++) {
			long h = hgt[(size_t)i * (size_t)cw + (size_t)c];
			int full = (int)(h / units), part = (int)(h % units);
			for (int r = 0; r < bh; r++) {
				int y = top + bh - 1 - r;
				if (r < full)
					tui_put(w, y, x0 + c, 1, a, l->g->vbar[8]);
				else if (r == full && part)
					tui_put(w, y, x0 + c, 1, a, l->g->vbar[part]);
				else if (c == pc[i][0] || c == pc[i][1] || c == pc[i][2])
					tui_put(w, y, x0 + c, 1, tui_attr(l, TR_DIM), l->g->pline);
			}
		}
		if (nmarks)
			draw_marks(v, top + bh, x0, cw, pc[i], a);
	}
	if (!stacked) {
		for (int c = 0; c < cw; c++)
			for (int r = 0; r < bh; r++) {
				/* in front: the shortest bar that reaches this cell */
				int best = -1;
				long bh_best = 0;
				for (int i = 0; i < nd; i++) {
					long h = hgt[(size_t)i * (size_t)cw + (size_t)c];
					if (h > (long)r * units && (best < 0 || h < bh_best)) {
						best = i;
						bh_best = h;
					}
				}
				if (best < 0)
					continue;
				long h = hgt[(size_t)best * (size_t)cw + (size_t)c] - (long)r * units;
				const char *g = own_fill ? l->g->fill[best] : h >= units ? l->g->vbar[8] : l->g->vbar[h];
				tui_put(w, v->y + bh - 1 - r, x0 + c, 1, tui_attr(l, dist_role[best]), g);
			}
		for (int i = 0; i < nmarks; i++) {
			attr_t ma = tui_attr(l, dist_role[i]) | A_BOLD;
			tui_put(w, v->y + bh + i, v->x, 1, ma, key[i]);
			draw_marks(v, v->y + bh + i, x0, cw, pc[i], tui_attr(l, dist_role[i]));
		}
	}
	free(hgt);
	int axis_y = v->y + (stacked ? nd * band : body);
	draw_ticks(v, axis_y, x0, cw, lo, hi, log, zeros, d[0].s->unit);
	if (log && v->wd > 40)
		tui_put(w, axis_y, v->x + v->wd - 11, 11, tui_attr(l, TR_DIM), " log scale ");
	free(edges);
out:
	for (int i = 0; i < nd; i++) {
		free(d[i].sorted);
		free(d[i].bins);
	}
}
