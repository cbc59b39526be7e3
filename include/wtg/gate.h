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
#include "wtg/verdict.h"

/* The exit status of a gate that found a regression. */
#define WTG_EXIT_REGRESSION 3

/* One run to compare: its metadata and its tables, by registry index (NULL: not in that run). */
struct wtg_gate_run {
	const struct wtg_run_meta *meta;
	struct wtg_table *tables[WTG_MAX_EXP];
};

/* Whether any of the runs has rows of experiment idx. */
bool wtg_gate_any_table(const struct wtg_gate_run *runs, int nruns, int idx);

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
