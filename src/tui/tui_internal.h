/* tui_internal.h: what the dashboard's files share (look, glyphs, drawing helpers, the four views). */
#ifndef WTG_TUI_INTERNAL_H
#define WTG_TUI_INTERNAL_H

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#if defined(HAVE_NCURSESW_CURSES_H)
#include <ncursesw/curses.h>
#else
#include <curses.h>
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wtg/experiment.h"
#include "wtg/options.h"
#include "wtg/session.h"
#include "wtg/table.h"
#include "wtg/tui.h"
#include "wtg/util.h"

/* ---- look: colour roles and glyph sets (screen.c) ---- */

enum tui_role {
	TR_NORMAL = 0, TR_TITLE, TR_S1, TR_S2, TR_S3, TR_OK, TR_ERR, TR_WARN, TR_DIM, TR_WALL, TR_USER,
	TR_SYS, TR_CUR, TR_KEY, TR_AXIS, TR_BAR, TR_NROLES
};

struct tui_glyphs {
	bool braille;			/* the sweep draws with U+2800 dots */
	const char *h, *v, *tl, *tr, *bl, *br;	/* frames */
	const char *ax_h, *ax_v, *ax_origin, *ax_xtick, *ax_ytick;
	const char *hbar[9];		/* horizontal eighths; [8] is a full cell */
	const char *vbar[9];		/* vertical eighths; [8] is a full cell */
	const char *lhalf;		/* the right half of a cell: a bar growing leftwards */
	const char *todo;		/* the unfilled part of a progress bar */
	const char *sep;		/* " · " */
	const char *ok, *bad, *play, *pause, *ellipsis, *left, *right, *arrow, *times, *dash;
	const char *marker[3];		/* the measured points of series 1..3 */
	const char *fill[3];		/* overlaid histograms without colour: each its own fill */
	const char *line;		/* the line of a sweep when there is no braille */
	const char *ideal;		/* the ideal-scaling mark on a bar */
	const char *pmark;		/* a percentile under a histogram */
	const char *pline;		/* a percentile's line through a histogram */
};

struct tui_look {
	const struct tui_glyphs *g;
	bool color;
	bool utf8;
};

extern const struct tui_glyphs tui_glyphs_utf8;
extern const struct tui_glyphs tui_glyphs_ascii;

/* Open the terminal: newterm, modes, colours, signal handlers. Prints "wtg: ..." and returns -1 when
 * the terminal cannot be used. */
int tui_screen_open(struct tui_look *look, const struct wtg_options *o);
/* endwin, free the screen, put back the crash handlers that were there before. INT, TERM and HUP
 * from then on remove the data file and end the process (the caller only shuts down after this). */
void tui_screen_close(void);
/* Readable when a signal arrived (the self-pipe). */
int tui_signal_fd(void);
/* Drain the self-pipe: the terminating signal that arrived (SIGINT, SIGTERM, SIGHUP) or 0. */
int tui_signal_take(void);
attr_t tui_attr(const struct tui_look *l, enum tui_role r);

/* ---- drawing helpers (widgets.c) ---- */

/* Columns a string takes on screen. */
int tui_width(const char *s);
/* Put at most maxw columns of s at (y, x) with attributes a; returns the columns written. */
int tui_put(WINDOW *w, int y, int x, int maxw, attr_t a, const char *s);
int tui_printf(WINDOW *w, int y, int x, int maxw, attr_t a, const char *fmt, ...) WTG_PRINTF(6, 7);
/* Like tui_put, but a string that does not fit ends in an ellipsis. */
int tui_put_clip(WINDOW *w, int y, int x, int maxw, attr_t a, const struct tui_look *l, const char *s);
/* Word-wrap s into at most maxlines lines of width columns from (y, x); returns the lines used. */
int tui_wrap(WINDOW *w, int y, int x, int width, int maxlines, attr_t a, bool centred, const char *s);
/* Repeat a glyph n times. */
void tui_repeat(WINDOW *w, int y, int x, int n, attr_t a, const char *glyph);
/* Frame the whole window, with a title on the top edge and an optional right-hand title. */
void tui_frame(WINDOW *w, const struct tui_look *l, attr_t a, const char *title, attr_t ta,
	       const char *right, attr_t ra);
/* A horizontal bar of `width` cells filled to frac (0..1), in eighths where the glyphs allow. */
void tui_hbar(WINDOW *w, int y, int x, int width, double frac, attr_t a, const struct tui_look *l);
/* A progress bar: filled part in a, the rest in the "todo" glyph. */
void tui_progress(WINDOW *w, int y, int x, int width, double frac, attr_t a, const struct tui_look *l);

/* Numbers: 3 significant digits, no exponent ("0.853", "26.1", "1024", "34216613807"). */
void tui_fmt_num(char *buf, size_t len, double v);
/* A value with its column's unit: sizes for "B", durations for ns/us/ms/s, else number + unit. */
void tui_fmt_value(char *buf, size_t len, double v, const char *unit);
/* Compact axis labels. */
void tui_fmt_tick_size(char *buf, size_t len, double bytes);	/* 16B 4K 64K 1M */
void tui_fmt_tick_count(char *buf, size_t len, double v);	/* 1 10 100 1k 10k 1M */
void tui_fmt_tick_time(char *buf, size_t len, double v, const char *unit);	/* 85ns 1.2us 3ms */
/* Multiplier from a time unit to ns (1 for "ns", 1e3 "us", 1e6 "ms", 1e9 "s"), 0 if not a time. */
double tui_time_scale(const char *unit);

/* A cell of a table row in words: "1,024 read calls", "10.2 ms", "26.1 GB/s", "bufsize 256K". */
void tui_cell_words(char *buf, size_t len, const struct wtg_table *t, int row, int col);
/* A row in words, columns joined by ", ", skipping column `skip` (-1: none). */
void tui_row_words(char *buf, size_t len, const struct wtg_table *t, int row, int skip);
/* The text of a row's label: its text columns (or the first column) joined by a space. */
void tui_row_label(char *buf, size_t len, const struct wtg_table *t, int row, const char *const *cols,
		   int ncols);

/* ---- pure helpers behind the axes and bins (widgets.c; unit-tested) ---- */

/* The smallest of 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 x 10^k that is >= v (v > 0); 1 for v <= 0. */
double tui_nice_ceil(double v);
/* Tick positions on a log2 axis from lo to hi (both > 0) drawn over `cells` columns, labels at least
 * `minsep` columns apart. bytes: powers of two (steps of 1, 2, 4 ... in the exponent); else powers
 * of ten when the range spans a decade, powers of two otherwise. Returns the count (<= max). */
int tui_log_ticks(double lo, double hi, int cells, int minsep, bool bytes, double *ticks, int max);
/* Column (0..cells-1) of x on a log2 axis from lo to hi. */
int tui_log_col(double x, double lo, double hi, int cells);
/* n+1 bin edges from lo to hi, geometric when log (lo > 0), else linear. */
void tui_bin_edges(double lo, double hi, int n, bool log, double *edges);
/* Bin of v for those edges (values outside go to the first or last bin). */
int tui_bin_of(double v, const double *edges, int n);
/* Whether a distribution from lo to hi is better drawn on log bins (it spans a decade or more). */
bool tui_wants_log(double lo, double hi);
/* Bins for n samples on a chart `cells` wide: about 4 x cbrt(n), from 8 up to cells. */
int tui_bin_count(size_t n, int cells);

/* ---- views ---- */

struct tui_view {
	WINDOW *w;
	int y, x, h, wd;			/* the rectangle of w to draw in */
	const struct tui_look *look;
	const struct wtg_table *t;		/* a private copy: no lock needed */
	const struct wtg_experiment *e;
};

/* Error, failed checks, checks summary and notes at the bottom of the rectangle; returns the lines
 * used (at most max). */
int tui_footer(const struct tui_view *v, int max);
void tui_sweep_draw(const struct tui_view *v);
void tui_bars_draw(const struct tui_view *v);
void tui_hist_draw(const struct tui_view *v);
void tui_counters_draw(const struct tui_view *v);
/* The experiment's view, with a histogram beside or under it when a non-histogram table has
 * samples, and the footer. */
void tui_view_draw(const struct tui_view *v);

/* Deep copy of src (locked while copying) into dst (a private table set up with wtg_table_init)
 * when src's generation moved or force; returns true when dst changed. */
bool tui_table_copy(struct wtg_table *dst, struct wtg_table *src, bool force);

#endif
