/* gate.h: headline figures of several runs side by side, each run's ratio to the first with a
 * bootstrap CI, and the noise-aware regression gate (--baseline, --threshold, exit 3). */
#ifndef WTG_GATE_H
#define WTG_GATE_H

#include <stdbool.h>
#include <stdio.h>

#include "wtg/experiment.h"
#include "wtg/figure.h"
#include "wtg/load.h"
#include "wtg/options.h"
#include "wtg/table.h"

/* The exit status of a gate that found a regression. */
#define WTG_EXIT_REGRESSION 3

/* One run to compare: its metadata and its tables, by registry index (NULL: not in that run). */
struct wtg_gate_run {
	const struct wtg_run_meta *meta;
	struct wtg_table *tables[WTG_MAX_EXP];
};

/* Whether any of the runs has rows of experiment idx. */
bool wtg_gate_any_table(const struct wtg_gate_run *runs, int nruns, int idx);

/* The band of "no change": a ratio's interval inside 1 +- this percentage (the gate's --threshold
 * default; the dashboard's band as well). */
#define WTG_NO_CHANGE_PCT 10.0

enum wtg_verdict { WTG_V_NONE = 0, WTG_V_SAME, WTG_V_FASTER, WTG_V_SLOWER, WTG_V_REGRESSION,
		   WTG_V_MISSING, WTG_V_APART, WTG_V_INCONCLUSIVE, WTG_V_MOVED, WTG_V_NO_DRIFT, WTG_V_NOISE };

/* How a ratio reads: faster / slower when its CI excludes 1; no change when the CI lies inside 1 +-
 * the band (threshold, a fraction; 0: WTG_NO_CHANGE_PCT); inconclusive otherwise (the CI holds 1
 * and reaches beyond the band), and without a CI; regression, with threshold > 0 (a gate), when worse by
 * more than threshold with the CI beyond it too. */
enum wtg_verdict wtg_verdict_of(double ratio, double lo, double hi, bool higher_better, double threshold);
/* How a run reads against a baseline of several runs, [lo, hi] the ratio a next run's figure should
 * fall in (the baseline's next-run interval over its pooled value): the run's change is the ratio
 * over that interval ([ratio / hi, ratio / lo]), read as wtg_verdict_of reads a CI: slower or faster
 * outside the interval, no change when the change lies inside 1 +- the band, inconclusive otherwise;
 * regression when worse even than that interval made worse by threshold (a time: ratio > hi (1 +
 * threshold); a throughput: ratio < lo (1 - threshold)); inconclusive without an interval. */
enum wtg_verdict wtg_verdict_next(double ratio, double lo, double hi, bool higher_better, double threshold);
/* The verdict in words ("no change", "inconclusive", "differ by more than their intervals: ..."). */
const char *wtg_verdict_name(enum wtg_verdict v);
/* The same in a few words for the dashboard's one line of 60 or 80 columns, after an interval that
 * excludes 1: "the machine moved" (MOVED), "drift unknown" (NO_DRIFT: none measured), else wtg_verdict_name. */
const char *wtg_verdict_short(enum wtg_verdict v);
/* The verdict as a person reads it: wtg_verdict_name, the interval after "inconclusive"
 * ("inconclusive [0.86-0.99]", dash between the bounds), the difference after "within its noise"
 * ("within its noise: +12 ns [-40, +60]": diff set, unit the figure's). Returns buf. */
const char *wtg_verdict_words(char *buf, size_t len, enum wtg_verdict v, double lo, double hi, const char *dash,
			      double diff, const char *unit);

/* A signed figure for a difference: "+12", "-40.5", "+150000" (whole above 1000), "0". Returns buf. */
const char *wtg_fmt_signed(char *buf, size_t len, double v);
/* A difference after - before with its interval [lo, hi] in the figure's unit (a figure that is a
 * difference itself, never put in a ratio): faster / slower when the interval excludes 0, else
 * within its noise; without an interval, within its noise. */
enum wtg_verdict wtg_verdict_diff(double diff, double lo, double hi, bool higher_better);

/* The run-to-run drift of one figure on this machine, from what was measured in this session: the
 * spread of each run's replica medians about their run's own (blocks measured seconds apart: how far
 * the machine's state moves while nothing changes), and A/A pairs (two runs with nothing changed
 * between them). A sequential comparison (two runs one after the other) calls a change faster or
 * slower only when its interval lies beyond this drift. */
struct wtg_drift {
	double ss_log, ss_abs;	/* replica medians' squared deviations from their run's mean (log; unit) */
	int df;			/* their degrees of freedom: replicas less one, summed over the runs */
	int runs;		/* runs whose replicas were counted */
	int pairs;		/* A/A pairs */
	double aa_log, aa_abs;	/* the largest |log(b / a)| and |b - a| of the A/A pairs */
};
void wtg_drift_init(struct wtg_drift *d);
/* Count f's replicas (two or more with samples; a figure without them adds nothing). */
void wtg_drift_add_run(struct wtg_drift *d, const struct wtg_figure *f);
/* Count an A/A pair: figure a, then b with nothing changed. */
void wtg_drift_add_pair(struct wtg_drift *d, double a, double b);
/* The drift as a band: a run's figure moves from the last by a factor within [1 / (1 + *ratio_band),
 * 1 + *ratio_band], or by +- *abs_band in the unit: the larger of the replicas' band (t at 97.5%
 * with their degrees of freedom, times sqrt 2 times their pooled standard deviation: two runs, each
 * of which may sit in one state all along as a replica does) and the largest A/A move. Returns
 * false (bands NAN) when nothing was measured. */
bool wtg_drift_band(const struct wtg_drift *d, double *ratio_band, double *abs_band);

/* How two runs taken one after the other read (a saved run against a later one, two --load files,
 * the dashboard's before -> after): as wtg_verdict_of, except that a CI excluding 1 says faster or
 * slower only when it also lies beyond the drift (ratio_band, NAN: none measured): inside it, "differ
 * by more than their intervals: the machine's state moved between the runs" (MOVED), or without a
 * drift NO_DRIFT; no change when the CI lies inside the band whatever the drift; a regression as
 * wtg_verdict_of has it (the gate's exit 3 is the same). */
enum wtg_verdict wtg_verdict_sequential(double ratio, double lo, double hi, bool higher_better, double threshold,
					double ratio_band);
/* The same for a difference, abs_band the drift in the figure's unit. */
enum wtg_verdict wtg_verdict_sequential_diff(double diff, double lo, double hi, bool higher_better,
					     double abs_band);

/* One headline figure of two runs side by side: the same reading for the dashboard's before -> after
 * and the headless comparison. */
struct wtg_gate_pair {
	struct wtg_figure base, now;
	double ratio, lo, hi;		/* now / base with its 95% CI (NAN: none; a difference: NAN) */
	const char *method;		/* wtg_ratio_ci's (wtg_diff_ci's) */
	bool difference;		/* the headline is a difference: diff, diff_lo, diff_hi hold it */
	double diff, diff_lo, diff_hi;	/* now - base with its 95% CI in the figure's unit */
	bool drift_known;		/* this session measured the figure's drift */
	double drift_ratio, drift_abs;	/* wtg_drift_band's bands (NAN: not measured) */
	enum wtg_verdict v;		/* MISSING: a side lacks the figure; APART: not comparable */
	char why[96];			/* APART: what differs between the runs' work ("wss 64M vs 16M") */
};
/* Read h's figure from base and now and compare them as two runs taken one after the other
 * (wtg_verdict_sequential; threshold as for wtg_verdict_of), the drift from both runs' replicas. Runs
 * whose work differs (the headline's work_col) are APART, never a ratio; a difference headline
 * compares as one (wtg_diff_ci, wtg_verdict_sequential_diff). Every sample a side holds goes into the
 * bootstrap (no cap): the dashboard and the headless report read the same samples alike. Without
 * samples on both sides, the two CIs combine (wtg_ratio_ci). */
void wtg_gate_pair(const struct wtg_headline *h, const struct wtg_table *base, const struct wtg_table *now,
		   uint64_t seed, double threshold, struct wtg_gate_pair *out);
/* The same with the drift this session measured of the figure (the caller counts the two runs'
 * replicas in it; NULL: the two runs' replicas alone). */
void wtg_gate_pair_drift(const struct wtg_headline *h, const struct wtg_table *base, const struct wtg_table *now,
			 uint64_t seed, double threshold, const struct wtg_drift *session, struct wtg_gate_pair *out);
/* The pair's verdict in words (wtg_verdict_words, the difference's own for a difference headline). */
const char *wtg_gate_pair_words(char *buf, size_t len, const struct wtg_headline *h, const struct wtg_gate_pair *p,
				const char *dash);

/* Lines naming what differs between the first run and run r that changes what figures mean
 * (machine, options, conditions); one "wtg: warning: ..." line per run on f. Returns how many. */
int wtg_gate_warn_differences(FILE *f, const struct wtg_gate_run *runs, int nruns);

/* Print every headline figure of every run with its ratio to the first, in fmt (text, csv, json,
 * markdown); threshold_pct > 0 makes it a gate. Returns how many figures regressed, or -1 on a
 * write error. */
int wtg_gate_report(FILE *f, enum wtg_format fmt, const struct wtg_gate_run *runs, int nruns,
		    double threshold_pct, uint64_t seed);
/* A report that follows the comparison (the replication table, src/saved/replicate.c): in text after
 * it, in json as the document's "replication" member. */
typedef int (*wtg_gate_extra_fn)(FILE *f, enum wtg_format fmt, const struct wtg_gate_run *runs, int nruns,
				 uint64_t seed);
/* The same, with extra (when not NULL) after it in text and json (csv and markdown: none). */
int wtg_gate_report_replication(FILE *f, enum wtg_format fmt, const struct wtg_gate_run *runs, int nruns,
				double threshold_pct, uint64_t seed, wtg_gate_extra_fn extra);
/* The same with the first nbase runs as one baseline (the runs of a --replicate document, four or
 * more): per figure they are pooled (wtg_pool_runs), each later run's ratio is to the pooled value,
 * its interval the baseline's next-run interval over that value (ci_method "next run") and its
 * verdict wtg_verdict_next; the baseline's own runs get their ratio to the pooled value and no
 * verdict. nbase 1: wtg_gate_report_replication. */
int wtg_gate_report_base(FILE *f, enum wtg_format fmt, const struct wtg_gate_run *runs, int nruns, int nbase,
			 double threshold_pct, uint64_t seed, wtg_gate_extra_fn extra);

#endif
