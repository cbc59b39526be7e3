/* views.c: the view table (how each view draws and how many lines its body wants) and the box's
 * layout around it: the view, a histogram of the samples beside or under it, the footer. */
#include "config.h"

#include <string.h>

#include "tui_internal.h"

/* Lines a chart wants: two thirds of the box, at least 11. */
static int chart_wants(const struct tui_view *v)
{
	return v->h * 2 / 3 > 11 ? v->h * 2 / 3 : 11;
}

/* A line a row, and the axis. */
static int rows_wants(const struct tui_view *v)
{
	return v->t->nrows + 3;
}

/* A line a column. */
static int cols_wants(const struct tui_view *v)
{
	return v->t->ncols + 3;
}

/* Indexed by enum wtg_view. The help's lines fit 55 columns (the help is one screen at 80x24). */
static const struct tui_view_class view_classes[] = {
	[WTG_VIEW_SWEEP] = { "sweep", "a line per series on a log2 x axis; marks are rows", tui_sweep_draw,
			     chart_wants, true },
	[WTG_VIEW_BARS] = { "bars", "a bar per row; threads: ideal = 1 thread x min(N, CPUs)", tui_bars_draw,
			    rows_wants, true },
	[WTG_VIEW_HISTOGRAM] = { "histogram", "samples in bins (log over decades); median p90 p99",
				 tui_hist_draw, chart_wants, false },
	[WTG_VIEW_COUNTERS] = { "counters", "faults and times per case, per page and per fault",
				tui_counters_draw, cols_wants, true },
};
const int tui_nview_classes = (int)WTG_ARRAY_LEN(view_classes);

const struct tui_view_class *tui_view_class(enum wtg_view view)
{
	if ((int)view < 0 || (size_t)view >= WTG_ARRAY_LEN(view_classes))
		return &view_classes[WTG_VIEW_COUNTERS];
	return &view_classes[view];
}

/* The ratio line laid out for width columns into out: each figure's part (the ";"-separated parts,
 * the header "A vs B, paired over N rounds:" one too) starts a line when it does not fit on the one
 * before, so a figure's ratio, interval and verdict stay together; returns the lines it takes (1000
 * when a part is wider than a line: the words then pack the lines). */
static int compare_layout(const char *s, int width, char *out, size_t len)
{
	size_t k = 0;
	int used = 0;
	out[0] = '\0';
	while (*s && k + 2 < len) {
		/* the next part: to the "; " after it, or the header's end */
		const char *semi = strstr(s, "; "), *head = strstr(s, "rounds: "), *end;
		if (!head)
			head = strstr(s, "sequential: ");
		end = semi ? semi + 1 : s + strlen(s);
		if (head && strchr(head, ':') + 1 < end)
			end = strchr(head, ':') + 1;
		char part[512];
		snprintf(part, sizeof part, "%.*s", (int)(end - s), s);
		int pw = tui_width(part);
		bool nl = used > 0 && used + 1 + pw > width;
		k += (size_t)snprintf(out + k, len - k, "%s%s", used == 0 ? "" : nl ? "\n" : " ", part);
		used = nl || used == 0 ? pw : used + 1 + pw;
		if (used > width)	/* a part wider than the line: packed by words instead */
			return 1000;
		s = end;
		while (*s == ' ')
			s++;
	}
	return tui_wrap_lines(out, width);
}

/* The runs' headline ratios over the view, when there are several runs, whole: on as many lines
 * as they need (up to 4, the view keeping 4); only a view too short for them cuts the last. */
static int compare_line(const struct tui_view *v)
{
	if (!v->compare || !v->compare[0] || v->h < 6)
		return 0;
	if (tui_width(v->compare) <= v->wd) {
		tui_put(v->w, v->y, v->x, v->wd, A_BOLD, v->compare);
		return 1;
	}
	int most = v->h - 4 < 4 ? v->h - 4 : 4;
	if (most < 1)
		most = 1;
	char laid[1024];
	const char *s = laid;
	if (compare_layout(v->compare, v->wd, laid, sizeof laid) > most)
		s = v->compare;	/* packed by words instead of parts */
	return tui_wrap_clip(v->w, v->y, v->x, v->wd, most, A_BOLD, v->look, false, s);
}

void tui_view_draw(const struct tui_view *in)
{
	struct tui_view vv = *in;
	struct tui_view *v = &vv;
	int cl = compare_line(v);
	v->y += cl;
	v->h -= cl;
	const struct tui_view_class *vc = tui_view_class(v->e->view);
	int want = vc->wants(v);
	if (want > v->h - 1)
		want = v->h - 1;
	int fmax = v->h - want;
	if (fmax > 6)
		fmax = 6;
	if (fmax < 1)
		fmax = 1;
	int f = tui_footer(v, fmax);
	struct tui_view body = *v;
	body.h = v->h - f - (f && v->h - f > 14 ? 1 : 0);
	if (body.h < 3)
		return;
	int pl = tui_parts_lines(&body);	/* a division of extra time: its bars under the view */
	if (pl > 0) {
		struct tui_view pv = body;
		body.h -= pl;
		pv.y = body.y + body.h;
		pv.h = pl;
		tui_parts_draw(&pv);
	}
	struct tui_view extra = body;
	bool has_extra = vc->samples_beside && v->t->nseries > 0;
	if (has_extra) {
		if (body.wd >= 120) {
			body.wd = body.wd * 3 / 5;
			extra.x = body.x + body.wd + 2;
			extra.wd = v->wd - body.wd - 2;
		} else if (body.h >= 20) {
			extra.h = body.h * 2 / 5;
			body.h -= extra.h + 1;
			extra.y = body.y + body.h + 1;
		} else {
			has_extra = false;
		}
	}
	vc->draw(&body);
	if (has_extra)
		tui_hist_draw(&extra);
}
