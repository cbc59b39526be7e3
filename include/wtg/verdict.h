/* verdict.h: how a comparison reads: the rule for a ratio's interval (faster, slower, no change,
 * inconclusive, a regression), a difference's, and two runs taken one after the other, read against
 * the run-to-run drift this session measured (src/saved/verdict.c). */
#ifndef WTG_VERDICT_H
#define WTG_VERDICT_H

#include <stdbool.h>
#include <stddef.h>

#include "wtg/figure.h"

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

#endif
