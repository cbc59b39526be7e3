/* lead.c: the lead over every view: the verdict a class reads (large where the screen has room),
 * the essay's figure beside this machine's, and why here. */
#include "config.h"
#include <math.h>
#include <stdio.h>
#include <ctype.h>
#include <string.h>
#include <wchar.h>
#include "dash.h"
#include "wtg/figure.h"
#include "wtg/whyhere.h"

/* Whether the box holds block digits: a projector's screen, or a view that leaves the room. */
static bool big_room(const struct dash *d, int vh)
{
	return (d->rows >= BIG_ROWS && d->cols >= BIG_COLS) || vh >= 40;
}

/* The verdict's figure as its words write it: the first word after its " = " or ": " ("x1.4",
 * "1104 ns": a bare number keeps the unit after it), into out. */
static void here_figure(const char *here, char *out, size_t len)
{
	size_t n = strcspn(here, " ;,");
	const char *unit = here + n + (here[n] == ' ');
	size_t un = here[n] == ' ' ? strcspn(unit, " ;,") : 0;
	bool bare = n > 0 && strspn(here, "0123456789.,-") == n;
	if (bare && un > 0 && un <= 5 && !isdigit((unsigned char)unit[0]))
		n = (size_t)(unit + un - here);
	snprintf(out, len, "%.*s", (int)n, here);
}

/* "essay: 21 s for 64 MiB | here: ..." (what this machine shows, or why it cannot show it), in at
 * most width columns when fit is set: the essay's side is cut (with an ellipsis) before this machine's,
 * which a class came to see; this machine's is cut only past half the line. When the verdict stands
 * whole just above (fit unset) and this machine's side (its words after " = " or ": ") is more than a
 * line, it is its figure alone ("here: x1.4"), and nothing where even that would take a line of its
 * own: the verdict says it. */
static void essay_line(const struct dash *d, const struct wtg_table *t, const char *verdict, char *buf, size_t len,
		       bool fit, int width)
{
	const struct wtg_experiment *e = wtg_experiments[d->tab];
	const struct tui_look *l = &d->look;
	buf[0] = '\0';
	if (!e->essay.figure)
		return;
	const char *cannot = e->essay.cannot && t->nrows > 0 ? e->essay.cannot(t) : NULL;
	const char *here = cannot ? cannot : verdict[0] ? verdict : "not run yet";
	/* the verdict's figures, not its words again: what follows its first " = " or ": " */
	for (const char *p = verdict; !cannot && *p; p++)
		if ((p[0] == '=' || p[0] == ':') && p[1] == ' ') {
			here = p + 2;
			break;
		}
	const char *bar = l->utf8 ? "\xe2\x94\x82" : "|", *ell = l->g->ellipsis;
	char right[560], short_here[64];
	const char *fig = e->essay.figure;
	if (!fit && !cannot && here != verdict && wtg_text_width(here) + 9 > width) {	/* it restates the verdict */
		here_figure(here, short_here, sizeof short_here);
		/* no figure with its unit where the verdict's words begin ("memory: 8 streams: x0.37 ..."
		 * gives "8"): the first headline figure stands for this machine instead */
		bool ratio = short_here[0] == 'x' && isdigit((unsigned char)short_here[1]);
		if (!ratio && (!isdigit((unsigned char)short_here[0]) || !strchr(short_here, ' '))) {
			struct wtg_figure f;
			wtg_figure_read(&e->headline[0], t, &f);
			short_here[0] = '\0';
			if (e->headline[0].figure && f.found && isfinite(f.value))
				snprintf(short_here, sizeof short_here, "%.3g %s", f.value, e->headline[0].unit);
		}
		here = short_here;
		if (wtg_text_width(fig) + wtg_text_width(here) + 16 > width || !here[0]) {
			snprintf(buf, len, "essay: %s", fig);
			return;
		}
	}
	snprintf(right, sizeof right, " %s here: %s", bar, here);
	size_t rn = strlen(right);
	if (!cannot && !fit && rn > 0 && right[rn - 1] == ')' && wtg_text_width(fig) + wtg_text_width(right) + 7 > width) {
		char *open = strrchr(right, '(');	/* "(N of M samples waited ...)": the verdict above says it */
		while (open > right && open[-1] == ' ')
			open--;
		*open = '\0';
	}
	int room = width - wtg_text_width("essay: ") - wtg_text_width(right);
	if (!fit || wtg_text_width(fig) <= room) {
		snprintf(buf, len, "essay: %s%s", fig, right);
		return;
	}
	if (room < width / 2 - 8)
		room = width / 2 - 8;	/* this machine's side is long too: each keeps about half */
	room -= wtg_text_width(ell);
	const char *next;
	size_t cut = room > 0 ? wtg_wrap_next(fig, room, true, &next) : 0;
	snprintf(buf, len, "essay: %.*s%s%s", (int)cut, fig, ell, right);
}

/* A histogram's headline samples in the order they were taken, one cell each ("the first pass was
 * the slowest" shows), when they are few enough to fit a line; returns the lines used. */
static int draw_in_order(struct dash *d, const struct wtg_table *t, WINDOW *vw, int y, int vwid)
{
	static const char *const cells[8] = { "\xe2\x96\x81", "\xe2\x96\x82", "\xe2\x96\x83", "\xe2\x96\x84",
					       "\xe2\x96\x85", "\xe2\x96\x86", "\xe2\x96\x87", "\xe2\x96\x88" };
	const struct wtg_experiment *e = wtg_experiments[d->tab];
	const struct tui_look *l = &d->look;
	const char *name = e->headline[0].series;
	const struct wtg_series *sr = NULL;
	for (int i = 0; name && e->view == WTG_VIEW_HISTOGRAM && i < t->nseries; i++)
		if (strcmp(t->series[i].name, name) == 0)
			sr = &t->series[i];
	const char *head = "in order: ";
	int hw = tui_width(head);
	if (!sr || sr->n < 2 || (int)sr->n > vwid - 2 - hw - 10)
		return 0;
	double lo = sr->v[0], hi = sr->v[0];
	for (size_t i = 1; i < sr->n; i++) {
		lo = fmin(lo, sr->v[i]);
		hi = fmax(hi, sr->v[i]);
	}
	int x = 1 + (vwid - 2 - hw - (int)sr->n - 8) / 2;
	x += tui_put(vw, y, x, hw, tui_attr(l, TR_DIM), head);
	for (size_t i = 0; i < sr->n; i++) {
		int k = hi > lo ? (int)((sr->v[i] - lo) / (hi - lo) * 7.999) : 0;
		x += tui_put(vw, y, x, 1, tui_attr(l, TR_BAR), l->utf8 ? cells[k] : (const char[]){ (char)('1' + k), 0 });
	}
	tui_put(vw, y, x, 8, tui_attr(l, TR_DIM), l->utf8 ? " 1\xe2\x86\x92" : " 1->");
	return 1;
}

/* The headline names the run's conditions when they are not quiet: "one kernel crossing = 1104 ns ·
 * burners 2 spin", so a figure measured under load never passes for a quiet machine's. */
static void verdict_conditions(const struct dash *d, const struct wtg_table *t, char *v, size_t len)
{
	char cond[96];
	wtg_lay_table_conditions(cond, sizeof cond, t);
	if (!v[0] || !cond[0] || strcmp(cond, "quiet") == 0)
		return;
	size_t n = strlen(v);
	snprintf(v + n, len - n, "%s%s", d->look.g->sep, cond);
}

/* The label on line y of w (as drawn) dimmed in place: the line's words stay in normal weight. */
static void dim_label(WINDOW *w, int y, attr_t a, const wchar_t *label)
{
	wchar_t row[512];
	int n = mvwinnwstr(w, y, 0, row, (int)WTG_ARRAY_LEN(row) - 1);
	if (n <= 0)
		return;
	row[n] = L'\0';
	const wchar_t *at = wcsstr(row, label);
	if (at)
		mvwchgat(w, y, (int)(at - row), (int)wcslen(label), a & ~A_COLOR, (short)PAIR_NUMBER(a), NULL);
}

/* "why here: ..." when this machine's figures are far from the essay's and wtg can say why, from the
 * run on screen and the machine it ran on (a saved run's own). */
static void why_line(const struct dash *d, const struct wtg_table *t, char *buf, size_t len)
{
	char why[256];
	buf[0] = '\0';
	if (wtg_why_here(wtg_experiments[d->tab], t, dash_machine_of(d, t), why, sizeof why) > 0)
		snprintf(buf, len, "why here: %s", why);
}

/* The essay's line under the verdict in normal weight: one line, centred and cut with an ellipsis on
 * a compact screen; else whole: on one line, or its two sides (the essay's, then this machine's) a
 * line each, or wrapped in two, or each side on lines of its own where three lines hold them, else
 * wrapped in three (the last cut with one); returns the lines used. */
static int lead_line(struct dash *d, WINDOW *vw, int y, int vwid, const char *s)
{
	const char *bar = strstr(s, d->look.utf8 ? " \xe2\x94\x82 " : " | ");
	int w = tui_width(s) < vwid - 2 ? tui_width(s) : vwid - 2;
	if (!s[0])
		return 0;
	if (d->compact || w == tui_width(s)) {
		tui_put_clip(vw, y, 1 + (vwid - 2 - w) / 2, vwid - 2, A_NORMAL, &d->look, s);
		return 1;
	}
	if (bar) {
		char essay[512];
		const char *here = bar + (d->look.utf8 ? 5 : 3);
		snprintf(essay, sizeof essay, "%.*s", (int)(bar - s), s);
		int ne = tui_wrap_lines(essay, vwid - 2), nh = tui_wrap_lines(here, vwid - 2);
		if (ne + nh <= (tui_wrap_lines(s, vwid - 2) > 2 ? 3 : 2)) {
			ne = tui_wrap(vw, y, 1, vwid - 2, 3, A_NORMAL, true, essay);
			return ne + tui_wrap(vw, y + ne, 1, vwid - 2, 3 - ne, A_NORMAL, true, here);
		}
	}
	return tui_wrap_clip(vw, y, 1, vwid - 2, 3, A_NORMAL, &d->look, true, s);
}

/* The verdict large under the title, the essay's line and why here; returns the lines used. */
int dash_draw_lead(struct dash *d, const struct wtg_table *t, WINDOW *vw, int vh, int vwid)
{
	const struct wtg_experiment *e = wtg_experiments[d->tab];
	const struct tui_look *l = &d->look;
	char v[512], fig[32], es[640];	/* v as the reports' verdicts: ceiling's run past 256 */
	int y = 0;
	wtg_experiment_verdict(e, t, v, sizeof v);
	const struct wtg_table *before = dash_before(d);
	if (!v[0] && t->state == WTG_RUNNING && before && before != t) {
		t = before;	/* a rerun without its headline row yet: the verdict before it stays */
		wtg_experiment_verdict(e, t, v, sizeof v);
	}
	essay_line(d, t, v, es, sizeof es, d->compact, vwid - 2);	/* whole from 80x24 (lead_line) */
	if (!v[0] && !es[0])
		return 0;
	attr_t va = tui_attr(l, TR_TITLE) | A_BOLD;
	tui_verdict_figure(v, fig, sizeof fig);
	verdict_conditions(d, t, v, sizeof v);
	if (v[0] && big_room(d, vh) && tui_draw_big(vw, 0, vwid, l, va, fig) > 0)
		y = TUI_BIG_H + 1;
	tui_verdict_fit(v, vwid - 2, 3);
	if (v[0])	/* whole: a third line before a cut sentence */
		y += tui_wrap_clip(vw, y, 1, vwid - 2, tui_wrap_lines(v, vwid - 2) > 2 ? 3 : 2, va | A_UNDERLINE, l, true, v);
	/* the essay's line and why here in normal weight (dim is faint on a projector), their labels dim */
	char why[320];
	why_line(d, t, why, sizeof why);
	int ey = y;
	y += lead_line(d, vw, y, vwid, es);
	if (why[0])	/* the reason whole where two lines hold it: it is what the line is for */
		y += tui_wrap_clip(vw, y, 1, vwid - 2, 2, A_NORMAL, l, true, why);
	for (; ey < y; ey++) {
		dim_label(vw, ey, tui_attr(l, TR_DIM), L"essay:");
		dim_label(vw, ey, tui_attr(l, TR_DIM), L"here:");
		dim_label(vw, ey, tui_attr(l, TR_DIM), L"why here:");
	}
	/* the samples in order where the view keeps 10 lines (at 80x24 a long lead leaves fewer) */
	return y + (d->compact || vh - y >= 10 ? draw_in_order(d, t, vw, y, vwid) : 0);
}
