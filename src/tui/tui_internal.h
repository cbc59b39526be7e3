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
#include "wtg/layout.h"
#include "wtg/options.h"
#include "wtg/session.h"
#include "wtg/table.h"
#include "wtg/tui.h"
#include "wtg/util.h"

/* ---- look: colour roles and glyph sets (screen.c) ---- */

/* The tag after a row whose samples waited for a CPU (its `contended` column > 0), and its legend. */
#define TUI_BUSY_TAG "busy"

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
/* --record (record.c): the recording's file opened before the terminal (0, or -1 after "wtg: ..."),
 * its header once curses knows the terminal's size (both called by tui_screen_open); after each
 * frame, what changed on the screen as an event; at the end (after tui_screen_close), the file
 * written whole when keep, else nothing: 0, or 1 when the recording failed (said on stderr). */
int tui_record_start(const struct wtg_options *o);
void tui_record_header(void);
void tui_record_frame(void);
int tui_record_end(bool keep);
/* The machines view (machines.c) of the --load files over the dashboard's screen: 0 when m (or Esc)
 * goes back, -1 when q quits, a signal that ended it, or -2 with why it cannot open in msg. */
int tui_machines_over(const struct wtg_options *o, const struct tui_look *look, char *msg, size_t len);
/* Once, when the recording stopped on a failed write: why, for the status line. */
bool tui_record_stopped(char *msg, size_t len);
/* Readable when a signal arrived (the self-pipe). */
int tui_signal_fd(void);
/* Drain the self-pipe: the terminating signal that arrived (SIGINT, SIGTERM, SIGHUP) or 0; sets
 * *continued when a SIGCONT arrived (the process was stopped and goes on). */
int tui_signal_take(bool *continued);
/* After a stop: the dashboard's terminal modes back (cbreak, no echo, keypad, its screen) at the next
 * update, which draws every cell again. */
void tui_screen_resume(void);
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
/* A list of figures ("n 40, median 13.5 us [..], p90 ...") cut to width columns by whole items from
 * the end, at ", " (a number's "8,555" is one item); one item wider than width stays as it is. */
void tui_fit_items(char *s, int width);
/* The lines s takes word-wrapped in width columns. */
int tui_wrap_lines(const char *s, int width);
/* The same, the last line cut with an ellipsis when s needs more lines than maxlines. */
int tui_wrap_clip(WINDOW *w, int y, int x, int width, int maxlines, attr_t a, const struct tui_look *l, bool centred,
		  const char *s);
/* Repeat a glyph n times. */
void tui_repeat(WINDOW *w, int y, int x, int n, attr_t a, const char *glyph);
/* Frame the whole window, with a title on the top edge and an optional right-hand title. */
void tui_frame(WINDOW *w, const struct tui_look *l, attr_t a, const char *title, attr_t ta,
	       const char *right, attr_t ra);
/* A horizontal bar of `width` cells filled to frac (0..1), in eighths where the glyphs allow. */
void tui_hbar(WINDOW *w, int y, int x, int width, double frac, attr_t a, const struct tui_look *l);
/* A progress bar: filled part in a, the rest in the "todo" glyph. */
void tui_progress(WINDOW *w, int y, int x, int width, double frac, attr_t a, const struct tui_look *l);
/* The lines block digits take. */
#define TUI_BIG_H 5
/* The verdict's figure: the first number after its last ':' or '=', else its last number. */
void tui_verdict_figure(const char *v, char *out, size_t len);
/* A verdict that would take more than lines lines of width shortened by whole parts (widgets.c). */
void tui_verdict_fit(char *v, int width, int lines);
/* The figure in block digits, centred on line y; returns its width, 0 when it does not fit. */
int tui_draw_big(WINDOW *w, int y, int width, const struct tui_look *l, attr_t a, const char *fig);

/* The numbers, words, axes and bins come from the shared layout (wtg/layout.h); the views call
 * them by these names. */
#define tui_fmt_num wtg_lay_fmt_num
#define tui_fmt_value wtg_lay_fmt_value
#define tui_fmt_tick_size wtg_lay_fmt_tick_size
#define tui_fmt_tick_count wtg_lay_fmt_tick_count
#define tui_fmt_tick_time wtg_lay_fmt_tick_time
#define tui_time_scale wtg_lay_time_scale
#define tui_cell_words wtg_lay_cell_words
#define tui_row_words wtg_lay_row_words
#define tui_row_label wtg_lay_row_label
#define tui_nice_ceil wtg_lay_nice_ceil
#define tui_log_ticks wtg_lay_log_ticks
#define tui_log_col wtg_lay_log_col
#define tui_bin_edges wtg_lay_bin_edges
#define tui_bin_of wtg_lay_bin_of
#define tui_wants_log wtg_lay_wants_log
#define tui_bin_count wtg_lay_bin_count

/* ---- views ---- */

struct tui_view {
	WINDOW *w;
	int y, x, h, wd;			/* the rectangle of w to draw in */
	const struct tui_look *look;
	const struct wtg_table *t;		/* the run drawn: a private copy, no lock needed */
	/* Other runs drawn with it (saved runs, the tab's earlier run), oldest first: tables[0..ntables);
	 * none: the views draw t alone. labels[0..ntables) name them and labels[ntables] names t; bit i
	 * of faded: tables[i] is a "before" run, drawn dim. */
	const struct wtg_table *const *tables;
	int ntables;
	const char *const *labels;
	unsigned faded;
	const char *compare;			/* the runs' headline ratios, one line, NULL for none */
	int scroll;				/* rows a long table is scrolled back from its latest */
	const struct wtg_experiment *e;
};

/* The runs of a view in order (tables..., then t): n of them, at most WTG_LAY_MAX_RUNS (runs.c). */
int tui_view_runs(const struct tui_view *v, const struct wtg_table **t, const char **label, bool *faded);
/* The role a run draws in: its own colour, dim when faded. */
enum tui_role tui_run_role(int k, bool faded);
/* The mark of run k's points and legend. */
const char *tui_run_marker(const struct tui_look *l, int k);

/* One row per view (indexed by enum wtg_view): its draw and the lines its body wants. */
struct tui_view_class {
	const char *name;
	const char *help;			/* one line on the help screen */
	void (*draw)(const struct tui_view *v);
	int (*wants)(const struct tui_view *v);
	bool samples_beside;			/* a histogram of the table's samples beside or under it */
};
extern const int tui_nview_classes;
/* The row of a view (counters' for an unknown one). */
const struct tui_view_class *tui_view_class(enum wtg_view view);

/* Error, failed checks, checks summary and notes at the bottom of the rectangle; returns the lines
 * used (at most max). */
int tui_footer(const struct tui_view *v, int max);
void tui_sweep_draw(const struct tui_view *v);
void tui_bars_draw(const struct tui_view *v);
void tui_hist_draw(const struct tui_view *v);
void tui_counters_draw(const struct tui_view *v);
/* A division of extra time (tail's p99 and p90) as stacked bars under the view (parts.c): the lines
 * it takes of a body v->h high (0: the table has none), and the bars in v. */
int tui_parts_lines(const struct tui_view *v);
void tui_parts_draw(const struct tui_view *v);
/* The experiment's view, with a histogram beside or under it when a non-histogram table has
 * samples, and the footer. */
void tui_view_draw(const struct tui_view *v);

#endif
