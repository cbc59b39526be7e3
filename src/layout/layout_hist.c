/* layout_hist.c: a table's samples as distributions, before they are drawn (wtg/layout.h): the
 * runs' series, their bins on a shared scale, and each one's line of figures. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wtg/layout.h"
#include "wtg/stats.h"
#include "wtg/util.h"

/* ---- histogram ---- */

/* Add series s of t as a distribution: false when it has no samples or is not in the first's unit. */
static bool add_dist(struct wtg_lay_hist *h, const struct wtg_table *t, const struct wtg_series *s, const char *name)
{
	struct wtg_lay_dist *d = &h->d[h->nd];
	if (s->n == 0 || (h->nd > 0 && strcmp(s->unit, h->d[0].s->unit) != 0))
		return false;
	d->sorted = malloc(s->n * sizeof *d->sorted);
	if (!d->sorted)
		return false;
	d->s = s;
	d->t = t;
	d->name = name;
	d->label = "";
	memcpy(d->sorted, s->v, s->n * sizeof *s->v);
	wtg_sort(d->sorted, s->n);
	d->n = s->n;
	d->min = d->sorted[0];
	d->max = d->sorted[s->n - 1];
	d->med = wtg_quantile_sorted(d->sorted, s->n, 0.5);
	d->p90 = wtg_quantile_sorted(d->sorted, s->n, 0.9);
	d->p99 = wtg_quantile_sorted(d->sorted, s->n, 0.99);
	h->maxn = d->n > h->maxn ? d->n : h->maxn;
	h->nd++;
	return true;
}

/* The scale of the span: log when it covers a decade (its positive part then), else linear. */
static int span_scale(struct wtg_lay_hist *h)
{
	double lo = h->span[0], hi = h->span[2];
	h->log = wtg_lay_wants_log(h->span[1], hi);
	h->zeros = false;
	if (h->log) {
		h->zeros = lo <= 0;
		lo = h->span[1];
	}
	if (!(hi > lo))
		hi = h->log ? lo * 2 : lo + 1;
	h->lo = lo;
	h->hi = hi;
	return h->nd;
}

/* The shared scale of the distributions. */
static int hist_scale(struct wtg_lay_hist *h)
{
	h->span[0] = h->span[1] = INFINITY;
	h->span[2] = -INFINITY;
	for (int i = 0; i < h->nd; i++) {
		h->span[0] = fmin(h->span[0], h->d[i].min);
		h->span[2] = fmax(h->span[2], h->d[i].max);
		for (size_t k = 0; k < h->d[i].n; k++)
			if (h->d[i].sorted[k] > 0) {
				h->span[1] = fmin(h->span[1], h->d[i].sorted[k]);
				break;
			}
	}
	return span_scale(h);
}

void wtg_lay_hist_widen(struct wtg_lay_hist *h, const double span[3])
{
	h->span[0] = fmin(h->span[0], span[0]);
	h->span[1] = fmin(h->span[1], span[1]);
	h->span[2] = fmax(h->span[2], span[2]);
	span_scale(h);
}

int wtg_lay_hist_build(struct wtg_lay_hist *h, const struct wtg_table *t)
{
	memset(h, 0, sizeof *h);
	/* one scale: the distributions in the first one's unit (fault counts beside times stay out) */
	for (int i = 0; i < t->nseries && h->nd < WTG_LAY_TABLE_DIST; i++)
		add_dist(h, t, &t->series[i], t->series[i].name);
	return hist_scale(h);
}

/* How many distributions table t gives (as wtg_lay_hist_build takes them: in its first's unit). */
static int table_dists(const struct wtg_table *t)
{
	int n = 0;
	const char *unit = NULL;
	for (int i = 0; i < t->nseries && n < WTG_LAY_TABLE_DIST; i++)
		if (t->series[i].n > 0 && (!unit || strcmp(unit, t->series[i].unit) == 0)) {
			unit = t->series[i].unit;
			n++;
		}
	return n;
}

int wtg_lay_hist_build_runs(struct wtg_lay_hist *h, const struct wtg_table *const *t, const char *const *name,
			    int n)
{
	memset(h, 0, sizeof *h);
	for (int k = 0; k < n && h->nd < WTG_LAY_MAX_RUNS; k++)
		for (int i = 0; i < t[k]->nseries; i++)
			if (add_dist(h, t[k], &t[k]->series[i], name[k])) {
				h->d[h->nd - 1].run = k;
				h->d[h->nd - 1].label = name[k];
				break;
			}
	return hist_scale(h);
}

int wtg_lay_hist_build_every(struct wtg_lay_hist *h, const struct wtg_table *const *t, const char *const *name,
			     int n)
{
	memset(h, 0, sizeof *h);
	int first = n, need = 0;	/* the latest runs that fit */
	while (first > 0 && need + table_dists(t[first - 1]) <= WTG_LAY_MAX_DIST)
		need += table_dists(t[--first]);
	for (int k = first; k < n; k++) {
		int from = h->nd;
		for (int i = 0; i < t[k]->nseries && h->nd - from < WTG_LAY_TABLE_DIST; i++)
			if (add_dist(h, t[k], &t[k]->series[i], name[k])) {
				h->d[h->nd - 1].run = k;
				h->d[h->nd - 1].label = name[k];
			}
		for (int i = from; i < h->nd && h->nd - from > 1; i++) {
			struct wtg_lay_dist *d = &h->d[i];
			snprintf(d->both, sizeof d->both, "%s%s%s", name[k], name[k][0] ? " · " : "", d->s->name);
			d->name = d->both;
		}
	}
	return hist_scale(h);
}

int wtg_lay_hist_bin(struct wtg_lay_hist *h, int cells)
{
	free(h->edges);
	h->nb = wtg_lay_bin_count(h->maxn, cells);
	h->edges = malloc((size_t)(h->nb + 1) * sizeof *h->edges);
	if (!h->edges)
		return -1;
	wtg_lay_bin_edges(h->lo, h->hi, h->nb, h->log, h->edges);
	for (int i = 0; i < h->nd; i++) {
		struct wtg_lay_dist *d = &h->d[i];
		free(d->bins);
		d->peak = 0;
		d->bins = calloc((size_t)h->nb, sizeof *d->bins);
		if (!d->bins)
			return -1;
		for (size_t k = 0; k < d->n; k++) {
			int b = wtg_lay_bin_of(d->sorted[k], h->edges, h->nb);
			if (++d->bins[b] > d->peak)
				d->peak = d->bins[b];
		}
	}
	return 0;
}

void wtg_lay_hist_free(struct wtg_lay_hist *h)
{
	for (int i = 0; i < h->nd; i++) {
		free(h->d[i].sorted);
		free(h->d[i].bins);
	}
	free(h->edges);
	memset(h, 0, sizeof *h);
}

/* The row whose label column names this series, or -1. */
static int row_for(const struct wtg_table *t, const char *name)
{
	/* the experiment's declared label column, else any text column */
	int only = t->exp && t->exp->hist.label ? wtg_table_col(t, t->exp->hist.label) : -1;
	for (int r = 0; r < t->nrows; r++)
		for (int c = 0; c < t->ncols; c++)
			if ((only < 0 || c == only) && t->rows[r].v[c].type == WTG_T_TEXT &&
			    strcmp(t->rows[r].v[c].s, name) == 0)
				return r;
	return -1;
}

static double row_num(const struct wtg_table *t, int r, const char *col, double fallback)
{
	int c = wtg_table_col(t, col);
	double v = r >= 0 && c >= 0 ? wtg_table_num(t, r, c) : NAN;
	return isnan(v) ? fallback : v;
}

void wtg_lay_hist_figures(char *buf, size_t len, const struct wtg_table *t, const struct wtg_lay_dist *d,
			  const char *dash)
{
	int r = row_for(t, d->s->name);
	const char *u = d->s->unit;
	/* the rows carry ns; the samples carry their own unit */
	double k = wtg_lay_time_scale(u) > 0 ? wtg_lay_time_scale(u) : 1;
	const char *ru = wtg_lay_time_scale(u) > 0 ? "ns" : u;
	char med[32], lo[32], hi[32], p90[32], p99[32], mx[32];
	wtg_lay_fmt_value(med, sizeof med, row_num(t, r, "median_ns", d->med * k), ru);
	wtg_lay_fmt_value(p90, sizeof p90, row_num(t, r, "p90_ns", d->p90 * k), ru);
	wtg_lay_fmt_value(p99, sizeof p99, row_num(t, r, "p99_ns", d->p99 * k), ru);
	wtg_lay_fmt_value(mx, sizeof mx, row_num(t, r, "max_ns", d->max * k), ru);
	double cl = row_num(t, r, "ci_low_ns", NAN), ch = row_num(t, r, "ci_high_ns", NAN);
	char ci[80] = "";
	if (!isnan(cl) && !isnan(ch)) {
		wtg_lay_fmt_value(lo, sizeof lo, cl, ru);
		wtg_lay_fmt_value(hi, sizeof hi, ch, ru);
		snprintf(ci, sizeof ci, " [%s%s%s]", lo, dash, hi);
	}
	char drift[48] = "";
	double dp = row_num(t, r, "drift_pct", NAN);
	if (!isnan(dp))
		snprintf(drift, sizeof drift, ", drift %+.1f%%", dp);
	snprintf(buf, len, "%s: n %zu, median %s%s, p90 %s, p99 %s, max %s%s", d->name, d->n, med, ci, p90,
		 p99, mx, drift);
}
