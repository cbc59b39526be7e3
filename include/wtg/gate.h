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

enum wtg_verdict { WTG_V_NONE = 0, WTG_V_SAME, WTG_V_FASTER, WTG_V_SLOWER, WTG_V_REGRESSION,
		   WTG_V_MISSING, WTG_V_APART };

/* How a ratio reads: faster / slower when the CI excludes 1 (no change otherwise, and without a
 * CI), regression when worse by more than threshold (a fraction, 0 for none) with the CI excluding
 * it. */
enum wtg_verdict wtg_verdict_of(double ratio, double lo, double hi, bool higher_better, double threshold);
/* How a run reads against a baseline of several runs, [lo, hi] the ratio a next run's figure should
 * fall in (the baseline's next-run interval over its pooled value): no change inside it, slower or
 * faster outside it, regression when worse even than that interval made worse by threshold (a time:
 * ratio > hi (1 + threshold); a throughput: ratio < lo (1 - threshold)); no change without an
 * interval. */
enum wtg_verdict wtg_verdict_next(double ratio, double lo, double hi, bool higher_better, double threshold);
const char *wtg_verdict_name(enum wtg_verdict v);

/* One headline figure of two runs side by side: the same reading for the dashboard's before -> after
 * and the headless comparison. */
struct wtg_gate_pair {
	struct wtg_figure base, now;
	double ratio, lo, hi;		/* now / base with its 95% CI (NAN: none) */
	const char *method;		/* wtg_ratio_ci's */
	enum wtg_verdict v;		/* MISSING: a side lacks the figure; APART: not comparable */
	char why[96];			/* APART: what differs between the runs' work ("wss 64M vs 16M") */
};
/* Read h's figure from base and now and compare them (threshold as for wtg_verdict_of). Runs whose
 * work differs (the headline's work_col) are APART, never a ratio. Every sample a side holds goes
 * into the bootstrap (no cap): the dashboard and the headless report read the same samples alike.
 * Without samples on both sides, the two CIs combine (wtg_ratio_ci). */
void wtg_gate_pair(const struct wtg_headline *h, const struct wtg_table *base, const struct wtg_table *now,
		   uint64_t seed, double threshold, struct wtg_gate_pair *out);

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
