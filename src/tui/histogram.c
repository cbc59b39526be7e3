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

#define MAX_DIST WTG_LAY_MAX_DIST

/* How each distribution draws, set at the start of each draw: its colour, its key (the mark before
 * its figures) and its fill when overlaid without colour. A series of one run each own colour; with
 * several runs each run's mark, and the run's colour (a run of one series) or the series' (several). */
static enum tui_role dist_role[MAX_DIST];
static const char *dist_key[MAX_DIST], *dist_fill[MAX_DIST];
/* A strip's name: the distribution's, or (a run of several) the run's mark and the series' name */
static char dist_strip[MAX_DIST][64];

/* Column of value x on the chart's scale. */
static int col_of(double x, double lo, double hi, bool log, int cells)
{
	long c = (long)floor(wtg_lay_frac(x, lo, hi, log) * cells);
	return (int)(c > cells - 1 ? cells - 1 : c);
}

static void draw_ticks(const struct tui_view *v, int y, int x0, int cw, double lo, double hi, bool log,
		       bool zeros, const char *unit)
{
	const struct tui_look *l = v->look;
	attr_t ax = tui_attr(l, TR_AXIS);
	tui_repeat(v->w, y, x0, cw, ax, l->g->ax_h);
	double ticks[32];
	int nt = 0;
	if (log)
		nt = tui_log_ticks(lo, hi, cw, 8, false, ticks, 32);
	else
		nt = wtg_lay_lin_ticks(lo, hi, cw, ticks, 32);
	char lab[32][32];	/* labelled so that neighbours differ ("1.10us 1.11us") */
	wtg_lay_tick_labels(lab, ticks, nt, unit);
	/* a time carries its unit in every label ("1.1us"); any other unit ("GB/s") is written once, at
	 * the row's right end, and the labels stay left of it */
	const char *once = unit && unit[0] && wtg_lay_time_scale(unit) == 0 && tui_width(unit) <= v->wd / 4 ? unit
														: NULL;
	int right = v->x + v->wd - (once ? tui_width(once) + 1 : 0);
	int free_from = v->x;
	if (zeros) {
		tui_put(v->w, y + 1, x0, 1, ax, "0");
		free_from = x0 + 2;
	}
	for (int i = 0; i < nt; i++) {
		int c = col_of(ticks[i], lo, hi, log, cw);
		tui_put(v->w, y, x0 + c, 1, ax, l->g->ax_xtick);
		const char *t = lab[i];
		int n = tui_width(t), sx = x0 + c - n / 2;
		if (sx + n > right)
			sx = right - n;
		if (sx < free_from)
			continue;
		tui_put(v->w, y + 1, sx, n, ax, t);
		free_from = sx + n + 1;
	}
	if (once && right + 1 >= free_from)
		tui_put(v->w, y + 1, right + 1, tui_width(once), ax, once);
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

/* Bars of every distribution, stacked in bands or overlaid (the shorter bar in front). */
static void draw_bins(const struct tui_view *v, const struct wtg_lay_hist *h, const long *hgt, int x0, int cw,
		      int band, int bh, int margin, int units, bool stacked, bool own_fill, int pc[][3])
{
	const struct tui_look *l = v->look;
	WINDOW *w = v->w;
	int nd = h->nd;
	for (int i = 0; i < nd && stacked; i++) {
		int top = v->y + i * band;
		if (nd > 1)
			tui_put_clip(w, top + (bh - 1) / 2, v->x, margin - 1, tui_attr(l, dist_role[i]) | A_BOLD, l,
				     dist_strip[i]);
		attr_t a = tui_attr(l, dist_role[i]);
		for (int c = 0; c < cw; c++) {
			long hh = hgt[(size_t)i * (size_t)cw + (size_t)c];
			int full = (int)(hh / units), part = (int)(hh % units);
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
		if (band - bh > 0)
			draw_marks(v, top + bh, x0, cw, pc[i], a);
	}
	for (int c = 0; c < cw && !stacked; c++)
		for (int r = 0; r < bh; r++) {
			/* in front: the shortest bar that reaches this cell */
			int best = -1;
			long bh_best = 0;
			for (int i = 0; i < nd; i++) {
				long hh = hgt[(size_t)i * (size_t)cw + (size_t)c];
				if (hh > (long)r * units && (best < 0 || hh < bh_best)) {
					best = i;
					bh_best = hh;
				}
			}
			if (best < 0)
				continue;
			long hh = hgt[(size_t)best * (size_t)cw + (size_t)c] - (long)r * units;
			const char *g = own_fill ? dist_fill[best] : hh >= units ? l->g->vbar[8] : l->g->vbar[hh];
			tui_put(w, v->y + bh - 1 - r, x0 + c, 1, tui_attr(l, dist_role[best]), g);
		}
}

/* Rows without samples still say what they measured. */
static void draw_rows_only(const struct tui_view *v)
{
	const struct wtg_table *t = v->t;
	int n = t->nrows < v->h ? t->nrows : v->h;
	for (int i = 0; i < n; i++) {
		char buf[512];
		tui_row_words(buf, sizeof buf, t, t->nrows - n + i, -1);
		tui_put(v->w, v->y + i, v->x, v->wd, A_NORMAL, buf);
	}
}

/* The p99 ratio of distributions a and b (b over a) into r, "" when a has none. */
static void p99_ratio(char *r, size_t len, const struct wtg_lay_hist *h, int a, int b, const char *times)
{
	r[0] = '\0';
	if (h->d[a].p99 > 0) {
		char n[24];
		tui_fmt_num(n, sizeof n, h->d[b].p99 / h->d[a].p99);
		snprintf(r, len, "%s%s", n, times);
	}
}

/* Run i..j's figures into buf: its label, each series' p99 (tail's lesson: burners off against on),
 * then (unless short: the values alone) their ratio and the medians. */
static void run_words(char *buf, size_t len, const struct wtg_lay_hist *h, int i, int j, bool short_form,
		      const char *times, size_t shared)
{
	char med[160] = "", val[32], r[32];
	int ln = (int)(strlen(h->d[i].label) - shared);
	snprintf(buf, len, "%.*s%sp99", ln, h->d[i].label, ln ? (short_form ? " " : ": ") : "");
	for (int k = i; k <= j; k++) {
		wtg_lay_fmt_value(val, sizeof val, h->d[k].p99, h->d[k].s->unit);
		if (short_form)
			snprintf(buf + strlen(buf), len - strlen(buf), "%s %s", k > i ? "," : "", val);
		else
			snprintf(buf + strlen(buf), len - strlen(buf), "%s %s %s", k > i ? "," : "", h->d[k].s->name,
				 val);
		wtg_lay_fmt_value(val, sizeof val, h->d[k].med, h->d[k].s->unit);
		snprintf(med + strlen(med), sizeof med - strlen(med), "%s %s", k > i ? "," : "", val);
	}
	p99_ratio(r, sizeof r, h, i, j, times);
	if (!short_form)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s; median%s", r[0] ? ": " : "", r, med);
}

/* The length of the ": conditions" every run's label ends with ("run1: quiet and burners"), 0 when
 * they do not share one. */
static size_t shared_conditions(const struct wtg_lay_hist *h)
{
	const char *first = strrchr(h->d[0].label, ':');
	if (!first || first[1] != ' ')
		return 0;
	for (int i = 1; i < h->nd; i++) {
		const char *c = strrchr(h->d[i].label, ':');
		if (!c || strcmp(c, first) != 0 || c == h->d[i].label)
			return 0;
	}
	return first == h->d[0].label ? 0 : strlen(first);
}

/* Runs of several series, a line each where a line per distribution does not fit (see run_words);
 * where even a line a run does not (four runs at 80x24), each run's mark, label and p99s packed
 * side by side, the conditions every run shares said once at the start ("quiet and burners: ● run1
 * p99 1.11 us, 6.19 us   ◆ run2 ..."). Draws when draw is set; returns the lines it takes (at most
 * nfig when drawing). */
static int draw_run_figures(const struct tui_view *v, const struct wtg_lay_hist *h, int fy, int nfig, bool packed,
			    bool draw)
{
	const struct tui_look *l = v->look;
	int line = 0, x = 0;
	size_t shared = packed ? shared_conditions(h) : 0;
	if (shared) {
		char head[128];
		snprintf(head, sizeof head, "%s:", h->d[0].label + strlen(h->d[0].label) - shared + 2);
		if (draw && nfig > 0)
			tui_put(v->w, fy, v->x, v->wd, A_NORMAL, head);
		x = tui_width(head) - 2;	/* the first run follows after one space, not three */
	}
	for (int i = 0; i < h->nd && (!draw || line < nfig);) {
		int j = i;
		while (j + 1 < h->nd && h->d[j + 1].run == h->d[i].run)
			j++;
		char buf[512];
		run_words(buf, sizeof buf, h, i, j, packed, l->g->times, shared);
		int wid = tui_width(dist_key[i]) + 1 + tui_width(buf);
		if (packed && x > 0 && x + 3 + wid > v->wd) {	/* the next line */
			line++;
			x = 0;
		}
		if (draw && line < nfig) {
			int at = v->x + x + (x ? 3 : 0);
			tui_fit_items(buf, v->x + v->wd - at - tui_width(dist_key[i]) - 1);	/* whole figures */
			int o = tui_put(v->w, fy + line, at, v->x + v->wd - at, tui_attr(l, dist_role[j]) | A_BOLD,
					dist_key[i]);
			tui_put(v->w, fy + line, at + o + 1, v->x + v->wd - at - o - 1, A_NORMAL, buf);
		}
		x += (x ? 3 : 0) + wid;
		if (!packed) {
			line++;
			x = 0;
		}
		i = j + 1;
	}
	return line + (x > 0);
}

/* Whether distribution i is the second of a run of exactly two (its p99 ratio line follows it). */
static bool ends_pair(const struct wtg_lay_hist *h, int i)
{
	int k = h->d[i].run;
	return i > 0 && h->d[i - 1].run == k && (i + 1 == h->nd || h->d[i + 1].run != k) &&
	       (i < 2 || h->d[i - 2].run != k);
}

/* Figures underneath: one line per distribution, and the p99 ratio of two (of each run's two). */
static void draw_figures(const struct tui_view *v, const struct wtg_lay_hist *h, int fy, int nfig)
{
	const struct tui_look *l = v->look;
	int line = 0;
	for (int i = 0; line < nfig && i < h->nd; i++) {
		char buf[512];
		wtg_lay_hist_figures(buf, sizeof buf, h->d[i].t, &h->d[i], l->g->dash);
		int o = tui_put(v->w, fy + line, v->x, v->wd, tui_attr(l, dist_role[i]) | A_BOLD, dist_key[i]);
		tui_fit_items(buf, v->wd - o - 1);	/* never half a figure */
		tui_put(v->w, fy + line++, v->x + o + 1, v->wd - o - 1, A_NORMAL, buf);
		char r[32];
		if (!ends_pair(h, i) || line >= nfig || (p99_ratio(r, sizeof r, h, i - 1, i, l->g->times), !r[0]))
			continue;
		const char *label = h->d[i].label;
		tui_printf(v->w, fy + line++, v->x, v->wd, A_BOLD, "p99 %s / %s = %s%s%s%s", h->d[i].s->name,
			   h->d[i - 1].s->name, r, label[0] ? " (" : "", label, label[0] ? ")" : "");
	}
}

/* One run's series, or every run's; sets how each draws. A run of one series draws in the run's
 * colour and mark; a run of several in each series' colour (tail's burners on: the same in every
 * run), its strips named by the run's mark and the series. */
static int build(struct wtg_lay_hist *h, const struct tui_view *v, bool own_fill_wanted)
{
	const struct wtg_table *t[WTG_LAY_MAX_RUNS];
	const char *label[WTG_LAY_MAX_RUNS];
	bool faded[WTG_LAY_MAX_RUNS];
	int n = tui_view_runs(v, t, label, faded);
	const struct tui_look *l = v->look;
	if (n == 1) {
		int nd = wtg_lay_hist_build(h, v->t);
		for (int i = 0; i < WTG_LAY_TABLE_DIST; i++) {
			dist_role[i] = (enum tui_role)(TR_S1 + i);
			dist_fill[i] = l->g->fill[i];
			dist_key[i] = own_fill_wanted ? l->g->fill[i] : l->g->marker[i];
			if (i < nd)
				wtg_strlcpy(dist_strip[i], h->d[i].name, sizeof dist_strip[i]);
		}
		return nd;
	}
	int nd = wtg_lay_hist_build_every(h, t, label, n);
	for (int i = 0, k0 = -1; i < nd; i++) {
		int k = h->d[i].run;
		bool several = (i > 0 && h->d[i - 1].run == k) || (i + 1 < nd && h->d[i + 1].run == k);
		k0 = i > 0 && h->d[i - 1].run == k ? k0 : i;	/* the run's first distribution */
		dist_role[i] = several && !faded[k] ? (enum tui_role)(TR_S1 + (i - k0) % 3) : tui_run_role(k, faded[k]);
		dist_key[i] = dist_fill[i] = tui_run_marker(l, k);
		if (several)
			snprintf(dist_strip[i], sizeof dist_strip[i], "%s %s", dist_key[i], h->d[i].s->name);
		else
			wtg_strlcpy(dist_strip[i], h->d[i].name, sizeof dist_strip[i]);
	}
	return nd;
}

/* No row left for the figures: each strip's label carries its p99 ("◆ burners on (2) 6.19 us"). */
static void strip_figures(const struct wtg_lay_hist *h, int nd)
{
	for (int i = 0; i < nd; i++) {
		char val[32];
		size_t n = strlen(dist_strip[i]);
		wtg_lay_fmt_value(val, sizeof val, h->d[i].p99, h->d[i].s->unit);
		snprintf(dist_strip[i] + n, sizeof dist_strip[i] - n, " %s", val);
	}
}

/* Whether some run gives several distributions (its figures then go a run to a line when short of
 * rows), and how many runs there are. */
static bool grouped(const struct wtg_lay_hist *h, int *nruns)
{
	bool several = false;
	*nruns = 0;
	for (int i = 0; i < h->nd; i++) {
		bool next = i + 1 < h->nd && h->d[i + 1].run == h->d[i].run;
		several |= next;
		*nruns += !next;
	}
	return several && *nruns > 1;
}

/* The widest span each experiment's histogram has drawn: a tab keeps one axis (and one linear or
 * log form) over all its runs, reruns and saved runs alike, instead of following the runs on screen. */
static void keep_span(const struct tui_view *v, struct wtg_lay_hist *h)
{
	static struct {
		const struct wtg_experiment *e;
		double span[3];
	} seen[64];
	for (size_t i = 0; v->e && i < sizeof seen / sizeof seen[0]; i++) {
		if (seen[i].e == v->e) {
			wtg_lay_hist_widen(h, seen[i].span);
		} else if (seen[i].e) {
			continue;
		} else {
			seen[i].e = v->e;
		}
		memcpy(seen[i].span, h->span, sizeof h->span);
		return;
	}
}

/* Whether the latest run of a rerun alone draws (h: both runs' distributions): a run and the one
 * before it, their comparison line over the chart, where both runs' distributions would leave no
 * strip a row (tail's rerun at 80x24 under a three-line verdict: four strips in five rows) and the
 * latest run's each get one. Overlaid, no strip could say which distribution is which, and the run
 * before is in the comparison line. More runs (saved ones replayed) keep the overlaid chart, each
 * run's figures on a line of its own. */
static bool latest_alone(const struct tui_view *v, const struct wtg_lay_hist *h, int nd)
{
	if (v->ntables != 1 || !v->compare || !v->compare[0] || nd == 0)
		return false;
	int last = 0;
	for (int i = 0; i < nd; i++)
		last += h->d[i].run == h->d[nd - 1].run;
	return last > 1 && nd > last && v->h - 2 < nd && v->h - 2 >= last;
}

void tui_hist_draw(const struct tui_view *v)
{
	const struct tui_look *l = v->look;
	WINDOW *w = v->w;
	struct wtg_lay_hist h;
	const bool own_fill_wanted = !l->color || l->g->vbar[1] == NULL;
	int nd = build(&h, v, own_fill_wanted);
	struct tui_view one;
	int latest = -1;	/* drawn alone: the latest run's index among the runs, its mark on its strips */
	double both[3];
	if (latest_alone(v, &h, nd)) {
		latest = v->ntables;
		memcpy(both, h.span, sizeof both);	/* both runs' axis: the one the chart keeps */
		wtg_lay_hist_free(&h);
		one = *v;
		one.ntables = 0;
		v = &one;
		nd = build(&h, v, own_fill_wanted);
		for (int i = 0; i < nd; i++)	/* "◆ burners off": the run its comparison calls now */
			snprintf(dist_strip[i], sizeof dist_strip[i], "%s %s", tui_run_marker(l, latest), h.d[i].name);
	}
	if (nd == 0) {
		wtg_lay_hist_free(&h);
		draw_rows_only(v);
		return;
	}
	if (latest >= 0)
		wtg_lay_hist_widen(&h, both);
	keep_span(v, &h);
	int nruns, npairs = 0;
	bool by_run = grouped(&h, &nruns);
	for (int i = 1; i < nd; i++)	/* runs of two: a p99 ratio line each */
		npairs += ends_pair(&h, i);
	int nfig = nd + npairs;
	/* a run to a line when a line per distribution leaves a strip less than two rows */
	by_run = by_run && v->h - nfig - 2 < 2 * nd;
	/* the chart first: a labelled strip a row for each distribution (with the axis and its
	 * labels) wherever the view holds them; the figures take the rows left, and give way */
	int room = nd > 1 && v->h - 2 >= nd ? v->h - 2 - nd : v->h - 4;	/* overlaid: 2 rows at least */
	bool packed = by_run && nruns > room;
	if (by_run)
		nfig = draw_run_figures(v, &h, 0, 0, packed, false);
	if (nfig > room)
		nfig = room > 0 ? room : 0;
	/* overlaid without colour, each distribution fills with its own glyph, in whole cells */
	int body = v->h - nfig - 2;	/* minus the x axis and its labels */
	/* separate strips, each labelled, whenever each gets a row (a projector's 80x24 too);
	 * overlaid only when even that does not fit */
	bool stacked = nd == 1 || body / nd >= 1;
	if (stacked && nd > 1 && nfig == 0)
		strip_figures(&h, nd);
	bool own_fill = !stacked && (!l->color || l->g->vbar[1] == NULL);
	if (!own_fill)
		for (int i = 0; i < nd && v->ntables == 0; i++)
			dist_key[i] = l->g->marker[i];
	if (by_run)
		draw_run_figures(v, &h, v->y + v->h - nfig, nfig, packed, true);
	else
		draw_figures(v, &h, v->y + v->h - nfig, nfig);

	int maxname = 0;
	for (int i = 0; i < nd; i++) {
		int n = tui_width(dist_strip[i]) + 1;
		maxname = n > maxname ? n : maxname;
	}
	/* several distributions: stacked bands (a row of marks under each when it has three rows), else
	 * one chart with the distributions overlaid (the shorter bar in front) and a row of marks each */
	int margin = nd == 1 ? 0 : stacked ? (maxname < 26 ? maxname : 26) : 2;
	int x0 = v->x + margin, cw = v->wd - margin;
	int band = stacked ? body / nd : body;
	int nmarks = stacked ? (band >= 3 ? 1 : 0) : (body - nd >= 2 ? nd : 0);
	int bh = band - nmarks;
	long *hgt = NULL;
	if (cw < 10 || bh < 1 || wtg_lay_hist_bin(&h, cw) < 0)
		goto out;
	int units = l->g->vbar[1] != NULL && !own_fill ? 8 : 1;
	int pc[MAX_DIST][3];
	hgt = calloc((size_t)nd * (size_t)cw, sizeof *hgt);	/* bar height of each column, units */
	if (!hgt)
		goto out;
	for (int i = 0; i < nd; i++) {
		const struct wtg_lay_dist *d = &h.d[i];
		pc[i][0] = col_of(d->med, h.lo, h.hi, h.log, cw);
		pc[i][1] = col_of(d->p90, h.lo, h.hi, h.log, cw);
		pc[i][2] = col_of(d->p99, h.lo, h.hi, h.log, cw);
		for (int c = 0; c < cw; c++) {
			int b = (int)((long)c * h.nb / cw);
			long hh = d->peak ? lround((double)d->bins[b] / d->peak * bh * units) : 0;
			if (d->bins[b] > 0 && hh < 1)
				hh = 1;	/* a bin with samples never looks empty */
			hgt[(size_t)i * (size_t)cw + (size_t)c] = hh;
		}
	}
	draw_bins(v, &h, hgt, x0, cw, band, bh, margin, units, stacked, own_fill, pc);
	for (int i = 0; i < nmarks && !stacked; i++) {
		tui_put(w, v->y + bh + i, v->x, 1, tui_attr(l, dist_role[i]) | A_BOLD, dist_key[i]);
		draw_marks(v, v->y + bh + i, x0, cw, pc[i], tui_attr(l, dist_role[i]));
	}
	int axis_y = v->y + (stacked ? nd * band : body);
	draw_ticks(v, axis_y, x0, cw, h.lo, h.hi, h.log, h.zeros, h.d[0].s->unit);
	if (h.log && v->wd > 40)
		tui_put(w, axis_y, v->x + v->wd - 11, 11, tui_attr(l, TR_DIM), " log scale ");
out:
	free(hgt);
	wtg_lay_hist_free(&h);
}
