/* svg.h: what the SVG writer's two files share (svg.c: the slide, its text, lines and markers;
 * svg_views.c: the four views). A chart draws one run's table, or the same experiment of several
 * runs overlaid on one scale, each run in its own colour and marker. */
#ifndef WTG_REPORT_SVG_H
#define WTG_REPORT_SVG_H

#include <stdbool.h>
#include <stdio.h>

#include "wtg/experiment.h"
#include "wtg/layout.h"
#include "wtg/machine.h"
#include "wtg/table.h"

#define SVG_W 1280.0
#define SVG_H 720.0
#define SVG_INK "#222222"
#define SVG_GRID "#d9d9d9"
#define SVG_MUTED "#666666"
#define SVG_WARN "#b36b00"

/* The plotting rectangle. */
struct svg_frame {
	double x, y, w, h;
};

/* How a line, an area or a bar is drawn: its colour, its dash pattern ("" solid) and the shape of
 * its markers (0 circle, 1 square, 2 triangle), so a grey print keeps them apart too. */
struct svg_ink {
	const char *colour, *dash;
	int shape;
};

/* The runs a chart draws: one table (n 1, label NULL), or one experiment's tables of several runs
 * (at most WTG_LAY_MAX_RUNS) named by label[r], drawn on one pair of axes. m: the machine whose
 * caches a working-set axis marks, NULL for none. */
struct svg_runs {
	int n;
	const struct wtg_table *const *t;
	const char *const *label;
	const struct wtg_machine *m;
};

/* Series k of run r: one run's series each a colour; several runs each a colour and a marker, their
 * series told apart by the dash. */
struct svg_ink svg_ink_of(const struct svg_runs *rs, int r, int k);
/* The colour of colour group g of one run's bars (0..2). */
const char *svg_group_colour(int g);

/* A text element: anchor "start", "middle" or "end"; extra attributes as given (may be NULL). */
void svg_text(FILE *f, double x, double y, double size, const char *anchor, const char *extra, const char *s);
/* About how wide a string is in a sans-serif face (for laying out labels before the viewer does). */
double svg_text_w(const char *s, double size);
/* A line of text from x to at most `right`: its size lowered from `size` until it fits. */
void svg_text_fit(FILE *f, double x, double y, double size, double right, const char *extra, const char *s);
void svg_line(FILE *f, double x1, double y1, double x2, double y2, const char *stroke, double width,
	      const char *dash);
void svg_marker(FILE *f, const struct svg_ink *ink, double x, double y, double r);
/* A message in the middle of an empty chart. */
void svg_empty(FILE *f, const struct svg_frame *fr, const char *msg);

/* The view of the experiment the runs hold, in the frame (svg_views.c). */
void svg_draw_sweep(FILE *f, const struct svg_frame *fr, const struct svg_runs *rs, const struct wtg_experiment *e);
void svg_draw_bars(FILE *f, const struct svg_frame *fr, const struct svg_runs *rs, const struct wtg_experiment *e);
void svg_draw_hist(FILE *f, const struct svg_frame *fr, const struct svg_runs *rs);
void svg_draw_counters(FILE *f, const struct svg_frame *fr, const struct svg_runs *rs, const struct wtg_experiment *e);
/* A division of extra time (tail's p99 and p90) as stacked bars in fr (svg_parts.c), and the height
 * they take (0: the table has none). */
double svg_parts_height(const struct wtg_table *t);
void svg_draw_parts(FILE *f, const struct svg_frame *fr, const struct wtg_table *t);
/* Several runs: an entry per run (its marker, a line sample when lines, its label) from x on the
 * line at y, smaller type when they would pass `right`. */
void svg_runs_legend(FILE *f, const struct svg_runs *rs, double x, double y, double right, bool lines);

#endif
