/* plan.h: --dry-run. What each selected experiment would run on this machine (its rows, with the
 * experiment's own column names, the samples per row) and how long it should take, without
 * measuring and without a data file. Each experiment's plan function fills a struct wtg_plan from
 * the same variant lists its run uses. */
#ifndef WTG_PLAN_H
#define WTG_PLAN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "wtg/machine.h"
#include "wtg/options.h"
#include "wtg/table.h"
#include "wtg/topology.h"

struct wtg_experiment;

#define WTG_PLAN_MAX_COLS 8

/* The machine the typical durations (wtg_experiment_typical_s) were measured on: two CPUs, one NUMA
 * node. A plan scales its experiment's typical time by its work here over the work there. */
#define WTG_PLAN_REF_CPUS 2

/* One experiment's plan: the inputs a plan function reads, and what it writes. */
struct wtg_plan {
	/* read */
	const struct wtg_experiment *exp;
	const struct wtg_options *opt;
	const struct wtg_machine *machine;
	const struct wtg_topology *topo;
	uint64_t file_size;	/* the data file's size: --file's, else --size */
	/* written */
	const char *cols[WTG_PLAN_MAX_COLS];	/* declared column names of exp (wtg_plan_columns) */
	int ncols;
	struct wtg_value *vals;	/* nrows x ncols; texts owned by the plan */
	int nrows, cap;
	int samples;		/* timed samples per row */
	int warmup;		/* untimed samples per row before them */
	/* then a warm-up with a stopping rule (wtg/warmup.h): windows of warm_window untimed samples (of
	 * one row) until five consecutive windows' medians lie within 1%, at most warm_max windows;
	 * warm_window 0: none */
	int warm_window, warm_max;
	double work, ref_work;	/* the planned work here and on the reference machine (same unit) */
	char how[200];		/* how the estimate scales, in words */
	/* --versus (wtg/paired.h): 2 when every row runs in two arms (the samples and time doubled,
	 * with burners' settling per switch), 1 otherwise; unpaired: why not, when --versus is given */
	int arms;
	double switch_s;	/* the time the arms' switches add */
	bool b_timed;		/* arm B measures as long as arm A each round, not A's samples */
	char unpaired[192];
	bool failed;		/* out of memory */
};

/* Name the columns a plan's rows give (each must be one of exp's declared columns). */
void wtg_plan_columns(struct wtg_plan *p, const char *const *names, int n);
/* Add a row of ncols values (texts are copied). */
void wtg_plan_row(struct wtg_plan *p, const struct wtg_value *v);
/* A plan of fixed variants: one row per label in column col, samples (and warmup) each. */
void wtg_plan_labels(struct wtg_plan *p, const char *col, const char *const *labels, int n, int samples,
		     int warmup);
/* The estimated seconds: typical time x work / ref_work (the typical time when either is 0). */
double wtg_plan_estimate(const struct wtg_plan *p);

/* Make e's plan into p (its plan function, else one row-less entry at the typical time); free it
 * with wtg_plan_free. */
void wtg_plan_make(struct wtg_plan *p, const struct wtg_experiment *e, const struct wtg_options *o,
		   const struct wtg_machine *m, const struct wtg_topology *t);
void wtg_plan_free(struct wtg_plan *p);

/* e's estimated seconds on this machine, as --dry-run gives it (the headless progress line's time
 * left starts from it). */
double wtg_plan_seconds(const struct wtg_experiment *e, const struct wtg_options *o, const struct wtg_machine *m,
			const struct wtg_topology *t);
/* A duration as --dry-run and the progress line say it: "< 1 s", "12 s", "3 min 05 s". */
void wtg_plan_duration(char *buf, size_t len, double s);

/* --dry-run (src/report/dryrun.c): plan every experiment o selects and print the plans to f as text
 * or JSON (o->format). Returns 0, or 1 when a plan could not be made or f is in error; the caller
 * flushes f and names a failed write. */
int wtg_plan_main(FILE *f, const struct wtg_options *o);

#endif
