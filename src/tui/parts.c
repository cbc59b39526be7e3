/* parts.c: a division of extra time as stacked bars under a histogram (wtg/layout_parts.h): a line
 * per quantile (on a small box the p99's and the p90's side by side on one), "p99 +3.54us" then the
 * bar, each part's segment in its own colour with its name and
 * share inside where they fit (else its letter, the share after the bar), and a line of the letters
 * when there is room. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "wtg/layout_parts.h"
#include "tui_internal.h"

static const enum tui_role part_role[WTG_LAY_NPARTS] = { TR_S1, TR_S2, TR_WARN, TR_ERR, TR_DIM };

int tui_parts_lines(const struct tui_view *v)
{
	struct wtg_lay_parts p;
	int n = wtg_lay_parts_build(&p, v->t);
	if (n == 0 || v->wd < 40)
		return 0;
	/* the histogram keeps its bands: one line on a small box (both bars side by side where wide
	 * enough), then a line each, then the letters' line */
	if (v->h >= 20)
		return n + 1;
	if (v->h >= 14)
		return n;
	return v->h >= 7 ? 1 : 0;
}

/* One bar at line y. */
static void draw_bar(const struct tui_view *v, int y, const struct wtg_lay_part_bar *b)
{
	const struct tui_look *l = v->look;
	char head[48], extra[32], rest[160];
	wtg_lay_fmt_value(extra, sizeof extra, b->excess, "ns");
	snprintf(head, sizeof head, "%s +%s ", b->which, extra);
	int x = v->x + tui_put(v->w, y, v->x, v->wd, A_BOLD, head);
	int w[WTG_LAY_NPARTS];
	/* the shares left out of the segments go after the bar: work them out for the full width,
	 * then again for what remains */
	int cells = v->x + v->wd - x - 2;
	wtg_lay_parts_cells(b, cells, w);
	wtg_lay_parts_rest(rest, sizeof rest, b, w);
	if (rest[0]) {
		cells -= tui_width(rest) + 1;
		if (cells < 10)
			cells = 10;
		wtg_lay_parts_cells(b, cells, w);
		wtg_lay_parts_rest(rest, sizeof rest, b, w);
	}
	int at = x, seg = 0;
	tui_put(v->w, y, at++, 1, tui_attr(l, TR_AXIS), "[");
	for (int k = 0; k < WTG_LAY_NPARTS; k++) {
		if (w[k] <= 0)
			continue;
		/* colour: the part's colour reversed, its label inside; none: segments alternate and fill
		 * with their letter */
		attr_t a = l->color ? tui_attr(l, part_role[k]) | A_REVERSE : (seg++ % 2 ? A_NORMAL : A_REVERSE);
		char lab[48], fill[2] = { l->color ? ' ' : wtg_lay_part_letter[k], '\0' };
		wtg_lay_part_label(lab, sizeof lab, b, k, w[k]);
		int n = tui_put(v->w, y, at, w[k], a, lab);
		for (int i = n; i < w[k]; i++)
			tui_put(v->w, y, at + i, 1, a, fill);
		at += w[k];
	}
	tui_put(v->w, y, at++, 1, tui_attr(l, TR_AXIS), "]");
	if (rest[0])
		tui_put(v->w, y, at + 1, v->x + v->wd - at - 1, A_NORMAL, rest);
}

void tui_parts_draw(const struct tui_view *v)
{
	struct wtg_lay_parts p;
	int n = wtg_lay_parts_build(&p, v->t);
	if (n == 2 && v->h == 1 && v->wd >= 70) {	/* one line: the p99's and the p90's side by side */
		struct tui_view a = *v, b = *v;
		a.wd = v->wd / 2 - 1;
		b.x = v->x + a.wd + 2;
		b.wd = v->wd - a.wd - 2;
		draw_bar(&a, v->y, &p.b[0]);
		draw_bar(&b, v->y, &p.b[1]);
		return;
	}
	int y = v->y;
	for (int i = 0; i < n && y < v->y + v->h; i++)
		draw_bar(v, y++, &p.b[i]);
	if (y >= v->y + v->h)
		return;
	/* the letters' line: which row was divided, what the letters of the p99's bar stand for, and
	 * the parts it has none of (0% or not read) */
	const struct wtg_lay_part_bar *b = &p.b[0];
	char buf[320];
	int o = snprintf(buf, sizeof buf, "%s over its median batches:", p.row);
	for (int k = 0, m = 0; k < WTG_LAY_NPARTS && o > 0 && (size_t)o < sizeof buf; k++)
		if (fabs(b->pct[k]) >= 0.5)
			o += snprintf(buf + o, sizeof buf - (size_t)o, "%s %c %s", m++ ? "," : "", wtg_lay_part_letter[k],
				      wtg_lay_part_long[k]);
	for (int k = 0; k < WTG_LAY_NPARTS && o > 0 && (size_t)o < sizeof buf; k++)
		if (!(fabs(b->pct[k]) >= 0.5))
			o += snprintf(buf + o, sizeof buf - (size_t)o, "; %s %s", wtg_lay_part_name[k],
				      isfinite(b->pct[k]) ? "0%" : "n/a");
	tui_put_clip(v->w, y, v->x, v->wd, tui_attr(v->look, TR_DIM), v->look, buf);
}
