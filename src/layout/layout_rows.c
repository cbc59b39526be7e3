/* layout_rows.c: the sweep and the bars of a table (which columns, series and groups, scales,
 * ticks, labels), before anything is drawn (wtg/layout.h). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wtg/layout.h"
#include "wtg/stats.h"
#include "wtg/util.h"

/* ---- sweep ---- */

/* The sweep the experiment declares, or NULL: then the first numeric column is x and its GB/s
 * column (or its last numeric one) y. */
static const struct wtg_sweep_spec *sweep_spec(const struct wtg_experiment *e)
{
	return e && e->sweep.x ? &e->sweep : NULL;
}

static bool numeric(const struct wtg_table *t, int c)
{
	return t->cols[c].type == WTG_T_INT || t->cols[c].type == WTG_T_REAL;
}

static int cmp_point(const void *a, const void *b)
{
	const double *p = a, *q = b;
	return (p[0] > q[0]) - (p[0] < q[0]);
}

/* Column `<name>_<suffix>`, or -1. */
static int suffixed_col(const struct wtg_table *t, const char *name, const char *suffix)
{
	char want[96];
	snprintf(want, sizeof want, "%s_%s", name, suffix);
	return wtg_table_col(t, want);
}

/* The interval column of y column `name`: `<name>_<end>`, else for a median `median_<u>` the
 * table's `<end>_<u>` (syscall's ci_low_ns beside median_ns). end is "ci_low" or "ci_high". */
static int interval_col(const struct wtg_table *t, const char *name, const char *end)
{
	int c = suffixed_col(t, name, end);
	if (c < 0 && strncmp(name, "median_", 7) == 0) {
		char want[96];
		snprintf(want, sizeof want, "%s_%s", end, name + 7);
		c = wtg_table_col(t, want);
	}
	return c;
}

/* Rows measured under different conditions (a key pressed during a run applies from the next row)
 * are never one series: cls[r] gets row r's class, the distinct conditions in order of appearance
 * (at most max; later ones join the last), names[k] their words. Returns how many classes. */
static int cond_classes(const struct wtg_table *t, int *cls, char (*names)[48], int max)
{
	int n = 0;
	const struct wtg_cond_snapshot *first[WTG_LAY_MAX_SERIES];
	for (int r = 0; r < t->nrows; r++) {
		int k = 0;
		while (k < n && !wtg_cond_same(&t->rows[r].cond, first[k]))
			k++;
		if (k == n && n < max && n < WTG_LAY_MAX_SERIES) {
			first[n] = &t->rows[r].cond;
			wtg_lay_cond_words(names[n], sizeof names[n], first[n]);
			n++;
		}
		cls[r] = k < n ? k : n - 1;
	}
	return n;
}

static void add_points(struct wtg_lay_series *s, const struct wtg_table *t, int xc, int yc, int gc,
		       const char *gval, const int *cls, int want)
{
	int cl = interval_col(t, t->cols[yc].name, "ci_low"), ch = interval_col(t, t->cols[yc].name, "ci_high");
	size_t cap = (size_t)(t->nrows > 0 ? t->nrows : 1);
	double *pts = malloc(cap * 4 * sizeof *pts);
	s->x = malloc(cap * sizeof *s->x);
	s->y = malloc(cap * sizeof *s->y);
	s->lo = malloc(cap * sizeof *s->lo);
	s->hi = malloc(cap * sizeof *s->hi);
	s->n = 0;
	if (!pts || !s->x || !s->y || !s->lo || !s->hi) {
		free(pts);
		return;
	}
	int n = 0;
	for (int r = 0; r < t->nrows; r++) {
		if (gc >= 0) {
			const struct wtg_value *g = &t->rows[r].v[gc];
			if (g->type != WTG_T_TEXT || strcmp(g->s, gval) != 0)
				continue;
		}
		if (cls && cls[r] != want)
			continue;
		double x = wtg_table_num(t, r, xc), y = wtg_table_num(t, r, yc);
		if (!(x > 0) || isnan(y) || isinf(y))
			continue;
		double *p = pts + 4 * n++;
		p[0] = x;
		p[1] = y;
		p[2] = cl >= 0 && ch >= 0 ? wtg_table_num(t, r, cl) : NAN;
		p[3] = cl >= 0 && ch >= 0 ? wtg_table_num(t, r, ch) : NAN;
	}
	qsort(pts, (size_t)n, 4 * sizeof *pts, cmp_point);
	for (int i = 0; i < n; i++) {
		s->x[i] = pts[4 * i];
		s->y[i] = pts[4 * i + 1];
		s->lo[i] = pts[4 * i + 2];
		s->hi[i] = pts[4 * i + 3];
		s->has_ci = s->has_ci || (!isnan(s->lo[i]) && !isnan(s->hi[i]));
	}
	s->n = n;
	free(pts);
}

static void series_name(char *buf, size_t len, const char *col)
{
	wtg_strlcpy(buf, col, len);
	char *u = strrchr(buf, '_');
	if (u && u != buf)
		*u = '\0';
}

/* The x column and up to three y columns: the map's, else the first numeric and the GB/s ones (or
 * the last numeric one). Returns how many y columns. */
static int sweep_columns(const struct wtg_table *t, const struct wtg_sweep_spec *m, int *xcp, int yc[3])
{
	int xc = m ? wtg_table_col(t, m->x) : -1;
	int ny = 0;
	if (m)
		for (int i = 0; i < 3 && m->y[i]; i++)
			if ((yc[ny] = wtg_table_col(t, m->y[i])) >= 0)
				ny++;
	if (xc < 0)
		for (int c = 0; c < t->ncols && xc < 0; c++)
			if (numeric(t, c))
				xc = c;
	if (ny == 0) {
		for (int c = 0; c < t->ncols && ny < 3; c++)
			if (c != xc && numeric(t, c) && t->cols[c].unit && strcmp(t->cols[c].unit, "GB/s") == 0)
				yc[ny++] = c;
		for (int c = t->ncols - 1; c >= 0 && ny == 0; c--)
			if (c != xc && numeric(t, c))
				yc[ny++] = c;
	}
	*xcp = xc;
	return ny;
}

/* One series per distinct value of the group column, first y column only. */
static void sweep_groups(struct wtg_lay_sweep *p, const struct wtg_table *t, int xc, int yc, int gc)
{
	for (int r = 0; r < t->nrows && p->ns < WTG_LAY_MAX_SERIES; r++) {
		const struct wtg_value *g = &t->rows[r].v[gc];
		if (g->type != WTG_T_TEXT || isnan(wtg_table_num(t, r, yc)) || !(wtg_table_num(t, r, xc) > 0))
			continue;
		bool seen = false;
		for (int k = 0; k < p->ns; k++)
			seen = seen || strcmp(p->s[k].name, g->s) == 0;
		if (seen)
			continue;
		wtg_strlcpy(p->s[p->ns].name, g->s, sizeof p->s[p->ns].name);
		add_points(&p->s[p->ns], t, xc, yc, gc, g->s, NULL, 0);
		p->ns++;
	}
}

/* A log y axis: from the power of ten at or below the smallest positive point (or CI end) to the one
 * at or above the largest, at least one decade. */
static void log_range(struct wtg_lay_sweep *p)
{
	double lo = INFINITY, hi = 0;
	for (int k = 0; k < p->ns; k++)
		for (int i = 0; i < p->s[k].n; i++) {
			double v[3] = { p->s[k].y[i], p->s[k].lo[i], p->s[k].hi[i] };
			for (int j = 0; j < 3; j++)
				if (v[j] > 0 && isfinite(v[j])) {
					lo = fmin(lo, v[j]);
					hi = fmax(hi, v[j]);
				}
		}
	if (!(hi > 0)) {
		p->ymin = 1;
		p->ymax = 10;
		return;
	}
	p->ymin = pow(10, floor(log10(lo) + 1e-9));
	p->ymax = pow(10, ceil(log10(hi) - 1e-9));
	if (p->ymax < p->ymin * 10)
		p->ymax = p->ymin * 10;
}

double wtg_lay_y_frac(const struct wtg_lay_sweep *p, double y)
{
	double f;
	if (p->ylog)
		f = y > 0 && p->ymin > 0 && p->ymax > p->ymin ? log(y / p->ymin) / log(p->ymax / p->ymin) : 0;
	else
		f = p->ymax > 0 ? y / p->ymax : 0;
	return isnan(f) ? 0 : fmin(fmax(f, 0), 1);
}

int wtg_lay_y_ticks(const struct wtg_lay_sweep *p, int rows, double *ticks, char (*labels)[32], int max)
{
	int n = 0;
	if (p->ylog && p->ymin > 0 && p->ymax > p->ymin) {
		int decades = (int)lround(log10(p->ymax / p->ymin));
		int step = 1;
		while (decades / step > 0 && rows < 2 * (decades / step))
			step++;
		for (int d = 0; d <= decades && n < max; d += step) {
			ticks[n] = p->ymin * pow(10, d);
			if (ticks[n] >= 1)
				wtg_lay_fmt_tick_count(labels[n], sizeof labels[n], ticks[n]);
			else
				snprintf(labels[n], sizeof labels[n], "%g", ticks[n]);
			n++;
		}
		return n;
	}
	double ymax = p->ymax > 0 ? p->ymax : 1;
	int dec = 0;
	int nt = wtg_lay_y_intervals(ymax, rows, &dec);
	for (int k = 0; k <= nt && n < max; k++, n++) {
		ticks[n] = ymax * k / nt;
		if (dec == 0 && ymax >= 10000)
			wtg_lay_fmt_tick_count(labels[n], sizeof labels[n], ticks[n]);	/* 120k, not 120000 */
		else
			snprintf(labels[n], sizeof labels[n], "%.*f", dec, ticks[n]);
	}
	return n;
}

void wtg_lay_sweep_tick_labels(const struct wtg_lay_sweep *p, const double *ticks, int n, char (*labels)[32])
{
	wtg_lay_tick_labels(labels, ticks, n, p->xunit);
	for (int i = 0; p->bytes && i < n; i++)
		wtg_lay_fmt_tick_size(labels[i], sizeof labels[i], ticks[i]);
}

void wtg_lay_sweep_widen(struct wtg_lay_sweep *axis, const struct wtg_lay_sweep *q)
{
	int points = 0;
	for (int k = 0; k < q->ns; k++)
		points += q->s[k].n;
	if (points == 0)	/* a run stopped before its first row: its default range is no data */
		return;
	if (q->xlo > 0 && (axis->xlo <= 0 || q->xlo < axis->xlo))
		axis->xlo = q->xlo;
	if (q->xhi > axis->xhi)
		axis->xhi = q->xhi;
	if (q->ymax > axis->ymax)
		axis->ymax = q->ymax;
	if (q->ylog && q->ymin > 0 && (axis->ymin <= 0 || q->ymin < axis->ymin))
		axis->ymin = q->ymin;
}

void wtg_lay_sweep_build(struct wtg_lay_sweep *p, const struct wtg_table *t, const struct wtg_experiment *e)
{
	memset(p, 0, sizeof *p);
	const struct wtg_sweep_spec *m = sweep_spec(e);
	int xc, yc[3] = { -1, -1, -1 };
	int ny = sweep_columns(t, m, &xc, yc);
	p->xcol = xc;
	p->xlo = m ? m->xlo : 0;
	p->xhi = m ? m->xhi : 0;
	p->xtitle = m ? m->xtitle : (xc >= 0 ? t->cols[xc].name : "");
	p->xunit = xc >= 0 && t->cols[xc].unit ? t->cols[xc].unit : "";
	p->yunit = ny > 0 && t->cols[yc[0]].unit ? t->cols[yc[0]].unit : "";
	if (ny > 0 && m && m->yunit && m->y[0] && strcmp(t->cols[yc[0]].name, m->y[0]) == 0)
		p->yunit = m->yunit;	/* the spec's words for its own y column */
	p->bytes = strcmp(p->xunit, "B") == 0;
	p->cache_marks = m && m->cache_marks;
	p->ylog = m && m->ylog;
	if (xc < 0 || ny == 0)
		return;
	int gc = m && m->group ? wtg_table_col(t, m->group) : -1;
	if (gc < 0)
		gc = wtg_table_col(t, "arm");	/* a paired run (--versus): a line per arm */
	int *cls = malloc((size_t)(t->nrows > 0 ? t->nrows : 1) * sizeof *cls);
	char names[WTG_LAY_MAX_SERIES][48];
	int ncls = cls ? cond_classes(t, cls, names, WTG_LAY_MAX_SERIES) : 0;
	if (ncls > 1) {
		/* a series per condition (of the first y column, groups set aside): never one line
		 * through points measured under different conditions */
		for (int k = 0; k < ncls; k++) {
			wtg_strlcpy(p->s[p->ns].name, names[k], sizeof p->s[p->ns].name);
			add_points(&p->s[p->ns], t, xc, yc[0], -1, NULL, cls, k);
			p->ns++;
		}
		p->mixed = true;
	} else if (gc >= 0) {
		sweep_groups(p, t, xc, yc[0], gc);
	} else {
		for (int i = 0; i < ny && p->ns < WTG_LAY_MAX_SERIES; i++) {
			series_name(p->s[p->ns].name, sizeof p->s[p->ns].name, t->cols[yc[i]].name);
			add_points(&p->s[p->ns], t, xc, yc[i], -1, NULL, NULL, 0);
			p->ns++;
		}
	}
	free(cls);
	p->legend = p->ns > 1 || (p->ns == 1 && gc >= 0);	/* a group column the table lacks (an older
								 * run) names no series */
	double ymax = 0;
	for (int k = 0; k < p->ns; k++)
		for (int i = 0; i < p->s[k].n; i++) {
			double x = p->s[k].x[i];
			if (p->xlo <= 0 || x < p->xlo)
				p->xlo = x;
			if (p->xhi <= 0 || x > p->xhi)
				p->xhi = x;
			ymax = fmax(ymax, p->s[k].y[i]);
			if (!isnan(p->s[k].hi[i]) && !isinf(p->s[k].hi[i]))
				ymax = fmax(ymax, p->s[k].hi[i]);
		}
	p->ymax = wtg_lay_nice_ceil(ymax);
	if (p->ylog)
		log_range(p);
}

void wtg_lay_sweep_free(struct wtg_lay_sweep *p)
{
	for (int k = 0; k < p->ns; k++) {
		free(p->s[k].x);
		free(p->s[k].y);
		free(p->s[k].lo);
		free(p->s[k].hi);
	}
	p->ns = 0;
}

/* ---- bars ---- */

/* The bars the experiment declares, or NULL: then its text columns label the bars and its first
 * timing or throughput column is the value. */
static const struct wtg_bars_spec *bars_spec(const struct wtg_experiment *e)
{
	return e && e->bars.value ? &e->bars : NULL;
}

static bool is_unit(const struct wtg_table *t, int c, const char *u)
{
	return t->cols[c].unit && strcmp(t->cols[c].unit, u) == 0;
}

static int pick_value(const struct wtg_table *t, const struct wtg_bars_spec *m)
{
	int c = m ? wtg_table_col(t, m->value) : -1;
	if (c >= 0)
		return c;
	static const char *const units[] = { "ms", "GB/s", "ns", "us", "s" };
	for (size_t u = 0; u < WTG_ARRAY_LEN(units); u++)
		for (c = 0; c < t->ncols; c++)
			if (numeric(t, c) && is_unit(t, c, units[u]))
				return c;
	for (c = t->ncols - 1; c >= 0; c--)
		if (t->cols[c].type == WTG_T_REAL)
			return c;
	return -1;
}

/* The bar's label: the map's columns (numeric ones named when asked), n/a cells left out. */
static void bar_label(char *buf, size_t len, const struct wtg_table *t, int r, const struct wtg_bars_spec *m)
{
	if (!m) {
		wtg_lay_row_label(buf, len, t, r, NULL, 0);
		return;
	}
	size_t o = 0;
	bool one = false;	/* the last label is the count 1: "1 thread" */
	buf[0] = '\0';
	for (int i = 0; i < 2 && m->label[i]; i++) {
		int c = wtg_table_col(t, m->label[i]);
		if (c < 0)
			continue;
		const struct wtg_value *v = &t->rows[r].v[c];
		char cell[96];
		if (v->type == WTG_T_TEXT) {
			wtg_strlcpy(cell, v->s, sizeof cell);
		} else {
			double x = wtg_table_num(t, r, c);
			if (isnan(x))
				continue;
			one = x == 1;
			char num[64];
			wtg_lay_fmt_value(num, sizeof num, x, t->cols[c].unit);
			if (m->named)
				snprintf(cell, sizeof cell, "%s %s", t->cols[c].name, num);
			else
				wtg_strlcpy(cell, num, sizeof cell);
		}
		int k = snprintf(buf + o, len - o, "%s%s", o ? " " : "", cell);
		if (k < 0 || (size_t)k >= len - o)
			return;
		o += (size_t)k;
	}
	if (m->ideal)
		snprintf(buf + o, len - o, "%s", one ? " thread" : " threads");
}

/* Colour by the first label when it names at most three groups (kernels, loops, variants). */
static void bar_groups(struct wtg_lay_bars *b, const struct wtg_table *t, int lc0)
{
	bool grouped = lc0 >= 0 && t->cols[lc0].type == WTG_T_TEXT;
	b->ngroups = 0;
	for (int r = 0; r < b->n && grouped; r++) {
		const char *g = t->rows[r].v[lc0].s;
		int k = 0;
		while (k < b->ngroups && strcmp(b->groups[k], g) != 0)
			k++;
		if (k == b->ngroups) {
			if (b->ngroups == 3)
				grouped = false;
			else
				b->groups[b->ngroups++] = g;
		}
		b->b[r].group = k;
	}
	if (!grouped) {
		b->ngroups = 0;
		for (int r = 0; r < b->n; r++)
			b->b[r].group = -1;
	}
}

/* Rows measured under different conditions: the bars are coloured by condition instead (their
 * words in groups[]), so a bar never passes for one run's when it is another's. */
static void bar_cond_groups(struct wtg_lay_bars *b, const struct wtg_table *t)
{
	int *cls = malloc((size_t)(t->nrows > 0 ? t->nrows : 1) * sizeof *cls);
	int n = cls ? cond_classes(t, cls, b->cond_names, 3) : 0;
	if (n > 1) {
		b->mixed = true;
		b->ngroups = n;
		for (int k = 0; k < n; k++)
			b->groups[k] = b->cond_names[k];
		for (int r = 0; r < b->n && r < t->nrows; r++)
			b->b[r].group = cls[r];
	}
	free(cls);
}

/* The interval columns of a bar: the map's, else `<value>_ci_low` and `<value>_ci_high`. */
static void bar_ci_cols(const struct wtg_table *t, const struct wtg_bars_spec *m, int vc, int *cl, int *ch)
{
	*cl = m && m->ci[0] ? wtg_table_col(t, m->ci[0]) : -1;
	*ch = m && m->ci[1] ? wtg_table_col(t, m->ci[1]) : -1;
	if (*cl < 0 || *ch < 0) {
		*cl = suffixed_col(t, t->cols[vc].name, "ci_low");
		*ch = suffixed_col(t, t->cols[vc].name, "ci_high");
	}
}

int wtg_lay_bars_build(struct wtg_lay_bars *b, const struct wtg_table *t, const struct wtg_experiment *e)
{
	memset(b, 0, sizeof *b);
	b->base = NAN;
	const struct wtg_bars_spec *m = bars_spec(e);
	int vc = pick_value(t, m);
	if (vc < 0 || t->nrows == 0)
		return -1;
	b->b = calloc((size_t)t->nrows, sizeof *b->b);
	if (!b->b)
		return -1;
	b->n = t->nrows;
	int ec = m && m->extra ? wtg_table_col(t, m->extra) : -1, cl, ch;
	bar_ci_cols(t, m, vc, &cl, &ch);
	b->unit = t->cols[vc].unit ? t->cols[vc].unit : "";
	int lc0 = m ? wtg_table_col(t, m->label[0]) : -1;
	/* the count the ideal scales by: the first numeric label (threads after a text group) */
	int nc = m && m->label[1] && (lc0 < 0 || t->cols[lc0].type == WTG_T_TEXT) ? wtg_table_col(t, m->label[1]) : lc0;
	b->ideal = m && m->ideal;
	/* the table's own ideal (threads: capped at the CPUs) wins over 1 thread x N */
	int ic = b->ideal ? wtg_table_col(t, "ideal_gbps") : -1;
	b->ideal_capped = ic >= 0;
	const int pc = ic >= 0 ? wtg_table_col(t, "parts_ratio") : -1;
	for (int r = 0; pc >= 0 && r < b->n; r++)
		b->ideal_parts += isfinite(wtg_table_num(t, r, pc));
	for (int r = 0; r < b->n && b->ideal && nc >= 0; r++)
		if (wtg_table_num(t, r, nc) == 1 && isnan(b->base))
			b->base = wtg_table_num(t, r, vc);
	double vmax = 0;
	const int busy_col = wtg_table_col(t, "contended");
	int moves_col = wtg_table_col(t, "moves");
	moves_col = moves_col >= 0 && t->cols[moves_col].type == WTG_T_TEXT ? moves_col : -1;
	for (int r = 0; r < b->n; r++) {
		struct wtg_lay_bar *br = &b->b[r];
		br->busy = busy_col >= 0 && wtg_table_num(t, r, busy_col) > 0;
		b->busy = b->busy || br->busy;
		bar_label(br->label, sizeof br->label, t, r, m);
		br->x = wtg_table_num(t, r, vc);
		wtg_lay_fmt_value(br->value, sizeof br->value, br->x, b->unit);
		if (ec >= 0 && !isnan(wtg_table_num(t, r, ec))) {
			char w[64];
			wtg_lay_cell_words(w, sizeof w, t, r, ec);
			size_t o = strlen(br->value);
			snprintf(br->value + o, sizeof br->value - o, "  %s", w);
		}
		if (moves_col >= 0 && t->rows[r].v[moves_col].s && t->rows[r].v[moves_col].s[0]) {
			size_t o = strlen(br->value);	/* threads: where a worker moved, beside its bar */
			snprintf(br->value + o, sizeof br->value - o, "  %s", t->rows[r].v[moves_col].s);
		}
		vmax = fmax(vmax, fabs(br->x));
		b->neg = b->neg || br->x < 0;
		br->ci_lo = cl >= 0 && ch >= 0 ? wtg_table_num(t, r, cl) : NAN;
		br->ci_hi = cl >= 0 && ch >= 0 ? wtg_table_num(t, r, ch) : NAN;
		if (!isnan(br->ci_lo) && !isnan(br->ci_hi)) {
			vmax = fmax(vmax, fmax(fabs(br->ci_lo), fabs(br->ci_hi)));
			b->neg = b->neg || br->ci_lo < 0;
			b->has_ci = true;
		}
		br->ideal = ic >= 0				 ? wtg_table_num(t, r, ic)
			    : b->ideal && nc >= 0 && b->base > 0 ? b->base * wtg_table_num(t, r, nc)
								  : NAN;
	}
	b->scale = vmax;
	for (int r = 0; r < b->n; r++)
		if (b->b[r].ideal > b->scale && b->b[r].ideal <= 3 * vmax)
			b->scale = b->b[r].ideal;
	if (!(b->scale > 0))
		b->scale = 1;
	bar_groups(b, t, lc0);
	bar_cond_groups(b, t);
	for (int r = 0; r < b->n; r++)
		b->b[r].run = -1;
	return 0;
}

int wtg_lay_bars_merge(struct wtg_lay_bars *out, const struct wtg_lay_bars *in, int n)
{
	int total = 0, last = -1;
	memset(out, 0, sizeof *out);
	out->base = NAN;
	for (int k = 0; k < n; k++)
		if (in[k].n > 0) {
			total += in[k].n;
			last = k;
		}
	if (total == 0 || !(out->b = calloc((size_t)total, sizeof *out->b)))
		return -1;
	const struct wtg_lay_bars *l = &in[last];
	out->unit = l->unit;
	out->base = l->base;
	out->ideal = l->ideal;
	out->ideal_capped = l->ideal_capped;
	out->ideal_parts = l->ideal_parts;	/* the ideal marks are the last run's */
	out->scale = 0;
	/* each label in the order it first appears, then every run's bar of that label */
	for (int k = 0; k < n; k++)
		for (int i = 0; i < in[k].n; i++) {
			const char *label = in[k].b[i].label;
			bool seen = false;
			for (int j = 0; j < out->n && !seen; j++)
				seen = strcmp(out->b[j].label, label) == 0;
			for (int q = k; q < n && !seen; q++)
				for (int r = 0; r < in[q].n; r++)
					if (strcmp(in[q].b[r].label, label) == 0) {
						struct wtg_lay_bar *o = &out->b[out->n++];
						*o = in[q].b[r];
						o->run = q;
						o->first = q == k;
						if (q != last)
							o->ideal = NAN;
						break;
					}
		}
	for (int k = 0; k < n; k++) {
		out->scale = fmax(out->scale, in[k].n ? in[k].scale : 0);
		out->neg = out->neg || in[k].neg;
		out->has_ci = out->has_ci || in[k].has_ci;
		out->busy = out->busy || in[k].busy;
	}
	if (!(out->scale > 0))
		out->scale = 1;
	return 0;
}

int wtg_lay_bars_build_runs(struct wtg_lay_bars *out, const struct wtg_table *const *t, int n,
			    const struct wtg_experiment *e)
{
	if (n == 1)
		return wtg_lay_bars_build(out, t[0], e);
	struct wtg_lay_bars in[WTG_LAY_MAX_RUNS];
	memset(in, 0, sizeof in);
	n = n < WTG_LAY_MAX_RUNS ? n : WTG_LAY_MAX_RUNS;
	for (int k = 0; k < n; k++)
		if (wtg_lay_bars_build(&in[k], t[k], e) < 0)
			memset(&in[k], 0, sizeof in[k]);
	int rc = wtg_lay_bars_merge(out, in, n);
	for (int k = 0; k < n; k++)
		wtg_lay_bars_free(&in[k]);
	for (int i = 0; rc == 0 && i < out->n; i++)
		if (!out->b[i].first)
			out->b[i].label[0] = '\0';
	return rc;
}

void wtg_lay_bars_free(struct wtg_lay_bars *b)
{
	free(b->b);
	b->b = NULL;
	b->n = 0;
}
