/* layout_grid.c: the counters grid of a table (wtg/layout.h): faults, switches and times per case,
 * and per page or per fault where they derive, before anything is drawn. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wtg/layout.h"
#include "wtg/stats.h"
#include "wtg/util.h"

/* ---- counters ---- */

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



static int add_metric(struct wtg_lay_grid *g, const char *name, const char *unit, bool derived)
{
	if (g->nm >= WTG_LAY_MAX_METRICS)
		return -1;
	int m = g->nm++;
	wtg_strlcpy(g->name[m], name, sizeof g->name[m]);
	wtg_strlcpy(g->unit[m], unit, sizeof g->unit[m]);
	g->derived[m] = derived;
	for (int k = 0; k < WTG_LAY_MAX_CASES; k++)
		g->cell[m][k][0] = g->bare[m][k][0] = '\0';
	return m;
}

static void set_cell(struct wtg_lay_grid *g, int m, int k, double v, const char *unit)
{
	if (m < 0)
		return;
	wtg_lay_fmt_value(g->cell[m][k], WTG_LAY_CELL, v, unit);
	double ts = wtg_lay_time_scale(unit);
	if (isnan(v))
		snprintf(g->bare[m][k], WTG_LAY_CELL, "n/a");
	else if (ts > 0 || strcmp(unit, "GB/s") == 0 || strcmp(unit, "%") == 0)
		wtg_lay_fmt_num(g->bare[m][k], WTG_LAY_CELL, v);	/* the header carries the unit */
	else
		wtg_lay_fmt_value(g->bare[m][k], WTG_LAY_CELL, v, unit);
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
	wtg_lay_row_label(lab, sizeof lab, t, r, NULL, 0);
	char *p = strstr(lab, from);
	if (!p)
		return -1;
	snprintf(want, sizeof want, "%.*s%s%s", (int)(p - lab), lab, to, p + strlen(from));
	for (int q = 0; q < t->nrows; q++) {
		wtg_lay_row_label(lab, sizeof lab, t, q, NULL, 0);
		if (q != r && strcmp(lab, want) == 0)
			return q;
	}
	return -1;
}

void wtg_lay_grid_build(struct wtg_lay_grid *g, const struct wtg_table *t)
{
	memset(g, 0, sizeof *g);
	const int mc = wtg_table_col(t, "mapping");
	int n = 0;
	for (int r = t->nrows; r-- > 0 && n < WTG_LAY_MAX_CASES;)
		if (mc < 0 || t->rows[r].v[mc].type != WTG_T_TEXT)
			n++;
	g->ncases = n;
	for (int r = t->nrows, k = n; r-- > 0 && k > 0;)
		if (mc < 0 || t->rows[r].v[mc].type != WTG_T_TEXT)
			g->row[--k] = r;
	g->first = n ? g->row[0] : t->nrows;
	bool labels = false;
	for (int c = 0; c < t->ncols; c++)
		labels = labels || t->cols[c].type == WTG_T_TEXT;
	/* without a text label, the repetition counter the experiment declares names the cases */
	const char *counter = t->exp ? t->exp->counters.counter : NULL;
	int rc = counter ? wtg_table_col(t, counter) : -1;
	const int bc = wtg_table_col(t, "contended");
	for (int k = 0; k < g->ncases; k++) {
		g->busy[k] = bc >= 0 && wtg_table_num(t, g->row[k], bc) > 0;
		if (labels)
			wtg_lay_row_label(g->head[k], sizeof g->head[k], t, g->row[k], NULL, 0);
		else if (rc >= 0)
			snprintf(g->head[k], sizeof g->head[k], "%s %.0f", t->cols[rc].name,
				 wtg_table_num(t, g->row[k], rc));
		else
			snprintf(g->head[k], sizeof g->head[k], "row %d", g->row[k] + 1);
	}
	for (int c = 0; c < t->ncols; c++) {
		if (t->cols[c].type == WTG_T_TEXT || (c == rc && !labels))
			continue;
		char nm[48];
		const char *unit = t->cols[c].unit ? t->cols[c].unit : "";
		metric_name(nm, sizeof nm, t->cols[c].name);
		bool any = mc < 0;
		for (int k = 0; k < g->ncases && !any; k++)
			any = !isnan(wtg_table_num(t, g->row[k], c));
		if (!any)
			continue;	/* a column of the left-out rows only */
		int m = add_metric(g, nm, unit, false);
		for (int k = 0; k < g->ncases; k++)
			set_cell(g, m, k, wtg_table_num(t, g->row[k], c), unit);
	}
	/* derived here unless the experiment reports them */
	int cmin = wtg_table_col(t, "minflt"), cpages = wtg_table_col(t, "pages");
	if (cmin >= 0 && cpages >= 0) {
		int a = -1, b = -1;
		if (wtg_table_col(t, "faults_per_page") < 0)
			a = add_metric(g, "faults per page", "", true);
		bool own = wtg_table_col(t, "pages_per_fault") >= 0;
		for (int k = 0; k < g->ncases; k++) {
			double f = wtg_table_num(t, g->row[k], cmin);
			double p = wtg_table_num(t, g->row[k], cpages);
			set_cell(g, a, k, p > 0 ? f / p : NAN, "");
			/* Linux maps around a fault: fewer faults than pages */
			if (f > 0 && f < p && b < 0 && !own)
				b = add_metric(g, "pages per fault", "", true);
		}
		for (int k = 0; k < g->ncases && b >= 0; k++) {
			double f = wtg_table_num(t, g->row[k], cmin);
			double p = wtg_table_num(t, g->row[k], cpages);
			set_cell(g, b, k, f > 0 ? p / f : NAN, "");
		}
	}
}

int wtg_lay_counter_figures(const struct wtg_table *t, const struct wtg_experiment *e, char fig[][256],
			    int max, const char *dash, const char *times)
{
	int nfig = 0;
	int cmin = wtg_table_col(t, "minflt"), cms = wtg_table_col(t, "ms");
	bool by_difference = e && e->counters.by_difference;
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
			wtg_lay_fmt_value(ns, sizeof ns, dt * 1e6 / df, "ns");
			wtg_lay_fmt_value(ta, sizeof ta, wtg_table_num(t, a, cms), "ms");
			wtg_lay_fmt_value(tb, sizeof tb, wtg_table_num(t, b, cms), "ms");
			wtg_fmt_thousands(fa, sizeof fa, (int64_t)wtg_table_num(t, a, cmin));
			wtg_fmt_thousands(fb, sizeof fb, (int64_t)wtg_table_num(t, b, cmin));
			snprintf(fig[nfig++], 256, "per fault: %s = (%s %s %s) / (%s %s %s faults)", ns, ta,
				 dash, tb, fa, dash, fb);
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
			wtg_lay_row_label(lab, sizeof lab, t, r, NULL, 0);
			wtg_lay_fmt_num(ratio, sizeof ratio, wtg_table_num(t, r, cms) / wtg_table_num(t, w, cms));
			if (cmaj >= 0)
				snprintf(maj, sizeof maj, " (%.0f vs %.0f major faults)",
					 wtg_table_num(t, r, cmaj), wtg_table_num(t, w, cmaj));
			o += snprintf(line + o, sizeof line - (size_t)o, "%s%s / warm: %s%s%s", o ? "; " : "",
				      lab, ratio, times, maj);
			if (o >= (int)sizeof line)
				break;
		}
		if (o > 0 && nfig < max)
			snprintf(fig[nfig++], 256, "%s", line);
	}
	return nfig;
}

/* Index of the metric called name in g, or -1. */
static int metric_of(const struct wtg_lay_grid *g, const char *name)
{
	for (int m = 0; m < g->nm; m++)
		if (strcmp(g->name[m], name) == 0)
			return m;
	return -1;
}

/* Append column k of run q (-1: not in that run) as the next case of out. */
static void merge_column(struct wtg_lay_grid *out, const struct wtg_lay_grid *q, int k, const char *head)
{
	int c = out->ncases++;
	wtg_strlcpy(out->head[c], head, sizeof out->head[c]);
	out->busy[c] = k >= 0 && q->busy[k];
	for (int m = 0; m < out->nm; m++) {
		int qm = k >= 0 ? metric_of(q, out->name[m]) : -1;
		wtg_strlcpy(out->cell[m][c], qm >= 0 ? q->cell[qm][k] : "n/a", WTG_LAY_CELL);
		wtg_strlcpy(out->bare[m][c], qm >= 0 ? q->bare[qm][k] : "n/a", WTG_LAY_CELL);
	}
}

void wtg_lay_grid_merge(struct wtg_lay_grid *out, const struct wtg_lay_grid *in, const char *const *label, int n,
			const char *sep)
{
	const struct wtg_lay_grid *last = &in[n - 1];
	memset(out, 0, sizeof *out);
	for (int m = 0; m < last->nm; m++)
		add_metric(out, last->name[m], last->unit[m], last->derived[m]);
	/* the cases in order of first appearance; the latest kept when they are too many */
	char cases[WTG_LAY_MAX_RUNS * WTG_LAY_MAX_CASES][64];
	int nc = 0;
	for (int q = 0; q < n; q++)
		for (int k = 0; k < in[q].ncases; k++) {
			int j = 0;
			while (j < nc && strcmp(cases[j], in[q].head[k]) != 0)
				j++;
			if (j == nc)
				wtg_strlcpy(cases[nc++], in[q].head[k], sizeof cases[0]);
		}
	int per = n, from = nc - WTG_LAY_MAX_CASES / per;
	for (int j = from < 0 ? 0 : from; j < nc; j++)
		for (int q = 0; q < n && out->ncases < WTG_LAY_MAX_CASES; q++) {
			int k = 0;
			while (k < in[q].ncases && strcmp(in[q].head[k], cases[j]) != 0)
				k++;
			char head[64];
			snprintf(head, sizeof head, "%s%s%s", cases[j], sep, label[q]);
			merge_column(out, &in[q], k < in[q].ncases ? k : -1, head);
		}
}
