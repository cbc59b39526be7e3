/* test_partsbar.c: tail's division of extra time as stacked bars (src/layout/layout_parts.c, drawn
 * by src/tui/parts.c), from the saved run tests/fixtures/tail-parts.json: the bars are the loaded
 * row's p99 and p90, their cells fill the bar in proportion to the shares, and the dashboard's view
 * at 80 columns draws the p99's bar under the histogram with its parts' names and shares. */
#include "config.h"

#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "../../src/tui/tui_internal.h"
#include "unit.h"
#include "wtg/layout_parts.h"
#include "wtg/load.h"

static char screen[48][512];

/* Draw t's view (h x w) off-screen and read it back as text; with before, a rerun's: before, then t. */
static void render_runs(const struct wtg_table *before, const struct wtg_table *t, int h, int w, const char *compare)
{
	struct tui_look look = { &tui_glyphs_utf8, false, true };
	WINDOW *win = newwin(h, w, 0, 0);
	const struct wtg_table *runs[1] = { before };
	const char *labels[2] = { "run 1: quiet and burners", "run 2: quiet and burners" };
	struct tui_view v = { .w = win, .y = 0, .x = 0, .h = h, .wd = w, .look = &look, .t = t, .e = t->exp };
	if (before) {
		v.tables = runs;
		v.ntables = 1;
		v.labels = labels;
		v.compare = compare;
	}
	tui_view_draw(&v);
	for (int y = 0; y < 48; y++) {
		wchar_t wb[512];
		memset(wb, 0, sizeof wb);
		screen[y][0] = '\0';
		if (y < h) {
			mvwinnwstr(win, y, 0, wb, w);
			wcstombs(screen[y], wb, sizeof screen[y] - 1);
		}
	}
	delwin(win);
}

static void render(const struct wtg_table *t, int h, int w)
{
	render_runs(NULL, t, h, w, NULL);
}

/* SHOW=1 in the environment prints what was drawn. */
static void show(int h)
{
	for (int y = 0; getenv("SHOW") && y < h; y++)
		printf("# |%s\n", screen[y]);
}

static int line_with(const char *s)
{
	for (int y = 0; y < 48; y++)
		if (strstr(screen[y], s))
			return y;
	return -1;
}

static void test_layout(const struct wtg_table *t)
{
	struct wtg_lay_parts p;
	CHECK(wtg_lay_parts_build(&p, t) == 2);
	CHECK_STR(p.row, "burners on (2)");
	CHECK_STR(p.b[0].which, "p99");
	CHECK_STR(p.b[1].which, "p90");
	int cx = wtg_table_col(t, "p99_excess_ns"), cw = wtg_table_col(t, "p99_wait_pct");
	CHECK(cx >= 0 && cw >= 0);
	CHECK_NEAR(p.b[0].excess, wtg_table_num(t, 1, cx), 1e-9);
	CHECK_NEAR(p.b[0].pct[0], wtg_table_num(t, 1, cw), 1e-9);
	for (int i = 0; i < p.n; i++) {
		double sum = 0;
		for (int k = 0; k < WTG_LAY_NPARTS; k++)
			sum += isfinite(p.b[i].pct[k]) ? p.b[i].pct[k] : 0;
		CHECK(fabs(sum - 100) <= 2);	/* the parts add up to the extra */
		int w[WTG_LAY_NPARTS], cells = 0;
		CHECK(wtg_lay_parts_cells(&p.b[i], 60, w) == 60);
		for (int k = 0; k < WTG_LAY_NPARTS; k++) {
			cells += w[k];
			/* in proportion: within a cell of its share of 60 (a visible part keeps one) */
			if (p.b[i].pct[k] > 0)
				CHECK(fabs(w[k] - 60 * p.b[i].pct[k] / sum) <= 1.0 || (w[k] == 1 && p.b[i].pct[k] < 2));
			else
				CHECK(w[k] == 0);
		}
		CHECK(cells == 60);
	}
	/* the label a segment holds: name and share, else letter and share, else the letter */
	char lab[48];
	struct wtg_lay_part_bar b = { "p99", 1900, { 84.2, 9.4, NAN, 0.3, 6.1 } };
	CHECK(wtg_lay_part_label(lab, sizeof lab, &b, 0, 20) == 1);
	CHECK_STR(lab, "wait 84%");
	CHECK(wtg_lay_part_label(lab, sizeof lab, &b, 4, 5) == 1);
	CHECK_STR(lab, "U6%");
	CHECK(wtg_lay_part_label(lab, sizeof lab, &b, 4, 1) == 0);
	CHECK_STR(lab, "U");
	int w[WTG_LAY_NPARTS];
	wtg_lay_parts_cells(&b, 30, w);
	char rest[160];
	wtg_lay_parts_rest(rest, sizeof rest, &b, w);
	CHECK_STR(rest, "U 6%");	/* on-CPU's 3 cells hold "C9%", unexplained's 2 only its letter */
	const struct wtg_lay_part_bar neg = { "p90", 250, { 110, -12, 0, 0, 2 } };
	wtg_lay_parts_cells(&neg, 30, w);
	CHECK(w[1] == 0 && w[0] + w[4] == 30);
	wtg_lay_parts_rest(rest, sizeof rest, &neg, w);
	CHECK_STR(rest, "on-CPU -12%, U 2%");
}

static void test_view(const struct wtg_table *t)
{
	/* tail's view at 80 columns, the height it has on a 24-line terminal: the p99's and the p90's bars
	 * side by side on one line */
	render(t, 10, 76);
	show(10);
	int y = line_with("p99 +3.54 us [");
	CHECK(y >= 0);
	CHECK(y >= 0 && strstr(screen[y], "[wait 76%") && strstr(screen[y], "U24%"));
	CHECK(y >= 0 && strstr(screen[y], "p90 +1.37 us [wait 49%") && strstr(screen[y], "U50%"));
	CHECK(y >= 0 && strstr(screen[y], "p99 +") < strstr(screen[y], "p90 +"));
	CHECK(line_with("median") >= 0 || line_with("burners off") >= 0);	/* the histogram stays */
	/* a taller box: both bars, the parts named in full, and the line of the letters */
	render(t, 30, 100);
	show(30);
	y = line_with("p99 +3.54 us [");
	CHECK(y >= 0 && strstr(screen[y], "wait 76%") && strstr(screen[y], "unexplained 24%"));
	CHECK(y >= 0 && strstr(screen[y + 1], "p90 +1.37 us [wait 49%") && strstr(screen[y + 1], "unexplained 50%"));
	CHECK(y >= 0 && strstr(screen[y + 2], "burners on (2) over its median batches: W waiting for a CPU, U unexplained"));
	/* a rerun whose chart keeps 5 rows under its three-line comparison (tail at 80x24 under a
	 * three-line verdict): four strips do not fit, overlaid none could be named, so the latest
	 * run's two draw, each labelled, on the axis */
	const char *cmp = "quiet and burners \xe2\x86\x92 quiet and burners, sequential: p99 ratio x12.72 \xe2\x86\x92 "
			  "x13.99 [CI 11.98\xe2\x80\x93" "14.75], inconclusive; x0.92 [CI 0.88\xe2\x80\x93" "1.02] inconclusive: "
			  "median ns per getpid";
	render_runs(t, t, 8, 76, cmp);
	show(8);
	y = line_with("\xe2\x97\x86 burners off");	/* the latest run's mark, as its comparison's "now" */
	CHECK(y >= 0);
	CHECK(line_with("\xe2\x97\x86 burners on (2)") == y + 1);
	CHECK(line_with("log scale") == y + 2);
	CHECK(line_with("p99 ratio x12.72") >= 0 && line_with("p99 ratio x12.72") < y);
	/* with room for all four, every run's two */
	render_runs(t, t, 12, 76, cmp);
	show(12);
	int n = 0;
	for (int k = 0; k < 12; k++)
		n += strstr(screen[k], "burners o") != NULL;
	CHECK(n == 4);
	/* without a comparison (saved runs replayed, no before): the overlaid chart as before */
	render_runs(t, t, 5, 76, NULL);
	show(5);
	CHECK(line_with("burners off") < 0);
	/* a row without a division: no bar */
	struct wtg_table copy;
	wtg_table_init(&copy, t->exp);
	CHECK(wtg_lay_parts_build(&(struct wtg_lay_parts){ 0 }, &copy) == 0);
	wtg_table_free(&copy);
}

int main(void)
{
	if (!setlocale(LC_ALL, "C.UTF-8"))
		setlocale(LC_ALL, "C.utf8");
	const char *top = getenv("top_srcdir");
	char path[4096], err[512];
	snprintf(path, sizeof path, "%s/tests/fixtures/tail-parts.json", top && *top ? top : ".");
	struct wtg_loaded *l = calloc(1, sizeof *l);
	int i = wtg_experiment_find("tail");
	CHECK(l && i >= 0 && wtg_load_file(path, l, err, sizeof err) == 0);
	if (!l || i < 0 || !l->present[i])
		return unit_done("test_partsbar");
	test_layout(&l->tables[i]);
	/* an off-screen terminal for the view (both ends /dev/null) */
	FILE *dev = fopen("/dev/null", "r+");
	SCREEN *scr = dev ? newterm("xterm", dev, dev) : NULL;
	if (scr) {
		set_term(scr);
		test_view(&l->tables[i]);
		endwin();
		delscreen(scr);
	} else {
		fprintf(stderr, "test_partsbar: no xterm terminfo: the view is not drawn\n");
	}
	if (dev)
		fclose(dev);
	wtg_loaded_free(l);
	free(l);
	return unit_done("test_partsbar");
}
