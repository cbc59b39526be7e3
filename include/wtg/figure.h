/* figure.h: a headline's figure read from a table, and the ratio of two with its interval
 * (src/experiments/headline.c). */
#ifndef WTG_FIGURE_H
#define WTG_FIGURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct wtg_experiment;
struct wtg_headline;
struct wtg_table;

/* The headline figures e's descriptor declares (n of them, 0 when it has none). */
const struct wtg_headline *wtg_headlines_of(const struct wtg_experiment *e, int *n);

/* A figure taken from a table: its value, CI and raw samples (pointing into the table; none for a
 * per-unit figure, whose CI is scaled instead). */
struct wtg_figure {
	bool found;
	double value, lo, hi;		/* lo, hi NAN without CI columns */
	const double *samples;
	size_t nsamples;
	const size_t *replica_len;	/* the samples' replicas (their series'), NULL: not known */
	int nreplicas;
	double work;			/* the headline's work_col in the figure's row, NAN without one */
	double spread_pct;		/* the row's col_replica_spread_pct over its replicas (NAN: none) */
	int spread_replicas;
};
/* f's samples (and their replicas) from t's last series called name with any; unchanged when none. */
void wtg_figure_series(const struct wtg_table *t, const char *name, struct wtg_figure *f);
/* Read h's figure from t (t locked by the caller, or not shared). */
void wtg_figure_read(const struct wtg_headline *h, const struct wtg_table *t, struct wtg_figure *f);
/* The row of t that h reads: the one whose key_col reads key (numbers compared as numbers), or the
 * last row; in a paired run (column arm) only arm A's rows count. -1 when none. */
int wtg_headline_row(const struct wtg_headline *h, const struct wtg_table *t);
/* h's figure as row `row` of t holds it (row < 0: the row h names, as wtg_figure_read). */
void wtg_figure_read_row(const struct wtg_headline *h, const struct wtg_table *t, int row, struct wtg_figure *f);
/* Whether row r of t is one of a paired run's arm B rows (its column arm reads B, wtg/paired.h):
 * the figures and verdicts of a run read arm A's. */
bool wtg_row_arm_b(const struct wtg_table *t, int r);
/* The same, with a 95% CI bootstrapped (seeded) from the figure's samples where the table gives
 * none: how runs are set side by side (the replication table, a baseline of several runs). */
void wtg_figure_read_ci(const struct wtg_headline *h, const struct wtg_table *t, uint64_t seed, struct wtg_figure *f);

/* Whether two figures of headline h can be compared: false when h's work_col differs between them
 * (then why gets "64M vs 16M wss"), true otherwise. */
bool wtg_figure_comparable(const struct wtg_headline *h, const struct wtg_figure *a, const struct wtg_figure *b,
			   char *why, size_t len);

/* now/base and its 95% CI: a percentile bootstrap of the ratio of medians (resamples drawn with a
 * generator seeded with seed) when both have raw samples, two-level where a side's series says
 * which replicas its samples fall into (wtg_bootstrap_ratio_ci_replicas: the spread between a
 * run's replicas widens it, as it widens that run's own interval), else one combined from the two
 * CIs (each read as normal on the log scale, the runs independent), else none (NAN). method gets
 * "bootstrap", "bootstrap of replicas", "from CIs" or "none". */
void wtg_ratio_ci(const struct wtg_figure *base, const struct wtg_figure *now, uint64_t seed, double *ratio,
		  double *lo, double *hi, const char **method);
/* now - base and its 95% CI in the figure's unit, drawn as wtg_ratio_ci draws the ratio (the two-level
 * bootstrap of the medians' difference, else the two CIs combined as normal ones, else none). */
void wtg_diff_ci(const struct wtg_figure *base, const struct wtg_figure *now, uint64_t seed, double *diff,
		 double *lo, double *hi, const char **method);

#endif
