/* layout.h: what a chart of a table is, before anything is drawn: which columns a view plots, the
 * scales, nice ticks, log2 axes, histogram bins, bar lengths, counter grids and the labels' text.
 * Knows nothing of curses or SVG: the dashboard's views and the SVG writer both draw from it. */
#ifndef WTG_LAYOUT_H
#define WTG_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>

#include "wtg/experiment.h"
#include "wtg/table.h"

/* ---- numbers and labels ---- */

/* Numbers: 3 significant digits, no exponent ("0.853", "26.1", "1024", "34216613807"). */
void wtg_lay_fmt_num(char *buf, size_t len, double v);
/* A value with its column's unit: sizes for "B", durations for ns/us/ms/s, else number + unit. */
void wtg_lay_fmt_value(char *buf, size_t len, double v, const char *unit);
/* Compact axis labels: 16B 4K 1M; 1 10 1k 10k; 85ns 1.2us 3ms. */
void wtg_lay_fmt_tick_size(char *buf, size_t len, double bytes);
void wtg_lay_fmt_tick_count(char *buf, size_t len, double v);
void wtg_lay_fmt_tick_time(char *buf, size_t len, double v, const char *unit);
/* Labels for the ticks of one axis (times in `unit`, or counts when it is not a time), with as many
 * more decimals as it takes for neighbours to differ: "1.10us 1.11us", never "1.1us 1.1us". */
void wtg_lay_tick_labels(char (*labels)[32], const double *ticks, int n, const char *unit);
/* Multiplier from a time unit to ns (1 for "ns", 1e3 "us", 1e6 "ms", 1e9 "s"), 0 if not a time. */
double wtg_lay_time_scale(const char *unit);

/* A cell of a table row in words: "1,024 read calls", "10.2 ms", "26.1 GB/s", "bufsize 256K". */
void wtg_lay_cell_words(char *buf, size_t len, const struct wtg_table *t, int row, int col);
/* A row in words, columns joined by ", ", skipping column `skip` (-1: none). */
void wtg_lay_row_words(char *buf, size_t len, const struct wtg_table *t, int row, int skip);
/* The text of a row's label: the named columns, else its text columns (or the first column),
 * joined by a space. */
void wtg_lay_row_label(char *buf, size_t len, const struct wtg_table *t, int row, const char *const *cols,
		       int ncols);

/* ---- axes and bins ---- */

/* The smallest of 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 x 10^k that is >= v (v > 0); 1 for v <= 0. */
double wtg_lay_nice_ceil(double v);
/* Tick positions on a log2 axis from lo to hi (both > 0) drawn over `cells` columns, labels at least
 * `minsep` columns apart. bytes: powers of two (steps of 1, 2, 4 ... in the exponent); else powers
 * of ten when the range spans a decade, powers of two otherwise. Returns the count (<= max). */
int wtg_lay_log_ticks(double lo, double hi, int cells, int minsep, bool bytes, double *ticks, int max);
/* Where x falls from lo (0) to hi (1) on a log2 axis (clamped; 0 for an empty range). */
double wtg_lay_log_frac(double x, double lo, double hi);
/* Column (0..cells-1) of x on a log2 axis from lo to hi. */
int wtg_lay_log_col(double x, double lo, double hi, int cells);
/* Where x falls from lo (0) to hi (1) on a log2 (log) or linear scale, clamped. */
double wtg_lay_frac(double x, double lo, double hi, bool log);
/* Round ticks (1, 2, 5 x 10^k apart, about one per 9 cells) on a linear axis. Returns the count. */
int wtg_lay_lin_ticks(double lo, double hi, int cells, double *ticks, int max);
/* Intervals on a y axis from 0 to ymax (a nice_ceil value) over `rows` rows, so each tick is a
 * round number; *decimals gets the digits their labels need. */
int wtg_lay_y_intervals(double ymax, int rows, int *decimals);
/* n+1 bin edges from lo to hi, geometric when log (lo > 0), else linear. */
void wtg_lay_bin_edges(double lo, double hi, int n, bool log, double *edges);
/* Bin of v for those edges (values outside go to the first or last bin). */
int wtg_lay_bin_of(double v, const double *edges, int n);
/* Whether a distribution from lo to hi is better drawn on log bins (it spans a decade or more). */
bool wtg_lay_wants_log(double lo, double hi);
/* Bins for n samples on a chart `cells` wide: about 4 x cbrt(n), from 8 up to cells. */
int wtg_lay_bin_count(size_t n, int cells);

/* ---- several runs ---- */

/* Runs a view draws at once (saved, earlier and live ones). */
#define WTG_LAY_MAX_RUNS 8

/* The conditions a run was measured under in words: "quiet", "burners 2 spin", "burners 2 spin,
 * background, uncached". */
void wtg_lay_cond_words(char *buf, size_t len, const struct wtg_cond_snapshot *c);
/* The conditions of a table's rows: its first row's, or "mixed" when its rows differ; "" without rows. */
void wtg_lay_table_conditions(char *buf, size_t len, const struct wtg_table *t);
/* What a run really had, in words: its rows' conditions, and for an experiment that runs quiet and
 * burners itself (tail) "quiet and burners", never "quiet" (the dashboard's labels, the HTML's). */
void wtg_lay_run_conditions(char *buf, size_t len, const struct wtg_table *t);

/* ---- sweep: lines on a log2 x axis ---- */

#define WTG_LAY_MAX_SERIES 3

struct wtg_lay_series {
	char name[64];
	int n;
	double *x, *y;
	double *lo, *hi;	/* the y's confidence interval at each point, NAN where none */
	bool has_ci;
};

struct wtg_lay_sweep {
	int xcol;
	const char *xunit, *yunit, *xtitle;
	bool bytes;		/* x is a size: ticks at powers of two */
	bool legend;		/* several series, or series named by a group column */
	bool cache_marks;	/* the x axis is a working set: mark the machine's caches on it */
	double xlo, xhi, ymax;
	bool ylog;		/* a log10 y axis from ymin (a power of ten) to ymax (one too) */
	bool mixed;		/* rows under different conditions: a series each, named by them */
	double ymin;
	int ns;
	struct wtg_lay_series s[WTG_LAY_MAX_SERIES];
};

/* Work out the columns a sweep plots and collect its points (sorted by x). A y column `Y` with
 * `Y_ci_low` and `Y_ci_high` beside it gets its interval. Free with wtg_lay_sweep_free. */
void wtg_lay_sweep_build(struct wtg_lay_sweep *p, const struct wtg_table *t, const struct wtg_experiment *e);
void wtg_lay_sweep_free(struct wtg_lay_sweep *p);
/* Labels for a sweep's x ticks: sizes (16B 4K 1M) on a bytes axis, else wtg_lay_tick_labels'. */
void wtg_lay_sweep_tick_labels(const struct wtg_lay_sweep *p, const double *ticks, int n, char (*labels)[32]);
/* Several runs on one pair of axes: widen axis' x range and y range (linear or log) to take q's in. */
void wtg_lay_sweep_widen(struct wtg_lay_sweep *axis, const struct wtg_lay_sweep *q);
/* Where y falls on a sweep's y axis, 0 (bottom) to 1 (top), linear or log; clamped. */
double wtg_lay_y_frac(const struct wtg_lay_sweep *p, double y);
/* A sweep's y ticks (bottom to top) for an axis about ROWS lines tall, at most MAX, with their labels
 * ("0", "2.5", "120k"; on a log axis the powers of ten, every other one when rows are few). */
int wtg_lay_y_ticks(const struct wtg_lay_sweep *p, int rows, double *ticks, char (*labels)[32], int max);

/* ---- bars: one per row ---- */

struct wtg_lay_bar {
	char label[64];
	char value[96];		/* the value with its unit, and the extra column in words */
	double x;		/* the value */
	double ideal;		/* ideal scaling for this row, NAN when none */
	double ci_lo, ci_hi;	/* whiskers, NAN when none */
	int group;		/* colour group (0..2), -1 when the rows are not grouped */
	int run;		/* merged runs: the run it comes from (0..); -1 for one run */
	bool first;		/* merged runs: the first bar of its label (the others leave the label out) */
	bool busy;		/* the row's `contended` column is > 0: samples waited for a CPU */
};

struct wtg_lay_bars {
	int n;
	struct wtg_lay_bar *b;
	const char *unit;
	double scale;		/* the bar that fills the width (the largest |value|, ideal or CI end) */
	double base;		/* the 1-thread value ideal scaling multiplies, NAN when none */
	bool ideal;		/* the view marks ideal scaling */
	bool ideal_capped;	/* ... from the table's ideal_gbps: base x min(N, CPUs), not base x N */
	int ideal_parts;	/* rows whose ideal also carries their parts' gain (threads' parts_ratio) */
	bool neg;		/* some value or CI end is below zero: bars grow both ways from zero */
	bool has_ci;
	int ngroups;
	const char *groups[3];
	bool mixed;		/* rows under different conditions: coloured by them, groups[] their words */
	char cond_names[3][48];
	bool busy;		/* some bar is busy */
};

/* Returns 0, or -1 when the table has no rows or nothing to plot. Free with wtg_lay_bars_free. */
int wtg_lay_bars_build(struct wtg_lay_bars *b, const struct wtg_table *t, const struct wtg_experiment *e);
void wtg_lay_bars_free(struct wtg_lay_bars *b);
/* Several runs' bars grouped by label (in the order labels first appear), a bar per run within each,
 * on one scale; the ideal marks are the last run's. Returns 0, or -1 when no run has bars. */
int wtg_lay_bars_merge(struct wtg_lay_bars *out, const struct wtg_lay_bars *in, int n);
/* The bars of n runs' tables of experiment e: one run's (n 1), else merged, each label written on the
 * first bar of its group only. Returns 0, or -1 when no run has bars. */
int wtg_lay_bars_build_runs(struct wtg_lay_bars *out, const struct wtg_table *const *t, int n,
			    const struct wtg_experiment *e);

/* ---- histogram: distributions of the raw series on one scale ---- */

#define WTG_LAY_MAX_DIST (2 * WTG_LAY_MAX_RUNS)
#define WTG_LAY_TABLE_DIST 3	/* distributions of one table */

struct wtg_lay_dist {
	const struct wtg_series *s;
	const char *name;	/* the series', the run's label, or both ("quiet · burners on (2)") */
	const struct wtg_table *t;	/* the table it comes from */
	int run;		/* the run's index among those given (0: one table's) */
	const char *label;	/* the run's label, "" for one table's */
	char both[112];		/* the run's label and the series' name, when its run has several */
	double *sorted;
	size_t n;
	double min, med, p90, p99, max;
	int *bins;		/* after wtg_lay_hist_bin */
	int peak;
};

struct wtg_lay_hist {
	int nd;
	struct wtg_lay_dist d[WTG_LAY_MAX_DIST];
	double lo, hi;		/* the shared scale */
	double span[3];		/* the samples' least, least above zero and greatest */
	bool log;		/* log bins: the samples span a decade */
	bool zeros;		/* a log scale left out samples at or below zero */
	size_t maxn;
	int nb;
	double *edges;		/* nb + 1 */
};

/* Up to three series in the first one's unit, sorted, with their quantiles and a shared scale.
 * Returns the count (0: no samples). Free with wtg_lay_hist_free. */
int wtg_lay_hist_build(struct wtg_lay_hist *h, const struct wtg_table *t);
/* One distribution per run: run k's first series with samples (in the first found's unit), named
 * name[k]; runs without one are left out. Returns the count. */
int wtg_lay_hist_build_runs(struct wtg_lay_hist *h, const struct wtg_table *const *t, const char *const *name,
			    int n);
/* Every series of each run, as wtg_lay_hist_build takes them from one table, in the first found's
 * unit (the dashboard's tab of several runs draws what each run drew alone): a run of one series is
 * named name[k], a run of several "name[k] · series" (tail's burners off and on, in every run). The
 * latest runs whose distributions fit WTG_LAY_MAX_DIST; runs without samples are left out. Returns
 * the count. */
int wtg_lay_hist_build_every(struct wtg_lay_hist *h, const struct wtg_table *const *t, const char *const *name,
			     int n);
/* Widen h's scale to take in span (another run's, as h->span), before binning. */
void wtg_lay_hist_widen(struct wtg_lay_hist *h, const double span[3]);
/* Bin every distribution for a chart `cells` wide. Returns 0 or -1 (out of memory). */
int wtg_lay_hist_bin(struct wtg_lay_hist *h, int cells);
void wtg_lay_hist_free(struct wtg_lay_hist *h);
/* One line of figures for a distribution: the table row's own when there is one, else computed.
 * dash joins the ends of an interval. */
void wtg_lay_hist_figures(char *buf, size_t len, const struct wtg_table *t, const struct wtg_lay_dist *d,
			  const char *dash);

/* ---- counters: one metric per line, one value per case ---- */

#define WTG_LAY_MAX_METRICS 24
#define WTG_LAY_MAX_CASES 16
#define WTG_LAY_CELL 40

struct wtg_lay_grid {
	int ncases, first;		/* rows first .. first + ncases - 1 */
	int row[WTG_LAY_MAX_CASES];	/* the table's row of each case (the rows a "mapping" names are left out) */
	char head[WTG_LAY_MAX_CASES][64];
	bool busy[WTG_LAY_MAX_CASES];	/* some of its samples waited for a CPU (contended > 0) */
	int nm;
	char name[WTG_LAY_MAX_METRICS][48];
	char unit[WTG_LAY_MAX_METRICS][16];
	bool derived[WTG_LAY_MAX_METRICS];
	char cell[WTG_LAY_MAX_METRICS][WTG_LAY_MAX_CASES][WTG_LAY_CELL];	/* with unit */
	char bare[WTG_LAY_MAX_METRICS][WTG_LAY_MAX_CASES][WTG_LAY_CELL];	/* without */
};

/* The grid of the latest WTG_LAY_MAX_CASES rows, with faults per page and pages per fault derived.
 * Rows that name a "mapping" (faultbase's faults by mapping) are detail, not cases: left out. */
void wtg_lay_grid_build(struct wtg_lay_grid *g, const struct wtg_table *t);
/* Several runs' grids as one: a column per case and run ("cold · quiet"), cases in the order they
 * first appear, the metrics of the last run (a run without one shows n/a); at most
 * WTG_LAY_MAX_CASES columns, the latest cases kept. */
void wtg_lay_grid_merge(struct wtg_lay_grid *out, const struct wtg_lay_grid *in, const char *const *label, int n,
			const char *sep);
/* Derived figures under a grid (per fault from a difference, cold / warm ratios), each at most 256
 * bytes; dash and times are the glyphs to use. Returns how many (<= max). */
int wtg_lay_counter_figures(const struct wtg_table *t, const struct wtg_experiment *e, char fig[][256],
			    int max, const char *dash, const char *times);

#endif
