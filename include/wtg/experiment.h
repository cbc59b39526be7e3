/* experiment.h: an experiment is a descriptor plus one run function. */
#ifndef WTG_EXPERIMENT_H
#define WTG_EXPERIMENT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wtg/datafile.h"
#include "wtg/machine.h"
#include "wtg/options.h"
#include "wtg/stats.h"
#include "wtg/table.h"

/* WTG_MAX_EXP, the registry's bound, is wtg/options.h's. */

struct wtg_ctx;
struct wtg_plan;
struct wtg_relay;
struct wtg_session;
struct wtg_why;

enum wtg_view { WTG_VIEW_SWEEP = 0, WTG_VIEW_BARS, WTG_VIEW_HISTOGRAM, WTG_VIEW_COUNTERS };

/* What a sweep draws: lines of y columns over a log2 x axis. */
struct wtg_sweep_spec {
	const char *x;		/* the x column */
	const char *y[3];	/* the y columns (NULL-ended); y_ci_low / y_ci_high beside one give its CI */
	const char *group;	/* a text column whose values split the rows into series, or NULL */
	double xlo, xhi;	/* the planned x range, so the axis holds still while rows arrive (0: the data's) */
	const char *xtitle;	/* the x axis' title */
	const char *yunit;	/* what y[0] measures when its unit says less ("ms per GB"), or NULL */
	bool cache_marks;	/* x is a working set: the machine's caches belong on the axis */
	bool ylog;		/* y spans decades (valley's ms per GB): a log10 y axis, ticks at powers of ten */
	/* a roofline: y[0] is work per second, x work per byte and this the bytes per second column;
	 * each series' roofs (its best bytes rate along y = rate x, its best y flat) and the ridge where
	 * they meet are drawn on the chart; NULL: none */
	const char *ridge_rate;
};

/* What a bars view draws: one bar per row. */
struct wtg_bars_spec {
	const char *label[2];	/* the columns that label a bar */
	const char *value;	/* the bar's length */
	const char *extra;	/* shown in words after the value, or NULL */
	bool ideal;		/* mark ideal scaling from the row whose first label is 1 */
	bool named;		/* numeric labels carry their column's name: "pair 3" */
	const char *ci[2];	/* a row's interval around its value, or NULL: <value>_ci_low/_ci_high */
	const char *caption;	/* what a bar's length is, when its label does not say, or NULL */
};

/* What a histogram draws: the table's raw sample series, one per row, on one scale. */
struct wtg_hist_spec {
	const char *label;	/* the text column whose value names a row's series */
};

/* What a counters view shows: one metric per line, one value per case. */
struct wtg_counters_spec {
	const char *counter;	/* a repetition counter that names the cases when no text column does */
	bool by_difference;	/* per-fault time from the rows with most and fewest faults (when the
				 * table has no ns_per_fault of its own) */
};

/* A figure that sums the experiment up (a saved-run baseline, a verdict, the status line): where
 * it sits in the experiment's table and which way is better. */
struct wtg_headline {
	const char *figure;		/* what it is, for people; NULL: no more headlines */
	const char *key_col;		/* the row whose key_col reads key; NULL: the last row */
	const char *key;
	const char *col;		/* the value; NULL: the median of the series */
	const char *lo_col, *hi_col;	/* its 95% CI columns, NULL when none */
	const char *series;		/* its raw samples (a series name), NULL when none */
	const char *unit;		/* col's unit (per_col's: the figure's) */
	bool higher_better;		/* GB/s; times are lower-is-better */
	/* Per unit of work: the figure is col x per_scale / per_col of the same row (ms for the slice x
	 * 1e6 / bytes = ns per byte), its CI and samples scaled alike, so runs that did different
	 * amounts of work (--size, --quick) compare; NULL: col as it stands. */
	const char *per_col;
	double per_scale;
	/* A figure that is not per unit of work: the column of its row that says what work it covers
	 * (a span, a thread count); runs whose rows differ there are not compared. NULL: none. */
	const char *work_col;
	/* The figure is itself a ratio within a run (tail's p99 with burners over without): before ->
	 * after gives both runs' values, the after one with its CI ("x1.50 -> x3.20 [CI 2.61-3.90]"),
	 * not a ratio of ratios. */
	bool is_ratio;
	/* The figure is a difference of two times (mmap's fault time from two passes): it may be zero
	 * or negative, so two runs' figures compare as after - before with its interval, never a ratio. */
	bool difference;
};

#define WTG_MAX_HEADLINES 2

/* How compare takes this experiment's headline figure: one short measurement (well under a second)
 * honouring the conditions in force; NAN after wtg_table_fail(). fn NULL: compare cannot pair it. */
struct wtg_pairing {
	double (*fn)(struct wtg_ctx *ctx);
	const char *col;	/* the declared column the figure is (its unit is the figure's) */
	int decimals;		/* in compare's table */
	const char *what;	/* the figure in words */
	bool is_default;	/* compare pairs this one when --compare does not say */
};

/* What a run under c that cannot be cold says in its notes, with the experiment's not_cold (or, where
 * it declares none, WTG_NOT_COLD_WHY). */
#define WTG_NOT_COLD_NOTE "c emptied the page cache of the data file, but this run is not cold: %s (mmap " \
	"and valley measure cold under c; pagecache and uncached always read it cold)"
#define WTG_NOT_COLD_WHY "its warm-up reads the file back"

/* The conditions a teacher toggles, as bits: for an experiment that sets one itself. */
enum wtg_cond_bit {
	WTG_COND_BURN = 1u << 0,	/* b: burners */
	WTG_COND_BACKGROUND = 1u << 1,	/* p: the background policy */
	WTG_COND_UNCACHED = 1u << 2,	/* u: O_DIRECT */
	WTG_COND_COLD = 1u << 3,	/* c: the data file evicted */
};

/* What the essay measured, beside what this machine shows (the lecture's "essay" line). The essay
 * is "where the time goes", the write-up the experiments come from (it sums a file's bytes one
 * read() at a time and follows where the time went), with the figures its own machine measured. */
struct wtg_essay {
	const char *figure;	/* the essay's figure in words, e.g. "108 ms to read 1 GB at 1 MiB"; NULL: none */
	/* Whether this machine can show the essay's claim, and in words why not (e.g. "a tsc clock
	 * gives no zero pairs"); NULL: it can, or the table does not tell yet. */
	const char *(*cannot)(const struct wtg_table *t);
	double value;		/* the essay's figure as a number, in the unit of here's; 0: none to set beside */
	double (*here)(const struct wtg_table *t);	/* the run's figure beside value; NULL: the first headline's */
	const struct wtg_why *why;	/* the candidate reasons, in order, ended by { NULL }; NULL: none */
};

/* An experiment, declared whole: what it asks, its table's columns, how it is drawn, its headline
 * figures, how compare pairs it, and the function that runs it. */
struct wtg_experiment {
	const char *name;
	const char *question;
	const char *runs;	/* one line: what it runs (for --list, help and the man page); with
				 * counts that --quick changes, those of a default run */
	/* The runs line with the counts a run uses by default or with --quick (a report says what
	 * ran, not what a default run would); NULL: runs holds no such count. */
	void (*runs_with)(bool quick, char *buf, size_t len);
	bool needs_datafile;
	bool shares_dram_buf;	/* uses the memory-sized seeded buffer a headless run fills once */
	const struct wtg_column *cols;	/* the table's columns, in order */
	int ncols;
	enum wtg_view view;
	struct wtg_sweep_spec sweep;	/* the spec of the declared view; the others stay empty */
	struct wtg_bars_spec bars;
	struct wtg_hist_spec hist;
	struct wtg_counters_spec counters;
	struct wtg_headline headline[WTG_MAX_HEADLINES];
	struct wtg_pairing compare;
	int typical_s, typical_quick_s;	/* see wtg_experiment_typical_s */
	/* The one line a class reads from the back row, from the headline figures: "one kernel
	 * crossing = 159 ns". Writes it (NUL-terminated) and returns its length; 0 when the table has
	 * nothing to say yet. NULL: wtg_experiment_verdict's default (the first headline figure). */
	int (*verdict)(const struct wtg_table *t, char *buf, size_t len);
	struct wtg_essay essay;
	const char *const *terms;	/* the glossary ids (wtg/glossary.h) of the terms the tab uses, NULL-ended */
	unsigned self_conditions;	/* wtg_cond_bit: conditions the run sets itself (tail: burners) */
	/* In a headless run of several experiments its replicas may be separated by the other
	 * experiments' rounds (wtg/relay.h): it calls wtg_ctx_interleave only where it holds no helper
	 * thread, burner or condition of its own, and warms up again after one. */
	bool interleaves;
	/* Its rows are measured in rounds that can alternate two arms (--versus, wtg/paired.h): the
	 * rounds engine's experiments, syscall and readcost. */
	bool alternates;
	/* Under c the run measures the data file cold (ctx->cold: it skips the warm-up that would read
	 * the file back and evicts it before each sample). A run that reads the data file without it
	 * says it cannot be cold. */
	bool measures_cold;
	/* Why a run that reads the data file, neither measuring cold nor setting the page cache itself,
	 * is not cold under c: its notes and c's notice on its tab say it ("it prefaults its mapping
	 * first"; 40 columns at most, so the notice fits 80); NULL: WTG_NOT_COLD_WHY. */
	const char *not_cold;
	/* Why a run that reads the data file never reads it under uncached I/O (--versus=uncached then
	 * leaves it unpaired, saying so: "it times 1-byte reads of the warm page cache"); NULL: it does. */
	const char *not_uncached;
	/* Why its rows are not measured in rounds that can alternate two arms (--versus leaves it
	 * unpaired and says so); NULL with alternates false: "it does not measure in rounds that can
	 * alternate". */
	const char *not_alternating;
	int (*run)(struct wtg_ctx *ctx);	/* never NULL (wtg_experiment_check) */
	/* --dry-run: the rows run would make on this machine, from the same variant lists (wtg/plan.h);
	 * NULL: the plan gives the typical time only */
	void (*plan)(struct wtg_plan *p);
};

/* A NULL-ended list of glossary term ids, for .terms. */
#define WTG_TERMS(...) ((const char *const[]){ __VA_ARGS__, NULL })

/* The columns of a declaration, for .cols and .ncols. */
#define WTG_COLUMNS(a) .cols = (a), .ncols = (int)(sizeof(a) / sizeof((a)[0]))

/* A throughput row's figure X as a distribution over rounds (see rounds.h): X's interval (two-level
 * bootstrap over the replicas), range and sample count, the replicas and their spread, the samples
 * that waited for a CPU, the median on-CPU share and span of a sample, the warm-up windows run before
 * the rounds (rounds.h), after X itself
 * (WTG_ROUNDS_AFTER), or X and them (WTG_ROUNDS). */
#define WTG_ROUNDS_AFTER(x, unit, dec) \
	{ x "_ci_low", unit, WTG_T_REAL, dec }, { x "_ci_high", unit, WTG_T_REAL, dec }, \
	{ x "_min", unit, WTG_T_REAL, dec }, { x "_max", unit, WTG_T_REAL, dec }, \
	{ "samples", "count", WTG_T_INT, 0 }, { "replicas", "count", WTG_T_INT, 0 }, \
	{ x "_replica_spread_pct", "%", WTG_T_REAL, 1 }, { "contended", "count", WTG_T_INT, 0 }, \
	{ "cpu_share", "", WTG_T_REAL, 2 }, { "sample_ms", "ms", WTG_T_REAL, 2 }, \
	{ "warmup_windows", "count", WTG_T_INT, 0 }
#define WTG_ROUNDS(x, unit, dec) { x, unit, WTG_T_REAL, dec }, WTG_ROUNDS_AFTER(x, unit, dec)

/* The columns every distribution experiment shares (readcost, clock, tail, passes): the label column
 * (e.g. "operation"), then samples, mean, median, p90, p99, max, the median's CI, min (ns), drift. */
#define WTG_DISTRIBUTION(label) \
	{ label, "", WTG_T_TEXT, 0 }, { "samples", "count", WTG_T_INT, 0 }, \
	{ "mean_ns", "ns", WTG_T_REAL, 1 }, { "median_ns", "ns", WTG_T_REAL, 1 }, \
	{ "p90_ns", "ns", WTG_T_REAL, 1 }, { "p99_ns", "ns", WTG_T_REAL, 1 }, \
	{ "max_ns", "ns", WTG_T_REAL, 1 }, { "ci_low_ns", "ns", WTG_T_REAL, 1 }, \
	{ "ci_high_ns", "ns", WTG_T_REAL, 1 }, { "min_ns", "ns", WTG_T_REAL, 1 }, \
	{ "drift_pct", "%", WTG_T_REAL, 2 }

/* The ordered registry (src/experiments/experiments.c). */
extern const struct wtg_experiment *const wtg_experiments[];
extern const int wtg_nexperiments;
/* Index by name, or -1. */
int wtg_experiment_find(const char *name);
/* A session over the registry (wtg_session_open with wtg_experiments), compare pairing at first what
 * the options chose (wtg_compare_pair_of). Returns 0 or -1 (message printed). */
int wtg_session_init(struct wtg_session *s, const struct wtg_options *opt, const char *argv0);
/* The declared column `name` of e, or -1 (this, wtg_experiment_columns and wtg_experiment_typical_s read
 * the descriptor alone: src/engine/descriptor.c). */
int wtg_experiment_col(const struct wtg_experiment *e, const char *name);
/* Give the table e's declared columns (every run function starts with it). */
void wtg_experiment_columns(const struct wtg_experiment *e, struct wtg_table *t);
/* Whether e's declaration holds together: every column a view, headline or pairing names is
 * declared, no column repeats, the declared view has its spec. Returns 0, or -1 with why. */
int wtg_experiment_check(const struct wtg_experiment *e, char *why, size_t len);
/* Typical wall time of a run of e in seconds on a two-core machine, by default or with --quick
 * (measured with the whole catalogue; shown by --list and the README). 0 when unknown. */
int wtg_experiment_typical_s(const struct wtg_experiment *e, bool quick);
/* e's runs line for a run by default or with --quick (e->runs_with into buf, else e->runs). */
const char *wtg_experiment_runs(const struct wtg_experiment *e, bool quick, char *buf, size_t len);
/* e's verdict line for table t (the caller holds t's lock or a snapshot): e->verdict, else
 * "FIGURE: VALUE UNIT" from the first headline figure found in t; when the first headline's row
 * counts contended samples, " (3 of 15 samples waited for a CPU)" follows, so a figure measured on a
 * busy machine says so; when its samples fall into two clusters, "; 85 ns (60%) and 103 ns (40%): two
 * regimes" ends it (wtg/modes.h). Returns its length, 0 for none. */
int wtg_experiment_verdict(const struct wtg_experiment *e, const struct wtg_table *t, char *buf, size_t len);
/* " (3 of 15 samples waited for a CPU)" when the first headline's row has contended samples, else "";
 * wtg_experiment_verdict puts it after the verdict, unless a verdict with parts (ceiling's) put it
 * after the part that gives that figure. Returns its length. */
int wtg_verdict_busy_note(const struct wtg_experiment *e, const struct wtg_table *t, char *buf, size_t len);
/* For a verdict or an essay's cannot: column col of the row whose key_col reads key (key_col NULL:
 * the last row), NAN when there is none; col NULL: the median of the series called key. */
double wtg_verdict_value(const struct wtg_table *t, const char *key_col, const char *key, const char *col);
/* Column col's largest (most > 0) or smallest (most < 0) value over the rows whose text column
 * key_col reads key (key_col NULL: every row); *row gets that row when not NULL. NAN when none. */
double wtg_verdict_extreme(const struct wtg_table *t, const char *key_col, const char *key, const char *col,
			   int most, int *row);
/* For a verdict: the ratio of column col of row rn to that of row rd, with its 95% CI: a bootstrap
 * of the ratio of medians (wtg_bootstrap_ratio_ci) from the series named sn and sd when both exist,
 * else combined from the rows' CI columns col_ci_low and col_ci_high (wtg_ratio_ci's "from CIs"),
 * else none (NAN bounds). Returns the ratio, NAN when a row or its value is missing. */
double wtg_verdict_ratio(const struct wtg_table *t, int rn, int rd, const char *col, const char *sn,
			 const char *sd, double *lo, double *hi);
/* snprintf for a verdict: the length written (clamped to len - 1), 0 when a figure was not finite. */
int wtg_verdict_fmt(char *buf, size_t len, bool ok, const char *fmt, ...) WTG_PRINTF(4, 5);
const char *wtg_view_name(enum wtg_view v);

/* The hidden child mode of faultbase (wtg --child=MODE FILE): exit, map, or sum. Returns the exit status. */
int wtg_faultbase_child(const char *mode, const char *path);

#endif
