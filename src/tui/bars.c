/* bars.c: horizontal labelled bars with values and units. The threads view marks ideal scaling (the
 * 1-thread figure times N); signed values (compare's paired differences) grow both ways from a zero
 * line, with a confidence interval drawn as brackets where the table gives one. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui_internal.h"

/* What each bars view shows. Missing experiments get their text columns as labels and their first
 * timing or throughput column as the value. */
struct bars_map {
	const char *exp;
	const char *label[2];
	const char *value;
	const char *extra;	/* shown in words after the value */
	bool ideal;		/* mark ideal scaling from the row whose label is 1 */
	bool named;		/* numeric labels carry their column's name: "pair 3" */
	const char *ci[2];	/* a row's interval around its value, drawn as [ ] */
};

static const struct bars_map bars_maps[] = {
	{ "bytewise", { "variant" }, "ms", "ns_per_byte", false, false, { "ms_ci_low", "ms_ci_high" } },
	{ "kernels", { "kernel", "wss" }, "gbps", NULL, false, false, { "gbps_ci_low", "gbps_ci_high" } },
	{ "threads", { "threads" }, "gbps", "ms", true, false, { "gbps_ci_low", "gbps_ci_high" } },
	{ "compare", { "pair", "order" }, "diff", "rel_pct", false, true, { "ci_low", "ci_high" } },
};

static const struct bars_map *find_map(const char *name)
{
	for (size_t i = 0; i < WTG_ARRAY_LEN(bars_maps); i++)
		if (strcmp(bars_maps[i].exp, name) == 0)
			return &bars_maps[i];
	return NULL;
}

static bool is_unit(const struct wtg_table *t, int c, const char *u)
{
	return t->cols[c].unit && strcmp(t->cols[c].unit, u) == 0;
}

static int pick_value(const struct wtg_table *t, const struct bars_map *m)
{
	int c = m ? wtg_table_col(t, m->value) : -1;
	if (c >= 0)
		return c;
	static const char *const units[] = { "ms", "GB/s", "ns", "us", "s" };
	for (size_t u = 0; u < WTG_ARRAY_LEN(units); u++)
		for (c = 0; c < t->ncols; c++)
			if ((t->cols[c].type == WTG_T_REAL || t->cols[c].type == WTG_T_INT) &&
			    is_unit(t, c, units[u]))
				return c;
	for (c = t->ncols - 1; c >= 0; c--)
		if (t->cols[c].type == WTG_T_REAL)
			return c;
	return -1;
}

/* The bar's label: the map's columns (numeric ones named when asked), n/a cells left out. */
static void bar_label(char *buf, size_t len, const struct wtg_table *t, int r, const struct bars_map *m)
{
	if (!m) {
		tui_row_label(buf, len, t, r, NULL, 0);
		return;
	}
	size_t o = 0;
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
			char num[64];
			tui_fmt_value(num, sizeof num, x, t->cols[c].unit);
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
		snprintf(buf + o, len - o, "%s", strcmp(buf, "1") ? " threads" : " thread");
}

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

/* The column where a bar of value x (>= 0) from bx over bw columns ends. */
static int bar_col(double x, double scale, int bx, int bw)
{
	int c = (int)lround(x / scale * bw) - 1;
	return bx + (c < 0 ? 0 : c > bw - 1 ? bw - 1 : c);
}

void tui_bars_draw(const struct tui_view *v)
{
	const struct wtg_table *t = v->t;
	const struct tui_look *l = v->look;
	const struct bars_map *m = find_map(v->e->name);
	WINDOW *w = v->w;
	int vc = pick_value(t, m);
	if (vc < 0 || t->nrows == 0)
		return;
	int ec = m && m->extra ? wtg_table_col(t, m->extra) : -1;
	int cl = m && m->ci[0] ? wtg_table_col(t, m->ci[0]) : -1;
	int ch = m && m->ci[1] ? wtg_table_col(t, m->ci[1]) : -1;
	const char *unit = t->cols[vc].unit ? t->cols[vc].unit : "";
	int n = t->nrows;

	/* labels, values, the scale */
	char (*lab)[64] = calloc((size_t)n, sizeof *lab);
	char (*val)[96] = calloc((size_t)n, sizeof *val);
	double *x = calloc((size_t)n, sizeof *x), *ideal = calloc((size_t)n, sizeof *ideal);
	if (!lab || !val || !x || !ideal)
		goto out;
	double base = NAN;
	int lc0 = m ? wtg_table_col(t, m->label[0]) : -1;
	/* the table's own ideal (threads: capped at the CPUs) wins over 1 thread x N */
	int ic = m && m->ideal ? wtg_table_col(t, "ideal_gbps") : -1;
	if (m && m->ideal)
		for (int r = 0; r < n && lc0 >= 0; r++)
			if (wtg_table_num(t, r, lc0) == 1)
				base = wtg_table_num(t, r, vc);
	double vmax = 0, scale = 0;
	bool neg = false;
	int lw = 1, vw = 1;
	for (int r = 0; r < n; r++) {
		bar_label(lab[r], sizeof lab[r], t, r, m);
		x[r] = wtg_table_num(t, r, vc);
		tui_fmt_value(val[r], sizeof val[r], x[r], unit);
		if (ec >= 0 && !isnan(wtg_table_num(t, r, ec))) {
			char e[64];
			tui_cell_words(e, sizeof e, t, r, ec);
			size_t o = strlen(val[r]);
			snprintf(val[r] + o, sizeof val[r] - o, "  %s", e);
		}
		vmax = fmax(vmax, fabs(x[r]));
		neg = neg || x[r] < 0;
		if (cl >= 0 && ch >= 0) {
			double a = wtg_table_num(t, r, cl), b = wtg_table_num(t, r, ch);
			if (!isnan(a) && !isnan(b)) {
				vmax = fmax(vmax, fmax(fabs(a), fabs(b)));
				neg = neg || a < 0;
			}
		}
		ideal[r] = ic >= 0				   ? wtg_table_num(t, r, ic)
			   : m && m->ideal && lc0 >= 0 && base > 0 ? base * wtg_table_num(t, r, lc0)
								   : NAN;
		int a = tui_width(lab[r]), b = tui_width(val[r]);
		lw = a > lw ? a : lw;
		vw = b > vw ? b : vw;
	}
	scale = vmax;
	for (int r = 0; r < n; r++)
		if (ideal[r] > scale && ideal[r] <= 3 * vmax)
			scale = ideal[r];
	if (!(scale > 0))
		scale = 1;
	if (lw > v->wd / 3)
		lw = v->wd / 3;
	int bw = v->wd - lw - vw - 3;
	if (bw < 4) {
		vw = v->wd - lw - 7;
		bw = 4;
	}

	/* colour by the first label when it names a few groups (kernels, loops, variants) */
	const char *groups[3] = { NULL, NULL, NULL };
	int ngroups = 0;
	bool grouped = lc0 >= 0 && t->cols[lc0].type == WTG_T_TEXT;
	for (int r = 0; r < n && grouped; r++) {
		const char *g = t->rows[r].v[lc0].s;
		int k = 0;
		while (k < ngroups && strcmp(groups[k], g) != 0)
			k++;
		if (k == ngroups) {
			if (ngroups == 3)
				grouped = false;
			else
				groups[ngroups++] = g;
		}
	}

	/* the rows that fit (the latest ones), then the rows in words underneath as room allows */
	bool has_ci = cl >= 0 && ch >= 0;
	int extra_lines = (m && m->ideal ? 1 : 0) + (n == 2 && !neg ? 1 : 0) + (neg || has_ci ? 1 : 0);
	int words = v->h - n - extra_lines;
	if (words > n)
		words = n;
	if (words < 1)
		words = v->h - extra_lines >= 4 ? 1 : 0;
	for (int i = 0; i < words; i++) {
		char buf[512];
		tui_row_words(buf, sizeof buf, t, n - words + i, -1);
		tui_put_clip(w, v->y + v->h - words + i, v->x, v->wd, A_NORMAL, l, buf);
	}
	int room = v->h - extra_lines - words;
	int first = n > room ? n - room : 0;
	int y = v->y;
	if (first > 0 && room > 1) {
		first++;
		tui_printf(w, y++, v->x, v->wd, tui_attr(l, TR_DIM), "(%d earlier rows not shown)", first);
	}
	int bx = v->x + lw + 1;
	int half = neg ? bw / 2 : 0, zc = bx + half;	/* signed: the zero line's column */
	int end = v->y + v->h - words;
	/* with room to spare (a tall terminal in front of a class) bars get thicker, up to three lines,
	 * with a blank line between them; label, value and marks stay on the middle line */
	int shown = n - first, per = shown > 0 ? (end - y - extra_lines) / shown : 1;
	int thick = per >= 3 ? (per - 1 > 3 ? 3 : per - 1) : 1, gap = per >= 3 ? 1 : 0;
	int drawn = 0, cis = 0;
	for (int r = first; r < n && y + thick <= end; r++, y += thick + gap, drawn++) {
		int mid = y + thick / 2;
		int lx = v->x + lw - tui_width(lab[r]);
		tui_put_clip(w, mid, lx < v->x ? v->x : lx, lw, A_BOLD, l, lab[r]);
		enum tui_role role = TR_BAR;
		if (grouped)
			for (int k = 0; k < ngroups; k++)
				if (strcmp(groups[k], t->rows[r].v[lc0].s) == 0)
					role = (enum tui_role)(TR_S1 + k);
		attr_t a = tui_attr(l, role);
		for (int yy = y; yy < y + thick; yy++) {
			if (!neg) {
				if (x[r] > 0)
					tui_hbar(w, yy, bx, bw, x[r] / scale, a, l);
			} else {
				tui_put(w, yy, zc, 1, tui_attr(l, TR_AXIS), l->g->ax_v);
				if (x[r] > 0)
					tui_hbar(w, yy, zc + 1, bw - half - 1, x[r] / scale, a, l);
				else if (x[r] < 0)
					left_bar(w, yy, zc, half, -x[r] / scale, a, l);
			}
			if (ideal[r] > 0) {
				if (ideal[r] <= scale) {
					int c = (int)lround(ideal[r] / scale * bw) - 1;
					tui_put(w, yy, bx + (c < 0 ? 0 : c), 1, tui_attr(l, TR_WARN), l->g->ideal);
				} else {
					tui_put(w, yy, bx + bw - 1, 1, tui_attr(l, TR_WARN), l->g->right);
				}
			}
		}
		double ca = cl >= 0 ? wtg_table_num(t, r, cl) : NAN;
		double cb = ch >= 0 ? wtg_table_num(t, r, ch) : NAN;
		if (!isnan(ca) && !isnan(cb)) {
			/* the 95% CI as whiskers on the bar's middle line */
			attr_t wa = tui_attr(l, TR_WARN) | A_BOLD;
			int ka = neg ? signed_col(ca, scale, zc, half, bw) : bar_col(ca, scale, bx, bw);
			int kb = neg ? signed_col(cb, scale, zc, half, bw) : bar_col(cb, scale, bx, bw);
			tui_put(w, mid, ka, 1, wa, ka == kb ? "|" : "[");
			if (kb != ka)
				tui_put(w, mid, kb, 1, wa, "]");
			cis++;
		}
		tui_put(w, mid, bx + bw + 1, vw, A_BOLD, val[r]);
	}
	if (drawn)
		y -= gap;	/* no blank line after the last bar */
	if (m && m->ideal && y < end) {
		char idl[64];
		tui_fmt_value(idl, sizeof idl, base, unit);
		tui_printf(w, y++, bx, v->wd - lw - 1, tui_attr(l, TR_WARN),
			   "%s ideal scaling: %s (1 thread) %s %s%s", l->g->ideal, idl, l->g->times,
			   ic >= 0 ? "min(N, CPUs)" : "N", isnan(base) ? " (waiting for the 1-thread row)" : "");
	}
	if (neg && y < end) {
		char lo[32], hi[32];
		tui_fmt_value(lo, sizeof lo, -scale, unit);
		tui_fmt_value(hi, sizeof hi, scale, unit);
		tui_put(w, y, bx, lw, tui_attr(l, TR_DIM), lo);
		tui_put(w, y, zc, 1, tui_attr(l, TR_DIM), "0");
		tui_put(w, y, bx + bw - tui_width(hi), bw, tui_attr(l, TR_DIM), hi);
		if (cl >= 0)
			tui_put(w, y, bx + bw + 1, vw, tui_attr(l, TR_WARN), "[ ] 95% CI");
		y++;
	} else if (cis && y < end) {
		tui_put(w, y++, bx, bw, tui_attr(l, TR_WARN), "[ ] 95% CI of the median");
	}
	if (n == 2 && !neg && x[0] > 0 && x[1] > 0 && y < end) {
		int hi = x[0] >= x[1] ? 0 : 1;
		char ratio[32];
		tui_fmt_num(ratio, sizeof ratio, x[hi] / x[1 - hi]);
		tui_printf(w, y++, bx, v->wd - lw - 1, A_BOLD, "%s / %s = %s%s", lab[hi], lab[1 - hi], ratio,
			   l->g->times);
	}
out:
	free(lab);
	free(val);
	free(x);
	free(ideal);
}
