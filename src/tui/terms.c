/* terms.c: t shows the terms the current tab uses (its experiment lists them; the glossary says each
 * in one line), over the dashboard in the help screen's window; t, Esc or any key closes it. On a
 * narrow screen a line wraps once while rows are left, else it is cut with an ellipsis; terms past
 * the last row are counted on it ("... 3 more"), never dropped without a word. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "wtg/glossary.h"
#include "wtg/util.h"
#include "dash.h"

/* The tab's terms (at most max), known ones only. */
static int tab_terms(const struct wtg_experiment *e, const struct wtg_term **out, int max)
{
	int n = 0;
	for (int i = 0; e->terms && e->terms[i] && n < max; i++) {
		const struct wtg_term *t = wtg_term_find(e->terms[i]);
		if (t)
			out[n++] = t;
	}
	return n;
}

void dash_draw_terms(struct dash *d)
{
	WINDOW *w = d->help;
	const struct tui_look *l = &d->look;
	const struct wtg_experiment *e = wtg_experiments[d->tab];
	const struct wtg_term *terms[32];
	int n = tab_terms(e, terms, (int)WTG_ARRAY_LEN(terms));
	char title[96];
	snprintf(title, sizeof title, "terms: %s", e->name);
	werase(w);
	tui_frame(w, l, tui_attr(l, TR_TITLE), title, tui_attr(l, TR_TITLE), "t or Esc closes", tui_attr(l, TR_DIM));
	int ww = getmaxx(w) - 4, rows = getmaxy(w) - 2;	/* inside the frame, a column of margin */
	int nw = 0;
	for (int i = 0; i < n; i++)
		if (tui_width(terms[i]->name) > nw)
			nw = tui_width(terms[i]->name);
	int dx = 2 + nw + 2, dw = ww - nw - 2;
	/* a line too long for its room wraps once while rows are left over, else it is cut with an
	 * ellipsis; past the last row, the last says how many more */
	int spare = rows - n;
	int room = n <= rows ? n : rows - 1;
	int y = 1, shown = 0;
	for (; shown < room; shown++) {
		int lines = tui_width(terms[shown]->line) > dw && spare > 0 ? 2 : 1;
		spare -= lines - 1;
		tui_put(w, y, 2, nw, tui_attr(l, TR_KEY), terms[shown]->name);
		y += tui_wrap_clip(w, y, dx, dw, lines, A_NORMAL, l, false, terms[shown]->line);
	}
	if (shown < n)
		tui_printf(w, y, 2, ww, tui_attr(l, TR_DIM), "%s %d more: a taller screen shows them", l->g->ellipsis,
			   n - shown);
	else if (n == 0)
		tui_put(w, y, 2, ww, tui_attr(l, TR_DIM), "this tab lists no terms");
	touchwin(w);
	wnoutrefresh(w);
}
