/* bars.c: horizontal labelled bars with values and units; the threads view marks ideal scaling
 * (the 1-thread figure times N). */
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
};

static const struct bars_map bars_maps[] = {
	{ "bytewise", { "variant" }, "ms", "ns_per_byte", false },
	{ "kernels", { "kernel", "wss" }, "gbps", NULL, false },
	{ "threads", { "threads" }, "gbps", "ms", true },
	{ "roofline", { "loop", "policy" }, "ms", "ratio", false },
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
	const char *unit = t->cols[vc].unit ? t->cols[vc].unit : "";
	int n = t->nrows;

	/* labels, values, the scale */
	char (*lab)[64] = calloc((size_t)n, sizeof *lab);
	char (*val)[96] = calloc((size_t)n, sizeof *val);
	double *x = calloc((size_t)n, sizeof *x), *ideal = calloc((size_t)n, sizeof *ideal);
	if (!lab || !val || !x || !ideal)
		goto out;
	double base = NAN;
	if (m && m->ideal) {
		int lc = wtg_table_col(t, m->label[0]);
		for (int r = 0; r < n && lc >= 0; r++)
			if (wtg_table_num(t, r, lc) == 1)
				base = wtg_table_num(t, r, vc);
	}
	double vmax = 0, scale = 0;
	int lw = 1, vw = 1;
	for (int r = 0; r < n; r++) {
		tui_row_label(lab[r], sizeof lab[r], t, r, m ? m->label : NULL, m ? 2 : 0);
		if (m && m->ideal) {
			size_t o = strlen(lab[r]);
			snprintf(lab[r] + o, sizeof lab[r] - o, "%s", strcmp(lab[r], "1") ? " threads" : " thread");
		}
		x[r] = wtg_table_num(t, r, vc);
		tui_fmt_value(val[r], sizeof val[r], x[r], unit);
		if (ec >= 0) {
			char e[64];
			tui_cell_words(e, sizeof e, t, r, ec);
			size_t o = strlen(val[r]);
			snprintf(val[r] + o, sizeof val[r] - o, "  %s", e);
		}
		if (x[r] > vmax)
			vmax = x[r];
		int lc = m && m->ideal ? wtg_table_col(t, m->label[0]) : -1;
		ideal[r] = lc >= 0 && base > 0 ? base * wtg_table_num(t, r, lc) : NAN;
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
	int ngroups = 0, gcol = m ? wtg_table_col(t, m->label[0]) : -1;
	bool grouped = gcol >= 0 && t->cols[gcol].type == WTG_T_TEXT;
	for (int r = 0; r < n && grouped; r++) {
		const char *g = t->rows[r].v[gcol].s;
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
	int extra_lines = (m && m->ideal ? 1 : 0) + (n == 2 ? 1 : 0);
	int words = v->h - n - extra_lines;
	if (words > n)
		words = n;
	if (words < 1)
		words = v->h - extra_lines >= 4 ? 1 : 0;
	for (int i = 0; i < words; i++) {
		char buf[512];
		tui_row_words(buf, sizeof buf, t, n - words + i, -1);
		tui_put(w, v->y + v->h - words + i, v->x, v->wd, A_NORMAL, buf);
	}
	int room = v->h - extra_lines - words;
	int first = n > room ? n - room : 0;
	int y = v->y;
	if (first > 0 && room > 1) {
		first++;
		tui_printf(w, y++, v->x, v->wd, tui_attr(l, TR_DIM), "(%d earlier rows not shown)", first);
	}
	int end = v->y + v->h - words;
	for (int r = first; r < n && y < end; r++, y++) {
		int lx = v->x + lw - tui_width(lab[r]);
		tui_put(w, y, lx < v->x ? v->x : lx, lw, A_BOLD, lab[r]);
		enum tui_role role = TR_BAR;
		if (grouped)
			for (int k = 0; k < ngroups; k++)
				if (strcmp(groups[k], t->rows[r].v[gcol].s) == 0)
					role = (enum tui_role)(TR_S1 + k);
		int bx = v->x + lw + 1;
		if (x[r] > 0)
			tui_hbar(w, y, bx, bw, x[r] / scale, tui_attr(l, role), l);
		if (ideal[r] > 0) {
			if (ideal[r] <= scale) {
				int c = (int)lround(ideal[r] / scale * bw) - 1;
				tui_put(w, y, bx + (c < 0 ? 0 : c), 1, tui_attr(l, TR_WARN), l->g->ideal);
			} else {
				tui_put(w, y, bx + bw - 1, 1, tui_attr(l, TR_WARN), l->g->right);
			}
		}
		tui_put(w, y, bx + bw + 1, vw, A_BOLD, val[r]);
	}
	if (m && m->ideal && y < end) {
		char idl[64];
		tui_fmt_value(idl, sizeof idl, base, unit);
		tui_printf(w, y++, v->x + lw + 1, v->wd - lw - 1, tui_attr(l, TR_WARN),
			   "%s ideal scaling: %s (1 thread) %s N%s", l->g->ideal, idl, l->g->times,
			   isnan(base) ? " (waiting for the 1-thread row)" : "");
	}
	if (n == 2 && x[0] > 0 && x[1] > 0 && y < end) {
		int hi = x[0] >= x[1] ? 0 : 1;
		char ratio[32];
		tui_fmt_num(ratio, sizeof ratio, x[hi] / x[1 - hi]);
		tui_printf(w, y++, v->x + lw + 1, v->wd - lw - 1, A_BOLD, "%s / %s = %s%s", lab[hi], lab[1 - hi],
			   ratio, l->g->times);
	}
out:
	free(lab);
	free(val);
	free(x);
	free(ideal);
}
